"""The report section "Skill or luck?": each shipped strategy against random players.

It reads the skill runs kept in ``RUN_DIR/skill`` (``zooanalysis.skill``); when there are
none it says how to measure them, and never plays games itself.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.report.model import Figure, Finding, Section, Table, points_phrase, rate_phrase
from zooanalysis.report.style import MAX_FIGURE_WIDTH, PALETTE, REFERENCE, new_figure
from zooanalysis.separation import Estimate, standout

TITLE = "Skill or luck?"
DEFINITIONS = {
    "Skill gap": "How much more a strategy wins than a random player: each shipped strategy "
    "played one seat against random players in the others, every deal once in every "
    "seating (so seat and deal luck cancel), and the gap is the paired difference of win "
    "shares (ties split), strategy minus random, in percentage points with its 95% interval "
    "over the deals. 0 means playing that strategy is worth nothing over random choices (the "
    "game is luck for it); the larger the gap, the more the game rewards playing well. The "
    "random players' own win share says how often luck alone still wins. Measured by "
    "zoosim skill RUN_DIR (stored in RUN_DIR/skill), for the run's rules and number of "
    "players.",
}


def skill_section(run_dir: Path | None) -> Section:
    """The section for the run in ``run_dir``: the measured skill gaps, or how to measure
    them."""
    from zooanalysis.skill import skill_table

    table = skill_table(run_dir) if run_dir is not None else None
    if table is None:
        where = run_dir if run_dir is not None else "RUN_DIR"
        return Section(
            title=TITLE,
            intro="How much a good strategy wins over random play: not measured for this run.",
            findings=[
                Finding(
                    "Skill or luck: not measured for this run. zoosim skill "
                    f"{where} plays each shipped strategy against random players (a small "
                    "rotated run each, kept in the run's skill folder); the report then "
                    "states how much more each wins than a random player.",
                    key="skill_none",
                )
            ],
            definitions=DEFINITIONS,
        )
    return Section(
        title=TITLE,
        intro=(
            "Each shipped strategy in one seat against random players in the others, every "
            f"deal in every seating ({int(table['deals'].iloc[0]):,} deals each, "
            f"{int(table['players'].iloc[0])} players): how much more it wins than a random "
            "player on the same deals."
        ),
        findings=[skill_finding(table)],
        figures=[skill_figure(table)],
        tables=[
            Table(
                "skill",
                "Skill gap: win share over a random player's (paired, 95% CI)",
                table,
                "gap: strategy minus random, as a fraction of games (0.05 = 5 points); "
                "share: the strategy's win share; random_share: a random player's, at the same "
                "table; deals: each played in every seating.",
                index=False,
                shown=_shown(table),
            )
        ],
        definitions=DEFINITIONS,
    )


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "strategy": table["strategy"],
            "skill gap [95% CI]": [
                points_phrase(r.gap, r.gap_ci_low, r.gap_ci_high) for r in table.itertuples()
            ],
            "its win share": [
                rate_phrase(r.share, r.share_ci_low, r.share_ci_high) for r in table.itertuples()
            ],
            "random's win share": [
                rate_phrase(r.random_share, r.random_ci_low, r.random_ci_high)
                for r in table.itertuples()
            ],
            "deals": table["deals"],
        }
    )


def skill_finding(table: pd.DataFrame) -> Finding:
    """The skill gap of every strategy; the most skilful named only when separated, and a
    gap called skill only when its interval excludes 0."""
    estimates = [
        Estimate(r.strategy, r.gap, r.gap_ci_low, r.gap_ci_high) for r in table.itertuples()
    ]
    best = standout(estimates)
    parts = []
    for e in sorted(estimates, key=lambda e: -e.value):
        verdict = (
            "" if e.low > 0 or e.high < 0 else " (no measurable difference from random play)"
        )
        parts.append(f"{e.name} {points_phrase(e.value, e.low, e.high)}{verdict}")
    if best.top.low <= 0:
        lead = "No shipped strategy measurably beats random play"
    elif best.clear:
        lead = f"{best.top.name} gains the most over random play"
    else:
        names = [e.name for e in best.level]
        lead = f"{', '.join(names[:-1])} and {names[-1]} gain the most over random play (not "
        lead += "separated from each other)"
    row = table.set_index("strategy").loc[best.top.name]
    luck = rate_phrase(row.random_share, row.random_ci_low, row.random_ci_high)
    return Finding(
        f"Skill or luck: {lead}. Win share over a random player on the same deals, every "
        f"seating: {'; '.join(parts)}. Beside {best.top.name}, a random player still wins "
        f"{luck} of games.",
        best.top.value,
        best.top.low,
        best.top.high,
        int(row.deals),
        "skill_gap",
        "skill_gap",
    )


def skill_figure(table: pd.DataFrame) -> Figure:
    """Each strategy's skill gap with its interval; dashed: no gain over random play."""
    ordered = table.sort_values("gap", ascending=False)
    figure, axes = new_figure(MAX_FIGURE_WIDTH, 0.9 + 0.45 * len(ordered))
    y = np.arange(len(ordered))
    values = 100 * ordered["gap"].to_numpy()
    errors = np.vstack(
        [values - 100 * ordered["gap_ci_low"].to_numpy(),
         100 * ordered["gap_ci_high"].to_numpy() - values]
    )  # fmt: skip
    axes.errorbar(values, y, xerr=np.clip(errors, 0, None), fmt="o", color=PALETTE[2], capsize=3)
    axes.axvline(0, color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_yticks(y, list(ordered["strategy"]))
    axes.set_ylim(len(ordered) - 0.5, -0.5)
    axes.set_xlabel("Win share over a random player's (percentage points)")
    return Figure(
        "skill_gap",
        "Skill gap: each strategy against random players",
        figure,
        "Paired over deals played in every seating, with 95% intervals; dashed: no gain over "
        "random play.",
    )
