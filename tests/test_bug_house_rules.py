"""Bug House Millionaire's settings: the rulebook file loads to the defaults, every shipped
scenario loads, bad values name the key and what is allowed (one line, exit 2, nothing
written)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from zooanalysis import cli
from zooanalysis.errors import SettingsError
from zooanalysis.games.bug_house.rules import (
    BugHouseSettings,
    duel_of,
    opponent_of,
    partner_of,
    settings_from_table,
    team_of,
)

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_the_rulebook_file_is_the_defaults() -> None:
    """"Players set the chess timers to 1:55 minutes each, no increment." """
    table = tomllib.loads((SIMULATIONS / "bug-house-rulebook.toml").read_text())["settings"]
    rules = settings_from_table(table)
    assert rules == BugHouseSettings()
    assert set(table) == set(BugHouseSettings.__dataclass_fields__), "every setting is listed"
    assert rules.clock_ms == 115_000
    assert rules.deck.size == 64 and rules.cards_per_player == 16, "64 cards (0-15 in 4 suits)"


def test_other_shipped_scenarios_load() -> None:
    for name in ("bug-house-delayed-singles.toml", "sweep-bug-house-clock.toml",
                 "sweep-bug-house-variants.toml"):
        table = tomllib.loads((SIMULATIONS / name).read_text())
        assert table["game"] == "bug-house"
        settings_from_table(table.get("settings", {}))
    clocks = tomllib.loads((SIMULATIONS / "sweep-bug-house-clock.toml").read_text())
    assert clocks["grid"]["settings.clock_seconds"] == [115, 175, 235], "1:55, 2:55, 3:55"


def test_settings_round_trip_through_the_manifest_format() -> None:
    rules = settings_from_table({"clock_seconds": 235, "delayed_singles": True,
                                 "partner_talk": "need", "min_run": 4})
    assert settings_from_table(rules.to_dict()) == rules


def test_seats_teams_and_duels() -> None:
    """"Players sit next to their partner, side by side, and across from their opponent";
    the second start player is "the opponent diagonal to the first start player"."""
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [duel_of(s) for s in range(4)] == [0, 0, 1, 1]
    assert [opponent_of(s) for s in range(4)] == [1, 0, 3, 2]
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    # seat 4 (index 3) is diagonal to seat 1: neither its partner nor its opponent, and an
    # opponent of seat 1's team
    assert 3 not in (partner_of(0), opponent_of(0)) and team_of(3) != team_of(0)


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"player": 4}, "player", "allowed are"),
        ({"players": 2}, "players", "give the whole number 4"),
        ({"clock_seconds": 0}, "clock_seconds", "from 1 to 3600"),
        ({"clock_seconds": "1:55"}, "clock_seconds", "whole number"),
        ({"min_run": 1}, "min_run", "from 2 to 16"),
        ({"longer_runs_beat": "no"}, "longer_runs_beat", "true or false"),
        ({"partner_passing": 1}, "partner_passing", "true or false"),
        ({"partner_talk": "hands"}, "partner_talk", "nothing, need"),
        ({"thinking_distribution": "gamma"}, "thinking_distribution",
         "exponential, uniform, fixed"),
    ],
)
def test_bad_settings_name_the_key(table: dict, key: str, fragment: str) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    message = str(error.value)
    assert key in message and fragment in message, message


@pytest.mark.parametrize(
    ("settings_text", "fragment"),
    [
        ("clock_seconds = -5", "clock_seconds"),
        ('partner_talk = "everything"', "partner_talk"),
        ("min_run = 17", "min_run"),
    ],
)
def test_bad_scenarios_exit_2_with_one_line_and_write_nothing(
    settings_text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(f'game = "bug-house"\n[settings]\n{settings_text}\n')
    out = tmp_path / "out"
    code = cli.main(["run", "--scenario", str(scenario), "--games", "10", "--out", str(out),
                     "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and fragment in err, err
    assert not out.exists()


def test_bad_players_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = cli.main(["run", "--game", "bug-house", "--players", "climber,random,fast",
                     "--games", "10", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "is for 4 players" in err and err.count("\n") == 1
    assert not out.exists()
    code = cli.main(["run", "--game", "bug-house", "--players", "climber:keep_high=20,fast*3",
                     "--games", "10", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "keep_high" in err and err.count("\n") == 1
    assert not out.exists()
