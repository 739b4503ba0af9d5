"""Balance metrics every game gets, each with a 95% interval and the games behind it.

Computed from a run's tables alone (no figures), so that ``Run.metrics()`` can put them in
every sweep cell; the report's words for them are in ``zooanalysis.report.balance``.

They read only the generic tables: ``seats`` (every game), the game-length histograms
(``moves``, ``turns`` or ``rounds`` with columns ``<name>, games``) and the trajectory
histograms ``lead_changes`` and ``settled`` (see ``zooanalysis.trajectory``), the
``margins`` histogram of the outcome tally (see ``zooanalysis.outcome``) and the
``decisions`` and ``game_decisions`` histograms (see ``zooanalysis.decisions``). A metric whose
table the run lacks is reported as "not measured".
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import pandas as pd

from zooanalysis.stats import histogram_mean, rate_table


class RunTables(Protocol):
    """What the metrics read of a run (``zooanalysis.results.Run`` has it; not imported
    here, since ``Run.metrics()`` imports this module)."""

    lineup: list[str]
    games_played: int
    table_names: list[str]
    teams: list[tuple[int, ...]] | None

    def table(self, name: str) -> pd.DataFrame: ...

    def win_rates(self, by: str = "seat") -> pd.DataFrame: ...


Z_95 = 1.959963984540054
LENGTH_TABLES = ("moves", "turns", "rounds")
"""Histogram tables read as game length, when a run has them."""
NOT_MEASURED = "not measured"

METRIC_COLUMNS = ("metric", "label", "kind", "value", "ci_low", "ci_high", "n", "successes")
"""``kind`` is ``rate`` (Wilson CI; ``successes`` of ``n``), ``mean`` or ``difference``."""

MARGIN_BIN_TOP = 127
"""The margins histogram's top bin (``zooanalysis.outcome.MARGIN_BINS - 1``)."""


def balance_metrics(run: RunTables) -> pd.DataFrame:
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
    shared = shared_games(run)
    tie = rate_table([shared], [games]).iloc[0]
    label = "Games shared between teams" if run.teams else "Shared-win (tie) rate"
    rows.append(_rate_row("tie", label, tie, successes=shared))
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
        for metric, label, start in (
            ("comeback", "Comebacks: winner leads for good only in the second half", 50),
            ("drama", "Drama: still open in the last quarter", 75),
        ):
            late = int(settled[settled.index >= start].sum())
            rows.append(_rate_row(metric, label, rate_table([late], [n]).iloc[0], late))
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
    rows += margin_rows(_histogram(run, "margins", "margin"))
    rows += decision_rows(*decision_histograms(run))
    return pd.DataFrame(rows, columns=list(METRIC_COLUMNS))


def decision_rows(options: pd.Series | None, per_game: pd.Series | None) -> list[dict]:
    """Ludii's decision moves and branching factor (``zooanalysis.decisions``): the share
    of decisions with a real choice (two legal options or more), the mean options per
    decision, and the mean real decisions per game. None where not counted."""
    if options is None or options.sum() == 0 or per_game is None:
        return []
    n = int(options.sum())
    real = int(options[options.index > 1].sum())
    mean, low, high = histogram_mean(options)
    per_mean, per_low, per_high = histogram_mean(per_game)
    return [
        _rate_row(
            "decision_share", "Decisions with a real choice (2+ legal options)",
            rate_table([real], [n]).iloc[0], real,
        ),
        _row("branching_mean", "Branching factor (legal options per decision, mean)", "mean",
             mean, low, high, n),
        _row("decisions_mean", "Real decisions per game (mean)", "mean", per_mean, per_low,
             per_high, int(per_game.sum())),
    ]  # fmt: skip


def decision_histograms(run: RunTables) -> tuple[pd.Series | None, pd.Series | None]:
    """The ``decisions`` (options -> decisions) and ``game_decisions`` (real decisions ->
    games) histograms, or None where the game does not count them."""
    options = None
    if "decisions" in run.table_names:
        options = run.table("decisions").groupby("options")["decisions"].sum().sort_index()
    return options, _histogram(run, "game_decisions", "decisions")


def shared_games(run: RunTables) -> int:
    """Games whose win was shared: won by two or more tied players, or in a team game
    (:attr:`RunTables.teams`) by two or more teams. Partners win together, so a game one
    team wins is one win for that team, not a tie of its players: it has ``k`` tied winners
    for a team of ``k``, and only games with more winners than a team has are shared."""
    if not run.teams:
        return run.games_played - int(run.table("seats")["sole_wins"].sum())
    team_size = max(len(team) for team in run.teams)
    by_winners = run.table("win_ties").groupby("winners")["games"].sum()
    shared = by_winners[by_winners.index > team_size]
    # a game with k winners appears once for each of them
    return round(float((shared / shared.index).sum()))


def margin_rows(margins: pd.Series | None) -> list[dict]:
    """The mean winning margin and the share of games won by one point (none when the run
    has no ``margins`` table or no game with a non-winner)."""
    if margins is None or margins.sum() == 0:
        return []
    mean, low, high = histogram_mean(margins)
    n = int(margins.sum())
    one = int(margins.get(1, 0))
    return [
        _row("margin_mean", "Winning margin (mean points)", "mean", mean, low, high, n),
        _rate_row("won_by_one", "Games won by one point", rate_table([one], [n]).iloc[0], one),
    ]


def measured(run: RunTables) -> dict[str, bool]:
    """Which optional metric groups the run's tables allow (False: "not measured")."""
    names = set(run.table_names)
    return {
        "Game length": any(name in names for name in LENGTH_TABLES),
        "Decisiveness": "settled" in names,
        "Lead changes": "lead_changes" in names,
        "Winning margin": "margins" in names,
        "Decisions": "decisions" in names,
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


def _histogram(run: RunTables, name: str, column: str | None = None) -> pd.Series | None:
    """A histogram table as a Series (value -> games), rotations merged; None if absent."""
    if name not in run.table_names:
        return None
    table = run.table(name)
    return table.groupby(column or name)["games"].sum().sort_index()


def length_histograms(run: RunTables) -> dict[str, pd.Series]:
    """The game-length histograms the run has (``moves``, ``turns``, ``rounds``)."""
    found = {name: _histogram(run, name) for name in LENGTH_TABLES}
    return {name: histogram for name, histogram in found.items() if histogram is not None}


def margin_histogram(run: RunTables) -> pd.Series | None:
    """The ``margins`` histogram (winning margin -> games), or None where not measured."""
    return _histogram(run, "margins", "margin")


def trajectory_histograms(run: RunTables) -> tuple[pd.Series | None, pd.Series | None]:
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
