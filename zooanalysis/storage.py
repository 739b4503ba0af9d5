"""Run directories: ``manifest.json`` plus Parquet tables, written safely.

- **One writer per folder.** An output folder is reserved with :func:`reserve_output`: a
  lock (``flock`` on ``.NAME.lock`` next to it) is held for the whole run or resume, and the
  hidden working folder ``.NAME.partial`` is created exclusively. A second writer gets one
  line naming the process that holds the folder.
- **Nothing half-written.** Everything is written into the working folder, which is renamed
  to the final name only when complete. Every file goes through a temporary file that is
  flushed to disk (``fsync``) and renamed, and the folder is synced after each rename.
- **Failures lose nothing.** A run keeps its working folder, with a checkpoint of its
  counts, on Ctrl-C, SIGTERM and on every failure once it has counts worth keeping, so that
  ``zoosim run --resume NAME`` can finish it; only the user deletes it.
- **Tamper and version evidence.** A manifest records :data:`FORMAT_VERSION` and a sha256 of
  every table; readers check both (see ``zooanalysis.loading.load_run``).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from zooanalysis.errors import UserError
from zooanalysis.lazy_modules import collector_paused
from zooanalysis.lazy_modules import pandas as pd

MANIFEST = "manifest.json"
ROWS_FOLDER = "games"
"""Per-game rows, one Parquet file per batch, when a run asks for them."""
ROWS_CHECKSUMS = "rows_sha256.json"
"""Next to ``games/``: the sha256 of every batch file of per-game rows (itself listed in
the manifest's checksums); ``games/`` holds only Parquet files."""
CHECKPOINT = "checkpoint.npz"
"""A run's counts so far (finished batches, and the batch under way apart) and its
position (``CHECKPOINT_STATE``, JSON), in one file."""
CHECKPOINT_STATE = "__checkpoint_state__"
BATCH_COUNTS = "__batch_under_way__/"
"""Prefix, in a checkpoint, of the counts of the batch under way (played in part)."""
FORMAT_VERSION = 1
"""Version of the layout of result folders (manifest fields, table checksums). A reader
refuses a folder of a version it does not know; folders without one predate versioning."""
KNOWN_FORMAT_VERSIONS = (1,)


class StorageError(UserError):
    """A file that cannot be written or read: one line naming it and the cause."""


class OutputTakenError(UserError):
    """The output path is taken: it exists, or another process is writing it."""


class ResumeRefusedError(UserError):
    """A kept run that cannot be resumed as it is: its checkpoint or request is damaged,
    changed, or made for another request or code."""


def partial_path(path: Path) -> Path:
    """Where a run to ``path`` keeps its work until it completes: ``.NAME.partial``."""
    path = Path(path)
    return path.parent / f".{path.name}.partial"


def lock_path(path: Path) -> Path:
    """The lock file of output ``path``: ``.NAME.lock`` next to it."""
    path = Path(path)
    return path.parent / f".{path.name}.lock"


def discard_hint(path: Path, command: str = "zoosim run") -> str:
    """How to continue or delete the kept work of a run to ``path`` (made by ``command``)."""
    return (
        f"continue it with {command} --resume {path} (or delete the kept work with "
        f"rm -r {partial_path(path)})"
    )


class CommandInterruptedError(Exception):
    """A command stopped by Ctrl-C or SIGTERM that keeps the work it finished; its message
    says what is kept and how to continue (``zoosim`` prints it and exits 130)."""


class RunInterruptedError(CommandInterruptedError):
    """A run stopped by Ctrl-C or SIGTERM whose checkpoint was kept, so it can be resumed."""

    def __init__(
        self,
        path: Path,
        command: str = "zoosim run",
        continue_with: str | None = None,
        written: str = "no results were written",
    ) -> None:
        how = continue_with or f"{command} --resume {path}"
        super().__init__(
            f"interrupted; {written}. Continue it with: {how} (or delete the kept work "
            f"with rm -r {partial_path(path)})"
        )
        self.path = path


def has_kept_work(path: Path) -> bool:
    """Whether an interrupted run to ``path`` left work to resume: a working folder that
    holds something (an empty one is reclaimed by :func:`reserve_output`)."""
    working = partial_path(path)
    return working.is_dir() and not _is_empty(working)


# --- checking that an output can be written ------------------------------------------------


def check_new_run_path(path: Path, option: str = "--out") -> None:
    """Refuse an output path that exists (results are never overwritten) or that cannot be
    created (a file on the way, a read-only or immutable folder)."""
    path = Path(path)
    if path.exists() or path.is_symlink():
        raise OutputTakenError(
            f"{option}: {path} already exists; give a new name or remove it first"
        )
    check_can_create(path, option)


def check_run_can_start(path: Path, command: str = "zoosim run") -> None:
    """Refuse a new run to ``path`` if it exists, cannot be created, or an interrupted run
    of it is waiting (a quick check without reserving; see :func:`reserve_output`, which
    reclaims an empty working folder); ``command`` is what the message says to resume with."""
    check_new_run_path(path)
    working = partial_path(path)
    if working.exists() and not (working.is_dir() and _is_empty(working)):
        raise OutputTakenError(
            f"--out: an interrupted run of {path} exists; {discard_hint(path, command)}"
        )


def check_can_create(path: Path, option: str) -> None:
    """A one-line ``UserError`` unless ``path`` could be created: the nearest existing folder
    on its way must be a folder this process may write in.

    Checked before any work starts, so a run never fails at its end for want of a folder.
    """
    path = Path(path).absolute()
    ancestor = path.parent
    while not ancestor.exists():
        if ancestor.is_symlink():  # a dangling link on the way
            raise UserError(f"{option}: cannot create {path}: {ancestor} is a broken link")
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise UserError(f"{option}: cannot create {path}: {ancestor} is a file, not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise UserError(
            f"{option}: cannot create {path}: the folder {ancestor} is not writable "
            "(read-only, immutable or not yours)"
        )


def _make_parents(path: Path, option: str) -> list[Path]:
    """Create the folders above ``path``, or one ``UserError`` line saying why not; returns
    the folders it created, deepest first (for :func:`_remove_if_empty`)."""
    check_can_create(path, option)
    missing = []
    ancestor = path.parent
    while not ancestor.exists():
        missing.append(ancestor)
        ancestor = ancestor.parent
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{option}: cannot create {path.parent} ({_cause(error)})") from None
    return missing


def _remove_if_empty(folders: list[Path]) -> None:
    """Remove the folders (deepest first) that are still empty: a command that failed leaves
    no folder of its own making behind (``runs/`` for a run refused before its first game)."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (the output, or another process's) or already gone
            return


# --- one writer per folder ------------------------------------------------------------------


@contextmanager
def output_lock(path: Path, option: str = "--out") -> Iterator[None]:
    """Hold the lock of output ``path`` for the block (``flock`` on ``.NAME.lock``).

    Another process (or another thread with its own lock) that holds it makes this fail
    with one :class:`OutputTakenError` line naming its process id. The lock file is removed
    on release; an acquirer checks that the file it locked is still the one at the path.
    """
    path = Path(path)
    created = _make_parents(path, option)
    try:
        with _locked(path, option):
            yield
    finally:
        _remove_if_empty(created)


@contextmanager
def _locked(path: Path, option: str) -> Iterator[None]:
    """Hold the lock file of ``path`` (its folder exists) for the block, then remove it."""
    lock = lock_path(path)
    while True:
        try:
            descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise UserError(f"{option}: cannot create {lock} ({_cause(error)})") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _read_holder(descriptor)
            os.close(descriptor)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputTakenError(
                    f"{option}: {path} is being written by another zoosim process{holder}; "
                    "wait for it to finish or stop it"
                ) from None
            raise UserError(f"{option}: cannot lock {lock} ({_cause(error)})") from None
        try:
            same = os.stat(lock).st_ino == os.fstat(descriptor).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(descriptor)  # released and removed by its last holder meanwhile: again
    try:
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        yield
    finally:
        # a lock file that cannot be removed (its folder made read-only meanwhile) is left:
        # closing releases the lock, and an error here would hide the block's own one
        with suppress(OSError):
            lock.unlink(missing_ok=True)
        os.close(descriptor)


def _read_holder(descriptor: int) -> str:
    """`` (pid N)`` from a lock file, or nothing if it holds no process id yet."""
    try:
        text = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


@dataclass
class OutputFolder:
    """An output folder reserved for this process: work goes into ``working`` and becomes
    ``path`` with :meth:`finish`."""

    path: Path
    working: Path
    resumed: bool = False
    finished: bool = False

    def finish(self) -> None:
        """Make the work the result: sync the working folder, rename it to ``path`` and
        sync the folder that holds it."""
        sync_folder(self.working)
        try:
            os.rename(self.working, self.path)
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot move the finished run there ({_cause(error)})"
            ) from None
        sync_folder(self.path.parent)
        self.finished = True


@contextmanager
def reserve_output(
    path: Path,
    *,
    option: str = "--out",
    resume: bool = False,
    resumable: bool = True,
    unique: bool = False,
    command: str = "zoosim run",
) -> Iterator[OutputFolder]:
    """Reserve output ``path`` for the block: lock it, check it, create its working folder.

    A new output refuses an existing ``path`` or working folder (``unique``: tries
    ``path-2``, ``path-3`` ... instead, for default names); ``resume`` needs the working
    folder. The lock is held until the block ends. The block calls
    :meth:`OutputFolder.finish` once its work is complete.

    When the block fails, a ``resumable`` run keeps its working folder: on Ctrl-C or
    SIGTERM always (:class:`RunInterruptedError`), otherwise when it is resumed or holds a
    checkpoint, and the error line then says how to continue or delete it. Anything else is
    removed: a failure leaves no partial output. ``command`` is what the messages tell the
    user to resume with.
    """
    path = Path(path)
    with ExitStack() as stack:
        candidate = path
        for number in range(2, 10_000):
            try:
                stack.enter_context(output_lock(candidate, option))
                folder = _claim(candidate, option, resume, resumable, command)
                break
            except OutputTakenError:
                stack.close()
                if not unique:
                    raise
                candidate = path.with_name(f"{path.name}-{number}")
        else:  # pragma: no cover - ten thousand runs of one name in one second
            raise UserError(f"{option}: no free name like {path}")
        try:
            yield folder
        except KeyboardInterrupt:
            if not resumable or (not resume and _is_empty(folder.working)):
                shutil.rmtree(folder.working, ignore_errors=True)  # nothing to resume
                raise
            raise RunInterruptedError(folder.path, command) from None
        except BaseException as error:
            if folder.finished:
                raise
            keep = resumable and (resume or (folder.working / CHECKPOINT).is_file())
            if not keep:
                shutil.rmtree(folder.working, ignore_errors=True)
                if isinstance(error, OSError):
                    raise StorageError(_oserror_line(error)) from None
                raise
            if isinstance(error, ResumeRefusedError):
                raise UserError(
                    f"{error}; nothing was changed: the kept work is in {folder.working} "
                    f"(delete it with rm -r {folder.working} to give the run up)"
                ) from None
            if isinstance(error, UserError):
                raise UserError(
                    f"{error}; the work so far is kept: {discard_hint(folder.path, command)}"
                ) from None
            if isinstance(error, OSError):
                raise StorageError(
                    f"{_oserror_line(error)}; the work so far is kept: "
                    f"{discard_hint(folder.path, command)}"
                ) from None
            raise


def _reclaim_if_empty(working: Path) -> bool:
    """Remove an empty working folder found under the output's lock; whether one was.

    Its writer is gone (the lock is ours) and was killed (SIGKILL, power loss) before it
    saved anything: between creating the folder and writing its request, while compiling.
    An empty folder holds nothing to resume, so it must not block the output's name; a
    folder holding anything is left to the user."""
    if not working.is_dir() or working.is_symlink():
        return False
    try:
        working.rmdir()  # only ever removes an empty folder
    except OSError:
        return False
    return True


def _is_empty(folder: Path) -> bool:
    try:
        return not any(folder.iterdir())
    except OSError:
        return False


def _claim(
    path: Path, option: str, resume: bool, resumable: bool, command: str = "zoosim run"
) -> OutputFolder:
    """Check ``path`` under its lock and create (or, resuming, find) its working folder."""
    working = partial_path(path)
    if path.exists() or path.is_symlink():
        raise OutputTakenError(
            f"{option}: {path} already exists; give a new name or remove it first"
        )
    if _reclaim_if_empty(working) and resume:
        raise UserError(
            f"--resume: the run to {path} was stopped before it saved anything (its "
            f"{working.name} folder was empty and is removed); start it again as it was started"
        )
    if resume:
        if not working.is_dir():
            raise UserError(
                f"--resume: no interrupted run to continue at {path} "
                f"(no {working.name} folder next to it)"
            )
        return OutputFolder(path, working, resumed=True)
    if working.exists():
        if resumable:
            raise OutputTakenError(
                f"{option}: an interrupted run of {path} exists; {discard_hint(path, command)}"
            )
        raise OutputTakenError(
            f"{option}: {working} was left by an interrupted zoosim; delete it with "
            f"rm -r {working} and start again"
        )
    try:
        working.mkdir()
    except FileExistsError:
        raise OutputTakenError(f"{option}: {working} appeared meanwhile; try again") from None
    except OSError as error:
        raise UserError(f"{option}: cannot create {working} ({_cause(error)})") from None
    return OutputFolder(path, working)


@contextmanager
def resumable_directory(path: Path, resume: bool = False, keep_on_interrupt: bool = True):
    """Yield the working folder of a run that becomes ``path`` when the block completes
    (see :func:`reserve_output`; ``keep_on_interrupt=False``: work that cannot be resumed)."""
    option = "--resume" if resume else "--out"
    with reserve_output(path, option=option, resume=resume, resumable=keep_on_interrupt) as out:
        yield out.working
        out.finish()


# --- durable writing -----------------------------------------------------------------------


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (new and renamed files) to disk."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise StorageError(f"{folder}: cannot open the folder ({_cause(error)})") from None
    try:
        os.fsync(descriptor)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):  # some file systems cannot
            raise StorageError(f"{folder}: cannot sync the folder ({_cause(error)})") from None
    finally:
        os.close(descriptor)


def write_file_durably(path: Path, data: bytes, sync_parent: bool = True) -> str:
    """Write ``data`` as ``path`` so that neither a reader nor a crash ever sees half of it:
    a temporary file, flushed to disk, renamed, then the folder synced (unless the caller
    syncs it once after several files: ``sync_parent=False``). Returns the data's sha256;
    a failure (full disk ...) is one :class:`StorageError` line naming the file."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise StorageError(f"{path}: cannot write ({_cause(error)})") from None
    if sync_parent:
        sync_folder(path.parent)
    return sha256(data)


def sha256(data: bytes) -> str:
    """The hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def json_bytes(data: Any) -> bytes:
    """``data`` as indented UTF-8 JSON with a final newline."""
    return (json.dumps(data, indent=2, default=str) + "\n").encode("utf-8")


def write_json_atomically(path: Path, data: Mapping[str, Any]) -> str:
    """Write JSON durably (see :func:`write_file_durably`); returns its sha256."""
    return write_file_durably(path, json_bytes(dict(data)))


def parquet_bytes(table: pd.DataFrame) -> bytes:
    """A table as the bytes of a Parquet file (no index)."""
    buffer = io.BytesIO()
    table.to_parquet(buffer, index=False)
    return buffer.getvalue()


def write_table(path: Path, table: pd.DataFrame, sync_parent: bool = True) -> str:
    """Write one table as a Parquet file durably; returns its sha256."""
    return write_file_durably(path, parquet_bytes(table), sync_parent)


TABLE_WRITERS = 4
"""Threads that encode and write a run's tables at once: encoding (Arrow) and flushing to
disk (``fsync``) release the GIL, and a run's end waits for every table's flush."""


FREEZE_BACKGROUND_IMPORTS = False
"""Whether :func:`import_parquet_in_background` freezes what is alive once it imported out of
the cyclic garbage collector (``lazy_modules.collector_paused``): set by the ``zoosim``
command, whose process ends with the command (``cli.main``), never in another process."""


def import_parquet_in_background() -> threading.Thread:
    """Import the Parquet writer on a thread of its own, so that a run that plays for a
    while does not wait for it at its end (where it is all that runs); returns the thread.

    The cyclic garbage collector is paused meanwhile (``lazy_modules.collector_paused``)."""

    def load() -> None:
        with collector_paused(FREEZE_BACKGROUND_IMPORTS), suppress(ImportError):
            import pandas.io.parquet  # noqa: F401
            import pyarrow.parquet  # noqa: F401

    thread = threading.Thread(target=load, name="zoosim-import-parquet")
    thread.start()
    return thread


def write_tables(folder: Path, tables: Mapping[str, pd.DataFrame]) -> dict[str, str]:
    """Write each table as ``<name>.parquet`` in ``folder``; returns ``{file name: sha256}``
    (in the tables' order).

    Each file is written durably (temporary file, flushed, renamed) by one of
    :data:`TABLE_WRITERS` threads, so the flushes overlap instead of queueing; the folder is
    synced once after them all. The first failure is raised once every writer has stopped.
    """
    folder = Path(folder)
    names = list(tables)

    def write(name: str) -> str:
        return write_table(folder / f"{name}.parquet", tables[name], False)

    if len(names) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(min(TABLE_WRITERS, len(names))) as pool:
            futures = [pool.submit(write, name) for name in names]
        digests = [future.result() for future in futures]
    else:
        digests = [write(name) for name in names]
    sync_folder(folder)
    return {f"{name}.parquet": digest for name, digest in zip(names, digests, strict=True)}


def as_read_back(tables: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables as :func:`write_tables` stores them, without reading the files: a table
    whose index is not the default one loses it (tables are written without their index)."""
    return {
        name: table if _default_index(table.index) else table.reset_index(drop=True)
        for name, table in tables.items()
    }


def _default_index(index: pd.Index) -> bool:
    return (
        isinstance(index, pd.RangeIndex)
        and index.start == 0
        and index.step == 1
        and index.name is None
    )


MANIFEST_SHA256 = "manifest_sha256"
"""A versioned manifest's seal: the sha256 of the rest of it (:func:`manifest_seal`), so a
manifest edited by hand (a seed, a lineup, a setting, a checksum) is refused as tables
changed since they were written are."""


def manifest_seal(manifest: Mapping[str, Any]) -> str:
    """The sha256 of a manifest as read back from JSON (keys sorted, compact), its seal
    left out."""
    content = json.loads(json.dumps(dict(manifest), default=str))
    content.pop(MANIFEST_SHA256, None)
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return sha256(text.encode("utf-8"))


def write_manifest(folder: Path, manifest: dict[str, Any], name: str = MANIFEST) -> None:
    """Write ``manifest.json`` (or a sweep's ``name``) durably (indented, UTF-8); a
    versioned manifest (see :func:`stamped`) gets its seal (:data:`MANIFEST_SHA256`), added
    to ``manifest`` too so the caller holds what was written."""
    if "format_version" in manifest:
        manifest[MANIFEST_SHA256] = manifest_seal(manifest)
    write_json_atomically(Path(folder) / name, manifest)


def stamped(manifest: Mapping[str, Any], checksums: Mapping[str, str]) -> dict[str, Any]:
    """``manifest`` with the folder's format version and the sha256 of every file."""
    return {"format_version": FORMAT_VERSION, **manifest, "checksums": dict(checksums)}


# --- checkpoints -----------------------------------------------------------------------------


@dataclass
class Checkpoint:
    """A run's saved state: the summed counts of its finished batches, the counts of the
    batch under way (empty if none) and the position, JSON (``next_batch``: the batch under
    way, ``batch_games``: its games played, ``games``: every game played, ...)."""

    totals: dict[str, np.ndarray]
    state: dict[str, Any]
    batch_counts: dict[str, np.ndarray]


def write_checkpoint(
    folder: Path,
    totals: Mapping[str, np.ndarray],
    state: Mapping[str, Any],
    batch_counts: Mapping[str, np.ndarray] | None = None,
) -> None:
    """Save a run's summed counts (and those of the batch under way) and where it stands,
    together in one file replaced atomically (and flushed to disk), so a killed process
    never leaves counts and position out of step."""
    buffer = io.BytesIO()
    position = np.frombuffer(json.dumps(dict(state)).encode("utf-8"), dtype=np.uint8)
    under_way = {f"{BATCH_COUNTS}{key}": value for key, value in (batch_counts or {}).items()}
    np.savez_compressed(buffer, **totals, **under_way, **{CHECKPOINT_STATE: position})
    write_file_durably(Path(folder) / CHECKPOINT, buffer.getvalue())


def load_checkpoint(folder: Path) -> Checkpoint:
    """The last checkpoint in ``folder`` (a fresh one if none yet).

    A damaged checkpoint (truncated, empty, flipped bytes ...) is one :class:`StorageError`
    line naming the file and the cause.
    """
    path = Path(folder) / CHECKPOINT
    if not path.is_file():
        fresh = {"next_batch": 0, "batch_games": 0, "games": 0, "wall_seconds": 0.0}
        return Checkpoint({}, fresh, {})
    try:
        with np.load(path, allow_pickle=False) as stored:
            if CHECKPOINT_STATE not in stored.files:
                raise ValueError("it holds no position")
            state = json.loads(stored[CHECKPOINT_STATE].tobytes().decode("utf-8"))
            arrays = {key: stored[key].copy() for key in stored.files if key != CHECKPOINT_STATE}
        if not isinstance(state, dict) or not {"next_batch", "games"} <= set(state):
            raise ValueError("its position is incomplete")
        state.setdefault("batch_games", 0)
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile, zlib.error) as error:
        if isinstance(error, OSError) and not isinstance(error, zipfile.BadZipFile):
            cause = _cause(error)
        else:
            cause = _damage(error)
        raise ResumeRefusedError(f"{path}: the checkpoint is damaged ({cause})") from None
    totals = {key: value for key, value in arrays.items() if not key.startswith(BATCH_COUNTS)}
    under_way = {
        key.removeprefix(BATCH_COUNTS): value
        for key, value in arrays.items()
        if key.startswith(BATCH_COUNTS)
    }
    return Checkpoint(totals, state, under_way)


def read_checkpoint(folder: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The counts of the finished batches and the state of the last checkpoint ({} and a
    fresh state if none yet); see :func:`load_checkpoint` for the batch under way."""
    checkpoint = load_checkpoint(folder)
    return checkpoint.totals, checkpoint.state


# --- reading ---------------------------------------------------------------------------------


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of the run in ``path``; ``UserError`` if it is not a run directory."""
    manifest_path = Path(path) / MANIFEST
    if not manifest_path.is_file():
        raise UserError(f"{path}: not a zoosim run directory (no {MANIFEST})")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise UserError(f"{manifest_path}: unreadable manifest ({error})") from None
    except OSError as error:
        raise StorageError(f"{manifest_path}: cannot read ({_cause(error)})") from None
    if not isinstance(manifest, dict):
        raise UserError(f"{manifest_path}: unreadable manifest (not a JSON object)")
    return manifest


def check_format_version(manifest: Mapping[str, Any], where: Path) -> bool:
    """Whether the folder records a format version (and so checksums); ``UserError`` for
    one this zoosim does not know."""
    version = manifest.get("format_version")
    if version is None:
        return False
    if version not in KNOWN_FORMAT_VERSIONS or isinstance(version, bool):
        raise UserError(
            f"{where}: format version {version!r} is not one this zoosim reads "
            f"({', '.join(map(str, KNOWN_FORMAT_VERSIONS))}); was it written by a newer "
            "zoosim? Read it with that version"
        )
    sealed = manifest.get(MANIFEST_SHA256)
    if sealed is not None and sealed != manifest_seal(manifest):
        raise UserError(
            f"{where}: edited or damaged since it was written (its contents do not match "
            f"the {MANIFEST_SHA256} it records); use the folder as zoosim wrote it"
        )
    return True


def read_verified(path: Path, expected: str | None) -> bytes:
    """The bytes of ``path``, checked against the sha256 ``expected`` (None: unchecked).

    A missing, unreadable or changed file is one :class:`StorageError` line naming it.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise StorageError(f"{path}: missing (the manifest lists it)") from None
    except OSError as error:
        raise StorageError(f"{path}: cannot read ({_cause(error)})") from None
    if expected is not None and sha256(data) != expected:
        raise StorageError(
            f"{path}: damaged or changed since it was written (its sha256 does not match "
            "the manifest's)"
        )
    return data


def parse_table(data: bytes, path: Path, **options: Any) -> pd.DataFrame:
    """A Parquet file's bytes as a DataFrame; unreadable bytes are one line naming ``path``.

    ``options`` go to ``pyarrow.parquet.read_table`` (``columns``, ``filters``).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(pa.BufferReader(arrow_owned(data)), **options).to_pandas()
    except (pa.ArrowException, OSError, ValueError, KeyError) as error:
        if options:  # the bytes were checked: most likely a column or filter it lacks
            raise UserError(f"{path}: cannot read the rows asked for ({_damage(error)})") from None
        raise StorageError(f"{path}: not a readable Parquet table ({_damage(error)})") from None


def arrow_owned(data: bytes) -> Any:
    """A copy of ``data`` in a buffer Arrow allocated, for Arrow to read from.

    Read from a Python file object (``io.BytesIO``), Arrow's I/O threads call back into
    Python to read (measured: half the reads of a table ran on a thread Python did not
    start), and a buffer over the ``bytes`` (``pa.py_buffer``) releases them under the GIL
    on whichever thread drops it last: either way a native thread takes the GIL. At
    interpreter exit CPython 3.11 ends such a thread with ``pthread_exit``
    (python/cpython#87135), whose unwinding through Arrow's ``noexcept`` thread code calls
    ``std::terminate``: "terminate called without an active exception", exit -6
    (apache/arrow#34314: the aborting thread was an Arrow pool worker running pyarrow's
    Python-bridge code). From a buffer of Arrow's own no Arrow thread touches Python; the
    result is a ``pyarrow.Buffer``. The copy costs one memcpy of a
    table that is read whole anyway."""
    import pyarrow as pa

    buffer = pa.allocate_buffer(len(data))
    memoryview(buffer).cast("B")[:] = data
    return buffer


def read_table_file(path: Path, expected: str | None = None) -> pd.DataFrame:
    """Read one Parquet table, checked against its sha256 if given; one line if damaged."""
    return parse_table(read_verified(path, expected), Path(path))


# --- provenance ------------------------------------------------------------------------------


def git_commit() -> str:
    """The commit of the zoosim checkout this code runs from, or ``unknown``."""
    source = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(source), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(source), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{commit}-dirty" if dirty else commit


def provenance_in_background() -> Callable[[], tuple[str, dict[str, str]]]:
    """Start finding :func:`git_commit` and :func:`environment` on a thread of their own
    (git is two subprocesses: waiting, not working, which a run need not do at its end);
    returns the function that waits for them: ``(commit, environment)``."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1, thread_name_prefix="zoosim-provenance")
    future = pool.submit(lambda: (git_commit(), environment()))
    pool.shutdown(wait=False)
    return future.result


def environment() -> dict[str, str]:
    """Versions and machine facts recorded with every run."""
    from importlib.metadata import version  # not joblib nor pandas themselves: slow imports

    import numba
    import numpy

    return {
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "pandas": version("pandas"),
        "joblib": version("joblib"),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "cpu_count": str(os.cpu_count()),
    }


def utc_now() -> str:
    """The current time as an ISO 8601 UTC timestamp."""
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- messages --------------------------------------------------------------------------------


def _cause(error: OSError) -> str:
    """An OSError's reason without the file name (the caller names the file)."""
    return error.strerror or type(error).__name__


def _damage(error: BaseException) -> str:
    """A decoding error's message on one line."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _oserror_line(error: OSError) -> str:
    """An OSError as ``FILE: cannot write (REASON)`` or its reason alone."""
    if error.filename:
        return f"{error.filename}: {_cause(error)}"
    return _cause(error)
