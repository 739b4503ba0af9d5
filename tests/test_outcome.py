"""The end-of-game outcome tally: tied winners, win shares and winning margins."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.count_tables import outcome_tables
from zooanalysis.outcome import (
    MARGIN_BINS,
    count_outcome,
    count_team_outcome,
    game_outcome,
    new_outcome_totals,
    share_sums,
    tally_outcome,
    tally_team_outcome,
)


@pytest.mark.parametrize(
    ("scores", "fewest_win", "winners", "margin"),
    [
        ([3, 5, 5], True, (0,), 2),  # Bluff: fewest penalty points win
        ([3, 5, 5], False, (1, 2), 2),  # most points win: two tied winners
        ([7, 7, 7, 7], False, (0, 1, 2, 3), None),  # everyone won: no non-winner
        ([0, 9, 4, 9], False, (1, 3), 5),  # the best non-winner decides the margin
        ([10, 2, 2], True, (1, 2), 8),
        ([0, 300], False, (1,), 300),
    ],
)
def test_winners_and_margin_by_hand(scores, fewest_win, winners, margin) -> None:
    outcome = game_outcome(scores, fewest_win)
    assert outcome.winners == winners
    assert outcome.margin == margin


def test_counts_by_hand() -> None:
    totals = new_outcome_totals(3)
    count_outcome([3, 5, 5], totals)  # seats 2 and 3 share, margin 2
    count_outcome([3, 5, 5], totals, fewest_win=True)  # seat 1 alone, margin 2
    count_outcome([4, 4, 4], totals)  # all three share: no margin
    count_outcome([0, 0, 400], totals)  # seat 3 alone by 400: the top bin
    assert totals["win_ties"].tolist() == [[0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1]]
    assert totals["margins"][2] == 2 and totals["margins"][MARGIN_BINS - 1] == 1
    assert totals["margins"].sum() == 3
    # win shares: seat 1 = 1 + 1/3, seat 2 = 1/2 + 1/3, seat 3 = 1 + 1/2 + 1/3
    np.testing.assert_allclose(share_sums(totals["win_ties"]), [4 / 3, 5 / 6, 11 / 6])
    # the shares of all seats add up to the games with a winner (all four here)
    assert share_sums(totals["win_ties"]).sum() == pytest.approx(4)


def test_a_cooperative_game_is_won_by_everyone_or_nobody() -> None:
    totals = new_outcome_totals(4)
    count_team_outcome(4, True, totals)
    count_team_outcome(4, False, totals)
    count_team_outcome(3, True, totals)  # a 3-player table of a 4-seat grid
    assert totals["win_ties"][:, 4].tolist() == [1, 1, 1, 1]
    assert totals["win_ties"][:, 3].tolist() == [1, 1, 1, 0]
    assert totals["margins"].sum() == 0
    compiled = new_outcome_totals(4)
    for players, success in ((4, True), (4, False), (3, True)):
        tally_team_outcome(players, success, compiled["win_ties"])
    np.testing.assert_array_equal(compiled["win_ties"], totals["win_ties"])
    # shares: two games won, the first split four ways, the third three ways
    assert share_sums(totals["win_ties"]).sum() == pytest.approx(2)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 200), min_size=2, max_size=6), min_size=1, max_size=20)
    .filter(lambda games: len({len(g) for g in games}) == 1),
    st.booleans(),
)
def test_the_compiled_tally_is_the_plain_definition(games, fewest_win) -> None:
    players = len(games[0])
    plain = new_outcome_totals(players)
    compiled = new_outcome_totals(players)
    for scores in games:
        count_outcome(scores, plain, fewest_win)
        tally_outcome(
            np.array(scores, dtype=np.int64), players, fewest_win,
            compiled["win_ties"], compiled["margins"],
        )  # fmt: skip
    for key in plain:
        np.testing.assert_array_equal(compiled[key], plain[key], err_msg=key)
    # every game has a winner: the shares add up to the number of games exactly
    assert share_sums(plain["win_ties"]).sum() == pytest.approx(len(games))


def test_the_compiled_tally_reads_only_the_seats_in_play() -> None:
    """A cell of a grid may play fewer seats than the arrays hold (Zoology's grid)."""
    totals = new_outcome_totals(6)
    tally_outcome(
        np.array([2, 5, 5, 99, 99, 99], dtype=np.int64), 3, False,
        totals["win_ties"], totals["margins"],
    )  # fmt: skip
    assert totals["win_ties"][1, 2] == 1 and totals["win_ties"][2, 2] == 1
    assert totals["win_ties"].sum() == 2
    assert totals["margins"][3] == 1


def test_outcome_tables() -> None:
    totals = new_outcome_totals(2)
    count_outcome([1, 3], totals)
    count_outcome([3, 3], totals)
    tables = outcome_tables(totals)
    assert tables["win_ties"].to_dict("list") == {
        "seat": [0, 1, 1],
        "winners": [2, 1, 2],
        "games": [1, 1, 1],
    }
    assert tables["margins"].to_dict("list") == {"margin": [2], "games": [1]}
