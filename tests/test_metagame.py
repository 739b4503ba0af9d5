"""The meta-game solver on games whose answers are known by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zooanalysis.field_analysis import analyse, interchangeable, meta_game, nash_conv_interval
from zooanalysis.metagame import (
    TIE,
    Candidate,
    MetaGame,
    alpha_rank,
    choose_candidate,
    composition_count,
    compositions,
    equilibrium_candidates,
    fixation_probability,
    gains,
    nash_conv,
    solve_equilibrium,
)

ROCK_PAPER_SCISSORS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])


def test_compositions_are_every_multiset_once() -> None:
    table = compositions(3, 4)
    assert len(table) == composition_count(3, 4) == 15
    assert (table.sum(axis=1) == 4).all()
    assert len({tuple(row) for row in table.tolist()}) == 15


def test_rock_paper_scissors_has_the_uniform_equilibrium() -> None:
    game = MetaGame.from_matrix(ROCK_PAPER_SCISSORS)
    solved = solve_equilibrium(game)
    assert solved.weights == pytest.approx(np.full(3, 1 / 3), abs=1e-6)
    assert solved.nash_conv < 1e-9


def test_a_biased_rock_paper_scissors_is_solved_from_a_cycle() -> None:
    """Zero-sum, rock beats scissors by 1, paper beats rock by 2, scissors beats paper by 3:
    the equilibrium x solves A x = 0, i.e. x = (3, 1, 2) / 6. The dynamics cycle around it
    from the uniform start; the solver must still land on it."""
    matrix = np.array([[0, -2, 1], [2, 0, -3], [-1, 3, 0]], dtype=float)
    solved = solve_equilibrium(MetaGame.from_matrix(matrix))
    assert solved.weights == pytest.approx(np.array([3, 1, 2]) / 6, abs=1e-4)
    assert solved.nash_conv < 1e-6


def test_a_dominated_strategy_gets_no_weight() -> None:
    """A fourth strategy that loses to everything (0.2 against each of R, P, S, which
    score 0.8 against it) is strictly dominated: weight 0, the rest uniform."""
    matrix = np.array(
        [
            [0.5, 0.0, 1.0, 0.8],
            [1.0, 0.5, 0.0, 0.8],
            [0.0, 1.0, 0.5, 0.8],
            [0.2, 0.2, 0.2, 0.5],
        ]
    )
    solved = solve_equilibrium(MetaGame.from_matrix(matrix))
    assert solved.weights[3] < 1e-6
    assert solved.weights[:3] == pytest.approx(np.full(3, 1 / 3), abs=1e-4)


def test_a_three_seat_game_with_a_mixed_equilibrium() -> None:
    """Three seats, two strategies: a seat's payoff is 1 when its strategy is in the
    minority of the table and 0 otherwise (all alike: 1/3 each). Against two seats drawn
    from (p, 1 - p), A earns (1 - p)^2 + p^2 / 3 and B earns p^2 + (1 - p)^2 / 3, equal
    at p = 1/2."""
    counts = compositions(2, 3)
    payoffs = np.full(counts.shape, np.nan)
    for row, (a, b) in enumerate(counts):
        if a == 3 or b == 3:
            payoffs[row, 0 if a else 1] = 1 / 3
        else:
            payoffs[row, 0] = 1.0 if a == 1 else 0.0
            payoffs[row, 1] = 1.0 if b == 1 else 0.0
    game = MetaGame(counts, payoffs)
    p = 0.3
    assert game.expected_payoffs(np.array([p, 1 - p])) == pytest.approx(
        [(1 - p) ** 2 + p**2 / 3, p**2 + (1 - p) ** 2 / 3]
    )
    solved = solve_equilibrium(game)
    assert solved.weights == pytest.approx([0.5, 0.5], abs=1e-6)
    # at (0.9, 0.1): A earns 0.28, B 0.81 + 0.01 / 3, the mix 1/3 (a constant-sum game)
    assert nash_conv(game, np.array([0.9, 0.1])) == pytest.approx(0.81 + 0.01 / 3 - 1 / 3)


def test_nash_conv_is_the_best_deviations_gain() -> None:
    game = MetaGame.from_matrix(ROCK_PAPER_SCISSORS)
    pure_rock = np.array([1.0, 0.0, 0.0])
    # against all-rock, paper earns 1, rock 0.5
    assert nash_conv(game, pure_rock) == pytest.approx(0.5)
    assert gains(game, pure_rock) == pytest.approx([0.0, 0.5, -0.5])


def test_alpha_rank_of_two_strategies_matches_the_hand_formula() -> None:
    """Population 2, two seats: the mutant meets the resident, so
    rho(i -> j) = 1 / (1 + exp(-alpha (A[j, i] - A[i, j]))) and
    pi_0 / pi_1 = rho(1 -> 0) / rho(0 -> 1) = exp(alpha (A[0, 1] - A[1, 0]))."""
    matrix = np.array([[0.5, 0.7], [0.3, 0.5]])
    game = MetaGame.from_matrix(matrix)
    alpha = 2.0
    assert fixation_probability(game, 1, 0, alpha, 2) == pytest.approx(
        1 / (1 + math.exp(-alpha * 0.4))
    )
    scores = alpha_rank(game, alpha=alpha, population=2)
    assert scores[0] / scores[1] == pytest.approx(math.exp(alpha * 0.4))
    assert scores.sum() == pytest.approx(1.0)


def test_alpha_rank_is_uniform_on_a_cycle_and_picks_a_dominant_strategy() -> None:
    assert alpha_rank(MetaGame.from_matrix(ROCK_PAPER_SCISSORS)) == pytest.approx(np.full(3, 1 / 3))
    transitive = np.array([[0.5, 0.8, 0.9], [0.2, 0.5, 0.7], [0.1, 0.3, 0.5]])
    scores = alpha_rank(MetaGame.from_matrix(transitive))
    assert scores[0] > 0.99


def test_a_neutral_mutant_fixes_with_chance_one_over_the_population() -> None:
    game = MetaGame.from_matrix(np.full((2, 2), 0.5))
    assert fixation_probability(game, 0, 1, 50.0, 20) == pytest.approx(1 / 20)


def test_the_payoff_table_must_be_complete() -> None:
    counts = compositions(2, 2)
    with pytest.raises(ValueError, match="payoff"):
        MetaGame(counts, np.full(counts.shape, np.nan))
    with pytest.raises(ValueError, match="compositions"):
        MetaGame(counts[:2], np.where(counts[:2] > 0, 0.5, np.nan))


def test_strategies_that_play_alike_are_found() -> None:
    """Strategies 0 and 1 are copies (same payoffs wherever they are swapped); 2 differs."""
    matrix = np.array([[0.5, 0.5, 0.7], [0.5, 0.5, 0.7], [0.3, 0.3, 0.5]])
    twins = interchangeable(MetaGame.from_matrix(matrix))
    assert twins == [[1], [0], []]


def test_meta_game_from_counts_divides_shares_by_seat_games() -> None:
    counts = compositions(2, 2)
    shares = np.where(counts > 0, counts * 10.0, 0.0)
    seat_games = counts * 20
    game = meta_game(counts, shares, seat_games)
    assert np.nanmax(game.payoffs) == pytest.approx(0.5)


def test_strategies_within_their_intervals_are_not_told_apart() -> None:
    matrix = np.array([[0.5, 0.52, 0.7], [0.48, 0.5, 0.7], [0.3, 0.3, 0.5]])
    game = MetaGame.from_matrix(matrix)
    assert interchangeable(game) == [[], [], []]  # not exactly equal
    # against each other they score 0.52 and 0.48: 0.04 apart, within half-widths 0.025 each
    widths = np.where(game.counts > 0, 0.025, 0.0)
    assert interchangeable(game, widths) == [[1], [0], []]


# A symmetric matrix game (payoff of the row against the column) where the replicator from
# the uniform mix does not converge: its run ends at a mix some strategy beats by more than
# a point. Strategy 1 against itself earns 1.0 while 0, 2 and 3 earn 0.1, 0.9 and 0.5
# against it: all-1 is a strict equilibrium (every deviation loses 0.1 or more).
MISSED_PURE = np.array(
    [
        [0.7, 0.1, 0.0, 0.8],
        [0.5, 1.0, 0.5, 0.3],
        [1.0, 0.9, 0.7, 0.3],
        [0.5, 0.5, 0.8, 0.7],
    ]
)


def test_a_pure_equilibrium_the_uniform_start_misses_is_found() -> None:
    game = MetaGame.from_matrix(MISSED_PURE)
    all_one = np.array([0.0, 1.0, 0.0, 0.0])
    assert gains(game, all_one) == pytest.approx([-0.9, 0.0, -0.1, -0.5])
    candidates, _ = equilibrium_candidates(game)
    from_uniform = candidates[0]
    assert from_uniform.near is None and from_uniform.method == "polished"
    assert from_uniform.nash_conv > 0.01  # the single-start solver's answer
    solved = solve_equilibrium(game)
    assert solved.weights == pytest.approx(all_one)
    assert solved.nash_conv == 0.0
    assert solved.method == "pure strategy"
    assert solved.nash_conv == min(c.nash_conv for c in candidates)
    assert solved.candidates == len(candidates) == 1 + 1 + 4 + 1 + 4 * 4


def test_the_reported_nash_conv_is_the_kept_mixs() -> None:
    game = MetaGame.from_matrix(MISSED_PURE)
    for iterations in (50, 400, 4000):
        solved = solve_equilibrium(game, iterations)
        assert solved.nash_conv == nash_conv(game, solved.weights)


def test_a_stag_hunt_keeps_the_uniform_starts_equilibrium_on_a_tie() -> None:
    """Stag hunt: stag with stag 1.0, stag against hare 0, hare 0.6 whatever the other does.
    Both all-stag (payoff-dominant) and all-hare (risk-dominant) are strict equilibria, so
    NashConv 0 for both; from the uniform mix hare earns 0.6 against stag's 0.5 and the
    dynamics go to hare. On the tie the run from the uniform mix is kept (the documented
    rule), and all-stag is among the candidates, exact too."""
    game = MetaGame.from_matrix(np.array([[1.0, 0.0], [0.6, 0.6]]))
    candidates, _ = equilibrium_candidates(game)
    pure = [c for c in candidates if c.method == "pure strategy"]
    assert [c.nash_conv for c in pure] == [0.0, 0.0]
    solved = solve_equilibrium(game)
    assert solved.weights == pytest.approx([0.0, 1.0], abs=1e-9)
    assert solved.near is None and solved.method != "pure strategy"


def test_ties_go_to_the_first_candidate_and_a_clear_winner_beats_the_first() -> None:
    def candidate(name: str, conv: float) -> Candidate:
        return Candidate(name, None, np.array([1.0]), conv)

    tied = [candidate("a", 1e-10), candidate("b", 0.0), candidate("c", 0.0)]
    assert choose_candidate(tied).method == "a"  # within TIE of the lowest
    better = [candidate("a", 2 * TIE), candidate("b", 0.0), candidate("c", 0.0)]
    assert choose_candidate(better).method == "b"


def test_the_bootstrap_re_solves_with_the_same_rule() -> None:
    """Every batch of deals alike: every replicate is the same meta-game, so each one's
    equilibrium is all-1 too (the single-start solver would give a mix) and the weights'
    and NashConv's intervals are exact."""
    game = MetaGame.from_matrix(MISSED_PURE)
    batches = 4
    seat_games = np.repeat((game.counts * 100)[:, None, :], batches, axis=1).astype(float)
    shares = np.nan_to_num(game.payoffs)[:, None, :] * seat_games
    labels = ["s0", "s1", "s2", "s3"]
    found = analyse(game.counts, shares, seat_games, labels, seed=1, replicates=5)
    assert found.weights == pytest.approx([0.0, 1.0, 0.0, 0.0])
    assert found.nash_conv == 0.0 and found.method == "pure strategy"
    table = found.strategies.set_index("strategy")
    assert table["weight_ci_low"].tolist() == table["weight_ci_high"].tolist() == [0, 1, 0, 0]
    assert table.attrs["nash_conv_interval"] == (0.0, 0.0)


def test_a_nash_conv_interval_contains_its_point_at_the_boundary() -> None:
    """A constructed bootstrap sample as a field at equilibrium gives it: the point mix has
    NashConv 0 on the measured game, and on 100 resampled games it looks 0.00001 to 0.00126
    worse (never better: NashConv is at least 0). The percentiles, [0.0000413, 0.0012288],
    lie above the point; the interval shown is [0, the 97.5th percentile] instead, which
    contains the point and covers at least 95% (0 is never crossed). An interval that
    already holds its point is kept as it is."""
    draws = np.linspace(0.00001, 0.00126, 100)
    low, high = np.percentile(draws, [2.5, 97.5])
    assert low > 0.0 and low == pytest.approx(0.00004125)
    assert nash_conv_interval(0.0, low, high) == (0.0, high)
    assert nash_conv_interval(0.0005, low, high) == (low, high)
    assert nash_conv_interval(0.0, 0.0, 0.0) == (0.0, 0.0)


def test_psro_and_the_field_print_a_boundary_nash_conv_interval_from_0() -> None:
    """Big Two's iteration 2 printed ``NashConv 0.000 points [0.001, 0.126]``, an interval
    without its point; from a folder holding those percentiles it prints [0.000, 0.126]."""
    from types import SimpleNamespace

    from zooanalysis.psro import nash_conv_text

    row = SimpleNamespace(nash_conv=0.0, nash_conv_ci_low=0.00001, nash_conv_ci_high=0.00126,
                          field_games=40_000)  # fmt: skip
    assert nash_conv_text(row) == "0.000 points [0.000, 0.126] (field of 40,000 games)"
