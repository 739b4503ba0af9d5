"""The kernel's pile: two packed 64-bit words, one add per card each, and a count by field read.

``PLAIN``: byte ``k`` (k = 0-4) holds the animals of kind ``k`` at face value plus every wild
card's value ("wild cards always count as the kind of animal last claimed"); byte 5 every
animal and wild card at face value (the count under "All animals are equal"); bits 48-63
the number of cards.

``ONES``: the same bytes with every animal and wild card counting 1 ("All cards count 1";
byte 5: both action cards at once), then 4-bit counts of "All cards count 1" (bits 48-51),
"All animals are equal" (52-55) and stop cards (56-62).

How many animals of the claimed kind a doubt finds (``rules.count_for_kind``) is then one
field of one word: the word ``ONES`` if "All cards count 1" is on, the field 5 if "All
animals are equal" is on, an odd number of stop cards switching both off. A deck whose
counts could overflow a field (more than 255 animals in a byte, more than 15 of either
action card, more than 127 stop cards) is not packed: :func:`pile_deltas` returns None and
the kernel counts per card type instead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    ANIMAL_VALUES,
    COUNT_ONE,
    N_CARD_TYPES,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
    animal_type,
)

NO_CARD = N_CARD_TYPES
"""The "card" a move without a card adds to the pile: its deltas are 0."""
ALL_FIELD = N_KINDS
"""Byte 5: every animal and wild card."""
SIZE_SHIFT = 48
COUNT_ONE_SHIFT = 48
ALL_EQUAL_SHIFT = 52
STOP_SHIFT = 56
FIELD_LIMIT = 255
ACTION_LIMIT = 15
STOP_LIMIT = 127
SIZE_LIMIT = (1 << 15) - 1
"""Limits that keep every field, and the sign bit, clear of carries."""


def pile_deltas(type_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """What one card of each type (and :data:`NO_CARD`) adds to ``PLAIN`` and ``ONES``.

    ``type_counts`` are the deck's cards per type. None if a whole deck on the pile could
    overflow a field: then the kernel keeps per-type counts instead.
    """
    counts = np.asarray(type_counts, dtype=np.int64)
    wild_values = int(counts[WILD_1]) + 2 * int(counts[WILD_2])
    kind_values = [
        sum(int(counts[animal_type(kind, value)]) * value for value in ANIMAL_VALUES)
        for kind in range(N_KINDS)
    ]
    fits = (
        sum(kind_values) + wild_values <= FIELD_LIMIT
        and int(counts[COUNT_ONE]) <= ACTION_LIMIT
        and int(counts[ALL_EQUAL]) <= ACTION_LIMIT
        and int(counts[STOP]) <= STOP_LIMIT
        and int(counts.sum()) <= SIZE_LIMIT
    )
    if not fits:
        return None
    plain = np.zeros(N_CARD_TYPES + 1, dtype=np.int64)
    ones = np.zeros(N_CARD_TYPES + 1, dtype=np.int64)
    for kind in range(N_KINDS):
        for value in ANIMAL_VALUES:
            card = animal_type(kind, value)
            plain[card] = (value << (8 * kind)) | (value << (8 * ALL_FIELD))
            ones[card] = (1 << (8 * kind)) | (1 << (8 * ALL_FIELD))
    every_field = sum(1 << (8 * field) for field in range(ALL_FIELD + 1))
    plain[WILD_1], plain[WILD_2] = every_field, 2 * every_field
    ones[WILD_1] = ones[WILD_2] = every_field
    ones[COUNT_ONE] = 1 << COUNT_ONE_SHIFT
    ones[ALL_EQUAL] = 1 << ALL_EQUAL_SHIFT
    ones[STOP] = 1 << STOP_SHIFT
    plain[:N_CARD_TYPES] += 1 << SIZE_SHIFT
    return plain, ones


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def packed_count(plain: np.int64, ones: np.int64, kind: np.int64) -> np.int64:
    """Animals of ``kind`` a doubt finds in the pile ``(plain, ones)``."""
    actions_on = ((ones >> STOP_SHIFT) & 1) == 0
    count_one = actions_on and ((ones >> COUNT_ONE_SHIFT) & 0xF) != 0
    all_equal = actions_on and ((ones >> ALL_EQUAL_SHIFT) & 0xF) != 0
    word = ones if count_one else plain
    field = ALL_FIELD if all_equal else kind
    return (word >> (8 * field)) & 0xFF


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def packed_size(plain: np.int64) -> np.int64:
    """Cards on the pile ``(plain, ones)``."""
    return plain >> SIZE_SHIFT
