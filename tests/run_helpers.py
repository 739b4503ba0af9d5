"""Helpers shared by the tests that compare whole runs."""

from __future__ import annotations

import json
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


def zoosim(*args: object) -> int:
    """Run the ``zoosim`` command line with these arguments (paths and numbers as text)."""
    from zooanalysis import cli

    return cli.main([str(arg) for arg in args])


def scenario_file(folder: Path, game: str, settings: str) -> Path:
    """A scenario file for ``game`` with these ``[settings]`` lines, written in ``folder``."""
    path = folder / f"scenario-{abs(hash(settings))}.toml"
    path.write_text(f'game = "{game}"\n[settings]\n{settings}\n', encoding="utf-8")
    return path


def game_run(out: Path, game: str, *args: object, kind: type | None = None):
    """``zoosim run --game GAME`` into ``out`` with one job and no progress bar, checked to
    succeed; the loaded run (checked to be a ``kind`` when given)."""
    assert zoosim("run", "--game", game, "--out", out, "--no-progress", "--jobs", 1, *args) == 0
    run = zooanalysis.load_run(out)
    if kind is not None:
        assert isinstance(run, kind)
    return run


def loaded_without(folder: Path, *names: str):
    """The run folder at ``folder`` loaded again after dropping tables ``names`` from its
    manifest, as a folder written before its game counted them (unsealed, as such folders
    were)."""
    from zooanalysis.storage import MANIFEST

    path = folder / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["tables"] = [table for table in manifest["tables"] if table not in names]
    manifest.pop("manifest_sha256", None)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return zooanalysis.load_run(folder)


def run_from_totals(game: str, lineup: str, settings, strategies, totals, games: int):
    """``game``'s results object (its run class) for ``games`` reference-engine games of
    ``strategies`` summed in ``totals``: their tables, and the manifest of a real run of
    ``lineup`` with the games and tables set to these."""
    from zooanalysis.games import get_game

    played = get_game(game)
    template = zooanalysis.simulate(game, players=lineup, games=100, seed=3, jobs=1)
    tables = played.tables(totals, settings, [strategy.player for strategy in strategies])
    manifest = {**template.manifest, "games": games, "tables": list(tables)}
    return played.run_class()(manifest, tables)
