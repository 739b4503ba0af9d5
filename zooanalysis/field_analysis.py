"""From a field's counts to its meta-game, its equilibrium and alpha-Rank, with intervals.

A field run keeps, for every composition (multiset of strategies at the table) and every
batch of deals, each strategy's win-share units and seat-games. Batch ``b`` of every
lineup plays the same deals, so the batches are the clusters of a bootstrap: a replicate
draws batches with replacement, the same draw for every composition, rebuilds the payoff
table and solves it again with the same solver (the same candidates and the same rule for
keeping one: :func:`~zooanalysis.metagame.solve_equilibrium`). The spread of the
replicates' equilibrium weights, alpha-Rank scores and payoffs against the mix gives their
95% intervals (percentiles); the NashConv interval is that of the point estimate's mix over
the replicates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from zooanalysis.metagame import (
    ALPHA,
    ITERATIONS,
    POPULATION,
    MetaGame,
    alpha_rank,
    gains,
    mix_value,
    nash_conv,
    solve_equilibrium,
)
from zooanalysis.stats import cluster_interval

BOOTSTRAP = 100
"""Bootstrap replicates for the intervals of weights, scores and payoffs."""
BOOTSTRAP_ITERATIONS = 1500
"""Replicator steps per bootstrap replicate (each is polished too)."""
IN_SUPPORT = 1e-3
"""An equilibrium weight above this counts as playing the strategy."""


def meta_game(counts: np.ndarray, shares: np.ndarray, seat_games: np.ndarray) -> MetaGame:
    """The meta-game from summed counts: ``shares[c, i] / seat_games[c, i]`` is the payoff
    of strategy ``i`` in composition ``c`` (shares already divided into win shares)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        payoffs = np.where(seat_games > 0, shares / np.maximum(seat_games, 1), np.nan)
    return MetaGame(counts, payoffs)


@dataclass(frozen=True)
class FieldAnalysis:
    """Everything a field's tables say, computed from its counts."""

    game: MetaGame
    weights: np.ndarray
    method: str
    """Which candidate the solver kept (and the start of its run, if not the uniform mix)."""
    nash_conv: float
    trace: tuple[tuple[int, float, float], ...]
    alpha_scores: np.ndarray
    strategies: pd.DataFrame
    payoffs: pd.DataFrame
    convergence: pd.DataFrame


def analyse(
    counts: np.ndarray,
    batch_shares: np.ndarray,
    batch_seat_games: np.ndarray,
    labels: Sequence[str],
    seed: int,
    replicates: int = BOOTSTRAP,
    alpha: float = ALPHA,
    population: int = POPULATION,
    iterations: int = ITERATIONS,
) -> FieldAnalysis:
    """Solve the field's meta-game and bootstrap it.

    ``batch_shares[c, b, i]`` and ``batch_seat_games[c, b, i]``: win shares (not units) and
    seat-games of strategy ``i`` in composition ``c`` and batch ``b``.
    """
    shares = batch_shares.sum(axis=1)
    seat_games = batch_seat_games.sum(axis=1)
    game = meta_game(counts, shares, seat_games)
    solved = solve_equilibrium(game, iterations)
    scores = alpha_rank(game, alpha, population)
    weights = solved.weights
    draws = _bootstrap(
        counts, batch_shares, batch_seat_games, weights, seed, replicates, alpha, population
    )
    strategies = _strategy_table(game, weights, scores, draws, labels)
    payoffs = payoff_table(counts, batch_shares, batch_seat_games, labels)
    widths = np.zeros(counts.shape)
    index = {label: i for i, label in enumerate(labels)}
    for row in payoffs.itertuples():
        widths[row.composition, index[row.strategy]] = np.nan_to_num((row.ci_high - row.ci_low) / 2)
    strategies["same_as"] = [
        ", ".join(labels[j] for j in twins) for twins in interchangeable(game, widths)
    ]
    convergence = pd.DataFrame(
        solved.trace, columns=["iteration", "nash_conv_last", "nash_conv_average"]
    )
    method = solved.method
    if solved.near is not None:
        method += f", run started near {labels[solved.near]}"
    return FieldAnalysis(
        game, weights, method, solved.nash_conv, solved.trace, scores, strategies,
        payoffs, convergence,
    )  # fmt: skip


def _bootstrap(
    counts, batch_shares, batch_seat_games, weights, seed, replicates, alpha, population
) -> dict[str, np.ndarray]:
    """Replicates of the weights, alpha-Rank scores, payoffs against the point estimate's
    mix and NashConv of that mix (batches drawn with replacement, the same draw for every
    composition: they share their deals)."""
    batches = batch_shares.shape[1]
    rng = np.random.default_rng([seed, 18])
    found: dict[str, list[np.ndarray]] = {
        "weights": [], "alpha": [], "payoff": [], "gain": [], "nash_conv": []
    }  # fmt: skip
    if batches < 2:
        return {key: np.empty((0, len(weights))) for key in found}
    for _ in range(replicates):
        pick = rng.integers(0, batches, size=batches)
        game = meta_game(
            counts, batch_shares[:, pick].sum(axis=1), batch_seat_games[:, pick].sum(axis=1)
        )
        found["weights"].append(solve_equilibrium(game, BOOTSTRAP_ITERATIONS).weights)
        found["alpha"].append(alpha_rank(game, alpha, population))
        found["payoff"].append(game.expected_payoffs(weights))
        found["gain"].append(gains(game, weights))
        found["nash_conv"].append(np.array([nash_conv(game, weights)]))
    return {key: np.array(values) for key, values in found.items()}


def interchangeable(game: MetaGame, widths: np.ndarray | None = None) -> list[list[int]]:
    """For each strategy, the others it cannot be told from: swapping the two changes no
    payoff of the meta-game by more than the two payoffs' interval half-widths
    (``widths[row, i]``; none given: exactly equal, as when they played alike on every
    deal). Between such strategies the data do not determine an equilibrium's split."""
    widths = np.zeros(game.payoffs.shape) if widths is None else widths
    n = game.strategies
    twins: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            same = True
            for row, composition in enumerate(game.counts):
                swapped = composition.copy()
                swapped[i], swapped[j] = composition[j], composition[i]
                other = game.row_of(swapped)
                for a, b in ((i, j), (j, i)):
                    slack = widths[row, a] + widths[other, b]
                    if composition[a] and not _close(
                        game.payoffs[row, a], game.payoffs[other, b], slack
                    ):
                        same = False
                for k in range(n):
                    if k in (i, j) or not composition[k]:
                        continue
                    slack = widths[row, k] + widths[other, k]
                    if not _close(game.payoffs[row, k], game.payoffs[other, k], slack):
                        same = False
                if not same:
                    break
            if same:
                twins[i].append(j)
                twins[j].append(i)
    return twins


def _close(a: float, b: float, slack: float = 0.0) -> bool:
    return abs(a - b) <= slack + 1e-12


def _interval(draws: np.ndarray, column: int) -> tuple[float, float]:
    """The 2.5 and 97.5 percentiles of a column of replicates (nan without any)."""
    if len(draws) == 0:
        return np.nan, np.nan
    low, high = np.percentile(draws[:, column], [2.5, 97.5])
    return _rounded(low), _rounded(high)


def _rounded(value: float) -> float:
    """A weight or score to 9 decimals: solver noise below that separates nothing."""
    return float(round(float(value), 9))


def _strategy_table(
    game: MetaGame, weights, scores, draws: dict[str, np.ndarray], labels: Sequence[str]
) -> pd.DataFrame:
    """One row per strategy: equilibrium weight, alpha-Rank score, payoff against the
    equilibrium mix and gain over the mix, each with its 95% bootstrap interval."""
    payoff = game.expected_payoffs(weights)
    value = mix_value(game, weights)
    rows = []
    for i, label in enumerate(labels):
        rows.append(
            {
                "strategy": label,
                "weight": _rounded(weights[i]),
                "weight_ci_low": _interval(draws["weights"], i)[0],
                "weight_ci_high": _interval(draws["weights"], i)[1],
                "alpha_rank": _rounded(scores[i]),
                "alpha_rank_ci_low": _interval(draws["alpha"], i)[0],
                "alpha_rank_ci_high": _interval(draws["alpha"], i)[1],
                "payoff_vs_mix": float(payoff[i]),
                "payoff_ci_low": _interval(draws["payoff"], i)[0],
                "payoff_ci_high": _interval(draws["payoff"], i)[1],
                "gain_vs_mix": float(payoff[i] - value),
                "gain_ci_low": _interval(draws["gain"], i)[0],
                "gain_ci_high": _interval(draws["gain"], i)[1],
                "fair_share": 1.0 / game.seats,
            }
        )
    table = pd.DataFrame(rows)
    point = nash_conv(game, weights)
    table.attrs["nash_conv_interval"] = nash_conv_interval(point, *_interval(draws["nash_conv"], 0))
    return table


def nash_conv_interval(point: float, low: float, high: float) -> tuple[float, float]:
    """NashConv's 95% interval from its bootstrap percentiles ``low, high``, made to contain
    the point. NashConv is at least 0 and the solver drives it to (near) 0 on the measured
    game, while every replicate measures the same mix on a resampled game, where it can only
    look worse: the percentile interval then lies above its own point (``0.000 [0.001,
    0.126]``), the known failure of percentile intervals at a boundary. Then the interval is
    ``[0, high]``: 0 is a bound NashConv never crosses and ``high`` a one-sided 97.5% upper
    bound, so it covers at least 95%. Otherwise the percentiles stand."""
    if not (pd.isna(point) or pd.isna(low)) and point < low:
        return 0.0, high
    return low, high


def payoff_table(
    counts: np.ndarray,
    batch_shares: np.ndarray,
    batch_seat_games: np.ndarray,
    labels: Sequence[str],
) -> pd.DataFrame:
    """The meta-game itself: every composition and strategy in it with its win share per
    seat-game and the cluster-robust 95% interval over batches of deals."""
    rows = []
    for c, composition in enumerate(counts):
        name = composition_label(composition, labels)
        for i in np.flatnonzero(composition):
            share, low, high = cluster_interval(batch_shares[c, :, i], batch_seat_games[c, :, i])
            rows.append(
                {
                    "composition": c,
                    "lineup": name,
                    "strategy": labels[i],
                    "seats": int(composition[i]),
                    "share": share,
                    "ci_low": low,
                    "ci_high": high,
                    "n": int(batch_seat_games[c, :, i].sum()),
                }
            )
    return pd.DataFrame(rows)


def composition_label(composition: Sequence[int], labels: Sequence[str]) -> str:
    """``bayes*2 + random*2`` for a composition (seats per strategy)."""
    parts = []
    for i, count in enumerate(composition):
        if count:
            parts.append(labels[i] if count == 1 else f"{labels[i]}*{int(count)}")
    return " + ".join(parts)


def field_arrays(field) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The field's compositions and its (composition, batch, strategy) win shares and
    seat-games, rebuilt from its ``batches`` table."""
    labels = list(field.manifest["population"])
    counts = field.table("compositions")[labels].to_numpy(dtype=np.int64)
    table = field.table("batches")
    batches = int(field.manifest["batches"])
    shape = (len(counts), batches, len(labels))
    shares = np.zeros(shape)
    seat_games = np.zeros(shape)
    index = table["strategy"].map({label: i for i, label in enumerate(labels)}).to_numpy()
    composition = table["composition"].to_numpy()
    batch = table["batch"].to_numpy()
    shares[composition, batch, index] = (
        table["share_units"].to_numpy() / field.manifest["share_unit"]
    )
    seat_games[composition, batch, index] = table["seat_games"].to_numpy()
    return counts, shares, seat_games
