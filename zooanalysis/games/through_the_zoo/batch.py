"""Playing a batch of Through the Zoo: the kernel job and the reference batch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from zooanalysis.games.base import BatchResult
from zooanalysis.games.through_the_zoo import kernel
from zooanalysis.games.through_the_zoo.counts import new_rows, new_totals, order_index, tally
from zooanalysis.games.through_the_zoo.engine import ExhibitSlot, Strategy, exhibit_slots, play_game
from zooanalysis.games.through_the_zoo.rules import ThroughTheZooSettings
from zooanalysis.games.through_the_zoo.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec


@dataclass(frozen=True, eq=False)
class ThroughTheZooBatch:
    """One batch of Through the Zoo games on the kernel (picklable: exhibits by module)."""

    rules: np.ndarray
    values: np.ndarray
    """Mulligan value tables per slot (int64, slots x 64)."""
    codes: np.ndarray
    params: np.ndarray
    exhibit_modules: tuple[str, ...]
    ex_rules: tuple[np.ndarray, ...]
    ex_codes: tuple[np.ndarray, ...]
    ex_params: tuple[np.ndarray, ...]
    with_rows: bool

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``; counts plus rows (row ``i`` is game ``first_game + i``) if asked."""
        players = self.codes.shape[0]
        totals = new_totals(players)
        rows = new_rows(n_games if self.with_rows else 0, players)
        kernel.play_batch(self, batch_seed, n_games, totals, rows, first_game)
        return {**totals, **rows} if self.with_rows else totals


def make_batch(
    settings: ThroughTheZooSettings,
    lineup: Sequence[PlayerSpec],
    with_rows: bool,
    slots: Sequence[ExhibitSlot] | None = None,
) -> ThroughTheZooBatch:
    """The kernel batch for these settings and mulligan players (``slots``: the Exhibit
    cards, by default those the settings name)."""
    slots = list(slots) if slots is not None else exhibit_slots(settings)
    arrays = [slot.module.strategy_arrays(list(slot.players)) for slot in slots]
    return ThroughTheZooBatch(
        rules=kernel.flat_rules(settings),
        values=np.array([slot.values for slot in slots], dtype=np.int64),
        codes=np.array([strategy_code(p) for p in lineup], dtype=np.int64),
        params=np.array([strategy_params(p) for p in lineup], dtype=np.float64),
        exhibit_modules=tuple(slot.module.__name__ for slot in slots),
        ex_rules=tuple(slot.module.kernel_rules(slot.settings) for slot in slots),
        ex_codes=tuple(np.asarray(codes, dtype=np.int64) for codes, _ in arrays),
        ex_params=tuple(np.asarray(params, dtype=np.float64) for _, params in arrays),
        with_rows=with_rows,
    )


def play_batch_reference(
    settings: ThroughTheZooSettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
    first_game: int = 0,
    slots: Sequence[ExhibitSlot] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` with the reference engine; (totals, rows) shaped as the kernel's."""
    slots = list(slots) if slots is not None else exhibit_slots(settings)
    exhibit_strategies = [slot.reference_strategies() for slot in slots]
    totals = new_totals(settings.players)
    rows = new_rows(n_games if with_rows else 0, settings.players)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, first_game + game, slots,
                           exhibit_strategies)
        tally(record, totals)
        if with_rows:
            rows["row_points"][game] = record.game_points
            rows["row_standing"][game] = record.standing
            rows["row_order"][game] = order_index(record.order)
    return totals, rows
