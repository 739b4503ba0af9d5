"""Card codes and text notation: every card reads back as itself, malformed cards are named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.encoding import (
    CLUBS,
    COPY_STRIDE,
    DIAMONDS,
    HEARTS,
    JOKER,
    MAX_COPIES,
    NO_SUIT,
    SPADES,
    Card,
    copy_of,
    face_of,
    joker,
    make_code,
    make_face,
    rank_of,
    suit_of,
)
from zooanalysis.cards.notation import (
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_rank,
)

faces = st.integers(0, JOKER)
copies = st.integers(0, MAX_COPIES - 1)
codes = st.builds(lambda face, copy: copy * COPY_STRIDE + face, faces, copies)


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("7H", HEARTS, 7),
        ("10S", SPADES, 10),
        ("QS", SPADES, 12),
        ("AS", SPADES, 1),
        ("1S", SPADES, 1),
        ("0H", HEARTS, 0),
        ("15C", CLUBS, 15),
        ("KD", DIAMONDS, 13),
        ("11d", DIAMONDS, 11),
        (" jc ", CLUBS, 11),
    ],
)
def test_suited_cards_parse_to_their_suit_and_rank(text: str, suit: int, rank: int) -> None:
    code = parse_card(text)
    assert (suit_of(face_of(code)), rank_of(face_of(code)), copy_of(code)) == (suit, rank, 0)
    assert Card.from_code(code) == Card(suit, rank)


def test_suit_numbers_follow_the_letters_c_d_h_s() -> None:
    assert [suit_of(face_of(parse_card(f"2{s}"))) for s in "CDHS"] == [0, 1, 2, 3]


def test_jokers_and_copies() -> None:
    assert parse_card("JOKER") == JOKER
    assert parse_card("joker#2") == COPY_STRIDE + JOKER
    assert parse_card("7H#1") == parse_card("7H")
    assert parse_card("7H#2") == COPY_STRIDE + make_face(HEARTS, 7)
    assert format_card(COPY_STRIDE + JOKER) == "JOKER#2"
    assert format_card(3 * COPY_STRIDE + make_face(CLUBS, 12)) == "QC#4"
    assert Card.from_code(JOKER + COPY_STRIDE) == joker(1)
    assert suit_of(JOKER) == NO_SUIT and str(joker()) == "JOKER"


def test_face_letters_or_numbers() -> None:
    cards = parse_cards("AH JH QH KH 10H")
    assert format_cards(cards) == "AH JH QH KH 10H"
    assert format_cards(cards, numeric=True) == "1H 11H 12H 13H 10H"


def test_lists_of_cards() -> None:
    assert parse_cards("7H 10S, QS") == parse_cards(["7H", "10S", "QS"])
    assert parse_cards("") == []


@settings(deadline=None)
@given(codes)
def test_every_card_code_reads_back_as_itself(code: int) -> None:
    assert parse_card(format_card(code)) == code
    assert parse_card(format_card(code, numeric=True)) == code
    card = Card.from_code(code)
    assert card.code == code and parse_card(str(card)) == code


@settings(deadline=None)
@given(st.integers(0, 3), st.integers(0, 15), copies)
def test_code_is_copy_times_128_plus_face(suit: int, rank: int, copy: int) -> None:
    code = make_code(make_face(suit, rank), copy)
    assert code == copy * 128 + suit * 16 + rank
    assert (suit_of(face_of(code)), rank_of(face_of(code)), copy_of(code)) == (suit, rank, copy)
    assert Card(suit, rank, copy).code == code


@pytest.mark.parametrize(
    "text", ["16H", "7X", "H7", "", "JOKE", "JOKER1", "7H#0", "7H#17", "07H", "7 H", "-1S", 7]
)
def test_malformed_cards_are_named_with_the_allowed_forms(text: object) -> None:
    with pytest.raises(ValueError, match="malformed card") as error:
        parse_card(text)  # type: ignore[arg-type]
    assert repr(text) in str(error.value)
    assert "C, D, H or S" in str(error.value) and "JOKER" in str(error.value)


def test_malformed_card_in_a_list_is_named() -> None:
    with pytest.raises(ValueError, match="'1OS'"):
        parse_cards("7H 1OS QS")


@pytest.mark.parametrize("code", [-1, 65, 100, MAX_COPIES * COPY_STRIDE, "7H"])
def test_non_codes_are_refused(code: object) -> None:
    with pytest.raises(ValueError, match="not a card code"):
        format_card(code)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a card code"):
        Card.from_code(code)  # type: ignore[arg-type]


def test_ranks() -> None:
    assert [parse_rank(t) for t in ("A", "J", "Q", "K", "0", "15")] == [1, 11, 12, 13, 0, 15]
    with pytest.raises(ValueError, match="malformed rank 'Z'"):
        parse_rank("Z")
