"""Zoology as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, outcome_tables, seat_table
from zooanalysis.errors import SettingsError
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.zoology.batch import ZoologyBatch, make_batch
from zooanalysis.games.zoology.counts import INFORMATION_SCALE, ROUND_BINS, TURN_BINS
from zooanalysis.games.zoology.engine import END_REASONS
from zooanalysis.games.zoology.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ZoologySettings,
    board_label,
    cells,
    settings_from_table,
    validate,
)
from zooanalysis.games.zoology.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec
from zooanalysis.trajectory import lead_changes_table, settled_table

TRIGGERS = ("correct_guess", "supply_empty")
PHASES = ("free", "second_chance")


class ZoologyGame(Game):
    """Zoology (2023): deduce the animal you hold but cannot see from the table's votes."""

    name = "zoology"
    title = "Zoology"
    strategies = STRATEGIES
    default_lineup = "curious:guess=0*4"
    histogram_tops = MappingProxyType({"rounds": ROUND_BINS - 1, "turns": TURN_BINS - 1})

    def settings_from_table(self, table: Mapping[str, Any]) -> ZoologySettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def settings_for_lineup(
        self, settings: ZoologySettings, lineup: list[PlayerSpec]
    ) -> ZoologySettings:
        """The settings with ``players`` set to the lineup's length, validated."""
        if settings.cooperative_grid:
            if len(lineup) != MAX_PLAYERS:
                raise SettingsError(
                    "players",
                    f"{len(lineup)} players: the cooperative grid needs {MAX_PLAYERS} "
                    "(a k-player cell uses the first k), e.g. team*6",
                )
        elif not MIN_PLAYERS <= len(lineup) <= MAX_PLAYERS:
            raise SettingsError(
                "players",
                f"{len(lineup)} players: Zoology is for {MIN_PLAYERS} to {MAX_PLAYERS} players",
            )
        adjusted = replace(settings, players=len(lineup))
        validate(adjusted)
        return adjusted

    def settings_dict(self, settings: ZoologySettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def batch_job(
        self, settings: ZoologySettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> ZoologyBatch:
        """The kernel batch for these settings and players."""
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: ZoologySettings | None, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, length, guesses, questions, animals, confusions and the
        cooperative cells (or lead changes and settling, competitive)."""
        return result_tables(totals, settings, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """More points finish ahead, and everyone who reached the points to win stands
        level (``row_standing``, ``engine.standings``); in the cooperative game (``success``
        0 or 1) every seat stands at the team's success."""
        standing = result["row_standing"].astype(np.int64)
        success = result["row_success"].astype(np.int64)[:, None]
        return np.where(success >= 0, success, standing)

    def row_wins(self, result: BatchResult) -> np.ndarray:
        """Competitive: the best standing wins (ties all win: everyone who reached the points
        to win in the last score change). Cooperative: everyone wins if the team succeeded,
        nobody otherwise."""
        standing = self.row_standings(result)
        success = result["row_success"].astype(np.int64)[:, None]
        best = standing == standing.max(axis=1, keepdims=True)
        return np.where(success >= 0, np.broadcast_to(success == 1, standing.shape), best)

    def report_sections(self, run) -> list:
        """Cooperative success and achievements, question cards, animals and guesses for
        ``zoosim report``."""
        from zooanalysis.games.zoology.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`ZoologyRun`."""
        from zooanalysis.games.zoology.analysis import ZoologyRun

        return ZoologyRun


def result_tables(
    totals: BatchResult, settings: ZoologySettings | None, labels: list[str]
) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed counts into long, self-describing DataFrames."""
    players = len(labels)
    seats = seat_table(
        totals,
        labels,
        points_free=totals["points_from"][:, 0],
        points_second_chance=totals["points_from"][:, 1],
    )
    for phase, name in enumerate(PHASES):
        seats[f"guesses_{name}"] = totals["guesses"][:, phase]
        seats[f"right_{name}"] = totals["right_guesses"][:, phase]
        seats[f"first_guesses_{name}"] = totals["first_guesses"][:, phase]
        seats[f"first_right_{name}"] = totals["first_right"][:, phase]
    if settings is None:
        return {"seats": seats}
    animals = settings.animals
    questions = settings.questions
    tables = {
        "seats": seats,
        "rounds": histogram(totals["rounds_hist"], "rounds"),
        "turns": histogram(totals["turns_hist"], "turns"),
        "end_reasons": pd.DataFrame({"reason": list(END_REASONS), "games": totals["end_reasons"]}),
        "second_chance_triggers": pd.DataFrame(
            {"trigger": list(TRIGGERS), "rounds": totals["triggers"]}
        ),
        "questions": pd.DataFrame(
            {
                "card": np.arange(len(questions)),
                "id": [q.id for q in questions],
                "text": [q.text for q in questions],
                "plays": totals["question_plays"],
                "no_champion": totals["question_no_champion"],
                "information_nats": totals["question_information"] / INFORMATION_SCALE,
            }
        ),
        "animals": pd.DataFrame(
            {
                "animal": list(animals.ids),
                "name": list(animals.names),
                "region": list(animals.regions),
                "held": totals["animal_held"],
                "guessed": totals["animal_guessed"],
                "found": totals["animal_found"],
                "first_right": totals["animal_first_right"],
                "wrong_guesses": totals["animal_wrong"],
            }
        ),
    }
    truth, guess = np.nonzero(totals["confusions"])
    tables["confusions"] = pd.DataFrame(
        {
            "animal": np.array(animals.ids, dtype=object)[truth],
            "guessed": np.array(animals.ids, dtype=object)[guess],
            "count": totals["confusions"][truth, guess],
        }
    )
    tables.update(outcome_tables(totals))
    if settings.cooperative:
        plan = cells(settings, players)
        tables["cooperative"] = pd.DataFrame(
            {
                "players": [n for n, _ in plan],
                "boards": [board_label(regions) for _, regions in plan],
                "regions": [len(regions) for _, regions in plan],
                "games": totals["coop_games"],
                "successes": totals["coop_success"],
            }
        )
    else:
        tables["free_windows"] = pd.DataFrame(
            {
                "right_guesses": np.arange(1, len(totals["window_right"])),
                "windows": totals["window_right"][1:],
            }
        )
        tables["lead_changes"] = lead_changes_table(totals["lead_changes_hist"])
        tables["settled"] = settled_table(totals["settled_hist"])
    return tables


GAME = ZoologyGame()
