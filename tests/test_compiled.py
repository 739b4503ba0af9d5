"""The numba cache folder is keyed on the compiled sources, so edits never load stale code."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from zooanalysis import compiled


@pytest.fixture
def package_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "zooanalysis"
    shutil.copytree(compiled.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compiled, "PACKAGE", copy)
    return copy


def test_editing_a_strategy_changes_the_cache_folder(package_copy: Path) -> None:
    before = compiled.cache_folder()
    strategies = package_copy / "games" / "bluff" / "strategies.py"
    strategies.write_text(strategies.read_text() + "\n# an edit\n")
    assert compiled.cache_folder() != before


def test_editing_constants_a_kernel_freezes_in_changes_the_cache_folder(
        package_copy: Path) -> None:
    before = compiled.source_fingerprint()
    cards = package_copy / "games" / "bluff" / "cards.py"
    cards.write_text(cards.read_text().replace("N_KINDS = len(KINDS)", "N_KINDS = 5"))
    assert compiled.source_fingerprint() != before


def test_editing_code_outside_the_kernels_keeps_the_cache(package_copy: Path) -> None:
    before = compiled.source_fingerprint()
    cli = package_copy / "cli.py"
    cli.write_text(cli.read_text() + "\n# an edit\n")
    assert compiled.source_fingerprint() == before


def test_cache_folder_follows_zoosim_cache_dir(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZOOSIM_CACHE_DIR", str(tmp_path))
    folder = compiled.cache_folder()
    assert folder.parent == tmp_path
    assert folder.name == f"numba-{compiled.source_fingerprint()}"


# --- one cache for every copy of the same source ----------------------------------------------

PROBE = """
import json, sys
import numpy as np
import zooanalysis
from zooanalysis import compiled, rng

state = rng.game_stream(7, 3)
rng.below(state, np.int64(10))
functions = (rng.seed_game, rng.below)
print(json.dumps({
    "package": zooanalysis.__file__,
    "cache": str(compiled.cache_folder()),
    "hits": sum(sum(f.stats.cache_hits.values()) for f in functions),
    "misses": sum(sum(f.stats.cache_misses.values()) for f in functions),
}))
"""


def copy_package(root: Path) -> Path:
    """A copy of the zooanalysis package under ``root`` (as a second clone would have)."""
    shutil.copytree(
        Path(compiled.__file__).parent,
        root / "zooanalysis",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return root


def run_in(copy: Path, cache: Path, code: str, cwd: Path) -> str:
    """Run ``code`` with the package copy ``copy`` first on the path; its stdout."""
    env = {**os.environ, "PYTHONPATH": str(copy), "ZOOSIM_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def cache_files(cache: Path) -> dict[str, tuple[int, bytes]]:
    """Every file in the cache: its modification time (ns) and content."""
    return {
        str(path.relative_to(cache)): (path.stat().st_mtime_ns, path.read_bytes())
        for path in sorted(cache.rglob("*"))
        if path.is_file()
    }


def test_two_copies_at_different_paths_share_one_cache_without_recompiling(
        tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = json.loads(run_in(copy_package(tmp_path / "a"), cache, PROBE, tmp_path))
    assert first["misses"] > 0 and first["hits"] == 0  # compiled and saved
    saved = cache_files(cache)
    assert any(name.endswith(".nbc") for name in saved)
    second = json.loads(run_in(copy_package(tmp_path / "b"), cache, PROBE, tmp_path))
    assert first["package"] != second["package"]  # really the other copy
    assert second["cache"] == first["cache"]
    assert second["misses"] == 0 and second["hits"] > 0  # loaded, nothing compiled
    assert cache_files(cache) == saved  # no new entry, no rewritten index


def test_an_edited_copy_compiles_again_in_its_own_folder(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = json.loads(run_in(copy_package(tmp_path / "a"), cache, PROBE, tmp_path))
    edited = copy_package(tmp_path / "b")
    source = edited / "zooanalysis" / "rng.py"
    source.write_text(source.read_text() + "\n# an edit\n")
    second = json.loads(run_in(edited, cache, PROBE, tmp_path))
    assert second["cache"] != first["cache"]
    assert second["misses"] > 0 and second["hits"] == 0


def test_functions_outside_the_package_keep_numbas_own_locators() -> None:
    compiled.register_locator()
    compiled.register_locator()  # registering twice adds it once
    from numba.core import caching

    implementation = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    ours = [cls for cls in implementation._locator_classes if getattr(cls, "zoosim", False)]
    assert len(ours) == 1
    assert ours[0].from_function(test_cache_folder_follows_zoosim_cache_dir, __file__) is None


@pytest.mark.slow
def test_a_second_clone_runs_a_whole_game_from_the_first_clones_cache(tmp_path: Path) -> None:
    """The whole Bluff in Zoo kernel, compiled by one copy, is loaded by another: the
    second run writes nothing to the cache."""
    cache = tmp_path / "cache"
    command = (
        "import sys; from zooanalysis.cli import main; "
        "sys.exit(main(['run', '--games', '2000', '--jobs', '1', '--no-progress', "
        "'--out', sys.argv[1] if len(sys.argv) > 1 else 'out']))"
    )
    run_in(copy_package(tmp_path / "a"), cache, command, tmp_path / "a")
    saved = cache_files(cache)
    assert sum(name.endswith(".nbc") for name in saved) > 10
    run_in(copy_package(tmp_path / "b"), cache, command, tmp_path / "b")
    assert cache_files(cache) == saved


# --- two processes saving the same function at once ---------------------------------------------


def racing_saves(cache_file_class: type, folder: Path) -> dict[str, object]:
    """Two threads each save a new signature of one function into an empty cache, the
    second entering while the first has read the index (if the class lets it); what each
    signature then loads back."""
    import threading

    cache_files = [cache_file_class(str(folder), "kernel-1.py311", "stamp") for _ in range(2)]
    first_has_read = threading.Event()
    second_has_read = threading.Event()
    read_index = cache_files[0]._load_index

    def first_reads_then_waits() -> dict:
        overloads = read_index()
        first_has_read.set()
        second_has_read.wait(timeout=2)  # held back until the second has read too, if it can
        return overloads

    def second_reads() -> dict:
        overloads = read_index()
        second_has_read.set()
        return overloads

    cache_files[0]._load_index = first_reads_then_waits
    cache_files[1]._load_index = second_reads
    first = threading.Thread(target=cache_files[0].save, args=("signature a", "code of a"))
    first.start()
    first_has_read.wait(timeout=10)
    cache_files[1].save("signature b", "code of b")
    first.join()
    reader = cache_file_class(str(folder), "kernel-1.py311", "stamp")
    return {key: reader.load(key) for key in ("signature a", "signature b")}


def test_racing_saves_keep_each_signatures_own_code(tmp_path: Path) -> None:
    from numba.core import caching

    assert getattr(caching.IndexDataCacheFile, "zoosim", False)  # installed on import
    loaded = racing_saves(caching.IndexDataCacheFile, tmp_path)
    assert loaded == {"signature a": "code of a", "signature b": "code of b"}


def test_numbas_unlocked_save_would_lose_or_mix_an_entry(tmp_path: Path) -> None:
    """The race the lock closes is real: numba's own class, in the same schedule, leaves
    one signature without its code or with the other's."""
    from numba.core import caching

    unlocked = caching.IndexDataCacheFile.__mro__[1]
    assert not getattr(unlocked, "zoosim", False)
    loaded = racing_saves(unlocked, tmp_path)
    assert loaded != {"signature a": "code of a", "signature b": "code of b"}
