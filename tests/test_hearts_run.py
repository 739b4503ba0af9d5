"""Hearts through the shared runner, storage, CLI and report: the tables add up, the
analyses agree with them, the report's findings are the run's numbers, and bad input is one
line with exit code 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from report_helpers import assert_report_reads_right
from run_helpers import game_run, zoosim

from zooanalysis.games.hearts.analysis import HeartsRun

GAMES = 1500
SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def hearts_run(out: Path, *args: object) -> HeartsRun:
    return game_run(out, "hearts", *args, kind=HeartsRun)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[HeartsRun, Path]:
    """The lineup that was the default before issue 18 (three strategies, for the analyses
    by strategy), 1,500 games (matches to 100), and its report."""
    folder = tmp_path_factory.mktemp("hearts")
    run = hearts_run(folder / "run", "--players", "safe,bold,safe,random", "--games", GAMES,
                     "--seed", 4, "--batch-size", 400)  # fmt: skip
    assert zoosim("report", folder / "run", "-o", folder / "report") == 0
    return run, folder / "report"


def test_counts_add_up(base) -> None:
    run, _ = base
    seats = run.table("seats")
    hands = run.hands_played
    assert (seats["games"] == GAMES).all() and (seats["hands"] == hands).all()
    assert int(run.table("hands").eval("hands * games").sum()) == hands
    assert int(run.table("queen_fate")["hands"].sum()) == hands  # one Queen every hand
    assert seats["queen_taken"].sum() == seats["queen_held"].sum() == hands
    assert int(run.table("hand_points")["hands"].sum()) == 4 * hands
    total = int(seats["hand_points_sum"].sum())
    assert total == 26 * hands + 52 * int(seats["moons"].sum())  # others take 26 on a moon
    assert int(seats["points_sum"].sum()) == total  # a game's points are its hands'
    assert int(run.table("end_reasons")["games"].sum()) == GAMES


def test_analyses_agree_with_the_tables(base) -> None:
    run, _ = base
    points = run.hand_points("seat")
    assert list(points.index) == [1, 2, 3, 4]
    seats = run.table("seats")
    expected = seats.loc[0, "hand_points_sum"] / run.hands_played
    assert points.loc[1, "mean"] == pytest.approx(expected)
    moons = run.moon_rates("strategy")
    assert set(moons.index) == {"safe", "bold", "random"}
    assert (moons["ci_low"] <= moons["rate"]).all() and (moons["rate"] <= moons["ci_high"]).all()
    assert moons.loc["safe", "n"] == 2 * run.hands_played
    queen = run.queen_rates("seat")
    assert queen["taken"].sum() == pytest.approx(1.0)
    fate = run.queen_fate()
    assert fate["holder"].min() >= 1 and fate.groupby("holder")["rate"].sum().round(9).eq(1).all()
    tricks = run.queen_tricks()
    assert tricks["rate"].sum() == pytest.approx(1.0) and tricks.index.min() >= 1
    directions = run.direction_points()
    assert set(directions.index.get_level_values(0)) == {"left", "right", "across", "hold"}
    length = run.game_length()
    assert length["ci_low"] < length["mean"] < length["ci_high"]


def test_summary_and_metrics(base) -> None:
    run, _ = base
    text = run.summary()
    for fragment in ("shot the moon", "hands per game", "Points per hand by seat", "Queen"):
        assert fragment in text
    assert "±" not in text
    metrics = run.metrics()
    for key in ("moon_rate", "moon_ci_low", "seat1_hand_points", "seat4_hand_points_ci_high"):
        assert key in metrics, key


def test_report_findings_are_the_runs_numbers(base) -> None:
    run, report = base
    findings = pd.read_csv(report / "tables" / "findings.csv").set_index("key")
    moon = run.moon_rate()
    assert findings.loc["moon_rate", "value"] == pytest.approx(moon.rate)
    assert findings.loc["moon_rate", "n"] == run.hands_played
    assert findings.loc["hands_per_game", "value"] == pytest.approx(run.game_length()["mean"])
    for name in ("hearts_points", "hearts_queen", "hearts_seats"):
        assert (report / "figures" / f"{name}.png").is_file()
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "Hearts: the Queen of Spades" in html
    assert_report_reads_right(report)


def test_one_hand_games_and_omnibus_run_and_report(tmp_path: Path) -> None:
    one = hearts_run(tmp_path / "one", "--scenario", SIMULATIONS / "hearts-one-hand.toml",
                     "--games", 2000, "--seed", 3)  # fmt: skip
    assert one.hands_played == 2000 and one.rules().passing == "hold"
    assert set(one.direction_points().index.get_level_values(0)) == {"hold"}
    omnibus_file = SIMULATIONS / "hearts-omnibus.toml"
    omnibus = hearts_run(tmp_path / "omnibus", "--scenario", omnibus_file, "--games", 300,
                         "--seed", 3)  # fmt: skip
    assert (omnibus.table("hand_points")["points"] < 0).any()  # the Jack of Diamonds
    assert zoosim("report", tmp_path / "omnibus", "-o", tmp_path / "omnibus-report") == 0
    assert_report_reads_right(tmp_path / "omnibus-report")


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--players", "random*5"], ["players", "4"]),
        (["--players", "bold:moon_at=99,random*3"], ["moon_at", "0 to 13"]),
        (["--players", "safe:depth=2,random*3"], ["no parameter 'depth'"]),
        (["passing = 'clockwise'"], ["passing", "cycle, hold, left, right, across"]),
        (["moon = 'always'"], ["moon", "others-take"]),
        (["pass_cards = 20"], ["pass_cards", "1 to 12"]),
        (["pass = 3"], ["pass", "allowed are"]),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    args, fragments, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run" / "out"
    if args[0].startswith("--"):
        options = args
    else:
        scenario = tmp_path / "scenario.toml"
        scenario.write_text(f'game = "hearts"\n[settings]\n{args[0]}\n', encoding="utf-8")
        options = ["--scenario", scenario]
    (tmp_path / "run").mkdir()
    code = zoosim("run", "--game", "hearts", "--games", 100, *options, "--out", out,
                  "--no-progress")  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists()
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == []
