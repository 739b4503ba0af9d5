"""The report of a sweep folder: win rate with its interval in every cell of the grid.

One swept key: a line per seat over the key's values with 95% bands. Two keys: one heatmap
per seat, each cell annotated with its rate and interval half-width. More keys: the table.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.report.model import Figure, Finding, ReportDocument, Section, Table, rate_phrase
from zooanalysis.report.style import HEATMAP, PALETTE, new_figure, new_grid, percent_axis

SEAT_COLUMN = re.compile(r"^seat(\d+)_win_rate$")


def sweep_document(folder: Path) -> ReportDocument:
    """Everything ``zoosim report`` shows for a finished sweep folder."""
    cells = pd.read_parquet(folder / "cells.parquet")
    spec = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
    keys = list(spec["grid"])
    seats = sorted(int(m.group(1)) for c in cells.columns if (m := SEAT_COLUMN.match(c)))
    if keys and len(keys) <= 2:
        figures = (
            [line_figure(cells, keys[0], seats)]
            if len(keys) == 1
            else [heatmap_figure(cells, keys[0], keys[1], seats)]
        )
    else:
        figures = []
    findings = [seat_spread_finding(cells, keys, seat, figures) for seat in seats[:1]]
    shown = cells[["cell", *keys, "lineup", *_rate_columns(cells, seats)]]
    section = Section(
        title="Sweep",
        intro=(
            f"{len(cells)} cells x {spec['games']:,} games, lineup {spec['players']}, seed "
            f"{spec['seed']}: every cell plays the same deals, so cells differ only by what "
            f"the grid changes ({', '.join(keys)})."
            + ("" if figures else " With more than two swept keys, see the table.")
        ),
        figures=figures,
        tables=[
            Table("cells", "Every cell: win rate by seat (95% CI)", shown, index=False),
            Table(
                "cells_all_metrics", "Every metric of every cell", cells, index=False, show_rows=0
            ),
        ],
        definitions={
            "Sweep cell": "One run with one combination of the grid's values. Every cell "
            "uses the same seed and so the same deals (common random numbers).",
            "Win rate": "The share of a cell's games a seat won (tied winners all win), with "
            "its 95% Wilson interval.",
        },
    )
    return ReportDocument(
        title=f"{spec['game']} sweep report",
        subtitle=f"Grid over {', '.join(keys)}; {len(cells)} cells of {spec['games']:,} games.",
        findings=findings,
        sections=[section],
        facts={"Sweep folder": str(folder), "Sweep": json.dumps(spec, sort_keys=True)},
    )


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
    """Where in the grid a seat wins most, with its interval."""
    column = f"seat{seat}_win"
    best = cells.loc[cells[f"{column}_rate"].idxmax()]
    worst = cells.loc[cells[f"{column}_rate"].idxmin()]

    def phrase(cell: pd.Series) -> str:
        where = ", ".join(f"{key} = {cell[key]}" for key in keys)
        rate = rate_phrase(
            cell[f"{column}_rate"], cell[f"{column}_ci_low"], cell[f"{column}_ci_high"]
        )
        return f"{where}: {rate}"

    return Finding(
        f"Seat {seat} wins most with {phrase(best)}; least with {phrase(worst)}.",
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
    axes.set_ylabel("Games won (%)")
    percent_axis(axes)
    axes.legend(fontsize=8)
    return Figure(
        "sweep_win_rate", f"Win rate by seat over {key}", figure, "Bands: 95% Wilson intervals."
    )


def heatmap_figure(cells: pd.DataFrame, row_key: str, column_key: str, seats: list[int]) -> Figure:
    """One heatmap per seat over two swept keys, cells annotated with rate ± half-width."""
    columns = min(2, len(seats))
    rows = -(-len(seats) // columns)
    rows_values = sorted(cells[row_key].unique())
    column_values = sorted(cells[column_key].unique())
    figure, grid = new_grid(rows, columns, 4.2 * columns, 0.9 + 0.5 * len(rows_values) * rows)
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
                half = max(high.loc[r, c] - value, value - low.loc[r, c])
                axes.text(
                    j,
                    i,
                    f"{100 * value:.1f}\n±{100 * half:.1f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if value < 0.4 else "black",
                )
        axes.set_xticks(range(len(column_values)), [str(v) for v in column_values])
        axes.set_yticks(range(len(rows_values)), [str(v) for v in rows_values])
        axes.set_xlabel(column_key)
        axes.set_ylabel(row_key)
        axes.set_title(f"Seat {seat}: games won (%)")
    for index in range(len(seats), rows * columns):
        grid[index // columns, index % columns].set_visible(False)
    if image is not None:
        bar = figure.colorbar(image, ax=grid.ravel().tolist(), shrink=0.8)
        bar.set_label("Games won (%)")
        percent_axis(bar.ax)
    return Figure(
        "sweep_win_rate",
        f"Win rate by seat over {row_key} and {column_key}",
        figure,
        "Each cell: win rate in percent and the half-width of its 95% Wilson interval "
        "(percentage points).",
    )
