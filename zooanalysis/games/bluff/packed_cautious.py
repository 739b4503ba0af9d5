"""The ``cautious`` strategy on the kernel's packed words (issue 13): the same decisions as
``strategies._cautious_move`` and ``_cautious_claim``, without per-type counts.

``cautious`` reads only a few sums of what its player knows, and each is one field of a
packed word in the format of ``pile.py`` (``PLAIN`` and ``ONES``):

* its known pile cards (the pile cards it placed this round) as a packed pile
  ``(known_plain, known_ones)``: their number is the size field, and the doubt count of a
  kind in their own action mode (``policy_math.count_kind`` and ``count_in_mode`` with
  ``pile_mode``) is :func:`pile.packed_count`;
* the cards it has not seen, ``unseen_plain``: the deck less the revealed cards, its known
  pile cards and its hand, each a ``PLAIN`` word (every field of the difference is a count
  of real cards, so the words subtract field by field without borrows). Its size field is
  the unseen total and its field ``kind`` is exactly the numerator of
  ``strategies._plain_mean`` (the kind's animals at face value plus the wild values).

The sums are whole numbers, equal to the ones the array code adds up, and the floating
point arithmetic on them is written in the same order, so every decision is identical
(tests/test_bluff_engines_agree.py holds the kernel to the reference engine, which runs
``strategies.py``). The kernel uses these only when the deck fits the packed format.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.bluff.cards import N_KINDS
from zooanalysis.games.bluff.pile import SIZE_SHIFT, packed_count, packed_size
from zooanalysis.games.bluff.policy_math import STRONGEST_VALUE, min_legal_count
from zooanalysis.games.bluff.strategies import MOVE_DOUBT, MOVE_DRAW, MOVE_HAND, MOVE_NONE

_FIELD = 0xFF


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
def cautious_move(
    trust, margin, hands, seat, hand_size, known_plain, known_ones, pile_size, claim_count,
    claim_kind,
):
    """``strategies._cautious_move`` for player ``seat`` (hand ``hands[seat, :hand_size]``).

    Doubts a claim beyond the known cards' count of the kind plus ``trust`` animals per
    unknown pile card plus ``margin``; else places its strongest hand card (the first on
    ties), no card if that adds no animal after a claim, or draws on an empty hand.
    """
    unknown = pile_size - packed_size(known_plain)
    if claim_count > 0:
        credible = np.float64(packed_count(known_plain, known_ones, claim_kind)) + trust * unknown
        if claim_count > credible + margin:
            return MOVE_DOUBT, -1
    best_index = -1
    best_value = -1
    for index in range(hand_size):
        value = STRONGEST_VALUE[hands[seat, index]]
        if value > best_value:
            best_value = value
            best_index = index
    if best_index < 0:
        return (MOVE_DRAW if claim_count == 0 else MOVE_NONE), -1
    if claim_count > 0 and best_value == 0:
        return MOVE_NONE, -1
    return MOVE_HAND, best_index


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
def cautious_claim(known_plain, known_ones, unseen_plain, pile_size, claim_count, claim_kind, cap):
    """``strategies._cautious_claim``: the legal claim whose count the known pile cards
    (in their action mode) plus the unknown pile cards' expected share (the unseen cards'
    plain mean) exceed by most (the bigger kind on ties), at its smallest legal count."""
    unknown = pile_size - packed_size(known_plain)
    total = unseen_plain >> SIZE_SHIFT
    best_slack = -1e300
    best_count = 0
    best_kind = 0
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        values = (unseen_plain >> (8 * kind)) & _FIELD
        mean = values / total if total > 0 else 0.0
        expected = np.float64(packed_count(known_plain, known_ones, kind)) + unknown * mean
        slack = expected - needed
        if slack >= best_slack:
            best_slack, best_count, best_kind = slack, needed, kind
    return best_count, best_kind
