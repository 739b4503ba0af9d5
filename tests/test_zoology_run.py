"""Zoology through the shared machinery: the CLI, runs, tables, the run object's analyses,
and reproducibility across workers."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import game_names, get_game
from zooanalysis.games.zoology import engine
from zooanalysis.games.zoology.analysis import NOT_MEASURED, ZoologyRun
from zooanalysis.games.zoology.counts import new_totals, tally
from zooanalysis.games.zoology.rules import ZoologySettings

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def cli_run(out: Path, *args: object) -> Path:
    code = cli.main(["run", *(str(a) for a in args), "--out", str(out), "--no-progress"])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def competitive(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("zoology") / "run"
    return cli_run(
        out, "--game", "zoology", "--games", 3000, "--seed", 3, "--batch-size", 700, "--jobs", 1
    )


def test_registered() -> None:
    assert "zoology" in game_names()
    assert get_game("zoology").title == "Zoology"


def test_strategies_are_listed(capsys) -> None:
    assert cli.main(["strategies", "--game", "zoology"]) == 0
    out = capsys.readouterr().out
    for name in ("bayes", "curious", "team", "guess"):
        assert name in out


def test_same_tables_for_any_number_of_workers(competitive: Path, tmp_path: Path) -> None:
    other = cli_run(
        tmp_path / "jobs2",
        "--game",
        "zoology",
        "--games",
        3000,
        "--seed",
        3,
        "--batch-size",
        700,
        "--jobs",
        2,
    )
    assert_same_tables(tables_of(competitive), tables_of(other))


def test_tables_and_generic_columns(competitive: Path) -> None:
    run = zooanalysis.load_run(competitive)
    assert isinstance(run, ZoologyRun)
    seats = run.table("seats")
    assert {"seat", "strategy", "games", "wins", "sole_wins"} <= set(seats.columns)
    assert (seats["games"] == 3000).all()
    lead = run.table("lead_changes")
    assert list(lead.columns) == ["lead_changes", "games"] and lead["games"].sum() == 3000
    settled = run.table("settled")
    assert list(settled.columns) == ["settled_percent", "games"]
    assert settled["settled_percent"].tolist() == list(range(0, 100, 5))
    # settled counts the games with a single winner
    singles = seats["sole_wins"].sum()
    assert settled["games"].sum() == singles
    # points are 2 per right free guess and 1 per right second-chance guess
    assert (seats["points_free"] == 2 * seats["right_free"]).all()
    assert (seats["points_second_chance"] == seats["right_second_chance"]).all()
    assert (seats["points_sum"] == seats["points_free"] + seats["points_second_chance"]).all()


def test_run_object_analyses(competitive: Path) -> None:
    run = zooanalysis.load_run(competitive)
    length = run.game_length()
    assert set(length.index) == {"rounds", "turns"} and (length["mean"] > 0).all()
    accuracy = run.first_guess_accuracy("strategy")
    assert {"rate", "ci_low", "ci_high", "n"} <= set(accuracy.columns)
    assert set(accuracy.index.get_level_values("phase")) == {"any", "free", "second_chance"}
    points = run.points_by_source()
    assert list(points.index) == [1, 2, 3, 4]  # seats from 1
    assert (points["free_mean"] > 0).all()
    by_seat = run.first_guess_accuracy("seat")
    assert sorted(set(by_seat.index.get_level_values("seat"))) == [1, 2, 3, 4]
    questions = run.question_informativeness()
    # the 6 cards whose condition no animal of the primary board meets are not dealt there
    assert len(questions) == 64 and questions["fresh_bits"].is_monotonic_decreasing
    assert not questions["void"].any() and (questions["plays"] > 0).all()
    # question_information is off by default: the cards' information as played is not measured
    assert (questions["fresh_bits"] >= 0).all() and questions["played_bits"].isna().all()
    assert not run.question_information_measured
    assert questions["rank"].tolist() == list(range(1, 65))
    animals = run.animal_difficulty()
    assert set(animals["region"]) == {"common"} and len(animals) == 16
    assert animals["first_guess_rate"].is_monotonic_increasing
    confusions = run.confusions()
    assert confusions["count"].is_monotonic_decreasing
    assert (confusions["animal"] < confusions["confused_with"]).all()
    text = run.summary()
    assert NOT_MEASURED in text
    for heading in (
        "Win share by seat",
        "Game length",
        "First guess",
        "Points per game",
        "Question cards",
        "Animals by first guess right",
        "Most confused",
    ):
        assert heading in text
    metrics = run.metrics()
    strategy = run.lineup[0]  # the default lineup's first seat (a label with parameters)
    assert "turns_mean" in metrics and f"{strategy}_first_guess_any_rate" in metrics
    with pytest.raises(KeyError):
        run.cooperative_success()


def test_cooperative_grid_run_ranks_the_achievements(tmp_path: Path) -> None:
    out = cli_run(
        tmp_path / "coop",
        "--scenario",
        SIMULATIONS / "zoology-cooperative.toml",
        "--games",
        1600,
        "--jobs",
        1,
    )
    run = zooanalysis.load_run(out)
    success = run.cooperative_success()
    assert len(success) == 80 and (success["n"] == 20).all()
    assert "lead_changes" not in run.table_names
    achievements = run.achievements()
    assert len(achievements) == 10
    assert achievements["difficulty_rank"].tolist() == list(range(1, 11))
    assert achievements["rate"].is_monotonic_increasing
    assert achievements.loc["Discoverer", "n"] == 16 * 20
    legend = achievements.loc["Zoologist Legend"]
    assert legend["best_cell"].endswith("primary+africa+america+asia+australia")
    assert achievements.loc["Habitat Scholar", "cells"] == 5 * 6
    assert "Achievements, hardest first" in run.summary()
    four = run.achievements(players=4)
    assert four.loc["Monsoon Voyager", "best_cell"] == "4 players, primary+asia"
    assert_void_cards_are_named_for_every_board(run)


def assert_void_cards_are_named_for_every_board(run) -> None:
    """The grid plays 16 boards, and which cards no animal meets differs between them: the
    primary board alone has six (rulebook data: no rainforest, wetland, desert or mountain
    animal, no reptile, no spotted coat), primary+asia two (wetland, spots), and on the
    primary board with Africa and Asia every card matches. The summary names them per board
    (it named the primary board's six for the whole grid), and ``void_here`` is any board's."""
    by_board = run.void_cards_by_board()
    assert len(by_board) == 16
    assert by_board["primary"] == ["rainforest", "wetland", "desert", "mountains", "scales",
                                   "spots"]  # fmt: skip
    assert by_board["primary+asia"] == ["wetland", "spots"]
    assert by_board["primary+africa+asia"] == []
    summary = run.summary()
    assert "Cards whose condition no animal on a board meets (left out there), by board:" in summary
    section = summary.split("by board:\n")[1].split("\n\n")[0]
    flat = " ".join(section.split())
    assert "on primary: rainforest (habitat = rainforest)," in flat
    assert "on primary+asia: wetland (habitat = wetland), spots (coat_pattern = spotted)" in flat
    assert "primary+africa+asia," in flat and "none (every card matches)" in flat
    assert "on primary+asia+australia: spots (coat_pattern = spotted)" in flat
    void = run.void_questions()
    assert set(void.index[void["void_here"]]) == set(by_board["primary"])


def test_cooperative_grid_is_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    scenario = SIMULATIONS / "zoology-cooperative.toml"
    one = cli_run(
        tmp_path / "one", "--scenario", scenario, "--games", 800, "--jobs", 1, "--batch-size", 300
    )
    two = cli_run(
        tmp_path / "two", "--scenario", scenario, "--games", 800, "--jobs", 2, "--batch-size", 300
    )
    assert_same_tables(tables_of(one), tables_of(two))


def test_rotated_seats_play_every_deal_in_every_seating(tmp_path: Path) -> None:
    out = cli_run(
        tmp_path / "rotated", "--game", "zoology", "--players", "curious,curious,bayes,bayes",
        "--games", 600, "--rotate-seats", "--jobs", 1,
    )  # fmt: skip
    run = zooanalysis.load_run(out)
    assert run.rotated and run.games_played == 2400
    rates = run.win_rates("strategy")
    assert set(rates.index) == {"curious", "bayes"}
    assert "Paired comparisons" in run.summary()
    assert run.question_informativeness()["plays"].sum() > 0


def test_a_pair_that_always_plays_alike_is_compared_without_warnings(tmp_path: Path) -> None:
    """Two labels of one behaviour (``guess=0.1`` guesses when ``guess=0`` does here): their
    paired difference never varies and is 0, so its p-value is 1 (no 0 x inf warning), and
    the unrotated interval is printed as a half-width, not with a plus-minus sign."""
    lineup = "curious:guess=0,curious:guess=0.1,curious:guess=0,curious:guess=0.1"
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        out = cli_run(
            tmp_path / "alike", "--game", "zoology", "--players", lineup,
            "--games", 400, "--rotate-seats", "--jobs", 1,
        )  # fmt: skip
        run = zooanalysis.load_run(out)
        pair = run.table("rotation_pairs").iloc[0]
        text = run.summary()
    assert pair.difference == 0 and pair.paired_ci_half_width == 0
    assert pair.p_value == 1
    assert "+-" not in text and "nan" not in text


def test_shipped_scenarios_load(tmp_path: Path) -> None:
    for name in ("zoology-rulebook.toml", "zoology-cooperative-asia.toml"):
        out = cli_run(tmp_path / name, "--scenario", SIMULATIONS / name, "--games", 200)
        assert zooanalysis.load_run(out).games == 200


def test_simulate_from_python() -> None:
    run = zooanalysis.simulate(
        "zoology",
        players="curious,bayes,team",
        games=500,
        jobs=1,
        settings={"regions": ["africa"], "neutral_animals": True},
    )
    rates = run.win_rates("seat")
    assert len(rates) == 3 and rates["n"].eq(500).all()
    assert run.settings["regions"] == ["africa"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--players", "curious"], "2 to 6 players"),
        (["--players", "curious,oracle"], "unknown strategy 'oracle'"),
        (["--players", "curious,bayes:guess=2"], "guess"),
    ],
)
def test_user_errors(capsys, tmp_path, args, fragment) -> None:
    code = cli.main(
        [
            "run",
            "--game",
            "zoology",
            "--games",
            "10",
            "--no-progress",
            "--out",
            str(tmp_path / "x"),
            *args,
        ]
    )
    assert code == 2
    assert fragment in capsys.readouterr().err


def test_lead_changes_and_settling_by_hand() -> None:
    """Score changes after 3, 5, 8 and 8 turns (turn indices 2, 4, 7, 7): A leads, B takes
    the lead, A and B tie, A leads again and wins a 10-turn game. Two lead changes; A is sole
    leader at every change from turn index 8 on: bin floor(20 * 8 / 10) = 16 (80%)."""
    rules = ZoologySettings(players=2, points_to_win=9)
    state = engine.GameState(
        settings=rules,
        players=2,
        board=rules.board(),
        draw_pile=[],
        discard=[],
        hands=[[], []],
        points=[0, 0],
    )
    record = engine.GameRecord(players=2, points_from=[[0, 0], [0, 0]], last_not_leading=[-1, -1])
    for turn, awards in (
        (3, [(0, 2, 0)]),
        (5, [(1, 2, 0), (1, 1, 1)]),
        (8, [(0, 1, 1)]),
        (8, [(0, 1, 1)]),
    ):
        state.turns = turn
        engine.score(state, awards, record)
    record.points, record.turns, record.rounds, record.end_reason = state.points, 10, 1, 0
    record.standing = engine.standings(rules, state.points)  # as play_game sets them
    record.winners = [0]  # tally reads both
    assert record.lead_changes == 2
    totals = new_totals(2, len(rules.animals), len(rules.questions))
    tally(record, totals)
    assert totals["lead_changes_hist"][2] == 1
    assert totals["settled_hist"].tolist() == [0] * 16 + [1, 0, 0, 0]


def test_seat_table_for_a_short_rows_run(tmp_path: Path) -> None:
    out = cli_run(tmp_path / "rows", "--game", "zoology", "--games", 300, "--rows", "--jobs", 1)
    run = zooanalysis.load_run(out)
    rows = run.game_rows()
    assert len(rows) == 300
    seats = run.table("seats")
    for seat in range(4):
        assert rows[f"points_{seat}"].sum() == seats["points_sum"][seat]
    assert rows["turns"].min() >= 4 and (rows["success"] == -1).all()
    game = get_game("zoology")
    result = {
        "row_points": rows[[f"points_{s}" for s in range(4)]].to_numpy(),
        "row_success": rows["success"].to_numpy(),
        "row_standing": rows[[f"standing_{s}" for s in range(4)]].to_numpy(),
    }
    wins = game.row_wins(result)
    assert wins.sum(axis=0).tolist() == seats["wins"].tolist()
    coop = {
        "row_points": np.zeros((2, 3)),
        "row_success": np.array([1, 0]),
        "row_standing": np.zeros((2, 3)),
    }
    assert game.row_wins(coop).tolist() == [[True] * 3, [False] * 3]


def test_cooperative_win_shares_add_up_to_the_games_the_team_won() -> None:
    """The team wins together (each player 1/players of it) or nobody wins: the seats'
    shares add up to 1 minus the share of games without a winner, the team's success."""
    run = zooanalysis.simulate(
        "zoology",
        players="team*4",
        games=600,
        jobs=1,
        # a noisy table, so that some games are lost (4 players on the primary board lose
        # almost none at the default noise since every dealt card tells something there)
        settings={"mode": "cooperative", "perception_noise": 1.0},
    )
    rates = run.win_rates("seat")
    table = run.table("cooperative")
    success = table["successes"].sum() / table["games"].sum()
    assert 0 < success < 1  # not vacuous: some games were lost
    assert rates["share"].sum() == pytest.approx(success)
    assert rates["won_or_shared"].tolist() == pytest.approx([success] * 4)
    assert (run.table("win_ties")["winners"] == 4).all()
    assert run.table("margins").empty


def test_question_information_is_measured_when_asked(tmp_path: Path) -> None:
    """With ``question_information = true`` every played card has its information as
    played, and the summary shows it; the play itself is the same as without."""
    scenario = tmp_path / "info.toml"
    scenario.write_text(
        'game = "zoology"\n[settings]\nquestion_information = true\n'
        '[run]\nplayers = "curious,team,bayes,bayes"\n',
        encoding="utf-8",
    )
    common = ("--games", 400, "--seed", 4, "--jobs", 1)
    measured = zooanalysis.load_run(cli_run(tmp_path / "on", "--scenario", scenario, *common))
    plain = zooanalysis.load_run(
        cli_run(tmp_path / "off", "--game", "zoology", "--players", "curious,team,bayes,bayes",
                *common)
    )  # fmt: skip
    assert measured.question_information_measured
    questions = measured.question_informativeness()
    played = questions[questions["plays"] > 0]
    assert (played["played_bits"] >= 0).all() and played["played_bits"].sum() > 0
    assert NOT_MEASURED not in measured.summary()
    off = plain.question_informativeness()
    np.testing.assert_array_equal(questions["plays"], off.loc[questions.index, "plays"])
