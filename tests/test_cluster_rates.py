"""cluster_rates: a rate over units of several games printed with its clustered interval, or
with the independent one (and saying so) for a folder without the per-game sums."""

from __future__ import annotations

import pytest

from zooanalysis.cluster_rates import clustered_row, format_clustered, interval_note
from zooanalysis.stats import wilson_interval


def test_two_games_by_hand() -> None:
    # game 1: 3 successes of 4 units, game 2: 1 of 6; p = 4/10
    # spread = sum (x - p n)^2 = (3 - 1.6)^2 + (1 - 2.4)^2 = 3.92
    # V = 2/1 * 3.92 / 100 = 0.0784; independent p(1-p)/N = 0.024; design effect 3.2667
    row = clustered_row(4, 10, 3**2 + 1**2, 4**2 + 6**2, 3 * 4 + 1 * 6, 2)
    assert row["clustered"] and row["rate"] == pytest.approx(0.4) and row["n"] == 10
    assert row["effective_n"] == pytest.approx(10 / (0.0784 / 0.024))
    low, high = wilson_interval(0.4 * row["effective_n"], row["effective_n"])
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
    assert format_clustered(row, 2).endswith("(n=10 in 2 games)")


def test_without_the_sums_the_interval_is_wilsons_and_the_text_has_no_games() -> None:
    row = clustered_row(4, 10, None, None, None, 2)
    assert not row["clustered"] and row["effective_n"] == 10
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_interval(4, 10))
    assert format_clustered(row, 2).endswith("(n=10)")


def test_the_note_says_which_interval() -> None:
    assert "allow for the hands of one game being correlated" in interval_note("hands", True)
    assert "count the hands as independent" in interval_note("hands", False)
