"""Test-wide settings: no test may hold code to a time limit, and each game's tests share a
worker under ``pytest -n 2 --dist loadgroup``.

Hypothesis fails an example that runs longer than its ``deadline`` (200 ms by default): a
timing threshold, which the project's tests never set, and one that a loaded machine or a
first call that compiles a kernel breaks at random. Every property test runs without it.

On a fresh machine most of the suite's time is numba compiling each game's kernels. Tests
of one game (by their module's name, or else by a game named in their parameters) go to one
xdist group, so one worker compiles that game and the other finds it in the cache or never
needs it. Other tests are shared out one by one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

GAMES_FOLDER = Path(__file__).resolve().parents[1] / "zooanalysis" / "games"
GROUPS = sorted(
    [path.name for path in GAMES_FOLDER.iterdir() if (path / "__init__.py").is_file()]
    + ["cards"],
    key=len,
    reverse=True,
)
"""Each game package's name, and ``cards`` (the machinery several card games compile)."""


def group_of(nodeid: str) -> str | None:
    """The game whose kernels the test ``nodeid`` compiles, as far as its name tells: the
    game its module is named after, else the first game its parameters name (``big_two``,
    ``big-two`` or ``big two``); None for a test of no one game."""
    module, _, rest = nodeid.partition("::")
    for group in GROUPS:
        if Path(module).name.startswith(f"test_{group}_"):
            return group
    for group in GROUPS:
        if re.search(group.replace("_", "[-_ ]"), rest.lower()):
            return group
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each game's tests with ``xdist_group(<game>)`` (used by ``--dist loadgroup``)."""
    for item in items:
        group = group_of(item.nodeid)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
