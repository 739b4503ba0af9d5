"""Hearts batches: on the kernel (what runs use) and on the reference engine.

``make_batch(settings, lineup, with_rows)`` gives a :class:`HeartsBatch`, the picklable job
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
from zooanalysis.games.hearts import kernel
from zooanalysis.games.hearts.counts import new_rows, new_totals, tally
from zooanalysis.games.hearts.engine import Strategy, play_game
from zooanalysis.games.hearts.rules import HeartsSettings, rules_array
from zooanalysis.games.hearts.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class HeartsBatch:
    """One batch of Hearts games on the kernel (picklable for process backends)."""

    rules: np.ndarray
    codes: np.ndarray
    params: np.ndarray
    with_rows: bool

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``; counts plus rows (row ``i`` is game ``first_game + i``) if asked."""
        players = self.codes.shape[0]
        totals = new_totals(players)
        rows = new_rows(n_games if self.with_rows else 0, players)
        kernel.play_batch(
            self.rules, self.codes, self.params, batch_seed, n_games, totals, rows, first_game
        )
        return {**totals, **rows} if self.with_rows else totals


def make_batch(
    settings: HeartsSettings, lineup: Sequence[PlayerSpec], with_rows: bool
) -> HeartsBatch:
    """The kernel batch for these settings and players."""
    return HeartsBatch(
        rules=rules_array(settings),
        codes=np.array([strategy_code(p) for p in lineup], dtype=np.int64),
        params=np.array([strategy_params(p) for p in lineup], dtype=np.float64),
        with_rows=with_rows,
    )


def play_batch_reference(
    settings: HeartsSettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
    first_game: int = 0,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` with the reference engine; returns (totals, rows) shaped as the kernel's
    (row ``i`` is game ``first_game + i``)."""
    totals = new_totals(settings.players)
    rows = new_rows(n_games if with_rows else 0, settings.players)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, first_game + game)
        tally(record, totals)
        if with_rows:
            rows["row_points"][game] = record.points
            rows["row_hands"][game] = len(record.hands)
    return totals, rows
