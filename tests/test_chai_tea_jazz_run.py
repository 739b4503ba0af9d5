"""Chai Tea Jazz through the shared runner, storage, CLI and report: the tables add up, the
analyses agree with them, the report's findings are the run's numbers, every player count
and variant runs, and bad input is one line with exit code 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_helpers import assert_report_reads_right
from run_helpers import game_run, scenario_file, zoosim

from zooanalysis.games.chai_tea_jazz.analysis import ChaiRun
from zooanalysis.games.chai_tea_jazz.engine import HOW_NAMES
from zooanalysis.stats import rate_table

GAMES = 2000
SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"
SWEEP = SIMULATIONS / "sweep-chai-tea-jazz-variants.toml"


def scenario(folder: Path, settings: str) -> Path:
    """A scenario file for Chai Tea Jazz with these ``[settings]`` lines."""
    return scenario_file(folder, "chai-tea-jazz", settings)


def chai_run(out: Path, *args: object) -> ChaiRun:
    return game_run(out, "chai-tea-jazz", *args, kind=ChaiRun)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[ChaiRun, Path]:
    """The lineup that was the default before issue 18 (tracker, greedy, random), 2,000
    games, and its report."""
    folder = tmp_path_factory.mktemp("chai")
    run = chai_run(folder / "run", "--players", "tracker,greedy,random", "--games", GAMES,
                   "--seed", 4, "--batch-size", 600)  # fmt: skip
    assert zoosim("report", folder / "run", "-o", folder / "report") == 0
    return run, folder / "report"


def test_counts_add_up(base) -> None:
    run, _ = base
    rounds = GAMES * 12
    contracts = run.table("contracts")
    # 3 players: every seat declares every contract exactly once per game
    assert (contracts["declared"] == GAMES).all()
    how = contracts[list(HOW_NAMES)].sum(axis=1)
    np.testing.assert_array_equal(how, contracts["declared"])
    assert contracts["offer"].sum() == 0  # no Passing the Barrel
    assert run.table("debts")["rounds"].sum() == rounds
    assert run.table("positions")["rounds"].sum() == rounds
    assert run.table("scores")["rounds"].sum() == rounds
    assert run.table("declared_tricks")["rounds"].sum() == rounds
    assert run.table("bids")["rounds"].sum() == rounds
    assert run.table("contract_rounds")["rounds"].sum() == rounds
    # every row gives +v, 0, -v: game points add up to zero, and they are the rows'
    seats = run.table("seats")
    assert seats["points_sum"].sum() == 0
    by_seat = contracts.groupby("seat")["game_points_sum"].sum()
    np.testing.assert_array_equal(by_seat.to_numpy(), seats["points_sum"].to_numpy())
    assert seats["declared"].sum() == rounds
    assert run.table("certain")["games"].sum() == GAMES
    assert run.table("rounds")["games"].sum() == GAMES
    assert run.table("margin_points")["games"].sum() == GAMES
    # the outcome tally: one winner per game, win shares add up to the games
    assert seats["wins"].sum() == GAMES and seats["share_sum"].sum() == pytest.approx(GAMES)
    debts = run.table("debts")
    assert (debts["debt"] % 5 == 0).all() and debts["debt"].max() <= 35


def test_analyses_agree_with_the_tables(base) -> None:
    run, _ = base
    contracts = run.table("contracts")
    declared = run.declarer_points("contract")
    for contract, row in declared.iterrows():
        mine = contracts[contracts["contract"] == contract]
        assert row.points_mean == pytest.approx(mine["gross_sum"].sum() / mine["declared"].sum())
        assert row.score_mean == pytest.approx(mine["score_sum"].sum() / mine["declared"].sum())
        assert int(row.points_n) == GAMES * 3
        assert row.score_p10 <= row.score_median <= row.score_p90
    choices = run.contract_choices("contract")
    for contract, row in choices.iterrows():
        mine = contracts[contracts["contract"] == contract]
        expected = rate_table([mine["forced"].sum()], [mine["declared"].sum()]).iloc[0]
        assert row.forced_rate == pytest.approx(expected.rate)
        assert row.forced_ci_high == pytest.approx(expected.ci_high)
    assert choices["first_pick_rate"].sum() == pytest.approx(1.0)
    debts = run.bet_debt()
    assert debts["share_rate"].sum() == pytest.approx(1.0)
    assert debts.loc[0, "points_mean"] == pytest.approx(debts.loc[0, "score_mean"])
    for debt, row in debts.iterrows():
        assert row.points_mean - row.score_mean == pytest.approx(debt)
    positions = run.barrel_positions()
    assert list(positions.index) == [1, 2, 3]
    assert positions["share_rate"].sum() == pytest.approx(1.0)
    early = run.early_end().iloc[0]
    certain = run.table("certain")
    assert early.rate == pytest.approx(certain[certain["rounds"] < 12]["games"].sum() / GAMES)
    fit = run.evaluation_fit()
    assert set(fit.index) == set(declared.index)
    assert (fit["n"] == GAMES * 2).all()  # tracker and greedy declare every contract once
    assert (fit["correlation"] > 0).all()  # the evaluation does predict something
    points = run.contract_points("strategy")
    assert points.loc[("random", "Joker"), "mean"] < 0 < points.loc[("tracker", "Joker"), "mean"]
    usage = run.debt_usage("strategy")
    assert set(usage.index) == {"tracker", "greedy", "random"}
    ways = run.ways()
    assert ways.groupby(level=0)["share_rate"].sum().to_numpy() == pytest.approx(1.0)


def test_summary_and_metrics(base) -> None:
    run, _ = base
    text = run.summary()
    for fragment in ("Declarer points by contract", "How contracts were decided", "Bet Debt",
                     "Barrel holder", "early end", "tie-break"):  # fmt: skip
        assert fragment in text
    assert "±" not in text
    metrics = run.metrics()
    for key in ("trump_points_mean", "joker_forced_rate", "early_end_rate", "tie_break_ci_low",
                "bet_rounds_rate", "picks_per_phase_mean", "match_declaring_rate"):  # fmt: skip
        assert key in metrics, key


def test_report_findings_are_the_runs_numbers(base) -> None:
    run, report = base
    findings = pd.read_csv(report / "tables" / "findings.csv").set_index("key")
    declared = run.declarer_points("contract")
    best, _ = run.easiest_contract()
    assert findings.loc["easiest_contract", "value"] == pytest.approx(
        declared.loc[best, "points_mean"]
    )
    early = run.early_end().iloc[0]
    assert findings.loc["early_end", "value"] == pytest.approx(early.rate)
    assert findings.loc["early_end", "n"] == GAMES
    ties = run.tie_breaks()
    assert findings.loc["tie_break", "ci_high"] == pytest.approx(ties.ci_high)
    holder = run.barrel_positions().loc[1]
    assert findings.loc["barrel_declares", "value"] == pytest.approx(holder.share_rate)
    assert findings.loc["bet_rounds", "value"] == pytest.approx(run.bet_rounds().rate)
    for name in ("chai_contracts", "chai_picking", "chai_end"):
        assert (report / "figures" / f"{name}.png").is_file()
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "Chai Tea Jazz: the contracts" in html and "Chai Tea Jazz: hand evaluation" in html
    for key in ("easiest_contract", "widest_contract", "most_forced_contract"):
        text = findings.loc[key, "text"]
        assert "measurably" in text or "interval above" in text or "[" in text, text
    assert_report_reads_right(report)


@pytest.mark.parametrize(
    ("name", "games", "players"),
    [
        ("chai-tea-jazz-two-players.toml", 150, 2),
        ("chai-tea-jazz-teams.toml", 150, 4),
        ("chai-tea-jazz-six-players.toml", 100, 6),
        ("chai-tea-jazz-double-deck.toml", 60, 6),
        ("chai-tea-jazz-jass.toml", 150, 3),
        ("chai-tea-jazz-passing-the-barrel.toml", 150, 3),
        ("chai-tea-jazz-custom-contracts.toml", 100, 3),
    ],
)
def test_every_scenario_runs_and_reports(name, games, players, tmp_path: Path) -> None:
    run = chai_run(tmp_path / "run", "--scenario", SIMULATIONS / name, "--games", games)
    rules = run.rules()
    assert rules.players == players
    seats = run.table("seats")
    assert seats["wins"].sum() == games * rules.team_size
    assert run.table("contracts")["declared"].sum() == games * rules.rounds
    assert seats["share_sum"].sum() == pytest.approx(games)
    if rules.passing_the_barrel:
        assert run.table("contracts")["offer"].sum() + seats["offers_declined"].sum() > 0
    assert zoosim("report", tmp_path / "run", "-o", tmp_path / "report") == 0
    assert_report_reads_right(tmp_path / "report")


def test_rotated_runs_group_by_strategy(tmp_path: Path) -> None:
    run = chai_run(tmp_path / "rotated", "--games", 150, "--seed", 1, "--rotate-seats",
                   "--players", "tracker,random,random")  # fmt: skip
    usage = run.debt_usage("strategy")
    assert set(usage.index) == {"tracker", "random"}
    points = run.contract_points("strategy")
    assert set(points.index.get_level_values(0)) == {"tracker", "random"}
    assert (points.loc["tracker", "n"] == 150 * 3).all()  # 3 seatings, one tracker each
    assert "Chai Tea Jazz" in run.summary()


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--players", "random*5"], ["players", "2, 3, 4 or 6"]),
        (["--players", "greedy:bet_at=99,random,random"], ["bet_at", "-60 to 60"]),
        (["--players", "tracker:depth=2,random,random"], ["no parameter 'depth'"]),
        (["contracts = [{ name = 'Long', play = 'long', value = 3 }]"],
         ["contracts[0].play", "never defined"]),
        (["deck = 'tarot'"], ["deck", "jass"]),
        (["rank_points = { 'X' = 3 }"], ["rank_points.X", "'X'"]),
        (["bet_step = { 3 = 0 }"], ["bet_step.3", "1 to 200"]),
        (["repick = 'any'"], ["repick", "different-bid"]),
        (["draw_piles = 5"], ["draw_piles", "allowed are"]),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    args, fragments, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run" / "out"
    if args[0].startswith("--"):
        options = args
    else:
        folder = tmp_path / "scenarios"
        folder.mkdir()
        options = ["--scenario", scenario(folder, args[0])]
    (tmp_path / "run").mkdir()
    code = zoosim("run", "--game", "chai-tea-jazz", "--games", 100, *options, "--out", out,
                  "--no-progress")  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists()
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == []


def test_the_variants_sweep_runs_and_reports(tmp_path: Path) -> None:
    """The shipped sweep, with few games per cell: 12 cells, their metrics."""
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(SWEEP.read_text(encoding="utf-8").replace('games = "1e4"', 'games = "60"'),
                     encoding="utf-8")  # fmt: skip
    assert zoosim("sweep", sweep, "--out", tmp_path / "cells", "--jobs", 1) == 0
    cells = pd.read_parquet(tmp_path / "cells" / "cells.parquet")
    assert len(cells) == 12
    assert {"early_end_rate", "bet_rounds_rate", "tie_break_rate"} <= set(cells.columns)
    custom = cells[cells["settings.contracts"] == "custom-example"]
    assert custom["over_points_mean"].notna().all()
    assert zoosim("report", tmp_path / "cells", "-o", tmp_path / "report") == 0
