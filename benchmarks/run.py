"""Measure zoosim's speed and memory and write BENCHMARKS.md (``make bench``).

Measured, never asserted, for every game in :data:`BENCHMARKS`:
(a) kernel games/s on one core, in CPU time (four ``random`` players, and the other listed
    lineups); where a C reference exists (Bluff in Zoo, Big Two: ``c_reference.py``), kernel
    and C alternate a few times, the medians and their ratio are reported and the two sides'
    statistics are checked against each other;
(b) wall time and peak memory of ``zoosim run --games N`` with numba's cache warm, memory
    summed over the whole process tree (Bluff in Zoo also at 1e7: memory must not grow);
(c) the reference engine's games/s;
and then issue 13's targets (``measure_targets``), each against its threshold: kernel
rates (median of several CPU-time runs), whole-process wall times of ``zoosim run`` (median
of several) and the ``--jobs 2`` / ``--jobs 1`` ratio (median of alternating pairs), each
with the other work on the machine while it ran. ``--only targets`` measures only those;
``--only c-references`` only their kernel / C reference rows.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path

import c_reference
import numba
import numpy as np
import targets
from targets import (
    LoadProbe,
    Target,
    median_of,
    pairwise_ratios,
    run_label,
    spread,
    target_row,
)

from zooanalysis.games import get_game
from zooanalysis.storage import git_commit
from zooanalysis.strategy_spec import parse_lineup

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = "default"
"""In a benchmark's lineups: the game's registered default lineup (``Game.default_lineup``),
read when measuring so that the row follows the game."""


@dataclass(frozen=True)
class GameBenchmarks:
    """What to measure for one game."""

    game: str
    engine: str
    """Module of the game's reference engine (``play_game(settings, players, seed, i)`` and
    ``lineup(text)``)."""
    kernel_lineups: tuple[str, ...]
    """Lineups timed on the kernel (a) and the reference engine (c); :data:`DEFAULT` stands
    for the game's registered default lineup."""
    kernel_share: tuple[float, ...]
    """Share of ``--kernel-games`` each kernel lineup plays (slow lineups play fewer)."""
    runs: tuple[str, ...]
    """Game counts for (b)."""
    c_reference_lineup: str | None = None
    """The kernel lineup timed against the C reference (``c_reference.py``), if any."""
    unit: str = ""
    """What one game is, when it is not obvious (added to the game's rows)."""
    also_per: str = ""
    """A count of the kernel's totals (e.g. ``hands``) whose rate the kernel rows also
    give, for games made of several such parts."""
    kernel_settings_rows: tuple[tuple[str, float, tuple[tuple[str, object], ...]], ...] = ()
    """Extra kernel rows (lineup, share, settings) for settings off by default that cost
    time (Zoology's ``question_information``); the other rows use the default settings."""
    scenario_lineups: tuple[tuple[str, str, float], ...] = ()
    """Kernel lineups timed in a scenario's settings: (scenario file in ``simulations/``,
    lineup, share of ``--kernel-games``), for strategies that differ only there."""


BENCHMARKS = (
    GameBenchmarks(
        "bluff",
        "zooanalysis.games.bluff.engine",
        ("random,random,random,random", "bayes,bayes,cautious,random"),
        (1.0, 0.25),
        ("1e6", "1e7"),
        c_reference_lineup=c_reference.LINEUP,
    ),
    GameBenchmarks(
        "lucky-lions",
        "zooanalysis.games.lucky_lions.engine",
        (
            "random,random,random,random",
            "greedy,greedy,greedy,greedy",
            "greedy,greedy,random,random",
            "equilibrium*4",
        ),
        (1.0, 0.05, 0.1, 0.05),
        ("1e6",),
        # equilibrium differs from greedy only where a die is reduced
        kernel_settings_rows=(("equilibrium*4", 0.005, (("reduced_die", True),)),),
        scenario_lineups=(
            ("lucky-lions-everything.toml", "equilibrium,greedy,random,random", 0.005),
            ("lucky-lions-everything.toml", "equilibrium*4", 0.005),
        ),
    ),
    GameBenchmarks(
        "short-zoot-suit",
        "zooanalysis.games.short_zoot_suit.engine",
        ("random,random,random,random", "balanced,void,late,random"),
        (1.0, 0.25),
        ("1e6",),
    ),
    GameBenchmarks(
        "chai-tea-jazz",
        "zooanalysis.games.chai_tea_jazz.engine",
        ("random,random,random", "tracker,greedy,random", "tracker,tracker,tracker"),
        (0.25, 0.05, 0.025),
        ("1e6",),
    ),
    GameBenchmarks(
        "zoology",
        "zooanalysis.games.zoology.engine",
        ("bayes,bayes,bayes,bayes", "curious,curious,bayes,bayes", DEFAULT, "curious*4"),
        (0.01, 0.01, 0.01, 0.01),
        ("1e5",),
        kernel_settings_rows=(
            ("bayes,bayes,bayes,bayes", 0.01, (("question_information", True),)),
        ),
    ),
    GameBenchmarks(
        "dodgeball",
        "zooanalysis.games.dodgeball.engine",
        ("random,random,random,random", "dodger,coach,dodger,coach", "random,random"),
        (0.5, 0.1, 0.5),
        ("1e6",),
        unit="one game = a full match of 2-3 rounds",
    ),
    GameBenchmarks(
        "hearts",
        "zooanalysis.games.hearts.engine",
        ("random,random,random,random", "safe,bold,safe,bold"),
        (0.25, 0.1),
        ("1e6",),
        unit="one game = a match to 100 points, about 8-11 hands",
        also_per="hands",
    ),
    GameBenchmarks(
        "big-two",
        "zooanalysis.games.big_two.engine",
        ("random,random,random,random", "control,greedy,control,greedy", "random,random,random"),
        (1.0, 0.5, 0.5),
        ("1e6",),
        unit="one game = one round, won by the first player out (target = 0)",
        c_reference_lineup=c_reference.reference_for("big-two").lineup,
    ),
    GameBenchmarks(
        "through-the-zoo",
        "zooanalysis.games.through_the_zoo.engine",
        ("random,random,random,random", "planner,fit,keep-all,random"),
        (0.05, 0.05),
        ("1e6",),
        unit="one game = 4 exhibit rounds, the default exhibits, random card play",
    ),
    GameBenchmarks(
        "bug-house",
        "zooanalysis.games.bug_house.engine",
        ("random,random,random,random", "climber,fast,climber,fast"),
        (0.25, 0.25),
        ("1e6",),
        unit="one game = one deal played in time until a shed out or a clock runs out",
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


def resolve_lineup(game_name: str, lineup: str) -> tuple[str, str]:
    """A benchmark lineup (or :data:`DEFAULT`) as (the spec to play, the label for its row);
    the label names the game's default lineup as such."""
    default = get_game(game_name).default_lineup
    spec = default if lineup == DEFAULT else lineup
    return spec, targets.lineup_label(spec, default)


def scenario_settings(scenario: str) -> dict:
    """The ``[settings]`` table of a scenario file in ``simulations/``."""
    with open(ROOT / "simulations" / scenario, "rb") as handle:
        return tomllib.load(handle).get("settings", {})


def kernel_rate(
    game_name: str, lineup: str, games: int, per: str = "", table: dict | None = None
) -> float:
    """Games/s of one kernel batch on the calling thread (one core, CPU time), after a
    warm-up; with ``per`` (a count of the totals, e.g. ``hands``), that count per second
    instead; ``table``: the settings (a scenario's ``[settings]``; defaults without)."""
    game = get_game(game_name)
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table(dict(table or {})), players)
    job = game.batch_job(settings, players, with_rows=False)
    job(1, 100)
    start = time.process_time()
    totals = job(2, games)
    done = int(totals[per][0]) if per else games
    return done / (time.process_time() - start)


def c_reference_rows(
    title: str, lineup: str, games: int, runs: int, kept: dict | None = None, game: str = "bluff"
) -> tuple[list, list[str]]:
    """``game``'s kernel against its C reference: benchmark rows and the statistics-check
    section; ``kept`` (if given) receives the measurement and the load while it ran under
    the key ``("c_reference", game)``, for the issue-13 targets table."""
    reference = c_reference.reference_for(game)
    kernel_name = f"{title} (a) kernel, {lineup}, one core"
    c_name = f"{title} (a) C reference (benchmarks/{reference.source.name}), {lineup}, one core"
    if not c_reference.compiler_available():
        print(f"{title}: {c_reference.COMPILER} not found, C reference skipped", flush=True)
        rate = kernel_rate(game, lineup, games)
        note = f"not measured: {c_reference.COMPILER} not found"
        return [(kernel_name, f"{rate:,.0f} games/s", "", ""), (c_name, note, "", "")], []
    print(f"{title}: (a) kernel against the C reference, {runs} alternating runs ...")
    probe = LoadProbe()
    result = c_reference.measure(
        games, runs, progress=lambda text: print(text, flush=True), game=game
    )
    if kept is not None:
        kept[("c_reference", game)] = (result, probe.stop())
    rows = [
        (kernel_name, f"{result.kernel:,.0f} games/s", "", ""),
        (c_name, f"{result.reference:,.0f} games/s", "", ""),
        (
            f"{title} (a) C reference --lean (summary counts only), {lineup}, one core",
            f"{result.lean:,.0f} games/s",
            "",
            "",
        ),
        (
            f"{title} (a) kernel / C reference, {lineup}, one core",
            f"{result.kernel / result.reference:.2f}x (--lean: {result.kernel / result.lean:.2f}x)",
            "",
            "",
        ),
    ]
    failed = c_reference.disagreements(result.checks, 0.01)
    verdict = (
        "No statistic differs (every Holm-adjusted p >= 0.01): both play the same game."
        if not failed
        else "DISAGREEMENT (Holm-adjusted p < 0.01): " + ", ".join(c.name for c in failed)
    )
    section = [
        f"## {title}: the kernel against the C reference",
        "",
        f"`benchmarks/{reference.source.name}` "
        f"({' '.join([c_reference.COMPILER, *c_reference.FLAGS])}) "
        f"plays the same game and policy, {lineup}, default settings. Both sides play "
        f"{games:,} games per run on one core, alternating, {runs} runs each; rates are CPU "
        "time of the game loop, medians of the runs (numba cache warm). The C reference keeps "
        f"the statistics the kernel keeps ({reference.kept}); `--lean` keeps summary counts "
        "only.",
        "",
        "- kernel runs: " + ", ".join(f"{r:,.0f}" for r in result.kernel_rates) + " games/s",
        "- C reference runs: "
        + ", ".join(f"{r:,.0f}" for r in result.reference_rates)
        + " games/s",
        "- C reference --lean runs: "
        + ", ".join(f"{r:,.0f}" for r in result.lean_rates)
        + " games/s",
        "",
        "Statistics of the first run of each side (independent seeds), 95% intervals; "
        "p-values of two-sided z-tests, raw and Holm-adjusted over the tested statistics:",
        "",
        *c_reference.check_lines(result.checks),
        "",
        verdict,
        "",
    ]
    return rows, section


def reference_rate(bench: GameBenchmarks, lineup: str, seconds: float) -> tuple[float, int]:
    """Games/s of the pure-Python reference engine, playing for about ``seconds`` (``lineup``:
    a spec, not :data:`DEFAULT`)."""
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


def measure_game(
    bench: GameBenchmarks,
    zoosim: str,
    kernel_games: int,
    skip_1e7: bool,
    c_runs: int,
    kept: dict | None = None,
) -> tuple[list, list[str]]:
    """Every benchmark row of one game, and any extra report section (the C reference's);
    ``kept``: see :func:`c_reference_rows`."""
    game = get_game(bench.game)
    title = game.title + (f" ({bench.unit})" if bench.unit else "")
    rows: list = []
    sections: list[str] = []
    print(f"{title}: (a) kernel, one core ...", flush=True)
    for listed, share in zip(bench.kernel_lineups, bench.kernel_share, strict=True):
        lineup, label = resolve_lineup(bench.game, listed)
        games = max(1000, int(kernel_games * share))
        if lineup == bench.c_reference_lineup:
            c_rows, sections = c_reference_rows(title, lineup, games, c_runs, kept, bench.game)
            rows += c_rows
            continue
        if bench.also_per:
            rate = kernel_rate(bench.game, lineup, games, bench.also_per)
            rows.append((f"{title} (a) kernel, {label}, one core", f"{rate:,.0f} "
                         f"{bench.also_per}/s", "", ""))  # fmt: skip
        rate = kernel_rate(bench.game, lineup, games)
        rows.append((f"{title} (a) kernel, {label}, one core", f"{rate:,.0f} games/s", "", ""))
    for lineup, share, changes in bench.kernel_settings_rows:
        games = max(1000, int(kernel_games * share))
        rate = kernel_rate(bench.game, lineup, games, table=dict(changes))
        named = ", ".join(f"{key} = {str(value).lower()}" for key, value in changes)
        rows.append(
            (f"{title} (a) kernel, {lineup}, {named}, one core", f"{rate:,.0f} games/s", "", "")
        )
    for scenario, lineup, share in bench.scenario_lineups:
        games = max(1000, int(kernel_games * share))
        rate = kernel_rate(bench.game, lineup, games, table=scenario_settings(scenario))
        label = f"{title} (a) kernel, {lineup}, {scenario}, one core"
        rows.append((label, f"{rate:,.0f} games/s", "", ""))
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
            label = run_label(
                title,
                f"zoosim run --game {bench.game} --games {games}",
                game.default_lineup,
                game.default_lineup,
            )
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
    for listed in bench.kernel_lineups:
        lineup, label = resolve_lineup(bench.game, listed)
        rate, played = reference_rate(bench, lineup, 10.0)
        rows.append(
            (
                f"{title} (c) reference engine, {label}",
                f"{rate:,.0f} games/s",
                f"{played} games",
                "",
            )
        )
    return rows, sections


# --- issue 13's targets ---------------------------------------------------------------------


@dataclass(frozen=True)
class KernelTarget:
    """A kernel-rate target of issue 13: one lineup's games/s per core, in CPU time."""

    game: str
    lineup: str
    """A lineup spec, or :data:`DEFAULT` for the game's registered default."""
    rate: float
    """Games/s per core the issue asks for."""
    share: float
    """Share of ``--kernel-games`` one timed run plays."""
    scenario: str | None = None
    """A scenario file in ``simulations/`` whose ``[settings]`` the games use."""
    changes: tuple[tuple[str, object], ...] = ()
    """Settings changed from the defaults (without a scenario)."""


EVERYTHING = "lucky-lions-everything.toml"
KERNEL_TARGETS = (
    KernelTarget("lucky-lions", "greedy,greedy,greedy,greedy", 100_000, 0.05),
    # the base game has no reduced die: equilibrium then plays as greedy does
    KernelTarget("lucky-lions", "equilibrium*4", 10_000, 0.005),
    KernelTarget("lucky-lions", "equilibrium*4", 10_000, 0.005, changes=(("reduced_die", True),)),
    KernelTarget("lucky-lions", "equilibrium*4", 10_000, 0.005, scenario=EVERYTHING),
    KernelTarget("lucky-lions", "equilibrium,greedy,random,random", 10_000, 0.005, EVERYTHING),
    KernelTarget("zoology", "bayes,bayes,bayes,bayes", 60_000, 0.01),
    KernelTarget("zoology", "curious,curious,bayes,bayes", 60_000, 0.01),
    KernelTarget("zoology", DEFAULT, 60_000, 0.01),
    KernelTarget("zoology", "curious*4", 60_000, 0.01),
)
C_REFERENCE_RATIO = 0.5
"""Issue 13: a kernel with a C reference (Bluff in Zoo, and Big Two as the compendium games
follow the same rules) plays at least this share of the C reference's games/s."""
DEFAULT_RUN_SECONDS = 10.0
"""Issue 13: ``zoosim run --games 1e6`` with the default lineup, wall seconds (2 cores, warm)."""
STARTUP_SECONDS = 1.5
"""Issue 13: ``zoosim run --games 1000``, wall seconds (warm)."""
JOBS_RATIO = 1.8
"""Issue 13: ``--jobs 2`` at least this many times as fast as ``--jobs 1`` (1e6 random games)."""
JOBS_PLAYERS = "random*4"
JOBS_GAMES = "1e6"
JOBS_LONGER_GAMES = "5e6"
"""The ``--jobs`` comparison again on a longer run, where the serial part weighs less."""


def kernel_target_row(target: KernelTarget, kernel_games: int, runs: int) -> str:
    """Measure one kernel target: ``runs`` CPU-time rates of the same batch, their median."""
    game = get_game(target.game)
    lineup, label = resolve_lineup(target.game, target.lineup)
    table = scenario_settings(target.scenario) if target.scenario else dict(target.changes)
    where = target.scenario or ", ".join(f"{key} = {str(v).lower()}" for key, v in target.changes)
    name = (
        f"{game.title} kernel, {label}, {where or 'default settings'}: "
        f">= {target.rate:,.0f} games/s per core"
    )
    games = max(1000, int(kernel_games * target.share))
    print(f"targets: {name} ...", flush=True)
    probe = LoadProbe()
    rates = [kernel_rate(target.game, lineup, games, table=table) for _ in range(runs)]
    how = f"CPU-time kernel rate, one core, {games:,} games a run, {median_of(runs, 'run')}"
    return target_row(Target(name, target.rate, True, "games/s"), spread(rates), how, probe.stop())


def c_reference_target_row(
    kernel_games: int, runs: int, kept: dict, game: str = "bluff"
) -> str | None:
    """``game``'s kernel against its C reference: the median of the per-pair ratios
    (kernel and C alternate), from ``kept`` when the game rows measured it, else measured;
    None (no row) without a C compiler."""
    lineup = c_reference.reference_for(game).lineup
    title = get_game(game).title
    name = f"{title} kernel, {lineup}: >= {C_REFERENCE_RATIO}x the C reference per core"
    key = ("c_reference", game)
    if key not in kept:
        if not c_reference.compiler_available():
            print(f"targets: {c_reference.COMPILER} not found, C reference skipped", flush=True)
            return None
        print(f"targets: {name} ...", flush=True)
        probe = LoadProbe()
        result = c_reference.measure(
            kernel_games, runs, progress=lambda t: print(t, flush=True), game=game
        )
        kept[key] = (result, probe.stop())
    result, load = kept[key]
    ratios = pairwise_ratios(result.kernel_rates, result.reference_rates)
    how = (
        f"kernel / C reference CPU-time rates (one core, {result.games:,} games a run), "
        + median_of(len(ratios), "alternating pair")
    )
    return target_row(Target(name, C_REFERENCE_RATIO, True, "x"), spread(ratios), how, load)


def fresh_folder(scratch: Path) -> Path:
    """A new, not yet existing output folder under ``scratch``."""
    return Path(tempfile.mkdtemp(dir=scratch)) / "run"


def warm_up_run(base: list[str], scratch: Path):
    """Play ``base`` (a ``zoosim run`` command without ``--game``) for 1000 games to a fresh
    folder under ``scratch``, unmeasured (numba's cache, the disk's), and return the game it
    played, read from the run's manifest."""
    warm = fresh_folder(scratch)
    subprocess.run([*base, "--games", "1000", "--out", str(warm)], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    manifest = json.loads((warm / "manifest.json").read_text(encoding="utf-8"))
    return get_game(manifest["game"])


def wall_target_rows(zoosim: str, scratch: Path, default_runs: int, startup_runs: int) -> list[str]:
    """Issue 13's wall-time targets, whole process, cache warm, each run to a fresh folder:
    ``zoosim run --games 1e6`` (the default game and lineup) and start-up (``--games 1000``)."""
    base = [zoosim, "run", "--no-progress"]
    game = warm_up_run(base, scratch)
    played = f"{game.title}, the default lineup {game.default_lineup}"
    rows = []
    for games, limit, runs, what in (
        ("1e6", DEFAULT_RUN_SECONDS, default_runs, "default run"),
        ("1000", STARTUP_SECONDS, startup_runs, "start-up"),
    ):
        name = f"{what}: `zoosim run --games {games}` ({played}): <= {limit} s wall, warm"
        print(f"targets: {name} ...", flush=True)
        probe = LoadProbe()
        walls = [
            measure_command([*base, "--games", games, "--out", str(fresh_folder(scratch))])[0]
            for _ in range(runs)
        ]
        how = (
            "wall time of the whole process (`--no-progress --out` a fresh folder), "
            f"{median_of(runs, 'run')} after a warm-up run"
        )
        rows.append(target_row(Target(name, limit, False, "s"), spread(walls), how, probe.stop()))
    return rows


def jobs_target_row(zoosim: str, scratch: Path, pairs: int, games: str = "1e6") -> str:
    """``--jobs 2`` against ``--jobs 1`` on ``games`` games of ``random*4`` (the default game):
    whole-process wall times, alternating (jobs 1, jobs 2) ``pairs`` times, each to a fresh
    folder; the median of the per-pair ratios. The issue's row (1e6 games) also gives the
    bound that the costs no run can avoid set (``benchmarks/jobs_floor.py``); other sizes are
    labelled as beyond the issue."""
    base = [zoosim, "run", "--no-progress", "--players", JOBS_PLAYERS]
    game = warm_up_run(base, scratch)
    base += ["--games", games]
    name = (
        f"`zoosim run --games {games} --players '{JOBS_PLAYERS}'` ({game.title}): `--jobs 2` >= "
        f"{JOBS_RATIO}x `--jobs 1`"
    )
    if games != JOBS_GAMES:
        name += f" (the issue asks it at {JOBS_GAMES} games; this row shows a longer run)"
    print(f"targets: {name} ...", flush=True)
    probe = LoadProbe()
    walls: dict[str, list[float]] = {"1": [], "2": []}
    for _ in range(pairs):
        for jobs in ("1", "2"):
            command = [*base, "--jobs", jobs, "--out", str(fresh_folder(scratch))]
            walls[jobs].append(measure_command(command)[0])
    ratios = pairwise_ratios(walls["1"], walls["2"])
    how = (
        "wall time of the whole process, `--jobs 1` / `--jobs 2`, "
        f"{median_of(pairs, 'pair')} run alternately, each to a fresh folder (`--jobs 1` "
        + ", ".join(f"{w:.2f}" for w in walls["1"])
        + " s; `--jobs 2` "
        + ", ".join(f"{w:.2f}" for w in walls["2"])
        + " s)"
    )
    load = probe.stop()
    if games == JOBS_GAMES:
        how += "; " + jobs_floor_text(game.name, games)
    return target_row(Target(name, JOBS_RATIO, True, "x"), spread(ratios), how, load)


def jobs_floor_text(game: str, games: str) -> str:
    """What ``benchmarks/jobs_floor.py`` says of ``games`` games of ``random*4``: the most
    two jobs can gain when a run does nothing but what none can avoid, and from how many games
    that reaches the target."""
    command = [
        sys.executable,
        str(Path(__file__).with_name("jobs_floor.py")),
        *("--game", game, "--players", JOBS_PLAYERS, "--games", games),
    ]
    floor = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return (
        "the most any run can reach here (`benchmarks/jobs_floor.py`: starting Python, "
        f"importing numba and loading a cached function {floor['numba'] + floor['python']:.2f} "
        f"CPU-s, the Parquet writer's import during play {floor['parquet']:.2f}, the games "
        f"{floor['games_seconds']:.2f}) is {floor['bound']:.2f}x; {JOBS_RATIO}x from about "
        f"{floor[f'games_for_{JOBS_RATIO}'] / 1e6:.1f}e6 games"
    )


def c_reference_target_rows(kernel_games: int, c_runs: int, kept: dict) -> list[str]:
    """The targets table's kernel / C reference row of every game with a C reference."""
    rows = []
    for game in c_reference.REFERENCES:
        row = c_reference_target_row(kernel_games, c_runs, kept, game)
        if row is not None:
            rows.append(row)
    return rows


def measure_targets(
    zoosim: str, kernel_games: int, runs: int, startup_runs: int, c_runs: int, kept: dict
) -> list[str]:
    """The "Issue 13 targets" section: each target measured, against its threshold.

    ``runs``: timed runs of each kernel rate and of the 1e6 run, and ``--jobs`` pairs;
    ``kept``: the C reference's measurement if the game rows already made it."""
    rows = c_reference_target_rows(kernel_games, c_runs, kept)
    scratch = Path(tempfile.mkdtemp(prefix="zoosim-bench-targets-"))
    try:
        rows += wall_target_rows(zoosim, scratch, runs, startup_runs)
        rows += [kernel_target_row(target, kernel_games, runs) for target in KERNEL_TARGETS]
        rows += [
            jobs_target_row(zoosim, scratch, runs, games)
            for games in (JOBS_GAMES, JOBS_LONGER_GAMES)
        ]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return [
        "## Issue 13 targets",
        "",
        "Each target measured again here, against its threshold. Kernel rates: CPU time on "
        "one core; the other rows: wall time of the whole `zoosim run` process with numba's "
        'cache warm. "other work": CPU time every other process on the machine used '
        "while the row was measured (the machine's busy time from /proc/stat less this "
        'benchmark\'s own), in cores; the row is "noisy" when that exceeds '
        f"{targets.NOISY_PER_CORE} per core, and its verdict is then uncertain. "
        "(The 1-minute load average, also shown, counts this benchmark's own processes.)",
        "",
        *targets.TABLE_HEADER,
        *rows,
        "",
    ]


def header_lines(load_at_start: float, title: str) -> list[str]:
    """The report's title and the machine, versions and command it was measured with."""
    return [
        f"# {title}",
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
        "- (a) kernel rates: CPU time of one batch on one core, numba cache warm",
        f"- load average (1 min) at start / end: {load_at_start:.1f} / {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores; other work on the machine slows the wall-time rows (b) "
        "and (c) more than the CPU-time rows (a)",
        "",
    ]


def main() -> None:
    """Run every benchmark (or, with ``--only targets``, issue 13's) and write the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", default="BENCHMARKS.md")
    parser.add_argument("--kernel-games", type=int, default=2_000_000)
    parser.add_argument("--skip-1e7", action="store_true", help="skip the 1e7-game memory run")
    parser.add_argument(
        "--c-runs", type=int, default=3, help="alternating runs of kernel and C reference"
    )
    parser.add_argument(
        "--game",
        action="append",
        help="measure only this game (repeatable; default: all); skips the targets section",
    )
    parser.add_argument(
        "--only",
        choices=["targets", "c-references"],
        help="measure only the issue-13 targets section, or only its kernel / C reference "
        "rows (written alone to --output)",
    )
    parser.add_argument(
        "--target-runs",
        type=int,
        default=3,
        help="targets: timed runs of each kernel rate and of the 1e6 run, and --jobs pairs",
    )
    parser.add_argument(
        "--startup-runs", type=int, default=5, help="targets: timed `--games 1000` runs"
    )
    args = parser.parse_args()
    if min(args.target_runs, args.startup_runs, args.c_runs) < 1:
        parser.error("--target-runs, --startup-runs and --c-runs: give 1 or more")

    zoosim = str(Path(sys.executable).parent / "zoosim")
    load_at_start = os.getloadavg()[0]
    rows = []
    sections: list[str] = []
    kept: dict = {}
    if args.only == "c-references":
        rows = c_reference_target_rows(args.kernel_games, args.c_runs, {})
        title = "Benchmarks: issue 13 kernel / C reference rows only"
        lines = [*header_lines(load_at_start, title), *targets.TABLE_HEADER, *rows, ""]
        Path(args.output).write_text("\n".join(lines), encoding="utf-8")
        print("\n".join(lines))
        return
    for bench in BENCHMARKS:
        if args.only or (args.game and bench.game not in args.game):
            continue
        game_rows, game_sections = measure_game(
            bench, zoosim, args.kernel_games, args.skip_1e7, args.c_runs, kept
        )
        rows += game_rows
        sections += game_sections
    target_lines = []
    if args.only == "targets" or not args.game:
        target_lines = measure_targets(
            zoosim, args.kernel_games, args.target_runs, args.startup_runs, args.c_runs, kept
        )

    if args.only == "targets":
        lines = [*header_lines(load_at_start, "Benchmarks: issue 13 targets only"), *target_lines]
        Path(args.output).write_text("\n".join(lines), encoding="utf-8")
        print("\n".join(lines))
        return
    lines = [
        *header_lines(load_at_start, "Benchmarks"),
        "| benchmark | throughput | wall time | peak memory |",
        "| --- | --- | --- | --- |",
        *[f"| {name} | {rate} | {wall} | {memory} |" for name, rate, wall, memory in rows],
        "",
        "Targets: Bluff in Zoo (a) >= 250,000 games/s per core with four `random` players, "
        "(b) 1e6 games in under 30 s and under 500 MB, with the same memory for 1e7; "
        "Lucky Lions (a) >= 200,000 games/s per core with four `random` players (base game); "
        "Zoology (b) 1e5 games with 4 players on the primary board in under 60 s; "
        "Bluff in Zoo and Big Two (a) kernel >= 0.5x the C reference per core (issue 13); "
        "Short Zoot Suit (a) >= 100,000 games/s per core with four `random` players and "
        ">= 20,000 with heuristics (one game = the whole game, one round per player); "
        "Hodge Podge Dodgeball (a) >= 100,000 games/s per core with `random` players and "
        ">= 20,000 with heuristics (one game = a full match of rounds), (b) 1e6 games with "
        "memory as flat as the other games; "
        "Chai Tea Jazz (a) >= 50,000 games/s per core with three `random` players and >= "
        "5,000 with heuristics (one game = all 12 rounds), (b) 1e6 games in constant memory; "
        "Hearts (a) >= 200,000 hands/s per core with four `random` players (issue 17); "
        "Big Two (a) >= 200,000 games/s per core with four `random` players (one game = one "
        "round, issue 17); "
        "Bug House Millionaire (a) >= 50,000 games/s per core with four `random` players, "
        "(b) 1e6 games in constant memory.",
        "",
        *target_lines,
        *sections,
    ]
    Path(args.output).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
