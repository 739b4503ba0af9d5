"""The headline findings of a run, in plain words, from its balance metrics.

Each :class:`Finding` carries the number it states (with its 95% interval and n) so the
tests can hold the words to the DataFrames.
"""

from __future__ import annotations

import pandas as pd

from zooanalysis.report.model import Finding, mean_phrase, percent, rate_phrase
from zooanalysis.results import Run
from zooanalysis.seat_order import against_fair
from zooanalysis.separation import Estimate, standout
from zooanalysis.stats import same_games_difference


def seat_label(seat: int, strategy: str) -> str:
    """``seat 3 (cautious)``, or ``seat 3`` when the seat hosted every strategy in turn."""
    return f"seat {seat}" if strategy == "(rotated)" else f"seat {seat} ({strategy})"


def seat_finding(run: Run) -> Finding:
    """Every seat's win share against the fair share: which seats are measurably above or
    below it (interval and Holm-corrected test, ``seat_order.against_fair``), which not."""
    rates = run.win_rates("seat")
    players = len(run.lineup)
    fair = 1.0 / players
    groups: dict[int, list[str]] = {1: [], -1: [], 0: []}
    for seat, row in against_fair(rates, fair).iterrows():
        groups[int(row.verdict)].append(
            f"{seat_label(seat, row.strategy)} {rate_phrase(row.share, row.ci_low, row.ci_high)}"
        )
    games = int(rates["n"].iloc[0])
    if not groups[1] and not groups[-1]:
        text = (
            f"No seat's win share differs measurably from the fair share of {percent(fair)} "
            f"({games:,} games): " + ", ".join(groups[0])
        )
    else:
        parts = [
            f"{words}: {', '.join(groups[side])}"
            for side, words in (
                (1, "more than the fair share"),
                (-1, "less than the fair share"),
                (0, "within noise of it"),
            )
            if groups[side]
        ]
        text = f"Win share against the fair share of {percent(fair)} ({games:,} games): " + (
            "; ".join(parts)
        )
    if run.teams:
        text += (
            f". Partners win together ({team_phrase(run.teams)}): each partner gets an equal "
            "part of its team's win, so partners' shares are equal"
        )
    if not run.rotated and len(set(run.lineup)) > 1:
        text += (
            ". Without --rotate-seats a seat always holds the same strategy, so seat and "
            "strategy effects are mixed (see 'Does seat order matter?')"
        )
    furthest = int((rates["share"] - fair).abs().idxmax())
    row = rates.loc[furthest]
    return Finding(
        text + ".", row.share, row.ci_low, row.ci_high, int(row.n), "win_rate_by_seat", "seat_bias"
    )


def strategy_finding(run: Run) -> Finding:
    """The strategy with the highest win share per seat played, named only when the data
    separate it from every other (intervals, or a Holm-corrected test of the difference)."""
    rates = run.win_rates("strategy")
    if len(rates) == 1:
        name = rates.index[0]
        row = rates.iloc[0]
        return Finding(
            f"Every seat plays {name} (a mirror match): no strategies to compare; "
            "'Does seat order matter?' compares the seats.",
            row.share,
            row.ci_low,
            row.ci_high,
            int(row.n),
            "win_rate_by_strategy",
            "best_strategy",
        )
    estimates = [
        Estimate(str(name), row.share, row.ci_low, row.ci_high) for name, row in rates.iterrows()
    ]
    best = standout(estimates, p_value=strategy_test(run, rates))
    row = rates.loc[best.top.name]
    shown = {e.name: f"{e.name} {rate_phrase(e.value, e.low, e.high)}" for e in estimates}
    others = [shown[e.name] for e in estimates if e.name not in {x.name for x in best.level}]
    tail = f" (others: {', '.join(others)})" if others else ""
    if best.clear:
        text = (
            f"The strongest strategy here is {best.top.name}: a win share of "
            f"{rate_phrase(row.share, row.ci_low, row.ci_high)} per seat it plays, measurably "
            f"above every other{tail}."
        )
    else:
        text = (
            "No strategy is measurably the strongest: "
            + ", ".join(shown[e.name] for e in best.level)
            + f" (win share per seat played) are not separated{tail}."
        )
    return Finding(
        text, row.share, row.ci_low, row.ci_high, int(row.n), "win_rate_by_strategy",
        "best_strategy",
    )  # fmt: skip


def strategy_test(run: Run, rates: pd.DataFrame):
    """A two-sided test of the difference of two strategies' win shares: paired on the
    same deals for a rotated run, otherwise on the same games (one multinomial draw)."""
    if run.rotated and "rotation_pairs" in run.table_names:
        pairs = run.table("rotation_pairs")
        p = {(r.strategy, r.versus): r.p_value for r in pairs.itertuples()}
        return lambda a, b: p.get((a.name, b.name), p.get((b.name, a.name), float("nan")))
    games = float(rates["games"].iloc[0])

    def test(a: Estimate, b: Estimate) -> float:
        seats_a, seats_b = int(rates.loc[a.name, "seats"]), int(rates.loc[b.name, "seats"])
        return same_games_difference(a.value, b.value, games, seats_a, seats_b)[3]

    return test


def team_phrase(teams: list[tuple[int, ...]]) -> str:
    """``seats 1 & 3, seats 2 & 4``: who plays together."""
    return ", ".join("seats " + " & ".join(str(seat) for seat in team) for team in teams)


def metric_findings(
    metrics: pd.DataFrame,
    measured: dict[str, bool],
    teams: list[tuple[int, ...]] | None = None,
) -> list[Finding]:
    """Findings for balance, ties, game length, decisiveness and lead changes. With
    ``teams`` (``Run.teams``) the words are a team game's: partners win together, so a
    team's win is one win, not a tie, and the winner and margin are the winning team's."""
    rows = metrics.set_index("metric")
    found: list[Finding] = []
    winner = "winning team" if teams else "winner"
    single = "a single winning team" if teams else "a single winner"

    def add(metric: str, text: str, figure: str | None) -> None:
        row = rows.loc[metric]
        found.append(Finding(text, row.value, row.ci_low, row.ci_high, int(row.n), figure, metric))

    row = rows.loc["seat_balance"]
    add(
        "seat_balance",
        f"Balance across seats is {rate_phrase(row.value, row.ci_low, row.ci_high)} "
        "(100% = every seat has the same win share).",
        "win_rate_by_seat",
    )
    row = rows.loc["tie"]
    if teams:
        tie_text = (
            f"Partners win together ({team_phrase(teams)}): a game one team wins is one "
            "win for that team, not a tie of its players. "
            f"{rate_phrase(row.value, row.ci_low, row.ci_high)} of games are shared between "
            "teams."
        )
    else:
        tie_text = (
            f"{rate_phrase(row.value, row.ci_low, row.ci_high)} of games end in a shared win."
        )
    add("tie", tie_text, None)
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
            f"In {rate_phrase(row.value, row.ci_low, row.ci_high)} of games with {single}, "
            f"the {winner} leads for good within the first half of the game.",
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
    if "comeback" in rows.index:
        row, drama = rows.loc["comeback"], rows.loc["drama"]
        add(
            "comeback",
            f"Comebacks: in {rate_phrase(row.value, row.ci_low, row.ci_high)} of games with "
            f"{single}, the {winner} takes the lead for good only in the second half; in "
            f"{rate_phrase(drama.value, drama.ci_low, drama.ci_high)} the game is still open "
            "in its last quarter (drama).",
            "decisiveness",
        )
    if "margin_mean" in rows.index:
        row, one = rows.loc["margin_mean"], rows.loc["won_by_one"]
        add(
            "margin_mean",
            f"The {winner} is ahead of the best other {'team' if teams else 'player'} by "
            f"{mean_phrase(row.value, row.ci_low, row.ci_high, 'points')} on average at the "
            f"end; {rate_phrase(one.value, one.ci_low, one.ci_high)} of games are won by a "
            "single point.",
            "winning_margin",
        )
    elif not measured.get("Winning margin", False):
        found.append(Finding("Winning margin: not measured for this run.", key="margin_none"))
    if "branching_mean" in rows.index:
        row, real, per = rows.loc["branching_mean"], rows.loc["decision_share"], rows.loc[
            "decisions_mean"]  # fmt: skip
        add(
            "branching_mean",
            "A player deciding has "
            f"{mean_phrase(row.value, row.ci_low, row.ci_high, 'legal options')} on average "
            f"(branching factor); {rate_phrase(real.value, real.ci_low, real.ci_high)} "
            "of decisions are a real choice (two options or more), "
            f"{mean_phrase(per.value, per.ci_low, per.ci_high)} per game.",
            None,
        )
    elif not measured.get("Decisions", False):
        found.append(Finding("Decisions and branching factor: not measured for this run.",
                             key="decisions_none"))  # fmt: skip
    return found
