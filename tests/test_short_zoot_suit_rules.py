"""Short Zoot Suit's settings and scoring: every rule number from a scenario's ``[settings]``
table, checked with errors naming the key; the rulebook's scoring examples, each a test."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zooanalysis.errors import SettingsError
from zooanalysis.games.short_zoot_suit.game import GAME
from zooanalysis.games.short_zoot_suit.rules import (
    ZootSettings,
    round_points,
    score_round,
    settings_from_table,
)
from zooanalysis.strategy_spec import parse_lineup

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_defaults_are_the_rulebook() -> None:
    """ "2p: 2-9, 4 suits / Shuffle and deal all but 2 / 3p: 2-13, 4 suits / Shuffle and deal
    all but 3 / 4p: 1-13, 4 suits / Shuffle and deal all" """
    rules = settings_from_table({})
    assert rules == ZootSettings()
    assert rules.ranks_for(2) == tuple(range(2, 10)) and rules.set_aside_for(2) == 2
    assert rules.ranks_for(3) == tuple(range(2, 14)) and rules.set_aside_for(3) == 3
    assert rules.ranks_for(4) == tuple(range(1, 14)) and rules.set_aside_for(4) == 0
    sizes = {n: ZootSettings(players=n) for n in (2, 3, 4)}
    assert [sizes[n].deck.size for n in (2, 3, 4)] == [32, 48, 52]
    assert [sizes[n].cards_per_player for n in (2, 3, 4)] == [15, 15, 13]
    assert [sizes[n].rounds for n in (2, 3, 4)] == [2, 3, 4]
    assert rules.draw_pile_cards == 5 and not rules.build_draw_pile and rules.place_last_card
    assert rules.place_min > rules.cards_per_player  # no placing in the base game
    assert (rules.points_per_trick, rules.points_per_pair, rules.points_per_equal_pair) == (1, 3, 5)
    assert rules.intermediate_scoring == "none"
    assert list(rules.suit_points) == [0, 0, 0, 0, 0]
    assert rules.unique_suit_points == (1, 5, 10, 20)


def test_the_rulebook_file_loads_to_the_defaults() -> None:
    scenario = tomllib.loads(
        (SIMULATIONS / "short-zoot-suit-rulebook.toml").read_text(encoding="utf-8")
    )
    assert scenario["game"] == "short-zoot-suit"
    assert settings_from_table(scenario["settings"]) == ZootSettings()
    names = sorted(p.name for p in SIMULATIONS.glob("short-zoot-suit-*.toml"))
    assert "short-zoot-suit-seans-short-shorts.toml" in names
    for name in names:
        data = tomllib.loads((SIMULATIONS / name).read_text(encoding="utf-8"))
        settings_from_table(data.get("settings", {}))
        parse_lineup(data["run"]["players"], GAME.strategies)


def test_settings_round_trip_through_the_manifest_format() -> None:
    rules = settings_from_table(
        {
            "deck_ranks": {"2": "2-8, 13"},
            "set_aside": {"3": 0},
            "draw_pile_cards": 0,
            "build_draw_pile": True,
            "place_last_card": False,
            "intermediate_scoring": "unique-suits",
            "unique_suit_points": [1, 3, 10, 20],
        }
    )
    again = settings_from_table(rules.to_dict())
    assert again == rules
    assert again.ranks_for(2) == (2, 3, 4, 5, 6, 7, 8, 13) and again.set_aside_for(3) == 0
    assert list(again.suit_points) == [0, 1, 3, 10, 20]


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"draw_piles": 5}, "draw_piles", "allowed are"),
        ({"players": 5}, "players", "from 2 to 4"),
        ({"draw_pile_cards": -1}, "draw_pile_cards", "from 0 to 32"),
        ({"draw_pile_cards": 13}, "draw_pile_cards", "give 0 to 12"),
        ({"draw_pile_cards": 2.5}, "draw_pile_cards", "whole number"),
        ({"build_draw_pile": "yes"}, "build_draw_pile", "true or false"),
        ({"place_last_card": 1}, "place_last_card", "true or false"),
        ({"points_per_pair": -3}, "points_per_pair", "from 0"),
        ({"intermediate_scoring": "starred"}, "intermediate_scoring", "none, unique-suits"),
        ({"unique_suit_points": [1, 5, 10]}, "unique_suit_points", "list of 4"),
        ({"unique_suit_points": [1, 5, "x", 20]}, "unique_suit_points[2]", "whole number"),
        ({"rounds_per_player": 0}, "rounds_per_player", "from 1"),
        ({"deck_ranks": {"4": "1-1O"}}, "deck_ranks.4", "'1-1O'"),
        ({"deck_ranks": {"5": "1-13"}}, "deck_ranks.5", "allowed are 2, 3, 4"),
        ({"deck_ranks": "1-13"}, "deck_ranks", "table by player count"),
        ({"set_aside": {"4": 1}}, "set_aside.4", "multiple of 4"),
        ({"set_aside": {"4": 99}}, "set_aside.4", "from 0 to 64"),
    ],
)
def test_errors_name_the_key_and_what_is_allowed(table, key, fragment) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == key
    assert fragment in str(error.value)
    assert "\n" not in str(error.value)


def test_lineup_sets_the_player_count_and_checks_its_deck() -> None:
    rules = GAME.settings_for_lineup(ZootSettings(), parse_lineup("balanced*3", GAME.strategies))
    assert rules.players == 3 and rules.cards_per_player == 15
    with pytest.raises(SettingsError, match="2 to 4 players"):
        GAME.settings_for_lineup(ZootSettings(), parse_lineup("random*5", GAME.strategies))
    odd = settings_from_table({"set_aside": {"2": 1}})  # fine for 4 players ...
    with pytest.raises(SettingsError) as error:  # ... but 31 cards do not deal to 2
        GAME.settings_for_lineup(odd, parse_lineup("random*2", GAME.strategies))
    assert error.value.key == "set_aside.2"


# --- scoring: the rulebook's examples ------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "tricks", "shorts", "points"),
    [
        # "Brother Berenstain won 1 trick and has 1 short: 1 point for 1 won trick and 5
        # points for the 1 equal pair: 6 total points."
        ("Brother Berenstain", 1, 1, 6),
        # "Sister Berenstain won 3 tricks and has 3 shorts: 3 points for 3 won tricks and 15
        # points for the 3 equal pairs: 18 total."
        ("Sister Berenstain", 3, 3, 18),
        # "Ditka won 3 tricks and has 2 shorts: 3 points for 3 won tricks and 6 points for
        # the 2 unequal pairs: 9 total."
        ("Ditka", 3, 2, 9),
        # "Smokey won 1 trick and shorted 6 times: 1 point for 1 won trick and 3 points for
        # the 1 pair: 4 total."
        ("Smokey", 1, 6, 4),
        # "Baron won 4 tricks and didn't short: 4 points for 4 won tricks."
        ("Baron", 4, 0, 4),
        # "Winnie won no tricks and shorted 2 times: 0 points"
        ("Winnie", 0, 2, 0),
    ],
)
def test_the_rulebook_scoring_examples(who: str, tricks: int, shorts: int, points: int) -> None:
    """ "Players earn 1 point per trick won and 3 points for each pair of won trick and card
    in their shorts pile. If the number of tricks they won equals the number of shorts, the
    player earns 5 points per pair rather than just 3 points." """
    assert score_round(ZootSettings(), tricks, shorts) == points, who


def test_points_by_source_in_the_examples() -> None:
    """Sister Berenstain's 18: 3 for tricks, 9 for three pairs at 3, 6 more for equality."""
    rules = ZootSettings()
    parts = round_points(3, 3, 0, 1, 3, 5, rules.suit_points)
    assert parts == (3, 9, 6, 0)
    assert round_points(3, 2, 0, 1, 3, 5, rules.suit_points) == (3, 6, 0, 0)  # Ditka


@pytest.mark.parametrize(
    ("who", "suits", "card_table", "example_table"),
    [
        # "Paddington shorted 2 spades and 1 heart, they get 3 bonus points for 2 different
        # suits." The card's table says 5; the example says 3 (rules decision #9).
        ("Paddington", 2, 5, 3),
        # "Baloo shorted 1 spade, 1 diamond, 1 heart, and 3 clubs, they get 20 bonus points."
        ("Baloo", 4, 20, 20),
        # "Grills didn't short at all and got 0 bonus points."
        ("Grills", 0, 0, 0),
    ],
)
def test_the_intermediate_scoring_examples(who, suits, card_table, example_table) -> None:
    """ "players count the number of different suits in their shorts pile and get points
    based on that number" (table 1, 2, 3, 4 suits: 1, 5, 10, 20)."""
    card = settings_from_table({"intermediate_scoring": "unique-suits"})
    example = settings_from_table(
        {"intermediate_scoring": "unique-suits", "unique_suit_points": [1, 3, 10, 20]}
    )
    assert card.suit_points[suits] == card_table, who
    assert example.suit_points[suits] == example_table, who
    # the bonus is added to the round's other points (no tricks won here)
    shorts = {"Paddington": 3, "Baloo": 6, "Grills": 0}[who]
    assert score_round(card, 0, shorts, suits) == card_table


@given(
    st.integers(0, 32),
    st.integers(0, 32),
    st.integers(0, 4),
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(0, 20),
)
def test_scoring_is_as_written(tricks, shorts, suits, per_trick, per_pair, per_equal) -> None:
    """Points = per_trick x tricks + min(tricks, shorts) x (per_equal if tricks == shorts
    else per_pair) + the suits table; the sources add up to it."""
    rules = ZootSettings(
        points_per_trick=per_trick,
        points_per_pair=per_pair,
        points_per_equal_pair=per_equal,
        intermediate_scoring="unique-suits",
    )
    pairs = min(tricks, shorts)
    expected = per_trick * tricks + pairs * (per_equal if tricks == shorts else per_pair)
    expected += [0, 1, 5, 10, 20][suits]
    assert score_round(rules, tricks, shorts, suits) == expected
