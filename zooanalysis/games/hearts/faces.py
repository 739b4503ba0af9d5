"""Hearts' cards in "aces-high" faces: the ace moved from rank 1 to rank 14.

Card codes (``zooanalysis.cards``) keep the ace at rank 1 in every game. Hearts ranks aces
high (``ACES_HIGH``: A > K > ... > 2), and its deck is the standard A-K, which never holds
a rank 14; so both engines' compiled strategies and the kernel work on *high faces*, the
same face with an ace at 14. Then a higher bit of a suit is a stronger card, and "the
highest card under the winning one" is a mask operation. A high face is
``suit * 16 + strength``, strength 2 (the Two) to 14 (the Ace).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from zooanalysis.cards.bits import SUIT_FACES, mask_of
from zooanalysis.cards.encoding import make_face

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, HIGH_ACE = 1, 14
ACES = np.uint64(sum(1 << (suit * 16 + ACE) for suit in range(4)))
HIGH_ACES = np.uint64(sum(1 << (suit * 16 + HIGH_ACE) for suit in range(4)))
_SHIFT = np.uint64(HIGH_ACE - ACE)

QUEEN_OF_SPADES = make_face(SPADES, 12)
JACK_OF_DIAMONDS = make_face(DIAMONDS, 11)
TWO_OF_CLUBS = make_face(CLUBS, 2)
HEART_FACES = SUIT_FACES[HEARTS]
QUEEN_BIT = np.uint64(1 << QUEEN_OF_SPADES)
POINT_FACES = HEART_FACES | QUEEN_BIT
"""The point cards (for the moon and for "no points on the first trick"): every heart and
the Queen of Spades (the same faces aces-high or not: the Ace of Hearts is a heart)."""


@njit(cache=True, nogil=True, error_model="numpy")
def high_mask(mask) -> np.uint64:
    """A face mask with every ace moved to rank 14."""
    m = np.uint64(mask)
    return (m & ~ACES) | ((m & ACES) << _SHIFT)


@njit(cache=True, nogil=True, error_model="numpy")
def card_mask(high) -> np.uint64:
    """The face mask of a high-face mask (aces back at rank 1)."""
    m = np.uint64(high)
    return (m & ~HIGH_ACES) | ((m & HIGH_ACES) >> _SHIFT)


@njit(cache=True, nogil=True, error_model="numpy")
def high_face(face: int) -> int:
    """The high face of a face (the ace at 14)."""
    return face + (HIGH_ACE - ACE) if face & 15 == ACE else face


@njit(cache=True, nogil=True, error_model="numpy")
def card_face(high: int) -> int:
    """The face of a high face (the ace back at 1)."""
    return high - (HIGH_ACE - ACE) if high & 15 == HIGH_ACE else high


def high_of(faces: Iterable[int]) -> np.uint64:
    """The high-face mask of some faces (card codes of one deck), as ``np.uint64`` (the
    type the kernel passes: a Python int would compile the strategies a second time)."""
    return np.uint64(high_mask(mask_of(faces)))
