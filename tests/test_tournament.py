"""`zoosim tournament`: fair seatings, pairwise results, Bradley-Terry ratings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import get_game
from zooanalysis.strategy_spec import parse_lineup
from zooanalysis.tournament import ELO_SCALE, fit_bradley_terry, tournament_lineups

GAME = get_game("bluff")


def field(text: str):
    return parse_lineup(text, GAME.strategies)


def seat_counts(orders: list[list[int]], seats: int) -> Counter:
    return Counter((strategy, seat) for order in orders for seat, strategy in enumerate(order))


def test_small_fields_play_every_seat_order() -> None:
    orders = tournament_lineups(field("bayes,cautious,aggressive,random"), 4, seed=1)
    assert len(orders) == 24 and len({tuple(o) for o in orders}) == 24


@pytest.mark.parametrize(
    ("strategies", "seats"),
    [
        ("bayes,cautious,aggressive,random,bayes:doubt=0.5", 5),  # 120 orders: rotations
        ("bayes,cautious,aggressive,random,bayes:doubt=0.5,cautious:trust=1.5", 3),  # subsets
    ],
)
def test_large_fields_keep_every_strategy_in_every_seat_equally_often(
    strategies: str, seats: int
) -> None:
    orders = tournament_lineups(field(strategies), seats, seed=3)
    counts = seat_counts(orders, seats)
    per_strategy = Counter(strategy for order in orders for strategy in order)
    for strategy, appearances in per_strategy.items():
        assert {counts[(strategy, seat)] for seat in range(seats)} == {appearances // seats}
    assert all(len(set(order)) == seats for order in orders)


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = np.array([1.0, 0.0, -0.4, -0.6])
    p = 1 / (1 + np.exp(-(truth[:, None] - truth[None, :])))
    meetings = 1_000_000
    ahead = np.round(p * meetings).astype(np.int64)
    np.fill_diagonal(ahead, 0)
    fitted = fit_bradley_terry(ahead, np.zeros_like(ahead))
    np.testing.assert_allclose(fitted, truth - truth.mean(), atol=1e-3)
    even = fit_bradley_terry(np.full((3, 3), 50) - np.diag([50] * 3), np.zeros((3, 3)))
    np.testing.assert_allclose(even, 0, atol=1e-6)


def play_two_way(out: Path, *extra: str) -> int:
    """The bayes-against-random tournament of these tests, written to ``out``."""
    args = ["--strategies", "bayes,random", "--games", "4000", "--seed", "5", *extra]
    return cli.main(["tournament", *args, "--out", str(out), "--no-progress"])


@pytest.fixture(scope="module")
def two_way(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("t") / "two"
    assert play_two_way(out) == 0
    return out


def test_pairwise_results_equal_the_plain_games(two_way: Path, tmp_path: Path) -> None:
    """A two-strategy tournament is the two seat orders played on the same deals."""
    result = zooanalysis.load_run(two_way)
    manifest = result.manifest
    ahead = {"bayes": 0, "random": 0}
    level = 0
    seat_shares = []
    strategy_shares = {"bayes": 0.0, "random": 0.0}
    for order in (["bayes", "random"], ["random", "bayes"]):
        out = tmp_path / "-".join(order)
        assert (
            cli.main(
                [
                    "run",
                    "--players",
                    ",".join(order),
                    "--games",
                    str(manifest["games_per_lineup"]),
                    "--batch-size",
                    str(manifest["batch_size"]),
                    "--seed",
                    "5",
                    "--rows",
                    "--out",
                    str(out),
                    "--no-progress",
                ]
            )
            == 0
        )
        rows = zooanalysis.load_run(out).game_rows()
        first, second = rows["scores_0"].to_numpy(), rows["scores_1"].to_numpy()
        ahead[order[0]] += int((first < second).sum())
        ahead[order[1]] += int((second < first).sum())
        level += int((first == second).sum())
        by_seat = zooanalysis.load_run(out).win_rates("seat")
        seat_shares.append(by_seat["share_sum"].to_numpy())
        for seat, name in enumerate(order, start=1):
            strategy_shares[name] += by_seat.loc[seat, "share_sum"]
    pairs = result.pairwise().set_index(["strategy", "versus"])
    assert pairs.loc[("bayes", "random"), "ahead"] == ahead["bayes"]
    assert pairs.loc[("random", "bayes"), "ahead"] == ahead["random"]
    assert pairs.loc[("bayes", "random"), "level"] == level
    assert pairs.loc[("bayes", "random"), "meetings"] == manifest["games"]
    ratings = result.ratings().set_index("strategy")
    share = (ahead["bayes"] + level / 2) / manifest["games"]
    assert ratings.loc["bayes", "rating"] - ratings.loc["random", "rating"] == pytest.approx(
        ELO_SCALE * np.log(share / (1 - share)), rel=1e-4
    )
    assert (ratings["ci_low"] <= ratings["rating"]).all()
    assert (ratings["rating"] <= ratings["ci_high"]).all()
    # results by seat: each seat pooled over both seatings (ties split), seats from 1
    seats = result.seats()
    assert list(seats.index) == [1, 2]
    np.testing.assert_allclose(
        seats["share"], sum(seat_shares) / manifest["games"], rtol=1e-12
    )
    assert seats["share"].sum() == pytest.approx(1.0)
    assert (seats["fair_share"] == 0.5).all()
    wins = result.win_rates()
    for name, total in strategy_shares.items():
        assert wins.loc[name, "share"] == pytest.approx(total / manifest["games"])
    by_seat = result.strategy_seats().set_index(["strategy", "seat"])
    assert by_seat.loc[("bayes", 1), "n"] == manifest["games_per_lineup"]


def test_tournaments_do_not_depend_on_workers(two_way: Path, tmp_path: Path) -> None:
    out = tmp_path / "again"
    assert play_two_way(out, "--jobs", "1") == 0
    assert_same_tables(tables_of(two_way), tables_of(out))


def test_the_summary_ranks_and_shows_the_matrix(two_way: Path) -> None:
    text = zooanalysis.load_run(two_way).summary()
    assert "1. bayes" in text and "2. random" in text
    assert "Share of meetings the row strategy finished ahead" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--strategies", "bayes,bayes"], "--strategies: each strategy once"),
        (["--strategies", "bayes"], "--strategies: a tournament needs at least two"),
        (["--strategies", "bayes,random", "--seats", "3"], "--seats: 3 seats for 2 strategies"),
        (["--strategies", "bayz,random"], "--strategies: unknown strategy 'bayz'"),
        (["--strategies", "bayes,random", "--games", "0"], "--games: '0' is not allowed"),
        (
            ["--strategies", "bayes,random,cautious,aggressive", "--games", "3"],
            "--games: 3 is too few for this tournament: its 24 lineups need at least 2,000 "
            "games each (10 batches of 200 deals, for the ratings' bootstrap intervals); "
            "give --games 48_000 or more",
        ),
        (["--strategies", "bayes,random", "--jobs", "0"], "--jobs: 0 is not allowed"),
    ],
)
def test_bad_tournament_input_is_one_line(
    args: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["tournament", *args, "--out", str(tmp_path / "x"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and fragment in err, err
    assert not (tmp_path / "x").exists()


def test_show_prints_a_tournament_like_load_run(
    two_way: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["show", str(two_way)]) == 0
    assert capsys.readouterr().out.rstrip("\n") == zooanalysis.load_run(two_way).summary()


def test_the_least_games_give_every_lineup_ten_batches_and_finite_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The smallest tournament zoosim accepts rates with intervals, and says beforehand
    what it will play: the requested games rounded up to whole lineups."""
    out = tmp_path / "least"

    def tournament(games: str) -> int:
        args = ["--strategies", "bayes,random", "--games", games, "--seed", "2"]
        return cli.main(["tournament", *args, "--out", str(out), "--no-progress"])

    assert tournament("3998") == 2  # 2 lineups x 1,999 games
    assert "give --games 4_000 or more" in capsys.readouterr().err
    assert not out.exists()
    assert tournament("3999") == 0  # rounded up to 2 lineups x 2,000 games
    captured = capsys.readouterr()
    assert "Plan: 2 lineups x 2,000 games = 4,000 games" in captured.err
    assert "(4,000 games, the same deals for every lineup)" in captured.out
    result = zooanalysis.load_run(out)
    assert result.manifest["games"] == 4000 and result.manifest["batch_size"] == 200
    ratings = result.ratings()
    assert np.isfinite(ratings[["rating", "ci_low", "ci_high"]].to_numpy()).all()
