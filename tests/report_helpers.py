"""Checks every report must pass, whatever the game: what a reader sees reads right."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pandas as pd

RAW_METRIC_IDS = re.compile(r"^(seat\d+_\w+|\w+_(win|rate|mean|ci_low|ci_high))$")
EXPONENT = re.compile(r"\de[+-]\d")


def html_tables(report: Path) -> dict[str, pd.DataFrame]:
    """Every table of ``report/report.html`` as text cells, by its name."""
    text = (report / "report.html").read_text(encoding="utf-8")
    tables = {}
    for name, body in re.findall(
        r'<h3 id="table-([^"]+)">.*?<div class="table-wrap">(.*?)</div>', text, re.S
    ):
        rows = [
            [html.unescape(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
        ]
        tables[name] = pd.DataFrame(rows[1:], columns=rows[0])
    return tables


def assert_report_reads_right(report: Path) -> None:
    """No +- for an interval, and in every HTML table: no None/nan, no exponent notation, no
    raw metric ids in the cells, seats numbered from 1, Zoo Cards and seats never 0."""
    text = (report / "report.html").read_text(encoding="utf-8")
    assert "±" not in text and "+-" not in text
    tables = html_tables(report)
    assert tables, "the report has no tables"
    for name, table in tables.items():
        cells = table.to_numpy().ravel().tolist()
        assert not {"None", "nan", "NaN"} & set(cells), name
        assert not [c for c in cells if EXPONENT.search(c)], (name, cells)
        assert not [c for c in cells if RAW_METRIC_IDS.match(c)], (name, cells)
        for column in table.columns:
            if column in ("seat", "versus_seat", "card") or column.endswith("_seat"):
                numbers = [int(c.replace(",", "")) for c in table[column] if c.isdigit()]
                if column == "card" and not numbers:
                    continue  # cards named in notation ("7H"), not numbered
                assert numbers and min(numbers) >= 1, (name, column)


def clipped_texts(figure) -> list[str]:
    """What a matplotlib figure draws outside its frame, after drawing: each axes whose
    drawn labels, tick labels, title or legend reach outside (its label, or "axes <i>"), and
    each figure-level legend or text that does."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    frame = figure.bbox

    def outside(extent) -> bool:
        return (
            extent.x0 < frame.x0 - 2
            or extent.y0 < frame.y0 - 2
            or extent.x1 > frame.x1 + 2
            or extent.y1 > frame.y1 + 2
        )

    clipped = []
    for index, axes in enumerate(figure.axes):
        if axes.get_visible() and outside(axes.get_tightbbox(renderer)):
            clipped.append(axes.get_xlabel() or axes.get_ylabel() or f"axes {index}")
    for legend in figure.legends:
        if outside(legend.get_window_extent(renderer)):
            clipped.append("figure legend")
    for text in figure.texts:
        if text.get_text().strip() and outside(text.get_window_extent(renderer)):
            clipped.append(text.get_text())
    return clipped


def assert_no_clipped_text(document) -> None:
    """No figure of a report document has a label, tick or legend outside its frame."""
    for section in document.sections:
        for shown in section.figures:
            assert not clipped_texts(shown.figure), (shown.name, clipped_texts(shown.figure))
