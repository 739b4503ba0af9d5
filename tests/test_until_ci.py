"""`zoosim run --until-ci`: stop when every win rate is known to within the target."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.stats import wilson_interval
from zooanalysis.stopping import win_rate_half_widths

BATCH = 2000
TARGET = 0.01


def run(out: Path, *args: object) -> Path:
    code = cli.main(
        [
            "run",
            *(str(a) for a in args),
            "--out",
            str(out),
            "--no-progress",
            "--batch-size",
            str(BATCH),
            "--seed",
            "3",
        ]
    )
    assert code == 0
    return out


def widths_of(path: Path) -> np.ndarray:
    loaded = zooanalysis.load_run(path)
    seats = loaded.table("seats")
    return win_rate_half_widths(
        int(seats["games"].iloc[0]),
        seats["wins"].to_numpy(),
        list(seats["strategy"]),
        seats["share_sum"].to_numpy(),
    )


@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run(tmp_path_factory.mktemp("until") / "run", "--until-ci", TARGET)


def test_the_run_stops_at_the_first_batch_that_reaches_the_target(
    stopped: Path, tmp_path: Path
) -> None:
    manifest = json.loads((stopped / "manifest.json").read_text())
    games = manifest["games"]
    assert manifest["until_ci"] == {
        "target_half_width": TARGET,
        "max_games": 100_000_000,
        "reached": True,
    }
    assert games % BATCH == 0 and games > BATCH
    assert np.all(widths_of(stopped) <= TARGET)
    one_batch_less = run(tmp_path / "shorter", "--games", games - BATCH)
    assert not np.all(widths_of(one_batch_less) <= TARGET)


def test_a_stopped_run_equals_a_fixed_run_of_the_same_games(stopped: Path, tmp_path: Path) -> None:
    games = json.loads((stopped / "manifest.json").read_text())["games"]
    fixed = run(tmp_path / "fixed", "--games", games)
    assert_same_tables(tables_of(stopped), tables_of(fixed))


@pytest.mark.parametrize(
    "options", [["--jobs", "1"], ["--jobs", "2"], ["--jobs", "2", "--backend", "processes"]]
)
def test_same_seed_and_target_give_the_same_games_for_any_workers(
    stopped: Path, tmp_path: Path, options: list[str]
) -> None:
    again = run(tmp_path / "again", "--until-ci", TARGET, *options)
    assert_same_tables(tables_of(stopped), tables_of(again))


def test_max_games_caps_the_run_and_the_summary_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run(tmp_path / "capped", "--until-ci", 0.0005, "--max-games", 5000)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["games"] == 5000
    assert manifest["until_ci"]["reached"] is False
    text = capsys.readouterr().out
    assert (
        "Stopped at --max-games 5,000 before every win rate's 95% CI was at most 0.05 "
        "percentage points wide on each side" in text
    )
    assert "+-" not in text and "±" not in text


def test_half_widths_cover_every_seat_and_every_shared_strategy() -> None:
    widths = win_rate_half_widths(
        1000, np.array([300, 200, 400, 100]), ["bayes", "bayes", "cautious", "random"]
    )
    low, high = wilson_interval(
        np.array([300, 200, 400, 100, 500]), np.array([1000, 1000, 1000, 1000, 2000])
    )
    np.testing.assert_allclose(widths, (high - low) / 2)
    # with win shares (ties split) their intervals count too, after the games won
    shares = np.array([250.0, 180.5, 390.25, 99.0])
    both = win_rate_half_widths(
        1000, np.array([300, 200, 400, 100]), ["bayes", "bayes", "cautious", "random"], shares
    )
    low, high = wilson_interval(
        np.array([250.0, 180.5, 390.25, 99.0, 430.5]), np.array([1000] * 4 + [2000])
    )
    np.testing.assert_allclose(both[:5], widths)
    np.testing.assert_allclose(both[5:], (high - low) / 2)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--until-ci", "0"], "--until-ci: 0.0 is not allowed"),
        (["--until-ci", "0.6"], "--until-ci: 0.6 is not allowed"),
        (["--until-ci", "0.01", "--games", "100"], "--games and --until-ci: give one of them"),
        (["--max-games", "100"], "--max-games: only used with --until-ci"),
        (["--until-ci", "0.01", "--max-games", "0"], "--max-games: '0' is not allowed"),
    ],
)
def test_bad_until_ci_input_is_one_line(
    args: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["run", *args, "--out", str(tmp_path / "never"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("zoosim: error: ") and fragment in err
    assert not (tmp_path / "never").exists()
