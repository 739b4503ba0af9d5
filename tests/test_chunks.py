"""Batches played in chunks: the same results, checkpoints inside a batch, Ctrl-C in seconds.

The runner cuts every batch into chunks of about half a second of work. Chunks must never
change results (counts and rows bit for bit, for every game, backend and chunking), a
checkpoint must hold a batch under way, and Ctrl-C or SIGTERM must stop a run whose batch
takes minutes, keeping a checkpoint from which it resumes to the uninterrupted results.
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from run_helpers import assert_same_tables, tables_of
from slow_job import SCRIPT

import zooanalysis
import zooanalysis.simulation as simulation
from zooanalysis import cli, runner
from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.rotation import RotatedBatch, labels_of_players, rotated_lineups
from zooanalysis.runner import (
    Batch,
    Chunk,
    ChunkSizer,
    Position,
    chunks_of,
    play,
    stream_batches,
)
from zooanalysis.storage import (
    CHECKPOINT,
    load_checkpoint,
    partial_path,
    write_checkpoint,
)
from zooanalysis.strategy_spec import parse_lineup

TESTS = Path(__file__).parent


class FixedSizes(ChunkSizer):
    """Chunk sizes from a fixed cycle, whatever the speed (``[huge]``: whole batches)."""

    def __init__(self, sizes: list[int]) -> None:
        super().__init__()
        self.sizes = itertools.cycle(sizes)

    def next_size(self, remaining: int) -> int:
        return min(next(self.sizes), remaining)

    def measured(self, games: int, seconds: float) -> None:
        pass


WHOLE = [10**9]
ODD = [1, 7, 3, 16, 2]
"""Chunks that start anywhere in a batch (and in the Zoology grid's cells)."""


# --- sizing and cutting ----------------------------------------------------------------------


def test_chunks_start_small_grow_at_most_fourfold_and_settle_at_the_target() -> None:
    sizer = ChunkSizer(seconds=0.5)
    assert sizer.next_size(20_000) == runner.FIRST_CHUNK == 1
    sizes = []
    for _ in range(12):  # a strategy playing 1,000 games per second
        size = sizer.next_size(20_000)
        sizes.append(size)
        sizer.measured(size, size / 1000)
    assert sizes[:6] == [1, 4, 16, 64, 256, 500]
    assert sizes[6:] == [500] * 6  # half a second each
    sizer.measured(500, 5.0)  # ten times slower now: shrink at once
    assert sizer.next_size(20_000) == 50
    assert sizer.next_size(7) == 7  # never past the batch's end


def test_a_very_slow_strategy_gets_one_game_chunks() -> None:
    sizer = ChunkSizer(seconds=0.5)
    sizer.measured(1, 30.0)  # 30 s a game
    assert sizer.next_size(20_000) == 1


@pytest.mark.parametrize("text", ["0", "-1", "abc", "inf", "nan"])
def test_a_bad_chunk_length_is_one_line(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZOOSIM_CHUNK_SECONDS", text)
    with pytest.raises(UserError, match=f"ZOOSIM_CHUNK_SECONDS: '{text}' is not allowed"):
        ChunkSizer()
    monkeypatch.setenv("ZOOSIM_CHUNK_SECONDS", "2.5")
    assert ChunkSizer().seconds == 2.5


def test_batches_are_cut_into_chunks_that_never_cross_a_batch() -> None:
    batches = list(stream_batches(seed=3, batch_size=10, max_games=25))
    chunks = list(chunks_of(batches, FixedSizes([4])))
    assert [(c.batch.index, c.first, c.games) for c in chunks] == [
        (0, 0, 4), (0, 4, 4), (0, 8, 2),
        (1, 0, 4), (1, 4, 4), (1, 8, 2),
        (2, 0, 4), (2, 4, 1),
    ]  # fmt: skip
    assert [c.ends_batch for c in chunks] == [False, False, True] * 2 + [False, True]
    resumed = list(chunks_of(batches[1:], FixedSizes([4]), resume=(1, 6)))
    assert [(c.batch.index, c.first, c.games) for c in resumed[:2]] == [(1, 6, 4), (2, 0, 4)]


def test_with_several_workers_the_last_batches_are_cut_so_the_workers_finish_together() -> None:
    batches = list(stream_batches(seed=3, batch_size=10, max_games=45))  # 10, 10, 10, 10, 5
    chunks = chunks_of(batches, FixedSizes(WHOLE), workers=2)
    assert [(c.batch.index, c.first, c.games) for c in chunks] == [
        (0, 0, 10), (1, 0, 10), (2, 0, 10),
        (3, 0, 3), (3, 3, 3), (3, 6, 3), (3, 9, 1),  # the last two batches: in 4 pieces
        (4, 0, 2), (4, 2, 2), (4, 4, 1),
    ]  # fmt: skip
    one_worker = list(chunks_of(batches, FixedSizes(WHOLE), workers=1))
    assert [(c.batch.index, c.games) for c in one_worker] == [(b.index, b.games) for b in batches]
    resumed = list(chunks_of(iter(batches[3:]), FixedSizes(WHOLE), resume=(3, 5), workers=2))
    assert [(c.batch.index, c.first, c.games) for c in resumed] == [
        (3, 5, 3), (3, 8, 2), (4, 0, 2), (4, 2, 2), (4, 4, 1),
    ]  # fmt: skip


# --- chunks never change results -------------------------------------------------------------


def job_of(game_name: str, lineup: str, table: dict, rows: bool = True, rotated: bool = False):
    """A game's batch job (with rows), rotated through the seats if asked."""
    game = get_game(game_name)
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table(table), players)
    if not rotated:
        return game.batch_job(settings, players, rows)
    return RotatedBatch(
        jobs=tuple(game.batch_job(settings, seated, True) for seated in rotated_lineups(players)),
        row_wins=game.row_wins,
        label_of_player=labels_of_players(players),
        keep_rows=rows,
    )


JOBS = {
    "bluff": ("bluff", "bayes,cautious,aggressive,random", {}),
    "lucky-lions": ("lucky-lions", "greedy,random,greedy", {"busy_zoo": True}),
    "zoology": ("zoology", "bayes,curious,team", {}),
    "zoology-grid": ("zoology", "team*6", {"mode": "cooperative", "cooperative_grid": True}),
    "dodgeball": ("dodgeball", "dodger,coach,dodger,coach", {}),
    "short-zoot-suit": ("short-zoot-suit", "balanced,void,late,random", {}),
    "chai-tea-jazz": ("chai-tea-jazz", "tracker,greedy,random", {}),
    "hearts": ("hearts", "safe,bold,random,safe", {"end_score": 40}),
    "big-two": ("big-two", "control,greedy,random", {"target": 20}),
    "through-the-zoo": ("through-the-zoo", "planner,random,fit,keep-all",
                        {"zoo": "johannesburg"}),
    "bug-house": ("bug-house", "climber,fast,random,climber", {"delayed_singles": True}),
}
"""Every game (the cooperative grid too), each also rotated through the seats (``-rotated``)
and as a tournament lineup (``-tournament``)."""
VARIANTS = [*JOBS, "bluff-rotated", "short-zoot-suit-rotated", "bluff-tournament"]


def test_every_registered_game_is_played_in_chunks() -> None:
    """A game registered without a chunk case here would go unchecked: its counts could be
    floats (chunk-dependent sums) or its batch ignore ``first_game``."""
    from zooanalysis.games import game_names

    assert set(game_names()) <= {game for game, _lineup, _table in JOBS.values()}


def variant_job(name: str):
    """The batch job of a :data:`VARIANTS` name."""
    if name.endswith("-tournament"):
        from zooanalysis.tournament import pairwise_job

        game_name, lineup, table = JOBS[name.removesuffix("-tournament")]
        game = get_game(game_name)
        players = parse_lineup(lineup, game.strategies)
        settings = game.settings_for_lineup(game.settings_from_table(table), players)
        return pairwise_job(game, settings, players, [2, 0, 1, 0], 3)
    rotated = name.endswith("-rotated")
    return job_of(*JOBS[name.removesuffix("-rotated")], rotated=rotated)


def played(job, sizes: list[int], jobs: int = 1, backend: str = "threads", **options):
    """(totals, every batch's result) of 3 batches of 40 and one of 9 games, in chunks."""
    results: list[dict] = []
    totals = play(
        job,
        stream_batches(seed=5, batch_size=40, max_games=129),
        jobs,
        backend,
        on_batch=lambda _batch, result: results.append(result),
        sizer=FixedSizes(sizes),
        **options,
    )
    assert totals.games == 129
    return totals.totals, results


def assert_identical(first: tuple, second: tuple) -> None:
    """Two ``played`` outcomes are equal array by array, bit for bit."""
    (totals, batches), (other_totals, other_batches) = first, second
    assert sorted(totals) == sorted(other_totals)
    for key, value in totals.items():
        assert value.dtype == np.int64, key
        np.testing.assert_array_equal(value, other_totals[key], err_msg=key)
    assert len(batches) == len(other_batches) == 4
    for result, other in zip(batches, other_batches, strict=True):
        assert sorted(result) == sorted(other)
        for key, value in result.items():
            assert value.dtype == other[key].dtype, key
            np.testing.assert_array_equal(value, other[key], err_msg=key)


@pytest.fixture(scope="module")
def whole_batches() -> dict[str, tuple]:
    """Every job's results played one call per batch, serially: the reference."""
    return {name: played(variant_job(name), WHOLE) for name in VARIANTS}


BACKENDS = [
    pytest.param(1, "threads", id="serial"),
    pytest.param(2, "threads", id="threads2"),
    pytest.param(2, "processes", id="processes2", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("jobs", "backend"), BACKENDS)
@pytest.mark.parametrize("name", VARIANTS)
def test_chunked_play_equals_whole_batches(
    name: str, jobs: int, backend: str, whole_batches: dict[str, tuple]
) -> None:
    assert_identical(played(variant_job(name), ODD, jobs, backend), whole_batches[name])


@pytest.mark.slow
def test_chunked_play_on_a_dask_cluster_equals_whole_batches(whole_batches) -> None:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    ) as cluster:
        for name in VARIANTS:
            address = cluster.scheduler_address
            chunked = played(variant_job(name), ODD, backend="dask", scheduler=address)
            assert_identical(chunked, whole_batches[name])


def test_float_counts_are_refused_by_name() -> None:
    def job(_seed: int, n_games: int, first_game: int = 0) -> dict:
        return {"wins": np.ones(2, dtype=np.int32), "share": np.full(2, 0.5)}

    with pytest.raises(TypeError, match="'share' is float64"):
        play(job, stream_batches(1, 10, 20))


def test_a_run_in_one_game_chunks_equals_a_run_in_whole_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end, with rows and seat rotation: tables and rows bit for bit."""
    args = ["--games", "500", "--batch-size", "200", "--seed", "6", "--rows", "--no-progress"]
    args += ["--players", "bayes,random,cautious", "--rotate-seats", "--jobs", "2"]
    with monkeypatch.context() as patch:
        patch.setattr(runner, "FIRST_CHUNK", 10**9)
        assert cli.main(["run", *args, "--out", str(tmp_path / "whole")]) == 0
    with monkeypatch.context() as patch:
        patch.setattr(runner, "CHUNK_SECONDS", 1e-12)  # every chunk one game
        assert cli.main(["run", *args, "--out", str(tmp_path / "tiny")]) == 0
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(tmp_path / "tiny"))
    whole = zooanalysis.load_run(tmp_path / "whole").game_rows()
    assert whole.equals(zooanalysis.load_run(tmp_path / "tiny").game_rows())
    assert whole["game"].tolist() == np.repeat(np.arange(500), 3).tolist()
    assert whole["rotation"].tolist() == [0, 1, 2] * 500


# --- checkpoints inside a batch ----------------------------------------------------------------


def interrupt_at(games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C once ``games`` games are played, wherever that is in a batch (chunks of 1, 7,
    3, 160, 200 and 2 games; a checkpoint after every chunk)."""
    monkeypatch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
    monkeypatch.setattr(runner, "ChunkSizer", lambda: FixedSizes([1, 7, 3, 160, 200, 2]))
    original = simulation.run_simulation

    def run_simulation(request, on_progress=None, resume=False, **options):
        finished: list[int] = []

        def progress(played: int) -> None:
            finished.append(played)
            if sum(finished) >= games:
                raise KeyboardInterrupt

        return original(request, on_progress=progress, resume=resume, **options)

    monkeypatch.setattr(simulation, "run_simulation", run_simulation)


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")
@pytest.mark.parametrize(
    "extra",
    [
        pytest.param([], id="counts"),
        pytest.param(["--rows"], id="rows"),
        pytest.param(
            ["--rotate-seats", "--rows", "--players", "bayes,random,cautious"], id="rotated-rows"
        ),
        pytest.param(["--until-ci", "0.02", "--max-games", "1e6"], id="until-ci"),
    ],
)
def test_a_run_stopped_inside_a_batch_resumes_to_the_uninterrupted_results(
    extra: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    games = [] if "--until-ci" in extra else ["--games", "2500"]
    args = [*games, "--batch-size", "1000", "--seed", "8", *extra, "--no-progress"]
    assert cli.main(["run", *args, "--out", str(tmp_path / "whole")]) == 0
    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        interrupt_at(1333, patch)
        assert cli.main(["run", *args, "--jobs", "1", "--out", str(out)]) == 130
    kept = load_checkpoint(partial_path(out))
    assert kept.state["next_batch"] == 1 and 333 <= kept.state["batch_games"] < 1000 - 200
    assert kept.state["games"] == 1000 + kept.state["batch_games"]
    assert sorted(kept.batch_counts) == sorted(kept.totals)
    capsys.readouterr()
    assert cli.main(["run", "--resume", str(out), "--jobs", "2", "--no-progress"]) == 0
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))
    if "--rows" in extra:  # the batch under way's rows were played again
        whole = zooanalysis.load_run(tmp_path / "whole").game_rows()
        assert whole.equals(zooanalysis.load_run(out).game_rows())


def test_the_checkpoint_of_a_batch_under_way_holds_exactly_its_games(tmp_path: Path) -> None:
    """Saved counts = the finished batches' + the chunks of the batch under way."""
    game = get_game("bluff")
    lineup = parse_lineup("random,random,random", game.strategies)
    request = simulation.RunRequest(
        game=game,
        settings=game.settings_for_lineup(game.settings_from_table({}), lineup),
        lineup=lineup,
        games=3000,
        seed=2,
        batch_size=1000,
        out=tmp_path / "run",
    )
    seen: list[int] = []

    def progress(games: int) -> None:
        seen.append(games)
        if sum(seen) >= 1500:
            raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        patch.setattr(runner, "ChunkSizer", lambda: FixedSizes([250]))
        with pytest.raises(zooanalysis.storage.RunInterruptedError):
            simulation.run_simulation(request, on_progress=progress)
    assert seen == [250] * 6  # progress comes chunk by chunk, inside the batches
    kept = load_checkpoint(partial_path(tmp_path / "run"))
    assert (kept.state["next_batch"], kept.state["batch_games"]) == (1, 500)
    job = game.batch_job(request.settings, lineup, False)
    seeds = [batch.seed for batch in stream_batches(2, 1000, 3000)]
    first = job(seeds[0], 1000)
    under_way = job(seeds[1], 500)
    for key in first:
        np.testing.assert_array_equal(kept.totals[key], first[key], err_msg=key)
        np.testing.assert_array_equal(kept.batch_counts[key], under_way[key], err_msg=key)


def test_a_position_the_batches_cannot_reach_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "3000", "--batch-size", "1000", "--seed", "4", "--no-progress"]
    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        interrupt_at(1500, patch)
        assert cli.main(["run", *args, "--jobs", "1", "--out", str(out)]) == 130
    folder = partial_path(out)
    kept = load_checkpoint(folder)
    edits = [
        ({"batch_games": 1000, "games": 2000}, "which batches of 1,000 games never give"),
        ({"games": kept.state["games"] + 7}, "which batches of 1,000 games never give"),
        ({"batch_games": -3}, "whole numbers"),
    ]
    for edit, fragment in [*edits, ({}, "lacks the counts")]:
        state = {**kept.state, **edit}
        write_checkpoint(folder, kept.totals, state, kept.batch_counts if edit else None)
        capsys.readouterr()
        assert cli.main(["run", "--resume", str(out), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and fragment in err and str(folder / CHECKPOINT) in err
    write_checkpoint(folder, kept.totals, kept.state, {"wins": np.zeros(9, dtype=np.int64)})
    assert cli.main(["run", "--resume", str(out), "--no-progress"]) == 2
    assert "the counts of the batch under way" in capsys.readouterr().err
    write_checkpoint(folder, kept.totals, kept.state, kept.batch_counts)  # as it was
    assert cli.main(["run", "--resume", str(out), "--no-progress"]) == 0


def test_position_refuses_a_chunk_out_of_order() -> None:
    position = Position()
    batch = Batch(0, 99, 10)
    position.add_chunk(Chunk(batch, 0, 4), {"wins": np.ones(2, dtype=np.int64)})
    with pytest.raises(RuntimeError, match="does not follow"):
        position.add_chunk(Chunk(batch, 5, 4), {"wins": np.ones(2, dtype=np.int64)})


# --- Ctrl-C and SIGTERM stop a run whose batch takes long -----------------------------------

SLOW_GAMES = 2000
SECONDS_PER_GAME = 0.02
"""A batch of 2,000 games holds its worker 40 s: longer than the test waits for the run
to stop (an uninterruptible batch would fail it), far longer than a chunk."""


def start_slow_run(out: Path, jobs: int, backend: str) -> subprocess.Popen:
    """``zoosim run`` in its own process group (as a terminal runs it) with batches that
    take 40 s and cannot be interrupted while they play (see ``slow_job.SleepyJob``)."""
    command = [sys.executable, "-c", SCRIPT, str(SECONDS_PER_GAME), "run"]
    command += ["--games", str(SLOW_GAMES), "--batch-size", str(SLOW_GAMES), "--seed", "3"]
    command += ["--jobs", str(jobs), "--backend", backend, "--out", str(out), "--no-progress"]
    paths = [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "ZOOSIM_CHECKPOINT_SECONDS": "0.2",
    }
    return subprocess.Popen(
        command,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stop_and_check(process: subprocess.Popen, out: Path, signum: int) -> dict:
    """Wait for the run's first checkpoint, send ``signum`` (SIGINT to the whole process
    group, as Ctrl-C in a terminal does); the run must exit 130 in one line, keep its
    checkpoint, inside the first batch. Returns the checkpoint's state."""
    checkpoint = partial_path(out) / CHECKPOINT
    deadline = time.monotonic() + 120
    while not checkpoint.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    state = load_checkpoint(partial_path(out)).state
    assert state["next_batch"] == 0 and 0 < state["batch_games"] < SLOW_GAMES  # mid-batch
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=30)  # the batch alone would take 40 s
    assert process.returncode == 130, stderr
    assert stdout == "" and len(stderr.splitlines()) == 1, stderr
    assert f"zoosim run --resume {out}" in stderr and "Traceback" not in stderr
    kept = load_checkpoint(partial_path(out)).state
    assert kept["next_batch"] == 0 and 0 < kept["batch_games"] < SLOW_GAMES
    return kept


@pytest.fixture(scope="module")
def slow_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The slow run's results played without interruption (at full speed: same games)."""
    out = tmp_path_factory.mktemp("slow") / "whole"
    args = ["--games", SLOW_GAMES, "--batch-size", SLOW_GAMES, "--seed", 3, "--jobs", 1]
    assert cli.main(["run", *map(str, args), "--out", str(out), "--no-progress"]) == 0
    return out


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")
@pytest.mark.parametrize(
    ("signum", "jobs", "backend"),
    [
        pytest.param(signal.SIGINT, 1, "threads", id="ctrl-c"),
        pytest.param(signal.SIGTERM, 1, "threads", id="sigterm"),
        pytest.param(signal.SIGTERM, 2, "threads", id="sigterm-threads2", marks=pytest.mark.slow),
        pytest.param(signal.SIGINT, 2, "processes", id="ctrl-c-processes", marks=pytest.mark.slow),
    ],
)
def test_a_signal_stops_a_long_batch_at_once_and_the_run_resumes(
    signum: int, jobs: int, backend: str, tmp_path: Path, slow_reference: Path
) -> None:
    out = tmp_path / "run"
    stop_and_check(start_slow_run(out, jobs, backend), out, signum)
    assert not out.exists()
    assert cli.main(["run", "--resume", str(out), "--no-progress"]) == 0  # at full speed
    assert_same_tables(tables_of(slow_reference), tables_of(out))
    assert zooanalysis.load_run(out).manifest["games"] == SLOW_GAMES


@pytest.mark.slow
def test_ctrl_c_stops_lucky_lions_equilibrium_inside_its_first_batch(tmp_path: Path) -> None:
    """The case of issue 12 (when ``equilibrium`` played some 30-60 games a second, one batch
    of 20,000 took minutes): Ctrl-C stops a long batch of the everything scenario at once,
    and the kept counts are exactly those of the games played."""
    scenario = ["--scenario", "simulations/lucky-lions-everything.toml"]
    root = Path(__file__).parent.parent
    out = tmp_path / "cut"
    games = 2_000_000  # one batch of minutes, now that equilibrium is compiled
    command = [
        *[sys.executable, "-m", "zooanalysis.cli", "run", *scenario],
        *["--games", str(games), "--batch-size", str(games)],
    ]
    process = subprocess.Popen(
        [*command, "--jobs", "1", "--out", str(out), "--no-progress"],
        cwd=root,
        env={**os.environ, "ZOOSIM_CHECKPOINT_SECONDS": "0.5"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    checkpoint = partial_path(out) / CHECKPOINT
    deadline = time.monotonic() + 180
    while not checkpoint.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    time.sleep(1)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    kept = load_checkpoint(partial_path(out)).state
    assert kept["next_batch"] == 0 and 0 < kept["batch_games"] < games

    # the kept counts are exactly those of the games played, uninterrupted (resuming the
    # whole batch would take minutes; test_a_signal_stops_... resumes a shorter run)
    request = simulation.resume_request(out, jobs=1)
    job = simulation._batch_job(request)
    seed = next(stream_batches(request.seed, request.batch_size, request.games)).seed
    expected = job(seed, kept["batch_games"])
    counts = load_checkpoint(partial_path(out)).batch_counts
    assert sorted(counts) == sorted(expected)
    for key, value in expected.items():
        np.testing.assert_array_equal(counts[key], value, err_msg=key)
