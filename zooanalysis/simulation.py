"""One simulation run from start to finish: plan, play, tabulate, write.

Usable from a notebook::

    import zooanalysis
    run = zooanalysis.simulate("bluff", players="bayes,random,random", games=100_000, seed=3)
    run.win_rates()
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from zooanalysis import __version__
from zooanalysis.games import get_game
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.results import Run
from zooanalysis.runner import DEFAULT_BATCH_SIZE, Batch, default_jobs, play, stream_batches
from zooanalysis.stopping import stop_rule
from zooanalysis.storage import (
    ROWS_FOLDER,
    atomic_directory,
    check_new_run_path,
    environment,
    git_commit,
    utc_now,
    write_manifest,
    write_tables,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup


@dataclass
class RunRequest:
    """Everything that fixes a run's results (and where to put them)."""

    game: Game
    settings: Any
    lineup: list[PlayerSpec]
    games: int
    seed: int = 1
    jobs: int = 1
    backend: str = "threads"
    batch_size: int = DEFAULT_BATCH_SIZE
    with_rows: bool = False
    until_ci: float | None = None
    """Stop once every win rate's 95% CI half-width is at most this; ``games`` is the cap."""
    scheduler: str | None = None
    """The Dask scheduler's address, with ``backend="dask"``."""
    out: Path | None = None
    scenario: str | None = None
    command: list[str] = field(default_factory=list)


def warm_up(request: RunRequest) -> None:
    """Play one tiny batch so compilation (or loading numba's cache) happens up front."""
    request.game.batch_job(request.settings, request.lineup, False)(0, 1)


def run_simulation(request: RunRequest, on_progress: Callable[[int], None] | None = None) -> Run:
    """Play the run, write it to ``request.out`` (if set) and return its results.

    ``on_progress`` is called with the number of games finished after every batch.
    Nothing is written unless the whole run completes.
    """
    game = request.game
    batches = stream_batches(request.seed, request.batch_size, request.games)
    job = game.batch_job(request.settings, request.lineup, request.with_rows)
    stop = stop_rule(game, request.lineup, request.until_ci)
    if request.out is None:
        totals = play(
            job,
            batches,
            request.jobs,
            request.backend,
            _progress_only(on_progress),
            stop,
            request.scheduler,
        )
        tables = game.tables(totals.totals, request.settings, request.lineup)
        return game.run_class()(_manifest(request, totals, tables, stop), tables)

    check_new_run_path(request.out)
    with atomic_directory(request.out) as folder:
        rows_folder = folder / ROWS_FOLDER
        if request.with_rows:
            rows_folder.mkdir()

        def store_batch(batch: Batch, result: BatchResult) -> None:
            if request.with_rows:
                _rows_frame(batch, result, request.batch_size).to_parquet(
                    rows_folder / f"batch-{batch.index:06d}.parquet", index=False
                )
            if on_progress is not None:
                on_progress(batch.games)

        totals = play(
            job, batches, request.jobs, request.backend, store_batch, stop, request.scheduler
        )
        tables = game.tables(totals.totals, request.settings, request.lineup)
        write_tables(folder, tables)
        manifest = _manifest(request, totals, tables, stop)
        write_manifest(folder, manifest)
    return game.run_class()(manifest, path=request.out)


def simulate(
    game: str = "bluff",
    players: str | None = None,
    games: int = 100_000,
    seed: int = 1,
    jobs: int | None = None,
    settings: dict[str, Any] | None = None,
    out: str | Path | None = None,
    backend: str = "threads",
) -> Run:
    """Run a simulation from Python and return its results (written to ``out`` if given)."""
    chosen = get_game(game)
    lineup = parse_lineup(players or chosen.default_lineup, chosen.strategies)
    base = chosen.settings_from_table(settings or {})
    request = RunRequest(
        game=chosen,
        settings=chosen.settings_for_lineup(base, lineup),
        lineup=lineup,
        games=games,
        seed=seed,
        jobs=jobs or default_jobs(),
        backend=backend,
        out=Path(out) if out is not None else None,
    )
    return run_simulation(request)


def _progress_only(on_progress: Callable[[int], None] | None):
    if on_progress is None:
        return None
    return lambda batch, _result: on_progress(batch.games)


def _rows_frame(batch: Batch, result: BatchResult, batch_size: int) -> pd.DataFrame:
    """One batch's per-game rows as a DataFrame (game number = position in the run)."""
    first = batch.index * batch_size
    frame = pd.DataFrame({"game": range(first, first + batch.games)})
    for key, values in result.items():
        if not key.startswith("row_"):
            continue
        name = key.removeprefix("row_")
        if values.ndim == 2:
            for column in range(values.shape[1]):
                frame[f"{name}_{column}"] = values[:, column]
        else:
            frame[name] = values
    return frame


def _manifest(request: RunRequest, totals, tables, stop) -> dict[str, Any]:
    game = request.game
    until = None
    if request.until_ci is not None:
        until = {
            "target_half_width": request.until_ci,
            "max_games": request.games,
            "reached": bool(stop.reached),
        }
    return {
        "zoosim_version": __version__,
        "git_commit": git_commit(),
        "created": utc_now(),
        "game": game.name,
        "title": game.title,
        "settings": game.settings_dict(request.settings),
        "lineup": [player.label for player in request.lineup],
        "players": [{"strategy": p.strategy, "params": p.as_dict()} for p in request.lineup],
        "seed": request.seed,
        "games": totals.games,
        "batch_size": request.batch_size,
        "batches": -(-totals.games // request.batch_size),
        "until_ci": until,
        "jobs": request.jobs,
        "backend": request.backend,
        "scheduler": request.scheduler,
        "per_game_rows": request.with_rows,
        "wall_seconds": round(totals.wall_seconds, 3),
        "games_per_second": round(totals.games_per_second, 1),
        "scenario": request.scenario,
        "command": request.command or sys.argv,
        "environment": environment(),
        "tables": sorted(tables),
    }
