"""Chai Tea Jazz's built-in strategies, compiled once and used by both engines.

A strategy answers four questions, each from what its player may know:

* ``choose_pick``: in the Picking phase, pass or pick an option (a contract row and how it is
  played: trump suit, start direction, the Joker's contract) with a Bet Debt; when forced
  (everybody passed and it holds the Barrel, or it accepted an offer) it must pick;
* ``choose_offer`` (Passing the Barrel): when forced, offer points to whoever takes the
  Barrel instead, or pick itself;
* ``choose_accept`` (Passing the Barrel): take the Barrel holder's offer or not;
* ``choose_card``: which legal card to play.

``params`` is the lineup's parameter array (one row per seat) and ``row`` the deciding
player's row. Picks see the player's legal options (``legal[:n_legal]``, option indices
into the settings' option table ``opt_way``, ``opt_row``), the Bet Debts it may take on
(``n_amounts`` amounts from ``first_amount`` in steps), the values of its own hand for every
way (``values``, from ``evaluation.way_values``) against their baselines, and the public pad
(``done``, ``score``: which side completed which row with which score). Cards see the
player's hand row, its legal faces, the trick so far, the trick's order, who is on its side
this round (``allies``, by trick position), and the public record of the round: the cards it
has not seen (``unseen``, ``unseen_jokers``) and the suits each seat has shown it lacks
(``voids``). Cards are faces (``suit * 16 + rank``, ``JOKER`` = 64) or, where copies matter,
codes (``zooanalysis/cards``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zooanalysis.cards.bits import face_bit, lowest_face
from zooanalysis.cards.encoding import COPY_STRIDE, JOKER, NO_SUIT
from zooanalysis.cards.hands import count_playable, nth_playable
from zooanalysis.cards.orders import STRENGTH, strongest_in_suit
from zooanalysis.cards.tricks import LATER_WINS, card_key
from zooanalysis.rng import below
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo

PASS = -1
RANDOM, GREEDY, TRACKER = 0, 1, 2
MAX_PARAMS = 4
PICK_AT, BET_AT, OFFER_AT, SPREAD = range(MAX_PARAMS)
"""Slots of the compiled parameter array."""

_EMPTY = np.uint64(0)
_ONE = np.uint64(1)
_SQRT2 = math.sqrt(2.0)

_RANDOM_TEXT = (
    "Uniformly random legal play, exactly as specified for cross-implementation checks, each "
    "decision one draw on the game's stream. A pick with n legal options (in option order: "
    "row by row, then the row's ways) and a legal Bet Debts (1 when nobody has picked yet: "
    "no debt) draws r = below(2 n a): r < n a passes, else r - n a = i a + j picks option i "
    "with debt j (the j-th legal amount, ascending); a forced pick draws below(n) and takes "
    "no debt; a player with no legal pick passes without a draw. Passing the Barrel: "
    "the forced holder with a legal offers draws r = below(2 a): "
    "r < a gives up and picks itself, else it offers the (r - a)-th amount; a player asked "
    "takes the offer when below(2) = 1. A card is the below(m)-th of its m legal cards in "
    "increasing code order (one draw even when m = 1)."
)
_PLAY = (
    "Cards: leads a card no unseen card can beat (the one with most points), else its "
    "cheapest card (fewest points, weakest); when its side already holds the trick safely it "
    "adds its card with most points; when the other side holds it, it wins with a sure "
    "winner (most points), as the last player with any winner, else with its strongest "
    "winner if the trick holds points; otherwise it plays its cheapest card."
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo("random", _RANDOM_TEXT),
    "greedy": StrategyInfo(
        "greedy",
        "Picks by its hand's value for each way against an average hand (the advantage, in "
        "points), weighted by the row's game points; picks when nobody has if its advantage is "
        "at least pick_at; raises (the smallest step) only if its advantage minus the new Bet "
        "Debt is at least bet_at; forced, it picks the best-weighted option. Passing the "
        "Barrel: offers the smallest amount once when its best advantage is below offer_at, "
        "takes an offer when its advantage plus the offer is at least pick_at. It remembers no "
        "card: 'unseen' is every card but its hand and the trick. " + _PLAY,
        (
            ParamSpec(
                "pick_at", 0.0, -60.0, 60.0,
                "advantage (points over an average hand) needed to pick first",
            ),
            ParamSpec(
                "bet_at", 5.0, -60.0, 60.0, "advantage minus the new Bet Debt needed to raise"
            ),
            ParamSpec(
                "offer_at", -10.0, -60.0, 60.0,
                "Passing the Barrel: offers the Barrel below this advantage",
            ),
        ),
    ),
    "tracker": StrategyInfo(
        "tracker",
        "Picks for the row's game points: the expected game points of playing the row now "
        "(its hand's value less the Bet Debt, against the scores already in the row, others "
        "at their best way's baseline, a normal spread) minus those of playing it later with "
        "an average hand; picks first at a gain of pick_at, raises (smallest step) at bet_at, "
        "offers the Barrel below offer_at. Plays like greedy but tracks every card played "
        "and the suits each player has shown it lacks, so its sure winners are sure. " + _PLAY,
        (
            ParamSpec("pick_at", 0.0, -3.0, 3.0, "gain in expected game points to pick first"),
            ParamSpec(
                "bet_at", 0.1, -3.0, 3.0,
                "gain in expected game points, after the new Bet Debt, to raise",
            ),
            ParamSpec(
                "offer_at", -0.3, -3.0, 3.0, "Passing the Barrel: offers the Barrel below this"
            ),
            ParamSpec(
                "spread", 18.0, 1.0, 60.0,
                "standard deviation of a declarer's points around its hand's value",
            ),
        ),
    ),
}
STRATEGY_CODES = {"random": RANDOM, "greedy": GREEDY, "tracker": TRACKER}
_SLOTS = {"pick_at": PICK_AT, "bet_at": BET_AT, "offer_at": OFFER_AT, "spread": SPREAD}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters in the compiled slots."""
    values = np.zeros(MAX_PARAMS, dtype=np.float64)
    values[SPREAD] = 18.0
    for name, value in player.params:
        values[_SLOTS[name]] = value
    return values


# --- picking ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_pick(n_legal, n_amounts, forced, stream):
    """The ``random`` policy's pick: (index into the legal options or ``PASS``, amount
    index)."""
    if forced:
        return below(stream, n_legal), 0
    total = n_legal * n_amounts
    r = below(stream, 2 * total)
    if r < total:
        return PASS, 0
    r -= total
    return r // n_amounts, r % n_amounts


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _phi(x) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / _SQRT2))


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def row_expectation(row, mean, spread, side, sides, done, score, base_row, place_points,
                    avoid) -> float:
    """Expected game points from ``row`` for ``side`` scoring about ``mean`` (normal,
    ``spread``): against the scores already in the row, and others' at ``base_row``."""
    sign = -1.0 if avoid[row] else 1.0
    p1 = -1.0
    p2 = -1.0
    open_p = -1.0  # the chance against a side yet to play the row: the same for every such side
    for other in range(sides):
        if other == side:
            continue
        if done[other, row]:
            p = _phi(sign * (mean - score[other, row]) / spread)
        else:
            if open_p < 0:
                open_p = _phi(sign * (mean - base_row[row]) / (spread * _SQRT2))
            p = open_p
        if p1 < 0:
            p1 = p
        else:
            p2 = p
    if sides == 2:
        return place_points[row, 0] * p1 + place_points[row, 1] * (1.0 - p1)
    first = p1 * p2
    last = (1.0 - p1) * (1.0 - p2)
    middle = 1.0 - first - last
    return (place_points[row, 0] * first + place_points[row, 1] * middle
            + place_points[row, 2] * last)  # fmt: skip


@njit(cache=True, nogil=True, error_model="numpy")
def option_gain(code, params, row, option, debt, values, base, base_row, opt_way, opt_row,
                row_value, side, sides, done, score, place_points, avoid) -> float:
    """What picking ``option`` with Bet Debt ``debt`` (negative: an offer received) is worth
    to a heuristic, before any threshold: greedy, the hand's advantage in points less the
    debt; tracker, the gain in expected game points over playing the row later with an
    average hand."""
    way = opt_way[option]
    contract = opt_row[option]
    if code == GREEDY:
        return values[way] - base[way] - debt
    spread = params[row, SPREAD]
    now = row_expectation(contract, values[way] - debt, spread, side, sides, done, score,
                          base_row, place_points, avoid)  # fmt: skip
    later = row_expectation(contract, base_row[contract], spread, side, sides, done, score,
                            base_row, place_points, avoid)  # fmt: skip
    return now - later


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def best_option(code, params, row, legal, n_legal, debt, values, base, base_row, opt_way,
                opt_row, row_value, side, sides, done, score, place_points, avoid):
    """(index into ``legal``, its gain) of the heuristic's favourite option: greedy weighs
    the advantage by the row's game points, tracker's gain is already in game points. The
    first of equals wins."""
    best = 0
    best_rank = -1e300
    best_gain = 0.0
    spread = params[row, SPREAD]
    later_row = -1  # the contract row whose tracker baseline ``later`` holds
    later = 0.0
    for index in range(n_legal):
        option = legal[index]
        contract = opt_row[option]
        if code == GREEDY:
            gain = option_gain(code, params, row, option, debt, values, base, base_row,
                               opt_way, opt_row, row_value, side, sides, done, score,
                               place_points, avoid)  # fmt: skip
        else:  # option_gain's tracker case, its baseline found once per row
            if contract != later_row:
                later_row = contract
                later = row_expectation(contract, base_row[contract], spread, side, sides,
                                        done, score, base_row, place_points,
                                        avoid)  # fmt: skip
            now = row_expectation(contract, values[opt_way[option]] - debt, spread, side,
                                  sides, done, score, base_row, place_points,
                                  avoid)  # fmt: skip
            gain = now - later
        rank = gain * row_value[contract] if code == GREEDY else gain
        if rank > best_rank:
            best, best_rank, best_gain = index, rank, gain
    return best, best_gain


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def choose_pick(code, params, row, legal, n_legal, n_amounts, first_amount, forced, offer,
                values, base, base_row, opt_way, opt_row, row_value, side, sides, done, score,
                place_points, avoid, stream):
    """(index into ``legal`` or ``PASS``, amount index). ``first_amount`` is the smallest
    Bet Debt allowed (0 when nobody has picked yet, then ``n_amounts`` is 1); ``offer``
    the points an accepted Barrel offer adds (0 otherwise)."""
    if code == RANDOM:
        return random_pick(n_legal, n_amounts, forced, stream)
    debt = first_amount - offer
    index, gain = best_option(code, params, row, legal, n_legal, debt, values, base, base_row,
                              opt_way, opt_row, row_value, side, sides, done, score,
                              place_points, avoid)  # fmt: skip
    if forced:
        return index, 0
    threshold = params[row, PICK_AT] if first_amount == 0 else params[row, BET_AT]
    if gain >= threshold:
        return index, 0
    return PASS, 0


@njit(cache=True, nogil=True, error_model="numpy")
def choose_offer(code, params, row, n_amounts, offered, legal, n_legal, values, base, base_row,
                 opt_way, opt_row, row_value, side, sides, done, score, place_points, avoid,
                 stream) -> int:
    """Passing the Barrel, the forced holder: the index of the amount to offer (among the
    ``n_amounts`` legal ones, ascending) or ``PASS`` to pick itself. ``offered``: its
    current offer (0: none yet)."""
    if code == RANDOM:
        r = below(stream, 2 * n_amounts)
        return PASS if r < n_amounts else r - n_amounts
    if offered > 0:
        return PASS
    _, gain = best_option(code, params, row, legal, n_legal, np.int64(0), values, base, base_row,
                          opt_way, opt_row, row_value, side, sides, done, score, place_points,
                          avoid)  # fmt: skip
    return 0 if gain < params[row, OFFER_AT] else PASS


@njit(cache=True, nogil=True, error_model="numpy")
def choose_accept(code, params, row, offer, legal, n_legal, values, base, base_row, opt_way,
                  opt_row, row_value, side, sides, done, score, place_points, avoid,
                  stream) -> bool:
    """Passing the Barrel: whether to take the Barrel for ``offer`` points."""
    if code == RANDOM:
        return below(stream, np.int64(2)) == 1
    _, gain = best_option(code, params, row, legal, n_legal, -offer, values, base, base_row,
                          opt_way, opt_row, row_value, side, sides, done, score, place_points,
                          avoid)  # fmt: skip
    return gain >= params[row, PICK_AT]


# --- playing a card ------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def random_card(hands, seat, legal, stream) -> int:
    """The ``random`` policy's card: the ``below(m)``-th of the ``m`` legal cards."""
    count = count_playable(hands[seat], legal, np.bool_(True))  # typed: compiled once
    return nth_playable(hands[seat], legal, np.bool_(True), below(stream, count))


@njit(cache=True, nogil=True, error_model="numpy")
def _cost(face, points, trump, order, direction) -> int:
    """How dear a card is to give away: its points first, then trump, then its strength."""
    if face == JOKER:
        return points[JOKER] * 64 + 48
    rank = STRENGTH[order, direction, face & 15]
    group = 32 if face >> 4 == trump else 16
    return points[face] * 64 + group + rank


@njit(cache=True, nogil=True, error_model="numpy")
def _beats(challenger, holder, led, trump, order, direction, jokers_strongest, ties) -> bool:
    """Whether ``challenger``, played after ``holder``, takes the trick from it."""
    mine = card_key(challenger, led, trump, order, direction, jokers_strongest)
    theirs = card_key(holder, led, trump, order, direction, jokers_strongest)
    return mine > theirs or (mine == theirs and mine > 0 and ties == LATER_WINS)


@njit(cache=True, nogil=True, error_model="numpy")
def _next_face(rest, jokers_left):
    """(face, rest, jokers_left): the next candidate card, faces in increasing order, then
    a joker; face -1 when none is left."""
    if rest != _EMPTY:
        return lowest_face(rest), rest & (rest - _ONE), jokers_left
    if jokers_left:
        return JOKER, rest, False
    return -1, rest, False


@njit(cache=True, nogil=True, error_model="numpy")
def _key_beats(mine, theirs, ties) -> bool:
    """:func:`_beats` on card keys (``card_key``): whether a card keyed ``mine``, played
    after one keyed ``theirs``, takes the trick from it. Key -1 (no card) never does."""
    return mine > theirs or (mine == theirs and mine > 0 and ties == LATER_WINS)


@njit(cache=True, nogil=True, error_model="numpy")
def _top_key(top, led, trump, order, direction, jokers_strongest) -> int:
    """``card_key`` of the unseen card ``top``, or -1 when there is none (``top`` < 0)."""
    if top < 0:
        return -1
    return card_key(top, led, trump, order, direction, jokers_strongest)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _opponents_to_come(n, allies, players, leader, voids, know_voids):
    """(opponents still to play after trick position ``n``, the suits some of them may hold:
    bit set; every suit unless ``know_voids``, else those not in their ``voids``)."""
    opponents = 0
    may_hold = 0
    for position in range(n + 1, players):
        if not (allies >> position) & 1:
            opponents += 1
            seat = leader + position
            if seat >= players:
                seat -= players
            may_hold |= (15 & ~voids[seat]) if know_voids else 15
    return opponents, may_hold


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _trick_holder(trick, n, led, trump, order, direction, jokers_strongest, ties):
    """(the position holding the trick ``trick[:n]`` so far, its card)."""
    winner = 0
    for position in range(1, n):
        if _beats(trick[position], trick[winner], led, trump, order, direction,
                  jokers_strongest, ties):  # fmt: skip
            winner = position
    return winner, trick[winner]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def heuristic_card(legal, jokers, n, led, trump, order, direction, allies, opponents, may_hold,
                   winner, holder, trick_points, points, unseen, unseen_jokers,
                   jokers_strongest, ties) -> int:
    """The heuristics' card (a face, ``JOKER`` for a joker); see ``_PLAY``. ``allies``: bit
    ``p`` set when the player at trick position ``p`` is on this player's side;
    ``opponents``, ``may_hold``: the opponents still to play and the suits some of them may
    hold (``_opponents_to_come``); following (``n`` > 0), ``winner`` and ``holder`` the
    position holding the trick and its card, ``trick_points`` the points in it. Scalars but
    ``points``: this runs once per card decision, and every array argument costs reference
    counting at each call.

    Whether a card is threatened (an unseen joker, a stronger unseen card of the led suit
    or of the trump suit that an opponent to come may hold) depends on the candidate only
    through the comparison: the strongest unseen card of each suit is found once per
    decision (per suit when leading), not once per candidate."""
    trump_ok = trump != NO_SUIT and (may_hold >> trump) & 1 == 1
    joker_threat = unseen_jokers > 0 and jokers_strongest
    top_trump = -1  # the strongest unseen trump, if an opponent to come may hold one
    if opponents > 0 and trump_ok:
        top_trump = strongest_in_suit(unseen, trump, order, direction)
    best_face = -1
    best_value = -(1 << 40)
    if n == 0:  # leading: a sure winner with most points, else the cheapest card
        key_suit = -1  # the led suit the threats' keys below are for
        led_key = -1  # card_key of the strongest unseen card of that suit (-1: none to fear)
        trump_key = -1  # likewise of the strongest unseen trump
        face, rest, jokers_left = _next_face(legal, jokers > 0)
        while face >= 0:
            suit = face >> 4
            cost = _cost(face, points, trump, order, direction)
            if opponents == 0:
                sure = True
            elif joker_threat:
                sure = False
            else:
                if suit != key_suit:
                    key_suit = suit
                    led_key = -1
                    if suit != NO_SUIT and (may_hold >> suit) & 1 == 1:
                        top = strongest_in_suit(unseen, suit, order, direction)
                        led_key = _top_key(top, suit, trump, order, direction, jokers_strongest)
                    trump_key = -1
                    if trump != suit:
                        trump_key = _top_key(top_trump, suit, trump, order, direction,
                                             jokers_strongest)  # fmt: skip
                key = card_key(face, suit, trump, order, direction, jokers_strongest)
                sure = not (_key_beats(led_key, key, ties) or _key_beats(trump_key, key, ties))
            value = (1 << 20) + cost if sure else -cost
            if value > best_value:
                best_face, best_value = face, value
            face, rest, jokers_left = _next_face(rest, jokers_left)
        return best_face
    # following: is the trick safe?
    led_key = -1  # the strongest unseen card of the led suit, if an opponent to come may hold one
    if opponents > 0 and led != NO_SUIT and (may_hold >> led) & 1 == 1:
        top = strongest_in_suit(unseen, led, order, direction)
        led_key = _top_key(top, led, trump, order, direction, jokers_strongest)
    trump_key = -1
    if trump != led:
        trump_key = _top_key(top_trump, led, trump, order, direction, jokers_strongest)
    holder_key = card_key(holder, led, trump, order, direction, jokers_strongest)
    ally_holds = (allies >> winner) & 1 == 1
    safe = ally_holds and (opponents == 0 or not (
        joker_threat
        or _key_beats(led_key, holder_key, ties)
        or _key_beats(trump_key, holder_key, ties)
    ))  # fmt: skip
    face, rest, jokers_left = _next_face(legal, jokers > 0)
    while face >= 0:
        cost = _cost(face, points, trump, order, direction)
        key = card_key(face, led, trump, order, direction, jokers_strongest)
        if safe:
            value = cost  # the trick is ours: add the card with most points
        elif _key_beats(key, holder_key, ties):
            sure = opponents == 0 or not (
                joker_threat or _key_beats(led_key, key, ties) or _key_beats(trump_key, key, ties)
            )  # fmt: skip
            if sure:
                value = (2 << 20) + cost  # a sure winner: the one with most points
            elif not ally_holds and trick_points > 0:
                value = (1 << 20) + cost  # worth a try: the strongest winner
            else:
                value = -cost
        else:
            value = -cost  # the cheapest card
        if value > best_value:
            best_face, best_value = face, value
        face, rest, jokers_left = _next_face(rest, jokers_left)
    return best_face


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def choose_card(code, params, row, hands, seat, legal, jokers, trick, n, led, trump, order,
                direction, allies, players, leader, points, deck_faces, deck_jokers, unseen,
                unseen_jokers, voids, jokers_strongest, ties, stream) -> int:
    """The code of the card the player plays, one of its legal cards (faces ``legal``, and
    its ``jokers``, which may always be played). ``unseen``, ``unseen_jokers`` and
    ``voids`` are the public record (``tracker``); ``greedy`` remembers nothing, so its
    unseen cards are the deck less its hand and the trick, and it knows no voids."""
    if code == RANDOM:
        return random_card(hands, seat, legal, stream)
    copies = hands.shape[1] - 1
    if code == GREEDY:
        forgot = deck_faces
        for copy in range(copies):
            forgot &= ~hands[seat, copy]
        forgot_jokers = deck_jokers - jokers
        for position in range(n):
            if trick[position] == JOKER:
                forgot_jokers -= 1
            else:
                forgot &= ~face_bit(trick[position])
        unseen, unseen_jokers = forgot, forgot_jokers
    opponents, may_hold = _opponents_to_come(n, allies, players, leader, voids, code != GREEDY)
    winner, holder = _trick_holder(trick, n, led, trump, order, direction, jokers_strongest,
                                   ties)  # fmt: skip
    trick_points = 0
    for position in range(n):
        trick_points += points[trick[position]]
    face = heuristic_card(legal, jokers, n, led, trump, order, direction, allies, opponents,
                          may_hold, winner, holder, trick_points, points, unseen,
                          unseen_jokers, jokers_strongest, ties)  # fmt: skip
    # the lowest copy of the face (or the lowest joker); no view of the hand row: no refcount
    if face == JOKER:
        held = hands[seat, copies]
        if held == _EMPTY:
            return -1
        return lowest_face(held) * COPY_STRIDE + JOKER
    for copy in range(copies):
        if (hands[seat, copy] >> np.uint64(face)) & _ONE != _EMPTY:
            return copy * COPY_STRIDE + face
    return -1
