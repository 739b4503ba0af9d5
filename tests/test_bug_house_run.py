"""Bug House Millionaire through the shared runner, storage, CLI and report: tables that add
up, analyses with intervals, reproducibility for any workers, the report's own numbers, the
shipped scenario and sweep files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from run_helpers import assert_same_tables, tables_of, zoosim

import zooanalysis
from zooanalysis.games import get_game
from zooanalysis.games.bug_house.analysis import BugHouseRun
from zooanalysis.stats import rate_table
from zooanalysis.storage import MANIFEST, sha256

GAMES = 3000
SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"
LINEUP = "climber,fast,random,climber"


def bug_run(out: Path, *args: object) -> Path:
    assert zoosim("run", "--game", "bug-house", "--out", out, "--no-progress", *args) == 0
    return out


@pytest.fixture(scope="module")
def base_run(tmp_path_factory: pytest.TempPathFactory) -> BugHouseRun:
    out = tmp_path_factory.mktemp("bug-house") / "base"
    bug_run(out, "--games", GAMES, "--seed", 4, "--batch-size", 700, "--jobs", 1,
            "--players", LINEUP, "--scenario", SIMULATIONS / "bug-house-delayed-singles.toml")
    return zooanalysis.load_run(out)


def test_registered_with_its_strategies(capsys) -> None:
    game = get_game("bug-house")
    assert game.title == "Bug House Millionaire"
    assert list(game.strategies) == ["random", "climber", "fast"]
    assert zoosim("strategies", "--game", "bug-house") == 0
    assert "climber" in capsys.readouterr().out


def test_counts_add_up(base_run: BugHouseRun) -> None:
    seats = base_run.table("seats")
    assert (seats["games"] == GAMES).all()
    assert (seats["sole_wins"] == 0).all(), "the partners share every win"
    assert np.allclose(seats["share_sum"], seats["wins"] / 2)
    assert seats["wins"][0] == seats["wins"][2] and seats["wins"][1] == seats["wins"][3]
    assert seats["wins"][0] + seats["wins"][1] == GAMES, "one team wins every game"
    teams = base_run.table("teams")
    assert teams["wins"].tolist() == [seats["wins"][0], seats["wins"][1]]
    assert base_run.table("ends")["games"].sum() == GAMES
    assert base_run.table("end_seconds")["games"].sum() == GAMES
    assert base_run.table("tricks")["games"].sum() == GAMES
    tricks = int((base_run.table("tricks")["tricks"] * base_run.table("tricks")["games"]).sum())
    assert seats["tricks_won"].sum() == tricks == seats["passes"].sum()
    given = seats["cards_given"].sum()
    assert given == seats["cards_received"].sum()
    assert tricks - 2 * GAMES <= given <= tricks, "a game may end before a trick's gift"
    left = base_run.table("cards_left")
    held = int((left["cards"] * left["games"]).sum())
    assert held == 64 * GAMES - seats["cards_played"].sum() + seats["cards_received"].sum()
    singles = base_run.table("singles_card")
    assert singles["games"].sum() == 2 * GAMES
    assert singles[singles["took_card"] == 1]["games"].sum() == seats["singles_card_taken"].sum()
    assert seats["stuck"].sum() > 0


def test_analyses_carry_intervals(base_run: BugHouseRun) -> None:
    for table in (base_run.team_win_rates(), base_run.endings("reason"),
                  base_run.endings("seat"), base_run.endings("seat_reason"),
                  base_run.start_players(), base_run.singles_card_value()):
        assert {"rate", "ci_low", "ci_high", "n"} <= set(table.columns)
        assert (table["ci_low"] <= table["rate"]).all()
        assert (table["rate"] <= table["ci_high"]).all()
    assert base_run.endings("reason")["rate"].sum() == pytest.approx(1.0)
    assert base_run.endings("seat")["rate"].sum() == pytest.approx(1.0)
    assert list(base_run.endings("seat").index) == [1, 2, 3, 4], "seats from 1"
    assert base_run.endings("seat")["start_player"].tolist() == [True, False, False, True]
    length = base_run.game_length()
    clock = base_run.settings["clock_seconds"]
    assert 0 < length.loc["seconds", "mean"] <= 2 * clock
    assert length.loc["seconds, clock", "p10"] >= clock - 1, "a clock ran out: a whole clock"
    activity = base_run.seat_activity()
    assert list(activity.index) == [1, 2, 3, 4]
    assert (activity["clock_used_seconds"] <= clock).all()
    rates = base_run.win_rates("seat")
    assert (rates["fair_share"] == 0.25).all()
    assert rates["share"].sum() == pytest.approx(1.0)
    metrics = base_run.metrics()
    assert metrics["team1_win_n"] == GAMES
    assert {"end_clock_rate", "seconds_mean", "cards_given_per_game"} <= set(metrics)
    summary = base_run.summary()
    for text in ("Win rate by team", "How games end", "fair share 25.0%", "seconds"):
        assert text in summary
    assert "±" not in summary


def test_gifts_needed_allow_for_the_gifts_of_one_game_moving_together(base_run) -> None:
    seats = base_run.table("seats")
    independent = rate_table([seats["gifts_needed"].sum()], [seats["cards_given"].sum()]).iloc[0]
    share = base_run.gifts_needed()
    assert share["clustered"] and share["n"] == independent["n"] > 0
    assert share["rate"] == pytest.approx(independent["rate"])
    # never narrower than counting the gifts as independent
    assert share["ci_low"] <= independent["ci_low"] + 1e-12
    assert share["ci_high"] >= independent["ci_high"] - 1e-12
    activity = base_run.seat_activity()
    assert activity["gifts_clustered"].all()
    for seat, row in activity.iterrows():
        alone = rate_table([seats.loc[seat - 1, "gifts_needed"]],
                           [seats.loc[seat - 1, "cards_given"]]).iloc[0]  # fmt: skip
        assert row["gifts_needed"] == pytest.approx(alone["rate"])
        assert row["gifts_needed_ci_high"] - row["gifts_needed_ci_low"] >= (
            alone["ci_high"] - alone["ci_low"] - 1e-12)


def test_a_folder_without_the_per_game_counts_counts_gifts_as_independent(
    tmp_path: Path,
) -> None:
    out = bug_run(tmp_path / "run", "--games", 200, "--seed", 5, "--jobs", 1)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest.pop("manifest_sha256", None)  # as a folder written before the new columns
    (out / MANIFEST).write_text(json.dumps(manifest))
    seats_file = out / "seats.parquet"
    seats = pd.read_parquet(seats_file)
    seats = seats.drop(columns=[c for c in seats if "gift_squares" in c or "gift_cross" in c
                                or "given_squares" in c])  # fmt: skip
    seats.to_parquet(seats_file)
    if "checksums" in manifest:
        manifest["checksums"]["seats.parquet"] = sha256(seats_file.read_bytes())
    (out / MANIFEST).write_text(json.dumps(manifest))
    old = zooanalysis.load_run(out)
    share = old.gifts_needed()
    expected = rate_table([seats["gifts_needed"].sum()], [seats["cards_given"].sum()]).iloc[0]
    assert not share["clustered"]
    assert (share["ci_low"], share["ci_high"]) == pytest.approx(
        (expected["ci_low"], expected["ci_high"]))
    assert not old.seat_activity()["gifts_clustered"].any()
    assert zoosim("report", out, "-o", tmp_path / "report") == 0
    findings = pd.read_csv(tmp_path / "report" / "tables" / "findings.csv").set_index("key")
    assert "counts the gifts as independent" in findings.loc["gifts_needed", "text"]


def test_same_tables_for_any_number_of_workers(base_run, tmp_path: Path) -> None:
    again = bug_run(
        tmp_path / "again", "--games", GAMES, "--seed", 4, "--batch-size", 700, "--jobs", 2,
        "--backend", "processes", "--players", LINEUP,
        "--scenario", SIMULATIONS / "bug-house-delayed-singles.toml",
    )
    assert_same_tables(tables_of(base_run.path), tables_of(again))


def test_rows_agree_with_the_counts(tmp_path: Path) -> None:
    run = zooanalysis.load_run(bug_run(tmp_path / "rows", "--games", 600, "--rows",
                                       "--players", "random,fast,climber,random"))
    rows = run.game_rows()
    assert len(rows) == 600
    points = rows[[f"points_{seat}" for seat in range(4)]].to_numpy()
    seats = run.table("seats")
    assert (points.sum(axis=0) == seats["wins"].to_numpy()).all()
    ends = run.table("ends").groupby("reason", observed=False)["games"].sum()
    assert (rows["reason"] == 1).sum() == ends["clock"]
    seconds = run.table("end_seconds")
    assert (rows["end_ms"] // 1000).sum() == int((seconds["seconds"] * seconds["games"]).sum())


def test_report_states_the_runs_own_numbers(base_run, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert zoosim("report", base_run.path, "-o", out) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    for title in ("how and when games end", "teams, seats and start players",
                  "partners, passing and the clock", "Delayed Singles"):
        assert f"Bug House Millionaire: {title}" in html
    findings = pd.read_csv(out / "tables" / "findings.csv").set_index("key")
    endings = base_run.endings("reason")
    assert np.isclose(findings.loc["end_clock", "value"], endings.loc["clock", "rate"])
    teams = base_run.team_win_rates().reset_index()
    assert np.isclose(findings.loc["team1_win", "value"], teams.loc[0, "rate"])
    assert findings.loc["team1_win", "n"] == GAMES
    length = base_run.game_length()
    assert np.isclose(findings.loc["seconds", "value"], length.loc["seconds", "mean"])
    for name in ("end_seconds", "balance", "clock_used"):
        assert (out / "figures" / f"{name}.png").is_file()
    texts = [text for key, text in findings["text"].items()
             if key in ("end_clock", "team1_win", "gifts_needed", "start_players")]
    assert len(texts) == 4 and all("[" in text and "±" not in text for text in texts)


def test_shipped_scenarios_run(tmp_path: Path) -> None:
    for name in ("bug-house-rulebook.toml", "bug-house-delayed-singles.toml"):
        out = bug_run(tmp_path / name, "--scenario", SIMULATIONS / name, "--games", 200)
        assert zooanalysis.load_run(out).games == 200


@pytest.mark.slow
def test_sweep_files_run(tmp_path: Path) -> None:
    """The shipped sweeps, with few games per cell."""
    for name, cells in (("sweep-bug-house-clock.toml", 3),
                        ("sweep-bug-house-variants.toml", 8)):
        sweep = tmp_path / name
        text = (SIMULATIONS / name).read_text(encoding="utf-8")
        sweep.write_text(text.replace('games = "2e4"', 'games = "300"'), encoding="utf-8")
        out = tmp_path / f"cells-{name}"
        assert zoosim("sweep", sweep, "--out", out) == 0
        assert len(pd.read_parquet(out / "cells.parquet")) == cells
