"""The fast path: a numba kernel that plays a whole batch of Big Two games.

It follows ``engine.py`` step by step on flat arrays and keeps only the counts of
``counts.new_totals``; per-game rows (``counts.new_rows``) only when asked. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``; the tests hold both to that.

A hand is an id mask (``plays.py``: bit ``big rank * 4 + suit strength``), so a play is
one AND-NOT and the legal plays are listed by ``plays.list_plays`` into two scratch
arrays allocated once per batch. :func:`play_round` is one round from given hands; the
batch loop deals and calls it, and ``exhibit.exhibit_round`` (Through the Zoo) calls it
with the hands it is given.

Speed: numba counts references (an atomic increment and decrement, each a call) on every
array argument of every call it cannot inline, so the ``random`` policy's common decisions
(a lead without the opening card, a follow of one, two or three cards) go through
``strategies.random_small``, which takes scalars only and the stream's state as a scalar
(``stream[0]``, written back after the draw); only five-card follows, leads drawn among
the five-card plays and the opening lead list plays into the scratch arrays, and draw
among them with ``strategies.random_index`` on the scalar state too. That made
``random*4`` about 1.45x as fast (same games, same draws; benchmarks/c_reference.py times
it against benchmarks/big_two_random.c).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces
from zooanalysis.cards.tricks import LATER_WINS
from zooanalysis.decisions import count_decision, count_game_decisions
from zooanalysis.games.big_two.counts import (
    CARDS_BINS,
    PENALTY_BINS,
    ROUND_BINS,
    TRICK_BINS,
    TURN_BINS,
    new_rows,
)
from zooanalysis.games.big_two.engine import MAX_ROUNDS
from zooanalysis.games.big_two.plays import list_five, list_plays, max_plays
from zooanalysis.games.big_two.rules import (
    FIRST_OUT,
    HARD,
    KIND_SHIFT,
    LOWEST_CARD,
    MAX_CARDS_PER_PLAYER,
    N_KINDS,
    R_DOUBLE,
    R_EXTRA,
    R_OPENING,
    R_PASSING,
    R_PER_PLAYER,
    R_ROUND_END,
    R_TARGET,
    R_TRIPLE,
    BigTwoSettings,
    rules_array,
)
from zooanalysis.games.big_two.strategies import (
    RANDOM,
    heuristic_play,
    random_index,
    random_small,
)
from zooanalysis.outcome import tally_outcome
from zooanalysis.rng import seed_game, shuffle
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

OK, ILLEGAL_PLAY = 0, 1
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
NOBODY = 99
T_LAST, T_CHANGES, T_STREAK, T_START = range(4)
"""Slots of the trajectory state carried across a game's rounds."""


def kernel_config(settings: BigTwoSettings) -> dict:
    """The arrays the kernel needs: the rules array, the deck and the face -> id table."""
    return {
        "rules": rules_array(settings),
        "deck": settings.deck.codes().astype(np.int64),
        "card_ids": settings.card_ids,
    }


def new_scratch() -> tuple[np.ndarray, np.ndarray]:
    """Play-list scratch for any hand (``plays.max_plays`` of the largest hand)."""
    size = max_plays(MAX_CARDS_PER_PLAYER + 1)
    return np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.int64)


@njit(cache=True, nogil=True, error_model="numpy")
def penalty_of(cards, rules) -> int:
    """``rules.penalty`` on the rules array."""
    factor = 1
    if rules[R_DOUBLE] > 0 and cards >= rules[R_DOUBLE]:
        factor = 2
    if rules[R_TRIPLE] > 0 and cards >= rules[R_TRIPLE]:
        factor = 3
    return cards * factor


@njit(cache=True, nogil=True, error_model="numpy")
def _fewest_other(hands, seat, players) -> int:
    fewest = NOBODY
    for other in range(players):
        if other != seat:
            held = count_faces(hands[other])
            if 0 < held < fewest:
                fewest = held
    return fewest


@njit(cache=True, nogil=True, error_model="numpy")
def play_round(
    rules, hands, start_seat, codes, params, stream, identical, masks, keys, penalties,
    move_base, traj, cards_left, out_order, kind_counts, lead_counts, sizes, decision_options,
):
    """One round from ``hands`` (id masks, emptied in place), as ``engine.play_round``.

    Writes ``cards_left`` and ``out_order`` (seats, -1 after the last out), adds decisions
    by kind into ``kind_counts[seat, kind]`` and leads into ``lead_counts[kind]``, and
    carries the score-check trajectory in ``traj`` (plays numbered from ``move_base``;
    ``penalties``: the match's totals before this round; ``sizes``: scratch for the hand
    sizes), and counts every decision's legal options (``engine.play_options``) into
    ``decision_options`` (``zooanalysis.decisions``). Returns (opener, turns, tricks,
    moves, status, real decisions)."""
    players = hands.shape[0]
    hard = rules[R_PASSING] == HARD
    until_first = rules[R_ROUND_END] == FIRST_OUT
    later = identical == LATER_WINS
    for seat in range(players):
        out_order[seat] = -1
        sizes[seat] = count_faces(hands[seat])
    # ---- the opening lead ----
    leader = start_seat
    must = _ZERO
    if rules[R_OPENING] == LOWEST_CARD:
        union = _ZERO
        for seat in range(players):
            union |= hands[seat]
        must = union & (~union + _ONE)
        for offset in range(players):
            seat = (start_seat + offset) % players
            if hands[seat] & must != _ZERO:
                leader = seat
                break
    opener = leader
    table_key = np.int64(0)  # typed, not the literal 0: see plays.py on compile time
    table_size = np.int64(0)
    table_seat = -1
    passed = 0
    passes_in_row = 0
    n_out = 0
    turns = 0
    moves = 0
    tricks = 1
    decided = 0  # real decisions this round (zooanalysis.decisions)
    seat = leader
    while True:
        hand = hands[seat]
        if codes[seat] == RANDOM:  # it counts the n legal plays as it draws
            if must == _ZERO and table_size != 5:  # scalars only: no reference counts
                mask, key, n, five, state = random_small(
                    hand, table_key, table_size, later, stream[0]
                )
                stream[0] = state
                if five >= 0:  # the lead drawn is a five-card play: list them
                    list_five(hand, np.int64(0), table_size == 0, _ZERO, identical, masks,
                              keys, np.int64(0))  # fmt: skip
                    mask, key = masks[five], keys[five]
            else:  # the opening lead, a five-card follow: list the plays, draw one
                if must != _ZERO:
                    n = list_plays(hand, table_key, table_size, must, identical, masks, keys)
                else:
                    n = list_five(hand, table_key, table_size == 0, _ZERO, identical, masks,
                                  keys, np.int64(0))  # fmt: skip
                pick, state = random_index(n, table_size == 0, stream[0])
                stream[0] = state
                mask, key = (masks[pick], keys[pick]) if pick >= 0 else (_ZERO, np.int64(0))
        else:
            n = list_plays(hand, table_key, table_size, must, identical, masks, keys)
            mask, key = heuristic_play(
                params, seat, hand, n, table_size == 0, _fewest_other(hands, seat, players),
                masks, keys,
            )
        # the legal plays, and passing unless it leads (engine.play_options)
        decided += count_decision(n if table_size == 0 else n + 1, decision_options)
        turns += 1
        if mask == _ZERO:
            if table_size == 0:
                return opener, turns, tricks, moves, ILLEGAL_PLAY, decided
            kind_counts[seat, 0] += 1
            passed |= 1 << seat
            passes_in_row += 1
        else:
            if mask & ~hand != _ZERO:
                return opener, turns, tricks, moves, ILLEGAL_PLAY, decided
            kind = key >> KIND_SHIFT
            if table_size == 0:
                lead_counts[kind] += 1
            hand &= ~mask
            hands[seat] = hand
            table_key = key
            table_size = count_faces(mask)
            sizes[seat] -= table_size
            table_seat = seat
            must = _ZERO
            passes_in_row = 0
            kind_counts[seat, kind] += 1
            # ---- a score check: the sole player with the fewest penalty points + cards ----
            best = 1 << 30
            sole = -1
            for p in range(players):
                total = penalties[p] + sizes[p]
                if total < best:
                    best = total
                    sole = p
                elif total == best:
                    sole = -1
            if sole != traj[T_STREAK]:
                traj[T_STREAK] = sole
                traj[T_START] = move_base + moves
            if sole >= 0:
                if traj[T_LAST] >= 0 and sole != traj[T_LAST]:
                    traj[T_CHANGES] += 1
                traj[T_LAST] = sole
            moves += 1
            if hand == _ZERO:
                out_order[n_out] = seat
                n_out += 1
                if until_first or players - n_out <= 1:
                    break
        # ---- does the trick end? ----
        others = 0
        active_others = 0
        for p in range(players):
            if p != table_seat and hands[p] != _ZERO:
                active_others += 1
                if not (hard and passed >> p & 1):
                    others += 1
        over = others == 0 if hard else passes_in_row >= active_others
        if over:
            seat = table_seat
            while hands[seat] == _ZERO:
                seat = seat + 1 if seat + 1 < players else 0
            table_key = np.int64(0)
            table_size = np.int64(0)
            table_seat = -1
            passed = 0
            passes_in_row = 0
            tricks += 1
            continue
        seat = seat + 1 if seat + 1 < players else 0
        while hands[seat] == _ZERO or (hard and passed >> seat & 1):
            seat = seat + 1 if seat + 1 < players else 0
    for p in range(players):
        cards_left[p] = sizes[p]
    return opener, turns, tricks, moves, OK, decided


@njit(cache=True, nogil=True, error_model="numpy")
def standing_of(cards_left, out_order, players, standing) -> None:
    """``engine.RoundRecord.standing``: ``100 * (players - place)`` for the k-th out,
    minus the cards left for the others."""
    for p in range(players):
        standing[p] = -cards_left[p]
    for place in range(players):
        seat = out_order[place]
        if seat >= 0:
            standing[seat] = 100 * (players - place)


@njit(cache=True, nogil=True, error_model="numpy")
def deal_hands(rules, template, card_ids, deck, stream, hands) -> None:
    """``engine.deal_round``: shuffle, deal blocks as id masks, the lone leftover card to
    the holder of the lowest dealt card (if the rules say so)."""
    players = hands.shape[0]
    per_player = rules[R_PER_PLAYER]
    deck[:] = template
    shuffle(deck, stream)
    union = _ZERO
    for seat in range(players):
        hand = _ZERO
        for index in range(seat * per_player, (seat + 1) * per_player):
            hand |= _ONE << np.uint64(card_ids[deck[index]])
        hands[seat] = hand
        union |= hand
    if rules[R_EXTRA] == 1:
        lowest = union & (~union + _ONE)
        for seat in range(players):
            if hands[seat] & lowest != _ZERO:
                hands[seat] |= _ONE << np.uint64(card_ids[deck[players * per_player]])
                break


@njit(cache=True, nogil=True, error_model="numpy")
def outcome_points(rules, penalties, cards_left, standing, points) -> None:
    """``engine.outcome_points``: the points that decide a game, fewest win: a match's
    penalty totals; one round: the cards left ("first-out") or the places ("last-out")."""
    players = points.shape[0]
    for seat in range(players):
        if rules[R_TARGET] > 0:
            points[seat] = penalties[seat]
        elif rules[R_ROUND_END] == FIRST_OUT:
            points[seat] = cards_left[seat]
        else:
            place = 0
            for other in range(players):
                if standing[other] > standing[seat]:
                    place += 1
            points[seat] = place


@njit(cache=True, nogil=True, error_model="numpy")
def count_winners(points, wins, sole_wins):
    """``engine.winners_of`` counted: every seat with the fewest points wins (ties share);
    returns (how many won, the last winner)."""
    players = points.shape[0]
    best = points[0]
    for seat in range(1, players):
        best = min(best, points[seat])
    n_best = 0
    winner = -1
    for seat in range(players):
        if points[seat] == best:
            n_best += 1
            winner = seat
    for seat in range(players):
        if points[seat] == best:
            wins[seat] += 1
            if n_best == 1:
                sole_wins[seat] += 1
    return n_best, winner


@njit(cache=True, nogil=True, error_model="numpy")
def count_kind_squares(plays, kinds_before, kind_squares, kind_cross, decision_squares) -> None:
    """``counts.count_kind_squares`` for the game just played: its decisions by kind are
    ``plays`` (summed over seats) less ``kinds_before`` (the same sums when it began)."""
    players = plays.shape[0]
    decisions = 0
    for kind in range(N_KINDS):
        game_kind = -kinds_before[kind]
        for seat in range(players):
            game_kind += plays[seat, kind]
        kinds_before[kind] = game_kind
        decisions += game_kind
    for kind in range(N_KINDS):
        kind_squares[kind] += kinds_before[kind] * kinds_before[kind]
        kind_cross[kind] += kinds_before[kind] * decisions
    decision_squares[0] += decisions * decisions


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
    ``batch_seed``, adding into ``totals`` (``counts.new_totals``) and, if given, one row
    per game into ``rows``. ``RuntimeError`` if a strategy made an illegal play (a bug)."""
    rows = rows or new_rows(0, codes.shape[0])
    masks, keys = new_scratch()
    status = _play_batch(
        config["rules"], config["deck"], config["card_ids"], codes, params,
        np.uint64(batch_seed), np.int64(first_game), n_games, masks, keys,
        totals["games"], totals["rounds"], totals["wins"], totals["sole_wins"],
        totals["penalty_sum"], totals["penalty_squares"], totals["penalty_hist"],
        totals["cards_left"], totals["places"], totals["opener_rounds"],
        totals["opener_firsts"], totals["position_firsts"], totals["position_cards"],
        totals["plays"], totals["leads"], totals["kind_squares"], totals["kind_cross"],
        totals["decision_squares"], totals["turns_hist"], totals["tricks_hist"],
        totals["rounds_hist"], totals["lead_changes_hist"], totals["settled_hist"],
        totals["win_ties"], totals["margins"], totals["decision_options"],
        totals["game_decisions"], rows["row_points"], rows["row_penalty"], rows["row_rounds"],
    )  # fmt: skip
    if status != OK:
        raise RuntimeError("kernel stopped: a strategy chose an illegal play")


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    rules, template, card_ids, codes, params, batch_seed, first_game, n_games, masks, keys,
    games, rounds_total, wins, sole_wins, penalty_sum, penalty_squares, penalty_hist,
    cards_hist, places, opener_rounds, opener_firsts, position_firsts, position_cards,
    plays, leads, kind_squares, kind_cross, decision_squares, turns_hist, tricks_hist,
    rounds_hist, lead_changes_hist, settled_hist, win_ties, margins, decision_options,
    game_decisions, row_points, row_penalty, row_rounds,
):
    players = codes.shape[0]
    deck = np.empty(template.shape[0], dtype=template.dtype)
    hands = np.zeros(players, dtype=np.uint64)
    penalties = np.zeros(players, dtype=np.int64)
    cards_left = np.zeros(players, dtype=np.int64)
    out_order = np.zeros(players, dtype=np.int64)
    standing = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    traj = np.zeros(4, dtype=np.int64)
    sizes = np.zeros(players, dtype=np.int64)
    stream = np.empty(1, dtype=np.uint64)
    kinds_before = np.zeros(N_KINDS, dtype=np.int64)  # all seats' decisions by kind so far
    write_rows = row_rounds.shape[0] > 0
    match = rules[R_TARGET] > 0
    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        for seat in range(players):
            penalties[seat] = 0
        traj[T_LAST] = -1
        traj[T_CHANGES] = 0
        traj[T_STREAK] = -2
        traj[T_START] = 0
        game_moves = np.int64(0)  # typed: passed on to play_round (plays.py)
        n_rounds = 0
        decided = 0  # real decisions this game (zooanalysis.decisions)
        for kind in range(N_KINDS):
            kinds_before[kind] = 0
            for seat in range(players):
                kinds_before[kind] += plays[seat, kind]
        for round_index in range(MAX_ROUNDS):
            deal_hands(rules, template, card_ids, deck, stream, hands)
            opener, turns, tricks, moves, status, real = play_round(
                rules, hands, round_index % players, codes, params, stream, np.int64(0), masks,
                keys, penalties, game_moves, traj, cards_left, out_order, plays, leads, sizes,
                decision_options,
            )
            if status != OK:
                return status
            decided += real
            n_rounds += 1
            game_moves += moves
            rounds_total[0] += 1
            standing_of(cards_left, out_order, players, standing)
            first = out_order[0]
            opener_rounds[opener] += 1
            if first == opener:
                opener_firsts[opener] += 1
            position_firsts[(first - opener) % players] += 1
            top = -1
            for seat in range(players):
                cards = cards_left[seat]
                cards_hist[seat, min(cards, CARDS_BINS - 1)] += 1
                place = 0
                for other in range(players):
                    if standing[other] > standing[seat]:
                        place += 1
                places[seat, place] += 1
                position_cards[(seat - opener) % players] += cards
                penalties[seat] += penalty_of(cards, rules)
                top = max(top, penalties[seat])
            turns_hist[min(turns, TURN_BINS - 1)] += 1
            tricks_hist[min(tricks, TRICK_BINS - 1)] += 1
            if not match or top >= rules[R_TARGET]:
                break
        # ---- the game's outcome: fewest points win (engine.outcome_points) ----
        outcome_points(rules, penalties, cards_left, standing, points)
        games[0] += 1
        rounds_hist[min(n_rounds, ROUND_BINS - 1)] += 1
        n_best, winner = count_winners(points, wins, sole_wins)
        for seat in range(players):
            value = penalties[seat]
            penalty_sum[seat] += value
            penalty_squares[seat] += value * value
            penalty_hist[seat, min(value, PENALTY_BINS - 1)] += 1
        tally_outcome(points, players, np.bool_(True), win_ties, margins)
        count_game_decisions(decided, game_decisions)
        count_kind_squares(plays, kinds_before, kind_squares, kind_cross, decision_squares)
        lead_changes_hist[min(traj[T_CHANGES], LEAD_CHANGE_BINS - 1)] += 1
        if n_best == 1 and game_moves > 0:
            start = traj[T_START] if traj[T_STREAK] == winner else game_moves
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * start) // game_moves)] += 1
        if write_rows:
            for seat in range(players):
                row_points[game, seat] = points[seat]
                row_penalty[game, seat] = penalties[seat]
            row_rounds[game] = n_rounds
    return OK
