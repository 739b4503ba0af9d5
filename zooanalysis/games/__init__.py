"""The registry of simulated games: a new game adds one line to ``_BUILT_IN``."""

from __future__ import annotations

from importlib import import_module

from zooanalysis.errors import UserError
from zooanalysis.games.base import Game

_BUILT_IN = {
    "big-two": "zooanalysis.games.big_two.game:GAME",
    "bluff": "zooanalysis.games.bluff.game:GAME",
    "bug-house": "zooanalysis.games.bug_house.game:GAME",
    "chai-tea-jazz": "zooanalysis.games.chai_tea_jazz.game:GAME",
    "dodgeball": "zooanalysis.games.dodgeball.game:GAME",
    "hearts": "zooanalysis.games.hearts.game:GAME",
    "lucky-lions": "zooanalysis.games.lucky_lions.game:GAME",
    "short-zoot-suit": "zooanalysis.games.short_zoot_suit.game:GAME",
    "through-the-zoo": "zooanalysis.games.through_the_zoo.game:GAME",
    "zoology": "zooanalysis.games.zoology.game:GAME",
}
"""Game name -> ``module:attribute`` of its :class:`Game`; imported on first use."""


def game_names() -> list[str]:
    """Names of every registered game."""
    return sorted(_BUILT_IN)


def get_game(name: str, option: str = "--game") -> Game:
    """The game called ``name``; ``UserError`` naming the allowed games otherwise."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _BUILT_IN:
        raise UserError(f"{option}: unknown game {name!r}; allowed are {', '.join(game_names())}")
    module_name, attribute = _BUILT_IN[key].split(":")
    return getattr(import_module(module_name), attribute)
