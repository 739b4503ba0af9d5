"""No peeking in Through the Zoo: a mulligan sees its own hand and its own deck's contents,
never the order of its deck, nor other players' hands or decks. Changing all of those leaves
every built-in strategy's observation and decision unchanged; changing the own hand does
change what the planner does (the test can fail)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.deck import DeckSpec
from zooanalysis.games.through_the_zoo import engine
from zooanalysis.games.through_the_zoo.rules import settings_from_table
from zooanalysis.games.through_the_zoo.strategies import STRATEGIES
from zooanalysis.rng import game_stream, shuffle

EXHIBITS = ("dodgeball", "dodgeball", "dodgeball", "dodgeball")


def _state(seed: int, round_index: int, players: int):
    stream = game_stream(seed, 0)
    hands, decks = [], []
    for seat in range(players):
        deck = DeckSpec().codes(first_copy=seat).copy()
        shuffle(deck, stream)
        cards = [int(c) for c in deck]
        left = 52 - 13 * (round_index + 1)
        hands.append(sorted(cards[left:left + 13]))
        decks.append(cards[:left])
    return hands, decks


def assert_hidden_cards_change_nothing(rules, seat, round_index, exhibits, hands, decks,
                                       points, start, other_seed, strategies, stream_seed):
    """Draw anew every card ``seat`` cannot see (the other players' hands and decks) and
    reorder its own deck and hand: its observation and every strategy's mulligan (from the
    same random stream) stay the same."""
    players = len(hands)
    base = engine.observe(rules, seat, round_index, exhibits, hands, decks, points, start)
    other_hands, other_decks = _state(other_seed, round_index, players)
    other_hands[seat] = list(reversed(hands[seat]))
    own = list(decks[seat])
    np.random.default_rng(other_seed).shuffle(own)
    other_decks[seat] = own
    changed = engine.observe(rules, seat, round_index, exhibits, other_hands, other_decks,
                             points, start)
    assert changed == base
    for text in strategies:
        strategy = engine.lineup(text)[0]
        first = strategy.mulligan(base, game_stream(stream_seed, round_index))
        second = strategy.mulligan(changed, game_stream(stream_seed, round_index))
        assert first == second, text


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 3), st.sampled_from(["zooklyn", "johannesburg"]),
       st.integers(0, 2**31))
def test_hidden_cards_change_nothing(seed, round_index, zoo, other_seed) -> None:
    rules = settings_from_table({"zoo": zoo})
    hands, decks = _state(seed, round_index, 4)
    points = [[1, 2, 0, 3]] * round_index
    assert_hidden_cards_change_nothing(rules, seed % 4, round_index, EXHIBITS, hands, decks,
                                       points, 1, other_seed, list(STRATEGIES), 7)


def test_the_own_hand_matters() -> None:
    """Not vacuous: the planner reacts to its own cards."""
    rules = settings_from_table({})
    decisions = set()
    for seed in range(20):
        hands, decks = _state(seed, 0, 4)
        observation = engine.observe(rules, 0, 0, EXHIBITS, hands, decks, [], 0)
        decisions.add(len(engine.lineup("planner")[0].mulligan(observation, game_stream(1, 0))))
    assert len(decisions) > 1


TESTED = ["keep-all", "random", "fit", "fit:margin=0", "planner", "planner:margin=6,future=2",
          "planner:margin=0,future=0"]
EXHIBIT_LISTS = [("hearts", "dodgeball", "big-two", "hearts"), ("big-two",) * 4,
                 ("hearts",) * 4, ("big-two", "hearts", "hearts", "big-two")]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 3), st.sampled_from(["zooklyn", "johannesburg"]),
       st.integers(2, 4), st.sampled_from(EXHIBIT_LISTS), st.sampled_from([-1, 0, 3, 13]),
       st.integers(0, 2**31))
def test_hidden_cards_change_nothing_for_any_exhibits_players_and_limit(
    seed, round_index, zoo, players, exhibits, limit, other_seed
) -> None:
    """Every exhibit game (Hearts, Big Two, Dodgeball, in any order), 2 to 4 players, both
    zoos, any mulligan limit, every built-in strategy with its parameters: other players'
    hands and decks and the own deck's order change no observation and no mulligan."""
    if players != 4:
        exhibits = tuple("hearts" if name == "dodgeball" else name for name in exhibits)
    rules = settings_from_table({"zoo": zoo, "players": players, "exhibits": list(exhibits),
                                 "mulligan_limit": limit})
    hands, decks = _state(seed, round_index, players)
    points = [[(seat + r) % 3 for seat in range(players)] for r in range(round_index)]
    assert_hidden_cards_change_nothing(rules, seed % players, round_index, exhibits, hands,
                                       decks, points, round_index % players, other_seed,
                                       TESTED, 8)
