"""Rank orders: which rank beats which, as lookup tables, and orders that change per trick.

An order is a base ranking (below, written strongest first as the rulebooks write them)
read in a *direction*: ``UP`` as written, ``DOWN`` reversed. All four bases rank all 16
ranks, so every order is a permutation of 0-15 whatever the deck:

* ``NUMERIC``: 15 > 14 > ... > 2 > 1 > 0. Aces low (the ace is rank 1). ``UP`` is Chai Tea
  Jazz's Over and Trump ("9 > 1"), Short Zoot Suit, Hodge Podge Dodgeball, Bug House
  Millionaire; ``DOWN`` is Under ("1 > 2 > 3 .. > 9").
* ``ACES_HIGH``: A > 15 > 14 > K > ... > 2 > 0. The ace beats every other rank (Hearts; the
  Jass deck 6-A, whose Under is ``ACES_HIGH`` ``DOWN``: 6 > 7 > ... > K > A).
* ``TWOS_HIGH``: 2 > A > 15 > 14 > K > ... > 3 > 0 (Big Two's "2's high then Aces high").
* ``MIDDLE_OUT``: 5 > 4 > 6 > 3 > 7 > 2 > 8 > 1 > 9 (Chai Tea Jazz's Middle, exactly as
  the rulebook lists it), continued outwards: > 0 > 10 > 11 > 12 > 13 > 14 > 15.

Orders that change per trick are a base, a start direction and ``flip_every``: the
direction flips after every ``flip_every`` tricks (``FIXED`` = 0: never; ``SLALOM`` = 1:
every trick; ``PYRAMID`` = 6: six tricks one way, then six the other, then six the first
way again if the round is longer). :func:`direction_for_trick` gives a trick's direction.

Kernels read ``STRENGTH[order, direction, rank]`` (0 = weakest, 15 = strongest) and its
inverse ``RANK_AT_STRENGTH``; both are built from the lists below when the module loads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import EMPTY, rank_union, suit_ranks
from zooanalysis.cards.encoding import N_SUITS, RANK_SLOTS
from zooanalysis.errors import SettingsError

NUMERIC, ACES_HIGH, TWOS_HIGH, MIDDLE_OUT = 0, 1, 2, 3
N_ORDERS = 4
ORDER_NAMES = ("numeric", "aces-high", "twos-high", "middle-out")
"""Setting names of the base orders, by order id."""

UP, DOWN = 0, 1
DIRECTION_NAMES = ("up", "down")
"""``up``: the base order as written (strongest first); ``down``: reversed."""

FIXED, SLALOM, PYRAMID = 0, 1, 6
"""Common ``flip_every`` values: never, every trick, every six tricks."""

STRONGEST_FIRST: tuple[tuple[int, ...], ...] = (
    (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
    (1, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 0),
    (2, 1, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 0),
    (5, 4, 6, 3, 7, 2, 8, 1, 9, 0, 10, 11, 12, 13, 14, 15),
)
"""Each base order's ranks, strongest first (direction ``UP``)."""


def strongest_first(order: int, direction: int = UP) -> tuple[int, ...]:
    """The ranks of ``order`` read in ``direction``, strongest first (plain Python)."""
    ranks = STRONGEST_FIRST[order]
    return ranks if direction == UP else ranks[::-1]


def _strength_table() -> np.ndarray:
    table = np.empty((N_ORDERS, 2, RANK_SLOTS), dtype=np.int8)
    for order in range(N_ORDERS):
        for direction in (UP, DOWN):
            ranks = strongest_first(order, direction)
            for place, rank in enumerate(ranks):
                table[order, direction, rank] = RANK_SLOTS - 1 - place
    return table


STRENGTH = _strength_table()
"""``STRENGTH[order, direction, rank]``: 15 for the strongest rank, 0 for the weakest."""
RANK_AT_STRENGTH = np.argsort(STRENGTH, axis=2).astype(np.int8)
"""``RANK_AT_STRENGTH[order, direction, s]``: the rank whose strength is ``s``."""


@njit(cache=True, nogil=True, error_model="numpy")
def strength(order: int, direction: int, rank: int) -> int:
    """How strong ``rank`` is under ``order`` read in ``direction`` (0 weakest ... 15)."""
    return STRENGTH[order, direction, rank]


@njit(cache=True, nogil=True, error_model="numpy")
def direction_for_trick(start: int, flip_every: int, trick: int) -> int:
    """The direction of trick ``trick`` (0 = the round's first) when the round starts in
    direction ``start`` and flips after every ``flip_every`` tricks (0: never)."""
    if flip_every <= 0:
        return start
    return start ^ ((trick // flip_every) & 1)


@njit(cache=True, nogil=True, error_model="numpy")
def weakest_in_suit(mask, suit: int, order: int, direction: int) -> int:
    """The face of the weakest card of ``suit`` in the face mask ``mask``, or -1 if none."""
    ranks = suit_ranks(mask, suit)
    if ranks == 0:
        return -1
    for s in range(RANK_SLOTS):
        rank = RANK_AT_STRENGTH[order, direction, s]
        if ranks >> rank & 1:
            return suit * RANK_SLOTS + rank
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def strongest_in_suit(mask, suit: int, order: int, direction: int) -> int:
    """The face of the strongest card of ``suit`` in the face mask ``mask``, or -1 if none."""
    ranks = suit_ranks(mask, suit)
    if ranks == 0:
        return -1
    for s in range(RANK_SLOTS - 1, -1, -1):
        rank = RANK_AT_STRENGTH[order, direction, s]
        if ranks >> rank & 1:
            return suit * RANK_SLOTS + rank
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def weakest_of_each_suit(mask, order: int, direction: int) -> np.uint64:
    """The mask of each suit's weakest card in ``mask`` (e.g. Dodgeball's bench choices)."""
    out = EMPTY
    for suit in range(N_SUITS):
        face = weakest_in_suit(mask, suit, order, direction)
        if face >= 0:
            out |= np.uint64(1) << np.uint64(face)
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def weakest_card(mask, order: int, direction: int) -> int:
    """The face of the weakest card in the face mask ``mask`` regardless of suit (of equal
    ranks, the lowest suit number), or -1 if ``mask`` is empty."""
    ranks = rank_union(mask)
    if ranks == 0:
        return -1
    for s in range(RANK_SLOTS):
        rank = RANK_AT_STRENGTH[order, direction, s]
        if ranks >> rank & 1:
            return _lowest_suit_with(mask, rank)
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def strongest_card(mask, order: int, direction: int) -> int:
    """The face of the strongest card in the face mask ``mask`` regardless of suit (of equal
    ranks, the lowest suit number), or -1 if ``mask`` is empty."""
    ranks = rank_union(mask)
    if ranks == 0:
        return -1
    for s in range(RANK_SLOTS - 1, -1, -1):
        rank = RANK_AT_STRENGTH[order, direction, s]
        if ranks >> rank & 1:
            return _lowest_suit_with(mask, rank)
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def _lowest_suit_with(mask, rank: int) -> int:
    """The face of ``rank`` in the lowest suit of ``mask`` that holds it (-1 if none)."""
    m = np.uint64(mask)
    for suit in range(N_SUITS):
        face = suit * RANK_SLOTS + rank
        if (m >> np.uint64(face)) & np.uint64(1):
            return face
    return -1


def parse_order(name: str, key: str) -> int:
    """Order id of a setting value (``"numeric"`` ...); ``SettingsError`` naming ``key``."""
    if name not in ORDER_NAMES:
        allowed = ", ".join(ORDER_NAMES)
        raise SettingsError(key, f"unknown rank order {name!r}; allowed are {allowed}")
    return ORDER_NAMES.index(name)


def parse_direction(name: str, key: str) -> int:
    """Direction of a setting value (``"up"`` or ``"down"``); ``SettingsError`` naming ``key``."""
    if name not in DIRECTION_NAMES:
        raise SettingsError(key, f"unknown direction {name!r}; allowed are up, down")
    return DIRECTION_NAMES.index(name)
