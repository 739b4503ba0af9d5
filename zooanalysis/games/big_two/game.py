"""Big Two as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.big_two.batch import BigTwoBatch, make_batch
from zooanalysis.games.big_two.counts import PENALTY_BINS, ROUND_BINS, TRICK_BINS, TURN_BINS
from zooanalysis.games.big_two.rules import (
    KIND_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    BigTwoSettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.big_two.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class BigTwoGame(Game):
    """Big Two: shed your cards first, climbing with singles, pairs, triples and poker
    hands; 2s high, then aces."""

    name = "big-two"
    title = "Big Two"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "greedy:shed=0.187,hold_rank=8,danger=11*4"
    exhibit = "zooanalysis.games.big_two.exhibit"
    """Through the Zoo plays one round of Big Two from given hands through this module."""
    histogram_tops = MappingProxyType(
        {
            "turns": TURN_BINS - 1,
            "tricks": TRICK_BINS - 1,
            "rounds": ROUND_BINS - 1,
            "penalty": PENALTY_BINS - 1,
        }
    )

    def settings_from_table(self, table: Mapping[str, Any]) -> BigTwoSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: BigTwoSettings) -> None:
        """Reject settings no game can be played with for the player count."""
        validate(settings)

    def settings_dict(self, settings: BigTwoSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: BigTwoSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> BigTwoBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: BigTwoSettings | None, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, cards left, places, first player, play kinds, lengths."""
        return result_tables(totals, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """Fewer outcome points (cards left, places or penalty totals) finish ahead."""
        return -result["row_points"].astype(np.int64)

    def report_sections(self, run) -> list:
        """First player, cards left by seat, seat balance, play types."""
        from zooanalysis.games.big_two.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`BigTwoRun`."""
        from zooanalysis.games.big_two.analysis import BigTwoRun

        return BigTwoRun


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed counts into long, self-describing DataFrames (seats from 0;
    top bins hold "that many or more"). ``points_*`` in ``seats`` are penalty points."""
    players = len(labels)
    plays = totals["plays"]
    extra = {
        "rounds": np.full(players, int(totals["rounds"][0])),
        "opener_rounds": totals["opener_rounds"],
        "opener_firsts": totals["opener_firsts"],
        **{f"plays_{name}": plays[:, kind] for kind, name in enumerate(KIND_NAMES)},
    }
    counts = {**totals, "points_sum": totals["penalty_sum"],
              "points_squares": totals["penalty_squares"]}
    kinds = nonzero_cells(plays, ["seat", "kind"], "plays")
    kinds["kind"] = [KIND_NAMES[kind] for kind in kinds["kind"]]
    leads = pd.DataFrame({"kind": list(KIND_NAMES[1:]), "leads": totals["leads"][1:]})
    kind_games = pd.DataFrame(
        {
            "kind": list(KIND_NAMES),
            "plays": plays.sum(axis=0),
            "squares": totals["kind_squares"],
            "cross": totals["kind_cross"],
            "decision_squares": int(totals["decision_squares"][0]),
        }
    )
    return {
        "seats": seat_table(counts, labels, **extra),
        "cards_left": nonzero_cells(totals["cards_left"], ["seat", "cards"], "rounds"),
        "places": nonzero_cells(totals["places"], ["seat", "place"], "rounds"),
        "positions": pd.DataFrame(
            {
                "position": np.arange(players),
                "rounds": int(totals["rounds"][0]),
                "firsts": totals["position_firsts"],
                "cards_sum": totals["position_cards"],
            }
        ),
        "play_kinds": kinds,
        "leads": leads,
        # per-game sums of squares of the decisions by kind (all seats): clustered intervals
        "kind_games": kind_games,
        "penalty": nonzero_cells(totals["penalty_hist"], ["seat", "penalty"], "games"),
        "turns": histogram(totals["turns_hist"], "turns"),
        "tricks": histogram(totals["tricks_hist"], "tricks"),
        "rounds": histogram(totals["rounds_hist"], "rounds"),
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
    }


GAME = BigTwoGame()
