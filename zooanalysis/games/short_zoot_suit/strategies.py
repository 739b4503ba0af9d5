"""Short Zoot Suit's built-in strategies, compiled once and used by both engines.

A strategy answers three questions, each from what its player may know:

* ``choose_pile``: at the start of a round, which cards of its hand go face down into its
  draw pile (exactly ``count`` cards);
* ``choose_action``: before a trick, pass, draw the top card of its draw pile, or (Sean's
  Short Shorts) place a hand card face down on top of it;
* ``choose_card``: which legal card to play to the trick.

``params`` is the lineup's parameter array (one row per seat, ``strategy_params``) and
``row`` the deciding player's row: indexing it, rather than slicing a row out, keeps the
kernel's inner loop free of reference counting. The other arguments are the player's
hand, the cards of its own draw pile (it chose them, so it
knows them; it knows their order only for cards it placed on top, ``pile_top``), its tricks
won and shorts this round, the trick so far (led suit and the winning card) and the cards
it has not seen (``unseen``: the round's deck less every card played this round, its hand
and its draw pile; other hands, other draw piles and the set-aside cards are in it). Nothing
else of the game reaches a strategy. Cards are faces (``suit * 16 + rank``, see
``zooanalysis/cards``); sets of cards are ``uint64`` face masks.
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
    shortest_suit,
)
from zooanalysis.cards.encoding import N_SUITS, NO_SUIT
from zooanalysis.cards.orders import NUMERIC, UP, strongest_card, weakest_card
from zooanalysis.rng import below
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo

PASS, DRAW, PLACE = 0, 1, 2
ACTION_NAMES = ("pass", "draw", "place")

RANDOM, BALANCED, VOID, LATE = 0, 1, 2, 3
MAX_PARAMS = 7
LEAN, PILE, DRAW_AT, STOP_AT, PLACE_SINGLETONS, CHASE, END_LEAN = range(MAX_PARAMS)
"""Slots of the compiled parameter array (every heuristic reads the same slots)."""

_EMPTY = np.uint64(0)
_NUMERIC = np.int64(NUMERIC)
_UP = np.int64(UP)
"""The rank order and direction, typed: a bare module constant is a literal type to numba,
and ``orders.weakest_card``/``strongest_card`` would compile once more than for the int64
that a plain Python call passes (compile time, issue 13)."""


def _lean(default: float) -> ParamSpec:
    return ParamSpec(
        "lean",
        default,
        -5.0,
        15.0,
        "tries to win a trick while its tricks won minus its shorts are below this, and to "
        "lose it otherwise (15: always tries to win)",
    )


_END_LEAN = ParamSpec(
    "end_lean",
    2.0,
    -5.0,
    15.0,
    "the threshold lean moves to as its cards run out, in proportion to the tricks played "
    "(equal to lean: a fixed threshold)",
)
_STOP_AT = ParamSpec(
    "stop_at",
    1,
    0,
    16,
    "with an empty hand, ends the round by not drawing once its tricks equal its shorts and "
    "are at least this many (0: never on purpose)",
    integer=True,
)
_PLACE = ParamSpec(
    "place",
    1,
    0,
    1,
    "Sean's Short Shorts: 1 = when it wants shorts, places a lone card of a suit on its draw "
    "pile to make that suit void, and places its last card to end the round when its "
    "tricks equal its shorts (at least stop_at)",
    integer=True,
)
_PLAY = (
    "Plays every heuristic's way: tries to win a trick while its tricks won minus shorts "
    "are below its lean (a sure winner, the lowest that no unseen card beats, else its "
    "highest card), otherwise ducks under the winning card; when void it shorts its lowest "
    "card while it wants tricks, else the highest card of its shortest suit. With an empty "
    "hand it ends the round (does not draw) once its tricks equal its shorts, at least "
    "stop_at."
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniformly random legal play, exactly as specified for cross-implementation checks, "
        "each decision on the game's stream: the draw pile is built by drawing k = 0, 1, ... "
        "one card at a time, card k being the below(n - k)-th of the cards still in hand in "
        "increasing face order (a uniform subset); before a trick one draw r = below(a * h) "
        "chooses among the legal kinds of action in the order pass, draw (if its draw pile "
        "is not empty), place (Sean's Short Shorts, if its hand holds a card, two when "
        "place_last_card is off), each with "
        "chance 1/a: kind r // h, and for a place the (r % h)-th hand card in increasing "
        "face order (h = hand size when placing is legal, else 1); a card to play is the "
        "below(m)-th of its m legal cards in increasing face order (one draw even when m = "
        "1).",
    ),
    "balanced": StrategyInfo(
        "balanced",
        "Steers its tricks won and its shorts toward equal counts and keeps its draw pile as "
        "the clock of the round: puts its lowest cards (and its pile_high highest) in the "
        "pile, draws only once its hand is down to draw_at cards, so that with an empty hand "
        "it can end the round when its tricks equal its shorts; aims for tricks early (lean) "
        "and for equality late (end_lean). " + _PLAY,
        (
            _lean(5.0),
            _END_LEAN,
            ParamSpec(
                "pile_high", 0, 0, 5, "its highest cards put in the draw pile (the rest: its "
                "lowest)", integer=True,
            ),
            ParamSpec(
                "draw_at", 0, 0, 15, "draws while its hand holds at most this many cards "
                "(0: only when its hand is empty)", integer=True,
            ),
            _STOP_AT,
            _PLACE,
        ),
    ),
    "void": StrategyInfo(
        "void",
        "Empties suits to short early: its draw pile takes whole suits, shortest first (up "
        "to max_voids suits, while they fit; the rest of the pile: its lowest cards), and "
        "it draws only when its hand is empty, so its voids last. " + _PLAY,
        (
            _lean(5.0),
            ParamSpec(
                "max_voids", 2, 0, 4, "suits it tries to empty from its hand with the pile",
                integer=True,
            ),
            _STOP_AT,
            _PLACE,
        ),
    ),
    "late": StrategyInfo(
        "late",
        "Keeps its winners for later: its draw pile holds its highest cards, so it ducks and "
        "shorts early with a low hand, then draws a high card whenever it wants a trick, or "
        "when its hand is down to draw_at cards. " + _PLAY,
        (
            _lean(2.0),
            ParamSpec(
                "draw_at", 0, 0, 15, "also draws while its hand holds at most this many cards",
                integer=True,
            ),
            _STOP_AT,
            _PLACE,
        ),
    ),
}
STRATEGY_CODES = {"random": RANDOM, "balanced": BALANCED, "void": VOID, "late": LATE}

_SLOTS = {
    "lean": LEAN,
    "end_lean": END_LEAN,
    "pile_high": PILE,
    "max_voids": PILE,
    "draw_at": DRAW_AT,
    "stop_at": STOP_AT,
    "place": PLACE_SINGLETONS,
}
_FIXED = {
    "random": {},
    "balanced": {CHASE: 0.0},
    "void": {DRAW_AT: 0.0, CHASE: 0.0},
    "late": {CHASE: 1.0},
}
"""Slots a strategy does not expose, at the value its idea needs (a strategy without
``end_lean`` keeps its lean all round)."""


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters in the compiled slots (``LEAN``, ``PILE`` ...)."""
    values = np.zeros(MAX_PARAMS, dtype=np.float64)
    for slot, value in _FIXED[player.strategy].items():
        values[slot] = value
    for name, value in player.params:
        values[_SLOTS[name]] = value
    if "end_lean" not in dict(player.params):
        values[END_LEAN] = values[LEAN]
    return values


# --- card helpers (numeric order: the higher rank wins, aces low) ------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _above(face) -> np.uint64:
    """Every face above ``face`` (in mask order: higher ranks of its suit, then later suits)."""
    bit = face_bit(face)
    return ~(bit | (bit - np.uint64(1)))


@njit(cache=True, nogil=True, error_model="numpy")
def _sure_cards(cards, suit, unseen) -> np.uint64:
    """The cards of ``suit`` in ``cards`` that no unseen card of that suit beats."""
    lane = SUIT_FACES[suit]
    top_unseen = highest_face(unseen & lane)
    mine = cards & lane
    if top_unseen < 0:
        return mine
    return mine & _above(top_unseen)


@njit(cache=True, nogil=True, error_model="numpy")
def _highest_k(cards, k) -> np.uint64:
    """The ``k`` highest cards of ``cards`` by rank (equal ranks: lowest suit first)."""
    chosen = _EMPTY
    for _ in range(k):
        face = strongest_card(cards & ~chosen, _NUMERIC, _UP)
        if face < 0:
            break
        chosen |= face_bit(face)
    return chosen


@njit(cache=True, nogil=True, error_model="numpy")
def _lowest_k(cards, k) -> np.uint64:
    """The ``k`` lowest cards of ``cards`` by rank (equal ranks: lowest suit first)."""
    chosen = _EMPTY
    for _ in range(k):
        face = weakest_card(cards & ~chosen, _NUMERIC, _UP)
        if face < 0:
            break
        chosen |= face_bit(face)
    return chosen


@njit(cache=True, nogil=True, error_model="numpy")
def _void_pile(hand, count, max_voids) -> np.uint64:
    """Whole suits, shortest first (up to ``max_voids`` and while they fit), then the lowest
    cards left."""
    pile = _EMPTY
    room = count
    voids = 0
    rest = hand
    while voids < max_voids and rest != _EMPTY:
        suit = shortest_suit(rest)
        cards = rest & SUIT_FACES[suit]
        size = count_faces(cards)
        if size > room:
            break
        pile |= cards
        rest &= ~cards
        room -= size
        voids += 1
    return pile | _lowest_k(rest, room)


# --- the draw pile ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_pile(hand, count, stream) -> np.uint64:
    """``count`` cards of ``hand``, uniformly: one draw per card, as the docstring of
    ``random`` specifies."""
    pile = _EMPTY
    rest = np.uint64(hand)
    for _ in range(count):
        face = nth_face(rest, below(stream, count_faces(rest)))
        pile |= face_bit(face)
        rest &= ~face_bit(face)
    return pile


@njit(cache=True, nogil=True, error_model="numpy")
def choose_pile(code, params, row, hand, count, stream) -> np.uint64:
    """The ``count`` cards of ``hand`` the player puts face down as its draw pile."""
    hand = np.uint64(hand)
    if code == RANDOM:
        return random_pile(hand, count, stream)
    if code == VOID:
        return _void_pile(hand, count, np.int64(params[row, PILE]))
    if code == LATE:
        return _highest_k(hand, count)
    high = min(np.int64(params[row, PILE]), count)
    pile = _highest_k(hand, high)
    return pile | _lowest_k(hand & ~pile, count - high)


# --- before a trick --------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_action(hand, pile_size, place_min, stream):
    """The ``random`` policy's action before a trick: (action, face or -1)."""
    held = count_faces(hand)
    can_draw = pile_size > 0
    can_place = held >= place_min
    kinds = 1 + (1 if can_draw else 0) + (1 if can_place else 0)
    width = held if can_place else 1
    pick = below(stream, kinds * width)
    kind = pick // width
    if kind == 0:
        return PASS, -1
    if kind == 1 and can_draw:
        return DRAW, -1
    return PLACE, nth_face(hand, pick % width)


@njit(cache=True, nogil=True, error_model="numpy")
def _wants_trick(params, row, tricks, shorts, left, done) -> bool:
    """Whether the player wants this trick: its tricks won minus shorts are below a
    threshold moving from ``lean`` (round start) to ``end_lean`` (no cards left); ``left``:
    cards it still holds (hand and draw pile), ``done``: tricks finished this round."""
    lean, end = params[row, LEAN], params[row, END_LEAN]
    return tricks - shorts < end + (lean - end) * left / max(left + done, 1)


@njit(cache=True, nogil=True, error_model="numpy")
def _lone_card(hand) -> int:
    """The card of the lowest suit holding exactly one card of ``hand``, or -1."""
    for suit in range(N_SUITS):
        cards = hand & SUIT_FACES[suit]
        if count_faces(cards) == 1:
            return lowest_face(cards)
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def heuristic_action(params, row, hand, pile_size, place_min, tricks, shorts, done):
    """The heuristics' action before a trick (no random draw)."""
    held = count_faces(hand)
    stop_at = np.int64(params[row, STOP_AT])
    settled = stop_at > 0 and tricks == shorts and tricks >= stop_at
    want = _wants_trick(params, row, tricks, shorts, held + pile_size, done)
    if held == 0:
        if settled or pile_size == 0:
            return PASS, -1
        return DRAW, -1
    placing = place_min <= held and params[row, PLACE_SINGLETONS] > 0
    if placing and held == 1 and settled:
        return PLACE, lowest_face(hand)  # the round ends with this hand empty
    if pile_size > 0 and (held <= params[row, DRAW_AT] or (params[row, CHASE] > 0 and want)):
        return DRAW, -1
    if placing and held >= 2 and not want:
        lone = _lone_card(hand)
        if lone >= 0:
            return PLACE, lone
    return PASS, -1


@njit(cache=True, nogil=True, error_model="numpy")
def choose_action(code, params, row, hand, pile_size, place_min, tricks, shorts, done, stream):
    """(action, face or -1) before a trick: ``PASS``, ``DRAW`` the top card of the draw
    pile (``pile_size`` > 0), or ``PLACE`` a hand card on it (only with at least
    ``place_min`` cards in hand: ``rules.place_min``)."""
    hand = np.uint64(hand)
    if code == RANDOM:
        return random_action(hand, pile_size, place_min, stream)
    return heuristic_action(params, row, hand, pile_size, place_min, tricks, shorts, done)


# --- playing a card --------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_card(legal, stream) -> int:
    """The ``random`` policy's card: the ``below(m)``-th of the ``m`` legal cards."""
    return nth_face(legal, below(stream, count_faces(legal)))


@njit(cache=True, nogil=True, error_model="numpy")
def heuristic_card(
    params, row, hand, legal, led, best, last, tricks, shorts, unseen, pile_size, done
) -> int:
    """The heuristics' card (no random draw); see the ``balanced`` description."""
    want = _wants_trick(params, row, tricks, shorts, count_faces(hand) + pile_size, done)
    if led == NO_SUIT:  # leading
        if not want:
            return weakest_card(hand, _NUMERIC, _UP)
        sure = _EMPTY
        for suit in range(N_SUITS):
            sure |= _sure_cards(hand, suit, unseen)
        if sure != _EMPTY:
            return weakest_card(sure, _NUMERIC, _UP)
        return strongest_card(hand, _NUMERIC, _UP)
    lane = SUIT_FACES[led]
    if legal & lane != _EMPTY:  # following suit
        higher = legal & _above(best)
        lower = legal & ~higher
        if want:
            if higher == _EMPTY:
                return lowest_face(legal)
            if last:
                return lowest_face(higher)
            sure = _sure_cards(higher, led, unseen)
            if sure != _EMPTY:
                return lowest_face(sure)
            return highest_face(higher)
        if lower != _EMPTY:
            return highest_face(lower)
        return highest_face(legal) if last else lowest_face(legal)
    # void in the led suit: any card shorts
    if want:
        return weakest_card(legal, _NUMERIC, _UP)
    suit = shortest_suit(legal)
    return highest_face(legal & SUIT_FACES[suit])


@njit(cache=True, nogil=True, error_model="numpy")
def choose_card(
    code, params, row, hand, legal, led, best, last, tricks, shorts, unseen, pile_size, done,
    stream,
):
    """The face the player plays: one of ``legal``. ``led`` is the led suit (``NO_SUIT``
    when leading), ``best`` the face winning the trick so far (-1 when leading), ``last``
    whether the player plays the trick's last card."""
    legal = np.uint64(legal)
    if code == RANDOM:
        return random_card(legal, stream)
    return heuristic_card(
        params, row, np.uint64(hand), legal, led, best, last, tricks, shorts, np.uint64(unseen),
        pile_size, done,
    )
