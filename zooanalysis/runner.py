"""Play many games in parallel batches and sum their counts.

A run is fixed by its seed: the games are cut into batches of a fixed size, each batch
gets a seed spawned from ``numpy.random.SeedSequence(seed)``, and within a batch game ``i``
has its own random stream. So the results are identical for any number of workers and
either backend; only ``batch_size`` (part of the manifest) changes which streams are used.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed

from zooanalysis.errors import UserError
from zooanalysis.games.base import BatchJob, BatchResult

DEFAULT_BATCH_SIZE = 20_000
BACKENDS = {"threads": "threading", "processes": "loky"}
"""``--backend`` names: compiled kernels release the GIL, so threads are the default."""


@dataclass(frozen=True)
class Batch:
    """One batch: its position, seed and number of games."""

    index: int
    seed: int
    games: int


def plan_batches(games: int, seed: int, batch_size: int = DEFAULT_BATCH_SIZE) -> list[Batch]:
    """Cut ``games`` into batches of ``batch_size`` (the last may be smaller), seeded from
    ``SeedSequence(seed).spawn``."""
    if games < 1:
        raise UserError(f"--games: {games} is not allowed: give a positive whole number")
    if batch_size < 1:
        raise UserError(f"--batch-size: {batch_size} is not allowed: give a positive number")
    count = -(-games // batch_size)
    children = np.random.SeedSequence(seed).spawn(count)
    return [
        Batch(
            index,
            int(child.generate_state(1, dtype=np.uint64)[0]),
            min(batch_size, games - index * batch_size),
        )
        for index, child in enumerate(children)
    ]


def default_jobs() -> int:
    """Workers to use by default: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_batches(
    job: BatchJob,
    batches: list[Batch],
    jobs: int = 1,
    backend: str = "threads",
) -> Iterator[tuple[Batch, BatchResult]]:
    """Play the batches, ``jobs`` at a time; yields (batch, result) in batch order."""
    if backend not in BACKENDS:
        raise UserError(
            f"--backend: unknown backend {backend!r}; allowed are {', '.join(BACKENDS)}"
        )
    if jobs < 1:
        raise UserError(f"--jobs: {jobs} is not allowed: give a positive whole number")
    if jobs == 1:
        for batch in batches:
            yield batch, job(batch.seed, batch.games)
        return
    parallel = Parallel(
        n_jobs=jobs, backend=BACKENDS[backend], return_as="generator", pre_dispatch=f"{2 * jobs}"
    )
    results = parallel(delayed(job)(batch.seed, batch.games) for batch in batches)
    yield from zip(batches, results, strict=True)


@dataclass
class RunTotals:
    """Summed counts of a run, its per-game row parts, and how long it took."""

    totals: BatchResult
    games: int
    wall_seconds: float

    @property
    def games_per_second(self) -> float:
        """Throughput over the whole run (including start-up of the workers)."""
        return self.games / self.wall_seconds if self.wall_seconds > 0 else float("nan")


def play(
    job: BatchJob,
    batches: list[Batch],
    jobs: int = 1,
    backend: str = "threads",
    on_batch: Callable[[Batch, BatchResult], None] | None = None,
) -> RunTotals:
    """Play every batch and sum the count arrays.

    Row arrays (keys starting with ``row_``) are not kept: ``on_batch`` receives every
    batch's full result, in order, to store them, so memory stays constant.
    """
    start = time.perf_counter()
    totals: BatchResult = {}
    games = 0
    for batch, result in run_batches(job, batches, jobs, backend):
        for key, value in result.items():
            if key.startswith("row_"):
                continue
            if key in totals:
                totals[key] += value
            else:
                totals[key] = value.astype(np.int64, copy=True)
        games += batch.games
        if on_batch is not None:
            on_batch(batch, result)
    return RunTotals(totals, games, time.perf_counter() - start)
