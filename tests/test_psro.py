"""``zoosim psro``: iterated best response, every iteration kept, reruns reuse them."""

from __future__ import annotations

from pathlib import Path

from tests.fault_helpers import one_error_line, run_cli
from zooanalysis.loading import load_run
from zooanalysis.psro import PsroResult

OPTIONS = ["--game", "lucky-lions", "--population", "greedy,random", "--strategies", "greedy",
           "--seats", "3", "--games", "16000", "--search-games", "1e4", "--bootstrap", "30",
           "--jobs", "1"]  # fmt: skip


def test_a_loop_stops_when_the_best_response_gains_nothing(tmp_path: Path, capsys) -> None:
    """All greedy is the equilibrium, and every greedy variant plays alike in the base game:
    the first best response gains exactly nothing, below any threshold."""
    out = tmp_path / "psro"
    code, stdout, err = run_cli(capsys, "psro", *OPTIONS, "--out", out)
    assert code == 0, err
    result = load_run(out)
    assert isinstance(result, PsroResult)
    iterations = result.iterations()
    assert len(iterations) == 1
    row = iterations.iloc[0]
    assert row.gain_ci_high < 0.005
    assert result.manifest["stop"].startswith("converged")
    assert (out / "iteration-1" / "field" / "manifest.json").is_file()
    assert (out / "iteration-1" / "exploit" / "manifest.json").is_file()
    assert "Stopped: converged" in stdout
    # a finished loop is not run again into the same folder
    code, _, err = run_cli(capsys, "psro", *OPTIONS, "--out", out)
    assert code == 2
    one_error_line(err, "--out", "finished PSRO loop")


def test_a_rerun_with_other_options_is_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "psro"
    out.mkdir()
    (out / "request.json").write_text('{"game": "bluff"}')
    code, _, err = run_cli(capsys, "psro", *OPTIONS, "--out", out)
    assert code == 2
    one_error_line(err, "--out", "another request")
    assert not (out / "iteration-1").exists()


def test_bad_threshold_is_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "psro", *OPTIONS, "--threshold", "2", "--out", tmp_path / "p")
    assert code == 2
    one_error_line(err, "--threshold")
