"""Extremes regardless of suit: the ranks held in any suit, the shortest suit, and the
weakest and strongest card of a mask under every order, checked against plain Python."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards import bits, orders
from zooanalysis.cards.notation import parse_card, parse_cards

faces = st.sets(st.integers(0, 63), max_size=64)


@settings(max_examples=300, deadline=None)
@given(faces)
def test_rank_union_and_shortest_suit_match_the_set(chosen: set[int]) -> None:
    mask = bits.mask_of(chosen)
    assert bits.rank_union(mask) == sum(1 << r for r in {face & 15 for face in chosen})
    counts = {suit: sum(1 for face in chosen if face >> 4 == suit) for suit in range(4)}
    held = [suit for suit in range(4) if counts[suit]]
    expected = min(held, key=lambda suit: (counts[suit], suit)) if held else -1
    assert bits.shortest_suit(mask) == expected


@settings(max_examples=300, deadline=None)
@given(faces, st.integers(0, orders.N_ORDERS - 1), st.sampled_from([orders.UP, orders.DOWN]))
def test_weakest_and_strongest_card_regardless_of_suit(chosen, order, direction) -> None:
    mask = bits.mask_of(chosen)
    if not chosen:
        assert orders.weakest_card(mask, order, direction) == -1
        assert orders.strongest_card(mask, order, direction) == -1
        return

    def key(face: int) -> tuple[int, int]:
        return (orders.strength(order, direction, face & 15), -(face >> 4))

    assert orders.strongest_card(mask, order, direction) == max(chosen, key=key)
    assert orders.weakest_card(mask, order, direction) == min(
        chosen, key=lambda face: (key(face)[0], face >> 4)
    )


def test_the_examples_by_hand() -> None:
    hand = bits.mask_of(parse_cards("2S 9H 9C KD AH"))
    assert orders.strongest_card(hand, orders.NUMERIC, orders.UP) == parse_card("KD")
    assert orders.weakest_card(hand, orders.NUMERIC, orders.UP) == parse_card("AH")
    assert orders.strongest_card(hand, orders.ACES_HIGH, orders.UP) == parse_card("AH")
    assert orders.weakest_card(hand, orders.ACES_HIGH, orders.UP) == parse_card("2S")
    # equal ranks: the lowest suit number (clubs) comes first either way
    nines = bits.mask_of(parse_cards("9H 9C"))
    assert orders.strongest_card(nines, orders.NUMERIC, orders.UP) == parse_card("9C")
    assert orders.weakest_card(nines, orders.NUMERIC, orders.UP) == parse_card("9C")
    assert bits.shortest_suit(hand) == 0  # clubs, diamonds and spades hold one card each
