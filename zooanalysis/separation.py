"""When may a finding name a winner? Only when the data separate it from the rest.

Every sentence of a report or summary that names a strongest, weakest, most, least or a
difference asks :func:`standout` (or :func:`versus`) first. A candidate stands out from
another when their 95% intervals do not overlap, or, where the caller can test the
difference, when the test rejects at 5% after Holm's correction over the comparisons made
(the correction ``zoosim compare`` uses). Otherwise the finding says there is no measurable
difference and names the candidates with their intervals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zooanalysis.stats import holm

if TYPE_CHECKING:
    import pandas as pd

ALPHA = 0.05
"""The test level: a difference is measurable when Holm's adjusted p is below it."""


@dataclass(frozen=True)
class Estimate:
    """A named value with its 95% interval (low = high = value for an exact number)."""

    name: str
    value: float
    low: float
    high: float


def estimates_of(
    table: pd.DataFrame, value: str = "rate", low: str = "ci_low", high: str = "ci_high"
) -> list[Estimate]:
    """Each row of a table with a value and its 95% interval (a rate table by default) as
    an :class:`Estimate` named by its index."""
    return [
        Estimate(name, float(row[value]), float(row[low]), float(row[high]))
        for name, row in table.iterrows()
    ]


@dataclass(frozen=True)
class Standout:
    """The answer to "which is highest (or lowest)?"."""

    top: Estimate
    """The candidate with the most extreme value."""
    level: tuple[Estimate, ...]
    """The candidates the data do not separate from ``top`` (``top`` first, then by value)."""

    @property
    def clear(self) -> bool:
        """Whether ``top`` is measurably ahead of every other candidate."""
        return len(self.level) == 1


def standout(
    estimates: Sequence[Estimate],
    highest: bool = True,
    p_value: Callable[[Estimate, Estimate], float] | None = None,
    alpha: float = ALPHA,
) -> Standout:
    """The highest (or lowest) of ``estimates`` and those not measurably behind it.

    Another candidate is separated from the top one when their intervals do not overlap, or
    when ``p_value(top, other)`` (a two-sided test of their difference) is below ``alpha``
    after Holm's correction over the comparisons of the top with every other candidate.
    Candidates with a nan value are left out. Raises ValueError if none is left.
    """
    usable = [e for e in estimates if not math.isnan(e.value)]
    if not usable:
        raise ValueError("no candidate has a value")
    ordered = sorted(usable, key=lambda e: -e.value if highest else e.value)
    top, others = ordered[0], ordered[1:]
    apart = [_intervals_apart(top, other, highest) for other in others]
    if p_value is not None and others:
        adjusted = holm([p_value(top, other) for other in others])
        apart = [a or bool(p < alpha) for a, p in zip(apart, adjusted, strict=True)]
    level = (top, *(other for other, a in zip(others, apart, strict=True) if not a))
    return Standout(top, level)


def versus(estimate: Estimate, reference: float) -> int:
    """+1 if the interval lies above ``reference``, -1 if below, 0 if it contains it."""
    if estimate.low > reference:
        return 1
    if estimate.high < reference:
        return -1
    return 0


def against_reference(
    estimates: Sequence[Estimate], reference: float, p_values: Sequence[float], alpha: float = ALPHA
) -> list[int]:
    """For each estimate: +1 (measurably above ``reference``), -1 (below) or 0 (no
    measurable difference). Measurable means the interval excludes the reference and the
    estimate's test against it (``p_values``, two-sided) rejects after Holm's correction
    over all the estimates, so naming several at once keeps the 5% chance of any false
    alarm."""
    adjusted = holm(list(p_values))
    return [
        versus(estimate, reference) if p < alpha else 0
        for estimate, p in zip(estimates, adjusted, strict=True)
    ]


def _intervals_apart(top: Estimate, other: Estimate, highest: bool) -> bool:
    """Whether ``top``'s interval lies wholly beyond ``other``'s (nan bounds: never)."""
    if highest:
        return bool(top.low > other.high)
    return bool(top.high < other.low)
