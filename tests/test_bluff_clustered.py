"""Clustered intervals of Bluff in Zoo's bluff rate and doubt success.

The claims and doubts of one game share its players, hands and piles, so the summary's
intervals count games, not units, as independent (``stats.clustered_rate``). Both engines
keep, per game, each seat's units n and successes x and add their products by seat pair
into ``claim_moments`` and ``doubt_moments`` (the engines-agree tests compare them like every
count). Here: the tally on two games counted by hand, the run's clustered rates against the
per-game counts of the reference engine's records, an interval wider than Wilson's on a real
run, and a run written before the moments were kept.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from run_helpers import run_from_totals

import zooanalysis
from zooanalysis.games.bluff import counts, engine
from zooanalysis.games.bluff.analysis import BluffRun
from zooanalysis.games.bluff.batch import play_batch_reference
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.stats import clustered_rate, rate_with_interval, wilson_interval

LINEUP = "cautious,random,cautious"
"""Two seats of one strategy: its per-game counts are the sum of two seats'."""
SEED = 11
GAMES = 60


def record(claims: list[tuple[int, bool]], doubts: list[tuple[int, bool]]) -> engine.GameRecord:
    """A two-player game record with these (seat, true when made) claims and (doubter, claim
    held) doubts (counts, kinds and piles filled in; scores 0 and 3)."""
    return engine.GameRecord(
        scores=[0, 3],
        winners=[0],
        rounds=len(doubts),
        moves=len(claims) + len(doubts),
        end_reason=0,
        claims=[(seat, 1, 0, 1, 1, true) for seat, true in claims],
        doubts=[(doubter, 1 - doubter, 1, 0, 1, held, 1) for doubter, held in doubts],
        score_checks=[(0, (0, 3))],
    )


def test_moments_of_two_games_counted_by_hand() -> None:
    totals = counts.new_totals(2)
    # game 1: seat 0 claims 3 times (2 false), seat 1 twice (none false); seat 1 doubts once
    # and fails, seat 0 doubts once and succeeds
    counts.tally(
        record(
            [(0, False), (1, True), (0, False), (1, True), (0, True)], [(1, True), (0, False)]
        ),
        totals,
    )
    # game 2: seat 0 claims once (false), seat 1 three times (all false); seat 0 doubts
    # twice and succeeds twice
    counts.tally(record([(0, False), (1, False), (1, False), (1, False)], [(0, False)] * 2), totals)
    # claims: x = (2, 0) then (1, 3); n = (3, 2) then (1, 3)
    claims = totals["claim_moments"]
    np.testing.assert_array_equal(claims[:, :, 0], [[4 + 1, 0 + 3], [0 + 3, 0 + 9]])
    np.testing.assert_array_equal(claims[:, :, 1], [[9 + 1, 6 + 3], [6 + 3, 4 + 9]])
    np.testing.assert_array_equal(claims[:, :, 2], [[6 + 1, 4 + 3], [0 + 3, 0 + 9]])
    # doubts: x = (1, 0) then (2, 0); n = (1, 1) then (2, 0)
    doubts = totals["doubt_moments"]
    np.testing.assert_array_equal(doubts[:, :, 0], [[1 + 4, 0], [0, 0]])
    np.testing.assert_array_equal(doubts[:, :, 1], [[1 + 4, 1 + 0], [1 + 0, 1 + 0]])
    np.testing.assert_array_equal(doubts[:, :, 2], [[1 + 4, 1 + 0], [0, 0]])


@pytest.fixture(scope="module")
def reference_run() -> tuple[BluffRun, list[engine.GameRecord]]:
    """A run of GAMES reference-engine games (tables from their totals) and their records."""
    settings = BluffSettings(players=3)
    strategies = engine.lineup(LINEUP)
    totals, _ = play_batch_reference(settings, strategies, SEED, GAMES)
    records = [engine.play_game(settings, strategies, SEED, game) for game in range(GAMES)]
    return run_from_totals("bluff", LINEUP, settings, strategies, totals, GAMES), records


def per_game(records, unit: str, seats: set[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each game's successes and units of ``unit`` by these seats, from the records."""
    x, n = np.zeros(len(records)), np.zeros(len(records))
    for game, rec in enumerate(records):
        if unit == "claims":
            events = [(seat, not true) for seat, *_, true in rec.claims]
        else:
            events = [(doubter, not held) for doubter, *_, held, _ in rec.doubts]
        for seat, success in events:
            if seat in seats:
                n[game] += 1
                x[game] += success
    return x, n


@pytest.mark.parametrize("unit", ["claims", "doubts"])
def test_clustered_rates_are_those_of_the_games_counts(reference_run, unit: str) -> None:
    run, records = reference_run
    groups = {"all seats": ("all", {0, 1, 2}), "cautious": ("strategy", {0, 2})}
    groups["random"] = ("strategy", {1})
    for name, (by, seats) in groups.items():
        x, n = per_game(records, unit, seats)
        expected = clustered_rate(
            x.sum(), n.sum(), (x * x).sum(), (n * n).sum(), (x * n).sum(), GAMES
        )
        table = run.clustered_rates(unit, by)
        row = table.iloc[0] if by == "all" else table.loc[name]
        assert (row.rate, row.ci_low, row.ci_high, row.effective_n) == pytest.approx(expected)
        assert row.n == n.sum() and row.games == GAMES and row.clustered


def test_a_real_runs_intervals_are_wider_than_wilsons_and_say_so() -> None:
    run = zooanalysis.simulate("bluff", players="random*4", games=2000, seed=4, jobs=1)
    text = run.summary()
    # claims: a design effect above 1, so a wider interval than Wilson's over the claims
    row = run.clustered_rates("claims", "all").iloc[0]
    low, high = wilson_interval(row.rate * row.n, row.n)
    assert row.effective_n < row.n
    assert row.ci_high - row.ci_low > 1.2 * (high - low)
    assert row.ci_low < row.rate < row.ci_high
    # the random players' doubts are about independent (design effect at most 1): the
    # floor keeps Wilson's interval, never a narrower one
    doubts = run.clustered_rates("doubts", "all").iloc[0]
    assert doubts.effective_n == doubts.n
    for unit, heading in (("claims", "Bluff rate"), ("doubts", "Doubt success")):
        n = int(run.clustered_rates(unit, "all").iloc[0].n)
        assert f"(n={n:,} {unit} in 2,000 games)" in text.split(heading)[1]
    line = text.split("Bluff rate")[1].splitlines()[1]
    row = run.clustered_rates("claims").loc["random"]
    assert f"{rate_with_interval(row.rate, row.ci_low, row.ci_high)} (n=" in line


def test_a_run_without_the_moments_counts_units_as_independent(reference_run) -> None:
    run, _ = reference_run
    tables = {name: run.table(name) for name in run.table_names if name != "unit_moments"}
    old = BluffRun({**run.manifest, "tables": list(tables)}, tables)
    for unit in ("claims", "doubts"):
        row = old.clustered_rates(unit, "all").iloc[0]
        low, high = wilson_interval(row.rate * row.n, row.n)
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high))
        assert not row.clustered and row.effective_n == row.n
    text = old.summary()
    # all doubts, then by doubter and by claimant: cautious and random each
    assert text.count("counted as independent") == 5
    assert " games)" not in text.split("Doubt success")[1]
    assert math.isclose(
        old.clustered_rates("claims").loc["cautious", "rate"],
        run.clustered_rates("claims").loc["cautious", "rate"],
    )
