"""Zoology batches: on the kernel (what runs use) and on the reference engine.

``make_batch(settings, lineup, with_rows)`` gives a :class:`ZoologyBatch`, the picklable job
the runner calls as ``job(batch_seed, n_games)`` (``first_game=`` plays part of a batch); it
returns the count arrays of ``counts.new_totals`` (plus the rows of ``counts.new_rows`` if
asked). :func:`kernel_config` flattens the settings for one table into what the kernel
reads. :func:`play_batch_reference` plays the same games through the reference engine and
counts them the same way: the tests hold the two equal, and it runs custom Python
strategies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from zooanalysis.games.base import BatchResult
from zooanalysis.games.zoology import kernel
from zooanalysis.games.zoology.counts import new_rows, new_totals, tally
from zooanalysis.games.zoology.engine import END_COOPERATIVE, Strategy, play_game
from zooanalysis.games.zoology.rules import ZoologySettings, cells
from zooanalysis.games.zoology.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class ZoologyBatch:
    """One batch of Zoology games on the kernel (picklable for process backends).

    In the cooperative grid, game ``g`` of the batch plays cell ``g mod cells``."""

    configs: tuple[dict, ...]
    seats_per_cell: tuple[int, ...]
    codes: np.ndarray
    params: np.ndarray
    n_animals: int
    n_questions: int
    with_rows: bool
    information: bool = False
    """Sum each question's expected information (``question_information``, the questions
    table's ``information_nats``; the setting of the same name); off, that count stays 0 and
    the kernel skips the costliest statistic (about a third of a ``bayes`` game's time)."""

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``; counts plus rows (row ``i`` is game ``first_game + i``) if asked."""
        seats = self.codes.shape[0]
        n_cells = len(self.configs)
        totals = new_totals(seats, self.n_animals, self.n_questions, n_cells)
        rows = new_rows(n_games if self.with_rows else 0, seats)
        for cell, (config, players) in enumerate(
            zip(self.configs, self.seats_per_cell, strict=True)
        ):
            kernel.play_batch(
                {**config, "information": self.information},
                self.codes[:players],
                self.params[:players],
                batch_seed,
                n_games,
                totals,
                rows,
                game_offset=cell,
                game_stride=n_cells,
                cell=cell,
                first_game=first_game,
            )
        return {**totals, **rows} if self.with_rows else totals


def make_batch(
    settings: ZoologySettings,
    lineup: Sequence[PlayerSpec],
    with_rows: bool,
    information: bool | None = None,
) -> ZoologyBatch:
    """The kernel batch for these settings and players (every cell of the cooperative grid
    when the settings ask for it); ``information``: whether to sum the questions'
    expected information (:attr:`ZoologyBatch.information`; default: the settings'
    ``question_information``)."""
    plan = cells(settings, len(lineup))
    return ZoologyBatch(
        configs=tuple(kernel_config(settings, n, regions) for n, regions in plan),
        seats_per_cell=tuple(n for n, _ in plan),
        codes=np.array([strategy_code(p) for p in lineup], dtype=np.int64),
        params=np.array([strategy_params(p) for p in lineup], dtype=np.float64),
        n_animals=len(settings.animals),
        n_questions=len(settings.questions),
        with_rows=with_rows,
        information=settings.question_information if information is None else information,
    )


def kernel_config(settings: ZoologySettings, players: int, regions=None) -> dict:
    """The plain numbers and arrays the kernel needs, from settings and a player count."""
    return {
        "board": settings.board(regions),
        "deck": settings.deck(regions),
        "n_neutrals": settings.neutrals_for(players),
        "hand_size": settings.hand_size,
        "tokens": settings.tokens_for(players),
        "points_to_win": settings.points_to_win,
        "win_cap": settings.points_to_win if settings.winners == "reached" else 2**62,
        "points_correct": settings.points_correct_guess,
        "points_second": settings.points_second_chance,
        "guess_after_first": settings.guess_after_first_turns,
        "simultaneous": settings.simultaneous_guess_chance,
        "gift": settings.gift_token,
        "max_rounds": settings.max_rounds,
        "cooperative": settings.cooperative,
        "scores": settings.scores,
        "weights": settings.weights,
        "information": settings.question_information,
    }


def play_batch_reference(
    settings: ZoologySettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
    first_game: int = 0,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` with the reference engine, on one table (not the cooperative grid);
    returns (totals, rows) shaped as the kernel's (row ``i`` is game ``first_game + i``)."""
    players = len(strategies)
    totals = new_totals(players, len(settings.animals), len(settings.questions))
    rows = new_rows(n_games if with_rows else 0, players)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, first_game + game)
        tally(record, totals)
        if with_rows:
            rows["row_points"][game] = record.points
            rows["row_rounds"][game] = record.rounds
            rows["row_turns"][game] = record.turns
            cooperative = record.end_reason == END_COOPERATIVE
            rows["row_success"][game] = int(record.success) if cooperative else -1
            rows["row_standing"][game] = record.standing or record.points
    return totals, rows
