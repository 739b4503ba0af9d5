"""The ``random`` policy: one random word per decision, exact probabilities, and the kernel's
tables equal to the specification (``strategies.move_for_word`` and ``claim_for_cell``).

The policy is specified as: the round's first move places a hand card (uniformly chosen),
or the top draw-pile card if the hand is empty; a later move is uniformly one of doubt, hand
card (if any), draw-pile card (if any) and no card; the first claim is one animal of a
uniform kind; a later claim keeps the count with a uniform bigger kind with probability 1/2
(when there is a bigger kind) and otherwise raises the count by one with a uniform kind; at
the claim cap it keeps the count with a uniform bigger kind.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from zooanalysis import rng as rng_module
from zooanalysis.games.bluff import kernel
from zooanalysis.games.bluff.cards import N_KINDS
from zooanalysis.games.bluff.strategies import (
    CLAIM_BITS,
    CLAIM_CELLS,
    CLAIM_ROW_AT_CAP,
    MOVE_DOUBT,
    MOVE_DRAW,
    MOVE_HAND,
    MOVE_NONE,
    MOVE_ROW_FIRST,
    NO_CLAIM,
    claim_for_cell,
    move_for_word,
    random_claim,
    random_move,
)

HIGH = 1 << 32


def claim_distribution(count: int, kind: int, cap: int) -> dict[tuple[int, int], Fraction]:
    """Probability of each claim the policy makes after (count, kind), over its 120 cells."""
    counts = Counter(claim_for_cell.py_func(count, kind, cap, cell) for cell in range(CLAIM_CELLS))
    return {claim: Fraction(n, CLAIM_CELLS) for claim, n in counts.items()}


def test_first_claim_is_one_animal_of_a_uniform_kind():
    assert claim_distribution(0, -1, 168) == {(1, k): Fraction(1, 5) for k in range(N_KINDS)}


@pytest.mark.parametrize("kind", range(N_KINDS))
def test_later_claims_keep_or_raise_the_count_with_probability_one_half(kind):
    bigger = N_KINDS - 1 - kind
    expected = {(4, k): Fraction(1, 2 * bigger) for k in range(kind + 1, N_KINDS)}
    share = Fraction(1, 2 * N_KINDS) if bigger else Fraction(1, N_KINDS)
    expected.update({(5, k): share for k in range(N_KINDS)})
    assert claim_distribution(4, kind, 168) == expected


@pytest.mark.parametrize("kind", range(N_KINDS - 1))
def test_at_the_cap_the_count_stays_with_a_uniform_bigger_kind(kind):
    bigger = N_KINDS - 1 - kind
    expected = {(3, k): Fraction(1, bigger) for k in range(kind + 1, N_KINDS)}
    assert claim_distribution(3, kind, 3) == expected
    # one below the cap, raising to the cap is allowed
    assert max(claim_distribution(2, kind, 3)) <= (3, N_KINDS - 1)


@pytest.mark.parametrize(
    ("hand", "draw", "claim", "options"),
    [
        (5, 40, 0, [MOVE_HAND]),
        (0, 40, 0, [MOVE_DRAW]),
        (5, 40, 3, [MOVE_DOUBT, MOVE_HAND, MOVE_DRAW, MOVE_NONE]),
        (0, 40, 3, [MOVE_DOUBT, MOVE_DRAW, MOVE_NONE]),
        (5, 0, 3, [MOVE_DOUBT, MOVE_HAND, MOVE_NONE]),
        (0, 0, 3, [MOVE_DOUBT, MOVE_NONE]),
    ],
)
def test_moves_are_uniform_over_the_legal_options(hand, draw, claim, options):
    """Each option owns an equal share (to one word in 2**32) of the word's top 32 bits,
    and within the hand option the hand cards do too."""
    n = len(options)
    for pick, move in enumerate(options):
        first = -(-(pick * HIGH) // n)  # the first and last word giving this pick
        last = -(-((pick + 1) * HIGH) // n) - 1
        assert move_for_word.py_func(first, hand, draw, claim)[0] == move
        assert move_for_word.py_func(last, hand, draw, claim)[0] == move
        if move == MOVE_HAND:
            indices = [
                move_for_word.py_func(first + (last - first) * i // 1000, hand, draw, claim)[1]
                for i in range(1001)
            ]
            assert sorted(set(indices)) == list(range(hand))
            assert max(Counter(indices).values()) - min(Counter(indices).values()) <= 2


def test_one_random_word_per_decision():
    stream = rng_module.game_stream(7, 3)
    for _ in range(100):
        before = int(stream[0])
        random_move(5, 40, 3, stream)
        random_claim(3, 2, 168, stream)
        expected = rng_module.game_stream(7, 3)
        expected[0] = np.uint64(before)
        rng_module.next_u64(expected)
        rng_module.next_u64(expected)
        assert int(stream[0]) == int(expected[0])


def test_kernel_tables_are_the_specification():
    """The kernel's move and claim tables give what move_for_word and claim_for_cell give,
    for every situation and random word cell."""
    for first in (0, 1):
        for hand in (0, 1, 5):
            for draw in (0, 1):
                if first and hand == 0 and draw == 0:
                    continue  # cannot happen: a round starts with a full hand
                row = MOVE_ROW_FIRST * first + 2 * (hand > 0) + (draw > 0)
                claim = 0 if first else 3
                for high in range(0, HIGH, HIGH // 997):
                    scaled = high * kernel.MOVE_OPTIONS[row]
                    move = kernel.MOVE_OF[row, scaled >> 32]
                    index = ((scaled & 0xFFFFFFFF) * hand) >> 32
                    expected = move_for_word.py_func(high, hand, draw, claim)
                    assert move == expected[0]
                    if move == MOVE_HAND:
                        assert index == expected[1]
    cap = 7
    for count in range(cap + 1):
        for kind in range(-1 if count == 0 else 0, N_KINDS if count else 0):
            if count == cap and kind == N_KINDS - 1:
                continue  # the forced doubt: no claim
            number = (count << CLAIM_BITS) + (NO_CLAIM if count == 0 else kind)
            row = (number & 7) + (CLAIM_ROW_AT_CAP if count >= cap else 0)
            for cell in range(CLAIM_CELLS):
                new = (number & ~7) + kernel.CLAIM_STEP[row, cell]
                got = (new >> CLAIM_BITS, new & 7)
                assert got == claim_for_cell.py_func(count, kind, cap, cell)
