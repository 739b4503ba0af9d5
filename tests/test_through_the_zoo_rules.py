"""Through the Zoo's settings and plain rules: the rulebook file loads to the defaults, bad
values name the key and what is allowed, Numberwang is refused, and the round ranking and
tie break do what the rulebook says (its Hearts example included)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.errors import SettingsError
from zooanalysis.games.through_the_zoo import kernel
from zooanalysis.games.through_the_zoo.engine import exhibit_slots
from zooanalysis.games.through_the_zoo.rules import (
    ThroughTheZooSettings,
    final_standing,
    round_points,
    settings_from_table,
)

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_the_rulebook_file_is_the_defaults() -> None:
    table = tomllib.loads((SIMULATIONS / "through-the-zoo-rulebook.toml").read_text())
    assert table["game"] == "through-the-zoo"
    rules = settings_from_table(table["settings"])
    assert rules.to_dict() == ThroughTheZooSettings().to_dict()  # the same game
    assert set(table["settings"]) == set(ThroughTheZooSettings.__dataclass_fields__)
    assert rules.mulligan == 13 and rules.shuffles_back, '"Mulligan up to 13. Shuffle your deck"'
    assert rules.rounds == 4 and rules.hand_size == 13
    joburg = settings_from_table({"zoo": "johannesburg"})
    assert joburg.mulligan == 7 and not joburg.shuffles_back, '"Mulligan up to 7 ... never shuffle"'
    assert joburg.meta == 1 and rules.meta == 0, '"Fewest Diamonds total" is Johannesburg\'s'


def test_settings_round_trip_through_the_manifest_format() -> None:
    rules = settings_from_table({"zoo": "johannesburg", "players": 2, "tie_break": "shared",
                                 "points_2": [2, 0], "play": {"dodgeball": "dodger"},
                                 "exhibits": ["dodgeball"] * 3})
    assert settings_from_table(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("table", "key", "allowed"),
    [
        ({"zoo": "berlin"}, "zoo", "zooklyn, johannesburg"),
        ({"players": 5}, "players", "2"),
        ({"hand_size": 14}, "hand_size", "13"),
        ({"mulligan_limit": 20}, "mulligan_limit", "13"),
        ({"points_4": [3, 2, 1]}, "points_4", "list of 4"),
        ({"points_3": [9, 1, 0]}, "points_3", "7"),
        ({"exhibits": []}, "exhibits", "1 to 4"),
        ({"exhibits": ["dodgeball"] * 5}, "exhibits", "1 to 4"),
        ({"identical_cards": "random"}, "identical_cards", "earlier-wins"),
        ({"tie_break": "cry"}, "tie_break", "last-round"),
        ({"exhibit_order": "sorted"}, "exhibit_order", "shuffled"),
        ({"colour": 1}, "colour", ""),
        ({"play": {"zoology": "team"}}, "play.zoology", "exhibits"),
        ({"play": "dodger"}, "play", "table"),
        ({"start_seat": 3, "players": 3}, "start_seat", "0 to 2"),
        ({"exhibits": ["dodgeball"] * 4, "hand_size": 13, "mulligan_limit": -2},
         "mulligan_limit", "-1"),
    ],
)
def test_bad_values_name_the_key(table, key, allowed) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    message = str(error.value)
    assert key in message and allowed in message and "\n" not in message


def test_numberwang_is_refused_because_its_rules_are_not_in_the_rulebook() -> None:
    """The Numberwang Exhibit card only names the game ("4 papers are needed for each
    player to track the bids they make"): its rules are not in the rulebook."""
    rules = settings_from_table({"exhibits": ["dodgeball", "Numberwang", "dodgeball"]})
    with pytest.raises(SettingsError) as error:
        exhibit_slots(rules)
    assert "exhibits" in str(error.value) and "not in the rulebook" in str(error.value)


def test_without_exhibits_named_the_cards_are_the_rulebooks_for_the_player_count() -> None:
    """"Get all of the Exhibit cards for the player count": of the cards the rulebook shows,
    4 players get Hearts, Dodgeball ("T"), Big Two and Hearts for Numberwang; 2 and 3
    players Hearts and Big Two ("2 / 3 / 4"), twice each for the four rounds."""
    four = ThroughTheZooSettings()
    assert four.exhibit_cards == ("hearts", "dodgeball", "big-two", "hearts")
    assert four.to_dict()["exhibits"] == list(four.exhibit_cards)
    for players in (2, 3):
        fewer = settings_from_table({"players": players})
        assert fewer.exhibit_cards == ("hearts", "big-two", "hearts", "big-two")
        assert fewer.rounds == 4
        assert [slot.name for slot in exhibit_slots(fewer)] == list(fewer.exhibit_cards)
        assert settings_from_table(fewer.to_dict()).exhibit_cards == fewer.exhibit_cards
    named = settings_from_table({"players": 3, "exhibits": ["big-two"]})
    assert named.exhibit_cards == ("big-two",) and named.rounds == 1


def test_exhibits_that_cannot_be_played_are_refused() -> None:
    with pytest.raises(SettingsError) as error:
        exhibit_slots(settings_from_table({"players": 3, "exhibits": ["dodgeball", "hearts"]}))
    message = str(error.value)
    assert "4 players in teams" in message and "exhibits for 3 players: big-two, hearts" in message
    with pytest.raises(SettingsError, match="not a registered game"):
        exhibit_slots(settings_from_table({"exhibits": ["go-fish"]}))
    with pytest.raises(SettingsError, match="cannot be an exhibit"):
        exhibit_slots(settings_from_table({"exhibits": ["bluff"]}))
    with pytest.raises(SettingsError, match=r"play\.dodgeball"):
        exhibit_slots(settings_from_table({"play": {"dodgeball": "dodger,coach"}}))
    with pytest.raises(SettingsError, match=r"play\.dodgeball"):
        exhibit_slots(settings_from_table({"play": {"dodgeball": "nobody"}}))


def test_the_rulebooks_hearts_example() -> None:
    """"Parlett scored 5, Pagat scored 15, David scored 5, and McLeod scored 3. McLeod did
    best and gets 3 Game points. David and Parlett tied at second, so they get 2 Game points
    each. Pagat did the worst and gets 0 Game points, and not 1 Game point as he got last
    place." (Hearts: fewer points is better, so the standing is minus the points.)"""
    scores = {"Parlett": 5, "Pagat": 15, "David": 5, "McLeod": 3}
    points = round_points([-s for s in scores.values()], (3, 2, 1, 0), True)
    assert dict(zip(scores, points, strict=True)) == {
        "Parlett": 2, "Pagat": 0, "David": 2, "McLeod": 3,
    }
    # without the "last gets 0" reading Pagat would be third (dense rank): 1 point
    assert round_points([-5, -15, -5, -3], (3, 2, 1, 0), False) == [2, 1, 2, 3]


def test_ranks_and_ties_as_written() -> None:
    """"If players tie, they share the rank and do not bump the next ranking player(s) at
    all ... Tied players ranked last all get 0 points"; 3 and 2 players use their columns."""
    assert round_points([9, 9, 4, 1], (3, 2, 1, 0), True) == [3, 3, 2, 0]
    assert round_points([1, 1, 0, 0], (3, 2, 1, 0), True) == [3, 3, 0, 0]  # Dodgeball teams
    assert round_points([4, 4, 4, 4], (3, 2, 1, 0), True) == [0, 0, 0, 0]
    assert round_points([2, 7, 5], (2, 1, 0), True) == [0, 2, 1]
    assert round_points([3, 3, 1], (2, 1, 0), True) == [2, 2, 0]
    assert round_points([0, 1], (1, 0), True) == [0, 1]


def test_the_winner_and_the_tie_break() -> None:
    """"The player with the most Game points ... wins! If tied, the player who did the best
    in the last round wins. If still tied, the tied players share the victory"."""
    standing = final_standing([7, 7, 4, 7], [1, 3, 2, 3], "last-round")
    best = max(standing)
    assert [seat for seat, v in enumerate(standing) if v == best] == [1, 3]
    standing = final_standing([7, 6, 4, 5], [0, 3, 3, 3], "last-round")
    assert max(standing) == standing[0]
    shared = final_standing([7, 7, 4, 7], [1, 3, 2, 3], "shared")
    assert [seat for seat, v in enumerate(shared) if v == max(shared)] == [0, 1, 3]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4), st.lists(st.integers(-20, 20), min_size=4, max_size=4), st.booleans())
def test_the_kernel_ranks_rounds_as_the_rules(players, values, last_zero) -> None:
    rules = settings_from_table({"players": players, "last_gets_zero": last_zero,
                                 "exhibits": ["dodgeball"]})
    flat = kernel.flat_rules(rules)
    out = np.zeros(players, dtype=np.int64)
    standing = np.array(values[:players], dtype=np.int64)
    kernel.round_points(standing, players, flat, out)
    assert list(out) == round_points(values[:players], rules.points, last_zero)
