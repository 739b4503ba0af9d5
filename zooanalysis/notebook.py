"""Which run, tournament or sweep a notebook opens: the one the user named, found from where
they started.

Jupyter starts a notebook's kernel in the notebook's folder (``notebooks/``), not in the
folder where the user typed ``ZOOSIM_RUN=runs/NAME jupyter lab``. A relative path is
therefore read from the starting folder: ``$ZOOSIM_START_DIR`` if set, else ``$PWD``,
which the shell sets to the folder it started Jupyter in and which the kernel inherits.
A named run that is not there is an error, never replaced by a new simulation.
"""

from __future__ import annotations

import os
from pathlib import Path

RUN_VARIABLE = "ZOOSIM_RUN"
START_VARIABLE = "ZOOSIM_START_DIR"
EXAMPLE_RUN = Path("runs") / "explore-example"


def starting_folder() -> Path:
    """Where the user started: ``$ZOOSIM_START_DIR``, else ``$PWD`` (the shell's folder
    when it started Jupyter), else the current folder."""
    for variable in (START_VARIABLE, "PWD"):
        value = os.environ.get(variable)
        if value and Path(value).is_absolute() and Path(value).is_dir():
            return Path(value)
    return Path.cwd()


def named_run(path: str | os.PathLike | None = None) -> Path | None:
    """The run folder named by ``path`` or else ``$ZOOSIM_RUN`` (relative paths read from
    :func:`starting_folder`); None if neither names one.

    Raises ``FileNotFoundError`` naming the absolute path when the named run is not there.
    """
    where = RUN_VARIABLE if path is None else "RUN_DIR"
    value = os.environ.get(RUN_VARIABLE) if path is None else path
    if value is None or str(value) == "":
        return None
    run = Path(value).expanduser()
    if not run.is_absolute():
        run = starting_folder() / run
    if not ((run / "manifest.json").is_file() or (run / "sweep.json").is_file()):
        raise FileNotFoundError(
            f"{where}: no run at {run} (no manifest.json or sweep.json there); relative paths "
            f"are read from {starting_folder()}, where Jupyter was started (set "
            f"{START_VARIABLE} or give an absolute path)"
        )
    return run


def kind_of(result) -> str:
    """``run``, ``tournament`` or ``sweep``: what ``zooanalysis.load_run`` opened."""
    from zooanalysis.sweep_cells import SweepResult

    if isinstance(result, SweepResult):
        return "sweep"
    return "tournament" if result.manifest.get("kind") == "tournament" else "run"


def run_to_explore(path: str | os.PathLike | None = None):
    """The run, tournament or sweep the notebook explores: the named one
    (:func:`named_run`), or, when none is named, a small example run in
    ``runs/explore-example`` of the starting folder, simulated once (and said so)."""
    import zooanalysis

    run = named_run(path)
    if run is not None:
        return zooanalysis.load_run(run)
    example = starting_folder() / EXAMPLE_RUN
    if (example / "manifest.json").is_file():
        print(f"No run named ({RUN_VARIABLE} is not set): exploring the example run {example}")
        return zooanalysis.load_run(example)
    print(f"No run named ({RUN_VARIABLE} is not set): simulating a small example run {example}")
    zooanalysis.simulate("bluff", games=20_000, seed=1, out=example)
    return zooanalysis.load_run(example)
