"""Bug House Millionaire's melds: which melds exist, which beat which (the rulebook's
examples), and the compiled walk over legal melds equal to its readable twin."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.bits import faces_in, mask_of
from zooanalysis.cards.notation import parse_cards
from zooanalysis.games.bug_house.melds import (
    NONE,
    PAIR,
    RUN,
    SINGLE,
    describe,
    is_meld,
    legal_melds,
    meld_count,
    meld_of,
    nth_meld,
    pair_total,
)
from zooanalysis.games.bug_house.strategies import meld_cards, stated_need


def meld(text: str):
    return meld_of(parse_cards(text))


def test_a_higher_single_beats_a_single() -> None:
    """"Flik leads a 1. ... Zorak thinks a bit, then plays a 3." """
    assert meld("3C").beats(meld("1H"))
    assert not meld("1C").beats(meld("1H")), "an equal rank is not higher; suits never rank"
    assert not meld("0S").beats(meld("1H"))
    assert not meld("3C 3D").beats(meld("1H")), "a pair is not a higher single"


def test_runs_beat_runs_of_the_same_length() -> None:
    """"Jiminy leads a suited 4,5,6. ... Barry plays a suited 6,7,8. ... Jiminy plays a
    suited 11,12,13." A run is beaten by a higher run of the same length ("a higher
    combination of the lead meld"); a longer run only with longer_runs_beat."""
    lead = meld("4H 5H 6H")
    barry = meld("6C 7C 8C")
    jiminy = meld("11H 12H 13H")
    assert lead.kind == RUN and lead.high == 6
    assert barry.beats(lead) and jiminy.beats(barry)
    assert not lead.beats(barry)
    longer = meld("7S 8S 9S 10S")
    assert not longer.beats(barry)
    assert longer.beats(barry, longer_ok=True)
    assert not meld("3S 4S 5S 6S").beats(barry, longer_ok=True), "its highest card is lower"


def test_pairs() -> None:
    assert meld("7C 7S").kind == PAIR and meld("9D 9H").beats(meld("7C 7S"))
    assert not meld("7D 7H").beats(meld("7C 7S"))
    with pytest.raises(ValueError):
        meld_of(parse_cards("7C 8D"))
    with pytest.raises(ValueError):
        meld_of(parse_cards("7C 8C 10C"))


def test_describe_and_is_meld() -> None:
    assert describe(mask_of(parse_cards("5D"))) == (SINGLE, 1, 5)
    assert describe(mask_of(parse_cards("5D 5S"))) == (PAIR, 2, 5)
    assert describe(mask_of(parse_cards("13S 14S 15S"))) == (RUN, 3, 15)
    assert describe(mask_of(parse_cards("4C 5C"))) == (RUN, 2, 5)
    assert is_meld(mask_of(parse_cards("0C 1C 2C")), 3)
    assert not is_meld(mask_of(parse_cards("0C 1C")), 3)
    assert is_meld(mask_of(parse_cards("0C 1C")), 2)
    assert not is_meld(mask_of(parse_cards("0C 2C 3C")), 3)
    assert not is_meld(mask_of(parse_cards("15C 0D 1D")), 3), "runs do not wrap across suits"


def test_leading_lists_every_meld_in_the_canonical_order() -> None:
    hand = parse_cards("3C 4C 5C 6C 5D 5S")
    melds = legal_melds(hand, None, 3)
    cards = [m.cards for m in melds]
    assert cards[:6] == [(c,) for c in sorted(hand)], "singles by face"
    assert cards[6:9] == [tuple(parse_cards(t)) for t in ("5C 5D", "5C 5S", "5D 5S")]
    assert cards[9:] == [tuple(parse_cards(t)) for t in ("3C 4C 5C", "4C 5C 6C", "3C 4C 5C 6C")]
    assert len(legal_melds(hand, None, 3, singles_ok=False)) == 6


def _walk(hand: set[int], top, min_run: int, longer_ok: bool, singles_ok: bool):
    kind = NONE if top is None else top.kind
    length = 0 if top is None else top.length
    high = -1 if top is None else top.high
    mask = mask_of(hand)
    n = meld_count(mask, kind, length, high, min_run, longer_ok, singles_ok)
    found = [nth_meld(mask, kind, length, high, min_run, longer_ok, singles_ok, k)
             for k in range(n)]
    return n, found


cards = st.sets(st.integers(0, 63), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    hand=cards,
    top_cards=st.sampled_from(
        [None, "3H", "0C", "15D", "7C 7S", "0D 0H", "14C 14S", "4H 5H 6H", "0S 1S 2S",
         "9C 10C 11C 12C", "13D 14D 15D", "5S 6S"]
    ),
    min_run=st.integers(2, 5),
    longer_ok=st.booleans(),
    singles_ok=st.booleans(),
)
def test_the_compiled_walk_equals_the_readable_list(
    hand, top_cards, min_run, longer_ok, singles_ok
) -> None:
    top = None if top_cards is None else meld(top_cards)
    if top is not None and top.kind == RUN and top.length < min_run:
        min_run = top.length
    expected = legal_melds(hand, top, min_run, longer_ok, singles_ok)
    n, found = _walk(hand, top, min_run, longer_ok, singles_ok)
    assert n == len(expected)
    for (mask, kind, length, high), want in zip(found, expected, strict=True):
        assert faces_in(mask) == list(want.cards)
        assert (kind, length, high) == (want.kind, want.length, want.high)
        assert describe(np.uint64(mask)) == (kind, length, high)


@settings(max_examples=200, deadline=None)
@given(hand=cards, first=st.integers(0, 16))
def test_pair_total_counts_pairs(hand, first) -> None:
    expected = sum(1 for m in legal_melds(hand, None, 16) if m.kind == PAIR and m.high >= first)
    assert pair_total(mask_of(hand), first) == expected


def _plain_need(hand: set[int], min_run: int) -> set[int]:
    need = set()
    for card in set(range(64)) - hand:
        rank, suit = card & 15, card >> 4
        if sum(1 for s in range(4) if s * 16 + rank in hand) == 1:
            need.add(card)
        lane = {c & 15 for c in hand if c >> 4 == suit} | {rank}
        low = high = rank
        while low - 1 in lane:
            low -= 1
        while high + 1 in lane:
            high += 1
        if high - low + 1 >= min_run:
            need.add(card)
    return need


@settings(max_examples=200, deadline=None)
@given(hand=cards, min_run=st.integers(2, 6))
def test_stated_need_is_the_cards_that_make_a_new_pair_or_run(hand, min_run) -> None:
    assert set(faces_in(stated_need(mask_of(hand), min_run))) == _plain_need(hand, min_run)


@settings(max_examples=200, deadline=None)
@given(hand=cards, min_run=st.integers(2, 6))
def test_meld_cards_are_the_cards_in_pairs_and_runs(hand, min_run) -> None:
    expected = {c for m in legal_melds(hand, None, min_run, singles_ok=False) for c in m.cards}
    assert set(faces_in(meld_cards(mask_of(hand), min_run))) == expected
