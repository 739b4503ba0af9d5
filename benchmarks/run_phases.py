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
"""

from __future__ import annotations

import json
import sys
import time
from itertools import pairwise

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


def main(argv: list[str]) -> None:
    """Run ``zoosim ARGV`` with its phases timed, then print them."""
    import zooanalysis.cli as cli

    mark("import")
    import typer

    import zooanalysis.simulation as simulation

    timed(simulation, "warm_up", "warm_up")
    timed(simulation, "play", "play")
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
    print(json.dumps(rounded), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
