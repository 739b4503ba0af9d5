"""What a hand is worth as declarer, way by way (compiled; the heuristics' picks and bets).

:func:`hand_value` estimates the points a declarer holding ``faces`` (and ``jokers``) takes
in a round played a given way (trump suit, order, start direction, flips): each of its
cards wins its trick with a probability that falls with the cards of its suit still out
above it, and a card that wins brings its own points and, on average, the points of the
other players' cards in the trick; a team's other members add their share of an average
hand. It reads the player's own cards only (and the deck, which is public).

:func:`baselines` gives, for every way, the mean of that estimate over random hands (a fixed
sample, the same for both engines): a hand's *advantage* for a way is its value minus the
baseline, what picking that way now gains over an average hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import SUIT_FACES, count_faces, face_bit
from zooanalysis.cards.encoding import N_SUITS, NO_SUIT, RANK_SLOTS
from zooanalysis.cards.orders import DOWN, RANK_AT_STRENGTH, UP

_EMPTY = np.uint64(0)
WIN_CHANCE = np.array([1.0, 0.5, 0.25, 0.1, 0.03], dtype=np.float64)
"""Chance that a card wins its trick with 0, 1, 2, 3, 4+ cards of its suit out above it."""
SIDE_SUIT_RUFF = 0.7
"""A side-suit winner keeps this share of its chance when a trump suit is in play."""
SHORT_RUFF = 0.5
"""Chance that a trump with no top-card chance wins a ruff, with a side suit of 0-1 cards."""


@njit(cache=True, nogil=True, error_model="numpy")
def suit_value(faces, suit, trump, order, direction, deck_faces, points, other_points) -> float:
    """Expected points from one suit's cards of the hand, in one direction."""
    mine = faces & SUIT_FACES[suit]
    if mine == _EMPTY:
        return 0.0
    in_deck = deck_faces & SUIT_FACES[suit]
    held = count_faces(mine)
    out = count_faces(in_deck) - held
    missing = 0
    value = 0.0
    lowest = 0.0
    for strength in range(RANK_SLOTS - 1, -1, -1):
        face = suit * RANK_SLOTS + RANK_AT_STRENGTH[order, direction, strength]
        bit = face_bit(face)
        if in_deck & bit == _EMPTY:
            continue
        if mine & bit == _EMPTY:
            missing += 1
            continue
        chance = WIN_CHANCE[min(missing, 4)]
        if trump != NO_SUIT and suit != trump:
            chance *= SIDE_SUIT_RUFF
        value += chance * (points[face] + other_points)
        lowest = points[face] + other_points
    if trump == NO_SUIT or suit == trump:
        extra = held - out  # the long cards that win once the others run out
        if extra > 0:
            value += 0.5 * extra * lowest
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def _suits_total(faces, jokers, trump, clubs, diamonds, hearts, spades, points,
                 other_points) -> float:
    """:func:`direction_value` from the four suits' :func:`suit_value` (in suit order)."""
    value = jokers * (points[64] + other_points)
    value += clubs
    value += diamonds
    value += hearts
    value += spades
    short = False
    for suit in range(N_SUITS):
        if suit != trump and count_faces(faces & SUIT_FACES[suit]) <= 1:
            short = True
    if trump != NO_SUIT and short:
        trumps = count_faces(faces & SUIT_FACES[trump])
        value += SHORT_RUFF * 0.5 * min(trumps, 2) * other_points
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def direction_value(faces, jokers, trump, order, direction, deck_faces, points,
                    other_points) -> float:
    """Expected points of the hand when every trick runs in ``direction``."""
    return _suits_total(
        faces, jokers, trump,
        suit_value(faces, 0, trump, order, direction, deck_faces, points, other_points),
        suit_value(faces, 1, trump, order, direction, deck_faces, points, other_points),
        suit_value(faces, 2, trump, order, direction, deck_faces, points, other_points),
        suit_value(faces, 3, trump, order, direction, deck_faces, points, other_points),
        points, other_points,
    )  # fmt: skip


@njit(cache=True, nogil=True, error_model="numpy")
def _suit_values(faces, side, order, direction, deck_faces, points, other_points):
    """Each suit's :func:`suit_value`: as a side suit (``side``: some other suit is trump,
    whichever) or else as the trump suit, which is the same as with no trump at all."""
    if side:
        return (
            suit_value(faces, 0, 1, order, direction, deck_faces, points, other_points),
            suit_value(faces, 1, 0, order, direction, deck_faces, points, other_points),
            suit_value(faces, 2, 0, order, direction, deck_faces, points, other_points),
            suit_value(faces, 3, 0, order, direction, deck_faces, points, other_points),
        )  # fmt: skip
    return (
        suit_value(faces, 0, 0, order, direction, deck_faces, points, other_points),
        suit_value(faces, 1, 1, order, direction, deck_faces, points, other_points),
        suit_value(faces, 2, 2, order, direction, deck_faces, points, other_points),
        suit_value(faces, 3, 3, order, direction, deck_faces, points, other_points),
    )  # fmt: skip


@njit(cache=True, nogil=True, error_model="numpy")
def _direction_from(faces, jokers, trump, full, side, points, other_points) -> float:
    """:func:`direction_value` from the suits' values as trump or without trump (``full``)
    and as side suits (``side``, read only with a trump)."""
    if trump == NO_SUIT:
        return _suits_total(faces, jokers, trump, full[0], full[1], full[2], full[3], points,
                            other_points)  # fmt: skip
    return _suits_total(
        faces, jokers, trump,
        full[0] if trump == 0 else side[0],
        full[1] if trump == 1 else side[1],
        full[2] if trump == 2 else side[2],
        full[3] if trump == 3 else side[3],
        points, other_points,
    )  # fmt: skip


@njit(cache=True, nogil=True, error_model="numpy")
def hand_value(faces, jokers, trump, order, direction, flip, deck_faces, points, other_points,
               partner_points) -> float:
    """Expected points of a declarer holding ``faces`` and ``jokers`` in a round played
    with ``trump`` (``NO_SUIT``: none), ``order``, first-trick ``direction`` and ``flip``
    (0: the direction never changes; else half the tricks run each way). ``other_points``:
    the mean points of another player's card; ``partner_points``: what the declarer's
    teammates add on average."""
    faces = np.uint64(faces)
    if flip == 0:
        value = direction_value(faces, jokers, trump, order, direction, deck_faces, points,
                                other_points)  # fmt: skip
    else:
        up = direction_value(faces, jokers, trump, order, np.int64(UP), deck_faces, points,
                             other_points)  # fmt: skip
        down = direction_value(faces, jokers, trump, order, np.int64(DOWN), deck_faces, points,
                               other_points)  # fmt: skip
        value = 0.5 * (up + down)
    return value + partner_points


@njit(cache=True, nogil=True, error_model="numpy")
def way_values(faces, jokers, way_trump, way_order, way_direction, way_flip, deck_faces, points,
               other_points, partner_points, out) -> None:
    """:func:`hand_value` of the hand for every way, into ``out``, with the same arithmetic
    but less of it (this runs for every heuristic player each round): a suit's value
    depends on the trump only through whether the suit is a side suit, so each suit is
    valued at most twice per order and direction (as a side suit, and as trump or without
    trump) and the ways share those values; ways whose direction turns (``flip``) are worth
    the same whatever their first direction."""
    faces = np.uint64(faces)
    no_values = (0.0, 0.0, 0.0, 0.0)
    cache_order = -1  # the order the values below are for
    full_up, full_down, side_up, side_down = no_values, no_values, no_values, no_values
    known = 0  # which of them are valued: bits 1, 2, 4, 8
    for way in range(way_trump.shape[0]):
        trump = way_trump[way]
        order = way_order[way]
        flip = way_flip[way]
        if flip != 0:
            same = -1
            for earlier in range(way):
                if (way_flip[earlier] != 0 and way_trump[earlier] == trump
                        and way_order[earlier] == order):  # fmt: skip
                    same = earlier
                    break
            if same >= 0:
                out[way] = out[same]
                continue
        if order != cache_order:
            cache_order = order
            known = 0
        up = flip != 0 or way_direction[way] == UP
        down = flip != 0 or way_direction[way] == DOWN
        side = trump != NO_SUIT
        if up and not known & 1:
            full_up = _suit_values(faces, False, order, UP, deck_faces, points, other_points)
            known |= 1
        if down and not known & 2:
            full_down = _suit_values(faces, False, order, DOWN, deck_faces, points, other_points)
            known |= 2
        if up and side and not known & 4:
            side_up = _suit_values(faces, True, order, UP, deck_faces, points, other_points)
            known |= 4
        if down and side and not known & 8:
            side_down = _suit_values(faces, True, order, DOWN, deck_faces, points, other_points)
            known |= 8
        if flip == 0:
            if up:
                value = _direction_from(faces, jokers, trump, full_up, side_up, points,
                                        other_points)  # fmt: skip
            else:
                value = _direction_from(faces, jokers, trump, full_down, side_down, points,
                                        other_points)  # fmt: skip
        else:
            value_up = _direction_from(faces, jokers, trump, full_up, side_up, points,
                                       other_points)  # fmt: skip
            value_down = _direction_from(faces, jokers, trump, full_down, side_down, points,
                                         other_points)  # fmt: skip
            value = 0.5 * (value_up + value_down)
        out[way] = value + partner_points


BASELINE_HANDS = 2000
"""Random hands whose mean value is a way's baseline."""


def value_inputs(settings) -> dict:
    """The deck facts :func:`hand_value` reads, for these settings (a ``ChaiSettings``)."""
    codes = settings.deck_spec.codes()
    faces = codes & 127
    points = settings.points
    deck_faces = np.uint64(0)
    for face in faces:
        if face < 64:
            deck_faces |= np.uint64(1) << np.uint64(int(face))
    total = float(points[faces].sum())
    per_card = total / len(codes)
    others = settings.players - 1
    per_trick = (total + settings.last_trick) / settings.tricks
    partner = (settings.team_size - 1) * settings.tricks / settings.players * per_trick
    ways = settings.ways
    return {
        "deck_faces": deck_faces,
        "points": points.astype(np.float64),
        "other_points": others * per_card,
        "partner_points": partner,
        "way_trump": np.array([w.trump for w in ways], dtype=np.int64),
        "way_order": np.array([w.order for w in ways], dtype=np.int64),
        "way_direction": np.array([w.direction for w in ways], dtype=np.int64),
        "way_flip": np.array([w.flip for w in ways], dtype=np.int64),
    }


def baselines(settings) -> np.ndarray:
    """Every way's mean :func:`hand_value` over ``BASELINE_HANDS`` random hands of the
    player count (a fixed sample: the same numbers in every run). A hand is what a player
    knows it holds when picking: its hand, and with 2 players its face-up straw cards."""
    inputs = value_inputs(settings)
    codes = settings.deck_spec.codes()
    generator = np.random.default_rng(20240601)
    total = np.zeros(len(settings.ways), dtype=np.float64)
    values = np.zeros(len(settings.ways), dtype=np.float64)
    size = settings.hand_cards + settings.straw_piles  # the cards a player knows it holds
    for _ in range(BASELINE_HANDS):
        hand = generator.choice(codes, size=size, replace=False)
        faces, jokers = hand_faces_and_jokers(hand)
        way_values(faces, jokers, inputs["way_trump"], inputs["way_order"],
                   inputs["way_direction"], inputs["way_flip"], inputs["deck_faces"],
                   inputs["points"], inputs["other_points"], inputs["partner_points"],
                   values)  # fmt: skip
        total += values
    return total / BASELINE_HANDS


def hand_faces_and_jokers(codes) -> tuple[np.uint64, int]:
    """The face mask (copies merged) and the number of jokers of a list of codes."""
    faces = 0
    jokers = 0
    for code in codes:
        face = int(code) & 127
        if face == 64:
            jokers += 1
        else:
            faces |= 1 << face
    return np.uint64(faces), jokers
