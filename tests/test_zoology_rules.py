"""Zoology's settings: every rule number from a scenario's ``[settings]`` table, checked,
with errors naming the key and what is allowed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from zooanalysis.errors import SettingsError
from zooanalysis.games.zoology.game import GAME
from zooanalysis.games.zoology.rules import ZoologySettings, settings_from_table
from zooanalysis.strategy_spec import parse_lineup

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_defaults_are_the_rulebook() -> None:
    rules = settings_from_table({})
    assert rules == ZoologySettings()
    assert rules.hand_size == 3 and rules.points_to_win == 5
    assert rules.points_correct_guess == 2 and rules.points_second_chance == 1
    assert [rules.tokens_for(n) for n in range(2, 7)] == [10, 12, 14, 16, 18]
    assert len(rules.board()) == 16
    assert rules.neutrals_for(2) == 0
    assert settings_from_table({"neutral_animals": True}).neutrals_for(2) == 2
    assert settings_from_table({"neutral_animals": True}).neutrals_for(3) == 1
    assert settings_from_table({"neutral_animals": True}).neutrals_for(4) == 0


def test_boards_add_six_animals_each() -> None:
    assert len(settings_from_table({"regions": ["asia"]}).board()) == 22
    every = settings_from_table({"regions": ["australia", "africa", "asia", "america"]})
    assert len(every.board()) == 40
    assert every.regions == ("africa", "america", "asia", "australia")


def test_settings_round_trip_through_the_manifest_format() -> None:
    rules = settings_from_table(
        {"regions": ["asia"], "guess_tokens": {"4": 9}, "mode": "cooperative"}
    )
    again = settings_from_table(rules.to_dict())
    assert again == rules
    assert again.tokens_for(4) == 9 and again.tokens_for(5) == 16


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"points": 5}, "points", "allowed are"),
        ({"players": 7}, "players", "from 2 to 6"),
        ({"mode": "solo"}, "mode", "competitive, cooperative"),
        ({"regions": ["europe"]}, "regions", "africa, america, asia, australia"),
        ({"regions": "asia"}, "regions", "list"),
        ({"regions": ["asia", "asia"]}, "regions", "twice"),
        ({"neutral_animals": "yes"}, "neutral_animals", "true or false"),
        ({"question_information": 1}, "question_information", "true or false"),
        ({"guess_tokens": {"7": 20}}, "guess_tokens.7", "allowed are 2, 3, 4, 5, 6"),
        ({"guess_tokens": {"4": 0}}, "guess_tokens.4", "from 1"),
        ({"guess_tokens": 14}, "guess_tokens", "table"),
        ({"perception_noise": 0}, "perception_noise", "0.01 to 10"),
        ({"hand_size": 0}, "hand_size", "from 1"),
        ({"hand_size": 20, "players": 6}, "hand_size", "question cards"),
        ({"cooperative_grid": True}, "cooperative_grid", "cooperative"),
        ({"animals_file": 3}, "animals_file", "path"),
        ({"neutral_animals_by_players": {"4": 1}}, "neutral_animals_by_players.4", "allowed"),
    ],
)
def test_errors_name_the_key_and_what_is_allowed(table, key, fragment) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == key
    assert fragment in str(error.value)


def test_lineup_sets_the_player_count() -> None:
    rules = GAME.settings_for_lineup(ZoologySettings(), parse_lineup("bayes*3", GAME.strategies))
    assert rules.players == 3
    with pytest.raises(SettingsError, match="2 to 6 players"):
        GAME.settings_for_lineup(ZoologySettings(), parse_lineup("bayes*7", GAME.strategies))
    grid = ZoologySettings(mode="cooperative", cooperative_grid=True)
    with pytest.raises(SettingsError, match="needs 6"):
        GAME.settings_for_lineup(grid, parse_lineup("team*4", GAME.strategies))


def test_shipped_scenarios_hold_valid_settings() -> None:
    names = sorted(p.name for p in SIMULATIONS.glob("zoology-*.toml"))
    assert {"zoology-rulebook.toml", "zoology-cooperative.toml"} <= set(names)
    for name in names:
        scenario = tomllib.loads((SIMULATIONS / name).read_text(encoding="utf-8"))
        assert scenario["game"] == "zoology"
        settings_from_table(scenario.get("settings", {}))
    rulebook = tomllib.loads((SIMULATIONS / "zoology-rulebook.toml").read_text(encoding="utf-8"))
    assert settings_from_table(rulebook["settings"]) == ZoologySettings()
