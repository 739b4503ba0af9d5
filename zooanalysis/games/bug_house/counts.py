"""What a Bug House Millionaire batch counts: the arrays both engines fill, and the tally.

Counts only (constant memory for any number of games); the top bin of a histogram holds
"that many or more". One game is one deal played until a player sheds out or a clock runs
out. The kernel fills these arrays in place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.bug_house.engine.GameRecord` the same way, so the two engines'
totals can be compared array by array.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.bug_house.engine import (
    END_REASONS,
    F_GIFTS_NEEDED,
    F_GIVEN,
    F_SINGLES_CARD,
    SEAT_FIELDS,
    GameRecord,
)
from zooanalysis.games.bug_house.rules import SEATS, TEAMS, team_of
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
)

TIME_BINS = 1200
"""Game length in whole seconds 0-1199 (1199: 1199 s or more)."""
TRICK_BINS = 256
"""Tricks finished per game, both duels together, 0-255 (255: 255 or more)."""
CARD_BINS = 65
"""Cards left in a hand at the end, 0-64."""


def new_totals(players: int = SEATS) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch (summed across batches)."""
    n = players
    return {
        "games": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(n, dtype=np.int64),
        "sole_wins": np.zeros(n, dtype=np.int64),
        "points_sum": np.zeros(n, dtype=np.int64),
        "points_squares": np.zeros(n, dtype=np.int64),
        "team_wins": np.zeros(TEAMS, dtype=np.int64),
        # the seat that shed out or whose clock ran out, by reason (engine.END_REASONS)
        "ends": np.zeros((n, len(END_REASONS)), dtype=np.int64),
        # game length in whole seconds, by how the game ended
        "end_seconds": np.zeros((len(END_REASONS), TIME_BINS), dtype=np.int64),
        "tricks_hist": np.zeros(TRICK_BINS, dtype=np.int64),
        # per seat: engine.SEAT_FIELDS summed over games
        "seat_counts": np.zeros((n, len(SEAT_FIELDS)), dtype=np.int64),
        # over games g, per seat (index n: all seats together): the sums of x_g^2, x_g n_g
        # and n_g^2 for x_g = the game's gifts the partner needed and n_g = its cards given,
        # for the clustered interval of the gifts-needed share (stats.clustered_rate)
        "gift_squares": np.zeros(n + 1, dtype=np.int64),
        "gift_cross": np.zeros(n + 1, dtype=np.int64),
        "given_squares": np.zeros(n + 1, dtype=np.int64),
        # per seat: games by cards left in its hand at the end
        "cards_left": np.zeros((n, CARD_BINS), dtype=np.int64),
        # Delayed Singles: team, took its Singles Allowed card (0/1), won (0/1)
        "singles_card": np.zeros((TEAMS, 2, 2), dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        # win_ties (seat, tied winners: the partners share their team's win) and margins
        **new_outcome_totals(n),
        # legal options of every decision, real decisions per game: zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int = SEATS) -> dict[str, np.ndarray]:
    """Arrays for one row per game: each seat's result (1 won, 0 lost), when and how the
    game ended, by whom, and the tricks finished."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int8),
        "row_end_ms": np.zeros(games, dtype=np.int32),
        "row_reason": np.zeros(games, dtype=np.int8),
        "row_ender": np.zeros(games, dtype=np.int8),
        "row_tricks": np.zeros(games, dtype=np.int16),
    }


def tally_outcome(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """The end of a game: the winning team's two seats both win (two tied winners, so no
    sole wins); a seat's points are 1 for a win. Also the shared outcome counts."""
    points = record.points
    for seat in range(SEATS):
        totals["wins"][seat] += points[seat]
        totals["points_sum"][seat] += points[seat]
        totals["points_squares"][seat] += points[seat] * points[seat]
    totals["team_wins"][record.winner_team] += 1
    count_outcome(points, totals, fewest_win=False)


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    totals["games"][0] += 1
    tally_outcome(record, totals)
    totals["ends"][record.ender, record.reason] += 1
    totals["end_seconds"][record.reason, min(record.end_ms // 1000, TIME_BINS - 1)] += 1
    totals["tricks_hist"][min(record.tricks, TRICK_BINS - 1)] += 1
    totals["seat_counts"] += np.array(record.seat_counts, dtype=np.int64)
    needed = [counts[F_GIFTS_NEEDED] for counts in record.seat_counts]
    given = [counts[F_GIVEN] for counts in record.seat_counts]
    for index, (x, n) in enumerate([*zip(needed, given, strict=True), (sum(needed), sum(given))]):
        totals["gift_squares"][index] += x * x
        totals["gift_cross"][index] += x * n
        totals["given_squares"][index] += n * n
    for seat in range(SEATS):
        totals["cards_left"][seat, min(record.cards_left[seat], CARD_BINS - 1)] += 1
    for team in range(TEAMS):
        seats = [s for s in range(SEATS) if team_of(s) == team]
        taken = int(any(record.seat_counts[s][F_SINGLES_CARD] for s in seats))
        totals["singles_card"][team, taken, int(team == record.winner_team)] += 1
    tally_decisions(record.decisions, totals)
    leaders = record.leaders
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if record.tricks > 0:
        start = settled_move(list(range(len(leaders))), leaders, record.winner_team)
        totals["settled_hist"][settled_bin(start, record.tricks)] += 1
