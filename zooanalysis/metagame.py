"""The meta-game of a population of strategies, and how to solve it.

A population of ``N`` strategies playing a game of ``s`` seats makes a symmetric ``s``-player
meta-game: each player picks a strategy, and a strategy's payoff is its seats' win share in
the lineup that results. Since seats are balanced out (every lineup is played in all its
seatings), a payoff depends only on the lineup's *composition* (how many seats each strategy
holds), so the meta-game is a heuristic payoff table: one row per composition (every
multiset of ``s`` strategies), one payoff per strategy in it.

From that table:

- :meth:`MetaGame.expected_payoffs` gives each strategy's payoff when the other ``s - 1``
  seats are drawn independently from a mix ``x`` (multinomial over the compositions);
- :func:`nash_conv` is the largest gain any strategy of the population gets over the mix
  against the mix: 0 exactly at a symmetric Nash equilibrium, so it measures how far a mix
  is from one;
- :func:`solve_equilibrium` finds a symmetric equilibrium by exponential-weights replicator
  dynamics (the last iterate and the running average, whichever is closer), polished on its
  support by least squares, and reports its NashConv;
- :func:`alpha_rank` is the single-population alpha-Rank (Omidshafiei et al. 2019): the
  stationary distribution of a Moran process with rare mutations between monomorphic
  populations, whose fixation probabilities come from the same table.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln, logsumexp

ITERATIONS = 4000
"""Steps of the replicator dynamics."""
STEP = 8.0
"""The replicator's step, in units of the no-regret rate (larger: faster, more cycling)."""
TRACE_POINTS = 12
"""NashConv is recorded at about this many (log-spaced) iterations."""
SUPPORT_FLOOR = 1e-3
"""A strategy with less weight than this is left out of the support the polish solves on."""
ALPHA = 50.0
"""alpha-Rank's selection intensity (per unit of win share)."""
POPULATION = 50
"""alpha-Rank's population size."""


def compositions(strategies: int, seats: int) -> np.ndarray:
    """Every multiset of ``seats`` strategies out of ``strategies``, as count vectors
    (rows, in lexicographic order of the sorted strategy indices)."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(strategies), seats):
        rows.append(np.bincount(combo, minlength=strategies))
    return np.array(rows, dtype=np.int64).reshape(-1, strategies)


def composition_count(strategies: int, seats: int) -> int:
    """How many compositions ``seats`` seats of ``strategies`` strategies have."""
    return math.comb(strategies + seats - 1, seats)


def _multinomial_log_coefficients(counts: np.ndarray) -> np.ndarray:
    """log of ``n! / prod(c_i!)`` for every row of counts."""
    return gammaln(counts.sum(axis=1) + 1) - gammaln(counts + 1).sum(axis=1)


@dataclass(frozen=True)
class MetaGame:
    """A symmetric meta-game as a heuristic payoff table.

    ``counts[r]`` is composition ``r`` (seats per strategy, summing to ``seats``);
    ``payoffs[r, i]`` the payoff of one seat of strategy ``i`` in it (nan where ``i`` holds
    no seat).
    """

    counts: np.ndarray
    payoffs: np.ndarray

    def __post_init__(self) -> None:
        counts = np.asarray(self.counts)
        payoffs = np.asarray(self.payoffs, dtype=float)
        if counts.shape != payoffs.shape or counts.ndim != 2:
            raise ValueError("counts and payoffs must be tables of the same shape")
        seats = counts.sum(axis=1)
        if len(set(seats.tolist())) != 1:
            raise ValueError("every composition must have the same number of seats")
        present = counts > 0
        if np.isnan(payoffs[present]).any():
            raise ValueError("every strategy in a composition needs a payoff")
        index = {tuple(row): r for r, row in enumerate(counts.tolist())}
        expected = composition_count(counts.shape[1], int(seats[0]))
        if len(index) != expected or len(counts) != expected:
            raise ValueError(f"the table must hold each of the {expected} compositions once")
        # others[o]: a composition of seats - 1; deviation[o, i]: payoff of i joining it
        others = compositions(counts.shape[1], int(seats[0]) - 1)
        deviation = np.empty(others.shape, dtype=float)
        for o, row in enumerate(others):
            for i in range(counts.shape[1]):
                full = row.copy()
                full[i] += 1
                deviation[o, i] = payoffs[index[tuple(full.tolist())], i]
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "payoffs", payoffs)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_others", others)
        object.__setattr__(self, "_log_coefficients", _multinomial_log_coefficients(others))
        object.__setattr__(self, "_deviation", deviation)

    @property
    def strategies(self) -> int:
        """Strategies in the population."""
        return int(self.counts.shape[1])

    @property
    def seats(self) -> int:
        """Seats at the table."""
        return int(self.counts[0].sum())

    def row_of(self, composition: Sequence[int]) -> int:
        """The table row of a composition (seats per strategy)."""
        return self._index[tuple(int(c) for c in composition)]

    def others_probabilities(self, mix: np.ndarray) -> np.ndarray:
        """The chance of each composition of the other ``seats - 1`` seats when each is
        drawn independently from ``mix``."""
        mix = np.asarray(mix, dtype=float)
        log_mix = np.log(np.maximum(mix, 1e-300))  # a zero weight: a chance of 0 (underflow)
        return np.exp(self._log_coefficients + self._others @ log_mix)

    def expected_payoffs(self, mix: np.ndarray) -> np.ndarray:
        """Each strategy's expected payoff in one seat when the others are drawn from
        ``mix``."""
        return self._deviation.T @ self.others_probabilities(mix)

    @classmethod
    def from_matrix(cls, matrix: np.ndarray) -> MetaGame:
        """The two-seat meta-game of a symmetric matrix game: ``matrix[i, j]`` is the payoff
        of ``i`` against ``j``."""
        matrix = np.asarray(matrix, dtype=float)
        n = matrix.shape[0]
        counts = compositions(n, 2)
        payoffs = np.full(counts.shape, np.nan)
        for r, row in enumerate(counts):
            members = np.flatnonzero(row)
            first, second = (members[0], members[0]) if len(members) == 1 else members
            payoffs[r, first] = matrix[first, second]
            payoffs[r, second] = matrix[second, first]
        return cls(counts, payoffs)


def mix_value(game: MetaGame, mix: np.ndarray) -> float:
    """The payoff of a seat playing ``mix`` when every other seat plays it too."""
    return float(np.dot(mix, game.expected_payoffs(mix)))


def gains(game: MetaGame, mix: np.ndarray) -> np.ndarray:
    """Each strategy's gain over the mix, everyone else playing the mix."""
    payoff = game.expected_payoffs(mix)
    return payoff - float(np.dot(mix, payoff))


def nash_conv(game: MetaGame, mix: np.ndarray) -> float:
    """The most any strategy of the population gains by deviating from ``mix`` when every
    other seat plays it: 0 at a symmetric Nash equilibrium, never below 0."""
    return max(0.0, float(gains(game, mix).max()))


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric (approximate) equilibrium of a meta-game."""

    weights: np.ndarray
    nash_conv: float
    """How far from an equilibrium: the best deviation's gain (0 = exact)."""
    method: str
    """Which candidate was kept: ``last iterate``, ``average`` or ``polished``."""
    trace: tuple[tuple[int, float, float], ...]
    """(iteration, NashConv of the last iterate, NashConv of the average) along the way."""


def solve_equilibrium(
    game: MetaGame, iterations: int = ITERATIONS, step: float | None = None
) -> Equilibrium:
    """A symmetric Nash equilibrium of ``game`` by replicator dynamics.

    Exponential weights (the discrete replicator): ``x_i <- x_i exp(step * u_i(x))``,
    normalised, from the uniform mix; ``step`` defaults to :data:`STEP` times
    ``sqrt(8 log N / iterations)`` (the no-regret rate) over the range of the table's
    payoffs. Dynamics converge to strict equilibria
    and drive dominated strategies out, but may cycle (rock-paper-scissors), where their
    running average converges instead; whichever is closer is then polished: the
    equal-payoff conditions on its support solved by least squares. The candidate with the
    smallest NashConv is returned, with that NashConv (an honest measure of how far from
    converged the answer is).
    """
    n = game.strategies
    spread = np.nanmax(game.payoffs) - np.nanmin(game.payoffs)
    scale = spread if spread > 0 else 1.0
    if step is None:
        step = STEP * math.sqrt(8 * max(math.log(n), 1.0) / iterations) / scale
    log_weights = np.zeros(n)
    mix = np.full(n, 1.0 / n)
    average = np.zeros(n)
    checkpoints = set(np.unique(np.geomspace(1, iterations, TRACE_POINTS).astype(int)).tolist())
    trace = []
    for iteration in range(1, iterations + 1):
        average += (mix - average) / iteration
        log_weights += step * game.expected_payoffs(mix)
        log_weights -= log_weights.max()
        mix = np.exp(log_weights)
        mix /= mix.sum()
        if iteration in checkpoints:
            trace.append((iteration, nash_conv(game, mix), nash_conv(game, average)))
    candidates = [("last iterate", mix), ("average", average)]
    _, base = min(candidates, key=lambda item: nash_conv(game, item[1]))
    polished = _polish(game, base)
    if polished is not None:
        candidates.append(("polished", polished))
    name, best = min(candidates, key=lambda item: nash_conv(game, item[1]))
    return Equilibrium(best, nash_conv(game, best), name, tuple(trace))


def _polish(game: MetaGame, mix: np.ndarray) -> np.ndarray | None:
    """Solve "every strategy of the support earns the same" on ``mix``'s support (weights
    above :data:`SUPPORT_FLOOR`) from ``mix``; None when the solver fails."""
    from scipy.optimize import least_squares

    support = np.flatnonzero(mix > SUPPORT_FLOOR)
    if len(support) == 0:
        return None
    if len(support) == 1:
        pure = np.zeros(game.strategies)
        pure[support[0]] = 1.0
        return pure

    def full(free: np.ndarray) -> np.ndarray:
        whole = np.zeros(game.strategies)
        whole[support] = np.clip(free, 0.0, None)
        total = whole.sum()
        return whole / total if total > 0 else np.full(game.strategies, 1.0 / game.strategies)

    def residuals(free: np.ndarray) -> np.ndarray:
        payoff = game.expected_payoffs(full(free))[support]
        return np.append(payoff[1:] - payoff[0], free.sum() - 1.0)

    start = mix[support] / mix[support].sum()
    try:
        fit = least_squares(residuals, start, bounds=(0.0, 1.0), xtol=1e-12, ftol=1e-12)
    except (ValueError, np.linalg.LinAlgError):
        return None
    return full(fit.x) if np.all(np.isfinite(fit.x)) else None


def fixation_probability(
    game: MetaGame, resident: int, mutant: int, alpha: float, population: int
) -> float:
    """The chance one ``mutant`` takes over a population of ``resident`` (Moran process of
    ``population`` individuals, selection intensity ``alpha``).

    With ``k`` mutants, an individual's fitness is its expected payoff in a lineup whose
    other ``seats - 1`` seats are drawn without replacement from the rest of the
    population. The fixation probability is
    ``1 / (1 + sum_{l=1}^{m-1} prod_{k=1}^{l} exp(-alpha (f_mutant(k) - f_resident(k))))``.
    """
    seats = game.seats
    if population < seats:
        raise ValueError(f"the population ({population}) must fill a table of {seats}")
    exponents = []
    for k in range(1, population):
        mutant_fitness = _fitness(game, mutant, resident, k - 1, population - k, seats, True)
        resident_fitness = _fitness(game, resident, mutant, population - k - 1, k, seats, False)
        exponents.append(-alpha * (mutant_fitness - resident_fitness))
    partial = np.cumsum(exponents)
    return float(np.exp(-logsumexp(np.append(0.0, partial))))


def _fitness(
    game: MetaGame, me: int, other: int, same: int, different: int, seats: int, _mutant: bool
) -> float:
    """Expected payoff of ``me`` when its ``seats - 1`` co-players are drawn without
    replacement from ``same`` more of ``me`` and ``different`` of ``other``."""
    if same + different < seats - 1:
        raise ValueError("population too small for the table")
    total = 0.0
    pool = math.comb(same + different, seats - 1)
    for t in range(seats):  # t co-players of my own strategy
        if t > same or seats - 1 - t > different:
            continue
        chance = math.comb(same, t) * math.comb(different, seats - 1 - t) / pool
        composition = np.zeros(game.strategies, dtype=np.int64)
        composition[me] += t + 1
        composition[other] += seats - 1 - t
        total += chance * game.payoffs[game.row_of(composition), me]
    return total


def alpha_rank(game: MetaGame, alpha: float = ALPHA, population: int = POPULATION) -> np.ndarray:
    """Single-population alpha-Rank scores: the stationary distribution over monomorphic
    populations of the Markov chain whose step from resident ``i`` to ``j`` has chance
    ``fixation_probability(i -> j) / (N - 1)``."""
    n = game.strategies
    if n == 1:
        return np.ones(1)
    transition = np.zeros((n, n))
    for resident in range(n):
        for mutant in range(n):
            if mutant != resident:
                transition[resident, mutant] = fixation_probability(
                    game, resident, mutant, alpha, population
                ) / (n - 1)
        transition[resident, resident] = 1.0 - transition[resident].sum()
    # pi (T - I) = 0 with sum(pi) = 1, as one least-squares system
    system = np.vstack([(transition - np.eye(n)).T, np.ones(n)])
    target = np.append(np.zeros(n), 1.0)
    scores, *_ = np.linalg.lstsq(system, target, rcond=None)
    scores = np.clip(scores, 0.0, None)
    return scores / scores.sum()
