"""Short Zoot Suit through the shared runner, storage, CLI and report: the tables add up, the
analyses agree with them, the report's findings are the run's numbers, the variants run, and
bad input is one line with exit code 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_helpers import assert_report_reads_right
from run_helpers import game_run, loaded_without, scenario_file, zoosim

from zooanalysis.games.short_zoot_suit.analysis import ZootRun
from zooanalysis.games.short_zoot_suit.engine import END_REASONS, SOURCES
from zooanalysis.stats import rate_table

GAMES = 3000
SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"
SEANS = SIMULATIONS / "short-zoot-suit-seans-short-shorts.toml"
SWEEP = SIMULATIONS / "sweep-short-zoot-suit-variants.toml"


def scenario(folder: Path, settings: str) -> Path:
    """A scenario file for Short Zoot Suit with these ``[settings]`` lines."""
    return scenario_file(folder, "short-zoot-suit", settings)


def zoot_run(out: Path, *args: object) -> ZootRun:
    return game_run(out, "short-zoot-suit", *args, kind=ZootRun)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[ZootRun, Path]:
    """The lineup that was the default before issue 18 (four strategies, for the analyses by
    strategy), 3,000 games, and its report."""
    folder = tmp_path_factory.mktemp("zoot")
    run = zoot_run(folder / "run", "--players", "balanced,void,late,random", "--games", GAMES,
                   "--seed", 4, "--batch-size", 700)  # fmt: skip
    assert zoosim("report", folder / "run", "-o", folder / "report") == 0
    return run, folder / "report"


def test_counts_add_up(base) -> None:
    run, _ = base
    rounds = GAMES * 4
    seats = run.table("seats")
    assert (seats["games"] == GAMES).all()
    assert seats["wins"].sum() >= GAMES >= seats["sole_wins"].sum()
    sources = seats[[f"points_{source}" for source in SOURCES]].sum(axis=1)
    np.testing.assert_array_equal(sources, seats["points_sum"])  # sources add up
    cells = run.table("round_scores")
    assert (cells.groupby("seat")["rounds"].sum() == rounds).all()
    length = run.table("round_tricks")
    assert length["games"].sum() == rounds
    # every trick is won by exactly one player
    won = (cells["tricks"] * cells["rounds"]).sum()
    assert won == (length["tricks"] * length["games"]).sum()
    game_tricks = run.table("game_tricks")
    assert (game_tricks["tricks"] * game_tricks["games"]).sum() == won
    # every pile holds exactly 5 cards, counted once by rank and once by suit
    groups = run.table("pile_groups")
    for kind in ("rank", "suit"):
        assert groups[groups["kind"] == kind]["cards"].sum() == 5 * rounds * 4
    # every round ends with at least one empty hand, each counted once by reason
    ends = run.table("round_ends")
    assert ends["rounds"].sum() == rounds
    empty = seats[[f"empty_hand_{reason}" for reason in END_REASONS]].to_numpy().sum()
    assert empty == (ends["empty_hands"] * ends["rounds"]).sum()
    assert seats["empty_hand_placed_last_card"].sum() == 0  # no placing in the base game


def test_analyses_agree_with_the_tables(base) -> None:
    run, _ = base
    cells = run.round_scores("seat")
    equal = run.equal_rates("seat")
    for seat, row in equal.iterrows():
        mine = cells[cells["seat"] == seat]
        same = mine[(mine["tricks"] == mine["shorts"]) & (mine["tricks"] > 0)]["rounds"].sum()
        expected = rate_table([same], [mine["rounds"].sum()]).iloc[0]
        assert row.bonus_rate == pytest.approx(expected.rate)
        assert row.bonus_ci_low == pytest.approx(expected.ci_low)
        assert int(row.bonus_n) == GAMES * 4
    sources = run.points_by_source("seat")
    seats = run.table("seats").set_index("seat")
    for seat in seats.index:
        total = sources.loc[(seat, "total"), "mean"]
        assert total == pytest.approx(seats.loc[seat, "points_sum"] / (GAMES * 4))
        parts = sum(sources.loc[(seat, source), "mean"] for source in SOURCES)
        assert parts == pytest.approx(total)
        assert sources.loc[(seat, "intermediate"), "mean"] == 0
    ranks = run.pile_cards("rank")
    assert list(ranks.index) == list(range(1, 14))
    assert ranks["cards_mean"].sum() == pytest.approx(5.0)
    assert ranks["random_cards"].sum() == pytest.approx(5.0)
    assert (ranks["held_n"] == GAMES * 4 * 4).all()
    suits = run.pile_cards("suit")
    assert list(suits.index) == ["C", "D", "H", "S"]
    cards = run.pile_card_rates()
    assert len(cards) == 52 and cards["in_pile_rate"].sum() == pytest.approx(5 * 4 / 4)
    for rate in ("rate", "ci_low", "ci_high", "n"):
        assert f"drawn_{rate}" in ranks and f"held_{rate}" in ranks
    length = run.round_length().iloc[0]
    hist = run.table("round_tricks")
    assert length["mean"] == pytest.approx((hist["tricks"] * hist["games"]).sum() / (GAMES * 4))
    positions = run.position_points()
    assert list(positions.index) == [1, 2, 3, 4] and (positions["n"] == GAMES * 4).all()
    assert positions["mean"].mean() == pytest.approx(seats["points_sum"].sum() / (GAMES * 16))
    assert run.pile_profiles("voids_made")["share_n"].iloc[0] == GAMES * 16
    actions = run.actions("strategy")
    assert set(actions.columns) >= {"pass_rate", "draw_rate", "place_rate", "draws_per_round"}
    assert (actions["place_rate"] == 0).all()


def test_summary_and_metrics(base) -> None:
    run, _ = base
    text = run.summary()
    for fragment in ("Points per round by source", "Round length", "How rounds end",
                     "Draw piles by rank"):  # fmt: skip
        assert fragment in text
    assert "±" not in text
    metrics = run.metrics()
    for key in ("round_tricks_mean", "equal_bonus_rate", "equal_bonus_ci_low",
                "points_pairs_share", "end_declined_to_draw_rate", "balanced_equal_bonus_rate"):
        assert key in metrics, key  # fmt: skip
    assert sum(metrics[f"points_{s}_share"] for s in SOURCES) == pytest.approx(1.0)


def test_round_ends_and_drawn_back_allow_for_one_game_moving_together(base) -> None:
    run, _ = base
    ends = run.round_ends_overall()
    seats = run.table("seats")
    counts = pd.Series({r: seats[f"empty_hand_{r}"].sum() for r in END_REASONS})
    independent = rate_table(counts, pd.Series(counts.sum(), counts.index))
    assert ends["clustered"].all() and (ends["n"] == counts.sum()).all()
    assert ends["rate"].to_numpy(float) == pytest.approx(independent["rate"].to_numpy(float))
    # the piles run out for every seat of a round at once: far wider than independent
    row, alone = ends.loc["draw_pile_empty"], independent.loc["draw_pile_empty"]
    assert row["effective_n"] < 0.7 * row["n"]
    assert row["ci_high"] - row["ci_low"] > 1.15 * (alone["ci_high"] - alone["ci_low"])
    cards = run.pile_cards("rank")
    assert cards["drawn_clustered"].all()
    assert (cards["drawn_effective_n"] <= cards["drawn_n"] + 1e-9).all()
    assert (cards["drawn_effective_n"] < cards["drawn_n"]).any()
    text = run.summary()
    assert "allow for the empty hands of one game being correlated" in text
    assert "allow for the cards of one game being correlated" in text
    assert f"in {GAMES:,} games)" in text


def test_a_folder_without_the_per_game_counts_shows_independent_intervals(
    tmp_path: Path,
) -> None:
    run = zoot_run(tmp_path / "run", "--games", 200, "--seed", 5)
    old = loaded_without(Path(run.path), "end_games", "drawn_games")  # as written before them
    ends = old.round_ends_overall()
    seats = old.table("seats")
    counts = pd.Series({r: seats[f"empty_hand_{r}"].sum() for r in END_REASONS})
    independent = rate_table(counts, pd.Series(counts.sum(), counts.index))
    assert not ends["clustered"].any()
    for column in ("rate", "ci_low", "ci_high"):
        assert ends[column].to_numpy(float) == pytest.approx(
            independent[column].to_numpy(float), nan_ok=True)
    assert not old.pile_cards("rank")["drawn_clustered"].any()
    text = old.summary()
    assert "count the empty hands as independent" in text
    assert "count the cards as independent" in text and " games)" not in text
    assert zoosim("show", run.path) == 0


def test_report_findings_are_the_runs_numbers(base) -> None:
    run, report = base
    findings = pd.read_csv(report / "tables" / "findings.csv").set_index("key")
    cells = run.table("round_scores")
    same = cells[(cells["tricks"] == cells["shorts"]) & (cells["tricks"] > 0)]["rounds"].sum()
    expected = rate_table([same], [cells["rounds"].sum()]).iloc[0]
    assert findings.loc["equal_bonus_rate", "value"] == pytest.approx(expected.rate)
    assert findings.loc["equal_bonus_rate", "ci_high"] == pytest.approx(expected.ci_high)
    assert findings.loc["equal_bonus_rate", "n"] == GAMES * 16
    length = run.round_length().iloc[0]
    assert findings.loc["round_length", "value"] == pytest.approx(length["mean"])
    ranks = run.pile_cards("rank")
    assert findings.loc["most_piled_rank", "value"] == pytest.approx(ranks["cards_mean"].max())
    for name in ("zoot_points_by_source", "zoot_pile_ranks", "zoot_rounds"):
        assert (report / "figures" / f"{name}.png").is_file()
        assert (report / "figures" / f"{name}.svg").is_file()
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "Short Zoot Suit: the draw pile" in html
    for key in ("most_equal_strategy", "best_position", "best_piled_rank"):
        text = findings.loc[key, "text"]
        if "measurably" not in text and "overlap" not in text:
            assert "interval above" in text or "(an association" in text, text


def test_seans_short_shorts_and_no_draw_pile_run_and_report(tmp_path: Path) -> None:
    seans = zoot_run(tmp_path / "seans", "--scenario", SEANS, "--games", 800, "--seed", 2)
    seats = seans.table("seats")
    assert seats["actions_place"].sum() > 0 and seats["empty_hand_placed_last_card"].sum() > 0
    assert seans.pile_profiles("voids_made").index.tolist() == [0]  # no pile at the start
    assert zoosim("report", tmp_path / "seans", "-o", tmp_path / "seans-report") == 0
    assert_report_reads_right(tmp_path / "seans-report")
    bare = zoot_run(tmp_path / "bare", "--games", 500, "--seed", 2, "--players",
                    "balanced,random,void", "--scenario",
                    scenario(tmp_path, "draw_pile_cards = 0"))  # fmt: skip
    assert bare.table("pile_groups").empty
    assert bare.table("seats")["actions_draw"].sum() == 0
    assert bare.rules().players == 3 and bare.rounds_per_game == 3
    assert zoosim("report", tmp_path / "bare", "-o", tmp_path / "bare-report") == 0
    html = (tmp_path / "bare-report" / "report.html").read_text(encoding="utf-8")
    assert "played without draw piles" in html


def test_rotated_runs_group_by_strategy(tmp_path: Path) -> None:
    run = zoot_run(tmp_path / "rotated", "--games", 400, "--seed", 1, "--rotate-seats",
                   "--players", "balanced,random")  # fmt: skip
    equal = run.equal_rates("strategy")
    assert set(equal.index) == {"balanced", "random"}
    assert (equal["bonus_n"] == 400 * 2 * 2).all()  # 2 seatings x 2 rounds
    assert set(run.points_by_source("strategy").index.get_level_values(0)) == {
        "balanced", "random"
    }
    assert run.pile_cards("rank", who="random")["cards_mean"].sum() == pytest.approx(5.0)
    assert "Short Zoot Suit" in run.summary()


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--players", "random*5"], ["players", "2 to 4"]),
        (["--players", "balanced:lean=99,random"], ["lean", "-5 to 15"]),
        (["--players", "balanced:depth=2,random"], ["no parameter 'depth'"]),
        (["deck_ranks = { 4 = '1-1O' }"], ["deck_ranks.4", "'1-1O'"]),
        (["intermediate_scoring = 'starred'"], ["intermediate_scoring", "unique-suits"]),
        (["draw_pile_cards = 13"], ["draw_pile_cards", "0 to 12"]),
        (["set_aside = { 4 = 3 }"], ["set_aside.4", "multiple of 4"]),
        (["unique_suit_points = [1, 5]"], ["unique_suit_points", "list of 4"]),
        (["draw_piles = 5"], ["draw_piles", "allowed are"]),
    ],
)
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
    code = zoosim("run", "--game", "short-zoot-suit", "--games", 100, *options, "--out", out,
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


def test_a_bad_scenario_file_names_the_key(tmp_path: Path, capsys) -> None:
    scenario = tmp_path / "bad.toml"
    text = (SIMULATIONS / "short-zoot-suit-rulebook.toml").read_text(encoding="utf-8")
    scenario.write_text(text.replace('4 = "1-13"', '4 = "1-13, X"'), encoding="utf-8")
    code = zoosim("run", "--scenario", scenario, "--games", 100, "--out", tmp_path / "out",
                  "--no-progress")  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "deck_ranks.4" in err and "'X'" in err
    assert not (tmp_path / "out").exists()


def test_the_variants_sweep_runs_and_reports(tmp_path: Path) -> None:
    """The shipped sweep, with few games per cell: 8 cells, their metrics and figures."""
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(SWEEP.read_text(encoding="utf-8").replace('games = "2e4"', 'games = "200"'),
                     encoding="utf-8")  # fmt: skip
    assert zoosim("sweep", sweep, "--out", tmp_path / "cells", "--jobs", 1) == 0
    cells = pd.read_parquet(tmp_path / "cells" / "cells.parquet")
    assert len(cells) == 8
    assert {"round_tricks_mean", "equal_bonus_rate", "points_intermediate_share"} <= set(
        cells.columns
    )
    with_suits = cells[cells["settings.intermediate_scoring"] == "unique-suits"]
    assert (with_suits["points_intermediate_share"] > 0).all()
    assert zoosim("report", tmp_path / "cells", "-o", tmp_path / "report") == 0
