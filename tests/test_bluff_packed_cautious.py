"""The kernel's packed ``cautious`` (``packed_cautious.py``) decides as ``strategies.py`` does.

Every recorded ``cautious`` decision of the corpus (``tests/bluff_decisions.py``) and many
random views (action and stop cards in the known pile cards included, trust 0 to 3, margins
-5 to 10) give the same move, hand card and claim from the packed words as from the
per-type counts. The kernel as a whole is held to the reference engine by
tests/test_bluff_engines_agree.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from bluff_decisions import CLAIM, MOVE, load

from zooanalysis.games.bluff.cards import N_CARD_TYPES, N_KINDS
from zooanalysis.games.bluff.packed_cautious import cautious_claim, cautious_move
from zooanalysis.games.bluff.pile import packed_count, packed_size, pile_deltas
from zooanalysis.games.bluff.policy_math import count_kind, new_workspace
from zooanalysis.games.bluff.rules import DeckSettings
from zooanalysis.games.bluff.strategies import (
    CAUTIOUS,
    MOVE_DOUBT,
    choose_claim,
    choose_move,
    new_table,
)

DECK = DeckSettings()
PLAIN, ONES = pile_deltas(DECK.type_counts())


def packed(counts: np.ndarray) -> tuple[int, int]:
    """(PLAIN, ONES) words of a pile with these per-type counts."""
    counts = np.asarray(counts, dtype=np.int64)
    return int(counts @ PLAIN[:N_CARD_TYPES]), int(counts @ ONES[:N_CARD_TYPES])


def packed_answers(params, hand, hand_size, known, unseen, pile_size, count, kind, cap):
    """(move, index) and (count, kind) of the packed cautious for one view."""
    known_plain, known_ones = packed(known)
    unseen_plain, _ = packed(unseen)
    move = cautious_move(
        params[0], params[1], hand.reshape(1, -1), 0, hand_size, known_plain, known_ones,
        pile_size, count, kind,
    )
    claim = cautious_claim(known_plain, known_ones, unseen_plain, pile_size, count, kind, cap)
    return tuple(int(x) for x in move), tuple(int(x) for x in claim)


def array_answers(params, hand, hand_size, known, unseen, pile_size, draw_size, count, kind,
                  cap):
    """(move, index) and (count, kind) of strategies.py's cautious for the same view."""
    rng = np.zeros(1, dtype=np.uint64)
    move = choose_move(
        np.int64(CAUTIOUS), params, hand, np.int64(hand_size), known, unseen,
        np.int64(pile_size), np.int64(draw_size), np.int64(count), np.int64(kind),
        np.int64(cap), rng, new_workspace(), new_table(),
    )
    claim = choose_claim(
        np.int64(CAUTIOUS), params, known, unseen, np.int64(pile_size), np.int64(count),
        np.int64(kind), np.int64(cap), rng, new_workspace(), new_table(),
    )
    return tuple(int(x) for x in move), tuple(int(x) for x in claim)


def test_packed_words_count_as_the_arrays():
    """The words' fields are the counts the array code adds up (a hand-made pile)."""
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    known[[0, 4, 5, 15, 16]] = 1  # mouse:1, rabbit:2, rabbit:3, wild:1, wild:2
    plain, ones = packed(known)
    assert packed_size(plain) == 5
    assert [packed_count(plain, ones, kind) for kind in range(N_KINDS)] == [4, 8, 3, 3, 3]
    known[17] = 1  # "All cards count 1": every animal and wild card counts 1
    plain, ones = packed(known)
    assert [packed_count(plain, ones, kind) for kind in range(N_KINDS)] == [3, 4, 2, 2, 2]
    assert [packed_count(plain, ones, k) for k in range(N_KINDS)] == [
        count_kind(known, k) for k in range(N_KINDS)
    ]


@pytest.fixture(scope="module")
def corpus() -> dict[str, np.ndarray]:
    return load()


def test_every_recorded_cautious_decision_replays_packed(corpus):
    rows = np.flatnonzero(corpus["code"] == CAUTIOUS)
    assert len(rows) > 5000
    wrong = []
    for row in rows:
        known = corpus["known"][row].astype(np.int64)
        unseen = corpus["unseen"][row].astype(np.int64)
        if (known + unseen > DECK.type_counts()).any():
            continue  # a game with a bigger deck than the one the words are made for
        move, claim = packed_answers(
            corpus["params"][row], corpus["hand"][row], int(corpus["hand_size"][row]), known,
            unseen, int(corpus["pile_size"][row]), int(corpus["claim_count"][row]),
            int(corpus["claim_kind"][row]), int(corpus["cap"][row]),
        )
        answer = move if corpus["phase"][row] == MOVE else claim
        if answer != tuple(int(x) for x in corpus["answer"][row]):
            wrong.append(row)
    assert not wrong, f"{len(wrong)} decisions differ, first rows {wrong[:10]}"
    assert (corpus["phase"][rows] == CLAIM).sum() > 1000


def random_view(generator: np.random.Generator):
    """A random view of one player: hand, known pile cards, unseen cards, pile, claim."""
    deck = DECK.cards().astype(np.int64)
    generator.shuffle(deck)
    hand_size = int(generator.integers(0, 6))
    known_cards = int(generator.integers(0, 9))
    revealed = int(generator.integers(0, 40))
    hand = np.zeros(10, dtype=np.int64)
    hand[:hand_size] = deck[:hand_size]
    known = np.bincount(deck[hand_size : hand_size + known_cards], minlength=N_CARD_TYPES)
    seen = deck[: hand_size + known_cards + revealed]
    unseen = DECK.type_counts() - np.bincount(seen, minlength=N_CARD_TYPES)
    pile_size = known_cards + int(generator.integers(0, 12))
    cap = int(generator.integers(3, 40))
    count = int(generator.integers(0, cap + 1))
    kind = int(generator.integers(0, N_KINDS)) if count > 0 else -1
    if count == cap and kind == N_KINDS - 1:
        kind = N_KINDS - 2  # the forced doubt never reaches a strategy
    params = np.zeros(6)
    params[0] = generator.choice([0.0, 0.75, 0.8, generator.uniform(0, 3)])
    params[1] = generator.choice([-5.0, 0.5, 6.25, generator.uniform(-5, 10)])
    return params, hand, hand_size, known.astype(np.int64), unseen.astype(np.int64), pile_size, (
        count, kind, cap
    )


def test_random_views_decide_alike():
    generator = np.random.default_rng(13)
    doubts = 0
    for _ in range(4000):
        params, hand, hand_size, known, unseen, pile_size, (count, kind, cap) = random_view(
            generator
        )
        draw_size = int(generator.integers(0, 3))
        ours = packed_answers(params, hand, hand_size, known, unseen, pile_size, count, kind, cap)
        theirs = array_answers(
            params, hand, hand_size, known, unseen, pile_size, draw_size, count, kind, cap
        )
        assert ours == theirs, (params[:2], hand[:hand_size], known, unseen, pile_size, count,
                                kind, cap)
        doubts += ours[0][0] == MOVE_DOUBT
    assert 200 < doubts < 3800  # both answers are reached
