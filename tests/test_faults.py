"""Fault injection: each fault of issue 11 (points 1-7, and 8's smaller ones) reproduced.

A run must never mix counts of two requests, never have two writers, never lose its
checkpoint to a failure, say every failure in one line (exit 2) and refuse damaged or
tampered result folders by name. The Dask faults (lost scheduler, workers gone, a worker
with other code, too many failed batches) run on a real cluster in test_faults_dask.py.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from fault_helpers import (
    ZOOSIM,
    damage_checkpoint,
    flip_byte,
    interrupt_after,
    one_error_line,
    run_cli,
    tmpfs,
    tree,
)
from run_helpers import assert_same_tables, tables_of

import zooanalysis
import zooanalysis.simulation as simulation
from zooanalysis import storage
from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.storage import (
    CHECKPOINT,
    RunInterruptedError,
    lock_path,
    output_lock,
    partial_path,
    read_checkpoint,
    write_checkpoint,
)
from zooanalysis.strategy_spec import parse_lineup

SMALL = ["--games", "6000", "--batch-size", "1000", "--seed", "4", "--jobs", "1", "--no-progress"]


def interrupted_run(
    capsys, monkeypatch, out: Path, *extra: str, batches: int = 2, args=SMALL
) -> None:
    """A CLI run to ``out`` stopped by Ctrl-C after ``batches`` batches (checkpoint kept)."""
    with monkeypatch.context() as patch:
        interrupt_after(batches, patch)
        code, _, err = run_cli(capsys, "run", *args, *extra, "--out", out)
    assert code == 130, err
    assert (partial_path(out) / CHECKPOINT).is_file()


def request_for(lineup: str = "random,random,random", **options) -> simulation.RunRequest:
    game = get_game("bluff")
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), players)
    values = {"games": 5000, "seed": 2, "batch_size": 1000, **options}
    return simulation.RunRequest(game=game, settings=settings, lineup=players, **values)


# --- 1. a checkpoint belongs to one request --------------------------------------------------


def test_resuming_a_rotated_run_gives_the_uninterrupted_rotated_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fault: resume_request dropped rotate_seats and counted rotation games wrongly."""
    code, _, err = run_cli(capsys, "run", *SMALL, "--rotate-seats", "--out", tmp_path / "whole")
    assert code == 0, err
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out, "--rotate-seats")
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 0, err
    resumed = zooanalysis.load_run(out)
    assert resumed.rotated and resumed.games == 6000
    assert {"rotation_pairs", "rotation_strategies"} <= set(resumed.table_names)
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))


def test_resuming_with_another_request_is_refused_by_name(tmp_path: Path) -> None:
    rotated = request_for(rotate_seats=True, out=tmp_path / "run")

    def stop_after_two(games: int, seen: list[int] = []) -> None:  # noqa: B006
        seen.append(games)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        with pytest.raises(RunInterruptedError):
            simulation.run_simulation(rotated, on_progress=stop_after_two)
    checkpoint = (partial_path(tmp_path / "run") / CHECKPOINT).read_bytes()
    plain = request_for(rotate_seats=False, out=tmp_path / "run")
    with pytest.raises(UserError, match=r"rotate_seats: True, here False") as refused:
        simulation.run_simulation(plain, resume=True)
    assert "\n" not in str(refused.value)
    assert (partial_path(tmp_path / "run") / CHECKPOINT).read_bytes() == checkpoint
    assert simulation.run_simulation(rotated, resume=True).games == 5000


def test_an_edited_request_json_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out)
    request_file = partial_path(out) / "request.json"
    stored = json.loads(request_file.read_text())
    stored["request"]["seed"] = 5  # another seed: the counts would be mixed silently
    request_file.write_text(json.dumps(stored))
    before = (partial_path(out) / CHECKPOINT).read_bytes()
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, str(request_file), "was changed", f"rm -r {partial_path(out)}")
    assert (partial_path(out) / CHECKPOINT).read_bytes() == before

    # an editor who also rewrites the checksum is stopped by the checkpoint's own record
    stored["sha256"] = simulation.request_sha256(stored["request"])
    request_file.write_text(json.dumps(stored))
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, str(partial_path(out) / CHECKPOINT), "seed: 4, here 5")
    assert (partial_path(out) / CHECKPOINT).read_bytes() == before


def test_a_checkpoint_whose_counts_do_not_fit_the_batches_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out)
    folder = partial_path(out)
    totals, state = read_checkpoint(folder)
    first = sorted(totals)[0]
    del totals[first]
    totals["rotation_wins"] = np.zeros(3, dtype=np.int64)
    write_checkpoint(folder, totals, state)
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, f"missing: {first}", "not made by this run: rotation_wins")


def test_a_checkpoint_of_other_code_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out)
    monkeypatch.setattr(simulation, "_code", lambda: "zooanalysis 9.9, compiled sources x")
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, "other zoosim code", "zooanalysis 9.9")


# --- 2. one writer per folder ------------------------------------------------------------------


def test_two_simulations_into_one_folder_at_once_make_one_consistent_run(
    tmp_path: Path,
) -> None:
    """The fault: two writers made a "complete" run with seed 2's manifest, seed 1's tables."""
    out = tmp_path / "run"
    start = threading.Barrier(2)
    outcome: dict[int, object] = {}

    def simulate(seed: int) -> None:
        start.wait()
        try:
            outcome[seed] = zooanalysis.simulate(games=20_000, seed=seed, out=out, jobs=1)
        except UserError as error:
            outcome[seed] = error

    threads = [threading.Thread(target=simulate, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = [value for value in outcome.values() if isinstance(value, UserError)]
    assert len(errors) == 1
    assert "being written by another zoosim process" in str(errors[0]) or (
        "already exists" in str(errors[0])
    )
    run = zooanalysis.load_run(out)
    alone = zooanalysis.simulate(games=20_000, seed=run.manifest["seed"], jobs=1)
    assert_same_tables(tables_of(out), {name: alone.table(name) for name in alone.table_names})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_a_second_writer_gets_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out)
    before = (partial_path(out) / CHECKPOINT).read_bytes()
    with output_lock(out):  # another process writing (or resuming) this run
        for args in (["--resume", out], [*SMALL, "--out", out]):
            code, _, err = run_cli(capsys, "run", *args, "--no-progress")
            assert code == 2
            one_error_line(err, f"{out} is being written by another zoosim process (pid")
            assert (partial_path(out) / CHECKPOINT).read_bytes() == before
    assert not lock_path(out).exists()
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 0, err


def test_the_lock_is_held_for_the_whole_run_and_released_after(tmp_path: Path) -> None:
    out = tmp_path / "run"
    seen: list[bool] = []

    def progress(_games: int) -> None:
        with pytest.raises(UserError, match="being written"), output_lock(out):
            pass
        seen.append(lock_path(out).is_file())

    simulation.run_simulation(request_for(out=out), on_progress=progress)
    assert len(seen) >= 5 and all(seen)  # after every chunk
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]
    with output_lock(out):  # free again
        pass


# --- 3 and 6. failures keep the checkpoint and are one line ----------------------------------


def fail_writes_of(name_part: str, after: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From the ``after``-th on, writing a file whose name holds ``name_part`` fails as on a
    full disk (ENOSPC when flushing it); returns the paths that failed."""
    failed: list[str] = []
    seen: list[str] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        target = os.readlink(f"/proc/self/fd/{descriptor}")
        if name_part in Path(target).name:
            seen.append(target)
            if len(seen) > after:
                failed.append(target)
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(descriptor)

    monkeypatch.setattr(storage.os, "fsync", fsync)
    return failed


@pytest.mark.parametrize(
    "checkpoint_seconds", [0.0, float("inf")], ids=["checkpoints-due", "none-due-yet"]
)
def test_a_full_disk_keeps_the_checkpoint_and_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    checkpoint_seconds: float,
) -> None:
    """Writing a batch's rows fails (disk full): one line naming the file and --resume, no
    half-written file left, a checkpoint of the finished batches kept, also when none was
    due yet (they come every few seconds; the failure saves one: it did not, so the working
    folder, finished batches and all, was deleted and the error had no --resume), and the
    resumed run has the uninterrupted run's tables and rows."""
    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", checkpoint_seconds)
        failed = fail_writes_of("batch-", 3, patch)
        code, _, err = run_cli(capsys, "run", *SMALL, "--rows", "--out", out)
    assert code == 2 and failed
    one_error_line(
        err, "batch-000003.parquet", "No space left on device", f"zoosim run --resume {out}"
    )
    assert not list(partial_path(out).rglob(".*.tmp"))  # no half-written file left behind
    assert read_checkpoint(partial_path(out))[1]["next_batch"] == 3
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 0, err
    code, _, err = run_cli(capsys, "run", *SMALL, "--rows", "--out", tmp_path / "whole")
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))
    whole = zooanalysis.load_run(tmp_path / "whole").game_rows()
    assert whole.equals(zooanalysis.load_run(out).game_rows())


def test_a_folder_made_read_only_before_the_final_rename_keeps_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder that holds the run becomes immutable as the run finishes: the rename
    fails and so does removing the lock file, whose error replaced the rename's ("
    .run.lock: Operation not permitted", no word of the kept work); now the line names the
    run and how to resume it, and the resumed run has the uninterrupted tables."""
    from fault_helpers import immutable

    parent = tmp_path / "runs"
    parent.mkdir()
    out = parent / "run"
    original = storage.OutputFolder.finish
    held = contextlib.ExitStack()

    def finish_read_only(folder) -> None:
        held.enter_context(immutable(parent))
        original(folder)

    with held, monkeypatch.context() as patch:
        patch.setattr(storage.OutputFolder, "finish", finish_read_only)
        code, _, err = run_cli(capsys, "run", *SMALL, "--out", out)
    assert code == 2
    one_error_line(err, f"{out}: cannot move the finished run there", f"--resume {out}")
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 0, err
    code, _, err = run_cli(capsys, "run", *SMALL, "--out", tmp_path / "whole")
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))


def test_a_full_disk_while_saving_a_checkpoint_keeps_the_previous_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    saved: list[dict] = []

    def recorded(folder, totals, state, batch_counts=None) -> None:
        write_checkpoint(folder, totals, state, batch_counts)
        saved.append(dict(state))

    with monkeypatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        patch.setattr(simulation, "write_checkpoint", recorded)
        fail_writes_of("checkpoint", 2, patch)
        code, _, err = run_cli(capsys, "run", *SMALL, "--out", out)
    assert code == 2
    one_error_line(err, str(partial_path(out) / CHECKPOINT), "No space left on device")
    assert len(saved) == 2
    assert read_checkpoint(partial_path(out))[1] == saved[1]  # the last one written whole
    assert run_cli(capsys, "run", "--resume", out, "--no-progress")[0] == 0
    code, _, err = run_cli(capsys, "run", *SMALL, "--out", tmp_path / "whole")
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "6000"],
        ["--until-ci", "0.02", "--max-games", "1e6"],
    ],
)
def test_a_failure_while_writing_the_results_loses_no_game(
    args: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A short run has no checkpoint yet when its tables are written; a resumed --until-ci
    run whose checkpoint holds its last batch must not play one more."""
    args = [*args, "--batch-size", "1000", "--seed", "4", "--jobs", "1"]
    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        fail_writes_of("seats.parquet", 0, patch)
        code, _, err = run_cli(capsys, "run", *args, "--no-progress", "--out", out)
    assert code == 2
    one_error_line(err, "seats.parquet", "No space left on device", "--resume")
    played = read_checkpoint(partial_path(out))[1]["games"]
    batches: list[int] = []
    monkeypatch.setattr(simulation, "run_simulation", _counting(batches))
    assert run_cli(capsys, "run", "--resume", out, "--no-progress")[0] == 0
    assert batches == []  # nothing played again
    assert zooanalysis.load_run(out).games == played
    code, _, err = run_cli(capsys, "run", *args, "--no-progress", "--out", tmp_path / "whole")
    assert code == 0, err
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))


def _counting(batches: list[int]):
    original = simulation.run_simulation

    def run_simulation(request, on_progress=None, resume=False, **options):
        return original(request, on_progress=batches.append, resume=resume, **options)

    return run_simulation


def test_a_full_tmpfs_keeps_the_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real full disk: a 192 KiB tmpfs fills up with per-game rows."""
    args = ["--games", "20000", "--batch-size", "1000", "--seed", "6", "--jobs", "1", "--rows"]
    with tmpfs(tmp_path / "small", "192k") as small:
        out = small / "run"
        monkeypatch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        code, _, err = run_cli(capsys, "run", *args, "--no-progress", "--out", out)
        assert code == 2
        one_error_line(err, str(small), "No space left on device", "--resume")
        kept = read_checkpoint(partial_path(out))[1]["next_batch"]
        assert 0 < kept < 20
        shutil.copytree(partial_path(out), partial_path(tmp_path / "run"))
    code, _, err = run_cli(capsys, "run", "--resume", tmp_path / "run", "--no-progress")
    assert code == 0, err
    code, _, err = run_cli(capsys, "run", *args, "--no-progress", "--out", tmp_path / "whole")
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(tmp_path / "run"))


@pytest.mark.parametrize(
    ("damage", "cause"),
    [
        ("truncate", "damaged"),
        ("empty", "damaged"),
        ("flip", "damaged"),
    ],
)
def test_a_damaged_checkpoint_is_one_line_and_kept(
    damage: str,
    cause: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The faults: BadZipFile traceback (truncated), "interrupted", exit 130 (0 bytes)."""
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out)
    checkpoint = partial_path(out) / CHECKPOINT
    damaged = damage_checkpoint(checkpoint, damage)
    code, out_text, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 2 and out_text == ""
    one_error_line(err, str(checkpoint), cause, f"rm -r {partial_path(out)}")
    assert checkpoint.read_bytes() == damaged  # kept as it was: only the user deletes it


def test_sigterm_stops_like_ctrl_c_and_the_run_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["--games", "60000", "--batch-size", "1000", "--seed", "9"]
    process = subprocess.Popen(
        [ZOOSIM, "run", *args, "--jobs", "1", "--out", str(out), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "ZOOSIM_CHECKPOINT_SECONDS": "0.2"},
    )
    checkpoint = partial_path(out) / CHECKPOINT
    deadline = time.monotonic() + 60
    while not checkpoint.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert stdout == "" and len(stderr.splitlines()) == 1, stderr
    assert f"zoosim run --resume {out}" in stderr and "Traceback" not in stderr
    assert not out.exists() and checkpoint.is_file()
    assert 0 < read_checkpoint(partial_path(out))[1]["games"] < 60_000
    code, _, err = run_cli(capsys, "run", "--resume", out, "--jobs", "2", "--no-progress")
    assert code == 0, err
    assert zooanalysis.load_run(out).games == 60_000  # and its tables add up to that


def _workers_of(pid: int) -> list[int]:
    """The loky worker processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"popen_loky_posix" in command:
            found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited


@pytest.mark.slow
def test_a_run_killed_with_sigkill_leaves_no_worker_process_behind(tmp_path: Path) -> None:
    """SIGKILL of a run on the processes backend: its workers end too (they idled on as
    orphans, each holding its compiled kernels, for more than ten minutes), and the run
    resumes as ever."""
    out = tmp_path / "run"
    args = ["--games", "2e6", "--batch-size", "1000", "--seed", "9", "--jobs", "2"]
    process = subprocess.Popen(
        [ZOOSIM, "run", *args, "--backend", "processes", "--out", str(out), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "ZOOSIM_CHECKPOINT_SECONDS": "0.2"},
    )
    checkpoint = partial_path(out) / CHECKPOINT
    deadline = time.monotonic() + 120  # safety nets for a broken test, not measurements
    while not checkpoint.exists():
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    workers = _workers_of(process.pid)
    assert len(workers) == 2
    process.kill()
    process.wait(timeout=30)
    deadline = time.monotonic() + 60
    while any(_running(worker) for worker in workers):
        if time.monotonic() > deadline:
            for worker in workers:  # do not leave them behind
                with contextlib.suppress(OSError):
                    os.kill(worker, signal.SIGKILL)
            pytest.fail(f"worker processes {workers} outlived their killed run")
        time.sleep(0.1)
    assert checkpoint.is_file()


def test_files_and_folder_are_synced_around_each_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(descriptor: int) -> None:
        events.append(f"fsync {Path(os.readlink(f'/proc/self/fd/{descriptor}')).name}")
        real_fsync(descriptor)

    def replace(source, target) -> None:
        events.append(f"replace {Path(source).name} {Path(target).name}")
        real_replace(source, target)

    monkeypatch.setattr(storage.os, "fsync", fsync)
    monkeypatch.setattr(storage.os, "replace", replace)
    write_checkpoint(tmp_path, {"wins": np.arange(3)}, {"next_batch": 1, "games": 10})
    assert events == [
        "fsync .checkpoint.npz.tmp",
        "replace .checkpoint.npz.tmp checkpoint.npz",
        f"fsync {tmp_path.name}",
    ]


def test_ctrl_c_before_the_run_starts_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Interrupted while compiling: nothing to resume, so nothing kept and no resume hint."""

    def compiling(_request) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(simulation, "warm_up", compiling)
    code, _, err = run_cli(capsys, "run", *SMALL, "--out", tmp_path / "run")
    assert code == 130
    assert err == "zoosim: interrupted; nothing was written\n"
    assert list(tmp_path.iterdir()) == []


HELD_WHILE_COMPILING = (
    "import sys, time, pathlib; import zooanalysis.simulation as simulation; "
    "ready = pathlib.Path(sys.argv[1]); "
    "simulation.warm_up = lambda request: (ready.touch(), time.sleep(600)); "
    "from zooanalysis import cli; sys.exit(cli.main(sys.argv[2:]))"
)
"""``python -c HELD_WHILE_COMPILING READY zoosim-args``: ``zoosim`` that touches READY and
holds where it compiles (its folder reserved, nothing saved yet), to be killed there."""


def killed_while_compiling(tmp_path: Path, command: list[object]) -> None:
    """Run ``zoosim COMMAND`` and SIGKILL it while it compiles (its folder reserved)."""
    ready = tmp_path / "ready"
    process = subprocess.Popen(
        [ZOOSIM.with_name("python"), "-c", HELD_WHILE_COMPILING, ready, *map(str, command)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120  # a safety net for a broken test, not a measurement
    while not ready.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    process.kill()
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL


def test_a_run_killed_before_it_saved_anything_does_not_block_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGKILL between reserving the folder and writing the request (while compiling)
    leaves an empty working folder: it holds nothing to resume, so a new run to the name
    reclaims it, and --resume says so in one line instead of pointing at "kept work"."""
    out = tmp_path / "run"
    killed_while_compiling(tmp_path, ["run", *SMALL, "--out", out])
    assert partial_path(out).is_dir() and not any(partial_path(out).iterdir())
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, f"the run to {out} was stopped before it saved anything", "start it again")
    assert not partial_path(out).exists()

    killed_while_compiling(tmp_path, ["run", *SMALL, "--out", out])
    code, _, err = run_cli(capsys, "run", *SMALL, "--out", out)
    assert code == 0, err
    assert zooanalysis.load_run(out).games == 6000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ready", "run"]


def test_a_kept_checkpoint_is_never_reclaimed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only an empty working folder is reclaimed: one holding anything still refuses a new
    run to its name, and is left as it was."""
    out = tmp_path / "cut"
    interrupted_run(capsys, monkeypatch, out)
    (partial_path(out) / "request.json").unlink()  # a checkpoint alone is still kept work
    before = tree(partial_path(out))
    code, _, err = run_cli(capsys, "run", *SMALL, "--out", out)
    assert code == 2
    one_error_line(err, f"an interrupted run of {out} exists")
    assert tree(partial_path(out)) == before


# --- 7. tamper and version evidence --------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small finished run with per-game rows."""
    out = tmp_path_factory.mktemp("finished") / "run"
    args = ["run", *SMALL, "--rows", "--out", str(out)]
    assert zooanalysis.cli.main(args) == 0
    return out


def damaged_copy(source: Path, target: Path, damage: str) -> str:
    """A copy of the run ``source`` at ``target`` with one kind of damage; the name of the
    file the error must name."""
    shutil.copytree(source, target)
    manifest_path = target / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    if damage == "flipped table":
        flip_byte(target / "seats.parquet")
        return "seats.parquet"
    if damage == "truncated table":
        data = (target / "doubts.parquet").read_bytes()
        (target / "doubts.parquet").write_bytes(data[: len(data) // 2])
        return "doubts.parquet"
    if damage == "empty table":
        (target / "claims.parquet").write_bytes(b"")
        return "claims.parquet"
    if damage == "missing table":
        (target / "moves.parquet").unlink()
        return "moves.parquet"
    if damage == "games edited":  # and sealed again: the tables' counts still refuse it
        manifest["games"] = 9000
        manifest[storage.MANIFEST_SHA256] = storage.manifest_seal(manifest)
        manifest_path.write_text(json.dumps(manifest))
        return "seats.parquet"  # whose games no longer match
    if damage == "manifest edited":  # a seed changed by hand: nothing else would show it
        manifest["seed"] = 99
    if damage == "unknown format version":
        manifest["format_version"] = 99
    elif damage == "table from another run":
        other = zooanalysis.simulate(games=4000, seed=8, jobs=1)
        data = storage.parquet_bytes(other.table("seats"))
        (target / "seats.parquet").write_bytes(data)
        manifest["checksums"]["seats.parquet"] = storage.sha256(data)
        manifest[storage.MANIFEST_SHA256] = storage.manifest_seal(manifest)
        manifest_path.write_text(json.dumps(manifest))
        return "seats.parquet"
    elif damage == "no checksum":  # sealed again: the missing checksum still refuses it
        del manifest["checksums"]["points.parquet"]
        manifest[storage.MANIFEST_SHA256] = storage.manifest_seal(manifest)
    manifest_path.write_text(json.dumps(manifest))
    return "manifest.json"


DAMAGE = [
    "flipped table",
    "truncated table",
    "empty table",
    "missing table",
    "games edited",
    "manifest edited",
    "unknown format version",
    "table from another run",
    "no checksum",
]


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_run_folder_is_refused_by_name(
    damage: str, finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "run"
    file = damaged_copy(finished_run, target, damage)
    with pytest.raises(UserError) as refused:
        zooanalysis.load_run(target)
    assert str(target / file) in str(refused.value) and "\n" not in str(refused.value)
    for command in (
        ["show", target],
        ["report", target, "-o", tmp_path / "report"],
        ["compare", finished_run, target, "-o", tmp_path / "compared"],
    ):
        code, _, err = run_cli(capsys, *command)
        assert code == 2, err
        one_error_line(err, str(target / file))
    assert not (tmp_path / "report").exists() and not (tmp_path / "compared").exists()


@pytest.mark.parametrize("damage", ["flip", "missing", "extra"])
def test_damaged_game_rows_are_refused_by_name(
    damage: str, finished_run: Path, tmp_path: Path
) -> None:
    target = tmp_path / "run"
    shutil.copytree(finished_run, target)
    batch = target / "games" / "batch-000002.parquet"
    if damage == "flip":
        flip_byte(batch)
    elif damage == "missing":
        batch.unlink()
    else:
        shutil.copy(batch, target / "games" / "batch-000009.parquet")
        batch = target / "games" / "batch-000009.parquet"
    run = zooanalysis.load_run(target)  # the rows are checked when read
    with pytest.raises(UserError, match=str(batch)):
        run.game_rows()


def test_load_run_accepts_a_sound_folder_and_checks_every_table(finished_run: Path) -> None:
    run = zooanalysis.load_run(finished_run)
    manifest = run.manifest
    assert manifest["format_version"] == storage.FORMAT_VERSION
    files = {f"{name}.parquet" for name in manifest["tables"]} | {"rows_sha256.json"}
    assert set(manifest["checksums"]) == files
    for name, digest in manifest["checksums"].items():
        assert storage.sha256((finished_run / name).read_bytes()) == digest


# --- 8. smaller -------------------------------------------------------------------------------


def test_a_resumed_manifest_keeps_the_original_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut"
    monkeypatch.setattr("sys.argv", ["zoosim", "run", "--out", str(out), "(the first)"])
    interrupted_run(capsys, monkeypatch, out, batches=1)
    monkeypatch.setattr("sys.argv", ["zoosim", "run", "--resume", str(out), "(second)"])
    interrupted_run_again = interrupt_after
    with monkeypatch.context() as patch:
        interrupted_run_again(1, patch)
        assert run_cli(capsys, "run", "--resume", out, "--no-progress")[0] == 130
    monkeypatch.setattr("sys.argv", ["zoosim", "run", "--resume", str(out), "(third)"])
    assert run_cli(capsys, "run", "--resume", out, "--no-progress")[0] == 0
    manifest = zooanalysis.load_run(out).manifest
    assert manifest["command"][-1] == "(the first)"
    assert [command[-1] for command in manifest["resume_commands"]] == ["(second)", "(third)"]


def test_game_rows_stream_by_batch_and_filter(finished_run: Path) -> None:
    run = zooanalysis.load_run(finished_run)
    every = run.game_rows()
    assert len(every) == 6000 and list(every["game"]) == list(range(6000))
    batches = list(run.iter_game_rows())
    assert [len(frame) for frame in batches] == [1000] * 6
    column = next(c for c in every.columns if c != "game")
    picked = run.game_rows(columns=["game", column], filters=[("game", "<", 1500)])
    expected = every.loc[every["game"] < 1500, ["game", column]].reset_index(drop=True)
    assert picked.equals(expected)
    with pytest.raises(UserError, match="nonexistent"):
        run.game_rows(columns=["nonexistent"])
