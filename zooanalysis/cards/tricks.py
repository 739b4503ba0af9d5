"""Who wins a trick, and who played the highest card.

A trick is its cards' faces in play order (position 0 = the leader), each as it counts: a
declared joker (Dodgeball's All-Star, a Ringer's 0 or 14) as the face it was declared.
Under the trick's order (``order``, ``direction``; see ``orders.py``) the strongest card
wins among, from strongest to weakest class:

1. jokers, when ``jokers_strongest`` (Chai Tea Jazz 6p: "beating any trump or other card");
   otherwise an undeclared joker never wins;
2. trumps (``trump``; ``NO_SUIT`` for none), by rank;
3. cards of the led suit (``led``), by rank; with ``led = NO_SUIT`` every suited card is in
   this class, so the highest rank wins regardless of suit;
4. other cards never win.

Identical cards (copies of one face, or two jokers) tie; ``ties`` names who wins them:
``EARLIER_WINS`` (Chai's double deck: "the earlier played card wins") or ``LATER_WINS``
(Chai 6p: "The later-played Joker wins").

:func:`highest_positions` is Hodge Podge Dodgeball's question: the set of positions whose
card has the highest rank regardless of suit (one position: a hit; partners: a block;
opponents: a catch, with :func:`latest_position` for "the latest player").
"""

from __future__ import annotations

from collections.abc import Sequence

from numba import njit

from zooanalysis.cards.encoding import NO_SUIT, Card
from zooanalysis.cards.orders import STRENGTH, UP, strongest_first

EARLIER_WINS, LATER_WINS = 0, 1
TIE_NAMES = ("earlier", "later")
"""Setting names of the tie rules, by id."""

_CLASS = 16
"""Keys: class * 16 + strength, so a stronger class beats any rank of a weaker one."""


@njit(cache=True, nogil=True, error_model="numpy")
def card_key(face: int, led: int, trump: int, order: int, direction: int,
             jokers_strongest: bool) -> int:
    """How strongly ``face`` plays in its trick: a larger key beats a smaller one, equal
    keys tie (0: cannot win)."""
    suit = face >> 4
    if suit == NO_SUIT:
        return 3 * _CLASS if jokers_strongest else 0
    rank_strength = STRENGTH[order, direction, face & 15]
    if suit == trump:
        return 2 * _CLASS + rank_strength
    if suit == led or led == NO_SUIT:
        return _CLASS + rank_strength
    return 0


@njit(cache=True, nogil=True, error_model="numpy")
def trick_winner(faces, n: int, led: int, trump: int, order: int, direction: int,
                 jokers_strongest: bool, ties: int) -> int:
    """The position (0 = the leader) of the card winning the trick ``faces[:n]``."""
    best, best_key = 0, -1
    for position in range(n):
        key = card_key(faces[position], led, trump, order, direction, jokers_strongest)
        if key > best_key or (ties == LATER_WINS and key == best_key):
            best, best_key = position, key
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def highest_positions(faces, n: int, order: int, direction: int) -> int:
    """The positions (bit ``i`` = position ``i``) whose card has the highest rank in
    ``faces[:n]`` regardless of suit; undeclared jokers are never among them."""
    best, positions = -1, 0
    for position in range(n):
        face = faces[position]
        if face >> 4 == NO_SUIT:
            continue
        rank_strength = STRENGTH[order, direction, face & 15]
        if rank_strength > best:
            best, positions = rank_strength, 1 << position
        elif rank_strength == best:
            positions |= 1 << position
    return positions


@njit(cache=True, nogil=True, error_model="numpy")
def latest_position(positions: int) -> int:
    """The highest position in a position set (bit ``i`` = position ``i``), or -1 if empty."""
    latest = -1
    while positions >> (latest + 1):
        latest += 1
    return latest


@njit(cache=True, nogil=True, error_model="numpy")
def earliest_position(positions: int) -> int:
    """The lowest position in a position set, or -1 if empty."""
    if positions == 0:
        return -1
    earliest = 0
    while not positions >> earliest & 1:
        earliest += 1
    return earliest


def beats(challenger: Card, holder: Card, led: int, trump: int = NO_SUIT, order: int = 0,
          direction: int = UP, jokers_strongest: bool = False) -> bool:
    """Whether ``challenger`` is strictly stronger than ``holder`` in a trick (readable)."""

    def standing(card: Card) -> tuple[int, int]:
        if card.is_joker:
            return (3, 0) if jokers_strongest else (0, 0)
        weakness = strongest_first(order, direction).index(card.rank)
        if card.suit == trump:
            return (2, -weakness)
        if card.suit == led or led == NO_SUIT:
            return (1, -weakness)
        return (0, 0)

    return standing(challenger) > standing(holder)


def winning_position(trick: Sequence[Card], led: int | None = None, trump: int = NO_SUIT,
                     order: int = 0, direction: int = UP, jokers_strongest: bool = False,
                     ties: int = EARLIER_WINS) -> int:
    """The position of the card winning ``trick`` (readable; ``led`` defaults to the first
    card's suit). A card takes the trick from the card holding it when it beats it, or ties
    with it and ``ties`` is ``LATER_WINS``."""
    led = trick[0].suit if led is None else led
    best = 0
    for position in range(1, len(trick)):
        card, holder = trick[position], trick[best]
        stronger = beats(card, holder, led, trump, order, direction, jokers_strongest)
        weaker = beats(holder, card, led, trump, order, direction, jokers_strongest)
        if stronger or (ties == LATER_WINS and not weaker):
            best = position
    return best
