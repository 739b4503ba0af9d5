"""The report renders in headless Chromium without console errors or broken images.

Skipped when no Chromium or Chrome binary is installed, except under CI (``CI`` or
``ZOOSIM_REQUIRE_BROWSER`` set; ``.ci/run`` installs Debian's chromium and sets the
latter), where a missing browser fails the check: a fresh machine must render a report.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.report.build import build_report

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
BROWSER = next((path for name in BROWSERS if (path := shutil.which(name))), None)

REQUIRE_VARIABLES = ("CI", "ZOOSIM_REQUIRE_BROWSER")


def browser_or_skip() -> str:
    """The browser binary; without one, skip, or fail when CI requires the check."""
    if BROWSER is not None:
        return BROWSER
    required = [name for name in REQUIRE_VARIABLES if os.environ.get(name)]
    if required:
        pytest.fail(
            f"no chromium/chrome binary found, and {required[0]} is set: the report must be "
            "rendered here (apt-get install chromium)"
        )
    pytest.skip("no chromium/chrome binary installed")

CHECK_SCRIPT = """
<style>html{scrollbar-width:none}</style>
<script>
window.addEventListener("load", function () {
  var problems = [];
  var root = document.documentElement;
  var width = root.clientWidth;
  if (root.scrollWidth > width + 1) { problems.push("page-overflow:" + root.scrollWidth); }
  var style = getComputedStyle(document.body);
  var column = document.body.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  var images = Array.prototype.slice.call(document.images);
  images.forEach(function (image) {
    var box = image.getBoundingClientRect();
    if (!image.complete || image.naturalWidth === 0) { problems.push("broken:" + image.alt); }
    if (box.left < -1 || box.right > width + 1) { problems.push("outside:" + image.alt); }
    if (width < 600 && box.width < Math.min(image.naturalWidth, 0.85 * column)) {
      problems.push("shrunk:" + image.alt);
    }
  });
  Array.prototype.forEach.call(document.querySelectorAll(".table-wrap"), function (wrap) {
    var keys = parseInt(wrap.getAttribute("data-key-columns"), 10);
    var header = wrap.querySelector("tr");
    var edge = wrap.getBoundingClientRect().left + wrap.clientWidth;
    var cell = header.children[Math.min(keys, header.children.length) - 1];
    if (cell.getBoundingClientRect().right > edge + 1) {
      problems.push("keys:" + wrap.getAttribute("data-table"));
    }
  });
  var text = "width=" + width + ";images=" + images.length + ";problems=" + problems.join(",");
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.textContent = text;
  document.body.appendChild(out);
  if (window.parent !== window) { window.parent.postMessage(text, "*"); }
});
</script>
"""
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="checked.html" style="width:{width}px;height:900px;border:0"></iframe>
<script>window.addEventListener("message", function (e) {{
  var out = document.createElement("pre"); out.id = "layout-check"; out.textContent = e.data;
  document.body.appendChild(out); }});</script></body></html>"""
"""Headless Chromium will not open a window narrower than 500 px, so a phone's 390 px is an
iframe of that width, whose page reports its check to the frame."""


def render(html: Path, width: int) -> subprocess.CompletedProcess[str]:
    """Load ``html`` in headless Chromium at ``width`` px; the DOM after load on stdout.

    A fresh profile every time, and nothing that reaches for the network (there is none)."""
    profile = Path(tempfile.mkdtemp(prefix="chromium-profile-", dir=html.parent))
    return subprocess.run(
        [
            browser_or_skip(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--disable-dev-shm-usage",
            "--enable-logging=stderr",
            "--v=0",
            f"--window-size={width},900",
            "--virtual-time-budget=8000",
            "--dump-dom",
            html.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(html.parent)},
    )


def layout(html: Path, width: int) -> tuple[dict[str, str], subprocess.CompletedProcess[str]]:
    """The report at ``html`` laid out ``width`` px wide (in a frame, for a phone): its
    measured width, image count and problems (page overflow, broken, outside or shrunk
    images, tables whose key columns need scrolling), and the browser's output."""
    checked = html.with_name("checked.html")
    checked.write_text(
        html.read_text(encoding="utf-8").replace("</body>", CHECK_SCRIPT + "</body>"),
        encoding="utf-8",
    )
    frame = html.with_name("frame.html")
    frame.write_text(FRAME.format(width=width), encoding="utf-8")
    result = render(frame, 1280)
    assert result.returncode == 0, result.stderr[-2000:]
    match = re.search(r'<pre id="layout-check">width=(\d+);images=(\d+);problems=([^<]*)<',
                      result.stdout)  # fmt: skip
    assert match, result.stdout[-500:]
    return {"width": match.group(1), "images": match.group(2), "problems": match.group(3)}, result


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A run, a tournament and a sweep report (``report.html`` of each)."""
    browser_or_skip()
    folder = tmp_path_factory.mktemp("browser")
    run_dir = folder / "run"
    zooanalysis.simulate(
        "bluff", players="bayes,random,random", games=2000, seed=3, jobs=1, out=run_dir
    )
    tournament = folder / "tournament"
    assert cli.main(["tournament", "--strategies", "bayes,random", "--games", "4000",
                     "--seed", "3", "--jobs", "1", "--out", str(tournament),
                     "--no-progress"]) == 0  # fmt: skip
    sweep = folder / "sweep.toml"
    sweep.write_text(
        'game = "bluff"\ntitle = "A small sweep"\n[run]\nplayers = "bayes,cautious,random"\n'
        'games = "600"\n[grid]\n"seat1.doubt" = [0.2, 0.6]\n"settings.points_to_end" = [20, 30]\n',
        encoding="utf-8",
    )
    sweep_dir = folder / "sweep"
    assert cli.main(["sweep", str(sweep), "--out", str(sweep_dir), "--jobs", "1"]) == 0
    return {
        name: build_report(source, folder / f"report-{name}")
        for name, source in (("run", run_dir), ("tournament", tournament), ("sweep", sweep_dir))
    }


@pytest.mark.parametrize("kind", ["run", "tournament", "sweep"])
@pytest.mark.parametrize("width", [390, 1280])  # a phone and a laptop
def test_the_report_fits_the_screen(reports: dict[str, Path], kind: str, width: int) -> None:
    """No page-level horizontal scrolling; every figure loads and fits the width, and on a
    phone is shown at the column's width (one under the other, not side by side); every
    table's key columns are visible without scrolling (the rest scroll in the table's box)."""
    html = reports[kind]
    measured, result = layout(html, width)
    assert int(measured["width"]) == width
    assert measured["problems"] == "", measured["problems"]
    assert int(measured["images"]) == html.read_text(encoding="utf-8").count("<img ") > 0
    console = [line for line in result.stderr.splitlines() if "CONSOLE" in line]
    assert not console, console


def test_the_check_finds_what_does_not_fit(reports: dict[str, Path]) -> None:
    """Not vacuous: a report whose figure is drawn 900 px wide and whose table cannot wrap
    fails the phone check."""
    html = reports["run"]
    broken = html.with_name("broken.html")
    text = html.read_text(encoding="utf-8")
    broken.write_text(
        text.replace("img{max-width:100%;", "img{width:900px;max-width:none;")
        .replace("td.t{text-align:left;white-space:normal;", "td.t{white-space:nowrap;")
        .replace("top:0;white-space:normal;", "top:0;white-space:nowrap;"),
        encoding="utf-8",
    )
    measured, _ = layout(broken, 390)
    problems = measured["problems"]
    assert "page-overflow" in problems and "outside:" in problems
    assert "keys:" in problems


def test_the_unmodified_report_logs_nothing(reports: dict[str, Path]) -> None:
    result = render(reports["run"], 390)
    assert result.returncode == 0, result.stderr[-2000:]
    assert not [line for line in result.stderr.splitlines() if "CONSOLE" in line]


def test_a_missing_browser_fails_under_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "BROWSER", None)
    for name in REQUIRE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(pytest.skip.Exception):
        browser_or_skip()
    for name in REQUIRE_VARIABLES:
        monkeypatch.setenv(name, "1")
        with pytest.raises(pytest.fail.Exception, match=f"{name} is set"):
            browser_or_skip()
        monkeypatch.delenv(name)
