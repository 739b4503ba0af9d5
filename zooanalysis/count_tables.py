"""Count arrays from the kernels as long DataFrames: one row per non-empty cell or bin."""

from __future__ import annotations

import numpy as np

from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.outcome import share_sums


def seat_table(totals: dict[str, np.ndarray], labels: list[str], **extra) -> pd.DataFrame:
    """The ``seats`` table every game provides: ``seat`` (an index from 0), ``strategy,
    games, wins`` (tied winners all win), ``sole_wins``, ``share_sum`` (the win share summed
    over games: ``1/k`` for a game won with ``k`` tied winners, from the kernel's
    ``win_ties``; see ``zooanalysis.outcome``), ``points_sum, points_squares``, then the
    ``extra`` columns."""
    return pd.DataFrame(
        {
            "seat": np.arange(len(labels)),
            "strategy": labels,
            "games": int(totals["games"][0]),
            "wins": totals["wins"],
            "sole_wins": totals["sole_wins"],
            "share_sum": share_sums(totals["win_ties"][: len(labels)]),
            "points_sum": totals["points_sum"],
            "points_squares": totals["points_squares"],
            **extra,
        }
    )


def outcome_tables(totals: dict[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """The ``win_ties`` table (``seat`` from 0, ``winners`` = k, ``games``: games the seat
    won as one of k tied winners) and the ``margins`` table (``margin``, ``games``) from
    the counts of ``zooanalysis.outcome``; and when the game counts its decisions
    (``zooanalysis.decisions``), the ``decisions`` and ``game_decisions`` tables."""
    win_ties = totals["win_ties"]
    seat, winners = np.nonzero(win_ties)
    margins = totals["margins"]
    values = np.nonzero(margins)[0]
    return {
        **decision_tables(totals),
        "win_ties": pd.DataFrame(
            {
                "seat": seat.astype(np.int64),
                "winners": winners.astype(np.int64),
                "games": win_ties[seat, winners].astype(np.int64),
            }
        ),
        "margins": pd.DataFrame(
            {"margin": values.astype(np.int64), "games": margins[values].astype(np.int64)}
        ),
    }


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


def decision_tables(totals: dict[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """The ``decisions`` table (``options``: legal options at a decision, ``decisions``) and
    the ``game_decisions`` table (``decisions``: real decisions in a game, ``games``) from
    the counts of ``zooanalysis.decisions``; none for a game that does not count them."""
    if "decision_options" not in totals:
        return {}
    options = totals["decision_options"]
    games = totals["game_decisions"]
    o = np.nonzero(options)[0]
    g = np.nonzero(games)[0]
    return {
        "decisions": pd.DataFrame(
            {"options": o.astype(np.int64), "decisions": options[o].astype(np.int64)}
        ),
        "game_decisions": pd.DataFrame(
            {"decisions": g.astype(np.int64), "games": games[g].astype(np.int64)}
        ),
    }
