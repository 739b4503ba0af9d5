"""What a Lucky Lions batch counts: the count arrays both engines fill, and the reference tally.

Counts only (constant memory for any number of games); histogram bins at the top hold "that
many or more". The kernel fills these arrays in place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.lucky_lions.engine.GameRecord` the same way, so the two engines'
totals can be compared array by array.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.lucky_lions.engine import (
    END_REASONS,
    POWER_NAMES,
    RESULT_NAMES,
    TIE_NAMES,
    GameRecord,
)
from zooanalysis.games.lucky_lions.flat import N_TYPES
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import LEAD_CHANGE_BINS as LEAD_BINS
from zooanalysis.trajectory import SETTLED_BINS, settled_bin

POINT_BINS = 64
TURN_BINS = 1024
DIE_BINS = 64
CARDS_WON_BINS = 64
CYCLE_BINS = 6
"""Cycle sizes 0-5 (index = size)."""


def new_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch of ``players``-player games (summed across batches)."""
    n = players
    return {
        "games": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(n, dtype=np.int64),
        "sole_wins": np.zeros(n, dtype=np.int64),
        "points_sum": np.zeros(n, dtype=np.int64),
        "points_squares": np.zeros(n, dtype=np.int64),
        "points_hist": np.zeros((n, POINT_BINS), dtype=np.int64),
        "cards_won_hist": np.zeros((n, CARDS_WON_BINS), dtype=np.int64),
        "draws_instead": np.zeros(n, dtype=np.int64),
        "turns_hist": np.zeros(TURN_BINS, dtype=np.int64),
        "end_reasons": np.zeros(len(END_REASONS), dtype=np.int64),
        # battles by the Zoo Card's cycle size and whether several animals won (0/1)
        "battles": np.zeros((CYCLE_BINS, 2), dtype=np.int64),
        # every shown card: its type, the die size it was rolled from, its result
        "rolls": np.zeros((N_TYPES, DIE_BINS, len(RESULT_NAMES)), dtype=np.int64),
        "ties": np.zeros(len(TIE_NAMES), dtype=np.int64),
        # per-game moments for clustered intervals (stats.clustered_rate): with a game's
        # shown cards of a type n, won alone w, tied t and lost l, shown_moments[type] sums
        # w^2, t^2, l^2, n^2, w n, t n and l n over games; with its rolls of a die size c and
        # all its rolls r, die_moments[size] sums c^2 and c r; with y the sum of the rolls'
        # die sizes, roll_moments sums r^2, y^2 and y r
        "shown_moments": np.zeros((N_TYPES, 7), dtype=np.int64),
        "die_moments": np.zeros((DIE_BINS, 2), dtype=np.int64),
        "roll_moments": np.zeros(3, dtype=np.int64),
        "powers": np.zeros(len(POWER_NAMES), dtype=np.int64),
        "lead_changes": np.zeros(LEAD_BINS, dtype=np.int64),
        "settled": np.zeros(SETTLED_BINS, dtype=np.int64),
        # win_ties (seat, tied winners) and winning margins: zooanalysis.outcome
        **new_outcome_totals(n),
        # legal options of every decision (engine.py lists them), real decisions per game:
        # zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game: points and Zoo Cards won per seat, turns, end reason."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int32),
        "row_cards_won": np.zeros((games, players), dtype=np.int32),
        "row_turns": np.zeros(games, dtype=np.int32),
        "row_end": np.zeros(games, dtype=np.int8),
    }


def add_moments(shown: np.ndarray, sizes: np.ndarray, totals: dict[str, np.ndarray]) -> None:
    """Add one game's shown cards by (type, result) and rolls by die size into the moments
    of :func:`new_totals`, as the kernel does at the end of every game."""
    won, tied, lost, seen = shown[:, 0], shown[:, 1], shown[:, 2], shown.sum(axis=1)
    totals["shown_moments"] += np.stack(
        [won * won, tied * tied, lost * lost, seen * seen, won * seen, tied * seen, lost * seen],
        axis=1,
    )
    rolled = int(sizes.sum())
    totals["die_moments"] += np.stack([sizes * sizes, sizes * rolled], axis=1)
    size_sum = int((np.arange(len(sizes)) * sizes).sum())
    totals["roll_moments"] += [rolled * rolled, size_sum * size_sum, size_sum * rolled]


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game's record into the count arrays, as the kernel counts it."""
    totals["games"][0] += 1
    for seat, points in enumerate(record.scores):
        if seat in record.winners:
            totals["wins"][seat] += 1
            if len(record.winners) == 1:
                totals["sole_wins"][seat] += 1
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
        totals["points_hist"][seat, min(points, POINT_BINS - 1)] += 1
        totals["cards_won_hist"][seat, min(record.cards_won[seat], CARDS_WON_BINS - 1)] += 1
    for seat in record.draws_instead:
        totals["draws_instead"][seat] += 1
    totals["turns_hist"][min(record.turns, TURN_BINS - 1)] += 1
    totals["end_reasons"][record.end_reason] += 1
    count_outcome(record.scores, totals)
    for size, tied in record.battles:
        totals["battles"][size, int(tied)] += 1
    shown = np.zeros((N_TYPES, len(RESULT_NAMES)), dtype=np.int64)
    sizes = np.zeros(DIE_BINS, dtype=np.int64)
    for die_size, card_type, result in record.rolls:
        totals["rolls"][card_type, min(die_size, DIE_BINS - 1), result] += 1
        shown[card_type, result] += 1
        sizes[min(die_size, DIE_BINS - 1)] += 1
    add_moments(shown, sizes, totals)
    for how in record.ties:
        totals["ties"][how] += 1
    for power in record.powers:
        totals["powers"][power] += 1
    totals["lead_changes"][min(record.lead_changes, LEAD_BINS - 1)] += 1
    tally_decisions(record.decisions, totals)
    if record.settled_turn >= 0:
        totals["settled"][settled_bin(record.settled_turn, record.turns)] += 1
