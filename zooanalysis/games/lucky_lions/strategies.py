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
it plays the equilibrium mix of the k-card selection game, solved in compiled code by
``matrix_game``).

Speed: ``greedy`` rates a Zoo Card from its duel table (:func:`card_bits`: for each type I
show, the types it beats and ties as bit masks), built once per card (the kernel builds it
when the card is first rated in a game), so each chance is a small bilinear form of the two
mixes over those masks, summed in the same order as the direct evaluation (the same floats).
Decisions write into work arrays passed in; none allocates. The kernel's once-a-turn calls
(:func:`greedy_rate`, :func:`fill_mixes`, :func:`card_bits`, :func:`choose_discard`) take
no views and no work tuple, so numba drops their reference counting (``kernel.py``: why).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from zooanalysis.games.lucky_lions.cards import N_ANIMALS
from zooanalysis.games.lucky_lions.flat import (
    AUTOLOSE,
    AUTOWIN,
    DOLPHIN,
    EXTRA_RULE,
    FLAMINGO,
    LION,
    N_TYPES,
    OFF_CYCLE,
    PEOPLE,
    POINTS,
    animal_of,
    card_key,
    duel_key,
    is_wild,
    pair_winners_key,
    row_key,
)
from zooanalysis.games.lucky_lions.matrix_game import (
    Workspace,
    _workspace_arrays,
    equilibrium_selection,
    new_workspace,
)
from zooanalysis.games.lucky_lions.rules import MAX_PLAYERS
from zooanalysis.rng import below, uniform
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

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
        "matrix game against the opponent's estimated die, solved exactly (simplex method, "
        "compiled), and plays its equilibrium mix.",
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


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
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
    estimate_die_into(seen, unseen, size, out, np.zeros(N_TYPES))


@njit(cache=True, nogil=True, error_model="numpy")
def estimate_die_into(
    seen: np.ndarray, unseen: np.ndarray, size: np.int64, out: np.ndarray, share: np.ndarray
) -> None:
    """:func:`estimate_die` with ``share`` (``N_TYPES`` floats) as scratch."""
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


LOWEST_BIT = np.array(
    [0] + [(m & -m).bit_length() - 1 for m in range(1, 1 << N_TYPES)], dtype=np.int64
)
"""``LOWEST_BIT[m]``: the lowest set bit of a type mask ``m`` (walks masks in type order)."""

ALL_SETS = 1 << N_ANIMALS
"""Sets of shown animals, as bit masks."""

ALL_TYPES = (1 << N_TYPES) - 1


class StrategyWork(NamedTuple):
    """Work arrays of the compiled decisions (one per batch, or per reference-engine call):
    decisions write here instead of allocating."""

    game: Workspace
    """The equilibrium chooser's (``matrix_game``)."""
    mixes: np.ndarray
    """(MAX_PLAYERS, N_TYPES) float64: every player's estimated mix."""
    saved: np.ndarray
    """(N_TYPES,) float64: a saved mix."""
    values: np.ndarray
    """(N_TYPES,) float64: a value per type."""
    left: np.ndarray
    """(N_TYPES,) int64: cards left per type."""
    animal_mix: np.ndarray
    """(MAX_PLAYERS, N_ANIMALS) float64: each roller's chance per animal."""
    options: np.ndarray
    """(MAX_PLAYERS, N_ANIMALS) int64: each roller's animals with a nonzero chance."""
    n_options: np.ndarray
    """(MAX_PLAYERS,) int64."""
    digits: np.ndarray
    """(MAX_PLAYERS,) int64: the enumeration's odometer."""
    rollers: np.ndarray
    """(MAX_PLAYERS,) int64."""
    table: np.ndarray
    """(1, TABLE_WIDTH) int64: :func:`card_tables` of a card given as a row."""
    high: np.ndarray
    """(MAX_PLAYERS,) float64: :func:`chance_among`'s chances of the odometer's rollers."""


def new_strategy_workspace() -> StrategyWork:
    """Fresh work arrays for the compiled decisions."""
    return StrategyWork(
        new_workspace(),
        np.zeros((MAX_PLAYERS, N_TYPES)),
        np.zeros(N_TYPES),
        np.zeros(N_TYPES),
        np.zeros(N_TYPES, dtype=np.int64),
        np.zeros((MAX_PLAYERS, N_ANIMALS)),
        np.zeros((MAX_PLAYERS, N_ANIMALS), dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros((1, TABLE_WIDTH), dtype=np.int64),
        np.zeros(MAX_PLAYERS),
    )


TABLE_WIN = 0
"""Card table columns ``TABLE_WIN + a``: the types that type ``a`` beats (:func:`duel` +1),
without the pairs a wild dolphin voids (wild powers)."""
TABLE_TIE = N_TYPES
"""``TABLE_TIE + a``: the types ``a`` ties (0), without the voided pairs."""
TABLE_BEATS = 2 * N_TYPES
"""``TABLE_BEATS + a``: every type ``a`` beats (:func:`duel` +1), voided pairs included."""
TABLE_LOSES = 3 * N_TYPES
"""``TABLE_LOSES + a``: every type ``a`` loses to (:func:`duel` -1), voided pairs included."""
TABLE_SETS = 4 * N_TYPES
"""``TABLE_SETS + s``: :func:`winner_sets` (``ALL_SETS`` columns, filled by
:func:`card_tables` when asked: only battles of three or more rollers read them)."""
TABLE_WIDTH = 4 * N_TYPES + ALL_SETS
"""Columns of a card table (:func:`card_tables`)."""
_ANIMAL_MASK = (1 << N_ANIMALS) - 1
_WILD_LION = LION + N_ANIMALS
_WILD_FLAMINGO = FLAMINGO + N_ANIMALS
_WILD_DOLPHIN = DOLPHIN + N_ANIMALS


@njit(cache=True, nogil=True, error_model="numpy")
def animal_duels(rows: np.ndarray, i: np.int64) -> tuple[np.int64, np.int64]:
    """Card ``rows[i]``'s two-roller battles between animals (:func:`pair_winners`), packed:
    bit ``N_ANIMALS * a + b`` of the first mask is set when animal ``a`` beats ``b``, of the
    second when they tie (every other pair ``a`` loses). Rows are read in place."""
    n, positions, special, x, y = row_key(rows, i)
    win = np.int64(0)
    tie = np.int64(0)
    if special == AUTOWIN or special == AUTOLOSE:  # the cycle does not matter
        for a in range(N_ANIMALS):
            for b in range(N_ANIMALS):
                win_a, win_b = pair_winners_key(n, positions, special, x, y, a, b)
                bit = np.int64(1) << (N_ANIMALS * a + b)
                if win_a and win_b:
                    tie |= bit
                elif win_a:
                    win |= bit
        return win, tie
    # the distance rule (pair_winners_key's gaps, worked out): an animal on the cycle beats
    # one off it; two off it tie; on it, ``a`` beats ``b`` when ``b`` is more than half the
    # cycle ahead of it (gaps d and n - d), ties at exactly half and with itself
    for a in range(N_ANIMALS):
        at = (positions >> (4 * a)) & OFF_CYCLE
        for b in range(N_ANIMALS):
            other = (positions >> (4 * b)) & OFF_CYCLE
            bit = np.int64(1) << (N_ANIMALS * a + b)
            if at == OFF_CYCLE:
                if other == OFF_CYCLE:
                    tie |= bit
            elif other == OFF_CYCLE:
                win |= bit
            else:
                ahead = other - at
                if ahead < 0:
                    ahead += n
                if ahead == 0 or 2 * ahead == n:
                    tie |= bit
                elif 2 * ahead > n:
                    win |= bit
    if special == EXTRA_RULE and x >= 0 and y >= 0 and x != y:  # only X and Y: X wins
        tie &= ~((np.int64(1) << (N_ANIMALS * x + y)) | (np.int64(1) << (N_ANIMALS * y + x)))
        win = (win | (np.int64(1) << (N_ANIMALS * x + y))) & ~(np.int64(1) << (N_ANIMALS * y + x))
    return win, tie


@njit(cache=True, nogil=True, error_model="numpy")
def card_bits(rows: np.ndarray, i: np.int64, wild_powers: bool, bits: np.ndarray) -> None:
    """Card ``rows[i]``'s duel table as bit masks in ``out = bits[i]``: ``out[a]`` has bit
    ``b`` set when a card of type ``a`` beats type ``b`` (:func:`duel` +1), ``out[N_TYPES +
    a]`` when they tie (0); pairs a wild dolphin voids (wild powers) are in neither. When
    ``bits`` has the columns (``TABLE_WIDTH``), also ``TABLE_BEATS`` / ``TABLE_LOSES``: every
    pair's :func:`duel` +1 / -1, voided pairs included. Built once per card from the 25
    animal battles (:func:`animal_duels`) and the wild lion / flamingo tie-breaks as mask
    operations; a chance to get the card is then a bilinear form of two mixes over these
    masks. Rows are indexed in place (no views to reference-count)."""
    win, tie = animal_duels(rows, i)
    raw = bits.shape[1] >= TABLE_LOSES + N_TYPES
    for a in range(N_TYPES):
        animal = a % N_ANIMALS
        beats = (win >> (N_ANIMALS * animal)) & _ANIMAL_MASK
        tied = (tie >> (N_ANIMALS * animal)) & _ANIMAL_MASK
        beats |= beats << N_ANIMALS  # both types of an animal duel alike ...
        tied |= tied << N_ANIMALS
        if wild_powers:  # ... but for the wild lion's and flamingo's tie-breaks
            if a == _WILD_LION:
                beats |= tied & ~(1 << _WILD_LION)
                tied &= 1 << _WILD_LION
            else:
                tied &= ~(1 << _WILD_LION)  # a wild lion wins my ties
                if a == _WILD_FLAMINGO:
                    tied &= 1 << _WILD_FLAMINGO  # I lose ties to all but flamingos
                else:
                    beats |= tied & (1 << _WILD_FLAMINGO)
                    tied &= ~(1 << _WILD_FLAMINGO)
        if raw:
            bits[i, TABLE_BEATS + a] = beats
            bits[i, TABLE_LOSES + a] = ALL_TYPES & ~(beats | tied)
        if wild_powers:  # a wild dolphin voids the battle
            if a == _WILD_DOLPHIN:
                beats = 0
                tied = 0
            else:
                beats &= ~(1 << _WILD_DOLPHIN)
                tied &= ~(1 << _WILD_DOLPHIN)
        bits[i, TABLE_WIN + a] = beats
        bits[i, TABLE_TIE + a] = tied


@njit(cache=True, nogil=True, error_model="numpy")
def card_tables(
    rows: np.ndarray, i: np.int64, wild_powers: bool, with_sets: bool, tables: np.ndarray
) -> None:
    """Card ``rows[i]``'s whole table in ``tables[i]`` (``TABLE_WIDTH`` columns): the duel
    masks of :func:`card_bits` and, if ``with_sets``, :func:`winner_sets` at ``TABLE_SETS``.
    The kernel builds it when the card is first needed in a game; every decision about the
    card then reads it."""
    card_bits(rows, i, wild_powers, tables)
    if with_sets:
        n, positions, special, x, y = row_key(rows, i)
        tables[i, TABLE_SETS] = 0
        for s in range(1, ALL_SETS):
            tables[i, TABLE_SETS + s] = _winners_of_set(n, positions, special, x, y, s)


TABLE_CACHE_SLOTS = 1024
"""Slots of :func:`card_tables_cached`'s cache (a power of two)."""


def new_table_cache() -> tuple[np.ndarray, np.ndarray]:
    """An empty cache for :func:`card_tables_cached`: (keys, tables); one per batch."""
    return (
        np.zeros(TABLE_CACHE_SLOTS, dtype=np.int64),
        np.zeros((TABLE_CACHE_SLOTS, TABLE_WIDTH), dtype=np.int64),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def card_tables_cached(
    rows: np.ndarray,
    i: np.int64,
    wild_powers: bool,
    with_sets: bool,
    tables: np.ndarray,
    cache_keys: np.ndarray,
    cache_tables: np.ndarray,
) -> None:
    """:func:`card_tables` of ``rows[i]`` into ``tables[i]``, copied from a cache when a card
    with the same :func:`row_key` was built before (the table depends on nothing else: the
    cycle, the special and its animals), else built and remembered. A direct-mapped cache
    (``cache_keys``: the packed key plus one per slot, 0 for an empty slot; ``cache_tables``:
    the rows), valid for one ``wild_powers`` / ``with_sets`` (one per batch): a fresh print
    per game deals new cards, mostly with cycles seen before. The same integers either way."""
    n, positions, special, x, y = row_key(rows, i)
    key = ((((positions << 3 | n) << 3 | (special + 1)) << 3 | (x + 1)) << 3 | (y + 1)) + 1
    slot = ((key * np.int64(-7046029254386353131)) >> 40) & (cache_keys.shape[0] - 1)
    width = TABLE_WIDTH if with_sets else TABLE_SETS  # the columns card_tables writes
    if cache_keys[slot] == key:
        for f in range(width):
            tables[i, f] = cache_tables[slot, f]
        return
    card_tables(rows, i, wild_powers, with_sets, tables)
    cache_keys[slot] = key
    for f in range(width):
        cache_tables[slot, f] = tables[i, f]


@njit(cache=True, nogil=True, error_model="numpy")
def winner_sets(card: np.ndarray, out: np.ndarray) -> None:
    """``out[s]``: the winning animals (a mask) when the animals shown are exactly the set
    ``s`` (a mask, any number of rollers each): :func:`mark_winners` depends on the rollers
    only through that set (a roller's gap ignores rollers of its own animal, the special
    rules test membership), so a roller wins iff its animal's bit is in ``out[s]``."""
    n, positions, special, x, y = card_key(card)
    out[0] = 0
    for s in range(1, ALL_SETS):
        out[s] = _winners_of_set(n, positions, special, x, y, s)


@njit(cache=True, nogil=True, error_model="numpy")
def _winners_of_set(
    n: np.int64, positions: np.int64, special: np.int64, x: np.int64, y: np.int64, s: np.int64
) -> np.int64:
    """:func:`winner_sets` of one set ``s`` on a card key."""
    if special == AUTOWIN or special == AUTOLOSE:
        mask = 0
        for a in range(N_ANIMALS):
            if (s >> a) & 1 and (a == x) == (special == AUTOWIN):
                mask |= 1 << a
        return mask if mask != 0 else s
    if special == EXTRA_RULE and x >= 0 and y >= 0 and x != y and s == (1 << x) | (1 << y):
        return 1 << x
    best = -1
    mask = 0
    for a in range(N_ANIMALS):
        if not (s >> a) & 1:
            continue
        at = (positions >> (4 * a)) & OFF_CYCLE
        gap = 0
        if at != OFF_CYCLE:
            gap = n
            for b in range(N_ANIMALS):
                if b == a or not (s >> b) & 1:
                    continue
                other = (positions >> (4 * b)) & OFF_CYCLE
                if other != OFF_CYCLE:
                    distance = other - at
                    if distance <= 0:
                        distance += n
                    gap = min(gap, distance)
        if gap > best:
            best = gap
            mask = 1 << a
        elif gap == best:
            mask |= 1 << a
    return mask


@njit(cache=True, nogil=True, error_model="numpy")
def chance_among_winners(
    card: np.ndarray,
    mixes: np.ndarray,
    rollers: np.ndarray,
    count: np.int64,
    me: np.int64,
    work: StrategyWork,
) -> float:
    """The chance that roller ``me`` (an index into ``rollers``) is among the winners when
    every roller shows an animal by its mix (wild powers ignored): :func:`chance_among` on
    the card's :func:`winner_sets`."""
    table = work.table
    winner_sets(card, table[0, TABLE_SETS:])
    return chance_among(table, np.int64(0), mixes, rollers, count, me, work)


@njit(cache=True, nogil=True, error_model="numpy")
def chance_among(
    tables: np.ndarray,
    i: np.int64,
    mixes: np.ndarray,
    rollers: np.ndarray,
    count: np.int64,
    me: np.int64,
    work: StrategyWork,
) -> float:
    """:func:`chance_among_winners` for the card whose :func:`card_tables` (with the winner
    sets) are ``tables[i]``: exact enumeration of the rollers' animals with a nonzero
    chance, roller 0's fastest, each weight the product of the rollers' chances in roller
    order (the sum of :func:`mark_winners` over all ``N_ANIMALS ** count`` combinations,
    added in the same order: the same float), the winners read from the winner sets. Only
    winning combinations are weighed; the other rollers' animals, their set and their
    chances are read once per step of the odometer, not once per combination."""
    return chance_among_in(
        tables, i, mixes, rollers, count, me, work.animal_mix, work.options, work.n_options,
        work.digits, work.high,
    )


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _roller_animals(
    r: np.int64,
    mixes: np.ndarray,
    rollers: np.ndarray,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
    digits: np.ndarray,
) -> bool:
    """Set up roller ``r`` of an odometer over the rollers' animals: its chance of each
    animal (``animal_mix[r]``, its die's type chances summed per animal), the animals it can
    show (``options[r, :n_options[r]]``, in animal order) and its digit at 0; False when it
    can show none (then no combination has any weight)."""
    for a in range(N_ANIMALS):
        animal_mix[r, a] = 0.0
    for t in range(N_TYPES):
        animal_mix[r, animal_of(t)] += mixes[rollers[r], t]
    m = 0
    for a in range(N_ANIMALS):
        if animal_mix[r, a] != 0.0:
            options[r, m] = a
            m += 1
    if m == 0:
        return False
    n_options[r] = m
    digits[r] = 0
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def chance_among_in(
    tables: np.ndarray,
    i: np.int64,
    mixes: np.ndarray,
    rollers: np.ndarray,
    count: np.int64,
    me: np.int64,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
    digits: np.ndarray,
    high: np.ndarray,
) -> float:
    """:func:`chance_among` with :class:`StrategyWork`'s arrays passed one by one (no work
    tuple: the kernel's every-turn path, whose calls then count no references);
    ``high``: the chance of each roller but 0 at the odometer's current animals."""
    for r in range(count):
        if not _roller_animals(r, mixes, rollers, animal_mix, options, n_options, digits):
            return 0.0
    if count == 4:
        return _chance_among_four(tables, i, me, animal_mix, options, n_options)
    chance = 0.0
    sets = TABLE_SETS
    while True:
        shown = 0  # the animals of rollers 1.., and their chances
        for r in range(1, count):
            a = options[r, digits[r]]
            shown |= 1 << a
            high[r] = animal_mix[r, a]
        mine = options[me, digits[me]]
        for d in range(n_options[0]):
            a = options[0, d]
            if me == 0:
                mine = a
            if (tables[i, sets + (shown | (1 << a))] >> mine) & 1:
                weight = animal_mix[0, a]  # 1.0 * the chance: exact
                for r in range(1, count):
                    weight *= high[r]
                if weight != 0.0:
                    chance += weight
        if count == 1:
            return chance
        r = 1
        digits[1] += 1
        while digits[r] == n_options[r]:
            digits[r] = 0
            r += 1
            if r == count:
                return chance
            digits[r] += 1


@njit(cache=True, nogil=True, error_model="numpy")
def _chance_among_four(
    tables: np.ndarray,
    i: np.int64,
    me: np.int64,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
) -> float:
    """:func:`chance_among`'s odometer for four rollers (everyone rolls in a four-player
    game: the common case) as four nested loops, roller 0's innermost: the same
    combinations in the same order, the same products and sums."""
    chance = 0.0
    sets = TABLE_SETS
    for d3 in range(n_options[3]):
        a3 = options[3, d3]
        h3 = animal_mix[3, a3]
        for d2 in range(n_options[2]):
            a2 = options[2, d2]
            h2 = animal_mix[2, a2]
            shown2 = (1 << a3) | (1 << a2)
            for d1 in range(n_options[1]):
                a1 = options[1, d1]
                h1 = animal_mix[1, a1]
                shown1 = shown2 | (1 << a1)
                mine = a3 if me == 3 else (a2 if me == 2 else a1)
                for d0 in range(n_options[0]):
                    a0 = options[0, d0]
                    if me == 0:
                        mine = a0
                    wins = (tables[i, sets + (shown1 | (1 << a0))] >> mine) & 1
                    weight = animal_mix[0, a0] * h1 * h2 * h3  # roller order, as 1.0 * ...
                    chance += weight * wins  # no branch: a loss adds +0.0 (the same sum)
    return chance


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _die_mix(my_die: np.ndarray, out: np.ndarray) -> None:
    total = 0
    for t in range(N_TYPES):
        total += my_die[t]
    for t in range(N_TYPES):
        out[t] = my_die[t] / total if total > 0 else 0.0


@njit(cache=True, nogil=True, error_model="numpy")
def fill_mixes(
    me: np.int64,
    my_die: np.ndarray,
    sizes: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    mixes: np.ndarray,
) -> None:
    """``mixes[q]``: my die's mix for me, every other player's estimated mix (the arithmetic
    of :func:`_die_mix` and :func:`estimate_mix`, written on the 2-d arrays: no row views)."""
    players = sizes.shape[0]
    pool = 0
    for t in range(N_TYPES):
        pool += unseen[t]
    for q in range(players):
        if q == me:
            total = 0
            for t in range(N_TYPES):
                total += my_die[t]
            for t in range(N_TYPES):
                mixes[q, t] = my_die[t] / total if total > 0 else 0.0
            continue
        known = 0
        for t in range(N_TYPES):
            known += seen[q, t]
        unknown = max(sizes[q] - known, 0)
        total = 0.0
        for t in range(N_TYPES):
            share = 0.0
            if pool > 0 and unseen[t] != 0:  # 0 / pool is 0.0: the division only when needed
                share = unknown * unseen[t] / pool
            mixes[q, t] = seen[q, t] + share
            total += mixes[q, t]
        if total <= 0.0:
            for t in range(N_TYPES):
                mixes[q, t] = 1.0 / N_ANIMALS if t < N_ANIMALS else 0.0
            continue
        for t in range(N_TYPES):
            if mixes[q, t] != 0.0:
                mixes[q, t] /= total


@njit(cache=True, nogil=True, error_model="numpy")
def _everyone_value(
    tables: np.ndarray,
    i: np.int64,
    points: np.int64,
    me: np.int64,
    mixes: np.ndarray,
    sizes: np.ndarray,
    rollers: np.ndarray,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
    digits: np.ndarray,
    high: np.ndarray,
) -> float:
    """Expected points of taking the card of ``tables[i]`` (``points``) when everyone rolls
    (the rest: :func:`chance_among_in`'s work arrays)."""
    players = sizes.shape[0]
    rollers[0] = me
    count = np.int64(1)  # typed, not the literal 1: chance_among compiles once
    for q in range(players):
        if q != me:
            rollers[count] = q
            count += 1
    return points * chance_among_in(
        tables, i, mixes, rollers, count, np.int64(0), animal_mix, options, n_options, digits,
        high,
    )


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
    total = np.int64(0)
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
    return below(stream, np.int64(2)) == 1


@njit(cache=True, nogil=True, error_model="numpy")
def random_index(count: np.int64, stream: np.ndarray) -> np.int64:
    """``random``'s pick among ``count`` options (market card to switch to, winner to
    receive the card)."""
    return below(stream, count)


@njit(cache=True, nogil=True, error_model="numpy")
def random_discarder(first: np.int64, second: np.int64, stream: np.ndarray) -> np.int64:
    """``random``'s tie decision: a fair coin between the two tied battlers."""
    return first if below(stream, np.int64(2)) == 0 else second


@njit(cache=True, nogil=True, error_model="numpy")
def random_discard(my_die: np.ndarray, stream: np.ndarray) -> np.int64:
    """``random``'s discard: the type of a uniformly random card of the die."""
    total = np.int64(0)
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
    work: StrategyWork,
) -> tuple[np.int64, np.int64]:
    """(market index, opponent) for the active player's turn, from the face-up cards' rows
    (the reference engine's entry: builds their :func:`card_tables`, then :func:`greedy_card`,
    which the kernel calls directly with tables built once per card)."""
    players = sizes.shape[0]
    if code == RANDOM:
        return random_card(me, players, market_count, stream)
    ids = np.arange(market_count)
    bits = np.zeros((max(market_count, 1), TABLE_WIDTH), dtype=np.int64)
    for c in range(market_count):
        card_tables(market, c, wild_powers, busy_zoo, bits)
    return greedy_card(
        me, ids, market_count, market, bits, my_die, sizes, scores, seen, unseen, busy_zoo,
        stream, work, np.zeros(max(market_count, 1)),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def greedy_card(
    me: np.int64,
    market: np.ndarray,
    market_count: np.int64,
    rows: np.ndarray,
    bits: np.ndarray,
    my_die: np.ndarray,
    sizes: np.ndarray,
    scores: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    busy_zoo: bool,
    stream: np.ndarray,
    work: StrategyWork,
    people: np.ndarray,
) -> tuple[np.int64, np.int64]:
    """``greedy``'s and ``equilibrium``'s (market index, opponent): card ``c`` of the market is
    ``rows[market[c]]`` with table ``bits[market[c]]`` (:func:`card_tables`, with the winner
    sets when ``busy_zoo``); ``people``
    (``market_count`` floats) is scratch. The players' mixes (:func:`fill_mixes`) and the
    value of each card on which everyone rolls (:func:`people_values`), then
    :func:`greedy_rate`; the kernel makes the same three calls."""
    mixes = work.mixes
    fill_mixes(me, my_die, sizes, seen, unseen, mixes)
    if busy_zoo:
        people_values(me, market, market_count, rows, bits, mixes, sizes, work, people)
    return greedy_rate(me, market, market_count, rows, bits, mixes, people, sizes, scores,
                       busy_zoo, stream)


@njit(cache=True, nogil=True, error_model="numpy")
def people_values(
    me: np.int64,
    market: np.ndarray,
    market_count: np.int64,
    rows: np.ndarray,
    tables: np.ndarray,
    mixes: np.ndarray,
    sizes: np.ndarray,
    work: StrategyWork,
    out: np.ndarray,
) -> None:
    """``out[c]``: the expected points of market card ``c`` if it has the people icon
    (everyone rolls; Busy Zoo), from the players' ``mixes``; card ``market[c]``'s
    :func:`card_tables` (with the winner sets) are ``tables[market[c]]``."""
    people_values_in(
        me, market, market_count, rows, tables, mixes, sizes, work.rollers, work.animal_mix,
        work.options, work.n_options, work.digits, work.high, out,
    )


@njit(cache=True, nogil=True, error_model="numpy")
def people_values_in(
    me: np.int64,
    market: np.ndarray,
    market_count: np.int64,
    rows: np.ndarray,
    tables: np.ndarray,
    mixes: np.ndarray,
    sizes: np.ndarray,
    rollers: np.ndarray,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
    digits: np.ndarray,
    high: np.ndarray,
    out: np.ndarray,
) -> None:
    """:func:`people_values` with :class:`StrategyWork`'s arrays passed one by one: the
    kernel calls it every turn, and a work tuple would cost a reference count increment and
    decrement per array at every call down to the enumeration (``kernel.py``: why)."""
    for c in range(market_count):
        card_i = market[c]
        if rows[card_i, PEOPLE] == 1:
            out[c] = _everyone_value(
                tables, card_i, rows[card_i, POINTS], me, mixes, sizes, rollers, animal_mix,
                options, n_options, digits, high,
            )


@njit(cache=True, nogil=True, error_model="numpy")
def greedy_rate(
    me: np.int64,
    market: np.ndarray,
    market_count: np.int64,
    rows: np.ndarray,
    bits: np.ndarray,
    mixes: np.ndarray,
    people: np.ndarray,
    sizes: np.ndarray,
    scores: np.ndarray,
    busy_zoo: bool,
    stream: np.ndarray,
) -> tuple[np.int64, np.int64]:
    """:func:`greedy_card`'s choice from the players' ``mixes`` and the people cards' values.

    It rates every (Zoo Card, opponent) pair by its expected points, then by the opponent's
    score (deny the leader); among pairs rated equal the earlier card wins, and the opponent
    is drawn uniformly among those rated equal for it (one random draw, only when there is a
    tie), so no seat is targeted for where it sits.

    Each chance is the bilinear form of the two mixes over the card's :func:`card_bits` (the
    pairs I win, and tie when a tie is mine), added in :func:`chance_to_get`'s order (the
    same float). Called once per turn, so written without views, tuples or helpers that take
    arrays (the supports packed in one integer): numba then drops the reference counting of
    its arguments."""
    players = sizes.shape[0]
    supports = np.int64(0)  # N_TYPES bits per player: the types with a nonzero chance
    for q in range(players):
        for t in range(N_TYPES):
            if mixes[q, t] != 0.0:
                supports |= np.int64(1) << (N_TYPES * q + t)
    my_support = (supports >> (N_TYPES * me)) & ALL_TYPES
    best_value = -1.0
    best_score = -1
    best_card = 0
    tied = np.int64(1) << ((me + 1) % players)  # the opponents rated best, as a bit mask
    # each opponent's support, and the tie mask it adds (a tie is mine when it can discard)
    q1 = (me + 1) % players
    q2 = (me + 2) % players
    q3 = (me + 3) % players
    q4 = (me + 4) % players
    s1 = (supports >> (N_TYPES * q1)) & ALL_TYPES
    s2 = (supports >> (N_TYPES * q2)) & ALL_TYPES if players > 2 else 0
    s3 = (supports >> (N_TYPES * q3)) & ALL_TYPES if players > 3 else 0
    s4 = (supports >> (N_TYPES * q4)) & ALL_TYPES if players > 4 else 0
    t1 = ALL_TYPES if sizes[q1] > 1 else 0
    t2 = ALL_TYPES if sizes[q2] > 1 else 0
    t3 = ALL_TYPES if sizes[q3] > 1 else 0
    t4 = ALL_TYPES if sizes[q4] > 1 else 0
    for c in range(market_count):
        card_i = market[c]
        everyone = busy_zoo and rows[card_i, PEOPLE] == 1
        # the chance to get the card against each opponent, from its duel table: one sum per
        # opponent, each in its own order, advanced together (independent chains of adds)
        c1 = 0.0
        c2 = 0.0
        c3 = 0.0
        c4 = 0.0
        if not everyone:
            rest = my_support
            while rest:
                a = LOWEST_BIT[rest]
                rest &= rest - 1
                pa = mixes[me, a]
                win = bits[card_i, a]
                tie = bits[card_i, N_TYPES + a]
                mask = (win | (tie & t1)) & s1
                while mask:
                    b = LOWEST_BIT[mask]
                    mask &= mask - 1
                    c1 += pa * mixes[q1, b]
                mask = (win | (tie & t2)) & s2
                while mask:
                    b = LOWEST_BIT[mask]
                    mask &= mask - 1
                    c2 += pa * mixes[q2, b]
                mask = (win | (tie & t3)) & s3
                while mask:
                    b = LOWEST_BIT[mask]
                    mask &= mask - 1
                    c3 += pa * mixes[q3, b]
                mask = (win | (tie & t4)) & s4
                while mask:
                    b = LOWEST_BIT[mask]
                    mask &= mask - 1
                    c4 += pa * mixes[q4, b]
        for step in range(1, players):
            q = (me + step) % players
            if everyone:
                value = people[c]
            else:
                chance = c1 if step == 1 else (c2 if step == 2 else (c3 if step == 3 else c4))
                value = rows[card_i, POINTS] * chance
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
    count = np.int64(0)  # the opponent: uniform among those tied (one draw, none for one)
    for q in range(players):
        if (tied >> q) & 1:
            count += 1
    pick = below(stream, count) if count > 1 else 0
    for q in range(players):
        if (tied >> q) & 1:
            if pick == 0:
                return best_card, q
            pick -= 1
    return best_card, -1


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
    work: StrategyWork,
) -> None:
    """``out[t]``: my chance to get the card if I show type ``t``, against the other battlers'
    estimated mixes (exact with one opponent; several: chance to be among the winners, which
    ignores wild powers, so both types of an animal get its value)."""
    saved = work.saved
    for u in range(N_TYPES):
        saved[u] = mixes[me, u]
    my_index = np.int64(0)
    for r in range(count):
        if battlers[r] == me:
            my_index = r
    for t in range(N_TYPES):
        for u in range(N_TYPES):
            mixes[me, u] = 0.0
        mixes[me, t] = 1.0
        if count == 2:
            q = battlers[1 - my_index]
            out[t] = chance_to_get(
                card, mixes[me], mixes[q], wild_powers, me == active, sizes[me] > 1, sizes[q] > 1
            )
        elif t < N_ANIMALS:
            out[t] = chance_among_winners(card, mixes, battlers, count, my_index, work)
        else:
            out[t] = out[t - N_ANIMALS]
    for u in range(N_TYPES):
        mixes[me, u] = saved[u]


@njit(cache=True, nogil=True, error_model="numpy")
def best_subset(
    my_die: np.ndarray, values: np.ndarray, k: np.int64, out: np.ndarray, left: np.ndarray
) -> None:
    for t in range(N_TYPES):
        left[t] = my_die[t]
        out[t] = 0
    for _ in range(k):
        best = -1
        for t in range(N_TYPES):
            if left[t] > 0 and (best < 0 or values[t] > values[best] + 1e-12):
                best = t
        out[best] += 1
        left[best] -= 1


@njit(cache=True, nogil=True, error_model="numpy")
def _solve_selection(
    payoff: np.ndarray,
    my_die: np.ndarray,
    their_die: np.ndarray,
    k: np.int64,
    their_k: np.int64,
    stream: np.ndarray,
    out: np.ndarray,
    mine: np.ndarray,
    theirs: np.ndarray,
    matrix: np.ndarray,
    tableau: np.ndarray,
    basis: np.ndarray,
    mix: np.ndarray,
    small: np.ndarray,
) -> None:
    """``equilibrium``'s selection drawn from the selection game's mix (one uniform draw);
    the rest: the :class:`Workspace` arrays, one by one (a tuple of arrays costs a reference
    count per array at every call)."""
    draw = uniform(stream)
    need = equilibrium_selection(
        payoff, my_die, their_die, k, their_k, draw, mine, theirs, matrix, tableau, basis,
        mix, small, out,
    )
    if need > 0:  # a game larger than the work arrays: rare, solved in fresh ones
        mine, theirs, matrix, tableau, basis, mix, small = _workspace_arrays(need)
        equilibrium_selection(
            payoff, my_die, their_die, k, their_k, draw, mine, theirs, matrix, tableau,
            basis, mix, small, out,
        )


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
    work: StrategyWork,
) -> None:
    """Reduced die: ``out`` = how many cards of each type to roll (``k`` in all, from my die)."""
    if code == RANDOM:
        total = 0
        for t in range(N_TYPES):
            total += my_die[t]
        random_subset(my_die, k, stream, out, np.empty(total, dtype=np.int64))
        return
    if code == EQUILIBRIUM and count == 2:
        q = battlers[0] if battlers[1] == me else battlers[1]
        game = work.game
        their_die = game.their_die
        estimate_die_into(seen[q], unseen, sizes[q], their_die, game.share)
        payoff = game.payoff
        for a in range(N_TYPES):
            for b in range(N_TYPES):
                payoff[a, b] = pair_gain(
                    card, a, b, wild_powers, me == active, sizes[me] > 1, sizes[q] > 1
                )
        _solve_selection(
            payoff, my_die, their_die, k, min(k, sizes[q]), stream, out, game.mine,
            game.theirs, game.matrix, game.tableau, game.basis, game.mix, game.small,
        )
        return
    mixes = work.mixes
    fill_mixes(me, my_die, sizes, seen, unseen, mixes)
    values = work.values
    type_values(card, me, battlers, count, active, mixes, sizes, wild_powers, values, work)
    best_subset(my_die, values, k, out, work.left)


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
    work: StrategyWork,
) -> np.int64:
    """double_roll: 0 to keep the first result, 1 for the second."""
    if code == RANDOM:
        return 1 if random_coin(stream) else 0
    mixes = work.mixes
    fill_mixes(me, my_die, sizes, seen, unseen, mixes)
    values = work.values
    type_values(card, me, battlers, count, active, mixes, sizes, wild_powers, values, work)
    return 1 if values[second] > values[first] + 1e-12 else 0


# --- the kernel's entries: the same decisions from the card tables ----------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def tie_is_mine(i_am_active: bool, i_can_discard: bool, they_can_discard: bool) -> bool:
    """Whether a tied two-player battle gives me the card (:func:`pair_gain` of a tie > 0)."""
    if i_am_active:
        return they_can_discard
    return not i_can_discard and they_can_discard


@njit(cache=True, nogil=True, error_model="numpy")
def type_values_at(
    tables: np.ndarray,
    i: np.int64,
    me: np.int64,
    battlers: np.ndarray,
    count: np.int64,
    active: np.int64,
    mixes: np.ndarray,
    sizes: np.ndarray,
    out: np.ndarray,
    work: StrategyWork,
) -> None:
    """:func:`type_values` for the card of ``tables[i]`` (:func:`card_tables`; the winner sets
    when three or more roll): with one opponent each value is the opponent's chances summed
    over the types I beat (and tie, when a tie is mine) in :func:`chance_to_get`'s order
    (the same float)."""
    values_at(
        tables, i, me, battlers, count, active, mixes, sizes, work.animal_mix, work.options,
        work.n_options, work.digits, out,
    )


@njit(cache=True, nogil=True, error_model="numpy")
def values_at(
    tables: np.ndarray,
    i: np.int64,
    me: np.int64,
    battlers: np.ndarray,
    count: np.int64,
    active: np.int64,
    mixes: np.ndarray,
    sizes: np.ndarray,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
    digits: np.ndarray,
    out: np.ndarray,
) -> None:
    """:func:`type_values_at` with :class:`StrategyWork`'s arrays one by one (``animal_mix``
    ... ``digits``; no work tuple: the kernel calls it for the reduced die and the double
    roll)."""
    my_index = np.int64(0)
    for r in range(count):
        if battlers[r] == me:
            my_index = r
    if count == 2:
        pair_values_at(tables, i, me, battlers[1 - my_index], active, mixes, sizes, out)
        return
    _chances_among_mine(
        tables, i, mixes, battlers, count, my_index, animal_mix, options, n_options, digits,
        out,
    )
    for t in range(N_ANIMALS, N_TYPES):
        out[t] = out[t - N_ANIMALS]


@njit(cache=True, nogil=True, error_model="numpy")
def _chances_among_mine(
    tables: np.ndarray,
    i: np.int64,
    mixes: np.ndarray,
    rollers: np.ndarray,
    count: np.int64,
    me: np.int64,
    animal_mix: np.ndarray,
    options: np.ndarray,
    n_options: np.ndarray,
    digits: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[a]`` for each animal ``a``: :func:`chance_among` with roller ``me`` showing
    ``a`` for sure, all five in one enumeration of the other rollers' animals.

    :func:`chance_among` with my mix a unit vector enumerates only the other rollers'
    animals (roller 0's fastest, mine fixed), and each weight is the product of the rollers'
    chances in roller order with my factor exactly 1.0, so the same product without it.
    Here each combination of the others is visited once and its weight added to the sum of
    every animal of mine that is among the winners: each ``out[a]`` gets the same terms in
    the same order (the same float) as its own call."""
    for a in range(N_ANIMALS):
        out[a] = 0.0
    for r in range(count):
        if r == me:
            continue
        if not _roller_animals(r, mixes, rollers, animal_mix, options, n_options, digits):
            return
    first = np.int64(1) if me == 0 else np.int64(0)  # the odometer's fastest roller
    sets = TABLE_SETS
    while True:
        shown = 0
        weight = 1.0
        started = False
        for r in range(count):
            if r == me:
                continue
            a = options[r, digits[r]]
            shown |= 1 << a
            if started:
                weight *= animal_mix[r, a]
            else:
                weight = animal_mix[r, a]  # 1.0 * the chance: exact
                started = True
        if weight != 0.0:
            for a in range(N_ANIMALS):
                out[a] += weight * ((tables[i, sets + (shown | (1 << a))] >> a) & 1)
        r = first
        digits[r] += 1
        while digits[r] == n_options[r]:
            digits[r] = 0
            r += 1
            if r == me:
                r += 1
            if r >= count:
                return
            digits[r] += 1


@njit(cache=True, nogil=True, error_model="numpy")
def pair_values_at(
    tables: np.ndarray,
    i: np.int64,
    me: np.int64,
    q: np.int64,
    active: np.int64,
    mixes: np.ndarray,
    sizes: np.ndarray,
    out: np.ndarray,
) -> None:
    """:func:`type_values_at` of a two-roller battle against ``q``: each value is ``q``'s
    chances summed over the types I beat (and tie, when a tie is mine) in
    :func:`chance_to_get`'s order (the same float). No work tuple (the kernel's hot path)."""
    mine = tie_is_mine(me == active, sizes[me] > 1, sizes[q] > 1)
    for t in range(N_TYPES):
        mask = tables[i, TABLE_WIN + t]
        if mine:
            mask |= tables[i, TABLE_TIE + t]
        chance = 0.0
        while mask:
            b = LOWEST_BIT[mask]
            mask &= mask - 1
            chance += mixes[q, b]  # 1.0 * the chance: exact
        out[t] = chance


@njit(cache=True, nogil=True, error_model="numpy")
def fill_payoff(
    tables: np.ndarray,
    i: np.int64,
    wild_powers: bool,
    i_am_active: bool,
    i_can_discard: bool,
    they_can_discard: bool,
    payoff: np.ndarray,
) -> None:
    """``payoff[a, b]``: :func:`pair_gain` of every pair of types, read from the card's
    :func:`card_tables` (``tables[i]``)."""
    # a tie: mine, else theirs when I can discard (I must), else nobody's
    tie = 1 if tie_is_mine(i_am_active, i_can_discard, they_can_discard) else (
        -1 if i_can_discard else 0
    )
    for a in range(N_TYPES):
        beats = tables[i, TABLE_BEATS + a]
        loses = tables[i, TABLE_LOSES + a]
        for b in range(N_TYPES):
            if wild_powers and (a == _WILD_DOLPHIN or b == _WILD_DOLPHIN):
                payoff[a, b] = 0
            elif (beats >> b) & 1:
                payoff[a, b] = 1
            elif (loses >> b) & 1:
                payoff[a, b] = -1
            else:
                payoff[a, b] = tie


@njit(cache=True, nogil=True, error_model="numpy")
def subset_at(
    code: np.int64,
    tables: np.ndarray,
    i: np.int64,
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
    work: StrategyWork,
) -> None:
    """:func:`choose_subset` of ``greedy`` and ``equilibrium`` for the card of ``tables[i]``
    (:func:`card_tables`): the same choice, the same draws."""
    if code == EQUILIBRIUM and count == 2:
        q = battlers[0] if battlers[1] == me else battlers[1]
        game = work.game
        equilibrium_subset_at(
            tables, i, me, q, active, k, my_die, sizes, seen, unseen, wild_powers, stream, out,
            game.their_die, game.share, game.payoff, game.mine, game.theirs, game.matrix,
            game.tableau, game.basis, game.mix, game.small,
        )
        return
    mixes = work.mixes
    fill_mixes(me, my_die, sizes, seen, unseen, mixes)
    values = work.values
    type_values_at(tables, i, me, battlers, count, active, mixes, sizes, values, work)
    best_subset(my_die, values, k, out, work.left)


@njit(cache=True, nogil=True, error_model="numpy")
def equilibrium_subset_at(
    tables: np.ndarray,
    i: np.int64,
    me: np.int64,
    q: np.int64,
    active: np.int64,
    k: np.int64,
    my_die: np.ndarray,
    sizes: np.ndarray,
    seen: np.ndarray,
    unseen: np.ndarray,
    wild_powers: bool,
    stream: np.ndarray,
    out: np.ndarray,
    their_die: np.ndarray,
    share: np.ndarray,
    payoff: np.ndarray,
    mine: np.ndarray,
    theirs: np.ndarray,
    matrix: np.ndarray,
    tableau: np.ndarray,
    basis: np.ndarray,
    mix: np.ndarray,
    small: np.ndarray,
) -> None:
    """:func:`subset_at` of ``equilibrium`` against the one other roller ``q``, with the
    :class:`Workspace` arrays one by one (``their_die`` ... ``small``): the kernel calls it
    directly, as a work tuple would cost a reference count increment and decrement per
    array at every call (``kernel.py``: why)."""
    estimate_die_into(seen[q], unseen, sizes[q], their_die, share)
    fill_payoff(tables, i, wild_powers, me == active, sizes[me] > 1, sizes[q] > 1, payoff)
    _solve_selection(
        payoff, my_die, their_die, k, min(k, sizes[q]), stream, out, mine, theirs, matrix,
        tableau, basis, mix, small,
    )


@njit(cache=True, nogil=True, error_model="numpy")
def keep_at(
    tables: np.ndarray,
    i: np.int64,
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
    work: StrategyWork,
) -> np.int64:
    """:func:`choose_keep` of ``greedy`` and ``equilibrium`` for the card of ``tables[i]``."""
    mixes = work.mixes
    fill_mixes(me, my_die, sizes, seen, unseen, mixes)
    values = work.values
    type_values_at(tables, i, me, battlers, count, active, mixes, sizes, values, work)
    return keep_choice(values, first, second)


@njit(cache=True, nogil=True, error_model="numpy")
def keep_choice(values: np.ndarray, first: np.int64, second: np.int64) -> np.int64:
    """double_roll: 1 (keep the second result) when its type's value is higher by more than
    the tolerance, else 0."""
    return 1 if values[second] > values[first] + 1e-12 else 0


@njit(cache=True, nogil=True, error_model="numpy")
def discard_at(
    my_die: np.ndarray,
    market: np.ndarray,
    market_count: np.int64,
    rows: np.ndarray,
    tables: np.ndarray,
    unseen: np.ndarray,
    scratch: np.ndarray,
) -> np.int64:
    """:func:`choose_discard` of ``greedy`` and ``equilibrium``: card ``c`` of the market is
    ``rows[market[c]]`` with :func:`card_tables` ``tables[market[c]]``. Each type's value
    adds ``+points * weight`` for the types it beats and ``-points * weight`` for those it
    loses to, in :func:`choose_discard`'s order (the same float: its ``points * weight *
    result`` is exactly that, and a tie adds zero). Called once per tie, so written without
    views or tuples."""
    pool = 0
    for t in range(N_TYPES):
        pool += unseen[t]
    support = 0
    for u in range(N_TYPES):
        scratch[u] = 0.0
        weight = unseen[u] / pool if pool > 0 else (1.0 / N_ANIMALS if u < N_ANIMALS else 0.0)
        scratch[N_TYPES + u] = weight
        if weight > 0.0:
            support |= 1 << u
    for c in range(market_count):
        card_i = market[c]
        points = rows[card_i, POINTS]
        for t in range(N_TYPES):
            if my_die[t] == 0:
                continue
            value = scratch[t]
            beats = tables[card_i, TABLE_BEATS + t]
            mask = (beats | tables[card_i, TABLE_LOSES + t]) & support
            while mask:
                u = LOWEST_BIT[mask]
                mask &= mask - 1
                if (beats >> u) & 1:
                    value += points * scratch[N_TYPES + u]
                else:
                    value += -(points * scratch[N_TYPES + u])
            scratch[t] = value
    worst = -1
    worst_value = 0.0
    for t in range(N_TYPES):
        if my_die[t] == 0:
            continue
        if worst < 0 or scratch[t] < worst_value - 1e-12:
            worst = t
            worst_value = scratch[t]
    return worst


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
    work: StrategyWork,
) -> np.int64:
    """Wild panda: which face-up Zoo Card the battle switches to (market index)."""
    if code == RANDOM:
        return random_index(market_count, stream)
    mixes = work.mixes
    fill_mixes(me, my_die, sizes, seen, unseen, mixes)
    my_index = np.int64(0)
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
            value = chance_among_winners(card, mixes, battlers, count, my_index, work)
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
    scratch: np.ndarray,
) -> np.int64:
    """Which type of card to discard from my die (never my last card: the engine checks).
    ``scratch``: ``2 * N_TYPES`` floats of work space."""
    if code == RANDOM:
        return random_discard(my_die, stream)
    # weakest for the cards still in the market, against the cards it has not seen: each
    # type's value sums card by card, type by type (each card's key read once)
    pool = 0
    for t in range(N_TYPES):
        pool += unseen[t]
    values = scratch  # values[t]; weights at N_TYPES + u
    for u in range(N_TYPES):
        values[u] = 0.0
        values[N_TYPES + u] = (
            unseen[u] / pool if pool > 0 else (1.0 / N_ANIMALS if u < N_ANIMALS else 0.0)
        )
    for c in range(market_count):
        n, positions, special, x, y = row_key(market, c)
        points = market[c, POINTS]
        for t in range(N_TYPES):
            if my_die[t] == 0:
                continue
            value = values[t]
            for u in range(N_TYPES):
                weight = values[N_TYPES + u]
                if weight > 0.0:
                    result = duel_key(n, positions, special, x, y, t, u, wild_powers)
                    value += points * weight * result
            values[t] = value
    worst = -1
    worst_value = 0.0
    for t in range(N_TYPES):
        if my_die[t] == 0:
            continue
        if worst < 0 or values[t] < worst_value - 1e-12:
            worst = t
            worst_value = values[t]
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
