"""Big Two's built-in strategies, compiled once and used by both engines.

A strategy answers one question: which legal play (or pass) to make. It sees only what its
player may know: its own hand (an id mask, ``plays.py``), the play on the table (its key and
number of cards; none when it leads), the card it must include (the opening lead), the
tie rule for identical cards and the fewest cards any other player still in the round
holds. :func:`choose_play` lists the legal plays with ``plays.list_plays`` into the
caller's scratch arrays (allocated once per batch or round) and returns the chosen play's
``(mask, key)``, or ``(0, 0)`` to pass.

``params`` is the lineup's parameter array (one row per seat); ``row`` the deciding seat.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces
from zooanalysis.games.big_two.plays import (
    N_BIG_RANKS,
    RANK_LANE,
    high_index,
    list_plays,
    suits_of_rank,
)
from zooanalysis.rng import below
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo

RANDOM, CONTROL, GREEDY = 0, 1, 2
MAX_PARAMS = 6
SHED, RELEASE, DANGER, KEEP_ACES, GUARD, HOLD_RANK = range(MAX_PARAMS)
"""Slots of the compiled parameter array (both heuristics read the same slots)."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
ACE_RANK, TWO_RANK = 11, 12
"""Big ranks of the aces and the 2s."""

_SHED = ParamSpec(
    "shed", 1.0, 0.0, 3.0,
    "weight of the number of cards a play sheds against how high it is (0: always the "
    "lowest play, whatever its size)",
)
_DANGER = ParamSpec(
    "danger", 2, 0, 13,
    "an opponent holding at most this many cards is a danger: it then plays its strongest "
    "cards freely and never passes when it can play",
    integer=True,
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniformly random over the legal plays and passing, exactly as specified for "
        "cross-implementation checks, one draw on the game's stream per decision: the m "
        "legal plays are listed in the listing order of plays.py (singles weakest first; "
        "pairs, triples, straights and straight flushes in increasing card mask, card id = "
        "big rank * 4 + suit strength; flushes suit by suit, lexicographic; full houses by "
        "the three's rank and suits, then the pair's; four of a kind by rank, then the fifth "
        "card). Leading, it plays the below(m)-th play; following, r = below(m + 1) plays "
        "the r-th play and r = m passes; with no legal play it passes without a draw.",
    ),
    "control": StrategyInfo(
        "control",
        "Keeps its control cards: 2s, aces (keep_aces) and the cards of its bombs (four of "
        "a kind, straight flushes) are not played while it holds more than release cards "
        "and no opponent is a danger, and it passes rather than spend them then. Otherwise "
        "it plays the legal play scoring highest on shed * cards - top rank / 13, and goes "
        "out whenever it can.",
        (
            _SHED,
            ParamSpec(
                "release", 5, 0, 13,
                "with this many cards or fewer left it plays control cards freely",
                integer=True,
            ),
            _DANGER,
            ParamSpec("keep_aces", 1, 0, 1, "1: aces are control cards too", integer=True),
        ),
    ),
    "greedy": StrategyInfo(
        "greedy",
        "Sheds as fast as it can: plays the legal play scoring highest on shed * cards - "
        "top rank / 13 (most cards, lowest first), goes out whenever it can, and passes "
        "only when following would need a top card of big rank hold_rank or more (0 = 3 ... "
        "11 = A, 12 = 2; 13: never passes) and no opponent is a danger.",
        (
            _SHED,
            ParamSpec(
                "hold_rank", 13, 0, 13,
                "passes rather than follow with a play whose top card has this big rank or "
                "more (13: never)",
                integer=True,
            ),
            _DANGER,
        ),
    ),
}
STRATEGY_CODES = {"random": RANDOM, "control": CONTROL, "greedy": GREEDY}

_SLOTS = {
    "shed": SHED,
    "release": RELEASE,
    "danger": DANGER,
    "keep_aces": KEEP_ACES,
    "hold_rank": HOLD_RANK,
}
_FIXED = {
    "random": {},
    "control": {GUARD: 1.0, HOLD_RANK: 13.0},
    "greedy": {GUARD: 0.0, RELEASE: 0.0, KEEP_ACES: 0.0},
}
"""Slots a strategy does not expose, at the value its idea needs."""


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters in the compiled slots."""
    values = np.zeros(MAX_PARAMS, dtype=np.float64)
    for slot, value in _FIXED[player.strategy].items():
        values[slot] = value
    for name, value in player.params:
        values[_SLOTS[name]] = value
    return values


@njit(cache=True, nogil=True, error_model="numpy")
def control_cards(hand, keep_aces) -> np.uint64:
    """The hand's control cards: its 2s, its aces if ``keep_aces``, and every card of a
    four of a kind or a straight flush it holds."""
    protected = hand & RANK_LANE[TWO_RANK]
    if keep_aces:
        protected |= hand & RANK_LANE[ACE_RANK]
    for rank in range(N_BIG_RANKS):
        if suits_of_rank(hand, rank) == 15:
            protected |= RANK_LANE[rank]
    for top in range(4, N_BIG_RANKS):
        common = 15
        for rank in range(top - 4, top + 1):
            common &= suits_of_rank(hand, rank)
        if common != 0:
            for rank in range(top - 4, top + 1):
                protected |= np.uint64(common) << np.uint64(4 * rank)
    return protected


@njit(cache=True, nogil=True, error_model="numpy")
def random_play(n, leading, masks, keys, stream):
    """The ``random`` policy's pick among the ``n`` listed plays: (mask, key) or (0, 0)."""
    if leading:
        pick = below(stream, n)
    elif n == 0:
        return _ZERO, 0
    else:
        pick = below(stream, n + 1)
        if pick == n:
            return _ZERO, 0
    return masks[pick], keys[pick]


@njit(cache=True, nogil=True, error_model="numpy")
def heuristic_play(params, row, hand, n, leading, fewest_other, masks, keys):
    """The heuristics' pick (no random draw): the best-scoring listed play, or a pass."""
    held = count_faces(hand)
    danger = fewest_other <= params[row, DANGER]
    guarding = params[row, GUARD] > 0 and held > params[row, RELEASE] and not danger
    protected = control_cards(hand, params[row, KEEP_ACES] > 0) if guarding else _ZERO
    best = -1
    best_score = -1e300
    for i in range(n):
        mask = masks[i]
        size = count_faces(mask)
        score = params[row, SHED] * size - (high_index(mask) >> 2) / 13.0
        if size == held:
            score += 1000.0  # goes out
        elif mask & protected != _ZERO:
            score -= 100.0
        if score > best_score:
            best, best_score = i, score
    if best < 0:
        return _ZERO, 0
    mask = masks[best]
    if not leading and count_faces(mask) < held and not danger:
        if mask & protected != _ZERO:
            return _ZERO, 0
        if (high_index(mask) >> 2) >= params[row, HOLD_RANK]:
            return _ZERO, 0
    return mask, keys[best]


@njit(cache=True, nogil=True, error_model="numpy")
def choose_play(
    code, params, row, hand, table_key, table_size, must, identical, fewest_other, masks,
    keys, stream,
):
    """The player's play: ``(id mask, key)``, or ``(0, 0)`` to pass (never when leading,
    ``table_size == 0``). ``masks``/``keys`` are scratch of ``plays.max_plays`` entries."""
    hand = np.uint64(hand)
    n = list_plays(hand, table_key, table_size, must, identical, masks, keys)
    leading = table_size == 0
    if code == RANDOM:
        return random_play(n, leading, masks, keys, stream)
    return heuristic_play(params, row, hand, n, leading, fewest_other, masks, keys)
