"""Through the Zoo's kernel plays exactly the reference engine's games.

``make_batch(...)(seed, n)`` (with rows) and ``batch.play_batch_reference`` give identical
count arrays and rows for every mulligan strategy, 2-4 players, both zoos, shuffled and
listed exhibit orders, the tie rules, and real exhibits (Dodgeball) next to the test exhibit
"heart-count" (``exhibit_helpers``); the cases reach mulligans of every size, shared wins,
the tie break and Johannesburg's meta points; a batch played in chunks equals one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows
from exhibit_helpers import install

from zooanalysis.games.through_the_zoo import engine
from zooanalysis.games.through_the_zoo.batch import make_batch, play_batch_reference
from zooanalysis.games.through_the_zoo.rules import DECK_SIZE, settings_from_table
from zooanalysis.games.through_the_zoo.strategies import STRATEGIES
from zooanalysis.strategy_spec import parse_lineup

HC = ["heart-count"] * 4
CASES = [
    pytest.param({"players": 2, "exhibits": HC}, "random,keep-all", 1, 80, id="2p-zooklyn"),
    pytest.param({"players": 3, "exhibits": HC, "zoo": "johannesburg",
                  "play": {"heart-count": "plain,random,random"}},
                 "planner,fit,random", 2, 80, id="3p-johannesburg"),
    pytest.param({"players": 4, "exhibits": HC[:3], "exhibit_order": "as-listed",
                  "tie_break": "shared", "last_gets_zero": False},
                 "fit:margin=0,planner:margin=0,future=2,random,keep-all", 3, 80,
                 id="4p-three-rounds-shared"),
    pytest.param({"players": 4, "mulligan_limit": 3, "identical_cards": "later-wins",
                  "play": {"dodgeball": "dodger,random,coach,random"}},
                 "planner,random,fit,keep-all", 4, 25, id="4p-dodgeball"),
    pytest.param({"players": 4, "zoo": "johannesburg",
                  "exhibits": ["dodgeball", "heart-count", "dodgeball", "heart-count"],
                  "play": {"dodgeball": "coach", "heart-count": "random"}},
                 "random,planner,random,fit", 5, 25, id="4p-johannesburg-mixed"),
    pytest.param({"players": 2, "exhibits": ["hearts", "big-two", "hearts", "big-two"],
                  "identical_cards": "later-wins",
                  "play": {"hearts": "bold,safe", "big-two": "control,random"}},
                 "planner,fit", 6, 30, id="2p-hearts-big-two-later-wins"),
    pytest.param({"players": 3, "zoo": "johannesburg", "tie_break": "shared",
                  "exhibits": ["big-two", "hearts", "big-two", "hearts"],
                  "play": {"hearts": "random,bold,safe", "big-two": "greedy,control,random"}},
                 "fit,planner:future=2,random", 7, 30, id="3p-johannesburg-hearts-big-two"),
    pytest.param({"players": 4, "mulligan_limit": 5, "exhibit_order": "as-listed",
                  "exhibits": ["dodgeball", "hearts", "big-two", "hearts"],
                  "identical_cards": "later-wins",
                  "play": {"dodgeball": "coach,random,dodger,coach", "hearts": "safe",
                           "big-two": "greedy"}},
                 "keep-all,planner,fit,random", 8, 20, id="4p-every-exhibit-later-wins"),
]


@pytest.fixture(autouse=True)
def heart_count(monkeypatch):
    install(monkeypatch)


@pytest.mark.parametrize(("table", "lineup", "seed", "games"), CASES)
def test_kernel_equals_reference(table, lineup, seed, games) -> None:
    rules = settings_from_table(table)
    result = make_batch(rules, parse_lineup(lineup, STRATEGIES), True)(seed, games)
    kernel_totals, kernel_rows = split_rows(result)
    totals, rows = play_batch_reference(rules, engine.lineup(lineup), seed, games, True)
    assert kernel_totals.keys() == totals.keys()
    for key in totals:
        np.testing.assert_array_equal(kernel_totals[key], totals[key], err_msg=key)
    for key in rows:
        np.testing.assert_array_equal(kernel_rows[key], rows[key], err_msg=key)
    assert totals["games"][0] == games
    assert_outcome_counts_agree(totals, rules.players)
    mulligans = totals["mulligans"]
    if lineup != "random,keep-all":
        assert mulligans[:, :, 1:].sum() > 0, "some player mulliganed"
    assert mulligans[-1, :, 1:].sum() == 0, "no mulligan in the last round (the deck is empty)"
    rounds = rules.rounds
    assert totals["decision_options"].sum() == games * rules.players * rounds, "every Prepare"
    forced = int(rounds * rules.hand_size == DECK_SIZE)  # the last round's deck is empty
    assert totals["decision_options"][1] == forced * games * rules.players
    real = (rounds - forced) * rules.players  # all the others are real choices
    assert totals["game_decisions"][real] == games


def test_the_cases_reach_the_rare_branches() -> None:
    """Not vacuous: shared wins, tie breaks by the last round, meta points, every order."""
    rules = settings_from_table({"players": 3, "exhibits": HC, "zoo": "johannesburg"})
    totals, _ = play_batch_reference(rules, engine.lineup("random*3"), 9, 150)
    assert totals["win_ties"][:, 2:].sum() > 0, "shared victories happen"
    assert totals["margins"][0] > 0, "ties broken by the last round happen"
    assert (totals["order_games"] > 0).sum() == 24
    assert totals["mulligans"][0, :, 7].sum() > 0, "the full Johannesburg mulligan of 7"
    rules = settings_from_table({"zoo": "johannesburg",
                                 "play": {"dodgeball": "dodger"}})
    totals, _ = play_batch_reference(rules, engine.lineup("random*4"), 9, 20)
    assert totals["meta_points"][:, 1:].sum() > 0, "Johannesburg's meta scoring gives points"


def test_a_batch_in_chunks_is_one_batch() -> None:
    rules = settings_from_table({"players": 3, "exhibits": HC, "zoo": "johannesburg"})
    job = make_batch(rules, parse_lineup("planner,random,fit", STRATEGIES), True)
    whole = job(11, 60)
    chunks = [job(11, 25), job(11, 1, first_game=25), job(11, 34, first_game=26)]
    assert_chunks_make_the_batch(whole, chunks)


def _registered_exhibits() -> list[str]:
    from zooanalysis.games.exhibits import exhibit_names

    return exhibit_names()


@pytest.mark.parametrize("name", _registered_exhibits())
def test_every_registered_exhibit_plays_the_same_in_both_engines(name) -> None:
    """Each registered exhibit game (Dodgeball, and Hearts and Big Two once registered) in
    all four rounds, 4 players, both zoos: kernel equals reference, card play random and
    the game's own default card play."""
    from zooanalysis.games import get_game

    game = get_game(name)
    heuristic = game.default_lineup.split(",")[0].split(":")[0]
    for zoo, play, seed in (("zooklyn", "random", 31), ("johannesburg", heuristic, 32)):
        rules = settings_from_table({"zoo": zoo, "exhibits": [name] * 4, "play": {name: play}})
        lineup = "planner,random,fit,keep-all"
        result = make_batch(rules, parse_lineup(lineup, STRATEGIES), True)(seed, 12)
        kernel_totals, kernel_rows = split_rows(result)
        totals, rows = play_batch_reference(rules, engine.lineup(lineup), seed, 12, True)
        for key in totals:
            np.testing.assert_array_equal(kernel_totals[key], totals[key], err_msg=key)
        for key in rows:
            np.testing.assert_array_equal(kernel_rows[key], rows[key], err_msg=key)


def test_worker_threads_that_first_play_together_all_play_the_compiled_loop() -> None:
    """zoosim field --jobs 2 once crashed: a thread found the loop module of another still
    executing and took the uncompiled loop. Every thread now gets the one compiled loop and
    plays the same games as a serial call."""
    import sys
    import threading

    from numba.core.registry import CPUDispatcher

    from zooanalysis import compiled
    from zooanalysis.games.through_the_zoo import kernel

    rules = settings_from_table({"players": 3, "exhibits": HC, "zoo": "johannesburg"})
    job = make_batch(rules, parse_lineup("planner,random,fit", STRATEGIES), True)
    expected = job(7, 20)
    kernel._LOOPS.clear()
    for name in [name for name in sys.modules if name.startswith("zoosim_through_the_zoo_loop_")]:
        del sys.modules[name]
        del compiled._GENERATED[name]
    assert "_batch_loop" not in compiled.variant_globals(kernel.__name__, "_batch_loop", {})
    start = threading.Barrier(6)
    loops, results, errors = [], [], []

    def worker() -> None:
        start.wait()
        try:
            loops.append(kernel.compiled_loop(job.exhibit_modules))
            results.append(job(7, 20))
        except Exception as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(isinstance(loop, CPUDispatcher) and loop is loops[0] for loop in loops)
    for result in results:
        for key, value in expected.items():
            np.testing.assert_array_equal(result[key], value, err_msg=key)
