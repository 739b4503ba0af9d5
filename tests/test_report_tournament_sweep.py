"""``zoosim report`` on tournament and sweep folders: the matrix, ratings and grid figures."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from report_helpers import assert_no_clipped_text, assert_report_reads_right

import zooanalysis
from zooanalysis import cli
from zooanalysis.report.build import build_report, folder_kind, report_document


@pytest.fixture(scope="module")
def tournament_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small three-strategy tournament."""
    out = tmp_path_factory.mktemp("tournament") / "t"
    code = cli.main(
        [
            "tournament",
            "--strategies",
            "bayes,cautious,random",
            "--games",
            "12000",  # 6 lineups x 2,000 games, the least a tournament of three may play
            "--seed",
            "3",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    return out


def write_sweep(folder: Path, grid: str, head: str = "") -> Path:
    """A small sweep file with the given [grid] lines (and top-level lines ``head``)."""
    path = folder / "sweep.toml"
    path.write_text(
        f'game = "bluff"\n{head}[run]\nplayers = "bayes,cautious,random"\ngames = "800"\n'
        f"seed = 1\n[grid]\n{grid}\n",
        encoding="utf-8",
    )
    return path


def finding_values(html: Path) -> dict[str, float]:
    """Each finding's key and stated value."""
    text = html.read_text(encoding="utf-8")
    return {
        key: float(value)
        for key, value in re.findall(r'data-key="([^"]+)" data-value="([^"]+)"', text)
    }


def test_tournament_report(tournament_dir: Path, tmp_path: Path) -> None:
    assert folder_kind(tournament_dir) == "tournament"
    html = build_report(tournament_dir, tmp_path / "report")
    text = html.read_text(encoding="utf-8")
    result = zooanalysis.load_run(tournament_dir)
    ratings = result.ratings()
    assert finding_values(html)["top_rating"] == pytest.approx(ratings["rating"].iloc[0])
    top, second = ratings.iloc[0], ratings.iloc[1]
    if top.ci_low > second.ci_high:
        assert f"{top.strategy} ranks first" in text
    else:  # bayes and cautious are close here: the report must not crown either
        assert "No strategy measurably ranks first" in text
        assert f"{top.strategy} ranks first" not in text
    # seat order: each seat's win share pooled over every seating, seats from 1
    seats = pd.read_csv(html.parent / "tables" / "seat_order.csv")
    assert list(seats["seat"]) == [1, 2, 3]
    assert seats["share"].sum() == pytest.approx(1.0)
    assert "Does seat order matter?" in text
    assert_report_reads_right(html.parent)
    assert_no_clipped_text(report_document(tournament_dir))
    for name in ("ratings", "pairwise_matrix"):
        assert f'id="fig-{name}"' in text
        assert (html.parent / "figures" / f"{name}.svg").is_file()
    ranking = pd.read_csv(html.parent / "tables" / "ranking.csv")
    assert list(ranking["strategy"]) == list(ratings["strategy"])
    assert "://" not in text


def test_sweep_report_with_two_keys_answers_its_question(tmp_path: Path) -> None:
    """A strategy parameter against a rule: the title and question from the sweep file, the
    best and worst setting at each value of the rule, the rule's effect, a heatmap per seat."""
    sweep = write_sweep(
        tmp_path,
        '"seat1.doubt" = [0.2, 0.6]\n"settings.points_to_end" = [20, 30]',
        'title = "Doubt against points"\ndescription = "Should seat 1 doubt more?"\n',
    )
    out = tmp_path / "sweep-out"
    assert cli.main(["sweep", str(sweep), "--out", str(out), "--jobs", "1"]) == 0
    assert folder_kind(out) == "sweep"
    html = build_report(out, tmp_path / "report")
    text = html.read_text(encoding="utf-8")
    assert "<h1>Doubt against points: sweep report</h1>" in text
    assert "Should seat 1 doubt more?" in text
    cells = pd.read_parquet(out / "cells.parquet")
    values = finding_values(html)
    # the best doubt's win share, at the rule value where it is highest
    assert values["best_seat1.doubt"] == pytest.approx(cells["seat1_win_rate"].max())
    for points in (20, 30):
        part = cells[cells["settings.points_to_end"] == points].set_index("seat1.doubt")
        low, high = part.loc[0.2], part.loc[0.6]
        separated = low.seat1_win_ci_low > high.seat1_win_ci_high
        assert (f"at points_to_end = {points}: best doubt 0.2" in text) == separated
    # the rule's effect, averaged over the doubt values: game length in moves
    moves = cells.groupby("settings.points_to_end")["balance.moves_mean_value"].mean()
    assert moves[30] > moves[20]
    assert "game length (moves) rises from" in text
    effect = pd.read_csv(html.parent / "tables" / "effect_points_to_end.csv")
    assert {"balance across seats", "shared wins", "winning margin"} <= set(effect["metric"])
    # a notebook reads the same answers from the folder
    result = zooanalysis.load_run(out)
    assert result.title == "Doubt against points"
    pd.testing.assert_frame_equal(
        result.effects("settings.points_to_end").reset_index(drop=True), effect,
        check_dtype=False,
    )
    best = pd.read_csv(html.parent / "tables" / "best_doubt.csv")
    assert list(result.best_settings("seat1.doubt")["best"].astype(float)) == list(best["best"])
    for seat in (1, 2, 3):
        assert (html.parent / "figures" / f"sweep_win_rate_seat{seat}.svg").is_file()
    assert len(pd.read_csv(html.parent / "tables" / "cells.csv")) == 4
    assert_report_reads_right(html.parent)
    assert_no_clipped_text(report_document(out))


def test_sweep_report_with_one_key_draws_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = write_sweep(tmp_path, '"settings.points_to_end" = [20, 30]')
    out = tmp_path / "sweep-out"
    assert cli.main(["sweep", str(sweep), "--out", str(out), "--jobs", "1"]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(out), "-o", str(tmp_path / "report")]) == 0
    text = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    assert "Win share by seat over points_to_end" in text
    assert "What points_to_end changes" in text
    assert "<h1>Bluff in Zoo sweep sweep-out: sweep report</h1>" in text  # no title given
    assert_report_reads_right(tmp_path / "report")
