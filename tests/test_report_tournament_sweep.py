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


def write_sweep(folder: Path, grid: str) -> Path:
    """A small sweep file with the given [grid] lines."""
    path = folder / "sweep.toml"
    path.write_text(
        'game = "bluff"\n[run]\nplayers = "bayes,cautious,random"\ngames = "800"\nseed = 1\n'
        f"[grid]\n{grid}\n",
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


def test_sweep_report_with_two_keys_draws_heatmaps(tmp_path: Path) -> None:
    sweep = write_sweep(tmp_path, '"seat1.doubt" = [0.2, 0.6]\n"settings.points_to_end" = [20, 30]')
    out = tmp_path / "sweep-out"
    assert cli.main(["sweep", str(sweep), "--out", str(out), "--jobs", "1"]) == 0
    assert folder_kind(out) == "sweep"
    html = build_report(out, tmp_path / "report")
    cells = pd.read_parquet(out / "cells.parquet")
    assert finding_values(html)["seat1_best_cell"] == pytest.approx(cells["seat1_win_rate"].max())
    text = html.read_text(encoding="utf-8")
    assert "over seat1.doubt and settings.points_to_end" in text
    assert (html.parent / "figures" / "sweep_win_rate.png").is_file()
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
    assert "Win rate by seat over settings.points_to_end" in text
