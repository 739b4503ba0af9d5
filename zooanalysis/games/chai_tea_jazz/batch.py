"""Chai Tea Jazz batches: on the kernel (what runs use) and on the reference engine.

``make_batch(settings, lineup, with_rows)`` gives a :class:`ChaiBatch`, the picklable job the
runner calls as ``job(batch_seed, n_games)`` (``first_game=`` plays part of a batch); it
returns the count arrays of ``counts.new_totals`` (plus the rows of ``counts.new_rows`` if
asked). :func:`kernel_config` flattens the settings into what the kernel reads.
:func:`play_batch_reference` plays the same games through the reference engine and counts
them the same way: the tests hold the two equal, and it runs custom Python strategies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from zooanalysis.games.base import BatchResult
from zooanalysis.games.chai_tea_jazz import kernel
from zooanalysis.games.chai_tea_jazz.counts import new_rows, standings_row, tally, totals_for
from zooanalysis.games.chai_tea_jazz.engine import Strategy, play_game
from zooanalysis.games.chai_tea_jazz.layout import layout
from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings
from zooanalysis.games.chai_tea_jazz.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec


def kernel_config(settings: ChaiSettings) -> dict:
    """The plain numbers and arrays the kernel needs (``kernel.CONFIG_ORDER``)."""
    lay = layout(settings)
    ints = np.zeros(kernel.N_INTS, dtype=np.int64)
    for slot, value in (
        (kernel.C_PLAYERS, lay.players),
        (kernel.C_SIDES, lay.sides),
        (kernel.C_WORDS, lay.words),
        (kernel.C_HAND, lay.hand_cards),
        (kernel.C_STRAW, lay.straw_piles),
        (kernel.C_ASIDE, lay.set_aside),
        (kernel.C_TRICKS, lay.tricks),
        (kernel.C_LAST, lay.last_trick),
        (kernel.C_STEP, lay.step),
        (kernel.C_MAX_DEBT, lay.max_debt),
        (kernel.C_REPICK_ROW, lay.repick_row),
        (kernel.C_MATCH, lay.match_points),
        (kernel.C_PASSING, lay.passing),
        (kernel.C_CUMULATIVE, lay.cumulative),
        (kernel.C_EARLY, lay.early_end),
        (kernel.C_JOKERS_STRONG, lay.jokers_strongest),
        (kernel.C_TIES, lay.ties),
        (kernel.C_BASE_ORDER, lay.base_order),
        (kernel.C_ROWS, lay.rows),
        (kernel.C_DECK_JOKERS, lay.deck_jokers),
        (kernel.C_MAX_SCORE, lay.max_score),
    ):
        ints[slot] = int(value)
    return {
        "ints": ints,
        "floats": np.array([lay.other_points, lay.partner_points], dtype=np.float64),
        "template": lay.template.astype(np.int64),
        "deck_faces": np.array([lay.deck_faces], dtype=np.uint64),
        "points": lay.points,
        "values_points": lay.values_points,
        "side_of": lay.side_of,
        "row_value": lay.row_value,
        "avoid": lay.avoid,
        "place_points": lay.place_points,
        "opt_row": lay.opt_row,
        "opt_way": lay.opt_way,
        "way_trump": lay.way_trump,
        "way_order": lay.way_order,
        "way_direction": lay.way_direction,
        "way_flip": lay.way_flip,
        "base": lay.base,
        "base_row": lay.base_row,
        "perms": np.array(list(permutations(range(lay.sides))), dtype=np.int64),
    }


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class ChaiBatch:
    """One batch of Chai Tea Jazz games on the kernel (picklable for process backends)."""

    settings: ChaiSettings
    config: dict
    codes: np.ndarray
    params: np.ndarray
    with_rows: bool

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``; counts plus rows (row ``i`` is game ``first_game + i``) if asked."""
        totals = totals_for(self.settings)
        rows = new_rows(n_games if self.with_rows else 0, self.settings.players)
        kernel.play_batch(
            self.config, self.codes, self.params, batch_seed, n_games, totals, rows, first_game
        )
        return {**totals, **rows} if self.with_rows else totals


def make_batch(settings: ChaiSettings, lineup: Sequence[PlayerSpec], with_rows: bool) -> ChaiBatch:
    """The kernel batch for these settings and players."""
    return ChaiBatch(
        settings=settings,
        config=kernel_config(settings),
        codes=np.array([strategy_code(p) for p in lineup], dtype=np.int64),
        params=np.array([strategy_params(p) for p in lineup], dtype=np.float64),
        with_rows=with_rows,
    )


def play_batch_reference(
    settings: ChaiSettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
    first_game: int = 0,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` with the reference engine; returns (totals, rows) shaped as the kernel's
    (row ``i`` is game ``first_game + i``)."""
    totals = totals_for(settings)
    rows = new_rows(n_games if with_rows else 0, settings.players)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, first_game + game)
        tally(settings, record, totals)
        if with_rows:
            rows["row_points"][game] = record.points
            rows["row_standing"][game] = standings_row(settings, record)
            rows["row_rounds"][game] = len(record.rounds)
    return totals, rows
