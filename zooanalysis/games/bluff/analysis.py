"""Bluff in Zoo results: doubt odds, bluff rates, penalty points, game length, endings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from zooanalysis.cluster_rates import clustered_table, format_clustered
from zooanalysis.games.bluff import odds
from zooanalysis.games.bluff.rules import settings_from_table
from zooanalysis.numbers import format_count
from zooanalysis.results import (
    Run,
    add_rate,
    histogram_summary,
    length_lines,
    mean_with_interval,
)
from zooanalysis.stats import format_rate, rate_table, rate_with_interval

DOUBT_GROUPS = (
    "claimed_count",
    "kind",
    "pile_size",
    "claimant_move",
    "claimant_placed",
    "doubter_seat",
    "claimant_seat",
    "doubter_strategy",
    "claimant_strategy",
)
CLAIM_GROUPS = ("seat", "strategy", "claimed_count", "kind", "pile_size", "move", "placed")
UNITS = {
    "claims": ("claims", "false_claims", "true_claims", "seat"),
    "doubts": ("doubts", "doubt_succeeded", "doubt_failed", "doubter_seat"),
}
"""The rates over units that come several to a game: unit -> (table, successes column,
failures column, seat column). Successes are false claims and doubts that succeeded."""


class BluffRun(Run):
    """A Bluff in Zoo run: every figure a rate with its 95% Wilson interval and n."""

    def doubts(self) -> pd.DataFrame:
        """Every (claim, pile, seats) cell of doubts with its successes and failures.

        A doubt succeeds when the claim did not hold (the claimant takes the pile).
        Claimed counts of 30 stand for 30 or more, pile sizes of 40 for 40 or more. Seats
        are numbered from 1 (seat 1 is the first seat).
        """
        table = self.table("doubts")
        table["doubter_strategy"] = self.seat_strategies(table, "doubter_seat")
        table["claimant_strategy"] = self.seat_strategies(table, "claimant_seat")
        table[["doubter_seat", "claimant_seat"]] += 1  # seat 1 is the first seat
        table["claimant_placed"] = table["claimant_move"].astype(str) != "none"
        table["doubts"] = table["doubt_succeeded"] + table["doubt_failed"]
        return table

    def doubt_odds(
        self, by: Sequence[str] = ("claimed_count", "pile_size"), min_doubts: int = 1
    ) -> pd.DataFrame:
        """Doubt success rate grouped by ``by`` (any of ``DOUBT_GROUPS``).

        Columns: ``rate`` (share of doubts that caught a false claim), ``ci_low``,
        ``ci_high``, ``n`` (doubts). Groups with fewer than ``min_doubts`` doubts are left out.
        The intervals count the doubts as independent, which they nearly are in the default
        lineup and random*4: the design effect measured from per-game counts (20,000 games
        each) is 0.86 to 1.03 overall, by seat and in the biggest cells of claimed count x
        pile size; but with bayes,bayes,cautious,random (10,000 games) the random seat's
        doubts have 1.23 and the cell of one claimed on a one-card pile 1.21 (other big cells
        0.96 to 1.00), so such cells' intervals can be up to 10% too narrow. For doubt
        success overall and by doubter see :meth:`clustered_rates`.
        """
        by = _check_groups(by, DOUBT_GROUPS)
        table = self.doubts()
        grouped = table.groupby(by, observed=True)[["doubt_succeeded", "doubts"]].sum()
        result = rate_table(grouped["doubt_succeeded"], grouped["doubts"])
        return result[result["n"] >= min_doubts]

    def claims(self) -> pd.DataFrame:
        """Every claim cell: how many claims were true or false at the moment they were made
        (seats from 1)."""
        table = self.table("claims")
        table["strategy"] = self.seat_strategies(table, "seat")
        table["seat"] += 1  # seat 1 is the first seat
        table["placed"] = table["move"].astype(str) != "none"
        table["claims"] = table["true_claims"] + table["false_claims"]
        return table

    def bluff_rates(self, by: Sequence[str] = ("strategy",)) -> pd.DataFrame:
        """Share of claims that were false when made (a bluff, knowingly or not), by ``by``.

        "False when made" is judged on the whole pile at that moment, cards the claimant
        never saw included. The intervals count the claims as independent, and the claims of
        one game are not: by strategy (or overall) use :meth:`clustered_rates`; for the cells
        of this table the design effect measured from per-game counts (20,000 games) is 1.05
        to 1.30 by claimed count x pile size and 1.2 to 3.2 by card placed, so their
        intervals are too narrow by up to a factor 1.8.
        """
        by = _check_groups(by, CLAIM_GROUPS)
        grouped = self.claims().groupby(by, observed=True)[["false_claims", "claims"]].sum()
        return rate_table(grouped["false_claims"], grouped["claims"])

    def clustered_rates(self, unit: str, by: str = "strategy") -> pd.DataFrame:
        """The bluff rate (``unit="claims"``: share of claims false when made) or the doubt
        success (``unit="doubts"``), by claimant or doubter ``strategy``, or of ``all``
        seats together, with a 95% interval that counts the games, not the units, as
        independent (``stats.clustered_rate``): the claims and doubts of one game share its
        players, hands and piles.

        Columns ``rate, ci_low, ci_high, n`` (units), ``effective_n`` (the n the interval
        is Wilson's for), ``games`` and ``clustered``. A run written before the per-game
        moments were kept (no ``unit_moments`` table) gets Wilson's interval over the units
        as if independent, ``clustered`` False and ``effective_n`` = n. In a rotated run each
        seating's game is a cluster (``games`` counts every seating); the seatings of one deal
        share its cards, which this does not allow for.
        """
        if unit not in UNITS or by not in ("strategy", "all"):
            raise ValueError(f"unit must be one of {', '.join(UNITS)} and by 'strategy' or 'all'")
        name, successes, failures, seat = UNITS[unit]
        cells = self.table(name)
        cells["group"] = self._seat_groups(cells, seat, by)
        cells["units"] = cells[successes] + cells[failures]
        sums = cells.groupby("group")[[successes, "units"]].sum()
        clustered = "unit_moments" in self.table_names
        squares = (None, None, None)
        if clustered:
            moments = self.table("unit_moments")
            moments = moments[moments["unit"] == unit]
            group = self._seat_groups(moments, "seat", by)
            same = group == self._seat_groups(moments, "other_seat", by)
            products = ["success_products", "unit_products", "cross_products"]
            summed = moments[same].groupby(group[same])[products].sum().reindex(sums.index)
            squares = tuple(summed[column] for column in products)
        table = clustered_table(sums[successes], sums["units"], *squares, self.games_played)
        table.index.name = "strategy" if by == "strategy" else None
        table["games"] = self.games_played
        table["clustered"] = clustered
        return table

    def _seat_groups(self, table: pd.DataFrame, seat_column: str, by: str) -> np.ndarray:
        """Each row's group: the strategy in ``table[seat_column]`` (seats from 0, per
        rotation if rotated), or ``all`` seats. A row of ``unit_moments`` pairs two seats of
        one game (and one rotation), so the pairs within a group sum to its squares."""
        if by == "all":
            return np.full(len(table), "all seats", dtype=object)
        return self.seat_strategies(table, seat_column)

    def penalty_points(self, by: str | None = None) -> pd.DataFrame:
        """Mean penalty points with a 95% interval and the share of games at 0 points, by
        ``seat`` (from 1) or ``strategy`` (default: by seat, or by strategy for rotated
        runs)."""
        by = by or ("strategy" if self.rotated else "seat")
        seats = self.table("seats")
        if by not in ("seat", "strategy"):
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        points = self.table("points")
        points["strategy"] = self.seat_strategies(points, "seat")
        zero = points[points["points"] == 0].groupby(by)["games"].sum()
        grouped = seats.groupby(by, sort=False)[["points_sum", "points_squares", "games"]].sum()
        labels = seats.groupby("seat")["strategy"].first() if by == "seat" else None
        rows = []
        for key, row in grouped.iterrows():
            mean, low, high = mean_with_interval(row.points_sum, row.points_squares, row.games)
            rows.append(
                {
                    by: key,
                    "strategy": labels[key] if by == "seat" else key,
                    "mean": mean,
                    "ci_low": low,
                    "ci_high": high,
                    "n": row.games,
                    "zero_share": zero.get(key, 0) / row.games,
                }
            )
        table = pd.DataFrame(rows).set_index(by)
        if by == "seat":
            table.index = table.index + 1  # seat 1 is the first seat
        return table

    def game_length(self) -> pd.DataFrame:
        """Rounds and moves per game: mean, quartiles, 10th/90th percentiles and maximum."""
        rows = {}
        for name in ("rounds", "moves"):
            histogram = self.table(name).groupby(name)["games"].sum()  # rotations merged
            rows[name] = histogram_summary(histogram)
        return pd.DataFrame(rows).T

    def end_reasons(self) -> pd.DataFrame:
        """How games ended: a player reached the points limit, or the deck ran out."""
        table = self.table("end_reasons").groupby("reason", sort=False)["games"].sum()
        return rate_table(table, pd.Series(self.games_played, index=table.index))

    def move_mix(self, by: str | None = None) -> pd.DataFrame:
        """Share of each move type (doubt, hand card, draw-pile card, no card), by ``seat``
        or ``strategy`` (default: by seat, or by strategy for rotated runs)."""
        by = by or ("strategy" if self.rotated else "seat")
        seats = self.table("seats")
        columns = [c for c in seats.columns if c.startswith("moves_")]
        moves = seats.groupby(by, sort=False)[columns].sum()
        shares = moves.div(moves.sum(axis=1), axis=0)
        shares.columns = [c.removeprefix("moves_") for c in shares.columns]
        if by == "seat":
            shares.insert(0, "strategy", seats.groupby("seat")["strategy"].first())
            shares.index = shares.index + 1  # seat 1 is the first seat
        return shares

    def odds_table(self, piles: Sequence[int] = odds.DEFAULT_PILES) -> pd.DataFrame:
        """The exact chance a random pile holds at least N of a kind, for this run's deck."""
        return odds.at_least_table(settings_from_table(self.settings).deck, piles)

    def observed_vs_exact(self, claimed_count: int | None = None) -> pd.DataFrame:
        """Observed claim-held rate of doubted claims next to the exact random-pile odds.

        The exact figure assumes the pile is random; the observed one shows what the
        strategies' choices of what to claim and when to doubt do to it.
        """
        deck = settings_from_table(self.settings).deck
        table = self.doubt_odds(("claimed_count", "pile_size"))
        table = table.rename(columns={"rate": "doubt_success"})
        table["claim_held"] = 1 - table["doubt_success"]
        table["exact_random_pile"] = [
            odds.at_least(deck, pile, count) if pile >= 1 else np.nan for count, pile in table.index
        ]
        if claimed_count is not None:
            table = table.xs(claimed_count, level="claimed_count", drop_level=False)
        return table

    def metrics(self) -> dict[str, float]:
        """Win rates plus points, length, endings, doubt success and bluff rate, flat."""
        values = super().metrics()
        for key, row in self.penalty_points().iterrows():
            prefix = f"seat{key}" if not self.rotated else str(key)
            values[f"{prefix}_points_mean"] = row["mean"]
            values[f"{prefix}_points_ci_low"] = row["ci_low"]
            values[f"{prefix}_points_ci_high"] = row["ci_high"]
        for name, row in self.game_length().iterrows():
            values[f"{name}_mean"] = row["mean"]
            values[f"{name}_ci_low"] = row["ci_low"]
            values[f"{name}_ci_high"] = row["ci_high"]
        for reason, row in self.end_reasons().iterrows():
            add_rate(values, f"end_{reason}", row)
        add_rate(values, "doubt_success", self.clustered_rates("doubts", "all").iloc[0])
        add_rate(values, "bluff", self.clustered_rates("claims", "all").iloc[0])
        return values

    def summary(self) -> str:
        """Headline figures: win rates, points, length, endings, doubts and bluffs."""
        lines = [super().summary(), "", "Mean penalty points (95% CI):"]
        if self.rotated:
            for name, row in self.penalty_points("strategy").iterrows():
                lines.append(
                    f"  {name:<29} {row['mean']:6.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]"
                )
        for seat, row in [] if self.rotated else self.penalty_points("seat").iterrows():
            lines.append(
                f"  seat {seat} {row.strategy:<22} {row['mean']:6.2f} "
                f"[{row.ci_low:.2f}, {row.ci_high:.2f}]"
            )
        lines += length_lines(self.game_length())
        lines += ["", "How games ended:"]
        points_to_end = self.settings.get("points_to_end", 30)
        names = {"points": f"a player reached {points_to_end} points", "deck": "the deck ran out"}
        for reason, row in self.end_reasons().iterrows():
            lines.append(
                f"  {names.get(reason, reason):<29} "
                f"{format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}"
            )
        lines += ["", "Doubt success (the doubted claim was false), by doubter:"]
        all_rate = self.clustered_rates("doubts", "all").iloc[0]
        lines.append(f"  {'all doubts':<29} {clustered_text(all_rate, 'doubts')}")
        for name, row in self.clustered_rates("doubts").iterrows():
            lines.append(f"  {name:<29} {clustered_text(row, 'doubts')}")
        lines += ["", "Bluff rate (claims false when made), by claimant:"]
        for name, row in self.clustered_rates("claims").iterrows():
            lines.append(f"  {name:<29} {clustered_text(row, 'claims')}")
        return "\n".join(lines)


def clustered_text(row: pd.Series, unit: str) -> str:
    """A row of :meth:`BluffRun.clustered_rates` as ``54.3% [54.2%, 54.4%] (n=155,558,331
    claims in 1,000,000 games)``; a run without the per-game moments says that its interval
    counts the units as independent (too narrow: they come several to a game)."""
    if not row.clustered:
        text = rate_with_interval(row.rate, row.ci_low, row.ci_high)
        return f"{text} (n={format_count(int(row.n))} {unit}, counted as independent)"
    return format_clustered(row, int(row.games), unit)


def _check_groups(by: Sequence[str] | str, allowed: Sequence[str]) -> list[str]:
    groups = [by] if isinstance(by, str) else list(by)
    unknown = [g for g in groups if g not in allowed]
    if unknown or not groups:
        raise ValueError(f"cannot group by {unknown or groups}; allowed are {', '.join(allowed)}")
    return groups
