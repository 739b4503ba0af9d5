"""Bluff in Zoo's built-in strategies, compiled once and used by both engines.

A strategy answers two questions, each from the acting player's information only:

* ``choose_move``: doubt, place a hand card (which one), place the top draw-pile card, or
  place no card;
* ``choose_claim``: after its card (if any) is on the pile, and seen, which claim to make.

The arguments are the player's hand, ``known`` (counts per card type of the pile cards it
placed this round, from its hand or the draw pile), ``unseen`` (counts per card type of the
cards it has never seen: the deck less its hand, its known pile cards and the cards revealed
by earlier doubts), the pile and draw-pile sizes, the standing claim, the claim cap, its
parameters and the game's random stream. Nothing else of the game reaches a strategy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.bluff.cards import COUNT_ONE, N_CARD_TYPES, N_KINDS
from zooanalysis.games.bluff.policy_math import (
    KNOWN,
    MEANS,
    MODE_PLAIN,
    card_contribution,
    chance_at_least,
    count_kind,
    min_legal_count,
    pile_mode,
    prepare_beliefs,
    store_mode_probabilities,
)
from zooanalysis.rng import below, uniform
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

MOVE_DOUBT = 0
MOVE_HAND = 1
MOVE_DRAW = 2
MOVE_NONE = 3
MOVE_NAMES = ("doubt", "hand", "draw", "none")

RANDOM = 0
BAYES = 1
CAUTIOUS = 2
AGGRESSIVE = 3
MAX_PARAMS = 4

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniformly random legal play, exactly as specified for cross-implementation checks: "
        "uniform move type, uniform hand card; a claim raises the count by one (random kind) "
        "or, with probability 1/2, keeps the count with a random bigger kind.",
    ),
    "bayes": StrategyInfo(
        "bayes",
        "Estimates the chance that a claim is true from its hand, the pile cards it knows and "
        "the cards it has not seen; doubts below a threshold; claims what it believes most "
        "likely true and places the card (hand, draw pile or none) that best supports it.",
        (
            ParamSpec("doubt", 0.35, 0.0, 1.0, "doubt a claim believed true with less than this"),
            ParamSpec("bluff", 0.2, 0.0, 1.0, "probability of claiming one more than believed"),
        ),
    ),
    "cautious": StrategyInfo(
        "cautious",
        "Believes only what it has seen: credits every pile card it did not see with a "
        "fixed number of animals and doubts any claim beyond that (so it doubts early), "
        "never draws blind, and claims what its own cards and the expected pile support.",
        (
            ParamSpec(
                "trust",
                0.8,
                0.0,
                3.0,
                "animals of the claimed kind it credits each unseen pile card",
            ),
            ParamSpec(
                "margin", 0.5, -5.0, 10.0, "animals a claim may exceed that before it doubts"
            ),
        ),
    ),
    "aggressive": StrategyInfo(
        "aggressive",
        "Raises hard on the kind it has placed most of, often draws blind, and doubts only "
        "claims that outnumber the pile by a wide ratio.",
        (
            ParamSpec("raise", 2, 1, 5, "how much it raises the count", integer=True),
            ParamSpec(
                "doubt_ratio",
                1.2,
                0.1,
                10.0,
                "doubt when the claim exceeds this times the pile size",
            ),
            ParamSpec("draw", 0.5, 0.0, 1.0, "probability of playing the top draw-pile card"),
        ),
    ),
}

STRATEGY_CODES = {"random": RANDOM, "bayes": BAYES, "cautious": CAUTIOUS, "aggressive": AGGRESSIVE}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


# --- shared pieces --------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _unknown_pile_cards(known: np.ndarray, pile_size: np.int64) -> np.int64:
    known_cards = 0
    for card in range(N_CARD_TYPES):
        known_cards += known[card]
    return pile_size - known_cards


@njit(cache=True, nogil=True, error_model="numpy")
def _strongest_value(card):
    """Most animals of any one kind the card adds in plain mode."""
    value = 0
    for kind in range(N_KINDS):
        value = max(value, card_contribution(card, kind, MODE_PLAIN))
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def _strongest_hand_card(hand: np.ndarray, hand_size: np.int64, kind: np.int64) -> np.int64:
    """Index of the hand card adding most animals of ``kind`` (any kind if -1); -1 if empty."""
    best_index = -1
    best_value = -1
    for index in range(hand_size):
        card = hand[index]
        value = card_contribution(card, kind, MODE_PLAIN) if kind >= 0 else _strongest_value(card)
        if value > best_value:
            best_value = value
            best_index = index
    return best_index


@njit(cache=True, nogil=True, error_model="numpy")
def _strongest_known_kind(known: np.ndarray) -> np.int64:
    """The kind the known pile cards show most of (the bigger kind on ties)."""
    best_kind = 0
    best_count = -1
    for kind in range(N_KINDS):
        count = count_kind(known, kind)
        if count >= best_count:
            best_count = count
            best_kind = kind
    return best_kind


# --- random ------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_move(hand_size, draw_size, claim_count, rng):
    """The ``random`` policy's move; it needs only the number of cards in its hand."""
    if claim_count == 0:
        if hand_size > 0:
            return MOVE_HAND, below(rng, hand_size)
        return MOVE_DRAW, -1
    # options in the order doubt, hand (if any), draw (if any), none
    n_options = 2 + (1 if hand_size > 0 else 0) + (1 if draw_size > 0 else 0)
    pick = below(rng, n_options)
    if pick == 0:
        return MOVE_DOUBT, -1
    if pick == n_options - 1:
        return MOVE_NONE, -1
    if pick == 1 and hand_size > 0:
        return MOVE_HAND, below(rng, hand_size)
    return MOVE_DRAW, -1


@njit(cache=True, nogil=True, error_model="numpy")
def random_claim(claim_count, claim_kind, claim_cap, rng):
    """The ``random`` policy's claim."""
    if claim_count == 0:
        return 1, below(rng, N_KINDS)
    keep_count = below(rng, 2) == 1
    if (keep_count or claim_count >= claim_cap) and claim_kind < N_KINDS - 1:
        return claim_count, claim_kind + 1 + below(rng, N_KINDS - 1 - claim_kind)
    return claim_count + 1, below(rng, N_KINDS)


# --- bayes ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _bayes_move(
    params, hand, hand_size, known, unseen, pile_size, draw_size, claim_count, claim_kind, cap, work
):
    doubt_below = params[0]
    unknown = _unknown_pile_cards(known, pile_size)
    first_move = claim_count == 0
    total_unseen = prepare_beliefs(known, unseen, work)
    store_mode_probabilities(known, -1, unseen, total_unseen, unknown, work, 0)
    if not first_move:
        believed = chance_at_least(claim_count, claim_kind, -1, unknown, total_unseen, work, 0)
        if believed < doubt_below:
            return MOVE_DOUBT, -1
    store_mode_probabilities(known, -1, unseen, total_unseen, unknown + 1, work, 1)
    best_probability = -1.0
    best_move = MOVE_NONE
    best_index = -1
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        index = _strongest_hand_card(hand, hand_size, kind)
        if index >= 0:
            card = hand[index]
            row = 0  # animal and wild cards leave the action-mode odds as they are
            if card >= COUNT_ONE:
                row = 2
                store_mode_probabilities(known, card, unseen, total_unseen, unknown, work, row)
            chance = chance_at_least(needed, kind, card, unknown, total_unseen, work, row)
            if chance > best_probability:
                best_probability, best_move, best_index = chance, MOVE_HAND, index
        if not first_move:
            chance = chance_at_least(needed, kind, -1, unknown, total_unseen, work, 0)
            if chance > best_probability:
                best_probability, best_move, best_index = chance, MOVE_NONE, -1
        if draw_size > 0:
            chance = chance_at_least(needed, kind, -1, unknown + 1, total_unseen, work, 1)
            if chance > best_probability:
                best_probability, best_move, best_index = chance, MOVE_DRAW, -1
    return best_move, best_index


@njit(cache=True, nogil=True, error_model="numpy")
def _bayes_claim(params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work):
    bluff = params[1]
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = prepare_beliefs(known, unseen, work)
    store_mode_probabilities(known, -1, unseen, total_unseen, unknown, work, 0)
    best_probability = -1.0
    best_count = 0
    best_kind = 0
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        chance = chance_at_least(needed, kind, -1, unknown, total_unseen, work, 0)
        if chance >= best_probability:
            best_probability, best_count, best_kind = chance, needed, kind
    if uniform(rng) < bluff and claim_count > 0 and best_count < cap:
        best_count += 1
    return best_count, best_kind


# --- cautious ------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _cautious_expected(known, unknown, kind, work):
    """Animals of ``kind`` it has seen on the pile plus the unseen cards' expected share."""
    return work[KNOWN + pile_mode(known), kind] + unknown * work[MEANS + MODE_PLAIN, kind]


@njit(cache=True, nogil=True, error_model="numpy")
def _cautious_move(
    params, hand, hand_size, known, unseen, pile_size, claim_count, claim_kind, work
):
    trust, margin = params[0], params[1]
    unknown = _unknown_pile_cards(known, pile_size)
    if claim_count > 0:
        prepare_beliefs(known, unseen, work)
        credible = work[KNOWN + pile_mode(known), claim_kind] + trust * unknown
        if claim_count > credible + margin:
            return MOVE_DOUBT, -1
    index = _strongest_hand_card(hand, hand_size, -1)
    if index < 0:
        return (MOVE_DRAW if claim_count == 0 else MOVE_NONE), -1
    if claim_count > 0 and _strongest_value(hand[index]) == 0:
        return MOVE_NONE, -1
    return MOVE_HAND, index


@njit(cache=True, nogil=True, error_model="numpy")
def _cautious_claim(known, unseen, pile_size, claim_count, claim_kind, cap, work):
    unknown = _unknown_pile_cards(known, pile_size)
    prepare_beliefs(known, unseen, work)
    best_slack = -1e300
    best_count = 0
    best_kind = 0
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        slack = _cautious_expected(known, unknown, kind, work) - needed
        if slack >= best_slack:
            best_slack, best_count, best_kind = slack, needed, kind
    return best_count, best_kind


# --- aggressive ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _aggressive_move(params, hand, hand_size, draw_size, pile_size, claim_count, rng):
    doubt_ratio, draw = params[1], params[2]
    if claim_count > 0:
        if claim_count > doubt_ratio * pile_size:
            return MOVE_DOUBT, -1
        if draw_size > 0 and uniform(rng) < draw:
            return MOVE_DRAW, -1
    index = _strongest_hand_card(hand, hand_size, -1)
    if index >= 0:
        return MOVE_HAND, index
    return (MOVE_DRAW if claim_count == 0 else MOVE_NONE), -1


@njit(cache=True, nogil=True, error_model="numpy")
def _aggressive_claim(params, known, claim_count, claim_kind, cap):
    kind = _strongest_known_kind(known)
    if claim_count == 0:
        return 1, kind
    count = min(claim_count + np.int64(params[0]), cap)
    if count == claim_count and kind <= claim_kind:
        kind = claim_kind + 1
    return count, kind


# --- dispatch ------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def choose_move(
    code,
    params,
    hand,
    hand_size,
    known,
    unseen,
    pile_size,
    draw_size,
    claim_count,
    claim_kind,
    cap,
    rng,
    work,
):
    """(move, hand index or -1) for the player; ``claim_count`` 0 means the round's first move.

    The hand is ``hand[:hand_size]``.
    ``work`` is scratch memory from ``policy_math.new_workspace`` (it carries no game state).
    """
    if code == BAYES:
        return _bayes_move(
            params,
            hand,
            hand_size,
            known,
            unseen,
            pile_size,
            draw_size,
            claim_count,
            claim_kind,
            cap,
            work,
        )
    if code == CAUTIOUS:
        return _cautious_move(
            params, hand, hand_size, known, unseen, pile_size, claim_count, claim_kind, work
        )
    if code == AGGRESSIVE:
        return _aggressive_move(params, hand, hand_size, draw_size, pile_size, claim_count, rng)
    return random_move(hand_size, draw_size, claim_count, rng)


@njit(cache=True, nogil=True, error_model="numpy")
def choose_claim(code, params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work):
    """(count, kind) the player claims once its card, if any, is on the pile."""
    if code == BAYES:
        return _bayes_claim(
            params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work
        )
    if code == CAUTIOUS:
        return _cautious_claim(known, unseen, pile_size, claim_count, claim_kind, cap, work)
    if code == AGGRESSIVE:
        return _aggressive_claim(params, known, claim_count, claim_kind, cap)
    return random_claim(claim_count, claim_kind, cap, rng)
