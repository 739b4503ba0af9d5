"""Exhibits: a registered game played for one round from given hands (Through the Zoo).

Through the Zoo plays a different standard-deck game every round; each such game is an
*exhibit*. A game becomes an exhibit by providing ``zooanalysis/games/<game>/exhibit.py``
and naming it on its ``Game`` object (``exhibit = "zooanalysis.games.<game>.exhibit"``);
the contract is written down in ``docs/adding-a-game.md`` ("Making a game an exhibit of
Through the Zoo") and summarised here.

An exhibit module provides

* ``exhibit_settings(players)``: the game's settings with the Exhibit card's exceptions
  (``ValueError`` with one line if that many players cannot play it);
* ``play_exhibit(settings, hands, start_seat, strategies, stream, identical)``: the reference
  round from ``hands`` (card codes ``seat * 128 + face``), returning :class:`ExhibitResult`;
* ``exhibit_round(rules, hands, start_seat, codes, params, stream, identical, standing,
  scores, diamonds)``: the same round in numba, draw for draw, on face masks;
* ``kernel_rules(settings)``, ``reference_strategies(players)``, ``strategy_arrays(players)``.

:func:`exhibit_module` finds the module of a registered game lazily, by name, through the
registry (``importlib``, so that this shared module never names a game).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from zooanalysis.errors import SettingsError

NOT_IN_RULEBOOK = {
    "numberwang": (
        "Numberwang's rules are not in the rulebook: its Exhibit card (4 players, mf/Dt/Ah, "
        "'4 papers are needed for each player to track the bids they make') only names the "
        "game, so it cannot be simulated"
    ),
}
"""Exhibit cards the rulebook shows without rules, and why they are refused."""

REQUIRED = (
    "exhibit_settings",
    "play_exhibit",
    "exhibit_round",
    "kernel_rules",
    "reference_strategies",
    "strategy_arrays",
)
"""What an exhibit module must define."""


@dataclass(frozen=True)
class ExhibitResult:
    """One exhibit round's outcome, per seat.

    ``standing``: higher is better, equal values are tied (Hearts: minus the points taken;
    Big Two: order of going out, then fewer cards left; Dodgeball: 1 for the winning team,
    0 otherwise). ``scores``: the game's own round scores. ``diamonds``: the Diamonds the
    seat ends the round with (in tricks it took plus left in its hand), for Johannesburg's
    meta scoring "Fewest Diamonds total".
    """

    standing: tuple[int, ...]
    scores: tuple[int, ...]
    diamonds: tuple[int, ...] = ()


def exhibit_names() -> list[str]:
    """Registered games that can be exhibits (they name an exhibit module)."""
    registry = import_module("zooanalysis.games")
    return [
        name for name in registry.game_names()
        if getattr(registry.get_game(name), "exhibit", None)
    ]


def exhibits_for(players: int) -> list[str]:
    """Registered exhibits that ``players`` players can play (their ``exhibit_settings``
    accepts the count)."""
    playable = []
    for name in exhibit_names():
        try:
            exhibit_module(name).exhibit_settings(players)
        except ValueError:
            continue
        playable.append(name)
    return playable


def exhibit_module(name: str, key: str = "exhibits") -> ModuleType:
    """The exhibit module of the registered game ``name`` (imported on first use).

    ``SettingsError`` naming ``key``: for Numberwang (its rules are not in the rulebook), an
    unknown game, or a game that is not an exhibit, listing the games that are.
    """
    text = name.strip().lower() if isinstance(name, str) else name
    if text in NOT_IN_RULEBOOK:
        raise SettingsError(key, f"{name!r}: {NOT_IN_RULEBOOK[text]}")
    registry = import_module("zooanalysis.games")
    allowed = ", ".join(exhibit_names())
    if not isinstance(text, str) or text not in registry.game_names():
        raise SettingsError(key, f"{name!r} is not a registered game; allowed exhibits are "
                                 f"{allowed}")
    path = getattr(registry.get_game(text), "exhibit", None)
    if not path:
        raise SettingsError(key, f"{name!r} cannot be an exhibit (it has no exhibit module); "
                                 f"allowed exhibits are {allowed}")
    module = import_module(path)
    missing = [attribute for attribute in REQUIRED if not hasattr(module, attribute)]
    if missing:
        raise RuntimeError(f"exhibit module {path} lacks {', '.join(missing)}")
    return module


def play_players(name: str, text: str, players: int, key: str = "play") -> list:
    """The card-play lineup ``text`` for exhibit ``name`` as ``players`` PlayerSpecs of that
    game's strategies (one strategy for all seats, or one per seat); ``SettingsError``
    naming ``key.<name>`` otherwise."""
    from zooanalysis.errors import UserError
    from zooanalysis.strategy_spec import parse_lineup

    registry = import_module("zooanalysis.games")
    option = f"{key}.{name}"
    try:
        specs = parse_lineup(text, registry.get_game(name).strategies, option)
    except UserError as error:
        raise SettingsError(option, str(error).split(": ", 1)[-1]) from None
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SettingsError(option, f"{text!r} names {len(specs)} strategies: give one for "
                                    f"every seat or one per seat ({players})")
    return specs
