"""Decks from settings and dealing: every deal conserves the deck, and a deal is the same
from plain Python and from compiled code on the same stream."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from zooanalysis.cards import deck as decks
from zooanalysis.cards import hands
from zooanalysis.cards.deck import DeckSpec, deal, standard_deck
from zooanalysis.cards.notation import format_cards, parse_cards
from zooanalysis.errors import SettingsError
from zooanalysis.rng import game_stream, seed_game, shuffle


@pytest.mark.parametrize(
    ("spec", "size"),
    [
        (standard_deck(1, 9), 36),  # Chai Tea Jazz 3p: "36 cards consisting of ranks 1-9"
        (standard_deck(1, 13, jokers=2), 54),  # Chai 6p: "1-13, in four suits, plus 2 Jokers"
        (standard_deck(1, 9, copies=2), 72),  # Chai 6p double deck: "2 copies of 1-9 each"
        (DeckSpec(decks.JASS_RANKS), 36),  # the Jass deck 6-A
        (standard_deck(2, 9), 32),  # Short Zoot Suit 2p
        (standard_deck(2, 13), 48),  # Short Zoot Suit 3p
        (standard_deck(), 52),  # Short Zoot Suit 4p, Hodge Podge Dodgeball, each Zoo deck
        (standard_deck(0, 15), 64),  # Bug House Millionaire: "64 Playing Cards (0-15 ...)"
    ],
)
def test_compendium_decks(spec: DeckSpec, size: int) -> None:
    codes = spec.codes()
    assert spec.size == size == len(codes) == len(set(codes.tolist()))
    assert list(codes) == sorted(codes)


def test_deck_cards_in_notation() -> None:
    assert format_cards(standard_deck(1, 2, jokers=2, copies=2).codes()) == (
        "AC 2C AD 2D AH 2H AS 2S JOKER AC#2 2C#2 AD#2 2D#2 AH#2 2H#2 AS#2 2S#2 JOKER#2"
    )
    # Through the Zoo: player 3's personal deck is copy 3 of every card
    personal = DeckSpec().codes(first_copy=3)
    assert format_cards(personal[:2]) == "AC#4 2C#4" and len(personal) == 52


def test_deck_settings() -> None:
    assert decks.deck_from_settings({"ranks": "1-9"}) == standard_deck(1, 9)
    assert decks.deck_from_settings({}) == standard_deck()
    assert decks.deck_from_settings(
        {"ranks": ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]}) == DeckSpec(decks.JASS_RANKS)
    assert decks.deck_from_settings({"ranks": "6-13, A"}) == DeckSpec(decks.JASS_RANKS)
    assert decks.deck_from_settings({"ranks": [0, 15], "jokers": 2, "copies": 2}) == DeckSpec(
        (0, 15), 2, 2)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"ranks": "1-16"}, r"'deck\.ranks': '1-16' in '1-16' is not a rank or range"),
        ({"ranks": "9-1"}, r"'deck\.ranks': '9-1'"),
        ({"ranks": [1, 20]}, r"'deck\.ranks': 20 in \[1, 20\]"),
        ({"ranks": 7}, r"'deck\.ranks': 7 is not a string of ranks"),
        ({"ranks": ""}, r"'deck\.ranks'"),
        ({"jokers": -1}, r"'deck\.jokers'.*0 to 16"),
        ({"copies": 0}, r"'deck\.copies'.*1 to 16"),
        ({"suits": 3}, r"'deck\.suits': unknown setting; allowed are copies, jokers, ranks"),
        ("1-9", r"'deck'"),
    ],
)
def test_bad_deck_settings_name_the_key(table, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        decks.deck_from_settings(table)


specs = st.builds(
    DeckSpec,
    st.sets(st.integers(0, 15), min_size=1, max_size=16).map(tuple),
    st.integers(0, 3),
    st.integers(1, 3),
)


@st.composite
def deals(draw):
    spec = draw(specs)
    players = draw(st.integers(1, 6))
    per_player = draw(st.one_of(st.none(), st.integers(0, spec.size // players)))
    return spec, players, per_player, draw(st.integers(0, 2**63 - 1)), draw(st.integers(0, 99))


@settings(max_examples=300, deadline=None)
@given(deals())
def test_every_deal_conserves_the_deck(case) -> None:
    spec, players, per_player, seed, game = case
    template = spec.codes()
    dealt, set_aside = deal(template, players, per_player, game_stream(seed, game))
    n = spec.size // players if per_player is None else per_player
    assert [len(hand) for hand in dealt] == [n] * players
    assert len(set_aside) == spec.size - players * n
    everything = [code for hand in dealt for code in hand] + set_aside
    assert Counter(everything) == Counter(template.tolist())  # the multiset of the deck


@njit(cache=True)
def _kernel_deal(template, players, per_player, seed, game, codes_out, hands_out, rest_out):
    """Deal as a kernel does: a deck array reloaded from the template, then dealt."""
    stream = np.empty(1, dtype=np.uint64)
    seed_game(stream, np.uint64(seed), np.int64(game))
    deck = template.copy()
    decks.deal_into(deck, players, per_player, stream, codes_out)
    for i in range(deck.shape[0] - players * per_player):
        rest_out[i] = deck[players * per_player + i]
    seed_game(stream, np.uint64(seed), np.int64(game))
    deck[:] = template
    decks.deal_to_hands(deck, players, per_player, stream, hands_out)


@settings(max_examples=100, deadline=None)
@given(deals())
def test_compiled_deals_are_the_python_deals(case) -> None:
    spec, players, per_player, seed, game = case
    template = spec.codes()
    n = spec.size // players if per_player is None else per_player
    dealt, set_aside = deal(template, players, per_player, game_stream(seed, game))
    codes_out = np.full((players, n), -1, dtype=np.int64)
    rows = hands.new_hands(players, spec.copies)
    rest = np.full(spec.size - players * n, -1, dtype=np.int64)
    _kernel_deal(template, players, n, seed, game, codes_out, rows, rest)
    assert codes_out.tolist() == dealt
    assert rest.tolist() == set_aside
    assert [hands.hand_list(rows[p]) for p in range(players)] == [sorted(h) for h in dealt]


def test_a_deal_is_one_shuffle_of_the_deck_on_the_stream() -> None:
    template = standard_deck(1, 9).codes()
    dealt, set_aside = deal(template, 3, 12, game_stream(7, 3))
    shuffled = template.copy()
    shuffle(shuffled, game_stream(7, 3))
    assert [code for hand in dealt for code in hand] == shuffled.tolist() and set_aside == []
    # Short Zoot Suit 2p: "2-9, 4 suits. Shuffle and deal all but 2"
    dealt, set_aside = deal(standard_deck(2, 9).codes(), 2, 15, game_stream(7, 3))
    assert [len(hand) for hand in dealt] == [15, 15] and len(set_aside) == 2


def test_impossible_deals_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot deal 14 cards to each of 4 players from 52"):
        deal(standard_deck().codes(), 4, 14, game_stream(1, 1))
    with pytest.raises(ValueError, match="deck ranks"):
        DeckSpec((16,))
    with pytest.raises(ValueError, match="copies"):
        DeckSpec(copies=17)


def test_cards_parse_into_a_deal_template() -> None:
    # a hand-built deck (e.g. from a rulebook example) deals like a built one
    template = np.array(parse_cards("7H 10S QS JOKER"), dtype=np.int64)
    dealt, _ = deal(template, 2, 2, game_stream(1, 2))
    assert sorted(dealt[0] + dealt[1]) == sorted(template.tolist())
