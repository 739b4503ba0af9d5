"""Tests of the ``zoosim`` command: runs, summaries, user errors, listings, odds and scenarios.

Most tests call ``zooanalysis.cli.main`` in-process (fast); two run the installed console
script to check the real exit codes and that errors never show a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import game_names, get_game
from zooanalysis.games.bluff import odds
from zooanalysis.games.bluff.rules import DeckSettings
from zooanalysis.games.bluff.strategies import STRATEGIES
from zooanalysis.strategy_spec import format_number, parse_lineup

ZOOSIM = Path(sys.executable).with_name("zoosim")

MANIFEST_KEYS = {
    "zoosim_version",
    "git_commit",
    "game",
    "settings",
    "lineup",
    "seed",
    "games",
    "wall_seconds",
    "games_per_second",
    "batch_size",
    "tables",
}
ALLOWED_GAMES = "allowed are " + ", ".join(game_names())
"""How an unknown game name is answered: every registered game, by name."""
RATE_RE = r"\d+\.\d+% \[\d+\.\d+%, \d+\.\d+%\] \(n=[\d,]+\)"
DEFAULT_SEATS = [p.label for p in parse_lineup(get_game("bluff").default_lineup, STRATEGIES)]
"""Bluff's default lineup, seat by seat (what a run without --players plays)."""


def run_cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """Run ``zoosim ARGS`` in-process; its exit code, stdout and stderr."""
    code = cli.main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def incomplete_siblings(path: Path) -> list[Path]:
    """Hidden ``.NAME.incomplete-*`` folders next to ``path``."""
    return list(path.parent.glob(f".{path.name}.incomplete-*"))


def assert_one_error_line(err: str, *fragments: str) -> None:
    """stderr is exactly one ``zoosim: error:`` line containing every fragment."""
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {err!r}"
    assert lines[0].startswith("zoosim: error: ")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"


# --- a successful run ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``zoosim run --games 3000 --seed 5`` once per module: its directory and stdout."""
    out = tmp_path_factory.mktemp("cli") / "run"
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = cli.main(
            ["run", "--games", "3000", "--seed", "5", "--out", str(out), "--no-progress"]
        )
    assert code == 0, stderr.getvalue()
    return out, stdout.getvalue()


def test_run_exits_zero_and_prints_the_summary(cli_run: tuple[Path, str]) -> None:
    out, text = cli_run
    assert text.startswith(f"Bluff in Zoo: 3,000 games, 4 players ({', '.join(DEFAULT_SEATS)})")
    assert "seed 5" in text.splitlines()[0]
    for heading in (
        "Win share by seat",
        "Win share by strategy (per seat played), and games won or shared:",
        "Mean penalty points (95% CI):",
        "Game length:",
        "How games ended:",
        "Doubt success (the doubted claim was false), by doubter:",
        "Bluff rate (claims false when made), by claimant:",
    ):
        assert heading in text
    # Win share per seat and per strategy, each with its CI and n.
    for seat, strategy in enumerate(DEFAULT_SEATS, start=1):
        assert re.search(rf"seat {seat} {re.escape(strategy)}\s+{RATE_RE}", text), (seat, strategy)
    by_strategy = text.split("Win share by strategy (per seat played)")[1].split("\n\n")[0]
    for strategy in dict.fromkeys(DEFAULT_SEATS):  # n counts every seat the strategy played
        assert re.search(rf"\n  {re.escape(strategy)}\s+{RATE_RE}", by_strategy)
        n = 3000 * DEFAULT_SEATS.count(strategy)
        assert f"(n={n:,})" in by_strategy.split(f"\n  {strategy}")[1].splitlines()[0]
    # Mean penalty points per seat with an interval.
    assert len(re.findall(r"seat \d \S+\s+\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]", text)) == 4
    # Game length in rounds and moves.
    assert re.search(r"rounds\s+mean \d+\.\d\d \[", text)
    assert re.search(r"moves\s+mean \d+\.\d\d \[", text)
    # How the games ended, doubt success and bluff rate, all with CI and n.
    assert re.search(rf"a player reached 30 points\s+{RATE_RE}", text)
    assert re.search(rf"the deck ran out\s+{RATE_RE}", text)
    # doubts and claims come several to a game: n units in G games (stats.clustered_rate)
    clustered = r"\d+\.\d+% \[\d+\.\d+%, \d+\.\d+%\] \(n=[\d,]+ {} in 3,000 games\)"
    assert re.search(rf"all doubts\s+{clustered.format('doubts')}", text)
    bluffs = text.split("Bluff rate (claims false when made), by claimant:")[1]
    assert re.search(rf"\n  \S+\s+{clustered.format('claims')}", bluffs)
    assert text.rstrip().splitlines()[-1].startswith(f"Written to {out}/")


def test_run_writes_manifest_and_tables(cli_run: tuple[Path, str]) -> None:
    out, _ = cli_run
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest) >= MANIFEST_KEYS
    assert manifest["zoosim_version"] == zooanalysis.__version__
    assert manifest["game"] == "bluff"
    assert manifest["seed"] == 5
    assert manifest["games"] == 3000
    assert manifest["lineup"] == DEFAULT_SEATS
    assert manifest["settings"]["players"] == 4
    assert manifest["wall_seconds"] >= 0
    assert manifest["games_per_second"] > 0
    assert isinstance(manifest["git_commit"], str) and manifest["git_commit"]
    assert manifest["tables"], "a run has tables"
    for name in manifest["tables"]:
        table = pd.read_parquet(out / f"{name}.parquet")
        assert len(table) > 0, name
    assert {"seats", "doubts", "claims", "end_reasons", "rounds", "moves", "points"} <= set(
        manifest["tables"]
    )
    assert not incomplete_siblings(out)


@pytest.mark.parametrize("count", ["1e3", "1_000", "1k"])
def test_games_count_spellings_give_identical_runs(
    count: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = tmp_path / "reference"
    code, _, err = run_cli(
        capsys, "run", "--games", "1000", "--seed", "9", "--out", reference, "--no-progress"
    )
    assert code == 0, err
    out = tmp_path / "spelled"
    code, _, err = run_cli(
        capsys, "run", "--games", count, "--seed", "9", "--out", out, "--no-progress"
    )
    assert code == 0, err
    assert zooanalysis.load_run(out).games == 1000
    assert_same_tables(tables_of(reference), tables_of(out))


# --- user errors -----------------------------------------------------------------------------

SCENARIOS = {
    "unknown_setting": "[settings]\nfoo = 1\n",
    "impossible_setting": "[settings]\nhand_size = 30\n",
    "invalid_toml": "[settings\nfoo = \n",
    "unknown_top_level": 'colour = "red"\n',
}

BAD_RUNS = [
    pytest.param(["--game", "chess"], ["--game", "'chess'", ALLOWED_GAMES], id="game"),
    pytest.param(
        ["--game", "hearts", "--players", "search,random,random,random"],
        ["--players", "hearts has no forward model", "the games that have one are bluff"],
        id="search_without_forward_model",
    ),
    pytest.param(
        ["--players", "search,stakes,bayes,bayes"],
        ["--players", "forward model, which cannot play stakes", "aggressive, bayes, cautious"],
        id="search_beside_an_unmodelled_strategy",
    ),
    pytest.param(
        ["--players", "bayz,random"],
        ["--players", "'bayz'", "allowed are aggressive, bayes, cautious, random, search, stakes"],
        id="strategy",
    ),
    pytest.param(["--games", "abc"], ["--games", "'abc'", "positive whole number"], id="games-abc"),
    pytest.param(["--games", "0"], ["--games", "'0'", "positive whole number"], id="games-0"),
    pytest.param(["--games", "-5"], ["--games", "'-5'", "positive whole number"], id="games-neg"),
    pytest.param(
        ["--games", "1.5"], ["--games", "'1.5'", "positive whole number"], id="games-frac"
    ),
    pytest.param(
        ["--players", "bayes:doubt=2,random"],
        ["--players", "doubt=2", "out of range", "from 0 to 1"],
        id="param-range",
    ),
    pytest.param(
        ["--players", "bayes:doubtt=0.3,random"],
        ["--players", "'doubtt'", "bayes takes doubt, bluff"],
        id="param-name",
    ),
    pytest.param(
        ["--players", "bayes:doubt=x,random"],
        ["--players", "doubt=x", "not a number", "from 0 to 1"],
        id="param-value",
    ),
    pytest.param(
        ["--players", "random,random,random,random,random,random,random"],
        ["--players", "7 players", "2 to 6"],
        id="seven-players",
    ),
    pytest.param(["--players", "bayes"], ["--players", "1 player", "2 to 6"], id="one-player"),
    pytest.param(["--jobs", "0"], ["--jobs", "0", ">= 1"], id="jobs-0"),
    pytest.param(
        ["--backend", "gpu"], ["--backend", "'gpu'", "allowed are threads, processes"], id="gpu"
    ),
    pytest.param(
        ["--scenario", "{unknown_setting}"],
        ["unknown_setting.toml", "'foo'", "unknown setting", "allowed are", "hand_size"],
        id="scenario-unknown-setting",
    ),
    pytest.param(
        ["--scenario", "{impossible_setting}"],
        ["impossible_setting.toml", "'hand_size'", "hands of 30 for 4 players need 120", "107"],
        id="scenario-impossible",
    ),
    pytest.param(
        ["--scenario", "{invalid_toml}"],
        ["invalid_toml.toml", "not valid TOML"],
        id="scenario-invalid-toml",
    ),
    pytest.param(
        ["--scenario", "{unknown_top_level}"],
        ["unknown_top_level.toml", "'colour'", "allowed are game, description, settings, run"],
        id="scenario-unknown-key",
    ),
    pytest.param(["--gams", "5"], ["--gams", "--games"], id="unknown-option"),
]


@pytest.mark.parametrize(("args", "fragments"), BAD_RUNS)
def test_bad_run_input_is_one_line_exit_2_and_writes_nothing(
    args: list[str], fragments: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {name: tmp_path / f"{name}.toml" for name in SCENARIOS}
    for name, text in SCENARIOS.items():
        files[name].write_text(text, encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "out"
    argv = [arg.format(**files) for arg in args]
    # A small --games first (the last one given wins), so a missed error stays quick.
    code, stdout, err = run_cli(
        capsys, "run", "--games", "1000", *argv, "--out", out, "--no-progress"
    )
    assert code == 2
    assert stdout == ""
    assert_one_error_line(err, *fragments)
    assert not out.exists()
    assert not incomplete_siblings(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_existing_out_directory_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "taken"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    code, stdout, err = run_cli(capsys, "run", "--games", "1000", "--out", out, "--no-progress")
    assert code == 2
    assert stdout == ""
    assert_one_error_line(err, "--out", str(out), "already exists")
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"
    assert not incomplete_siblings(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


# --- strategies, games, odds, show --------------------------------------------------------------


def test_strategies_lists_every_strategy_with_parameters_and_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, text, err = run_cli(capsys, "strategies", "--game", "bluff")
    assert code == 0, err
    names = [line.strip() for line in text.splitlines() if re.fullmatch(r"  \w+", line)]
    assert names == ["random", "bayes", "cautious", "aggressive", "stakes", "search"]
    expected = {
        "bayes": {"doubt": "0.35", "bluff": "0.2"},
        "cautious": {"trust": "0.8", "margin": "0.5"},
        "aggressive": {"raise": "2", "doubt_ratio": "1.2", "draw": "0.5"},
    }
    for strategy, params in expected.items():
        assert {p.name: format_number(p.default) for p in STRATEGIES[strategy].params} == params
        for name, default in params.items():
            assert re.search(rf"^    {name}={re.escape(default)}  \(", text, re.M), (strategy, name)
    # The parameters are listed under their own strategy.
    blocks = re.split(r"\n  (?=\w+\n)", text)
    by_name = {block.splitlines()[0].strip(): block for block in blocks[1:]}
    assert "(no parameters)" in by_name["random"]
    assert "doubt=0.35" in by_name["bayes"] and "trust=" not in by_name["bayes"]
    assert "raise=2" in by_name["aggressive"]
    assert "iterations=200" in by_name["search"] and "rollout=0" in by_name["search"]


def test_strategies_of_unknown_game_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, err = run_cli(capsys, "strategies", "--game", "chess")
    assert code == 2
    assert stdout == ""
    assert_one_error_line(err, "'chess'", ALLOWED_GAMES)


def test_games_lists_bluff(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = run_cli(capsys, "games")
    assert code == 0, err
    assert re.search(r"^bluff\s+Bluff in Zoo", text, re.M)


def test_games_lists_every_game_with_its_title_in_one_column(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, text, err = run_cli(capsys, "games")
    assert code == 0, err
    lines = text.splitlines()
    assert [line.split()[0] for line in lines] == game_names()
    columns = {line.index(get_game(line.split()[0]).title) for line in lines}
    assert len(columns) == 1  # the longest names (short-zoot-suit, through-the-zoo) too
    column = columns.pop()
    assert all(line[column - 2 : column] == "  " for line in lines)  # never run together


def _parse_odds(text: str) -> pd.DataFrame:
    """The printed odds table (percentages; "<0.1%" read as 0.0004) as probabilities.

    The table comes in blocks of columns, each headed ``pile \\ N  1  2 ...``."""
    blocks = []
    columns: list[int] = []
    for line in text.splitlines():
        if line.startswith("pile \\ N"):
            columns = [int(c) for c in line.removeprefix("pile \\ N").split()]
            blocks.append({})
        elif columns and line.strip() and not line.startswith(("(", " (")):
            cells = line.split()
            values = [0.0004 if c == "<0.1%" else float(c.rstrip("%")) / 100 for c in cells[1:]]
            blocks[-1][int(cells[0])] = dict(zip(columns, values, strict=True))
        elif not line.strip():
            columns = []
    frames = [pd.DataFrame.from_dict(block, orient="index") for block in blocks]
    return pd.concat(frames, axis=1)


@pytest.mark.parametrize("piles", ["1..3", "1..12", "3,6"])
def test_odds_prints_the_exact_table_to_a_tenth_of_a_percent(
    piles: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, err = run_cli(capsys, "odds", "--game", "bluff", "--pile", piles)
    assert code == 0, err
    assert "..." not in text
    assert max(len(line) for line in text.splitlines()) <= 80  # fits a terminal
    printed = _parse_odds(text)
    sizes = {"1..3": [1, 2, 3], "1..12": list(range(1, 13)), "3,6": [3, 6]}[piles]
    exact = odds.at_least_table(DeckSettings(), sizes)
    assert list(printed.index) == sizes
    # every column from 1 up to the last one any pile reaches with >= 0.05% is printed
    reachable = [c for c in exact.columns if (exact[c] >= 0.0005).any()]
    assert list(printed.columns) == list(range(1, reachable[-1] + 1))
    for pile in printed.index:
        for count in printed.columns:
            value = exact.loc[pile, count]
            if 0 < value < 0.0005:
                assert printed.loc[pile, count] == 0.0004
            else:
                assert printed.loc[pile, count] == pytest.approx(
                    round(value * 1000) / 1000, abs=1e-9
                ), (pile, count)
    hidden = [c for c in exact.columns if c > reachable[-1]]
    assert (exact[hidden] < 0.0005).all().all()
    if hidden:
        assert f"claims of more than {reachable[-1]}" in text


@pytest.mark.parametrize(
    ("piles", "fragments"),
    [
        ("0..2", ["--pile", "'0..2'", "at least 1"]),
        ("x", ["--pile", "'x'", "a range such as 1..12"]),
        ("200", ["--pile", "200", "107 cards"]),
    ],
)
def test_odds_bad_pile_is_a_user_error(
    piles: str, fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = (
        ["odds", "--pile", piles]
        if piles == "200"
        else ["odds", "--game", "bluff", "--pile", piles]
    )
    code, stdout, err = run_cli(capsys, *args)
    assert code == 2
    assert stdout == ""
    assert_one_error_line(err, *fragments)


def test_show_prints_the_same_summary_as_the_run(
    cli_run: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, run_text = cli_run
    code, shown, err = run_cli(capsys, "show", out)
    assert code == 0, err
    summary, written = run_text.rstrip("\n").rsplit("\n\n", 1)
    assert written.startswith("Written to ")
    assert shown.rstrip("\n") == summary
    assert shown.rstrip("\n") == zooanalysis.load_run(out).summary()


def test_show_of_a_folder_that_is_no_run_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, stdout, err = run_cli(capsys, "show", tmp_path)
    assert code == 2
    assert stdout == ""
    assert_one_error_line(err, str(tmp_path), "manifest.json")


# --- scenario files --------------------------------------------------------------------------


def test_scenario_run_values_are_used_and_options_override_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "short.toml"
    scenario.write_text(
        'game = "bluff"\n'
        'description = "short games"\n'
        "[settings]\n"
        "points_to_end = 20\n"
        "[run]\n"
        'players = "bayes,random,random"\n'
        'games = "1.5k"\n'
        "seed = 7\n"
        "batch_size = 400\n",
        encoding="utf-8",
    )
    from_file = tmp_path / "from-file"
    code, text, err = run_cli(
        capsys, "run", "--scenario", scenario, "--out", from_file, "--no-progress"
    )
    assert code == 0, err
    manifest = json.loads((from_file / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["lineup"] == ["bayes", "random", "random"]
    assert manifest["games"] == 1500
    assert manifest["seed"] == 7
    assert manifest["batch_size"] == 400
    assert manifest["settings"]["points_to_end"] == 20
    assert manifest["settings"]["players"] == 3
    assert manifest["scenario"] == str(scenario)
    assert "a player reached 20 points" in text

    overridden = tmp_path / "overridden"
    code, _, err = run_cli(
        capsys,
        "run",
        "--scenario",
        scenario,
        "--players",
        "cautious,random",
        "--games",
        "1000",
        "--seed",
        "3",
        "--batch-size",
        "300",
        "--out",
        overridden,
        "--no-progress",
    )
    assert code == 0, err
    manifest = json.loads((overridden / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["lineup"] == ["cautious", "random"]
    assert manifest["games"] == 1000
    assert manifest["seed"] == 3
    assert manifest["batch_size"] == 300
    assert manifest["settings"]["points_to_end"] == 20  # settings still from the file
    assert manifest["settings"]["players"] == 2


# --- the installed console script --------------------------------------------------------------


def _zoosim(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ZOOSIM), *(str(arg) for arg in args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_console_script_user_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    assert ZOOSIM.is_file()
    for args, fragment in [
        (["run", "--games", "0"], "--games"),
        (["run", "--gams", "5"], "--gams"),
        (["run", "--players", "bayz,random"], "bayz"),
    ]:
        out = tmp_path / "out"
        result = _zoosim(*args, "--out", out, "--no-progress")
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == ""
        assert "Traceback" not in result.stderr
        assert_one_error_line(result.stderr, fragment)
        assert not out.exists()
        assert not incomplete_siblings(out)


def test_console_script_runs_and_shows(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _zoosim("run", "--games", "2000", "--seed", "4", "--out", out, "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert (out / "manifest.json").is_file()
    shown = _zoosim("show", out)
    assert shown.returncode == 0, shown.stderr
    assert result.stdout.startswith(shown.stdout.rstrip("\n"))
