"""The pure part of BENCHMARKS.md's "Issue 13 targets" table (benchmarks/targets.py).

Hand-computed cases: medians and ranges of repeated measurements, the ratios of alternating
pairs, "met"/"not met" at and around each threshold in both directions, the noisy flag, the
machine's CPU use less the benchmark's own, and the labels of the rows. Nothing is timed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_targets():
    spec = importlib.util.spec_from_file_location("targets", ROOT / "benchmarks" / "targets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


targets = _load_targets()
QUIET = targets.Load(other_cores=0.2, cores=2, load_average=1.3)
BUSY = targets.Load(other_cores=1.2, cores=2, load_average=6.0)


def test_spread_is_median_and_range() -> None:
    measured = targets.spread([3.0, 1.0, 2.0, 10.0])
    assert measured.median == 2.5  # even count: the mean of the middle two
    assert (measured.low, measured.high) == (1.0, 10.0)
    assert targets.spread([4.0, 9.0, 5.0]).median == 5.0


def test_spread_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="no measurements"):
        targets.spread([])


def test_pairwise_ratios_divide_each_pair() -> None:
    # --jobs 1 walls over --jobs 2 walls, run in pairs
    assert targets.pairwise_ratios([4.0, 3.0, 5.0], [2.0, 2.0, 4.0]) == [2.0, 1.5, 1.25]
    assert targets.spread(targets.pairwise_ratios([4.0, 3.0, 5.0], [2.0, 2.0, 4.0])).median == 1.5


def test_pairwise_ratios_refuse_unpaired_or_zero() -> None:
    with pytest.raises(ValueError, match="denominators"):
        targets.pairwise_ratios([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="not positive"):
        targets.pairwise_ratios([1.0], [0.0])


def test_at_least_target_met_from_the_threshold_up() -> None:
    rate = targets.Target("rate", 100_000, True, "games/s")
    assert targets.is_met(rate, 100_000)
    assert targets.is_met(rate, 100_001)
    assert not targets.is_met(rate, 99_999.5)


def test_at_most_target_met_from_the_threshold_down() -> None:
    wall = targets.Target("start-up", 1.5, False, "s")
    assert targets.is_met(wall, 1.5)
    assert targets.is_met(wall, 1.2)
    assert not targets.is_met(wall, 1.51)


def test_noisy_above_half_of_each_core() -> None:
    assert not QUIET.noisy
    assert BUSY.noisy
    assert not targets.Load(1.0, 2, 0.0).noisy  # exactly half of each core: not above
    assert targets.Load(1.01, 2, 0.0).noisy
    assert targets.Load(0.6, 1, 0.0).noisy


def test_verdict_says_noisy_only_when_noisy() -> None:
    ratio = targets.Target("jobs", 1.8, True, "x")
    assert targets.verdict(ratio, 1.55, QUIET) == "not met"
    assert targets.verdict(ratio, 1.85, QUIET) == "met"
    assert targets.verdict(ratio, 1.85, BUSY) == "met, noisy"
    assert targets.verdict(ratio, 1.55, BUSY) == "not met, noisy"


def test_other_cores_subtracts_the_benchmarks_own_time() -> None:
    # the machine was busy 9 CPU-s over 5 s of wall time, 6 of them this benchmark's
    assert targets.other_cores(9.0, 6.0, 5.0) == pytest.approx(0.6)
    # clock granularity can make own time exceed the machine's: never below zero
    assert targets.other_cores(5.98, 6.0, 5.0) == 0.0
    with pytest.raises(ValueError, match="positive"):
        targets.other_cores(1.0, 0.0, 0.0)


def test_system_busy_seconds_reads_proc_stat(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 20 30 5000 400 5 6 7 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    ticks = targets.os.sysconf("SC_CLK_TCK")
    assert targets.system_busy_seconds(stat) == pytest.approx((100 + 20 + 30 + 5 + 6 + 7) / ticks)


def test_values_are_formatted_per_unit() -> None:
    assert targets.format_value(12345.4, "games/s") == "12,345 games/s"
    assert targets.format_value(1.524, "s") == "1.52 s"
    assert targets.format_value(0.7449, "x") == "0.74x"
    with pytest.raises(ValueError, match="unknown unit"):
        targets.format_value(1.0, "ms")


def test_target_row_gives_median_range_how_load_and_verdict() -> None:
    target = targets.Target("`--jobs 2` >= 1.8x `--jobs 1`", 1.8, True, "x")
    measured = targets.spread(targets.pairwise_ratios([3.9, 3.8, 4.0], [2.4, 2.0, 2.5]))
    row = targets.target_row(target, measured, "median of 3 pairs", QUIET)
    # ratios 1.625, 1.9, 1.6: median 1.625
    assert row == (
        "| `--jobs 2` >= 1.8x `--jobs 1` | 1.62x (range 1.60 to 1.90) | median of 3 pairs | "
        "0.20 of 2 cores (1-min load average 1.3) | not met |"
    )
    assert row.count("|") == targets.TABLE_HEADER[0].count("|")  # five cells


def test_target_row_of_one_measurement_has_no_range() -> None:
    target = targets.Target("rate", 60_000, True, "games/s")
    row = targets.target_row(target, targets.spread([61_000.0]), "one run", BUSY)
    assert "61,000 games/s |" in row and "range" not in row
    assert row.endswith("| met, noisy |")


def test_labels_name_the_default_lineup() -> None:
    default = "curious:guess=0*4"
    assert targets.lineup_label(default, default) == "the default lineup curious:guess=0*4"
    assert targets.lineup_label("curious*4", default) == "curious*4"
    assert targets.run_label(
        "Bluff in Zoo", "zoosim run --game bluff --games 1e6", "cautious*4", "cautious*4"
    ) == (
        "Bluff in Zoo (b) zoosim run --game bluff --games 1e6, the default lineup cautious*4 "
        "(2 cores, warm)"
    )


def test_how_names_the_count_of_measurements() -> None:
    assert targets.median_of(1, "run") == "one run"
    assert targets.median_of(3, "run") == "median of 3 runs"
    assert targets.median_of(5, "alternating pair") == "median of 5 alternating pairs"
