"""Measure zoosim's speed and memory and write BENCHMARKS.md (``make bench``).

Measured, never asserted, for every game in :data:`BENCHMARKS`:
(a) kernel games/s on one core (four ``random`` players, and the other listed lineups);
(b) wall time and peak memory of ``zoosim run --games N`` with numba's cache warm, memory
    summed over the whole process tree (Bluff in Zoo also at 1e7: memory must not grow);
(c) the reference engine's games/s.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path

import numba
import numpy as np

from zooanalysis.games import get_game
from zooanalysis.storage import git_commit
from zooanalysis.strategy_spec import parse_lineup

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class GameBenchmarks:
    """What to measure for one game."""

    game: str
    engine: str
    """Module of the game's reference engine (``play_game(settings, players, seed, i)`` and
    ``lineup(text)``)."""
    kernel_lineups: tuple[str, ...]
    kernel_share: tuple[float, ...]
    """Share of ``--kernel-games`` each kernel lineup plays (slow lineups play fewer)."""
    runs: tuple[str, ...]
    """Game counts for (b)."""
    unit: str = ""
    """What one game is, when it is not obvious (added to the game's rows)."""


BENCHMARKS = (
    GameBenchmarks(
        "bluff",
        "zooanalysis.games.bluff.engine",
        ("random,random,random,random", "bayes,bayes,cautious,random"),
        (1.0, 0.25),
        ("1e6", "1e7"),
    ),
    GameBenchmarks(
        "lucky-lions",
        "zooanalysis.games.lucky_lions.engine",
        (
            "random,random,random,random",
            "greedy,greedy,greedy,greedy",
            "greedy,greedy,random,random",
        ),
        (1.0, 0.05, 0.1),
        ("1e6",),
    ),
    GameBenchmarks(
        "zoology",
        "zooanalysis.games.zoology.engine",
        ("bayes,bayes,bayes,bayes", "curious,curious,bayes,bayes"),
        (0.01, 0.01),
        ("1e5",),
    ),
    GameBenchmarks(
        "dodgeball",
        "zooanalysis.games.dodgeball.engine",
        ("random,random,random,random", "dodger,coach,dodger,coach", "random,random"),
        (0.5, 0.1, 0.5),
        ("1e6",),
        "one game = a full match of 2-3 rounds",
    ),
)


def cpu_model() -> str:
    """The processor's model name from /proc/cpuinfo."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_total() -> str:
    """Installed memory from /proc/meminfo."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def kernel_rate(game_name: str, lineup: str, games: int) -> float:
    """Games/s of one kernel batch on the calling thread (one core), after a warm-up."""
    game = get_game(game_name)
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), players)
    job = game.batch_job(settings, players, with_rows=False)
    job(1, 100)
    start = time.perf_counter()
    job(2, games)
    return games / (time.perf_counter() - start)


def reference_rate(bench: GameBenchmarks, lineup: str, seconds: float) -> tuple[float, int]:
    """Games/s of the pure-Python reference engine, playing for about ``seconds``."""
    engine = import_module(bench.engine)
    game = get_game(bench.game)
    players = engine.lineup(lineup)
    settings = game.settings_for_lineup(
        game.settings_from_table({}), parse_lineup(lineup, game.strategies)
    )
    engine.play_game(settings, players, 0, 0)
    start = time.perf_counter()
    played = 0
    while time.perf_counter() - start < seconds:
        engine.play_game(settings, players, 1, played)
        played += 1
    return played / (time.perf_counter() - start), played


def _tree_rss(root_pid: int) -> int:
    """Resident memory in bytes of a process and all its descendants."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            pages = int((entry / "statm").read_text().split()[1])
        except (OSError, ValueError, IndexError):
            continue
        pid = int(entry.name)
        children.setdefault(parent, []).append(pid)
        rss[pid] = pages * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def measure_command(command: list[str]) -> tuple[float, int, str]:
    """Run a command; returns (wall seconds, peak tree RSS in bytes, its stdout)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    output, _ = process.communicate()
    done.set()
    watcher.join()
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(command)}")
    return wall, peak, output


def measure_game(bench: GameBenchmarks, zoosim: str, kernel_games: int, skip_1e7: bool) -> list:
    """Every benchmark row of one game."""
    title = get_game(bench.game).title + (f" ({bench.unit})" if bench.unit else "")
    rows = []
    print(f"{title}: (a) kernel, one core ...", flush=True)
    for lineup, share in zip(bench.kernel_lineups, bench.kernel_share, strict=True):
        rate = kernel_rate(bench.game, lineup, max(1000, int(kernel_games * share)))
        rows.append((f"{title} (a) kernel, {lineup}, one core", f"{rate:,.0f} games/s", "", ""))
    scratch = Path(tempfile.mkdtemp(prefix="zoosim-bench-"))
    base = [zoosim, "run", "--game", bench.game, "--no-progress"]
    try:
        subprocess.run(
            [*base, "--games", "1000", "--out", str(scratch / "warm")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        for games in bench.runs:
            if games == "1e7" and skip_1e7:
                continue
            label = f"{title} (b) zoosim run --game {bench.game} --games {games} (2 cores, warm)"
            print(f"{label} ...", flush=True)
            wall, peak, _ = measure_command(
                [*base, "--games", games, "--out", str(scratch / games)]
            )
            rows.append(
                (
                    label,
                    f"{float(games) / wall:,.0f} games/s",
                    f"{wall:.1f} s",
                    f"{peak / 2**20:,.0f} MiB",
                )
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{title}: (c) reference engine ...", flush=True)
    for lineup in bench.kernel_lineups:
        rate, played = reference_rate(bench, lineup, 10.0)
        rows.append(
            (
                f"{title} (c) reference engine, {lineup}",
                f"{rate:,.0f} games/s",
                f"{played} games",
                "",
            )
        )
    return rows


def main() -> None:
    """Run every benchmark and write the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", default="BENCHMARKS.md")
    parser.add_argument("--kernel-games", type=int, default=2_000_000)
    parser.add_argument("--skip-1e7", action="store_true", help="skip the 1e7-game memory run")
    args = parser.parse_args()

    zoosim = str(Path(sys.executable).parent / "zoosim")
    rows = []
    for bench in BENCHMARKS:
        rows += measure_game(bench, zoosim, args.kernel_games, args.skip_1e7)

    lines = [
        "# Benchmarks",
        "",
        "Measured by `make bench` (`benchmarks/run.py`); nothing here is asserted by a test.",
        "",
        f"- date: {datetime.now(UTC).isoformat(timespec='seconds')}",
        f"- commit: {git_commit()}",
        f"- machine: {cpu_model()}, {os.cpu_count()} cores, {memory_total()}, "
        f"{platform.platform()}",
        f"- python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}",
        f"- command: `{' '.join([Path(sys.executable).name, *sys.argv])}`",
        "- memory: peak resident set of the whole process tree, sampled every 20 ms",
        "",
        "| benchmark | throughput | wall time | peak memory |",
        "| --- | --- | --- | --- |",
        *[f"| {name} | {rate} | {wall} | {memory} |" for name, rate, wall, memory in rows],
        "",
        "Targets: Bluff in Zoo (a) >= 250,000 games/s per core with four `random` players, "
        "(b) 1e6 games in under 30 s and under 500 MB, with the same memory for 1e7; "
        "Lucky Lions (a) >= 200,000 games/s per core with four `random` players (base game); "
        "Zoology (b) 1e5 games with 4 players on the primary board in under 60 s; "
        "Hodge Podge Dodgeball (one game = a full match of rounds) (a) >= 100,000 games/s per "
        "core with `random` players, >= 20,000 with heuristics, (b) 1e6 games with memory as "
        "flat as the other games.",
        "",
    ]
    Path(args.output).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
