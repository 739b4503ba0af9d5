"""Big Two's rule settings and its plays (singles to straight flushes), in plain Python.

The compendium (``../shared/rules/zoo-and-more.md``) names Big Two as a Through the Zoo
exhibit ("Big Two, 2 / 3 / 4, CS/2Ah, There are no Jokers": climbing/shedding, 2s high then
aces high) and leaves its rules to the usual ones; the glossary's climbing paragraph is the
play ("the following players can either play a stronger set of cards of that same meld
type or pass. Passing is declaring that the player is out of the card play until a new
trick (Hard Pass)"). Every choice the common rule sets differ on is a field of
:class:`BigTwoSettings` (docs/rules-decisions.md, section Big Two)::

    players = 4
    suit_order = "DCHS"          # weakest suit first: diamonds < clubs < hearts < spades
    opening = "lowest-card"      # the holder of the lowest card (3D) leads and must play it
    passing = "hard"             # a passed player sits out until the next trick
    round_end = "first-out"      # or "last-out": play on until one player holds cards
    extra_card_to_opener = true  # 3 players: the 52nd card goes to the lowest card's holder
    target = 0                   # 0: a game is one round; else rounds until a penalty total
    double_from = 10             # penalty per card left doubles from this many cards left
    triple_from = 13             # ... and triples from this many

    [settings.cards_per_player]
    2 = 13
    3 = 17
    4 = 13

A play is one, two, three or five cards; :func:`classify` says which kind and how strong
(its *key*), :func:`beats` whether it beats the play on the table. The kernel's play
lists (``plays.py``) are tested against these definitions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from zooanalysis.cards.deck import STANDARD_RANKS, DeckSpec
from zooanalysis.cards.encoding import SUIT_LETTERS
from zooanalysis.cards.orders import STRENGTH, TWOS_HIGH, UP
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 4
PLAYER_KEYS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
MAX_CARDS_PER_PLAYER = 26
"""A hand holds at most 26 cards (two players sharing the deck)."""
MAX_TARGET = 10_000

# --- kinds of play --------------------------------------------------------------------------

PASS_KIND = 0
SINGLE, PAIR, TRIPLE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH = range(1, 9)
N_KINDS = 9
KIND_NAMES = (
    "pass",
    "single",
    "pair",
    "triple",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
"""Kinds by id; the five-card kinds rank in this order (straight lowest, straight flush
highest): "Straight < Flush < Full House < Bomb < Straight Flush"."""
KIND_SIZE = np.array([0, 1, 2, 3, 5, 5, 5, 5, 5], dtype=np.int64)
"""Cards in a play of each kind."""
KIND_SHIFT = 24
"""A play's key is ``kind << KIND_SHIFT | strength within the kind``, so five-card plays of a
stronger kind beat any of a weaker one and keys of one kind compare by strength."""

N_BIG_RANKS = 13
"""Big Two ranks, weakest first: 3 4 5 6 7 8 9 10 J Q K A 2 (big ranks 0-12)."""
STRAIGHT_TOPS = range(4, N_BIG_RANKS)
"""Top big ranks of the straights: 3-4-5-6-7 (top 7) up to J-Q-K-A-2 (top 2); a straight
does not turn the corner (no A-2-3-4-5 or 2-3-4-5-6)."""

# --- settings names -------------------------------------------------------------------------

LOWEST_CARD, START_PLAYER = 0, 1
OPENING_NAMES = ("lowest-card", "start-player")
HARD, SOFT = 0, 1
PASSING_NAMES = ("hard", "soft")
FIRST_OUT, LAST_OUT = 0, 1
ROUND_END_NAMES = ("first-out", "last-out")
DEFAULT_CARDS_PER_PLAYER = (("2", 13), ("3", 17), ("4", 13))
IDENTICAL_NAMES = ("earlier-wins", "later-wins")
"""How two plays of equal key compare (identical faces across personal decks, Through the
Zoo): the earlier stays on top, or the later beats it (``cards.tricks`` tie rules)."""


def big_rank(rank: int) -> int:
    """Big Two rank (0 = 3 ... 10 = K, 11 = A, 12 = 2) of a standard rank (1 = A ... 13 = K),
    from the cards package's ``TWOS_HIGH`` order."""
    ordered = sorted(STANDARD_RANKS, key=lambda r: STRENGTH[TWOS_HIGH, UP, r])
    return ordered.index(rank)


BIG_RANK_OF = np.array(
    [big_rank(rank) if rank in STANDARD_RANKS else -1 for rank in range(16)], dtype=np.int64
)
"""``BIG_RANK_OF[rank]``: the big rank of a standard rank (-1 for ranks 0, 14, 15)."""
RANK_OF_BIG = np.array([STANDARD_RANKS[0]] * N_BIG_RANKS, dtype=np.int64)
for _rank in STANDARD_RANKS:
    RANK_OF_BIG[BIG_RANK_OF[_rank]] = _rank


@dataclass(frozen=True)
class BigTwoSettings:
    """Every rule of Big Two zoosim lets vary. Defaults: the common 4-player game."""

    players: int = 4
    cards_per_player: tuple[tuple[str, int], ...] = DEFAULT_CARDS_PER_PLAYER
    """Cards dealt to each player, by player count; the rest of the 52 is set aside."""
    extra_card_to_opener: bool = True
    """When the deal leaves exactly one card (3 players, 17 each), it goes to the holder of
    the lowest dealt card instead of being set aside."""
    suit_order: str = "DCHS"
    """The suits, weakest first (letters C, D, H, S): diamonds < clubs < hearts < spades."""
    opening: str = "lowest-card"
    """"lowest-card": the holder of the lowest card in play (3D with 4 players) leads the
    first trick and must include it; "start-player": the start player leads anything."""
    passing: str = "hard"
    """"hard": a player who passes is out of the trick until it ends (the compendium's
    glossary); "soft": it may play again when its turn comes; the trick ends when every
    other player passed in a row."""
    round_end: str = "first-out"
    """"first-out": the round ends when a player sheds its last card; "last-out": the
    others play on until only one player holds cards (order of going out)."""
    target: int = 0
    """0: a game is one round, won by the first out. Otherwise rounds are played until a
    player's penalty total reaches ``target``; the fewest penalty points win."""
    double_from: int = 10
    """Penalty per card left is doubled with at least this many cards left (0: never)."""
    triple_from: int = 13
    """... and tripled with at least this many (0: never)."""

    @property
    def per_player(self) -> int:
        """Cards dealt to each player at the settings' player count."""
        return dict(self.cards_per_player)[str(self.players)]

    @property
    def gives_extra_card(self) -> bool:
        """Whether the one card the deal leaves goes to the lowest card's holder."""
        return self.extra_card_to_opener and 52 - self.players * self.per_player == 1

    @cached_property
    def suit_strength(self) -> np.ndarray:
        """``suit_strength[suit]``: 0 for the weakest suit ... 3 for the strongest."""
        table = np.zeros(4, dtype=np.int64)
        for place, letter in enumerate(self.suit_order):
            table[SUIT_LETTERS.index(letter)] = place
        return table

    @cached_property
    def card_ids(self) -> np.ndarray:
        """``card_ids[face]``: the card's Big Two strength 0 (3 of the weakest suit) to 51
        (2 of the strongest), ``big rank * 4 + suit strength``; -1 for faces not in a
        standard deck."""
        ids = np.full(64, -1, dtype=np.int64)
        for suit in range(4):
            for rank in STANDARD_RANKS:
                ids[suit * 16 + rank] = BIG_RANK_OF[rank] * 4 + self.suit_strength[suit]
        return ids

    @cached_property
    def face_of_id(self) -> np.ndarray:
        """The inverse of :attr:`card_ids`: ``face_of_id[id]`` is the card's face."""
        faces = np.zeros(52, dtype=np.int64)
        for face, card in enumerate(self.card_ids):
            if card >= 0:
                faces[card] = face
        return faces

    @property
    def deck(self) -> DeckSpec:
        """The 52-card deck, no jokers ("There are no Jokers")."""
        return DeckSpec()

    @property
    def is_match(self) -> bool:
        """Whether a game is a match of rounds to a penalty target."""
        return self.target > 0

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain nested dict (the scenario-file format)."""
        return {
            "players": self.players,
            "cards_per_player": dict(self.cards_per_player),
            "extra_card_to_opener": self.extra_card_to_opener,
            "suit_order": self.suit_order,
            "opening": self.opening,
            "passing": self.passing,
            "round_end": self.round_end,
            "target": self.target,
            "double_from": self.double_from,
            "triple_from": self.triple_from,
        }


def _choice(table: Mapping[str, Any], key: str, names: Sequence[str]) -> str:
    value = table[key]
    if value not in names:
        raise SettingsError(key, f"{value!r} is not allowed; allowed are {', '.join(names)}")
    return value


def _boolean(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(key, f"{value!r} is not true or false")
    return value


def settings_from_table(table: Mapping[str, Any]) -> BigTwoSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and the allowed values otherwise)."""
    keys = tuple(BigTwoSettings().to_dict())
    reject_unknown_keys(table, keys)
    values: dict[str, Any] = {}
    if "players" in table:
        values["players"] = whole_number(table["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    if "cards_per_player" in table:
        given = table["cards_per_player"]
        if not isinstance(given, Mapping):
            raise SettingsError(
                "cards_per_player", "must be a table by player count, e.g. { 3 = 17, 4 = 13 }"
            )
        reject_unknown_keys(given, PLAYER_KEYS, prefix="cards_per_player.")
        counts = {
            n: whole_number(v, f"cards_per_player.{n}", 1, min(MAX_CARDS_PER_PLAYER, 52 // int(n)))
            for n, v in given.items()
        }
        values["cards_per_player"] = tuple(
            (n, counts.get(n, default)) for n, default in DEFAULT_CARDS_PER_PLAYER
        )
    if "extra_card_to_opener" in table:
        values["extra_card_to_opener"] = _boolean(
            table["extra_card_to_opener"], "extra_card_to_opener"
        )
    if "suit_order" in table:
        value = table["suit_order"]
        if not isinstance(value, str) or sorted(value.upper()) != sorted(SUIT_LETTERS):
            raise SettingsError(
                "suit_order",
                f"{value!r} is not allowed; give the four suit letters C, D, H, S once each, "
                "weakest first, e.g. DCHS",
            )
        values["suit_order"] = value.upper()
    for key, names in (
        ("opening", OPENING_NAMES),
        ("passing", PASSING_NAMES),
        ("round_end", ROUND_END_NAMES),
    ):
        if key in table:
            values[key] = _choice(table, key, names)
    if "target" in table:
        values["target"] = whole_number(table["target"], "target", 0, MAX_TARGET)
    for key in ("double_from", "triple_from"):
        if key in table:
            values[key] = whole_number(table[key], key, 0, MAX_CARDS_PER_PLAYER)
    settings = BigTwoSettings(**values)
    validate(settings)
    return settings


def validate(settings: BigTwoSettings) -> None:
    """Reject settings no game can be played with at the settings' player count."""
    players = whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    if players * settings.per_player > 52:
        raise SettingsError(
            f"cards_per_player.{players}",
            f"{settings.per_player} cards each for {players} players is more than the 52 "
            f"cards: give 1 to {52 // players}",
        )


def identical_rule(name: str, key: str = "identical_cards") -> int:
    """``EARLIER_WINS`` or ``LATER_WINS`` from a setting name (``IDENTICAL_NAMES``)."""
    if name not in IDENTICAL_NAMES:
        allowed = ", ".join(IDENTICAL_NAMES)
        raise SettingsError(key, f"{name!r} is not allowed; allowed are {allowed}")
    return EARLIER_WINS if name == "earlier-wins" else LATER_WINS


# --- plays, readable ------------------------------------------------------------------------


def penalty(cards_left: int, settings: BigTwoSettings) -> int:
    """Penalty points for the cards a player holds when the round ends: one per card, times
    2 from ``double_from`` cards, times 3 from ``triple_from`` (0 disables a step)."""
    factor = 1
    if settings.double_from and cards_left >= settings.double_from:
        factor = 2
    if settings.triple_from and cards_left >= settings.triple_from:
        factor = 3
    return cards_left * factor


def classify(faces: Iterable[int], settings: BigTwoSettings) -> tuple[int, int] | None:
    """``(kind, key)`` of a play of these faces, or None if they are not a play.

    Strength within a kind (higher key beats lower; card ids are :attr:`card_ids`):

    * single: the card; pair: its rank, then its stronger suit ("Higher suit wins if pairs
      are of equal rank"); triple, full house, four of a kind (with any fifth card): the
      rank of the three or four;
    * straight and straight flush: the top card (rank, then its suit); five ranks in a row
      in the order 3 ... K A 2, from 3-4-5-6-7 to J-Q-K-A-2;
    * flush: its ranks from the highest down, then its suit.
    """
    ids = sorted((int(settings.card_ids[face]) for face in faces), reverse=True)
    if any(card < 0 for card in ids) or len(set(faces)) != len(ids):
        return None
    ranks = [card >> 2 for card in ids]
    suits = [card & 3 for card in ids]
    counts = {rank: ranks.count(rank) for rank in ranks}
    size = len(ids)
    if size in (1, 2, 3) and len(counts) == 1:
        kind = (SINGLE, PAIR, TRIPLE)[size - 1]
        strength = ids[0] if size < 3 else ranks[0]
        return kind, kind << KIND_SHIFT | strength
    if size != 5:
        return None
    run = len(counts) == 5 and ranks[0] - ranks[4] == 4
    same_suit = len(set(suits)) == 1
    if run:
        kind = STRAIGHT_FLUSH if same_suit else STRAIGHT
        return kind, kind << KIND_SHIFT | ids[0]
    if same_suit:
        strength = 0
        for rank in ranks:
            strength = strength << 4 | rank
        return FLUSH, FLUSH << KIND_SHIFT | strength << 2 | suits[0]
    shape = sorted(counts.values())
    if shape == [2, 3]:
        three = next(rank for rank, n in counts.items() if n == 3)
        return FULL_HOUSE, FULL_HOUSE << KIND_SHIFT | three
    if shape == [1, 4]:
        four = next(rank for rank, n in counts.items() if n == 4)
        return FOUR, FOUR << KIND_SHIFT | four
    return None


def beats(key: int, size: int, table_key: int, table_size: int, identical: int) -> bool:
    """Whether a play (``key``, ``size`` cards) may go on the play on the table: the same
    number of cards and a higher key (any five-card play of a stronger kind is higher).
    Equal keys happen only with identical faces from different decks (Through the Zoo):
    the later play beats the earlier under ``LATER_WINS`` only."""
    if size != table_size:
        return False
    return key > table_key or (key == table_key and identical == LATER_WINS)


def format_play(faces: Iterable[int], settings: BigTwoSettings) -> str:
    """The play's cards, weakest first, e.g. ``"3D 3S"``."""
    ordered = sorted(faces, key=lambda face: settings.card_ids[face])
    return " ".join(
        ("A" if f & 15 == 1 else {11: "J", 12: "Q", 13: "K"}.get(f & 15, str(f & 15)))
        + SUIT_LETTERS[f >> 4]
        for f in ordered
    )


def rules_array(settings: BigTwoSettings) -> np.ndarray:
    """The settings as the kernel's flat int64 rules array (``R_*`` slots)."""
    rules = np.zeros(R_SIZE, dtype=np.int64)
    rules[R_PLAYERS] = settings.players
    rules[R_PER_PLAYER] = settings.per_player
    rules[R_EXTRA] = 1 if settings.gives_extra_card else 0
    rules[R_OPENING] = OPENING_NAMES.index(settings.opening)
    rules[R_PASSING] = PASSING_NAMES.index(settings.passing)
    rules[R_ROUND_END] = ROUND_END_NAMES.index(settings.round_end)
    rules[R_TARGET] = settings.target
    rules[R_DOUBLE] = settings.double_from
    rules[R_TRIPLE] = settings.triple_from
    rules[R_SUITS:R_SUITS + 4] = settings.suit_strength
    return rules


(
    R_PLAYERS,
    R_PER_PLAYER,
    R_EXTRA,
    R_OPENING,
    R_PASSING,
    R_ROUND_END,
    R_TARGET,
    R_DOUBLE,
    R_TRIPLE,
    R_SUITS,
) = range(10)
R_SIZE = R_SUITS + 4
"""Slots of the kernel's rules array (:func:`rules_array`); suit strengths fill the last 4."""

