"""Lucky Lions cards: the five animals, Zoo Cards (a cycle, points, icons) and Animal Cards.

Animals are written in lowercase (``lion fox panda flamingo dolphin``) wherever cards are
text: scenario files, deck files, logs and reports. In code an animal is its index in
:data:`ANIMALS`. A cycle is the tuple of the Zoo Card's animals in arrow order: each
animal's arrow points to the next, the last one's back to the first.
"""

from __future__ import annotations

from dataclasses import dataclass

ANIMALS: tuple[str, ...] = ("lion", "fox", "panda", "flamingo", "dolphin")
N_ANIMALS = len(ANIMALS)

SPECIAL_TYPES: tuple[str, ...] = (
    "autowin",
    "autolose",
    "player_exclude",
    "extra_rule",
    "die_split",
    "double_roll",
)
"""Busy Zoo's special Zoo Cards (see the rules file for each card's text)."""

SPECIAL_ANIMALS_NEEDED = {"autowin": 1, "autolose": 1, "extra_rule": 2}
"""How many named animals a special card's text needs (X, or X and Y)."""


def parse_animal(name: str) -> int:
    """Index of an animal given by name; ``ValueError`` naming the input otherwise."""
    if not isinstance(name, str) or name.strip().lower() not in ANIMALS:
        raise ValueError(f"unknown animal {name!r}: allowed are {', '.join(ANIMALS)}")
    return ANIMALS.index(name.strip().lower())


@dataclass(frozen=True)
class ZooCard:
    """A Zoo Card: which animal beats which this turn, and what winning it scores."""

    cycle: tuple[int, ...]
    """Animals in arrow order (2-5 distinct animals)."""
    points: int
    people: bool = False
    """The Busy Zoo "people icon": every player rolls."""
    special: str | None = None
    """One of :data:`SPECIAL_TYPES`, or None for a regular card."""
    special_animals: tuple[int, ...] = ()
    """X for autowin/autolose, (X, Y) for extra_rule ("X beats Y")."""

    def describe(self) -> str:
        """One line of text, e.g. ``fox -> panda -> lion (2 points; people icon)``.

        The arrows are the card's: by the distance rule the animal an arrow points to
        beats the animal it comes from on a 3-cycle (panda beats fox), so they are not
        written as ">".
        """
        arrows = " -> ".join(ANIMALS[a] for a in self.cycle)
        extras = [f"{self.points} point{'s' if self.points != 1 else ''}"]
        if self.people:
            extras.append("people icon")
        if self.special:
            named = ", ".join(ANIMALS[a] for a in self.special_animals)
            extras.append(f"{self.special}{': ' + named if named else ''}")
        return f"{arrows} ({'; '.join(extras)})"


@dataclass(frozen=True)
class AnimalCard:
    """An Animal Card; ``wild`` cards (Wild Animals expansion) carry their animal's power."""

    animal: int
    wild: bool = False

    def describe(self) -> str:
        """The card as text, e.g. ``lion`` or ``lion (wild)``."""
        return ANIMALS[self.animal] + (" (wild)" if self.wild else "")
