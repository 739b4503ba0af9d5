"""Hearts' sections of ``zoosim report`` (the ``Game.report_sections`` hook).

The moon and points per hand by strategy; the Queen of Spades (who takes it, from whom, on
which trick, what holding it costs); seat balance per hand and by passing direction. Every
finding states its 95% interval and n, and names a strongest or weakest only when
``separation.standout`` separates it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.hearts.analysis import HeartsRun
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    estimates_of,
    mean_phrase,
    rate_phrase,
)
from zooanalysis.report.style import (
    MAX_FIGURE_WIDTH,
    PALETTE,
    count_axis,
    new_grid,
    percent_axis,
    rate_bars,
)
from zooanalysis.separation import standout
from zooanalysis.stats import rate_table

DEFINITIONS = {
    "Hand": "One deal of Hearts: passing (unless a hold hand), 13 tricks, scoring. A game is "
    "a whole match: hands until a player reaches the end score; the fewest points win.",
    "Shooting the moon": "One player takes every heart and the Queen of Spades in a hand. "
    "Moon rate: the share of a player's hands in which it did so (95% Wilson interval, n = "
    "hands).",
    "Points per hand": "A player's score for one hand, the moon and the Jack of Diamonds "
    "applied; mean with its 95% normal interval over hands (hands are independent deals).",
    "Queen holder": "The player holding the Queen of Spades when play begins (after passing). "
    "'Kept' is the share of those hands in which the holder took the Queen itself.",
}


def report_sections(run: HeartsRun) -> list[Section]:
    """Every Hearts section for ``run``."""
    return [points_section(run), queen_section(run), seats_section(run)]


def _lowest_or_level(table: pd.DataFrame, value: str, what: str, phrase) -> str:
    """A sentence naming the lowest row of ``table`` only when it stands out."""
    result = standout(estimates_of(table, value), highest=False)
    if result.clear:
        return f"{result.top.name} took the fewest {what}: {phrase(table.loc[result.top.name])}."
    names = ", ".join(str(e.name) for e in result.level)
    return f"No measurable difference in {what} between {names} (the intervals overlap)."


def _mean_text(row) -> str:
    return f"{mean_phrase(row['mean'], row['ci_low'], row['ci_high'])} (n={int(row['n']):,})"


def points_section(run: HeartsRun) -> Section:
    """The moon and points per hand, by strategy."""
    moon = run.moon_rate()
    moons = run.moon_rates("strategy")
    points = run.hand_points("strategy")
    findings = [
        Finding(
            "Someone shot the moon in "
            f"{rate_phrase(moon.rate, moon.ci_low, moon.ci_high, int(moon.n))} of hands.",
            moon.rate, moon.ci_low, moon.ci_high, int(moon.n), "hearts_points", "moon_rate",
        ),
    ]
    if len(points) > 1:
        best = standout(estimates_of(points, "mean"), highest=False)
        row = points.loc[best.top.name]
        text = _lowest_or_level(points, "mean", "points per hand", _mean_text)
        findings.append(
            Finding(text, row["mean"], row["ci_low"], row["ci_high"], int(row["n"]),
                    "hearts_points", "fewest_points_strategy")
        )  # fmt: skip
        top = standout(estimates_of(moons))
        row = moons.loc[top.top.name]
        if top.clear:
            text = (f"{top.top.name} shot the moon most often: "
                    f"{rate_phrase(row.rate, row.ci_low, row.ci_high, int(row.n))} of its hands.")
        else:
            names = ", ".join(str(e.name) for e in top.level)
            text = f"No measurable difference in moon rate between {names}."
        findings.append(
            Finding(text, row.rate, row.ci_low, row.ci_high, int(row.n), "hearts_points",
                    "most_moons_strategy")
        )  # fmt: skip
    figure, grid = new_grid(1, 2, MAX_FIGURE_WIDTH, 3.4)
    left, right = grid[0]
    labels = [str(name) for name in points.index]
    rate_bars(left, labels, points["mean"], points["ci_low"], points["ci_high"], PALETTE[0])
    left.set_ylabel("points per hand (fewer is better)")
    rate_bars(right, labels, moons["rate"], moons["ci_low"], moons["ci_high"], PALETTE[1])
    right.set_ylabel("hands shooting the moon")
    percent_axis(right)
    table = pd.concat(
        [points.add_prefix("points_"), moons.add_prefix("moon_")], axis=1
    ).rename_axis("strategy")
    return Section(
        "Hearts: the moon and points per hand",
        "How many points each strategy takes per hand, and how often it shoots the moon.",
        findings,
        [Figure("hearts_points", "Points per hand and moon rate by strategy", figure,
                "Bars: means and rates; lines: 95% intervals.")],
        [Table("hearts_strategies", "Points per hand and moon rate by strategy", table)],
        DEFINITIONS,
    )  # fmt: skip


def queen_section(run: HeartsRun) -> Section:
    """Who takes the Queen of Spades, from whom, on which trick."""
    fate = run.queen_fate()
    kept = int(fate.loc[fate["holder"] == fate["taker"], "hands"].sum())
    held = int(fate["hands"].sum())
    own = rate_table([kept], [held]).iloc[0]
    tricks = run.queen_tricks()
    seats = run.queen_rates("strategy")
    findings = [
        Finding(
            f"The player holding the Queen of Spades when play began took it itself in "
            f"{rate_phrase(own.rate, own.ci_low, own.ci_high, held)} of hands.",
            own.rate, own.ci_low, own.ci_high, held, "hearts_queen", "queen_kept",
        ),
    ]
    if len(tricks):
        peak = standout(estimates_of(tricks)).top.name
        row = tricks.loc[peak]
        findings.append(
            Finding(
                queen_trick_text(tricks),
                row.rate, row.ci_low, row.ci_high, int(row.n), "hearts_queen", "queen_trick",
            )
        )
    if len(seats) > 1:
        taken = seats.rename(columns={"taken": "rate", "taken_ci_low": "ci_low",
                                      "taken_ci_high": "ci_high"})  # fmt: skip
        result = standout(estimates_of(taken), highest=True)
        row = taken.loc[result.top.name]
        if result.clear:
            text = (f"{result.top.name} took the Queen most often: "
                    f"{rate_phrase(row.rate, row.ci_low, row.ci_high, int(row.taken_n))} of its "
                    "hands.")
        else:
            names = ", ".join(str(e.name) for e in result.level)
            text = f"No measurable difference in how often {names} took the Queen."
        findings.append(Finding(text, row.rate, row.ci_low, row.ci_high, int(row.taken_n),
                                "hearts_queen", "queen_taker_strategy"))  # fmt: skip
    figure, axes = new_grid(1, 1, 6.4, 3.2)
    ax = axes[0, 0]
    rate_bars(ax, [str(t) for t in tricks.index], tricks["rate"], tricks["ci_low"],
              tricks["ci_high"], PALETTE[2])  # fmt: skip
    ax.set_xlabel("trick the Queen of Spades was taken in")
    percent_axis(ax)
    fate_table = fate.rename(columns={"rate": "share_of_holder"})
    return Section(
        "Hearts: the Queen of Spades",
        "Who ends up with the Queen of Spades, from whom (the holder when play began), on "
        "which trick, and what holding it costs.",
        findings,
        [Figure("hearts_queen", "The trick in which the Queen of Spades was taken", figure,
                "Share of hands; lines: 95% intervals.")],
        [
            Table("hearts_queen_fate", "The Queen of Spades: holder and taker (seats from 1)",
                  fate_table, index=False),
            Table("hearts_queen_strategies", "The Queen by strategy: taken, held, kept, "
                  "passed, and the holder's points per hand", seats),
        ],
        DEFINITIONS,
    )  # fmt: skip


def seats_section(run: HeartsRun) -> Section:
    """Points per hand by seat, and by passing direction."""
    points = run.hand_points("seat")
    findings = []
    result = standout(estimates_of(points, "mean"), highest=False)
    row = points.loc[result.top.name]
    labels = run.table("seats").groupby("seat")["strategy"].first()
    if result.clear:
        who = labels.get(int(result.top.name) - 1, "")
        text = (f"Seat {result.top.name} ({who}) took the fewest points per hand: "
                f"{_mean_text(row)}.")
    else:
        text = (
            "No seat took measurably fewer points per hand than the others (seats "
            + ", ".join(str(e.name) for e in result.level)
            + f" are level; seat {result.top.name}: {_mean_text(row)})."
        )
    findings.append(Finding(text, row["mean"], row["ci_low"], row["ci_high"], int(row["n"]),
                            "hearts_seats", "fewest_points_seat"))  # fmt: skip
    length = run.game_length()
    findings.append(
        Finding(
            f"A game (a match to {run.rules().end_score}) lasted "
            f"{mean_phrase(length['mean'], length['ci_low'], length['ci_high'], 'hands')} "
            f"(n={int(length['n']):,} games).",
            length["mean"], length["ci_low"], length["ci_high"], int(length["n"]),
            "hearts_seats", "hands_per_game",
        )
    )
    directions = run.direction_points()
    figure, axes = new_grid(1, 1, 6.4, 3.2)
    ax = axes[0, 0]
    seats = [int(s) for s in points.index]
    width = 0.8 / max(len(directions.index.get_level_values(0).unique()), 1)
    for index, name in enumerate(directions.index.get_level_values(0).unique()):
        part = directions.loc[name]
        x = np.array(seats) + (index - 1.5) * width
        means = part["mean"].astype(float).to_numpy()
        errors = np.vstack([means - part["ci_low"].astype(float), part["ci_high"].astype(float)
                            - means])  # fmt: skip
        ax.bar(x, means, width, yerr=errors, label=name, color=PALETTE[index % len(PALETTE)])
    ax.set_xlabel("seat")
    ax.set_ylabel("points per hand")
    count_axis(ax)
    ax.legend(title="passing")
    return Section(
        "Hearts: seat balance per hand",
        "Points per hand by seat, overall and by passing direction (seats from 1).",
        findings,
        [Figure("hearts_seats", "Points per hand by seat and passing direction", figure,
                "Bars: means; lines: 95% intervals.")],
        [
            Table("hearts_seat_points", "Points per hand by seat", points),
            Table("hearts_directions", "Points per hand by passing direction and seat",
                  directions),
        ],
        DEFINITIONS,
    )  # fmt: skip


def queen_trick_text(tricks: pd.DataFrame) -> str:
    """The trick the Queen of Spades fell on most often (``tricks``: a rate table indexed by
    trick), named only when its interval lies above every other trick's
    (``separation.standout``), else the tricks not separated from it."""
    peak = standout(estimates_of(tricks))
    row = tricks.loc[peak.top.name]
    if peak.clear:
        return (
            f"The Queen fell most often on trick {peak.top.name} "
            f"({rate_phrase(row.rate, row.ci_low, row.ci_high, int(row.n))} of hands)."
        )
    level = ", ".join(
        f"trick {e.name} {rate_phrase(e.value, e.low, e.high)}" for e in peak.level
    )
    return (
        f"No trick is measurably the one the Queen fell on most often: {level} "
        f"(n={int(row.n):,} hands) are not separated."
    )
