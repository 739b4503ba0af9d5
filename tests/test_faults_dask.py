"""Dask faults on a real scheduler and workers on localhost (no mocks), issue 11 points 3-5.

All workers gone, a lost scheduler and a batch whose workers keep dying each stop the run
with one line and exit 2, keep its checkpoint and name the resume command; the resumed
run equals an uninterrupted local one. A worker with other code that joins mid-run refuses
to play. Each test starts its own processes, so they are slow.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import dask
import pytest
from distributed import Client, LocalCluster
from fault_helpers import ZOOSIM, one_error_line, run_cli
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.distributed import (
    HashableCall,
    WorkerCodeMismatchError,
    _unstamped,
)
from zooanalysis.storage import CHECKPOINT, partial_path, read_checkpoint

DASK = Path(sys.executable).with_name("dask")
GAMES = ["--games", "200000", "--batch-size", "2000", "--seed", "5"]
START_SECONDS = 120
"""Generous: a new worker process may compile the kernel before its first batch."""


def scheduler_only() -> LocalCluster:
    """A scheduler on localhost without workers (quiet, on free ports)."""
    return LocalCluster(
        n_workers=0,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    )


def start_worker(address: str, **environment: str) -> subprocess.Popen:
    """A worker process without a nanny (so a killed one stays dead)."""
    return subprocess.Popen(
        [DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
        env={**os.environ, **environment},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def start_run(address: str, out: Path, **environment: str) -> subprocess.Popen:
    """``zoosim run`` on the cluster, in its own process, checkpointing often."""
    return subprocess.Popen(
        [ZOOSIM, "run", *GAMES, "--backend", "dask", "--scheduler", address,
         "--out", str(out), "--no-progress"],
        env={**os.environ, "ZOOSIM_CHECKPOINT_SECONDS": "0.2", **environment},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def wait_for_checkpoint(run: subprocess.Popen, out: Path) -> None:
    """Wait until the run has saved a checkpoint (it is playing on the cluster)."""
    deadline = time.monotonic() + START_SECONDS
    while not (partial_path(out) / CHECKPOINT).exists():
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "the run saved no checkpoint"
        time.sleep(0.1)
    time.sleep(0.5)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=30)


def assert_kept_and_resumable(out: Path, stderr: str, tmp_path: Path, capsys) -> None:
    """One error line naming the resume command; the checkpoint kept; the resumed run
    equals an uninterrupted local one."""
    one_error_line(stderr, "--scheduler: the run stopped", f"zoosim run --resume {out}")
    assert not out.exists()
    kept = read_checkpoint(partial_path(out))[1]["games"]
    assert 0 < kept < 200_000
    code, _, err = run_cli(capsys, "run", "--resume", out, "--jobs", "2", "--no-progress")
    assert code == 0, err
    whole = tmp_path / "whole"
    code, _, err = run_cli(capsys, "run", *GAMES, "--jobs", "2", "--out", whole, "--no-progress")
    assert code == 0, err
    assert_same_tables(tables_of(whole), tables_of(out))


@pytest.mark.slow
def test_all_workers_gone_stops_with_one_line_and_keeps_the_checkpoint(tmp_path, capsys):
    """The fault: 200 s and more of silent waiting."""
    out = tmp_path / "run"
    with scheduler_only() as cluster:
        worker = start_worker(cluster.scheduler_address)
        run = start_run(cluster.scheduler_address, out, ZOOSIM_DASK_WORKER_TIMEOUT="3")
        try:
            wait_for_checkpoint(run, out)
            worker.send_signal(signal.SIGKILL)
            started = time.monotonic()
            _, stderr = run.communicate(timeout=120)
            waited = time.monotonic() - started
        finally:
            stop(worker)
            stop(run)
    assert run.returncode == 2, stderr
    assert "no worker was connected" in stderr and "for 3 s" in stderr
    assert waited < 60  # not a hang (the watcher's 3 s plus shutting down)
    assert_kept_and_resumable(out, stderr, tmp_path, capsys)


@pytest.mark.slow
def test_a_lost_scheduler_keeps_the_checkpoint(tmp_path, capsys):
    """The fault: a lost scheduler deleted the .partial folder."""
    out = tmp_path / "run"
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(scheduler_file)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    worker = run = None
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.5)
        import json

        address = json.loads(scheduler_file.read_text())["address"]
        worker = start_worker(address)
        run = start_run(address, out, ZOOSIM_DASK_WORKER_TIMEOUT="5")
        wait_for_checkpoint(run, out)
        scheduler.send_signal(signal.SIGKILL)
        _, stderr = run.communicate(timeout=180)
    finally:
        for process in (run, worker, scheduler):
            if process is not None:
                stop(process)
    assert run.returncode == 2, stderr
    assert_kept_and_resumable(out, stderr, tmp_path, capsys)


@pytest.mark.slow
def test_too_many_failed_batches_keep_the_checkpoint(tmp_path, capsys):
    """A batch whose worker dies more often than allowed (here: once) stops the run."""
    out = tmp_path / "run"
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        client.wait_for_workers(1, timeout=START_SECONDS)
        arguments = [*GAMES, "--backend", "dask", "--scheduler", cluster.scheduler_address]
        outcome: dict[str, int] = {}
        runner = threading.Thread(
            target=lambda: outcome.update(
                code=cli.main(["run", *arguments, "--out", str(out), "--no-progress"])
            )
        )
        os.environ["ZOOSIM_CHECKPOINT_SECONDS"] = "0.2"
        try:
            runner.start()
            deadline = time.monotonic() + START_SECONDS
            while not (partial_path(out) / CHECKPOINT).exists():
                assert runner.is_alive() and time.monotonic() < deadline
                time.sleep(0.1)
            (victim, pid), *_ = client.run(os.getpid).items()
            while not client.processing(workers=[victim]).get(victim):
                time.sleep(0.02)
            os.kill(pid, signal.SIGKILL)
            runner.join(timeout=180)
        finally:
            del os.environ["ZOOSIM_CHECKPOINT_SECONDS"]
    assert not runner.is_alive()
    stderr = capsys.readouterr().err
    assert outcome == {"code": 2}, stderr
    assert "died 1 time" in stderr
    assert_kept_and_resumable(out, stderr, tmp_path, capsys)


@pytest.mark.slow
def test_a_worker_with_other_code_joining_mid_run_is_refused(tmp_path, capsys):
    """The fault: the same-code check ran only at start-up; results changed silently."""
    other = tmp_path / "other"
    shutil.copytree(
        Path(zooanalysis.__file__).parent,
        other / "zooanalysis",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (defining,) = [  # the module that sets __version__ (version.py, or __init__.py)
        path for path in (other / "zooanalysis").glob("*.py")
        if '__version__ = "' in path.read_text()
    ]
    defining.write_text(
        defining.read_text().replace('__version__ = "', '__version__ = "0.0-other+')
    )
    out = tmp_path / "run"
    with scheduler_only() as cluster, Client(cluster, set_as_default=False) as client:
        address = cluster.scheduler_address
        good = start_worker(address)
        bad = None
        run = start_run(address, out)
        try:
            wait_for_checkpoint(run, out)
            bad = start_worker(address, PYTHONPATH=str(other))
            client.wait_for_workers(2, timeout=START_SECONDS)
            good.send_signal(signal.SIGKILL)  # what is left must go to the other worker
            _, stderr = run.communicate(timeout=180)
        finally:
            for process in (run, good, bad):
                if process is not None:
                    stop(process)
    assert run.returncode == 2, stderr
    one_error_line(
        stderr, "cannot play this zoosim's batches", "0.0-other+", f"--resume {out}"
    )
    assert (partial_path(out) / CHECKPOINT).is_file()
    kept = zooanalysis.storage.read_checkpoint(partial_path(out))[1]
    assert kept["code"] == zooanalysis.compiled.code_fingerprint()


def test_a_batch_carries_the_code_and_a_worker_with_other_code_refuses_it() -> None:
    calls: list[tuple[int, int]] = []

    def job(seed: int, games: int) -> dict:
        calls.append((seed, games))
        return {"games": games}

    here = zooanalysis.compiled.code_fingerprint()
    assert HashableCall(job, here)(1, 10) == (here, {"games": 10})
    with pytest.raises(WorkerCodeMismatchError, match="cannot play"):
        HashableCall(job, "zooanalysis 0.0, compiled sources other")(2, 10)
    assert calls == [(1, 10)]  # the mismatched batch was not played
    assert _unstamped((here, {"games": 10}), here) == {"games": 10}
    for returned in ({"games": 10}, ("zooanalysis 0.0", {"games": 10})):
        with pytest.raises(WorkerCodeMismatchError):
            _unstamped(returned, here)
