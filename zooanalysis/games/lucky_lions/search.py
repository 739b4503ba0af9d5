"""The ``search`` player for Lucky Lions: SO-ISMCTS on the forward model, seated in the
reference engine (the shared player: ``zooanalysis.search.player``).

A search seat is a :class:`SearchStrategy`: at each decision it rebuilds a forward-model state
from its :class:`engine.Observation` alone (the places it cannot see hold placeholders that
every search iteration deals afresh), searches (``zooanalysis.search.ismcts``) and answers
the engine. A lineup with a search seat plays through :class:`SearchBatch`, the reference
engine's batch with the other seats' built-in strategies. The forward model plays the base
game only: :func:`check_modelled` refuses the rest by name.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.errors import SettingsError
from zooanalysis.games.lucky_lions import forward
from zooanalysis.games.lucky_lions.batch import play_batch_reference
from zooanalysis.games.lucky_lions.engine import BuiltinStrategy, Observation
from zooanalysis.games.lucky_lions.flat import CARD_FIELDS, N_TYPES, card_row
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.strategies import (
    STRATEGIES,
    STRATEGY_CODES,
    strategy_params,
)
from zooanalysis.search import player
from zooanalysis.search.ismcts import MAX_ACTIONS
from zooanalysis.search.player import SEARCH, SearchGame, SearchSeat, search_info

__all__ = ["MODULE", "ROLLOUTS", "SEARCH", "SEARCH_INFO", "SearchBatch", "SearchStrategy",
           "check_modelled", "seat_strategies", "state_from_observation"]

GAME = SearchGame(forward, STRATEGIES, STRATEGY_CODES, strategy_params, BuiltinStrategy,
                  play_batch_reference)
ROLLOUTS = GAME.rollouts
"""Rollout strategies by the number the ``rollout`` parameter takes (0 = random ...)."""
SEARCH_INFO = search_info(
    "Information-set Monte Carlo tree search (single observer, UCT): each iteration deals the "
    "cards it has not seen afresh (the unknown rest of every die, the secret discards, the "
    "Zoo deck from a pool of generator prints or the fixed deck), searches its own choices "
    "(Zoo Card and opponent, who discards, what to discard; the others play their own "
    "strategies, model=1, or search too, model=0) and plays out with a built-in strategy; "
    "plays the most visited choice. Base game only (no variant, no expansion). Slow: a run "
    "with it plays on the reference engine.",
    ROLLOUTS,
    1,
)
MODULE = forward.__name__


def check_modelled(settings: LuckySettings) -> None:
    """Refuse (``SettingsError``, one line) settings a search seat cannot play: the variants
    and expansions the forward model leaves out, and more picks than the search holds."""
    unmodelled = forward.unmodelled_rules(settings)
    if unmodelled:
        raise SettingsError(
            unmodelled[0],
            "the search player's forward model plays the base game only; set "
            f"{', '.join(unmodelled)} to false, or seat no search player",
        )
    picks = settings.market_size * (settings.players - 1)
    if picks > MAX_ACTIONS:
        raise SettingsError(
            "market_size",
            f"{settings.market_size} face-up cards give {picks} (card, opponent) picks; the "
            f"search holds at most {MAX_ACTIONS}: lower market_size, or seat no search player",
        )


def state_from_observation(
    rules: np.ndarray, view: Observation, phase: int, tied: tuple[int, int] = (-1, -1)
) -> np.ndarray:
    """A forward-model state holding exactly what ``view`` shows, placeholders elsewhere.

    ``phase``: the decision asked (``forward.PHASE_*``); ``tied``: the two tied battlers for
    the choice of discarder. Base-game bookkeeping: every die started with ``die_size``
    cards and only a secret discard takes one, so each other player has discarded
    ``die_size - size`` cards (placeholders), and the draw pile never changes; the own
    discards per type are what ``view.unseen`` leaves out. The turn count, the cards won and
    the cards out of the game are not in the view (zero: they decide nothing but the turn
    limit)."""
    state = forward.new_state(rules)
    players, die = int(rules[forward.R_PLAYERS]), int(rules[forward.R_DIE])
    seat = view.seat
    counts = rules[forward.R_COUNTS:forward.R_COUNTS + N_TYPES]
    for q in range(players):
        state[forward.o_sizes(rules) + q] = view.sizes[q]
        state[forward.o_scores(rules) + q] = view.scores[q]
        row = forward.o_seen(rules) + q * N_TYPES
        state[row:row + N_TYPES] = view.seen[q]
        if q != seat:
            state[forward.o_discarded(rules) + q * N_TYPES] = die - view.sizes[q]
    own = [t for t in range(N_TYPES) for _ in range(view.die[t])]
    start = forward.o_dice(rules) + seat * die
    state[start:start + len(own)] = own
    for t in range(N_TYPES):
        others = sum(view.seen[q][t] for q in range(players) if q != seat)
        mine = int(counts[t]) - view.die[t] - others - view.unseen[t]
        state[forward.o_discarded(rules) + seat * N_TYPES + t] = max(mine, 0)
    state[forward.S_PILE] = int(rules[forward.R_ANIMALS]) - players * die
    for i, card in enumerate(view.market):
        at = forward.o_market(rules) + i * CARD_FIELDS
        state[at:at + CARD_FIELDS] = card_row(card)
    state[forward.S_MARKET] = len(view.market)
    state[forward.S_DECK_END] = view.zoo_deck_left
    if view.battle_card is not None:
        at = forward.o_card(rules)
        state[at:at + CARD_FIELDS] = card_row(view.battle_card)
    state[forward.S_ACTIVE] = view.active
    state[forward.S_ACTOR] = seat
    state[forward.S_PHASE] = phase
    state[forward.S_FIRST], state[forward.S_SECOND] = tied
    state[forward.S_DISCARDER] = -1
    if phase == forward.PHASE_DISCARD:
        state[forward.S_FIRST], state[forward.S_SECOND] = view.battlers[:2]
        state[forward.S_DISCARDER] = seat
    return state


class SearchStrategy(SearchSeat):
    """A ``search`` seat for the reference engine: decides from the observation alone."""

    game = GAME

    def __post_init__(self) -> None:
        """Check the settings; precompute the rules array (with the Zoo Card pool)."""
        check_modelled(self.settings)
        super().__post_init__()

    def choose_card(self, view: Observation, rng: np.ndarray) -> tuple[int, int]:
        """(market index, opponent) by search."""
        state = state_from_observation(self.rules, view, forward.PHASE_PICK)
        action = self.search_state(state, view.seat, rng) - forward.A_PICK
        return action // 8, action % 8

    def choose_discarder(self, view: Observation, first: int, second: int, rng: np.ndarray) -> int:
        """A tie as the active player: which battler discards, by search."""
        state = state_from_observation(self.rules, view, forward.PHASE_DISCARDER, (first, second))
        return self.search_state(state, view.seat, rng) - forward.A_DISCARDER

    def choose_discard(self, view: Observation, rng: np.ndarray) -> int:
        """Which card type to discard, by search."""
        state = state_from_observation(self.rules, view, forward.PHASE_DISCARD)
        return self.search_state(state, view.seat, rng) - forward.A_DISCARD

    def _unmodelled(self, *args: object) -> int:
        raise ValueError("the search player plays the base game only (check_modelled)")

    choose_excluded = choose_subset = choose_keep = choose_reroll = _unmodelled
    choose_switch = choose_receiver = choose_draw_instead = _unmodelled


seat_strategies = SearchStrategy.seat_strategies
"""The reference engine's strategies for a lineup that may hold ``search`` seats."""


class SearchBatch(player.SearchBatch):
    """A batch with search seats, played on the reference engine (picklable)."""

    seat = SearchStrategy
