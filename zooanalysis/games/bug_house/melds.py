"""Melds of Bug House Millionaire: singles, pairs and suited runs, and which beat which.

Rulebook: "Valid Melds / Singles / Pairs / Suited Runs"; "To play over the lead meld, a
higher combination of the lead meld must be played." A meld is described by its ``kind``
(``SINGLE``, ``PAIR``, ``RUN``), its ``length`` (cards) and its ``high`` (the rank that
compares: a single's or a pair's rank, a run's highest rank). A meld beats the meld on top
of the trick when it is of the same kind and higher; a run must also have the same length
(``longer_ok``: a longer run with a higher highest card beats it too). Ranks compare
numerically, 0 lowest, 15 highest; suits never compare (docs/rules-decisions.md).

**The canonical order** of the legal melds, the order the ``random`` strategy numbers them
in (one ``below(n)`` draw picks one):

1. singles, by face (``suit * 16 + rank``) increasing;
2. pairs, by rank increasing, then by suits ``(s1, s2)``, ``s1 < s2``, in lexicographic order;
3. runs, by suit increasing, then length increasing, then lowest rank increasing.

The compiled functions (:func:`meld_count`, :func:`nth_meld`, used by both engines'
strategies and the kernel) walk that order on a face mask without allocating;
:func:`legal_melds` is the readable twin on Python sets, which the reference engine uses to
check every move; the tests hold the two equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces, face_bit, highest_face, lowest_face
from zooanalysis.cards.encoding import N_SUITS

NONE, SINGLE, PAIR, RUN = -1, 0, 1, 2
KIND_NAMES = ("single", "pair", "run")
RANKS = 16

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_LANE = 0xFFFF


def _above_table() -> np.ndarray:
    table = np.zeros(RANKS + 1, dtype=np.uint64)
    for high in range(-1, RANKS):
        mask = 0
        for suit in range(N_SUITS):
            for rank in range(high + 1, RANKS):
                mask |= 1 << (suit * 16 + rank)
        table[high + 1] = mask
    return table


ABOVE = _above_table()
"""``ABOVE[h + 1]``: every face of rank above ``h`` (``ABOVE[0]``: all 64)."""

_PAIRS_OF_SUITS = [(a, b) for a in range(N_SUITS) for b in range(a + 1, N_SUITS)]


def _pair_tables() -> tuple[np.ndarray, np.ndarray]:
    count = np.zeros(16, dtype=np.int64)
    suits = np.zeros((16, 6, 2), dtype=np.int64)
    for suit_set in range(16):
        held = [(a, b) for a, b in _PAIRS_OF_SUITS if suit_set >> a & 1 and suit_set >> b & 1]
        count[suit_set] = len(held)
        for j, (a, b) in enumerate(held):
            suits[suit_set, j] = (a, b)
    return count, suits


PAIR_COUNT, PAIR_SUITS = _pair_tables()
"""Pairs a 4-bit suit set of one rank makes, and the ``j``-th of them as (suit, suit)."""


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def rank_suits(hand, rank) -> int:
    """The suits holding ``rank`` in the face mask ``hand``, as a 4-bit suit set."""
    h = np.uint64(hand)
    r = np.uint64(rank)
    suits = 0
    for suit in range(N_SUITS):
        if (h >> (r + np.uint64(16 * suit))) & _ONE != _ZERO:
            suits |= 1 << suit
    return suits


@njit(cache=True, nogil=True, error_model="numpy")
def pair_total(hand, first_rank) -> int:
    """The number of pairs in ``hand`` of rank ``first_rank`` or higher: for each of the six
    pairs of suits, the ranks both suits hold (one AND and one population count each)."""
    h = np.uint64(hand) & ABOVE[first_rank]
    lanes = (h & np.uint64(_LANE), (h >> np.uint64(16)) & np.uint64(_LANE),
             (h >> np.uint64(32)) & np.uint64(_LANE), h >> np.uint64(48))
    return (
        count_faces(lanes[0] & lanes[1]) + count_faces(lanes[0] & lanes[2])
        + count_faces(lanes[0] & lanes[3]) + count_faces(lanes[1] & lanes[2])
        + count_faces(lanes[1] & lanes[3]) + count_faces(lanes[2] & lanes[3])
    )


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def run_starts(lane, length) -> int:
    """Bit ``i`` set iff ranks ``i .. i + length - 1`` are all in the 16-bit ``lane``."""
    starts = lane
    for shift in range(1, length):
        starts &= lane >> shift
    return starts


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def run_mask(suit, start, length) -> np.uint64:
    """The faces of the suited run ``start .. start + length - 1`` of ``suit``."""
    bits = (np.uint64(1) << np.uint64(length)) - _ONE
    return bits << np.uint64(suit * 16 + start)


@njit(cache=True, nogil=True, error_model="numpy")
def describe(meld) -> tuple[int, int, int]:
    """(kind, length, high) of a meld's face mask (assumed a valid meld)."""
    m = np.uint64(meld)
    length = count_faces(m)
    low = lowest_face(m)
    if length == 1:
        return SINGLE, 1, low & 15
    if length == 2 and highest_face(m) & 15 == low & 15:
        return PAIR, 2, low & 15
    return RUN, length, (low & 15) + length - 1


@njit(cache=True, nogil=True, error_model="numpy")
def is_meld(meld, min_run) -> bool:
    """Whether the face mask ``meld`` is a single, a pair or a suited run of at least
    ``min_run`` cards."""
    m = np.uint64(meld)
    length = count_faces(m)
    if length == 0:
        return False
    if length == 1:
        return True
    low = lowest_face(m)
    if length == 2 and highest_face(m) & 15 == low & 15:
        return True
    rank = low & 15
    return length >= min_run and rank + length <= RANKS and m == run_mask(low >> 4, rank, length)


@njit(cache=True, nogil=True, error_model="numpy")
def walk_melds(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, k):
    """Walk the legal melds of ``hand`` in the canonical order (module docstring).

    ``top_kind == NONE``: the player leads (any meld; singles only if ``singles_ok``);
    otherwise the melds that beat the top meld (kind, length, high). Returns ``(count, meld,
    kind, length, high)``: with ``k < 0`` the number of legal melds (meld 0); else the
    ``k``-th legal meld (``count`` = k + 1), or meld 0 if there are fewer."""
    h = np.uint64(hand)
    seen = 0
    # singles
    if (top_kind == NONE and singles_ok) or top_kind == SINGLE:
        cards = h if top_kind == NONE else h & ABOVE[top_high + 1]
        n = count_faces(cards)
        if 0 <= k < seen + n:
            face = lowest_face(cards)
            for _ in range(k - seen):
                cards &= cards - _ONE
                face = lowest_face(cards)
            return k + 1, face_bit(face), SINGLE, 1, face & 15
        seen += n
    # pairs
    if top_kind == NONE or top_kind == PAIR:
        first = 0 if top_kind == NONE else top_high + 1
        total = pair_total(h, first)
        if not 0 <= k < seen + total:
            seen += total
            first = RANKS  # the k-th meld is not a pair: skip the walk over ranks
        for rank in range(first, RANKS):
            suits = rank_suits(h, rank)
            n = PAIR_COUNT[suits]
            if 0 <= k < seen + n:
                j = k - seen
                a = PAIR_SUITS[suits, j, 0]
                b = PAIR_SUITS[suits, j, 1]
                meld = face_bit(a * 16 + rank) | face_bit(b * 16 + rank)
                return k + 1, meld, PAIR, 2, rank
            seen += n
    # runs
    if top_kind == NONE or top_kind == RUN:
        shortest = min_run if top_kind == NONE else top_len
        longest = RANKS if (top_kind == NONE or longer_ok) else top_len
        for suit in range(N_SUITS):
            lane = np.int64((h >> np.uint64(16 * suit)) & np.uint64(_LANE))
            starts = run_starts(lane, shortest)
            length = shortest
            while starts != 0 and length <= longest:
                if top_kind != NONE:
                    lowest_start = max(top_high - length + 2, 0)
                    starts_ok = starts & ~((1 << lowest_start) - 1)
                else:
                    starts_ok = starts
                n = count_faces(np.uint64(starts_ok))
                if 0 <= k < seen + n:
                    start = lowest_face(np.uint64(starts_ok))
                    for _ in range(k - seen):
                        starts_ok &= starts_ok - 1
                        start = lowest_face(np.uint64(starts_ok))
                    meld = run_mask(suit, start, length)
                    return k + 1, meld, RUN, length, start + length - 1
                seen += n
                starts &= lane >> length
                length += 1
    return seen, _ZERO, NONE, 0, -1


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def meld_count(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok) -> int:
    """The number of legal melds (see :func:`walk_melds`)."""
    every = np.int64(-1)  # typed: a bare -1 is a numba type of its own (compile time)
    return walk_melds(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, every)[0]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def nth_meld(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, k):
    """The ``k``-th legal meld in the canonical order: ``(meld, kind, length, high)``."""
    found = walk_melds(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, k)
    return found[1], found[2], found[3], found[4]


# --- the readable twin -------------------------------------------------------------------


@dataclass(frozen=True)
class Meld:
    """A meld as cards (faces, increasing) with its kind, length and comparing rank."""

    kind: int
    cards: tuple[int, ...]
    high: int

    @property
    def length(self) -> int:
        """Cards in the meld."""
        return len(self.cards)

    @property
    def mask(self) -> int:
        """The meld's faces as an int mask."""
        return sum(1 << card for card in self.cards)

    def beats(self, top: Meld, longer_ok: bool = False) -> bool:
        """Whether this meld may be played over ``top``: "a higher combination of the lead
        meld" (same kind, higher; a run of the same length, or longer when ``longer_ok``)."""
        if self.kind != top.kind or self.high <= top.high:
            return False
        if self.kind == RUN:
            return self.length == top.length or (longer_ok and self.length > top.length)
        return True


def meld_of(cards: Iterable[int]) -> Meld:
    """The :class:`Meld` of some cards (``ValueError`` if they are not a single, a pair or a
    suited run of at least 2 cards)."""
    cards = tuple(sorted(cards))
    ranks = [card & 15 for card in cards]
    suits = {card >> 4 for card in cards}
    if len(cards) == 1:
        return Meld(SINGLE, cards, ranks[0])
    if len(cards) == 2 and ranks[0] == ranks[1]:
        return Meld(PAIR, cards, ranks[0])
    if len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards))):
        return Meld(RUN, cards, ranks[-1])
    raise ValueError(f"cards {cards} are not a single, a pair or a suited run")


def legal_melds(
    hand: Iterable[int],
    top: Meld | None,
    min_run: int,
    longer_ok: bool = False,
    singles_ok: bool = True,
) -> list[Meld]:
    """Every meld of ``hand`` that may be played now, in the canonical order: any meld when
    leading (``top`` None; singles only if ``singles_ok``), else those that beat ``top``."""
    held = set(hand)
    melds: list[Meld] = []
    if (top is None and singles_ok) or (top is not None and top.kind == SINGLE):
        melds += [Meld(SINGLE, (card,), card & 15) for card in sorted(held)]
    if top is None or top.kind == PAIR:
        for rank in range(RANKS):
            for a, b in _PAIRS_OF_SUITS:
                if a * 16 + rank in held and b * 16 + rank in held:
                    melds.append(Meld(PAIR, (a * 16 + rank, b * 16 + rank), rank))
    if top is None or top.kind == RUN:
        for suit in range(N_SUITS):
            # the longest run of this suit starting at each rank
            longest = [0] * (RANKS + 1)
            for rank in range(RANKS - 1, -1, -1):
                longest[rank] = longest[rank + 1] + 1 if suit * 16 + rank in held else 0
            for length in range(min_run if top is None else top.length, max(longest) + 1):
                for start in range(RANKS - length + 1):
                    if longest[start] >= length:
                        cards = tuple(suit * 16 + rank for rank in range(start, start + length))
                        melds.append(Meld(RUN, cards, start + length - 1))
    if top is None:
        return melds
    return [meld for meld in melds if meld.beats(top, longer_ok)]
