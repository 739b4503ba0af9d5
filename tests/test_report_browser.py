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
<script>
window.addEventListener("load", function () {
  var images = Array.prototype.slice.call(document.images);
  var broken = images.filter(function (i) { return !i.complete || i.naturalWidth === 0; });
  var wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  document.body.setAttribute("data-check",
    "images=" + images.length + ";broken=" + broken.length + ";overflow=" + wide);
});
</script>
"""


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
            "--virtual-time-budget=5000",
            "--dump-dom",
            html.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(html.parent)},
    )


def test_the_report_renders_cleanly_in_chromium(tmp_path: Path) -> None:
    browser_or_skip()
    run_dir = tmp_path / "run"
    zooanalysis.simulate(
        "bluff", players="bayes,random,random", games=2000, seed=3, jobs=1, out=run_dir
    )
    html = build_report(run_dir, tmp_path / "report")
    # the report has no script of its own; this copy adds one that checks the images
    checked = html.with_name("checked.html")
    checked.write_text(
        html.read_text(encoding="utf-8").replace("</body>", CHECK_SCRIPT + "</body>")
    )
    images = html.read_text(encoding="utf-8").count("<img ")
    for width in (390, 1280):  # a phone and a laptop
        result = render(checked, width)
        assert result.returncode == 0, result.stderr[-2000:]
        console = [line for line in result.stderr.splitlines() if "CONSOLE" in line]
        assert not console, console
        match = re.search(r'data-check="images=(\d+);broken=(\d+);overflow=(\w+)"', result.stdout)
        assert match, result.stdout[-500:]
        assert int(match.group(1)) == images > 0
        assert match.group(2) == "0"
    # and the unmodified report logs nothing to the console either
    result = render(html, 390)
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
