"""The compiled zero-sum solver of ``equilibrium`` against scipy's linear program (HiGHS).

Random games, degenerate games (repeated and dominated rows and columns, constant games,
saddle points) and real selection games (published Zoo Cards, dice dealt from the Animal
Cards): the compiled mix must be optimal (it guarantees the game's value against every
column), the value must equal scipy's, and where the optimal mix is unique (checked by linear
programs over the optimal set) the mix must equal scipy's.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from zooanalysis.games.lucky_lions.flat import N_TYPES, card_rows
from zooanalysis.games.lucky_lions.matrix_game import (
    draw_option,
    equilibrium_selection,
    list_selections,
    new_workspace,
    selection_game,
    solve_zero_sum,
    solve_zero_sum_compiled,
)
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.strategies import estimate_die, pair_gain

TOLERANCE = 1e-7


def optimal_range(matrix: np.ndarray, value: float) -> tuple[np.ndarray, np.ndarray]:
    """The smallest and largest weight of each row over all optimal row mixes."""
    rows, cols = matrix.shape
    upper = -matrix.T
    low = np.zeros(rows)
    high = np.zeros(rows)
    for i in range(rows):
        objective = np.zeros(rows)
        objective[i] = 1.0
        for sign, out in ((1.0, low), (-1.0, high)):
            result = linprog(
                sign * objective,
                A_ub=upper,
                b_ub=np.full(cols, -value + 1e-11),
                A_eq=np.ones((1, rows)),
                b_eq=[1.0],
                bounds=[(0, None)] * rows,
                method="highs",
            )
            assert result.success, result.message
            out[i] = result.x[i]
    return low, high


def check_against_scipy(matrix: np.ndarray) -> bool:
    """Assert the compiled solution is optimal with scipy's value, and equal to scipy's mix
    when the optimal mix is unique; returns whether it was unique."""
    reference_mix, reference_value = solve_zero_sum(matrix)
    mix, value = solve_zero_sum_compiled(matrix)
    assert value == pytest.approx(reference_value, abs=TOLERANCE)
    assert mix.min() >= 0.0 and mix.sum() == pytest.approx(1.0, abs=1e-12)
    assert (mix @ matrix >= reference_value - TOLERANCE).all(), "the mix guarantees the value"
    low, high = optimal_range(matrix, reference_value)
    unique = bool(np.all(high - low < 1e-4))
    if unique:
        np.testing.assert_allclose(mix, reference_mix, atol=1e-6)
    return unique


def test_matching_pennies_and_a_saddle_point() -> None:
    mix, value = solve_zero_sum_compiled(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    np.testing.assert_allclose(mix, [0.5, 0.5], atol=1e-12)
    assert abs(value) < 1e-12
    mix, value = solve_zero_sum_compiled(np.array([[3.0, 1.0], [4.0, 2.0]]))  # row 1 dominates
    np.testing.assert_allclose(mix, [0.0, 1.0], atol=1e-12)
    assert value == pytest.approx(2.0)
    mix, value = solve_zero_sum_compiled(np.array([[0.0, 2.0, -1.0], [-1.0, 0.0, 1.0]]))
    assert value == pytest.approx(-1 / 3)  # hand-solved: x = (2/3, 1/3)
    np.testing.assert_allclose(mix, [2 / 3, 1 / 3], atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_match_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(40):
        rows, cols = rng.integers(1, 9, size=2)
        assert check_against_scipy(rng.uniform(-1, 1, size=(rows, cols)))


def test_degenerate_games_are_solved_optimally_and_deterministically() -> None:
    rng = np.random.default_rng(7)
    unique = 0
    cases = [np.zeros((3, 4)), np.ones((2, 2)), np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 2.0]])]
    for _ in range(150):
        rows, cols = rng.integers(1, 8, size=2)
        matrix = rng.integers(-2, 3, size=(rows, cols)).astype(float)  # many ties
        if rng.random() < 0.5:  # repeat a row and a column
            matrix = np.vstack([matrix, matrix[rng.integers(rows)]])
            matrix = np.hstack([matrix, matrix[:, [rng.integers(cols)]]])
        cases.append(matrix)
    for matrix in cases:
        unique += check_against_scipy(matrix)
        first = solve_zero_sum_compiled(matrix)
        again = solve_zero_sum_compiled(matrix.copy())
        np.testing.assert_array_equal(first[0], again[0])  # deterministic, bit for bit
    assert 0 < unique < len(cases), "both kinds occur"


def real_games(count: int, seed: int) -> list[tuple]:
    """Selection games as ``equilibrium`` meets them: a published Zoo Card, my die and an
    opponent's estimated die dealt from the Animal Cards, k from the card."""
    rng = np.random.default_rng(seed)
    games = []
    for wild in (False, True):
        settings = LuckySettings(busy_zoo=True, wild_animals=wild, deck="fixed")
        rows = card_rows(settings.fixed_cards)
        cards = settings.animal_cards()
        for _ in range(count):
            card = rows[rng.integers(len(rows))]
            k = int(card[0])
            pile = rng.permutation(cards)
            size = int(rng.integers(k + 1, k + 5))
            my_die = np.bincount(pile[:size], minlength=N_TYPES).astype(np.int64)
            their_size = int(rng.integers(1, k + 5))
            seen = np.zeros(N_TYPES, dtype=np.int64)
            for t in pile[size : size + int(rng.integers(0, 3))]:
                seen[t] = 1
            unseen = np.bincount(pile[size:], minlength=N_TYPES).astype(np.int64)
            their_die = np.zeros(N_TYPES, dtype=np.int64)
            estimate_die(seen, unseen, their_size, their_die)
            active = bool(rng.integers(2))
            payoff = np.array(
                [
                    [
                        pair_gain(card, a, b, wild, active, size > 1, their_size > 1)
                        for b in range(N_TYPES)
                    ]
                    for a in range(N_TYPES)
                ],
                dtype=float,
            )
            games.append((payoff, my_die, their_die, k, min(k, their_size)))
    return games


def test_real_selection_games_match_scipy() -> None:
    unique = 0
    games = real_games(60, 11)
    for payoff, my_die, their_die, k, their_k in games:
        _, matrix, _ = selection_game(payoff, my_die, their_die, k, their_k)
        unique += check_against_scipy(matrix)
    assert unique > len(games) // 4


def test_selection_is_drawn_from_the_mix_in_listing_order() -> None:
    """equilibrium_selection lists my selections, solves and draws as the pieces do."""
    work = new_workspace(4)  # too small for some games: it says how much it needs
    for payoff, my_die, their_die, k, their_k in real_games(20, 5):
        mine, matrix, _ = selection_game(payoff, my_die, their_die, k, their_k)
        # the solver works on the integer game (k * their_k times the gains)
        mix, _ = solve_zero_sum_compiled(np.rint(matrix * k * their_k))
        for draw in (0.0, 0.3, 0.999999):
            out = np.zeros(N_TYPES, dtype=np.int64)
            args = (payoff, my_die, their_die, k, their_k, draw)
            need = equilibrium_selection(*args, *work[:7], out)
            if need:
                assert need == max(len(mine), matrix.shape[1]) > 4
                bigger = new_workspace(need)
                assert equilibrium_selection(*args, *bigger[:7], out) == 0
            expected = mine[draw_option(mix, len(mine), draw)]
            np.testing.assert_array_equal(out, expected)
            assert out.sum() == k and (out <= my_die).all()


def test_selections_are_listed_in_lexicographic_order() -> None:
    die = np.array([2, 0, 1, 3, 0, 0, 0, 0, 0, 1], dtype=np.int64)
    out = np.zeros((100, N_TYPES), dtype=np.int64)
    small = np.zeros(4 * N_TYPES, dtype=np.int64)
    count = list_selections(die, 3, out, small)
    expected = sorted(tuple(c) for c in np.ndindex(*(die + 1)) if sum(c) == 3)
    assert count == len(expected)
    assert [tuple(row) for row in out[:count]] == expected
    assert list_selections(die, 8, out, small) == 0  # more than the die holds
    assert list_selections(die, 2, out[:2], small) == len(
        [c for c in np.ndindex(*(die + 1)) if sum(c) == 2]
    )
