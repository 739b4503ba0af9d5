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
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from zooanalysis.compiled import load_array_support
from zooanalysis.games import get_game, parse_players
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.results import Run
from zooanalysis.rotation import (
    RotatedBatch,
    distinct_labels,
    labels_of_players,
    pair_table,
    paired_scale,
    rotated_lineups,
    seat_table,
    split_rotations,
    strategy_table,
)
from zooanalysis.runner import (
    DEFAULT_BATCH_SIZE,
    Batch,
    Chunk,
    Position,
    default_jobs,
    play,
    stream_batches,
)
from zooanalysis.settings import check_players_setting
from zooanalysis.stopping import stop_rule
from zooanalysis.storage import (
    CHECKPOINT,
    FORMAT_VERSION,
    ROWS_CHECKSUMS,
    ROWS_FOLDER,
    Checkpoint,
    OutputFolder,
    ResumeRefusedError,
    StorageError,
    as_read_back,
    import_parquet_in_background,
    load_checkpoint,
    partial_path,
    provenance_in_background,
    reserve_output,
    sha256,
    stamped,
    utc_now,
    write_checkpoint,
    write_json_atomically,
    write_manifest,
    write_table,
    write_tables,
)
from zooanalysis.strategy_spec import PlayerSpec
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
    mix: Any = None
    """A ``field_lineup.FieldMix`` when every seat draws its strategy from a field's mix
    (``--players field:FOLDER``); the lineup's seats are then labelled ``field``."""


def lineup_job(request: RunRequest, lineup: list[PlayerSpec], with_rows: bool):
    """The game's batch job for ``lineup``, or, for a field run, the job that draws every
    seat's strategy from the mix."""
    if request.mix is not None:
        from zooanalysis.field_lineup import MixedBatch

        return MixedBatch(request.game, request.settings, request.mix, with_rows)
    return request.game.batch_job(request.settings, lineup, with_rows)


def warm_up(request: RunRequest) -> None:
    """Play one tiny batch so compilation (or loading numba's cache) happens up front."""
    load_array_support()
    lineup_job(request, request.lineup, False)(0, 1)


def run_simulation(
    request: RunRequest,
    on_progress: Callable[[int], None] | None = None,
    resume: bool = False,
    *,
    folder: OutputFolder | None = None,
    on_start: Callable[[int], None] | None = None,
    on_estimate: Callable[[int], None] | None = None,
    provenance: Callable[[], tuple[str, dict[str, str]]] | None = None,
) -> Run:
    """Play the run, write it to ``request.out`` (if set) and return its results.

    Batches are played in chunks of about half a second of work (``runner.ChunkSizer``):
    ``on_progress`` is called with the number of games finished after every chunk,
    ``on_start`` once with the games a resumed run already has (0 for a new one), and, for
    ``--until-ci`` runs, ``on_estimate`` after every batch with the games the target is
    estimated to need (at most ``request.games``).

    No results are written unless the whole run completes. A run to disk reserves its
    folder (one writer; see ``storage.reserve_output``; a caller that reserved it already
    passes ``folder``) and keeps a checkpoint in the hidden ``.NAME.partial`` folder, saved
    every few seconds at chunk granularity (a batch half played included), so after Ctrl-C
    (``RunInterruptedError``), a failure or a killed process ``resume=True`` continues it
    to the same results. A checkpoint belongs to one request (a sha256 of everything that
    fixes the results) and one version of the code: resuming with any other is refused,
    naming what differs.

    ``provenance`` waits for the git commit and environment the manifest records (see
    ``storage.provenance_in_background``; a caller may start it before compiling); by
    default they are found alongside the games.
    """
    game = request.game
    provenance = provenance or provenance_in_background()
    job = _batch_job(request)
    stop = stop_rule(game, request.lineup, request.until_ci, request.rotate_seats)
    checked_stop = _estimating(stop, on_estimate, request.games)
    if request.out is None:
        if on_start is not None:
            on_start(0)
        totals = play(
            job,
            stream_batches(request.seed, request.batch_size, request.games),
            request.jobs,
            request.backend,
            stop=checked_stop,
            scheduler=request.scheduler,
            on_chunk=_progress_only(on_progress),
        )
        tables = _tables(request, totals.totals)
        return game.run_class()(_manifest(request, totals, tables, stop, provenance), tables)
    play_to = (job, stop, checked_stop, on_progress, on_start, provenance)
    if folder is None:
        option = "--resume" if resume else "--out"
        with reserve_output(request.out, option=option, resume=resume) as reserved:
            return _run_to_folder(request, reserved, *play_to)
    return _run_to_folder(request, folder, *play_to)


def _run_to_folder(
    request: RunRequest,
    folder: OutputFolder,
    job,
    stop,
    checked_stop,
    on_progress: Callable[[int], None] | None,
    on_start: Callable[[int], None] | None,
    provenance: Callable[[], tuple[str, dict[str, str]]],
) -> Run:
    """Play a run into its reserved folder, checkpointing, and finish the folder.

    The returned run holds the tables it wrote, as they read back (so its summary needs
    not read the folder again); ``load_run`` checks the folder itself."""
    game = request.game
    request.out = folder.path
    working = folder.working
    record = _start_or_resume(request, working, folder.resumed)
    checkpoint_file = load_checkpoint(working)
    _check_checkpoint(working, checkpoint_file, record, job, request)
    state = checkpoint_file.state
    state.setdefault("rows_sha256", {})
    position = _position(checkpoint_file, request.with_rows)
    import_parquet_in_background()  # needed only once the games are played
    rows_folder = working / ROWS_FOLDER
    _drop_rows_after(rows_folder, state)
    if request.with_rows:
        _make_folder(rows_folder)
    checkpoint = _Checkpointer(working, position, state, record)
    if on_start is not None:
        on_start(position.games_played)

    def store_batch(batch: Batch, result: BatchResult) -> None:
        if request.with_rows:
            name = _rows_file(batch.index)
            digest = write_table(rows_folder / name, _rows_frame(batch, result, request.batch_size))
            checkpoint.state["rows_sha256"][name] = digest

    def chunk_done(chunk: Chunk) -> None:
        checkpoint.chunk_done()
        if on_progress is not None:
            on_progress(chunk.games)

    batches = stream_batches(request.seed, request.batch_size, request.games, position.batch)
    finished = position.games and not position.batch_games
    if checked_stop is not None and finished and checked_stop(position.totals):
        batches = iter(())  # the checkpoint holds the batch where an --until-ci run stops
    # Checkpoints are saved where counts and position agree: after a chunk (every few
    # seconds), and when the chunks stop coming (Ctrl-C, SIGTERM, a lost cluster).
    played = play(
        job,
        batches,
        request.jobs,
        request.backend,
        store_batch,
        checked_stop,
        request.scheduler,
        on_halt=checkpoint.save_if_new,
        position=position,
        on_chunk=chunk_done,
    )
    played.wall_seconds += state["wall_seconds"]
    # The last checkpoint is saved while the results are tabulated and written: a failure
    # there still loses no games, since the checkpoint is waited for before any error leaves.
    with checkpoint.saving_alongside():
        tables = _tables(request, played.totals)
        checksums = write_tables(working, tables)
        if request.with_rows:
            checksums[ROWS_CHECKSUMS] = write_json_atomically(
                working / ROWS_CHECKSUMS, dict(sorted(checkpoint.state["rows_sha256"].items()))
            )
    manifest = stamped(_manifest(request, played, tables, stop, provenance, record), checksums)
    write_manifest(working, manifest)
    folder.finish()
    for leftover in (REQUEST_FILE, CHECKPOINT):  # after the rename: a crash keeps them
        (request.out / leftover).unlink(missing_ok=True)
    return game.run_class()(manifest, as_read_back(tables), path=request.out)


def _estimating(stop, on_estimate: Callable[[int], None] | None, cap: int):
    """``stop``, also telling ``on_estimate`` the games it expects the target to need."""
    if stop is None or on_estimate is None:
        return stop

    def checked(totals: BatchResult) -> bool:
        done = stop(totals)
        if stop.games_needed is not None:
            on_estimate(min(cap, stop.games_needed))
        return done

    return checked


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(exist_ok=True)
    except OSError as error:
        raise StorageError(f"{folder}: cannot create ({error.strerror})") from None


def _batch_job(request: RunRequest):
    """The batch job: the game's own, or one that plays every rotation of the lineup."""
    game = request.game
    if not request.rotate_seats:
        return lineup_job(request, request.lineup, request.with_rows)
    return RotatedBatch(
        jobs=tuple(lineup_job(request, lineup, True) for lineup in rotated_lineups(request.lineup)),
        row_wins=game.row_wins,
        label_of_player=labels_of_players(request.lineup),
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
    scale = paired_scale(labels_of_players(request.lineup))
    tables["rotation_strategies"] = strategy_table(totals, labels, scale).reset_index()
    tables["rotation_pairs"] = pair_table(totals, labels, scale)
    tables["rotation_seats"] = seat_table(totals, scale)
    return tables


REQUEST_FILE = "request.json"
CHECKPOINT_SECONDS = float(os.environ.get("ZOOSIM_CHECKPOINT_SECONDS", "5"))
"""How often a run to disk saves its counts so far: an interrupted run resumes from its
last checkpoint, so at most this much work is played again."""


class _Checkpointer:
    """Saves a run's counts and position every few seconds (at chunk granularity, a batch
    under way included) so an interrupted run can be resumed."""

    def __init__(
        self,
        folder: Path,
        position: Position,
        state: dict[str, Any],
        record: dict[str, Any],
        extra: Callable[[], tuple[BatchResult, dict[str, Any]]] | None = None,
    ) -> None:
        self.folder = folder
        self.position = position
        self.state = {**state, **checkpoint_owner(record)}
        self.extra = extra
        """What else a save holds (a tournament's clusters and lineup): (counts, state)."""
        self.started = time.perf_counter()
        self.saved = self.started
        self.saved_games = position.games_played

    def follow(self, position: Position) -> None:
        """Checkpoint ``position`` from now on (a tournament's next lineup, whose counts go
        on from the last one's); games of the last position not yet saved stay due."""
        unsaved = self.position.games_played != self.saved_games
        self.position = position
        self.saved_games = -1 if unsaved else position.games_played

    def chunk_done(self) -> None:
        """A chunk was counted in the position; save if the last save is old enough."""
        if time.perf_counter() - self.saved >= CHECKPOINT_SECONDS:
            self.save()

    def save(self, position: Position | None = None) -> None:
        """Write the counts and position now (``position``: a copy of the run's)."""
        now = time.perf_counter()
        position = position or self.position
        state = dict(self.state)
        state["next_batch"] = position.batch
        state["batch_games"] = position.batch_games
        state["games"] = position.games_played
        state["wall_seconds"] = self.state["wall_seconds"] + (now - self.started)
        counts = position.totals
        if self.extra is not None:
            more_counts, more_state = self.extra()
            counts = {**counts, **more_counts}
            state.update(more_state)
        write_checkpoint(
            self.folder,
            counts,
            state,
            position.batch_counts if position.batch_games else None,
        )
        self.saved = now
        self.saved_games = position.games_played

    def save_if_new(self) -> None:
        """Save if games were played since the last checkpoint (the run is stopping)."""
        if self.position.games_played != self.saved_games:
            self.save()

    @contextmanager
    def saving_alongside(self) -> Iterator[None]:
        """:meth:`save_if_new` on a thread of its own while the block runs (compressing and
        flushing release the GIL), waited for when the block ends, even by an error: the
        block's error then leaves, else the save's. The block must not change the counts."""
        if self.position.games_played == self.saved_games:
            yield
            return
        position = self.position  # a copy to save: the block reads the counts meanwhile
        snapshot = Position(
            _copied(position.totals),
            position.games,
            position.batch,
            position.batch_games,
            _copied(position.batch_counts),
        )
        pool = ThreadPoolExecutor(1, thread_name_prefix="zoosim-checkpoint")
        saved = pool.submit(self.save, snapshot)
        try:
            yield
        finally:
            pool.shutdown(wait=True)
        saved.result()


def _copied(counts: BatchResult) -> BatchResult:
    return {key: value.copy() for key, value in counts.items()}


def _position(checkpoint: Checkpoint, with_rows: bool) -> Position:
    """Where a run continues from its checkpoint (a fresh one: the start).

    The rows of a batch under way are not in checkpoints: a run that keeps rows plays that
    batch again from its start (its partial counts are dropped, so counts and rows agree).
    """
    state = checkpoint.state
    batch_games = state.get("batch_games", 0)
    finished = state["games"] - batch_games
    if with_rows and batch_games:
        return Position(checkpoint.totals, finished, state["next_batch"])
    return Position(
        checkpoint.totals,
        finished,
        state["next_batch"],
        batch_games,
        dict(checkpoint.batch_counts) if batch_games else {},
    )


def _rows_file(index: int) -> str:
    return f"batch-{index:06d}.parquet"


def _drop_rows_after(rows_folder: Path, state: dict[str, Any]) -> None:
    """Remove per-game row files of batches the checkpoint does not count (resumed runs)."""
    next_batch = state["next_batch"]
    kept = state["rows_sha256"]
    for name in list(kept):
        if int(name.removeprefix("batch-").removesuffix(".parquet")) >= next_batch:
            del kept[name]
    if rows_folder.is_dir():
        for path in rows_folder.glob("batch-*.parquet"):
            if int(path.stem.removeprefix("batch-")) >= next_batch:
                path.unlink()


def _request_record(request: RunRequest) -> dict[str, Any]:
    """Everything that fixes a run's results: a resumed run must have exactly this."""
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
        **({"field": request.mix.record()} if request.mix is not None else {}),
    }


def request_sha256(record: dict[str, Any]) -> str:
    """The sha256 of a request record (canonical JSON): what a checkpoint belongs to."""
    return sha256(json.dumps(record, sort_keys=True, default=str).encode("utf-8"))


def _code() -> str:
    from zooanalysis.compiled import code_fingerprint

    return code_fingerprint()


def _start_or_resume(request: RunRequest, working: Path, resumed: bool) -> dict[str, Any]:
    """Write ``request.json`` of a new run, or check a resumed run against it (and add the
    resume command to it); returns its contents."""
    return start_or_check_request(
        working, _request_record(request), resumed, "run", request.out, request.command
    )


def start_or_check_request(
    working: Path,
    record: dict[str, Any],
    resumed: bool,
    what: str,
    out: Path,
    command: list[str] | None = None,
) -> dict[str, Any]:
    """``request.json`` of a new piece of work (a run, a tournament, a tuning: ``what``) to
    ``out``, written with the sha256 of ``record``, the code's fingerprint and ``command``
    (``sys.argv`` unless given); resumed, the stored one checked against ``record`` and the
    code (one line naming what differs) and the resume command added. Returns its contents."""
    command = list(command or sys.argv)
    path = working / REQUEST_FILE
    if not resumed:
        stored = {
            "format_version": FORMAT_VERSION,
            "request": record,
            "sha256": request_sha256(record),
            "code": _code(),
            "command": command,
            "resume_commands": [],
        }
        write_json_atomically(path, stored)
        return stored
    stored = read_request_file(path)
    differences = _differences(stored["request"], record)
    if differences:
        raise ResumeRefusedError(
            f"--resume: {path} is the request of another {what} ({differences}); "
            f"a {what} resumes only with the request it started with"
        )
    if stored["code"] != _code():
        raise ResumeRefusedError(
            f"--resume: the {what} at {out} was started by other zoosim code "
            f"({stored['code']}; here {_code()}); finish it with that version"
        )
    stored["resume_commands"] = [*stored.get("resume_commands", []), command]
    write_json_atomically(path, stored)
    return stored


def checkpoint_owner(record: dict[str, Any]) -> dict[str, Any]:
    """What a checkpoint's state records of whom it belongs to (``record``: a
    ``request.json``'s contents), for :func:`check_checkpoint_owner` to check."""
    return {
        "request_sha256": record["sha256"],
        "request": record["request"],
        "code": record["code"],
    }


def check_checkpoint_owner(path: Path, state: dict[str, Any], record: dict[str, Any]) -> None:
    """Refuse the checkpoint at ``path`` (its ``state``) unless it was made for ``record``
    (a ``request.json``'s contents) by this code; one line naming what differs."""
    if state.get("request_sha256") != record["sha256"]:
        differences = _differences(state.get("request") or {}, record["request"])
        raise ResumeRefusedError(
            f"--resume: {path} belongs to another request than {path.parent / REQUEST_FILE} "
            f"({differences or 'no request recorded'}); the counts cannot be mixed"
        )
    if state.get("code") != record["code"]:
        raise ResumeRefusedError(
            f"--resume: {path} was made by other zoosim code ({state.get('code')}; "
            f"here {record['code']})"
        )


def stored_request(out: Path, what: str) -> tuple[Path, dict[str, Any]]:
    """The path of the ``request.json`` of the interrupted ``what`` (a tournament, a field,
    a tuning) at ``out`` and its request, checked against its sha256; one line refusing a
    folder with none."""
    path = partial_path(Path(out)) / REQUEST_FILE
    if not path.is_file():
        raise ResumeRefusedError(
            f"--resume: no interrupted {what} to continue at {out} "
            f"(no {path.name} in {path.parent})"
        )
    return path, read_request_file(path)["request"]


def read_request_file(path: Path) -> dict[str, Any]:
    """The ``request.json`` of an interrupted run, checked against its own sha256."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResumeRefusedError(
            f"--resume: no interrupted run to continue ({path} is missing)"
        ) from None
    except (OSError, ValueError) as error:
        raise ResumeRefusedError(f"{path}: unreadable ({' '.join(str(error).split())})") from None
    if not isinstance(stored, dict) or "sha256" not in stored or "request" not in stored:
        raise ResumeRefusedError(
            f"--resume: {path} was written by an older zoosim, without the checksum that "
            "ties a checkpoint to its request; it cannot be resumed safely"
        )
    if request_sha256(stored["request"]) != stored["sha256"]:
        raise ResumeRefusedError(
            f"--resume: {path} was changed after the run started (its sha256 no longer "
            "matches); a checkpoint resumes only with the request it was made for"
        )
    return stored


def _check_checkpoint(
    folder: Path,
    checkpoint: Checkpoint,
    record: dict[str, Any],
    job,
    request: RunRequest,
) -> None:
    """Refuse a checkpoint made for another request or code, whose counts do not fit this
    run's batches, or whose position is not one this run can reach; one line naming what
    differs."""
    state, totals = checkpoint.state, checkpoint.totals
    if not totals and not checkpoint.batch_counts and state["games"] == 0:
        return
    path = folder / CHECKPOINT
    check_checkpoint_owner(path, state, record)
    check_count_shapes(
        path, job, [("", totals), ("of the batch under way ", checkpoint.batch_counts)]
    )
    _check_position(path, state, request)
    if (state["games"] > state["batch_games"]) != bool(totals) or (
        state["batch_games"] > 0
    ) != bool(checkpoint.batch_counts):
        raise ResumeRefusedError(
            f"--resume: {path} lacks the counts of games its position says were played; "
            "the checkpoint was changed or damaged"
        )


def check_count_shapes(path: Path, job, parts: list[tuple[str, BatchResult]]) -> None:
    """Refuse the checkpoint at ``path`` unless each of its ``parts`` (label, counts) holds
    exactly the count arrays that ``job`` makes, of their shapes (an empty part passes)."""
    sample = job(0, 1)
    expected = {key: np.shape(value) for key, value in sample.items() if not key.startswith("row_")}
    for label, counts in parts:
        found = {key: np.shape(value) for key, value in counts.items()}
        if found and expected != found:
            raise ResumeRefusedError(
                f"--resume: the counts {label}in {path} do not fit this run's batches "
                f"({_shape_differences(expected, found)})"
            )


def _shape_differences(expected: dict[str, tuple], found: dict[str, tuple]) -> str:
    """``missing: A; not made by this run: B; of another shape: C`` for two key->shape maps."""
    missing = sorted(set(expected) - set(found))
    extra = sorted(set(found) - set(expected))
    shaped = sorted(k for k in set(expected) & set(found) if expected[k] != found[k])
    return "; ".join(
        f"{label}: {', '.join(keys)}"
        for label, keys in (
            ("missing", missing),
            ("not made by this run", extra),
            ("of another shape", shaped),
        )
        if keys
    )


def _check_position(path: Path, state: dict[str, Any], request: RunRequest) -> None:
    """Refuse a position this run's batches cannot reach: the finished batches must hold
    exactly their games, and the batch under way fewer games than it has."""
    batch, size = state["next_batch"], request.batch_size
    partial = state.get("batch_games", 0)
    values = (batch, partial, state["games"])
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise ResumeRefusedError(
            f"--resume: {path} holds no position (next_batch, batch_games and games must be "
            "whole numbers, at least 0); the checkpoint was changed or damaged"
        )
    finished = min(batch * size, request.games)
    under_way = min(size, request.games - batch * size)
    if state["games"] - partial != finished or partial >= max(under_way, 1):
        raise ResumeRefusedError(
            f"--resume: {path} says {state['games']:,} games with {partial:,} of batch "
            f"{batch} under way, which batches of {size:,} games never give; the checkpoint "
            "was changed or damaged"
        )


def _differences(first: dict[str, Any], second: dict[str, Any]) -> str:
    """``key: A here B`` for every key whose values differ, comma-separated."""
    keys = sorted(set(first) | set(second))
    return ", ".join(
        f"{key}: {first.get(key)!r}, here {second.get(key)!r}"
        for key in keys
        if first.get(key) != second.get(key)
    )


def resume_request(
    out: Path, jobs: int, backend: str = "threads", scheduler: str | None = None
) -> RunRequest:
    """Rebuild the request of the interrupted run at ``out`` (workers may differ).

    ``request.json`` is checked against its sha256, and the rebuilt request must give back
    exactly the recorded one, so nothing that fixes the results can be lost or changed.
    """
    out = Path(out)
    record_path = partial_path(out) / REQUEST_FILE
    if not record_path.is_file():
        raise ResumeRefusedError(
            f"--resume: no interrupted run to continue at {out} "
            f"(no {record_path.relative_to(out.parent)})"
        )
    record = read_request_file(record_path)["request"]
    try:
        game = get_game(record["game"])
        mix = None
        if "field" in record:
            from zooanalysis.field_lineup import lineup_of, mix_from_record

            mix = mix_from_record(record["field"], game)
            lineup = lineup_of(mix)
        else:
            lineup = parse_players(record["players"], game)
        settings = game.settings_for_lineup(game.settings_from_table(record["settings"]), lineup)
        request = RunRequest(
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
            rotate_seats=record["rotate_seats"],
            until_ci=record["until_ci"],
            out=out,
            scenario=record["scenario"],
            mix=mix,
        )
    except (KeyError, TypeError) as error:
        raise ResumeRefusedError(
            f"--resume: {record_path} lacks {error} or holds it wrong"
        ) from None
    differences = _differences(record, _request_record(request))
    if differences:
        raise ResumeRefusedError(
            f"--resume: {record_path} does not rebuild to the same request ({differences})"
        )
    return request


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
    lineup = parse_players(players or chosen.default_lineup, chosen)
    check_players_setting(settings or {}, len(lineup), "settings: ")
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
    return lambda chunk: on_progress(chunk.games)


def _rows_frame(batch: Batch, result: BatchResult, batch_size: int) -> pd.DataFrame:
    """One batch's per-game rows as a DataFrame (game number = position in the run; a
    rotated run has one row per game and rotation, column ``rotation``, deal by deal)."""
    first = batch.index * batch_size
    count = next(
        (len(values) for key, values in result.items() if key.startswith("row_")), batch.games
    )
    frame = pd.DataFrame({"game": first + np.arange(count) // (count // batch.games)})
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


def _manifest(request: RunRequest, totals, tables, stop, provenance, record=None) -> dict[str, Any]:
    game = request.game
    commit, machine = provenance()
    until = None
    if request.until_ci is not None:
        until = {
            "target_half_width": request.until_ci,
            "max_games": request.games,
            "reached": bool(stop.reached),
        }
    return {
        "zoosim_version": __version__,
        "git_commit": commit,
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
        **({"field": request.mix.describe()} if request.mix is not None else {}),
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
        "command": record["command"] if record else (request.command or sys.argv),
        **({"resume_commands": record["resume_commands"]} if record else {}),
        "request_sha256": record["sha256"] if record else None,
        "environment": machine,
        "tables": sorted(tables),
    }
