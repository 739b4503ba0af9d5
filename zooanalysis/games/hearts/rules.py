"""Hearts' rule settings and its scoring, in plain Python.

Hearts is not in the compendium's rulebook (the Through the Zoo exhibit card only says "It
is a Hold hand" and "Shooting the Moon is capturing all of the point cards in the hand");
these are the common rules (Pagat, "Hearts"; Parlett, *The Penguin Book of Card Games*),
with the points where the usual rule sets differ as settings. A scenario file's
``[settings]`` table maps onto :class:`HeartsSettings`; a mistake is a ``SettingsError``
naming the key and what is allowed::

    players = 4
    passing = "cycle"           # left, right, across, hold, repeated; or "hold", "left",
                                # "right", "across" every hand
    pass_cards = 3
    hearts_must_be_broken = true
    queen_breaks_hearts = true
    no_points_first_trick = true
    first_lead = "two-of-clubs" # or "start-seat": the hand's start seat leads any card
    moon = "others-take"        # or "shooter-subtracts", or "off"
    heart_points = 1
    queen_points = 13
    jack_of_diamonds = 0        # -10 in the Omnibus variant
    end_score = 100
    max_hands = 100

:func:`hand_scores` is the scoring, written once for both engines (the kernel calls it), and
:func:`rules_array` flattens the settings into the int64 array the kernel reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
from numba import njit

from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 4
MAX_PLAYERS = 4
CARDS_PER_PLAYER = 13
"""Every hand deals the 52-card deck, 13 cards to each of the 4 players."""

PASSING_NAMES = ("cycle", "hold", "left", "right", "across")
CYCLE, HOLD, LEFT, RIGHT, ACROSS = range(len(PASSING_NAMES))
DIRECTION_NAMES = ("hold", "left", "right", "across")
"""Where a hand's cards go, as seat offsets: hold 0, left +1 (the next seat in play
order), right -1, across +2."""
CYCLE_DIRECTIONS = (1, 2, 3, 0)
"""The cycle: left, right, across, hold (indices into ``DIRECTION_NAMES``)."""

FIRST_LEAD_NAMES = ("two-of-clubs", "start-seat")
LEAD_TWO_OF_CLUBS, START_SEAT = range(len(FIRST_LEAD_NAMES))

MOON_NAMES = ("others-take", "shooter-subtracts", "off")
OTHERS_TAKE, SHOOTER_SUBTRACTS, MOON_OFF = range(len(MOON_NAMES))

MAX_POINTS = 100
MAX_END_SCORE = 10_000
MAX_HANDS = 1000

# slots of the kernel's rules array
(
    R_PASSING,
    R_PASS_CARDS,
    R_MUST_BREAK,
    R_QUEEN_BREAKS,
    R_NO_FIRST_POINTS,
    R_FIRST_LEAD,
    R_MOON,
    R_HEART_POINTS,
    R_QUEEN_POINTS,
    R_JACK_POINTS,
    R_END_SCORE,
    R_MAX_HANDS,
    R_SIZE,
) = range(13)


@dataclass(frozen=True)
class HeartsSettings:
    """Every rule of Hearts that common rule sets differ on. Defaults: the usual American
    game (Pagat's "Hearts"), played to 100."""

    players: int = 4
    passing: str = "cycle"
    """Passing before play: "cycle" (left, right, across, hold, repeated), "hold" (never:
    the Through the Zoo exhibit), or always "left", "right" or "across"."""
    pass_cards: int = 3
    """Cards each player passes."""
    hearts_must_be_broken: bool = True
    """Hearts may not be led until a heart (or the Queen, below) has been played, unless
    the leader holds nothing else."""
    queen_breaks_hearts: bool = True
    """Playing the Queen of Spades breaks hearts too."""
    no_points_first_trick: bool = True
    """No heart and no Queen of Spades may be played to the first trick unless the player
    holds nothing else."""
    first_lead: str = "two-of-clubs"
    """"two-of-clubs": its holder leads it to the first trick; "start-seat": the hand's start
    seat (seat 1, then the next seat each hand) leads any card."""
    moon: str = "others-take"
    """Shooting the moon (one player takes every point card dealt: all hearts and the
    Queen): "others-take" (every other player takes that many points, 26, the shooter 0),
    "shooter-subtracts" (the shooter scores minus 26), or "off" (no moon)."""
    heart_points: int = 1
    queen_points: int = 13
    jack_of_diamonds: int = 0
    """Points for taking the Jack of Diamonds (-10 in the Omnibus variant); it is not a
    point card for the moon."""
    end_score: int = 100
    """The game (match) ends after the hand in which a player reaches this score; the
    fewest points win."""
    max_hands: int = 100
    """The game also ends after this many hands (1: every game is one hand)."""

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain dict (the scenario-file format)."""
        return asdict(self)

    @property
    def passing_id(self) -> int:
        """The passing rule's id (``CYCLE``, ``HOLD`` ...)."""
        return PASSING_NAMES.index(self.passing)

    def direction(self, hand_index: int) -> int:
        """Where cards go in hand ``hand_index`` (an index into ``DIRECTION_NAMES``)."""
        return pass_direction(self.passing_id, hand_index)

    def for_exhibit(self) -> HeartsSettings:
        """These settings as the Through the Zoo exhibit card changes them: "It is a Hold
        hand"; the start player leads (several or no Twos of Clubs may be dealt from
        personal decks); one hand is the whole game."""
        return replace(self, passing="hold", first_lead="start-seat", max_hands=1)


_BOOLEAN_KEYS = ("hearts_must_be_broken", "queen_breaks_hearts", "no_points_first_trick")
_CHOICES = {"passing": PASSING_NAMES, "first_lead": FIRST_LEAD_NAMES, "moon": MOON_NAMES}
_NUMBERS = {
    "players": (MIN_PLAYERS, MAX_PLAYERS),
    "pass_cards": (1, CARDS_PER_PLAYER - 1),
    "heart_points": (0, MAX_POINTS),
    "queen_points": (0, MAX_POINTS),
    "jack_of_diamonds": (-MAX_POINTS, MAX_POINTS),
    "end_score": (1, MAX_END_SCORE),
    "max_hands": (1, MAX_HANDS),
}
KEYS = (*_NUMBERS, *_CHOICES, *_BOOLEAN_KEYS)


def settings_from_table(table: Mapping[str, Any]) -> HeartsSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and the allowed values otherwise)."""
    reject_unknown_keys(table, KEYS)
    values: dict[str, Any] = {}
    for key, (low, high) in _NUMBERS.items():
        if key in table:
            values[key] = whole_number(table[key], key, low, high)
    for key, names in _CHOICES.items():
        if key in table:
            if table[key] not in names:
                raise SettingsError(
                    key, f"{table[key]!r} is not allowed; allowed are {', '.join(names)}"
                )
            values[key] = table[key]
    for key in _BOOLEAN_KEYS:
        if key in table:
            if not isinstance(table[key], bool):
                raise SettingsError(key, f"{table[key]!r} is not true or false")
            values[key] = table[key]
    settings = HeartsSettings(**values)
    validate(settings)
    return settings


def validate(settings: HeartsSettings) -> None:
    """Reject settings no game can be played with."""
    whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    for key, names in _CHOICES.items():
        if getattr(settings, key) not in names:
            raise SettingsError(
                key, f"{getattr(settings, key)!r} is not allowed; allowed are {', '.join(names)}"
            )


def rules_array(settings: HeartsSettings) -> np.ndarray:
    """The settings as the kernel's int64 rules array (slots ``R_*``)."""
    rules = np.zeros(R_SIZE, dtype=np.int64)
    rules[R_PASSING] = settings.passing_id
    rules[R_PASS_CARDS] = settings.pass_cards
    rules[R_MUST_BREAK] = settings.hearts_must_be_broken
    rules[R_QUEEN_BREAKS] = settings.queen_breaks_hearts
    rules[R_NO_FIRST_POINTS] = settings.no_points_first_trick
    rules[R_FIRST_LEAD] = FIRST_LEAD_NAMES.index(settings.first_lead)
    rules[R_MOON] = MOON_NAMES.index(settings.moon)
    rules[R_HEART_POINTS] = settings.heart_points
    rules[R_QUEEN_POINTS] = settings.queen_points
    rules[R_JACK_POINTS] = settings.jack_of_diamonds
    rules[R_END_SCORE] = settings.end_score
    rules[R_MAX_HANDS] = settings.max_hands
    return rules


# --- rule functions both engines call ------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def pass_direction(passing: int, hand_index: int) -> int:
    """The direction (index into ``DIRECTION_NAMES``) of hand ``hand_index``'s passing."""
    if passing == CYCLE:
        return (1, 2, 3, 0)[hand_index % 4]
    return (0, 0, 1, 2, 3)[passing]


@njit(cache=True, nogil=True, error_model="numpy")
def pass_offset(direction: int, players: int) -> int:
    """How many seats on the receiver sits from the passer (0 when holding)."""
    if direction == 0:
        return 0
    if direction == 1:
        return 1
    if direction == 2:
        return players - 1
    return players // 2


@njit(cache=True, nogil=True, error_model="numpy")
def hand_scores(
    points: np.ndarray,
    point_cards: np.ndarray,
    jacks: np.ndarray,
    cards_dealt: int,
    moon_value: int,
    moon: int,
    players: int,
    out: np.ndarray,
) -> int:
    """Every seat's score for one hand into ``out``; returns the seat that shot the moon,
    or -1.

    ``points[seat]``: the points of the hearts and Queens it took; ``point_cards[seat]``:
    how many hearts and Queens of Spades it took; ``jacks[seat]``: the Jack-of-Diamonds
    points it took; ``cards_dealt``: hearts and Queens of Spades dealt this hand (14 with
    one deck); ``moon_value``: their points (26). A player who took every one of them (and
    at least one was dealt) shot the moon: under ``OTHERS_TAKE`` it scores 0 and every
    other player ``moon_value``; under ``SHOOTER_SUBTRACTS`` it scores ``-moon_value``;
    ``MOON_OFF`` keeps the points as taken. The Jack of Diamonds counts in every case.
    """
    shooter = -1
    if moon != MOON_OFF and cards_dealt > 0:
        for seat in range(players):
            if point_cards[seat] == cards_dealt:
                shooter = seat
    for seat in range(players):
        score = points[seat]
        if shooter >= 0:
            if moon == OTHERS_TAKE:
                score = 0 if seat == shooter else moon_value
            elif seat == shooter:
                score = -moon_value
        out[seat] = score + jacks[seat]
    return shooter
