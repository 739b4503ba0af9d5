"""The fast path: a numba kernel that plays a whole batch of Bluff in Zoo games.

It follows ``engine.py`` step by step on flat arrays and keeps only the counts of
``counts.new_totals`` (constant memory, whatever the number of games); per-game rows
(``counts.new_rows``) are written only when the caller passes arrays for them. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``; the tests hold both to that.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    COUNT_ONE,
    N_ANIMAL_TYPES,
    N_CARD_TYPES,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
)
from zooanalysis.games.bluff.counts import (
    COUNT_BINS,
    MOVE_BINS,
    PILE_BINS,
    POINT_BINS,
    ROUND_BINS,
    new_rows,
)
from zooanalysis.games.bluff.policy_math import WORKSPACE_ROWS
from zooanalysis.games.bluff.strategies import (
    MOVE_DOUBT,
    MOVE_DRAW,
    MOVE_HAND,
    MOVE_NONE,
    RANDOM,
    choose_claim,
    choose_move,
    random_claim,
    random_move,
)
from zooanalysis.outcome import tally_outcome
from zooanalysis.rng import seed_game, shuffle
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

END_POINTS = 0
END_DECK = 1

OK = 0
ILLEGAL_MOVE = 1
ILLEGAL_CLAIM = 2


def play_batch(
    deck_template: np.ndarray,
    hand_size: int,
    points_to_end: int,
    claim_cap: int,
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

    ``codes`` and ``params`` hold each seat's strategy code and parameters. ``rows``, from
    ``counts.new_rows``, receives one row per game when given (row ``i`` is game
    ``first_game + i``). Raises ``RuntimeError`` if a strategy made an illegal move (a bug,
    never a user error).
    """
    rows = rows or new_rows(0, codes.shape[0])
    status = _play_batch(
        deck_template,
        hand_size,
        points_to_end,
        claim_cap,
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
        totals["rounds_hist"],
        totals["moves_hist"],
        totals["end_reasons"],
        totals["lead_changes_hist"],
        totals["settled_hist"],
        totals["move_counts"],
        totals["doubts"],
        totals["claims"],
        totals["win_ties"],
        totals["margins"],
        rows["row_scores"],
        rows["row_rounds"],
        rows["row_moves"],
        rows["row_end"],
    )
    if status != OK:
        raise RuntimeError(
            f"kernel stopped: a strategy made an illegal {'move' if status == 1 else 'claim'}"
        )


@njit(cache=True, nogil=True, error_model="numpy")
def _pile_count(
    wild_1, wild_2, count_ones, all_equals, stops, kind_value, kind_cards, animals, animal_cards
):
    """The doubt count of the pile in O(1), from running totals (no arrays: no refcounting).

    ``kind_value`` / ``kind_cards``: animals / animal cards of the claimed kind on the pile;
    ``animals`` / ``animal_cards``: the same over every kind. Same rule as
    ``rules.count_for_kind``.
    """
    actions_on = stops % 2 == 0
    count_one = actions_on and count_ones > 0
    if actions_on and all_equals > 0:
        if count_one:
            return animal_cards + wild_1 + wild_2
        return animals + wild_1 + 2 * wild_2
    if count_one:
        return kind_cards + wild_1 + wild_2
    return kind_value + wild_1 + 2 * wild_2


@njit(cache=True, nogil=True, error_model="numpy")
def _view_of(
    seat,
    hands,
    hand_len,
    known,
    revealed,
    deck_counts,
    params,
    my_hand,
    my_known,
    unseen,
    my_params,
):
    """Copy what player ``seat`` may know into the decision arrays; returns its hand size.

    The strategy gets these copies, never the game's arrays: its hand, the pile cards it
    placed (``my_known``), the cards it has not seen (``unseen``) and its parameters.
    """
    for card in range(N_CARD_TYPES):
        my_known[card] = known[seat, card]
        unseen[card] = deck_counts[card] - revealed[card] - known[seat, card]
    size = hand_len[seat]
    for index in range(size):
        my_hand[index] = hands[seat, index]
        unseen[hands[seat, index]] -= 1
    for index in range(my_params.shape[0]):
        my_params[index] = params[seat, index]
    return size


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    deck_template,
    hand_size,
    points_to_end,
    claim_cap,
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
    rounds_hist,
    moves_hist,
    end_reasons,
    lead_changes_hist,
    settled_hist,
    move_counts,
    doubts,
    claims,
    win_ties,
    margins,
    row_scores,
    row_rounds,
    row_moves,
    row_end,
):
    players = codes.shape[0]
    deck_size = deck_template.shape[0]
    deck = np.empty(deck_size, dtype=np.int8)
    deck_counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for card in deck_template:
        deck_counts[card] += 1
    hands = np.empty((players, hand_size), dtype=np.int8)
    hand_len = np.empty(players, dtype=np.int64)
    known = np.zeros((players, N_CARD_TYPES), dtype=np.int64)
    pile_counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    kind_values = np.zeros(N_KINDS, dtype=np.int64)
    kind_cards = np.zeros(N_KINDS, dtype=np.int64)
    revealed = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    write_rows = row_rounds.shape[0] > 0
    stream = np.empty(1, dtype=np.uint64)
    work = np.zeros((WORKSPACE_ROWS, N_KINDS), dtype=np.float64)
    my_hand = np.zeros(hand_size, dtype=np.int8)
    my_known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    my_params = np.zeros(params.shape[1], dtype=np.float64)

    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        deck[:] = deck_template
        shuffle(deck, stream)
        for seat in range(players):
            for slot in range(hand_size):
                hands[seat, slot] = deck[seat * hand_size + slot]
            hand_len[seat] = hand_size
            scores[seat] = 0
        draw_top = players * hand_size
        revealed.fill(0)
        round_index = 0
        moves = 0
        end_reason = END_DECK
        # score trajectory, in scalars: the last sole leader and the lead changes so far;
        # the current run of score checks with the same sole leader (or none) and the move
        # from which it counts (the move after the check before it); the last check's move
        last_leader = -1
        leader = -1  # the sole leader now (everyone starts at 0 points: none)
        lead_changes = 0
        streak_leader = -2
        streak_start = 0
        last_check = -1

        while True:
            # ---- one round ----
            pile_len = 0
            pile_counts.fill(0)
            kind_values.fill(0)
            kind_cards.fill(0)
            animals = 0
            animal_cards = 0
            known.fill(0)
            claim_count = 0
            claim_kind = -1
            claimant = -1
            claimant_move = 0
            seat = round_index % players
            while True:
                code = codes[seat]
                draw_size = deck_size - draw_top
                if claim_count > 0 and claim_count >= claim_cap and claim_kind == N_KINDS - 1:
                    move, index = MOVE_DOUBT, -1
                else:
                    if code == RANDOM:
                        move, index = random_move(hand_len[seat], draw_size, claim_count, stream)
                    else:
                        size = _view_of(
                            seat,
                            hands,
                            hand_len,
                            known,
                            revealed,
                            deck_counts,
                            params,
                            my_hand,
                            my_known,
                            unseen,
                            my_params,
                        )
                        move, index = choose_move(
                            code,
                            my_params,
                            my_hand,
                            size,
                            my_known,
                            unseen,
                            pile_len,
                            draw_size,
                            claim_count,
                            claim_kind,
                            claim_cap,
                            stream,
                            work,
                        )
                    if move == MOVE_DOUBT and claim_count == 0:
                        return ILLEGAL_MOVE
                    if move == MOVE_NONE and claim_count == 0:
                        return ILLEGAL_MOVE
                    if move == MOVE_HAND and not (0 <= index < hand_len[seat]):
                        return ILLEGAL_MOVE
                    if move == MOVE_DRAW and draw_size == 0:
                        return ILLEGAL_MOVE
                moves += 1
                move_counts[seat, move] += 1
                if move == MOVE_DOUBT:
                    found = _pile_count(
                        pile_counts[WILD_1],
                        pile_counts[WILD_2],
                        pile_counts[COUNT_ONE],
                        pile_counts[ALL_EQUAL],
                        pile_counts[STOP],
                        kind_values[claim_kind],
                        kind_cards[claim_kind],
                        animals,
                        animal_cards,
                    )
                    held = 1 if found >= claim_count else 0
                    loser = seat if held == 1 else claimant
                    doubts[
                        min(claim_count, COUNT_BINS - 1),
                        claim_kind,
                        min(pile_len, PILE_BINS - 1),
                        claimant_move - 1,
                        seat,
                        claimant,
                        held,
                    ] += 1
                    scores[loser] += pile_len
                    if pile_len > 0:  # a score check: who alone has the fewest points?
                        # Only the loser's points grew: a sole leader who did not lose stays
                        # sole leader, so the players are compared only otherwise.
                        if leader < 0 or leader == loser:
                            fewest = scores[0]
                            leader = 0
                            for player in range(1, players):
                                if scores[player] < fewest:
                                    fewest = scores[player]
                                    leader = player
                                elif scores[player] == fewest:
                                    leader = -1  # shared, unless someone has fewer still
                        if leader != streak_leader:
                            streak_leader = leader
                            streak_start = last_check + 1
                        last_check = moves - 1
                        if leader >= 0:
                            if last_leader >= 0 and leader != last_leader:
                                lead_changes += 1
                            last_leader = leader
                    for card in range(N_CARD_TYPES):
                        revealed[card] += pile_counts[card]
                    break
                if move == MOVE_HAND:
                    card = hands[seat, index]
                    hand_len[seat] -= 1
                    hands[seat, index] = hands[seat, hand_len[seat]]
                elif move == MOVE_DRAW:
                    card = deck[draw_top]
                    draw_top += 1
                else:
                    card = -1
                if card >= 0:
                    pile_counts[card] += 1
                    known[seat, card] += 1
                    if card < N_ANIMAL_TYPES:
                        kind_values[card // 3] += card % 3 + 1
                        kind_cards[card // 3] += 1
                        animals += card % 3 + 1
                        animal_cards += 1
                    pile_len += 1
                if code == RANDOM:
                    count, kind = random_claim(claim_count, claim_kind, claim_cap, stream)
                else:
                    _view_of(
                        seat,
                        hands,
                        hand_len,
                        known,
                        revealed,
                        deck_counts,
                        params,
                        my_hand,
                        my_known,
                        unseen,
                        my_params,
                    )
                    count, kind = choose_claim(
                        code,
                        my_params,
                        my_known,
                        unseen,
                        pile_len,
                        claim_count,
                        claim_kind,
                        claim_cap,
                        stream,
                        work,
                    )
                if kind < 0 or kind >= N_KINDS or count < 1 or count > claim_cap:
                    return ILLEGAL_CLAIM
                if claim_count == 0:
                    if count != 1:
                        return ILLEGAL_CLAIM
                elif not (count > claim_count or (count == claim_count and kind > claim_kind)):
                    return ILLEGAL_CLAIM
                found = _pile_count(
                    pile_counts[WILD_1],
                    pile_counts[WILD_2],
                    pile_counts[COUNT_ONE],
                    pile_counts[ALL_EQUAL],
                    pile_counts[STOP],
                    kind_values[kind],
                    kind_cards[kind],
                    animals,
                    animal_cards,
                )
                true_now = 1 if found >= count else 0
                claims[
                    seat,
                    min(count, COUNT_BINS - 1),
                    kind,
                    min(pile_len, PILE_BINS - 1),
                    move - 1,
                    true_now,
                ] += 1
                claim_count, claim_kind, claimant, claimant_move = count, kind, seat, move
                seat = (seat + 1) % players
            # ---- end of round ----
            highest = 0
            for player in range(players):
                highest = max(highest, scores[player])
            if highest >= points_to_end:
                end_reason = END_POINTS
                break
            needed = 0
            for player in range(players):
                needed += hand_size - hand_len[player]
            if needed > deck_size - draw_top:
                end_reason = END_DECK
                break
            starter = round_index % players
            for offset in range(players):
                player = (starter + offset) % players
                while hand_len[player] < hand_size:
                    hands[player, hand_len[player]] = deck[draw_top]
                    hand_len[player] += 1
                    draw_top += 1
            round_index += 1

        # ---- record the game ----
        games[0] += 1
        best = scores[0]
        for player in range(players):
            best = min(best, scores[player])
        n_best = 0
        for player in range(players):
            if scores[player] == best:
                n_best += 1
        for player in range(players):
            points = scores[player]
            if points == best:
                wins[player] += 1
                if n_best == 1:
                    sole_wins[player] += 1
            points_sum[player] += points
            points_squares[player] += points * points
            points_hist[player, min(points, POINT_BINS - 1)] += 1
        rounds_hist[min(round_index + 1, ROUND_BINS - 1)] += 1
        moves_hist[min(moves, MOVE_BINS - 1)] += 1
        end_reasons[end_reason] += 1
        tally_outcome(scores, players, True, win_ties, margins)
        lead_changes_hist[min(lead_changes, LEAD_CHANGE_BINS - 1)] += 1
        if n_best == 1:  # the single winner is the last check's sole leader
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * streak_start) // moves)] += 1
        if write_rows:
            for player in range(players):
                row_scores[game, player] = scores[player]
            row_rounds[game] = round_index + 1
            row_moves[game] = moves
            row_end[game] = end_reason
    return OK
