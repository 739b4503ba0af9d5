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
import pytest

from zooanalysis.cards.deck import DeckSpec
from zooanalysis.cards.encoding import face_of
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.games.big_two import engine
from zooanalysis.games.big_two.engine import BuiltinStrategy
from zooanalysis.games.big_two.exhibit import exhibit_settings
from zooanalysis.games.big_two.rules import BigTwoSettings
from zooanalysis.games.big_two.strategies import STRATEGIES
from zooanalysis.rng import game_stream, shuffle
from zooanalysis.strategy_spec import parse_player

TESTED = ["random", "control", "greedy", "control:release=0,danger=13,keep_aces=0",
          "greedy:shed=0,hold_rank=5,danger=0",
          "control:shed=2.5,release=9,danger=0,keep_aces=0",
          "greedy:shed=1,hold_rank=13,danger=13"]
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
    def play() -> None:
        for players, passing in ((4, "hard"), (3, "soft"), (2, "hard")):
            rules = BigTwoSettings(players=players, passing=passing)
            names = ",".join((["random", "control", "greedy", "random"])[:players])
            for game in range(4):
                engine.play_game(rules, engine.lineup(names), 5, game)

    captured = capture(monkeypatch, play)
    changed = assert_no_peeking(captured[::3], reshuffle_hidden, random.Random(1))
    assert changed > 50  # the hidden hands really changed


def redrawn(state: engine.RoundState, seat: int, rng: random.Random):
    """Personal decks (the exhibit): a copy of ``state`` whose other hands are drawn anew
    from the faces nobody has played yet (each keeps its size; two may share a face)."""
    other = copy.deepcopy(state)
    unplayed = sorted(set(range(64)) & set(state.settings.deck.codes().tolist())
                      - set(state.played))
    for p in range(len(state.held)):
        if p != seat:
            other.held[p] = set(rng.sample(unplayed, len(state.held[p])))
    return other


def assert_no_peeking(captured, redeal, rng: random.Random) -> int:
    """At every captured decision: the redealt state gives the same observation and every
    ``TESTED`` strategy the same play and the same use of the random stream. Returns how
    many redeals really moved a hidden card."""
    changed = 0
    for state, seat in captured:
        other = redeal(state, seat, rng)
        changed += other.held != state.held
        seen = engine.observe(state, seat)
        assert engine.observe(other, seat) == seen
        for strategy in BUILT_IN:
            stream_a = np.array([54321], dtype=np.uint64)
            stream_b = stream_a.copy()
            first = strategy.choose_play(seen, stream_a)
            second = strategy.choose_play(engine.observe(other, seat), stream_b)
            assert first == second and stream_a[0] == stream_b[0]
    return changed


def capture(monkeypatch, play) -> list[tuple[engine.RoundState, int]]:
    """(state, seat) at every decision of ``play()``."""
    captured: list[tuple[engine.RoundState, int]] = []
    original = engine.observe

    def spy(state, seat):
        captured.append((copy.deepcopy(state), seat))
        return original(state, seat)

    monkeypatch.setattr(engine, "observe", spy)
    play()
    monkeypatch.setattr(engine, "observe", original)
    return captured


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(BigTwoSettings(opening="start-player", round_end="last-out",
                                    passing="soft"), id="start-player-last-out-soft"),
        pytest.param(BigTwoSettings(players=3, suit_order="CDHS", extra_card_to_opener=False),
                     id="3p-clubs-lowest-extra-aside"),
        pytest.param(BigTwoSettings(players=2, cards_per_player=(("2", 26), ("3", 17),
                                                                 ("4", 13))), id="2p-26-each"),
        pytest.param(BigTwoSettings(target=12, double_from=8, triple_from=11), id="4p-match"),
    ],
)
def test_no_peeking_under_every_setting(monkeypatch, rules):
    """The other opening, passing and round-end rules, suit order, deals and a match (the
    penalty totals are public): no hidden card changes a decision."""
    names = ",".join(["control", "random", "greedy", "random"][:rules.players])
    captured = capture(monkeypatch, lambda: [
        engine.play_game(rules, engine.lineup(names), 6, game) for game in range(3)])
    if rules.is_match:
        assert any(any(state.penalties) for state, _ in captured), "penalties were public"
    changed = assert_no_peeking(captured[::2], reshuffle_hidden, random.Random(2))
    if rules.players == 2 and rules.per_player == 26:
        assert changed == 0, "two hands of 26: each player can work out the other's hand"
    else:
        assert changed > 30


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("identical", [EARLIER_WINS, LATER_WINS])
def test_no_peeking_in_the_exhibit_with_personal_decks(monkeypatch, players, identical):
    """The Through the Zoo exhibit (hands from personal decks, the start player leading
    anything, both rules for identical plays): other hands redrawn change no decision."""
    rules = exhibit_settings(players)
    names = ",".join(["greedy", "control", "random", "control"][:players])

    def play():
        for index in range(3):
            stream = game_stream(40 + index, 0)
            hands = []
            for seat in range(players):
                deck = DeckSpec().codes(first_copy=seat).copy()
                shuffle(deck, stream)
                hands.append(sorted(face_of(int(code)) for code in deck[:13]))
            engine.play_round(rules, hands, index % players, engine.lineup(names), stream,
                              identical)

    captured = capture(monkeypatch, play)
    changed = assert_no_peeking(captured, redrawn, random.Random(players))
    assert changed > len(captured) // 2
