"""No strategy peeks: changing only cards a player cannot see never changes its decision.

Games are played on the reference engine; at every decision (pick, offer, accept, card) the
hidden part of the round (the other players' hands, partners' included; every face-down
straw-pile card, the player's own too; the set-aside cards) is dealt anew among its own
places, keeping each place's size, while the deciding player's hand and every public fact
(the pad, the bids, the face-up straw-pile cards, the cards played) stay. The player's
observation, every built-in strategy's decision and its use of the random stream must not
change. The kernel makes the same decisions as the engine game by game
(``test_chai_tea_jazz_engines_agree.py``), from the same arguments.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from test_chai_tea_jazz_engines_agree import CUSTOM  # every kind of contract row

from zooanalysis.games.chai_tea_jazz import engine
from zooanalysis.games.chai_tea_jazz.engine import (
    ACCEPT,
    CARD,
    OFFER,
    PICK,
    BuiltinStrategy,
    RoundState,
)
from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings, settings_from_table
from zooanalysis.games.chai_tea_jazz.strategies import STRATEGIES
from zooanalysis.strategy_spec import parse_player

TESTED = [
    "random",
    "greedy",
    "tracker",
    "greedy:pick_at=-20,bet_at=-30,offer_at=30",
    "tracker:pick_at=-2,bet_at=-2,offer_at=2,spread=5",
]
BUILT_IN = [BuiltinStrategy(parse_player(text, STRATEGIES)) for text in TESTED]


def hidden_places(state: RoundState, seat: int) -> list[tuple[str, int, int]]:
    """Every place of a card ``seat`` cannot see, as (kind, owner, index)."""
    places = [("aside", -1, i) for i in range(len(state.set_aside))]
    for player in range(len(state.hands)):
        if player != seat:
            places += [("hand", player, i) for i in range(len(state.hands[player]))]
        places += [
            ("down", player, pile)
            for pile, card in enumerate(state.straw_down[player])
            if card >= 0
        ]
    return places


def _get(state: RoundState, place) -> int:
    kind, owner, index = place
    if kind == "aside":
        return state.set_aside[index]
    if kind == "hand":
        return state.hands[owner][index]
    return state.straw_down[owner][index]


def _set(state: RoundState, place, card: int) -> None:
    kind, owner, index = place
    if kind == "aside":
        state.set_aside[index] = card
    elif kind == "hand":
        state.hands[owner][index] = card
    else:
        state.straw_down[owner][index] = card


def reshuffled(state: RoundState, seat: int, shuffler: random.Random) -> RoundState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt anew into the same
    places."""
    other = copy.deepcopy(state)
    places = hidden_places(other, seat)
    pool = [_get(other, place) for place in places]
    shuffler.shuffle(pool)
    for place, card in zip(places, pool, strict=True):
        _set(other, place, card)
    for player in range(len(other.hands)):
        other.hands[player].sort()
    return other


class Inspector:
    """Replaces ``engine.observe``: at every decision, checks that the deciding player's
    observation and every built-in strategy's decision survive reshuffling the hidden
    cards."""

    def __init__(self, real_observe, seed: int) -> None:
        self.real_observe = real_observe
        self.shuffler = random.Random(seed)
        self.checked = 0
        self.changed_hidden = 0
        self.phases: set[str] = set()

    def __call__(self, state: RoundState, pad, seat: int, phase: str, **picking):
        seen = self.real_observe(state, pad, seat, phase, **picking)
        self.phases.add(phase)
        for _ in range(2):
            other = reshuffled(state, seat, self.shuffler)
            before = [_get(state, p) for p in hidden_places(state, seat)]
            after = [_get(other, p) for p in hidden_places(other, seat)]
            self.changed_hidden += before != after
            again = self.real_observe(other, pad, seat, phase, **picking)
            assert again == seen
            self.compare_decisions(seen, again)
        self.checked += 1
        return seen

    def compare_decisions(self, first, second) -> None:
        """Every built-in strategy decides the same on both and draws as many random
        numbers (both asked on identical copies of a stream)."""
        for strategy in BUILT_IN:
            start = np.array([self.shuffler.getrandbits(64)], dtype=np.uint64)
            results = []
            for observation in (first, second):
                stream = start.copy()
                if observation.phase == PICK:
                    decision = strategy.choose_pick(observation, stream)
                elif observation.phase == OFFER:
                    decision = strategy.choose_offer(observation, stream)
                elif observation.phase == ACCEPT:
                    decision = strategy.choose_accept(observation, stream)
                else:
                    decision = strategy.choose_card(observation, stream)
                results.append((decision, int(stream[0])))
            assert results[0] == results[1], strategy.player.label


@pytest.mark.parametrize(
    ("rules", "lineup", "seed"),
    [
        (ChaiSettings(), "tracker,greedy,random", 1),
        (ChaiSettings(players=2), "tracker,greedy", 2),
        (ChaiSettings(players=4), "tracker,greedy,random,tracker", 3),
        (ChaiSettings(players=6), "tracker,greedy,random,tracker,greedy,random", 4),
        (ChaiSettings(passing_the_barrel=True), "random,greedy:offer_at=60,random", 5),
        (settings_from_table({"contracts": CUSTOM, "cumulative": "least", "match_points": 1}),
         "tracker,greedy,random", 6),
        (ChaiSettings(players=6, deck="double"), "greedy,tracker,random,greedy,tracker,random",
         7),
        (ChaiSettings(deck="jass", repick="different-contract", early_end=True),
         "greedy,tracker,random", 8),
        (settings_from_table({"contracts": "custom-example", "players": 2,
                              "two_player_hand": 9, "two_player_straw_piles": 4}),
         "tracker,greedy", 9),
    ],
)
def test_hidden_cards_never_change_an_observation_or_a_decision(rules, lineup, seed, monkeypatch):
    inspector = Inspector(engine.observe, seed)
    monkeypatch.setattr(engine, "observe", inspector)
    engine.play_game(rules, engine.lineup(lineup), seed, 0)
    assert inspector.checked > 100
    assert inspector.changed_hidden > 100  # the reshuffles really moved hidden cards
    expected = {PICK, CARD} | ({OFFER, ACCEPT} if rules.passing_the_barrel else set())
    assert inspector.phases == expected


def test_observations_name_only_the_players_own_and_public_cards():
    """An observation holds the player's own hand, the face-up straw-pile cards and the
    cards played; other hands, face-down straw cards and the set-aside cards are only in
    ``unseen()``."""
    rules = ChaiSettings(players=2)
    stream = np.array([7], dtype=np.uint64)
    state = engine.deal_round(rules, 0, 0, stream)
    pad = engine.Pad(2, 4)
    state.declarer, state.option, state.leader = 0, 4, 0
    seen = engine.observe(state, pad, 1, CARD)
    assert set(seen.hand) == set(state.hands[1])
    public = {c for piles in state.straw_up for c in piles}
    hidden = set(state.hands[0]) | {c for piles in state.straw_down for c in piles}
    hidden |= set(state.set_aside)
    named = set(seen.hand) | {c for piles in seen.straw_up for c in piles}
    assert named == set(state.hands[1]) | public
    assert not named & hidden
    assert set(seen.unseen()) == hidden
