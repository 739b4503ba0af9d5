"""``zoosim field --reanalyse FOLDER``: solve a stored field again, without replaying it.

A field folder keeps every composition's counts per batch of deals (``batches``), so its
meta-game can be solved again with today's solver (``zooanalysis.field_analysis.analyse``,
with the folder's seed, bootstrap, alpha-Rank settings and replicator steps). The solution's
tables (``payoffs``, ``equilibrium``, ``convergence``) and the manifest's ``solution`` are
rewritten; the games' tables are kept byte for byte. The manifest keeps the play's
provenance and appends a ``reanalysed`` record (when, by which zoosim and commit, and the
solution it replaced).

The ladder's search rung (``zooanalysis.ladder_search``) is kept when it was played against
the same top rung as the new solution's ladder, dropped (and said so) otherwise, and played
afresh with ``--search-games N``.

The rewrite is atomic: under the folder's lock a complete copy (unchanged files hard-linked)
is written beside it as ``.NAME.reanalyse`` with new checksums, then exchanged with the
folder in one ``renameat2(RENAME_EXCHANGE)`` (where the system lacks it: two renames), and
the old copy removed. A reader sees the old folder or the new one, never a mix.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zooanalysis.errors import UserError

OPTION = "--reanalyse"
REPLACED = ("kept", "nash_conv", "nash_conv_ci", "weights")
"""What the ``reanalysed`` record keeps of the solution it replaced."""
TOLERANCE = 1e-9
"""Mix weights closer than this are the same top rung (the stored search rung is kept)."""


def reanalyse_field(
    path: Path,
    search_deals: int = 0,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[Any, list[str]]:
    """Solve the field at ``path`` again and rewrite its analysis atomically; returns the
    rewritten field (loaded back, checked) and notes for the user (what happened to the
    search rung). ``UserError`` (one line) for a path that is not a finished field."""
    from zooanalysis.storage import output_lock

    path = Path(path)
    check_reanalysable(path, search_deals)
    with output_lock(path, OPTION):
        field = check_reanalysable(path, search_deals)
        manifest, tables, notes = reanalysed(field, search_deals, jobs, on_progress)
        _rewrite(path, manifest, tables, dict(field.manifest.get("checksums") or {}))
    return _load_field(path), notes


def check_reanalysable(path: Path, search_deals: int = 0):
    """The finished field at ``path``, checked; ``UserError`` (one line) for anything else,
    or for ``search_deals`` > 0 where its game cannot have a search rung."""
    from zooanalysis.games import get_game
    from zooanalysis.ladder_search import check_search_deals

    if not (path / "manifest.json").is_file():
        raise UserError(
            f"{OPTION}: {path} is not a field folder (no manifest.json there); give a folder "
            "written by zoosim field"
        )
    field = _load_field(path)
    game = get_game(field.manifest["game"])
    settings = game.settings_from_table(field.manifest["settings"])
    check_search_deals(game, settings, int(field.manifest["seats"]), search_deals)
    return field


def _load_field(path: Path):
    """The field at ``path``, checked; ``UserError`` naming ``--reanalyse`` otherwise."""
    from zooanalysis.field import FieldResult
    from zooanalysis.loading import load_run

    try:
        field = load_run(path)
    except UserError as error:
        raise UserError(f"{OPTION}: {error}") from None
    if not isinstance(field, FieldResult):
        raise UserError(
            f"{OPTION}: {path} is not a field folder (it holds a "
            f"{field.manifest.get('kind') or 'run'}); give a folder written by zoosim field"
        )
    return field


def reanalysed(
    field,
    search_deals: int = 0,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The field's manifest, its changed tables (a table mapped to None is dropped) and
    notes, solved again from its stored counts."""
    from zooanalysis.field import FieldResult, analysis_tables, solution_record
    from zooanalysis.field_analysis import analyse, field_arrays
    from zooanalysis.ladder_search import TABLE, search_rung, top_opponents
    from zooanalysis.storage import git_commit, utc_now
    from zooanalysis.version import __version__

    m = field.manifest
    labels = list(m["population"])
    counts, shares, seat_games = field_arrays(field)
    try:
        iterations = int(m["solution"]["iterations"])
        options = (int(m["seed"]), int(m["bootstrap"]), float(m["alpha"]),
                   int(m["alpha_population"]))  # fmt: skip
    except (KeyError, TypeError, ValueError) as error:
        raise UserError(
            f"{OPTION}: {field.path}/manifest.json lacks {error} or holds it wrong; this "
            "zoosim cannot solve that field again"
        ) from None
    analysis = analyse(counts, shares, seat_games, labels, *options, iterations)
    old = m["solution"]
    manifest = {key: value for key, value in m.items() if key != "checksums"}
    manifest["solution"] = solution_record(analysis, labels, iterations)
    manifest["reanalysed"] = [
        *m.get("reanalysed", []),
        {
            "created": utc_now(),
            "zoosim_version": __version__,
            "git_commit": git_commit(),
            "command": list(sys.argv),
            "replaced": {key: old.get(key) for key in REPLACED},
        },
    ]
    tables: dict[str, Any] = dict(analysis_tables(analysis))
    notes: list[str] = []
    solved = FieldResult(manifest, {**{n: field.table(n) for n in ("batches", "compositions")},
                                    **tables})  # fmt: skip
    if search_deals > 0:
        table, entry = search_rung(solved, search_deals, jobs, on_progress)
        manifest["ladder_search"] = entry
        if table is None:
            notes.append(f"No search rung: {entry['none']}.")
            tables[TABLE] = None
        else:
            tables[TABLE] = table
            notes.append(f"Search rung played: {entry['deals']:,} deals against {entry['versus']}.")
    elif TABLE in field.table_names:
        from zooanalysis.games import get_game

        stored = json.loads(field.table(TABLE)["versus_mix"].iloc[0])
        now = top_opponents(solved, get_game(m["game"])).record()
        if _same_mix(stored, now):
            notes.append("The stored search rung was played against the same top rung: kept.")
        else:
            tables[TABLE] = None
            manifest.pop("ladder_search", None)
            notes.append(
                f"The stored search rung was played against {_mix_text(stored)}; the new "
                f"ladder's top rung is {_mix_text(now)}: dropped (--search-games N plays it "
                "again)."
            )
    names = set(manifest["tables"]) | {n for n, t in tables.items() if t is not None}
    manifest["tables"] = sorted(names - {n for n, t in tables.items() if t is None})
    return manifest, tables, notes


def _same_mix(first: dict[str, float], second: dict[str, float]) -> bool:
    return set(first) == set(second) and all(abs(first[k] - second[k]) <= TOLERANCE for k in first)


def _mix_text(mix: dict[str, float]) -> str:
    return ", ".join(f"{label} {100 * weight:.1f}%" for label, weight in mix.items())


def _rewrite(
    path: Path, manifest: dict[str, Any], tables: dict[str, Any], stored: dict[str, str]
) -> None:
    """Write the folder's new state beside it and exchange the two (see the module
    docstring); the old state is removed. ``stored``: the sha256 of every file the folder's
    manifest lists, as loaded (the unchanged files keep theirs)."""
    from zooanalysis.storage import (
        StorageError,
        stamped,
        sync_folder,
        write_manifest,
        write_tables,
    )

    working = path.with_name(f".{path.name}.reanalyse")
    shutil.rmtree(working, ignore_errors=True)  # left by a killed reanalysis: ours (locked)
    try:
        shutil.copytree(path, working, copy_function=_link_or_copy)
        checksums = {
            file: digest
            for file, digest in stored.items()
            if file.removesuffix(".parquet") not in tables
        }
        for name, table in tables.items():
            if table is None:
                (working / f"{name}.parquet").unlink(missing_ok=True)
        checksums.update(write_tables(working, {n: t for n, t in tables.items() if t is not None}))
        write_manifest(working, stamped(manifest, dict(sorted(checksums.items()))))
        sync_folder(working)
        _exchange(working, path)
        sync_folder(path.parent)
    except OSError as error:
        raise StorageError(
            f"{OPTION}: cannot rewrite {path} ({error.strerror or error}); the folder is unchanged"
        ) from None
    finally:
        shutil.rmtree(working, ignore_errors=True)


def _link_or_copy(source: str, target: str) -> None:
    """Hard-link an unchanged file (files are only ever replaced, never written in place);
    copy where links are not possible."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


RENAME_EXCHANGE = 2


def _exchange(first: Path, second: Path) -> None:
    """Swap two folders atomically (``renameat2`` with ``RENAME_EXCHANGE``); without it,
    move ``second`` aside, ``first`` in, and the old one to ``first``'s name."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        renameat2 = None
    if renameat2 is not None:
        at_cwd = -100
        done = renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second),
                         RENAME_EXCHANGE)  # fmt: skip
        if done == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
            raise OSError(code, os.strerror(code), str(second))
    aside = second.with_name(f".{second.name}.previous")
    os.rename(second, aside)
    os.rename(first, second)
    os.rename(aside, first)
