"""Tests for parsing player lineups such as ``--players bayes:doubt=0.35,bluff=0.2,random``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zooanalysis.errors import UserError
from zooanalysis.strategy_spec import (
    ParamSpec,
    PlayerSpec,
    StrategyInfo,
    format_number,
    parse_lineup,
    parse_player,
)

BAYES = StrategyInfo(
    "bayes",
    "believes what is likely",
    (
        ParamSpec("doubt", 0.35, 0.0, 1.0, "doubt below this"),
        ParamSpec("bluff", 0.1, 0.0, 1.0, "bluff this often"),
    ),
)
AGGRESSIVE = StrategyInfo(
    "aggressive",
    "raises hard",
    (
        ParamSpec("raise", 2, 1, 5, "raise by", integer=True),
        ParamSpec("margin", 0.0, -5.0, 10.0, "margin"),
    ),
)
STRATEGIES = {
    "random": StrategyInfo("random", "random legal play"),
    "bayes": BAYES,
    "cautious": StrategyInfo("cautious", "trusts what it saw"),
    "aggressive": AGGRESSIVE,
}


def lineup(text: str) -> list[PlayerSpec]:
    return parse_lineup(text, STRATEGIES)


def error(text: str, option: str = "--players") -> str:
    with pytest.raises(UserError) as info:
        parse_lineup(text, STRATEGIES, option=option)
    message = str(info.value)
    assert message.startswith(f"{option}: ")
    assert "\n" not in message
    return message


# --- dataclasses -------------------------------------------------------------------------------


def test_defaults_in_order() -> None:
    assert BAYES.defaults() == {"doubt": 0.35, "bluff": 0.1}
    assert list(AGGRESSIVE.defaults()) == ["raise", "margin"]
    assert STRATEGIES["random"].defaults() == {}


def test_param_spec_must_be_consistent() -> None:
    with pytest.raises(ValueError):
        ParamSpec("x", 2.0, 0.0, 1.0, "default above high")
    with pytest.raises(ValueError):
        ParamSpec("n", 1.5, 0, 3, "integer with fractional default", integer=True)


def test_player_spec_accessors() -> None:
    player = parse_player("bayes:bluff=0.2", STRATEGIES)
    assert player.strategy == "bayes"
    assert player.params == (("doubt", 0.35), ("bluff", 0.2))
    assert player.param("bluff") == 0.2
    assert player.param("doubt") == 0.35
    assert player.as_dict() == {"doubt": 0.35, "bluff": 0.2}
    with pytest.raises(KeyError):
        player.param("nope")


def test_player_specs_are_hashable_values() -> None:
    a = parse_player("bayes:doubt=0.5", STRATEGIES)
    b = parse_player("BAYES : doubt = 0.50", STRATEGIES)
    assert a == b
    assert hash(a) == hash(b)
    assert a == PlayerSpec("bayes", (("doubt", 0.5), ("bluff", 0.1)))


# --- labels ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("bayes", "bayes"),
        ("bayes:doubt=0.35", "bayes"),
        ("bayes:doubt=0.35000", "bayes"),
        ("bayes:bluff=0.2", "bayes:bluff=0.2"),
        ("bayes:bluff=0.2,doubt=0.5", "bayes:doubt=0.5,bluff=0.2"),
        ("bayes:doubt=1", "bayes:doubt=1"),
        ("bayes:doubt=1.0", "bayes:doubt=1"),
        ("aggressive:raise=4", "aggressive:raise=4"),
        ("aggressive:raise=4.0", "aggressive:raise=4"),
        ("aggressive:margin=-2.5", "aggressive:margin=-2.5"),
        ("random", "random"),
    ],
)
def test_label(text: str, label: str) -> None:
    assert parse_player(text, STRATEGIES).label == label


def test_label_without_known_defaults_lists_all_params() -> None:
    assert PlayerSpec("bayes", (("doubt", 0.35), ("bluff", 0.1))).label == (
        "bayes:doubt=0.35,bluff=0.1"
    )
    assert PlayerSpec("random").label == "random"


@pytest.mark.parametrize(
    ("value", "text"), [(0.35, "0.35"), (2.0, "2"), (3, "3"), (-1.5, "-1.5"), (1e-7, "1e-07")]
)
def test_format_number(value: float, text: str) -> None:
    assert format_number(value) == text


def test_integer_params_are_ints() -> None:
    player = parse_player("aggressive:raise=3.0", STRATEGIES)
    assert player.param("raise") == 3
    assert type(player.param("raise")) is int
    assert type(parse_player("aggressive", STRATEGIES).param("raise")) is int
    assert type(player.param("margin")) is float


@given(
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    st.integers(min_value=1, max_value=5),
    st.floats(min_value=-5.0, max_value=10.0, allow_nan=False),
)
def test_labels_parse_back(doubt: float, bluff: float, raise_: int, margin: float) -> None:
    players = [
        parse_player(f"bayes:doubt={doubt!r},bluff={bluff!r}", STRATEGIES),
        parse_player(f"aggressive:raise={raise_},margin={margin!r}", STRATEGIES),
    ]
    for player in players:
        assert parse_player(player.label, STRATEGIES) == player
    assert lineup(",".join(p.label for p in players)) == players


# --- lineups -----------------------------------------------------------------------------------


def test_plain_lineup() -> None:
    players = lineup("bayes,bayes,cautious,random")
    assert [p.strategy for p in players] == ["bayes", "bayes", "cautious", "random"]
    assert players[0].params == (("doubt", 0.35), ("bluff", 0.1))
    assert players[2].params == ()


def test_params_continue_over_commas() -> None:
    players = lineup("bayes:doubt=0.35,bluff=0.2,random")
    assert len(players) == 2
    assert players[0].as_dict() == {"doubt": 0.35, "bluff": 0.2}
    assert players[1] == PlayerSpec("random", ())


def test_two_players_with_params() -> None:
    players = lineup("bayes:doubt=0.5,aggressive:raise=3,margin=1,bayes:bluff=0")
    assert [p.label for p in players] == [
        "bayes:doubt=0.5",
        "aggressive:raise=3,margin=1",
        "bayes:bluff=0",
    ]


def test_whitespace_and_case_are_ignored() -> None:
    players = lineup("  Bayes : DOUBT = 0.3 , Bluff=0.2 ,  RANDOM  ")
    assert [p.label for p in players] == ["bayes:doubt=0.3,bluff=0.2", "random"]


def test_repeats() -> None:
    players = lineup("bayes*2,random*2")
    assert [p.strategy for p in players] == ["bayes", "bayes", "random", "random"]
    assert [p.strategy for p in lineup("random * 3, cautious")] == ["random"] * 3 + ["cautious"]
    assert lineup("bayes*1") == lineup("bayes")


def test_repeat_with_params() -> None:
    players = lineup("bayes*2:doubt=0.3,bluff=0.2,random")
    assert [p.label for p in players] == ["bayes:doubt=0.3,bluff=0.2"] * 2 + ["random"]


def test_a_trailing_repeat_repeats_the_whole_player() -> None:
    # A parameter value is a number, so a trailing *N belongs to the player, not the value.
    players = lineup("bayes:doubt=0.25,bluff=0.2*3")
    assert [p.as_dict() for p in players] == [{"doubt": 0.25, "bluff": 0.2}] * 3
    assert lineup("bayes:doubt=0.35,bluff=0.2*3") == lineup("bayes*3:doubt=0.35,bluff=0.2")
    assert [p.label for p in lineup("random*4")] == ["random"] * 4
    assert [p.label for p in lineup("aggressive:margin=1 * 2")] == ["aggressive:margin=1"] * 2


def test_a_trailing_repeat_in_a_mixed_lineup() -> None:
    players = lineup("random,aggressive:raise=3,margin=1*2,bayes:doubt=0.3*2,cautious")
    assert [p.label for p in players] == [
        "random",
        "aggressive:raise=3,margin=1",
        "aggressive:raise=3,margin=1",
        "bayes:doubt=0.3",
        "bayes:doubt=0.3",
        "cautious",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "bayes:doubt=0.3,bluff=0.2*0",
        "bayes:doubt=0.3,bluff=0.2*x",
        "bayes:doubt=0.3*",
        "bayes:doubt=0.3*1001",
        "bayes:doubt=0.3*2*2",
    ],
)
def test_bad_trailing_repeat(text: str) -> None:
    message = error(text)
    assert f"bad repeat count in {text!r}" in message
    assert "\n" not in message
    assert message.endswith("such as random*3 or bayes:doubt=0.3,bluff=0.2*2")


@pytest.mark.parametrize("text", ["bayes:doubt=0.3*2,bluff=0.2", "bayes*2:doubt=0.3*2"])
def test_misplaced_or_second_repeat(text: str) -> None:
    message = error(text)
    assert f"misplaced repeat in {text!r}" in message
    assert "at the end of its player" in message


def test_single_player_lineup() -> None:
    assert lineup("random") == [PlayerSpec("random", ())]


def test_mapping_keys_are_case_insensitive() -> None:
    upper = {"BAYES": BAYES}
    assert parse_lineup("bayes", upper)[0].strategy == "bayes"


# --- errors ------------------------------------------------------------------------------------


def test_unknown_strategy_exact_message() -> None:
    assert error("bayz") == (
        "--players: unknown strategy 'bayz'; allowed are aggressive, bayes, cautious, random"
    )


def test_unknown_strategy_in_lineup_names_whole_input() -> None:
    message = error("random,bayz:doubt=0.3")
    assert "unknown strategy 'bayz'" in message
    assert "'random,bayz:doubt=0.3'" in message
    assert "allowed are aggressive, bayes, cautious, random" in message


def test_unknown_parameter_lists_parameters() -> None:
    message = error("bayes:dobut=0.3")
    assert "'dobut'" in message
    assert "'bayes:dobut=0.3'" in message
    assert message.endswith("bayes takes doubt, bluff")


def test_parameter_for_strategy_without_parameters() -> None:
    message = error("random:speed=2")
    assert "'speed'" in message
    assert message.endswith("random takes no parameters")


def test_continuation_goes_to_previous_player() -> None:
    # bluff belongs to random here, which takes no parameters
    message = error("bayes:doubt=0.3,random,bluff=0.2")
    assert "'bluff'" in message
    assert "random takes no parameters" in message


@pytest.mark.parametrize("value", ["abc", "", "nan", "inf", "1/2"])
def test_malformed_value(value: str) -> None:
    text = f"bayes:bluff={value}"
    message = error(text)
    assert f"'bluff={value}' is not a number" in message
    assert repr(text) in message
    assert "give a number from 0 to 1" in message


@pytest.mark.parametrize("text", ["bayes:doubt=1.5", "bayes:doubt=-0.1"])
def test_value_out_of_range(text: str) -> None:
    message = error(text)
    assert "out of range" in message
    assert repr(text) in message
    assert message.endswith("give a number from 0 to 1")


def test_range_includes_its_ends() -> None:
    assert lineup("bayes:doubt=0,bluff=1")[0].as_dict() == {"doubt": 0.0, "bluff": 1.0}
    assert lineup("aggressive:margin=-5")[0].param("margin") == -5.0


def test_integer_param_given_fraction() -> None:
    message = error("aggressive:raise=2.5")
    assert "'raise=2.5' is not a whole number" in message
    assert message.endswith("give a whole number from 1 to 5")


def test_integer_param_out_of_range() -> None:
    message = error("aggressive:raise=9")
    assert "out of range" in message
    assert message.endswith("give a whole number from 1 to 5")


def test_duplicate_parameter() -> None:
    message = error("bayes:doubt=0.3,doubt=0.4")
    assert "doubt is given twice" in message
    assert "'bayes:doubt=0.3,doubt=0.4'" in message
    assert "at most once" in message


def test_duplicate_parameter_differing_in_case() -> None:
    assert "given twice" in error("bayes:doubt=0.3,DOUBT=0.3")


@pytest.mark.parametrize("text", ["bayes,,random", ",bayes", "bayes,", "bayes, ,random"])
def test_empty_player(text: str) -> None:
    message = error(text)
    assert "empty player" in message
    assert repr(text) in message


@pytest.mark.parametrize("text", ["", "   "])
def test_no_players(text: str) -> None:
    message = error(text)
    assert "no players given" in message
    assert repr(text) in message


def test_missing_strategy_name() -> None:
    message = error(":doubt=0.3")
    assert "missing strategy name in ':doubt=0.3'" in message


def test_parameter_before_any_player() -> None:
    message = error("doubt=0.3,bayes")
    assert "parameter 'doubt=0.3' comes before any player" in message
    assert "'doubt=0.3,bayes'" in message


@pytest.mark.parametrize("text", ["bayes:", "bayes:0.3", "bayes:=0.3"])
def test_not_key_value(text: str) -> None:
    message = error(text)
    assert repr(text) in message
    assert "bayes takes doubt, bluff" in message


@pytest.mark.parametrize(
    "text", ["random*0", "random*x", "random*", "random*-1", "random*1001", "random*" + "9" * 5000]
)
def test_bad_repeat(text: str) -> None:
    message = error(text)
    assert f"bad repeat count in {text!r}" in message
    assert "name*N" in message


def test_option_name_is_used() -> None:
    message = error("bayz", option="--opponents")
    assert message.startswith("--opponents: unknown strategy 'bayz'")
    with pytest.raises(UserError, match=r"^--seat: unknown strategy 'x'"):
        parse_player("x", STRATEGIES, option="--seat")


def test_parse_player_errors() -> None:
    with pytest.raises(UserError, match=r"^--players: unknown strategy 'bayz'; allowed are"):
        parse_player("bayz", STRATEGIES)
    with pytest.raises(UserError, match=r"out of range"):
        parse_player("bayes:doubt=2", STRATEGIES)


def test_newlines_in_input_stay_on_one_line() -> None:
    message = error("bayes\nrandom")
    assert "'bayes\\nrandom'" in message
