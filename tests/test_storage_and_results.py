"""Run directories are written atomically, and a saved run reads back into consistent analyses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import zooanalysis
import zooanalysis.simulation
from zooanalysis import cli, storage
from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.games.bluff.analysis import BluffRun
from zooanalysis.loading import load_run
from zooanalysis.progress import GameProgress
from zooanalysis.simulation import RunRequest, run_simulation
from zooanalysis.storage import RunInterruptedError
from zooanalysis.strategy_spec import parse_lineup

# A mixed lineup (one strategy on two seats) whose doubted piles stay below the 40+ bin at
# this size, so penalty points can be checked card for card against the doubted piles.
LINEUP = "bayes,cautious,random,random"
GAMES = 3000


def incomplete_siblings(path: Path) -> list[Path]:
    return list(path.parent.glob(f".{path.name}.incomplete-*"))


# --- atomic writing ----------------------------------------------------------------------------


def test_run_directory_appears_only_when_complete(tmp_path: Path) -> None:
    target = tmp_path / "run"
    with storage.resumable_directory(target) as folder:
        assert folder == tmp_path / ".run.partial"
        (folder / "data.txt").write_text("x", encoding="utf-8")
        assert not target.exists()
    assert (target / "data.txt").read_text(encoding="utf-8") == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_a_failed_run_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "nested" / "run"
    with pytest.raises(RuntimeError), storage.resumable_directory(target) as folder:
        (folder / "half.parquet").write_bytes(b"partial")
        (folder / "sub").mkdir()
        raise RuntimeError("stop")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []  # nor the folder "nested" made for it


def test_a_command_that_fails_leaves_no_folder_it_created(tmp_path: Path) -> None:
    """A failure inside the reserved output removes the folders made for it (``runs/`` of a
    default name, nested parents of --out), but only those, and only while empty."""
    target = tmp_path / "runs" / "deep" / "run"
    with pytest.raises(UserError, match="refused mid-way"), storage.reserve_output(target):
        raise UserError("refused mid-way")
    assert list(tmp_path.iterdir()) == []

    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "older").mkdir()
    with pytest.raises(UserError), storage.reserve_output(target):
        raise UserError("refused mid-way")
    assert sorted(path.name for path in (tmp_path / "runs").iterdir()) == ["older"]

    with storage.reserve_output(target) as folder:
        (folder.working / "table.parquet").write_bytes(b"rows")
        folder.finish()
    assert (target / "table.parquet").is_file()


def test_an_interrupted_run_keeps_only_its_hidden_working_folder(tmp_path: Path) -> None:
    target = tmp_path / "run"
    with (
        pytest.raises(RunInterruptedError, match="--resume"),
        storage.resumable_directory(target) as folder,
    ):
        (folder / "work.txt").write_text("half done", encoding="utf-8")
        raise KeyboardInterrupt
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == [".run.partial"]


def test_run_directory_refuses_an_existing_path(tmp_path: Path) -> None:
    target = tmp_path / "run"
    target.mkdir()
    (target / "keep.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(UserError, match="already exists"), storage.resumable_directory(target):
        pytest.fail("the block must not run")  # pragma: no cover
    assert [p.name for p in target.iterdir()] == ["keep.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["run"]


def _request(out: Path | None, jobs: int = 1, games: int = 2500, batch_size: int = 500):
    game = get_game("bluff")
    lineup = parse_lineup(LINEUP, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), lineup)
    return RunRequest(
        game=game,
        settings=settings,
        lineup=lineup,
        games=games,
        seed=3,
        jobs=jobs,
        batch_size=batch_size,
        with_rows=True,
        out=out,
    )


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")  # joblib: cancelled batches
@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_run_writes_nothing(jobs: int, tmp_path: Path) -> None:
    out = tmp_path / "run"
    finished = []

    def progress(games: int) -> None:
        finished.append(games)
        if len(finished) == 2:
            raise KeyboardInterrupt

    with pytest.raises(RunInterruptedError):
        run_simulation(_request(out, jobs=jobs), on_progress=progress)
    assert len(finished) == 2  # two chunks
    assert not out.exists()
    assert not incomplete_siblings(out)
    # no results: only the hidden, resumable working folder, which is not a run
    assert [p.name for p in tmp_path.iterdir()] == [".run.partial"]
    assert not (tmp_path / ".run.partial" / "manifest.json").exists()
    with pytest.raises(UserError):
        zooanalysis.load_run(tmp_path / ".run.partial")


def test_completed_run_reports_progress_for_every_batch(tmp_path: Path) -> None:
    finished: list[int] = []
    run = run_simulation(_request(tmp_path / "run"), on_progress=finished.append)
    assert sum(finished) == 2500  # reported chunk by chunk
    assert isinstance(run, BluffRun)
    assert run.path == tmp_path / "run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def _interrupt_after_two_batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Ctrl-C once two batches of 500 games are played (the bar advances per chunk)."""
    calls: list[int] = []

    def advance(self: GameProgress, games: int) -> None:
        calls.append(games)
        if sum(calls) == 1000:
            raise KeyboardInterrupt

    monkeypatch.setattr(GameProgress, "advance", advance)
    return calls


def test_cli_interrupted_run_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _interrupt_after_two_batches(monkeypatch)
    out = tmp_path / "run"
    args = ["--games", "3000", "--batch-size", "500", "--jobs", "1", "--out", str(out)]
    code = cli.main(["run", *args, "--no-progress"])
    captured = capsys.readouterr()
    assert sum(calls) == 1000
    assert code == 130
    assert captured.out == ""  # no summary, no "Written to"
    assert "Traceback" not in captured.err
    assert f"Continue it with: zoosim run --resume {out}" in captured.err
    assert not out.exists()
    assert not incomplete_siblings(out)
    assert [p.name for p in tmp_path.iterdir()] == [".run.partial"]


@pytest.mark.filterwarnings("ignore:.*tasks.*:UserWarning")
def test_cli_interrupted_run_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _interrupt_after_two_batches(monkeypatch)
    out = tmp_path / "run"
    code = cli.main(
        ["run", "--games", "3000", "--batch-size", "500", "--out", str(out), "--no-progress"]
    )
    err = capsys.readouterr().err
    assert code == cli.EXIT_INTERRUPTED == 130
    assert len(err.splitlines()) == 1 and err.startswith("zoosim: ")
    assert not out.exists()


def test_cli_returns_130_when_the_simulation_is_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(zooanalysis.simulation, "run_simulation", interrupted)
    out = tmp_path / "run"
    code = cli.main(["run", "--games", "1000", "--out", str(out), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 130
    assert captured.out == ""
    assert not out.exists()


# --- a saved run and its analyses -----------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> BluffRun:
    out = tmp_path_factory.mktemp("results") / "run"
    zooanalysis.simulate("bluff", players=LINEUP, games=GAMES, seed=2, out=out)
    loaded = zooanalysis.load_run(out)
    assert isinstance(loaded, BluffRun)
    return loaded


def test_load_run_reads_the_manifest(run: BluffRun) -> None:
    assert run.game == "bluff"
    assert run.games == GAMES
    assert run.lineup == LINEUP.split(",")
    assert run.manifest["seed"] == 2
    assert run.settings["players"] == 4
    manifest = json.loads((run.path / "manifest.json").read_text(encoding="utf-8"))
    assert run.manifest == manifest
    assert sorted(run.table_names) == sorted(manifest["tables"])
    assert "3,000 games" in repr(run) and "seed 2" in repr(run)


def test_win_rates_by_seat_agree_with_the_seats_table(run: BluffRun) -> None:
    seats = run.table("seats").set_index("seat")
    rates = run.win_rates("seat")
    assert list(rates.columns[:5]) == ["strategy", "share", "ci_low", "ci_high", "n"]
    assert list(rates.index) == [1, 2, 3, 4]  # seat 1 is the first seat
    assert list(rates["strategy"]) == LINEUP.split(",")
    assert (rates["n"] == GAMES).all()
    # the headline splits ties: 1/k for each of k tied winners
    win_ties = run.table("win_ties")
    split = (win_ties["games"] / win_ties["winners"]).groupby(win_ties["seat"] + 1).sum()
    np.testing.assert_allclose(rates["share"], split.reindex(rates.index, fill_value=0) / GAMES)
    np.testing.assert_allclose(rates["won_or_shared"], seats["wins"].to_numpy() / GAMES)
    np.testing.assert_allclose(rates["sole_rate"], seats["sole_wins"].to_numpy() / GAMES)
    assert (rates["share"] <= rates["won_or_shared"]).all()
    assert (rates["sole_rate"] <= rates["share"]).all()
    for low, value, high in (
        ("ci_low", "share", "ci_high"),
        ("won_or_shared_ci_low", "won_or_shared", "won_or_shared_ci_high"),
    ):
        assert (rates[low] <= rates[value]).all() and (rates[value] <= rates[high]).all()
        assert ((rates[low] >= 0) & (rates[high] <= 1)).all()


def test_the_seats_win_shares_add_up_to_the_games_with_a_winner(run: BluffRun) -> None:
    """Ties split: the shares of all seats add up to 1 minus the share of games without a
    winner (none in Bluff in Zoo), while games won or shared add up to more with ties."""
    rates = run.win_rates("seat")
    assert rates["share"].sum() == pytest.approx(1.0)
    ties = run.table("win_ties")
    assert (ties["winners"] > 1).any()  # not vacuous: some games were shared
    assert rates["won_or_shared"].sum() > 1.0


def test_win_rates_by_strategy_count_every_seat(run: BluffRun) -> None:
    seats = run.table("seats")
    rates = run.win_rates("strategy")
    assert list(rates.columns[:4]) == ["share", "ci_low", "ci_high", "n"]
    assert sorted(rates.index) == ["bayes", "cautious", "random"]
    for strategy, row in rates.iterrows():
        mine = seats[seats["strategy"] == strategy]
        assert row["n"] == GAMES * len(mine)
        assert row["share"] == pytest.approx(mine["share_sum"].sum() / (GAMES * len(mine)))
        assert row["won_or_shared"] == pytest.approx(mine["wins"].sum() / (GAMES * len(mine)))
        assert row["ci_low"] <= row["share"] <= row["ci_high"]
    assert rates.loc["random", "n"] == 2 * GAMES
    # per seat played, weighted by seats, the strategies' shares add up to 1 as well
    assert (rates["share"] * rates["seats"]).sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="seat"):
        run.win_rates("colour")


def test_a_run_without_win_shares_says_so(run: BluffRun) -> None:
    seats = run.table("seats").drop(columns="share_sum")
    old = BluffRun(run.manifest, {**{n: run.table(n) for n in run.table_names}, "seats": seats})
    with pytest.raises(UserError, match="before win shares were counted"):
        old.win_rates()


@pytest.mark.parametrize(
    "by",
    [
        ("claimed_count", "pile_size"),
        ("doubter_strategy",),
        ("claimant_placed",),
        ("kind",),
        ("doubter_seat", "claimant_seat"),
        ("claimant_strategy", "claimant_move"),
    ],
)
def test_doubt_odds_groupings_cover_every_doubt(by: tuple[str, ...], run: BluffRun) -> None:
    doubts = run.table("doubts")
    total = int((doubts["doubt_succeeded"] + doubts["doubt_failed"]).sum())
    seats = run.table("seats")
    assert total == int(seats["moves_doubt"].sum()) > 0
    table = run.doubt_odds(by)
    assert list(table.index.names) == list(by)
    if "doubter_seat" in by:  # seats from 1
        assert set(table.index.get_level_values("doubter_seat")) <= {1, 2, 3, 4}
    assert {"rate", "ci_low", "ci_high", "n"} <= set(table.columns)
    assert int(table["n"].sum()) == total
    assert (table["ci_low"] <= table["rate"]).all() and (table["rate"] <= table["ci_high"]).all()


def test_doubt_odds_by_doubter_strategy_agrees_with_the_seats(run: BluffRun) -> None:
    table = run.doubt_odds(("doubter_strategy",))
    seats = run.table("seats")
    expected = seats.groupby("strategy")["moves_doubt"].sum()
    assert table["n"].to_dict() == expected.to_dict()
    assert set(run.doubt_odds(("claimant_placed",)).index) <= {True, False}


def test_doubt_odds_refuses_unknown_groups(run: BluffRun) -> None:
    with pytest.raises(ValueError, match="allowed are"):
        run.doubt_odds(("colour",))


def test_bluff_rates_cover_every_claim(run: BluffRun) -> None:
    claims = run.table("claims")
    total = int((claims["true_claims"] + claims["false_claims"]).sum())
    seats = run.table("seats")
    assert total == int(seats[["moves_hand", "moves_draw", "moves_none"]].to_numpy().sum())
    for by in [("strategy",), ("seat",), ("move",), ("claimed_count", "kind")]:
        table = run.bluff_rates(by)
        assert int(table["n"].sum()) == total, by
        assert (table["rate"].between(0, 1)).all()


def test_penalty_points_means(run: BluffRun) -> None:
    seats = run.table("seats").set_index("seat")
    points = run.penalty_points()
    assert list(points.index) == [1, 2, 3, 4]  # seats from 1, as everywhere a person reads
    assert np.allclose(points["mean"], seats["points_sum"] / seats["games"])
    assert (points["n"] == GAMES).all()
    assert (points["ci_low"] <= points["mean"]).all() and (
        points["mean"] <= points["ci_high"]
    ).all()
    histogram = run.table("points")
    for seat in seats.index:
        mine = histogram[histogram["seat"] == seat]
        assert int(mine["games"].sum()) == GAMES
        assert int((mine["points"] * mine["games"]).sum()) == seats.loc[seat, "points_sum"]


def test_end_reasons_and_game_length(run: BluffRun) -> None:
    ends = run.end_reasons()
    assert ends["rate"].sum() == pytest.approx(1.0)
    assert (ends["n"] == GAMES).all()
    assert set(ends.index) == {"points", "deck"}
    length = run.game_length()
    assert list(length.index) == ["rounds", "moves"]
    assert (length["n"] == GAMES).all()
    assert (length["p10"] <= length["median"]).all() and (length["median"] <= length["max"]).all()
    mix = run.move_mix()
    assert list(mix.index) == [1, 2, 3, 4]
    assert np.allclose(mix[["doubt", "hand", "draw", "none"]].sum(axis=1), 1.0)


def test_penalty_points_are_the_cards_taken_in_doubts(run: BluffRun) -> None:
    """Each card received counts one point: all points are the doubted piles' cards."""
    doubts = run.doubts()
    assert doubts["pile_size"].max() < 40, "precondition: no pile in the 40+ bin"
    cards_taken = int((doubts["pile_size"] * doubts["doubts"]).sum())
    assert int(run.table("seats")["points_sum"].sum()) == cards_taken


def test_binned_piles_only_undercount_the_cards_taken() -> None:
    """With the former default lineup some doubted piles reach the 40+ bin (so only <= holds)."""
    former_default = "bayes,bayes,cautious,random"
    result = zooanalysis.simulate("bluff", players=former_default, games=GAMES, seed=5)
    doubts = result.doubts()
    assert doubts["pile_size"].max() == 40  # this seed does reach the 40+ bin
    cards_at_most = int((doubts["pile_size"] * doubts["doubts"]).sum())
    assert cards_at_most <= int(result.table("seats")["points_sum"].sum())


def test_summary_mentions_every_figure(run: BluffRun) -> None:
    text = run.summary()
    for part in (
        "Win share by seat",
        "Win share by strategy",
        "won or shared",
        "Mean penalty points",
        "Game length",
        "How games ended",
        "Doubt success",
        "Bluff rate",
    ):
        assert part in text


def test_observed_vs_exact_lists_random_pile_odds(run: BluffRun) -> None:
    table = run.observed_vs_exact()
    assert {"doubt_success", "claim_held", "exact_random_pile", "n"} <= set(table.columns)
    assert np.allclose(table["claim_held"], 1 - table["doubt_success"])
    assert table["exact_random_pile"].dropna().between(0, 1).all()


# --- simulate() without a folder, and bad folders -----------------------------------------------


def test_simulate_without_out_matches_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    in_memory = zooanalysis.simulate("bluff", players="random,random,random", games=3000, seed=2)
    assert isinstance(in_memory, BluffRun)
    assert in_memory.path is None
    assert in_memory.games == 3000
    out = tmp_path / "cli"
    args = ["--players", "random,random,random", "--games", "3000", "--seed", "2"]
    code = cli.main(["run", *args, "--out", str(out), "--no-progress"])
    capsys.readouterr()
    assert code == 0
    saved = load_run(out)
    assert sorted(in_memory.table_names) == sorted(saved.table_names)
    for name in saved.table_names:
        left, right = in_memory.table(name), saved.table(name)
        assert left.equals(right), name
        pd.testing.assert_frame_equal(left, right)
    assert in_memory.summary().splitlines()[1:] == saved.summary().splitlines()[1:]


def assert_holds_what_it_wrote(returned, path: Path) -> None:
    """The run a finished run returns (tables kept in memory, issue 13) is the folder it
    wrote: every table and the summary as ``load_run`` reads them back."""
    saved = load_run(path)
    assert returned.path == path and sorted(returned.table_names) == sorted(saved.table_names)
    for name in saved.table_names:
        pd.testing.assert_frame_equal(returned.table(name), saved.table(name))
    assert returned.summary() == saved.summary()


@pytest.mark.parametrize("rotate", [False, True])
def test_a_finished_run_holds_the_tables_it_wrote(rotate: bool, tmp_path: Path) -> None:
    game = get_game("bluff")
    lineup = parse_lineup("bayes,random,random", game.strategies)
    request = RunRequest(
        game=game,
        settings=game.settings_for_lineup(game.settings_from_table({}), lineup),
        lineup=lineup,
        games=1500,
        seed=4,
        batch_size=700,
        rotate_seats=rotate,
        with_rows=rotate,
        out=tmp_path / "run",
    )
    assert_holds_what_it_wrote(run_simulation(request), tmp_path / "run")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(zooanalysis.games.game_names()))
def test_every_game_s_finished_run_holds_the_tables_it_wrote(name: str, tmp_path: Path) -> None:
    returned = zooanalysis.simulate(name, games=500, seed=2, jobs=1, out=tmp_path / "run")
    assert_holds_what_it_wrote(returned, tmp_path / "run")


def test_as_read_back_drops_an_index_as_writing_does(tmp_path: Path) -> None:
    tables = {
        "plain": pd.DataFrame({"a": [1, 2]}),
        "indexed": pd.DataFrame({"a": [1, 2]}, index=pd.Index(["x", "y"], name="key")),
        "shifted": pd.DataFrame({"a": [1, 2]}, index=[5, 6]),
    }
    storage.write_tables(tmp_path, tables)
    for name, table in storage.as_read_back(tables).items():
        read = storage.read_table_file(tmp_path / f"{name}.parquet")
        pd.testing.assert_frame_equal(table, read)


def test_load_run_on_a_folder_without_manifest(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"manifest\.json"):
        load_run(tmp_path)
    with pytest.raises(UserError, match="not a zoosim run directory"):
        zooanalysis.load_run(tmp_path / "missing")


def test_load_run_on_an_unreadable_manifest(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(UserError, match="unreadable manifest"):
        load_run(tmp_path)


def test_a_table_is_read_from_a_buffer_of_arrows_own(monkeypatch, tmp_path: Path) -> None:
    """Arrow reads a saved table from memory it allocated, never through a Python object: from
    an ``io.BytesIO`` its I/O threads call into Python, and a thread taking the GIL at
    interpreter exit is ended by ``pthread_exit``, which aborts through Arrow's C++ thread
    code ("terminate called without an active exception", apache/arrow#34314). Every
    source handed to ``read_table`` is a native reader, its buffer not a view of Python
    memory, and the table reads back the same, with filters too."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pd.DataFrame({"seat": [1, 2, 3], "name": ["a", "b", "c"]})
    path = tmp_path / "t.parquet"
    table.to_parquet(path)
    sources = []
    real = pq.read_table

    def spy(source, **options):
        sources.append(source)
        return real(source, **options)

    monkeypatch.setattr(pq, "read_table", spy)
    assert storage.read_table_file(path).equals(table)
    data = path.read_bytes()
    filtered = storage.parse_table(data, path, filters=[("seat", ">", 1)])
    assert filtered["name"].tolist() == ["b", "c"]
    assert len(sources) == 2
    assert all(isinstance(source, pa.BufferReader) for source in sources)
    owned = storage.arrow_owned(data)
    assert owned.to_pybytes() == data and owned.parent is None and owned.is_mutable
