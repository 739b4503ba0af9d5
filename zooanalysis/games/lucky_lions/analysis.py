"""Lucky Lions results: cycle dominance (exact), and whole-game figures (simulated, with CIs).

Exact where the quantity is a finite sum over the Zoo Cards (:mod:`dominance`): which animal
beats which on each card, each animal's strength, tie probabilities. Monte Carlo only for
whole games: win rates, length, battles, ties, dice, Zoo Cards won, Wild Animals powers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.cluster_rates import clustered_table
from zooanalysis.games.lucky_lions import dominance
from zooanalysis.games.lucky_lions.cards import ANIMALS, ZooCard
from zooanalysis.games.lucky_lions.decks import generate_zoo_cards
from zooanalysis.games.lucky_lions.outcomes import outcome_matrix
from zooanalysis.games.lucky_lions.rules import FLAGS, LuckySettings, settings_from_table
from zooanalysis.results import Run, add_rate, histogram_summary, mean_with_interval
from zooanalysis.stats import format_rate, rate_table, rate_with_interval

GENERATED_DECKS = 200
"""Generated prints the deck-level analyses average over when every game had its own."""


class LuckyLionsRun(Run):
    """A Lucky Lions run: exact cycle dominance for its deck, simulated whole-game figures."""

    # --- the deck, exactly ---------------------------------------------------------------

    def rules(self) -> LuckySettings:
        """The run's settings as :class:`LuckySettings`."""
        return settings_from_table(self.settings)

    def decks(self, count: int = GENERATED_DECKS) -> list[list[ZooCard]]:
        """The Zoo Cards the run's games used: its one fixed deck, or (fresh prints) ``count``
        prints from the generator, seeded ``deck_seed, deck_seed + 1, ...``."""
        rules = self.rules()
        if not rules.fresh_decks:
            return [rules.fixed_cards]
        cache = self.__dict__.setdefault("_prints", [])
        while len(cache) < count:
            cache.append(generate_zoo_cards(rules.generator, rules.deck_seed + len(cache)))
        return cache[:count]

    def dice_mix(self) -> np.ndarray:
        """The chance a rolled card shows each animal: the Animal Cards' shares (wild cards
        count as their animal)."""
        counts = np.array(self.rules().animal_counts, dtype=float)
        return counts[: len(ANIMALS)] + counts[len(ANIMALS) :]

    def cycle_dominance(self, deck: int = 0) -> pd.DataFrame:
        """Per Zoo Card of a deck (the fixed deck, or generated print ``deck``) and animal:
        P(win/tie/loss) and strength against a uniformly random animal and against the dice's
        animal mix (``*_dice`` columns), best pick, points-weighted strength, and the card's
        tie probability (both animals from the dice's mix). Exact."""
        cards = self.decks(deck + 1)[deck]
        uniform = dominance.deck_dominance(cards)
        mix = self.dice_mix()
        dice = dominance.deck_dominance(cards, mix)
        for column in ("strength", "p_win", "p_tie", "p_loss", "best_pick"):
            uniform[f"{column}_dice"] = dice[column]
        uniform["card_text"] = [cards[i].describe() for i in uniform["card"]]
        ties = [dominance.tie_probability(card, mix, mix) for card in cards]
        uniform["card_tie_probability"] = [ties[i] for i in uniform["card"]]
        return uniform

    def dominance_matrix(self, card: int, deck: int = 0) -> pd.DataFrame:
        """Who beats whom on one Zoo Card: +1/0/-1 for the row animal against the column."""
        return dominance.dominance_matrix(self.decks(deck + 1)[deck][card])

    def animal_strength(self, decks: int = GENERATED_DECKS) -> pd.DataFrame:
        """Each animal's strength across the deck(s), exactly: against a uniform animal and
        against the dice's mix, its spread across generated prints (``std_*``: sample standard
        deviation of a print's mean; NaN for one fixed deck), its best-pick share (share of
        cards where no animal is better; against a uniform animal every animal on a cycle is
        equally good, so that share is the share of cards showing it) and its points-weighted
        strength; plus the Animal Card count and die share (does Lion's 9
        cards tilt the game?)."""
        prints = self.decks(decks)
        mix = self.dice_mix()
        uniform = dominance.across_decks(prints)
        dice = dominance.across_decks(prints, mix)
        table = pd.DataFrame(
            {
                "decks": uniform["decks"],
                "cards_in_pool": mix.astype(np.int64),
                "die_share": mix / mix.sum(),
                "strength_uniform": uniform["mean_strength"],
                "std_uniform": uniform["std_strength"],
                "strength_dice": dice["mean_strength"],
                "std_dice": dice["std_strength"],
                "min_strength_dice": dice["min_strength"],
                "max_strength_dice": dice["max_strength"],
                "best_pick_share_uniform": uniform["mean_best_pick_share"],
                "best_pick_share_dice": dice["mean_best_pick_share"],
                "points_weighted_strength": uniform["mean_weighted_strength"],
            }
        )
        table["dice_shift"] = table["strength_dice"] - table["strength_uniform"]
        return table

    def exact_tie_rates(self, decks: int = GENERATED_DECKS) -> pd.DataFrame:
        """Exact tie probability by cycle size over the deck(s), both animals from the dice's
        mix: mean over cards (and prints)."""
        mix = self.dice_mix() / self.dice_mix().sum()
        sizes, ties = [], []
        for cards in self.decks(decks):
            for card in cards:
                sizes.append(len(card.cycle))
                ties.append(float(mix @ (outcome_matrix(card) == 0) @ mix))
        table = pd.DataFrame({"cycle_size": sizes, "tie": ties}).groupby("cycle_size")["tie"]
        return pd.DataFrame({"cards": table.size(), "exact_tie_probability": table.mean()})

    # --- whole games, simulated -----------------------------------------------------------

    def game_length(self) -> pd.DataFrame:
        """Turns per game (one battle per turn): mean with CI, quartiles, 10%/90%, maximum."""
        histogram = self.table("turns").groupby("turns")["games"].sum()
        return pd.DataFrame({"turns": histogram_summary(histogram)}).T

    @property
    def clustered(self) -> bool:
        """Whether the run kept the rolls' per-game moments (runs written before did not):
        the shown cards' results, the die sizes and the mean die size then get intervals
        that count games, not rolls, as independent (in a rotated run every seating's game,
        though the seatings of one deal share its cards)."""
        return "shown_moments" in self.table_names

    def tie_rates(self) -> pd.DataFrame:
        """Observed share of battles with several winners, by the Zoo Card's cycle size (and
        all cards), with Wilson CIs, next to the exact chance for a random pair of cards.

        Battles come several to a game, but the intervals count them as independent: the
        design effect measured from per-game counts (20,000 games of greedy*4: 1.018 for all
        cards, 0.98 to 1.03 by cycle size) is below 1.05, so clustering would not widen them
        (the same holds for :meth:`battles_per_game`)."""
        battles = self.table("battles").groupby("cycle_size")[["battles", "tied_battles"]].sum()
        battles.loc["all"] = battles.sum()
        table = rate_table(battles["tied_battles"], battles["battles"])
        exact = self.exact_tie_rates()["exact_tie_probability"]
        table["exact_random_cards"] = [exact.get(size, np.nan) for size in table.index]
        return table

    def battles_per_game(self) -> pd.DataFrame:
        """Battles (= turns) per game and how battles with several winners were settled."""
        battles = int(self.table("battles")["battles"].sum())
        ties = self.table("ties").groupby("settled_by", sort=False)["battles"].sum()
        table = rate_table(ties, pd.Series(battles, index=ties.index))
        table.index.name = "tie_settled_by"
        return table

    def dice_sizes(self) -> pd.DataFrame:
        """Cards in the die when it was rolled (one row per size), with the share of rolls;
        intervals clustered by game (``effective_n``), as :meth:`animal_results`."""
        rolls = self.table("rolls")
        per_size = rolls.assign(rolls=rolls[["won", "tied", "lost", "void"]].sum(axis=1))
        counts = per_size.groupby("die_size")["rolls"].sum()
        all_rolls = pd.Series(counts.sum(), index=counts.index)
        if not self.clustered:
            table = rate_table(counts, all_rolls)
        else:
            moments = self.table("die_moments").groupby("die_size").sum()
            trial_squares = self.table("roll_moments")["all_rolls_squares"].sum()
            table = clustered_table(
                counts,
                all_rolls,
                moments["rolls_squares"].reindex(counts.index),
                pd.Series(trial_squares, index=counts.index),
                moments["rolls_all_rolls"].reindex(counts.index),
                self.games_played,
            )
        table.index.name = "die_size"
        return table

    def mean_die_size(self) -> tuple[float, float, float]:
        """Mean cards in a die when rolled, with its 95% CI: the rolls of a game share its
        dice, so the interval counts games as independent (the normal interval over the rolls
        widened by the design effect of the per-game sums, floored at 1; over the rolls alone
        for a run written before the moments were kept)."""
        rolls = self.table("rolls")
        counts = rolls[["won", "tied", "lost", "void"]].sum(axis=1).to_numpy(dtype=float)
        sizes = rolls["die_size"].to_numpy(dtype=float)
        total, squares, n = (sizes * counts).sum(), (sizes**2 * counts).sum(), counts.sum()
        mean, low, high = mean_with_interval(float(total), float(squares), int(n))
        if not self.clustered or n == 0:
            return mean, low, high
        moments = self.table("roll_moments").sum()
        games = self.games_played
        spread = (
            moments["size_sum_squares"]
            - 2 * mean * moments["size_sum_all_rolls"]
            + mean * mean * moments["all_rolls_squares"]
        )
        clustered_variance = games / max(games - 1, 1) * max(0.0, spread) / n**2
        half = high - mean
        independent_variance = (half / 1.959963984540054) ** 2
        if independent_variance > 0:
            half *= max(1.0, clustered_variance / independent_variance) ** 0.5
        return mean, mean - half, mean + half

    def rolls_counted(self) -> int:
        """The dice rolls behind :meth:`mean_die_size` (every shown card of a roll)."""
        rolls = self.table("rolls")
        return int(rolls[["won", "tied", "lost", "void"]].to_numpy().sum())

    def animal_results(self) -> pd.DataFrame:
        """How often a shown card of each type was the sole winner, tied, lost (Wilson CIs),
        in whole games: the simulated counterpart of :meth:`animal_strength`.

        The cards shown in one game share its dice and players, so the intervals count
        games as independent (``stats.clustered_rate``; ``effective_shown`` is the n the
        won interval is Wilson's for); a run written before the per-game moments were kept
        gets intervals that count the shown cards as independent (``clustered`` False).
        """
        rolls = self.table("rolls").groupby("card_type", observed=True)[
            ["won", "tied", "lost", "void"]
        ]
        sums = rolls.sum()
        shown = sums.sum(axis=1)
        moments = None
        if self.clustered:
            moments = (
                self.table("shown_moments")
                .groupby("card_type", observed=True)
                .sum()
                .reindex(sums.index)
            )

        def rates(result: str) -> pd.DataFrame:
            if moments is None:
                return clustered_table(sums[result], shown, None, None, None, self.games_played)
            return clustered_table(
                sums[result],
                shown,
                moments[f"{result}_squares"],
                moments["shown_squares"],
                moments[f"{result}_shown"],
                self.games_played,
            )

        won = rates("won")
        effective = won.pop("effective_n")
        table = won.add_prefix("won_")
        table = table.join(rates("lost").drop(columns="effective_n").add_prefix("lost_"))
        tied = rates("tied")
        table["tied"] = tied["rate"]
        table["tied_ci_low"] = tied["ci_low"]
        table["tied_ci_high"] = tied["ci_high"]
        table["shown"] = shown
        table["effective_shown"] = effective
        table["games"] = self.games_played
        table["clustered"] = self.clustered
        return table

    def points(self, by: str = "seat") -> pd.DataFrame:
        """Mean points per game with 95% CI, by seat (from 1) or strategy."""
        return self._means("points", by)

    def cards_won(self, by: str = "seat") -> pd.DataFrame:
        """Mean Zoo Cards won per game with 95% CI, by seat (from 1) or strategy."""
        return self._means("cards_won", by)

    def _means(self, name: str, by: str) -> pd.DataFrame:
        seats = self.table("seats")
        grouped = seats.groupby(by, sort=False)[[f"{name}_sum", f"{name}_squares", "games"]].sum()
        rows = {}
        for key, row in grouped.iterrows():
            mean, low, high = mean_with_interval(
                row[f"{name}_sum"], row[f"{name}_squares"], row["games"]
            )
            rows[key] = {"mean": mean, "ci_low": low, "ci_high": high, "n": int(row["games"])}
        table = pd.DataFrame(rows).T
        if by == "seat":
            table.insert(0, "strategy", seats.groupby("seat")["strategy"].first())
            table.index = table.index + 1  # seat 1 is the first seat
        table.index.name = by
        return table

    def end_reasons(self) -> pd.DataFrame:
        """How games ended: someone reached the points, the Zoo Cards ran out, turn limit."""
        table = self.table("end_reasons").groupby("reason", sort=False)["games"].sum()
        return rate_table(table, pd.Series(self.games_played, index=table.index))

    def powers(self) -> pd.DataFrame:
        """Wild Animals powers: uses per game (all zero without the expansion)."""
        uses = self.table("powers").groupby("power", sort=False)["uses"].sum()
        return pd.DataFrame({"uses": uses, "per_game": uses / self.games_played})

    # --- summary ------------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Win rates plus length, ties, dice, Zoo Cards won and endings, flat (for sweeps)."""
        values = super().metrics()
        length = self.game_length().loc["turns"]
        for column in ("mean", "ci_low", "ci_high"):
            values[f"turns_{column}"] = length[column]
        add_rate(values, "tie", self.tie_rates().loc["all"])
        values["die_size_mean"], values["die_size_ci_low"], values["die_size_ci_high"] = (
            self.mean_die_size()
        )
        by = "strategy" if self.rotated else "seat"
        for key, row in self.cards_won(by).iterrows():
            prefix = f"seat{key}" if by == "seat" else str(key)
            values[f"{prefix}_cards_won_mean"] = row["mean"]
        for reason, row in self.end_reasons().iterrows():
            add_rate(values, f"end_{reason}", row)
        return values

    def summary(self) -> str:
        """Headline figures: win rates, then dominance (exact) and whole-game figures."""
        rules = self.rules()
        lines = [super().summary(), "", f"Rules: {describe_rules(rules)}"]
        strength = self.animal_strength()
        where = (
            f"over {int(strength['decks'].iloc[0])} generated prints"
            if rules.fresh_decks
            else "on the run's deck"
        )
        lines += [
            "",
            f"Animal strength (exact, {where}): expected win - loss of one roll against a",
            "uniformly random animal and against the dice's animal mix (sd: spread across",
            "prints); best pick: share of cards where no animal beats it against the dice:",
        ]
        for animal, row in strength.iterrows():
            spread = "" if np.isnan(row.std_dice) else f" (sd {row.std_dice:.3f})"
            lines.append(
                f"  {animal:<9} {int(row.cards_in_pool):>2} cards  uniform "
                f"{row.strength_uniform:+.3f}  dice {row.strength_dice:+.3f}{spread}  best pick "
                f"{row.best_pick_share_dice:.0%} of cards"
            )
        lines += ["", *self._card_lines(rules)]
        lines += ["", "Shown cards in games: won the battle alone, and tied (95% CI; n = times "
                      "shown):"]  # fmt: skip
        for card_type, row in self.animal_results().iterrows():
            lines.append(shown_card_line(str(card_type), row))
        lines += ["", "Ties by cycle size (observed in games, 95% CI; exact for random cards):"]
        for size, row in self.tie_rates().iterrows():
            exact = (
                "" if np.isnan(row.exact_random_cards) else f"  exact {row.exact_random_cards:.1%}"
            )
            label = f"{size} animals" if size != "all" else "all cards"
            lines.append(
                f"  {label:<29} {format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}{exact}"
            )
        length = self.game_length().loc["turns"]
        mean_die, low_die, high_die = self.mean_die_size()
        lines += [
            "",
            f"Game length: {length['mean']:.2f} turns [{length.ci_low:.2f}, {length.ci_high:.2f}]"
            f", median {int(length['median'])}, 10%-90% {int(length.p10)}-{int(length.p90)}, "
            f"max {int(length['max'])} (one battle per turn)",
            f"Cards in a die when rolled: {mean_die:.2f} [{low_die:.2f}, {high_die:.2f}] "
            f"(n={self.rolls_counted():,} rolls{self._games_counted()})",
            "",
            "Zoo Cards won per game (95% CI):",
        ]
        by = "strategy" if self.rotated else "seat"
        for key, row in self.cards_won(by).iterrows():
            label = f"seat {key} {row.strategy:<22}" if by == "seat" else f"{key:<29}"
            lines.append(
                f"  {label} {row['mean']:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}] "
                f"(n={int(row.n):,})"
            )
        lines += ["", "How games ended:"]
        names = {
            "points": f"a player reached {rules.points_to_win} points",
            "zoo_cards_ran_out": "the Zoo Cards ran out",
            "turn_limit": f"turn limit ({rules.turn_limit})",
        }
        for reason, row in self.end_reasons().iterrows():
            lines.append(
                f"  {names.get(reason, reason):<29} "
                f"{format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}"
            )
        powers = self.powers()
        if rules.wild_animals:
            lines += ["", "Wild Animals powers used per game (a point estimate: the run keeps "
                          "no squares of the uses):"]  # fmt: skip
            lines += [f"  {name:<29} {row.per_game:.3f}" for name, row in powers.iterrows()]
        return "\n".join(lines)


    def _games_counted(self) -> str:
        """How the rolls' intervals count: ``in G games`` (clustered by game), or as
        independent (a run written before the per-game moments were kept)."""
        if self.clustered:
            return f" in {self.games_played:,} games"
        return ", counted as independent"

    def _card_lines(self, rules: LuckySettings) -> list[str]:
        """Each Zoo Card of the deck (print 1 of fresh decks): tie chance, best picks."""
        which = "the first generated print" if rules.fresh_decks else "the run's deck"
        table = self.cycle_dominance()
        lines = [
            f"Zoo Cards of {which} (exact: chance that two dice cards tie, best pick against",
            "the dice's animals; every animal on every card: run.cycle_dominance()):",
        ]
        for card, rows in table.groupby("card", sort=True):
            best = ", ".join(rows.loc[rows["best_pick_dice"], "animal"].astype(str))
            lines.append(
                f"  {card + 1:>2} {rows['card_text'].iloc[0]:<58} tie "
                f"{rows['card_tie_probability'].iloc[0]:>4.0%}  best {best}"
            )
        return lines


def describe_rules(rules: LuckySettings) -> str:
    """The variants and expansions in play, in words."""
    deck = {"generated": "a fresh generated print per game", "fixed": "one fixed print"}
    parts = [
        f"{rules.points_to_win} points to win",
        f"dice of {rules.die_size}",
        f"{rules.market_size} face-up Zoo Cards",
        deck.get(rules.deck, f"deck file {rules.deck}"),
    ]
    parts += [flag.replace("_", " ") for flag in FLAGS if getattr(rules, flag)]
    return ", ".join(parts)


def shown_card_line(card_type: str, row: pd.Series) -> str:
    """A row of :meth:`LuckyRun.animal_results` as a summary line: the share of battles the
    shown card won alone and the share it tied, each with its interval, and n (the times
    shown, in how many games when the intervals are clustered by game)."""
    won = rate_with_interval(row.won_rate, row.won_ci_low, row.won_ci_high)
    tied = rate_with_interval(row.tied, row.tied_ci_low, row.tied_ci_high)
    counted = f" in {int(row.games):,} games" if row.clustered else ", counted as independent"
    return f"  {card_type:<14} {won}  tied {tied} (n={int(row.shown):,} shown{counted})"
