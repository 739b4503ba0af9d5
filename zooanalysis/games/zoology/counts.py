"""Batches through the reference engine, tallied exactly as the kernel tallies them.

Used to prove the two engines agree, and to run custom Python strategies (slowly) through
the same analysis as the kernel's results.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zooanalysis.games.zoology.engine import (
    END_COOPERATIVE,
    GameRecord,
    Strategy,
    play_game,
)
from zooanalysis.games.zoology.kernel import (
    LEAD_BINS,
    ROUND_BINS,
    SETTLED_BINS,
    TURN_BINS,
    new_rows,
    new_totals,
)
from zooanalysis.games.zoology.rules import ZoologySettings


def tally(record: GameRecord, totals: dict[str, np.ndarray], cell: int = 0) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    totals["games"][0] += 1
    totals["end_reasons"][record.end_reason] += 1
    totals["rounds_hist"][min(record.rounds, ROUND_BINS - 1)] += 1
    totals["turns_hist"][min(record.turns, TURN_BINS - 1)] += 1
    cooperative = record.end_reason == END_COOPERATIVE
    best = max(record.points)
    leaders = [s for s, p in enumerate(record.points) if p == best]
    for seat, points in enumerate(record.points):
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
        totals["points_from"][seat] += record.points_from[seat]
        if cooperative:
            totals["wins"][seat] += int(record.success)
        elif points == best:
            totals["wins"][seat] += 1
            totals["sole_wins"][seat] += int(len(leaders) == 1)
    if cooperative:
        totals["coop_games"][cell] += 1
        totals["coop_success"][cell] += int(record.success)
    else:
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
    for card, information, no_champion in record.questions:
        totals["question_plays"][card] += 1
        totals["question_information"][card] += information
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


def play_batch_reference(
    settings: ZoologySettings,
    strategies: Sequence[Strategy],
    batch_seed: int,
    n_games: int,
    with_rows: bool = False,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Play a batch with the reference engine; returns (totals, rows) shaped as the kernel's."""
    players = len(strategies)
    totals = new_totals(players, len(settings.animals), len(settings.questions))
    rows = new_rows(n_games if with_rows else 0, players)
    for game in range(n_games):
        record = play_game(settings, strategies, batch_seed, game)
        tally(record, totals)
        if with_rows:
            rows["row_points"][game] = record.points
            rows["row_rounds"][game] = record.rounds
            rows["row_turns"][game] = record.turns
            cooperative = record.end_reason == END_COOPERATIVE
            rows["row_success"][game] = int(record.success) if cooperative else -1
    return totals, rows
