"""What a Short Zoot Suit batch counts: the count arrays both engines fill, and the reference
tally.

Counts only (constant memory for any number of games); histogram bins at the top hold "that
many or more". The kernel fills these arrays in place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.short_zoot_suit.engine.GameRecord` the same way, so the two
engines' totals can be compared array by array.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.cards.bits import count_faces, mask_of, suits_held
from zooanalysis.cards.encoding import N_SUITED_FACES, N_SUITS
from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.short_zoot_suit.engine import END_REASONS, HIGH_RANKS, SOURCES, GameRecord
from zooanalysis.games.short_zoot_suit.rules import MAX_CARDS_PER_PLAYER
from zooanalysis.games.short_zoot_suit.strategies import ACTION_NAMES
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)

COUNT_BINS = MAX_CARDS_PER_PLAYER + 1
"""Tricks won, shorts and tricks per round: 0-32 (a round has at most 32 tricks)."""
POINT_BINS = 512
"""Points per game 0-511; 511 holds 511 or more."""
GAME_TRICK_BINS = 1024
"""Tricks per game 0-1023; 1023 holds 1023 or more."""
PILE_SUIT_BINS = N_SUITS + 1
"""Different suits among a round's draw-pile cards: 0-4."""
PILE_HIGH_BINS = 6
"""High cards (``engine.HIGH_RANKS``) among a round's draw-pile cards: 0-5; 5 holds 5+."""
VOID_BINS = N_SUITS + 1
"""Suits a player emptied from its hand by making its draw pile: 0-4."""
RANK_GROUPS = 16
PILE_GROUPS = RANK_GROUPS + N_SUITS
"""Draw-pile groups: ranks 0-15, then the suits (group 16 + suit)."""
GROUP_FIELDS = ("rounds", "points_sum", "points_squares", "cards", "cards_squares")


def new_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch of ``players``-player games (summed across batches)."""
    n = players
    profile = (n, PILE_SUIT_BINS, PILE_HIGH_BINS, VOID_BINS)
    return {
        "games": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(n, dtype=np.int64),
        "sole_wins": np.zeros(n, dtype=np.int64),
        "points_sum": np.zeros(n, dtype=np.int64),
        "points_squares": np.zeros(n, dtype=np.int64),
        "points_hist": np.zeros((n, POINT_BINS), dtype=np.int64),
        # per seat, summed over rounds: points by source (engine.SOURCES), their squares
        # per round, and the squares of round totals
        "points_from": np.zeros((n, len(SOURCES)), dtype=np.int64),
        "points_from_squares": np.zeros((n, len(SOURCES)), dtype=np.int64),
        "round_squares": np.zeros(n, dtype=np.int64),
        # per seat: rounds by (tricks won, shorts)
        "round_ts": np.zeros((n, COUNT_BINS, COUNT_BINS), dtype=np.int64),
        # per seat: rounds by different suits in the shorts pile
        "round_suits": np.zeros((n, N_SUITS + 1), dtype=np.int64),
        # per position from the round's start player (0 = the start player): round points
        "position_points": np.zeros(n, dtype=np.int64),
        "position_squares": np.zeros(n, dtype=np.int64),
        "round_tricks_hist": np.zeros(COUNT_BINS, dtype=np.int64),
        "game_tricks_hist": np.zeros(GAME_TRICK_BINS, dtype=np.int64),
        # per seat: its hand was empty when a round ended, by reason (engine.END_REASONS)
        "empty_hands": np.zeros((n, len(END_REASONS)), dtype=np.int64),
        # rounds by how many hands were empty at their end (1 .. players)
        "empties_hist": np.zeros(n + 1, dtype=np.int64),
        # per seat: decisions before tricks by action (pass, draw, place)
        "actions": np.zeros((n, len(ACTION_NAMES)), dtype=np.int64),
        # per seat and card: rounds in which the card was in the seat's draw pile, the seat's
        # points in those rounds (sum and squares), and how often it was drawn
        "pile_rounds": np.zeros((n, N_SUITED_FACES), dtype=np.int64),
        "pile_points": np.zeros((n, N_SUITED_FACES), dtype=np.int64),
        "pile_squares": np.zeros((n, N_SUITED_FACES), dtype=np.int64),
        "drawn": np.zeros((n, N_SUITED_FACES), dtype=np.int64),
        # over games g, all seats together, for the clustered intervals of two rates over
        # units that come several to a game (stats.clustered_rate): the sums of x_g^2,
        # x_g n_g and n_g^2 for x_g = the game's empty hands by reason and n_g = its empty
        # hands; and for x_g = cards drawn back by rank and n_g = pile cards of the rank
        "end_squares": np.zeros(len(END_REASONS), dtype=np.int64),
        "end_cross": np.zeros(len(END_REASONS), dtype=np.int64),
        "empty_squares": np.zeros(1, dtype=np.int64),
        "drawn_rank_squares": np.zeros(RANK_GROUPS, dtype=np.int64),
        "drawn_rank_cross": np.zeros(RANK_GROUPS, dtype=np.int64),
        "pile_rank_squares": np.zeros(RANK_GROUPS, dtype=np.int64),
        # per seat, rank (groups 0-15) and suit (16-19) of draw-pile cards, over all rounds:
        # rounds whose pile held one, the owner's points in those (sum, squares), and the
        # pile's cards of that group (sum and squares per round)
        "pile_groups": np.zeros((n, PILE_GROUPS, len(GROUP_FIELDS)), dtype=np.int64),
        # per seat: rounds by draw-pile profile (suits, high cards, voids made) and the
        # seat's points in them (sum and squares)
        "profile_rounds": np.zeros(profile, dtype=np.int64),
        "profile_points": np.zeros(profile, dtype=np.int64),
        "profile_squares": np.zeros(profile, dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        # win_ties (seat, tied winners) and winning margins: zooanalysis.outcome
        **new_outcome_totals(n),
        # legal options of every decision, real decisions per game: zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game: every seat's points and the tricks played."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int32),
        "row_tricks": np.zeros(games, dtype=np.int32),
    }


TOTAL_KEYS = tuple(new_totals(2))
ROW_KEYS = tuple(new_rows(0, 2))


def high_faces(ranks: tuple[int, ...]) -> np.uint64:
    """The faces of the deck's ``HIGH_RANKS`` highest ranks, in every suit."""
    high = sorted(ranks)[-HIGH_RANKS:]
    return mask_of(suit * 16 + rank for suit in range(N_SUITS) for rank in high)


def tally_outcome(points: list[int], totals: dict[str, np.ndarray]) -> None:
    """Add a game's final standings: wins (tied players all win), sole wins, points."""
    best = max(points)
    leaders = sum(1 for value in points if value == best)
    for seat, value in enumerate(points):
        if value == best:
            totals["wins"][seat] += 1
            if leaders == 1:
                totals["sole_wins"][seat] += 1
        totals["points_sum"][seat] += value
        totals["points_squares"][seat] += value * value
        totals["points_hist"][seat, min(value, POINT_BINS - 1)] += 1
    count_outcome(points, totals, fewest_win=False)


def tally(record: GameRecord, totals: dict[str, np.ndarray], high: np.uint64) -> None:
    """Add one game's record into kernel-shaped count arrays (``high``: :func:`high_faces`)."""
    players = len(record.points)
    totals["games"][0] += 1
    tally_outcome(record.points, totals)
    for played in record.rounds:
        totals["round_tricks_hist"][min(played.tricks_played, COUNT_BINS - 1)] += 1
        totals["empties_hist"][len(played.empty_hands)] += 1
        for seat, reason in played.empty_hands:
            totals["empty_hands"][seat, reason] += 1
        for seat in range(players):
            points = played.total(seat)
            parts = np.array(played.points[seat], dtype=np.int64)
            totals["points_from"][seat] += parts
            totals["points_from_squares"][seat] += parts * parts
            totals["round_squares"][seat] += points * points
            totals["round_ts"][seat, played.tricks[seat], played.shorts[seat]] += 1
            totals["round_suits"][seat, played.shorts_suits[seat]] += 1
            position = (seat - played.start_player) % players
            totals["position_points"][position] += points
            totals["position_squares"][position] += points * points
            totals["actions"][seat] += played.actions[seat]
            for card in played.pile_cards[seat]:
                totals["pile_rounds"][seat, card] += 1
                totals["pile_points"][seat, card] += points
                totals["pile_squares"][seat, card] += points * points
            groups = [0] * PILE_GROUPS
            for card in played.pile_cards[seat]:
                groups[card & 15] += 1
                groups[RANK_GROUPS + (card >> 4)] += 1
            for group, cards in enumerate(groups):
                if cards:
                    totals["pile_groups"][seat, group] += (
                        1, points, points * points, cards, cards * cards
                    )
            for card in played.drawn[seat]:
                totals["drawn"][seat, card] += 1
            pile = mask_of(played.pile_cards[seat])
            suits = bin(suits_held(pile)).count("1")
            highs = min(count_faces(pile & high), PILE_HIGH_BINS - 1)
            cell = (seat, suits, highs, played.voids_made[seat])
            totals["profile_rounds"][cell] += 1
            totals["profile_points"][cell] += points
            totals["profile_squares"][cell] += points * points
    game_ends = np.zeros(len(END_REASONS), dtype=np.int64)
    game_drawn = np.zeros(RANK_GROUPS, dtype=np.int64)
    game_pile = np.zeros(RANK_GROUPS, dtype=np.int64)
    for played in record.rounds:
        for _, reason in played.empty_hands:
            game_ends[reason] += 1
        for seat in range(players):
            for card in played.drawn[seat]:
                game_drawn[card & 15] += 1
            for card in played.pile_cards[seat]:
                game_pile[card & 15] += 1
    count_game_squares(game_ends, game_drawn, game_pile, totals)
    totals["game_tricks_hist"][min(record.tricks, GAME_TRICK_BINS - 1)] += 1
    moves = [move for move, _ in record.score_checks]
    leaders = [sole_leader(points) for _, points in record.score_checks]
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if len(record.winners) == 1 and record.tricks > 0:
        start = settled_move(moves, leaders, record.winners[0])
        totals["settled_hist"][settled_bin(start, record.tricks)] += 1
    tally_decisions([options for played in record.rounds for options in played.decisions], totals)


def count_game_squares(
    game_ends: np.ndarray,
    game_drawn: np.ndarray,
    game_pile: np.ndarray,
    totals: dict[str, np.ndarray],
) -> None:
    """Add one game's empty hands by reason and its cards drawn back and pile cards by rank
    (all seats) into the per-game sums of squares (``new_totals``)."""
    empty = int(game_ends.sum())
    totals["end_squares"] += game_ends * game_ends
    totals["end_cross"] += game_ends * empty
    totals["empty_squares"][0] += empty * empty
    totals["drawn_rank_squares"] += game_drawn * game_drawn
    totals["drawn_rank_cross"] += game_drawn * game_pile
    totals["pile_rank_squares"] += game_pile * game_pile
