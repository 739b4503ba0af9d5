"""One simulation run from start to finish: plan, play, tabulate, write.

Usable from a notebook::

    import zooanalysis
    run = zooanalysis.simulate("bluff", players="bayes,random,random", games=100_000, seed=3)
    run.win_rates()
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.results import Run
from zooanalysis.rotation import (
    RotatedBatch,
    distinct_labels,
    pair_table,
    rotated_lineups,
    seat_table,
    split_rotations,
    strategy_table,
)
from zooanalysis.runner import DEFAULT_BATCH_SIZE, Batch, default_jobs, play, stream_batches
from zooanalysis.stopping import stop_rule
from zooanalysis.storage import (
    CHECKPOINT,
    ROWS_FOLDER,
    environment,
    git_commit,
    partial_path,
    read_checkpoint,
    resumable_directory,
    utc_now,
    write_checkpoint,
    write_json_atomically,
    write_manifest,
    write_tables,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup
from zooanalysis.version import __version__


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
    rotate_seats: bool = False
    """Play every deal once per rotation of the lineup (paired comparisons)."""
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


def run_simulation(
    request: RunRequest, on_progress: Callable[[int], None] | None = None, resume: bool = False
) -> Run:
    """Play the run, write it to ``request.out`` (if set) and return its results.

    ``on_progress`` is called with the number of games finished after every batch. No
    results are written unless the whole run completes; a run to disk keeps a checkpoint
    in a hidden ``.NAME.partial`` folder, so after Ctrl-C (``RunInterruptedError``) or a
    killed process ``resume=True`` continues it to the same results.
    """
    game = request.game
    job = _batch_job(request)
    stop = stop_rule(game, request.lineup, request.until_ci, request.rotate_seats)
    if request.out is None:
        totals = play(
            job,
            stream_batches(request.seed, request.batch_size, request.games),
            request.jobs,
            request.backend,
            _progress_only(on_progress),
            stop,
            request.scheduler,
        )
        tables = _tables(request, totals.totals)
        return game.run_class()(_manifest(request, totals, tables, stop), tables)

    with resumable_directory(request.out, resume) as folder:
        if not resume:
            write_json_atomically(folder / REQUEST_FILE, _request_record(request))
        totals, state = read_checkpoint(folder)
        rows_folder = folder / ROWS_FOLDER
        _drop_rows_after(rows_folder, state["next_batch"])
        if request.with_rows:
            rows_folder.mkdir(exist_ok=True)
        checkpoint = _Checkpointer(folder, totals, state)

        def store_batch(batch: Batch, result: BatchResult) -> None:
            if request.with_rows:
                _rows_frame(batch, result, request.batch_size).to_parquet(
                    rows_folder / f"batch-{batch.index:06d}.parquet", index=False
                )
            checkpoint.batch_done(batch)
            if on_progress is not None:
                on_progress(batch.games)

        batches = stream_batches(
            request.seed, request.batch_size, request.games, state["next_batch"]
        )
        # Checkpoints are saved only in store_batch, where counts and position agree; a
        # save on Ctrl-C could catch the counts a batch ahead of the position.
        played = play(
            job,
            batches,
            request.jobs,
            request.backend,
            store_batch,
            stop,
            request.scheduler,
            initial=totals,
            games_done=state["games"],
        )
        played.wall_seconds += state["wall_seconds"]
        tables = _tables(request, played.totals)
        write_tables(folder, tables)
        manifest = _manifest(request, played, tables, stop)
        write_manifest(folder, manifest)
        for leftover in (REQUEST_FILE, CHECKPOINT):
            (folder / leftover).unlink(missing_ok=True)
    return game.run_class()(manifest, path=request.out)


def _batch_job(request: RunRequest):
    """The batch job: the game's own, or one that plays every rotation of the lineup."""
    game = request.game
    if not request.rotate_seats:
        return game.batch_job(request.settings, request.lineup, request.with_rows)
    labels = distinct_labels(request.lineup)
    return RotatedBatch(
        jobs=tuple(
            game.batch_job(request.settings, lineup, True)
            for lineup in rotated_lineups(request.lineup)
        ),
        row_wins=game.row_wins,
        label_of_player=tuple(labels.index(player.label) for player in request.lineup),
        keep_rows=request.with_rows,
    )


def _tables(request: RunRequest, totals: BatchResult) -> dict[str, pd.DataFrame]:
    """The run's tables; with seat rotation, every rotation's rows (column ``rotation``)
    plus the paired comparisons (``rotation_strategies``, ``rotation_pairs``) and the seats'
    shares over the rotations with per-deal intervals (``rotation_seats``)."""
    game = request.game
    if not request.rotate_seats:
        return game.tables(totals, request.settings, request.lineup)
    lineups = rotated_lineups(request.lineup)
    per_rotation = [
        game.tables(counts, request.settings, lineup)
        for counts, lineup in zip(split_rotations(totals, len(lineups)), lineups, strict=True)
    ]
    tables = {}
    for name in per_rotation[0]:
        tables[name] = pd.concat(
            [table[name].assign(rotation=r) for r, table in enumerate(per_rotation)],
            ignore_index=True,
        )
    labels = distinct_labels(request.lineup)
    tables["rotation_strategies"] = strategy_table(totals, labels).reset_index()
    tables["rotation_pairs"] = pair_table(totals, labels)
    tables["rotation_seats"] = seat_table(totals)
    return tables


REQUEST_FILE = "request.json"
CHECKPOINT_SECONDS = float(os.environ.get("ZOOSIM_CHECKPOINT_SECONDS", "5"))
"""How often a run to disk saves its counts so far: an interrupted run resumes from its
last checkpoint, so at most this much work is played again."""


class _Checkpointer:
    """Saves a run's counts every few seconds so an interrupted run can be resumed."""

    def __init__(self, folder: Path, totals: BatchResult, state: dict[str, Any]) -> None:
        self.folder = folder
        self.totals = totals
        self.state = dict(state)
        self.started = time.perf_counter()
        self.saved = self.started

    def batch_done(self, batch: Batch) -> None:
        """Count a finished batch (already added to the totals); save now and then."""
        self.state["next_batch"] = batch.index + 1
        self.state["games"] += batch.games
        if time.perf_counter() - self.saved >= CHECKPOINT_SECONDS:
            self.save()

    def save(self) -> None:
        """Write the counts and position now."""
        now = time.perf_counter()
        state = dict(self.state)
        state["wall_seconds"] = self.state["wall_seconds"] + (now - self.started)
        write_checkpoint(self.folder, self.totals, state)
        self.saved = now


def _drop_rows_after(rows_folder: Path, next_batch: int) -> None:
    """Remove per-game row files of batches the checkpoint does not count (resumed runs)."""
    if rows_folder.is_dir():
        for path in rows_folder.glob("batch-*.parquet"):
            if int(path.stem.removeprefix("batch-")) >= next_batch:
                path.unlink()


def _request_record(request: RunRequest) -> dict[str, Any]:
    """What a resumed run needs to play exactly the same games."""
    return {
        "game": request.game.name,
        "settings": request.game.settings_dict(request.settings),
        "players": ",".join(player.label for player in request.lineup),
        "games": request.games,
        "seed": request.seed,
        "batch_size": request.batch_size,
        "with_rows": request.with_rows,
        "rotate_seats": request.rotate_seats,
        "until_ci": request.until_ci,
        "scenario": request.scenario,
    }


def resume_request(
    out: Path, jobs: int, backend: str = "threads", scheduler: str | None = None
) -> RunRequest:
    """Rebuild the request of the interrupted run at ``out`` (workers may differ)."""
    record_path = partial_path(out) / REQUEST_FILE
    if not record_path.is_file():
        raise UserError(
            f"--resume: no interrupted run to continue at {out} "
            f"(no {record_path.relative_to(out.parent)})"
        )
    record = json.loads(record_path.read_text(encoding="utf-8"))
    game = get_game(record["game"])
    lineup = parse_lineup(record["players"], game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table(record["settings"]), lineup)
    return RunRequest(
        game=game,
        settings=settings,
        lineup=lineup,
        games=record["games"],
        seed=record["seed"],
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        batch_size=record["batch_size"],
        with_rows=record["with_rows"],
        until_ci=record["until_ci"],
        out=out,
        scenario=record["scenario"],
    )


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
    """One batch's per-game rows as a DataFrame (game number = position in the run; a
    rotated run has one row per game and rotation, column ``rotation``)."""
    first = batch.index * batch_size
    count = next(
        (len(values) for key, values in result.items() if key.startswith("row_")), batch.games
    )
    frame = pd.DataFrame({"game": first + np.arange(count) % batch.games})
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
        "rotate_seats": request.rotate_seats,
        "rotations": (
            [[p.label for p in lineup] for lineup in rotated_lineups(request.lineup)]
            if request.rotate_seats
            else None
        ),
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
        "games_per_second": round(
            totals.games_per_second * (len(request.lineup) if request.rotate_seats else 1), 1
        ),
        "scenario": request.scenario,
        "command": request.command or sys.argv,
        "environment": environment(),
        "tables": sorted(tables),
    }
