"""The numba kernel plays exactly the reference engine's games.

``make_batch(...)(seed, n)`` (with per-game rows) and ``batch.play_batch_reference`` must
produce identical count arrays and rows, array by array, for every strategy, player count
and variant; rare branches are reached; a batch played in chunks equals one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows

from zooanalysis.games.chai_tea_jazz import engine
from zooanalysis.games.chai_tea_jazz.batch import make_batch, play_batch_reference
from zooanalysis.games.chai_tea_jazz.engine import BET, FORCED, OFFERED, UNCONTESTED
from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings, settings_from_table

HEURISTICS6 = "random,tracker,greedy,tracker:spread=30,greedy:bet_at=-5,random"
CUSTOM = [
    {"name": "Black", "plays": ["trump"], "suits": "black", "value": 1},
    {"name": "Over or Pyramid", "plays": ["over", "pyramid"], "value": 2},
    {"name": "Middle", "play": "middle", "value": 2},
    {"name": "Trump Slalom", "play": "trump-slalom", "suits": "red", "value": 2},
    {"name": "Avoid", "play": "avoidance", "value": 2, "second_place": True},
    {"name": "Joker", "play": "joker", "value": 3},
]

CASES = [
    pytest.param(ChaiSettings(), "random,random,random", 101, 40, id="3p-random"),
    pytest.param(ChaiSettings(), "tracker,greedy,random", 102, 30, id="3p-all"),
    pytest.param(
        ChaiSettings(), "greedy:pick_at=-20,bet_at=-30,tracker:pick_at=-1,bet_at=-1,random",
        103, 30, id="3p-eager-bidders",
    ),
    pytest.param(ChaiSettings(players=2), "random,random", 104, 30, id="2p-random"),
    pytest.param(ChaiSettings(players=2), "tracker,greedy", 105, 30, id="2p-heuristics"),
    pytest.param(ChaiSettings(players=4), "greedy,random,tracker,random", 106, 30, id="4p"),
    pytest.param(ChaiSettings(players=6), HEURISTICS6, 107, 20, id="6p-jokers"),
    pytest.param(ChaiSettings(players=6, deck="double"), HEURISTICS6, 108, 15, id="6p-double"),
    pytest.param(
        ChaiSettings(passing_the_barrel=True, match_points=1), "random,tracker,greedy", 109, 40,
        id="3p-barrel-match",
    ),
    pytest.param(
        ChaiSettings(passing_the_barrel=True), "greedy:offer_at=20,tracker:offer_at=2,random",
        110, 40, id="3p-barrel-heuristics",
    ),
    pytest.param(
        ChaiSettings(players=4, passing_the_barrel=True, repick="different-contract"),
        "random,random,random,random", 111, 30, id="4p-barrel-repick",
    ),
    pytest.param(
        ChaiSettings(early_end=True, match_points=2), "tracker,greedy,random", 112, 40,
        id="3p-early-end",
    ),
    pytest.param(ChaiSettings(deck="jass"), "tracker,random,greedy", 113, 30, id="3p-jass"),
    pytest.param(
        settings_from_table({"contracts": CUSTOM, "cumulative": "least"}),
        "tracker,greedy,random", 114, 25, id="3p-custom-cumulative",
    ),
    pytest.param(
        settings_from_table({"contracts": "custom-example", "cumulative": "most",
                             "early_end": True, "players": 2}),
        "random,tracker", 115, 25, id="2p-custom-example-cumulative",
    ),
    pytest.param(
        settings_from_table({"contracts": "specific-suits", "players": 6,
                             "rank_points": {"1-13": 1}, "bet_step": {"6": 7},
                             "bet_max": {"6": 50}}),
        "greedy:bet_at=-40,random,tracker,random,random,greedy", 116, 15, id="6p-everything",
    ),
    pytest.param(
        settings_from_table({"players": 4, "contracts": "custom-example", "pyramid_tricks": 6,
                             "last_trick_points": {"4": 25}}),
        "tracker,greedy,random,tracker", 117, 20, id="4p-pyramid-6-then-3-last-trick-25",
    ),
    pytest.param(
        settings_from_table({"players": 2, "two_player_hand": 9, "two_player_straw_piles": 4,
                             "repick": "different-contract"}),
        "greedy,tracker", 118, 25, id="2p-four-straw-piles-repick-row",
    ),
    pytest.param(ChaiSettings(players=6, joker_points=0), HEURISTICS6, 119, 15,
                 id="6p-jokers-worth-0"),
]


def assert_same(kernel_result: dict, reference: dict) -> None:
    assert kernel_result.keys() == reference.keys()
    for key in kernel_result:
        np.testing.assert_array_equal(kernel_result[key], reference[key], err_msg=key)


def kernel_and_reference(rules, lineup, seed, n_games):
    strategies = engine.lineup(lineup)
    job = make_batch(rules, [s.player for s in strategies], with_rows=True)
    kernel_totals, kernel_rows = split_rows(job(seed, n_games))
    reference_totals, reference_rows = play_batch_reference(
        rules, strategies, seed, n_games, with_rows=True
    )
    return kernel_totals, kernel_rows, reference_totals, reference_rows


@pytest.mark.parametrize(("rules", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference(rules, lineup, seed, n_games):
    kernel_totals, kernel_rows, reference_totals, reference_rows = kernel_and_reference(
        rules, lineup, seed, n_games
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
    # not vacuous: whole games were played, every round declared and scored
    assert kernel_totals["games"][0] == n_games
    rounds = kernel_rows["row_rounds"]
    assert kernel_totals["declared"].sum() == rounds.sum()
    if not rules.early_end:
        assert (rounds == rules.rounds).all()
    assert kernel_totals["wins"].sum() == n_games * rules.team_size
    assert_outcome_counts_agree(kernel_totals, rules.players)
    # one winning side in every game: its players share the win (1/team size each)
    assert kernel_totals["win_ties"][:, rules.team_size].sum() == n_games * rules.team_size
    assert kernel_totals["margin_hist"].sum() == n_games
    assert kernel_totals["lead_changes_hist"].sum() == n_games
    assert kernel_totals["picks"].sum() > 0 and kernel_totals["passes"].sum() > 0


def test_rare_branches_are_reached():
    """Across the cases: every way a contract is decided, raises to the maximum, matches by
    both sides, tie-breaks, early ends, turned-up straw cards, heuristic evaluations."""
    how = np.zeros(4, dtype=np.int64)
    seen = {"max_debt": 0, "match_declaring": 0, "match_defending": 0, "tie_breaks": 0,
            "early": 0, "evaluated": 0, "offers_declined": 0}  # fmt: skip
    for case in CASES:
        rules, lineup, seed, n_games = case.values
        job = make_batch(rules, [s.player for s in engine.lineup(lineup)], with_rows=False)
        totals = job(seed, n_games)
        how += totals["how"].sum(axis=(0, 1))
        seen["max_debt"] += int(totals["debt_rounds"][:, rules.max_debt].sum())
        seen["match_declaring"] += int(totals["match"][0])
        seen["match_defending"] += int(totals["match"][1])
        seen["tie_breaks"] += int(totals["tie_breaks"][0])
        seen["early"] += int(totals["certain_hist"][: rules.rounds].sum())
        seen["evaluated"] += int(totals["evaluation"][:, 0].sum())
        seen["offers_declined"] += int(totals["offers_declined"].sum())
    assert (how[[FORCED, UNCONTESTED, BET, OFFERED]] > 0).all()
    assert all(value > 0 for value in seen.values()), seen


def test_straw_cards_are_turned_up_the_same_way():
    """Two players: a game's history of turned-up straw cards is long, and the kernel's
    counts of it (through the tracker's decisions) agree game by game."""
    rules = ChaiSettings(players=2)
    record = engine.play_game(rules, engine.lineup("tracker,tracker"), 5, 0)
    assert len(record.rounds) == 8
    totals, rows, reference, reference_rows = kernel_and_reference(rules, "tracker,tracker", 5, 3)
    assert_same(totals, reference)
    assert_same(rows, reference_rows)


def test_reference_rows_are_play_game_records():
    rules = ChaiSettings()
    strategies = engine.lineup("tracker,greedy,random")
    _, rows = play_batch_reference(rules, strategies, 5, 3, with_rows=True)
    for game in range(3):
        record = engine.play_game(rules, strategies, 5, game)
        assert list(rows["row_points"][game]) == record.points
        winners = np.flatnonzero(rows["row_standing"][game] == rows["row_standing"][game].max())
        assert list(winners) == record.winners


def test_game_i_does_not_depend_on_batch_size_and_seeds_differ():
    rules = ChaiSettings()
    players = [s.player for s in engine.lineup("tracker,greedy,random")]
    job = make_batch(rules, players, with_rows=True)
    _, rows_30 = split_rows(job(77, 30))
    _, rows_10 = split_rows(job(77, 10))
    _, other = split_rows(job(78, 10))
    for key in rows_10:
        np.testing.assert_array_equal(rows_10[key], rows_30[key][:10], err_msg=key)
    assert not np.array_equal(rows_10["row_points"], other["row_points"])


@pytest.mark.parametrize(
    ("rules", "lineup", "split"),
    [
        pytest.param(ChaiSettings(), "tracker,greedy,random", 7, id="3p"),
        pytest.param(ChaiSettings(players=4, passing_the_barrel=True), "random*4", 1,
                     id="4p-barrel"),
    ],
)  # fmt: skip
def test_a_batch_played_in_two_chunks_equals_one_call(rules, lineup, split):
    """``job(s, k)`` then ``job(s, n - k, first_game=k)`` is ``job(s, n)``, on the kernel and
    on the reference engine."""
    seed, n_games = 2024, 16
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
@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize(
    "variant",
    [{}, {"passing_the_barrel": True, "match_points": 1, "early_end": True}],
    ids=["base", "variants"],
)
def test_kernel_equals_reference_many_games(players, variant):
    names = ["tracker", "greedy", "random", "tracker", "greedy", "random"]
    rules = ChaiSettings(players=players, **variant)
    kernel_totals, kernel_rows, reference_totals, reference_rows = kernel_and_reference(
        rules, ",".join(names[:players]), 9000 + players, 300
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
