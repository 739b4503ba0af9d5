"""Scenario files: the TOML files in ``simulations/`` a designer edits.

A scenario names the game, its rule settings and, optionally, how to run it::

    game = "bluff"
    description = "Shorter games: end at 25 points"

    [settings]          # every rule number; omitted ones keep the rulebook's value
    points_to_end = 25

    [run]               # defaults for `zoosim run`; command-line options win
    players = "bayes,bayes,cautious,random"
    games = "1e6"       # or: until_ci = 0.002 (with max_games = "1e8")
    seed = 1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zooanalysis.errors import UserError
from zooanalysis.settings import read_toml

TOP_LEVEL_KEYS = ("game", "description", "settings", "run")
RUN_KEYS = (
    "players",
    "games",
    "seed",
    "jobs",
    "backend",
    "scheduler",
    "batch_size",
    "rows",
    "out",
    "until_ci",
    "max_games",
)


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario file (settings are validated later, by the game)."""

    path: Path
    game: str | None = None
    description: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    run: dict[str, Any] = field(default_factory=dict)


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file; ``UserError`` naming the file and key for any problem."""
    path = Path(path)
    data = read_toml(path, "--scenario", TOP_LEVEL_KEYS)
    for table in ("settings", "run"):
        if not isinstance(data.get(table, {}), dict):
            raise UserError(f"{path}: '{table}' must be a table ([{table}])")
    for key in data.get("run", {}):
        if key not in RUN_KEYS:
            raise UserError(f"{path}: unknown key 'run.{key}'; allowed are {', '.join(RUN_KEYS)}")
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise UserError(f"{path}: 'game' must be a game name in quotes, e.g. \"bluff\"")
    return Scenario(
        path=path,
        game=game,
        description=str(data.get("description", "")),
        settings=data.get("settings", {}),
        run=data.get("run", {}),
    )
