"""No strategy peeks: changing only cards a player cannot see never changes its decision.

Games are played on the reference engine; at every decision the other players' hands are
reshuffled among themselves (each keeping its size), while the deciding player's hand and
every public fact (the table, who passed, every played card, hand sizes, penalties) stay.
The observation, every built-in strategy's decision and its use of the random stream must
not change. The kernel calls the same compiled decisions with the same arguments (the
deciding hand, the table, the fewest cards of another player), game by game equal to the
engine (``test_big_two_engines_agree.py``).
"""

from __future__ import annotations

import copy
import random

import numpy as np

from zooanalysis.games.big_two import engine
from zooanalysis.games.big_two.engine import BuiltinStrategy
from zooanalysis.games.big_two.rules import BigTwoSettings
from zooanalysis.games.big_two.strategies import STRATEGIES
from zooanalysis.strategy_spec import parse_player

TESTED = ["random", "control", "greedy", "control:release=0,danger=13,keep_aces=0",
          "greedy:shed=0,hold_rank=5,danger=0"]
BUILT_IN = [BuiltinStrategy(parse_player(text, STRATEGIES)) for text in TESTED]


def reshuffle_hidden(state: engine.RoundState, seat: int, rng: random.Random):
    """A copy of ``state`` whose other hands are dealt anew from their own cards."""
    other = copy.deepcopy(state)
    seats = [p for p in range(len(state.held)) if p != seat]
    pool = [card for p in seats for card in state.held[p]]
    rng.shuffle(pool)
    for p in seats:
        size = len(state.held[p])
        other.held[p], pool = set(pool[:size]), pool[size:]
    return other


def test_hidden_cards_never_change_a_decision(monkeypatch):
    captured: list[tuple[engine.RoundState, int]] = []
    original = engine.observe

    def spy(state, seat):
        captured.append((copy.deepcopy(state), seat))
        return original(state, seat)

    monkeypatch.setattr(engine, "observe", spy)
    for players, passing in ((4, "hard"), (3, "soft"), (2, "hard")):
        rules = BigTwoSettings(players=players, passing=passing)
        names = ",".join((["random", "control", "greedy", "random"])[:players])
        for game in range(4):
            engine.play_game(rules, engine.lineup(names), 5, game)
    monkeypatch.setattr(engine, "observe", original)
    rng = random.Random(1)
    changed = 0
    for state, seat in captured[::3]:
        other = reshuffle_hidden(state, seat, rng)
        changed += other.held != state.held
        seen = engine.observe(state, seat)
        assert engine.observe(other, seat) == seen
        for strategy in BUILT_IN:
            stream_a = np.array([12345], dtype=np.uint64)
            stream_b = stream_a.copy()
            first = strategy.choose_play(seen, stream_a)
            second = strategy.choose_play(engine.observe(other, seat), stream_b)
            assert first == second and stream_a[0] == stream_b[0]
    assert changed > 50  # the hidden hands really changed
