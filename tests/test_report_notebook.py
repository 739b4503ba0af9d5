"""``notebooks/explore.ipynb`` runs top to bottom in a real Jupyter kernel on a small run."""

from __future__ import annotations

from pathlib import Path

import pytest

import zooanalysis

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "explore.ipynb"


def test_the_exploration_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = tmp_path / "small-run"
    zooanalysis.simulate("bluff", games=4000, seed=5, jobs=1, out=run_dir)
    monkeypatch.setenv("ZOOSIM_RUN", str(run_dir))  # the kernel inherits the environment
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError if any cell fails
    outputs = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
    ]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3  # two report figures redrawn and one new figure
    tables = [o for o in outputs if "text/html" in o.get("data", {})]
    assert len(tables) >= 5  # the DataFrames
    assert not (tmp_path / "runs").exists()  # it used the run it was given
