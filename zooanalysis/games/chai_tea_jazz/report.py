"""Chai Tea Jazz's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

The contracts (what declarers make in each, its spread, which is easiest, the game points
each row gives), the Picking phase (how contracts are decided, how Bet Debt is used and
whether it pays), the Barrel and the end of the game (the Barrel holder's share of
contracts, the early end, the tie-break, Match Points) and the heuristics' hand evaluation.
Every finding states its 95% interval and n, and names a difference only when the
intervals separate.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.chai_tea_jazz.analysis import (
    ChaiRun,
    describe_rules,
    easiest_contracts,
    format_mean,
)
from zooanalysis.games.chai_tea_jazz.engine import HOW_NAMES
from zooanalysis.report.model import Figure, Finding, Section, Table
from zooanalysis.report.style import MAX_FIGURE_WIDTH, PALETTE, REFERENCE, new_grid, percent_axis
from zooanalysis.separation import Estimate, estimates_of, standout
from zooanalysis.stats import format_rate

DEFINITIONS = {
    "Declarer points": "The points on the cards the declarer's side won in a round, plus the "
    "last trick's points if it won it (10; 20 with 6 players), before any Bet Debt: what the "
    "contract let it make. Its score on the pad is these points less the Bet Debt (plus an "
    "accepted Barrel offer).",
    "Contract row": "A contract of the pad; every side plays each row once. When all have, "
    "the best score gains the row's game points, the worst loses them (ties: who completed "
    "the row first).",
    "Forced / uncontested / bet / offer": "How a round's contract was decided: everybody "
    "passed, so the Barrel holder had to pick; the first pick stood with no Bet Debt; a pick "
    "with Bet Debt (a raise) stood; a player took the Barrel holder's offer (Passing the "
    "Barrel).",
    "First pick": "The contract named by the first pick of a Picking phase (whether or not "
    "it became the contract).",
    "Barrel position": "A declarer's seat counted from the round's Barrel holder (1), who "
    "decides first and must pick when everybody passes.",
    "Early end": "After a round, a side is sure to win if no result of the rounds left "
    "(any scores, the rows not yet scored placed as badly for it as the scores already on the "
    "pad allow, every Match Point to its rival) lets another side pass it. The rulebook lets "
    "players stop then.",
    "Spread": "The standard deviation of declarer points over a contract's rounds, with a "
    "large-sample 95% interval: from sd x (1 - 1.96 / sqrt(2(n - 1))) to sd x (1 + 1.96 / "
    "sqrt(2(n - 1))).",
    "Hand evaluation": "The heuristics' estimate of what their known cards are worth as "
    "declarer for the way they picked (zooanalysis/games/chai_tea_jazz/evaluation.py), "
    "against the points their side then took.",
}


def report_sections(run: ChaiRun) -> list[Section]:
    """Every Chai Tea Jazz section for ``run``."""
    return [contracts_section(run), picking_section(run), end_section(run),
            evaluation_section(run)]  # fmt: skip


def _error_bars(axes, positions, table, mean: str, low: str, high: str, **style) -> None:
    errors = np.vstack([table[mean] - table[low], table[high] - table[mean]]).astype(float)
    axes.bar(positions, table[mean].astype(float), yerr=np.nan_to_num(errors), capsize=3,
             **style)  # fmt: skip


def contracts_section(run: ChaiRun) -> Section:
    """Declarer points by contract, their spread, and game points by contract."""
    rules = run.rules()
    declared = run.declarer_points("contract")
    easiest = easiest_contracts(declared)
    best, apart = easiest.top.name, easiest.clear and len(declared) > 1
    row = declared.loc[best]
    n = int(row.points_n)
    level = ", ".join(
        f"{e.name} ({format_mean(e.value, e.low, e.high)})" for e in easiest.level[1:]
    )
    findings = [
        Finding(
            (
                f"{best} is the easiest contract to make: its declarers took "
                f"{format_mean(row.points_mean, row.points_ci_low, row.points_ci_high)} points "
                f"(n={n:,} rounds), its interval above every other contract's."
                if apart
                else f"No contract is measurably the easiest: {best} ("
                f"{format_mean(row.points_mean, row.points_ci_low, row.points_ci_high)} points, "
                f"n={n:,}) overlaps {level or 'no other contract'}."
            ),
            row.points_mean, row.points_ci_low, row.points_ci_high, n, "chai_contracts",
            "easiest_contract",
        )
    ]
    spread = declared.sort_values("points_sd", ascending=False)
    widest, w = spread.index[0], spread.iloc[0]
    wide_apart = len(spread) > 1 and w.points_sd_ci_low > spread["points_sd_ci_high"].iloc[1:].max()
    findings.append(
        Finding(
            (
                f"{widest} has the widest spread of declarer points: standard deviation "
                f"{w.points_sd:.1f} [{w.points_sd_ci_low:.1f}, {w.points_sd_ci_high:.1f}] "
                f"points, scores running from {w.score_p10:.0f} (10%) to {w.score_p90:.0f} "
                f"(90%) (n={int(w.points_n):,})."
                if wide_apart
                else f"No contract's declarer points are measurably more spread than the "
                f"others': {widest}'s standard deviation {w.points_sd:.1f} "
                f"[{w.points_sd_ci_low:.1f}, {w.points_sd_ci_high:.1f}] overlaps the next."
            ),
            w.points_sd, w.points_sd_ci_low, w.points_sd_ci_high, int(w.points_n),
            "chai_contracts", "widest_contract",
        )
    )
    by_strategy = run.contract_points("strategy")
    figure, grid = new_grid(2, 1, MAX_FIGURE_WIDTH, 2 * 3.8)  # stacked: phone-wide
    left, right = grid[:, 0]
    positions = np.arange(len(declared))
    _error_bars(left, positions, declared, "points_mean", "points_ci_low", "points_ci_high",
                color=PALETTE[0])  # fmt: skip
    left.scatter(positions, declared["score_median"], color=REFERENCE, zorder=3, s=14,
                 label="median score")  # fmt: skip
    left.vlines(positions, declared["score_p10"], declared["score_p90"], color=REFERENCE,
                linewidth=1, label="score 10%-90%")  # fmt: skip
    left.set_xticks(positions, list(declared.index), rotation=20)
    left.set_ylabel("Declarer points per round")
    left.legend(fontsize=8)
    strategies = list(by_strategy.index.get_level_values(0).unique())
    width = 0.8 / max(len(strategies), 1)
    for index, strategy in enumerate(strategies):
        part = by_strategy.loc[strategy].reindex(declared.index)
        _error_bars(right, positions + index * width, part, "mean", "ci_low", "ci_high",
                    width=width, color=PALETTE[index % len(PALETTE)], label=strategy)  # fmt: skip
    right.axhline(0, color=REFERENCE, linewidth=0.8)
    right.set_xticks(positions + 0.4 - width / 2, list(declared.index), rotation=20)
    right.set_ylabel("Game points per game")
    right.legend(fontsize=8)
    return Section(
        title="Chai Tea Jazz: the contracts",
        intro=(
            f"Rules of this run: {describe_rules(rules)}. Every side plays every contract "
            "once; a contract's points decide only its own row. To see what a variant or "
            "another contract list changes, run simulations/sweep-chai-tea-jazz-variants.toml."
        ),
        findings=findings,
        figures=[
            Figure(
                "chai_contracts",
                "Declarer points and game points by contract",
                figure,
                "Top: mean declarer points per round (before Bet Debt; bars with 95% "
                "intervals), the median score on the pad and its 10%-90% range. Bottom: game "
                "points each row gave per game, by strategy (95% intervals).",
            )
        ],
        tables=[
            Table("chai_declarer_points", "Declarer points by contract", declared),
            Table("chai_contract_points", "Game points by contract and strategy", by_strategy),
            Table("chai_ways", "The ways each contract was played", run.ways()),
        ],
        definitions=DEFINITIONS,
    )


def picking_section(run: ChaiRun) -> Section:
    """How contracts are decided, and Bet Debt: its use and whether it pays."""
    rules = run.rules()
    choices = run.contract_choices("contract")
    findings = []
    most = standout(estimates_of(choices, "forced_rate", "forced_ci_low", "forced_ci_high"))
    top = most.top.name
    r = choices.loc[top]
    forced = format_rate(r.forced_rate, r.forced_ci_low, r.forced_ci_high, int(r.forced_n))
    level = ", ".join(
        f"{e.name} {format_rate(e.value, e.low, e.high, int(choices.loc[e.name, 'forced_n']))}"
        for e in most.level[1:]
    )
    findings.append(
        Finding(
            f"{top} is the contract most often forced on the Barrel holder: {forced} of its "
            "rounds."
            if most.clear and len(choices) > 1
            else f"No contract is measurably the most often forced on the Barrel holder: "
            f"{top} {forced} of its rounds, not separated from {level}."
            if level
            else f"{top} is the only contract: forced on the Barrel holder in {forced} of its "
            "rounds.",
            r.forced_rate, r.forced_ci_low, r.forced_ci_high, int(r.forced_n),
            "chai_picking", "most_forced_contract",
        )
    )
    debts = run.bet_debt()
    with_debt = debts[debts.index > 0]
    bets = run.bet_rounds()
    findings.append(
        Finding(
            f"{format_rate(bets.rate, bets.ci_low, bets.ci_high, int(bets.n))} of contracts "
            "were won with Bet Debt.",
            bets.rate, bets.ci_low, bets.ci_high, int(bets.n), "chai_picking", "bet_rounds",
        )
    )
    if 0 in debts.index and len(with_debt):
        free = debts.loc[0]
        step = with_debt.index[0]
        first = with_debt.iloc[0]
        better = first.score_ci_low > free.score_ci_high
        worse = first.score_ci_high < free.score_ci_low
        verdict = (
            "more than" if better else "less than" if worse else "not measurably different from"
        )
        findings.append(
            Finding(
                f"A raise to {step} paid {verdict} no debt: declarers' scores after the debt "
                f"were {format_mean(first.score_mean, first.score_ci_low, first.score_ci_high)}"
                f" (n={int(first.score_n):,}) against "
                f"{format_mean(free.score_mean, free.score_ci_low, free.score_ci_high)} at debt 0"
                " (who raises is not random: a strong hand raises more).",
                first.score_mean, first.score_ci_low, first.score_ci_high, int(first.score_n),
                "chai_picking", "debt_step_score",
            )
        )
    figure, grid = new_grid(2, 1, MAX_FIGURE_WIDTH, 2 * 3.8)  # stacked: phone-wide
    left, right = grid[:, 0]
    positions = np.arange(len(choices))
    bottom = np.zeros(len(choices))
    for index, how in enumerate(HOW_NAMES):
        if how == "offer" and not rules.passing_the_barrel:
            continue
        values = choices[f"{how}_rate"].to_numpy(dtype=float)
        left.bar(positions, values, bottom=bottom, color=PALETTE[index], label=how)
        bottom += values
    left.set_xticks(positions, list(choices.index), rotation=20)
    left.set_ylabel("Share of the contract's rounds")
    percent_axis(left)
    left.legend(fontsize=8)
    x = debts.index.to_numpy()
    right.errorbar(x, debts["score_mean"], yerr=np.nan_to_num(np.vstack(
        [debts["score_mean"] - debts["score_ci_low"], debts["score_ci_high"] - debts["score_mean"]]
    ).astype(float)), marker="o", color=PALETTE[0], label="score after debt")  # fmt: skip
    right.plot(x, debts["points_mean"], marker=".", color=PALETTE[1],
               label="points before debt")  # fmt: skip
    right.set_xlabel("Bet Debt")
    right.set_ylabel("Declarer points per round")
    right.legend(fontsize=8)
    return Section(
        title="Chai Tea Jazz: picking and Bet Debt",
        intro=(
            "In the Picking phase each player, from the Barrel holder, passes or picks; a "
            "pick after another must raise the Bet Debt (in steps of the Barrel card, "
            f"{rules.step} up to {rules.max_debt} here). The declarer's score on the pad is "
            "its points less the debt."
        ),
        findings=findings,
        figures=[
            Figure(
                "chai_picking",
                "How each contract was decided",
                figure,
                "Top: share of each contract's rounds decided by a forced pick, an "
                "uncontested first pick, a raise with Bet Debt (and a Barrel offer). Bottom: "
                "declarer points before and score after the debt, by Bet Debt (95% "
                "intervals).",
            )
        ],
        tables=[
            Table("chai_contract_choices", "How contracts were decided", choices),
            Table("chai_bet_debt", "Bet Debt: use and pay-off", debts),
            Table("chai_debt_usage", "Bet Debt by strategy", run.debt_usage("strategy")),
            Table("chai_picks_per_phase", "Picks per Picking phase", run.picks_per_phase()),
        ],
        definitions=DEFINITIONS,
    )


def end_section(run: ChaiRun) -> Section:
    """The Barrel holder's share of contracts, the early end, tie-breaks, Match Points."""
    positions = run.barrel_positions()
    holder = positions.loc[1]
    fair = 1 / len(positions)
    share = format_rate(holder.share_rate, holder.share_ci_low, holder.share_ci_high,
                        int(holder.share_n))  # fmt: skip
    findings = [
        Finding(
            f"The Barrel holder declared {share} of rounds (an even share would be "
            f"{fair:.1%}): it decides first and must pick when everybody passes.",
            holder.share_rate, holder.share_ci_low, holder.share_ci_high, int(holder.share_n),
            "chai_end", "barrel_declares",
        )
    ]
    early = run.early_end().iloc[0]
    saved = format_mean(early.rounds_saved_mean, early.rounds_saved_ci_low,
                        early.rounds_saved_ci_high)  # fmt: skip
    findings.append(
        Finding(
            f"A winner was certain before the last round in "
            f"{format_rate(early.rate, early.ci_low, early.ci_high, int(early.n))} of games; "
            f"stopping then would save {saved} of {int(early.rounds)} rounds per game.",
            early.rate, early.ci_low, early.ci_high, int(early.n), "chai_end", "early_end",
        )
    )
    ties = run.tie_breaks()
    findings.append(
        Finding(
            f"The tie-break ('the player who finished all their contracts first') decided "
            f"{format_rate(ties.rate, ties.ci_low, ties.ci_high, int(ties.n))} of games.",
            ties.rate, ties.ci_low, ties.ci_high, int(ties.n), "chai_end", "tie_break",
        )
    )
    matches = run.matches()
    m = matches.loc["declaring"]
    findings.append(
        Finding(
            f"A declarer's side won every trick in "
            f"{format_rate(m.rate, m.ci_low, m.ci_high, int(m.n))} of rounds (a Match Point "
            "with the Jass variant).",
            m.rate, m.ci_low, m.ci_high, int(m.n), "chai_end", "match_rate",
        )
    )
    certain = run.certain_after()
    figure, grid = new_grid(2, 1, MAX_FIGURE_WIDTH, 2 * 3.6)  # stacked: phone-wide
    left, right = grid[:, 0]
    index = np.arange(len(positions))
    _error_bars(left, index, positions, "share_rate", "share_ci_low", "share_ci_high",
                color=PALETTE[0])  # fmt: skip
    left.axhline(fair, color=REFERENCE, linestyle="--", linewidth=1, label="even share")
    left.set_xticks(index, [str(p) for p in positions.index])
    left.set_xlabel("Position from the Barrel holder")
    left.set_ylabel("Share of rounds declared")
    percent_axis(left)
    left.legend(fontsize=8)
    right.bar(certain.index.astype(int), certain["rate"].astype(float), color=PALETTE[2])
    right.set_xlabel("Rounds played when the winner was certain")
    right.set_ylabel("Share of games")
    percent_axis(right)
    return Section(
        title="Chai Tea Jazz: the Barrel and the end of the game",
        intro=(
            "The first Barrel holder is seat 1; the Barrel then moves to the next player with "
            "contracts left. With different strategies in different seats, seat effects mix "
            "with strategy effects: rotate the lineup (--rotate-seats) to measure the first "
            "player's advantage."
        ),
        findings=findings,
        figures=[
            Figure(
                "chai_end",
                "The Barrel holder, and when the winner is certain",
                figure,
                "Top: share of rounds declared by each position from the Barrel holder (95% "
                "Wilson intervals; dashed: an even share). Bottom: share of games by the "
                "number of rounds played when the winner became certain (the last bin: only "
                "at the end).",
            )
        ],
        tables=[
            Table("chai_barrel_positions", "Declarers by position from the Barrel holder",
                  positions),
            Table("chai_certain_after", "Rounds played when the winner was certain", certain),
            Table("chai_matches", "Rounds with every trick to one side", matches),
        ],
        definitions=DEFINITIONS,
    )


def evaluation_section(run: ChaiRun) -> Section:
    """How well the heuristics' hand evaluation predicted declarer points."""
    fit = run.evaluation_fit()
    if fit.empty:
        return Section(
            title="Chai Tea Jazz: hand evaluation",
            intro="No heuristic declared a contract in this run, so the hand evaluation was "
            "not used.",
        )
    best = standout(_correlations(fit))
    top = fit.loc[best.top.name]
    findings = [
        Finding(
            evaluation_text(fit),
            top.correlation, top.ci_low, top.ci_high, int(top.n), None, "evaluation_fit",
        )
    ]
    return Section(
        title="Chai Tea Jazz: hand evaluation",
        intro=(
            "greedy and tracker value their hand for every way to play a round before picking "
            "(docs: zooanalysis/games/chai_tea_jazz/evaluation.py). The closer the value "
            "follows the points their side then takes, the better their picks and bets."
        ),
        findings=findings,
        tables=[Table("chai_evaluation_fit", "Hand evaluation against declarer points", fit)],
        definitions=DEFINITIONS,
    )


def _correlations(fit: pd.DataFrame) -> list[Estimate]:
    """Each contract's correlation of hand value and declarer points, as an estimate."""
    return estimates_of(fit, "correlation")


def evaluation_text(fit: pd.DataFrame) -> str:
    """The hand-evaluation finding (``fit``: :meth:`ChaiRun.evaluation_fit`): the contract
    it predicted best and the one it predicted worst, each named only when its interval
    is separated from every other contract's (``separation.standout``), else the contracts
    not separated are listed as having no measurable difference."""

    def phrase(e: Estimate) -> str:
        return f"{e.name} {e.value:.2f} [{e.low:.2f}, {e.high:.2f}]"

    estimates = _correlations(fit)
    best, worst = standout(estimates), standout(estimates, highest=False)
    n = int(fit["n"].max())
    if len(estimates) < 2:
        return (
            f"The heuristics' hand evaluation and declarer points in {phrase(best.top)} "
            f"(correlation, n={n:,} rounds)."
        )
    parts = []
    for answer, word in ((best, "best"), (worst, "worst")):
        if answer.clear:
            parts.append(f"{word} in {phrase(answer.top)}")
        else:
            level = ", ".join(phrase(e) for e in answer.level)
            parts.append(f"no measurable difference among the {word} ({level})")
    return (
        "The heuristics' hand evaluation predicted declarer points (correlation, 95% CI, "
        f"up to n={n:,} rounds per contract): " + "; ".join(parts) + "."
    )
