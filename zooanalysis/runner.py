"""Play many games in parallel batches and sum their counts.

A run is fixed by its seed: the games are cut into batches of a fixed size, each batch
gets a seed spawned from ``numpy.random.SeedSequence(seed)``, and within a batch game ``i``
has its own random stream. So the results are identical for any number of workers and
any backend; only ``batch_size`` (part of the manifest) changes which streams are used.

Workers play a batch in chunks of about :func:`chunk_seconds` of work (sized from the
measured speed, see :class:`ChunkSizer`): a compiled kernel cannot be interrupted, so short
chunks are what lets Ctrl-C, checkpoints and the progress bar act within seconds whatever
the strategy. Chunks never change results: game ``i`` of a batch plays the same in any
chunk, and counts are integers, whose sums do not depend on the order of the additions.
"""

from __future__ import annotations

import os
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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


CHUNK_SECONDS: float | None = None
"""Work per chunk a worker aims at (None: ``$ZOOSIM_CHUNK_SECONDS``, else 0.5): long enough
that handing out chunks costs little, short enough that Ctrl-C, checkpoints and the
progress bar never wait long for a compiled kernel (which cannot be interrupted)."""
CHUNK_SECONDS_VARIABLE = "ZOOSIM_CHUNK_SECONDS"
FIRST_CHUNK = 1
"""Games in a run's first chunks, before any speed is measured."""
CHUNK_GROWTH = 4
"""A chunk is at most this many times the size of the last one measured."""


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + games - 1`` of a batch: the unit of work handed to workers."""

    batch: Batch
    first: int
    games: int

    @property
    def ends_batch(self) -> bool:
        """Whether this chunk plays the last games of its batch."""
        return self.first + self.games >= self.batch.games


class ChunkSizer:
    """Chooses chunk sizes from the measured speed: about ``seconds`` of work each.

    Starts at :data:`FIRST_CHUNK` games and grows at most :data:`CHUNK_GROWTH` times per
    measurement, so a slow strategy never gets a long first chunk; shrinks at once when
    the games get slower. Chunk sizes never change results (see :func:`play`).
    """

    def __init__(self, seconds: float | None = None, first: int | None = None) -> None:
        self.seconds = chunk_seconds() if seconds is None else seconds
        self.size = max(1, FIRST_CHUNK if first is None else first)

    def next_size(self, remaining: int) -> int:
        """Games of the next chunk, with ``remaining`` games left in its batch."""
        return max(1, min(self.size, remaining))

    def measured(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` took ``seconds`` of a worker's time."""
        if games < 1:
            return
        wanted = games * self.seconds / max(seconds, 1e-6)
        self.size = max(1, int(min(wanted, CHUNK_GROWTH * max(games, self.size))))


def chunk_seconds() -> float:
    """Seconds of work per chunk: :data:`CHUNK_SECONDS`, ``$ZOOSIM_CHUNK_SECONDS`` or 0.5."""
    if CHUNK_SECONDS is not None:
        return CHUNK_SECONDS
    text = os.environ.get(CHUNK_SECONDS_VARIABLE, "").strip()
    if not text:
        return 0.5
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise UserError(
            f"{CHUNK_SECONDS_VARIABLE}: {text!r} is not allowed: give a number of seconds "
            "above 0, e.g. 0.5"
        )
    return seconds


TAIL_PIECES = 4
"""With several workers, each of the run's last batches (one per worker) is cut into at least
this many chunks, so the workers finish together: whole, they would end up to a batch apart,
one worker idle meanwhile."""


def chunks_of(
    batches: Iterable[Batch],
    sizer: ChunkSizer,
    resume: tuple[int, int] = (0, 0),
    workers: int = 1,
) -> Iterator[Chunk]:
    """The batches cut into chunks of the sizer's size (asked when each chunk is made).

    ``resume`` = (batch index, games already played of it): that batch starts there. With
    ``workers`` above 1, the last ``workers`` batches are cut into at least
    :data:`TAIL_PIECES` chunks each (the batches are read that far ahead to know).
    """
    source = iter(batches)
    ahead: deque[Batch] = deque()
    while True:
        while len(ahead) <= max(workers, 1):  # this batch, and whether `workers` follow it
            following = next(source, None)
            if following is None:
                break
            ahead.append(following)
        if not ahead:
            return
        batch = ahead.popleft()
        longest = batch.games
        if workers > 1 and len(ahead) < workers:  # one of the run's last batches
            longest = -(-batch.games // TAIL_PIECES)
        first = resume[1] if batch.index == resume[0] else 0
        while first < batch.games:
            games = min(sizer.next_size(batch.games - first), longest)
            yield Chunk(batch, first, games)
            first += games


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class TimedJob:
    """A batch job that also says how long it took: ``(result, seconds)``."""

    job: BatchJob

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0):
        """Play the games (see ``BatchJob``); returns (their result, seconds it took)."""
        start = time.perf_counter()
        result = self.job(batch_seed, n_games, first_game=first_game)
        return result, time.perf_counter() - start


def run_chunks(
    call: Callable[..., Any],
    chunks: Iterable[Chunk],
    jobs: int = 1,
    backend: str = "threads",
    scheduler: str | None = None,
) -> Iterator[tuple[Chunk, Any]]:
    """Call ``call(batch_seed, games, first_game=first)`` for every chunk, ``jobs`` at a
    time; yields (chunk, its return value) in chunk order.

    ``chunks`` may be endless: chunks are made only as workers need them (about two per
    worker ahead), and a caller that stops reading cancels the rest. The main thread only
    waits, never plays, so Ctrl-C and SIGTERM are seen at once; on the way out queued
    chunks are dropped and running ones (short, see :class:`ChunkSizer`) are not waited
    for beyond their end (threads) or are stopped (processes, Dask).
    """
    with backend_context(backend, jobs, scheduler) as (joblib_backend, n_jobs):
        if joblib_backend == "threading" or n_jobs == 1:
            yield from _in_threads(call, chunks, n_jobs)
            return
        from joblib import Parallel, delayed  # only here: its import takes a while

        dispatched: deque[Chunk] = deque()

        def tasks():
            for chunk in chunks:
                dispatched.append(chunk)
                yield delayed(call)(chunk.batch.seed, chunk.games, first_game=chunk.first)

        workers = n_jobs if n_jobs > 0 else default_jobs()
        parallel = Parallel(
            n_jobs=n_jobs,
            backend=joblib_backend,
            return_as="generator",
            pre_dispatch=f"{2 * workers}",
            batch_size=1,  # each chunk is sized to its work already: never group them
            **({"initializer": exit_with_parent} if joblib_backend == "loky" else {}),
        )
        with warnings.catch_warnings():
            # a caller that stops early (--until-ci) leaves look-ahead chunks unused on purpose
            warnings.filterwarnings("ignore", message=".*tasks which were still being processed")
            warnings.filterwarnings("ignore", message=".*successfully executed +but not used")
            for result in parallel(tasks()):
                yield dispatched.popleft(), result


PARENT_WATCH_SECONDS = 1.0
"""How often a worker process checks that the process that started it is still there."""


def exit_with_parent() -> None:
    """Worker initializer of the processes backend: end this worker once the process that
    started it is gone (killed with SIGKILL, crashed), instead of idling on as an orphan
    holding its memory (two per killed run, seen alive ten minutes later). A daemon
    thread notices the parent change (the worker is handed to init) between chunks."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="zoosim-parent-watch", daemon=True).start()


def _in_threads(
    call: Callable[..., Any], chunks: Iterable[Chunk], workers: int
) -> Iterator[tuple[Chunk, Any]]:
    """:func:`run_chunks` on ``workers`` threads of this process (one for a serial run).

    Compiled kernels release the GIL, so threads run them in parallel; the main thread
    waits on each chunk's future, which a signal interrupts. On the way out the queued
    chunks are cancelled and the pool is not joined: a running chunk ends by itself.
    """
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="zoosim-chunk")
    pending: deque[tuple[Chunk, Future]] = deque()
    source = iter(chunks)
    try:
        while True:
            while len(pending) < 2 * workers:
                chunk = next(source, None)
                if chunk is None:
                    break
                future = executor.submit(
                    call, chunk.batch.seed, chunk.games, first_game=chunk.first
                )
                pending.append((chunk, future))
            if not pending:
                return
            chunk, future = pending.popleft()
            yield chunk, future.result()
    finally:
        executor.shutdown(wait=False, cancel_futures=True)


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


@dataclass
class Position:
    """Where a run stands: the summed counts of its finished batches, and how far the batch
    under way got. Updated in place by :func:`play` after every chunk, so it always holds
    exactly the chunks played so far: what a checkpoint saves."""

    totals: BatchResult = field(default_factory=dict)
    """Summed counts of the finished batches (int64)."""
    games: int = 0
    """Games in ``totals``."""
    batch: int = 0
    """Index of the batch under way (the first one not finished)."""
    batch_games: int = 0
    """Games of that batch played so far."""
    batch_counts: BatchResult = field(default_factory=dict)
    """Their summed counts (int64; empty when ``batch_games`` is 0)."""
    batch_rows: dict[str, list[np.ndarray]] = field(default_factory=dict)
    """Their per-game rows, chunk by chunk (not kept in checkpoints)."""

    @property
    def games_played(self) -> int:
        """Every game played: the finished batches' and the batch under way's."""
        return self.games + self.batch_games

    def add_chunk(self, chunk: Chunk, result: BatchResult) -> BatchResult | None:
        """Count a chunk of the batch under way; when it ends its batch, that batch's whole
        result (counts summed, rows joined), not yet in ``totals`` (see
        :meth:`finish_batch`)."""
        if chunk.batch.index != self.batch or chunk.first != self.batch_games:
            raise RuntimeError(
                f"chunk at game {chunk.first} of batch {chunk.batch.index} does not follow "
                f"game {self.batch_games} of batch {self.batch}"
            )
        counts = {key: value for key, value in result.items() if not key.startswith("row_")}
        if chunk.ends_batch:
            if self.batch_counts:
                whole = _summed({k: v.copy() for k, v in self.batch_counts.items()}, counts)
            else:  # one chunk is the whole batch: its counts as they are (read, never written)
                whole = _as_counts(counts)
            for key, parts in self.batch_rows.items():
                whole[key] = np.concatenate([*parts, result[key]])
            for key, value in result.items():
                if key.startswith("row_") and key not in whole:
                    whole[key] = value
            return whole
        self.batch_counts = _summed(self.batch_counts, counts)
        for key, value in result.items():
            if key.startswith("row_"):
                self.batch_rows.setdefault(key, []).append(value)
        self.batch_games += chunk.games
        return None

    def finish_batch(self, batch: Batch, result: BatchResult) -> None:
        """Add a finished batch's counts to ``totals`` and move on to the next batch."""
        _summed(self.totals, {k: v for k, v in result.items() if not k.startswith("row_")})
        self.games += batch.games
        self.batch = batch.index + 1
        self.batch_games = 0
        self.batch_counts = {}
        self.batch_rows = {}


def _summed(totals: BatchResult, counts: BatchResult) -> BatchResult:
    """``totals`` with ``counts`` added (in place; new keys as int64 copies).

    Counts must be integers: integer sums are exact in any order, which is what makes a
    run's results independent of its chunks, workers and backend.
    """
    for key, value in counts.items():
        if key in totals:
            totals[key] += value
            continue
        _check_integer(key, value)
        totals[key] = value.astype(np.int64, copy=True)
    return totals


def _as_counts(counts: BatchResult) -> BatchResult:
    """``counts`` as int64 arrays, without a copy of those that are int64 already (a batch
    played in one chunk: the main thread copies 2.4 MB less per Bluff in Zoo batch)."""
    for key, value in counts.items():
        _check_integer(key, value)
    return {key: value.astype(np.int64, copy=False) for key, value in counts.items()}


def _check_integer(key: str, value: np.ndarray) -> None:
    """Refuse a count array that is not integer (see :func:`_summed`)."""
    if not (np.issubdtype(value.dtype, np.integer) or value.dtype == np.bool_):
        raise TypeError(
            f"count array {key!r} is {value.dtype}: a batch's counts must be integers "
            "(a float sum would depend on how the batch is cut into chunks; keep it in "
            "fixed point as int64)"
        )


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
    *,
    position: Position | None = None,
    on_chunk: Callable[[Chunk], None] | None = None,
    sizer: ChunkSizer | None = None,
) -> RunTotals:
    """Play the batches in order, each in chunks sized to the measured speed (see
    :class:`ChunkSizer`), and sum the count arrays.

    The batch stays the unit of everything that fixes results: its seed, ``on_batch``
    (called once per batch, in order, with the batch's whole result: counts summed over
    its chunks, rows joined, so memory holds at most one batch of rows) and ``stop`` (asked
    after each batch, in batch order, whether the totals so far are enough; the run then
    ends there, whatever else was under way). Game ``g`` of a batch plays the same
    whichever chunk holds it and counts are integers, so any chunking, workers and backend
    give the same totals bit for bit.

    The run's state is ``position`` (a resumed run passes the checkpoint's, which may end
    inside a batch: that batch continues from there; else ``initial`` counts of
    ``games_done`` games). It is updated in place after every chunk; ``on_chunk`` is then
    called (progress bars, checkpoints). ``on_halt`` is called when the chunks stop
    coming because of an error or an interrupt (Ctrl-C, SIGTERM, a lost cluster) while
    waiting for the next one, or when ``on_batch`` or ``on_chunk`` fails (a full disk),
    where ``position`` holds exactly the chunks counted: the moment to save a checkpoint.
    """
    start = time.perf_counter()
    if position is None:
        position = Position(initial if initial is not None else {}, games_done)
    sizer = sizer or ChunkSizer()
    chunks = chunks_of(batches, sizer, (position.batch, position.batch_games), max(jobs, 1))
    results = run_chunks(TimedJob(job), chunks, jobs, backend, scheduler)

    def halt() -> None:
        if on_halt is not None:
            with suppress(Exception):  # the first failure is the one to report
                on_halt()

    try:
        while True:
            try:
                chunk, (result, seconds) = next(results)
            except StopIteration:
                break
            except BaseException:
                halt()
                raise
            sizer.measured(chunk.games, seconds)
            try:  # a failure (a full disk) or Ctrl-C in on_batch or on_chunk halts too
                if position.batch_games == 0:
                    position.batch = chunk.batch.index
                whole = position.add_chunk(chunk, result)
                if whole is not None and on_batch is not None:
                    on_batch(chunk.batch, whole)  # before the position moves: a failure here
                if whole is not None:  # leaves it at the batch's last chunk but one
                    position.finish_batch(chunk.batch, whole)
                if on_chunk is not None:
                    on_chunk(chunk)
            except BaseException:
                halt()
                raise
            if whole is not None and stop is not None and stop(position.totals):
                break
    finally:
        results.close()
    return RunTotals(position.totals, position.games, time.perf_counter() - start)
