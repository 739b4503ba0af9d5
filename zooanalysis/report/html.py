"""Write a :class:`ReportDocument` as one self-contained HTML file plus PNG, SVG and CSV files.

The HTML embeds every figure as a base64 PNG and has no scripts, external styles or fonts,
so it opens offline; its only links are to its own parts (a table of contents, figures named
in the text) and to each figure's SVG in ``figures/`` beside it, to open full size. On a phone
(390 px) the figures stack in one column and fit the width, and every table shows its key
columns without scrolling; wider tables and long ones scroll inside their own box. The
folder is built under a temporary name and renamed into place at the end, so an error leaves
no half-written report.
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.report.model import Figure, Finding, ReportDocument, Table

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;
margin:0 auto;padding:1rem;max-width:64rem;color:#1a1a1a;background:#fff}
p,ul,ol,dl,.caveat,nav{max-width:46rem}
h1{font-size:1.6rem;margin-bottom:.2rem;overflow-wrap:anywhere}h2{font-size:1.3rem;
margin-top:2.2rem;border-bottom:1px solid #ddd;overflow-wrap:anywhere}
h3{font-size:1.05rem;overflow-wrap:anywhere}
.subtitle{color:#555;margin-top:0}
a{color:#0b5cad}
img{max-width:100%;height:auto;display:block}
.figures{display:grid;gap:0 1.5rem;
grid-template-columns:repeat(auto-fit,minmax(min(100%,28rem),1fr))}
figure{margin:1rem 0;min-width:0}figcaption{font-size:.9rem;color:#444}
.findings{padding-left:1.4rem}.findings li{margin-bottom:1rem}
.toc ol{padding-left:1.4rem}.toc li{margin:.15rem 0}
.table-wrap{overflow:auto;margin:.5rem 0 1rem;max-width:100%}
.table-wrap.long{max-height:30rem}
table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}
th,td{padding:.2rem .35rem;border-bottom:1px solid #e5e5e5;text-align:right;
white-space:nowrap;vertical-align:top}
th{background:#f6f6f6;position:sticky;top:0;white-space:normal;min-width:2.5rem}
th.t,td.t{text-align:left;white-space:normal;min-width:3.5rem;max-width:14rem;
overflow-wrap:anywhere}
dt{font-weight:600;margin-top:.6rem}dd{margin-left:1rem;overflow-wrap:anywhere}
.caveat{background:#fff7e0;border-left:4px solid #E69F00;padding:.5rem .8rem}
.note{color:#555;font-size:.9rem}
"""


def write_report(document: ReportDocument, out: Path) -> Path:
    """Write ``out/report.html``, ``out/figures/*.png|svg`` and ``out/tables/*.csv``.

    An existing report folder at ``out`` is replaced only once the new one is complete.
    Returns the path of ``report.html``.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        # mkdtemp makes the folder private (0700); the report is meant to be shared
        os.chmod(temporary, default_folder_mode())
        (temporary / "figures").mkdir()
        (temporary / "tables").mkdir()
        images = _save_figures(document, temporary / "figures")
        for table in _all_tables(document):
            table.data.to_csv(temporary / "tables" / f"{table.name}.csv", index=table.index)
        findings_table(all_findings(document)).to_csv(
            temporary / "tables" / "findings.csv", index=False
        )
        (temporary / "report.html").write_text(render(document, images), encoding="utf-8")
        _replace_folder(temporary, out)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    return out / "report.html"


def default_folder_mode() -> int:
    """The mode a plain ``mkdir`` would give a new folder: 0777 less the process umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o777 & ~mask


def findings_table(findings: list[Finding]) -> pd.DataFrame:
    """The findings as a table: key, text, value, 95% interval, n, figure."""
    return pd.DataFrame(
        [
            {
                "key": f.key,
                "text": f.text,
                "value": f.value,
                "ci_low": f.ci_low,
                "ci_high": f.ci_high,
                "n": f.n,
                "figure": f.figure or "",
            }
            for f in findings
        ],
        columns=["key", "text", "value", "ci_low", "ci_high", "n", "figure"],
    )


def render(document: ReportDocument, images: dict[str, str]) -> str:
    """The report's HTML, given each figure's base64 PNG by name."""
    figures = {figure.name: figure for figure in _all_figures(document)}
    anchors = section_anchors(document)
    shown: set[str] = set()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_text(document.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{_text(document.title)}</h1>",
        f'<p class="subtitle">{_text(document.subtitle)}</p>',
        f'<p class="caveat">{_text(document.caveat)}</p>',
    ]
    if document.strategies:
        parts.append("<p>The numbers below were produced by these strategies:</p><ul>")
        parts += [
            f"<li><b>{_text(name)}</b>: {_text(description)}</li>"
            for name, description in document.strategies.items()
        ]
        parts.append("</ul>")
    parts.append(_contents(document, anchors))
    parts.append('<h2 id="findings">Findings</h2><ol class="findings">')
    for finding in all_findings(document):
        parts.append(f"<li {_finding_data(finding)}><p>{_text(finding.text)}</p>")
        name = finding.figure
        if name and name in figures:
            if name in shown:
                parts.append(
                    f'<p class="note">See the figure {_figure_link(figures[name])} above.</p>'
                )
            else:
                parts.append(_figure_html(figures[name], images[name]))
                shown.add(name)
        parts.append("</li>")
    parts.append("</ol>")
    for section, anchor in zip(document.sections, anchors, strict=True):
        parts.append(f'<h2 id="{anchor}">{_text(section.title)}</h2>')
        if section.intro:
            parts.append(f"<p>{_text(section.intro)}</p>")
        grid = []
        for figure in section.figures:
            if figure.name in shown:
                parts.append(
                    f'<p class="note">Figure {_figure_link(figure)}: shown with the findings '
                    "above.</p>"
                )
            else:
                grid.append(_figure_html(figure, images[figure.name]))
                shown.add(figure.name)
        if grid:
            parts.append('<div class="figures">' + "".join(grid) + "</div>")
        for table in section.tables:
            parts.append(_table_html(table))
    parts.append('<h2 id="appendix">Appendix: definitions</h2><dl>')
    for term, text in _all_definitions(document).items():
        parts.append(f"<dt>{_text(term)}</dt><dd>{_text(text)}</dd>")
    parts.append("</dl>")
    if document.facts:
        parts.append('<h3 id="sources">Where the numbers come from</h3><dl>')
        for label, value in document.facts.items():
            parts.append(f"<dt>{_text(label)}</dt><dd>{_text(value)}</dd>")
        parts.append("</dl>")
    parts.append(
        '<p class="note">Figures are also in figures/ (PNG and SVG) and every table in '
        'tables/ (CSV), next to this file. <a href="#contents">Back to the contents</a>.</p>'
        "</body></html>"
    )
    return "\n".join(parts)


def section_anchors(document: ReportDocument) -> list[str]:
    """A unique ``id`` for each section, from its title (``sec-does-seat-order-matter``)."""
    anchors: list[str] = []
    for section in document.sections:
        base = "sec-" + ("-".join(re.findall(r"[a-z0-9]+", section.title.lower())) or "part")
        anchor, number = base, 2
        while anchor in anchors:
            anchor, number = f"{base}-{number}", number + 1
        anchors.append(anchor)
    return anchors


def _contents(document: ReportDocument, anchors: list[str]) -> str:
    """The table of contents: findings, every section (with its figures and tables), the
    appendix and the sources."""
    items = ['<li><a href="#findings">Findings</a></li>']
    for section, anchor in zip(document.sections, anchors, strict=True):
        inner = [
            f'<li><a href="#fig-{_text(f.name)}">{_text(f.title)}</a></li>' for f in section.figures
        ] + [
            f'<li><a href="#table-{_text(t.name)}">{_text(t.title)}</a></li>'
            for t in section.tables
        ]
        sub = f"<ol>{''.join(inner)}</ol>" if inner else ""
        items.append(f'<li><a href="#{anchor}">{_text(section.title)}</a>{sub}</li>')
    items.append('<li><a href="#appendix">Appendix: definitions</a></li>')
    if document.facts:
        items.append('<li><a href="#sources">Where the numbers come from</a></li>')
    return f'<nav class="toc" id="contents"><h2>Contents</h2><ol>{"".join(items)}</ol></nav>'


def _figure_link(figure: Figure) -> str:
    return f'<a href="#fig-{_text(figure.name)}">"{_text(figure.title)}"</a>'


def _figure_html(figure: Figure, image: str) -> str:
    svg = f"figures/{figure.name}.svg"
    return (
        f'<figure id="fig-{_text(figure.name)}"><h3>{_text(figure.title)}</h3>'
        f'<a href="{svg}" title="Open the figure full size (SVG)">'
        f'<img src="data:image/png;base64,{image}" alt="{_text(figure.title)}"></a>'
        f"<figcaption>{_text(figure.caption)} "
        f'<a href="{svg}">Open full size (SVG)</a>.</figcaption></figure>'
    )


LONG_TABLE = 15
"""Tables with more rows than this scroll inside their own box."""


def _table_html(table: Table) -> str:
    data = table.data if table.shown is None else table.shown
    if table.show_rows == 0:
        return (
            f'<h3 id="table-{_text(table.name)}">{_text(table.title)}</h3><p class="note">'
            f"{len(data):,} rows, in tables/{_text(table.name)}.csv.</p>"
        )
    note = ""
    if len(data) > table.show_rows:
        note = (
            f'<p class="note">First {table.show_rows} of {len(data):,} rows; all are in '
            f"tables/{_text(table.name)}.csv.</p>"
        )
        data = data.head(table.show_rows)
    shown, index = display_frame(data, table.index, table.hidden)
    if index:
        shown = shown.reset_index()
    keys = key_column_count(shown, table.key_columns)
    caption = f'<p class="note">{_text(table.caption)}</p>' if table.caption else ""
    long = " long" if len(shown) > LONG_TABLE else ""
    return (
        f'<h3 id="table-{_text(table.name)}">{_text(table.title)}</h3>{caption}'
        f'<div class="table-wrap{long}" data-table="{_text(table.name)}" '
        f'data-key-columns="{keys}">{table_body(shown)}</div>'
        f"{note}"
    )


def key_column_count(shown: pd.DataFrame, requested: int | None) -> int:
    """How many leading columns are the table's key ones: ``requested`` if given, else up to
    and including the first column with an interval (at most three), else two."""
    if requested is not None:
        return min(requested, len(shown.columns))
    for position, column in enumerate(shown.columns[:3]):
        if str(column).endswith(INTERVAL_SUFFIX):
            return position + 1
    return min(2, len(shown.columns))


def table_body(shown: pd.DataFrame) -> str:
    """A text frame as an HTML table: text columns (class ``t``) may wrap, number columns
    stay on one line; headers wrap, with spaces for underscores."""
    kinds = ["n" if _numeric_column(shown[c]) else "t" for c in shown.columns]
    head = "".join(
        f'<th class="{kind}">{_text(str(column).replace("_", " "))}</th>'
        for column, kind in zip(shown.columns, kinds, strict=True)
    )
    rows = "".join(
        "<tr>"
        + "".join(
            f'<td class="{kind}">{_text(cell)}</td>' for cell, kind in zip(row, kinds, strict=True)
        )
        + "</tr>"
        for row in shown.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


NUMBER_CELL = re.compile(r"^[−\-+<>–∞%.,\d\s\[\]]*(points)?$")


def _numeric_column(cells: pd.Series) -> bool:
    """Whether every cell reads as a number, a percentage or an interval."""
    return all(NUMBER_CELL.match(str(cell)) for cell in cells)


INTERVAL_SUFFIX = " [95% CI]"
PERCENT_BASES = ("share", "rate", "win_share", "won_or_shared")
"""Columns holding a fraction shown in percent when they have an interval."""


def combine_intervals(data: pd.DataFrame) -> pd.DataFrame:
    """Each value with its 95% interval in one narrow column ``<name> [95% CI]``: a column
    ``x`` with ``x_ci_low``/``x_ci_high``, or a ``share``, ``rate``, ``mean`` or
    ``difference`` column with ``ci_low``/``ci_high``. Shares and rates read in percent,
    a ``difference`` of shares in percentage points, anything else in its own units."""
    from zooanalysis.report.model import mean_phrase, points_phrase, rate_phrase

    combined: dict[str, list[str]] = {}
    used: set[str] = set()
    for column in data.columns:
        name = str(column)
        if name in used or not pd.api.types.is_numeric_dtype(data[column]):
            continue
        low, high = f"{name}_ci_low", f"{name}_ci_high"
        if not (low in data.columns and high in data.columns):
            low, high = "ci_low", "ci_high"
            if name not in (*PERCENT_BASES, "mean", "difference") or low in used or not (
                low in data.columns and high in data.columns
            ):
                continue
        if name in PERCENT_BASES or name.endswith(("_rate", "_share")):
            phrase = rate_phrase
        elif name == "difference" and low == "ci_low":
            phrase = points_phrase
        else:
            phrase = mean_phrase
        combined[name] = [
            "–" if any(pd.isna(v) for v in (value, a, b)) else phrase(value, a, b)
            for value, a, b in zip(data[column], data[low], data[high], strict=True)
        ]
        used.update((name, low, high))
    if not combined:
        return data
    out = {}
    for column in data.columns:
        name = str(column)
        if name in combined:
            out[name + INTERVAL_SUFFIX] = combined[name]
        elif name not in used:
            out[column] = data[column].to_numpy()
    return pd.DataFrame(out, index=data.index)


def display_frame(
    data: pd.DataFrame, index: bool, hidden: tuple[str, ...] = ()
) -> tuple[pd.DataFrame, bool]:
    """The table as a reader sees it: a named index becomes the first columns, ``hidden``
    columns are left out, and every cell is text (:func:`format_cell`). Returns the frame
    and whether its index is still to be shown."""
    if index and data.columns.name is None and any(n is not None for n in data.index.names):
        data = data.reset_index()
        index = False
    data = combine_intervals(data.drop(columns=[c for c in hidden if c in data.columns]))
    shown = pd.DataFrame(
        {
            column: [format_cell(value, str(column)) for value in data[column]]
            for column in data.columns
        },
        index=data.index,
        columns=data.columns,
    )
    return shown, index


def format_cell(value: object, column: str = "") -> str:
    """One table cell as text: whole numbers with thousands separators, p-values below
    0.0001 as ``< 0.0001``, other numbers with four significant digits and never in
    exponent notation, missing values (None, nan) as ``–``, booleans as yes/no."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer):
        return f"{int(value):,}"
    if not isinstance(value, float | np.floating):
        return str(value)
    number = float(value)
    if math.isinf(number):
        return "∞" if number > 0 else "−∞"
    if column.startswith("p_") and 0 <= number < 1e-4:
        return "< 0.0001"
    if number.is_integer() and abs(number) < 1e15:
        return f"{int(number):,}"
    if abs(number) >= 1000:
        return f"{number:,.1f}"
    if abs(number) >= 1e-4:
        return f"{number:.4g}"
    if abs(number) >= 1e-9:
        return np.format_float_positional(number, precision=3, fractional=False, trim="-")
    return "< 0.000000001" if number > 0 else "> −0.000000001"


def _finding_data(finding: Finding) -> str:
    """Machine-readable attributes of a finding (the tests read them)."""
    return (
        f'class="finding" data-key="{_text(finding.key)}" data-value="{finding.value!r}" '
        f'data-ci-low="{finding.ci_low!r}" data-ci-high="{finding.ci_high!r}" '
        f'data-n="{finding.n}" data-figure="{_text(finding.figure or "")}"'
    )


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


def all_findings(document: ReportDocument) -> list[Finding]:
    """The report's findings: the document's own, then every section's, in order."""
    return [*document.findings, *(f for section in document.sections for f in section.findings)]


def _all_figures(document: ReportDocument) -> list[Figure]:
    return [figure for section in document.sections for figure in section.figures]


def _all_tables(document: ReportDocument) -> list[Table]:
    return [table for section in document.sections for table in section.tables]


def _all_definitions(document: ReportDocument) -> dict[str, str]:
    definitions = dict(document.definitions)
    for section in document.sections:
        definitions.update(section.definitions)
    return definitions


def _save_figures(document: ReportDocument, folder: Path) -> dict[str, str]:
    """Save every figure as PNG and SVG; returns the PNGs base64-encoded by name."""
    images: dict[str, str] = {}
    for figure in _all_figures(document):
        if figure.name in images:
            raise ValueError(f"two figures are called {figure.name!r}")
        png = folder / f"{figure.name}.png"
        figure.figure.savefig(png, format="png", dpi=150)
        figure.figure.savefig(folder / f"{figure.name}.svg", format="svg", metadata={"Date": None})
        images[figure.name] = base64.b64encode(png.read_bytes()).decode("ascii")
    return images


def _replace_folder(new: Path, out: Path) -> None:
    """Move the finished folder ``new`` to ``out``, replacing an older report there."""
    if out.exists():
        if not (out / "report.html").is_file() and any(out.iterdir()):
            raise FileExistsError(f"{out} exists and is not a report folder")
        old = new.with_name(new.name + ".old")
        os.replace(out, old)
        os.replace(new, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(new, out)
