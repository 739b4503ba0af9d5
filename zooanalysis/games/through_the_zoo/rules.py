"""Through the Zoo's settings and plain rules: zoos, exhibits, round ranking, the winner.

Every rule number of the rulebook is a field of :class:`ThroughTheZooSettings`; the small
rule functions here (:func:`round_points`, :func:`final_standing`) are what both engines
compute, written once in plain Python and mirrored in the kernel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DECK_SIZE = 52
"""Each player's own standard deck: "52 Cards, A-K in 4 Suits"."""
MAX_ROUNDS = 4
"""At most 4 rounds of 13 cards: a 52-card deck allows no more (played cards are out)."""

ZOOS = ("zooklyn", "johannesburg")
ZOO_TITLES = {"zooklyn": "Zooklyn", "johannesburg": "Johannesburg"}
ZOO_MULLIGAN = {"zooklyn": 13, "johannesburg": 7}
"""The Prepare action's limit: "Mulligan up to 13" / "Mulligan up to 7"."""
ZOOKLYN, JOHANNESBURG = 0, 1

META_SCORINGS = ("zoo", "none", "fewest-diamonds")
"""``zoo``: the Zoo card's (Zooklyn none, Johannesburg "Fewest Diamonds total")."""
NO_META, FEWEST_DIAMONDS = 0, 1

EXHIBIT_ORDERS = ("shuffled", "as-listed")
"""``shuffled``: "shuffle them, and deal 4 Exhibit cards" anew for every game; ``as-listed``:
the rounds play the exhibits in the order written (to study one order)."""

IDENTICAL_CARDS = ("earlier-wins", "later-wins")
"""How two identical cards from different decks compare in one trick or meld."""

TIE_BREAKS = ("last-round", "shared")
"""``last-round``: "If tied, the player who did the best in the last round wins. If still
tied, the tied players share the victory"; ``shared``: ties are shared at once."""

DEFAULT_EXHIBITS = ("hearts", "dodgeball", "big-two", "hearts")
"""The four Exhibit cards dealt to 4 players when a scenario names none: the cards the
rulebook shows, Hearts twice in place of Numberwang (whose rules are not in the rulebook)."""
DEFAULT_EXHIBITS_FEWER = ("hearts", "big-two", "hearts", "big-two")
"""The four dealt to 2 or 3 players: "Get all of the Exhibit cards for the player count" of
the cards the rulebook shows leaves Hearts and Big Two (2 / 3 / 4; Dodgeball is "T", 4 in
teams), each twice for the four rounds."""


def default_exhibits(players: int) -> tuple[str, ...]:
    """The Exhibit cards dealt when a scenario names none, for ``players`` players."""
    return DEFAULT_EXHIBITS if players >= 4 else DEFAULT_EXHIBITS_FEWER

DEFAULT_POINTS = {4: (3, 2, 1, 0), 3: (2, 1, 0), 2: (1, 0)}
"""Game points by rank: "1st: 3 points, 2nd: 2, 3rd: 1, 4th: 0" (4 players) and so on."""


@dataclass(frozen=True)
class ThroughTheZooSettings:
    """Every rule number of Through the Zoo; the defaults are the rulebook's first game
    ("pick Zooklyn for your first game") with four players."""

    players: int = 4
    zoo: str = "zooklyn"
    exhibits: tuple[str, ...] = ()
    """The Exhibit cards named by the scenario, one per round; empty: the rulebook's cards for
    the player count (:func:`default_exhibits`). Read :attr:`exhibit_cards`."""
    exhibit_order: str = "shuffled"
    hand_size: int = 13
    mulligan_limit: int = -1
    """-1: the Zoo card's limit (Zooklyn 13, Johannesburg 7)."""
    meta_scoring: str = "zoo"
    identical_cards: str = "earlier-wins"
    points_4: tuple[int, ...] = DEFAULT_POINTS[4]
    points_3: tuple[int, ...] = DEFAULT_POINTS[3]
    points_2: tuple[int, ...] = DEFAULT_POINTS[2]
    last_gets_zero: bool = True
    """"Tied players ranked last all get 0 points" (and a player alone in last, the
    example's Pagat, too)."""
    tie_break: str = "last-round"
    start_seat: int = 0
    """Seat (0-based) holding the Start Player card in round 1 ("whose favourite animal is
    the smallest")."""
    play: tuple[tuple[str, str], ...] = field(default=())
    """Card play inside each exhibit: (exhibit game, lineup of that game's strategies), one
    strategy for every seat or one per seat; an exhibit not listed plays ``random``."""

    @property
    def exhibit_cards(self) -> tuple[str, ...]:
        """The Exhibit cards of the game, in slot order: the scenario's, or the rulebook's
        for the player count when it names none."""
        return self.exhibits or default_exhibits(self.players)

    @property
    def rounds(self) -> int:
        """One round per Exhibit card."""
        return len(self.exhibit_cards)

    @property
    def zoo_code(self) -> int:
        """``ZOOKLYN`` or ``JOHANNESBURG``."""
        return ZOOS.index(self.zoo)

    @property
    def mulligan(self) -> int:
        """The Prepare action's mulligan limit."""
        return ZOO_MULLIGAN[self.zoo] if self.mulligan_limit < 0 else self.mulligan_limit

    @property
    def shuffles_back(self) -> bool:
        """Zooklyn: "shuffling those discarded cards back into their deck"; Johannesburg:
        "put mulliganed cards on top of your deck, never shuffle your deck"."""
        return self.zoo == "zooklyn"

    @property
    def meta(self) -> int:
        """``NO_META`` or ``FEWEST_DIAMONDS``."""
        name = self.meta_scoring
        if name == "zoo":
            name = "fewest-diamonds" if self.zoo == "johannesburg" else "none"
        return FEWEST_DIAMONDS if name == "fewest-diamonds" else NO_META

    @property
    def points(self) -> tuple[int, ...]:
        """Game points by rank for this player count."""
        return {4: self.points_4, 3: self.points_3, 2: self.points_2}[self.players]

    @property
    def later_wins(self) -> int:
        """0: the earlier of two identical cards wins, 1: the later."""
        return IDENTICAL_CARDS.index(self.identical_cards)

    def play_lineup(self, exhibit: str) -> str:
        """The card-play lineup text for ``exhibit`` (``random`` if not given)."""
        return dict(self.play).get(exhibit, "random")

    def to_dict(self) -> dict[str, Any]:
        """The settings in the scenario-file format."""
        return {
            "players": self.players,
            "zoo": self.zoo,
            "exhibits": list(self.exhibit_cards),
            "exhibit_order": self.exhibit_order,
            "hand_size": self.hand_size,
            "mulligan_limit": self.mulligan_limit,
            "meta_scoring": self.meta_scoring,
            "identical_cards": self.identical_cards,
            "points_4": list(self.points_4),
            "points_3": list(self.points_3),
            "points_2": list(self.points_2),
            "last_gets_zero": self.last_gets_zero,
            "tie_break": self.tie_break,
            "start_seat": self.start_seat,
            "play": dict(self.play),
        }


_CHOICES = {
    "zoo": ZOOS,
    "exhibit_order": EXHIBIT_ORDERS,
    "meta_scoring": META_SCORINGS,
    "identical_cards": IDENTICAL_CARDS,
    "tie_break": TIE_BREAKS,
}


def _points(value: Any, key: str, length: int) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != length:
        raise SettingsError(key, f"{value!r} is not a list of {length} whole numbers (game "
                                 "points for 1st, 2nd, ...)")
    return tuple(whole_number(item, key, 0, TIE_SCALE - 1) for item in value)


def _exhibit_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_ROUNDS:
        raise SettingsError("exhibits", f"{value!r} is not a list of 1 to {MAX_ROUNDS} "
                                        "exhibit game names (one per round)")
    names = []
    for item in value:
        if not isinstance(item, str):
            raise SettingsError("exhibits", f"{item!r} is not an exhibit game name")
        names.append(item.strip().lower())
    return tuple(names)


def settings_from_table(table: Mapping[str, Any]) -> ThroughTheZooSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and what is allowed)."""
    reject_unknown_keys(table, ThroughTheZooSettings.__dataclass_fields__)
    values: dict[str, Any] = {}
    if "players" in table:
        values["players"] = whole_number(table["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    if "hand_size" in table:
        values["hand_size"] = whole_number(table["hand_size"], "hand_size", 1, 13)
    if "mulligan_limit" in table:
        values["mulligan_limit"] = whole_number(table["mulligan_limit"], "mulligan_limit", -1,
                                                13)
    if "start_seat" in table:
        values["start_seat"] = whole_number(table["start_seat"], "start_seat", 0,
                                            MAX_PLAYERS - 1)
    for key, names in _CHOICES.items():
        if key in table:
            if table[key] not in names:
                raise SettingsError(key, f"{table[key]!r} is not one of {', '.join(names)}")
            values[key] = table[key]
    if "last_gets_zero" in table:
        if not isinstance(table["last_gets_zero"], bool):
            raise SettingsError("last_gets_zero", f"{table['last_gets_zero']!r} is not true "
                                                  "or false")
        values["last_gets_zero"] = table["last_gets_zero"]
    for players in (2, 3, 4):
        key = f"points_{players}"
        if key in table:
            values[key] = _points(table[key], key, players)
    if "exhibits" in table:
        values["exhibits"] = _exhibit_list(table["exhibits"])
    if "play" in table:
        play = table["play"]
        if not isinstance(play, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in play.items()
        ):
            raise SettingsError("play", f"{play!r} is not a table of exhibit = \"lineup\" "
                                        "(e.g. dodgeball = \"dodger\")")
        values["play"] = tuple(sorted((k.strip().lower(), v) for k, v in play.items()))
    settings = ThroughTheZooSettings(**values)
    validate(settings)
    return settings


def validate(settings: ThroughTheZooSettings) -> None:
    """Reject settings no game can be played with (``SettingsError`` naming the key)."""
    if not MIN_PLAYERS <= settings.players <= MAX_PLAYERS:
        raise SettingsError("players", f"{settings.players} players: Through the Zoo is for "
                                       f"{MIN_PLAYERS} to {MAX_PLAYERS} players")
    if settings.rounds * settings.hand_size > DECK_SIZE:
        raise SettingsError(
            "hand_size",
            f"{settings.rounds} rounds of {settings.hand_size} cards need "
            f"{settings.rounds * settings.hand_size} cards, more than a deck's {DECK_SIZE}",
        )
    if settings.start_seat >= settings.players:
        raise SettingsError("start_seat", f"{settings.start_seat}: give a seat from 0 to "
                                          f"{settings.players - 1}")
    for name, _ in settings.play:
        if name not in settings.exhibit_cards:
            raise SettingsError(f"play.{name}", f"{name!r} is not one of this game's exhibits "
                                                f"({', '.join(settings.exhibit_cards)})")


def round_points(standing: Sequence[int], points: Sequence[int], last_gets_zero: bool
                 ) -> list[int]:
    """Game points for one round's standings (higher standing is better).

    "If players tie, they share the rank and do not bump the next ranking player(s) at
    all": a player's rank is the number of distinct better standings (a dense rank).
    "Tied players ranked last all get 0 points": with ``last_gets_zero`` the worst standing
    scores 0 (the example's Pagat, alone in last at the third rank, gets 0, "not 1").
    """
    distinct = sorted(set(standing), reverse=True)
    worst = distinct[-1]
    result = []
    for value in standing:
        rank = distinct.index(value)
        if last_gets_zero and value == worst:
            result.append(0)
        else:
            result.append(points[min(rank, len(points) - 1)])
    return result


TIE_SCALE = 8
"""Final standing = game points * TIE_SCALE + last round's game points (at most 3)."""


def final_standing(game_points: Sequence[int], last_round: Sequence[int], tie_break: str
                   ) -> list[int]:
    """The standing that decides the winner: most game points, then ("If tied, the player
    who did the best in the last round wins") the last round's game points; equal
    standings share the victory."""
    if tie_break == "shared":
        return [TIE_SCALE * points for points in game_points]
    return [TIE_SCALE * p + last for p, last in zip(game_points, last_round, strict=True)]
