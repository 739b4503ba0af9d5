"""The numba kernel plays exactly the reference engine's games.

``make_batch(...)(seed, n)`` (with per-game rows) and ``batch.play_batch_reference`` must
produce identical count arrays and rows, array by array, for every strategy, player count
and variant; a batch played in chunks equals one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows

from zooanalysis.games.short_zoot_suit import engine
from zooanalysis.games.short_zoot_suit.batch import make_batch, play_batch_reference
from zooanalysis.games.short_zoot_suit.counts import count_game_squares, new_totals
from zooanalysis.games.short_zoot_suit.engine import DECLINED, EMPTY_PILE, PLACED_LAST
from zooanalysis.games.short_zoot_suit.rules import ZootSettings
from zooanalysis.games.short_zoot_suit.strategies import DRAW, PASS, PLACE

SEANS = {"draw_pile_cards": 0, "build_draw_pile": True}

CASES = [
    pytest.param(ZootSettings(players=2), "random,random", 101, 60, id="2p-random"),
    pytest.param(ZootSettings(players=2), "balanced,void", 102, 60, id="2p-balanced-void"),
    pytest.param(ZootSettings(players=2), "late,random", 103, 60, id="2p-late-random"),
    pytest.param(ZootSettings(players=3), "random,random,random", 104, 50, id="3p-random"),
    pytest.param(ZootSettings(players=3), "balanced,void,late", 105, 50, id="3p-heuristics"),
    pytest.param(
        ZootSettings(players=4), "random,random,random,random", 106, 40, id="4p-random"
    ),
    pytest.param(
        ZootSettings(players=4), "balanced,void,late,random", 107, 40, id="4p-all"
    ),
    pytest.param(
        ZootSettings(players=4, **SEANS), "balanced,void,late,random", 108, 40, id="4p-seans"
    ),
    pytest.param(ZootSettings(players=2, **SEANS), "random,random", 109, 60, id="2p-seans-random"),
    pytest.param(
        ZootSettings(players=3, **SEANS, place_last_card=False), "random,balanced,random", 115,
        50, id="3p-seans-keep-last-card",
    ),
    pytest.param(
        ZootSettings(players=3, **SEANS, intermediate_scoring="unique-suits"),
        "late,balanced,void",
        110,
        50,
        id="3p-seans-intermediate",
    ),
    pytest.param(
        ZootSettings(
            players=4, intermediate_scoring="unique-suits", unique_suit_points=(1, 3, 10, 20)
        ),
        "void,random,balanced,late",
        111,
        40,
        id="4p-intermediate-example-table",
    ),
    pytest.param(
        ZootSettings(players=3, draw_pile_cards=0), "balanced,random,void", 112, 50,
        id="3p-no-draw-pile",
    ),
    pytest.param(
        ZootSettings(players=2, draw_pile_cards=5, build_draw_pile=True), "random,late", 113, 60,
        id="2p-pile-and-placing",
    ),
    pytest.param(
        ZootSettings(
            players=4,
            draw_pile_cards=12,
            points_per_trick=2,
            points_per_pair=4,
            points_per_equal_pair=7,
            rounds_per_player=2,
        ),
        "balanced:lean=-1,pile_high=3,draw_at=5,stop_at=1,place=0,"
        "void:lean=0,max_voids=4,stop_at=0,late:lean=3,draw_at=0,stop_at=6,random",
        2**64 - 1,
        40,
        id="4p-custom-everything",
    ),
    pytest.param(
        ZootSettings(
            players=2,
            deck_ranks=(("2", tuple(range(16))), *ZootSettings().deck_ranks[1:]),
            set_aside=(("2", 0), *ZootSettings().set_aside[1:]),
        ),
        "balanced,random",
        114,
        40,
        id="2p-64-card-deck",
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
    # not vacuous: the games were played and their rounds scored
    players = rules.players
    assert kernel_totals["games"][0] == n_games
    assert kernel_totals["round_ts"].sum() == n_games * rules.rounds * players
    assert kernel_rows["row_tricks"].min() > 0
    assert kernel_totals["round_ts"][:, 1:, 1:].sum() > 0  # pairs were scored
    assert kernel_totals["lead_changes_hist"].sum() == n_games
    assert kernel_totals["settled_hist"].sum() == kernel_totals["sole_wins"].sum()
    if rules.draw_pile_cards or rules.build_draw_pile:
        assert kernel_totals["actions"][:, DRAW].sum() > 0
        assert kernel_totals["pile_rounds"].sum() > 0
    if rules.build_draw_pile:
        assert kernel_totals["actions"][:, PLACE].sum() > 0
    # the per-game sums of squares (compared above) are real: every round ends with an
    # empty hand, so each game's n_g >= rounds and sum n_g^2 >= games * rounds^2
    assert kernel_totals["empty_squares"][0] >= n_games * rules.rounds**2
    assert kernel_totals["end_cross"].sum() == kernel_totals["empty_squares"][0]
    if rules.draw_pile_cards:
        assert kernel_totals["pile_rank_squares"].sum() > 0


def test_count_game_squares_by_hand():
    # game 1: 3 hands empty with the pile empty, 1 declining; 2 aces drawn of 3 in piles
    # game 2: 4 empty with the pile empty; no ace drawn of 1 in a pile, 1 two drawn of 1
    totals = new_totals(4)
    ends, drawn, pile = np.zeros(3, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64)
    ends[[EMPTY_PILE, DECLINED]] = 3, 1
    drawn[1], pile[1] = 2, 3
    count_game_squares(ends, drawn, pile, totals)
    ends[:], drawn[:], pile[:] = 0, 0, 0
    ends[EMPTY_PILE] = 4
    pile[1], drawn[2], pile[2] = 1, 1, 1
    count_game_squares(ends, drawn, pile, totals)
    assert totals["end_squares"][EMPTY_PILE] == 9 + 16
    assert totals["end_squares"][DECLINED] == 1 and totals["end_squares"][PLACED_LAST] == 0
    assert totals["end_cross"][EMPTY_PILE] == 3 * 4 + 4 * 4
    assert totals["end_cross"][DECLINED] == 1 * 4
    assert totals["empty_squares"][0] == 16 + 16
    assert list(totals["drawn_rank_squares"][1:3]) == [4, 1]
    assert list(totals["drawn_rank_cross"][1:3]) == [2 * 3, 1]
    assert list(totals["pile_rank_squares"][1:3]) == [9 + 1, 1]


def test_per_game_squares_of_two_games():
    """Two games played one by one give x_g and n_g; the two-game batch holds their
    squares, and the reference engine agrees."""
    rules = ZootSettings()
    strategies = engine.lineup("random,void,balanced,late")
    job = make_batch(rules, [s.player for s in strategies], with_rows=False)
    single = [job(31, 1, first_game=g) for g in (0, 1)]
    both = job(31, 2)
    ends = [one["empty_hands"].sum(axis=0) for one in single]
    empty = [int(e.sum()) for e in ends]
    drawn = [np.bincount(np.arange(64) & 15, one["drawn"].sum(axis=0), 16) for one in single]
    pile = [np.bincount(np.arange(64) & 15, one["pile_rounds"].sum(axis=0), 16)
            for one in single]  # fmt: skip
    np.testing.assert_array_equal(both["end_squares"], ends[0] ** 2 + ends[1] ** 2)
    np.testing.assert_array_equal(both["end_cross"], ends[0] * empty[0] + ends[1] * empty[1])
    assert both["empty_squares"][0] == empty[0] ** 2 + empty[1] ** 2
    np.testing.assert_array_equal(both["drawn_rank_squares"], drawn[0] ** 2 + drawn[1] ** 2)
    np.testing.assert_array_equal(both["drawn_rank_cross"], drawn[0] * pile[0] + drawn[1] * pile[1])
    np.testing.assert_array_equal(both["pile_rank_squares"], pile[0] ** 2 + pile[1] ** 2)
    assert drawn[0].sum() > 0 and pile[1].sum() > 0
    reference, _ = play_batch_reference(rules, strategies, 31, 2)
    assert_same(both, reference)


def test_rare_branches_are_reached():
    """Across the cases above: every way a round ends, ties, every action, equal pairs."""
    seen = {"ends": np.zeros(3, dtype=np.int64), "actions": np.zeros(3, dtype=np.int64)}
    ties = equal = 0
    for case in CASES:
        rules, lineup, seed, n_games = case.values
        job = make_batch(rules, [s.player for s in engine.lineup(lineup)], with_rows=False)
        totals = job(seed, n_games)
        seen["ends"] += totals["empty_hands"].sum(axis=0)
        seen["actions"] += totals["actions"].sum(axis=0)
        ties += int(totals["wins"].sum() - totals["games"][0])
        equal += int(sum(np.trace(totals["round_ts"][s][1:, 1:]) for s in range(rules.players)))
    assert (seen["ends"][[EMPTY_PILE, DECLINED, PLACED_LAST]] > 0).all()
    assert (seen["actions"][[PASS, DRAW, PLACE]] > 0).all()
    assert ties > 0 and equal > 0


def test_trajectory_counts_are_not_trivial():
    """Lead changes and settled bins spread over several values, so agreement means something."""
    rules = ZootSettings(players=4)
    job = make_batch(rules, [s.player for s in engine.lineup("balanced,void,late,random")], False)
    totals = job(11, 2000)
    assert np.count_nonzero(totals["lead_changes_hist"][1:]) >= 2
    assert np.count_nonzero(totals["settled_hist"]) >= 3


def test_reference_rows_are_play_game_records():
    rules = ZootSettings(players=3)
    strategies = engine.lineup("balanced,random,late")
    _, rows = play_batch_reference(rules, strategies, 5, 4, with_rows=True)
    for game in range(4):
        record = engine.play_game(rules, strategies, 5, game)
        assert list(rows["row_points"][game]) == record.points
        assert rows["row_tricks"][game] == record.tricks


def test_game_i_does_not_depend_on_batch_size_and_seeds_differ():
    rules = ZootSettings(players=4)
    players = [s.player for s in engine.lineup("balanced,void,late,random")]
    job = make_batch(rules, players, with_rows=True)
    _, rows_50 = split_rows(job(77, 50))
    _, rows_20 = split_rows(job(77, 20))
    _, other = split_rows(job(78, 20))
    for key in rows_20:
        np.testing.assert_array_equal(rows_20[key], rows_50[key][:20], err_msg=key)
    assert not np.array_equal(rows_20["row_points"], other["row_points"])


@pytest.mark.parametrize(
    ("rules", "lineup", "split"),
    [
        pytest.param(ZootSettings(players=4), "balanced,void,late,random", 11, id="4p"),
        pytest.param(ZootSettings(players=2, **SEANS), "random,random", 1, id="2p-seans"),
    ],
)
def test_a_batch_played_in_two_chunks_equals_one_call(rules, lineup, split):
    """``job(s, k)`` then ``job(s, n - k, first_game=k)`` is ``job(s, n)``, on the kernel and
    on the reference engine."""
    seed, n_games = 2024, 30
    strategies = engine.lineup(lineup)
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
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", [{}, SEANS], ids=["base", "seans"])
def test_kernel_equals_reference_many_games(players, variant):
    names = ["balanced", "void", "late", "random"]
    lineup = ",".join(names[:players])
    rules = ZootSettings(players=players, **variant)
    strategies = engine.lineup(lineup)
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    kernel_totals, kernel_rows = split_rows(job(9000 + players, 600))
    reference_totals, reference_rows = play_batch_reference(
        rules, strategies, 9000 + players, 600, with_rows=True
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
