"""The report of a tournament folder: ranking, ratings with intervals, the pairwise matrix."""

from __future__ import annotations

import json

import numpy as np

from zooanalysis.games import get_game
from zooanalysis.report.model import Figure, Finding, ReportDocument, Section, Table, rate_phrase
from zooanalysis.report.run_report import strategy_descriptions
from zooanalysis.report.style import HEATMAP, PALETTE, REFERENCE, new_figure, percent_axis
from zooanalysis.tournament import TournamentResult

DEFINITIONS = {
    "Rating": "Bradley-Terry strength on an Elo-like scale (400 points = 10:1 odds of "
    "finishing ahead in a meeting), centred on 0. The 95% interval is a bootstrap over "
    "batches of deals, because the meetings inside one game are not independent.",
    "Meeting": "Every pair of seats in a game is one meeting of their strategies: the one "
    "with the better final standing finished ahead; equal standings count half for each.",
    "Pairwise win share": "The share of meetings the row strategy finished ahead of the "
    "column strategy (ties count half), with its 95% Wilson interval.",
    "Win rate": "The share of seat-games a strategy won (tied winners all win).",
}


def tournament_document(result: TournamentResult) -> ReportDocument:
    """Everything ``zoosim report`` shows for a tournament folder."""
    manifest = result.manifest
    game = get_game(manifest["game"])
    ratings = result.ratings()
    wins = result.win_rates()
    top = ratings.iloc[0]
    top_win = wins.loc[top.strategy]
    findings = [
        Finding(
            f"{top.strategy} ranks first with a rating of {top.rating:+.0f} "
            f"[95% CI {top.ci_low:+.0f}, {top.ci_high:+.0f}] and wins "
            f"{rate_phrase(top_win.rate, top_win.ci_low, top_win.ci_high)} of its seat-games.",
            top.rating,
            top.ci_low,
            top.ci_high,
            int(top.meetings),
            "ratings",
            "top_rating",
        )
    ]
    if len(ratings) > 1:
        second = ratings.iloc[1]
        separated = top.ci_low > second.ci_high
        findings.append(
            Finding(
                f"The gap to {second.strategy} ({second.rating:+.0f} [{second.ci_low:+.0f}, "
                f"{second.ci_high:+.0f}]) is {top.rating - second.rating:.0f} points: "
                + (
                    "the intervals do not overlap, the ranking is clear."
                    if separated
                    else "the intervals overlap; play more games to separate them."
                ),
                top.rating - second.rating,
                key="top_gap",
                figure="ratings",
                n=int(manifest["games"]),
            )
        )
    pairwise = result.pairwise()
    strongest = pairwise.loc[pairwise["rate"].idxmax()]
    findings.append(
        Finding(
            f"The most lopsided meeting: {strongest.strategy} finishes ahead of "
            f"{strongest.versus} in "
            f"{rate_phrase(strongest.rate, strongest.ci_low, strongest.ci_high)} of "
            f"{int(strongest.meetings):,} meetings.",
            strongest.rate,
            strongest.ci_low,
            strongest.ci_high,
            int(strongest.meetings),
            "pairwise_matrix",
            "lopsided_pair",
        )
    )
    section = Section(
        title="Tournament",
        intro=(
            f"{len(manifest['strategies'])} strategies in {manifest['lineups']} lineups of "
            f"{manifest['seats']} seats, {manifest['games_per_lineup']:,} games each, all on "
            "the same deals, so every strategy sits in every seat equally often."
        ),
        figures=[ratings_figure(ratings), pairwise_figure(result)],
        tables=[
            Table("ranking", "Ranking and ratings (95% bootstrap CI)", ratings, index=False),
            Table("win_rates", "Win rate by strategy", wins),
            Table("pairwise", "Every pair: meetings ahead, level, behind", pairwise, index=False),
        ],
        definitions=DEFINITIONS,
    )
    return ReportDocument(
        title=f"{manifest['title']}: tournament report",
        subtitle=(
            f"{manifest['games']:,} games, strategies {', '.join(manifest['strategies'])}, "
            f"seed {manifest['seed']}."
        ),
        findings=findings,
        sections=[section],
        facts={
            "Tournament": str(result.path) if result.path else "(in memory)",
            "Game": f"{manifest['title']} ({manifest['game']})",
            "Rule settings": json.dumps(manifest.get("settings", {}), sort_keys=True),
            "zoosim version": str(manifest.get("zoosim_version", "?")),
            "Git commit": str(manifest.get("git_commit", "?")),
            "Created": str(manifest.get("created", "?")),
        },
        strategies=strategy_descriptions(game, list(manifest["strategies"])),
    )


def ratings_figure(ratings) -> Figure:
    """Ratings with their 95% intervals, best first."""
    figure, axes = new_figure(6.4, 0.8 + 0.5 * len(ratings))
    positions = np.arange(len(ratings))
    low = (ratings["rating"] - ratings["ci_low"]).fillna(0).clip(lower=0)
    high = (ratings["ci_high"] - ratings["rating"]).fillna(0).clip(lower=0)
    axes.errorbar(
        ratings["rating"],
        positions,
        xerr=np.vstack([low, high]),
        fmt="o",
        color=PALETTE[0],
        capsize=3,
    )
    axes.axvline(0, color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_yticks(positions, [f"{r.rank}. {r.strategy}" for r in ratings.itertuples()])
    axes.invert_yaxis()
    axes.set_xlabel("Rating (Elo-like points; 400 = 10:1 odds)")
    return Figure(
        "ratings",
        "Ratings and ranking",
        figure,
        "Bradley-Terry ratings with 95% bootstrap intervals over deals.",
    )


def pairwise_figure(result: TournamentResult) -> Figure:
    """The pairwise win-share matrix as an annotated heatmap."""
    matrix = result.pairwise_matrix()
    order = list(result.ratings()["strategy"])
    matrix = matrix.reindex(index=order, columns=order)
    pairs = result.pairwise().set_index(["strategy", "versus"])
    size = len(order)
    figure, axes = new_figure(2.6 + 1.1 * size, 1.4 + 0.9 * size)
    image = axes.imshow(matrix.to_numpy(dtype=float), cmap=HEATMAP, vmin=0, vmax=1)
    for i, row_name in enumerate(order):
        for j, column_name in enumerate(order):
            if i == j:
                continue
            cell = pairs.loc[(row_name, column_name)]
            half = max(cell.ci_high - cell.rate, cell.rate - cell.ci_low)
            axes.text(
                j,
                i,
                f"{100 * cell.rate:.1f}%\n±{100 * half:.1f}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if cell.rate < 0.4 else "black",
            )
    axes.set_xticks(range(size), order, rotation=30, ha="right")
    axes.set_yticks(range(size), order)
    axes.set_xlabel("… finished ahead of (column)")
    axes.set_ylabel("Row strategy")
    bar = figure.colorbar(image, ax=axes)
    bar.set_label("Meetings won (%; ties count half)")
    percent_axis(bar.ax)
    return Figure(
        "pairwise_matrix",
        "Pairwise win matrix",
        figure,
        "Share of meetings the row strategy finished ahead of the column strategy, "
        "with the 95% interval's half-width.",
    )
