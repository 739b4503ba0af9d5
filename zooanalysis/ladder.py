"""The skill ladder of a field: how much each rung of skill gains over the rung below.

Rungs, from the bottom: ``random`` (the uniformly random player, when the population has
it), the shipped heuristics at their defaults, the tuned players (any population member
whose parameters differ from the defaults), and the field's equilibrium mix. Within a rung
with several members, the one that does best against the rung below climbs (so the ladder
is the steepest path the population offers; chosen on the same data, so it is a little
optimistic). Each rung's figure is the win share per seat-game of **one** player of that
rung at a table whose other seats are all the rung below, read from the field's
meta-game (a composition it played on common deals), next to the **baseline**: what that
seat earned playing like the others (the rung below's share at a table of its own). The
gain over the baseline, with a 95% interval from the bootstrap over batches of deals (the
two on the same resampled deals), is a designer's "is it just luck?". (In a game that
always has a winner the baseline is the fair share; in a cooperative game, where every
seat shares the team's result, it is the team's success over the seats.) ``n`` is the
upper player's seat-games in the compositions read.

Above the top rung, for a game with a forward model, the **search** rung: the ``search``
player at a table of the top rung, played on its own deals and stored in the field folder
(``zooanalysis.ladder_search``); its interval is Wilson's at the effective sample size of
its seat-games (the rotations of one deal are correlated: Kish's design effect), its
baseline the fair share; its row also gives its deals and that effective n (``n_eff``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from zooanalysis.field_analysis import field_arrays, meta_game
from zooanalysis.separation import Estimate, versus

RANDOM = "random"
BOOTSTRAP = 200
SEARCH_TABLE = "ladder_search"
"""The field folder's table of the search rung (written by ``zooanalysis.ladder_search``)."""
NO_DIFFERENCE = "no measurable difference"
"""Every rung's verdict when its interval covers the reference (the project's phrase)."""


def _share_against(game, mix: np.ndarray, below: int) -> float:
    """Win share of one seat drawing from ``mix`` when every other seat plays ``below``."""
    seats = game.seats
    total = 0.0
    for i, weight in enumerate(mix):
        if weight <= 0:
            continue
        composition = np.zeros(game.strategies, dtype=np.int64)
        composition[below] += seats - 1
        composition[i] += 1
        total += weight * game.payoffs[game.row_of(composition), i]
    return total


def _seat_games_against(game, seat_games: np.ndarray, mix: np.ndarray, below: int) -> int:
    """The seat-games of the one seat drawing from ``mix`` in the compositions read."""
    total = 0
    for i, weight in enumerate(mix):
        if weight <= 0:
            continue
        composition = np.zeros(game.strategies, dtype=np.int64)
        composition[below] += game.seats - 1
        composition[i] += 1
        total += int(seat_games[game.row_of(composition), i])
    return total


def ladder_table(
    field, rungs: Sequence[str] | None = None, seed: int = 0, with_search: bool = True
) -> pd.DataFrame:
    """One row per rung above the first: the rung's player, the rung below, its win share
    against a table of the rung below with the 95% bootstrap interval and n, the fair
    share, and whether the interval lies above it. Empty when the field has fewer than two
    rungs. ``rungs`` (population labels or ``mix``) overrides the automatic choice; the
    automatic ladder ends with the stored search rung when the field has one (and
    ``with_search``)."""
    labels = list(field.manifest["population"])
    counts, shares, seat_games = field_arrays(field)
    game = meta_game(counts, shares.sum(axis=1), seat_games.sum(axis=1))
    weights = field.manifest["solution"]["weights"]
    mix = np.array([weights[label] for label in labels])

    def as_mix(name: str) -> np.ndarray:
        if name == "mix":
            return mix
        pure = np.zeros(len(labels))
        pure[labels.index(name)] = 1.0
        return pure

    chosen = list(rungs) if rungs is not None else _automatic(game, labels, mix)
    if len(chosen) < 2:
        chosen = []
    rng = np.random.default_rng([seed, 3])
    batches = shares.shape[1]
    replicates = BOOTSTRAP if batches > 1 else 0  # one batch: nothing to resample
    picks = [rng.integers(0, batches, size=batches) for _ in range(replicates)]
    resampled = [
        meta_game(counts, shares[:, p].sum(axis=1), seat_games[:, p].sum(axis=1)) for p in picks
    ]
    rows = []
    for level, (lower, upper) in enumerate(itertools.pairwise(chosen), start=1):
        below = labels.index(lower)
        value = _share_against(game, as_mix(upper), below)
        baseline = _share_against(game, as_mix(lower), below)
        draws = np.array(
            [
                (_share_against(g, as_mix(upper), below), _share_against(g, as_mix(lower), below))
                for g in resampled
            ]
        ).reshape(-1, 2)
        low, high = _percentiles(draws[:, 0])
        gain_low, gain_high = _percentiles(draws[:, 0] - draws[:, 1])
        rows.append(
            {
                "rung": level,
                "player": upper,
                "versus": lower,
                "share": value,
                "ci_low": low,
                "ci_high": high,
                "baseline": baseline,
                "gain": value - baseline,
                "gain_ci_low": gain_low,
                "gain_ci_high": gain_high,
                "fair_share": 1.0 / game.seats,
                "verdict": rung_verdict(value - baseline, gain_low, gain_high, 0.0),
                "n": _seat_games_against(game, seat_games.sum(axis=1), as_mix(upper), below),
                "interval": "bootstrap",
            }
        )  # fmt: skip
    if with_search and rungs is None and SEARCH_TABLE in field.table_names:
        rows.append(_search_row(field.table(SEARCH_TABLE), len(rows) + 1))
    return pd.DataFrame(rows)


def rung_verdict(value: float, low: float, high: float, reference: float) -> str:
    """A rung's verdict against ``reference``: ``gains`` or ``loses`` only when the interval
    [``low``, ``high``] lies wholly above or below it (:func:`separation.versus`), else
    :data:`NO_DIFFERENCE`."""
    side = versus(Estimate("rung", value, low, high), reference)
    return {1: "gains", -1: "loses", 0: NO_DIFFERENCE}[side]


def _percentiles(draws: np.ndarray) -> tuple[float, float]:
    """The 2.5 and 97.5 percentiles (nan without two batches to resample)."""
    if len(draws) < 2:
        return np.nan, np.nan
    low, high = np.percentile(draws, [2.5, 97.5])
    return float(low), float(high)


def _automatic(game, labels: list[str], mix: np.ndarray) -> list[str]:
    """random, then the best shipped heuristic, then the best tuned player, then the mix
    (each best against the rung below); rungs the population lacks are skipped."""
    heuristics = [label for label in labels if ":" not in label and label != RANDOM]
    tuned = [label for label in labels if ":" in label]
    rungs: list[str] = []
    if RANDOM in labels:
        rungs.append(RANDOM)
    for group in (heuristics, tuned):
        if not group:
            continue
        if not rungs:
            rungs.append(group[0])
            group = group[1:]
            if not group:
                continue
        below = labels.index(rungs[-1])

        def strength(label: str, below: int = below) -> float:
            pure = np.zeros(len(labels))
            pure[labels.index(label)] = 1.0
            return _share_against(game, pure, below)

        rungs.append(max(group, key=strength))
    if rungs and mix[labels.index(rungs[-1])] < 1 - 1e-9:
        rungs.append("mix")
    return rungs


def _search_row(table: pd.DataFrame, rung: int) -> dict[str, object]:
    """The stored search rung (``zooanalysis.ladder_search``) as a row of the ladder: its gain is
    over the fair share (what the top rung earns at a table of its own), the interval
    Wilson's at the effective n, shifted."""
    row = table.iloc[0]
    return {
        "rung": rung,
        "player": row.player,
        "versus": row.versus,
        "share": float(row.share),
        "ci_low": float(row.ci_low),
        "ci_high": float(row.ci_high),
        "baseline": float(row.fair_share),
        "gain": float(row.share - row.fair_share),
        "gain_ci_low": float(row.ci_low - row.fair_share),
        "gain_ci_high": float(row.ci_high - row.fair_share),
        "fair_share": float(row.fair_share),
        "verdict": rung_verdict(
            float(row.share), float(row.ci_low), float(row.ci_high), float(row.fair_share)
        ),  # today's words, also for old folders
        "n": int(row.n),
        "deals": int(row.deals),
        "n_eff": float(getattr(row, "n_eff", np.nan)),  # nan: stored before it was kept
        "interval": "Wilson",
    }
