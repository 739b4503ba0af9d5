"""Hodge Podge Dodgeball through the shared runner, storage, CLI and report: tables that add
up, analyses with intervals, reproducibility for any workers, the report's own numbers, the
shipped scenario and sweep files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from run_helpers import assert_same_tables, tables_of, zoosim

import zooanalysis
from zooanalysis.games import get_game
from zooanalysis.games.dodgeball.analysis import DodgeballRun

GAMES = 3000
SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def dodge_run(out: Path, *args: object) -> Path:
    assert zoosim("run", "--game", "dodgeball", "--out", out, "--no-progress", *args) == 0
    return out


@pytest.fixture(scope="module")
def base_run(tmp_path_factory: pytest.TempPathFactory) -> DodgeballRun:
    out = tmp_path_factory.mktemp("dodgeball") / "base"
    dodge_run(out, "--games", GAMES, "--seed", 4, "--batch-size", 700, "--jobs", 1,
              "--players", "coach,random,dodger,random")
    return zooanalysis.load_run(out)


def test_registered_with_its_strategies(capsys) -> None:
    game = get_game("dodgeball")
    assert game.title == "Hodge Podge Dodgeball"
    assert list(game.strategies) == ["random", "dodger", "coach"]
    assert zoosim("strategies", "--game", "dodgeball") == 0
    assert "coach" in capsys.readouterr().out


def test_counts_add_up(base_run: DodgeballRun) -> None:
    seats = base_run.table("seats")
    assert (seats["games"] == GAMES).all()
    assert (seats["sole_wins"] == 0).all(), "with 4 players the partners share every win"
    assert np.allclose(seats["share_sum"], seats["wins"] / 2)
    assert seats["wins"][0] == seats["wins"][2] and seats["wins"][1] == seats["wins"][3]
    assert seats["wins"][0] + seats["wins"][1] == GAMES, "one team wins every match"
    teams = base_run.table("teams")
    assert teams["wins"].tolist() == [seats["wins"][0], seats["wins"][1]]
    rounds = base_run.table("rounds").set_index("rounds")["games"]
    assert set(rounds.index) <= {2, 3} and rounds.sum() == GAMES
    played = int((rounds.index * rounds).sum())
    assert base_run.rounds_played == played
    assert base_run.table("round_starts")["rounds"].sum() == played
    events = base_run.table("round_events")
    assert (events.groupby("event")["rounds"].sum() == played).all()
    tricks = int((base_run.table("tricks")["tricks"] * base_run.table("tricks")["games"]).sum())
    ends = base_run.table("round_ends")
    assert int((ends["tricks"] * ends["rounds"]).sum()) == tricks
    per_round = {name: int((part["per_round"] * part["rounds"]).sum())
                 for name, part in events.groupby("event")}
    assert sum(per_round.values()) == tricks, "every trick is a hit, a block or a catch"
    seat_events = base_run.table("seat_events")
    assert seat_events["hit"].sum() == per_round["hits"]
    assert seat_events["caught_ball"].sum() == per_round["catches"]
    assert seat_events["could_not_play"].sum() == played
    timeouts = base_run.table("timeouts")
    assert (timeouts["rounds_won"] + timeouts["rounds_lost"]).sum() == 2 * played
    assert (timeouts[timeouts["called"] > 0]["rounds_won"]
            + timeouts[timeouts["called"] > 0]["rounds_lost"]).sum() == seat_events[
        "timeouts_called"].sum()


def test_analyses_carry_intervals(base_run: DodgeballRun) -> None:
    for table in (base_run.team_win_rates(), base_run.round_endings("seat"),
                  base_run.round_endings("reason"), base_run.round_endings("position"),
                  base_run.start_balance(), base_run.start_balance(by_round=True),
                  base_run.round_win_rates()):
        assert {"rate", "ci_low", "ci_high", "n"} <= set(table.columns)
        assert (table["ci_low"] <= table["rate"]).all()
        assert (table["rate"] <= table["ci_high"]).all()
    assert base_run.round_endings("seat")["rate"].sum() == pytest.approx(1.0)
    assert base_run.round_endings("reason")["rate"].sum() == pytest.approx(1.0)
    for table in (base_run.timeout_value(), base_run.allstar_value()):
        assert {"rate", "ci_low", "ci_high", "n", "difference", "p_value"} <= set(table.columns)
        scope = table.loc["all teams"]
        assert scope["n"].sum() == 2 * base_run.rounds_played
    events = base_run.events_per_round()
    assert list(events.index) == ["hits", "blocks", "catches"]
    assert (events["ci_low"] <= events["mean"]).all()
    length = base_run.match_length()
    assert 2 <= length.loc["rounds", "mean"] <= 3
    start = base_run.start_balance(by_round=True)
    assert start.loc[1, "n"] == GAMES, "round 1 of every match"
    rates = base_run.win_rates("seat")
    assert (rates["fair_share"] == 0.25).all(), "a partner's half of a team's fair half"
    assert rates["share"].sum() == pytest.approx(1.0)
    assert rates.loc[1, "won_or_shared"] + rates.loc[2, "won_or_shared"] == pytest.approx(1.0)
    metrics = base_run.metrics()
    assert metrics["team1_win_n"] == GAMES
    assert {"timeout_called_round_win_rate", "allstar_played_round_win_rate",
            "start_team_round_win_rate", "hits_per_round_mean"} <= set(metrics)
    summary = base_run.summary()
    for text in ("Match win rate by team", "How rounds end", "fair share 25.0%",
                 "Start player's team"):
        assert text in summary
    assert "±" not in summary


def test_same_tables_for_any_number_of_workers(base_run, tmp_path: Path) -> None:
    again = dodge_run(
        tmp_path / "again", "--games", GAMES, "--seed", 4, "--batch-size", 700, "--jobs", 2,
        "--backend", "processes", "--players", "coach,random,dodger,random",
    )
    assert_same_tables(tables_of(base_run.path), tables_of(again))


def test_rows_agree_with_the_counts(tmp_path: Path) -> None:
    run = zooanalysis.load_run(dodge_run(tmp_path / "rows", "--games", 600, "--rows",
                                         "--players", "dodger,random"))
    rows = run.game_rows()
    assert len(rows) == 600
    points = rows[["points_0", "points_1"]].to_numpy()
    seats = run.table("seats")
    assert (points.sum(axis=0) == seats["points_sum"].to_numpy()).all()
    assert ((rows["winner"] == 0).sum(), (rows["winner"] == 1).sum()) == tuple(seats["wins"])
    rounds = run.table("rounds").set_index("rounds")["games"]
    assert (rows["rounds"].value_counts().sort_index().to_numpy() == rounds.to_numpy()).all()
    assert rows["tricks"].sum() == int((run.table("tricks")["tricks"]
                                        * run.table("tricks")["games"]).sum())


def test_two_player_runs_name_the_dummies(tmp_path: Path) -> None:
    run = zooanalysis.load_run(dodge_run(tmp_path / "two", "--games", 400,
                                         "--scenario", SIMULATIONS / "dodgeball-two-players.toml"))
    assert run.players == 2
    seats = run.table("seats")
    assert (seats["sole_wins"] == seats["wins"]).all(), "with 2 players a win is won alone"
    assert run.win_rates("seat")["fair_share"].eq(0.5).all()
    names = run.round_endings("seat")["name"].tolist()
    assert set(names) <= {"player 1", "player 2", "player 1's dummy", "player 2's dummy"}
    assert run.team_win_rates().reset_index()["name"].tolist() == [
        "player 1 + dummy", "player 2 + dummy"]
    assert run.table("seat_events")["setup_exchanges"][:2].sum() > 0


def test_report_states_the_runs_own_numbers(base_run, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert zoosim("report", base_run.path, "-o", out) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    for title in ("how rounds end", "hits, blocks and catches", "the timeout and the All-Star",
                  "teams, start player and match length"):
        assert f"Hodge Podge Dodgeball: {title}" in html
    findings = pd.read_csv(out / "tables" / "findings.csv").set_index("key")
    reasons = base_run.round_endings("reason")
    assert np.isclose(findings.loc["end_no_new_suit", "value"], reasons.loc["no new suit", "rate"])
    events = base_run.events_per_round()
    assert np.isclose(findings.loc["hits_per_round", "value"], events.loc["hits", "mean"])
    teams = base_run.team_win_rates().reset_index()
    assert np.isclose(findings.loc["team1_win", "value"], teams.loc[0, "rate"])
    assert findings.loc["team1_win", "n"] == GAMES
    timeout = base_run.timeout_value().loc["all teams"].iloc[0]
    assert np.isclose(findings.loc["timeout_value", "value"], timeout["rate"])
    start = base_run.start_balance().iloc[0]
    assert np.isclose(findings.loc["start_team_round_win", "value"], start["rate"])
    balance = pd.read_csv(out / "tables" / "balance_metrics.csv").set_index("metric")
    # 4 players: partners win together, a team's win is one win, so no match is shared
    assert balance.loc["tie", "value"] == 0 and balance.loc["tie", "label"] == (
        "Games shared between teams"
    )
    first = base_run.win_rates("seat").loc[1]
    assert np.isclose(balance.loc["first_player_advantage", "value"], first["share"] - 0.25)
    for name in ("round_endings", "tricks_per_round", "events_per_round", "use_value",
                 "team_balance"):
        assert (out / "figures" / f"{name}.png").is_file()
    dodge_text = [text for key, text in findings["text"].items()
                  if key in ("end_no_new_suit", "team1_win", "timeout_value")]
    assert all("[" in text and "±" not in text for text in dodge_text)


def test_shipped_scenarios_run(tmp_path: Path) -> None:
    for name in ("dodgeball-rulebook.toml", "dodgeball-two-players.toml",
                 "dodgeball-ringers.toml"):
        out = dodge_run(tmp_path / name, "--scenario", SIMULATIONS / name, "--games", 200)
        assert zooanalysis.load_run(out).games == 200


def test_simulate_from_python() -> None:
    run = zooanalysis.simulate("dodgeball", players="random,coach", games=400, jobs=1,
                               settings={"players": 2, "ringers": True})
    assert run.settings["ringers"] is True and len(run.win_rates("seat")) == 2


@pytest.mark.slow
def test_variants_sweep_files_run(tmp_path: Path) -> None:
    """The shipped sweeps, with few games per cell."""
    for name, cells in (("sweep-dodgeball-variants.toml", 8),
                        ("sweep-dodgeball-two-players.toml", 4)):
        sweep = tmp_path / name
        text = (SIMULATIONS / name).read_text(encoding="utf-8")
        sweep.write_text(text.replace('games = "2e4"', 'games = "300"'), encoding="utf-8")
        out = tmp_path / f"cells-{name}"
        assert zoosim("sweep", sweep, "--out", out) == 0
        assert len(pd.read_parquet(out / "cells.parquet")) == cells
