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
        r'<h3 id="table-([^"]+)">.*?<div class="table-wrap[^"]*"[^>]*>(.*?)</div>', text, re.S
    ):
        rows = [
            [html.unescape(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
        ]
        tables[name] = pd.DataFrame(rows[1:], columns=rows[0])
    return tables


def links_of(text: str) -> tuple[list[str], set[str]]:
    """Every ``href`` of a page and every ``id`` in it."""
    hrefs = [html.unescape(h) for h in re.findall(r'href="([^"]*)"', text)]
    ids = {html.unescape(i) for i in re.findall(r'\sid="([^"]*)"', text)}
    return hrefs, ids


def assert_links_work(report: Path) -> None:
    """Every link of the report works: ``#x`` names an id of the page, anything else is a
    file of the report folder (a figure's SVG); nothing reaches out. There is a table of
    contents linking every section, and each figure links its SVG."""
    text = (report / "report.html").read_text(encoding="utf-8")
    hrefs, ids = links_of(text)
    assert hrefs, "the report has no links"
    for href in hrefs:
        if href.startswith("#"):
            assert href[1:] in ids, f"link {href} goes nowhere"
        else:
            assert "://" not in href and not href.startswith(("/", "data:")), href
            assert (report / href).resolve().is_relative_to(report.resolve()), href
            assert (report / href).is_file(), f"link {href}: no such file"
    assert 'id="contents"' in text
    sections = re.findall(r'<h2 id="([^"]+)"', text)
    contents = text[text.index('id="contents"') : text.index("</nav>")]
    for anchor in sections:
        if anchor != "contents":
            assert f'href="#{anchor}"' in contents, f"section {anchor} is not in the contents"
    for name in re.findall(r'<figure id="fig-([^"]+)"', text):
        assert f'href="figures/{name}.svg"' in text, f"figure {name} does not link its SVG"


def assert_report_reads_right(report: Path) -> None:
    """No +- for an interval, every link works (:func:`assert_links_work`), and in every
    HTML table: no None/nan, no exponent notation, no raw metric ids in the cells, seats
    numbered from 1, Zoo Cards and seats never 0."""
    assert_links_work(report)
    text = (report / "report.html").read_text(encoding="utf-8")
    assert "±" not in text and "+-" not in text
    tables = html_tables(report)
    assert tables, "the report has no tables"
    for name, table in tables.items():
        cells = table.to_numpy().ravel().tolist()
        assert not {"None", "nan", "NaN"} & set(cells), name
        assert not [c for c in cells if EXPONENT.search(c)], (name, cells)
        assert not [c for c in cells if RAW_METRIC_IDS.match(c)], (name, cells)
        for header in table.columns:
            column = header.replace(" ", "_")  # headers are shown with spaces for underscores
            if column in ("seat", "versus_seat", "card") or column.endswith("_seat"):
                numbers = [int(c.replace(",", "")) for c in table[header] if c.isdigit()]
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


def phone_problems(figure) -> list[str]:
    """Why a figure would not read on a 390 px phone: wider than ``MAX_FIGURE_WIDTH`` inches
    (its text shrinks below 7.8 px for 10 pt), or text smaller than ``MIN_FONT_SIZE``."""
    from zooanalysis.report.style import MAX_FIGURE_WIDTH, MIN_FONT_SIZE

    problems = []
    width = figure.get_size_inches()[0]
    if width > MAX_FIGURE_WIDTH + 1e-9:
        problems.append(f"{width:.1f} inches wide")
    figure.canvas.draw()
    for text in figure.findobj(lambda o: hasattr(o, "get_fontsize") and hasattr(o, "get_text")):
        if text.get_visible() and text.get_text().strip() and text.get_fontsize() < MIN_FONT_SIZE:
            problems.append(f"{text.get_text()!r} at {text.get_fontsize()} pt")
    return problems


def assert_no_clipped_text(document) -> None:
    """No figure of a report document has a label, tick or legend outside its frame, and
    every figure reads on a phone (:func:`phone_problems`)."""
    for section in document.sections:
        for shown in section.figures:
            assert not clipped_texts(shown.figure), (shown.name, clipped_texts(shown.figure))
            assert not phone_problems(shown.figure), (shown.name, phone_problems(shown.figure))
