"""Seconds of each phase of one ``zoosim run``: the serial part that caps ``--jobs`` (issue 13).

    python benchmarks/run_phases.py run --games 1e6 --players 'random*4' --jobs 2 --out DIR

Runs the command in this process and prints, on stderr, one JSON line: wall and CPU seconds
(CPU of every thread of the process) of each phase, in order:

- ``import``: importing the CLI; ``before_warm_up``: parsing, the game, reserving the folder;
- ``warm_up``: loading (or compiling) the kernel; ``before_play``: the request file;
- ``play``: the games; ``tail``: checkpoint, tables, writing, manifest, summary;
- ``serial``: everything but ``play``, what ``--jobs`` does not divide.

Wall seconds mean little on a loaded machine; compare CPU seconds there, and best of several.
Nothing is asserted.

The same line also says where the CPU seconds went while the games played, which is what
decides how ``--jobs 2`` compares with ``--jobs 1`` (Amdahl, with the GIL):

- ``play_threads``: CPU seconds of the threads that play (``workers``, summed; their count
  is ``worker_threads``; 0 with the processes and Dask backends, whose workers are other
  processes), of the main thread while they play (``main``: handing out chunks, summing
  counts, checkpoints, progress), and of every other thread, by name (``zoosim-import-
  parquet`` is the Parquet writer's import, which runs while the games play, table writers
  ``ThreadPoolExecutor``);
- ``compiled_from_source``: how many of zooanalysis's modules this run compiled from source
  because their bytecode was missing or stale. A shell with ``PYTHONDONTWRITEBYTECODE=1``
  never writes it, so every run pays for compiling them (about 0.04 CPU seconds, all serial);
  an installed zoosim has its bytecode. Compile it once before measuring:
  ``python -m compileall -q zooanalysis``.

With ``--jobs 1`` the work of the other threads and of the main thread uses the second core
for free; with ``--jobs 2`` the two workers need both cores, so it adds about half its CPU
seconds to the wall time of ``play``. A run then takes about ``serial + workers / 2 +
(main + others during play) / 2`` seconds (every serial step holds the GIL, so the start-up
cannot use the second core), against ``serial + workers`` with one job; ``workers`` itself
grows a few percent when both cores play (about 3.04 -> 3.18 CPU seconds for 1e6 random*4
games). With ``K`` the workers' seconds of one job, ``d`` that growth and ``X`` the other
threads' seconds during play, ``--jobs 2`` is 1.8 times as fast as ``--jobs 1`` only if
``0.8 serial + 0.9 X <= (0.1 - 0.9 d) K``: for 1e6 random games (K ~ 3, d ~ 0.045, X ~ 0.2)
not even with no serial part at all; from about 5e6 games on with today's serial part.
``benchmarks/jobs_floor.py`` measures the part no run can avoid (Python, numba's import and
first cached function, the Parquet writer's import) and the bound it sets.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

marks: list[tuple[str, float, float]] = [("start", time.perf_counter(), time.process_time())]


def mark(name: str) -> None:
    """End the phase ``name`` now."""
    marks.append((name, time.perf_counter(), time.process_time()))


def timed(module, name: str, phase: str) -> None:
    """Make ``module.name`` end the phase before it and the phase ``phase`` (itself)."""
    function = getattr(module, name)

    def wrapper(*args, **kwargs):
        mark(f"before_{phase}")
        try:
            return function(*args, **kwargs)
        finally:
            mark(phase)

    setattr(module, name, wrapper)


thread_seconds: dict[str, float] = {}
"""CPU seconds of each thread that ended, by name without its number (see :func:`count_threads`)."""
_thread_lock = threading.Lock()


def count_threads() -> None:
    """Make every thread of this process add its CPU seconds to :data:`thread_seconds` when
    it ends (``zoosim-chunk_0`` and ``zoosim-chunk_1`` both under ``zoosim-chunk``)."""
    run = threading.Thread.run

    def counted_run(self: threading.Thread) -> None:
        start = time.thread_time()
        try:
            run(self)
        finally:
            name = re.sub(r"([-_]?\d+)+$", "", self.name) or self.name
            with _thread_lock:
                thread_seconds[name] = thread_seconds.get(name, 0.0) + time.thread_time() - start

    threading.Thread.run = counted_run


def count_workers(runner) -> dict[str, float]:
    """Make the chunks played on this process's threads add their CPU seconds to the returned
    ``{"workers": seconds, "worker_threads": count}`` (it fills in as the games play)."""
    played = {"workers": 0.0}
    names: set[str] = set()
    call = runner.TimedJob.__call__

    def counted_call(self, *args, **kwargs):
        start = time.thread_time()
        try:
            return call(self, *args, **kwargs)
        finally:
            with _thread_lock:
                played["workers"] += time.thread_time() - start
                names.add(threading.current_thread().name)
                played["worker_threads"] = len(names)

    runner.TimedJob.__call__ = counted_call
    return played


def main_thread_during(module, name: str, seconds: dict[str, float]) -> None:
    """Make ``module.name`` (called by the main thread) record that thread's CPU seconds
    while it runs in ``seconds["main"]``."""
    function: Callable = getattr(module, name)

    def wrapper(*args, **kwargs):
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            seconds["main"] = time.thread_time() - start

    setattr(module, name, wrapper)


def sources_without_bytecode(package: Path) -> set[str]:
    """The package's ``.py`` files whose bytecode is missing or stale: importing them
    compiles them from source."""
    stale = set()
    for source in package.rglob("*.py"):
        cached = Path(importlib.util.cache_from_source(str(source)))
        try:
            header = cached.read_bytes()[:16]
        except OSError:
            stale.add(str(source))
            continue
        status = source.stat()
        flags = int.from_bytes(header[4:8], "little")
        mtime = int.from_bytes(header[8:12], "little")
        size = int.from_bytes(header[12:16], "little")
        if flags == 0 and (mtime != int(status.st_mtime) & 0xFFFFFFFF or size != status.st_size):
            stale.add(str(source))
    return stale


def main(argv: list[str]) -> None:
    """Run ``zoosim ARGV`` with its phases timed, then print them."""
    spec = importlib.util.find_spec("zooanalysis")
    package = Path(spec.origin).parent if spec and spec.origin else None
    stale = sources_without_bytecode(package) if package else set()
    count_threads()
    import zooanalysis.cli as cli

    mark("import")
    import typer

    import zooanalysis.runner as runner
    import zooanalysis.simulation as simulation

    timed(simulation, "warm_up", "warm_up")
    timed(simulation, "play", "play")
    play_threads = count_workers(runner)
    main_thread_during(simulation, "play", play_threads)
    echo = typer.echo

    def first_echo_ends_the_tail(*args, **kwargs):
        if not any(name == "tail" for name, _, _ in marks):
            mark("tail")
        echo(*args, **kwargs)

    cli.typer.echo = first_echo_ends_the_tail
    sys.argv = ["zoosim", *argv]
    cli.main()  # as the zoosim command runs it: the command line from sys.argv
    mark("end")
    phases: dict[str, list[float]] = {}
    for (_, wall0, cpu0), (name, wall1, cpu1) in pairwise(marks):
        wall, cpu = phases.setdefault(name, [0.0, 0.0])
        phases[name] = [wall + wall1 - wall0, cpu + cpu1 - cpu0]
    total = [marks[-1][1] - marks[0][1], marks[-1][2] - marks[0][2]]
    phases["total"] = total
    phases["serial"] = [total[0] - phases["play"][0], total[1] - phases["play"][1]]
    rounded = {name: {"wall": round(w, 3), "cpu": round(c, 3)} for name, (w, c) in phases.items()}
    others = {name: seconds for name, seconds in thread_seconds.items() if name != "zoosim-chunk"}
    rounded["play_threads"] = {
        name: round(value, 3) if isinstance(value, float) else value
        for name, value in {"worker_threads": 0, **play_threads, **others}.items()
    }
    imported = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    rounded["compiled_from_source"] = len(stale & imported)
    print(json.dumps(rounded), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
