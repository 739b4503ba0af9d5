"""A Lucky Lions batch on the kernel: the settings flattened once, callable per batch seed.

``make_batch(settings, codes, params, with_rows)`` gives a :class:`LuckyBatch`; calling it
with ``(batch_seed, n_games)`` plays that batch with ``kernel.play_batch`` and returns the
count arrays of ``counts.new_totals`` (plus the rows of ``counts.new_rows`` if asked).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zooanalysis.games.lucky_lions import kernel
from zooanalysis.games.lucky_lions.counts import new_rows, new_totals
from zooanalysis.games.lucky_lions.generator import GeneratorTables
from zooanalysis.games.lucky_lions.rules import LuckySettings


@dataclass(frozen=True, eq=False)
class LuckyBatch:
    """One batch of Lucky Lions games on the kernel (picklable for process backends)."""

    deck_rows: np.ndarray
    """The fixed deck's card rows (no rows for a fresh print per game)."""
    fresh: bool
    tables: GeneratorTables
    animal_cards: np.ndarray
    die_size: int
    points_to_win: int
    market_size: int
    reshuffle_at_points: int
    turn_limit: int
    reduced_die: bool
    no_shuffle: bool
    draw_instead: bool
    busy_zoo: bool
    wild_animals: bool
    codes: np.ndarray
    params: np.ndarray
    with_rows: bool

    @property
    def players(self) -> int:
        """Number of players."""
        return int(self.codes.shape[0])

    def play(
        self, batch_seed: int, n_games: int, first_game: int = 0
    ) -> dict[str, np.ndarray]:
        """Play games ``first_game ..`` of the batch seeded ``batch_seed``; counts plus rows
        (if asked)."""
        totals = new_totals(self.players)
        rows = new_rows(n_games if self.with_rows else 0, self.players)
        kernel.play_batch(
            self.deck_rows,
            self.fresh,
            self.tables,
            self.animal_cards,
            self.die_size,
            self.points_to_win,
            self.market_size,
            self.reshuffle_at_points,
            self.turn_limit,
            self.reduced_die,
            self.no_shuffle,
            self.draw_instead,
            self.busy_zoo,
            self.wild_animals,
            self.codes,
            self.params,
            batch_seed,
            n_games,
            totals,
            rows,
            first_game,
        )
        return {**totals, **rows} if self.with_rows else totals

    def __call__(self, batch_seed: int, n_games: int) -> dict[str, np.ndarray]:
        """Play ``n_games`` games seeded by ``batch_seed``; counts plus rows if asked."""
        return self.play(batch_seed, n_games)


def make_batch(
    settings: LuckySettings, codes: np.ndarray, params: np.ndarray, with_rows: bool
) -> LuckyBatch:
    """The kernel batch for these settings, strategy codes (``int64[players]``) and
    parameters (``float64[players, MAX_PARAMS]``)."""
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    if codes.shape != (settings.players,) or params.shape[0] != settings.players:
        raise ValueError(
            f"{codes.shape[0]} strategy codes / {params.shape[0]} parameter rows for "
            f"{settings.players} players"
        )
    return LuckyBatch(
        deck_rows=settings.fixed_rows(),
        fresh=settings.fresh_decks,
        tables=settings.tables,
        animal_cards=settings.animal_cards(),
        die_size=settings.die_size,
        points_to_win=settings.points_to_win,
        market_size=settings.market_size,
        reshuffle_at_points=settings.reshuffle_at_points,
        turn_limit=settings.turn_limit,
        reduced_die=settings.reduced_die,
        no_shuffle=settings.no_shuffle,
        draw_instead=settings.draw_instead,
        busy_zoo=settings.busy_zoo,
        wild_animals=settings.wild_animals,
        codes=codes,
        params=params,
        with_rows=with_rows,
    )
