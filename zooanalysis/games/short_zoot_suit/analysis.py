"""Short Zoot Suit results: the designer's questions as DataFrames, each rate with its 95%
Wilson interval and n, each mean with its 95% interval and n.

* :meth:`ZootRun.points_by_source`: points per round from tricks, pairs, the equal bonus and
  Intermediate Scoring;
* :meth:`ZootRun.equal_rates`: how often tricks won equal shorts (and earn the bonus);
* :meth:`ZootRun.tricks_and_shorts`: mean tricks won and shorts per round;
* :meth:`ZootRun.pile_cards`, :meth:`ZootRun.pile_profiles`: what players put in their draw
  piles (by rank and suit) and what those rounds were worth;
* :meth:`ZootRun.round_length`, :meth:`ZootRun.round_ends`: tricks per round and how rounds
  end (whose hand was empty, and why);
* :meth:`ZootRun.actions`, :meth:`ZootRun.position_points`, :meth:`ZootRun.points`.

Rounds are independent deals (strategies ignore the score), so per-round means treat each
seat's rounds as independent trials.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.cards.encoding import rank_text
from zooanalysis.cluster_rates import clustered_row, format_clustered, interval_note
from zooanalysis.games.short_zoot_suit.engine import END_REASONS, SOURCES
from zooanalysis.games.short_zoot_suit.rules import ZootSettings, settings_from_table
from zooanalysis.games.short_zoot_suit.strategies import ACTION_NAMES
from zooanalysis.results import Run, add_rate, histogram_summary, mean_with_interval
from zooanalysis.stats import format_rate, rate_table


def mean_table(groups: pd.DataFrame, total: str, squares: str, count: str) -> pd.DataFrame:
    """Mean, 95% interval and n per row of ``groups`` from its sum, square-sum and count
    columns."""
    rows = {}
    for key, row in groups.iterrows():
        mean, low, high = mean_with_interval(
            float(row[total]), float(row[squares]), int(row[count])
        )
        rows[key] = {"mean": mean, "ci_low": low, "ci_high": high, "n": int(row[count])}
    table = pd.DataFrame(rows).T
    table.index.name = groups.index.name
    return table.astype({"n": np.int64}) if len(table) else table


def format_mean(mean: float, low: float, high: float, n: int | None = None) -> str:
    """``12.34 [12.10, 12.58]`` (with ``(n=...)`` if given)."""
    text = f"{mean:.2f} [{low:.2f}, {high:.2f}]"
    return text if n is None else f"{text} (n={n:,})"


class ZootRun(Run):
    """A Short Zoot Suit run: points by source, tricks against shorts, the draw pile, round
    length and ends, by seat or by strategy."""

    def rules(self) -> ZootSettings:
        """The run's settings as :class:`ZootSettings`."""
        return settings_from_table(self.settings)

    @property
    def rounds_per_game(self) -> int:
        """Rounds in every game of the run."""
        return self.rules().rounds

    def _by(self, table: pd.DataFrame, by: str) -> pd.DataFrame:
        """``table`` with a ``strategy`` column for its ``seat`` column (per rotation)."""
        table = table.copy()
        if by == "strategy" and "strategy" not in table:
            table["strategy"] = self.seat_strategies(table, "seat")
        if by not in ("seat", "strategy"):
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        return table

    def _rounds(self, by: str) -> pd.Series:
        """Rounds played per seat (or per strategy, all its seats together)."""
        seats = self.table("seats")
        seats = seats.assign(rounds=seats["games"] * self.rounds_per_game)
        return seats.groupby(by, sort=False)["rounds"].sum()

    # --- points ----------------------------------------------------------------------------

    def points(self, by: str = "seat") -> pd.DataFrame:
        """Mean points per game with 95% CI, by seat or strategy."""
        seats = self.table("seats")
        grouped = seats.groupby(by, sort=False)[["points_sum", "points_squares", "games"]].sum()
        return mean_table(grouped, "points_sum", "points_squares", "games")

    def points_by_source(self, by: str = "strategy") -> pd.DataFrame:
        """Mean points per round from each source (``tricks``, ``pairs``: 3 per pair,
        ``equal_bonus``: the 2 more per pair when tricks equal shorts, ``intermediate``) and
        in all (``total``), with 95% CIs; ``share`` is the source's part of the total."""
        seats = self.table("seats")
        seats = seats.assign(rounds=seats["games"] * self.rounds_per_game)
        rows = []
        for key, group in seats.groupby(by, sort=False):
            rounds = int(group["rounds"].sum())
            total = float(group["points_sum"].sum())
            for source in (*SOURCES, "total"):
                if source == "total":
                    value, squares = total, float(group["round_squares"].sum())
                else:
                    value = float(group[f"points_{source}"].sum())
                    squares = float(group[f"squares_{source}"].sum())
                mean, low, high = mean_with_interval(value, squares, rounds)
                rows.append(
                    {
                        by: key,
                        "source": source,
                        "mean": mean,
                        "ci_low": low,
                        "ci_high": high,
                        "n": rounds,
                        "share": value / total if total else np.nan,
                    }
                )
        return pd.DataFrame(rows).set_index([by, "source"])

    def position_points(self) -> pd.DataFrame:
        """Mean points per round by position from the round's start player (1 = the start
        player, who leads the first trick), every seat and strategy together."""
        positions = self.table("positions").groupby("position")[
            ["points_sum", "points_squares"]
        ].sum()
        positions["rounds"] = self.games_played * self.rounds_per_game  # one per round
        table = mean_table(positions, "points_sum", "points_squares", "rounds")
        table.index = table.index + 1
        table.index.name = "position"
        return table

    # --- tricks and shorts -----------------------------------------------------------------

    def round_scores(self, by: str = "strategy") -> pd.DataFrame:
        """Rounds by tricks won and shorts (one row per cell), by seat or strategy."""
        table = self._by(self.table("round_scores"), by)
        return table.groupby([by, "tricks", "shorts"], sort=False)["rounds"].sum().reset_index()

    def equal_rates(self, by: str = "strategy") -> pd.DataFrame:
        """How often a player's tricks won equal its shorts at a round's end: ``equal`` (any,
        0 = 0 included) and ``equal_bonus`` (equal and at least one pair, so the 5-point
        pairs score), with 95% Wilson intervals over rounds."""
        cells = self.round_scores(by)
        same = cells[cells["tricks"] == cells["shorts"]]
        rounds = cells.groupby(by, sort=False)["rounds"].sum()
        equal = same.groupby(by, sort=False)["rounds"].sum().reindex(rounds.index, fill_value=0)
        bonus = (
            same[same["tricks"] > 0]
            .groupby(by, sort=False)["rounds"]
            .sum()
            .reindex(rounds.index, fill_value=0)
        )
        table = rate_table(equal, rounds).add_prefix("equal_")
        table = table.join(rate_table(bonus, rounds).add_prefix("bonus_"))
        table.index.name = by
        return table

    def tricks_and_shorts(self, by: str = "strategy") -> pd.DataFrame:
        """Mean tricks won, shorts and pairs per round with 95% CIs, by seat or strategy."""
        cells = self.round_scores(by)
        cells = cells.assign(pairs=np.minimum(cells["tricks"], cells["shorts"]))
        rows = []
        for key, group in cells.groupby(by, sort=False):
            weights = group["rounds"].to_numpy(dtype=float)
            for what in ("tricks", "shorts", "pairs"):
                values = group[what].to_numpy(dtype=float)
                mean, low, high = mean_with_interval(
                    float((values * weights).sum()),
                    float((values**2 * weights).sum()),
                    int(weights.sum()),
                )
                rows.append(
                    {by: key, "what": what, "mean": mean, "ci_low": low, "ci_high": high,
                     "n": int(weights.sum())}
                )  # fmt: skip
        return pd.DataFrame(rows).set_index([by, "what"])

    def shorts_suits(self, by: str = "strategy") -> pd.DataFrame:
        """Share of rounds by the number of different suits in the shorts pile (the "unique
        suits" card's count), with 95% Wilson intervals."""
        table = self._by(self.table("shorts_suits"), by)
        counts = table.groupby([by, "suits"], sort=False)["rounds"].sum()
        totals = counts.groupby(level=0).transform("sum")
        return rate_table(counts, totals)

    # --- the draw pile ---------------------------------------------------------------------

    def pile_cards(self, by: str = "rank", who: str | None = None) -> pd.DataFrame:
        """What players put in their draw piles, by ``rank`` or ``suit``, over the rounds
        (n = player-rounds; ``who`` restricts it to one strategy's seats):

        * ``cards_*``: cards of that rank or suit per draw pile (mean, 95% CI), next to
          ``random_cards``, what as many cards picked uniformly from the deck would hold;
        * ``held_*``: the share of rounds whose pile held one or more (Wilson CI);
        * ``points_*``: the owner's mean points in those rounds (95% CI), next to
          ``all_rounds_mean``, its mean over every round;
        * ``drawn_*``: the share of those cards drawn back into the hand (n = cards). By
          rank over every seat (``who`` None) its 95% interval allows for the cards of one
          game being correlated (``stats.clustered_rate``; design effect 1.4-2.1 with the
          default lineup), with ``drawn_effective_n`` and ``drawn_clustered``; otherwise,
          and for a folder written before the per-game counts, it is the independent
          Wilson interval (``drawn_clustered`` False), too narrow by about as much.
        """
        if by not in ("rank", "suit"):
            raise ValueError(f"by must be 'rank' or 'suit', not {by!r}")
        groups = self._by(self.table("pile_groups"), "strategy")
        cards = self._by(self.table("pile_cards"), "strategy")
        seats = self.table("seats")
        if who is not None:
            groups = groups[groups["strategy"] == who]
            cards = cards[cards["strategy"] == who]
            seats = seats[seats["strategy"] == who]
        rounds = int(seats["games"].sum()) * self.rounds_per_game
        groups = groups[groups["kind"] == by]
        grouped = groups.groupby("value", sort=False)[
            ["rounds", "points_sum", "points_squares", "cards", "cards_squares"]
        ].sum()
        if by == "rank":
            grouped.index = grouped.index.astype(int)
        grouped = grouped.sort_index()
        grouped["piles"] = rounds
        result = mean_table(grouped, "cards", "cards_squares", "piles").add_prefix("cards_")
        ranks = self.rules().ranks_for(len(self.lineup))
        deck_share = 1 / len(ranks) if by == "rank" else 1 / 4
        mean_pile = grouped["cards"].sum() / rounds if rounds else np.nan
        result["random_cards"] = mean_pile * deck_share
        held = rate_table(grouped["rounds"], pd.Series(rounds, grouped.index))
        result = result.join(held.add_prefix("held_"))
        result = result.join(
            mean_table(grouped, "points_sum", "points_squares", "rounds").add_prefix("points_")
        )
        total_points = float(seats["points_sum"].sum())
        result["all_rounds_mean"] = total_points / rounds if rounds else np.nan
        key = cards["rank"] if by == "rank" else cards["suit"]
        drawn = cards.groupby(key)[["drawn", "rounds"]].sum().reindex(grouped.index, fill_value=0)
        result = result.join(self._drawn_rates(by, who, drawn).add_prefix("drawn_"))
        result.index.name = by
        if by == "rank":
            result.insert(0, "rank_name", [rank_text(int(r)) for r in result.index])
        return result

    def _drawn_rates(self, by: str, who: str | None, drawn: pd.DataFrame) -> pd.DataFrame:
        """The drawn-back share of :meth:`pile_cards`: ``rate, ci_low, ci_high, n,
        effective_n, clustered`` per rank or suit; clustered by game by rank over every seat
        when the folder has the per-game counts (``drawn_games``)."""
        sums = None
        if by == "rank" and who is None and "drawn_games" in self.table_names:
            # one row per rank (and per rotation of a rotated run: summed here)
            sums = self.table("drawn_games").groupby("rank").sum()
        rows = {}
        for value, row in drawn.iterrows():
            squares = (None, None, None)
            if sums is not None and value in sums.index:
                cell = sums.loc[value]
                squares = (float(cell["drawn_squares"]), float(cell["pile_squares"]),
                           float(cell["cross"]))  # fmt: skip
            rows[value] = clustered_row(
                int(row["drawn"]), int(row["rounds"]), *squares, self.games_played
            )
        table = pd.DataFrame(rows, columns=drawn.index).T
        return table.astype({"n": np.int64, "clustered": bool})

    def pile_card_rates(self, who: str | None = None) -> pd.DataFrame:
        """Every card: the share of rounds it was in its holder's draw pile, over the
        rounds in which it could be (Wilson CI; n = player-rounds), and the owner's mean
        points in those rounds (95% CI)."""
        cards = self._by(self.table("pile_cards"), "strategy")
        seats = self.table("seats")
        if who is not None:
            cards = cards[cards["strategy"] == who]
            seats = seats[seats["strategy"] == who]
        rounds = int(seats["games"].sum()) * self.rounds_per_game
        grouped = cards.groupby(["suit", "rank", "card"])[
            ["rounds", "points_sum", "points_squares", "drawn"]
        ].sum()
        grouped = grouped.reset_index(level=["suit", "rank"])
        result = rate_table(grouped["rounds"], pd.Series(rounds, grouped.index)).add_prefix(
            "in_pile_"
        )
        result = result.join(
            mean_table(grouped, "points_sum", "points_squares", "rounds").add_prefix("points_")
        )
        return grouped[["suit", "rank"]].join(result)

    def pile_profiles(self, feature: str = "voids_made", who: str | None = None) -> pd.DataFrame:
        """Mean round points (95% CI) by one feature of the round's draw pile: ``voids_made``
        (suits the pile emptied from the hand at the start), ``pile_suits`` (different
        suits among its cards) or ``high_cards`` (cards of the deck's three highest ranks;
        5 = 5 or more), with the share of rounds (Wilson CI). ``who``: one strategy."""
        if feature not in ("voids_made", "pile_suits", "high_cards"):
            raise ValueError(
                f"feature must be voids_made, pile_suits or high_cards, not {feature!r}"
            )
        table = self._by(self.table("pile_profiles"), "strategy")
        if who is not None:
            table = table[table["strategy"] == who]
        grouped = table.groupby(feature)[["rounds", "points_sum", "points_squares"]].sum()
        result = mean_table(grouped, "points_sum", "points_squares", "rounds").add_prefix(
            "points_"
        )
        shares = rate_table(grouped["rounds"], pd.Series(grouped["rounds"].sum(), grouped.index))
        return shares.add_prefix("share_").join(result)

    # --- rounds ----------------------------------------------------------------------------

    def round_length(self) -> pd.DataFrame:
        """Tricks per round: mean with 95% CI, quartiles, 10%/90%, maximum and n (rounds)."""
        histogram = self.table("round_tricks").groupby("tricks")["games"].sum()
        table = pd.DataFrame({"tricks_per_round": histogram_summary(histogram)}).T
        return table.astype({"n": np.int64})

    def round_ends(self, by: str = "seat") -> pd.DataFrame:
        """How rounds end: for each seat (or strategy), the share of its rounds that ended
        with its hand empty, by reason (``END_REASONS``), with 95% Wilson intervals."""
        seats = self.table("seats")
        rounds = self._rounds(by)
        rows = []
        for reason in END_REASONS:
            counts = seats.groupby(by, sort=False)[f"empty_hand_{reason}"].sum()
            table = rate_table(counts, rounds)
            table["reason"] = reason
            rows.append(table)
        result = pd.concat(rows).reset_index().set_index([by, "reason"])
        return result

    def empty_hands_per_round(self) -> pd.DataFrame:
        """Share of rounds that ended with 1, 2, ... hands empty (Wilson CIs)."""
        ends = self.table("round_ends").groupby("empty_hands")["rounds"].sum()
        return rate_table(ends, pd.Series(ends.sum(), ends.index))

    def actions(self, by: str = "strategy") -> pd.DataFrame:
        """Decisions before tricks: the share that passed, drew, placed (95% Wilson CIs;
        n = decisions), and draws per round."""
        seats = self.table("seats")
        columns = [f"actions_{name}" for name in ACTION_NAMES]
        grouped = seats.groupby(by, sort=False)[columns].sum()
        decisions = grouped.sum(axis=1)
        tables = [
            rate_table(grouped[f"actions_{name}"], decisions).add_prefix(f"{name}_")
            for name in ACTION_NAMES
        ]
        result = tables[0].join(tables[1:])
        result["draws_per_round"] = grouped["actions_draw"] / self._rounds(by)
        return result

    # --- summary ---------------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Win rates plus equal rates, points by source, round length and ends, flat (one
        row of a sweep)."""
        values = super().metrics()
        everyone = self.table("seats")
        length = self.round_length().iloc[0]
        for column in ("mean", "ci_low", "ci_high"):
            values[f"round_tricks_{column}"] = length[column]
        rates = self.equal_rates("strategy")
        for key, row in rates.iterrows():
            add_rate(values, f"{key}_equal_bonus", _prefixed(row, "bonus_"))
        cells = self.table("round_scores")
        same = cells[(cells["tricks"] == cells["shorts"]) & (cells["tricks"] > 0)]
        equal = rate_table([same["rounds"].sum()], [cells["rounds"].sum()]).iloc[0]
        add_rate(values, "equal_bonus", equal)
        total = everyone["points_sum"].sum()
        rounds_played = everyone["games"].sum() * self.rounds_per_game
        for source in SOURCES:
            points = everyone[f"points_{source}"].sum()
            values[f"points_{source}_per_round"] = points / rounds_played
            values[f"points_{source}_share"] = points / total
        values["points_per_round"] = total / rounds_played
        for reason, row in self.round_ends_overall().iterrows():
            add_rate(values, f"end_{reason}", row)
        return values

    def round_ends_overall(self) -> pd.DataFrame:
        """Share of empty hands at round ends by reason, every seat together (n = empty
        hands), with 95% intervals that allow for the empty hands of one game being
        correlated (``stats.clustered_rate``: all seats' hands empty together when the
        piles run out; design effect about 2.3 with the default lineup), ``effective_n``
        and ``clustered``; independent Wilson intervals (``clustered`` False) for a folder
        written before the per-game counts (no ``end_games`` table)."""
        seats = self.table("seats")
        counts = pd.Series({reason: seats[f"empty_hand_{reason}"].sum() for reason in END_REASONS})
        sums = None
        if "end_games" in self.table_names:
            # one row per reason (and per rotation of a rotated run: summed here)
            sums = self.table("end_games").groupby("reason").sum()
        rows = {}
        for reason, count in counts.items():
            squares = (None, None, None)
            if sums is not None:
                cell = sums.loc[reason]
                squares = (float(cell["squares"]), float(cell["empty_squares"]),
                           float(cell["cross"]))  # fmt: skip
            rows[reason] = clustered_row(int(count), int(counts.sum()), *squares,
                                         self.games_played)  # fmt: skip
        return pd.DataFrame(rows).T.astype({"n": np.int64, "clustered": bool})

    def summary(self) -> str:
        """Headline figures: win rates, then points by source, tricks against shorts, the
        draw pile and the rounds."""
        rules = self.rules()
        by = "strategy"
        lines = [super().summary(), "", f"Rules: {describe_rules(rules)}"]
        lines += [
            "",
            "Points per round by source and in total (mean [95% CI]; n = the strategy's "
            "player-rounds):",
        ]
        sources = self.points_by_source(by)
        for key in sources.index.get_level_values(0).unique():
            parts = []
            for source in (*SOURCES, "total"):
                row = sources.loc[(key, source)]
                if source == "intermediate" and rules.intermediate_scoring == "none":
                    continue
                name = source.replace("_", " ")
                parts.append(f"{name} {format_mean(row['mean'], row.ci_low, row.ci_high)}")
            n = int(sources.loc[(key, "total")].n)
            lines.append(f"  {key:<29} " + ", ".join(parts) + f" (n={n:,})")
        lines += ["", "Tricks won equal to shorts at a round's end (with at least one pair):"]
        for key, row in self.equal_rates(by).iterrows():
            rate = format_rate(row.bonus_rate, row.bonus_ci_low, row.bonus_ci_high, row.bonus_n)
            lines.append(f"  {key:<29} {rate}")
        lines += ["", "Tricks won and shorts per round (mean [95% CI]):"]
        means = self.tricks_and_shorts(by)
        for key in means.index.get_level_values(0).unique():
            tricks, shorts = means.loc[(key, "tricks")], means.loc[(key, "shorts")]
            lines.append(
                f"  {key:<29} tricks {format_mean(tricks['mean'], tricks.ci_low, tricks.ci_high)}"
                f", shorts {format_mean(shorts['mean'], shorts.ci_low, shorts.ci_high)}"
            )
        length = self.round_length().iloc[0]
        lines += [
            "",
            f"Round length: {format_mean(length['mean'], length.ci_low, length.ci_high)} tricks, "
            f"median {int(length['median'])}, 10%-90% {int(length.p10)}-{int(length.p90)}, "
            f"max {int(length['max'])} (n={int(length.n):,} rounds)",
            "",
        ]
        ends = self.round_ends_overall()
        note = interval_note("empty hands", bool(ends["clustered"].all()))
        lines.append(f"How rounds end: the empty hands at a round's end, by reason ({note}):")
        names = {
            "draw_pile_empty": "hand and draw pile empty",
            "declined_to_draw": "hand empty, did not draw",
            "placed_last_card": "placed its last card",
        }
        for reason, row in ends.iterrows():
            if reason == "placed_last_card" and not rules.build_draw_pile:
                continue
            rate = format_clustered(row, self.games_played)
            lines.append(f"  {names[reason]:<29} {rate}")
        if rules.draw_pile_cards or rules.build_draw_pile:
            cards = self.pile_cards("rank")
            note = interval_note("cards", bool(cards["drawn_clustered"].all()))
            lines += [
                "",
                "Draw piles by rank: cards per pile (mean [95% CI]; a random pick's mean), the "
                f"share of those cards drawn back (n = cards; {note}), and the owner's points "
                "in rounds whose pile held the rank (mean [95% CI], n = rounds):",
            ]
            for _, row in cards.iterrows():
                lines.append(pile_rank_line(row, self.games_played))
        return "\n".join(lines)


def pile_rank_line(row: pd.Series, games: int) -> str:
    """A row of :meth:`ZootRun.pile_cards` by rank as a summary line: cards per pile with
    its interval (and a random pick's mean), the share drawn back with its interval and n
    (cards, in ``games`` games when clustered), and the owner's round points with its
    interval and n (rounds)."""
    cards = f"{row.cards_mean:.3f} [{row.cards_ci_low:.3f}, {row.cards_ci_high:.3f}]"
    drawn = format_clustered(_prefixed(row, "drawn_"), games)
    points = format_mean(row.points_mean, row.points_ci_low, row.points_ci_high,
                         int(row.points_n))  # fmt: skip
    return (
        f"  {row.rank_name:>2}  {cards} ({row.random_cards:.3f}), drawn back {drawn}, "
        f"round points {points}"
    )


def _prefixed(row: pd.Series, prefix: str) -> pd.Series:
    """The columns of ``row`` starting with ``prefix``, without it (rate, ci_low ...)."""
    picked = row[[name for name in row.index if name.startswith(prefix)]]
    return picked.rename(lambda name: name.removeprefix(prefix))


def describe_rules(rules: ZootSettings) -> str:
    """The variant and scoring in play, in words."""
    if rules.draw_pile_cards and rules.build_draw_pile:
        pile = f"{rules.draw_pile_cards}-card draw piles, built on during play"
    elif rules.build_draw_pile:
        pile = "Sean's Short Shorts (draw piles built during play)"
    elif rules.draw_pile_cards:
        pile = f"{rules.draw_pile_cards}-card draw piles"
    else:
        pile = "no draw piles"
    scoring = (
        f"{rules.points_per_trick} per trick, {rules.points_per_pair} per pair, "
        f"{rules.points_per_equal_pair} per pair when equal"
    )
    if rules.intermediate_scoring != "none":
        table = "/".join(str(p) for p in rules.unique_suit_points)
        scoring += f", unique suits {table}"
    plural = "s" if rules.rounds_per_player > 1 else ""
    rounds = f"{rules.rounds_per_player} round{plural} per player"
    return f"{pile}; {scoring}; {rounds}"
