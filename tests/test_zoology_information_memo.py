"""curious's memoised question information is the direct one, bit for bit.

The kernel looks up the logarithms of a question's conditional vote entropy in a memo kept
for a whole batch (``beliefs.new_information_memo``); the reference engine computes them
directly. Here both are called on random deals and posteriors for every player count, with
and without neutral animals and on every board, the memo filled by earlier calls (so most
values are lookups): the floats must be equal, not close, since curious's choice between two
cards of nearly equal information must not change.
"""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.games.zoology.beliefs import memo_key, memo_usable, new_information_memo
from zooanalysis.games.zoology.rules import ZoologySettings
from zooanalysis.games.zoology.strategies import (
    CURIOUS,
    choose_question,
    new_work,
    own_information,
    own_information_memo,
)

ALL_REGIONS = ("africa", "america", "asia", "australia")


def random_posterior(rng: np.random.Generator, n_animals: int, candidates: list[int]) -> np.ndarray:
    """A posterior over ``candidates`` (some near-certain, some with zeros), 0 elsewhere."""
    probs = np.zeros(n_animals)
    values = rng.exponential(size=len(candidates)) ** rng.choice([1.0, 4.0, 12.0])
    values[rng.random(len(candidates)) < 0.2] = 0.0
    if values.sum() == 0.0:
        values[0] = 1.0
    probs[candidates] = values / values.sum()
    return probs


@pytest.mark.parametrize(
    "players,neutrals,regions",
    [
        (2, 0, ()),
        (2, 2, ()),
        (3, 0, ()),
        (3, 1, ("asia",)),
        (4, 0, ()),
        (4, 0, ALL_REGIONS),
        (5, 0, ("africa",)),
        (6, 0, ()),
    ],
)
def test_memo_gives_the_direct_information_bit_for_bit(players, neutrals, regions):
    rules = ZoologySettings(regions=regions)
    board = rules.board(regions)
    n_questions, n_animals = rules.scores.shape
    memo = new_information_memo(n_questions, n_animals, board)
    work = new_work(n_animals)
    rng = np.random.default_rng(1000 * players + neutrals)
    lookups = 0
    for _ in range(150):
        deal = rng.permutation(board)
        seat_animals = deal[:players].astype(np.int64)
        neutral = deal[players : players + neutrals].astype(np.int64)
        seat = int(rng.integers(players))
        seat_animals[seat] = -1  # never read
        candidates = [int(a) for a in deal[players + neutrals :]] + [int(deal[seat])]
        probs = random_posterior(rng, n_animals, candidates)
        for card in rng.choice(rules.deck(regions), size=4, replace=False):
            filled_before = int(memo[1].sum())
            args = (card, seat, seat_animals, players, neutral, neutrals, probs, board)
            direct = own_information(*args, len(board), rules.scores, rules.weights, work)
            memoised = own_information_memo(
                *args, len(board), rules.scores, rules.weights, work, memo
            )
            assert memoised == direct  # equal floats, not merely close
            lookups += int(memo[1].sum()) == filled_before
    usable = memo_usable(memo[0], players, neutrals)
    assert usable == (1 <= players - 2 + neutrals <= 2)
    assert (memo[1].sum() > 0) == usable  # unusable: nothing stored, computed directly
    if usable:
        assert lookups > 0  # the memo was read, not only filled


def test_memo_key_is_one_row_per_unordered_pair():
    keys = {memo_key(a, b) for a in range(16) for b in range(a + 1, 16)}
    singles = {memo_key(a, -1) for a in range(16)}
    assert len(keys) == 16 * 15 // 2 and len(singles) == 16 and not keys & singles
    assert all(memo_key(a, b) == memo_key(b, a) for a in range(16) for b in range(16))
    assert max(keys | singles) == 16 * 17 // 2 - 1  # new_information_memo's row count - 1


def test_curious_chooses_the_same_card_with_or_without_the_memo():
    rules = ZoologySettings()
    board = rules.board(())
    n_questions, n_animals = rules.scores.shape
    memo = new_information_memo(n_questions, n_animals, board)
    empty = new_information_memo(0, 0, board)
    rng = np.random.default_rng(7)
    params = np.array([0.8, 0.0, 0.0, 0.0])
    for _ in range(300):
        deal = rng.permutation(board)
        seat_animals = deal[:4].astype(np.int64)
        seat = int(rng.integers(4))
        probs = random_posterior(rng, n_animals, [int(a) for a in deal[4:]] + [int(deal[seat])])
        seat_animals[seat] = -1
        hand = rng.choice(rules.deck(()), size=3, replace=False).astype(np.int64)
        chosen = []
        for this_memo in (empty, memo):
            stream = np.array([12345], dtype=np.uint64)
            chosen.append(
                choose_question(
                    CURIOUS,
                    params,
                    seat,
                    hand,
                    3,
                    seat_animals,
                    4,
                    np.zeros(1, dtype=np.int64),
                    0,
                    probs,
                    np.zeros(n_animals, dtype=np.bool_),
                    board,
                    len(board),
                    rules.scores,
                    rules.weights,
                    stream,
                    new_work(n_animals),
                    this_memo,
                )
            )
        assert chosen[0] == chosen[1]
