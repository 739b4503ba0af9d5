"""The integer card encoding every standard-deck game shares, and a readable ``Card`` view.

A card's *face* is what is printed on it: ``face = suit * 16 + rank`` for the 64 possible
suited faces (suits 0-3 = Clubs, Diamonds, Hearts, Spades; ranks 0-15, the ace is rank 1,
J/Q/K are 11/12/13), and ``JOKER = 64``. A joker has no suit: ``suit_of(JOKER)`` is
``NO_SUIT`` (4), which is also the value follow rules and trick winners take for "no led
suit" and "no trump".

A card's *code* tells identical faces apart: ``code = copy * 128 + face``. ``copy`` is which
of several identical cards this is: the deck it came from (Chai Tea Jazz's double deck,
Through the Zoo where it is the owner's seat), or for jokers which joker (the first joker
is ``64``, the second ``192``). A one-deck game without jokers simply has codes = faces
0-63. Codes fit in ``int16``, but arrays of them are ``int64`` (``CODE_DTYPE``), the dtype
every kernel deals and shuffles; every conversion is a shift or a mask.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

SUIT_LETTERS = "CDHS"
"""Suit letters in suit-number order: 0 = Clubs, 1 = Diamonds, 2 = Hearts, 3 = Spades."""
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
N_SUITS = 4
NO_SUIT = 4
"""A joker's suit, and "none" wherever a led suit or a trump suit is asked for."""

RANK_SLOTS = 16
"""Ranks 0-15: Bug House Millionaire's deck uses all of them, a standard deck 1-13."""
MIN_RANK, MAX_RANK = 0, 15
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

N_SUITED_FACES = N_SUITS * RANK_SLOTS
"""64 suited faces, so a set of faces fits one uint64 bit mask (see ``bits.py``)."""
JOKER = N_SUITED_FACES
N_FACES = JOKER + 1

COPY_SHIFT = 7
COPY_STRIDE = 1 << COPY_SHIFT
"""Codes of consecutive copies of one face differ by 128."""
FACE_BITS = COPY_STRIDE - 1
MAX_COPIES = 16
"""At most 16 copies of a face (and 16 jokers): codes stay below ``N_CODES``."""
N_CODES = MAX_COPIES * COPY_STRIDE
CODE_DTYPE = np.int64
"""The dtype of card-code arrays (decks, templates): the one every kernel uses, so the shared
helpers (``rng.shuffle``, ``deck.deal_into``, ``bits.face_bit``) compile once, not once
per dtype (compile time, issue 13)."""


@njit(cache=True, nogil=True, error_model="numpy")
def make_face(suit: int, rank: int) -> int:
    """Face of the card of ``suit`` (0-3) and ``rank`` (0-15)."""
    return suit * RANK_SLOTS + rank


@njit(cache=True, nogil=True, error_model="numpy")
def suit_of(face: int) -> int:
    """Suit (0-3) of a suited face; ``NO_SUIT`` for ``JOKER``."""
    return face >> 4


@njit(cache=True, nogil=True, error_model="numpy")
def rank_of(face: int) -> int:
    """Rank (0-15) of a suited face; 0 for ``JOKER``."""
    return face & 15


@njit(cache=True, nogil=True, error_model="numpy")
def make_code(face: int, copy: int) -> int:
    """Code of copy ``copy`` (0, 1, ...) of ``face``."""
    return copy * COPY_STRIDE + face


@njit(cache=True, nogil=True, error_model="numpy")
def face_of(code: int) -> int:
    """Face (0-64) of a card code."""
    return code & FACE_BITS


@njit(cache=True, nogil=True, error_model="numpy")
def copy_of(code: int) -> int:
    """Copy number (0, 1, ...) of a card code: its deck, owner or joker number."""
    return code >> COPY_SHIFT


def is_valid_code(code: int) -> bool:
    """Whether ``code`` is a card code: a suited face or ``JOKER`` of copy 0 to 15."""
    return (
        isinstance(code, int | np.integer)
        and 0 <= int(code) < N_CODES
        and (int(code) & FACE_BITS) <= JOKER
    )


class Card(NamedTuple):
    """A readable card for the reference engines: ``Card(HEARTS, 7)`` is the 7 of Hearts.

    ``copy`` tells identical cards apart (see the module docstring). A joker is
    ``Card(NO_SUIT, 0, copy)``. ``str(card)`` is its text notation (``"7H"``, ``"JOKER"``).
    """

    suit: int
    rank: int
    copy: int = 0

    @property
    def face(self) -> int:
        """The card's face: ``suit * 16 + rank``, or ``JOKER``."""
        return JOKER if self.suit == NO_SUIT else self.suit * RANK_SLOTS + self.rank

    @property
    def code(self) -> int:
        """The card's integer code: ``copy * 128 + face``."""
        return self.copy * COPY_STRIDE + self.face

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.suit == NO_SUIT

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card with integer code ``code``; ``ValueError`` if it is not a card code."""
        if not is_valid_code(code):
            raise ValueError(
                f"{code!r} is not a card code: allowed are copy * 128 + face with copy 0-"
                f"{MAX_COPIES - 1} and face 0-{JOKER} (suit * 16 + rank, or {JOKER} = joker)"
            )
        code = int(code)
        face, copy = code & FACE_BITS, code >> COPY_SHIFT
        if face == JOKER:
            return cls(NO_SUIT, 0, copy)
        return cls(face >> 4, face & 15, copy)

    def __str__(self) -> str:
        return format_card(self.code)


def joker(copy: int = 0) -> Card:
    """The joker number ``copy`` (0 = the first) as a ``Card``."""
    return Card(NO_SUIT, 0, copy)


RANK_LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}
"""Letters written for ranks 1, 11, 12, 13 (numbers are always accepted too)."""


def rank_text(rank: int, numeric: bool = False) -> str:
    """How a rank is written: ``"7"``, ``"10"``, ``"Q"`` (``"12"`` when ``numeric``)."""
    if not numeric and rank in RANK_LETTERS:
        return RANK_LETTERS[rank]
    return str(rank)


def format_card(code: int, numeric: bool = False) -> str:
    """Text notation of a card code, e.g. ``34 -> "2H"``, ``64 -> "JOKER"``, ``162 -> "2H#2"``.

    ``ValueError`` if ``code`` is not a card code.
    """
    if not is_valid_code(code):
        raise ValueError(
            f"{code!r} is not a card code: allowed are copy * 128 + face with copy 0-"
            f"{MAX_COPIES - 1} and face 0-{JOKER}"
        )
    face, copy = int(code) & FACE_BITS, int(code) >> COPY_SHIFT
    name = "JOKER" if face == JOKER else rank_text(face & 15, numeric) + SUIT_LETTERS[face >> 4]
    return name if copy == 0 else f"{name}#{copy + 1}"
