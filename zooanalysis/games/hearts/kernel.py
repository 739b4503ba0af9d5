"""The fast path: a numba kernel that plays a whole batch of Hearts games.

It follows ``engine.py`` step by step on flat arrays and keeps only the counts of
``counts.new_totals`` (constant memory, whatever the number of games); per-game rows
(``counts.new_rows``) are written only when the caller passes arrays for them. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``; the tests hold both to that.

Every hand is a ``uint64`` mask of high faces (``faces.py``: aces at rank 14, so the
higher bit of a suit is the stronger card). :func:`play_hand` plays one hand from given
masks; the batch loop deals, calls it and counts, and the Through the Zoo exhibit
(``exhibit.exhibit_round``) calls it with its own hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import SUIT_FACES, count_faces, face_bit
from zooanalysis.cards.encoding import NO_SUIT
from zooanalysis.cards.tricks import LATER_WINS
from zooanalysis.decisions import combinations, count_decision, count_game_decisions
from zooanalysis.games.hearts.counts import (
    GAME_POINT_BINS,
    GAME_POINT_OFFSET,
    HAND_POINT_BINS,
    HAND_POINT_OFFSET,
    HANDS_BINS,
    new_rows,
)
from zooanalysis.games.hearts.engine import CAP, END_SCORE_REACHED
from zooanalysis.games.hearts.faces import (
    DIAMONDS,
    HEART_FACES,
    HEARTS,
    JACK_OF_DIAMONDS,
    POINT_FACES,
    QUEEN_BIT,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    high_face,
)
from zooanalysis.games.hearts.rules import (
    LEAD_TWO_OF_CLUBS,
    R_END_SCORE,
    R_FIRST_LEAD,
    R_HEART_POINTS,
    R_JACK_POINTS,
    R_MAX_HANDS,
    R_MOON,
    R_MUST_BREAK,
    R_NO_FIRST_POINTS,
    R_PASS_CARDS,
    R_PASSING,
    R_QUEEN_BREAKS,
    R_QUEEN_POINTS,
    hand_scores,
    pass_direction,
    pass_offset,
)
from zooanalysis.games.hearts.strategies import (
    RANDOM,
    choose_card,
    choose_pass,
    random_card,
    random_pass,
)
from zooanalysis.outcome import tally_outcome as tally_shared_outcome
from zooanalysis.rng import seed_game, shuffle
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

OK, ILLEGAL_PASS, ILLEGAL_CARD, NO_TWO_OF_CLUBS = 0, 1, 2, 3
_PROBLEMS = ("", "a strategy chose an illegal pass", "a strategy chose an illegal card",
             "no Two of Clubs was dealt (use first_lead = 'start-seat')")
_EMPTY = np.uint64(0)
_TWO_BIT = np.uint64(1) << np.uint64(TWO_OF_CLUBS)
HAND_OUT = 8
"""Slots of :func:`play_hand`'s ``info`` output."""
STATUS, SHOOTER, LEADER, QUEEN_HOLDER, QUEEN_TAKER, QUEEN_TRICK, DIRECTION, DECIDED = range(
    HAND_OUT
)


def check(status: int) -> None:
    """Raise ``RuntimeError`` for a kernel status other than ``OK`` (a bug, never a user
    error)."""
    if status != OK:
        raise RuntimeError(f"kernel stopped: {_PROBLEMS[status]}")


@njit(cache=True, nogil=True, error_model="numpy")
def play_hand(
    rules, hands, start_seat, hand_index, codes, params, stream, identical,
    passes, points, cards, jacks, diamonds, scores, info, decision_options,
):  # fmt: skip
    """Play one hand from the high-face masks ``hands`` (emptied): pass, 13 tricks, score.

    Writes each seat's score into ``scores`` and, into ``info``, the status (``OK`` or a
    problem), the moon shooter (-1), the first leader, the Queen's holder when play began,
    its taker and trick (-1 if none was dealt), the passing direction and the real
    decisions taken (every decision's legal options are counted into
    ``decision_options``, ``zooanalysis.decisions``). ``passes``,
    ``points``, ``cards`` and ``jacks`` are scratch arrays of one slot per seat (the
    passed cards, and the points, point cards and Jack points each seat took);
    ``diamonds`` receives the Diamonds each seat took in its tricks (Through the Zoo's
    Johannesburg counts them).
    """
    players = hands.shape[0]
    info[STATUS] = OK
    decided = 0  # real decisions this hand (zooanalysis.decisions)
    # ---- passing ----
    direction = pass_direction(rules[R_PASSING], hand_index)
    info[DIRECTION] = direction
    offset = pass_offset(direction, players)
    count = rules[R_PASS_CARDS]
    for seat in range(players):
        passes[seat] = _EMPTY
    if offset != 0:
        for seat in range(players):
            hand = hands[seat]
            decided += count_decision(combinations(count_faces(hand), count), decision_options)
            if codes[seat] == RANDOM:
                chosen = random_pass(hand, count, stream)
            else:
                chosen = choose_pass(codes[seat], params, seat, hand, count, stream)
            if count_faces(chosen) != count or chosen & ~hand != _EMPTY:
                info[STATUS] = ILLEGAL_PASS
                return
            passes[seat] = chosen
        for seat in range(players):
            hands[seat] &= ~passes[seat]
        for seat in range(players):
            receiver = seat + offset
            if receiver >= players:
                receiver -= players
            hands[receiver] |= passes[seat]
    # ---- who leads, what is in play ----
    leader = start_seat
    two_first = rules[R_FIRST_LEAD] == LEAD_TWO_OF_CLUBS
    if two_first:
        leader = -1
        for step in range(players):
            seat = (start_seat + step) % players
            if leader < 0 and hands[seat] & _TWO_BIT != _EMPTY:
                leader = seat
        if leader < 0:
            info[STATUS] = NO_TWO_OF_CLUBS
            return
    info[LEADER] = leader
    heart_points = rules[R_HEART_POINTS]
    queen_points = rules[R_QUEEN_POINTS]
    jack_points = rules[R_JACK_POINTS]
    dealt = np.int64(0)  # typed, not literals: hand_scores compiles once
    value = np.int64(0)
    info[QUEEN_HOLDER] = -1
    tricks = 0
    for seat in range(players):
        hand = hands[seat]
        hearts = count_faces(hand & HEART_FACES)
        queens = 1 if hand & QUEEN_BIT != _EMPTY else 0
        dealt += hearts + queens
        value += hearts * heart_points + queens * queen_points
        if queens:
            info[QUEEN_HOLDER] = seat
        points[seat] = 0
        cards[seat] = 0
        jacks[seat] = 0
        diamonds[seat] = 0
        tricks = max(tricks, count_faces(hand))
    # ---- the tricks ----
    must_break = rules[R_MUST_BREAK] != 0
    queen_breaks = rules[R_QUEEN_BREAKS] != 0
    no_first = rules[R_NO_FIRST_POINTS] != 0
    broken = False
    played = _EMPTY
    taken_cards = 0
    info[QUEEN_TAKER] = -1
    info[QUEEN_TRICK] = -1
    for trick in range(tricks):
        led = np.int64(NO_SUIT)  # typed, not literals: choose_card compiles once
        best = np.int64(-1)
        winner = leader
        trick_points = 0
        trick_cards = 0
        trick_jacks = 0
        trick_diamonds = 0
        queen_in = False
        for position in range(players):
            seat = leader + position
            if seat >= players:
                seat -= players
            hand = hands[seat]
            if position == 0:
                if trick == 0 and two_first:
                    legal = hand & _TWO_BIT
                else:
                    legal = hand
                    if must_break and not broken and hand & ~HEART_FACES != _EMPTY:
                        legal = hand & ~HEART_FACES
                    if trick == 0 and no_first and legal & ~POINT_FACES != _EMPTY:
                        legal &= ~POINT_FACES
            else:
                legal = hand & SUIT_FACES[led]
                if legal == _EMPTY:
                    legal = hand
                    if trick == 0 and no_first and hand & ~POINT_FACES != _EMPTY:
                        legal = hand & ~POINT_FACES
            decided += count_decision(count_faces(legal), decision_options)
            if codes[seat] == RANDOM:  # the same function choose_card calls
                face = random_card(legal, stream)
            else:
                face = choose_card(
                    codes[seat], params, seat, hand, legal, led, best,
                    position == players - 1, played, taken_cards - cards[seat] > 0, stream,
                )  # fmt: skip
            bit = face_bit(face)
            if face < 0 or legal & bit == _EMPTY:
                info[STATUS] = ILLEGAL_CARD
                return
            hands[seat] = hand & ~bit
            played |= bit
            suit = face >> 4
            if position == 0:
                led = suit
                best = face
            elif suit == led and (face > best or (identical == LATER_WINS and face == best)):
                best = face
                winner = seat
            if suit == HEARTS:
                trick_points += heart_points
                trick_cards += 1
                broken = True
            elif face == QUEEN_OF_SPADES:
                trick_points += queen_points
                trick_cards += 1
                queen_in = True
                if queen_breaks:
                    broken = True
            elif face == JACK_OF_DIAMONDS:
                trick_jacks += jack_points
            if suit == DIAMONDS:
                trick_diamonds += 1
        points[winner] += trick_points
        cards[winner] += trick_cards
        jacks[winner] += trick_jacks
        diamonds[winner] += trick_diamonds
        taken_cards += trick_cards
        if queen_in and info[QUEEN_TAKER] < 0:
            info[QUEEN_TAKER] = winner
            info[QUEEN_TRICK] = trick
        leader = winner
    info[DECIDED] = decided
    info[SHOOTER] = hand_scores(points, cards, jacks, dealt, value, rules[R_MOON], players, scores)


def play_batch(
    rules: np.ndarray,
    codes: np.ndarray,
    params: np.ndarray,
    batch_seed: int,
    n_games: int,
    totals: dict[str, np.ndarray],
    rows: dict[str, np.ndarray] | None = None,
    first_game: int = 0,
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed``, adding into ``totals`` (from ``counts.new_totals``).

    ``rules`` is ``rules.rules_array(settings)``; ``codes`` and ``params`` each seat's
    strategy code and parameters. ``rows``, from ``counts.new_rows``, receives one row per
    game when given (row ``i`` is game ``first_game + i``).
    """
    rows = rows or new_rows(0, codes.shape[0])
    check(
        _play_batch(
            rules, _HIGH_DECK, codes, params, np.uint64(batch_seed), np.int64(first_game),
            n_games, totals["games"], totals["hands"], totals["wins"], totals["sole_wins"],
            totals["points_sum"], totals["points_squares"], totals["points_hist"],
            totals["hand_points_sum"], totals["hand_points_squares"],
            totals["hand_points_hist"], totals["direction_hands"], totals["direction_points"],
            totals["direction_squares"], totals["moons"], totals["queen_fate"],
            totals["queen_trick"], totals["queen_holder_points"],
            totals["queen_holder_squares"], totals["queen_passed"], totals["first_leads"],
            totals["hands_hist"], totals["end_reasons"], totals["lead_changes_hist"],
            totals["settled_hist"], totals["win_ties"], totals["margins"],
            totals["decision_options"], totals["game_decisions"],
            rows["row_points"], rows["row_hands"],
        )
    )


_HIGH_DECK = np.array(
    [high_face(suit * 16 + rank) for suit in range(4) for rank in range(1, 14)], dtype=np.int64
)
"""The 52 cards as high faces, in the order of the reference engine's unshuffled deck
(card codes increasing): shuffling it deals the same cards."""


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    rules, template, codes, params, batch_seed, first_game, n_games,
    games, hands_played, wins, sole_wins, points_sum, points_squares, points_hist,
    hand_points_sum, hand_points_squares, hand_points_hist, direction_hands,
    direction_points, direction_squares, moons, queen_fate, queen_trick,
    queen_holder_points, queen_holder_squares, queen_passed, first_leads,
    hands_hist, end_reasons, lead_changes_hist, settled_hist, win_ties, margins,
    decision_options, game_decisions, row_points, row_hands,
):  # fmt: skip
    players = codes.shape[0]
    per_player = template.shape[0] // players
    deck = np.empty(template.shape[0], dtype=np.int64)
    hands = np.zeros(players, dtype=np.uint64)
    passes = np.zeros(players, dtype=np.uint64)
    points = np.zeros(players, dtype=np.int64)
    cards = np.zeros(players, dtype=np.int64)
    jacks = np.zeros(players, dtype=np.int64)
    diamonds = np.zeros(players, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    totals = np.zeros(players, dtype=np.int64)
    info = np.zeros(HAND_OUT, dtype=np.int64)
    stream = np.empty(1, dtype=np.uint64)
    write_rows = row_hands.shape[0] > 0
    end_score = rules[R_END_SCORE]
    max_hands = rules[R_MAX_HANDS]
    queen = QUEEN_BIT

    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        for seat in range(players):
            totals[seat] = 0
        last_leader = -1
        lead_changes = 0
        streak_leader = -2
        streak_start = 0
        hand_index = np.int64(0)  # typed, not the literal 0: play_hand compiles once
        reason = CAP
        decided = 0  # real decisions this game (zooanalysis.decisions)
        while True:
            # ---- deal ----
            deck[:] = template
            shuffle(deck, stream)
            for seat in range(players):
                hand = _EMPTY
                for index in range(seat * per_player, (seat + 1) * per_player):
                    hand |= face_bit(deck[index])
                hands[seat] = hand
            play_hand(
                rules, hands, hand_index % players, hand_index, codes, params, stream,
                np.int64(0), passes, points, cards, jacks, diamonds, scores, info, decision_options,
            )  # fmt: skip
            if info[STATUS] != OK:
                return info[STATUS]
            decided += info[DECIDED]
            # ---- count the hand ----
            hands_played[0] += 1
            direction = info[DIRECTION]
            direction_hands[direction] += 1
            first_leads[info[LEADER]] += 1
            for seat in range(players):
                score = scores[seat]
                totals[seat] += score
                hand_points_sum[seat] += score
                hand_points_squares[seat] += score * score
                cell = min(max(score + HAND_POINT_OFFSET, 0), HAND_POINT_BINS - 1)
                hand_points_hist[seat, cell] += 1
                direction_points[direction, seat] += score
                direction_squares[direction, seat] += score * score
                if passes[seat] & queen != _EMPTY:
                    queen_passed[seat] += 1
            if info[SHOOTER] >= 0:
                moons[info[SHOOTER]] += 1
            holder = info[QUEEN_HOLDER]
            if holder >= 0:
                queen_fate[holder, info[QUEEN_TAKER]] += 1
                queen_trick[info[QUEEN_TRICK]] += 1
                queen_holder_points[holder] += scores[holder]
                queen_holder_squares[holder] += scores[holder] * scores[holder]
            # ---- a score check after every hand: who alone has the fewest points? ----
            low = totals[0]
            sole = 0
            top = totals[0]
            for seat in range(1, players):
                if totals[seat] < low:
                    low = totals[seat]
                    sole = seat
                elif totals[seat] == low:
                    sole = -1
                top = max(top, totals[seat])
            if sole != streak_leader:
                streak_leader = sole
                streak_start = hand_index
            if sole >= 0:
                if last_leader >= 0 and sole != last_leader:
                    lead_changes += 1
                last_leader = sole
            hand_index += 1
            if top >= end_score:
                reason = END_SCORE_REACHED
                break
            if hand_index >= max_hands:
                break
        # ---- record the game ----
        games[0] += 1
        best = totals[0]
        for seat in range(1, players):
            best = min(best, totals[seat])
        n_best = 0
        for seat in range(players):
            if totals[seat] == best:
                n_best += 1
        for seat in range(players):
            value = totals[seat]
            if value == best:
                wins[seat] += 1
                if n_best == 1:
                    sole_wins[seat] += 1
            points_sum[seat] += value
            points_squares[seat] += value * value
            points_hist[seat, min(max(value + GAME_POINT_OFFSET, 0), GAME_POINT_BINS - 1)] += 1
        tally_shared_outcome(totals, players, np.bool_(True), win_ties, margins)
        count_game_decisions(decided, game_decisions)
        hands_hist[min(hand_index, HANDS_BINS - 1)] += 1
        end_reasons[reason] += 1
        lead_changes_hist[min(lead_changes, LEAD_CHANGE_BINS - 1)] += 1
        if n_best == 1:
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * streak_start) // hand_index)] += 1
        if write_rows:
            for seat in range(players):
                row_points[game, seat] = totals[seat]
            row_hands[game] = hand_index
    return OK
