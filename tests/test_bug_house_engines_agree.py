"""The numba kernel plays exactly the reference engine's games.

``make_batch(...)(seed, n)`` (with per-game rows) and ``batch.play_batch_reference`` must
produce identical count arrays and rows, array by array, for every strategy and variant;
a batch played in chunks equals one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows

from zooanalysis.games.bug_house import engine
from zooanalysis.games.bug_house.batch import make_batch, play_batch_reference
from zooanalysis.games.bug_house.engine import (
    CLOCK,
    F_DECISIONS,
    F_GIFTS_NEEDED,
    F_GIVEN,
    F_RUNS,
    F_SINGLES_CARD,
    F_STUCK,
    SHED,
)
from zooanalysis.games.bug_house.rules import BugHouseSettings

CASES = [
    pytest.param({}, "random,random,random,random", 101, 40, id="random"),
    pytest.param({}, "climber,fast,climber,fast", 102, 40, id="climber-fast"),
    pytest.param({}, "fast,random,climber,random", 103, 40, id="mixed"),
    pytest.param({"clock_seconds": 25}, "climber,random,random,climber", 104, 40,
                 id="short-clock"),
    pytest.param({"delayed_singles": True}, "random,climber,fast,random", 105, 40,
                 id="delayed-singles"),
    pytest.param({"delayed_singles": True, "partner_talk": "need"},
                 "climber,climber,climber,climber", 106, 40, id="delayed-need-climbers"),
    pytest.param({"partner_talk": "need"}, "climber,fast,random,climber", 107, 40, id="need"),
    pytest.param({"partner_passing": False}, "random,fast,climber,random", 108, 40,
                 id="no-passing"),
    pytest.param({"longer_runs_beat": True, "min_run": 2}, "random,random,fast,climber", 109,
                 40, id="longer-runs-min-2"),
    pytest.param({"min_run": 4, "thinking_distribution": "uniform", "clock_seconds": 60},
                 "climber:keep_high=12,endgame=8,give_high=0,fast:base=0,per_option=0,"
                 "jitter=3,random:base=4,pass_time=9,climber", 2**64 - 1, 40,
                 id="custom-everything"),
    pytest.param({"thinking_distribution": "fixed"}, "fast,climber,random,fast", 111, 40,
                 id="fixed-times"),
]


def assert_same(kernel_result: dict, reference: dict) -> None:
    assert kernel_result.keys() == reference.keys()
    for key in kernel_result:
        np.testing.assert_array_equal(kernel_result[key], reference[key], err_msg=key)


@pytest.mark.parametrize(("variant", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference(variant, lineup, seed, n_games):
    rules = BugHouseSettings(**variant)
    strategies = engine.lineup(lineup)
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    kernel_totals, kernel_rows = split_rows(job(seed, n_games))
    reference_totals, reference_rows = play_batch_reference(
        rules, strategies, seed, n_games, with_rows=True
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
    assert_outcome_counts_agree(kernel_totals, 4)
    # not vacuous: games were played to an end, with tricks, gifts and runs
    assert kernel_totals["games"][0] == n_games
    assert kernel_totals["team_wins"].sum() == n_games
    assert kernel_rows["row_tricks"].min() >= 0 and kernel_totals["tricks_hist"][1:].sum() > 0
    assert kernel_totals["seat_counts"][:, F_RUNS].sum() > 0
    assert kernel_totals["lead_changes_hist"].sum() == n_games
    decisions = kernel_totals["decision_options"]
    assert decisions.sum() == kernel_totals["seat_counts"][:, F_DECISIONS].sum()
    assert decisions[2:].sum() > 0 and kernel_totals["game_decisions"].sum() == n_games
    passing = variant.get("partner_passing", True)
    assert (kernel_totals["seat_counts"][:, F_GIVEN].sum() > 0) == passing
    if variant.get("delayed_singles"):
        assert kernel_totals["seat_counts"][:, F_SINGLES_CARD].sum() > 0
    # the per-game sums of squares (compared above): sum n_g^2 >= (sum n_g)^2 / games
    given = kernel_totals["seat_counts"][:, F_GIVEN].sum()
    assert kernel_totals["given_squares"][4] * n_games >= given**2
    assert (kernel_totals["given_squares"][4] > 0) == passing


def test_per_game_squares_of_two_games_by_hand():
    """Two games played one by one give each seat's x_g (gifts the partner needed) and n_g
    (cards given); the two-game batch holds sum x_g^2, sum x_g n_g and sum n_g^2 per seat
    and for all seats together (index 4), as the reference engine does."""
    rules = BugHouseSettings()
    strategies = engine.lineup("climber,fast,random,climber")
    job = make_batch(rules, [s.player for s in strategies], False)
    x, n = [], []
    for game in (0, 1):
        counts = job(41, 1, first_game=game)["seat_counts"]
        x.append(np.append(counts[:, F_GIFTS_NEEDED], counts[:, F_GIFTS_NEEDED].sum()))
        n.append(np.append(counts[:, F_GIVEN], counts[:, F_GIVEN].sum()))
    assert x[0][4] + x[1][4] > 0 and n[0][4] != n[1][4]
    both = job(41, 2)
    np.testing.assert_array_equal(both["gift_squares"], x[0] ** 2 + x[1] ** 2)
    np.testing.assert_array_equal(both["gift_cross"], x[0] * n[0] + x[1] * n[1])
    np.testing.assert_array_equal(both["given_squares"], n[0] ** 2 + n[1] ** 2)
    reference, _ = play_batch_reference(rules, strategies, 41, 2)
    assert_same(both, reference)


def test_rare_branches_are_reached():
    """Across the cases: games ended both ways, stuck players, gifts the partner needed."""
    reasons = np.zeros(2, dtype=np.int64)
    stuck = needed = 0
    for variant, lineup in (({"clock_seconds": 25}, "climber,random,random,climber"),
                            ({"delayed_singles": True}, "random,climber,fast,random"),
                            ({"partner_talk": "need"}, "climber,fast,random,climber")):
        rules = BugHouseSettings(**variant)
        strategies = engine.lineup(lineup)
        totals = make_batch(rules, [s.player for s in strategies], False)(7, 300)
        reasons += totals["ends"].sum(axis=0)
        stuck += totals["seat_counts"][:, F_STUCK].sum()
        needed += totals["seat_counts"][:, F_GIFTS_NEEDED].sum()
    assert reasons[SHED] > 0 and reasons[CLOCK] > 0
    assert stuck > 0 and needed > 0


def test_chunks_make_the_batch():
    rules = BugHouseSettings(delayed_singles=True)
    strategies = engine.lineup("random,climber,fast,random")
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    whole = job(77, 30)
    chunks = [job(77, 11), job(77, 9, first_game=11), job(77, 10, first_game=20)]
    assert_chunks_make_the_batch(whole, chunks)
    reference_totals, _ = play_batch_reference(rules, strategies, 77, 10, first_game=20)
    assert_same(split_rows(chunks[2])[0], reference_totals)
