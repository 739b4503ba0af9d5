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

from zooanalysis.cards.bits import count_faces, nth_face
from zooanalysis.cards.tricks import LATER_WINS
from zooanalysis.games.big_two.plays import (
    N_BIG_RANKS,
    N_PAIRS,
    N_TRIPLES,
    PAIRS_OF,
    RANK_LANE,
    SUIT_LANE,
    TRIPLES_OF,
    high_index,
    list_five,
    list_plays,
    suits_of_rank,
)
from zooanalysis.games.big_two.rules import KIND_SHIFT, PAIR, SINGLE, TRIPLE
from zooanalysis.rng import mix64
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
    "an opponent holding at most this many cards is a danger: it then spends control cards "
    "freely and never passes when it can play",
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
def random_index(n, leading, state):
    """The ``random`` policy's pick among ``n`` listed plays on a scalar stream state:
    ``(index, state)``, index -1 to pass (no draw when a follower has no legal play)."""
    if leading:
        return draw(state, n)
    if n == 0:
        return np.int64(-1), state
    pick, state = draw(state, n + 1)
    return (np.int64(-1) if pick == n else pick), state


@njit(cache=True, nogil=True, error_model="numpy")
def random_play(n, leading, masks, keys, stream):
    """The ``random`` policy's pick among the ``n`` listed plays: (mask, key) or (0, 0)."""
    pick, state = random_index(n, leading, stream[0])
    stream[0] = state
    if pick < 0:
        return _ZERO, 0
    return masks[pick], keys[pick]


COMB5 = np.array([0, 0, 0, 0, 0, 1, 6, 21, 56, 126, 252, 462, 792, 1287], dtype=np.int64)
"""``COMB5[n]``: the 5-card subsets of n cards (n <= 13, one suit of one deck)."""
_KEY_BITS = (1 << KIND_SHIFT) - 1


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S32 = np.uint64(32)

POP4 = np.array([bin(n).count("1") for n in range(16)], dtype=np.int64)
"""``POP4[nibble]``: the suits in a nibble."""


@njit(cache=True, nogil=True, error_model="numpy")
def count_leads(hand):
    """(pairs, triples, five-card plays) that ``list_plays`` lists for a leader with no card
    it must include, counted by formula in one pass over the ranks instead of listed:
    straights (the product of the suits held at five ranks in a row, less the straight
    flushes), flushes (5-subsets of each suit, less the straight flushes), full houses
    (threes times pairs of another rank), four of a kind with any fifth card, straight
    flushes."""
    pairs = 0
    triples = 0
    cross = 0
    fours = 0
    present = 0
    for rank in range(N_BIG_RANKS):
        suits = suits_of_rank(hand, rank)
        if suits != 0:
            present |= 1 << rank
            pairs += N_PAIRS[suits]
            triples += N_TRIPLES[suits]
            cross += N_TRIPLES[suits] * N_PAIRS[suits]
            if suits == 15:
                fours += 1
    five = triples * pairs - cross  # full houses
    if fours > 0:
        five += fours * (count_faces(hand) - 4)
    for suit in range(4):
        five += COMB5[count_faces(hand & SUIT_LANE[suit])]  # flushes, straight flushes too
    for low in range(N_BIG_RANKS - 4):
        if (present >> low) & 31 != 31:
            continue
        product = 1
        common = 15
        for rank in range(low, low + 5):
            suits = suits_of_rank(hand, rank)
            product *= POP4[suits]
            common &= suits
        five += product - POP4[common]  # straights (straight flushes: already a flush)
    return pairs, triples, five


@njit(cache=True, nogil=True, error_model="numpy")
def count_five(hand) -> int:
    """The five-card plays a leader lists (:func:`count_leads`)."""
    return count_leads(hand)[2]


@njit(cache=True, nogil=True, error_model="numpy")
def draw(state, n):
    """``rng.below`` on a stream state held as a scalar: (a uniform integer in ``[0, n)``,
    the next state); the same number ``below`` draws from ``stream[0] = state``."""
    state = state + _GOLDEN
    return np.int64(((mix64(state) >> _S32) * np.uint64(n)) >> _S32), state


@njit(cache=True, nogil=True, error_model="numpy")
def _pick_pair(hand, low_rank, pick):
    """The ``pick``-th pair over the ranks from ``low_rank`` up, in listing order: (mask,
    key); used after the count is known. Reads the tables as globals (no array argument)."""
    for rank in range(low_rank, N_BIG_RANKS):
        suits = suits_of_rank(hand, rank)
        if pick < N_PAIRS[suits]:
            subset = np.uint64(PAIRS_OF[suits, pick])
            key = (PAIR << KIND_SHIFT) | (rank * 4 + high_index(subset))
            return subset << np.uint64(4 * rank), key
        pick -= N_PAIRS[suits]
    return _ZERO, 0


@njit(cache=True, nogil=True, error_model="numpy")
def _pick_triple(hand, low_rank, pick):
    """The ``pick``-th triple over the ranks from ``low_rank`` up: (mask, key)."""
    for rank in range(low_rank, N_BIG_RANKS):
        suits = suits_of_rank(hand, rank)
        if pick < N_TRIPLES[suits]:
            subset = np.uint64(TRIPLES_OF[suits, pick])
            return subset << np.uint64(4 * rank), (TRIPLE << KIND_SHIFT) | rank
        pick -= N_TRIPLES[suits]
    return _ZERO, 0


@njit(cache=True, nogil=True, error_model="numpy")
def random_small(hand, table_key, table_size, later, state):
    """The ``random`` policy's decision without listing, on a scalar stream state, for a
    lead with no card it must include and for a follow of one, two or three cards (not
    five): ``(mask, key, n, five, state)``: the play (``(0, 0)`` passes), how many legal
    plays there were, ``five`` (-1, or the index of the drawn lead in ``list_five``'s
    listing when the draw fell among the five-card plays: the caller lists them) and the
    state after the draw. The same plays and draws as ``random_play(list_plays(...))``.

    Scalars only, so a kernel calls it at every decision without numba's reference counts
    on array arguments (an atomic increment and decrement per array per call)."""
    if table_size == 0:
        n1 = count_faces(hand)
        n2, n3, n5 = count_leads(hand)
        n = n1 + n2 + n3 + n5
        pick, state = draw(state, n)
        if pick < n1:
            card = nth_face(hand, pick)
            return _ONE << np.uint64(card), (SINGLE << KIND_SHIFT) | card, n, -1, state
        pick -= n1
        if pick < n2:
            mask, key = _pick_pair(hand, np.int64(0), pick)
            return mask, key, n, -1, state
        pick -= n2
        if pick < n3:
            mask, key = _pick_triple(hand, np.int64(0), pick)
            return mask, key, n, -1, state
        return _ZERO, 0, n, pick - n3, state
    if table_size == 1:
        card = table_key & _KEY_BITS
        beaten = (_ONE << np.uint64(card)) - _ONE if later else (_ONE << np.uint64(card + 1)) - _ONE
        legal = hand & ~beaten
        n = count_faces(legal)
        pick, state = random_index(n, False, state)  # -1: passes (no draw when n == 0)
        if pick < 0:
            return _ZERO, 0, n, -1, state
        card = nth_face(legal, pick)
        return _ONE << np.uint64(card), (SINGLE << KIND_SHIFT) | card, n, -1, state
    if table_size == 2:
        top = table_key & _KEY_BITS
        low_rank = top >> 2
        suits = suits_of_rank(hand, low_rank)
        same = 0  # pairs of the table's rank that beat it come first
        for i in range(N_PAIRS[suits]):
            strength = low_rank * 4 + high_index(np.uint64(PAIRS_OF[suits, i]))
            if strength > top or (later and strength == top):
                same += 1
        n = same
        for rank in range(low_rank + 1, N_BIG_RANKS):
            n += N_PAIRS[suits_of_rank(hand, rank)]
        pick, state = random_index(n, False, state)  # -1: passes (no draw when n == 0)
        if pick < 0:
            return _ZERO, 0, n, -1, state
        if pick < same:
            for i in range(N_PAIRS[suits]):
                subset = PAIRS_OF[suits, i]
                strength = low_rank * 4 + high_index(np.uint64(subset))
                if strength > top or (later and strength == top):
                    if pick == 0:
                        mask = np.uint64(subset) << np.uint64(4 * low_rank)
                        return mask, (PAIR << KIND_SHIFT) | strength, n, -1, state
                    pick -= 1
        mask, key = _pick_pair(hand, low_rank + 1, pick - same)
        return mask, key, n, -1, state
    low_rank = (table_key & _KEY_BITS) + (0 if later else 1)  # three cards
    n = 0
    for rank in range(low_rank, N_BIG_RANKS):
        n += N_TRIPLES[suits_of_rank(hand, rank)]
    pick, state = random_index(n, False, state)
    if pick < 0:
        return _ZERO, 0, n, -1, state
    mask, key = _pick_triple(hand, low_rank, pick)
    return mask, key, n, -1, state


@njit(cache=True, nogil=True, error_model="numpy")
def random_fast(hand, table_key, table_size, must, identical, masks, keys, stream):
    """Exactly ``random_play(list_plays(...))`` (same plays, same draws), without listing
    singles, pairs and triples: they are counted and the drawn one found by rank
    (:func:`random_small`); only the five-card plays are listed, and only when the draw
    falls among them. Returns ``(mask, key, n)``: the play (``(0, 0)`` passes) and how many
    legal plays there were (the count ``list_plays`` returns; the kernel counts the
    decision's options from it)."""
    if must != _ZERO:
        n = list_plays(hand, table_key, table_size, must, identical, masks, keys)
        mask, key = random_play(n, table_size == 0, masks, keys, stream)
        return mask, key, n
    if table_size != 5:
        later = identical == LATER_WINS
        mask, key, n, five, state = random_small(hand, table_key, table_size, later, stream[0])
        stream[0] = state
        if five >= 0:
            list_five(hand, np.int64(0), table_size == 0, _ZERO, identical, masks, keys,
                      np.int64(0))  # fmt: skip
            return masks[five], keys[five], n
        return mask, key, n
    n = list_five(hand, table_key, table_size == 0, _ZERO, identical, masks, keys, np.int64(0))
    mask, key = random_play(n, table_size == 0, masks, keys, stream)
    return mask, key, n


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
    if code == RANDOM:
        mask, key, _ = random_fast(hand, table_key, table_size, np.uint64(must), identical,
                                   masks, keys, stream)  # fmt: skip
        return mask, key
    n = list_plays(hand, table_key, table_size, must, identical, masks, keys)
    leading = table_size == 0
    return heuristic_play(params, row, hand, n, leading, fewest_other, masks, keys)
