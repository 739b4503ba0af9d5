"""Short Zoot Suit's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

Where the points come from (tricks, pairs, the equal bonus, Intermediate Scoring) and how
often tricks won equal shorts; the draw pile (which cards players put there, what those
rounds were worth, who ends rounds with it); the rounds (length, how they end, whether the
start player's seat matters). Every finding states its 95% interval and n, and names a
difference only when the intervals separate.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.short_zoot_suit.analysis import ZootRun, describe_rules, format_mean
from zooanalysis.games.short_zoot_suit.engine import SOURCES
from zooanalysis.report.model import Figure, Finding, Section, Table
from zooanalysis.report.style import PALETTE, REFERENCE, new_grid, percent_axis
from zooanalysis.separation import Estimate, estimates_of, standout
from zooanalysis.stats import format_rate, rate_table

DEFINITIONS = {
    "Points by source": "Tricks: 1 point per trick won. Pairs: 3 points per pair of a won "
    "trick and a short (min(tricks, shorts) pairs). Equal bonus: the 2 more points per pair "
    "when tricks won equal shorts (5 instead of 3). Intermediate: the starred 'unique "
    "suits' card's points for the different suits in the shorts pile. Means per round, "
    "with 95% normal intervals over rounds (rounds are independent deals).",
    "Short": "A card played off the led suit (the player had none of it): it goes back face "
    "up to its player's shorts pile.",
    "Equal (bonus) rate": "The share of a player's rounds that ended with its tricks won "
    "equal to its shorts and at least one pair, so that every pair scored 5; 95% Wilson "
    "interval, n = rounds.",
    "Draw-pile cards": "Every card that was in a player's draw pile at some time in a round "
    "(the cards picked at the start, and in Sean's Short Shorts the cards placed on it). "
    "Share of pile cards by rank or suit, next to the share of the deck; 'round points' is "
    "the owner's mean points in rounds whose pile held such a card.",
    "Voids made": "Suits a player held when dealt but no longer held after making its draw "
    "pile.",
    "How rounds end": "A round ends when a hand is empty after the draws before a trick. "
    "Each empty hand is counted once, by reason: its hand and draw pile were both empty; "
    "its player did not draw from a pile that still held cards (ending the round on "
    "purpose); or it placed its last card (Sean's Short Shorts).",
    "Position": "A seat's place in a round counted from the round's start player (1), who "
    "leads its first trick; the start player moves one seat left every round.",
}


def report_sections(run: ZootRun) -> list[Section]:
    """Every Short Zoot Suit section for ``run``."""
    return [points_section(run), pile_section(run), rounds_section(run)]


def separated(table: pd.DataFrame, low: str = "ci_low", high: str = "ci_high") -> tuple:
    """(best, runner-up, whether the best's interval lies above every other's) by ``rate``
    or ``mean`` (whichever the table has)."""
    value = "rate" if "rate" in table else "mean"
    order = table.sort_values(value, ascending=False)
    best = order.index[0]
    if len(order) < 2:
        return best, None, False
    others = order.iloc[1:]
    return best, order.index[1], bool(order[low].iloc[0] > others[high].max())


# --- points -------------------------------------------------------------------------------


def points_section(run: ZootRun) -> Section:
    """Points by source per strategy, and how often tricks won equal shorts."""
    rules = run.rules()
    sources = run.points_by_source("strategy")
    strategies = list(sources.index.get_level_values(0).unique())
    everyone = run.table("seats")
    total = float(everyone["points_sum"].sum())
    shares = {s: float(everyone[f"points_{s}"].sum()) / total if total else np.nan for s in SOURCES}
    equal = run.equal_rates("strategy")
    bonus = equal[["bonus_rate", "bonus_ci_low", "bonus_ci_high", "bonus_n"]].rename(
        columns=lambda name: name.removeprefix("bonus_")
    )
    cells = run.table("round_scores")
    rounds = int(cells["rounds"].sum())
    same = cells[(cells["tricks"] == cells["shorts"]) & (cells["tricks"] > 0)]["rounds"].sum()
    overall = rate_table([same], [rounds]).iloc[0]
    findings = [
        Finding(
            "Across all players (shares of the points: point estimates, the run keeps no "
            f"cross-products of the sources), {shares['pairs']:.0%} of the points came from "
            "pairs at 3, "
            f"{shares['equal_bonus']:.0%} from the equal bonus (the 2 more per pair when "
            f"tricks won equal shorts) and {shares['tricks']:.0%} from tricks"
            + (
                f", {shares['intermediate']:.0%} from Intermediate Scoring"
                if rules.intermediate_scoring != "none"
                else ""
            )
            + f" (n={rounds:,} player-rounds).",
            value=shares["pairs"],
            n=rounds,
            figure="zoot_points_by_source",
            key="pairs_share",
        ),
        Finding(
            f"A player ended a round with its tricks won equal to its shorts (at least one "
            f"pair) in {format_rate(overall.rate, overall.ci_low, overall.ci_high, rounds)} "
            "of rounds.",
            overall.rate,
            overall.ci_low,
            overall.ci_high,
            rounds,
            "zoot_equal_rates",
            "equal_bonus_rate",
        ),
    ]
    best, second, apart = separated(bonus)
    if second is not None:
        row = bonus.loc[best]
        text = (
            f"{best} ended rounds equal most often: "
            f"{format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}, its interval above "
            "every other strategy's."
            if apart
            else f"No strategy ends rounds equal measurably more often than {second}: the "
            f"intervals of {best} and {second} overlap."
        )
        findings.append(
            Finding(text, row.rate, row.ci_low, row.ci_high, int(row.n), "zoot_equal_rates",
                    "most_equal_strategy")
        )
    figure, grid = new_grid(2, 1, 6.4, 7.2)  # stacked: phone-wide
    left, right = grid[:, 0]
    bottom = np.zeros(len(strategies))
    for index, source in enumerate(SOURCES):
        if source == "intermediate" and rules.intermediate_scoring == "none":
            continue
        means = np.array([sources.loc[(s, source), "mean"] for s in strategies])
        left.bar(strategies, means, bottom=bottom, color=PALETTE[index],
                 label=source.replace("_", " "))
        bottom += means
    totals = sources.xs("total", level="source")
    errors = np.vstack(
        [totals["mean"] - totals["ci_low"], totals["ci_high"] - totals["mean"]]
    ).astype(float)
    left.errorbar(strategies, totals["mean"].astype(float), yerr=errors, fmt="none",
                  ecolor="black", capsize=3, linewidth=1)
    left.set_ylabel("Points per round")
    left.legend(fontsize=8)
    positions = np.arange(len(bonus))
    err = np.vstack([bonus["rate"] - bonus["ci_low"], bonus["ci_high"] - bonus["rate"]])
    right.bar(positions, bonus["rate"], yerr=np.nan_to_num(err.astype(float)), capsize=3,
              color=PALETTE[2])
    right.set_xticks(positions, list(bonus.index))
    right.set_ylabel("Rounds ended equal (%)")
    percent_axis(right)
    means = run.tricks_and_shorts("strategy").reset_index()
    return Section(
        title="Short Zoot Suit: where the points come from",
        intro=(
            f"Rules of this run: {describe_rules(rules)}. A trick is worth a point, and every "
            "pair of a won trick and a short 3 more (5 when tricks won equal shorts): tricks "
            "and shorts only pay together. To see what a variant changes, run "
            "simulations/sweep-short-zoot-suit-variants.toml or compare two runs with "
            "`zoosim compare`."
        ),
        findings=findings,
        figures=[
            Figure(
                "zoot_points_by_source",
                "Points per round by source, and rounds ended equal",
                figure,
                "Left: mean points per round by source (stacked; error bars: 95% interval of "
                "the total). Right: share of rounds a strategy ended with tricks won equal to "
                "shorts and at least one pair (95% Wilson intervals).",
            )
        ],
        tables=[
            Table("zoot_points_by_source", "Points per round by source", sources),
            Table("zoot_equal_rates", "Tricks won equal to shorts", equal),
            Table("zoot_tricks_and_shorts", "Tricks won, shorts and pairs per round", means,
                  index=False),
        ],
        definitions=DEFINITIONS,
    )


# --- the draw pile ------------------------------------------------------------------------


POOLED_NOTE = (
    " (95% intervals count units as independent: a strategy playing several seats pools "
    "those seats' rounds of one game, which move together, design effect up to 3-4 with four "
    "void; read them as too narrow)"
)
"""Said of the report tables that pool the seats of a strategy over units below a game
(measured from per-game counts; per seat the design effect is at most 1)."""


def pile_section(run: ZootRun) -> Section:
    """Which cards go into draw piles, what those rounds were worth, who draws."""
    rules = run.rules()
    actions = run.actions("strategy")
    ends = run.round_ends("strategy").reset_index()
    declined = ends[ends["reason"] == "declined_to_draw"].set_index("strategy")
    if not (rules.draw_pile_cards or rules.build_draw_pile):
        return Section(
            title="Short Zoot Suit: the draw pile",
            intro="This run played without draw piles (draw_pile_cards = 0 and no Sean's "
            "Short Shorts): rounds end when the first hand runs out.",
            tables=[Table("zoot_actions", "Decisions before tricks" + POOLED_NOTE, actions)],
        )
    ranks = run.pile_cards("rank")
    suits = run.pile_cards("suit")
    voids = run.pile_profiles("voids_made")
    findings = []
    top = ranks.sort_values("cards_mean", ascending=False).iloc[0]
    over = ranks[ranks["cards_ci_low"] > ranks["random_cards"]]
    under = ranks[ranks["cards_ci_high"] < ranks["random_cards"]]
    findings.append(
        Finding(
            f"Players put the {top.rank_name} in their draw piles most: "
            f"{format_mean(top.cards_mean, top.cards_ci_low, top.cards_ci_high)} per pile "
            f"(n={int(top.cards_n):,} piles), against {top.random_cards:.2f} for cards picked "
            f"at random. Ranks measurably above a random pick: "
            f"{', '.join(over['rank_name']) or 'none'}; below: "
            f"{', '.join(under['rank_name']) or 'none'}.",
            top.cards_mean,
            top.cards_ci_low,
            top.cards_ci_high,
            int(top.cards_n),
            "zoot_pile_ranks",
            "most_piled_rank",
        )
    )
    most = standout(_rank_points(ranks)).top.name
    best = ranks[ranks["rank_name"].astype(str) == most].iloc[0]
    findings.append(
        Finding(
            pile_points_text(ranks),
            best.points_mean,
            best.points_ci_low,
            best.points_ci_high,
            int(best.points_n),
            "zoot_pile_ranks",
            "best_piled_rank",
        )
    )
    if len(declined):
        row_best, _, apart_best = separated(
            declined[["rate", "ci_low", "ci_high", "n"]]
        )
        row = declined.loc[row_best]
        findings.append(
            Finding(
                (
                    f"Ending a round on purpose (an empty hand, not drawing from a pile that "
                    f"still held cards) was most common for {row_best}: "
                    f"{format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))} of its "
                    "rounds."
                    if apart_best
                    else "No strategy measurably ended rounds on purpose (an empty hand, not "
                    "drawing from a pile that still held cards) most often: "
                    f"{row_best} {format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))} "
                    "of its rounds is not separated from the next strategy's."
                ),
                row.rate,
                row.ci_low,
                row.ci_high,
                int(row.n),
                "zoot_pile_ranks",
                "ends_on_purpose",
            )
        )
    figure, grid = new_grid(3, 1, 6.4, 10.8)  # stacked: phone-wide
    left, middle, right = grid[:, 0]
    positions = np.arange(len(ranks))
    err = np.vstack([ranks["cards_mean"] - ranks["cards_ci_low"],
                     ranks["cards_ci_high"] - ranks["cards_mean"]]).astype(float)
    left.bar(positions, ranks["cards_mean"].astype(float), yerr=np.nan_to_num(err), capsize=2,
             color=PALETTE[0], label="draw piles")
    left.scatter(positions, ranks["random_cards"], color=PALETTE[5], marker="D", zorder=3,
                 label="random pick")
    left.set_xticks(positions, list(ranks["rank_name"]))
    left.set_xlabel("Rank")
    left.set_ylabel("Cards per draw pile")
    left.legend(fontsize=8)
    err = np.vstack([ranks["points_mean"] - ranks["points_ci_low"],
                     ranks["points_ci_high"] - ranks["points_mean"]]).astype(float)
    middle.errorbar(positions, ranks["points_mean"].astype(float), yerr=err, fmt="o",
                    color=PALETTE[1], capsize=2)
    middle.axhline(float(ranks["all_rounds_mean"].iloc[0]), color=REFERENCE, linewidth=0.8,
                   linestyle="--", label="all rounds")
    middle.set_xticks(positions, list(ranks["rank_name"]))
    middle.set_xlabel("Rank in the draw pile")
    middle.set_ylabel("Owner's round points")
    middle.legend(fontsize=8)
    vpos = np.arange(len(voids))
    err = np.vstack([voids["points_mean"] - voids["points_ci_low"],
                     voids["points_ci_high"] - voids["points_mean"]]).astype(float)
    right.bar(vpos, voids["points_mean"].astype(float), yerr=err, capsize=3, color=PALETTE[2])
    right.set_xticks(vpos, [str(v) for v in voids.index])
    right.set_xlabel("Suits emptied from the hand by the pile")
    right.set_ylabel("Owner's round points")
    return Section(
        title="Short Zoot Suit: the draw pile",
        intro=(
            "The draw pile is both a reserve of cards and the round's clock: a round ends "
            "only when a hand is empty after the draws, so a player who keeps cards in its "
            "pile decides, with an empty hand, whether the round goes on. Which cards "
            "players put there, and what those rounds were worth to them."
        ),
        findings=findings,
        figures=[
            Figure(
                "zoot_pile_ranks",
                "Draw-pile cards by rank, and what they were worth",
                figure,
                "Left: cards of each rank per draw pile (95% intervals; diamonds: a uniformly "
                "random pick of as many cards). Middle: the owner's mean points in rounds "
                "whose pile held that rank (95% intervals; dashed: all rounds). Right: mean "
                "round points by the number of suits the pile emptied from the hand.",
            )
        ],
        tables=[
            Table("zoot_pile_ranks", "Draw-pile cards by rank", ranks),
            Table("zoot_pile_suits", "Draw-pile cards by suit", suits),
            Table("zoot_pile_cards", "Every card: how often in a draw pile",
                  run.pile_card_rates(), show_rows=20),
            Table("zoot_pile_voids", "Round points by voids made", voids),
            Table("zoot_pile_suits_held", "Round points by suits in the pile",
                  run.pile_profiles("pile_suits")),
            Table("zoot_pile_high_cards", "Round points by high cards in the pile",
                  run.pile_profiles("high_cards")),
            Table("zoot_actions", "Decisions before tricks" + POOLED_NOTE, actions),
        ],
    )


# --- rounds -------------------------------------------------------------------------------


def rounds_section(run: ZootRun) -> Section:
    """Round length, how rounds end, and the start player's position."""
    length = run.round_length().iloc[0]
    histogram = run.table("round_tricks").groupby("tricks")["games"].sum()
    reasons = run.round_ends_overall()
    positions = run.position_points()
    best, second, apart = separated(positions)
    top = reasons.sort_values("rate", ascending=False).iloc[0]
    findings = [
        Finding(
            f"A round lasted {format_mean(length['mean'], length.ci_low, length.ci_high)} "
            f"tricks (median {int(length['median'])}, 10%-90% {int(length.p10)}-"
            f"{int(length.p90)}, n={int(length.n):,} rounds).",
            length["mean"],
            length.ci_low,
            length.ci_high,
            int(length.n),
            "zoot_rounds",
            "round_length",
        ),
        Finding(
            f"Most empty hands at a round's end were '{reasons['rate'].idxmax()}': "
            f"{format_rate(top.rate, top.ci_low, top.ci_high, int(top.n))} of them."
            if separated(reasons)[2]
            else "No reason measurably ended the most rounds' empty hands: "
            f"'{reasons['rate'].idxmax()}' "
            f"{format_rate(top.rate, top.ci_low, top.ci_high, int(top.n))} is not separated "
            "from the next.",
            top.rate,
            top.ci_low,
            top.ci_high,
            int(top.n),
            "zoot_rounds",
            "round_end_reason",
        ),
    ]
    row = positions.loc[best]
    findings.append(
        Finding(
            (
                f"Position {best} from the round's start player scored most: "
                f"{format_mean(row['mean'], row.ci_low, row.ci_high)} points per round, its "
                "interval above every other position's."
                if apart
                else "No position from the round's start player scores measurably more than "
                f"the others (the best, position {best}, "
                f"{format_mean(row['mean'], row.ci_low, row.ci_high)}, overlaps position "
                f"{second})."
            ),
            row["mean"],
            row.ci_low,
            row.ci_high,
            int(row.n),
            "zoot_rounds",
            "best_position",
        )
    )
    figure, grid = new_grid(2, 1, 6.4, 6.8)  # stacked: phone-wide
    left, right = grid[:, 0]
    left.bar(histogram.index, histogram / histogram.sum(), color=PALETTE[0])
    left.set_xlabel("Tricks in the round")
    left.set_ylabel("Rounds")
    percent_axis(left)
    pos = np.arange(len(positions))
    err = np.vstack([positions["mean"] - positions["ci_low"],
                     positions["ci_high"] - positions["mean"]]).astype(float)
    right.bar(pos, positions["mean"].astype(float), yerr=err, capsize=3, color=PALETTE[3])
    right.set_xticks(pos, [str(p) for p in positions.index])
    right.set_xlabel("Position from the round's start player")
    right.set_ylabel("Points per round")
    return Section(
        title="Short Zoot Suit: rounds",
        intro=(
            "How long a round lasts in tricks, why it ends (whose hand was empty after the "
            "draws), and whether a seat's position from the round's start player matters. "
            "Win rates by seat and strategy are in the balance section."
        ),
        findings=findings,
        figures=[
            Figure(
                "zoot_rounds",
                "Round length and points by position",
                figure,
                "Left: share of rounds by tricks played. Right: mean points per round by "
                "position from the start player (1 leads the first trick; 95% intervals).",
            )
        ],
        tables=[
            Table("zoot_round_length", "Tricks per round", run.round_length()),
            Table("zoot_round_ends", "How rounds end, by reason", reasons),
            Table("zoot_round_ends_by_strategy",
                  "Empty hands at a round's end, by strategy" + POOLED_NOTE,
                  run.round_ends("strategy")),
            Table("zoot_empty_hands", "Hands empty at a round's end",
                  run.empty_hands_per_round()),
            Table("zoot_positions", "Points per round by position", positions),
        ],
    )


def _rank_points(ranks: pd.DataFrame) -> list[Estimate]:
    """The owner's mean round points for each rank its draw pile held, as estimates."""
    return estimates_of(ranks.set_index("rank_name"), "points_mean", "points_ci_low",
                        "points_ci_high")  # fmt: skip


def pile_points_text(ranks: pd.DataFrame) -> str:
    """Which ranks in a draw pile went with the most and the fewest round points
    (``ranks``: :meth:`ZootRun.pile_cards` by rank): each end named only when its interval
    is separated from every other rank's (``separation.standout``), else the ranks not
    separated from it are listed as no measurable difference."""

    def phrase(e: Estimate) -> str:
        article = "an" if e.name in ("A", "8") else "a"
        return f"{article} {e.name} ({format_mean(e.value, e.low, e.high)} points)"

    estimates = _rank_points(ranks)
    most, least = standout(estimates), standout(estimates, highest=False)
    parts = []
    for answer, word in ((most, "the most"), (least, "the least")):
        if answer.clear and len(estimates) > 1:
            parts.append(f"rounds whose draw pile held {phrase(answer.top)} were worth {word}")
        else:
            level = ", ".join(phrase(e) for e in answer.level)
            parts.append(f"no measurable difference among the ranks worth {word}: {level}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + " (an association: who piles which cards differs)."
