"""The pieces a report is made of: findings, figures, tables and sections.

Game packages build :class:`Section` objects in their ``report_sections`` hook; the shared
code turns them into HTML, PNG/SVG and CSV files. Nothing here draws or writes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure as MplFigure

from zooanalysis.numbers import format_count
from zooanalysis.separation import estimates_of  # noqa: F401 (the reports import it from here)


@dataclass
class Finding:
    """One plain-words result with the number behind it.

    ``text`` is the sentence shown to the reader. ``value`` (with ``ci_low``/``ci_high``,
    the 95% interval, and ``n``, the trials or games behind it) is the number the sentence
    states; the tests compare it with the run's DataFrames. ``figure`` names the figure
    that shows it (a :class:`Figure`'s ``name`` in the same report).
    """

    text: str
    value: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    n: int = 0
    figure: str | None = None
    key: str = ""
    """A short stable identifier, e.g. ``seat_bias`` (used by tests and the CSV)."""

    def __post_init__(self) -> None:
        self.value, self.ci_low, self.ci_high = (
            float(self.value),
            float(self.ci_low),
            float(self.ci_high),
        )
        self.n = int(self.n)


@dataclass
class Figure:
    """A matplotlib figure with a file name (no extension), a title and a caption."""

    name: str
    title: str
    figure: MplFigure
    caption: str = ""


@dataclass
class Table:
    """A DataFrame shown in the report and written as ``tables/<name>.csv``."""

    name: str
    title: str
    data: pd.DataFrame
    caption: str = ""
    index: bool = True
    """Whether the DataFrame's index is part of the table."""
    show_rows: int = 40
    """At most this many rows appear in the HTML (the CSV has them all)."""
    hidden: tuple[str, ...] = ()
    """Columns left out of the HTML (kept in the CSV): identifiers and raw sums a reader
    does not need."""
    shown: pd.DataFrame | None = None
    """What the HTML shows instead of ``data``, when a reader needs other words than the CSV
    (e.g. each value with its interval, formatted by its kind); ``index``, ``hidden`` and
    ``show_rows`` apply to it."""
    key_columns: int | None = None
    """How many of the shown columns (from the left) a reader needs to read the table: they
    must fit a phone's width (390 px) without scrolling; the rest may scroll inside the
    table's own box. None: up to and including the first column with an interval (at most
    three), else two."""


@dataclass
class Section:
    """A titled part of the report: a short introduction, findings, figures and tables.

    ``definitions`` (term -> explanation) go to the report's appendix, so every metric a
    section uses is defined once, in plain words.
    """

    title: str
    intro: str = ""
    findings: list[Finding] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    definitions: dict[str, str] = field(default_factory=dict)


def percent(value: float, decimals: int = 1) -> str:
    """``0.2712`` as ``27.1%``."""
    return f"{100 * value:.{decimals}f}%"


def rate_phrase(rate: float, low: float, high: float, n: int | None = None) -> str:
    """A rate with its 95% interval as ``27.1% [26.8%, 27.4%]`` (Wilson intervals are not
    symmetric, so never ``±``), with enough decimals to show the interval; ``n`` appended
    as ``(n=1,000)`` when given."""
    decimals = _decimals(high - low, 100.0)
    text = (
        f"{100 * rate:.{decimals}f}% [{100 * low:.{decimals}f}%, {100 * high:.{decimals}f}%]"
    )
    return text if n is None else f"{text} (n={format_count(int(n))})"


def mean_phrase(mean: float, low: float, high: float, unit: str = "") -> str:
    """A mean with its 95% interval as ``15.9 [15.8, 16.0] rounds``."""
    decimals = _decimals(high - low, 1.0)
    suffix = f" {unit}" if unit else ""
    return f"{mean:.{decimals}f} [{low:.{decimals}f}, {high:.{decimals}f}]{suffix}"


def points_phrase(difference: float, low: float, high: float) -> str:
    """A difference of two rates in percentage points: ``+1.2 points [+0.8, +1.6]``."""
    decimals = _decimals(high - low, 100.0)
    return (
        f"{100 * difference:+.{decimals}f} points "
        f"[{100 * low:+.{decimals}f}, {100 * high:+.{decimals}f}]"
    )


def _decimals(width: float, scale: float) -> int:
    """Decimals that show an interval ``width`` wide (after multiplying by ``scale``): one,
    or more while a tenth of the half-width would not show."""
    half = abs(width) * scale / 2
    if not math.isfinite(half) or half >= 0.1:
        return 1
    if half >= 0.01:
        return 2
    return 3


@dataclass
class ReportDocument:
    """A whole report: what it is about, the findings first, then sections and appendix.

    ``facts`` (label -> value) tell where the numbers come from (game, lineup, games, seed,
    zoosim version ...); ``strategies`` (name -> description) say which bots played.
    """

    title: str
    subtitle: str
    findings: list[Finding]
    sections: list[Section]
    facts: dict[str, str] = field(default_factory=dict)
    strategies: dict[str, str] = field(default_factory=dict)
    caveat: str = (
        "These are bot results: they describe how these strategies play against each "
        "other, not how people play."
    )
    definitions: dict[str, str] = field(default_factory=dict)
