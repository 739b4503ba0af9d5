"""Hodge Podge Dodgeball's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

How rounds end (who could not play, why, after how many tricks), hits/blocks/catches per
round, what the timeout and the All-Star are worth, match length and team and start
balance. Every rate is printed with its 95% interval as [low, high] and its n; a finding
names a difference only when the intervals separate.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.dodgeball.analysis import DodgeballRun
from zooanalysis.games.dodgeball.rules import END_REASONS
from zooanalysis.report.model import Figure, Finding, Section, Table
from zooanalysis.report.style import PALETTE, new_figure, percent_axis, rate_bars
from zooanalysis.stats import format_rate

DEFINITIONS = {
    "Round": "One deal: setup, then tricks until a player cannot play; that player's team "
    "loses the round. A game is a match: rounds until a team has two round wins (the Match "
    "Point card).",
    "Could not play": "A player whose turn it is has no card of a suit not yet in the trick "
    "('no new suit') or no card at all ('empty hand'). Dummies count as seats.",
    "Hit, block, catch": "A trick's one highest card is a hit (its player benches a card and "
    "leads); the highest shared by partners only is a block; shared across the teams, a "
    "catch.",
    "Used vs not": "Round win rate of the teams that called their timeout (or played an "
    "All-Star) in a round against those that did not. Teams choose when to use them, so a "
    "gap is an association, not the value of the card by itself.",
}


def report_sections(run: DodgeballRun) -> list[Section]:
    """Every Hodge Podge Dodgeball section for ``run``."""
    return [
        endings_section(run),
        events_section(run),
        timeout_section(run),
        balance_section(run),
    ]


def _rate(row) -> str:
    return format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))


def _separated(rows: pd.DataFrame, chosen) -> bool:
    """Whether row ``chosen``'s interval lies apart from every other row's."""
    mine = rows.loc[chosen]
    others = rows.drop(index=chosen)
    return bool(((others["ci_high"] < mine.ci_low) | (others["ci_low"] > mine.ci_high)).all())


def endings_section(run: DodgeballRun) -> Section:
    """Who could not play, why, at which position, after how many tricks."""
    reasons = run.round_endings("reason")
    by_seat = run.round_endings("seat")
    by_position = run.round_endings("position")
    tricks = run.tricks_per_round()
    findings = []
    if "no new suit" in reasons.index:
        row = reasons.loc["no new suit"]
        findings.append(Finding(
            f"{_rate(row)} of rounds end because a player has no card of a new suit; the "
            "rest because a player has no card left.",
            row.rate, row.ci_low, row.ci_high, int(row.n), "round_endings", "end_no_new_suit",
        ))
    worst = by_seat["rate"].idxmax()
    row = by_seat.loc[worst]
    verdict = (
        "more often than any other seat (the intervals separate)"
        if _separated(by_seat, worst)
        else "but not measurably more often than every other seat (the intervals overlap)"
    )
    findings.append(Finding(
        f"{row['name'].capitalize()} could not play in {_rate(row)} of rounds, {verdict}.",
        row.rate, row.ci_low, row.ci_high, int(row.n), "round_endings", "worst_seat",
    ))
    if 4 in by_position.index:
        row = by_position.loc[4]
        findings.append(Finding(
            f"The player who could not play was the trick's fourth card in {_rate(row)} of "
            "rounds (three suits already in the trick).",
            row.rate, row.ci_low, row.ci_high, int(row.n), "round_endings", "end_fourth",
        ))
    overall = tricks.loc["all rounds"]
    findings.append(Finding(
        f"A round lasts {overall['mean']:.2f} [{overall.ci_low:.2f}, {overall.ci_high:.2f}] "
        f"completed tricks on average (median {int(overall['median'])}, "
        f"{int(overall.n):,} rounds).",
        overall["mean"], overall.ci_low, overall.ci_high, int(overall.n), "tricks_per_round",
        "tricks_per_round",
    ))
    seat_reason = run.round_endings("seat_reason").reset_index()
    figure, axes = new_figure(6.4, 0.8 + 0.32 * len(seat_reason))
    rate_bars(
        axes,
        [f"{row['name']}: {row.reason}" for _, row in seat_reason.iterrows()],
        seat_reason["rate"], seat_reason["ci_low"], seat_reason["ci_high"],
        [PALETTE[END_REASONS.index(str(reason)) % len(PALETTE)]
         for reason in seat_reason["reason"]],
        horizontal=True,
    )
    axes.set_xlabel("Rounds ended by this seat (%)")
    percent_axis(axes, "x")
    ends = run.table("round_ends")
    histogram_figure, histogram_axes = new_figure(6.4, 3.2)
    for index, reason in enumerate(END_REASONS):
        part = ends[ends["reason"] == reason].groupby("tricks")["rounds"].sum()
        if part.sum() == 0:
            continue
        histogram_axes.bar(part.index + (index - 0.5) * 0.4, part / run.rounds_played, width=0.4,
                           color=PALETTE[index], label=reason)
    histogram_axes.set_xlabel("Tricks completed before the round ended")
    histogram_axes.set_ylabel("Rounds (%)")
    percent_axis(histogram_axes)
    histogram_axes.legend(fontsize=8)
    position_table = by_position.copy()
    position_table.index.name = "position in the trick (1 = to lead)"
    return Section(
        title="Hodge Podge Dodgeball: how rounds end",
        intro=(
            "A round ends the moment a player cannot play: that seat's team loses the round. "
            "Which seat it was, why, where in the trick and after how many tricks."
        ),
        findings=findings,
        figures=[
            Figure("round_endings", "Who could not play, and why", figure,
                   "Share of all rounds, 95% Wilson intervals."),
            Figure("tricks_per_round", "Tricks before the round ended", histogram_figure,
                   "Share of all rounds by the tricks completed before the end, by reason."),
        ],
        tables=[
            Table("round_endings_by_seat", "Rounds ended by each seat and reason",
                  run.round_endings("seat_reason")),
            Table("round_endings_by_position", "Position in the trick of the seat that "
                  "could not play", position_table),
            Table("tricks_per_round", "Tricks completed per round", tricks),
        ],
        definitions={"Round": DEFINITIONS["Round"],
                     "Could not play": DEFINITIONS["Could not play"]},
    )


def events_section(run: DodgeballRun) -> Section:
    """Hits, blocks and catches per round, and by seat."""
    events = run.events_per_round()
    findings = []
    for name, row in events.iterrows():
        findings.append(Finding(
            f"A round has {row['mean']:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}] {name} on "
            f"average; {100 * row.rounds_with_any:.1f}% "
            f"[{100 * row.any_ci_low:.1f}%, {100 * row.any_ci_high:.1f}%] of rounds have at "
            f"least one ({int(row.n):,} rounds).",
            row["mean"], row.ci_low, row.ci_high, int(row.n), "events_per_round",
            f"{name}_per_round",
        ))
    figure, axes = new_figure(6.4, 2.6)
    means = events["mean"].to_numpy()
    errors = np.vstack([means - events["ci_low"].to_numpy(), events["ci_high"].to_numpy() - means])
    axes.barh(np.arange(len(events)), means, xerr=np.clip(errors, 0, None),
              color=PALETTE[:len(events)], ecolor="black", capsize=3)
    axes.set_yticks(np.arange(len(events)), list(events.index))
    axes.invert_yaxis()
    axes.set_xlabel("Per round (mean, 95% interval)")
    seat_events = run.seat_events()
    return Section(
        title="Hodge Podge Dodgeball: hits, blocks and catches",
        intro="How tricks resolve: per round, and per seat (events per round played).",
        findings=findings,
        figures=[Figure("events_per_round", "Hits, blocks and catches per round", figure,
                        "Means with 95% normal intervals.")],
        tables=[
            Table("events_per_round", "Hits, blocks and catches per round", events),
            Table("seat_events", "Events per round played, by seat", seat_events),
        ],
        definitions={"Hit, block, catch": DEFINITIONS["Hit, block, catch"]},
    )


def timeout_section(run: DodgeballRun) -> Section:
    """Round win rate with and without the timeout, and with and without an All-Star."""
    tables = {"timeout": run.timeout_value(), "All-Star": run.allstar_value()}
    findings = []
    labels, rates, lows, highs, colours = [], [], [], [], []
    for index, (name, table) in enumerate(tables.items()):
        rows = table.loc["all teams"]
        used, unused = rows.iloc[0], rows.iloc[1]
        if used.n == 0 or unused.n == 0:
            which = "used" if unused.n == 0 else "skipped"
            findings.append(Finding(
                f"No comparison for the {name}: every round {which} it.", key=f"{name}_value",
            ))
        else:
            apart = used.ci_low > unused.ci_high or used.ci_high < unused.ci_low
            verdict = (
                f"{'higher' if used.rate > unused.rate else 'lower'} than without it (the "
                "intervals separate)" if apart
                else "no measurable difference from the rounds without it"
            )
            findings.append(Finding(
                f"Teams that {rows.index[0]} {'their' if name == 'timeout' else 'an'} {name} "
                f"won {_rate(used)} of those rounds, against {_rate(unused)} without: "
                f"{verdict}. An association: teams choose when to use it.",
                used.rate, used.ci_low, used.ci_high, int(used.n), "use_value",
                f"{name.lower().replace('-', '')}_value",
            ))
        for group, row in rows.iterrows():
            labels.append(f"{name}: {group}")
            rates.append(row.rate)
            lows.append(row.ci_low)
            highs.append(row.ci_high)
            colours.append(PALETTE[index])
    figure, axes = new_figure(6.4, 2.6)
    rate_bars(axes, labels, rates, lows, highs, colours, horizontal=True)
    axes.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xlabel("Rounds won (%)")
    axes.set_xlim(0, 1)
    percent_axis(axes, "x")
    return Section(
        title="Hodge Podge Dodgeball: the timeout and the All-Star",
        intro=(
            "Round win rate of a team in the rounds it called its timeout (or played an "
            "All-Star) and in the rounds it did not, overall and by team."
        ),
        findings=findings,
        figures=[Figure("use_value", "Round win rate with and without", figure,
                        "95% Wilson intervals; dashed: one half.")],
        tables=[
            Table("timeout_value", "Round win rate with and without the timeout",
                  tables["timeout"]),
            Table("allstar_value", "Round win rate with and without playing an All-Star",
                  tables["All-Star"]),
        ],
        definitions={"Used vs not": DEFINITIONS["Used vs not"]},
    )


def balance_section(run: DodgeballRun) -> Section:
    """Team match win rates, the start player's team, match length."""
    teams = run.team_win_rates().reset_index()
    findings = []
    for _, row in teams.iterrows():
        if row.ci_low > 0.5 or row.ci_high < 0.5:
            verdict = f"{'more' if row.rate > 0.5 else 'less'} than half"
        else:
            verdict = "no measurable difference from half"
        findings.append(Finding(
            f"The team of {row['name']} ({row.strategies}) wins {_rate(row)} of matches: "
            f"{verdict}.",
            row.rate, row.ci_low, row.ci_high, int(row.n), "team_balance",
            f"team{int(row.team) + 1}_win",
        ))
    start = run.start_balance().iloc[0]
    verdict = (
        f"{'more' if start.rate > 0.5 else 'less'} than half" if start.ci_low > 0.5
        or start.ci_high < 0.5 else "no measurable difference from half"
    )
    findings.append(Finding(
        f"The team of the round's start player wins {_rate(start)} of rounds: {verdict}.",
        start.rate, start.ci_low, start.ci_high, int(start.n), "team_balance",
        "start_team_round_win",
    ))
    length = run.match_length()
    rounds = length.loc["rounds"]
    findings.append(Finding(
        f"A match lasts {rounds['mean']:.3f} [{rounds.ci_low:.3f}, {rounds.ci_high:.3f}] "
        f"rounds on average (2 or 3 with the Match Point card).",
        rounds["mean"], rounds.ci_low, rounds.ci_high, int(rounds.n), "team_balance",
        "rounds_per_match",
    ))
    by_round = run.start_balance(by_round=True)
    figure, axes = new_figure(6.4, 2.8)
    labels = [f"{name}: match" for name in teams["name"]]
    labels += [f"start team, round {index}" for index in by_round.index]
    rate_bars(
        axes, labels,
        list(teams["rate"]) + list(by_round["rate"]),
        list(teams["ci_low"]) + list(by_round["ci_low"]),
        list(teams["ci_high"]) + list(by_round["ci_high"]),
        [PALETTE[0]] * len(teams) + [PALETTE[1]] * len(by_round),
        horizontal=True,
    )
    axes.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xlim(0, 1)
    axes.set_xlabel("Won (%)")
    percent_axis(axes, "x")
    return Section(
        title="Hodge Podge Dodgeball: teams, start player and match length",
        intro=(
            "Match win rate of each team, round win rate of the start player's team (round 1 "
            "is started by seat 1, later rounds by the player who could not play), and how "
            "many rounds a match takes. Here a team's win counts whole. With four players the "
            "balance section counts the two partners as tied winners (each a win share of one "
            "half), so its fair share is 25% per seat and its shared-win rate 100% by "
            "construction."
        ),
        findings=findings,
        figures=[Figure("team_balance", "Team and start balance", figure,
                        "95% Wilson intervals; dashed: one half.")],
        tables=[
            Table("team_win_rates", "Match win rate by team", run.team_win_rates()),
            Table("start_balance", "Round win rate of the start player's team, by round",
                  by_round),
            Table("round_win_rates", "Round win rate by team (95% intervals count the rounds "
                  "of a match as independent: about 3% too narrow, design effect 1.06 measured "
                  "with four coach)", run.round_win_rates()),
            Table("match_length", "Rounds and tricks per match", length),
        ],
    )
