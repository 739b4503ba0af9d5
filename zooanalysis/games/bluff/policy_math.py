"""What a Bluff in Zoo player can work out from what it knows: counts, legal claims, odds.

Compiled with numba and shared by the strategies of both engines. Every function takes
only the acting player's information (its hand, the pile cards it knows, the composition
of the cards it has not seen), never the game state.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    COUNT_ONE,
    N_ANIMAL_TYPES,
    N_CARD_TYPES,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
)

decision_code = njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
"""How a strategy's entry points (``strategies.choose_move`` ...) are compiled: without numba's
reference counting (``_nrt=False``), so they can allocate nothing. Counting references costs
two atomic operations per array argument and call, which made up about 60 ns of every
decision the kernel asked for (issue 13).

The ``bayes`` and ``stakes`` decisions (``strategies._bayes_move`` ...) are compiled so too,
each on its own, and called from the dispatch: numba compiles every branch of a dispatch
whatever the lineup, and with every strategy inlined into it one signature of
``choose_move`` took some 75 CPU-s to compile (the kernel, the reference engine and the
forward model each compile their own). A call costs a few ns against the hundreds a bayes
decision takes; ``cautious``, ``aggressive`` and ``random`` stay inlined."""
inlined = njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
"""How the small pieces of a decision are compiled: as ``decision_code``, inlined where they
are called (a call passes every array as a dozen words; a bayes decision makes dozens)."""

_TAIL_LIMIT = 8.0
_TAIL_STEPS_PER_UNIT = 1024
_NORMAL_UPPER_TAIL = np.array(
    [
        0.5 * math.erfc((i / _TAIL_STEPS_PER_UNIT - _TAIL_LIMIT) / math.sqrt(2.0))
        for i in range(int(2 * _TAIL_LIMIT * _TAIL_STEPS_PER_UNIT) + 2)
    ]
)
"""P(Z >= z) for a standard normal Z, tabulated on [-8, 8] in steps of 1/1024."""

MODE_PLAIN = 0
MODE_COUNT_ONE = 1
MODE_ALL_EQUAL = 2
MODE_BOTH = 3
N_MODES = 4


@inlined
def normal_upper_tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z by interpolation in a table: within 3e-8 of
    ``erfc`` and about three times faster, which matters in the strategies' inner loop."""
    if z <= -_TAIL_LIMIT:
        return 1.0
    if z >= _TAIL_LIMIT:
        return 0.0
    position = (z + _TAIL_LIMIT) * _TAIL_STEPS_PER_UNIT
    index = int(position)
    fraction = position - index
    return _NORMAL_UPPER_TAIL[index] * (1.0 - fraction) + _NORMAL_UPPER_TAIL[index + 1] * fraction


@inlined
def card_contribution(card: np.int64, kind: np.int64, mode: np.int64) -> np.int64:
    """Animals of ``kind`` one card adds to a doubt count in action mode ``mode``."""
    if card < N_ANIMAL_TYPES:
        card_kind = card // 3
        value = card % 3 + 1
        if card_kind != kind and mode < MODE_ALL_EQUAL:
            return 0
        if mode == MODE_COUNT_ONE or mode == MODE_BOTH:
            return 1
        return value
    if card == WILD_1:
        return 1
    if card == WILD_2:
        return 1 if (mode == MODE_COUNT_ONE or mode == MODE_BOTH) else 2
    return 0


CONTRIBUTION = np.array(
    [
        [[card_contribution.py_func(card, kind, mode) for kind in range(N_KINDS)]
         for card in range(N_CARD_TYPES)]
        for mode in range(N_MODES)
    ],
    dtype=np.int64,
)
"""``CONTRIBUTION[mode, card, kind]`` is ``card_contribution(card, kind, mode)``: the strategies'
inner loops look it up instead of branching."""
STRONGEST_VALUE = CONTRIBUTION[MODE_PLAIN].max(axis=1)
"""Most animals of any one kind each card type adds in plain mode."""


@inlined
def pile_mode(counts: np.ndarray) -> np.int64:
    """The action mode a pile with these card-type counts is counted in."""
    if counts[STOP] % 2 == 1:
        return MODE_PLAIN
    mode = 0
    if counts[COUNT_ONE] > 0:
        mode += MODE_COUNT_ONE
    if counts[ALL_EQUAL] > 0:
        mode += MODE_ALL_EQUAL
    return mode


@inlined
def count_in_mode(counts: np.ndarray, kind: np.int64, mode: np.int64) -> np.int64:
    """Animals of ``kind`` in cards with these type counts, counted in action mode ``mode``."""
    total = 0
    for card in range(N_ANIMAL_TYPES + 2):
        if counts[card] > 0:
            total += counts[card] * card_contribution(card, kind, mode)
    return total


@inlined
def count_kind(counts: np.ndarray, kind: np.int64) -> np.int64:
    """The doubt count of a whole pile (the kernel's form of ``rules.count_for_kind``)."""
    return count_in_mode(counts, kind, pile_mode(counts))


@inlined
def min_legal_count(
    claim_count: np.int64, claim_kind: np.int64, kind: np.int64, claim_cap: np.int64
) -> np.int64:
    """Smallest count of ``kind`` that bests the standing claim; 0 if none is within the cap."""
    if claim_count == 0:
        needed = 1
    elif kind > claim_kind:
        needed = claim_count
    else:
        needed = claim_count + 1
    return needed if needed <= claim_cap else 0


# --- beliefs about the unknown pile cards -------------------------------------------------------
# A decision first fills a workspace (see ``new_workspace``) with what does not depend on the
# candidate claim: the moments of one unseen card's contribution and the known cards' counts,
# per action mode and kind. Each candidate claim then costs O(modes).

MEANS = 0
"""Workspace rows MEANS + mode: mean animals of each kind one unseen card adds in that mode."""
VARIANCES = MEANS + N_MODES
"""Workspace rows VARIANCES + mode: the variance of the same."""
KNOWN = VARIANCES + N_MODES
"""Workspace rows KNOWN + mode: animals of each kind the known pile cards show in that mode."""
MODES = KNOWN + N_MODES
"""Workspace rows MODES + row: mode probabilities, one row per candidate situation (below)."""
ROW_HELD = 0
"""Mode-probability row: the known pile cards, the unknown ones as they are."""
ROW_DRAW = 1
"""Mode-probability row: one more unknown card (the top draw-pile card placed unseen)."""
ROW_ACTION = 2
"""Mode-probability rows ROW_ACTION + 0/1/2: the known cards plus one "All cards count 1",
"All animals are equal" or stop card placed from the hand."""
EXPECTED = MODES + ROW_ACTION + 3
"""Workspace rows EXPECTED + mode: the unknown cards' expected animals of each kind."""
SPREADS = EXPECTED + N_MODES
"""Workspace rows SPREADS + mode: their standard deviation (finite-population corrected)."""
DRAW_SPREADS = SPREADS + N_MODES
"""Rows DRAW_SPREADS + 0 .. 7: EXPECTED and SPREADS for one more unknown card (a draw)."""
TAILS = DRAW_SPREADS + 2 * N_MODES
"""Rows TAILS + 0 .. 3: room for 20 tail chances a decision computes once and reuses (the
"equal" and "both" modes' tails do not depend on the kind, see :func:`cached_tail`)."""
WORKSPACE_ROWS = TAILS + 4


def new_workspace() -> np.ndarray:
    """Scratch memory for one decision's beliefs (reused by the kernel across decisions)."""
    return np.zeros((WORKSPACE_ROWS, N_KINDS), dtype=np.float64)


@inlined
def _write_moments(work, mode, kind, cards, values, squares, total):
    mean = values / total if total > 0 else 0.0
    work[MEANS + mode, kind] = mean
    work[VARIANCES + mode, kind] = max(0.0, squares / total - mean * mean) if total > 0 else 0.0


@inlined
def prepare_beliefs(known: np.ndarray, unseen: np.ndarray, work: np.ndarray) -> np.int64:
    """Fill ``work`` with the unseen-card moments and known counts; returns the unseen total.

    In closed form from per-kind sums (the same contributions as :func:`card_contribution`):
    plain mode counts the kind's values and wild values, "count 1" counts the kind's cards
    and wild cards, "equal" counts every animal's value, both together every animal card.
    """
    total = 0
    for card in range(N_CARD_TYPES):
        total += unseen[card]
    unseen_wild_cards = unseen[WILD_1] + unseen[WILD_2]
    unseen_wild_values = unseen[WILD_1] + 2 * unseen[WILD_2]
    unseen_wild_squares = unseen[WILD_1] + 4 * unseen[WILD_2]
    known_wild_cards = known[WILD_1] + known[WILD_2]
    known_wild_values = known[WILD_1] + 2 * known[WILD_2]
    all_cards = 0
    all_values = 0
    all_squares = 0
    known_all_cards = 0
    known_all_values = 0
    for kind in range(N_KINDS):
        cards = 0
        values = 0
        squares = 0
        known_cards = 0
        known_values = 0
        for value in range(1, 4):
            card = kind * 3 + value - 1
            cards += unseen[card]
            values += unseen[card] * value
            squares += unseen[card] * value * value
            known_cards += known[card]
            known_values += known[card] * value
        all_cards += cards
        all_values += values
        all_squares += squares
        known_all_cards += known_cards
        known_all_values += known_values
        _write_moments(
            work,
            MODE_PLAIN,
            kind,
            cards,
            values + unseen_wild_values,
            squares + unseen_wild_squares,
            total,
        )
        _write_moments(
            work,
            MODE_COUNT_ONE,
            kind,
            cards,
            cards + unseen_wild_cards,
            cards + unseen_wild_cards,
            total,
        )
        work[KNOWN + MODE_PLAIN, kind] = known_values + known_wild_values
        work[KNOWN + MODE_COUNT_ONE, kind] = known_cards + known_wild_cards
    for kind in range(N_KINDS):
        _write_moments(
            work,
            MODE_ALL_EQUAL,
            kind,
            all_cards,
            all_values + unseen_wild_values,
            all_squares + unseen_wild_squares,
            total,
        )
        _write_moments(
            work,
            MODE_BOTH,
            kind,
            all_cards,
            all_cards + unseen_wild_cards,
            all_cards + unseen_wild_cards,
            total,
        )
        work[KNOWN + MODE_ALL_EQUAL, kind] = known_all_values + known_wild_values
        work[KNOWN + MODE_BOTH, kind] = known_all_cards + known_wild_cards
    return total


@inlined
def mode_probabilities(
    count_ones: np.int64,
    all_equals: np.int64,
    stops: np.int64,
    unseen_count_ones: np.int64,
    unseen_all_equals: np.int64,
    unseen_stops: np.int64,
    total_unseen: np.int64,
    unknown_cards: np.int64,
) -> tuple:
    """Probabilities of the final action modes (plain, count 1, equal, both).

    ``count_ones``, ``all_equals`` and ``stops`` are the known pile's action and stop cards;
    ``unknown_cards`` more are drawn from the unseen composition (``unseen_*`` of
    ``total_unseen`` cards). The unknown cards are treated as independent draws, and the
    three facts that set the mode (an "All cards count 1" present, an "All animals are
    equal" present, the stop parity) as independent of each other: an approximation.
    Scalars only, so the compiled hot path does no reference counting.
    """
    p_count_one = 1.0 if count_ones > 0 else 0.0
    p_equal = 1.0 if all_equals > 0 else 0.0
    p_odd_stops = 1.0 if stops % 2 == 1 else 0.0
    if unknown_cards > 0 and total_unseen > 0:
        if p_count_one == 0.0:
            p_count_one = 1.0 - (1.0 - unseen_count_ones / total_unseen) ** unknown_cards
        if p_equal == 0.0:
            p_equal = 1.0 - (1.0 - unseen_all_equals / total_unseen) ** unknown_cards
        unknown_odd = 0.5 * (1.0 - (1.0 - 2.0 * unseen_stops / total_unseen) ** unknown_cards)
        p_odd_stops = p_odd_stops * (1.0 - unknown_odd) + (1.0 - p_odd_stops) * unknown_odd
    actions_on = 1.0 - p_odd_stops
    both = actions_on * p_count_one * p_equal
    count_one_only = actions_on * p_count_one * (1.0 - p_equal)
    equal_only = actions_on * (1.0 - p_count_one) * p_equal
    return 1.0 - both - count_one_only - equal_only, count_one_only, equal_only, both


@inlined
def store_mode_probabilities(
    known: np.ndarray,
    extra_card: np.int64,
    unseen: np.ndarray,
    total_unseen: np.int64,
    unknown_cards: np.int64,
    work: np.ndarray,
    row: np.int64,
) -> None:
    """:func:`mode_probabilities` for the known cards plus ``extra_card`` (or -1), stored in
    ``work[MODES + row]``."""
    plain, count_one, equal, both = mode_probabilities(
        known[COUNT_ONE] + (1 if extra_card == COUNT_ONE else 0),
        known[ALL_EQUAL] + (1 if extra_card == ALL_EQUAL else 0),
        known[STOP] + (1 if extra_card == STOP else 0),
        unseen[COUNT_ONE],
        unseen[ALL_EQUAL],
        unseen[STOP],
        total_unseen,
        unknown_cards,
    )
    work[MODES + row, MODE_PLAIN] = plain
    work[MODES + row, MODE_COUNT_ONE] = count_one
    work[MODES + row, MODE_ALL_EQUAL] = equal
    work[MODES + row, MODE_BOTH] = both


@inlined
def prepare_spreads(
    unknown_cards: np.int64, total_unseen: np.int64, work: np.ndarray, first_row: np.int64
) -> None:
    """Fill ``work[first_row : first_row + 8]`` (``EXPECTED`` and ``SPREADS`` rows, or
    ``DRAW_SPREADS``) for ``unknown_cards`` unknown cards, from :func:`prepare_beliefs`.

    Per mode and kind, the unknown cards' expected animals and their standard deviation with
    the finite-population correction. They do not depend on the claim, so a decision computes
    them once, not for every candidate claim (the "equal" and "both" modes, which do not
    depend on the kind either, once for all kinds).
    """
    correction = 1.0
    if total_unseen > 1:
        correction = max(0.0, (total_unseen - unknown_cards) / (total_unseen - 1.0))
    for mode in range(N_MODES):
        kinds = N_KINDS if mode < MODE_ALL_EQUAL else 1
        for kind in range(kinds):
            expected = unknown_cards * work[MEANS + mode, kind]
            spread = math.sqrt(unknown_cards * work[VARIANCES + mode, kind] * correction)
            work[first_row + mode, kind] = expected
            work[first_row + N_MODES + mode, kind] = spread
        for kind in range(kinds, N_KINDS):
            work[first_row + mode, kind] = work[first_row + mode, 0]
            work[first_row + N_MODES + mode, kind] = work[first_row + N_MODES + mode, 0]


@inlined
def tail_chance(
    needed: float, unknown_cards: np.int64, total_unseen: np.int64, expected: float, spread: float
) -> float:
    """Believed probability that ``unknown_cards`` unknown cards add at least ``needed``
    animals in one action mode, given their ``expected`` animals and ``spread`` (from
    :func:`prepare_spreads`): 1 if nothing is needed, 0 if no card is unknown, else the
    normal tail with a continuity correction."""
    if needed <= 0:
        return 1.0
    if unknown_cards <= 0 or total_unseen == 0:
        return 0.0
    if spread < 1e-12:
        return 1.0 if expected >= needed else 0.0
    return normal_upper_tail((needed - 0.5 - expected) / spread)


@inlined
def mixed_chance(work: np.ndarray, row: np.int64, plain, count_one, equal, both) -> float:
    """The chances in the four action modes weighted by ``work[MODES + row]``'s mode
    probabilities (modes of probability 0 or less left out), clipped to [0, 1]."""
    probability = 0.0
    if work[MODES + row, MODE_PLAIN] > 0.0:
        probability += work[MODES + row, MODE_PLAIN] * plain
    if work[MODES + row, MODE_COUNT_ONE] > 0.0:
        probability += work[MODES + row, MODE_COUNT_ONE] * count_one
    if work[MODES + row, MODE_ALL_EQUAL] > 0.0:
        probability += work[MODES + row, MODE_ALL_EQUAL] * equal
    if work[MODES + row, MODE_BOTH] > 0.0:
        probability += work[MODES + row, MODE_BOTH] * both
    return min(1.0, max(0.0, probability))


@inlined
def mode_tail(
    count: np.int64,
    kind: np.int64,
    extra_card: np.int64,
    unknown_cards: np.int64,
    total_unseen: np.int64,
    work: np.ndarray,
    spreads: np.int64,
    mode: np.int64,
) -> float:
    """:func:`tail_chance` of at least ``count`` animals of ``kind`` in action mode ``mode``,
    the known cards plus ``extra_card`` (or -1) counted, the rest unknown."""
    needed = count - work[KNOWN + mode, kind]
    if extra_card >= 0:
        needed -= CONTRIBUTION[mode, extra_card, kind]
    return tail_chance(
        needed,
        unknown_cards,
        total_unseen,
        work[spreads + mode, kind],
        work[spreads + N_MODES + mode, kind],
    )


@inlined
def chance_at_least(
    count: np.int64,
    kind: np.int64,
    extra_card: np.int64,
    unknown_cards: np.int64,
    total_unseen: np.int64,
    work: np.ndarray,
    row: np.int64,
    spreads: np.int64,
) -> float:
    """Believed probability that the pile holds at least ``count`` animals of ``kind``.

    Uses the beliefs in ``work`` (from :func:`prepare_beliefs`), the mode probabilities in
    ``work[MODES + row]`` and the unknown cards' expectations and spreads in
    ``work[spreads : spreads + 8]`` (``EXPECTED`` or ``DRAW_SPREADS``, from
    :func:`prepare_spreads` for ``unknown_cards``); ``extra_card`` (or -1) is a known card
    added to the known ones. Within each action mode the unknown cards' sum is taken as
    normal, with continuity and finite-population corrections.
    """
    return mixed_chance(
        work,
        row,
        mode_tail(count, kind, extra_card, unknown_cards, total_unseen, work, spreads, 0),
        mode_tail(count, kind, extra_card, unknown_cards, total_unseen, work, spreads, 1),
        mode_tail(count, kind, extra_card, unknown_cards, total_unseen, work, spreads, 2),
        mode_tail(count, kind, extra_card, unknown_cards, total_unseen, work, spreads, 3),
    )


@inlined
def cached_tail(
    computed: np.int64,
    slot: np.int64,
    count: np.int64,
    kind: np.int64,
    extra_card: np.int64,
    unknown_cards: np.int64,
    total_unseen: np.int64,
    work: np.ndarray,
    spreads: np.int64,
    mode: np.int64,
) -> tuple:
    """:func:`mode_tail`, kept in slot ``slot`` (0-19) of ``work[TAILS:]`` for reuse.

    ``computed`` has bit ``slot`` set once the slot holds its value; returns (tail, computed
    with the bit set). The caller gives equal arguments the same slot, and a new decision
    starts with ``computed`` 0, so the result is always :func:`mode_tail`'s.
    """
    row = TAILS + slot // N_KINDS
    column = slot % N_KINDS
    if (computed >> slot) & 1 == 0:
        work[row, column] = mode_tail(
            count, kind, extra_card, unknown_cards, total_unseen, work, spreads, mode
        )
        computed |= np.int64(1) << slot
    return work[row, column], computed


# --- reading the claims: what a claimant probably placed ---------------------------------------


@inlined
def add_claim_evidence(
    evidence: np.ndarray,
    first: np.int64,
    weight: float,
    unseen: np.ndarray,
    total_unseen: np.int64,
    work: np.ndarray,
    first_row: np.int64,
) -> None:
    """Shift the unknown cards' expected animals (``work[first_row + mode]``, ``EXPECTED`` or
    ``DRAW_SPREADS``, plain and "count 1" modes) for what the claims say about them.

    ``evidence[first + kind]`` unknown pile cards were placed from an opponent's hand with a
    claim of ``kind``. Each is believed drawn from the unseen cards with likelihood
    ``weight`` (1: no reading) on the card types that add animals of that kind (its animals
    and the wild cards) and 1 on the others, so its mean contribution becomes
    ``weight * S / (weight * N + T - N)`` instead of ``S / T`` (``S`` the unseen cards'
    animals of the kind, ``N`` the unseen cards adding any, ``T`` all unseen cards). The
    spreads are left as they are (an approximation); the "equal" and "both" modes count every
    animal alike, and which animal a claim names does not change them.
    """
    if total_unseen <= 0 or weight == 1.0:
        return
    wild_cards = unseen[WILD_1] + unseen[WILD_2]
    for kind in range(N_KINDS):
        cards = evidence[first + kind]
        if cards <= 0:
            continue
        adding = wild_cards
        for value in range(1, 4):
            adding += unseen[kind * 3 + value - 1]
        scale = weight / (weight * adding + total_unseen - adding) - 1.0 / total_unseen
        for mode in range(MODE_ALL_EQUAL):
            animals = work[MEANS + mode, kind] * total_unseen
            work[first_row + mode, kind] += cards * animals * scale
