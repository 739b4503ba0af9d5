"""A sweep report answers the sweep's question, on cells built by hand: the best and worst
setting named only when separated, a rule's effect only when measurable, strategy columns
that keep one name when a swept parameter changes the label, and panels whose dots sit on
their cells' labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_helpers import assert_no_clipped_text, assert_report_reads_right

from zooanalysis import cli
from zooanalysis.report.build import build_report, report_document
from zooanalysis.report.sweep import effect_phrase, rule_section, setting_section
from zooanalysis.separation import Estimate
from zooanalysis.sweep_cells import (
    Metric,
    balance_metrics_of,
    marginal,
    role_cells,
    win_metric,
    with_balance,
)


def seat_columns(prefix: str, rate: float, half: float, n: int = 2000) -> dict[str, float]:
    """A win share with a symmetric interval, as a cell's columns."""
    return {
        f"{prefix}_win_rate": rate,
        f"{prefix}_win_ci_low": rate - half,
        f"{prefix}_win_ci_high": rate + half,
        f"{prefix}_win_n": n,
    }


def balance_columns(metric: str, value: float, half: float) -> dict[str, float]:
    return {
        f"balance.{metric}_value": value,
        f"balance.{metric}_ci_low": value - half,
        f"balance.{metric}_ci_high": value + half,
        f"balance.{metric}_n": 2000,
    }


def two_key_cells(seat1: dict[tuple[float, int], tuple[float, float]]) -> pd.DataFrame:
    """Cells over seat1.doubt x settings.points_to_end with seat 1's share (rate, half width)
    given, the other seat taking the rest; moves grow with points_to_end, ties do not move."""
    rows = []
    for (doubt, points), (rate, half) in seat1.items():
        rows.append(
            {
                "cell": f"{doubt}-{points}",
                "seat1.doubt": doubt,
                "settings.points_to_end": points,
                "lineup": f"bayes:doubt={doubt},random",
                **seat_columns("seat1", rate, half),
                **seat_columns("seat2", 1 - rate, half),
                **balance_columns("moves_mean", 2.0 * points, 0.5),
                **balance_columns("tie", 0.1, 0.02),
            }
        )
    return with_balance(pd.DataFrame(rows), [1, 2])


def test_the_best_setting_is_named_only_when_its_interval_clears_the_others() -> None:
    cells = two_key_cells(
        {
            (0.2, 20): (0.60, 0.02),  # separated from 0.6 at 20 points
            (0.6, 20): (0.40, 0.02),
            (0.2, 30): (0.51, 0.03),  # overlapping at 30 points
            (0.6, 30): (0.49, 0.03),
        }
    )
    section = setting_section(cells, ["seat1.doubt", "settings.points_to_end"], "seat1.doubt")
    text = section.findings[0].text
    assert "at points_to_end = 20: best doubt 0.2 (60.0% [58.0%, 62.0%])" in text
    assert "worst doubt 0.6 (40.0% [38.0%, 42.0%])" in text
    assert "at points_to_end = 30: no single best doubt (0.2, 0.6 level)" in text
    assert "best doubt 0.2 (51" not in text
    assert section.findings[0].value == pytest.approx(0.60)
    shown = section.tables[0].shown.set_index("where")
    assert shown.loc["points_to_end = 30", "best"].startswith("level: 0.2")
    data = section.tables[0].data.set_index("where")  # the CSV: the same answer, as numbers
    assert not data.loc["points_to_end = 30", "best_clear"]
    assert data.loc["points_to_end = 30", "best_level"] == "0.2, 0.6"
    assert data.loc["points_to_end = 20", "best_clear"]
    assert data.loc["points_to_end = 20", "best"] == "0.2"
    assert data.loc["points_to_end = 20", "best_share"] == pytest.approx(0.6)


def test_a_rules_effect_is_named_only_when_measurable() -> None:
    cells = two_key_cells(
        {(0.2, 20): (0.5, 0.02), (0.6, 20): (0.5, 0.02), (0.2, 30): (0.5, 0.02),
         (0.6, 30): (0.5, 0.02)}
    )  # fmt: skip
    keys = ["seat1.doubt", "settings.points_to_end"]
    section = rule_section(cells, keys, "settings.points_to_end")
    text = section.findings[0].text
    assert "game length (moves) rises from 40.0 [39.5, 40.5] moves at 20 to 60.0 [59.5, 60.5]" in (
        text
    )
    assert "no measurable effect on shared wins, balance across seats" in text
    effect = section.tables[0].shown.set_index("metric")
    assert effect.loc["Game length (moves)", "effect"] == "measurable"
    assert effect.loc["Shared wins", "effect"] == "none measurable"
    data = section.tables[0].data  # the CSV, long
    moves = data[data["metric"] == "game length (moves)"].set_index("value")
    assert moves.loc[30, "estimate"] == pytest.approx(60.0) and moves["measurable"].all()
    assert not data[data["metric"] == "shared wins"]["measurable"].any()


def test_effect_phrase_reads_in_grid_order() -> None:
    metric = Metric("x", "tie rate", "v", "l", "h", None, "rate")
    falling = [Estimate("a", 0.5, 0.48, 0.52), Estimate("b", 0.3, 0.28, 0.32)]
    assert effect_phrase(metric, falling).startswith("tie rate falls from 50.0%")
    assert effect_phrase(metric, falling[::-1]).startswith("tie rate rises from 30.0%")
    level = [Estimate("a", 0.5, 0.4, 0.6), Estimate("b", 0.45, 0.35, 0.55)]
    assert effect_phrase(metric, level) == ""


def test_the_marginal_of_a_rule_averages_cells_and_their_bounds() -> None:
    cells = two_key_cells(
        {(0.2, 20): (0.6, 0.02), (0.6, 20): (0.4, 0.04), (0.2, 30): (0.5, 0.02),
         (0.6, 30): (0.5, 0.02)}
    )  # fmt: skip
    table = marginal(cells, "settings.points_to_end", win_metric("seat1"))
    assert list(table.index) == [20, 30]
    assert table.loc[20, "value"] == pytest.approx(0.5)
    assert table.loc[20, "ci_low"] == pytest.approx((0.58 + 0.36) / 2)
    assert table.loc[20, "ci_high"] == pytest.approx((0.62 + 0.44) / 2)
    assert table.loc[20, "cells"] == 2


def test_balance_is_recomputed_for_sweeps_written_before_it_was_counted() -> None:
    cells = pd.DataFrame([{**seat_columns("seat1", 0.6, 0.02), **seat_columns("seat2", 0.4, 0.02)}])
    filled = with_balance(cells, [1, 2])
    assert filled["balance.seat_balance_value"].iloc[0] == pytest.approx(0.8)
    assert filled["balance.first_player_advantage_value"].iloc[0] == pytest.approx(0.1)
    names = [m.name for m in balance_metrics_of(filled)]
    assert names == ["seat_balance", "first_player_advantage"]


def test_a_swept_parameter_keeps_one_name_for_its_strategy_in_every_cell() -> None:
    """Zoology's sweep split seat 1's figures into one column per guess value and pooled the
    default cell with seat 2's: by role they are one column, with the pooling said."""
    lineups = [["curious:guess=0.2", "curious", "bayes"], ["curious", "curious", "bayes"]]
    cells = pd.DataFrame(
        [
            {"seat1.guess": 0.2, "curious:guess=0.2_first_guess_rate": 0.9,
             "curious_first_guess_rate": 0.7, "bayes_first_guess_rate": 0.5},
            {"seat1.guess": 0.8, "curious:guess=0.2_first_guess_rate": np.nan,
             "curious_first_guess_rate": 0.75, "bayes_first_guess_rate": 0.55},
        ]
    )  # fmt: skip
    roles, pooled = role_cells(cells, ["seat1.guess"], lineups)
    assert list(roles["seat 1's curious_first_guess_rate"]) == [0.9, 0.75]
    assert list(roles["curious_first_guess_rate"]) == [0.7, 0.75]
    assert list(roles["bayes_first_guess_rate"]) == [0.5, 0.55]
    assert not [c for c in roles.columns if "guess=" in c]
    assert pooled == ["seat 1's guess = 0.8"]


def test_cell_panels_put_every_dot_on_its_cells_label(tmp_path: Path) -> None:
    """The old Zoology panel had one axis per metric, each with its own limits, so dots
    drifted from the labels: every panel now shares the rows."""
    from zooanalysis.report.sweep import metrics_figure

    cells = two_key_cells(
        {(d, p): (0.5, 0.02) for d in (0.2, 0.4, 0.6) for p in (20, 30)}
    )
    metrics = [
        *balance_metrics_of(cells),
        Metric("odd", "odd", "balance.tie_value", "balance.tie_ci_low", "balance.tie_ci_high",
               None, "rate"),
    ]  # fmt: skip
    shown = metrics_figure(cells, ["seat1.doubt", "settings.points_to_end"], metrics)
    axes = [a for a in shown.figure.axes if a.get_visible()]
    assert len(axes) == len(metrics)
    assert {a.get_ylim() for a in axes} == {(len(cells) - 0.5, -0.5)}
    for a in axes:
        (dots,) = a.containers  # one errorbar per panel: a dot per cell, on its row
        assert list(dots.lines[0].get_ydata()) == list(range(len(cells)))
    labels = [t.get_text() for t in axes[0].get_yticklabels()]
    assert labels[0] == "0.2, 20" and len(labels) == len(cells)
    assert shown.figure.get_size_inches()[0] <= 6.4


def test_a_zoology_sweep_reports_the_swept_seat_as_one_strategy(tmp_path: Path) -> None:
    """With the default guess among the values, seat 1's curious is pooled with seat 2's in
    that cell; the report still has one seat-1 column for it and says so."""
    sweep = tmp_path / "zoology.toml"
    sweep.write_text(
        'game = "zoology"\ntitle = "Guessing early"\n[run]\nplayers = "curious,curious,bayes"\n'
        'games = "600"\nseed = 2\n[grid]\n"seat1.guess" = [0.2, 0.8]\n',
        encoding="utf-8",
    )
    out = tmp_path / "sweep"
    assert cli.main(["sweep", str(sweep), "--out", str(out), "--jobs", "1"]) == 0
    html = build_report(out, tmp_path / "report")
    text = html.read_text(encoding="utf-8")
    assert "seat 1&#x27;s guess = 0.8" in text and "pooled" in text
    document = report_document(out)
    figure = next(f for s in document.sections for f in s.figures if f.name == "sweep_metrics")
    titles = [a.get_title() for a in figure.figure.axes if a.get_visible()]
    assert any(t.startswith("Seat 1's curious") for t in titles), titles
    assert not [t for t in titles if "guess=" in t]
    assert_report_reads_right(html.parent)
    assert_no_clipped_text(document)


def test_cooperative_success_is_drawn_as_curves_and_named_by_its_extremes() -> None:
    """A cooperative sweep's report: the team's success over the first key, one curve per
    value of the second; the finding names the hardest and easiest cell (level cells said
    so) and says that absolute difficulty depends on the assumptions."""
    from zooanalysis.report.sweep import cooperative_sections

    rows = []
    for noise, misread, rate, half in [
        (0.25, 0.0, 0.93, 0.01),
        (0.25, 0.2, 0.62, 0.01),
        (1.0, 0.0, 0.71, 0.01),
        (1.0, 0.2, 0.52, 0.01),
    ]:
        rows.append(
            {
                "settings.perception_noise": noise,
                "seats.misread": misread,
                "cooperative_success_rate": rate,
                "cooperative_success_ci_low": rate - half,
                "cooperative_success_ci_high": rate + half,
                "cooperative_success_n": 5000,
            }
        )
    cells = pd.DataFrame(rows)
    keys = ["settings.perception_noise", "seats.misread"]
    (section,) = cooperative_sections(cells, keys)
    (finding,) = section.findings
    assert finding.value == pytest.approx(0.52) and finding.n == 5000
    assert "least often at perception_noise = 1, every seat's misread = 0.2" in finding.text
    assert "most often at perception_noise = 0.25, every seat's misread = 0" in finding.text
    assert "level with" not in finding.text and "depends on" in finding.text
    assert "one curve per every seat's misread" in section.intro
    axes = section.figures[0].figure.axes[0]
    assert len(axes.lines) == 2  # one curve per misread value
    np.testing.assert_allclose(axes.lines[0].get_ydata(), [0.93, 0.71])
    # a competitive sweep has no such section
    assert cooperative_sections(cells.drop(columns=["cooperative_success_rate"]), keys) == []
