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
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.errors import UserError
from zooanalysis.games.base import Game
from zooanalysis.results import ResultFolder
from zooanalysis.stats import rate_table, two_proportion_test
from zooanalysis.strategy_spec import (
    PlayerSpec,
    StrategyInfo,
    format_number,
    parse_lineup,
    parse_player,
)
from zooanalysis.tuning_resume import EvaluationMemo

GRID_POINTS = 5
RANDOM_CANDIDATES = 24
MIN_GAMES_PER_SEAT = 200
"""The fewest games a candidate plays in each seat in a round of the search (and each
finalist in the final): fewer cannot tell candidates apart."""
FINAL_SEED_OFFSET = 1_000_003
"""The final comparison plays seed + this: fresh deals, not those the search chose on."""


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
    min_games_per_seat: int = MIN_GAMES_PER_SEAT


@dataclass(frozen=True)
class TunePlan:
    """How a search spends its games: per round, the candidates still in and the games each
    plays in every seat; then the games each finalist plays in every seat."""

    candidates: int
    seats: int
    rounds: tuple[tuple[int, int], ...]
    final_games: int

    @property
    def total(self) -> int:
        """Games the search and the final comparison play in all (at most the budget)."""
        search = sum(alive * games for alive, games in self.rounds) * self.seats
        return search + 2 * self.final_games * self.seats

    @property
    def evaluations(self) -> int:
        """Evaluations (a candidate in one seat) the search and the final comparison play."""
        return (sum(alive for alive, _ in self.rounds) + 2) * self.seats

    @property
    def fewest_games(self) -> int:
        """The fewest games any candidate or finalist plays in one seat."""
        return min(self.final_games, *(games for _, games in self.rounds))

    def describe(self) -> str:
        """One line: what will actually be played."""
        return (
            f"{self.candidates} candidates over {len(self.rounds)} rounds (the better half "
            f"goes on; {self.rounds[0][1]:,} to {self.rounds[-1][1]:,} games per seat), then "
            f"the best and the defaults on fresh deals ({self.final_games:,} games per seat "
            f"each): {self.total:,} games in all"
        )


def plan_tuning(candidate_count: int, seats: int, games: int) -> TunePlan:
    """Split ``games`` between the rounds of successive halving and the final comparison;
    every round gets the same share, divided among the candidates still in."""
    rounds = max(1, math.ceil(math.log2(candidate_count)))
    search_budget = games * 3 // 4  # the search's share; the final comparison gets the rest
    schedule = []
    alive = candidate_count
    for _ in range(rounds):
        schedule.append((alive, search_budget // (rounds * alive * seats)))
        alive = max(1, math.ceil(alive / 2))
    final_games = (games - search_budget) // (2 * seats)
    return TunePlan(candidate_count, seats, tuple(schedule), final_games)


def minimum_games(candidate_count: int, seats: int, per_seat: int = MIN_GAMES_PER_SEAT) -> int:
    """The smallest budget whose plan gives every candidate and finalist at least
    ``per_seat`` games in every seat."""
    low, high = 1, 1
    while plan_tuning(candidate_count, seats, high).fewest_games < per_seat:
        low, high = high, high * 2
    while low < high:  # the plan's figures never shrink as the budget grows
        middle = (low + high) // 2
        if plan_tuning(candidate_count, seats, middle).fewest_games >= per_seat:
            high = middle
        else:
            low = middle + 1
    return high


def tuning_plan(request: TuneRequest) -> TunePlan:
    """The request's plan; ``UserError`` when its games are too few to give an answer."""
    pool = candidates(request.strategy, request.seed)
    seats = len(request.against) + 1
    plan = plan_tuning(len(pool), seats, request.games)
    if plan.fewest_games < request.min_games_per_seat:
        need = minimum_games(len(pool), seats, request.min_games_per_seat)
        raise UserError(
            f"--games: {request.games:,} is too few to tune {request.strategy.name} at a "
            f"table of {seats}: {len(pool)} candidates over {len(plan.rounds)} rounds need "
            f"at least {request.min_games_per_seat} games each in every seat; give --games "
            f"{need:_} or more"
        )
    return plan


def evaluate(
    request: TuneRequest,
    player: PlayerSpec,
    games: int,
    seed: int,
    memo: EvaluationMemo | None = None,
) -> tuple[int, int]:
    """(wins, seat-games) of ``player`` with ``games`` games in each seat of the lineup;
    each seat's evaluation is taken from ``memo`` (a resumed tuning's kept ones) while it
    has them, and added to it once played."""
    from zooanalysis.simulation import RunRequest, run_simulation

    wins = trials = 0
    seats = len(request.against) + 1
    for seat in range(seats):
        kept = memo.replay(games) if memo is not None else None
        if kept is not None:
            wins += kept[0]
            trials += kept[1]
            continue
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
        if memo is not None:
            memo.add(int(seat_row["wins"]), int(seat_row["games"]))
    return wins, trials


def tune(
    request: TuneRequest,
    on_round: Callable[[int, int, int], None] | None = None,
    memo: EvaluationMemo | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run the search; returns (every evaluation in the search, the final comparison).

    With ``memo`` (``tuning_resume``: a tuning to disk) every evaluation is kept as it is
    played, saved every few seconds and when the search stops (Ctrl-C, SIGTERM, a failure),
    and a resumed search takes the kept ones instead of playing them again."""
    try:
        return _search(request, on_round, memo)
    except BaseException:
        if memo is not None:
            memo.save_if_new()
        raise


def _search(
    request: TuneRequest,
    on_round: Callable[[int, int, int], None] | None,
    memo: EvaluationMemo | None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    info = request.strategy
    pool = candidates(info, request.seed)
    plan = tuning_plan(request)
    rounds = len(plan.rounds)
    history = []
    alive = list(range(len(pool)))
    for round_index, (_, games) in enumerate(plan.rounds):
        scores = {}
        for index in alive:
            player = player_with(info, pool[index], request.game.strategies)
            wins, trials = evaluate(request, player, games, request.seed, memo)
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
    final_games = plan.final_games
    final_seed = request.seed + FINAL_SEED_OFFSET
    final_rows = []
    for name, index in (("default", 0), ("best", best)):
        player = player_with(info, pool[index], request.game.strategies)
        wins, trials = evaluate(request, player, final_games, final_seed, memo)
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


def resume_request(out: Path, jobs: int) -> TuneRequest:
    """Rebuild the request of the interrupted tuning at ``out`` from its ``request.json``
    (checked against its sha256); the rebuilt request must give back exactly the recorded
    one (checked when the folder is reserved)."""
    from zooanalysis.games import get_game
    from zooanalysis.simulation import stored_request
    from zooanalysis.storage import ResumeRefusedError

    path, record = stored_request(out, "tuning")
    try:
        game = get_game(record["game"])
        return TuneRequest(
            game=game,
            settings=game.settings_from_table(record["settings"]),
            strategy=game.strategies[record["strategy"]],
            against=parse_lineup(",".join(record["against"]), game.strategies, "--against"),
            games=record["games"],
            seed=record["seed"],
            jobs=jobs,
            min_games_per_seat=record["min_games_per_seat"],
        )
    except (KeyError, TypeError) as error:
        raise ResumeRefusedError(f"--resume: {path} lacks {error} or holds it wrong") from None


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


def tune_manifest(
    request: TuneRequest, search: pd.DataFrame, final: pd.DataFrame
) -> dict[str, object]:
    """What a tuning folder records: the request, the result in short and provenance."""
    import sys

    from zooanalysis.storage import environment, git_commit, utc_now
    from zooanalysis.version import __version__

    gain = improvement(final)
    return {
        "kind": "tune",
        "zoosim_version": __version__,
        "git_commit": git_commit(),
        "created": utc_now(),
        "game": request.game.name,
        "title": request.game.title,
        "settings": request.game.settings_dict(request.settings),
        "strategy": request.strategy.name,
        "against": [player.label for player in request.against],
        "games": request.games,
        "seed": request.seed,
        "final_seed": request.seed + FINAL_SEED_OFFSET,
        "jobs": request.jobs,
        "candidates": int(search["candidate"].nunique()),
        "rounds": int(search["round"].max()),
        "best": str(final.loc["best", "player"]),
        "improvement": {key: float(value) for key, value in gain.items()},
        "command": sys.argv,
        "environment": environment(),
        "tables": ["final", "search"],
    }


def write_tuning(
    folder, request: TuneRequest, search: pd.DataFrame, final: pd.DataFrame
) -> None:
    """Write a tuning's tables and manifest (with checksums) into ``folder``."""
    from zooanalysis.storage import stamped, write_manifest, write_tables

    checksums = write_tables(folder, {"search": search, "final": final.reset_index()})
    write_manifest(folder, stamped(tune_manifest(request, search, final), checksums))


class TuneResult(ResultFolder):
    """A finished tuning (``zoosim tune --out``): every evaluation and the final comparison."""

    required_keys = ("tables", "title", "strategy", "against", "games", "seed", "improvement")

    def search(self) -> pd.DataFrame:
        """Every candidate played in every round, with its win rate and 95% CI."""
        return self.table("search")

    def final(self) -> pd.DataFrame:
        """The defaults and the best candidate replayed on fresh deals."""
        return self.table("final").set_index("candidate")

    def summary(self) -> str:
        """The final comparison and the gain, as text."""
        m = self.manifest
        lines = [
            f"{m['title']}: tuning {m['strategy']} against {', '.join(m['against'])} "
            f"({m['games']:,} games, seed {m['seed']})"
        ]
        for name, row in self.final().iterrows():
            lines.append(
                f"  {name:<8} {row.player:<40} wins {100 * row.rate:.2f}% "
                f"[{100 * row.ci_low:.2f}%, {100 * row.ci_high:.2f}%] (n={int(row.n):,})"
            )
        gain = m["improvement"]
        lines.append(
            f"Best response gains {100 * gain['gain']:+.2f} percentage points over the "
            f"defaults [{100 * gain['ci_low']:+.2f}, {100 * gain['ci_high']:+.2f}], "
            f"p={gain['p_value']:.2g}"
        )
        return "\n".join(lines)
