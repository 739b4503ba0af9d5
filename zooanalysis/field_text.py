"""A field's findings in words: what the equilibrium plays, what alpha-Rank puts first,
and how far from converged the answer is, each claim only as strong as its intervals."""

from __future__ import annotations

import pandas as pd

from zooanalysis.field_analysis import IN_SUPPORT, nash_conv_interval
from zooanalysis.separation import Estimate, standout


def percent(value: float, low: float, high: float, decimals: int = 1) -> str:
    """``62.1% [40.0%, 80.2%]`` (nan bounds print as ``?``)."""

    def one(number: float) -> str:
        return "?" if pd.isna(number) else f"{100 * number:.{decimals}f}%"

    return f"{one(value)} [{one(low)}, {one(high)}]"


def support_sentences(table: pd.DataFrame) -> list[str]:
    """Which strategies the equilibrium plays, leaves out, or may play, by their weight
    intervals (a weight counts as played above :data:`IN_SUPPORT`)."""
    played = [s for s, r in table.iterrows() if r.weight_ci_low > IN_SUPPORT]
    out = [s for s, r in table.iterrows() if r.weight_ci_high <= IN_SUPPORT]
    unsure = [s for s in table.index if s not in played and s not in out]
    lines = []
    if played:
        lines.append(
            "Played in equilibrium (weight interval above 0.1%): " + ", ".join(played) + "."
        )
    if out:
        lines.append(
            "Left out of equilibrium (weight interval at most 0.1%): " + ", ".join(out) + "."
        )
    if unsure:
        lines.append(
            "Not settled by these games (the weight interval reaches both sides of 0.1%): "
            + ", ".join(unsure)
            + "."
        )
    return lines


def twin_sentences(table: pd.DataFrame) -> list[str]:
    """Strategies the data cannot tell apart: their split is not determined."""
    if "same_as" not in table:
        return []
    seen: set[str] = set()
    lines = []
    for name, row in table.iterrows():
        if row.same_as and name not in seen:
            group = [name, *row.same_as.split(", ")]
            seen.update(group)
            lines.append(
                f"{' and '.join(group)} are not measurably different in any composition "
                "(where one replaces the other, their payoffs' intervals overlap): these "
                "games do not determine how the equilibrium splits its weight between them, "
                "only their total."
            )
    return lines


def alpha_sentence(table: pd.DataFrame) -> str:
    """alpha-Rank's first strategy, named only when its interval separates it."""
    estimates = [
        Estimate(s, r.alpha_rank, r.alpha_rank_ci_low, r.alpha_rank_ci_high)
        for s, r in table.iterrows()
    ]
    best = standout(estimates)
    top = table.loc[best.top.name]
    score = percent(top.alpha_rank, top.alpha_rank_ci_low, top.alpha_rank_ci_high)
    if best.clear:
        return f"alpha-Rank puts {best.top.name} first ({score} of the stationary mass)."
    tied = ", ".join(e.name for e in best.level)
    return (
        f"alpha-Rank names no measurable first: {tied} are not separated "
        f"({best.top.name} leads the point estimates with {score})."
    )


def deviation_sentence(table: pd.DataFrame) -> str:
    """Whether any strategy measurably gains by deviating from the mix."""
    ahead = [s for s, r in table.iterrows() if r.gain_ci_low > 0]
    if not ahead:
        return (
            "No strategy of the population measurably gains against the equilibrium mix "
            "(every gain's 95% interval reaches 0 or below)."
        )
    parts = [
        f"{s} {percent(table.loc[s].gain_vs_mix, table.loc[s].gain_ci_low, table.loc[s].gain_ci_high, 2)}"  # noqa: E501
        for s in ahead
    ]
    return (
        "Measurably gaining against the mix (the solution is not converged, or the "
        "estimate is noisy): " + "; ".join(parts) + "."
    )


def field_summary(result) -> str:
    """The text ``zoosim field`` and ``zoosim show`` print for a field."""
    m = result.manifest
    table = result.equilibrium()
    solution = m["solution"]
    low, high = nash_conv_interval(
        solution["nash_conv"], *solution.get("nash_conv_ci", [float("nan")] * 2)
    )
    lines = [
        f"{m['title']} field: {len(m['population'])} strategies at {m['seats']} seats, "
        f"{m['compositions']} compositions in {m['lineups']} seatings x "
        f"{m['games_per_lineup']:,} games ({m['games']:,} games, the same deals for every "
        f"seating), seed {m['seed']}",
        "",
        "Symmetric equilibrium of the meta-game (win share per seat-game, ties split; "
        f"95% bootstrap CI over {m['batches']} batches of deals, {m['bootstrap']} replicates):",
        f"  {'strategy':<30} {'weight':>24} {'alpha-Rank':>24} {'payoff vs mix':>24}",
    ]
    for name, row in table.iterrows():
        lines.append(
            f"  {name:<30} {percent(row.weight, row.weight_ci_low, row.weight_ci_high):>24} "
            f"{percent(row.alpha_rank, row.alpha_rank_ci_low, row.alpha_rank_ci_high):>24} "
            f"{percent(row.payoff_vs_mix, row.payoff_ci_low, row.payoff_ci_high):>24}"
        )
    lines += [
        "",
        f"Distance from equilibrium (NashConv: the best deviation's gain against the mix, "
        f"in win share): {100 * solution['nash_conv']:.3f} points [{_points(low)}, "
        f"{_points(high)}] ({solution['kept']}, {solution['iterations']:,} steps).",
        *support_sentences(table),
        *twin_sentences(table),
        deviation_sentence(table),
        alpha_sentence(table),
        f"(alpha-Rank: selection intensity {m['alpha']}, population {m['alpha_population']}; "
        f"fair share {100 / m['seats']:.1f}%.)",
    ]
    return "\n".join(lines)


def _points(value: float) -> str:
    return "?" if pd.isna(value) else f"{100 * value:.3f}"
