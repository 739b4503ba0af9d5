"""Hearts' built-in strategies, compiled once and used by both engines.

A strategy answers two questions, each from what its player may know:

* ``choose_pass``: which ``count`` cards of its hand it passes (not asked in a hold hand);
* ``choose_card``: which legal card it plays to the trick.

Cards are *high faces* (``faces.py``: the ace at rank 14, so a higher bit of a suit is a
stronger card); sets of cards are ``uint64`` masks of them. The inputs are the player's
hand, its legal cards, the trick so far (led suit, the winning card, the point cards in
it, whether it plays last), the cards played this hand (``played``, current trick
included: every card was played face up) and whether some other player has taken a point
card this hand (tricks are taken in view of everyone). Nothing else of the game reaches a
strategy. ``params`` is the lineup's parameter array (one row per seat) and ``row`` the
deciding player's row.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import (
    SUIT_FACES,
    count_faces,
    face_bit,
    highest_face,
    lowest_face,
    nth_face,
)
from zooanalysis.cards.encoding import N_SUITS, NO_SUIT
from zooanalysis.games.hearts.faces import HEART_FACES, HEARTS, QUEEN_BIT, SPADES
from zooanalysis.rng import below
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo

RANDOM, SAFE, BOLD = 0, 1, 2
MAX_PARAMS = 3
KEEP_SPADES, MOON_AT, FLUSH = range(MAX_PARAMS)
"""Slots of the compiled parameter array."""

_EMPTY = np.uint64(0)
_ONE = np.uint64(1)
HIGH_SPADES = np.uint64((1 << (SPADES * 16 + 13)) | (1 << (SPADES * 16 + 14)))
"""The King and Ace of Spades (high faces): they win a trick the Queen may be dropped on."""
DANGER = HIGH_SPADES | QUEEN_BIT
TOP_RANKS = np.uint64(sum(0b111 << (suit * 16 + 12) for suit in range(N_SUITS)))
"""Queens, Kings and Aces of every suit: the "high cards" of ``bold``'s moon test."""

_KEEP = ParamSpec(
    "keep_spades",
    5,
    0,
    14,
    "keeps (does not pass) the Queen, King and Ace of Spades when it holds at least this "
    "many spades, enough low ones to guard them (14: always passes them)",
    integer=True,
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniformly random legal play, exactly as specified for cross-implementation checks, "
        "each decision one draw on the game's stream. The hand's cards are ordered clubs, "
        "diamonds, hearts, spades, and within a suit 2, 3, ..., 10, J, Q, K, A (positions "
        "0 to n-1). Passing k cards: one draw r = below(C(n, k)) picks the r-th k-subset in "
        "colexicographic order (for j = k down to 1: the largest position c with C(c, j) <= "
        "r is passed, r -= C(c, j)), so each of the C(13, 3) = 286 subsets has chance 1/286. "
        "Playing: the below(m)-th of its m legal cards in that order (one draw even when m = "
        "1). Draw order: the passes seat 1 to 4 after the deal, then every card in play "
        "order.",
    ),
    "safe": StrategyInfo(
        "safe",
        "Ducks hearts and the Queen and voids suits early. Passes the Queen, King and Ace of "
        "Spades (unless it holds keep_spades spades), then its highest hearts from the Jack "
        "up, then the highest cards of its shortest other suit. Leads the lowest card of its "
        "shortest suit, avoiding hearts and (while the Queen is out) the Queen, King and Ace "
        "of Spades. Following, it plays its highest card under the winning one; if it cannot "
        "duck, its highest card when last (the Queen only if nothing else), else its lowest. "
        "Void, it throws the Queen, then the King and Ace of Spades while the Queen is out, "
        "then its highest heart, then the highest card of its shortest suit.",
        (_KEEP,),
    ),
    "bold": StrategyInfo(
        "bold",
        "Plays safe, but shoots the moon with a strong hand: while no other player has "
        "taken a point card and its Queens, Kings and Aces number at least moon_at per 13 "
        "cards held, it passes its lowest cards, leads and follows with its highest card "
        "and, void, throws its lowest non-point card. flush = 1: when not holding the "
        "Queen, King or Ace of Spades while the Queen is out, it leads its highest spade "
        "to drive the Queen out.",
        (
            _KEEP,
            ParamSpec(
                "moon_at", 7, 0, 13, "Queens, Kings and Aces per 13 cards from which it tries "
                "to shoot the moon (13: only with all of them; 0: always while possible)",
                integer=False,
            ),
            ParamSpec(
                "flush", 1, 0, 1, "1 = leads spades to drive the Queen out when it cannot "
                "be caught with it", integer=True,
            ),
        ),
    ),
}
STRATEGY_CODES = {"random": RANDOM, "safe": SAFE, "bold": BOLD}
_SLOTS = {"keep_spades": KEEP_SPADES, "moon_at": MOON_AT, "flush": FLUSH}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters in the compiled slots (``KEEP_SPADES`` ...); ``safe`` never
    shoots (``moon_at`` above any hand) nor flushes."""
    values = np.zeros(MAX_PARAMS, dtype=np.float64)
    values[MOON_AT] = 99.0
    for name, value in player.params:
        values[_SLOTS[name]] = value
    return values


# --- helpers -------------------------------------------------------------------------------

_BINOMIAL = np.zeros((65, 14), dtype=np.int64)
for _n in range(65):
    _BINOMIAL[_n, 0] = 1
    for _k in range(1, min(_n, 13) + 1):
        _BINOMIAL[_n, _k] = _BINOMIAL[_n - 1, _k - 1] + (_BINOMIAL[_n - 1, _k] if _k < _n else 0)


@njit(cache=True, nogil=True, error_model="numpy")
def subset_by_rank(mask, k: int, r: int) -> np.uint64:
    """The ``r``-th ``k``-subset of the cards of ``mask`` in colexicographic order of their
    positions (0 = the lowest card)."""
    m = np.uint64(mask)
    chosen = _EMPTY
    for j in range(k, 0, -1):
        c = j - 1
        while _BINOMIAL[c + 1, j] <= r:
            c += 1
        r -= _BINOMIAL[c, j]
        chosen |= face_bit(nth_face(m, c))
    return chosen


@njit(cache=True, nogil=True, error_model="numpy")
def _shortest(mask) -> int:
    """The suit of ``mask`` holding the fewest cards (at least one; the lowest suit on
    ties), or -1 for an empty mask."""
    best, size = -1, 99
    for suit in range(N_SUITS):
        n = count_faces(mask & SUIT_FACES[suit])
        if 0 < n < size:
            best, size = suit, n
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def _below(face) -> np.uint64:
    """Every face under ``face`` in mask order (lower cards of its suit, lower suits)."""
    return face_bit(face) - _ONE


@njit(cache=True, nogil=True, error_model="numpy")
def _queen_out(hand, played) -> bool:
    """The Queen of Spades is in another hand (neither played nor held)."""
    return (hand | played) & QUEEN_BIT == _EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def _shooting(params, row, hand, others_points) -> bool:
    """``bold``'s moon test: nobody else took a point card, and its Queens, Kings and Aces
    number at least ``moon_at`` per 13 cards held."""
    if others_points:
        return False
    held = count_faces(hand)
    return held > 0 and count_faces(hand & TOP_RANKS) * 13 >= params[row, MOON_AT] * held


# --- passing -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_pass(hand, count, stream) -> np.uint64:
    """``count`` cards of ``hand``, uniformly: one draw, the subset of that rank (see
    ``random``)."""
    m = np.uint64(hand)
    return subset_by_rank(m, count, below(stream, _BINOMIAL[count_faces(m), count]))


@njit(cache=True, nogil=True, error_model="numpy")
def _safe_pass_card(params, row, rest) -> int:
    """The next card ``safe`` passes from ``rest``."""
    spades = rest & SUIT_FACES[SPADES]
    danger = rest & DANGER
    if danger != _EMPTY and count_faces(spades) < params[row, KEEP_SPADES]:
        return highest_face(danger)
    hearts = rest & HEART_FACES & ~(face_bit(HEARTS * 16 + 11) - _ONE)
    if hearts != _EMPTY:
        return highest_face(hearts)
    others = rest & ~HEART_FACES
    suit = _shortest(others if others != _EMPTY else rest)
    return highest_face(rest & SUIT_FACES[suit])


@njit(cache=True, nogil=True, error_model="numpy")
def heuristic_pass(params, row, hand, count) -> np.uint64:
    """``safe``'s and ``bold``'s passed cards (no random draw)."""
    rest = np.uint64(hand)
    chosen = _EMPTY
    shoot = _shooting(params, row, rest, np.bool_(False))  # typed: compiled once
    for _ in range(count):
        face = lowest_face(rest) if shoot else _safe_pass_card(params, row, rest)
        if shoot:  # the lowest by strength, whatever the suit
            best = 99
            for suit in range(N_SUITS):
                low = lowest_face(rest & SUIT_FACES[suit])
                if low >= 0 and (low & 15) < best:
                    best, face = low & 15, low
        chosen |= face_bit(face)
        rest &= ~face_bit(face)
    return chosen


@njit(cache=True, nogil=True, error_model="numpy")
def choose_pass(code, params, row, hand, count, stream) -> np.uint64:
    """The ``count`` cards of ``hand`` the player passes."""
    if code == RANDOM:
        return random_pass(hand, count, stream)
    return heuristic_pass(params, row, np.uint64(hand), count)


# --- playing a card ------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_card(legal, stream) -> int:
    """The ``random`` policy's card: the ``below(m)``-th of the ``m`` legal cards."""
    return nth_face(legal, below(stream, count_faces(legal)))


@njit(cache=True, nogil=True, error_model="numpy")
def _lowest_of_shortest(cards) -> int:
    """The lowest card of the shortest suit of ``cards``."""
    return lowest_face(cards & SUIT_FACES[_shortest(cards)])


@njit(cache=True, nogil=True, error_model="numpy")
def _moon_card(hand, legal, led) -> int:
    """``bold`` shooting: lead or follow with the highest card, throw the lowest
    non-point card when void."""
    if led == NO_SUIT or legal & SUIT_FACES[led] != _EMPTY:
        best, face = -1, -1
        for suit in range(N_SUITS):
            top = highest_face(legal & SUIT_FACES[suit])
            if top >= 0 and (top & 15) > best:
                best, face = top & 15, top
        return face
    plain = legal & ~HEART_FACES & ~QUEEN_BIT
    pool = plain if plain != _EMPTY else legal
    best, face = 99, -1
    for suit in range(N_SUITS):
        low = lowest_face(pool & SUIT_FACES[suit])
        if low >= 0 and (low & 15) < best:
            best, face = low & 15, low
    return face


@njit(cache=True, nogil=True, error_model="numpy")
def heuristic_card(params, row, hand, legal, led, best, last, played, others_points) -> int:
    """``safe``'s and ``bold``'s card (no random draw); see their descriptions."""
    if _shooting(params, row, hand, others_points):
        return _moon_card(hand, legal, led)
    queen_out = _queen_out(hand, played)
    if led == NO_SUIT:  # leading
        if params[row, FLUSH] > 0 and queen_out and hand & DANGER == _EMPTY:
            spades = legal & SUIT_FACES[SPADES]
            if spades != _EMPTY:
                return highest_face(spades)
        pool = legal & ~HEART_FACES
        if queen_out:
            pool &= ~DANGER
        pool &= ~QUEEN_BIT
        if pool == _EMPTY:
            pool = legal & ~QUEEN_BIT
        if pool == _EMPTY:
            pool = legal
        return _lowest_of_shortest(pool)
    lane = SUIT_FACES[led]
    if legal & lane != _EMPTY:  # following suit
        under = legal & _below(best)
        if under != _EMPTY:
            return highest_face(under)
        pool = legal & ~QUEEN_BIT
        if pool == _EMPTY:
            pool = legal
        return highest_face(pool) if last else lowest_face(pool)
    # void: throw the most dangerous card
    if legal & QUEEN_BIT != _EMPTY:
        return highest_face(legal & QUEEN_BIT)
    if queen_out and legal & HIGH_SPADES != _EMPTY:
        return highest_face(legal & HIGH_SPADES)
    hearts = legal & HEART_FACES
    if hearts != _EMPTY:
        return highest_face(hearts)
    return highest_face(legal & SUIT_FACES[_shortest(legal)])


@njit(cache=True, nogil=True, error_model="numpy")
def choose_card(code, params, row, hand, legal, led, best, last, played, others_points, stream):
    """The high face the player plays: one of ``legal``. ``led`` is the led suit
    (``NO_SUIT`` when leading), ``best`` the high face winning the trick so far (-1 when
    leading), ``last`` whether the player plays the trick's last card."""
    legal = np.uint64(legal)
    if code == RANDOM:
        return random_card(legal, stream)
    return heuristic_card(
        params, row, np.uint64(hand), legal, led, best, last, np.uint64(played), others_points
    )
