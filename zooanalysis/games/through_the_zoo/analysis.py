"""Through the Zoo results: what each exhibit decides, seats and the start player per
exhibit, exhibit orders, mulligans, Diamonds and Johannesburg's meta scoring.

Every rate comes with its 95% Wilson interval (``ci_low``, ``ci_high``) and ``n``; means
with a 95% normal interval. Seats are numbered from 1 in every table here. Every rate here
is over games or seat-games (win shares by exhibit order), so none needs the clustered
interval of ``stats.clustered_rate``: an exhibit's round comes once a game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.results import Run, mean_with_interval
from zooanalysis.stats import rate_table


def _mean_rows(groups: pd.core.groupby.DataFrameGroupBy, value: str, weight: str
               ) -> pd.DataFrame:
    """Mean of ``value`` weighted by the count column ``weight`` per group, with its 95%
    interval and n."""
    rows = {}
    for key, part in groups:
        n = int(part[weight].sum())
        total = float((part[value] * part[weight]).sum())
        squares = float((part[value] ** 2 * part[weight]).sum())
        mean, low, high = mean_with_interval(total, squares, n)
        rows[key] = {"mean": mean, "ci_low": low, "ci_high": high, "n": n}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.names = groups.keys if isinstance(groups.keys, list) else [groups.keys]
    return table


class ThroughTheZooRun(Run):
    """A Through the Zoo run (one game = four rounds of exhibits)."""

    @property
    def players(self) -> int:
        """2 to 4."""
        return len(self.lineup)

    @property
    def exhibits(self) -> list[str]:
        """The Exhibit cards as listed in the settings."""
        return list(self.settings["exhibits"])

    # --- game points ---------------------------------------------------------------------

    def game_points(self) -> pd.DataFrame:
        """Mean game points per game of each seat (its strategy), 95% interval, n."""
        table = self.table("game_points")
        table["seat"] = table["seat"] + 1
        result = _mean_rows(table.groupby("seat"), "points", "games")
        result.insert(0, "strategy", [self._seat_strategy(seat) for seat in result.index])
        return result

    def _seat_strategy(self, seat: int) -> str:
        """Seat ``seat``'s strategy (from 1), or "(rotated)" when the run rotated the lineup
        through the seats (every seat then hosted every strategy in turn)."""
        return "(rotated)" if self.rotated else self.lineup[seat - 1]

    def exhibit_points(self, by: str = "offset") -> pd.DataFrame:
        """Mean game points a seat scores in each exhibit's round, by ``offset`` (its place
        after the round's start player: 1 = the start player, 2 = next clockwise ...), by
        ``seat`` (1 ..) or by ``round`` (1 ..). Every seat-round averages
        ``sum(points) / players`` when the exhibit is fair."""
        table = self.table("round_points")
        players = self.players
        table["round"] = table["round"] + 1
        start = (int(self.settings["start_seat"]) + table["round"] - 1) % players
        table["seat"] = (start + table["offset"]) % players + 1
        table["offset"] = table["offset"] + 1
        if by not in ("offset", "seat", "round"):
            raise ValueError(f"by={by!r}: give offset, seat or round")
        return _mean_rows(table.groupby(["exhibit", by]), "points", "count")

    def start_player(self) -> pd.DataFrame:
        """Per exhibit: the start player's mean game points against the mean of all seats
        in those rounds (the fair value), and the difference."""
        points = self.exhibit_points("offset")
        fair = _mean_rows(self.table("round_points").groupby("exhibit"), "points", "count")
        rows = {}
        for exhibit in fair.index:
            own = points.loc[(exhibit, 1)]
            rows[exhibit] = {
                "start_mean": own["mean"], "start_low": own["ci_low"],
                "start_high": own["ci_high"], "all_mean": fair.loc[exhibit, "mean"],
                "n": int(own["n"]),
            }
        return pd.DataFrame.from_dict(rows, orient="index")

    def exhibit_leads(self) -> pd.DataFrame:
        """What each exhibit decides: in games with a sole winner, the winner's lead over
        the average other player gained in that exhibit's round (and in the meta
        scoring), in game points, with its 95% interval, and its share of the whole lead."""
        # one row per part (and per rotation of a rotated run: summed here)
        stored = self.table("leads")
        leads = stored.groupby("part", sort=False)[["lead_sum", "lead_squares", "games"]].sum()
        n = int(leads["games"].iloc[0]) if len(leads) else 0
        players = int(stored["players"].iloc[0]) if len(stored) else self.players
        rows = {}
        for part, row in leads.iterrows():
            scale = players - 1
            mean, low, high = mean_with_interval(row["lead_sum"] / scale,
                                                 row["lead_squares"] / scale**2, n)
            rows[part] = {"lead": mean, "ci_low": low, "ci_high": high, "n": n}
        table = pd.DataFrame.from_dict(rows, orient="index")
        meta = table.loc["meta scoring", "lead"] if "meta scoring" in table.index else 0.0
        if self.settings.get("zoo") != "johannesburg" and (meta == 0 or np.isnan(meta)):
            table = table.drop(index="meta scoring")
        total = table["lead"].sum()
        table["share"] = table["lead"] / total if total else np.nan
        return table

    def order_balance(self) -> pd.DataFrame:
        """Per exhibit order: each seat's win share (ties split) with its 95% interval and
        n, next to the fair share 1 / players."""
        orders = self.table("orders")
        orders["seat"] = orders["seat"] + 1
        # one row per order and seat (and per rotation of a rotated run: summed here)
        table = orders.groupby(["exhibits", "seat"], sort=False)[["share_sum", "games"]].sum()
        rates = rate_table(table["share_sum"], table["games"])
        rates.insert(0, "strategy", [self._seat_strategy(seat) for _, seat in table.index])
        rates["fair"] = 1 / self.players
        return rates

    def mulligans(self) -> pd.DataFrame:
        """Mean cards mulliganed by each seat in each round, with 95% interval and n."""
        table = self.table("mulligans")
        table["round"] = table["round"] + 1
        table["seat"] = table["seat"] + 1
        result = _mean_rows(table.groupby(["seat", "round"]), "cards", "count")
        result.insert(0, "strategy", [self._seat_strategy(s) for s, _ in result.index])
        return result

    def diamonds(self) -> pd.DataFrame:
        """Mean Diamonds each seat ended its rounds with (Johannesburg's meta count) and
        mean meta scoring game points, with 95% intervals."""
        table = self.table("diamonds")
        table["seat"] = table["seat"] + 1
        result = _mean_rows(table.groupby("seat"), "diamonds", "games")
        meta = self.table("meta_points")
        meta["seat"] = meta["seat"] + 1
        points = _mean_rows(meta.groupby("seat"), "points", "games")
        result["meta_points"] = points["mean"]
        result["meta_low"] = points["ci_low"]
        result["meta_high"] = points["ci_high"]
        result.insert(0, "strategy", [self._seat_strategy(s) for s in result.index])
        return result

    def summary(self) -> str:
        """The shared summary plus each exhibit's part of the winner's lead."""
        leads = self.exhibit_leads()
        if not len(leads) or leads["n"].iloc[0] == 0:
            return super().summary() + "\n\nNo game had a sole winner (what each exhibit " \
                "decides is measured on those)."
        lines = [
            super().summary(),
            "",
            "What each exhibit decides (the sole winner's lead over the average other player, "
            f"game points, mean [95% CI], n={int(leads['n'].iloc[0]):,} games with a sole "
            "winner; its share of the whole lead is a point estimate):",
        ]
        for part, row in leads.iterrows():
            lines.append(f"  {part}: {row['lead']:.2f} [{row['ci_low']:.2f}, "
                         f"{row['ci_high']:.2f}], {100 * row['share']:.0f}% of the lead")
        return "\n".join(lines)
