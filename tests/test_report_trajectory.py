"""Lead changes and 'the winner leads for good': the definitions, computed by hand."""

from __future__ import annotations

import numpy as np

from zooanalysis.games.bluff import counts, engine, kernel
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.games.bluff.strategies import strategy_code, strategy_params
from zooanalysis.trajectory import (
    NO_LEADER,
    count_lead_changes,
    settled_bin,
    settled_move,
    settled_table,
    sole_leader,
)


def test_the_sole_leader_needs_the_strictly_best_standing() -> None:
    assert sole_leader([3, 0, 0], higher_is_better=False) == NO_LEADER  # two at 0 points
    assert sole_leader([3, 5, 0], higher_is_better=False) == 2
    assert sole_leader([3, 5, 0], higher_is_better=True) == 1
    assert sole_leader([4, 4, 1], higher_is_better=True) == NO_LEADER


def test_a_hand_computed_bluff_trajectory() -> None:
    """Three players, score checks (doubts) after moves 4, 9 and 15 of a 16-move game.

    After move 4: points (3, 0, 0): seats 2 and 3 share the fewest, no sole leader.
    After move 9: (3, 5, 0): seat 3 leads alone (the first sole leader, not a change).
    After move 15: (3, 5, 6): seat 1 leads alone: one lead change, and seat 1 wins.
    Seat 1 is the sole leader at every check from move 10 on (the check after move 9 was
    the last one it did not lead): t = 10, T = 16, bin floor(20 * 10 / 16) = 12, i.e. the
    winner leads for good after 60% of the game.
    """
    checks = [(4, (3, 0, 0)), (9, (3, 5, 0)), (15, (3, 5, 6))]
    leaders = [sole_leader(points, higher_is_better=False) for _, points in checks]
    assert leaders == [NO_LEADER, 2, 0]
    assert count_lead_changes(leaders) == 1
    t = settled_move([move for move, _ in checks], leaders, winner=0)
    assert t == 10
    assert settled_bin(t, 16) == 12
    assert settled_table(np.eye(20, dtype=np.int64)[12])["settled_percent"][12] == 60


def test_lead_changes_count_only_a_new_sole_leader() -> None:
    # a shared lead in between is not a change; returning to the same leader is not either
    assert count_lead_changes([NO_LEADER, 0, NO_LEADER, 0, 1, 1, NO_LEADER, 0]) == 2
    assert count_lead_changes([NO_LEADER, NO_LEADER]) == 0
    assert count_lead_changes([2, 2, 2]) == 0


def test_a_winner_who_always_led_settles_at_the_start() -> None:
    assert settled_move([0, 5, 8], [1, 1, 1], winner=1) == 0
    assert settled_bin(0, 9) == 0
    # the last move is the last bin, even when it alone decides
    assert settled_move([0, 5, 8], [1, 1, 2], winner=2) == 6
    assert settled_bin(8, 9) == 17 and settled_bin(9, 9) == 19


def test_the_kernel_counts_a_game_as_the_definition_does() -> None:
    """Game by game, the kernel's histograms equal the definitions applied to the
    reference engine's score checks (a batch of one game per seed)."""
    settings = BluffSettings(players=4)
    players = [s.player for s in engine.lineup("bayes,random,cautious,aggressive")]
    seen_changes = set()
    for seed in range(25):
        record = engine.play_game(
            settings, engine.lineup("bayes,random,cautious,aggressive"), seed, 0
        )
        assert record.score_checks[-1][0] == record.moves - 1  # a game ends with a doubt
        leaders = []
        for _, points in record.score_checks:
            fewest = min(points)
            at_fewest = [seat for seat, p in enumerate(points) if p == fewest]
            leaders.append(at_fewest[0] if len(at_fewest) == 1 else NO_LEADER)
        totals = counts.new_totals(4)
        kernel.play_batch(
            settings.deck.cards(),
            settings.hand_size,
            settings.points_to_end,
            settings.claim_cap,
            np.array([strategy_code(p) for p in players], dtype=np.int64),
            np.array([strategy_params(p) for p in players], dtype=np.float64),
            seed,
            1,
            totals,
        )
        changes = count_lead_changes(leaders)
        seen_changes.add(changes)
        assert totals["lead_changes_hist"][changes] == 1
        if len(record.winners) == 1:
            start = settled_move([m for m, _ in record.score_checks], leaders, record.winners[0])
            assert totals["settled_hist"][min(19, 20 * start // record.moves)] == 1
        else:
            assert totals["settled_hist"].sum() == 0
    assert len(seen_changes) >= 2
