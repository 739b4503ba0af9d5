"""The C reference for the Bluff in Zoo kernel (benchmarks/bluff_random.c, issue 13).

It must build, print statistics that parse and hold together, and play the same game as
the kernel: its statistics agree with the kernel's within sampling error (slow tests).
The seed and command-line tests run every game's program (c_reference.h serves them all).
"""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from tests.c_reference_helpers import built, c_reference, needs_compiler

SQUARES = {
    "bluff": ("rounds_squares", "points_squares"),
    "big-two": ("turns_squares", "penalty_squares"),
}
"""Two sums of squares of each program's output that differ between any two seeds."""


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built(tmp_path_factory, "bluff")


@pytest.fixture(scope="module", params=sorted(SQUARES))
def game_binary(request: pytest.FixtureRequest, tmp_path_factory) -> tuple[str, Path]:
    """Every game's C reference (they share c_reference.h's stream and command line)."""
    return request.param, built(tmp_path_factory, request.param)


@needs_compiler
def test_output_parses_and_holds_together(binary: Path) -> None:
    output = c_reference.run_reference(binary, 3000, seed=7)
    stats = c_reference.statistics_from_reference(output)
    assert output["players"] == 4 and output["full_statistics"] is True
    assert stats.games == 3000
    assert output["games_per_second"] > 0
    # every round ends with exactly one doubt; every other move is a claim
    assert stats.doubts == stats.rounds[0]
    assert stats.doubts + stats.claims == stats.moves[0]
    assert sum(map(sum, output["move_counts"])) == stats.moves[0]
    assert [row[0] for row in output["move_counts"]] != [0] * 4
    assert sum(output["end_reasons"]) == stats.games
    assert 0 < stats.doubts_succeeded < stats.doubts
    assert 0 < stats.true_claims < stats.claims
    # ties all win, so wins add up to at least one per game; sole wins to at most one
    assert sum(stats.wins) >= stats.games >= sum(stats.sole_wins)
    for name, (total, _) in (("rounds_hist", stats.rounds), ("moves_hist", stats.moves)):
        histogram = output[name]
        assert sum(histogram) == stats.games
        assert sum(value * games for value, games in enumerate(histogram)) == total
    assert sum(output["lead_changes_hist"]) == stats.games
    assert sum(output["settled_hist"]) == sum(stats.sole_wins)
    assert output["mean_rounds"] == pytest.approx(stats.rounds[0] / stats.games, abs=1e-6)


@needs_compiler
def test_lean_mode_plays_the_same_games(binary: Path) -> None:
    """--lean only skips tables: the same seed gives the same summary counts."""
    full = c_reference.statistics_from_reference(c_reference.run_reference(binary, 2000, 3))
    lean = c_reference.statistics_from_reference(
        c_reference.run_reference(binary, 2000, 3, lean=True)
    )
    assert lean.true_claims is None and lean.lead_changes is None
    assert replace(full, true_claims=None, lead_changes=None) == lean


@needs_compiler
def test_same_seed_same_games_other_seed_other_games(game_binary: tuple[str, Path]) -> None:
    game, binary = game_binary
    steps, scores = SQUARES[game]
    first = c_reference.run_reference(binary, 500, 11)
    again = c_reference.run_reference(binary, 500, 11)
    other = c_reference.run_reference(binary, 500, 12)
    assert first[steps] == again[steps]
    assert first[scores] == again[scores]
    assert first[scores] != other[scores]


@needs_compiler
@pytest.mark.parametrize("arguments", [[], ["0"], ["-5"], ["1.5"], ["10", "x"], ["10", "1", "2"]])
def test_bad_arguments_get_one_usage_line(
    game_binary: tuple[str, Path], arguments: list[str]
) -> None:
    game, binary = game_binary
    result = subprocess.run([str(binary), *arguments], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stdout == ""
    program = c_reference.reference_for(game).program
    assert result.stderr.startswith(f"usage: {program} GAMES")
    assert result.stderr.count("\n") == 1


def test_build_refuses_settings_it_cannot_change(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="hand_size"):
        c_reference.build(tmp_path, {"hand_size": 4})
    with pytest.raises(ValueError, match="1 or more"):  # 0 means "no cap" to the kernel
        c_reference.build(tmp_path, {"max_claim_count": 0})


def _statistics(games: int = 100_000, shift: int = 0):
    """Plausible statistics of ``games`` games; ``shift`` adds rounds to every game."""
    rounds = 26 + shift
    return c_reference.GameStatistics(
        games=games,
        rounds=(rounds * games, (rounds * rounds + 40) * games),
        moves=(130 * games, (130 * 130 + 700) * games),
        doubts=rounds * games,
        doubts_succeeded=int(0.72 * rounds * games),
        claims=104 * games,
        true_claims=int(0.28 * 104 * games),
        end_points=games * 3 // 4,
        wins=(games * 27 // 100,) * 4,
        sole_wins=(games * 23 // 100,) * 4,
        points=((19 * games, (19 * 19 + 90) * games),) * 4,
        lead_changes=(2 * games, 6 * games),
    )


def test_compare_finds_no_difference_between_equal_samples() -> None:
    checks = c_reference.compare(_statistics(), _statistics())
    tested = [c for c in checks if c.p_holm == c.p_holm]  # not nan
    assert len(tested) == 17
    assert all(c.p_holm == 1.0 for c in tested)
    assert c_reference.disagreements(checks, 0.01) == []
    lines = c_reference.check_lines(checks)
    assert lines[2].startswith("| mean rounds | 26.000 [")
    assert lines[-1].endswith("| not tested |")


def test_compare_flags_a_shifted_game_length() -> None:
    checks = c_reference.compare(_statistics(), _statistics(shift=1))
    failed = {c.name for c in c_reference.disagreements(checks, 0.01)}
    assert failed == {"mean rounds"}


def test_holm_adjusts_the_smallest_p_by_the_family_size() -> None:
    estimate = c_reference.Estimate(0.5, 0.4, 0.6, 100, rate=True)
    checks = [
        c_reference.Check(name, estimate, estimate, p)
        for name, p in (("a", 0.01), ("b", 0.04), ("c", 0.5), ("d", float("nan")))
    ]
    adjusted = [c.p_holm for c in c_reference.holm(checks)]
    assert adjusted[:3] == pytest.approx([0.03, 0.08, 0.5])
    assert adjusted[3] != adjusted[3]  # nan: not tested


@pytest.mark.slow
@needs_compiler
def test_statistics_agree_with_the_kernel(tmp_path: Path) -> None:
    """1e6 games each side: no statistic differs (Holm-adjusted p >= 0.01)."""
    checks = c_reference.check_statistics(1_000_000, seed=5, out_dir=tmp_path)
    assert c_reference.disagreements(checks, 0.01) == [], c_reference.check_lines(checks)


@pytest.mark.slow
@needs_compiler
def test_statistics_agree_at_a_low_claim_cap_to_the_end_of_the_deck(tmp_path: Path) -> None:
    """The rare paths: forced doubts at a cap of 3 animals, every game ending with the deck."""
    settings = {"max_claim_count": 3, "points_to_end": 1000}
    checks = c_reference.check_statistics(300_000, seed=6, out_dir=tmp_path, settings=settings)
    by_name = {c.name: c for c in checks}
    assert by_name["games ended by points"].kernel.value == 0.0
    assert c_reference.disagreements(checks, 0.01) == [], c_reference.check_lines(checks)


@pytest.mark.slow
@needs_compiler
def test_the_check_notices_a_changed_rule(tmp_path: Path) -> None:
    """The check has power: a C game ending at 31 points instead of 30 is told apart."""
    binary = c_reference.build(tmp_path, {"points_to_end": 31})
    totals, _ = c_reference.play_kernel(c_reference.kernel_job(), 300_000, 8)
    output = c_reference.run_reference(binary, 300_000, 9)
    checks = c_reference.compare(
        c_reference.statistics_from_kernel(totals),
        c_reference.statistics_from_reference(output),
    )
    assert "mean rounds" in {c.name for c in c_reference.disagreements(checks, 0.01)}
