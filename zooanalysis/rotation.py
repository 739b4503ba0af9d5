"""Seat rotation (``--rotate-seats``): every deal played once per rotation of the lineup.

Rotation ``r`` seats player ``p`` of the lineup in seat ``(p - r) mod n``; every rotation of
a batch uses the same batch seed, so each deal (the shuffle at the start of a game) is
played by every player from every seat. Seat luck and deal luck then cancel when
strategies are compared.

Besides each rotation's counts, a batch keeps per-deal sums (constant memory, kept exactly
as integers, see :func:`paired_scale`) from which the paired statistics are computed: each
strategy's win share over the rotations of a deal (a game won by k tied winners gives each
1/k, as everywhere a share is compared), and the differences between strategies on the
same deals. The variance reduction is
measured from those sums against the same strategy in unrotated play (rotation 0 only, at
the same number of games), not assumed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from zooanalysis.games.base import BatchJob, BatchResult
from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.outcome import share_unit, win_share_units
from zooanalysis.stats import moments, normal_sf
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


def paired_scale(label_of_player: Sequence[int]) -> int:
    """The common denominator of the paired per-deal sums: ``players x lcm(1 .. players) x
    lcm(seats of each label)``.

    A win share is a whole number of ``1 / lcm(1 .. players)`` (``1/k`` for ``k`` tied
    winners, see ``outcome.share_unit``); a label's share of a deal averages it over the
    rotations and its seats (``/ (players x seats)``), its single-rotation share over its
    seats, a seat's share over the rotations. All are whole numbers of ``1 / scale``, so
    the sums are kept exactly, as integers. Up to 6 players the scale is at most 2,160:
    a share (at most 1) squared is at most 4.7e6 units, so int64 holds the sums of squares
    of 1e12 deals.
    """
    seats = np.bincount(np.asarray(label_of_player, dtype=np.int64))
    players = len(label_of_player)
    return players * share_unit(players) * math.lcm(*(int(k) for k in seats if k > 0))


def labels_of_players(lineup: Sequence[PlayerSpec]) -> tuple[int, ...]:
    """Index (in :func:`distinct_labels`) of each lineup player's strategy label."""
    labels = distinct_labels(lineup)
    return tuple(labels.index(player.label) for player in lineup)


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class RotatedBatch:
    """Plays one batch in every rotation (same seed) and keeps paired per-deal sums.

    The paired sums are integers in units of ``1 / paired_scale(label_of_player)`` (their
    squares in ``1 / scale**2``): sums of integers do not depend on how a batch is cut into
    chunks, so a run gives bit for bit the same tables however it was played.
    """

    jobs: tuple[BatchJob, ...]
    """One batch job per rotation, each asked for per-game rows."""
    row_wins: Callable[[BatchResult], np.ndarray]
    """The game's (games x seats) win flags from a batch's rows."""
    label_of_player: tuple[int, ...]
    """Index (in ``distinct_labels``) of each lineup player's strategy label."""
    keep_rows: bool = False
    """Also return every rotation's per-game rows with ``row_rotation``, deal by deal: row
    ``i * players + r`` is game ``first_game + i`` in rotation ``r`` (rotation ``r`` seats
    lineup player ``p`` in seat ``(p - r) mod n``)."""

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Every rotation's counts (keys ``rotation<r>/...``) plus the paired sums, for games
        ``first_game .. first_game + n_games - 1`` of the batch seeded ``batch_seed`` (every
        rotation plays the same deals)."""
        players = len(self.jobs)
        labels = max(self.label_of_player) + 1
        scale = paired_scale(self.label_of_player)
        seats_of_label = np.bincount(self.label_of_player, minlength=labels)
        unit = share_unit(players)  # a win share is a whole number of 1 / unit
        spread = scale // (players * unit)  # = lcm(seats of each label)
        # per deal, in units of 1 / scale: each label's win share over the rotations and in
        # rotation 0 only, and each seat's over the rotations
        share = np.zeros((n_games, labels), dtype=np.int64)
        single = np.zeros((n_games, labels), dtype=np.int64)
        seat_share = np.zeros((n_games, players), dtype=np.int64)
        result: BatchResult = {}
        rows: dict[str, list[np.ndarray]] = {}
        for rotation, job in enumerate(self.jobs):
            batch = job(batch_seed, n_games, first_game=first_game)
            wins = win_share_units(self.row_wins(batch))  # in units of 1 / unit
            seat_share += wins * spread
            for player in range(players):
                seat = (player - rotation) % players
                label = self.label_of_player[player]
                seats = seats_of_label[label]
                share[:, label] += wins[:, seat] * (scale // (unit * players * seats))
                if rotation == 0:
                    single[:, label] += wins[:, seat] * (scale // (unit * seats))
            for key, value in batch.items():
                if not key.startswith("row_"):
                    result[f"{PREFIX}{rotation}/{key}"] = value
                elif self.keep_rows:
                    rows.setdefault(key, []).append(value)
        if self.keep_rows:
            for key, parts in rows.items():  # deal by deal: each deal's rotations together
                stacked = np.stack(parts, axis=1)
                result[key] = stacked.reshape(n_games * players, *stacked.shape[2:])
            result["row_rotation"] = np.tile(np.arange(players, dtype=np.int8), n_games)
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


def _moments(totals: BatchResult, name: str, index, deals: float, scale: int):
    """Mean and variance per deal of one paired sum (kept in units of ``1 / scale``)."""
    return moments(
        totals[f"paired/{name}_sum"][index] / scale,
        totals[f"paired/{name}_squares"][index] / scale**2,
        deals,
    )


def strategy_table(totals: BatchResult, labels: Sequence[str], scale: int) -> pd.DataFrame:
    """Each strategy's seat-averaged win share with a 95% interval, and the measured
    variance reduction against unrotated play at the same number of games (``scale``: the
    run's :func:`paired_scale`).

    ``variance_reduction`` is the variance of the unrotated estimate (one seat, n times the
    deals) divided by the variance of the rotated one: above 1 means rotation helped.
    """
    deals = float(totals["paired/deals"][0])
    rotations = rotation_count(totals)
    rows = []
    for index, label in enumerate(labels):
        mean, variance = _moments(totals, "share", index, deals, scale)
        _, single_variance = _moments(totals, "single", index, deals, scale)
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


def seat_table(totals: BatchResult, scale: int) -> pd.DataFrame:
    """Each seat's win share over the rotations, with a 95% interval from the per-deal
    means (the seatings of a deal share its cards, so they are not independent games):
    columns ``seat`` (from 0, as in the ``seats`` table), ``win_share``, ``ci_low``,
    ``ci_high``, ``variance_per_deal``, ``deals`` (``scale``: the run's
    :func:`paired_scale`). Empty for runs made before it was kept."""
    if "paired/seat_share_sum" not in totals:
        return pd.DataFrame(
            columns=["seat", "win_share", "ci_low", "ci_high", "variance_per_deal", "deals"]
        )
    deals = float(totals["paired/deals"][0])
    rows = []
    for seat in range(len(totals["paired/seat_share_sum"])):
        mean, variance = _moments(totals, "seat_share", seat, deals, scale)
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


def pair_table(totals: BatchResult, labels: Sequence[str], scale: int) -> pd.DataFrame:
    """Every pair of strategies compared on the same deals: the difference of their win
    shares with a paired 95% interval and p-value, next to the interval that unrotated
    play of as many games would give (its per-game variance measured on rotation 0;
    ``scale``: the run's :func:`paired_scale`)."""
    deals = float(totals["paired/deals"][0])
    rotations = rotation_count(totals)
    rows = []
    for a, first in enumerate(labels):
        for b, second in enumerate(labels):
            if b <= a:
                continue
            mean, variance = _moments(totals, "difference", (a, b), deals, scale)
            half = Z_95 * np.sqrt(variance / deals)
            # unrotated play of as many games: the variance of the difference within one
            # game (the two strategies' results in the same game) is measured on rotation 0
            single_variance = _moments(totals, "single_difference", (a, b), deals, scale)[1]
            unrotated_half = Z_95 * np.sqrt(single_variance / (rotations * deals))
            if variance > 0:
                z = mean / np.sqrt(variance / deals)
            else:  # a difference that never varies: certain unless it is exactly 0
                z = 0.0 if mean == 0 else np.inf * np.sign(mean)
            rows.append(
                {
                    "strategy": first,
                    "versus": second,
                    "difference": mean,
                    "ci_low": mean - half,
                    "ci_high": mean + half,
                    "p_value": 2 * normal_sf(abs(z)),
                    "unrotated_ci_half_width": unrotated_half,
                    "paired_ci_half_width": half,
                    "deals": int(deals),
                }
            )
    return pd.DataFrame(rows)
