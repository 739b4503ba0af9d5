"""``zoosim field``: the empirical game of a population of strategies, solved.

A population (named strategies with parameters) at a table of ``seats`` makes a symmetric
meta-game (see ``zooanalysis.metagame``). Every composition of the table (every multiset of
``seats`` strategies, repeats included: equilibrium play meets itself) is played in its
distinct cyclic seatings, so every strategy in it sits in every seat equally often, and every
lineup plays the same deals (common random numbers: the same seed, batch by batch). A
strategy's payoff in a composition is its win share per seat-game (a game won by k tied
winners gives each 1/k), counted by the tournament's :class:`PairwiseBatch`.

The meta-game is then solved (``zooanalysis.field_analysis``): a symmetric Nash equilibrium
(the lowest-NashConv candidate of replicator runs from several starts, the pure strategies
and the uniform mix) with its NashConv (how far from converged), alpha-Rank as a second
view, and bootstrap intervals over batches of deals for the weights, scores and payoffs.

A field to disk is a run folder like any other: reserved (one writer), played into a hidden
working folder with a checkpoint after every composition (``zoosim field --resume PATH``
continues an interrupted one to the same results), written atomically with checksums, and
opened with ``load_run``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.errors import UserError
from zooanalysis.games.base import Game
from zooanalysis.metagame import ALPHA, ITERATIONS, POPULATION, composition_count, compositions
from zooanalysis.results import ResultFolder
from zooanalysis.strategy_spec import PlayerSpec

MAX_COMPOSITIONS = 400
"""The most compositions a field plays unless told otherwise (``--max-compositions``; a
population of 8 at 4 seats has 330, of 9 495, of 10 715)."""
COMMAND = "zoosim field"
REQUEST_FILE = "request.json"


@dataclass
class FieldRequest:
    """Everything that fixes a field's results (and where to put them)."""

    game: Game
    settings: Any
    population: list[PlayerSpec]
    seats: int
    games: int
    seed: int = 1
    jobs: int = 1
    backend: str = "threads"
    bootstrap: int = 100
    alpha: float = ALPHA
    alpha_population: int = POPULATION
    iterations: int = ITERATIONS
    out: Path | None = None
    sources: list[str] = field(default_factory=list)
    """Where population members came from (files, tuning folders), for the manifest."""
    command: list[str] = field(default_factory=list)
    max_compositions: int = MAX_COMPOSITIONS
    """The largest field to play (a guard, not part of the results)."""


@dataclass(frozen=True)
class FieldPlan:
    """What a field plays: its compositions, each one's seatings, games per seating."""

    counts: np.ndarray
    seatings: list[list[list[int]]]
    games_each: int
    batch_size: int

    @property
    def lineups(self) -> int:
        """Seatings in all."""
        return sum(len(s) for s in self.seatings)

    @property
    def games(self) -> int:
        """Games in all."""
        return self.lineups * self.games_each

    @property
    def batches(self) -> int:
        """Batches of deals every seating plays."""
        return -(-self.games_each // self.batch_size)

    def describe(self) -> str:
        """One line: what will actually be played."""
        return (
            f"{len(self.counts)} compositions in {self.lineups} seatings x "
            f"{self.games_each:,} games = {self.games:,} games, the same deals for every "
            "seating"
        )


def seatings_of(composition: np.ndarray, rng: np.random.Generator) -> list[list[int]]:
    """The distinct cyclic rotations of a seeded random order of the composition's seats:
    each strategy in it sits in every seat equally often."""
    members = np.repeat(np.arange(len(composition)), composition)
    order = [int(i) for i in rng.permutation(members)]
    rotations = [order[r:] + order[:r] for r in range(len(order))]
    return [list(r) for r in dict.fromkeys(tuple(r) for r in rotations)]


def field_plan(request: FieldRequest) -> FieldPlan:
    """The request's compositions and sizes; ``UserError`` for a population too large for
    the table or games too few for every seating to give the bootstrap its batches."""
    from zooanalysis.tournament import MIN_BATCH_SIZE, MIN_BATCHES, batch_size_for

    count = composition_count(len(request.population), request.seats)
    if count > request.max_compositions:
        raise UserError(
            f"--population: {len(request.population)} strategies at {request.seats} seats "
            f"make {count:,} compositions{_least_games(request, count)} to play; the limit "
            f"is --max-compositions {request.max_compositions}: raise it, "
            "or give fewer strategies or --seats"
        )
    counts = compositions(len(request.population), request.seats)
    rng = np.random.default_rng(request.seed)
    seatings = [seatings_of(row, rng) for row in counts]
    lineups = sum(len(s) for s in seatings)
    each = max(1, -(-request.games // lineups))
    least = MIN_BATCHES * MIN_BATCH_SIZE
    if each < least:
        raise UserError(
            f"--games: {request.games:,} is too few for this field: its {lineups} seatings "
            f"need at least {least:,} games each ({MIN_BATCHES} batches of "
            f"{MIN_BATCH_SIZE} deals, for the bootstrap intervals); give --games "
            f"{least * lineups:_} or more"
        )
    return FieldPlan(counts, seatings, each, batch_size_for(each))


def minimum_games(strategies: int, seats: int, seed: int = 1) -> int:
    """The fewest games a field of ``strategies`` at ``seats`` accepts (every seating
    plays the bootstrap's batches)."""
    from zooanalysis.tournament import MIN_BATCH_SIZE, MIN_BATCHES

    counts = compositions(strategies, seats)
    rng = np.random.default_rng(seed)
    lineups = sum(len(seatings_of(row, rng)) for row in counts)
    return lineups * MIN_BATCHES * MIN_BATCH_SIZE


def _least_games(request: FieldRequest, count: int) -> str:
    """The text ", at least N games" for a field small enough to count its seatings."""
    if count > 100_000:
        return ""
    least = minimum_games(len(request.population), request.seats, request.seed)
    return f", at least {least:,} games"


def request_record(request: FieldRequest) -> dict[str, Any]:
    """Everything that fixes a field's results: a resumed field must have exactly this."""
    return {
        "kind": "field",
        "game": request.game.name,
        "settings": request.game.settings_dict(request.settings),
        "population": [player.label for player in request.population],
        "seats": request.seats,
        "games": request.games,
        "seed": request.seed,
        "bootstrap": request.bootstrap,
        "alpha": request.alpha,
        "alpha_population": request.alpha_population,
        "iterations": request.iterations,
    }


def run_field(
    request: FieldRequest,
    on_progress: Callable[[int], None] | None = None,
    resume: bool = False,
    on_start: Callable[[int], None] | None = None,
    unique: bool = False,
    search_deals: int = 0,
) -> FieldResult:
    """Play the field, solve it and return its results, written to ``request.out`` if set
    (reserved before the first game, checkpointed after every composition, appearing only
    when complete; ``resume`` continues the interrupted field there). ``search_deals`` > 0
    also plays the ladder's search rung (``zooanalysis.ladder_search``) where the game can
    have one; ``on_progress`` counts its games too."""
    from zooanalysis.storage import reserve_output

    plan = field_plan(request)
    if request.out is None:
        if on_start is not None:
            on_start(0)
        shares, seat_games, wall = _play(request, plan, None, {}, on_progress)
        manifest, tables = _results(request, plan, shares, seat_games, wall, None)
        _add_search_rung(manifest, tables, search_deals, request.jobs, on_progress)
        return FieldResult(manifest, tables)
    option = "--resume" if resume else "--out"
    with reserve_output(
        Path(request.out), option=option, resume=resume, unique=unique, command=COMMAND
    ) as folder:
        request.out = folder.path
        record = _start_or_resume(request, folder.working, folder.resumed)
        state, stored = _load_checkpoint(folder.working, record, plan, len(request.population))
        if on_start is not None:
            on_start(state["compositions_done_games"])
        shares, seat_games, wall = _play(request, plan, folder.working, state, on_progress,
                                         stored, record)  # fmt: skip
        manifest, tables = _results(request, plan, shares, seat_games, wall, record)
        _add_search_rung(manifest, tables, search_deals, request.jobs, on_progress)
        _write(folder.working, manifest, tables)
        folder.finish()
        for leftover in (REQUEST_FILE, "checkpoint.npz"):
            (folder.path / leftover).unlink(missing_ok=True)
    return FieldResult(manifest, path=request.out)


def _play(
    request: FieldRequest,
    plan: FieldPlan,
    working: Path | None,
    state: dict[str, Any],
    on_progress: Callable[[int], None] | None,
    stored: tuple[np.ndarray, np.ndarray] | None = None,
    record: dict[str, Any] | None = None,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Play every composition not yet in the checkpoint; per composition and batch, each
    strategy's win-share units and seat-games (and the wall seconds of all the play)."""
    from zooanalysis.runner import play, stream_batches
    from zooanalysis.simulation import checkpoint_owner
    from zooanalysis.storage import write_checkpoint
    from zooanalysis.tournament import pairwise_job

    strategies = len(request.population)
    shape = (len(plan.counts), plan.batches, strategies)
    if stored is None:
        shares = np.zeros(shape, dtype=np.int64)
        seat_games = np.zeros(shape, dtype=np.int64)
    else:
        shares, seat_games = stored
    start = int(state.get("next_composition", 0))
    wall = float(state.get("wall_seconds", 0.0))
    for c in range(start, len(plan.counts)):
        for order in plan.seatings[c]:
            lineup = [request.population[i] for i in order]
            settings = request.game.settings_for_lineup(request.settings, lineup)
            job = pairwise_job(request.game, settings, lineup, order, strategies)

            def keep(batch, result, c=c) -> None:
                shares[c, batch.index] += result["shares"]
                seat_games[c, batch.index] += result["seat_games"]

            played = play(
                job,
                stream_batches(request.seed, plan.batch_size, plan.games_each),
                request.jobs,
                request.backend,
                keep,
                on_chunk=None if on_progress is None else (lambda ch: on_progress(ch.games)),
            )
            wall += played.wall_seconds
        if working is not None:
            done = c + 1
            games_done = sum(len(s) for s in plan.seatings[:done]) * plan.games_each
            write_checkpoint(
                working,
                {"shares": shares[:done], "seat_games": seat_games[:done]},
                {
                    "next_batch": 0,
                    "games": games_done,
                    "next_composition": done,
                    "compositions_done_games": games_done,
                    "wall_seconds": wall,
                    **checkpoint_owner(record),
                },
            )
    return shares, seat_games, wall


def _add_search_rung(
    manifest: dict[str, Any],
    tables: dict[str, pd.DataFrame],
    deals: int,
    jobs: int,
    on_progress: Callable[[int], None] | None,
) -> None:
    """Play the search rung on ``deals`` deals into the tables and manifest (nothing for
    0; where the game cannot have one, the manifest says why)."""
    from zooanalysis.ladder_search import TABLE, search_rung

    if deals < 1:
        return
    table, entry = search_rung(FieldResult(manifest, tables), deals, jobs, on_progress)
    manifest["ladder_search"] = entry
    if table is not None:
        tables[TABLE] = table
        manifest["tables"] = sorted([*manifest["tables"], TABLE])


def _start_or_resume(request: FieldRequest, working: Path, resumed: bool) -> dict[str, Any]:
    """Write ``request.json`` of a new field, or check a resumed one against it (one line
    naming what differs), as a run's."""
    from zooanalysis.simulation import start_or_check_request

    return start_or_check_request(
        working, request_record(request), resumed, "field", request.out, request.command
    )


def _load_checkpoint(
    working: Path, record: dict[str, Any], plan: FieldPlan, strategies: int
) -> tuple[dict[str, Any], tuple[np.ndarray, np.ndarray] | None]:
    """The checkpoint's state and counts, checked against the request and the plan."""
    from zooanalysis.simulation import check_checkpoint_owner
    from zooanalysis.storage import CHECKPOINT, ResumeRefusedError, load_checkpoint

    checkpoint = load_checkpoint(working)
    state = checkpoint.state
    if "next_composition" not in state:
        return {"next_composition": 0, "compositions_done_games": 0, "wall_seconds": 0.0}, None
    path = working / CHECKPOINT
    check_checkpoint_owner(path, state, record)
    done = state["next_composition"]
    expected = (done, plan.batches, strategies)
    found = [np.shape(checkpoint.totals.get(key)) for key in ("shares", "seat_games")]
    if (
        not isinstance(done, int)
        or not 0 < done <= len(plan.counts)
        or any(shape != expected for shape in found)
    ):
        raise ResumeRefusedError(
            f"--resume: the counts in {path} do not fit this field's compositions; the "
            "checkpoint was changed or damaged"
        )
    shape = (len(plan.counts), plan.batches, strategies)
    shares = np.zeros(shape, dtype=np.int64)
    seat_games = np.zeros(shape, dtype=np.int64)
    shares[:done] = checkpoint.totals["shares"]
    seat_games[:done] = checkpoint.totals["seat_games"]
    return state, (shares, seat_games)


def _results(
    request: FieldRequest,
    plan: FieldPlan,
    shares: np.ndarray,
    seat_games: np.ndarray,
    wall: float,
    record: dict[str, Any] | None,
) -> tuple[dict[str, Any], dict[str, pd.DataFrame]]:
    """Solve the field and make its manifest and tables."""
    from zooanalysis.field_analysis import analyse, composition_label
    from zooanalysis.outcome import share_unit

    labels = [player.label for player in request.population]
    unit = share_unit(request.seats)
    analysis = analyse(
        plan.counts,
        shares / unit,
        seat_games,
        labels,
        request.seed,
        request.bootstrap,
        request.alpha,
        request.alpha_population,
        request.iterations,
    )
    c, b, i = np.nonzero(seat_games)
    batches = pd.DataFrame(
        {
            "composition": c.astype(np.int64),
            "batch": b.astype(np.int64),
            "strategy": np.asarray(labels, dtype=object)[i],
            "share_units": shares[c, b, i],
            "seat_games": seat_games[c, b, i],
        }
    )
    composition_rows = pd.DataFrame(plan.counts, columns=labels)
    composition_rows.insert(0, "lineup", [composition_label(r, labels) for r in plan.counts])
    composition_rows.insert(0, "composition", np.arange(len(plan.counts)))
    seating_rows = [
        {
            "composition": c,
            "seating": s,
            **{f"seat_{k + 1}": labels[o] for k, o in enumerate(seats)},
        }
        for c, orders in enumerate(plan.seatings)
        for s, seats in enumerate(orders)
    ]
    tables = {
        "population": pd.DataFrame(
            {
                "strategy": labels,
                "name": [p.strategy for p in request.population],
                "params": [json.dumps(p.as_dict()) for p in request.population],
            }
        ),
        "compositions": composition_rows,
        "seatings": pd.DataFrame(seating_rows),
        "batches": batches,
        **analysis_tables(analysis),
    }
    manifest = _manifest(request, plan, wall, record, labels, unit)
    manifest["solution"] = solution_record(analysis, labels, request.iterations)
    return manifest, tables


ANALYSIS_TABLES = ("payoffs", "equilibrium", "convergence")
"""The tables a field's solution makes (``zoosim field --reanalyse`` rewrites them)."""


def analysis_tables(analysis) -> dict[str, pd.DataFrame]:
    """The tables of a solved field (:data:`ANALYSIS_TABLES`)."""
    return {
        "payoffs": analysis.payoffs,
        "equilibrium": analysis.strategies,
        "convergence": analysis.convergence,
    }


def solution_record(analysis, labels: list[str], iterations: int) -> dict[str, Any]:
    """The manifest's ``solution``: the solver, the kept candidate, NashConv with its
    interval, the weights and the alpha-Rank scores."""
    low, high = analysis.strategies.attrs["nash_conv_interval"]
    return {
        "method": (
            "the lowest-NashConv candidate of: replicator dynamics (exponential weights) "
            "from the uniform mix and from near each pure strategy, with support polish; "
            "every pure strategy; the uniform mix"
        ),
        "kept": analysis.method,
        "iterations": iterations,
        "nash_conv": analysis.nash_conv,
        "nash_conv_ci": [low, high],
        "weights": {label: float(w) for label, w in zip(labels, analysis.weights, strict=True)},
        "alpha_rank": {
            label: float(s) for label, s in zip(labels, analysis.alpha_scores, strict=True)
        },
    }


def _manifest(request, plan, wall, record, labels, unit) -> dict[str, Any]:
    from zooanalysis.storage import environment, git_commit, utc_now
    from zooanalysis.version import __version__

    return {
        "kind": "field",
        "zoosim_version": __version__,
        "git_commit": git_commit(),
        "created": utc_now(),
        "game": request.game.name,
        "title": request.game.title,
        "settings": request.game.settings_dict(request.settings),
        "population": labels,
        "sources": list(request.sources),
        "seats": request.seats,
        "compositions": len(plan.counts),
        "lineups": plan.lineups,
        "games_per_lineup": plan.games_each,
        "games": plan.games,
        "batch_size": plan.batch_size,
        "batches": plan.batches,
        "share_unit": unit,
        "seed": request.seed,
        "deals": "the same deals for every seating (common random numbers)",
        "bootstrap": request.bootstrap,
        "alpha": request.alpha,
        "alpha_population": request.alpha_population,
        "jobs": request.jobs,
        "backend": request.backend,
        "wall_seconds": round(wall, 3),
        "command": record["command"] if record else (request.command or sys.argv),
        **({"resume_commands": record["resume_commands"]} if record else {}),
        "request_sha256": record["sha256"] if record else None,
        "environment": environment(),
        "tables": [
            "batches", "compositions", "convergence", "equilibrium", "payoffs", "population",
            "seatings",
        ],
    }  # fmt: skip


def _write(folder: Path, manifest: dict, tables: dict[str, pd.DataFrame]) -> None:
    from zooanalysis.storage import stamped, write_manifest, write_tables

    write_manifest(folder, stamped(manifest, write_tables(folder, tables)))


class FieldResult(ResultFolder):
    """A finished field: the meta-game, its equilibrium and alpha-Rank, as DataFrames."""

    required_keys = (
        "tables", "title", "game", "population", "seats", "games", "seed", "solution",
        "share_unit", "settings",
    )  # fmt: skip

    def check_counts(self) -> None:
        """Every game gives each of its seats one seat-game."""
        counted = int(self.table("batches")["seat_games"].sum())
        expected = int(self.manifest["games"]) * int(self.manifest["seats"])
        if counted != expected:
            raise UserError(
                f"{(self.path or Path('.')) / 'batches.parquet'}: counts {counted:,} "
                f"seat-games where the manifest's {int(self.manifest['games']):,} games of "
                f"{self.manifest['seats']} seats make {expected:,}; the folder was changed "
                "or mixed with another field"
            )

    def equilibrium(self) -> pd.DataFrame:
        """Per strategy: equilibrium weight, alpha-Rank score, payoff against the mix and
        gain over it, each with its 95% bootstrap interval."""
        return self.table("equilibrium").set_index("strategy")

    def payoffs(self) -> pd.DataFrame:
        """The meta-game: every composition's win share per strategy with its 95% CI."""
        return self.table("payoffs")

    def convergence(self) -> pd.DataFrame:
        """NashConv of the last iterate and running average of the replicator run from the
        uniform mix along the way."""
        return self.table("convergence")

    def ladder(self, rungs: list[str] | None = None) -> pd.DataFrame:
        """The skill ladder (see ``zooanalysis.ladder``): each rung's win share against a
        table of the rung below, with its 95% bootstrap interval."""
        from zooanalysis.ladder import ladder_table

        return ladder_table(self, rungs, int(self.manifest["seed"]))

    def mix(self) -> dict[str, float]:
        """The equilibrium mix: strategy label -> weight."""
        return dict(self.manifest["solution"]["weights"])

    def summary(self) -> str:
        """The equilibrium, alpha-Rank and how far from converged, as text."""
        from zooanalysis.field_text import field_summary

        return field_summary(self)
