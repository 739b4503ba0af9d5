"""Through the Zoo through the shared runner, storage, CLI and report: tables that add up,
analyses with intervals, reproducibility for any workers, the report's numbers, bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_helpers import assert_same_tables, tables_of, zoosim

import zooanalysis
from zooanalysis.games import get_game
from zooanalysis.games.through_the_zoo.analysis import ThroughTheZooRun

GAMES = 600
SCENARIO = """
game = "through-the-zoo"
[settings]
zoo = "johannesburg"
exhibit_order = "shuffled"
[settings.play]
dodgeball = "dodger,random,coach,random"
"""


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("scenario") / "zoo.toml"
    path.write_text(SCENARIO)
    return path


@pytest.fixture(scope="module")
def base_run(tmp_path_factory: pytest.TempPathFactory, scenario: Path) -> ThroughTheZooRun:
    out = tmp_path_factory.mktemp("through") / "base"
    assert zoosim("run", "--scenario", scenario, "--out", out, "--no-progress", "--games",
                  GAMES, "--seed", 3, "--batch-size", 250, "--jobs", 1,
                  "--players", "planner,keep-all,fit,random") == 0
    return zooanalysis.load_run(out)


def test_registered_with_its_strategies(capsys) -> None:
    game = get_game("through-the-zoo")
    assert game.title == "Through the Zoo"
    assert list(game.strategies) == ["keep-all", "random", "fit", "planner"]
    assert zoosim("strategies", "--game", "through-the-zoo") == 0
    assert "planner" in capsys.readouterr().out


def test_counts_add_up(base_run: ThroughTheZooRun) -> None:
    assert isinstance(base_run, ThroughTheZooRun)
    seats = base_run.table("seats")
    assert (seats["games"] == GAMES).all()
    points = base_run.table("game_points")
    for seat in range(4):
        part = points[points["seat"] == seat]
        assert part["games"].sum() == GAMES
        assert int((part["points"] * part["games"]).sum()) == seats["points_sum"][seat]
    rounds = base_run.table("round_points")
    assert rounds["count"].sum() == GAMES * 4 * 4, "every seat in every round"
    meta = base_run.table("meta_points")
    round_total = int((rounds["points"] * rounds["count"]).sum())
    meta_total = int((meta["points"] * meta["games"]).sum())
    assert round_total + meta_total == seats["points_sum"].sum()
    orders = base_run.table("orders")
    assert orders.drop_duplicates("order")["games"].sum() == GAMES
    assert np.isclose(orders["share_sum"].sum(), seats["share_sum"].sum())
    assert np.isclose(seats["share_sum"].sum(), GAMES), "every game has a winner"
    mulligans = base_run.table("mulligans")
    assert (mulligans.groupby(["round", "seat"])["count"].sum() == GAMES).all()
    assert mulligans[(mulligans["round"] == 3) & (mulligans["cards"] > 0)].empty


def test_analyses_carry_intervals(base_run: ThroughTheZooRun) -> None:
    for table in (base_run.game_points(), base_run.exhibit_points("offset"),
                  base_run.exhibit_points("seat"), base_run.exhibit_leads(),
                  base_run.mulligans(), base_run.diamonds()):
        assert {"ci_low", "ci_high", "n"} <= set(table.columns)
        assert (table["ci_low"] <= table["ci_high"]).all()
    leads = base_run.exhibit_leads()
    assert "meta scoring" in leads.index
    assert np.isclose(leads["share"].sum(), 1.0)
    keep_all = base_run.mulligans().loc[2]
    assert (keep_all["mean"] == 0).all(), "keep-all never mulligans"
    balance = base_run.order_balance()
    assert {"rate", "ci_low", "ci_high", "n", "fair"} <= set(balance.columns)
    assert "meta scoring" in base_run.summary() or "sole winner" in base_run.summary()


def test_same_seed_same_tables_for_any_workers(base_run, scenario, tmp_path: Path) -> None:
    out = tmp_path / "two"
    assert zoosim("run", "--scenario", scenario, "--out", out, "--no-progress", "--games",
                  GAMES, "--seed", 3, "--batch-size", 250, "--jobs", 2,
                  "--players", "planner,keep-all,fit,random") == 0
    assert_same_tables(tables_of(base_run.path), tables_of(out))


def test_report_states_the_runs_own_numbers(base_run, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert zoosim("report", base_run.path, "-o", out) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    for title in ("What each exhibit decides", "The start player in each exhibit",
                  "Exhibit orders", "Mulligans and game points"):
        assert title in html
    leads = base_run.exhibit_leads()
    assert "±" not in html
    row = leads.loc[leads["lead"].idxmax()]
    assert f"{row['lead']:.2f}"[:3] in html


@pytest.mark.parametrize(
    ("settings", "players", "words"),
    [
        ('exhibits = ["numberwang", "dodgeball"]', "keep-all*4", "not in the rulebook"),
        ('zoo = "berlin"', "keep-all*4", "zoo"),
        ('exhibits = ["dodgeball", "hearts"]', "keep-all*3", "exhibits for 3 players: big-two"),
        ('exhibits = ["bluff"]', "keep-all*4", "cannot be an exhibit"),
        ("[settings.play]\ndodgeball = \"sneaky\"", "keep-all*4", "play.dodgeball"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys, settings, players, words):
    path = tmp_path / "bad.toml"
    path.write_text(f'game = "through-the-zoo"\n[settings]\n{settings}\n')
    out = tmp_path / "out"
    code = zoosim("run", "--scenario", path, "--out", out, "--no-progress", "--games", 10,
                  "--players", players)
    error = capsys.readouterr().err.strip()
    assert code == 2
    assert words in error and "Traceback" not in error and len(error.splitlines()) == 1
    assert not out.exists()


def test_three_players_play_the_rulebooks_cards_for_their_count(tmp_path: Path) -> None:
    """With no exhibits named, 3 players play Hearts and Big Two (the cards shown for "2 / 3 /
    4"), not the 4-player Dodgeball card, which would refuse them."""
    out = tmp_path / "three"
    assert zoosim("run", "--game", "through-the-zoo", "--players", "planner,fit,random",
                  "--games", 200, "--out", out, "--no-progress") == 0
    run = zooanalysis.load_run(out)
    assert run.settings["exhibits"] == ["hearts", "big-two", "hearts", "big-two"]
    assert (run.table("seats")["games"] == 200).all()
    assert set(run.table("round_points")["exhibit"]) == {
        "1: hearts", "2: big-two", "3: hearts", "4: big-two"
    }
