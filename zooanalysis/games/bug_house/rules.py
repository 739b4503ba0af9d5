"""Bug House Millionaire's rule settings, in plain Python.

Every rule number of the rulebook (``../shared/rules/zoo-and-more.md``, section "Bug House
Millionaire") is a field of :class:`BugHouseSettings`; a scenario file's ``[settings]``
table maps onto it, and a mistake is a ``SettingsError`` naming the key and what is
allowed::

    players = 4                       # always 4: two duels, partners side by side
    clock_seconds = 115               # "set the chess timers to 1:55 minutes each"
    min_run = 3                       # the shortest suited run
    longer_runs_beat = false          # may a longer run beat a run? (same length: false)
    partner_passing = true            # the trick's winner gives a card to its partner
    partner_talk = "nothing"          # or "need": each player states the cards it needs
    delayed_singles = false           # the Delayed Singles variant
    thinking_distribution = "exponential"   # the random part of a thinking time

The seats, as zoosim numbers them (index 0-3, printed 1-4)::

    seat 1 (team 1)   seat 3 (team 1)      partners side by side
    seat 2 (team 2)   seat 4 (team 2)      opponents across

Duel 1 is seat 1 against seat 2, duel 2 seat 3 against seat 4; the start players are
seat 1 and seat 4, the player diagonal to it. In indices: team ``seat % 2``, duel
``seat // 2``, opponent ``seat ^ 1``, partner ``seat ^ 2``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zooanalysis.cards.deck import DeckSpec, standard_deck
from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 4
MAX_PLAYERS = 4
SEATS = 4
TEAMS = 2
DUELS = 2
START_SEATS = (0, 3)
"""The two start players: seat 1 and the opponent diagonal to it, seat 4 (indices)."""

TALK_NAMES = ("nothing", "need")
"""What partners share (docs/rules-decisions.md): nothing about their hands, or each
player's stated need (the cards that would make it a new pair or run)."""
TALK_NOTHING, TALK_NEED = range(len(TALK_NAMES))

DISTRIBUTION_NAMES = ("exponential", "uniform", "fixed")
"""The random part of a thinking time, with mean 1, times a strategy's ``jitter``:
Exponential(1) (a shifted-exponential reaction time), Uniform[0, 2), or exactly 1."""
EXPONENTIAL, UNIFORM, FIXED = range(len(DISTRIBUTION_NAMES))

MAX_CLOCK_SECONDS = 3600
MAX_RUN = 16


def team_of(seat: int) -> int:
    """The team (0 or 1) of seat index ``seat``."""
    return seat % TEAMS


def duel_of(seat: int) -> int:
    """The duel (0 or 1) seat index ``seat`` plays in."""
    return seat // 2


def opponent_of(seat: int) -> int:
    """The opponent across from seat index ``seat``."""
    return seat ^ 1


def partner_of(seat: int) -> int:
    """The partner beside seat index ``seat``."""
    return seat ^ 2


def team_names() -> list[str]:
    """The teams as a person reads them: team 1 = seats 1 & 3, team 2 = seats 2 & 4."""
    return ["team 1 (seats 1 & 3)", "team 2 (seats 2 & 4)"]


@dataclass(frozen=True)
class BugHouseSettings:
    """Every rule number of Bug House Millionaire. Defaults are the rulebook's base game."""

    players: int = 4
    clock_seconds: int = 115
    """Each player's chess clock, no increment ("1:55 minutes each"; Ease of Timing: 175
    or 235, or any other)."""
    min_run: int = 3
    """The fewest cards of a suited run (the rulebook's example runs have 3 cards)."""
    longer_runs_beat: bool = False
    """False: a run is beaten only by a higher run of the same length ("a higher
    combination of the lead meld"). True: also by a longer run whose highest card is
    higher."""
    partner_passing: bool = True
    """The trick's winner gives one card of the trick to its partner before leading (false:
    a variant without passing, to measure what passing is worth)."""
    partner_talk: str = "nothing"
    """What partners share: "nothing", or "need" (each player states the cards that would
    make it a new pair or run, and the giver may use that)."""
    delayed_singles: bool = False
    """The Delayed Singles variant: no single may be led until its player takes the team's
    Singles Allowed card, which then blocks the partner's single leads for good."""
    thinking_distribution: str = "exponential"
    """The random part of every thinking time: "exponential", "uniform" or "fixed"."""

    @property
    def deck(self) -> DeckSpec:
        """64 cards, 0-15 in four suits."""
        return standard_deck(0, 15)

    @property
    def cards_per_player(self) -> int:
        """Cards dealt to each player: all 64, evenly."""
        return self.deck.size // SEATS

    @property
    def clock_ms(self) -> int:
        """The clock in milliseconds (the engines' time unit)."""
        return self.clock_seconds * 1000

    @property
    def talk(self) -> int:
        """``TALK_NOTHING`` or ``TALK_NEED``."""
        return TALK_NAMES.index(self.partner_talk)

    @property
    def distribution(self) -> int:
        """``EXPONENTIAL``, ``UNIFORM`` or ``FIXED``."""
        return DISTRIBUTION_NAMES.index(self.thinking_distribution)

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain dict (the scenario-file format)."""
        return {
            "players": self.players,
            "clock_seconds": self.clock_seconds,
            "min_run": self.min_run,
            "longer_runs_beat": self.longer_runs_beat,
            "partner_passing": self.partner_passing,
            "partner_talk": self.partner_talk,
            "delayed_singles": self.delayed_singles,
            "thinking_distribution": self.thinking_distribution,
        }


_KEYS = tuple(BugHouseSettings().to_dict())


def _boolean(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(key, f"{value!r} is not true or false")
    return value


def _choice(value: Any, key: str, names: tuple[str, ...]) -> str:
    if value not in names:
        raise SettingsError(key, f"{value!r} is not allowed; allowed are {', '.join(names)}")
    return value


def settings_from_table(table: Mapping[str, Any]) -> BugHouseSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and the allowed values otherwise)."""
    reject_unknown_keys(table, _KEYS)
    values: dict[str, Any] = {}
    if "players" in table:
        values["players"] = whole_number(table["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    if "clock_seconds" in table:
        values["clock_seconds"] = whole_number(
            table["clock_seconds"], "clock_seconds", 1, MAX_CLOCK_SECONDS
        )
    if "min_run" in table:
        values["min_run"] = whole_number(table["min_run"], "min_run", 2, MAX_RUN)
    for key in ("longer_runs_beat", "partner_passing", "delayed_singles"):
        if key in table:
            values[key] = _boolean(table[key], key)
    if "partner_talk" in table:
        values["partner_talk"] = _choice(table["partner_talk"], "partner_talk", TALK_NAMES)
    if "thinking_distribution" in table:
        values["thinking_distribution"] = _choice(
            table["thinking_distribution"], "thinking_distribution", DISTRIBUTION_NAMES
        )
    settings = BugHouseSettings(**values)
    validate(settings)
    return settings


def validate(settings: BugHouseSettings) -> None:
    """Reject settings no game can be played with (the game is for exactly 4 players)."""
    whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    whole_number(settings.clock_seconds, "clock_seconds", 1, MAX_CLOCK_SECONDS)
    whole_number(settings.min_run, "min_run", 2, MAX_RUN)
    _choice(settings.partner_talk, "partner_talk", TALK_NAMES)
    _choice(settings.thinking_distribution, "thinking_distribution", DISTRIBUTION_NAMES)
