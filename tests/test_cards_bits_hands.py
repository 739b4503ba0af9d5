"""Face masks and hand rows answer exactly what plain Python sets of cards answer."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards import bits, hands
from zooanalysis.cards.encoding import COPY_STRIDE, JOKER

face_sets = st.sets(st.integers(0, 63), max_size=64)


@settings(deadline=None)
@given(face_sets)
def test_mask_questions_match_the_set(faces: set[int]) -> None:
    mask = bits.mask_of(faces)
    ordered = sorted(faces)
    assert bits.faces_in(mask) == ordered
    assert bits.count_faces(mask) == len(faces)
    assert bits.lowest_face(mask) == (ordered[0] if faces else -1)
    assert bits.highest_face(mask) == (ordered[-1] if faces else -1)
    assert [bits.nth_face(mask, k) for k in range(len(faces) + 1)] == [*ordered, -1]
    assert bits.suits_held(mask) == sum(1 << s for s in {face // 16 for face in faces})
    for face in range(64):
        assert bits.holds(mask, face) == (face in faces)
    for suit in range(4):
        ranks = {face % 16 for face in faces if face // 16 == suit}
        assert bits.suit_ranks(mask, suit) == sum(1 << rank for rank in ranks)
        assert bits.faces_in(mask & bits.SUIT_FACES[suit]) == [
            face for face in ordered if face // 16 == suit
        ]


def test_suit_set_faces_table() -> None:
    for suits in range(16):
        expected = {f for f in range(64) if suits >> (f // 16) & 1}
        assert set(bits.faces_in(bits.SUIT_SET_FACES[suits])) == expected
    assert list(bits.SUIT_BIT) == [1, 2, 4, 8, 0]


def test_the_top_face_of_a_full_mask() -> None:
    full = bits.mask_of(range(64))
    assert bits.count_faces(full) == 64
    assert bits.highest_face(full) == 63 and bits.face_bit(63) == np.uint64(1 << 63)


hand_codes = st.integers(1, 4).flatmap(
    lambda copies: st.tuples(
        st.just(copies),
        st.sets(
            st.one_of(
                st.builds(lambda f, c: c * COPY_STRIDE + f, st.integers(0, 63),
                          st.integers(0, copies - 1)),
                st.builds(lambda j: j * COPY_STRIDE + JOKER, st.integers(0, 3)),
            ),
            max_size=40,
        ),
    )
)


@settings(deadline=None)
@given(hand_codes, st.sets(st.integers(0, 63)), st.booleans())
def test_hand_rows_hold_exactly_their_cards(case, allowed_faces, jokers_ok) -> None:
    copies, codes = case
    hand = hands.new_hands(1, copies)[0]
    for code in codes:
        hands.hand_add(hand, code)
    ordered = sorted(codes)
    assert hands.hand_list(hand) == ordered
    out = np.zeros(64 * copies + 4, dtype=np.int64)
    assert list(out[: hands.hand_codes(hand, out)]) == ordered
    assert hands.hand_size(hand) == len(codes)
    assert hands.hand_jokers(hand) == sum(code % COPY_STRIDE == JOKER for code in codes)
    assert set(bits.faces_in(hands.hand_faces(hand))) == {
        code % COPY_STRIDE for code in codes if code % COPY_STRIDE != JOKER
    }
    for code in ordered:
        assert hands.hand_has(hand, code)
    # playable cards are numbered in increasing code order, as sorted() numbers them
    allowed = bits.mask_of(allowed_faces)
    playable = [
        code for code in ordered
        if (jokers_ok if code % COPY_STRIDE == JOKER else code % COPY_STRIDE in allowed_faces)
    ]
    assert hands.count_playable(hand, allowed, jokers_ok) == len(playable)
    assert [hands.nth_playable(hand, allowed, jokers_ok, k) for k in range(len(playable) + 1)
            ] == [*playable, -1]
    for code in ordered:
        hands.hand_remove(hand, code)
        assert not hands.hand_has(hand, code)
    assert hands.hand_size(hand) == 0 and not hand.any()


def test_hand_fill_replaces_the_hand() -> None:
    hand = hands.new_hands(1, 2)[0]
    hands.hand_add(hand, 5)
    dealt = np.array([3, 130, JOKER, 7, 9], dtype=np.int64)
    hands.hand_fill(hand, dealt, 1, 4)
    assert hands.hand_list(hand) == [7, JOKER, 130]
    assert hands.hand_from_codes([130, JOKER, 7], copies=2).tolist() == hand.tolist()
