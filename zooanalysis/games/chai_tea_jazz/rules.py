"""Chai Tea Jazz's rule settings, for every player count and variant, as data.

Every rule number of the rulebook (``../shared/rules/zoo-and-more.md``, section "Chai Tea
Jazz", with its "Rules for 2, 4, and 6 Players" and its Variants) is a field of
:class:`ChaiSettings`; a scenario file's ``[settings]`` table maps onto it, and a mistake is
a ``SettingsError`` naming the key and what is allowed::

    players = 3
    contracts = "standard"        # a preset (contracts.PRESETS) or [[settings.contracts]] rows
    deck = "rulebook"             # rulebook (1-9; 6p 1-13 and 2 Jokers), double, jass
    joker_points = 2              # 6p: the 196 points of the odd cards + 2 x 2 = 200
    repick = "different-bid"      # a pick must differ from the current bid (or: its row)
    pyramid_tricks = 0            # Pyramid: tricks before the flip (0: half the round)
    match_points = 0              # Jass variant: game points for winning every trick (1)
    passing_the_barrel = false    # the variant
    cumulative = "off"            # meta contract Cumulative: "most" or "least" total wins
    early_end = false             # stop once a winner is certain (measured either way)
    two_player_hand = 7           # 2p: cards in hand, straw piles, cards set aside
    two_player_straw_piles = 5
    two_player_set_aside = 2

    [settings.last_trick_points]  # by player count
    2 = 10
    3 = 10
    4 = 10
    6 = 20

    [settings.bet_step]           # the Barrel card: 5-point card (2, 3p), 3-point (4, 6p)
    ...
    [settings.bet_max]            # eight positions: 0-35 and 0-21
    ...
    [settings.rank_points]        # optional: points by rank (default: odd ranks score
    A = 11                        # their rank; other ranks of this table score 0)

Everything derived for the player count (sides, the deck, the deal, the options a player may
pick, the points of every card, the game points of every place in a row) is a property, so
both engines and the strategies read the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from zooanalysis.cards.deck import JASS_RANKS, DeckSpec, parse_ranks, standard_deck
from zooanalysis.cards.encoding import JOKER, N_FACES, N_SUITED_FACES, RANK_LETTERS
from zooanalysis.cards.orders import ACES_HIGH, MIDDLE_OUT, NUMERIC
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.errors import SettingsError
from zooanalysis.games.chai_tea_jazz.contracts import (
    Contract,
    Option,
    Way,
    contracts_from_setting,
    contracts_setting,
    options_of,
    standard_contracts,
)
from zooanalysis.settings import reject_unknown_keys, whole_number

PLAYER_COUNTS = (2, 3, 4, 6)
MIN_PLAYERS, MAX_PLAYERS = 2, 6
PLAYER_KEYS = tuple(str(n) for n in PLAYER_COUNTS)
DECKS = ("rulebook", "double", "jass")
"""``rulebook``: ranks 1-9 in four suits (36 cards), with 6 players 1-13 and 2 Jokers (54);
``double``: two copies of 1-9 (72 cards; "a double deck with 2 copies of 1-9 each");
``jass``: 6-10, U, O, K, A (the Jass variant's deck; the ace is high)."""
REPICKS = ("different-bid", "different-contract")
"""What a pick after another must differ from: the current bid (row and declarations:
"Trump (Hearts)" after "Trump (Diamonds)" is allowed) or the current bid's row."""
CUMULATIVE = ("off", "most", "least")

MAX_CARDS_PER_PLAYER = 32
MAX_OPTIONS = 128
MAX_POINTS = 1000
MAX_BET = 200

DEFAULT_LAST_TRICK = (("2", 10), ("3", 10), ("4", 10), ("6", 20))
"""'If the Current Bidder won the last trick, they add 10 points'; 6 players: 'The final
trick is now worth 20 points.'"""
DEFAULT_BET_STEP = (("2", 5), ("3", 5), ("4", 3), ("6", 3))
"""The Barrel/Bet Debt card: 'the 5-point Barrel card'; 4 and 6 players: 'the 3 point
increment card'. Two players play 'the same' as three."""
DEFAULT_BET_MAX = (("2", 35), ("3", 35), ("4", 21), ("6", 21))
"""'up to 35': the card's eight positions (0-15 on one side, 20-35 on the other, 'flipped
and rotated to 20'); the 3-point card's eight positions end at 21 (docs/rules-decisions.md)."""


def odd_rank_points(ranks: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """'All of the odd cards have points. The number of points an odd card has is equal to
    the card's rank' (the ace is 1, J 11, K 13)."""
    return tuple((rank, rank) for rank in ranks if rank % 2 == 1)


@dataclass(frozen=True)
class ChaiSettings:
    """Every rule number of Chai Tea Jazz. Defaults are the rulebook's standard 3-player
    game."""

    players: int = 3
    contracts: tuple[Contract, ...] = field(default_factory=standard_contracts)
    """The rows of the pad (contracts.py): 'Trump, Under, Slalom, and Joker'."""
    deck: str = "rulebook"
    joker_points: int = 2
    """Points of each Joker (6 players): the odd cards of 1-13 hold 196, 'There are now 200
    total points in the deck'."""
    rank_points: tuple[tuple[int, int], ...] | None = None
    """Points by rank ((rank, points) pairs; unlisted ranks score 0), or None: odd ranks
    score their rank."""
    last_trick_points: tuple[tuple[str, int], ...] = DEFAULT_LAST_TRICK
    bet_step: tuple[tuple[str, int], ...] = DEFAULT_BET_STEP
    bet_max: tuple[tuple[str, int], ...] = DEFAULT_BET_MAX
    repick: str = "different-bid"
    pyramid_tricks: int = 0
    """Pyramid: tricks played before the direction flips ('6 tricks either Up or Down, then 6
    tricks the other way'); 0: the first half of the round, rounded up (6 of 12)."""
    match_points: int = 0
    """Jass variant 'Match Points: If a player wins all the tricks in a round, they get 1
    additional game point.' (0: not played)."""
    passing_the_barrel: bool = False
    cumulative: str = "off"
    """Meta contract 'Cumulative: At the very end, add all scores over the whole board ...
    Most (or least) wins.'"""
    early_end: bool = False
    """End the game as soon as a winner is certain ('If it's impossible for a player to lose
    the overall game, players may end the game early'); measured either way."""
    two_player_hand: int = 7
    two_player_straw_piles: int = 5
    two_player_set_aside: int = 2

    # --- the table for the player count ------------------------------------------------------

    @property
    def sides(self) -> int:
        """Who plays every contract: each player (2, 3 players) or each team (4, 6)."""
        return self.players if self.players <= 3 else 2

    @property
    def team_size(self) -> int:
        """Players per side."""
        return self.players // self.sides

    def side_of(self, seat: int) -> int:
        """A seat's side: teams sit alternating, 'A,B,A,B' ('A,B,A,B,A,B')."""
        return seat % self.sides

    @property
    def key(self) -> str:
        """The player count as the key of the per-count tables."""
        return str(self.players)

    @cached_property
    def deck_spec(self) -> DeckSpec:
        """The deck for the player count."""
        if self.deck == "double":
            return standard_deck(1, 9, copies=2)
        if self.deck == "jass":
            return DeckSpec(JASS_RANKS)
        if self.players == 6:
            return standard_deck(1, 13, jokers=2)
        return standard_deck(1, 9)

    @property
    def base_order(self) -> int:
        """The order 'high' means: numeric (aces low), or aces high with the Jass deck."""
        return ACES_HIGH if self.deck == "jass" else NUMERIC

    @property
    def straw_piles(self) -> int:
        """Straw piles per player (2 players), each a face-up card on a face-down one."""
        return self.two_player_straw_piles if self.players == 2 else 0

    @property
    def set_aside(self) -> int:
        """Cards set aside face down every round (2 players), split before scoring."""
        return self.two_player_set_aside if self.players == 2 else 0

    @property
    def hand_cards(self) -> int:
        """Cards dealt into each hand (besides straw piles): 'deal all cards equally'."""
        if self.players == 2:
            return self.two_player_hand
        return self.deck_spec.size // self.players

    @property
    def cards_per_player(self) -> int:
        """Cards each player plays in a round (hand and straw piles)."""
        return self.hand_cards + 2 * self.straw_piles

    @property
    def tricks(self) -> int:
        """Tricks in a round."""
        return self.cards_per_player

    @property
    def rounds(self) -> int:
        """Rounds in a whole game: every side plays every contract once."""
        return self.sides * len(self.contracts)

    @property
    def last_trick(self) -> int:
        """Points for the last trick."""
        return dict(self.last_trick_points)[self.key]

    @property
    def step(self) -> int:
        """The Bet Debt increment."""
        return dict(self.bet_step)[self.key]

    @property
    def max_debt(self) -> int:
        """The largest Bet Debt (the last multiple of the step not above the maximum)."""
        return dict(self.bet_max)[self.key] // self.step * self.step

    @property
    def ties(self) -> int:
        """Who wins between identical cards: 'The later-played Joker wins'; the double deck:
        'the earlier played card wins'."""
        return LATER_WINS if self.deck_spec.jokers else EARLIER_WINS

    @cached_property
    def rank_point_table(self) -> dict[int, int]:
        """Points by rank."""
        pairs = self.rank_points
        if pairs is None:
            pairs = odd_rank_points(self.deck_spec.ranks)
        return dict(pairs)

    @cached_property
    def points(self) -> np.ndarray:
        """Points of every face 0-64 (``JOKER`` = 64), as an int64 table."""
        table = np.zeros(N_FACES, dtype=np.int64)
        for face in range(N_SUITED_FACES):
            table[face] = self.rank_point_table.get(face & 15, 0)
        table[JOKER] = self.joker_points
        return table

    @property
    def deck_points(self) -> int:
        """Points on all the cards of the deck."""
        return int(sum(self.points[int(code) & 127] for code in self.deck_spec.codes()))

    @cached_property
    def options(self) -> tuple[Option, ...]:
        """Every option a player may pick, with the deck's order and Pyramids resolved."""
        result = []
        for option in options_of(self.contracts):
            way = option.way.resolved(self.tricks, self.pyramid_tricks)
            if way.order == NUMERIC:
                way = Way(way.trump, self.base_order, way.direction, way.flip, way.play)
            result.append(Option(option.row, way))
        return tuple(result)

    @cached_property
    def ways(self) -> tuple[Way, ...]:
        """The distinct ways to play a round, in the order options first use them."""
        seen: dict[tuple, Way] = {}
        for option in self.options:
            seen.setdefault(option.way.key(), option.way)
        return tuple(seen.values())

    def way_index(self, way: Way) -> int:
        """The index of ``way`` in :attr:`ways`."""
        return [w.key() for w in self.ways].index(way.key())

    @cached_property
    def place_points(self) -> np.ndarray:
        """Game points by row and place in the row (0 = best): '+value, 0, -value' with 3
        sides, '+value, -value' with 2; second place within the row: '-value, +value, 0'."""
        table = np.zeros((len(self.contracts), self.sides), dtype=np.int64)
        for row, contract in enumerate(self.contracts):
            v = contract.value
            if contract.second_place:
                table[row] = (-v, v, 0)
            else:
                table[row, 0] = v
                table[row, -1] = -v
        return table

    def row_label(self, row: int) -> str:
        """The row's name."""
        return self.contracts[row].name

    def option_label(self, index: int) -> str:
        """``Joker: Under``, ``Trump: Trump (Hearts)`` ..."""
        option = self.options[index]
        return f"{self.contracts[option.row].name}: {option.way.label}"

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain nested dict (the scenario-file format)."""
        values: dict[str, Any] = {
            "players": self.players,
            "contracts": contracts_setting(self.contracts),
            "deck": self.deck,
            "joker_points": self.joker_points,
            "last_trick_points": dict(self.last_trick_points),
            "bet_step": dict(self.bet_step),
            "bet_max": dict(self.bet_max),
            "repick": self.repick,
            "pyramid_tricks": self.pyramid_tricks,
            "match_points": self.match_points,
            "passing_the_barrel": self.passing_the_barrel,
            "cumulative": self.cumulative,
            "early_end": self.early_end,
            "two_player_hand": self.two_player_hand,
            "two_player_straw_piles": self.two_player_straw_piles,
            "two_player_set_aside": self.two_player_set_aside,
        }
        if self.rank_points is not None:
            values["rank_points"] = {_rank_key(r): p for r, p in self.rank_points}
        return values


def _rank_key(rank: int) -> str:
    return RANK_LETTERS.get(rank, str(rank))


_PER_COUNT = ("last_trick_points", "bet_step", "bet_max")
_NUMBERS = {
    "joker_points": (0, MAX_POINTS),
    "pyramid_tricks": (0, MAX_CARDS_PER_PLAYER),
    "match_points": (0, 100),
    "two_player_hand": (0, MAX_CARDS_PER_PLAYER),
    "two_player_straw_piles": (0, 16),
    "two_player_set_aside": (0, 36),
}
_CHOICES = {"deck": DECKS, "repick": REPICKS, "cumulative": CUMULATIVE}
_FLAGS = ("passing_the_barrel", "early_end")
_KEYS = ("players", "contracts", "rank_points", *_PER_COUNT, *_NUMBERS, *_CHOICES, *_FLAGS)


def _per_count(value: Any, key: str, low: int, high: int, default) -> tuple:
    if not isinstance(value, Mapping):
        raise SettingsError(key, "must be a table by player count, e.g. { 3 = 10, 6 = 20 }")
    reject_unknown_keys(value, PLAYER_KEYS, prefix=f"{key}.")
    given = {n: whole_number(v, f"{key}.{n}", low, high) for n, v in value.items()}
    return tuple((n, given.get(n, d)) for n, d in default)


def _rank_points(value: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, Mapping):
        raise SettingsError("rank_points", "must be a table of points by rank, e.g. { A = 11 }")
    points: dict[int, int] = {}
    for rank_text, value_points in value.items():
        key = f"rank_points.{rank_text}"
        for rank in parse_ranks(str(rank_text), key):
            points[rank] = whole_number(value_points, key, 0, MAX_POINTS)
    return tuple(sorted(points.items()))


def settings_from_table(table: Mapping[str, Any]) -> ChaiSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and the allowed values otherwise)."""
    reject_unknown_keys(table, _KEYS)
    values: dict[str, Any] = {}
    if "players" in table:
        values["players"] = _player_count(table["players"])
    if "contracts" in table:
        values["contracts"] = contracts_from_setting(table["contracts"])
    for key, (low, high) in _NUMBERS.items():
        if key in table:
            values[key] = whole_number(table[key], key, low, high)
    for key, allowed in _CHOICES.items():
        if key in table:
            if table[key] not in allowed:
                raise SettingsError(
                    key, f"{table[key]!r} is not allowed; allowed are {', '.join(allowed)}"
                )
            values[key] = table[key]
    for key in _FLAGS:
        if key in table:
            if not isinstance(table[key], bool):
                raise SettingsError(key, f"{table[key]!r} is not true or false")
            values[key] = table[key]
    defaults = ChaiSettings()
    for key in _PER_COUNT:
        if key in table:
            high = MAX_BET if key != "last_trick_points" else MAX_POINTS
            low = 1 if key == "bet_step" else 0
            values[key] = _per_count(table[key], key, low, high, getattr(defaults, key))
    if "rank_points" in table:
        values["rank_points"] = _rank_points(table["rank_points"])
    settings = ChaiSettings(**values)
    validate(settings)
    return settings


def _player_count(value: Any) -> int:
    count = whole_number(value, "players", MIN_PLAYERS, MAX_PLAYERS)
    if count not in PLAYER_COUNTS:
        raise SettingsError("players", f"{count} players: Chai Tea Jazz is for 2, 3, 4 or 6")
    return count


def validate(settings: ChaiSettings) -> None:
    """Reject settings no game can be played with, for the settings' player count."""
    players = _player_count(settings.players)
    size = settings.deck_spec.size
    if players == 2:
        dealt = 2 * (settings.two_player_hand + 2 * settings.two_player_straw_piles)
        dealt += settings.two_player_set_aside
        if dealt != size or settings.cards_per_player == 0:
            raise SettingsError(
                "two_player_hand",
                f"2 players x ({settings.two_player_hand} in hand + 2 x "
                f"{settings.two_player_straw_piles} straw-pile cards) + "
                f"{settings.two_player_set_aside} set aside is {dealt}, not the deck's {size} "
                "cards: give numbers that deal the whole deck",
            )
    elif size % players:
        raise SettingsError(
            "deck", f"the {settings.deck} deck's {size} cards do not deal evenly to {players}"
        )
    if settings.cards_per_player > MAX_CARDS_PER_PLAYER:
        raise SettingsError(
            "deck",
            f"{settings.cards_per_player} cards each is more than {MAX_CARDS_PER_PLAYER}: "
            "give a smaller deck or more players",
        )
    for row, contract in enumerate(settings.contracts):
        if contract.second_place and settings.sides != 3:
            raise SettingsError(
                f"contracts[{row}].second_place",
                "'Get second place within the row' only works with three sides (3 players): "
                f"{players} players have {settings.sides}",
            )
    if settings.deck == "jass" and any(o.way.order == MIDDLE_OUT for o in settings.options):
        raise SettingsError(
            "contracts",
            "Middle orders ranks 1-9 ('5, 4, 6, 3, 7, 2, 8, 1, 9'): it has no order for the "
            "Jass deck's 10, U, O, K; use the rulebook deck",
        )
    if len(settings.options) > MAX_OPTIONS:
        raise SettingsError(
            "contracts",
            f"the list offers {len(settings.options)} ways to pick a contract; at most "
            f"{MAX_OPTIONS} are allowed",
        )
    if settings.max_debt > MAX_BET:
        raise SettingsError(f"bet_max.{players}", f"allowed are 0 to {MAX_BET}")


def debt_amounts(settings: ChaiSettings, current: int) -> list[int]:
    """The Bet Debts a pick after another may take on: 'increase the Bet Debt to any amount
    on the Barrel card', in the card's steps, above ``current``, up to the maximum."""
    return list(range(current + settings.step, settings.max_debt + 1, settings.step))


def offer_amounts(settings: ChaiSettings, current: int) -> list[int]:
    """Passing the Barrel: the offers a Barrel holder may make after offering ``current``
    (0: none yet): 'The offer may keep growing, in the allotted increments'."""
    return debt_amounts(settings, current)

