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

Connection problems are user errors (one line, exit code 2), found within
``$ZOOSIM_DASK_TIMEOUT`` seconds (10 by default), never a hang.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from zooanalysis.errors import UserError

if TYPE_CHECKING:
    from dask.distributed import Client

DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for the scheduler to answer, and then for a first worker."""
TIMEOUT_VARIABLE = "ZOOSIM_DASK_TIMEOUT"
INSTALL_HINT = "pip install 'zooanalysis[distributed]'"
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
    from zooanalysis import __version__
    from zooanalysis.compiled import source_fingerprint

    return f"zooanalysis {__version__}, compiled sources {source_fingerprint()}"


@contextmanager
def dask_backend(scheduler: str | None) -> Iterator[int]:
    """Connect to the Dask scheduler at ``scheduler`` and make joblib use it; yield ``n_jobs``.

    Checks, each failing with one :class:`UserError` line: an address is given; Dask is
    installed; the scheduler answers within :func:`connect_timeout` seconds; at least one
    worker is connected by then; every worker has the same zooanalysis. Inside the block,
    ``joblib.Parallel(backend="dask")`` sends its tasks to this cluster. The number yielded
    is the cluster's worker threads (at least 2, so the runner always uses the cluster).
    The client is closed on exit; a batch whose workers kept dying ends the run with a
    ``UserError`` too.
    """
    if not scheduler:
        raise UserError(
            "--scheduler: --backend dask needs the address of a running Dask scheduler, "
            f"e.g. --scheduler tcp://HOST:8786 ({START_HINT})"
        )
    try:
        from dask.distributed import Client, KilledWorker
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
        with client.as_current(), parallel_config(backend="dask"):
            try:
                yield n_jobs
            except KilledWorker as error:
                raise UserError(
                    f"--scheduler: a batch was lost with every worker that ran it "
                    f"({one_line(error)}); Dask gives up on a batch after "
                    "distributed.scheduler.allowed-failures worker deaths (3 by default). "
                    "Check the workers' logs (out of memory?); nothing was written"
                ) from None
    finally:
        client.close()


def _connect(client_class: type[Client], scheduler: str, timeout: float) -> Client:
    """A client of the scheduler at ``scheduler``, or one ``UserError`` line saying why not."""
    try:
        # not the default client: a failed attempt must leave nothing behind
        return client_class(scheduler, timeout=timeout, set_as_default=False)
    except ValueError as error:
        raise UserError(
            f"--scheduler: {scheduler!r} is not a Dask scheduler address ({one_line(error)}); "
            "give one such as tcp://HOST:8786"
        ) from None
    except Exception as error:  # OSError, TimeoutError, asyncio and comm errors ...
        reason = one_line(error) or type(error).__name__
        raise UserError(
            f"--scheduler: cannot connect to the Dask scheduler at {scheduler} ({reason}); "
            f"{START_HINT}, or set {TIMEOUT_VARIABLE} to wait longer than {timeout:g} s"
        ) from None


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
                f"{type(value).__name__}: {one_line(value)}"
                if isinstance(value, BaseException)
                else value
            )
            raise UserError(
                f"--scheduler: worker {worker} cannot run this zoosim's batches (it has "
                f"{seen}; here: {expected}); install the same zooanalysis on every worker "
                f"with {INSTALL_HINT}"
            )
    return max(2, sum(client.nthreads().values()))


def one_line(error: object) -> str:
    """An error's message with all whitespace (newlines too) collapsed to single spaces."""
    return re.sub(r"\s+", " ", str(error)).strip()
