"""The skill ladder's search rung: ``zoosim skill --search-games N`` plays the ``search``
player against random players (games with a forward model), stored and read like the
heuristics' rungs; refused in one line where the forward model cannot play the run's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.skill import search_plan, skill_table


def test_search_rung_is_measured_beside_the_heuristics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = tmp_path / "run"
    zooanalysis.simulate("lucky-lions", players="greedy,random", games=200, seed=2, jobs=1,
                         out=run_dir)  # fmt: skip
    args = ["skill", str(run_dir), "--games", "100", "--search-games", "3", "--jobs", "1",
            "--no-progress"]  # fmt: skip
    assert cli.main(args) == 0
    assert "search" in capsys.readouterr().out
    folders = sorted(p.name for p in (run_dir / "skill").iterdir())
    assert folders == ["equilibrium", "greedy", "search"]
    searched = zooanalysis.load_run(run_dir / "skill" / "search")
    assert searched.lineup == ["search", "random"] and searched.rotated and searched.games == 3
    table = skill_table(run_dir).set_index("strategy")
    assert table.loc["search", "deals"] == 3 and table.loc["greedy", "deals"] == 100
    row = table.loc["search"]
    assert row.gap == pytest.approx(row.share - row.random_share, abs=1e-12)


def test_no_search_rung_where_the_forward_model_cannot_follow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = tmp_path / "variant"
    zooanalysis.simulate("lucky-lions", players="greedy,random", games=50, seed=2, jobs=1,
                         settings={"reduced_die": True}, out=run_dir)  # fmt: skip
    assert search_plan(zooanalysis.load_run(run_dir)) == []
    args = ["skill", str(run_dir), "--games", "20", "--search-games", "2", "--jobs", "1",
            "--no-progress"]  # fmt: skip
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--search-games" in err[0] and "no search rung" in err[0]
    assert not (run_dir / "skill").exists()
