"""``zooanalysis.compiled.compiled_variant``: the one place that writes a generated module
(the search loop per forward model, Through the Zoo's batch loop per set of exhibits) into
the cache folder and imports it. Threads and processes asking at once all get the one
compiled function; a stale or partial file in the cache is replaced, never executed."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import variant_helpers
from numba.core.registry import CPUDispatcher

from zooanalysis import compiled

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, and no generated module of ``variant_helpers`` loaded yet."""
    monkeypatch.setenv("ZOOSIM_CACHE_DIR", str(tmp_path))
    for name in [name for name in compiled._GENERATED if name.startswith("zoosim_probe_")]:
        del compiled._GENERATED[name]
        sys.modules.pop(name, None)
    return compiled.cache_folder()


def source_of(factor: str) -> str:
    bindings, _, _, about = variant_helpers.variant_args(factor)
    return compiled.variant_source(variant_helpers.apply_bound, bindings, about)


def path_of(factor: str) -> Path:
    return compiled.generated_path("probe", "apply", source_of(factor))


def test_a_variant_calls_its_bound_function_with_the_owners_globals(fresh_cache: Path) -> None:
    doubled, tripled = variant_helpers.variant("double"), variant_helpers.variant("triple")
    assert isinstance(doubled, CPUDispatcher) and isinstance(tripled, CPUDispatcher)
    assert (doubled(5), tripled(5)) == (110, 115)
    assert variant_helpers.variant("double") is doubled
    assert path_of("double").read_text() == source_of("double")
    assert path_of("double").parent == fresh_cache / "probe"
    assert doubled.py_func.__module__ == compiled.generated_name("probe", "apply",
                                                                 source_of("double"))


def test_threads_asking_at_once_share_one_execution_of_the_module(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each generated module is executed once however many threads ask together; a slow
    execution (here 0.2 s) would otherwise be seen half done by the others."""
    executions: list[str] = []
    real = compiled.variant_globals

    def slow_globals(owner, function, bindings):
        executions.append(bindings["bound"][1])
        time.sleep(0.2)
        return real(owner, function, bindings)

    monkeypatch.setattr(compiled, "variant_globals", slow_globals)
    start = threading.Barrier(8)
    found: list[tuple[str, object]] = []
    errors: list[BaseException] = []

    def worker(factor: str) -> None:
        start.wait()
        try:
            function = variant_helpers.variant(factor)
            found.append((factor, function))
            assert function(1) == {"double": 102, "triple": 103}[factor]
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(f,)) for f in ["double", "triple"] * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(executions) == ["double", "triple"]
    for factor in ("double", "triple"):
        functions = {id(function) for name, function in found if name == factor}
        assert len(functions) == 1 and isinstance(dict(found)[factor], CPUDispatcher)


def test_a_stale_or_partial_file_is_replaced_never_executed(fresh_cache: Path) -> None:
    text = source_of("double")
    path = path_of("double")
    path.parent.mkdir(parents=True)
    path.write_text(text[: len(text) // 2])  # a write cut short: a syntax error if run
    assert variant_helpers.variant("double")(4) == 108
    assert path.read_text() == text
    for name in [name for name in compiled._GENERATED if name.startswith("zoosim_probe_")]:
        del compiled._GENERATED[name]
        del sys.modules[name]
    path.write_text(text.replace("return bound(x) + OFFSET", "return -1"))  # valid, but not ours
    assert variant_helpers.variant("double")(4) == 108
    assert path.read_text() == text
    assert [p.name for p in path.parent.iterdir() if p.suffix == ".tmp"] == []


CHILD = """
import sys, time
from pathlib import Path
import variant_helpers
print("ready", flush=True)
go = Path(sys.argv[1])
while not go.exists():
    time.sleep(0.01)
print(variant_helpers.variant("triple")(7), flush=True)
"""


def start_child(cache: Path, go: Path) -> subprocess.Popen:
    env = {**os.environ, "ZOOSIM_CACHE_DIR": str(cache),
           "PYTHONPATH": os.pathsep.join([str(TESTS.parent), str(TESTS)])}
    return subprocess.Popen([sys.executable, "-c", CHILD, str(go)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_processes_started_together_write_one_file_and_both_run_it(
    fresh_cache: Path, tmp_path: Path
) -> None:
    go = tmp_path / "go"
    children = [start_child(fresh_cache.parent, go) for _ in range(2)]
    go.touch()
    outputs = [child.communicate(timeout=300) for child in children]
    assert [child.returncode for child in children] == [0, 0], outputs
    assert [out.split() for out, _ in outputs] == [["ready", "121"]] * 2
    folder = path_of("triple").parent
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock")) == [
        path_of("triple").name
    ]
    assert path_of("triple").read_text() == source_of("triple")


def test_a_process_waits_while_another_holds_the_files_lock(
    fresh_cache: Path, tmp_path: Path
) -> None:
    """The check-and-write of a generated file is exclusive between processes."""
    path = path_of("triple")
    path.parent.mkdir(parents=True)
    go = tmp_path / "go"
    with compiled.exclusive_lock(f"{path}.lock"):
        child = start_child(fresh_cache.parent, go)
        assert child.stdout.readline().strip() == "ready"  # zooanalysis imported
        go.touch()
        time.sleep(3.0)  # ample for hashing the sources and reaching the lock
        waiting = child.poll() is None
        written = path.exists()
    out, err = child.communicate(timeout=300)
    assert waiting and not written, err
    assert child.returncode == 0 and out.strip() == "121", err
    assert path.read_text() == source_of("triple")
