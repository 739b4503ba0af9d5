"""``zoosim run --backend dask`` on a real ``dask.distributed`` cluster on localhost.

The cluster has two worker processes (no mocks): a run on it must equal the local runs
table for table, survive a worker killed with SIGKILL in the middle of the run, and turn
an unreachable or malformed scheduler address into one error line, quickly.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import Client, LocalCluster
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import get_game
from zooanalysis.strategy_spec import parse_lineup

ZOOSIM = Path(sys.executable).with_name("zoosim")
DASK = Path(sys.executable).with_name("dask")
WORKER_START_SECONDS = 120
"""Generous: a new worker process may compile the numba kernel before its first batch."""


def warm_up_job():
    """A tiny batch job of the default Bluff in Zoo lineup, to run once on every worker."""
    game = get_game("bluff")
    lineup = parse_lineup(game.default_lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), lineup)
    return game.batch_job(settings, lineup, False)


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two single-threaded worker processes; yields (address, client)."""
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",  # a free port: never clash with a running cluster
            silence_logs=logging.CRITICAL,
        ) as local,
        Client(local, set_as_default=False) as client,
    ):
        client.wait_for_workers(2, timeout=WORKER_START_SECONDS)
        client.run(warm_up_job(), 0, 1)  # compiles or loads the kernel in each worker
        yield local.scheduler_address, client


def run_cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """Run ``zoosim ARGS`` in-process; its exit code, stdout and stderr."""
    code = cli.main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_error_line(err: str, *fragments: str) -> None:
    """stderr is exactly one ``zoosim: error: --scheduler`` line containing every fragment."""
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {err!r}"
    assert lines[0].startswith("zoosim: error: --scheduler"), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"


def test_dask_run_equals_local_runs(cluster, tmp_path, capsys):
    address, _client = cluster
    common = ["run", "--games", "6000", "--batch-size", "500", "--seed", "7", "--no-progress"]
    code, _, err = run_cli(
        capsys, *common, "--backend", "dask", "--scheduler", address, "--out", tmp_path / "dask"
    )
    assert code == 0, err
    for name, options in {
        "threads": ["--backend", "threads", "--jobs", "1"],
        "processes": ["--backend", "processes", "--jobs", "2"],
    }.items():
        code, _, err = run_cli(capsys, *common, *options, "--out", tmp_path / name)
        assert code == 0, err
        assert_same_tables(tables_of(tmp_path / "dask"), tables_of(tmp_path / name))
    manifest = zooanalysis.load_run(tmp_path / "dask").manifest
    assert (manifest["backend"], manifest["scheduler"]) == ("dask", address)


def test_run_survives_a_killed_worker(cluster, tmp_path, capsys):
    address, client = cluster
    common = ["run", "--games", "200000", "--batch-size", "2000", "--seed", "11", "--no-progress"]
    on_dask = [*common, "--backend", "dask", "--scheduler", address, "--out", tmp_path / "dask"]
    pids = client.run(os.getpid)
    outcome: dict[str, int] = {}
    run = threading.Thread(
        target=lambda: outcome.update(code=cli.main([str(arg) for arg in on_dask]))
    )
    run.start()
    victim, pid = sorted(pids.items())[0]
    deadline = time.monotonic() + 60
    while not client.processing(workers=[victim]).get(victim):  # wait until it plays batches
        assert run.is_alive() and time.monotonic() < deadline, "the run never reached the worker"
        time.sleep(0.05)
    time.sleep(0.5)  # a few batches in: some played, some running, most still to come
    assert run.is_alive(), "the run finished before the worker could be killed"
    os.kill(pid, signal.SIGKILL)
    run.join(timeout=300)
    assert not run.is_alive(), "the run did not finish after a worker died"
    assert outcome == {"code": 0}, capsys.readouterr().err

    code, _, err = run_cli(
        capsys, *common, "--backend", "threads", "--jobs", "2", "--out", tmp_path / "local"
    )
    assert code == 0, err
    assert_same_tables(tables_of(tmp_path / "dask"), tables_of(tmp_path / "local"))
    client.wait_for_workers(2, timeout=WORKER_START_SECONDS)  # the nanny restarted it
    assert pid not in client.run(os.getpid).values()


def test_unreachable_scheduler_is_one_line_not_a_hang(tmp_path):
    address = "tcp://127.0.0.1:1"  # nothing listens on port 1
    out = tmp_path / "run"
    start = time.monotonic()
    command = ["run", "--games", "1000", "--backend", "dask", "--scheduler", address]
    result = subprocess.run(
        [ZOOSIM, *command, "--no-progress", "--out", out],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert time.monotonic() - start < 30
    assert result.returncode == 2, result.stderr
    assert_one_error_line(result.stderr, address, "dask scheduler")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["nonsense://", "tcp://127.0.0.1", "127.0.0.1:0"])
def test_malformed_scheduler_address(address, tmp_path, capsys):
    code, _, err = run_cli(
        capsys, "run", "--games", "1000", "--backend", "dask", "--scheduler", address,
        "--no-progress", "--out", tmp_path / "run",
    )  # fmt: skip
    assert code == 2
    assert_one_error_line(err, repr(address), "not a Dask scheduler address")
    assert list(tmp_path.iterdir()) == []


def test_dask_backend_needs_a_scheduler(tmp_path, capsys):
    code, _, err = run_cli(
        capsys, "run", "--games", "1000", "--backend", "dask", "--out", tmp_path / "run"
    )
    assert code == 2
    assert_one_error_line(err, "--backend dask")
    assert list(tmp_path.iterdir()) == []


def empty_cluster() -> LocalCluster:
    """A scheduler on localhost with no workers (a free dashboard port, quiet logs)."""
    return LocalCluster(
        n_workers=0,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=":0",  # a free port: never clash with a running cluster
        silence_logs=logging.CRITICAL,
    )


def test_scheduler_without_workers(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ZOOSIM_DASK_TIMEOUT", "1")
    with empty_cluster() as empty:
        address = empty.scheduler_address
        code, _, err = run_cli(
            capsys, "run", "--games", "1000", "--backend", "dask", "--scheduler", address,
            "--no-progress", "--out", tmp_path / "run",
        )  # fmt: skip
    assert code == 2
    assert_one_error_line(err, address, "no workers", f"dask worker {address}")
    assert list(tmp_path.iterdir()) == []


def test_worker_without_zooanalysis(tmp_path, capsys):
    stub = tmp_path / "stub" / "zooanalysis"  # what the worker imports instead
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text('raise ImportError("no zooanalysis installed here")\n')
    runs = tmp_path / "runs"
    runs.mkdir()
    with empty_cluster() as empty:
        address = empty.scheduler_address
        worker = subprocess.Popen(
            [DASK, "worker", address, "--nthreads", "1", "--no-dashboard"],
            env={**os.environ, "PYTHONPATH": str(stub.parent)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            code, _, err = run_cli(
                capsys, "run", "--games", "1000", "--backend", "dask", "--scheduler", address,
                "--no-progress", "--out", runs / "run",
            )  # fmt: skip
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    assert code == 2
    assert_one_error_line(err, "no zooanalysis installed here", "install the same zooanalysis")
    assert list(runs.iterdir()) == []
