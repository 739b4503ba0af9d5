"""Count arrays from the kernels as long DataFrames: one row per non-empty cell or bin."""

from __future__ import annotations

import numpy as np
import pandas as pd


def seat_table(totals: dict[str, np.ndarray], labels: list[str], **extra) -> pd.DataFrame:
    """The ``seats`` table every game provides: ``seat, strategy, games, wins, sole_wins,
    points_sum, points_squares`` from the kernel's counts, then the ``extra`` columns."""
    return pd.DataFrame(
        {
            "seat": np.arange(len(labels)),
            "strategy": labels,
            "games": int(totals["games"][0]),
            "wins": totals["wins"],
            "sole_wins": totals["sole_wins"],
            "points_sum": totals["points_sum"],
            "points_squares": totals["points_squares"],
            **extra,
        }
    )


def nonzero_cells(counts: np.ndarray, names: list[str], value: str = "count") -> pd.DataFrame:
    """One row per non-zero cell of ``counts``: its index along each axis (``names``) and the
    count (column ``value``)."""
    index = np.nonzero(counts)
    table = pd.DataFrame(
        {name: axis.astype(np.int64) for name, axis in zip(names, index, strict=True)}
    )
    table[value] = counts[index]
    return table


def histogram(counts: np.ndarray, name: str) -> pd.DataFrame:
    """A 1-D histogram as rows ``(name, games)`` for its non-empty bins."""
    values = np.nonzero(counts)[0]
    return pd.DataFrame({name: values.astype(np.int64), "games": counts[values]})
