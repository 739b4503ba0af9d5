"""Chai Tea Jazz's settings: every rule number from a scenario's ``[settings]`` table,
checked with errors naming the key; the decks, deals and Barrel cards of every player
count; contract lists as TOML tables, undefined contracts refused."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from zooanalysis.cards.encoding import CLUBS, DIAMONDS, HEARTS, NO_SUIT, SPADES
from zooanalysis.cards.orders import ACES_HIGH, DOWN, MIDDLE_OUT, NUMERIC, SLALOM, UP
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.errors import SettingsError
from zooanalysis.games.chai_tea_jazz.contracts import PRESETS, standard_contracts
from zooanalysis.games.chai_tea_jazz.game import GAME
from zooanalysis.games.chai_tea_jazz.rules import (
    ChaiSettings,
    debt_amounts,
    settings_from_table,
)
from zooanalysis.strategy_spec import parse_lineup

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def labels(settings: ChaiSettings) -> list[str]:
    return [settings.option_label(i) for i in range(len(settings.options))]


def test_defaults_are_the_rulebook() -> None:
    """ "The deck is 36 cards consisting of ranks 1-9 in four suits. Shuffle the deck and deal
    all cards equally, 12 to each." "The standard game lasts 12 rounds: 4 contracts, each
    played by the three players." """
    rules = settings_from_table({})
    assert rules == ChaiSettings()
    assert rules.deck_spec.size == 36 and rules.deck_spec.ranks == tuple(range(1, 10))
    assert rules.hand_cards == 12 and rules.tricks == 12 and rules.sides == 3
    assert rules.rounds == 12
    assert [c.name for c in rules.contracts] == ["Trump", "Under", "Slalom", "Joker"]
    assert [c.value for c in rules.contracts] == [1, 2, 2, 3]
    # "all of the odd cards have points ... as there are 100 total points on the cards"
    assert rules.deck_points == 100
    assert rules.last_trick == 10
    # "the 5-point Barrel card": 5 up to 35
    assert debt_amounts(rules, 0) == [5, 10, 15, 20, 25, 30, 35]
    assert debt_amounts(rules, 35) == []


def test_the_standard_options() -> None:
    """Trump: "decides which of the four suits is trump ... No trump suit is not allowed";
    Under: "1>2>3..>9"; Slalom: "the picking player chooses whether the round starts with the
    highest being the strongest or the lowest"; Joker: "whichever of the above contracts"."""
    rules = ChaiSettings()
    assert labels(rules) == [
        "Trump: Trump (Clubs)",
        "Trump: Trump (Diamonds)",
        "Trump: Trump (Hearts)",
        "Trump: Trump (Spades)",
        "Under: Under",
        "Slalom: Slalom (high first)",
        "Slalom: Slalom (low first)",
        "Joker: Trump (Clubs)",
        "Joker: Trump (Diamonds)",
        "Joker: Trump (Hearts)",
        "Joker: Trump (Spades)",
        "Joker: Under",
        "Joker: Slalom (high first)",
        "Joker: Slalom (low first)",
    ]
    ways = {option.way.label: option.way for option in rules.options}
    assert ways["Trump (Hearts)"].key() == (HEARTS, NUMERIC, UP, 0)
    assert ways["Under"].key() == (NO_SUIT, NUMERIC, DOWN, 0)
    assert ways["Slalom (low first)"].key() == (NO_SUIT, NUMERIC, DOWN, SLALOM)


def test_other_player_counts() -> None:
    """2 players: "Each player is dealt 17 cards ... Set aside 2 cards facedown"; 4 players:
    "the players dealt 9 cards each", "the 3 point increment card"; 6 players: "1-13, in four
    suits, plus 2 Jokers. Players are dealt 9 cards each.", "The final trick is now worth 20
    points."; "Each contract is only played twice, once for each team." """
    two, four, six = (ChaiSettings(players=n) for n in (2, 4, 6))
    assert (two.hand_cards, two.straw_piles, two.set_aside, two.tricks) == (7, 5, 2, 17)
    assert two.sides == 2 and two.rounds == 8 and two.last_trick == 10 and two.step == 5
    assert (four.hand_cards, four.tricks, four.sides, four.team_size) == (9, 9, 2, 2)
    assert [four.side_of(s) for s in range(4)] == [0, 1, 0, 1]  # "A,B,A,B"
    assert four.rounds == 8 and debt_amounts(four, 0) == [3, 6, 9, 12, 15, 18, 21]
    assert six.deck_spec.size == 54 and six.deck_spec.jokers == 2 and six.hand_cards == 9
    assert [six.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]  # "A,B,A,B,A,B"
    assert six.last_trick == 20 and six.max_debt == 21 and six.ties == LATER_WINS


def test_the_six_player_decks_hold_200_points() -> None:
    """ "There are now 200 total points in the deck." The odd cards of 1-13 in four suits hold
    196; the two Jokers make up the rest at 2 points each (docs/rules-decisions.md). "If a
    more balanced deck is desired, players can make a double deck with 2 copies of 1-9 ...
    This would keep the 200 points in the deck ... the earlier played card wins, if there is
    a tie." """
    six = ChaiSettings(players=6)
    assert six.deck_points == 200
    assert ChaiSettings(players=6, joker_points=0).deck_points == 196
    double = ChaiSettings(players=6, deck="double")
    assert double.deck_spec.size == 72 and double.hand_cards == 12
    assert double.deck_points == 200 and double.ties == EARLIER_WINS


def test_the_jass_deck() -> None:
    """ "You simply use the deck makeup of 6,7,8,9,10,U,O,K,A." The ace is high; the odd
    ranks score their rank (7, 9, J 11, K 13, A 1)."""
    jass = ChaiSettings(deck="jass")
    assert jass.deck_spec.ranks == (1, 6, 7, 8, 9, 10, 11, 12, 13)
    assert jass.deck_points == 4 * (1 + 7 + 9 + 11 + 13)
    assert {o.way.order for o in jass.options} == {ACES_HIGH}
    valued = settings_from_table({"deck": "jass", "rank_points": {"A": 11, "10": 10, "K": 4}})
    assert valued.deck_points == 4 * 25


def test_contract_lists_as_tables() -> None:
    """Custom contracts: "Black Suit Trump, Red Suit Trump ... Over, Slalom, Pyramid ...
    Joker"; "Pyramid ... 6 tricks either Up or Down, then 6 tricks the other way"; "Middle
    ... 5, 4, 6, 3, 7, 2, 8, 1, 9"; "Trump Under"; "Avoidance"; "Get second place within the
    row"."""
    rules = settings_from_table(
        {
            "contracts": [
                {"name": "Black", "plays": ["trump"], "suits": "black", "value": 1},
                {"name": "Pyramid", "play": "pyramid", "value": 2},
                {"name": "Middle", "play": "middle", "value": 2},
                {"name": "Trump Under", "play": "trump-under", "suits": "red", "value": 2},
                {"name": "Avoid", "play": "avoidance", "value": 2, "second_place": True},
                {"name": "Joker", "play": "joker", "value": 3},
            ]
        }
    )
    by_row = {}
    for option in rules.options:
        by_row.setdefault(rules.contracts[option.row].name, []).append(option.way)
    assert [w.trump for w in by_row["Black"]] == [CLUBS, SPADES]
    assert [(w.direction, w.flip) for w in by_row["Pyramid"]] == [(UP, 6), (DOWN, 6)]
    assert by_row["Middle"][0].order == MIDDLE_OUT
    assert [(w.trump, w.direction) for w in by_row["Trump Under"]] == [
        (DIAMONDS, DOWN),
        (HEARTS, DOWN),
    ]
    assert rules.contracts[4].avoid and list(rules.place_points[4]) == [-2, 2, 0]
    # the Joker plays every other row's ways, but not Avoidance's (it ranks the other way)
    assert len(by_row["Joker"]) == 2 + 2 + 1 + 2
    assert settings_from_table(rules.to_dict()) == rules


def test_pyramid_on_rounds_other_than_twelve_tricks() -> None:
    """Half the round each way by default (9 tricks: 5 then 4), or a fixed number."""
    four = settings_from_table({"players": 4, "contracts": "custom-example"})
    assert {o.way.flip for o in four.options if o.way.play == "pyramid"} == {5}
    fixed = settings_from_table({"players": 4, "contracts": "custom-example",
                                 "pyramid_tricks": 6})  # fmt: skip
    assert {o.way.flip for o in fixed.options if o.way.play == "pyramid"} == {6}


def test_presets_and_round_trip() -> None:
    assert settings_from_table({"contracts": "standard"}).contracts == standard_contracts()
    for name, preset in PRESETS.items():
        rules = settings_from_table({"contracts": name})
        assert rules.contracts == preset
        assert rules.to_dict()["contracts"] == name
        assert settings_from_table(rules.to_dict()) == rules
    rules = settings_from_table(
        {"players": 6, "deck": "double", "match_points": 1, "passing_the_barrel": True,
         "cumulative": "least", "bet_max": {"6": 30}, "rank_points": {"1-9": 1}}
    )  # fmt: skip
    assert settings_from_table(rules.to_dict()) == rules
    assert rules.max_debt == 30 and rules.deck_points == 72


def test_the_rulebook_file_loads_to_the_defaults() -> None:
    scenario = tomllib.loads((SIMULATIONS / "chai-tea-jazz-rulebook.toml").read_text("utf-8"))
    assert scenario["game"] == "chai-tea-jazz"
    assert settings_from_table(scenario["settings"]) == ChaiSettings()
    names = sorted(p.name for p in SIMULATIONS.glob("chai-tea-jazz-*.toml"))
    assert len(names) >= 4
    for name in names:
        data = tomllib.loads((SIMULATIONS / name).read_text(encoding="utf-8"))
        rules = settings_from_table(data.get("settings", {}))
        lineup = parse_lineup(data["run"]["players"], GAME.strategies)
        GAME.settings_for_lineup(rules, lineup)


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"players": 5}, "players", "2, 3, 4 or 6"),
        ({"players": 7}, "players", "from 2 to 6"),
        ({"deck": "tarot"}, "deck", "rulebook, double, jass"),
        ({"repick": "same"}, "repick", "different-bid"),
        ({"cumulative": "yes"}, "cumulative", "most"),
        ({"early_end": 1}, "early_end", "true or false"),
        ({"match_points": -1}, "match_points", "0 to 100"),
        ({"bet_step": {"3": 0}}, "bet_step.3", "1 to 200"),
        ({"bet_max": {"5": 10}}, "bet_max.5", "allowed are"),
        ({"last_trick_points": 10}, "last_trick_points", "by player count"),
        ({"rank_points": {"Z": 3}}, "rank_points.Z", "rank"),
        ({"contracts": "jass"}, "contracts", "standard"),
        ({"contracts": []}, "contracts", "preset name"),
        ({"contracts": [{"name": "Long", "play": "long", "value": 3}]}, "contracts[0].play",
         "never defined"),
        ({"contracts": [{"name": "S", "plays": ["under", "short"], "value": 2}]},
         "contracts[0].plays[1]", "never defined"),
        ({"contracts": [{"play": "bridge", "value": 2}]}, "contracts[0].play", "unknown play"),
        ({"contracts": [{"play": "trump", "value": 1, "suits": "pink"}]}, "contracts[0].suits",
         "black"),
        ({"contracts": [{"play": "trump"}]}, "contracts[0].value", "missing"),
        ({"contracts": [{"play": "trump", "value": 1, "colour": "red"}]},
         "contracts[0].colour", "unknown setting"),
        ({"contracts": [{"play": "joker", "value": 3}]}, "contracts", "Jokers only"),
        ({"contracts": [{"name": "A", "play": "under", "value": 2},
                        {"name": "A", "play": "over", "value": 2}]}, "contracts[1].name",
         "names two rows"),
        ({"players": 4, "contracts": [{"play": "under", "value": 2, "second_place": True}]},
         "contracts[0].second_place", "three sides"),
        ({"deck": "jass", "contracts": [{"play": "middle", "value": 2}]}, "contracts",
         "Middle"),
        ({"players": 2, "two_player_hand": 8}, "two_player_hand", "whole deck"),
        ({"players": 4, "deck": "jass", "two_player_hand": 6}, None, None),
        ({"unknown": 1}, "unknown", "unknown setting"),
    ],
)  # fmt: skip
def test_bad_values_name_the_key(table, key, fragment) -> None:
    if key is None:
        settings_from_table(table)  # 2-player settings do not matter with 4 players
        return
    with pytest.raises(SettingsError) as caught:
        settings_from_table(table)
    assert caught.value.key == key
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)


def test_undefined_contracts_say_where_the_rulebook_names_them() -> None:
    """ "3rd Tier (Worth 3 Game Points): Joker Joker Joker Long" and the Jass list's "Short"
    are never defined."""
    for name, where in (("Long", "Custom Contracts Setups"), ("Short", "Jass")):
        with pytest.raises(SettingsError, match=where):
            settings_from_table({"contracts": [{"play": name, "value": 3}]})


def test_the_player_count_comes_from_the_lineup() -> None:
    lineup = parse_lineup("random*4", GAME.strategies)
    rules = GAME.settings_for_lineup(ChaiSettings(), lineup)
    assert rules.players == 4 and rules.sides == 2
    with pytest.raises(SettingsError, match="2, 3, 4 or 6"):
        GAME.settings_for_lineup(ChaiSettings(), parse_lineup("random*5", GAME.strategies))
