"""Printing a rate over units that come several to a game (decisions, hands, rounds) with
the clustered interval of :func:`zooanalysis.stats.clustered_rate`, or, for a run folder
written before its game counted the per-game sums of squares, with the independent Wilson
interval and a line that says so."""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.numbers import format_count
from zooanalysis.stats import clustered_rate, format_rate, rate_table, rate_with_interval


def interval_note(units: str, clustered: bool) -> str:
    """What a summary says of the 95% intervals of rates over ``units`` (``"decisions"``):
    that they allow for the units of one game being correlated, or, for a run folder
    written before the per-game counts, that they count the units as independent."""
    if clustered:
        return f"95% intervals allow for the {units} of one game being correlated"
    return (
        f"95% intervals count the {units} as independent: this run folder predates the "
        f"per-game counts that allow for the {units} of one game being correlated"
    )


def clustered_row(
    successes: float,
    trials: float,
    success_squares: float | None,
    trial_squares: float | None,
    cross: float | None,
    games: int,
) -> pd.Series:
    """``rate, ci_low, ci_high, n`` (units), ``effective_n`` and ``clustered`` (bool) of a
    rate over units of ``games`` games: the clustered interval of ``stats.clustered_rate``
    from the per-game sums, or the independent Wilson interval (``effective_n`` = n,
    ``clustered`` False) when the sums are None (a folder written before they were
    counted)."""
    if success_squares is None or trial_squares is None or cross is None:
        row = rate_table([int(successes)], [int(trials)]).iloc[0]
        return pd.Series({**row.to_dict(), "effective_n": float(trials), "clustered": False})
    rate, low, high, effective = clustered_rate(
        successes, trials, success_squares, trial_squares, cross, games
    )
    return pd.Series({"rate": rate, "ci_low": low, "ci_high": high, "n": int(trials),
                      "effective_n": effective, "clustered": True})  # fmt: skip


def clustered_table(
    successes: pd.Series,
    trials: pd.Series,
    success_squares: pd.Series | None,
    trial_squares: pd.Series | None,
    cross: pd.Series | None,
    games: int,
) -> pd.DataFrame:
    """``rate, ci_low, ci_high, n, effective_n`` per row of ``successes`` (index kept):
    each row's clustered interval from its per-game sums over the ``games`` games
    (:func:`zooanalysis.stats.clustered_rate`), or Wilson's over the units as if
    independent (``effective_n`` = n) when the sums are None (a folder written before
    they were counted)."""
    if success_squares is None or trial_squares is None or cross is None:
        table = rate_table(successes, trials)
        table["effective_n"] = table["n"].astype(float)
        return table
    rows = [
        clustered_rate(*(float(v) for v in values), games)
        for values in zip(successes, trials, success_squares, trial_squares, cross, strict=True)
    ]
    table = pd.DataFrame(
        rows, index=successes.index, columns=["rate", "ci_low", "ci_high", "effective_n"]
    )
    table.insert(3, "n", pd.Series(trials).astype(np.int64).to_numpy())
    return table


def format_clustered(row: pd.Series, games: int, unit: str = "") -> str:
    """A :func:`clustered_row` as text: ``54.4% [53.6%, 55.2%] (n=837,656 in 20,000
    games)`` when clustered (``unit`` "claims": ``n=837,656 claims in ...``),
    ``format_rate``'s text (n = units) when not."""
    if not row["clustered"]:
        return format_rate(row["rate"], row["ci_low"], row["ci_high"], int(row["n"]))
    interval = rate_with_interval(row["rate"], row["ci_low"], row["ci_high"])
    units = f"{format_count(int(row['n']))} {unit}".rstrip()
    return f"{interval} (n={units} in {format_count(games)} games)"
