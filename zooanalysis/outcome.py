"""How a game ended for its seats: who won, among how many tied winners, and by how much.

Every game's kernel calls :func:`tally_outcome` once per game, on the final standings, and
every reference engine's ``tally`` calls its plain twin :func:`count_outcome`; the tests hold
the two equal. They add into two count arrays (:func:`new_outcome_totals`):

- ``win_ties[seat, k]``: games the seat won as one of ``k`` tied winners (``k = 1 ..
  players``; column 0 stays empty). A seat's games won (tied winners all win) are its row's
  sum, its games won alone ``win_ties[seat, 1]``, and its **win share** (Ludii's balance
  convention: a game shared by ``k`` winners gives each of them ``1/k``) is
  ``sum over k of win_ties[seat, k] / k``. The shares of all seats add up to the games that
  had a winner, so a share compares with the fair share ``1 / players``.
- ``margins[m]``: games whose winners' score beat the best non-winner's by ``m`` points, in
  the game's own score units (Bluff in Zoo: penalty points, fewer is better; others: points).
  Games that every player won (all tied) have no non-winner and are not counted; the top
  bin ``MARGIN_BINS - 1`` holds that many or more.

A cooperative game (the team wins or loses together) calls :func:`tally_team_outcome`: a
success is won by every player together (``k = players``), a failure has no winner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

MARGIN_BINS = 128
"""Winning margins 0-127 in the ``margins`` histogram; 127 holds 127 or more."""


def new_outcome_totals(players: int) -> dict[str, np.ndarray]:
    """Zeroed ``win_ties`` (players x players + 1) and ``margins`` arrays for a batch."""
    return {
        "win_ties": np.zeros((players, players + 1), dtype=np.int64),
        "margins": np.zeros(MARGIN_BINS, dtype=np.int64),
    }


@njit(cache=True, nogil=True, error_model="numpy")
def tally_outcome(
    scores: np.ndarray,
    players: int,
    fewest_win: bool,
    win_ties: np.ndarray,
    margins: np.ndarray,
) -> None:
    """Count one finished game from its final ``scores`` of seats ``0 .. players - 1``.

    The best score wins (the fewest if ``fewest_win``, else the most); every seat holding it
    is one of the ``k`` tied winners. Adds into ``win_ties`` and, if some seat did not win,
    ``margins`` (see the module docstring). No allocation."""
    best = scores[0]
    for seat in range(1, players):
        if (scores[seat] < best) if fewest_win else (scores[seat] > best):
            best = scores[seat]
    winners = 0
    for seat in range(players):
        if scores[seat] == best:
            winners += 1
    runner_up = best
    found = False
    for seat in range(players):
        score = scores[seat]
        if score == best:
            win_ties[seat, winners] += 1
        elif not found or ((score < runner_up) if fewest_win else (score > runner_up)):
            runner_up = score
            found = True
    if found:
        margin = runner_up - best if fewest_win else best - runner_up
        margins[min(margin, MARGIN_BINS - 1)] += 1


@njit(cache=True, nogil=True, error_model="numpy")
def tally_team_outcome(players: int, success: bool, win_ties: np.ndarray) -> None:
    """Count one cooperative game: a success is won by all ``players`` together (each as one
    of ``players`` tied winners); a failure has no winner. No winning margin."""
    if success:
        for seat in range(players):
            win_ties[seat, players] += 1


@dataclass(frozen=True)
class Outcome:
    """One game's result for its seats, from the definition (the reference engines' twin)."""

    winners: tuple[int, ...]
    """The seats holding the best score."""
    margin: int | None
    """The winners' score minus the best non-winner's (as a positive lead), or None when
    every seat won."""


def game_outcome(scores: Sequence[int], fewest_win: bool = False) -> Outcome:
    """Winners and winning margin of a game with these final scores, stated plainly."""
    best = min(scores) if fewest_win else max(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    others = [score for score in scores if score != best]
    if not others:
        return Outcome(winners, None)
    runner_up = min(others) if fewest_win else max(others)
    return Outcome(winners, abs(int(best) - int(runner_up)))


def count_outcome(
    scores: Sequence[int], totals: dict[str, np.ndarray], fewest_win: bool = False
) -> None:
    """Add one game's :func:`game_outcome` to ``totals['win_ties']`` and ``['margins']``,
    as :func:`tally_outcome` counts it in a kernel."""
    outcome = game_outcome(scores, fewest_win)
    for seat in outcome.winners:
        totals["win_ties"][seat, len(outcome.winners)] += 1
    if outcome.margin is not None:
        totals["margins"][min(outcome.margin, MARGIN_BINS - 1)] += 1


def count_team_outcome(players: int, success: bool, totals: dict[str, np.ndarray]) -> None:
    """Add one cooperative game, as :func:`tally_team_outcome` counts it."""
    if success:
        for seat in range(players):
            totals["win_ties"][seat, players] += 1


def share_sums(win_ties: np.ndarray) -> np.ndarray:
    """Each seat's summed win share (a game won with ``k`` tied winners counts ``1/k``)."""
    counts = np.asarray(win_ties, dtype=np.float64)
    k = np.arange(counts.shape[-1], dtype=np.float64)
    weights = np.divide(1.0, k, out=np.zeros_like(k), where=k > 0)
    return counts @ weights


def share_unit(seats: int) -> int:
    """The denominator that makes every win share of a ``seats``-seat game whole:
    ``lcm(1 .. seats)`` (a share is ``1/k`` for ``k`` tied winners, ``k <= seats``)."""
    return math.lcm(*range(1, seats + 1))


def win_share_units(wins: np.ndarray) -> np.ndarray:
    """:func:`win_shares` exactly, as int64 multiples of ``1 / share_unit(seats)``.

    Integer sums of shares do not depend on the order of the additions, so counts made of
    them are the same however a batch is cut into chunks (see ``runner.play``)."""
    flags = np.asarray(wins, dtype=bool)
    unit = share_unit(flags.shape[1])
    winners = flags.sum(axis=1, keepdims=True)
    return np.where(flags, unit // np.maximum(winners, 1), 0).astype(np.int64)


def win_shares(wins: np.ndarray) -> np.ndarray:
    """(games x seats) win flags as win shares: each of a game's k tied winners gets 1/k (a
    game nobody won gives nothing)."""
    flags = np.asarray(wins, dtype=np.float64)
    winners = flags.sum(axis=1, keepdims=True)
    return np.divide(flags, winners, out=np.zeros_like(flags), where=winners > 0)
