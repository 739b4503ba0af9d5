"""The fast path: a numba kernel that plays a whole batch of Zoology games.

It follows ``engine.py`` step by step on flat arrays, with the same compiled voting,
belief and strategy functions, and keeps only the counts of ``counts.new_totals`` (constant
memory); per-game rows (``counts.new_rows``) are written only when the caller passes arrays
for them. Game ``first_game + i`` of a batch seeded ``s`` is the reference engine's
``play_game(settings, strategies, s, first_game + i)``.

Beliefs are kept incrementally (one likelihood row per player, a running product updated
after every vote and normalised once when a posterior is read) where the reference engine
recomputes them from the round's history; both multiply the same factors in the same order,
so they agree to the last bit. Votes are drawn with one uniform per voter from the logit
model's weights (``beliefs.cast_votes``; before, one Gumbel error per candidate: the same
distribution on a different random stream).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.decisions import count_decision, count_game_decisions
from zooanalysis.games.zoology.beliefs import (
    add_evidence_into,
    cast_votes,
    new_information_memo,
    posterior,
    posterior_top,
)
from zooanalysis.games.zoology.counts import (
    LEAD_BINS,
    ROUND_BINS,
    ROW_KEYS,
    SETTLED_BINS,
    TOTAL_KEYS,
    TURN_BINS,
    information_units,
    new_rows,
)
from zooanalysis.games.zoology.strategies import (
    BOUNDED,
    CURIOUS,
    MEMORY,
    MISREAD,
    WORK_ROWS,
    choose_question,
    eliminate,
    gift_target,
    guess_now,
    misread_votes,
    own_information_memo,
    perceives,
    pick_fewest,
    plays_at_random,
)
from zooanalysis.outcome import tally_outcome, tally_team_outcome
from zooanalysis.rng import below, seed_game, shuffle, uniform

END_POINTS = 0
END_ROUND_LIMIT = 1
END_COOPERATIVE = 2
TRIGGER_CORRECT = 0
TRIGGER_SUPPLY = 1
PHASE_FREE = 0
PHASE_SECOND = 1


def play_batch(
    config: dict,
    codes: np.ndarray,
    params: np.ndarray,
    batch_seed: int,
    n_games: int,
    totals: dict,
    rows: dict | None = None,
    game_offset: int = 0,
    game_stride: int = 1,
    cell: int = 0,
    first_game: int = 0,
) -> None:
    """Play those of games ``first_game .. first_game + n_games - 1`` of the batch seeded
    ``batch_seed`` whose number is ``game_offset`` modulo ``game_stride`` (all of them by
    default), with ``codes.shape[0]`` players, adding into ``totals`` (from
    ``counts.new_totals``); ``cell`` is the cooperative grid's cell they count for.

    ``config`` comes from ``batch.kernel_config``. ``rows`` (from ``counts.new_rows``)
    receives one row per game when given (row ``i`` is game ``first_game + i``). Raises
    ``RuntimeError`` if a strategy broke a rule.
    """
    rows = rows if rows is not None else new_rows(0, codes.shape[0])
    # curious's and the information statistic's logarithms, kept for the whole batch
    scores = config["scores"]
    memoised = config.get("information", False) or bool(np.any(codes == CURIOUS))
    memo = new_information_memo(
        scores.shape[0] if memoised else 0, scores.shape[1], config["board"]
    )
    start = (game_offset - first_game) % game_stride  # the first index i in this cell
    status = _play_batch(
        config["board"],
        config["deck"],
        config["n_neutrals"],
        config["hand_size"],
        config["tokens"],
        config["points_to_win"],
        config["win_cap"],
        config["points_correct"],
        config["points_second"],
        config["guess_after_first"],
        config["simultaneous"],
        config["gift"],
        config["max_rounds"],
        config["cooperative"],
        config["scores"],
        config["weights"],
        config.get("information", False),
        memo,
        codes,
        params,
        np.uint64(batch_seed),
        np.int64(first_game),
        n_games,
        start,
        game_stride,
        cell,
        *(totals[key] for key in TOTAL_KEYS),
        *(rows[key] for key in ROW_KEYS),
    )
    if status != 0:
        raise RuntimeError("kernel stopped: a strategy broke a rule")


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _draw(seat, hands, hand_len, pile, pile_pos, pile_len, discard, discard_len, rng):
    """Draw one card for ``seat``; an empty deck is refilled from the shuffled discards.

    Returns the new (pile_pos, pile_len, discard_len)."""
    if pile_pos >= pile_len and discard_len > 0:
        for i in range(discard_len):
            pile[i] = discard[i]
        shuffle(pile[:discard_len], rng)
        pile_pos = 0
        pile_len = discard_len
        discard_len = 0
    if pile_pos < pile_len:
        hands[seat, hand_len[seat]] = pile[pile_pos]
        hand_len[seat] += 1
        pile_pos += 1
    return pile_pos, pile_len, discard_len


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _guess_options(players, n_neutrals, n_removed, n_board):
    """The animals a seat may guess (``engine.guess_options``): on the board, not held by
    another player or neutral, not removed. Counted, not searched: the other seats' and the
    neutral animals are distinct board animals, and a removed animal (a wrong guess, which
    the guesser could not see) is held by nobody, so the three sets are disjoint."""
    return n_board - (players - 1) - n_neutrals - n_removed


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _exclude(seat, players, seat_animals, neutrals, n_neutrals, removed, board, n_board, excluded):
    """Mark in ``excluded`` the board animals ``seat`` knows it does not hold."""
    for i in range(n_board):
        excluded[board[i]] = removed[board[i]]
    for other in range(players):
        if other != seat:
            excluded[seat_animals[other]] = True
    for k in range(n_neutrals):
        excluded[neutrals[k]] = True


@njit(cache=True, nogil=True, error_model="numpy")
def _perceiver_guess(
    seat,
    free,
    code,
    params,
    players,
    seat_animals,
    neutrals,
    n_neutrals,
    removed,
    board,
    n_board,
    excluded,
    cards,
    n_heard,
    heard,
    scores,
    weights,
    recall,
    evidence_work,
    strikes,
    rng,
):
    """The guess of a ``bounded`` or ``eliminator`` seat from the votes it remembers (the
    last ``memory`` of the round's ``n_heard`` questions, as it read them: ``heard[t]``);
    -1 is "not now" in a free window (``free``). The engine's ``BuiltinStrategy.guess``."""
    _exclude(seat, players, seat_animals, neutrals, n_neutrals, removed, board, n_board, excluded)
    first = max(0, n_heard - int(params[MEMORY]))
    if code == BOUNDED:
        for i in range(n_board):
            recall[board[i]] = 1.0
        for t in range(first, n_heard):
            add_evidence_into(
                recall,
                seat,
                cards[t],
                seat_animals,
                players,
                neutrals,
                n_neutrals,
                heard[t],
                board,
                n_board,
                weights,
                evidence_work,
            )
        top, top_p = posterior_top(recall, board, n_board, excluded)
        if free and not guess_now(code, params, top_p):
            return -1
        return top
    fewest, count = eliminate(
        seat,
        cards,
        heard,
        first,
        n_heard,
        seat_animals,
        players,
        neutrals,
        n_neutrals,
        excluded,
        board,
        n_board,
        scores,
        params[3],
        strikes,
    )
    if count == 0 or (free and count > params[0]):
        return -1
    return pick_fewest(strikes, fewest, count, excluded, board, n_board, rng)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _beliefs(
    seat,
    players,
    seat_animals,
    neutrals,
    n_neutrals,
    removed,
    likelihood,
    board,
    n_board,
    excluded,
    probs,
):
    """Posterior of ``seat`` from its likelihood row into ``probs`` (what an asker that
    weighs its questions reads); returns (top, probability)."""
    _exclude(seat, players, seat_animals, neutrals, n_neutrals, removed, board, n_board, excluded)
    return posterior(likelihood[seat], board, n_board, excluded, probs)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _score(
    points,
    points_from,
    source,
    amount,
    winners,
    n_winners,
    turns,
    leader_state,
    last_not_leading,
    players,
    points_to_win,
):
    """Award ``amount`` to each of ``winners[:n_winners]`` as one score change; track the
    sole leader; returns whether someone reached ``points_to_win``.

    ``leader_state`` = [last sole leader, lead changes]."""
    for i in range(n_winners):
        points[winners[i]] += amount
        points_from[winners[i], source] += amount
    best = -1
    count = 0
    leader = -1
    for s in range(players):
        if points[s] > best:
            best = points[s]
            count = 1
            leader = s
        elif points[s] == best:
            count += 1
    if count != 1:
        leader = -1
    if leader >= 0:
        if leader_state[0] >= 0 and leader_state[0] != leader:
            leader_state[1] += 1
        leader_state[0] = leader
    for s in range(players):
        if s != leader:
            last_not_leading[s] = turns
    return best >= points_to_win


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _place_guess(
    seat,
    animal,
    phase,
    seat_animals,
    tokens,
    guessed,
    removed,
    guesses,
    right_guesses,
    first_guesses,
    first_right,
    confusions,
    animal_first_right,
    round_wrong,
    n_removed,
):
    """``seat`` puts a token on ``animal`` and the guess is counted; a wrong guess removes
    the animal for everyone (``n_removed[0]`` counts the round's removed animals). Returns
    whether it was right (the engine's ``place_guess``)."""
    tokens[seat] -= 1
    truth = seat_animals[seat]
    correct = animal == truth
    guesses[seat, phase] += 1
    if correct:
        right_guesses[seat, phase] += 1
    if not guessed[seat]:
        first_guesses[seat, phase] += 1
        if correct:
            first_right[seat, phase] += 1
            animal_first_right[truth] += 1
    guessed[seat] = True
    if not correct:
        confusions[truth, animal] += 1
        round_wrong[seat] += 1
        if not removed[animal]:
            n_removed[0] += 1
        removed[animal] = True
    return correct


@njit(cache=True, nogil=True, error_model="numpy")
def _play_batch(
    board,
    deck_cards,
    n_neutrals,
    hand_size,
    supply_tokens,
    points_to_win,
    win_cap,
    points_correct,
    points_second,
    guess_after_first,
    simultaneous,
    gift,
    max_rounds,
    cooperative,
    scores,
    weights,
    with_information,
    memo,
    codes,
    params,
    batch_seed,
    first_game,
    n_games,
    start,
    game_stride,
    cell,
    games,
    wins,
    sole_wins,
    points_sum,
    points_squares,
    points_from,
    guesses,
    right_guesses,
    first_guesses,
    first_right,
    rounds_hist,
    turns_hist,
    end_reasons,
    triggers,
    lead_changes_hist,
    settled_hist,
    question_plays,
    question_no_champion,
    question_information,
    animal_held,
    animal_guessed,
    animal_found,
    animal_wrong,
    animal_first_right,
    confusions,
    coop_games,
    coop_success,
    window_right,
    win_ties,
    margins,
    decision_options,
    game_decisions,
    row_points,
    row_rounds,
    row_turns,
    row_success,
    row_standing,
):
    players = codes.shape[0]
    n_questions = scores.shape[0]
    n_animals = scores.shape[1]
    n_board = board.shape[0]
    keep_rows = row_rounds.shape[0] > 0
    rng = np.zeros(1, dtype=np.uint64)
    pile = np.zeros(n_questions, dtype=np.int64)
    discard = np.zeros(n_questions, dtype=np.int64)
    played = np.zeros(n_questions, dtype=np.int64)
    hands = np.zeros((players, hand_size + 1), dtype=np.int64)
    hand_len = np.zeros(players, dtype=np.int64)
    deck = np.zeros(n_board, dtype=np.int64)
    seat_animals = np.zeros(players, dtype=np.int64)
    neutrals = np.zeros(max(n_neutrals, 1), dtype=np.int64)
    removed = np.zeros(n_animals, dtype=np.bool_)
    n_removed = np.zeros(1, dtype=np.int64)
    excluded = np.zeros(n_animals, dtype=np.bool_)
    likelihood = np.ones((players, n_animals), dtype=np.float64)
    evidence_work = np.zeros((2, max(n_animals, 1)), dtype=np.float64)
    recall = np.zeros(n_animals, dtype=np.float64)  # a bounded seat's remembered likelihood
    strikes = np.zeros(n_animals, dtype=np.int64)  # an eliminator's strikes
    # each perceiving seat's reading of every question's votes this round: [turn, seat, voter]
    heard = np.zeros((max(supply_tokens, 1), players, players), dtype=np.int64)
    probs = np.zeros(n_animals, dtype=np.float64)
    work = np.zeros((WORK_ROWS, max(n_animals, players + 8)), dtype=np.float64)  # as new_work
    votes = np.zeros(players, dtype=np.int64)
    tokens = np.zeros(players, dtype=np.int64)
    done = np.zeros(players, dtype=np.bool_)
    guessed = np.zeros(players, dtype=np.bool_)
    round_wrong = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    standing = np.zeros(players, dtype=np.int64)
    game_points_from = np.zeros((players, 2), dtype=np.int64)
    wanted_seat = np.zeros(players, dtype=np.int64)
    wanted_animal = np.zeros(players, dtype=np.int64)
    winners = np.zeros(players, dtype=np.int64)
    last_not_leading = np.zeros(players, dtype=np.int64)
    leader_state = np.zeros(2, dtype=np.int64)

    for game in range(start, n_games, game_stride):
        seed_game(rng, batch_seed, first_game + game)
        # --- new game: shuffle the questions, deal hands (seat 0 first) ---
        n_deck = deck_cards.shape[0]  # the question cards in play on these boards
        for q in range(n_deck):
            pile[q] = deck_cards[q]
        shuffle(pile[:n_deck], rng)
        for s in range(players):
            for j in range(hand_size):
                hands[s, j] = pile[s * hand_size + j]
            hand_len[s] = hand_size
        pile_pos = players * hand_size
        pile_len = n_deck
        discard_len = 0
        for s in range(players):
            points[s] = 0
            game_points_from[s, 0] = 0
            game_points_from[s, 1] = 0
            last_not_leading[s] = -1
        leader_state[0] = -1
        leader_state[1] = 0
        turns = 0
        decided = 0  # real decisions this game (zooanalysis.decisions)
        round_index = 0
        over = False
        success = False
        end_reason = END_COOPERATIVE
        while True:
            first = round_index % players
            # --- deal the round's animals ---
            for i in range(n_board):
                deck[i] = board[i]
            shuffle(deck, rng)
            for s in range(players):
                seat_animals[s] = deck[s]
                tokens[s] = 0
                done[s] = False
                guessed[s] = False
                round_wrong[s] = 0
                for i in range(n_board):
                    likelihood[s, board[i]] = 1.0
            for k in range(n_neutrals):
                neutrals[k] = deck[players + k]
            for i in range(n_board):
                removed[board[i]] = False
            n_removed[0] = 0
            supply = supply_tokens
            played_len = 0
            turn = 0
            trigger = -1
            # --- questions ---
            while True:
                asker = (first + turn) % players
                at_random = plays_at_random(codes[asker])  # then no posterior needed
                if with_information or not at_random:
                    _beliefs(
                        asker,
                        players,
                        seat_animals,
                        neutrals,
                        n_neutrals,
                        removed,
                        likelihood,
                        board,
                        n_board,
                        excluded,
                        probs,
                    )
                decided += count_decision(hand_len[asker], decision_options)
                if at_random:  # choose_question's draw, without its call (arrays passed)
                    index = below(rng, hand_len[asker])
                else:
                    index = choose_question(
                        codes[asker],
                        params[asker],
                        asker,
                        hands[asker],
                        hand_len[asker],
                        seat_animals,
                        players,
                        neutrals,
                        n_neutrals,
                        probs,
                        removed,
                        board,
                        n_board,
                        scores,
                        weights,
                        rng,
                        work,
                        memo,
                    )
                if index < 0 or index >= hand_len[asker]:
                    return 1
                card = hands[asker, index]
                hand_len[asker] -= 1
                hands[asker, index] = hands[asker, hand_len[asker]]
                information = 0.0
                if with_information:  # only when the questions table asks for it
                    information = own_information_memo(
                        card,
                        asker,
                        seat_animals,
                        players,
                        neutrals,
                        n_neutrals,
                        probs,
                        board,
                        n_board,
                        scores,
                        weights,
                        work,
                        memo,
                    )
                champion = cast_votes(
                    card, seat_animals, players, neutrals, n_neutrals, weights, rng, votes
                )
                for s in range(players):  # a perceiving seat reads the votes (and may misread)
                    if perceives(codes[s]):
                        misread_votes(
                            params[s, MISREAD],
                            s,
                            votes,
                            players,
                            n_neutrals,
                            rng,
                            heard[played_len, s],
                        )
                for s in range(players):
                    add_evidence_into(
                        likelihood[s],
                        s,
                        card,
                        seat_animals,
                        players,
                        neutrals,
                        n_neutrals,
                        votes,
                        board,
                        n_board,
                        weights,
                        evidence_work,
                    )
                played[played_len] = card
                played_len += 1
                question_plays[card] += 1
                if with_information:
                    question_information[card] += information_units(information)
                if champion < 0:
                    question_no_champion[card] += 1
                pile_pos, pile_len, discard_len = _draw(
                    asker, hands, hand_len, pile, pile_pos, pile_len, discard, discard_len, rng
                )
                if supply > 0:
                    supply -= 1
                    tokens[asker] += 1
                turns += 1
                turn += 1
                if supply == 0:
                    trigger = TRIGGER_SUPPLY
                    break
                if cooperative or (guess_after_first and turn < players):
                    continue
                # --- free-guess window: a race; everyone decides at once, the tokens go
                # down from the next player clockwise, the asker last ---
                n_wanted = 0
                for step in range(1, players + 1):
                    s = (asker + step) % players
                    if tokens[s] > 0:  # not now, or any animal it may guess
                        options = 1 + _guess_options(players, n_neutrals, n_removed[0], n_board)
                        decided += count_decision(options, decision_options)
                        if perceives(codes[s]):
                            top = _perceiver_guess(
                                s,
                                np.bool_(True),
                                codes[s],
                                params[s],
                                players,
                                seat_animals,
                                neutrals,
                                n_neutrals,
                                removed,
                                board,
                                n_board,
                                excluded,
                                played,
                                played_len,
                                heard[:, s, :],
                                scores,
                                weights,
                                recall,
                                evidence_work,
                                strikes,
                                rng,
                            )
                            ready = top >= 0
                        else:
                            _exclude(
                                s,
                                players,
                                seat_animals,
                                neutrals,
                                n_neutrals,
                                removed,
                                board,
                                n_board,
                                excluded,
                            )
                            top, top_p = posterior_top(likelihood[s], board, n_board, excluded)
                            ready = guess_now(codes[s], params[s], top_p) and top >= 0
                        if ready:
                            wanted_seat[n_wanted] = s
                            wanted_animal[n_wanted] = top
                            n_wanted += 1
                n_winners = 0
                for i in range(n_wanted):
                    if n_winners > 0:  # a right guess is down: only a simultaneous one counts
                        if simultaneous <= 0.0:
                            break
                        if simultaneous < 1.0 and not uniform(rng) < simultaneous:
                            break
                    s = wanted_seat[i]
                    if _place_guess(
                        s,
                        wanted_animal[i],
                        PHASE_FREE,
                        seat_animals,
                        tokens,
                        guessed,
                        removed,
                        guesses,
                        right_guesses,
                        first_guesses,
                        first_right,
                        confusions,
                        animal_first_right,
                        round_wrong,
                        n_removed,
                    ):
                        winners[n_winners] = s
                        n_winners += 1
                for i in range(n_winners):
                    done[winners[i]] = True
                if n_winners > 0:
                    window_right[n_winners] += 1
                    over = _score(
                        points,
                        game_points_from,
                        0,
                        points_correct,
                        winners,
                        n_winners,
                        turns,
                        leader_state,
                        last_not_leading,
                        players,
                        points_to_win,
                    )
                    trigger = TRIGGER_CORRECT
                    break
            # --- guessing phase: the competitive second chance (unless a right guess
            # ended the game) or the cooperative guessing, one loop in turn order ---
            if cooperative or not over:
                if not cooperative:
                    triggers[trigger] += 1
                finished = False
                while not finished:
                    anyone = False
                    for step in range(players):
                        s = (first + step) % players
                        if done[s]:
                            continue
                        if tokens[s] == 0:
                            if cooperative:  # a teammate out of tokens ends the team's turn
                                finished = True
                                break
                            continue
                        anyone = True
                        options = _guess_options(players, n_neutrals, n_removed[0], n_board)
                        decided += count_decision(options, decision_options)
                        if perceives(codes[s]):
                            top = _perceiver_guess(
                                s,
                                np.bool_(False),
                                codes[s],
                                params[s],
                                players,
                                seat_animals,
                                neutrals,
                                n_neutrals,
                                removed,
                                board,
                                n_board,
                                excluded,
                                played,
                                played_len,
                                heard[:, s, :],
                                scores,
                                weights,
                                recall,
                                evidence_work,
                                strikes,
                                rng,
                            )
                        else:  # the posterior's top animal (no other probability needed)
                            _exclude(
                                s,
                                players,
                                seat_animals,
                                neutrals,
                                n_neutrals,
                                removed,
                                board,
                                n_board,
                                excluded,
                            )
                            top, _ = posterior_top(likelihood[s], board, n_board, excluded)
                        if top < 0:
                            return 2
                        right = _place_guess(
                            s,
                            top,
                            PHASE_SECOND,
                            seat_animals,
                            tokens,
                            guessed,
                            removed,
                            guesses,
                            right_guesses,
                            first_guesses,
                            first_right,
                            confusions,
                            animal_first_right,
                            round_wrong,
                            n_removed,
                        )
                        if right:
                            done[s] = True
                        if not cooperative:
                            if right:
                                winners[0] = s
                                over = _score(
                                    points,
                                    game_points_from,
                                    1,
                                    points_second,
                                    winners,
                                    1,
                                    turns,
                                    leader_state,
                                    last_not_leading,
                                    players,
                                    points_to_win,
                                )
                                if over:
                                    finished = True
                                    break
                        elif right:
                            all_done = True
                            for t in range(players):
                                if not done[t]:
                                    all_done = False
                            if all_done:
                                success = True
                                finished = True
                                break
                            if tokens[s] > 0 and gift:  # none, or a teammate still guessing
                                options = np.int64(1)
                                for t in range(players):
                                    if t != s and not done[t]:
                                        options += 1
                                decided += count_decision(options, decision_options)
                                mate = gift_target(s, players, tokens, done)
                                if mate >= 0:
                                    tokens[mate] += 1
                            tokens[s] = 0
                        elif tokens[s] == 0:
                            finished = True
                            break
                    if not anyone:
                        finished = True
            # --- the round's animals ---
            for s in range(players):
                animal = seat_animals[s]
                animal_held[animal] += 1
                if guessed[s]:
                    animal_guessed[animal] += 1
                if done[s]:
                    animal_found[animal] += 1
                animal_wrong[animal] += round_wrong[s]
            if cooperative:
                end_reason = END_COOPERATIVE
                break
            if over:
                end_reason = END_POINTS
                break
            if round_index + 1 >= max_rounds:
                end_reason = END_ROUND_LIMIT
                break
            # --- end of round: discards, top up hands, next first player ---
            for i in range(played_len):
                discard[discard_len] = played[i]
                discard_len += 1
            for step in range(players):
                s = (first + step) % players
                while hand_len[s] < hand_size and (pile_pos < pile_len or discard_len > 0):
                    pile_pos, pile_len, discard_len = _draw(
                        s, hands, hand_len, pile, pile_pos, pile_len, discard, discard_len, rng
                    )
            round_index += 1
        # --- tally the game ---
        rounds = round_index + 1
        games[0] += 1
        end_reasons[end_reason] += 1
        rounds_hist[min(rounds, ROUND_BINS - 1)] += 1
        turns_hist[min(turns, TURN_BINS - 1)] += 1
        # standings (engine.standings): points, capped at win_cap ("reached": everyone who
        # reached the points to win shares the win)
        best = 0
        for s in range(players):
            standing[s] = min(points[s], win_cap)
            best = max(best, standing[s])
        n_best = 0
        sole = -1
        for s in range(players):
            if standing[s] == best:
                n_best += 1
                sole = s
        for s in range(players):
            points_sum[s] += points[s]
            points_squares[s] += points[s] * points[s]
            points_from[s, 0] += game_points_from[s, 0]
            points_from[s, 1] += game_points_from[s, 1]
            if cooperative:
                if success:
                    wins[s] += 1
            elif standing[s] == best:
                wins[s] += 1
                if n_best == 1:
                    sole_wins[s] += 1
        count_game_decisions(decided, game_decisions)
        if cooperative:
            tally_team_outcome(players, success, win_ties)
            coop_games[cell] += 1
            if success:
                coop_success[cell] += 1
        else:
            # the standing, not the points: all who reached points_to_win share the win
            tally_outcome(standing, players, np.bool_(False), win_ties, margins)
            lead_changes_hist[min(leader_state[1], LEAD_BINS - 1)] += 1
            if n_best == 1 and turns > 0:
                # a change with t turns played happens at turn index t - 1, so the winner
                # leads at every change from turn index t on (0 if it always led)
                settled_turn = max(last_not_leading[sole], 0)
                settled_hist[min(SETTLED_BINS - 1, (SETTLED_BINS * settled_turn) // turns)] += 1
        if keep_rows:
            for s in range(players):
                row_points[game, s] = points[s]
                row_standing[game, s] = standing[s]
            row_rounds[game] = rounds
            row_turns[game] = turns
            row_success[game] = (1 if success else 0) if cooperative else -1
    return 0
