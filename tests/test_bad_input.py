"""Bad input, command by command: one clear line, exit code 2, and nothing written.

Every case runs ``zoosim`` in an empty temporary folder holding only the files the case
needs, and asserts: exit code 2; nothing on stdout; exactly one line on stderr, starting
``zoosim: error:`` and naming the input (each case lists words the line must hold); no
traceback; and not a file added, removed or changed in the folder. The cases cover sizes
that cannot give an answer, usage mistakes, and the kinds of input that already got one
clear line (malformed counts, unknown names and parameters, TOML errors at every level,
impossible settings, missing or garbage files), so that they keep doing so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from zooanalysis import cli

SWEEP = (
    'game = "bluff"\n[run]\nplayers = "bayes,bayes,cautious,random"\ngames = "100"\n'
    '[grid]\n"seat1.doubt" = [0.1, 0.5]\n'
)
"""A valid sweep (seat 1 plays bayes, whose doubt the grid varies) that a case spoils."""
GARBAGE = bytes(range(256)) * 2
"""Bytes that are no text file at all."""

CASES = [
    # --- sizes that cannot give an answer --------------------------------------------------
    pytest.param(
        ["sweep", "sweep.toml", "--jobs", "0", "--out", "cells"],
        {"sweep.toml": SWEEP},
        ["--jobs", "0", ">= 1"],
        id="sweep-jobs-0",
    ),
    pytest.param(["run", "--jobs", "0"], {}, ["--jobs", "0", ">= 1"], id="run-jobs-0"),
    pytest.param(
        ["run", "--players", "cautious:trust=0.75,margin=6.25*0"],
        {},
        ["--players", "bad repeat count", "name:key=value,...*N", "from 1 to 1000"],
        id="run-players-repeat-0",
    ),
    pytest.param(
        ["run", "--players", "bayes:doubt=0.3*2,bluff=0.2,random*2"],
        {},
        ["--players", "misplaced repeat in 'bayes:doubt=0.3*2,bluff=0.2'", "at the end"],
        id="run-players-repeat-misplaced",
    ),
    pytest.param(
        ["tournament", "--strategies", "bayes,random", "--jobs", "0"],
        {},
        ["--jobs", "0", ">= 1"],
        id="tournament-jobs-0",
    ),
    pytest.param(["tune", "--jobs", "0"], {}, ["--jobs", "0", ">= 1"], id="tune-jobs-0"),
    pytest.param(
        ["tune", "--games", "10", "--out", "tuned"],
        {},
        ["--games", "10 is too few", "26 candidates", "give --games 138_667 or more"],
        id="tune-games-10",
    ),
    pytest.param(
        ["tournament", "--strategies", "bayes,cautious,aggressive,random", "--games", "3"],
        {},
        ["--games", "3 is too few", "24 lineups", "2,000 games each", "48_000 or more"],
        id="tournament-games-3",
    ),
    pytest.param(
        ["tournament", "--strategies", "bayes,random", "--games", "3998", "--out", "t"],
        {},
        ["--games", "3,998 is too few", "give --games 4_000 or more"],
        id="tournament-just-too-few",
    ),
    # --- usage mistakes: the command's own help ---------------------------------------------
    pytest.param(["run", "--gams", "5"], {}, ["--gams", "zoosim run --help"], id="unknown-option"),
    pytest.param(["run", "--games"], {}, ["'--games'", "zoosim run --help"], id="missing-value"),
    pytest.param(["run", "--seed", "x"], {}, ["'--seed'", "zoosim run --help"], id="seed-type"),
    pytest.param(
        ["tournament", "--seats", "many"],
        {},
        ["'--seats'", "zoosim tournament --help"],
        id="seats-type",
    ),
    pytest.param(["show"], {}, ["run_dir", "zoosim show --help"], id="missing-argument"),
    pytest.param(["frob"], {}, ["'frob'", "zoosim --help"], id="unknown-command"),
    # --- malformed counts -------------------------------------------------------------------
    pytest.param(["run", "--games", "abc"], {}, ["--games", "'abc'"], id="games-abc"),
    pytest.param(["run", "--games", "1.5"], {}, ["--games", "'1.5'"], id="games-fraction"),
    pytest.param(["run", "--games", "-5"], {}, ["--games", "'-5'"], id="games-negative"),
    pytest.param(["run", "--games", "1e400"], {}, ["--games", "'1e400'", "1e18"], id="games-huge"),
    pytest.param(
        ["run", "--until-ci", "0.01", "--max-games", "lots"],
        {},
        ["--max-games", "'lots'"],
        id="max-games",
    ),
    pytest.param(
        ["run", "--until-ci", "2"], {}, ["--until-ci", "2.0", "between 0 and 0.5"], id="until-ci"
    ),
    pytest.param(["run", "--batch-size", "0"], {}, ["--batch-size", "0"], id="batch-size"),
    pytest.param(["run", "--seed", "-1"], {}, ["--seed", "-1"], id="seed-negative"),
    pytest.param(["odds", "--pile", "x"], {}, ["--pile", "'x'"], id="pile"),
    pytest.param(
        ["tournament", "--strategies", "bayes,random", "--games", "x"],
        {},
        ["--games", "'x'"],
        id="tournament-games",
    ),
    pytest.param(["tune", "--games", "x"], {}, ["--games", "'x'"], id="tune-games"),
    # --- unknown names and parameters ---------------------------------------------------------
    pytest.param(["run", "--game", "chess"], {}, ["--game", "'chess'", "allowed are"], id="game"),
    pytest.param(["run", "--players", "bayz,random"], {}, ["--players", "'bayz'"], id="strategy"),
    pytest.param(
        ["run", "--players", "bayes:doubtt=0.3,random"],
        {},
        ["'doubtt'", "doubt, bluff"],
        id="parameter-name",
    ),
    pytest.param(
        ["run", "--players", "bayes:doubt=2,random"],
        {},
        ["doubt=2", "from 0 to 1"],
        id="parameter-range",
    ),
    pytest.param(
        ["run", "--players", "bayes:doubt=x,random"],
        {},
        ["doubt=x", "not a number"],
        id="parameter-value",
    ),
    pytest.param(["run", "--backend", "gpu"], {}, ["--backend", "'gpu'"], id="backend"),
    pytest.param(["run", "--backend", "dask"], {}, ["--scheduler"], id="dask-no-scheduler"),
    pytest.param(["strategies", "--game", "chess"], {}, ["'chess'"], id="strategies-game"),
    pytest.param(
        ["odds", "--game", "zoology"],
        {},
        ["--game", "zoology has no odds table", "zoosim odds is for bluff"],
        id="odds",
    ),
    pytest.param(
        ["deck", "--game", "bluff"],
        {},
        ["--game", "bluff has no deck", "zoosim deck is for lucky-lions"],
        id="deck",
    ),
    pytest.param(
        ["odds", "--scenario", "hearts.toml"],
        {"hearts.toml": 'game = "hearts"\n'},
        [
            "--scenario",
            "hearts.toml is a hearts scenario",
            "hearts has no odds table",
            "zoosim odds is for bluff",
        ],
        id="odds-scenario-of-another-game",
    ),
    pytest.param(
        ["deck", "--scenario", "bluff.toml"],
        {"bluff.toml": 'game = "bluff"\n[settings]\nhand_size = 4\n'},
        [
            "--scenario",
            "bluff.toml is a bluff scenario",
            "bluff has no deck",
            "zoosim deck is for lucky-lions",
        ],
        id="deck-scenario-of-another-game",
    ),
    pytest.param(
        ["odds", "--scenario", "zoo.toml"],
        {"zoo.toml": 'game = "zoology"\n'},
        ["--scenario", "zoo.toml is a zoology scenario", "zoosim odds is for bluff"],
        id="odds-scenario-without-odds-names-the-scenario-not-game",
    ),
    pytest.param(
        ["run", "--scenario", "zoo.toml", "--games", "10"],
        {"zoo.toml": 'game = "zoology"\n[settings]\nanimals_file = "nope.csv"\n'},
        [
            "zoo.toml",
            "setting 'animals_file'",
            "'nope.csv'",
            "CSV animal table",
            "data/animals.csv",
            "leave animals_file out",
        ],
        id="zoology-animals-file-missing",
    ),
    pytest.param(
        ["run", "--scenario", "zoo.toml", "--games", "10"],
        {
            "zoo.toml": 'game = "zoology"\n[settings]\nanimals_file = "bad.csv"\n',
            "bad.csv": "id,name\nlion,Lion\n",
        },
        ["zoo.toml", "setting 'animals_file'", "bad.csv", "missing column(s)", "required are"],
        id="zoology-animals-file-columns",
    ),
    pytest.param(
        ["run", "--scenario", "zoo.toml", "--games", "10"],
        {"zoo.toml": 'game = "zoology"\n[settings]\nquestions_file = "q.toml"\n'},
        [
            "zoo.toml",
            "setting 'questions_file'",
            "'q.toml'",
            "TOML question deck",
            "data/questions.toml",
            "leave questions_file out",
        ],
        id="zoology-questions-file-missing",
    ),
    pytest.param(
        ["odds", "--game", "hearts", "--scenario", "bluff.toml"],
        {"bluff.toml": 'game = "bluff"\n'},
        ["--game", "'hearts' differs from the scenario's game 'bluff'"],
        id="odds-game-differs-from-scenario",
    ),
    pytest.param(
        ["tournament", "--strategies", "bayz,random"],
        {},
        ["--strategies", "'bayz'"],
        id="tournament-strategy",
    ),
    pytest.param(["tune", "--strategy", "bayz"], {}, ["--strategy", "'bayz'"], id="tune-bayz"),
    pytest.param(["tune", "--strategy", "random"], {}, ["no parameters"], id="tune-random"),
    pytest.param(["tune", "--against", "bayz"], {}, ["--against", "'bayz'"], id="against"),
    # --- impossible settings ----------------------------------------------------------------
    pytest.param(["run", "--players", "bayes"], {}, ["1 player", "2 to 6"], id="one-player"),
    pytest.param(
        ["tournament", "--strategies", "bayes,random", "--seats", "9"],
        {},
        ["--seats", "9"],
        id="seats",
    ),
    pytest.param(
        ["tournament", "--strategies", "bayes,random", "--seats", "-1"],
        {},
        ["--seats", "-1 players", "2 to 6"],
        id="tournament-seats-negative",
    ),
    pytest.param(
        ["tournament", "--strategies", "bayes,random", "--seats", "99999999999999999999999"],
        {},
        ["--seats", "99999999999999999999999 players", "2 to 6"],
        id="tournament-seats-huge",
    ),
    pytest.param(
        ["field", "--population", "bayes,random", "--seats", "-1"],
        {},
        ["--seats", "-1 players", "2 to 6"],
        id="field-seats-negative",
    ),
    pytest.param(
        ["field", "--population", "bayes,random", "--seats", "99999999999999999999999"],
        {},
        ["--seats", "99999999999999999999999 players", "2 to 6"],
        id="field-seats-huge",
    ),
    pytest.param(
        ["psro", "--population", "bayes,random", "--seats", "99999999999999999999999"],
        {},
        ["--seats", "99999999999999999999999 players", "2 to 6"],
        id="psro-seats-huge",
    ),
    pytest.param(
        ["run", "--scenario", "hand.toml"],
        {"hand.toml": "[settings]\nhand_size = 30\n"},
        ["hand.toml", "'hand_size'", "107"],
        id="scenario-impossible",
    ),
    pytest.param(
        ["run", "--games", "100", "--until-ci", "0.1"],
        {},
        ["--games and --until-ci"],
        id="games-and-until-ci",
    ),
    # --- TOML errors at every level ---------------------------------------------------------
    pytest.param(
        ["run", "--scenario", "bad.toml"],
        {"bad.toml": "[settings\nfoo = \n"},
        ["bad.toml", "not valid TOML"],
        id="toml-syntax",
    ),
    pytest.param(
        ["run", "--scenario", "top.toml"],
        {"top.toml": 'colour = "red"\n'},
        ["top.toml", "'colour'", "allowed are"],
        id="toml-top-level",
    ),
    pytest.param(
        ["run", "--scenario", "run.toml"],
        {"run.toml": "[run]\ngamez = 5\n"},
        ["run.toml", "'run.gamez'", "allowed are"],
        id="toml-run-key",
    ),
    pytest.param(
        ["run", "--scenario", "games.toml"],
        {"games.toml": '[run]\ngames = "abc"\n'},
        ["--games", "'abc'"],
        id="toml-run-value",
    ),
    pytest.param(
        ["run", "--scenario", "setting.toml"],
        {"setting.toml": "[settings]\nfoo = 1\n"},
        ["setting.toml", "'foo'", "unknown setting"],
        id="toml-settings-key",
    ),
    pytest.param(
        ["run", "--scenario", "type.toml"],
        {"type.toml": '[settings]\nhand_size = "five"\n'},
        ["type.toml", "'hand_size'", "'five'", "whole number"],
        id="toml-settings-type",
    ),
    pytest.param(
        ["run", "--scenario", "nested.toml"],
        {"nested.toml": "[settings.deck]\nwild_3 = 2\n"},
        ["nested.toml", "'deck.wild_3'", "allowed are"],
        id="toml-nested-key",
    ),
    pytest.param(
        ["run", "--scenario", "uses.toml", "--games", "100"],
        {
            "uses.toml": 'game = "lucky-lions"\n[settings]\ndeck = "deck.toml"\n',
            "deck.toml": '[animals]\nlion = "x"\n',
        },
        ["uses.toml", "'animals.lion'", "deck.toml"],
        id="toml-deck-file-value",
    ),
    pytest.param(
        ["deck", "--scenario", "uses.toml"],
        {
            "uses.toml": 'game = "lucky-lions"\n[settings]\ndeck = "deck.toml"\n',
            "deck.toml": "cycle = 1\n",
        },
        ["deck.toml", "'cycle'", "allowed are"],
        id="toml-deck-file-key",
    ),
    pytest.param(
        ["run", "--scenario", "zoo.toml", "--games", "100"],
        {"zoo.toml": 'game = "through-the-zoo"\n[settings]\nexhibits = ["chess"]\n'},
        ["zoo.toml", "'exhibits'", "'chess'", "big-two, dodgeball, hearts"],
        id="toml-setting-checked-with-the-lineup",
    ),
    pytest.param(
        ["run", "--scenario", "zoo.toml", "--games", "100"],
        {"zoo.toml": 'game = "through-the-zoo"\n[settings.play]\nhearts = "nosuch"\n'},
        ["zoo.toml", "'play.hearts'", "'nosuch'", "bold, random, safe"],
        id="toml-exhibit-lineup",
    ),
    pytest.param(
        ["run", "--scenario", "three.toml", "--games", "100"],
        {"three.toml": '[settings]\nplayers = 3\n[run]\nplayers = "random*4"\n'},
        ["three.toml", "players = 3", "lineup has 4 players", "players = 4"],
        id="toml-players-differ-from-lineup",
    ),
    pytest.param(
        ["sweep", "sweep.toml", "--out", "cells"],
        {"sweep.toml": SWEEP.replace("[grid]", "[settings]\nplayers = 3\n[grid]")},
        ["sweep.toml", "players = 3", "lineup has 4 players"],
        id="toml-sweep-players-differ-from-lineup",
    ),
    pytest.param(
        ["sweep", "sweep.toml", "--out", "cells"],
        {"sweep.toml": SWEEP.replace("seat1.doubt", "seat9.doubt")},
        ["sweep.toml", "'seat9.doubt'", "seat1 to seat4"],
        id="toml-grid-seat",
    ),
    pytest.param(
        ["sweep", "sweep.toml", "--out", "cells"],
        {"sweep.toml": SWEEP.replace("[0.1, 0.5]", "[]")},
        ["sweep.toml", "non-empty list"],
        id="toml-grid-empty",
    ),
    pytest.param(
        ["sweep", "sweep.toml", "--out", "cells"],
        {"sweep.toml": SWEEP.replace("seat1.doubt", "seat1.doubtt")},
        ["sweep.toml", "'doubtt'"],
        id="toml-grid-parameter",
    ),
    pytest.param(
        ["odds", "--scenario", "bad.toml"],
        {"bad.toml": "[settings\n"},
        ["bad.toml", "not valid TOML"],
        id="toml-odds",
    ),
    # --- missing or garbage files ---------------------------------------------------------
    pytest.param(
        ["run", "--scenario", "missing.toml"],
        {},
        ["--scenario", "'missing.toml'"],
        id="scenario-missing",
    ),
    pytest.param(
        ["run", "--scenario", "garbage.toml"],
        {"garbage.toml": GARBAGE},
        ["garbage.toml", "not a UTF-8 text file"],
        id="scenario-garbage",
    ),
    pytest.param(
        ["sweep", "garbage.toml"],
        {"garbage.toml": GARBAGE},
        ["garbage.toml"],
        id="sweep-garbage",
    ),
    pytest.param(["sweep", "nothere.toml"], {}, ["'nothere.toml'"], id="sweep-missing"),
    pytest.param(
        ["run", "--scenario", "uses.toml", "--games", "100"],
        {"uses.toml": 'game = "lucky-lions"\n[settings]\ndeck = "nope.toml"\n'},
        ["uses.toml", "'nope.toml'"],
        id="deck-file-missing",
    ),
    pytest.param(["show", "nothere"], {}, ["nothere", "manifest.json"], id="show-missing"),
    pytest.param(
        ["show", "empty"],
        {"empty/notes.txt": "not a run"},
        ["empty", "manifest.json"],
        id="show-not-a-run",
    ),
    pytest.param(
        ["show", "run"],
        {"run/manifest.json": "{not json"},
        ["run/manifest.json"],
        id="show-garbage-manifest",
    ),
    pytest.param(["report", "nothere"], {}, ["nothere", "not a folder"], id="report-missing"),
    pytest.param(
        ["report", "run", "-o", "out"],
        {"run/manifest.json": "{not json"},
        ["run/manifest.json"],
        id="report-garbage-manifest",
    ),
    pytest.param(["compare", "a", "b"], {}, ["a", "not a folder"], id="compare-missing"),
    pytest.param(
        ["run", "--games", "100", "--report-dir", "notes.txt"],
        {"notes.txt": "not a report"},
        ["--report-dir", "notes.txt", "not a report folder"],
        id="run-report-dir-a-file",
    ),
    pytest.param(
        ["run", "--games", "100", "--backend", "dask", "--scheduler", "nohost"],
        {},
        ["--scheduler", "'nohost'", "tcp://HOST:8786"],
        id="run-scheduler-malformed",
    ),
    pytest.param(
        ["psro", "--population", "bayes,random", "--seats", "2", "--out", "notes.txt"],
        {"notes.txt": "not a folder"},
        ["--out", "notes.txt is a file", "folder for the PSRO loop"],
        id="psro-out-a-file",
    ),
    pytest.param(
        ["psro", "--population", "bayes,random", "--seats", "2", "--out", "mine"],
        {"mine/keep.txt": "someone's notes"},
        ["--out", "mine is not empty and holds no PSRO loop", "new or empty folder"],
        id="psro-out-a-foreign-folder",
    ),
    pytest.param(
        ["run", "--resume", "nothere"],
        {},
        ["--resume", "nothere"],
        id="resume-missing",
    ),
]


def write_files(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its content (None for folders)."""
    return {
        str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes()
        for path in sorted(folder.rglob("*"))
    }


def assert_one_clear_line(err: str, fragments: list[str]) -> None:
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {err!r}"
    assert lines[0].startswith("zoosim: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"


@pytest.mark.parametrize(("args", "files", "fragments"), CASES)
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    args: list[str],
    files: dict[str, str | bytes],
    fragments: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    write_files(tmp_path, files)
    before = snapshot(tmp_path)
    code = cli.main(args)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    assert_one_clear_line(captured.err, fragments)
    assert snapshot(tmp_path) == before


ZOOSIM = Path(sys.executable).with_name("zoosim")


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["run", "--gams", "5"], ["--gams", "zoosim run --help"]),
        (["tune", "--games", "10"], ["--games", "138_667"]),
        (["run", "--scenario", "missing.toml"], ["missing.toml"]),
    ],
    ids=["usage", "size", "file"],
)
def test_the_installed_command_says_the_same_in_one_line(
    args: list[str], fragments: list[str], tmp_path: Path
) -> None:
    """The console script, as a user runs it: real exit code and stderr."""
    done = subprocess.run(
        [str(ZOOSIM), *args], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_clear_line(done.stderr, fragments)
    assert list(tmp_path.iterdir()) == []


def test_simulate_refuses_a_players_setting_that_differs_from_the_lineup() -> None:
    """From Python too, ``settings={"players": 3}`` with four players is refused by name,
    not silently overridden by the lineup."""
    from zooanalysis import simulate
    from zooanalysis.errors import UserError

    with pytest.raises(UserError, match="players = 3 but the lineup has 4 players"):
        simulate(players="random*4", games=10, settings={"players": 3})


@pytest.mark.parametrize(
    ("game", "lineup", "allowed"),
    [
        ("bluff", "random*7", "is for 2 to 6 players"),
        ("big-two", "random*5", "is for 2 to 4 players"),
        ("bug-house", "random*3", "is for 4 players"),
        ("chai-tea-jazz", "random*5", "is for 2, 3, 4 or 6 players"),
        ("chai-tea-jazz", "random*7", "is for 2, 3, 4 or 6 players"),
        ("dodgeball", "random*3", "is for 2 or 4 players"),
        ("dodgeball", "random*5", "is for 2 or 4 players"),
        ("hearts", "random*3", "is for 4 players"),
        ("lucky-lions", "random*6", "is for 2 to 5 players"),
        ("short-zoot-suit", "random*5", "is for 2 to 4 players"),
        ("through-the-zoo", "random", "is for 2 to 4 players"),
        ("zoology", "bayes*7", "is for 2 to 6 players"),
    ],
)
def test_a_lineup_of_a_player_count_the_game_does_not_allow_names_the_allowed_counts(
    game: str,
    lineup: str,
    allowed: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Exactly the counts the rulebook allows (Chai Tea Jazz has no 5-player game, Hodge
    Podge Dodgeball no 3-player one; Hearts and Bug House are for 4 only), not the span from
    the fewest to the most."""
    monkeypatch.chdir(tmp_path)
    code = cli.main(["run", "--game", game, "--players", lineup, "--games", "100"])
    captured = capsys.readouterr()
    assert code == 2, captured
    seats = len(lineup.split(",")) if "*" not in lineup else int(lineup.split("*")[1])
    assert_one_clear_line(captured.err, ["--players", f"{seats} players", allowed])
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def bluff_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small finished Bluff run that the cases below copy and damage."""
    folder = tmp_path_factory.mktemp("bluff") / "run"
    assert cli.main(["run", "--games", "200", "--out", str(folder), "--no-progress"]) == 0
    return folder


OTHER_GAMES = [
    "big-two", "bug-house", "chai-tea-jazz", "dodgeball", "hearts", "lucky-lions",
    "short-zoot-suit", "through-the-zoo", "zoology",
]


@pytest.mark.parametrize("command", ["show", "report"])
@pytest.mark.parametrize("other", OTHER_GAMES)
def test_a_manifest_edited_to_name_another_game_is_one_line(
    other: str,
    command: str,
    bluff_run: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Bluff run whose manifest says it is another game's: refused by name (its settings
    are not that game's), not a KeyError traceback from that game's analysis."""
    import json
    import shutil

    from zooanalysis import storage

    monkeypatch.chdir(tmp_path)
    shutil.copytree(bluff_run, "run")
    manifest = json.loads(Path("run/manifest.json").read_text())
    manifest["game"] = other
    seal = getattr(storage, "manifest_seal", None)  # folders sealed since 5af23cc: seal again,
    if seal is not None and "manifest_sha256" in manifest:  # so the game check is what speaks
        manifest["manifest_sha256"] = seal(manifest)
    Path("run/manifest.json").write_text(json.dumps(manifest))
    before = snapshot(tmp_path)
    capsys.readouterr()
    code = cli.main([command, "run"] + (["-o", "out"] if command == "report" else []))
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    assert_one_clear_line(
        captured.err, ["run/manifest.json", "points_to_end", f"not settings of {other}"]
    )
    assert snapshot(tmp_path) == before
