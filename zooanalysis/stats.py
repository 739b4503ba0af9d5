"""Win rates with confidence intervals, their display, and comparing two rates.

Intervals are Wilson score intervals: unlike the normal approximation they stay inside
[0, 1] and behave sensibly for rates near 0 or 1 and for few trials. They also serve win
shares (a game shared by k winners counts 1/k, so successes need not be whole): an outcome
in [0, 1] with mean p has a variance of at most p(1 - p), so the interval is conservative.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.numbers import format_count

RATE_COLUMNS = ("rate", "ci_low", "ci_high", "n")


def _z_for(confidence: float) -> float:
    """The two-sided standard normal quantile for ``confidence`` (1.959963... for 0.95)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z (``scipy.stats.norm.sf`` without importing scipy,
    whose import alone takes about a second at start-up)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def wilson_interval(
    successes: ArrayLike, trials: ArrayLike, confidence: float = 0.95
) -> tuple[Any, Any]:
    """The Wilson score interval ``(low, high)`` for ``successes`` out of ``trials``.

    Works element-wise on arrays (broadcasting) and returns floats for scalar inputs.
    Where ``trials`` is 0 both bounds are nan, without a warning. Raises ValueError for
    negative counts or more successes than trials.
    """
    z = _z_for(confidence)
    s = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    s, n = np.broadcast_arrays(s, n)
    if np.any(s < 0) or np.any(n < 0) or np.any(s > n):
        raise ValueError("successes and trials must satisfy 0 <= successes <= trials")
    empty = n == 0
    safe_n = np.where(empty, 1.0, n)
    z2 = z * z
    # The usual formula multiplied through by n: numerically stable and exact at s = 0, n.
    centre = (s + z2 / 2.0) / (safe_n + z2)
    half = z / (safe_n + z2) * np.sqrt(s * (safe_n - s) / safe_n + z2 / 4.0)
    low = np.clip(centre - half, 0.0, 1.0)
    high = np.clip(centre + half, 0.0, 1.0)
    low = np.where(s == 0, 0.0, low)
    high = np.where(s == n, 1.0, high)
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def rate_table(
    successes: ArrayLike | pd.Series, trials: ArrayLike | pd.Series, confidence: float = 0.95
) -> pd.DataFrame:
    """A table with columns ``rate, ci_low, ci_high, n``, one row per element.

    ``n`` is the number of trials; ``rate`` and the interval are nan where it is 0. If
    either input is a pandas Series its index is kept (two Series must share one index).
    """
    index = None
    if isinstance(successes, pd.Series) and isinstance(trials, pd.Series):
        if not successes.index.equals(trials.index):
            raise ValueError("successes and trials must have the same index")
        index = successes.index
    elif isinstance(successes, pd.Series):
        index = successes.index
    elif isinstance(trials, pd.Series):
        index = trials.index
    s = np.atleast_1d(np.asarray(successes))
    n = np.atleast_1d(np.asarray(trials))
    s, n = (np.array(a) for a in np.broadcast_arrays(s, n))  # writable copies
    low, high = wilson_interval(s, n, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(n == 0, np.nan, s / np.where(n == 0, 1, n))
    return pd.DataFrame(
        {"rate": rate, "ci_low": low, "ci_high": high, "n": n},
        index=index,
        columns=list(RATE_COLUMNS),
    )


def _rate_decimals(low: float, high: float) -> int:
    """Decimals (of a percentage) that make the interval readable: 1, 2, or 3 if very tight."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return 1
    half_width_points = (high - low) / 2.0 * 100.0
    if half_width_points >= 0.1:
        return 1
    if half_width_points >= 0.01:
        return 2
    return 3


def format_rate(rate: float, low: float, high: float, n: int) -> str:
    """A rate with its interval and sample size, e.g. ``27.1% [26.8%, 27.4%] (n=1,000,000)``.

    One decimal normally, two when the interval's half-width is under 0.1 percentage
    point (three under 0.01); ``n/a (n=0)`` when there is no rate.
    """
    return f"{rate_with_interval(rate, low, high)} (n={format_count(int(n))})"


def rate_with_interval(rate: float, low: float, high: float) -> str:
    """A rate with its interval, without its n (a line that gives n once for several
    rates): ``27.1% [26.8%, 27.4%]``, decimals as :func:`format_rate`; ``n/a`` when there
    is no rate."""
    if not math.isfinite(rate):
        return "n/a"
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{rate * 100:.1f}%"
    d = _rate_decimals(low, high)
    return f"{rate * 100:.{d}f}% [{low * 100:.{d}f}%, {high * 100:.{d}f}%]"


def two_proportion_test(s1: float, n1: float, s2: float, n2: float) -> float:
    """Two-sided p-value of the pooled two-proportion z-test that s1/n1 and s2/n2 are equal.

    Returns nan if either sample is empty, and 1.0 when the pooled rate is 0 or 1 (both
    samples all losses or all wins, so no evidence of a difference).
    """
    if n1 < 0 or n2 < 0 or not (0 <= s1 <= n1) or not (0 <= s2 <= n2):
        raise ValueError("each sample must satisfy 0 <= successes <= trials")
    if n1 == 0 or n2 == 0:
        return math.nan
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    if se == 0.0:
        return 1.0
    z = (s1 / n1 - s2 / n2) / se
    return float(min(1.0, 2.0 * normal_sf(abs(z))))


def same_games_difference(
    share_a: float, share_b: float, games: float, seats_a: int = 1, seats_b: int = 1
) -> tuple[float, float, float, float]:
    """``share_a - share_b`` with its 95% interval and two-sided p-value, for two groups of
    seats that played the same games (two cells of one multinomial draw per game).

    ``share_a`` is the mean win share per seat of a group of ``seats_a`` seats (a seat's
    share: 1/k of each game it won with k tied winners). Per game, the group's total share
    X_a lies in [0, 1] and X_a + X_b <= 1, so Var(X_a/m_a - X_b/m_b) <= share_a/m_a +
    share_b/m_b - difference²: exact for single seats without ties, conservative otherwise.
    Returns ``(difference, low, high, p)``; p is nan without games.
    """
    difference = share_a - share_b
    if games <= 0:
        return difference, math.nan, math.nan, math.nan
    variance = max(share_a / seats_a + share_b / seats_b - difference * difference, 0.0)
    se = math.sqrt(variance / games)
    z = 1.959963984540054
    if se == 0.0:
        p = 1.0 if difference == 0 else 0.0
    else:
        p = float(min(1.0, 2.0 * normal_sf(abs(difference) / se)))
    return difference, difference - z * se, difference + z * se, p


def share_test(share: float, reference: float, n: float) -> float:
    """Two-sided p-value of the score test that a share (or rate) over ``n`` trials equals
    ``reference``: the test whose acceptance region is the Wilson interval, so p < 0.05
    exactly when the 95% Wilson interval excludes ``reference``. Conservative for shares
    with ties (variance at most p(1 - p)). nan without trials."""
    if n <= 0 or not 0.0 < reference < 1.0:
        return math.nan
    z = (share - reference) / math.sqrt(reference * (1.0 - reference) / n)
    return float(min(1.0, 2.0 * normal_sf(abs(z))))


def cluster_interval(sums: ArrayLike, trials: ArrayLike) -> tuple[float, float, float]:
    """A share and its 95% interval when trials come in clusters that are not independent
    of each other inside (e.g. the games of one batch of deals, played by every lineup):
    the ratio of the totals, with the cluster-robust variance
    B/(B-1) * sum_b (S_b - p N_b)^2 / N^2 over the B clusters (S_b summed successes, N_b
    trials). nan bounds with fewer than two clusters."""
    s = np.asarray(sums, dtype=float)
    n = np.asarray(trials, dtype=float)
    total = n.sum()
    if total <= 0:
        return math.nan, math.nan, math.nan
    p = float(s.sum() / total)
    clusters = len(s)
    if clusters < 2:
        return p, math.nan, math.nan
    variance = clusters / (clusters - 1) * float(((s - p * n) ** 2).sum()) / total**2
    half = 1.959963984540054 * math.sqrt(variance)
    return p, max(0.0, p - half), min(1.0, p + half)


def clustered_rate(
    successes: float,
    trials: float,
    success_squares: float,
    trial_squares: float,
    cross: float,
    games: int,
) -> tuple[float, float, float, float]:
    """A rate over units that come several to a game (claims, hands, decisions), with a
    95% Wilson interval that allows for units of one game not being independent.

    From per-game sums (``successes`` = sum of x_g, ``trials`` = sum of n_g,
    ``success_squares`` = sum of x_g^2, ``trial_squares`` = sum of n_g^2, ``cross`` =
    sum of x_g n_g over the ``games`` games g) the rate p = sum x / sum n has the
    cluster-robust variance V = G/(G-1) sum_g (x_g - p n_g)^2 / N^2. Its design effect
    d = V / (p(1-p)/N), floored at 1 (never narrower than counting the units as
    independent), gives the effective number of units N/d, and the interval is Wilson's
    for the rate p at that effective n. Returns ``(rate, low, high, effective_n)``; nan
    bounds without trials, and an effective n of N with fewer than two games."""
    if trials <= 0:
        return math.nan, math.nan, math.nan, 0.0
    p = successes / trials
    design_effect = 1.0
    if games >= 2 and 0.0 < p < 1.0:
        spread = success_squares - 2.0 * p * cross + p * p * trial_squares
        variance = games / (games - 1) * max(0.0, spread) / trials**2
        design_effect = max(1.0, variance / (p * (1.0 - p) / trials))
    effective = trials / design_effect
    low, high = wilson_interval(p * effective, effective)
    return p, float(low), float(high), effective


def holm(p_values: ArrayLike) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (nan stays nan): reject where the adjusted p is
    below the level, and the chance of any false alarm among the tests stays below it."""
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full_like(p, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    order = valid[np.argsort(p[valid], kind="stable")]
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(order) - rank) * p[index]))
        adjusted[index] = running
    return adjusted


def moments(total: float, squares: float, n: float) -> tuple[float, float]:
    """Mean and sample variance (n - 1 in the denominator) from a sum and a sum of squares."""
    mean = total / n
    variance = max(0.0, squares / n - mean * mean) * n / max(1.0, n - 1)
    return mean, variance


def histogram_mean(histogram: pd.Series) -> tuple[float, float, float]:
    """Mean and 95% interval of a histogram given as counts indexed by value."""
    values = histogram.index.to_numpy(dtype=float)
    counts = histogram.to_numpy(dtype=float)
    total = float((values * counts).sum())
    squares = float((values * values * counts).sum())
    return mean_with_interval(total, squares, int(counts.sum()))


def mean_with_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval from a sum and a sum of squares."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean, variance = moments(total, squares, n)
    half = 1.959963984540054 * np.sqrt(variance / n)
    return mean, mean - half, mean + half
