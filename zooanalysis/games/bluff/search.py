"""The ``search`` player for Bluff in Zoo: SO-ISMCTS on the forward model, seated in the
reference engine (the shared player: ``zooanalysis.search.player``).

A search seat is a :class:`SearchStrategy`: at each decision it rebuilds a forward-model state
from its :class:`engine.Observation` alone (the places it cannot see hold placeholders that
every search iteration deals afresh), searches (``zooanalysis.search.ismcts``) and answers
the engine. A lineup with a search seat plays through :class:`SearchBatch`, the reference
engine's batch with the other seats' built-in strategies.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.games.bluff import forward
from zooanalysis.games.bluff.batch import play_batch_reference
from zooanalysis.games.bluff.cards import N_CARD_TYPES
from zooanalysis.games.bluff.engine import BuiltinStrategy, Observation
from zooanalysis.games.bluff.strategies import (
    MOVE_DOUBT,
    MOVE_DRAW,
    MOVE_HAND,
    MOVE_NONE,
    STRATEGIES,
    STRATEGY_CODES,
    strategy_params,
)
from zooanalysis.search import player
from zooanalysis.search.player import SEARCH, SearchGame, SearchSeat, search_info

__all__ = ["MODULE", "ROLLOUTS", "SEARCH", "SEARCH_INFO", "SearchBatch", "SearchStrategy",
           "seat_strategies", "state_from_observation"]

GAME = SearchGame(forward, STRATEGIES, STRATEGY_CODES, strategy_params, BuiltinStrategy,
                  play_batch_reference)
ROLLOUTS = GAME.rollouts
"""Rollout strategies by the number the ``rollout`` parameter takes (0 = random ...)."""
SEARCH_INFO = search_info(
    "Information-set Monte Carlo tree search (single observer, UCT): each iteration deals the "
    "cards it has not seen afresh, searches its own choices (the others play their own "
    "strategies, model=1, or search too, model=0) and plays itself out with a built-in "
    "strategy; plays the most visited move. Claims searched: per kind the "
    "smallest that bests the standing claim and one more. Slow: a run with it plays on the "
    "reference engine.",
    ROLLOUTS,
    0,
)
MODULE = forward.__name__


def state_from_observation(rules: np.ndarray, view: Observation, claiming: bool) -> np.ndarray:
    """A forward-model state holding exactly what ``view`` shows, placeholders elsewhere.

    Every hand holds ``hand_size`` cards at a round's start; a player's hand cards this round
    (public, in ``view.history``) leave it, each a pile card owned by that player, as is a
    draw-pile card; ``claiming``: the viewer's own card (if any) lies on the pile, unclaimed.
    The round's starting player (the first in the history, else the viewer) stands in for the
    round number: only its remainder by the player count matters.
    """
    state = forward.new_state(rules)
    players, hand_size, size = (int(rules[i]) for i in (forward.R_PLAYERS, forward.R_HAND,
                                                          forward.R_DECK))
    seat = view.seat
    owners = [s for s, move, _, _ in view.history if move in (MOVE_HAND, MOVE_DRAW)]
    if len(owners) < view.pile_size:
        owners.append(seat)
    hand_len = [hand_size] * players
    for s, move, _, _ in view.history:
        if move == MOVE_HAND:
            hand_len[s] -= 1
    hand_len[seat] = len(view.hand)
    own_cards = [t for t in range(N_CARD_TYPES) for _ in range(view.known[t])]
    pile = forward.o_pile(rules)
    for i, owner in enumerate(owners):
        state[forward.o_owner(rules) + i] = owner
        state[pile + i] = own_cards.pop() if owner == seat else 0
    for p in range(players):
        state[forward.o_hand_len(rules) + p] = hand_len[p]
        state[forward.o_scores(rules) + p] = view.scores[p]
    hands = forward.o_hands(rules) + seat * hand_size
    state[hands:hands + len(view.hand)] = view.hand
    state[forward.o_revealed(rules):forward.o_revealed(rules) + N_CARD_TYPES] = view.revealed
    state[forward.S_ROUND] = view.history[0][0] if view.history else seat
    state[forward.S_CLAIM_COUNT] = view.claim_count
    state[forward.S_CLAIM_KIND] = view.claim_kind
    state[forward.S_CLAIMANT] = view.history[-1][0] if view.history else -1
    if len(view.history) >= 2:
        state[forward.S_PREVIOUS_COUNT] = view.history[-2][2]
        state[forward.S_PREVIOUS_KIND] = view.history[-2][3]
    else:
        state[forward.S_PREVIOUS_KIND] = -1
    placed_now = len(owners) - len([m for _, m, _, _ in view.history if m != MOVE_NONE])
    state[forward.S_CLAIM_PILE] = view.pile_size - placed_now  # the pile the claim was on
    state[forward.S_ACTOR] = seat
    state[forward.S_PHASE] = forward.PHASE_CLAIM if claiming else forward.PHASE_MOVE
    state[forward.S_DRAW_TOP] = size - view.draw_pile_size
    state[forward.S_PILE] = view.pile_size
    return state


class SearchStrategy(SearchSeat):
    """A ``search`` seat for the reference engine: decides from the observation alone."""

    game = GAME

    def _search(self, view: Observation, claiming: bool, rng: np.ndarray) -> int:
        return self.search_state(state_from_observation(self.rules, view, claiming), view.seat,
                                 rng)

    def choose_move(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """(move, hand index) by search."""
        action = self._search(observation, False, rng)
        if action >= forward.A_HAND:
            return MOVE_HAND, observation.hand.index(action - forward.A_HAND)
        return {forward.A_DOUBT: MOVE_DOUBT, forward.A_DRAW: MOVE_DRAW,
                forward.A_NONE: MOVE_NONE}[action], -1

    def choose_claim(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """(count, kind) by search."""
        claim = self._search(observation, True, rng) - forward.A_CLAIM
        return claim >> 3, claim & 7


seat_strategies = SearchStrategy.seat_strategies
"""The reference engine's strategies for a lineup that may hold ``search`` seats."""


class SearchBatch(player.SearchBatch):
    """A batch with search seats, played on the reference engine (picklable)."""

    seat = SearchStrategy
