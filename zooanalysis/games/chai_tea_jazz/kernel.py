"""The fast path: a numba kernel that plays a whole batch of Chai Tea Jazz games.

It follows ``engine.py`` step by step on flat arrays and keeps only the counts of
``counts.new_totals`` (constant memory, whatever the number of games); per-game rows
(``counts.new_rows``) are written only when the caller passes arrays for them. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's ``play_game(settings,
strategies, s, first_game + i)``; the tests hold both to that.

One loop for every player count and variant: the settings arrive as the flat tables of
``layout.Layout`` (``batch.kernel_config``): sides, the deal (hand, straw piles, set-aside
cards), points by face, the option table (row, way), the ways (trump, order, start
direction, flips), the rows' game points by place. A hand is a row of ``copies + 1``
``uint64`` words (``zooanalysis/cards/hands.py``): a face mask per copy, then the jokers;
it holds the face-up straw-pile cards too (they are playable).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces, nth_face
from zooanalysis.cards.encoding import JOKER, NO_SUIT
from zooanalysis.cards.follow import MAY_TRUMP, legal_faces
from zooanalysis.cards.hands import count_playable
from zooanalysis.cards.orders import STRENGTH, UP, direction_for_trick
from zooanalysis.cards.tricks import trick_winner
from zooanalysis.decisions import count_decision, count_game_decisions
from zooanalysis.games.chai_tea_jazz.counts import (
    BID_BINS,
    EVAL_SCALE,
    GP_BINS,
    GP_OFFSET,
    SCORE_BINS,
    SCORE_OFFSET,
    new_rows,
)
from zooanalysis.games.chai_tea_jazz.engine import BET, FORCED, OFFERED, UNCONTESTED
from zooanalysis.games.chai_tea_jazz.evaluation import way_values
from zooanalysis.games.chai_tea_jazz.rules import MAX_OPTIONS
from zooanalysis.games.chai_tea_jazz.strategies import (
    PASS,
    RANDOM,
    choose_accept,
    choose_card,
    choose_offer,
    choose_pick,
    random_card,
    random_pick,
)
from zooanalysis.outcome import tally_outcome as tally_shared_outcome
from zooanalysis.rng import below, seed_game, shuffle
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

(
    C_PLAYERS, C_SIDES, C_WORDS, C_HAND, C_STRAW, C_ASIDE, C_TRICKS, C_LAST, C_STEP,
    C_MAX_DEBT, C_REPICK_ROW, C_MATCH, C_PASSING, C_CUMULATIVE, C_EARLY, C_JOKERS_STRONG,
    C_TIES, C_BASE_ORDER, C_ROWS, C_DECK_JOKERS, C_MAX_SCORE,
) = range(21)  # fmt: skip
N_INTS = 21
"""Slots of the integer settings array (``batch.kernel_config``)."""
OK, ILLEGAL_PICK, ILLEGAL_OFFER, ILLEGAL_CARD = 0, 1, 2, 3
_PROBLEMS = ("", "pick", "offer", "card")
_EMPTY = np.uint64(0)
_ONE = np.uint64(1)
_LATE = 1 << 30

TOTAL_ORDER = (
    "games", "wins", "sole_wins", "tie_breaks", "points_sum", "points_squares", "points_hist",
    "contract_points", "contract_points_squares", "declared", "declared_score",
    "declared_score_squares", "declared_gross", "declared_gross_squares", "declared_tricks",
    "score_hist", "how", "first_picks", "option_rounds", "option_score",
    "option_score_squares", "debt_rounds", "debt_score", "debt_score_squares", "debt_gross",
    "debt_gross_squares", "debt_row_entries", "debt_row_points", "debt_row_points_squares",
    "picks", "raises", "passes", "offers_made", "offers_taken", "offers_declined",
    "offer_hist", "bids_hist", "position_rounds", "position_score", "position_score_squares",
    "contract_round", "match", "certain_hist", "game_rounds_hist", "evaluation",
    "lead_changes_hist", "settled_hist", "margin_hist", "win_ties", "margins",
    "decision_options", "game_decisions",
)  # fmt: skip
"""The count arrays in the order ``_play_batch`` takes them."""
CONFIG_ORDER = (
    "ints", "floats", "template", "deck_faces", "points", "values_points", "side_of",
    "row_value", "avoid", "place_points", "opt_row", "opt_way", "way_trump", "way_order",
    "way_direction", "way_flip", "base", "base_row", "perms",
)  # fmt: skip
"""The settings arrays in the order ``_play_batch`` takes them."""


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
    ``batch_seed``, adding into ``totals`` (from ``counts.new_totals``).

    ``config`` holds the flattened settings (``batch.kernel_config``); ``codes`` and
    ``params`` each seat's strategy code and parameters. ``rows``, from
    ``counts.new_rows``, receives one row per game when given. Raises ``RuntimeError`` if a
    strategy made an illegal choice (a bug, never a user error).
    """
    rows = rows or new_rows(0, codes.shape[0])
    status = _play_batch(
        *(config[key] for key in CONFIG_ORDER),
        codes,
        params,
        np.uint64(batch_seed),
        np.int64(first_game),
        n_games,
        *(totals[key] for key in TOTAL_ORDER),
        rows["row_points"],
        rows["row_standing"],
        rows["row_rounds"],
    )
    if status != OK:
        raise RuntimeError(f"kernel stopped: a strategy chose an illegal {_PROBLEMS[status]}")


# --- small helpers ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _slot(code, words):
    """(word, bit) of a card code in a hand row of ``words`` words."""
    face = code & 127
    if face == JOKER:
        return words - 1, np.uint64(code >> 7)
    return code >> 7, np.uint64(face)


@njit(cache=True, nogil=True, error_model="numpy")
def _add(hands, seat, code) -> None:
    word, bit = _slot(code, hands.shape[1])
    hands[seat, word] |= _ONE << bit


@njit(cache=True, nogil=True, error_model="numpy")
def _remove(hands, seat, code) -> None:
    word, bit = _slot(code, hands.shape[1])
    hands[seat, word] &= ~(_ONE << bit)


@njit(cache=True, nogil=True, error_model="numpy")
def _holds(hands, seat, code) -> bool:
    word, bit = _slot(code, hands.shape[1])
    return (hands[seat, word] >> bit) & _ONE != _EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def _faces(hands, seat):
    """The faces a hand row holds in any copy."""
    faces = _EMPTY
    for copy in range(hands.shape[1] - 1):
        faces |= hands[seat, copy]
    return faces


@njit(cache=True, nogil=True, error_model="numpy")
def _next(seat, players) -> int:
    seat += 1
    return 0 if seat == players else seat


@njit(cache=True, nogil=True, error_model="numpy")
def _legal_options(done, side, bid, repick_row, opt_row, legal) -> int:
    """The engine's ``legal_options`` into ``legal``; returns how many."""
    count = 0
    bid_row = opt_row[bid] if bid >= 0 else -1
    for option in range(opt_row.shape[0]):
        row = opt_row[option]
        if done[side, row] != 0:
            continue
        if bid >= 0 and (option == bid or (repick_row and row == bid_row)):
            continue
        legal[count] = option
        count += 1
    return count


@njit(cache=True, nogil=True, error_model="numpy")
def _standings(done, score, game_points, sides, rows, cumulative, out) -> None:
    """The engine's ``side_standings``."""
    for side in range(sides):
        if cumulative == 0:
            out[side] = game_points[side]
        else:
            total = 0
            for row in range(rows):
                total += score[side, row]
            out[side] = total if cumulative == 1 else -total


@njit(cache=True, nogil=True, error_model="numpy")
def _before(a_side, b_side, row, done, score, order, sign) -> bool:
    """Whether side ``a_side`` ranks above ``b_side`` in a row (both completed it)."""
    a = sign * score[a_side, row]
    b = sign * score[b_side, row]
    if a != b:
        return a < b
    return order[a_side, row] < order[b_side, row]


@njit(cache=True, nogil=True, error_model="numpy")
def _worst_row_swing(row, leader, other, sides, done, score, order, avoid, place_points,
                     perms) -> int:
    """The engine's ``_worst_row_swing``."""
    sign = 1 if avoid[row] else -1
    worst = -_LATE
    for index in range(perms.shape[0]):
        consistent = True
        previous = np.int64(-1)
        gain_leader = 0
        gain_other = 0
        for place in range(sides):
            side = perms[index, place]
            if done[side, row] != 0:
                if previous >= 0 and not _before(previous, side, row, done, score, order,
                                                 sign):  # fmt: skip
                    consistent = False
                    break
                previous = side
            if side == leader:
                gain_leader = place_points[row, place]
            if side == other:
                gain_other = place_points[row, place]
        if consistent and gain_other - gain_leader > worst:
            worst = gain_other - gain_leader
    return worst


@njit(cache=True, nogil=True, error_model="numpy")
def _certain_winner(sides, rows, done, score, order, finished, standings, avoid,
                    place_points, perms, match_points, cumulative, spread, rounds_left, left,
                    row_done, row_span) -> int:
    """The engine's ``certain_winner``. ``left``: rows left per side; ``row_done``: sides
    that completed each row; ``row_span``: a row's best place's game points less its worst
    (the most one side gains on another when neither has written the row yet: exactly what
    ``_worst_row_swing`` finds then, without trying every order)."""
    for leader in range(sides):
        sure = True
        for other in range(sides):
            if other == leader:
                continue
            if cumulative == 0:
                swing = rounds_left * match_points
                for row in range(rows):
                    if row_done[row] == sides:
                        continue
                    if done[leader, row] == 0 and done[other, row] == 0:
                        swing += row_span[row]
                    else:
                        swing += _worst_row_swing(row, leader, other, sides, done, score, order,
                                                  avoid, place_points, perms)  # fmt: skip
            else:
                swing = spread * (left[leader] + left[other])
            margin = standings[leader] - standings[other] - swing
            if margin > 0:
                continue
            if margin == 0 and finished[leader] >= 0 and finished[other] < 0:
                continue
            sure = False
            break
        if sure:
            return leader
    return -1


# --- the batch -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    ints, floats, template, deck_faces_in, points, values_points, side_of, row_value, avoid,
    place_points, opt_row, opt_way, way_trump, way_order, way_direction, way_flip, base,
    base_row, perms, codes, params, batch_seed, first_game, n_games,
    games, wins, sole_wins, tie_breaks, points_sum, points_squares, points_hist, contract_points,
    contract_points_squares, declared, declared_score, declared_score_squares, declared_gross,
    declared_gross_squares, declared_tricks, score_hist, how_counts, first_picks,
    option_rounds, option_score, option_score_squares, debt_rounds, debt_score,
    debt_score_squares, debt_gross, debt_gross_squares, debt_row_entries, debt_row_points,
    debt_row_points_squares, picks, raises, passes, offers_made, offers_taken,
    offers_declined, offer_hist, bids_hist, position_rounds, position_score,
    position_score_squares, contract_round, match, certain_hist, game_rounds_hist, evaluation,
    lead_changes_hist, settled_hist, margin_hist, win_ties, margins, decision_options,
    game_decisions, out_points, out_standing,
    out_rounds,
):  # fmt: skip
    players = ints[C_PLAYERS]
    sides = ints[C_SIDES]
    words = ints[C_WORDS]
    copies = words - 1
    hand_cards = ints[C_HAND]
    piles = ints[C_STRAW]
    aside = ints[C_ASIDE]
    tricks = ints[C_TRICKS]
    last_trick = ints[C_LAST]
    step = ints[C_STEP]
    max_debt = ints[C_MAX_DEBT]
    repick_row = ints[C_REPICK_ROW] != 0
    match_points = ints[C_MATCH]
    passing = ints[C_PASSING] != 0
    cumulative = ints[C_CUMULATIVE]
    early_end = ints[C_EARLY] != 0
    jokers_strong = ints[C_JOKERS_STRONG] != 0
    ties = ints[C_TIES]
    base_order = ints[C_BASE_ORDER]
    rows = ints[C_ROWS]
    deck_jokers = ints[C_DECK_JOKERS]
    spread = ints[C_MAX_SCORE] + max_debt
    other_points = floats[0]
    partner_points = floats[1]
    deck_faces = deck_faces_in[0]
    per_player = hand_cards + 2 * piles
    total_rounds = sides * rows
    n_ways = base.shape[0]
    team_size = players // sides
    write_rows = out_rounds.shape[0] > 0
    plain = copies == 1 and deck_jokers == 0  # random_card's pick is then nth_face's

    deck = np.empty_like(template)
    hands = np.zeros((players, words), dtype=np.uint64)
    deck_words = np.zeros(words, dtype=np.uint64)
    for index in range(template.shape[0]):
        word, bit = _slot(template[index], words)
        deck_words[word] |= _ONE << bit
    straw_up = np.full((players, max(piles, 1)), -1, dtype=np.int64)
    straw_down = np.full((players, max(piles, 1)), -1, dtype=np.int64)
    straw_pub = np.zeros(words, dtype=np.uint64)
    played = np.zeros(words, dtype=np.uint64)
    voids = np.zeros(players, dtype=np.int64)
    done = np.zeros((sides, rows), dtype=np.int64)
    score = np.zeros((sides, rows), dtype=np.int64)
    order = np.zeros((sides, rows), dtype=np.int64)
    pad_debt = np.zeros((sides, rows), dtype=np.int64)
    game_points = np.zeros(sides, dtype=np.int64)
    finished = np.zeros(sides, dtype=np.int64)
    standings = np.zeros(sides, dtype=np.int64)
    previous = np.zeros(sides, dtype=np.int64)
    passed = np.zeros(players, dtype=np.bool_)
    round_picks = np.zeros(players, dtype=np.int64)
    legal = np.zeros(MAX_OPTIONS, dtype=np.int64)
    values = np.zeros((players, n_ways), dtype=np.float64)
    ready = np.zeros(players, dtype=np.bool_)
    trick = np.zeros(players, dtype=np.int64)
    to_turn = np.full(players, -1, dtype=np.int64)
    tricks_won = np.zeros(players, dtype=np.int64)
    side_points = np.zeros(sides, dtype=np.int64)
    side_tricks = np.zeros(sides, dtype=np.int64)
    gained = np.zeros(sides, dtype=np.int64)
    places = np.zeros(players, dtype=np.int64)  # final standing per seat (higher: ahead)
    left = np.zeros(sides, dtype=np.int64)  # rows each side has left
    row_done = np.zeros(rows, dtype=np.int64)  # sides that completed each row
    row_span = np.zeros(rows, dtype=np.int64)
    for row in range(rows):
        row_span[row] = place_points[row].max() - place_points[row].min()
    stream = np.empty(1, dtype=np.uint64)

    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        for row in range(rows):
            row_done[row] = 0
        for side in range(sides):
            game_points[side] = 0
            finished[side] = -1
            left[side] = rows
            for row in range(rows):
                done[side, row] = 0
                score[side, row] = 0
                order[side, row] = -1
                pad_debt[side, row] = 0
        barrel = np.int64(0)
        certain_after = total_rounds
        sure = -1
        decided = 0  # real decisions this game (zooanalysis.decisions)
        rounds_played = 0
        last_leader = -1
        lead_changes = 0
        streak_leader = -2
        streak_start = 0
        last_check = -1

        for round_index in range(total_rounds):
            # ---- deal ----
            deck[:] = template
            shuffle(deck, stream)
            for word in range(words):
                played[word] = _EMPTY
                straw_pub[word] = _EMPTY
            for seat in range(players):
                for word in range(words):
                    hands[seat, word] = _EMPTY
                first = seat * per_player
                for index in range(hand_cards):
                    _add(hands, seat, deck[first + index])
                for pile in range(piles):
                    up = deck[first + hand_cards + pile]
                    straw_up[seat, pile] = up
                    straw_down[seat, pile] = deck[first + hand_cards + piles + pile]
                    _add(hands, seat, up)
                    word, bit = _slot(up, words)
                    straw_pub[word] |= _ONE << bit
                voids[seat] = 0
                ready[seat] = False
                tricks_won[seat] = 0
                to_turn[seat] = -1
                round_picks[seat] = 0

            # ---- picking ----
            for seat in range(players):
                passed[seat] = left[side_of[seat]] == 0
            bidder = -1
            bid = np.int64(-1)
            debt = 0
            first_option = -1
            first_picker = -1
            seat = barrel
            while True:
                if not passed[seat] and seat != bidder:
                    side = side_of[seat]
                    n_legal = _legal_options(done, side, bid, repick_row, opt_row, legal)
                    if bidder < 0:
                        first_amount = np.int64(0)  # typed, not literals: choose_pick
                        n_amounts = np.int64(1)  # and its callees compile once
                    else:
                        first_amount = debt + step
                        n_amounts = (max_debt - debt) // step if first_amount <= max_debt else 0
                    if n_legal == 0 or n_amounts == 0:
                        passed[seat] = True
                    else:  # pass, or any option at any debt (engine.picking_phase)
                        decided += count_decision(1 + n_legal * n_amounts, decision_options)
                        if codes[seat] == RANDOM:  # the same function choose_pick calls
                            index, amount = random_pick(n_legal, n_amounts, np.bool_(False), stream)
                        else:
                            if not ready[seat]:
                                way_values(_faces(hands, seat), count_faces(hands[seat, copies]),
                                           way_trump, way_order, way_direction, way_flip,
                                           deck_faces, values_points, other_points,
                                           partner_points, values[seat])  # fmt: skip
                                ready[seat] = True
                            index, amount = choose_pick(
                                codes[seat], params, seat, legal, n_legal, n_amounts,
                                first_amount, np.bool_(False), np.int64(0), values[seat],
                                base, base_row, opt_way, opt_row, row_value, side, sides, done,
                                score, place_points, avoid, stream,
                            )  # fmt: skip
                        if index == PASS:
                            passed[seat] = True
                            passes[seat] += 1
                        else:
                            if not (0 <= index < n_legal and 0 <= amount < n_amounts):
                                return ILLEGAL_PICK
                            if bidder < 0:
                                first_option = legal[index]
                                first_picker = seat
                            bidder = seat
                            bid = legal[index]
                            debt = first_amount + amount * step
                            picks[seat] += 1
                            round_picks[seat] += 1
                            if debt > 0:
                                raises[seat] += 1
                everyone = True
                for other in range(players):
                    if other != bidder and not passed[other]:
                        everyone = False
                if everyone:
                    break
                seat = _next(seat, players)
            offer = np.int64(0)
            if bidder >= 0:
                how = BET if debt > 0 else UNCONTESTED
            else:
                bidder = barrel
                how = FORCED
                if passing:
                    holder_side = side_of[barrel]
                    offered = np.int64(0)
                    while offered + step <= max_debt:
                        n_amounts = (max_debt - offered) // step
                        n_legal = _legal_options(
                            done, holder_side, np.int64(-1), repick_row, opt_row, legal
                        )
                        decided += count_decision(1 + n_amounts, decision_options)  # or give up
                        if codes[barrel] == RANDOM:  # the same draw choose_offer makes
                            r = below(stream, 2 * n_amounts)
                            index = PASS if r < n_amounts else r - n_amounts
                        else:
                            if not ready[barrel]:
                                way_values(_faces(hands, barrel),
                                           count_faces(hands[barrel, copies]), way_trump,
                                           way_order, way_direction, way_flip, deck_faces,
                                           values_points, other_points, partner_points,
                                           values[barrel])  # fmt: skip
                                ready[barrel] = True
                            index = choose_offer(
                                codes[barrel], params, barrel, n_amounts, offered, legal,
                                n_legal, values[barrel], base, base_row, opt_way, opt_row,
                                row_value, holder_side, sides, done, score, place_points,
                                avoid, stream,
                            )  # fmt: skip
                        if index == PASS:
                            break
                        if not 0 <= index < n_amounts:
                            return ILLEGAL_OFFER
                        offered += (index + 1) * step
                        offers_made[barrel] += 1
                        taker = -1
                        for offset in range(1, players):
                            asked = barrel + offset
                            if asked >= players:
                                asked -= players
                            asked_side = side_of[asked]
                            if asked_side == holder_side or left[asked_side] == 0:
                                continue
                            n_legal = _legal_options(
                                done, asked_side, np.int64(-1), repick_row, opt_row, legal
                            )  # fmt: skip
                            decided += count_decision(np.int64(2), decision_options)  # take it?
                            if codes[asked] == RANDOM:
                                takes = below(stream, np.int64(2)) == 1
                            else:
                                if not ready[asked]:
                                    way_values(_faces(hands, asked),
                                               count_faces(hands[asked, copies]), way_trump,
                                               way_order, way_direction, way_flip, deck_faces,
                                               values_points, other_points, partner_points,
                                               values[asked])  # fmt: skip
                                    ready[asked] = True
                                takes = choose_accept(
                                    codes[asked], params, asked, offered, legal, n_legal,
                                    values[asked], base, base_row, opt_way, opt_row, row_value,
                                    asked_side, sides, done, score, place_points, avoid, stream,
                                )  # fmt: skip
                            if takes:
                                taker = asked
                                break
                            offers_declined[asked] += 1
                        if taker >= 0:
                            bidder = taker
                            how = OFFERED
                            offer = offered
                            break
                side = side_of[bidder]
                n_legal = _legal_options(done, side, np.int64(-1), repick_row, opt_row, legal)
                decided += count_decision(n_legal, decision_options)  # the forced pick
                if codes[bidder] == RANDOM:
                    index, amount = random_pick(n_legal, np.int64(1), np.bool_(True), stream)
                else:
                    if not ready[bidder]:
                        way_values(_faces(hands, bidder), count_faces(hands[bidder, copies]),
                                   way_trump, way_order, way_direction, way_flip, deck_faces,
                                   values_points, other_points, partner_points,
                                   values[bidder])  # fmt: skip
                        ready[bidder] = True
                    index, amount = choose_pick(
                        codes[bidder], params, bidder, legal, n_legal, np.int64(1), np.int64(0),
                        np.bool_(True), offer,
                        values[bidder], base, base_row, opt_way, opt_row, row_value, side,
                        sides, done, score, place_points, avoid, stream,
                    )  # fmt: skip
                if not 0 <= index < n_legal or amount != 0:
                    return ILLEGAL_PICK
                bid = legal[index]
                debt = 0
            declarer = bidder
            declaring = side_of[declarer]
            row = opt_row[bid]
            way = opt_way[bid]
            trump = way_trump[way]
            way_order_now = way_order[way]
            start_direction = way_direction[way]
            flip = way_flip[way]
            evaluated = codes[declarer] != RANDOM  # a heuristic valued its hand when picking
            value = values[declarer, way] if evaluated else 0.0

            # ---- the tricks ----
            for side in range(sides):
                side_points[side] = 0
            leader = np.int64(declarer)
            for trick_index in range(tricks):
                direction = direction_for_trick(start_direction, flip, trick_index)
                led = np.int64(NO_SUIT)
                seat = leader
                for position in range(players):
                    faces = _faces(hands, seat)
                    # typed, not literals: the shared card helpers compile once
                    allowed = legal_faces(faces, np.int64(MAY_TRUMP), led, trump, np.int64(0),
                                          np.bool_(False))
                    decided += count_decision(count_playable(hands[seat], allowed, np.bool_(True)),
                                              decision_options)  # fmt: skip
                    if codes[seat] == RANDOM:  # the same function choose_card calls
                        if plain:  # one copy, no joker: the card is its face
                            card = nth_face(allowed, below(stream, count_faces(allowed)))
                        else:
                            card = random_card(hands, seat, allowed, stream)
                    else:
                        jokers = count_faces(hands[seat, copies])
                        allies = np.int64(0)
                        mine = side_of[seat] == declaring
                        for other_position in range(players):
                            other = leader + other_position
                            if other >= players:
                                other -= players
                            if (side_of[other] == declaring) == mine:
                                allies |= 1 << other_position
                        unseen = _EMPTY
                        for copy in range(copies):
                            unseen |= deck_words[copy] & ~(played[copy] | hands[seat, copy]
                                                           | straw_pub[copy])  # fmt: skip
                        unseen_jokers = deck_jokers - count_faces(
                            played[copies] | hands[seat, copies] | straw_pub[copies]
                        )
                        card = choose_card(
                            codes[seat], params, seat, hands, seat, allowed, jokers, trick,
                            position, led, trump, way_order_now, direction, allies, players,
                            leader, points, deck_faces, deck_jokers, unseen, unseen_jokers,
                            voids, jokers_strong, ties, stream,
                        )  # fmt: skip
                    if card < 0 or not _holds(hands, seat, card):
                        return ILLEGAL_CARD
                    face = card & 127
                    if face != JOKER and (allowed >> np.uint64(face)) & _ONE == _EMPTY:
                        return ILLEGAL_CARD
                    _remove(hands, seat, card)
                    for pile in range(piles):
                        if straw_up[seat, pile] == card:
                            straw_up[seat, pile] = -1
                            to_turn[seat] = pile
                            word, bit = _slot(card, words)
                            straw_pub[word] &= ~(_ONE << bit)
                            break
                    word, bit = _slot(card, words)
                    played[word] |= _ONE << bit
                    trick[position] = face
                    suit = face >> 4
                    if position == 0:
                        led = suit
                    elif led != NO_SUIT and suit != NO_SUIT and suit != led and suit != trump:
                        voids[seat] |= 1 << led
                    seat = _next(seat, players)
                winner = leader + trick_winner(trick, players, led, trump, way_order_now,
                                               direction, jokers_strong, ties)  # fmt: skip
                if winner >= players:
                    winner -= players
                tricks_won[winner] += 1
                won = 0
                for position in range(players):
                    won += points[trick[position]]
                side_points[side_of[winner]] += won
                if piles > 0:  # turn up the cards under played straw-pile cards, in play order
                    seat = leader
                    for _ in range(players):
                        pile = to_turn[seat]
                        if pile >= 0:
                            under = straw_down[seat, pile]
                            if under >= 0:
                                straw_up[seat, pile] = under
                                straw_down[seat, pile] = -1
                                _add(hands, seat, under)
                                word, bit = _slot(under, words)
                                straw_pub[word] |= _ONE << bit
                                if (under & 127) != JOKER:
                                    voids[seat] &= ~(1 << ((under & 127) >> 4))
                            to_turn[seat] = -1
                        seat = _next(seat, players)
                leader = winner

            # ---- score the round ----
            last_side = side_of[leader]
            side_points[last_side] += last_trick
            if aside > 0:
                first = players * per_player
                high = first
                for index in range(first + 1, first + aside):
                    if (STRENGTH[base_order, UP, deck[index] & 15]
                            > STRENGTH[base_order, UP, deck[high] & 15]):  # fmt: skip
                        high = index
                for index in range(first, first + aside):
                    if index == high:
                        side_points[last_side] += points[deck[index] & 127]
                    else:
                        side_points[1 - last_side] += points[deck[index] & 127]
            sign = -1 if avoid[row] else 1
            gross = side_points[declaring]
            result = gross - sign * (debt - offer)
            for side in range(sides):
                side_tricks[side] = 0
            for seat in range(players):
                side_tricks[side_of[seat]] += tricks_won[seat]
            match_side = -1
            for side in range(sides):
                if side_tricks[side] == tricks:
                    match_side = side

            # ---- count the round ----
            declared[declarer, row] += 1
            declared_score[declarer, row] += result
            declared_score_squares[declarer, row] += result * result
            declared_gross[declarer, row] += gross
            declared_gross_squares[declarer, row] += gross * gross
            declared_tricks[row, side_tricks[declaring]] += 1
            score_hist[row, min(max(result + SCORE_OFFSET, 0), SCORE_BINS - 1)] += 1
            how_counts[declarer, row, how] += 1
            if first_picker >= 0:
                first_picks[first_picker, opt_row[first_option]] += 1
            option_rounds[declarer, bid] += 1
            option_score[declarer, bid] += result
            option_score_squares[declarer, bid] += result * result
            debt_rounds[row, debt] += 1
            debt_score[row, debt] += result
            debt_score_squares[row, debt] += result * result
            debt_gross[row, debt] += gross
            debt_gross_squares[row, debt] += gross * gross
            if how == OFFERED:
                offers_taken[declarer] += 1
                offer_hist[offer] += 1
            bid_count = 0
            for seat in range(players):
                bid_count += round_picks[seat]
            bids_hist[min(bid_count, BID_BINS - 1)] += 1
            position = declarer - barrel
            if position < 0:
                position += players
            position_rounds[position] += 1
            position_score[position] += result
            position_score_squares[position] += result * result
            contract_round[row, round_index] += 1
            if match_side >= 0:
                match[0 if match_side == declaring else 1] += 1
            if evaluated:
                units = np.int64(math.floor(value * EVAL_SCALE + 0.5))  # counts.value_units
                evaluation[row, 0] += 1
                evaluation[row, 1] += units
                evaluation[row, 2] += units * units
                evaluation[row, 3] += gross
                evaluation[row, 4] += gross * gross
                evaluation[row, 5] += units * gross

            # ---- the pad ----
            _standings(done, score, game_points, sides, rows, cumulative, previous)
            done[declaring, row] = 1
            left[declaring] -= 1
            row_done[row] += 1
            score[declaring, row] = result
            order[declaring, row] = round_index
            pad_debt[declaring, row] = debt
            if match_side >= 0:
                game_points[match_side] += match_points
            if row_done[row] == sides:  # the row is complete: score it
                row_sign = 1 if avoid[row] else -1
                for side in range(sides):
                    place = 0
                    for other in range(sides):
                        if other != side and _before(other, side, row, done, score, order,
                                                     row_sign):  # fmt: skip
                            place += 1
                    gained[side] = place_points[row, place]
                for side in range(sides):
                    game_points[side] += gained[side]
                    debt_row_entries[row, pad_debt[side, row]] += 1
                    debt_row_points[row, pad_debt[side, row]] += gained[side]
                    debt_row_points_squares[row, pad_debt[side, row]] += (
                        gained[side] * gained[side]
                    )
                for seat in range(players):
                    got = gained[side_of[seat]]
                    contract_points[seat, row] += got
                    contract_points_squares[seat, row] += got * got
            if left[declaring] == 0:
                finished[declaring] = round_index
            rounds_played = round_index + 1
            _standings(done, score, game_points, sides, rows, cumulative, standings)
            changed = False
            for side in range(sides):
                if standings[side] != previous[side]:
                    changed = True
            if changed:  # a score check: who alone stands best?
                top = -_LATE
                sole = -1
                for side in range(sides):
                    if standings[side] > top:
                        top = standings[side]
                        sole = side
                    elif standings[side] == top:
                        sole = -1
                if sole != streak_leader:
                    streak_leader = sole
                    streak_start = last_check + 1
                last_check = round_index
                if sole >= 0:
                    if last_leader >= 0 and sole != last_leader:
                        lead_changes += 1
                    last_leader = sole
            rounds_left = total_rounds - round_index - 1
            if certain_after == total_rounds and rounds_left > 0:
                sure = _certain_winner(sides, rows, done, score, order, finished, standings,
                                       avoid, place_points, perms, match_points, cumulative,
                                       spread, rounds_left, left, row_done,
                                       row_span)  # fmt: skip
                if sure >= 0:
                    certain_after = round_index + 1
                    if early_end:
                        break
            if rounds_left > 0:  # the next player in turn order with contracts to complete
                for offset in range(1, players + 1):
                    candidate = barrel + offset
                    while candidate >= players:
                        candidate -= players
                    if left[side_of[candidate]] > 0:
                        barrel = candidate
                        break

        # ---- the game's outcome ----
        if rounds_played < total_rounds:  # ended early: the side sure to win has won
            winner_side, tie_break = sure, False
        else:
            winner_side, tie_break = _outcome(standings, finished, sides)
        games[0] += 1
        for seat in range(players):
            got = game_points[side_of[seat]]
            if side_of[seat] == winner_side:
                wins[seat] += 1
                if team_size == 1:
                    sole_wins[seat] += 1
            points_sum[seat] += got
            points_squares[seat] += got * got
            points_hist[seat, min(max(got + GP_OFFSET, 0), GP_BINS - 1)] += 1
        if tie_break:
            tie_breaks[0] += 1
        certain_hist[certain_after] += 1
        game_rounds_hist[rounds_played] += 1
        lead_changes_hist[min(lead_changes, LEAD_CHANGE_BINS - 1)] += 1
        if not tie_break:  # the winner leads for good from round `settled` on
            settled = streak_start if streak_leader == winner_side else last_check + 1
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * settled) // rounds_played)] += 1
        # counts.standings_row: the winner first, then by standing, then who finished first
        best_other = -_LATE
        for seat in range(players):
            side = side_of[seat]
            place = 0
            if side != winner_side:
                best_other = max(best_other, standings[side])
                place = 1
                for other in range(sides):
                    if other == side or other == winner_side:
                        continue
                    if standings[other] > standings[side] or (
                        standings[other] == standings[side]
                        and _finished_before(other, side, finished)
                    ):
                        place += 1
            places[seat] = sides - 1 - place
        margin = standings[winner_side] - best_other
        margin_hist[min(max(margin + GP_OFFSET, 0), GP_BINS - 1)] += 1
        tally_shared_outcome(places, players, np.bool_(False), win_ties, margins)
        count_game_decisions(decided, game_decisions)
        if write_rows:
            for seat in range(players):
                out_points[game, seat] = game_points[side_of[seat]]
                out_standing[game, seat] = places[seat]
            out_rounds[game] = rounds_played
    return OK


@njit(cache=True, nogil=True, error_model="numpy")
def _finished_before(a, b, finished) -> bool:
    """Whether side ``a`` comes before side ``b`` in the order sides finished (unfinished
    sides last, then by side number)."""
    a_key = finished[a] if finished[a] >= 0 else _LATE
    b_key = finished[b] if finished[b] >= 0 else _LATE
    return a_key < b_key or (a_key == b_key and a < b)


@njit(cache=True, nogil=True, error_model="numpy")
def _outcome(standings, finished, sides):
    """The engine's ``outcome``: (winning side, whether the tie-break decided it)."""
    best = standings[0]
    for side in range(1, sides):
        best = max(best, standings[side])
    winner = np.int64(-1)
    tied = 0
    for side in range(sides):
        if standings[side] == best:
            tied += 1
            if winner < 0 or _finished_before(side, winner, finished):
                winner = side
    return winner, tied > 1
