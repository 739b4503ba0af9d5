"""The report of a tournament folder: ranking, ratings with intervals, the pairwise matrix."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from zooanalysis.games import get_game
from zooanalysis.report.model import Figure, Finding, ReportDocument, Section, Table, rate_phrase
from zooanalysis.report.run_report import strategy_descriptions
from zooanalysis.report.seat_order import tournament_seat_order_section
from zooanalysis.report.style import HEATMAP, PALETTE, REFERENCE, new_figure, percent_axis
from zooanalysis.separation import Estimate, estimates_of, standout
from zooanalysis.tournament import TournamentResult

DEFINITIONS = {
    "Rating": "Bradley-Terry strength on an Elo-like scale (400 points = 10:1 odds of "
    "finishing ahead in a meeting), centred on 0. The 95% interval is a bootstrap over "
    "batches of deals, because the meetings inside one game are not independent.",
    "Meeting": "Every pair of seats in a game is one meeting of their strategies: the one "
    "with the better final standing finished ahead; equal standings count half for each.",
    "Pairwise win share": "The share of meetings the row strategy finished ahead of the "
    "column strategy (ties count half), with its 95% Wilson interval.",
    "Win share": "A strategy's (or seat's) share of the wins per seat-game: a game won by k "
    "tied winners gives each 1/k, so a fair game gives every seat 1/seats. Its 95% Wilson "
    "interval is conservative for shares (an outcome in [0, 1] with mean p has a variance of "
    "at most p(1 − p)). 'Won or shared' counts every tied winner as winning.",
}


def tournament_document(result: TournamentResult) -> ReportDocument:
    """Everything ``zoosim report`` shows for a tournament folder."""
    manifest = result.manifest
    game = get_game(manifest["game"])
    ratings = result.ratings()
    wins = result.win_rates()
    findings = [_ranking_finding(ratings, wins, int(manifest["games"])), _pair_finding(result)]
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
            Table(
                "win_rates",
                "Win share by strategy (95% CI), and seat-games won or shared",
                wins,
                "share: a game won by k tied winners counts 1/k; n = seat-games.",
            ),
            Table(
                "pairwise",
                "Every pair: meetings ahead, level, behind",
                result.pairwise(),
                index=False,
            ),
        ],
        definitions=DEFINITIONS,
    )
    sections = [section]
    if "seats" in result.table_names:
        sections.append(tournament_seat_order_section(result.seats(), int(manifest["lineups"])))
    return ReportDocument(
        title=f"{manifest['title']}: tournament report",
        subtitle=(
            f"{manifest['games']:,} games, strategies {', '.join(manifest['strategies'])}, "
            f"seed {manifest['seed']}."
        ),
        findings=findings,
        sections=sections,
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


def _ranking_finding(ratings: pd.DataFrame, wins: pd.DataFrame, games: int) -> Finding:
    """Who ranks first, named only when its rating interval separates it from the rest."""
    estimates = [
        Estimate(r.strategy, r.rating, r.ci_low, r.ci_high) for r in ratings.itertuples()
    ]
    best = standout(estimates)
    top = ratings.iloc[0]
    win = wins.loc[top.strategy]
    share = f"a win share of {rate_phrase(win.share, win.ci_low, win.ci_high)} per seat-game"
    if best.clear:
        second = ratings.iloc[1] if len(ratings) > 1 else None
        gap = (
            f", measurably above {second.strategy} ({_rating(second)}; the bootstrap "
            "intervals do not overlap)"
            if second is not None
            else ""
        )
        text = f"{top.strategy} ranks first with a rating of {_rating(top)}{gap}, and {share}."
    else:
        tied = ", ".join(f"{e.name} {_rating(ratings.set_index('strategy').loc[e.name])}"
                         for e in best.level)  # fmt: skip
        text = (
            f"No strategy measurably ranks first: the rating intervals of {tied} overlap "
            f"(play more games to separate them). {top.strategy} leads the point estimates "
            f"with {share}."
        )
    text += _win_share_leader(top.strategy, wins)
    return Finding(
        text, top.rating, top.ci_low, top.ci_high, games, "ratings", "top_rating"
    )


def _win_share_leader(rated_first: str, wins: pd.DataFrame) -> str:
    """When another strategy measurably leads the win share per seat-game (its interval
    above every other's, ``separation.standout``), a sentence saying so: the rating counts
    finishing ahead of each opponent, the win share only the games won, and the two can
    disagree (a strategy that either wins or comes last). Nothing otherwise."""
    best = standout(estimates_of(wins, "share"))
    if not best.clear or best.top.name == rated_first or len(wins) < 2:
        return ""
    win = wins.loc[best.top.name]
    return (
        f" But {best.top.name} has the highest win share per seat-game, "
        f"{rate_phrase(win.share, win.ci_low, win.ci_high, int(win.n))}, measurably above "
        "every other: the rating counts finishing ahead of each opponent, the win share "
        "only the games won."
    )


def _rating(row) -> str:
    """``+120 [+95, +140]``."""
    return f"{row.rating:+.0f} [{row.ci_low:+.0f}, {row.ci_high:+.0f}]"


def _pair_finding(result: TournamentResult) -> Finding:
    """The most lopsided meeting, named only when its interval separates it from the
    next most lopsided."""
    pairwise = result.pairwise()
    estimates = [
        Estimate(f"{r.strategy}|{r.versus}", r.rate, r.ci_low, r.ci_high)
        for r in pairwise.itertuples()
    ]
    best = standout(estimates)
    row = pairwise.set_index(["strategy", "versus"]).loc[tuple(best.top.name.split("|"))]
    strategy, versus = best.top.name.split("|")
    meeting = (
        f"{strategy} finishes ahead of {versus} in "
        f"{rate_phrase(row.rate, row.ci_low, row.ci_high)} of {int(row.meetings):,} meetings"
    )
    if best.clear:
        text = f"The most lopsided meeting: {meeting}."
    else:
        others = "; ".join(
            f"{e.name.split('|')[0]} ahead of {e.name.split('|')[1]} "
            f"{rate_phrase(e.value, e.low, e.high)}"
            for e in best.level[1:]
        )
        text = (
            f"No meeting is measurably the most lopsided: {meeting}, not separated from "
            f"{others}."
        )
    return Finding(
        text, row.rate, row.ci_low, row.ci_high, int(row.meetings), "pairwise_matrix",
        "lopsided_pair",
    )  # fmt: skip


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
            axes.text(
                j,
                i,
                f"{100 * cell.rate:.1f}%\n[{100 * cell.ci_low:.1f}, {100 * cell.ci_high:.1f}]",
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
        "Share of meetings the row strategy finished ahead of the column strategy (%), "
        "with its 95% Wilson interval in brackets.",
    )
