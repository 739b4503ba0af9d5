"""Big Two through the shared runner, storage, CLI and report: the tables add up, the
analyses agree with them, the report's findings are the run's numbers, a match runs, and
bad input is one line with exit code 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from report_helpers import assert_report_reads_right
from run_helpers import game_run, loaded_without, zoosim

from zooanalysis.games.big_two.analysis import BigTwoRun
from zooanalysis.stats import rate_table

GAMES = 3000
SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def big_two_run(out: Path, *args: object) -> BigTwoRun:
    return game_run(out, "big-two", *args, kind=BigTwoRun)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[BigTwoRun, Path]:
    folder = tmp_path_factory.mktemp("bigtwo")
    # the default before issue 18: three strategies, for the analyses by strategy
    run = big_two_run(folder / "run", "--players", "control,greedy,random,random", "--games",
                      GAMES, "--seed", 4, "--batch-size", 700)  # fmt: skip
    assert zoosim("report", folder / "run", "-o", folder / "report") == 0
    return run, folder / "report"


def test_counts_add_up(base) -> None:
    run, _ = base
    seats = run.table("seats")
    assert (seats["games"] == GAMES).all() and (seats["rounds"] == GAMES).all()
    assert seats["sole_wins"].sum() == GAMES  # the first out wins alone
    cells = run.table("cards_left")
    assert (cells.groupby("seat")["rounds"].sum() == GAMES).all()
    assert cells[cells["cards"] == 0]["rounds"].sum() == GAMES  # one player out per round
    places = run.table("places")
    assert places[places["place"] == 0]["rounds"].sum() == GAMES
    positions = run.table("positions")
    assert positions["firsts"].sum() == GAMES and seats["opener_rounds"].sum() == GAMES
    assert positions["cards_sum"].sum() == (cells["cards"] * cells["rounds"]).sum()
    assert run.table("turns")["games"].sum() == GAMES
    kinds = run.table("play_kinds")
    plays = kinds[kinds["kind"] != "pass"]["plays"].sum()
    leads = run.table("leads")["leads"].sum()
    assert leads == (run.table("tricks")["tricks"] * run.table("tricks")["games"]).sum()
    assert plays >= leads


def test_analyses_agree_with_the_tables(base) -> None:
    run, _ = base
    first = run.first_player()
    positions = run.table("positions")
    expected = rate_table([positions["firsts"].iloc[0]], [GAMES]).iloc[0]
    assert first.iloc[0]["rate"] == pytest.approx(expected.rate)
    assert first["fair"].iloc[0] == pytest.approx(0.25) and list(first["n"]) == [GAMES] * 4
    cards = run.cards_left()
    assert list(cards.index) == [1, 2, 3, 4] and (cards["n"] == GAMES).all()
    table = run.table("cards_left")
    seat1 = table[table["seat"] == 0]
    assert cards.loc[1, "mean"] == pytest.approx(
        (seat1["cards"] * seat1["rounds"]).sum() / GAMES)
    assert set(run.cards_left("strategy").index) == {"control", "greedy", "random"}
    places = run.places()
    assert places.groupby(level="seat")["rate"].sum().round(9).eq(1).all()
    kinds = run.play_types("seat")
    assert kinds.groupby(level="seat")["rate"].sum().round(9).eq(1).all()
    assert run.leads()["rate"].sum() == pytest.approx(1)
    assert run.round_length().loc["decisions", "n"] == GAMES


def test_summary_and_metrics(base) -> None:
    run, _ = base
    text = run.summary()
    for fragment in ("first trick's leader", "Cards left", "Decisions by kind", "straight"):
        assert fragment in text
    assert "±" not in text
    metrics = run.metrics()
    for key in ("opener_first_out_rate", "seat1_cards_left_mean", "decisions_mean"):
        assert key in metrics, key


def test_decision_kinds_allow_for_decisions_of_one_game_moving_together(base) -> None:
    run, _ = base
    kinds = run.decision_kinds()
    assert kinds["clustered"].all() and kinds["rate"].sum() == pytest.approx(1)
    counts = run.table("play_kinds").groupby("kind")["plays"].sum()
    independent = rate_table(counts, pd.Series(counts.sum(), counts.index))
    for kind, row in kinds.iterrows():
        assert row["n"] == counts.sum() and row["rate"] == pytest.approx(
            independent.loc[kind, "rate"])
        # never narrower than counting the decisions as independent
        assert row["ci_low"] <= independent.loc[kind, "ci_low"] + 1e-12
        assert row["ci_high"] >= independent.loc[kind, "ci_high"] - 1e-12
    # pairs come in runs within a game (design effect about 2 here): clearly wider
    pair, alone = kinds.loc["pair"], independent.loc["pair"]
    assert pair["effective_n"] < 0.8 * pair["n"]
    assert pair["ci_high"] - pair["ci_low"] > 1.1 * (alone["ci_high"] - alone["ci_low"])
    text = run.summary()
    assert "allow for the decisions of one game being correlated" in text
    assert f"(n={int(counts.sum()):,} in {GAMES:,} games)" in text


def test_a_folder_without_the_per_game_counts_shows_independent_intervals(
    tmp_path: Path,
) -> None:
    run = big_two_run(tmp_path / "run", "--games", 300, "--seed", 5)
    old = loaded_without(Path(run.path), "kind_games")  # as a folder written before them
    kinds = old.decision_kinds()
    assert not kinds["clustered"].any()
    counts = old.table("play_kinds").groupby("kind")["plays"].sum()
    independent = rate_table(counts, pd.Series(counts.sum(), counts.index))
    for column in ("rate", "ci_low", "ci_high", "n"):
        assert kinds[column].to_numpy(float) == pytest.approx(
            independent.loc[kinds.index, column].to_numpy(float))
    text = old.summary()
    assert "count the decisions as independent" in text and " games)" not in text
    assert zoosim("show", run.path) == 0


def test_report_findings_are_the_runs_numbers(base) -> None:
    run, report = base
    assert_report_reads_right(report)
    findings = pd.read_csv(report / "tables" / "findings.csv").set_index("key")
    first = run.first_player().iloc[0]
    assert findings.loc["opener_first_out", "value"] == pytest.approx(first.rate)
    assert findings.loc["opener_first_out", "n"] == GAMES
    most = run.cards_left()["mean"].max()
    assert findings.loc["most_cards_left", "value"] == pytest.approx(most)
    for name in ("first_out_by_position", "cards_left_by_seat", "decision_kinds"):
        assert (report / "figures" / f"{name}.png").is_file()
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "Big Two: the first player" in html and "±" not in html


def test_a_match_and_three_players_run(tmp_path: Path) -> None:
    match = big_two_run(tmp_path / "match", "--scenario", SIMULATIONS / "big-two-match.toml",
                        "--games", 300, "--seed", 2)
    rounds = match.table("rounds")
    assert (rounds["rounds"] >= 2).all() and match.rules().target == 50
    assert match.round_length().loc["rounds per game", "n"] == 300
    three = big_two_run(tmp_path / "three", "--games", 300, "--players", "random,control,greedy")
    assert three.table("cards_left")["cards"].max() <= 18
    assert zoosim("report", tmp_path / "three", "-o", tmp_path / "three-report") == 0


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--players", "random*5"], ["players", "2 to 4"]),
        (["--players", "control:release=99,random"], ["release", "0 to 13"]),
        (["--players", "greedy:depth=2,random"], ["no parameter 'depth'"]),
        (["suit_order = 'SHDX'"], ["suit_order", "C, D, H, S"]),
        (["opening = 'three-of-clubs'"], ["opening", "lowest-card"]),
        (["cards_per_player = { 3 = 18 }"], ["cards_per_player.3", "1 to 17"]),
        (["jokers = 2"], ["jokers", "allowed are"]),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    args, fragments, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run" / "out"
    if args[0].startswith("--"):
        options = args
    else:
        path = tmp_path / "scenario.toml"
        path.write_text(f'game = "big-two"\n[settings]\n{args[0]}\n', encoding="utf-8")
        options = ["--scenario", path]
    (tmp_path / "run").mkdir()
    code = zoosim("run", "--game", "big-two", "--games", 100, *options, "--out", out,
                  "--no-progress")
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists() and list((tmp_path / "run").iterdir()) == []
