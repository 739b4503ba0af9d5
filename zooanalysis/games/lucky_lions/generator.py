"""The publisher's Zoo Card generator, compiled, on the games' shared random stream.

One implementation serves three uses: ``generate_zoo_cards`` (a printed deck for a seed, as
``zoosim deck`` shows it), the fixed deck of a run, and a fresh print for every simulated
game inside both engines. The algorithm is described in ``decks.py``; this module holds it as
flat arrays: :class:`GeneratorTables` are the per-spec lists (worked out once in Python by
``decks.generator_tables``, where the exact decimal rounding lives), and
:func:`generate_deck_into` draws one deck from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from zooanalysis.games.lucky_lions.cards import N_ANIMALS
from zooanalysis.games.lucky_lions.flat import (
    AUTOLOSE,
    AUTOWIN,
    CARD_FIELDS,
    CYCLE,
    EXTRA_RULE,
    NAMED_X,
    NAMED_Y,
    NO_SPECIAL,
    PEOPLE,
    PLAYER_EXCLUDE,
    POINTS,
    SIZE,
    SPECIAL,
)
from zooanalysis.rng import below


@dataclass(frozen=True, eq=False)
class GeneratorTables:
    """The generator's lists for one deck spec: base group, then Busy Zoo (may be empty).

    ``*_sizes`` and ``*_points`` list every value ``ceil(share * cards)`` times in increasing
    order; ``busy_types`` lists the special types (indices) repeated to at least the group's
    card count; ``*_people`` is how many cards of the group get the people icon.
    """

    base_cards: int
    base_sizes: np.ndarray
    base_points: np.ndarray
    base_people: int
    busy_cards: int
    busy_sizes: np.ndarray
    busy_points: np.ndarray
    busy_types: np.ndarray
    busy_people: int

    @property
    def cards(self) -> int:
        """Zoo Cards in one generated deck."""
        return self.base_cards + self.busy_cards


@njit(cache=True, nogil=True, error_model="numpy")
def work_size(
    base_sizes: np.ndarray,
    base_points: np.ndarray,
    busy_sizes: np.ndarray,
    busy_points: np.ndarray,
    busy_types: np.ndarray,
    base_cards: np.int64,
    busy_cards: np.int64,
) -> np.int64:
    """Length of the scratch array :func:`generate_deck_into` needs for these lists."""
    longest = max(
        base_sizes.shape[0],
        base_points.shape[0],
        busy_sizes.shape[0],
        busy_points.shape[0],
        busy_types.shape[0],
        base_cards,
        busy_cards,
    )
    return 4 * longest + 3 * N_ANIMALS


@njit(cache=True, nogil=True, error_model="numpy")
def generate_group(
    n_cards: np.int64,
    size_list: np.ndarray,
    point_list: np.ndarray,
    type_list: np.ndarray,
    n_types: np.int64,
    n_people: np.int64,
    stream: np.ndarray,
    out: np.ndarray,
    first: np.int64,
    work: np.ndarray,
) -> None:
    """One run of the publisher's ``generateZooCards``: rows ``first .. first+n_cards`` of
    ``out``. Random draws, in order: sizes, animal order, types, people flags, points, then
    per card its cycle and (for cards naming animals) a shuffle of the five animals.

    ``type_list[:n_types]`` are the special types (``n_types = 0`` for the base group).
    ``work`` is scratch (see :func:`work_size`): the shuffled sizes, types, people flags and
    points, the animal order, a cycle window and the five animals, one after the other.
    """
    n_sizes = size_list.shape[0]
    n_points = point_list.shape[0]
    sizes = 0
    types = sizes + n_sizes
    people = types + n_types
    points = people + n_cards
    order = points + n_points
    window = order + N_ANIMALS
    five = window + N_ANIMALS
    for i in range(n_sizes):
        work[sizes + i] = size_list[i]
    for i in range(n_sizes - 1, 0, -1):  # rng.shuffle of work[sizes : sizes + n_sizes]
        j = below(stream, i + 1)
        a = work[sizes + i]
        work[sizes + i] = work[sizes + j]
        work[sizes + j] = a
    for i in range(N_ANIMALS):
        work[order + i] = i
    for i in range(N_ANIMALS - 1, 0, -1):  # rng.shuffle of work[order : order + N_ANIMALS]
        j = below(stream, i + 1)
        a = work[order + i]
        work[order + i] = work[order + j]
        work[order + j] = a
    if n_types > 0:
        for i in range(n_types):
            work[types + i] = type_list[i]
        for i in range(n_types - 1, 0, -1):  # rng.shuffle of work[types : types + n_types]
            j = below(stream, i + 1)
            a = work[types + i]
            work[types + i] = work[types + j]
            work[types + j] = a
    for i in range(n_cards):
        work[people + i] = 1 if i < n_people else 0
    for i in range(n_cards - 1, 0, -1):  # rng.shuffle of work[people : people + n_cards]
        j = below(stream, i + 1)
        a = work[people + i]
        work[people + i] = work[people + j]
        work[people + j] = a
    for i in range(n_points):
        work[points + i] = point_list[i]
    for i in range(n_points - 1, 0, -1):  # rng.shuffle of work[points : points + n_points]
        j = below(stream, i + 1)
        a = work[points + i]
        work[points + i] = work[points + j]
        work[points + j] = a

    taken = 0
    for c in range(n_cards):
        r = first + c
        for field in range(CARD_FIELDS):
            out[r, field] = -1
        size = work[sizes + n_sizes - 1 - c]
        kind = work[types + n_types - 1 - c] if n_types > 0 else NO_SPECIAL
        for i in range(size):
            work[window + i] = work[order + (taken + i) % N_ANIMALS]
        for i in range(size - 1, 0, -1):  # rng.shuffle of work[window : window + size]
            j = below(stream, i + 1)
            a = work[window + i]
            work[window + i] = work[window + j]
            work[window + j] = a
        taken += size
        icon = work[people + n_cards - 1 - c]
        if kind == EXTRA_RULE:
            icon = 0
        elif kind == PLAYER_EXCLUDE:
            icon = 1
        out[r, SIZE] = size
        for i in range(size):
            out[r, CYCLE + i] = work[window + i]
        out[r, POINTS] = work[points + n_points - 1 - c]
        out[r, PEOPLE] = icon
        out[r, SPECIAL] = kind
        if kind == AUTOWIN or kind == AUTOLOSE or kind == EXTRA_RULE:
            for i in range(N_ANIMALS):
                work[five + i] = i
            for i in range(N_ANIMALS - 1, 0, -1):  # rng.shuffle of work[five : five + N_ANIMALS]
                j = below(stream, i + 1)
                a = work[five + i]
                work[five + i] = work[five + j]
                work[five + j] = a
            out[r, NAMED_X] = work[five + N_ANIMALS - 1]
            if kind == EXTRA_RULE:
                out[r, NAMED_Y] = work[five + N_ANIMALS - 2]


@njit(cache=True, nogil=True, error_model="numpy")
def generate_deck_into(
    base_cards: np.int64,
    base_sizes: np.ndarray,
    base_points: np.ndarray,
    base_people: np.int64,
    busy_cards: np.int64,
    busy_sizes: np.ndarray,
    busy_points: np.ndarray,
    busy_types: np.ndarray,
    busy_people: np.int64,
    stream: np.ndarray,
    out: np.ndarray,
    work: np.ndarray,
) -> None:
    """A whole generated deck into ``out`` (base cards, then Busy Zoo's), in print order,
    with ``work`` as scratch (see :func:`work_size`): no allocation, for the kernel (the
    shuffles are written out as loops: no helper calls with arrays, whose reference counting
    would cost more than the shuffles)."""
    generate_group(
        base_cards, base_sizes, base_points, busy_types, np.int64(0), base_people, stream, out,
        np.int64(0), work,
    )
    if busy_cards > 0:
        generate_group(
            busy_cards,
            busy_sizes,
            busy_points,
            busy_types,
            busy_types.shape[0],
            busy_people,
            stream,
            out,
            base_cards,
            work,
        )


def generate_rows(tables: GeneratorTables, stream: np.ndarray) -> np.ndarray:
    """One generated deck as flat card rows, drawn from ``stream`` (advanced in place)."""
    out = np.empty((tables.cards, CARD_FIELDS), dtype=np.int64)
    lists = (
        tables.base_sizes,
        tables.base_points,
        tables.busy_sizes,
        tables.busy_points,
        tables.busy_types,
    )
    work = np.empty(work_size(*lists, tables.base_cards, tables.busy_cards), dtype=np.int64)
    generate_deck_into(
        tables.base_cards,
        tables.base_sizes,
        tables.base_points,
        tables.base_people,
        tables.busy_cards,
        tables.busy_sizes,
        tables.busy_points,
        tables.busy_types,
        tables.busy_people,
        stream,
        out,
        work,
    )
    return out
