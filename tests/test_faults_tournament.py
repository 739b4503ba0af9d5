"""Tournaments and tunings lose nothing: Ctrl-C, SIGTERM or a failure keeps their work.

``zoosim tournament`` and ``zoosim tune --out`` keep a checkpoint in ``.NAME.partial``
(the runs' machinery: ``request.json`` with its sha256, ``checkpoint.npz`` every few
seconds and whenever they stop), say how to continue in one line (exit 130, or 2 for a
failure), and ``--resume NAME`` continues to tables byte for byte those of an
uninterrupted one, for any workers and backend. A checkpoint of another request, a damaged
one or an edited request is refused in one line naming it, and kept as it was.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from fault_helpers import damage_checkpoint, run_cli, tree
from slow_job import TOURNAMENT_SCRIPT, TUNE_GRID_SCRIPT

import zooanalysis
import zooanalysis.simulation as simulation
import zooanalysis.tournament as tournament
import zooanalysis.tuning as tuning
from zooanalysis.games import get_game
from zooanalysis.storage import (
    CHECKPOINT,
    RunInterruptedError,
    load_checkpoint,
    partial_path,
    write_checkpoint,
)
from zooanalysis.strategy_spec import parse_lineup

TESTS = Path(__file__).resolve().parent
GAMES = 12_000
TOURNAMENT = ["--strategies", "bayes,random,cautious", "--games", str(GAMES), "--no-progress"]
"""Six lineups (every seat order of three) of 2,000 games: ten batches of 200 each."""
TUNE = ["--strategy", "bayes", "--against", "random,random", "--games", "12000"]
"""With ``tuning.GRID_POINTS = 2``: five candidates (the defaults and a 2 x 2 grid) over
three rounds (5, 3, 2) and the final (2): 36 evaluations (a candidate in one seat)."""
EVALUATIONS = 36


def one_error_line(err: str, *fragments: str, start: str = "zoosim: error: ") -> str:
    """stderr holds one line from zoosim, its last, starting with ``start`` and holding
    every fragment, after at most the plan and the rounds of a tuning; the line."""
    lines = err.splitlines()
    assert lines, "nothing on stderr"
    assert "Traceback" not in err
    assert all(line.startswith(("Plan: ", "  round ")) for line in lines[:-1]), err
    assert lines[-1].startswith(start), lines[-1]
    for fragment in fragments:
        assert fragment in lines[-1], f"{fragment!r} not in {lines[-1]!r}"
    return lines[-1]


def checksums(path: Path) -> dict[str, str]:
    """The sha256 of every table of the finished folder ``path`` (as its manifest says,
    checked by loading it)."""
    zooanalysis.load_run(path)
    return json.loads((path / "manifest.json").read_text())["checksums"]


def tournament_request(out: Path | None, seed: int = 4, jobs: int = 1, backend: str = "threads"):
    game = get_game("bluff")
    field = parse_lineup("bayes,random,cautious", game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), field[:1] * 3)
    return tournament.TournamentRequest(
        game=game, settings=settings, field=field, games=GAMES, seats=3, seed=seed,
        jobs=jobs, backend=backend, out=out,
    )  # fmt: skip


@pytest.fixture(scope="module")
def whole_tournament(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The tables' checksums of the tournament played without interruption (seed 4)."""
    out = tmp_path_factory.mktemp("tournament") / "whole"
    assert zooanalysis.cli.main(["tournament", *TOURNAMENT, "--seed", "4", "--out", str(out)]) == 0
    return checksums(out)


@pytest.fixture(scope="module")
def whole_tuning(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The tables' checksums of the small tuning played without interruption (seed 1)."""
    out = tmp_path_factory.mktemp("tuning") / "whole"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tuning, "GRID_POINTS", 2)
        assert zooanalysis.cli.main(["tune", *TUNE, "--out", str(out)]) == 0
    return checksums(out)


def interrupt_tournament_after(games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make tournaments raise KeyboardInterrupt (as Ctrl-C does) once ``games`` games are
    played (counted per chunk), with a checkpoint after every chunk."""
    monkeypatch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
    original = tournament.run_tournament

    def run_tournament(request, on_progress=None, **options):
        played = [0]

        def progress(chunk_games: int) -> None:
            played[0] += chunk_games
            if played[0] >= games:
                raise KeyboardInterrupt

        return original(request, on_progress=progress, **options)

    monkeypatch.setattr(tournament, "run_tournament", run_tournament)


def interrupted_tournament(capsys, monkeypatch, out: Path, games: int, seed: int = 4) -> dict:
    """A ``zoosim tournament`` to ``out`` stopped by Ctrl-C after ``games`` games: exit 130,
    one line saying how to continue, the checkpoint kept; returns its state."""
    with monkeypatch.context() as patch:
        interrupt_tournament_after(games, patch)
        code, text, err = run_cli(capsys, "tournament", *TOURNAMENT, "--seed", seed, "--out", out)
    assert code == 130, err
    line = one_error_line(err, start="zoosim: interrupted; no results were written.")
    assert line.endswith(
        f"Continue it with: zoosim tournament --resume {out} (or delete the kept work with "
        f"rm -r {partial_path(out)})"
    )
    assert text == "" and not out.exists()
    return load_checkpoint(partial_path(out)).state


def interrupted_tuning(capsys, monkeypatch, out: Path, evaluations: int, *extra: str) -> dict:
    """A ``zoosim tune`` to ``out`` stopped by Ctrl-C in its evaluation number
    ``evaluations``; returns the kept checkpoint's state."""
    monkeypatch.setattr(tuning, "GRID_POINTS", 2)
    with monkeypatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        real = simulation.run_simulation
        calls = [0]

        def run_simulation(*args, **options):
            calls[0] += 1
            if calls[0] == evaluations:
                raise KeyboardInterrupt
            return real(*args, **options)

        patch.setattr(simulation, "run_simulation", run_simulation)
        code, _, err = run_cli(capsys, "tune", *TUNE, *extra, "--out", out)
    assert code == 130, err
    one_error_line(err, f"Continue it with: zoosim tune --resume {out} ", start="zoosim: interr")
    return load_checkpoint(partial_path(out)).state


def interrupted_one(command: str, capsys, monkeypatch, out: Path) -> list[object]:
    """An interrupted ``command`` ("tournament": 2,500 games each; "tune": 5 evaluations)
    at ``out``; returns the command line that resumes it."""
    if command == "tournament":
        interrupted_tournament(capsys, monkeypatch, out, 2_500)
        return ["tournament", "--resume", out, "--no-progress"]
    interrupted_tuning(capsys, monkeypatch, out, 5)
    return ["tune", "--resume", out]


# --- Ctrl-C, then --resume: the same tables -----------------------------------------------------


@pytest.mark.parametrize(
    ("stop", "jobs"),
    [
        (700, 1),
        (5_100, 2),
        (GAMES - 10, 1),
        pytest.param(700, 2, marks=pytest.mark.slow),
        pytest.param(5_100, 1, marks=pytest.mark.slow),
        pytest.param(GAMES - 10, 2, marks=pytest.mark.slow),
    ],
)
def test_an_interrupted_tournament_resumes_to_the_same_tables(
    stop: int,
    jobs: int,
    whole_tournament: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Stopped inside the first lineup, a later one, the last batch; resumed with 1 or 2
    workers: every table byte for byte the uninterrupted one's."""
    out = tmp_path / "cut"
    state = interrupted_tournament(capsys, monkeypatch, out, stop)
    assert stop <= state["games"] <= GAMES
    assert state["lineup"] == min(state["games"], GAMES - 1) // 2000
    code, text, err = run_cli(
        capsys, "tournament", "--resume", out, "--jobs", jobs, "--no-progress"
    )
    assert code == 0, err
    assert f"Written to {out}/" in text
    assert checksums(out) == whole_tournament
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut"]  # no checkpoint left over
    assert not {"request.json", CHECKPOINT} & {p.name for p in out.iterdir()}


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")
@pytest.mark.parametrize(
    ("jobs", "backend"),
    [
        pytest.param(2, "threads", id="threads-2"),
        pytest.param(2, "processes", id="processes-2", marks=pytest.mark.slow),
        pytest.param(1, "processes", id="processes-1", marks=pytest.mark.slow),
    ],
)
def test_a_tournament_interrupted_on_any_backend_resumes_to_the_same_tables(
    jobs: int, backend: str, whole_tournament: dict[str, str], tmp_path: Path
) -> None:
    """From Python, on the threads and processes backends: stopped and resumed with the
    same workers, the same tables as the uninterrupted tournament (one thread)."""
    out = tmp_path / "cut"
    played = [0]

    def stop_midway(games: int) -> None:
        played[0] += games
        if played[0] >= 3_300:
            raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        with pytest.raises(RunInterruptedError, match="zoosim tournament --resume"):
            tournament.run_tournament(tournament_request(out, 4, jobs, backend), stop_midway)
    kept = load_checkpoint(partial_path(out)).state["games"]
    assert 3_300 <= kept < GAMES
    starts: list[int] = []
    resumed = tournament.run_tournament(
        tournament_request(out, 4, jobs, backend), resume=True, on_start=starts.append
    )
    assert starts == [kept]  # the progress bar starts where the checkpoint is
    assert resumed.path == out and checksums(out) == whole_tournament


@pytest.mark.parametrize(
    "stop",
    [
        pytest.param(3, marks=pytest.mark.slow),
        20,
        pytest.param(EVALUATIONS, marks=pytest.mark.slow),
    ],
)
def test_an_interrupted_tuning_resumes_to_the_same_tables(
    stop: int,
    whole_tuning: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Stopped in the first round, the second, the final comparison's last evaluation:
    the evaluations before are kept, and the resumed search writes the same tables."""
    out = tmp_path / "cut"
    state = interrupted_tuning(capsys, monkeypatch, out, stop)
    assert state["evaluations"] == stop - 1
    code, text, err = run_cli(capsys, "tune", "--resume", out, "--jobs", 2)
    assert code == 0, err
    assert f"Written to {out}/" in text
    assert checksums(out) == whole_tuning
    assert not {"request.json", CHECKPOINT} & {p.name for p in out.iterdir()}


# --- real signals ---------------------------------------------------------------------------


def start_slowed(script: str, seconds_per_game: float, *args: object) -> subprocess.Popen:
    """``zoosim ARGS`` with slowed-down batches (``slow_job``), in its own process group
    (as a terminal runs it), checkpointing every 0.2 s."""
    paths = [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "ZOOSIM_CHECKPOINT_SECONDS": "0.2",
    }
    return subprocess.Popen(
        [sys.executable, "-c", script, str(seconds_per_game), *map(str, args)],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stop_with(process: subprocess.Popen, out: Path, signum: int, command: str) -> dict:
    """Wait for the first checkpoint, send ``signum`` (SIGINT to the process group, as
    Ctrl-C does); the command must exit 130 in one line saying how to continue, keeping
    its checkpoint. Returns the checkpoint's state."""
    checkpoint = partial_path(out) / CHECKPOINT
    deadline = time.monotonic() + 120  # a safety net for a broken test, not a measurement
    while not checkpoint.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    one_error_line(stderr, f"Continue it with: {command} --resume {out} ", start="zoosim: interr")
    assert "Written to" not in stdout and not out.exists()
    return load_checkpoint(partial_path(out)).state


@pytest.mark.parametrize(
    "signum",
    [
        pytest.param(signal.SIGINT, id="ctrl-c"),
        pytest.param(signal.SIGTERM, id="sigterm", marks=pytest.mark.slow),
    ],
)
def test_a_signal_mid_tournament_keeps_it_and_resume_finishes_it(
    signum: int,
    whole_tournament: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cut"
    process = start_slowed(
        TOURNAMENT_SCRIPT, 0.002, "tournament", *TOURNAMENT, "--seed", 4, "--jobs", 1,
        "--out", out,
    )  # fmt: skip
    state = stop_with(process, out, signum, "zoosim tournament")
    assert 0 < state["games"] < GAMES
    code, _, err = run_cli(capsys, "tournament", "--resume", out, "--no-progress")
    assert code == 0, err
    assert checksums(out) == whole_tournament


@pytest.mark.slow
def test_a_killed_tournament_resumes_from_its_last_checkpoint(
    whole_tournament: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGKILL (no chance to save): the last periodic checkpoint is kept, and resuming
    from it plays again only what came after, to the same tables."""
    out = tmp_path / "cut"
    process = start_slowed(
        TOURNAMENT_SCRIPT, 0.002, "tournament", *TOURNAMENT, "--seed", 4, "--jobs", 1,
        "--out", out,
    )  # fmt: skip
    checkpoint = partial_path(out) / CHECKPOINT
    deadline = time.monotonic() + 120  # a safety net for a broken test, not a measurement
    while not checkpoint.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    time.sleep(1)
    process.kill()
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL and not out.exists()
    assert 0 < load_checkpoint(partial_path(out)).state["games"] < GAMES
    code, _, err = run_cli(capsys, "tournament", "--resume", out, "--no-progress")
    assert code == 0, err
    assert checksums(out) == whole_tournament


@pytest.mark.parametrize(
    "signum",
    [
        pytest.param(signal.SIGINT, id="ctrl-c", marks=pytest.mark.slow),
        pytest.param(signal.SIGTERM, id="sigterm"),
    ],
)
def test_a_signal_mid_tune_keeps_it_and_resume_finishes_it(
    signum: int,
    whole_tuning: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cut"
    process = start_slowed(TUNE_GRID_SCRIPT, 0.001, "tune", *TUNE, "--jobs", 1, "--out", out)
    state = stop_with(process, out, signum, "zoosim tune")
    assert 0 < state["evaluations"] < EVALUATIONS
    monkeypatch.setattr(tuning, "GRID_POINTS", 2)
    code, _, err = run_cli(capsys, "tune", "--resume", out)
    assert code == 0, err
    assert checksums(out) == whole_tuning


# --- a failure keeps the work too ---------------------------------------------------------------


def test_a_failure_mid_tournament_keeps_the_checkpoint_and_is_one_line(
    whole_tournament: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A full disk (here: a batch job failing with ENOSPC in the third lineup) is one line,
    exit 2, naming the cause and how to continue; the games before it are kept."""
    out = tmp_path / "cut"
    real = tournament.pairwise_job
    lineups = [0]

    def failing_in_the_third_lineup(*args):
        job = real(*args)
        lineups[0] += 1
        if lineups[0] < 4:  # the first call checks the checkpoint's shapes
            return job

        def fail(*_args, **_options):
            raise OSError(errno.ENOSPC, "No space left on device", "/tmp/somewhere")

        return fail

    with monkeypatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        patch.setattr(tournament, "pairwise_job", failing_in_the_third_lineup)
        code, _, err = run_cli(capsys, "tournament", *TOURNAMENT, "--seed", 4, "--out", out)
    assert code == 2
    one_error_line(
        err, "No space left on device", "the work so far is kept",
        f"zoosim tournament --resume {out}",
    )  # fmt: skip
    assert load_checkpoint(partial_path(out)).state["games"] == 4000
    assert run_cli(capsys, "tournament", "--resume", out, "--no-progress")[0] == 0
    assert checksums(out) == whole_tournament


# --- a checkpoint that does not belong ------------------------------------------------------------


def test_a_tournament_checkpoint_of_another_request_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed4, seed5 = tmp_path / "seed4", tmp_path / "seed5"
    interrupted_tournament(capsys, monkeypatch, seed4, 2_500, seed=4)
    interrupted_tournament(capsys, monkeypatch, seed5, 2_500, seed=5)
    foreign = partial_path(seed5) / CHECKPOINT
    shutil.copyfile(partial_path(seed4) / CHECKPOINT, foreign)
    before = tree(partial_path(seed5))
    data = foreign.read_bytes()
    code, text, err = run_cli(capsys, "tournament", "--resume", seed5, "--no-progress")
    assert code == 2 and "Written" not in text
    one_error_line(err, str(foreign), "belongs to another request", "seed: 4, here 5",
                   f"rm -r {partial_path(seed5)}")  # fmt: skip
    assert tree(partial_path(seed5)) == before and foreign.read_bytes() == data


def test_a_tuning_checkpoint_of_another_request_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed1, seed2 = tmp_path / "seed1", tmp_path / "seed2"
    interrupted_tuning(capsys, monkeypatch, seed1, 5)
    interrupted_tuning(capsys, monkeypatch, seed2, 5, "--seed", "2")
    foreign = partial_path(seed2) / CHECKPOINT
    shutil.copyfile(partial_path(seed1) / CHECKPOINT, foreign)
    data = foreign.read_bytes()
    code, _, err = run_cli(capsys, "tune", "--resume", seed2)
    assert code == 2
    one_error_line(err, str(foreign), "belongs to another request", "seed: 1, here 2")
    assert foreign.read_bytes() == data


@pytest.mark.parametrize("command", ["tournament", "tune"])
@pytest.mark.parametrize("damage", ["truncate", "empty", "flip"])
def test_a_damaged_checkpoint_is_refused_and_kept(
    command: str,
    damage: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cut"
    resume = interrupted_one(command, capsys, monkeypatch, out)
    checkpoint = partial_path(out) / CHECKPOINT
    damaged = damage_checkpoint(checkpoint, damage)
    code, text, err = run_cli(capsys, *resume)
    assert code == 2 and "Written" not in text
    one_error_line(err, str(checkpoint), "damaged", f"rm -r {partial_path(out)}")
    assert checkpoint.read_bytes() == damaged  # kept as it was: only the user deletes it


def test_a_tournament_checkpoint_whose_clusters_do_not_add_up_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Counts and position intact, one bootstrap cluster changed: the ratings' intervals
    would silently come from other games, so it is refused by name."""
    out = tmp_path / "cut"
    interrupted_tournament(capsys, monkeypatch, out, 5_100)
    folder = partial_path(out)
    checkpoint = load_checkpoint(folder)
    totals = dict(checkpoint.totals)
    totals["cluster/ahead"] = totals["cluster/ahead"].copy()
    totals["cluster/ahead"][0, 0, 1] += 1
    write_checkpoint(folder, totals, checkpoint.state, checkpoint.batch_counts or None)
    code, _, err = run_cli(capsys, "tournament", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, str(folder / CHECKPOINT), "bootstrap clusters", "do not fit")

    state = dict(checkpoint.state, games=checkpoint.state["games"] + 1)
    write_checkpoint(folder, checkpoint.totals, state, checkpoint.batch_counts or None)
    code, _, err = run_cli(capsys, "tournament", "--resume", out, "--no-progress")
    assert code == 2
    one_error_line(err, str(folder / CHECKPOINT), "never give")


@pytest.mark.parametrize("command", ["tournament", "tune"])
def test_an_edited_request_json_is_refused(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cut"
    resume = interrupted_one(command, capsys, monkeypatch, out)
    request_file = partial_path(out) / "request.json"
    stored = json.loads(request_file.read_text())
    seed = stored["request"]["seed"]
    stored["request"]["seed"] = seed + 1  # the plan stays the same: only the seed tells
    request_file.write_text(json.dumps(stored))
    code, _, err = run_cli(capsys, *resume)
    assert code == 2
    one_error_line(err, str(request_file), "was changed")

    # an editor who also rewrites the checksum is stopped by the checkpoint's own record
    stored["sha256"] = simulation.request_sha256(stored["request"])
    request_file.write_text(json.dumps(stored))
    code, _, err = run_cli(capsys, *resume)
    assert code == 2
    one_error_line(err, str(partial_path(out) / CHECKPOINT), f"seed: {seed}, here {seed + 1}")


# --- the command line around it ----------------------------------------------------------------


@pytest.mark.parametrize("command", ["tournament", "tune"])
def test_a_new_one_refuses_the_folder_of_an_interrupted_one(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cut"
    interrupted_one(command, capsys, monkeypatch, out)
    again = [command, *(TOURNAMENT if command == "tournament" else TUNE), "--out", out]
    before = tree(partial_path(out))
    code, _, err = run_cli(capsys, *again)
    assert code == 2
    one_error_line(err, f"an interrupted run of {out} exists", f"zoosim {command} --resume {out}")
    assert tree(partial_path(out)) == before


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["tournament", "--seed", "5"], "--seed"),
        (["tournament", "--strategies", "bayes,random", "--games", "1e5"], "--strategies, --games"),
        (["tune", "--against", "random,random", "--seed", "2"], "--against, --seed"),
    ],
)
def test_resume_with_options_that_fix_the_results_is_one_line(
    args: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, *args, "--resume", tmp_path / "cut")
    assert code == 2
    one_error_line(err, f"--resume: {named} cannot change an interrupted")


@pytest.mark.parametrize("command", ["tournament", "tune"])
def test_resume_without_an_interrupted_one_is_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, command, "--resume", tmp_path / "none")
    assert code == 2
    one_error_line(err, f"no interrupted {'tuning' if command == 'tune' else command}")
    assert list(tmp_path.iterdir()) == []


def test_a_tournament_checkpoint_holds_the_clusters_of_the_batches_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Invariant of what is kept: one cluster row per batch of deals played so far, whose
    sums are the counts of every finished batch, and the seat-games add up to the games."""
    out = tmp_path / "cut"
    state = interrupted_tournament(capsys, monkeypatch, out, 2_500)
    checkpoint = load_checkpoint(partial_path(out))
    totals = checkpoint.totals
    assert state["lineup"] == 1 and totals["cluster/ahead"].shape == (10, 3, 3)
    np.testing.assert_array_equal(totals["cluster/ahead"].sum(axis=0), totals["ahead"])
    finished = state["games"] - state["batch_games"]
    assert totals["seat_played"].sum() == 3 * finished
    under_way = checkpoint.batch_counts
    assert state["batch_games"] == 0 or under_way["seat_played"].sum() == 3 * state["batch_games"]
