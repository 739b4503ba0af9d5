"""Tests for Wilson intervals, rate tables, rate formatting and the two-proportion test."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zooanalysis import stats
from zooanalysis.stats import format_rate, rate_table, two_proportion_test, wilson_interval

Z95 = 1.959963984540054  # standard normal 97.5% quantile


def closed_form_wilson(s: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The textbook Wilson formula, written independently of the implementation."""
    p = s / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize(
    ("s", "n", "low", "high"),
    [
        # hand-computed from the closed form
        (0, 10, 0.0, 0.2775328),
        (5, 10, 0.2365931, 0.7634069),
        (10, 10, 0.7224672, 1.0),
        (81, 100, 0.7222115, 0.8748525),
        # published values: Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
    ],
)
def test_known_wilson_intervals(s: int, n: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(s, n)
    assert isinstance(got_low, float)
    assert isinstance(got_high, float)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize(("s", "n"), [(0, 10), (5, 10), (10, 10), (81, 100), (3, 7), (1, 1)])
def test_matches_closed_form(s: int, n: int) -> None:
    expected = closed_form_wilson(s, n)
    assert wilson_interval(s, n) == pytest.approx(expected, abs=1e-12)


def test_five_of_ten_is_symmetric_about_half() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert low + high == pytest.approx(1.0, abs=1e-12)


def test_extremes_are_exact() -> None:
    assert wilson_interval(0, 1000)[0] == 0.0
    assert wilson_interval(1000, 1000)[1] == 1.0


def test_vectorised_and_broadcast() -> None:
    s = np.array([0, 5, 10, 81])
    n = np.array([10, 10, 10, 100])
    low, high = wilson_interval(s, n)
    assert isinstance(low, np.ndarray)
    assert low.shape == (4,)
    for i in range(4):
        assert (low[i], high[i]) == pytest.approx(wilson_interval(int(s[i]), int(n[i])))
    low_b, high_b = wilson_interval(np.array([[1], [2]]), np.array([10, 20, 30]))
    assert low_b.shape == high_b.shape == (2, 3)
    assert low_b[1, 2] == pytest.approx(wilson_interval(2, 30)[0])


def test_zero_trials_give_nan_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(math.isnan(x) for x in wilson_interval(0, 0))
        low, high = wilson_interval(np.array([0, 3]), np.array([0, 6]))
    assert math.isnan(low[0])
    assert math.isnan(high[0])
    assert low[1] == pytest.approx(wilson_interval(3, 6)[0])


def test_confidence_level() -> None:
    low95, high95 = wilson_interval(30, 100)
    low99, high99 = wilson_interval(30, 100, confidence=0.99)
    assert low99 < low95 < 0.3 < high95 < high99
    z99 = 2.5758293035489004
    assert (low99, high99) == pytest.approx(closed_form_wilson(30, 100, z99), abs=1e-12)


@pytest.mark.parametrize("confidence", [0.0, 1.0, -0.5, 95])
def test_bad_confidence(confidence: float) -> None:
    with pytest.raises(ValueError, match="confidence"):
        wilson_interval(1, 2, confidence)


@pytest.mark.parametrize(("s", "n"), [(11, 10), (-1, 10), (0, -1)])
def test_impossible_counts(s: int, n: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(s, n)


@given(
    st.integers(min_value=1, max_value=10**9).flatmap(
        lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
    )
)
def test_interval_contains_estimate(sn: tuple[int, int]) -> None:
    s, n = sn
    low, high = wilson_interval(s, n)
    p_hat = s / n
    assert 0.0 <= low <= p_hat <= high <= 1.0
    exp_low, exp_high = closed_form_wilson(s, n)
    assert low == pytest.approx(max(exp_low, 0.0), abs=1e-9)
    assert high == pytest.approx(min(exp_high, 1.0), abs=1e-9)


@given(
    st.integers(min_value=1, max_value=10_000).flatmap(
        lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
    ),
    st.floats(min_value=0.5, max_value=0.999),
)
def test_higher_confidence_is_wider(sn: tuple[int, int], confidence: float) -> None:
    s, n = sn
    low, high = wilson_interval(s, n, confidence)
    low2, high2 = wilson_interval(s, n, min(0.9999, confidence + 1e-4))
    assert low2 <= low + 1e-15
    assert high2 >= high - 1e-15


def test_rate_table_columns_and_values() -> None:
    table = rate_table([5, 0, 81], [10, 0, 100])
    assert list(table.columns) == ["rate", "ci_low", "ci_high", "n"]
    assert list(table.index) == [0, 1, 2]
    assert table["rate"].iloc[0] == 0.5
    assert math.isnan(table["rate"].iloc[1])
    assert math.isnan(table["ci_low"].iloc[1])
    assert table["rate"].iloc[2] == pytest.approx(0.81)
    assert table["ci_low"].iloc[2] == pytest.approx(0.7222115, abs=1e-7)
    assert table["ci_high"].iloc[2] == pytest.approx(0.8748525, abs=1e-7)
    assert list(table["n"]) == [10, 0, 100]
    assert pd.api.types.is_integer_dtype(table["n"])


def test_rate_table_keeps_series_index() -> None:
    wins = pd.Series([3, 7], index=pd.Index(["bayes", "random"], name="strategy"))
    table = rate_table(wins, [10, 10])
    assert list(table.index) == ["bayes", "random"]
    assert table.index.name == "strategy"
    assert table.loc["random", "rate"] == pytest.approx(0.7)
    games = pd.Series([10, 20], index=["a", "b"])
    assert list(rate_table([1, 2], games).index) == ["a", "b"]
    both = rate_table(pd.Series([1, 2], index=["a", "b"]), games)
    assert both.loc["b", "rate"] == pytest.approx(0.1)


def test_rate_table_mismatched_series() -> None:
    with pytest.raises(ValueError, match="index"):
        rate_table(pd.Series([1], index=["a"]), pd.Series([2], index=["b"]))


def test_rate_table_scalars_give_one_row() -> None:
    table = rate_table(271_000, 1_000_000)
    assert len(table) == 1
    assert table["rate"].iloc[0] == pytest.approx(0.271)


def test_format_rate_one_decimal() -> None:
    assert format_rate(0.271, 0.268, 0.274, 1_000_000) == "27.1% [26.8%, 27.4%] (n=1,000,000)"
    low, high = wilson_interval(5, 10)
    assert format_rate(0.5, low, high, 10) == "50.0% [23.7%, 76.3%] (n=10)"


def test_format_rate_two_decimals_when_tight() -> None:
    # half-width about 0.087 percentage points -> two decimals
    low, high = wilson_interval(271_000, 1_000_000)
    assert format_rate(0.271, low, high, 1_000_000) == "27.10% [27.01%, 27.19%] (n=1,000,000)"


def test_format_rate_three_decimals_when_very_tight() -> None:
    low, high = wilson_interval(500_000_000, 1_000_000_000)
    assert format_rate(0.5, low, high, 1_000_000_000) == (
        "50.000% [49.997%, 50.003%] (n=1,000,000,000)"
    )


def test_format_rate_without_games() -> None:
    assert format_rate(math.nan, math.nan, math.nan, 0) == "n/a (n=0)"


def test_two_proportion_test_by_hand() -> None:
    # 50/100 vs 60/100: pooled 0.55, se = sqrt(0.55*0.45*(2/100)), z = -0.1/se
    z = 0.1 / math.sqrt(0.55 * 0.45 * 0.02)
    expected = math.erfc(z / math.sqrt(2))
    assert two_proportion_test(50, 100, 60, 100) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(0.1552, abs=1e-4)


def test_two_proportion_test_matches_chi_square() -> None:
    from scipy.stats import chi2_contingency

    s1, n1, s2, n2 = 2710, 10_000, 2600, 10_000
    table = [[s1, n1 - s1], [s2, n2 - s2]]
    chi_p = chi2_contingency(table, correction=False)[1]
    assert two_proportion_test(s1, n1, s2, n2) == pytest.approx(chi_p, rel=1e-9)


def test_two_proportion_test_edges() -> None:
    assert two_proportion_test(5, 10, 5, 10) == pytest.approx(1.0)
    assert two_proportion_test(30, 100, 60, 100) == two_proportion_test(60, 100, 30, 100)
    assert two_proportion_test(0, 10, 0, 20) == 1.0
    assert two_proportion_test(10, 10, 20, 20) == 1.0
    assert math.isnan(two_proportion_test(0, 0, 3, 10))
    assert two_proportion_test(100, 1000, 500, 1000) < 1e-50
    with pytest.raises(ValueError):
        two_proportion_test(11, 10, 3, 10)


def test_clustered_rate_of_independent_units_is_wilson() -> None:
    # Every game has one unit: the design effect is about 1 and the interval is Wilson's.
    rng = np.random.default_rng(5)
    x = (rng.random(4000) < 0.3).astype(float)
    n = np.ones_like(x)
    rate, low, high, effective = stats.clustered_rate(
        x.sum(), n.sum(), (x * x).sum(), (n * n).sum(), (x * n).sum(), len(x)
    )
    assert rate == pytest.approx(x.mean())
    assert effective == pytest.approx(len(x), rel=1e-3)
    assert (low, high) == pytest.approx(stats.wilson_interval(x.sum(), n.sum()), abs=1e-5)


def test_clustered_rate_widens_for_units_that_move_together() -> None:
    # 10 units a game, all successes or all failures: 1,000 games carry only 1,000 units of
    # information, not 10,000, so the interval is Wilson's for 1,000 units by hand.
    x = np.array([10.0] * 400 + [0.0] * 600)
    n = np.full(1000, 10.0)
    rate, low, high, effective = stats.clustered_rate(
        x.sum(), n.sum(), (x * x).sum(), (n * n).sum(), (x * n).sum(), len(x)
    )
    assert rate == pytest.approx(0.4)
    # V = G/(G-1) * sum (x - p n)^2 / N^2 = 1000/999 * (400*36 + 600*16) / 1e8
    assert effective == pytest.approx(10000 / (1000 / 999 * 24000 / 1e8 / (0.24 / 10000)))
    assert (low, high) == pytest.approx(stats.wilson_interval(0.4 * effective, effective))
    independent_low, independent_high = stats.wilson_interval(4000, 10000)
    assert high - low > 3 * (independent_high - independent_low)


def test_clustered_rate_edges() -> None:
    assert all(math.isnan(v) for v in stats.clustered_rate(0, 0, 0, 0, 0, 0)[:3])
    # One game: no spread to measure, counted as independent units.
    assert stats.clustered_rate(3, 10, 9, 100, 30, 1)[3] == 10
    # All successes: Wilson's exact upper bound 1.
    assert stats.clustered_rate(20, 20, 200, 200, 200, 2)[2] == 1.0
