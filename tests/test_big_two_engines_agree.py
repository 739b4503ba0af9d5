"""The numba kernel plays exactly the reference engine's Big Two games.

``make_batch(...)(seed, n)`` (with per-game rows) and ``batch.play_batch_reference`` give
identical count arrays and rows for every strategy, player count and variant; a batch
played in chunks equals one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows

from zooanalysis.games.big_two import engine
from zooanalysis.games.big_two.batch import make_batch, play_batch_reference
from zooanalysis.games.big_two.counts import count_kind_squares, new_totals
from zooanalysis.games.big_two.rules import (
    FLUSH,
    FOUR,
    FULL_HOUSE,
    PASS_KIND,
    STRAIGHT,
    STRAIGHT_FLUSH,
    BigTwoSettings,
)

TUNED = "control:shed=2.5,release=9,danger=0,keep_aces=0,greedy:shed=0,hold_rank=10,danger=5"
CASES = [
    pytest.param(BigTwoSettings(), "random,random,random,random", 101, 60, id="4p-random"),
    pytest.param(BigTwoSettings(), "control,greedy,control,greedy", 102, 60, id="4p-heuristics"),
    pytest.param(BigTwoSettings(), f"{TUNED},random,random", 103, 60, id="4p-tuned"),
    pytest.param(BigTwoSettings(players=3), "random,control,greedy", 104, 60, id="3p-mixed"),
    pytest.param(
        BigTwoSettings(players=3, extra_card_to_opener=False), "random,random,random", 105, 60,
        id="3p-extra-card-aside",
    ),
    pytest.param(BigTwoSettings(players=2), "random,greedy", 106, 60, id="2p"),
    pytest.param(
        BigTwoSettings(players=2, cards_per_player=(("2", 26), ("3", 17), ("4", 13))),
        "random,control", 107, 40, id="2p-26-each",
    ),
    pytest.param(
        BigTwoSettings(passing="soft", round_end="last-out", opening="start-player"),
        "random,control,greedy,random", 108, 50, id="4p-soft-last-out",
    ),
    pytest.param(
        BigTwoSettings(players=3, passing="soft", suit_order="CDHS"),
        "control,random,random", 109, 50, id="3p-soft-clubs-lowest",
    ),
    pytest.param(
        BigTwoSettings(target=40, double_from=8, triple_from=11),
        "random,control,greedy,random", 110, 25, id="4p-match",
    ),
    pytest.param(
        BigTwoSettings(players=2, target=25, round_end="last-out"), "greedy,random", 2**64 - 1,
        25, id="2p-match-last-out",
    ),
]


def assert_same(kernel_result: dict, reference: dict) -> None:
    assert kernel_result.keys() == reference.keys()
    for key in kernel_result:
        np.testing.assert_array_equal(kernel_result[key], reference[key], err_msg=key)


@pytest.mark.parametrize(("rules", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference(rules, lineup, seed, n_games):
    strategies = engine.lineup(lineup)
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    kernel_totals, kernel_rows = split_rows(job(seed, n_games))
    reference_totals, reference_rows = play_batch_reference(
        rules, strategies, seed, n_games, with_rows=True
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
    assert_outcome_counts_agree(kernel_totals, rules.players)
    # not vacuous: games and rounds were played, and plays were made and passed
    rounds = int(kernel_totals["rounds"][0])
    assert kernel_totals["games"][0] == n_games and rounds >= n_games
    assert kernel_totals["cards_left"].sum() == rounds * rules.players
    # every play and pass was a decision counted once; some were forced passes, some real
    options = kernel_totals["decision_options"]
    assert options.sum() == kernel_totals["plays"].sum()
    assert options[1] > 0 and options[2:].sum() > 0
    assert kernel_totals["game_decisions"].sum() == n_games
    assert kernel_totals["plays"][:, PASS_KIND].sum() > 0
    assert kernel_totals["plays"][:, 1:].sum() > rounds
    assert kernel_totals["lead_changes_hist"].sum() == n_games
    assert kernel_totals["settled_hist"].sum() == kernel_totals["sole_wins"].sum()
    if rules.is_match:
        assert kernel_rows["row_rounds"].max() > 1
    # the per-game sums of squares (compared above) are not all zero, and each game's
    # decisions by kind squared sum to at least the total's square over the games
    decisions = kernel_totals["plays"].sum()
    assert kernel_totals["decision_squares"][0] * n_games >= decisions**2 > 0
    assert (kernel_totals["kind_cross"] >= kernel_totals["kind_squares"]).all()


def test_count_kind_squares_by_hand():
    # one game of 3 passes, 5 singles and a pair: n_g = 9 decisions
    totals = new_totals(4)
    count_kind_squares(np.array([3, 5, 1, 0, 0, 0, 0, 0, 0]), totals)
    count_kind_squares(np.array([1, 1, 0, 0, 0, 0, 0, 0, 0]), totals)  # and one of 2
    assert list(totals["kind_squares"][:3]) == [9 + 1, 25 + 1, 1]
    assert list(totals["kind_cross"][:3]) == [27 + 2, 45 + 2, 9]
    assert totals["decision_squares"][0] == 81 + 4
    assert totals["kind_squares"][3:].sum() == totals["kind_cross"][3:].sum() == 0


def test_per_game_squares_of_two_games_by_hand():
    """Two games played one by one give x_g (decisions of each kind) and n_g (decisions);
    the two-game batch's new counters are sum x_g^2, sum x_g n_g and sum n_g^2."""
    rules = BigTwoSettings()
    strategies = engine.lineup("random,control,greedy,random")
    job = make_batch(rules, [s.player for s in strategies], with_rows=False)
    x = [job(21, 1, first_game=g)["plays"].sum(axis=0) for g in (0, 1)]
    n = [int(kinds.sum()) for kinds in x]
    assert n[0] != n[1]  # two different games (about 40 decisions each)
    both = job(21, 2)
    np.testing.assert_array_equal(both["kind_squares"], x[0] ** 2 + x[1] ** 2)
    np.testing.assert_array_equal(both["kind_cross"], x[0] * n[0] + x[1] * n[1])
    assert both["decision_squares"][0] == n[0] ** 2 + n[1] ** 2
    reference, _ = play_batch_reference(rules, strategies, 21, 2)
    assert_same(both, reference)


def test_rare_branches_are_reached():
    """Over the cases, every five-card kind is played and both engines count it alike."""
    rules = BigTwoSettings()
    strategies = engine.lineup("random,random,greedy:shed=3,greedy:shed=3")
    job = make_batch(rules, [s.player for s in strategies], with_rows=False)
    totals = job(7, 400)
    plays = totals["plays"].sum(axis=0)
    for kind in (STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH):
        assert plays[kind] > 0, kind
    reference, _ = play_batch_reference(rules, strategies, 7, 400)
    assert_same(totals, reference)


def test_chunks_make_the_batch():
    rules = BigTwoSettings(players=3, target=30)
    strategies = engine.lineup("random,control,greedy")
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    whole = job(11, 30)
    chunks = [job(11, 7), job(11, 13, first_game=7), job(11, 10, first_game=20)]
    assert_chunks_make_the_batch(whole, chunks)
