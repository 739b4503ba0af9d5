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
