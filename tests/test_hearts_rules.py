"""Hearts' settings and scoring: every rule from a scenario's ``[settings]`` table, checked
with errors naming the key; the scoring (moon, Jack of Diamonds) as written."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from zooanalysis.errors import SettingsError
from zooanalysis.games.hearts.game import GAME
from zooanalysis.games.hearts.rules import (
    DIRECTION_NAMES,
    MOON_NAMES,
    MOON_OFF,
    OTHERS_TAKE,
    SHOOTER_SUBTRACTS,
    HeartsSettings,
    hand_scores,
    pass_direction,
    pass_offset,
    rules_array,
    settings_from_table,
)
from zooanalysis.strategy_spec import parse_lineup

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_defaults_are_the_usual_rules() -> None:
    rules = settings_from_table({})
    assert rules == HeartsSettings()
    assert (rules.players, rules.pass_cards, rules.end_score) == (4, 3, 100)
    assert rules.passing == "cycle" and rules.first_lead == "two-of-clubs"
    assert rules.hearts_must_be_broken and rules.queen_breaks_hearts
    assert rules.no_points_first_trick and rules.moon == "others-take"
    assert (rules.heart_points, rules.queen_points, rules.jack_of_diamonds) == (1, 13, 0)


def test_the_scenario_files_load() -> None:
    scenario = tomllib.loads((SIMULATIONS / "hearts-rulebook.toml").read_text(encoding="utf-8"))
    assert scenario["game"] == "hearts"
    assert settings_from_table(scenario["settings"]) == HeartsSettings()
    names = sorted(p.name for p in SIMULATIONS.glob("hearts-*.toml"))
    assert {"hearts-omnibus.toml", "hearts-one-hand.toml"} <= set(names)
    for name in names:
        data = tomllib.loads((SIMULATIONS / name).read_text(encoding="utf-8"))
        settings_from_table(data.get("settings", {}))
        parse_lineup(data["run"]["players"], GAME.strategies)


def test_settings_round_trip_through_the_manifest_format() -> None:
    rules = settings_from_table(
        {"passing": "across", "moon": "shooter-subtracts", "jack_of_diamonds": -10,
         "first_lead": "start-seat", "max_hands": 1, "hearts_must_be_broken": False}
    )  # fmt: skip
    assert settings_from_table(rules.to_dict()) == rules


def test_the_exhibit_card_makes_a_hold_hand() -> None:
    """ "It is a Hold hand": no passing; the start player leads; one hand."""
    exhibit = HeartsSettings(jack_of_diamonds=-10).for_exhibit()
    assert exhibit.passing == "hold" and exhibit.first_lead == "start-seat"
    assert exhibit.max_hands == 1 and exhibit.jack_of_diamonds == -10
    assert exhibit.direction(0) == 0


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"pass": 3}, "pass", "allowed are"),
        ({"players": 5}, "players", "give the whole number 4"),
        ({"passing": "clockwise"}, "passing", "cycle, hold, left, right, across"),
        ({"moon": "yes"}, "moon", "others-take, shooter-subtracts, off"),
        ({"first_lead": "dealer"}, "first_lead", "two-of-clubs, start-seat"),
        ({"pass_cards": 13}, "pass_cards", "from 1 to 12"),
        ({"hearts_must_be_broken": "yes"}, "hearts_must_be_broken", "true or false"),
        ({"jack_of_diamonds": 2.5}, "jack_of_diamonds", "whole number"),
        ({"end_score": 0}, "end_score", "from 1"),
        ({"max_hands": 1001}, "max_hands", "from 1 to 1000"),
    ],
)
def test_errors_name_the_key_and_what_is_allowed(table, key, fragment) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == key
    assert fragment in str(error.value)
    assert "\n" not in str(error.value)


def test_passing_directions() -> None:
    """Left, right, across, hold, repeated; left is the next seat in play order."""
    cycle = [DIRECTION_NAMES[pass_direction(0, h)] for h in range(8)]
    assert cycle == ["left", "right", "across", "hold"] * 2
    assert [pass_offset(d, 4) for d in range(4)] == [0, 1, 3, 2]
    for name in ("hold", "left", "right", "across"):
        rules = HeartsSettings(passing=name)
        assert {DIRECTION_NAMES[rules.direction(h)] for h in range(5)} == {name}
    assert rules_array(HeartsSettings()).dtype == np.int64


def score(points, cards, jacks=(0, 0, 0, 0), dealt=14, value=26, moon=OTHERS_TAKE):
    out = np.zeros(4, dtype=np.int64)
    shooter = hand_scores(np.array(points), np.array(cards), np.array(jacks), dealt, value,
                          moon, 4, out)  # fmt: skip
    return int(shooter), out.tolist()


def test_hand_scores_as_written() -> None:
    """Each heart 1, the Queen 13; taking all 26 shoots the moon."""
    assert score([13, 5, 8, 0], [1, 5, 8, 0]) == (-1, [13, 5, 8, 0])
    assert score([26, 0, 0, 0], [14, 0, 0, 0]) == (0, [0, 26, 26, 26])
    assert score([0, 0, 26, 0], [0, 0, 14, 0], moon=SHOOTER_SUBTRACTS) == (2, [0, 0, -26, 0])
    assert score([26, 0, 0, 0], [14, 0, 0, 0], moon=MOON_OFF) == (-1, [26, 0, 0, 0])
    # the Jack of Diamonds counts whatever happens, the shooter's too
    assert score([26, 0, 0, 0], [14, 0, 0, 0], [-10, 0, 0, 0]) == (0, [-10, 26, 26, 26])
    assert score([10, 3, 13, 0], [10, 3, 1, 0], [0, 0, 0, -10]) == (-1, [10, 3, 13, -10])
    # the exhibit's moon: every point card in play, here 20 of them worth 31
    assert score([31, 0, 0], [20, 0, 0], dealt=20, value=31)[1][:3] == [0, 31, 31]


@given(
    st.lists(st.integers(0, 14), min_size=4, max_size=4),
    st.sampled_from(range(len(MOON_NAMES))),
    st.integers(-10, 10),
)
def test_moon_only_when_one_player_took_every_point_card(cards, moon, jack) -> None:
    assume(cards.count(14) <= 1)
    points = [c * 2 for c in cards]
    shooter, out = score(points, cards, [jack, 0, 0, 0], moon=moon)
    if moon != MOON_OFF and 14 in cards:
        assert shooter == cards.index(14)
    else:
        assert shooter == -1
        assert out == [points[0] + jack, *points[1:]]
