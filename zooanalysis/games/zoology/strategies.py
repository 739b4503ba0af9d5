"""Zoology's built-in strategies, compiled once and used by both engines.

A strategy answers, from the acting player's information only (the other players'
animals, the neutral animals, the removed animals, the public votes through its posterior,
its hand and the token counts):

* which question card to play (``choose_question``);
* whether to guess now, in the competitive game's free-guess windows (``guess_now``);
  the guess itself is always the posterior's top animal;
* in the cooperative game, which teammate gets a leftover token (``gift_target``).

``bayes``, ``curious`` and ``team`` decode every vote with the very model that generates
them, so they are as good as a player can be. ``bounded`` and ``eliminator`` are
bounded-rational players: they remember only the last ``memory`` questions' votes, misread
each vote of another player with chance ``misread`` (drawn when the votes are cast,
``misread_votes``), and ``eliminator`` keeps no posterior at all: it strikes out the animals
a remembered vote contradicts (``eliminate``) and guesses among those with fewest strikes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.zoology.beliefs import memo_usable, own_vote_information, vote_information
from zooanalysis.rng import below, uniform
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

BAYES = 0
CURIOUS = 1
TEAM = 2
BOUNDED = 3
ELIMINATOR = 4
MAX_PARAMS = 4
MEMORY = 1
"""Index of ``memory`` in the parameters of ``bounded`` and ``eliminator``."""
MISREAD = 2
"""Index of ``misread`` in the parameters of ``bounded`` and ``eliminator``."""
MAX_MEMORY = 1000

_GUESS = ParamSpec(
    "guess", 0.8, 0.0, 1.0, "guess when its posterior's top animal reaches this probability"
)

_MEMORY_HELP = (
    "how many of the round's most recent questions' votes it remembers (older votes are "
    "forgotten; {max} is every vote of a round)"
)


def _memory(default: int) -> ParamSpec:
    return ParamSpec(
        "memory",
        default,
        1,
        MAX_MEMORY,
        _MEMORY_HELP.format(max=MAX_MEMORY),
        integer=True,
    )


_MISREAD = ParamSpec(
    "misread",
    0.05,
    0.0,
    0.5,
    "chance of misreading each vote of another player (it then remembers a vote for one of "
    "that voter's other candidates, each as likely)",
)

STRATEGIES: dict[str, StrategyInfo] = {
    "bayes": StrategyInfo(
        "bayes",
        "Plays a random question card; keeps a Bayesian posterior over its own animal from "
        "every vote and wrong guess, and guesses its top animal once that reaches the "
        "threshold (second chance and cooperative guesses: always the top animal).",
        (_GUESS,),
    ),
    "curious": StrategyInfo(
        "curious",
        "Like bayes, but plays the card whose votes are expected to tell it most about its "
        "own animal (largest expected information gain).",
        (_GUESS,),
    ),
    "team": StrategyInfo(
        "team",
        "Cooperative policy: plays the card with the largest expected information gain for "
        "the whole team (its own posterior, and for each teammate a uniform belief over what "
        "that teammate cannot rule out), and gives a leftover token to the teammate still "
        "guessing with fewest tokens. Guesses like bayes.",
        (_GUESS,),
    ),
    "bounded": StrategyInfo(
        "bounded",
        "A bounded-rational bayes: plays a random question card; keeps the Bayesian "
        "posterior of only the last `memory` questions' votes, each vote of another player "
        "misread with chance `misread`; guesses its top animal once that reaches `guess`.",
        (_GUESS, _memory(5), _MISREAD),
    ),
    "eliminator": StrategyInfo(
        "eliminator",
        "No posterior: plays a random question card; strikes out every animal a remembered "
        "vote contradicts (a voter chose it over an animal that scores more than `tolerance` "
        "better, or passed it over for one that scores more than `tolerance` worse, in units "
        "of the perception noise) and guesses at random among the animals with fewest "
        "strikes, in a free window once at most `guess_at` are left. Remembers and misreads "
        "votes as bounded does.",
        (
            ParamSpec(
                "guess_at",
                1,
                1,
                40,
                "free guess once at most this many animals have the fewest strikes",
                integer=True,
            ),
            _memory(MAX_MEMORY),
            _MISREAD,
            ParamSpec(
                "tolerance",
                1.0,
                0.0,
                20.0,
                "how much better (in units of the perception noise) an animal passed over "
                "must score before the vote counts against it",
            ),
        ),
    ),
}
STRATEGY_CODES = {
    "bayes": BAYES,
    "curious": CURIOUS,
    "team": TEAM,
    "bounded": BOUNDED,
    "eliminator": ELIMINATOR,
}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def own_information(
    card,
    seat,
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
):
    """Expected information (nats) the votes on ``card`` give ``seat`` about its own animal.

    Fills ``work[2]`` / ``work[3]`` with each other seat's animal weight and weight x score
    and ``work[4]`` / ``work[5]`` with the same for the neutral animals (see :func:`new_work`).
    """
    _own_weights(card, seat, seat_animals, players, neutrals, n_neutrals, scores, weights, work)
    return vote_information(
        card,
        seat,
        players,
        work[2],
        work[3],
        work[4],
        work[5],
        n_neutrals,
        probs,
        board,
        n_board,
        scores,
        weights,
    )


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _own_weights(card, seat, seat_animals, players, neutrals, n_neutrals, scores, weights, work):
    """Fill ``work`` rows 2-5 as :func:`own_information` documents."""
    seat_w = work[2]
    seat_wl = work[3]
    neutral_w = work[4]
    neutral_wl = work[5]
    for other in range(players):
        if other != seat:
            animal = seat_animals[other]
            seat_w[other] = weights[card, animal]
            seat_wl[other] = weights[card, animal] * scores[card, animal]
    for k in range(n_neutrals):
        neutral_w[k] = weights[card, neutrals[k]]
        neutral_wl[k] = weights[card, neutrals[k]] * scores[card, neutrals[k]]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def own_information_memo(
    card,
    seat,
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
):
    """:func:`own_information`, bit for bit, with the logarithms that do not depend on
    ``probs`` looked up in ``memo`` (``beliefs.new_information_memo``: (terms, filled,
    position); the kernel keeps one per batch) where ``beliefs.memo_usable``; the empty memo
    computes directly."""
    terms, filled, position = memo
    if not memo_usable(terms, players, n_neutrals):
        return own_information(
            card,
            seat,
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
        )
    _own_weights(card, seat, seat_animals, players, neutrals, n_neutrals, scores, weights, work)
    return own_vote_information(
        card,
        seat,
        players,
        seat_animals,
        neutrals,
        n_neutrals,
        work[2],
        work[3],
        work[4],
        work[5],
        probs,
        board,
        n_board,
        scores,
        weights,
        terms,
        filled,
        position,
        work,
    )


@njit(cache=True, nogil=True, error_model="numpy")
def team_information(
    card,
    seat,
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
    work,
):
    """Own information plus, for each teammate, the information about its animal under a
    uniform belief over the animals that teammate cannot rule out (as far as ``seat`` can
    tell; its own animal enters through its posterior ``probs``).

    Uses ``work`` rows 2-5 as :func:`own_information` does and row 0 for the teammate's belief.
    """
    total = own_information(
        card,
        seat,
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
    )
    seat_w = work[2]
    seat_wl = work[3]
    prior = work[0]
    # the other seats' weights are as own_information left them; ``seat`` gets expected ones
    expected_w = 0.0
    expected_wl = 0.0
    for i in range(n_board):
        x = board[i]
        expected_w += probs[x] * weights[card, x]
        expected_wl += probs[x] * weights[card, x] * scores[card, x]
    seat_w[seat] = expected_w
    seat_wl[seat] = expected_wl
    for mate in range(players):
        if mate == seat:
            continue
        count = 0
        for i in range(n_board):
            x = board[i]
            prior[x] = 0.0 if removed[x] else 1.0
        for other in range(players):
            if other != seat and other != mate:
                prior[seat_animals[other]] = 0.0
        for k in range(n_neutrals):
            prior[neutrals[k]] = 0.0
        for i in range(n_board):
            if prior[board[i]] > 0.0:
                count += 1
        if count == 0:
            continue
        for i in range(n_board):
            prior[board[i]] /= count
        total += vote_information(
            card,
            mate,
            players,
            seat_w,
            seat_wl,
            work[4],
            work[5],
            n_neutrals,
            prior,
            board,
            n_board,
            scores,
            weights,
        )
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def choose_question(
    code,
    params,
    seat,
    hand,
    hand_len,
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
):
    """The hand index of the card to play. ``work`` is scratch from :func:`new_work`;
    ``memo``: ``beliefs.new_information_memo`` (``curious`` looks its logarithms up there;
    the empty memo computes them; the choice is the same either way).
    ``seat_animals[seat]`` is never read."""
    if plays_at_random(code):
        return below(rng, hand_len)
    best = 0
    best_value = -1.0
    for index in range(hand_len):
        card = hand[index]
        if code == CURIOUS:
            value = own_information_memo(
                card,
                seat,
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
        else:
            value = team_information(
                card,
                seat,
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
                work,
            )
        if value > best_value + 1e-12:
            best_value = value
            best = index
    return best


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def plays_at_random(code):
    """Whether the strategy plays a random card of its hand (one draw, ``below``), rather
    than weighing each card's expected information: a kernel then makes that draw itself
    and needs neither the call of :func:`choose_question` nor the player's posterior."""
    return code == BAYES or code == BOUNDED or code == ELIMINATOR


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def perceives(code):
    """Whether the strategy reads the votes itself (and may misread and forget them)."""
    return code == BOUNDED or code == ELIMINATOR


@njit(cache=True, nogil=True, error_model="numpy")
def misread_votes(misread, seat, votes, players, n_neutrals, rng, perceived):
    """The votes as ``seat`` reads them into ``perceived``: each other voter's vote is
    misread with chance ``misread`` (one uniform per such voter, none when ``misread`` is
    0) as one of that voter's other candidates, each as likely (one more draw; none if it
    has no other candidate). Its own vote it knows. Reads only the public votes."""
    candidates = players - 1 + n_neutrals  # every voter's: all targets but itself
    for voter in range(players):
        perceived[voter] = votes[voter]
        if voter == seat or misread <= 0.0:
            continue
        if uniform(rng) < misread and candidates > 1:
            skip = below(rng, candidates - 1)
            for target in range(players + n_neutrals):
                if target == voter or target == votes[voter]:
                    continue
                if skip == 0:
                    perceived[voter] = target
                    break
                skip -= 1


@njit(cache=True, nogil=True, error_model="numpy")
def eliminate(
    seat,
    cards,
    perceived,
    first,
    last,
    seat_animals,
    players,
    neutrals,
    n_neutrals,
    excluded,
    board,
    n_board,
    scores,
    tolerance,
    strikes,
):
    """``eliminator``'s strikes: for every animal ``x`` ``seat`` cannot rule out, how many of
    the remembered votes (questions ``first .. last - 1``: ``cards[t]`` and ``seat``'s reading
    ``perceived[t]``) contradict "my animal is ``x``". A voter who chose ``seat`` contradicts
    ``x`` when one of its other candidates scores more than ``tolerance`` above ``x``; a voter
    who chose another target contradicts ``x`` when ``x`` scores more than ``tolerance``
    above that target's animal. Scores are in units of the perception noise.

    Returns (the fewest strikes, how many animals have them); ``seat_animals[seat]`` is
    never read."""
    for i in range(n_board):
        strikes[board[i]] = 0
    for t in range(first, last):
        card = cards[t]
        for voter in range(players):
            if voter == seat:
                continue
            chosen = perceived[t, voter]
            if chosen == seat:
                best = -np.inf  # the voter's best other candidate
                for target in range(players):
                    if target != voter and target != seat:
                        best = max(best, scores[card, seat_animals[target]])
                for k in range(n_neutrals):
                    best = max(best, scores[card, neutrals[k]])
                for i in range(n_board):
                    x = board[i]
                    if not excluded[x] and scores[card, x] + tolerance < best:
                        strikes[x] += 1
            else:
                animal = seat_animals[chosen] if chosen < players else neutrals[chosen - players]
                bar = scores[card, animal] + tolerance
                for i in range(n_board):
                    x = board[i]
                    if not excluded[x] and scores[card, x] > bar:
                        strikes[x] += 1
    fewest = -1
    count = 0
    for i in range(n_board):
        x = board[i]
        if excluded[x]:
            continue
        if fewest < 0 or strikes[x] < fewest:
            fewest = strikes[x]
            count = 1
        elif strikes[x] == fewest:
            count += 1
    return fewest, count


@njit(cache=True, nogil=True, error_model="numpy")
def pick_fewest(strikes, fewest, count, excluded, board, n_board, rng):
    """One of the ``count`` animals with ``fewest`` strikes, each as likely (one draw)."""
    skip = below(rng, count)
    for i in range(n_board):
        x = board[i]
        if not excluded[x] and strikes[x] == fewest:
            if skip == 0:
                return x
            skip -= 1
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def guess_now(code, params, top_probability):
    """Whether to make a free guess now: the top animal has reached the threshold."""
    return top_probability >= params[0]


@njit(cache=True, nogil=True, error_model="numpy")
def gift_target(seat, players, tokens, done):
    """The teammate still guessing with fewest tokens (first in turn order after ``seat``)."""
    best = -1
    for step in range(1, players):
        mate = (seat + step) % players
        if done[mate]:
            continue
        if best < 0 or tokens[mate] < tokens[best]:
            best = mate
    return best


WORK_ROWS = 8


def new_work(n_animals: int, players: int = 8) -> np.ndarray:
    """Scratch rows for ``choose_question`` and the information functions (width fits animals
    and seats): rows 0-1 and 6-7 per animal (or board position), rows 2-5 per seat or
    neutral animal."""
    return np.zeros((WORK_ROWS, max(n_animals, players + 8)), dtype=np.float64)
