"""Lucky Lions' forward model: the base game as one flat int64 array, in numba.

The search player (``zooanalysis.search``) plays games forward from any decision through
these functions. They follow the reference engine (``engine.py``) rule by rule and draw by
draw, so a game played here with the built-in strategies is the engine's game on the same
deal (``tests/test_lucky_lions_forward.py``). Only the base game is modelled: no variant
(reduced die, no shuffle, draw instead) and no expansion (Busy Zoo, Wild Animals);
:func:`unmodelled_rules` names those a setting switches on, and a lineup with a search seat
refuses them. The protocol (``zooanalysis/search/__init__.py``):

* ``rules_array(settings, pool)``: the rule numbers, the Animal Cards per type and the
  *pool*: the Zoo Cards the search deals an unseen Zoo deck from (:func:`zoo_pool`);
* ``deal(settings, rules, stream)``: a fresh game as ``engine.new_game`` deals it (the same
  draws); ``start(rules, state, rows, animals)``: a state from a deal (the Zoo Cards in deck
  order, the shuffled Animal Cards);
* ``copy_state(state, out)``; ``actor(state)``, ``is_over(state)``;
* ``apply_pick(rules, state, card, opponent, stream)`` (the turn: pick, refill, both roll,
  the card is awarded or the tie asks for a discarder), ``apply_discarder``,
  ``apply_discard(rules, state, position)``;
* ``determinise(rules, state, observer, stream, out, scratch)``: the Animal Cards the
  observer has not seen (the unknown rest of every other die, the others' secret discards,
  the draw pile) dealt afresh from its ``unseen`` counts, each die keeping one card of every
  type seen in it since its last discard; the face-down Zoo deck dealt from the pool. What it
  reads is only what the observer knows;
* ``consistent``: always True (no rejection test of the opponents' picks yet);
* ``search_actions`` / ``apply_action``: the decisions as the observer sees them (below);
* ``play_out``, ``model_step``: the built-in strategies (``strategies.choose_card``,
  ``choose_discarder``, ``choose_discard``, the reference engine's entries) play on;
* ``returns(rules, state, out)``: each seat's win share (1/k for k tied on most points).

Search actions (one int64 each): a turn's pick ``A_PICK + 8 * market index + opponent``; the
active player's choice of discarder ``A_DISCARDER + seat``; the discarder's card,
``A_DISCARD + type`` for the observer's own, :data:`A_DISCARD_HIDDEN` for another player's
(a secret discard: which card is drawn uniformly from its die).

The Zoo deck: the rulebook's deck is face down; under ``deck = "generated"`` even its cards
are a fresh print nobody has seen. The search deals the cards still in the deck from the pool
without replacement: the fixed deck's cards (a public list; the cards already out of the deck
are not taken out of the pool, as the observation does not list the cards won), or several
prints of the generator from seeds fixed in advance (the generator's distribution, never the
game's own print).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.lucky_lions.cards import N_ANIMALS
from zooanalysis.games.lucky_lions.decks import generate_zoo_cards
from zooanalysis.games.lucky_lions.flat import CARD_FIELDS, N_TYPES, POINTS, card_rows, pair_winners
from zooanalysis.games.lucky_lions.generator import generate_rows
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.strategies import (
    choose_card,
    choose_discard,
    choose_discarder,
    new_strategy_workspace,
)
from zooanalysis.rng import below, shuffle

fm = njit(cache=True, nogil=True, error_model="numpy")

UNMODELLED = ("reduced_die", "no_shuffle", "draw_instead", "busy_zoo", "wild_animals")
"""The settings (true/false) whose rules the forward model does not play."""
MAX_SEARCH_ACTIONS = 64
"""``zooanalysis.search.ismcts.MAX_ACTIONS``: a turn's picks (market size x opponents) must
fit."""
POOL_PRINTS = 8
"""Generator prints in the pool of a generated deck."""

# --- the rules array ---------------------------------------------------------------------------
R_PLAYERS, R_DIE, R_POINTS, R_MARKET, R_TURN_LIMIT, R_ZOO, R_ANIMALS, R_POOL = range(8)
R_COUNTS = 8
"""Animal Cards per type (N_TYPES entries), then the pool's Zoo Card rows."""
R_POOL_ROWS = R_COUNTS + N_TYPES

# --- the state array ---------------------------------------------------------------------------
S_ACTIVE, S_ACTOR, S_PHASE, S_TURNS, S_END, S_MARKET, S_DECK_TOP, S_DECK_END = range(8)
S_OUT, S_PILE, S_FIRST, S_SECOND, S_DISCARDER = range(8, 13)
"""Zoo Cards out of the game, the draw pile's size, the two tied battlers (the active player
first), the seat that discards."""
HEADER = 13
PHASE_PICK, PHASE_DISCARDER, PHASE_DISCARD, PHASE_OVER = range(4)
END_POINTS, END_DECK, END_TURN_LIMIT = range(3)
"""``engine.END_REASONS``' order."""

A_PICK = 0
A_DISCARDER = 1000
A_DISCARD = 2000
A_DISCARD_HIDDEN = 3000


def unmodelled_rules(settings: LuckySettings) -> list[str]:
    """The settings switched on whose rules the forward model does not play."""
    return [name for name in UNMODELLED if getattr(settings, name)]


def zoo_pool(settings: LuckySettings) -> np.ndarray:
    """The Zoo Cards the search deals an unseen deck from: the fixed deck's, or
    :data:`POOL_PRINTS` prints of the generator (seeds 1, 2, ...; not the game's print)."""
    if not settings.fresh_decks:
        return settings.fixed_rows()
    return np.concatenate(
        [card_rows(generate_zoo_cards(settings.generator, seed))
         for seed in range(1, POOL_PRINTS + 1)]
    )


def rules_array(settings: LuckySettings, pool: np.ndarray | None = None) -> np.ndarray:
    """The rule numbers, the Animal Cards per type and the pool (default :func:`zoo_pool`)
    as the forward model reads them."""
    if pool is None:
        pool = zoo_pool(settings)
    counts = settings.animal_type_counts()
    head = [settings.players, settings.die_size, settings.points_to_win, settings.market_size,
            settings.turn_limit, settings.zoo_cards, int(counts.sum()), pool.shape[0]]
    return np.concatenate(
        [np.array(head, dtype=np.int64), counts, pool.reshape(-1).astype(np.int64)]
    ).astype(np.int64)


@fm
def o_sizes(rules):
    """Offset of the dice's sizes (one per seat)."""
    return HEADER


@fm
def o_scores(rules):
    """Offset of the points (one per seat)."""
    return HEADER + rules[R_PLAYERS]


@fm
def o_won(rules):
    """Offset of the Zoo Cards won (one count per seat)."""
    return HEADER + 2 * rules[R_PLAYERS]


@fm
def o_dice(rules):
    """Offset of the dice: seat ``p``'s cards (types, in die order) at ``o_dice + p * die``."""
    return HEADER + 3 * rules[R_PLAYERS]


@fm
def o_seen(rules):
    """Offset of ``seen`` (players x N_TYPES): 1 if the seat showed the type since its last
    secret discard."""
    return o_dice(rules) + rules[R_PLAYERS] * rules[R_DIE]


@fm
def o_discarded(rules):
    """Offset of each seat's secret discards per type (players x N_TYPES)."""
    return o_seen(rules) + rules[R_PLAYERS] * N_TYPES


@fm
def o_pile(rules):
    """Offset of the face-down Animal Cards (the draw pile, ``S_PILE`` of them)."""
    return o_discarded(rules) + rules[R_PLAYERS] * N_TYPES


@fm
def o_market(rules):
    """Offset of the face-up Zoo Cards (``S_MARKET`` rows of CARD_FIELDS, in market order)."""
    return o_pile(rules) + rules[R_ANIMALS]


@fm
def o_deck(rules):
    """Offset of the Zoo deck's rows: the face-down deck is rows ``S_DECK_TOP`` to
    ``S_DECK_END``, top first."""
    return o_market(rules) + rules[R_MARKET] * CARD_FIELDS


@fm
def o_card(rules):
    """Offset of the battle's Zoo Card (one row)."""
    return o_deck(rules) + rules[R_ZOO] * CARD_FIELDS


def new_state(rules: np.ndarray) -> np.ndarray:
    """A zeroed state array for these rules."""
    return np.zeros(int(o_card(rules) + CARD_FIELDS), dtype=np.int64)


@fm
def start(rules, state, rows, animals):
    """A fresh game from a deal: ``rows``, the Zoo Cards in deck order (the first
    ``market_size`` go face up), ``animals``, the shuffled Animal Cards (each seat in turn
    gets ``die_size``, the rest is the draw pile); seat 0's turn."""
    players, die = rules[R_PLAYERS], rules[R_DIE]
    state[:] = 0
    zoo = rows.shape[0]
    face_up = min(zoo, rules[R_MARKET])
    for i in range(zoo):
        base = o_market(rules) + i * CARD_FIELDS if i < face_up else (
            o_deck(rules) + (i - face_up) * CARD_FIELDS)
        for f in range(CARD_FIELDS):
            state[base + f] = rows[i, f]
    state[S_MARKET] = face_up
    state[S_DECK_END] = zoo - face_up
    for p in range(players):
        state[o_sizes(rules) + p] = die
        for i in range(die):
            state[o_dice(rules) + p * die + i] = animals[p * die + i]
    rest = animals.shape[0] - players * die
    for i in range(rest):
        state[o_pile(rules) + i] = animals[players * die + i]
    state[S_PILE] = rest
    state[S_FIRST] = -1
    state[S_SECOND] = -1
    state[S_DISCARDER] = -1
    begin_turn(rules, state)


def deal(settings: LuckySettings, rules: np.ndarray, stream: np.ndarray) -> np.ndarray:
    """A new game's state, dealt with ``stream`` exactly as ``engine.new_game`` deals it."""
    rows = generate_rows(settings.tables, stream) if settings.fresh_decks else settings.fixed_rows()
    order = np.arange(rows.shape[0], dtype=np.int64)
    shuffle(order, stream)
    animals = settings.animal_cards()
    shuffle(animals, stream)
    state = new_state(rules)
    start(rules, state, np.ascontiguousarray(rows[order]), animals)
    return state


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
def begin_turn(rules, state):
    """The active player's turn, unless the market is empty or the turn limit is reached."""
    if state[S_MARKET] == 0:
        state[S_PHASE] = PHASE_OVER
        state[S_END] = END_DECK
    elif state[S_TURNS] >= rules[R_TURN_LIMIT]:
        state[S_PHASE] = PHASE_OVER
        state[S_END] = END_TURN_LIMIT
    else:
        state[S_PHASE] = PHASE_PICK
        state[S_ACTOR] = state[S_ACTIVE]


@fm
def end_turn(rules, state):
    """The turn is over: the game ends at ``points_to_win``, else the next seat's turn."""
    state[S_TURNS] += 1
    state[S_FIRST] = -1
    state[S_SECOND] = -1
    state[S_DISCARDER] = -1
    for p in range(rules[R_PLAYERS]):
        if state[o_scores(rules) + p] >= rules[R_POINTS]:
            state[S_PHASE] = PHASE_OVER
            state[S_END] = END_POINTS
            return
    state[S_ACTIVE] = (state[S_ACTIVE] + 1) % rules[R_PLAYERS]
    begin_turn(rules, state)


@fm
def award(rules, state, seat):
    """``seat`` takes the battle's Zoo Card and its points."""
    state[o_scores(rules) + seat] += state[o_card(rules) + POINTS]
    state[o_won(rules) + seat] += 1


@fm
def roll(rules, state, seat, stream):
    """``engine.roll`` of a whole die: a uniformly random card, shown to everyone."""
    position = below(stream, state[o_sizes(rules) + seat])
    card = state[o_dice(rules) + seat * rules[R_DIE] + position]
    state[o_seen(rules) + seat * N_TYPES + card] = 1
    return card


@fm
def apply_pick(rules, state, pick, opponent, stream):
    """The active player takes market card ``pick`` and challenges ``opponent``: the market
    is refilled, both roll, and the sole winner takes the card; a tie goes to the discard
    (``engine.settle_tie``): nobody can discard, the card leaves the game; one can, it
    discards; both can, the active player chooses who."""
    active = state[S_ACTIVE]
    market, card = o_market(rules), o_card(rules)
    for f in range(CARD_FIELDS):
        state[card + f] = state[market + pick * CARD_FIELDS + f]
    for i in range((pick + 1) * CARD_FIELDS, state[S_MARKET] * CARD_FIELDS):
        state[market + i - CARD_FIELDS] = state[market + i]
    state[S_MARKET] -= 1
    while state[S_MARKET] < rules[R_MARKET] and state[S_DECK_TOP] < state[S_DECK_END]:
        source = o_deck(rules) + state[S_DECK_TOP] * CARD_FIELDS
        target = market + state[S_MARKET] * CARD_FIELDS
        for f in range(CARD_FIELDS):
            state[target + f] = state[source + f]
        state[S_DECK_TOP] += 1
        state[S_MARKET] += 1
    mine = roll(rules, state, active, stream)
    theirs = roll(rules, state, opponent, stream)
    win_a, win_b = pair_winners(state[card:card + CARD_FIELDS], mine % N_ANIMALS,
                                theirs % N_ANIMALS)
    if win_a != win_b:
        award(rules, state, active if win_a else opponent)
        end_turn(rules, state)
        return
    can_first = state[o_sizes(rules) + active] > 1
    can_second = state[o_sizes(rules) + opponent] > 1
    state[S_FIRST] = active
    state[S_SECOND] = opponent
    if not can_first and not can_second:
        state[S_OUT] += 1
        end_turn(rules, state)
    elif can_first and can_second:
        state[S_PHASE] = PHASE_DISCARDER
        state[S_ACTOR] = active
    else:
        apply_discarder(rules, state, active if can_first else opponent)


@fm
def apply_discarder(rules, state, seat):
    """``seat`` (one of the two tied battlers) must discard; the other will get the card."""
    state[S_DISCARDER] = seat
    state[S_PHASE] = PHASE_DISCARD
    state[S_ACTOR] = seat


@fm
def apply_discard(rules, state, position):
    """The discarder discards its die's card at ``position`` in secret (nobody's memory of
    its die survives: ``seen`` cleared); the other tied battler takes the card."""
    seat = state[S_DISCARDER]
    die = o_dice(rules) + seat * rules[R_DIE]
    size = state[o_sizes(rules) + seat]
    card = state[die + position]
    for i in range(position, size - 1):
        state[die + i] = state[die + i + 1]
    state[o_sizes(rules) + seat] = size - 1
    state[o_discarded(rules) + seat * N_TYPES + card] += 1
    for t in range(N_TYPES):
        state[o_seen(rules) + seat * N_TYPES + t] = 0
    award(rules, state, state[S_SECOND] if seat == state[S_FIRST] else state[S_FIRST])
    end_turn(rules, state)


@fm
def type_position(rules, state, seat, card):
    """The first position of type ``card`` in ``seat``'s die, -1 if none."""
    die = o_dice(rules) + seat * rules[R_DIE]
    for i in range(state[o_sizes(rules) + seat]):
        if state[die + i] == card:
            return i
    return -1


@fm
def observe(rules, state, seat, my_die, unseen):
    """``engine.observe``'s private part: ``my_die`` (counts per type) and ``unseen``: all
    Animal Cards less its die, its discards and one per type seen in each other die."""
    players = rules[R_PLAYERS]
    for t in range(N_TYPES):
        my_die[t] = 0
    die = o_dice(rules) + seat * rules[R_DIE]
    for i in range(state[o_sizes(rules) + seat]):
        my_die[state[die + i]] += 1
    for t in range(N_TYPES):
        left = rules[R_COUNTS + t] - my_die[t] - state[o_discarded(rules) + seat * N_TYPES + t]
        for q in range(players):
            if q != seat:
                left -= state[o_seen(rules) + q * N_TYPES + t]
        unseen[t] = max(left, 0)


@fm
def strategy_step(rules, state, codes, params, stream, work, my_die, unseen, scratch):
    """The actor decides with its built-in strategy (``codes[actor]``), as the reference
    engine asks it, and the choice is applied. Returns the choice as a search action (a
    discard as :data:`A_DISCARD_HIDDEN`: others cannot see it)."""
    players = rules[R_PLAYERS]
    seat = state[S_ACTOR]
    observe(rules, state, seat, my_die, unseen)
    sizes = state[o_sizes(rules):o_sizes(rules) + players]
    scores = state[o_scores(rules):o_scores(rules) + players]
    seen = state[o_seen(rules):o_seen(rules) + players * N_TYPES].reshape((players, N_TYPES))
    market = state[o_market(rules):o_market(rules) + rules[R_MARKET] * CARD_FIELDS].reshape(
        (rules[R_MARKET], CARD_FIELDS))
    if state[S_PHASE] == PHASE_PICK:
        pick, opponent = choose_card(
            codes[seat], params[seat], seat, market, state[S_MARKET], my_die, sizes, scores,
            seen, unseen, False, False, stream, work,
        )
        apply_pick(rules, state, pick, opponent, stream)
        return A_PICK + 8 * pick + opponent
    if state[S_PHASE] == PHASE_DISCARDER:
        discarder = choose_discarder(
            codes[seat], seat, state[S_FIRST], state[S_SECOND], scores, stream
        )
        apply_discarder(rules, state, discarder)
        return A_DISCARDER + discarder
    card = choose_discard(
        codes[seat], my_die, market, state[S_MARKET], unseen, False, stream, scratch
    )
    apply_discard(rules, state, type_position(rules, state, seat, card))
    return A_DISCARD_HIDDEN


@fm
def model_step(rules, state, codes, params, stream, work):
    """:func:`strategy_step` for the search: the actor plays ``codes[actor]``; returns the
    search action it took, as others see it."""
    my_die = np.zeros(N_TYPES, dtype=np.int64)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    scratch = np.zeros(2 * N_TYPES)
    return strategy_step(rules, state, codes, params, stream, work, my_die, unseen, scratch)


@fm
def play_out(rules, state, codes, params, stream, work):
    """Play on with every seat's built-in strategy until the game ends (``work``: a
    ``strategies.new_strategy_workspace``)."""
    my_die = np.zeros(N_TYPES, dtype=np.int64)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    scratch = np.zeros(2 * N_TYPES)
    while state[S_PHASE] != PHASE_OVER:
        strategy_step(rules, state, codes, params, stream, work, my_die, unseen, scratch)


@fm
def returns(rules, state, out):
    """Each seat's win share: 1/k for each of the k seats with the most points."""
    players = rules[R_PLAYERS]
    best = state[o_scores(rules)]
    for p in range(players):
        best = max(best, state[o_scores(rules) + p])
    tied = 0
    for p in range(players):
        if state[o_scores(rules) + p] == best:
            tied += 1
    for p in range(players):
        out[p] = 1.0 / tied if state[o_scores(rules) + p] == best else 0.0


@fm
def determinise(rules, state, observer, stream, out, scratch):
    """``out`` = ``state`` with everything ``observer`` has not seen dealt afresh.

    The unseen Animal Cards are rebuilt from the observer's ``unseen`` counts, shuffled with
    ``stream`` and laid into the places it cannot see: each other die (same size) keeps one
    card of each type seen in it and gets the rest from the shuffle, then the others' secret
    discards (same number per seat), then the draw pile. The face-down Zoo deck (same size)
    is dealt from the pool without replacement. ``scratch``: at least ``R_ANIMALS`` int64.
    """
    out[:] = state
    players, die_size = rules[R_PLAYERS], rules[R_DIE]
    my_die = np.zeros(N_TYPES, dtype=np.int64)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    observe(rules, state, observer, my_die, unseen)
    n = 0
    for t in range(N_TYPES):
        for _ in range(unseen[t]):
            scratch[n] = t
            n += 1
    shuffle(scratch[:n], stream)
    k = 0
    for q in range(players):
        if q == observer:
            continue
        die = o_dice(rules) + q * die_size
        i = 0
        for t in range(N_TYPES):
            if state[o_seen(rules) + q * N_TYPES + t] == 1:
                out[die + i] = t
                i += 1
        while i < state[o_sizes(rules) + q]:
            out[die + i] = scratch[k]
            k += 1
            i += 1
    for q in range(players):
        if q == observer:
            continue
        row = o_discarded(rules) + q * N_TYPES
        discards = 0
        for t in range(N_TYPES):
            discards += state[row + t]
            out[row + t] = 0
        for _ in range(discards):
            out[row + scratch[k]] += 1
            k += 1
    for i in range(state[S_PILE]):
        out[o_pile(rules) + i] = scratch[k]
        k += 1
    pool = rules[R_POOL]
    order = np.arange(pool)
    for i in range(state[S_DECK_END] - state[S_DECK_TOP]):
        j = i + below(stream, pool - i)
        chosen = order[j]
        order[j] = order[i]
        order[i] = chosen
        source = R_POOL_ROWS + chosen * CARD_FIELDS
        target = o_deck(rules) + (state[S_DECK_TOP] + i) * CARD_FIELDS
        for f in range(CARD_FIELDS):
            out[target + f] = rules[source + f]


@fm
def consistent(rules, state, observer, codes, params, modelled, stream, work):
    """Every determinised world is kept: the forward model does not yet test the opponents'
    picks as evidence of their dice."""
    return True


@fm
def search_actions(rules, state, observer, out):
    """The actor's choices as ``observer`` sees them (module docstring); returns how many."""
    seat = state[S_ACTOR]
    n = 0
    if state[S_PHASE] == PHASE_PICK:
        for c in range(state[S_MARKET]):
            for q in range(rules[R_PLAYERS]):
                if q != seat:
                    out[n] = A_PICK + 8 * c + q
                    n += 1
        return n
    if state[S_PHASE] == PHASE_DISCARDER:
        out[0] = A_DISCARDER + state[S_FIRST]
        out[1] = A_DISCARDER + state[S_SECOND]
        return 2
    if seat != observer:
        out[0] = A_DISCARD_HIDDEN
        return 1
    die = o_dice(rules) + seat * rules[R_DIE]
    for t in range(N_TYPES):
        for i in range(state[o_sizes(rules) + seat]):
            if state[die + i] == t:
                out[n] = A_DISCARD + t
                n += 1
                break
    return n


@fm
def apply_action(rules, state, action, stream):
    """Apply a search action (a hidden discard is drawn uniformly from the die)."""
    if action >= A_DISCARD_HIDDEN:
        seat = state[S_DISCARDER]
        apply_discard(rules, state, below(stream, state[o_sizes(rules) + seat]))
    elif action >= A_DISCARD:
        apply_discard(rules, state,
                      type_position(rules, state, state[S_DISCARDER], action - A_DISCARD))
    elif action >= A_DISCARDER:
        apply_discarder(rules, state, action - A_DISCARDER)
    else:
        apply_pick(rules, state, (action - A_PICK) // 8, (action - A_PICK) % 8, stream)


def rollout_arrays(rules: np.ndarray, code: int, params: np.ndarray) -> tuple:
    """Per-seat codes and parameters for play-outs where every seat plays strategy ``code``,
    plus the work arrays ``play_out`` needs."""
    players = int(rules[R_PLAYERS])
    codes = np.full(players, code, dtype=np.int64)
    table = np.tile(np.asarray(params, dtype=np.float64), (players, 1))
    return codes, table, new_strategy_workspace()
