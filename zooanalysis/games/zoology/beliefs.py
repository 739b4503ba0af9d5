"""The voting model and a player's Bayesian beliefs, compiled once and used by both engines.

Voting: a voter judges each animal it may vote for (every other player's, and any neutral
animal) by the card's score divided by the perception noise, plus a standard Gumbel error
drawn from the game's stream, and votes for the best. So the chance of a vote for animal
``c`` among candidates ``C`` is ``w_c / sum(w_j for j in C)`` with ``w = exp(score / noise)``
(a logit model): close calls split the vote, clear ones rarely do.

Beliefs: a player knows every other animal, so the only unknown in a voter's choice is its
own animal ``x``. Each vote of another player ``v`` multiplies the likelihood of ``x`` by
``P(vote of v | x)``; the player's posterior is this likelihood, uniform prior, over the
animals it cannot rule out (not held by others, not neutral, not removed by a wrong guess).
No function here reads the acting player's own animal: it is passed as -1 or skipped.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zooanalysis.rng import uniform

_TINY = 1.0 / 9007199254740992.0


@njit(cache=True, nogil=True, error_model="numpy")
def cast_votes(card, seat_animals, players, neutrals, n_neutrals, scores, rng, votes):
    """Every player votes (seat order, then its candidates in seat order, then neutrals).

    ``votes[v]`` becomes a seat (< players) or ``players + k`` for neutral animal ``k``.
    Returns the Champion (a target index as in ``votes``) or -1 if the top is tied.
    """
    for voter in range(players):
        best = -1
        best_value = -np.inf
        for target in range(players + n_neutrals):
            if target == voter:
                continue
            animal = seat_animals[target] if target < players else neutrals[target - players]
            u = uniform(rng)
            if u < _TINY:
                u = _TINY
            value = scores[card, animal] - math.log(-math.log(u))
            if value > best_value:
                best_value = value
                best = target
        votes[voter] = best
    return champion_of(votes, players, n_neutrals)


@njit(cache=True, nogil=True, error_model="numpy")
def champion_of(votes, players, n_neutrals):
    """The target with strictly most votes, or -1 when the most votes are tied."""
    best = -1
    best_count = 0
    tied = False
    for target in range(players + n_neutrals):
        count = 0
        for voter in range(players):
            if votes[voter] == target:
                count += 1
        if count > best_count:
            best_count = count
            best = target
            tied = False
        elif count == best_count and count > 0:
            tied = True
    return -1 if tied else best


@njit(cache=True, nogil=True, error_model="numpy")
def add_evidence(
    loglik,
    seat,
    card,
    seat_animals,
    players,
    neutrals,
    n_neutrals,
    votes,
    board,
    n_board,
    scores,
    weights,
):
    """Add one vote's evidence about ``seat``'s own animal to ``loglik`` (indexed by animal).

    For each other voter ``v`` and each candidate ``x`` for ``seat``'s animal:
    ``log P(vote of v | x) = [v voted for seat] * score(x) - log(S + w(x))`` where ``S`` sums
    the weights of v's other candidates. ``seat_animals[seat]`` is never read.
    """
    for voter in range(players):
        if voter == seat:
            continue
        rest = 0.0
        for target in range(players):
            if target != voter and target != seat:
                rest += weights[card, seat_animals[target]]
        for k in range(n_neutrals):
            rest += weights[card, neutrals[k]]
        voted_me = votes[voter] == seat
        for i in range(n_board):
            x = board[i]
            term = -math.log(rest + weights[card, x])
            if voted_me:
                term += scores[card, x]
            loglik[x] += term


@njit(cache=True, nogil=True, error_model="numpy")
def posterior(loglik, board, n_board, excluded, probs):
    """Normalise ``exp(loglik)`` over the board animals not ``excluded`` into ``probs``.

    Returns ``(top animal, its probability)``; the first animal in board order wins ties.
    """
    top = -1
    top_value = -np.inf
    for i in range(n_board):
        x = board[i]
        probs[x] = 0.0
        if not excluded[x] and loglik[x] > top_value:
            top_value = loglik[x]
            top = x
    if top < 0:
        return -1, 0.0
    total = 0.0
    for i in range(n_board):
        x = board[i]
        if not excluded[x]:
            value = math.exp(loglik[x] - top_value)
            probs[x] = value
            total += value
    for i in range(n_board):
        probs[board[i]] /= total
    return top, probs[top]


@njit(cache=True, nogil=True, error_model="numpy")
def vote_information(
    card,
    target,
    players,
    seat_w,
    seat_wl,
    neutral_w,
    neutral_wl,
    n_neutrals,
    prior,
    board,
    n_board,
    scores,
    weights,
):
    """Expected information (nats) the next votes give about ``target``'s animal.

    Summed over the voters other than ``target`` (each vote's mutual information with the
    animal under ``prior``; a close, cheap stand-in for the joint information). ``seat_w`` /
    ``seat_wl`` hold each seat's animal weight and weight x score (the target's entry is
    ignored; a seat whose animal is uncertain gets expected values).
    """
    total = 0.0
    for voter in range(players):
        if voter == target:
            continue
        rest = 0.0
        rest_wl = 0.0
        for other in range(players):
            if other != voter and other != target:
                rest += seat_w[other]
                rest_wl += seat_wl[other]
        for k in range(n_neutrals):
            rest += neutral_w[k]
            rest_wl += neutral_wl[k]
        conditional = 0.0
        p_target = 0.0
        spread = 0.0
        for i in range(n_board):
            x = board[i]
            if prior[x] <= 0.0:
                continue
            w = weights[card, x]
            z = rest + w
            conditional += prior[x] * (math.log(z) - (rest_wl + w * scores[card, x]) / z)
            p_target += prior[x] * w / z
            spread += prior[x] / z
        marginal = 0.0
        if p_target > 0.0:
            marginal -= p_target * math.log(p_target)
        if spread > 0.0:
            marginal -= spread * (rest_wl + rest * math.log(spread))
        total += marginal - conditional
    return max(total, 0.0)
