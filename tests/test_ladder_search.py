"""The skill ladder's search rung (``zooanalysis.ladder_search``) and ``zoosim field
--reanalyse`` (``zooanalysis.field_reanalyse``).

Hand-made fields (fake tables whose payoffs are chosen by hand) fix the ladder below the
search rung; the rung itself is checked against the rotated run of the same lineup (pure
opponents) and against a game-by-game replay of its draws (mixed opponents), on tiny budgets
with fixed seeds.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.fault_helpers import one_error_line, run_cli
from zooanalysis.field import FieldRequest, FieldResult, run_field
from zooanalysis.field_lineup import uniforms
from zooanalysis.games import get_game
from zooanalysis.ladder_search import (
    TABLE,
    RungOutcomes,
    effective_seat_games,
    ladder_lines,
    rung_table,
    search_rung,
    top_opponents,
)
from zooanalysis.loading import load_run
from zooanalysis.outcome import win_share_units
from zooanalysis.runner import batch_seed
from zooanalysis.simulation import RunRequest, run_simulation
from zooanalysis.storage import stamped, write_manifest, write_tables
from zooanalysis.strategy_spec import parse_lineup, parse_player

LABELS = ["random", "greedy"]
GAMES_PER_BATCH = 300
# per composition (random, greedy seats) and batch: (random's, greedy's) win-share units,
# in sixths (share_unit(3) = 6) of a seat-game: 300 games a batch make 1,800 units
UNITS = {
    (3, 0): [(1800, 0), (1800, 0)],
    (2, 1): [(756, 1044), (684, 1116)],  # one greedy wins 0.58 and 0.62 of its games
    (1, 2): [(180, 1620), (180, 1620)],
    (0, 3): [(0, 1800), (0, 1800)],
}


def fake_field(weights: dict[str, float], game: str = "lucky-lions", seed: int = 5):
    """A field of random and greedy at 3 seats with the hand-made counts of ``UNITS``."""
    from zooanalysis.metagame import compositions

    counts = compositions(2, 3)
    rows = []
    for c, composition in enumerate(counts):
        for b, units in enumerate(UNITS[tuple(int(k) for k in composition)]):
            for i, label in enumerate(LABELS):
                if composition[i]:
                    rows.append(
                        {
                            "composition": c,
                            "batch": b,
                            "strategy": label,
                            "share_units": units[i],
                            "seat_games": GAMES_PER_BATCH * int(composition[i]),
                        }
                    )
    compositions_table = pd.DataFrame(counts, columns=LABELS)
    compositions_table.insert(0, "lineup", ["-"] * len(counts))
    compositions_table.insert(0, "composition", np.arange(len(counts)))
    tables = {"batches": pd.DataFrame(rows), "compositions": compositions_table}
    manifest = {
        "kind": "field", "game": game, "title": get_game(game).title, "settings": {},
        "population": LABELS, "seats": 3, "batches": 2, "share_unit": 6, "seed": seed,
        "games": len(counts) * 2 * GAMES_PER_BATCH, "bootstrap": 10, "alpha": 50.0,
        "alpha_population": 50, "compositions": len(counts), "lineups": len(counts),
        "games_per_lineup": 2 * GAMES_PER_BATCH,
        "solution": {"weights": weights, "iterations": 500, "nash_conv": 0.0,
                     "kept": "by hand", "nash_conv_ci": [0.0, 0.0], "alpha_rank": weights},
        "tables": sorted(tables),
    }  # fmt: skip
    return FieldResult(manifest, tables)


def write_fake(folder: Path, field: FieldResult) -> Path:
    """Write a hand-made field as a folder (checksums and format version), with the
    tables ``load_run`` reads."""
    folder.mkdir()
    tables = {name: field.table(name) for name in field.table_names}
    write_manifest(folder, stamped(field.manifest, write_tables(folder, tables)))
    return folder


def test_the_ladder_below_the_search_rung_is_the_hand_made_table() -> None:
    ladder = fake_field({"random": 0.0, "greedy": 1.0}).ladder()
    assert list(ladder["player"]) == ["greedy"] and list(ladder["versus"]) == ["random"]
    row = ladder.iloc[0]
    assert row.share == pytest.approx((1044 + 1116) / 6 / 600)  # 0.6: one greedy, two random
    assert row.baseline == pytest.approx(1 / 3)  # random at a table of its own
    assert row.n == 600 and row.interval == "bootstrap"


def outcomes_of(deals: list[list[int]]) -> RungOutcomes:
    """The counts of a search rung whose deals end as given: each deal's win-share units in
    every rotation (the sums ``SearchRungBatch`` keeps)."""
    return RungOutcomes(
        deals=len(deals),
        seat_games=sum(len(d) for d in deals),
        share_units=sum(sum(d) for d in deals),
        square_units=sum(u * u for d in deals for u in d),
        deal_square_units=sum(sum(d) ** 2 for d in deals),
    )


@pytest.mark.parametrize(
    ("deals", "n_eff", "rho"),
    [
        # every deal's rotations end alike (won in all, or lost in all): MSW = 0, rho = 1,
        # each deal counts once
        ([[1, 1, 1, 1]] * 2 + [[0, 0, 0, 0]] * 3, 5.0, 1.0),
        # means 1 and 1/2 (grand 3/4): MSB = 2 (1/16 + 1/16) / 1 = 1/4, MSW = (1/4 + 1/4)
        # / 2 = 1/4: rho = 0, the four seat-games count as four
        ([[1, 1], [0, 1]], 4.0, 0.0),
        # means 1, 0, 1/2, 0 (grand 3/8): MSB = 2 (25 + 9 + 1 + 9) / 64 / 3 = 11/24, MSW =
        # (1/4 + 1/4) / 4 = 1/8: rho = (11/24 - 3/24) / (11/24 + 3/24) = 4/7, n_eff = 8 /
        # (1 + 4/7) = 56/11
        ([[1, 1], [0, 0], [1, 0], [0, 0]], 56 / 11, 4 / 7),
        # one win in every deal: MSB = 0, rho = -1 (below 0: n_eff stays n, not above)
        ([[1, 0], [0, 1], [0, 1]], 6.0, -1.0),
        # a tie split in halves (units of 1/2): seat-games 1, 1 / 0, 0 / 1, 1/2 / 0, 0, means
        # 1, 0, 3/4, 0 (grand 7/16): MSB = 2 (81 + 49 + 25 + 49) / 256 / 3 = 17/32, MSW =
        # (1/16 + 1/16) / 4 = 1/32: rho = 16/18 = 8/9, n_eff = 8 / (17/9) = 72/17
        ([[2, 2], [0, 0], [2, 1], [0, 0]], 72 / 17, 8 / 9),
    ],
)
def test_the_effective_sample_size_is_kishs_with_the_intra_deal_correlation(
    deals: list[list[int]], n_eff: float, rho: float
) -> None:
    got, correlation = effective_seat_games(outcomes_of(deals))
    assert got == pytest.approx(n_eff, abs=1e-12)
    assert correlation == pytest.approx(rho, abs=1e-12)
    # the same games in other units (a finer share unit) have the same correlation
    finer, again = effective_seat_games(outcomes_of([[6 * u for u in d] for d in deals]))
    assert (finer, again) == pytest.approx((got, correlation), abs=1e-12)


def test_without_an_estimable_correlation_each_deal_counts_once() -> None:
    for deals in ([[0, 0, 0]] * 4, [[1, 1, 1]] * 4, [[1, 0, 1, 0]]):  # all alike; one deal
        n_eff, rho = effective_seat_games(outcomes_of(deals))
        assert n_eff == len(deals) and np.isnan(rho)


def test_a_rung_table_is_wilsons_interval_at_the_effective_n_with_its_verdict() -> None:
    opponents = top_opponents(fake_field({"random": 0.0, "greedy": 1.0}), get_game("lucky-lions"))
    assert opponents.rung == "greedy" and opponents.record() == {"greedy": 1.0}
    # 6 deals at 3 seats, one of each deal's 3 rotations won (6 sixths): 6 wins of 18
    # seat-games, rho = -1/2, n_eff = 18. Wilson by hand: centre (6 + 1.96^2/2) / (18 +
    # 1.96^2) = 0.36265, half-width 1.96 / 21.8415 * sqrt(6 * 12 / 18 + 1.96^2 / 4) = 0.19986
    one_each = outcomes_of([[6, 0, 0], [0, 6, 0], [0, 0, 6]] * 2)
    row = rung_table("search", opponents, 3, 5, one_each, np.array([36])).iloc[0]
    assert row.share == pytest.approx(1 / 3) and row.n_eff == 18
    assert (row.ci_low, row.ci_high) == pytest.approx((0.16279, 0.56251), abs=1e-5)
    assert row.verdict == "no measurable difference" and row.n == 18 and row.deals == 6
    # 4 deals at 2 seats, rho = 4/7, n_eff = 56/11 = 5.0909 (above): 3 wins of 8, a share of
    # 3/8, Wilson at 21/11 of 56/11 by hand: centre (1.90909 + 1.92080) / (5.09091 +
    # 3.84146) = 0.42876, half-width 1.96 / 8.93237 * sqrt(1.90909 * 3.18182 / 5.09091 +
    # 0.96040) = 0.32200
    halves = outcomes_of([[2, 2], [0, 0], [2, 0], [0, 0]])  # share_unit(2) = 2
    row = rung_table("search", opponents, 2, 5, halves, np.array([8])).iloc[0]
    assert row.share == pytest.approx(3 / 8) and row.n_eff == pytest.approx(56 / 11)
    assert (row.ci_low, row.ci_high) == pytest.approx((0.10676, 0.75076), abs=1e-5)
    assert row.intra_deal_correlation == pytest.approx(4 / 7) and row.n == 8
    # 6 deals won in every rotation but one, no deal lost: gains; one win in 7 deals of
    # 3 rotations: MSB = MSW = 1/21, rho = 0, n_eff = 21, Wilson's high by hand
    # (1 + 1.92080) / 24.84146 + 1.96 / 24.84146 * sqrt(20 / 21 + 0.96040) = 0.22669: loses
    gains = outcomes_of([[6, 6, 6]] * 5 + [[6, 6, 0]])
    assert rung_table("search", opponents, 3, 5, gains, np.array([36])).iloc[0].verdict == "gains"
    loses = outcomes_of([[6, 0, 0]] + [[0, 0, 0]] * 6)
    row = rung_table("search", opponents, 3, 5, loses, np.array([42])).iloc[0]
    assert row.n_eff == pytest.approx(21) and row.ci_high == pytest.approx(0.22669, abs=1e-5)
    assert row.verdict == "loses"


def test_every_rung_says_no_measurable_difference_in_the_same_words() -> None:
    """A bootstrap rung whose gain's interval covers 0 and a search rung whose interval
    covers the fair share get one phrase; a rung stored with older words reads with it."""
    field = fake_field({"random": 0.0, "greedy": 1.0})
    # one greedy at a table of two random (composition 1) wins 0.367 and 0.300 of its
    # games in the two batches: 1/3 on average, random's own share, the gain 0 +- 0.033
    even = fake_field({"random": 0.0, "greedy": 1.0})
    batches = even._tables["batches"]
    batches.loc[batches["composition"] == 1, "share_units"] = [1140, 660, 1260, 540]
    row = even.ladder().iloc[0]
    assert row.gain == pytest.approx(0.0, abs=1e-12)
    assert row.gain_ci_low < 0 < row.gain_ci_high and row.verdict == "no measurable difference"
    opponents = top_opponents(field, get_game("lucky-lions"))
    stored = rung_table("search", opponents, 3, 5, outcomes_of([[6, 0, 0]] * 6), np.array([36]))
    stored["verdict"] = "not separated"  # the words of folders written before
    field._tables[TABLE] = stored
    field.manifest["tables"] = [*field.manifest["tables"], TABLE]
    ladder = field.ladder()
    assert list(ladder["player"]) == ["greedy", "search"]
    assert list(ladder["verdict"]) == ["gains", "no measurable difference"]


def test_against_pure_opponents_the_rung_is_the_rotated_run_of_that_lineup() -> None:
    """The search player at a table of greedy, 3 deals in every seat: the same games as the
    rotated run search,greedy,greedy with the field's seed (each deal in every rotation)."""
    field = fake_field({"random": 0.0, "greedy": 1.0})
    table, entry = search_rung(field, deals=3)
    row = table.iloc[0]
    assert row.versus == "greedy" and row.n == 9 and row.deals == 3
    assert json.loads(row.opponent_draws) == {"greedy": 18}  # two greedy seats x 9 games
    game = get_game("lucky-lions")
    lineup = parse_lineup("search,greedy,greedy", game.lineup_strategies())
    rotated = run_simulation(
        RunRequest(game, game.settings_for_lineup(game.settings_from_table({}), lineup), lineup,
                   games=3, seed=5, batch_size=10, rotate_seats=True)
    )  # fmt: skip
    shares = rotated.table("rotation_strategies").set_index("strategy")
    assert row.share == pytest.approx(shares.loc["search", "win_share"], abs=1e-12)
    assert entry["versus_mix"] == {"greedy": 1.0} and entry["seat_games"] == 9


def test_against_a_mix_every_seat_draws_deal_by_deal_the_same_in_every_rotation() -> None:
    """The mix half random, half greedy: replayed here game by game from the draws."""
    field = fake_field({"random": 0.5, "greedy": 0.5})
    table, _ = search_rung(field, deals=4, jobs=2)
    row = table.iloc[0]
    assert row.versus == "mix"
    game = get_game("lucky-lions")
    players = [parse_player(name, game.strategies) for name in LABELS]
    search = parse_player("search", game.lineup_strategies())
    settings = game.settings_for_lineup(game.settings_from_table({}), players[:1] * 3)
    seed = batch_seed(5, 0)
    choice = (uniforms(seed, 0, 4, 3) >= 0.5).astype(int)  # below 0.5: random
    units, drawn = 0, {"random": 0, "greedy": 0}
    squares, deal_squares = 0, 0
    for deal in range(4):
        dealt = 0
        for seat in range(3):
            lineup = [players[i] for i in choice[deal]]
            lineup[seat] = search
            for other in range(3):
                if other != seat:
                    drawn[lineup[other].strategy] += 1
            result = game.batch_job(settings, lineup, True)(seed, 1, first_game=deal)
            won = int(win_share_units(game.row_wins(result))[0, seat])
            units, squares, dealt = units + won, squares + won * won, dealt + won
        deal_squares += dealt * dealt
    assert row.share_units == units and row.n == 12 and row.deals == 4
    assert (row.square_units, row.deal_square_units) == (squares, deal_squares)
    n_eff, _ = effective_seat_games(RungOutcomes(4, 12, units, squares, deal_squares))
    assert row.n_eff == n_eff and 4 <= n_eff <= 12
    assert json.loads(row.opponent_draws) == drawn
    again, _ = search_rung(field, deals=4, jobs=1)
    pd.testing.assert_frame_equal(again, table)  # the same whatever the workers


def test_no_rung_where_the_game_has_no_forward_model_or_cannot_play_the_top_rung() -> None:
    big_two = fake_field({"random": 0.0, "greedy": 1.0}, game="big-two")
    table, entry = search_rung(big_two, deals=3)
    assert table is None and "no forward model" in entry["none"]
    reason = "No search rung: Big Two has no forward model (no search player)."
    assert ladder_lines(big_two)[-1] == reason
    stakes = fake_field({"random": 0.0, "greedy": 1.0}, game="bluff")
    stakes.manifest["population"] = ["random", "stakes"]
    stakes._tables["compositions"].columns = ["composition", "lineup", "random", "stakes"]
    stakes._tables["batches"]["strategy"] = stakes._tables["batches"]["strategy"].map(
        {"random": "random", "greedy": "stakes"}
    )
    stakes.manifest["solution"]["weights"] = {"random": 0.0, "stakes": 1.0}
    table, entry = search_rung(stakes, deals=3)
    assert table is None and "cannot play stakes" in entry["none"]


def small_field(out: Path) -> Path:
    game = get_game("lucky-lions")
    population = parse_lineup("greedy,random", game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table({}), population[:1] * 2)
    request = FieldRequest(game, settings, population, seats=2, games=8_000, seed=3,
                           bootstrap=10, out=out)  # fmt: skip
    run_field(request)
    return out


def test_reanalysing_rewrites_the_solution_from_the_stored_counts(tmp_path: Path, capsys) -> None:
    folder = small_field(tmp_path / "field")
    before = load_run(folder)
    batches = (folder / "batches.parquet").read_bytes()
    # what an older solver might have kept: all random, its tables and manifest consistent
    wrong = {"greedy": 0.0, "random": 1.0}
    equilibrium = before.table("equilibrium").assign(weight=[0.0, 1.0])
    manifest = {k: v for k, v in before.manifest.items() if k != "checksums"}
    manifest["solution"] = {**manifest["solution"], "weights": wrong, "kept": "old solver"}
    checksums = dict(before.manifest["checksums"])
    checksums.update(write_tables(folder, {"equilibrium": equilibrium}))
    write_manifest(folder, stamped(manifest, checksums))
    assert load_run(folder).mix() == wrong
    code, out, err = run_cli(capsys, "field", "--reanalyse", folder, "--no-progress")
    assert code == 0, err
    after = load_run(folder)  # checksums and format version valid
    assert after.mix() == before.mix() and after.mix()["greedy"] == pytest.approx(1.0)
    for name in ("equilibrium", "payoffs", "convergence"):
        pd.testing.assert_frame_equal(after.table(name), before.table(name))
    assert (folder / "batches.parquet").read_bytes() == batches
    record = after.manifest["reanalysed"][-1]
    assert record["replaced"]["weights"] == wrong and record["replaced"]["kept"] == "old solver"
    assert after.manifest["created"] == before.manifest["created"]  # the play's provenance
    assert "Symmetric equilibrium" in out and "Skill ladder" in out
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())  # nothing left over


def test_reanalysing_keeps_a_search_rung_of_the_same_top_and_drops_another(
    tmp_path: Path, capsys
) -> None:
    folder = small_field(tmp_path / "field")
    code, out, err = run_cli(capsys, "field", "--reanalyse", folder, "--search-games", "2",
                             "--jobs", "1", "--no-progress")  # fmt: skip
    assert code == 0, err
    field = load_run(folder)
    assert TABLE in field.table_names and field.manifest["ladder_search"]["deals"] == 2
    ladder = field.ladder()
    assert list(ladder["player"]) == ["greedy", "search"]
    assert ladder["versus"].iloc[-1] == "greedy" and ladder["n"].iloc[-1] == 4
    assert "search" in out and "Wilson" in out
    code, out, _ = run_cli(capsys, "field", "--reanalyse", folder, "--no-progress")
    assert code == 0 and "same top rung: kept" in out
    pd.testing.assert_frame_equal(load_run(folder).table(TABLE), field.table(TABLE))
    # a rung played against another top rung (stored as if the mix had been all random)
    table = field.table(TABLE).assign(versus_mix=json.dumps({"random": 1.0}))
    manifest = {k: v for k, v in field.manifest.items() if k != "checksums"}
    checksums = dict(field.manifest["checksums"])
    checksums.update(write_tables(folder, {TABLE: table}))
    write_manifest(folder, stamped(manifest, checksums))
    code, out, _ = run_cli(capsys, "field", "--reanalyse", folder, "--no-progress")
    assert code == 0 and "dropped" in out
    after = load_run(folder)
    assert TABLE not in after.table_names and not (folder / f"{TABLE}.parquet").exists()
    assert "ladder_search" not in after.manifest


def test_reanalyse_refuses_bad_input_in_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "field", "--reanalyse", tmp_path / "none")
    assert code == 2 and "--reanalyse" in one_error_line(err, "not a field folder")
    run = tmp_path / "run"
    code, _, err = run_cli(capsys, "run", "--game", "lucky-lions", "--games", "100", "--out",
                           run, "--no-progress")  # fmt: skip
    assert code == 0, err
    code, _, err = run_cli(capsys, "field", "--reanalyse", run)
    assert code == 2 and "--reanalyse" in one_error_line(err, "not a field folder")
    field = write_fake(tmp_path / "big-two", fake_field({"random": 0.0, "greedy": 1.0}, "big-two"))
    code, _, err = run_cli(capsys, "field", "--reanalyse", field, "--search-games", "3")
    assert code == 2
    one_error_line(err, "--search-games", "Big Two has no forward model", "give 0")
    code, _, err = run_cli(capsys, "field", "--reanalyse", field, "--games", "1e5")
    assert code == 2 and "only --search-games" in one_error_line(err, "--games")
    code, out, err = run_cli(capsys, "field", "--reanalyse", field, "--no-progress")
    assert code == 0, err  # the hand-made field solved: greedy beats random at every table
    assert load_run(field).mix()["greedy"] == pytest.approx(1.0)
    assert "No search rung: Big Two has no forward model" in out


def test_a_field_without_a_forward_model_refuses_search_games_before_playing(
    tmp_path: Path, capsys
) -> None:
    out = tmp_path / "hearts"
    code, _, err = run_cli(capsys, "field", "--game", "hearts", "--search-games", "5", "--out",
                           out, "--no-progress")  # fmt: skip
    assert code == 2
    one_error_line(err, "--search-games", "Hearts has no forward model")
    assert not out.exists()


def test_a_new_field_plays_the_rung_and_its_report_shows_it(tmp_path: Path, capsys) -> None:
    from zooanalysis.ladder_search import no_rung_reason
    from zooanalysis.report.field import field_document, ladder_section

    out = tmp_path / "field"
    code, stdout, err = run_cli(capsys, "field", "--game", "lucky-lions", "--population",
                                "greedy,random", "--seats", "2", "--games", "8000",
                                "--bootstrap", "5", "--search-games", "2", "--jobs", "1",
                                "--out", out, "--no-progress")  # fmt: skip
    assert code == 0, err
    field = load_run(out)
    assert field.manifest["ladder_search"]["deals"] == 2 and TABLE in field.manifest["tables"]
    assert "search" in stdout.split("Skill ladder")[1]
    section = next(s for s in field_document(field).sections if s.title == "Skill ladder")
    table = section.tables[0].data
    assert list(table["player"]) == ["greedy", "search"]
    assert list(table["interval"]) == ["bootstrap", "Wilson"]
    big_two = fake_field({"random": 0.0, "greedy": 1.0}, game="big-two")
    section = ladder_section(big_two.ladder(), 3, no_rung_reason(big_two))
    assert "No search rung: Big Two has no forward model" in section.intro
