"""Sets of suited faces as one ``uint64`` bit mask: bit ``suit * 16 + rank`` is that face.

The mask is the four suits' 16-bit rank masks side by side (Clubs in bits 0-15, Diamonds
16-31, Hearts 32-47, Spades 48-63), so "the hand's Hearts" is one AND with
``SUIT_FACES[HEARTS]``, a follow rule is one AND with ``SUIT_SET_FACES[allowed suits]``,
and a suited run is a run of set bits inside one 16-bit lane. Jokers (face 64) are not in
the mask: hands keep them apart (``hands.py``).

Every function takes and returns ``np.uint64`` masks (a Python ``int`` is converted first,
so they are callable from plain Python too); faces are plain ints.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from zooanalysis.cards.encoding import N_SUITED_FACES, N_SUITS

EMPTY = np.uint64(0)
_ONE = np.uint64(1)
_LANE = np.uint64(0xFFFF)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)

SUIT_FACES = np.array([0xFFFF << (16 * suit) for suit in range(N_SUITS)], dtype=np.uint64)
"""``SUIT_FACES[suit]``: the 16 faces of one suit."""
SUIT_SET_FACES = np.array(
    [sum(0xFFFF << (16 * s) for s in range(N_SUITS) if suits >> s & 1) for suits in range(16)],
    dtype=np.uint64,
)
"""``SUIT_SET_FACES[suits]``: every face of the suits in a 4-bit suit set (bit ``s`` = suit s)."""
SUIT_BIT = np.array([1, 2, 4, 8, 0], dtype=np.int64)
"""``SUIT_BIT[suit]``: suit ``suit`` as a 4-bit suit set; ``SUIT_BIT[NO_SUIT]`` is empty."""


@njit(cache=True, nogil=True, error_model="numpy")
def face_bit(face: int) -> np.uint64:
    """The mask holding only ``face`` (a suited face, 0-63)."""
    return _ONE << np.uint64(face)


@njit(cache=True, nogil=True, error_model="numpy")
def holds(mask, face: int) -> bool:
    """Whether the suited ``face`` is in ``mask``."""
    return (np.uint64(mask) >> np.uint64(face)) & _ONE != EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def count_faces(mask) -> int:
    """How many faces ``mask`` holds (population count, no loop)."""
    m = np.uint64(mask)
    m = m - ((m >> _S1) & _M1)
    m = (m & _M2) + ((m >> _S2) & _M2)
    m = (m + (m >> _S4)) & _M4
    return np.int64((m * _H01) >> _S56)


@njit(cache=True, nogil=True, error_model="numpy")
def lowest_face(mask) -> int:
    """The lowest face in ``mask`` (Clubs' lowest rank first), or -1 if empty."""
    m = np.uint64(mask)
    if m == EMPTY:
        return -1
    return count_faces((m & (~m + _ONE)) - _ONE)


@njit(cache=True, nogil=True, error_model="numpy")
def highest_face(mask) -> int:
    """The highest face in ``mask`` (Spades' highest rank first), or -1 if empty."""
    m = np.uint64(mask)
    if m == EMPTY:
        return -1
    m |= m >> np.uint64(1)
    m |= m >> np.uint64(2)
    m |= m >> np.uint64(4)
    m |= m >> np.uint64(8)
    m |= m >> np.uint64(16)
    m |= m >> np.uint64(32)
    return count_faces(m) - 1


@njit(cache=True, nogil=True, error_model="numpy")
def nth_face(mask, k: int) -> int:
    """The ``k``-th face of ``mask`` in increasing order (``k`` from 0), or -1 if too few."""
    m = np.uint64(mask)
    for _ in range(k):
        m &= m - _ONE
    return lowest_face(m)


@njit(cache=True, nogil=True, error_model="numpy")
def suits_held(mask) -> int:
    """The suits ``mask`` has at least one face of, as a 4-bit suit set."""
    m = np.uint64(mask)
    suits = 0
    for suit in range(N_SUITS):
        if (m >> np.uint64(16 * suit)) & _LANE != EMPTY:
            suits |= 1 << suit
    return suits


@njit(cache=True, nogil=True, error_model="numpy")
def suit_ranks(mask, suit: int) -> int:
    """The ranks of ``suit`` in ``mask`` as a 16-bit mask (bit ``rank``)."""
    return np.int64((np.uint64(mask) >> np.uint64(16 * suit)) & _LANE)


@njit(cache=True, nogil=True, error_model="numpy")
def rank_union(mask) -> int:
    """The ranks held in any suit of ``mask`` as a 16-bit mask (bit ``rank``)."""
    m = np.uint64(mask)
    lanes = m | (m >> np.uint64(16)) | (m >> np.uint64(32)) | (m >> np.uint64(48))
    return np.int64(lanes & _LANE)


@njit(cache=True, nogil=True, error_model="numpy")
def shortest_suit(mask) -> int:
    """The suit holding the fewest faces of ``mask`` among the suits it holds at all (the
    lowest suit number on ties), or -1 if ``mask`` is empty: "the shortest suit"."""
    m = np.uint64(mask)
    best, fewest = -1, 65
    for suit in range(N_SUITS):
        count = count_faces((m >> np.uint64(16 * suit)) & _LANE)
        if 0 < count < fewest:
            best, fewest = suit, count
    return best


def mask_of(faces: Iterable[int]) -> np.uint64:
    """The mask of a collection of suited faces (plain Python)."""
    mask = 0
    for face in faces:
        if not 0 <= int(face) < N_SUITED_FACES:
            raise ValueError(f"face {face!r} is not a suited face: allowed are 0-63")
        mask |= 1 << int(face)
    return np.uint64(mask)


def faces_in(mask) -> list[int]:
    """The faces of ``mask`` in increasing order (plain Python)."""
    value = int(mask)
    return [face for face in range(N_SUITED_FACES) if value >> face & 1]

