"""The voting model and a player's Bayesian beliefs, compiled once and used by both engines.

Voting: a voter judges each animal it may vote for (every other player's, and any neutral
animal) by the card's score divided by the perception noise plus a standard Gumbel error,
and votes for the best. So the chance of a vote for animal ``c`` among candidates ``C`` is
``w_c / sum(w_j for j in C)`` with ``w = exp(score / noise)`` (a logit model): close calls
split the vote, clear ones rarely do. The vote is drawn from those chances directly, with
one uniform number per voter (:func:`cast_votes`).

Beliefs: a player knows every other animal, so the only unknown in a voter's choice is its
own animal ``x``. Each vote of another player ``v`` multiplies the likelihood of ``x`` by
``P(vote of v | x)`` (kept as a running product, normalised once when the posterior is
read); the player's posterior is this likelihood, uniform prior, over the animals it cannot
rule out (not held by others, not neutral, not removed by a wrong guess).
No function here reads the acting player's own animal: it is passed as -1 or skipped.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zooanalysis.rng import uniform

_TINY = 1.0 / 9007199254740992.0


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def cast_votes(card, seat_animals, players, neutrals, n_neutrals, weights, rng, votes):
    """Every player votes (seat order, then its candidates in seat order, then neutrals).

    Each voter draws its vote from the logit model's categorical weights with one uniform
    number ``u``: the candidates in order, the first whose running weight sum exceeds
    ``u * (their total)`` (the last candidate if rounding leaves none). This is the same
    distribution as the best of score plus a Gumbel error per candidate (which the kernel
    drew before: three uniforms and six logarithms per voter) on a different random stream.

    ``votes[v]`` becomes a seat (< players) or ``players + k`` for neutral animal ``k``.
    Returns the Champion (a target index as in ``votes``) or -1 if the top is tied.
    """
    for voter in range(players):
        total = 0.0
        last = -1
        for target in range(players + n_neutrals):
            if target == voter:
                continue
            animal = seat_animals[target] if target < players else neutrals[target - players]
            total += weights[card, animal]
            last = target
        threshold = uniform(rng) * total
        chosen = last
        running = 0.0
        for target in range(players + n_neutrals):
            if target == voter:
                continue
            animal = seat_animals[target] if target < players else neutrals[target - players]
            running += weights[card, animal]
            if threshold < running:
                chosen = target
                break
        votes[voter] = chosen
    return champion_of(votes, players, n_neutrals)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
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


_RESCALE_HIGH = 2.0**600
_RESCALE_LOW = 2.0**-600


def new_evidence_work(n_animals: int) -> np.ndarray:
    """Scratch for :func:`add_evidence_into`: two rows as wide as the animal table."""
    return np.zeros((2, max(n_animals, 1)), dtype=np.float64)


@njit(cache=True, nogil=True, error_model="numpy")
def add_evidence(
    likelihood,
    seat,
    card,
    seat_animals,
    players,
    neutrals,
    n_neutrals,
    votes,
    board,
    n_board,
    weights,
):
    """:func:`add_evidence_into` with its own scratch (for the reference engine and tests)."""
    work = np.zeros((2, max(likelihood.shape[0], 1)), dtype=np.float64)
    add_evidence_into(
        likelihood,
        seat,
        card,
        seat_animals,
        players,
        neutrals,
        n_neutrals,
        votes,
        board,
        n_board,
        weights,
        work,
    )


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def add_evidence_into(
    likelihood,
    seat,
    card,
    seat_animals,
    players,
    neutrals,
    n_neutrals,
    votes,
    board,
    n_board,
    weights,
    work,
):
    """Multiply one vote's evidence about ``seat``'s own animal into ``likelihood`` (a running
    product indexed by animal, 1.0 at the start of a round). ``work``: scratch from
    :func:`new_evidence_work` (two rows of at least ``n_board``).

    For each other voter ``v`` and each candidate ``x`` for ``seat``'s animal:
    ``P(vote of v | x) = w(x)^[v voted for seat] / (S + w(x))`` where ``S`` sums the weights
    of v's other candidates (all the voters' factors for ``x`` are multiplied first, in voter
    order, then divided once). The denominators are built voter by voter over the whole
    board (a loop the compiler vectorises) with the same operations in the same order as
    animal by animal, so the product is bit for bit the same. It is never normalised here
    (the posterior does that once); when its largest board entry leaves ``[2^-600, 2^600]``
    the row is multiplied by a power of two, which is exact and leaves the posterior
    unchanged. ``seat_animals[seat]`` is never read.
    """
    others = 0.0  # every candidate's weight but the seat's own animal (never read)
    for target in range(players):
        if target != seat:
            others += weights[card, seat_animals[target]]
    for k in range(n_neutrals):
        others += weights[card, neutrals[k]]
    board_w = work[0]
    denominator = work[1]
    for i in range(n_board):
        board_w[i] = weights[card, board[i]]
        denominator[i] = 1.0
    for_seat = 0  # the voters who voted for ``seat``
    for voter in range(players):
        if voter == seat:
            continue
        # S: the voter's other candidates, i.e. all but the voter's and the seat's animal
        rest = others - weights[card, seat_animals[voter]]
        for i in range(n_board):
            denominator[i] *= rest + board_w[i]
        if votes[voter] == seat:
            for_seat += 1
    top = 0.0
    for i in range(n_board):
        w = board_w[i]
        numerator = 1.0
        for _ in range(for_seat):
            numerator *= w
        x = board[i]
        value = likelihood[x] * (numerator / denominator[i])
        likelihood[x] = value
        top = max(top, value)
    if top > _RESCALE_HIGH or (0.0 < top < _RESCALE_LOW):
        scale = math.ldexp(1.0, -math.frexp(top)[1])
        for i in range(n_board):
            likelihood[board[i]] *= scale


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def posterior(likelihood, board, n_board, excluded, probs):
    """Normalise ``likelihood`` over the board animals not ``excluded`` into ``probs``.

    Returns ``(top animal, its probability)``; the first animal in board order wins ties.
    Both loops run without a branch (:func:`posterior_top`'s sum and top; a quotient for
    every board animal, 0.0 kept for the excluded ones): the same floats.
    """
    top, _, total = _top_and_total(likelihood, board, n_board, excluded)
    if top < 0 or total <= 0.0:
        for i in range(n_board):
            probs[board[i]] = 0.0
        if top < 0:
            return -1, 0.0
        probs[top] = 1.0  # every candidate's product underflowed: the top one (first) takes it
        return top, 1.0
    for i in range(n_board):
        x = board[i]
        quotient = likelihood[x] / total
        probs[x] = 0.0 if excluded[x] else quotient
    return top, probs[top]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _top_and_total(likelihood, board, n_board, excluded):
    """The first board animal not ``excluded`` with the largest likelihood (-1 if none), that
    likelihood, and the sum of the likelihoods not excluded, in board order.

    Without a branch on the data (which animals are excluded and where the top is are
    unpredictable): an excluded animal adds +0.0 (the sum starts at +0.0 and its terms are
    >= 0, so it is never -0.0 and adding +0.0 leaves it as it is) and cannot become the top
    (``-1.0`` stands in for it, below every likelihood)."""
    top = -1
    top_value = -1.0
    total = 0.0
    for i in range(n_board):
        x = board[i]
        value = likelihood[x]
        out = excluded[x]
        total += 0.0 if out else value
        candidate = -1.0 if out else value
        better = candidate > top_value
        top = x if better else top
        top_value = candidate if better else top_value
    return top, top_value, total


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def posterior_top(likelihood, board, n_board, excluded):
    """:func:`posterior`'s ``(top animal, its probability)`` without filling every
    probability (the same floats: the top's likelihood over the same total)."""
    top, _, total = _top_and_total(likelihood, board, n_board, excluded)
    if top < 0:
        return -1, 0.0
    if total <= 0.0:
        return top, 1.0
    return top, likelihood[top] / total


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
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
            conditional += prior[x] * conditional_term(rest, rest_wl, w, scores[card, x])
            p_target += prior[x] * w / z
            spread += prior[x] / z
        total += _marginal(p_target, spread, rest, rest_wl) - conditional
    return max(total, 0.0)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def conditional_term(rest, rest_wl, w, score):
    """A vote's entropy given the target's animal ``x`` (weight ``w``, score ``score``),
    without its animal-independent part: ``log(z) - (rest_wl + w * score) / z`` with
    ``z = rest + w`` (``rest`` / ``rest_wl``: the voter's other candidates' weights and
    weight x score). The one expression :func:`vote_information` and the memo share."""
    z = rest + w
    return math.log(z) - (rest_wl + w * score) / z


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _marginal(p_target, spread, rest, rest_wl):
    """The vote's entropy under the prior from its sums (see :func:`vote_information`)."""
    marginal = 0.0
    if p_target > 0.0:
        marginal -= p_target * math.log(p_target)
    if spread > 0.0:
        marginal -= spread * (rest_wl + rest * math.log(spread))
    return marginal


def new_information_memo(
    n_questions: int, n_animals: int, board: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty memo for :func:`own_vote_information`: (terms, filled, position).

    ``terms[card, key, i]`` will hold :func:`conditional_term` for board animal ``i`` when a
    voter's other candidates are the board animals of pair ``key`` (see :func:`memo_key`);
    ``filled[card, key]`` says whether that row is computed; ``position[animal]`` is the
    animal's board index. ``n_questions = 0`` gives the empty memo (no lookups: the direct
    :func:`vote_information`, as the reference engine computes)."""
    n_board = board.shape[0] if n_questions > 0 else 0
    keys = n_board * (n_board + 1) // 2
    terms = np.empty((n_questions, keys, n_board), dtype=np.float64)
    filled = np.zeros((n_questions, keys), dtype=np.bool_)
    position = np.full(n_animals if n_questions > 0 else 0, -1, dtype=np.int64)
    for i in range(n_board):
        position[board[i]] = i
    return terms, filled, position


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def memo_usable(terms, players, n_neutrals):
    """Whether :func:`own_vote_information` may look terms up: a memo is there and each
    voter has one or two other candidates besides the target (a sum of two weights is the
    same float in either order; three or more could round differently by order)."""
    rest_count = players - 2 + n_neutrals
    return terms.shape[0] > 0 and 1 <= rest_count <= 2


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def memo_key(first, second):
    """The memo row of a voter's other candidates at board positions ``first`` and
    ``second`` (``second`` < 0: one candidate); the same for either order."""
    if second < 0:
        second = first
    low = min(first, second)
    high = max(first, second)
    return high * (high + 1) // 2 + low


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def own_vote_information(
    card,
    target,
    players,
    seat_animals,
    neutrals,
    n_neutrals,
    seat_w,
    seat_wl,
    neutral_w,
    neutral_wl,
    prior,
    board,
    n_board,
    scores,
    weights,
    terms,
    filled,
    position,
    scratch,
):
    """:func:`vote_information` about ``target``'s own animal (every other seat's animal
    known: ``seat_w[other]`` is its weight on ``card``), with the per-animal terms of the
    conditional entropy (:func:`conditional_term`, a logarithm each) looked up in a memo from
    :func:`new_information_memo` (computed on first use). Those terms depend only on the card
    and the voter's other candidates, not on the prior, so they repeat from turn to turn and
    game to game. Call it only where :func:`memo_usable`. Every float is computed by the same
    operations in the same order as :func:`vote_information`: the result is bit for bit the
    same. ``seat_animals[target]`` is never read.

    ``scratch``: four rows of at least ``n_board`` floats (rows 0, 1, 6 and 7 of
    ``strategies.new_work``). The prior and the card's weights are gathered once in board
    order (the prior 0.0 where :func:`vote_information` skips an animal); per voter the two
    quotients of every animal are computed in one loop without a branch, then summed in
    board order (the old ``prior <= 0`` skip mispredicted: which animals are ruled out is
    unpredictable; numba's LLVM does not vectorise these divisions, so it is the branch
    that costs, not the three extra quotients). A skipped animal adds an exact zero (its
    prior is 0.0 and every term finite), and a sum that starts at +0.0 never becomes -0.0,
    so adding it leaves the sum's bits as they are."""
    board_p = scratch[0]
    board_w = scratch[1]
    target_share = scratch[6]
    spread_share = scratch[7]
    for i in range(n_board):
        x = board[i]
        board_p[i] = 0.0 if prior[x] <= 0.0 else prior[x]
        board_w[i] = weights[card, x]
    total = 0.0
    for voter in range(players):
        if voter == target:
            continue
        rest = 0.0
        rest_wl = 0.0
        first = -1
        second = -1
        for other in range(players):
            if other != voter and other != target:
                rest += seat_w[other]
                rest_wl += seat_wl[other]
                if first < 0:
                    first = position[seat_animals[other]]
                else:
                    second = position[seat_animals[other]]
        for k in range(n_neutrals):
            rest += neutral_w[k]
            rest_wl += neutral_wl[k]
            if first < 0:
                first = position[neutrals[k]]
            else:
                second = position[neutrals[k]]
        key = memo_key(first, second)
        row = terms[card, key]
        if not filled[card, key]:
            for i in range(n_board):
                row[i] = conditional_term(
                    rest, rest_wl, weights[card, board[i]], scores[card, board[i]]
                )
            filled[card, key] = True
        for i in range(n_board):  # no branch, no sum
            z = rest + board_w[i]
            target_share[i] = board_p[i] * board_w[i] / z
            spread_share[i] = board_p[i] / z
        conditional = 0.0
        p_target = 0.0
        spread = 0.0
        for i in range(n_board):  # the sums, in board order as vote_information's
            conditional += board_p[i] * row[i]
            p_target += target_share[i]
            spread += spread_share[i]
        total += _marginal(p_target, spread, rest, rest_wl) - conditional
    return max(total, 0.0)
