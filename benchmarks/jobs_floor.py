"""The most ``--jobs 2`` can gain over ``--jobs 1`` on a ``zoosim run`` of N games (issue 13).

    python benchmarks/jobs_floor.py [--game bluff] [--players 'random*4'] [--games 1e6]

Amdahl's bound with only the costs no run can avoid. Measured (CPU seconds, best of
``--repeats``), each in a fresh process (counted by the process itself, before it exits)
except the games:

- ``python``: starting Python;
- ``numba``: importing numba and calling one function loaded from numba's cache, the least a
  run's kernel load can cost (zoosim's kernels are larger and load more);
- ``parquet``: importing pandas' Parquet writer beyond numpy (a run's tables are DataFrames),
  which a run does while the games play: free with one job (the idle core), half its seconds
  with two;
- ``games``: the kernel's seconds for the N games on one core (``batch_job`` in this process).

It prints one JSON line with those seconds and ``bound``, the ratio of one job's seconds to
two jobs' for a run that did nothing else at all: ``(F + K) / (F + K / 2 + X / 2)`` with
``F = python + numba``, ``K = games``, ``X = parquet``, and the number of games from which
that bound reaches 1.8 (``games_for_1.8``, at the same seconds per game). A real run also
parses its options, reserves its folder, loads more code, builds and writes its tables and
prints its summary (all serial), and its games take a few percent more CPU when both cores
play, so its ratio is lower still. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zooanalysis.games import get_game
from zooanalysis.numbers import parse_count
from zooanalysis.strategy_spec import parse_lineup

CACHED_FUNCTION = """
import numba

@numba.njit(cache=True, nogil=True)
def one_more(x):
    return x + 1

one_more(1)
"""

TARGET = 1.8
"""Issue 13's ratio of one job's time to two jobs'."""
PARQUET_WRITER = "import numpy, pandas.io.parquet, pyarrow.parquet"


def child_seconds(code: str, cwd: Path | None = None) -> float:
    """CPU seconds of a fresh Python process from its start to the end of ``code`` (its own
    count, so without the interpreter's exit, which a ``zoosim`` run keeps short)."""
    script = f"{code}\nimport time\nprint(time.process_time())\n"
    done = subprocess.run(
        [sys.executable, "-c", script], check=True, cwd=cwd, capture_output=True, text=True
    )
    return float(done.stdout.split()[-1])


def best_child_seconds(code: str, repeats: int, cwd: Path | None = None) -> float:
    """The fewest CPU seconds of ``repeats`` fresh processes running ``code``."""
    return min(child_seconds(code, cwd) for _ in range(repeats))


def games_seconds(game_name: str, lineup: str, games: int) -> float:
    """CPU seconds of ``games`` games on one core in this process (after a warm-up batch)."""
    game = get_game(game_name)
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), players)
    job = game.batch_job(settings, players, with_rows=False)
    job(1, 1000)
    start = time.process_time()
    job(2, games)
    return time.process_time() - start


def main() -> None:
    """Measure the floor and print the bound."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="bluff")
    parser.add_argument("--players", default="random*4")
    parser.add_argument("--games", default="1e6")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    games = parse_count(args.games, "--games")
    python = best_child_seconds("", args.repeats)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "cached_function.py").write_text(CACHED_FUNCTION)
        load = "import cached_function"
        child_seconds(load, cwd=Path(folder))  # fills numba's cache
        numba_load = best_child_seconds(load, args.repeats, Path(folder))
    numpy = best_child_seconds("import numpy", args.repeats)
    writer = best_child_seconds(PARQUET_WRITER, args.repeats)
    parquet = writer - numpy  # a run has numpy already (numba imports it)
    kernel = games_seconds(args.game, args.players, games)
    floor = numba_load  # starting Python, importing numba (and numpy), loading a function
    bound = (floor + kernel) / (floor + kernel / 2 + parquet / 2)
    # (F + K) / (F + K / 2 + X / 2) >= T  <=>  K >= (2 (T - 1) F + T X) / (2 - T)
    needed = (2 * (TARGET - 1) * floor + TARGET * parquet) / (2 - TARGET)
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "games": games,
                "python": round(python, 3),
                "numba": round(numba_load - python, 3),
                "parquet": round(parquet, 3),
                "games_seconds": round(kernel, 3),
                "bound": round(bound, 3),
                f"games_for_{TARGET}": round(needed / kernel * games),
            }
        )
    )


if __name__ == "__main__":
    main()
