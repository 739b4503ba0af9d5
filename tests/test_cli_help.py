"""What ``zoosim --help`` and every command's help tell a newcomer: the version, every
option's default, examples that parse, and usage errors that point at the right help."""

from __future__ import annotations

import shlex

import pytest
import typer.main

import zooanalysis
from zooanalysis import cli

GROUP = typer.main.get_command(cli.app)
COMMANDS = sorted(GROUP.commands)

NO_DEFAULT = {("tournament", "--strategies")}  # required: said in its help instead


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def help_records(name: str) -> dict[str, str]:
    """Each option of command ``name`` (its first long name) and the help text shown."""
    command = GROUP.commands[name]
    context = command.make_context(name, [], resilient_parsing=True)
    records = {}
    for param in command.params:
        record = param.get_help_record(context)
        if record is None or param.param_type_name != "option" or param.name == "help":
            continue
        records[max(param.opts, key=len)] = record[1]
    return records


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "--version")
    assert (code, out, err) == (0, f"zoosim {zooanalysis.__version__}\n", "")


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_shows_its_default(name: str) -> None:
    for option, text in help_records(name).items():
        if (name, option) in NO_DEFAULT or option.startswith("--no-"):
            continue
        assert "[default: " in text, (name, option, text)


def test_run_shows_the_defaults_a_run_uses() -> None:
    records = help_records("run")
    assert "[default: bluff, or the scenario's game]" in records["--game"]
    assert "[default: 1e6]" in records["--games"]
    assert "[default: 1]" in records["--seed"]
    assert f"[default: {cli.DEFAULT_BATCH_SIZE:_}]" in records["--batch-size"]
    assert "default lineup" in records["--players"]
    assert "[default: runs/<game>-<time>-seed<seed>]" in records["--out"]


def test_rotate_seats_says_games_then_counts_deals() -> None:
    text = help_records("run")["--rotate-seats"]
    assert "--games then counts deals" in text and "N x players games" in text


def test_tune_says_it_writes_nothing_without_out() -> None:
    assert "nothing is written" in help_records("tune")["--out"]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_examples_that_parse(name: str) -> None:
    command = GROUP.commands[name]
    assert command.epilog and command.epilog.startswith("Examples:"), name
    lines = [line.strip() for line in command.epilog.splitlines()[3:] if line.strip()]
    assert lines, name
    for line in lines:
        words = shlex.split(line, comments=True)
        assert words[:2] == ["zoosim", name], line
        redirect = words.index(">") if ">" in words else len(words)
        # parsing checks every option and value type; nothing runs
        command.make_context(name, words[2:redirect])


@pytest.mark.parametrize(
    ("args", "pointer"),
    [
        (["run", "--gams", "5"], "(see zoosim run --help)"),
        (["run", "--games"], "(see zoosim run --help)"),  # a parser error without context
        (["run", "--seed", "x"], "(see zoosim run --help)"),
        (["tournament", "--seats", "many"], "(see zoosim tournament --help)"),
        (["tune", "--games"], "(see zoosim tune --help)"),
        (["show"], "(see zoosim show --help)"),
        (["frob"], "(see zoosim --help)"),
        (["--gams"], "(see zoosim --help)"),
    ],
)
def test_usage_errors_point_at_the_commands_help(
    args: list[str], pointer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("zoosim: error: ")
    assert err.rstrip().endswith(pointer), err
