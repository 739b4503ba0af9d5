"""`zoosim sweep`: one run per grid cell, the same deals everywhere, resumable."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import zooanalysis
from zooanalysis import cli
from zooanalysis.sweep import cell_setup, load_sweep

SWEEP = """
game = "bluff"
[run]
players = "bayes,cautious,random"
games = "1500"
seed = 4
[settings]
hand_size = 5
[grid]
"seat1.doubt" = [0.2, 0.6]
"settings.points_to_end" = [20, 30]
"""


@pytest.fixture
def sweep_file(tmp_path: Path) -> Path:
    path = tmp_path / "sweep-test.toml"
    path.write_text(SWEEP, encoding="utf-8")
    return path


def run_sweep_cli(sweep_file: Path, out: Path, *extra: str) -> int:
    return cli.main(["sweep", str(sweep_file), "--out", str(out), *extra])


def test_every_cell_equals_a_plain_run_of_its_settings(sweep_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_sweep_cli(sweep_file, out) == 0
    cells = pd.read_parquet(out / "cells.parquet")
    assert len(cells) == 4
    for _, row in cells.iterrows():
        players = f"bayes:doubt={row['seat1.doubt']},cautious,random"
        settings = {"hand_size": 5, "points_to_end": int(row["settings.points_to_end"])}
        direct = zooanalysis.simulate(
            "bluff", players=players, games=1500, seed=4, settings=settings
        ).metrics()
        for key, value in direct.items():
            assert row[key] == pytest.approx(value), key


def test_a_sweep_resumes_without_rerunning_finished_cells(
    sweep_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert run_sweep_cli(sweep_file, out) == 0
    first = pd.read_parquet(out / "cells.parquet")
    cell_files = sorted((out / "cells").glob("*.parquet"))
    cell_files[1].unlink()  # as if the sweep had stopped before that cell
    capsys.readouterr()
    assert run_sweep_cli(sweep_file, out) == 0
    err = capsys.readouterr().err
    assert err.count("already done") == 3 and err.count(": done") == 1
    pd.testing.assert_frame_equal(first, pd.read_parquet(out / "cells.parquet"))


def test_a_different_sweep_is_refused_in_the_same_folder(
    sweep_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert run_sweep_cli(sweep_file, out) == 0
    sweep_file.write_text(SWEEP.replace('games = "1500"', 'games = "1600"'), encoding="utf-8")
    assert run_sweep_cli(sweep_file, out) == 2
    assert "holds a different sweep" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (('"seat1.doubt"', '"seat4.doubt"'), "seats are seat1 to seat3"),
        (('"seat1.doubt" = [0.2, 0.6]', '"seat1.doubt" = [0.2, 2.0]'), "out of range"),
        (('"seat1.doubt"', '"seat1.doubtt"'), "has no parameter 'doubtt'"),
        (('"seat1.doubt"', '"seats.doubt"'), "cautious has no parameter 'doubt'"),
        (('"settings.points_to_end"', '"settings.pointz"'), "setting 'pointz'"),
        (('"settings.points_to_end"', '"points_to_end"'), "use 'settings.<setting>'"),
        (("[grid]", "[grids]"), "unknown key 'grids'"),
    ],
)
def test_bad_sweep_files_are_one_line(
    change: tuple[str, str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(SWEEP.replace(*change), encoding="utf-8")
    assert run_sweep_cli(path, tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("name", "game", "cells"),
    [
        ("sweep-bluff-doubt-vs-points.toml", "bluff", 25),
        ("sweep-dodgeball-variants.toml", "dodgeball", 8),
        ("sweep-dodgeball-two-players.toml", "dodgeball", 4),
        ("sweep-lucky-lions-variants.toml", "lucky-lions", 8),
        ("sweep-short-zoot-suit-variants.toml", "short-zoot-suit", 8),
        ("sweep-zoology-guess-threshold.toml", "zoology", 20),
        ("sweep-zoology-cooperative-difficulty.toml", "zoology", 25),
        ("sweep-zoology-cooperative-memory.toml", "zoology", 25),
        ("sweep-zoology-cooperative-eliminator.toml", "zoology", 15),
        ("sweep-bug-house-clock.toml", "bug-house", 3),
        ("sweep-bug-house-variants.toml", "bug-house", 8),
    ],
)
def test_the_shipped_sweep_files_are_valid(name: str, game: str, cells: int) -> None:
    sweep = load_sweep(Path(__file__).parent.parent / "simulations" / name)
    assert sweep.game.name == game
    assert len(sweep.cells()) == cells


def test_show_prints_a_finished_sweep_like_the_sweep_did(
    sweep_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert run_sweep_cli(sweep_file, out) == 0
    printed = capsys.readouterr().out
    assert cli.main(["show", str(out)]) == 0
    shown = capsys.readouterr().out
    # the same table; only the header names the folder instead of the sweep file
    assert printed.splitlines()[0].replace("sweep-test.toml", "out") == shown.splitlines()[0]
    assert printed.splitlines()[1:] == shown.splitlines()[1:]
    table = shown.splitlines()[2:7]
    assert table[0].split()[:2] == ["seat1.doubt", "settings.points_to_end"]
    assert table[0].split()[2:] == ["seat1", "seat2", "seat3"]
    cells = pd.read_parquet(out / "cells.parquet")
    rate, low = cells.iloc[0][["seat2_win_rate", "seat2_win_ci_low"]]
    assert f"{100 * rate:.1f} [{100 * low:.1f}," in table[1]


def test_a_seats_key_sets_the_parameter_of_every_seat() -> None:
    """``seats.<parameter>``: one value for the whole lineup (a team's skill)."""
    path = Path(__file__).parent.parent / "simulations" / "sweep-zoology-cooperative-memory.toml"
    sweep = load_sweep(path)
    for cell in sweep.cells()[-5:]:
        settings, lineup = cell_setup(sweep, cell)
        assert settings.perception_noise == cell["settings.perception_noise"]
        assert [p.param("memory") for p in lineup] == [cell["seats.memory"]] * 4
        assert [p.param("misread") for p in lineup] == [0.0] * 4


def test_ctrl_c_keeps_the_finished_cells_says_so_and_a_rerun_continues(
    sweep_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Ctrl-C in the third cell: the message said "nothing was written" though two cells
    were kept; it now says how many are kept and that running the sweep again continues,
    which plays only the rest and gives the uninterrupted sweep's cells."""
    import zooanalysis.simulation as simulation

    whole = tmp_path / "whole"
    assert run_sweep_cli(sweep_file, whole) == 0
    out = tmp_path / "out"
    original, calls = simulation.run_simulation, []

    def third_cell_stops(request, *args, **options):
        calls.append(request)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return original(request, *args, **options)

    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(simulation, "run_simulation", third_cell_stops)
        assert run_sweep_cli(sweep_file, out) == 130
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("zoosim: interrupted; 2 of 4 cells are finished and kept in "), last
    assert f"running the same zoosim sweep again with --out {out}" in last
    assert len(list((out / "cells").glob("*.parquet"))) == 2
    assert run_sweep_cli(sweep_file, out) == 0
    err = capsys.readouterr().err
    assert err.count("already done") == 2 and err.count(": done") == 2
    pd.testing.assert_frame_equal(
        pd.read_parquet(whole / "cells.parquet"), pd.read_parquet(out / "cells.parquet")
    )
