"""Seat rotation (``--rotate-seats``): every deal played once per rotation of the lineup.

Rotation ``r`` seats player ``p`` of the lineup in seat ``(p - r) mod n``; every rotation of
a batch uses the same batch seed, so each deal (the shuffle at the start of a game) is
played by every player from every seat. Seat luck and deal luck then cancel when
strategies are compared.

Besides each rotation's counts, a batch keeps per-deal sums (constant memory) from which
the paired statistics are computed: each strategy's win share over the rotations of a
deal (a game won by k tied winners gives each 1/k, as everywhere a share is compared), and
the differences between strategies on the same deals. The variance reduction is
measured from those sums against the same strategy in unrotated play (rotation 0 only, at
the same number of games), not assumed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from zooanalysis.games.base import BatchJob, BatchResult
from zooanalysis.outcome import win_shares
from zooanalysis.stats import moments
from zooanalysis.strategy_spec import PlayerSpec

Z_95 = 1.959963984540054
PREFIX = "rotation"


def rotated_lineups(lineup: Sequence[PlayerSpec]) -> list[list[PlayerSpec]]:
    """Every rotation of the lineup: rotation ``r`` puts player ``p`` in seat ``(p - r) % n``."""
    n = len(lineup)
    return [[lineup[(seat + r) % n] for seat in range(n)] for r in range(n)]


def distinct_labels(lineup: Sequence[PlayerSpec]) -> list[str]:
    """The lineup's strategy labels, each once, in order of first appearance."""
    return list(dict.fromkeys(player.label for player in lineup))


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class RotatedBatch:
    """Plays one batch in every rotation (same seed) and keeps paired per-deal sums."""

    jobs: tuple[BatchJob, ...]
    """One batch job per rotation, each asked for per-game rows."""
    row_wins: Callable[[BatchResult], np.ndarray]
    """The game's (games x seats) win flags from a batch's rows."""
    label_of_player: tuple[int, ...]
    """Index (in ``distinct_labels``) of each lineup player's strategy label."""
    keep_rows: bool = False
    """Also return every rotation's per-game rows, one after the other, with ``row_rotation``
    (rotation ``r`` seats lineup player ``p`` in seat ``(p - r) mod n``)."""

    def __call__(self, batch_seed: int, n_games: int) -> BatchResult:
        """Every rotation's counts (keys ``rotation<r>/...``) plus the paired sums."""
        players = len(self.jobs)
        labels = max(self.label_of_player) + 1
        share = np.zeros((n_games, labels))  # each label's win share per deal
        single = np.zeros((n_games, labels))  # the same in rotation 0 only
        seat_share = np.zeros((n_games, players))  # each seat's win share per deal
        seats_of_label = np.bincount(self.label_of_player, minlength=labels)
        result: BatchResult = {}
        rows: dict[str, list[np.ndarray]] = {}
        for rotation, job in enumerate(self.jobs):
            batch = job(batch_seed, n_games)
            wins = win_shares(self.row_wins(batch))
            seat_share += wins / players
            for player in range(players):
                seat = (player - rotation) % players
                label = self.label_of_player[player]
                share[:, label] += wins[:, seat] / (players * seats_of_label[label])
                if rotation == 0:
                    single[:, label] += wins[:, seat] / seats_of_label[label]
            for key, value in batch.items():
                if not key.startswith("row_"):
                    result[f"{PREFIX}{rotation}/{key}"] = value
                elif self.keep_rows:
                    rows.setdefault(key, []).append(value)
        if self.keep_rows:
            result.update({key: np.concatenate(parts) for key, parts in rows.items()})
            result["row_rotation"] = np.repeat(np.arange(players, dtype=np.int8), n_games)
        differences = share[:, :, None] - share[:, None, :]
        single_differences = single[:, :, None] - single[:, None, :]
        result["paired/deals"] = np.array([n_games], dtype=np.int64)
        result["paired/share_sum"] = share.sum(axis=0)
        result["paired/share_squares"] = (share**2).sum(axis=0)
        result["paired/single_sum"] = single.sum(axis=0)
        result["paired/single_squares"] = (single**2).sum(axis=0)
        result["paired/difference_sum"] = differences.sum(axis=0)
        result["paired/difference_squares"] = (differences**2).sum(axis=0)
        result["paired/single_difference_sum"] = single_differences.sum(axis=0)
        result["paired/single_difference_squares"] = (single_differences**2).sum(axis=0)
        result["paired/seat_share_sum"] = seat_share.sum(axis=0)
        result["paired/seat_share_squares"] = (seat_share**2).sum(axis=0)
        return result


def rotation_count(totals: BatchResult) -> int:
    """How many rotations a rotated run's totals hold (from their ``rotation<r>/`` keys)."""
    return len({key.split("/", 1)[0] for key in totals if key.startswith(PREFIX)})


def split_rotations(totals: BatchResult, rotations: int) -> list[BatchResult]:
    """Each rotation's own summed counts, from a rotated run's totals."""
    split: list[BatchResult] = [{} for _ in range(rotations)]
    for key, value in totals.items():
        if key.startswith(PREFIX):
            rotation, name = key.removeprefix(PREFIX).split("/", 1)
            split[int(rotation)][name] = value
    return split


def strategy_table(totals: BatchResult, labels: Sequence[str]) -> pd.DataFrame:
    """Each strategy's seat-averaged win share with a 95% interval, and the measured
    variance reduction against unrotated play at the same number of games.

    ``variance_reduction`` is the variance of the unrotated estimate (one seat, n times the
    deals) divided by the variance of the rotated one: above 1 means rotation helped.
    """
    deals = float(totals["paired/deals"][0])
    rotations = rotation_count(totals)
    rows = []
    for index, label in enumerate(labels):
        mean, variance = moments(
            totals["paired/share_sum"][index], totals["paired/share_squares"][index], deals
        )
        _, single_variance = moments(
            totals["paired/single_sum"][index], totals["paired/single_squares"][index], deals
        )
        half = Z_95 * np.sqrt(variance / deals)
        unrotated_variance = single_variance / rotations  # n times the deals, unrotated
        rows.append(
            {
                "strategy": label,
                "win_share": mean,
                "ci_low": mean - half,
                "ci_high": mean + half,
                "deals": int(deals),
                "games": int(deals) * rotations,
                "variance_per_deal": variance,
                "unrotated_variance_per_deal": unrotated_variance,
                "variance_reduction": unrotated_variance / variance if variance > 0 else np.nan,
            }
        )
    return pd.DataFrame(rows).set_index("strategy")


def seat_table(totals: BatchResult) -> pd.DataFrame:
    """Each seat's win share over the rotations, with a 95% interval from the per-deal
    means (the seatings of a deal share its cards, so they are not independent games):
    columns ``seat`` (from 0, as in the ``seats`` table), ``win_share``, ``ci_low``,
    ``ci_high``, ``variance_per_deal``, ``deals``. Empty for runs made before it was kept."""
    if "paired/seat_share_sum" not in totals:
        return pd.DataFrame(
            columns=["seat", "win_share", "ci_low", "ci_high", "variance_per_deal", "deals"]
        )
    deals = float(totals["paired/deals"][0])
    rows = []
    for seat, (total, squares) in enumerate(
        zip(totals["paired/seat_share_sum"], totals["paired/seat_share_squares"], strict=True)
    ):
        mean, variance = moments(total, squares, deals)
        half = Z_95 * np.sqrt(variance / deals)
        rows.append(
            {
                "seat": seat,
                "win_share": mean,
                "ci_low": max(0.0, mean - half),
                "ci_high": min(1.0, mean + half),
                "variance_per_deal": variance,
                "deals": int(deals),
            }
        )
    return pd.DataFrame(rows)


def pair_table(totals: BatchResult, labels: Sequence[str]) -> pd.DataFrame:
    """Every pair of strategies compared on the same deals: the difference of their win
    shares with a paired 95% interval and p-value, next to the interval that unrotated
    play of as many games would give (its per-game variance measured on rotation 0)."""
    deals = float(totals["paired/deals"][0])
    rotations = rotation_count(totals)
    rows = []
    for a, first in enumerate(labels):
        for b, second in enumerate(labels):
            if b <= a:
                continue
            mean, variance = moments(
                totals["paired/difference_sum"][a, b],
                totals["paired/difference_squares"][a, b],
                deals,
            )
            half = Z_95 * np.sqrt(variance / deals)
            # unrotated play of as many games: the variance of the difference within one
            # game (the two strategies' results in the same game) is measured on rotation 0
            single_variance = moments(
                totals["paired/single_difference_sum"][a, b],
                totals["paired/single_difference_squares"][a, b],
                deals,
            )[1]
            unrotated_half = Z_95 * np.sqrt(single_variance / (rotations * deals))
            z = mean / np.sqrt(variance / deals) if variance > 0 else np.inf * np.sign(mean)
            rows.append(
                {
                    "strategy": first,
                    "versus": second,
                    "difference": mean,
                    "ci_low": mean - half,
                    "ci_high": mean + half,
                    "p_value": 2 * norm.sf(abs(z)),
                    "unrotated_ci_half_width": unrotated_half,
                    "paired_ci_half_width": half,
                    "deals": int(deals),
                }
            )
    return pd.DataFrame(rows)
