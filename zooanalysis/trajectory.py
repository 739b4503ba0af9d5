"""Score trajectories in constant memory: lead changes and when the winner's lead settled.

Every game kernel may produce two generic histogram tables that the balance report reads
(decisiveness and lead changes); a game whose tables lack them is reported as "not
measured". The definitions, shared by every game:

- After every move (or turn) that changes any score there is a **score check**. Its
  **sole leader** is the one player with the strictly best standing (Bluff in Zoo: fewest
  penalty points; other games: most points); if the best standing is shared there is none.
- **Lead changes** (table ``lead_changes``: columns ``lead_changes``, ``games``): how many
  times per game a sole leader appeared who differs from the most recent sole leader (the
  game's first sole leader is not a change). Bin 63 holds 63 or more.
- **Settled** (table ``settled``: columns ``settled_percent``, ``games``): only for games
  with a single winner. With the game's moves numbered ``0 .. T-1``, ``t`` is the smallest
  move index such that the eventual winner is the sole leader at every score check made at
  move ``t`` or later. The bin is ``min(19, floor(20 t / T))`` and ``settled_percent`` is
  5 x bin: "the winner leads for good after X% of the game".

The plain functions below state the definitions directly on a whole trajectory (used by
reference engines and tests); kernels keep the same counts with a few scalars per game
(see ``zooanalysis/games/bluff/kernel.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zooanalysis.lazy_modules import pandas as pd

LEAD_CHANGE_BINS = 64
"""Bins 0-63 of the lead-change histogram; 63 holds 63 or more."""
SETTLED_BINS = 20
"""Twenty 5% bins of the settled histogram."""
NO_LEADER = -1


def sole_leader(standings: Sequence[float], higher_is_better: bool = True) -> int:
    """The seat with the strictly best standing, or ``NO_LEADER`` if the best is shared."""
    values = np.asarray(standings)
    best = values.max() if higher_is_better else values.min()
    leaders = np.flatnonzero(values == best)
    return int(leaders[0]) if len(leaders) == 1 else NO_LEADER


def count_lead_changes(leaders: Sequence[int]) -> int:
    """Lead changes in a game, from the sole leader (or ``NO_LEADER``) at each score check."""
    changes = 0
    previous = NO_LEADER
    for leader in leaders:
        if leader == NO_LEADER:
            continue
        if previous != NO_LEADER and leader != previous:
            changes += 1
        previous = leader
    return changes


def settled_move(check_moves: Sequence[int], leaders: Sequence[int], winner: int) -> int:
    """The first move index ``t`` from which ``winner`` is sole leader at every score check.

    ``check_moves[i]`` is the (0-based) move after which check ``i`` was made and
    ``leaders[i]`` its sole leader. Returns 0 when the winner led at every check.
    """
    start = 0
    for move, leader in zip(check_moves, leaders, strict=True):
        if leader != winner:
            start = move + 1
    return start


def settled_bin(t: int, total_moves: int) -> int:
    """The histogram bin of a settled move index: ``min(19, floor(20 t / T))``."""
    return min(SETTLED_BINS - 1, (SETTLED_BINS * t) // total_moves)


def lead_changes_table(histogram: np.ndarray) -> pd.DataFrame:
    """The ``lead_changes`` table (non-empty bins) from a 64-bin histogram."""
    values = np.nonzero(histogram)[0]
    return pd.DataFrame(
        {"lead_changes": values.astype(np.int64), "games": histogram[values].astype(np.int64)}
    )


def settled_table(histogram: np.ndarray) -> pd.DataFrame:
    """The ``settled`` table (all 20 bins, empty ones included) from its histogram."""
    return pd.DataFrame(
        {
            "settled_percent": (5 * np.arange(SETTLED_BINS)).astype(np.int64),
            "games": np.asarray(histogram, dtype=np.int64),
        }
    )
