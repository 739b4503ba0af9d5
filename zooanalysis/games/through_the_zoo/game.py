"""Through the Zoo as a registered game: settings, kernel batches, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.through_the_zoo.batch import ThroughTheZooBatch, make_batch
from zooanalysis.games.through_the_zoo.counts import META, order_of_index
from zooanalysis.games.through_the_zoo.engine import exhibit_slots
from zooanalysis.games.through_the_zoo.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TIE_SCALE,
    ThroughTheZooSettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.through_the_zoo.strategies import STRATEGIES
from zooanalysis.outcome import share_unit
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class ThroughTheZooGame(Game):
    """Through the Zoo (Zoo and More): four rounds, each a different standard-deck game."""

    name = "through-the-zoo"
    title = "Through the Zoo"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "planner,planner,planner,planner"

    def settings_from_table(self, table: Mapping[str, Any]) -> ThroughTheZooSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: ThroughTheZooSettings) -> None:
        """Reject settings no game can be played with, including exhibits that cannot be
        played by this many players (Dodgeball: only 4) or are not simulated (Numberwang)."""
        validate(settings)
        exhibit_slots(settings)

    def settings_dict(self, settings: ThroughTheZooSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: ThroughTheZooSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> ThroughTheZooBatch:
        """The kernel batch for these settings and mulligan players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: ThroughTheZooSettings, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, game points, rounds by exhibit and seat, mulligans,
        Diamonds and meta scoring, exhibit orders, each exhibit's part of the lead."""
        exhibits = list(settings.exhibit_cards) if settings is not None else []
        return result_tables(totals, [player.label for player in lineup], exhibits)

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per player) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """The final standing: game points, then the last round (``rules.final_standing``)."""
        return result["row_standing"].astype(np.int64)

    def run_class(self) -> type:
        """Runs of this game load as :class:`ThroughTheZooRun`."""
        from zooanalysis.games.through_the_zoo.analysis import ThroughTheZooRun

        return ThroughTheZooRun

    def report_sections(self, run) -> list:
        """Exhibits, seats and the start player, mulligans, orders, Johannesburg."""
        from zooanalysis.games.through_the_zoo.report import report_sections

        return report_sections(run)


def _name(exhibits: list[str], slot: int) -> str:
    if slot == META:
        return "meta scoring"
    return f"{slot + 1}: {exhibits[slot]}" if slot < len(exhibits) else f"slot {slot + 1}"


def result_tables(
    totals: BatchResult, labels: list[str], exhibits: list[str]
) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed count arrays into long, self-describing DataFrames.

    ``slot`` is an Exhibit card as listed in the settings (``exhibit`` is ``"n: name"``,
    n from 1, so two cards of one game stay apart); ``round`` and ``seat`` count from 0;
    ``offset`` is a seat's place after the round's start player (0 = the start player).
    Game points are whole numbers; top bins hold "that many or more"."""
    players = len(labels)
    seats = seat_table(totals, labels)
    rounds = nonzero_cells(totals["round_points"], ["slot", "round", "offset", "points"],
                           "count")
    rounds.insert(1, "exhibit", [_name(exhibits, slot) for slot in rounds["slot"]])
    rounds["seat"] = 0
    games = int(totals["games"][0])
    unit = share_unit(players)
    order_rows = []
    rounds_count = len(exhibits) if exhibits else 4
    for index in np.nonzero(totals["order_games"])[0]:
        order = order_of_index(int(index), rounds_count)
        for seat in range(players):
            order_rows.append({
                "order": int(index),
                "exhibits": " > ".join(_name(exhibits, slot) for slot in order),
                "seat": seat,
                "games": int(totals["order_games"][index]),
                "share_sum": totals["order_share_units"][index, seat] / unit,
            })
    orders = pd.DataFrame(order_rows, columns=["order", "exhibits", "seat", "games",
                                               "share_sum"])
    parts = [slot for slot in range(len(exhibits))] + [META]
    leads = pd.DataFrame({
        "part": [_name(exhibits, slot) for slot in parts],
        "lead_sum": [int(totals["lead_sum"][slot]) for slot in parts],
        "lead_squares": [int(totals["lead_squares"][slot]) for slot in parts],
        "games": int(totals["lead_games"][0]),
        "players": players,
    })
    return {
        "seats": seats,
        "game_points": nonzero_cells(totals["game_points_hist"], ["seat", "points"], "games"),
        "round_points": rounds.drop(columns="seat"),
        "meta_points": nonzero_cells(totals["meta_points"], ["seat", "points"], "games"),
        "mulligans": nonzero_cells(totals["mulligans"], ["round", "seat", "cards"], "count"),
        "diamonds": nonzero_cells(totals["diamonds"], ["seat", "diamonds"], "games"),
        "orders": orders,
        "leads": leads,
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
        "totals": pd.DataFrame({"games": [games], "tie_scale": [TIE_SCALE]}),
    }


GAME = ThroughTheZooGame()
