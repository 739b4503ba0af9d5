"""Kernels freeze the card tables in: editing the card machinery must recompile them."""

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


def test_editing_a_rank_order_changes_the_cache_folder(package_copy: Path) -> None:
    before = compiled.source_fingerprint()
    orders = package_copy / "cards" / "orders.py"
    orders.write_text(orders.read_text().replace("(5, 4, 6, 3, 7,", "(5, 6, 4, 3, 7,"))
    assert compiled.source_fingerprint() != before
