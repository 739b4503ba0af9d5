"""The C reference for the Bluff in Zoo kernel (issue 13): build it, run it, time the kernel
against it and check that both play the same game.

``bluff_random.c`` (next to this file) plays Bluff in Zoo with four ``random`` players
under the default settings, written as fast C is written. Its random stream differs from
the kernel's, so single games differ, but every statistic must agree within sampling
error: :func:`compare` tests each one (two-sided z-tests, Holm-corrected over the family)
on independent samples (the C program runs with another batch seed).

Run alone (``python benchmarks/c_reference.py --games 1e6``) it prints the timings and
the statistics check.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import norm

from zooanalysis.games import get_game
from zooanalysis.numbers import parse_count
from zooanalysis.results import mean_with_interval
from zooanalysis.stats import format_rate, two_proportion_test, wilson_interval
from zooanalysis.strategy_spec import parse_lineup

SOURCE = Path(__file__).with_name("bluff_random.c")
LINEUP = "random,random,random,random"
COMPILER = "gcc"
FLAGS = ("-O2", "-march=native", "-std=c11")
REFERENCE_SEED_OFFSET = 1_000_003
"""The C program's batch seed is the kernel's plus this, so the two samples are independent
(both seed game i's SplitMix64 stream the same way)."""
OVERRIDABLE = {"points_to_end": "POINTS_TO_END", "max_claim_count": "CLAIM_CAP"}
"""Settings the C program takes at compile time (``-D``), by their scenario-file keys."""


def compiler_available() -> bool:
    """Whether the C compiler the reference needs is on the PATH."""
    return shutil.which(COMPILER) is not None


def build(out_dir: Path, settings: Mapping[str, int] | None = None) -> Path:
    """Compile the reference into ``out_dir`` and return the program's path.

    ``settings`` may change ``points_to_end`` and ``max_claim_count`` (a positive cap) from
    their defaults. Raises RuntimeError with the compiler's message if compiling fails.
    """
    settings = dict(settings or {})
    unknown = set(settings) - set(OVERRIDABLE)
    if unknown:
        raise ValueError(f"the C reference cannot change {sorted(unknown)}: only {OVERRIDABLE}")
    if any(int(value) < 1 for value in settings.values()):
        raise ValueError(f"the C reference needs settings of 1 or more, got {settings}")
    defines = [f"-D{OVERRIDABLE[key]}={int(value)}" for key, value in sorted(settings.items())]
    suffix = "".join(f"_{key}{value}" for key, value in sorted(settings.items()))
    binary = Path(out_dir) / f"bluff_random{suffix}"
    command = [COMPILER, *FLAGS, *defines, "-o", str(binary), str(SOURCE)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr}")
    return binary


def run_reference(binary: Path, games: int, seed: int, lean: bool = False) -> dict[str, Any]:
    """Run the compiled reference and return its JSON output as a dict."""
    command = [str(binary), str(games), str(seed), *(["--lean"] if lean else [])]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return json.loads(result.stdout)


def kernel_job(settings_table: Mapping[str, Any] | None = None):
    """The kernel batch job for four ``random`` players (settings defaults unless given)."""
    game = get_game("bluff")
    players = parse_lineup(LINEUP, game.strategies)
    table = dict(settings_table or {})
    settings = game.settings_for_lineup(game.settings_from_table(table), players)
    return game.batch_job(settings, players, with_rows=False)


def play_kernel(job, games: int, seed: int) -> tuple[dict[str, np.ndarray], float]:
    """Play ``games`` games on the kernel; returns its totals and the CPU seconds taken."""
    start = time.process_time()
    totals = job(seed, games)
    return totals, time.process_time() - start


# --- the statistics both sides keep ------------------------------------------------------


@dataclass(frozen=True)
class GameStatistics:
    """Counts, sums and sums of squares from which every compared statistic follows."""

    games: int
    rounds: tuple[int, int]
    """(sum, sum of squares) over games."""
    moves: tuple[int, int]
    doubts: int
    doubts_succeeded: int
    """Doubts that caught a false claim (the claimant took the pile)."""
    claims: int
    true_claims: int | None
    """Claims true when made (None when the C program ran with ``--lean``)."""
    end_points: int
    """Games ended by the points limit (the others by the draw pile)."""
    wins: tuple[int, ...]
    sole_wins: tuple[int, ...]
    points: tuple[tuple[int, int], ...]
    """Per seat: (sum, sum of squares) of penalty points."""
    lead_changes: tuple[int, int] | None


def _sum_and_squares(histogram: Sequence[int]) -> tuple[int, int]:
    counts = np.asarray(histogram, dtype=np.int64)
    if counts[-1] != 0:
        raise ValueError("a histogram's top bin holds values beyond it: its mean is unknown")
    values = np.arange(counts.shape[0], dtype=np.int64)
    return int((values * counts).sum()), int((values * values * counts).sum())


def statistics_from_kernel(totals: Mapping[str, np.ndarray]) -> GameStatistics:
    """The compared statistics from the kernel's count arrays."""
    doubts = totals["doubts"]
    claims = totals["claims"]
    return GameStatistics(
        games=int(totals["games"][0]),
        rounds=_sum_and_squares(totals["rounds_hist"]),
        moves=_sum_and_squares(totals["moves_hist"]),
        doubts=int(doubts.sum()),
        doubts_succeeded=int(doubts[..., 0].sum()),
        claims=int(claims.sum()),
        true_claims=int(claims[..., 1].sum()),
        end_points=int(totals["end_reasons"][0]),
        wins=tuple(int(w) for w in totals["wins"]),
        sole_wins=tuple(int(w) for w in totals["sole_wins"]),
        points=tuple(
            (int(s), int(q))
            for s, q in zip(totals["points_sum"], totals["points_squares"], strict=True)
        ),
        lead_changes=_sum_and_squares(totals["lead_changes_hist"]),
    )


def statistics_from_reference(output: Mapping[str, Any]) -> GameStatistics:
    """The compared statistics from the C program's output."""
    full = output["full_statistics"]
    return GameStatistics(
        games=int(output["games"]),
        rounds=(int(output["rounds_sum"]), int(output["rounds_squares"])),
        moves=(int(output["moves_sum"]), int(output["moves_squares"])),
        doubts=int(output["doubts"]),
        doubts_succeeded=int(output["doubts_succeeded"]),
        claims=int(output["claims"]),
        true_claims=int(output["true_claims"]) if full else None,
        end_points=int(output["end_reasons"][0]),
        wins=tuple(int(w) for w in output["wins"]),
        sole_wins=tuple(int(w) for w in output["sole_wins"]),
        points=tuple(
            (int(s), int(q))
            for s, q in zip(output["points_sum"], output["points_squares"], strict=True)
        ),
        lead_changes=_sum_and_squares(output["lead_changes_hist"]) if full else None,
    )


# --- the comparison ------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean or a rate with its 95% interval and n."""

    value: float
    low: float
    high: float
    n: int
    rate: bool

    def text(self) -> str:
        """``25.93 [25.92, 25.94] (n=...)`` for a mean, as format_rate for a rate."""
        if self.rate:
            return format_rate(self.value, self.low, self.high, self.n)
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}] (n={self.n:,})"


@dataclass(frozen=True)
class Check:
    """One statistic on both sides and the two-sided p-value that they are equal."""

    name: str
    kernel: Estimate
    reference: Estimate
    p: float
    """Raw p-value (nan: shown, not tested)."""
    p_holm: float = math.nan
    """Holm-adjusted over the tested family."""


def _mean(total: int, squares: int, n: int) -> Estimate:
    mean, low, high = mean_with_interval(total, squares, n)
    return Estimate(mean, low, high, n, rate=False)


def _rate(successes: int, n: int) -> Estimate:
    low, high = wilson_interval(successes, n)
    return Estimate(successes / n, low, high, n, rate=True)


def _mean_p(a: tuple[int, int], b: tuple[int, int], n_a: int, n_b: int) -> float:
    """Two-sided p-value of the z-test that two means (from sums and squares) are equal."""
    variances = []
    for (total, squares), n in ((a, n_a), (b, n_b)):
        mean = total / n
        variances.append(max(0.0, squares / n - mean * mean) * n / max(1, n - 1) / n)
    se = math.sqrt(sum(variances))
    difference = a[0] / n_a - b[0] / n_b
    if se == 0.0:
        return 1.0 if difference == 0 else 0.0
    return float(2.0 * norm.sf(abs(difference) / se))


def compare(kernel: GameStatistics, reference: GameStatistics) -> list[Check]:
    """Every statistic on both sides with its p-value, Holm-adjusted over those tested.

    Means are per game (z-test from sums of squares); rates are pooled two-proportion
    z-tests. The claim-truth rate is shown but not tested: the claims of one round share a
    pile, so a binomial interval over claims is too narrow.
    """
    k, r = kernel, reference
    checks = [
        Check(
            "mean rounds",
            _mean(*k.rounds, k.games),
            _mean(*r.rounds, r.games),
            _mean_p(k.rounds, r.rounds, k.games, r.games),
        ),
        Check(
            "mean moves",
            _mean(*k.moves, k.games),
            _mean(*r.moves, r.games),
            _mean_p(k.moves, r.moves, k.games, r.games),
        ),
        Check(
            "doubt success rate",
            _rate(k.doubts_succeeded, k.doubts),
            _rate(r.doubts_succeeded, r.doubts),
            two_proportion_test(k.doubts_succeeded, k.doubts, r.doubts_succeeded, r.doubts),
        ),
        Check(
            "games ended by points",
            _rate(k.end_points, k.games),
            _rate(r.end_points, r.games),
            two_proportion_test(k.end_points, k.games, r.end_points, r.games),
        ),
    ]
    for seat, (kw, rw) in enumerate(zip(k.wins, r.wins, strict=True), start=1):
        checks.append(
            Check(
                f"seat {seat} win rate",
                _rate(kw, k.games),
                _rate(rw, r.games),
                two_proportion_test(kw, k.games, rw, r.games),
            )
        )
    for seat, (kw, rw) in enumerate(zip(k.sole_wins, r.sole_wins, strict=True), start=1):
        checks.append(
            Check(
                f"seat {seat} sole-win rate",
                _rate(kw, k.games),
                _rate(rw, r.games),
                two_proportion_test(kw, k.games, rw, r.games),
            )
        )
    for seat, (kp, rp) in enumerate(zip(k.points, r.points, strict=True), start=1):
        checks.append(
            Check(
                f"seat {seat} mean points",
                _mean(*kp, k.games),
                _mean(*rp, r.games),
                _mean_p(kp, rp, k.games, r.games),
            )
        )
    if k.lead_changes is not None and r.lead_changes is not None:
        checks.append(
            Check(
                "mean lead changes",
                _mean(*k.lead_changes, k.games),
                _mean(*r.lead_changes, r.games),
                _mean_p(k.lead_changes, r.lead_changes, k.games, r.games),
            )
        )
    if k.true_claims is not None and r.true_claims is not None:
        checks.append(
            Check(
                "claims true when made (not tested)",
                _rate(k.true_claims, k.claims),
                _rate(r.true_claims, r.claims),
                math.nan,
            )
        )
    return holm(checks)


def holm(checks: list[Check]) -> list[Check]:
    """The checks with Holm-adjusted p-values over those with a p-value."""
    tested = sorted((c.p, i) for i, c in enumerate(checks) if not math.isnan(c.p))
    adjusted: dict[int, float] = {}
    running = 0.0
    for rank, (p, index) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[index] = running
    return [
        Check(c.name, c.kernel, c.reference, c.p, adjusted.get(i, math.nan))
        for i, c in enumerate(checks)
    ]


def disagreements(checks: Sequence[Check], alpha: float) -> list[Check]:
    """The checks whose Holm-adjusted p-value is below ``alpha``."""
    return [c for c in checks if not math.isnan(c.p_holm) and c.p_holm < alpha]


def check_lines(checks: Sequence[Check]) -> list[str]:
    """The checks as a Markdown table."""
    lines = [
        "| statistic | kernel | C reference | p | p (Holm) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for c in checks:
        p = "not tested" if math.isnan(c.p) else f"{c.p:.3g}"
        p_holm = "not tested" if math.isnan(c.p_holm) else f"{c.p_holm:.3g}"
        lines.append(f"| {c.name} | {c.kernel.text()} | {c.reference.text()} | {p} | {p_holm} |")
    return lines


def check_statistics(
    games: int, seed: int, out_dir: Path, settings: Mapping[str, int] | None = None
) -> list[Check]:
    """Play ``games`` games on each side (C with its own seed) and compare the statistics."""
    binary = build(out_dir, settings)
    job = kernel_job(settings)
    totals, _ = play_kernel(job, games, seed)
    output = run_reference(binary, games, seed + REFERENCE_SEED_OFFSET)
    return compare(statistics_from_kernel(totals), statistics_from_reference(output))


# --- timing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measurement:
    """Games/s (CPU time, one core) of alternating runs, and the statistics check."""

    games: int
    kernel_rates: list[float]
    reference_rates: list[float]
    """The C program keeping the kernel's statistics (doubt and claim tables included)."""
    lean_rates: list[float]
    """The C program with ``--lean``: summary counts only."""
    checks: list[Check]

    @property
    def kernel(self) -> float:
        """Median kernel games/s."""
        return statistics.median(self.kernel_rates)

    @property
    def reference(self) -> float:
        """Median games/s of the C reference with the kernel's statistics."""
        return statistics.median(self.reference_rates)

    @property
    def lean(self) -> float:
        """Median games/s of the C reference with summary counts only."""
        return statistics.median(self.lean_rates)


def measure(games: int, runs: int = 3, seed: int = 2, progress=print) -> Measurement:
    """Time kernel and C reference alternately ``runs`` times each on one core.

    The kernel's numba cache is warmed first; every figure is CPU time of the game loop
    (the C program times itself). The first run of each side feeds the statistics check.
    """
    job = kernel_job()
    job(1, 100)  # compile or load the kernel before timing
    kernel_rates, reference_rates, lean_rates = [], [], []
    kernel_totals = reference_output = None
    with tempfile.TemporaryDirectory(prefix="zoosim-cref-") as folder:
        binary = build(Path(folder))
        for run in range(runs):
            progress(f"  run {run + 1}/{runs}: kernel ...")
            totals, seconds = play_kernel(job, games, seed)
            kernel_rates.append(games / seconds)
            kernel_totals = kernel_totals or totals
            progress(f"  run {run + 1}/{runs}: C reference ...")
            output = run_reference(binary, games, seed + REFERENCE_SEED_OFFSET)
            reference_rates.append(float(output["games_per_second"]))
            reference_output = reference_output or output
            lean = run_reference(binary, games, seed + REFERENCE_SEED_OFFSET, lean=True)
            lean_rates.append(float(lean["games_per_second"]))
    checks = compare(
        statistics_from_kernel(kernel_totals), statistics_from_reference(reference_output)
    )
    return Measurement(games, kernel_rates, reference_rates, lean_rates, checks)


def main() -> None:
    """Measure and check from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1e6", help="games per run and side (e.g. 1e6)")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs per side")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument(
        "--check-only", action="store_true", help="only the statistics check, no timing runs"
    )
    args = parser.parse_args()
    if not compiler_available():
        raise SystemExit(f"{COMPILER} not found: the C reference cannot be built")
    games = parse_count(args.games)
    if args.check_only:
        with tempfile.TemporaryDirectory(prefix="zoosim-cref-") as folder:
            checks = check_statistics(games, args.seed, Path(folder))
    else:
        result = measure(games, args.runs, args.seed)
        checks = result.checks
        print(f"kernel       {result.kernel:>12,.0f} games/s  runs {result.kernel_rates}")
        print(f"C reference  {result.reference:>12,.0f} games/s  runs {result.reference_rates}")
        print(f"C --lean     {result.lean:>12,.0f} games/s  runs {result.lean_rates}")
        print(
            f"kernel / C reference {result.kernel / result.reference:.2f}x, "
            f"kernel / C --lean {result.kernel / result.lean:.2f}x"
        )
    print("\n".join(check_lines(checks)))
    failed = disagreements(checks, 0.01)
    print("statistics agree" if not failed else f"DISAGREE: {[c.name for c in failed]}")


if __name__ == "__main__":
    main()
