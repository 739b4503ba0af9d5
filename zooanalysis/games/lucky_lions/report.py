"""Lucky Lions' sections of ``zoosim report`` (the ``Game.report_sections`` hook).

Cycle dominance, exactly: a who-beats-whom matrix per Zoo Card of the run's deck and each
animal's strength across the deck with its spread over generated prints. Then what whole
games showed: ties by cycle size next to the exact chance, how animals fared when shown,
dice sizes, Zoo Cards won and the Wild Animals powers.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap

from zooanalysis.games.lucky_lions.analysis import LuckyLionsRun, describe_rules
from zooanalysis.games.lucky_lions.cards import ANIMALS
from zooanalysis.games.lucky_lions.outcomes import outcome_matrix
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    estimates_of,
    mean_phrase,
    rate_phrase,
)
from zooanalysis.report.style import (
    PALETTE,
    REFERENCE,
    count_axis,
    new_figure,
    new_grid,
    percent_axis,
    rate_bars,
)
from zooanalysis.separation import Estimate, standout

MAX_CARDS_DRAWN = 30
"""Dominance matrices drawn at most (the table has every card)."""

DEFINITIONS = {
    "Strength": "An animal's expected result of one roll on a Zoo Card, P(win) - P(loss), "
    "against a uniformly random animal ('uniform') or against an animal drawn like a card of "
    "the dice ('dice': lion 9 of 33 cards). +1 always wins, -1 always loses. Exact: a finite "
    "sum over the card's 5x5 outcome matrix.",
    "Best pick": "An animal no other animal beats in strength on that card (ties for best all "
    "count). Against a uniform animal every animal on a cycle is equally strong, so the "
    "uniform best-pick share is just the share of cards showing the animal.",
    "Spread over prints": "Every game of a run with deck = 'generated' uses its own print of "
    "the publisher's generator; the spread is the standard deviation of a print's mean "
    "strength over 200 prints (how much one printed deck can tilt an animal). The strength "
    "over prints is their mean, with a 95% interval reaching 1.96 standard errors (standard "
    "deviation / √200) on each side: an animal is named strongest or weakest only when its "
    "interval separates it from every other.",
    "Tie rate": "The share of battles with more than one winning animal (before the tie "
    "rule's discard), with its 95% Wilson interval; 'exact' is the chance for two cards "
    "drawn like the dice on a card of that size, averaged over the deck.",
    "Cards in a die": "How many Animal Cards a battler held when it rolled.",
}


def report_sections(run: LuckyLionsRun) -> list[Section]:
    """Every Lucky Lions section for ``run``."""
    return [dominance_section(run), ties_section(run), game_section(run)]


# --- cycle dominance ---------------------------------------------------------------------------


def dominance_section(run: LuckyLionsRun) -> Section:
    """Who beats whom per card, and animal strength across the deck (exact)."""
    rules = run.rules()
    strength = run.animal_strength()
    decks = int(strength["decks"].iloc[0])
    where = f"over {decks} generated prints" if rules.fresh_decks else "on the run's deck"
    findings = [strength_finding(strength, where, decks)]
    lion = strength.loc["lion"]
    others = strength.drop(index="lion")["best_pick_share_dice"].mean()
    findings.append(
        Finding(
            f"Lion has {int(lion.cards_in_pool)} of {int(strength['cards_in_pool'].sum())} "
            f"Animal Cards; against the dice it is the best pick on "
            f"{100 * lion.best_pick_share_dice:.0f}% of Zoo Cards, the other animals on "
            f"{100 * others:.0f}% on average: a common animal meets itself (a tie) more often.",
            value=lion.best_pick_share_dice,
            n=decks,
            figure="lucky_animal_strength",
            key="lion_balance",
        )
    )
    dominance = run.cycle_dominance()
    dominance["card"] += 1  # numbered from 1, as in the figure's titles
    return Section(
        title="Lucky Lions: cycle dominance (exact)",
        intro=(
            "Who beats whom on each Zoo Card follows from the card alone (rules decision #1: "
            "the animal an arrow points to wins on a 3-cycle). These numbers are exact sums, "
            "not simulation."
        ),
        findings=findings,
        figures=[dominance_grid(run), strength_figure(strength, where)],
        tables=[
            Table("lucky_animal_strength", "Animal strength across the deck", strength),
            Table(
                "lucky_cycle_dominance",
                "Every animal on every Zoo Card" + (" (print 1)" if rules.fresh_decks else ""),
                dominance,
                index=False,
                show_rows=25,
            ),
        ],
        definitions=DEFINITIONS,
    )


def strength_estimates(strength: pd.DataFrame) -> list[Estimate]:
    """Each animal's mean strength against the dice with its 95% interval: exact for one
    fixed deck; over generated prints, the mean over prints +- 1.96 standard errors."""
    decks = strength["decks"].astype(float)
    spread = strength["std_dice"].fillna(0.0)
    half = 1.959963984540054 * spread / np.sqrt(decks)
    return [
        Estimate(animal, row.strength_dice, row.strength_dice - h, row.strength_dice + h)
        for (animal, row), h in zip(strength.iterrows(), half, strict=True)
    ]


def strength_finding(strength: pd.DataFrame, where: str, decks: int) -> Finding:
    """The strongest and weakest animal against the dice, named only when separated."""
    estimates = strength_estimates(strength)
    strongest = standout(estimates)
    weakest = standout(estimates, highest=False)
    exact = strength["std_dice"].isna().all()

    def phrase(estimate: Estimate) -> str:
        if exact:
            return f"{estimate.name} {estimate.value:+.3f}"
        return (
            f"{estimate.name} {estimate.value:+.3f} [{estimate.low:+.3f}, {estimate.high:+.3f}]"
        )

    def verdict(best, word: str) -> str:
        if best.clear:
            return f"{phrase(best.top)} is the {word}"
        return f"no animal is measurably the {word} ({', '.join(map(phrase, best.level))})"

    basis = (
        "exact"
        if exact
        else f"mean over prints with its 95% interval; a single print tilts an animal by a "
        f"standard deviation of about {strength['std_dice'].mean():.3f}"
    )
    text = (
        f"Against the dice's animals {where} (win − loss per roll, −1 to +1; {basis}): "
        f"{verdict(strongest, 'strongest')}; {verdict(weakest, 'weakest')}."
    )
    top = strongest.top
    return Finding(
        text, top.value, top.low, top.high, decks, "lucky_animal_strength", "strongest_animal"
    )


def dominance_grid(run: LuckyLionsRun) -> Figure:
    """Small multiples: each Zoo Card's 5x5 who-beats-whom matrix."""
    cards = run.decks(1)[0][:MAX_CARDS_DRAWN]
    columns = 4  # phone-wide: 6.4 inches
    rows = math.ceil(len(cards) / columns)
    figure, grid = new_grid(rows, columns, 6.4, 1.8 * rows)
    colours = ListedColormap([PALETTE[1], "#e8e8e8", PALETTE[0]])  # loss, tie, win
    initials = [a[:2] for a in ANIMALS]
    for index, axes in enumerate(grid.flat):
        if index >= len(cards):
            axes.set_axis_off()
            continue
        card = cards[index]
        axes.imshow(outcome_matrix(card), cmap=colours, vmin=-1, vmax=1)
        axes.set_title(
            f"{index + 1}: " + "→".join(ANIMALS[i][:2] for i in card.cycle),
            fontsize=7,
        )
        axes.set_xticks(range(5), initials, fontsize=7)
        axes.set_yticks(range(5), initials, fontsize=7)
        axes.tick_params(length=0)
    rules = run.rules()
    which = "the first generated print" if rules.fresh_decks else "the run's deck"
    return Figure(
        "lucky_dominance_matrices",
        "Who beats whom on each Zoo Card",
        figure,
        f"One matrix per Zoo Card of {which}: blue, the row animal wins; orange, it loses; grey, "
        "a tie. Titles list the cycle in arrow order (li lion, fo fox, pa panda, fl flamingo, "
        "do dolphin; the last animal's arrow points back to the first).",
    )


def strength_figure(strength: pd.DataFrame, where: str) -> Figure:
    """Each animal's mean strength against uniform and dice animals, with its spread."""
    figure, axes = new_figure(6.4, 3.6)
    positions = np.arange(len(strength))
    width = 0.38
    for offset, column, spread, label, colour in (
        (-width / 2, "strength_uniform", "std_uniform", "against a uniform animal", PALETTE[0]),
        (width / 2, "strength_dice", "std_dice", "against the dice's animals", PALETTE[1]),
    ):
        errors = np.nan_to_num(strength[spread].to_numpy())
        axes.bar(
            positions + offset, strength[column], width, yerr=errors, capsize=3,
            color=colour, label=label, error_kw={"linewidth": 1},
        )  # fmt: skip
    axes.axhline(0, color=REFERENCE, linewidth=0.8)
    axes.set_xticks(positions, list(strength.index))
    axes.set_ylabel("Strength (win - loss per roll)")
    axes.set_xlabel("Animal")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2)
    return Figure(
        "lucky_animal_strength",
        "Animal strength across the deck",
        figure,
        f"Mean strength {where}; error bars: one standard deviation across generated prints "
        "(none for a fixed deck). Exact, not simulated.",
    )


# --- ties --------------------------------------------------------------------------------------


def ties_section(run: LuckyLionsRun) -> Section:
    """Observed tie rate by cycle size, with the exact chance for random cards."""
    ties = run.tie_rates()
    by_size = ties.drop(index="all")
    most = standout(estimates_of(by_size))
    row = by_size.loc[most.top.name]
    overall = ties.loc["all"]
    if len(by_size) == 1:
        which = f"all its cards have {most.top.name} animals"
    elif most.clear:
        which = (
            f"cards with {most.top.name} animals tie most: "
            f"{rate_phrase(row.rate, row.ci_low, row.ci_high)}"
        )
    else:
        which = "no cycle size ties measurably most: " + ", ".join(
            f"{e.name} animals {rate_phrase(e.value, e.low, e.high)}" for e in most.level
        )
    figure, axes = new_figure()
    labels = [str(size) for size in by_size.index]
    rate_bars(axes, labels, by_size["rate"], by_size["ci_low"], by_size["ci_high"])
    axes.scatter(
        range(len(labels)), by_size["exact_random_cards"], color=PALETTE[5], zorder=3,
        marker="D", label="exact, random cards",
    )  # fmt: skip
    axes.set_xlabel("Animals on the Zoo Card (cycle size)")
    axes.set_ylabel("Battles tied (% of battles)")
    percent_axis(axes)
    axes.legend()
    return Section(
        title="Lucky Lions: ties",
        intro=(
            "A tie makes one battler discard (the active player decides who), so ties shrink "
            "dice. Bots pick cards, so observed ties differ from the exact chance for random "
            "cards."
        ),
        findings=[
            Finding(
                f"{rate_phrase(overall.rate, overall.ci_low, overall.ci_high)} of battles tie "
                f"(n={int(overall.n):,} battles); {which}.",
                overall.rate,
                overall.ci_low,
                overall.ci_high,
                int(overall.n),
                "lucky_tie_rate",
                "tie_rate",
            )
        ],
        figures=[
            Figure(
                "lucky_tie_rate",
                "Tie rate by cycle size",
                figure,
                "Bars: observed share of battles with several winners (95% Wilson intervals); "
                "diamonds: exact chance for two random dice cards on such a card.",
            )
        ],
        tables=[Table("lucky_tie_rate", "Tie rate by cycle size", ties)],
    )


# --- the whole game ----------------------------------------------------------------------------


def best_card_finding(results: pd.DataFrame) -> Finding:
    """Which shown card type wins its battle alone most often, named only when separated."""
    estimates = estimates_of(results, "won_rate", "won_ci_low", "won_ci_high")
    most = standout(estimates)
    row = results.loc[most.top.name]
    level = {e.name for e in most.level}
    behind = ", ".join(
        f"{e.name} {rate_phrase(e.value, e.low, e.high)}" for e in estimates if e.name not in level
    )
    if most.clear:
        text = (
            f"Shown {most.top.name} cards won their battle alone "
            f"{rate_phrase(row.won_rate, row.won_ci_low, row.won_ci_high, int(row.shown))} of "
            f"the time, measurably the most of any card (others: {behind})."
        )
    else:
        text = (
            "No card type measurably wins its battle alone most often: "
            + ", ".join(f"{e.name} {rate_phrase(e.value, e.low, e.high)}" for e in most.level)
            + " are not separated"
            + (f"; measurably behind {most.top.name}: {behind}." if behind else ".")
        )
    return Finding(
        text, row.won_rate, row.won_ci_low, row.won_ci_high, int(row.shown),
        "lucky_animals_in_games", "best_animal_in_games",
    )  # fmt: skip


def game_section(run: LuckyLionsRun) -> Section:
    """How animals fared in games, dice sizes, Zoo Cards won, powers."""
    results = run.animal_results()
    won = results["won_rate"]
    mean_die, low_die, high_die = run.mean_die_size()
    by = "strategy" if run.rotated else "seat"
    cards = run.cards_won(by)
    figure, grid = new_grid(2, 1, 6.4, 6.6)  # stacked: phone-wide
    left, right = grid[:, 0]
    labels = [str(t) for t in results.index]
    rate_bars(left, labels, won, results["won_ci_low"], results["won_ci_high"], horizontal=True)
    left.set_xlabel("Rolls that won the battle alone (%)")
    percent_axis(left, "x")
    sizes = run.dice_sizes()
    right.bar(sizes.index, sizes["rate"], color=PALETTE[2])
    right.set_xlabel("Cards in the die when rolled")
    right.set_ylabel("Rolls (%)")
    percent_axis(right)
    count_axis(right)
    findings = [
        best_card_finding(results),
        Finding(
            f"A die held {mean_phrase(mean_die, low_die, high_die, 'cards')} when rolled.",
            mean_die,
            low_die,
            high_die,
            int(sizes["n"].iloc[0]),
            "lucky_animals_in_games",
            "die_size",
        ),
    ]
    tables = [
        Table("lucky_animals_in_games", "How shown cards fared in games", results),
        Table("lucky_cards_won", "Zoo Cards won per game", cards),
        Table("lucky_battles", "How battles with several winners were settled",
              run.battles_per_game()),
    ]  # fmt: skip
    if run.rules().wild_animals:
        tables.append(Table("lucky_powers", "Wild Animals powers used", run.powers()))
    return Section(
        title="Lucky Lions: whole games",
        intro=f"Rules of this run: {describe_rules(run.rules())}. To see what a variant or "
        "expansion changes, run simulations/sweep-lucky-lions-variants.toml or compare two "
        "runs with `zoosim compare`.",
        findings=findings,
        figures=[
            Figure(
                "lucky_animals_in_games",
                "Shown cards and dice in games",
                figure,
                "Left: share of rolls showing each card type that won the battle alone (95% "
                "Wilson intervals at the effective n, the rolls clustered by game). Right: how "
                "many cards dice held when rolled.",
            )
        ],
        tables=tables,
    )
