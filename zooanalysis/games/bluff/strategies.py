"""Bluff in Zoo's built-in strategies, compiled once and used by both engines.

A strategy answers two questions, each from the acting player's information only:

* ``choose_move``: doubt, place a hand card (which one), place the top draw-pile card, or
  place no card;
* ``choose_claim``: after its card (if any) is on the pile, and seen, which claim to make.

The arguments are the player's hand, ``known`` (counts per card type of the pile cards it
placed this round, from its hand or the draw pile), ``unseen`` (counts per card type of the
cards it has never seen: the deck less its hand, its known pile cards and the cards revealed
by earlier doubts), the pile and draw-pile sizes, the standing claim, the claim cap, its
parameters, the game's random stream and ``table``, public facts (its own, the claimant's
and the other opponents' penalty points, the points that end the game, and how many pile
cards opponents placed from their hands with a claim of each kind). Nothing else of the game
reaches a strategy.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.games.bluff.cards import COUNT_ONE, N_CARD_TYPES, N_KINDS, WILD_1, WILD_2
from zooanalysis.games.bluff.policy_math import (
    CONTRIBUTION,
    DRAW_SPREADS,
    EXPECTED,
    KNOWN,
    MODE_ALL_EQUAL,
    MODE_BOTH,
    MODE_COUNT_ONE,
    MODE_PLAIN,
    N_MODES,
    ROW_ACTION,
    ROW_DRAW,
    ROW_HELD,
    STRONGEST_VALUE,
    add_claim_evidence,
    cached_tail,
    chance_at_least,
    count_in_mode,
    count_kind,
    decision_code,
    inlined,
    min_legal_count,
    mixed_chance,
    mode_tail,
    pile_mode,
    prepare_beliefs,
    prepare_spreads,
    store_mode_probabilities,
)
from zooanalysis.rng import below, next_u64, uniform
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
STAKES = 4
MAX_PARAMS = 6

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
    "stakes": StrategyInfo(
        "stakes",
        "bayes's beliefs, also reading the opponents' claims (a card placed from the hand "
        "with a claim of a kind is believed more likely to show that kind); doubts when the "
        "doubt's expected penalty points, weighed by who would take them and whether they "
        "end the game, beat raising; bluffs at random, less the more is at stake.",
        (
            ParamSpec(
                "read", 2.0, 1.0, 20.0,
                "likelihood weight of the claimed kind for a card an opponent placed from "
                "its hand (1: claims say nothing)",
            ),
            ParamSpec(
                "rival", 0.3, 0.0, 2.0,
                "what a point the claimant takes is worth to it, against 1 for its own",
            ),
            ParamSpec(
                "caution", 0.5, 0.0, 2.0,
                "share of a false raise's cost (the pile) it expects to pay if it raises",
            ),
            ParamSpec(
                "cliff", 2.0, 0.0, 10.0,
                "extra weight per point of a pile that would end the game",
            ),
            ParamSpec(
                "bluff", 0.3, 0.0, 1.0,
                "chance of claiming one more than believed when nothing is at stake",
            ),
            ParamSpec(
                "bluff_pile", 15.0, 1.0, 100.0,
                "weighed pile points at which it stops bluffing (linearly)",
            ),
        ),
    ),
}

STRATEGY_CODES = {
    "random": RANDOM,
    "bayes": BAYES,
    "cautious": CAUTIOUS,
    "aggressive": AGGRESSIVE,
    "stakes": STAKES,
}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


# --- shared pieces --------------------------------------------------------------------------


@inlined
def _unknown_pile_cards(known: np.ndarray, pile_size: np.int64) -> np.int64:
    known_cards = 0
    for card in range(N_CARD_TYPES):
        known_cards += known[card]
    return pile_size - known_cards


@inlined
def _strongest_hand_card(hand: np.ndarray, hand_size: np.int64, kind: np.int64) -> np.int64:
    """Index of the hand card adding most animals of ``kind`` (any kind if -1); -1 if empty.

    The first such card on ties."""
    best_index = -1
    best_value = -1
    for index in range(hand_size):
        card = hand[index]
        value = CONTRIBUTION[MODE_PLAIN, card, kind] if kind >= 0 else STRONGEST_VALUE[card]
        if value > best_value:
            best_value = value
            best_index = index
    return best_index


@inlined
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

CLAIM_CELLS = 120
"""The ``random`` claim draws one of 120 equally likely cells: 120 is a multiple of 2 * 4,
2 * 3, 2 * 2, 2 * 1 and of 5, so every probability of the policy is exact in cells."""


@inlined
def move_for_word(high, hand_size, draw_size, claim_count):
    """The ``random`` move for 32 random bits ``high`` (see :func:`random_move`)."""
    if claim_count == 0:
        options = 1
    else:  # in the order doubt, hand (if any), draw (if any), none
        options = 2 + (1 if hand_size > 0 else 0) + (1 if draw_size > 0 else 0)
    scaled = high * options
    pick = scaled >> 32
    index = ((scaled & 0xFFFFFFFF) * hand_size) >> 32
    if claim_count == 0:
        return (MOVE_HAND, index) if hand_size > 0 else (MOVE_DRAW, -1)
    if pick == 0:
        return MOVE_DOUBT, -1
    if pick == options - 1:
        return MOVE_NONE, -1
    if pick == 1 and hand_size > 0:
        return MOVE_HAND, index
    return MOVE_DRAW, -1


@inlined
def random_move(hand_size, draw_size, claim_count, rng):
    """The ``random`` policy's move, from one random word; it needs only the hand's size.

    The round's first move places a hand card (the top draw-pile card if the hand is
    empty); a later move is uniformly one of doubt, hand card (if the hand holds one), top
    draw-pile card (if the draw pile holds one) and no card. The word's top 32 bits times
    the number of options: the integer part of the product (its bits above 32) picks the
    option, its fractional part (the low 32 bits) the hand card, uniformly.
    """
    return move_for_word(
        np.int64(next_u64(rng) >> np.uint64(32)), hand_size, draw_size, claim_count
    )


@inlined
def claim_for_cell(claim_count, claim_kind, claim_cap, cell):
    """The ``random`` claim for cell ``cell`` of :data:`CLAIM_CELLS` (see
    :func:`random_claim`)."""
    if claim_count == 0:
        return 1, cell // (CLAIM_CELLS // N_KINDS)
    bigger = N_KINDS - 1 - claim_kind
    if claim_count >= claim_cap:
        return claim_count, claim_kind + 1 + cell // (CLAIM_CELLS // bigger)
    half = CLAIM_CELLS // 2
    if bigger > 0 and cell < half:
        return claim_count, claim_kind + 1 + cell // (half // bigger)
    if bigger > 0:
        return claim_count + 1, (cell - half) // (half // N_KINDS)
    return claim_count + 1, cell // (CLAIM_CELLS // N_KINDS)


@inlined
def random_claim(claim_count, claim_kind, claim_cap, rng):
    """The ``random`` policy's claim, from one random word (a cell of :data:`CLAIM_CELLS`).

    The first claim is one animal of a uniformly random kind. Later, with probability 1/2
    the same count and a uniformly random bigger kind (if there is one), otherwise one more
    animal of a uniformly random kind; at the claim cap always the same count and a bigger
    kind (the engine forces a doubt when there is none).
    """
    return claim_for_cell(claim_count, claim_kind, claim_cap, below(rng, np.int64(CLAIM_CELLS)))


MOVE_ROW_FIRST = 4
"""Rows of :func:`random_move_table`: ``MOVE_ROW_FIRST * first move + 2 * (hand holds a
card) + (draw pile holds a card)``."""
CLAIM_BITS = 3
"""The kernel writes a claim as one number, ``count << CLAIM_BITS | kind`` (kind 5 and count
0 before the first claim), so that "bests the standing claim" is "is bigger"."""
NO_CLAIM = N_KINDS
CLAIM_ROW_AT_CAP = N_KINDS + 1
"""Rows of :func:`random_claim_table`: the standing kind (``NO_CLAIM`` before the first
claim), or ``CLAIM_ROW_AT_CAP`` + kind when the standing count is the cap."""


def random_move_table() -> tuple[np.ndarray, np.ndarray]:
    """The ``random`` move as tables for the kernel, from :func:`move_for_word`:
    ``(options[row], move_of[row, pick])``; the hand index follows as in ``move_for_word``."""
    options = np.zeros(2 * MOVE_ROW_FIRST, dtype=np.int64)
    move_of = np.zeros((2 * MOVE_ROW_FIRST, 4), dtype=np.int64)
    for first in (0, 1):
        for has_hand in (0, 1):
            for has_draw in (0, 1):
                row = MOVE_ROW_FIRST * first + 2 * has_hand + has_draw
                count = 1 if first else 2 + has_hand + has_draw
                options[row] = count
                for pick in range(count):
                    high = -(-(pick << 32) // count)  # the smallest word giving this pick
                    move, _ = move_for_word.py_func(high, has_hand * 5, has_draw, 1 - first)
                    move_of[row, pick] = move
    return options, move_of


def random_claim_table() -> np.ndarray:
    """The ``random`` claim as a table for the kernel, from :func:`claim_for_cell`:
    ``step[row, cell]`` is added to the claim number with its kind cleared."""
    step = np.zeros((CLAIM_ROW_AT_CAP + N_KINDS - 1, CLAIM_CELLS), dtype=np.int64)
    cap = 100
    for row in range(step.shape[0]):
        if row == NO_CLAIM:
            count, kind = 0, -1
        elif row < NO_CLAIM:
            count, kind = cap // 2, row
        else:
            count, kind = cap, row - CLAIM_ROW_AT_CAP
        for cell in range(CLAIM_CELLS):
            new_count, new_kind = claim_for_cell.py_func(count, kind, cap, cell)
            step[row, cell] = ((new_count - count) << CLAIM_BITS) + new_kind
    return step


# --- bayes ---------------------------------------------------------------------------------------
# A decision first works out what does not depend on the candidate claim (see policy_math:
# the unseen cards' moments, the known cards' counts, the mode probabilities, the unknown
# cards' expectations and spreads), then weighs every candidate in O(modes). The claim that
# follows a move in the kernel starts from what the move worked out (``_bayes_claim_after``).


@inlined
def _bayes_beliefs(known, unseen, unknown, work):
    """Beliefs for the known pile cards and ``unknown`` unknown ones; returns total unseen."""
    total_unseen = prepare_beliefs(known, unseen, work)
    store_mode_probabilities(known, -1, unseen, total_unseen, unknown, work, ROW_HELD)
    prepare_spreads(unknown, total_unseen, work, EXPECTED)
    return total_unseen


# The "equal" and "both" modes count every kind alike, so their tails depend on the candidate
# only through the count it needs (claim_count or one more: ``step`` 0 or 1) and what the
# card it places adds in that mode (0-3): tail slots ``step * 4 + added`` ("equal") and
# ``8 + step * 4 + added`` ("both"); with a draw, ``16 + step`` and ``18 + step``.
DOMINATED_MARGIN = 1e-9
"""A candidate whose chance can exceed a dominating one's by rounding only is weighed when
the dominating one's chance is within this of the best (see _bayes_move)."""
EQUAL_SLOTS = 0
BOTH_SLOTS = 8
DRAW_EQUAL_SLOTS = 16
DRAW_BOTH_SLOTS = 18


@decision_code
def _bayes_move(
    params, hand, hand_size, known, unseen, pile_size, draw_size, claim_count, claim_kind, cap, work
):
    doubt_below = params[0]
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = _bayes_beliefs(known, unseen, unknown, work)
    if claim_count > 0:
        believed = chance_at_least(
            claim_count, claim_kind, -1, unknown, total_unseen, work, ROW_HELD, EXPECTED
        )
        if believed < doubt_below:
            return MOVE_DOUBT, -1
    move, index, _ = _bayes_place(
        hand, hand_size, known, unseen, draw_size, claim_count, claim_kind, cap, unknown,
        total_unseen, work, NO_EVIDENCE, 0, 1.0,
    )
    return move, index


@inlined
def _bayes_place(
    hand, hand_size, known, unseen, draw_size, claim_count, claim_kind, cap, unknown,
    total_unseen, work, evidence, first, weight,
):
    """The card to place (hand card, draw, none) that best supports some legal claim, once
    ``_bayes_beliefs`` filled ``work``: (move, hand index, the believed chance of that
    claim). ``evidence`` (from index ``first``) and ``weight`` shift the draw's expectations as
    ``add_claim_evidence`` shifted the held ones (``weight`` 1: no shift)."""
    first_move = claim_count == 0
    if draw_size > 0:
        store_mode_probabilities(known, -1, unseen, total_unseen, unknown + 1, work, ROW_DRAW)
        prepare_spreads(unknown + 1, total_unseen, work, DRAW_SPREADS)
        add_claim_evidence(evidence, first, weight, unseen, total_unseen, work, DRAW_SPREADS)
    action_rows = 0  # bit i: the row of action card COUNT_ONE + i is computed
    tails = np.int64(0)  # the tail slots computed (see cached_tail)
    best_probability = -1.0
    best_move = MOVE_NONE
    best_index = -1
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        step = needed - claim_count  # 0 or 1 (1 on the first move)
        index = _strongest_hand_card(hand, hand_size, kind)
        hand_chance = 2.0  # an animal or wild hand card's chance, if any
        if index >= 0:
            card = hand[index]
            row = ROW_HELD  # animal and wild cards leave the action-mode odds as they are
            if card >= COUNT_ONE:
                row = ROW_ACTION + card - COUNT_ONE
                if (action_rows >> (card - COUNT_ONE)) & 1 == 0:
                    store_mode_probabilities(known, card, unseen, total_unseen, unknown, work, row)
                    action_rows |= 1 << (card - COUNT_ONE)
            equal, tails = cached_tail(
                tails, EQUAL_SLOTS + 4 * step + CONTRIBUTION[MODE_ALL_EQUAL, card, kind],
                needed, kind, card, unknown, total_unseen, work, EXPECTED, MODE_ALL_EQUAL,
            )
            both, tails = cached_tail(
                tails, BOTH_SLOTS + 4 * step + CONTRIBUTION[MODE_BOTH, card, kind],
                needed, kind, card, unknown, total_unseen, work, EXPECTED, MODE_BOTH,
            )
            chance = mixed_chance(
                work,
                row,
                mode_tail(needed, kind, card, unknown, total_unseen, work, EXPECTED, MODE_PLAIN),
                mode_tail(
                    needed, kind, card, unknown, total_unseen, work, EXPECTED, MODE_COUNT_ONE
                ),
                equal,
                both,
            )
            if card < COUNT_ONE:
                hand_chance = chance
            if chance > best_probability:
                best_probability, best_move, best_index = chance, MOVE_HAND, index
        # Placing no card never beats placing an animal or wild card of the same mode row:
        # it needs at least as many unknown animals in every mode. Up to rounding, that is:
        # the chances, sums of tails of whole-number needs, may differ by some 1e-16 from
        # the exact order, far below DOMINATED_MARGIN. So "no card" is weighed only when
        # it could still beat the best so far.
        if not first_move and hand_chance + DOMINATED_MARGIN > best_probability:
            equal, tails = cached_tail(
                tails, EQUAL_SLOTS + 4 * step, needed, kind, -1, unknown, total_unseen, work,
                EXPECTED, MODE_ALL_EQUAL,
            )
            both, tails = cached_tail(
                tails, BOTH_SLOTS + 4 * step, needed, kind, -1, unknown, total_unseen, work,
                EXPECTED, MODE_BOTH,
            )
            chance = mixed_chance(
                work,
                ROW_HELD,
                mode_tail(needed, kind, -1, unknown, total_unseen, work, EXPECTED, MODE_PLAIN),
                mode_tail(needed, kind, -1, unknown, total_unseen, work, EXPECTED, MODE_COUNT_ONE),
                equal,
                both,
            )
            if chance > best_probability:
                best_probability, best_move, best_index = chance, MOVE_NONE, -1
        if draw_size > 0:
            drawn = unknown + 1
            equal, tails = cached_tail(
                tails, DRAW_EQUAL_SLOTS + step, needed, kind, -1, drawn, total_unseen, work,
                DRAW_SPREADS, MODE_ALL_EQUAL,
            )
            both, tails = cached_tail(
                tails, DRAW_BOTH_SLOTS + step, needed, kind, -1, drawn, total_unseen, work,
                DRAW_SPREADS, MODE_BOTH,
            )
            chance = mixed_chance(
                work,
                ROW_DRAW,
                mode_tail(needed, kind, -1, drawn, total_unseen, work, DRAW_SPREADS, MODE_PLAIN),
                mode_tail(
                    needed, kind, -1, drawn, total_unseen, work, DRAW_SPREADS, MODE_COUNT_ONE
                ),
                equal,
                both,
            )
            if chance > best_probability:
                best_probability, best_move, best_index = chance, MOVE_DRAW, -1
    return best_move, best_index, best_probability


@inlined
def _likeliest_claim(claim_count, claim_kind, cap, unknown, total_unseen, work):
    """The legal claim (count, kind) believed most likely true, from the beliefs in ``work``
    (the bigger kind on ties)."""
    tails = np.int64(0)
    best_probability = -1.0
    best_count = 0
    best_kind = 0
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        step = needed - claim_count
        equal, tails = cached_tail(
            tails, EQUAL_SLOTS + 4 * step, needed, kind, -1, unknown, total_unseen, work,
            EXPECTED, MODE_ALL_EQUAL,
        )
        both, tails = cached_tail(
            tails, BOTH_SLOTS + 4 * step, needed, kind, -1, unknown, total_unseen, work,
            EXPECTED, MODE_BOTH,
        )
        chance = mixed_chance(
            work,
            ROW_HELD,
            mode_tail(needed, kind, -1, unknown, total_unseen, work, EXPECTED, MODE_PLAIN),
            mode_tail(needed, kind, -1, unknown, total_unseen, work, EXPECTED, MODE_COUNT_ONE),
            equal,
            both,
        )
        if chance >= best_probability:
            best_probability, best_count, best_kind = chance, needed, kind
    return best_count, best_kind


@inlined
def _bayes_claim_from_beliefs(params, claim_count, claim_kind, cap, unknown, total_unseen, rng,
                              work):
    bluff = params[1]
    best_count, best_kind = _likeliest_claim(
        claim_count, claim_kind, cap, unknown, total_unseen, work
    )
    if uniform(rng) < bluff and claim_count > 0 and best_count < cap:
        best_count += 1
    return best_count, best_kind


@decision_code
def _bayes_claim(params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work):
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = _bayes_beliefs(known, unseen, unknown, work)
    return _bayes_claim_from_beliefs(
        params, claim_count, claim_kind, cap, unknown, total_unseen, rng, work
    )


@decision_code
def _bayes_claim_after(
    params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, move, card
):
    """``_bayes_claim`` right after this player's ``_bayes_move`` filled ``work``.

    A card from the hand changes only the known cards' counts (the unseen cards and the
    number of unknown pile cards stay), no card changes nothing; the counts are whole
    numbers, so the updated beliefs equal recomputed ones exactly. A card from the draw
    pile changes the unseen cards: everything is worked out again.
    """
    if move == MOVE_DRAW:
        return _bayes_claim(params, known, unseen, pile_size, claim_count, claim_kind, cap, rng,
                            work)
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = _beliefs_after_own_card(known, unseen, unknown, work, move, card)
    return _bayes_claim_from_beliefs(
        params, claim_count, claim_kind, cap, unknown, total_unseen, rng, work
    )


@inlined
def _beliefs_after_own_card(known, unseen, unknown, work, move, card):
    """Bring the beliefs a move filled ``work`` with up to date after the player placed a
    hand card (``MOVE_HAND``) or none; returns the unseen cards' total. The counts are whole
    numbers, so the result equals recomputed beliefs exactly."""
    total_unseen = 0
    for card_type in range(N_CARD_TYPES):
        total_unseen += unseen[card_type]
    if move == MOVE_HAND:
        for mode in range(N_MODES):
            for kind in range(N_KINDS):
                work[KNOWN + mode, kind] += CONTRIBUTION[mode, card, kind]
        if card >= COUNT_ONE:
            store_mode_probabilities(known, -1, unseen, total_unseen, unknown, work, ROW_HELD)
    return total_unseen


# --- stakes --------------------------------------------------------------------------------------
# bayes's beliefs, read with the evidence in the opponents' claims, and decisions that weigh
# what is at stake. The public facts it reads beyond the other strategies' arguments come in
# ``table`` (int64, TABLE_SIZE long; both engines fill it, see engine.public_table).

TABLE_OWN = 0
"""``table`` slot: the player's own penalty points."""
TABLE_CLAIMANT = 1
"""``table`` slot: the claimant's (the player before) penalty points."""
TABLE_OTHERS = 2
"""``table`` slot: the fewest penalty points among the other opponents (NOBODY if none)."""
TABLE_TARGET = 3
"""``table`` slot: the penalty points that end the game (``points_to_end``)."""
TABLE_EVIDENCE = 4
"""``table`` slots TABLE_EVIDENCE + kind: pile cards this round placed from an opponent's
hand with a claim of that kind (public: everyone sees where a card comes from)."""
TABLE_SIZE = TABLE_EVIDENCE + N_KINDS
NOBODY = 1 << 30
"""TABLE_OTHERS when there is no other opponent (two players)."""
NO_EVIDENCE = np.zeros(TABLE_SIZE, dtype=np.int64)

READ, RIVAL, CAUTION, CLIFF, BLUFF_BASE, BLUFF_PILE = range(6)
"""Indices of the ``stakes`` parameters."""


def new_table() -> np.ndarray:
    """A public-facts table (all zero) for strategies that read none."""
    return np.zeros(TABLE_SIZE, dtype=np.int64)


@inlined
def own_weight(table, points, cliff):
    """What taking ``points`` penalty points costs the player per point: 1, plus ``cliff``
    when they bring it to the points that end the game (it would end the game last)."""
    return 1.0 + (cliff if table[TABLE_OWN] + points >= table[TABLE_TARGET] else 0.0)


@inlined
def rival_weight(table, points, rival, cliff):
    """What the claimant's taking ``points`` is worth to the doubter per point: ``rival``;
    when it ends the game, plus ``cliff`` if the doubter then has the fewest points (ties
    included), minus ``cliff`` if another opponent has fewer."""
    weight = rival
    if table[TABLE_CLAIMANT] + points >= table[TABLE_TARGET]:
        if table[TABLE_OWN] <= table[TABLE_OTHERS]:
            weight += cliff
        else:
            weight -= cliff
    return weight


@inlined
def stakes_doubts(params, table, pile_size, believed, raise_chance):
    """Whether doubting is worth more than raising.

    Doubting a claim believed true with ``believed``: the doubter takes the pile with that
    chance, the claimant otherwise, each pile point weighed by :func:`own_weight` and
    :func:`rival_weight`. Raising instead: the best raise is believed true with
    ``raise_chance``, and ``caution`` is how much of a false raise's cost (a pile one card
    bigger) the player expects to pay.
    """
    cliff = params[CLIFF]
    doubt_gain = pile_size * (
        (1.0 - believed) * rival_weight(table, pile_size, params[RIVAL], cliff)
        - believed * own_weight(table, pile_size, cliff)
    )
    raise_gain = -params[CAUTION] * (1.0 - raise_chance) * (pile_size + 1) * own_weight(
        table, pile_size + 1, cliff
    )
    return doubt_gain > raise_gain


@inlined
def stakes_bluff_chance(params, table, pile_size):
    """The chance of claiming one more than believed: ``bluff`` with nothing at stake,
    falling linearly to 0 as the pile a caught bluff takes (``pile_size`` points, weighed by
    :func:`own_weight`) reaches ``bluff_pile``."""
    stake = pile_size * own_weight(table, pile_size, params[CLIFF])
    return params[BLUFF_BASE] * max(0.0, 1.0 - stake / params[BLUFF_PILE])


@inlined
def _stakes_beliefs(params, known, unseen, unknown, table, work):
    """bayes's beliefs with the claims' evidence read in; returns total unseen."""
    total_unseen = _bayes_beliefs(known, unseen, unknown, work)
    add_claim_evidence(table, TABLE_EVIDENCE, params[READ], unseen, total_unseen, work, EXPECTED)
    return total_unseen


@decision_code
def _stakes_move(
    params, hand, hand_size, known, unseen, pile_size, draw_size, claim_count, claim_kind, cap,
    table, work,
):
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = _stakes_beliefs(params, known, unseen, unknown, table, work)
    move, index, raise_chance = _bayes_place(
        hand, hand_size, known, unseen, draw_size, claim_count, claim_kind, cap, unknown,
        total_unseen, work, table, TABLE_EVIDENCE, params[READ],
    )
    if claim_count > 0:
        believed = chance_at_least(
            claim_count, claim_kind, -1, unknown, total_unseen, work, ROW_HELD, EXPECTED
        )
        if stakes_doubts(params, table, pile_size, believed, raise_chance):
            return MOVE_DOUBT, -1
    return move, index


@inlined
def _stakes_claim_from_beliefs(
    params, claim_count, claim_kind, cap, unknown, total_unseen, pile_size, table, rng, work
):
    count, kind = _likeliest_claim(claim_count, claim_kind, cap, unknown, total_unseen, work)
    chance = stakes_bluff_chance(params, table, pile_size)
    if uniform(rng) < chance and claim_count > 0 and count < cap:
        count += 1
    return count, kind


@decision_code
def _stakes_claim(params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work,
                  table):
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = _stakes_beliefs(params, known, unseen, unknown, table, work)
    return _stakes_claim_from_beliefs(
        params, claim_count, claim_kind, cap, unknown, total_unseen, pile_size, table, rng, work
    )


@decision_code
def _stakes_claim_after(
    params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, table, move, card
):
    """``_stakes_claim`` right after this player's ``_stakes_move`` (as ``_bayes_claim_after``:
    the evidence is the opponents' and did not change)."""
    if move == MOVE_DRAW:
        return _stakes_claim(params, known, unseen, pile_size, claim_count, claim_kind, cap, rng,
                             work, table)
    unknown = _unknown_pile_cards(known, pile_size)
    total_unseen = _beliefs_after_own_card(known, unseen, unknown, work, move, card)
    return _stakes_claim_from_beliefs(
        params, claim_count, claim_kind, cap, unknown, total_unseen, pile_size, table, rng, work
    )


# --- cautious ------------------------------------------------------------------------------------
# It reads only the known cards' count in the pile's action mode and the unseen cards' plain
# mean (policy_math's KNOWN and MEANS rows), worked out here without the other rows.


@inlined
def _plain_mean(unseen, kind):
    """Mean animals of ``kind`` one unseen card adds in plain mode (``MEANS`` row 0)."""
    total = 0
    for card in range(N_CARD_TYPES):
        total += unseen[card]
    values = unseen[WILD_1] + 2 * unseen[WILD_2]
    for value in range(1, 4):
        values += unseen[kind * 3 + value - 1] * value
    return values / total if total > 0 else 0.0


@inlined
def _cautious_move(
    params, hand, hand_size, known, unseen, pile_size, claim_count, claim_kind, work
):
    trust, margin = params[0], params[1]
    unknown = _unknown_pile_cards(known, pile_size)
    if claim_count > 0:
        credible = np.float64(count_kind(known, claim_kind)) + trust * unknown
        if claim_count > credible + margin:
            return MOVE_DOUBT, -1
    index = _strongest_hand_card(hand, hand_size, -1)
    if index < 0:
        return (MOVE_DRAW if claim_count == 0 else MOVE_NONE), -1
    if claim_count > 0 and STRONGEST_VALUE[hand[index]] == 0:
        return MOVE_NONE, -1
    return MOVE_HAND, index


@inlined
def _cautious_claim(known, unseen, pile_size, claim_count, claim_kind, cap, work):
    unknown = _unknown_pile_cards(known, pile_size)
    mode = pile_mode(known)
    best_slack = -1e300
    best_count = 0
    best_kind = 0
    for kind in range(N_KINDS):
        needed = min_legal_count(claim_count, claim_kind, kind, cap)
        if needed == 0:
            continue
        # animals of the kind it has seen on the pile plus the unseen cards' expected share
        expected = np.float64(count_in_mode(known, kind, mode)) + unknown * _plain_mean(
            unseen, kind
        )
        slack = expected - needed
        if slack >= best_slack:
            best_slack, best_count, best_kind = slack, needed, kind
    return best_count, best_kind


# --- aggressive ----------------------------------------------------------------------------------


@inlined
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


@inlined
def _aggressive_claim(params, known, claim_count, claim_kind, cap):
    kind = _strongest_known_kind(known)
    if claim_count == 0:
        return 1, kind
    count = min(claim_count + np.int64(params[0]), cap)
    if count == claim_count and kind <= claim_kind:
        kind = claim_kind + 1
    return count, kind


# --- dispatch ------------------------------------------------------------------------------------


@decision_code
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
    table,
):
    """(move, hand index or -1) for the player; ``claim_count`` 0 means the round's first move.

    The hand is ``hand[:hand_size]``.
    ``work`` is scratch memory from ``policy_math.new_workspace`` (it carries no game state).
    ``table`` holds public facts (scores, the points that end the game, the claims' evidence:
    ``TABLE_*``); only ``stakes`` reads it, so the kernel fills it only for ``stakes``.
    """
    if code == STAKES:
        return _stakes_move(
            params, hand, hand_size, known, unseen, pile_size, draw_size, claim_count,
            claim_kind, cap, table, work,
        )
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


@decision_code
def choose_claim(
    code, params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, table
):
    """(count, kind) the player claims once its card, if any, is on the pile."""
    if code == STAKES:
        return _stakes_claim(
            params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, table
        )
    if code == BAYES:
        return _bayes_claim(
            params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work
        )
    if code == CAUTIOUS:
        return _cautious_claim(known, unseen, pile_size, claim_count, claim_kind, cap, work)
    if code == AGGRESSIVE:
        return _aggressive_claim(params, known, claim_count, claim_kind, cap)
    return random_claim(claim_count, claim_kind, cap, rng)


@decision_code
def choose_claim_after_move(
    code, params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, table, move,
    card,
):
    """:func:`choose_claim`, called right after the same player's :func:`choose_move` with the
    same ``work``, its chosen ``move`` carried out (``card``: the card placed, or -1) and
    ``known`` and ``unseen`` updated: a strategy may start from what its move worked out.
    Always the same answer as :func:`choose_claim` (the kernel calls this one).
    """
    if code == BAYES:
        return _bayes_claim_after(
            params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, move, card
        )
    if code == STAKES:
        return _stakes_claim_after(
            params, known, unseen, pile_size, claim_count, claim_kind, cap, rng, work, table,
            move, card,
        )
    return choose_claim(code, params, known, unseen, pile_size, claim_count, claim_kind, cap,
                        rng, work, table)
