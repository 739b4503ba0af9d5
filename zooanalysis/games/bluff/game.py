"""Bluff in Zoo as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.errors import UserError
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.bluff import odds
from zooanalysis.games.bluff.batch import BluffBatch, make_batch
from zooanalysis.games.bluff.cards import KINDS
from zooanalysis.games.bluff.counts import (
    MOVE_BINS,
    POINT_BINS,
    ROUND_BINS,
    claimant_seat,
    move_counts,
)
from zooanalysis.games.bluff.engine import END_REASONS
from zooanalysis.games.bluff.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    BluffSettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.bluff.strategies import MOVE_NAMES, STRATEGIES
from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.strategy_spec import PlayerSpec, StrategyInfo
from zooanalysis.trajectory import lead_changes_table, settled_table

CLAIM_MOVES = MOVE_NAMES[1:]
"""How a claimant placed its card: from its hand, from the draw pile, or no card."""


class BluffGame(Game):
    """Bluff in Zoo (Zoch, 2013): bluff about the animals on a face-down pile, or doubt."""

    name = "bluff"
    title = "Bluff in Zoo"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "cautious:trust=0.75,margin=6.25*4"
    histogram_tops = MappingProxyType(
        {"rounds": ROUND_BINS - 1, "moves": MOVE_BINS - 1, "points": POINT_BINS - 1}
    )

    def settings_from_table(self, table: Mapping[str, Any]) -> BluffSettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: BluffSettings) -> None:
        """Reject settings no game can be played with (e.g. too few cards to deal)."""
        validate(settings)

    def settings_dict(self, settings: BluffSettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    unmodelled_by_search = frozenset({"stakes"})  # the forward model keeps no claim evidence

    def lineup_strategies(self) -> Mapping[str, StrategyInfo]:
        """The built-in strategies and ``search`` (the forward model's search player)."""
        from zooanalysis.games.bluff.search import SEARCH, SEARCH_INFO

        return {**STRATEGIES, SEARCH: SEARCH_INFO}

    def batch_job(
        self, settings: BluffSettings, lineup: list[PlayerSpec], with_rows: bool
    ) -> BluffBatch:
        """The kernel batch for these settings and players; with a ``search`` seat, the
        reference engine's batch (``search.SearchBatch``), counted the same way."""
        if any(player.strategy == "search" for player in lineup):
            from zooanalysis.games.bluff.search import SearchBatch

            return SearchBatch(settings, tuple(lineup), with_rows)
        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: BluffSettings, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, histograms, end reasons, moves, doubts and claims."""
        return result_tables(totals, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """Fewer penalty points finish ahead: the standing is minus the points."""
        return -result["row_scores"].astype(np.int64)

    def odds_table(self, settings: BluffSettings, sizes: list[int]) -> pd.DataFrame:
        """P(a random pile of each size holds at least N of the claimed kind), exactly."""
        too_big = [size for size in sizes if size > settings.deck.size]
        if too_big:
            raise UserError(
                f"--pile: {too_big[0]} is more than the deck's {settings.deck.size} cards"
            )
        return odds.at_least_table(settings.deck, sizes)

    def report_sections(self, run) -> list:
        """Doubt odds, exact odds, bluffing, penalty points and endings for the report."""
        from zooanalysis.games.bluff.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`BluffRun`."""
        from zooanalysis.games.bluff.analysis import BluffRun

        return BluffRun


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the kernel's summed count arrays into long, self-describing DataFrames.

    Bins at the top of a histogram or table axis hold "that many or more" (claimed counts
    30+, pile sizes 40+, points 127+, rounds 255+, moves 1023+, lead changes 63+). The
    ``lead_changes`` and ``settled`` tables follow ``zooanalysis.trajectory``; the
    ``unit_moments`` table (:func:`moment_table`) gives the clustered intervals of the
    doubt success and bluff rates.
    """
    seats = seat_table(totals, labels)
    moves = move_counts(totals)
    for move, name in enumerate(MOVE_NAMES):
        seats[f"moves_{name}"] = moves[:, move]
    doubts = _outcome_cells(
        totals["doubts"],
        ["claimed_count", "kind", "pile_size", "claimant_move", "doubter_seat"],
        ["doubt_succeeded", "doubt_failed"],
    )
    doubts.insert(
        doubts.columns.get_loc("doubter_seat") + 1,
        "claimant_seat",
        claimant_seat(doubts["doubter_seat"], len(labels)),
    )
    claims = _outcome_cells(
        totals["claims"],
        ["seat", "claimed_count", "kind", "pile_size", "move"],
        ["false_claims", "true_claims"],
    )
    for table in (doubts, claims):
        table["kind"] = pd.Categorical.from_codes(table["kind"], KINDS)
    doubts["claimant_move"] = pd.Categorical.from_codes(doubts["claimant_move"], CLAIM_MOVES)
    claims["move"] = pd.Categorical.from_codes(claims["move"], CLAIM_MOVES)
    points = nonzero_cells(totals["points_hist"], ["seat", "points"]).rename(
        columns={"count": "games"}
    )
    return {
        "seats": seats,
        "points": points,
        "rounds": histogram(totals["rounds_hist"], "rounds"),
        "moves": histogram(totals["moves_hist"], "moves"),
        "end_reasons": pd.DataFrame({"reason": list(END_REASONS), "games": totals["end_reasons"]}),
        "lead_changes": lead_changes_table(totals["lead_changes_hist"]),
        "settled": settled_table(totals["settled_hist"]),
        "doubts": doubts,
        "claims": claims,
        "unit_moments": moment_table(totals),
        **outcome_tables(totals),
    }


def moment_table(totals: BatchResult) -> pd.DataFrame:
    """The per-game moments of claims and doubts by seat pair, for the clustered intervals
    (``stats.clustered_rate``; the claims and doubts of one game share its players, hands and
    piles, so they are not independent).

    One row per ``unit`` (``claims``: successes are false claims; ``doubts``: successful
    doubts), ``seat`` a and ``other_seat`` b (from 0): ``success_products`` sums x_a x_b,
    ``unit_products`` n_a n_b and ``cross_products`` x_a n_b over the games, x_s and n_s being
    seat s's successes and units in one game. Summed over the pairs of a group of seats they
    give the sums of squares of the group's per-game counts."""
    parts = []
    for unit, key in (("claims", "claim_moments"), ("doubts", "doubt_moments")):
        moments = totals[key]
        seat, other = np.indices(moments.shape[:2])
        parts.append(
            pd.DataFrame(
                {
                    "unit": unit,
                    "seat": seat.ravel().astype(np.int64),
                    "other_seat": other.ravel().astype(np.int64),
                    "success_products": moments[:, :, 0].ravel(),
                    "unit_products": moments[:, :, 1].ravel(),
                    "cross_products": moments[:, :, 2].ravel(),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _outcome_cells(counts: np.ndarray, names: list[str], outcomes: list[str]) -> pd.DataFrame:
    """One row per cell of ``counts`` but its last axis (a 0/1 outcome) that counted any
    game, in index order: its index along each axis (``names``) and the counts of outcome
    0 and 1 (columns ``outcomes``). Straight from the array: a pivot of the non-zero cells
    gave the same table at several times the cost (at the end of every run)."""
    cells = np.nonzero(counts.any(axis=-1))
    table = pd.DataFrame(
        {name: axis.astype(np.int64) for name, axis in zip(names, cells, strict=True)}
    )
    for outcome, name in enumerate(outcomes):
        table[name] = counts[(*cells, outcome)].astype(np.int64)
    return table


GAME = BluffGame()
