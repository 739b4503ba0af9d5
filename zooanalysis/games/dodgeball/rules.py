"""Hodge Podge Dodgeball settings and the plain rules both engines share.

Every rule number of the rulebook section (``../shared/rules/zoo-and-more.md``, "Hodge
Podge Dodgeball") is a field of :class:`DodgeballSettings`; the defaults are the 4-player
game as written. A scenario's ``[settings]`` table::

    players = 4              # 4 (two teams of two, partners diagonal) or 2 (dummy partners)
    ranks = "1-13"           # the deck's ranks in each suit (A = 1)
    aces = "low"             # "low" (the exhibit card's "Al") or "high"
    ringers = false          # variant: four Ringers (0/14), one dealt to each hand
    ringer_bench = "either"  # a Ringer in hand as "lowest in its suit": either, zero, fourteen
    allstars = true          # an All-Star (Joker) on each team's bench
    setup_bench = 1          # cards each player benches face-up at setup
    setup_swap = 1           # cards partners pass each other at setup (4 players)
    timeouts = 1             # timeouts per team per round
    catch_bring_back = true  # a catching team brings a bench card back to a hand
    match_points = 2         # round wins that take the championship (the Match Point card)
    dummy_face_down = 6      # 2 players: face-down cards per dummy, each under a face-up one
    dummy_face_up = 6        # 2 players: face-up cards per dummy
    two_player_hand = 12     # 2 players: cards dealt to each player
    two_player_bench = 1     # 2 players: cards dealt face-up to each bench
    two_player_exchange = 1  # 2 players: hand cards a player may exchange with its dummy

Seats are numbered in play order, 0 to 3 (people read them as 1 to 4): seats 0 and 2 are
team 0, seats 1 and 3 team 1 (partners sit diagonally, so the play order alternates
teams). In the 2-player game seat 0 is player 1, seat 1 player 2, seat 2 player 1's dummy
and seat 3 player 2's dummy: the rulebook's play order "Player 1, Player 2, Player 1's
dummy partner, Player 2's dummy partner".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from zooanalysis.cards.bits import faces_in, mask_of
from zooanalysis.cards.deck import STANDARD_RANKS, parse_ranks
from zooanalysis.cards.encoding import N_SUITS, RANK_SLOTS
from zooanalysis.cards.orders import ACES_HIGH, NUMERIC, STRENGTH, UP, weakest_of_each_suit
from zooanalysis.errors import SettingsError
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 4
PLAYER_COUNTS = (2, 4)
"""The game is for 2 players (with dummy partners) or 4 (two teams), not 3."""
SEATS = 4
"""Seats at the table in both games (in the 2-player game two of them are dummies)."""
TEAMS = 2

RINGER_LOW, RINGER_HIGH = 0, 14
"""A Ringer is played as rank 0 or 14 ("These can be either rank 0 or 14, decided when
played"); in a hand it is the rank-0 card of its suit."""
RINGER_FACES = np.uint64(sum(1 << (suit * RANK_SLOTS + RINGER_LOW) for suit in range(N_SUITS)))
"""The face mask of the four Ringers (as they sit in a hand)."""

ACES_NAMES = ("low", "high")
RINGER_BENCH_NAMES = ("either", "zero", "fourteen")
RINGER_EITHER, RINGER_ZERO, RINGER_FOURTEEN = 0, 1, 2

HIT, BLOCK, CATCH = 0, 1, 2
OUTCOME_NAMES = ("hit", "block", "catch")
"""How a trick resolves: "Gets hit by a ball", "Blocks a ball", "Catches a ball"."""

EMPTY_HAND, CANNOT_FOLLOW = 0, 1
END_REASONS = ("empty hand", "no new suit")
"""Why a player could not play: "not having any cards left in hand when it is their turn",
or "the must-not-follow rule" (every card's suit is already in the trick)."""


def team_of(seat: int) -> int:
    """The team of a seat: partners sit diagonally, so seats 0, 2 and 1, 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat diagonally opposite."""
    return (seat + 2) % SEATS


def seat_names(players: int) -> list[str]:
    """How people read the four seats: ``seat 1`` ... (2 players: the dummies named)."""
    if players == 2:
        return ["player 1", "player 2", "player 1's dummy", "player 2's dummy"]
    return [f"seat {seat + 1}" for seat in range(SEATS)]


def team_names(players: int) -> list[str]:
    """How people read the teams: seats 1 & 3 and 2 & 4 (2 players: each with its dummy)."""
    if players == 2:
        return ["player 1 + dummy", "player 2 + dummy"]
    return ["seats 1 & 3", "seats 2 & 4"]


@dataclass(frozen=True)
class DodgeballSettings:
    """Every rule number of Hodge Podge Dodgeball; the defaults are the rulebook's 4-player
    game ("52 Playing Cards (A-K in 4 suits)", "2 All-Stars (Jokers)")."""

    players: int = 4
    ranks: tuple[int, ...] = STANDARD_RANKS
    aces: str = "low"
    ringers: bool = False
    ringer_bench: str = "either"
    allstars: bool = True
    setup_bench: int = 1
    setup_swap: int = 1
    timeouts: int = 1
    catch_bring_back: bool = True
    match_points: int = 2
    dummy_face_down: int = 6
    dummy_face_up: int = 6
    two_player_hand: int = 12
    two_player_bench: int = 1
    two_player_exchange: int = 1

    @property
    def two_player(self) -> bool:
        """Whether this is the 2-player game with dummy partners."""
        return self.players == 2

    @property
    def order(self) -> int:
        """The rank order (``cards.orders``): numeric (aces low) or aces high."""
        return NUMERIC if self.aces == "low" else ACES_HIGH

    @property
    def deck_size(self) -> int:
        """Playing cards in the deck (Ringers and All-Stars aside)."""
        return N_SUITS * len(self.ranks)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player's hand (Ringer aside)."""
        return self.two_player_hand if self.two_player else self.deck_size // SEATS

    @property
    def out_cards(self) -> int:
        """Cards left face down and out for the round (2 players: "The remaining 2 cards")."""
        if not self.two_player:
            return 0
        dealt = 2 * self.two_player_hand + 2 * (self.dummy_face_down + self.dummy_face_up)
        return self.deck_size - dealt - TEAMS * self.two_player_bench

    def declarable_ranks(self) -> tuple[int, ...]:
        """The ranks an All-Star may be declared as: "any number", read as any rank of the
        cards in play (with Ringers also 0 and 14)."""
        extra = (RINGER_LOW, RINGER_HIGH) if self.ringers else ()
        return tuple(sorted(set(self.ranks) | set(extra)))

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain dict (the scenario-file format; ranks as a list)."""
        values = asdict(self)
        values["ranks"] = list(self.ranks)
        return values


_INTEGERS = {
    "players": (MIN_PLAYERS, MAX_PLAYERS),
    "setup_bench": (0, 3),
    "setup_swap": (0, 3),
    "timeouts": (0, 3),
    "match_points": (1, 9),
    "dummy_face_down": (0, 13),
    "dummy_face_up": (1, 13),
    "two_player_hand": (1, 26),
    "two_player_bench": (0, 8),
    "two_player_exchange": (0, 1),
}
_BOOLEANS = ("ringers", "allstars", "catch_bring_back")
_CHOICES = {"aces": ACES_NAMES, "ringer_bench": RINGER_BENCH_NAMES}


def settings_from_table(table: Mapping[str, Any]) -> DodgeballSettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` names
    the key and what is allowed)."""
    reject_unknown_keys(table, DodgeballSettings.__dataclass_fields__)
    values: dict[str, Any] = {}
    for key, (low, high) in _INTEGERS.items():
        if key in table:
            values[key] = whole_number(table[key], key, low, high)
    for key in _BOOLEANS:
        if key in table:
            if not isinstance(table[key], bool):
                raise SettingsError(key, f"{table[key]!r} is not true or false")
            values[key] = table[key]
    for key, names in _CHOICES.items():
        if key in table:
            if table[key] not in names:
                raise SettingsError(key, f"{table[key]!r} is not one of {', '.join(names)}")
            values[key] = table[key]
    if "ranks" in table:
        values["ranks"] = parse_ranks(table["ranks"], "ranks")
    settings = DodgeballSettings(**values)
    validate(settings)
    return settings


def validate(settings: DodgeballSettings) -> None:
    """Reject settings no game can be played with (``SettingsError`` naming the key)."""
    if settings.players not in PLAYER_COUNTS:
        raise SettingsError(
            "players", f"{settings.players} players: Hodge Podge Dodgeball is for 2 or 4 players"
        )
    if settings.ringers and (RINGER_LOW in settings.ranks or RINGER_HIGH in settings.ranks):
        raise SettingsError(
            "ranks", "with ringers the deck may not hold ranks 0 or 14 (the Ringers' ranks)"
        )
    if min(settings.ranks) < 1 or max(settings.ranks) > 13:
        raise SettingsError("ranks", f"{list(settings.ranks)}: give ranks from 1 (A) to 13 (K)")
    hand = settings.hand_size + (1 if settings.ringers else 0)
    if hand < settings.setup_bench + settings.setup_swap + 1:
        raise SettingsError(
            "ranks",
            f"hands of {hand} cards cannot bench {settings.setup_bench} and pass "
            f"{settings.setup_swap} and keep a card: add ranks or lower setup_bench",
        )
    if settings.two_player:
        if settings.dummy_face_down > settings.dummy_face_up:
            raise SettingsError(
                "dummy_face_down",
                f"{settings.dummy_face_down} face-down cards need as many face-up cards on "
                f"top, but dummy_face_up is {settings.dummy_face_up}",
            )
        if settings.out_cards < 0:
            raise SettingsError(
                "two_player_hand",
                f"two hands of {settings.two_player_hand}, two dummies of "
                f"{settings.dummy_face_down} + {settings.dummy_face_up} and benches of "
                f"{settings.two_player_bench} need more than the deck's {settings.deck_size} "
                "cards",
            )


# --- the rules both engines share, in plain Python -------------------------------------------


def rank_strength(settings: DodgeballSettings, rank: int) -> int:
    """How strong a rank is (0 weakest ... 15): aces low by default ("Al")."""
    return int(STRENGTH[settings.order, UP, rank])


def classify_trick(strengths: Sequence[int]) -> tuple[int, int, int]:
    """How a trick of four cards resolves, from their strengths in play order (position 0
    is the leader; positions 0 and 2 are one team, 1 and 3 the other).

    Returns ``(outcome, p1, p2)`` as positions:

    * ``HIT``: "If a player plays the highest card, without any ties, they get hit":
      ``p1`` is that player (``p2`` = -1);
    * ``BLOCK``: the highest is shared by partners only ("their teammate plays the same
      highest number"): ``p1`` is the later of them, the blocker (``p2`` = -1);
    * ``CATCH``: "If players on opposite teams play the same highest number ... the latest
      player (P1) catches the ball from the other team's latest player (P2)".
    """
    best = max(strengths)
    highest = [position for position, value in enumerate(strengths) if value == best]
    if len(highest) == 1:
        return HIT, highest[0], -1
    latest = highest[-1]
    opponents = [position for position in highest if position % 2 != latest % 2]
    if not opponents:
        return BLOCK, latest, -1
    return CATCH, latest, opponents[-1]


def bench_choices(hand_faces: int, settings: DodgeballSettings) -> list[int]:
    """The faces a hit or caught player may send to the bench: in each suit the lowest rank
    ("This card must be the player's lowest rank in that suit (lowest does not count
    All-Stars)"), the player choosing the suit.

    A Ringer in hand has no rank until played; ``ringer_bench`` says how it counts: as
    either 0 or 14, the player choosing (``either``: the Ringer and the lowest other card of
    its suit are both allowed), as 0 (``zero``: it is the suit's lowest), or as 14
    (``fourteen``: only when it is the suit's last card).
    """
    mask = int(hand_faces)
    ringers = mask & int(RINGER_FACES)
    others = mask & ~int(RINGER_FACES)
    lowest = int(weakest_of_each_suit(np.uint64(others), settings.order, UP))
    mode = RINGER_BENCH_NAMES.index(settings.ringer_bench)
    if mode == RINGER_EITHER:
        allowed = lowest | ringers
    elif mode == RINGER_ZERO:
        ringer_suits = {face >> 4 for face in faces_in(ringers)}
        allowed = ringers | sum(1 << face for face in faces_in(lowest) if face >> 4 not in
                                ringer_suits)
    else:
        suits_with_others = {face >> 4 for face in faces_in(others)}
        allowed = lowest | sum(1 << face for face in faces_in(ringers) if face >> 4 not in
                               suits_with_others)
    return faces_in(np.uint64(allowed))


# --- the Match Point card ----------------------------------------------------------------------

IN_BOX, ONE_POINT, SUDDEN_DEATH = 0, 1, 2
CARD_SIDES = ("in the box", "1 Point", "Sudden Death")


@dataclass(frozen=True)
class MatchPointCard:
    """Where the Match Point card is and which side is up (``holder`` -1 while in the box)."""

    side: int = IN_BOX
    holder: int = -1


def award_match_point(card: MatchPointCard, winner: int) -> tuple[MatchPointCard, bool]:
    """The Match Point card after team ``winner`` won a round, and whether that team has won
    the championship. Exactly as written:

    * "If the Match Point card is in the game box, the winning team takes the Match Point
      card, '1 Point' side up."
    * "If the other team has the Match Point card, flip the Match Point card to the 'Sudden
      Death' side."
    * "If the winning team had the Match Point card already or the card was flipped to
      'Sudden Death', then the winning team has won the 2 match points needed to win the
      championship!!"

    "Was flipped" is read as "had been flipped by an earlier round": the round that flips
    the card gives its winner a first match point, and only the next round's winner has
    the "2 match points needed" (see docs/rules-decisions.md). So the card is "first team
    to two round wins".
    """
    if card.side == IN_BOX:
        return MatchPointCard(ONE_POINT, winner), False
    if card.side == SUDDEN_DEATH:
        return card, True
    if card.holder == winner:
        return card, True
    return MatchPointCard(SUDDEN_DEATH, card.holder), False


def mask_from_faces(faces: Sequence[int]) -> int:
    """A face mask as a Python int (plain Python helper)."""
    return int(mask_of(faces))

