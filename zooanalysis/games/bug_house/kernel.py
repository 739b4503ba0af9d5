"""The numba kernel: a whole batch of Bug House Millionaire games on flat arrays.

It follows ``engine.py`` event for event and draw for draw: the same deal, the same turns,
the same thinking times, the same choices (the compiled strategies of ``strategies.py``),
the two duels' events interleaved by time the same way (duel 0 first at equal times).
Hands are face masks (one ``uint64`` per seat); a duel is a handful of scalars in small
arrays (mover, phase, turn start, due time, the top meld, the trick as a mask); counts go
straight into the totals with one add each. Nothing is allocated per game or decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces, face_bit
from zooanalysis.cards.deck import deal_into
from zooanalysis.decisions import count_decision, count_game_decisions
from zooanalysis.games.bug_house.counts import CARD_BINS, TIME_BINS, TRICK_BINS, new_rows
from zooanalysis.games.bug_house.engine import (
    CLOCK,
    F_CARDS,
    F_CLOCK_USED,
    F_DECISIONS,
    F_GIFTS_NEEDED,
    F_GIVEN,
    F_PASSES,
    F_RECEIVED,
    F_SINGLES_CARD,
    F_STUCK,
    F_TRICKS,
    FOLLOW,
    GIVE,
    LEAD,
    SHED,
    STUCK,
)
from zooanalysis.games.bug_house.melds import NONE, SINGLE, meld_count
from zooanalysis.games.bug_house.rules import SEATS, START_SEATS, TALK_NEED, TEAMS
from zooanalysis.games.bug_house.strategies import (
    choose_gift,
    choose_meld,
    give_ms,
    stated_need,
    think_ms,
)
from zooanalysis.outcome import tally_outcome
from zooanalysis.rng import seed_game
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

_ZERO = np.uint64(0)
OK, ILLEGAL = 0, 1


def play_batch(
    config: dict,
    codes: np.ndarray,
    params: np.ndarray,
    batch_seed: int,
    n_games: int,
    totals: dict[str, np.ndarray],
    rows: dict[str, np.ndarray] | None = None,
    first_game: int = 0,
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed``, adding into ``totals`` (``counts.new_totals``) and, if given, one row per
    game into ``rows`` (``counts.new_rows``). ``config`` is ``batch.kernel_config``.
    Raises ``RuntimeError`` if a strategy made an illegal choice (a bug)."""
    rows = rows or new_rows(0)
    status = _play_batch(
        config["deck"], config["clock_ms"], config["min_run"], config["longer_ok"],
        config["passing"], config["talk"], config["delayed"], config["distribution"],
        codes, params, np.uint64(batch_seed), np.int64(first_game), n_games,
        totals["games"], totals["wins"], totals["points_sum"], totals["points_squares"],
        totals["team_wins"], totals["ends"], totals["end_seconds"], totals["tricks_hist"],
        totals["seat_counts"], totals["gift_squares"], totals["gift_cross"],
        totals["given_squares"], totals["cards_left"], totals["singles_card"],
        totals["lead_changes_hist"], totals["settled_hist"], totals["win_ties"],
        totals["margins"], totals["decision_options"], totals["game_decisions"],
        rows["row_points"], rows["row_end_ms"], rows["row_reason"],
        rows["row_ender"], rows["row_tricks"],
    )
    if status != OK:
        raise RuntimeError("a Bug House strategy made an illegal move in the kernel")


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _singles_ok(seat, delayed, holders) -> bool:
    """Whether ``seat`` may lead a single (Delayed Singles: its team's card is free or its
    own)."""
    holder = holders[seat % TEAMS]
    return (not delayed) or holder == -1 or holder == seat


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _start_turn(
    d, seat, phase, now, hands, clocks, mover, phases, starts, due, flag, top_kind, top_len,
    top_high, holders, params, min_run, longer_ok, delayed, distribution, stream, seat_counts,
    cache,
):
    """``engine.start_turn``: the clock of ``seat`` runs from ``now`` for a ``phase``
    decision; draw its time, or make it stuck (no legal lead). ``cache[d]`` keeps (hand,
    singles allowed, legal melds) for the decision."""
    mover[d] = seat
    phases[d] = phase
    starts[d] = now
    clock = clocks[seat]
    if phase == GIVE:
        think = give_ms(params, seat, distribution, stream)
    else:
        singles_ok = _singles_ok(seat, delayed, holders)
        n = meld_count(
            hands[seat], top_kind[d], top_len[d], top_high[d], min_run, longer_ok, singles_ok
        )
        cache[d, 0] = np.int64(hands[seat])
        cache[d, 1] = 1 if singles_ok else 0
        cache[d, 2] = n
        if phase == LEAD and n == 0:
            phases[d] = STUCK
            due[d] = now + clock
            flag[d] = True
            seat_counts[seat, F_STUCK] += 1
            return
        think = think_ms(params, seat, n + (1 if phase == FOLLOW else 0), distribution, stream)
    flag[d] = think >= clock
    due[d] = now + min(think, clock)


@njit(cache=True, nogil=True, error_model="numpy")
def _count_outcome(
    winner, scores, wins, points_sum, points_squares, team_wins, win_ties, margins
) -> None:
    """``counts.tally_outcome``: both seats of the winning team win (two tied winners), a
    win is 1 point; the shared outcome counts."""
    for seat in range(SEATS):
        won = 1 if seat % TEAMS == winner else 0
        scores[seat] = won
        wins[seat] += won
        points_sum[seat] += won
        points_squares[seat] += won
    team_wins[winner] += 1
    tally_outcome(scores, np.int64(SEATS), np.bool_(False), win_ties, margins)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _team_leader(hands) -> int:
    """``engine.team_leader``: the team whose closest-to-out player holds fewer cards."""
    closest0 = min(count_faces(hands[0]), count_faces(hands[2]))
    closest1 = min(count_faces(hands[1]), count_faces(hands[3]))
    if closest0 == closest1:
        return -1
    return 0 if closest0 < closest1 else 1


@njit(cache=True, nogil=True, error_model="numpy")
def count_gift_squares(seat_counts, gifts_before, gift_squares, gift_cross, given_squares):
    """The per-game sums of squares of ``counts.new_totals`` for the game just played: its
    gifts needed and cards given per seat are ``seat_counts`` less ``gifts_before``."""
    all_needed = 0
    all_given = 0
    for seat in range(SEATS):
        needed = seat_counts[seat, F_GIFTS_NEEDED] - gifts_before[seat, 0]
        given = seat_counts[seat, F_GIVEN] - gifts_before[seat, 1]
        gift_squares[seat] += needed * needed
        gift_cross[seat] += needed * given
        given_squares[seat] += given * given
        all_needed += needed
        all_given += given
    gift_squares[SEATS] += all_needed * all_needed
    gift_cross[SEATS] += all_needed * all_given
    given_squares[SEATS] += all_given * all_given


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    template, clock_ms, min_run, longer_ok, passing, talk, delayed, distribution,
    codes, params, batch_seed, first_game, n_games,
    games, wins, points_sum, points_squares, team_wins, ends, end_seconds, tricks_hist,
    seat_counts, gift_squares, gift_cross, given_squares, cards_left, singles_card,
    lead_changes_hist, settled_hist, win_ties, margins, decision_options, game_decisions,
    row_points, row_end_ms, row_reason, row_ender, row_tricks,
):
    with_rows = row_points.shape[0] > 0
    stream = np.zeros(1, dtype=np.uint64)
    deck = np.empty(template.shape[0], dtype=template.dtype)
    dealt = np.empty((SEATS, template.shape[0] // SEATS), dtype=template.dtype)
    hands = np.zeros(SEATS, dtype=np.uint64)
    clocks = np.zeros(SEATS, dtype=np.int64)
    scores = np.zeros(SEATS, dtype=np.int64)
    mover = np.zeros(2, dtype=np.int64)
    phases = np.zeros(2, dtype=np.int64)
    starts = np.zeros(2, dtype=np.int64)
    due = np.zeros(2, dtype=np.int64)
    flag = np.zeros(2, dtype=np.bool_)
    top_kind = np.zeros(2, dtype=np.int64)
    top_len = np.zeros(2, dtype=np.int64)
    top_high = np.zeros(2, dtype=np.int64)
    trick = np.zeros(2, dtype=np.uint64)
    holders = np.zeros(TEAMS, dtype=np.int64)
    last_not = np.zeros(TEAMS, dtype=np.int64)
    taken = np.zeros(TEAMS, dtype=np.int64)
    cache = np.zeros((2, 3), dtype=np.int64)
    gifts_before = np.zeros((SEATS, 2), dtype=np.int64)  # F_GIFTS_NEEDED, F_GIVEN so far
    per_player = template.shape[0] // SEATS
    for g in range(n_games):
        seed_game(stream, batch_seed, first_game + g)
        for seat in range(SEATS):
            gifts_before[seat, 0] = seat_counts[seat, F_GIFTS_NEEDED]
            gifts_before[seat, 1] = seat_counts[seat, F_GIVEN]
        deck[:] = template
        deal_into(deck, np.int64(SEATS), per_player, stream, dealt)
        for seat in range(SEATS):
            mask = _ZERO
            for i in range(per_player):
                mask |= face_bit(dealt[seat, i])
            hands[seat] = mask
            clocks[seat] = clock_ms
        holders[:] = -1
        taken[:] = 0
        last_not[:] = 0
        now = 0
        tricks = 0
        previous = -1
        changes = 0
        decided = 0  # real decisions this game (zooanalysis.decisions)
        for d in range(2):
            top_kind[d] = NONE
            top_len[d] = 0
            top_high[d] = -1
            trick[d] = _ZERO
            _start_turn(
                d, START_SEATS[d], LEAD, now, hands, clocks, mover, phases, starts, due, flag,
                top_kind, top_len, top_high, holders, params, min_run, longer_ok, delayed,
                distribution, stream, seat_counts, cache,
            )
        reason = CLOCK
        ender = 0
        while True:
            d = 0 if due[0] <= due[1] else 1
            now = due[d]
            seat = mover[d]
            if flag[d]:
                reason = CLOCK
                ender = seat
                break
            clocks[seat] -= now - starts[d]
            starts[d] = now
            if phases[d] == LEAD and meld_count(
                hands[seat], np.int64(NONE), np.int64(0), np.int64(-1), min_run, longer_ok,
                _singles_ok(seat, delayed, holders),
            ) == 0:  # engine.become_stuck: the partner took the Singles Allowed card
                phases[d] = STUCK
                due[d] = now + clocks[seat]
                flag[d] = True
                seat_counts[seat, F_STUCK] += 1
                continue
            seat_counts[seat, F_DECISIONS] += 1
            opponent = seat ^ 1
            if phases[d] == GIVE:
                decided += count_decision(count_faces(trick[d]), decision_options)
                partner = seat ^ 2
                need = _ZERO
                if talk == TALK_NEED:
                    need = stated_need(hands[partner], min_run)
                card = choose_gift(codes[seat], params, seat, trick[d], need, stream)
                bit = face_bit(card)
                if trick[d] & bit == _ZERO:
                    return ILLEGAL
                if stated_need(hands[partner], min_run) & bit != _ZERO:
                    seat_counts[seat, F_GIFTS_NEEDED] += 1
                hands[partner] |= bit
                trick[d] = _ZERO
                seat_counts[seat, F_GIVEN] += 1
                seat_counts[partner, F_RECEIVED] += 1
                # engine.wake_partner
                other = 1 - d
                if phases[other] == STUCK and mover[other] == partner:
                    singles_ok = _singles_ok(partner, delayed, holders)
                    if meld_count(
                        hands[partner], np.int64(NONE), np.int64(0), np.int64(-1), min_run,
                        longer_ok, singles_ok,
                    ):
                        clocks[partner] -= now - starts[other]
                        _start_turn(
                            other, partner, LEAD, now, hands, clocks, mover, phases, starts,
                            due, flag, top_kind, top_len, top_high, holders, params, min_run,
                            longer_ok, delayed, distribution, stream, seat_counts, cache,
                        )
                _start_turn(
                    d, seat, LEAD, now, hands, clocks, mover, phases, starts, due, flag,
                    top_kind, top_len, top_high, holders, params, min_run, longer_ok, delayed,
                    distribution, stream, seat_counts, cache,
                )
                continue
            singles_ok = _singles_ok(seat, delayed, holders)
            if cache[d, 0] == np.int64(hands[seat]) and cache[d, 1] == (1 if singles_ok else 0):
                known = cache[d, 2]  # nothing changed since the turn began
            else:  # a gift reached the hand while it thought
                known = meld_count(hands[seat], top_kind[d], top_len[d], top_high[d], min_run,
                                   longer_ok, singles_ok)
            decided += count_decision(known + (1 if phases[d] == FOLLOW else 0), decision_options)
            meld, kind, length, high = choose_meld(
                codes[seat], params, seat, hands[seat], top_kind[d], top_len[d], top_high[d],
                min_run, longer_ok, singles_ok, count_faces(hands[opponent]), known, stream,
            )
            if meld == _ZERO:
                if phases[d] != FOLLOW:
                    return ILLEGAL
                seat_counts[seat, F_PASSES] += 1
                # engine.end_trick: the opponent won the trick
                seat_counts[opponent, F_TRICKS] += 1
                leader = _team_leader(hands)
                if leader != -1:
                    if previous != -1 and leader != previous:
                        changes += 1
                    previous = leader
                for team in range(TEAMS):
                    if leader != team:
                        last_not[team] = tricks + 1
                tricks += 1
                top_kind[d] = NONE
                top_len[d] = 0
                top_high[d] = -1
                if not passing:
                    trick[d] = _ZERO
                _start_turn(
                    d, opponent, GIVE if passing else LEAD, now, hands, clocks, mover, phases,
                    starts, due, flag, top_kind, top_len, top_high, holders, params, min_run,
                    longer_ok, delayed, distribution, stream, seat_counts, cache,
                )
                continue
            if meld & ~hands[seat] != _ZERO:
                return ILLEGAL
            hands[seat] &= ~meld
            trick[d] |= meld
            if top_kind[d] == NONE and kind == SINGLE and delayed and holders[seat % TEAMS] == -1:
                holders[seat % TEAMS] = seat
                taken[seat % TEAMS] = 1
                seat_counts[seat, F_SINGLES_CARD] += 1
            top_kind[d] = kind
            top_len[d] = length
            top_high[d] = high
            seat_counts[seat, kind] += 1
            seat_counts[seat, F_CARDS] += length
            if hands[seat] == _ZERO:
                reason = SHED
                ender = seat
                break
            _start_turn(
                d, opponent, FOLLOW, now, hands, clocks, mover, phases, starts, due, flag,
                top_kind, top_len, top_high, holders, params, min_run, longer_ok, delayed,
                distribution, stream, seat_counts, cache,
            )
        # engine.finish
        count_game_decisions(decided, game_decisions)
        for d in range(2):
            clocks[mover[d]] -= now - starts[d]
        winner = ender % TEAMS if reason == SHED else 1 - ender % TEAMS
        games[0] += 1
        _count_outcome(winner, scores, wins, points_sum, points_squares, team_wins, win_ties,
                       margins)
        for seat in range(SEATS):
            seat_counts[seat, F_CLOCK_USED] += clock_ms - clocks[seat]
            cards_left[seat, min(count_faces(hands[seat]), CARD_BINS - 1)] += 1
        count_gift_squares(seat_counts, gifts_before, gift_squares, gift_cross, given_squares)
        ends[ender, reason] += 1
        end_seconds[reason, min(now // 1000, TIME_BINS - 1)] += 1
        tricks_hist[min(tricks, TRICK_BINS - 1)] += 1
        for team in range(TEAMS):
            singles_card[team, taken[team], 1 if team == winner else 0] += 1
        lead_changes_hist[min(changes, LEAD_CHANGE_BINS - 1)] += 1
        if tricks > 0:
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * last_not[winner]) // tricks)] += 1
        if with_rows:
            for seat in range(SEATS):
                row_points[g, seat] = scores[seat]
            row_end_ms[g] = now
            row_reason[g] = reason
            row_ender[g] = ender
            row_tricks[g] = min(tricks, 32767)
    return OK
