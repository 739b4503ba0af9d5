"""Balance metrics every game gets, each with a 95% interval and the games behind it.

They read only the generic tables: ``seats`` (every game), the game-length histograms
(``moves``, ``turns`` or ``rounds`` with columns ``<name>, games``) and the trajectory
histograms ``lead_changes`` and ``settled`` (see ``zooanalysis.trajectory``). A metric
whose table the run lacks is reported as "not measured".
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from zooanalysis.results import Run, histogram_mean
from zooanalysis.stats import rate_table

Z_95 = 1.959963984540054
LENGTH_TABLES = ("moves", "turns", "rounds")
"""Histogram tables read as game length, when a run has them."""
NOT_MEASURED = "not measured"

METRIC_COLUMNS = ("metric", "label", "kind", "value", "ci_low", "ci_high", "n", "successes")
"""``kind`` is ``rate`` (Wilson CI; ``successes`` of ``n``), ``mean`` or ``difference``."""

DEFINITIONS = {
    "Win share": "A seat's (or strategy's) share of the wins: a game won alone counts 1, a "
    "game shared by k tied winners counts 1/k for each of them (the convention of Ludii's "
    "balance metrics), so the shares of all seats add up to the share of games that had a "
    "winner, and a fair game gives every seat the fair share 1/players. Its 95% interval is "
    "Wilson's score interval on (share summed over games, games): conservative, because an "
    "outcome between 0 and 1 with mean p has a variance of at most p(1 − p). By strategy, "
    "every seat a strategy plays counts as one trial per game. Every comparison with the "
    "fair share uses the win share.",
    "Won or shared": "The share of games a seat or strategy won, alone or tied (every tied "
    "winner counts as winning), with its 95% Wilson interval. With ties these add up to "
    "more than 100% over the seats, so they are not compared with the fair share.",
    "Balance across seats": "1 − the largest gap between two seats' win shares. 100% means "
    "every seat wins equally often. Its interval treats a game's seats as one multinomial "
    "draw (exact without ties, conservative with them); choosing the largest gap after the "
    "fact makes it slightly pessimistic for a perfectly fair game.",
    "First-player advantage": "Seat 1's win share minus the fair share 1/players, in "
    "percentage points, with the interval of seat 1's share. Seat 1 starts the first round. "
    "In a run without --rotate-seats, seat 1 always holds the same strategy, so this mixes "
    "seat order with strategy strength (the section 'Does seat order matter?' separates "
    "them where the run allows).",
    "Shared-win (tie) rate": "The share of games whose best standing was shared by two or "
    "more players (all of them win).",
    "Game length": "Moves (every claim or doubt, every turn) and rounds per game: mean with "
    "its 95% interval, median and the 10th and 90th percentiles.",
    "Decisiveness": "Only games with a single winner. After every move that changes a "
    "score, the sole leader is the one player with the strictly best standing (Bluff in "
    "Zoo: fewest penalty points; other games: most points). With the moves numbered 0 to "
    "T−1, t is the first move from which the eventual winner is the sole leader at every "
    "later score check; the histogram puts t/T in twenty 5% bins: 'the winner leads for "
    "good after X% of the game'. The mean uses each bin's midpoint. Early settling means "
    "the rest of the game rarely changes the outcome.",
    "Lead changes": "How many times per game a sole leader appeared who differs from the "
    "most recent sole leader (the game's first sole leader is not a change). Moments with "
    "a shared lead do not count as a change by themselves.",
}


def balance_metrics(run: Run) -> pd.DataFrame:
    """Every balance metric of ``run`` as rows of :data:`METRIC_COLUMNS`.

    Metrics that need tables the run lacks are left out (see :func:`measured`).
    """
    rows: list[dict] = []
    seats = run.win_rates("seat")
    players = len(run.lineup)
    games = run.games_played
    for seat, row in seats.iterrows():
        label = f"Seat {seat} ({row.strategy}): win share"
        rows.append(_share_row(f"seat{seat}_win", label, row))
    for name, row in run.win_rates("strategy").iterrows():
        rows.append(_share_row(f"{name}_win", f"{name}: win share per seat played", row))
    balance, low, high = seat_balance(seats)
    rows.append(
        _row("seat_balance", "Balance across seats", "difference", balance, low, high, games)
    )
    first = seats.iloc[0]
    fair = 1.0 / players
    rows.append(
        _row(
            "first_player_advantage",
            "First-player advantage (points over the fair share)",
            "difference",
            first.share - fair,
            first.ci_low - fair,
            first.ci_high - fair,
            games,
        )
    )
    single = int(run.table("seats")["sole_wins"].sum())
    tie = rate_table([games - single], [games]).iloc[0]
    rows.append(_rate_row("tie", "Shared-win (tie) rate", tie, successes=games - single))
    for name in LENGTH_TABLES:
        histogram = _histogram(run, name)
        if histogram is not None:
            mean, low, high = histogram_mean(histogram)
            rows.append(
                _row(
                    f"{name}_mean",
                    f"Mean {name} per game",
                    "mean",
                    mean,
                    low,
                    high,
                    int(histogram.sum()),
                )
            )
    settled = _histogram(run, "settled", "settled_percent")
    if settled is not None and settled.sum() > 0:
        midpoints = pd.Series(settled.to_numpy(), index=settled.index + 2.5)
        mean, low, high = histogram_mean(midpoints)
        n = int(settled.sum())
        rows.append(
            _row(
                "settled_mean",
                "The winner leads for good after (mean % of the game)",
                "mean",
                mean,
                low,
                high,
                n,
            )
        )
        early = int(settled[settled.index < 50].sum())
        rate = rate_table([early], [n]).iloc[0]
        rows.append(
            _rate_row(
                "settled_first_half", "Winner leads for good within the first half", rate, early
            )
        )
    changes = _histogram(run, "lead_changes")
    if changes is not None and changes.sum() > 0:
        mean, low, high = histogram_mean(changes)
        n = int(changes.sum())
        rows.append(
            _row("lead_changes_mean", "Lead changes per game (mean)", "mean", mean, low, high, n)
        )
        none = int(changes.get(0, 0))
        rows.append(
            _rate_row(
                "no_lead_change",
                "Games without a lead change",
                rate_table([none], [n]).iloc[0],
                none,
            )
        )
    return pd.DataFrame(rows, columns=list(METRIC_COLUMNS))


def measured(run: Run) -> dict[str, bool]:
    """Which optional metric groups the run's tables allow (False: "not measured")."""
    names = set(run.table_names)
    return {
        "Game length": any(name in names for name in LENGTH_TABLES),
        "Decisiveness": "settled" in names,
        "Lead changes": "lead_changes" in names,
    }


def seat_balance(seats: pd.DataFrame) -> tuple[float, float, float]:
    """1 − the largest gap between two seats' win shares, with a 95% interval.

    The gap's variance is that of a difference of two cells of one multinomial draw per game,
    (p1 + p2 − (p1 − p2)²) / n; ties make it conservative (see
    ``stats.same_games_difference``).
    """
    rates = seats["share"].to_numpy()
    high_seat, low_seat = int(np.argmax(rates)), int(np.argmin(rates))
    p1, p2 = rates[high_seat], rates[low_seat]
    n = float(seats["n"].iloc[0])
    gap = p1 - p2
    half = Z_95 * math.sqrt(max(p1 + p2 - gap * gap, 0.0) / n) if n else math.nan
    return 1.0 - gap, 1.0 - min(1.0, gap + half), 1.0 - max(0.0, gap - half)


def _histogram(run: Run, name: str, column: str | None = None) -> pd.Series | None:
    """A histogram table as a Series (value -> games), rotations merged; None if absent."""
    if name not in run.table_names:
        return None
    table = run.table(name)
    return table.groupby(column or name)["games"].sum().sort_index()


def length_histograms(run: Run) -> dict[str, pd.Series]:
    """The game-length histograms the run has (``moves``, ``turns``, ``rounds``)."""
    found = {name: _histogram(run, name) for name in LENGTH_TABLES}
    return {name: histogram for name, histogram in found.items() if histogram is not None}


def trajectory_histograms(run: Run) -> tuple[pd.Series | None, pd.Series | None]:
    """The ``settled`` and ``lead_changes`` histograms, or None where not measured."""
    return _histogram(run, "settled", "settled_percent"), _histogram(run, "lead_changes")


def _share_row(metric: str, label: str, row) -> dict:
    """A win-share row: successes are the summed shares (not whole numbers with ties)."""
    return _row(
        metric, label, "rate", row["share"], row["ci_low"], row["ci_high"], row["n"],
        row["share_sum"],
    )  # fmt: skip


def _rate_row(metric: str, label: str, row, successes: float | None = None) -> dict:
    if successes is None:
        successes = round(row["rate"] * row["n"])
    return _row(
        metric, label, "rate", row["rate"], row["ci_low"], row["ci_high"], row["n"], successes
    )


def _row(metric, label, kind, value, low, high, n, successes=math.nan) -> dict:
    return {
        "metric": metric,
        "label": label,
        "kind": kind,
        "value": float(value),
        "ci_low": float(low),
        "ci_high": float(high),
        "n": int(n),
        "successes": float(successes),
    }
