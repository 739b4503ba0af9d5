"""The figures every run report has: win rates, game length, decisiveness, lead changes.

Each function takes a run (or its histograms) and returns a :class:`Figure` drawn in the
report style: labelled axes with units, 95% intervals drawn, colour-blind-safe colours.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.report.model import Figure
from zooanalysis.report.style import (
    PALETTE,
    REFERENCE,
    new_figure,
    new_grid,
    percent_axis,
    rate_bars,
)
from zooanalysis.results import Run
from zooanalysis.stats import rate_table


def win_rate_by_seat(run: Run) -> Figure:
    """Each seat's win rate with its 95% interval, against the fair share."""
    rates = run.win_rates("seat")
    figure, axes = new_figure(6.4, 3.4)
    labels = [f"Seat {seat + 1}\n{row.strategy}" for seat, row in rates.iterrows()]
    rate_bars(axes, labels, rates["rate"], rates["ci_low"], rates["ci_high"])
    fair = run.fair_share
    axes.axhline(fair, color=REFERENCE, linestyle="--", linewidth=1)
    axes.annotate(
        f"fair share {100 * fair:.0f}%",
        (len(rates) - 0.5, fair),
        xytext=(0, 3),
        textcoords="offset points",
        ha="right",
        va="bottom",
        color=REFERENCE,
    )
    axes.set_ylabel("Games won (%)")
    axes.set_xlabel("Seat (strategy); seat 1 starts")
    percent_axis(axes)
    games = int(rates["n"].iloc[0])
    return Figure(
        "win_rate_by_seat",
        "Win rate by seat",
        figure,
        f"Share of {games:,} games each seat won; error bars are 95% Wilson intervals. Tied "
        "winners all win.",
    )


def win_rate_by_strategy(run: Run) -> Figure:
    """Each strategy's win rate per seat played, with its 95% interval."""
    rates = run.win_rates("strategy")
    figure, axes = new_figure(6.4, 0.6 + 0.45 * len(rates))
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(rates))]
    rate_bars(
        axes,
        list(rates.index),
        rates["rate"],
        rates["ci_low"],
        rates["ci_high"],
        colors,
        horizontal=True,
    )
    axes.axvline(run.fair_share, color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_xlabel("Games won per seat played (%); dashed: fair share")
    percent_axis(axes, "x")
    return Figure(
        "win_rate_by_strategy",
        "Win rate by strategy",
        figure,
        "Every seat a strategy plays counts as one trial per game; 95% Wilson intervals.",
    )


def game_length(histograms: dict[str, pd.Series]) -> Figure:
    """The distribution of each game-length measure (moves, turns, rounds)."""
    figure, axes = new_grid(1, len(histograms), 3.3 * len(histograms), 3.0)
    for index, (name, histogram) in enumerate(histograms.items()):
        ax = axes[0, index]
        share = histogram / histogram.sum()
        ax.bar(share.index, share.to_numpy(), width=1.0, color=PALETTE[index % len(PALETTE)])
        mean = float((histogram.index * histogram).sum() / histogram.sum())
        ax.axvline(mean, color=REFERENCE, linestyle="--", linewidth=1)
        ax.set_xlabel(f"{name.capitalize()} per game (dashed: mean {mean:.1f})")
        ax.set_ylabel("Share of games (%)")
        percent_axis(ax)
    total = int(next(iter(histograms.values())).sum())
    return Figure(
        "game_length",
        "Game length",
        figure,
        f"Distribution over {total:,} games; the top bin of a histogram holds that many or more.",
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
        "intervals. Mass on the left: games are decided early.",
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
    axes.set_xlabel("Lead changes per game (count; the top bin 63 holds 63 or more)")
    axes.set_ylabel("Games (%)")
    percent_axis(axes)
    return Figure(
        "lead_changes",
        "Lead changes",
        figure,
        f"Distribution over {n:,} games; 95% Wilson intervals.",
    )
