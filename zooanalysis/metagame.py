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
- :func:`solve_equilibrium` finds a symmetric equilibrium: of exponential-weights replicator
  runs from the uniform mix and from near each pure strategy (last iterate, running
  average, best iterate, and a polish on the support by least squares), every pure
  strategy and the uniform mix, the candidate with the lowest NashConv, which it reports;
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
NEIGHBOURHOOD = 0.1
"""A run started near a pure strategy puts this much weight spread evenly over all."""
TIE = 1e-9
"""Candidate equilibria whose NashConv differ by less than this count as tied."""
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

    def expected_payoffs_many(self, mixes: np.ndarray) -> np.ndarray:
        """:meth:`expected_payoffs` of every row of ``mixes`` (one row per mix)."""
        log_mixes = np.log(np.maximum(np.asarray(mixes, dtype=float), 1e-300))
        chances = np.exp(self._log_coefficients[:, None] + self._others @ log_mixes.T)
        return (self._deviation.T @ chances).T

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
    """Which candidate was kept: ``last iterate``, ``average``, ``best iterate`` or
    ``polished`` (of a replicator run), ``pure strategy`` or ``uniform mix``."""
    trace: tuple[tuple[int, float, float], ...]
    """(iteration, NashConv of the last iterate, NashConv of the average) along the way of
    the replicator run from the uniform mix."""
    near: int | None = None
    """The strategy whose neighbourhood the kept run started from; None for the run from
    the uniform mix and for the pure and uniform candidates."""
    candidates: int = 0
    """How many candidate mixes were compared."""


@dataclass(frozen=True)
class Candidate:
    """A mix the solver considers, with where it came from and its NashConv."""

    method: str
    near: int | None
    weights: np.ndarray
    nash_conv: float


def solve_equilibrium(
    game: MetaGame, iterations: int = ITERATIONS, step: float | None = None
) -> Equilibrium:
    """A symmetric Nash equilibrium of ``game``: the best of several candidates.

    Exponential weights (the discrete replicator): ``x_i <- x_i exp(step * u_i(x))``,
    normalised; ``step`` defaults to :data:`STEP` times ``sqrt(8 log N / iterations)`` (the
    no-regret rate) over the range of the table's payoffs. Dynamics converge to strict
    equilibria and drive dominated strategies out, but may cycle (rock-paper-scissors),
    where their running average converges instead; the closer of the two is polished: the
    equal-payoff conditions on its support solved by least squares.

    One run from the uniform mix may miss an equilibrium (it lands in another's basin, or
    cycles near one), so the candidates are: the run from the uniform mix (its last
    iterate, average and polish, the closest of them; then its best iterate along the way),
    every pure strategy, the uniform mix, and a run started in every pure strategy's
    neighbourhood (:data:`NEIGHBOURHOOD` spread evenly over all strategies, the rest on it;
    its polished, last, average and best iterates). The candidate with the smallest NashConv is
    returned with that NashConv; candidates within :data:`TIE` of the smallest count as
    tied, and of those the first in the order just given is kept (so the run from the
    uniform mix keeps its answer unless another candidate is better by more than
    :data:`TIE`).
    """
    candidates, trace = equilibrium_candidates(game, iterations, step)
    kept = choose_candidate(candidates)
    return Equilibrium(
        kept.weights, kept.nash_conv, kept.method, tuple(trace), kept.near, len(candidates)
    )


def equilibrium_candidates(
    game: MetaGame, iterations: int = ITERATIONS, step: float | None = None
) -> tuple[list[Candidate], list[tuple[int, float, float]]]:
    """Every candidate :func:`solve_equilibrium` compares, in its order of preference on
    ties (the run from the uniform mix first), and the trace of the run from the uniform
    mix."""
    n = game.strategies
    spread = np.nanmax(game.payoffs) - np.nanmin(game.payoffs)
    scale = spread if spread > 0 else 1.0
    if step is None:
        step = STEP * math.sqrt(8 * max(math.log(n), 1.0) / iterations) / scale
    checkpoints = set(np.unique(np.geomspace(1, iterations, TRACE_POINTS).astype(int)).tolist())
    uniform = np.full(n, 1.0 / n)
    starts = np.vstack([uniform, _neighbourhoods(n)])
    last, average, best, trace = _replicator(game, starts, iterations, step, checkpoints)
    candidates = [_first_run(game, last[0], average[0])]
    candidates.append(_candidate(game, "best iterate", None, best[0]))
    for i in range(n):
        pure = np.zeros(n)
        pure[i] = 1.0
        candidates.append(_candidate(game, "pure strategy", None, pure))
    candidates.append(_candidate(game, "uniform mix", None, uniform))
    for i in range(n):
        run = [("last iterate", last[i + 1]), ("average", average[i + 1])]
        _, closest = min(run, key=lambda item: nash_conv(game, item[1]))
        polished = _polish(game, closest)
        if polished is not None:
            candidates.append(_candidate(game, "polished", i, polished))
        for method, mix in (*run, ("best iterate", best[i + 1])):
            candidates.append(_candidate(game, method, i, mix))
    return candidates, trace


def _neighbourhoods(n: int) -> np.ndarray:
    """One start per strategy: ``NEIGHBOURHOOD`` spread evenly over all strategies, the rest
    on it (a replicator cannot leave a pure strategy, so it starts beside it)."""
    return (1.0 - NEIGHBOURHOOD) * np.eye(n) + NEIGHBOURHOOD / n


def _candidate(game: MetaGame, method: str, near: int | None, mix: np.ndarray) -> Candidate:
    return Candidate(method, near, mix, nash_conv(game, mix))


def _first_run(game: MetaGame, last: np.ndarray, average: np.ndarray) -> Candidate:
    """The run from the uniform mix, as the single-start solver kept it: the closest of its
    last iterate, average, and the polish of the closer of those two."""
    run = [("last iterate", last), ("average", average)]
    _, base = min(run, key=lambda item: nash_conv(game, item[1]))
    polished = _polish(game, base)
    if polished is not None:
        run.append(("polished", polished))
    method, mix = min(run, key=lambda item: nash_conv(game, item[1]))
    return _candidate(game, method, None, mix)


def choose_candidate(candidates: list[Candidate]) -> Candidate:
    """The first candidate whose NashConv is within :data:`TIE` of the smallest."""
    lowest = min(candidate.nash_conv for candidate in candidates)
    return next(c for c in candidates if c.nash_conv <= lowest + TIE)


def _replicator(
    game: MetaGame, starts: np.ndarray, iterations: int, step: float, checkpoints: set[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, float, float]]]:
    """Exponential-weights runs from every row of ``starts`` at once: their last iterates,
    running averages and best iterates (smallest NashConv met, free from each step's
    payoffs), and the trace of the first run. The first run is computed exactly as the
    single-start solver did (the same floating-point operations), the others together."""
    first = starts[0]
    log_weights = np.log(first)
    log_weights -= log_weights.max()
    mix = first.copy()
    average = np.zeros(len(first))
    best, best_conv = first.copy(), math.inf
    others = starts[1:]
    many_log = np.log(others)
    many = others.copy()
    many_average = np.zeros(others.shape)
    many_best, many_conv = others.copy(), np.full(len(others), math.inf)
    trace = []
    for iteration in range(1, iterations + 1):
        average += (mix - average) / iteration
        payoff = game.expected_payoffs(mix)
        conv = max(0.0, float(payoff.max() - np.dot(mix, payoff)))
        if conv < best_conv:
            best, best_conv = mix.copy(), conv
        log_weights += step * payoff
        log_weights -= log_weights.max()
        mix = np.exp(log_weights)
        mix /= mix.sum()
        if len(others):
            many_average += (many - many_average) / iteration
            payoffs = game.expected_payoffs_many(many)
            convs = np.maximum(0.0, payoffs.max(axis=1) - (many * payoffs).sum(axis=1))
            better = convs < many_conv
            many_best[better] = many[better]
            many_conv[better] = convs[better]
            many_log += step * payoffs
            many_log -= many_log.max(axis=1, keepdims=True)
            many = np.exp(many_log)
            many /= many.sum(axis=1, keepdims=True)
        if iteration in checkpoints:
            trace.append((iteration, nash_conv(game, mix), nash_conv(game, average)))
    return (
        np.vstack([mix, many]),
        np.vstack([average, many_average]),
        np.vstack([best, many_best]),
        trace,
    )


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
