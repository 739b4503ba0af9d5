"""Hodge Podge Dodgeball's settings and plain rules: the rulebook file loads to the defaults,
bad values name the key and what is allowed, and the small rule functions (trick
resolution, bench choices, the Match Point card) do what the rulebook says."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import cli
from zooanalysis.cards.notation import parse_cards
from zooanalysis.errors import SettingsError
from zooanalysis.games.dodgeball import kernel
from zooanalysis.games.dodgeball.game import GAME
from zooanalysis.games.dodgeball.rules import (
    BLOCK,
    CATCH,
    HIT,
    RINGER_BENCH_NAMES,
    DodgeballSettings,
    MatchPointCard,
    award_match_point,
    bench_choices,
    classify_trick,
    mask_from_faces,
    settings_from_table,
)
from zooanalysis.strategy_spec import parse_lineup

SIMULATIONS = Path(__file__).resolve().parent.parent / "simulations"


def test_the_rulebook_file_is_the_defaults() -> None:
    table = tomllib.loads((SIMULATIONS / "dodgeball-rulebook.toml").read_text())["settings"]
    rules = settings_from_table(table)
    assert rules == DodgeballSettings()
    assert set(table) == set(DodgeballSettings.__dataclass_fields__), "every setting is listed"
    assert rules.deck_size == 52 and rules.hand_size == 13 and rules.out_cards == 0
    two = settings_from_table({"players": 2})
    assert two.hand_size == 12 and two.out_cards == 2, '"The remaining 2 cards are ... out"'
    assert rules.declarable_ranks() == tuple(range(1, 14))
    assert settings_from_table({"ringers": True}).declarable_ranks() == tuple(range(15))


def test_other_shipped_scenarios_load() -> None:
    for name in ("dodgeball-two-players.toml", "dodgeball-ringers.toml"):
        table = tomllib.loads((SIMULATIONS / name).read_text())
        assert table["game"] == "dodgeball"
        settings_from_table(table["settings"])


def test_settings_round_trip_through_the_manifest_format() -> None:
    rules = settings_from_table({"ranks": "1-9", "ringers": True, "aces": "high"})
    assert settings_from_table(rules.to_dict()) == rules
    assert rules.ranks == tuple(range(1, 10)) and rules.hand_size == 9


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"player": 4}, "player", "allowed are"),
        ({"players": 3}, "players", "2 or 4 players"),
        ({"players": 5}, "players", "from 2 to 4"),
        ({"aces": "middle"}, "aces", "low, high"),
        ({"ringers": "yes"}, "ringers", "true or false"),
        ({"ringer_bench": "low"}, "ringer_bench", "either, zero, fourteen"),
        ({"timeouts": 4}, "timeouts", "from 0 to 3"),
        ({"match_points": 0}, "match_points", "from 1 to 9"),
        ({"ranks": "1-20"}, "ranks", "rank or range"),
        ({"ranks": "0-13"}, "ranks", "from 1 (A) to 13 (K)"),
        ({"ranks": "1-2"}, "ranks", "cannot bench"),
        ({"players": 2, "dummy_face_down": 7}, "dummy_face_down", "face-up cards"),
        ({"players": 2, "two_player_hand": 20}, "two_player_hand", "more than the deck"),
        ({"two_player_exchange": 2}, "two_player_exchange", "from 0 to 1"),
    ],
)
def test_errors_name_the_key_and_what_is_allowed(table, key, fragment) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == key
    assert fragment in str(error.value)


def test_the_lineup_sets_the_player_count() -> None:
    two = GAME.settings_for_lineup(DodgeballSettings(), parse_lineup("dodger*2", GAME.strategies))
    assert two.players == 2
    with pytest.raises(SettingsError, match="2 or 4 players"):
        GAME.settings_for_lineup(DodgeballSettings(), parse_lineup("random*3", GAME.strategies))


@pytest.mark.parametrize(
    ("settings_text", "fragment"),
    [
        ('aces = "middle"', "setting 'aces'"),
        ('ranks = "1-9, X"', "setting 'ranks'"),
        ("players = 3", "setting 'players'"),
    ],
)
def test_bad_scenarios_exit_2_with_one_line_and_write_nothing(
    settings_text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(f'game = "dodgeball"\n[settings]\n{settings_text}\n')
    out = tmp_path / "out"
    code = cli.main(["run", "--scenario", str(scenario), "--games", "10", "--out", str(out),
                     "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and fragment in err, err
    assert not out.exists()


def test_bad_players_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = cli.main(["run", "--game", "dodgeball", "--players", "dodger,random,coach",
                     "--games", "10", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "2 or 4 players" in err and err.count("\n") == 1
    assert not out.exists()


# --- trick resolution ---------------------------------------------------------------------


def test_hit_block_and_catch_by_hand() -> None:
    assert classify_trick([5, 6, 3, 7]) == (HIT, 3, -1)
    assert classify_trick([3, 7, 5, 7]) == (BLOCK, 3, -1)
    assert classify_trick([5, 3, 2, 5]) == (CATCH, 3, 0)
    assert classify_trick([5, 5, 5, 5]) == (CATCH, 3, 2)
    assert classify_trick([9, 9, 9, 2]) == (CATCH, 2, 1), "the latest highest catches"
    assert classify_trick([9, 2, 9, 9]) == (CATCH, 3, 2)


@given(st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_trick_resolution_agrees_with_the_kernel_reading(strengths: list[int]) -> None:
    """The kernel's bit-set reading (highest positions, team masks) is the rule's."""
    outcome, first, second = classify_trick(strengths)
    best = max(strengths)
    highest = [p for p in range(4) if strengths[p] == best]
    assert first == highest[-1]
    if outcome == HIT:
        assert len(highest) == 1
    elif outcome == BLOCK:
        assert len(highest) > 1 and len({p % 2 for p in highest}) == 1
    else:
        assert len({p % 2 for p in highest}) == 2
        assert second == max(p for p in highest if p % 2 != first % 2)


# --- bench choices ------------------------------------------------------------------------


def test_bench_choices_of_the_getting_hit_example() -> None:
    """'Blazer's hand: 3, 5, 7 of Clubs / 9, 10 of Spades / 8 of Hearts / 4, 9 of Diamonds.
    ... Blazer can put on the bench any of the following: 3 of Clubs, 9 of Spades, 8 of
    Hearts, or the 4 of Diamonds.'"""
    hand = mask_from_faces(parse_cards("3C 5C 7C 9S 10S 8H 4D 9D"))
    assert bench_choices(hand, DodgeballSettings()) == parse_cards("3C 4D 8H 9S")


def test_aces_are_lowest_only_when_aces_are_low() -> None:
    hand = mask_from_faces(parse_cards("AC 5C KH 2H"))
    assert bench_choices(hand, DodgeballSettings()) == parse_cards("AC 2H")
    assert bench_choices(hand, DodgeballSettings(aces="high")) == parse_cards("5C 2H")
    alone = mask_from_faces(parse_cards("AC"))
    assert bench_choices(alone, DodgeballSettings(aces="high")) == parse_cards("AC")


def test_ringers_on_the_bench_by_setting() -> None:
    hand = mask_from_faces(parse_cards("0H 5H 9H 0S 3C"))
    rules = {name: DodgeballSettings(ringers=True, ringer_bench=name) for name in
             RINGER_BENCH_NAMES}
    assert bench_choices(hand, rules["either"]) == parse_cards("3C 0H 5H 0S")
    assert bench_choices(hand, rules["zero"]) == parse_cards("3C 0H 0S")
    assert bench_choices(hand, rules["fourteen"]) == parse_cards("3C 5H 0S")


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.integers(0, 63), min_size=1, max_size=20),
    st.sampled_from(["low", "high"]),
    st.sampled_from(RINGER_BENCH_NAMES),
)
def test_bench_choices_agree_with_the_kernel(faces, aces, ringer_bench) -> None:
    rules = DodgeballSettings(ringers=True, aces=aces, ringer_bench=ringer_bench)
    faces = {face for face in faces if face & 15 <= 13}
    if not faces:
        return
    hand = mask_from_faces(sorted(faces))
    expected = bench_choices(hand, rules)
    mode = RINGER_BENCH_NAMES.index(ringer_bench)
    got = kernel.bench_choice_mask(np.uint64(hand), rules.order, mode)
    assert [face for face in range(64) if int(got) >> face & 1] == expected
    assert len({face >> 4 for face in expected}) == len({face >> 4 for face in faces}), (
        "every suit held offers at least one card"
    )


# --- the Match Point card -----------------------------------------------------------------


def test_the_match_point_card_as_written() -> None:
    card = MatchPointCard()
    card, won = award_match_point(card, 1)
    assert (card.side, card.holder, won) == (1, 1, False), "takes it, '1 Point' side up"
    flipped, won = award_match_point(card, 0)
    assert (flipped.side, won) == (2, False), "the other team has it: flip to Sudden Death"
    assert award_match_point(card, 1)[1], "a team that had the card already wins"
    assert award_match_point(flipped, 0)[1] and award_match_point(flipped, 1)[1], (
        "after the flip, the next round's winner has won"
    )


@pytest.mark.parametrize("winners", list(itertools.product((0, 1), repeat=3)))
def test_the_match_point_card_is_first_to_two_round_wins(winners) -> None:
    card, points = MatchPointCard(), [0, 0]
    for winner in winners:
        card, champion = award_match_point(card, winner)
        points[winner] += 1
        assert champion == (points[winner] == 2)
        if champion:
            break
    else:
        pytest.fail("three rounds always decide the championship")
