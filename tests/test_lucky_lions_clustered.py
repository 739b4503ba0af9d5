"""Clustered intervals of Lucky Lions' rates over rolls: the shown cards' results, the die
sizes' shares and the mean die size.

The cards shown in one game share its dice and players, so these intervals count games, not
rolls, as independent (``stats.clustered_rate``). Both engines add a game's roll counts'
products into ``shown_moments``, ``die_moments`` and ``roll_moments`` at its end (the
engines-agree tests compare them like every count). Here: the tally of two games counted by
hand, the run's intervals against the reference engine's per-game counts, intervals wider
than the independent ones on a real run, and a run written before the moments were kept.
"""

from __future__ import annotations

import numpy as np
import pytest
from run_helpers import run_from_totals

import zooanalysis
from zooanalysis.games.lucky_lions import counts, engine
from zooanalysis.games.lucky_lions.analysis import LuckyLionsRun
from zooanalysis.games.lucky_lions.batch import play_batch_reference
from zooanalysis.games.lucky_lions.game import CARD_TYPE_NAMES
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.stats import clustered_rate, mean_with_interval, wilson_interval

LINEUP = "greedy,random,greedy"
SEED = 21
GAMES = 80
WON, TIED, LOST = 0, 1, 2


def record(rolls: list[tuple[int, int, int]]) -> engine.GameRecord:
    """A two-player game record with these (die size, shown type, result) rolls."""
    return engine.GameRecord(scores=[3, 1], winners=[0], turns=2, cards_won=[1, 0], rolls=rolls)


def test_moments_of_two_games_counted_by_hand() -> None:
    totals = counts.new_totals(2)
    counts.tally(record([(6, 0, WON), (6, 1, LOST), (5, 0, TIED), (5, 1, TIED)]), totals)
    counts.tally(record([(6, 0, LOST), (4, 0, WON), (6, 1, WON)]), totals)
    # type 0: (won, tied, lost, shown) = (1, 1, 0, 2) then (1, 0, 1, 2)
    # type 1: (0, 1, 1, 2) then (1, 0, 0, 1)
    # columns: won^2, tied^2, lost^2, shown^2, won x shown, tied x shown, lost x shown
    np.testing.assert_array_equal(totals["shown_moments"][0], [2, 1, 1, 8, 4, 2, 2])
    np.testing.assert_array_equal(totals["shown_moments"][1], [1, 1, 1, 5, 1, 2, 2])
    assert not totals["shown_moments"][2:].any()
    # die sizes: game 1 rolled two of 6 and two of 5 (4 rolls); game 2 two of 6, one of 4
    die = totals["die_moments"]
    np.testing.assert_array_equal(die[6], [4 + 4, 2 * 4 + 2 * 3])
    np.testing.assert_array_equal(die[5], [4, 8])
    np.testing.assert_array_equal(die[4], [1, 3])
    assert die.sum() == 8 + 14 + 4 + 8 + 1 + 3
    # all rolls 4 and 3, their die sizes added 22 and 16
    np.testing.assert_array_equal(totals["roll_moments"], [16 + 9, 22**2 + 16**2, 88 + 48])


@pytest.fixture(scope="module")
def reference_run() -> tuple[LuckyLionsRun, list[engine.GameRecord]]:
    """A run of GAMES reference-engine games (tables from their totals) and their records."""
    settings = LuckySettings(players=3)
    strategies = engine.lineup(LINEUP)
    totals, _ = play_batch_reference(settings, strategies, SEED, GAMES)
    records = [engine.play_game(settings, strategies, SEED, game) for game in range(GAMES)]
    return run_from_totals("lucky-lions", LINEUP, settings, strategies, totals, GAMES), records


def test_intervals_are_those_of_the_games_counts(reference_run) -> None:
    run, records = reference_run
    results = run.animal_results()
    shown_types = sorted({card_type for rec in records for _, card_type, _ in rec.rolls})
    assert len(shown_types) >= 3
    for card_type in shown_types:
        per_game = np.zeros((GAMES, 4))
        for game, rec in enumerate(records):
            for _, shown, result in rec.rolls:
                per_game[game, result] += shown == card_type
        n = per_game.sum(axis=1)
        row = results.loc[CARD_TYPE_NAMES[card_type]]
        for result, prefix in ((WON, "won_"), (LOST, "lost_")):
            x = per_game[:, result]
            expected = clustered_rate(
                x.sum(), n.sum(), (x * x).sum(), (n * n).sum(), (x * n).sum(), GAMES
            )
            got = (row[f"{prefix}rate"], row[f"{prefix}ci_low"], row[f"{prefix}ci_high"])
            assert got == pytest.approx(expected[:3])
        x = per_game[:, TIED]
        expected = clustered_rate(
            x.sum(), n.sum(), (x * x).sum(), (n * n).sum(), (x * n).sum(), GAMES
        )
        assert (row.tied, row.tied_ci_low, row.tied_ci_high) == pytest.approx(expected[:3])
        assert row.shown == n.sum() and row.clustered
    # die sizes: each size's share of a game's rolls, and the mean size
    sizes = np.array([[size for size, _, _ in rec.rolls] for rec in records], dtype=object)
    rolled = np.array([len(s) for s in sizes], dtype=float)
    shares = run.dice_sizes()
    for size, row in shares.iterrows():
        x = np.array([sum(1 for s in game if s == size) for game in sizes], dtype=float)
        expected = clustered_rate(
            x.sum(), rolled.sum(), (x * x).sum(), (rolled**2).sum(), (x * rolled).sum(), GAMES
        )
        assert (row.rate, row.ci_low, row.ci_high, row.effective_n) == pytest.approx(expected)
    every = np.concatenate([np.array(s, dtype=float) for s in sizes])
    y = np.array([sum(s) for s in sizes], dtype=float)
    mean = every.mean()
    clustered_se = np.sqrt(GAMES / (GAMES - 1) * ((y - mean * rolled) ** 2).sum()) / every.size
    independent = mean_with_interval(every.sum(), (every**2).sum(), every.size)
    half = max(1.959963984540054 * clustered_se, independent[2] - mean)
    assert run.mean_die_size() == pytest.approx((mean, mean - half, mean + half))


def test_a_real_runs_intervals_are_wider_than_the_independent_ones() -> None:
    run = zooanalysis.simulate("lucky-lions", players="greedy*4", games=3000, seed=4, jobs=1)
    results = run.animal_results()
    lion = results.loc["lion"]
    low, high = wilson_interval(lion.tied * lion.shown, lion.shown)
    assert lion.tied_ci_high - lion.tied_ci_low > 1.1 * (high - low)  # design effect ~1.5
    assert lion.effective_shown < lion.shown
    text = run.summary()
    assert f"(n={int(lion.shown):,} shown in 3,000 games)" in text
    _, low, high = run.mean_die_size()
    rolls = run.table("rolls")
    counts_ = rolls[["won", "tied", "lost", "void"]].sum(axis=1).to_numpy(dtype=float)
    sizes = rolls["die_size"].to_numpy(dtype=float)
    independent = mean_with_interval(
        (sizes * counts_).sum(), (sizes**2 * counts_).sum(), int(counts_.sum())
    )
    assert high - low > 1.5 * (independent[2] - independent[1])  # design effect ~4
    assert f"(n={run.rolls_counted():,} rolls in 3,000 games)" in text


def test_a_run_without_the_moments_counts_rolls_as_independent(reference_run) -> None:
    run, _ = reference_run
    moments = {"shown_moments", "die_moments", "roll_moments"}
    tables = {name: run.table(name) for name in run.table_names if name not in moments}
    old = LuckyLionsRun({**run.manifest, "tables": list(tables)}, tables)
    assert not old.clustered
    for card_type, row in old.animal_results().iterrows():
        low, high = wilson_interval(row.tied * row.shown, row.shown)
        assert (row.tied_ci_low, row.tied_ci_high) == pytest.approx((low, high))
        assert row.won_rate == run.animal_results().loc[card_type, "won_rate"]
    text = old.summary()
    assert "shown, counted as independent)" in text
    assert "rolls, counted as independent)" in text
    assert " games)" not in text.split("Shown cards in games")[1].split("Ties by cycle")[0]
