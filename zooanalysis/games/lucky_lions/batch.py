"""Lucky Lions batches: on the kernel (what runs use) and on the reference engine.

``make_batch(settings, lineup, with_rows)`` gives a :class:`LuckyBatch` (the settings
flattened once), the picklable job the runner calls as ``job(batch_seed, n_games)``
(``first_game=`` plays part of a batch); it plays the batch with ``kernel.play_batch`` and
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
from zooanalysis.games.lucky_lions import kernel
from zooanalysis.games.lucky_lions.counts import new_rows, new_totals, tally
from zooanalysis.games.lucky_lions.engine import Strategy, play_game
from zooanalysis.games.lucky_lions.generator import GeneratorTables
from zooanalysis.games.lucky_lions.rules import REFUSED_ZOO_CARD, LuckySettings
from zooanalysis.games.lucky_lions.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec


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
    refused_zoo_card: int
    """Index into ``rules.REFUSED_ZOO_CARD``."""
    panda_rejudge: bool
    codes: np.ndarray
    params: np.ndarray
    with_rows: bool

    @property
    def players(self) -> int:
        """Number of players."""
        return int(self.codes.shape[0])

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``; counts plus rows (row ``i`` is game ``first_game + i``) if asked."""
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
            refused_zoo_card=self.refused_zoo_card,
            panda_rejudge=self.panda_rejudge,
        )
        return {**totals, **rows} if self.with_rows else totals


def make_batch(
    settings: LuckySettings, lineup: Sequence[PlayerSpec], with_rows: bool
) -> LuckyBatch:
    """The kernel batch for these settings and players (one per seat)."""
    if len(lineup) != settings.players:
        raise ValueError(f"{len(lineup)} strategies for {settings.players} players")
    codes = np.array([strategy_code(p) for p in lineup], dtype=np.int64)
    params = np.array([strategy_params(p) for p in lineup], dtype=np.float64)
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
        refused_zoo_card=REFUSED_ZOO_CARD.index(settings.refused_zoo_card),
        panda_rejudge=settings.panda_switch == "rejudge",
        codes=codes,
        params=params,
        with_rows=with_rows,
    )


def play_batch_reference(
    settings: LuckySettings,
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
            rows["row_points"][game] = record.scores
            rows["row_cards_won"][game] = record.cards_won
            rows["row_turns"][game] = record.turns
            rows["row_end"][game] = record.end_reason
    return totals, rows
