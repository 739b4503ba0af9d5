"""Helpers shared by the tests that compare whole runs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import zooanalysis


def tables_of(path: Path) -> dict[str, pd.DataFrame]:
    """Every result table of the run directory at ``path``."""
    run = zooanalysis.load_run(path)
    return {name: run.table(name) for name in run.table_names}


def assert_same_tables(first: dict[str, pd.DataFrame], second: dict[str, pd.DataFrame]) -> None:
    """The two runs have the same tables with exactly the same contents."""
    assert sorted(first) == sorted(second)
    for name in first:
        assert first[name].equals(second[name]), f"table {name} differs"
