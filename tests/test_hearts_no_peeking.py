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

from zooanalysis import rng
from zooanalysis.cards.deck import DeckSpec, deal
from zooanalysis.cards.encoding import face_of
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.games.hearts import engine
from zooanalysis.games.hearts.engine import BuiltinStrategy, HandState
from zooanalysis.games.hearts.exhibit import exhibit_settings
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


def redrawn(state: HandState, seat: int, shuffler: random.Random) -> HandState:
    """Personal decks (the exhibit): a copy of ``state`` in which every other player's hand
    is drawn anew from its own deck, as far as the table shows: any faces nobody has played
    yet (each hand keeps its size; two hands may share a face)."""
    other = copy.deepcopy(state)
    unplayed = sorted(set(engine.DECK) - set(state.played))
    for p in range(other.players):
        if p != seat:
            other.hands[p] = set(shuffler.sample(unplayed, len(state.hands[p])))
    return other


class Inspector:
    """Replaces ``engine.observe``: at every decision, the deciding player's observation and
    every built-in strategy's decision survive reshuffling the hidden cards."""

    def __init__(self, real_observe, seed: int, redeal=reshuffled) -> None:
        self.real_observe = real_observe
        self.redeal = redeal
        self.shuffler = random.Random(seed)
        self.checked = 0
        self.changed = 0
        self.phases: set[str] = set()

    def __call__(self, state: HandState, seat: int, pass_count: int = 0):
        seen = self.real_observe(state, seat, pass_count)
        self.phases.add("pass" if pass_count else "card")
        for _ in range(2):
            other = self.redeal(state, seat, self.shuffler)
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


@pytest.mark.parametrize(
    ("rules", "lineup"),
    [
        pytest.param(HeartsSettings(passing="left", jack_of_diamonds=-10,
                                    moon="shooter-subtracts", max_hands=2),
                     "bold:moon_at=2,safe,random,safe", id="omnibus-left"),
        pytest.param(HeartsSettings(passing="across", pass_cards=5, hearts_must_be_broken=False,
                                    queen_breaks_hearts=False, no_points_first_trick=False,
                                    moon="off", heart_points=2, queen_points=5, max_hands=2),
                     "random,bold,safe,bold:flush=0", id="everything-else-across"),
        pytest.param(HeartsSettings(passing="right", first_lead="start-seat", max_hands=2),
                     "safe,random,bold,safe", id="right-start-seat"),
    ],
)
def test_no_peeking_under_every_setting(monkeypatch, rules, lineup) -> None:
    """The other passing directions and counts, the breaking and first-trick rules off, the
    other moons and point values, the Omnibus Jack: no hidden card changes a decision."""
    inspector = Inspector(engine.observe, seed=6)
    monkeypatch.setattr(engine, "observe", inspector)
    for game in range(2):
        engine.play_game(rules, engine.lineup(lineup), 12, game)
    assert inspector.checked > 100 and inspector.changed > 100
    assert inspector.phases == {"pass", "card"}


def personal_hands(players: int, seed: int) -> list[list[int]]:
    """13 cards per player from its own shuffled deck (faces), as Through the Zoo draws."""
    stream = rng.game_stream(seed, 0)
    hands = []
    for seat in range(players):
        cards, _ = deal(DeckSpec().codes(first_copy=seat), 1, 13, stream)
        hands.append([face_of(code) for code in cards[0]])
    return hands


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("identical", [EARLIER_WINS, LATER_WINS])
def test_no_peeking_in_the_exhibit_with_personal_decks(monkeypatch, players, identical) -> None:
    """The Through the Zoo exhibit (2-4 players, hands from personal decks, both rules for
    identical cards): the other hands, redealt, change no decision."""
    inspector = Inspector(engine.observe, seed=players, redeal=redrawn)
    monkeypatch.setattr(engine, "observe", inspector)
    names = ",".join(["random", "safe", "bold", "bold:moon_at=2"][:players])
    for index in range(3):
        engine.play_hand(exhibit_settings(players), personal_hands(players, 50 + index),
                         engine.lineup(names), rng.game_stream(9, index),
                         start_seat=index % players, identical=identical)  # fmt: skip
    assert inspector.checked == 3 * 13 * players and inspector.changed > 20 * players
    assert inspector.phases == {"card"}
