"""zoosim's options read without pydantic give exactly typer's values and errors (issue 13).

``zooanalysis.cli_values`` answers the certain cases itself and hands the rest to typer; here
every option of every command is read both ways, on values that take each path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main

from zooanalysis import cli, cli_values

core = pytest.importorskip("typer.core")
if not hasattr(core, "_TyperParameter"):  # pragma: no cover - an older typer: nothing patched
    pytest.skip("this typer does not coerce through _TyperParameter", allow_module_level=True)

SAMPLES = [
    None, "", "0", "7", "20000", "007", "-3", "+5", " 5", "1_000", "1e6", "2.5", "abc",
    "bayes,random*3", "runs/new-run", ".", "/", "README.md", "x\0y", 3, True, 0.5,
]  # fmt: skip
"""Raw values as the parser hands them over: absent, words, numbers plain and not, paths
that exist and not, and values of other types (defaults)."""


def options() -> list[tuple[str, object, object]]:
    """(command/option name, its click command, the option) for every typer option."""
    group = typer.main.get_command(cli.app)
    found = []
    for name, command in sorted(group.commands.items()):
        for param in command.params:
            if isinstance(param, core._TyperParameter):
                found.append((f"{name} {param.name}", command, param))
    return found


def outcome(coerce, value, param, command):
    """What coercing ``value`` gives: ("value", result) or ("error", type, message)."""
    from typer._click import Context

    context = Context(command)
    try:
        return ("value", coerce(value, param=param, ctx=context))
    except Exception as error:
        return ("error", type(error).__name__, str(error))


def test_every_option_reads_every_value_as_typer_does(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(Path(cli.__file__).parent.parent)  # README.md exists, runs/new-run not
    compared = certain = 0
    for label, command, param in options():
        plain = cli_values.PlainCoercion(param.type_descriptor, core.build_runtime_param)
        typer_own = core.build_runtime_param(param.type_descriptor)
        for value in SAMPLES:
            expected = outcome(typer_own.coerce, value, param, command)
            assert outcome(plain.coerce, value, param, command) == expected, (label, value)
            compared += 1
            certain += value is not None and plain.certain_value(value)[0]
    assert compared > 1000
    assert certain > 100  # the shortcut is taken, not only the way to typer


def test_plain_values_never_build_typer_s_adapter() -> None:
    run = typer.main.get_command(cli.app).commands["run"]
    by_name = {param.name: param for param in run.params}
    built = []

    def build(descriptor):
        built.append(descriptor)
        return core.build_runtime_param(descriptor)

    for name, value, expected in [
        ("players", "random*4", "random*4"),
        ("jobs", "2", 2),
        ("out", "runs/new-run", Path("runs/new-run")),
        ("until_ci", None, None),
        ("rows", None, None),
    ]:
        param = by_name[name]
        plain = cli_values.PlainCoercion(param.type_descriptor, build)
        assert plain.coerce(value, param=param, ctx=None) == expected
    assert built == []
    param = by_name["jobs"]
    assert cli_values.PlainCoercion(param.type_descriptor, build).coerce(
        "1_0", param=param, ctx=None
    ) == 10  # typer's own reading, which the shortcut leaves to it
    assert len(built) == 1


def test_install_is_in_place_once() -> None:
    assert cli_values.install() is True
    assert cli_values.install() is True
    assert getattr(core._TyperParameter.get_runtime_param, "zoosim", False)
