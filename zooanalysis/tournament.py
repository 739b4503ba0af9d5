"""Strategy tournaments: every strategy against every other, in fair seatings, rated.

``zoosim tournament --strategies a,b,c --games N`` plays lineups chosen so that every
strategy sits in every seat equally often (all seat orders when there are few, cyclic
rotations of seeded random orders otherwise; for a field larger than the table, subsets of
the strategies), all on the same deals (common random numbers). Every game adds, for every
pair of seats, which of the two strategies finished ahead. From that pairwise win matrix
come Bradley-Terry ratings (maximum likelihood; 95% intervals from a bootstrap over
batches, since the meetings inside one game are not independent) and a ranking. Every game
also adds each strategy's and each seat's win share (a game won by k tied winners gives each
1/k): since every strategy sits in every seat equally often, the seats' shares pooled over
all seatings answer whether seat order matters, with the strategies balanced out.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from zooanalysis.errors import UserError
from zooanalysis.games.base import BatchJob, BatchResult, Game
from zooanalysis.outcome import share_unit, win_share_units
from zooanalysis.results import ResultFolder
from zooanalysis.stats import cluster_interval, rate_table
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup
from zooanalysis.tournament_resume import CLUSTER_KEYS

MAX_ALL_ORDERS = 24
"""Play every seat order when there are at most this many; otherwise a balanced subset."""
ELO_SCALE = 400 / math.log(10)
"""Bradley-Terry log-strength to Elo-like points: 400 points = 10:1 odds."""
MIN_BATCH_SIZE = 200
"""The smallest batch of deals a tournament plays (one bootstrap cluster)."""
MIN_BATCHES = 10
"""Batches of deals every lineup plays at least: the ratings' intervals come from a
bootstrap over them, which with fewer gives no interval (one batch) or a meaningless one."""


def tournament_lineups(
    field: Sequence[PlayerSpec], seats: int, seed: int, max_lineups: int = 120
) -> list[list[int]]:
    """Lineups (as indices into ``field``) that give every strategy every seat equally often.

    With ``seats == len(field)``: every seat order if there are at most
    :data:`MAX_ALL_ORDERS`, else the ``seats`` cyclic rotations of seeded random orders.
    With more strategies than seats: subsets of the field (all of them, or a seeded sample),
    each played in its cyclic rotations, so seats stay balanced within every subset.
    """
    count = len(field)
    if seats > count:
        raise UserError(
            f"--seats: {seats} seats for {count} strategies; give at most {count} "
            "(a strategy may also be listed twice)"
        )
    rng = np.random.default_rng(seed)
    groups: list[tuple[int, ...]]
    if seats == count:
        if math.factorial(count) <= MAX_ALL_ORDERS:
            return [list(order) for order in itertools.permutations(range(count))]
        groups = [tuple(range(count))]
    else:
        groups = list(itertools.combinations(range(count), seats))
    orders = []
    budget = max(1, max_lineups // seats)
    if len(groups) > budget:
        chosen = rng.choice(len(groups), size=budget, replace=False)
        groups = [groups[i] for i in sorted(chosen)]
    repeats = max(1, budget // len(groups))
    for group in groups:
        for _ in range(repeats):
            order = list(rng.permutation(group))
            orders += [order[r:] + order[:r] for r in range(seats)]
    return orders


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class PairwiseBatch:
    """Plays one batch of one lineup and counts, for every pair of seats, who finished ahead."""

    job: BatchJob
    standings: Callable[[BatchResult], np.ndarray]
    strategy_of_seat: tuple[int, ...]
    strategies: int
    row_wins: Callable[[BatchResult], np.ndarray] | None = None
    """The game's (games x seats) winner flags (default: the best standing wins)."""

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Counts of games ``first_game .. first_game + n_games - 1`` of the batch seeded
        ``batch_seed``: ``ahead[a, b]`` games strategy a finished ahead of b, ``level[a, b]``
        ties; per strategy ``wins`` (tied winners all win), ``shares`` (win shares, 1/k for
        each of k tied winners) and ``seat_games``; per seat ``seat_wins``, ``seat_shares``
        and ``seat_played``; per strategy and seat ``strategy_seat_shares`` and
        ``strategy_seat_games``. Shares are whole numbers of ``1 / share_unit(seats)``
        (:data:`SHARE_KEYS`), so that they add up exactly however a batch is chunked."""
        result = self.job(batch_seed, n_games, first_game=first_game)
        standing = self.standings(result)  # games x seats, higher is better
        k = self.strategies
        ahead = np.zeros((k, k), dtype=np.int64)
        level = np.zeros((k, k), dtype=np.int64)
        seats = len(self.strategy_of_seat)
        for first in range(seats):
            for second in range(seats):
                a, b = self.strategy_of_seat[first], self.strategy_of_seat[second]
                if first == second or a == b:
                    continue
                ahead[a, b] += int(np.sum(standing[:, first] > standing[:, second]))
                if first < second:
                    ties = int(np.sum(standing[:, first] == standing[:, second]))
                    level[a, b] += ties
                    level[b, a] += ties
        if self.row_wins is None:
            won = standing == standing.max(axis=1, keepdims=True)
        else:
            won = np.asarray(self.row_wins(result), dtype=bool)
        share = win_share_units(won)
        wins = np.zeros(k, dtype=np.int64)
        shares = np.zeros(k, dtype=np.int64)
        seat_games = np.zeros(k, dtype=np.int64)
        by_seat_share = np.zeros((k, seats), dtype=np.int64)
        by_seat_games = np.zeros((k, seats), dtype=np.int64)
        for seat, strategy in enumerate(self.strategy_of_seat):
            wins[strategy] += int(won[:, seat].sum())
            shares[strategy] += share[:, seat].sum()
            seat_games[strategy] += n_games
            by_seat_share[strategy, seat] += share[:, seat].sum()
            by_seat_games[strategy, seat] += n_games
        return {
            "ahead": ahead,
            "level": level,
            "wins": wins,
            "shares": shares,
            "seat_games": seat_games,
            "seat_wins": won.sum(axis=0).astype(np.int64),
            "seat_shares": share.sum(axis=0),
            "seat_played": np.full(seats, n_games, dtype=np.int64),
            "strategy_seat_shares": by_seat_share,
            "strategy_seat_games": by_seat_games,
        }


def pairwise_table(totals: BatchResult, labels: Sequence[str]) -> pd.DataFrame:
    """For every ordered pair of strategies: games one finished ahead, level and behind,
    with the share ahead (ties count half) and its 95% Wilson interval."""
    rows = []
    for a, first in enumerate(labels):
        for b, second in enumerate(labels):
            if a == b:
                continue
            ahead, behind = int(totals["ahead"][a, b]), int(totals["ahead"][b, a])
            level = int(totals["level"][a, b])
            rows.append(
                {
                    "strategy": first,
                    "versus": second,
                    "ahead": ahead,
                    "level": level,
                    "behind": behind,
                    "score": ahead + level / 2,
                    "meetings": ahead + level + behind,
                }
            )
    table = pd.DataFrame(rows)
    rates = rate_table(table["score"], table["meetings"])
    return pd.concat([table, rates.drop(columns="n")], axis=1)


def fit_bradley_terry(ahead: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry log-strengths (mean 0) from pairwise counts.

    P(a ahead of b) = 1 / (1 + exp(r_b - r_a)); a level result counts half for each side.
    """
    score = ahead + level / 2.0
    meetings = score + score.T
    k = score.shape[0]

    def negative_log_likelihood(free: np.ndarray) -> tuple[float, np.ndarray]:
        ratings = np.append(free, -free.sum())
        log_p = -np.logaddexp(0.0, -(ratings[:, None] - ratings[None, :]))
        gradient = -(score - meetings * np.exp(log_p)).sum(axis=1)
        return -np.sum(score * log_p), gradient[:-1] - gradient[-1]

    fit = minimize(negative_log_likelihood, np.zeros(k - 1), jac=True, method="BFGS")
    return np.append(fit.x, -fit.x.sum())


def bradley_terry(
    totals: BatchResult,
    labels: Sequence[str],
    batches: Sequence[tuple[np.ndarray, np.ndarray]] = (),
    replicates: int = 200,
    seed: int = 0,
) -> pd.DataFrame:
    """Bradley-Terry ratings on an Elo-like scale (400 points = 10:1 odds) and a ranking.

    The 95% intervals come from a cluster bootstrap over ``batches`` (each cluster's
    ``(ahead, level)`` matrices: the same deals played by every lineup), because results
    that share a game or a deal are not independent (one game gives every pair of its seats
    a result); without clusters there are no intervals.
    """
    ratings = fit_bradley_terry(totals["ahead"], totals["level"])
    low = high = np.full(len(labels), np.nan)
    if len(batches) > 1:
        rng = np.random.default_rng(seed)
        ahead = np.array([a for a, _ in batches])
        level = np.array([t for _, t in batches])
        draws = []
        for _ in range(replicates):
            pick = rng.integers(0, len(batches), size=len(batches))
            draws.append(fit_bradley_terry(ahead[pick].sum(axis=0), level[pick].sum(axis=0)))
        low, high = np.percentile(np.array(draws), [2.5, 97.5], axis=0)
    score = totals["ahead"] + totals["level"] / 2.0
    table = pd.DataFrame(
        {
            "strategy": list(labels),
            "rating": ratings * ELO_SCALE,
            "ci_low": low * ELO_SCALE,
            "ci_high": high * ELO_SCALE,
            "meetings": (score + score.T).sum(axis=1).astype(np.int64),
        }
    )
    table = table.sort_values("rating", ascending=False).reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(labels) + 1))
    return table


SHARE_KEYS = ("shares", "seat_shares", "strategy_seat_shares")
"""Counts of :class:`PairwiseBatch` kept in whole units of ``1 / share_unit(seats)``."""


def in_shares(counts: BatchResult, unit: int) -> BatchResult:
    """``counts`` with the :data:`SHARE_KEYS` turned from whole units into win shares."""
    return {key: value / unit if key in SHARE_KEYS else value for key, value in counts.items()}


def win_rate_table(
    totals: BatchResult, labels: Sequence[str], clusters: Sequence[BatchResult] = ()
) -> pd.DataFrame:
    """Each strategy's win share of its seat-games (a game won by k tied winners gives
    each 1/k) with its 95% interval, and its seat-games won or shared (tied winners all
    win) with theirs. Every lineup plays the same deals, so the share's Wilson interval is
    widened, where needed, to the cluster-robust one over ``clusters`` (batches of deals)."""
    index = pd.Index(list(labels), name="strategy")
    table = _share_columns(
        pd.Series(totals["shares"], index=index),
        pd.Series(totals["wins"], index=index),
        pd.Series(totals["seat_games"], index=index),
    )
    _widen_to_clusters(table, clusters, "shares", "seat_games")
    return table


def seat_table(
    totals: BatchResult, seats: int, clusters: Sequence[BatchResult] = ()
) -> pd.DataFrame:
    """Each seat's win share pooled over every seating (every strategy sat in every seat
    equally often), with its 95% interval (widened as in :func:`win_rate_table`), games won
    or shared and the fair share."""
    index = pd.Index(np.arange(1, seats + 1), name="seat")
    table = _share_columns(
        pd.Series(totals["seat_shares"], index=index),
        pd.Series(totals["seat_wins"], index=index),
        pd.Series(totals["seat_played"], index=index),
    )
    _widen_to_clusters(table, clusters, "seat_shares", "seat_played")
    table["fair_share"] = 1.0 / seats
    return table


def _widen_to_clusters(
    table: pd.DataFrame, clusters: Sequence[BatchResult], sums: str, trials: str
) -> None:
    """Widen ``table``'s share intervals, row by row, to the cluster-robust interval over
    the clusters' ``sums`` and ``trials`` (nothing with fewer than two clusters)."""
    if len(clusters) < 2:
        return
    for row in range(len(table)):
        _, low, high = cluster_interval(
            [c[sums][row] for c in clusters], [c[trials][row] for c in clusters]
        )
        table.iloc[row, table.columns.get_loc("ci_low")] = np.fmin(table["ci_low"].iloc[row], low)
        table.iloc[row, table.columns.get_loc("ci_high")] = np.fmax(
            table["ci_high"].iloc[row], high
        )


def strategy_seat_table(totals: BatchResult, labels: Sequence[str]) -> pd.DataFrame:
    """Each strategy's win share in each seat (seats from 1), with its 95% interval."""
    shares = totals["strategy_seat_shares"]
    games = totals["strategy_seat_games"]
    strategy, seat = np.nonzero(games)
    rates = rate_table(shares[strategy, seat], games[strategy, seat])
    rates.insert(0, "seat", seat + 1)
    rates.insert(0, "strategy", np.asarray(list(labels), dtype=object)[strategy])
    return rates.rename(columns={"rate": "share"})


def _share_columns(shares: pd.Series, wins: pd.Series, trials: pd.Series) -> pd.DataFrame:
    """``share, ci_low, ci_high, n, won_or_shared`` (+ its interval) from sums and trials."""
    table = rate_table(shares, trials).rename(columns={"rate": "share"})
    either = rate_table(wins, trials)
    table["won_or_shared"] = either["rate"]
    table["won_or_shared_ci_low"] = either["ci_low"]
    table["won_or_shared_ci_high"] = either["ci_high"]
    return table


def pairwise_job(
    game: Game, settings, lineup: list[PlayerSpec], order: list[int], strategies: int
) -> PairwiseBatch:
    """The batch job of one tournament lineup (``order`` = field index of each seat)."""
    return PairwiseBatch(
        job=game.batch_job(settings, lineup, True),
        standings=game.row_standings,
        strategy_of_seat=tuple(order),
        strategies=strategies,
        row_wins=game.row_wins,
    )


@dataclass
class TournamentRequest:
    """Everything that fixes a tournament's results (and where to put them)."""

    game: Game
    settings: object
    field: list[PlayerSpec]
    games: int
    seats: int
    seed: int = 1
    jobs: int = 1
    backend: str = "threads"
    out: object = None


def games_per_lineup(games: int, lineups: int) -> int:
    """Games each lineup plays so that the tournament has at least ``games`` games."""
    return max(1, -(-games // lineups))


def batch_size_for(games_each: int) -> int:
    """Batch size of a tournament: a function of its size only, never of the workers,
    small enough to give the bootstrap some 30 clusters of deals."""
    from zooanalysis.runner import DEFAULT_BATCH_SIZE

    return max(MIN_BATCH_SIZE, min(DEFAULT_BATCH_SIZE, games_each // 32))


@dataclass(frozen=True)
class TournamentPlan:
    """What a tournament will actually play: its lineups, the games each plays (the
    requested games rounded up to whole lineups) and the batch size."""

    orders: list[list[int]]
    games_each: int
    batch_size: int

    @property
    def games(self) -> int:
        """Games in all."""
        return self.games_each * len(self.orders)

    def describe(self) -> str:
        """One line: what will actually be played."""
        return (
            f"{len(self.orders)} lineups x {self.games_each:,} games = {self.games:,} games, "
            f"the same deals for every lineup"
        )


def tournament_plan(request: TournamentRequest) -> TournamentPlan:
    """The request's lineups and sizes; ``UserError`` when its games are too few for every
    lineup to play :data:`MIN_BATCHES` batches (the ratings would have no interval)."""
    orders = tournament_lineups(request.field, request.seats, request.seed)
    each = games_per_lineup(request.games, len(orders))
    least = MIN_BATCHES * MIN_BATCH_SIZE
    if each < least:
        raise UserError(
            f"--games: {request.games:,} is too few for this tournament: its "
            f"{len(orders)} lineups need at least {least:,} games each ({MIN_BATCHES} "
            f"batches of {MIN_BATCH_SIZE} deals, for the ratings' bootstrap intervals); "
            f"give --games {least * len(orders):_} or more"
        )
    return TournamentPlan(orders, each, batch_size_for(each))


def resume_request(out: Path, jobs: int, backend: str = "threads") -> TournamentRequest:
    """Rebuild the request of the interrupted tournament at ``out`` from its
    ``request.json`` (checked against its sha256); the rebuilt request must give back
    exactly the recorded one (checked when the folder is reserved)."""
    from zooanalysis.games import get_game
    from zooanalysis.simulation import stored_request
    from zooanalysis.storage import ResumeRefusedError

    path, record = stored_request(out, "tournament")
    try:
        game = get_game(record["game"])
        players = parse_lineup(",".join(record["strategies"]), game.strategies, "--strategies")
        base = game.settings_from_table(record["settings"])
        settings = game.settings_for_lineup(base, players[:1] * record["seats"])
        return TournamentRequest(
            game=game,
            settings=settings,
            field=players,
            games=record["games"],
            seats=record["seats"],
            seed=record["seed"],
            jobs=jobs,
            backend=backend,
            out=Path(out),
        )
    except (KeyError, TypeError) as error:
        raise ResumeRefusedError(f"--resume: {path} lacks {error} or holds it wrong") from None


def run_tournament(
    request: TournamentRequest,
    on_progress: Callable[[int], None] | None = None,
    unique: bool = False,
    resume: bool = False,
    on_start: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play every lineup on the same deals and rate the strategies; written to
    ``request.out`` if set: reserved (one writer, created) before the first game, and
    appearing only when complete (``unique``: a taken default name becomes NAME-2 ...).

    A tournament to disk keeps a checkpoint in its ``.NAME.partial`` folder every few
    seconds and whenever it stops (see ``zooanalysis.tournament_resume``); ``resume``
    continues the interrupted one at ``request.out`` to the same tables. ``on_start`` is
    told the games already played (0 for a new one), ``on_progress`` every chunk's games.
    """
    from zooanalysis.storage import CHECKPOINT, reserve_output
    from zooanalysis.tournament_resume import COMMAND

    if request.out is None:
        if on_start is not None:
            on_start(0)
        manifest, tables = _play_tournament(request, on_progress)
        return TournamentResult(manifest, tables)
    option = "--resume" if resume else "--out"
    with reserve_output(
        Path(request.out), option=option, resume=resume, unique=unique, command=COMMAND
    ) as folder:
        request.out = folder.path
        manifest, tables = _play_tournament(request, on_progress, folder, on_start)
        _write_tournament(folder.working, manifest, tables)
        folder.finish()
        for leftover in ("request.json", CHECKPOINT):  # after the rename: a crash keeps them
            (folder.path / leftover).unlink(missing_ok=True)
    return TournamentResult(manifest, path=request.out)


def _write_tournament(folder: Path, manifest: dict, tables: dict[str, pd.DataFrame]) -> None:
    from zooanalysis.storage import stamped, write_manifest, write_tables

    write_manifest(folder, stamped(manifest, write_tables(folder, tables)))


def _play_tournament(
    request: TournamentRequest,
    on_progress: Callable[[int], None] | None,
    folder=None,
    on_start: Callable[[int], None] | None = None,
) -> tuple[dict, dict[str, pd.DataFrame]]:
    """Play the tournament (from its checkpoint in the reserved output ``folder``, if
    any, saving new ones as it goes); its manifest and tables."""
    from zooanalysis.runner import Position, play, stream_batches

    game = request.game
    labels = [player.label for player in request.field]
    plan = tournament_plan(request)
    orders, each, size = plan.orders, plan.games_each, plan.batch_size

    def job_of(order: list[int]) -> PairwiseBatch:
        lineup = [request.field[index] for index in order]
        settings = game.settings_for_lineup(request.settings, lineup)
        return pairwise_job(game, settings, lineup, order, len(labels))

    progress, checkpoint = _start(request, plan, folder, job_of(orders[0]))
    if on_start is not None:
        on_start(progress.games_played(each))
    totals = progress.position.totals
    # batch j of every lineup plays the same deals: together they are one bootstrap cluster
    clusters = progress.clusters
    # the same clusters' win shares (and their trials) per strategy and per seat
    shared = progress.shared

    def keep_batch(batch, result: BatchResult) -> None:
        ahead, level = clusters.get(batch.index, (0, 0))
        clusters[batch.index] = (ahead + result["ahead"], level + result["level"])
        mine = shared.setdefault(batch.index, {})
        for key in CLUSTER_KEYS:
            mine[key] = mine.get(key, 0) + result[key]

    def chunk_done(chunk) -> None:
        if checkpoint is not None:
            checkpoint.chunk_done()
        if on_progress is not None:
            on_progress(chunk.games)

    wall = progress.wall_seconds
    for index in range(progress.lineup, len(orders)):
        if index > progress.lineup:
            progress.lineup, progress.position = index, Position(totals)
            if checkpoint is not None:
                checkpoint.follow(progress.position)
        played = play(
            job_of(orders[index]),
            stream_batches(request.seed, size, each, progress.position.batch),
            request.jobs,
            request.backend,
            keep_batch,
            on_halt=None if checkpoint is None else checkpoint.save_if_new,
            position=progress.position,
            on_chunk=chunk_done,
        )
        wall += played.wall_seconds
    if checkpoint is not None:  # a failure while tabulating or writing loses no game
        checkpoint.save_if_new()
    unit = share_unit(request.seats)
    totals = in_shares(totals, unit)
    per_cluster = [in_shares(cluster, unit) for cluster in shared.values()]
    tables = {
        "ratings": bradley_terry(totals, labels, list(clusters.values()), seed=request.seed),
        "pairwise": pairwise_table(totals, labels),
        "win_rates": win_rate_table(totals, labels, per_cluster).reset_index(),
        "seats": seat_table(totals, request.seats, per_cluster).reset_index(),
        "strategy_seats": strategy_seat_table(totals, labels),
        "lineups": pd.DataFrame(
            {
                "lineup": range(len(orders)),
                **{f"seat_{s + 1}": [labels[o[s]] for o in orders] for s in range(request.seats)},
            }
        ),
    }
    return _tournament_manifest(request, labels, orders, each, size, wall), tables


def _start(request: TournamentRequest, plan: TournamentPlan, folder, job):
    """Where the tournament starts, and its checkpointer (None without an output folder):
    a new one records its request; a resumed one checks it and its checkpoint."""
    from zooanalysis.simulation import _Checkpointer, start_or_check_request
    from zooanalysis.tournament_resume import fresh_progress, saved_progress, tournament_record

    if folder is None:
        return fresh_progress(), None
    record = start_or_check_request(
        folder.working, tournament_record(request, plan), folder.resumed, "tournament",
        folder.path,
    )  # fmt: skip
    progress = saved_progress(folder.working, record, plan, job)
    checkpoint = _Checkpointer(
        folder.working,
        progress.position,
        {"wall_seconds": progress.wall_seconds},
        record,
        extra=lambda: progress.saved_with(plan.games_each),
    )
    return progress, checkpoint


def _tournament_manifest(request: TournamentRequest, labels, orders, each, size, wall):
    from zooanalysis.storage import environment, git_commit, utc_now
    from zooanalysis.version import __version__

    games = each * len(orders)
    return {
        "kind": "tournament",
        "zoosim_version": __version__,
        "git_commit": git_commit(),
        "created": utc_now(),
        "game": request.game.name,
        "title": request.game.title,
        "settings": request.game.settings_dict(request.settings),
        "strategies": labels,
        "seats": request.seats,
        "lineups": len(orders),
        "games_per_lineup": each,
        "games": games,
        "batch_size": size,
        "seed": request.seed,
        "deals": "the same deals for every lineup (common random numbers)",
        "jobs": request.jobs,
        "backend": request.backend,
        "wall_seconds": round(wall, 3),
        "games_per_second": round(games / wall, 1) if wall else None,
        "command": sys.argv,
        "environment": environment(),
        "tables": ["lineups", "pairwise", "ratings", "seats", "strategy_seats", "win_rates"],
    }


class TournamentResult(ResultFolder):
    """A finished tournament: ratings, the pairwise matrix and win rates as DataFrames."""

    required_keys = (
        "tables", "title", "strategies", "seats", "lineups", "games_per_lineup", "games", "seed"
    )  # fmt: skip

    def check_counts(self) -> None:
        """Every game gives each of its seats one seat-game: the win rates' seat-games must
        add up to the manifest's games times the seats."""
        counted = int(self.table("win_rates")["n"].sum())
        expected = int(self.manifest["games"]) * int(self.manifest["seats"])
        if counted != expected:
            raise UserError(
                f"{self.path / 'win_rates.parquet'}: counts {counted:,} seat-games where the "
                f"manifest's {int(self.manifest['games']):,} games of {self.manifest['seats']} "
                "seats make "
                f"{expected:,}; the folder was changed or mixed with another tournament"
            )

    def ratings(self) -> pd.DataFrame:
        """Bradley-Terry ratings (Elo-like points, 95% CI) and the ranking."""
        return self.table("ratings")

    def pairwise(self) -> pd.DataFrame:
        """Every ordered pair: games ahead, level, behind and the share ahead with 95% CI."""
        return self.table("pairwise")

    def pairwise_matrix(self) -> pd.DataFrame:
        """The share of meetings each row strategy finished ahead of each column strategy."""
        table = self.pairwise()
        return table.pivot(index="strategy", columns="versus", values="rate")

    def win_rates(self) -> pd.DataFrame:
        """Each strategy's win share of its seat-games (ties split: 1/k for each of k tied
        winners) with 95% CI, and its seat-games won or shared."""
        return self.table("win_rates").set_index("strategy")

    def seats(self) -> pd.DataFrame:
        """Each seat's win share (seats from 1) pooled over all seatings, with 95% CI, next
        to the fair share: the tournament's answer to whether seat order matters."""
        return self.table("seats").set_index("seat")

    def strategy_seats(self) -> pd.DataFrame:
        """Each strategy's win share in each seat (seats from 1), with 95% CI."""
        return self.table("strategy_seats")

    def summary(self) -> str:
        """Ranking, ratings and the pairwise matrix as text."""
        from zooanalysis.stats import format_rate

        m = self.manifest
        lines = [
            f"{m['title']} tournament: {len(m['strategies'])} strategies, {m['lineups']} "
            f"lineups of {m['seats']} seats x {m['games_per_lineup']:,} games "
            f"({m['games']:,} games, the same deals for every lineup), seed {m['seed']}",
            "",
            "Ranking (Bradley-Terry rating, Elo-like points, 95% bootstrap CI; win share per "
            "seat-game, ties split):",
        ]
        wins = self.win_rates()
        for row in self.ratings().itertuples():
            win = wins.loc[row.strategy]
            lines.append(
                f"  {row.rank}. {row.strategy:<26} {row.rating:+7.1f} "
                f"[{row.ci_low:+.1f}, {row.ci_high:+.1f}]   win share "
                f"{format_rate(win.share, win.ci_low, win.ci_high, int(win.n))}"
            )
        seats = self.seats()
        lines += [
            "",
            f"Win share by seat, pooled over every seating (fair share "
            f"{1 / len(seats):.1%}):",
        ]
        for seat, row in seats.iterrows():
            lines.append(
                f"  seat {seat:<3} {format_rate(row.share, row.ci_low, row.ci_high, int(row.n))}"
            )
        matrix = self.pairwise_matrix()
        lines += [
            "",
            "Share of meetings the row strategy finished ahead of the column (ties count half):",
            "",
        ]
        lines += [
            "  " + line for line in (100 * matrix).round(1).to_string(na_rep="-").splitlines()
        ]
        return "\n".join(lines)
