"""Hearts as a Through the Zoo exhibit: one hand from given hands (``notes/exhibit-interface``).

The exhibit card: "It is a Hold hand" and "Shooting the Moon is capturing all of the point
cards in the hand". :meth:`HeartsSettings.for_exhibit` makes the settings so (hold, the
start player leads any card, one hand); the moon is already "every heart and Queen of
Spades in play" in both engines, which with one deck is 26 points and with personal decks
is whatever was dealt. Each player's hand comes from its own deck, so a hand never holds
two identical cards, but two players may: identical faces in one trick compare by
``identical`` (``cards.tricks.EARLIER_WINS`` or ``LATER_WINS``).

* :func:`play_exhibit`: the reference, plain Python (the engine's ``play_hand``);
* :func:`exhibit_round`: the kernel, draw for draw the same, for 2 to 4 seats.

Standing: minus the points a seat scored (fewer points is better).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from zooanalysis.cards.encoding import face_of
from zooanalysis.games.hearts.engine import Strategy, play_hand
from zooanalysis.games.hearts.faces import high_mask
from zooanalysis.games.hearts.kernel import HAND_OUT, OK, STATUS, check
from zooanalysis.games.hearts.kernel import play_hand as kernel_hand
from zooanalysis.games.hearts.rules import HeartsSettings


@dataclass(frozen=True)
class ExhibitResult:
    """One exhibit round's result (the interface's shape; ``zooanalysis/games/exhibits.py``
    will hold the shared one): ``standing`` per seat, higher is better, equal = tied;
    ``scores`` the game's own round scores (Hearts points)."""

    standing: tuple[int, ...]
    scores: tuple[int, ...]


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
    return ExhibitResult(
        standing=tuple(-score for score in record.scores), scores=tuple(record.scores)
    )


@njit(cache=True, nogil=True, error_model="numpy")
def exhibit_round(rules, hands, start_seat, codes, params, stream, identical, standing, scores):
    """One Hearts hand on the kernel from the face masks ``hands`` (uint64 per seat):
    ``standing`` and ``scores`` (int64 per seat) receive minus the points and the points.
    Returns ``kernel.OK`` or a problem code (a strategy's illegal choice: a bug). Its
    scratch is allocated once per call."""
    players = hands.shape[0]
    masks = np.empty(players, dtype=np.uint64)
    for seat in range(players):
        masks[seat] = high_mask(hands[seat])
    passes = np.zeros(players, dtype=np.uint64)
    points = np.zeros(players, dtype=np.int64)
    cards = np.zeros(players, dtype=np.int64)
    jacks = np.zeros(players, dtype=np.int64)
    info = np.zeros(HAND_OUT, dtype=np.int64)
    kernel_hand(
        rules, masks, start_seat, 0, codes, params, stream, identical,
        passes, points, cards, jacks, scores, info,
    )  # fmt: skip
    for seat in range(players):
        standing[seat] = -scores[seat]
    return info[STATUS]


def exhibit_round_checked(rules, hands, start_seat, codes, params, stream, identical):
    """:func:`exhibit_round` from plain Python: (standing, scores) arrays, raising on a
    problem."""
    players = len(hands)
    standing = np.zeros(players, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    status = exhibit_round(
        rules, np.asarray(hands, dtype=np.uint64), start_seat, codes, params, stream,
        identical, standing, scores,
    )  # fmt: skip
    if status != OK:
        check(status)
    return standing, scores
