"""Bug House Millionaire batches: on the kernel (what runs use) and on the reference engine.

``make_batch(settings, lineup, with_rows)`` gives a :class:`BugHouseBatch`, the picklable job
the runner calls as ``job(batch_seed, n_games)`` (``first_game=`` plays part of a batch); it
returns the count arrays of ``counts.new_totals`` (plus the rows of ``counts.new_rows`` if
asked). :func:`play_batch_reference` plays the same games through the reference engine and
counts them the same way: the tests hold the two equal, and it runs custom Python
strategies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from zooanalysis.games.base import BatchResult
from zooanalysis.games.bug_house import kernel
from zooanalysis.games.bug_house.counts import new_rows, new_totals, tally
from zooanalysis.games.bug_house.engine import Strategy, play_game
from zooanalysis.games.bug_house.rules import BugHouseSettings
from zooanalysis.games.bug_house.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec


def kernel_config(settings: BugHouseSettings) -> dict:
    """The plain numbers and arrays the kernel needs."""
    return {
        "deck": settings.deck.codes(),
        "clock_ms": settings.clock_ms,
        "min_run": settings.min_run,
        "longer_ok": settings.longer_runs_beat,
        "passing": settings.partner_passing,
        "talk": settings.talk,
        "delayed": settings.delayed_singles,
        "distribution": settings.distribution,
    }


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class BugHouseBatch:
    """One batch of Bug House Millionaire games on the kernel (picklable)."""

    config: dict
    codes: np.ndarray
    params: np.ndarray
    with_rows: bool

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``; counts plus rows (row ``i`` is game ``first_game + i``) if asked."""
        totals = new_totals()
        rows = new_rows(n_games if self.with_rows else 0)
        kernel.play_batch(
            self.config, self.codes, self.params, batch_seed, n_games, totals, rows, first_game
        )
        return {**totals, **rows} if self.with_rows else totals


def make_batch(
    settings: BugHouseSettings, lineup: Sequence[PlayerSpec], with_rows: bool
) -> BugHouseBatch:
    """The kernel batch for these settings and players."""
    return BugHouseBatch(
        config=kernel_config(settings),
        codes=np.array([strategy_code(p) for p in lineup], dtype=np.int64),
        params=np.array([strategy_params(p) for p in lineup], dtype=np.float64),
        with_rows=with_rows,
    )


def play_batch_reference(
    settings: BugHouseSettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
    first_game: int = 0,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` with the reference engine; returns (totals, rows) shaped as the kernel's
    (row ``i`` is game ``first_game + i``)."""
    totals = new_totals()
    rows = new_rows(n_games if with_rows else 0)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, first_game + game)
        tally(record, totals)
        if with_rows:
            rows["row_points"][game] = record.points
            rows["row_end_ms"][game] = record.end_ms
            rows["row_reason"][game] = record.reason
            rows["row_ender"][game] = record.ender
            rows["row_tricks"][game] = min(record.tricks, 32767)
    return totals, rows
