"""``zoosim run --players field:FOLDER``: every seat drawn from a field's mix, game by game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis.simulation as simulation
from tests.fault_helpers import interrupt_after, one_error_line, run_cli
from tests.test_field import field_request
from zooanalysis.field import run_field
from zooanalysis.field_lineup import FieldMix, MixedBatch, uniforms
from zooanalysis.games import game_names, get_game
from zooanalysis.loading import load_run
from zooanalysis.stats import wilson_interval
from zooanalysis.storage import partial_path
from zooanalysis.strategy_spec import parse_lineup


def mix_of(game_name: str, text: str, weights: list[float], seats: int) -> FieldMix:
    game = get_game(game_name)
    players = tuple(parse_lineup(text, game.strategies))
    return FieldMix("(test)", players, tuple(weights), seats)


def job_for(game_name: str, mix: FieldMix, with_rows: bool = False) -> MixedBatch:
    game = get_game(game_name)
    lineup = list(mix.players[:1]) * mix.seats
    settings = game.settings_for_lineup(game.settings_from_table({}), lineup)
    return MixedBatch(game, settings, mix, with_rows)


@pytest.fixture(scope="module")
def greedy_field(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Lucky Lions field of greedy and random at three seats: all greedy in equilibrium."""
    out = tmp_path_factory.mktemp("lineup") / "field"
    run_field(field_request(out))
    return out


def test_the_draws_do_not_depend_on_the_chunks() -> None:
    whole = uniforms(12345, 0, 10, 4)
    assert np.array_equal(whole[6:], uniforms(12345, 6, 4, 4))
    assert ((whole >= 0) & (whole < 1)).all()
    assert not np.array_equal(whole, uniforms(12346, 0, 10, 4))
    many = uniforms(7, 0, 20_000, 3)
    assert abs(many.mean() - 0.5) < 0.01  # 60,000 draws: sd of the mean 0.0012


def test_a_pure_mix_plays_exactly_the_plain_lineup() -> None:
    """Weight 1 on greedy: every game is the greedy lineup, on the same deals."""
    mix = mix_of("lucky-lions", "greedy,random", [1.0, 0.0], 3)
    mixed = job_for("lucky-lions", mix)(99, 500)
    game = get_game("lucky-lions")
    lineup = parse_lineup("greedy*3", game.strategies)
    plain = game.batch_job(game.settings_for_lineup(game.settings_from_table({}), lineup),
                           lineup, False)(99, 500)  # fmt: skip
    assert set(mixed) == set(plain) | {"field_draws"}
    for key, value in plain.items():
        assert np.array_equal(mixed[key], value), key
    assert mixed["field_draws"].tolist() == [[500, 0]] * 3


def test_a_mixed_batch_adds_up_over_chunks_and_draws_the_mix() -> None:
    mix = mix_of("lucky-lions", "greedy,random", [0.7, 0.3], 3)
    job = job_for("lucky-lions", mix, with_rows=True)
    whole = job(5, 2000)
    first, rest = job(5, 700), job(5, 1300, first_game=700)
    for key, value in whole.items():
        joined = (
            np.concatenate([first[key], rest[key]])
            if key.startswith("row_")
            else (first[key] + rest[key])
        )
        assert np.array_equal(value, joined), key
    draws = whole["field_draws"]
    low, high = wilson_interval(draws[:, 0], draws.sum(axis=1))
    assert (low < 0.7).all() and (high > 0.7).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_every_game_tabulates_a_mixed_batch(name: str) -> None:
    game = get_game(name)
    names = list(game.strategies)[:2]
    seats = len(parse_lineup(game.default_lineup, game.strategies))
    mix = mix_of(name, ",".join(names), [0.5, 0.5], seats)
    totals = job_for(name, mix)(3, 200)
    lineup = [p for p in parse_lineup(game.default_lineup, game.strategies)]
    tables = game.tables(totals, None, lineup)
    assert int(tables["seats"]["games"].iloc[0]) == 200
    assert totals["field_draws"].sum() == 200 * seats


def test_a_field_run_says_where_its_mix_came_from(greedy_field: Path, tmp_path: Path, capsys):
    out = tmp_path / "run"
    code, stdout, err = run_cli(capsys, "run", "--game", "lucky-lions", "--players",
                                f"field:{greedy_field}", "--games", "3000", "--out", out,
                                "--no-progress", "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert f"equilibrium mix of the field {greedy_field}" in stdout
    run = load_run(out)
    assert run.lineup == ["field", "field", "field"]
    assert run.manifest["field"]["population"] == ["greedy"]
    assert run.manifest["field"]["field_population"] == ["greedy", "random"]
    # all greedy: the same tables as the plain greedy*3 run on the same deals
    plain = tmp_path / "plain"
    code, _, err = run_cli(capsys, "run", "--game", "lucky-lions", "--players", "greedy*3",
                           "--games", "3000", "--out", plain, "--no-progress")  # fmt: skip
    assert code == 0, err
    assert (
        load_run(plain).win_rates("seat")["wins"].tolist() == run.win_rates("seat")["wins"].tolist()
    )


def test_a_field_run_resumes_to_the_same_results(
    greedy_field: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    options = ["run", "--game", "lucky-lions", "--players", f"field:{greedy_field}",
               "--games", "5000", "--batch-size", "1000", "--no-progress"]  # fmt: skip
    assert run_cli(capsys, *options, "--out", tmp_path / "whole")[0] == 0
    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        patch.setattr(simulation, "CHECKPOINT_SECONDS", 0.0)
        interrupt_after(2, patch)
        assert run_cli(capsys, *options, "--jobs", "1", "--out", out)[0] == 130
    assert partial_path(out).is_dir()
    code, _, err = run_cli(capsys, "run", "--resume", out, "--no-progress")
    assert code == 0, err
    assert_same_tables(tables_of(tmp_path / "whole"), tables_of(out))


@pytest.mark.parametrize(
    ("players", "fragments"),
    [
        ("field:no-such-folder", ["--players", "names no folder"]),
        ("field:", ["--players", "names no folder"]),
    ],
)
def test_a_bad_field_lineup_is_one_line(players, fragments, tmp_path: Path, capsys) -> None:
    out = tmp_path / "never"
    code, _, err = run_cli(capsys, "run", "--game", "lucky-lions", "--players", players,
                           "--games", "100", "--out", out, "--no-progress")  # fmt: skip
    assert code == 2
    one_error_line(err, *fragments)
    assert not out.exists()


def test_a_field_of_another_game_is_refused(greedy_field: Path, tmp_path: Path, capsys):
    code, _, err = run_cli(capsys, "run", "--game", "bluff", "--players",
                           f"field:{greedy_field}", "--games", "100", "--out", tmp_path / "x",
                           "--no-progress")  # fmt: skip
    assert code == 2
    one_error_line(err, "--players", "a field of lucky-lions, not bluff")
