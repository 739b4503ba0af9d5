"""Bluff in Zoo cards: the text notation and the integer card types both engines use.

Text notation (used in scenario files, logs and reports):

* animal cards ``"<kind>:<value>"`` with kind one of ``mouse rabbit fox lion elephant``
  and value 1-3, e.g. ``"lion:2"``;
* wild cards ``"wild:1"`` and ``"wild:2"``;
* action cards ``"action:count1"`` ("All cards count 1") and ``"action:equal"``
  ("All animals are equal");
* ``"stop"``.

Integer card types (what the engines store): animal of kind ``k`` (0 = mouse ...
4 = elephant) and value ``v`` is ``k * 3 + v - 1`` (0-14), then the wild, action and stop
cards (15-19). A pile is summarised by how many cards of each type it holds.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

KINDS: tuple[str, ...] = ("mouse", "rabbit", "fox", "lion", "elephant")
"""Animal kinds from smallest to biggest: a bigger kind beats the same count of a smaller one."""

N_KINDS = len(KINDS)
ANIMAL_VALUES: tuple[int, ...] = (1, 2, 3)
N_ANIMAL_TYPES = N_KINDS * len(ANIMAL_VALUES)

WILD_1 = N_ANIMAL_TYPES
WILD_2 = WILD_1 + 1
COUNT_ONE = WILD_2 + 1
ALL_EQUAL = COUNT_ONE + 1
STOP = ALL_EQUAL + 1
N_CARD_TYPES = STOP + 1

_SPECIAL_NAMES = {
    WILD_1: "wild:1",
    WILD_2: "wild:2",
    COUNT_ONE: "action:count1",
    ALL_EQUAL: "action:equal",
    STOP: "stop",
}


def animal_type(kind: int, value: int) -> int:
    """Card type of the animal card of ``kind`` (0-4) showing ``value`` (1-3) animals."""
    return kind * len(ANIMAL_VALUES) + value - 1


def card_name(card_type: int) -> str:
    """Text notation of an integer card type, e.g. ``10 -> "lion:2"``."""
    if 0 <= card_type < N_ANIMAL_TYPES:
        kind, value_index = divmod(int(card_type), len(ANIMAL_VALUES))
        return f"{KINDS[kind]}:{ANIMAL_VALUES[value_index]}"
    if card_type in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[card_type]
    raise ValueError(f"unknown card type {card_type!r}: allowed 0-{N_CARD_TYPES - 1}")


CARD_NAMES: tuple[str, ...] = tuple(card_name(t) for t in range(N_CARD_TYPES))
_TYPE_BY_NAME = {name: t for t, name in enumerate(CARD_NAMES)}


def parse_card(text: str) -> int:
    """Integer card type of a card written in text notation; ``ValueError`` names bad input."""
    if not isinstance(text, str) or text.strip().lower() not in _TYPE_BY_NAME:
        raise ValueError(
            f"malformed card {text!r}: allowed are '<kind>:<value>' with kind one of "
            f"{', '.join(KINDS)} and value 1-3, 'wild:1', 'wild:2', 'action:count1', "
            "'action:equal' or 'stop'"
        )
    return _TYPE_BY_NAME[text.strip().lower()]


def parse_kind(text: str) -> int:
    """Index (0 = mouse ... 4 = elephant) of an animal kind; ``ValueError`` names bad input."""
    if not isinstance(text, str) or text.strip().lower() not in KINDS:
        raise ValueError(f"unknown animal kind {text!r}: allowed are {', '.join(KINDS)}")
    return KINDS.index(text.strip().lower())


def type_counts(card_types: Iterable[int]) -> np.ndarray:
    """How many cards of each type a collection of integer card types holds."""
    counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for card in card_types:
        counts[card] += 1
    return counts

