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
from zooanalysis.games.bluff.strategies import BAYES, choose_claim, choose_move


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
        )
    else:
        answer = choose_claim(code, params, known, unseen, pile_size, count, kind, cap, rng, work)
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
