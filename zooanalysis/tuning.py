"""Tuning: the best response of one strategy to a fixed lineup, and how exploitable it is.

``zoosim tune --strategy bayes --against bayes,cautious,random`` searches the tuned
strategy's parameter box by successive halving (a bandit search): every candidate (a grid,
or a seeded random sample when there are more than two parameters, plus the defaults)
plays the same deals with the tuned player in every seat in turn; after each round the
weaker half is dropped and the survivors play more games. The winner and the defaults are
then played again on fresh deals (so the winner's luck in the search does not inflate its
figure), and their difference, with its 95% interval, estimates how exploitable the lineup
is for this strategy.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from zooanalysis.games.base import Game
from zooanalysis.stats import rate_table, two_proportion_test
from zooanalysis.strategy_spec import PlayerSpec, StrategyInfo, format_number, parse_player

GRID_POINTS = 5
RANDOM_CANDIDATES = 24


def candidates(info: StrategyInfo, seed: int) -> list[dict[str, float]]:
    """Parameter sets to try: the defaults first, then a grid (up to two parameters) or a
    seeded random sample of the parameter box."""
    defaults = info.defaults()
    if not info.params:
        return [defaults]
    axes = []
    for param in info.params:
        values = np.linspace(param.low, param.high, GRID_POINTS)
        if param.integer:
            values = np.unique(np.round(values))
        axes.append([float(v) for v in values])
    if len(info.params) <= 2:
        points = [dict(zip(defaults, combo, strict=True)) for combo in itertools.product(*axes)]
    else:
        rng = np.random.default_rng(seed)
        points = []
        for _ in range(RANDOM_CANDIDATES):
            point = {}
            for param in info.params:
                value = rng.uniform(param.low, param.high)
                point[param.name] = float(round(value)) if param.integer else float(value)
            points.append(point)
    unique = [defaults] + [p for p in points if p != defaults]
    return unique


def player_with(
    info: StrategyInfo, params: dict[str, float], strategies: dict[str, StrategyInfo]
) -> PlayerSpec:
    """The tuned player with these parameter values."""
    text = info.name + (
        ":" + ",".join(f"{k}={format_number(round(v, 4))}" for k, v in params.items())
        if params
        else ""
    )
    return parse_player(text, strategies)


@dataclass(frozen=True)
class TuneRequest:
    """What to tune, against whom, with how many games."""

    game: Game
    settings: object
    strategy: StrategyInfo
    against: list[PlayerSpec]
    games: int
    seed: int = 1
    jobs: int = 1


def evaluate(request: TuneRequest, player: PlayerSpec, games: int, seed: int) -> tuple[int, int]:
    """(wins, seat-games) of ``player`` with ``games`` games in each seat of the lineup."""
    from zooanalysis.simulation import RunRequest, run_simulation

    wins = trials = 0
    seats = len(request.against) + 1
    for seat in range(seats):
        lineup = [*request.against[:seat], player, *request.against[seat:]]
        settings = request.game.settings_for_lineup(request.settings, lineup)
        run = run_simulation(
            RunRequest(
                game=request.game,
                settings=settings,
                lineup=lineup,
                games=games,
                seed=seed,
                jobs=request.jobs,
            )
        )
        seat_row = run.win_rates("seat").loc[seat + 1]
        wins += int(seat_row["wins"])
        trials += int(seat_row["games"])
    return wins, trials


def tune(
    request: TuneRequest, on_round: Callable[[int, int, int], None] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run the search; returns (every evaluation in the search, the final comparison)."""
    info = request.strategy
    pool = candidates(info, request.seed)
    rounds = max(1, math.ceil(math.log2(len(pool))))
    seats = len(request.against) + 1
    search_budget = request.games * 3 // 4
    history = []
    alive = list(range(len(pool)))
    for round_index in range(rounds):
        games = max(200, search_budget // (rounds * len(alive) * seats))
        scores = {}
        for index in alive:
            player = player_with(info, pool[index], request.game.strategies)
            wins, trials = evaluate(request, player, games, request.seed)
            scores[index] = wins / trials
            history.append(
                {
                    "round": round_index + 1,
                    "candidate": index,
                    "player": player.label,
                    **pool[index],
                    "wins": wins,
                    "trials": trials,
                }
            )
        if on_round is not None:
            on_round(round_index + 1, rounds, len(alive))
        ranked = sorted(alive, key=lambda i: (-scores[i], i))
        alive = ranked[: max(1, math.ceil(len(alive) / 2))]
    best = alive[0]
    final_games = max(200, (request.games - search_budget) // (2 * seats))
    final_seed = request.seed + 1_000_003  # fresh deals, not those the search chose on
    final_rows = []
    for name, index in (("default", 0), ("best", best)):
        player = player_with(info, pool[index], request.game.strategies)
        wins, trials = evaluate(request, player, final_games, final_seed)
        final_rows.append(
            {
                "candidate": name,
                "player": player.label,
                **pool[index],
                "wins": wins,
                "trials": trials,
            }
        )
    final = pd.DataFrame(final_rows).set_index("candidate")
    final = final.join(rate_table(final["wins"], final["trials"]))
    search = pd.DataFrame(history)
    search = pd.concat([search, rate_table(search["wins"], search["trials"])], axis=1)
    return search, final


def improvement(final: pd.DataFrame) -> dict[str, float]:
    """The best response's gain over the defaults with a 95% interval and p-value.

    The two were played on the same fresh deals but separately, so the interval treats
    them as independent samples (conservative when common deals correlate them)."""
    best, default = final.loc["best"], final.loc["default"]
    gain = best["rate"] - default["rate"]
    variance = (
        best["rate"] * (1 - best["rate"]) / best["trials"]
        + default["rate"] * (1 - default["rate"]) / default["trials"]
    )
    half = 1.959963984540054 * math.sqrt(variance)
    return {
        "gain": gain,
        "ci_low": gain - half,
        "ci_high": gain + half,
        "p_value": two_proportion_test(
            best["wins"], best["trials"], default["wins"], default["trials"]
        ),
    }
