"""Write a :class:`ReportDocument` as one self-contained HTML file plus PNG, SVG and CSV files.

The HTML embeds every figure as a base64 PNG and has no scripts, external styles, fonts or
links, so it opens offline and on a phone. The folder is built under a temporary name and
renamed into place at the end, so an error leaves no half-written report.
"""

from __future__ import annotations

import base64
import html
import math
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.report.model import Figure, Finding, ReportDocument, Table

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;
margin:0 auto;padding:1rem;max-width:52rem;color:#1a1a1a;background:#fff}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.3rem;margin-top:2.2rem;
border-bottom:1px solid #ddd}h3{font-size:1.05rem}
.subtitle{color:#555;margin-top:0}
img{max-width:100%;height:auto;display:block}
figure{margin:1rem 0}figcaption{font-size:.9rem;color:#444}
.findings li{margin-bottom:1rem}
.table-wrap{overflow-x:auto;margin:.5rem 0 1rem}
table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}
th,td{padding:.2rem .5rem;border-bottom:1px solid #e5e5e5;text-align:right;white-space:nowrap}
th{background:#f6f6f6}
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
    parts.append('<h2 id="findings">Findings</h2><ol class="findings">')
    for finding in all_findings(document):
        parts.append(f"<li {_finding_data(finding)}><p>{_text(finding.text)}</p>")
        name = finding.figure
        if name and name in figures:
            if name in shown:
                parts.append(
                    f'<p class="note">See the figure "{_text(figures[name].title)}" above.</p>'
                )
            else:
                parts.append(_figure_html(figures[name], images[name]))
                shown.add(name)
        parts.append("</li>")
    parts.append("</ol>")
    for section in document.sections:
        parts.append(f"<h2>{_text(section.title)}</h2>")
        if section.intro:
            parts.append(f"<p>{_text(section.intro)}</p>")
        for figure in section.figures:
            if figure.name in shown:
                parts.append(
                    f'<p class="note">Figure "{_text(figure.title)}": shown with the '
                    "findings above.</p>"
                )
            else:
                parts.append(_figure_html(figure, images[figure.name]))
                shown.add(figure.name)
        for table in section.tables:
            parts.append(_table_html(table))
    parts.append('<h2 id="appendix">Appendix: definitions</h2><dl>')
    for term, text in _all_definitions(document).items():
        parts.append(f"<dt>{_text(term)}</dt><dd>{_text(text)}</dd>")
    parts.append("</dl>")
    if document.facts:
        parts.append("<h3>Where the numbers come from</h3><dl>")
        for label, value in document.facts.items():
            parts.append(f"<dt>{_text(label)}</dt><dd>{_text(value)}</dd>")
        parts.append("</dl>")
    parts.append(
        '<p class="note">Figures are also in figures/ (PNG and SVG) and every table in '
        "tables/ (CSV), next to this file.</p></body></html>"
    )
    return "\n".join(parts)


def _figure_html(figure: Figure, image: str) -> str:
    return (
        f'<figure id="fig-{figure.name}"><h3>{_text(figure.title)}</h3>'
        f'<img src="data:image/png;base64,{image}" alt="{_text(figure.title)}">'
        f"<figcaption>{_text(figure.caption)}</figcaption></figure>"
    )


def _table_html(table: Table) -> str:
    data = table.data
    if table.show_rows == 0:
        return (
            f'<h3 id="table-{table.name}">{_text(table.title)}</h3><p class="note">'
            f"{len(data):,} rows, in tables/{table.name}.csv.</p>"
        )
    note = ""
    if len(data) > table.show_rows:
        note = (
            f'<p class="note">First {table.show_rows} of {len(data):,} rows; all are in '
            f"tables/{table.name}.csv.</p>"
        )
        data = data.head(table.show_rows)
    shown, index = display_frame(data, table.index, table.hidden)
    body = shown.to_html(index=index, border=0)
    caption = f'<p class="note">{_text(table.caption)}</p>' if table.caption else ""
    return (
        f'<h3 id="table-{table.name}">{_text(table.title)}</h3>{caption}'
        f'<div class="table-wrap">{body}</div>{note}'
    )


def display_frame(
    data: pd.DataFrame, index: bool, hidden: tuple[str, ...] = ()
) -> tuple[pd.DataFrame, bool]:
    """The table as a reader sees it: a named index becomes the first columns, ``hidden``
    columns are left out, and every cell is text (:func:`format_cell`). Returns the frame
    and whether its index is still to be shown."""
    if index and data.columns.name is None and any(n is not None for n in data.index.names):
        data = data.reset_index()
        index = False
    data = data.drop(columns=[c for c in hidden if c in data.columns])
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
