"""Hearts results: the designer's questions as DataFrames, each rate with its 95% Wilson
interval and n, each mean with its 95% interval and n. Seats are numbered from 1.

* :meth:`HeartsRun.moon_rates`: how often a player shoots the moon, per hand;
* :meth:`HeartsRun.hand_points`, :meth:`HeartsRun.game_points`: points per hand and per game
  (a game is a whole match to ``end_score``);
* :meth:`HeartsRun.queen_fate`, :meth:`HeartsRun.queen_rates`,
  :meth:`HeartsRun.queen_tricks`: who takes the Queen of Spades, from whom, on which trick,
  and what holding it costs;
* :meth:`HeartsRun.direction_points`: points per hand by passing direction and seat;
* :meth:`HeartsRun.game_length`: hands per game, and how games end.

Hands within a game share its players but are independent deals, and the strategies ignore
the score, so per-hand rates treat a seat's hands as independent trials. Measured: from the
per-game counts of 20,000 games (seed 7; about 8 hands a game with the default lineup, 11
with four ``random``), the design effect (the variance clustered by game over the variance
of independent hands) of the moon rate (any seat and per seat), each seat's Queen taken,
held, kept and passed, the Queen's trick and the mean points per hand is 0.95-1.03 for both
lineups: as good as independent (<= 1.05), so these keep the independent Wilson interval
rather than ``stats.clustered_rate`` (which would need per-game squares in the kernel).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.hearts.rules import HeartsSettings, settings_from_table
from zooanalysis.results import Run, add_rate, mean_with_interval
from zooanalysis.stats import format_rate, rate_table


def mean_row(total: float, squares: float, n: int) -> dict[str, float]:
    """``mean, ci_low, ci_high, n`` from a sum, a sum of squares and a count."""
    mean, low, high = mean_with_interval(float(total), float(squares), int(n))
    return {"mean": mean, "ci_low": low, "ci_high": high, "n": int(n)}


def format_mean(row) -> str:
    """``6.51 [6.47, 6.55] (n=...)``."""
    return f"{row['mean']:.2f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}] (n={int(row['n']):,})"


class HeartsRun(Run):
    """A Hearts run: moons, points per hand and per game, the Queen's fate, by seat or by
    strategy."""

    def rules(self) -> HeartsSettings:
        """The run's settings as :class:`HeartsSettings`."""
        return settings_from_table(self.settings)

    @property
    def hands_played(self) -> int:
        """Hands played in the run (all games; in a rotated run, of every seating: one seat's
        hands summed over the rotations, each of which has a row per seat)."""
        return self.one_seat_total("hands")

    def _grouped(self, by: str, columns: list[str]) -> pd.DataFrame:
        """Seat-table sums by ``seat`` (from 1) or ``strategy`` (its seats together)."""
        seats = self.table("seats")
        if by not in ("seat", "strategy"):
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        grouped = seats.groupby(by, sort=False)[columns].sum()
        if by == "seat":
            grouped.index = grouped.index + 1
        return grouped

    def hand_points(self, by: str = "seat") -> pd.DataFrame:
        """Mean points per hand (the moon and the Jack applied), with 95% CI; n = hands."""
        grouped = self._grouped(by, ["hand_points_sum", "hand_points_squares", "hands"])
        return pd.DataFrame(
            {
                key: mean_row(row.hand_points_sum, row.hand_points_squares, row.hands)
                for key, row in grouped.iterrows()
            }
        ).T.rename_axis(by).astype({"n": np.int64})

    def game_points(self, by: str = "seat") -> pd.DataFrame:
        """Mean final points per game, with 95% CI; n = games."""
        grouped = self._grouped(by, ["points_sum", "points_squares", "games"])
        return pd.DataFrame(
            {
                key: mean_row(row.points_sum, row.points_squares, row.games)
                for key, row in grouped.iterrows()
            }
        ).T.rename_axis(by).astype({"n": np.int64})

    def moon_rates(self, by: str = "seat") -> pd.DataFrame:
        """Share of a player's hands in which it shot the moon (95% Wilson; n = hands)."""
        grouped = self._grouped(by, ["moons", "hands"])
        return rate_table(grouped["moons"], grouped["hands"]).rename_axis(by)

    def moon_rate(self) -> pd.Series:
        """Share of hands in which anyone shot the moon (at most one player can)."""
        # independent hands: design effect 1.005 measured (see the module docstring)
        seats = self.table("seats")
        return rate_table([int(seats["moons"].sum())], [self.hands_played]).iloc[0]

    def queen_rates(self, by: str = "seat") -> pd.DataFrame:
        """Per seat or strategy: ``taken`` (share of its hands in which it took the Queen),
        ``held`` (share in which it held it when play began), ``kept`` (of the hands it held
        it, the share it took it itself), ``passed`` (share of hands it passed it on), each
        with 95% Wilson intervals; ``holder_points``: its mean points in hands it held the
        Queen (with CI)."""
        grouped = self._grouped(
            by,
            ["queen_taken", "queen_held", "queen_kept", "queen_passed", "hands",
             "queen_holder_points", "queen_holder_squares"],
        )  # fmt: skip
        parts = []
        for name, successes, trials in (
            ("taken", "queen_taken", "hands"),
            ("held", "queen_held", "hands"),
            ("kept", "queen_kept", "queen_held"),
            ("passed", "queen_passed", "hands"),
        ):
            table = rate_table(grouped[successes], grouped[trials])
            parts.append(table.add_prefix(f"{name}_").rename(columns={f"{name}_rate": name}))
        holder = pd.DataFrame(
            {
                key: mean_row(row.queen_holder_points, row.queen_holder_squares, row.queen_held)
                for key, row in grouped.iterrows()
            }
        ).T.add_prefix("holder_points_").rename(columns={"holder_points_mean": "holder_points"})
        return pd.concat([*parts, holder], axis=1).rename_axis(by)

    def queen_fate(self) -> pd.DataFrame:
        """Hands by the Queen's holder (when play began) and its taker, seats from 1, with
        the share of the holder's hands (95% Wilson; n = hands it held the Queen)."""
        # one row per holder and taker (and per rotation of a rotated run: summed here)
        fate = self.table("queen_fate").groupby(["holder", "taker"], as_index=False)["hands"].sum()
        held = fate.groupby("holder")["hands"].transform("sum")
        rates = rate_table(fate["hands"].to_numpy(), held.to_numpy())
        fate["holder"] += 1
        fate["taker"] += 1
        return pd.concat([fate.reset_index(drop=True), rates], axis=1)

    def queen_tricks(self) -> pd.DataFrame:
        """The trick (1-13) in which the Queen was taken: share of hands with 95% Wilson
        intervals (n = hands in which it was dealt)."""
        # one row per trick (and per rotation of a rotated run: summed here)
        tricks = self.table("queen_trick").groupby("trick")["hands"].sum()
        total = int(tricks.sum())
        table = rate_table(tricks.to_numpy(), total)
        table.index = pd.Index(tricks.index.to_numpy() + 1, name="trick")
        table.insert(0, "hands", tricks.to_numpy())
        return table

    def direction_points(self) -> pd.DataFrame:
        """Mean points per hand by passing direction and seat (from 1), with 95% CI."""
        rows = {}
        directions = self.table("directions").groupby(["direction", "seat"], as_index=False)[
            ["hands", "points_sum", "points_squares"]
        ].sum()  # one row per direction and seat (and per rotation of a rotated run)
        for _, row in directions.iterrows():
            rows[(row["direction"], int(row["seat"]) + 1)] = mean_row(
                row["points_sum"], row["points_squares"], row["hands"]
            )
        table = pd.DataFrame(rows).T
        table.index.names = ["direction", "seat"]
        return table.astype({"n": np.int64}) if len(table) else table

    def game_length(self) -> pd.Series:
        """Hands per game: mean with its 95% CI, and the share of games ended by
        ``max_hands`` rather than a player reaching ``end_score``."""
        hands = self.table("hands")
        n = int(hands["games"].sum())
        total = float((hands["hands"] * hands["games"]).sum())
        squares = float((hands["hands"] ** 2 * hands["games"]).sum())
        row = mean_row(total, squares, n)
        # summed over the rotations of a rotated run (one row per reason and rotation)
        ends = self.table("end_reasons").groupby("reason")["games"].sum()
        capped = rate_table([int(ends.get("max_hands", 0))], [n]).iloc[0]
        row.update({"capped": capped.rate, "capped_ci_low": capped.ci_low,
                    "capped_ci_high": capped.ci_high})
        return pd.Series(row)

    # --- summaries -------------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """The shared metrics plus the moon rate and every seat's points per hand."""
        values = super().metrics()
        add_rate(values, "moon", self.moon_rate())
        for seat, row in self.hand_points("seat").iterrows():
            values[f"seat{seat}_hand_points"] = float(row["mean"])
            values[f"seat{seat}_hand_points_ci_low"] = float(row["ci_low"])
            values[f"seat{seat}_hand_points_ci_high"] = float(row["ci_high"])
        return values

    def summary(self) -> str:
        """The shared summary plus hands per game, the moon and points per hand."""
        moon = self.moon_rate()
        length = self.game_length()
        lines = [
            super().summary(),
            "",
            f"A game is a match to {self.rules().end_score} points: "
            f"{length['mean']:.2f} [{length['ci_low']:.2f}, {length['ci_high']:.2f}] hands "
            f"per game (n={int(length['n']):,} games).",
            "Someone shot the moon in "
            f"{format_rate(moon.rate, moon.ci_low, moon.ci_high, int(moon.n))} of hands.",
            "Points per hand by seat (fewer is better), and the share of hands it took the "
            "Queen of Spades:",
        ]
        queen = self.queen_rates("seat")
        for seat, row in self.hand_points("seat").iterrows():
            q = queen.loc[seat]
            taken = format_rate(
                q["taken"], q["taken_ci_low"], q["taken_ci_high"], int(q["taken_n"])
            )
            lines.append(f"  seat {seat}: {format_mean(row)}; Queen {taken}")
        return "\n".join(lines)
