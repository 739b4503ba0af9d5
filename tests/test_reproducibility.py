"""A run is fixed by its seed (and batch size): workers, backend and batching do not matter.

Also: how batches are planned and seeded, and that memory does not grow with the games
(count arrays of fixed shape; per-game rows go to one Parquet file per batch).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.runner import plan_batches, play
from zooanalysis.strategy_spec import parse_lineup

GAMES = 5000
BATCH = 700  # 5000 = 7 x 700 + 100: eight batches, the last one smaller


def cli_run(out: Path, *args: object) -> Path:
    """``zoosim run ARGS --out OUT --no-progress``; fails the test unless it exits 0."""
    code = cli.main(["run", *(str(arg) for arg in args), "--out", str(out), "--no-progress"])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run every other worker/backend choice must reproduce: one job."""
    out = tmp_path_factory.mktemp("repro") / "jobs1"
    return cli_run(out, "--games", GAMES, "--seed", 11, "--batch-size", BATCH, "--jobs", 1)


def test_reference_run_has_several_batches(reference: Path) -> None:
    manifest = json.loads((reference / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["batches"] == 8
    assert manifest["games"] == GAMES
    assert manifest["batch_size"] == BATCH


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(["--jobs", "2"], id="jobs2"),
        pytest.param(["--backend", "threads", "--jobs", "2"], id="threads2"),
        pytest.param(["--backend", "processes", "--jobs", "2"], id="processes2"),
    ],
)
def test_same_seed_gives_identical_tables_for_any_workers(
    options: list[str], reference: Path, tmp_path: Path
) -> None:
    out = cli_run(tmp_path / "run", "--games", GAMES, "--seed", 11, "--batch-size", BATCH, *options)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["jobs"] == 2
    assert_same_tables(tables_of(reference), tables_of(out))


def test_different_seed_gives_different_results(reference: Path, tmp_path: Path) -> None:
    out = cli_run(tmp_path / "other", "--games", GAMES, "--seed", 12, "--batch-size", BATCH)
    first, second = tables_of(reference), tables_of(out)
    assert not first["seats"].equals(second["seats"])
    assert not first["doubts"].equals(second["doubts"])
    # Same amount of play, though.
    assert (first["seats"]["games"] == second["seats"]["games"]).all()


# --- planning batches ------------------------------------------------------------------------


def spawned_seed(seed: int, count: int, index: int) -> int:
    state = np.random.SeedSequence(seed).spawn(count)[index].generate_state(1, np.uint64)
    return int(state[0])


def test_plan_batches_sizes_sum_to_games_and_last_is_smaller() -> None:
    batches = plan_batches(GAMES, 11, BATCH)
    assert [b.index for b in batches] == list(range(8))
    assert [b.games for b in batches] == [BATCH] * 7 + [100]
    assert sum(b.games for b in batches) == GAMES
    assert batches[-1].games < BATCH


@pytest.mark.parametrize(("games", "size"), [(1, 20_000), (700, 700), (701, 700), (12345, 1000)])
def test_plan_batches_cover_exactly_the_games(games: int, size: int) -> None:
    batches = plan_batches(games, 3, size)
    assert len(batches) == -(-games // size)
    assert sum(b.games for b in batches) == games
    assert all(0 < b.games <= size for b in batches)
    assert all(b.games == size for b in batches[:-1])


def test_plan_batches_seeds_are_distinct_and_seedsequence_spawned() -> None:
    batches = plan_batches(GAMES, 11, BATCH)
    seeds = [b.seed for b in batches]
    assert len(set(seeds)) == len(seeds)
    for batch in batches:
        assert batch.seed == spawned_seed(11, len(batches), batch.index)
        assert 0 <= batch.seed < 2**64


def test_plan_batches_seeds_depend_only_on_seed_and_batch_count() -> None:
    seeds = [b.seed for b in plan_batches(1000, 5, 300)]  # 4 batches
    assert [b.seed for b in plan_batches(1200, 5, 300)] == seeds  # 4 batches, other sizes
    assert [b.seed for b in plan_batches(4000, 5, 1000)] == seeds
    assert [b.seed for b in plan_batches(1000, 6, 300)] != seeds  # another seed
    assert plan_batches(1000, 5, 300) == plan_batches(1000, 5, 300)


@pytest.mark.parametrize(("games", "size"), [(0, 10), (-5, 10), (10, 0)])
def test_plan_batches_refuses_nonsense(games: int, size: int) -> None:
    with pytest.raises(UserError):
        plan_batches(games, 1, size)


# --- constant memory -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bluff_job():
    game = get_game("bluff")
    lineup = parse_lineup("bayes,cautious,random,random", game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), lineup)
    return game, settings, lineup


def test_count_arrays_have_the_same_shape_for_any_number_of_games(bluff_job) -> None:
    game, settings, lineup = bluff_job
    job = game.batch_job(settings, lineup, False)
    small, large = job(123, 10), job(123, 2000)
    assert sorted(small) == sorted(large)
    assert not any(key.startswith("row_") for key in small)
    for key in small:
        assert small[key].shape == large[key].shape, key
        assert small[key].dtype == large[key].dtype, key
    assert int(small["games"][0]) == 10
    assert int(large["games"][0]) == 2000


def test_only_row_arrays_grow_with_the_games(bluff_job) -> None:
    game, settings, lineup = bluff_job
    job = game.batch_job(settings, lineup, True)
    small, large = job(123, 10), job(123, 2000)
    for key in small:
        if key.startswith("row_"):
            assert small[key].shape[0] == 10 and large[key].shape[0] == 2000, key
        else:
            assert small[key].shape == large[key].shape, key


def test_play_sums_the_batches(bluff_job) -> None:
    game, settings, lineup = bluff_job
    job = game.batch_job(settings, lineup, False)
    batches = plan_batches(1300, 4, 500)
    seen = []
    totals = play(job, batches, jobs=2, on_batch=lambda batch, _result: seen.append(batch.index))
    assert seen == [0, 1, 2]
    assert totals.games == 1300
    expected = [job(b.seed, b.games) for b in batches]
    for key, value in totals.totals.items():
        assert np.array_equal(value, sum(part[key] for part in expected)), key


def test_rows_are_one_parquet_file_per_batch(tmp_path: Path) -> None:
    games, size = 2300, 500
    out = cli_run(tmp_path / "rows", "--games", games, "--seed", 4, "--batch-size", size, "--rows")
    files = sorted((out / "games").iterdir())
    assert [f.name for f in files] == [f"batch-{i:06d}.parquet" for i in range(5)]
    parts = [pd.read_parquet(f) for f in files]
    assert [len(p) for p in parts] == [500, 500, 500, 500, 300]
    rows = pd.concat(parts, ignore_index=True)
    assert len(rows) == games
    assert rows["game"].tolist() == list(range(games))

    run = zooanalysis.load_run(out)
    assert run.manifest["per_game_rows"] is True
    assert run.game_rows().sort_values("game", ignore_index=True).equals(rows)
    seats = run.table("seats")
    for seat, points_sum in zip(seats["seat"], seats["points_sum"], strict=True):
        assert int(rows[f"scores_{seat}"].sum()) == int(points_sum)
    squares = [int((rows[f"scores_{s}"].astype(np.int64) ** 2).sum()) for s in seats["seat"]]
    assert squares == seats["points_squares"].tolist()
    # Rounds, moves and endings agree with the summed histograms too.
    for name in ("rounds", "moves"):
        counted = rows[name].value_counts().sort_index()
        histogram = run.table(name).set_index(name)["games"]
        assert counted.to_dict() == histogram.to_dict(), name
    endings = run.table("end_reasons").set_index("reason")["games"]
    assert int((rows["end"] == 0).sum()) == int(endings["points"])
    assert int((rows["end"] == 1).sum()) == int(endings["deck"])


def test_rows_do_not_change_the_tables(tmp_path: Path) -> None:
    args = ["--games", 1500, "--seed", 8, "--batch-size", 400]
    with_rows = cli_run(tmp_path / "with", *args, "--rows")
    without = cli_run(tmp_path / "without", *args)
    assert not (without / "games").exists()
    assert_same_tables(tables_of(with_rows), tables_of(without))
