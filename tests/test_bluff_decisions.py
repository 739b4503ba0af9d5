"""The built-in strategies decide as recorded: every decision of the corpus replays exactly.

The corpus (``tests/bluff_decisions.py``) was recorded from real games before the strategies
were sped up (issue 13); the same inputs must give the same answer and use the random
stream the same way, whatever the scratch memory holds.
"""

from __future__ import annotations

import numpy as np
import pytest
from bluff_decisions import CLAIM, MOVE, load

from zooanalysis.games.bluff.policy_math import new_workspace
from zooanalysis.games.bluff.strategies import (
    BAYES,
    MOVE_NONE,
    choose_claim,
    choose_claim_after_move,
    choose_move,
    new_table,
)

TABLE = new_table()  # the public facts only ``stakes`` reads; the corpus predates it


@pytest.fixture(scope="module")
def corpus() -> dict[str, np.ndarray]:
    return load()


def replay(corpus: dict[str, np.ndarray], row: int, work: np.ndarray) -> tuple[int, int, int]:
    """(answer, answer, stream after) of the corpus's decision ``row`` played again."""
    rng = np.array([corpus["rng_before"][row]], dtype=np.uint64)
    code = np.int64(corpus["code"][row])
    params = corpus["params"][row]
    known = corpus["known"][row].astype(np.int64)
    unseen = corpus["unseen"][row].astype(np.int64)
    pile_size = np.int64(corpus["pile_size"][row])
    count = np.int64(corpus["claim_count"][row])
    kind = np.int64(corpus["claim_kind"][row])
    cap = np.int64(corpus["cap"][row])
    if corpus["phase"][row] == MOVE:
        answer = choose_move(
            code, params, corpus["hand"][row], np.int64(corpus["hand_size"][row]), known,
            unseen, pile_size, np.int64(corpus["draw_size"][row]), count, kind, cap, rng, work,
            TABLE,
        )
    else:
        answer = choose_claim(
            code, params, known, unseen, pile_size, count, kind, cap, rng, work, TABLE
        )
    return int(answer[0]), int(answer[1]), int(rng[0])


def test_the_corpus_covers_every_kind_of_decision(corpus):
    phase, code, answer = corpus["phase"], corpus["code"], corpus["answer"]
    assert (code == BAYES).sum() >= 5000
    for strategy in np.unique(code):
        moves = answer[(code == strategy) & (phase == MOVE), 0]
        assert len(np.unique(moves)) >= 3, f"strategy {strategy}: moves {np.unique(moves)}"
        assert ((code == strategy) & (phase == CLAIM)).sum() > 100
    # the rare paths: a claim at the cap, an empty draw pile, an empty hand
    assert (corpus["claim_count"] == corpus["cap"]).any()
    assert (corpus["draw_size"] == 0).any()
    assert (corpus["hand_size"] == 0).any()


def test_every_recorded_decision_replays_exactly(corpus):
    work = new_workspace()
    wrong = []
    for row in range(len(corpus["phase"])):
        work.fill(np.nan if row % 2 else 1e9)  # left-over scratch must not matter
        first, second, after = replay(corpus, row, work)
        if (first, second) != tuple(corpus["answer"][row]) or after != corpus["rng_after"][row]:
            wrong.append(row)
    assert not wrong, f"{len(wrong)} decisions changed, first rows {wrong[:10]}"


def test_claims_after_a_move_reuse_nothing_stale(corpus):
    """The kernel's claim right after the same player's move (``choose_claim_after_move``,
    which may start from what the move worked out) answers as recorded, for every
    recorded move followed by its claim."""
    phase, code = corpus["phase"], corpus["code"]
    pairs = 0
    wrong = []
    work = new_workspace()
    for row in range(len(phase) - 1):
        if phase[row] != MOVE or phase[row + 1] != CLAIM or code[row] != code[row + 1]:
            continue
        move, _, _ = replay(corpus, row, work)
        placed = corpus["known"][row + 1].astype(np.int64) - corpus["known"][row]
        if placed.sum() != (0 if move == MOVE_NONE else 1):
            continue  # not this move's claim (cannot happen in play order)
        card = int(np.argmax(placed)) if placed.sum() else -1
        claim = row + 1
        rng = np.array([corpus["rng_before"][claim]], dtype=np.uint64)
        answer = choose_claim_after_move(
            np.int64(code[claim]), corpus["params"][claim],
            corpus["known"][claim].astype(np.int64), corpus["unseen"][claim].astype(np.int64),
            np.int64(corpus["pile_size"][claim]), np.int64(corpus["claim_count"][claim]),
            np.int64(corpus["claim_kind"][claim]), np.int64(corpus["cap"][claim]), rng, work,
            TABLE, np.int64(move), np.int64(card),
        )
        pairs += 1
        if tuple(int(a) for a in answer) != tuple(corpus["answer"][claim]) or int(
            rng[0]
        ) != int(corpus["rng_after"][claim]):
            wrong.append(claim)
    assert pairs > 5000
    assert not wrong, f"{len(wrong)} claims changed, first rows {wrong[:10]}"
