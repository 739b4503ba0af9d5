"""``zoosim report``: the right report for a run, tournament or sweep folder, written once."""

from __future__ import annotations

from pathlib import Path

from zooanalysis.errors import UserError
from zooanalysis.report.html import write_report
from zooanalysis.report.model import ReportDocument
from zooanalysis.report.style import report_style
from zooanalysis.storage import MANIFEST

REPORTS_FOLDER = Path("reports")


def folder_kind(path: Path) -> str:
    """``run``, ``tournament``, ``field`` or ``sweep``; ``UserError`` for anything else."""
    path = Path(path)
    if not path.is_dir():
        raise UserError(f"RUN_DIR: {path} is not a folder; give a run, tournament or sweep folder")
    if (path / "cells.parquet").is_file() and (path / "sweep.json").is_file():
        return "sweep"
    if (path / MANIFEST).is_file():
        from zooanalysis.storage import read_manifest

        kind = read_manifest(path).get("kind")
        if kind in ("tune", "exploit", "psro"):
            raise UserError(
                f"RUN_DIR: {path} is the folder of zoosim {kind}, which has no report; zoosim show "
                "prints it (reports are made of run, tournament, field and sweep folders)"
            )
        return kind if kind in ("tournament", "field") else "run"
    raise UserError(
        f"RUN_DIR: {path} holds no manifest.json and no finished sweep (cells.parquet); "
        "give a folder written by zoosim run, tournament or sweep"
    )


def default_report_folder(source: Path) -> Path:
    """``reports/<name of the source folder>``."""
    return REPORTS_FOLDER / Path(source).resolve().name


def report_document(source: Path) -> ReportDocument:
    """The report of any result folder (figures drawn, nothing written)."""
    kind = folder_kind(source)
    with report_style():
        if kind == "sweep":
            from zooanalysis.report.sweep import sweep_document

            return sweep_document(Path(source))
        from zooanalysis.loading import load_run

        result = load_run(source)
        if kind == "tournament":
            from zooanalysis.report.tournament import tournament_document

            return tournament_document(result)
        if kind == "field":
            from zooanalysis.report.field import field_document

            return field_document(result)
        from zooanalysis.report.run_report import run_document

        return run_document(result)


def build_report(source: Path, out: Path | None = None) -> Path:
    """Write the report of ``source`` to ``out`` (default ``reports/<name>``); returns
    the path of its ``report.html``."""
    target = Path(out) if out is not None else default_report_folder(source)
    check_report_target(target)
    document = report_document(Path(source))
    return write_report(document, target)


def check_report_target(target: Path, option: str = "-o") -> None:
    """Refuse to replace anything but an earlier report, or a folder that cannot be
    written (checked before any work starts); the error names ``option`` (``zoosim run``:
    ``--report-dir``)."""
    from zooanalysis.storage import check_can_create

    target = Path(target)
    if target.exists() and (
        not target.is_dir() or (any(target.iterdir()) and not (target / "report.html").is_file())
    ):
        raise UserError(
            f"{option}: {target} exists and is not a report folder; give another path or "
            "remove it"
        )
    check_can_create(target, option)  # the report is built beside it and renamed into place
