"""Run the batches on an existing Dask cluster: ``zoosim run --backend dask --scheduler ADDR``.

Install the extra on every machine (``pip install 'zooanalysis[distributed]'``), start a
scheduler with ``dask scheduler`` and workers with ``dask worker tcp://HOST:8786``, then::

    zoosim run --games 1e8 --backend dask --scheduler tcp://HOST:8786

The batches go through joblib's ``dask`` backend to the workers. Every worker must have the
same zooanalysis installed as the machine that starts the run (same version, same compiled
sources): the batch jobs are pickled by reference to ``zooanalysis`` classes, so a worker
unpickles and runs them with its own copy. :func:`dask_backend` checks this before the run.

A run is fixed by its seed and batch size, as on the local backends: each batch carries its
own seed, so which worker plays it does not matter and the results equal a local run bit for
bit. When a worker dies, the scheduler gives its unfinished batches to other workers (up to
Dask's ``distributed.scheduler.allowed-failures`` times per batch, 3 by default), and the
run completes with the same result.

Connection problems are user errors (one line, exit code 2), never a hang: zoosim waits
``$ZOOSIM_DASK_TIMEOUT`` seconds (10 by default) for the scheduler, and as long again for a
first worker.
"""

from __future__ import annotations

import logging
import os
import re
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
INSTALL_HINT = "pip install 'zooanalysis[distributed]'"
QUIET_LOGGERS = ("distributed.client", "tornado.application")
START_HINT = "start one with `dask scheduler` and workers with `dask worker tcp://HOST:8786`"


def connect_timeout() -> float:
    """Seconds to wait for the scheduler (and a first worker): ``$ZOOSIM_DASK_TIMEOUT`` or 10."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise UserError(
            f"{TIMEOUT_VARIABLE}: {text!r} is not allowed: give a number of seconds above 0"
        )
    return seconds


def worker_fingerprint() -> str:
    """What fixes a worker's results: zooanalysis's version and its compiled sources' hash.

    Run on every worker by :func:`dask_backend` and compared with the local value.
    """
    from zooanalysis.compiled import source_fingerprint
    from zooanalysis.version import __version__

    return f"zooanalysis {__version__}, compiled sources {source_fingerprint()}"


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
            _zoosim_dask_backend(),
            parallel_config(backend="dask"),
        ):
            try:
                yield n_jobs
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
    _check_address(scheduler)
    try:
        # not the default client: a failed attempt must leave nothing behind
        return client_class(scheduler, timeout=timeout, set_as_default=False)
    except Exception as error:  # OSError, TimeoutError, asyncio and comm errors ...
        reason = one_line(error) or type(error).__name__
        raise UserError(
            f"--scheduler: cannot connect to the Dask scheduler at {scheduler} ({reason}); "
            f"{START_HINT}, or set {TIMEOUT_VARIABLE} to wait longer than {timeout:g} s"
        ) from None


def _check_address(scheduler: str) -> None:
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
    """A batch job behind an identity hash, so joblib's dask backend can take it.

    joblib's dask backend puts every task's callable in a set; a job holding numpy arrays
    (like ``BluffBatch``, a frozen dataclass) is not hashable, and joblib then drops the
    task silently and waits for it forever. Calling this calls the job; wrappers of the same
    job object are equal.
    """

    def __init__(self, job: Callable[..., Any]) -> None:
        self.job = job
        self.__name__ = getattr(job, "__name__", type(job).__name__)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the job."""
        return self.job(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HashableCall) and other.job is self.job

    def __hash__(self) -> int:
        return id(self.job)


@contextmanager
def _zoosim_dask_backend() -> Iterator[None]:
    """Register, for the block, a joblib ``dask`` backend that works as the runner uses it.

    joblib's own (1.6) fails three ways with ``Parallel(backend="dask")``: it passes the
    ``nesting_level`` that ``Parallel`` gives every backend on to each Dask task as a keyword
    argument (every batch then fails); it hangs on tasks whose callable is not hashable
    (see :class:`HashableCall`); and it hangs on a task that failed on the cluster's side
    (see :func:`_report_failure`). joblib's own backend is registered again on exit.
    """
    from joblib import parallel, register_parallel_backend
    from joblib._dask import DaskDistributedBackend

    class ZoosimDaskBackend(DaskDistributedBackend):
        """joblib's dask backend, keeping ``nesting_level``, taking unhashable jobs and
        reporting lost tasks."""

        def __init__(self, *args: Any, nesting_level: int | None = None, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.nesting_level = nesting_level

        def submit(self, func: Any, callback: Any = None) -> Any:
            func.items = [(HashableCall(f), args, kwargs) for f, args, kwargs in func.items]
            future = super().submit(func, callback)
            if callback is not None:
                future.add_done_callback(partial(_report_failure, callback))
            return future

    previous = parallel.BACKENDS.get("dask", DaskDistributedBackend)
    register_parallel_backend("dask", ZoosimDaskBackend)
    try:
        yield
    finally:
        register_parallel_backend("dask", previous)


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
