"""The figures every run report has: win rates, game length, decisiveness, lead changes.

Each function takes a run (or its histograms) and returns a :class:`Figure` drawn in the
report style: labelled axes with units, 95% intervals drawn, colour-blind-safe colours.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from zooanalysis.report.model import Figure, rate_phrase
from zooanalysis.report.style import (
    PALETTE,
    REFERENCE,
    count_axis,
    new_figure,
    panel_grid,
    percent_axis,
    rate_bars,
)
from zooanalysis.results import Run
from zooanalysis.stats import rate_table
from zooanalysis.trajectory import LEAD_CHANGE_BINS


def fair_share_text(fair: float) -> str:
    """``25%`` or ``33.3%``: the fair share without a misleading rounding."""
    text = f"{100 * fair:.1f}"
    return f"{text.removesuffix('.0')}%"


def win_rate_by_seat(run: Run) -> Figure:
    """Each seat's win share with its 95% interval, against the fair share."""
    rates = run.win_rates("seat")
    figure, axes = new_figure(6.4, 3.4)
    labels = [
        f"Seat {seat}" + ("" if row.strategy == "(rotated)" else f"\n{row.strategy}")
        for seat, row in rates.iterrows()
    ]
    rate_bars(axes, labels, rates["share"], rates["ci_low"], rates["ci_high"])
    fair = 1.0 / len(run.lineup)
    axes.axhline(fair, color=REFERENCE, linestyle="--", linewidth=1)
    axes.annotate(
        f"fair share {fair_share_text(fair)}",
        (len(rates) - 0.5, fair),
        xytext=(0, 3),
        textcoords="offset points",
        ha="right",
        va="bottom",
        color=REFERENCE,
    )
    axes.set_ylabel("Win share (%)")
    axes.set_xlabel(
        "Seat (each over every rotation); seat 1 starts"
        if run.rotated
        else "Seat (strategy); seat 1 starts"
    )
    percent_axis(axes)
    games = int(rates["n"].iloc[0])
    return Figure(
        "win_rate_by_seat",
        "Win share by seat",
        figure,
        f"Each seat's share of the wins in {games:,} games (a game shared by k tied winners "
        "gives each 1/k); error bars are 95% Wilson intervals; dashed: the fair share. Games "
        "won or shared are in the table 'Win share by seat'.",
    )


def wrapped_label(label: str, width: int = 32) -> str:
    """A strategy label broken after its commas into lines of at most ``width`` characters
    where it can be (a long parameter list as one tick label squeezes the bars until the
    axis label no longer fits under them)."""
    parts = label.split(",")
    pieces = [part + "," for part in parts[:-1]] + [parts[-1]]
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if len(lines[-1]) + len(piece) > width:
            lines.append(piece)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def win_rate_by_strategy(run: Run) -> Figure:
    """Each strategy's win share per seat played, with its 95% interval."""
    rates = run.win_rates("strategy")
    figure, axes = new_figure(6.4, 0.6 + 0.45 * len(rates))
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(rates))]
    rate_bars(
        axes,
        [wrapped_label(label) for label in rates.index],
        rates["share"],
        rates["ci_low"],
        rates["ci_high"],
        colors,
        horizontal=True,
    )
    axes.axvline(1.0 / len(run.lineup), color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_xlabel("Win share per seat played (%); dashed: fair share")
    percent_axis(axes, "x")
    return Figure(
        "win_rate_by_strategy",
        "Win share by strategy",
        figure,
        "Every seat a strategy plays counts as one trial per game; a game shared by k tied "
        "winners gives each 1/k; 95% Wilson intervals.",
    )


def top_bin_note(histograms: Mapping[str, pd.Series], tops: Mapping[str, int]) -> str:
    """" The last bar of moves, 1023, holds 1023 or more." for each histogram whose data
    reach its top bin; "" when none does (then no bar stands for more than itself)."""
    reached = [
        f"{name}, {tops[name]}, holds {tops[name]} or more"
        for name, histogram in histograms.items()
        if name in tops and len(histogram) and histogram.index.max() >= tops[name]
    ]
    return f" The last bar of {'; of '.join(reached)}." if reached else ""


def game_length(
    histograms: dict[str, pd.Series], tops: Mapping[str, int] | None = None
) -> Figure:
    """The distribution of each game-length measure (moves, turns, rounds)."""
    figure, axes = panel_grid(len(histograms), 3.2, 3.2)
    for index, (name, histogram) in enumerate(histograms.items()):
        ax = axes.ravel()[index]
        share = histogram / histogram.sum()
        ax.bar(share.index, share.to_numpy(), width=1.0, color=PALETTE[index % len(PALETTE)])
        mean = float((histogram.index * histogram).sum() / histogram.sum())
        ax.axvline(mean, color=REFERENCE, linestyle="--", linewidth=1)
        ax.set_xlabel(f"{name.capitalize()} per game\n(dashed: mean {mean:.1f})")
        ax.set_ylabel("Share of games (%)")
        percent_axis(ax)
        count_axis(ax)
    for ax in axes.ravel()[len(histograms) :]:
        ax.set_visible(False)
    total = int(next(iter(histograms.values())).sum())
    return Figure(
        "game_length",
        "Game length",
        figure,
        f"Distribution over {total:,} games.{top_bin_note(histograms, tops or {})}",
    )


def settled_figure(settled: pd.Series) -> Figure:
    """When the eventual winner took the sole lead for good (share of single-winner games)."""
    n = int(settled.sum())
    rates = rate_table(settled, pd.Series(n, index=settled.index))
    figure, axes = new_figure(6.4, 3.2)
    positions = settled.index.to_numpy() + 2.5
    errors = np.vstack([rates["rate"] - rates["ci_low"], rates["ci_high"] - rates["rate"]])
    axes.bar(
        positions,
        rates["rate"],
        width=4.6,
        color=PALETTE[2],
        yerr=errors,
        ecolor="black",
        capsize=2,
        error_kw={"linewidth": 0.8},
    )
    axes.set_xlim(0, 100)
    axes.set_xlabel("The winner leads for good after … (% of the game's moves)")
    axes.set_ylabel("Single-winner games (%)")
    percent_axis(axes)
    return Figure(
        "decisiveness",
        "Decisiveness: when the winner leads for good",
        figure,
        f"{n:,} games with a single winner, in 5% bins of the game's moves; 95% Wilson "
        f"intervals. {decided_phrase(settled)}",
    )


def decided_phrase(settled: pd.Series) -> str:
    """What the decisiveness histogram says, from its data: whether most single-winner
    games are settled in the first half, in the second, or neither measurably."""
    n = int(settled.sum())
    early = int(settled[settled.index < 50].sum())
    row = rate_table([early], [n]).iloc[0]
    share = rate_phrase(row.rate, row.ci_low, row.ci_high)
    if row.ci_low > 0.5:
        return (
            f"Most games are decided early: in {share} the winner leads for good within "
            "the first half."
        )
    if row.ci_high < 0.5:
        return (
            f"Most games are decided late: the winner leads for good within the first half "
            f"in only {share}."
        )
    return (
        f"About as many games are decided in the first half as in the second ({share} in "
        "the first)."
    )


def lead_changes_figure(changes: pd.Series) -> Figure:
    """How many times per game the sole lead changed hands."""
    n = int(changes.sum())
    rates = rate_table(changes, pd.Series(n, index=changes.index))
    figure, axes = new_figure(6.4, 3.2)
    errors = np.vstack([rates["rate"] - rates["ci_low"], rates["ci_high"] - rates["rate"]])
    axes.bar(
        changes.index,
        rates["rate"],
        width=0.8,
        color=PALETTE[4],
        yerr=errors,
        ecolor="black",
        capsize=2,
        error_kw={"linewidth": 0.8},
    )
    axes.set_xlabel("Lead changes per game")
    axes.set_ylabel("Games (%)")
    percent_axis(axes)
    count_axis(axes)
    note = top_bin_note({"lead changes": changes}, {"lead changes": LEAD_CHANGE_BINS - 1})
    return Figure(
        "lead_changes",
        "Lead changes",
        figure,
        f"Distribution over {n:,} games; 95% Wilson intervals.{note}",
    )


def margin_figure(margins: pd.Series, top: int) -> Figure:
    """How far the winner finished ahead of the best other player (share of games)."""
    n = int(margins.sum())
    share = margins / n
    figure, axes = new_figure(6.4, 3.2)
    axes.bar(share.index, share.to_numpy(), width=0.8, color=PALETTE[5])
    mean = float((margins.index * margins).sum() / n)
    axes.axvline(mean, color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_xlabel(f"Winning margin (points; dashed: mean {mean:.1f})")
    axes.set_ylabel("Games (%)")
    percent_axis(axes)
    count_axis(axes)
    note = top_bin_note({"margins": margins}, {"margins": top})
    return Figure(
        "winning_margin",
        "Winning margin",
        figure,
        f"The winners' final score minus the best non-winner's, in {n:,} games that some player "
        f"did not win.{note}",
    )
