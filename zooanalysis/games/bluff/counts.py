"""Batches through the reference engine, tallied exactly as the kernel tallies them.

Used to prove the two engines agree, and to run custom Python strategies (slowly) through
the same analysis as the kernel's results.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zooanalysis.games.bluff.engine import GameRecord, Strategy, play_game
from zooanalysis.games.bluff.kernel import (
    COUNT_BINS,
    MOVE_BINS,
    PILE_BINS,
    POINT_BINS,
    ROUND_BINS,
    new_rows,
    new_totals,
)
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    totals["games"][0] += 1
    best = min(record.scores)
    for seat, points in enumerate(record.scores):
        if points == best:
            totals["wins"][seat] += 1
            if len(record.winners) == 1:
                totals["sole_wins"][seat] += 1
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
        totals["points_hist"][seat, min(points, POINT_BINS - 1)] += 1
    totals["rounds_hist"][min(record.rounds, ROUND_BINS - 1)] += 1
    totals["moves_hist"][min(record.moves, MOVE_BINS - 1)] += 1
    totals["end_reasons"][record.end_reason] += 1
    moves = [move for move, _ in record.score_checks]
    leaders = [sole_leader(scores, higher_is_better=False) for _, scores in record.score_checks]
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if len(record.winners) == 1:
        start = settled_move(moves, leaders, record.winners[0])
        totals["settled_hist"][settled_bin(start, record.moves)] += 1
    for seat, count, kind, move, pile_size, true_now in record.claims:
        totals["move_counts"][seat, move] += 1
        totals["claims"][
            seat,
            min(count, COUNT_BINS - 1),
            kind,
            min(pile_size, PILE_BINS - 1),
            move - 1,
            int(true_now),
        ] += 1
    for doubter, claimant, count, kind, pile_size, held, claimant_move in record.doubts:
        totals["move_counts"][doubter, 0] += 1
        totals["doubts"][
            min(count, COUNT_BINS - 1),
            kind,
            min(pile_size, PILE_BINS - 1),
            claimant_move - 1,
            doubter,
            claimant,
            int(held),
        ] += 1


def play_batch_reference(
    settings: BluffSettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play a batch with the reference engine; returns (totals, rows) shaped as the kernel's."""
    totals = new_totals(settings.players)
    rows = new_rows(n_games if with_rows else 0, settings.players)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, game)
        tally(record, totals)
        if with_rows:
            rows["row_scores"][game] = record.scores
            rows["row_rounds"][game] = record.rounds
            rows["row_moves"][game] = record.moves
            rows["row_end"][game] = record.end_reason
    return totals, rows
