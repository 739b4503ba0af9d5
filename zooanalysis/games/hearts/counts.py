"""What a Hearts batch counts: the count arrays both engines fill, and the reference tally.

Counts only (constant memory for any number of games); histogram bins at the top hold "that
many or more". A game is a whole match; most counts are per hand. The kernel fills these
arrays in place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.hearts.engine.GameRecord` the same way, so the two engines'
totals can be compared array by array.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.hearts.engine import END_REASONS, GameRecord
from zooanalysis.games.hearts.rules import CARDS_PER_PLAYER, MAX_HANDS
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)

HAND_POINT_OFFSET = 128
HAND_POINT_BINS = 2 * HAND_POINT_OFFSET
"""A hand's score s is counted in bin s + 128 (clipped to 0-255)."""
GAME_POINT_OFFSET = 512
GAME_POINT_BINS = 2048
"""A game's final points p in bin p + 512 (clipped to 0-2047)."""
HANDS_BINS = MAX_HANDS + 1
"""Hands per game: 1-1000."""
TRICK_BINS = CARDS_PER_PLAYER + 1
"""The trick the Queen was taken in, 0-12 (13: not taken, never with one deck)."""
DIRECTIONS = 4


def new_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch of ``players``-player games (summed across batches)."""
    n = players
    return {
        "games": np.zeros(1, dtype=np.int64),
        "hands": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(n, dtype=np.int64),
        "sole_wins": np.zeros(n, dtype=np.int64),
        # final points of the game (match), per seat
        "points_sum": np.zeros(n, dtype=np.int64),
        "points_squares": np.zeros(n, dtype=np.int64),
        "points_hist": np.zeros((n, GAME_POINT_BINS), dtype=np.int64),
        # per hand, per seat: its score, and its score by passing direction
        "hand_points_sum": np.zeros(n, dtype=np.int64),
        "hand_points_squares": np.zeros(n, dtype=np.int64),
        "hand_points_hist": np.zeros((n, HAND_POINT_BINS), dtype=np.int64),
        "direction_hands": np.zeros(DIRECTIONS, dtype=np.int64),
        "direction_points": np.zeros((DIRECTIONS, n), dtype=np.int64),
        "direction_squares": np.zeros((DIRECTIONS, n), dtype=np.int64),
        # hands in which the seat shot the moon
        "moons": np.zeros(n, dtype=np.int64),
        # the Queen of Spades: [holder when play began, taker], the trick it was taken in,
        # and the holder's score in those hands (sum, squares)
        "queen_fate": np.zeros((n, n), dtype=np.int64),
        "queen_trick": np.zeros(TRICK_BINS + 1, dtype=np.int64),
        "queen_holder_points": np.zeros(n, dtype=np.int64),
        "queen_holder_squares": np.zeros(n, dtype=np.int64),
        # hands in which the seat passed the Queen on
        "queen_passed": np.zeros(n, dtype=np.int64),
        # first leads: hands in which the seat led the first trick
        "first_leads": np.zeros(n, dtype=np.int64),
        "hands_hist": np.zeros(HANDS_BINS, dtype=np.int64),
        "end_reasons": np.zeros(len(END_REASONS), dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        # win_ties (seat, tied winners) and winning margins: zooanalysis.outcome
        **new_outcome_totals(n),
        # legal options of every decision, real decisions per game: zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game: every seat's final points and the hands played."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int32),
        "row_hands": np.zeros(games, dtype=np.int32),
    }


TOTAL_KEYS = tuple(new_totals(4))
ROW_KEYS = tuple(new_rows(0, 4))


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    totals["games"][0] += 1
    points = record.points
    best = min(points)
    leaders = sum(1 for value in points if value == best)
    for seat, value in enumerate(points):
        if value == best:
            totals["wins"][seat] += 1
            if leaders == 1:
                totals["sole_wins"][seat] += 1
        totals["points_sum"][seat] += value
        totals["points_squares"][seat] += value * value
        cell = min(max(value + GAME_POINT_OFFSET, 0), GAME_POINT_BINS - 1)
        totals["points_hist"][seat, cell] += 1
    count_outcome(points, totals, fewest_win=True)
    tally_decisions([options for hand in record.hands for options in hand.decisions], totals)
    running = [0] * len(points)
    leaders_at = []
    for hand in record.hands:
        totals["hands"][0] += 1
        totals["direction_hands"][hand.direction] += 1
        totals["first_leads"][hand.leader] += 1
        for seat, score in enumerate(hand.scores):
            totals["hand_points_sum"][seat] += score
            totals["hand_points_squares"][seat] += score * score
            cell = min(max(score + HAND_POINT_OFFSET, 0), HAND_POINT_BINS - 1)
            totals["hand_points_hist"][seat, cell] += 1
            totals["direction_points"][hand.direction, seat] += score
            totals["direction_squares"][hand.direction, seat] += score * score
            running[seat] += score
            if 60 in hand.passed[seat]:  # the Queen of Spades (face 60)
                totals["queen_passed"][seat] += 1
        if hand.shooter >= 0:
            totals["moons"][hand.shooter] += 1
        if hand.queen_holder >= 0:
            holder = hand.queen_holder
            totals["queen_fate"][holder, hand.queen_taker] += 1
            totals["queen_trick"][hand.queen_trick] += 1
            score = hand.scores[holder]
            totals["queen_holder_points"][holder] += score
            totals["queen_holder_squares"][holder] += score * score
        leaders_at.append(sole_leader(running, higher_is_better=False))
    hands = len(record.hands)
    totals["hands_hist"][min(hands, HANDS_BINS - 1)] += 1
    totals["end_reasons"][record.end_reason] += 1
    totals["lead_changes_hist"][min(count_lead_changes(leaders_at), LEAD_CHANGE_BINS - 1)] += 1
    if len(record.winners) == 1:
        start = settled_move(list(range(hands)), leaders_at, record.winners[0])
        totals["settled_hist"][settled_bin(start, hands)] += 1
