"""Bug House Millionaire as a registered game: settings, kernel batches, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.bug_house.batch import BugHouseBatch, make_batch
from zooanalysis.games.bug_house.counts import TIME_BINS, TRICK_BINS
from zooanalysis.games.bug_house.engine import END_REASONS, SEAT_FIELDS
from zooanalysis.games.bug_house.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TEAMS,
    BugHouseSettings,
    settings_from_table,
    team_names,
    validate,
)
from zooanalysis.games.bug_house.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class BugHouseGame(Game):
    """Bug House Millionaire (Zoo and More): two real-time climbing duels, partners pass."""

    name = "bug-house"
    title = "Bug House Millionaire"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "fast,fast,fast,fast"
    histogram_tops = MappingProxyType({"tricks": TRICK_BINS - 1, "end_seconds": TIME_BINS - 1})

    def settings_from_table(self, table: Mapping[str, Any]) -> BugHouseSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: BugHouseSettings) -> None:
        """Reject settings no game can be played with."""
        validate(settings)

    def settings_dict(self, settings: BugHouseSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: BugHouseSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> BugHouseBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: BugHouseSettings | None, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, teams, how and when games end, tricks, cards left, the
        Singles Allowed card, trajectories."""
        return result_tables(totals, [player.label for player in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """1 for the seats of the winning team, 0 for the others."""
        return result["row_points"].astype(np.int64)

    def run_class(self) -> type:
        """Runs of this game load as :class:`BugHouseRun`."""
        from zooanalysis.games.bug_house.analysis import BugHouseRun

        return BugHouseRun

    def report_sections(self, run) -> list:
        """How games end and when, teams and seats, partner passing, Delayed Singles."""
        from zooanalysis.games.bug_house.report import report_sections

        return report_sections(run)


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed counts into long, self-describing DataFrames.

    ``seats`` has one row per seat (index 0-3; team ``seat % 2``, duel ``seat // 2``;
    ``wins``: games its team won, the partners being two tied winners; the columns of
    ``engine.SEAT_FIELDS`` summed over games). ``ends``: the seat that shed out or whose
    clock ran out, by reason; ``end_seconds``: games by their length in whole seconds and
    reason. Top bins hold "that many or more"."""
    players = len(labels)
    extra = {name: totals["seat_counts"][:, i] for i, name in enumerate(SEAT_FIELDS)}
    # per-game sums of squares of gifts needed and cards given, the seat's and (repeated on
    # every row) all seats': clustered intervals of the gifts-needed share
    for name in ("gift_squares", "gift_cross", "given_squares"):
        extra[name] = totals[name][:players]
        extra[f"all_{name}"] = np.full(players, totals[name][players])
    seats = seat_table(totals, labels, team=np.arange(players) % TEAMS, **extra)
    team_labels = [
        " & ".join(label for seat, label in enumerate(labels) if seat % TEAMS == team)
        for team in range(TEAMS)
    ]
    teams = pd.DataFrame(
        {
            "team": np.arange(TEAMS),
            "name": team_names(),
            "strategies": team_labels,
            "games": int(totals["games"][0]),
            "wins": totals["team_wins"],
        }
    )
    ends = nonzero_cells(totals["ends"], ["seat", "reason"], "games")
    ends["reason"] = pd.Categorical.from_codes(ends["reason"], list(END_REASONS))
    seconds = nonzero_cells(totals["end_seconds"], ["reason", "seconds"], "games")
    seconds["reason"] = pd.Categorical.from_codes(seconds["reason"], list(END_REASONS))
    singles = nonzero_cells(totals["singles_card"], ["team", "took_card", "won"], "games")
    return {
        "seats": seats,
        "teams": teams,
        "ends": ends,
        "end_seconds": seconds,
        "tricks": histogram(totals["tricks_hist"], "tricks"),
        "cards_left": nonzero_cells(totals["cards_left"], ["seat", "cards"], "games"),
        "singles_card": singles,
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
    }


GAME = BugHouseGame()
