"""Zoology's sections of ``zoosim report``: the right sections for competitive and
cooperative runs, findings equal to the run's DataFrames, every figure written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_helpers import assert_no_clipped_text, assert_report_reads_right

import zooanalysis
from zooanalysis import cli
from zooanalysis.games.zoology.report import LITTLE, MIN_CELL_GAMES, MIN_GUESSES, MIN_PLAYS
from zooanalysis.report.build import report_document
from zooanalysis.stats import rate_table

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"
COOPERATIVE = "Zoology: cooperative success and achievements"
SHARED = (
    "Zoology: question cards",
    "Zoology: which animals are hard to identify",
    "Zoology: guesses and points",
)
SHARED_FIGURES = {
    "zoology_question_cards",
    "zoology_animal_difficulty",
    "zoology_confusions",
    "zoology_guesses",
}


def zoosim(*args: object) -> None:
    """Run the command line and insist that it succeeds."""
    assert cli.main([str(a) for a in args]) == 0


def run_and_report(folder: Path, *args: object) -> tuple[Path, Path]:
    """A run made with ``zoosim run ARGS`` and its ``zoosim report`` folder."""
    run = folder / "run"
    zoosim("run", *args, "--jobs", 1, "--out", run, "--no-progress")
    report = folder / "report"
    zoosim("report", run, "-o", report)
    return run, report


@pytest.fixture(scope="module")
def competitive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A 3,000-game competitive run (the default lineup) and its report."""
    folder = tmp_path_factory.mktemp("zoology_competitive")
    return run_and_report(folder, "--game", "zoology", "--games", 3000, "--seed", 3)


@pytest.fixture(scope="module")
def cooperative(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The cooperative grid, 40 games in each of its 80 tables, and its report."""
    folder = tmp_path_factory.mktemp("zoology_cooperative")
    scenario = SIMULATIONS / "zoology-cooperative.toml"
    return run_and_report(folder, "--scenario", scenario, "--games", 80 * 40, "--seed", 5)


def findings(report: Path) -> pd.DataFrame:
    """``tables/findings.csv`` indexed by key."""
    return pd.read_csv(report / "tables" / "findings.csv").set_index("key")


def html(report: Path) -> str:
    """The report's HTML."""
    return (report / "report.html").read_text(encoding="utf-8")


def assert_rate(finding: pd.Series, successes: float, trials: float) -> None:
    """The finding states successes / trials with its Wilson interval and n."""
    expected = rate_table([successes], [trials]).iloc[0]
    assert finding["value"] == pytest.approx(expected.rate, rel=1e-12)
    assert finding["ci_low"] == pytest.approx(expected.ci_low, rel=1e-12)
    assert finding["ci_high"] == pytest.approx(expected.ci_high, rel=1e-12)
    assert int(finding["n"]) == int(trials)


def assert_row(finding: pd.Series, rate: float, low: float, high: float, n: float) -> None:
    """The finding states exactly this row of a DataFrame."""
    assert finding["value"] == pytest.approx(rate, rel=1e-12)
    assert finding["ci_low"] == pytest.approx(low, rel=1e-12)
    assert finding["ci_high"] == pytest.approx(high, rel=1e-12)
    assert int(finding["n"]) == int(n)


def figure_names(report: Path) -> set[str]:
    """The figures embedded in the HTML."""
    return set(re.findall(r'<figure id="fig-([^"]+)"', html(report)))


def assert_figures_written(report: Path, expected: set[str]) -> None:
    """Every expected figure is in the HTML and written as PNG and SVG, and every finding's
    figure exists."""
    embedded = figure_names(report)
    assert expected <= embedded
    for name in embedded:
        assert (report / "figures" / f"{name}.png").read_bytes().startswith(b"\x89PNG")
        assert (report / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
    referenced = findings(report)["figure"].dropna()
    assert set(referenced) <= embedded


# --- competitive ---------------------------------------------------------------------------


def test_competitive_sections_and_figures(competitive) -> None:
    _, report = competitive
    text = html(report)
    for title in SHARED:
        assert title in text
    assert COOPERATIVE not in text
    assert_figures_written(report, SHARED_FIGURES)
    assert not any(name.startswith("zoology_coop") for name in figure_names(report))
    for table in ("zoology_question_cards", "zoology_animal_difficulty", "zoology_confusions",
                  "zoology_first_guess", "zoology_points_by_source"):  # fmt: skip
        assert (report / "tables" / f"{table}.csv").is_file()


VOID_ON_PRIMARY = ("rainforest", "wetland", "desert", "mountains", "scales", "spots")


def test_question_findings_equal_the_dataframes(competitive) -> None:
    run_dir, report = competitive
    run = zooanalysis.load_run(run_dir)
    stated = findings(report)
    cards = run.question_informativeness()
    best = stated.loc["zoology_question_information"]
    assert best["value"] == pytest.approx(cards["fresh_bits"].iloc[0])
    assert cards.index[0] in best["text"] and cards.index[-1] in best["text"]
    little = cards[cards["fresh_bits"] < LITTLE * cards["fresh_bits"].max()]
    assert len(little) > 0
    do_little = stated.loc["zoology_cards_do_little"]
    assert_rate(do_little, little["no_champion"].sum(), little["plays"].sum())
    assert all(card in do_little["text"] for card in little.index)
    csv = pd.read_csv(report / "tables" / "zoology_question_cards.csv").set_index("id")
    assert set(csv.index[csv["does_little"]]) == set(little.index)
    assert csv["rank"].tolist() == list(range(1, len(cards) + 1))
    # the cards void on the primary board are not dealt, and the report says which they are
    assert len(cards) == 64
    void = pd.read_csv(report / "tables" / "zoology_void_cards.csv").set_index("id")
    assert set(void.index[void["void_on_primary"]]) == set(VOID_ON_PRIMARY)
    assert void["left_out"].sum() == 6 and not set(void.index) & set(csv.index)
    played = cards[cards["plays"] >= MIN_PLAYS]
    worst = played.loc[played["no_champion_rate"].idxmax()]
    assert_rate(stated.loc["zoology_no_champion"], worst["no_champion"], worst["plays"])


def test_animal_findings_equal_the_dataframes(competitive) -> None:
    run_dir, report = competitive
    run = zooanalysis.load_run(run_dir)
    stated = findings(report)
    animals = run.animal_difficulty()
    animals = animals[animals["guessed"] >= MIN_GUESSES]
    for key, row in (
        ("zoology_hardest_animal", animals.iloc[0]),
        ("zoology_easiest_animal", animals.iloc[-1]),
    ):
        assert_rate(stated.loc[key], row["first_right"], row["guessed"])
        assert row["name"] in stated.loc[key, "text"]
    values = stated["value"]
    assert values["zoology_hardest_animal"] <= values["zoology_easiest_animal"]
    confusions = run.confusions()
    wrong = run.table("animals")["wrong_guesses"].sum()
    assert confusions["count"].sum() == wrong
    assert_rate(stated.loc["zoology_confused_pair"], confusions["count"].iloc[0], wrong)


def test_guess_and_point_findings_equal_the_dataframes(competitive) -> None:
    run_dir, report = competitive
    run = zooanalysis.load_run(run_dir)
    stated = findings(report)
    seats = run.table("seats")
    for phase in ("free", "second_chance"):
        assert_rate(
            stated.loc[f"zoology_first_guess_{phase}"],
            seats[f"first_right_{phase}"].sum(),
            seats[f"first_guesses_{phase}"].sum(),
        )
    points = stated.loc["zoology_second_chance_points"]
    second = seats["points_second_chance"].sum()
    assert points["value"] == pytest.approx(second / (second + seats["points_free"].sum()))
    assert int(points["n"]) == run.games_played
    supply = run.second_chance_triggers().loc["supply_empty"]
    assert_row(
        stated.loc["zoology_supply_empty"],
        supply["rate"], supply["ci_low"], supply["ci_high"], supply["n"],
    )  # fmt: skip


# --- cooperative ---------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["competitive", "cooperative"])
def test_the_reports_read_right(which, request) -> None:
    run, report = request.getfixturevalue(which)
    assert_report_reads_right(report)
    assert_no_clipped_text(report_document(run))


def test_cooperative_sections_and_figures(cooperative) -> None:
    _, report = cooperative
    text = html(report)
    for title in (COOPERATIVE, *SHARED):
        assert title in text
    assert_figures_written(
        report,
        SHARED_FIGURES | {"zoology_coop_heatmap", "zoology_coop_success", "zoology_achievements"},
    )
    stated = findings(report)
    # no points and no free guesses in the cooperative game
    assert "zoology_second_chance_points" not in stated.index
    assert "zoology_first_guess_free" not in stated.index
    assert "zoology_first_guess_second_chance" in stated.index
    table = pd.read_csv(report / "tables" / "zoology_coop_success.csv")
    assert len(table) == 80 and (table["n"] == 40).all()
    # the team wins or loses together: no seat-balance findings or section
    assert not {"seat_bias", "best_strategy", "seat_balance"} & set(stated.index)
    assert "A cooperative run" in text and "Balance across seats" not in text


def test_cooperative_findings_equal_the_dataframes(cooperative) -> None:
    run_dir, report = cooperative
    run = zooanalysis.load_run(run_dir)
    stated = findings(report)
    games = run.table("cooperative")
    assert_rate(stated.loc["zoology_coop_success"], games["successes"].sum(), games["games"].sum())
    cells = run.cooperative_success()
    cells = cells[cells["n"] >= MIN_CELL_GAMES]
    hardest = cells.loc[cells["rate"].idxmin()]
    assert_row(
        stated.loc["zoology_coop_hardest_table"],
        hardest["rate"], hardest["ci_low"], hardest["ci_high"], hardest["n"],
    )  # fmt: skip
    achievements = run.achievements()
    top = achievements.iloc[0]
    finding = stated.loc["zoology_hardest_achievement"]
    assert_row(finding, top["rate"], top["ci_low"], top["ci_high"], top["n"])
    # named the hardest only when its interval separates it from every other title
    separated = (top["ci_high"] < achievements["ci_low"].iloc[1:]).all()
    named = f"the hardest achievement is {achievements.index[0]} ({top['condition']})"
    assert (named in finding["text"]) == separated
    if not separated:
        assert "no achievement is measurably the hardest" in finding["text"]
    csv = pd.read_csv(report / "tables" / "zoology_achievements.csv").set_index("title")
    assert list(csv.index) == list(achievements.index) and len(csv) == 10
    assert np.allclose(csv["rate"], achievements["rate"])
    seats = run.table("seats")
    assert_rate(
        stated.loc["zoology_first_guess_second_chance"],
        seats["first_right_second_chance"].sum(),
        seats["first_guesses_second_chance"].sum(),
    )


def test_one_cooperative_table(tmp_path: Path) -> None:
    """A run of one cooperative table: its success and the title it earns, no heatmap."""
    scenario = SIMULATIONS / "zoology-cooperative-asia.toml"
    run_dir, report = run_and_report(tmp_path, "--scenario", scenario, "--games", 600)
    run = zooanalysis.load_run(run_dir)
    assert COOPERATIVE in html(report)
    assert_figures_written(report, SHARED_FIGURES | {"zoology_coop_success"})
    assert "zoology_coop_heatmap" not in figure_names(report)
    stated = findings(report)
    games = run.table("cooperative")
    success = stated.loc["zoology_coop_success"]
    assert_rate(success, games["successes"].sum(), games["games"].sum())
    assert "4 players on Primary + Asia (it earns Monsoon Voyager)" in success["text"]
    assert "zoology_hardest_achievement" not in stated.index
