"""What a Big Two batch counts: the count arrays both engines fill, and the reference tally.

Counts only (constant memory for any number of games); histogram bins at the top hold "that
many or more". The kernel fills these arrays in place; :func:`tally` adds one reference
:class:`~zooanalysis.games.big_two.engine.GameRecord` the same way.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.big_two.engine import GameRecord
from zooanalysis.games.big_two.rules import MAX_CARDS_PER_PLAYER, N_KINDS
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
)

CARDS_BINS = MAX_CARDS_PER_PLAYER + 2
"""Cards left at a round's end: 0-27 (27 is one more than any hand, the extra card)."""
TURN_BINS = 512
"""Decisions per round 0-511; 511 holds 511 or more."""
TRICK_BINS = 128
"""Tricks per round 0-127; 127 holds 127 or more."""
ROUND_BINS = 256
"""Rounds per game 0-255 (matches); 255 holds 255 or more."""
PENALTY_BINS = 1024
"""Penalty points per game 0-1023; 1023 holds 1023 or more."""


def new_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch of ``players``-player games (summed across batches)."""
    n = players
    return {
        "games": np.zeros(1, dtype=np.int64),
        "rounds": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(n, dtype=np.int64),
        "sole_wins": np.zeros(n, dtype=np.int64),
        # per seat: penalty points per game (sum, squares, histogram)
        "penalty_sum": np.zeros(n, dtype=np.int64),
        "penalty_squares": np.zeros(n, dtype=np.int64),
        "penalty_hist": np.zeros((n, PENALTY_BINS), dtype=np.int64),
        # per seat, over rounds: cards left at the round's end, and places (0 = best;
        # tied seats share the better place)
        "cards_left": np.zeros((n, CARDS_BINS), dtype=np.int64),
        "places": np.zeros((n, n), dtype=np.int64),
        # the first trick's leader: rounds it opened and rounds it went out first, by seat;
        # first-out rounds by position clockwise from the opener (0 = the opener)
        "opener_rounds": np.zeros(n, dtype=np.int64),
        "opener_firsts": np.zeros(n, dtype=np.int64),
        "position_firsts": np.zeros(n, dtype=np.int64),
        "position_cards": np.zeros(n, dtype=np.int64),
        # per seat: decisions by kind (kind 0 = pass; rules.KIND_NAMES); plays that led a
        # trick by kind
        "plays": np.zeros((n, N_KINDS), dtype=np.int64),
        "leads": np.zeros(N_KINDS, dtype=np.int64),
        # over games g, all seats together: sums of x_g^2 and x_g n_g for x_g = the game's
        # decisions of each kind, and of n_g^2 for n_g = its decisions (for the clustered
        # intervals of the decisions-by-kind shares: stats.clustered_rate)
        "kind_squares": np.zeros(N_KINDS, dtype=np.int64),
        "kind_cross": np.zeros(N_KINDS, dtype=np.int64),
        "decision_squares": np.zeros(1, dtype=np.int64),
        "turns_hist": np.zeros(TURN_BINS, dtype=np.int64),
        "tricks_hist": np.zeros(TRICK_BINS, dtype=np.int64),
        "rounds_hist": np.zeros(ROUND_BINS, dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        **new_outcome_totals(n),
        # legal options of every decision, real decisions per game: zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game: each seat's outcome points (fewest win) and penalty
    points, and the rounds played."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int32),
        "row_penalty": np.zeros((games, players), dtype=np.int32),
        "row_rounds": np.zeros(games, dtype=np.int32),
    }


TOTAL_KEYS = tuple(new_totals(2))
ROW_KEYS = tuple(new_rows(0, 2))


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    players = len(record.points)
    totals["games"][0] += 1
    for played in record.rounds:
        totals["rounds"][0] += 1
        places = played.places()
        first = played.out_order[0]
        totals["opener_rounds"][played.opener] += 1
        if first == played.opener:
            totals["opener_firsts"][played.opener] += 1
        totals["position_firsts"][(first - played.opener) % players] += 1
        for seat in range(players):
            cards = played.cards_left[seat]
            totals["cards_left"][seat, min(cards, CARDS_BINS - 1)] += 1
            totals["places"][seat, places[seat]] += 1
            totals["position_cards"][(seat - played.opener) % players] += cards
            totals["plays"][seat] += played.plays[seat]
        totals["leads"] += played.leads
        totals["turns_hist"][min(played.turns, TURN_BINS - 1)] += 1
        totals["tricks_hist"][min(played.tricks, TRICK_BINS - 1)] += 1
    totals["rounds_hist"][min(len(record.rounds), ROUND_BINS - 1)] += 1
    game_kinds = np.zeros(N_KINDS, dtype=np.int64)
    for played in record.rounds:
        game_kinds += np.asarray(played.plays, dtype=np.int64).sum(axis=0)
    count_kind_squares(game_kinds, totals)
    tally_decisions([options for played in record.rounds for options in played.decisions],
                    totals)  # fmt: skip
    best = min(record.points)
    n_best = record.points.count(best)
    for seat in range(players):
        if record.points[seat] == best:
            totals["wins"][seat] += 1
            if n_best == 1:
                totals["sole_wins"][seat] += 1
        value = record.penalties[seat]
        totals["penalty_sum"][seat] += value
        totals["penalty_squares"][seat] += value * value
        totals["penalty_hist"][seat, min(value, PENALTY_BINS - 1)] += 1
    count_outcome(record.points, totals, fewest_win=True)
    moves = [move for move, _ in record.checks]
    leaders = [leader for _, leader in record.checks]
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if n_best == 1 and record.moves > 0:
        start = settled_move(moves, leaders, record.winners[0])
        totals["settled_hist"][settled_bin(start, record.moves)] += 1


def count_kind_squares(kinds: np.ndarray, totals: dict[str, np.ndarray]) -> None:
    """Add one game's decisions by kind (all seats) into the per-game sums of squares."""
    decisions = int(kinds.sum())
    for kind in range(N_KINDS):
        totals["kind_squares"][kind] += int(kinds[kind]) ** 2
        totals["kind_cross"][kind] += int(kinds[kind]) * decisions
    totals["decision_squares"][0] += decisions * decisions
