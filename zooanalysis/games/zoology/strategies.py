"""Zoology's built-in strategies, compiled once and used by both engines.

A strategy answers, from the acting player's information only (the other players'
animals, the neutral animals, the removed animals, the public votes through its posterior,
its hand and the token counts):

* which question card to play (``choose_question``);
* whether to guess now, in the competitive game's free-guess windows (``guess_now``);
  the guess itself is always the posterior's top animal;
* in the cooperative game, which teammate gets a leftover token (``gift_target``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.games.zoology.beliefs import vote_information
from zooanalysis.rng import below
from zooanalysis.strategy_spec import ParamSpec, PlayerSpec, StrategyInfo, params_array

BAYES = 0
CURIOUS = 1
TEAM = 2
MAX_PARAMS = 2

_GUESS = ParamSpec(
    "guess", 0.8, 0.0, 1.0, "guess when its posterior's top animal reaches this probability"
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
}
STRATEGY_CODES = {"bayes": BAYES, "curious": CURIOUS, "team": TEAM}


def strategy_code(player: PlayerSpec) -> int:
    """The compiled dispatch code of a player's strategy."""
    return STRATEGY_CODES[player.strategy]


def strategy_params(player: PlayerSpec) -> np.ndarray:
    """The player's parameters as the float array the compiled strategies read."""
    return params_array(player, MAX_PARAMS)


@njit(cache=True, nogil=True, error_model="numpy")
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
    return vote_information(
        card,
        seat,
        players,
        seat_w,
        seat_wl,
        neutral_w,
        neutral_wl,
        n_neutrals,
        probs,
        board,
        n_board,
        scores,
        weights,
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
):
    """The hand index of the card to play. ``work`` is scratch from :func:`new_work`;
    ``seat_animals[seat]`` is never read."""
    if code == BAYES:
        return below(rng, hand_len)
    best = 0
    best_value = -1.0
    for index in range(hand_len):
        card = hand[index]
        if code == CURIOUS:
            value = own_information(
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


def new_work(n_animals: int, players: int = 8) -> np.ndarray:
    """Scratch rows for ``choose_question`` and the information functions (width fits animals
    and seats): rows 0-1 per animal, rows 2-5 per seat or neutral animal."""
    return np.zeros((6, max(n_animals, players + 8)), dtype=np.float64)
