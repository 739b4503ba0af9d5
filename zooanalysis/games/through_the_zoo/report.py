"""Through the Zoo's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

What each exhibit decides (its part of the winner's lead), the start player's advantage and
seat balance per exhibit, exhibit orders, and the mulligans (and Johannesburg's Diamonds).
Every number is printed with its 95% interval as [low, high] and its n; a finding names a
difference only when the intervals separate (``separation.standout``).
"""

from __future__ import annotations

from zooanalysis.games.through_the_zoo.analysis import ThroughTheZooRun
from zooanalysis.report.model import Figure, Finding, Section, Table, mean_phrase
from zooanalysis.report.style import PALETTE, count_axis, new_figure, rate_bars
from zooanalysis.separation import Estimate, against_reference, standout
from zooanalysis.stats import share_test

DEFINITIONS = {
    "Exhibit": "One Exhibit card: the standard-deck game a round plays. Cards are named "
    "'n: game', n their place in the settings' list, so two cards of one game stay apart.",
    "Winner's lead": "In games with a sole winner: the winner's game points in that round "
    "minus the average of the other players' (the meta scoring counts as a part too). The "
    "parts add up to the winner's whole lead; a part's share says how much of the decision "
    "that exhibit made.",
    "Start player": "The holder of the Start Player card in that round (it passes clockwise "
    "every round); offset 2 is the next seat clockwise, and so on.",
    "Mulligan": "The Prepare action: cards sent back before the round (Zooklyn: up to 13, "
    "shuffled back; Johannesburg: up to 7, on top of the deck, so they come back next "
    "round).",
}


def report_sections(run: ThroughTheZooRun) -> list[Section]:
    """Every Through the Zoo section for ``run``."""
    return [leads_section(run), start_section(run), orders_section(run), mulligan_section(run)]


def leads_section(run: ThroughTheZooRun) -> Section:
    """How much of the winner's lead each exhibit (and the meta scoring) makes."""
    leads = run.exhibit_leads()
    findings = []
    usable = leads.dropna(subset=["lead"])
    if len(usable):
        estimates = [Estimate(str(part), row["lead"], row["ci_low"], row["ci_high"])
                     for part, row in usable.iterrows()]
        top = standout(estimates)
        row = usable.loc[top.top.name]
        if top.clear:
            what = "The meta scoring" if top.top.name == "meta scoring" else (
                f"Exhibit {top.top.name}")
            text = (f"{what} decides the most: the winner gains "
                    f"{mean_phrase(row['lead'], row['ci_low'], row['ci_high'], 'game points')} "
                    f"over the average other player there, {100 * row['share']:.0f}% of the "
                    f"whole lead (n={int(row['n']):,} games with a sole winner).")
        else:
            names = ", ".join(e.name for e in top.level)
            text = (f"No exhibit measurably decides more than the others: {names} are level "
                    f"(the largest, {top.top.name}, gives the winner "
                    f"{mean_phrase(row['lead'], row['ci_low'], row['ci_high'], 'game points')}"
                    f" of lead; n={int(row['n']):,} games with a sole winner).")
        findings.append(Finding(text, row["lead"], row["ci_low"], row["ci_high"],
                                int(row["n"]), "exhibit_leads", "exhibit_lead"))
    figure, axes = new_figure(6.4, 0.8 + 0.4 * max(len(usable), 1))
    rate_bars(axes, list(usable.index), usable["lead"], usable["ci_low"], usable["ci_high"],
              PALETTE[0], horizontal=True)
    axes.set_xlabel("Winner's lead gained (game points)")
    table = usable.rename(columns={"ci_low": "low", "ci_high": "high"})
    return Section(
        "What each exhibit decides",
        "The winner's lead split by round: an exhibit with a large part decides games; one "
        "near zero hardly matters.",
        findings,
        [Figure("exhibit_leads", "Winner's lead gained per exhibit", figure,
                "Mean game points the sole winner gains over the average other player, with "
                "95% intervals.")],
        [Table("exhibit_leads", "Winner's lead per exhibit", table)],
        DEFINITIONS,
    )


def start_section(run: ThroughTheZooRun) -> Section:
    """The start player's advantage and the seats' balance in each exhibit."""
    start = run.start_player()
    by_offset = run.exhibit_points("offset")
    findings = []
    for exhibit, row in start.iterrows():
        own = Estimate("start", row["start_mean"], row["start_low"], row["start_high"])
        if own.low > row["all_mean"]:
            verdict = "more than the average seat (the interval lies above it)"
        elif own.high < row["all_mean"]:
            verdict = "less than the average seat (the interval lies below it)"
        else:
            verdict = "no measurable difference from the average seat"
        findings.append(Finding(
            f"In {exhibit}, the start player scores "
            f"{mean_phrase(row['start_mean'], row['start_low'], row['start_high'])} game "
            f"points a round against {row['all_mean']:.2f} for the average seat: {verdict} "
            f"(n={int(row['n']):,} rounds).",
            row["start_mean"], row["start_low"], row["start_high"], int(row["n"]),
            "start_points", f"start_{exhibit}",
        ))
    figure, axes = new_figure(6.4, 0.8 + 0.3 * len(by_offset))
    labels = [f"{exhibit}, seat +{offset - 1}" for exhibit, offset in by_offset.index]
    rate_bars(axes, labels, by_offset["mean"], by_offset["ci_low"], by_offset["ci_high"],
              [PALETTE[offset % len(PALETTE)] for _, offset in by_offset.index],
              horizontal=True)
    axes.set_xlabel("Game points per round")
    return Section(
        "The start player in each exhibit",
        "Game points a seat scores in an exhibit's round by its place after the start "
        "player (+0 is the start player).",
        findings,
        [Figure("start_points", "Game points by place after the start player", figure)],
        [Table("start_points", "Game points per round by exhibit and place", by_offset),
         Table("seat_points", "Game points per round by exhibit and seat",
               run.exhibit_points("seat"))],
        DEFINITIONS,
    )


def orders_section(run: ThroughTheZooRun) -> Section:
    """Seat balance by exhibit order."""
    balance = run.order_balance()
    findings = []
    orders = balance.index.get_level_values(0).unique()
    fair = 1 / run.players
    estimates = [Estimate(f"{order} seat {seat}", row["rate"], row["ci_low"], row["ci_high"])
                 for (order, seat), row in balance.iterrows()]
    p_values = [share_test(row["rate"], fair, row["n"]) for _, row in balance.iterrows()]
    verdicts = against_reference(estimates, fair, p_values)
    unbalanced = sorted({order for (order, _), verdict in zip(balance.index, verdicts,
                                                              strict=True) if verdict})
    if unbalanced:
        text = (f"In {len(unbalanced)} of {len(orders)} exhibit orders some seat's win share "
                f"differs measurably from the fair {100 * fair:.1f}% (Holm-corrected over all "
                f"{len(estimates)} seat-order cells; for example {unbalanced[0]}); with "
                "strategies differing by seat this mixes seat and skill.")
    else:
        text = (f"In none of the {len(orders)} exhibit orders does a seat's win share differ "
                f"measurably from the fair {100 * fair:.1f}% (Holm-corrected over all "
                f"{len(estimates)} seat-order cells).")
    findings.append(Finding(text, len(unbalanced), n=len(orders), key="unbalanced_orders"))
    return Section(
        "Exhibit orders",
        "Win share of each seat (ties split) for each order the Exhibit cards were dealt in.",
        findings,
        [],
        [Table("order_balance", "Win share by exhibit order and seat", balance)],
        DEFINITIONS,
    )


def mulligan_section(run: ThroughTheZooRun) -> Section:
    """How many cards each seat mulligans, and Johannesburg's Diamonds."""
    mulligans = run.mulligans()
    points = run.game_points()
    findings = []
    estimates = [Estimate(f"seat {seat} ({row['strategy']})", row["mean"], row["ci_low"],
                          row["ci_high"]) for seat, row in points.iterrows()]
    top = standout(estimates)
    best = points.iloc[[e.name for e in estimates].index(top.top.name)]
    if top.clear:
        text = (f"{top.top.name} scores the most game points: "
                f"{mean_phrase(best['mean'], best['ci_low'], best['ci_high'])} a game "
                f"(n={int(best['n']):,}).")
    else:
        text = ("No seat scores measurably more game points than all others: "
                + ", ".join(f"{e.name} {mean_phrase(e.value, e.low, e.high)}" for e in top.level)
                + ".")
    findings.append(Finding(text, best["mean"], best["ci_low"], best["ci_high"], int(best["n"]),
                            "game_points", "game_points"))
    figure, axes = new_figure(6.4, 3.2)
    for index, (seat, part) in enumerate(mulligans.groupby(level="seat")):
        rounds = part.index.get_level_values("round")
        axes.errorbar(rounds + 0.05 * index, part["mean"],
                      yerr=[part["mean"] - part["ci_low"], part["ci_high"] - part["mean"]],
                      color=PALETTE[index % len(PALETTE)], marker="o", capsize=3,
                      label=f"seat {seat} ({part['strategy'].iloc[0]})")
    axes.set_xlabel("Round")
    axes.set_ylabel("Cards mulliganed")
    count_axis(axes)
    axes.legend(fontsize=8)
    tables = [Table("game_points", "Game points per game by seat", points),
              Table("mulligans", "Cards mulliganed by seat and round", mulligans)]
    if run.settings.get("zoo") == "johannesburg" or run.settings.get("meta_scoring") not in (
        None, "zoo", "none"
    ):
        diamonds = run.diamonds()
        tables.append(Table("diamonds", "Diamonds and meta scoring by seat", diamonds))
        candidates = [Estimate(str(seat), row["mean"], row["ci_low"], row["ci_high"])
                      for seat, row in diamonds.iterrows()]
        fewest = standout(candidates, highest=False)
        row = diamonds.loc[int(fewest.top.name)]
        if fewest.clear:
            text = (f"Seat {fewest.top.name} ({row['strategy']}) ends the game with the fewest "
                    f"Diamonds, {mean_phrase(row['mean'], row['ci_low'], row['ci_high'])} "
                    f"(n={int(row['n']):,}), and takes "
                    f"{mean_phrase(row['meta_points'], row['meta_low'], row['meta_high'])} "
                    "game points from the meta scoring.")
        else:
            text = ("No seat ends with measurably fewer Diamonds than all others: "
                    + ", ".join(f"seat {e.name} {mean_phrase(e.value, e.low, e.high)}"
                                for e in fewest.level) + ".")
        findings.append(Finding(text, row["mean"], row["ci_low"], row["ci_high"], int(row["n"]),
                                "mulligans", "fewest_diamonds"))
    return Section(
        "Mulligans and game points",
        "The Prepare action's mulligans by seat and round, and the game points they lead to.",
        findings,
        [Figure("mulligans", "Cards mulliganed per round", figure)],
        tables,
        DEFINITIONS,
    )
