"""What a Bluff in Zoo batch counts: the count arrays both engines fill, and the reference tally.

Counts only (constant memory for any number of games); histogram bins at the top hold "that
many or more". The kernel fills these arrays in place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.bluff.engine.GameRecord` the same way, so the two engines' totals
can be compared array by array.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.bluff.cards import N_KINDS
from zooanalysis.games.bluff.engine import GameRecord
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)

COUNT_BINS = 31
"""Claimed counts 0-30 in the doubt and claim tables; 30 holds 30 or more."""
PILE_BINS = 41
"""Pile sizes 0-40 in the doubt and claim tables; 40 holds 40 or more."""
POINT_BINS = 128
ROUND_BINS = 256
MOVE_BINS = 1024


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
        "rounds_hist": np.zeros(ROUND_BINS, dtype=np.int64),
        "moves_hist": np.zeros(MOVE_BINS, dtype=np.int64),
        "end_reasons": np.zeros(2, dtype=np.int64),
        # score trajectories (see zooanalysis.trajectory): lead changes per game, and when
        # the single winner became sole leader for good (20 bins of 5% of the game's moves)
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        # claimed count, kind, pile size, claimant's move (hand/draw/none), doubter, claim
        # held (0/1); the claimant is always the seat before the doubter (see claimant_seat)
        "doubts": np.zeros((COUNT_BINS, N_KINDS, PILE_BINS, 3, n, 2), dtype=np.int64),
        # claimant, claimed count, kind, pile size, move (hand/draw/none), true when made (0/1)
        "claims": np.zeros((n, COUNT_BINS, N_KINDS, PILE_BINS, 3, 2), dtype=np.int64),
        # per-game moments for clustered intervals (stats.clustered_rate): with x_s, n_s
        # seat s's false claims and claims in one game, [a, b] sums x_a x_b, n_a n_b and
        # x_a n_b over games; doubt_moments the same with successful doubts and doubts
        "claim_moments": np.zeros((n, n, 3), dtype=np.int64),
        "doubt_moments": np.zeros((n, n, 3), dtype=np.int64),
        # win_ties (seat, tied winners) and winning margins: zooanalysis.outcome
        **new_outcome_totals(n),
        # legal options of every decision, real decisions per game: zooanalysis.decisions
        **new_decision_totals(),
    }


def claimant_seat(doubter: np.ndarray | int, players: int) -> np.ndarray | int:
    """The seat whose claim a doubter doubts: the seat before it (players take turns, and a
    doubt answers the claim just made)."""
    return (doubter - 1) % players


def move_counts(totals: dict[str, np.ndarray]) -> np.ndarray:
    """Moves per seat and type (doubt, hand, draw, none), from the doubt and claim tables.

    Every move but a doubt makes exactly one claim, and the claim table's top bins hold
    "that many or more", so no move is lost: doubts by doubter, claims by seat and move.
    """
    claims = totals["claims"]
    counts = np.zeros((claims.shape[0], 4), dtype=np.int64)
    counts[:, 0] = totals["doubts"].sum(axis=(0, 1, 2, 3, 5))
    counts[:, 1:] = claims.sum(axis=(1, 2, 3, 5))
    return counts


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game (final scores, rounds, moves, how the game ended)."""
    return {
        "row_scores": np.zeros((games, players), dtype=np.int32),
        "row_rounds": np.zeros(games, dtype=np.int32),
        "row_moves": np.zeros(games, dtype=np.int32),
        "row_end": np.zeros(games, dtype=np.int8),
    }


def add_moments(successes: np.ndarray, units: np.ndarray, moments: np.ndarray) -> None:
    """Add one game's per-seat successes x and units n into ``moments`` (``[a, b]`` gets
    x_a x_b, n_a n_b and x_a n_b), as the kernel does at the end of every game."""
    moments[:, :, 0] += np.outer(successes, successes)
    moments[:, :, 1] += np.outer(units, units)
    moments[:, :, 2] += np.outer(successes, units)


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
    count_outcome(record.scores, totals, fewest_win=True)
    tally_decisions(record.decisions, totals)
    moves = [move for move, _ in record.score_checks]
    leaders = [sole_leader(scores, higher_is_better=False) for _, scores in record.score_checks]
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if len(record.winners) == 1:
        start = settled_move(moves, leaders, record.winners[0])
        totals["settled_hist"][settled_bin(start, record.moves)] += 1
    for seat, count, kind, move, pile_size, true_now in record.claims:
        totals["claims"][
            seat,
            min(count, COUNT_BINS - 1),
            kind,
            min(pile_size, PILE_BINS - 1),
            move - 1,
            int(true_now),
        ] += 1
    players = len(record.scores)
    units = np.zeros((2, players), dtype=np.int64)  # claims, then doubts, by seat
    successes = np.zeros((2, players), dtype=np.int64)  # false claims, successful doubts
    for seat, *_, true_now in record.claims:
        units[0, seat] += 1
        successes[0, seat] += not true_now
    for doubter, *_, held, _ in record.doubts:
        units[1, doubter] += 1
        successes[1, doubter] += not held
    add_moments(successes[0], units[0], totals["claim_moments"])
    add_moments(successes[1], units[1], totals["doubt_moments"])
    for doubter, claimant, count, kind, pile_size, held, claimant_move in record.doubts:
        if claimant != claimant_seat(doubter, players):
            raise AssertionError(f"seat {doubter} doubted seat {claimant}'s claim")
        totals["doubts"][
            min(count, COUNT_BINS - 1),
            kind,
            min(pile_size, PILE_BINS - 1),
            claimant_move - 1,
            doubter,
            int(held),
        ] += 1
