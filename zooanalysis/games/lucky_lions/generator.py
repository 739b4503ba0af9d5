"""The publisher's Zoo Card generator, compiled, on the games' shared random stream.

One implementation serves three uses: ``generate_zoo_cards`` (a printed deck for a seed, as
``zoosim deck`` shows it), the fixed deck of a run, and a fresh print for every simulated
game inside both engines. The algorithm is described in ``decks.py``; this module holds it as
flat arrays: :class:`GeneratorTables` are the per-spec lists (worked out once in Python,
where the exact decimal rounding lives), :func:`generate_deck` draws one deck from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from zooanalysis.games.lucky_lions.cards import N_ANIMALS, SPECIAL_TYPES
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
from zooanalysis.rng import shuffle


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


def _listed(counts: dict[int, int]) -> np.ndarray:
    values = [value for value, count in sorted(counts.items()) for _ in range(count)]
    return np.array(values, dtype=np.int64)


def generator_tables(spec) -> GeneratorTables:  # spec: decks.DeckSpec (avoids an import cycle)
    """The generator's lists for a :class:`~zooanalysis.games.lucky_lions.decks.DeckSpec`."""
    from zooanalysis.games.lucky_lions.decks import ceil_counts, js_round

    def people(cards: int) -> int:
        return js_round(spec.people_icon_share * cards) if cards else 0

    busy_cards = spec.busy_zoo_cards if spec.busy_zoo else 0
    types: list[int] = []
    while len(types) < busy_cards:
        types.extend(SPECIAL_TYPES.index(kind) for kind in spec.busy_special_types)
    return GeneratorTables(
        base_cards=spec.base_zoo_cards,
        base_sizes=_listed(ceil_counts(spec.base_cycle_sizes, spec.base_zoo_cards)),
        base_points=_listed(ceil_counts(spec.point_shares, spec.base_zoo_cards)),
        base_people=people(spec.base_zoo_cards),
        busy_cards=busy_cards,
        busy_sizes=_listed(ceil_counts(spec.busy_cycle_sizes, busy_cards)),
        busy_points=_listed(ceil_counts(spec.point_shares, busy_cards)),
        busy_types=np.array(types, dtype=np.int64),
        busy_people=people(busy_cards),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def generate_group(
    n_cards: np.int64,
    size_list: np.ndarray,
    point_list: np.ndarray,
    type_list: np.ndarray,
    n_people: np.int64,
    stream: np.ndarray,
    out: np.ndarray,
    first: np.int64,
) -> None:
    """One run of the publisher's ``generateZooCards``: rows ``first .. first+n_cards`` of
    ``out``. Random draws, in order: sizes, animal order, types, people flags, points, then
    per card its cycle and (for cards naming animals) a shuffle of the five animals."""
    sizes = size_list.copy()
    shuffle(sizes, stream)
    total = 0
    for size in sizes:
        total += size
    order = np.arange(N_ANIMALS)
    shuffle(order, stream)
    types = type_list.copy()
    if types.shape[0] > 0:
        shuffle(types, stream)
    people = np.zeros(n_cards, dtype=np.int64)
    for i in range(min(n_people, n_cards)):
        people[i] = 1
    shuffle(people, stream)
    points = point_list.copy()
    shuffle(points, stream)

    window = np.empty(N_ANIMALS, dtype=np.int64)
    five = np.empty(N_ANIMALS, dtype=np.int64)
    taken = 0
    for c in range(n_cards):
        row = out[first + c]
        for field in range(CARD_FIELDS):
            row[field] = -1
        size = sizes[sizes.shape[0] - 1 - c]
        kind = types[types.shape[0] - 1 - c] if types.shape[0] > 0 else NO_SPECIAL
        cycle = window[:size]
        for i in range(size):
            cycle[i] = order[(taken + i) % N_ANIMALS]
        shuffle(cycle, stream)
        taken += size
        icon = people[n_cards - 1 - c]
        if kind == EXTRA_RULE:
            icon = 0
        elif kind == PLAYER_EXCLUDE:
            icon = 1
        row[SIZE] = size
        for i in range(size):
            row[CYCLE + i] = cycle[i]
        row[POINTS] = points[points.shape[0] - 1 - c]
        row[PEOPLE] = icon
        row[SPECIAL] = kind
        if kind == AUTOWIN or kind == AUTOLOSE or kind == EXTRA_RULE:
            for i in range(N_ANIMALS):
                five[i] = i
            shuffle(five, stream)
            row[NAMED_X] = five[N_ANIMALS - 1]
            if kind == EXTRA_RULE:
                row[NAMED_Y] = five[N_ANIMALS - 2]


@njit(cache=True, nogil=True, error_model="numpy")
def generate_deck(
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
) -> None:
    """A whole generated deck into ``out`` (base cards, then Busy Zoo's), in print order."""
    no_types = np.empty(0, dtype=np.int64)
    generate_group(base_cards, base_sizes, base_points, no_types, base_people, stream, out, 0)
    if busy_cards > 0:
        generate_group(
            busy_cards, busy_sizes, busy_points, busy_types, busy_people, stream, out, base_cards
        )


def generate_rows(tables: GeneratorTables, stream: np.ndarray) -> np.ndarray:
    """One generated deck as flat card rows, drawn from ``stream`` (advanced in place)."""
    out = np.empty((tables.cards, CARD_FIELDS), dtype=np.int64)
    generate_deck(
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
    )
    return out
