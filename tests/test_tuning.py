"""`zoosim tune`: successive halving over a strategy's parameters, checked on fresh deals."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import get_game
from zooanalysis.strategy_spec import parse_lineup
from zooanalysis.tuning import (
    TuneRequest,
    candidates,
    evaluate,
    improvement,
    minimum_games,
    plan_tuning,
    tune,
    tuning_plan,
)

GAME = get_game("bluff")


def test_candidates_start_with_the_defaults_and_cover_the_box() -> None:
    bayes = candidates(GAME.strategies["bayes"], seed=1)
    assert bayes[0] == {"doubt": 0.35, "bluff": 0.2}
    assert len(bayes) == 26 and len({tuple(c.values()) for c in bayes}) == 26
    assert {c["doubt"] for c in bayes[1:]} == {0.0, 0.25, 0.5, 0.75, 1.0}
    aggressive = candidates(GAME.strategies["aggressive"], seed=1)  # 3 parameters: sampled
    assert aggressive[0] == GAME.strategies["aggressive"].defaults()
    assert all(float(c["raise"]).is_integer() and 1 <= c["raise"] <= 5 for c in aggressive)
    assert candidates(GAME.strategies["aggressive"], seed=1) == aggressive


def request(games: int = 6000) -> TuneRequest:
    return TuneRequest(
        game=GAME,
        settings=GAME.settings_from_table({}),
        strategy=GAME.strategies["bayes"],
        against=parse_lineup("cautious,random", GAME.strategies),
        games=games,
        seed=3,
        min_games_per_seat=10,  # a small search, so the test stays quick
    )


def test_evaluate_plays_the_tuned_player_in_every_seat() -> None:
    player = parse_lineup("bayes:doubt=0.5", GAME.strategies)[0]
    wins, trials = evaluate(request(), player, 500, seed=9)
    expected = 0
    for seat, lineup in enumerate(
        [
            "bayes:doubt=0.5,cautious,random",
            "cautious,bayes:doubt=0.5,random",
            "cautious,random,bayes:doubt=0.5",
        ]
    ):
        run = zooanalysis.simulate("bluff", players=lineup, games=500, seed=9, jobs=1)
        expected += int(run.win_rates("seat").loc[seat + 1, "wins"])
    assert (wins, trials) == (expected, 1500)


def test_the_search_is_reproducible_and_its_final_figures_are_fresh() -> None:
    search, final = tune(request())
    again_search, again_final = tune(request())
    pd.testing.assert_frame_equal(search, again_search)
    pd.testing.assert_frame_equal(final, again_final)
    assert list(final.index) == ["default", "best"]
    assert final.loc["default", "player"] == "bayes"
    # every round keeps the better half of the previous one
    sizes = search.groupby("round")["candidate"].count().tolist()
    assert sizes[0] == 26 and all(b == -(-a // 2) for a, b in itertools.pairwise(sizes))
    # the final comparison is on other deals than the search's
    best_in_search = search[search["player"] == final.loc["best", "player"]]["rate"].iloc[-1]
    assert final.loc["best", "rate"] != best_in_search
    # every evaluation played exactly what the plan said, and no more than asked for
    plan = tuning_plan(request())
    played = search.groupby("round")["trials"].first().tolist()
    assert played == [games * 3 for _, games in plan.rounds]  # 3 seats
    assert (final["trials"] == plan.final_games * 3).all()
    assert search["trials"].sum() + final["trials"].sum() == plan.total <= 6000
    gain = improvement(final)
    assert gain["ci_low"] < gain["gain"] < gain["ci_high"]
    assert gain["gain"] == pytest.approx(final.loc["best", "rate"] - final.loc["default", "rate"])


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--strategy", "random"], "--strategy: random has no parameters to tune"),
        (["--strategy", "bayz"], "--strategy: unknown strategy 'bayz'"),
        (["--against", "bayes,bayes,bayes,bayes,bayes,bayes"], "--against: setting 'players'"),
        (["--games", "x"], "--games: 'x' is not allowed"),
    ],
)
def test_bad_tune_input_is_one_line(
    args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["tune", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err


def test_the_plan_never_plays_more_than_asked_and_the_minimum_is_tight() -> None:
    for count, seats, games in [(26, 4, 200_000), (26, 3, 104_000), (25, 6, 1_000_000)]:
        plan = plan_tuning(count, seats, games)
        assert plan.total <= games
        assert plan.rounds[0][0] == count
        need = minimum_games(count, seats)
        assert plan_tuning(count, seats, need).fewest_games >= 200
        assert plan_tuning(count, seats, need - 1).fewest_games < 200
    # bayes (26 candidates) at a table of four: five rounds of 200 games per seat at least
    assert minimum_games(26, 4) == 138_667


def test_too_few_games_are_refused_before_playing_with_the_minimum(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tuned"
    assert cli.main(["tune", "--games", "10", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert "--games: 10 is too few to tune bayes" in captured.err
    assert "give --games 138_667 or more" in captured.err
    assert not out.exists()
