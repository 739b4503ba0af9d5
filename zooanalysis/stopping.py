"""Stopping rules: run until the answer is sure (``--until-ci``).

After every batch, in batch order, the rule looks at every win figure the summary reports,
each seat's and each strategy's win share (ties split) and games won or shared, and stops
once all their 95% Wilson intervals are at most ``target`` wide on either side. Because
batches are checked in order and a batch's games do not depend on how many batches run, the
same seed and target always stop after the same games with the same results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from zooanalysis.games.base import BatchResult, Game
from zooanalysis.outcome import share_sums
from zooanalysis.stats import wilson_interval
from zooanalysis.strategy_spec import PlayerSpec


def win_rate_half_widths(
    games: int, wins: np.ndarray, labels: Sequence[str], shares: np.ndarray | None = None
) -> np.ndarray:
    """Half-widths of the 95% Wilson intervals of every seat's and every strategy's games
    won (``wins``) and, if given, win share (``shares``: summed shares per seat).

    A strategy's figure pools the seats it plays, as ``Run.win_rates("strategy")`` does.
    """
    successes: list[float] = []
    trials: list[int] = []
    for counts in (wins, shares) if shares is not None else (wins,):
        successes += list(counts)
        trials += [games] * len(counts)
        for label in dict.fromkeys(labels):
            seats = [seat for seat, name in enumerate(labels) if name == label]
            if len(seats) > 1:
                successes.append(sum(counts[seat] for seat in seats))
                trials.append(games * len(seats))
    low, high = wilson_interval(np.asarray(successes, dtype=float), np.asarray(trials))
    return (np.asarray(high) - np.asarray(low)) / 2


def rotated_half_widths(
    game: Game, totals: BatchResult, lineup: list[PlayerSpec]
) -> tuple[int, np.ndarray]:
    """The deals played and the same half-widths for a rotated run: each seat pooled over
    the rotations, and each strategy over every seat it took, as the rotated summary
    reports them (a seat's share also by its interval from per-deal means, which it may be
    widened to)."""
    from zooanalysis.rotation import rotated_lineups, split_rotations

    lineups = rotated_lineups(lineup)
    successes: list[float] = []
    trials: list[int] = []
    games = 0
    for figure in ("wins", "shares"):
        seat_wins = np.zeros(len(lineup))
        label_wins: dict[str, float] = {}
        label_trials: dict[str, int] = {}
        for counts, seated in zip(split_rotations(totals, len(lineups)), lineups, strict=True):
            games, wins = game.win_counts(counts, seated)
            if figure == "shares":
                wins = share_sums(counts["win_ties"])
            seat_wins += wins
            for seat, player in enumerate(seated):
                label_wins[player.label] = label_wins.get(player.label, 0) + wins[seat]
                label_trials[player.label] = label_trials.get(player.label, 0) + games
        successes += [*seat_wins, *label_wins.values()]
        trials += [games * len(lineups)] * len(lineup) + list(label_trials.values())
    low, high = wilson_interval(np.asarray(successes, dtype=float), np.asarray(trials))
    widths = (np.asarray(high) - np.asarray(low)) / 2
    if "paired/seat_share_sum" in totals:  # the seats' intervals from per-deal means
        from zooanalysis.rotation import labels_of_players, paired_scale, seat_table

        per_deal = seat_table(totals, paired_scale(labels_of_players(lineup)))
        widths = np.concatenate([widths, (per_deal["ci_high"] - per_deal["ci_low"]) / 2])
    return games, widths


class UntilConfident:
    """A ``stop`` callback for ``runner.play``: true once every win rate is within ``target``."""

    def __init__(
        self, game: Game, lineup: list[PlayerSpec], target: float, rotated: bool = False
    ) -> None:
        self.game = game
        self.lineup = lineup
        self.labels = [player.label for player in lineup]
        self.target = target
        self.rotated = rotated
        self.reached = False
        self.games_needed: int | None = None
        """An estimate of the games (deals, rotated) the target needs, after each call:
        an interval's half-width shrinks as one over the square root of the games."""

    def __call__(self, totals: BatchResult) -> bool:
        """Whether the totals so far answer every win rate to within the target."""
        if self.rotated:
            games, widths = rotated_half_widths(self.game, totals, self.lineup)
        else:
            games, wins = self.game.win_counts(totals, self.lineup)
            shares = share_sums(totals["win_ties"])
            widths = win_rate_half_widths(games, wins, self.labels, shares)
        widest = float(np.max(widths)) if len(widths) else 0.0
        self.reached = bool(np.all(widths <= self.target))
        if self.reached:
            self.games_needed = games
        elif math.isfinite(widest):
            self.games_needed = math.ceil(games * (widest / self.target) ** 2)
        return self.reached


def stop_rule(
    game: Game, lineup: list[PlayerSpec], target: float | None, rotated: bool = False
) -> Callable[[BatchResult], bool] | None:
    """The stopping rule for ``--until-ci target`` (None: play every game asked for)."""
    return None if target is None else UntilConfident(game, lineup, target, rotated)
