"""What the C reference tests share: benchmarks/c_reference.py loaded as a module (it is
not part of the package), the mark that skips without a compiler, and a program built or
the test skipped."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_c_reference():
    spec = importlib.util.spec_from_file_location(
        "c_reference", ROOT / "benchmarks" / "c_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


c_reference = _load_c_reference()
needs_compiler = pytest.mark.skipif(
    not c_reference.compiler_available(), reason=f"{c_reference.COMPILER} not found"
)


def built(tmp_path_factory: pytest.TempPathFactory, game: str) -> Path:
    """``game``'s C reference compiled into a fresh folder (the test skipped without a
    compiler)."""
    if not c_reference.compiler_available():
        pytest.skip(f"{c_reference.COMPILER} not found")
    return c_reference.build(tmp_path_factory.mktemp("cref"), game=game)
