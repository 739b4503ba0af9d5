"""Lucky Lions through the shared runner, storage and CLI: tables, analyses, reproducibility."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_helpers import assert_report_reads_right, html_tables
from run_helpers import assert_same_tables, tables_of, zoosim

import zooanalysis
from zooanalysis.games.lucky_lions import dominance
from zooanalysis.games.lucky_lions.analysis import LuckyLionsRun
from zooanalysis.games.lucky_lions.cards import ANIMALS
from zooanalysis.games.lucky_lions.decks import generate_zoo_cards
from zooanalysis.games.lucky_lions.rules import LuckySettings

GAMES = 3000
EVERYTHING = Path(__file__).parent.parent / "simulations" / "lucky-lions-everything.toml"


def lucky_run(out: Path, *args: object) -> Path:
    code = zoosim("run", "--game", "lucky-lions", "--out", out, "--no-progress", *args)
    assert code == 0
    return out


@pytest.fixture(scope="module")
def base_run(tmp_path_factory: pytest.TempPathFactory) -> LuckyLionsRun:
    out = tmp_path_factory.mktemp("lucky") / "base"
    lucky_run(out, "--games", GAMES, "--seed", 4, "--batch-size", 700, "--jobs", 1)
    return zooanalysis.load_run(out)


@pytest.fixture(scope="module")
def everything_run(tmp_path_factory: pytest.TempPathFactory) -> LuckyLionsRun:
    out = tmp_path_factory.mktemp("lucky") / "everything"
    lucky_run(out, "--scenario", EVERYTHING, "--games", 1500, "--seed", 2)
    return zooanalysis.load_run(out)


def test_counts_add_up(base_run: LuckyLionsRun) -> None:
    seats = base_run.table("seats")
    assert (seats["games"] == GAMES).all()
    assert seats["wins"].sum() >= GAMES >= seats["sole_wins"].sum()
    turns = base_run.table("turns")
    total_turns = int((turns["turns"] * turns["games"]).sum())
    battles = base_run.table("battles")
    assert battles["battles"].sum() == total_turns, "one battle per turn"
    rolls = base_run.table("rolls")[["won", "tied", "lost", "void"]].to_numpy().sum()
    assert rolls == 2 * total_turns, "base game: two battlers roll once each"
    assert base_run.table("rolls")["void"].sum() == 0
    # every game ended with someone at 10+ points: the points table shows it
    points = base_run.table("points")
    best = points.groupby("seat")["points"].max().max()
    assert best >= 10
    assert base_run.table("end_reasons").set_index("reason").loc["points", "games"] == GAMES
    assert base_run.table("lead_changes")["games"].sum() == GAMES
    assert base_run.table("settled")["games"].sum() == seats["sole_wins"].sum()
    assert base_run.table("powers")["uses"].sum() == 0, "no Wild Animals in the base game"


def test_cycle_dominance_is_the_exact_table_of_a_generated_print(base_run) -> None:
    table = base_run.cycle_dominance(deck=3)
    cards = generate_zoo_cards(LuckySettings().generator, 1 + 3)
    exact = dominance.deck_dominance(cards)
    assert len(table) == 5 * len(cards)
    assert np.allclose(table["strength"], exact["strength"])
    mix = np.array([9, 6, 6, 6, 6], dtype=float)
    assert np.allclose(table["strength_dice"], dominance.deck_dominance(cards, mix)["strength"])
    assert table["card_text"].iloc[0] == cards[0].describe()
    assert ((table["card_tie_probability"] >= 0) & (table["card_tie_probability"] <= 1)).all()


def test_animal_strength_spread_over_prints(base_run) -> None:
    strength = base_run.animal_strength(decks=30)
    assert list(strength.index) == list(ANIMALS)
    assert (strength["decks"] == 30).all()
    assert (strength["std_dice"] > 0).all()
    assert strength.loc["lion", "cards_in_pool"] == 9
    assert np.isclose(strength["die_share"].sum(), 1.0)
    # against a uniform animal every animal on a cycle is equally good: best pick = on card
    assert (
        (strength["best_pick_share_uniform"] > 0.7) & (strength["best_pick_share_uniform"] < 0.85)
    ).all()


def test_whole_game_figures_have_intervals(base_run) -> None:
    ties = base_run.tie_rates()
    battles = base_run.table("battles")
    all_row = ties.loc["all"]
    assert all_row["n"] == battles["battles"].sum()
    assert np.isclose(all_row["rate"], battles["tied_battles"].sum() / battles["battles"].sum())
    assert all_row["ci_low"] < all_row["rate"] < all_row["ci_high"]
    assert np.isclose(base_run.dice_sizes()["rate"].sum(), 1.0)
    mean, low, high = base_run.mean_die_size()
    assert 1 <= low <= mean <= high <= 6
    cards = base_run.cards_won()
    assert list(cards.index) == [1, 2, 3, 4] and (cards["ci_low"] <= cards["mean"]).all()
    length = base_run.game_length().loc["turns"]
    assert length["ci_low"] < length["mean"] < length["ci_high"] and length["n"] == GAMES
    results = base_run.animal_results()
    assert set(results.index.astype(str)) == set(ANIMALS)
    metrics = base_run.metrics()
    for key in ("seat1_win_rate", "tie_rate", "tie_ci_low", "turns_mean", "die_size_mean"):
        assert key in metrics
    summary = base_run.summary()
    for text in ("Animal strength (exact", "Ties by cycle size", "Game length", "Zoo Cards won"):
        assert text in summary
    first_card = base_run.cycle_dominance().iloc[0]
    assert f" 1 {first_card['card_text']}" in summary, "every Zoo Card of print 1 is listed"
    assert "Shown cards in games" in summary


def test_expansions_show_up_in_the_tables(everything_run) -> None:
    powers = everything_run.powers()
    assert (powers["uses"] > 0).all(), "every Wild Animals power was used"
    ties = everything_run.table("ties").set_index("settled_by")["battles"]
    assert ties["three_or_more"] > 0, "people icons brought three-way ties"
    rolls = everything_run.table("rolls")
    assert rolls["void"].sum() > 0 and rolls["wild"].any()
    assert "Wild Animals powers used per game" in everything_run.summary()


def test_same_seed_same_tables_for_any_workers(base_run, tmp_path: Path) -> None:
    again = lucky_run(
        tmp_path / "again", "--games", GAMES, "--seed", 4, "--batch-size", 700,
        "--jobs", 2, "--backend", "processes",
    )  # fmt: skip
    assert_same_tables(tables_of(base_run.path), tables_of(again))


def test_rows_agree_with_the_counts(tmp_path: Path) -> None:
    run = zooanalysis.load_run(lucky_run(tmp_path / "rows", "--games", 800, "--rows"))
    rows = run.game_rows()
    assert len(rows) == 800
    points = rows[[f"points_{seat}" for seat in range(4)]].to_numpy()
    won = points == points.max(axis=1, keepdims=True)
    seats = run.table("seats")
    assert (won.sum(axis=0) == seats["wins"].to_numpy()).all()
    assert (points.sum(axis=0) == seats["points_sum"].to_numpy()).all()
    cards = rows[[f"cards_won_{seat}" for seat in range(4)]].to_numpy()
    assert (cards.sum(axis=0) == seats["cards_won_sum"].to_numpy()).all()
    turns = run.table("turns").set_index("turns")["games"]
    assert (
        rows["turns"].value_counts().sort_index().equals(turns.rename("count").rename_axis("turns"))
    )


def test_deck_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert zoosim("deck", "--seed", 5) == 0
    text = capsys.readouterr().out
    cards = generate_zoo_cards(LuckySettings().generator, 5)
    assert cards[0].describe().split(" (")[0] in text
    assert "26 Zoo Cards" in text and "Animal strength on this deck" in text
    assert zoosim("deck", "--seed", 5, "--toml") == 0
    deck_file = tmp_path / "deck.toml"
    deck_file.write_text(capsys.readouterr().out, encoding="utf-8")
    from zooanalysis.games.lucky_lions.decks import deck_from_toml

    assert deck_from_toml(deck_file)[0] == cards
    assert zoosim("deck", "--game", "bluff") == 2
    assert "bluff has no deck generator" in capsys.readouterr().err


def test_report_states_the_runs_own_numbers(base_run, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert zoosim("report", base_run.path, "-o", out) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert_report_reads_right(out)
    cards = html_tables(out)["lucky_cycle_dominance"]["card"]
    assert cards.iloc[0] == "1"  # Zoo Cards numbered from 1, as in the figure's titles
    for title in ("cycle dominance (exact)", "Lucky Lions: ties", "Lucky Lions: whole games"):
        assert title in html
    findings = pd.read_csv(out / "tables" / "findings.csv").set_index("key")
    ties = base_run.tie_rates().loc["all"]
    assert np.isclose(findings.loc["tie_rate", "value"], ties["rate"])
    assert findings.loc["tie_rate", "n"] == ties["n"]
    results = base_run.animal_results()
    best = results["won_rate"].idxmax()
    assert np.isclose(findings.loc["best_animal_in_games", "value"], results.loc[best, "won_rate"])
    strength = base_run.animal_strength()
    assert np.isclose(findings.loc["strongest_animal", "value"], strength["strength_dice"].max())
    assert np.isclose(
        findings.loc["lion_balance", "value"], strength.loc["lion", "best_pick_share_dice"]
    )
    for name in ("lucky_dominance_matrices", "lucky_animal_strength", "lucky_tie_rate"):
        assert (out / "figures" / f"{name}.png").is_file()
        assert (out / "figures" / f"{name}.svg").is_file()


def test_variants_sweep_file_runs_and_reports(tmp_path: Path) -> None:
    """The shipped variants sweep, with few games per cell: 8 cells and their figures."""
    sweep = tmp_path / "sweep.toml"
    text = (EVERYTHING.parent / "sweep-lucky-lions-variants.toml").read_text(encoding="utf-8")
    sweep.write_text(text.replace('games = "2e4"', 'games = "300"'), encoding="utf-8")
    assert zoosim("sweep", sweep, "--out", tmp_path / "cells") == 0
    cells = pd.read_parquet(tmp_path / "cells" / "cells.parquet")
    assert len(cells) == 8 and {"tie_rate", "turns_mean", "die_size_mean"} <= set(cells.columns)
    assert zoosim("report", tmp_path / "cells", "-o", tmp_path / "report") == 0
    for name in ("sweep_win_rate", "sweep_metrics"):
        assert (tmp_path / "report" / "figures" / f"{name}.png").is_file()
