"""Play many games in parallel batches and sum their counts.

A run is fixed by its seed: the games are cut into batches of a fixed size, each batch
gets a seed spawned from ``numpy.random.SeedSequence(seed)``, and within a batch game ``i``
has its own random stream. So the results are identical for any number of workers and
either backend; only ``batch_size`` (part of the manifest) changes which streams are used.
"""

from __future__ import annotations

import os
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed

from zooanalysis.errors import UserError
from zooanalysis.games.base import BatchJob, BatchResult

DEFAULT_BATCH_SIZE = 20_000
BACKENDS = {"threads": "threading", "processes": "loky"}
"""Local ``--backend`` names: compiled kernels release the GIL, so threads are the default."""
ALL_BACKENDS = (*BACKENDS, "dask")


@dataclass(frozen=True)
class Batch:
    """One batch: its position, seed and number of games."""

    index: int
    seed: int
    games: int


def batch_seed(seed: int, index: int) -> int:
    """The seed of batch ``index``: ``SeedSequence(seed).spawn(...)[index]``, computed alone."""
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    return int(child.generate_state(1, dtype=np.uint64)[0])


def plan_batches(games: int, seed: int, batch_size: int = DEFAULT_BATCH_SIZE) -> list[Batch]:
    """Cut ``games`` into batches of ``batch_size`` (the last may be smaller), seeded from
    ``SeedSequence(seed).spawn``."""
    if games < 1:
        raise UserError(f"--games: {games} is not allowed: give a positive whole number")
    return list(stream_batches(seed, batch_size, games))


def stream_batches(seed: int, batch_size: int, max_games: int, first: int = 0) -> Iterator[Batch]:
    """Batches one after another, up to ``max_games`` games in all, made only when needed.

    Batch ``i`` is the same as in :func:`plan_batches`, so a run that stops early played
    exactly the first batches of a longer one; a resumed run starts at batch ``first``.
    """
    if batch_size < 1:
        raise UserError(f"--batch-size: {batch_size} is not allowed: give a positive number")
    index = first
    while index * batch_size < max_games:
        yield Batch(index, batch_seed(seed, index), min(batch_size, max_games - index * batch_size))
        index += 1


def default_jobs() -> int:
    """Workers to use by default: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@contextmanager
def backend_context(backend: str, jobs: int, scheduler: str | None = None):
    """Yield the joblib (backend name, n_jobs) for a ``--backend`` and set it up.

    ``dask`` connects to the Dask scheduler at ``scheduler`` (see ``zooanalysis.distributed``)
    for the duration of the run.
    """
    if backend == "dask":
        from zooanalysis.distributed import dask_backend

        with dask_backend(scheduler) as n_jobs:
            yield "dask", n_jobs
        return
    if backend not in BACKENDS:
        raise UserError(
            f"--backend: unknown backend {backend!r}; allowed are {', '.join(ALL_BACKENDS)}"
        )
    if scheduler is not None:
        raise UserError("--scheduler: only used with --backend dask")
    if jobs < 1:
        raise UserError(f"--jobs: {jobs} is not allowed: give a positive whole number")
    yield BACKENDS[backend], jobs


def run_batches(
    job: BatchJob,
    batches: Iterable[Batch],
    jobs: int = 1,
    backend: str = "threads",
    scheduler: str | None = None,
) -> Iterator[tuple[Batch, BatchResult]]:
    """Play the batches, ``jobs`` at a time; yields (batch, result) in batch order.

    ``batches`` may be endless: batches are made only as workers need them, and a caller
    that stops reading cancels the rest.
    """
    with backend_context(backend, jobs, scheduler) as (joblib_backend, n_jobs):
        if n_jobs == 1:
            for batch in batches:
                yield batch, job(batch.seed, batch.games)
            return
        dispatched: deque[Batch] = deque()

        def tasks():
            for batch in batches:
                dispatched.append(batch)
                yield delayed(job)(batch.seed, batch.games)

        workers = n_jobs if n_jobs > 0 else default_jobs()
        parallel = Parallel(
            n_jobs=n_jobs,
            backend=joblib_backend,
            return_as="generator",
            pre_dispatch=f"{2 * workers}",
        )
        with warnings.catch_warnings():
            # a caller that stops early (--until-ci) leaves look-ahead batches unused on purpose
            warnings.filterwarnings("ignore", message=".*tasks which were still being processed")
            warnings.filterwarnings("ignore", message=".*successfully executed +but not used")
            for result in parallel(tasks()):
                yield dispatched.popleft(), result


@dataclass
class RunTotals:
    """Summed counts of a run, how many games they hold, and how long the run took."""

    totals: BatchResult
    games: int
    wall_seconds: float

    @property
    def games_per_second(self) -> float:
        """Throughput over the whole run (including start-up of the workers)."""
        return self.games / self.wall_seconds if self.wall_seconds > 0 else float("nan")


def play(
    job: BatchJob,
    batches: Iterable[Batch],
    jobs: int = 1,
    backend: str = "threads",
    on_batch: Callable[[Batch, BatchResult], None] | None = None,
    stop: Callable[[BatchResult], bool] | None = None,
    scheduler: str | None = None,
    initial: BatchResult | None = None,
    games_done: int = 0,
    on_halt: Callable[[], None] | None = None,
) -> RunTotals:
    """Play the batches in order and sum the count arrays.

    Row arrays (keys starting with ``row_``) are not kept: ``on_batch`` receives every
    batch's full result, in order, to store them, so memory stays constant. ``stop`` is
    asked after each batch (in batch order) whether the totals so far are enough; the run
    then ends there, whatever other batches were already under way. A resumed run passes
    the counts so far as ``initial`` (updated in place) and their number of games.

    ``on_halt`` is called when the batches stop coming because of an error or an interrupt
    (Ctrl-C, SIGTERM, a lost cluster) while waiting for the next batch, where the totals
    hold exactly the batches given to ``on_batch``: the moment to save a checkpoint.
    """
    start = time.perf_counter()
    totals: BatchResult = initial if initial is not None else {}
    games = games_done
    results = run_batches(job, batches, jobs, backend, scheduler)
    while True:
        try:
            batch, result = next(results)
        except StopIteration:
            break
        except BaseException:
            if on_halt is not None:
                with suppress(Exception):  # the first failure is the one to report
                    on_halt()
            raise
        for key, value in result.items():
            if key.startswith("row_"):
                continue
            if key in totals:
                totals[key] += value
            else:
                wide = np.int64 if np.issubdtype(value.dtype, np.integer) else np.float64
                totals[key] = value.astype(wide, copy=True)
        games += batch.games
        if on_batch is not None:
            on_batch(batch, result)
        if stop is not None and stop(totals):
            results.close()
            break
    return RunTotals(totals, games, time.perf_counter() - start)
