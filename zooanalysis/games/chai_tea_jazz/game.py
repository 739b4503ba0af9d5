"""Chai Tea Jazz as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.chai_tea_jazz.batch import ChaiBatch, make_batch
from zooanalysis.games.chai_tea_jazz.counts import (
    EVAL_FIELDS,
    EVAL_SCALE,
    GP_OFFSET,
    ROUND_BINS,
    SCORE_OFFSET,
)
from zooanalysis.games.chai_tea_jazz.engine import HOW_NAMES
from zooanalysis.games.chai_tea_jazz.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    ChaiSettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.chai_tea_jazz.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table


class ChaiGame(Game):
    """Chai Tea Jazz (Cepil, Reiner, Ross, Pieraccioli): every player plays every contract,
    and players compare how well they did contract by contract."""

    name = "chai-tea-jazz"
    title = "Chai Tea Jazz"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    player_counts = PLAYER_COUNTS
    default_lineup = "tracker,tracker,tracker"
    histogram_tops = MappingProxyType({"rounds": ROUND_BINS - 1, "points": GP_OFFSET})

    def settings_from_table(self, table: Mapping[str, Any]) -> ChaiSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: ChaiSettings) -> None:
        """Reject settings no game can be played with for the player count (2, 3, 4, 6)."""
        validate(settings)

    def settings_dict(self, settings: ChaiSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: ChaiSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> ChaiBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: ChaiSettings | None, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, game points, contracts by seat, ways, Bet Debt, scores,
        positions, the early end and the trajectory tables."""
        settings = settings if settings is not None else ChaiSettings(players=len(lineup))
        return result_tables(totals, settings, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """The standing that decided each game (game points, then who finished first)."""
        return result["row_standing"].astype(np.int64)

    def report_sections(self, run) -> list:
        """Contracts, picking and Bet Debt, the Barrel and the early end, hand evaluation."""
        from zooanalysis.games.chai_tea_jazz.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`ChaiRun`."""
        from zooanalysis.games.chai_tea_jazz.analysis import ChaiRun

        return ChaiRun


def result_tables(
    totals: BatchResult, settings: ChaiSettings, labels: list[str]
) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed counts into long, self-describing DataFrames (seats and
    positions from 0; ``contract`` is a row of the pad, named; ``team`` in ``seats`` is the
    seat's side, whose players win together)."""
    players = len(labels)
    names = [contract.name for contract in settings.contracts]
    values = [contract.value for contract in settings.contracts]
    extra = {
        key: totals[key]
        for key in ("picks", "raises", "passes", "offers_made", "offers_taken", "offers_declined")
    }
    extra["declared"] = totals["declared"].sum(axis=1)
    extra["team"] = np.array([settings.side_of(seat) for seat in range(players)], dtype=np.int64)
    extra["declared_score"] = totals["declared_score"].sum(axis=1)
    extra["declared_score_squares"] = totals["declared_score_squares"].sum(axis=1)
    seats = seat_table(totals, labels, **extra)
    seat, row = np.meshgrid(np.arange(players), np.arange(len(names)), indexing="ij")
    contracts = pd.DataFrame(
        {
            "seat": seat.ravel(),
            "row": row.ravel(),
            "contract": np.array(names, dtype=object)[row.ravel()],
            "value": np.array(values, dtype=np.int64)[row.ravel()],
            "declared": totals["declared"].ravel(),
            "score_sum": totals["declared_score"].ravel(),
            "score_squares": totals["declared_score_squares"].ravel(),
            "gross_sum": totals["declared_gross"].ravel(),
            "gross_squares": totals["declared_gross_squares"].ravel(),
            "game_points_sum": totals["contract_points"].ravel(),
            "game_points_squares": totals["contract_points_squares"].ravel(),
            "first_picks": totals["first_picks"].ravel(),
            **{how: totals["how"][:, :, i].ravel() for i, how in enumerate(HOW_NAMES)},
        }
    )
    seat_of, option_of = np.nonzero(totals["option_rounds"])
    options = pd.DataFrame(
        {
            "seat": seat_of.astype(np.int64),
            "option": option_of.astype(np.int64),
            "contract": [names[settings.options[o].row] for o in option_of],
            "way": [settings.options[o].way.label for o in option_of],
            "rounds": totals["option_rounds"][seat_of, option_of],
            "score_sum": totals["option_score"][seat_of, option_of],
            "score_squares": totals["option_score_squares"][seat_of, option_of],
        }
    )
    row_of, debt_of = np.nonzero(totals["debt_rounds"] + totals["debt_row_entries"])
    debts = pd.DataFrame(
        {
            "row": row_of.astype(np.int64),
            "contract": np.array(names, dtype=object)[row_of],
            "debt": debt_of.astype(np.int64),
            **{
                name: totals[key][row_of, debt_of]
                for name, key in (
                    ("rounds", "debt_rounds"),
                    ("score_sum", "debt_score"),
                    ("score_squares", "debt_score_squares"),
                    ("gross_sum", "debt_gross"),
                    ("gross_squares", "debt_gross_squares"),
                    ("row_entries", "debt_row_entries"),
                    ("game_points_sum", "debt_row_points"),
                    ("game_points_squares", "debt_row_points_squares"),
                )
            },
        }
    )
    scores = nonzero_cells(totals["score_hist"], ["row", "score"], "rounds")
    scores["score"] -= SCORE_OFFSET
    scores.insert(1, "contract", np.array(names, dtype=object)[scores["row"].to_numpy()])
    tricks = nonzero_cells(totals["declared_tricks"], ["row", "tricks"], "rounds")
    tricks.insert(1, "contract", np.array(names, dtype=object)[tricks["row"].to_numpy()])
    rounds = nonzero_cells(totals["contract_round"], ["row", "round"], "rounds")
    rounds.insert(1, "contract", np.array(names, dtype=object)[rounds["row"].to_numpy()])
    points = nonzero_cells(totals["points_hist"], ["seat", "points"], "games")
    points["points"] -= GP_OFFSET
    evaluation = pd.DataFrame(totals["evaluation"], columns=list(EVAL_FIELDS))
    for column, units in (("value", EVAL_SCALE), ("value_squares", EVAL_SCALE**2),
                          ("products", EVAL_SCALE)):  # fmt: skip
        evaluation[column] = evaluation[column] / units
    evaluation.insert(0, "contract", names)
    evaluation.insert(0, "row", np.arange(len(names)))
    positions = pd.DataFrame(
        {
            "position": np.arange(players),
            "rounds": totals["position_rounds"],
            "score_sum": totals["position_score"],
            "score_squares": totals["position_score_squares"],
        }
    )
    margin_points = histogram(totals["margin_hist"], "margin")
    margin_points["margin"] -= GP_OFFSET
    certain = totals["certain_hist"]
    rounds_total = settings.rounds
    ends = pd.DataFrame(
        {
            "games": [int(totals["games"][0])],
            "rounds_per_game": [rounds_total],
            "tie_breaks": [int(totals["tie_breaks"][0])],
            "match_declaring": [int(totals["match"][0])],
            "match_defending": [int(totals["match"][1])],
        }
    )
    return {
        "seats": seats,
        "points": points,
        "contracts": contracts,
        "options": options,
        "debts": debts,
        "scores": scores,
        "declared_tricks": tricks,
        "contract_rounds": rounds,
        "positions": positions,
        "bids": histogram(totals["bids_hist"], "picks").rename(columns={"games": "rounds"}),
        "offers": histogram(totals["offer_hist"], "offer").rename(columns={"games": "rounds"}),
        "certain": histogram(certain, "rounds"),
        "rounds": histogram(totals["game_rounds_hist"], "rounds"),
        "game_ends": ends,
        "evaluation": evaluation,
        "margin_points": margin_points,
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        **outcome_tables(totals),
    }


GAME = ChaiGame()
