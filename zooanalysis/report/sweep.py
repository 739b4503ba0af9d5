"""The report of a sweep folder: win rate with its interval in every cell of the grid.

One swept key: a line per seat over the key's values with 95% bands. Two keys: one heatmap
per seat, each cell annotated with its share and interval. More keys: one row per
cell, every seat's win rate with its interval. Always: the game's other metrics that carry
an interval (game length, tie rate ...) cell by cell.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.report.model import (
    Figure,
    Finding,
    ReportDocument,
    Section,
    Table,
    estimates_of,
    rate_phrase,
)
from zooanalysis.report.seat_order import sweep_seat_order_section
from zooanalysis.report.style import HEATMAP, PALETTE, new_figure, new_grid, percent_axis
from zooanalysis.separation import standout

SEAT_COLUMN = re.compile(r"^seat(\d+)_win_rate$")


def sweep_document(folder: Path) -> ReportDocument:
    """Everything ``zoosim report`` shows for a finished sweep folder."""
    from zooanalysis.sweep import load_cells

    cells, spec = load_cells(folder)
    keys = list(spec["grid"])
    seats = sorted(int(m.group(1)) for c in cells.columns if (m := SEAT_COLUMN.match(c)))
    if keys and len(keys) <= 2:
        figures = (
            [line_figure(cells, keys[0], seats)]
            if len(keys) == 1
            else [heatmap_figure(cells, keys[0], keys[1], seats)]
        )
    else:
        figures = [cells_figure(cells, keys, seats)] if keys else []
    metrics = interval_metrics(cells)
    if keys and metrics:
        figures.append(metrics_figure(cells, keys, metrics))
    findings = [seat_spread_finding(cells, keys, seat, figures) for seat in seats[:1]]
    shown = cells[["cell", *keys, "lineup", *_rate_columns(cells, seats)]].copy()
    for seat in seats:
        prefix = f"seat{seat}_win"
        shown[f"seat {seat}: win share"] = [
            rate_phrase(rate, low, high)
            for rate, low, high in zip(
                cells[f"{prefix}_rate"], cells[f"{prefix}_ci_low"], cells[f"{prefix}_ci_high"],
                strict=True,
            )
        ]  # fmt: skip
    section = Section(
        title="Sweep",
        intro=(
            f"{len(cells)} cells x {spec['games']:,} games, lineup {spec['players']}, seed "
            f"{spec['seed']}: every cell plays the same deals, so cells differ only by what "
            f"the grid changes ({', '.join(keys)})." + ("" if figures else " See the table.")
        ),
        figures=figures,
        tables=[
            Table(
                "cells",
                "Every cell: win share by seat (95% CI)",
                shown,
                "Win share: a game won by k tied winners gives each 1/k.",
                index=False,
                hidden=("cell", *_rate_columns(cells, seats)),
            ),
            Table(
                "cells_all_metrics", "Every metric of every cell", cells, index=False, show_rows=0
            ),
        ],
        definitions={
            "Sweep cell": "One run with one combination of the grid's values. Every cell "
            "uses the same seed and so the same deals (common random numbers).",
            "Win share": "A seat's share of a cell's wins (a game won by k tied winners gives "
            "each 1/k), with its 95% Wilson interval; seat<k>_won_or_shared_* counts every "
            "tied winner as winning.",
        },
    )
    return ReportDocument(
        title=f"{spec['game']} sweep report",
        subtitle=f"Grid over {', '.join(keys)}; {len(cells)} cells of {spec['games']:,} games.",
        findings=findings,
        sections=[section, sweep_seat_order_section(cells, keys, seats, cell_lineups(spec, cells))],
        facts={"Sweep folder": str(folder), "Sweep": json.dumps(spec, sort_keys=True)},
    )


def cell_lineups(spec: dict, cells: pd.DataFrame) -> list[list[str]]:
    """Each cell's strategy labels, seat 1 first (parameters may hold commas)."""
    from zooanalysis.games import get_game
    from zooanalysis.strategy_spec import parse_lineup

    strategies = get_game(spec["game"]).strategies
    return [[p.label for p in parse_lineup(text, strategies)] for text in cells["lineup"]]


def _rate_columns(cells: pd.DataFrame, seats: list[int]) -> list[str]:
    return [
        f"seat{seat}_win_{part}"
        for seat in seats
        for part in ("rate", "ci_low", "ci_high", "n")
        if f"seat{seat}_win_{part}" in cells.columns
    ]


def seat_spread_finding(
    cells: pd.DataFrame, keys: list[str], seat: int, figures: list[Figure]
) -> Finding:
    """Where in the grid a seat's win share (ties split) is highest and lowest, named only
    when the cell's interval separates it from the others."""
    column = f"seat{seat}_win"
    labelled = cells.set_axis(
        [", ".join(f"{key} = {cell[key]}" for key in keys) or "the run" for _, cell in
         cells.iterrows()]
    )  # fmt: skip
    estimates = estimates_of(labelled, f"{column}_rate", f"{column}_ci_low", f"{column}_ci_high")
    highest = standout(estimates)
    lowest = standout(estimates, highest=False)

    def phrase(e) -> str:
        return f"{e.name}: {rate_phrase(e.value, e.low, e.high)}"

    def verdict(best, word: str) -> str:
        if best.clear:
            return f"{word} with {phrase(best.top)}"
        shown = best.level[:3]
        more = f" and {len(best.level) - 3} more cells" if len(best.level) > 3 else ""
        return (
            f"not measurably {word} in any one cell ({len(best.level)} are level: "
            f"{'; '.join(map(phrase, shown))}{more})"
        )

    best = labelled.loc[highest.top.name]
    if isinstance(best, pd.DataFrame):
        best = best.iloc[0]
    return Finding(
        f"Seat {seat}'s win share is {verdict(highest, 'highest')}; "
        f"{verdict(lowest, 'lowest')}.",
        best[f"{column}_rate"],
        best[f"{column}_ci_low"],
        best[f"{column}_ci_high"],
        int(best[f"{column}_n"]),
        figures[0].name if figures else None,
        f"seat{seat}_best_cell",
    )


def line_figure(cells: pd.DataFrame, key: str, seats: list[int]) -> Figure:
    """Win rate of every seat over one swept key, with 95% bands."""
    figure, axes = new_figure(6.4, 3.6)
    ordered = cells.sort_values(key)
    numeric = pd.api.types.is_numeric_dtype(ordered[key])
    x = ordered[key] if numeric else np.arange(len(ordered))
    for index, seat in enumerate(seats):
        colour = PALETTE[index % len(PALETTE)]
        prefix = f"seat{seat}_win"
        axes.plot(x, ordered[f"{prefix}_rate"], "o-", color=colour, label=f"seat {seat}")
        axes.fill_between(
            x,
            ordered[f"{prefix}_ci_low"],
            ordered[f"{prefix}_ci_high"],
            color=colour,
            alpha=0.2,
            linewidth=0,
        )
    if not numeric:
        axes.set_xticks(x, ordered[key].astype(str))
    axes.set_xlabel(key)
    axes.set_ylabel("Win share (%)")
    percent_axis(axes)
    axes.legend(fontsize=8)
    return Figure(
        "sweep_win_rate",
        f"Win rate by seat over {key}",
        figure,
        "Win share (ties split); bands: 95% Wilson intervals.",
    )


def heatmap_figure(cells: pd.DataFrame, row_key: str, column_key: str, seats: list[int]) -> Figure:
    """One heatmap per seat over two swept keys, cells annotated with share [low, high]."""
    columns = min(2, len(seats))
    rows = -(-len(seats) // columns)
    rows_values = sorted(cells[row_key].unique())
    column_values = sorted(cells[column_key].unique())
    width = 0.9 + 0.85 * columns * len(column_values)
    figure, grid = new_grid(rows, columns, width, 0.9 + 0.6 * len(rows_values) * rows)
    image = None
    for index, seat in enumerate(seats):
        axes = grid[index // columns, index % columns]
        prefix = f"seat{seat}_win"
        rate = cells.pivot_table(index=row_key, columns=column_key, values=f"{prefix}_rate")
        low = cells.pivot_table(index=row_key, columns=column_key, values=f"{prefix}_ci_low")
        high = cells.pivot_table(index=row_key, columns=column_key, values=f"{prefix}_ci_high")
        rate = rate.reindex(index=rows_values, columns=column_values)
        image = axes.imshow(
            rate.to_numpy(dtype=float), cmap=HEATMAP, vmin=0, vmax=1, aspect="auto", origin="lower"
        )
        for i, r in enumerate(rows_values):
            for j, c in enumerate(column_values):
                value = rate.loc[r, c]
                if np.isnan(value):
                    continue
                colour = "white" if value < 0.4 else "black"
                axes.text(j, i + 0.12, f"{100 * value:.1f}", ha="center", va="center",
                          fontsize=7, color=colour)  # fmt: skip
                axes.text(
                    j, i - 0.2, f"[{100 * low.loc[r, c]:.1f}, {100 * high.loc[r, c]:.1f}]",
                    ha="center", va="center", fontsize=5, color=colour,
                )  # fmt: skip
        axes.set_xticks(range(len(column_values)), [str(v) for v in column_values])
        axes.set_yticks(range(len(rows_values)), [str(v) for v in rows_values])
        axes.set_xlabel(column_key)
        axes.set_ylabel(row_key)
        axes.set_title(f"Seat {seat}: win share (%)")
    for index in range(len(seats), rows * columns):
        grid[index // columns, index % columns].set_visible(False)
    if image is not None:
        bar = figure.colorbar(image, ax=grid.ravel().tolist(), shrink=0.8)
        bar.set_label("Win share (%)")
        percent_axis(bar.ax)
    return Figure(
        "sweep_win_rate",
        f"Win rate by seat over {row_key} and {column_key}",
        figure,
        "Each cell: win share in percent and its 95% Wilson interval in brackets.",
    )


def cell_labels(cells: pd.DataFrame, keys: list[str]) -> list[str]:
    """Each cell as ``key=value, ...`` (``settings.`` prefixes dropped)."""
    return [
        ", ".join(f"{key.removeprefix('settings.')}={row[key]}" for key in keys)
        for _, row in cells.iterrows()
    ]


def interval_metrics(cells: pd.DataFrame) -> list[tuple[str, str]]:
    """(value column, base name) of every metric with a 95% interval other than win rates
    and endings: ``turns_mean``, ``tie_rate`` ..."""
    found = []
    for column in cells.columns:
        for suffix in ("_rate", "_mean"):
            base = column.removesuffix(suffix)
            if (
                column.endswith(suffix)
                and f"{base}_ci_low" in cells.columns
                and f"{base}_ci_high" in cells.columns
                and not base.endswith(("_win", "_won_or_shared"))
                and not base.startswith("end_")
            ):
                found.append((column, base))
    return found


def _dot_rows(axes, y: np.ndarray, values, lows, highs, colour: str, label: str | None) -> None:
    errors = np.vstack([np.asarray(values) - np.asarray(lows), np.asarray(highs) - values])
    axes.errorbar(
        values, y, xerr=np.clip(errors, 0, None), fmt="o", color=colour, capsize=2, label=label
    )


def cells_figure(cells: pd.DataFrame, keys: list[str], seats: list[int]) -> Figure:
    """Every cell on its own row: each seat's win rate with its 95% interval."""
    labels = cell_labels(cells, keys)
    figure, axes = new_figure(7.2, 1.2 + 0.35 * len(cells))
    y = np.arange(len(cells))
    offsets = np.linspace(-0.25, 0.25, len(seats)) if len(seats) > 1 else [0.0]
    for index, seat in enumerate(seats):
        prefix = f"seat{seat}_win"
        _dot_rows(
            axes,
            y + offsets[index],
            cells[f"{prefix}_rate"],
            cells[f"{prefix}_ci_low"],
            cells[f"{prefix}_ci_high"],
            PALETTE[index % len(PALETTE)],
            f"seat {seat}",
        )
    axes.set_yticks(y, labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel("Win share (%)")
    percent_axis(axes, "x")
    axes.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=len(seats))
    return Figure(
        "sweep_win_rate",
        "Win rate by seat in every cell",
        figure,
        "One row per cell of the grid; error bars: 95% Wilson intervals.",
    )


def metrics_figure(cells: pd.DataFrame, keys: list[str], metrics: list[tuple[str, str]]) -> Figure:
    """The game's other metrics with intervals, cell by cell (one panel each, at most four)."""
    shown = metrics[:4]
    labels = cell_labels(cells, keys)
    figure, grid = new_grid(1, len(shown), 3.0 * len(shown) + 1.6, 1.2 + 0.35 * len(cells))
    y = np.arange(len(cells))
    for index, (column, base) in enumerate(shown):
        axes = grid[0, index]
        _dot_rows(
            axes,
            y,
            cells[column],
            cells[f"{base}_ci_low"],
            cells[f"{base}_ci_high"],
            PALETTE[index % len(PALETTE)],
            None,
        )
        axes.set_yticks(y, labels if index == 0 else [""] * len(y), fontsize=7)
        axes.invert_yaxis()
        axes.set_xlabel(column.replace("_", " "))
        if column.endswith("_rate"):
            percent_axis(axes, "x")
    return Figure(
        "sweep_metrics",
        "Other metrics in every cell",
        figure,
        "Each metric with its 95% interval, one row per cell (rates: Wilson; means: normal "
        "approximation). Every metric is in tables/cells_all_metrics.csv.",
    )
