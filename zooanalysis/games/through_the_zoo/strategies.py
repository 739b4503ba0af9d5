"""Through the Zoo's own decisions: the mulligans of the Prepare action.

Card play inside an exhibit is that game's business (its own strategies, chosen per exhibit
in the settings' ``play`` table). What Through the Zoo adds is the Prepare action before
every round: which cards to mulligan. Every built-in mulligan strategy is one compiled
function, :func:`mulligan_decision`, used by both engines, reading only what the player
knows: its hand, the contents of its own deck (its own cards neither in hand nor played;
their order is hidden), how many cards it may mulligan, and the value tables of the
Exhibit cards (dealt face up, so every exhibit still to come is known).

A card's *value* for an exhibit is a number per face (:func:`exhibit_values`): what makes a
hand good in that game. Hearts (aces high, points are bad): low cards, and no high Hearts or
high Spades (the Queen of Spades worst). Dodgeball (aces low, the sole highest card of a
trick is hit and must bench a card): low cards. Big Two (2s high, then aces): high cards.
An exhibit without a table values every card 0 (the heuristics then keep every card).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import EMPTY, count_faces, face_bit, nth_face
from zooanalysis.rng import below
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

KEEP_ALL, RANDOM, FIT, PLANNER = range(4)
MAX_PARAMS = 4
P_MARGIN, P_FUTURE = range(2)

_MARGIN = ParamSpec(
    "margin", 2.0, 0.0, 13.0,
    "mulligan a card only if a card drawn from the deck is worth this much more on "
    "average (value steps; 0: any card below the deck's average)",
)

STRATEGIES: dict[str, StrategyInfo] = {
    "keep-all": StrategyInfo("keep-all", "Never mulligans: plays every round with the 13 "
                                         "cards drawn."),
    "random": StrategyInfo(
        "random",
        "Uniform mulligans: with L = the cards it may mulligan now (the Zoo's limit, at "
        "most the cards in its deck and hand), k = below(L + 1) cards, then k times one "
        "card uniformly among the hand cards not yet chosen, in increasing face order "
        "(below(13 - i) for the i-th). L = 0: no draw.",
    ),
    "fit": StrategyInfo(
        "fit",
        "Mulligans for this round's exhibit only: a hand card is swapped when the deck's "
        "cards are worth more on average, for this exhibit, by more than margin; the worst "
        "cards first (equal value: the lowest face), up to the limit.",
        (_MARGIN,),
    ),
    "planner": StrategyInfo(
        "planner",
        "Mulligans for this round and the rounds still to come: a card's gain is fit's "
        "(deck average now minus its value now) plus future times how much better than "
        "the deck's average it is in the exhibits still to come (Johannesburg: the next "
        "round's, since a mulliganed card lies on top of the deck; Zooklyn: the average of "
        "all later rounds', since it is shuffled back). Cards with a gain above margin are "
        "mulliganed, the largest gains first, up to the limit.",
        (
            _MARGIN,
            ParamSpec("future", 0.5, 0.0, 2.0,
                      "weight of the exhibits still to come against this round's"),
        ),
    ),
}
STRATEGY_CODES = {"keep-all": KEEP_ALL, "random": RANDOM, "fit": FIT, "planner": PLANNER}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's mulligan strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


# --- what a card is worth in each exhibit ----------------------------------------------------


def _aces_high(rank: int) -> int:
    return 14 if rank == 1 else rank


def exhibit_values(name: str) -> np.ndarray:
    """A card's value (int64 per face 0-63) for the exhibit game ``name``; zeros for an
    exhibit without a table."""
    values = np.zeros(64, dtype=np.int64)
    for suit in range(4):
        for rank in range(1, 14):
            face = suit * 16 + rank
            if name == "hearts":
                value = 14 - _aces_high(rank)  # 2 -> 12 ... A -> 0
                if suit == 2:
                    value -= 3
                if suit == 3 and rank in (1, 13):
                    value -= 3
                if suit == 3 and rank == 12:
                    value = -10
            elif name == "dodgeball":
                value = 13 - rank  # aces low: A -> 12 ... K -> 0
            elif name == "big-two":
                value = (rank + 10) % 13  # 3 -> 0 ... K -> 10, A -> 11, 2 -> 12
            else:
                value = 0
            values[face] = value
    return values


# --- the decision ----------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _mask_sum(values, mask) -> int:
    total = 0
    while mask != EMPTY:
        face = nth_face(mask, np.int64(0))
        total += values[face]
        mask &= ~face_bit(face)
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def mulligan_decision(code, params, hand, deck, limit, now, future, future_rounds, stream):
    """The face mask of the hand cards to mulligan (at most ``limit``).

    ``hand``/``deck``: face masks of the player's hand and of its deck's contents;
    ``now``: this round's exhibit values; ``future``: the summed values of the
    ``future_rounds`` exhibits a mulliganed card may come back for (see ``STRATEGIES``).
    """
    if limit <= 0 or code == KEEP_ALL:
        return EMPTY
    n = count_faces(hand)
    if code == RANDOM:
        k = below(stream, min(limit, n) + 1)
        chosen = EMPTY
        left = hand
        for i in range(k):
            face = nth_face(left, below(stream, n - i))
            chosen |= face_bit(face)
            left &= ~face_bit(face)
        return chosen
    deck_n = count_faces(deck)
    if deck_n == 0:
        return EMPTY
    mean_now = _mask_sum(now, deck) / deck_n
    weight = params[P_FUTURE] if code == PLANNER and future_rounds > 0 else 0.0
    mean_future = _mask_sum(future, deck) / deck_n / max(future_rounds, 1)
    chosen = EMPTY
    for _ in range(limit):
        best_gain = params[P_MARGIN]
        best = -1
        left = hand & ~chosen
        while left != EMPTY:
            face = nth_face(left, np.int64(0))
            left &= ~face_bit(face)
            gain = mean_now - now[face]
            if weight > 0.0:
                gain += weight * (future[face] / max(future_rounds, 1) - mean_future)
            if gain > best_gain:
                best_gain = gain
                best = face
        if best < 0:
            break
        chosen |= face_bit(best)
    return chosen
