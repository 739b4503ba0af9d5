"""Every legal play of a hand, listed fast from its bit mask (compiled, both engines use it).

Inside the game a hand is an *id mask*: bit ``id`` for each card held, ``id = big rank * 4
+ suit strength`` (``rules.BigTwoSettings.card_ids``: bit 0 is the 3 of the weakest suit,
bit 51 the 2 of the strongest). The four bits of one rank are then one nibble, so the suits
held of rank ``r`` are ``hand >> 4r & 15`` and pairs, triples, straights and full houses are
table lookups on nibbles; a suit's cards are ``hand & SUIT_LANE[s]``.

:func:`list_plays` writes the legal plays into caller-owned arrays (no allocation per
decision), in the *listing order* the ``random`` strategy's draw refers to:

1. singles, weakest card first;
2. pairs, then triples, in increasing id mask (rank by rank, weaker suits first);
3. straights in increasing id mask (top rank, then the top card's suit, then the next
   card's suit down to the bottom card's);
4. flushes, suit by suit (weakest first), each suit's 5-card subsets in lexicographic order
   of their ids from the lowest;
5. full houses by the three's rank, the three's suits (increasing mask), the pair's rank,
   the pair's suits;
6. four of a kind by rank, then the fifth card, weakest first;
7. straight flushes in increasing id mask.

:func:`listing_key` is that order for plain Python (tests sort the brute-force plays of a
hand by it and compare with this list).

Compile time: numba compiles a called function once per tuple of argument *types*, and a
bare constant (``0``, ``True``, ``STRAIGHT``, or a variable first set to ``0``) passes as
its own literal type. Calls between these functions therefore pass typed values
(``np.int64(0)``, a comparison's ``bool``): the cold test suite compiled ``list_five`` and
its callees in 10 signatures each and ``_kind_open`` in 50 before, one each now.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces
from zooanalysis.cards.tricks import LATER_WINS
from zooanalysis.games.big_two.rules import (
    FLUSH,
    FOUR,
    FULL_HOUSE,
    KIND_SHIFT,
    N_BIG_RANKS,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NIBBLE = np.uint64(15)


def _subsets(size: int) -> tuple[np.ndarray, np.ndarray]:
    table = np.zeros((16, 6), dtype=np.int64)
    count = np.zeros(16, dtype=np.int64)
    for suits in range(16):
        for subset in range(16):
            if subset & ~suits == 0 and bin(subset).count("1") == size:
                table[suits, count[suits]] = subset
                count[suits] += 1
    return table, count


PAIRS_OF, N_PAIRS = _subsets(2)
"""``PAIRS_OF[suits, :N_PAIRS[suits]]``: the 2-suit subsets of a 4-bit suit set, ascending."""
TRIPLES_OF, N_TRIPLES = _subsets(3)
"""The 3-suit subsets, ascending."""
SUIT_OF_BIT = np.array([-1, 0, 1, -1, 2, -1, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1],
                       dtype=np.int64)
"""The suit of a one-suit nibble."""
SUIT_LANE = np.array(
    [sum(1 << (4 * rank + suit) for rank in range(N_BIG_RANKS)) for suit in range(4)],
    dtype=np.uint64,
)
"""``SUIT_LANE[s]``: every id of suit strength ``s``."""
RANK_LANE = np.array([15 << (4 * rank) for rank in range(N_BIG_RANKS)], dtype=np.uint64)
"""``RANK_LANE[r]``: the four ids of big rank ``r``."""
FULL_DECK = np.uint64((1 << 52) - 1)


def max_plays(hand_size: int) -> int:
    """An upper bound on the plays a hand of ``hand_size`` cards can list (buffer size)."""
    from math import comb

    return hand_size + 6 * 13 + 4 * 13 + comb(hand_size, 5) + 1


@njit(cache=True, nogil=True, error_model="numpy")
def low_index(bit) -> int:
    """The index of the lowest set bit of a non-zero mask."""
    return count_faces((bit & (~bit + _ONE)) - _ONE)


@njit(cache=True, nogil=True, error_model="numpy")
def high_index(mask) -> int:
    """The index of the highest set bit of a non-zero mask."""
    m = np.uint64(mask)
    m |= m >> np.uint64(1)
    m |= m >> np.uint64(2)
    m |= m >> np.uint64(4)
    m |= m >> np.uint64(8)
    m |= m >> np.uint64(16)
    m |= m >> np.uint64(32)
    return count_faces(m) - 1


@njit(cache=True, nogil=True, error_model="numpy")
def suits_of_rank(hand, rank) -> int:
    """The suits held of big rank ``rank`` as a nibble."""
    return np.int64((hand >> np.uint64(4 * rank)) & _NIBBLE)


@njit(cache=True, nogil=True, error_model="numpy")
def _allowed(key, table_key, leading, identical) -> bool:
    return leading or key > table_key or (key == table_key and identical == LATER_WINS)


@njit(cache=True, nogil=True, error_model="numpy")
def _kind_open(kind, table_key, leading, identical) -> bool:
    """Whether any key of ``kind`` can be allowed (prunes whole kinds)."""
    if leading:
        return True
    top = ((kind + 1) << KIND_SHIFT) - 1
    return _allowed(top, table_key, leading, identical)


@njit(cache=True, nogil=True, error_model="numpy")
def _emit(mask, key, must, masks, keys, n) -> int:
    if must != _ZERO and mask & must == _ZERO:
        return n
    masks[n] = mask
    keys[n] = key
    return n + 1


@njit(cache=True, nogil=True, error_model="numpy")
def list_plays(hand, table_key, table_size, must, identical, masks, keys) -> int:
    """Write every legal play of ``hand`` (an id mask) into ``masks``/``keys`` in the
    listing order (module docstring); returns how many.

    ``table_size`` 0 means the player leads (any play); otherwise only plays of that many
    cards that beat ``table_key`` (``rules.beats`` with ``identical``). ``must`` (an id
    mask, or 0) is a card every play must include (the opening lead). ``masks`` and
    ``keys`` must hold :func:`max_plays` entries."""
    hand = np.uint64(hand)
    must = np.uint64(must)
    leading = table_size == 0
    n = np.int64(0)
    if leading or table_size == 1:
        rest = hand
        while rest != _ZERO:
            bit = rest & (~rest + _ONE)
            rest ^= bit
            card = low_index(bit)
            key = (SINGLE << KIND_SHIFT) | card
            if _allowed(key, table_key, leading, identical):
                n = _emit(bit, key, must, masks, keys, n)
    if leading or table_size == 2:
        for rank in range(N_BIG_RANKS):
            suits = suits_of_rank(hand, rank)
            for i in range(N_PAIRS[suits]):
                subset = PAIRS_OF[suits, i]
                key = (PAIR << KIND_SHIFT) | (rank * 4 + high_index(np.uint64(subset)))
                if _allowed(key, table_key, leading, identical):
                    n = _emit(np.uint64(subset) << np.uint64(4 * rank), key, must, masks, keys, n)
    if leading or table_size == 3:
        for rank in range(N_BIG_RANKS):
            suits = suits_of_rank(hand, rank)
            key = (TRIPLE << KIND_SHIFT) | rank
            if N_TRIPLES[suits] == 0 or not _allowed(key, table_key, leading, identical):
                continue
            for i in range(N_TRIPLES[suits]):
                subset = TRIPLES_OF[suits, i]
                n = _emit(np.uint64(subset) << np.uint64(4 * rank), key, must, masks, keys, n)
    if leading or table_size == 5:
        n = list_five(hand, table_key, leading, must, identical, masks, keys, n)
    return n


@njit(cache=True, nogil=True, error_model="numpy")
def list_five(hand, table_key, leading, must, identical, masks, keys, n) -> int:
    """The five-card plays, appended from ``n`` in the listing order; returns the new count."""
    if _kind_open(np.int64(STRAIGHT), table_key, leading, identical):
        n = _list_straights(hand, table_key, leading, must, identical, masks, keys, n)
    if _kind_open(np.int64(FLUSH), table_key, leading, identical):
        n = _list_flushes(hand, table_key, leading, must, identical, masks, keys, n)
    if _kind_open(np.int64(FULL_HOUSE), table_key, leading, identical):
        for three in range(N_BIG_RANKS):
            suits = suits_of_rank(hand, three)
            key = (FULL_HOUSE << KIND_SHIFT) | three
            if N_TRIPLES[suits] == 0 or not _allowed(key, table_key, leading, identical):
                continue
            for i in range(N_TRIPLES[suits]):
                three_mask = np.uint64(TRIPLES_OF[suits, i]) << np.uint64(4 * three)
                for two in range(N_BIG_RANKS):
                    if two == three:
                        continue
                    pair_suits = suits_of_rank(hand, two)
                    for j in range(N_PAIRS[pair_suits]):
                        pair = np.uint64(PAIRS_OF[pair_suits, j]) << np.uint64(4 * two)
                        mask = three_mask | pair
                        n = _emit(mask, key, must, masks, keys, n)
    if _kind_open(np.int64(FOUR), table_key, leading, identical):
        for rank in range(N_BIG_RANKS):
            key = (FOUR << KIND_SHIFT) | rank
            if suits_of_rank(hand, rank) != 15 or not _allowed(key, table_key, leading, identical):
                continue
            four_mask = RANK_LANE[rank]
            rest = hand & ~four_mask
            while rest != _ZERO:
                bit = rest & (~rest + _ONE)
                rest ^= bit
                n = _emit(four_mask | bit, key, must, masks, keys, n)
    if _kind_open(np.int64(STRAIGHT_FLUSH), table_key, leading, identical):
        for top in range(4, N_BIG_RANKS):
            common = 15
            for rank in range(top - 4, top + 1):
                common &= suits_of_rank(hand, rank)
            for suit in range(4):
                if common >> suit & 1 == 0:
                    continue
                key = (STRAIGHT_FLUSH << KIND_SHIFT) | (top * 4 + suit)
                if not _allowed(key, table_key, leading, identical):
                    continue
                mask = _ZERO
                for rank in range(top - 4, top + 1):
                    mask |= _ONE << np.uint64(4 * rank + suit)
                n = _emit(mask, key, must, masks, keys, n)
    return n


@njit(cache=True, nogil=True, error_model="numpy")
def _list_straights(hand, table_key, leading, must, identical, masks, keys, n) -> int:
    for top in range(4, N_BIG_RANKS):
        s4 = suits_of_rank(hand, top)
        s3 = suits_of_rank(hand, top - 1)
        s2 = suits_of_rank(hand, top - 2)
        s1 = suits_of_rank(hand, top - 3)
        s0 = suits_of_rank(hand, top - 4)
        if s4 == 0 or s3 == 0 or s2 == 0 or s1 == 0 or s0 == 0:
            continue
        if not _allowed((STRAIGHT << KIND_SHIFT) | (top * 4 + 3), table_key, leading, identical):
            continue
        for a in range(4):
            if s4 >> a & 1 == 0:
                continue
            key = (STRAIGHT << KIND_SHIFT) | (top * 4 + a)
            if not _allowed(key, table_key, leading, identical):
                continue
            for b in range(4):
                if s3 >> b & 1 == 0:
                    continue
                for c in range(4):
                    if s2 >> c & 1 == 0:
                        continue
                    for d in range(4):
                        if s1 >> d & 1 == 0:
                            continue
                        for e in range(4):
                            if s0 >> e & 1 == 0:
                                continue
                            if a == b and b == c and c == d and d == e:
                                continue  # a straight flush
                            mask = (
                                (_ONE << np.uint64(4 * top + a))
                                | (_ONE << np.uint64(4 * top - 4 + b))
                                | (_ONE << np.uint64(4 * top - 8 + c))
                                | (_ONE << np.uint64(4 * top - 12 + d))
                                | (_ONE << np.uint64(4 * top - 16 + e))
                            )
                            n = _emit(mask, key, must, masks, keys, n)
    return n


@njit(cache=True, nogil=True, error_model="numpy")
def _flush_key(mask, suit) -> int:
    """A flush's key: its ranks from the highest down (4 bits each), then its suit."""
    strength = 0
    rest = mask
    for _ in range(5):
        top = high_index(rest)
        strength = (strength << 4) | (top >> 2)
        rest &= ~(_ONE << np.uint64(top))
    return (FLUSH << KIND_SHIFT) | (strength << 2) | suit


@njit(cache=True, nogil=True, error_model="numpy")
def _list_flushes(hand, table_key, leading, must, identical, masks, keys, n) -> int:
    for suit in range(4):
        lane = hand & SUIT_LANE[suit]
        if count_faces(lane) < 5:
            continue
        r1 = lane
        while r1 != _ZERO:
            b1 = r1 & (~r1 + _ONE)
            r1 ^= b1
            r2 = r1
            while r2 != _ZERO:
                b2 = r2 & (~r2 + _ONE)
                r2 ^= b2
                r3 = r2
                while r3 != _ZERO:
                    b3 = r3 & (~r3 + _ONE)
                    r3 ^= b3
                    r4 = r3
                    while r4 != _ZERO:
                        b4 = r4 & (~r4 + _ONE)
                        r4 ^= b4
                        r5 = r4
                        while r5 != _ZERO:
                            b5 = r5 & (~r5 + _ONE)
                            r5 ^= b5
                            if (low_index(b5) >> 2) - (low_index(b1) >> 2) == 4:
                                continue  # five ranks in a row: a straight flush
                            mask = b1 | b2 | b3 | b4 | b5
                            key = _flush_key(mask, suit)
                            if _allowed(key, table_key, leading, identical):
                                n = _emit(mask, key, must, masks, keys, n)
    return n


def listing_key(ids: list[int], kind: int) -> tuple:
    """The listing order of :func:`list_plays` for a play of card ``ids`` of ``kind``, plain
    Python: sort a hand's plays by ``(kind, listing_key(...))``."""
    ids = sorted(ids)
    mask = sum(1 << card for card in ids)
    if kind in (SINGLE, PAIR, TRIPLE, STRAIGHT, STRAIGHT_FLUSH):
        return (mask,)
    if kind == FLUSH:
        return (ids[0] & 3, tuple(ids))
    ranks = [card >> 2 for card in ids]
    if kind == FULL_HOUSE:
        three = max(set(ranks), key=ranks.count)
        three_mask = sum(1 << c for c in ids if c >> 2 == three)
        pair_mask = sum(1 << c for c in ids if c >> 2 != three)
        return (three, three_mask, next(r for r in ranks if r != three), pair_mask)
    four = max(set(ranks), key=ranks.count)
    return (four, next(c for c in ids if c >> 2 != four))
