"""Lucky Lions cards as flat integer rows, and the battle rule on them, for compiled code.

The kernel, the compiled strategies and the per-game deck generator work on these rows; the
reference engine works on :class:`ZooCard` and converts with :func:`card_row` /
:func:`card_from_row`.

A Zoo Card is a row of ``CARD_FIELDS`` integers: its cycle size ``n``, the cycle's animals in
arrow order (padded with -1), its points, its people icon (0/1), its special type (an index
into ``SPECIAL_TYPES``, -1 for none) and the special card's named animals X and Y (-1 when
unused).

An Animal Card is a *type*: ``animal`` for a plain card, ``animal + N_ANIMALS`` for a Wild
Animals card carrying its animal's power.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.lucky_lions.cards import N_ANIMALS, SPECIAL_TYPES, ZooCard

SIZE = 0
CYCLE = 1
POINTS = 6
PEOPLE = 7
SPECIAL = 8
NAMED_X = 9
NAMED_Y = 10
CARD_FIELDS = 11

NO_SPECIAL = -1
OFF_CYCLE = 15
"""An animal's position in :func:`card_key` when it is not on the card's cycle."""
AUTOWIN = SPECIAL_TYPES.index("autowin")
AUTOLOSE = SPECIAL_TYPES.index("autolose")
PLAYER_EXCLUDE = SPECIAL_TYPES.index("player_exclude")
EXTRA_RULE = SPECIAL_TYPES.index("extra_rule")
DIE_SPLIT = SPECIAL_TYPES.index("die_split")
DOUBLE_ROLL = SPECIAL_TYPES.index("double_roll")

N_TYPES = 2 * N_ANIMALS
"""Animal Card types: the five plain animals, then the five wild ones."""
LION, FOX, PANDA, FLAMINGO, DOLPHIN = range(N_ANIMALS)


def card_row(card: ZooCard) -> np.ndarray:
    """The flat row of a Zoo Card."""
    row = np.full(CARD_FIELDS, -1, dtype=np.int64)
    row[SIZE] = len(card.cycle)
    row[CYCLE : CYCLE + len(card.cycle)] = card.cycle
    row[POINTS] = card.points
    row[PEOPLE] = int(card.people)
    row[SPECIAL] = NO_SPECIAL if card.special is None else SPECIAL_TYPES.index(card.special)
    row[NAMED_X : NAMED_X + len(card.special_animals)] = card.special_animals
    return row


def card_rows(cards: list[ZooCard]) -> np.ndarray:
    """Flat rows of several Zoo Cards, shape ``(len(cards), CARD_FIELDS)``."""
    rows = np.zeros((len(cards), CARD_FIELDS), dtype=np.int64)
    for i, card in enumerate(cards):
        rows[i] = card_row(card)
    return rows


def card_from_row(row: np.ndarray) -> ZooCard:
    """The Zoo Card a flat row encodes."""
    size = int(row[SIZE])
    special = None if row[SPECIAL] == NO_SPECIAL else SPECIAL_TYPES[int(row[SPECIAL])]
    named = tuple(int(a) for a in row[NAMED_X : NAMED_X + 2] if a >= 0)
    return ZooCard(
        tuple(int(a) for a in row[CYCLE : CYCLE + size]),
        int(row[POINTS]),
        bool(row[PEOPLE]),
        special,
        named,
    )


@njit(cache=True, nogil=True, error_model="numpy")
def animal_of(card_type: np.int64) -> np.int64:
    """The animal on an Animal Card type."""
    return card_type % N_ANIMALS


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def is_wild(card_type: np.int64, animal: np.int64) -> bool:
    """True for the Wild Animals card of ``animal``."""
    return card_type == animal + N_ANIMALS


@njit(cache=True, nogil=True, error_model="numpy")
def position_on(card: np.ndarray, animal: np.int64) -> np.int64:
    """Where ``animal`` is on the card's cycle, or -1 when it is not on it."""
    for i in range(card[SIZE]):
        if card[CYCLE + i] == animal:
            return i
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def shows_animal(card: np.ndarray, animal: np.int64) -> bool:
    """Whether ``animal`` is on the Zoo Card: on its cycle or named by its special rule."""
    return position_on(card, animal) >= 0 or card[NAMED_X] == animal or card[NAMED_Y] == animal


@njit(cache=True, nogil=True, error_model="numpy")
def gap(card: np.ndarray, animals: np.ndarray, count: np.int64, i: np.int64) -> np.int64:
    """Roller ``i``'s gap on the card's cycle: the smallest forward distance to another roller's
    animal on the cycle (the same animal counts ``n``; ``n`` if nobody else is on it); 0 off
    the cycle. With two rollers this is the distance rule."""
    n = card[SIZE]
    mine = position_on(card, animals[i])
    if mine < 0:
        return 0
    best = n
    for j in range(count):
        if j != i:
            theirs = position_on(card, animals[j])
            if theirs >= 0:
                distance = (theirs - mine) % n
                if distance == 0:
                    distance = n
                best = min(best, distance)
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def mark_winners(
    card: np.ndarray, animals: np.ndarray, count: np.int64, winners: np.ndarray
) -> np.int64:
    """Set ``winners[i]`` to 1 for every winning roller (several = a tie); returns how many.

    Special rules as :func:`~zooanalysis.games.lucky_lions.outcomes.card_winners`: autowin X
    (the X rollers win, or all tie), autolose X (the others win, or all tie), extra_rule X Y
    (only X and Y rolled: the X rollers win), otherwise the largest gap.
    """
    special = card[SPECIAL]
    x = card[NAMED_X]
    found = 0
    if special == AUTOWIN or special == AUTOLOSE:
        for i in range(count):
            hit = animals[i] == x
            winners[i] = 1 if hit == (special == AUTOWIN) else 0
            found += winners[i]
        if found == 0:
            for i in range(count):
                winners[i] = 1
            found = count
        return found
    if special == EXTRA_RULE:
        y = card[NAMED_Y]
        only_x_and_y = True
        seen_x = False
        seen_y = False
        for i in range(count):
            if animals[i] == x:
                seen_x = True
            elif animals[i] == y:
                seen_y = True
            else:
                only_x_and_y = False
        if only_x_and_y and seen_x and seen_y:
            for i in range(count):
                winners[i] = 1 if animals[i] == x else 0
                found += winners[i]
            return found
    # the largest gap (one pass: ``winners`` holds each roller's gap, then the mask)
    n = card[SIZE]
    best = -1
    for i in range(count):
        mine = position_on(card, animals[i])
        mine_gap = 0
        if mine >= 0:
            mine_gap = n
            for j in range(count):
                if j != i:
                    theirs = position_on(card, animals[j])
                    if theirs >= 0:
                        distance = theirs - mine  # mod n: both are in [0, n)
                        if distance <= 0:
                            distance += n
                        mine_gap = min(mine_gap, distance)
        winners[i] = mine_gap
        best = max(best, mine_gap)
    for i in range(count):
        winners[i] = 1 if winners[i] == best else 0
        found += winners[i]
    return found


@njit(cache=True, nogil=True, error_model="numpy")
def wild_tie_break(types: np.ndarray, count: np.int64, winners: np.ndarray) -> np.int64:
    """Apply the wild lion and wild flamingo powers to a tie among ``winners``; returns how many
    winners are left.

    "Lion: in case of a tie, I always win"; "Flamingo: in case of a tie, I always lose": if any
    tied winner shows a wild lion, only the wild lions stay; otherwise wild flamingos drop out
    unless every tied winner shows one.
    """
    tied = 0
    lions = 0
    flamingos = 0
    for i in range(count):
        if winners[i]:
            tied += 1
            lions += is_wild(types[i], LION)
            flamingos += is_wild(types[i], FLAMINGO)
    if tied < 2:
        return tied
    if lions > 0:
        for i in range(count):
            if winners[i] and not is_wild(types[i], LION):
                winners[i] = 0
        return lions
    if 0 < flamingos < tied:
        for i in range(count):
            if winners[i] and is_wild(types[i], FLAMINGO):
                winners[i] = 0
        return tied - flamingos
    return tied


@njit(cache=True, nogil=True, error_model="numpy")
def card_key(card: np.ndarray) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64]:
    """A Zoo Card as scalars for two-roller battles in tight loops: (cycle size, positions,
    special, X, Y), where bits ``4a .. 4a+3`` of ``positions`` hold animal ``a``'s position
    on the cycle (15 when it is off the cycle). Scalars need no reference counting."""
    positions = 0
    for animal in range(N_ANIMALS):
        positions |= OFF_CYCLE << (4 * animal)
    for i in range(card[SIZE]):
        shift = 4 * card[CYCLE + i]
        positions = (positions & ~(OFF_CYCLE << shift)) | (i << shift)
    return card[SIZE], positions, card[SPECIAL], card[NAMED_X], card[NAMED_Y]


@njit(cache=True, nogil=True, error_model="numpy")
def row_key(
    rows: np.ndarray, i: np.int64
) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64]:
    """:func:`card_key` of ``rows[i]``, read in place (no row view: a view of an array costs
    a reference count increment and decrement in a kernel's hot loop)."""
    positions = 0
    for animal in range(N_ANIMALS):
        positions |= OFF_CYCLE << (4 * animal)
    for p in range(rows[i, SIZE]):
        shift = 4 * rows[i, CYCLE + p]
        positions = (positions & ~(OFF_CYCLE << shift)) | (p << shift)
    return rows[i, SIZE], positions, rows[i, SPECIAL], rows[i, NAMED_X], rows[i, NAMED_Y]


@njit(cache=True, nogil=True, error_model="numpy")
def _pair_gap(n: np.int64, positions: np.int64, mine: np.int64, theirs: np.int64) -> np.int64:
    """:func:`gap` of ``mine`` against a single other roller's ``theirs``."""
    at = (positions >> (4 * mine)) & OFF_CYCLE
    if at == OFF_CYCLE:
        return 0
    other = (positions >> (4 * theirs)) & OFF_CYCLE
    if other == OFF_CYCLE:
        return n
    distance = other - at  # (other - at) mod n, without a division: both are in [0, n)
    if distance < 0:
        distance += n
    return n if distance == 0 else distance


@njit(cache=True, nogil=True, error_model="numpy")
def pair_winners_key(
    n: np.int64,
    positions: np.int64,
    special: np.int64,
    x: np.int64,
    y: np.int64,
    a: np.int64,
    b: np.int64,
) -> tuple[bool, bool]:
    """:func:`pair_winners` on a :func:`card_key`."""
    if special == AUTOWIN or special == AUTOLOSE:
        win_a = (a == x) == (special == AUTOWIN)
        win_b = (b == x) == (special == AUTOWIN)
        if not win_a and not win_b:
            return True, True
        return win_a, win_b
    if special == EXTRA_RULE:
        only_x_and_y = True
        seen_x = False
        seen_y = False
        for animal in (a, b):
            if animal == x:
                seen_x = True
            elif animal == y:
                seen_y = True
            else:
                only_x_and_y = False
        if only_x_and_y and seen_x and seen_y:
            return a == x, b == x
    gap_a = _pair_gap(n, positions, a, b)
    gap_b = _pair_gap(n, positions, b, a)
    return gap_a >= gap_b, gap_b >= gap_a


@njit(cache=True, nogil=True, error_model="numpy")
def pair_winners(card: np.ndarray, a: np.int64, b: np.int64) -> tuple[bool, bool]:
    """:func:`mark_winners` for two rollers showing animals ``a`` and ``b``, in scalars:
    (whether the first wins, whether the second wins); both for a tie."""
    n, positions, special, x, y = card_key(card)
    return pair_winners_key(n, positions, special, x, y, a, b)


@njit(cache=True, nogil=True, error_model="numpy")
def duel_key(
    n: np.int64,
    positions: np.int64,
    special: np.int64,
    x: np.int64,
    y: np.int64,
    type_a: np.int64,
    type_b: np.int64,
    wild_powers: bool,
) -> np.int64:
    """:func:`duel` on a :func:`card_key`."""
    win_a, win_b = pair_winners_key(
        n, positions, special, x, y, animal_of(type_a), animal_of(type_b)
    )
    if win_a and win_b and wild_powers:
        lion_a = is_wild(type_a, LION)
        lion_b = is_wild(type_b, LION)
        if lion_a or lion_b:
            win_a = lion_a
            win_b = lion_b
        else:
            flamingo_a = is_wild(type_a, FLAMINGO)
            flamingo_b = is_wild(type_b, FLAMINGO)
            if flamingo_a != flamingo_b:
                win_a = not flamingo_a
                win_b = not flamingo_b
    if win_a and win_b:
        return 0
    return 1 if win_a else -1


@njit(cache=True, nogil=True, error_model="numpy")
def duel(card: np.ndarray, type_a: np.int64, type_b: np.int64, wild_powers: bool) -> np.int64:
    """+1 if a card of ``type_a`` beats ``type_b`` on the Zoo Card, 0 tie, -1 loss (wild lion
    and flamingo tie-breaks when ``wild_powers``): :func:`mark_winners` and
    :func:`wild_tie_break` for two rollers, in scalars."""
    n, positions, special, x, y = card_key(card)
    return duel_key(n, positions, special, x, y, type_a, type_b, wild_powers)


@njit(cache=True, nogil=True, error_model="numpy")
def duel_table(card: np.ndarray, wild_powers: bool, out: np.ndarray) -> None:
    """Fill ``out[a, b]`` with :func:`duel` for every pair of Animal Card types."""
    for a in range(N_TYPES):
        for b in range(N_TYPES):
            out[a, b] = duel(card, a, b, wild_powers)
