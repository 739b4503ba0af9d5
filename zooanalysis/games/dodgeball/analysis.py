"""Hodge Podge Dodgeball results: how rounds end, hits/blocks/catches, the value of the
timeout and the All-Star, match length, team and start balance.

Every rate comes with its 95% Wilson interval (``ci_low``, ``ci_high``) and ``n``; means
with a 95% normal interval. A game is a match; most analyses are per round.

The rounds of a match (2-3) are counted as independent: measured from the per-game counts of
20,000 matches (seed 7, four ``coach`` and four ``random``), the design effect (variance
clustered by match over that of independent rounds) of how rounds end (by seat, reason and
position), the start player's team winning the round and the share of rounds with a hit,
block or catch is 0.98-1.01, and of the round win rate with and without a timeout or an
All-Star 0.3-0.8 (the two teams of a round are one win and one loss). Only the round win
rate by team (:meth:`DodgeballRun.round_win_rates`, a report table) reached 1.06 with four
``coach``; its table says so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.dodgeball.rules import END_REASONS, TEAMS, seat_names, team_names
from zooanalysis.results import Run, add_rate, histogram_mean, histogram_summary, length_lines
from zooanalysis.stats import format_rate, rate_table, two_proportion_test


class DodgeballRun(Run):
    """A Hodge Podge Dodgeball run (one game = one match of rounds)."""

    @property
    def players(self) -> int:
        """2 (with dummy partners) or 4."""
        return len(self.lineup)

    @property
    def rounds_played(self) -> int:
        """Rounds played in all matches."""
        return int(self.table("round_ends")["rounds"].sum())

    # --- teams and balance -------------------------------------------------------------

    def team_win_rates(self) -> pd.DataFrame:
        """Match win rate of each team (seats 1 & 3, seats 2 & 4) with its strategies."""
        teams = self.table("teams").groupby(["team", "name", "strategies"], sort=False)[
            ["games", "wins"]
        ].sum()
        return teams.join(rate_table(teams["wins"], teams["games"]))

    def start_balance(self, by_round: bool = False) -> pd.DataFrame:
        """How often the team of the round's start player wins the round (overall, or by
        the round's number in the match; round 1 is always started by seat 1)."""
        starts = self.table("round_starts")
        starts["start_team_won"] = np.where(
            starts["start_seat"] % TEAMS == starts["winner_team"], starts["rounds"], 0
        )
        key = ["round"] if by_round else []
        if key:
            grouped = starts.groupby(key)[["start_team_won", "rounds"]].sum()
            grouped.index = grouped.index + 1
        else:
            grouped = pd.DataFrame(
                [starts[["start_team_won", "rounds"]].sum()], index=["all rounds"]
            )
        return grouped.join(rate_table(grouped["start_team_won"], grouped["rounds"]))

    def round_win_rates(self) -> pd.DataFrame:
        """Round win rate of each team (every round of every match)."""
        starts = self.table("round_starts")
        won = starts.groupby("winner_team")["rounds"].sum().reindex(range(TEAMS), fill_value=0)
        total = int(starts["rounds"].sum())
        table = rate_table(won, pd.Series(total, index=won.index))
        table.index = pd.Index(team_names(self.players), name="team")
        return table

    def match_length(self) -> pd.DataFrame:
        """Rounds and tricks per match: mean (95% CI), percentiles, maximum."""
        rows = {
            "rounds": histogram_summary(self.table("rounds").groupby("rounds")["games"].sum()),
            "tricks": histogram_summary(self.table("tricks").groupby("tricks")["games"].sum()),
        }
        return pd.DataFrame(rows).T

    # --- how rounds end ------------------------------------------------------------------

    def round_endings(self, by: str = "seat") -> pd.DataFrame:
        """Share of rounds ended by a player who could not play, by ``seat`` (which seat
        could not play), ``reason`` (empty hand or no new suit), ``position`` (in the
        trick, 1 = it was to lead) or ``seat_reason``; seats numbered from 1, as a person
        reads them (``name`` says which player or dummy sat there)."""
        ends = self.table("round_ends")
        total = int(ends["rounds"].sum())
        if by == "seat_reason":
            grouped = ends.groupby(["seat", "reason"], observed=True)["rounds"].sum()
        elif by in ("seat", "reason", "position"):
            grouped = ends.groupby(by, observed=True)["rounds"].sum()
        else:
            raise ValueError(f"by must be seat, reason, position or seat_reason, not {by!r}")
        table = rate_table(grouped, pd.Series(total, index=grouped.index))
        if by in ("seat", "seat_reason"):
            names = seat_names(self.players)
            seats = table.index.get_level_values("seat")
            table.insert(0, "name", [names[seat] for seat in seats])
            table = _seats_from_one(table)
        if by == "position":
            table.index = table.index + 1
        return table

    def tricks_per_round(self) -> pd.DataFrame:
        """Tricks completed before a round ended: summary, overall and by reason."""
        ends = self.table("round_ends")
        rows = {"all rounds": histogram_summary(ends.groupby("tricks")["rounds"].sum())}
        for reason in END_REASONS:
            part = ends[ends["reason"] == reason]
            if part["rounds"].sum() > 0:
                rows[reason] = histogram_summary(part.groupby("tricks")["rounds"].sum())
        return pd.DataFrame(rows).T

    def events_per_round(self) -> pd.DataFrame:
        """Mean hits, blocks and catches per round (95% CI), and the share of rounds with
        at least one."""
        events = self.table("round_events")
        rows = []
        for name in ("hits", "blocks", "catches"):
            histogram = events[events["event"] == name].groupby("per_round")["rounds"].sum()
            mean, low, high = histogram_mean(histogram)
            n = int(histogram.sum())
            some = int(histogram[histogram.index > 0].sum())
            share = rate_table([some], [n]).iloc[0]
            rows.append(
                {"event": name, "mean": mean, "ci_low": low, "ci_high": high, "n": n,
                 "rounds_with_any": share.rate, "any_ci_low": share.ci_low,
                 "any_ci_high": share.ci_high}
            )
        return pd.DataFrame(rows).set_index("event")

    def seat_events(self) -> pd.DataFrame:
        """Per seat (numbered from 1): events per round played (hit, blocked, caught a ball,
        was caught, could not play, timeouts called and exchanges, All-Stars played)."""
        table = self.table("seat_events").groupby(["seat", "name"]).sum(numeric_only=True)
        return _seats_from_one(table / self.rounds_played)

    # --- the timeout and the All-Star ------------------------------------------------------

    def timeout_value(self) -> pd.DataFrame:
        """Round win rate of a team that called its timeout vs one that did not, with 95%
        intervals, the difference and a two-proportion p-value. An association, not a
        controlled experiment: teams call timeouts in the rounds they choose."""
        return self._use_value(self.table("timeouts"), "called")

    def allstar_value(self) -> pd.DataFrame:
        """Round win rate of a team that played an All-Star vs one that did not (same
        caveat: a team often plays it when it has no other card)."""
        return self._use_value(self.table("allstars"), "played")

    def _use_value(self, table: pd.DataFrame, used: str) -> pd.DataFrame:
        table = table.assign(used=table[used] > 0)
        rows = []
        for scope, part in [("all teams", table)] + [
            (name, table[table["team"] == team]) for team, name in
            enumerate(team_names(self.players))
        ]:
            grouped = part.groupby("used")[["rounds_won", "rounds_lost"]].sum()
            grouped = grouped.reindex([True, False], fill_value=0)
            won = grouped["rounds_won"]
            total = grouped["rounds_won"] + grouped["rounds_lost"]
            rates = rate_table(won, total)
            p_value = two_proportion_test(won[True], total[True], won[False], total[False])
            for flag, label in ((True, f"{used}"), (False, f"not {used}")):
                row = rates.loc[flag]
                rows.append(
                    {"scope": scope, "group": label, "rate": row.rate, "ci_low": row.ci_low,
                     "ci_high": row.ci_high, "n": int(row.n),
                     "difference": rates.loc[True, "rate"] - rates.loc[False, "rate"],
                     "p_value": p_value}
                )
        return pd.DataFrame(rows).set_index(["scope", "group"])

    # --- flat figures -----------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Win rates plus match length, round endings, events, timeout and All-Star value."""
        values = super().metrics()
        for team, row in self.team_win_rates().reset_index().iterrows():
            add_rate(values, f"team{team + 1}_win", row)
        for name, row in self.match_length().iterrows():
            values[f"{name}_per_match_mean"] = row["mean"]
            values[f"{name}_per_match_ci_low"] = row["ci_low"]
            values[f"{name}_per_match_ci_high"] = row["ci_high"]
        for reason, row in self.round_endings("reason").iterrows():
            add_rate(values, "end_" + str(reason).replace(" ", "_"), row)
        add_rate(values, "start_team_round_win", self.start_balance().iloc[0])
        for name, row in self.events_per_round().iterrows():
            values[f"{name}_per_round_mean"] = row["mean"]
            values[f"{name}_per_round_ci_low"] = row["ci_low"]
            values[f"{name}_per_round_ci_high"] = row["ci_high"]
        for prefix, table in (("timeout", self.timeout_value()),
                              ("allstar", self.allstar_value())):
            for group, row in table.loc["all teams"].iterrows():
                add_rate(values, f"{prefix}_{group.replace(' ', '_')}_round_win", row)
        return values

    def summary(self) -> str:
        """Headline figures: matches, teams, match length, endings, events, timeout and
        All-Star value, start balance."""
        lines = [super().summary()]
        lines += ["", "Match win rate by team:"]
        for (_, name, strategies), row in self.team_win_rates().iterrows():
            lines.append(
                f"  {name} ({strategies}):".ljust(40)
                + format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))
            )
        lines += length_lines(self.match_length())
        lines += ["", f"How rounds end ({self.rounds_played:,} rounds): the player who could "
                  "not play"]
        for (_seat, reason), row in self.round_endings("seat_reason").iterrows():
            lines.append(
                f"  {row['name']}, {reason}:".ljust(40)
                + format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))
            )
        tricks = self.tricks_per_round().loc["all rounds"]
        lines.append(
            f"  tricks before the end: mean {tricks['mean']:.2f} [{tricks.ci_low:.2f}, "
            f"{tricks.ci_high:.2f}], median {int(tricks['median'])}"
        )
        lines += ["", "Per round (mean [95% CI]; share of rounds with any, 95% CI; n = rounds):"]
        for name, row in self.events_per_round().iterrows():
            lines.append(event_line(str(name), row))
        lines += ["", "Round win rate of a team that used it vs not (association, not cause):"]
        for label, table in (("timeout", self.timeout_value()),
                             ("All-Star", self.allstar_value())):
            for group, row in table.loc["all teams"].iterrows():
                lines.append(
                    f"  {label} {group}:".ljust(40)
                    + format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))
                )
        start = self.start_balance().iloc[0]
        lines += [
            "",
            "Start player's team wins the round: "
            + format_rate(start.rate, start.ci_low, start.ci_high, int(start.n)),
        ]
        return "\n".join(lines)


def event_line(name: str, row: pd.Series) -> str:
    """A row of :meth:`DodgeballRun.events_per_round` as a summary line: the mean per round
    with its 95% interval, the share of rounds with any with its Wilson interval, and n."""
    share = format_rate(row.rounds_with_any, row.any_ci_low, row.any_ci_high, int(row.n))
    return f"  {name:<8} {row['mean']:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]; {share}"


def _seats_from_one(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its ``seat`` index level numbered from 1 (stored tables count from 0)."""
    if isinstance(table.index, pd.MultiIndex):
        position = table.index.names.index("seat")
        table.index = table.index.set_levels(table.index.levels[position] + 1, level="seat")
    else:
        table.index = table.index + 1
    return table
