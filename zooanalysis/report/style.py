"""One look for every report figure: matplotlib (Agg), a colour-blind-safe palette, no junk.

Use :func:`new_figure` for every figure, draw intervals with :func:`rate_bars`, and
label axes with units. The palette is Okabe & Ito's (safe for the common colour-vision
deficiencies); heatmaps use the perceptually uniform ``cividis``.

Figures are made without pyplot, each on its own Agg canvas: no display is needed, the
global backend is left alone (notebooks keep theirs), and nothing has to be closed.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, MaxNLocator

PALETTE = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # green
    "#CC79A7",  # purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#000000",
)
"""Okabe-Ito colours, in the order figures use them."""
HEATMAP = "cividis"
"""Sequential colour map for heatmaps (colour-blind safe, uniform in lightness)."""
MISSING = "#d9d9d9"
"""Grey for cells with too little data."""
REFERENCE = "#555555"
"""Colour of reference lines such as the fair share."""

MAX_FIGURE_WIDTH = 6.4
"""Inches: no figure is wider, so that on a 390 px phone (a 358 px column) its 10 pt text
is still 7.8 px high; wider content stacks its panels (:func:`panel_grid`)."""
MIN_FONT_SIZE = 7.0
"""Points: no text of a figure is smaller (5.4 px on that phone; the SVG opens full size)."""

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "legend.frameon": False,
    "svg.fonttype": "none",
    "svg.hashsalt": "zoosim",  # stable SVG ids from one report to the next
}


def new_figure(width: float = 6.4, height: float = 3.6) -> tuple[Figure, Axes]:
    """A figure (on an Agg canvas) with one axes in the report style."""
    figure, axes = new_grid(1, 1, width, height)
    return figure, axes[0, 0]


def new_grid(
    rows: int, columns: int, width: float, height: float, sharey: bool = False
) -> tuple[Figure, np.ndarray]:
    """A figure (on an Agg canvas) with a grid of axes in the report style (always 2-D);
    ``sharey``: every panel of a row shares its y axis (rows that must line up)."""
    with report_style():
        figure = Figure(figsize=(width, height), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.subplots(rows, columns, squeeze=False, sharey="row" if sharey else False)
    return figure, axes


def panel_grid(
    panels: int, panel_width: float, panel_height: float, width: float = MAX_FIGURE_WIDTH
) -> tuple[Figure, np.ndarray]:
    """``panels`` small panels in as many columns as fit ``width`` (at least one), rows
    stacked below: the figure stays phone-wide however many panels it has."""
    columns = max(1, min(panels, int(width // panel_width)))
    rows = -(-panels // columns)
    return new_grid(rows, columns, min(width, columns * panel_width + 0.6), rows * panel_height)


def report_style():
    """A context in which every figure drawn gets the report style (legends, colours ...)."""
    return matplotlib.rc_context(STYLE)


class ExactPercentFormatter(Formatter):
    """Ticks of a 0-1 axis as percentages with the fewest decimals (the same for every
    tick, at least ``decimals``) that show each tick's value exactly: 2.5% never becomes
    "2%" or "3%"."""

    MAX_DECIMALS = 4

    def __init__(self, decimals: int = 0) -> None:
        self.decimals = decimals
        self._places = decimals

    def set_locs(self, locs) -> None:
        """Choose the decimals for this set of ticks."""
        super().set_locs(locs)
        self._places = percent_decimals(locs, self.decimals)

    def __call__(self, value: float, pos: int | None = None) -> str:
        """One tick label."""
        return f"{100 * value:.{self._places}f}%"


def percent_decimals(values, at_least: int = 0) -> int:
    """The fewest decimals (at least ``at_least``, at most four) that write every value, as
    a percentage, exactly."""
    percents = 100 * np.asarray(values, dtype=float)
    percents = percents[np.isfinite(percents)]
    for places in range(at_least, ExactPercentFormatter.MAX_DECIMALS + 1):
        if np.allclose(np.round(percents, places), percents, rtol=0, atol=1e-9):
            return places
    return ExactPercentFormatter.MAX_DECIMALS


def percent_axis(axes: Axes, which: str = "y", decimals: int | None = None) -> None:
    """Show a 0-1 axis as percentages, every tick label exact (``decimals``: at least
    that many)."""
    axis = axes.yaxis if which == "y" else axes.xaxis
    axis.set_major_formatter(ExactPercentFormatter(decimals or 0))


def count_axis(axes: Axes, which: str = "x") -> None:
    """Ticks only at whole numbers, for an axis of counts (cards, moves, lead changes)."""
    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_locator(MaxNLocator(integer=True))


def rate_bars(
    axes: Axes,
    labels: Sequence[str],
    rates: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    color: str | Sequence[str] = PALETTE[0],
    horizontal: bool = False,
) -> None:
    """Bars of rates with their 95% intervals drawn as error bars."""
    positions = np.arange(len(labels))
    rates = np.asarray(rates, dtype=float)
    errors = np.vstack([rates - np.asarray(lows), np.asarray(highs) - rates])
    errors = np.nan_to_num(np.clip(errors, 0, None))
    kwargs = {"color": color, "ecolor": "black", "capsize": 3, "error_kw": {"linewidth": 1}}
    if horizontal:
        axes.barh(positions, rates, xerr=errors, **kwargs)
        axes.set_yticks(positions, labels)
        axes.invert_yaxis()
    else:
        axes.bar(positions, rates, yerr=errors, **kwargs)
        axes.set_xticks(positions, labels)
