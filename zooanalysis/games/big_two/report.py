"""Big Two's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

The first player's advantage, cards left by seat, seat balance (win share and places) and
the kinds of play used. Every rate is printed with its 95% interval as [low, high] and its
n; a finding names a seat or a difference only when ``separation`` says the data separate
it, and otherwise says there is no measurable difference.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.games.big_two.analysis import BigTwoRun
from zooanalysis.games.big_two.rules import KIND_NAMES
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    estimates_of,
    mean_phrase,
    rate_phrase,
)
from zooanalysis.report.style import PALETTE, count_axis, new_figure, percent_axis, rate_bars
from zooanalysis.separation import against_reference, standout
from zooanalysis.stats import share_test

DEFINITIONS = {
    "Opener": "The player who leads the first trick of a round: the holder of the lowest "
    "card (3 of diamonds with four players) under the lowest-card opening, else the start "
    "player.",
    "Cards left": "Cards a player still holds when the round ends (0 for a player who went "
    "out). With the first-out ending, the winner holds 0 and the others are ranked by it.",
    "Place": "1 = went out first; then the order of going out, then fewer cards left; tied "
    "players share the better place.",
    "Decision kinds": "Every turn is a pass or a play of one kind: single, pair, triple, or a "
    "five-card hand (straight < flush < full house < four of a kind < straight flush).",
}


def report_sections(run: BigTwoRun) -> list[Section]:
    """Every Big Two section for ``run``."""
    return [first_player_section(run), cards_left_section(run), seats_section(run),
            play_types_section(run)]


def _seat_names(index) -> list[str]:
    return [f"seat {seat}" for seat in index]


def first_player_section(run: BigTwoRun) -> Section:
    """How often the opener goes out first, against the fair share, and by position."""
    table = run.first_player()
    fair = 1 / run.players
    opener = table.iloc[0]
    verdict = against_reference(
        estimates_of(table.iloc[:1]), fair, [share_test(opener.rate, fair, opener.n)]
    )[0]
    words = {1: "more often than the fair share", -1: "less often than the fair share",
             0: "not measurably different from the fair share"}[verdict]
    phrase = rate_phrase(opener.rate, opener.ci_low, opener.ci_high, int(opener.n))
    findings = [Finding(
        f"The opener goes out first in {phrase} of rounds: {words} ({100 * fair:.1f}%).",
        opener.rate, opener.ci_low, opener.ci_high, int(opener.n), "first_out_by_position",
        "opener_first_out",
    )]
    figure, axes = new_figure(6.4, 3.0)
    rate_bars(axes, list(table.index), table["rate"], table["ci_low"], table["ci_high"])
    axes.axhline(fair, color="black", linewidth=1, linestyle="--")
    axes.set_ylabel("Rounds won (went out first)")
    percent_axis(axes)
    return Section(
        title="Big Two: the first player's advantage",
        intro="Who goes out first, by position clockwise from the player who led the first "
        "trick (position 1). The dashed line is the fair share 1 / players.",
        findings=findings,
        figures=[Figure("first_out_by_position", "First out by position from the opener",
                        figure, "Share of rounds, 95% Wilson intervals.")],
        tables=[
            Table("first_out_by_position", "First out by position from the opener", table),
            Table("opener_by_seat", "Rounds each seat opened, and went out first then",
                  run.opener_by_seat()),
        ],
        definitions={"Opener": DEFINITIONS["Opener"]},
    )


def cards_left_section(run: BigTwoRun) -> Section:
    """Mean cards left at the end of a round, by seat and by strategy."""
    by_seat = run.cards_left("seat")
    most = standout(estimates_of(by_seat, "mean"), highest=True)
    names = ", ".join(f"seat {e.name} {mean_phrase(e.value, e.low, e.high)}" for e in most.level)
    if most.clear:
        text = (f"Seat {most.top.name} ends rounds holding the most cards: "
                f"{mean_phrase(most.top.value, most.top.low, most.top.high)} on average "
                "(the intervals separate it from every other seat).")
    else:
        text = f"No measurable difference between the seats holding the most cards: {names}."
    findings = [Finding(text, most.top.value, most.top.low, most.top.high,
                        int(by_seat.loc[most.top.name, "n"]), "cards_left_by_seat",
                        "most_cards_left")]
    figure, axes = new_figure(6.4, 3.0)
    means = by_seat["mean"].to_numpy(dtype=float)
    errors = np.vstack([means - by_seat["ci_low"].to_numpy(dtype=float),
                        by_seat["ci_high"].to_numpy(dtype=float) - means])
    axes.bar(np.arange(len(by_seat)), means, yerr=np.clip(errors, 0, None), color=PALETTE[0],
             ecolor="black", capsize=3)
    axes.set_xticks(np.arange(len(by_seat)), _seat_names(by_seat.index))
    axes.set_ylabel("Cards left (mean)")
    distribution = run.table("cards_left").copy()
    distribution["seat"] += 1
    return Section(
        title="Big Two: cards left by seat",
        intro="How many cards each seat still holds when the round ends.",
        findings=findings,
        figures=[Figure("cards_left_by_seat", "Cards left at the end of a round", figure,
                        "Means with 95% normal intervals.")],
        tables=[
            Table("cards_left_by_seat", "Cards left by seat", by_seat),
            Table("cards_left_by_strategy", "Cards left by strategy", run.cards_left("strategy")),
            Table("cards_left_distribution", "Rounds by seat and cards left", distribution,
                  index=False),
        ],
        definitions={"Cards left": DEFINITIONS["Cards left"]},
    )


def seats_section(run: BigTwoRun) -> Section:
    """Win share by seat against the fair share, and places by seat."""
    rates = run.win_rates("seat")
    fair = 1 / run.players
    verdicts = against_reference(
        estimates_of(rates, "share"), fair,
        [share_test(row.share, fair, row.n) for _, row in rates.iterrows()],
    )
    findings = []
    for (seat, row), verdict in zip(rates.iterrows(), verdicts, strict=True):
        words = {1: "above", -1: "below", 0: "not measurably different from"}[verdict]
        phrase = rate_phrase(row.share, row.ci_low, row.ci_high, int(row.n))
        findings.append(Finding(
            f"Seat {seat}{_strategy_note(row.strategy)} wins {phrase} of games: {words} the "
            f"fair share {100 * fair:.1f}%.",
            row.share, row.ci_low, row.ci_high, int(row.n), "win_share_by_seat",
            f"seat{seat}_share",
        ))
    figure, axes = new_figure(6.4, 3.0)
    rate_bars(axes, [f"seat {s}\n{row.strategy}" for s, row in rates.iterrows()],
              rates["share"], rates["ci_low"], rates["ci_high"])
    axes.axhline(fair, color="black", linewidth=1, linestyle="--")
    axes.set_ylabel("Win share")
    percent_axis(axes)
    return Section(
        title="Big Two: seat balance",
        intro="Win share by seat (the dashed line is the fair share) and the places each "
        "seat finishes in. Seats with different strategies differ by strategy as well as "
        "by seat: rotate seats (--rotate-seats) to separate the two.",
        findings=findings,
        figures=[Figure("win_share_by_seat", "Win share by seat", figure,
                        "95% Wilson intervals.")],
        tables=[
            Table("win_share_by_seat", "Win share by seat",
                  rates[["strategy", "share", "ci_low", "ci_high", "n"]]),
            Table("places_by_seat", "Places by seat", run.places()),
        ],
        definitions={"Place": DEFINITIONS["Place"]},
    )


def play_types_section(run: BigTwoRun) -> Section:
    """The kinds of decisions each strategy makes, and the kinds that lead tricks."""
    kinds = run.play_types("strategy")
    leads = run.leads()
    # Tricks led count as independent: measured from per-game sums, each kind's design
    # effect is at most 1.04 (BigTwoRun.leads).
    top = standout(estimates_of(leads[leads["n"] > 0]), highest=True)
    if top.clear:
        phrase = rate_phrase(top.top.value, top.top.low, top.top.high, int(leads["n"].iloc[0]))
        text = (f"Tricks are most often led with a {top.top.name.replace('_', ' ')}: "
                f"{phrase} of leads.")
    else:
        text = "No single kind of lead stands out: " + ", ".join(
            f"{e.name} {rate_phrase(e.value, e.low, e.high)}" for e in top.level) + "."
    findings = [Finding(text, top.top.value, top.top.low, top.top.high,
                        int(leads["n"].iloc[0]), "decision_kinds", "most_common_lead")]
    figure, axes = new_figure(6.4, 3.4)
    strategies = list(dict.fromkeys(kinds.index.get_level_values(0)))
    width = 0.8 / max(len(strategies), 1)
    for index, strategy in enumerate(strategies):
        part = kinds.loc[strategy].reindex(KIND_NAMES)
        axes.bar(np.arange(len(KIND_NAMES)) + (index - (len(strategies) - 1) / 2) * width,
                 part["rate"].fillna(0), width=width, color=PALETTE[index % len(PALETTE)],
                 label=str(strategy))
    axes.set_xticks(np.arange(len(KIND_NAMES)), [k.replace("_", "\n") for k in KIND_NAMES],
                    fontsize=7)
    axes.set_ylabel("Share of decisions")
    percent_axis(axes)
    axes.legend(fontsize=8)
    length = run.round_length()
    length_figure, length_axes = new_figure(6.4, 2.8)
    turns = run.table("turns")
    length_axes.bar(turns["turns"], turns["games"] / turns["games"].sum(), color=PALETTE[1])
    length_axes.set_xlabel("Decisions in a round")
    length_axes.set_ylabel("Rounds")
    percent_axis(length_axes)
    count_axis(length_axes, "x")
    return Section(
        title="Big Two: play types",
        intro="What players do on their turns: pass, or play a single, pair, triple or a "
        "five-card hand; and what kinds open the tricks. The decisions-by-kind table's 95% "
        "intervals count decisions as independent; the decisions of one game are correlated "
        "(for singles and pairs the variance is 3-4 times that, measured on the default "
        "lineup), so read them as too narrow; the summary's all-seat shares allow for it.",
        findings=findings,
        figures=[
            Figure("decision_kinds", "Decisions by kind and strategy", figure,
                   "Share of each strategy's decisions."),
            Figure("round_length", "Decisions per round", length_figure,
                   "Share of rounds by the decisions (plays and passes) in them."),
        ],
        tables=[
            Table("decision_kinds", "Decisions by kind and strategy", kinds),
            Table("lead_kinds", "Tricks led by kind", leads),
            Table("round_length", "Round length", length),
        ],
        definitions={"Decision kinds": DEFINITIONS["Decision kinds"]},
    )


def _strategy_note(strategy: str) -> str:
    """`` (greedy)`` after a seat's number; `` (rotated)`` for a seat that hosted every
    strategy in turn (not ``((rotated))``)."""
    return f" {strategy}" if strategy == "(rotated)" else f" ({strategy})"
