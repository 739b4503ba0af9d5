"""Measure zoosim's speed and memory and write BENCHMARKS.md (``make bench``).

Measured, never asserted:
(a) kernel games/s on one core (four ``random`` players, and the default lineup);
(b) wall time and peak memory of ``zoosim run --games 1e6`` (and 1e7) with numba's cache
    warm, memory summed over the whole process tree;
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
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np

from zooanalysis.games import get_game
from zooanalysis.games.bluff import engine
from zooanalysis.storage import git_commit
from zooanalysis.strategy_spec import parse_lineup

ROOT = Path(__file__).resolve().parent.parent


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


def kernel_rate(lineup: str, games: int) -> float:
    """Games/s of one kernel batch on the calling thread (one core), after a warm-up."""
    game = get_game("bluff")
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), players)
    job = game.batch_job(settings, players, with_rows=False)
    job(1, 100)
    start = time.perf_counter()
    job(2, games)
    return games / (time.perf_counter() - start)


def reference_rate(lineup: str, seconds: float) -> tuple[float, int]:
    """Games/s of the pure-Python reference engine, playing for about ``seconds``."""
    players = engine.lineup(lineup)
    settings = get_game("bluff").settings_for_lineup(
        get_game("bluff").settings_from_table({}), parse_lineup(lineup, engine.STRATEGIES)
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


def main() -> None:
    """Run every benchmark and write the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", default="BENCHMARKS.md")
    parser.add_argument("--kernel-games", type=int, default=2_000_000)
    parser.add_argument("--skip-1e7", action="store_true", help="skip the 1e7-game memory run")
    args = parser.parse_args()

    zoosim = str(Path(sys.executable).parent / "zoosim")
    default_lineup = get_game("bluff").default_lineup
    rows = []
    print("(a) kernel, one core ...", flush=True)
    random_rate = kernel_rate("random,random,random,random", args.kernel_games)
    default_rate = kernel_rate(default_lineup, args.kernel_games // 4)
    rows.append(("(a) kernel, 4 x random, one core", f"{random_rate:,.0f} games/s", "", ""))
    rows.append((f"(a) kernel, {default_lineup}, one core", f"{default_rate:,.0f} games/s", "", ""))

    scratch = Path(tempfile.mkdtemp(prefix="zoosim-bench-"))
    try:
        subprocess.run(
            [zoosim, "run", "--games", "1000", "--no-progress", "--out", str(scratch / "warm")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        commands = [("1e6", "(b) zoosim run --games 1e6 (2 cores, cache warm)")]
        if not args.skip_1e7:
            commands.append(("1e7", "(b) zoosim run --games 1e7 (2 cores, cache warm)"))
        for games, label in commands:
            print(f"{label} ...", flush=True)
            command = [
                zoosim,
                "run",
                "--games",
                games,
                "--no-progress",
                "--out",
                str(scratch / games),
            ]
            wall, peak, _ = measure_command(command)
            count = float(games)
            rows.append(
                (label, f"{count / wall:,.0f} games/s", f"{wall:.1f} s", f"{peak / 2**20:,.0f} MiB")
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("(c) reference engine ...", flush=True)
    for lineup in ("random,random,random,random", default_lineup):
        rate, played = reference_rate(lineup, 10.0)
        rows.append(
            (f"(c) reference engine, {lineup}", f"{rate:,.0f} games/s", f"{played} games", "")
        )

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
        "Targets from the foundation issue: (a) >= 250,000 games/s per core with four `random`"
        " players; (b) 1e6 games in under 30 s and under 500 MB, with the same memory for 1e7.",
        "",
    ]
    Path(args.output).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
