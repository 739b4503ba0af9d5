"""The numba kernel plays exactly the reference engine's Hearts games.

``make_batch(...)(seed, n)`` (with per-game rows) and ``batch.play_batch_reference`` must
produce identical count arrays and rows, array by array, for every strategy and variant; a
batch played in chunks equals one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows

from zooanalysis.games.hearts import engine
from zooanalysis.games.hearts.batch import make_batch, play_batch_reference
from zooanalysis.games.hearts.rules import HeartsSettings

SHORT = {"end_score": 40}
CASES = [
    pytest.param(HeartsSettings(**SHORT), "random,random,random,random", 101, 25, id="random"),
    pytest.param(HeartsSettings(**SHORT), "safe,bold,random,safe", 102, 25, id="mixed"),
    pytest.param(
        HeartsSettings(**SHORT), "bold:moon_at=2,bold:moon_at=3,safe:keep_spades=3,random",
        103, 25, id="bold-shooters",
    ),
    pytest.param(
        HeartsSettings(moon="shooter-subtracts", jack_of_diamonds=-10, **SHORT),
        "random,bold:moon_at=2,safe,random", 104, 25, id="omnibus",
    ),
    pytest.param(
        HeartsSettings(passing="hold", first_lead="start-seat", max_hands=1),
        "random,safe,bold,random", 105, 120, id="exhibit-like-one-hand",
    ),
    pytest.param(
        HeartsSettings(passing="across", pass_cards=5, hearts_must_be_broken=False,
                       queen_breaks_hearts=False, no_points_first_trick=False, moon="off",
                       heart_points=2, queen_points=5, **SHORT),
        "bold:flush=0,random,safe,bold", 106, 20, id="everything-else",
    ),
    pytest.param(
        HeartsSettings(passing="right", end_score=10_000, max_hands=12),
        "random,random,safe,random", 107, 8, id="capped",
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
    assert_outcome_counts_agree(kernel_totals, 4)
    # not vacuous: games and hands were played, the Queen was taken and counted
    hands = int(kernel_totals["hands"][0])
    assert kernel_totals["games"][0] == n_games and hands >= n_games
    assert kernel_totals["queen_fate"].sum() == hands
    assert kernel_totals["hand_points_hist"].sum() == 4 * hands
    assert kernel_rows["row_hands"].sum() == hands
    assert kernel_totals["lead_changes_hist"].sum() == n_games
    # every card played and every pass was a decision counted once; forced moves counted too
    passing_hands = hands - int(kernel_totals["direction_hands"][0])
    options = kernel_totals["decision_options"]
    assert options.sum() == 52 * hands + 4 * passing_hands
    assert options[1] >= 4 * hands  # at least the last trick's four cards are forced
    assert options[2:].sum() > 0 and kernel_totals["game_decisions"].sum() == n_games


def test_rare_branches_are_reached():
    """Across the cases: moons, capped games, ties, passing the Queen, every direction."""
    moons = capped = ties = passed = 0
    directions = np.zeros(4, dtype=np.int64)
    for case in CASES:
        rules, lineup, seed, n_games = case.values
        totals = make_batch(rules, [s.player for s in engine.lineup(lineup)], False)(
            seed, n_games
        )
        moons += int(totals["moons"].sum())
        capped += int(totals["end_reasons"][engine.CAP])
        ties += int(totals["wins"].sum() - totals["games"][0])
        passed += int(totals["queen_passed"].sum())
        directions += totals["direction_hands"]
    assert moons > 0 and capped > 0 and ties > 0 and passed > 0
    assert (directions > 0).all()


def test_game_i_does_not_depend_on_batch_size_and_seeds_differ():
    rules = HeartsSettings(**SHORT)
    players = [s.player for s in engine.lineup("safe,bold,random,random")]
    job = make_batch(rules, players, with_rows=True)
    _, rows_40 = split_rows(job(77, 40))
    _, rows_15 = split_rows(job(77, 15))
    _, other = split_rows(job(78, 15))
    for key in rows_15:
        np.testing.assert_array_equal(rows_15[key], rows_40[key][:15], err_msg=key)
    assert not np.array_equal(rows_15["row_points"], other["row_points"])


def test_a_batch_played_in_two_chunks_equals_one_call():
    """``job(s, k)`` then ``job(s, n - k, first_game=k)`` is ``job(s, n)``, on the kernel and
    on the reference engine."""
    rules = HeartsSettings(**SHORT)
    seed, n_games, split = 2024, 20, 7
    strategies = engine.lineup("safe,bold,random,random")
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    whole = job(seed, n_games)
    assert_chunks_make_the_batch(
        whole, [job(seed, split), job(seed, n_games - split, first_game=split)]
    )

    def reference(n: int, first_game: int = 0) -> dict:
        totals, rows = play_batch_reference(
            rules, strategies, seed, n, with_rows=True, first_game=first_game
        )
        return {**totals, **rows}

    assert_chunks_make_the_batch(
        reference(n_games), [reference(split), reference(n_games - split, split)]
    )
    for mine, theirs in zip(split_rows(whole), split_rows(reference(n_games)), strict=True):
        assert_same(mine, theirs)


@pytest.mark.slow
@pytest.mark.parametrize("lineup", ["random*4", "safe,bold,safe,bold", "bold:moon_at=1*4"])
def test_kernel_equals_reference_many_games(lineup):
    rules = HeartsSettings()
    strategies = engine.lineup(lineup)
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    kernel_totals, kernel_rows = split_rows(job(9000, 150))
    reference_totals, reference_rows = play_batch_reference(
        rules, strategies, 9000, 150, with_rows=True
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
