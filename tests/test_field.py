"""``zoosim field``: a population's meta-game played, solved, written and resumed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.fault_helpers import one_error_line, run_cli
from zooanalysis.errors import UserError
from zooanalysis.field import (
    FieldRequest,
    FieldResult,
    field_plan,
    minimum_games,
    run_field,
    seatings_of,
)
from zooanalysis.games import game_names, get_game
from zooanalysis.loading import load_run
from zooanalysis.storage import RunInterruptedError, partial_path
from zooanalysis.strategy_spec import parse_lineup

GAME = "lucky-lions"
SMALL = ["--game", GAME, "--population", "greedy,random", "--seats", "3", "--games", "16000"]
"""Two strategies at three seats: 4 compositions in 8 seatings of 2,000 games."""
NO_SEARCH = ["--search-games", "0"]
"""For the tests that do not read the search rung (tests/test_ladder_search.py does): Lucky
Lions has a forward model, so ``zoosim field`` would play 20 deals of it by default."""


def field_request(out: Path | None = None, jobs: int = 1, games: int = 16_000) -> FieldRequest:
    game = get_game(GAME)
    population = parse_lineup("greedy,random", game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), population[:1] * 3)
    return FieldRequest(
        game, settings, population, seats=3, games=games, seed=5, jobs=jobs, bootstrap=20,
        out=out,
    )  # fmt: skip


def test_seatings_balance_every_strategy_over_the_seats() -> None:
    rng = np.random.default_rng(0)
    for composition in ([2, 1, 1], [4, 0, 0], [2, 2, 0], [1, 1, 1]):
        seatings = seatings_of(np.array(composition), rng)
        seats = sum(composition)
        for strategy, count in enumerate(composition):
            per_seat = [sum(order[s] == strategy for order in seatings) for s in range(seats)]
            assert len(set(per_seat)) == 1  # every seat equally often
            assert sum(per_seat) == count * len(seatings)
    assert len(seatings_of(np.array([4, 0]), rng)) == 1  # one seating of a table of copies


def test_a_field_is_written_loaded_and_consistent(tmp_path: Path, capsys) -> None:
    out = tmp_path / "field"
    code, stdout, err = run_cli(capsys, "field", *SMALL, "--out", out, "--no-progress",
                                "--bootstrap", "20", *NO_SEARCH)  # fmt: skip
    assert code == 0, err
    assert "Symmetric equilibrium of the meta-game" in stdout
    result = load_run(out)
    assert isinstance(result, FieldResult)
    manifest = result.manifest
    assert manifest["kind"] == "field" and manifest["games"] == 16_000
    assert not (out / "checkpoint.npz").exists() and not partial_path(out).exists()
    table = result.equilibrium()
    assert table["weight"].sum() == pytest.approx(1.0)
    # greedy beats random in every mix at this table: the equilibrium is all greedy
    assert table.loc["greedy", "weight"] == pytest.approx(1.0, abs=1e-6)
    assert table.loc["random", "weight_ci_high"] <= 1e-3
    assert manifest["solution"]["nash_conv"] < 1e-6
    # a composition's win shares add up to its games with a winner: at most one per game
    payoffs = result.payoffs()
    for _, rows in payoffs.groupby("composition"):
        won = (rows["share"] * rows["n"]).sum()
        games = rows["n"].sum() / 3
        assert 0 < won <= games + 1e-6
    # the all-greedy table: greedy's share is a third by symmetry
    solo = payoffs[payoffs["lineup"] == "greedy*3"]
    assert solo["share"].iloc[0] == pytest.approx(1 / 3)
    assert "payoff_vs_mix" in table and "alpha_rank_ci_low" in table


def test_a_field_does_not_depend_on_the_workers() -> None:
    one = run_field(field_request(jobs=1))
    two = run_field(field_request(jobs=2))
    pd.testing.assert_frame_equal(one.table("batches"), two.table("batches"))
    pd.testing.assert_frame_equal(one.table("equilibrium"), two.table("equilibrium"))
    pd.testing.assert_frame_equal(one.table("payoffs"), two.table("payoffs"))


def test_ctrl_c_then_resume_gives_the_uninterrupted_field(tmp_path: Path, capsys) -> None:
    whole = run_field(field_request())
    out = tmp_path / "interrupted"
    seen: list[int] = []

    def interrupt(games: int) -> None:
        seen.append(games)
        if sum(seen) >= 7_000:  # after the first two compositions (1 + 3 seatings)
            raise KeyboardInterrupt

    with pytest.raises(RunInterruptedError, match="zoosim field --resume"):
        run_field(field_request(out), on_progress=interrupt)
    assert (partial_path(out) / "checkpoint.npz").is_file()
    assert not out.exists()
    code, _, err = run_cli(capsys, "field", "--resume", out, "--no-progress", *NO_SEARCH)
    assert code == 0, err
    resumed = load_run(out)
    for name in ("batches", "payoffs", "equilibrium"):
        pd.testing.assert_frame_equal(resumed.table(name), whole.table(name))
    assert resumed.manifest["resume_commands"]


def test_a_new_field_over_an_interrupted_one_names_the_field_command(
    tmp_path: Path, capsys
) -> None:
    """``zoosim field --out X`` over an interrupted field at X says to continue it with
    ``zoosim field --resume`` (it said ``zoosim run --resume``, which cannot resume a
    field); an empty working folder (a field killed before it saved anything) is no
    interrupted field: the new field takes the name."""
    out = tmp_path / "field"

    def interrupt(_games: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(RunInterruptedError):
        run_field(field_request(out), on_progress=interrupt)
    options = ["--game", GAME, "--population", "greedy,random", "--seats", "3", "--games",
               "16000", "--seed", "5", "--bootstrap", "20", "--no-progress",
               *NO_SEARCH]  # fmt: skip
    code, _, err = run_cli(capsys, "field", *options, "--out", out)
    assert code == 2
    one_error_line(err, f"an interrupted run of {out} exists", f"zoosim field --resume {out}")
    for kept in partial_path(out).iterdir():
        kept.unlink()  # as a field killed between reserving its folder and saving anything
    code, _, err = run_cli(capsys, "field", *options, "--out", out)
    assert code == 0, err
    assert load_run(out).manifest["games"] == 16_000 and not partial_path(out).exists()


def test_players_come_from_a_file(tmp_path: Path, capsys) -> None:
    players = tmp_path / "players.txt"
    players.write_text("# the shipped heuristic\ngreedy\nrandom  # the baseline\n")
    out = tmp_path / "from-file"
    options = ["--seats", "2", "--games", "8000", "--bootstrap", "5", "--no-progress", *NO_SEARCH]
    code, _, err = run_cli(capsys, "field", "--game", GAME, "--from", players, *options,
                           "--out", out)  # fmt: skip
    assert code == 0, err
    result = load_run(out)
    assert result.manifest["population"] == ["greedy", "random"]
    assert str(players) in result.manifest["sources"][0]


def test_too_few_games_are_refused_before_playing() -> None:
    with pytest.raises(UserError, match="--games: 15,000 is too few"):
        field_plan(field_request(games=15_000))


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--population", "greedy,lion"], ["--population", "unknown strategy 'lion'"]),
        (["--population", "greedy,greedy"], ["--population", "greedy is given twice"]),
        (["--population", "greedy"], ["--population", "at least two strategies"]),
        (["--population", "greedy,random", "--seats", "9"], ["--seats", "2 to 5 players"]),
        (["--population", "greedy,random", "--games", "100"], ["--games", "too few"]),
        (["--population", "greedy,random", "--alpha", "0"], ["--alpha", "above 0"]),
        (["--from", "no-such-file.txt"], ["--from", "does not exist"]),
        (["--bootstrap", "-1"], ["--bootstrap"]),
        (["--game", "chess"], ["--game", "unknown game"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], fragments: list[str], tmp_path: Path, capsys
) -> None:
    out = tmp_path / "never"
    game = [] if "--game" in args else ["--game", GAME]
    code, _, err = run_cli(capsys, "field", *game, *args, "--out", out, "--no-progress")
    assert code == 2
    one_error_line(err, *fragments)
    assert not out.exists() and not partial_path(out).exists()


def test_resuming_nothing_is_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "field", "--resume", tmp_path / "none", "--no-progress")
    assert code == 2
    one_error_line(err, "--resume", "no interrupted field")


@pytest.mark.parametrize(
    "extra", [["--games", "1e5"], ["--seed", "3"], ["--population", "random,bayes"]]
)
def test_resume_refuses_options_that_would_change_the_field(
    tmp_path: Path, capsys, extra: list[str]
) -> None:
    """An option given with --resume is refused by name, not silently ignored."""
    interrupted = tmp_path / "field"
    interrupted.mkdir()
    code, _, err = run_cli(capsys, "field", "--resume", interrupted, *extra, "--no-progress")
    assert code == 2
    one_error_line(err, "--resume", extra[0], "cannot change an interrupted field")
    assert sorted(interrupted.iterdir()) == []


def test_the_report_of_a_field_states_the_equilibrium(tmp_path: Path) -> None:
    from zooanalysis.report.build import build_report

    out = tmp_path / "field"
    run_field(field_request(out))
    page = build_report(out, tmp_path / "report")
    html = page.read_text(encoding="utf-8")
    assert "equilibrium field" in html
    assert "Played in equilibrium (weight interval above 0.1%): greedy." in html
    assert "Left out of equilibrium (weight interval at most 0.1%): random." in html
    for figure in ("equilibrium_weights", "alpha_rank", "payoff_vs_mix", "convergence"):
        assert (tmp_path / "report" / "figures" / f"{figure}.png").is_file()
    findings = pd.read_csv(tmp_path / "report" / "tables" / "findings.csv")
    nash = findings[findings["key"] == "nash_conv"]
    assert nash["value"].iloc[0] == pytest.approx(load_run(out).manifest["solution"]["nash_conv"])


def test_the_skill_ladder_reads_one_player_against_a_table_of_the_rung_below() -> None:
    """greedy and random: the ladder is random -> greedy (the mix is all greedy, so it adds
    no rung); greedy's share is the meta-game's greedy + random*2 entry."""
    result = run_field(field_request())
    ladder = result.ladder()
    assert list(ladder["player"]) == ["greedy"] and list(ladder["versus"]) == ["random"]
    payoffs = result.payoffs()
    entry = payoffs[(payoffs["lineup"] == "greedy + random*2") & (payoffs["strategy"] == "greedy")]
    assert ladder["share"].iloc[0] == pytest.approx(entry["share"].iloc[0])
    assert ladder["ci_low"].iloc[0] > 1 / 3  # greedy measurably beats a table of random
    # the baseline: a random player's share at a table of random (a third: always a winner)
    assert ladder["baseline"].iloc[0] == pytest.approx(1 / 3)
    assert ladder["gain"].iloc[0] == pytest.approx(ladder["share"].iloc[0] - 1 / 3)
    assert ladder["gain_ci_low"].iloc[0] > 0
    assert ladder["verdict"].iloc[0] == "gains"
    # rungs may be given: the mix against random is the same all-greedy player
    given = result.ladder(["random", "mix"])
    assert given["share"].iloc[0] == pytest.approx(ladder["share"].iloc[0])


def test_a_scenario_sets_the_rules_of_a_field(tmp_path: Path, capsys) -> None:
    """(Not with the equilibrium player: on the reduced die it solves a linear programme
    per decision, far too slow for a test.)"""
    out = tmp_path / "variant"
    scenario = Path(__file__).parent.parent / "simulations" / "lucky-lions-everything.toml"
    code, _, err = run_cli(capsys, "field", "--scenario", scenario, "--population",
                           "greedy,random", "--seats", "2", "--games", "8000",
                           "--bootstrap", "5", "--out", out, "--no-progress")  # fmt: skip
    assert code == 0, err
    manifest = load_run(out).manifest
    assert manifest["game"] == "lucky-lions"
    assert manifest["settings"]["reduced_die"] is True
    code, _, err = run_cli(capsys, "field", "--game", "bluff", "--scenario", scenario,
                           "--out", tmp_path / "never", "--no-progress")  # fmt: skip
    assert code == 2
    one_error_line(err, "--game", "differs from the scenario's game")


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_has_a_field(name: str) -> None:
    """The machinery is generic: any registered game plays and solves a field."""
    game = get_game(name)
    population = parse_lineup(",".join(list(game.strategies)[:2]), game.strategies)
    seats = len(parse_lineup(game.default_lineup, game.strategies))  # seats its rules allow
    settings = game.settings_for_lineup(game.settings_from_table({}), population[:1] * seats)
    games = max(8_000, minimum_games(len(population), seats))
    result = run_field(
        FieldRequest(game, settings, population, seats=seats, games=games, bootstrap=5)
    )
    table = result.equilibrium()
    assert table["weight"].sum() == pytest.approx(1.0)
    assert result.manifest["solution"]["nash_conv"] < 1e-3
    assert int(result.table("batches")["seat_games"].sum()) == result.manifest["games"] * seats


def test_a_resumed_field_of_another_request_names_what_differs(tmp_path: Path) -> None:
    """A field's ``request.json`` is written and checked as a run's: resuming it with
    another request is refused naming the setting that differs (it said only "another
    field"), and the stored request is left as it was."""
    from dataclasses import replace

    from zooanalysis.field import _start_or_resume
    from zooanalysis.storage import ResumeRefusedError

    working = tmp_path / "working"
    working.mkdir()
    _start_or_resume(field_request(tmp_path / "field"), working, resumed=False)
    stored = (working / "request.json").read_bytes()
    other = replace(field_request(tmp_path / "field"), seed=6)
    with pytest.raises(ResumeRefusedError, match=r"another field.*seed: 5, here 6"):
        _start_or_resume(other, working, resumed=True)
    assert (working / "request.json").read_bytes() == stored
    again = _start_or_resume(field_request(tmp_path / "field"), working, resumed=True)
    assert again["resume_commands"]


def test_a_field_checkpoint_of_another_request_is_refused_naming_what_differs(
    tmp_path: Path, capsys
) -> None:
    """A field's checkpoint is checked by the runs' ``check_checkpoint_owner``: one line
    naming the setting that differs (it said only "another request or zoosim code"), and
    the checkpoint kept as it was."""
    import shutil
    from dataclasses import replace

    from zooanalysis.storage import CHECKPOINT

    def interrupt_after_two_compositions(out: Path, seed: int) -> None:
        seen: list[int] = []

        def interrupt(games: int) -> None:
            seen.append(games)
            if sum(seen) >= 7_000:
                raise KeyboardInterrupt

        with pytest.raises(RunInterruptedError):
            run_field(replace(field_request(out), seed=seed), on_progress=interrupt)

    seed5, seed6 = tmp_path / "seed5", tmp_path / "seed6"
    interrupt_after_two_compositions(seed5, 5)
    interrupt_after_two_compositions(seed6, 6)
    foreign = partial_path(seed6) / CHECKPOINT
    shutil.copyfile(partial_path(seed5) / CHECKPOINT, foreign)
    data = foreign.read_bytes()
    code, _, err = run_cli(capsys, "field", "--resume", seed6, "--no-progress", *NO_SEARCH)
    assert code == 2
    plan, error = err.splitlines(keepends=True)  # the plan comes before the checkpoint's check
    assert plan.startswith("Plan: ")
    one_error_line(error, str(foreign), "belongs to another request", "seed: 5, here 6")
    assert foreign.read_bytes() == data
