"""The report of one run: findings, the generic balance section, then the game's sections."""

from __future__ import annotations

import json

import pandas as pd

from zooanalysis.games import get_game
from zooanalysis.report import figures
from zooanalysis.report.balance import (
    DEFINITIONS,
    MARGIN_BIN_TOP,
    balance_metrics,
    length_histograms,
    margin_histogram,
    measured,
    trajectory_histograms,
)
from zooanalysis.report.findings import metric_findings, seat_finding, strategy_finding
from zooanalysis.report.model import (
    ReportDocument,
    Section,
    Table,
    mean_phrase,
    points_phrase,
    rate_phrase,
)
from zooanalysis.report.seat_order import rotation_section, seat_order_section
from zooanalysis.report.skill import skill_section
from zooanalysis.results import Run, histogram_summary


def run_document(run: Run) -> ReportDocument:
    """Everything ``zoosim report`` shows for a run (figures drawn, nothing written)."""
    game = get_game(run.game)
    metrics = balance_metrics(run)
    which = measured(run)
    if run.cooperative:  # the team wins or loses together: seat balance does not apply
        findings = []
        sections = [cooperative_length_section(run), *game.report_sections(run)]
    else:
        findings = [
            seat_finding(run),
            strategy_finding(run),
            *metric_findings(metrics, which, run.teams),
        ]
        sections = [balance_section(run, metrics, which), seat_order_section(run)]
        if run.rotated:
            sections.append(rotation_section(run))
        sections += game.report_sections(run)
        sections.append(skill_section(run.path))
    lineup = ", ".join(f"seat {seat + 1} {label}" for seat, label in enumerate(run.lineup))
    return ReportDocument(
        title=f"{run.manifest.get('title', game.title)}: balance report",
        subtitle=(
            f"{run.games_played:,} simulated games, {len(run.lineup)} players ({lineup}), "
            f"seed {run.manifest.get('seed')}. Every rate with its 95% interval."
        ),
        findings=findings,
        sections=sections,
        facts=run_facts(run),
        strategies=strategy_descriptions(game, run.lineup),
        definitions=(
            {"Game length": DEFINITIONS["Game length"]} if run.cooperative else dict(DEFINITIONS)
        ),
    )


def balance_section(run: Run, metrics: pd.DataFrame, which: dict[str, bool]) -> Section:
    """The generic part: win rates, balance metrics, game length, decisiveness, lead changes."""
    shown = [figures.win_rate_by_seat(run), figures.win_rate_by_strategy(run)]
    lengths = length_histograms(run)
    tops = get_game(run.game).histogram_tops
    if lengths:
        shown.append(figures.game_length(lengths, tops))
    settled, changes = trajectory_histograms(run)
    if settled is not None and settled.sum() > 0:
        shown.append(figures.settled_figure(settled))
    if changes is not None and changes.sum() > 0:
        shown.append(figures.lead_changes_figure(changes))
    margins = margin_histogram(run)
    if margins is not None and margins.sum() > 0:
        shown.append(figures.margin_figure(margins, MARGIN_BIN_TOP))
    missing = [name for name, ok in which.items() if not ok]
    intro = (
        "How evenly the seats win, how often games are shared, how long they last, how "
        "early they are decided and by how much. Definitions are in the appendix."
    )
    if missing:
        intro += f" Not measured for this run (its tables lack them): {', '.join(missing)}."
    seats = run.win_rates("seat").reset_index()
    extra = []
    if lengths:
        extra.append(
            Table(
                "game_length",
                "Game length: mean (95% CI) and percentiles",
                length_table(lengths),
                figures.top_bin_note(lengths, tops).strip(),
            )
        )
    return Section(
        title="Balance",
        intro=intro,
        figures=shown,
        tables=[
            Table(
                "balance_metrics",
                "Balance metrics (95% intervals)",
                metrics,
                "Shares in %; first-player advantage in percentage points over the fair share; "
                "means in their units (the CSV has them as fractions).",
                index=False,
                shown=balance_display(metrics),
            ),
            Table(
                "win_rate_by_seat",
                "Win share by seat (95% CI), and games won or shared",
                seats,
                "share: a game won by k tied winners counts 1/k; n = games.",
                index=False,
                hidden=("games", "share_sum"),
            ),
            Table(
                "win_rate_by_strategy",
                "Win share by strategy (95% CI), and games won or shared",
                run.win_rates("strategy"),
                "Per seat played: n = games x seats.",
                hidden=("games", "share_sum"),
            ),
            *extra,
        ],
    )


def balance_display(metrics: pd.DataFrame) -> pd.DataFrame:
    """The balance metrics as a reader reads them: each value with its interval in the
    words of its kind (a share in %, the first-player advantage in points, a mean)."""
    values = []
    for row in metrics.itertuples():
        if row.metric == "first_player_advantage":
            values.append(points_phrase(row.value, row.ci_low, row.ci_high))
        elif row.kind == "mean":
            values.append(mean_phrase(row.value, row.ci_low, row.ci_high))
        else:
            values.append(rate_phrase(row.value, row.ci_low, row.ci_high))
    return pd.DataFrame(
        {"measure": metrics["label"], "value [95% CI]": values, "n": metrics["n"]}
    )


def cooperative_length_section(run: Run) -> Section:
    """For a cooperative run: only how long games last (seats do not compete)."""
    lengths = length_histograms(run)
    tops = get_game(run.game).histogram_tops
    return Section(
        title="Game length",
        intro=(
            "A cooperative run: the players win or lose together, so the seat balance metrics "
            "of competitive games do not apply; the game's own sections report the team's "
            "success."
        ),
        figures=[figures.game_length(lengths, tops)] if lengths else [],
        tables=[
            Table(
                "game_length",
                "Game length: mean (95% CI) and percentiles",
                length_table(lengths),
                figures.top_bin_note(lengths, tops).strip(),
            )
        ]
        if lengths
        else [],
    )


def length_table(histograms: dict[str, pd.Series]) -> pd.DataFrame:
    """Mean with its 95% interval, 10th/50th/90th percentiles and maximum of each length."""
    columns = ["mean", "ci_low", "ci_high", "p10", "median", "p90", "max", "n"]
    rows = {}
    for name, histogram in histograms.items():
        summary = histogram_summary(histogram)
        rows[name] = {column: float(summary[column]) for column in columns[:-1]}
        rows[name]["n"] = summary["n"]
    table = pd.DataFrame(rows).T
    table.index.name = "per game"
    return table


def strategy_descriptions(game, labels: list[str]) -> dict[str, str]:
    """Each distinct strategy of the lineup (with its parameters) and what it does."""
    described = {}
    for label in labels:
        name = label.split(":", 1)[0]
        info = game.strategies.get(name)
        described[label] = info.description if info is not None else "(unknown strategy)"
    return described


def run_facts(run: Run) -> dict[str, str]:
    """Where the numbers come from: run folder, zoosim version, commit, settings, timing."""
    manifest = run.manifest
    facts = {
        "Run": str(run.path) if run.path else "(in memory)",
        "Game": f"{manifest.get('title', run.game)} ({run.game})",
        "Lineup": ", ".join(run.lineup),
        "Games": f"{run.games_played:,}"
        + (" (every deal in every seating)" if run.rotated else ""),
        "Seed": str(manifest.get("seed")),
        "Rule settings": json.dumps(run.settings, sort_keys=True),
        "zoosim version": str(manifest.get("zoosim_version", "?")),
        "Git commit": str(manifest.get("git_commit", "?")),
        "Created": str(manifest.get("created", "?")),
    }
    if manifest.get("field"):
        from zooanalysis.results import field_origin

        facts["Field"] = field_origin(manifest).strip()
    return facts
