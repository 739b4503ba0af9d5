"""``notebooks/explore.ipynb`` runs top to bottom in a real Jupyter kernel on a small run,
finds a run named relative to where Jupyter was started, and never replaces a missing run."""

from __future__ import annotations

from pathlib import Path

import pytest

import zooanalysis

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "explore.ipynb"


def execute(kernel_folder: Path):
    """Run the notebook with its kernel in ``kernel_folder`` (as Jupyter does: the
    notebook's own folder); the kernel inherits this process's environment."""
    kernel_folder.mkdir(parents=True, exist_ok=True)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(kernel_folder)}},
    )
    client.execute()  # raises CellExecutionError if any cell fails
    return notebook


def test_the_exploration_notebook_runs_on_a_run_named_from_where_jupyter_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = tmp_path / "runs" / "small-run"
    zooanalysis.simulate("bluff", games=4000, seed=5, jobs=1, out=run_dir)
    # `cd tmp_path && ZOOSIM_RUN=runs/small-run jupyter lab`: the shell's PWD is tmp_path,
    # the kernel runs in notebooks/
    monkeypatch.setenv("PWD", str(tmp_path))
    monkeypatch.delenv("ZOOSIM_START_DIR", raising=False)
    monkeypatch.setenv("ZOOSIM_RUN", "runs/small-run")
    notebook = execute(tmp_path / "notebooks")
    outputs = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
    ]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    first = notebook.cells[1].outputs[-1]["data"]["text/plain"]
    assert str(run_dir) in first and "4,000 games" in first  # the run it was given
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3  # two report figures redrawn and one new figure
    tables = [o for o in outputs if "text/html" in o.get("data", {})]
    assert len(tables) >= 5  # the DataFrames
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["small-run"]
    assert list((tmp_path / "notebooks").iterdir()) == []  # nothing simulated beside it


def test_a_missing_run_stops_the_notebook_and_nothing_is_simulated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PWD", str(tmp_path))
    monkeypatch.setenv("ZOOSIM_START_DIR", str(tmp_path))
    monkeypatch.setenv("ZOOSIM_RUN", "runs/typo")
    with pytest.raises(nbclient.exceptions.CellExecutionError) as error:
        execute(tmp_path / "notebooks")
    assert f"no run at {tmp_path / 'runs' / 'typo'}" in str(error.value)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["notebooks"]
