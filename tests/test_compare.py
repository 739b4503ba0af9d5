"""``zoosim compare``: metrics side by side, differences with CIs and tests, refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.errors import UserError
from zooanalysis.report.compare import build_comparison, compare_metrics, holm, load_two_runs
from zooanalysis.stats import two_proportion_test


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The published rules (30 points) and a rule change (25 points), independent seeds."""
    folder = tmp_path_factory.mktemp("compare")
    zooanalysis.simulate("bluff", games=5000, seed=1, jobs=1, out=folder / "thirty")
    zooanalysis.simulate(
        "bluff",
        games=5000,
        seed=2,
        jobs=1,
        out=folder / "twenty-five",
        settings={"points_to_end": 25},
    )
    return folder / "thirty", folder / "twenty-five"


def test_differences_tests_and_intervals(two_runs) -> None:
    table = compare_metrics(*load_two_runs(*two_runs)).set_index("metric")
    assert np.allclose(table["difference"], table["b"] - table["a"])
    assert (table["difference_ci_low"] <= table["difference"]).all()
    assert (table["difference"] <= table["difference_ci_high"]).all()
    assert table["p_value"].between(0, 1).all()
    assert (table["p_holm"] >= table["p_value"] - 1e-15).all()
    # ending at 25 points makes games shorter, clearly
    moves = table.loc["moves_mean"]
    assert moves.difference < 0 and moves.difference_ci_high < 0 and moves.significant
    # a rate's p-value is the two-proportion test on the runs' own counts
    a, b = (zooanalysis.load_run(path) for path in two_runs)
    wins_a, wins_b = a.win_rates("seat").loc[1], b.win_rates("seat").loc[1]
    # a seat's win (ties split) is compared on its summed shares
    assert table.loc["seat1_win", "p_value"] == pytest.approx(
        two_proportion_test(wins_a.share_sum, wins_a.n, wins_b.share_sum, wins_b.n)
    )
    assert table.loc["seat1_win", "a"] == pytest.approx(wins_a.share)
    assert table.loc["seat1_won_or_shared", "a"] == pytest.approx(wins_a.won_or_shared)
    for metric in (
        "seat_balance",
        "first_player_advantage",
        "tie",
        "settled_mean",
        "lead_changes_mean",
        "doubt_success",
        "bluff",
    ):
        assert metric in table.index


def test_a_run_compared_with_itself_shows_no_difference(two_runs) -> None:
    table = compare_metrics(*load_two_runs(two_runs[0], two_runs[0]))
    assert (table["difference"] == 0).all()
    assert not table["significant"].any()


def test_holm_adjustment() -> None:
    adjusted = holm(np.array([0.01, 0.04, 0.03, np.nan]))
    assert adjusted[:3] == pytest.approx([0.03, 0.06, 0.06])
    assert np.isnan(adjusted[3])


def test_the_comparison_report(two_runs, tmp_path: Path) -> None:
    html = build_comparison(*two_runs, tmp_path / "cmp")
    text = html.read_text(encoding="utf-8")
    assert "points_to_end: 30 in A, 25 in B" in text
    assert "Mean moves per game" in text
    assert "://" not in text and "<script" not in text
    assert 'src="data:image/png;base64,' in text
    table = pd.read_csv(html.parent / "tables" / "comparison.csv")
    assert {
        "a",
        "b",
        "difference",
        "difference_ci_low",
        "difference_ci_high",
        "p_value",
        "p_holm",
        "significant",
    } <= set(table.columns)
    assert (html.parent / "figures" / "differences.svg").is_file()


def test_runs_of_different_games_are_refused(
    two_runs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other-game"
    shutil.copytree(two_runs[0], other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["game"] = "zoology"
    (other / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match="cannot compare a run of bluff"):
        load_two_runs(two_runs[0], other)
    out = tmp_path / "never"
    code = cli.main(["compare", str(two_runs[0]), str(other), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "same game" in err
    assert not out.exists()
    assert not list(tmp_path.glob(".never*"))


def test_cli_compare(
    two_runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["compare", str(two_runs[0]), str(two_runs[1])]) == 0
    assert "reports/compare-thirty-vs-twenty-five/report.html" in capsys.readouterr().out
    assert (tmp_path / "reports/compare-thirty-vs-twenty-five/report.html").is_file()
