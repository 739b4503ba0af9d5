"""Does seat order matter? Answered only from play in which the seat is the only difference.

Three kinds of play isolate the seat:

- **rotated runs** (``--rotate-seats``) and **tournaments**: every strategy sat in every seat
  equally often, on the same deals, so each seat's win share pooled over the seatings
  differs from the fair share ``1/players`` only through seat order (:func:`against_fair`);
- **mirror matches** (every seat holds the same strategy): the same, within one run;
- **mirror seats** (two or more seats of a lineup hold the same strategy): their win shares
  differ only through seat order; they play the same games, so their difference is that of
  two cells of one multinomial draw (:func:`mirror_pairs`, ``stats.same_games_difference``).

In a team game (partners win together: ``Run.teams``) partners share one result, so they are
never compared with each other; a team's win share (:func:`team_shares`) is the unit that
compares with its fair share ``1/teams``.

Every other comparison of seats mixes seat order with strategy strength. Win shares split
ties (1/k for each of k tied winners); a seat is named only when the data separate it (Holm's
correction over the comparisons made, see ``separation``).
"""

from __future__ import annotations

import pandas as pd

from zooanalysis.separation import Estimate, against_reference
from zooanalysis.stats import holm, rate_table, same_games_difference, share_test

VERDICT_WORDS = {1: "more than the fair share", -1: "less than the fair share", 0: "no difference"}


def against_fair(seats: pd.DataFrame, fair: float) -> pd.DataFrame:
    """Each seat's win share against the fair share: ``seats`` (index: seat from 1; columns
    ``share, ci_low, ci_high, n``, as ``Run.win_rates("seat")``) with ``difference`` (share
    - fair, as a fraction), ``p_value`` (score test), ``p_holm`` and ``verdict`` (+1 / -1 / 0:
    measurably more, less, no measurable difference)."""
    table = seats.copy()
    table["fair_share"] = fair
    table["difference"] = table["share"] - fair
    table["p_value"] = [share_test(r.share, fair, r.n) for r in table.itertuples()]
    table["p_holm"] = holm(table["p_value"].to_numpy())
    estimates = [
        Estimate(str(seat), r.share, r.ci_low, r.ci_high) for seat, r in table.iterrows()
    ]
    table["verdict"] = against_reference(estimates, fair, table["p_value"].to_list())
    return table


def team_of(teams: list[tuple[int, ...]] | None) -> dict[int, int]:
    """Each seat's (from 1) team index; empty for a game of single players."""
    return {seat: index for index, team in enumerate(teams or []) for seat in team}


def team_name(team: tuple[int, ...]) -> str:
    """``1 & 3``: a team by its seats (from 1)."""
    return " & ".join(str(seat) for seat in team)


def team_shares(seats: pd.DataFrame, teams: list[tuple[int, ...]]) -> pd.DataFrame:
    """Each team's win share: its partners' shares summed (a game won by the team gives it 1,
    shared with another team 1/k for each of k teams), with its 95% Wilson interval over the
    games. ``seats`` as ``Run.win_rates("seat")`` (index: seat from 1; ``strategy, share,
    n``); the result is indexed by :func:`team_name` with ``strategy`` (the partners'
    strategies), ``share, ci_low, ci_high, n``, ready for :func:`against_fair` with the fair
    share ``1 / len(teams)``."""
    n = int(seats["n"].iloc[0])
    names = [team_name(team) for team in teams]
    shares = [float(sum(seats.loc[seat, "share"] for seat in team)) for team in teams]
    table = rate_table([share * n for share in shares], [n] * len(teams))
    table.index = pd.Index(names, name="team")
    table = table.rename(columns={"rate": "share"})
    table.insert(0, "strategy", [" & ".join(str(seats.loc[s, "strategy"]) for s in team)
                                 for team in teams])  # fmt: skip
    return table


def mirror_groups(
    lineup: list[str], teams: list[tuple[int, ...]] | None = None
) -> dict[str, list[int]]:
    """Strategies that hold two or more seats of the lineup, with their seats (from 1). In a
    team game (``Run.teams``) only strategies that hold seats in two or more teams: partners
    share one result, so comparing them tells nothing about seat order."""
    seats: dict[str, list[int]] = {}
    for seat, label in enumerate(lineup, start=1):
        seats.setdefault(label, []).append(seat)
    team = team_of(teams)
    return {
        label: found
        for label, found in seats.items()
        if len(found) > 1 and len({team.get(seat, seat) for seat in found}) > 1
    }


def mirror_pairs(
    seats: pd.DataFrame, lineup: list[str], teams: list[tuple[int, ...]] | None = None
) -> pd.DataFrame:
    """Every pair of seats holding the same strategy (in a team game, in different teams):
    the difference of their win shares (first - second) with its 95% interval and p-value
    for two cells of one multinomial draw per game, Holm's adjusted p over all the pairs,
    and ``verdict`` (+1: the first seat wins measurably more, -1: less, 0: no measurable
    difference)."""
    rows = []
    team = team_of(teams)
    for label, group in mirror_groups(lineup, teams).items():
        for index, first in enumerate(group):
            for second in group[index + 1 :]:
                if team and team[first] == team[second]:
                    continue  # partners: one result, nothing to compare
                a, b = seats.loc[first], seats.loc[second]
                difference, low, high, p = same_games_difference(a.share, b.share, a.n)
                rows.append(
                    {
                        "strategy": label,
                        "seat": first,
                        "versus_seat": second,
                        "share": a.share,
                        "versus_share": b.share,
                        "difference": difference,
                        "ci_low": low,
                        "ci_high": high,
                        "n": int(a.n),
                        "p_value": p,
                    }
                )
    columns = [
        "strategy", "seat", "versus_seat", "share", "versus_share", "difference", "ci_low",
        "ci_high", "n", "p_value", "p_holm", "verdict",
    ]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns)
    if len(table):
        table["p_holm"] = holm(table["p_value"].to_numpy())
        sign = (table["difference"] > 0).astype(int) * 2 - 1
        table["verdict"] = (sign * (table["p_holm"] < 0.05)).astype(int)
    return table
