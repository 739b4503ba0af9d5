"""The numba cache folder is keyed on the compiled sources, so edits never load stale code."""

from __future__ import annotations

import shutil
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
