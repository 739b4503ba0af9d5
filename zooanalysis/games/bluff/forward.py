"""Bluff in Zoo's forward model: the whole game as one flat int64 array, in numba.

The search player (``zooanalysis.search``) plays games forward from any decision through
these functions; they follow the reference engine (``engine.py``) rule by rule and draw by
draw, so a game played here with the built-in strategies is the engine's game on the same
deal (``tests/test_bluff_forward.py``). The protocol (see ``zooanalysis/search/__init__.py``):

* ``rules_array(settings)``: the rule numbers and the deck, as the functions read them;
* ``new_state(rules)`` and ``deal(rules, state, stream)``: a fresh game, shuffled and dealt
  as the engine does;
* ``copy_state(state, out)``; ``actor(state)``, ``is_over(state)``;
* ``legal_moves(rules, state, out)`` (the engine's move types) and ``legal_claims``;
* ``apply_move(rules, state, move, index)``, ``apply_claim(rules, state, count, kind)``;
* ``determinise(rules, state, observer, stream, out, scratch)``: a state the observer cannot
  tell from ``state``: the cards it has not seen (other hands, the pile cards others placed,
  the draw pile) dealt afresh at random into the same places; what it reads is only what the
  observer knows, so the result does not depend on the hidden cards;
* ``consistent(rules, state, observer, codes, params, modelled, stream, work)``: whether a
  determinised world explains the standing claim under its claimant's modelled strategy
  (the search keeps drawing worlds until one does, a few tries at most);
* ``search_actions`` and ``apply_action``: the moves as the observer sees them (below);
* ``play_out(rules, state, codes, params, stream, work)``: play on with the built-in
  strategies (``strategies.choose_move``/``choose_claim``) to the end; ``model_step``: one
  decision so, returning it as a search action (how the search plays a modelled opponent);
* ``returns(rules, state, out)``: each seat's win share (1/k for k tied on fewest points).

Search actions (one int64 each): :data:`A_DOUBT`, :data:`A_DRAW`, :data:`A_NONE`,
:data:`A_HAND_HIDDEN` (another player's hand card: which one the observer cannot see, so it
is drawn uniformly from that hand), ``A_HAND + t`` (the observer's own card of type ``t``,
the first in hand order), and claims ``A_CLAIM + (count << 3 | kind)``. Claims searched are,
per kind, the smallest count that bests the standing claim and one more (the first claim of
a round is one animal of any kind): the full claim list (``legal_claims``) is the cap times
five, too wide to search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.bluff.cards import N_CARD_TYPES, N_KINDS
from zooanalysis.games.bluff.policy_math import count_kind, min_legal_count, new_workspace
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.games.bluff.strategies import (
    MOVE_DOUBT,
    MOVE_DRAW,
    MOVE_HAND,
    MOVE_NONE,
    TABLE_SIZE,
    choose_claim,
    choose_move,
)
from zooanalysis.rng import below, shuffle

fm = njit(cache=True, nogil=True, error_model="numpy")

# --- the rules array ---------------------------------------------------------------------------
R_PLAYERS, R_HAND, R_POINTS, R_CAP, R_DECK = range(5)
R_COUNTS = 5
"""Cards per type of the deck (N_CARD_TYPES entries), then the unshuffled deck."""
R_CARDS = R_COUNTS + N_CARD_TYPES

# --- the state array: a header, then the per-seat and per-card parts ---------------------------
S_ROUND, S_MOVES, S_CLAIM_COUNT, S_CLAIM_KIND, S_CLAIMANT, S_ACTOR, S_PHASE = range(7)
S_DRAW_TOP, S_PILE, S_END = 7, 8, 9
S_PREVIOUS_COUNT, S_PREVIOUS_KIND, S_CLAIM_PILE = 10, 11, 12
"""The claim the standing one bested (0, -1 before it) and the pile size it was made on."""
HEADER = 13
PHASE_MOVE, PHASE_CLAIM, PHASE_OVER = 0, 1, 2
END_POINTS, END_DECK = 0, 1

A_DOUBT, A_DRAW, A_NONE, A_HAND_HIDDEN = 0, 1, 2, 3
A_HAND = 8
A_CLAIM = 64
MAX_ACTIONS = 32


def rules_array(settings: BluffSettings) -> np.ndarray:
    """The rule numbers and the deck as the forward model reads them."""
    cards = settings.deck.cards().astype(np.int64)
    head = [settings.players, settings.hand_size, settings.points_to_end, settings.claim_cap,
            cards.shape[0]]
    return np.concatenate(
        [np.array(head, dtype=np.int64), settings.deck.type_counts(), cards]
    ).astype(np.int64)


@fm
def o_hand_len(rules):
    """Offset of the hand sizes (one per seat)."""
    return HEADER


@fm
def o_hands(rules):
    """Offset of the hands: seat ``p``'s cards at ``o_hands + p * hand_size``."""
    return HEADER + rules[R_PLAYERS]


@fm
def o_scores(rules):
    """Offset of the penalty points (one per seat)."""
    return o_hands(rules) + rules[R_PLAYERS] * rules[R_HAND]


@fm
def o_pile(rules):
    """Offset of the pile's cards, in the order placed."""
    return o_scores(rules) + rules[R_PLAYERS]


@fm
def o_owner(rules):
    """Offset of the seat that placed each pile card."""
    return o_pile(rules) + rules[R_DECK]


@fm
def o_revealed(rules):
    """Offset of the counts per card type turned face up by doubts."""
    return o_owner(rules) + rules[R_DECK]


@fm
def o_deck(rules):
    """Offset of the shuffled deck: the draw pile is ``deck[draw_top:]``."""
    return o_revealed(rules) + N_CARD_TYPES


def new_state(rules: np.ndarray) -> np.ndarray:
    """A zeroed state array for these rules."""
    return np.zeros(int(o_deck(rules) + rules[R_DECK]), dtype=np.int64)


@fm
def deal(rules, state, stream):
    """Start a game as ``engine.new_game``: shuffle the deck with ``stream``, deal hands."""
    players, hand_size, size = rules[R_PLAYERS], rules[R_HAND], rules[R_DECK]
    state[:] = 0
    deck = o_deck(rules)
    for i in range(size):
        state[deck + i] = rules[R_CARDS + i]
    shuffle(state[deck:deck + size], stream)
    for p in range(players):
        state[o_hand_len(rules) + p] = hand_size
        for i in range(hand_size):
            state[o_hands(rules) + p * hand_size + i] = state[deck + p * hand_size + i]
    state[S_DRAW_TOP] = players * hand_size
    state[S_CLAIM_KIND] = -1
    state[S_CLAIMANT] = -1
    state[S_PREVIOUS_KIND] = -1
    state[S_ACTOR] = 0
    state[S_PHASE] = PHASE_MOVE


@fm
def copy_state(state, out):
    """Copy ``state`` into ``out`` (same length)."""
    out[:] = state


@fm
def actor(state):
    """The seat to decide now, -1 once the game is over."""
    return -1 if state[S_PHASE] == PHASE_OVER else state[S_ACTOR]


@fm
def is_over(state):
    """Whether the game has ended."""
    return state[S_PHASE] == PHASE_OVER


@fm
def draw_size(rules, state):
    """Cards left in the draw pile."""
    return rules[R_DECK] - state[S_DRAW_TOP]


@fm
def can_raise(rules, state):
    """Whether any claim within the cap bests the standing one (``engine.can_raise``)."""
    return state[S_CLAIM_COUNT] < rules[R_CAP] or state[S_CLAIM_KIND] < N_KINDS - 1


@fm
def legal_moves(rules, state, out):
    """The move types the actor may make, in ``engine.legal_moves``'s order; returns how
    many were written to ``out``."""
    seat = state[S_ACTOR]
    has_hand = state[o_hand_len(rules) + seat] > 0
    has_draw = draw_size(rules, state) > 0
    n = 0
    if state[S_CLAIM_COUNT] == 0:
        if has_hand:
            out[n] = MOVE_HAND
            n += 1
        if has_draw:
            out[n] = MOVE_DRAW
            n += 1
        return n
    out[n] = MOVE_DOUBT
    n += 1
    if can_raise(rules, state):
        if has_hand:
            out[n] = MOVE_HAND
            n += 1
        if has_draw:
            out[n] = MOVE_DRAW
            n += 1
        out[n] = MOVE_NONE
        n += 1
    return n


@fm
def smallest_claim(rules, state, kind):
    """The smallest count of ``kind`` that bests the standing claim, 0 if none does."""
    return min_legal_count(state[S_CLAIM_COUNT], state[S_CLAIM_KIND], kind, rules[R_CAP])


@fm
def legal_claims(rules, state, out):
    """Every claim the actor may make now as ``count << 3 | kind`` rows of ``out``; returns
    how many (``engine.claim_options``)."""
    n = 0
    for kind in range(N_KINDS):
        low = smallest_claim(rules, state, kind)
        if low == 0:
            continue
        high = 1 if state[S_CLAIM_COUNT] == 0 else rules[R_CAP]
        for count in range(low, high + 1):
            out[n] = (count << 3) | kind
            n += 1
    return n


@fm
def pile_counts(rules, state, counts):
    """Counts per card type of the pile."""
    counts[:] = 0
    pile = o_pile(rules)
    for i in range(state[S_PILE]):
        counts[state[pile + i]] += 1


@fm
def refill_hands(rules, state):
    """``engine.refill_hands``: False (dealing nothing) when the draw pile is too short."""
    players, hand_size = rules[R_PLAYERS], rules[R_HAND]
    needed = 0
    for p in range(players):
        needed += hand_size - state[o_hand_len(rules) + p]
    if needed > draw_size(rules, state):
        return False
    start = state[S_ROUND] % players
    for offset in range(players):
        p = (start + offset) % players
        while state[o_hand_len(rules) + p] < hand_size:
            slot = o_hands(rules) + p * hand_size + state[o_hand_len(rules) + p]
            state[slot] = state[o_deck(rules) + state[S_DRAW_TOP]]
            state[S_DRAW_TOP] += 1
            state[o_hand_len(rules) + p] += 1
    return True


@fm
def resolve_doubt(rules, state, doubter, counts):
    """``engine.resolve_doubt``, then the end checks and the next round's refill."""
    players = rules[R_PLAYERS]
    pile_counts(rules, state, counts)
    found = count_kind(counts, state[S_CLAIM_KIND])
    loser = doubter if found >= state[S_CLAIM_COUNT] else state[S_CLAIMANT]
    state[o_scores(rules) + loser] += state[S_PILE]
    for t in range(N_CARD_TYPES):
        state[o_revealed(rules) + t] += counts[t]
    state[S_PILE] = 0
    state[S_CLAIM_COUNT] = 0
    state[S_CLAIM_KIND] = -1
    state[S_CLAIMANT] = -1
    worst = 0
    for p in range(players):
        worst = max(worst, state[o_scores(rules) + p])
    if worst >= rules[R_POINTS]:
        state[S_PHASE] = PHASE_OVER
        state[S_END] = END_POINTS
        return
    if not refill_hands(rules, state):
        state[S_PHASE] = PHASE_OVER
        state[S_END] = END_DECK
        return
    state[S_ROUND] += 1
    state[S_ACTOR] = state[S_ROUND] % players
    state[S_PHASE] = PHASE_MOVE


@fm
def apply_move(rules, state, move, index):
    """The actor makes ``move`` (``index``: the hand card for ``MOVE_HAND``); after a doubt
    the next round starts (or the game ends), otherwise the actor's claim comes next."""
    seat = state[S_ACTOR]
    state[S_MOVES] += 1
    if move == MOVE_DOUBT:
        counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
        resolve_doubt(rules, state, seat, counts)
        return
    card = -1
    if move == MOVE_HAND:
        hand = o_hands(rules) + seat * rules[R_HAND]
        last = state[o_hand_len(rules) + seat] - 1
        card = state[hand + index]
        state[hand + index] = state[hand + last]
        state[o_hand_len(rules) + seat] = last
    elif move == MOVE_DRAW:
        card = state[o_deck(rules) + state[S_DRAW_TOP]]
        state[S_DRAW_TOP] += 1
    if card >= 0:
        state[o_pile(rules) + state[S_PILE]] = card
        state[o_owner(rules) + state[S_PILE]] = seat
        state[S_PILE] += 1
    state[S_PHASE] = PHASE_CLAIM


@fm
def apply_claim(rules, state, count, kind):
    """The actor claims ``count`` animals of ``kind``; the next seat moves."""
    state[S_PREVIOUS_COUNT] = state[S_CLAIM_COUNT]
    state[S_PREVIOUS_KIND] = state[S_CLAIM_KIND]
    state[S_CLAIM_PILE] = state[S_PILE]
    state[S_CLAIM_COUNT] = count
    state[S_CLAIM_KIND] = kind
    state[S_CLAIMANT] = state[S_ACTOR]
    state[S_ACTOR] = (state[S_ACTOR] + 1) % rules[R_PLAYERS]
    state[S_PHASE] = PHASE_MOVE


@fm
def observe(rules, state, seat, known, unseen):
    """What ``seat`` knows of the cards (``engine.Observation``): ``known``, the pile cards it
    placed this round, and ``unseen``, the deck less its hand, ``known`` and revealed cards."""
    known[:] = 0
    for i in range(state[S_PILE]):
        if state[o_owner(rules) + i] == seat:
            known[state[o_pile(rules) + i]] += 1
    for t in range(N_CARD_TYPES):
        unseen[t] = rules[R_COUNTS + t] - state[o_revealed(rules) + t] - known[t]
    hand = o_hands(rules) + seat * rules[R_HAND]
    for i in range(state[o_hand_len(rules) + seat]):
        unseen[state[hand + i]] -= 1


@fm
def strategy_step(rules, state, codes, params, stream, work, known, unseen, moves, table):
    """The actor decides with its built-in strategy (``codes[seat]``) and its choice is
    applied: a move (a forced doubt without asking, as the engine) or a claim. Returns the
    choice as a search action (a hand card as ``A_HAND_HIDDEN``: others cannot see it).
    ``table`` is the strategies' public table, left empty: the forward model keeps no claim
    evidence, so ``stakes`` is not a strategy it plays (``parse_players`` refuses it beside
    a search seat); the other strategies do not read it."""
    seat = state[S_ACTOR]
    observe(rules, state, seat, known, unseen)
    hand = o_hands(rules) + seat * rules[R_HAND]
    hand_size = state[o_hand_len(rules) + seat]
    if state[S_PHASE] == PHASE_MOVE:
        n = legal_moves(rules, state, moves)
        if n == 1 and moves[0] == MOVE_DOUBT:
            apply_move(rules, state, np.int64(MOVE_DOUBT), np.int64(-1))
            return A_DOUBT
        move, index = choose_move(
            codes[seat], params[seat], state[hand:hand + rules[R_HAND]], hand_size, known,
            unseen, state[S_PILE], draw_size(rules, state), state[S_CLAIM_COUNT],
            state[S_CLAIM_KIND], rules[R_CAP], stream, work, table,
        )
        apply_move(rules, state, move, index)
        if move == MOVE_DOUBT:
            return A_DOUBT
        if move == MOVE_DRAW:
            return A_DRAW
        if move == MOVE_NONE:
            return A_NONE
        return A_HAND_HIDDEN
    count, kind = choose_claim(
        codes[seat], params[seat], known, unseen, state[S_PILE], state[S_CLAIM_COUNT],
        state[S_CLAIM_KIND], rules[R_CAP], stream, work, table,
    )
    apply_claim(rules, state, count, kind)
    return A_CLAIM + ((count << 3) | kind)


@fm
def model_step(rules, state, codes, params, stream, work):
    """:func:`strategy_step` for the search: the actor plays its strategy ``codes[actor]``;
    returns the search action it took, as others see it."""
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    moves = np.zeros(4, dtype=np.int64)
    table = np.zeros(TABLE_SIZE, dtype=np.int64)
    return strategy_step(rules, state, codes, params, stream, work, known, unseen, moves, table)


@fm
def play_out(rules, state, codes, params, stream, work):
    """Play on with every seat's built-in strategy until the game ends (``work``: a
    ``policy_math.new_workspace``)."""
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    moves = np.zeros(4, dtype=np.int64)
    table = np.zeros(TABLE_SIZE, dtype=np.int64)
    while state[S_PHASE] != PHASE_OVER:
        strategy_step(rules, state, codes, params, stream, work, known, unseen, moves, table)


@fm
def returns(rules, state, out):
    """Each seat's win share: 1/k for each of the k seats with the fewest penalty points."""
    players = rules[R_PLAYERS]
    best = state[o_scores(rules)]
    for p in range(players):
        best = min(best, state[o_scores(rules) + p])
    tied = 0
    for p in range(players):
        if state[o_scores(rules) + p] == best:
            tied += 1
    for p in range(players):
        out[p] = 1.0 / tied if state[o_scores(rules) + p] == best else 0.0


@fm
def determinise(rules, state, observer, stream, out, scratch):
    """``out`` = ``state`` with every card ``observer`` has not seen dealt afresh.

    The unseen cards are rebuilt from the observer's own information (the deck less its
    hand, its pile cards and the revealed cards), shuffled with ``stream`` and laid into the
    places it cannot see: the other hands (same sizes), the pile cards others placed (same
    places) and the draw pile. ``scratch`` holds at least a deck of int64.
    """
    out[:] = state
    players, hand_size = rules[R_PLAYERS], rules[R_HAND]
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    observe(rules, state, observer, known, unseen)
    n = 0
    for t in range(N_CARD_TYPES):
        for _ in range(unseen[t]):
            scratch[n] = t
            n += 1
    shuffle(scratch[:n], stream)
    k = 0
    for p in range(players):
        if p == observer:
            continue
        hand = o_hands(rules) + p * hand_size
        for i in range(state[o_hand_len(rules) + p]):
            out[hand + i] = scratch[k]
            k += 1
    for i in range(state[S_PILE]):
        if state[o_owner(rules) + i] != observer:
            out[o_pile(rules) + i] = scratch[k]
            k += 1
    for i in range(state[S_DRAW_TOP], rules[R_DECK]):
        out[o_deck(rules) + i] = scratch[k]
        k += 1


@fm
def consistent(rules, state, observer, codes, params, modelled, stream, work):
    """Whether a determinised ``state`` passes the standing claim's test: its claimant, if
    modelled (``modelled[seat]``: it plays ``codes[seat]``), is asked its claim afresh from
    what it knew when it claimed (its pile cards, its hand, the revealed cards: unchanged
    since, in this world) and must make the claim it made. Keeping only the worlds that pass
    (``determinise`` then this, again until one passes) samples the worlds in proportion to
    how likely the claimant was to claim so in each: the search reads the claim as evidence,
    as the claimant's strategy would have made it."""
    claimant = state[S_CLAIMANT]
    if claimant < 0 or claimant == observer or not modelled[claimant]:
        return True
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    observe(rules, state, claimant, known, unseen)
    count, kind = choose_claim(
        codes[claimant], params[claimant], known, unseen, state[S_CLAIM_PILE],
        state[S_PREVIOUS_COUNT], state[S_PREVIOUS_KIND], rules[R_CAP], stream, work,
        np.zeros(TABLE_SIZE, dtype=np.int64),
    )
    return count == state[S_CLAIM_COUNT] and kind == state[S_CLAIM_KIND]


@fm
def search_actions(rules, state, observer, out):
    """The actor's choices as ``observer`` sees them (module docstring); returns how many."""
    seat = state[S_ACTOR]
    n = 0
    if state[S_PHASE] == PHASE_MOVE:
        moves = np.zeros(4, dtype=np.int64)
        m = legal_moves(rules, state, moves)
        for j in range(m):
            move = moves[j]
            if move == MOVE_DOUBT:
                out[n] = A_DOUBT
                n += 1
            elif move == MOVE_DRAW:
                out[n] = A_DRAW
                n += 1
            elif move == MOVE_NONE:
                out[n] = A_NONE
                n += 1
            elif seat != observer:
                out[n] = A_HAND_HIDDEN
                n += 1
            else:
                hand = o_hands(rules) + seat * rules[R_HAND]
                size = state[o_hand_len(rules) + seat]
                for i in range(size):
                    card = state[hand + i]
                    first = True
                    for j2 in range(i):
                        if state[hand + j2] == card:
                            first = False
                    if first:
                        out[n] = A_HAND + card
                        n += 1
        return n
    for kind in range(N_KINDS):
        low = smallest_claim(rules, state, kind)
        if low == 0:
            continue
        out[n] = A_CLAIM + ((low << 3) | kind)
        n += 1
        if state[S_CLAIM_COUNT] > 0 and low + 1 <= rules[R_CAP]:
            out[n] = A_CLAIM + (((low + 1) << 3) | kind)
            n += 1
    return n


@fm
def apply_action(rules, state, action, stream):
    """Apply a search action (an unseen hand card is drawn uniformly from that hand)."""
    if action >= A_CLAIM:
        claim = action - A_CLAIM
        apply_claim(rules, state, claim >> 3, claim & 7)
    elif action == A_DOUBT:
        apply_move(rules, state, np.int64(MOVE_DOUBT), np.int64(-1))
    elif action == A_DRAW:
        apply_move(rules, state, np.int64(MOVE_DRAW), np.int64(-1))
    elif action == A_NONE:
        apply_move(rules, state, np.int64(MOVE_NONE), np.int64(-1))
    elif action == A_HAND_HIDDEN:
        size = state[o_hand_len(rules) + state[S_ACTOR]]
        apply_move(rules, state, np.int64(MOVE_HAND), below(stream, size))
    else:
        apply_move(rules, state, np.int64(MOVE_HAND), hand_index(rules, state, action - A_HAND))


@fm
def hand_index(rules, state, card):
    """The first position of ``card`` in the actor's hand, -1 if it holds none."""
    seat = state[S_ACTOR]
    hand = o_hands(rules) + seat * rules[R_HAND]
    for i in range(state[o_hand_len(rules) + seat]):
        if state[hand + i] == card:
            return i
    return -1


def rollout_arrays(rules: np.ndarray, code: int, params: np.ndarray) -> tuple:
    """Per-seat codes and parameters for play-outs where every seat plays strategy ``code``,
    plus the scratch arrays ``play_out`` needs."""
    players = int(rules[R_PLAYERS])
    codes = np.full(players, code, dtype=np.int64)
    table = np.tile(np.asarray(params, dtype=np.float64), (players, 1))
    return codes, table, new_workspace()
