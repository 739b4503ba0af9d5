"""`--rotate-seats`: every deal in every seating, and paired comparisons measured honestly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from run_helpers import assert_same_tables, tables_of

import zooanalysis
from zooanalysis import cli
from zooanalysis.rotation import Z_95

LINEUP = ["bayes", "random", "cautious"]
COMMON = ["--games", "1500", "--batch-size", "400", "--seed", "6", "--no-progress"]


def run(out: Path, *args: str) -> Path:
    assert cli.main(["run", *args, *COMMON, "--out", str(out)]) == 0
    return out


def rotation_lineup(r: int) -> list[str]:
    return [LINEUP[(seat + r) % len(LINEUP)] for seat in range(len(LINEUP))]


@pytest.fixture(scope="module")
def rotated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rotated")
    return run(folder / "run", "--players", ",".join(LINEUP), "--rotate-seats")


@pytest.fixture(scope="module")
def plain_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """One ordinary run (with per-game rows) per rotated lineup, same seed and batches."""
    folder = tmp_path_factory.mktemp("plain")
    return [
        run(folder / f"r{r}", "--players", ",".join(rotation_lineup(r)), "--rows")
        for r in range(len(LINEUP))
    ]


def test_each_rotation_replays_the_same_deals_as_a_plain_run(
    rotated: Path, plain_runs: list[Path]
) -> None:
    tables = tables_of(rotated)
    for r, plain in enumerate(plain_runs):
        plain_tables = tables_of(plain)
        mine = {
            name: tables[name][tables[name]["rotation"] == r]
            .drop(columns="rotation")
            .reset_index(drop=True)
            for name in plain_tables
        }
        assert_same_tables(plain_tables, mine)


def per_deal_wins(plain_runs: list[Path]) -> dict[str, np.ndarray]:
    """Each strategy's win share per deal in each rotation (1/k for each of k tied
    winners), from the plain runs' rows."""
    wins: dict[str, list[np.ndarray]] = {name: [] for name in LINEUP}
    for r, plain in enumerate(plain_runs):
        rows = zooanalysis.load_run(plain).game_rows().sort_values("game")
        scores = rows[[f"scores_{seat}" for seat in range(len(LINEUP))]].to_numpy()
        won = scores == scores.min(axis=1, keepdims=True)
        assert (won.sum(axis=1) > 1).any()  # some deals are shared: the split matters
        share = won / won.sum(axis=1, keepdims=True)
        for seat, name in enumerate(rotation_lineup(r)):
            wins[name].append(share[:, seat])
    return {name: np.array(columns) for name, columns in wins.items()}  # rotations x deals


def test_paired_statistics_equal_a_hand_computation_from_per_game_rows(
    rotated: Path, plain_runs: list[Path]
) -> None:
    wins = per_deal_wins(plain_runs)
    loaded = zooanalysis.load_run(rotated)
    strategies = loaded.table("rotation_strategies").set_index("strategy")
    deals = wins["bayes"].shape[1]
    for name in LINEUP:
        share = wins[name].mean(axis=0)
        row = strategies.loc[name]
        assert row.win_share == pytest.approx(share.mean())
        assert row.variance_per_deal == pytest.approx(share.var(ddof=1))
        unrotated = wins[name][0].var(ddof=1) / len(LINEUP)
        assert row.unrotated_variance_per_deal == pytest.approx(unrotated)
        assert row.variance_reduction == pytest.approx(unrotated / share.var(ddof=1))
        assert row.deals == deals
    pairs = loaded.table("rotation_pairs").set_index(["strategy", "versus"])
    for first, second in [("bayes", "random"), ("bayes", "cautious"), ("random", "cautious")]:
        difference = wins[first].mean(axis=0) - wins[second].mean(axis=0)
        row = pairs.loc[(first, second)]
        assert row.difference == pytest.approx(difference.mean())
        half = Z_95 * difference.std(ddof=1) / np.sqrt(deals)
        assert (row.ci_low, row.ci_high) == pytest.approx(
            (difference.mean() - half, difference.mean() + half)
        )
        single = wins[first][0] - wins[second][0]
        assert row.unrotated_ci_half_width == pytest.approx(
            Z_95 * np.sqrt(single.var(ddof=1) / (len(LINEUP) * deals))
        )


def test_strategy_win_rates_pool_every_seating(rotated: Path) -> None:
    loaded = zooanalysis.load_run(rotated)
    by_strategy = loaded.win_rates("strategy")
    assert set(by_strategy.index) == set(LINEUP)
    assert (by_strategy["n"] == 1500 * len(LINEUP)).all()
    by_seat = loaded.win_rates("seat")
    assert (by_seat["strategy"] == "(rotated)").all()
    assert (by_seat["n"] == 1500 * len(LINEUP)).all()
    assert loaded.games_played == 1500 * len(LINEUP)
    # each seat pooled over the seatings: the shares of all seats add up to 1 (a deal
    # always has a winner), and so do the strategies', once per seat they hold
    assert by_seat["share"].sum() == pytest.approx(1.0)
    assert (by_strategy["share"] * by_strategy["seats"] / len(LINEUP)).sum() == pytest.approx(1)
    strategies = loaded.table("rotation_strategies").set_index("strategy")
    for name in LINEUP:
        assert by_strategy.loc[name, "share"] == pytest.approx(strategies.loc[name, "win_share"])
    summary = loaded.summary()
    assert "1,500 deals x 3 seatings = 4,500 games" in summary
    assert "Paired comparisons" in summary


def test_rotated_runs_do_not_depend_on_workers(rotated: Path, tmp_path: Path) -> None:
    again = run(tmp_path / "again", "--players", ",".join(LINEUP), "--rotate-seats", "--jobs", "1")
    assert_same_tables(tables_of(rotated), tables_of(again))


def test_rotation_tables_load_as_dataframes(rotated: Path) -> None:
    loaded = zooanalysis.load_run(rotated)
    assert isinstance(loaded.doubt_odds(("doubter_strategy",)), pd.DataFrame)
    assert set(loaded.penalty_points().index) == set(LINEUP)
    assert set(loaded.move_mix().index) == set(LINEUP)


def test_rotated_rows_are_each_seatings_own_game_rows(
    plain_runs: list[Path], tmp_path: Path
) -> None:
    """--rotate-seats --rows keeps one row per deal and seating (column ``rotation``): the
    rows of rotation r are exactly those of an ordinary run of the r-th rotated lineup."""
    out = run(tmp_path / "rows", "--players", ",".join(LINEUP), "--rotate-seats", "--rows")
    rows = zooanalysis.load_run(out).game_rows()
    assert len(rows) == 1500 * len(LINEUP)
    for r, plain in enumerate(plain_runs):
        mine = rows[rows["rotation"] == r].drop(columns="rotation").reset_index(drop=True)
        theirs = zooanalysis.load_run(plain).game_rows().reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, theirs, check_dtype=False)


def test_rotated_runs_stop_when_every_reported_rate_is_sure(tmp_path: Path) -> None:
    def widest(path: Path) -> float:
        loaded = zooanalysis.load_run(path)
        rates = pd.concat([loaded.win_rates("seat"), loaded.win_rates("strategy")])
        share = (rates["ci_high"] - rates["ci_low"]) / 2
        either = (rates["won_or_shared_ci_high"] - rates["won_or_shared_ci_low"]) / 2
        return float(max(share.max(), either.max()))

    base = [
        "--players",
        ",".join(LINEUP),
        "--rotate-seats",
        "--batch-size",
        "400",
        "--seed",
        "6",
        "--no-progress",
    ]
    out = tmp_path / "until"
    assert cli.main(["run", *base, "--until-ci", "0.02", "--out", str(out)]) == 0
    deals = zooanalysis.load_run(out).games
    assert widest(out) <= 0.02
    shorter = tmp_path / "shorter"
    assert cli.main(["run", *base, "--games", str(deals - 400), "--out", str(shorter)]) == 0
    assert widest(shorter) > 0.02


def test_seat_intervals_cover_the_per_deal_interval(
    rotated: Path, plain_runs: list[Path]
) -> None:
    """The seatings of a deal share its cards: a seat's share over the rotations gets an
    interval from per-deal means too, and the reported interval covers both."""
    shares = []
    for plain in plain_runs:
        rows = zooanalysis.load_run(plain).game_rows().sort_values("game")
        scores = rows[[f"scores_{seat}" for seat in range(len(LINEUP))]].to_numpy()
        won = scores == scores.min(axis=1, keepdims=True)
        shares.append(won / won.sum(axis=1, keepdims=True))
    per_deal = np.mean(shares, axis=0)  # deals x seats
    loaded = zooanalysis.load_run(rotated)
    table = loaded.table("rotation_seats").set_index("seat")
    rates = loaded.win_rates("seat")
    deals = per_deal.shape[0]
    for seat in range(len(LINEUP)):
        mean = per_deal[:, seat].mean()
        half = Z_95 * per_deal[:, seat].std(ddof=1) / np.sqrt(deals)
        assert table.loc[seat, "win_share"] == pytest.approx(mean)
        assert (table.loc[seat, "ci_low"], table.loc[seat, "ci_high"]) == pytest.approx(
            (mean - half, mean + half)
        )
        row = rates.loc[seat + 1]
        assert row.share == pytest.approx(mean)
        assert row.ci_low <= min(mean - half, row.ci_low) + 1e-12
        assert row.ci_high >= mean + half - 1e-12


def test_a_mirror_lineup_rotated_prints_no_ratio_it_cannot_have(tmp_path: Path) -> None:
    """One strategy in every seat takes exactly the fair share of every deal over the
    seatings, so its rotated variance is 0 and the summary says the ratio is not defined."""
    out = run(tmp_path / "mirror", "--players", "cautious*3", "--rotate-seats")
    loaded = zooanalysis.load_run(out)
    row = loaded.table("rotation_strategies").set_index("strategy").loc["cautious"]
    assert row.win_share == pytest.approx(1 / 3)
    assert row.variance_per_deal == pytest.approx(0.0, abs=1e-12)
    text = loaded.summary()
    assert "variance reduction not defined: it holds every seat" in text
    assert "nan" not in text
