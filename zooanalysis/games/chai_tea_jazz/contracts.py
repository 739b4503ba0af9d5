"""Chai Tea Jazz's contracts as data: the rows of the paper pad and the ways to play them.

A **contract** is a row of the pad (``Contract``): a name, its game points (``value``), the
*plays* its declarer may choose from when picking it, and two scoring flags (Avoidance:
fewest points rank first; the meta contract "second place within the row"). A **play** is
a kind of round (Trump, Under, Slalom ...); with its declarations (a trump suit, a start
direction) it becomes a concrete :class:`Way` to play a round: a trump suit or none, a base
rank order, the direction of the first trick and how often the direction flips. Picking a
contract is picking an **option**: a row and one of its ways (``Option``). The Joker row's
plays are every play of the other rows ("whichever of the above contracts the player wants").

A designer edits a contract list as TOML, one table per row::

    [[settings.contracts]]
    name = "Black Suit Trump"
    plays = ["trump"]         # or play = "trump"
    suits = "black"           # trump suits: any, black, red, clubs, diamonds, hearts, spades
    value = 1

or names a preset (``contracts = "standard"``, :data:`PRESETS`). Plays the rulebook names but
never defines ("Long", "Short") are refused with a message saying so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zooanalysis.cards.encoding import CLUBS, DIAMONDS, HEARTS, NO_SUIT, SPADES
from zooanalysis.cards.orders import DOWN, FIXED, MIDDLE_OUT, NUMERIC, SLALOM, UP
from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

PYRAMID_HALF = -1
"""``Way.flip`` of a Pyramid before the round's length is known: the direction flips once,
after the first half of the tricks (resolved by :meth:`Way.resolved`)."""

SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_CHOICES: dict[str, tuple[int, ...]] = {
    "any": (CLUBS, DIAMONDS, HEARTS, SPADES),
    "black": (CLUBS, SPADES),
    "red": (DIAMONDS, HEARTS),
    "clubs": (CLUBS,),
    "diamonds": (DIAMONDS,),
    "hearts": (HEARTS,),
    "spades": (SPADES,),
}
"""Trump suits a trump play may name ("Black Suit Trump", "Trump Specific Suit" ...)."""


@dataclass(frozen=True)
class PlayKind:
    """A kind of round: with trump or not, its base order, start directions and flips."""

    trump: bool
    order: int
    directions: tuple[int, ...]
    """The directions the declarer may start with (one: no choice)."""
    flip: int
    """Tricks between direction flips: ``FIXED`` (never), ``SLALOM`` (every trick) or
    ``PYRAMID_HALF``."""
    title: str


PLAYS: dict[str, PlayKind] = {
    "trump": PlayKind(True, NUMERIC, (UP,), FIXED, "Trump"),
    "over": PlayKind(False, NUMERIC, (UP,), FIXED, "Over"),
    "under": PlayKind(False, NUMERIC, (DOWN,), FIXED, "Under"),
    "slalom": PlayKind(False, NUMERIC, (UP, DOWN), SLALOM, "Slalom"),
    "pyramid": PlayKind(False, NUMERIC, (UP, DOWN), PYRAMID_HALF, "Pyramid"),
    "middle": PlayKind(False, MIDDLE_OUT, (UP,), FIXED, "Middle"),
    "trump-under": PlayKind(True, NUMERIC, (DOWN,), FIXED, "Trump Under"),
    "trump-slalom": PlayKind(True, NUMERIC, (UP, DOWN), SLALOM, "Trump Slalom"),
    "trump-pyramid": PlayKind(True, NUMERIC, (UP, DOWN), PYRAMID_HALF, "Trump Pyramid"),
    "trump-middle": PlayKind(True, MIDDLE_OUT, (UP,), FIXED, "Trump Middle"),
}
"""Every play the rulebook defines: the base contracts (Trump: "9 in the trump suit is the
strongest down to the 1 in the trump suit, then the 9>1 in the lead suit"; Under:
"1>2>3..>9"; Slalom: "alternates every trick between 9>1 and 1<9"), the Additional
Contracts (Over: "the highest card wins"; Pyramid: "6 tricks either Up or Down, then 6
tricks the other way"; Middle: "5, 4, 6, 3, 7, 2, 8, 1, 9") and the trump combinations
("Trump Under ... Trump Slalom, Trump Pyramid, etc."). ``joker`` and ``avoidance`` are
handled apart (:data:`SPECIAL_PLAYS`)."""
JOKER = "joker"
AVOIDANCE = "avoidance"
SPECIAL_PLAYS = (JOKER, AVOIDANCE)
"""``joker``: every play of the other (non-Avoidance) rows; ``avoidance``: Over, scored with
the fewest points first ("Score as few points as possible")."""
UNDEFINED_PLAYS = {
    "long": "Custom Contracts Setups (3rd tier)",
    "short": "the Jass variant's contract list (2nd tier)",
}
"""Contracts the rulebook names but never defines."""
ALLOWED_PLAYS = (*PLAYS, *SPECIAL_PLAYS)


@dataclass(frozen=True)
class Contract:
    """A row of the pad: ``name``, its ``plays``, its game points and its scoring flags."""

    name: str
    plays: tuple[str, ...]
    value: int
    suits: str = "any"
    """The trump suits its trump plays may name (a key of :data:`SUIT_CHOICES`)."""
    avoid: bool = False
    """Avoidance: the fewest points rank first in the row."""
    second_place: bool = False
    """Meta contract "Get second place within the row" (3 sides only): the middle score
    gains the value, the lowest 0, the highest loses it."""

    @property
    def is_joker(self) -> bool:
        """Whether the row is a Joker (any play of the other rows)."""
        return JOKER in self.plays

    def to_dict(self) -> dict[str, Any]:
        """The row as a TOML table."""
        table: dict[str, Any] = {"name": self.name, "plays": list(self.plays), "value": self.value}
        if self.suits != "any":
            table["suits"] = self.suits
        if self.avoid:
            table["avoid"] = True
        if self.second_place:
            table["second_place"] = True
        return table


@dataclass(frozen=True)
class Way:
    """A concrete way to play a round: what the declarer declared."""

    trump: int
    """The trump suit, ``NO_SUIT`` for none."""
    order: int
    direction: int
    """The first trick's direction."""
    flip: int
    """Tricks between direction flips (``FIXED`` = never, ``PYRAMID_HALF`` unresolved)."""
    play: str

    def resolved(self, tricks: int, pyramid_tricks: int) -> Way:
        """The way with a Pyramid's flip made concrete for a round of ``tricks`` tricks:
        ``pyramid_tricks`` tricks one way (0: the first half, rounded up) then the other."""
        if self.flip != PYRAMID_HALF:
            return self
        flip = pyramid_tricks if pyramid_tricks > 0 else (tricks + 1) // 2
        return Way(self.trump, self.order, self.direction, flip, self.play)

    def key(self) -> tuple[int, int, int, int]:
        """What makes two ways play the same (the play's name aside)."""
        return (self.trump, self.order, self.direction, self.flip)

    @property
    def label(self) -> str:
        """``Trump (Hearts)``, ``Slalom (high first)``, ``Under`` ..."""
        kind = PLAYS[self.play]
        parts = []
        if self.trump != NO_SUIT:
            parts.append(SUIT_NAMES[self.trump])
        if len(kind.directions) > 1:
            parts.append("high first" if self.direction == UP else "low first")
        return kind.title + (f" ({', '.join(parts)})" if parts else "")


@dataclass(frozen=True)
class Option:
    """What a player picks: row ``row`` played as ``way``."""

    row: int
    way: Way


def ways_of(play: str, suits: str) -> list[Way]:
    """The ways a play offers: one per trump suit (trump plays) and start direction."""
    kind = PLAYS[play]
    trumps = SUIT_CHOICES[suits] if kind.trump else (NO_SUIT,)
    return [
        Way(trump, kind.order, direction, kind.flip, play)
        for trump in trumps
        for direction in kind.directions
    ]


def _row_plays(contract: Contract) -> list[tuple[str, str]]:
    """(play, suits) of a non-Joker row, Avoidance played as Over."""
    return [("over" if p == AVOIDANCE else p, contract.suits) for p in contract.plays]


def options_of(contracts: Sequence[Contract]) -> list[Option]:
    """Every option of a contract list, row by row: each row's ways in the order of its plays,
    trump suits and directions, without repeats. A Joker row offers the ways of every other
    row except Avoidance rows (whose scores rank the other way round)."""
    others: list[tuple[str, str]] = []
    for contract in contracts:
        if not contract.is_joker and not contract.avoid:
            others += _row_plays(contract)
    options = []
    for row, contract in enumerate(contracts):
        plays = others if contract.is_joker else _row_plays(contract)
        seen: set[tuple[int, int, int, int]] = set()
        for play, suits in plays:
            for way in ways_of(play, suits):
                if way.key() not in seen:
                    seen.add(way.key())
                    options.append(Option(row, way))
    return options


def standard_contracts() -> tuple[Contract, ...]:
    """The pad's standard side: "4 base: Trump, Under, Slalom, and Joker" (1, 2, 2, 3)."""
    return (
        Contract("Trump", ("trump",), 1),
        Contract("Under", ("under",), 2),
        Contract("Slalom", ("slalom",), 2),
        Contract("Joker", (JOKER,), 3),
    )


PRESETS: dict[str, tuple[Contract, ...]] = {
    "standard": standard_contracts(),
    "custom-example": (
        Contract("Black Suit Trump", ("trump",), 1, suits="black"),
        Contract("Red Suit Trump", ("trump",), 1, suits="red"),
        Contract("Under", ("under",), 2),
        Contract("Over", ("over",), 2),
        Contract("Slalom", ("slalom",), 2),
        Contract("Pyramid", ("pyramid",), 2),
        Contract("Joker 1", (JOKER,), 3),
        Contract("Joker 2", (JOKER,), 3),
        Contract("Joker 3", (JOKER,), 3),
    ),
    "specific-suits": (
        Contract("Trump Clubs", ("trump",), 1, suits="clubs"),
        Contract("Trump Diamonds", ("trump",), 1, suits="diamonds"),
        Contract("Trump Hearts", ("trump",), 1, suits="hearts"),
        Contract("Trump Spades", ("trump",), 1, suits="spades"),
        Contract("Under", ("under",), 2),
        Contract("Slalom", ("slalom",), 2),
        Contract("Joker", (JOKER,), 3),
    ),
}
"""Named contract lists: the standard game; the rulebook's Custom Contracts Setups example
without its undefined "Long" (Black and Red Suit Trump, Under, Over, Slalom, Pyramid, three
Jokers); the "Trump Specific Suit" idea (four trump rows) with the other base contracts."""

MAX_ROWS = 16
MAX_VALUE = 100
_ROW_KEYS = ("name", "plays", "play", "value", "suits", "avoid", "second_place")


def _play_name(value: Any, key: str) -> str:
    name = value.strip().lower() if isinstance(value, str) else value
    if name in UNDEFINED_PLAYS:
        raise SettingsError(
            key,
            f"{value!r} is named in the rulebook ({UNDEFINED_PLAYS[name]}) but never defined "
            f"there, so it cannot be simulated; allowed plays are {', '.join(ALLOWED_PLAYS)}",
        )
    if name not in ALLOWED_PLAYS:
        raise SettingsError(key, f"unknown play {value!r}; allowed are {', '.join(ALLOWED_PLAYS)}")
    return name


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(key, f"{value!r} is not true or false")
    return value


def contract_from_table(table: Any, index: int) -> Contract:
    """One row of a ``[[settings.contracts]]`` list; ``SettingsError`` naming the key."""
    where = f"contracts[{index}]"
    if not isinstance(table, Mapping):
        raise SettingsError(where, f"{table!r} is not a table with name, plays and value")
    reject_unknown_keys(table, _ROW_KEYS, prefix=f"{where}.")
    if "plays" in table and "play" in table:
        raise SettingsError(f"{where}.play", "give plays or play, not both")
    raw = table.get("plays", table.get("play"))
    key = f"{where}.plays" if "plays" in table else f"{where}.play"
    if raw is None:
        raise SettingsError(f"{where}.plays", "missing: name the row's plays, e.g. ['trump']")
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list | tuple) or not items:
        raise SettingsError(key, f"{raw!r} is not a play or a non-empty list of plays")
    if isinstance(raw, str):
        plays = (_play_name(raw, key),)
    else:
        plays = tuple(_play_name(item, f"{key}[{i}]") for i, item in enumerate(items))
    if JOKER in plays and len(plays) > 1:
        raise SettingsError(key, "a Joker row plays any other row's plays: give plays = ['joker']")
    name = table.get("name", " / ".join(p.title() for p in plays))
    if not isinstance(name, str) or not name.strip():
        raise SettingsError(f"{where}.name", f"{name!r} is not a non-empty text")
    if "value" not in table:
        raise SettingsError(f"{where}.value", "missing: the row's game points, e.g. 2")
    value = whole_number(table["value"], f"{where}.value", 0, MAX_VALUE)
    suits = table.get("suits", "any")
    if suits not in SUIT_CHOICES:
        raise SettingsError(
            f"{where}.suits", f"{suits!r} is not allowed; allowed are {', '.join(SUIT_CHOICES)}"
        )
    avoid = _flag(table.get("avoid", False), f"{where}.avoid") or AVOIDANCE in plays
    second = _flag(table.get("second_place", False), f"{where}.second_place")
    return Contract(name.strip(), plays, value, suits, avoid, second)


def contracts_from_setting(value: Any) -> tuple[Contract, ...]:
    """The ``contracts`` setting: a preset name or a list of row tables."""
    if isinstance(value, str):
        if value not in PRESETS:
            raise SettingsError(
                "contracts",
                f"unknown contract list {value!r}; allowed are {', '.join(PRESETS)} or a list "
                "of [[settings.contracts]] tables",
            )
        return PRESETS[value]
    if not isinstance(value, list | tuple) or not value:
        raise SettingsError(
            "contracts", f"{value!r} is not a preset name or a list of contract tables"
        )
    if len(value) > MAX_ROWS:
        raise SettingsError("contracts", f"{len(value)} rows: allowed are 1 to {MAX_ROWS}")
    rows = tuple(contract_from_table(table, index) for index, table in enumerate(value))
    names = [row.name for row in rows]
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise SettingsError(f"contracts[{index}].name", f"{name!r} names two rows")
    if all(row.is_joker for row in rows):
        raise SettingsError("contracts", "a list of Jokers only has nothing for them to play")
    return rows


def contracts_setting(contracts: tuple[Contract, ...]) -> str | list[dict[str, Any]]:
    """The ``contracts`` setting of a list: its preset name, or its row tables."""
    for name, preset in PRESETS.items():
        if preset == contracts:
            return name
    return [contract.to_dict() for contract in contracts]
