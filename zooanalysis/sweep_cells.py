"""A sweep's cells made ready to answer its question: stable names, estimates, marginals.

Each cell of a sweep is one run (``zooanalysis.sweep``); its row holds every metric of
``Run.metrics()``. Three things make those rows hard to compare directly, and are fixed here:

- metrics by strategy are keyed by the strategy's label, and a swept strategy parameter
  changes the label from cell to cell (``curious:guess=0.2``, ``curious:guess=0.4``, and
  ``curious`` where the value is the default): :func:`role_cells` renames them by role,
  ``seat 1's curious`` for the seat whose parameter is swept, the label for the others;
- the balance metrics of every game (``balance.<metric>_value``, see
  ``zooanalysis.balance``) are missing from sweeps written before they were counted:
  :func:`with_balance` recomputes the two that the seats' win shares allow;
- a rule's effect is read over the other keys' values: :func:`marginal` averages a metric
  over them with an interval that holds whatever the correlation between cells (they
  play the same deals);
- in a team game (partners win together) a cell's seats are not independent: each row's
  ``teams`` column (``teams.teams_text``; empty without teams, absent in sweeps written
  before it was recorded) says who plays together, read back by ``teams.cell_teams``.

:class:`SweepResult` (``zooanalysis.load_run`` of a sweep folder) gives all of it as
DataFrames, for notebooks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from zooanalysis.balance import seat_balance
from zooanalysis.separation import Estimate
from zooanalysis.teams import cell_teams

SEAT_COLUMN = re.compile(r"^seat(\d+)_win_rate$")
BALANCE = "balance."


@dataclass(frozen=True)
class Metric:
    """A metric of the cells with its interval: where its columns are and how to say it."""

    name: str
    """Base name: the columns are ``value``, ``low`` and ``high``."""
    label: str
    value: str
    low: str
    high: str
    n: str | None
    kind: str
    """``rate`` (a share, shown in %), ``points`` (a difference of shares, in percentage
    points) or ``mean`` (in its own units)."""
    unit: str = ""


def seat_numbers(cells: pd.DataFrame) -> list[int]:
    """The seats of the sweep's lineup (from 1), read from the win-share columns."""
    return sorted(int(m.group(1)) for c in cells.columns if (m := SEAT_COLUMN.match(c)))


def key_name(key: str) -> str:
    """``settings.points_to_end`` as ``points_to_end``, ``seat1.doubt`` as ``seat 1's doubt``,
    ``seats.misread`` as ``every seat's misread``."""
    if key.startswith("settings."):
        return key.removeprefix("settings.")
    seat, parameter = key.split(".", 1)
    if seat == "seats":
        return f"every seat's {parameter}"
    return f"seat {seat.removeprefix('seat')}'s {parameter}"


def value_text(value: object) -> str:
    """A grid value as a reader writes it: ``on``/``off`` for switches, ``0.3``, ``20``."""
    if isinstance(value, bool | np.bool_):
        return "on" if value else "off"
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def setting_text(key: str, value: object) -> str:
    """``points_to_end = 20``."""
    return f"{key_name(key)} = {value_text(value)}"


def cell_names(cells: pd.DataFrame, keys: list[str]) -> list[str]:
    """Each cell as ``points_to_end = 20, seat 1's doubt = 0.3``."""
    return [", ".join(setting_text(k, row[k]) for k in keys) or "the run" for _, row in
            cells.iterrows()]  # fmt: skip


def swept_seats(keys: list[str]) -> dict[int, str]:
    """Seats (from 1) whose strategy parameter the grid sweeps, with the parameter."""
    return {
        int(key.split(".", 1)[0].removeprefix("seat")): key.split(".", 1)[1]
        for key in keys
        if not key.startswith(("settings.", "seats."))
    }


def role_name(seat: int, label: str) -> str:
    """The name of a swept seat's strategy in every cell: ``seat 1's curious``."""
    return f"seat {seat}'s {label.split(':', 1)[0]}"


def role_cells(
    cells: pd.DataFrame, keys: list[str], lineups: list[list[str]]
) -> tuple[pd.DataFrame, list[str]]:
    """The cells with every by-strategy column renamed by role (see the module docstring),
    and the names of the cells in which a swept seat held the same strategy as another
    seat (there, their figures are pooled over those seats and given to both names)."""
    swept = swept_seats(keys)
    labels = {label for lineup in lineups for label in lineup}
    by_label = {
        column: label
        for column in cells.columns
        for label in labels
        if column.startswith(f"{label}_")
    }
    pooled = []
    rows = []
    for (_, cell), lineup, name in zip(
        cells.iterrows(), lineups, cell_names(cells, keys), strict=True
    ):
        holders: dict[str, list[int]] = {}
        for seat, label in enumerate(lineup, start=1):
            holders.setdefault(label, []).append(seat)
        renamed = {}
        for label, seats in holders.items():
            names = [role_name(seat, label) for seat in seats if seat in swept]
            if any(seat not in swept for seat in seats):
                names.append(label)
            if len(seats) > 1 and any(seat in swept for seat in seats):
                pooled.append(name)
            for column, owner in by_label.items():
                if owner == label and not pd.isna(cell[column]):
                    rest = column[len(label) + 1 :]
                    for role in names:
                        renamed[f"{role}_{rest}"] = cell[column]
        rows.append(renamed)
    roles = pd.DataFrame(rows, index=cells.index)
    kept = cells.drop(columns=list(by_label))
    return pd.concat([kept, roles], axis=1), sorted(set(pooled), key=pooled.index)


def strategy_roles(cells: pd.DataFrame) -> list[str]:
    """Names with a win share in every cell (``<role>_win_rate``), seats left out."""
    return [
        column.removesuffix("_win_rate")
        for column in cells.columns
        if column.endswith("_win_rate")
        and not SEAT_COLUMN.match(column)
        and cells[column].notna().all()
    ]


def with_balance(cells: pd.DataFrame, seats: list[int]) -> pd.DataFrame:
    """The cells with ``balance.seat_balance_*`` and ``balance.first_player_advantage_*``
    (recomputed from the seats' win shares when the sweep predates them)."""
    cells = cells.copy()
    if f"{BALANCE}seat_balance_value" not in cells:
        values = []
        for _, cell in cells.iterrows():
            table = pd.DataFrame(
                {
                    "share": [cell[f"seat{s}_win_rate"] for s in seats],
                    "n": [cell[f"seat{s}_win_n"] for s in seats],
                }
            )
            values.append(seat_balance(table))
        for index, part in enumerate(("value", "ci_low", "ci_high")):
            cells[f"{BALANCE}seat_balance_{part}"] = [v[index] for v in values]
    if f"{BALANCE}first_player_advantage_value" not in cells:
        fair = 1.0 / len(seats)
        for part, column in (("value", "rate"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
            cells[f"{BALANCE}first_player_advantage_{part}"] = cells[f"seat1_win_{column}"] - fair
    return cells


GENERIC = (
    ("moves_mean", "game length", "mean", "moves"),
    ("turns_mean", "game length", "mean", "turns"),
    ("rounds_mean", "game length", "mean", "rounds"),
    ("tie", "shared wins", "rate", ""),
    ("seat_balance", "balance across seats", "rate", ""),
    ("first_player_advantage", "first-player advantage", "points", ""),
    ("margin_mean", "winning margin", "mean", "points"),
    ("lead_changes_mean", "lead changes", "mean", "per game"),
    ("drama", "drama (still open in the last quarter)", "rate", ""),
    ("branching_mean", "branching factor", "mean", "options"),
    ("decisions_mean", "real decisions per game", "mean", "per game"),
)
"""The balance metrics a rule's effect is read on: (metric, label, kind, unit)."""
LENGTHS = ("moves_mean", "turns_mean", "rounds_mean")


def balance_metrics_of(cells: pd.DataFrame) -> list[Metric]:
    """The balance metrics the cells hold, game length first (only the first length
    measure the game has; read from the game's own ``<length>_mean`` columns in sweeps
    written before the balance metrics were counted)."""
    found = []
    length_seen = False
    for metric, label, kind, unit in GENERIC:
        base = f"{BALANCE}{metric}"
        columns = (f"{base}_value", f"{base}_ci_low", f"{base}_ci_high")
        if metric in LENGTHS and columns[0] not in cells and metric in cells:
            plain = metric.removesuffix("_mean")
            columns = (metric, f"{plain}_ci_low", f"{plain}_ci_high")
        if columns[0] not in cells or cells[columns[0]].isna().all():
            continue
        if metric in LENGTHS:
            if length_seen:
                continue
            length_seen = True
            label = f"game length ({unit})"
        n = f"{base}_n" if f"{base}_n" in cells else None
        found.append(Metric(metric, label, *columns, n, kind, unit))
    return found


def win_metric(name: str, label: str | None = None) -> Metric:
    """The win share (ties split) of a seat (``seat1``) or role, as a :class:`Metric`."""
    return Metric(
        name, label or f"{name}'s win share", f"{name}_win_rate", f"{name}_win_ci_low",
        f"{name}_win_ci_high", f"{name}_win_n", "rate",
    )  # fmt: skip


def game_metrics(cells: pd.DataFrame, roles: list[str]) -> list[Metric]:
    """The game's own metrics with an interval in every cell: not the balance metrics, win
    shares or endings; by-strategy metrics only for the swept seats' roles."""
    found = []
    for column in cells.columns:
        for suffix, kind in (("_rate", "rate"), ("_mean", "mean")):
            base = column.removesuffix(suffix)
            if (
                not column.endswith(suffix)
                or f"{base}_ci_low" not in cells
                or f"{base}_ci_high" not in cells
                or base.startswith((BALANCE, "end_"))
                or re.match(r"seat\d", base)
                or base.endswith(("_win", "_won_or_shared"))
                or base in {"moves", "turns", "rounds"}
                or cells[column].isna().any()
            ):
                continue
            role = next((r for r in roles if base.startswith(f"{r}_")), None)
            if role is not None and not role.startswith("seat "):
                continue
            n = f"{base}_n" if f"{base}_n" in cells else None
            label = (role + "'s" + base[len(role) :] if role else base).replace("_", " ")
            found.append(Metric(base, label, column, f"{base}_ci_low", f"{base}_ci_high", n, kind))
    return found


def estimates(cells: pd.DataFrame, metric: Metric, names: list[str]) -> list[Estimate]:
    """The metric in each cell as an Estimate named by ``names``."""
    return [
        Estimate(name, float(row[metric.value]), float(row[metric.low]), float(row[metric.high]))
        for name, (_, row) in zip(names, cells.iterrows(), strict=True)
    ]


def marginal(cells: pd.DataFrame, key: str, metric: Metric) -> pd.DataFrame:
    """The metric at each value of ``key``, averaged over the cells that share it (every
    combination of the other keys weighs the same): ``value``, ``ci_low``, ``ci_high``
    (the mean of the cells' bounds, which holds whatever the correlation between the
    cells, since the standard deviation of a mean is at most the mean of the standard
    deviations) and ``cells``. Indexed by the key's values in grid order."""
    order = list(dict.fromkeys(cells[key]))
    grouped = cells.groupby(key, sort=False).agg(
        value=(metric.value, "mean"),
        ci_low=(metric.low, "mean"),
        ci_high=(metric.high, "mean"),
        cells=(metric.value, "size"),
    )
    return grouped.reindex(order)


def contexts(cells: pd.DataFrame, keys: list[str], key: str) -> list[tuple[str, pd.DataFrame]]:
    """The cells grouped by the values of every key but ``key`` (in grid order), each with
    its name (``points_to_end = 20``; ``all cells`` when ``key`` is the only key)."""
    others = [k for k in keys if k != key]
    if not others:
        return [("all cells", cells)]
    groups = []
    for values, part in cells.groupby(others, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        name = ", ".join(setting_text(k, v) for k, v in zip(others, values, strict=True))
        groups.append((name, part))
    return groups


def setting_answers(cells: pd.DataFrame, keys: list[str], key: str) -> pd.DataFrame:
    """For a swept strategy parameter ``seat<N>.<parameter>``: at each combination of the
    other keys, the value that gives seat N the highest and the lowest win share, with its
    interval, and whether the data separate it from every other value (``best_clear``,
    ``worst_clear``; ``best_level`` and ``worst_level`` list the values not separated)."""
    from zooanalysis.separation import standout

    seat = int(key.split(".", 1)[0].removeprefix("seat"))
    share = win_metric(f"seat{seat}")
    rows = []
    for context, part in contexts(cells, keys, key):
        named = estimates(part, share, [value_text(v) for v in part[key]])
        row: dict[str, object] = {"where": context}
        for word, answer in (("best", standout(named)), ("worst", standout(named, False))):
            row[word] = answer.top.name
            row[f"{word}_share"] = answer.top.value
            row[f"{word}_ci_low"] = answer.top.low
            row[f"{word}_ci_high"] = answer.top.high
            row[f"{word}_clear"] = answer.clear
            row[f"{word}_level"] = ", ".join(e.name for e in answer.level)
        rows.append(row)
    return pd.DataFrame(rows)


def rule_effects(cells: pd.DataFrame, key: str) -> pd.DataFrame:
    """For a swept rule: every balance metric and strategy's win share (rows) at each value
    of ``key`` (:func:`marginal`), long: ``metric, value, estimate, ci_low, ci_high``, and
    ``measurable`` (the highest and lowest value's intervals do not overlap)."""
    from zooanalysis.separation import standout

    roles = [r for r in strategy_roles(cells) if not r.startswith("seat ")]
    metrics = [*balance_metrics_of(cells),
               *(win_metric(r, f"win share of {r} per seat") for r in roles)]  # fmt: skip
    rows = []
    for metric in metrics:
        table = marginal(cells, key, metric)
        named = [Estimate(value_text(v), r.value, r.ci_low, r.ci_high) for v, r in
                 table.iterrows()]  # fmt: skip
        high, low = standout(named), standout(named, highest=False)
        measurable = low.top.name not in {e.name for e in high.level}
        for value, row in table.iterrows():
            rows.append(
                {"metric": metric.label, "value": value, "estimate": row.value,
                 "ci_low": row.ci_low, "ci_high": row.ci_high, "cells": int(row.cells),
                 "measurable": measurable}
            )  # fmt: skip
    return pd.DataFrame(rows)


class SweepResult:
    """A finished sweep folder as DataFrames: ``zooanalysis.load_run(folder)``.

    ``raw_cells`` is ``cells.parquet`` as written (one row per cell, every metric of
    ``Run.metrics()``); ``cells`` is what the report reads: by-strategy columns renamed by
    role (``seat 1's curious``) and the balance metrics filled in (see the module docstring).
    """

    def __init__(self, raw_cells: pd.DataFrame, spec: dict, path=None) -> None:
        from zooanalysis.games import get_game
        from zooanalysis.strategy_spec import parse_lineup

        self.raw_cells = raw_cells
        self.spec = dict(spec)
        self.path = path
        self.keys: list[str] = list(spec["grid"])
        self.seats = seat_numbers(raw_cells)
        strategies = get_game(spec["game"]).strategies
        self.lineups = [
            [p.label for p in parse_lineup(text, strategies)] for text in raw_cells["lineup"]
        ]
        self.cells, self.pooled = role_cells(with_balance(raw_cells, self.seats), self.keys,
                                             self.lineups)  # fmt: skip
        self.teams = cell_teams(raw_cells)
        """Each cell's teams (seats from 1; None: single players), as ``Run.teams``."""

    @classmethod
    def load(cls, folder) -> SweepResult:
        """Open a finished sweep folder, checked against its ``sweep.json``."""
        from zooanalysis.sweep import load_cells

        raw, spec = load_cells(folder)
        return cls(raw, spec, folder)

    @property
    def game(self) -> str:
        """The game's name, e.g. ``zoology``."""
        return self.spec["game"]

    @property
    def title(self) -> str:
        """The sweep file's title ("" if it had none)."""
        return self.spec.get("title", "")

    @property
    def description(self) -> str:
        """The sweep file's question ("" if it had none)."""
        return self.spec.get("description", "")

    def __repr__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return (
            f"<SweepResult {self.game}: {len(self.cells)} cells x {self.spec['games']:,} games "
            f"over {', '.join(self.keys)}{where}>"
        )

    def win_shares(self) -> pd.DataFrame:
        """Every cell's win share by seat (ties split) with its 95% interval, long: the grid's
        keys, ``seat`` (from 1), ``share``, ``ci_low``, ``ci_high``, ``n``."""
        frames = []
        for seat in self.seats:
            metric = win_metric(f"seat{seat}")
            frame = self.cells[self.keys].copy()
            frame["seat"] = seat
            for column, source in (("share", metric.value), ("ci_low", metric.low),
                                   ("ci_high", metric.high), ("n", metric.n)):  # fmt: skip
                frame[column] = self.cells[source].to_numpy()
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def balance(self) -> pd.DataFrame:
        """Every cell's balance metrics (length, shared wins, balance across seats,
        first-player advantage, margin, lead changes, drama), long: the grid's keys,
        ``metric``, ``value``, ``ci_low``, ``ci_high``."""
        frames = []
        for metric in balance_metrics_of(self.cells):
            frame = self.cells[self.keys].copy()
            frame["metric"] = metric.label
            frame["value"] = self.cells[metric.value].to_numpy()
            frame["ci_low"] = self.cells[metric.low].to_numpy()
            frame["ci_high"] = self.cells[metric.high].to_numpy()
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def best_settings(self, key: str) -> pd.DataFrame:
        """For a swept strategy parameter: its best and worst value at each combination of
        the other keys (:func:`setting_answers`)."""
        if key.startswith("settings.") or key not in self.keys:
            raise KeyError(f"{key!r} is not a swept strategy parameter of this sweep")
        return setting_answers(self.cells, self.keys, key)

    def effects(self, key: str) -> pd.DataFrame:
        """For a swept rule: each metric at each of its values (:func:`rule_effects`)."""
        if key not in self.keys:
            raise KeyError(f"{key!r} is not a key of this sweep ({', '.join(self.keys)})")
        return rule_effects(self.cells, key)

    def summary(self) -> str:
        """The win share by seat in every cell, as text (``zoosim show``)."""
        from zooanalysis.sweep import sweep_summary

        return sweep_summary(self.path)
