"""Decks from settings, and dealing on the shared random stream.

A deck is some ranks in all four suits, ``copies`` times over, plus ``jokers``
(:class:`DeckSpec`). Its cards, :meth:`DeckSpec.codes`, are card codes in increasing order;
that order is the deck "before shuffling", so both engines start from the same array.

Dealing (:func:`deal`, and :func:`deal_into` / :func:`deal_to_hands` inside kernels)
shuffles the deck with ``rng.shuffle`` on the game's stream, then player 0 takes the first
``per_player`` cards, player 1 the next ``per_player``, and so on; the cards after the last
hand are set aside (returned, or left at the end of the shuffled deck). Under a fair shuffle
this is the same as dealing one card at a time around the table. The Python and compiled
versions make the same calls on the stream, so a deal is identical from either.

In a scenario file a deck is a table such as::

    [deck]
    ranks = "1-9"       # ranks: a string of ranks and ranges ("6-13, A", "0-15") or a
                        # list (["6", "7", "8", "9", "10", "J", "Q", "K", "A"] or numbers)
    jokers = 0          # 0-16
    copies = 1          # 1-16: copies of every suited card (a double deck is 2)

read by :func:`deck_from_settings`, which raises ``SettingsError`` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from zooanalysis.cards.encoding import (
    CODE_DTYPE,
    COPY_STRIDE,
    JOKER,
    MAX_COPIES,
    MAX_RANK,
    MIN_RANK,
    N_SUITS,
    RANK_SLOTS,
)
from zooanalysis.cards.hands import hand_fill
from zooanalysis.cards.notation import parse_rank
from zooanalysis.errors import SettingsError
from zooanalysis.rng import shuffle
from zooanalysis.settings import reject_unknown_keys, whole_number

STANDARD_RANKS = tuple(range(1, 14))
"""A standard deck: A (1) to K (13)."""
JASS_RANKS = (1, 6, 7, 8, 9, 10, 11, 12, 13)
"""Chai Tea Jazz's Jass deck: 6, 7, 8, 9, 10, U (J), O (Q), K, A."""


@dataclass(frozen=True)
class DeckSpec:
    """``ranks`` in each of the four suits, ``copies`` times over, plus ``jokers``."""

    ranks: tuple[int, ...] = STANDARD_RANKS
    jokers: int = 0
    copies: int = 1

    def __post_init__(self) -> None:
        ranks = tuple(sorted(set(int(rank) for rank in self.ranks)))
        if not ranks or ranks[0] < MIN_RANK or ranks[-1] > MAX_RANK:
            raise ValueError(f"deck ranks {self.ranks!r}: give one or more ranks from 0 to 15")
        if not 1 <= self.copies <= MAX_COPIES or not 0 <= self.jokers <= MAX_COPIES:
            raise ValueError(
                f"deck with {self.copies} copies and {self.jokers} jokers: allowed are "
                f"1-{MAX_COPIES} copies and 0-{MAX_COPIES} jokers"
            )
        object.__setattr__(self, "ranks", ranks)

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return len(self.ranks) * N_SUITS * self.copies + self.jokers

    def codes(self, first_copy: int = 0) -> np.ndarray:
        """The deck's card codes in increasing order (``CODE_DTYPE``).

        ``first_copy`` numbers the copies from there (Through the Zoo: player ``p``'s
        personal deck is ``DeckSpec().codes(first_copy=p)``); jokers are always numbered
        from 0.
        """
        if not 0 <= first_copy <= MAX_COPIES - self.copies:
            raise ValueError(f"first_copy {first_copy!r}: allowed 0-{MAX_COPIES - self.copies}")
        codes = [
            copy * COPY_STRIDE + suit * RANK_SLOTS + rank
            for copy in range(first_copy, first_copy + self.copies)
            for suit in range(N_SUITS)
            for rank in self.ranks
        ]
        codes += [joker * COPY_STRIDE + JOKER for joker in range(self.jokers)]
        return np.array(sorted(codes), dtype=CODE_DTYPE)


def standard_deck(low: int = 1, high: int = 13, jokers: int = 0, copies: int = 1) -> DeckSpec:
    """Ranks ``low`` to ``high`` in the four suits (e.g. Chai Tea Jazz 3p: 1-9)."""
    return DeckSpec(tuple(range(low, high + 1)), jokers, copies)


def parse_ranks(value: Any, key: str) -> tuple[int, ...]:
    """Ranks from a setting: ``"1-9"``, ``"6-13, A"``, or a list of ranks (texts or numbers);
    ``SettingsError`` naming ``key`` and what is allowed."""
    allowed = (
        "a string of ranks and ranges such as '1-9' or '6-13, A', or a list of ranks; "
        "a rank is 0-15 or A, J, Q, K"
    )
    if isinstance(value, str):
        items = [item.strip() for item in value.split(",")]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise SettingsError(key, f"{value!r} is not {allowed}")
    ranks: set[int] = set()
    for item in items:
        try:
            if isinstance(item, bool):
                raise ValueError
            if isinstance(item, int):
                if not MIN_RANK <= item <= MAX_RANK:
                    raise ValueError
                ranks.add(item)
            elif isinstance(item, str) and "-" in item:
                low_text, high_text = item.split("-", 1)
                low, high = parse_rank(low_text), parse_rank(high_text)
                if low > high:
                    raise ValueError
                ranks.update(range(low, high + 1))
            else:
                ranks.add(parse_rank(item))
        except (ValueError, AttributeError):
            raise SettingsError(key, f"{item!r} in {value!r} is not a rank or range: give "
                                f"{allowed}") from None
    if not ranks:
        raise SettingsError(key, f"{value!r} holds no rank: give {allowed}")
    return tuple(sorted(ranks))


def deck_from_settings(table: Mapping[str, Any], key: str = "deck") -> DeckSpec:
    """The deck of a ``[deck]`` settings table (keys ``ranks``, ``jokers``, ``copies``)."""
    if not isinstance(table, Mapping):
        raise SettingsError(key, f"{table!r} is not a table with ranks, jokers and copies")
    reject_unknown_keys(table, ("ranks", "jokers", "copies"), prefix=f"{key}.")
    ranks = parse_ranks(table["ranks"], f"{key}.ranks") if "ranks" in table else STANDARD_RANKS
    jokers = whole_number(table.get("jokers", 0), f"{key}.jokers", 0, MAX_COPIES)
    copies = whole_number(table.get("copies", 1), f"{key}.copies", 1, MAX_COPIES)
    return DeckSpec(ranks, jokers, copies)


def check_deal(deck_size: int, players: int, per_player: int) -> None:
    """``ValueError`` unless ``players`` hands of ``per_player`` cards fit in the deck."""
    if players < 1 or per_player < 0 or players * per_player > deck_size:
        raise ValueError(
            f"cannot deal {per_player} cards to each of {players} players from "
            f"{deck_size} cards: players * cards per player must be at most the deck size"
        )


def deal(
    deck: Sequence[int] | np.ndarray,
    players: int,
    per_player: int | None,
    stream: np.ndarray,
) -> tuple[list[list[int]], list[int]]:
    """Shuffle a copy of ``deck`` on ``stream`` and deal ``per_player`` cards to each of
    ``players`` (``None``: as many as go round evenly). Returns the hands and the cards set
    aside, as lists of codes (plain Python; the same deal as :func:`deal_into`)."""
    cards = np.array(deck, dtype=CODE_DTYPE)
    per_player = len(cards) // players if per_player is None else per_player
    check_deal(len(cards), players, per_player)
    shuffle(cards, stream)
    hands = [
        [int(code) for code in cards[p * per_player:(p + 1) * per_player]]
        for p in range(players)
    ]
    return hands, [int(code) for code in cards[players * per_player:]]


@njit(cache=True, nogil=True, error_model="numpy")
def deal_into(deck, players: int, per_player: int, stream, hands) -> None:
    """Shuffle ``deck`` in place and copy player ``p``'s cards into ``hands[p, :per_player]``.

    The set-aside cards are ``deck[players * per_player:]``. Load ``deck`` from the deck
    template first (``deck[:] = template``) for every game.
    """
    shuffle(deck, stream)
    for player in range(players):
        for index in range(per_player):
            hands[player, index] = deck[player * per_player + index]


@njit(cache=True, nogil=True, error_model="numpy")
def deal_to_hands(deck, players: int, per_player: int, stream, hands) -> None:
    """Shuffle ``deck`` in place and make ``hands[p]`` (hand rows, see ``hands.py``) hold
    player ``p``'s cards; the same deal as :func:`deal_into`."""
    shuffle(deck, stream)
    for player in range(players):
        hand_fill(hands[player], deck, player * per_player, (player + 1) * per_player)
