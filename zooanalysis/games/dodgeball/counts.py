"""What a Hodge Podge Dodgeball batch counts: the arrays both engines fill, and the tally.

Counts only (constant memory for any number of games); the top bin of a histogram holds
"that many or more". A game is a whole match. Seats are the four places at the table in
play order (in the 2-player game seats 2 and 3 are the dummies); per-player arrays
(``wins`` ...) have one entry per player. :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.dodgeball.engine.GameRecord` exactly as the kernel counts a game.
"""

from __future__ import annotations

import numpy as np

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.dodgeball.engine import GameRecord
from zooanalysis.games.dodgeball.rules import SEATS, TEAMS, team_of
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)

ROUND_BINS = 20
"""Rounds per match 0-19 (19: 19 or more); also the round index in ``round_starts``."""
TRICK_BINS = 32
"""Tricks per round or per match 0-31 (31: 31 or more)."""
EVENT_BINS = 24
"""Hits, blocks or catches in a round 0-23 (23: 23 or more)."""
USE_BINS = 4
"""Timeouts called (0-3) or All-Stars played (0-3) by a team in a round."""

SEAT_EVENTS = (
    "hit", "blocked", "caught_ball", "was_caught", "could_not_play", "timeouts_called",
    "timeout_exchanges", "setup_exchanges", "allstars_played",
)
"""Per-seat event counts: was hit, blocked for its partner, caught an opponent's ball, was
caught, could not play, called a timeout, exchanged in a timeout, exchanged with its dummy at
setup (2 players), played an All-Star."""
(EV_HIT, EV_BLOCK, EV_CATCH, EV_CAUGHT, EV_CANNOT, EV_CALL, EV_EXCHANGE, EV_SETUP,
 EV_ALLSTAR) = range(len(SEAT_EVENTS))


def new_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch (summed across batches)."""
    return {
        "games": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(players, dtype=np.int64),
        "sole_wins": np.zeros(players, dtype=np.int64),
        "points_sum": np.zeros(players, dtype=np.int64),
        "points_squares": np.zeros(players, dtype=np.int64),
        "team_wins": np.zeros(TEAMS, dtype=np.int64),
        "rounds_hist": np.zeros(ROUND_BINS, dtype=np.int64),
        "match_tricks_hist": np.zeros(4 * TRICK_BINS, dtype=np.int64),
        # round level: which seat could not play, why, at which trick position, after how
        # many completed tricks
        "round_ends": np.zeros((SEATS, 2, SEATS, TRICK_BINS), dtype=np.int64),
        "hits_hist": np.zeros(EVENT_BINS, dtype=np.int64),
        "blocks_hist": np.zeros(EVENT_BINS, dtype=np.int64),
        "catches_hist": np.zeros(EVENT_BINS, dtype=np.int64),
        "seat_events": np.zeros((SEATS, len(SEAT_EVENTS)), dtype=np.int64),
        # team, timeouts it called this round, won the round (0/1)
        "timeout_rounds": np.zeros((TEAMS, USE_BINS, 2), dtype=np.int64),
        # team, All-Stars it played this round, won the round (0/1)
        "allstar_rounds": np.zeros((TEAMS, USE_BINS, 2), dtype=np.int64),
        # round index in the match, start seat, winning team
        "round_starts": np.zeros((ROUND_BINS, SEATS, TEAMS), dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_CHANGE_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        # win_ties (seat, tied winners: the partners share a team's win) and winning margins
        # in rounds: zooanalysis.outcome
        **new_outcome_totals(players),
        # legal options of every decision, real decisions per match: zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game: each player's team's round wins, the match's rounds and
    tricks, the winning team."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int16),
        "row_rounds": np.zeros(games, dtype=np.int16),
        "row_tricks": np.zeros(games, dtype=np.int16),
        "row_winner": np.zeros(games, dtype=np.int8),
    }


def tally(record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one match into kernel-shaped count arrays."""
    totals["games"][0] += 1
    players = totals["wins"].shape[0]
    for seat in range(players):
        points = record.points[team_of(seat)]
        if team_of(seat) == record.winner_team:
            totals["wins"][seat] += 1
            if players == 2:  # with 4 players the partners share the win
                totals["sole_wins"][seat] += 1
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
    totals["team_wins"][record.winner_team] += 1
    count_outcome(record.seat_points, totals, fewest_win=False)
    tally_decisions(record.decisions, totals)
    totals["rounds_hist"][min(len(record.rounds), ROUND_BINS - 1)] += 1
    tricks = sum(result.tricks for result in record.rounds)
    totals["match_tricks_hist"][min(tricks, 4 * TRICK_BINS - 1)] += 1
    standings = [0, 0]
    leaders = []
    for index, result in enumerate(record.rounds):
        tally_round(result, index, totals)
        standings[result.winner_team] += 1
        leaders.append(sole_leader(standings))
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    start = settled_move(list(range(len(leaders))), leaders, record.winner_team)
    totals["settled_hist"][settled_bin(start, len(record.rounds))] += 1


def tally_round(result, index: int, totals: dict[str, np.ndarray]) -> None:
    """Add one round (a :class:`~zooanalysis.games.dodgeball.engine.RoundResult`, the
    ``index``-th of its match)."""
    winner = result.winner_team
    totals["round_ends"][
        result.loser_seat, result.reason, result.position, min(result.tricks, TRICK_BINS - 1)
    ] += 1
    outcomes = result.outcomes
    for name, kind in (("hits_hist", 0), ("blocks_hist", 1), ("catches_hist", 2)):
        totals[name][min(outcomes.count(kind), EVENT_BINS - 1)] += 1
    events = totals["seat_events"]
    for seat in result.hit_seats:
        events[seat, EV_HIT] += 1
    for seat in result.blockers:
        events[seat, EV_BLOCK] += 1
    for catcher, caught in result.catches:
        events[catcher, EV_CATCH] += 1
        events[caught, EV_CAUGHT] += 1
    events[result.loser_seat, EV_CANNOT] += 1
    for seat in result.timeout_callers:
        events[seat, EV_CALL] += 1
    for seat in result.exchanges:
        events[seat, EV_EXCHANGE] += 1
    for seat in result.allstar_seats:
        events[seat, EV_ALLSTAR] += 1
    for seat in result.setup_exchanges:
        events[seat, EV_SETUP] += 1
    used = result.timeouts_used
    for team in range(TEAMS):
        won = int(team == winner)
        totals["timeout_rounds"][team, min(used[team], USE_BINS - 1), won] += 1
        totals["allstar_rounds"][team, min(result.allstars_played[team], USE_BINS - 1), won] += 1
    totals["round_starts"][min(index, ROUND_BINS - 1), result.start_seat, winner] += 1
