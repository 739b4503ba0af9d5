"""How many real choices a player has: decision moves and branching factor, in constant memory.

Ludii's balance reports name two measures of how much a game lets its players decide: the
**decision moves** (the share of moves with more than one legal option, and here also how
many such moves a game has) and the **branching factor** (how many legal options a player
has when deciding). Every game counts them the same way, with the two count arrays of
:func:`new_decision_totals`:

- ``decision_options[o]``: decisions taken with ``o`` legal options (``o = 1``: a forced
  move, no real choice). A **decision** is every time the rules let a player choose: a card
  to play, a claim, whether to doubt, a question to ask ... as the ``decisions`` field of
  the game's reference-engine record lists them (e.g. ``games/bluff/engine.py``). The bin
  ``OPTION_BINS - 1`` holds that many options or more.
- ``game_decisions[d]``: games in which the players took ``d`` real decisions (2 options
  or more) in all; the bin ``GAME_BINS - 1`` holds that many or more.

A kernel calls :func:`count_decision` at each decision (one add, and it returns 1 for a
real decision so the kernel can keep the game's count in a scalar) and
:func:`count_game_decisions` once per game; a reference engine records the options of every
decision in its game record and calls the plain twin :func:`tally_decisions`. The
engine-agreement tests hold the two equal.

The tables (``decisions``: ``options, decisions``; ``game_decisions``: ``decisions, games``;
made by ``count_tables.outcome_tables`` whenever a batch has the arrays) feed
``zooanalysis.balance``; a game whose tables lack them is reported as "not measured".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

OPTION_BINS = 1024
"""Options at a decision 0-1023; 1023 holds 1023 or more."""
GAME_BINS = 1024
"""Real decisions in a game 0-1023; 1023 holds 1023 or more."""


def new_decision_totals() -> dict[str, np.ndarray]:
    """Zeroed ``decision_options`` and ``game_decisions`` arrays for a batch."""
    return {
        "decision_options": np.zeros(OPTION_BINS, dtype=np.int64),
        "game_decisions": np.zeros(GAME_BINS, dtype=np.int64),
    }


@njit(cache=True, nogil=True, error_model="numpy")
def count_decision(options: int, decision_options: np.ndarray) -> int:
    """Count one decision taken with ``options`` legal options; 1 if it was a real choice
    (two options or more), else 0, to add to the game's count. No allocation."""
    decision_options[min(options, OPTION_BINS - 1)] += 1
    return int(options > 1)


@njit(cache=True, nogil=True, error_model="numpy")
def combinations(n: int, k: int) -> int:
    """The ways to choose ``k`` of ``n`` things (``math.comb``, for kernels), e.g. the
    draw piles a player can make; capped at ``OPTION_BINS`` (the top bin)."""
    if k < 0 or k > n:
        return 0
    ways = 1
    for index in range(min(k, n - k)):
        ways = ways * (n - index) // (index + 1)
        if ways >= OPTION_BINS:
            return OPTION_BINS
    return ways


@njit(cache=True, nogil=True, error_model="numpy")
def count_game_decisions(real: int, game_decisions: np.ndarray) -> None:
    """Count one finished game in which ``real`` real decisions were taken."""
    game_decisions[min(real, GAME_BINS - 1)] += 1


def tally_decisions(options: Sequence[int], totals: dict[str, np.ndarray]) -> None:
    """Add one game's decisions (the options of each, in any order) to ``totals``, as the
    kernels count them with :func:`count_decision` and :func:`count_game_decisions`."""
    for count in options:
        totals["decision_options"][min(count, OPTION_BINS - 1)] += 1
    real = sum(1 for count in options if count > 1)
    totals["game_decisions"][min(real, GAME_BINS - 1)] += 1
