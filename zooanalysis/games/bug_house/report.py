"""Bug House Millionaire's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

How games end (shed out or clock) and after how many seconds; team and seat balance, the
start players included; what partner passing does (cards given, gifts the partner needed,
clock used); the Singles Allowed card when the Delayed Singles variant is played. Every rate
is printed with its 95% interval as [low, high] and its n; a finding names a seat or a team
only when the intervals (or a Holm-corrected test) separate it.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.games.bug_house.analysis import BugHouseRun
from zooanalysis.games.bug_house.engine import END_REASONS
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    estimates_of,
    mean_phrase,
    rate_phrase,
)
from zooanalysis.report.style import PALETTE, new_figure, percent_axis, rate_bars
from zooanalysis.separation import standout

DEFINITIONS = {
    "Shed out, clock": "A game stops the moment a player plays its last card (its team wins: "
    "'shed out') or a player's chess clock runs out (the other team wins: 'clock').",
    "Game length": "Seconds from the start of the clocks to the end of the game, whole "
    "seconds rounded down. Each duel's two clocks together ran that long.",
    "Gift": "The card of a won trick that its winner gives to its partner before leading "
    "again. 'Needed': it made a new pair or a run of the minimum length with the partner's "
    "hand, the cards the partner would state as its need.",
    "Stuck": "Delayed Singles: a player to lead whose only melds are singles while its "
    "partner holds their team's Singles Allowed card. Its clock runs until a gift gives it "
    "a pair or run, or runs out.",
}


def report_sections(run: BugHouseRun) -> list[Section]:
    """Every Bug House Millionaire section for ``run``."""
    sections = [endings_section(run), balance_section(run), passing_section(run)]
    if run.settings.get("delayed_singles"):
        sections.append(singles_section(run))
    return sections


def _rate(row) -> str:
    return rate_phrase(row.rate, row.ci_low, row.ci_high, int(row.n))


def endings_section(run: BugHouseRun) -> Section:
    """Shed out against clock, and when games end."""
    endings = run.endings("reason")
    length = run.game_length()
    findings = []
    clock = endings.loc["clock"]
    findings.append(Finding(
        f"{_rate(clock)} of games end because a clock ran out; the rest because a player "
        "shed out.",
        clock.rate, clock.ci_low, clock.ci_high, int(clock.n), "endings", "end_clock",
    ))
    seconds = length.loc["seconds"]
    findings.append(Finding(
        f"A game lasts {mean_phrase(seconds['mean'], seconds.ci_low, seconds.ci_high, 's')} "
        f"on average (median {int(seconds['median'])} s, 10%-90% {int(seconds.p10)}-"
        f"{int(seconds.p90)} s, {int(seconds.n):,} games) with clocks of "
        f"{run.settings.get('clock_seconds', 115)} s.",
        seconds["mean"], seconds.ci_low, seconds.ci_high, int(seconds.n), "end_seconds",
        "seconds",
    ))
    tricks = length.loc["tricks"]
    findings.append(Finding(
        f"Both duels together finish {mean_phrase(tricks['mean'], tricks.ci_low, tricks.ci_high)}"
        " tricks per game.",
        tricks["mean"], tricks.ci_low, tricks.ci_high, int(tricks.n), None, "tricks",
    ))
    table = run.table("end_seconds")
    figure, axes = new_figure(6.4, 3.0)
    for index, reason in enumerate(END_REASONS):
        part = table[table["reason"] == reason].groupby("seconds")["games"].sum()
        if part.sum() == 0:
            continue
        axes.bar(part.index, part / run.games, width=1.0, color=PALETTE[index], label=reason,
                 alpha=0.85)
    axes.set_xlabel("Game length (seconds)")
    axes.set_ylabel("Games (%)")
    percent_axis(axes)
    axes.legend(fontsize=8)
    return Section(
        title="Bug House Millionaire: how and when games end",
        intro=(
            "Two duels run at once on chess clocks; the game stops at the first player to "
            "shed out or to run out of time. How often each happens, and after how long."
        ),
        findings=findings,
        figures=[Figure("end_seconds", "Game length by how the game ended", figure,
                        "Share of all games by their length in whole seconds.")],
        tables=[
            Table("endings", "How games end", endings),
            Table("endings_by_seat", "Who ended the game", run.endings("seat_reason")),
            Table("game_length", "Game length in seconds and tricks", length),
        ],
        definitions={key: DEFINITIONS[key] for key in ("Shed out, clock", "Game length")},
    )


def balance_section(run: BugHouseRun) -> Section:
    """Team win rates, who sheds out, the start players."""
    teams = run.team_win_rates().reset_index()
    findings = []
    for _, row in teams.iterrows():
        if row.ci_low > 0.5 or row.ci_high < 0.5:
            verdict = f"{'more' if row.rate > 0.5 else 'less'} than half"
        else:
            verdict = "no measurable difference from half"
        findings.append(Finding(
            f"The {row['name']} ({row.strategies}) wins {_rate(row)} of games: {verdict}.",
            row.rate, row.ci_low, row.ci_high, int(row.n), "balance", f"team{row.team + 1}_win",
        ))
    by_seat = run.endings("seat")
    shed = run.endings("seat_reason").xs("shed_out", level="reason")
    best = standout(estimates_of(shed))
    if best.clear:
        row = shed.loc[best.top.name]
        text = (f"Seat {best.top.name} sheds out first in {_rate(row)} of games, more often "
                "than any other seat (the intervals separate).")
    else:
        names = ", ".join(str(e.name) for e in best.level)
        row = shed.loc[best.top.name]
        text = (f"No seat sheds out measurably more often than every other: seats {names} "
                f"are level (highest: seat {best.top.name}, {_rate(row)}).")
    findings.append(Finding(text, row.rate, row.ci_low, row.ci_high, int(row.n), "balance",
                            "shed_seat"))
    starts = run.start_players()
    first = starts.loc[("shed_out", "start players")]
    others = starts.loc[("shed_out", "the other two")]
    apart = first.ci_low > others.ci_high or first.ci_high < others.ci_low
    verdict = (f"{'more' if first.rate > others.rate else 'less'} often than the other two "
               f"({_rate(others)})" if apart else
               f"no measurable difference from the other two ({_rate(others)})")
    findings.append(Finding(
        f"The start players (seats 1 and 4) shed out first in {_rate(first)} of games: "
        f"{verdict}.",
        first.rate, first.ci_low, first.ci_high, int(first.n), "balance", "start_players",
    ))
    figure, axes = new_figure(6.4, 2.8)
    labels = [str(name) for name in teams["name"]]
    labels += [f"seat {seat} sheds out" for seat in shed.index]
    rate_bars(
        axes, labels,
        list(teams["rate"]) + list(shed["rate"]),
        list(teams["ci_low"]) + list(shed["ci_low"]),
        list(teams["ci_high"]) + list(shed["ci_high"]),
        [PALETTE[0]] * len(teams) + [PALETTE[1]] * len(shed),
        horizontal=True,
    )
    axes.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xlim(0, 1)
    axes.set_xlabel("Games (%)")
    percent_axis(axes, "x")
    return Section(
        title="Bug House Millionaire: teams, seats and start players",
        intro=(
            "Team 1 is seats 1 & 3, team 2 seats 2 & 4; duel 1 is seat 1 against seat 2, "
            "duel 2 seat 3 against seat 4; seats 1 and 4 start. Here a team's win counts "
            "whole; the balance section counts the two partners as tied winners (a win share "
            "of one half each), so its fair share is 25% per seat."
        ),
        findings=findings,
        figures=[Figure("balance", "Team wins and who sheds out", figure,
                        "95% Wilson intervals; dashed: one half.")],
        tables=[
            Table("team_win_rates", "Win rate by team", run.team_win_rates()),
            Table("endings_by_seat_any", "Games ended by each seat", by_seat),
            Table("start_players", "Games ended by the start players and the others",
                  starts),
        ],
    )


def passing_section(run: BugHouseRun) -> Section:
    """Cards given to partners, how often the partner needed them, clocks used."""
    activity = run.seat_activity()
    findings = []
    given = float(activity["cards_given"].sum())
    if run.settings.get("partner_passing", True):
        share = run.gifts_needed()
        how = ("" if share["clustered"] else "; the interval counts the gifts as independent, "
               "this run folder predating the per-game counts")  # fmt: skip
        findings.append(Finding(
            f"Partners pass {given:.2f} cards per game; {_rate(share)} of the gifts made a "
            f"new pair or run for the partner (what it would state as its need{how}).",
            share.rate, share.ci_low, share.ci_high, int(share.n), None, "gifts_needed",
        ))
    else:
        findings.append(Finding(
            "This run plays without partner passing (partner_passing = false): the winner "
            "of a trick collects it and leads at once.", key="no_passing",
        ))
    figure, axes = new_figure(6.4, 2.6)
    seats = [f"seat {seat} ({row.strategy})" for seat, row in activity.iterrows()]
    axes.barh(np.arange(len(seats)), activity["clock_used_seconds"],
              color=[PALETTE[(seat - 1) % 2] for seat in activity.index])
    axes.set_yticks(np.arange(len(seats)), seats)
    axes.invert_yaxis()
    axes.set_xlabel("Seconds of its clock used per game (mean)")
    return Section(
        title="Bug House Millionaire: partners, passing and the clock",
        intro=(
            "Per seat and game: melds played, passes, tricks won, cards given to and "
            "received from the partner, decisions and the seconds of clock they cost."
        ),
        findings=findings,
        figures=[Figure("clock_used", "Clock used per game, by seat", figure,
                        "Mean seconds of each seat's clock that ran in a game.")],
        tables=[Table("seat_activity", "Per seat, per game", activity)],
        definitions={"Gift": DEFINITIONS["Gift"]},
    )


def singles_section(run: BugHouseRun) -> Section:
    """Delayed Singles: the Singles Allowed card's value and stuck players."""
    value = run.singles_card_value()
    took, did_not = value.loc["took the card"], value.loc["did not"]
    findings = []
    if took.n and did_not.n:
        apart = took.ci_low > did_not.ci_high or took.ci_high < did_not.ci_low
        verdict = (f"{'higher' if took.rate > did_not.rate else 'lower'} than teams that did "
                   "not (the intervals separate)" if apart
                   else "no measurable difference from teams that did not")
        findings.append(Finding(
            f"Teams that took their Singles Allowed card won {_rate(took)} of those games, "
            f"against {_rate(did_not)}: {verdict}. An association: teams take it when they "
            "need it.",
            took.rate, took.ci_low, took.ci_high, int(took.n), None, "singles_card",
        ))
    stuck = float(run.seat_activity()["stuck"].sum())
    findings.append(Finding(
        f"Players were stuck without a legal lead {stuck:.2f} times per game.", key="stuck",
    ))
    return Section(
        title="Bug House Millionaire: Delayed Singles",
        intro="The Singles Allowed card: who took it, and what it cost the partners.",
        findings=findings,
        tables=[Table("singles_card_value", "Win rate with and without taking the card",
                      value)],
        definitions={"Stuck": DEFINITIONS["Stuck"]},
    )
