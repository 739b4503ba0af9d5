"""No strategy peeks: changing only cards a player cannot see never changes its decision.

Games are played on the reference engine; at every decision the hidden part of the state
(the other players' hands, their draw piles, the cards set aside: the rest of the round's
shuffled deck) is reshuffled among its own places, keeping each place's size, the deciding
player's hand and draw pile and every public fact (the trick, every played card, the shorts
piles, tricks won, scores). The player's observation, every built-in strategy's decision and
its use of the random stream must not change. The kernel makes the same decisions as the
engine game by game (``test_short_zoot_suit_engines_agree.py``), from the same arguments.
"""

from __future__ import annotations

import copy
import random
import sys

import numpy as np
import pytest

from zooanalysis.cards.bits import mask_of
from zooanalysis.cards.encoding import NO_SUIT
from zooanalysis.games.short_zoot_suit import engine
from zooanalysis.games.short_zoot_suit.engine import BuiltinStrategy, RoundState
from zooanalysis.games.short_zoot_suit.rules import ZootSettings
from zooanalysis.games.short_zoot_suit.strategies import (
    BALANCED,
    LATE,
    RANDOM,
    STRATEGIES,
    VOID,
    choose_action,
    choose_card,
    choose_pile,
    strategy_params,
)
from zooanalysis.strategy_spec import parse_player

TESTED = [
    "random",
    "balanced",
    "void",
    "late",
    "balanced:lean=-1,end_lean=4,pile_high=5,draw_at=6,stop_at=1,place=0",
    "void:lean=3,max_voids=4,stop_at=0",
    "late:lean=0,draw_at=10,stop_at=8,place=0",
]
BUILT_IN = [BuiltinStrategy(parse_player(text, STRATEGIES)) for text in TESTED]


def hidden_places(state: RoundState, seat: int) -> list[tuple[str, int]]:
    """Every place of cards ``seat`` cannot see, as (kind, owner)."""
    places = [("aside", -1)]
    for player in range(state.players):
        if player != seat:
            places += [("hand", player), ("hidden", player), ("placed", player)]
    return places


def _cards(state: RoundState, place: tuple[str, int]) -> list[int]:
    kind, owner = place
    if kind == "aside":
        return list(state.set_aside)
    if kind == "hand":
        return sorted(state.hands[owner])
    if kind == "hidden":
        return sorted(state.pile_hidden[owner])
    return list(state.pile_placed[owner])


def _put(state: RoundState, place: tuple[str, int], cards: list[int]) -> None:
    kind, owner = place
    if kind == "aside":
        state.set_aside = cards
    elif kind == "hand":
        state.hands[owner] = set(cards)
    elif kind == "hidden":
        state.pile_hidden[owner] = set(cards)
    else:
        state.pile_placed[owner] = cards


def reshuffled(state: RoundState, seat: int, shuffler: random.Random) -> RoundState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt anew into the same
    places (same sizes)."""
    other = copy.deepcopy(state)
    places = hidden_places(other, seat)
    pool = [card for place in places for card in _cards(other, place)]
    shuffler.shuffle(pool)
    for place in places:
        size = len(_cards(other, place))
        _put(other, place, pool[:size])
        pool = pool[size:]
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
        self.stream: np.ndarray | None = None

    def __call__(self, state: RoundState, seat: int):
        phase = PHASES[sys._getframe(1).f_code.co_name]  # the engine step asking
        self.phases.add(phase)
        seen = self.real_observe(state, seat)
        for _ in range(2):
            other = reshuffled(state, seat, self.shuffler)
            if _hidden_signature(other, seat) != _hidden_signature(state, seat):
                self.changed_hidden += 1
            again = self.real_observe(other, seat)
            assert again == seen
            self.compare_decisions(phase, seen, again)
        self.checked += 1
        return seen

    def compare_decisions(self, phase: str, first, second) -> None:
        """Every built-in strategy decides the same on both and draws as many random
        numbers (both asked on identical copies of a stream)."""
        for strategy in BUILT_IN:
            start = np.array([self.shuffler.getrandbits(64)], dtype=np.uint64)
            results = []
            for observation in (first, second):
                stream = start.copy()
                if phase == "pile":
                    decision = tuple(strategy.choose_draw_pile(observation, stream))
                elif phase == "action":
                    decision = strategy.choose_action(observation, stream)
                else:
                    decision = strategy.choose_card(observation, stream)
                results.append((decision, int(stream[0])))
            assert results[0] == results[1], strategy.player.label


GOLDEN = 0x9E3779B97F4A7C15
"""How far one random draw advances the shared stream (``rng.next_u64``)."""
PHASES = {"make_draw_piles": "pile", "draw_phase": "action", "play_trick": "card"}


def _hidden_signature(state: RoundState, seat: int):
    return [tuple(_cards(state, place)) for place in hidden_places(state, seat)]


@pytest.mark.parametrize(
    ("rules", "lineup", "seed"),
    [
        (ZootSettings(players=2), "random,balanced", 1),
        (ZootSettings(players=3), "balanced,void,late", 2),
        (ZootSettings(players=4), "balanced,void,late,random", 3),
        (ZootSettings(players=4, draw_pile_cards=0, build_draw_pile=True),
         "void,late,balanced,random", 4),
        (ZootSettings(players=3, build_draw_pile=True, intermediate_scoring="unique-suits"),
         "random,random,late", 5),
        (ZootSettings(players=3, draw_pile_cards=0, build_draw_pile=True, place_last_card=False),
         "balanced,random,void", 6),
        (ZootSettings(players=2, build_draw_pile=True, rounds_per_player=2,
                      intermediate_scoring="unique-suits", unique_suit_points=(1, 3, 10, 20),
                      deck_ranks=(("2", tuple(range(16))), *ZootSettings().deck_ranks[1:]),
                      set_aside=(("2", 0), *ZootSettings().set_aside[1:])),
         "late,balanced", 7),
    ],
)  # fmt: skip
def test_hidden_cards_never_change_an_observation_or_a_decision(rules, lineup, seed, monkeypatch):
    inspector = Inspector(engine.observe, seed)
    monkeypatch.setattr(engine, "observe", inspector)
    strategies = engine.lineup(lineup)
    for game in range(2):
        engine.play_game(rules, strategies, seed, game)
    assert inspector.checked > 100
    assert inspector.changed_hidden > 50  # the reshuffles really moved hidden cards
    expected = {"action", "card"} | ({"pile"} if rules.draw_pile_cards else set())
    assert inspector.phases == expected


def test_observations_hold_only_the_players_own_cards():
    """The observation names no card of another hand, another draw pile or the set-aside
    cards: those are only in ``unseen()``."""
    rules = ZootSettings(players=4)
    stream = np.array([7], dtype=np.uint64)
    state = engine.deal_round(rules, 0, (0, 0, 0, 0), stream)
    engine.make_draw_piles(state, engine.lineup("balanced,void,late,random"), stream,
                           engine.RoundRecord(0, pile_cards=[[], [], [], []]))  # fmt: skip
    seen = engine.observe(state, 2)
    mine = set(seen.hand) | set(seen.draw_pile)
    assert mine == state.hands[2] | state.pile_hidden[2]
    others = set().union(*(state.hands[p] | state.pile_hidden[p] for p in (0, 1, 3)))
    named = {value for value in vars(seen).values() if isinstance(value, int)}
    for value in vars(seen).values():
        if isinstance(value, tuple) and value and isinstance(value[0], int):
            named |= set(value)
    named -= set(seen.deck)  # the deck's card list is public
    assert not (mine | others) & named - mine
    assert set(seen.unseen()) == others | set(state.set_aside)


@pytest.mark.parametrize("code", [RANDOM, BALANCED, VOID, LATE])
def test_compiled_decisions_depend_on_their_arguments_only(code):
    """Repeated calls with the same arguments agree; heuristics draw nothing from the
    stream, random draws exactly once per decision (five times for a pile)."""
    name = ["random", "balanced", "void", "late"][code]
    params = strategy_params(parse_player(name, STRATEGIES))[None, :]
    shuffler = random.Random(code)
    for _ in range(300):
        faces = shuffler.sample(range(64), 14)
        hand = mask_of(faces[:8])
        unseen = mask_of(faces[8:])
        led = shuffler.choice([NO_SUIT, 0, 1, 2, 3])
        legal = hand
        if led != NO_SUIT and any(f >> 4 == led for f in faces[:8]):
            legal = mask_of(f for f in faces[:8] if f >> 4 == led)
        best = -1 if led == NO_SUIT else led * 16 + shuffler.randrange(16)
        calls = [
            (choose_pile, (code, params, 0, hand, 5)),
            (choose_action, (code, params, 0, hand, 3, 1, 2, 1, 4)),
            (choose_card, (code, params, 0, hand, legal, led, best, False, 1, 2, unseen, 3, 4)),
        ]
        for index, (function, arguments) in enumerate(calls):
            stream_a = np.array([12345], dtype=np.uint64)
            stream_b = np.array([12345], dtype=np.uint64)
            assert function(*arguments, stream_a) == function(*arguments, stream_b)
            draws = (5 if index == 0 else 1) if code == RANDOM else 0
            assert int(stream_a[0]) == (12345 + draws * GOLDEN) % 2**64
