"""Rank orders: permutations, the rulebooks' orders exactly, and orders that flip per trick."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards import bits, orders
from zooanalysis.cards.encoding import CLUBS, DIAMONDS, HEARTS, SPADES
from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.orders import (
    ACES_HIGH,
    DOWN,
    MIDDLE_OUT,
    NUMERIC,
    PYRAMID,
    RANK_AT_STRENGTH,
    SLALOM,
    STRENGTH,
    TWOS_HIGH,
    UP,
    direction_for_trick,
    strength,
    strongest_first,
)
from zooanalysis.errors import SettingsError


def ranked(order: int, direction: int, ranks: list[int]) -> list[int]:
    """``ranks`` sorted strongest first by the compiled strength table."""
    return sorted(ranks, key=lambda rank: -strength(order, direction, rank))


@pytest.mark.parametrize("order", range(orders.N_ORDERS))
@pytest.mark.parametrize("direction", [UP, DOWN])
def test_every_order_is_a_permutation_of_the_16_ranks(order: int, direction: int) -> None:
    assert sorted(STRENGTH[order, direction]) == list(range(16))
    assert sorted(strongest_first(order, direction)) == list(range(16))
    for s in range(16):
        assert STRENGTH[order, direction, RANK_AT_STRENGTH[order, direction, s]] == s
    # the table says what the readable list says: earlier in the list is stronger
    listed = strongest_first(order, direction)
    assert ranked(order, direction, list(range(16))) == list(listed)
    assert strongest_first(order, 1 - direction) == listed[::-1]


def test_chai_tea_jazz_orders() -> None:
    one_to_nine = list(range(1, 10))
    # Trump / Over: "the 9 ... is the strongest down to the 1"
    assert ranked(NUMERIC, UP, one_to_nine) == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    # Under: "the lowest card is now the strongest: 1>2>3..>9"
    assert ranked(NUMERIC, DOWN, one_to_nine) == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    # Middle: "5, 4, 6, 3, 7, 2, 8, 1, 9"
    assert ranked(MIDDLE_OUT, UP, one_to_nine) == [5, 4, 6, 3, 7, 2, 8, 1, 9]
    # the Jass deck 6-A: Over ace high, Under 6 strongest and the ace weakest
    jass = [1, 6, 7, 8, 9, 10, 11, 12, 13]
    assert ranked(ACES_HIGH, UP, jass) == [1, 13, 12, 11, 10, 9, 8, 7, 6]
    assert ranked(ACES_HIGH, DOWN, jass) == [6, 7, 8, 9, 10, 11, 12, 13, 1]


def test_big_two_and_aces_high() -> None:
    standard = list(range(1, 14))
    assert ranked(TWOS_HIGH, UP, standard) == [2, 1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3]
    assert ranked(ACES_HIGH, UP, standard) == [1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    # aces low (Hodge Podge Dodgeball's "Al"), and Bug House's 0-15 in number order
    assert ranked(NUMERIC, UP, list(range(16))) == list(range(15, -1, -1))


@settings(deadline=None)
@given(st.integers(0, 1), st.integers(0, 30))
def test_slalom_flips_every_trick(start: int, trick: int) -> None:
    direction = direction_for_trick(start, SLALOM, trick)
    assert direction == (start if trick % 2 == 0 else 1 - start)
    assert direction_for_trick(start, SLALOM, trick + 1) == 1 - direction


@settings(deadline=None)
@given(st.integers(0, 1), st.integers(0, 40), st.integers(1, 8))
def test_blocks_of_tricks_flip_after_each_block(start: int, trick: int, block: int) -> None:
    expected = start if (trick // block) % 2 == 0 else 1 - start
    assert direction_for_trick(start, block, trick) == expected
    assert direction_for_trick(start, orders.FIXED, trick) == start


def test_pyramid_is_six_tricks_one_way_then_six_the_other() -> None:
    assert [direction_for_trick(DOWN, PYRAMID, t) for t in range(12)] == [DOWN] * 6 + [UP] * 6
    assert [direction_for_trick(UP, SLALOM, t) for t in range(4)] == [UP, DOWN, UP, DOWN]


def test_weakest_and_strongest_in_a_suit() -> None:
    # Dodgeball's Getting Hit example: Blazer holds 3 5 7 of Clubs, 9 10 of Spades, 8 of
    # Hearts, 4 9 of Diamonds; "the lowest rank within the suit" (aces low) may be benched:
    # "3 of Clubs, 9 of Spades, 8 of Hearts, or the 4 of Diamonds"
    hand = bits.mask_of(parse_cards("3C 5C 7C 9S 10S 8H 4D 9D"))
    benchable = orders.weakest_of_each_suit(hand, NUMERIC, UP)
    assert sorted(bits.faces_in(benchable)) == sorted(parse_cards("3C 9S 8H 4D"))
    assert orders.strongest_in_suit(hand, CLUBS, NUMERIC, UP) == parse_cards("7C")[0]
    assert orders.weakest_in_suit(hand, DIAMONDS, NUMERIC, DOWN) == parse_cards("9D")[0]
    assert orders.strongest_in_suit(hand, HEARTS, MIDDLE_OUT, UP) == parse_cards("8H")[0]
    assert orders.weakest_in_suit(bits.mask_of(parse_cards("AS KS 2S")), SPADES,
                                  ACES_HIGH, UP) == parse_cards("2S")[0]
    assert orders.weakest_in_suit(hand, SPADES, TWOS_HIGH, UP) == parse_cards("9S")[0]
    empty = bits.mask_of([])
    assert orders.weakest_in_suit(empty, SPADES, NUMERIC, UP) == -1
    assert orders.strongest_in_suit(empty, SPADES, NUMERIC, UP) == -1


def test_order_settings() -> None:
    assert orders.parse_order("middle-out", "contract.order") == MIDDLE_OUT
    assert orders.parse_direction("down", "contract.start") == DOWN
    with pytest.raises(SettingsError, match=r"'contract\.order'.*allowed are numeric, aces-high"):
        orders.parse_order("sideways", "contract.order")
    with pytest.raises(SettingsError, match=r"'contract\.start'.*up, down"):
        orders.parse_direction("left", "contract.start")
