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
                assert numbers and min(numbers) >= 1, (name, column)
