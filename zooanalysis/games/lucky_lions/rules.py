"""Lucky Lions settings: every rule number, the variants and expansions, and the deck source.

A scenario file's ``[settings]`` table::

    players = 4              # 2-5
    die_size = 6             # Animal Cards dealt to each player (the "die")
    points_to_win = 10
    market_size = 4          # face-up Zoo Cards (the publisher's generator uses 3)
    deck = "generated"       # "generated": a fresh print for every game; "fixed": one print
                             # from deck_seed for every game; or a deck file's path
    deck_seed = 1
    reduced_die = false      # variant: battlers pick as many cards as the card has arrows
    no_shuffle = false       # variant: roll the top card, returned cards to the bottom
    reshuffle_at_points = 5  # ... and reshuffle once at this many points
    draw_instead = false     # variant: refuse a won card and draw that many Animal Cards
    refused_zoo_card = "deck_bottom"  # ... the refused card goes to the bottom of the Zoo
                             # deck ("market": back face up; "out_of_game": it leaves)
    busy_zoo = false         # expansion: people icons and the six special Zoo Cards
    wild_animals = false     # expansion: Animal Cards with their animal's power
    panda_switch = "rejudge" # a wild panda's switch: the shown animals are judged on the new
                             # card ("reroll": the battle starts afresh on it)
    turn_limit = 1000        # safety stop (a game that long is reported as such)

    [settings.generator]     # the deck generator's numbers (see decks.DeckSpec)
    base_zoo_cards = 26
    base_cycle_sizes = { 2 = 0.05, 3 = 0.25, 4 = 0.45, 5 = 0.25 }
    animal_cards = { lion = 9 }
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from zooanalysis.errors import SettingsError
from zooanalysis.games.lucky_lions.cards import ANIMALS, ZooCard
from zooanalysis.games.lucky_lions.decks import (
    DeckSpec,
    deck_from_toml,
    generate_zoo_cards,
    generator_tables,
)
from zooanalysis.games.lucky_lions.flat import N_TYPES, card_rows
from zooanalysis.games.lucky_lions.generator import GeneratorTables
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 5
GENERATED = "generated"
FIXED = "fixed"
FLAGS = ("reduced_die", "no_shuffle", "draw_instead", "busy_zoo", "wild_animals")
"""The variants and expansions, each a true/false setting."""
_SPEC_FLAGS = ("busy_zoo", "wild_animals")
REFUSED_ZOO_CARD = ("deck_bottom", "market", "out_of_game")
"""Where a Zoo Card refused under "draw instead" goes (the kernel takes the index)."""
PANDA_SWITCH = ("rejudge", "reroll")
"""After a wild panda's switch: judge the shown animals on the new card, or roll again."""
_SHARE_TABLES = ("base_cycle_sizes", "busy_cycle_sizes", "point_shares")


@dataclass(frozen=True)
class LuckySettings:
    """Every rule number of Lucky Lions. Defaults are the published base game."""

    players: int = 4
    die_size: int = 6
    points_to_win: int = 10
    market_size: int = 4
    deck: str = GENERATED
    """``generated`` (a fresh print per game), ``fixed`` (one print from ``deck_seed``) or
    the path of a deck file (see ``decks.py``)."""
    deck_seed: int = 1
    reduced_die: bool = False
    no_shuffle: bool = False
    reshuffle_at_points: int = 5
    draw_instead: bool = False
    refused_zoo_card: str = "deck_bottom"
    """Draw instead: where the refused Zoo Card goes. "deck_bottom" (the market keeps its
    cards; the card comes round again), "market" (back face up, as a voided battle's card)
    or "out_of_game" (the earlier reading)."""
    busy_zoo: bool = False
    wild_animals: bool = False
    panda_switch: str = "rejudge"
    """Wild panda: after switching to another Zoo Card, the same shown animals are judged on
    it ("rejudge") or the battle starts afresh on it, rolls included ("reroll", the earlier
    reading)."""
    turn_limit: int = 1000
    generator: DeckSpec = field(default_factory=DeckSpec)

    def __post_init__(self) -> None:
        # The generator's expansion flags are this game's: one switch, not two.
        spec = replace(self.generator, busy_zoo=self.busy_zoo, wild_animals=self.wild_animals)
        object.__setattr__(self, "generator", spec)

    @property
    def fresh_decks(self) -> bool:
        """Whether every game generates its own print of the Zoo Cards."""
        return self.deck == GENERATED

    @cached_property
    def _file_deck(self) -> tuple[list[ZooCard], dict[str, int], dict[str, int]] | None:
        if self.deck in (GENERATED, FIXED):
            return None
        return deck_from_toml(self.deck)

    @cached_property
    def fixed_cards(self) -> list[ZooCard]:
        """The Zoo Cards every game uses (empty for fresh decks)."""
        if self.deck == GENERATED:
            return []
        if self.deck == FIXED:
            return generate_zoo_cards(self.generator, self.deck_seed)
        return self._file_deck[0]

    def fixed_rows(self) -> np.ndarray:
        """:attr:`fixed_cards` as flat rows (shape ``(0, CARD_FIELDS)`` for fresh decks)."""
        return card_rows(self.fixed_cards)

    @cached_property
    def tables(self) -> GeneratorTables:
        """The generator's lists for fresh decks."""
        return generator_tables(self.generator)

    @property
    def zoo_cards(self) -> int:
        """Zoo Cards in one game's deck."""
        return self.tables.cards if self.fresh_decks else len(self.fixed_cards)

    @cached_property
    def animal_counts(self) -> tuple[int, ...]:
        """Animal Cards per type: the plain animals, then the wild ones (0 without Wild
        Animals)."""
        if self._file_deck is not None:
            plain, wild = self._file_deck[1], self._file_deck[2]
        else:
            plain, wild = self.generator.animal_cards, self.generator.wild_animal_cards
        counts = [plain[a] for a in ANIMALS]
        counts += [wild[a] if self.wild_animals else 0 for a in ANIMALS]
        return tuple(counts)

    def animal_type_counts(self) -> np.ndarray:
        """:attr:`animal_counts` as a fresh ``int64`` array of ``N_TYPES``."""
        return np.array(self.animal_counts, dtype=np.int64)

    def animal_cards(self) -> np.ndarray:
        """The unshuffled Animal Cards as types."""
        return np.repeat(np.arange(N_TYPES, dtype=np.int64), self.animal_type_counts())

    def to_dict(self) -> dict[str, Any]:
        """The settings as a scenario ``[settings]`` table (share tables with text keys)."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "generator"}
        spec = {
            f.name: getattr(self.generator, f.name)
            for f in fields(self.generator)
            if f.name not in _SPEC_FLAGS
        }
        for name in _SHARE_TABLES:
            spec[name] = {str(k): v for k, v in spec[name].items()}
        spec["busy_special_types"] = list(spec["busy_special_types"])
        values["generator"] = spec
        return values


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(key, f"{value!r} is not true or false")
    return value


def _share_table(value: Any, key: str) -> dict[int, float]:
    if not isinstance(value, Mapping):
        raise SettingsError(key, f"give a table of values and shares, not {value!r}")
    table = {}
    for text, share in value.items():
        try:
            number = int(str(text))
        except ValueError:
            raise SettingsError(f"{key}.{text}", "the key must be a whole number") from None
        table[number] = share
    return table


def _generator_spec(table: Any) -> DeckSpec:
    if not isinstance(table, Mapping):
        raise SettingsError("generator", "must be a table of deck generator numbers")
    allowed = [f.name for f in fields(DeckSpec) if f.name not in _SPEC_FLAGS]
    reject_unknown_keys(table, allowed, prefix="generator.")
    values = dict(table)
    for name in _SHARE_TABLES:
        if name in values:
            values[name] = _share_table(values[name], f"generator.{name}")
    if "busy_special_types" in values:
        values["busy_special_types"] = tuple(values["busy_special_types"])
    try:
        return DeckSpec(**values)
    except SettingsError as error:
        raise SettingsError(f"generator.{error.key}", error.problem) from None


def _choice(table: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = table.get(key, allowed[0])
    if value not in allowed:
        raise SettingsError(key, f"{value!r} is not allowed; allowed are {', '.join(allowed)}")
    return value


def settings_from_table(table: Mapping[str, Any]) -> LuckySettings:
    """Validated settings from a scenario file's ``[settings]`` table.

    Raises ``SettingsError`` naming the key and the allowed values.
    """
    names = [f.name for f in fields(LuckySettings)]
    reject_unknown_keys(table, names)
    deck = table.get("deck", GENERATED)
    if not isinstance(deck, str) or not deck.strip():
        raise SettingsError("deck", f"{deck!r}: give 'generated', 'fixed' or a deck file's path")
    deck = deck.strip()
    if deck not in (GENERATED, FIXED) and not Path(deck).is_file():
        raise SettingsError(
            "deck", f"no such deck file {deck!r}: give 'generated', 'fixed' or a deck file's path"
        )
    settings = LuckySettings(
        players=whole_number(table.get("players", 4), "players", MIN_PLAYERS, MAX_PLAYERS),
        die_size=whole_number(table.get("die_size", 6), "die_size", 1, 100),
        points_to_win=whole_number(table.get("points_to_win", 10), "points_to_win", 1, 10_000),
        market_size=whole_number(table.get("market_size", 4), "market_size", 1, 100),
        deck=deck,
        deck_seed=whole_number(table.get("deck_seed", 1), "deck_seed", 0, 2**63 - 1),
        reshuffle_at_points=whole_number(
            table.get("reshuffle_at_points", 5), "reshuffle_at_points", 0, 10_000
        ),
        turn_limit=whole_number(table.get("turn_limit", 1000), "turn_limit", 1, 1_000_000),
        refused_zoo_card=_choice(table, "refused_zoo_card", REFUSED_ZOO_CARD),
        panda_switch=_choice(table, "panda_switch", PANDA_SWITCH),
        generator=_generator_spec(table.get("generator", {})),
        **{flag: _flag(table.get(flag, False), flag) for flag in FLAGS},
    )
    validate(settings)
    return settings


def validate(settings: LuckySettings) -> None:
    """Reject settings no game can be played with (e.g. too few Animal Cards to deal)."""
    whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    for key, allowed in (("refused_zoo_card", REFUSED_ZOO_CARD), ("panda_switch", PANDA_SWITCH)):
        _choice({key: getattr(settings, key)}, key, allowed)
    cards = settings.fixed_cards
    if not settings.busy_zoo:
        special = next((card for card in cards if card.special is not None), None)
        if special is not None:
            raise SettingsError(
                "busy_zoo",
                f"the deck has the special card {special.describe()!r}: set busy_zoo = true "
                "to play Busy Zoo's cards",
            )
    if settings.zoo_cards == 0:
        raise SettingsError("deck", "the deck has no Zoo Cards")
    needed = settings.players * settings.die_size
    available = sum(settings.animal_counts)
    if available < needed:
        raise SettingsError(
            "die_size",
            f"dice of {settings.die_size} for {settings.players} players need {needed} Animal "
            f"Cards, but the deck has {available}: lower die_size or add Animal Cards",
        )
