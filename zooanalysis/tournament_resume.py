"""A tournament's checkpoint: what it records, how it is checked and how it continues.

A tournament to disk keeps, in its ``.NAME.partial`` folder, the ``request.json`` of
everything that fixes its results and a ``checkpoint.npz`` saved every few seconds (and
when it stops: Ctrl-C, SIGTERM, a failure) by the runs' own checkpointer
(``simulation._Checkpointer``): the summed counts of the finished batches, those of the
batch under way, the bootstrap clusters so far (one row per batch of deals, prefixed
:data:`CLUSTER`) and where it stands (``lineup``, ``next_batch``, ``batch_games``).
``zoosim tournament --resume NAME`` rebuilds the request from ``request.json``
(``tournament.resume_request``) and plays on from there to exactly the tables of an
uninterrupted tournament.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from zooanalysis.games.base import BatchResult
from zooanalysis.runner import Position

COMMAND = "zoosim tournament"
CLUSTER = "cluster/"
"""Prefix, in a tournament's checkpoint, of its bootstrap clusters (row j: batch j)."""
CLUSTER_PAIRS = ("ahead", "level")
"""The pairwise counts a tournament keeps per cluster (for the ratings' bootstrap)."""
CLUSTER_KEYS = ("shares", "seat_games", "seat_shares", "seat_played")
"""What a tournament keeps per cluster of deals (batch) for the win shares' intervals."""


def tournament_record(request, plan) -> dict[str, Any]:
    """Everything that fixes a tournament's results (a ``tournament.TournamentRequest`` and
    its ``TournamentPlan``): a resumed one must have exactly this."""
    game = request.game
    return {
        "game": game.name,
        "settings": game.settings_dict(request.settings),
        "strategies": [player.label for player in request.field],
        "seats": request.seats,
        "games": request.games,
        "seed": request.seed,
        "lineups": len(plan.orders),
        "games_per_lineup": plan.games_each,
        "batch_size": plan.batch_size,
    }


@dataclass
class TournamentProgress:
    """Where a tournament stands: the lineup under way and its position (whose ``totals``
    are the counts of every finished batch of every lineup so far), and the bootstrap
    clusters (batch index -> pairwise counts; -> win-share counts)."""

    lineup: int
    position: Position
    clusters: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    shared: dict[int, dict[str, np.ndarray]] = field(default_factory=dict)
    wall_seconds: float = 0.0

    def games_played(self, games_each: int) -> int:
        """Every game played: the finished lineups' and the lineup under way's."""
        return self.lineup * games_each + self.position.games_played

    def saved_with(self, games_each: int) -> tuple[BatchResult, dict[str, Any]]:
        """What a checkpoint holds besides the position's counts: the clusters, one row per
        batch (in batch order), and the lineup under way (with every game played)."""
        arrays: BatchResult = {}
        rows = sorted(self.clusters)
        if rows:
            for i, key in enumerate(CLUSTER_PAIRS):
                arrays[CLUSTER + key] = np.stack([self.clusters[j][i] for j in rows])
            for key in self.shared[rows[0]]:
                arrays[CLUSTER + key] = np.stack([self.shared[j][key] for j in rows])
        return arrays, {"lineup": self.lineup, "games": self.games_played(games_each)}


def fresh_progress() -> TournamentProgress:
    """A tournament's start."""
    return TournamentProgress(0, Position())


def saved_progress(working: Path, record: dict[str, Any], plan, job) -> TournamentProgress:
    """The progress kept in ``working``'s checkpoint (a fresh start if none), checked: made
    for this request (``record``, the ``request.json`` contents) and code, its counts of
    the shapes ``job`` (the first lineup's) makes, its position one this plan reaches, and
    its clusters those of the batches it played; one line naming what is wrong."""
    from zooanalysis.simulation import check_checkpoint_owner, check_count_shapes
    from zooanalysis.storage import CHECKPOINT, ResumeRefusedError, load_checkpoint

    checkpoint = load_checkpoint(working)
    state = checkpoint.state
    path = working / CHECKPOINT
    if not path.is_file():
        return fresh_progress()
    check_checkpoint_owner(path, state, record)
    totals = {k: v for k, v in checkpoint.totals.items() if not k.startswith(CLUSTER)}
    stored = {
        k.removeprefix(CLUSTER): v for k, v in checkpoint.totals.items() if k.startswith(CLUSTER)
    }
    check_count_shapes(
        path, job, [("", totals), ("of the batch under way ", checkpoint.batch_counts)]
    )
    lineup, batch, partial = (state.get(key) for key in ("lineup", "next_batch", "batch_games"))
    values = (lineup, batch, partial, state["games"])
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise ResumeRefusedError(
            f"--resume: {path} holds no position (lineup, next_batch, batch_games and games "
            "must be whole numbers, at least 0); the checkpoint was changed or damaged"
        )
    each, size = plan.games_each, plan.batch_size
    batches = -(-each // size)
    finished = min(batch * size, each)
    under_way = min(size, each - batch * size) if batch < batches else 0
    if (
        lineup >= len(plan.orders)
        or batch > batches
        or partial >= max(under_way, 1)
        or state["games"] != lineup * each + finished + partial
    ):
        raise ResumeRefusedError(
            f"--resume: {path} says {state['games']:,} games, at game {partial:,} of batch "
            f"{batch} of lineup {lineup}, which this tournament's {len(plan.orders)} lineups "
            f"of {batches} batches of {size:,} games never give; the checkpoint was changed "
            "or damaged"
        )
    rows = batches if lineup > 0 else batch
    if (lineup > 0 or batch > 0) != bool(totals) or (partial > 0) != bool(checkpoint.batch_counts):
        raise ResumeRefusedError(
            f"--resume: {path} lacks the counts of games its position says were played; "
            "the checkpoint was changed or damaged"
        )
    _check_clusters(path, stored, totals, rows)
    clusters = {j: (stored["ahead"][j].copy(), stored["level"][j].copy()) for j in range(rows)}
    shared = {
        j: {key: value[j].copy() for key, value in stored.items() if key not in CLUSTER_PAIRS}
        for j in range(rows)
    }
    position = Position(
        totals, finished, batch, partial, dict(checkpoint.batch_counts) if partial else {}
    )
    return TournamentProgress(
        lineup, position, clusters, shared, float(state.get("wall_seconds", 0.0))
    )


def _check_clusters(path: Path, stored: BatchResult, totals: BatchResult, rows: int) -> None:
    """Refuse clusters that are not one row per played batch of the counts' keys, or whose
    sums are not the counts' (every lineup's finished batches are in both)."""
    from zooanalysis.storage import ResumeRefusedError

    keys = {*CLUSTER_PAIRS, *CLUSTER_KEYS} if rows else set()
    fits = set(stored) == keys and all(
        value.shape == (rows, *np.shape(totals.get(key))) for key, value in stored.items()
    )
    if fits and rows:
        fits = all(np.array_equal(stored[key].sum(axis=0), totals[key]) for key in keys)
    if not fits:
        raise ResumeRefusedError(
            f"--resume: the bootstrap clusters in {path} do not fit its counts ({rows} "
            "batches of deals played); the checkpoint was changed or damaged"
        )
