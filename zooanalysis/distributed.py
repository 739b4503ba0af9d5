"""Run the batches on an existing Dask cluster: ``zoosim run --backend dask --scheduler ADDR``.

Install the extra on every machine (``pip install 'zooanalysis[distributed]'``), start a
scheduler with ``dask scheduler`` and workers with ``dask worker tcp://HOST:8786``, then::

    zoosim run --games 1e8 --backend dask --scheduler tcp://HOST:8786

The batches, cut into chunks of about half a second of work (``runner.ChunkSizer``), go
through joblib's ``dask`` backend to the workers. Every worker must have the
same zooanalysis installed as the machine that starts the run (same version, same compiled
sources): the batch jobs are pickled by reference to ``zooanalysis`` classes, so a worker
unpickles and runs them with its own copy. :func:`dask_backend` checks this before the run,
and every batch carries the code fingerprint too: a worker with other code that joins
mid-run refuses to play it (and a result without the fingerprint is refused), so the run
stops with one line instead of mixing results.

A run is fixed by its seed and batch size, as on the local backends: each chunk carries its
batch's seed and its first game, so which worker plays it does not matter and the results
equal a local run bit for bit. When a worker dies, the scheduler gives its unfinished chunks
to other workers (up to Dask's ``distributed.scheduler.allowed-failures`` times per chunk, 3
by default), and the run completes with the same result.

Connection problems are user errors (one line, exit code 2), never a hang: zoosim waits
``$ZOOSIM_DASK_TIMEOUT`` seconds (10 by default) for the scheduler, and as long again for a
first worker. During the run it watches the cluster: after ``$ZOOSIM_DASK_WORKER_TIMEOUT``
seconds (60 by default) without a single worker (or without an answer from the scheduler)
the run stops with one line; its checkpoint is kept for ``zoosim run --resume``.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from zooanalysis.errors import UserError

if TYPE_CHECKING:
    from dask.distributed import Client

DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for the scheduler to answer, and then for a first worker."""
TIMEOUT_VARIABLE = "ZOOSIM_DASK_TIMEOUT"
DEFAULT_WORKER_TIMEOUT = 60.0
"""Seconds a run goes on waiting with no worker connected before it stops."""
WORKER_TIMEOUT_VARIABLE = "ZOOSIM_DASK_WORKER_TIMEOUT"
WATCH_SECONDS = 1.0
"""How often the cluster's workers are counted during a run."""
INSTALL_HINT = "pip install 'zooanalysis[distributed]'"
QUIET_LOGGERS = ("distributed.client", "tornado.application")
START_HINT = "start one with `dask scheduler` and workers with `dask worker tcp://HOST:8786`"


def connect_timeout() -> float:
    """Seconds to wait for the scheduler (and a first worker): ``$ZOOSIM_DASK_TIMEOUT`` or 10."""
    return _seconds(TIMEOUT_VARIABLE, DEFAULT_TIMEOUT)


def worker_timeout() -> float:
    """Seconds a run waits with no worker before it stops: ``$ZOOSIM_DASK_WORKER_TIMEOUT``
    or 60."""
    return _seconds(WORKER_TIMEOUT_VARIABLE, DEFAULT_WORKER_TIMEOUT)


def _seconds(variable: str, default: float) -> float:
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise UserError(f"{variable}: {text!r} is not allowed: give a number of seconds above 0")
    return seconds


def worker_fingerprint() -> str:
    """What fixes a worker's results: zooanalysis's version and its compiled sources' hash.

    Run on every worker by :func:`dask_backend` and compared with the local value.
    """
    from zooanalysis.compiled import code_fingerprint

    return code_fingerprint()


_this_process_code: str | None = None


def _process_fingerprint() -> str:
    """:func:`worker_fingerprint` of this process, computed once."""
    global _this_process_code
    if _this_process_code is None:
        _this_process_code = worker_fingerprint()
    return _this_process_code


class WorkerCodeMismatchError(Exception):
    """A worker whose zooanalysis differs from the one that started the run."""

    def __init__(self, worker: str, found: str, expected: str) -> None:
        super().__init__(worker, found, expected)
        self.worker, self.found, self.expected = worker, found, expected

    def __str__(self) -> str:
        return (
            f"worker {self.worker} cannot play this zoosim's batches (it has {self.found}; "
            f"here: {self.expected})"
        )


class WorkersGoneError(Exception):
    """No worker was connected (or the scheduler did not answer) for too long."""


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except Exception:  # not on a worker (a local call)
        return "(unknown)"


@contextmanager
def dask_backend(scheduler: str | None) -> Iterator[int]:
    """Connect to the Dask scheduler at ``scheduler`` and make joblib use it; yield ``n_jobs``.

    Checks, each failing with one :class:`UserError` line: an address is given; Dask is
    installed; the scheduler answers within :func:`connect_timeout` seconds; at least one
    worker is connected by then; every worker has the same zooanalysis. Inside the block,
    ``joblib.Parallel(backend="dask")`` sends its tasks to this cluster. The number yielded
    is the cluster's worker threads (at least 2, so the runner always uses the cluster).
    The client is closed on exit. During the run, losing the scheduler, or a batch whose
    workers kept dying, ends it with a ``UserError`` line too, never a hang.
    """
    if not scheduler:
        raise UserError(
            "--scheduler: --backend dask needs the address of a running Dask scheduler, "
            f"e.g. --scheduler tcp://HOST:8786 ({START_HINT})"
        )
    try:
        from dask.distributed import Client, KilledWorker
        from distributed.client import FutureCancelledError
    except ImportError as error:
        raise UserError(
            f"--backend dask: Dask is not installed ({one_line(error)}); "
            f"install it with {INSTALL_HINT}, here and on every worker machine"
        ) from None
    from joblib import parallel_config

    timeout = connect_timeout()
    client = _connect(Client, scheduler, timeout)
    try:
        n_jobs = _check_workers(client, scheduler, timeout)
        with (
            _quiet_client_logs(),
            client.as_current(),
            _zoosim_dask_backend(worker_fingerprint()) as pending,
            _watch_workers(client, scheduler, pending),
            parallel_config(backend="dask"),
        ):
            try:
                yield n_jobs
            except WorkerCodeMismatchError as error:
                raise UserError(
                    f"--scheduler: the run stopped: {error}; install the same zooanalysis on "
                    f"every worker with {INSTALL_HINT}"
                ) from None
            except WorkersGoneError as error:
                raise UserError(f"--scheduler: the run stopped: {error}") from None
            except KilledWorker as error:
                deaths = error.allowed_failures + 1
                raise UserError(
                    f"--scheduler: the run stopped: workers of {scheduler} died {deaths} "
                    f"time{'s' if deaths != 1 else ''} while playing the same batch, and "
                    "Dask's distributed.scheduler.allowed-failures is "
                    f"{error.allowed_failures}; check the workers' logs (out of memory?)"
                ) from None
            except FutureCancelledError as error:
                raise UserError(
                    f"--scheduler: the run stopped: a batch was cancelled ({error.reason}); "
                    f"was the Dask scheduler at {scheduler} stopped or restarted?"
                ) from None
    finally:
        with _quiet_client_logs():
            client.close()


def _connect(client_class: type[Client], scheduler: str, timeout: float) -> Client:
    """A client of the scheduler at ``scheduler``, or one ``UserError`` line saying why not."""
    check_address(scheduler)
    try:
        # not the default client: a failed attempt must leave nothing behind
        return client_class(scheduler, timeout=timeout, set_as_default=False)
    except Exception as error:  # OSError, TimeoutError, asyncio and comm errors ...
        reason = one_line(error) or type(error).__name__
        raise UserError(
            f"--scheduler: cannot connect to the Dask scheduler at {scheduler} ({reason}); "
            f"{START_HINT}, or set {TIMEOUT_VARIABLE} to wait longer than {timeout:g} s"
        ) from None


def check_address(scheduler: str) -> None:
    """A ``UserError`` unless ``scheduler`` reads as ``[SCHEME://]HOST:PORT`` of a known scheme.

    Checked before connecting: a ``Client`` given a malformed address fails only after
    starting its event loop, and its clean-up then stalls the end of the program.
    Only addresses of the network schemes (tcp, tls, ws, wss) must have a host and port.
    """
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _location = parse_address(scheduler)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            _host, port = get_address_host_port(scheduler)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not between 1 and 65535")
    except ValueError as error:
        raise UserError(
            f"--scheduler: {scheduler!r} is not a Dask scheduler address ({one_line(error)}); "
            "give one such as tcp://HOST:8786"
        ) from None


@contextmanager
def _quiet_client_logs() -> Iterator[None]:
    """Keep the Dask client's own error logs off the terminal for the block.

    When the scheduler is lost mid-run, the client's event loop logs tracebacks of its
    reconnection and result fetching (``distributed.client``, ``tornado.application``)
    above the one line that says what happened; every such failure ends the run with a
    ``UserError`` anyway.
    """
    loggers = [logging.getLogger(name) for name in QUIET_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _check_workers(client: Client, scheduler: str, timeout: float) -> int:
    """Wait for a first worker and check every worker's zooanalysis; the worker threads."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:  # dask.distributed.TimeoutError, or the scheduler went away
        raise UserError(
            f"--scheduler: no workers connected to the Dask scheduler at {scheduler} "
            f"within {timeout:g} s; start them with `dask worker {scheduler}`"
        ) from None
    expected = worker_fingerprint()
    try:
        found = client.run(worker_fingerprint, on_error="return")
    except Exception as error:
        raise UserError(
            f"--scheduler: could not ask the workers at {scheduler} for their zooanalysis "
            f"({one_line(error)})"
        ) from None
    for worker, value in sorted(found.items()):
        if value != expected:
            seen = (
                f"no zooanalysis it can import: {one_line(value)}"
                if isinstance(value, BaseException)
                else value
            )
            raise UserError(
                f"--scheduler: worker {worker} cannot play this zoosim's batches (it has "
                f"{seen}; here: {expected}); install the same zooanalysis on every worker "
                f"with {INSTALL_HINT}"
            )
    return max(2, sum(client.nthreads().values()))


class HashableCall:
    """A batch job behind an identity hash, so joblib's dask backend can take it, carrying
    the code fingerprint of the machine that started the run.

    joblib's dask backend puts every task's callable in a set; a job holding numpy arrays
    (like ``BluffBatch``, a frozen dataclass) is not hashable, and joblib then drops the
    task silently and waits for it forever. Calling this checks the worker's code against
    ``code`` (:class:`WorkerCodeMismatchError` if they differ: the batch is not played), calls
    the job and returns ``(worker's code, result)``; wrappers of the same job are equal.
    """

    def __init__(self, job: Callable[..., Any], code: str | None = None) -> None:
        self.job = job
        self.code = code
        self.__name__ = getattr(job, "__name__", type(job).__name__)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the job if this worker has the same code; returns (its code, the result)."""
        if self.code is None:
            return self.job(*args, **kwargs)
        found = _process_fingerprint()
        if found != self.code:
            raise WorkerCodeMismatchError(_worker_address(), found, self.code)
        return found, self.job(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HashableCall) and other.job is self.job

    def __hash__(self) -> int:
        return id(self.job)


class PendingTasks:
    """The run's tasks still on the cluster, each with joblib's completion callback, so a
    watcher can end the run by failing one of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: dict[Future, Callable[[Any], None]] = {}

    def add(self, future: Future, callback: Callable[[Any], None]) -> None:
        """Track a submitted task until it is done."""
        with self._lock:
            self._callbacks[future] = callback
        future.add_done_callback(self._remove)

    def _remove(self, future: Future) -> None:
        with self._lock:
            self._callbacks.pop(future, None)

    def fail(self, error: BaseException) -> bool:
        """Hand ``error`` to joblib as the outcome of a pending task (which stops the run);
        whether there was one."""
        with self._lock:
            callbacks = list(self._callbacks.values())
        for callback in callbacks[:1]:
            callback(error)
        return bool(callbacks)


@contextmanager
def _zoosim_dask_backend(code: str) -> Iterator[PendingTasks]:
    """Register, for the block, a joblib ``dask`` backend that works as the runner uses it;
    yields the tasks pending on the cluster.

    joblib's own (1.6) fails four ways with ``Parallel(backend="dask")``: it passes the
    ``nesting_level`` that ``Parallel`` gives every backend on to each Dask task as a keyword
    argument (every batch then fails); it hangs on tasks whose callable is not hashable
    (see :class:`HashableCall`); it hangs on a task that failed on the cluster's side
    (see :func:`_report_failure`); and on a cluster of one worker thread it plays every
    batch in this process instead. Every task also carries the code fingerprint ``code``,
    and every result must come back stamped with it. joblib's own backend is registered
    again on exit.
    """
    from joblib import parallel, register_parallel_backend
    from joblib._dask import DaskDistributedBackend

    pending = PendingTasks()

    class ZoosimDaskBackend(DaskDistributedBackend):
        """joblib's dask backend, keeping ``nesting_level``, taking unhashable jobs,
        reporting lost tasks and checking every worker's code."""

        def __init__(self, *args: Any, nesting_level: int | None = None, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.nesting_level = nesting_level

        def effective_n_jobs(self, n_jobs: int) -> int:
            # joblib plays the batches itself, in this process, when this is 1 (a cluster
            # of one worker thread): at least 2 keeps every batch on the cluster
            return max(2, sum(self.client.nthreads().values()))

        def submit(self, func: Any, callback: Any = None) -> Any:
            func.items = [
                (HashableCall(f, code), args, kwargs) for f, args, kwargs in func.items
            ]
            future = super().submit(func, callback)
            if callback is not None:
                future.add_done_callback(partial(_report_failure, callback))
                pending.add(future, callback)
            return future

        def retrieve_result_callback(self, out: Any) -> Any:
            return [_unstamped(item, code) for item in super().retrieve_result_callback(out)]

    previous = parallel.BACKENDS.get("dask", DaskDistributedBackend)
    register_parallel_backend("dask", ZoosimDaskBackend)
    try:
        yield pending
    finally:
        register_parallel_backend("dask", previous)


def _unstamped(item: Any, code: str) -> Any:
    """The result of a :class:`HashableCall`, checked to come from a worker with ``code``."""
    if isinstance(item, tuple) and len(item) == 2 and item[0] == code:
        return item[1]
    found = item[0] if isinstance(item, tuple) and len(item) == 2 else "no code fingerprint"
    raise WorkerCodeMismatchError("(one of them)", str(found), code)


@contextmanager
def _watch_workers(client: Client, scheduler: str, pending: PendingTasks) -> Iterator[None]:
    """Count the cluster's workers every :data:`WATCH_SECONDS` during the block; after
    :func:`worker_timeout` seconds with none (or no answer from the scheduler), fail a
    pending task with :class:`WorkersGoneError`, which stops the run instead of a silent wait."""
    timeout = worker_timeout()
    stopped = threading.Event()

    def watch() -> None:
        last_seen = time.monotonic()
        while not stopped.wait(min(WATCH_SECONDS, timeout / 4)):
            try:
                workers = len(client.nthreads(callback_timeout=max(1.0, timeout / 4)))
            except Exception:  # the scheduler does not answer
                workers = 0
            if workers:
                last_seen = time.monotonic()
            elif time.monotonic() - last_seen >= timeout:
                gone = WorkersGoneError(
                    f"no worker was connected to the Dask scheduler at {scheduler} for "
                    f"{timeout:g} s (set {WORKER_TIMEOUT_VARIABLE} to wait longer); start "
                    f"workers with `dask worker {scheduler}`"
                )
                if pending.fail(gone):
                    return

    watcher = threading.Thread(target=watch, name="zoosim-worker-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stopped.set()
        watcher.join(timeout=5)


def _report_failure(callback: Callable[[Any], None], future: Future) -> None:
    """Hand a task that failed on the cluster (not in the job) to joblib's callback.

    joblib's dask backend calls the callback only for tasks that returned; one that failed
    on the scheduler's side (``KilledWorker``: its workers kept dying) would leave
    ``Parallel`` waiting for it forever. The callback raises the error in the run instead.
    """
    if not future.cancelled() and future.exception() is not None:
        callback(future.exception())


def one_line(error: object) -> str:
    """An error's message with all whitespace (newlines too) collapsed to single spaces."""
    return re.sub(r"\s+", " ", str(error)).strip()
