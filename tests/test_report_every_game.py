"""Every registered game's report, and every shipped sweep's, reads to the end: a table of
contents and links that work, figures that read on a phone and clip nothing, the winning
margin, comebacks and drama stated from the run's own tables."""

from __future__ import annotations

import re
import tomllib
from html import escape
from pathlib import Path

import pytest
from report_helpers import assert_no_clipped_text, assert_report_reads_right

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import game_names
from zooanalysis.report.build import build_report, report_document
from zooanalysis.report.html import write_report
from zooanalysis.report.style import report_style

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"
SWEEPS = sorted(SIMULATIONS.glob("sweep-*.toml"))


def finding_keys(html: Path) -> set[str]:
    return set(re.findall(r'data-key="([^"]+)"', html.read_text(encoding="utf-8")))


@pytest.mark.slow  # 10-20 s a game: drawing and saving every figure
@pytest.mark.parametrize("game", game_names())
def test_every_games_report_reads_to_the_end(game: str, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run = zooanalysis.simulate(game, games=400, seed=4, jobs=1, out=run_dir)
    document = report_document(run_dir)
    assert_no_clipped_text(document)
    with report_style():
        html = write_report(document, tmp_path / "report")
    assert_report_reads_right(html.parent)
    keys = finding_keys(html)
    if "margins" in run.table_names and not run.cooperative:
        assert "margin_mean" in keys
        assert (html.parent / "figures" / "winning_margin.svg").is_file()
    if "settled" in run.table_names and not run.cooperative:
        assert "comeback" in keys


def test_every_shipped_sweep_states_its_title_and_question() -> None:
    assert SWEEPS
    for path in SWEEPS:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data.get("title"), f"{path.name} has no title"
        assert len(data.get("description", "")) > 20, f"{path.name} asks no question"


@pytest.mark.slow
@pytest.mark.parametrize("path", SWEEPS, ids=[p.stem for p in SWEEPS])
def test_every_shipped_sweep_reports_its_question(path: Path, tmp_path: Path) -> None:
    """The shipped sweep with few games per cell: its title, its answers, and a report that
    reads right on a phone."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sweep = tmp_path / path.name
    sweep.write_text(
        re.sub(r'^games = "[^"]+"', 'games = "200"', path.read_text(encoding="utf-8"), flags=re.M),
        encoding="utf-8",
    )
    out = tmp_path / "cells"
    assert cli.main(["sweep", str(sweep), "--out", str(out), "--jobs", "1"]) == 0
    html = build_report(out, tmp_path / "report")
    text = html.read_text(encoding="utf-8")
    assert f"<h1>{escape(data['title'])}: sweep report</h1>" in text
    keys = finding_keys(html)
    for key in data["grid"]:
        # a rule, or a parameter of every seat at once: its effect; one seat's: its best value
        every_seat = key.startswith(("settings.", "seats."))
        assert (f"effect_{key}" if every_seat else f"best_{key}") in keys
    assert "balance_cells" in keys
    assert_report_reads_right(html.parent)
    assert_no_clipped_text(report_document(out))
