"""Start-up imports nothing heavy that the command does not use (issue 13).

``zoosim run`` with the default backend needs neither scipy's statistics (about a second to
import), joblib (only for ``--backend processes``) nor matplotlib (only for reports). The
check is on the modules loaded, not on time: timings belong in BENCHMARKS.md.
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = (
    "scipy.stats",
    "scipy.optimize",
    "scipy.linalg",
    "joblib",
    "matplotlib",
    "rich",
    "pyarrow.dataset",
)
"""Also scipy.linalg (numba imports it with its NumPy implementations only to look for BLAS;
``compiled.load_array_support`` keeps it out), rich (only for a progress bar: the probe runs
with --no-progress) and pyarrow's dataset reader (a finished run's summary uses the tables
in memory, not read back)."""

PROBE = """
import atexit, sys
heavy = {heavy!r}
atexit.register(lambda: print("LOADED", [m for m in heavy if m in sys.modules]))
from zooanalysis.cli import main
sys.argv = ["zoosim", "run", "--games", "200", "--jobs", "{jobs}", "--no-progress",
            "--out", {out!r}]
main()
"""


def loaded_heavy_modules(tmp_path, jobs: int) -> list[str]:
    code = PROBE.format(heavy=HEAVY, jobs=jobs, out=str(tmp_path / "run"))
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("LOADED"))
    return eval(line.removeprefix("LOADED "))  # a list literal printed by the probe


def test_a_default_run_imports_nothing_heavy(tmp_path):
    assert loaded_heavy_modules(tmp_path, jobs=2) == []


PANDAS_PROBE = """
import sys
import zooanalysis.simulation as simulation
warm_up = simulation.warm_up
def reporting_warm_up(request):
    print("PANDAS BEFORE THE GAMES", "pandas" in sys.modules)
    warm_up(request)
simulation.warm_up = reporting_warm_up
from zooanalysis.cli import main
sys.argv = ["zoosim", "run", "--games", "200", "--no-progress", "--out", {out!r}]
main()
print("PANDAS AT THE END", "pandas" in sys.modules)
"""


def test_pandas_is_imported_only_once_the_games_start(tmp_path):
    """pandas (as slow to import as numba) is needed only for the tables at the end: a run
    imports it while its games play, not on the way to them."""
    code = PANDAS_PROBE.format(out=str(tmp_path / "run"))
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "PANDAS BEFORE THE GAMES False" in result.stdout
    assert "PANDAS AT THE END True" in result.stdout
    assert (tmp_path / "run" / "manifest.json").is_file()


def test_a_lazy_module_imports_on_first_attribute(tmp_path, monkeypatch):
    from zooanalysis.lazy_modules import LazyModule

    (tmp_path / "zoosim_lazy_probe.py").write_text("ANSWER = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "zoosim_lazy_probe", raising=False)
    lazy = LazyModule("zoosim_lazy_probe")
    assert "zoosim_lazy_probe" not in sys.modules
    assert lazy.ANSWER == 42
    assert "zoosim_lazy_probe" in sys.modules
    assert lazy.module() is sys.modules["zoosim_lazy_probe"]
    monkeypatch.delitem(sys.modules, "zoosim_lazy_probe")


IMPORT_PROBE = """
import gc, sys
from zooanalysis import storage
storage.FREEZE_BACKGROUND_IMPORTS = {freeze}
{before}
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(phase))
frozen = gc.get_freeze_count()
storage.import_parquet_in_background().join()
print("RESULT", "pandas" in sys.modules, len(collections), gc.get_freeze_count() > frozen,
      gc.isenabled())
"""


def background_import(freeze: bool, before: str = "") -> tuple[bool, int, bool, bool]:
    """(pandas imported, collections meanwhile, objects frozen, collector running) of a
    run's background import of pandas in a fresh process."""
    code = IMPORT_PROBE.format(freeze=freeze, before=before)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("RESULT"))
    imported, collections, frozen, running = line.split()[1:]
    return imported == "True", int(collections), frozen == "True", running == "True"


def test_the_background_import_of_pandas_pauses_the_garbage_collector():
    """Its ~200,000 objects live to the end: collections while they are made free nothing.
    Unpaused, the import triggers about a hundred of them."""
    imported, collections, frozen, running = background_import(freeze=False)
    assert imported and running and not frozen
    assert collections <= 1  # at most the one scan when the collector resumes


def test_in_zoosim_s_own_process_the_imported_objects_are_frozen():
    imported, collections, frozen, running = background_import(freeze=True)
    assert imported and running and frozen
    assert collections == 0


def test_a_paused_collector_stays_paused_after_the_import():
    imported, collections, frozen, running = background_import(False, before="gc.disable()")
    assert imported and not running and not frozen
    assert collections == 0
