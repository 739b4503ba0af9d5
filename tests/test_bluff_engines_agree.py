"""The numba kernel plays exactly the reference engine's games.

``kernel.play_batch`` (with per-game rows) and ``batch.play_batch_reference``
must produce identical count arrays and rows, array by array, for every strategy, player
count and custom setting; game ``i`` of a batch must not depend on the batch size.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree, split_rows

from zooanalysis.games.bluff import counts, engine, kernel
from zooanalysis.games.bluff.batch import make_batch, play_batch_reference
from zooanalysis.games.bluff.rules import BluffSettings, DeckSettings
from zooanalysis.games.bluff.strategies import strategy_code, strategy_params


def run_kernel(game_settings: BluffSettings, lineup: str, seed: int, n_games: int):
    """Kernel totals and rows for a batch, arguments built as the Bluff game builds them."""
    players = [s.player for s in engine.lineup(lineup)]
    assert len(players) == game_settings.players
    totals = counts.new_totals(game_settings.players)
    rows = counts.new_rows(n_games, game_settings.players)
    kernel.play_batch(
        game_settings.deck.cards(),
        game_settings.hand_size,
        game_settings.points_to_end,
        game_settings.claim_cap,
        np.array([strategy_code(p) for p in players], dtype=np.int64),
        np.array([strategy_params(p) for p in players], dtype=np.float64),
        seed,
        n_games,
        totals,
        rows,
    )
    return totals, rows


SMALL_DECK = DeckSettings(
    animal_cards_per_value=2, wild_1=2, wild_2=2, count_one=2, all_equal=2, stop=3
)
NO_ACTIONS = DeckSettings(count_one=0, all_equal=0, stop=0)

CASES = [
    pytest.param(BluffSettings(players=2), "bayes,random", 101, 120, id="2p-bayes-random"),
    pytest.param(
        BluffSettings(players=2), "cautious,aggressive", 102, 120, id="2p-cautious-aggressive"
    ),
    pytest.param(BluffSettings(players=3), "bayes,cautious,aggressive", 103, 100, id="3p"),
    pytest.param(
        BluffSettings(players=4), "bayes,random,cautious,aggressive", 104, 100, id="4p-all"
    ),
    pytest.param(
        BluffSettings(players=4),
        "bayes:doubt=0.6,bluff=0.5,cautious:trust=0.5,margin=-1,"
        "aggressive:raise=1,doubt_ratio=3,draw=0.1,random",
        105,
        100,
        id="4p-custom-params",
    ),
    pytest.param(
        BluffSettings(players=6), "bayes,random,cautious,aggressive,bayes,cautious", 106, 60,
        id="6p",
    ),
    pytest.param(
        BluffSettings(players=3, hand_size=3, points_to_end=12, deck=SMALL_DECK),
        "bayes,aggressive,cautious",
        107,
        150,
        id="small-deck-12-points",
    ),
    pytest.param(
        BluffSettings(players=2, hand_size=3, points_to_end=10, deck=NO_ACTIONS),
        "random,bayes",
        108,
        150,
        id="no-action-cards",
    ),
    pytest.param(
        BluffSettings(players=5, max_claim_count=3), "aggressive,random,bayes,cautious,random",
        109, 80, id="claim-cap-3",
    ),
    pytest.param(
        BluffSettings(players=4, points_to_end=1000), "random*2,cautious*2", 2**64 - 1, 60,
        id="deck-end-max-seed",
    ),
    pytest.param(
        BluffSettings(players=6, hand_size=1), "bayes,random,cautious,aggressive,bayes,random",
        110, 60, id="6p-hand-1",
    ),
    pytest.param(
        BluffSettings(players=2, deck=DeckSettings(0, 5, 5, 0, 0, 0)), "bayes,cautious", 111,
        60, id="no-draw-pile",
    ),
    pytest.param(
        BluffSettings(players=3, max_claim_count=1), "bayes,random,aggressive", 112, 60,
        id="claim-cap-1",
    ),
    pytest.param(
        BluffSettings(players=4, hand_size=10), "bayes,random,cautious,aggressive", 113, 60,
        id="hand-10",
    ),
    # decks too big for the kernel's packed pile (pile.py): it counts per card type
    pytest.param(
        BluffSettings(players=3, deck=DeckSettings(animal_cards_per_value=8)),
        "random,bayes,cautious", 114, 40, id="unpacked-deck",
    ),
    pytest.param(
        BluffSettings(players=4, deck=DeckSettings(count_one=16)), "random*4", 115, 80,
        id="unpacked-deck-random",
    ),
    pytest.param(BluffSettings(players=4), "random*4", 116, 300, id="4p-random"),
    # cautious on the packed words (packed_cautious.py): the default lineup, and extremes
    pytest.param(
        BluffSettings(players=4), "cautious:trust=0.75,margin=6.25*4", 121, 150,
        id="4p-cautious-default",
    ),
    pytest.param(
        BluffSettings(players=3, hand_size=3, deck=SMALL_DECK),
        "cautious:trust=0,margin=-5,cautious:trust=3,margin=10,random", 122, 150,
        id="3p-cautious-extremes-small-deck",
    ),
    # stakes reads the public table (scores, the points that end the game, the claims)
    pytest.param(
        BluffSettings(players=4), "stakes,bayes,cautious,random", 117, 100, id="4p-stakes"
    ),
    pytest.param(
        BluffSettings(players=2, points_to_end=12), "stakes:read=8,cliff=6,bluff=0.9,stakes",
        118, 150, id="2p-stakes-12-points",
    ),
    pytest.param(
        BluffSettings(players=5, hand_size=3, deck=SMALL_DECK),
        "stakes:rival=1.5,caution=0,bluff_pile=3,stakes,aggressive,stakes:read=1,random",
        119, 100, id="5p-stakes-small-deck",
    ),
    pytest.param(
        BluffSettings(players=3, deck=DeckSettings(animal_cards_per_value=8)),
        "stakes,bayes,stakes:read=20", 120, 40, id="unpacked-deck-stakes",
    ),
]


@pytest.mark.parametrize(("game_settings", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference(game_settings, lineup, seed, n_games):
    kernel_totals, kernel_rows = run_kernel(game_settings, lineup, seed, n_games)
    reference_totals, reference_rows = play_batch_reference(
        game_settings, engine.lineup(lineup), seed, n_games, with_rows=True
    )
    assert kernel_totals.keys() == reference_totals.keys()
    for key in kernel_totals:
        np.testing.assert_array_equal(kernel_totals[key], reference_totals[key], err_msg=key)
    assert kernel_rows.keys() == reference_rows.keys()
    for key in kernel_rows:
        np.testing.assert_array_equal(kernel_rows[key], reference_rows[key], err_msg=key)
    # the comparison is not vacuous: games were played and recorded
    assert kernel_totals["games"][0] == n_games
    assert kernel_rows["row_moves"].min() > 0
    assert kernel_totals["claims"].sum() > 0 and kernel_totals["doubts"].sum() > 0
    # the per-game moments (compared above with every count) are not vacuous: the sum of
    # each seat's squared claims per game is at least its claims, equal only if one a game
    claim_moments = kernel_totals["claim_moments"]
    per_seat_claims = kernel_totals["claims"].sum(axis=(1, 2, 3, 4, 5))
    assert (np.diagonal(claim_moments[:, :, 1]) > per_seat_claims).all()
    assert kernel_totals["doubt_moments"][:, :, 1].sum() >= kernel_totals["doubts"].sum()
    # score trajectories: every game has a lead-change count, every single-winner game a
    # settled bin (the arrays themselves are compared above)
    assert kernel_totals["lead_changes_hist"].sum() == n_games
    assert kernel_totals["settled_hist"].sum() == kernel_totals["sole_wins"].sum()
    assert_outcome_counts_agree(kernel_totals, game_settings.players)


def test_outcome_counts_reach_ties_and_margins():
    """Shared wins and several margins occur, so the outcome counts' agreement means
    something; the margin is the best non-winner's points minus the winner's."""
    totals, rows = run_kernel(BluffSettings(players=4), "bayes,random,cautious,aggressive", 11, 400)
    assert totals["win_ties"][:, 2:].sum() > 0
    assert np.count_nonzero(totals["margins"]) >= 5
    expected = np.zeros_like(totals["margins"])
    for scores in rows["row_scores"]:
        others = scores[scores > scores.min()]
        if len(others):
            expected[min(others.min() - scores.min(), len(expected) - 1)] += 1
    np.testing.assert_array_equal(expected, totals["margins"])


def test_trajectory_counts_are_not_trivial():
    """Lead changes and settled bins spread over several values, so agreement means something."""
    totals, _ = run_kernel(BluffSettings(players=4), "bayes,random,cautious,aggressive", 11, 400)
    assert np.count_nonzero(totals["lead_changes_hist"][1:]) >= 2
    assert np.count_nonzero(totals["settled_hist"]) >= 5


def test_reference_rows_are_play_game_records():
    game_settings = BluffSettings(players=3)
    lineup = "bayes,random,aggressive"
    _, rows = play_batch_reference(game_settings, engine.lineup(lineup), 5, 4, with_rows=True)
    for game in range(4):
        record = engine.play_game(game_settings, engine.lineup(lineup), 5, game)
        assert list(rows["row_scores"][game]) == record.scores
        assert rows["row_rounds"][game] == record.rounds
        assert rows["row_moves"][game] == record.moves
        assert rows["row_end"][game] == record.end_reason


def test_totals_add_up_across_batches():
    """Totals are summed into: two calls add two batches' counts."""
    game_settings = BluffSettings(players=3)
    lineup = "bayes,cautious,random"
    first, _ = run_kernel(game_settings, lineup, 1, 30)
    second, _ = run_kernel(game_settings, lineup, 2, 30)
    players = [s.player for s in engine.lineup(lineup)]
    both = counts.new_totals(3)
    for seed in (1, 2):
        kernel.play_batch(
            game_settings.deck.cards(), 5, 30, game_settings.claim_cap,
            np.array([strategy_code(p) for p in players], dtype=np.int64),
            np.array([strategy_params(p) for p in players], dtype=np.float64),
            seed, 30, both,
        )
    for key in both:
        np.testing.assert_array_equal(both[key], first[key] + second[key], err_msg=key)


@pytest.mark.parametrize("lineup", ["bayes,random,cautious,aggressive", "random*4"])
def test_game_i_does_not_depend_on_batch_size(lineup):
    game_settings = BluffSettings(players=4)
    _, rows_50 = run_kernel(game_settings, lineup, 77, 50)
    _, rows_20 = run_kernel(game_settings, lineup, 77, 20)
    for key in rows_20:
        np.testing.assert_array_equal(rows_20[key], rows_50[key][:20], err_msg=key)


def test_a_different_seed_gives_different_games():
    game_settings = BluffSettings(players=4)
    lineup = "bayes,random,cautious,aggressive"
    _, rows_a = run_kernel(game_settings, lineup, 77, 40)
    _, rows_b = run_kernel(game_settings, lineup, 78, 40)
    assert not np.array_equal(rows_a["row_scores"], rows_b["row_scores"])
    assert not np.array_equal(rows_a["row_moves"], rows_b["row_moves"])
    # and the same seed gives the same games
    _, rows_again = run_kernel(game_settings, lineup, 77, 40)
    for key in rows_a:
        np.testing.assert_array_equal(rows_a[key], rows_again[key], err_msg=key)



@pytest.mark.parametrize(
    ("game_settings", "lineup", "split"),
    [
        pytest.param(BluffSettings(players=4), "bayes,random,cautious,aggressive", 11, id="4p"),
        pytest.param(BluffSettings(players=3, max_claim_count=3), "random*3", 1, id="3p-random"),
    ],
)
def test_a_batch_played_in_two_chunks_equals_one_call(game_settings, lineup, split):
    """``job(s, k)`` then ``job(s, n - k, first_game=k)`` is ``job(s, n)``, on the kernel and
    on the reference engine: game ``g`` of a batch is the same game whichever call plays it."""
    seed, n_games = 2024, 30
    strategies = engine.lineup(lineup)
    job = make_batch(game_settings, [s.player for s in strategies], with_rows=True)
    whole = job(seed, n_games)
    assert_chunks_make_the_batch(
        whole, [job(seed, split), job(seed, n_games - split, first_game=split)]
    )

    def reference(n: int, first_game: int = 0) -> dict:
        totals, rows = play_batch_reference(
            game_settings, strategies, seed, n, with_rows=True, first_game=first_game
        )
        return {**totals, **rows}

    assert_chunks_make_the_batch(
        reference(n_games), [reference(split), reference(n_games - split, split)]
    )
    # the job is the kernel playing the reference engine's games
    for mine, theirs in zip(split_rows(whole), split_rows(reference(n_games)), strict=True):
        assert mine.keys() == theirs.keys()
        for key in mine:
            np.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_kernel_equals_reference_many_games(players):
    names = ["bayes", "random", "cautious", "aggressive", "bayes", "cautious"]
    lineup = ",".join(names[:players])
    game_settings = BluffSettings(players=players)
    kernel_totals, kernel_rows = run_kernel(game_settings, lineup, 9000 + players, 1500)
    reference_totals, reference_rows = play_batch_reference(
        game_settings, engine.lineup(lineup), 9000 + players, 1500, with_rows=True
    )
    for key in kernel_totals:
        np.testing.assert_array_equal(kernel_totals[key], reference_totals[key], err_msg=key)
    for key in kernel_rows:
        np.testing.assert_array_equal(kernel_rows[key], reference_rows[key], err_msg=key)
