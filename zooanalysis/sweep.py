"""Sweeps: one run per cell of a grid over rule settings and strategy parameters.

A sweep file (TOML, in ``simulations/``) is a scenario with a ``[grid]`` table::

    game = "bluff"
    title = "Doubt threshold against points to end"          # the report's title
    description = "How should seat 1 set its doubt threshold?"  # the question it answers

    [run]
    players = "bayes,bayes,cautious,random"
    games = "2e4"          # per cell
    seed = 1

    [settings]             # the base rules (optional)

    [grid]                 # every combination is one cell
    "seat1.doubt" = [0.1, 0.3, 0.5, 0.7, 0.9]     # seat 1's strategy parameter
    "settings.points_to_end" = [20, 25, 30, 35, 40]  # a rule setting (dotted for nested)

``"seats.<parameter>"`` sets a strategy parameter of every seat at once (each seat's
strategy must have it), e.g. the skill of a whole cooperative team.

Every cell plays the same deals (the same seed), so cells differ only by what the grid
changes. Each finished cell is written at once as ``cells/<id>.parquet`` in the sweep's
folder, so an interrupted sweep is resumed by running it again: finished cells are not
rerun. When all are done, ``cells.parquet`` holds one row per cell with every summary
metric and its 95% interval, and the cell's teams (``teams``: ``1&3 2&4`` when partners win
together, as in Hodge Podge Dodgeball or Bug House; empty otherwise), so that the report
compares teams, not partners, as a single run's does.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from zooanalysis.errors import SettingsError, UserError
from zooanalysis.games import get_game
from zooanalysis.games.base import Game
from zooanalysis.numbers import parse_count
from zooanalysis.settings import check_players_setting, read_toml
from zooanalysis.strategy_spec import PlayerSpec, format_number, parse_lineup, parse_player
from zooanalysis.teams import TEAMS_COLUMN, cell_teams, teams_text

TOP_LEVEL_KEYS = ("game", "title", "description", "settings", "run", "grid")
DESCRIPTIVE_KEYS = ("title", "description")
"""Recorded in ``sweep.json`` for the report, but not part of what fixes the results."""
RUN_KEYS = ("players", "games", "seed")


@dataclass(frozen=True)
class Sweep:
    """A parsed, validated sweep file."""

    path: Path
    game: Game
    title: str
    description: str
    settings: dict[str, Any]
    players: str
    games: int
    seed: int
    grid: dict[str, list[Any]]

    def cells(self) -> list[dict[str, Any]]:
        """Every combination of the grid's values, in file order."""
        keys = list(self.grid)
        return [
            dict(zip(keys, values, strict=True))
            for values in itertools.product(*self.grid.values())
        ]

    def fingerprint(self) -> dict[str, Any]:
        """What fixes the sweep's results (checked when a sweep is resumed)."""
        return {
            "game": self.game.name,
            "settings": self.settings,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "grid": self.grid,
        }


def load_sweep(path: str | Path) -> Sweep:
    """Read and check a sweep file; ``UserError`` naming the file and key for any problem."""
    path = Path(path)
    data = read_toml(path, "sweep file", TOP_LEVEL_KEYS)
    run = data.get("run", {})
    for key in run:
        if key not in RUN_KEYS:
            raise UserError(f"{path}: unknown key 'run.{key}'; allowed are {', '.join(RUN_KEYS)}")
    grid = data.get("grid")
    if not isinstance(grid, dict) or not grid:
        raise UserError(
            f"{path}: a sweep needs a [grid] table with at least one key, e.g. "
            '"settings.points_to_end" = [20, 30, 40]'
        )
    game = get_game(data.get("game", "bluff"))
    sweep = Sweep(
        path=path,
        game=game,
        title=str(data.get("title", "")),
        description=str(data.get("description", "")),
        settings=data.get("settings", {}),
        players=str(run.get("players", game.default_lineup)),
        games=parse_count(run.get("games", "2e4"), f"{path}: run.games"),
        seed=int(run.get("seed", 1)),
        grid={key: _grid_values(path, key, values) for key, values in grid.items()},
    )
    for cell in sweep.cells():  # every cell must make valid settings and players
        cell_setup(sweep, cell)
    return sweep


def _grid_values(path: Path, key: str, values: Any) -> list[Any]:
    if not isinstance(values, list) or not values:
        raise UserError(f"{path}: grid key '{key}' needs a non-empty list of values")
    if not (key.startswith("settings.") or (key.startswith("seat") and "." in key)):
        raise UserError(
            f"{path}: grid key '{key}': use 'settings.<setting>' (e.g. "
            "settings.points_to_end), 'seat<N>.<parameter>' (e.g. seat1.doubt) or "
            "'seats.<parameter>' (every seat's)"
        )
    return values


def cell_setup(sweep: Sweep, cell: dict[str, Any]) -> tuple[Any, list[PlayerSpec]]:
    """The settings and lineup of one cell; ``UserError`` naming the file and key if bad."""
    table = copy.deepcopy(sweep.settings)
    lineup = parse_lineup(sweep.players, sweep.game.strategies, f"{sweep.path}: run.players")
    for key, value in cell.items():
        if key.startswith("settings."):
            *parents, leaf = key.removeprefix("settings.").split(".")
            node = table
            for parent in parents:
                node = node.setdefault(parent, {})
            node[leaf] = value
        else:
            seat_text, parameter = key.split(".", 1)
            if seat_text == "seats":
                chosen = range(len(lineup))
            else:
                chosen = [_seat_number(sweep, key, seat_text, len(lineup))]
            for seat in chosen:
                player = lineup[seat]
                params = {**player.as_dict(), parameter: value}
                text = f"{player.strategy}:" + ",".join(
                    f"{k}={format_number(v)}" for k, v in params.items()
                )
                lineup[seat] = parse_player(
                    text, sweep.game.strategies, f"{sweep.path}: grid key '{key}'"
                )
    check_players_setting(table, len(lineup), f"{sweep.path}: settings.")
    try:
        settings = sweep.game.settings_for_lineup(sweep.game.settings_from_table(table), lineup)
    except SettingsError as error:
        raise UserError(f"{sweep.path}: {error} (in the cell {cell})") from None
    return settings, lineup


def _seat_number(sweep: Sweep, key: str, text: str, players: int) -> int:
    number = text.removeprefix("seat")
    if not number.isdigit() or not 1 <= int(number) <= players:
        raise UserError(f"{sweep.path}: grid key '{key}': seats are seat1 to seat{players}")
    return int(number) - 1


def cell_id(cell: dict[str, Any]) -> str:
    """A short stable name for a cell (its values hashed)."""
    text = json.dumps(cell, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


SPEC_FILE = "sweep.json"
CELLS_FILE = "cells.parquet"


def run_sweep(
    sweep: Sweep,
    out: Path,
    jobs: int,
    backend: str = "threads",
    on_cell: Callable[[int, int, dict[str, Any], bool], None] | None = None,
) -> pd.DataFrame:
    """Run every cell not yet in ``out``; returns one row per cell (also ``cells.parquet``).

    ``out`` is locked for the whole sweep (one writer) and must be new, empty or this
    sweep's own folder; every file is written durably (see ``zooanalysis.storage``), and
    ``sweep.json`` records the format version and the sha256 of ``cells.parquet``.
    ``on_cell(done, total, cell, reused)`` is called after each cell.
    """
    from zooanalysis.storage import (
        FORMAT_VERSION,
        CommandInterruptedError,
        StorageError,
        output_lock,
        write_manifest,
        write_table,
    )

    out = Path(out)
    cells_folder = out / "cells"
    with output_lock(out, "--out"):
        _check_sweep_folder(sweep, out)
        try:
            cells_folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(f"{cells_folder}: cannot create ({error.strerror})") from None
        spec = {
            "format_version": FORMAT_VERSION,
            **_plain(sweep.fingerprint()),
            "title": sweep.title,
            "description": sweep.description,
        }
        write_manifest(out, spec, SPEC_FILE)
        rows: list[pd.DataFrame] = []
        all_cells = sweep.cells()
        try:
            _run_cells(sweep, all_cells, cells_folder, rows, jobs, backend, on_cell)
        except KeyboardInterrupt:
            raise CommandInterruptedError(
                f"interrupted; {len(rows)} of {len(all_cells)} cells are finished and kept in "
                f"{cells_folder}. Continue it by running the same zoosim sweep again with "
                f"--out {out} (finished cells are not played again)"
            ) from None
        table = pd.concat(rows, ignore_index=True)
        spec["cells_sha256"] = write_table(out / CELLS_FILE, table)
        write_manifest(out, spec, SPEC_FILE)  # sealed: edited by hand, it is refused
    return table


def _run_cells(
    sweep: Sweep,
    all_cells: list[dict[str, Any]],
    cells_folder: Path,
    rows: list[pd.DataFrame],
    jobs: int,
    backend: str,
    on_cell: Callable[[int, int, dict[str, Any], bool], None] | None,
) -> None:
    """Play (or read back) every cell in turn, writing each as it finishes and appending
    its row to ``rows`` (so an interruption knows how many are kept)."""
    from zooanalysis.simulation import RunRequest, run_simulation
    from zooanalysis.storage import read_table_file, write_table

    for done, cell in enumerate(all_cells, start=1):
        target = cells_folder / f"{cell_id(cell)}.parquet"
        reused = target.is_file()
        if not reused:
            settings, lineup = cell_setup(sweep, cell)
            request = RunRequest(
                game=sweep.game,
                settings=settings,
                lineup=lineup,
                games=sweep.games,
                seed=sweep.seed,
                jobs=jobs,
                backend=backend,
            )
            run = run_simulation(request)
            metrics = run.metrics()
            row = pd.DataFrame(
                [
                    {
                        "cell": cell_id(cell),
                        **cell,
                        "lineup": ",".join(p.label for p in lineup),
                        TEAMS_COLUMN: teams_text(run.teams),
                        **metrics,
                    }
                ]
            )
            write_table(target, row)
        rows.append(read_table_file(target))
        if on_cell is not None:
            on_cell(done, len(all_cells), cell, reused)


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as it reads back from JSON."""
    return json.loads(json.dumps(data, default=str))


def _check_sweep_folder(sweep: Sweep, out: Path) -> None:
    """Refuse an ``--out`` that is a file, holds something other than a sweep, or holds
    another sweep; a new, empty or this sweep's own folder is fine."""
    from zooanalysis.storage import MANIFEST_SHA256, check_can_create

    if out.exists() and not out.is_dir():
        raise UserError(f"--out: {out} is a file; give a folder for the sweep")
    if not out.exists():
        check_can_create(out, "--out")
        return
    spec_path = out / SPEC_FILE
    if not spec_path.is_file():
        if any(out.iterdir()):
            raise UserError(
                f"--out: {out} is not empty and holds no sweep ({SPEC_FILE}); give a new or "
                "empty folder, or the folder of this same sweep to continue it"
            )
        return
    try:
        stored = json.loads(spec_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{spec_path}: unreadable ({' '.join(str(error).split())})") from None
    if not isinstance(stored, dict):
        raise UserError(f"{spec_path}: unreadable (not a JSON object)")
    ignored = ("format_version", "cells_sha256", MANIFEST_SHA256, *DESCRIPTIVE_KEYS)
    recorded = {k: v for k, v in stored.items() if k not in ignored}
    if recorded != _plain(sweep.fingerprint()):
        raise UserError(f"--out: {out} holds a different sweep; give another --out or remove it")


def load_cells(folder: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A finished sweep's ``cells.parquet`` (checked against the sha256 in ``sweep.json``)
    and its ``sweep.json``; one ``UserError`` line naming the file if damaged."""
    from zooanalysis.storage import check_format_version, read_table_file

    folder = Path(folder)
    spec_path = folder / SPEC_FILE
    try:
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{spec_path}: unreadable ({' '.join(str(error).split())})") from None
    if not isinstance(spec, dict):
        raise UserError(f"{spec_path}: unreadable (not a JSON object)")
    has_checksums = check_format_version(spec, spec_path)
    if has_checksums and "cells_sha256" not in spec:
        raise UserError(f"{spec_path}: the sweep did not finish (no checksum of {CELLS_FILE})")
    expected = spec.get("cells_sha256") if has_checksums else None
    return read_table_file(folder / CELLS_FILE, expected), spec


def is_sweep_folder(path: Path) -> bool:
    """Whether ``path`` holds a finished sweep (``sweep.json`` and ``cells.parquet``)."""
    path = Path(path)
    return (path / "cells.parquet").is_file() and (path / "sweep.json").is_file()


def sweep_summary(folder: Path, name: str | None = None) -> str:
    """A finished sweep's win rate by seat in every cell, as text (``zoosim sweep`` and
    ``zoosim show``); ``name`` is what the header calls it (default: the folder's name)."""
    folder = Path(folder)
    table, spec = load_cells(folder)
    grid = list(spec["grid"])
    seats = sorted(
        (c.removesuffix("_win_rate") for c in table.columns if _is_seat_rate(c)),
        key=lambda seat: int(seat.removeprefix("seat")),
    )
    shown = table[grid].copy()
    for seat in seats:
        shown[seat] = [
            f"{100 * r:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
            for r, lo, hi in zip(
                table[f"{seat}_win_rate"],
                table[f"{seat}_win_ci_low"],
                table[f"{seat}_win_ci_high"],
                strict=True,
            )
        ]
    teams = next((found for found in cell_teams(table) if found), None)
    partners = (
        ["Partners win together (" + ", ".join("seats " + " & ".join(map(str, team))
                                              for team in teams)
         + "): each partner gets an equal part of its team's win."]
        if teams else []
    )  # fmt: skip
    return "\n".join(
        [
            f"{get_game(spec['game']).title} sweep {name or folder.name}: {len(table)} cells x "
            f"{spec['games']:,} games, seed {spec['seed']} (the same deals in every cell)",
            "Win share by seat (a game won by k tied winners gives each 1/k), % [95% CI]:",
            *partners,
            shown.to_string(index=False),
            "",
            f"Every metric with its CI, one row per cell: {folder / 'cells.parquet'}",
        ]
    )


def _is_seat_rate(column: str) -> bool:
    """``seat3_win_rate`` and the like."""
    return (
        column.startswith("seat")
        and column.endswith("_win_rate")
        and column.removeprefix("seat").removesuffix("_win_rate").isdigit()
    )
