"""The registry of simulated games: a new game adds one line to ``_BUILT_IN``."""

from __future__ import annotations

from importlib import import_module

from zooanalysis.errors import UserError
from zooanalysis.games.base import Game
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

SEARCH = "search"

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


def search_games() -> list[str]:
    """Names of the games whose lineups may hold the ``search`` player (a forward model)."""
    return [name for name in game_names() if SEARCH in get_game(name).lineup_strategies()]


def parse_players(text: str, game: Game, option: str = "--players") -> list[PlayerSpec]:
    """A lineup for ``game``: its strategies, and ``search`` where it has a forward model;
    a game without one refuses ``search`` by name (``UserError``, one line)."""
    strategies = game.lineup_strategies()
    if SEARCH not in strategies and _names_search(text):
        raise UserError(
            f"{option}: {game.name} has no forward model, so no search player; the games "
            f"that have one are {', '.join(search_games())}"
        )
    lineup = parse_lineup(text, strategies, option)
    names = {player.strategy for player in lineup}
    refused = names & game.unmodelled_by_search
    if SEARCH in names and refused:
        allowed = set(strategies) - game.unmodelled_by_search - {SEARCH}
        raise UserError(
            f"{option}: a search seat plays the other seats through {game.name}'s forward "
            f"model, which cannot play {', '.join(sorted(refused))} yet; seat "
            f"{', '.join(sorted(allowed))} beside it"
        )
    return lineup


def _names_search(text: str) -> bool:
    """Whether a lineup's text names the ``search`` strategy (``search``, ``search*2``,
    ``search:iterations=100``)."""
    for token in text.split(","):
        name = token.partition(":")[0].partition("*")[0].strip().lower()
        if name == SEARCH:
            return True
    return False
