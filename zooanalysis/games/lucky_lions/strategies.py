"""Lucky Lions' built-in strategies, compiled once and called by both engines.

Every decision gets the deciding player's *view* and nothing else:

* ``my_die``: how many cards of each Animal Card type its own die holds (not their order);
* ``sizes``, ``scores``: every player's die size and points (public);
* ``seen``: ``seen[q, t]`` is 1 if player ``q`` revealed a card of type ``t`` since its last
  secret discard (every roll is public, so everyone shares this);
* ``unseen``: how many cards of each type this player has never seen (all Animal Cards less
  its own die, its own discards, the public discards and one of each type seen in another
  player's die);
* the face-up Zoo Cards, the battle's Zoo Card and the battlers, as the decision needs.

From ``seen`` and ``unseen`` a strategy estimates what another player shows: each of the
``sizes[q] - sum(seen[q])`` unknown cards is of type ``t`` with chance
``unseen[t] / sum(unseen)``, so ``q`` shows ``t`` with chance
``(seen[q, t] + unknown * unseen[t] / sum(unseen)) / sizes[q]``.

Strategies: ``random`` (a uniformly random legal choice everywhere), ``greedy`` (maximises its
chance of getting the Zoo Card times its points from those estimates, keeps its strongest
cards) and ``equilibrium`` (``greedy``, but in the reduced-die variant and on die_split cards
it plays the equilibrium mix of the k-card selection game, solved by linear programming).
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit, objmode
from numba.core.errors import NumbaWarning

from zooanalysis.games.lucky_lions.cards import N_ANIMALS
from zooanalysis.games.lucky_lions.flat import (
    DOLPHIN,
    N_TYPES,
    PEOPLE,
    POINTS,
    animal_of,
    card_key,
    duel_key,
    is_wild,
    mark_winners,
)
from zooanalysis.rng import below, uniform
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

# The equilibrium chooser calls scipy from compiled code (objmode): it holds the GIL for that
# call only, which is what this compile-time warning says.
warnings.filterwarnings("ignore", message="Code running in object mode", category=NumbaWarning)

RANDOM = 0
GREEDY = 1
EQUILIBRIUM = 2
MAX_PARAMS = 2

_DRAW_BELOW = ParamSpec(
    "draw_below",
    5,
    0,
    50,
    "draw-instead variant: draw Animal Cards instead of a Zoo Card while its die has fewer "
    "cards than this (unless the card would win the game)",
    integer=True,
)

STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random",
        "Uniformly random legal choices: Zoo Card, opponent, who discards on a tie, which "
        "card to discard, which cards to keep, every expansion choice.",
    ),
    "greedy": StrategyInfo(
        "greedy",
        "Picks the Zoo Card and opponent with the most expected points, from exact odds "
        "against what it knows of each die (cards seen revealed, the unseen rest); among "
        "opponents worth the same it prefers the leader (most points), then draws uniformly "
        "(one draw), so no seat is targeted for where it sits; on a tie "
        "makes the opponent discard; discards its weakest card for the cards in the market; "
        "keeps its strongest cards in the reduced-die variant.",
        (_DRAW_BELOW,),
    ),
    "equilibrium": StrategyInfo(
        "equilibrium",
        "As greedy, but chooses the reduced die (variant, or a die_split card) as a zero-sum "
        "matrix game against the opponent's estimated die, solved by linear programming "
        "(scipy), and plays its equilibrium mix.",
        (_DRAW_BELOW,),
    ),
}

STRATEGY_CODES = {"random": RANDOM, "greedy": GREEDY, "equilibrium": EQUILIBRIUM}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


# --- what a player may estimate ----------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def estimate_mix(seen: np.ndarray, unseen: np.ndarray, size: np.int64, out: np.ndarray) -> None:
    """``out[t]``: the chance the player with ``seen`` row and die ``size`` shows type ``t``."""
    known = 0
    for t in range(N_TYPES):
        known += seen[t]
    unknown = max(size - known, 0)
    pool = 0
    for t in range(N_TYPES):
        pool += unseen[t]
    total = 0.0
    for t in range(N_TYPES):
        out[t] = seen[t] + (unknown * unseen[t] / pool if pool > 0 else 0.0)
        total += out[t]
    if total <= 0.0:
        for t in range(N_TYPES):
            out[t] = 1.0 / N_ANIMALS if t < N_ANIMALS else 0.0
        return
    for t in range(N_TYPES):
        out[t] /= total


@njit(cache=True, nogil=True, error_model="numpy")
def estimate_die(seen: np.ndarray, unseen: np.ndarray, size: np.int64, out: np.ndarray) -> None:
    """``out``: a likely die of ``size`` cards: the seen types, the unknown rest in proportion
    to ``unseen`` (largest remainders, ties to the lower type)."""
    share = np.zeros(N_TYPES)
    estimate_mix(seen, unseen, size, share)
    placed = 0
    for t in range(N_TYPES):
        out[t] = np.int64(np.floor(share[t] * size + 1e-9))
        placed += out[t]
    while placed < size:
        best = 0
        best_rest = -1.0
        for t in range(N_TYPES):
            rest = share[t] * size - out[t]
            if rest > best_rest + 1e-12:
                best = t
                best_rest = rest
        out[best] += 1
        placed += 1


@njit(cache=True, nogil=True, error_model="numpy")
def _gain_from_duel(
    result: np.int64,
    mine: np.int64,
    theirs: np.int64,
    wild_powers: bool,
    i_am_active: bool,
    i_can_discard: bool,
    they_can_discard: bool,
) -> np.int64:
    """:func:`pair_gain` once the duel's ``result`` is known."""
    if wild_powers and (is_wild(mine, DOLPHIN) or is_wild(theirs, DOLPHIN)):
        return 0
    if result != 0:
        return result
    if i_am_active:
        return 1 if they_can_discard else (-1 if i_can_discard else 0)
    return -1 if i_can_discard else (1 if they_can_discard else 0)


@njit(cache=True, nogil=True, error_model="numpy")
def pair_gain(
    card: np.ndarray,
    mine: np.int64,
    theirs: np.int64,
    wild_powers: bool,
    i_am_active: bool,
    i_can_discard: bool,
    they_can_discard: bool,
) -> np.int64:
    """+1 if I end up with the Zoo Card, -1 if they do, 0 if nobody (two-player battle).

    A tie goes to the active player unless only it can discard; a wild dolphin voids it.
    """
    if wild_powers and (is_wild(mine, DOLPHIN) or is_wild(theirs, DOLPHIN)):
        return 0
    n, positions, special, x, y = card_key(card)
    result = duel_key(n, positions, special, x, y, mine, theirs, wild_powers)
    return _gain_from_duel(
        result, mine, theirs, wild_powers, i_am_active, i_can_discard, they_can_discard
    )


@njit(cache=True, nogil=True, error_model="numpy")
def chance_to_get(
    card: np.ndarray,
    my_mix: np.ndarray,
    their_mix: np.ndarray,
    wild_powers: bool,
    i_am_active: bool,
    i_can_discard: bool,
    they_can_discard: bool,
) -> float:
    """The chance that I end up with the card in a two-player battle, exactly for the mixes
    (the card is read once into scalars: the pair loop passes no arrays)."""
    n, positions, special, x, y = card_key(card)
    chance = 0.0
    for a in range(N_TYPES):
        if my_mix[a] == 0.0:
            continue
        for b in range(N_TYPES):
            if their_mix[b] == 0.0:
                continue
            gain = 0
            if not (wild_powers and (is_wild(a, DOLPHIN) or is_wild(b, DOLPHIN))):
                result = duel_key(n, positions, special, x, y, a, b, wild_powers)
                gain = _gain_from_duel(
                    result, a, b, wild_powers, i_am_active, i_can_discard, they_can_discard
                )
            if gain > 0:
                chance += my_mix[a] * their_mix[b]
    return chance


@njit(cache=True, nogil=True, error_model="numpy")
def chance_among_winners(
    card: np.ndarray, mixes: np.ndarray, rollers: np.ndarray, count: np.int64, me: np.int64
) -> float:
    """The chance that roller ``me`` (an index into ``rollers``) is among the winners when
    every roller shows an animal by its mix (wild powers ignored): exact enumeration."""
    animal_mix = np.zeros((count, N_ANIMALS))
    for r in range(count):
        for t in range(N_TYPES):
            animal_mix[r, animal_of(t)] += mixes[rollers[r], t]
    animals = np.zeros(count, dtype=np.int64)
    winners = np.zeros(count, dtype=np.int64)
    combos = N_ANIMALS**count
    chance = 0.0
    for code in range(combos):
        rest = code
        weight = 1.0
        for r in range(count):
            animals[r] = rest % N_ANIMALS
            rest //= N_ANIMALS
            weight *= animal_mix[r, animals[r]]
        if weight == 0.0:
            continue
        mark_winners(card, animals, count, winners)
        if winners[me]:
            chance += weight
    return chance


@njit(cache=True, nogil=True, error_model="numpy")
def _die_mix(my_die: np.ndarray, out: np.ndarray) -> None:
    total = 0
    for t in range(N_TYPES):
        total += my_die[t]
    for t in range(N_TYPES):
        out[t] = my_die[t] / total if total > 0 else 0.0


@njit(cache=True, nogil=True, error_model="numpy")
def _all_mixes(
    me: np.int64, my_die: np.ndarray, sizes: np.ndarray, seen: np.ndarray, unseen: np.ndarray
) -> np.ndarray:
    players = sizes.shape[0]
    mixes = np.zeros((players, N_TYPES))
    for q in range(players):
        if q == me:
            _die_mix(my_die, mixes[q])
        else:
            estimate_mix(seen[q], unseen, sizes[q], mixes[q])
    return mixes


@njit(cache=True, nogil=True, error_model="numpy")
def card_value(
    card: np.ndarray,
    me: np.int64,
    opponent: np.int64,
    mixes: np.ndarray,
    sizes: np.ndarray,
    everyone_rolls: bool,
    wild_powers: bool,
) -> float:
    """Expected points of taking ``card`` as the active player against ``opponent`` (or, when
    ``everyone_rolls``, against all players)."""
    if everyone_rolls:
        players = sizes.shape[0]
        rollers = np.empty(players, dtype=np.int64)
        rollers[0] = me
        count = 1
        for q in range(players):
            if q != me:
                rollers[count] = q
                count += 1
        return card[POINTS] * chance_among_winners(card, mixes, rollers, count, 0)
    chance = chance_to_get(
        card, mixes[me], mixes[opponent], wild_powers, True, sizes[me] > 1, sizes[opponent] > 1
    )
    return card[POINTS] * chance


# --- random: small scalar functions (the kernel calls them directly, no arrays to count) ----


@njit(cache=True, nogil=True, error_model="numpy")
def random_card(
    me: np.int64, players: np.int64, market_count: np.int64, stream: np.ndarray
) -> tuple[np.int64, np.int64]:
    """``random``'s (market index, opponent): a uniform card, then a uniform other player."""
    pick = below(stream, market_count)
    opponent = below(stream, players - 1)
    if opponent >= me:
        opponent += 1
    return pick, opponent


@njit(cache=True, nogil=True, error_model="numpy")
def random_other(me: np.int64, players: np.int64, stream: np.ndarray) -> np.int64:
    """``random``'s player_exclude choice: a uniform other player."""
    q = below(stream, players - 1)
    return q + 1 if q >= me else q


@njit(cache=True, nogil=True, error_model="numpy")
def random_subset(
    my_die: np.ndarray, k: np.int64, stream: np.ndarray, out: np.ndarray, cards: np.ndarray
) -> None:
    """``random``'s reduced die: a uniformly random ``k``-card subset of the die (counts per
    type in ``my_die``) into ``out``; ``cards`` is scratch of at least the die's size."""
    total = 0
    for t in range(N_TYPES):
        for _ in range(my_die[t]):
            cards[total] = t
            total += 1
        out[t] = 0
    # partial Fisher-Yates from the front
    for i in range(k):
        j = i + below(stream, total - i)
        a = cards[i]
        cards[i] = cards[j]
        cards[j] = a
        out[cards[i]] += 1


@njit(cache=True, nogil=True, error_model="numpy")
def random_coin(stream: np.ndarray) -> bool:
    """``random``'s yes/no choices (double_roll keep, wild fox reroll, draw instead): a fair
    coin, True for 1."""
    return below(stream, 2) == 1


@njit(cache=True, nogil=True, error_model="numpy")
def random_index(count: np.int64, stream: np.ndarray) -> np.int64:
    """``random``'s pick among ``count`` options (market card to switch to, winner to
    receive the card)."""
    return below(stream, count)


@njit(cache=True, nogil=True, error_model="numpy")
def random_discarder(first: np.int64, second: np.int64, stream: np.ndarray) -> np.int64:
    """``random``'s tie decision: a fair coin between the two tied battlers."""
    return first if below(stream, 2) == 0 else second


@njit(cache=True, nogil=True, error_model="numpy")
def random_discard(my_die: np.ndarray, stream: np.ndarray) -> np.int64:
    """``random``'s discard: the type of a uniformly random card of the die."""
    total = 0
    for t in range(N_TYPES):
        total += my_die[t]
    pick = below(stream, total)
    for t in range(N_TYPES):
        if pick < my_die[t]:
            return t
        pick -= my_die[t]
    return -1


# --- decisions ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def choose_card(
    code: np.int64,
    params: np.ndarray,
    me: np.int64,
    market: np.ndarray,
    market_count: np.int64,
    my_die: np.ndarray,
    sizes: np.ndarray,
    scores: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    busy_zoo: bool,
    wild_powers: bool,
    stream: np.ndarray,
) -> tuple[np.int64, np.int64]:
    """(market index, opponent) for the active player's turn.

    ``greedy`` and ``equilibrium`` rate every (Zoo Card, opponent) pair by its expected
    points, then by the opponent's score (deny the leader); among pairs rated equal the
    earlier card wins, and the opponent is drawn uniformly among those rated equal for it
    (one random draw, only when there is a tie), so no seat is targeted for where it sits.
    """
    players = sizes.shape[0]
    if code == RANDOM:
        return random_card(me, players, market_count, stream)
    mixes = _all_mixes(me, my_die, sizes, seen, unseen)
    best_value = -1.0
    best_score = -1
    best_card = 0
    tied = np.int64(1) << ((me + 1) % players)  # the opponents rated best, as a bit mask
    for c in range(market_count):
        card = market[c]
        everyone = busy_zoo and card[PEOPLE] == 1
        for step in range(1, players):
            q = (me + step) % players
            value = card_value(card, me, q, mixes, sizes, everyone, wild_powers)
            if value > best_value + 1e-12 or (
                value > best_value - 1e-12 and scores[q] > best_score
            ):
                best_value = value
                best_score = scores[q]
                best_card = c
                tied = np.int64(1) << q
            elif value > best_value - 1e-12 and scores[q] == best_score and c == best_card:
                tied |= np.int64(1) << q
            if everyone:
                break  # everyone rolls: the opponent does not matter
    return best_card, _uniform_member(tied, players, stream)


@njit(cache=True, nogil=True, error_model="numpy")
def _uniform_member(mask: np.int64, players: np.int64, stream: np.ndarray) -> np.int64:
    """A uniformly drawn seat of the bit ``mask`` (one draw, none if it holds one seat)."""
    count = 0
    for q in range(players):
        if (mask >> q) & 1:
            count += 1
    pick = below(stream, count) if count > 1 else 0
    for q in range(players):
        if (mask >> q) & 1:
            if pick == 0:
                return q
            pick -= 1
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def choose_excluded(
    code: np.int64, me: np.int64, scores: np.ndarray, stream: np.ndarray
) -> np.int64:
    """player_exclude: the other player who does not roll."""
    players = scores.shape[0]
    if code == RANDOM:
        return random_other(me, players, stream)
    best = (me + 1) % players
    for step in range(1, players):
        q = (me + step) % players
        if scores[q] > scores[best]:
            best = q
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def type_values(
    card: np.ndarray,
    me: np.int64,
    battlers: np.ndarray,
    count: np.int64,
    active: np.int64,
    mixes: np.ndarray,
    sizes: np.ndarray,
    wild_powers: bool,
    out: np.ndarray,
) -> None:
    """``out[t]``: my chance to get the card if I show type ``t``, against the other battlers'
    estimated mixes (exact with one opponent; several: chance to be among the winners)."""
    single = np.zeros(N_TYPES)
    saved = mixes[me].copy()
    my_index = 0
    for r in range(count):
        if battlers[r] == me:
            my_index = r
    for t in range(N_TYPES):
        for u in range(N_TYPES):
            single[u] = 0.0
        single[t] = 1.0
        mixes[me] = single
        if count == 2:
            q = battlers[1 - my_index]
            out[t] = chance_to_get(
                card, single, mixes[q], wild_powers, me == active, sizes[me] > 1, sizes[q] > 1
            )
        else:
            out[t] = chance_among_winners(card, mixes, battlers, count, my_index)
    mixes[me] = saved


@njit(cache=True, nogil=True, error_model="numpy")
def _best_subset(my_die: np.ndarray, values: np.ndarray, k: np.int64, out: np.ndarray) -> None:
    left = my_die.copy()
    for t in range(N_TYPES):
        out[t] = 0
    for _ in range(k):
        best = -1
        for t in range(N_TYPES):
            if left[t] > 0 and (best < 0 or values[t] > values[best] + 1e-12):
                best = t
        out[best] += 1
        left[best] -= 1


@njit(cache=True, nogil=True, error_model="numpy")
def choose_subset(
    code: np.int64,
    card: np.ndarray,
    me: np.int64,
    battlers: np.ndarray,
    count: np.int64,
    active: np.int64,
    k: np.int64,
    my_die: np.ndarray,
    sizes: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    wild_powers: bool,
    stream: np.ndarray,
    out: np.ndarray,
) -> None:
    """Reduced die: ``out`` = how many cards of each type to roll (``k`` in all, from my die)."""
    if code == RANDOM:
        total = 0
        for t in range(N_TYPES):
            total += my_die[t]
        random_subset(my_die, k, stream, out, np.empty(total, dtype=np.int64))
        return
    mixes = _all_mixes(me, my_die, sizes, seen, unseen)
    if code == EQUILIBRIUM and count == 2:
        q = battlers[0] if battlers[1] == me else battlers[1]
        their_die = np.zeros(N_TYPES, dtype=np.int64)
        estimate_die(seen[q], unseen, sizes[q], their_die)
        payoff = np.zeros((N_TYPES, N_TYPES))
        for a in range(N_TYPES):
            for b in range(N_TYPES):
                payoff[a, b] = pair_gain(
                    card, a, b, wild_powers, me == active, sizes[me] > 1, sizes[q] > 1
                )
        their_k = min(k, sizes[q])
        draw = uniform(stream)
        with objmode(chosen="int64[:]"):
            chosen = equilibrium_choice(payoff, my_die, their_die, k, their_k, draw)
        for t in range(N_TYPES):
            out[t] = chosen[t]
        return
    values = np.zeros(N_TYPES)
    type_values(card, me, battlers, count, active, mixes, sizes, wild_powers, values)
    _best_subset(my_die, values, k, out)


@njit(cache=True, nogil=True, error_model="numpy")
def choose_keep(
    code: np.int64,
    card: np.ndarray,
    me: np.int64,
    battlers: np.ndarray,
    count: np.int64,
    active: np.int64,
    first: np.int64,
    second: np.int64,
    my_die: np.ndarray,
    sizes: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    wild_powers: bool,
    stream: np.ndarray,
) -> np.int64:
    """double_roll: 0 to keep the first result, 1 for the second."""
    if code == RANDOM:
        return 1 if random_coin(stream) else 0
    mixes = _all_mixes(me, my_die, sizes, seen, unseen)
    values = np.zeros(N_TYPES)
    type_values(card, me, battlers, count, active, mixes, sizes, wild_powers, values)
    return 1 if values[second] > values[first] + 1e-12 else 0


@njit(cache=True, nogil=True, error_model="numpy")
def choose_reroll(code: np.int64, winning: bool, stream: np.ndarray) -> bool:
    """Wild fox: reroll (once per battle)? ``winning``: whether I am a winner as things are."""
    if code == RANDOM:
        return random_coin(stream)
    return not winning


@njit(cache=True, nogil=True, error_model="numpy")
def choose_switch(
    code: np.int64,
    me: np.int64,
    battlers: np.ndarray,
    count: np.int64,
    active: np.int64,
    market: np.ndarray,
    market_count: np.int64,
    my_die: np.ndarray,
    sizes: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    wild_powers: bool,
    stream: np.ndarray,
) -> np.int64:
    """Wild panda: which face-up Zoo Card the battle switches to (market index)."""
    if code == RANDOM:
        return random_index(market_count, stream)
    mixes = _all_mixes(me, my_die, sizes, seen, unseen)
    my_index = 0
    for r in range(count):
        if battlers[r] == me:
            my_index = r
    best = 0
    best_value = -1.0
    for c in range(market_count):
        card = market[c]
        if count == 2:
            q = battlers[1 - my_index]
            value = chance_to_get(
                card, mixes[me], mixes[q], wild_powers, me == active, sizes[me] > 1, sizes[q] > 1
            )
        else:
            value = chance_among_winners(card, mixes, battlers, count, my_index)
        value *= card[POINTS] if me == active or count > 2 else 1.0
        if value > best_value + 1e-12:
            best_value = value
            best = c
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def choose_discarder(
    code: np.int64,
    me: np.int64,
    first: np.int64,
    second: np.int64,
    scores: np.ndarray,
    stream: np.ndarray,
) -> np.int64:
    """A tie: which of the two tied battlers (both able to discard) discards; the other wins."""
    if code == RANDOM:
        return random_discarder(first, second, stream)
    if me == first:
        return second
    if me == second:
        return first
    # not mine to win: the leader discards, the other one gets the card
    return first if scores[first] >= scores[second] else second


@njit(cache=True, nogil=True, error_model="numpy")
def choose_receiver(
    code: np.int64,
    me: np.int64,
    winners: np.ndarray,
    count: np.int64,
    scores: np.ndarray,
    stream: np.ndarray,
) -> np.int64:
    """Three or more winners: which one (an index into ``winners``) gets the card."""
    if code == RANDOM:
        return random_index(count, stream)
    best = 0
    for i in range(count):
        if winners[i] == me:
            return i
        if scores[winners[i]] < scores[winners[best]]:
            best = i
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def choose_discard(
    code: np.int64,
    my_die: np.ndarray,
    market: np.ndarray,
    market_count: np.int64,
    unseen: np.ndarray,
    wild_powers: bool,
    stream: np.ndarray,
) -> np.int64:
    """Which type of card to discard from my die (never my last card: the engine checks)."""
    if code == RANDOM:
        return random_discard(my_die, stream)
    # weakest for the cards still in the market, against the cards it has not seen
    pool = 0
    for t in range(N_TYPES):
        pool += unseen[t]
    worst = -1
    worst_value = 0.0
    for t in range(N_TYPES):
        if my_die[t] == 0:
            continue
        value = 0.0
        for c in range(market_count):
            n, positions, special, x, y = card_key(market[c])
            for u in range(N_TYPES):
                weight = unseen[u] / pool if pool > 0 else (1.0 / N_ANIMALS if u < N_ANIMALS else 0)
                if weight > 0.0:
                    result = duel_key(n, positions, special, x, y, t, u, wild_powers)
                    value += market[c, POINTS] * weight * result
        if worst < 0 or value < worst_value - 1e-12:
            worst = t
            worst_value = value
    return worst


@njit(cache=True, nogil=True, error_model="numpy")
def choose_draw_instead(
    code: np.int64,
    params: np.ndarray,
    points: np.int64,
    my_score: np.int64,
    points_to_win: np.int64,
    my_size: np.int64,
    stream: np.ndarray,
) -> bool:
    """Draw-instead variant: refuse the won card and draw ``points`` Animal Cards?"""
    if code == RANDOM:
        return random_coin(stream)
    if my_score + points >= points_to_win:
        return False
    return my_size < params[0]


# --- the equilibrium chooser (scipy, outside the compiled code) -----------------------------


_SOLVED: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}


def _subsets(die: np.ndarray, k: int) -> list[np.ndarray]:
    """Every distinct way to take ``k`` cards from a die given as counts per type."""
    found: list[np.ndarray] = []

    def extend(t: int, left: int, current: list[int]) -> None:
        if t == N_TYPES:
            if left == 0:
                found.append(np.array(current, dtype=np.int64))
            return
        for n in range(min(int(die[t]), left) + 1):
            extend(t + 1, left - n, [*current, n])

    extend(0, k, [])
    return found


def selection_game(
    payoff: np.ndarray, my_die: np.ndarray, their_die: np.ndarray, k: int, their_k: int
) -> tuple[list[np.ndarray], np.ndarray, list[np.ndarray]]:
    """The k-card selection as a matrix game: my options, the payoff matrix (my expected
    gain, +1 card to me, -1 to them, for each pair of selections), their options."""
    mine = _subsets(my_die, k)
    theirs = _subsets(their_die, their_k)
    matrix = np.array([[float(a @ payoff @ b) / (k * their_k) for b in theirs] for a in mine])
    return mine, matrix, theirs


def solve_zero_sum(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's maximin mix and the game's value, by linear programming (scipy).

    Maximise v subject to ``sum_i x_i A[i, j] >= v`` for every column j, ``sum x = 1``,
    ``x >= 0``.
    """
    from scipy.optimize import linprog

    rows, cols = matrix.shape
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((cols, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0, None)] * rows + [(None, None)]
    result = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(cols),
        A_eq=equal,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if not result.success:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"linear program failed: {result.message}")
    mix = np.clip(result.x[:rows], 0.0, None)
    return mix / mix.sum(), float(result.x[-1])


def equilibrium_choice(
    payoff: np.ndarray,
    my_die: np.ndarray,
    their_die: np.ndarray,
    k: int,
    their_k: int,
    draw: float,
) -> np.ndarray:
    """My selection drawn from the equilibrium mix with the uniform number ``draw``
    (memoised per game situation, so a run solves each distinct game once)."""
    key = b"".join(
        np.ascontiguousarray(x).tobytes()
        for x in (payoff, my_die, their_die, np.array([k, their_k], dtype=np.int64))
    )
    if key not in _SOLVED:
        mine, matrix, _ = selection_game(payoff, my_die, their_die, int(k), int(their_k))
        mix, _ = solve_zero_sum(matrix)
        _SOLVED[key] = (np.array(mine), np.cumsum(mix))
    options, cumulative = _SOLVED[key]
    index = min(int(np.searchsorted(cumulative, draw, side="right")), len(options) - 1)
    return options[index].copy()
