"""The fast path: a numba kernel that plays a whole batch of Short Zoot Suit games.

It follows ``engine.py`` step by step on flat arrays and keeps only the counts of
``counts.new_totals`` (constant memory, whatever the number of games); per-game rows
(``counts.new_rows``) are written only when the caller passes arrays for them. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``; the tests hold both to that.

Every set of cards is a ``uint64`` face mask (``zooanalysis/cards/bits.py``): each hand,
each draw pile's cards, each shorts pile, the cards played this round. A draw pile's
shuffled cards are drawn uniformly when drawn (one random number, as in the engine); the
cards placed on it in Sean's Short Shorts sit on top, in a small stack per player.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import (
    SUIT_FACES,
    count_faces,
    face_bit,
    lowest_face,
    nth_face,
    suits_held,
)
from zooanalysis.cards.encoding import NO_SUIT
from zooanalysis.decisions import combinations, count_decision, count_game_decisions
from zooanalysis.games.short_zoot_suit.counts import (
    COUNT_BINS,
    GAME_TRICK_BINS,
    PILE_GROUPS,
    PILE_HIGH_BINS,
    POINT_BINS,
    RANK_GROUPS,
    new_rows,
)
from zooanalysis.games.short_zoot_suit.engine import DECLINED, EMPTY_PILE, PLACED_LAST
from zooanalysis.games.short_zoot_suit.rules import MAX_CARDS_PER_PLAYER, round_points
from zooanalysis.games.short_zoot_suit.strategies import (
    DRAW,
    PASS,
    PLACE,
    RANDOM,
    choose_action,
    choose_card,
    choose_pile,
    random_action,
    random_card,
    random_pile,
)
from zooanalysis.outcome import tally_outcome as tally_shared_outcome
from zooanalysis.rng import below, seed_game, shuffle
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

OK, ILLEGAL_PILE, ILLEGAL_ACTION, ILLEGAL_CARD = 0, 1, 2, 3
_PROBLEMS = ("", "draw pile", "action before a trick", "card")
_EMPTY = np.uint64(0)
_ONE = np.uint64(1)


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
    ``counts.new_rows``, receives one row per game when given (row ``i`` is game
    ``first_game + i``). Raises ``RuntimeError`` if a strategy made an illegal choice (a
    bug, never a user error).
    """
    rows = rows or new_rows(0, codes.shape[0])
    status = _play_batch(
        config["deck"],
        config["per_player"],
        config["pile_cards"],
        config["place_min"],
        config["rounds"],
        config["per_trick"],
        config["per_pair"],
        config["per_equal_pair"],
        config["suit_points"],
        config["high"],
        codes,
        params,
        np.uint64(batch_seed),
        np.int64(first_game),
        n_games,
        totals["games"],
        totals["wins"],
        totals["sole_wins"],
        totals["points_sum"],
        totals["points_squares"],
        totals["points_hist"],
        totals["points_from"],
        totals["points_from_squares"],
        totals["round_squares"],
        totals["round_ts"],
        totals["round_suits"],
        totals["position_points"],
        totals["position_squares"],
        totals["round_tricks_hist"],
        totals["game_tricks_hist"],
        totals["empty_hands"],
        totals["empties_hist"],
        totals["actions"],
        totals["pile_rounds"],
        totals["pile_points"],
        totals["pile_squares"],
        totals["drawn"],
        totals["end_squares"],
        totals["end_cross"],
        totals["empty_squares"],
        totals["drawn_rank_squares"],
        totals["drawn_rank_cross"],
        totals["pile_rank_squares"],
        totals["pile_groups"],
        totals["profile_rounds"],
        totals["profile_points"],
        totals["profile_squares"],
        totals["lead_changes_hist"],
        totals["settled_hist"],
        totals["win_ties"],
        totals["margins"],
        totals["decision_options"],
        totals["game_decisions"],
        rows["row_points"],
        rows["row_tricks"],
    )
    if status != OK:
        raise RuntimeError(f"kernel stopped: a strategy chose an illegal {_PROBLEMS[status]}")


@njit(cache=True, nogil=True, error_model="numpy")
def count_game_squares(
    game_ends, game_drawn, game_pile, end_squares, end_cross, empty_squares,
    drawn_rank_squares, drawn_rank_cross, pile_rank_squares,
) -> None:
    """``counts.count_game_squares`` for the game just played, then zero its per-game
    counts for the next."""
    empty = 0
    for reason in range(game_ends.shape[0]):
        empty += game_ends[reason]
    for reason in range(game_ends.shape[0]):
        end_squares[reason] += game_ends[reason] * game_ends[reason]
        end_cross[reason] += game_ends[reason] * empty
        game_ends[reason] = 0
    empty_squares[0] += empty * empty
    for rank in range(game_drawn.shape[0]):
        drawn_rank_squares[rank] += game_drawn[rank] * game_drawn[rank]
        drawn_rank_cross[rank] += game_drawn[rank] * game_pile[rank]
        pile_rank_squares[rank] += game_pile[rank] * game_pile[rank]
        game_drawn[rank] = 0
        game_pile[rank] = 0


@njit(cache=True, nogil=True, error_model="numpy")
def _suit_count(suits) -> int:
    """How many suits a 4-bit suit set holds."""
    return (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1) + (suits >> 3 & 1)


@njit(cache=True, nogil=True, error_model="numpy")
def _next_seat(first, offset, players) -> int:
    """``(first + offset) % players`` for ``0 <= first, offset < players``, without a
    division (the hot loops ask it for every decision)."""
    seat = first + offset
    return seat - players if seat >= players else seat


@njit(cache=True, nogil=True, error_model="numpy")
def tally_outcome(scores, players, wins, sole_wins, points_sum, points_squares, points_hist):
    """Add a game's final standings (the engine's ``outcome`` and ``counts.tally_outcome``):
    every seat with the most points wins; returns how many did."""
    best = scores[0]
    for seat in range(1, players):
        best = max(best, scores[seat])
    n_best = 0
    for seat in range(players):
        if scores[seat] == best:
            n_best += 1
    for seat in range(players):
        points = scores[seat]
        if points == best:
            wins[seat] += 1
            if n_best == 1:
                sole_wins[seat] += 1
        points_sum[seat] += points
        points_squares[seat] += points * points
        points_hist[seat, min(points, POINT_BINS - 1)] += 1
    return n_best


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    template,
    per_player,
    pile_cards,
    place_min,
    rounds,
    per_trick,
    per_pair,
    per_equal_pair,
    suit_points,
    high,
    codes,
    params,
    batch_seed,
    first_game,
    n_games,
    games,
    wins,
    sole_wins,
    points_sum,
    points_squares,
    points_hist,
    points_from,
    points_from_squares,
    round_squares,
    round_ts,
    round_suits,
    position_points,
    position_squares,
    round_tricks_hist,
    game_tricks_hist,
    empty_hands,
    empties_hist,
    actions,
    pile_rounds,
    pile_points,
    pile_squares,
    drawn,
    end_squares,
    end_cross,
    empty_squares,
    drawn_rank_squares,
    drawn_rank_cross,
    pile_rank_squares,
    pile_groups,
    profile_rounds,
    profile_points,
    profile_squares,
    lead_changes_hist,
    settled_hist,
    win_ties,
    margins,
    decision_options,
    game_decisions,
    row_points,
    row_tricks,
):
    players = codes.shape[0]
    deck_size = template.shape[0]
    deck = np.empty(deck_size, dtype=template.dtype)
    deck_mask = _EMPTY
    for index in range(deck_size):
        deck_mask |= face_bit(template[index])
    hands = np.zeros(players, dtype=np.uint64)
    pile_known = np.zeros(players, dtype=np.uint64)  # the cards in each draw pile
    pile_hidden = np.zeros(players, dtype=np.uint64)  # ... of which shuffled (not placed)
    pile_ever = np.zeros(players, dtype=np.uint64)  # in the pile at some time this round
    placed = np.zeros((players, MAX_CARDS_PER_PLAYER), dtype=np.int64)
    placed_n = np.zeros(players, dtype=np.int64)
    shorts_mask = np.zeros(players, dtype=np.uint64)
    tricks = np.zeros(players, dtype=np.int64)
    shorts = np.zeros(players, dtype=np.int64)
    voids = np.zeros(players, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    group_cards = np.zeros(PILE_GROUPS, dtype=np.int64)
    # this game's empty hands by reason, cards drawn back and pile cards by rank (all seats)
    game_ends = np.zeros(end_squares.shape[0], dtype=np.int64)
    game_drawn = np.zeros(RANK_GROUPS, dtype=np.int64)
    game_pile = np.zeros(RANK_GROUPS, dtype=np.int64)
    stream = np.empty(1, dtype=np.uint64)
    write_rows = row_tricks.shape[0] > 0

    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        for seat in range(players):
            scores[seat] = 0
        game_tricks = 0
        # score trajectory in scalars (see bluff/kernel.py): checks after every round
        last_leader = -1
        lead_changes = 0
        streak_leader = -2
        streak_start = 0
        last_check = -1
        decided = np.int64(0)  # real decisions this game (zooanalysis.decisions); typed

        for round_index in range(rounds):
            start = round_index % players
            # ---- deal ----
            deck[:] = template
            shuffle(deck, stream)
            for seat in range(players):
                hand = _EMPTY
                for index in range(seat * per_player, (seat + 1) * per_player):
                    hand |= face_bit(deck[index])
                hands[seat] = hand
                pile_known[seat] = _EMPTY
                pile_hidden[seat] = _EMPTY
                pile_ever[seat] = _EMPTY
                placed_n[seat] = 0
                shorts_mask[seat] = _EMPTY
                tricks[seat] = 0
                shorts[seat] = 0
                voids[seat] = 0
            # ---- draw piles, from the start player ----
            if pile_cards > 0:
                for offset in range(players):
                    seat = (start + offset) % players
                    hand = hands[seat]
                    decided += count_decision(
                        combinations(count_faces(hand), pile_cards), decision_options
                    )
                    if codes[seat] == RANDOM:  # the same function choose_pile calls
                        pile = random_pile(hand, pile_cards, stream)
                    else:
                        pile = choose_pile(codes[seat], params, seat, hand, pile_cards, stream)
                    if count_faces(pile) != pile_cards or pile & ~hand != _EMPTY:
                        return ILLEGAL_PILE
                    before = suits_held(hand)
                    hands[seat] = hand & ~pile
                    voids[seat] = _suit_count(before & ~suits_held(hands[seat]))
                    pile_known[seat] = pile
                    pile_hidden[seat] = pile
                    pile_ever[seat] = pile
            seen = _EMPTY
            leader = start
            round_tricks = np.int64(0)  # typed, not the literal 0: choose_* compile once
            while True:
                # ---- before the trick: draw, place or pass, from the leader ----
                placed_last = 0
                for offset in range(players):
                    seat = _next_seat(leader, offset, players)
                    pile_size = count_faces(pile_known[seat])
                    held = count_faces(hands[seat])  # pass, draw, place any card
                    options = 1 + (1 if pile_size > 0 else 0) + (held if held >= place_min else 0)
                    decided += count_decision(options, decision_options)
                    if codes[seat] == RANDOM:  # the same function choose_action calls
                        action, face = random_action(hands[seat], pile_size, place_min, stream)
                    else:
                        action, face = choose_action(
                            codes[seat],
                            params,
                            seat,
                            hands[seat],
                            pile_size,
                            place_min,
                            tricks[seat],
                            shorts[seat],
                            round_tricks,
                            stream,
                        )
                    if action == DRAW:
                        if pile_size == 0:
                            return ILLEGAL_ACTION
                        if placed_n[seat] > 0:
                            placed_n[seat] -= 1
                            card = placed[seat, placed_n[seat]]
                            pile_known[seat] &= ~face_bit(card)
                        else:
                            hidden = pile_hidden[seat]
                            card = nth_face(hidden, below(stream, count_faces(hidden)))
                            pile_hidden[seat] = hidden & ~face_bit(card)
                            pile_known[seat] &= ~face_bit(card)
                        hands[seat] |= face_bit(card)
                        drawn[seat, card] += 1
                        game_drawn[card & 15] += 1
                    elif action == PLACE:
                        held = count_faces(hands[seat])
                        if held < place_min or face < 0 or hands[seat] & face_bit(face) == _EMPTY:
                            return ILLEGAL_ACTION
                        hands[seat] &= ~face_bit(face)
                        placed[seat, placed_n[seat]] = face
                        placed_n[seat] += 1
                        pile_known[seat] |= face_bit(face)
                        pile_ever[seat] |= face_bit(face)
                        if hands[seat] == _EMPTY:
                            placed_last |= 1 << seat
                    elif action != PASS:
                        return ILLEGAL_ACTION
                    actions[seat, action] += 1
                n_empty = 0
                for seat in range(players):
                    if hands[seat] == _EMPTY:
                        n_empty += 1
                        if placed_last >> seat & 1:
                            empty_hands[seat, PLACED_LAST] += 1
                            game_ends[PLACED_LAST] += 1
                        elif pile_known[seat] == _EMPTY:
                            empty_hands[seat, EMPTY_PILE] += 1
                            game_ends[EMPTY_PILE] += 1
                        else:
                            empty_hands[seat, DECLINED] += 1
                            game_ends[DECLINED] += 1
                if n_empty > 0:
                    empties_hist[n_empty] += 1
                    break
                # ---- the trick ----
                led = np.int64(NO_SUIT)  # typed, not literals: choose_card compiles once
                best = np.int64(-1)
                winner = leader
                for offset in range(players):
                    seat = _next_seat(leader, offset, players)
                    hand = hands[seat]
                    legal = hand
                    if led != NO_SUIT and hand & SUIT_FACES[led] != _EMPTY:
                        legal = hand & SUIT_FACES[led]  # must follow
                    decided += count_decision(count_faces(legal), decision_options)
                    if codes[seat] == RANDOM:  # the same function choose_card calls
                        face = random_card(legal, stream)
                    else:
                        face = choose_card(
                            codes[seat],
                            params,
                            seat,
                            hand,
                            legal,
                            led,
                            best,
                            offset == players - 1,
                            tricks[seat],
                            shorts[seat],
                            deck_mask & ~(seen | hand | pile_known[seat]),
                            count_faces(pile_known[seat]),
                            round_tricks,
                            stream,
                        )
                    if face < 0 or legal & face_bit(face) == _EMPTY:
                        return ILLEGAL_CARD
                    hands[seat] = hand & ~face_bit(face)
                    seen |= face_bit(face)
                    if offset == 0:
                        led = face >> 4
                        best = face
                    elif face >> 4 == led:
                        if face > best:
                            best = face
                            winner = seat
                    else:
                        shorts[seat] += 1
                        shorts_mask[seat] |= face_bit(face)
                tricks[winner] += 1
                leader = winner
                round_tricks += 1
            # ---- score the round ----
            for seat in range(players):
                suits = _suit_count(suits_held(shorts_mask[seat]))
                from_tricks, from_pairs, bonus, extra = round_points(
                    tricks[seat], shorts[seat], suits, per_trick, per_pair, per_equal_pair,
                    suit_points,
                )  # fmt: skip
                points = from_tricks + from_pairs + bonus + extra
                scores[seat] += points
                points_from[seat, 0] += from_tricks
                points_from[seat, 1] += from_pairs
                points_from[seat, 2] += bonus
                points_from[seat, 3] += extra
                points_from_squares[seat, 0] += from_tricks * from_tricks
                points_from_squares[seat, 1] += from_pairs * from_pairs
                points_from_squares[seat, 2] += bonus * bonus
                points_from_squares[seat, 3] += extra * extra
                round_squares[seat] += points * points
                round_ts[seat, tricks[seat], shorts[seat]] += 1
                round_suits[seat, suits] += 1
                position = (seat - start) % players
                position_points[position] += points
                position_squares[position] += points * points
                pile = pile_ever[seat]
                rest = pile
                while rest != _EMPTY:
                    card = lowest_face(rest)
                    pile_rounds[seat, card] += 1
                    game_pile[card & 15] += 1
                    pile_points[seat, card] += points
                    pile_squares[seat, card] += points * points
                    group_cards[card & 15] += 1
                    group_cards[RANK_GROUPS + (card >> 4)] += 1
                    rest &= rest - _ONE
                if pile != _EMPTY:
                    for group in range(PILE_GROUPS):
                        cards = group_cards[group]
                        if cards > 0:
                            pile_groups[seat, group, 0] += 1
                            pile_groups[seat, group, 1] += points
                            pile_groups[seat, group, 2] += points * points
                            pile_groups[seat, group, 3] += cards
                            pile_groups[seat, group, 4] += cards * cards
                            group_cards[group] = 0
                pile_suits = _suit_count(suits_held(pile))
                highs = min(count_faces(pile & high), PILE_HIGH_BINS - 1)
                profile_rounds[seat, pile_suits, highs, voids[seat]] += 1
                profile_points[seat, pile_suits, highs, voids[seat]] += points
                profile_squares[seat, pile_suits, highs, voids[seat]] += points * points
            round_tricks_hist[min(round_tricks, COUNT_BINS - 1)] += 1
            game_tricks += round_tricks
            # ---- a score check: who alone has the most points? ----
            top = -1
            sole = -1
            for seat in range(players):
                if scores[seat] > top:
                    top = scores[seat]
                    sole = seat
                elif scores[seat] == top:
                    sole = -1
            if sole != streak_leader:
                streak_leader = sole
                streak_start = last_check + 1
            last_check = game_tricks - 1
            if sole >= 0:
                if last_leader >= 0 and sole != last_leader:
                    lead_changes += 1
                last_leader = sole

        # ---- record the game ----
        games[0] += 1
        n_best = tally_outcome(
            scores, players, wins, sole_wins, points_sum, points_squares, points_hist
        )
        tally_shared_outcome(scores, players, np.bool_(False), win_ties, margins)
        count_game_decisions(decided, game_decisions)
        count_game_squares(
            game_ends, game_drawn, game_pile, end_squares, end_cross, empty_squares,
            drawn_rank_squares, drawn_rank_cross, pile_rank_squares,
        )  # fmt: skip
        game_tricks_hist[min(game_tricks, GAME_TRICK_BINS - 1)] += 1
        lead_changes_hist[min(lead_changes, LEAD_CHANGE_BINS - 1)] += 1
        if n_best == 1 and game_tricks > 0:
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * streak_start) // game_tricks)] += 1
        if write_rows:
            for seat in range(players):
                row_points[game, seat] = scores[seat]
            row_tricks[game] = game_tricks
    return OK
