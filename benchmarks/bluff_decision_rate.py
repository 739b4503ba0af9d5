"""CPU time of the ``bayes`` strategy's decisions on the recorded corpus (issue 13).

    python benchmarks/bluff_decision_rate.py [REPEATS]

Replays every recorded ``bayes`` move that is followed by its claim
(``tests/data/bluff_decisions.npz``), as the kernel calls them: ``choose_move``, then
``choose_claim_after_move`` on the same workspace. Prints the best time per move-and-claim
pair over ``REPEATS`` timings (CPU time, one core, compiled code warm). Nothing is asserted;
the answers are checked against the corpus by ``tests/test_bluff_decisions.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bluff_decisions import CLAIM, MOVE, load

from zooanalysis.games.bluff.policy_math import new_workspace
from zooanalysis.games.bluff.strategies import (
    BAYES,
    MOVE_DOUBT,
    choose_claim_after_move,
    choose_move,
    new_table,
)


@njit(cache=True)
def _replay(passes, rows, hand, hand_size, known, unseen, pile, draw, count, kind, cap, params,
            rng_before, work, table):
    """Play every move of ``rows`` and the claim after it ``passes`` times."""
    rng = np.zeros(1, np.uint64)
    my_known = np.zeros(known.shape[1], np.int64)
    my_unseen = np.zeros(unseen.shape[1], np.int64)
    checksum = 0
    for _ in range(passes):
        for row in rows:
            rng[0] = rng_before[row]
            move, index = choose_move(
                np.int64(BAYES), params[row], hand[row], hand_size[row], known[row], unseen[row],
                pile[row], draw[row], count[row], kind[row], cap[row], rng, work, table,
            )
            checksum += move * 7 + index
            if move == MOVE_DOUBT:
                continue
            claim = row + 1
            rng[0] = rng_before[claim]
            card = -1
            for card_type in range(my_known.shape[0]):
                my_known[card_type] = known[claim, card_type]
                my_unseen[card_type] = unseen[claim, card_type]
                if known[claim, card_type] != known[row, card_type]:
                    card = card_type
            claimed, claimed_kind = choose_claim_after_move(
                np.int64(BAYES), params[claim], my_known, my_unseen, pile[claim], count[claim],
                kind[claim], cap[claim], rng, work, table, np.int64(move), np.int64(card),
            )
            checksum += claimed * 5 + claimed_kind
    return checksum


def main() -> None:
    """Time the corpus's move-and-claim pairs and print ns per pair."""
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    corpus = load()
    phase, code = corpus["phase"], corpus["code"]
    rows = np.array(
        [
            row
            for row in range(len(phase) - 1)
            if code[row] == BAYES == code[row + 1] and phase[row] == MOVE
            and phase[row + 1] == CLAIM
        ],
        dtype=np.int64,
    )
    arrays = (
        corpus["hand"].astype(np.int64),
        corpus["hand_size"].astype(np.int64),
        corpus["known"].astype(np.int64),
        corpus["unseen"].astype(np.int64),
        corpus["pile_size"].astype(np.int64),
        corpus["draw_size"].astype(np.int64),
        corpus["claim_count"].astype(np.int64),
        corpus["claim_kind"].astype(np.int64),
        corpus["cap"].astype(np.int64),
        corpus["params"],
        corpus["rng_before"],
    )
    work = new_workspace()
    table = new_table()  # the public facts only ``stakes`` reads
    _replay(1, rows, *arrays, work, table)
    passes = 5
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        _replay(passes, rows, *arrays, work, table)
        best = min(best, time.process_time() - start)
    print(f"{len(rows)} move-and-claim pairs: {best / (passes * len(rows)) * 1e9:.0f} ns per pair")


if __name__ == "__main__":
    main()
