"""What a report shows must match what it says: exact percent ticks, whole-number ticks on
count axes, captions computed from the data they describe, intervals as [low, high], and
table cells a person can read."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from zooanalysis.report.figures import (
    decided_phrase,
    game_length,
    lead_changes_figure,
    wrapped_label,
)
from zooanalysis.report.html import display_frame, format_cell
from zooanalysis.report.model import mean_phrase, points_phrase, rate_phrase
from zooanalysis.report.style import count_axis, new_figure, percent_axis, percent_decimals


def tick_labels(figure, axis) -> list[tuple[float, str]]:
    """(value, label) of every visible major tick after drawing."""
    figure.canvas.draw()
    low, high = axis.get_view_interval()
    return [
        (tick.get_loc(), tick.label1.get_text())
        for tick in axis.get_major_ticks()
        if low - 1e-12 <= tick.get_loc() <= high + 1e-12
    ]


@pytest.mark.parametrize(
    "limits",
    [(0.0, 1.0), (0.0, 0.05), (0.27, 0.33), (0.9, 1.0), (0.0, 0.003), (0.248, 0.2535),
     (0.925, 1.0), (0.0, 0.45)],
)  # fmt: skip
@pytest.mark.parametrize("decimals", [None, 0])
def test_percent_ticks_state_their_value_exactly(limits, decimals) -> None:
    figure, axes = new_figure()
    axes.plot([0, 1], limits)
    axes.set_ylim(*limits)
    percent_axis(axes, decimals=decimals)
    labels = tick_labels(figure, axes.yaxis)
    assert labels
    places = {len(label.split(".")[1].rstrip("%")) if "." in label else 0 for _, label in labels}
    assert len(places) == 1  # the same decimals on every tick
    for value, label in labels:
        assert float(label.rstrip("%")) == pytest.approx(100 * value, abs=1e-9), label


def test_percent_decimals_by_hand() -> None:
    assert percent_decimals([0.0, 0.1, 0.2]) == 0
    assert percent_decimals([0.0, 0.025, 0.05]) == 1
    assert percent_decimals([0.9225, 0.925]) == 2
    assert percent_decimals([0.5], at_least=1) == 1


def test_count_axes_tick_only_whole_numbers() -> None:
    figure, axes = new_figure()
    axes.bar([0, 1, 2], [0.5, 0.3, 0.2])
    count_axis(axes)
    values = [value for value, _ in tick_labels(figure, axes.xaxis)]
    assert values and all(float(v).is_integer() for v in values)


def test_lead_changes_caption_names_the_top_bin_only_when_reached() -> None:
    few = pd.Series([50, 30, 20], index=[0, 1, 2])
    shown = lead_changes_figure(few)
    assert "63" not in shown.caption
    assert "63" not in shown.figure.axes[0].get_xlabel()
    values = [v for v, _ in tick_labels(shown.figure, shown.figure.axes[0].xaxis)]
    assert all(float(v).is_integer() for v in values)  # 0, 1, 2: no 0.5
    many = pd.Series([50, 30, 1], index=[0, 1, 63])
    assert "63 or more" in lead_changes_figure(many).caption


def test_game_length_caption_names_a_top_bin_only_when_reached() -> None:
    short = {"moves": pd.Series([10, 20, 5], index=[40, 41, 42])}
    assert "or more" not in game_length(short, {"moves": 1023}).caption
    capped = {"moves": pd.Series([10, 20, 5], index=[40, 41, 1023])}
    assert "The last bar of moves, 1023, holds 1023 or more." in game_length(
        capped, {"moves": 1023}
    ).caption
    assert "or more" not in game_length(capped, {}).caption  # a game that declares no top


def test_the_decisiveness_caption_follows_its_data() -> None:
    bins = 5 * np.arange(20)
    early = pd.Series(np.where(bins < 50, 900, 100), index=bins)
    late = pd.Series(np.where(bins < 50, 100, 900), index=bins)
    even = pd.Series(np.full(20, 500), index=bins)
    assert decided_phrase(early).startswith("Most games are decided early")
    assert decided_phrase(late).startswith("Most games are decided late")
    assert decided_phrase(even).startswith("About as many games")


def test_phrases_print_intervals_as_brackets_never_plus_minus() -> None:
    assert rate_phrase(0.995, 0.972, 0.999) == "99.5% [97.2%, 99.9%]"
    assert rate_phrase(0.01, 0.0018, 0.054, 100) == "1.0% [0.2%, 5.4%] (n=100)"
    assert mean_phrase(15.93, 15.91, 15.96, "rounds") == "15.93 [15.91, 15.96] rounds"
    assert points_phrase(0.037, 0.035, 0.039) == "+3.7 points [+3.5, +3.9]"
    for text in (rate_phrase(0.3, 0.29, 0.31), mean_phrase(2.0, 1.0, 3.0)):
        assert "±" not in text


@pytest.mark.parametrize(
    ("value", "column", "text"),
    [
        (None, "", "–"),
        (float("nan"), "", "–"),
        (True, "", "yes"),
        (np.int64(1947879), "n", "1,947,879"),
        (2e5, "n", "200,000"),
        (51698.9, "share_sum", "51,698.9"),
        (0.2585, "share", "0.2585"),
        (5.038e-05, "", "0.0000504"),
        (1.6e-27, "p_holm", "< 0.0001"),
        (-0.00453, "difference", "-0.00453"),
    ],
)
def test_table_cells_are_readable(value, column, text) -> None:
    assert format_cell(value, column) == text


def test_no_exponent_notation_at_any_magnitude() -> None:
    for exponent in range(-12, 13):
        for mantissa in (1.0, 2.345, -7.5):
            assert not re.search(r"\de[+-]?\d", format_cell(mantissa * 10.0**exponent))


def test_display_frame_shows_a_named_index_and_hides_identifiers() -> None:
    data = pd.DataFrame(
        {"metric": ["seat1_win"], "label": ["Seat 1 win share"], "value": [0.25]},
        index=pd.Index([1], name="seat"),
    )
    shown, index = display_frame(data, True, hidden=("metric",))
    assert not index
    assert list(shown.columns) == ["seat", "label", "value"]
    assert shown.iloc[0].tolist() == ["1", "Seat 1 win share", "0.25"]


def test_the_clipping_check_finds_a_label_past_the_edge() -> None:
    """What assert_no_clipped_text looks for: the old game-length labels ran off the figure."""
    from report_helpers import clipped_texts

    from zooanalysis.report.style import new_grid, report_style

    with report_style():  # the old game_length: one line of label under a 3.3-inch panel
        figure, axes = new_grid(1, 2, 6.6, 3.0)
        for ax, (label, top) in zip(axes[0], [("Moves", 150), ("Rounds", 40)], strict=True):
            ax.bar(np.arange(top), np.full(top, 0.08 / top), width=1.0)
            ax.set_xlabel(f"{label} per game (dashed: mean 84.9)")
            ax.set_ylabel("Share of games (%)")
            percent_axis(ax)
    assert "Rounds per game (dashed: mean 84.9)" in clipped_texts(figure)
    fixed = game_length({"rounds": pd.Series([5, 9, 3], index=[10, 16, 20])}, {})
    assert not clipped_texts(fixed.figure)


@pytest.mark.parametrize(
    ("label", "wrapped"),
    [
        ("random", "random"),
        ("bold:keep_spades=8,moon_at=3.38", "bold:keep_spades=8,moon_at=3.38"),
        ("greedy:shed=0.187,hold_rank=8,danger=11", "greedy:shed=0.187,hold_rank=8,\ndanger=11"),
        ("a:b=1,c=2,d=3", "a:b=1,\nc=2,\nd=3"),
    ],
)
def test_a_long_strategy_label_breaks_after_a_comma(label: str, wrapped: str) -> None:
    """Labels of up to 32 characters stay whole; longer ones break after commas, each line
    at most the width where it can be, and joined again they are the label."""
    width = 6 if label.startswith("a:") else 32
    assert wrapped_label(label, width) == wrapped
    assert wrapped_label(label, width).replace("\n", "") == label
