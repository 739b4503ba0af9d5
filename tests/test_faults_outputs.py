"""Output folders: checked before any work, one writer, unique default names, honest bars.

Every command that writes (run, run --report-dir, report -o, tournament, sweep, tune)
refuses an output it cannot write in one line, exit 2, before playing a game and without
writing anything; sweeps refuse a foreign folder; two runs in one second get two names;
the progress bar of --until-ci and of a resumed run tells the truth.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from fault_helpers import (
    flip_byte,
    immutable,
    interrupt_after,
    one_error_line,
    read_only,
    run_cli,
    tree,
)

import zooanalysis
import zooanalysis.cli as cli_module
import zooanalysis.tuning as tuning
from zooanalysis.errors import UserError
from zooanalysis.progress import GameProgress
from zooanalysis.storage import output_lock, partial_path

SWEEP = """
game = "bluff"
[run]
players = "random,random,random"
games = "300"
seed = 4
[grid]
"settings.points_to_end" = [20, 30]
"""


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("finished") / "run"
    assert cli_module.main(["run", "--games", "1000", "--out", str(out), "--no-progress"]) == 0
    return out


def command_for(name: str, target: Path, tmp_path: Path, finished_run: Path) -> list[object]:
    """The command line of ``name`` writing to ``target``."""
    if name == "run":
        return ["run", "--games", "1000", "--out", target, "--no-progress"]
    if name == "run --report-dir":
        return [
            "run", "--games", "1000", "--out", tmp_path / "played", "--report-dir", target,
            "--no-progress",
        ]  # fmt: skip
    if name == "report -o":
        return ["report", finished_run, "-o", target]
    if name == "tournament":
        return [
            "tournament", "--strategies", "bayes,random", "--games", "4000", "--out", target,
            "--no-progress",
        ]  # fmt: skip
    if name == "sweep":
        sweep_file = tmp_path / "sweep-small.toml"
        sweep_file.write_text(SWEEP, encoding="utf-8")
        return ["sweep", sweep_file, "--out", target]
    assert name == "tune"
    return ["tune", "--strategy", "bayes", "--against", "random,random", "--out", target]


COMMANDS = ["run", "run --report-dir", "report -o", "tournament", "sweep", "tune"]


@contextlib.contextmanager
def unwritable(kind: str, tmp_path: Path):
    """Something nothing can be written in, of one kind; yields (it, an output path in it)."""
    if kind == "under a file":
        (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
        yield tmp_path / "a-file", tmp_path / "a-file" / "out"
    elif kind == "read-only folder":
        with read_only(tmp_path / "read-only") as folder:
            yield folder, folder / "out"
    else:
        with immutable(tmp_path / "immutable") as folder:
            yield folder, folder / "deeper" / "out"


@pytest.mark.parametrize("kind", ["under a file", "read-only folder", "immutable folder"])
@pytest.mark.parametrize("name", COMMANDS)
def test_an_output_that_cannot_be_written_is_refused_before_any_work(
    name: str,
    kind: str,
    tmp_path: Path,
    finished_run: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def no_games(*_args, **_kwargs):
        raise AssertionError("a game was played before the output was checked")

    monkeypatch.setattr("zooanalysis.runner.run_chunks", no_games)
    with unwritable(kind, tmp_path) as (blocker, target):
        command = command_for(name, target, tmp_path, finished_run)
        before = tree(tmp_path)
        code, out, err = run_cli(capsys, *command)
        assert code == 2, err
        assert out == ""
        one_error_line(err, f"cannot create {target}", str(blocker))
        assert tree(tmp_path) == before


def test_a_sweep_refuses_a_folder_that_is_not_its_own(
    tmp_path: Path, finished_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fault: a sweep wrote into a run folder, whose report became a sweep report."""
    sweep_file = tmp_path / "sweep-small.toml"
    sweep_file.write_text(SWEEP, encoding="utf-8")
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    before = tree(run)
    code, _, err = run_cli(capsys, "sweep", sweep_file, "--out", run)
    assert code == 2
    one_error_line(err, f"--out: {run} is not empty and holds no sweep")
    assert tree(run) == before
    zooanalysis.load_run(run)  # still the run it was

    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli(capsys, "sweep", sweep_file, "--out", empty)[0] == 0
    assert run_cli(capsys, "sweep", sweep_file, "--out", empty)[0] == 0  # its own: continues


def test_a_sweep_records_the_checksum_of_its_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep_file = tmp_path / "sweep-small.toml"
    sweep_file.write_text(SWEEP, encoding="utf-8")
    out = tmp_path / "sweep"
    assert run_cli(capsys, "sweep", sweep_file, "--out", out)[0] == 0
    spec = json.loads((out / "sweep.json").read_text())
    assert spec["format_version"] == 1
    from zooanalysis.storage import sha256

    assert spec["cells_sha256"] == sha256((out / "cells.parquet").read_bytes())
    assert not list(out.rglob(".*.tmp"))
    flip_byte(out / "cells.parquet")
    code, _, err = run_cli(capsys, "report", out, "-o", tmp_path / "report")
    assert code == 2
    one_error_line(err, str(out / "cells.parquet"), "damaged or changed")


def test_a_sweep_holds_its_folder_for_one_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep_file = tmp_path / "sweep-small.toml"
    sweep_file.write_text(SWEEP, encoding="utf-8")
    out = tmp_path / "sweep"
    with output_lock(out):
        code, _, err = run_cli(capsys, "sweep", sweep_file, "--out", out)
    assert code == 2
    one_error_line(err, f"{out} is being written by another zoosim process")
    assert not out.exists()


class FixedClock:
    """``datetime`` whose ``now()`` is always the same second."""

    @staticmethod
    def now() -> datetime:
        return datetime(2026, 11, 30, 9, 40, 20)


def test_two_runs_in_the_same_second_get_two_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli_module, "datetime", FixedClock)
    base = Path("runs/bluff-20261130-094020-seed1")
    code, out, err = run_cli(capsys, "run", "--games", "500", "--no-progress")
    assert code == 0, err
    assert f"Written to {base}/" in out
    # a second run while a third is still being written under the next name
    with output_lock(base.with_name(base.name + "-2")):
        partial_path(base.with_name(base.name + "-2")).mkdir()
        code, out, err = run_cli(capsys, "run", "--games", "500", "--no-progress")
    assert code == 0, err
    assert f"Written to {base}-3/" in out and "resume" not in err
    assert zooanalysis.load_run(base).games == zooanalysis.load_run(f"{base}-3").games == 500


def test_two_tournaments_in_the_same_second_get_two_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli_module, "datetime", FixedClock)
    args = ["tournament", "--strategies", "bayes,random", "--games", "4000", "--no-progress"]
    assert run_cli(capsys, *args)[0] == 0
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert "Written to runs/tournament-bluff-20261130-094020-seed1-2/" in out


class RecordedBar:
    """Records what the CLI tells the progress bar."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.totals: list[int | None] = []
        self.starts: list[int] = []
        self.targets: list[int] = []
        self.advanced = 0
        original_init = GameProgress.__init__
        recorder = self

        def init(bar, total, title, enabled=True):
            recorder.totals.append(total)
            original_init(bar, total, title, enabled)

        def advance(bar, games):
            recorder.advanced += games

        monkeypatch.setattr(GameProgress, "__init__", init)
        monkeypatch.setattr(GameProgress, "start_at", lambda bar, g: self.starts.append(g))
        monkeypatch.setattr(GameProgress, "retarget", lambda bar, g: self.targets.append(g))
        monkeypatch.setattr(GameProgress, "advance", advance)


def test_the_until_ci_bar_measures_progress_toward_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fault: 0% and a multi-hour eta measured against --max-games."""
    bar = RecordedBar(monkeypatch)
    args = ["--until-ci", "0.02", "--max-games", "1e7", "--batch-size", "500"]
    code, _, err = run_cli(capsys, "run", *args, "--out", tmp_path / "run", "--no-progress")
    assert code == 0, err
    games = zooanalysis.load_run(tmp_path / "run").games
    assert bar.totals == [None]  # not --max-games: unknown until the first batch
    assert len(bar.targets) == games // 500 and all(t <= 10**7 for t in bar.targets)
    assert bar.targets[-1] == games  # reached: the estimate is the games it took
    assert bar.targets[0] < 100 * games  # an estimate of the target, far below --max-games


def test_a_resumed_bar_starts_at_the_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fault: a resumed run's bar started at 0% and ended at 86%."""
    out = tmp_path / "cut"
    args = ["--games", "5000", "--batch-size", "1000", "--jobs", "1", "--no-progress"]
    with monkeypatch.context() as patch:
        interrupt_after(2, patch)
        assert run_cli(capsys, "run", *args, "--out", out)[0] == 130
    bar = RecordedBar(monkeypatch)
    assert run_cli(capsys, "run", "--resume", out, "--no-progress")[0] == 0
    assert bar.totals == [5000]
    assert bar.starts == [2000] and bar.advanced == 3000


def test_tune_writes_a_checked_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tuning, "GRID_POINTS", 2)  # a small search: four candidates
    out = tmp_path / "tuned"
    args = ["tune", "--strategy", "bayes", "--against", "random,random", "--games", "12000"]
    code, _, err = run_cli(capsys, *args, "--out", out)
    assert code == 0, err
    result = zooanalysis.load_run(out)
    assert isinstance(result, tuning.TuneResult)
    manifest = result.manifest
    assert manifest["kind"] == "tune" and manifest["format_version"] == 1
    assert set(manifest["checksums"]) == {"search.parquet", "final.parquet"}
    assert manifest["best"] == result.final().loc["best", "player"]
    code, text, err = run_cli(capsys, "show", out)
    assert code == 0, err
    assert "Best response gains" in text
    flip_byte(out / "final.parquet")
    code, _, err = run_cli(capsys, "show", out)
    assert code == 2
    one_error_line(err, str(out / "final.parquet"))


def test_a_tampered_tournament_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tournament"
    args = ["tournament", "--strategies", "bayes,random", "--games", "4000", "--no-progress"]
    assert run_cli(capsys, *args, "--out", out)[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format_version"] == 1
    assert set(manifest["checksums"]) == {f"{name}.parquet" for name in manifest["tables"]}
    zooanalysis.load_run(out)
    manifest["games"] += 2
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match=r"win_rates\.parquet: counts"):
        zooanalysis.load_run(out)
