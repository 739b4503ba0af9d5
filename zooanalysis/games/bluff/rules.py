"""Bluff in Zoo rules in plain Python: the settings, the deck, claims and how a doubt counts.

This module is the specification the numba kernel is tested against; every rule number
in the rulebook is a field of :class:`BluffSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from zooanalysis.errors import SettingsError
from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    ANIMAL_VALUES,
    COUNT_ONE,
    N_CARD_TYPES,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
    animal_type,
    parse_card,
    parse_kind,
    type_counts,
)
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True)
class DeckSettings:
    """How many cards of each sort the deck holds (the published deck by default: 107 cards)."""

    animal_cards_per_value: int = 5
    """Cards of each animal kind and each value 1-3 (5 x 5 kinds x 3 values = 75)."""
    wild_1: int = 6
    wild_2: int = 6
    count_one: int = 6
    """Action cards "All cards count 1"."""
    all_equal: int = 6
    """Action cards "All animals are equal"."""
    stop: int = 8

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """How many cards of each integer card type the deck holds (computed once)."""
        counts = [0] * N_CARD_TYPES
        for kind in range(N_KINDS):
            for value in ANIMAL_VALUES:
                counts[animal_type(kind, value)] = self.animal_cards_per_value
        counts[WILD_1] = self.wild_1
        counts[WILD_2] = self.wild_2
        counts[COUNT_ONE] = self.count_one
        counts[ALL_EQUAL] = self.all_equal
        counts[STOP] = self.stop
        return tuple(counts)

    def type_counts(self) -> np.ndarray:
        """How many cards of each integer card type the deck holds, as a fresh array."""
        return np.array(self.counts, dtype=np.int64)

    def cards(self) -> np.ndarray:
        """The unshuffled deck as integer card types, in type order."""
        return np.repeat(np.arange(N_CARD_TYPES, dtype=np.int8), self.type_counts())

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return int(self.type_counts().sum())


@dataclass(frozen=True)
class BluffSettings:
    """Every rule number of Bluff in Zoo. Defaults are the published rules."""

    players: int = 4
    hand_size: int = 5
    points_to_end: int = 30
    """The game ends once a player has this many penalty points or more."""
    max_claim_count: int = 0
    """Largest count a claim may name; 0 means "the most animals the deck could show".

    The rulebook sets no limit; the cap only guarantees that a round ends (once nobody can
    raise, the next player must doubt). See docs/rules-decisions.md."""
    deck: DeckSettings = field(default_factory=DeckSettings)

    @cached_property
    def claim_cap(self) -> int:
        """The effective largest claim count (computed once)."""
        return self.max_claim_count or most_animals_possible(self.deck)

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain nested dict (as written to a scenario file or manifest)."""
        return asdict(self)


def most_animals_possible(deck: DeckSettings) -> int:
    """The largest count any doubt could find: every animal and wild card at full value."""
    counts = deck.type_counts()
    animal_total = sum(
        int(counts[animal_type(kind, value)]) * value
        for kind in range(N_KINDS)
        for value in ANIMAL_VALUES
    )
    return max(1, animal_total + int(counts[WILD_1]) + 2 * int(counts[WILD_2]))


def settings_from_table(table: Mapping[str, Any]) -> BluffSettings:
    """Build validated settings from a scenario file's ``[settings]`` table.

    Raises ``SettingsError`` naming the key and the allowed values.
    """
    top_keys = [name for name in BluffSettings.__dataclass_fields__ if name != "deck"]
    reject_unknown_keys(table, [*top_keys, "deck"])
    deck_table = table.get("deck", {})
    if not isinstance(deck_table, Mapping):
        raise SettingsError("deck", "must be a table of card counts")
    reject_unknown_keys(deck_table, DeckSettings.__dataclass_fields__, prefix="deck.")
    deck = DeckSettings(
        **{key: whole_number(value, f"deck.{key}", 0, 10_000) for key, value in deck_table.items()}
    )
    values = {key: table[key] for key in top_keys if key in table}
    settings = BluffSettings(
        players=whole_number(values.get("players", 4), "players", MIN_PLAYERS, MAX_PLAYERS),
        hand_size=whole_number(values.get("hand_size", 5), "hand_size", 1, 100),
        points_to_end=whole_number(values.get("points_to_end", 30), "points_to_end", 1, 100_000),
        max_claim_count=whole_number(values.get("max_claim_count", 0), "max_claim_count", 0),
        deck=deck,
    )
    validate(settings)
    return settings


def validate(settings: BluffSettings) -> None:
    """Reject settings no game can be played with (e.g. a deck too small to deal)."""
    whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    needed = settings.players * settings.hand_size
    if settings.deck.size < needed:
        raise SettingsError(
            "hand_size",
            f"hands of {settings.hand_size} for {settings.players} players need {needed} "
            f"cards, but the deck has {settings.deck.size}: lower hand_size or add cards",
        )
    animals = settings.deck.animal_cards_per_value + settings.deck.wild_1 + settings.deck.wild_2
    if animals == 0:
        raise SettingsError(
            "deck", "the deck holds no animal or wild card, so no claim can be true"
        )


# --- claims -------------------------------------------------------------------------------


def claim_beats(count: int, kind: int, previous_count: int, previous_kind: int) -> bool:
    """Whether claim ``(count, kind)`` bests the previous one.

    Rulebook: "Either you claim to have seen more animals than the player before you ... Or
    you claim to have seen bigger animals than the player before you. In this case, the number
    may be the same (but not smaller)." Before the first claim of a round ``previous_count``
    is 0, and the first claim must be exactly one animal (checked by the engine).
    """
    return count > previous_count or (count == previous_count and kind > previous_kind)


# --- counting a doubted pile -------------------------------------------------------------


def count_for_kind(pile_counts: np.ndarray, kind: int) -> int:
    """Number of animals of ``kind`` in a pile given as counts per card type.

    The rulebook, step by step:

    * the claimed kind's animal cards count their value;
    * "the wild cards always count as the kind of animal last claimed", with their value;
    * "All cards count 1": "All animal and wild cards count as if there were only one animal
      on them";
    * "All animals are equal": "All animals count as the kind last claimed, without changing
      their number";
    * both together: "All cards count as one animal, but of the kind last claimed";
    * "Additional action cards of the same kind have no additional effects";
    * "An odd number of stop cards has an effect [all action cards are ignored], while an
      even number doesn't"; stop cards never affect wild cards.
    """
    actions_on = pile_counts[STOP] % 2 == 0
    count_one = actions_on and pile_counts[COUNT_ONE] > 0
    all_equal = actions_on and pile_counts[ALL_EQUAL] > 0

    total = 0
    for animal_kind in range(N_KINDS):
        if animal_kind != kind and not all_equal:
            continue
        for value in ANIMAL_VALUES:
            cards = int(pile_counts[animal_type(animal_kind, value)])
            total += cards * (1 if count_one else value)
    wild_cards = int(pile_counts[WILD_1]) + int(pile_counts[WILD_2])
    total += wild_cards if count_one else int(pile_counts[WILD_1]) + 2 * int(pile_counts[WILD_2])
    return total


def count_claimed(cards: Sequence[str], kind: str) -> int:
    """Count the animals of ``kind`` in a pile, as when a claim is doubted.

    ``cards`` are written in the text notation (see ``cards.py``); the rules applied are
    those of :func:`count_for_kind`.

    >>> count_claimed(["fox:1", "wild:2", "action:count1", "mouse:3"], "mouse")
    2
    >>> count_claimed(["fox:1", "wild:2", "action:equal", "mouse:3"], "mouse")
    6
    """
    kind_index = parse_kind(kind)
    counts = type_counts(parse_card(card) for card in cards)
    return int(count_for_kind(counts, kind_index))
