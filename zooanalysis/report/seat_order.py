"""The report section "Does seat order matter?", and the rotated run's paired comparisons.

The answer comes only from play in which the seat is the only difference (see
``zooanalysis.seat_order``): rotated runs, mirror matches and mirror seats of a run, and the
seatings of a tournament. A run whose seats all hold different strategies says that it
cannot tell.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.report.findings import seat_label
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    percent,
    points_phrase,
    rate_phrase,
)
from zooanalysis.report.style import PALETTE, REFERENCE, new_figure, percent_axis
from zooanalysis.results import Run
from zooanalysis.seat_order import (
    VERDICT_WORDS,
    against_fair,
    mirror_groups,
    mirror_pairs,
    team_shares,
)
from zooanalysis.stats import holm
from zooanalysis.sweep_cells import cell_names

TITLE = "Does seat order matter?"
DEFINITIONS = {
    "Seat order": "Whether a seat wins more or less than the fair share because of where it "
    "sits (who starts, who acts after whom), answered only from play in which the seat is "
    "the only difference: a rotated run (every strategy in every seat, on the same deals), a "
    "tournament's seatings, a mirror match (every seat the same strategy), or mirror seats "
    "(seats of one lineup holding the same strategy). A seat is named only when its 95% "
    "interval excludes the fair share and its score test rejects after Holm's correction "
    "over the seats; two mirror seats only when their difference's test rejects after "
    "Holm's correction over the pairs.",
    "Mirror seats": "Seats holding the same strategy play the same games, so the difference "
    "of their win shares is that of two cells of one multinomial draw per game: variance "
    "(p1 + p2 − (p1 − p2)²)/n, exact without ties and conservative with them.",
}


def seat_order_section(run: Run) -> Section:
    """The section for a run: rotated, mirror match, mirror seats, or cannot tell."""
    seats = run.win_rates("seat")
    fair = 1.0 / len(run.lineup)
    if run.rotated or len(set(run.lineup)) == 1:
        how = (
            f"every deal played in all {len(run.lineup)} seatings, so every strategy sat in "
            "every seat equally often"
            if run.rotated
            else f"a mirror match: every seat plays {run.lineup[0]}"
        )
        if run.teams:
            # partners share one result: the team, not the seat, meets its fair share
            fair = 1.0 / len(run.teams)
            table = against_fair(team_shares(seats, run.teams), fair)
            return _against_fair_section(table, fair, how, unit="team")
        return _against_fair_section(against_fair(seats, fair), fair, how)
    pairs = mirror_pairs(seats, run.lineup, run.teams)
    if len(pairs):
        return _mirror_section(seats, pairs, mirror_groups(run.lineup, run.teams))
    if run.teams and len(set(run.lineup)) < len(run.lineup):
        return Section(
            title=TITLE,
            intro=(
                "Partners win together, and every strategy that holds two seats here holds "
                "them in one team, so a seat's win share mixes seat order with strategy "
                "strength."
            ),
            findings=[
                Finding(
                    "Seat order: this run cannot tell. Partners share one result, so two "
                    "seats of one team holding the same strategy compare nothing; the teams "
                    "hold different strategies. Run with --rotate-seats, a mirror match or a "
                    "lineup that gives a strategy a seat in each team.",
                    key="seat_order",
                )
            ],
            definitions=DEFINITIONS,
        )
    return Section(
        title=TITLE,
        intro=(
            "Every seat of this run holds a different strategy, so a seat's win share mixes "
            "seat order with strategy strength."
        ),
        findings=[
            Finding(
                "Seat order: this run cannot tell, because every seat holds a different "
                "strategy. Run with --rotate-seats (every deal in every seating), a mirror "
                "match (e.g. bayes*4) or a tournament to separate seat order from strategy.",
                key="seat_order",
            )
        ],
        definitions=DEFINITIONS,
    )


def tournament_seat_order_section(seats: pd.DataFrame, seatings: int) -> Section:
    """The section for a tournament: each seat's win share pooled over every seating."""
    fair = float(seats["fair_share"].iloc[0])
    table = against_fair(seats.assign(strategy="(rotated)"), fair)
    how = (
        f"every strategy sat in every seat equally often over the tournament's {seatings} "
        "seatings, on the same deals"
    )
    return _against_fair_section(table, fair, how)


def _against_fair_section(
    table: pd.DataFrame, fair: float, how: str, unit: str = "seat"
) -> Section:
    """Seats (or, in a team game, teams: ``unit="team"``, indexed by ``team_name``) pooled or
    mirrored so that only the seat differs, against the fair share."""
    games = int(table["n"].iloc[0])
    named = {side: [] for side in (1, -1, 0)}
    for seat, row in table.iterrows():
        label = f"team {seat}" if unit == "team" else seat_label(seat, row.strategy)
        named[int(row.verdict)].append(
            f"{label} {rate_phrase(row.share, row.ci_low, row.ci_high)}"
        )
    if named[1] or named[-1]:
        parts = [
            f"{words} {percent(fair)}: {', '.join(named[side])}"
            for side, words in (
                (1, "more than the fair share of"),
                (-1, "less than the fair share of"),
                (0, "within noise of"),
            )
            if named[side]
        ]
        answer = "seat order matters here: " + "; ".join(parts)
    else:
        answer = (
            f"no measurable seat-order effect: every {unit}'s win share is within noise of "
            f"the fair share of {percent(fair)}: {', '.join(named[0])}"
        )
    first = table.iloc[0]
    gap = points_phrase(first.difference, first.ci_low - fair, first.ci_high - fair)
    if unit == "team":
        text = (
            f"Only the seat differs ({how}; {games:,} games per team), and {answer}. "
            "Partners win together, so each team's win share (its partners' together) meets "
            f"the fair share 1/teams; the team with seat 1 (it starts) is {gap} from it."
        )
    else:
        text = (
            f"Only the seat differs ({how}; {games:,} games per seat), and {answer}. Seat 1 "
            f"(it starts) is {gap} from the fair share."
        )
    finding = Finding(
        text, first.share, first.ci_low, first.ci_high, int(first.n), "seat_order", "seat_order"
    )
    shown = table[["strategy", "share", "ci_low", "ci_high", "n", "fair_share", "p_value",
                   "p_holm", "verdict"]].copy()  # fmt: skip
    shown["verdict"] = shown["verdict"].map(VERDICT_WORDS)
    if shown["strategy"].str.fullmatch(r"\(rotated\)( & \(rotated\))*").all():
        shown = shown.drop(columns="strategy")
    return Section(
        title=TITLE,
        intro=f"Only the seat differs here: {how}.",
        findings=[finding],
        figures=[_seats_figure(table, fair, unit)],
        tables=[
            Table(
                "seat_order",
                f"Win share by {unit} against the fair share",
                shown.reset_index(),
                "share with its 95% Wilson interval (n = games); p_value: score test against "
                f"the fair share; p_holm: Holm-adjusted over the {unit}s.",
                index=False,
            )
        ],
        definitions=DEFINITIONS,
    )


def _seats_figure(table: pd.DataFrame, fair: float, unit: str = "seat") -> Figure:
    """Each seat's (or team's) win share with its interval (dots, the axis zoomed to them),
    against the fair share."""
    figure, axes = new_figure(6.4, 3.2)
    positions = np.arange(len(table))
    share = table["share"].to_numpy()
    errors = np.vstack([share - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - share])
    axes.errorbar(positions, share, yerr=errors, fmt="o", color=PALETTE[2], capsize=4)
    axes.set_xticks(positions, [f"{unit.capitalize()} {seat}" for seat in table.index])
    axes.set_xlim(-0.5, len(table) - 0.5)
    axes.axhline(fair, color=REFERENCE, linestyle="--", linewidth=1)
    axes.set_ylabel("Win share (%)")
    axes.set_xlabel(
        "Team (by its seats; seat 1 starts)" if unit == "team" else "Seat (seat 1 starts)"
    )
    percent_axis(axes)
    return Figure(
        "seat_order",
        f"Win share by {unit}, where only the seat differs",
        figure,
        f"Each {unit}'s win share with its 95% Wilson interval; dashed: the fair share "
        f"{percent(fair)}.",
    )


def _mirror_section(seats: pd.DataFrame, pairs: pd.DataFrame, groups: dict) -> Section:
    """Seats of one lineup holding the same strategy, compared pair by pair."""
    sentences = []
    for label, members in groups.items():
        part = pairs[pairs["strategy"] == label]
        shares = ", ".join(f"seat {seat} {_share_phrase(seats.loc[seat])}" for seat in members)
        differing = [
            f"seat {int(r.seat)} wins {'more' if r.verdict > 0 else 'less'} than seat "
            f"{int(r.versus_seat)} ({points_phrase(r.difference, r.ci_low, r.ci_high)})"
            for r in part.itertuples()
            if r.verdict != 0
        ]
        if differing:
            verdict = "; ".join(differing)
        else:
            verdict = "no measurable difference between them"
            if len(part) == 1:
                only = part.iloc[0]
                verdict += f" ({points_phrase(only.difference, only.ci_low, only.ci_high)})"
        sentences.append(f"{label} holds seats {_and(members)} (win shares {shares}): {verdict}")
    games = int(pairs["n"].iloc[0])
    first = pairs.iloc[0]
    finding = Finding(
        f"Seat order, from seats that hold the same strategy ({games:,} games): "
        + "; ".join(sentences)
        + ". The other seats hold different strategies, so they cannot tell.",
        first.difference,
        first.ci_low,
        first.ci_high,
        games,
        "seat_order",
        "seat_order",
    )
    shown = pairs.copy()
    shown["verdict"] = shown["verdict"].map(
        {1: "first seat wins more", -1: "first seat wins less", 0: "no difference"}
    )
    return Section(
        title=TITLE,
        intro=(
            "Only seats holding the same strategy differ by nothing but the seat; they play "
            "the same games, so each pair is compared as two cells of one multinomial draw."
        ),
        findings=[finding],
        figures=[_pairs_figure(pairs)],
        tables=[
            Table(
                "seat_order_mirror_seats",
                "Mirror seats: difference of win shares (first seat − second)",
                shown,
                "difference and its 95% interval as fractions; p_holm: Holm-adjusted over the "
                "pairs.",
                index=False,
            )
        ],
        definitions=DEFINITIONS,
    )


def _pairs_figure(pairs: pd.DataFrame) -> Figure:
    """Each mirror pair's difference of win shares with its 95% interval."""
    figure, axes = new_figure(6.4, 1.0 + 0.4 * len(pairs))
    y = np.arange(len(pairs))
    centre = 100 * pairs["difference"].to_numpy()
    errors = np.vstack(
        [centre - 100 * pairs["ci_low"].to_numpy(), 100 * pairs["ci_high"].to_numpy() - centre]
    )
    axes.errorbar(centre, y, xerr=errors, fmt="o", color=PALETTE[0], capsize=3)
    axes.axvline(0, color=REFERENCE, linestyle="--", linewidth=1)
    labels = [
        f"{r.strategy}: seat {int(r.seat)} − seat {int(r.versus_seat)}" for r in pairs.itertuples()
    ]
    axes.set_yticks(y, labels)
    axes.set_ylim(len(pairs) - 0.5, -0.5)
    axes.set_xlabel("Difference of win shares (percentage points)")
    return Figure(
        "seat_order",
        "Mirror seats: difference of win shares",
        figure,
        "Seats holding the same strategy, first minus second, with 95% intervals; dashed: no "
        "difference.",
    )


def rotation_section(run: Run) -> Section:
    """A rotated run's strategies compared on the same deals (paired over the seatings)."""
    strategies = run.table("rotation_strategies")
    pairs = run.table("rotation_pairs")
    if len(pairs):
        pairs["p_holm"] = holm(pairs["p_value"].to_numpy())
    findings = []
    for row in pairs.itertuples():
        measurable = row.p_holm < 0.05
        findings.append(
            Finding(
                f"On the same deals, in every seating, {row.strategy} − {row.versus}: "
                f"{points_phrase(row.difference, row.ci_low, row.ci_high)} of win share "
                + (
                    f"({row.strategy} {'ahead' if row.difference > 0 else 'behind'}; "
                    if measurable
                    else "(no measurable difference; "
                )
                + f"Holm-adjusted p {_p(row.p_holm)}).",
                row.difference,
                row.ci_low,
                row.ci_high,
                int(row.deals),
                None,
                f"paired_{row.strategy}_{row.versus}",
            )
        )
    return Section(
        title="Strategies compared on the same deals",
        intro=(
            f"Every deal was played in all {len(run.lineup)} seatings, so each strategy's win "
            "share over a deal's seatings and the differences between strategies are paired: "
            "seat and deal luck cancel. The variance reduction compares the paired interval "
            "with unrotated play of as many games (measured, not assumed; above 1: rotation "
            "helped)."
        ),
        findings=findings,
        tables=[
            Table(
                "rotation_strategies",
                "Win share per strategy over the seatings (95% CI, paired over deals)",
                strategies,
                index=False,
            ),
            Table(
                "rotation_pairs",
                "Paired differences of win share (row strategy − versus)",
                pairs,
                "difference and its 95% interval as fractions; p_holm: Holm-adjusted over the "
                "pairs.",
                index=False,
            ),
        ],
        definitions={
            "Paired comparison": "The difference of two strategies' win shares on the same "
            "deals, averaged over every seating of each deal, with a 95% interval from the "
            "per-deal differences (paired), and its two-sided p-value."
        },
    )


def _unit(seat: str) -> str:
    """``seat 2`` or ``team 1 & 3`` (a sweep table's ``seat`` column)."""
    return seat if seat.startswith("team") else f"seat {seat}"


def _share_phrase(row: pd.Series) -> str:
    """A seat's win share with its interval."""
    return rate_phrase(row["share"], row["ci_low"], row["ci_high"])


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"= {p:.2g}"


def _and(seats: list[int]) -> str:
    """``1 and 2`` or ``1, 3 and 4``."""
    words = [str(seat) for seat in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def sweep_seat_order_section(
    cells: pd.DataFrame,
    keys: list[str],
    seats: list[int],
    lineups: list[list[str]],
    teams: list[list[tuple[int, ...]] | None] | None = None,
) -> Section:
    """A sweep's cells (``lineups``: each cell's strategy labels, seat 1 first), each
    answered on its own where it can be: a mirror-match cell by its seats against the fair
    share, a cell with mirror seats by their pairs; otherwise the sweep cannot tell.

    ``teams`` (each cell's, ``teams.cell_teams``; None: single players) makes a team
    game's cells answer by team, as a single run does: a mirror match by each team's win
    share against ``1/teams``, mirror seats only across teams (partners share one result,
    so comparing them tells nothing)."""
    rows = []
    names = cell_names(cells, keys)
    teams = teams if teams is not None else [None] * len(cells)
    for (_, cell), lineup, where, cell_teams in zip(
        cells.iterrows(), lineups, names, teams, strict=True
    ):
        table = pd.DataFrame(
            {
                "strategy": lineup,
                "share": [cell[f"seat{s}_win_rate"] for s in seats],
                "ci_low": [cell[f"seat{s}_win_ci_low"] for s in seats],
                "ci_high": [cell[f"seat{s}_win_ci_high"] for s in seats],
                "n": [cell[f"seat{s}_win_n"] for s in seats],
            },
            index=pd.Index(seats, name="seat"),
        )
        if len(set(lineup)) == 1 and cell_teams:
            verdicts = against_fair(team_shares(table, cell_teams), 1.0 / len(cell_teams))
            for team, row in verdicts.iterrows():
                rows.append(
                    {"cell": where, "seat": f"team {team}", "versus": "fair share",
                     "difference": row.difference, "p_holm": row.p_holm,
                     "verdict": int(row.verdict)}
                )  # fmt: skip
        elif len(set(lineup)) == 1:
            verdicts = against_fair(table, 1.0 / len(seats))
            for seat, row in verdicts.iterrows():
                rows.append(
                    {"cell": where, "seat": str(seat), "versus": "fair share",
                     "difference": row.difference, "p_holm": row.p_holm,
                     "verdict": int(row.verdict)}
                )  # fmt: skip
        else:
            for pair in mirror_pairs(table, lineup, cell_teams).itertuples():
                rows.append(
                    {"cell": where, "seat": str(pair.seat),
                     "versus": f"seat {pair.versus_seat}", "difference": pair.difference,
                     "p_holm": pair.p_holm, "verdict": int(pair.verdict)}
                )  # fmt: skip
    team_game = any(teams)
    if not rows and team_game:
        return Section(
            title=TITLE,
            intro="Partners win together, so two seats of one team compare nothing.",
            findings=[
                Finding(
                    "Seat order: this sweep cannot tell. Partners share one result, and no "
                    "strategy holds seats in two teams; a mirror-match lineup (every seat "
                    "the same strategy: its teams are compared) or a lineup that gives a "
                    "strategy a seat in each team can.",
                    key="seat_order",
                )
            ],
            definitions=DEFINITIONS,
        )
    if not rows:
        return Section(
            title=TITLE,
            intro="Every seat of the sweep's lineup holds a different strategy.",
            findings=[
                Finding(
                    "Seat order: this sweep cannot tell, because every seat holds a different "
                    "strategy; a mirror-match lineup (e.g. bayes*4) or a tournament can.",
                    key="seat_order",
                )
            ],
            definitions=DEFINITIONS,
        )
    table = pd.DataFrame(rows)
    answered = table["cell"].nunique()
    differing = table[table["verdict"] != 0]
    named = "; ".join(
        f"{cell}: {', '.join(_unit(s) for s in part['seat'])}"
        for cell, part in list(differing.groupby("cell", sort=False))[:4]
    )
    more = differing["cell"].nunique() - 4
    partners = (
        "; partners win together, so a mirror match compares its teams and mirror seats are "
        "compared only across teams"
        if team_game
        else ""
    )
    text = (
        f"Seat order, in the {answered} cells where seats hold the same strategy (each cell "
        f"on its own, Holm-corrected over its seats{partners}): "
        + (
            f"a seat differs measurably in {differing['cell'].nunique()} cells ({named}"
            + (f"; and {more} more" if more > 0 else "")
            + ")."
            if len(differing)
            else "no seat differs measurably in any cell."
        )
    )
    shown = table.assign(verdict=table["verdict"].map({1: "more", -1: "less", 0: "no difference"}))
    return Section(
        title=TITLE,
        intro="Only seats holding the same strategy differ by nothing but the seat.",
        findings=[Finding(text, key="seat_order")],
        tables=[
            Table(
                "sweep_seat_order",
                "Seat order in every cell where it can be told",
                shown,
                "difference: the seat's (in a team game's mirror match: the team's) win share "
                "minus the fair share, or minus the other seat's (fractions); p_holm: "
                "Holm-adjusted within the cell.",
                index=False,
            )
        ],
        definitions=DEFINITIONS,
    )
