"""Short Zoot Suit's rule settings and its scoring, in plain Python.

Every rule number of the rulebook (``../shared/rules/zoo-and-more.md``, section "Short Zoot
Suit") is a field of :class:`ZootSettings`; a scenario file's ``[settings]`` table maps onto
it, and a mistake is a ``SettingsError`` naming the key and what is allowed::

    players = 4
    draw_pile_cards = 5            # cards each player puts face down as a draw pile
    build_draw_pile = false        # Sean's Short Shorts: place a card or draw before a trick
    place_last_card = true         # ... also a player's last hand card (the round ends)
    points_per_trick = 1
    points_per_pair = 3            # per (won trick, short) pair
    points_per_equal_pair = 5      # ... when tricks won equal shorts
    intermediate_scoring = "none"  # or "unique-suits" (the starred Additional Scoring card)
    unique_suit_points = [1, 5, 10, 20]
    rounds_per_player = 1

    [settings.deck_ranks]          # the deck by player count
    2 = "2-9"
    3 = "2-13"
    4 = "1-13"

    [settings.set_aside]           # cards left out of every round, by player count
    2 = 2
    3 = 3
    4 = 0

:func:`round_points` is the scoring, written once for both engines (the kernel calls it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numba import njit

from zooanalysis.cards.deck import DeckSpec, parse_ranks
from zooanalysis.cards.encoding import N_SUITS
from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 4
PLAYER_KEYS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))

NO_INTERMEDIATE, UNIQUE_SUITS = 0, 1
INTERMEDIATE_NAMES = ("none", "unique-suits")
"""Setting names of the Intermediate Scoring cards zoosim knows, by id."""

DEFAULT_DECK_RANKS = (("2", "2-9"), ("3", "2-13"), ("4", "1-13"))
"""The rulebook's decks: "2p: 2-9, 4 suits", "3p: 2-13, 4 suits", "4p: 1-13, 4 suits"."""
DEFAULT_SET_ASIDE = (("2", 2), ("3", 3), ("4", 0))
"""Cards not dealt: "Shuffle and deal all but 2" (2p), "all but 3" (3p), "deal all" (4p)."""
DEFAULT_UNIQUE_SUIT_POINTS = (1, 5, 10, 20)
"""The starred card's table: 1, 2, 3, 4 different suits in the shorts pile give 1, 5, 10,
20 points (0 suits: 0). The rulebook's example gives 3 for 2 suits: see
docs/rules-decisions.md, Short Zoot Suit #9."""

MAX_CARDS_PER_PLAYER = 32
"""Cards dealt to one player at most (a 64-card deck between two), so a hand is one uint64
and a round has at most 32 tricks."""
MAX_POINTS = 10_000


@dataclass(frozen=True)
class ZootSettings:
    """Every rule number of Short Zoot Suit. Defaults are the rulebook's base game."""

    players: int = 4
    deck_ranks: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
        (n, parse_ranks(text, f"deck_ranks.{n}")) for n, text in DEFAULT_DECK_RANKS
    )
    """The ranks, in all four suits, of the deck for each player count ("2", "3", "4")."""
    set_aside: tuple[tuple[str, int], ...] = DEFAULT_SET_ASIDE
    """Cards set aside, out of the round, for each player count; the rest is dealt evenly."""
    draw_pile_cards: int = 5
    """Cards each player picks from its hand as a face-down, shuffled draw pile at the start
    of a round ("players pick any 5 cards"); 0 in Sean's Short Shorts."""
    build_draw_pile: bool = False
    """Sean's Short Shorts: before every trick a player may instead place a card from its
    hand face down on top of its draw pile."""
    place_last_card: bool = True
    """Sean's Short Shorts: a player may place its last hand card, which empties its hand and
    so ends the round (docs/rules-decisions.md #13)."""
    points_per_trick: int = 1
    points_per_pair: int = 3
    """Points per pair of a won trick and a card in the shorts pile."""
    points_per_equal_pair: int = 5
    """Points per pair instead, when a player's tricks won equal its shorts."""
    intermediate_scoring: str = "none"
    """Intermediate Scoring: "none", or "unique-suits" (the starred Additional Scoring card:
    points by the number of different suits in the shorts pile, every round)."""
    unique_suit_points: tuple[int, int, int, int] = DEFAULT_UNIQUE_SUIT_POINTS
    """Points for 1, 2, 3 and 4 different suits in the shorts pile (0 suits: 0)."""
    rounds_per_player: int = 1
    """The game lasts this many rounds per player ("Players play rounds per player")."""

    # --- derived, for the player count -----------------------------------------------------

    def ranks_for(self, players: int | None = None) -> tuple[int, ...]:
        """The deck's ranks for ``players`` (default: the settings' player count)."""
        return dict(self.deck_ranks)[str(players or self.players)]

    def set_aside_for(self, players: int | None = None) -> int:
        """Cards set aside each round for ``players``."""
        return dict(self.set_aside)[str(players or self.players)]

    @cached_property
    def deck(self) -> DeckSpec:
        """The deck for the settings' player count."""
        return DeckSpec(self.ranks_for())

    @property
    def cards_per_player(self) -> int:
        """Cards dealt to each player every round."""
        return (self.deck.size - self.set_aside_for()) // self.players

    @property
    def rounds(self) -> int:
        """Rounds in a game: one per player (times ``rounds_per_player``)."""
        return self.players * self.rounds_per_player

    @property
    def place_min(self) -> int:
        """The fewest hand cards with which a card may be placed on the draw pile (more than
        any hand when placing is not allowed)."""
        if not self.build_draw_pile:
            return MAX_CARDS_PER_PLAYER + 1
        return 1 if self.place_last_card else 2

    @property
    def intermediate(self) -> int:
        """The Intermediate Scoring card's id (``NO_INTERMEDIATE`` or ``UNIQUE_SUITS``)."""
        return INTERMEDIATE_NAMES.index(self.intermediate_scoring)

    @cached_property
    def suit_points(self) -> np.ndarray:
        """Bonus points by the number of different suits in a shorts pile (index 0-4)."""
        table = np.zeros(N_SUITS + 1, dtype=np.int64)
        if self.intermediate == UNIQUE_SUITS:
            table[1:] = self.unique_suit_points
        return table

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain nested dict (the scenario-file format)."""
        return {
            "players": self.players,
            "deck_ranks": {n: _ranks_text(ranks) for n, ranks in self.deck_ranks},
            "set_aside": dict(self.set_aside),
            "draw_pile_cards": self.draw_pile_cards,
            "build_draw_pile": self.build_draw_pile,
            "place_last_card": self.place_last_card,
            "points_per_trick": self.points_per_trick,
            "points_per_pair": self.points_per_pair,
            "points_per_equal_pair": self.points_per_equal_pair,
            "intermediate_scoring": self.intermediate_scoring,
            "unique_suit_points": list(self.unique_suit_points),
            "rounds_per_player": self.rounds_per_player,
        }


def _ranks_text(ranks: Sequence[int]) -> str:
    """``"2-9"`` for a run of ranks, else the ranks separated by commas."""
    ranks = sorted(ranks)
    if ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"{ranks[0]}-{ranks[-1]}"
    return ", ".join(str(rank) for rank in ranks)


_SCALAR_KEYS = (
    "players",
    "draw_pile_cards",
    "build_draw_pile",
    "place_last_card",
    "points_per_trick",
    "points_per_pair",
    "points_per_equal_pair",
    "intermediate_scoring",
    "unique_suit_points",
    "rounds_per_player",
)
_TABLE_KEYS = ("deck_ranks", "set_aside")


def _per_players(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SettingsError(key, 'must be a table by player count, e.g. { 2 = "2-9", 4 = "1-13" }')
    reject_unknown_keys(value, PLAYER_KEYS, prefix=f"{key}.")
    return value


def _boolean(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(key, f"{value!r} is not true or false")
    return value


def settings_from_table(table: Mapping[str, Any]) -> ZootSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and the allowed values otherwise)."""
    reject_unknown_keys(table, (*_SCALAR_KEYS, *_TABLE_KEYS))
    values: dict[str, Any] = {}
    for key in ("points_per_trick", "points_per_pair", "points_per_equal_pair"):
        if key in table:
            values[key] = whole_number(table[key], key, 0, MAX_POINTS)
    if "players" in table:
        values["players"] = whole_number(table["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    if "draw_pile_cards" in table:
        values["draw_pile_cards"] = whole_number(
            table["draw_pile_cards"], "draw_pile_cards", 0, MAX_CARDS_PER_PLAYER
        )
    if "rounds_per_player" in table:
        values["rounds_per_player"] = whole_number(
            table["rounds_per_player"], "rounds_per_player", 1, 100
        )
    for key in ("build_draw_pile", "place_last_card"):
        if key in table:
            values[key] = _boolean(table[key], key)
    if "intermediate_scoring" in table:
        value = table["intermediate_scoring"]
        if value not in INTERMEDIATE_NAMES:
            raise SettingsError(
                "intermediate_scoring",
                f"{value!r} is not allowed; allowed are {', '.join(INTERMEDIATE_NAMES)}",
            )
        values["intermediate_scoring"] = value
    if "unique_suit_points" in table:
        value = table["unique_suit_points"]
        if not isinstance(value, list | tuple) or len(value) != N_SUITS:
            raise SettingsError(
                "unique_suit_points",
                f"{value!r}: give a list of 4 whole numbers, the points for 1, 2, 3 and 4 "
                "different suits, e.g. [1, 5, 10, 20]",
            )
        values["unique_suit_points"] = tuple(
            whole_number(points, f"unique_suit_points[{index}]", 0, MAX_POINTS)
            for index, points in enumerate(value)
        )
    if "deck_ranks" in table:
        given = _per_players(table["deck_ranks"], "deck_ranks")
        ranks = {n: parse_ranks(text, f"deck_ranks.{n}") for n, text in given.items()}
        values["deck_ranks"] = tuple(
            (n, ranks.get(n, default)) for n, default in ZootSettings().deck_ranks
        )
    if "set_aside" in table:
        given = _per_players(table["set_aside"], "set_aside")
        counts = {n: whole_number(v, f"set_aside.{n}", 0, 64) for n, v in given.items()}
        values["set_aside"] = tuple((n, counts.get(n, d)) for n, d in DEFAULT_SET_ASIDE)
    settings = ZootSettings(**values)
    validate(settings)
    return settings


def validate(settings: ZootSettings) -> None:
    """Reject settings no game can be played with, for the settings' player count (the deck
    must deal evenly, and every hand must keep a card after the draw pile)."""
    players = whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    size = settings.deck.size
    aside = settings.set_aside_for()
    ranks = _ranks_text(settings.ranks_for())
    if aside >= size or (size - aside) % players:
        raise SettingsError(
            f"set_aside.{players}",
            f"{aside} set aside from the {size}-card deck (ranks {ranks}) leaves "
            f"{size - aside} cards, which do not deal evenly to {players} players: give a "
            f"number below {size} that leaves a multiple of {players}",
        )
    per_player = settings.cards_per_player
    if per_player > MAX_CARDS_PER_PLAYER:
        raise SettingsError(
            f"set_aside.{players}",
            f"{per_player} cards each is more than {MAX_CARDS_PER_PLAYER}: set more aside",
        )
    if settings.draw_pile_cards >= per_player:
        raise SettingsError(
            "draw_pile_cards",
            f"{settings.draw_pile_cards} draw-pile cards leave no card in a hand of "
            f"{per_player} ({players} players): give 0 to {per_player - 1}",
        )


# --- scoring -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def round_points(
    tricks: int,
    shorts: int,
    shorts_suits: int,
    per_trick: int,
    per_pair: int,
    per_equal_pair: int,
    suit_points: np.ndarray,
) -> tuple[int, int, int, int]:
    """A player's points for one round by source: (tricks, pairs, equal bonus, intermediate).

    Rulebook: "Players earn 1 point per trick won and 3 points for each pair of won trick and
    card in their shorts pile. If the number of tricks they won equals the number of shorts,
    the player earns 5 points per pair rather than just 3 points." A pair is a won trick and
    a short, so there are ``min(tricks, shorts)`` pairs; the equal bonus is what 5 points per
    pair add to 3. ``shorts_suits`` is the number of different suits in the shorts pile,
    ``suit_points`` the Intermediate Scoring table by that number (all zero without it).
    """
    pairs = min(tricks, shorts)
    bonus = pairs * (per_equal_pair - per_pair) if tricks == shorts else 0
    return tricks * per_trick, pairs * per_pair, bonus, suit_points[shorts_suits]


def score_round(settings: ZootSettings, tricks: int, shorts: int, suits: int = 0) -> int:
    """A player's total points for a round with ``tricks`` won, ``shorts`` cards in its
    shorts pile of ``suits`` different suits."""
    parts = round_points(
        tricks,
        shorts,
        suits,
        settings.points_per_trick,
        settings.points_per_pair,
        settings.points_per_equal_pair,
        settings.suit_points,
    )
    return int(sum(parts))
