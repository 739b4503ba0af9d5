"""Short Zoot Suit as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.cards.encoding import SUIT_LETTERS, rank_text
from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.short_zoot_suit.batch import ZootBatch, make_batch
from zooanalysis.games.short_zoot_suit.counts import (
    GAME_TRICK_BINS,
    GROUP_FIELDS,
    POINT_BINS,
    RANK_GROUPS,
)
from zooanalysis.games.short_zoot_suit.engine import END_REASONS, SOURCES
from zooanalysis.games.short_zoot_suit.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ZootSettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.short_zoot_suit.strategies import ACTION_NAMES, STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class ZootGame(Game):
    """Short Zoot Suit (Taylor Reiner): win as many tricks as you short."""

    name = "short-zoot-suit"
    title = "Short Zoot Suit"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "void,void,void,void"
    histogram_tops = MappingProxyType(
        {"game_tricks": GAME_TRICK_BINS - 1, "points": POINT_BINS - 1}
    )

    def settings_from_table(self, table: Mapping[str, Any]) -> ZootSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: ZootSettings) -> None:
        """Reject settings no game can be played with for the player count."""
        validate(settings)

    def settings_dict(self, settings: ZootSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: ZootSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> ZootBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: ZootSettings | None, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats (points by source, actions), rounds by tricks and shorts,
        round length and ends, the draw piles, positions and the trajectory tables."""
        return result_tables(totals, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """More points finish ahead."""
        return result["row_points"].astype(np.int64)

    def report_sections(self, run) -> list:
        """Points by source, tricks against shorts, the draw pile, round length and ends."""
        from zooanalysis.games.short_zoot_suit.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`ZootRun`."""
        from zooanalysis.games.short_zoot_suit.analysis import ZootRun

        return ZootRun


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed counts into long, self-describing DataFrames.

    Bins at the top hold "that many or more" (points 511+, tricks per game 1023+, high
    draw-pile cards 5+, lead changes 63+).
    """
    extra = {f"points_{name}": totals["points_from"][:, i] for i, name in enumerate(SOURCES)}
    extra |= {
        f"squares_{name}": totals["points_from_squares"][:, i] for i, name in enumerate(SOURCES)
    }
    extra["round_squares"] = totals["round_squares"]
    extra |= {f"actions_{name}": totals["actions"][:, i] for i, name in enumerate(ACTION_NAMES)}
    extra |= {
        f"empty_hand_{name}": totals["empty_hands"][:, i] for i, name in enumerate(END_REASONS)
    }
    seats = seat_table(totals, labels, **extra)
    round_scores = nonzero_cells(totals["round_ts"], ["seat", "tricks", "shorts"], "rounds")
    shorts_suits = nonzero_cells(totals["round_suits"], ["seat", "suits"], "rounds")
    players = len(labels)
    positions = pd.DataFrame(
        {
            "position": np.arange(players),
            "points_sum": totals["position_points"],
            "points_squares": totals["position_squares"],
        }
    )
    cards = np.nonzero(totals["pile_rounds"])
    faces = cards[1]
    pile_cards = pd.DataFrame(
        {
            "seat": cards[0].astype(np.int64),
            "card": [rank_text(face & 15) + SUIT_LETTERS[face >> 4] for face in faces],
            "suit": [SUIT_LETTERS[face >> 4] for face in faces],
            "rank": (faces & 15).astype(np.int64),
            "rounds": totals["pile_rounds"][cards],
            "drawn": totals["drawn"][cards],
            "points_sum": totals["pile_points"][cards],
            "points_squares": totals["pile_squares"][cards],
        }
    )
    groups = totals["pile_groups"]
    seats_of, group_of = np.nonzero(groups[:, :, 0])
    pile_groups = pd.DataFrame(
        {
            "seat": seats_of.astype(np.int64),
            "kind": np.where(group_of < RANK_GROUPS, "rank", "suit"),
            "value": [
                str(g) if g < RANK_GROUPS else SUIT_LETTERS[g - RANK_GROUPS] for g in group_of
            ],
            **{
                name: groups[seats_of, group_of, index]
                for index, name in enumerate(GROUP_FIELDS)
            },
        }
    )
    cells = np.nonzero(totals["profile_rounds"])
    pile_profiles = pd.DataFrame(
        {
            "seat": cells[0].astype(np.int64),
            "pile_suits": cells[1].astype(np.int64),
            "high_cards": cells[2].astype(np.int64),
            "voids_made": cells[3].astype(np.int64),
            "rounds": totals["profile_rounds"][cells],
            "points_sum": totals["profile_points"][cells],
            "points_squares": totals["profile_squares"][cells],
        }
    )
    points = nonzero_cells(totals["points_hist"], ["seat", "points"]).rename(
        columns={"count": "games"}
    )
    empties = totals["empties_hist"]
    ranks = np.nonzero(totals["pile_rank_squares"])[0]
    return {
        "seats": seats,
        "points": points,
        "round_scores": round_scores,
        "shorts_suits": shorts_suits,
        "positions": positions,
        "round_tricks": histogram(totals["round_tricks_hist"], "tricks"),
        "game_tricks": histogram(totals["game_tricks_hist"], "tricks"),
        "round_ends": pd.DataFrame(
            {"empty_hands": np.arange(1, len(empties)), "rounds": empties[1:]}
        ),
        "pile_cards": pile_cards,
        "pile_groups": pile_groups,
        "pile_profiles": pile_profiles,
        # per-game sums of squares, all seats: clustered intervals (stats.clustered_rate)
        "end_games": pd.DataFrame(
            {
                "reason": list(END_REASONS),
                "squares": totals["end_squares"],
                "cross": totals["end_cross"],
                "empty_squares": int(totals["empty_squares"][0]),
            }
        ),
        "drawn_games": pd.DataFrame(
            {
                "rank": ranks.astype(np.int64),
                "drawn_squares": totals["drawn_rank_squares"][ranks],
                "cross": totals["drawn_rank_cross"][ranks],
                "pile_squares": totals["pile_rank_squares"][ranks],
            }
        ),
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
    }


GAME = ZootGame()
