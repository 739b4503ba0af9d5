"""Lucky Lions decks: the publisher's Zoo Card generator, Animal Cards, and deck files.

The published deck
------------------
:func:`generate_zoo_cards` reproduces the publisher's print-time generator, with the games'
seeded SplitMix64 stream in place of JavaScript's randomness, so a seed always gives the
same deck (the same compiled generator makes a fresh print for every simulated game). Each
group of Zoo Cards (the 26 base cards, then Busy Zoo's 13 if played) is made by its own run
of this algorithm, for ``n`` cards:

1. Cycle sizes: for each size in increasing order, ``ceil(share * n)`` copies of it; shuffled.
2. Animal pool: the five animals in one random order, that same order repeated
   ``ceil(total / 5)`` times, where ``total`` is the sum of all sizes listed in step 1.
3. Special types (Busy Zoo only): the types repeated until there are at least ``n``; shuffled.
4. People icons: ``round(people_icon_share * n)`` cards (halves round up, as JavaScript's
   ``Math.round``) get the icon; the flags are shuffled.
5. Points: for each value, ``ceil(share * n)`` copies; shuffled.
6. Card ``i``: its size, type, people flag and points are popped from the *end* of those
   lists; its cycle is the next ``size`` animals from the *front* of the pool, shuffled.
   An ``extra_rule`` card never has the people icon, a ``player_exclude`` card always has.
   Cards whose text names animals draw a fresh shuffle of the five: X is the last animal,
   Y the one before it (two distinct animals, not necessarily on the cycle).
   ``autowin``/``autolose`` name X, ``extra_rule`` names X and Y ("X beats Y").
   ``die_split``'s number is the card's cycle size.

Quirks kept on purpose (they are what the printed game has):

* Rounding every share *up* lists more sizes and points than there are cards; the surplus
  entries are the first ones of the shuffled lists and are never used. For the base deck,
  sizes ``{2: .05, 3: .25, 4: .45, 5: .25}`` of 26 give ``2 + 7 + 12 + 7 = 28`` entries, so
  the realised shares are ``2/28, 7/28, 12/28, 7/28`` on average (about 7%, 25%, 43%, 25%),
  not the nominal ones; points ``{1: .4, 2: .4, 3: .2}`` give ``11 + 11 + 6 = 28`` values,
  about 39%, 39%, 21%. Busy Zoo's sizes give ``2 + 5 + 7 = 14`` entries for 13 cards.
* For the same reason Busy Zoo's six special types are listed 18 times (3 each) for 13
  cards: a type is on 0 to 3 of the cards, not always 2 or 3 ("spread evenly" only on
  average).
* Because the pool is one permutation repeated and cycles are consecutive windows of it,
  each cycle's animals are distinct and, within one run, any two animals are on a number
  of cards that differs by at most 1 (over base and Busy Zoo together: at most 2).
* ``ceil`` and ``round`` are computed on the shares' decimal values (``0.05 * 26`` is
  exactly 1.3), where JavaScript multiplies binary floats; the published numbers come out
  the same either way, a designer's share such as ``0.07 * 100`` does not (7, where
  JavaScript would get 7.000000000000001 and round it up to 8).
* Base cards get people icons too (about 25%); they only matter when Busy Zoo is played.

Animal Cards: 6 of each animal but 9 lions (33); Wild Animals adds 2 per animal (10).

Deck files
----------
A designer can also write the Zoo Cards by hand, in a TOML file in ``simulations/``
(see ``simulations/decks/lucky-lions-example.toml``), read by :func:`deck_from_toml` and
written by :func:`deck_to_toml`::

    [animals]            # optional: Animal Card counts (the dice); omitted animals
    lion = 9             # keep the published count (lion 9, the others 6)
    fox = 6

    [wild_animals]       # optional: Wild Animals cards per animal; without this table
    lion = 2             # there are none, in it omitted animals keep the published 2

    [[zoo_card]]         # one table per Zoo Card, at least one
    cycle = ["lion", "fox", "panda"]   # 2-5 distinct animals in arrow order
    points = 2                         # a positive whole number
    people = false                     # optional: the people icon (Busy Zoo)
    special = "extra_rule"             # optional: autowin, autolose, player_exclude,
                                       # extra_rule, die_split or double_roll
    animals = ["lion", "dolphin"]      # X (autowin, autolose) or X and Y (extra_rule);
                                       # only on those cards

``people`` defaults to false, except on ``player_exclude`` cards where it defaults to
true; as on the published cards, ``extra_rule`` cards cannot have the icon and
``player_exclude`` cards cannot lack it. Every mistake raises
:class:`~zooanalysis.errors.SettingsError` naming the card (``zoo_card[3]``, counted
from 1 as in the file, with its cycle where readable), the field and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.errors import SettingsError
from zooanalysis.games.lucky_lions.cards import (
    ANIMALS,
    N_ANIMALS,
    SPECIAL_ANIMALS_NEEDED,
    SPECIAL_TYPES,
    AnimalCard,
    ZooCard,
    parse_animal,
)
from zooanalysis.games.lucky_lions.flat import card_from_row
from zooanalysis.games.lucky_lions.generator import GeneratorTables, generate_rows
from zooanalysis.rng import game_stream
from zooanalysis.settings import read_toml, reject_unknown_keys, whole_number

MIN_CYCLE = 2
MAX_CYCLE = N_ANIMALS

PUBLISHED_ANIMAL_CARDS: dict[str, int] = {a: (9 if a == "lion" else 6) for a in ANIMALS}
PUBLISHED_WILD_CARDS: dict[str, int] = {a: 2 for a in ANIMALS}

DECK_FILE_KEYS = ("animals", "wild_animals", "zoo_card")
CARD_KEYS = ("cycle", "points", "people", "special", "animals")


# --- the published deck ------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckSpec:
    """Every number of the published deck; the defaults are the printed game's.

    Share tables map a cycle size (or a point value) to the share of cards that have it;
    each share is rounded up to whole cards, as the publisher's generator does (see the
    module docstring). Animal counts map animal names to cards; omitted animals keep the
    published count.
    """

    base_zoo_cards: int = 26
    base_cycle_sizes: dict[int, float] = field(
        default_factory=lambda: {2: 0.05, 3: 0.25, 4: 0.45, 5: 0.25}
    )
    busy_zoo_cards: int = 13
    busy_cycle_sizes: dict[int, float] = field(default_factory=lambda: {3: 0.15, 4: 0.35, 5: 0.5})
    busy_special_types: tuple[str, ...] = SPECIAL_TYPES
    """The special rules Busy Zoo's cards are spread over (each listed equally often)."""
    point_shares: dict[int, float] = field(default_factory=lambda: {1: 0.4, 2: 0.4, 3: 0.2})
    people_icon_share: float = 0.25
    busy_zoo: bool = False
    """Add the Busy Zoo expansion's Zoo Cards to the base ones."""
    animal_cards: dict[str, int] = field(default_factory=lambda: dict(PUBLISHED_ANIMAL_CARDS))
    wild_animal_cards: dict[str, int] = field(default_factory=lambda: dict(PUBLISHED_WILD_CARDS))
    wild_animals: bool = False
    """Add the Wild Animals expansion's Animal Cards."""

    def __post_init__(self) -> None:
        for name in ("base_zoo_cards", "busy_zoo_cards"):
            object.__setattr__(self, name, whole_number(getattr(self, name), name, 0))
        for name, table in (
            ("base_cycle_sizes", self.base_cycle_sizes),
            ("busy_cycle_sizes", self.busy_cycle_sizes),
        ):
            for size in table:
                whole_number(size, f"{name}.{size}", MIN_CYCLE, MAX_CYCLE)
        for value in self.point_shares:
            whole_number(value, f"point_shares.{value}", 1)
        for name, table, cards in (
            ("base_cycle_sizes", self.base_cycle_sizes, self.base_zoo_cards),
            ("busy_cycle_sizes", self.busy_cycle_sizes, self.busy_zoo_cards),
            ("point_shares", self.point_shares, self.base_zoo_cards),
            ("point_shares", self.point_shares, self.busy_zoo_cards),
        ):
            listed = sum(ceil_counts(table, cards, name).values())
            if listed < cards:
                raise SettingsError(
                    name,
                    f"the shares list only {listed} entries for {cards} cards: "
                    "make the shares add up to at least 1",
                )
        _share(self.people_icon_share, "people_icon_share")
        if not isinstance(self.busy_zoo, bool):
            raise SettingsError("busy_zoo", f"{self.busy_zoo!r} is not true or false")
        if not isinstance(self.wild_animals, bool):
            raise SettingsError("wild_animals", f"{self.wild_animals!r} is not true or false")
        types = tuple(self.busy_special_types)
        if not types:
            raise SettingsError("busy_special_types", "give at least one special type")
        for kind in types:
            if kind not in SPECIAL_TYPES:
                raise SettingsError(
                    "busy_special_types",
                    f"unknown special type {kind!r}; allowed are {', '.join(SPECIAL_TYPES)}",
                )
        object.__setattr__(self, "busy_special_types", types)
        object.__setattr__(
            self,
            "animal_cards",
            _animal_counts(self.animal_cards, "animal_cards", PUBLISHED_ANIMAL_CARDS),
        )
        object.__setattr__(
            self,
            "wild_animal_cards",
            _animal_counts(self.wild_animal_cards, "wild_animal_cards", PUBLISHED_WILD_CARDS),
        )
        if self.base_zoo_cards + (self.busy_zoo_cards if self.busy_zoo else 0) == 0:
            raise SettingsError("base_zoo_cards", "the deck has no Zoo Cards: give at least 1")


def _decimal(value: Any, key: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise SettingsError(key, f"{value!r} is not a number")
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not number.is_finite():
        raise SettingsError(key, f"{value!r} is not a finite number")
    return number


def _share(value: Any, key: str) -> Decimal:
    share = _decimal(value, key)
    if not 0 <= share <= 1:
        raise SettingsError(key, f"{value!r} is out of range: give a share from 0 to 1")
    return share


def ceil_counts(shares: Mapping[int, float], n_cards: int, key: str = "shares") -> dict[int, int]:
    """How many times the generator lists each value: ``ceil(share * n_cards)``, exactly.

    >>> ceil_counts({2: 0.05, 3: 0.25, 4: 0.45, 5: 0.25}, 26)
    {2: 2, 3: 7, 4: 12, 5: 7}
    """
    return {
        value: math.ceil(_share(shares[value], f"{key}.{value}") * n_cards)
        for value in sorted(shares)
    }


def js_round(value: float | Decimal) -> int:
    """JavaScript's ``Math.round`` on the exact decimal value: halves round up."""
    return math.floor(_decimal(value, "value") + Decimal("0.5"))


def _listed(counts: dict[int, int]) -> np.ndarray:
    values = [value for value, count in sorted(counts.items()) for _ in range(count)]
    return np.array(values, dtype=np.int64)


def generator_tables(spec: DeckSpec) -> GeneratorTables:
    """The lists the compiled generator draws from for this spec (see
    :class:`~zooanalysis.games.lucky_lions.generator.GeneratorTables`), rounded exactly."""

    def people(cards: int) -> int:
        return js_round(spec.people_icon_share * cards) if cards else 0

    busy_cards = spec.busy_zoo_cards if spec.busy_zoo else 0
    types: list[int] = []
    while len(types) < busy_cards:
        types.extend(SPECIAL_TYPES.index(kind) for kind in spec.busy_special_types)
    return GeneratorTables(
        base_cards=spec.base_zoo_cards,
        base_sizes=_listed(ceil_counts(spec.base_cycle_sizes, spec.base_zoo_cards)),
        base_points=_listed(ceil_counts(spec.point_shares, spec.base_zoo_cards)),
        base_people=people(spec.base_zoo_cards),
        busy_cards=busy_cards,
        busy_sizes=_listed(ceil_counts(spec.busy_cycle_sizes, busy_cards)),
        busy_points=_listed(ceil_counts(spec.point_shares, busy_cards)),
        busy_types=np.array(types, dtype=np.int64),
        busy_people=people(busy_cards),
    )


def _animal_counts(counts: Mapping[str, Any], key: str, defaults: Mapping[str, int]) -> dict:
    if not isinstance(counts, Mapping):
        raise SettingsError(key, f"give a table of animal names and card counts, not {counts!r}")
    reject_unknown_keys(counts, ANIMALS, prefix=f"{key}.")
    return {
        animal: whole_number(counts.get(animal, defaults[animal]), f"{key}.{animal}", 0)
        for animal in ANIMALS
    }


def _seed_value(seed: int | np.random.SeedSequence) -> int:
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0])
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed: {seed!r} is not a whole number >= 0")
    return int(seed) % 2**64


def generate_zoo_cards(spec: DeckSpec, seed: int | np.random.SeedSequence) -> list[ZooCard]:
    """The deck's Zoo Cards as the publisher's generator makes them; the same for a seed.

    The base cards come first, then (with ``spec.busy_zoo``) the Busy Zoo cards, each
    group from its own run of the algorithm, in one random stream (the games' SplitMix64
    stream started from ``seed``, see :mod:`~zooanalysis.games.lucky_lions.generator`).
    """
    rows = generate_rows(generator_tables(spec), game_stream(_seed_value(seed), 0))
    return [card_from_row(row) for row in rows]


def animal_cards_from_counts(
    animals: Mapping[str, int], wild: Mapping[str, int] | None = None
) -> list[AnimalCard]:
    """Animal Cards for counts per animal name: the plain ones, then the wild ones."""
    cards = [AnimalCard(i) for i, a in enumerate(ANIMALS) for _ in range(animals.get(a, 0))]
    for i, a in enumerate(ANIMALS):
        cards.extend(AnimalCard(i, wild=True) for _ in range((wild or {}).get(a, 0)))
    return cards


def generate_animal_cards(spec: DeckSpec) -> list[AnimalCard]:
    """The Animal Cards: the base ones, then the Wild Animals ones if ``spec.wild_animals``."""
    return animal_cards_from_counts(
        spec.animal_cards, spec.wild_animal_cards if spec.wild_animals else None
    )


# --- deck files --------------------------------------------------------------------------------


def _cycle_text(cycle: Iterable[int]) -> str:
    """A cycle with its arrows, ``fox -> lion``: never ">", the arrowed animal is not the
    winner (see docs/rules-decisions.md)."""
    return " -> ".join(ANIMALS[a] for a in cycle)


class _Card:
    """Where a card's errors point: ``zoo_card[3].points``, with the file and the cycle."""

    def __init__(self, number: int, path: Path) -> None:
        self.number = number
        self.path = path
        self.cycle: tuple[int, ...] | None = None

    def fail(self, field_name: str, message: str) -> SettingsError:
        where = f"zoo_card[{self.number}]"
        if self.cycle is not None:
            where += f" {_cycle_text(self.cycle)}"
        return SettingsError(
            f"zoo_card[{self.number}].{field_name}", f"{message} ({where}, in {self.path})"
        )


def _parse_card(table: Any, number: int, path: Path) -> ZooCard:
    card = _Card(number, path)
    if not isinstance(table, dict):
        raise card.fail("cycle", "a Zoo Card must be a table: write it as [[zoo_card]]")
    if "cycle" not in table:
        raise card.fail("cycle", 'missing: give 2-5 distinct animals, e.g. ["lion", "fox"]')
    cycle_given = table["cycle"]
    if not isinstance(cycle_given, list):
        raise card.fail(
            "cycle", f'{cycle_given!r} is not a list of 2-5 animals, e.g. ["lion", "fox"]'
        )
    cycle = []
    for name in cycle_given:
        try:
            cycle.append(parse_animal(name))
        except ValueError as error:
            raise card.fail("cycle", str(error)) from None
    if len(set(cycle)) != len(cycle):
        repeated = sorted({ANIMALS[a] for a in cycle if cycle.count(a) > 1})
        raise card.fail(
            "cycle", f"{', '.join(repeated)} appears more than once; a cycle's animals are distinct"
        )
    if not MIN_CYCLE <= len(cycle) <= MAX_CYCLE:
        raise card.fail(
            "cycle",
            f"has {len(cycle)} animal{'s' if len(cycle) != 1 else ''}; "
            f"a cycle has {MIN_CYCLE} to {MAX_CYCLE} distinct animals",
        )
    card.cycle = tuple(cycle)
    for key in table:
        if key not in CARD_KEYS:
            raise card.fail(key, f"unknown key; allowed are {', '.join(CARD_KEYS)}")

    if "points" not in table:
        raise card.fail("points", "missing: give a positive whole number (1-3 when printed)")
    points = table["points"]
    if (
        isinstance(points, bool)
        or not isinstance(points, int | float)
        or (isinstance(points, float) and not points.is_integer())
        or points < 1
    ):
        raise card.fail("points", f"{points!r} is not a positive whole number")

    special = table.get("special")
    if special is not None and special not in SPECIAL_TYPES:
        raise card.fail(
            "special", f"unknown special type {special!r}; allowed are {', '.join(SPECIAL_TYPES)}"
        )

    people = table.get("people", special == "player_exclude")
    if not isinstance(people, bool):
        raise card.fail("people", f"{people!r} is not true or false")
    if people and special == "extra_rule":
        raise card.fail("people", "extra_rule cards never have the people icon: remove it")
    if not people and special == "player_exclude":
        raise card.fail("people", "player_exclude cards always have the people icon")

    needed = SPECIAL_ANIMALS_NEEDED.get(special, 0)
    if "animals" in table and not needed:
        raise card.fail(
            "animals",
            "only autowin and autolose (1 animal) and extra_rule (2 animals) cards name "
            f"animals; this card is {special or 'a regular card'}: remove 'animals'",
        )
    if needed and "animals" not in table:
        what = "X" if needed == 1 else "X and Y, as in 'X beats Y'"
        raise card.fail(
            "animals",
            f"missing: {special} cards name {needed} animal{'s' if needed != 1 else ''} "
            f"({what}), e.g. animals = {_toml_list(ANIMALS[:needed])}",
        )
    named_given = table.get("animals", [])
    if not isinstance(named_given, list) or len(named_given) != needed:
        what = "X" if needed == 1 else "X and Y, as in 'X beats Y'"
        raise card.fail(
            "animals",
            f"{special} names {needed} animal{'s' if needed != 1 else ''} ({what}), "
            f"got {named_given!r}",
        )
    named = []
    for name in named_given:
        try:
            named.append(parse_animal(name))
        except ValueError as error:
            raise card.fail("animals", str(error)) from None
    if len(set(named)) != len(named):
        raise card.fail("animals", f"{special} needs two different animals, got {named_given!r}")
    return ZooCard(card.cycle, int(points), people, special, tuple(named))


def _file_counts(data: dict, key: str, defaults: Mapping[str, int], path: Path) -> dict:
    table = data[key]
    if not isinstance(table, dict):
        raise SettingsError(key, f"give a table [{key}] of animal card counts (in {path})")
    for name in table:
        if name not in ANIMALS:
            raise SettingsError(
                f"{key}.{name}", f"unknown animal; allowed are {', '.join(ANIMALS)} (in {path})"
            )
    counts = {}
    for animal in ANIMALS:
        value = table.get(animal, defaults[animal])
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not value.is_integer())
            or value < 0
        ):
            raise SettingsError(
                f"{key}.{animal}", f"{value!r} is not a whole number of at least 0 (in {path})"
            )
        counts[animal] = int(value)
    return counts


def deck_from_toml(path: str | Path) -> tuple[list[ZooCard], dict[str, int], dict[str, int]]:
    """Read a designer's deck file: (Zoo Cards, Animal Card counts, Wild Animals counts).

    The counts map every animal name to a number of cards; without a ``[wild_animals]``
    table the wild counts are all 0. Mistakes raise ``SettingsError`` (``UserError`` for a
    missing file or invalid TOML), naming the file, the card and the field.
    """
    path = Path(path)
    data = read_toml(path, "deck file", DECK_FILE_KEYS)
    animals = (
        _file_counts(data, "animals", PUBLISHED_ANIMAL_CARDS, path)
        if "animals" in data
        else dict(PUBLISHED_ANIMAL_CARDS)
    )
    wild = (
        _file_counts(data, "wild_animals", PUBLISHED_WILD_CARDS, path)
        if "wild_animals" in data
        else dict.fromkeys(ANIMALS, 0)
    )
    tables = data.get("zoo_card", [])
    if not isinstance(tables, list):
        raise SettingsError("zoo_card", f"write each Zoo Card as a [[zoo_card]] table (in {path})")
    if not tables:
        raise SettingsError(
            "zoo_card", f"the deck is empty: add at least one [[zoo_card]] table (in {path})"
        )
    if sum(animals.values()) + sum(wild.values()) == 0:
        raise SettingsError("animals", f"the deck has no Animal Cards (in {path})")
    cards = [_parse_card(table, i, path) for i, table in enumerate(tables, start=1)]
    return cards, animals, wild


def _toml_list(names: Iterable[str]) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def deck_to_toml(
    cards: Sequence[ZooCard],
    animals: Mapping[str, int] | None = None,
    wild: Mapping[str, int] | None = None,
) -> str:
    """A deck file (the format :func:`deck_from_toml` reads) for these cards and counts.

    ``animals`` defaults to the published counts; ``wild`` tables with no card are left out.
    """
    animals = {**PUBLISHED_ANIMAL_CARDS, **(animals or {})}
    lines = [
        "# Lucky Lions deck: Animal Card counts and one [[zoo_card]] table per Zoo Card.",
        "# Cycles list animals in arrow order; the last animal's arrow points to the first.",
        "",
        "[animals]",
        *(f"{a} = {int(animals[a])}" for a in ANIMALS),
    ]
    if wild and any(wild.values()):
        lines += ["", "[wild_animals]", *(f"{a} = {int(wild.get(a, 0))}" for a in ANIMALS)]
    for card in cards:
        lines += ["", "[[zoo_card]]", f"cycle = {_toml_list(ANIMALS[a] for a in card.cycle)}"]
        lines.append(f"points = {int(card.points)}")
        if card.people:
            lines.append("people = true")
        elif card.special == "player_exclude":
            lines.append("people = false")
        if card.special:
            lines.append(f'special = "{card.special}"')
        if card.special_animals:
            lines.append(f"animals = {_toml_list(ANIMALS[a] for a in card.special_animals)}")
    return "\n".join(lines) + "\n"


# --- describing a deck -------------------------------------------------------------------------


def special_text(card: ZooCard) -> str:
    """What a card's special rule says, e.g. ``lion always wins; everything else is a tie``."""
    named = [ANIMALS[a] for a in card.special_animals]
    x = named[0] if named else "X"
    y = named[1] if len(named) > 1 else "Y"
    texts = {
        None: "",
        "autowin": f"{x} always wins; everything else is a tie (cycle hidden)",
        "autolose": f"{x} always loses; everything else is a tie (cycle hidden)",
        "player_exclude": "pick one player who does not roll",
        "extra_rule": f"{x} beats {y} if only those animals are played",
        "die_split": f"only use {len(card.cycle)} cards for your die",
        "double_roll": "all battlers roll twice and keep one",
    }
    return texts.get(card.special, str(card.special))


def describe_deck(cards: Sequence[ZooCard]) -> str:
    """A readable table of the Zoo Cards, one line each (for ``zoosim deck``)."""
    rows = [
        (
            str(i),
            _cycle_text(card.cycle),
            str(card.points),
            "yes" if card.people else "",
            special_text(card),
        )
        for i, card in enumerate(cards, start=1)
    ]
    header = ("#", "cycle", "points", "people", "special")
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
    aligned_right = (0, 2)

    def line(row: Sequence[str]) -> str:
        cells = [
            cell.rjust(widths[c]) if c in aligned_right else cell.ljust(widths[c])
            for c, cell in enumerate(row)
        ]
        return "  ".join(cells).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(row) for row in rows]
    out.append(
        f"{len(cards)} Zoo Card{'s' if len(cards) != 1 else ''}; "
        "each cycle's last animal points back to its first"
    )
    return "\n".join(out)


def deck_statistics(cards: Sequence[ZooCard]) -> pd.DataFrame:
    """Counts and shares of cycle sizes, points, people icons, specials and animals.

    One row per ``(category, value)`` with ``count`` cards and ``share`` of all cards;
    categories are ``cycle size``, ``points``, ``people icon`` (yes/no), ``special``
    (``regular`` or a type) and ``animal`` (cards whose cycle shows that animal).
    """
    n = len(cards)
    rows: list[tuple[str, Any, int]] = []
    sizes = [len(c.cycle) for c in cards]
    for size in range(MIN_CYCLE, MAX_CYCLE + 1):
        rows.append(("cycle size", size, sizes.count(size)))
    points = [c.points for c in cards]
    for value in sorted({1, 2, 3} | set(points)):
        rows.append(("points", value, points.count(value)))
    icons = sum(1 for c in cards if c.people)
    rows += [("people icon", "yes", icons), ("people icon", "no", n - icons)]
    specials = [c.special or "regular" for c in cards]
    for kind in ("regular", *SPECIAL_TYPES):
        rows.append(("special", kind, specials.count(kind)))
    for i, animal in enumerate(ANIMALS):
        rows.append(("animal", animal, sum(1 for c in cards if i in c.cycle)))
    frame = pd.DataFrame(rows, columns=["category", "value", "count"])
    frame["share"] = frame["count"] / n if n else 0.0
    return frame
