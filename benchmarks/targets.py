"""Issue 13's targets in BENCHMARKS.md: the pure part of ``run.py``'s "Issue 13 targets" table.

``run.py`` measures (kernel rates in CPU time, whole-process wall times, ratios of
alternating pairs); this module names the targets, summarises repeated measurements
(median and range), decides "met" or "not met", tells whether other work on the machine
made a row noisy, and builds the table's and the (b) rows' labels. Nothing here times
anything or imports zooanalysis, so ``tests/test_bench_targets.py`` checks it quickly.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

NOISY_PER_CORE = 0.5
"""A row is noisy when other work used more than this share of each core while it ran."""


@dataclass(frozen=True)
class Target:
    """One target of issue 13: a measured value against a threshold."""

    name: str
    """What the issue asks, in words (e.g. ``startup: zoosim run --games 1000 <= 1.5 s``)."""
    threshold: float
    at_least: bool
    """True: the value must be >= the threshold (a rate, a ratio); False: <= (a time)."""
    unit: str
    """``games/s``, ``s`` (wall seconds) or ``x`` (a ratio)."""


@dataclass(frozen=True)
class Spread:
    """Repeated measurements of one quantity: their median, minimum and maximum."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        """The median of the values."""
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        """The smallest value."""
        return min(self.values)

    @property
    def high(self) -> float:
        """The largest value."""
        return max(self.values)


def spread(values: Sequence[float]) -> Spread:
    """The median and range of ``values``; raises ValueError if there are none."""
    if not values:
        raise ValueError("no measurements to summarise")
    return Spread(tuple(float(value) for value in values))


def pairwise_ratios(numerators: Sequence[float], denominators: Sequence[float]) -> list[float]:
    """``numerators[i] / denominators[i]`` for each pair measured together (A, B alternating).

    Raises ValueError if the two lists differ in length or a denominator is not positive.
    """
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators but {len(denominators)} denominators")
    if any(value <= 0 for value in denominators):
        raise ValueError(f"a denominator is not positive: {list(denominators)}")
    return [a / b for a, b in zip(numerators, denominators, strict=True)]


def is_met(target: Target, value: float) -> bool:
    """Whether ``value`` meets ``target`` (inclusive: exactly the threshold meets it)."""
    return value >= target.threshold if target.at_least else value <= target.threshold


UNITS = {"games/s": ("{:,.0f}", " games/s"), "s": ("{:.2f}", " s"), "x": ("{:.2f}", "x")}
"""Each unit's number format and suffix."""


def format_number(value: float, unit: str) -> str:
    """A measured value's number, as the table writes it in ``unit``: ``12,345``, ``1.52``."""
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}: allowed are {', '.join(UNITS)}")
    return UNITS[unit][0].format(value)


def format_value(value: float, unit: str) -> str:
    """A measured value with its unit: ``12,345 games/s``, ``1.52 s``, ``0.74x``."""
    return format_number(value, unit) + UNITS[unit][1]


def median_of(count: int, what: str) -> str:
    """How a value summarises ``count`` measurements: ``one run`` or ``median of 3 runs``
    (``what``: the singular noun, e.g. ``run``, ``alternating pair``)."""
    return f"one {what}" if count == 1 else f"median of {count} {what}s"


@dataclass(frozen=True)
class Load:
    """Other work on the machine while one row was measured."""

    other_cores: float
    """CPU seconds used by every other process, per wall second of the row."""
    cores: int
    load_average: float
    """The 1-minute load average when the row started (it counts this benchmark too)."""

    @property
    def noisy(self) -> bool:
        """Whether other work used more than :data:`NOISY_PER_CORE` of each core."""
        return self.other_cores / self.cores > NOISY_PER_CORE

    def text(self) -> str:
        """The table's load cell."""
        return (
            f"{self.other_cores:.2f} of {self.cores} cores "
            f"(1-min load average {self.load_average:.1f})"
        )


def other_cores(system_busy: float, own: float, wall: float) -> float:
    """Cores used by other processes: the machine's busy CPU seconds less this benchmark's
    own (process and waited-for children), over ``wall`` seconds; never below 0 (the two
    clocks tick at different granularity)."""
    if wall <= 0:
        raise ValueError(f"wall time must be positive, got {wall}")
    return max(0.0, (system_busy - own) / wall)


def verdict(target: Target, value: float, load: Load) -> str:
    """``met`` or ``not met``, with ``, noisy`` when other work may have slowed the row."""
    words = "met" if is_met(target, value) else "not met"
    return f"{words}, noisy" if load.noisy else words


def target_row(target: Target, measured: Spread, how: str, load: Load) -> str:
    """One row of the "Issue 13 targets" table: target, measured value (median, and the
    range when measured more than once), how it was measured, the load, the verdict."""
    value = format_value(measured.median, target.unit)
    if len(measured.values) > 1:
        low, high = (format_number(v, target.unit) for v in (measured.low, measured.high))
        value += f" (range {low} to {high})"
    cells = [target.name, value, how, load.text(), verdict(target, measured.median, load)]
    return "| " + " | ".join(cells) + " |"


TABLE_HEADER = (
    "| target | measured | how | other work during the row | verdict |",
    "| --- | --- | --- | --- | --- |",
)


def lineup_label(lineup: str, default_lineup: str) -> str:
    """A lineup as a row names it: ``the default lineup X`` when it is the game's default."""
    return f"the default lineup {lineup}" if lineup == default_lineup else lineup


def run_label(title: str, command: str, lineup: str, default_lineup: str) -> str:
    """A (b) row's label: the game, the command run and the lineup it played, e.g.
    ``Bluff in Zoo (b) zoosim run --game bluff --games 1e6, the default lineup X (2 cores,
    warm)``."""
    return f"{title} (b) {command}, {lineup_label(lineup, default_lineup)} (2 cores, warm)"


# --- reading the machine's CPU use ----------------------------------------------------------


def system_busy_seconds(stat: Path = Path("/proc/stat")) -> float:
    """CPU seconds the whole machine has spent busy since boot (user, nice, system, irq,
    softirq, steal: everything but idle and iowait), from ``/proc/stat``."""
    fields = stat.read_text().splitlines()[0].split()
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_seconds() -> float:
    """CPU seconds of this process (every thread) and of its children that have been waited
    for (every ``zoosim run`` and C program the benchmark ran)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class LoadProbe:
    """Measures other work on the machine between its creation and :meth:`stop`."""

    def __init__(self) -> None:
        """Start watching: the load average, the machine's and this benchmark's CPU time."""
        self.load_average = os.getloadavg()[0]
        self.wall = time.perf_counter()
        self.busy = system_busy_seconds()
        self.own = own_seconds()

    def stop(self) -> Load:
        """Other processes' CPU use since the start, in cores."""
        wall = time.perf_counter() - self.wall
        busy = system_busy_seconds() - self.busy
        own = own_seconds() - self.own
        return Load(other_cores(busy, own, max(wall, 1e-9)), os.cpu_count() or 1, self.load_average)
