"""``zoosim psro --prune`` (a restricted game) and ``--max-compositions``: hand-checked
cases on fake fields, then the re-check on real Lucky Lions deals."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import zooanalysis.psro as psro
import zooanalysis.psro_restrict as restrict
from tests.fault_helpers import one_error_line, run_cli
from zooanalysis.errors import UserError
from zooanalysis.exploit import families_of
from zooanalysis.field import FieldRequest, field_plan, run_field
from zooanalysis.games import get_game
from zooanalysis.loading import load_run
from zooanalysis.psro_restrict import prunable, recheck
from zooanalysis.strategy_spec import parse_lineup

BLUFF = get_game("bluff")


class FakeField:
    """What the loop reads of a field: its manifest and equilibrium table, made by hand."""

    def __init__(self, rows: dict[str, tuple[float, float, float]]) -> None:
        """``rows``: label -> (weight, weight's upper bound, gain's upper bound)."""
        self.manifest = {
            "population": list(rows),
            "games": 1000,
            "solution": {"weights": {k: v[0] for k, v in rows.items()}, "nash_conv": 0.0},
        }
        self.table = pd.DataFrame(
            {
                "strategy": list(rows),
                "weight": [v[0] for v in rows.values()],
                "weight_ci_high": [v[1] for v in rows.values()],
                "gain_ci_high": [v[2] for v in rows.values()],
            }
        )

    def equilibrium(self) -> pd.DataFrame:
        return self.table.set_index("strategy")


def test_only_strategies_out_of_the_mix_that_gain_nothing_are_dropped() -> None:
    field = FakeField(
        {
            "aggressive": (1.0, 1.0, 0.0),  # the mix
            "random": (0.0, 0.0, -0.20),  # out, loses: dropped
            "cautious": (0.0, 0.0, 0.01),  # out, but might gain: kept
            "bayes": (0.0005, 0.05, -0.01),  # its weight's interval reaches the support: kept
            "stakes": (0.0, 0.0, 0.0),  # out, gains exactly nothing: dropped
        }
    )
    assert prunable(field, set()) == ["random", "stakes"]
    assert prunable(field, {"stakes"}) == ["random"]


def best_row(label: str, gain: float, low: float, high: float) -> SimpleNamespace:
    return SimpleNamespace(
        best_response=label, share=0.25 + gain, target_value=0.25, gain=gain,
        gain_ci_low=low, gain_ci_high=high,
    )  # fmt: skip


def test_a_dropped_strategy_that_gains_against_a_later_mix_comes_back(
    tmp_path: Path, monkeypatch
) -> None:
    """Fake fields and best responses, checked by hand:

    1. aggressive plays; random is out and loses (dropped); cautious is out but may gain
       (kept); the best response bayes:doubt=0 gains and joins.
    2. random, re-checked against the new mix, gains: it comes back although the best
       response (aggressive) is already in the population; cautious now loses (dropped).
    3. cautious, re-checked, still loses; the best response gains less than the threshold:
       converged, cautious stays dropped and the summary shows its re-check.
    """
    fields = {
        1: {"aggressive": (1, 1, 0), "random": (0, 0, -0.2), "cautious": (0, 0, 0.01)},
        2: {"aggressive": (0.6, 0.7, 0), "cautious": (0, 0, -0.01), "bayes:doubt=0": (0.4, 0.5, 0)},
        3: {"aggressive": (0.5, 0.6, 0), "bayes:doubt=0": (0.3, 0.4, 0), "random": (0.2, 0.3, 0)},
    }
    bests = {
        1: best_row("bayes:doubt=0", 0.05, 0.03, 0.07),
        2: best_row("aggressive", 0.0, -0.01, 0.01),
        3: best_row("bayes:doubt=0.5", 0.001, -0.001, 0.002),
    }
    rechecked = {2: {"random": (0.02, 0.01, 0.03)}, 3: {"cautious": (-0.03, -0.04, -0.02)}}
    played: list[list[str]] = []

    def fake_field(request, population, path, say):
        played.append([p.label for p in population])
        field = FakeField(fields[len(played)])
        assert field.manifest["population"] == played[-1]
        return field

    def fake_recheck(field, game, settings, candidates, games, bootstrap, jobs):
        found = rechecked[len(played)]
        return pd.DataFrame(
            [
                {"strategy": p.label, "share": 0.25 + found[p.label][0], "ci_low": 0.0,
                 "ci_high": 1.0, "mix_value": 0.25, "gain": found[p.label][0],
                 "gain_ci_low": found[p.label][1], "gain_ci_high": found[p.label][2],
                 "games": 2000}
                for p in candidates
            ]
        )

    monkeypatch.setattr(psro, "_field", fake_field)
    monkeypatch.setattr(psro, "_best_response", lambda r, f, p, s: bests[len(played)])
    monkeypatch.setattr(restrict, "recheck", fake_recheck)
    request = psro.PsroRequest(
        game=BLUFF, settings=BLUFF.settings_from_table({}),
        population=parse_lineup("aggressive,random,cautious", BLUFF.strategies), seats=4,
        field_games=1000, exploit_games=1000, families=families_of(BLUFF, "bayes"),
        iterations=5, prune=True, out=tmp_path / "psro",
    )  # fmt: skip
    result = psro.run_psro(request)
    assert played == [
        ["aggressive", "random", "cautious"],
        ["aggressive", "cautious", "bayes:doubt=0"],
        ["aggressive", "bayes:doubt=0", "random"],
    ]
    rows = result.iterations()
    assert list(rows["dropped"]) == ["random", "cautious", ""]
    assert list(rows["returned"]) == ["", "random", ""]
    assert result.manifest["stop"].startswith("converged")
    checks = result.rechecks()
    assert list(zip(checks["iteration"], checks["strategy"], strict=True)) == [
        (2, "random"),
        (3, "cautious"),
    ]
    text = load_run(tmp_path / "psro").summary()
    assert "back in (gains against this mix): random" in text
    assert "cautious" in text.split("A restricted game (--prune)")[1]
    assert "-3.00 points [-4.00, -2.00]" in text
    assert result.manifest["request"]["prune"] is True


def test_without_prune_nothing_is_dropped_and_the_request_is_unchanged() -> None:
    request = psro.PsroRequest(
        game=BLUFF, settings=BLUFF.settings_from_table({}),
        population=parse_lineup("aggressive,random", BLUFF.strategies), seats=4,
        field_games=1000, exploit_games=1000, families=families_of(BLUFF, "bayes"),
    )  # fmt: skip
    assert "prune" not in psro.request_record(request)
    field = FakeField({"aggressive": (1, 1, 0), "random": (0, 0, -0.2)})
    assert psro.prunable_labels(request, field, []) == []


def nine_bluff_players(max_compositions: int) -> FieldRequest:
    labels = "random,bayes,cautious,aggressive,stakes," + ",".join(
        f"aggressive:doubt_ratio={r}" for r in (2, 3, 4, 5)
    )
    population = parse_lineup(labels, BLUFF.strategies)
    return FieldRequest(
        BLUFF, BLUFF.settings_from_table({}), population, seats=4, games=10**7,
        max_compositions=max_compositions,
    )  # fmt: skip


def test_a_field_beyond_the_limit_is_refused_naming_the_option_and_its_size() -> None:
    """Nine strategies at four seats: C(12, 4) = 495 compositions."""
    with pytest.raises(UserError) as refused:
        field_plan(nine_bluff_players(400))
    text = str(refused.value)
    assert "495 compositions" in text and "--max-compositions 400" in text
    least = int(text.split("at least ")[1].split(" games")[0].replace(",", ""))
    assert least % 2000 == 0 and 495 * 2000 <= least <= 495 * 4 * 2000
    plan = field_plan(nine_bluff_players(495))
    assert len(plan.counts) == 495
    assert plan.lineups * 2000 == least  # the refusal's estimate is the plan's minimum


def test_max_compositions_on_the_command_line(tmp_path: Path, capsys) -> None:
    args = ["field", "--game", "lucky-lions", "--population", "greedy,random", "--seats", "3",
            "--games", "16000", "--no-progress", "--out", tmp_path / "f"]  # fmt: skip
    code, _, err = run_cli(capsys, *args, "--max-compositions", "3")
    assert code == 2
    one_error_line(err, "4 compositions", "at least 16,000 games", "--max-compositions 3")
    code, _, err = run_cli(capsys, *args, "--max-compositions", "0")
    assert code == 2
    one_error_line(err, "--max-compositions", ">= 1")
    assert not (tmp_path / "f").exists()


@pytest.fixture(scope="module")
def greedy_field(tmp_path_factory) -> object:
    """Lucky Lions, greedy and random at three seats: greedy is the whole mix."""
    game = get_game("lucky-lions")
    population = parse_lineup("greedy,random", game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), population[:1] * 3)
    out = tmp_path_factory.mktemp("field") / "f"
    request = FieldRequest(game, settings, population, 3, 16_000, seed=5, bootstrap=30, out=out)
    return run_field(request)


def test_a_recheck_of_the_mix_itself_gains_exactly_nothing_and_random_loses(
    greedy_field,
) -> None:
    """greedy against two greedy seats, in every rotation on the same deals, takes exactly
    a third of every deal, as the mix does against itself; random measurably less."""
    game = get_game("lucky-lions")
    assert greedy_field.mix()["greedy"] == pytest.approx(1.0)
    settings = game.settings_for_lineup(
        game.settings_from_table({}), parse_lineup("greedy*3", game.strategies)
    )
    table = recheck(
        greedy_field, game, settings, parse_lineup("greedy,random", game.strategies),
        games=16_000, bootstrap=30, jobs=1,
    )  # fmt: skip
    same, weaker = table.itertuples()
    assert same.share == pytest.approx(1 / 3, abs=1e-12)
    assert same.mix_value == pytest.approx(1 / 3, abs=1e-12)
    assert (same.gain_ci_low, same.gain_ci_high) == pytest.approx((0.0, 0.0), abs=1e-12)
    assert weaker.gain_ci_high < 0
    assert same.games == weaker.games == 3 * 2000  # 3 rotations, ten batches of 200 deals
    # the re-check's random against the mix agrees with the field's own figure for it
    field_gain = greedy_field.equilibrium().loc["random", "gain_vs_mix"]
    assert np.isclose(weaker.gain, field_gain, atol=0.03)


def test_prune_on_the_command_line_is_recorded(tmp_path: Path, capsys) -> None:
    """All greedy is Lucky Lions' equilibrium and its best response gains nothing: the loop
    converges at once, with nothing dropped or re-checked."""
    out = tmp_path / "psro"
    code, stdout, err = run_cli(
        capsys, "psro", "--game", "lucky-lions", "--population", "greedy,random",
        "--strategies", "greedy", "--seats", "3", "--games", "16000", "--search-games", "1e4",
        "--bootstrap", "30", "--jobs", "1", "--prune", "--max-compositions", "4", "--out", out,
    )  # fmt: skip
    assert code == 0, err
    result = load_run(out)
    assert result.manifest["request"]["prune"] is True
    assert result.manifest["stop"].startswith("converged")
    assert result.rechecks().empty and list(result.iterations()["dropped"]) == [""]
    assert "A restricted game" not in stdout


def test_a_best_response_that_is_a_dropped_strategy_comes_back_once(
    tmp_path: Path, monkeypatch
) -> None:
    """random is dropped after the first field; against the second mix it is both the
    searched best response and a re-checked strategy that gains: it joins once."""
    fields = {
        1: {"aggressive": (1, 1, 0), "random": (0, 0, -0.2), "bayes": (0, 0, 0.01)},
        2: {"aggressive": (0.4, 0.5, 0), "bayes": (0.3, 0.4, 0), "bayes:doubt=0": (0.3, 0.4, 0)},
        3: {"aggressive": (0.3, 0.4, 0), "bayes": (0.3, 0.4, 0), "bayes:doubt=0": (0.2, 0.3, 0),
            "random": (0.2, 0.3, 0)},
    }
    bests = {
        1: best_row("bayes:doubt=0", 0.05, 0.03, 0.07),
        2: best_row("random", 0.05, 0.03, 0.07),
        3: best_row("bayes", 0.0, -0.001, 0.001),
    }
    played: list[list[str]] = []

    def fake_field(request, population, path, say):
        played.append([p.label for p in population])
        return FakeField(fields[len(played)])

    def fake_recheck(field, game, settings, candidates, games, bootstrap, jobs):
        return pd.DataFrame(
            [{"strategy": p.label, "share": 0.3, "ci_low": 0.28, "ci_high": 0.32,
              "mix_value": 0.25, "gain": 0.05, "gain_ci_low": 0.03, "gain_ci_high": 0.07,
              "games": 2000} for p in candidates]
        )  # fmt: skip

    monkeypatch.setattr(psro, "_field", fake_field)
    monkeypatch.setattr(psro, "_best_response", lambda r, f, p, s: bests[len(played)])
    monkeypatch.setattr(restrict, "recheck", fake_recheck)
    request = psro.PsroRequest(
        game=BLUFF, settings=BLUFF.settings_from_table({}),
        population=parse_lineup("aggressive,random,bayes", BLUFF.strategies), seats=4,
        field_games=1000, exploit_games=1000, families=families_of(BLUFF, "bayes"),
        iterations=3, prune=True, out=tmp_path / "psro",
    )  # fmt: skip
    result = psro.run_psro(request)
    assert played == [
        ["aggressive", "random", "bayes"],
        ["aggressive", "bayes", "bayes:doubt=0"],
        ["aggressive", "bayes", "bayes:doubt=0", "random"],
    ]
    assert list(result.iterations()["returned"]) == ["", "random", ""]
    assert list(result.rechecks()["iteration"]) == [2]  # random is back: no more re-checks
    assert result.manifest["stop"].startswith("converged")
