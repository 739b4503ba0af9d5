"""Every command in the README works: a doc check a fresh clone can run.

The README's ``sh`` blocks are read command by command. ``zoosim`` commands that can be made
cheap run for real, with small ``--games``, in a temporary folder that holds a copy of
``simulations/`` and a small run called ``runs/NAME``; the others (synopses, interrupted or
distributed runs, whole sweeps, tournaments and tuning searches, which their own tests play)
are parsed exactly as ``zoosim`` would parse them, so every option and value type must
exist. ``make`` targets are dry-run, ``dask`` commands asked for their help, and install
commands checked against ``pyproject.toml``. The ``python`` blocks run on small runs of
their game, and the pasted ``zoosim odds`` output is compared with the real one.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import game_names, get_game
from zooanalysis.strategy_spec import parse_lineup

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GROUP = typer.main.get_command(cli.app)
SMALL_GAMES = "600"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)

PARSE_ONLY = {
    "--resume": "continues an interrupted run",
    "dask": "needs a Dask cluster",
    "sweep": "a whole grid of runs (tests/test_sweep.py plays sweeps)",
    "tune": "a whole search (tests/test_tuning.py plays one)",
    "tournament": "every lineup (tests/test_tournament.py plays tournaments)",
    "compare": "needs two runs of one game (tests/test_compare.py)",
    "field": "a whole meta-game, or a field folder (tests/test_field.py, test_field_lineup.py)",
    "exploit": "a best-response search on a field (tests/test_exploit.py)",
    "psro": "field and exploit, iterated (tests/test_psro.py)",
    "search": "a search player plays a few games a second (tests/test_bluff_search.py plays it)",
    "lucky-lions-everything": "2e5 games with both expansions (tests/test_lucky_lions_engines_"
    "agree.py plays these settings)",
}
"""Why a command is parsed rather than run (a word of the command -> the reason)."""


@dataclass(frozen=True)
class Command:
    """One command of a README ``sh`` block: its words, without comments."""

    text: str

    @property
    def words(self) -> list[str]:
        return shlex.split(self.text, comments=True)

    def __str__(self) -> str:
        return self.text


def readme_blocks(language: str) -> list[str]:
    """The README's fenced blocks of one language."""
    return [body for lang, body in BLOCK.findall(README.read_text()) if lang == language]


def readme_commands() -> list[Command]:
    """Every command of every ``sh`` block (indented lines continue the command above)."""
    commands: list[str] = []
    for block in readme_blocks("sh"):
        for line in block.splitlines():
            code = line.split(" #", 1)[0].rstrip() if not line.lstrip().startswith("#") else ""
            if not code.strip():
                continue
            if line[:1].isspace() and commands:
                commands[-1] += " " + code.strip()
            else:
                commands.append(code.strip())
    return [Command(text) for text in commands]


COMMANDS = readme_commands()
ZOOSIM = [c for c in COMMANDS if c.words[0] == "zoosim"]
OTHERS = [c for c in COMMANDS if c.words[0] != "zoosim"]


def synopsis_words(command: Command) -> list[str]:
    """A synopsis line as one concrete command: ``[--x V]`` given, placeholders filled."""
    text = command.text.replace("[", " ").replace("]", " ")
    text = text.replace("--jobs N", "--jobs 2").replace("FILE.toml", "bluff-rulebook.toml")
    return shlex.split(text, comments=True)


def parse(words: list[str]) -> None:
    """Parse ``zoosim WORDS`` as zoosim would, without running anything."""
    assert words[0] == "zoosim"
    name, args = words[1], words[2:]
    if ">" in args:
        args = args[: args.index(">")]
    assert name in GROUP.commands, f"no command {name!r}"
    GROUP.commands[name].make_context(name, args)


def run_reason(command: Command) -> str | None:
    """Why the command is only parsed; None when it runs."""
    if "[" in command.text:
        return "a synopsis"
    for word, reason in PARSE_ONLY.items():
        if word in command.words or any(word in w for w in command.words):
            return reason
    return None


def cheap(words: list[str], name: str) -> list[str]:
    """``zoosim run`` with small sizes, no progress bar and its own folder ``runs/name``
    (default names are stamped to the second); other commands unchanged."""
    if words[1] != "run":
        return words
    words = list(words)
    if "--out" not in words:
        words += ["--out", f"runs/{name}"]
    if "--games" in words:
        words[words.index("--games") + 1] = SMALL_GAMES
    elif "--until-ci" in words:
        words += ["--max-games", SMALL_GAMES]
    else:
        words += ["--games", SMALL_GAMES]
    return [*words, "--no-progress"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like a fresh clone's, with ``simulations/`` and a small ``runs/NAME``."""
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "simulations", folder / "simulations")
    zooanalysis.simulate("bluff", games=3000, seed=1, jobs=1, out=folder / "runs" / "NAME")
    zooanalysis.simulate(
        "lucky-lions", games=300, seed=1, jobs=1, out=folder / "runs" / "NAME-lucky-lions"
    )
    zooanalysis.simulate(
        "dodgeball", games=300, seed=1, jobs=1, out=folder / "runs" / "NAME-dodgeball"
    )
    zooanalysis.simulate(
        "through-the-zoo", games=200, seed=1, jobs=1, settings={"zoo": "johannesburg"},
        out=folder / "runs" / "NAME-through-the-zoo",
    )
    zooanalysis.simulate(
        "bug-house", games=300, seed=1, jobs=1, out=folder / "runs" / "NAME-bug-house"
    )
    return folder


def test_the_readme_has_commands_of_every_kind() -> None:
    assert len(ZOOSIM) > 20
    assert {c.words[0] for c in OTHERS} >= {"make", "pip", "dask", "python3"}


@pytest.mark.parametrize("command", ZOOSIM, ids=str)
def test_every_zoosim_command_parses(command: Command) -> None:
    words = synopsis_words(command) if "[" in command.text else command.words
    parse(words)


@pytest.mark.parametrize("command", [c for c in ZOOSIM if run_reason(c) is None], ids=str)
def test_every_cheap_zoosim_command_runs(
    command: Command, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workspace)
    words = cheap(command.words, f"readme-{ZOOSIM.index(command)}")
    target = None
    if ">" in words:  # a redirect: the output goes to that file
        target = workspace / words[words.index(">") + 1]
        words = words[: words.index(">")]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(words[1:])
    assert code == 0, err.getvalue()
    assert "Traceback" not in err.getvalue()
    assert out.getvalue().strip(), "it printed nothing"
    if target is not None:
        target.write_text(out.getvalue())
        tomllib.loads(target.read_text())  # `deck --toml` writes a valid deck file


def test_only_expensive_or_unrunnable_commands_are_parse_only() -> None:
    reasons = {str(c): run_reason(c) for c in ZOOSIM}
    skipped = {c: r for c, r in reasons.items() if r}
    ran = [c for c, r in reasons.items() if r is None]
    assert len(ran) >= 12, ran
    assert len(skipped) <= len(ran), skipped


@pytest.mark.parametrize("command", OTHERS, ids=str)
def test_every_other_command_is_checked(command: Command) -> None:
    for part in command.text.split("&&"):
        words = shlex.split(part, comments=True)
        while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):  # VAR=value prefix
            words = words[1:]
        program = words[0]
        if program == "make":
            done = subprocess.run(
                ["make", "-n", *words[1:]], cwd=ROOT, capture_output=True, text=True
            )
            assert done.returncode == 0, done.stderr
        elif program == "dask":
            dask = Path(sys.executable).with_name("dask")
            args = [w for w in words[1:] if not w.startswith("tcp://")]
            done = subprocess.run(
                [str(dask), *args, "--help"], capture_output=True, text=True, timeout=120
            )
            assert done.returncode == 0, done.stderr[-2000:]
        elif program == "python3":
            assert words[1:3] == ["-m", "venv"]
        elif program in ("pip", ".venv/bin/pip"):
            assert words[1:3] == ["install", "-e"], "install from the clone, editable"
            check_install_target(words[3])
        elif program == "jupyter":
            assert (ROOT / words[-1]).is_file(), words[-1]
        else:
            pytest.fail(f"no check for {program!r}: {command}")


def check_install_target(target: str) -> None:
    """``.`` or ``.[extra,...]``: the clone's root, with extras pyproject.toml declares."""
    match = re.fullmatch(r"\.(?:\[([\w,]+)\])?", target)
    assert match, target
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = set(project.get("optional-dependencies", {}))
    for extra in (match.group(1) or "").split(","):
        assert not extra or extra in extras, f"no extra {extra!r} in pyproject.toml"


def test_no_readme_command_installs_an_unpublished_package() -> None:
    assert "pip install 'zooanalysis" not in README.read_text()
    assert "pip install zooanalysis" not in README.read_text()


@pytest.mark.parametrize("block", readme_blocks("python"), ids=lambda b: b.split("\n")[0][:40])
def test_every_python_block_runs(block: str, workspace: Path) -> None:
    game = "NAME-lucky-lions" if "lucky_lions" in block or "cycle_dominance" in block else "NAME"
    game = "NAME-dodgeball" if "dodgeball" in block else game
    game = "NAME-through-the-zoo" if "through-the-zoo" in block else game
    game = "NAME-bug-house" if "bug-house" in block else game
    path = str(workspace / "runs" / game)
    lines = block.splitlines()
    if lines[0].startswith(">>> "):  # an interactive session: only its input lines
        lines = [line[4:] for line in lines if line.startswith(">>> ")]
    code = re.sub(r"runs/[\w-]+", path, "\n".join(lines))
    exec(compile(code, "README.md", "exec"), {"zooanalysis": zooanalysis})


def test_the_pasted_odds_output_is_what_zoosim_prints(capsys: pytest.CaptureFixture[str]) -> None:
    block = next(b for b in readme_blocks("text") if b.startswith("$ zoosim odds"))
    command, *shown = block.splitlines()
    assert cli.main(shlex.split(command)[2:]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert shown[0] == "..."
    tail = shown[1:]
    assert printed[-len(tail) - 2 : -2] == tail  # then a blank line and the note on claims


# --- links ------------------------------------------------------------------------------------

DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file: GitHub's heading slugs and explicit ``<a id>``."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        found.update(re.findall(r'<a id="([^"]+)"></a>', line))
        if line.startswith("#"):
            text = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
            count = seen.get(text, 0)
            seen[text] = count + 1
            found.add(text if count == 0 else f"{text}-{count}")
    return found


@pytest.mark.parametrize("document", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_in_the_docs_resolves(document: Path) -> None:
    """Relative links point at files in the repository (never outside it, as the old
    ``../shared/rules/`` did) and at anchors those files have."""
    text = document.read_text()
    assert "shared/rules" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        assert linked.is_relative_to(ROOT) and linked.exists(), (document.name, target)
        if anchor:
            assert anchor in anchors(linked), (document.name, target)


def test_the_rules_keep_the_rulebooks_section_names() -> None:
    """A reader checks our words against the printed rules by section name."""
    expected = {
        "bluff-in-zoo": [
            "Components",
            "Setup",
            "How to Play",
            "Doubting",
            "Wild Cards",
            "Action Cards",
            "The Stop Cards",
            "Example",
            "End of Turn",
            "End of Game",
        ],
        "lucky-lions": [
            "Setup",
            "Objective",
            "Gameplay",
            "Zoo Cards",
            "Variants",
            "Busy Zoo",
            "Wild Animals",
        ],
        "zoology": [
            "Components",
            "Setup",
            "Goal of the Game",
            "Time to Play!",
            "Guess!",
            "Second Chance",
            "Ending a Round",
            "Ending the Game",
            "Cooperative Mode",
            "Achievements",
            "Neutral Animals for a 2-3 Player Game",
        ],
    }
    for game, sections in expected.items():
        headings = [
            line.lstrip("#").strip()
            for line in (ROOT / "docs" / "rules" / f"{game}.md").read_text().splitlines()
            if line.startswith("#")
        ]
        assert [h for h in headings if h in sections] == sections, game
    zoo = (ROOT / "docs" / "rules" / "zoo-and-more.md").read_text()
    for game in (
        "chai-tea-jazz",
        "short-zoot-suit",
        "bug-house-millionaire",
        "hodge-podge-dodgeball",
        "through-the-zoo",
    ):
        for section in ("components", "setup", "gameplay-flow", "end-of-game", "unclear"):
            assert f'<a id="{game}-{section}"></a>' in zoo, (game, section)


def test_every_rules_decision_links_its_rule() -> None:
    decisions = (ROOT / "docs" / "rules-decisions.md").read_text()
    rows = [line for line in decisions.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) > 50
    for row in rows:
        cells = row.strip("|").split("|")
        assert re.search(r"\(rules/[\w-]+\.md#[\w-]+\)", cells[-1]) or cells[-1].strip() == "—", row


DEFAULTS_ROW = re.compile(r"^\| (?P<title>[^|]+?) \| (?P<lineups>[^|]+?) \|", re.M)


def test_the_default_lineups_table_names_every_games_default() -> None:
    """The table's "now" lineup (the last one in its "before -> now" cell) is the lineup
    ``zoosim run`` plays without ``--players``, seat by seat, for every game."""
    text = README.read_text().split("### Default lineups", 1)[1].split("\n#", 1)[0]
    rows = {m["title"]: m["lineups"] for m in DEFAULTS_ROW.finditer(text)}
    for name in game_names():
        game = get_game(name)
        assert "->" in rows[game.title], f"{game.title}: no 'before -> now' in the table"
        now = re.findall(r"`([^`]+)`", rows[game.title].split("->")[-1])[0]
        written = [p.label for p in parse_lineup(now, game.strategies)]
        assert written == [p.label for p in parse_lineup(game.default_lineup, game.strategies)]


def test_the_worked_example_is_a_run_of_the_default_lineup() -> None:
    """The pasted ``make run`` output (``zoosim run --games 1e6``) names the default seats."""
    game = get_game("bluff")
    seats = ", ".join(p.label for p in parse_lineup(game.default_lineup, game.strategies))
    block = next(b for b in readme_blocks("text") if b.startswith("$ make run"))
    assert block.splitlines()[1].startswith(f"Bluff in Zoo: 1,000,000 games, 4 players ({seats})")
