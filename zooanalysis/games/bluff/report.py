"""Bluff in Zoo's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

Doubt success over claimed count x pile size, the exact odds next to what the bots' doubts
found, bluff rates by strategy, penalty points and how games end.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.bluff import odds
from zooanalysis.games.bluff.analysis import BluffRun
from zooanalysis.games.bluff.counts import POINT_BINS
from zooanalysis.games.bluff.rules import settings_from_table
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    estimates_of,
    mean_phrase,
    percent,
    rate_phrase,
)
from zooanalysis.report.style import (
    HEATMAP,
    MISSING,
    PALETTE,
    count_axis,
    new_figure,
    percent_axis,
    rate_bars,
)
from zooanalysis.separation import Estimate, standout
from zooanalysis.stats import rate_table

MIN_DOUBTS = 100
"""Heatmap cells with fewer doubts than this are greyed out."""
MAX_COUNT_SHOWN = 16
MAX_PILE_SHOWN = 24
HEADLINE_MIN_PILE = 4
"""Headline doubts and the odds figure prefer piles of at least this many cards, where a
claim is more than a guess about one card."""

DEFINITIONS = {
    "Doubt success": "The share of doubts that caught a false claim (the claimant took the "
    "pile), with its 95% Wilson interval and the number of doubts.",
    "Exact odds (random pile)": "The chance that a pile of that many cards dealt at random "
    "from the full deck holds at least the claimed number of animals of the claimed kind, "
    "counting wild, action and stop cards as a doubt does. Every kind has the same cards, so "
    "it is the same for every kind. Claimants choose their cards, so doubted claims hold "
    "more or less often than this.",
    "Bluff rate": "The share of claims that were false at the moment they were made, judged "
    "on the whole pile, including cards the claimant never saw (some 'bluffs' are honest "
    "mistakes).",
    "Penalty points": "One point per card taken after a lost doubt; fewest points win.",
}


INTERVAL_NOTE = "at the effective n of claims clustered by game (stats.clustered_rate)"


def units_counted(row: pd.Series) -> str:
    """How a row of ``BluffRun.clustered_rates`` counted its units: clustered by game, or
    (a run written before the per-game moments were kept) as if independent."""
    if row.clustered:
        return f"in {int(row.games):,} games"
    return "counted as independent"


def report_sections(run: BluffRun) -> list[Section]:
    """Every Bluff in Zoo section for ``run``."""
    return [
        doubt_section(run),
        odds_section(run),
        bluff_section(run),
        points_section(run),
        ending_section(run),
    ]


def doubt_section(run: BluffRun) -> Section:
    """Doubt success heatmap over claimed count x pile size, and a headline cell."""
    table = run.doubt_odds(("claimed_count", "pile_size"))
    findings = [overall_doubt_finding(run)]
    headline = headline_doubt_finding(run)
    if headline is not None:
        findings.append(headline)
    long = table.reset_index()
    return Section(
        title="Bluff in Zoo: when does a doubt succeed?",
        intro=(
            "Doubt success by the size of the standing claim and of the pile. Cells with "
            f"fewer than {MIN_DOUBTS} doubts are grey: too few to say."
        ),
        findings=findings,
        figures=[doubt_heatmap(table)],
        tables=[
            Table(
                "doubt_success",
                "Doubt success by claimed count and pile size",
                long,
                "rate = doubt success; n = doubts, counted as independent (the design effect "
                "measured in the biggest cells is 0.96 to 1.03, up to 1.21 in some lineups). "
                "Claimed counts of 30 stand for 30 or more, "
                "pile sizes of 40 for 40 or more.",
                index=False,
            ),
            Table(
                "doubt_success_by_doubter",
                "Doubt success by doubter's strategy",
                run.clustered_rates("doubts"),
            ),
        ],
        definitions={"Doubt success": DEFINITIONS["Doubt success"]},
    )


def overall_doubt_finding(run: BluffRun) -> Finding:
    """All doubts together: how often they caught a false claim (intervals clustered by
    game: the doubts of one game are not independent)."""
    row = run.clustered_rates("doubts", "all").iloc[0]
    by = run.clustered_rates("doubts")
    detail = ", ".join(
        f"{name} {rate_phrase(r.rate, r.ci_low, r.ci_high)}" for name, r in by.iterrows()
    )
    return Finding(
        f"A doubt catches a false claim {rate_phrase(row.rate, row.ci_low, row.ci_high)} of "
        f"the time ({int(row.n):,} doubts {units_counted(row)}; by doubter: {detail}).",
        row.rate,
        row.ci_low,
        row.ci_high,
        int(row.n),
        "doubt_success_heatmap",
        "doubt_success",
    )


def headline_cell(run: BluffRun) -> tuple[int, int] | None:
    """(pile size, claimed count) of the headline: the most doubted pile size of at least
    :data:`HEADLINE_MIN_PILE` cards (if any), and the smallest claim a random pile of that
    size holds less than half the time."""
    by_pile = _doubts_by_pile(run)
    if by_pile.empty:
        return None
    pile = int(by_pile.idxmax())
    deck = settings_from_table(run.settings).deck
    count = next((c for c in range(1, 31) if odds.at_least(deck, pile, c) < 0.5), 30)
    return pile, count


def headline_doubt_finding(run: BluffRun) -> Finding | None:
    """'Doubting a claim of N or more on a pile of P cards succeeds X% [low, high] of the time.'"""
    cell = headline_cell(run)
    if cell is None:
        return None
    pile, count = cell
    doubts = run.doubts()
    chosen = doubts[(doubts["pile_size"] == pile) & (doubts["claimed_count"] >= count)]
    successes, total = int(chosen["doubt_succeeded"].sum()), int(chosen["doubts"].sum())
    if total == 0:
        return None
    # Wilson's over the doubts: this cell's measured design effect is 0.98 to 1.00 (per-game
    # counts of 10,000 to 20,000 games of three lineups)
    row = rate_table([successes], [total]).iloc[0]
    deck = settings_from_table(run.settings).deck
    exact = 1 - odds.at_least(deck, pile, count)
    return Finding(
        f"Doubting a claim of {count} or more on a pile of {pile} cards (the most doubted "
        f"pile size of {HEADLINE_MIN_PILE}+ cards) succeeds "
        f"{rate_phrase(row.rate, row.ci_low, row.ci_high)} of the time "
        f"({total:,} doubts); against a random pile, doubting a claim of exactly {count} "
        f"would succeed {percent(exact)} of the time, and larger claims more often.",
        row.rate,
        row.ci_low,
        row.ci_high,
        total,
        "doubt_success_heatmap",
        "headline_doubt",
    )


def _doubts_by_pile(run: BluffRun) -> pd.Series:
    """Doubts per pile size, only piles of at least HEADLINE_MIN_PILE cards if there are any."""
    doubts = run.doubts()
    by_pile = doubts[doubts["pile_size"] >= 1].groupby("pile_size")["doubts"].sum()
    large = by_pile[by_pile.index >= HEADLINE_MIN_PILE]
    return large if large.sum() > 0 else by_pile


def doubt_heatmap(table: pd.DataFrame) -> Figure:
    """Doubt success over claimed count (x) and pile size (y); thin cells grey."""
    counts = range(1, MAX_COUNT_SHOWN + 1)
    piles = range(1, MAX_PILE_SHOWN + 1)
    rate = np.full((len(piles), len(counts)), np.nan)
    for (count, pile), row in table.iterrows():
        if count in counts and pile in piles and row.n >= MIN_DOUBTS:
            rate[pile - 1, count - 1] = row.rate
    filled = np.argwhere(~np.isnan(rate))
    top = int(filled[:, 0].max()) + 2 if len(filled) else MAX_PILE_SHOWN
    right = int(filled[:, 1].max()) + 2 if len(filled) else MAX_COUNT_SHOWN
    top, right = min(top, MAX_PILE_SHOWN), min(right, MAX_COUNT_SHOWN)
    figure, axes = new_figure(6.4, 5.2)
    colours = _colour_map()
    image = axes.imshow(
        np.ma.masked_invalid(rate[:top, :right]),
        origin="lower",
        aspect="auto",
        cmap=colours,
        vmin=0,
        vmax=1,
        extent=(0.5, right + 0.5, 0.5, top + 0.5),
    )
    bar = figure.colorbar(image, ax=axes, format=lambda value, _: f"{100 * value:.0f}%")
    bar.set_label("Doubt success (% of doubts)")
    axes.set_xlabel("Claimed count (animals)")
    axes.set_ylabel("Pile size (cards)")
    return Figure(
        "doubt_success_heatmap",
        "Doubt success by claimed count and pile size",
        figure,
        f"Share of doubts that caught a false claim; grey: fewer than {MIN_DOUBTS} doubts. "
        "Every cell's interval and n are in tables/doubt_success.csv.",
    )


def _colour_map():
    import matplotlib

    return matplotlib.colormaps[HEATMAP].with_extremes(bad=MISSING)


def odds_section(run: BluffRun) -> Section:
    """The exact random-pile odds next to how often doubted claims held."""
    piles = sorted(_doubts_by_pile(run).nlargest(3).index.astype(int))
    table = run.observed_vs_exact()
    table = table[table.index.get_level_values("pile_size").isin(piles)]
    table = table[table.index.get_level_values("claimed_count") <= 12]
    shown = table[["claim_held", "exact_random_pile", "doubt_success", "ci_low", "ci_high", "n"]]
    shown = shown.reset_index()
    figure, axes = new_figure(6.4, 3.8)
    for index, pile in enumerate(piles):
        colour = PALETTE[index % len(PALETTE)]
        part = shown[(shown["pile_size"] == pile) & (shown["n"] >= MIN_DOUBTS)]
        held = 1 - part["doubt_success"]
        errors = np.vstack([held - (1 - part["ci_high"]), (1 - part["ci_low"]) - held])
        axes.errorbar(
            part["claimed_count"],
            held,
            yerr=errors,
            fmt="o",
            color=colour,
            capsize=2,
            markersize=4,
            label=f"pile of {pile}: doubted claims held",
        )
        counts = np.arange(1, 13)
        deck = settings_from_table(run.settings).deck
        axes.plot(
            counts,
            [odds.at_least(deck, pile, c) for c in counts],
            "--",
            color=colour,
            linewidth=1,
            label=f"pile of {pile}: random pile (exact)",
        )
    axes.set_xlabel("Claimed count (animals)")
    axes.set_ylabel("Claim holds (%)")
    percent_axis(axes)
    count_axis(axes)
    axes.legend(fontsize=8, ncol=1, loc="upper right")
    return Section(
        title="Bluff in Zoo: exact odds against what the doubts found",
        intro=(
            "Dashed: the exact chance that a random pile holds the claim. Dots: how often the "
            "claims the bots doubted held, with 95% intervals (cells with at least "
            f"{MIN_DOUBTS} doubts). The gap is what claimants' card choices and doubters' "
            f"timing do. Pile sizes shown: the three most doubted of at least {HEADLINE_MIN_PILE} "
            f"cards ({', '.join(map(str, piles))})."
        ),
        figures=[
            Figure(
                "odds_vs_observed",
                "Exact odds and observed claims",
                figure,
                "Claim held = the doubt failed.",
            )
        ],
        tables=[
            Table(
                "odds_vs_observed",
                "Exact odds next to observed doubts",
                shown,
                "claim_held = 1 − doubt_success; ci_low/ci_high are doubt success's "
                "95% interval; n = doubts.",
                index=False,
            ),
            Table(
                "exact_odds",
                "Exact odds that a random pile holds at least N",
                run.odds_table(),
                "Rows: pile size; columns: claimed count N.",
            ),
        ],
        definitions={"Exact odds (random pile)": DEFINITIONS["Exact odds (random pile)"]},
    )


def bluff_section(run: BluffRun) -> Section:
    """Bluff rate by strategy (and how the claimant placed its card)."""
    rates = run.clustered_rates("claims")
    most = standout(estimates_of(rates))
    row = rates.loc[most.top.name]
    claims = f"{rate_phrase(row.rate, row.ci_low, row.ci_high)} of its claims are false when made"
    if len(rates) == 1:
        text = f"{most.top.name}: {claims} ({int(row.n):,} claims {units_counted(row)})."
    elif most.clear:
        others = "; ".join(
            f"{name} {rate_phrase(r.rate, r.ci_low, r.ci_high)}"
            for name, r in rates.drop(index=most.top.name).iterrows()
        )
        text = (
            f"{most.top.name} bluffs most: {claims} "
            f"({int(row.n):,} claims {units_counted(row)}; {others})."
        )
    else:
        text = (
            "No strategy measurably bluffs most: "
            + ", ".join(f"{e.name} {rate_phrase(e.value, e.low, e.high)}" for e in most.level)
            + " of claims false when made are not separated."
        )
    finding = Finding(
        text, row.rate, row.ci_low, row.ci_high, int(row.n), "bluff_rate", "bluff_rate"
    )
    figure, axes = new_figure(6.4, 0.6 + 0.45 * len(rates))
    rate_bars(
        axes,
        list(rates.index),
        rates["rate"],
        rates["ci_low"],
        rates["ci_high"],
        [PALETTE[i % len(PALETTE)] for i in range(len(rates))],
        horizontal=True,
    )
    axes.set_xlabel("Claims false when made (%)")
    percent_axis(axes, "x")
    return Section(
        title="Bluff in Zoo: bluffing",
        intro="How often each strategy's claims were false when it made them.",
        findings=[finding],
        figures=[
            Figure(
                "bluff_rate",
                "Bluff rate by strategy",
                figure,
                f"95% Wilson intervals {INTERVAL_NOTE}; n = claims.",
            )
        ],
        tables=[
            Table("bluff_rate", "Bluff rate by strategy", rates),
            Table(
                "bluff_rate_by_move",
                "Bluff rate by strategy and card placed",
                run.bluff_rates(("strategy", "move")),
                "Intervals count the claims as independent: too narrow, as a game's claims move "
                "together (design effect 1.2 to 3.2 measured by card placed; the rates by "
                "strategy above are clustered by game).",
            ),
        ],
        definitions={"Bluff rate": DEFINITIONS["Bluff rate"]},
    )


def points_section(run: BluffRun) -> Section:
    """Penalty-point distributions by seat (by strategy for rotated runs)."""
    by = "strategy" if run.rotated else "seat"
    points = run.table("points")
    points["strategy"] = run.seat_strategies(points, "seat")
    points["seat"] += 1  # seat 1 is the first seat, as in penalty_points()
    histogram = points.groupby([by, "points"])["games"].sum()
    means = run.penalty_points(by)
    figure, axes = new_figure(6.4, 3.6)
    for index, key in enumerate(histogram.index.get_level_values(0).unique()):
        part = histogram.loc[key]
        share = part / part.sum()
        label = f"seat {key} {means.loc[key, 'strategy']}" if by == "seat" else str(key)
        axes.step(
            share.index,
            share.to_numpy(),
            where="mid",
            color=PALETTE[index % len(PALETTE)],
            label=f"{label} (mean {means.loc[key, 'mean']:.1f})",
        )
    axes.set_xlabel("Penalty points at the end of the game (cards taken)")
    axes.set_ylabel("Games (%)")
    percent_axis(axes)
    count_axis(axes)
    axes.legend(fontsize=8)
    top = POINT_BINS - 1
    reached = (
        f" The last step, {top}, holds {top} or more." if points["points"].max() >= top else ""
    )

    def who(key) -> str:
        return f"seat {key} ({means.loc[key, 'strategy']})" if by == "seat" else str(key)

    fewest = standout(
        [Estimate(key, r["mean"], r.ci_low, r.ci_high) for key, r in means.iterrows()],
        highest=False,
    )
    row = means.loc[fewest.top.name]
    if fewest.clear:
        name = who(fewest.top.name)
        text = (
            f"{name[0].upper()}{name[1:]} ends with the fewest penalty points: "
            f"{mean_phrase(row['mean'], row.ci_low, row.ci_high)} on average, measurably "
            "fewer than every other."
        )
    else:
        text = "No measurable difference in who ends with the fewest penalty points: " + (
            ", ".join(f"{who(e.name)} {mean_phrase(e.value, e.low, e.high)}" for e in fewest.level)
            + " on average."
        )
    finding = Finding(
        text, row["mean"], row.ci_low, row.ci_high, int(row.n), "penalty_points", "fewest_points"
    )
    table = means.reset_index()
    return Section(
        title="Bluff in Zoo: penalty points",
        intro="The distribution of final penalty points; fewest points win.",
        findings=[finding],
        figures=[
            Figure(
                "penalty_points",
                "Penalty points at the end",
                figure,
                f"Share of games ending with each number of points.{reached}",
            )
        ],
        tables=[
            Table(
                "penalty_points",
                "Mean penalty points (95% CI) and share of games at 0 points",
                table,
                index=False,
            )
        ],
        definitions={"Penalty points": DEFINITIONS["Penalty points"]},
    )


def ending_section(run: BluffRun) -> Section:
    """How games end: the points limit or the deck running out."""
    reasons = run.end_reasons()
    points_to_end = run.settings.get("points_to_end", 30)
    names = {"points": f"a player reached {points_to_end} points", "deck": "the deck ran out"}
    labels = [names.get(reason, reason) for reason in reasons.index]
    figure, axes = new_figure(6.4, 1.8)
    rate_bars(
        axes,
        labels,
        reasons["rate"],
        reasons["ci_low"],
        reasons["ci_high"],
        [PALETTE[0], PALETTE[1]],
        horizontal=True,
    )
    axes.set_xlabel("Games (%)")
    axes.set_xlim(0, 1)
    percent_axis(axes, "x")
    row = reasons.loc["points"] if "points" in reasons.index else reasons.iloc[0]
    finding = Finding(
        f"{rate_phrase(row.rate, row.ci_low, row.ci_high)} of games end because "
        f"{names['points']}; the rest because the deck ran out.",
        row.rate,
        row.ci_low,
        row.ci_high,
        int(row.n),
        "how_games_end",
        "end_points",
    )
    table = reasons.copy()
    table.index = labels
    table.index.name = "game ended because"
    return Section(
        title="Bluff in Zoo: how games end",
        findings=[finding],
        figures=[Figure("how_games_end", "How games end", figure, "95% Wilson intervals.")],
        tables=[Table("how_games_end", "How games end", table)],
    )
