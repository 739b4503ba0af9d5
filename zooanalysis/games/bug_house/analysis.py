"""Bug House Millionaire results: how and when games end, team and seat balance (start
players included), partner passing, the Singles Allowed card.

Every rate comes with its 95% Wilson interval (``ci_low``, ``ci_high``) and ``n``; means of
histograms with a 95% normal interval. Seats are numbered from 1 here (seat 1 and seat 4
are the start players; team 1 = seats 1 & 3, team 2 = seats 2 & 4).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.cluster_rates import clustered_row
from zooanalysis.games.bug_house.engine import END_REASONS
from zooanalysis.games.bug_house.rules import START_SEATS
from zooanalysis.results import Run, add_rate, histogram_summary, length_lines, one_or_rotated
from zooanalysis.stats import format_rate, rate_table, two_proportion_test


class BugHouseRun(Run):
    """A Bug House Millionaire run (one game = one deal played to its end)."""

    # --- teams and seats -----------------------------------------------------------------

    def team_win_rates(self) -> pd.DataFrame:
        """Win rate of each team with its strategies."""
        teams = self.table("teams").groupby(["team", "name", "strategies"], sort=False)[
            ["games", "wins"]
        ].sum()
        return teams.join(rate_table(teams["wins"], teams["games"]))

    def endings(self, by: str = "reason") -> pd.DataFrame:
        """Share of games ended by ``reason`` (shed out / clock), by ``seat`` (the seat that
        shed out or whose clock ran out; from 1) or by ``seat_reason``."""
        ends = self.table("ends")
        total = self.games_played  # every seating's games in a rotated run
        if by == "reason":
            grouped = ends.groupby("reason", observed=False)["games"].sum()
            grouped = grouped.reindex(list(END_REASONS), fill_value=0)
        elif by == "seat":
            grouped = ends.groupby("seat")["games"].sum().reindex(range(4), fill_value=0)
        elif by == "seat_reason":
            index = pd.MultiIndex.from_product([range(4), list(END_REASONS)],
                                               names=["seat", "reason"])
            grouped = ends.groupby(["seat", "reason"], observed=False)["games"].sum()
            grouped = grouped.reindex(index, fill_value=0)
        else:
            raise ValueError(f"by must be reason, seat or seat_reason, not {by!r}")
        table = rate_table(grouped, pd.Series(total, index=grouped.index))
        if by != "reason":
            seats = table.index.get_level_values("seat") if by == "seat_reason" else table.index
            table.insert(0, "start_player", [seat in START_SEATS for seat in seats])
            if by == "seat":
                table.index = table.index + 1
                table.index.name = "seat"
            else:
                table.index = table.index.set_levels(table.index.levels[0] + 1, level=0)
        return table

    def start_players(self) -> pd.DataFrame:
        """Games ended by a start player (seats 1 and 4) against the other two, by reason:
        does leading first help a player shed out first, or cost it its clock?"""
        ends = self.table("ends")
        ends = ends.assign(start=ends["seat"].isin(START_SEATS))
        rows = {}
        for reason in END_REASONS:
            part = ends[ends["reason"] == reason]
            for start, label in ((True, "start players"), (False, "the other two")):
                rows[(reason, label)] = int(part.loc[part["start"] == start, "games"].sum())
        counts = pd.Series(rows)
        counts.index.names = ["reason", "seats"]
        return rate_table(counts, pd.Series(self.games_played, index=counts.index))

    # --- time -----------------------------------------------------------------------------

    def game_length(self) -> pd.DataFrame:
        """Game length in whole seconds (overall and by how it ended) and in tricks: mean
        (95% CI), percentiles, maximum, n."""
        seconds = self.table("end_seconds")
        rows = {"seconds": histogram_summary(seconds.groupby("seconds")["games"].sum())}
        for reason in END_REASONS:
            part = seconds[seconds["reason"] == reason]
            if part["games"].sum() > 0:
                rows[f"seconds, {reason}"] = histogram_summary(
                    part.groupby("seconds")["games"].sum()
                )
        tricks = self.table("tricks")
        rows["tricks"] = histogram_summary(tricks.set_index("tricks")["games"])
        return pd.DataFrame(rows).T

    def seat_activity(self) -> pd.DataFrame:
        """Per seat (from 1), averages per game: melds by kind, cards played, passes, tricks
        won, cards given and received, decisions, times stuck, seconds of clock used, and
        the share of its gifts the partner needed (95% interval allowing for the gifts of
        one game being correlated, ``gifts_clustered``; independent for a run folder
        written before the per-game counts)."""
        columns = ["singles", "pairs", "runs", "cards_played", "passes", "tricks_won",
                   "cards_given", "cards_received", "decisions", "stuck", "singles_card_taken"]
        stored = self.table("seats")
        # one row per seat (and per rotation of a rotated run: summed here)
        clustered = "gift_squares" in stored
        sums = ["gift_squares", "given_squares", "gift_cross"] if clustered else []
        seats = stored.groupby("seat")[
            [*columns, "games", "clock_used_ms", "gifts_needed", *sums]
        ].sum()
        seats["strategy"] = stored.groupby("seat")["strategy"].agg(one_or_rotated)
        games = seats["games"]
        table = seats[columns].div(games, axis=0)
        table["clock_used_seconds"] = seats["clock_used_ms"] / games / 1000
        needed = pd.DataFrame(
            {
                seat: clustered_row(
                    row["gifts_needed"], row["cards_given"],
                    *([float(row[name]) for name in sums] if clustered else [None] * 3),
                    self.games_played,
                )
                for seat, row in seats.iterrows()
            }
        ).T  # fmt: skip
        table["gifts_needed"] = needed["rate"]
        table["gifts_needed_ci_low"] = needed["ci_low"]
        table["gifts_needed_ci_high"] = needed["ci_high"]
        table["gifts_n"] = needed["n"].astype(np.int64)
        table["gifts_clustered"] = needed["clustered"].astype(bool)
        table.insert(0, "strategy", seats["strategy"])
        table.index = table.index + 1
        return table

    def gifts_needed(self) -> pd.Series:
        """The share of all seats' gifts the partner needed (``rate, ci_low, ci_high, n``
        = cards given, ``effective_n``, ``clustered``), its 95% interval allowing for the
        gifts of one game being correlated (design effect about 1.06 with four ``random``
        players); independent for a run folder written before the per-game counts."""
        seats = self.table("seats")
        sums = [None] * 3
        if "all_gift_squares" in seats:
            sums = [float(self.one_seat_total(f"all_{name}"))
                    for name in ("gift_squares", "given_squares", "gift_cross")]  # fmt: skip
        return clustered_row(int(seats["gifts_needed"].sum()), int(seats["cards_given"].sum()),
                             *sums, self.games_played)  # fmt: skip

    def singles_card_value(self) -> pd.DataFrame:
        """Delayed Singles: win rate of a team that took its Singles Allowed card against one
        that did not, with the difference and a two-proportion p-value (an association:
        teams take it when they choose)."""
        card = self.table("singles_card")
        grouped = card.groupby(["took_card", "won"])["games"].sum()
        won = pd.Series({took: int(grouped.get((took, 1), 0)) for took in (1, 0)})
        total = pd.Series({took: int(grouped.get((took, 0), 0)) + won[took] for took in (1, 0)})
        table = rate_table(won, total)
        table.index = pd.Index(["took the card", "did not"], name="team")
        table["p_value"] = two_proportion_test(won[1], total[1], won[0], total[0])
        return table

    # --- flat figures -----------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Win rates plus team wins, endings, game length, passing."""
        values = super().metrics()
        for team, row in self.team_win_rates().reset_index().iterrows():
            add_rate(values, f"team{team + 1}_win", row)
        for reason, row in self.endings("reason").iterrows():
            add_rate(values, f"end_{reason}", row)
        for name, row in self.game_length().iterrows():
            key = name.replace(", ", "_")
            values[f"{key}_mean"] = row["mean"]
            values[f"{key}_ci_low"] = row["ci_low"]
            values[f"{key}_ci_high"] = row["ci_high"]
        activity = self.seat_activity()
        values["cards_given_per_game"] = float(activity["cards_given"].sum())
        return values

    def summary(self) -> str:
        """Headline figures: teams, endings, game length, seats, passing."""
        lines = [super().summary()]
        lines += ["", "Win rate by team:"]
        for (_, name, strategies), row in self.team_win_rates().iterrows():
            lines.append(f"  {name} ({strategies}):".ljust(48) + _rate(row))
        lines += ["", "How games end:"]
        for reason, row in self.endings("reason").iterrows():
            lines.append(f"  {reason}:".ljust(48) + _rate(row))
        lines += ["", "Who ended the game (seats 1 and 4 start):"]
        for (seat, reason), row in self.endings("seat_reason").iterrows():
            if row.n and row.rate > 0:
                lines.append(f"  seat {seat}, {reason}:".ljust(48) + _rate(row))
        lines += length_lines(self.game_length())
        activity = self.seat_activity()
        lines += ["", "Per game, by seat: cards given to the partner, clock used (means over "
                      f"{self.games_played:,} games; point estimates: the run keeps no squares of "
                      "these counts):"]  # fmt: skip
        for seat, row in activity.iterrows():
            lines.append(
                f"  seat {seat} {row.strategy:<20} gave {row.cards_given:.2f}, "
                f"used {row.clock_used_seconds:.1f} s of the clock"
            )
        return "\n".join(lines)


def _rate(row) -> str:
    return format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))

