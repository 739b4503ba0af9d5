"""Bug House Millionaire's built-in strategies, compiled once and used by both engines.

A strategy answers three questions, each from what its player may know, and says how long
each answer takes:

* ``choose_meld``: the meld to lead, or the meld to play over the trick's top meld (or
  pass: meld 0);
* ``choose_gift``: which card of the trick it just won it gives to its partner;
* ``think_ms`` / ``give_ms``: how many milliseconds its clock runs for a decision.

**The thinking-time model.** A decision with ``n`` options (legal melds, plus passing when
following) takes ``base + per_option * n + jitter * R`` seconds, a gift ``pass_time +
jitter * R``, where ``R`` is drawn from the setting ``thinking_distribution`` with mean 1:
``exponential`` ``R = -ln(1 - u)``, ``uniform`` ``R = 2u``, ``fixed`` ``R = 1``, from one
``u = uniform(stream)`` drawn at the start of every turn (also for ``fixed``, so that the
distributions play the same deals). Times are rounded to whole milliseconds, at least 1
(hitting the clock takes time). ``base``, ``per_option``, ``jitter`` and ``pass_time`` are
parameters of every strategy: a fast and a careful player differ only in them.

``params`` is the lineup's parameter array (one row per seat, ``strategy_params``) and
``row`` the deciding player's row.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces, face_bit, lowest_face, nth_face
from zooanalysis.cards.encoding import N_SUITS
from zooanalysis.cards.orders import NUMERIC, UP, strongest_card, weakest_card
from zooanalysis.games.bug_house.melds import (
    ABOVE,
    NONE,
    PAIR,
    PAIR_COUNT,
    PAIR_SUITS,
    RANKS,
    RUN,
    SINGLE,
    meld_count,
    nth_meld,
    rank_suits,
    run_mask,
    run_starts,
)
from zooanalysis.games.bug_house.rules import EXPONENTIAL, UNIFORM
from zooanalysis.rng import below, uniform
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo

RANDOM, CLIMBER, FAST = 0, 1, 2
MAX_PARAMS = 7
BASE, PER_OPTION, JITTER, PASS_TIME, KEEP_HIGH, ENDGAME, GIVE_HIGH = range(MAX_PARAMS)
"""Slots of the compiled parameter array."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_LANE = np.uint64(0xFFFF)
_NUMERIC = np.int64(NUMERIC)
_UP = np.int64(UP)
"""The rank order and direction, typed: a bare module constant is a literal type to numba,
and ``orders.weakest_card``/``strongest_card`` would compile once more than for the int64
that a plain Python call passes (compile time, issue 13)."""


def _time_params(base: float, per_option: float, jitter: float, pass_time: float):
    return (
        ParamSpec("base", base, 0.0, 30.0, "seconds every decision takes at least"),
        ParamSpec(
            "per_option", per_option, 0.0, 5.0,
            "seconds more per option (legal meld, or passing) it weighs",
        ),
        ParamSpec(
            "jitter", jitter, 0.0, 30.0,
            "mean seconds of the random part of a decision (thinking_distribution)",
        ),
        ParamSpec(
            "pass_time", pass_time, 0.0, 30.0,
            "seconds to talk and hand a card of a won trick to its partner (plus the "
            "random part)",
        ),
    )


_KEEP_HIGH = ParamSpec(
    "keep_high", 15, 0, 16,
    "cards of this rank or higher are kept to regain the lead: it plays over the top meld "
    "with them only in the endgame (16: never keeps any)",
    integer=True,
)
_ENDGAME = ParamSpec(
    "endgame", 10, 0, 64,
    "the endgame: its hand or its opponent's holds at most this many cards; then it plays "
    "over whenever it can",
    integer=True,
)
_GIVE_HIGH = ParamSpec(
    "give_high", 1, 0, 1,
    "gives the partner a card it stated it needs if the trick holds one, else 1 = the "
    "highest card of the trick (to regain a lead), 0 = the lowest",
    integer=True,
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniformly random legal play, exactly as specified for cross-implementation checks. "
        "Leading: the below(n)-th of its n legal melds in the canonical order (melds.py: "
        "singles by face, pairs by rank then suits, runs by suit, length, lowest rank); "
        "following: one draw below(n + 1), n meaning pass; giving: the below(m)-th of the "
        "m cards of the trick in increasing face order. Every turn first draws its "
        "thinking time (one uniform), then, when the time is up, the choice.",
        _time_params(1.0, 0.1, 1.0, 1.0),
    ),
    "climber": StrategyInfo(
        "climber",
        "Leads low runs (the run of at least min_run cards with the lowest start, as long "
        "as it goes), else its lowest pair, else its lowest single; plays over with the "
        "lowest meld that beats the top (for a single, a card in none of its pairs and "
        "runs first), but keeps cards of rank keep_high and up to regain the lead until "
        "the endgame; passes the partner the card it stated it needs (partner_talk = "
        "need), else by give_high. A careful player: slower, with card sense.",
        (*_time_params(1.5, 0.1, 1.5, 2.0), _KEEP_HIGH, _ENDGAME, _GIVE_HIGH),
    ),
    "fast": StrategyInfo(
        "fast",
        "Fast and loose: leads its biggest meld (longest run, else lowest pair, else lowest "
        "single) and always plays over with the lowest meld that beats the top when it has "
        "one; gives the highest card of the trick without asking. Trades card quality for "
        "clock time: decides quickly.",
        _time_params(0.8, 0.05, 0.6, 0.6),
    ),
}
STRATEGY_CODES = {"random": RANDOM, "climber": CLIMBER, "fast": FAST}

_SLOTS = {
    "base": BASE,
    "per_option": PER_OPTION,
    "jitter": JITTER,
    "pass_time": PASS_TIME,
    "keep_high": KEEP_HIGH,
    "endgame": ENDGAME,
    "give_high": GIVE_HIGH,
}
_FIXED = {
    "random": {},
    "climber": {},
    "fast": {KEEP_HIGH: float(RANKS), ENDGAME: 64.0, GIVE_HIGH: 1.0},
}
"""Slots a strategy does not expose, at the value its idea needs."""


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters in the compiled slots (``BASE``, ``PER_OPTION`` ...)."""
    values = np.zeros(MAX_PARAMS, dtype=np.float64)
    for slot, value in _FIXED[player.strategy].items():
        values[slot] = value
    for name, value in player.params:
        values[_SLOTS[name]] = value
    return values


# --- time --------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def random_factor(distribution, u) -> float:
    """The random part's factor ``R`` (mean 1) from one uniform ``u`` in [0, 1)."""
    if distribution == EXPONENTIAL:
        return -math.log(1.0 - u)
    if distribution == UNIFORM:
        return 2.0 * u
    return 1.0


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def seconds_to_ms(seconds) -> int:
    """Whole milliseconds, rounded, at least 1."""
    return max(np.int64(1), np.int64(math.floor(seconds * 1000.0 + 0.5)))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def think_ms(params, row, options, distribution, stream) -> int:
    """Milliseconds a decision with ``options`` options takes (one uniform draw)."""
    factor = random_factor(distribution, uniform(stream))
    seconds = params[row, BASE] + params[row, PER_OPTION] * options
    return seconds_to_ms(seconds + params[row, JITTER] * factor)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def give_ms(params, row, distribution, stream) -> int:
    """Milliseconds handing a card of a won trick to the partner takes (one uniform draw)."""
    factor = random_factor(distribution, uniform(stream))
    return seconds_to_ms(params[row, PASS_TIME] + params[row, JITTER] * factor)


# --- what a partner says -------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _lane(hand, suit) -> int:
    """The 16-bit rank mask of ``suit`` in the face mask ``hand``."""
    return np.int64((np.uint64(hand) >> np.uint64(16 * suit)) & _LANE)


@njit(cache=True, nogil=True, error_model="numpy")
def stated_need(hand, min_run) -> np.uint64:
    """The cards a player says it needs: every card it does not hold that would make a new
    pair with a rank it holds in exactly one suit, or complete a suited run of at least
    ``min_run`` cards with cards of its hand (some window of ``min_run`` ranks holding the
    card in which the hand holds every other rank of that suit)."""
    h = np.uint64(hand)
    a, b = _lane(h, np.int64(0)), _lane(h, np.int64(1))
    c, d = _lane(h, np.int64(2)), _lane(h, np.int64(3))
    two_or_more = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    once = (a | b | c | d) & ~two_or_more
    need = _ZERO
    for suit in range(N_SUITS):
        lane = _lane(h, suit)
        wanted = once
        for j in range(min_run):  # the card's place in the window
            window = 0xFFFF
            for i in range(min_run):
                if i != j:
                    window &= lane >> i
            wanted |= window << j
        need |= np.uint64(wanted & ~lane & 0xFFFF) << np.uint64(16 * suit)
    return need


# --- heuristics' helpers -------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def meld_cards(hand, min_run) -> np.uint64:
    """The cards of ``hand`` that are in some pair or suited run of ``min_run`` or more."""
    h = np.uint64(hand)
    bound = _ZERO
    for rank in range(RANKS):
        suits = rank_suits(h, rank)
        if suits & (suits - 1) != 0:
            for suit in range(N_SUITS):
                if suits >> suit & 1:
                    bound |= face_bit(suit * 16 + rank)
    for suit in range(N_SUITS):
        lane = np.int64((h >> np.uint64(16 * suit)) & _LANE)
        starts = run_starts(lane, min_run)
        for start in range(RANKS):
            if starts >> start & 1:
                bound |= run_mask(suit, start, min_run)
    return bound


@njit(cache=True, nogil=True, error_model="numpy")
def lowest_pair(hand, above, below_rank):
    """The lowest pair of ``hand`` with rank in ``(above, below_rank)``: (meld, rank), or
    (0, -1)."""
    h = np.uint64(hand)
    for rank in range(above + 1, min(below_rank, RANKS)):
        suits = rank_suits(h, rank)
        if PAIR_COUNT[suits] > 0:
            a = PAIR_SUITS[suits, 0, 0]
            b = PAIR_SUITS[suits, 0, 1]
            return face_bit(a * 16 + rank) | face_bit(b * 16 + rank), rank
    return _ZERO, -1


@njit(cache=True, nogil=True, error_model="numpy")
def lowest_run(hand, length, high_above, high_below):
    """The run of exactly ``length`` cards with the lowest start (lowest suit on ties) whose
    highest rank is in ``(high_above, high_below)``: (meld, suit, start), or (0, -1, -1)."""
    h = np.uint64(hand)
    best_suit, best_start = -1, RANKS
    first = max(high_above - length + 2, 0)
    for suit in range(N_SUITS):
        lane = np.int64((h >> np.uint64(16 * suit)) & _LANE)
        starts = run_starts(lane, length) & ~((1 << first) - 1)
        if starts == 0:
            continue
        start = lowest_face(np.uint64(starts))
        if start < best_start and start + length - 1 < high_below:
            best_suit, best_start = suit, start
    if best_suit < 0:
        return _ZERO, -1, -1
    return run_mask(best_suit, best_start, length), best_suit, best_start


@njit(cache=True, nogil=True, error_model="numpy")
def extend_run(hand, suit, start, length) -> int:
    """How long the run of ``suit`` from ``start`` (at least ``length`` cards) goes on."""
    lane = np.int64((np.uint64(hand) >> np.uint64(16 * suit)) & _LANE)
    while start + length < RANKS and lane >> (start + length) & 1:
        length += 1
    return length


@njit(cache=True, nogil=True, error_model="numpy")
def longest_run(hand, min_run):
    """The longest run of ``hand`` (at least ``min_run``; lowest start, then lowest suit on
    ties): (meld, length), or (0, 0)."""
    h = np.uint64(hand)
    best = _ZERO
    best_length = 0
    best_start = RANKS
    for suit in range(N_SUITS):
        lane = np.int64((h >> np.uint64(16 * suit)) & _LANE)
        length = min_run
        starts = run_starts(lane, length)
        while starts != 0:
            start = lowest_face(np.uint64(starts))
            if length > best_length or (length == best_length and start < best_start):
                best, best_length, best_start = run_mask(suit, start, length), length, start
            starts &= lane >> length
            length += 1
    return best, best_length


# --- melds -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def random_meld(
    hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, known_count, stream
):
    """The ``random`` policy's meld: (meld, kind, length, high); meld 0 is a pass.
    ``known_count``: the number of legal melds if the caller knows it, else -1."""
    n = known_count
    if n < 0:
        n = meld_count(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok)
    following = top_kind != NONE
    k = below(stream, n + (1 if following else 0))
    if k == n:
        return _ZERO, NONE, 0, -1
    return nth_meld(hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, k)


@njit(cache=True, nogil=True, error_model="numpy")
def lead_meld(code, hand, min_run, singles_ok):
    """A heuristic's lead: (meld, kind, length, high); climber leads its lowest run, fast
    its longest; then the lowest pair, then (if allowed) the lowest single."""
    if code == FAST:
        run, length = longest_run(hand, min_run)
        if length > 0:
            low = lowest_face(run) & 15
            return run, RUN, length, low + length - 1
    else:
        run, suit, start = lowest_run(hand, min_run, np.int64(-1), np.int64(RANKS))
        if suit >= 0:
            length = extend_run(hand, suit, start, min_run)
            return run_mask(suit, start, length), RUN, length, start + length - 1
    pair, rank = lowest_pair(hand, np.int64(-1), np.int64(RANKS))
    if rank >= 0:
        return pair, PAIR, 2, rank
    if singles_ok:
        face = weakest_card(hand, _NUMERIC, _UP)
        if face >= 0:
            return face_bit(face), SINGLE, 1, face & 15
    return _ZERO, NONE, 0, -1


@njit(cache=True, nogil=True, error_model="numpy")
def follow_meld(params, row, hand, top_kind, top_len, top_high, min_run, opponent_cards):
    """A heuristic's answer to the top meld: the lowest meld of its kind that beats it,
    short of ``keep_high`` outside the endgame (``FAST`` keeps nothing); meld 0 passes."""
    h = np.uint64(hand)
    endgame = np.int64(params[row, ENDGAME])
    fight = count_faces(h) <= endgame or opponent_cards <= endgame
    limit = RANKS if fight else np.int64(params[row, KEEP_HIGH])
    if top_kind == SINGLE:
        cards = h & ABOVE[top_high + 1] & ~ABOVE[max(limit, 0)]
        if cards == _ZERO:
            return _ZERO, NONE, 0, -1
        loose = cards & ~meld_cards(h, min_run)
        face = weakest_card(loose if loose != _ZERO else cards, _NUMERIC, _UP)
        return face_bit(face), SINGLE, 1, face & 15
    if top_kind == PAIR:
        pair, rank = lowest_pair(h, top_high, limit)
        if rank < 0:
            return _ZERO, NONE, 0, -1
        return pair, PAIR, 2, rank
    run, suit, start = lowest_run(h, top_len, top_high, limit)
    if suit < 0:
        return _ZERO, NONE, 0, -1
    return run, RUN, top_len, start + top_len - 1


@njit(cache=True, nogil=True, error_model="numpy")
def choose_meld(
    code, params, row, hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok,
    opponent_cards, known_count, stream,
):
    """The meld the player plays: (meld, kind, length, high), meld 0 for a pass (only when
    following). ``top_kind == NONE``: it leads (it has a legal lead; ``singles_ok``: it may
    lead a single). ``opponent_cards``: its opponent's hand size. ``known_count``: the
    number of legal melds now if known (the kernel's cache), else -1."""
    hand = np.uint64(hand)
    if code == RANDOM:
        return random_meld(
            hand, top_kind, top_len, top_high, min_run, longer_ok, singles_ok, known_count,
            stream,
        )
    if top_kind == NONE:
        return lead_meld(code, hand, min_run, singles_ok)
    return follow_meld(params, row, hand, top_kind, top_len, top_high, min_run, opponent_cards)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def choose_gift(code, params, row, trick, need, stream) -> int:
    """The card of the won ``trick`` (a face mask) the player gives its partner; ``need``:
    what the partner said it needs (0 when partners share nothing)."""
    cards = np.uint64(trick)
    if code == RANDOM:
        return nth_face(cards, below(stream, count_faces(cards)))
    wanted = cards & np.uint64(need)
    if code != FAST and wanted != _ZERO:
        return strongest_card(wanted, _NUMERIC, _UP)
    if params[row, GIVE_HIGH] > 0.5:
        return strongest_card(cards, _NUMERIC, _UP)
    return weakest_card(cards, _NUMERIC, _UP)
