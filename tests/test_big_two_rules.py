"""Big Two's settings: every rule from a scenario's ``[settings]`` table, checked with errors
naming the key and the allowed values; the shipped scenario files load."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from zooanalysis.errors import SettingsError
from zooanalysis.games.big_two.game import GAME
from zooanalysis.games.big_two.rules import (
    BigTwoSettings,
    identical_rule,
    rules_array,
    settings_from_table,
)
from zooanalysis.strategy_spec import parse_lineup

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_the_rulebook_file_loads_to_the_defaults() -> None:
    scenario = tomllib.loads((SIMULATIONS / "big-two-rulebook.toml").read_text("utf-8"))
    assert scenario["game"] == "big-two"
    assert settings_from_table(scenario["settings"]) == BigTwoSettings()
    assert set(scenario["settings"]) == set(BigTwoSettings().to_dict())  # every setting
    for path in SIMULATIONS.glob("big-two-*.toml"):
        data = tomllib.loads(path.read_text("utf-8"))
        settings_from_table(data.get("settings", {}))
        parse_lineup(data["run"]["players"], GAME.strategies)


def test_defaults() -> None:
    rules = BigTwoSettings()
    assert rules.per_player == 13 and not rules.gives_extra_card
    assert BigTwoSettings(players=3).gives_extra_card
    assert not BigTwoSettings(players=2).gives_extra_card
    assert list(rules.suit_strength) == [1, 0, 2, 3]  # C D H S -> clubs above diamonds
    assert rules.card_ids[1 * 16 + 3] == 0 and rules.card_ids[3 * 16 + 2] == 51  # 3D, 2S
    assert settings_from_table(rules.to_dict()) == rules
    assert len(rules_array(rules)) == 13


@pytest.mark.parametrize(
    ("table", "key", "allowed"),
    [
        ({"players": 5}, "players", "2"),
        ({"suit_order": "DCHH"}, "suit_order", "C, D, H, S"),
        ({"opening": "3D"}, "opening", "lowest-card, start-player"),
        ({"passing": "sometimes"}, "passing", "hard, soft"),
        ({"round_end": "never"}, "round_end", "first-out, last-out"),
        ({"target": -1}, "target", "0"),
        ({"cards_per_player": {"4": 14}}, "cards_per_player.4", "13"),
        ({"cards_per_player": {"5": 10}}, "cards_per_player.5", "allowed"),
        ({"extra_card_to_opener": "yes"}, "extra_card_to_opener", "true or false"),
        ({"double_from": 30}, "double_from", "26"),
        ({"jokers": 2}, "jokers", "allowed"),
    ],
)
def test_bad_values_name_the_key(table, key, allowed) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    message = str(error.value)
    assert f"'{key}'" in message and allowed in message and "\n" not in message


def test_identical_rule_names() -> None:
    assert identical_rule("earlier-wins") == 0 and identical_rule("later-wins") == 1
    with pytest.raises(SettingsError, match="earlier-wins, later-wins"):
        identical_rule("random")
