"""The fast path: a numba kernel that plays a whole batch of Through the Zoo games.

It follows ``engine.py`` step by step: each player's deck is a row of faces (the top is the
end of the row, its length in ``deck_len``), a hand one ``uint64`` face mask (a hand only
ever holds its owner's cards, so never two identical faces). The four Exhibit cards' rounds
are the exhibit games' compiled ``exhibit_round`` functions (``ex0`` .. ``ex3``, with their
rules, strategy codes and parameters), bound into a copy of the batch loop generated per set
of exhibits (:func:`compiled_loop`), so a new exhibit needs no change here. Game
``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import EMPTY, count_faces, face_bit, nth_face
from zooanalysis.compiled import compiled_variant
from zooanalysis.decisions import OPTION_BINS, combinations, count_decision, count_game_decisions
from zooanalysis.games.through_the_zoo.counts import (
    DIAMOND_BINS,
    META,
    MULLIGAN_BINS,
    POINT_BINS,
    TOTAL_BINS,
)
from zooanalysis.games.through_the_zoo.rules import (
    DECK_SIZE,
    FEWEST_DIAMONDS,
    MAX_ROUNDS,
    TIE_SCALE,
    ThroughTheZooSettings,
)
from zooanalysis.games.through_the_zoo.strategies import mulligan_decision
from zooanalysis.outcome import MARGIN_BINS, tally_outcome
from zooanalysis.rng import seed_game, shuffle
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

(
    M_PLAYERS,
    M_ROUNDS,
    M_HAND,
    M_MULLIGAN,
    M_SHUFFLES_BACK,
    M_META,
    M_SHUFFLED,
    M_LAST_ZERO,
    M_TIE_SHARED,
    M_START,
    M_LATER_WINS,
    M_JOHANNESBURG,
    M_POINTS,
) = range(13)
N_META_RULES = M_POINTS + 4


def flat_rules(settings: ThroughTheZooSettings) -> np.ndarray:
    """The settings the kernel reads, as one int64 array (indices ``M_*``)."""
    values = np.zeros(N_META_RULES, dtype=np.int64)
    values[M_PLAYERS] = settings.players
    values[M_ROUNDS] = settings.rounds
    values[M_HAND] = settings.hand_size
    values[M_MULLIGAN] = settings.mulligan
    values[M_SHUFFLES_BACK] = int(settings.shuffles_back)
    values[M_META] = settings.meta
    values[M_SHUFFLED] = int(settings.exhibit_order == "shuffled")
    values[M_LAST_ZERO] = int(settings.last_gets_zero)
    values[M_TIE_SHARED] = int(settings.tie_break == "shared")
    values[M_START] = settings.start_seat
    values[M_LATER_WINS] = settings.later_wins
    values[M_JOHANNESBURG] = int(settings.zoo == "johannesburg")
    for rank, points in enumerate(settings.points):
        values[M_POINTS + rank] = points
    return values


@njit(cache=True, nogil=True, error_model="numpy")
def round_points(standing, players, rules, out):
    """Game points for a round's standings (``rules.round_points``): dense ranks, the worst
    standing 0 when ``last_gets_zero``."""
    worst = standing[0]
    for seat in range(1, players):
        worst = min(worst, standing[seat])
    for seat in range(players):
        rank = 0
        for other in range(players):
            value = standing[other]
            if value > standing[seat]:
                first = True
                for earlier in range(other):
                    if standing[earlier] == value:
                        first = False
                        break
                if first:
                    rank += 1
        if rules[M_LAST_ZERO] != 0 and standing[seat] == worst:
            out[seat] = 0
        else:
            out[seat] = rules[M_POINTS + min(rank, players - 1)]


@njit(cache=True, nogil=True, error_model="numpy")
def _sole_leader(values, players) -> int:
    best, leader = values[0], 0
    count = 1
    for seat in range(1, players):
        if values[seat] > best:
            best, leader, count = values[seat], seat, 1
        elif values[seat] == best:
            count += 1
    return leader if count == 1 else -1


@njit(cache=True, nogil=True, error_model="numpy")
def _order_index(order, rounds) -> int:
    index = 0
    for position in range(rounds):
        smaller = 0
        for later in range(position + 1, rounds):
            if order[later] < order[position]:
                smaller += 1
        factorial = 1
        for k in range(2, rounds - position):
            factorial *= k
        index += smaller * factorial
    return index


def play_batch(batch, batch_seed: int, n_games: int, totals, rows, first_game: int = 0) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` with the settings and exhibits of ``batch`` (``batch.ThroughTheZooBatch``),
    adding into ``totals`` (``counts.new_totals``) and ``rows`` (``counts.new_rows``)."""
    slots = len(batch.exhibit_modules)
    pick = [min(index, slots - 1) for index in range(MAX_ROUNDS)]
    loop = compiled_loop(tuple(batch.exhibit_modules[index] for index in pick))
    args = []
    for index in pick:
        args += [batch.ex_rules[index], batch.ex_codes[index], batch.ex_params[index]]
    loop(
        batch.rules, batch.values, batch.codes, batch.params, *args,
        np.uint64(batch_seed), np.int64(first_game), n_games,
        totals["games"], totals["wins"], totals["sole_wins"], totals["points_sum"],
        totals["points_squares"], totals["round_points"], totals["game_points_hist"],
        totals["meta_points"], totals["mulligans"], totals["diamonds"], totals["order_games"],
        totals["order_share_units"], totals["lead_sum"], totals["lead_squares"],
        totals["lead_games"], totals["lead_changes_hist"], totals["settled_hist"],
        totals["win_ties"], totals["margins"], totals["decision_options"],
        totals["game_decisions"], rows["row_points"], rows["row_standing"], rows["row_order"],
    )


# --- the batch loop, compiled once per set of exhibits -----------------------------------------
# numba cannot cache a function that takes other compiled functions as arguments, so the loop
# below is written out, for each tuple of exhibit modules, into a small module in the cache
# folder that binds ``ex0`` .. ``ex3`` as globals (``zooanalysis.compiled.compiled_variant``):
# compiled once, cached on disk like every other kernel.

_LOOPS: dict[tuple[str, ...], object] = {}
ex0 = ex1 = ex2 = ex3 = None
"""The slots' ``exhibit_round`` functions: bound by each generated module, never here."""


def compiled_loop(modules: tuple[str, ...]):
    """The compiled batch loop calling ``modules[i].exhibit_round`` for slot ``i`` (four
    modules), generated and imported on first use in this process (once: worker threads
    asking at the same time wait for the first)."""
    loop = _LOOPS.get(modules)
    if loop is None:
        bindings = {f"ex{index}": (name, "exhibit_round") for index, name in enumerate(modules)}
        loop = compiled_variant(_batch_loop, bindings, "through_the_zoo", "loop",
                                f"the batch loop for the exhibits {', '.join(modules)}")
        _LOOPS[modules] = loop
    return loop


def _batch_loop(
    rules, values, codes, params,
    rules0, codes0, params0,
    rules1, codes1, params1,
    rules2, codes2, params2,
    rules3, codes3, params3,
    batch_seed, first_game, n_games,
    games, wins, sole_wins, points_sum, points_squares, round_points_counts, game_points_hist,
    meta_points_hist, mulligans_hist, diamonds_hist, order_games, order_share_units,
    lead_sum, lead_squares, lead_games, lead_changes_hist, settled_hist, win_ties, margins,
    decision_options, game_decisions, row_points, row_standing, row_order,
):
    """The batch loop (compiled per set of exhibits by :func:`compiled_loop`; ``ex0`` ..
    ``ex3`` are the slots' ``exhibit_round`` functions, globals of the generated module)."""
    players = rules[M_PLAYERS]
    rounds = rules[M_ROUNDS]
    hand_size = rules[M_HAND]
    johannesburg = rules[M_JOHANNESBURG] != 0
    write_rows = row_points.shape[0] > 0
    stream = np.empty(1, dtype=np.uint64)
    order = np.empty(rounds, dtype=np.int64)
    decks = np.empty((players, DECK_SIZE), dtype=np.int64)  # as CODE_DTYPE: shuffle once
    deck_len = np.empty(players, dtype=np.int64)
    hands = np.empty(players, dtype=np.uint64)
    exhibit_hands = np.empty(players, dtype=np.uint64)
    standing = np.zeros(players, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    diamonds = np.zeros(players, dtype=np.int64)
    diamond_totals = np.zeros(players, dtype=np.int64)
    points = np.zeros((MAX_ROUNDS, players), dtype=np.int64)
    meta_points = np.zeros(players, dtype=np.int64)
    game_points = np.zeros(players, dtype=np.int64)
    final = np.zeros(players, dtype=np.int64)
    running = np.zeros(players, dtype=np.int64)
    leaders = np.zeros(MAX_ROUNDS + 1, dtype=np.int64)
    future = np.zeros(64, dtype=np.int64)
    scratch_margins = np.zeros(MARGIN_BINS, dtype=np.int64)
    unit = 1
    for k in range(2, players + 1):
        a, b = unit, k
        while b:
            a, b = b, a % b
        unit = unit * k // a
    for game in range(n_games):
        seed_game(stream, batch_seed, first_game + game)
        for r in range(rounds):
            order[r] = r
        if rules[M_SHUFFLED] != 0:
            shuffle(order, stream)
        for seat in range(players):
            position = 0
            for suit in range(4):
                for rank in range(1, 14):
                    decks[seat, position] = suit * 16 + rank
                    position += 1
            shuffle(decks[seat], stream)
            deck_len[seat] = DECK_SIZE
            diamond_totals[seat] = 0
        start = rules[M_START]
        decided = np.int64(0)  # real decisions this game (zooanalysis.decisions); typed
        for r in range(rounds):
            slot = order[r]
            for seat in range(players):
                hand = EMPTY
                top = deck_len[seat]
                for index in range(top - hand_size, top):
                    hand |= face_bit(decks[seat, index])
                hands[seat] = hand
                deck_len[seat] = top - hand_size
            # the exhibits a mulliganed card may come back for
            future[:] = 0
            future_rounds = np.int64(0)  # typed: mulligan_decision compiles once
            last = r + 2 if johannesburg else rounds
            for later in range(r + 1, min(last, rounds)):
                for face in range(64):
                    future[face] += values[order[later], face]
                future_rounds += 1
            for seat in range(players):
                top = deck_len[seat]
                limit = min(rules[M_MULLIGAN], top, count_faces(hands[seat]))
                decided += count_decision(_mulligan_options(count_faces(hands[seat]), limit),
                                          decision_options)
                discard = mulligan_decision(codes[seat], params[seat], hands[seat],
                                            _deck_mask(decks, seat, top), limit, values[slot],
                                            future, future_rounds, stream)
                k = count_faces(discard)
                if k > limit or discard & ~hands[seat] != EMPTY:
                    raise RuntimeError("Through the Zoo: an illegal mulligan")
                if k > 0:
                    hand = hands[seat] & ~discard
                    for index in range(top - k, top):
                        hand |= face_bit(decks[seat, index])
                    hands[seat] = hand
                    top -= k
                    left = discard
                    while left != EMPTY:
                        face = nth_face(left, np.int64(0))
                        left &= ~face_bit(face)
                        decks[seat, top] = face
                        top += 1
                    deck_len[seat] = top
                    if rules[M_SHUFFLES_BACK] != 0:
                        shuffle(decks[seat, :top], stream)
                mulligans_hist[r, seat, min(k, MULLIGAN_BINS - 1)] += 1
            for seat in range(players):
                exhibit_hands[seat] = hands[seat]
            later_wins = rules[M_LATER_WINS]
            if slot == 0:
                ex0(rules0, exhibit_hands, start, codes0, params0, stream, later_wins, standing,
                    scores, diamonds)
            elif slot == 1:
                ex1(rules1, exhibit_hands, start, codes1, params1, stream, later_wins, standing,
                    scores, diamonds)
            elif slot == 2:
                ex2(rules2, exhibit_hands, start, codes2, params2, stream, later_wins, standing,
                    scores, diamonds)
            else:
                ex3(rules3, exhibit_hands, start, codes3, params3, stream, later_wins, standing,
                    scores, diamonds)
            round_points(standing, players, rules, points[r])
            for seat in range(players):
                diamond_totals[seat] += diamonds[seat]
                offset = (seat - start) % players
                round_points_counts[slot, r, offset, min(points[r, seat], POINT_BINS - 1)] += 1
            start = (start + 1) % players
        count_game_decisions(decided, game_decisions)
        # the end of the game: meta scoring, game points, the final standing
        has_meta = rules[M_META] == FEWEST_DIAMONDS
        if has_meta:
            for seat in range(players):
                standing[seat] = -diamond_totals[seat]
            round_points(standing, players, rules, meta_points)
        else:
            meta_points[:] = 0
        for seat in range(players):
            total = meta_points[seat]
            for r in range(rounds):
                total += points[r, seat]
            game_points[seat] = total
            if rules[M_TIE_SHARED] != 0:
                final[seat] = TIE_SCALE * total
            else:
                final[seat] = TIE_SCALE * total + points[rounds - 1, seat]
        # counts
        games[0] += 1
        best = final[0]
        for seat in range(1, players):
            best = max(best, final[seat])
        n_winners = 0
        winner = -1
        for seat in range(players):
            if final[seat] == best:
                n_winners += 1
                winner = seat
        runner_up = -1
        for seat in range(players):
            points_now = game_points[seat]
            if final[seat] == best:
                wins[seat] += 1
                if n_winners == 1:
                    sole_wins[seat] += 1
            elif runner_up < 0 or points_now > runner_up:
                runner_up = points_now
            points_sum[seat] += points_now
            points_squares[seat] += points_now * points_now
            game_points_hist[seat, min(points_now, TOTAL_BINS - 1)] += 1
            meta_points_hist[seat, min(meta_points[seat], POINT_BINS - 1)] += 1
            diamonds_hist[seat, min(diamond_totals[seat], DIAMOND_BINS - 1)] += 1
        tally_outcome(final, players, np.bool_(False), win_ties, scratch_margins)
        if runner_up >= 0:
            margins[min(game_points[winner] - runner_up, MARGIN_BINS - 1)] += 1
        index = _order_index(order, rounds)
        order_games[index] += 1
        for seat in range(players):
            if final[seat] == best:
                order_share_units[index, seat] += unit // n_winners
        if n_winners == 1:
            lead_games[0] += 1
            for part in range(rounds + 1):
                total = 0
                mine = 0
                for seat in range(players):
                    value = meta_points[seat] if part == rounds else points[part, seat]
                    total += value
                    if seat == winner:
                        mine = value
                lead = (players - 1) * mine - (total - mine)
                target = META if part == rounds else order[part]
                lead_sum[target] += lead
                lead_squares[target] += lead * lead
        # trajectory: game points after every round (and after the meta scoring)
        running[:] = 0
        checks = 0
        for r in range(rounds):
            for seat in range(players):
                running[seat] += points[r, seat]
            leaders[checks] = _sole_leader(running, players)
            checks += 1
        if has_meta:
            leaders[checks] = _sole_leader(game_points, players)
            checks += 1
        final_leader = _sole_leader(final, players)
        leaders[checks - 1] = final_leader
        changes = 0
        previous = -1
        for check in range(checks):
            leader = leaders[check]
            if leader < 0:
                continue
            if previous >= 0 and leader != previous:
                changes += 1
            previous = leader
        lead_changes_hist[min(changes, LEAD_CHANGE_BINS - 1)] += 1
        if final_leader >= 0:
            settled = 0
            for check in range(checks):
                if leaders[check] != final_leader:
                    settled = check + 1
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * settled) // checks)] += 1
        if write_rows:
            for seat in range(players):
                row_points[game, seat] = game_points[seat]
                row_standing[game, seat] = final[seat]
            row_order[game] = index


@njit(cache=True, nogil=True, error_model="numpy")
def _mulligan_options(held, limit) -> int:
    """``engine.mulligan_options``: the sets of at most ``limit`` of ``held`` hand cards,
    capped at ``OPTION_BINS`` (the top bin)."""
    total = 0
    for count in range(min(limit, held) + 1):
        total += combinations(held, count)
        if total >= OPTION_BINS:
            return OPTION_BINS
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def _deck_mask(decks, seat, top):
    mask = EMPTY
    for index in range(top):
        mask |= face_bit(decks[seat, index])
    return mask

