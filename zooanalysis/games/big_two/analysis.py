"""Big Two results: the designer's questions as DataFrames, every rate with its 95% Wilson
interval and n, every mean with its 95% interval and n.

* :meth:`BigTwoRun.first_player`: how often the player who leads the first trick goes out
  first, against the fair share ``1 / players``, and by position clockwise from it;
* :meth:`BigTwoRun.cards_left`: mean cards left at the end of a round, by seat or strategy;
* :meth:`BigTwoRun.places`: the share of rounds each seat finishes in each place;
* :meth:`BigTwoRun.play_types`: the share of each seat's decisions of each kind (pass,
  single ... straight flush), and :meth:`BigTwoRun.leads`;
* :meth:`BigTwoRun.round_length`: decisions and tricks per round.

Seats are numbered from 1 in every table here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.cluster_rates import clustered_row, format_clustered, interval_note
from zooanalysis.games.big_two.rules import KIND_NAMES, BigTwoSettings, settings_from_table
from zooanalysis.results import (
    Run,
    add_rate,
    histogram_mean,
    histogram_summary,
    length_lines,
    one_or_rotated,
)
from zooanalysis.stats import format_rate, rate_table


class BigTwoRun(Run):
    """A Big Two run: first-player advantage, cards left, places and play kinds by seat."""

    def rules(self) -> BigTwoSettings:
        """The run's settings as :class:`BigTwoSettings`."""
        return settings_from_table(self.settings)

    @property
    def players(self) -> int:
        """Players at the table."""
        return len(self.lineup)

    @property
    def rounds_played(self) -> int:
        """Rounds in all games of the run (of every seating in a rotated run: one seat's
        rounds summed over the rotations)."""
        return self.one_seat_total("rounds")

    def first_player(self) -> pd.DataFrame:
        """Rounds in which the first trick's leader went out first (``opener``), and the
        first out by position clockwise from the opener (1 = the opener), each with its
        95% interval, n (rounds) and ``fair`` = 1 / players."""
        # one row per position (and per rotation of a rotated run: summed here)
        positions = self.table("positions").groupby("position")[["firsts", "rounds"]].sum()
        table = rate_table(positions["firsts"].to_numpy(), positions["rounds"].to_numpy())
        table.index = pd.Index([f"position {p + 1}" for p in positions.index], name="who")
        table["fair"] = 1 / self.players
        return table

    def opener_by_seat(self) -> pd.DataFrame:
        """Per seat (from 1): rounds it led the first trick, and how often it then went out
        first."""
        seats = self.table("seats").groupby("seat").agg(
            strategy=("strategy", one_or_rotated), opener_firsts=("opener_firsts", "sum"),
            opener_rounds=("opener_rounds", "sum"),
        )  # one row per seat (and per rotation of a rotated run: summed here)
        table = rate_table(seats["opener_firsts"].to_numpy(), seats["opener_rounds"].to_numpy())
        table.index = pd.Index(seats.index + 1, name="seat")
        table.insert(0, "strategy", seats["strategy"].to_numpy())
        return table

    def cards_left(self, by: str = "seat") -> pd.DataFrame:
        """Mean cards left when a round ends (0 for a player who went out), with its 95%
        interval and n (rounds), by ``seat`` (from 1) or ``strategy``."""
        cells = self.table("cards_left").copy()
        if by == "strategy":
            cells["strategy"] = self.seat_strategies(cells, "seat")
        elif by != "seat":
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        rows = {}
        for key, part in cells.groupby(by, sort=True):
            mean, low, high = histogram_mean(part.groupby("cards")["rounds"].sum())
            name = key + 1 if by == "seat" else key
            rows[name] = {"mean": mean, "ci_low": low, "ci_high": high,
                          "n": int(part["rounds"].sum())}
        table = pd.DataFrame(rows).T
        table.index.name = by
        return table.astype({"n": np.int64})

    def places(self) -> pd.DataFrame:
        """Share of rounds each seat (from 1) finished in each place (1 = went out first;
        tied seats share the better place), with 95% intervals."""
        # one row per seat and place (and per rotation of a rotated run: summed here)
        cells = self.table("places").groupby(["seat", "place"], as_index=False)["rounds"].sum()
        totals = cells.groupby("seat")["rounds"].transform("sum")
        table = rate_table(cells["rounds"].to_numpy(), totals.to_numpy())
        table.index = pd.MultiIndex.from_arrays(
            [cells["seat"] + 1, cells["place"] + 1], names=["seat", "place"]
        )
        return table

    def play_types(self, by: str = "seat") -> pd.DataFrame:
        """Share of decisions of each kind (``pass``, ``single`` ... ``straight_flush``) by
        ``seat`` (from 1) or ``strategy``, with 95% intervals; n = that seat's decisions."""
        cells = self.table("play_kinds").copy()
        if by == "strategy":
            cells["strategy"] = self.seat_strategies(cells, "seat")
        elif by == "seat":
            cells["seat"] = cells["seat"] + 1
        else:
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        grouped = cells.groupby([by, "kind"], sort=False)["plays"].sum()
        totals = grouped.groupby(level=0).transform("sum")
        table = rate_table(grouped, totals).reset_index()
        table["order"] = [KIND_NAMES.index(kind) for kind in table["kind"]]
        table = table.sort_values([by, "order"], kind="stable").drop(columns="order")
        return table.set_index([by, "kind"])

    def decision_kinds(self) -> pd.DataFrame:
        """Share of all seats' decisions of each kind (``pass``, ``single`` ...), one row
        per kind made, with 95% intervals that allow for the decisions of one game being
        correlated (``stats.clustered_rate``; the design effect is about 3-4 for singles and
        pairs): ``rate, ci_low, ci_high, n`` (decisions), ``effective_n`` and ``clustered``.
        A run folder written before the per-game counts (no ``kind_games`` table) gets the
        independent intervals, ``clustered`` False."""
        counts = self.table("play_kinds").groupby("kind")["plays"].sum()
        total = int(counts.sum())
        clusters = None
        if "kind_games" in self.table_names:
            # one row per kind (and per rotation of a rotated run: summed here)
            clusters = self.table("kind_games").groupby("kind")[
                ["squares", "cross", "decision_squares"]
            ].sum()
        rows = {}
        for kind in KIND_NAMES:
            if kind not in counts.index:
                continue
            sums = (None, None, None)
            if clusters is not None:
                cell = clusters.loc[kind]
                sums = (float(cell["squares"]), float(cell["decision_squares"]),
                        float(cell["cross"]))  # fmt: skip
            rows[kind] = clustered_row(int(counts[kind]), total, *sums, self.games_played)
        table = pd.DataFrame(rows).T
        table.index.name = "kind"
        return table.astype({"n": np.int64, "clustered": bool})

    def leads(self) -> pd.DataFrame:
        """Share of tricks led with each kind of play, with 95% intervals."""
        # Counted as independent tricks: the design effect of each kind's share measured
        # from per-game sums (20,000 games, seed 7) is at most 1.04 with the default and the
        # random lineups, so the tricks of one game are as good as independent here.
        # one row per kind (and per rotation of a rotated run: summed here)
        leads = self.table("leads").groupby("kind", sort=False)["leads"].sum()
        return rate_table(leads, pd.Series(int(leads.sum()), index=leads.index))

    def round_length(self) -> pd.DataFrame:
        """Decisions (plays and passes) and tricks per round: mean (95% CI), percentiles."""
        rows = {
            "decisions": histogram_summary(self.table("turns").set_index("turns")["games"]),
            "tricks": histogram_summary(self.table("tricks").set_index("tricks")["games"]),
        }
        if self.rules().is_match:
            rows["rounds per game"] = histogram_summary(
                self.table("rounds").set_index("rounds")["games"]
            )
        return pd.DataFrame(rows).T

    def metrics(self) -> dict[str, float]:
        """Win rates plus the first player's rate, cards left by seat and round length."""
        values = super().metrics()
        add_rate(values, "opener_first_out", self.first_player().iloc[0])
        for seat, row in self.cards_left().iterrows():
            values[f"seat{seat}_cards_left_mean"] = row["mean"]
            values[f"seat{seat}_cards_left_ci_low"] = row["ci_low"]
            values[f"seat{seat}_cards_left_ci_high"] = row["ci_high"]
        for name, row in self.round_length().iterrows():
            key = name.replace(" ", "_")
            values[f"{key}_mean"] = row["mean"]
        return values

    def summary(self) -> str:
        """Headline figures: first player, cards left by seat, play kinds, round length."""
        lines = [super().summary()]
        first = self.first_player().iloc[0]
        lines += ["", f"The first trick's leader goes out first (fair share "
                      f"{100 / self.players:.1f}%): "
                  + format_rate(first.rate, first.ci_low, first.ci_high, int(first.n))]
        lines += ["", "Cards left at the end of a round (mean [95% CI]):"]
        for seat, row in self.cards_left().iterrows():
            lines.append(f"  seat {seat}: {row['mean']:.2f} [{row.ci_low:.2f}, "
                         f"{row.ci_high:.2f}] (n={int(row.n):,})")
        kinds = self.decision_kinds()
        note = interval_note("decisions", bool(kinds["clustered"].all()))
        lines += ["", f"Decisions by kind, all seats ({note}):"]
        for kind, share in kinds.iterrows():
            lines.append(f"  {kind:<15} " + format_clustered(share, self.games_played))
        lines += length_lines(self.round_length())
        return "\n".join(lines)
