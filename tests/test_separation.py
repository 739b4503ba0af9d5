"""When a finding may name a winner: hand-made cases for the one shared decision, and the
statistics behind it (same-games differences, cluster intervals, the share test, Holm)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zooanalysis.separation import Estimate, against_reference, standout, versus
from zooanalysis.stats import (
    cluster_interval,
    holm,
    same_games_difference,
    share_test,
    wilson_interval,
)


def est(name: str, value: float, half: float = 0.0) -> Estimate:
    return Estimate(name, value, value - half, value + half)


def names(level) -> list[str]:
    return [e.name for e in level]


def test_a_clear_leader_is_named() -> None:
    best = standout([est("b", 0.30, 0.05), est("a", 0.50, 0.05), est("c", 0.10, 0.02)])
    assert best.clear and best.top.name == "a" and names(best.level) == ["a"]


def test_overlapping_intervals_are_no_measurable_difference() -> None:
    """The issue's flamingo case: 36.2% against 36.1% with intervals of +-0.4 points."""
    best = standout([est("flamingo", 0.362, 0.004), est("lion", 0.361, 0.004),
                     est("fox", 0.30, 0.004)])  # fmt: skip
    assert not best.clear
    assert names(best.level) == ["flamingo", "lion"]  # fox is measurably behind both


def test_lowest_is_symmetric() -> None:
    worst = standout([est("a", 0.5, 0.01), est("b", 0.2, 0.01), est("c", 0.21, 0.01)],
                     highest=False)  # fmt: skip
    assert not worst.clear and names(worst.level) == ["b", "c"]
    worst = standout([est("a", 0.5, 0.01), est("b", 0.2, 0.01)], highest=False)
    assert worst.clear and worst.top.name == "b"


def test_a_test_can_separate_what_intervals_do_not() -> None:
    """Overlapping intervals, but a paired test that rejects even after Holm's correction."""
    estimates = [est("a", 0.51, 0.02), est("b", 0.50, 0.02), est("c", 0.49, 0.02)]
    assert not standout(estimates).clear
    best = standout(estimates, p_value=lambda top, other: 1e-6)
    assert best.clear and best.top.name == "a"


def test_holm_keeps_borderline_tests_from_naming_a_leader() -> None:
    """Three comparisons at p = 0.02: each would pass at 5% alone, none after Holm."""
    estimates = [est("a", 0.51, 0.02), est("b", 0.50, 0.02), est("c", 0.50, 0.02),
                 est("d", 0.50, 0.02)]  # fmt: skip
    best = standout(estimates, p_value=lambda top, other: 0.02)
    assert not best.clear and len(best.level) == 4
    one = standout(estimates[:2], p_value=lambda top, other: 0.02)
    assert one.clear  # a single comparison at 2% does separate


def test_exact_values_separate_unless_equal_and_nan_is_left_out() -> None:
    assert standout([est("fox", 0.001), est("lion", 0.0)]).clear
    tied = standout([est("fox", 0.001), est("lion", 0.001), est("gap", math.nan)])
    assert names(tied.level) == ["fox", "lion"]
    with pytest.raises(ValueError):
        standout([est("gap", math.nan)])


def test_versus_a_reference() -> None:
    assert versus(est("s", 0.30, 0.02), 0.25) == 1
    assert versus(est("s", 0.20, 0.02), 0.25) == -1
    assert versus(est("s", 0.26, 0.02), 0.25) == 0
    # against_reference corrects for the number of seats named at once
    seats = [est(str(i), 0.26, 0.009) for i in range(4)]
    assert against_reference(seats, 0.25, [0.03] * 4) == [0, 0, 0, 0]
    assert against_reference(seats[:1], 0.25, [0.03]) == [1]
    assert against_reference(seats, 0.25, [0.001, 0.5, 0.5, 0.5]) == [1, 0, 0, 0]


def test_share_test_rejects_exactly_when_wilson_excludes() -> None:
    for successes in (200, 230, 250, 270, 300):
        low, high = wilson_interval(successes, 1000)
        excluded = not (low <= 0.25 <= high)
        assert (share_test(successes / 1000, 0.25, 1000) < 0.05) == excluded
    assert math.isnan(share_test(0.3, 0.25, 0))


def test_holm_by_hand() -> None:
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03, np.nan]), [0.03, 0.06, 0.06, np.nan])


def test_same_games_difference_by_hand() -> None:
    difference, low, high, p = same_games_difference(0.3, 0.2, 1000)
    half = 1.959963984540054 * math.sqrt((0.3 + 0.2 - 0.01) / 1000)
    assert difference == pytest.approx(0.1)
    assert (low, high) == pytest.approx((0.1 - half, 0.1 + half))
    assert p < 1e-5
    assert same_games_difference(0.25, 0.25, 1000)[3] == pytest.approx(1.0)
    # groups of seats: per-seat shares of a 2-seat and a 1-seat group
    _, low2, high2, _ = same_games_difference(0.3, 0.2, 1000, seats_a=2)
    assert high2 - low2 < high - low


def test_same_games_difference_matches_multinomial_games() -> None:
    """Without ties the variance is exact: the interval covers the true difference about
    95% of the time over many simulated runs of one multinomial draw per game."""
    rng = np.random.default_rng(4)
    probabilities = np.array([0.3, 0.3, 0.25, 0.15])
    covered = 0
    runs = 400
    for _ in range(runs):
        winners = rng.choice(4, size=2000, p=probabilities)
        shares = np.bincount(winners, minlength=4) / 2000
        _, low, high, _ = same_games_difference(shares[0], shares[2], 2000)
        covered += low <= 0.05 <= high
    assert 0.92 * runs <= covered <= 0.98 * runs


def test_cluster_interval_by_hand() -> None:
    share, low, high = cluster_interval([1, 2, 3], [10, 10, 10])
    half = 1.959963984540054 * math.sqrt(3 / 2 * 2 / 900)
    assert share == pytest.approx(0.2)
    assert (low, high) == pytest.approx((0.2 - half, 0.2 + half))
    assert math.isnan(cluster_interval([1], [10])[1])
