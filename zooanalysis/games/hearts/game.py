"""Hearts as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.hearts.batch import HeartsBatch, make_batch
from zooanalysis.games.hearts.counts import (
    GAME_POINT_OFFSET,
    HAND_POINT_OFFSET,
    HANDS_BINS,
)
from zooanalysis.games.hearts.engine import END_REASONS
from zooanalysis.games.hearts.rules import (
    DIRECTION_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    HeartsSettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.hearts.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class HeartsGame(Game):
    """Hearts: avoid hearts and the Queen of Spades, or take them all."""

    name = "hearts"
    title = "Hearts"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "bold:keep_spades=8,moon_at=3.38*4"
    histogram_tops = MappingProxyType({"hands": HANDS_BINS - 1})
    exhibit = "zooanalysis.games.hearts.exhibit"
    """The Through the Zoo exhibit module (``play_exhibit``, ``exhibit_round``)."""

    def settings_from_table(self, table: Mapping[str, Any]) -> HeartsSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: HeartsSettings) -> None:
        """Reject settings no game can be played with."""
        validate(settings)

    def settings_dict(self, settings: HeartsSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: HeartsSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> HeartsBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: HeartsSettings | None, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats (game and hand points, moons, the Queen), hand scores, the
        Queen's fate, passing directions, game length and the trajectory tables."""
        return result_tables(totals, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """Fewer points finish ahead."""
        return -result["row_points"].astype(np.int64)

    def report_sections(self, run) -> list:
        """Moons, points by seat, the Queen's fate, seat balance per hand."""
        from zooanalysis.games.hearts.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`HeartsRun`."""
        from zooanalysis.games.hearts.analysis import HeartsRun

        return HeartsRun


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed counts into long, self-describing DataFrames (seats from 0;
    the analyses number them from 1). The ``hands`` histogram's top bin holds 1000+."""
    fate = totals["queen_fate"]
    seats = seat_table(
        totals,
        labels,
        hands=int(totals["hands"][0]),
        hand_points_sum=totals["hand_points_sum"],
        hand_points_squares=totals["hand_points_squares"],
        moons=totals["moons"],
        queen_held=fate.sum(axis=1),
        queen_taken=fate.sum(axis=0),
        queen_kept=np.diag(fate),
        queen_holder_points=totals["queen_holder_points"],
        queen_holder_squares=totals["queen_holder_squares"],
        queen_passed=totals["queen_passed"],
        first_leads=totals["first_leads"],
    )
    hand_points = nonzero_cells(totals["hand_points_hist"], ["seat", "points"], "hands")
    hand_points["points"] -= HAND_POINT_OFFSET
    points = nonzero_cells(totals["points_hist"], ["seat", "points"], "games")
    points["points"] -= GAME_POINT_OFFSET
    queen_fate = nonzero_cells(fate, ["holder", "taker"], "hands")
    queen_trick = histogram(totals["queen_trick"], "trick").rename(columns={"games": "hands"})
    direction_rows = []
    for direction, name in enumerate(DIRECTION_NAMES):
        hands = int(totals["direction_hands"][direction])
        if hands == 0:
            continue
        for seat in range(len(labels)):
            direction_rows.append(
                {
                    "direction": name,
                    "seat": seat,
                    "hands": hands,
                    "points_sum": int(totals["direction_points"][direction, seat]),
                    "points_squares": int(totals["direction_squares"][direction, seat]),
                }
            )
    ends = totals["end_reasons"]
    return {
        "seats": seats,
        "points": points,
        "hand_points": hand_points,
        "queen_fate": queen_fate,
        "queen_trick": queen_trick,
        "directions": pd.DataFrame(
            direction_rows, columns=["direction", "seat", "hands", "points_sum", "points_squares"]
        ),
        "hands": histogram(totals["hands_hist"], "hands"),
        "end_reasons": pd.DataFrame({"reason": list(END_REASONS), "games": ends}),
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
    }


GAME = HeartsGame()
