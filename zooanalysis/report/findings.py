"""The headline findings of a run, in plain words, from its balance metrics.

Each :class:`Finding` carries the number it states (with its 95% interval and n) so the
tests can hold the words to the DataFrames.
"""

from __future__ import annotations

import pandas as pd

from zooanalysis.report.model import Finding, mean_phrase, percent, rate_phrase
from zooanalysis.results import Run


def seat_finding(run: Run) -> Finding:
    """The seat furthest from its fair share, and whether the interval excludes it."""
    rates = run.win_rates("seat")
    players = len(run.lineup)
    fair = run.fair_share
    seat = int((rates["rate"] - fair).abs().idxmax())
    row = rates.loc[seat]
    if row.ci_low > fair:
        verdict = "more than its fair share"
    elif row.ci_high < fair:
        verdict = "less than its fair share"
    else:
        verdict = "within noise of its fair share"
    who = "" if row.strategy == "(rotated)" else f" ({row.strategy})"
    mixed = (
        ""
        if run.rotated or len(set(run.lineup)) == 1
        else "; without --rotate-seats a seat always holds the same strategy, so seat and "
        "strategy effects are mixed"
    )
    return Finding(
        f"Seat {seat + 1}{who} wins {rate_phrase(row.rate, row.ci_low, row.ci_high)} of "
        f"{players}-player games (fair share {percent(fair)}): {verdict}{mixed}.",
        row.rate,
        row.ci_low,
        row.ci_high,
        int(row.n),
        "win_rate_by_seat",
        "seat_bias",
    )


def strategy_finding(run: Run) -> Finding:
    """The strategy with the highest win rate per seat played."""
    rates = run.win_rates("strategy")
    name = rates["rate"].idxmax()
    row = rates.loc[name]
    others = ", ".join(
        f"{other} {percent(r.rate)}" for other, r in rates.drop(index=name).iterrows()
    )
    tail = f" (others: {others})" if others else ""
    return Finding(
        f"The strongest strategy here is {name}: it wins "
        f"{rate_phrase(row.rate, row.ci_low, row.ci_high)} of the seats it plays{tail}.",
        row.rate,
        row.ci_low,
        row.ci_high,
        int(row.n),
        "win_rate_by_strategy",
        "best_strategy",
    )


def metric_findings(metrics: pd.DataFrame, measured: dict[str, bool]) -> list[Finding]:
    """Findings for balance, ties, game length, decisiveness and lead changes."""
    rows = metrics.set_index("metric")
    found: list[Finding] = []

    def add(metric: str, text: str, figure: str | None) -> None:
        row = rows.loc[metric]
        found.append(Finding(text, row.value, row.ci_low, row.ci_high, int(row.n), figure, metric))

    row = rows.loc["seat_balance"]
    add(
        "seat_balance",
        f"Balance across seats is {rate_phrase(row.value, row.ci_low, row.ci_high)} "
        "(100% = every seat wins equally often).",
        "win_rate_by_seat",
    )
    row = rows.loc["tie"]
    add(
        "tie",
        f"{rate_phrase(row.value, row.ci_low, row.ci_high)} of games end in a shared win.",
        None,
    )
    for name in ("moves", "turns", "rounds"):
        if f"{name}_mean" in rows.index:
            row = rows.loc[f"{name}_mean"]
            add(
                f"{name}_mean",
                f"A game lasts {mean_phrase(row.value, row.ci_low, row.ci_high, name)} on average.",
                "game_length",
            )
            break
    if "settled_first_half" in rows.index:
        row = rows.loc["settled_first_half"]
        add(
            "settled_first_half",
            f"In {rate_phrase(row.value, row.ci_low, row.ci_high)} of games with a single "
            "winner, the winner leads for good within the first half of the game.",
            "decisiveness",
        )
    elif not measured.get("Decisiveness", False):
        found.append(Finding("Decisiveness: not measured for this run.", key="settled_none"))
    if "lead_changes_mean" in rows.index:
        row = rows.loc["lead_changes_mean"]
        add(
            "lead_changes_mean",
            f"The sole lead changes hands {mean_phrase(row.value, row.ci_low, row.ci_high)} "
            "times per game.",
            "lead_changes",
        )
    elif not measured.get("Lead changes", False):
        found.append(Finding("Lead changes: not measured for this run.", key="lead_none"))
    return found
