"""Follow rules: which cards a player may add to a trick.

Each rule is written once below, in plain Python on sets of suits (:func:`legal_suits`,
the specification); kernels look the same answers up in ``LEGAL_SUITS``, a table built
from it when the module loads, so both engines apply the same rule by construction.

A rule decides which *suits* may be played from the suits a player holds (``held``), the
led suit (``led``: the suit of the trick's first card, ``NO_SUIT`` when leading), the
trump suit (``trump``, ``NO_SUIT`` for none) and the suits already in the trick
(``played``); a card is legal when its suit is. Suit sets are 4-bit ints in the compiled
functions (bit ``s`` = suit ``s``):

* ``FREE``: any card (leading; "May follow"; climbing games).
* ``MUST_FOLLOW``: a card of the led suit if the player has one, else any card.
* ``MAY_TRUMP``: a card of the led suit or a trump if the player has the led suit, else
  any card; when trump is led, a trump if the player has one (Chai Tea Jazz: "may-trump
  allows players to play a trump card, even if they could follow suit. If the trump suit is
  led, the following players must play a trump card, if they have one").
* ``MUST_NOT_FOLLOW``: a card of a suit not yet in the trick if the player has one, else
  any card (the compendium's general must-not-follow: "if they are able to").
* ``MUST_NOT_FOLLOW_STRICT``: a card of a suit not yet in the trick, and no card at all if
  the player has none (Hodge Podge Dodgeball: that player cannot play, the round ends).

Jokers are not in any suit. ``JOKER_ANY_TIME``: an undeclared joker may always be played
and does not change which suits a player holds (the reading offered for Chai Tea Jazz's
6-player Jokers; the game decides). ``JOKER_DECLARED``: a joker is played as a card of a
suit declared when it is played (Dodgeball's All-Stars: "They act as any number in any
suit"), so a player holding one holds a card of every suit: the rule is applied with
``held`` = all four suits, the player's real cards of the resulting legal suits may be
played, and the joker may be declared as any of them (:func:`declarable_suits`). Under
must-not-follow that means: real cards of suits not yet in the trick, or the joker as any
such suit; a player with a joker is always able to play (in a trick of at most 3 cards).
A declared joker then counts as a card of that suit (for ``played`` and the trick winner);
an undeclared joker adds no suit to ``played``, and a trick led by one has ``NO_SUIT``
led unless the game says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit

from zooanalysis.cards.bits import SUIT_SET_FACES, suits_held
from zooanalysis.cards.encoding import N_SUITS, NO_SUIT, Card

FREE, MUST_FOLLOW, MAY_TRUMP, MUST_NOT_FOLLOW, MUST_NOT_FOLLOW_STRICT = 0, 1, 2, 3, 4
N_RULES = 5
RULE_NAMES = ("free", "must-follow", "may-trump", "must-not-follow", "must-not-follow-strict")
"""Setting names of the follow rules, by rule id."""

JOKER_ANY_TIME, JOKER_DECLARED = 0, 1
JOKER_MODE_NAMES = ("any-time", "declared")

_SUIT_SETS = 1 << N_SUITS
ALL_SUITS = frozenset(range(N_SUITS))
EVERY_SUIT = _SUIT_SETS - 1
"""Every suit as a 4-bit suit set."""


def legal_suits(
    rule: int, held: frozenset[int], led: int, trump: int, played: frozenset[int]
) -> frozenset[int]:
    """The suits a player holding cards of the suits ``held`` may play (the specification)."""
    held = frozenset(held)
    if rule == FREE:
        return held
    if rule == MUST_FOLLOW:
        return frozenset({led}) if led in held else held
    if rule == MAY_TRUMP:
        if led not in held:
            return held
        if led == trump:
            return frozenset({trump})
        return frozenset({led}) | (frozenset({trump}) & held)
    if rule in (MUST_NOT_FOLLOW, MUST_NOT_FOLLOW_STRICT):
        fresh = held - frozenset(played)
        return fresh if fresh or rule == MUST_NOT_FOLLOW_STRICT else held
    raise ValueError(f"unknown follow rule {rule!r}: allowed are 0-{N_RULES - 1}")


def declarable_suits(rule: int, led: int, trump: int, played: frozenset[int]) -> frozenset[int]:
    """The suits a declared joker may be played as: those a player holding every suit may
    play (the specification)."""
    return legal_suits(rule, ALL_SUITS, led, trump, played)


def _suits(bits: int) -> frozenset[int]:
    return frozenset(suit for suit in range(N_SUITS) if bits >> suit & 1)


def _bits(suits: Iterable[int]) -> int:
    return sum(1 << suit for suit in set(suits))


def _legal_suits_table() -> np.ndarray:
    sets = [_suits(bits) for bits in range(_SUIT_SETS)]
    table = np.zeros((N_RULES, N_SUITS + 1, N_SUITS + 1, _SUIT_SETS, _SUIT_SETS), dtype=np.int8)
    for rule in range(N_RULES):
        for led in range(N_SUITS + 1):
            for trump in range(N_SUITS + 1):
                for held in range(_SUIT_SETS):
                    for played in range(_SUIT_SETS):
                        suits = legal_suits(rule, sets[held], led, trump, sets[played])
                        table[rule, led, trump, held, played] = _bits(suits)
    return table


LEGAL_SUITS = _legal_suits_table()
"""``LEGAL_SUITS[rule, led, trump, held, played]``: the legal suit set (4-bit)."""


@njit(cache=True, nogil=True, error_model="numpy")
def legal_suit_set(rule: int, held: int, led: int, trump: int, played: int) -> int:
    """The legal suit set for a player holding the suit set ``held`` (one table lookup)."""
    return LEGAL_SUITS[rule, led, trump, held, played]


@njit(cache=True, nogil=True, error_model="numpy")
def legal_faces(mask, rule: int, led: int, trump: int, played: int,
                holds_declared_joker: bool) -> np.uint64:
    """The faces of the face mask ``mask`` that may be played (jokers aside).

    ``holds_declared_joker``: the hand also holds a ``JOKER_DECLARED`` joker, so it holds
    every suit. With several copies, pass the union of the copies' masks and AND the result
    with each copy's mask.
    """
    m = np.uint64(mask)
    held = EVERY_SUIT if holds_declared_joker else suits_held(m)
    return m & SUIT_SET_FACES[LEGAL_SUITS[rule, led, trump, held, played]]


@njit(cache=True, nogil=True, error_model="numpy")
def declarable_suit_set(rule: int, led: int, trump: int, played: int) -> int:
    """The suit set a ``JOKER_DECLARED`` joker may be declared as."""
    return LEGAL_SUITS[rule, led, trump, EVERY_SUIT, played]


@njit(cache=True, nogil=True, error_model="numpy")
def jokers_playable(joker_mode: int, rule: int, led: int, trump: int, played: int) -> bool:
    """Whether a joker may be played now."""
    if joker_mode == JOKER_ANY_TIME:
        return True
    return LEGAL_SUITS[rule, led, trump, EVERY_SUIT, played] != 0


def led_suit(trick: Sequence[Card]) -> int:
    """The suit of a trick's first card; ``NO_SUIT`` for an empty trick or a led joker."""
    return trick[0].suit if trick else NO_SUIT


def legal_cards(
    hand: Iterable[Card],
    trick: Sequence[Card],
    rule: int,
    trump: int = NO_SUIT,
    led: int | None = None,
    joker_mode: int = JOKER_ANY_TIME,
) -> list[Card]:
    """The cards of ``hand`` that may be added to ``trick`` (readable, for reference engines).

    ``trick`` holds the cards played so far as they count: a declared joker as the card it
    was declared. ``led`` defaults to :func:`led_suit`. Cards keep the hand's order.
    """
    hand = list(hand)
    led = led_suit(trick) if led is None else led
    played = frozenset(card.suit for card in trick if not card.is_joker)
    held = frozenset(card.suit for card in hand if not card.is_joker)
    wild = joker_mode == JOKER_DECLARED and any(card.is_joker for card in hand)
    allowed = legal_suits(rule, ALL_SUITS if wild else held, led, trump, played)
    if joker_mode == JOKER_ANY_TIME:
        jokers_ok = True
    else:
        jokers_ok = bool(declarable_suits(rule, led, trump, played))
    return [card for card in hand if (jokers_ok if card.is_joker else card.suit in allowed)]
