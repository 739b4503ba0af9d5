"""Hodge Podge Dodgeball's built-in strategies, compiled once and used by both engines.

Every decision goes through :func:`decide` with the decision's kind, the deciding seat's
strategy code and parameters, and two small arrays describing what that seat may know
(built by ``engine.Observation.arrays`` in the reference engine and by the kernel from its
state, identically):

* ``masks`` (``uint64``, :data:`N_MASKS`): face masks of the acting hand (``HAND``), its
  legal cards now (``LEGAL``), its team's face-up bench (``BENCH``), the other team's bench
  (``OTHER_BENCH``), the cards it may send to the bench (``CHOICES``), the cards played this
  round (``SEEN``) and, in the 2-player setup exchange, its dummy's face-up cards
  (``DUMMY``);
* ``view`` (``int64``, :data:`N_VIEW`): hand sizes (self, left, partner, right), All-Stars
  in hand and on the benches, the trick so far (declared faces, -1 = not yet played), the
  number of cards already in it, the trick number, the rank order, whether Ringers are in
  play, the suits an All-Star may be declared as, timeouts left and match points.

Nothing else reaches a strategy: not the other hands, the deck, face-down cards or the
partner's cards (partners do not share hands). A card is named by its face; an All-Star by
``JOKER`` (64). Decisions with a single option are made by the engine without asking (no
random draw): playing the only legal card (not a Ringer, no All-Star), benching the only
allowed card, taking the only face-up bench card, benching or passing the only hand card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import (
    EMPTY,
    SUIT_FACES,
    count_faces,
    lowest_face,
    nth_face,
    suits_held,
)
from zooanalysis.cards.encoding import JOKER, N_SUITS
from zooanalysis.cards.orders import STRENGTH, UP
from zooanalysis.rng import mix64
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

# --- decision kinds ------------------------------------------------------------------------
SETUP_BENCH, SETUP_PASS, DUMMY_EXCHANGE, CALL_TIMEOUT, TIMEOUT_PLACE, TIMEOUT_TAKE = range(6)
PLAY, HIT_BENCH, BLOCK_LEADER, BRING_BACK = range(6, 10)
DECISION_NAMES = (
    "setup bench", "setup pass", "dummy exchange", "call timeout", "timeout place",
    "timeout take", "play", "hit bench", "block leader", "bring back",
)

# --- masks ----------------------------------------------------------------------------------
HAND, LEGAL, BENCH, OTHER_BENCH, CHOICES, SEEN, DUMMY = range(7)
N_MASKS = 7

# --- view -----------------------------------------------------------------------------------
SIZE_SELF, SIZE_LEFT, SIZE_PARTNER, SIZE_RIGHT = 0, 1, 2, 3
ALLSTARS, BENCH_ALLSTARS, OTHER_BENCH_ALLSTARS, DUMMY_ALLSTARS = 4, 5, 6, 7
N_PLAYED, TRICK_INDEX, ORDER, RINGERS, DECLARABLE = 8, 9, 10, 11, 12
TIMEOUTS_LEFT, OTHER_TIMEOUTS, TEAM_POINTS, OTHER_POINTS, RANKS = 13, 14, 15, 16, 17
"""``view[RANKS]``: the ranks an All-Star may be declared as, bit ``r`` for rank ``r``."""
TRICK = 18
"""``view[TRICK + p]``: the declared face at position ``p`` of the trick (-1: not played)."""
N_VIEW = TRICK + 4

RANDOM, DODGER, COACH = 0, 1, 2
MAX_PARAMS = 8
P_KEEP, P_HIT, P_CATCH, P_BLOCK, P_ALLSTAR, P_EXCHANGE, P_CALL_SUITS = range(7)

_DODGER_PARAMS = (
    ParamSpec("keep_suits", 4.0, 0.0, 20.0,
              "score lost (in rank steps) by playing the last card of a suit"),
    ParamSpec("hit_cost", 6.0, 0.0, 30.0,
              "score lost by a card that would be the sole highest (scaled by position)"),
    ParamSpec("catch_bonus", 8.0, 0.0, 30.0,
              "score won by matching an opponent's highest card (a catch)"),
    ParamSpec("block_bonus", 4.0, 0.0, 30.0,
              "score won by matching the partner's highest card (a block)"),
    ParamSpec("allstar", 1, 0, 1,
              "1: also play the All-Star to catch or block as the trick's last card; "
              "0: only when no other card is legal", integer=True),
    ParamSpec("exchange", 1, 0, 1,
              "1: exchange a card in a timeout when the bench has the All-Star or a "
              "missing suit", integer=True),
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniform over the legal choices at every decision, one draw each (below(n) on the "
        "game's stream): the card to play is the k-th of the legal cards in increasing face "
        "order, All-Stars after them, k = below(count); an All-Star is then declared with "
        "one more draw m = below(suits x ranks): the (m // ranks)-th declarable suit "
        "(increasing) and rank ranks[m % ranks] (the deck's ranks, with Ringers also 0 and "
        "14); a Ringer is declared 0 or 14 with below(2) (1 = 14). Benching or passing at "
        "setup: the k-th hand card. Calling a timeout: below(2) == 1. Timeout: k = "
        "below(1 + cards): 0 = no exchange, else card k - 1 face down; taking: the k-th "
        "face-up bench card. 2-player setup exchange: k = below(1 + hand x dummy): 0 = none, "
        "else hand card (k - 1) // dummy for dummy card (k - 1) % dummy. Hit or caught: the "
        "k-th allowed bench card. Block: below(2), 0 = the blocker leads, 1 = its partner. "
        "Catch: k = below(2 x bench cards): card k // 2, to the catcher (k % 2 = 0) or its "
        "partner. Single-option decisions are not asked.",
    ),
    "dodger": StrategyInfo(
        "dodger",
        "Plays low and keeps its suits alive so it can always play: scores every legal card "
        "by its rank (lower is better), a penalty for emptying a suit and for a card that "
        "would be the sole highest, and a bonus for matching the highest card to block for "
        "its partner or catch an opponent; keeps the All-Star for emergencies and catches. "
        "Benches and passes the high cards of its longest suit, sends the lowest card of its "
        "longest suit to the bench when hit, lets the partner with fewer cards lead after a "
        "block (never one with no card, which could not lead), brings back the All-Star or a "
        "missing suit after a catch; never calls a timeout but uses others' timeouts for the "
        "All-Star or a missing suit.",
        _DODGER_PARAMS,
    ),
    "coach": StrategyInfo(
        "coach",
        "Plays as dodger and spends the timeout well: calls it before a trick once its hand "
        "lacks a suit (at most call_suits suits) and holds no All-Star while its bench offers "
        "the All-Star or a suit it lacks, then trades the high card of its longest suit for "
        "it.",
        (
            *_DODGER_PARAMS,
            ParamSpec("call_suits", 3, 0, 4,
                      "call a timeout when the hand holds at most this many suits (3: as "
                      "soon as a suit is missing)", integer=True),
        ),
    ),
}
STRATEGY_CODES = {"random": RANDOM, "dodger": DODGER, "coach": COACH}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


# --- shared helpers ------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def card_count(mask, allstars) -> int:
    """Cards in a hand or bench: its faces plus its All-Stars."""
    return count_faces(mask) + allstars


@njit(cache=True, nogil=True, error_model="numpy")
def nth_card(mask, allstars, k) -> int:
    """The ``k``-th card in increasing face order, All-Stars (``JOKER``) after the faces."""
    count = count_faces(mask)
    if k < count:
        return nth_face(mask, k)
    return JOKER


@njit(cache=True, nogil=True, error_model="numpy")
def nth_suit(suits, k) -> int:
    """The ``k``-th suit (increasing) of a 4-bit suit set."""
    for suit in range(N_SUITS):
        if suits >> suit & 1:
            if k == 0:
                return suit
            k -= 1
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def nth_rank(ranks, k) -> int:
    """The ``k``-th rank (increasing) of a rank mask (bit ``r`` = rank ``r``)."""
    for rank in range(16):
        if ranks >> rank & 1:
            if k == 0:
                return rank
            k -= 1
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def face_strength(order, face) -> int:
    """How strong a played face is (its rank under the order)."""
    return STRENGTH[order, UP, face & 15]


@njit(cache=True, nogil=True, error_model="numpy")
def _suit_size(mask, suit) -> int:
    return count_faces(mask & SUIT_FACES[suit])


@njit(cache=True, nogil=True, error_model="numpy")
def _longest_suit(mask) -> int:
    """The suit with most cards (lowest suit on ties), -1 if empty."""
    best, best_size = -1, 0
    for suit in range(N_SUITS):
        size = _suit_size(mask, suit)
        if size > best_size:
            best, best_size = suit, size
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def _extreme_of(mask, order, strongest) -> int:
    """The strongest (or weakest) face of ``mask`` (lowest face on ties), -1 if empty."""
    best, best_value = -1, -1
    m = mask
    while m != EMPTY:
        face = lowest_face(m)
        m &= m - np.uint64(1)
        value = face_strength(order, face)
        if not strongest:
            value = 15 - value
        if value > best_value:
            best, best_value = face, value
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def _missing_suit_faces(hand, bench) -> np.uint64:
    """The bench faces of suits the hand does not hold."""
    held = suits_held(hand)
    out = EMPTY
    for suit in range(N_SUITS):
        if not held >> suit & 1:
            out |= bench & SUIT_FACES[suit]
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _worst_hand_card(hand, order) -> int:
    """The card a dodger gives away: the strongest card of its longest suit, if that suit
    has at least two cards (never its last card of a suit); -1 otherwise."""
    suit = _longest_suit(hand)
    if suit < 0 or _suit_size(hand, suit) < 2:
        return -1
    return _extreme_of(hand & SUIT_FACES[suit], order, np.bool_(True))


# --- random ---------------------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S32 = np.uint64(32)


@njit(cache=True, nogil=True, error_model="numpy")
def draw(state, n):
    """``rng.below`` on a stream state held as a scalar: (a uniform integer in ``[0, n)``,
    the next state). The kernel keeps its stream in a local this way: a stream array
    passed to every draw costs numba a reference count each time."""
    state = state + _GOLDEN
    return np.int64(((mix64(state) >> _S32) * np.uint64(n)) >> _S32), state


@njit(cache=True, nogil=True, error_model="numpy")
def random_choice(kind, hand, allstars, legal, declarable, bench, bench_allstars, choices, dummy,
                  dummy_allstars, ringers, ranks, stream):
    """The ``random`` strategy: uniform over the legal choices (see ``STRATEGIES``), from
    the few facts each decision needs (``ranks`` is the rank mask of ``view[RANKS]``);
    :func:`random_choice_state` on the stream array."""
    first, second, state = random_choice_state(
        kind, hand, allstars, legal, declarable, bench, bench_allstars, choices, dummy,
        dummy_allstars, ringers, ranks, stream[0],
    )
    stream[0] = state
    return first, second


@njit(cache=True, nogil=True, error_model="numpy")
def random_choice_state(kind, hand, allstars, legal, declarable, bench, bench_allstars, choices,
                        dummy, dummy_allstars, ringers, ranks, state):
    """:func:`random_choice` on a scalar stream state (the kernel calls this directly):
    (first, second, the next state). One draw per decision, and one more for an All-Star's
    or a Ringer's declaration."""
    if kind == SETUP_BENCH or kind == SETUP_PASS:
        k, state = draw(state, card_count(hand, allstars))
        return nth_card(hand, allstars, k), -1, state
    if kind == DUMMY_EXCHANGE:
        n_hand = card_count(hand, allstars)
        n_dummy = card_count(dummy, dummy_allstars)
        k, state = draw(state, 1 + n_hand * n_dummy)
        if k == 0:
            return -1, -1, state
        k -= 1
        return (nth_card(hand, allstars, k // n_dummy),
                nth_card(dummy, dummy_allstars, k % n_dummy), state)
    if kind == CALL_TIMEOUT:
        k, state = draw(state, np.int64(2))
        return k, -1, state
    if kind == TIMEOUT_PLACE:
        k, state = draw(state, 1 + card_count(hand, allstars))
        if k == 0:
            return -1, -1, state
        return nth_card(hand, allstars, k - 1), -1, state
    if kind == TIMEOUT_TAKE:
        k, state = draw(state, card_count(bench, bench_allstars))
        return nth_card(bench, bench_allstars, k), -1, state
    if kind == PLAY:
        jokers = allstars if declarable != 0 else 0
        k, state = draw(state, count_faces(legal) + jokers)
        card = nth_card(legal, jokers, k)
        if card == JOKER:
            n_ranks = count_faces(np.uint64(ranks))
            m, state = draw(state, count_faces(np.uint64(declarable)) * n_ranks)
            return (JOKER, nth_suit(declarable, m // n_ranks) * 16 + nth_rank(ranks, m % n_ranks),
                    state)
        if ringers != 0 and card & 15 == 0:
            m, state = draw(state, np.int64(2))
            return card, card + 14 * m, state
        return card, card, state
    if kind == HIT_BENCH:
        k, state = draw(state, count_faces(choices))
        return nth_face(choices, k), -1, state
    if kind == BLOCK_LEADER:
        k, state = draw(state, np.int64(2))
        return k, -1, state
    # BRING_BACK
    k, state = draw(state, 2 * card_count(bench, bench_allstars))
    return nth_card(bench, bench_allstars, k // 2), k % 2, state


@njit(cache=True, nogil=True, error_model="numpy")
def random_decision(kind, masks, view, stream):
    """:func:`random_choice` read from the decision arrays."""
    return random_choice(
        kind, masks[HAND], view[ALLSTARS], masks[LEGAL], view[DECLARABLE], masks[BENCH],
        view[BENCH_ALLSTARS], masks[CHOICES], masks[DUMMY], view[DUMMY_ALLSTARS], view[RINGERS],
        view[RANKS], stream,
    )


# --- dodger and coach -----------------------------------------------------------------------
# The helpers take scalars only: numba increfs every array argument of every call, and the
# play scoring runs once per legal card.


@njit(cache=True, nogil=True, error_model="numpy")
def _trick_state(n, order, first, second, third):
    """(strongest strength so far or -1, whether the acting team holds it, whether the
    other team holds it), from the ``n`` faces already in the trick."""
    best, ours, theirs = -1, False, False
    for position in range(n):
        face = first if position == 0 else (second if position == 1 else third)
        value = face_strength(order, face)
        same_team = (position & 1) == (n & 1)
        if value > best:
            best, ours, theirs = value, same_team, not same_team
        elif value == best:
            if same_team:
                ours = True
            else:
                theirs = True
    return best, ours, theirs


@njit(cache=True, nogil=True, error_model="numpy")
def _play_score(value, best, ours, theirs, certainty, hit_cost, catch_bonus, block_bonus):
    """A dodger's score for playing a card of strength ``value`` now (higher is better)."""
    score = -float(value)
    if value > best:
        score -= hit_cost * certainty
    elif value == best:
        if theirs:
            score += catch_bonus * certainty
        elif ours:
            score += block_bonus * certainty
    return score


@njit(cache=True, nogil=True, error_model="numpy")
def _dodger_play(hand, legal, allstars, declarable, ranks, ringers, order, n, first, second,
                 third, keep, hit_cost, catch_bonus, block_bonus, allstar_too):
    best, ours, theirs = _trick_state(n, order, first, second, third)
    certainty = (n + 1) / 4.0
    chosen, declared_as, chosen_score = -1, -1, -1e300
    m = legal
    while m != EMPTY:
        face = lowest_face(m)
        m &= m - np.uint64(1)
        keep_penalty = keep if _suit_size(hand, face >> 4) == 1 else 0.0
        score = _play_score(face_strength(order, face), best, ours, theirs, certainty,
                            hit_cost, catch_bonus, block_bonus) - keep_penalty
        if score > chosen_score:
            chosen, declared_as, chosen_score = face, face, score
        if ringers != 0 and face & 15 == 0:
            high = face + 14
            score = _play_score(face_strength(order, high), best, ours, theirs, certainty,
                                hit_cost, catch_bonus, block_bonus) - keep_penalty
            if score > chosen_score:
                chosen, declared_as, chosen_score = face, high, score
    if allstars == 0 or declarable == 0:
        return chosen, declared_as
    suit = nth_suit(declarable, np.int64(0))
    if best >= 0 and n == 3 and (theirs or ours):
        match = -1
        for rank in range(16):
            if ranks >> rank & 1 and face_strength(order, rank) == best:
                match = rank
        worth = -float(best) + (catch_bonus if theirs else block_bonus)
        if match >= 0 and (chosen < 0 or (allstar_too >= 1 and worth > chosen_score)):
            return JOKER, suit * 16 + match
    if chosen >= 0:
        return chosen, declared_as
    weakest, weakest_value = -1, 99
    for rank in range(16):
        if ranks >> rank & 1 and face_strength(order, rank) < weakest_value:
            weakest, weakest_value = rank, face_strength(order, rank)
    return JOKER, suit * 16 + weakest


@njit(cache=True, nogil=True, error_model="numpy")
def _useful_bench(hand, allstars, bench, bench_allstars) -> bool:
    """Whether the bench offers what a dodger lacks: the All-Star or a missing suit."""
    if allstars > 0:
        return False
    return bench_allstars > 0 or _missing_suit_faces(hand, bench) != EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def _best_take(hand, bench, bench_allstars, order) -> int:
    """The bench card a dodger takes: the All-Star, else the weakest card of a suit it
    lacks, else the weakest card."""
    if bench_allstars > 0:
        return JOKER
    missing = _missing_suit_faces(hand, bench)
    if missing != EMPTY:
        return _extreme_of(missing, order, np.bool_(False))
    return _extreme_of(bench, order, np.bool_(False))


@njit(cache=True, nogil=True, error_model="numpy")
def _block_leader(own_cards, partner_cards) -> int:
    """Who a dodger names to lead after its block (0: itself, 1: its partner): the one with
    fewer cards (itself on a tie), since a leader may play any card, but never one with no
    card while the other has one (a leader with no card cannot play and loses the round)."""
    if own_cards == 0 and partner_cards > 0:
        return 1
    if partner_cards == 0 and own_cards > 0:
        return 0
    return 0 if own_cards <= partner_cards else 1


@njit(cache=True, nogil=True, error_model="numpy")
def dodger_decision(code, kind, params, masks, view):
    """``dodger`` (and ``coach``, which adds calling timeouts): deterministic. Everything
    is read from the arrays once, here."""
    hand, allstars, order = masks[HAND], view[ALLSTARS], view[ORDER]
    if kind == PLAY:
        return _dodger_play(
            hand, masks[LEGAL], allstars, view[DECLARABLE], view[RANKS], view[RINGERS], order,
            view[N_PLAYED], view[TRICK], view[TRICK + 1], view[TRICK + 2], params[P_KEEP],
            params[P_HIT], params[P_CATCH], params[P_BLOCK], params[P_ALLSTAR],
        )
    if kind == SETUP_BENCH or kind == SETUP_PASS:
        suit = _longest_suit(hand)
        if suit < 0:
            return JOKER, -1
        return _extreme_of(hand & SUIT_FACES[suit], order, np.bool_(kind == SETUP_BENCH)), -1
    if kind == DUMMY_EXCHANGE:
        give = _worst_hand_card(hand, order)
        take = _missing_suit_faces(hand, masks[DUMMY])
        if give < 0 or take == EMPTY or _suit_size(hand, give >> 4) < 3:
            return -1, -1
        return give, _extreme_of(take, order, np.bool_(False))
    bench, bench_allstars = masks[BENCH], view[BENCH_ALLSTARS]
    if kind == CALL_TIMEOUT:
        if code != COACH or allstars > 0:
            return 0, -1
        few = count_faces(np.uint64(suits_held(hand))) <= params[P_CALL_SUITS]
        useful = _useful_bench(hand, allstars, bench, bench_allstars)
        return (1 if few and useful and _worst_hand_card(hand, order) >= 0 else 0), -1
    if kind == TIMEOUT_PLACE:
        if params[P_EXCHANGE] < 1 or not _useful_bench(hand, allstars, bench, bench_allstars):
            return -1, -1
        return _worst_hand_card(hand, order), -1
    if kind == TIMEOUT_TAKE:
        return _best_take(hand, bench, bench_allstars, order), -1
    if kind == HIT_BENCH:
        chosen, chosen_size, chosen_value = -1, -1, -1
        m = masks[CHOICES]
        while m != EMPTY:
            face = lowest_face(m)
            m &= m - np.uint64(1)
            size = _suit_size(hand, face >> 4)
            value = face_strength(order, face)
            if size > chosen_size or (size == chosen_size and value > chosen_value):
                chosen, chosen_size, chosen_value = face, size, value
        return chosen, -1
    if kind == BLOCK_LEADER:
        return _block_leader(view[SIZE_SELF], view[SIZE_PARTNER]), -1
    # BRING_BACK
    to_partner = 1 if view[SIZE_PARTNER] < view[SIZE_SELF] else 0
    if bench_allstars > 0:
        return JOKER, to_partner
    if to_partner == 0:
        return _best_take(hand, bench, np.int64(0), order), 0
    return _extreme_of(bench, order, np.bool_(False)), 1


# --- dispatch -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def decide(kind, code, params, masks, view, stream):
    """One decision of the seat whose view this is: two ints (see the decision kinds)."""
    if code == RANDOM:
        return random_decision(kind, masks, view, stream)
    return dodger_decision(code, kind, params, masks, view)
