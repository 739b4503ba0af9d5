"""zooanalysis's modules import in one direction (docs/adding-a-game.md, "Import direction").

Read from the source, without importing it: every ``import`` counts, at module level, inside
a function (a lazy import) or under ``TYPE_CHECKING``, and importing ``a.b.c`` counts as
importing the packages ``a.b`` and ``a`` too (Python runs their ``__init__`` first).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "zooanalysis"
REGISTRY = "zooanalysis.games"
GAMES_PREFIX = "zooanalysis.games."
SHARED_GAME_MODULES = {"zooanalysis.games.base", "zooanalysis.games.exhibits"}


def module_files() -> dict[str, Path]:
    """Dotted module name -> source file, for every module of the package."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = module_files()


def imported_modules(name: str) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its source.

    A module named in an import counts; so do the packages above it, whose ``__init__`` runs
    first, except the packages ``name`` itself lives in (they are already imported).
    """
    named = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                named.add(submodule if submodule in MODULES else node.module)
    found = set()
    for target in named:
        parts = target.split(".")
        if target in MODULES and target != name:
            found.add(target)
        for end in range(1, len(parts)):
            parent = ".".join(parts[:end])
            if parent in MODULES and not (name == parent or name.startswith(parent + ".")):
                found.add(parent)
    return found


GRAPH = {name: imported_modules(name) for name in MODULES}


def game_package(name: str) -> str | None:
    """``zooanalysis.games.<game>`` for a module of a game package, else None."""
    if not name.startswith(GAMES_PREFIX) or name in SHARED_GAME_MODULES:
        return None
    return ".".join(name.split(".")[:3])


def reaches(start: str, goal: str) -> bool:
    """Whether importing ``start`` can import ``goal`` (directly or through others)."""
    seen, todo = set(), [start]
    while todo:
        current = todo.pop()
        if current == goal:
            return True
        if current not in seen:
            seen.add(current)
            todo.extend(GRAPH[current])
    return False


def cycle_through(start: str) -> list[str] | None:
    """A shortest import cycle from ``start`` back to itself, or None."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for current in frontier:
            for target in sorted(GRAPH[current]):
                if target == start:
                    return [*paths[current], start]
                if target not in paths:
                    paths[target] = [*paths[current], target]
                    following.append(target)
        frontier = following
    return None


def test_the_graph_is_read_from_real_imports():
    """Not vacuous: known edges, including a lazy one and a parent package, are seen."""
    assert "zooanalysis.games.base" in GRAPH["zooanalysis.runner"]
    assert REGISTRY in GRAPH["zooanalysis.runner"]  # via zooanalysis.games.base
    assert "zooanalysis.simulation" in GRAPH["zooanalysis"]  # lazy, inside simulate()
    assert "zooanalysis.games.bluff.rules" in GRAPH["zooanalysis.games.bluff.engine"]
    assert {game_package(m) for m in MODULES} >= {
        "zooanalysis.games.bluff",
        "zooanalysis.games.lucky_lions",
        "zooanalysis.games.zoology",
    }


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_itself_back(name):
    """No import cycle, not even through a lazy import inside a function."""
    cycle = cycle_through(name)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("name", sorted(m for m in MODULES if not m.startswith(GAMES_PREFIX)))
def test_shared_code_never_names_a_game(name):
    """Outside the game packages, games are reached through the registry only."""
    named = sorted(m for m in GRAPH[name] if game_package(m))
    assert not named, f"{name} imports {', '.join(named)}"


@pytest.mark.parametrize(
    "name", sorted(m for m in MODULES if game_package(m) or m in SHARED_GAME_MODULES)
)
def test_games_build_on_the_shared_core_only(name):
    """A game package imports its own modules, ``games.base`` and shared modules below the
    registry (those that never import ``zooanalysis.games``): never another game, nor the
    runner, simulation, CLI or report builders that sit above the registry."""
    own = game_package(name)
    for target in GRAPH[name]:
        if target in SHARED_GAME_MODULES or (own and game_package(target) == own):
            continue
        assert not game_package(target), f"{name} imports another game: {target}"
        assert not reaches(target, REGISTRY), f"{name} imports {target}, which sits above games"


ROLES = ("rules", "strategies", "engine", "counts", "kernel", "batch", "analysis", "report", "game")
"""The modules every game package has (docs/adding-a-game.md), in the order they may import
each other: a role imports only roles before it (``game`` reaches ``analysis`` and ``report``
lazily, for ``run_class`` and ``report_sections``). Helper modules may sit anywhere."""

GAME_PACKAGES = sorted({game_package(m) for m in MODULES} - {None})


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_every_game_package_has_the_common_files(package):
    missing = [role for role in ROLES if f"{package}.{role}" not in MODULES]
    assert not missing, f"{package} lacks {', '.join(f'{role}.py' for role in missing)}"


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_a_game_packages_roles_import_in_order(package):
    for position, role in enumerate(ROLES):
        for target in GRAPH.get(f"{package}.{role}", ()):
            other = target.rsplit(".", 1)[-1]
            if game_package(target) == package and other in ROLES:
                assert ROLES.index(other) < position, f"{role}.py imports {other}.py"
