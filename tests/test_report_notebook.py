"""``notebooks/explore.ipynb`` runs top to bottom in a real Jupyter kernel on a small run of
every registered game (each with its own example), on a tournament and on a sweep, finds a
run named relative to where Jupyter was started, and never replaces a missing run."""

from __future__ import annotations

from pathlib import Path

import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.games import game_names

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
    assert len(images) == 4  # two report figures, the doubt heatmap redrawn, one new figure
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


def outputs_of(cell) -> list:
    return list(cell.get("outputs", []))


def explore(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The notebook executed on ``folder`` (named by absolute path), with no error output."""
    monkeypatch.setenv("ZOOSIM_START_DIR", str(tmp_path))
    monkeypatch.setenv("ZOOSIM_RUN", str(folder))
    notebook = execute(tmp_path / "notebooks")
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [o for cell in code for o in outputs_of(cell) if o.get("output_type") == "error"]
    assert not errors
    return code


def shown(cells, condition: str) -> list:
    """Outputs of the code cells guarded by ``condition`` (e.g. ``kind == "sweep"``)."""
    return [o for cell in cells if condition in cell.source for o in outputs_of(cell)]


def images(outputs: list) -> int:
    return sum("image/png" in o.get("data", {}) for o in outputs)


def tables(outputs: list) -> int:
    return sum("text/html" in o.get("data", {}) for o in outputs)


@pytest.mark.slow  # a kernel and a small run per game
@pytest.mark.parametrize("game", game_names())
def test_every_game_has_its_example_and_it_runs(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = tmp_path / "runs" / game
    zooanalysis.simulate(game, games=300, seed=2, jobs=1, out=run_dir)
    cells = explore(run_dir, tmp_path, monkeypatch)
    mine = f'result.game == "{game}"'
    assert [cell for cell in cells if mine in cell.source], f"no notebook example for {game}"
    example = shown(cells, mine)
    assert images(example) >= 1 and tables(example) >= 1  # its tables and a new figure
    for other in game_names():
        if other != game:
            assert not shown(cells, f'result.game == "{other}"')  # other games' stay quiet
    assert tables(shown(cells, 'kind == "run"')) >= 3  # win shares and balance metrics
    assert not images(shown(cells, 'kind == "tournament"') + shown(cells, 'kind == "sweep"'))


@pytest.mark.slow
def test_the_notebook_explores_a_tournament(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "runs" / "tournament"
    assert cli.main(["tournament", "--strategies", "bayes,random", "--games", "4000",
                     "--seed", "3", "--jobs", "1", "--out", str(folder),
                     "--no-progress"]) == 0  # fmt: skip
    cells = explore(folder, tmp_path, monkeypatch)
    first = cells[0].outputs[0]["text"]
    assert first.startswith("Exploring a tournament of bluff")
    mine = shown(cells, 'kind == "tournament"')
    assert tables(mine) >= 3 and images(mine) == 1  # ratings, pairwise, seats; the figure
    assert not images(shown(cells, 'kind == "run"') + shown(cells, 'kind == "sweep"'))


@pytest.mark.slow
def test_the_notebook_explores_a_sweep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(
        'game = "bluff"\ntitle = "Doubt against points"\n'
        'description = "Does doubting more pay when games are longer?"\n[run]\n'
        'players = "bayes,cautious,random"\ngames = "300"\n[grid]\n'
        '"seat1.doubt" = [0.2, 0.6]\n"settings.points_to_end" = [20, 30]\n',
        encoding="utf-8",
    )
    folder = tmp_path / "runs" / "sweep"
    assert cli.main(["sweep", str(sweep), "--out", str(folder), "--jobs", "1"]) == 0
    cells = explore(folder, tmp_path, monkeypatch)
    mine = shown(cells, 'kind == "sweep"')
    text = "".join(o.get("text", "") for o in mine)
    assert "Doubt against points - Does doubting more pay" in text  # its title and question
    # win shares by cell, the rule's effects, the parameter's best settings; a figure each
    assert tables(mine) >= 3 and images(mine) == 2
    assert not images(shown(cells, 'kind == "run"') + shown(cells, 'kind == "tournament"'))
