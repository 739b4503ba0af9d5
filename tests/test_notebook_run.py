"""Which run the notebook opens: ``zooanalysis.notebook`` resolves a named run from where
the user started Jupyter, and a missing one is an error, never a fresh simulation."""

from __future__ import annotations

from pathlib import Path

import pytest

from zooanalysis.notebook import named_run, starting_folder


def make_run(folder: Path) -> Path:
    """A folder that looks like a run (named_run checks for the manifest only)."""
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text("{}", encoding="utf-8")
    return folder


@pytest.fixture
def started_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user started Jupyter in tmp_path/repo; the kernel runs in repo/notebooks."""
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    monkeypatch.chdir(repo / "notebooks")
    monkeypatch.setenv("PWD", str(repo))
    monkeypatch.delenv("ZOOSIM_START_DIR", raising=False)
    monkeypatch.delenv("ZOOSIM_RUN", raising=False)
    return repo


def test_a_relative_run_is_read_from_where_jupyter_was_started(
    started_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = make_run(started_in / "runs" / "mine")
    monkeypatch.setenv("ZOOSIM_RUN", "runs/mine")
    assert named_run() == run
    assert named_run("runs/mine") == run  # RUN_DIR set in the notebook: the same rule


def test_zoosim_start_dir_wins_over_pwd(
    started_in: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    run = make_run(elsewhere / "runs" / "mine")
    monkeypatch.setenv("ZOOSIM_START_DIR", str(elsewhere))
    monkeypatch.setenv("ZOOSIM_RUN", "runs/mine")
    assert starting_folder() == elsewhere
    assert named_run() == run


def test_without_a_usable_pwd_the_current_folder_is_the_start(
    started_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PWD", "relative/not/a/start")
    assert starting_folder() == started_in / "notebooks"


def test_an_absolute_run_is_used_as_given(
    started_in: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = make_run(tmp_path / "anywhere")
    monkeypatch.setenv("ZOOSIM_RUN", str(run))
    assert named_run() == run


@pytest.mark.parametrize("where", ["environment", "notebook"])
def test_a_missing_run_is_an_error_naming_the_path_tried(
    where: str, started_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_run(started_in / "notebooks" / "runs" / "mine")  # only where the kernel runs
    if where == "environment":
        monkeypatch.setenv("ZOOSIM_RUN", "runs/mine")
    with pytest.raises(FileNotFoundError) as error:
        named_run("runs/mine" if where == "notebook" else None)
    message = str(error.value)
    assert f"no run at {started_in / 'runs' / 'mine'}" in message
    assert message.startswith("ZOOSIM_RUN: " if where == "environment" else "RUN_DIR: ")


def test_nothing_named_is_none(started_in: Path) -> None:
    assert named_run() is None
