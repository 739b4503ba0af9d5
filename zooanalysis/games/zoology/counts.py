"""What a Zoology batch counts: the count arrays both engines fill, and the reference tally.

Counts only (constant memory for any number of games); histogram bins at the top hold "that
many or more". The kernel fills these arrays in place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.zoology.engine.GameRecord` the same way, so the two engines' totals
can be compared array by array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.decisions import new_decision_totals, tally_decisions
from zooanalysis.games.zoology.engine import END_COOPERATIVE, GameRecord
from zooanalysis.outcome import count_outcome, count_team_outcome, new_outcome_totals

ROUND_BINS = 128
"""Rounds per game 0-127; 127 holds 127 or more."""
TURN_BINS = 1024
LEAD_BINS = 64
"""Lead changes per game 0-63; 63 holds 63 or more."""
SETTLED_BINS = 20
INFORMATION_SCALE = 2.0**24
"""``question_information`` is summed in fixed point: units of 2^-24 nats, as int64.

An integer sum does not depend on the order of the additions, so a batch played in chunks
(or on any number of workers) gives bit for bit the same total as one call. Each play
rounds to the nearest unit (at most 3e-8 nats off). Headroom: a play tells at most
ln(animals) nats (3.7 for the 40 animals; under 5 for up to 148), at most 8.4e7 units, and
a card is played about once a game (measured: at most 1.2), so 1e9 games stay near 1e17,
far below int64's 9.2e18 (50 plays of one card per game would still fit).
"""


@njit(cache=True, nogil=True)
def information_units(nats: float) -> int:
    """One play's expected information in fixed-point units (``INFORMATION_SCALE``), the
    same rounding on both engines: the scale is a power of two, so only the +0.5 rounds."""
    return np.int64(np.floor(nats * INFORMATION_SCALE + 0.5))


def new_totals(seats: int, n_animals: int, n_questions: int, n_cells: int = 1) -> dict:
    """Zeroed count arrays for a batch (summed across batches)."""
    n = seats
    return {
        "games": np.zeros(1, dtype=np.int64),
        "wins": np.zeros(n, dtype=np.int64),
        "sole_wins": np.zeros(n, dtype=np.int64),
        "points_sum": np.zeros(n, dtype=np.int64),
        "points_squares": np.zeros(n, dtype=np.int64),
        # per seat: points from free guesses, from second chance
        "points_from": np.zeros((n, 2), dtype=np.int64),
        # per seat and phase (free, second chance / cooperative): guesses, right guesses
        "guesses": np.zeros((n, 2), dtype=np.int64),
        "right_guesses": np.zeros((n, 2), dtype=np.int64),
        # the same for each player's first guess of a round
        "first_guesses": np.zeros((n, 2), dtype=np.int64),
        "first_right": np.zeros((n, 2), dtype=np.int64),
        "rounds_hist": np.zeros(ROUND_BINS, dtype=np.int64),
        "turns_hist": np.zeros(TURN_BINS, dtype=np.int64),
        "end_reasons": np.zeros(3, dtype=np.int64),
        "triggers": np.zeros(2, dtype=np.int64),
        "lead_changes_hist": np.zeros(LEAD_BINS, dtype=np.int64),
        "settled_hist": np.zeros(SETTLED_BINS, dtype=np.int64),
        "question_plays": np.zeros(n_questions, dtype=np.int64),
        "question_no_champion": np.zeros(n_questions, dtype=np.int64),
        # expected information of each card's plays, in units of 2^-24 nats (int64)
        "question_information": np.zeros(n_questions, dtype=np.int64),
        # per animal held by a player for a round: held, guessed at all, found, wrong
        # guesses, first guess right
        "animal_held": np.zeros(n_animals, dtype=np.int64),
        "animal_guessed": np.zeros(n_animals, dtype=np.int64),
        "animal_found": np.zeros(n_animals, dtype=np.int64),
        "animal_wrong": np.zeros(n_animals, dtype=np.int64),
        "animal_first_right": np.zeros(n_animals, dtype=np.int64),
        # wrong guesses: (true animal, guessed animal)
        "confusions": np.zeros((n_animals, n_animals), dtype=np.int64),
        "coop_games": np.zeros(n_cells, dtype=np.int64),
        "coop_success": np.zeros(n_cells, dtype=np.int64),
        # free-guess windows with a right guess, by how many right guesses scored in them
        # (more than one only when guessers were simultaneous)
        "window_right": np.zeros(n + 1, dtype=np.int64),
        # win_ties (seat, tied winners) and winning margins: zooanalysis.outcome (the
        # cooperative game: the whole table wins together, or nobody)
        **new_outcome_totals(n),
        # legal options of every decision, real decisions per game: zooanalysis.decisions
        **new_decision_totals(),
    }


def new_rows(games: int, seats: int) -> dict:
    """Arrays for one row per game: points, rounds, turns, ``success`` (cooperative: 1
    if every player found their animal, else 0; -1 in the competitive game) and
    ``standing`` (where each seat finished, ``engine.standings``: the points, capped at
    ``points_to_win`` when everyone who reached it shares the win)."""
    return {
        "row_points": np.zeros((games, seats), dtype=np.int32),
        "row_rounds": np.zeros(games, dtype=np.int32),
        "row_turns": np.zeros(games, dtype=np.int32),
        "row_success": np.zeros(games, dtype=np.int8),
        "row_standing": np.zeros((games, seats), dtype=np.int32),
    }


TOTAL_KEYS = tuple(new_totals(1, 1, 1))
ROW_KEYS = tuple(new_rows(0, 1))


def tally(record: GameRecord, totals: dict[str, np.ndarray], cell: int = 0) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    totals["games"][0] += 1
    totals["end_reasons"][record.end_reason] += 1
    totals["rounds_hist"][min(record.rounds, ROUND_BINS - 1)] += 1
    totals["turns_hist"][min(record.turns, TURN_BINS - 1)] += 1
    tally_decisions(record.decisions, totals)
    cooperative = record.end_reason == END_COOPERATIVE
    leaders = record.winners
    for seat, points in enumerate(record.points):
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
        totals["points_from"][seat] += record.points_from[seat]
        if cooperative:
            totals["wins"][seat] += int(record.success)
        elif seat in leaders:
            totals["wins"][seat] += 1
            totals["sole_wins"][seat] += int(len(leaders) == 1)
    if cooperative:
        count_team_outcome(len(record.points), record.success, totals)
        totals["coop_games"][cell] += 1
        totals["coop_success"][cell] += int(record.success)
    else:
        count_outcome(record.standing, totals)  # as winners are read (engine.standings)
        totals["lead_changes_hist"][min(record.lead_changes, LEAD_BINS - 1)] += 1
        if len(leaders) == 1 and record.turns > 0:
            # the last change without the winner as sole leader came with ``last`` turns
            # played, i.e. at turn index last - 1: it leads at every change from index last
            settled = max(record.last_not_leading[leaders[0]], 0)
            totals["settled_hist"][
                min(SETTLED_BINS - 1, SETTLED_BINS * settled // record.turns)
            ] += 1
    for trigger in record.triggers:
        totals["triggers"][trigger] += 1
    for right in record.window_right:
        totals["window_right"][right] += 1
    for card, information, no_champion in record.questions:
        totals["question_plays"][card] += 1
        totals["question_information"][card] += information_units(information)
        totals["question_no_champion"][card] += int(no_champion)
    for seat, truth, animal, phase, correct, first in record.guesses:
        totals["guesses"][seat, phase] += 1
        totals["right_guesses"][seat, phase] += int(correct)
        if first:
            totals["first_guesses"][seat, phase] += 1
            if correct:
                totals["first_right"][seat, phase] += 1
                totals["animal_first_right"][truth] += 1
        if not correct:
            totals["confusions"][truth, animal] += 1
    for animal, guessed, found, wrong in record.holdings:
        totals["animal_held"][animal] += 1
        totals["animal_guessed"][animal] += int(guessed)
        totals["animal_found"][animal] += int(found)
        totals["animal_wrong"][animal] += wrong
