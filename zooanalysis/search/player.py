"""The ``search`` player, for any game with a forward model, seated in its reference engine.

A game binds it with a :class:`SearchGame` (its forward model, strategy codes and
parameters, built-in strategy and reference batch) and subclasses :class:`SearchSeat`,
adding only what differs: how an observation becomes a forward-model state and how a
searched action answers the engine. A lineup with a search seat plays through
:class:`SearchBatch`, the reference engine's batch with the other seats' built-in
strategies: the same count arrays as the kernel's, so runs, tables and reports work
unchanged, only slower.

Game-free by the import rules: everything game-specific comes in through :class:`SearchGame`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from zooanalysis.search.ismcts import search
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, parse_player

SEARCH = "search"
"""The player's name in lineups."""


def rollouts(strategy_codes: Mapping[str, int]) -> tuple[str, ...]:
    """A game's rollout strategies by the number its ``rollout`` parameter takes (its
    strategy codes in order: 0 = random ...)."""
    return tuple(sorted(strategy_codes, key=strategy_codes.get))


def search_info(description: str, rollout_names: Sequence[str], rollout: int) -> StrategyInfo:
    """The ``search`` player's entry for a game: ``description``, and the parameters every
    game's search takes (``rollout`` defaults to the strategy numbered ``rollout``)."""
    return StrategyInfo(
        SEARCH,
        description,
        (
            ParamSpec("iterations", 200, 1, 100_000, "search iterations per decision",
                      integer=True),
            ParamSpec(
                "rollout", rollout, 0, len(rollout_names) - 1,
                "play-out strategy for every seat: "
                + ", ".join(f"{i} {name}" for i, name in enumerate(rollout_names)),
                integer=True,
            ),
            ParamSpec("c", 0.7, 0.0, 10.0, "UCT exploration constant (rewards are win shares)"),
            ParamSpec(
                "model", 1, 0, 1,
                "1: the other seats play their own strategies in the search (a best response "
                "to the lineup: it knows how they play, not their cards); 0: they search by "
                "UCT and play out with the rollout strategy",
                integer=True,
            ),
        ),
    )


@dataclass(frozen=True)
class SearchGame:
    """What the search player needs of a game."""

    forward: ModuleType
    """The forward model (``zooanalysis.search``): also ``rules_array(settings)`` and
    ``rollout_arrays(rules, code, params) -> (codes, params, work)``."""
    strategies: Mapping[str, StrategyInfo]
    """The built-in strategies (the rollouts are parsed against them)."""
    strategy_codes: Mapping[str, int]
    """A built-in strategy's number in the forward model."""
    strategy_params: Callable[[PlayerSpec], np.ndarray]
    """A built-in player's parameter row."""
    builtin: Callable[[PlayerSpec], Any]
    """The reference engine's strategy for a built-in player."""
    play_batch_reference: Callable[..., tuple[dict, dict]]
    """The reference engine's batch: ``(settings, strategies, seed, n, with_rows, first)``."""

    @property
    def module(self) -> str:
        """The forward model's module name (what :func:`search` compiles for)."""
        return self.forward.__name__

    @property
    def rollouts(self) -> tuple[str, ...]:
        """The rollout strategies by their ``rollout`` number."""
        return rollouts(self.strategy_codes)


@dataclass(frozen=True)
class SearchSeat:
    """A ``search`` seat for a game's reference engine (a subclass sets ``game`` and answers
    the engine's questions through :meth:`search_state`): decides from the observation
    alone."""

    game: ClassVar[SearchGame]
    player: PlayerSpec
    settings: Any
    lineup: tuple[PlayerSpec, ...]
    """Every seat's player: the others' strategies are its opponent model (``model=1``)."""
    rules: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Precompute the rules array."""
        object.__setattr__(self, "rules", self.game.forward.rules_array(self.settings))

    def opponent_model(self, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(codes, params, modelled, work) for a search from ``seat``: every seat plays out
        with the rollout strategy, except, with ``model=1``, the other built-in seats, which
        play their own strategies and are modelled."""
        game = self.game
        rollout = parse_player(game.rollouts[int(self.player.param("rollout"))], game.strategies)
        codes, params, work = game.forward.rollout_arrays(
            self.rules, game.strategy_codes[rollout.strategy], game.strategy_params(rollout)
        )
        modelled = np.zeros(len(codes), dtype=np.bool_)
        if int(self.player.param("model")) == 1:
            for other_seat, other in enumerate(self.lineup):
                if other_seat != seat and other.strategy != SEARCH:
                    codes[other_seat] = game.strategy_codes[other.strategy]
                    params[other_seat] = game.strategy_params(other)
                    modelled[other_seat] = True
        return codes, params, modelled, work

    def search_state(self, state: np.ndarray, seat: int, rng: np.ndarray) -> int:
        """The action ``seat`` takes in the forward-model ``state`` (rebuilt from its
        observation) after this player's search, drawing from ``rng`` only."""
        codes, params, modelled, work = self.opponent_model(seat)
        action, _ = search(
            self.game.module, self.rules, state, seat, int(self.player.param("iterations")),
            float(self.player.param("c")), codes, params, modelled, work, rng,
        )
        return action

    @classmethod
    def seat_strategies(cls, settings: Any, lineup: Sequence[PlayerSpec]) -> list:
        """The reference engine's strategies for a lineup that may hold ``search`` seats."""
        return [
            cls(p, settings, tuple(lineup)) if p.strategy == SEARCH else cls.game.builtin(p)
            for p in lineup
        ]


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class SearchBatch:
    """A batch with search seats, played on the reference engine (picklable; a subclass
    sets ``seat``, its game's :class:`SearchSeat`)."""

    seat: ClassVar[type[SearchSeat]]
    settings: Any
    lineup: tuple[PlayerSpec, ...]
    with_rows: bool

    def __call__(
        self, batch_seed: int, n_games: int, first_game: int = 0
    ) -> dict[str, np.ndarray]:
        """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``, counted as the kernel counts them."""
        totals, rows = self.seat.game.play_batch_reference(
            self.settings, self.seat.seat_strategies(self.settings, self.lineup), batch_seed,
            n_games, self.with_rows, first_game,
        )
        return {**totals, **rows} if self.with_rows else totals
