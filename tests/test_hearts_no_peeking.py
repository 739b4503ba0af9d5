"""No strategy peeks: changing only cards a player cannot see never changes its decision.

Games are played on the reference engine; at every decision (passing and every card) the
other players' hands are dealt anew among themselves, keeping each hand's size, the
deciding player's hand and every public fact (the trick, the cards played, the point cards
taken, the scores). The player's observation, every built-in strategy's decision and its
use of the random stream must not change. The kernel makes the same decisions as the engine
game by game (``test_hearts_engines_agree.py``), from the same arguments.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from zooanalysis.games.hearts import engine
from zooanalysis.games.hearts.engine import BuiltinStrategy, HandState
from zooanalysis.games.hearts.rules import HeartsSettings
from zooanalysis.games.hearts.strategies import STRATEGIES
from zooanalysis.strategy_spec import parse_player

TESTED = ["random", "safe", "bold", "safe:keep_spades=0", "bold:moon_at=2,flush=0",
          "bold:moon_at=0,keep_spades=14"]  # fmt: skip
BUILT_IN = [BuiltinStrategy(parse_player(text, STRATEGIES)) for text in TESTED]


def reshuffled(state: HandState, seat: int, shuffler: random.Random) -> HandState:
    """A copy of ``state`` with the other players' cards dealt anew (same hand sizes)."""
    other = copy.deepcopy(state)
    others = [p for p in range(other.players) if p != seat]
    pool = [card for p in others for card in sorted(other.hands[p])]
    shuffler.shuffle(pool)
    for p in others:
        size = len(other.hands[p])
        other.hands[p], pool = set(pool[:size]), pool[size:]
    return other


class Inspector:
    """Replaces ``engine.observe``: at every decision, the deciding player's observation and
    every built-in strategy's decision survive reshuffling the hidden cards."""

    def __init__(self, real_observe, seed: int) -> None:
        self.real_observe = real_observe
        self.shuffler = random.Random(seed)
        self.checked = 0
        self.changed = 0
        self.phases: set[str] = set()

    def __call__(self, state: HandState, seat: int, pass_count: int = 0):
        seen = self.real_observe(state, seat, pass_count)
        self.phases.add("pass" if pass_count else "card")
        for _ in range(2):
            other = reshuffled(state, seat, self.shuffler)
            if [sorted(h) for h in other.hands] != [sorted(h) for h in state.hands]:
                self.changed += 1
            again = self.real_observe(other, seat, pass_count)
            assert again == seen
            for strategy in BUILT_IN:
                assert decide(strategy, seen, 7) == decide(strategy, again, 7)
        self.checked += 1
        return seen


def decide(strategy: BuiltinStrategy, observation, seed: int) -> tuple:
    """The strategy's decision and the random stream's state after it."""
    stream = np.array([seed], dtype=np.uint64)
    if observation.pass_count:
        choice = tuple(sorted(strategy.choose_pass(observation, stream)))
    else:
        choice = strategy.choose_card(observation, stream)
    return choice, int(stream[0])


@pytest.mark.parametrize(
    ("rules", "lineup"),
    [
        (HeartsSettings(max_hands=2), "safe,bold,random,bold:moon_at=2"),
        (HeartsSettings(max_hands=1).for_exhibit(), "random,safe,bold,safe"),
    ],
)
def test_hidden_cards_change_no_decision(monkeypatch, rules, lineup) -> None:
    inspector = Inspector(engine.observe, seed=5)
    monkeypatch.setattr(engine, "observe", inspector)
    for game in range(3):
        engine.play_game(rules, engine.lineup(lineup), 11, game)
    assert inspector.checked > 100 and inspector.changed > 100
    assert inspector.phases == ({"pass", "card"} if rules.passing != "hold" else {"card"})


def test_observation_holds_no_other_hand() -> None:
    """The observation's fields: its own hand and passes, and public facts only."""
    fields = set(engine.Observation.__dataclass_fields__)
    assert "hands" not in fields and "taken" not in fields
    assert {"hand", "passed", "trick", "played", "point_cards_taken", "scores"} <= fields
