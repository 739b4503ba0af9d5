"""Hearts as a Through the Zoo exhibit: one hand from given hands (``notes/exhibit-interface``).

The exhibit card: "It is a Hold hand" and "Shooting the Moon is capturing all of the point
cards in the hand". :meth:`HeartsSettings.for_exhibit` makes the settings so (hold, the
start player leads any card, one hand); the moon is already "every heart and Queen of
Spades in play" in both engines, which with one deck is 26 points and with personal decks
is whatever was dealt. Each player's hand comes from its own deck, so a hand never holds
two identical cards, but two players may: identical faces in one trick compare by
``identical`` (``cards.tricks.EARLIER_WINS`` or ``LATER_WINS``).

* :func:`play_exhibit`: the reference, plain Python (the engine's ``play_hand``);
* :func:`exhibit_round`: the kernel, draw for draw the same, for 2 to 4 seats;
* :func:`exhibit_settings`, :func:`kernel_rules`, :func:`reference_strategies`,
  :func:`strategy_arrays`: what Through the Zoo needs to set a round up
  (``zooanalysis.games.exhibits``).

Standing: minus the points a seat scored (fewer points is better); diamonds: the Diamonds a
seat took in its tricks (Johannesburg's meta scoring).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from numba import njit

from zooanalysis.cards.encoding import DIAMONDS, face_of
from zooanalysis.decisions import OPTION_BINS
from zooanalysis.games.exhibits import ExhibitResult
from zooanalysis.games.hearts.engine import BuiltinStrategy, Strategy, play_hand
from zooanalysis.games.hearts.faces import high_mask
from zooanalysis.games.hearts.kernel import HAND_OUT, OK, STATUS
from zooanalysis.games.hearts.kernel import play_hand as kernel_hand
from zooanalysis.games.hearts.rules import HeartsSettings, rules_array
from zooanalysis.games.hearts.strategies import MAX_PARAMS, strategy_code, strategy_params
from zooanalysis.strategy_spec import PlayerSpec

EXHIBIT_PLAYERS = (2, 3, 4)
"""The Exhibit card's player counts: "Hearts 2 / 3 / 4"."""


def exhibit_settings(players: int) -> HeartsSettings:
    """Hearts as the Exhibit card plays it (:meth:`HeartsSettings.for_exhibit`) for 2-4
    players; ``ValueError`` otherwise."""
    if players not in EXHIBIT_PLAYERS:
        raise ValueError(f"Hearts' Exhibit card is for 2, 3 or 4 players, not {players}")
    return replace(HeartsSettings().for_exhibit(), players=players)


def kernel_rules(settings: HeartsSettings) -> np.ndarray:
    """The rules array :func:`exhibit_round` reads."""
    return rules_array(settings)


def reference_strategies(players: Sequence[PlayerSpec]) -> list[BuiltinStrategy]:
    """The reference engine's strategy objects for these players."""
    return [BuiltinStrategy(player) for player in players]


def strategy_arrays(players: Sequence[PlayerSpec]) -> tuple[np.ndarray, np.ndarray]:
    """(codes int64[seats], params float64[seats, k]) for :func:`exhibit_round`."""
    codes = np.array([strategy_code(player) for player in players], dtype=np.int64)
    params = np.zeros((len(players), MAX_PARAMS), dtype=np.float64)
    for seat, player in enumerate(players):
        params[seat] = strategy_params(player)
    return codes, params


def play_exhibit(
    settings: HeartsSettings,
    hands: list[list[int]],
    start_seat: int,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    identical: int,
) -> ExhibitResult:
    """One Hearts hand from ``hands`` (card codes per seat; only the faces count, the seat
    owns its cards), the start seat leading, on ``stream``; ``settings`` as the exhibit
    card makes them (:meth:`HeartsSettings.for_exhibit`)."""
    faces = [[face_of(code) for code in hand] for hand in hands]
    for seat, hand in enumerate(faces):
        if len(set(hand)) != len(hand):
            raise ValueError(f"seat {seat}: a hand holds the same card twice")
    record = play_hand(
        settings, faces, strategies, stream, start_seat=start_seat, identical=identical
    )
    diamonds = [0] * len(hands)
    for _, cards, winner in record.tricks:
        diamonds[winner] += sum(1 for face in cards if face >> 4 == DIAMONDS)
    return ExhibitResult(
        standing=tuple(-score for score in record.scores), scores=tuple(record.scores),
        diamonds=tuple(diamonds),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def exhibit_round(rules, hands, start_seat, codes, params, stream, identical, standing, scores,
                  diamonds):
    """One Hearts hand on the kernel from the face masks ``hands`` (uint64 per seat):
    ``standing``, ``scores`` and ``diamonds`` (int64 per seat) receive minus the points,
    the points and the Diamonds taken. Raises if a strategy made an illegal choice (a bug).
    Its scratch is allocated once per call."""
    players = hands.shape[0]
    masks = np.empty(players, dtype=np.uint64)
    for seat in range(players):
        masks[seat] = high_mask(hands[seat])
    passes = np.zeros(players, dtype=np.uint64)
    points = np.zeros(players, dtype=np.int64)
    cards = np.zeros(players, dtype=np.int64)
    jacks = np.zeros(players, dtype=np.int64)
    info = np.zeros(HAND_OUT, dtype=np.int64)
    decision_options = np.zeros(OPTION_BINS, dtype=np.int64)  # not reported by the exhibit
    kernel_hand(
        rules, masks, np.int64(start_seat), np.int64(0), codes, params, stream,
        np.int64(identical), passes, points, cards, jacks, diamonds, scores, info, decision_options,
    )  # fmt: skip
    if info[STATUS] != OK:
        raise RuntimeError("Hearts exhibit: a strategy made an illegal choice")
    for seat in range(players):
        standing[seat] = -scores[seat]


def exhibit_round_checked(rules, hands, start_seat, codes, params, stream, identical):
    """:func:`exhibit_round` from plain Python: (standing, scores) arrays."""
    players = len(hands)
    standing = np.zeros(players, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    diamonds = np.zeros(players, dtype=np.int64)
    exhibit_round(
        rules, np.asarray(hands, dtype=np.uint64), start_seat, codes, params, stream,
        identical, standing, scores, diamonds,
    )  # fmt: skip
    return standing, scores
