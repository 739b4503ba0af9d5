"""Hodge Podge Dodgeball as a registered game: settings, kernel batches, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.dodgeball.batch import DodgeballBatch, make_batch
from zooanalysis.games.dodgeball.counts import SEAT_EVENTS
from zooanalysis.games.dodgeball.rules import (
    END_REASONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    SEATS,
    TEAMS,
    DodgeballSettings,
    seat_names,
    settings_from_table,
    team_names,
    validate,
)
from zooanalysis.games.dodgeball.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class DodgeballGame(Game):
    """Hodge Podge Dodgeball (Zoo and More): must-not-follow partnership trick-avoidance."""

    name = "dodgeball"
    title = "Hodge Podge Dodgeball"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    player_counts = PLAYER_COUNTS
    default_lineup = "coach,coach,coach,coach"
    exhibit = "zooanalysis.games.dodgeball.exhibit"
    """Through the Zoo plays one round of it as an exhibit (``exhibit.py``)."""

    def settings_from_table(self, table: Mapping[str, Any]) -> DodgeballSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: DodgeballSettings) -> None:
        """Reject settings no game can be played with (e.g. 3 players)."""
        validate(settings)

    def settings_dict(self, settings: DodgeballSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: DodgeballSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> DodgeballBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: DodgeballSettings, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, teams, match length, how rounds end, hits/blocks/catches,
        timeouts, All-Stars, start balance, trajectories."""
        return result_tables(totals, [player.label for player in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(matches, wins per player) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """A player's standing is the rounds its team won (the winning team has more)."""
        return result["row_points"].astype(np.int64)

    def run_class(self) -> type:
        """Runs of this game load as :class:`DodgeballRun`."""
        from zooanalysis.games.dodgeball.analysis import DodgeballRun

        return DodgeballRun

    def report_sections(self, run) -> list:
        """How rounds end, hits/blocks/catches, timeouts and All-Stars, match and team
        balance."""
        from zooanalysis.games.dodgeball.report import report_sections

        return report_sections(run)


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed count arrays into long, self-describing DataFrames.

    One game is a whole match. ``seats`` has one row per player (``wins``: matches its team
    won; with 4 players the partners are two tied winners, so ``sole_wins`` is 0 and each
    partner's win share is one half; ``points_*``: rounds its team won). ``win_ties`` and
    ``margins`` (in rounds) are the shared outcome tables. Round-level tables use the four
    seats at the table (0-3, in play order; in the 2-player game seats 2 and 3 are the
    dummies) and teams 0 (seats 0, 2) and 1 (seats 1, 3). Top bins hold "that many or
    more"."""
    players = len(labels)
    seats = seat_table(totals, labels, team=np.arange(players) % TEAMS)
    team_labels = [
        " & ".join(label for seat, label in enumerate(labels) if seat % TEAMS == team)
        for team in range(TEAMS)
    ]
    teams = pd.DataFrame(
        {
            "team": np.arange(TEAMS),
            "name": team_names(players),
            "strategies": team_labels,
            "games": int(totals["games"][0]),
            "wins": totals["team_wins"],
        }
    )
    ends = nonzero_cells(totals["round_ends"], ["seat", "reason", "position", "tricks"], "rounds")
    ends["reason"] = pd.Categorical.from_codes(ends["reason"], list(END_REASONS))
    events = pd.concat(
        [
            histogram(totals[f"{name}_hist"], "per_round").assign(event=name)
            for name in ("hits", "blocks", "catches")
        ],
        ignore_index=True,
    ).rename(columns={"games": "rounds"})[["event", "per_round", "rounds"]]
    seat_events = pd.DataFrame(totals["seat_events"], columns=list(SEAT_EVENTS))
    seat_events.insert(0, "seat", np.arange(SEATS))
    seat_events.insert(1, "name", seat_names(players))
    timeouts = _won_lost(totals["timeout_rounds"], "called")
    allstars = _won_lost(totals["allstar_rounds"], "played")
    starts = nonzero_cells(
        totals["round_starts"], ["round", "start_seat", "winner_team"], "rounds"
    )
    tricks = histogram(totals["match_tricks_hist"], "tricks")
    return {
        "seats": seats,
        "teams": teams,
        "rounds": histogram(totals["rounds_hist"], "rounds"),
        "tricks": tricks,
        "round_ends": ends,
        "round_events": events,
        "seat_events": seat_events,
        "timeouts": timeouts,
        "allstars": allstars,
        "round_starts": starts,
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
    }


def _won_lost(counts: np.ndarray, used: str) -> pd.DataFrame:
    """A (team, used, won) count array as rows team, ``used``, rounds_won, rounds_lost."""
    team, uses = np.meshgrid(np.arange(counts.shape[0]), np.arange(counts.shape[1]),
                             indexing="ij")
    table = pd.DataFrame(
        {
            "team": team.ravel(),
            used: uses.ravel(),
            "rounds_won": counts[:, :, 1].ravel(),
            "rounds_lost": counts[:, :, 0].ravel(),
        }
    )
    return table[(table["rounds_won"] + table["rounds_lost"]) > 0].reset_index(drop=True)

GAME = DodgeballGame()
