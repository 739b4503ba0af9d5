"""The C references (issue 13): small C programs that play a game's ``random`` lineup as
fast C is written; build them, run them, time a kernel against its reference and check
that both play the same game.

Each reference is a :class:`Reference` of :data:`REFERENCES`: ``bluff_random.c`` plays
Bluff in Zoo with four ``random`` players, ``big_two_random.c`` Big Two with four, both
under the default settings. A C program's random stream differs from the kernel's, so
single games differ, but every statistic must agree within sampling error: the game's
``compare`` tests each one (two-sided z-tests, Holm-corrected over the family) on
independent samples (the C program runs with another batch seed).

Run alone (``python benchmarks/c_reference.py --game big-two --games 1e6``) it prints the
timings and the statistics check.
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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
"""Bluff in Zoo's C reference (the first; see :data:`REFERENCES` for every game's)."""
LINEUP = "random,random,random,random"
COMPILER = "gcc"
FLAGS = ("-O2", "-march=native", "-std=c11")
REFERENCE_SEED_OFFSET = 1_000_003
"""The C program's batch seed is the kernel's plus this, so the two samples are independent
(both seed game i's SplitMix64 stream the same way)."""
OVERRIDABLE = {"points_to_end": "POINTS_TO_END", "max_claim_count": "CLAIM_CAP"}
"""Settings Bluff in Zoo's C program takes at compile time (``-D``), by their scenario-file
keys."""


@dataclass(frozen=True)
class Reference:
    """One game's C reference: its program, the lineup it plays and how its statistics are
    read and compared with the kernel's."""

    game: str
    """The game's registered name (``zoosim run --game``)."""
    source: Path
    lineup: str
    """The kernel lineup the C program plays (every seat ``random``)."""
    statistics_from_kernel: Callable[[Mapping[str, np.ndarray]], Any]
    statistics_from_reference: Callable[[Mapping[str, Any]], Any]
    compare: Callable[[Any, Any], list[Check]]
    kept: str
    """What the C program keeps in full (not ``--lean``) mode, for the report."""
    overridable: Mapping[str, str] = field(default_factory=dict)
    """Settings the program takes at compile time (``-D``), by their scenario-file keys."""

    @property
    def program(self) -> str:
        """The program's file name without ``.c``."""
        return self.source.stem


def reference_for(game: str) -> Reference:
    """The C reference of ``game``; ValueError naming the games that have one."""
    if game not in REFERENCES:
        raise ValueError(f"no C reference for {game!r}: only {sorted(REFERENCES)}")
    return REFERENCES[game]


def compiler_available() -> bool:
    """Whether the C compiler the reference needs is on the PATH."""
    return shutil.which(COMPILER) is not None


def build(out_dir: Path, settings: Mapping[str, int] | None = None, game: str = "bluff") -> Path:
    """Compile ``game``'s reference into ``out_dir`` and return the program's path.

    ``settings`` may change the reference's overridable settings (Bluff in Zoo's
    ``points_to_end`` and ``max_claim_count``, a positive cap) from their defaults. Raises
    RuntimeError with the compiler's message if compiling fails.
    """
    reference = reference_for(game)
    settings = dict(settings or {})
    unknown = set(settings) - set(reference.overridable)
    if unknown:
        raise ValueError(
            f"the C reference cannot change {sorted(unknown)}: only {dict(reference.overridable)}"
        )
    if any(int(value) < 1 for value in settings.values()):
        raise ValueError(f"the C reference needs settings of 1 or more, got {settings}")
    defines = [
        f"-D{reference.overridable[key]}={int(value)}" for key, value in sorted(settings.items())
    ]
    suffix = "".join(f"_{key}{value}" for key, value in sorted(settings.items()))
    binary = Path(out_dir) / f"{reference.program}{suffix}"
    command = [COMPILER, *FLAGS, *defines, "-o", str(binary), str(reference.source)]
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


def kernel_job(settings_table: Mapping[str, Any] | None = None, game: str = "bluff"):
    """The kernel batch job for the reference's lineup of ``game`` (settings defaults unless
    given)."""
    reference = reference_for(game)
    played = get_game(game)
    players = parse_lineup(reference.lineup, played.strategies)
    table = dict(settings_table or {})
    settings = played.settings_for_lineup(played.settings_from_table(table), players)
    return played.batch_job(settings, players, with_rows=False)


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
        """``25.93 [25.92, 25.94] (n=...)`` for a mean, as format_rate for a rate;
        ``3.732 (n=...)`` for a mean without an interval (nan bounds)."""
        if self.rate:
            return format_rate(self.value, self.low, self.high, self.n)
        if math.isnan(self.low):
            return f"{self.value:.3f} (n={self.n:,})"
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


# --- Big Two ---------------------------------------------------------------------------------

BIG_TWO_KINDS = (
    "pass", "single", "pair", "triple", "straight", "flush", "full house", "four of a kind",
    "straight flush",
)  # fmt: skip
"""The kinds of decision, as ``big_two.rules.KIND_NAMES`` (0: a pass)."""


@dataclass(frozen=True)
class BigTwoStatistics:
    """Big Two's compared counts: sums and sums of squares over games (one round each)."""

    games: int
    turns: tuple[int, int]
    """Decisions per game, forced passes included: (sum, sum of squares)."""
    tricks: tuple[int, int]
    wins: tuple[int, ...]
    penalties: tuple[tuple[int, int], ...]
    """Per seat: (sum, sum of squares) of penalty points."""
    opener_rounds: tuple[int, ...]
    """Per seat: games it led first (it held the 3 of diamonds)."""
    opener_firsts: int
    """Games the first leader went out first."""
    position_firsts: tuple[int, ...]
    """Games the first out sat this many seats after the first leader."""
    decisions: tuple[int, int] | None
    """Real decisions (two options or more) per game; None for a ``--lean`` C run."""
    lead_changes: tuple[int, int] | None
    kinds: tuple[int, ...] | None
    """Decisions by kind (:data:`BIG_TWO_KINDS`), all seats."""
    options: tuple[int, int] | None
    """(options summed over decisions, decisions)."""


def _options(histogram: Sequence[int]) -> tuple[int, int]:
    counts = np.asarray(histogram, dtype=np.int64)
    return int((np.arange(counts.shape[0]) * counts).sum()), int(counts.sum())


def big_two_from_kernel(totals: Mapping[str, np.ndarray]) -> BigTwoStatistics:
    """Big Two's compared statistics from the kernel's count arrays (one round a game)."""
    if int(totals["rounds"][0]) != int(totals["games"][0]):
        raise ValueError("the Big Two C reference plays one round a game (target = 0)")
    return BigTwoStatistics(
        games=int(totals["games"][0]),
        turns=_sum_and_squares(totals["turns_hist"]),
        tricks=_sum_and_squares(totals["tricks_hist"]),
        wins=tuple(int(w) for w in totals["wins"]),
        penalties=tuple(
            (int(s), int(q))
            for s, q in zip(totals["penalty_sum"], totals["penalty_squares"], strict=True)
        ),
        opener_rounds=tuple(int(n) for n in totals["opener_rounds"]),
        opener_firsts=int(totals["opener_firsts"].sum()),
        position_firsts=tuple(int(n) for n in totals["position_firsts"]),
        decisions=_sum_and_squares(totals["game_decisions"]),
        lead_changes=_sum_and_squares(totals["lead_changes_hist"]),
        kinds=tuple(int(n) for n in totals["plays"].sum(axis=0)),
        options=_options(totals["decision_options"]),
    )


def big_two_from_reference(output: Mapping[str, Any]) -> BigTwoStatistics:
    """Big Two's compared statistics from the C program's output."""
    full = output["full_statistics"]
    return BigTwoStatistics(
        games=int(output["games"]),
        turns=(int(output["turns_sum"]), int(output["turns_squares"])),
        tricks=(int(output["tricks_sum"]), int(output["tricks_squares"])),
        wins=tuple(int(w) for w in output["wins"]),
        penalties=tuple(
            (int(s), int(q))
            for s, q in zip(output["penalty_sum"], output["penalty_squares"], strict=True)
        ),
        opener_rounds=tuple(int(n) for n in output["opener_rounds"]),
        opener_firsts=sum(int(n) for n in output["opener_firsts"]),
        position_firsts=tuple(int(n) for n in output["position_firsts"]),
        decisions=(int(output["decisions_sum"]), int(output["decisions_squares"]))
        if full
        else None,
        lead_changes=_sum_and_squares(output["lead_changes_hist"]) if full else None,
        kinds=tuple(int(n) for n in np.asarray(output["plays"]).sum(axis=0)) if full else None,
        options=_options(output["decision_options"]) if full else None,
    )


def _mean_check(name: str, k: tuple[int, int], r: tuple[int, int], n_k: int, n_r: int) -> Check:
    return Check(name, _mean(*k, n_k), _mean(*r, n_r), _mean_p(k, r, n_k, n_r))


def _rate_check(name: str, k: int, r: int, n_k: int, n_r: int) -> Check:
    return Check(name, _rate(k, n_k), _rate(r, n_r), two_proportion_test(k, n_k, r, n_r))


def compare_big_two(kernel: BigTwoStatistics, reference: BigTwoStatistics) -> list[Check]:
    """Every Big Two statistic on both sides with its p-value, Holm-adjusted over those
    tested: means per game (z-tests from sums of squares), rates per game (pooled
    two-proportion z-tests). The shares of decisions by kind and the mean options per
    decision are shown but not tested: a game's decisions are not independent."""
    k, r = kernel, reference
    n_k, n_r = k.games, r.games
    checks = [
        _mean_check("mean turns", k.turns, r.turns, n_k, n_r),
        _mean_check("mean tricks", k.tricks, r.tricks, n_k, n_r),
    ]
    if k.decisions is not None and r.decisions is not None:
        checks.append(_mean_check("mean real decisions", k.decisions, r.decisions, n_k, n_r))
    if k.lead_changes is not None and r.lead_changes is not None:
        checks.append(_mean_check("mean lead changes", k.lead_changes, r.lead_changes, n_k, n_r))
    for seat, (kw, rw) in enumerate(zip(k.wins, r.wins, strict=True), start=1):
        checks.append(_rate_check(f"seat {seat} win rate", kw, rw, n_k, n_r))
    for seat, (kp, rp) in enumerate(zip(k.penalties, r.penalties, strict=True), start=1):
        checks.append(_mean_check(f"seat {seat} mean penalty", kp, rp, n_k, n_r))
    for seat, (ko, ro) in enumerate(zip(k.opener_rounds, r.opener_rounds, strict=True), start=1):
        checks.append(_rate_check(f"seat {seat} leads first", ko, ro, n_k, n_r))
    checks.append(_rate_check("first leader out first", k.opener_firsts, r.opener_firsts, n_k, n_r))
    pairs = zip(k.position_firsts, r.position_firsts, strict=True)
    for position, (kf, rf) in enumerate(pairs):
        if position > 0:
            checks.append(_rate_check(f"first out {position} after the leader", kf, rf, n_k, n_r))
    if k.kinds is not None and r.kinds is not None:
        k_all, r_all = sum(k.kinds), sum(r.kinds)
        for name, kk, rk in zip(BIG_TWO_KINDS, k.kinds, r.kinds, strict=True):
            shown = Check(
                f"decisions: {name} (not tested)", _rate(kk, k_all), _rate(rk, r_all), math.nan
            )
            checks.append(shown)
    if k.options is not None and r.options is not None:
        checks.append(
            Check(
                "mean options per decision (not tested)",
                Estimate(k.options[0] / k.options[1], math.nan, math.nan, k.options[1], False),
                Estimate(r.options[0] / r.options[1], math.nan, math.nan, r.options[1], False),
                math.nan,
            )
        )
    return holm(checks)


# --- the references -----------------------------------------------------------------------

REFERENCES: dict[str, Reference] = {
    "bluff": Reference(
        "bluff",
        SOURCE,
        LINEUP,
        statistics_from_kernel,
        statistics_from_reference,
        compare,
        "doubt and claim tables, histograms, score trajectories",
        OVERRIDABLE,
    ),
    "big-two": Reference(
        "big-two",
        SOURCE.with_name("big_two_random.c"),
        "random,random,random,random",
        big_two_from_kernel,
        big_two_from_reference,
        compare_big_two,
        "decisions by seat and kind, leads by kind, places, cards left, decision options, "
        "histograms, score trajectories",
    ),
}
"""Every game with a C reference, by registered name."""


def check_statistics(
    games: int,
    seed: int,
    out_dir: Path,
    settings: Mapping[str, int] | None = None,
    game: str = "bluff",
) -> list[Check]:
    """Play ``games`` games of ``game`` on each side (C with its own seed) and compare the
    statistics."""
    reference = reference_for(game)
    binary = build(out_dir, settings, game)
    job = kernel_job(settings, game)
    totals, _ = play_kernel(job, games, seed)
    output = run_reference(binary, games, seed + REFERENCE_SEED_OFFSET)
    return reference.compare(
        reference.statistics_from_kernel(totals), reference.statistics_from_reference(output)
    )


# --- timing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measurement:
    """Games/s (CPU time, one core) of alternating runs, and the statistics check."""

    games: int
    kernel_rates: list[float]
    reference_rates: list[float]
    """The C program keeping the kernel's statistics (its tables included)."""
    lean_rates: list[float]
    """The C program with ``--lean``: summary counts only."""
    checks: list[Check]
    game: str = "bluff"

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


def measure(
    games: int, runs: int = 3, seed: int = 2, progress=print, game: str = "bluff"
) -> Measurement:
    """Time ``game``'s kernel and C reference alternately ``runs`` times each on one core.

    The kernel's numba cache is warmed first; every figure is CPU time of the game loop
    (the C program times itself). The first run of each side feeds the statistics check.
    """
    reference = reference_for(game)
    job = kernel_job(game=game)
    job(1, 100)  # compile or load the kernel before timing
    kernel_rates, reference_rates, lean_rates = [], [], []
    kernel_totals = reference_output = None
    with tempfile.TemporaryDirectory(prefix="zoosim-cref-") as folder:
        binary = build(Path(folder), game=game)
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
    checks = reference.compare(
        reference.statistics_from_kernel(kernel_totals),
        reference.statistics_from_reference(reference_output),
    )
    return Measurement(games, kernel_rates, reference_rates, lean_rates, checks, game)


def main() -> None:
    """Measure and check from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default="bluff", choices=sorted(REFERENCES), help="the game (default bluff)"
    )
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
            checks = check_statistics(games, args.seed, Path(folder), game=args.game)
    else:
        result = measure(games, args.runs, args.seed, game=args.game)
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
