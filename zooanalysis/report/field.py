"""The report of a field folder: the equilibrium mix, alpha-Rank, convergence, the meta-game."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from zooanalysis.field import FieldResult
from zooanalysis.field_analysis import nash_conv_interval
from zooanalysis.field_text import (
    alpha_sentence,
    deviation_sentence,
    support_sentences,
    twin_sentences,
)
from zooanalysis.games import get_game
from zooanalysis.report.model import Figure, Finding, ReportDocument, Section, Table
from zooanalysis.report.run_report import strategy_descriptions
from zooanalysis.report.style import PALETTE, REFERENCE, new_figure, percent_axis

DEFINITIONS = {
    "Meta-game": "A game whose moves are the population's strategies: each seat picks one, "
    "and a seat's payoff is its strategy's win share per seat-game (ties split) in the "
    "lineup that results, measured on the same deals for every lineup, every strategy in "
    "every seat equally often.",
    "Equilibrium mix": "A symmetric Nash equilibrium of the meta-game: weights such that, "
    "when every seat draws its strategy from them, no strategy of the population earns more "
    "than the mix itself. Found by replicator dynamics from several starts (the lowest-NashConv "
    "candidate, pure strategies included); its 95% interval is a bootstrap over batches of "
    "deals (each replicate re-solved the same way).",
    "NashConv": "The most any strategy of the population gains against the mix over the mix "
    "itself, in win share: 0 at an exact equilibrium of the measured meta-game. It says how "
    "far from converged the solution is.",
    "alpha-Rank": "The long-run share of time a population spends playing each strategy "
    "when single mutants invade and take over with Moran-process odds (selection intensity "
    "alpha): a ranking that needs no equilibrium and handles cycles.",
    "Payoff against the mix": "A strategy's win share per seat-game when the other seats "
    "are drawn from the equilibrium mix.",
}


def field_document(result: FieldResult) -> ReportDocument:
    """Everything ``zoosim report`` shows for a field folder."""
    manifest = result.manifest
    table = result.equilibrium()
    solution = manifest["solution"]
    findings = [
        Finding(text, figure="equilibrium_weights", key=f"support_{i}")
        for i, text in enumerate(support_sentences(table))
    ]
    findings += [Finding(text, key="twins") for text in twin_sentences(table)]
    low, high = nash_conv_interval(
        solution["nash_conv"], *solution.get("nash_conv_ci", [np.nan, np.nan])
    )
    findings.append(
        Finding(
            f"The solution is {100 * solution['nash_conv']:.3f} points of win share from an "
            f"exact equilibrium of the measured meta-game (NashConv; bootstrap interval "
            f"[{100 * low:.3f}, {100 * high:.3f}]).",
            solution["nash_conv"],
            low,
            high,
            int(manifest["games"]),
            "convergence",
            "nash_conv",
        )
    )
    findings.append(Finding(deviation_sentence(table), figure="payoff_vs_mix", key="gains"))
    findings.append(Finding(alpha_sentence(table), figure="alpha_rank", key="alpha_rank"))
    section = Section(
        title="Equilibrium field",
        intro=(
            f"{len(manifest['population'])} strategies at {manifest['seats']} seats: "
            f"{manifest['compositions']} compositions in {manifest['lineups']} seatings of "
            f"{manifest['games_per_lineup']:,} games each, all on the same deals."
        ),
        findings=[],
        figures=[
            interval_figure(
                table,
                "weight",
                "equilibrium_weights",
                "Equilibrium mix",
                "Weight in the symmetric equilibrium",
            ),
            interval_figure(
                table, "alpha_rank", "alpha_rank", "alpha-Rank", "Stationary mass (alpha-Rank)"
            ),
            interval_figure(
                table,
                "payoff_vs_mix",
                "payoff_vs_mix",
                "Payoff against the mix",
                "Win share per seat-game against the mix",
                low="payoff_ci_low",
                high="payoff_ci_high",
                reference=1 / manifest["seats"],
            ),
            convergence_figure(result.convergence()),
        ],
        tables=[
            Table(
                "equilibrium",
                "Equilibrium weight, alpha-Rank and payoff against the mix (95% bootstrap CI)",
                table,
            ),
            Table(
                "payoffs",
                "The meta-game: win share per seat-game in every composition (95% CI)",
                result.payoffs(),
                index=False,
                hidden=("composition",),
            ),
        ],
        definitions=DEFINITIONS,
    )
    sections = [section]
    ladder = result.ladder()
    if not ladder.empty:
        from zooanalysis.ladder_search import no_rung_reason

        sections.append(ladder_section(ladder, int(manifest["seats"]), no_rung_reason(result)))
        findings.append(ladder_finding(ladder))
    game = get_game(manifest["game"])
    names = [label.split(":", 1)[0] for label in manifest["population"]]
    return ReportDocument(
        title=f"{manifest['title']}: equilibrium field",
        subtitle=(
            f"{manifest['games']:,} games, population {', '.join(manifest['population'])}, "
            f"seed {manifest['seed']}."
        ),
        findings=findings,
        sections=sections,
        facts={
            "Field": str(result.path) if result.path else "(in memory)",
            "Game": f"{manifest['title']} ({manifest['game']})",
            "Rule settings": json.dumps(manifest.get("settings", {}), sort_keys=True),
            "Population sources": "; ".join(manifest.get("sources") or []) or "command line",
            "zoosim version": str(manifest.get("zoosim_version", "?")),
            "Git commit": str(manifest.get("git_commit", "?")),
            "Created": str(manifest.get("created", "?")),
        },
        strategies=strategy_descriptions(game, list(dict.fromkeys(names))),
    )


def interval_figure(
    table: pd.DataFrame,
    column: str,
    name: str,
    title: str,
    label: str,
    low: str | None = None,
    high: str | None = None,
    reference: float | None = None,
) -> Figure:
    """One value per strategy with its 95% interval, as points with error bars."""
    low = low or f"{column}_ci_low"
    high = high or f"{column}_ci_high"
    figure, axes = new_figure(6.4, 0.8 + 0.5 * len(table))
    positions = np.arange(len(table))
    values = table[column].to_numpy(dtype=float)
    below = np.clip(values - table[low].to_numpy(dtype=float), 0, None)
    above = np.clip(table[high].to_numpy(dtype=float) - values, 0, None)
    axes.errorbar(
        values,
        positions,
        xerr=np.nan_to_num(np.vstack([below, above])),
        fmt="o",
        color=PALETTE[0],
        capsize=3,
    )
    if reference is not None:
        axes.axvline(reference, color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_yticks(positions, list(table.index))
    axes.invert_yaxis()
    axes.set_xlabel(label)
    percent_axis(axes, "x")
    return Figure(name, title, figure, f"{label}, with 95% bootstrap intervals over deals.")


def convergence_figure(trace: pd.DataFrame) -> Figure:
    """NashConv of the last iterate and running average of the replicator run from the
    uniform mix along the way."""
    figure, axes = new_figure()
    floor = 1e-12
    axes.plot(
        trace["iteration"],
        trace["nash_conv_last"].clip(lower=floor),
        marker="o",
        color=PALETTE[0],
        label="last iterate",
    )
    axes.plot(
        trace["iteration"],
        trace["nash_conv_average"].clip(lower=floor),
        marker="s",
        color=PALETTE[1],
        label="running average",
    )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("Replicator step")
    axes.set_ylabel("NashConv (win share)")
    axes.legend()
    return Figure(
        "convergence",
        "Convergence of the replicator dynamics",
        figure,
        "How far from an equilibrium the dynamics from the uniform mix were along the way "
        "(before the final polish on the support, and before comparing with the other "
        "candidates); 0 would be exact.",
    )


def ladder_finding(ladder: pd.DataFrame) -> Finding:
    """The steepest rung of the ladder, said with its interval and baseline."""
    top = ladder.loc[ladder["gain"].idxmax()]
    text = (
        f"Skill ladder: one {top.player} at a table of {top.versus} wins a share of "
        f"{100 * top.share:.1f}% [{100 * top.ci_low:.1f}%, {100 * top.ci_high:.1f}%] per "
        f"seat-game where a {top.versus} in its seat wins {100 * top.baseline:.1f}%: "
        f"{100 * top.gain:+.1f} points [{100 * top.gain_ci_low:+.1f}, "
        f"{100 * top.gain_ci_high:+.1f}] ({top.verdict})."
    )
    return Finding(
        text, top.gain, top.gain_ci_low, top.gain_ci_high, 0, "skill_ladder", "skill_ladder"
    )


def ladder_section(ladder: pd.DataFrame, seats: int, no_search: str | None = None) -> Section:
    """Each rung's win share against a table of the rung below, as one figure (the search
    rung, where there is one, in its own colour; ``no_search``: why there is none)."""
    figure, axes = new_figure(6.4, 1.3 + 0.7 * len(ladder))
    positions = np.arange(len(ladder))
    below = np.clip(ladder["share"] - ladder["ci_low"], 0, None).fillna(0)
    above = np.clip(ladder["ci_high"] - ladder["share"], 0, None).fillna(0)
    searched = (ladder["interval"] == "Wilson").to_numpy()
    colours = [PALETTE[1] if s else PALETTE[0] for s in searched]
    axes.barh(positions, ladder["share"], color=colours, alpha=0.8)
    axes.errorbar(ladder["share"], positions, xerr=np.vstack([below, above]), fmt="none",
                  color="black", capsize=3)  # fmt: skip
    axes.scatter(ladder["baseline"], positions, marker="|", s=400, color=REFERENCE, zorder=3,
                 label="baseline: the rung below in that seat (search: fair share)")  # fmt: skip
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), frameon=False)
    axes.set_yticks(
        positions,
        [f"{r.player}\nvs {r.versus}\nn={r.n:,}" for r in ladder.itertuples()],
    )
    axes.invert_yaxis()
    axes.set_xlabel("Win share of one player against a table of the rung below")
    percent_axis(axes, "x")
    return Section(
        title="Skill ladder",
        intro=(
            "How much skill matters: each rung (random, shipped heuristic, tuned, "
            "equilibrium mix, and the search player where the game has a forward model) is "
            "one seat at a table of the rung below; the grey mark is what that seat earned "
            "playing like the others (the baseline; for the search rung the fair share). "
            "Within a rung the member doing best against the rung below climbs, chosen on "
            "the same data (slightly optimistic). The search rung is played on its own "
            "deals, each in every seat, the other seats drawn from the top rung deal by "
            "deal; its interval is Wilson's at the effective sample size of its seat-games "
            "(the rotations of a deal share its cards: Kish's design effect from their "
            "correlation, n_eff between the deals and the seat-games), and it shows no "
            "measurable difference where that covers the fair share."
            + (f" {no_search}" if no_search else "")
        ),
        figures=[
            Figure(
                "skill_ladder",
                "Skill ladder",
                figure,
                "Win share per seat-game against a table of the rung below, with 95% "
                "bootstrap intervals over deals (the search rung, in its own colour: Wilson "
                "at its effective n); n: the seat-games read; grey: the baseline.",
            )
        ],
        tables=[
            Table(
                "ladder",
                "Skill ladder (95% CI: bootstrap over deals; Wilson for the search rung)",
                ladder,
                index=False,
            )
        ],
    )
