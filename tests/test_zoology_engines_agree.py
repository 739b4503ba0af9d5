"""The numba kernel plays exactly the reference engine's Zoology games.

``kernel.play_batch`` (with per-game rows) and ``batch.play_batch_reference`` must
produce identical count arrays and rows, array by array, for every strategy, player count,
board, mode and custom setting; game ``i`` of a batch must not depend on the batch size.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree

from zooanalysis.games.zoology import counts, engine, kernel
from zooanalysis.games.zoology.batch import kernel_config, make_batch, play_batch_reference
from zooanalysis.games.zoology.counts import tally
from zooanalysis.games.zoology.game import GAME
from zooanalysis.games.zoology.rules import ZoologySettings, cells, with_players
from zooanalysis.games.zoology.strategies import strategy_code, strategy_params
from zooanalysis.strategy_spec import parse_lineup


def run_kernel(rules: ZoologySettings, lineup: str, seed: int, n_games: int):
    """Kernel totals and rows for a batch, arguments built as the Zoology game builds them."""
    players = [s.player for s in engine.lineup(lineup)]
    totals = counts.new_totals(len(players), len(rules.animals), len(rules.questions))
    rows = counts.new_rows(n_games, len(players))
    kernel.play_batch(
        kernel_config(rules, len(players)),
        np.array([strategy_code(p) for p in players], dtype=np.int64),
        np.array([strategy_params(p) for p in players], dtype=np.float64),
        seed,
        n_games,
        totals,
        rows,
    )
    return totals, rows


TOKENS_6 = tuple((str(n), 6) for n in range(2, 7))
ALL_REGIONS = ("africa", "america", "asia", "australia")

CASES = [
    pytest.param(ZoologySettings(), "curious,curious,bayes,bayes", 101, 60, id="4p-default"),
    pytest.param(
        ZoologySettings(question_information=True),
        "curious,team,bayes,bayes",
        117,
        40,
        id="4p-question-information",
    ),
    pytest.param(
        ZoologySettings(players=2, neutral_animals=True), "team,bayes", 102, 60, id="2p-neutral"
    ),
    pytest.param(ZoologySettings(players=2), "curious,bayes:guess=0.3", 103, 40, id="2p-plain"),
    pytest.param(
        ZoologySettings(players=3, neutral_animals=True, regions=("asia",)),
        "curious,team,bayes",
        104,
        50,
        id="3p-neutral-asia",
    ),
    pytest.param(
        ZoologySettings(players=5, regions=("africa", "australia")),
        "bayes:guess=0.95,curious:guess=0.5,team,bayes,curious",
        105,
        40,
        id="5p",
    ),
    pytest.param(
        ZoologySettings(players=6, regions=ALL_REGIONS),
        "bayes*3,curious*3",
        106,
        30,
        id="6p-all-boards",
    ),
    pytest.param(
        ZoologySettings(players=4, guess_tokens=TOKENS_6, points_to_win=3, perception_noise=1.5),
        "bayes:guess=0,curious,team,bayes:guess=1",
        107,
        60,
        id="few-tokens-noisy",
    ),
    pytest.param(
        ZoologySettings(
            players=3,
            guess_after_first_turns=False,
            predicate_weight=0.5,
            points_correct_guess=3,
            points_second_chance=2,
        ),
        "curious*3",
        108,
        50,
        id="guess-at-once",
    ),
    pytest.param(
        ZoologySettings(players=4, points_to_win=40, max_rounds=6, hand_size=5),
        "bayes,curious,bayes,curious",
        2**64 - 1,
        20,
        id="long-deck-reshuffles",
    ),
    pytest.param(
        ZoologySettings(players=6, simultaneous_guess_chance=0.3),
        "bayes:guess=0.5,bayes:guess=0.5,bayes,curious:guess=0.5,curious,curious",
        112,
        40,
        id="race-6p-often-simultaneous",
    ),
    pytest.param(
        ZoologySettings(players=5, simultaneous_guess_chance=1.0),
        "bayes*2,curious*3",
        113,
        40,
        id="race-every-guess-simultaneous",
    ),
    pytest.param(
        ZoologySettings(players=4, simultaneous_guess_chance=0.0),
        "curious,curious,bayes:guess=0.4,bayes:guess=0.4",
        114,
        40,
        id="race-never-simultaneous",
    ),
    pytest.param(
        ZoologySettings(players=6, points_to_win=3, simultaneous_guess_chance=1.0),
        "bayes*3,curious*3",
        115,
        40,
        id="shared-wins",
    ),
    pytest.param(
        ZoologySettings(
            players=6, points_to_win=3, simultaneous_guess_chance=1.0, winners="most_points"
        ),
        "bayes*3,curious*3",
        115,
        40,
        id="shared-wins-most-points",
    ),
    pytest.param(
        ZoologySettings(players=3, regions=("australia",), void_questions="keep"),
        "curious,bayes,curious",
        116,
        40,
        id="void-cards-kept",
    ),
    pytest.param(
        ZoologySettings(),
        "bounded,eliminator,bayes,bounded:memory=2,misread=0.3",
        118,
        50,
        id="bounded-players",
    ),
    pytest.param(
        ZoologySettings(players=3, neutral_animals=True, regions=("america",)),
        "bounded:misread=0.5,guess=0.6,eliminator:guess_at=3,tolerance=0,misread=0.2,team",
        119,
        40,
        id="bounded-3p-neutral",
    ),
    pytest.param(
        ZoologySettings(players=2),
        "eliminator:memory=1,bounded:misread=0.2",
        120,
        40,
        id="bounded-2p-nothing-to-misread",
    ),
    pytest.param(
        ZoologySettings(players=2, neutral_animals=True, perception_noise=1.0),
        "bounded:misread=0.4,memory=3,eliminator:memory=2,tolerance=3",
        121,
        40,
        id="bounded-2p-neutral",
    ),
    pytest.param(ZoologySettings(mode="cooperative"), "team*4", 109, 60, id="coop-4p"),
    pytest.param(
        ZoologySettings(mode="cooperative", players=5, regions=("asia",)),
        "eliminator*2,bounded*2,bounded:memory=1,misread=0.5",
        122,
        40,
        id="coop-bounded",
    ),
    pytest.param(
        ZoologySettings(
            mode="cooperative",
            players=3,
            gift_token=False,
            neutral_animals=True,
            guess_tokens=TOKENS_6,
        ),
        "team,curious,bayes",
        110,
        60,
        id="coop-no-gift",
    ),
    pytest.param(
        ZoologySettings(
            mode="cooperative", players=6, regions=ALL_REGIONS, question_information=True
        ),
        "team*6",
        111,
        30,
        id="coop-6p-legend",
    ),
]


@pytest.mark.parametrize(("rules", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference(rules, lineup, seed, n_games) -> None:
    kernel_totals, kernel_rows = run_kernel(rules, lineup, seed, n_games)
    reference_totals, reference_rows = play_batch_reference(
        rules, engine.lineup(lineup), seed, n_games, with_rows=True
    )
    assert kernel_totals.keys() == reference_totals.keys()
    for key in kernel_totals:
        np.testing.assert_array_equal(kernel_totals[key], reference_totals[key], err_msg=key)
    for key in kernel_rows:
        np.testing.assert_array_equal(kernel_rows[key], reference_rows[key], err_msg=key)
    assert kernel_totals["games"][0] == n_games
    assert kernel_totals["question_plays"].sum() > 0
    measured = kernel_totals["question_information"].sum() > 0
    assert measured == rules.question_information  # only measured when asked
    cooperative = kernel_totals["coop_games"].sum() > 0
    assert_outcome_counts_agree(
        kernel_totals,
        len(engine.lineup(lineup)),
        int(kernel_totals["coop_success"].sum()) if cooperative else None,
    )


def test_the_race_cases_reach_every_branch() -> None:
    """Not vacuous: the race cases above have windows with one right guess and, with a
    simultaneous chance above 0, windows with several; with chance 0 never several."""
    case = {param.id: param.values for param in CASES}
    often, _ = run_kernel(*case["race-6p-often-simultaneous"])
    assert often["window_right"][1] > 0 and often["window_right"][2:].sum() > 0
    never, _ = run_kernel(*case["race-never-simultaneous"])
    assert never["window_right"][1] > 0 and never["window_right"][2:].sum() == 0
    shared, shared_rows = run_kernel(*case["shared-wins"])
    most, most_rows = run_kernel(*case["shared-wins-most-points"])
    games = case["shared-wins"][3]
    assert shared["wins"].sum() > most["wins"].sum() > games  # ties, and more shared wins
    np.testing.assert_array_equal(shared_rows["row_points"], most_rows["row_points"])
    np.testing.assert_array_equal(
        shared_rows["row_standing"], np.minimum(shared_rows["row_points"], 3)
    )


def test_a_game_does_not_depend_on_the_batch_size() -> None:
    rules = ZoologySettings()
    _, rows_10 = run_kernel(rules, "curious,bayes,team,bayes", 5, 10)
    _, rows_25 = run_kernel(rules, "curious,bayes,team,bayes", 5, 25)
    for key in rows_10:
        np.testing.assert_array_equal(rows_10[key], rows_25[key][:10], err_msg=key)


@pytest.mark.parametrize(
    ("rules", "lineup", "split"),
    [
        pytest.param(ZoologySettings(), "curious,bayes,team,bayes", 7, id="competitive"),
        pytest.param(
            ZoologySettings(mode="cooperative", players=3), "team,curious,team", 1, id="coop"
        ),
    ],
)
def test_a_batch_played_in_two_chunks_equals_one_call(rules, lineup, split) -> None:
    """``job(s, k)`` then ``job(s, n - k, first_game=k)`` is ``job(s, n)``, on the kernel and
    on the reference engine: game ``g`` of a batch is the same game whichever call plays it."""
    seed, n_games = 2024, 20
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

    whole_reference = reference(n_games)
    assert_chunks_make_the_batch(
        whole_reference, [reference(split), reference(n_games - split, split)]
    )
    for key, value in whole.items():  # the job is the kernel playing the same games
        np.testing.assert_array_equal(value, whole_reference[key], err_msg=key)


def test_the_cooperative_grid_played_in_chunks_equals_one_call() -> None:
    """Game ``g`` plays cell ``g mod cells`` whichever call plays it, so chunks that do not
    start on a cell boundary still add up to the whole batch, cell by cell."""
    rules = ZoologySettings(mode="cooperative", cooperative_grid=True)
    lineup = parse_lineup("team*6", GAME.strategies)
    rules = GAME.settings_for_lineup(rules, lineup)
    n_cells = len(cells(rules, 6))
    job = GAME.batch_job(rules, lineup, True)
    n_games, first, second = n_cells + 9, 5, n_cells - 3
    whole = job(11, n_games)
    chunks = [
        job(11, first),
        job(11, second - first, first_game=first),
        job(11, n_games - second, first_game=second),
    ]
    assert_chunks_make_the_batch(whole, chunks)
    # cells 0-8 got two games, the rest one; the first chunk played cells 0-4 only
    assert whole["coop_games"].tolist() == [2] * 9 + [1] * (n_cells - 9)
    assert chunks[0]["coop_games"].tolist() == [1] * first + [0] * (n_cells - first)


def test_cooperative_grid_batch_equals_reference_cell_by_cell() -> None:
    rules = ZoologySettings(mode="cooperative", cooperative_grid=True, neutral_animals=True)
    lineup = parse_lineup("team*6", GAME.strategies)
    rules = GAME.settings_for_lineup(rules, lineup)
    plan = cells(rules, 6)
    n_games = 2 * len(plan) + 7
    result = GAME.batch_job(rules, lineup, True)(99, n_games)
    strategies = engine.lineup("team*6")
    totals = counts.new_totals(6, len(rules.animals), len(rules.questions), len(plan))
    rows = counts.new_rows(n_games, 6)
    # the batch plays cell by cell (game i in cell i mod cells); add up in that order
    order = [(game, cell) for cell in range(len(plan)) for game in range(cell, n_games, len(plan))]
    for game, cell in order:
        players, regions = plan[cell]
        cell_rules = replace(with_players(rules, players, regions), cooperative_grid=False)
        record = engine.play_game(cell_rules, strategies[:players], 99, game)
        tally(record, totals, cell)
        rows["row_points"][game, :players] = record.points
        rows["row_rounds"][game] = record.rounds
        rows["row_turns"][game] = record.turns
        rows["row_success"][game] = int(record.success)  # cooperative: 0 or 1
    for key in totals:
        np.testing.assert_array_equal(result[key], totals[key], err_msg=key)
    for key in rows:
        np.testing.assert_array_equal(result[key], rows[key], err_msg=key)
    assert result["coop_games"].tolist() == [3] * 7 + [2] * (len(plan) - 7)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference_on_long_batches(rules, lineup, seed, n_games) -> None:
    n_games *= 10
    seed = (seed + 1000) % 2**64
    kernel_totals, kernel_rows = run_kernel(rules, lineup, seed, n_games)
    reference_totals, reference_rows = play_batch_reference(
        rules, engine.lineup(lineup), seed, n_games, with_rows=True
    )
    for key in kernel_totals:
        np.testing.assert_array_equal(kernel_totals[key], reference_totals[key], err_msg=key)
    for key in kernel_rows:
        np.testing.assert_array_equal(kernel_rows[key], reference_rows[key], err_msg=key)
