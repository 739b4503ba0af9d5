"""No peeking: a Hodge Podge Dodgeball decision depends only on what the deciding player may
know. At decision points of real games, everything it cannot see (the other hands,
the partner's included; the dummies' face-down cards; cards out of the round; cards placed
face down in a timeout) is dealt around again at random, keeping every public fact; the
observation and every built-in strategy's decision must stay the same."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from test_dodgeball_exhibit import personal_hands  # the exhibit's personal decks

from zooanalysis.games.dodgeball import engine, exhibit
from zooanalysis.games.dodgeball.engine import RoundState
from zooanalysis.games.dodgeball.rules import DodgeballSettings
from zooanalysis.games.dodgeball.strategies import (
    BLOCK_LEADER,
    BRING_BACK,
    CALL_TIMEOUT,
    DECISION_NAMES,
    DUMMY_EXCHANGE,
    HIT_BENCH,
    PLAY,
    SETUP_BENCH,
    SETUP_PASS,
    STRATEGIES,
    TIMEOUT_PLACE,
)
from zooanalysis.rng import game_stream

LINEUPS = ["random", "dodger", "coach", "dodger:keep_suits=10,allstar=0",
           "coach:call_suits=4,exchange=1",
           "dodger:hit_cost=0,catch_bonus=30,block_bonus=0,exchange=0",
           "coach:keep_suits=0,hit_cost=30,catch_bonus=0,block_bonus=30,allstar=0,call_suits=0"]


def snapshots(rules: DodgeballSettings, lineup: str, games: int, monkeypatch,
              exhibit_rounds: bool = False) -> list:
    """(state, decision kind, seat, decision details) at every decision of some games (or,
    with ``exhibit_rounds``, of Through the Zoo exhibit rounds from personal decks)."""
    seen = []
    original = engine._ask

    def recording(state, strategies, kind, seat, stream, **extra):
        seen.append((copy.deepcopy(state), kind, seat, extra))
        return original(state, strategies, kind, seat, stream, **extra)

    monkeypatch.setattr(engine, "_ask", recording)
    for game in range(games):
        if exhibit_rounds:
            stream = game_stream(78, game)
            exhibit.play_exhibit(rules, personal_hands(stream), game % 4, engine.lineup(lineup),
                                 stream)
        else:
            engine.play_game(rules, engine.lineup(lineup), 77, game)
    monkeypatch.setattr(engine, "_ask", original)
    return seen


def redeal_hidden(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """A copy of ``state`` with every card ``seat``'s player cannot see dealt around again
    (same places, same sizes)."""
    other = copy.deepcopy(state)
    known = {seat, other.controller(seat)}
    hidden_hands = [s for s in range(4) if s not in known and not other.is_dummy(s)]
    pool = [code for s in hidden_hands for code in other.hands[s]]
    pool += [code for below in other.under for code in below.values()]
    pool += [code for bench in other.face_down_bench for code in bench] + other.out
    rng.shuffle(pool)
    for s in hidden_hands:
        size = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:size]), pool[size:]
    for below in other.under:
        for key in below:
            below[key], pool = pool[0], pool[1:]
    for team in range(2):
        size = len(other.face_down_bench[team])
        other.face_down_bench[team], pool = pool[:size], pool[size:]
    other.out, pool = pool, []
    return other


@pytest.mark.parametrize(
    ("rules", "lineup"),
    [
        (DodgeballSettings(), "coach,random,dodger,coach"),
        (DodgeballSettings(ringers=True, timeouts=2), "random,coach,coach,dodger"),
        (DodgeballSettings(players=2), "coach,random"),
        (DodgeballSettings(players=2, ringers=True), "dodger,coach"),
    ],
)
def test_hidden_cards_change_no_observation_and_no_decision(rules, lineup, monkeypatch) -> None:
    by_kind = check_hidden_cards(rules, lineup, monkeypatch)
    expected = {PLAY, HIT_BENCH, BLOCK_LEADER, BRING_BACK, CALL_TIMEOUT, TIMEOUT_PLACE,
                SETUP_BENCH}
    expected |= {DUMMY_EXCHANGE} if rules.two_player else {SETUP_PASS}
    assert expected <= set(by_kind), [DECISION_NAMES[k] for k in expected - set(by_kind)]


VARIANTS = [
    pytest.param(DodgeballSettings(aces="high"), "coach,dodger,random,coach", id="aces-high"),
    pytest.param(DodgeballSettings(ringers=True, ringer_bench="zero", aces="high"),
                 "random,coach,dodger,random", id="ringers-zero-aces-high"),
    pytest.param(DodgeballSettings(ringers=True, ringer_bench="fourteen"),
                 "coach,random,random,dodger", id="ringers-fourteen"),
    pytest.param(DodgeballSettings(catch_bring_back=False, allstars=False, timeouts=3,
                                   setup_bench=2, setup_swap=2, match_points=3),
                 "random,coach,dodger,random", id="no-bring-back-no-allstars"),
    pytest.param(DodgeballSettings(ranks=tuple(range(1, 8)), timeouts=0, match_points=1),
                 "dodger,random,coach,random", id="small-deck-no-timeouts"),
    pytest.param(DodgeballSettings(players=2, dummy_face_down=3, dummy_face_up=8,
                                   two_player_hand=10, two_player_bench=2,
                                   two_player_exchange=0), "random,coach", id="2p-other-dummies"),
    pytest.param(DodgeballSettings(players=2, ringers=True, ringer_bench="zero", aces="high"),
                 "coach,random", id="2p-ringers-zero-aces-high"),
]


@pytest.mark.parametrize(("rules", "lineup"), VARIANTS)
def test_no_peeking_under_every_setting(rules, lineup, monkeypatch) -> None:
    """Every rule setting (aces, Ringers and their bench reading, All-Stars, the bring-back,
    timeouts, setup counts, match points, the 2-player dummies): the hidden cards change no
    observation and no decision of any built-in strategy (``LINEUPS``)."""
    by_kind = check_hidden_cards(rules, lineup, monkeypatch)
    assert PLAY in by_kind and HIT_BENCH in by_kind


def test_no_peeking_in_the_exhibit_with_personal_decks(monkeypatch) -> None:
    """Through the Zoo's Dodgeball rounds (hands from four personal decks, so a hand or a
    trick may hold identical faces): the hidden cards change no decision."""
    by_kind = check_hidden_cards(exhibit.exhibit_settings(4), "coach,random,dodger,random",
                                 monkeypatch, exhibit_rounds=True)
    assert {PLAY, HIT_BENCH, SETUP_BENCH, SETUP_PASS, CALL_TIMEOUT} <= set(by_kind)


def test_every_decision_kind_is_checked_somewhere(monkeypatch) -> None:
    """Over the settings above, every kind of decision was among the checked ones (the
    timeout's take too, which needs two bench cards and an exchange)."""
    kinds: set[int] = set()
    for rules, lineup in [(DodgeballSettings(), "coach,random,dodger,coach"),
                          (DodgeballSettings(players=2), "random,random")]:
        kinds |= set(check_hidden_cards(rules, lineup, monkeypatch))
    assert kinds == set(range(len(DECISION_NAMES))), [
        DECISION_NAMES[k] for k in set(range(len(DECISION_NAMES))) - kinds]


def check_hidden_cards(rules: DodgeballSettings, lineup: str, monkeypatch,
                       exhibit_rounds: bool = False) -> dict[int, list]:
    """Play some games; at sampled decisions of every kind redeal what the decider cannot
    see and assert that its observation and every ``LINEUPS`` strategy's decision stay the
    same. Returns the decision points by kind."""
    points = snapshots(rules, lineup, 12 if exhibit_rounds else 4, monkeypatch,
                       exhibit_rounds)
    rng = random.Random(5)
    by_kind: dict[int, list] = {}
    for point in points:
        by_kind.setdefault(point[1], []).append(point)
    sample = [
        point for group in by_kind.values() for point in rng.sample(group, min(60, len(group)))
    ]
    moved = 0
    strategies = engine.lineup(",".join(LINEUPS))
    for state, kind, seat, extra in sample:
        other = redeal_hidden(state, seat, rng)
        moved += other.hands != state.hands or other.under != state.under
        seen, again = state.observe(seat, **extra), other.observe(seat, **extra)
        assert seen == again, DECISION_NAMES[kind]
        for one, two in zip(seen.arrays(), again.arrays(), strict=True):
            np.testing.assert_array_equal(one, two)
        for strategy in strategies:
            first = strategy.decide(kind, seen, game_stream(3, 4))
            second = strategy.decide(kind, again, game_stream(3, 4))
            assert first == second, (strategy.player.label, DECISION_NAMES[kind])
    assert moved > len(sample) // 2, "the hidden cards really moved"
    return by_kind


def test_the_observation_holds_no_other_hand() -> None:
    """Partners do not share hands: a seat's observation names no card of another player's
    hand (4 players) and only the dummies' face-up cards (2 players)."""
    rules = DodgeballSettings()
    deal = engine.deal_round(rules, game_stream(8, 0))
    state = RoundState(rules, deal.hands, deal.under, deal.benches, deal.out, deal.all_cards())
    observation = state.observe(0)
    visible = set(observation.hand) | {c for bench in observation.benches for c in bench}
    for seat in (1, 2, 3):
        assert not visible & set(state.hands[seat])
    assert observation.dummy_cards == ((), (), (), ())
    assert STRATEGIES["random"].description.startswith("Uniform over the legal choices")
