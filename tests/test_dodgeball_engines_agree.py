"""The numba kernel plays exactly the reference engine's matches.

``make_batch(...)(seed, n)`` (with per-game rows) and ``batch.play_batch_reference`` must
give identical count arrays and rows, array by array, for every strategy, both player
counts and every variant; the cases must reach the rare branches (catches, blocks,
timeouts, All-Stars, both ways a round ends, the 2-player setup exchange); and a batch
played in chunks must equal one call.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import (
    assert_chunks_make_the_batch,
    assert_outcome_counts_agree,
    split_rows,
)

from zooanalysis.games.dodgeball import engine
from zooanalysis.games.dodgeball.batch import make_batch, play_batch_reference
from zooanalysis.games.dodgeball.counts import (
    EV_ALLSTAR,
    EV_BLOCK,
    EV_CALL,
    EV_CATCH,
    EV_EXCHANGE,
    EV_SETUP,
)
from zooanalysis.games.dodgeball.rules import CANNOT_FOLLOW, EMPTY_HAND, DodgeballSettings
from zooanalysis.games.dodgeball.strategies import STRATEGIES
from zooanalysis.strategy_spec import parse_lineup

CASES = [
    pytest.param(DodgeballSettings(), "random,random,random,random", 101, 120, id="4p-random"),
    pytest.param(DodgeballSettings(), "dodger,dodger,dodger,dodger", 102, 80, id="4p-dodger"),
    pytest.param(DodgeballSettings(), "coach,random,dodger,coach", 103, 80, id="4p-mixed"),
    pytest.param(
        DodgeballSettings(),
        "dodger:keep_suits=0,hit_cost=20,catch_bonus=0,block_bonus=15,allstar=0,exchange=0,"
        "coach:call_suits=4,random,coach:keep_suits=12,allstar=0",
        104, 80, id="4p-custom-params",
    ),
    pytest.param(DodgeballSettings(players=2), "random,random", 105, 120, id="2p-random"),
    pytest.param(DodgeballSettings(players=2), "coach,dodger", 106, 80, id="2p-heuristics"),
    pytest.param(DodgeballSettings(ringers=True), "random,coach,random,dodger", 107, 80,
                 id="ringers"),
    pytest.param(DodgeballSettings(ringers=True, aces="high", ringer_bench="zero"),
                 "dodger,random,coach,random", 108, 80, id="ringers-aces-high-zero"),
    pytest.param(DodgeballSettings(ringers=True, ringer_bench="fourteen", players=2),
                 "random,coach", 109, 80, id="2p-ringers-fourteen"),
    pytest.param(
        DodgeballSettings(timeouts=3, setup_bench=2, setup_swap=2, catch_bring_back=False,
                          match_points=3),
        "random,coach,coach,random", 110, 60, id="more-timeouts-no-bring-back",
    ),
    pytest.param(
        DodgeballSettings(ranks=tuple(range(1, 8)), allstars=False, timeouts=0,
                          match_points=1),
        "random,dodger,random,dodger", 111, 120, id="small-deck-no-allstars",
    ),
    pytest.param(
        DodgeballSettings(players=2, dummy_face_down=3, dummy_face_up=8, two_player_hand=10,
                          two_player_bench=2, two_player_exchange=0),
        "dodger,random", 112, 80, id="2p-other-dummies",
    ),
]


def both_engines(rules: DodgeballSettings, lineup: str, seed: int, games: int):
    players = parse_lineup(lineup, STRATEGIES)
    assert len(players) == rules.players
    kernel_result = make_batch(rules, players, with_rows=True)(seed, games)
    totals, rows = play_batch_reference(rules, engine.lineup(lineup), seed, games, True)
    return kernel_result, totals, rows


@pytest.mark.parametrize(("rules", "lineup", "seed", "games"), CASES)
def test_kernel_equals_reference_engine(rules, lineup, seed, games) -> None:
    kernel_result, totals, rows = both_engines(rules, lineup, seed, games)
    counts, kernel_rows = split_rows(kernel_result)
    assert counts.keys() == totals.keys() and kernel_rows.keys() == rows.keys()
    for key, value in totals.items():
        assert counts[key].dtype == value.dtype, key
        np.testing.assert_array_equal(counts[key], value, err_msg=key)
    for key, value in rows.items():
        assert kernel_rows[key].dtype == value.dtype, key
        np.testing.assert_array_equal(kernel_rows[key], value, err_msg=key)
    assert totals["games"][0] == games
    assert totals["round_ends"].sum() == rows["row_rounds"].sum()
    assert_outcome_counts_agree(totals, rules.players)
    winners = 2 if rules.players == 4 else 1
    assert totals["win_ties"][:, winners].sum() == winners * games, "partners share a win"
    margins = np.nonzero(totals["margins"])[0]
    assert set(margins) <= set(range(1, rules.match_points + 1)), "margins are in rounds"
    # decisions (both engines' arrays compared above): every match counted once, every card
    # played one decision at least (a declared All-Star or Ringer adds one), real choices
    options, per_game = totals["decision_options"], totals["game_decisions"]
    assert per_game.sum() == games and options[2:].sum() > 0
    tricks = int(rows["row_tricks"].sum())
    assert options.sum() >= 4 * tricks + totals["round_ends"][:, :, 1:].sum()


def test_the_cases_reach_the_rare_branches() -> None:
    """Not vacuous: over the cases every event and both endings happen, in both engines."""
    reached = {}
    for case in CASES:
        rules, lineup, seed, games = case.values
        _, totals, _ = both_engines(rules, lineup, seed, min(games, 30))
        events = totals["seat_events"].sum(axis=0)
        reached["catch"] = reached.get("catch", 0) + events[EV_CATCH]
        reached["block"] = reached.get("block", 0) + events[EV_BLOCK]
        reached["timeout"] = reached.get("timeout", 0) + events[EV_CALL]
        reached["exchange"] = reached.get("exchange", 0) + events[EV_EXCHANGE]
        reached["allstar"] = reached.get("allstar", 0) + events[EV_ALLSTAR]
        reached["setup exchange"] = reached.get("setup exchange", 0) + events[EV_SETUP]
        ends = totals["round_ends"].sum(axis=(0, 2, 3))
        reached["empty hand"] = reached.get("empty hand", 0) + ends[EMPTY_HAND]
        reached["no new suit"] = reached.get("no new suit", 0) + ends[CANNOT_FOLLOW]
        reached["third round"] = reached.get("third round", 0) + totals["rounds_hist"][3:].sum()
        for position in range(4):
            key = f"ended at position {position}"
            reached[key] = reached.get(key, 0) + totals["round_ends"][:, :, position].sum()
    missing = [name for name, count in reached.items() if count == 0]
    assert not missing, f"never reached: {missing}"


@pytest.mark.parametrize(("rules", "lineup"), [
    (DodgeballSettings(), "coach,random,dodger,random"),
    (DodgeballSettings(players=2, ringers=True), "random,dodger"),
])
def test_a_batch_in_chunks_is_the_batch(rules, lineup) -> None:
    job = make_batch(rules, parse_lineup(lineup, STRATEGIES), with_rows=True)
    whole = job(31, 90)
    chunks = [job(31, 25), job(31, 40, first_game=25), job(31, 25, first_game=65)]
    assert_chunks_make_the_batch(whole, chunks)


def test_game_i_does_not_depend_on_the_batch() -> None:
    job = make_batch(DodgeballSettings(), parse_lineup("random*4", STRATEGIES), True)
    alone = job(5, 1, first_game=17)
    inside = job(5, 30)
    for key in ("row_points", "row_rounds", "row_tricks", "row_winner"):
        np.testing.assert_array_equal(alone[key][0], inside[key][17])
