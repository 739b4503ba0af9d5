"""The ``equilibrium`` strategy's k-card selection game, solved in compiled code.

A battler who rolls only ``k`` of its cards (reduced die, die_split) plays a zero-sum matrix
game against its opponent's estimated die: rows are its distinct ``k``-card selections,
columns the opponent's ``their_k``-card selections, and the entry is the expected gain (+1
the card is mine, -1 theirs, 0 nobody) when both roll a uniform card of their selection.
:func:`equilibrium_selection` lists both sides' selections, fills the matrix and finds the row
player's maximin mix by the simplex method, then draws a selection from the mix with one
uniform number. Everything runs in numba in preallocated work arrays (:class:`Workspace`,
grown only for an unusually large game), so a decision allocates nothing.

Solving. The matrix ``N`` (integers: ``k * their_k`` times the expected gain) is shifted to
``N' = N - min(N) + 1 > 0``; the column player's problem ``max 1'w`` subject to ``N'w <= 1``,
``w >= 0`` starts feasible at the slack basis, so one simplex phase solves it. The row
player's optimal mix is the dual solution read off the final tableau (the reduced costs of
the slacks), normalised to sum 1; the game's value is ``1 / sum(duals) + min(N) - 1`` over
``k * their_k``.

Ties between optimal mixed strategies. When several row mixes are optimal (identical rows,
dominated rows, degenerate games), the one returned is the dual solution of the basis at
which the simplex method stops using Bland's rule: the entering column is the lowest-numbered
one with a positive gain (the opponent's selections in listing order, then the slacks) and
the leaving row, among ratios equal to within ``1e-12`` relative, the one whose basic
variable has the lowest number. This is fully deterministic (no randomness, no dependence on
the caller), and both engines run this same compiled function, so they resolve ties
identically. Where the optimal mix is unique it equals the mix of scipy's ``linprog``
(HiGHS) that the strategy used before to numerical tolerance (``tests/test_lucky_lions_
matrix_game.py`` checks both on random, degenerate and real games); where it is not unique
the two may pick different optimal mixes. In play that is common: in the everything scenario
about one selection game in six has several optimal mixes (often because two selections have
identical payoff rows), and there the draw picks differently from before in most cases
(``benchmarks/equilibrium_ties.py`` counts them); every mix played is optimal.

Drawing. The selection is the first one whose cumulative mix exceeds the uniform ``draw``
(the last one if rounding leaves the total at or below it), as ``numpy.searchsorted(...,
side="right")`` did.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from zooanalysis.games.lucky_lions.flat import N_TYPES

START_OPTIONS = 64
"""Selections per side the workspace holds at first (grown when a game needs more)."""

_RATIO_TOLERANCE = 1e-12
_GAIN_TOLERANCE = 1e-11
_PIVOT_TOLERANCE = 1e-11


class Workspace(NamedTuple):
    """Work arrays for :func:`equilibrium_selection` (one set per batch or engine call)."""

    mine: np.ndarray
    """(options, N_TYPES) int64: my selections."""
    theirs: np.ndarray
    """(options, N_TYPES) int64: their selections."""
    matrix: np.ndarray
    """(options, options) float64: the game, times ``k * their_k``."""
    tableau: np.ndarray
    """(options + 1, 2 * options + 1) float64: the simplex tableau."""
    basis: np.ndarray
    """(options,) int64: the basic variable of each row."""
    mix: np.ndarray
    """(options + N_TYPES,) float64: the row player's optimal mix (the last ``N_TYPES``:
    scratch for filling the game)."""
    small: np.ndarray
    """(4 * N_TYPES,) int64: scratch (capacities, the current selection)."""
    payoff: np.ndarray
    """(N_TYPES, N_TYPES) float64: my gain for each pair of shown types."""
    their_die: np.ndarray
    """(N_TYPES,) int64: the opponent's estimated die."""
    share: np.ndarray
    """(N_TYPES,) float64: scratch for the estimate."""


def new_workspace(options: int = START_OPTIONS) -> Workspace:
    """Work arrays for games of up to ``options`` selections per side (and the equilibrium
    chooser's small arrays)."""
    return Workspace(
        *_workspace_arrays(np.int64(options)),
        np.zeros((N_TYPES, N_TYPES)),
        np.zeros(N_TYPES, dtype=np.int64),
        np.zeros(N_TYPES),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def _workspace_arrays(options: np.int64):
    """The arrays of a :class:`Workspace` for ``options`` selections per side."""
    return (
        np.zeros((options, N_TYPES), dtype=np.int64),
        np.zeros((options, N_TYPES), dtype=np.int64),
        np.zeros((options, options)),
        np.zeros((options + 1, 2 * options + 1)),
        np.zeros(options, dtype=np.int64),
        np.zeros(options + N_TYPES),
        np.zeros(4 * N_TYPES, dtype=np.int64),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def _fill_from_back(
    die: np.ndarray, start: np.int64, left: np.int64, out: np.ndarray, row: np.int64
) -> None:
    """The lexicographically smallest way to place ``left`` cards on types ``start..``:
    as many as possible on the last types."""
    for t in range(N_TYPES - 1, start - 1, -1):
        n = min(die[t], left)
        out[row, t] = n
        left -= n


@njit(cache=True, nogil=True, error_model="numpy")
def list_selections(die: np.ndarray, k: np.int64, out: np.ndarray, small: np.ndarray) -> np.int64:
    """Every distinct way to take ``k`` cards from ``die`` (counts per type), in lexicographic
    order of the counts (type 0's count most significant, ascending); writes the first
    ``out.shape[0]`` of them into ``out`` and returns how many there are (0 when the die has
    fewer than ``k`` cards). ``small``: scratch of at least ``3 * N_TYPES``."""
    capacity = out.shape[0]
    suffix = small[:N_TYPES]  # cards on types t.. (suffix[t])
    current = small[N_TYPES : 2 * N_TYPES]
    total = 0
    for t in range(N_TYPES - 1, -1, -1):
        total += die[t]
        suffix[t] = total
    if k > total or k < 0:
        return 0
    # the first selection, kept in ``current`` (``out`` may be full)
    for t in range(N_TYPES):
        current[t] = 0
    left = k
    for t in range(N_TYPES - 1, -1, -1):
        n = min(die[t], left)
        current[t] = n
        left -= n
    count = 0
    while True:
        if count < capacity:
            for t in range(N_TYPES):
                out[count, t] = current[t]
        count += 1
        # the next selection: the last type (not the final one) that can take one more card
        # with the rest still placeable after it, then the smallest placement of the rest
        prefix = 0
        for t in range(N_TYPES - 1):
            prefix += current[t]
        advanced = False
        for i in range(N_TYPES - 2, -1, -1):
            prefix -= current[i]  # cards on types < i
            rest = k - prefix - current[i] - 1
            if current[i] + 1 <= die[i] and rest >= 0 and rest <= suffix[i + 1]:
                current[i] += 1
                for t in range(N_TYPES - 1, i, -1):
                    n = min(die[t], rest)
                    current[t] = n
                    rest -= n
                advanced = True
                break
        if not advanced:
            return count


@njit(cache=True, nogil=True, error_model="numpy")
def fill_game(
    payoff: np.ndarray,
    mine: np.ndarray,
    n_mine: np.int64,
    theirs: np.ndarray,
    n_theirs: np.int64,
    matrix: np.ndarray,
    row: np.ndarray,
) -> None:
    """``matrix[i, j] = mine[i] @ payoff @ theirs[j]`` (integers when ``payoff`` is, so exact
    in any order); ``row``: ``N_TYPES`` floats of scratch.

    Each row's ``mine[i] @ payoff`` adds the nonzero counts' rows in type order; each entry
    then adds every type's term without a branch, so the loop vectorises: a zero count adds
    ``+-0.0``, which leaves a sum that starts at ``0.0`` unchanged (the same float as adding
    only the nonzero terms).
    """
    for i in range(n_mine):
        for b in range(N_TYPES):
            row[b] = 0.0
        for a in range(N_TYPES):
            count = mine[i, a]
            if count != 0:
                for b in range(N_TYPES):
                    row[b] += count * payoff[a, b]
        for j in range(n_theirs):
            total = 0.0
            for b in range(N_TYPES):
                total += row[b] * theirs[j, b]
            matrix[i, j] = total


@njit(cache=True, nogil=True, error_model="numpy")
def solve_game(
    matrix: np.ndarray,
    rows: np.int64,
    cols: np.int64,
    tableau: np.ndarray,
    basis: np.ndarray,
    mix: np.ndarray,
) -> float:
    """The row player's maximin mix of ``matrix[:rows, :cols]`` into ``mix[:rows]``; returns the
    game's value. Simplex with Bland's rule on the column player's problem (module docstring:
    how ties between optimal mixes are resolved)."""
    low = matrix[0, 0]
    for i in range(rows):
        for j in range(cols):
            low = min(low, matrix[i, j])
    shift = 1.0 - low
    width = cols + rows
    rhs = width
    for i in range(rows):
        for j in range(cols):
            tableau[i, j] = matrix[i, j] + shift
        for j in range(cols, width):
            tableau[i, j] = 0.0
        tableau[i, cols + i] = 1.0
        tableau[i, rhs] = 1.0
        basis[i] = cols + i
    for j in range(cols):
        tableau[rows, j] = -1.0
    for j in range(cols, width + 1):
        tableau[rows, j] = 0.0
    for _ in range(100 * (rows + cols) + 100):  # Bland's rule never cycles; a guard only
        enter = -1
        for j in range(width):  # Bland: the lowest-numbered improving column
            if tableau[rows, j] < -_GAIN_TOLERANCE:
                enter = j
                break
        if enter < 0:
            break
        leave = -1
        best = 0.0
        for i in range(rows):
            a = tableau[i, enter]
            if a > _PIVOT_TOLERANCE:
                ratio = tableau[i, rhs] / a
                slack = _RATIO_TOLERANCE * max(1.0, abs(best))
                smaller = leave < 0 or ratio < best - slack
                tie_to_lower = leave >= 0 and ratio <= best + slack and basis[i] < basis[leave]
                if smaller or tie_to_lower:
                    leave = i
                    best = ratio
        if leave < 0:  # unbounded: impossible for N' > 0 (every column is bounded)
            break
        pivot = tableau[leave, enter]
        for j in range(width + 1):
            tableau[leave, j] /= pivot
        for i in range(rows + 1):
            if i == leave:
                continue
            factor = tableau[i, enter]
            if factor != 0.0:
                for j in range(width + 1):
                    tableau[i, j] -= factor * tableau[leave, j]
                tableau[i, enter] = 0.0
        basis[leave] = enter
    total = 0.0
    for i in range(rows):
        dual = max(tableau[rows, cols + i], 0.0)
        mix[i] = dual
        total += dual
    for i in range(rows):
        mix[i] /= total
    return 1.0 / total - shift


@njit(cache=True, nogil=True, error_model="numpy")
def draw_option(mix: np.ndarray, count: np.int64, draw: float) -> np.int64:
    """The first option whose cumulative mix exceeds ``draw`` (the last if none does)."""
    cumulative = 0.0
    for i in range(count):
        cumulative += mix[i]
        if cumulative > draw:
            return i
    return count - 1


@njit(cache=True, nogil=True, error_model="numpy")
def equilibrium_selection(
    payoff: np.ndarray,
    my_die: np.ndarray,
    their_die: np.ndarray,
    k: np.int64,
    their_k: np.int64,
    draw: float,
    mine: np.ndarray,
    theirs: np.ndarray,
    matrix: np.ndarray,
    tableau: np.ndarray,
    basis: np.ndarray,
    mix: np.ndarray,
    small: np.ndarray,
    out: np.ndarray,
) -> np.int64:
    """My ``k``-card selection (counts per type, into ``out``) drawn with the uniform ``draw``
    from the equilibrium mix of the selection game; ``payoff[a, b]`` is my gain when I show
    type ``a`` and they show ``b``. Returns 0, or the number of selections per side the work
    arrays need when they are too small (nothing written: grow them and call again)."""
    n_mine = list_selections(my_die, k, mine, small)
    n_theirs = list_selections(their_die, their_k, theirs, small)
    need = max(n_mine, n_theirs)
    if need > mine.shape[0] or need > basis.shape[0]:
        return need
    fill_game(payoff, mine, n_mine, theirs, n_theirs, matrix, mix[mix.shape[0] - N_TYPES :])
    solve_game(matrix, n_mine, n_theirs, tableau, basis, mix)
    pick = draw_option(mix, n_mine, draw)
    for t in range(N_TYPES):
        out[t] = mine[pick, t]
    return 0


# --- the reference: scipy's linear program (tests and the analysis notebook) -----------------


def selection_game(
    payoff: np.ndarray, my_die: np.ndarray, their_die: np.ndarray, k: int, their_k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k-card selection as a matrix game: my options, the payoff matrix (my expected
    gain, +1 card to me, -1 to them, for each pair of selections), their options."""
    work = new_workspace(1)
    small = work.small
    n_mine = list_selections(np.asarray(my_die, dtype=np.int64), np.int64(k), work.mine, small)
    n_theirs = list_selections(
        np.asarray(their_die, dtype=np.int64), np.int64(their_k), work.theirs, small
    )
    mine = np.zeros((n_mine, N_TYPES), dtype=np.int64)
    theirs = np.zeros((n_theirs, N_TYPES), dtype=np.int64)
    list_selections(np.asarray(my_die, dtype=np.int64), np.int64(k), mine, small)
    list_selections(np.asarray(their_die, dtype=np.int64), np.int64(their_k), theirs, small)
    matrix = np.zeros((max(n_mine, 1), max(n_theirs, 1)))
    row = np.zeros(N_TYPES)
    fill_game(np.asarray(payoff, dtype=np.float64), mine, n_mine, theirs, n_theirs, matrix, row)
    return mine, matrix[:n_mine, :n_theirs] / (k * their_k), theirs


def solve_zero_sum_compiled(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """:func:`solve_game` on a whole matrix: (the row player's mix, the value)."""
    rows, cols = matrix.shape
    size = max(rows, cols)
    tableau = np.zeros((size + 1, 2 * size + 1))
    basis = np.zeros(size, dtype=np.int64)
    mix = np.zeros(size)
    value = solve_game(
        np.ascontiguousarray(matrix, dtype=np.float64), rows, cols, tableau, basis, mix
    )
    return mix[:rows].copy(), float(value)


def solve_zero_sum(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's maximin mix and the game's value, by linear programming (scipy's
    HiGHS): the reference the compiled solver is tested against (and what the strategy
    used before). Maximise v subject to ``sum_i x_i A[i, j] >= v`` for every column j,
    ``sum x = 1``, ``x >= 0``."""
    from scipy.optimize import linprog

    rows, cols = matrix.shape
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((cols, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0, None)] * rows + [(None, None)]
    result = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(cols),
        A_eq=equal,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if not result.success:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"linear program failed: {result.message}")
    mix = np.clip(result.x[:rows], 0.0, None)
    return mix / mix.sum(), float(result.x[-1])
