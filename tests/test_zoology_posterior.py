"""The compiled posterior (no branch on which animals are excluded) is the plain one, bit for bit.

``beliefs.posterior`` and ``beliefs.posterior_top`` sum and pick the top of the likelihoods
not excluded without branching on the data (an excluded animal adds +0.0 and stands in as
-1.0 for the top). Here they are held against the readable definition, written out below in
Python (the same IEEE doubles): skip what is excluded, sum in board order, the first largest
is the top, divide by the total. Random rows with ties, zeros, underflowed rows and
everything excluded; the floats must be equal, not close.
"""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.games.zoology.beliefs import posterior, posterior_top


def plain_posterior(likelihood, board, excluded):
    """The definition: (top, its probability, probabilities) with skips and early returns."""
    probs = {int(x): 0.0 for x in board}
    top, top_value, total = -1, -1.0, 0.0
    for x in board:
        if excluded[x]:
            continue
        value = float(likelihood[x])
        total += value
        if value > top_value:
            top, top_value = int(x), value
    if top < 0:
        return -1, 0.0, probs
    if total <= 0.0:
        probs[top] = 1.0
        return top, 1.0, probs
    for x in board:
        if not excluded[x]:
            probs[int(x)] = float(likelihood[x]) / total
    return top, probs[top], probs


def random_case(rng: np.random.Generator, n_animals: int = 40, n_board: int = 16):
    """A board, a likelihood row (ties, zeros, tiny and huge values) and an exclusion mask."""
    board = rng.choice(n_animals, size=n_board, replace=False).astype(np.int64)
    likelihood = np.full(n_animals, np.nan)  # off the board: never read
    kind = rng.integers(5)
    if kind == 0:  # ties: few distinct values
        values = rng.choice([0.25, 0.5, 1.0], size=n_board)
    elif kind == 1:  # every product underflowed
        values = np.zeros(n_board)
    elif kind == 2:  # a wide range, some exact zeros
        values = 2.0 ** rng.uniform(-1000, 600, size=n_board)
        values[rng.random(n_board) < 0.3] = 0.0
    else:
        values = rng.exponential(size=n_board) ** rng.choice([1.0, 6.0])
    likelihood[board] = values
    excluded = np.ones(n_animals, dtype=np.bool_)  # off the board: excluded
    excluded[board] = rng.random(n_board) < rng.choice([0.0, 0.25, 0.6, 1.0])
    return likelihood, board, excluded


@pytest.mark.parametrize("seed", range(4))
def test_posterior_is_the_plain_definition_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(500):
        likelihood, board, excluded = random_case(rng)
        expected_top, expected_p, expected = plain_posterior(likelihood, board, excluded)
        probs = np.full(likelihood.shape[0], -7.0)  # stale values: every board entry is written
        top, p = posterior(likelihood, board, len(board), excluded, probs)
        assert (top, p) == (expected_top, expected_p)
        assert {int(x): float(probs[x]) for x in board} == expected
        assert posterior_top(likelihood, board, len(board), excluded) == (top, p)


def test_ties_go_to_the_first_in_board_order_and_excluded_never_wins():
    board = np.array([5, 2, 9, 7], dtype=np.int64)
    likelihood = np.zeros(10)
    likelihood[[5, 2, 9, 7]] = [3.0, 1.0, 3.0, 8.0]
    excluded = np.zeros(10, dtype=np.bool_)
    excluded[7] = True  # the largest, but ruled out
    probs = np.zeros(10)
    assert posterior(likelihood, board, 4, excluded, probs) == (5, 3.0 / 7.0)
    assert probs[7] == 0.0 and probs[9] == 3.0 / 7.0
    excluded[[5, 2, 9]] = True  # nothing left
    assert posterior(likelihood, board, 4, excluded, probs) == (-1, 0.0)
    assert not probs[board].any()
