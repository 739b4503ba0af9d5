"""Skill or luck: ``zoosim skill`` plays each shipped strategy against random players on the
same deals in every seating, keeps the runs in the run's folder, and the report states the
gap; a plain ``zoosim report`` never plays a game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.report.build import build_report
from zooanalysis.skill import skill_table


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("skill") / "run"
    zooanalysis.simulate("bluff", players="bayes,random,random", games=500, seed=6, jobs=1,
                         out=folder)  # fmt: skip
    return folder


def findings(html: Path) -> dict[str, tuple[float, str]]:
    text = html.read_text(encoding="utf-8")
    return {
        key: (float(value), body)
        for key, value, body in re.findall(
            r'data-key="([^"]+)" data-value="([^"]+)"[^>]*><p>(.*?)</p>', text, re.S
        )
    }


def test_a_plain_report_plays_nothing_and_says_how_to_measure(run_dir: Path, tmp_path: Path):
    html = build_report(run_dir, tmp_path / "report")
    assert not (run_dir / "skill").exists()
    text = findings(html)["skill_none"][1]
    assert f"zoosim skill {run_dir}" in text


def test_skill_measures_every_strategy_against_random_players(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["skill", str(run_dir), "--games", "300", "--jobs", "1", "--no-progress"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "Skill gap" in out and "bayes" in out
    folders = sorted(p.name for p in (run_dir / "skill").iterdir())
    # every shipped strategy but random
    assert folders == ["aggressive", "bayes", "cautious", "stakes"]
    table = skill_table(run_dir).set_index("strategy")
    for name in folders:
        result = zooanalysis.load_run(run_dir / "skill" / name)
        assert result.lineup == [name, "random", "random"] and result.rotated
        assert result.games == 300 and result.settings == zooanalysis.load_run(run_dir).settings
        row = table.loc[name]
        # the paired gap is the difference of the two win shares over the same games
        assert row.gap == pytest.approx(row.share - row.random_share, abs=1e-12)
        assert row.gap_ci_low < row.gap < row.gap_ci_high
    assert table.loc["bayes", "gap_ci_low"] > 0  # bayes beats random play, measurably
    html = build_report(run_dir, tmp_path / "report")
    value, text = findings(html)["skill_gap"]
    assert value == pytest.approx(table["gap"].max())
    assert "Skill or luck" in text and "a random player still wins" in text
    assert (html.parent / "figures" / "skill_gap.svg").is_file()
    # again: the stored runs are kept, not replayed
    stamp = (run_dir / "skill" / "bayes" / "manifest.json").stat().st_mtime_ns
    assert cli.main(args) == 0
    assert (run_dir / "skill" / "bayes" / "manifest.json").stat().st_mtime_ns == stamp
    # other deals: refused in one line, nothing replaced
    assert cli.main([*args[:2], "--games", "400", "--jobs", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "remove it to measure again" in err


def test_skill_is_for_runs_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert cli.main(["skill", str(tmp_path / "empty")]) == 2
    assert "no manifest.json" in capsys.readouterr().err


def test_an_interrupted_skill_continues_where_it_stopped_with_the_same_results(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Ctrl-C in the second strategy's skill run keeps the first run and the second's
    checkpoint; the message names ``zoosim skill`` (it named ``zoosim run --resume``, and
    running ``zoosim skill`` again refused the kept work), and running it again resumes to
    exactly the tables of an uninterrupted skill."""
    import shutil

    from run_helpers import assert_same_tables, tables_of

    import zooanalysis.simulation as simulation
    from zooanalysis.storage import partial_path

    whole, cut = tmp_path / "whole", tmp_path / "cut"
    shutil.copytree(run_dir, whole, ignore=shutil.ignore_patterns("skill"))
    shutil.copytree(run_dir, cut, ignore=shutil.ignore_patterns("skill"))
    args = ["--games", "600", "--jobs", "1", "--no-progress"]
    assert cli.main(["skill", str(whole), *args]) == 0
    monkeypatch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
    original, calls = simulation.run_simulation, []

    def second_run_stops(request, on_progress=None, resume=False, **options):
        calls.append(request.out)

        def progress(games: int) -> None:
            if len(calls) == 2:
                raise KeyboardInterrupt

        return original(request, on_progress=progress, resume=resume, **options)

    with monkeypatch.context() as patch:
        patch.setattr(simulation, "run_simulation", second_run_stops)
        assert cli.main(["skill", str(cut), *args]) == 130
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert f"Continue it with: zoosim skill {cut} --games 600 (" in err, err
    stopped = calls[1]
    assert (partial_path(stopped) / "checkpoint.npz").is_file() and not stopped.exists()
    assert (calls[0] / "manifest.json").is_file()
    assert cli.main(["skill", str(cut), *args]) == 0, capsys.readouterr().err
    for name in sorted(p.name for p in (whole / "skill").iterdir()):
        assert_same_tables(tables_of(cut / "skill" / name), tables_of(whole / "skill" / name))
    assert zooanalysis.load_run(stopped).manifest["resume_commands"]
    assert not any(p.name.endswith(".partial") for p in (cut / "skill").iterdir())
