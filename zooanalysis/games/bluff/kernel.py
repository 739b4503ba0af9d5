"""The fast path: a numba kernel that plays a whole batch of Bluff in Zoo games.

It follows ``engine.py`` step by step and keeps only the counts of ``counts.new_totals``
(constant memory, whatever the number of games); per-game rows (``counts.new_rows``) are
written only when the caller passes arrays for them. Game ``first_game + i`` of a batch
seeded ``s`` is the reference engine's ``play_game(settings, strategies, s, first_game + i)``;
the tests hold both to that.

Written for speed (issue 13): the pile is two packed words (``pile.py``) updated with one add
per card, and a doubt's count is a field read; a claim is one number; the ``random`` policy
is two table lookups per decision (``strategies.random_move_table`` and
``random_claim_table``) on the random word the engine's ``random_move`` and
``random_claim`` draw; the random stream's state lives in a local; ``cautious`` decides
from packed words (``packed_cautious.py``: each player's known pile cards and hand, and the
cards revealed, kept with one add per card) when the deck packs; what only the other
strategies read (the per-type counts of the pile cards each player placed, of the cards
revealed) is kept only when one of them plays; the claim and doubt tables count into
32-bit cells, added to the 64-bit totals every 2**20 games and at the end of the batch.
For the clustered intervals of the bluff rate and doubt success, each seat's claims and
doubts of the game are tallied with one add each (a packed word per seat), and their
products by seat pair are added to the totals once per game (``_add_moments``).

The random stream changed with this rewrite (issue 13): the ``random`` policy draws one
random word per decision (before: up to two per move and two per claim), so a game with
``random`` players is a different game for the same seed than before, in both engines
alike (they still agree exactly). The policy's probabilities are unchanged (exact in the
tables, tests/test_bluff_random_policy.py). On 1e7 games of four ``random`` players, the
old and new kernels' statistics agree within sampling error: mean rounds 25.925 [25.921,
25.929] new against 25.927 [25.923, 25.931] old, doubt success 72.443% against 72.441%,
games ended by points 75.12% against 75.09%, every seat's win, sole-win and mean points;
smallest p 0.135 over 17 statistics (Holm-adjusted 1), and the rounds, moves, points,
lead-change and settled histograms agree by chi-square (every p >= 0.13). Games without a
``random`` player play exactly as before (the recorded decision corpus replays).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.decisions import GAME_BINS, OPTION_BINS
from zooanalysis.games.bluff.cards import N_CARD_TYPES, N_KINDS
from zooanalysis.games.bluff.counts import (
    COUNT_BINS,
    MOVE_BINS,
    PILE_BINS,
    POINT_BINS,
    ROUND_BINS,
    new_rows,
)
from zooanalysis.games.bluff.packed_cautious import cautious_claim, cautious_move
from zooanalysis.games.bluff.pile import NO_CARD, packed_count, pile_deltas
from zooanalysis.games.bluff.policy_math import WORKSPACE_ROWS, count_kind
from zooanalysis.games.bluff.strategies import (
    CAUTIOUS,
    CLAIM_BITS,
    CLAIM_CELLS,
    CLAIM_ROW_AT_CAP,
    MOVE_DOUBT,
    MOVE_DRAW,
    MOVE_HAND,
    MOVE_NONE,
    MOVE_ROW_FIRST,
    NO_CLAIM,
    NOBODY,
    RANDOM,
    STAKES,
    TABLE_CLAIMANT,
    TABLE_EVIDENCE,
    TABLE_OTHERS,
    TABLE_OWN,
    TABLE_SIZE,
    TABLE_TARGET,
    choose_claim_after_move,
    choose_move,
    random_claim_table,
    random_move_table,
)
from zooanalysis.outcome import tally_outcome
from zooanalysis.rng import mix64
from zooanalysis.trajectory import LEAD_CHANGE_BINS, SETTLED_BINS

END_POINTS = 0
END_DECK = 1

OK = 0
ILLEGAL_MOVE = 1
ILLEGAL_CLAIM = 2

MOVE_OPTIONS, MOVE_OF = random_move_table()
CLAIM_STEP = random_claim_table()
KIND_MASK = (1 << CLAIM_BITS) - 1
FLUSH_GAMES = 1 << 20
"""Games between two flushes of the 32-bit table cells: a game makes a few hundred claims at
most, so no cell can reach 2**31 in between."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S32 = np.uint64(32)
_LOW32 = 0xFFFFFFFF
TALLY_SHIFT = 32
"""A seat's claim (or doubt) tally in one game packs its units in the low 32 bits and its
successes above them: one add per claim or doubt, unpacked once at the end of the game."""


def play_batch(
    deck_template: np.ndarray,
    hand_size: int,
    points_to_end: int,
    claim_cap: int,
    codes: np.ndarray,
    params: np.ndarray,
    batch_seed: int,
    n_games: int,
    totals: dict[str, np.ndarray],
    rows: dict[str, np.ndarray] | None = None,
    first_game: int = 0,
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed``, adding into ``totals`` (from ``counts.new_totals``).

    ``codes`` and ``params`` hold each seat's strategy code and parameters. ``rows``, from
    ``counts.new_rows``, receives one row per game when given (row ``i`` is game
    ``first_game + i``). Raises ``RuntimeError`` if a strategy made an illegal move (a bug,
    never a user error).
    """
    rows = rows or new_rows(0, codes.shape[0])
    deck = np.asarray(deck_template, dtype=np.int8)
    deltas = pile_deltas(np.bincount(deck, minlength=N_CARD_TYPES))
    packed = deltas is not None
    if deltas is None:
        deltas = (np.zeros(N_CARD_TYPES + 1, np.int64), np.zeros(N_CARD_TYPES + 1, np.int64))
    status = _play_batch(
        deck,
        hand_size,
        points_to_end,
        claim_cap,
        codes,
        params,
        np.uint64(batch_seed),
        np.int64(first_game),
        n_games,
        deltas[0],
        deltas[1],
        packed,
        totals["games"],
        totals["wins"],
        totals["sole_wins"],
        totals["points_sum"],
        totals["points_squares"],
        totals["points_hist"],
        totals["rounds_hist"],
        totals["moves_hist"],
        totals["end_reasons"],
        totals["lead_changes_hist"],
        totals["settled_hist"],
        totals["doubts"],
        totals["claims"],
        totals["claim_moments"],
        totals["doubt_moments"],
        totals["win_ties"],
        totals["margins"],
        totals["decision_options"],
        totals["game_decisions"],
        rows["row_scores"],
        rows["row_rounds"],
        rows["row_moves"],
        rows["row_end"],
    )
    if status != OK:
        raise RuntimeError(
            f"kernel stopped: a strategy made an illegal {'move' if status == 1 else 'claim'}"
        )


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
def _view_of(
    seat, hands, hand_len, known, revealed, deck_counts, params, my_hand, my_known, unseen,
    my_params,
):
    """Copy what player ``seat`` may know into the decision arrays; returns its hand size.

    The strategy gets these copies, never the game's arrays: its hand, the pile cards it
    placed (``my_known``), the cards it has not seen (``unseen``) and its parameters.
    """
    for card in range(N_CARD_TYPES):
        my_known[card] = known[seat, card]
        unseen[card] = deck_counts[card] - revealed[card] - known[seat, card]
    size = hand_len[seat]
    for index in range(size):
        my_hand[index] = hands[seat, index]
        unseen[hands[seat, index]] -= 1
    for index in range(my_params.shape[0]):
        my_params[index] = params[seat, index]
    return size


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
def _fill_table(seat, players, scores, points_to_end, hand_claims, table):
    """The public facts ``stakes`` reads, as ``engine.public_table`` writes them: scores, the
    points that end the game, and the pile cards opponents placed from their hands this round
    with a claim of each kind (``hand_claims[player, kind]``)."""
    claimant = seat - 1 if seat > 0 else players - 1
    table[TABLE_OWN] = scores[seat]
    table[TABLE_CLAIMANT] = scores[claimant]
    others = NOBODY
    for player in range(players):
        if player != seat and player != claimant:
            others = min(others, scores[player])
    table[TABLE_OTHERS] = others
    table[TABLE_TARGET] = points_to_end
    for kind in range(N_KINDS):
        cards = 0
        for player in range(players):
            if player != seat:
                cards += hand_claims[player, kind]
        table[TABLE_EVIDENCE + kind] = cards


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _doubt_count(plain, ones, pile_counts, packed, kind):
    """Animals of ``kind`` a doubt would find now: a field of the packed pile, or counted
    from the per-type counts when the deck is too big to pack."""
    if packed:
        return packed_count(plain, ones, kind)
    return count_kind(pile_counts, kind)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")
def _add_moments(tally, moments, players):
    """End of a game: add the products of the seats' per-game counts into ``moments``
    (``counts.new_totals``: ``[a, b]`` gets x_a x_b, n_a n_b, x_a n_b) and clear the
    tally. ``tally[seat]`` packs the game's units n (low 32 bits) and successes x (high)."""
    for a in range(players):
        x_a = tally[a] >> TALLY_SHIFT
        n_a = tally[a] & _LOW32
        for b in range(players):
            x_b = tally[b] >> TALLY_SHIFT
            n_b = tally[b] & _LOW32
            moments[a, b, 0] += x_a * x_b
            moments[a, b, 1] += n_a * n_b
            moments[a, b, 2] += x_a * n_b
    for a in range(players):
        tally[a] = 0


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _flush(claim_cells, doubt_cells, claims, doubts):
    """Add the 32-bit table cells into the 64-bit totals and clear them."""
    flat_claims = claims.reshape(-1)
    flat_claim_cells = claim_cells.reshape(-1)
    for cell in range(flat_claims.shape[0]):
        flat_claims[cell] += flat_claim_cells[cell]
        flat_claim_cells[cell] = 0
    flat_doubts = doubts.reshape(-1)
    flat_doubt_cells = doubt_cells.reshape(-1)
    for cell in range(flat_doubts.shape[0]):
        flat_doubts[cell] += flat_doubt_cells[cell]
        flat_doubt_cells[cell] = 0


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    deck_template,
    hand_size,
    points_to_end,
    claim_cap,
    codes,
    params,
    batch_seed,
    first_game,
    n_games,
    plain_delta,
    ones_delta,
    packed,
    games,
    wins,
    sole_wins,
    points_sum,
    points_squares,
    points_hist,
    rounds_hist,
    moves_hist,
    end_reasons,
    lead_changes_hist,
    settled_hist,
    doubts,
    claims,
    claim_moments,
    doubt_moments,
    win_ties,
    margins,
    decision_options,
    game_decisions,
    row_scores,
    row_rounds,
    row_moves,
    row_end,
):
    """Allocate the batch's scratch arrays and play it (:func:`_play_games`)."""
    players = codes.shape[0]
    deck_size = deck_template.shape[0]
    scratch = (
        np.empty(deck_size + 1, dtype=np.int8),  # deck, and after it "no card"
        np.zeros(N_CARD_TYPES, dtype=np.int64),  # deck_counts
        np.zeros((players, hand_size), dtype=np.int8),  # hands
        np.zeros(players, dtype=np.int64),  # hand_len
        np.zeros((players, N_CARD_TYPES), dtype=np.int64),  # known
        np.zeros(N_CARD_TYPES, dtype=np.int64),  # pile_counts
        np.zeros(N_CARD_TYPES, dtype=np.int64),  # revealed
        np.zeros(N_CARD_TYPES, dtype=np.int64),  # unseen
        np.zeros(players, dtype=np.int64),  # scores
        np.zeros(1, dtype=np.uint64),  # stream
        np.zeros((WORKSPACE_ROWS, N_KINDS), dtype=np.float64),  # work
        np.zeros(hand_size, dtype=np.int64),  # my_hand: the dtype every caller of choose_move uses
        np.zeros(N_CARD_TYPES, dtype=np.int64),  # my_known
        np.zeros(params.shape[1], dtype=np.float64),  # my_params
        np.zeros(claims.shape, dtype=np.int32),  # claim_cells
        np.zeros(doubts.shape, dtype=np.int32),  # doubt_cells
        np.zeros(TABLE_SIZE, dtype=np.int64),  # table
        np.zeros((players, N_KINDS), dtype=np.int64),  # hand_claims
        np.zeros(players, dtype=np.int64),  # known_plain
        np.zeros(players, dtype=np.int64),  # known_ones
        np.zeros(players, dtype=np.int64),  # hand_plain
        np.zeros(players, dtype=np.int64),  # claim_tally
        np.zeros(players, dtype=np.int64),  # doubt_tally
    )
    return _play_games(
        deck_template, hand_size, points_to_end, claim_cap, codes, params, batch_seed,
        first_game, n_games, plain_delta, ones_delta, packed, games, wins, sole_wins,
        points_sum, points_squares, points_hist, rounds_hist, moves_hist, end_reasons,
        lead_changes_hist, settled_hist, doubts, claims, claim_moments, doubt_moments, win_ties,
        margins, decision_options, game_decisions, row_scores, row_rounds, row_moves, row_end,
        *scratch,
    )


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _play_games(
    deck_template,
    hand_size,
    points_to_end,
    claim_cap,
    codes,
    params,
    batch_seed,
    first_game,
    n_games,
    plain_delta,
    ones_delta,
    packed,
    games,
    wins,
    sole_wins,
    points_sum,
    points_squares,
    points_hist,
    rounds_hist,
    moves_hist,
    end_reasons,
    lead_changes_hist,
    settled_hist,
    doubts,
    claims,
    claim_moments,
    doubt_moments,
    win_ties,
    margins,
    decision_options,
    game_decisions,
    row_scores,
    row_rounds,
    row_moves,
    row_end,
    deck,
    deck_counts,
    hands,
    hand_len,
    known,
    pile_counts,
    revealed,
    unseen,
    scores,
    stream,
    work,
    my_hand,
    my_known,
    my_params,
    claim_cells,
    doubt_cells,
    table,
    hand_claims,
    known_plain,
    known_ones,
    hand_plain,
    claim_tally,
    doubt_tally,
):
    """Play the batch on the scratch arrays of :func:`_play_batch`. Compiled without
    reference counting (it allocates nothing): counting references around every strategy
    call cost more than some strategies' decisions."""
    players = codes.shape[0]
    deck_size = deck_template.shape[0]
    deck[deck_size] = NO_CARD
    for card in deck_template:
        deck_counts[card] += 1
    # cautious reads packed words (packed_cautious.py) when the deck packs: its player's
    # known pile cards, hand, and the cards revealed, as packed piles
    words = False
    for seat in range(players):
        if codes[seat] == CAUTIOUS and packed:
            words = True
    views = False  # does any seat read per-type counts (more than its hand's size)?
    for seat in range(players):
        if codes[seat] != RANDOM and not (codes[seat] == CAUTIOUS and packed):
            views = True
    deck_plain = 0
    for card in deck_template:
        deck_plain += plain_delta[card]
    reads_table = False  # does any seat read the public table (stakes)?
    for seat in range(players):
        if codes[seat] == STAKES:
            reads_table = True
    per_type = views or not packed  # keep the pile's counts per card type
    write_rows = row_rounds.shape[0] > 0
    cap_claim = claim_cap << CLAIM_BITS  # claims at or above: the count is the cap
    forced_claim = cap_claim + N_KINDS - 1  # nobody can best it: the next player must doubt

    for game in range(n_games):
        if game > 0 and game % FLUSH_GAMES == 0:
            _flush(claim_cells, doubt_cells, claims, doubts)
        # the engine's new_game: rng.seed_game, then rng.shuffle (Fisher-Yates from the
        # last position down, rng.below), with the stream's state in a local
        state = mix64(batch_seed ^ mix64(np.uint64(first_game + game) + _GOLDEN))
        for i in range(deck_size):
            deck[i] = deck_template[i]
        for i in range(deck_size - 1, 0, -1):
            state += _GOLDEN
            j = np.int64(((mix64(state) >> _S32) * np.uint64(i + 1)) >> _S32)
            deck[i], deck[j] = deck[j], deck[i]
        for seat in range(players):
            hand_plain[seat] = 0
            for slot in range(hand_size):
                hands[seat, slot] = deck[seat * hand_size + slot]
                hand_plain[seat] += plain_delta[hands[seat, slot]]
            hand_len[seat] = hand_size
            scores[seat] = 0
        draw_top = players * hand_size
        revealed_plain = 0  # the cards revealed by doubts, packed (words)
        if views:
            for card_type in range(N_CARD_TYPES):
                revealed[card_type] = 0
        round_index = 0
        moves = 0
        end_reason = END_DECK
        # score trajectory, in scalars: the last sole leader and the lead changes so far;
        # the current run of score checks with the same sole leader (or none) and the move
        # from which it counts (the move after the check before it); the last check's move
        last_leader = -1
        leader = -1  # the sole leader now (everyone starts at 0 points: none)
        lead_changes = 0
        streak_leader = -2
        streak_start = 0
        last_check = -1
        decided = 0  # real decisions this game (zooanalysis.decisions)

        while True:
            # ---- one round ----
            plain = 0  # the pile (pile.py), when packed
            ones = 0
            pile_len = np.int64(0)  # typed: choose_move compiles once, not also for Literal 0
            if per_type:
                for card_type in range(N_CARD_TYPES):
                    pile_counts[card_type] = 0
            if views:
                for player in range(players):
                    for card_type in range(N_CARD_TYPES):
                        known[player, card_type] = 0
            if reads_table:
                for player in range(players):
                    for kind in range(N_KINDS):
                        hand_claims[player, kind] = 0
            if words:
                for player in range(players):
                    known_plain[player] = 0
                    known_ones[player] = 0
            claim = NO_CLAIM  # count << CLAIM_BITS | kind
            claimant_move = 0
            seat = round_index % players
            first_move = True
            while True:
                code = codes[seat]
                draw_size = deck_size - draw_top
                length = hand_len[seat]
                claim_count = claim >> CLAIM_BITS
                # decision options (engine.move_options, zooanalysis.decisions): each hand
                # card, drawing, and after a claim doubting and placing none; a forced doubt
                # has one; counted inline (one add)
                if claim == forced_claim:
                    options = 1
                else:
                    options = length + (1 if draw_size > 0 else 0) + (2 if claim_count > 0 else 0)
                decision_options[min(options, OPTION_BINS - 1)] += 1
                decided += 1 if options > 1 else 0
                if claim == forced_claim:
                    move, index = MOVE_DOUBT, -1
                elif code == RANDOM:  # strategies.random_move, by table
                    state += _GOLDEN
                    high = np.int64(mix64(state) >> _S32)
                    row = (
                        (MOVE_ROW_FIRST if first_move else 0)
                        + (2 if length > 0 else 0)
                        + (1 if draw_size > 0 else 0)
                    )
                    scaled = high * MOVE_OPTIONS[row]
                    move = MOVE_OF[row, scaled >> 32]
                    index = ((scaled & _LOW32) * length) >> 32
                elif code == CAUTIOUS and packed:
                    move, index = cautious_move(
                        params[seat, 0],
                        params[seat, 1],
                        hands,
                        seat,
                        length,
                        known_plain[seat],
                        known_ones[seat],
                        pile_len,
                        claim_count,
                        (claim & KIND_MASK) if claim_count > 0 else -1,
                    )
                else:
                    size = _view_of(
                        seat, hands, hand_len, known, revealed, deck_counts, params, my_hand,
                        my_known, unseen, my_params,
                    )
                    if code == STAKES:  # kept for its claim too: nothing changes between
                        _fill_table(seat, players, scores, points_to_end, hand_claims, table)
                    stream[0] = state
                    move, index = choose_move(
                        code,
                        my_params,
                        my_hand,
                        size,
                        my_known,
                        unseen,
                        pile_len,
                        draw_size,
                        claim_count,
                        (claim & KIND_MASK) if claim_count > 0 else -1,
                        claim_cap,
                        stream,
                        work,
                        table,
                    )
                    state = stream[0]
                if code != RANDOM and claim != forced_claim:
                    if move == MOVE_DOUBT and first_move:
                        return ILLEGAL_MOVE
                    if move == MOVE_NONE and first_move:
                        return ILLEGAL_MOVE
                    if move == MOVE_HAND and not (0 <= index < length):
                        return ILLEGAL_MOVE
                    if move == MOVE_DRAW and draw_size == 0:
                        return ILLEGAL_MOVE
                    if move < MOVE_DOUBT or move > MOVE_NONE:
                        return ILLEGAL_MOVE
                moves += 1
                if move == MOVE_DOUBT:
                    kind = claim & KIND_MASK
                    found = _doubt_count(plain, ones, pile_counts, packed, kind)
                    held = 1 if found >= claim_count else 0
                    doubt_tally[seat] += 1 + ((1 - held) << TALLY_SHIFT)
                    claimant = seat - 1 if seat > 0 else players - 1
                    loser = seat if held == 1 else claimant
                    doubt_cells[
                        min(claim_count, COUNT_BINS - 1),
                        kind,
                        min(pile_len, PILE_BINS - 1),
                        claimant_move - 1,
                        seat,
                        held,
                    ] += 1
                    scores[loser] += pile_len
                    if pile_len > 0:  # a score check: who alone has the fewest points?
                        # Only the loser's points grew: a sole leader who did not lose stays
                        # sole leader, so the players are compared only otherwise.
                        if leader < 0 or leader == loser:
                            fewest = scores[0]
                            leader = 0
                            for player in range(1, players):
                                if scores[player] < fewest:
                                    fewest = scores[player]
                                    leader = player
                                elif scores[player] == fewest:
                                    leader = -1  # shared, unless someone has fewer still
                        if leader != streak_leader:
                            streak_leader = leader
                            streak_start = last_check + 1
                        last_check = moves - 1
                        if leader >= 0:
                            if last_leader >= 0 and leader != last_leader:
                                lead_changes += 1
                            last_leader = leader
                    if views:
                        for card_type in range(N_CARD_TYPES):
                            revealed[card_type] += pile_counts[card_type]
                    revealed_plain += plain
                    break
                # place the card: a hand card (the last hand card takes its slot, as in the
                # engine), the top draw-pile card, or none
                card = NO_CARD
                if move == MOVE_HAND:
                    card = hands[seat, index]
                    hands[seat, index] = hands[seat, length - 1]
                    hand_len[seat] = length - 1
                elif move == MOVE_DRAW:
                    card = deck[draw_top]
                    draw_top += 1
                plain += plain_delta[card]
                ones += ones_delta[card]
                if card != NO_CARD:
                    pile_len += 1
                    if per_type:
                        pile_counts[card] += 1
                    if views:
                        known[seat, card] += 1
                    if words:
                        known_plain[seat] += plain_delta[card]
                        known_ones[seat] += ones_delta[card]
                        if move == MOVE_HAND:
                            hand_plain[seat] -= plain_delta[card]
                # the claim
                if claim_count == 0:  # options: engine.claim_options
                    options = N_KINDS
                else:
                    higher_kinds = N_KINDS - 1 - (claim & KIND_MASK)
                    options = higher_kinds + (claim_cap - claim_count) * N_KINDS
                decision_options[min(options, OPTION_BINS - 1)] += 1
                decided += 1 if options > 1 else 0
                if code == RANDOM:  # strategies.random_claim, by table
                    state += _GOLDEN
                    cell = np.int64(((mix64(state) >> _S32) * np.uint64(CLAIM_CELLS)) >> _S32)
                    row = (claim & KIND_MASK) + (CLAIM_ROW_AT_CAP if claim >= cap_claim else 0)
                    claim = (claim & ~KIND_MASK) + CLAIM_STEP[row, cell]
                elif code == CAUTIOUS and packed:  # a legal claim by construction
                    count, kind = cautious_claim(
                        known_plain[seat],
                        known_ones[seat],
                        deck_plain - revealed_plain - known_plain[seat] - hand_plain[seat],
                        pile_len,
                        claim_count,
                        (claim & KIND_MASK) if claim_count > 0 else -1,
                        claim_cap,
                    )
                    if count == 0:  # no legal claim: only at a forced doubt, never here
                        return ILLEGAL_CLAIM
                    claim = (count << CLAIM_BITS) + kind
                else:
                    if card != NO_CARD:  # the player's view after its move
                        my_known[card] += 1
                        if move == MOVE_DRAW:
                            unseen[card] -= 1
                    stream[0] = state
                    count, kind = choose_claim_after_move(
                        code,
                        my_params,
                        my_known,
                        unseen,
                        pile_len,
                        claim_count,
                        (claim & KIND_MASK) if claim_count > 0 else -1,
                        claim_cap,
                        stream,
                        work,
                        table,
                        move,
                        card if card != NO_CARD else -1,
                    )
                    state = stream[0]
                    if kind < 0 or kind >= N_KINDS or count < 1 or count > claim_cap:
                        return ILLEGAL_CLAIM
                    if first_move and count != 1:
                        return ILLEGAL_CLAIM
                    new_claim = (count << CLAIM_BITS) + kind
                    if not first_move and new_claim <= claim:
                        return ILLEGAL_CLAIM
                    claim = new_claim
                count = claim >> CLAIM_BITS
                kind = claim & KIND_MASK
                found = _doubt_count(plain, ones, pile_counts, packed, kind)
                true_now = 1 if found >= count else 0
                claim_cells[
                    seat,
                    min(count, COUNT_BINS - 1),
                    kind,
                    min(pile_len, PILE_BINS - 1),
                    move - 1,
                    true_now,
                ] += 1
                claim_tally[seat] += 1 + ((1 - true_now) << TALLY_SHIFT)
                if reads_table and move == MOVE_HAND:
                    hand_claims[seat, kind] += 1
                claimant_move = move
                first_move = False
                seat = seat + 1 if seat + 1 < players else 0
            # ---- end of round ----
            highest = 0
            for player in range(players):
                highest = max(highest, scores[player])
            if highest >= points_to_end:
                end_reason = END_POINTS
                break
            needed = 0
            for player in range(players):
                needed += hand_size - hand_len[player]
            if needed > deck_size - draw_top:
                end_reason = END_DECK
                break
            starter = round_index % players
            for offset in range(players):
                player = starter + offset
                if player >= players:
                    player -= players
                while hand_len[player] < hand_size:
                    hands[player, hand_len[player]] = deck[draw_top]
                    hand_plain[player] += plain_delta[deck[draw_top]]
                    hand_len[player] += 1
                    draw_top += 1
            round_index += 1

        # ---- record the game ----
        games[0] += 1
        best = scores[0]
        for player in range(players):
            best = min(best, scores[player])
        n_best = 0
        for player in range(players):
            if scores[player] == best:
                n_best += 1
        for player in range(players):
            points = scores[player]
            if points == best:
                wins[player] += 1
                if n_best == 1:
                    sole_wins[player] += 1
            points_sum[player] += points
            points_squares[player] += points * points
            points_hist[player, min(points, POINT_BINS - 1)] += 1
        rounds_hist[min(round_index + 1, ROUND_BINS - 1)] += 1
        moves_hist[min(moves, MOVE_BINS - 1)] += 1
        end_reasons[end_reason] += 1
        tally_outcome(scores, players, np.bool_(True), win_ties, margins)
        game_decisions[min(decided, GAME_BINS - 1)] += 1
        _add_moments(claim_tally, claim_moments, players)
        _add_moments(doubt_tally, doubt_moments, players)
        lead_changes_hist[min(lead_changes, LEAD_CHANGE_BINS - 1)] += 1
        if n_best == 1:  # the single winner is the last check's sole leader
            settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * streak_start) // moves)] += 1
        if write_rows:
            for player in range(players):
                row_scores[game, player] = scores[player]
            row_rounds[game] = round_index + 1
            row_moves[game] = moves
            row_end[game] = end_reason
    _flush(claim_cells, doubt_cells, claims, doubts)
    return OK
