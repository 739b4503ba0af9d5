"""Interrupted runs continue with `zoosim run --resume RUN_DIR` to the same results."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
import zooanalysis.simulation as simulation
from zooanalysis import cli
from zooanalysis.storage import RunInterruptedError, partial_path

ZOOSIM = str(Path(sys.executable).parent / "zoosim")


def cli_run(*args: object) -> int:
    return cli.main(["run", *(str(a) for a in args), "--no-progress"])


def interrupt_after(batches: int, monkeypatch: pytest.MonkeyPatch, batch_size: int = 1000) -> None:
    """Make the run raise KeyboardInterrupt (as Ctrl-C does) once ``batches`` whole batches
    of ``batch_size`` games are played (progress comes per chunk, within batches)."""
    finished: list[int] = []
    original = simulation.run_simulation

    def run_simulation(request, on_progress=None, resume=False, **options):
        def progress(games: int) -> None:
            finished.append(games)
            if sum(finished) == batches * batch_size:
                raise KeyboardInterrupt

        return original(request, on_progress=progress, resume=resume, **options)

    monkeypatch.setattr(simulation, "run_simulation", run_simulation)


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")
@pytest.mark.parametrize("extra", [[], ["--rows"], ["--until-ci", "0.01"]])
def test_ctrl_c_then_resume_gives_the_uninterrupted_results(
    extra: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    size = ["--batch-size", "1000", "--seed", "4"]
    games = [] if "--until-ci" in extra else ["--games", "9500"]
    assert cli_run(*games, *size, *extra, "--out", tmp_path / "whole") == 0

    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)  # a checkpoint after every chunk
        interrupt_after(3, patch)
        assert cli_run(*games, *size, *extra, "--jobs", "1", "--out", out) == 130
    assert (partial_path(out) / "checkpoint.npz").is_file()
    assert f"--resume {out}" in capsys.readouterr().err
    assert not out.exists() and partial_path(out).is_dir()

    assert cli_run("--resume", out, "--jobs", "2") == 0
    assert not partial_path(out).exists()
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))
    if "--rows" in extra:
        assert game_rows(tmp_path / "whole").equals(game_rows(out))


def game_rows(path: Path):
    """The run's per-game rows in game order."""
    return zooanalysis.load_run(path).game_rows().sort_values("game").reset_index(drop=True)


def test_a_killed_process_resumes_to_the_same_results(tmp_path: Path) -> None:
    size = ["--games", "240000", "--batch-size", "2000", "--seed", "9"]
    out = tmp_path / "killed"
    environment = {**os.environ, "ZOOSIM_CHECKPOINT_SECONDS": "0.2"}
    process = subprocess.Popen(
        [ZOOSIM, "run", *size, "--out", str(out), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    deadline = time.monotonic() + 60
    checkpoint = partial_path(out) / "checkpoint.npz"
    while not checkpoint.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert not out.exists() and checkpoint.exists()

    assert cli_run("--resume", out) == 0
    assert cli_run(*size, "--out", tmp_path / "whole") == 0
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))


def test_an_interrupted_run_from_python_raises_and_keeps_its_checkpoint(tmp_path: Path) -> None:
    from zooanalysis.games import get_game
    from zooanalysis.strategy_spec import parse_lineup

    game = get_game("bluff")
    lineup = parse_lineup("random,random,random", game.strategies)
    request = simulation.RunRequest(
        game=game,
        settings=game.settings_for_lineup(game.settings_from_table({}), lineup),
        lineup=lineup,
        games=5000,
        seed=2,
        batch_size=1000,
        out=tmp_path / "run",
    )

    def stop_after_two(games: int, seen: list[int] = []) -> None:  # noqa: B006
        seen.append(games)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(RunInterruptedError, match="--resume"):
        simulation.run_simulation(request, on_progress=stop_after_two)
    again = simulation.resume_request(tmp_path / "run", jobs=1)
    assert again.games == 5000 and again.seed == 2 and again.batch_size == 1000
    assert simulation.run_simulation(again, resume=True).games == 5000


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--resume", "{out}", "--games", "100"], "--resume: --games cannot change"),
        (
            ["--resume", "{out}", "--seed", "3", "--players", "random,random"],
            "--resume: --players, --seed cannot change",
        ),
        (["--resume", "{missing}"], "--resume: no interrupted run to continue"),
    ],
)
def test_bad_resume_input_is_one_line(
    args: list[str],
    fragment: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        interrupt_after(1, patch)
        cli_run("--games", "3000", "--batch-size", "1000", "--jobs", "1", "--out", out)
    capsys.readouterr()
    filled = [a.format(out=out, missing=tmp_path / "missing") for a in args]
    assert cli_run(*filled) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err


def test_a_new_run_refuses_to_overwrite_an_interrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        interrupt_after(1, patch)
        cli_run("--games", "3000", "--batch-size", "1000", "--jobs", "1", "--out", out)
    capsys.readouterr()
    assert cli_run("--games", "3000", "--out", out) == 2
    assert f"continue it with zoosim run --resume {out}" in capsys.readouterr().err


def test_a_checkpoint_keeps_counts_and_position_in_one_file(tmp_path: Path) -> None:
    """One file replaced at once: a kill can never pair new counts with an old position,
    nor the counts of the batch under way with those of the finished batches."""
    import numpy as np

    from zooanalysis.storage import load_checkpoint, read_checkpoint, write_checkpoint

    totals = {"wins": np.array([3, 4]), "rotation0/wins": np.array([[1, 2]])}
    under_way = {"wins": np.array([1, 0]), "rotation0/wins": np.array([[0, 1]])}
    state = {"next_batch": 7, "batch_games": 120, "games": 7120, "wall_seconds": 1.5}
    write_checkpoint(tmp_path, totals, state, under_way)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint.npz"]
    loaded = load_checkpoint(tmp_path)
    assert loaded.state == state
    for saved, kept in ((totals, loaded.totals), (under_way, loaded.batch_counts)):
        assert sorted(kept) == sorted(saved)
        for key, value in saved.items():
            np.testing.assert_array_equal(kept[key], value)
    assert read_checkpoint(tmp_path)[1] == state
    write_checkpoint(tmp_path, totals, {"next_batch": 8, "games": 8000})  # between batches
    assert load_checkpoint(tmp_path).batch_counts == {}
    assert load_checkpoint(tmp_path).state["batch_games"] == 0
