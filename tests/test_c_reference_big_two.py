"""The C reference for the Big Two kernel (benchmarks/big_two_random.c, issue 13).

It must build, print statistics that parse and hold together, and play the same game as
the kernel: its statistics agree with the kernel's within sampling error (slow test).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.c_reference_helpers import built, c_reference, needs_compiler

PLAYERS, HAND = 4, 13


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built(tmp_path_factory, "big-two")


def _penalty(cards: int) -> int:
    """rules.penalty at the defaults: doubled from 10 cards left, tripled from 13."""
    return cards * (3 if cards >= 13 else 2 if cards >= 10 else 1)


@needs_compiler
def test_output_parses_and_holds_together(binary: Path) -> None:
    output = c_reference.run_reference(binary, 3000, seed=7)
    stats = c_reference.big_two_from_reference(output)
    games = 3000
    assert output["program"] == "big_two_random" and output["full_statistics"] is True
    assert stats.games == games and output["games_per_second"] > 0
    # one round a game, the first out wins alone; the 3 of diamonds' holder leads first
    assert output["wins"] == output["sole_wins"] and sum(stats.wins) == games
    assert sum(stats.opener_rounds) == games == sum(stats.position_firsts)
    assert stats.opener_firsts == stats.position_firsts[0]
    # every decision is a pass or a play of one kind; every trick is led by a play
    assert sum(stats.kinds) == stats.turns[0] == stats.options[1]
    assert output["leads"][0] == 0 and sum(output["leads"]) == stats.tricks[0]
    # the cards played are the cards dealt less the cards left
    sizes = (0, 1, 2, 3, 5, 5, 5, 5, 5)
    played = sum(size * n for size, n in zip(sizes, stats.kinds, strict=True))
    cards_left = output["cards_left"]
    left = sum(cards * n for row in cards_left for cards, n in enumerate(row))
    assert played + left == PLAYERS * HAND * games
    assert sum(output["position_cards"]) == left
    for seat, row in enumerate(cards_left):
        assert sum(row) == games and row[0] == stats.wins[seat]
        assert max(cards for cards, n in enumerate(row) if n) <= HAND
        penalty = sum(_penalty(cards) * n for cards, n in enumerate(row))
        squares = sum(_penalty(cards) ** 2 * n for cards, n in enumerate(row))
        assert stats.penalties[seat] == (penalty, squares)
        assert output["places"][seat][0] >= stats.wins[seat]
    # a lead offers only plays; a follow also passing, so a real decision has 2+ options
    options = output["decision_options"]
    assert sum(options[2:]) == stats.decisions[0]
    assert sum(output["game_decisions"]) == games == sum(output["settled_hist"])
    assert sum(output["turns_hist"]) == games == sum(output["lead_changes_hist"])
    assert output["mean_turns"] == pytest.approx(stats.turns[0] / games, abs=1e-6)


@needs_compiler
def test_lean_mode_plays_the_same_games(binary: Path) -> None:
    """--lean only skips tables: the same seed gives the same summary counts."""
    full = c_reference.big_two_from_reference(c_reference.run_reference(binary, 2000, 3))
    lean = c_reference.big_two_from_reference(c_reference.run_reference(binary, 2000, 3, lean=True))
    assert lean.decisions is None and lean.kinds is None and lean.options is None
    assert replace(full, decisions=None, lead_changes=None, kinds=None, options=None) == lean


def test_unknown_games_and_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no C reference for 'hearts'"):
        c_reference.build(tmp_path, game="hearts")
    with pytest.raises(ValueError, match="cannot change"):
        c_reference.build(tmp_path, {"target": 100}, game="big-two")


def _statistics(games: int = 100_000, extra_turn: int = 0):
    """Plausible Big Two statistics of ``games`` games; ``extra_turn`` adds turns to every
    game."""
    turns = 67 + extra_turn
    return c_reference.BigTwoStatistics(
        games=games,
        turns=(turns * games, (turns * turns + 190) * games),
        tricks=(12 * games, (144 + 10) * games),
        wins=(games // 4,) * 4,
        penalties=((27 * games // 10, 65 * games // 10),) * 4,
        opener_rounds=(games // 4,) * 4,
        opener_firsts=games * 316 // 1000,
        position_firsts=(
            games * 316 // 1000,
            games * 23 // 100,
            games * 226 // 1000,
            games * 228 // 1000,
        ),
        decisions=(42 * games, (42 * 42 + 100) * games),
        lead_changes=(3 * games, 12 * games),
        kinds=(34 * games, 28 * games, 3 * games, 0, 1, 1, 0, 0, 0),
        options=(250 * games, turns * games),
    )


def test_compare_finds_no_difference_between_equal_samples() -> None:
    checks = c_reference.compare_big_two(_statistics(), _statistics())
    tested = [c for c in checks if c.p_holm == c.p_holm]  # not nan
    assert len(tested) == 20
    assert all(c.p_holm == 1.0 for c in tested)
    assert c_reference.disagreements(checks, 0.01) == []
    lines = c_reference.check_lines(checks)
    assert lines[2].startswith("| mean turns | 67.000 [")
    assert lines[-1].startswith("| mean options per decision (not tested) | 3.731 (n=")


def test_compare_flags_a_longer_game() -> None:
    checks = c_reference.compare_big_two(_statistics(), _statistics(extra_turn=1))
    failed = {c.name for c in c_reference.disagreements(checks, 0.01)}
    assert failed == {"mean turns"}


@pytest.mark.slow
@needs_compiler
def test_statistics_agree_with_the_kernel(tmp_path: Path) -> None:
    """1e6 games each side: no statistic differs (Holm-adjusted p >= 0.01)."""
    checks = c_reference.check_statistics(1_000_000, seed=5, out_dir=tmp_path, game="big-two")
    assert c_reference.disagreements(checks, 0.01) == [], c_reference.check_lines(checks)
