"""The fast path: a numba kernel that plays a whole batch of Lucky Lions games.

It follows ``engine.py`` step by step, draw for draw, on flat arrays, and keeps only the
counts of ``counts.new_totals`` (constant memory, whatever the number of games); per-game
rows (``counts.new_rows``) are written only when the caller passes non-empty arrays. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``; the tests hold both to that.

Layout (everything allocated once per batch, reused by every game):

* Zoo Cards: ``rows[c]`` holds card ``c``'s flat row (``flat.py``: size, cycle, points,
  people, special, X, Y), a fresh generated print per game or the fixed deck. The shuffled
  deck is ``order`` (card indices, top first) with ``DECK_TOP`` the next card to lay. The
  market is ``market`` (card indices in the engine's list order) with ``MARKET_N`` cards: a
  pick shifts the later cards down (``list.pop``), a refill or a voided card appends.
  ``market_rows`` is the market as rows, filled only for strategies that read it (not
  ``random``). The battle's Zoo Card is ``card_i`` and its row ``card``.
* Animal Cards: ``pile`` is the shuffled Animal Cards; the dice were dealt from its front and
  ``PILE_TOP`` is the next face-down card. Die ``p`` is ``die[p, :dlen[p]]``, in the engine's
  list order (order matters: rolls pick positions, ``list.remove`` takes the first such card,
  the no-shuffle variant rolls from the top and returns cards to the bottom).
* What players know: ``seen[p, t]`` (revealed since its last secret discard),
  ``public[t]`` (face-up discards: wild dolphins), ``own_discards[p, t]``; a decision's view
  is computed into ``my_die`` / ``unseen`` just before the strategy is asked.
* A battle's rollers, in the engine's order: ``r_seat``, the die positions each may roll
  (``r_chosen``, ``r_nchosen``), the positions rolled so far (``r_rolled``, ``r_nrolled``),
  the shown position ``r_shown`` and ``r_rerolled``.
* Game scalars that helpers change live in ``gs`` (indices ``PILE_TOP`` ...).

For the clustered intervals of the shown cards' results and the dice's sizes (the rolls
of one game are not independent), every roll also adds one to this game's counts by type
and result and by die size, and at the end of the game ``_add_moments`` adds their
products into the moments of ``counts.new_totals``.

Every random draw goes through ``zooanalysis.rng`` on the game's stream in the engine's
order, and every decision through the compiled functions of ``strategies.py`` with the
arguments ``engine.BuiltinStrategy`` passes (``random`` through the small ``random_*``
functions that its ``choose_*`` branches call too, so both engines share one code).

Speed: a call to a compiled helper that takes arrays costs an atomic reference count
increment and decrement per array (numba's NRT), which cost more than this game's work,
unless numba can prove them redundant: it can in a helper whose body makes no views, reads
no tuple of arrays and calls nothing that counts references itself, and it cannot across
this large loop. ``inline="always"`` does not help here: numba's inlining copies every
array argument into a new variable, with a count each (a work tuple of 19 arrays cost 19
per call). So the hot path of the base game (deal, pick, roll, battle, tie, award) calls
plain helpers written without views or tuples (``greedy_rate``, ``fill_mixes``,
``card_tables`` and ``discard_at`` on row indices), and writes the rest out in
``_play_batch``; helpers with work tuples serve only the variants' rarer steps. The
variants' frequent steps take their work arrays one by one too: the reduced die's choice
(``subset_at``'s steps: ``equilibrium_subset_at``, or ``fill_mixes``, ``values_at`` and
``best_subset``), the double roll's (``keep_at``'s) and Busy Zoo's people values
(``people_values_in``); in the everything
scenario that made ``equilibrium*4`` about 15% faster (CPU time, same games). Nothing is
allocated per game. (Measured with ``perf``: the return address of each sample in
``NRT_incref``/``NRT_decref`` names the helper that counts.)

Card tables: each Zoo Card's ``strategies.card_tables`` (its duel masks and, with Busy Zoo,
the winners of every set of shown animals) is built the first time a non-``random``
decision needs it in a game (``tables[c]``, valid while ``built[c]`` is the game's key)
and read by every later decision about the card: picking (``greedy_rate``,
``people_values``), the reduced die and the double roll (``subset_at``, ``keep_at``: the
equilibrium's payoff matrix is read off it) and discarding (``discard_at``). The reference
engine decides with the direct evaluations (``choose_subset``, ``choose_keep``,
``choose_discard``), so the engines' agreement tests check the tables in play. A table
depends only on the card's cycle and special (``flat.row_key``), and a fresh print per game
deals mostly cycles dealt before, so ``strategies.card_tables_cached`` copies it from a small
per-batch cache when it can (the same integers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.decisions import combinations, count_decision, count_game_decisions
from zooanalysis.games.lucky_lions.counts import (
    CARDS_WON_BINS,
    DIE_BINS,
    LEAD_BINS,
    POINT_BINS,
    SETTLED_BINS,
    TURN_BINS,
)
from zooanalysis.games.lucky_lions.flat import (
    CARD_FIELDS,
    DIE_SPLIT,
    DOLPHIN,
    DOUBLE_ROLL,
    FLAMINGO,
    FOX,
    LION,
    N_TYPES,
    PANDA,
    PEOPLE,
    PLAYER_EXCLUDE,
    POINTS,
    SIZE,
    SPECIAL,
    mark_winners,
    pair_winners,
    shows_animal,
    wild_tie_break,
)
from zooanalysis.games.lucky_lions.generator import generate_deck_into, work_size
from zooanalysis.games.lucky_lions.strategies import (
    EQUILIBRIUM,
    RANDOM,
    TABLE_WIDTH,
    best_subset,
    card_tables_cached,
    choose_discarder,
    choose_draw_instead,
    choose_excluded,
    choose_receiver,
    choose_reroll,
    choose_switch,
    discard_at,
    equilibrium_subset_at,
    fill_mixes,
    greedy_rate,
    keep_choice,
    new_strategy_workspace,
    new_table_cache,
    pair_values_at,
    people_values_in,
    random_card,
    random_coin,
    random_discard,
    random_discarder,
    random_index,
    random_other,
    random_subset,
    values_at,
)
from zooanalysis.outcome import tally_outcome
from zooanalysis.rng import below, seed_game

N_ANIMALS = 5
WILD_LION = LION + N_ANIMALS
WILD_FOX = FOX + N_ANIMALS
WILD_PANDA = PANDA + N_ANIMALS
WILD_FLAMINGO = FLAMINGO + N_ANIMALS
WILD_DOLPHIN = DOLPHIN + N_ANIMALS

END_POINTS, END_DECK, END_TURN_LIMIT = 0, 1, 2
POWER_LION, POWER_FLAMINGO, POWER_FOX, POWER_PANDA, POWER_DOLPHIN = range(5)
RESULT_WON, RESULT_TIED, RESULT_LOST, RESULT_VOID = range(4)
RESULTS = 4
TIE_DISCARD, TIE_NOBODY, TIE_THREE = range(3)

OK = 0
ILLEGAL = 1
"""Status: a strategy made an illegal choice (a bug in a strategy, never a user error)."""
OVERFLOW = 2
"""Status: the market outgrew its arrays (a bug in the kernel)."""

MAX_ROLLS = 4
"""Rolls one roller can make in a battle: two (double_roll) plus a wild fox's reroll."""

# indices into the game scalars ``gs``
PILE_TOP = 0
DECK_TOP = 1
MARKET_N = 2
TURNS = 3
LEADER = 4
STREAK_LEADER = 5
STREAK_START = 6
LEAD_CHANGES = 7
LAST_CHECK = 8
DECK_END = 9
GAME_SCALARS = 10

REFUSED_DECK_BOTTOM, REFUSED_MARKET, REFUSED_OUT = range(3)
"""``rules.REFUSED_ZOO_CARD``, by index."""


def play_batch(
    deck_rows: np.ndarray,
    fresh: bool,
    tables,
    animal_cards: np.ndarray,
    die_size: int,
    points_to_win: int,
    market_size: int,
    reshuffle_at_points: int,
    turn_limit: int,
    reduced_die: bool,
    no_shuffle: bool,
    draw_instead: bool,
    busy_zoo: bool,
    wild_animals: bool,
    codes: np.ndarray,
    params: np.ndarray,
    batch_seed: int,
    n_games: int,
    totals: dict[str, np.ndarray],
    rows: dict[str, np.ndarray] | None = None,
    first_game: int = 0,
    refused_zoo_card: int = 0,
    panda_rejudge: bool = True,
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed``, adding into ``totals`` (from ``counts.new_totals``).

    ``deck_rows``: the fixed deck's card rows (ignored when ``fresh``); ``tables``: a
    ``generator.GeneratorTables`` for a fresh print per game (ignored unless ``fresh``);
    ``animal_cards``: the unshuffled Animal Cards as types. ``codes`` and ``params`` hold each
    seat's strategy code and parameters. ``rows``, from ``counts.new_rows``, receives one
    row per game when given. ``refused_zoo_card`` indexes ``rules.REFUSED_ZOO_CARD`` (where a
    card refused under draw instead goes) and ``panda_rejudge`` is ``panda_switch ==
    "rejudge"``. Raises ``RuntimeError`` if a strategy made an illegal choice.
    """
    players = codes.shape[0]
    if rows is None:
        from zooanalysis.games.lucky_lions.counts import new_rows

        rows = new_rows(0, players)
    empty = np.zeros(0, dtype=np.int64)
    status = _play_batch(
        np.ascontiguousarray(deck_rows, dtype=np.int64).reshape(-1, CARD_FIELDS),
        bool(fresh),
        np.int64(tables.base_cards) if fresh else np.int64(0),
        tables.base_sizes if fresh else empty,
        tables.base_points if fresh else empty,
        np.int64(tables.base_people) if fresh else np.int64(0),
        np.int64(tables.busy_cards) if fresh else np.int64(0),
        tables.busy_sizes if fresh else empty,
        tables.busy_points if fresh else empty,
        tables.busy_types if fresh else empty,
        np.int64(tables.busy_people) if fresh else np.int64(0),
        np.ascontiguousarray(animal_cards, dtype=np.int64),
        np.int64(die_size),
        np.int64(points_to_win),
        np.int64(market_size),
        np.int64(reshuffle_at_points),
        np.int64(turn_limit),
        bool(reduced_die),
        bool(no_shuffle),
        bool(draw_instead),
        bool(busy_zoo),
        bool(wild_animals),
        np.int64(refused_zoo_card),
        bool(panda_rejudge),
        np.ascontiguousarray(codes, dtype=np.int64),
        np.ascontiguousarray(params, dtype=np.float64),
        np.uint64(batch_seed),
        np.int64(first_game),
        np.int64(n_games),
        totals["games"],
        totals["wins"],
        totals["sole_wins"],
        totals["points_sum"],
        totals["points_squares"],
        totals["points_hist"],
        totals["cards_won_hist"],
        totals["draws_instead"],
        totals["turns_hist"],
        totals["end_reasons"],
        totals["battles"],
        totals["rolls"],
        totals["ties"],
        totals["powers"],
        totals["lead_changes"],
        totals["settled"],
        totals["shown_moments"],
        totals["die_moments"],
        totals["roll_moments"],
        totals["win_ties"],
        totals["margins"],
        totals["decision_options"],
        totals["game_decisions"],
        rows["row_points"],
        rows["row_cards_won"],
        rows["row_turns"],
        rows["row_end"],
        new_strategy_workspace(),
        *new_table_cache(),
    )
    if status == ILLEGAL:
        raise RuntimeError("kernel stopped: a strategy made an illegal choice")
    if status != OK:
        raise RuntimeError(f"kernel stopped with status {status}")


# --- small helpers -----------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _shuffle_die(die: np.ndarray, seat: np.int64, n: np.int64, stream: np.ndarray) -> None:
    """``rng.shuffle`` on die ``seat``'s ``n`` cards (the same draws, in place)."""
    for i in range(n - 1, 0, -1):
        j = below(stream, i + 1)
        a = die[seat, i]
        die[seat, i] = die[seat, j]
        die[seat, j] = a


@njit(cache=True, nogil=True, error_model="numpy")
def _remove_at(die: np.ndarray, dlen: np.ndarray, seat: np.int64, position: np.int64) -> None:
    """``del die[position]``: the later cards move up."""
    n = dlen[seat]
    for p in range(position, n - 1):
        die[seat, p] = die[seat, p + 1]
    dlen[seat] = n - 1


@njit(cache=True, nogil=True, error_model="numpy")
def _observe(
    code: np.int64,
    seat: np.int64,
    die: np.ndarray,
    dlen: np.ndarray,
    animal_counts: np.ndarray,
    public: np.ndarray,
    own_discards: np.ndarray,
    seen: np.ndarray,
    my_die: np.ndarray,
    unseen: np.ndarray,
) -> None:
    """``engine.observe``'s private part: ``my_die`` (counts per type) and, for strategies
    other than ``random`` (which never reads it), ``unseen``."""
    for t in range(N_TYPES):
        my_die[t] = 0
    for p in range(dlen[seat]):
        my_die[die[seat, p]] += 1
    if code == RANDOM:
        return
    players = dlen.shape[0]
    for t in range(N_TYPES):
        left = animal_counts[t] - my_die[t] - public[t] - own_discards[seat, t]
        for q in range(players):
            if q != seat:
                left -= seen[q, t]
        unseen[t] = max(left, 0)


@njit(cache=True, nogil=True, error_model="numpy")
def _market_rows(
    rows: np.ndarray, market: np.ndarray, market_n: np.int64, out: np.ndarray
) -> None:
    """The face-up Zoo Cards as rows, for strategies that read them."""
    for m in range(market_n):
        for f in range(CARD_FIELDS):
            out[m, f] = rows[market[m], f]


@njit(cache=True, nogil=True, error_model="numpy")
def _top_fresh(
    r: np.int64,
    r_chosen: np.ndarray,
    r_nchosen: np.ndarray,
    r_rolled: np.ndarray,
    r_nrolled: np.ndarray,
) -> np.int64:
    """No-shuffle roll: the topmost chosen position not rolled yet this battle (the first
    chosen one when all were)."""
    for c in range(r_nchosen[r]):
        p = r_chosen[r, c]
        fresh = True
        for k in range(r_nrolled[r]):
            if r_rolled[r, k] == p:
                fresh = False
                break
        if fresh:
            return p
    return r_chosen[r, 0]


@njit(cache=True, nogil=True, error_model="numpy")
def _roll(
    r: np.int64,
    seat: np.int64,
    no_shuffle: bool,
    die: np.ndarray,
    r_chosen: np.ndarray,
    r_nchosen: np.ndarray,
    r_rolled: np.ndarray,
    r_nrolled: np.ndarray,
    seen: np.ndarray,
    stream: np.ndarray,
) -> np.int64:
    """``engine.roll``: a random chosen position, or (no shuffle) the topmost chosen position
    not rolled yet this battle; the shown card becomes seen."""
    if no_shuffle:
        position = _top_fresh(r, r_chosen, r_nchosen, r_rolled, r_nrolled)
    else:
        position = r_chosen[r, below(stream, r_nchosen[r])]
    r_rolled[r, r_nrolled[r]] = position
    r_nrolled[r] += 1
    seen[seat, die[seat, position]] = 1
    return position


@njit(cache=True, nogil=True, error_model="numpy")
def _to_bottom(
    nb: np.int64,
    r_seat: np.ndarray,
    r_rolled: np.ndarray,
    r_nrolled: np.ndarray,
    die: np.ndarray,
    dlen: np.ndarray,
    tmp: np.ndarray,
) -> None:
    """``engine._rolled_to_bottom`` (no-shuffle variant): each roller's rolled cards go to
    the bottom of its die, in the order first rolled."""
    for r in range(nb):
        seat = r_seat[r]
        n = dlen[seat]
        m = 0
        for p in range(n):
            rolled = False
            for k in range(r_nrolled[r]):
                if r_rolled[r, k] == p:
                    rolled = True
                    break
            if not rolled:
                tmp[m] = die[seat, p]
                m += 1
        for k in range(r_nrolled[r]):
            p = r_rolled[r, k]
            first = True
            for j in range(k):
                if r_rolled[r, j] == p:
                    first = False
                    break
            if first:
                tmp[m] = die[seat, p]
                m += 1
        for p in range(n):
            die[seat, p] = tmp[p]


@njit(cache=True, nogil=True, error_model="numpy")
def _draw(
    seat: np.int64,
    count: np.int64,
    die: np.ndarray,
    dlen: np.ndarray,
    pile: np.ndarray,
    gs: np.ndarray,
    no_shuffle: bool,
    stream: np.ndarray,
) -> None:
    """``engine.draw_animals``: up to ``count`` face-down Animal Cards onto the die's end
    (then, without shuffle, the die is reshuffled)."""
    drawn = min(count, pile.shape[0] - gs[PILE_TOP])
    for _ in range(drawn):
        die[seat, dlen[seat]] = pile[gs[PILE_TOP]]
        dlen[seat] += 1
        gs[PILE_TOP] += 1
    if drawn > 0 and no_shuffle:
        _shuffle_die(die, seat, dlen[seat], stream)


@njit(cache=True, nogil=True, error_model="numpy")
def _to_deck_bottom(
    card_i: np.int64,
    order: np.ndarray,
    market: np.ndarray,
    market_size: np.int64,
    gs: np.ndarray,
) -> None:
    """``engine.return_refused`` ("deck_bottom"): the card goes under the Zoo deck
    (``order[DECK_TOP:DECK_END]``, moved to the front of ``order`` when its end is reached),
    then the market is refilled from the deck if short."""
    if gs[DECK_END] >= order.shape[0]:
        n = gs[DECK_END] - gs[DECK_TOP]
        for i in range(n):
            order[i] = order[gs[DECK_TOP] + i]
        gs[DECK_TOP] = 0
        gs[DECK_END] = n
    order[gs[DECK_END]] = card_i
    gs[DECK_END] += 1
    while gs[MARKET_N] < market_size and gs[DECK_TOP] < gs[DECK_END]:
        market[gs[MARKET_N]] = order[gs[DECK_TOP]]
        gs[MARKET_N] += 1
        gs[DECK_TOP] += 1


@njit(cache=True, nogil=True, error_model="numpy")
def _raw_winners(
    card: np.ndarray, nb: np.int64, types: np.ndarray, animals: np.ndarray, winners: np.ndarray
) -> np.int64:
    """The card's winners (``card_winners``, no wild powers) as a mask; returns how many."""
    if nb == 2:
        win_a, win_b = pair_winners(card, types[0] % N_ANIMALS, types[1] % N_ANIMALS)
        winners[0] = 1 if win_a else 0
        winners[1] = 1 if win_b else 0
        return winners[0] + winners[1]
    for r in range(nb):
        animals[r] = types[r] % N_ANIMALS
    return mark_winners(card, animals, nb, winners)


@njit(cache=True, nogil=True, error_model="numpy")
def _find_winners(
    card: np.ndarray,
    nb: np.int64,
    types: np.ndarray,
    animals: np.ndarray,
    winners: np.ndarray,
    wild_animals: bool,
) -> np.int64:
    """``engine.find_winners`` as a mask in ``winners``; returns how many won."""
    found = _raw_winners(card, nb, types, animals, winners)
    if wild_animals and found > 1:
        found = wild_tie_break(types, nb, winners)
    return found


# --- the batch ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True, error_model="numpy")
def _add_moments(game_shown, game_sizes, shown_moments, die_moments, roll_moments):
    """End of a game: add the products of its per-game roll counts into the moments that
    ``counts.new_totals`` describes (``shown_moments``, ``die_moments``, ``roll_moments``),
    and clear ``game_shown`` (type x result) and ``game_sizes`` (die size) for the next."""
    rolled = 0
    size_sum = 0
    for size in range(game_sizes.shape[0]):
        rolled += game_sizes[size]
        size_sum += size * game_sizes[size]
    for size in range(game_sizes.shape[0]):
        count = game_sizes[size]
        if count > 0:
            die_moments[size, 0] += count * count
            die_moments[size, 1] += count * rolled
            game_sizes[size] = 0
    roll_moments[0] += rolled * rolled
    roll_moments[1] += size_sum * size_sum
    roll_moments[2] += size_sum * rolled
    for card_type in range(game_shown.shape[0]):
        shown = 0
        for result in range(game_shown.shape[1]):
            shown += game_shown[card_type, result]
        if shown > 0:
            won = game_shown[card_type, RESULT_WON]
            tied = game_shown[card_type, RESULT_TIED]
            lost = game_shown[card_type, RESULT_LOST]
            shown_moments[card_type, 0] += won * won
            shown_moments[card_type, 1] += tied * tied
            shown_moments[card_type, 2] += lost * lost
            shown_moments[card_type, 3] += shown * shown
            shown_moments[card_type, 4] += won * shown
            shown_moments[card_type, 5] += tied * shown
            shown_moments[card_type, 6] += lost * shown
            for result in range(game_shown.shape[1]):
                game_shown[card_type, result] = 0


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    fixed_rows,
    fresh,
    base_cards,
    base_sizes,
    base_points,
    base_people,
    busy_cards,
    busy_sizes,
    busy_points,
    busy_types,
    busy_people,
    animal_cards,
    die_size,
    points_to_win,
    market_size,
    reshuffle_at,
    turn_limit,
    reduced_die,
    no_shuffle,
    draw_instead,
    busy_zoo,
    wild_animals,
    refused_to,
    panda_rejudge,
    codes,
    params,
    batch_seed,
    first_game,
    n_games,
    t_games,
    t_wins,
    t_sole,
    t_points_sum,
    t_points_squares,
    t_points_hist,
    t_cards_won_hist,
    t_draws,
    t_turns,
    t_end,
    t_battles,
    t_rolls,
    t_ties,
    t_powers,
    t_lead,
    t_settled,
    t_shown_moments,
    t_die_moments,
    t_roll_moments,
    t_win_ties,
    t_margins,
    t_options,
    t_decisions,
    row_points,
    row_cards_won,
    row_turns,
    row_end,
    strategy_work,
    cache_keys,
    cache_tables,
):
    players = codes.shape[0]
    n_cards = base_cards + busy_cards if fresh else fixed_rows.shape[0]
    rows = np.empty((max(n_cards, 1), CARD_FIELDS), dtype=np.int64)
    if not fresh:
        for c in range(n_cards):
            for f in range(CARD_FIELDS):
                rows[c, f] = fixed_rows[c, f]
    scratch = work_size(
        base_sizes, base_points, busy_sizes, busy_points, busy_types, base_cards, busy_cards
    )
    work = np.empty(scratch, dtype=np.int64)  # generator scratch
    order = np.empty(n_cards, dtype=np.int64)
    market_cap = market_size + 2
    market = np.empty(market_cap, dtype=np.int64)
    market_rows = np.zeros((market_cap, CARD_FIELDS), dtype=np.int64)
    card = np.empty(CARD_FIELDS, dtype=np.int64)
    people = np.zeros(market_cap)  # greedy: each market card's value if everyone rolls
    discard_work = np.zeros(2 * N_TYPES)
    mixes = strategy_work.mixes
    w_rollers = strategy_work.rollers  # people_values_in's work arrays, one by one
    w_animal_mix = strategy_work.animal_mix
    w_options = strategy_work.options
    w_n_options = strategy_work.n_options
    w_digits = strategy_work.digits
    w_high = strategy_work.high
    w_values = strategy_work.values
    w_left = strategy_work.left
    g_their_die = strategy_work.game.their_die  # equilibrium_subset_at's, one by one
    g_share = strategy_work.game.share
    g_payoff = strategy_work.game.payoff
    g_mine = strategy_work.game.mine
    g_theirs = strategy_work.game.theirs
    g_matrix = strategy_work.game.matrix
    g_tableau = strategy_work.game.tableau
    g_basis = strategy_work.game.basis
    g_mix = strategy_work.game.mix
    g_small = strategy_work.game.small

    n_animals = animal_cards.shape[0]
    animal_counts = np.zeros(N_TYPES, dtype=np.int64)
    for t in animal_cards:
        animal_counts[t] += 1
    pile = np.empty(n_animals, dtype=np.int64)
    cap = max(n_animals, 1)
    die = np.empty((players, cap), dtype=np.int64)
    dlen = np.zeros(players, dtype=np.int64)
    tmp = np.empty(cap, dtype=np.int64)
    seen = np.zeros((players, N_TYPES), dtype=np.int64)
    public = np.zeros(N_TYPES, dtype=np.int64)
    own_discards = np.zeros((players, N_TYPES), dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    won = np.zeros(players, dtype=np.int64)
    reshuffled = np.zeros(players, dtype=np.int64)
    gs = np.zeros(GAME_SCALARS, dtype=np.int64)

    my_die = np.zeros(N_TYPES, dtype=np.int64)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    my_params = np.zeros(params.shape[1], dtype=np.float64)
    subset = np.zeros(N_TYPES, dtype=np.int64)

    r_seat = np.empty(players, dtype=np.int64)
    r_chosen = np.empty((players, cap), dtype=np.int64)
    r_nchosen = np.zeros(players, dtype=np.int64)
    r_rolled = np.empty((players, MAX_ROLLS), dtype=np.int64)
    r_nrolled = np.zeros(players, dtype=np.int64)
    r_shown = np.zeros(players, dtype=np.int64)
    r_rerolled = np.zeros(players, dtype=np.int64)
    types = np.zeros(players, dtype=np.int64)
    animals = np.zeros(players, dtype=np.int64)
    winners = np.zeros(players, dtype=np.int64)
    tied = np.zeros(players, dtype=np.int64)
    winner_seats = np.zeros(players, dtype=np.int64)
    game_shown = np.zeros((N_TYPES, RESULTS), dtype=np.int64)  # this game's rolls, for
    game_sizes = np.zeros(DIE_BINS, dtype=np.int64)  # the clustered intervals (_add_moments)

    write_rows = row_turns.shape[0] > 0
    stream = np.empty(1, dtype=np.uint64)
    tables = np.zeros((max(n_cards, 1), TABLE_WIDTH), dtype=np.int64)  # strategies.card_tables
    built = np.zeros(max(n_cards, 1), dtype=np.int64)  # the table_key they were built for

    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        table_key = game + 1 if fresh else 1  # a fresh print per game: tables per game
        # ---- deal (engine.new_game) ----
        if fresh:
            generate_deck_into(
                base_cards,
                base_sizes,
                base_points,
                base_people,
                busy_cards,
                busy_sizes,
                busy_points,
                busy_types,
                busy_people,
                stream,
                rows,
                work,
            )
        for c in range(n_cards):
            order[c] = c
        for i in range(n_cards - 1, 0, -1):
            j = below(stream, i + 1)
            a = order[i]
            order[i] = order[j]
            order[j] = a
        for i in range(n_animals):
            pile[i] = animal_cards[i]
        for i in range(n_animals - 1, 0, -1):
            j = below(stream, i + 1)
            a = pile[i]
            pile[i] = pile[j]
            pile[j] = a
        for p in range(players):
            for i in range(die_size):
                die[p, i] = pile[p * die_size + i]
            dlen[p] = die_size
            scores[p] = 0
            won[p] = 0
            reshuffled[p] = 0
            for t in range(N_TYPES):
                seen[p, t] = 0
                own_discards[p, t] = 0
        for t in range(N_TYPES):
            public[t] = 0
        gs[PILE_TOP] = players * die_size
        market_n = min(market_size, n_cards)
        for m in range(market_n):
            market[m] = order[m]
        gs[DECK_TOP] = market_n
        gs[DECK_END] = n_cards
        gs[MARKET_N] = market_n
        gs[TURNS] = 0
        gs[LEADER] = -1
        gs[STREAK_LEADER] = -2  # no score check yet
        gs[STREAK_START] = 0
        gs[LEAD_CHANGES] = 0
        gs[LAST_CHECK] = -1

        # ---- turns (engine.play_game) ----
        decided = 0  # real decisions this game (zooanalysis.decisions)
        active = np.int64(0)  # typed, not the literal 0: its helpers compile once
        end_reason = END_POINTS
        while True:
            if gs[MARKET_N] == 0:
                end_reason = END_DECK
                break
            if gs[TURNS] >= turn_limit:
                end_reason = END_TURN_LIMIT
                break

            # ---- one turn (engine.play_turn) ----
            options = gs[MARKET_N] * (players - 1)  # engine.pick_options
            if busy_zoo:
                options = np.int64(0)
                for m in range(gs[MARKET_N]):
                    options += 1 if rows[market[m], PEOPLE] == 1 else players - 1
            decided += count_decision(options, t_options)
            code = codes[active]
            if code == RANDOM:
                pick, opponent = random_card(active, players, gs[MARKET_N], stream)
            else:
                _observe(
                    code, active, die, dlen, animal_counts, public, own_discards, seen, my_die,
                    unseen,
                )
                for m in range(gs[MARKET_N]):  # card tables, built once per card
                    c = market[m]
                    if built[c] != table_key:
                        card_tables_cached(
                            rows, c, wild_animals, busy_zoo, tables,
                            cache_keys, cache_tables,
                        )
                        built[c] = table_key
                # greedy_card, its three steps called here: no work tuple on the hot path
                fill_mixes(active, my_die, dlen, seen, unseen, mixes)
                if busy_zoo:
                    people_values_in(
                        active, market, gs[MARKET_N], rows, tables, mixes, dlen, w_rollers,
                        w_animal_mix, w_options, w_n_options, w_digits, w_high, people,
                    )
                pick, opponent = greedy_rate(
                    active, market, gs[MARKET_N], rows, tables, mixes, people, dlen, scores,
                    busy_zoo, stream,
                )
            if not 0 <= pick < gs[MARKET_N]:
                return ILLEGAL
            if opponent == active or not 0 <= opponent < players:
                return ILLEGAL
            card_i = market[pick]
            for m in range(pick, gs[MARKET_N] - 1):
                market[m] = market[m + 1]
            gs[MARKET_N] -= 1
            while gs[MARKET_N] < market_size and gs[DECK_TOP] < gs[DECK_END]:
                market[gs[MARKET_N]] = order[gs[DECK_TOP]]
                gs[MARKET_N] += 1
                gs[DECK_TOP] += 1
            for f in range(CARD_FIELDS):
                card[f] = rows[card_i, f]

            switched = False
            void = False
            nb = 0
            while True:  # a wild panda's switch restarts the battle once, on the new card
                # battlers_for
                if busy_zoo and card[PEOPLE] == 1:
                    excluded = -1
                    if card[SPECIAL] == PLAYER_EXCLUDE and players >= 3:
                        decided += count_decision(players - 1, t_options)
                        if codes[active] == RANDOM:
                            excluded = random_other(active, players, stream)
                        else:
                            excluded = choose_excluded(codes[active], active, scores, stream)
                        if excluded == active or not 0 <= excluded < players:
                            return ILLEGAL
                    nb = 0
                    for step in range(players):
                        seat = (active + step) % players
                        if seat != excluded:
                            r_seat[nb] = seat
                            nb += 1
                else:
                    r_seat[0] = active
                    r_seat[1] = opponent
                    nb = 2
                # start_rolls
                k = 0
                if reduced_die or (busy_zoo and card[SPECIAL] == DIE_SPLIT):
                    k = card[SIZE]
                for r in range(nb):
                    seat = r_seat[r]
                    n = dlen[seat]
                    r_nrolled[r] = 0
                    r_rerolled[r] = 0
                    if 0 < k < n:
                        decided += count_decision(combinations(n, k), t_options)
                        c = codes[seat]
                        if c == RANDOM:
                            for t in range(N_TYPES):
                                my_die[t] = 0
                            for p in range(n):
                                my_die[die[seat, p]] += 1
                            random_subset(my_die, k, stream, subset, tmp)
                        else:
                            _observe(
                                c, seat, die, dlen, animal_counts, public, own_discards, seen,
                                my_die, unseen,
                            )
                            if built[card_i] != table_key:
                                card_tables_cached(
                                    rows, card_i, wild_animals, busy_zoo, tables,
                                    cache_keys, cache_tables,
                                )
                                built[card_i] = table_key
                            # subset_at, its steps called here: no work tuple on the hot
                            # path (the several-roller values, rarer, take it)
                            if c == EQUILIBRIUM and nb == 2:
                                equilibrium_subset_at(
                                    tables, card_i, seat, r_seat[1] if r_seat[0] == seat
                                    else r_seat[0], active, k, my_die, dlen, seen, unseen,
                                    wild_animals, stream, subset, g_their_die, g_share,
                                    g_payoff, g_mine, g_theirs, g_matrix, g_tableau, g_basis,
                                    g_mix, g_small,
                                )
                            else:
                                fill_mixes(seat, my_die, dlen, seen, unseen, mixes)
                                if nb == 2:
                                    pair_values_at(
                                        tables, card_i, seat, r_seat[1] if r_seat[0] == seat
                                        else r_seat[0], active, mixes, dlen, w_values,
                                    )
                                else:
                                    values_at(
                                        tables, card_i, seat, r_seat, nb, active, mixes, dlen,
                                        w_animal_mix, w_options, w_n_options, w_digits,
                                        w_values,
                                    )
                                best_subset(my_die, w_values, k, subset, w_left)
                        total = 0
                        for t in range(N_TYPES):
                            if subset[t] < 0 or subset[t] > my_die[t]:
                                return ILLEGAL
                            total += subset[t]
                        if total != k:
                            return ILLEGAL
                        m = 0
                        for p in range(n):  # choose_positions: the topmost of each type
                            t = die[seat, p]
                            if subset[t] > 0:
                                subset[t] -= 1
                                r_chosen[r, m] = p
                                m += 1
                        r_nchosen[r] = m
                    else:
                        for p in range(n):
                            r_chosen[r, p] = p
                        r_nchosen[r] = n
                double = busy_zoo and card[SPECIAL] == DOUBLE_ROLL
                for r in range(nb):
                    seat = r_seat[r]
                    # roll (written out here: the hot path calls no helper with arrays)
                    if no_shuffle:
                        first = _top_fresh(r, r_chosen, r_nchosen, r_rolled, r_nrolled)
                    else:
                        first = r_chosen[r, below(stream, r_nchosen[r])]
                    r_rolled[r, r_nrolled[r]] = first
                    r_nrolled[r] += 1
                    seen[seat, die[seat, first]] = 1
                    r_shown[r] = first
                    if double:
                        second = _roll(
                            r, seat, no_shuffle, die, r_chosen, r_nchosen, r_rolled,
                            r_nrolled, seen, stream,
                        )
                        decided += count_decision(np.int64(2), t_options)
                        c = codes[seat]
                        if c == RANDOM:
                            keep = 1 if random_coin(stream) else 0
                        else:
                            _observe(
                                c, seat, die, dlen, animal_counts, public, own_discards, seen,
                                my_die, unseen,
                            )
                            if built[card_i] != table_key:
                                card_tables_cached(
                                    rows, card_i, wild_animals, busy_zoo, tables,
                                    cache_keys, cache_tables,
                                )
                                built[card_i] = table_key
                            # keep_at, its steps called here (no work tuple)
                            fill_mixes(seat, my_die, dlen, seen, unseen, mixes)
                            values_at(
                                tables, card_i, seat, r_seat, nb, active, mixes, dlen,
                                w_animal_mix, w_options, w_n_options, w_digits, w_values,
                            )
                            keep = keep_choice(w_values, die[seat, first], die[seat, second])
                        r_shown[r] = second if keep == 1 else first
                # apply_powers; a wild panda's switch either comes back here to judge the
                # same shown animals on the new card (panda_rejudge) or rolls afresh
                while True:
                    switch_owner = -1
                    if wild_animals:
                        panda_on_card = shows_animal(card, np.int64(PANDA))
                        while True:
                            for r in range(nb):
                                types[r] = die[r_seat[r], r_shown[r]]
                            for r in range(nb):
                                if types[r] == WILD_DOLPHIN:
                                    void = True
                            if void:
                                break
                            if not switched and gs[MARKET_N] > 0 and not panda_on_card:
                                for r in range(nb):
                                    if types[r] == WILD_PANDA:
                                        switch_owner = r
                                        break
                                if switch_owner >= 0:
                                    break
                            rerolled = False
                            for r in range(nb):
                                if types[r] != WILD_FOX or r_rerolled[r] == 1:
                                    continue
                                _find_winners(card, nb, types, animals, winners, wild_animals)
                                winning = winners[r] == 1
                                seat = r_seat[r]
                                decided += count_decision(np.int64(2), t_options)
                                if choose_reroll(codes[seat], winning, stream):
                                    r_rerolled[r] = 1
                                    r_shown[r] = _roll(
                                        r, seat, no_shuffle, die, r_chosen, r_nchosen, r_rolled,
                                        r_nrolled, seen, stream,
                                    )
                                    t_powers[POWER_FOX] += 1
                                    rerolled = True
                                    break
                            if not rerolled:
                                break
                    if switch_owner >= 0:
                        seat = r_seat[switch_owner]
                        decided += count_decision(gs[MARKET_N], t_options)
                        c = codes[seat]
                        if c == RANDOM:
                            index = random_index(gs[MARKET_N], stream)
                        else:
                            _observe(
                                c, seat, die, dlen, animal_counts, public, own_discards, seen,
                                my_die, unseen,
                            )
                            _market_rows(rows, market, gs[MARKET_N], market_rows)
                            index = choose_switch(
                                c,
                                seat,
                                r_seat,
                                nb,
                                active,
                                market_rows,
                                gs[MARKET_N],
                                my_die,
                                dlen,
                                seen,
                                unseen,
                                wild_animals,
                                stream,
                                strategy_work,
                            )
                        if not 0 <= index < gs[MARKET_N]:
                            return ILLEGAL
                        t_powers[POWER_PANDA] += 1
                        swap = market[index]
                        market[index] = card_i
                        card_i = swap
                        for f in range(CARD_FIELDS):
                            card[f] = rows[card_i, f]
                        switched = True
                        if panda_rejudge:
                            continue
                    break
                if switch_owner >= 0 and not panda_rejudge:
                    if no_shuffle:
                        _to_bottom(nb, r_seat, r_rolled, r_nrolled, die, dlen, tmp)
                    continue
                break

            for r in range(nb):
                types[r] = die[r_seat[r], r_shown[r]]
            size = card[SIZE]
            if void:  # a wild dolphin: nobody wins, the card goes back face up
                t_powers[POWER_DOLPHIN] += 1
                t_battles[size, 0] += 1
                for r in range(nb):
                    t_rolls[types[r], min(dlen[r_seat[r]], DIE_BINS - 1), RESULT_VOID] += 1
                    game_shown[types[r], RESULT_VOID] += 1
                    game_sizes[min(dlen[r_seat[r]], DIE_BINS - 1)] += 1
                if no_shuffle:
                    _to_bottom(nb, r_seat, r_rolled, r_nrolled, die, dlen, tmp)
                for r in range(nb):  # _dolphins_leave
                    if types[r] != WILD_DOLPHIN:
                        continue
                    seat = r_seat[r]
                    if gs[PILE_TOP] < n_animals or dlen[seat] > 1:
                        position = -1
                        if not no_shuffle:
                            for p in range(dlen[seat]):
                                if die[seat, p] == WILD_DOLPHIN:
                                    position = p
                                    break
                        else:  # the shown dolphin went to the bottom
                            for p in range(dlen[seat] - 1, -1, -1):
                                if die[seat, p] == WILD_DOLPHIN:
                                    position = p
                                    break
                        _remove_at(die, dlen, seat, position)
                        public[WILD_DOLPHIN] += 1
                        seen[seat, WILD_DOLPHIN] = 0
                        _draw(seat, np.int64(1), die, dlen, pile, gs, no_shuffle, stream)
                if gs[MARKET_N] >= market_cap:
                    return OVERFLOW
                market[gs[MARKET_N]] = card_i
                gs[MARKET_N] += 1
            else:
                if nb == 2:  # _raw_winners, written out for the common two-roller battle
                    win_a, win_b = pair_winners(card, types[0] % N_ANIMALS, types[1] % N_ANIMALS)
                    winners[0] = 1 if win_a else 0
                    winners[1] = 1 if win_b else 0
                    raw = winners[0] + winners[1]
                else:
                    raw = _raw_winners(card, nb, types, animals, winners)
                found = raw
                if wild_animals and raw > 1:
                    for r in range(nb):
                        tied[r] = winners[r]
                    found = wild_tie_break(types, nb, winners)
                    if found < raw:  # _count_wild_tie_breaks
                        lion = False
                        for r in range(nb):
                            if tied[r] == 1 and types[r] == WILD_LION:
                                lion = True
                        t_powers[POWER_LION if lion else POWER_FLAMINGO] += 1
                n_won = np.int64(0)
                for r in range(nb):
                    if winners[r] == 1:
                        result = RESULT_WON if found == 1 else RESULT_TIED
                        winner_seats[n_won] = r_seat[r]
                        n_won += 1
                    else:
                        result = RESULT_LOST
                    t_rolls[types[r], min(dlen[r_seat[r]], DIE_BINS - 1), result] += 1
                    game_shown[types[r], result] += 1
                    game_sizes[min(dlen[r_seat[r]], DIE_BINS - 1)] += 1
                t_battles[size, 1 if found > 1 else 0] += 1
                if no_shuffle:
                    _to_bottom(nb, r_seat, r_rolled, r_nrolled, die, dlen, tmp)

                receiver = -1
                if n_won == 1:
                    receiver = winner_seats[0]
                elif n_won == 2:  # settle_tie
                    first = winner_seats[0]
                    second = winner_seats[1]
                    can_first = dlen[first] > 1
                    can_second = dlen[second] > 1
                    if not can_first and not can_second:
                        t_ties[TIE_NOBODY] += 1
                    else:
                        t_ties[TIE_DISCARD] += 1
                        if can_first and can_second:
                            decided += count_decision(np.int64(2), t_options)
                            if codes[active] == RANDOM:
                                discarder = random_discarder(first, second, stream)
                            else:
                                discarder = choose_discarder(
                                    codes[active], active, first, second, scores, stream
                                )
                            if discarder != first and discarder != second:
                                return ILLEGAL
                        else:
                            discarder = first if can_first else second
                        # discard
                        decided += count_decision(dlen[discarder], t_options)
                        c = codes[discarder]
                        if c == RANDOM:
                            for t in range(N_TYPES):
                                my_die[t] = 0
                            for p in range(dlen[discarder]):
                                my_die[die[discarder, p]] += 1
                            card_type = random_discard(my_die, stream)
                        else:
                            _observe(
                                c, discarder, die, dlen, animal_counts, public, own_discards,
                                seen, my_die, unseen,
                            )
                            for m in range(gs[MARKET_N]):
                                ci = market[m]
                                if built[ci] != table_key:
                                    card_tables_cached(
                                        rows, ci, wild_animals, busy_zoo, tables,
                                        cache_keys, cache_tables,
                                    )
                                    built[ci] = table_key
                            card_type = discard_at(
                                my_die, market, gs[MARKET_N], rows, tables, unseen, discard_work
                            )
                        if not 0 <= card_type < N_TYPES or my_die[card_type] == 0:
                            return ILLEGAL
                        n = dlen[discarder]
                        for p in range(n):  # list.remove: the first such card
                            if die[discarder, p] == card_type:
                                for q in range(p, n - 1):
                                    die[discarder, q] = die[discarder, q + 1]
                                dlen[discarder] = n - 1
                                break
                        own_discards[discarder, card_type] += 1
                        for t in range(N_TYPES):
                            seen[discarder, t] = 0
                        receiver = second if discarder == first else first
                else:
                    t_ties[TIE_THREE] += 1
                    decided += count_decision(n_won, t_options)
                    if codes[active] == RANDOM:
                        index = random_index(n_won, stream)
                    else:
                        index = choose_receiver(
                            codes[active], active, winner_seats, n_won, scores, stream
                        )
                    if not 0 <= index < n_won:
                        return ILLEGAL
                    receiver = winner_seats[index]
                if receiver >= 0:  # award (written out: the hot path)
                    points = card[POINTS]
                    refuse = False
                    if draw_instead:
                        decided += count_decision(np.int64(2), t_options)
                        c = codes[receiver]
                        if c == RANDOM:
                            refuse = random_coin(stream)
                        else:
                            for i in range(my_params.shape[0]):
                                my_params[i] = params[receiver, i]
                            refuse = choose_draw_instead(
                                c,
                                my_params,
                                points,
                                scores[receiver],
                                points_to_win,
                                dlen[receiver],
                                stream,
                            )
                    if refuse:
                        t_draws[receiver] += 1
                        if refused_to == REFUSED_MARKET:  # engine.return_refused
                            if gs[MARKET_N] >= market_cap:
                                return OVERFLOW
                            market[gs[MARKET_N]] = card_i
                            gs[MARKET_N] += 1
                        elif refused_to == REFUSED_DECK_BOTTOM:
                            _to_deck_bottom(card_i, order, market, market_size, gs)
                        _draw(receiver, points, die, dlen, pile, gs, no_shuffle, stream)
                    else:
                        scores[receiver] += points
                        won[receiver] += 1
                        if (
                            no_shuffle
                            and reshuffled[receiver] == 0
                            and scores[receiver] >= reshuffle_at
                        ):
                            reshuffled[receiver] = 1
                            _shuffle_die(die, receiver, dlen[receiver], stream)
                        # note_leader (a score check): lead changes, and the first turn
                        # from which the current sole leader (or none) led at every check
                        best = scores[0]
                        for q in range(1, players):
                            best = max(best, scores[q])
                        leader = -1
                        for q in range(players):
                            if scores[q] == best:
                                leader = q if leader == -1 else -2
                        if leader == -2:
                            leader = -1
                        if leader >= 0 and gs[LEADER] >= 0 and leader != gs[LEADER]:
                            gs[LEAD_CHANGES] += 1
                        if leader >= 0:
                            gs[LEADER] = leader
                        if leader != gs[STREAK_LEADER]:
                            gs[STREAK_LEADER] = leader
                            gs[STREAK_START] = gs[LAST_CHECK] + 1
                        gs[LAST_CHECK] = gs[TURNS]

            gs[TURNS] += 1
            best = scores[0]
            for q in range(1, players):
                best = max(best, scores[q])
            if best >= points_to_win:
                end_reason = END_POINTS
                break
            active = (active + 1) % players

        # ---- tally (counts.tally) ----
        turns = gs[TURNS]
        best = scores[0]
        for q in range(1, players):
            best = max(best, scores[q])
        n_best = 0
        sole = -1
        for q in range(players):
            if scores[q] == best:
                n_best += 1
                sole = q
        t_games[0] += 1
        for q in range(players):
            points = scores[q]
            if points == best:
                t_wins[q] += 1
                if n_best == 1:
                    t_sole[q] += 1
            t_points_sum[q] += points
            t_points_squares[q] += points * points
            t_points_hist[q, min(points, POINT_BINS - 1)] += 1
            t_cards_won_hist[q, min(won[q], CARDS_WON_BINS - 1)] += 1
        t_turns[min(turns, TURN_BINS - 1)] += 1
        t_end[end_reason] += 1
        tally_outcome(scores, players, np.bool_(False), t_win_ties, t_margins)
        t_lead[min(gs[LEAD_CHANGES], LEAD_BINS - 1)] += 1
        count_game_decisions(decided, t_decisions)
        _add_moments(game_shown, game_sizes, t_shown_moments, t_die_moments, t_roll_moments)
        if n_best == 1:
            settled = gs[STREAK_START] if gs[STREAK_LEADER] == sole else gs[LAST_CHECK] + 1
            t_settled[min(SETTLED_BINS - 1, (SETTLED_BINS * settled) // max(turns, 1))] += 1
        if write_rows:
            for q in range(players):
                row_points[game, q] = scores[q]
                row_cards_won[game, q] = won[q]
            row_turns[game] = turns
            row_end[game] = end_reason
    return OK
