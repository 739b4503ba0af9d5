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


def test_ctrl_c_says_the_iterations_are_kept_and_a_rerun_continues(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Ctrl-C in the field said to continue with ``zoosim field --resume`` of the
    iteration's field, and Ctrl-C in the search said "nothing was written"; both now say
    that the work is kept and running the loop again continues it, which gives the
    uninterrupted loop's results."""
    import zooanalysis.field as field
    import zooanalysis.psro as psro

    whole = tmp_path / "whole"
    code, _, err = run_cli(capsys, "psro", *OPTIONS, "--out", whole)
    assert code == 0, err
    out = tmp_path / "psro"
    original_field = field.run_field

    def field_stops(request, resume=False, **options):
        def interrupt(_games: int) -> None:
            raise KeyboardInterrupt

        return original_field(request, resume=resume, on_progress=interrupt)

    def search_stops(*_args, **_kwargs):
        raise KeyboardInterrupt

    for patched in ((field, "run_field", field_stops), (psro, "_best_response", search_stops)):
        with monkeypatch.context() as patch:
            patch.setattr(*patched)
            code, _, err = run_cli(capsys, "psro", *OPTIONS, "--out", out)
        assert code == 130
        line = err.splitlines()[-1]
        assert line.startswith("zoosim: interrupted; the finished iterations"), line
        assert f"running the same zoosim psro again with --out {out}" in line, line
    code, _, err = run_cli(capsys, "psro", *OPTIONS, "--out", out)
    assert code == 0, err
    assert load_run(out).iterations().equals(load_run(whole).iterations())
