"""Run directories: ``manifest.json`` plus Parquet tables, written atomically.

Everything is written into a hidden sibling folder (``.NAME.partial``) that is renamed to
the final name only when complete, so an interrupted or failed run leaves no half-written
result. A failed run removes the folder; an interrupted one keeps it, with a checkpoint of
its counts, so that ``zoosim run --resume NAME`` can finish it.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.errors import UserError

MANIFEST = "manifest.json"
ROWS_FOLDER = "games"
CHECKPOINT = "checkpoint.npz"
"""A run's counts so far and its position (``CHECKPOINT_STATE``, JSON), in one file."""
CHECKPOINT_STATE = "__checkpoint_state__"
"""Per-game rows, one Parquet file per batch, when a run asks for them."""


def check_new_run_path(path: Path, option: str = "--out") -> None:
    """Refuse an output path that already exists (runs are never overwritten)."""
    if path.exists():
        raise UserError(f"{option}: {path} already exists; give a new name or remove it first")


def partial_path(path: Path) -> Path:
    """Where a run to ``path`` keeps its work until it completes: ``.NAME.partial``."""
    return path.parent / f".{path.name}.partial"


class RunInterruptedError(Exception):
    """A run stopped by Ctrl-C whose checkpoint was kept, so it can be resumed."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"interrupted; no results were written. Continue it with: zoosim run "
            f"--resume {path} (or delete {partial_path(path)})"
        )
        self.path = path


def check_run_can_start(path: Path) -> None:
    """Refuse a new run to ``path`` if it exists or an interrupted run of it is waiting."""
    check_new_run_path(path)
    working = partial_path(path)
    if working.exists():
        raise UserError(
            f"--out: an interrupted run of {path} exists; continue it with "
            f"zoosim run --resume {path}, or delete {working}"
        )


@contextmanager
def resumable_directory(path: Path, resume: bool = False, keep_on_interrupt: bool = True):
    """Yield the hidden working folder of a run that becomes ``path`` when complete.

    A new run refuses an existing ``path`` or working folder; ``resume`` needs the working
    folder. If the block is interrupted (KeyboardInterrupt) the folder is kept, with its
    checkpoint, and :class:`RunInterruptedError` is raised, unless ``keep_on_interrupt`` is
    false (work that cannot be resumed is removed); any other failure removes it.
    """
    check_new_run_path(path, "--resume" if resume else "--out")
    working = partial_path(path)
    if resume and not working.is_dir():
        raise UserError(
            f"--resume: no interrupted run to continue at {path} "
            f"(no {working.name} folder next to it)"
        )
    if not resume and working.exists():
        raise UserError(
            f"--out: an interrupted run of {path} exists; continue it with "
            f"zoosim run --resume {path}, or delete {working}"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    working.mkdir(exist_ok=True)
    try:
        yield working
        os.rename(working, path)
    except KeyboardInterrupt:
        if not keep_on_interrupt:
            shutil.rmtree(working, ignore_errors=True)
            raise
        raise RunInterruptedError(path) from None
    except BaseException:
        shutil.rmtree(working, ignore_errors=True)
        raise


def write_json_atomically(path: Path, data: Mapping[str, Any]) -> None:
    """Write JSON so that a reader never sees half a file (write, then rename)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def write_checkpoint(
    folder: Path, totals: Mapping[str, np.ndarray], state: Mapping[str, Any]
) -> None:
    """Save a run's summed counts and where it stands, together in one file replaced
    atomically, so a killed process never leaves counts and position out of step."""
    temporary = folder / "checkpoint.tmp.npz"
    position = np.frombuffer(json.dumps(dict(state)).encode("utf-8"), dtype=np.uint8)
    np.savez(temporary, **totals, **{CHECKPOINT_STATE: position})
    os.replace(temporary, folder / CHECKPOINT)


def read_checkpoint(folder: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The counts and state of the last checkpoint ({} and a fresh state if none yet)."""
    path = folder / CHECKPOINT
    if not path.is_file():
        return {}, {"next_batch": 0, "games": 0, "wall_seconds": 0.0}
    with np.load(path) as stored:
        state = json.loads(stored[CHECKPOINT_STATE].tobytes().decode("utf-8"))
        totals = {key: stored[key].copy() for key in stored.files if key != CHECKPOINT_STATE}
    return totals, state


def write_tables(folder: Path, tables: Mapping[str, pd.DataFrame]) -> None:
    """Write each table as ``<name>.parquet`` in ``folder``."""
    for name, table in tables.items():
        table.to_parquet(folder / f"{name}.parquet", index=False)


def write_manifest(folder: Path, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest.json`` (indented, UTF-8)."""
    (folder / MANIFEST).write_text(
        json.dumps(manifest, indent=2, default=str) + "\n", encoding="utf-8"
    )


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of the run in ``path``; ``UserError`` if it is not a run directory."""
    manifest_path = Path(path) / MANIFEST
    if not manifest_path.is_file():
        raise UserError(f"{path}: not a zoosim run directory (no {MANIFEST})")
    try:
        return json.loads(manifest_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise UserError(f"{manifest_path}: unreadable manifest ({error})") from None


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


def environment() -> dict[str, str]:
    """Versions and machine facts recorded with every run."""
    import joblib
    import numba
    import numpy

    return {
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "joblib": joblib.__version__,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "cpu_count": str(os.cpu_count()),
    }


def utc_now() -> str:
    """The current time as an ISO 8601 UTC timestamp."""
    return datetime.now(UTC).isoformat(timespec="seconds")
