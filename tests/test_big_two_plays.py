"""The compiled play lists equal the readable definitions: every subset of a hand that
``rules.classify`` calls a play and ``rules.beats`` allows, in the listing order."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.games.big_two.plays import list_plays, listing_key, max_plays
from zooanalysis.games.big_two.rules import (
    FLUSH,
    FOUR,
    FULL_HOUSE,
    KIND_SIZE,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    BigTwoSettings,
    beats,
    classify,
)

SETTINGS = BigTwoSettings()
FACES = [suit * 16 + rank for suit in range(4) for rank in range(1, 14)]


def id_mask(faces) -> np.uint64:
    return np.uint64(sum(1 << int(SETTINGS.card_ids[face]) for face in faces))


def brute_force(hand, table, must, identical):
    """Every legal play of ``hand`` from the definitions, in the listing order."""
    plays = []
    table_kind = classify(table, SETTINGS) if table else None
    for size in (1, 2, 3, 5):
        for cards in combinations(sorted(hand), size):
            found = classify(cards, SETTINGS)
            if found is None:
                continue
            kind, key = found
            if must is not None and must not in cards:
                continue
            if table_kind and not beats(key, size, table_kind[1], len(table), identical):
                continue
            ids = [int(SETTINGS.card_ids[face]) for face in cards]
            plays.append(((kind, listing_key(ids, kind)), int(id_mask(cards)), key))
    plays.sort()
    return [(mask, key) for _, mask, key in plays]


def compiled(hand, table, must, identical):
    size = max_plays(len(hand))
    masks = np.zeros(size, dtype=np.uint64)
    keys = np.zeros(size, dtype=np.int64)
    table_key = classify(table, SETTINGS)[1] if table else 0
    must_mask = id_mask([must]) if must is not None else np.uint64(0)
    n = list_plays(id_mask(hand), table_key, len(table), must_mask, identical, masks, keys)
    return [(int(masks[i]), int(keys[i])) for i in range(n)]


def test_kinds_rank_as_the_rules_say():
    """"Straight < Flush < Full House < Bomb < Straight Flush"; 2s high then aces."""
    def key(text):
        return classify(parse_cards(text), SETTINGS)

    assert key("3D 4C 5H 6S 7D")[0] == STRAIGHT
    assert key("3D 5D 7D 9D JD")[0] == FLUSH
    assert key("3D 3C 3H 4S 4D")[0] == FULL_HOUSE
    assert key("3D 3C 3H 3S 4D")[0] == FOUR
    assert key("3D 4D 5D 6D 7D")[0] == STRAIGHT_FLUSH
    order = ["10S JD QD KD AD", "3D 5D 7D 9D JD", "3D 3C 3H 4S 4D", "3D 3C 3H 3S 4D",
             "3D 4D 5D 6D 7D"]
    keys = [key(text)[1] for text in order]
    assert keys == sorted(keys)
    assert key("2D")[1] > key("AS")[1] > key("KS")[1]
    assert key("2S")[1] > key("2H")[1] > key("2C")[1] > key("2D")[1]
    assert key("JD QD KD AH 2C")[0] == STRAIGHT  # J-Q-K-A-2 is the top straight
    assert key("AD 2D 3C 4C 5C") is None and key("2D 3C 4C 5C 6C") is None
    assert key("5S 5H")[1] > key("5C 5D")[1] and key("5D 5S")[1] > key("5C 5H")[1]
    assert key("4D 4C")[0] == PAIR and key("4D 5D") is None and key("3D 3C 3H 4D") is None


def test_a_hand_with_every_kind():
    hand = parse_cards("3D 3C 3H 3S 4D 5D 6D 7D 8H 9C 9S 2S AS")
    assert compiled(hand, [], None, EARLIER_WINS) == brute_force(hand, [], None, EARLIER_WINS)
    kinds = {key >> 24 for _, key in compiled(hand, [], None, EARLIER_WINS)}
    assert kinds == set(range(1, 9)) - {FLUSH}  # the five diamonds are a straight flush
    opening = compiled(hand, [], parse_cards("3D")[0], EARLIER_WINS)
    assert opening and all(mask & 1 for mask, _ in opening)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(FACES), min_size=1, max_size=11, unique=True),
    st.lists(st.sampled_from(FACES), min_size=0, max_size=5, unique=True),
    st.booleans(),
    st.booleans(),
)
def test_compiled_list_is_the_definition(hand, table, later, with_must):
    """Any hand, any play on the table (or none), both tie rules, with or without a card that
    must be included: the compiled list is the brute-force list, in order."""
    if table and classify(table, SETTINGS) is None:
        table = table[:1]
    identical = LATER_WINS if later else EARLIER_WINS
    must = hand[0] if with_must and not table else None
    assert compiled(hand, table, must, identical) == brute_force(hand, table, must, identical)


def test_identical_faces_follow_the_tie_rule():
    """Personal decks: the same pair from another deck beats only under later-wins."""
    hand = parse_cards("9C 9H")
    assert compiled(hand, hand, None, EARLIER_WINS) == []
    assert len(compiled(hand, hand, None, LATER_WINS)) == 1


def test_sizes_match_kinds():
    assert list(KIND_SIZE[1:]) == [1, 2, 3, 5, 5, 5, 5, 5]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(FACES), min_size=1, max_size=18, unique=True),
    st.lists(st.sampled_from(FACES), min_size=0, max_size=5, unique=True),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_fast_random_is_the_listed_random(hand, table, later, seed):
    """``random_fast`` counts instead of listing, but picks exactly the play (or pass) that
    ``random_play`` picks from the full list, with the same draws."""
    from zooanalysis.games.big_two.strategies import count_five, random_fast, random_play

    if table and classify(table, SETTINGS) is None:
        table = table[:1]
    identical = LATER_WINS if later else EARLIER_WINS
    size = max_plays(len(hand))
    masks = np.zeros(size, dtype=np.uint64)
    keys = np.zeros(size, dtype=np.int64)
    table_key = classify(table, SETTINGS)[1] if table else 0
    mask = id_mask(hand)
    n = list_plays(mask, table_key, len(table), np.uint64(0), identical, masks, keys)
    if not table:
        assert count_five(mask) == sum(1 for i in range(n) if keys[i] >> 24 >= 4)
    one = np.array([seed], dtype=np.uint64)
    two = one.copy()
    expected = random_play(n, not table, masks, keys, one)
    got = random_fast(mask, table_key, len(table), np.uint64(0), identical, masks, keys, two)
    assert (int(got[0]), int(got[1])) == (int(expected[0]), int(expected[1]))
    assert got[2] == n  # the legal plays it counted (the kernel's decision options)
    assert one[0] == two[0]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 2**32 - 1))
def test_scalar_draw_is_the_stream_draw(state, n):
    """``strategies.draw`` (the kernel's scalar stream) draws what ``rng.below`` draws from a
    stream array in that state, and leaves the state the array is left in."""
    from zooanalysis.games.big_two.strategies import draw
    from zooanalysis.rng import below

    stream = np.array([state], dtype=np.uint64)
    expected = below(stream, n)
    pick, after = draw(np.uint64(state), n)
    assert 0 <= pick < n
    assert (int(pick), int(after)) == (int(expected), int(stream[0]))
