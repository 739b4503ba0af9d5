"""The exhibit lookup (``zooanalysis.games.exhibits``): registered games by name, Numberwang
refused because its rules are not in the rulebook, incomplete exhibit modules refused."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from zooanalysis import games
from zooanalysis.errors import SettingsError
from zooanalysis.games.exhibits import (
    NOT_IN_RULEBOOK,
    ExhibitResult,
    exhibit_module,
    exhibit_names,
    play_players,
)


def test_registered_exhibits_are_found_by_name() -> None:
    assert "dodgeball" in exhibit_names()
    assert "bluff" not in exhibit_names() and "through-the-zoo" not in exhibit_names()
    assert exhibit_module(" Dodgeball ").__name__ == "zooanalysis.games.dodgeball.exhibit"


def test_numberwang_is_refused_with_the_reason() -> None:
    with pytest.raises(SettingsError) as error:
        exhibit_module("numberwang")
    message = str(error.value)
    assert "'exhibits'" in message and "rules are not in the rulebook" in message
    assert "numberwang" in NOT_IN_RULEBOOK


def test_an_incomplete_exhibit_module_is_refused(monkeypatch) -> None:
    half = ModuleType("half_exhibit")
    half.play_exhibit = lambda *args: ExhibitResult((0,), (0,), (0,))
    game = ModuleType("half_game")

    class _Game:
        name = "half"
        strategies: dict = {}  # noqa: RUF012
        exhibit = "half_exhibit"

    game.GAME = _Game()
    monkeypatch.setitem(sys.modules, "half_exhibit", half)
    monkeypatch.setitem(sys.modules, "half_game", game)
    monkeypatch.setitem(games._BUILT_IN, "half", "half_game:GAME")
    with pytest.raises(RuntimeError, match="lacks exhibit_settings"):
        exhibit_module("half")


def test_card_play_lineups() -> None:
    assert [p.strategy for p in play_players("dodgeball", "dodger", 4)] == ["dodger"] * 4
    mixed = play_players("dodgeball", "dodger,random,coach,random", 4)
    assert [p.strategy for p in mixed] == ["dodger", "random", "coach", "random"]
    for text in ("dodger,coach", "bogus", "dodger:keep_suits=99"):
        with pytest.raises(SettingsError) as error:
            play_players("dodgeball", text, 4)
        assert "'play.dodgeball'" in str(error.value)
