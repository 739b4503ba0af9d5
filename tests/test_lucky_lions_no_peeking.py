"""No Lucky Lions strategy peeks: changing what a player cannot see never changes its view.

Whole games are played on the reference engine. At every decision the hidden part of the
state — the other players' dice (contents and order, sizes kept), the Animal Card draw pile,
the face-down Zoo Cards and the other players' secret discards — is reshuffled; the deciding
player's observation, and so every built-in strategy's decision and its use of the random
stream, must be the same on the changed state.
"""

from __future__ import annotations

import copy
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.games.lucky_lions import engine
from zooanalysis.games.lucky_lions.engine import BuiltinStrategy, lineup, play_game
from zooanalysis.games.lucky_lions.rules import FLAGS, settings_from_table
from zooanalysis.games.lucky_lions.strategies import STRATEGIES
from zooanalysis.strategy_spec import parse_player

_observe = engine.observe


def hide_differently(state: engine.GameState, seat: int, rng: random.Random) -> engine.GameState:
    """A copy of ``state`` that differs only in what ``seat`` cannot see."""
    twin = copy.deepcopy(state)
    others = [p for q, p in enumerate(twin.players) if q != seat]
    hidden = [t for p in others for t in p.die] + twin.pile
    rng.shuffle(hidden)
    for player in others:
        size = len(player.die)
        player.die[:], hidden = hidden[:size], hidden[size:]
        player.discarded = []
    twin.pile = hidden
    rng.shuffle(twin.zoo_deck)
    return twin


def decisions(view: engine.Observation, stream: np.ndarray) -> list:
    """Every built-in strategy's answer to every question it can be asked from ``view``."""
    answers = []
    battlers = [view.active, (view.active + 1) % view.players]
    if view.seat not in battlers:
        battlers[1] = view.seat
    card = view.market[0] if view.market else None
    for name in STRATEGIES:
        strategy = BuiltinStrategy(parse_player(name, STRATEGIES))
        rng = stream.copy()
        answers.append(strategy.choose_discard(view, rng) if sum(view.die) > 1 else None)
        answers.append(strategy.choose_draw_instead(view, card, rng) if card else None)
        if card is not None and view.seat in battlers:
            k = min(len(card.cycle), sum(view.die))
            answers.append(tuple(strategy.choose_subset(view, card, battlers, k, rng)))
        if view.seat == view.active and view.market:
            answers.append(strategy.choose_card(view, rng))
        answers.append(int(rng[0]))
    return answers


def checking_observe(rng: random.Random, checked: list[int]):
    def observe(state, seat, active):
        view = _observe(state, seat, active)
        twin_view = _observe(hide_differently(state, seat, rng), seat, active)
        assert twin_view == view
        assert decisions(twin_view, state.stream) == decisions(view, state.stream)
        checked.append(seat)
        return view

    return observe


@settings(max_examples=8, deadline=None)
@given(
    flags=st.lists(st.sampled_from(FLAGS), unique=True),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
)
def test_hidden_cards_never_change_a_decision(flags, players, seed) -> None:
    rules = settings_from_table({flag: True for flag in flags} | {"players": players})
    names = ["greedy", "random", "equilibrium", "greedy", "random"][:players]
    checked: list[int] = []
    original = engine.observe
    engine.observe = checking_observe(random.Random(seed), checked)
    try:
        play_game(rules, lineup(",".join(names)), seed, 0)
    finally:
        engine.observe = original
    assert checked, "decisions were checked"


def test_the_check_notices_a_strategy_that_peeks() -> None:
    """A view that leaked another die would differ on the twin: the check would fail."""
    rules = settings_from_table({"players": 3})
    state = engine.new_game(rules, engine.game_stream(5, 0))
    twin = hide_differently(state, 0, random.Random(1))
    assert _observe(twin, 0, 0) == _observe(state, 0, 0)
    assert [p.die for p in twin.players[1:]] != [p.die for p in state.players[1:]]
