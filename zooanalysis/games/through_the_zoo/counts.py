"""What a batch of Through the Zoo counts: the arrays both engines fill, and ``tally``.

Slots are the Exhibit cards as listed in the settings (``exhibits[slot]``); a game's *order*
is the slots its rounds played, numbered by :func:`order_index` (0 .. rounds! - 1, 0 = as
listed). Seats are 0-based here; tables and reports number them from 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.through_the_zoo.engine import GameRecord
from zooanalysis.games.through_the_zoo.rules import MAX_ROUNDS
from zooanalysis.outcome import count_outcome, new_outcome_totals, share_unit
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)

POINT_BINS = 16
"""Game points of one round 0-15 (the top bin holds that many or more)."""
TOTAL_BINS = 64
"""A game's game points 0-63 (the top bin holds that many or more)."""
MULLIGAN_BINS = 14
DIAMOND_BINS = 53
ORDERS = math.factorial(MAX_ROUNDS)
META = MAX_ROUNDS
"""``lead_sum[META]``: the meta scoring's part of the winner's lead."""


def order_index(order: Sequence[int]) -> int:
    """The rank of a permutation of ``0 .. n-1`` in lexicographic order (0 = as listed)."""
    index = 0
    remaining = list(range(len(order)))
    for position, slot in enumerate(order):
        smaller = remaining.index(slot)
        index += smaller * math.factorial(len(order) - 1 - position)
        remaining.pop(smaller)
    return index


def order_of_index(index: int, rounds: int) -> list[int]:
    """The permutation :func:`order_index` numbers ``index``."""
    remaining = list(range(rounds))
    order = []
    for position in range(rounds):
        block = math.factorial(rounds - 1 - position)
        order.append(remaining.pop(index // block))
        index %= block
    return order


def new_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch (summed across batches)."""
    return {
        "games": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(players, dtype=np.int64),
        "sole_wins": np.zeros(players, dtype=np.int64),
        "points_sum": np.zeros(players, dtype=np.int64),
        "points_squares": np.zeros(players, dtype=np.int64),
        # slot, round, seat offset from the round's start player, game points
        "round_points": np.zeros((MAX_ROUNDS, MAX_ROUNDS, players, POINT_BINS), dtype=np.int64),
        "game_points_hist": np.zeros((players, TOTAL_BINS), dtype=np.int64),
        "meta_points": np.zeros((players, POINT_BINS), dtype=np.int64),
        "mulligans": np.zeros((MAX_ROUNDS, players, MULLIGAN_BINS), dtype=np.int64),
        "diamonds": np.zeros((players, DIAMOND_BINS), dtype=np.int64),
        # exhibit order: games, and win shares per seat in units of 1 / share_unit(players)
        "order_games": np.zeros(ORDERS, dtype=np.int64),
        "order_share_units": np.zeros((ORDERS, players), dtype=np.int64),
        # games with a sole winner: the winner's lead in each slot's round (and the meta
        # scoring), (players - 1) * winner's points - the others' points, summed and squared
        "lead_sum": np.zeros(MAX_ROUNDS + 1, dtype=np.int64),
        "lead_squares": np.zeros(MAX_ROUNDS + 1, dtype=np.int64),
        "lead_games": np.zeros(1, dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        **new_outcome_totals(players),
        # legal options of every Prepare decision, real decisions per game (the exhibits'
        # card play is not counted: engine.py says why): zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """One row per game: each seat's game points and final standing, the exhibit order."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int16),
        "row_standing": np.zeros((games, players), dtype=np.int16),
        "row_order": np.zeros(games, dtype=np.int8),
    }


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game into kernel-shaped count arrays (the kernel counts it identically)."""
    players = totals["wins"].shape[0]
    totals["games"][0] += 1
    winners = record.winners
    for seat in range(players):
        points = record.game_points[seat]
        if seat in winners:
            totals["wins"][seat] += 1
            if len(winners) == 1:
                totals["sole_wins"][seat] += 1
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
        totals["game_points_hist"][seat, min(points, TOTAL_BINS - 1)] += 1
        totals["meta_points"][seat, min(record.meta_points[seat], POINT_BINS - 1)] += 1
        totals["diamonds"][seat, min(record.diamonds[seat], DIAMOND_BINS - 1)] += 1
    # winners by the standing; the margin in game points (0 when the last round broke a tie)
    scratch = {"win_ties": totals["win_ties"], "margins": np.zeros_like(totals["margins"])}
    count_outcome(record.standing, scratch)
    others = [record.game_points[s] for s in range(players) if s not in winners]
    if others:
        margin = record.game_points[winners[0]] - max(others)
        totals["margins"][min(margin, totals["margins"].shape[0] - 1)] += 1
    for round_index, slot in enumerate(record.order):
        start = record.start_seats[round_index]
        points = record.round_points[round_index]
        for seat in range(players):
            offset = (seat - start) % players
            cell = (slot, round_index, offset, min(points[seat], POINT_BINS - 1))
            totals["round_points"][cell] += 1
            totals["mulligans"][round_index, seat, record.mulligans[round_index][seat]] += 1
    tally_decisions(record.decisions, totals)
    index = order_index(record.order)
    totals["order_games"][index] += 1
    unit = share_unit(players)
    for seat in winners:
        totals["order_share_units"][index, seat] += unit // len(winners)
    if len(winners) == 1:
        winner = winners[0]
        totals["lead_games"][0] += 1
        parts = [(slot, record.round_points[r]) for r, slot in enumerate(record.order)]
        parts.append((META, record.meta_points))
        for slot, points in parts:
            lead = (players - 1) * points[winner] - (sum(points) - points[winner])
            totals["lead_sum"][slot] += lead
            totals["lead_squares"][slot] += lead * lead
    # trajectory: game points after every round (and after the meta scoring, if any)
    running = [0] * players
    leaders = []
    for points in record.round_points:
        running = [a + b for a, b in zip(running, points, strict=True)]
        leaders.append(sole_leader(running))
    if record.meta:
        leaders.append(sole_leader(record.game_points))
    final = sole_leader(record.standing)
    leaders[-1] = final
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if final >= 0:
        start = settled_move(list(range(len(leaders))), leaders, final)
        totals["settled_hist"][settled_bin(start, len(leaders))] += 1

