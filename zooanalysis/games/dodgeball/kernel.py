"""The fast path: a numba kernel that plays a whole batch of Hodge Podge Dodgeball matches.

It follows ``engine.py`` step by step on flat arrays: a hand is one ``uint64`` face mask
plus an All-Star count, a bench the same, a dummy's face-down cards a table from the
face-up card on top to the face under it. It keeps only the counts of
``counts.new_totals`` (and per-game rows when asked). Game ``first_game + i`` of a batch
seeded ``s`` is the reference engine's ``play_game(settings, strategies, s, first_game +
i)``; the tests hold both to that, array by array.

:func:`play_round` plays one round from dealt cards and returns its result in a small
array; :func:`_play_batch` deals the rounds of every match and counts them.

Written for speed: numba counts a reference (an atomic add, and one to release it) for every
array passed to a call, which took more than half a match's time. So the random stream is a
scalar state (``rng``'s SplitMix64 advanced in a local, ``strategies.draw``: the same draws
as ``rng.below``), and the frequent card moves (play, bench, pass, timeout) are written out
in place; the helpers ``_take``, ``_add`` ... run only for the rare further copies of one
face (Through the Zoo's personal decks).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import (
    EMPTY,
    SUIT_BIT,
    SUIT_FACES,
    SUIT_SET_FACES,
    count_faces,
    lowest_face,
)
from zooanalysis.cards.encoding import JOKER, N_SUITS, NO_SUIT
from zooanalysis.cards.follow import MUST_NOT_FOLLOW_STRICT, declarable_suit_set
from zooanalysis.cards.orders import ACES_HIGH, NUMERIC, UP, weakest_of_each_suit
from zooanalysis.cards.tricks import highest_positions, latest_position
from zooanalysis.decisions import GAME_BINS, OPTION_BINS
from zooanalysis.games.dodgeball.counts import (
    EV_ALLSTAR,
    EV_BLOCK,
    EV_CALL,
    EV_CANNOT,
    EV_CATCH,
    EV_CAUGHT,
    EV_EXCHANGE,
    EV_HIT,
    EV_SETUP,
    EVENT_BINS,
    ROUND_BINS,
    TRICK_BINS,
    USE_BINS,
    new_rows,
)
from zooanalysis.games.dodgeball.rules import (
    CANNOT_FOLLOW,
    EMPTY_HAND,
    RINGER_BENCH_NAMES,
    RINGER_EITHER,
    RINGER_FACES,
    RINGER_ZERO,
    SEATS,
    DodgeballSettings,
)
from zooanalysis.games.dodgeball.strategies import (
    ALLSTARS,
    BENCH,
    BENCH_ALLSTARS,
    BLOCK_LEADER,
    BRING_BACK,
    CALL_TIMEOUT,
    CHOICES,
    DECLARABLE,
    DUMMY,
    DUMMY_ALLSTARS,
    DUMMY_EXCHANGE,
    HAND,
    HIT_BENCH,
    LEGAL,
    N_MASKS,
    N_PLAYED,
    N_VIEW,
    ORDER,
    OTHER_BENCH,
    OTHER_BENCH_ALLSTARS,
    OTHER_POINTS,
    OTHER_TIMEOUTS,
    PLAY,
    RANDOM,
    RANKS,
    RINGERS,
    SEEN,
    SETUP_BENCH,
    SETUP_PASS,
    TEAM_POINTS,
    TIMEOUT_PLACE,
    TIMEOUT_TAKE,
    TIMEOUTS_LEFT,
    TRICK,
    TRICK_INDEX,
    dodger_decision,
    draw,
    nth_card,
    random_choice_state,
)
from zooanalysis.outcome import tally_outcome
from zooanalysis.rng import mix64
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

# --- flat settings ---------------------------------------------------------------------------
(
    R_TWO_PLAYER,
    R_HAND,
    R_DOWN,
    R_UP,
    R_BENCH_2P,
    R_RINGERS,
    R_ALLSTARS,
    R_SETUP_BENCH,
    R_SETUP_SWAP,
    R_TIMEOUTS,
    R_BRING_BACK,
    R_MATCH_POINTS,
    R_ORDER,
    R_RINGER_BENCH,
    R_EXCHANGE_2P,
    R_RANKS,
) = range(16)
N_RULES = 16

# --- a round's state: card masks (uint64) and numbers (int64) ---------------------------------
C_HAND = 0
"""``cards[C_HAND + seat]``: the seat's hand (a dummy: its face-up cards)."""
C_BENCH = 4
"""``cards[C_BENCH + team]``: the team's face-up bench."""
C_FACE_DOWN = 6
"""``cards[C_FACE_DOWN + team]``: cards placed face down on the bench during a timeout."""
C_SEEN = 8
"""Faces played this round (as declared)."""
N_CARDS = 9
X_TOTAL = 64
"""``extra[place, face]``: further copies of ``face`` held at ``cards[place]`` beyond the
one its bit shows (only Through the Zoo's personal decks make them);
``extra[place, X_TOTAL]``: their sum."""
N_EXTRA = 65
S_STARS = 0
"""``nums[S_STARS + seat]``: All-Stars in the seat's hand."""
S_BENCH_STARS = 4
S_FACE_DOWN_STARS = 6
S_TIMEOUTS = 8
"""``nums[S_TIMEOUTS + team]``: timeouts the team has left this round."""
S_POINTS = 10
"""``nums[S_POINTS + team]``: rounds the team has won in the match."""
N_NUMS = 12

# --- a round's result -------------------------------------------------------------------------
(
    O_LOSER,
    O_REASON,
    O_POSITION,
    O_TRICKS,
    O_HITS,
    O_BLOCKS,
    O_CATCHES,
    O_TIMEOUTS_0,
    O_TIMEOUTS_1,
    O_ALLSTARS_0,
    O_ALLSTARS_1,
    O_STATUS,
    O_DECIDED,
) = range(13)
N_OUT = 13

OK = 0
ILLEGAL = 1

_ONE = np.uint64(1)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def flat_rules(settings: DodgeballSettings) -> np.ndarray:
    """The settings the kernel reads, as one int64 array (indices ``R_*``)."""
    values = np.zeros(N_RULES, dtype=np.int64)
    values[R_TWO_PLAYER] = int(settings.two_player)
    values[R_HAND] = settings.hand_size
    values[R_DOWN] = settings.dummy_face_down
    values[R_UP] = settings.dummy_face_up
    values[R_BENCH_2P] = settings.two_player_bench
    values[R_RINGERS] = int(settings.ringers)
    values[R_ALLSTARS] = int(settings.allstars)
    values[R_SETUP_BENCH] = settings.setup_bench
    values[R_SETUP_SWAP] = settings.setup_swap
    values[R_TIMEOUTS] = settings.timeouts
    values[R_BRING_BACK] = int(settings.catch_bring_back)
    values[R_MATCH_POINTS] = settings.match_points
    values[R_ORDER] = settings.order
    values[R_RINGER_BENCH] = RINGER_BENCH_NAMES.index(settings.ringer_bench)
    values[R_EXCHANGE_2P] = settings.two_player_exchange
    values[R_RANKS] = sum(1 << rank for rank in settings.declarable_ranks())
    return values


@njit(cache=True, nogil=True, error_model="numpy")
def face_bit(face) -> np.uint64:
    """The mask of one suited face."""
    return _ONE << np.uint64(face)


@njit(cache=True, nogil=True, error_model="numpy")
def weakest_per_suit(mask, order) -> np.uint64:
    """Each suit's weakest card (``orders.weakest_of_each_suit``), without a strength scan
    for the two orders Dodgeball uses: aces low, the lowest rank; aces high, the lowest rank
    but the ace (unless the ace is alone)."""
    if order != NUMERIC and order != ACES_HIGH:
        return weakest_of_each_suit(mask, order, np.int64(UP))
    out = EMPTY
    for suit in range(N_SUITS):
        lane = mask & SUIT_FACES[suit]
        if order == ACES_HIGH and lane & ~_ACES != EMPTY:
            lane &= ~_ACES
        out |= lane & (~lane + _ONE)
    return out


_ACES = np.uint64(sum(1 << (16 * suit + 1) for suit in range(N_SUITS)))


@njit(cache=True, nogil=True, error_model="numpy")
def bench_choice_mask(hand, order, mode) -> np.uint64:
    """The faces a hit or caught player may bench (compiled ``rules.bench_choices``)."""
    ringers = hand & RINGER_FACES
    others = hand & ~RINGER_FACES
    lowest = weakest_per_suit(others, order)
    if mode == RINGER_EITHER or ringers == EMPTY:
        return lowest | ringers
    out = EMPTY
    for suit in range(N_SUITS):
        lane = SUIT_FACES[suit]
        if mode == RINGER_ZERO:
            out |= ringers & lane if ringers & lane != EMPTY else lowest & lane
        else:
            out |= lowest & lane if others & lane != EMPTY else ringers & lane
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _size(cards, nums, seat, extra) -> int:
    return count_faces(cards[C_HAND + seat]) + nums[S_STARS + seat] + extra[C_HAND + seat, X_TOTAL]


@njit(cache=True, nogil=True, error_model="numpy")
def _add(cards, extra, place, face):
    """One card of ``face`` joins ``cards[place]``; a face already there is a further copy
    (Through the Zoo's personal decks), counted in ``extra[place]``."""
    bit = face_bit(face)
    if cards[place] & bit != EMPTY:
        extra[place, face] += 1
        extra[place, X_TOTAL] += 1
    else:
        cards[place] |= bit


@njit(cache=True, nogil=True, error_model="numpy")
def _remove(cards, extra, place, face) -> bool:
    """One card of ``face`` leaves ``cards[place]``; True if it was the last copy."""
    if extra[place, face] > 0:
        extra[place, face] -= 1
        extra[place, X_TOTAL] -= 1
        return False
    cards[place] &= ~face_bit(face)
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def _add_all(cards, extra, place, source):
    """Every card of place ``source`` (copies included) joins ``place``; ``source`` empties."""
    mask = cards[source]
    while mask != EMPTY:
        face = lowest_face(mask)
        mask &= mask - _ONE
        for _ in range(1 + extra[source, face]):
            _add(cards, extra, place, face)
        extra[source, face] = 0
    extra[source, X_TOTAL] = 0
    cards[source] = EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def _add_mask(cards, extra, place, mask):
    """One card of every face in ``mask`` joins ``place``."""
    while mask != EMPTY:
        face = lowest_face(mask)
        mask &= mask - _ONE
        _add(cards, extra, place, face)


@njit(cache=True, nogil=True, error_model="numpy")
def _take(seat, card, cards, nums, under, extra):
    """A card leaves a hand (or a dummy's face-up cards); a face-down card it covered flips
    ("flip the facedown card face-up immediately")."""
    if card == JOKER:
        nums[S_STARS + seat] -= 1
        return
    if not _remove(cards, extra, C_HAND + seat, card):
        return
    below = under[seat, card]
    if below >= 0:
        cards[C_HAND + seat] |= face_bit(below)
        under[seat, card] = -1


@njit(cache=True, nogil=True, error_model="numpy")
def _give(seat, card, cards, nums, extra):
    if card == JOKER:
        nums[S_STARS + seat] += 1
    else:
        _add(cards, extra, C_HAND + seat, card)


@njit(cache=True, nogil=True, error_model="numpy")
def _holds(mask, allstars, card) -> bool:
    if card == JOKER:
        return allstars > 0
    return 0 <= card < 64 and (mask >> np.uint64(card)) & _ONE != EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def _heuristic(
    kind,
    seat,
    code,
    order,
    ringers,
    ranks,
    params,
    cards,
    nums,
    trick_0,
    trick_1,
    trick_2,
    trick_3,
    n_played,
    trick_index,
    legal,
    declarable,
    choices,
    dummy,
    dummy_stars,
    masks,
    view,
    extra,
):
    """A built-in heuristic's decision for ``seat``, from what its player may know
    (the arrays of ``engine.Observation.arrays``; few array arguments, see
    :func:`play_round`). Callers pass ``kind`` and every other scalar typed (``np.int64``,
    never a bare ``0`` or ``SEATS``, nor the int8 suit set): a bare constant is a type of its
    own to numba, which compiled this and ``dodger_decision`` once per combination."""
    team = seat & 1
    masks[HAND] = cards[C_HAND + seat]
    masks[LEGAL] = legal
    masks[BENCH] = cards[C_BENCH + team]
    masks[OTHER_BENCH] = cards[C_BENCH + 1 - team]
    masks[CHOICES] = choices
    masks[SEEN] = cards[C_SEEN]
    masks[DUMMY] = dummy
    for offset in range(SEATS):
        other = (seat + offset) & 3
        view[offset] = (
            count_faces(cards[C_HAND + other]) + nums[S_STARS + other]
            + extra[C_HAND + other, X_TOTAL]
        )
    view[ALLSTARS] = nums[S_STARS + seat]
    view[BENCH_ALLSTARS] = nums[S_BENCH_STARS + team]
    view[OTHER_BENCH_ALLSTARS] = nums[S_BENCH_STARS + 1 - team]
    view[DUMMY_ALLSTARS] = dummy_stars
    view[N_PLAYED] = n_played
    view[TRICK_INDEX] = trick_index
    view[ORDER] = order
    view[RINGERS] = ringers
    view[DECLARABLE] = declarable
    view[TIMEOUTS_LEFT] = nums[S_TIMEOUTS + team]
    view[OTHER_TIMEOUTS] = nums[S_TIMEOUTS + 1 - team]
    view[TEAM_POINTS] = nums[S_POINTS + team]
    view[OTHER_POINTS] = nums[S_POINTS + 1 - team]
    view[RANKS] = ranks
    view[TRICK] = trick_0 if n_played > 0 else -1
    view[TRICK + 1] = trick_1 if n_played > 1 else -1
    view[TRICK + 2] = trick_2 if n_played > 2 else -1
    view[TRICK + 3] = trick_3 if n_played > 3 else -1
    return dodger_decision(code, np.int64(kind), params[seat % params.shape[0]], masks, view)


@njit(cache=True, nogil=True, error_model="numpy")
def play_round(
    rules,
    codes,
    params,
    state,
    start,
    cards,
    nums,
    under,
    seat_events,
    out,
    masks,
    view,
    trick,
    spare,
    spare_nums,
    extra,
    decision_options,
):
    """Play one round from dealt cards (``deal_round``): the setup decisions, then tricks
    until a seat cannot play, as ``engine.play_round``, draw for draw.

    ``cards``/``nums`` (``C_*``, ``S_*``) and ``under`` (per seat: face-up face -> the
    face-down face under it, or -1) change in place; ``out`` receives the result (``O_*``;
    ``O_STATUS`` is ``ILLEGAL`` if a strategy chose something the rules forbid); per-seat
    events are added to ``seat_events``. ``codes``/``params`` are per player (a dummy uses
    its player's); ``masks``/``view``/``trick``/``spare``/``spare_nums`` are scratch.
    ``extra`` (int64, ``N_CARDS x N_EXTRA``) counts further copies of a face at one place,
    which only personal decks (Through the Zoo) make; the round starts it at zero, so the
    dealt hands hold one copy of each face. Every decision (``engine``'s **Decisions**) is
    counted into ``decision_options`` by its legal options; ``out[O_DECIDED]`` receives the
    round's real decisions (two options or more).

    ``state`` is the random stream's state (a scalar: ``stream[0]``); the round returns
    the state after its last draw.

    Written as one function on purpose: numba increfs every array argument of every call,
    so the hot paths (the random strategy, playing a card) call nothing that takes arrays;
    the random stream is a scalar for the same reason.
    """
    players = codes.shape[0]
    two_player = rules[R_TWO_PLAYER] != 0
    order = rules[R_ORDER]
    ringers = rules[R_RINGERS]
    ranks = rules[R_RANKS]
    for index in range(N_OUT):
        out[index] = 0
    extra[:, :] = 0
    nums[S_TIMEOUTS] = rules[R_TIMEOUTS]
    nums[S_TIMEOUTS + 1] = rules[R_TIMEOUTS]
    cards[C_SEEN] = EMPTY
    setup_seats = 2 if two_player else SEATS
    n_ranks = count_faces(np.uint64(ranks))
    top_bin = OPTION_BINS - 1
    decided = 0  # real decisions this round (zooanalysis.decisions)

    # ---- setup: bench (all decide on their own hands, then the cards move) ----
    for seat in range(SEATS):
        spare[seat] = EMPTY
        spare_nums[seat] = 0
    for seat in range(setup_seats):
        code = codes[seat % players]
        for _ in range(rules[R_SETUP_BENCH]):
            hand, stars = cards[C_HAND + seat], nums[S_STARS + seat]
            n = count_faces(hand) + stars
            if n == 0:
                break
            decision_options[min(n, top_bin)] += 1
            decided += n > 1
            if n == 1:
                card = nth_card(hand, stars, np.int64(0))
            else:
                if code == RANDOM:
                    card, _, state = random_choice_state(
                        np.int64(SETUP_BENCH),
                        hand,
                        stars,
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        ringers,
                        ranks,
                        state,
                    )
                else:
                    card, _ = _heuristic(
                        np.int64(SETUP_BENCH),
                        seat,
                        code,
                        order,
                        ringers,
                        ranks,
                        params,
                        cards,
                        nums,
                        trick[0],
                        trick[1],
                        trick[2],
                        trick[3],
                        np.int64(0),
                        np.int64(0),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        masks,
                        view,
                        extra,
                    )
                if not _holds(hand, stars, card):
                    out[O_STATUS] = ILLEGAL
                    return state
            if card == JOKER:
                nums[S_STARS + seat] -= 1
            elif extra[C_HAND + seat, card] > 0:  # a further copy
                _take(seat, card, cards, nums, under, extra)
            else:
                cards[C_HAND + seat] &= ~face_bit(card)
                below = under[seat, card]
                if below >= 0:  # a dummy's face-down card flips
                    cards[C_HAND + seat] |= face_bit(below)
                    under[seat, card] = -1
            if card == JOKER:
                spare_nums[seat] += 1
            else:
                spare[seat] |= face_bit(card)
    for seat in range(setup_seats):
        if cards[C_BENCH + (seat & 1)] & spare[seat] == EMPTY:
            cards[C_BENCH + (seat & 1)] |= spare[seat]
        else:  # further copies
            _add_mask(cards, extra, C_BENCH + (seat & 1), spare[seat])
        nums[S_BENCH_STARS + (seat & 1)] += spare_nums[seat]

    if not two_player:
        # ---- setup: partners pass each other a card (simultaneously) ----
        for seat in range(SEATS):
            spare[seat] = EMPTY
            spare_nums[seat] = 0
            code = codes[seat]
            for _ in range(rules[R_SETUP_SWAP]):
                hand, stars = cards[C_HAND + seat], nums[S_STARS + seat]
                n = count_faces(hand) + stars
                if n == 0:
                    break
                decision_options[min(n, top_bin)] += 1
                decided += n > 1
                if n == 1:
                    card = nth_card(hand, stars, np.int64(0))
                else:
                    if code == RANDOM:
                        card, _, state = random_choice_state(
                            np.int64(SETUP_PASS),
                            hand,
                            stars,
                            EMPTY,
                            np.int64(0),
                            EMPTY,
                            np.int64(0),
                            EMPTY,
                            EMPTY,
                            np.int64(0),
                            ringers,
                            ranks,
                            state,
                        )
                    else:
                        card, _ = _heuristic(
                            np.int64(SETUP_PASS),
                            seat,
                            code,
                            order,
                            ringers,
                            ranks,
                            params,
                            cards,
                            nums,
                            trick[0],
                            trick[1],
                            trick[2],
                            trick[3],
                            np.int64(0),
                            np.int64(0),
                            EMPTY,
                            np.int64(0),
                            EMPTY,
                            EMPTY,
                            np.int64(0),
                            masks,
                            view,
                            extra,
                        )
                    if not _holds(hand, stars, card):
                        out[O_STATUS] = ILLEGAL
                        return state
                if card == JOKER:
                    nums[S_STARS + seat] -= 1
                elif extra[C_HAND + seat, card] > 0:  # a further copy
                    _take(seat, card, cards, nums, under, extra)
                else:
                    cards[C_HAND + seat] &= ~face_bit(card)
                    below = under[seat, card]
                    if below >= 0:  # a dummy's face-down card flips
                        cards[C_HAND + seat] |= face_bit(below)
                        under[seat, card] = -1
                if card == JOKER:
                    spare_nums[seat] += 1
                else:
                    spare[seat] |= face_bit(card)
        for seat in range(SEATS):
            partner = (seat + 2) & 3
            if cards[C_HAND + seat] & spare[partner] == EMPTY:
                cards[C_HAND + seat] |= spare[partner]
            else:  # further copies
                _add_mask(cards, extra, C_HAND + seat, spare[partner])
            nums[S_STARS + seat] += spare_nums[partner]
    else:
        # ---- setup (2 players): exchange with the own dummy (simultaneously) ----
        for seat in range(2):
            spare_nums[seat] = -1
            spare_nums[2 + seat] = -1
            dummy = seat + 2
            if (
                rules[R_EXCHANGE_2P] > 0
                and _size(cards, nums, seat, extra) > 0
                and _size(cards, nums, dummy, extra) > 0
            ):
                code = codes[seat]
                hand, stars = cards[C_HAND + seat], nums[S_STARS + seat]
                dummy_hand, dummy_stars = cards[C_HAND + dummy], nums[S_STARS + dummy]
                n = 1 + (count_faces(hand) + stars) * (count_faces(dummy_hand) + dummy_stars)
                decision_options[min(n, top_bin)] += 1
                decided += n > 1
                if code == RANDOM:
                    give, take, state = random_choice_state(
                        np.int64(DUMMY_EXCHANGE),
                        hand,
                        stars,
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        dummy_hand,
                        dummy_stars,
                        ringers,
                        ranks,
                        state,
                    )
                else:
                    give, take = _heuristic(
                        np.int64(DUMMY_EXCHANGE),
                        seat,
                        code,
                        order,
                        ringers,
                        ranks,
                        params,
                        cards,
                        nums,
                        trick[0],
                        trick[1],
                        trick[2],
                        trick[3],
                        np.int64(0),
                        np.int64(0),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        dummy_hand,
                        dummy_stars,
                        masks,
                        view,
                        extra,
                    )
                if give >= 0:
                    if not (_holds(hand, stars, give) and _holds(dummy_hand, dummy_stars, take)):
                        out[O_STATUS] = ILLEGAL
                        return state
                    spare_nums[seat] = give
                    spare_nums[2 + seat] = take
        for seat in range(2):
            give, take = spare_nums[seat], spare_nums[2 + seat]
            if give >= 0:
                _take(seat, give, cards, nums, under, extra)
                _take(seat + 2, take, cards, nums, under, extra)
                _give(seat + 2, give, cards, nums, extra)
                _give(seat, take, cards, nums, extra)
                seat_events[seat, EV_SETUP] += 1

    # ---- tricks ----
    leader = start
    trick_index = np.int64(0)
    while True:
        # timeouts: each player asked once, in play order from the leader
        if nums[S_TIMEOUTS] > 0 or nums[S_TIMEOUTS + 1] > 0:
            for offset in range(SEATS):
                caller = (leader + offset) & 3
                if (two_player and caller >= 2) or nums[S_TIMEOUTS + (caller & 1)] == 0:
                    continue
                code = codes[caller % players]
                decision_options[2] += 1  # call a timeout or not
                decided += 1
                if code == RANDOM:
                    call, _, state = random_choice_state(
                        np.int64(CALL_TIMEOUT),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        ringers,
                        ranks,
                        state,
                    )
                else:
                    call, _ = _heuristic(
                        np.int64(CALL_TIMEOUT),
                        caller,
                        code,
                        order,
                        ringers,
                        ranks,
                        params,
                        cards,
                        nums,
                        trick[0],
                        trick[1],
                        trick[2],
                        trick[3],
                        np.int64(0),
                        trick_index,
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        masks,
                        view,
                        extra,
                    )
                if call == 0:
                    continue
                nums[S_TIMEOUTS + (caller & 1)] -= 1
                out[O_TIMEOUTS_0 + (caller & 1)] += 1
                seat_events[caller, EV_CALL] += 1
                # everyone may place a hand card face down (all decide, then cards move)
                for step in range(SEATS):
                    seat = (caller + step) & 3
                    team = seat & 1
                    spare_nums[seat] = -1
                    hand, stars = cards[C_HAND + seat], nums[S_STARS + seat]
                    bench, bench_stars = cards[C_BENCH + team], nums[S_BENCH_STARS + team]
                    if count_faces(hand) + stars > 0 and count_faces(bench) + bench_stars > 0:
                        n = 1 + count_faces(hand) + stars
                        decision_options[min(n, top_bin)] += 1
                        decided += 1
                        code = codes[seat % players]
                        if code == RANDOM:
                            card, _, state = random_choice_state(
                                np.int64(TIMEOUT_PLACE),
                                hand,
                                stars,
                                EMPTY,
                                np.int64(0),
                                bench,
                                bench_stars,
                                EMPTY,
                                EMPTY,
                                np.int64(0),
                                ringers,
                                ranks,
                                state,
                            )
                        else:
                            card, _ = _heuristic(
                                np.int64(TIMEOUT_PLACE),
                                seat,
                                code,
                                order,
                                ringers,
                                ranks,
                                params,
                                cards,
                                nums,
                                trick[0],
                                trick[1],
                                trick[2],
                                trick[3],
                                np.int64(0),
                                trick_index,
                                EMPTY,
                                np.int64(0),
                                EMPTY,
                                EMPTY,
                                np.int64(0),
                                masks,
                                view,
                                extra,
                            )
                        if card >= 0:
                            if not _holds(hand, stars, card):
                                out[O_STATUS] = ILLEGAL
                                return state
                            spare_nums[seat] = card
                for step in range(SEATS):
                    seat = (caller + step) & 3
                    card = spare_nums[seat]
                    if card >= 0:
                        if card == JOKER:
                            nums[S_STARS + seat] -= 1
                        elif extra[C_HAND + seat, card] > 0:  # a further copy
                            _take(seat, card, cards, nums, under, extra)
                        else:
                            cards[C_HAND + seat] &= ~face_bit(card)
                            below = under[seat, card]
                            if below >= 0:  # a dummy's face-down card flips
                                cards[C_HAND + seat] |= face_bit(below)
                                under[seat, card] = -1
                        if card == JOKER:
                            nums[S_FACE_DOWN_STARS + (seat & 1)] += 1
                        else:
                            if cards[C_FACE_DOWN + (seat & 1)] & face_bit(card) == EMPTY:
                                cards[C_FACE_DOWN + (seat & 1)] |= face_bit(card)
                            else:  # a further copy
                                _add(cards, extra, C_FACE_DOWN + (seat & 1), card)
                # those who placed a card take a face-up bench card, in order from the caller
                for step in range(SEATS):
                    seat = (caller + step) & 3
                    card = spare_nums[seat]
                    if card < 0:
                        continue
                    team = seat & 1
                    bench, bench_stars = cards[C_BENCH + team], nums[S_BENCH_STARS + team]
                    n = count_faces(bench) + bench_stars
                    if n == 0:  # the partner took the last face-up card: no exchange
                        if card == JOKER:
                            nums[S_FACE_DOWN_STARS + team] -= 1
                        else:
                            _remove(cards, extra, C_FACE_DOWN + team, card)
                        _give(seat, card, cards, nums, extra)
                        continue
                    decision_options[min(n, top_bin)] += 1
                    decided += n > 1
                    if n == 1:
                        take = nth_card(bench, bench_stars, np.int64(0))
                    else:
                        code = codes[seat % players]
                        if code == RANDOM:
                            take, _, state = random_choice_state(
                                np.int64(TIMEOUT_TAKE),
                                cards[C_HAND + seat],
                                nums[S_STARS + seat],
                                EMPTY,
                                np.int64(0),
                                bench,
                                bench_stars,
                                EMPTY,
                                EMPTY,
                                np.int64(0),
                                ringers,
                                ranks,
                                state,
                            )
                        else:
                            take, _ = _heuristic(
                                np.int64(TIMEOUT_TAKE),
                                seat,
                                code,
                                order,
                                ringers,
                                ranks,
                                params,
                                cards,
                                nums,
                                trick[0],
                                trick[1],
                                trick[2],
                                trick[3],
                                np.int64(0),
                                trick_index,
                                EMPTY,
                                np.int64(0),
                                EMPTY,
                                EMPTY,
                                np.int64(0),
                                masks,
                                view,
                                extra,
                            )
                        if not _holds(bench, bench_stars, take):
                            out[O_STATUS] = ILLEGAL
                            return state
                    if take == JOKER:
                        nums[S_BENCH_STARS + team] -= 1
                    else:
                        if extra[C_BENCH + team, take] > 0:  # a further copy
                            _remove(cards, extra, C_BENCH + team, take)
                        else:
                            cards[C_BENCH + team] &= ~face_bit(take)
                    if take == JOKER:
                        nums[S_STARS + seat] += 1
                    elif cards[C_HAND + seat] & face_bit(take) == EMPTY:
                        cards[C_HAND + seat] |= face_bit(take)
                    else:  # a further copy
                        _add(cards, extra, C_HAND + seat, take)
                    seat_events[seat, EV_EXCHANGE] += 1
                # the face-down cards flip
                for team in range(2):
                    placed = cards[C_FACE_DOWN + team]
                    copies = extra[C_FACE_DOWN + team, X_TOTAL]
                    if copies == 0 and cards[C_BENCH + team] & placed == EMPTY:
                        cards[C_BENCH + team] |= placed
                        cards[C_FACE_DOWN + team] = EMPTY
                    else:  # further copies
                        _add_all(cards, extra, C_BENCH + team, C_FACE_DOWN + team)
                    nums[S_BENCH_STARS + team] += nums[S_FACE_DOWN_STARS + team]
                    nums[S_FACE_DOWN_STARS + team] = 0

        # ---- play the trick: must not follow any suit already in it ----
        played = np.int64(0)
        for position in range(SEATS):
            seat = (leader + position) & 3
            hand, stars = cards[C_HAND + seat], nums[S_STARS + seat]
            # for this strict rule the legal suits are the declarable ones, whatever the
            # hand holds (the suits it lacks have no cards to offer)
            led = NO_SUIT if position == 0 else trick[0] >> 4
            suits = declarable_suit_set(
                np.int64(MUST_NOT_FOLLOW_STRICT), led, np.int64(NO_SUIT), played
            )  # typed, as plain Python calls pass them: compiled once
            legal = hand & SUIT_SET_FACES[suits]
            jokers = stars if suits != 0 else 0
            n_legal = count_faces(legal)
            if n_legal + jokers == 0:
                out[O_LOSER] = seat
                out[O_REASON] = EMPTY_HAND if hand == EMPTY and stars == 0 else CANNOT_FOLLOW
                out[O_POSITION] = position
                out[O_TRICKS] = trick_index
                out[O_DECIDED] = decided
                seat_events[seat, EV_CANNOT] += 1
                return state
            decision_options[min(n_legal + jokers, top_bin)] += 1
            decided += n_legal + jokers > 1
            if n_legal == 1 and jokers == 0 and (ringers == 0 or legal & RINGER_FACES == EMPTY):
                card = lowest_face(legal)
                declared = card
            else:
                code = codes[seat % players]
                if code == RANDOM:
                    card, declared, state = random_choice_state(
                        np.int64(PLAY),
                        hand,
                        stars,
                        legal,
                        np.int64(suits),
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        ringers,
                        ranks,
                        state,
                    )
                else:
                    card, declared = _heuristic(
                        np.int64(PLAY),
                        seat,
                        code,
                        order,
                        ringers,
                        ranks,
                        params,
                        cards,
                        nums,
                        trick[0],
                        trick[1],
                        trick[2],
                        trick[3],
                        position,
                        trick_index,
                        legal,
                        np.int64(suits),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        masks,
                        view,
                        extra,
                    )
                if card == JOKER:
                    if (
                        jokers == 0
                        or not 0 <= declared < 64
                        or not (suits >> (declared >> 4)) & 1
                        or not (ranks >> (declared & 15)) & 1
                    ):
                        out[O_STATUS] = ILLEGAL
                        return state
                    out[O_ALLSTARS_0 + (seat & 1)] += 1
                    seat_events[seat, EV_ALLSTAR] += 1
                    # its declaration: any declarable suit x any rank
                    n = count_faces(np.uint64(suits)) * n_ranks
                    decision_options[min(n, top_bin)] += 1
                    decided += n > 1
                elif not _holds(legal, np.int64(0), card) or not (
                    declared == card or (ringers != 0 and card & 15 == 0 and declared == card + 14)
                ):
                    out[O_STATUS] = ILLEGAL
                    return state
                elif ringers != 0 and card & 15 == 0:  # a Ringer's declaration: 0 or 14
                    decision_options[2] += 1
                    decided += 1
            # _take, written out (a call taking arrays costs numba reference counts)
            place = C_HAND + seat
            if card == JOKER:
                nums[S_STARS + seat] -= 1
            elif extra[place, card] > 0:  # a further copy (personal decks)
                extra[place, card] -= 1
                extra[place, X_TOTAL] -= 1
            else:
                hand &= ~face_bit(card)
                below = under[seat, card]
                if below >= 0:  # a dummy's face-down card flips
                    hand |= face_bit(below)
                    under[seat, card] = -1
                cards[place] = hand
            trick[position] = declared
            cards[C_SEEN] |= face_bit(declared)
            played |= SUIT_BIT[declared >> 4]

        # ---- resolve: hit, block or catch ----
        highest = highest_positions(trick, np.int64(SEATS), order, np.int64(UP))
        latest = latest_position(highest)
        opponents = highest & (0b1010 if latest % 2 == 0 else 0b0101)
        bencher = -1
        catcher = -1
        if highest == (1 << latest):  # hit: the hit player benches and leads
            bencher = (leader + latest) & 3
            seat_events[bencher, EV_HIT] += 1
            out[O_HITS] += 1
            leader = bencher
        elif opponents == 0:  # block: the blocking team picks the leader
            blocker = (leader + latest) & 3
            code = codes[blocker % players]
            decision_options[2] += 1  # the blocker or its partner leads
            decided += 1
            if code == RANDOM:
                choice, _, state = random_choice_state(
                    np.int64(BLOCK_LEADER),
                    EMPTY,
                    np.int64(0),
                    EMPTY,
                    np.int64(0),
                    EMPTY,
                    np.int64(0),
                    EMPTY,
                    EMPTY,
                    np.int64(0),
                    ringers,
                    ranks,
                    state,
                )
            else:
                choice, _ = _heuristic(
                    np.int64(BLOCK_LEADER),
                    blocker,
                    code,
                    order,
                    ringers,
                    ranks,
                    params,
                    cards,
                    nums,
                    trick[0],
                    trick[1],
                    trick[2],
                    trick[3],
                    np.int64(SEATS),
                    trick_index,
                    EMPTY,
                    np.int64(0),
                    EMPTY,
                    EMPTY,
                    np.int64(0),
                    masks,
                    view,
                    extra,
                )
            if choice != 0 and choice != 1:
                out[O_STATUS] = ILLEGAL
                return state
            seat_events[blocker, EV_BLOCK] += 1
            out[O_BLOCKS] += 1
            leader = blocker if choice == 0 else (blocker + 2) & 3
        else:  # catch: the latest of the other team's highest benches and leads
            catcher = (leader + latest) & 3
            bencher = (leader + latest_position(opponents)) & 3
            leader = bencher
        if bencher >= 0:
            # "their lowest rank in that suit", the suit of their choice
            team = bencher & 1
            hand, stars = cards[C_HAND + bencher], nums[S_STARS + bencher]
            if hand == EMPTY:
                if stars > 0:  # only All-Stars left: one goes to the bench
                    decision_options[1] += 1
                    nums[S_STARS + bencher] -= 1
                    nums[S_BENCH_STARS + team] += 1
            else:
                choices = bench_choice_mask(hand, order, rules[R_RINGER_BENCH])
                n = count_faces(choices)
                decision_options[min(n, top_bin)] += 1
                decided += n > 1
                if choices & (choices - _ONE) == EMPTY:
                    card = lowest_face(choices)
                else:
                    code = codes[bencher % players]
                    if code == RANDOM:
                        card, _, state = random_choice_state(
                            np.int64(HIT_BENCH),
                            hand,
                            stars,
                            EMPTY,
                            np.int64(0),
                            EMPTY,
                            np.int64(0),
                            choices,
                            EMPTY,
                            np.int64(0),
                            ringers,
                            ranks,
                            state,
                        )
                    else:
                        card, _ = _heuristic(
                            np.int64(HIT_BENCH),
                            bencher,
                            code,
                            order,
                            ringers,
                            ranks,
                            params,
                            cards,
                            nums,
                            trick[0],
                            trick[1],
                            trick[2],
                            trick[3],
                            np.int64(SEATS),
                            trick_index,
                            EMPTY,
                            np.int64(0),
                            choices,
                            EMPTY,
                            np.int64(0),
                            masks,
                            view,
                            extra,
                        )
                    if not _holds(choices, np.int64(0), card):
                        out[O_STATUS] = ILLEGAL
                        return state
                if extra[C_HAND + bencher, card] > 0:  # a further copy
                    _take(bencher, card, cards, nums, under, extra)
                else:
                    cards[C_HAND + bencher] &= ~face_bit(card)
                    below = under[bencher, card]
                    if below >= 0:  # a dummy's face-down card flips
                        cards[C_HAND + bencher] |= face_bit(below)
                        under[bencher, card] = -1
                if cards[C_BENCH + team] & face_bit(card) == EMPTY:
                    cards[C_BENCH + team] |= face_bit(card)
                else:  # a further copy
                    _add(cards, extra, C_BENCH + team, card)
        if catcher >= 0:
            # the catching team brings a bench card back to either player's hand
            team = catcher & 1
            bench, bench_stars = cards[C_BENCH + team], nums[S_BENCH_STARS + team]
            if rules[R_BRING_BACK] != 0 and count_faces(bench) + bench_stars > 0:
                n = 2 * (count_faces(bench) + bench_stars)  # a card, to either partner
                decision_options[min(n, top_bin)] += 1
                decided += 1
                code = codes[catcher % players]
                if code == RANDOM:
                    card, receiver, state = random_choice_state(
                        np.int64(BRING_BACK),
                        cards[C_HAND + catcher],
                        nums[S_STARS + catcher],
                        EMPTY,
                        np.int64(0),
                        bench,
                        bench_stars,
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        ringers,
                        ranks,
                        state,
                    )
                else:
                    card, receiver = _heuristic(
                        np.int64(BRING_BACK),
                        catcher,
                        code,
                        order,
                        ringers,
                        ranks,
                        params,
                        cards,
                        nums,
                        trick[0],
                        trick[1],
                        trick[2],
                        trick[3],
                        np.int64(SEATS),
                        trick_index,
                        EMPTY,
                        np.int64(0),
                        EMPTY,
                        EMPTY,
                        np.int64(0),
                        masks,
                        view,
                        extra,
                    )
                if not _holds(bench, bench_stars, card) or not (receiver == 0 or receiver == 1):
                    out[O_STATUS] = ILLEGAL
                    return state
                if card == JOKER:
                    nums[S_BENCH_STARS + team] -= 1
                else:
                    if extra[C_BENCH + team, card] > 0:  # a further copy
                        _remove(cards, extra, C_BENCH + team, card)
                    else:
                        cards[C_BENCH + team] &= ~face_bit(card)
                _give(catcher if receiver == 0 else (catcher + 2) & 3, card, cards, nums, extra)
            seat_events[catcher, EV_CATCH] += 1
            seat_events[leader, EV_CAUGHT] += 1
            out[O_CATCHES] += 1
        trick_index += 1


@njit(cache=True, nogil=True, error_model="numpy")
def deal_round(rules, deck, template, ringer_deck, ringer_template, state, cards, nums, under):
    """Shuffle and deal one round exactly as ``engine.deal_round`` (``rng.shuffle``, on the
    scalar stream state ``state``); returns the state after the last draw."""
    deck[:] = template
    for i in range(deck.shape[0] - 1, 0, -1):
        j, state = draw(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for seat in range(SEATS):
        cards[C_HAND + seat] = EMPTY
        nums[S_STARS + seat] = 0
    for team in range(2):
        cards[C_BENCH + team] = EMPTY
        cards[C_FACE_DOWN + team] = EMPTY
        nums[S_BENCH_STARS + team] = rules[R_ALLSTARS]
        nums[S_FACE_DOWN_STARS + team] = 0
    if rules[R_TWO_PLAYER] == 0:
        size = rules[R_HAND]
        for seat in range(SEATS):
            hand = EMPTY
            for index in range(seat * size, (seat + 1) * size):
                hand |= face_bit(deck[index])
            cards[C_HAND + seat] = hand
    else:
        size, down, up = rules[R_HAND], rules[R_DOWN], rules[R_UP]
        for index in range(size):
            cards[C_HAND] |= face_bit(deck[index])
            cards[C_HAND + 1] |= face_bit(deck[size + index])
        top = 2 * size
        for seat in range(2, SEATS):
            under[seat, :] = -1
            for pile in range(up):
                face = deck[top + down + pile]
                cards[C_HAND + seat] |= face_bit(face)
                if pile < down:
                    under[seat, face] = deck[top + pile]
            top += down + up
        for team in range(2):
            for index in range(rules[R_BENCH_2P]):
                cards[C_BENCH + team] |= face_bit(deck[top + index])
            top += rules[R_BENCH_2P]
    if rules[R_RINGERS] != 0:
        ringer_deck[:] = ringer_template
        for i in range(ringer_deck.shape[0] - 1, 0, -1):
            j, state = draw(state, i + 1)
            ringer_deck[i], ringer_deck[j] = ringer_deck[j], ringer_deck[i]
        for seat in range(SEATS):
            cards[C_HAND + seat] |= face_bit(ringer_deck[seat])
    return state


def play_batch(
    rules: np.ndarray,
    template: np.ndarray,
    codes: np.ndarray,
    params: np.ndarray,
    batch_seed: int,
    n_games: int,
    totals: dict[str, np.ndarray],
    rows: dict[str, np.ndarray] | None = None,
    first_game: int = 0,
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed``, adding into ``totals`` (``counts.new_totals``); ``rows``
    (``counts.new_rows``) receives one row per game when given. ``RuntimeError`` if a
    strategy made an illegal choice (a bug, never a user error)."""
    rows = rows or new_rows(0, codes.shape[0])
    status = _play_batch(
        rules,
        template,
        codes,
        params,
        np.uint64(batch_seed),
        np.int64(first_game),
        n_games,
        totals["games"],
        totals["wins"],
        totals["sole_wins"],
        totals["points_sum"],
        totals["points_squares"],
        totals["team_wins"],
        totals["rounds_hist"],
        totals["match_tricks_hist"],
        totals["round_ends"],
        totals["hits_hist"],
        totals["blocks_hist"],
        totals["catches_hist"],
        totals["seat_events"],
        totals["timeout_rounds"],
        totals["allstar_rounds"],
        totals["round_starts"],
        totals["lead_changes_hist"],
        totals["settled_hist"],
        rows["row_points"],
        rows["row_rounds"],
        rows["row_tricks"],
        rows["row_winner"],
        totals["win_ties"],
        totals["margins"],
        totals["decision_options"],
        totals["game_decisions"],
    )
    if status != OK:
        raise RuntimeError("kernel stopped: a strategy made an illegal choice")


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    rules,
    template,
    codes,
    params,
    batch_seed,
    first_game,
    n_games,
    games,
    wins,
    sole_wins,
    points_sum,
    points_squares,
    team_wins,
    rounds_hist,
    match_tricks_hist,
    round_ends,
    hits_hist,
    blocks_hist,
    catches_hist,
    seat_events,
    timeout_rounds,
    allstar_rounds,
    round_starts,
    lead_changes_hist,
    settled_hist,
    row_points,
    row_rounds,
    row_tricks,
    row_winner,
    win_ties,
    margins,
    decision_options,
    game_decisions,
):
    players = codes.shape[0]
    write_rows = row_rounds.shape[0] > 0
    deck = np.empty(template.shape[0], dtype=template.dtype)
    ringer_deck = np.empty(4, dtype=template.dtype)
    ringer_template = np.empty(4, dtype=template.dtype)
    for suit in range(4):
        ringer_template[suit] = suit * 16
    cards = np.zeros(N_CARDS, dtype=np.uint64)
    nums = np.zeros(N_NUMS, dtype=np.int64)
    under = np.full((SEATS, 64), -1, dtype=np.int64)
    masks = np.zeros(N_MASKS, dtype=np.uint64)
    view = np.zeros(N_VIEW, dtype=np.int64)
    trick = np.zeros(SEATS, dtype=np.int64)
    out = np.zeros(N_OUT, dtype=np.int64)
    spare = np.zeros(8, dtype=np.uint64)
    spare_nums = np.zeros(8, dtype=np.int64)
    extra = np.zeros((N_CARDS, N_EXTRA), dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    match_points = rules[R_MATCH_POINTS]
    for game in range(n_games):
        # rng.seed_game, on a scalar state
        state = mix64(np.uint64(batch_seed) ^ mix64(np.uint64(first_game + game) + _GOLDEN))
        nums[S_POINTS] = 0
        nums[S_POINTS + 1] = 0
        start = np.int64(0)
        rounds = 0
        tricks = 0
        last_leader, lead_changes = -1, 0
        streak_leader, streak_start = -2, 0
        decided = 0  # real decisions this match (zooanalysis.decisions)
        while True:
            state = deal_round(
                rules, deck, template, ringer_deck, ringer_template, state, cards, nums, under
            )
            state = play_round(
                rules,
                codes,
                params,
                state,
                start,
                cards,
                nums,
                under,
                seat_events,
                out,
                masks,
                view,
                trick,
                spare,
                spare_nums,
                extra,
                decision_options,
            )
            if out[O_STATUS] != OK:
                return ILLEGAL
            decided += out[O_DECIDED]
            loser = out[O_LOSER]
            winner = 1 - (loser & 1)
            round_ends[
                loser, out[O_REASON], out[O_POSITION], min(out[O_TRICKS], TRICK_BINS - 1)
            ] += 1
            hits_hist[min(out[O_HITS], EVENT_BINS - 1)] += 1
            blocks_hist[min(out[O_BLOCKS], EVENT_BINS - 1)] += 1
            catches_hist[min(out[O_CATCHES], EVENT_BINS - 1)] += 1
            for team in range(2):
                won = 1 if team == winner else 0
                timeout_rounds[team, min(out[O_TIMEOUTS_0 + team], USE_BINS - 1), won] += 1
                allstar_rounds[team, min(out[O_ALLSTARS_0 + team], USE_BINS - 1), won] += 1
            round_starts[min(rounds, ROUND_BINS - 1), start, winner] += 1
            tricks += out[O_TRICKS]
            nums[S_POINTS + winner] += 1
            # trajectory: a score check after every round (the team standings)
            ahead = nums[S_POINTS] - nums[S_POINTS + 1]
            leader = -1 if ahead == 0 else (0 if ahead > 0 else 1)
            if leader != streak_leader:
                streak_leader = leader
                streak_start = rounds
            if leader >= 0:
                if last_leader >= 0 and leader != last_leader:
                    lead_changes += 1
                last_leader = leader
            rounds += 1
            start = loser
            if nums[S_POINTS + winner] >= match_points:
                break
        games[0] += 1
        team_wins[winner] += 1
        for seat in range(players):
            team_points = nums[S_POINTS + (seat & 1)]
            scores[seat] = team_points
            if (seat & 1) == winner:
                wins[seat] += 1
                if players == 2:  # with 4 players the partners share the win
                    sole_wins[seat] += 1
            points_sum[seat] += team_points
            points_squares[seat] += team_points * team_points
        rounds_hist[min(rounds, ROUND_BINS - 1)] += 1
        game_decisions[min(decided, GAME_BINS - 1)] += 1
        match_tricks_hist[min(tricks, match_tricks_hist.shape[0] - 1)] += 1
        lead_changes_hist[min(lead_changes, LEAD_CHANGE_BINS - 1)] += 1
        settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * streak_start) // rounds)] += 1
        # the partners are tied winners; the margin is in rounds
        tally_outcome(scores, players, np.bool_(False), win_ties, margins)
        if write_rows:
            for seat in range(players):
                row_points[game, seat] = nums[S_POINTS + (seat & 1)]
            row_rounds[game] = rounds
            row_tricks[game] = tricks
            row_winner[game] = winner
    return OK
