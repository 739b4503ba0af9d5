"""Run directories: ``manifest.json`` plus Parquet tables, written atomically.

Everything is written into a hidden sibling folder that is renamed to the final name only
when complete, so an interrupted or failed run leaves no half-written result.
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

import pandas as pd

from zooanalysis.errors import UserError

MANIFEST = "manifest.json"
ROWS_FOLDER = "games"
"""Per-game rows, one Parquet file per batch, when a run asks for them."""


def check_new_run_path(path: Path, option: str = "--out") -> None:
    """Refuse an output path that already exists (runs are never overwritten)."""
    if path.exists():
        raise UserError(f"{option}: {path} already exists; give a new name or remove it first")


@contextmanager
def atomic_directory(path: Path):
    """Yield a temporary folder that becomes ``path`` only if the block completes.

    On any exception (including KeyboardInterrupt) the temporary folder is removed.
    """
    check_new_run_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{path.name}.incomplete-{os.getpid()}"
    if temporary.exists():
        shutil.rmtree(temporary)
    temporary.mkdir()
    try:
        yield temporary
        os.rename(temporary, path)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


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
