"""Team games in sweeps: every cell records its teams, and seat order is answered by team.

Partners win together (Bug House Millionaire, Hodge Podge Dodgeball with 4 players), so their
seats share one result: a sweep must not compare them as if they were independent seats. A
cell's row names its teams (``teams``: ``1&3 2&4``); the report then compares a mirror
match's teams against the fair share ``1/teams`` and mirror seats only across teams, as a
single run's report does.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from zooanalysis import cli
from zooanalysis.report.build import report_document
from zooanalysis.report.seat_order import sweep_seat_order_section
from zooanalysis.seat_order import team_shares
from zooanalysis.stats import wilson_interval
from zooanalysis.sweep import load_cells, sweep_summary
from zooanalysis.sweep_cells import SweepResult
from zooanalysis.teams import cell_teams, parse_teams, teams_text

TEAMS = [(1, 3), (2, 4)]


def cell(lineup: str, shares: list[float], n: int = 2000) -> dict:
    """A cell's row: the seats' win shares (ties split) with a Wilson interval each."""
    row: dict = {"settings.clock_seconds": 115, "lineup": lineup}
    for seat, share in enumerate(shares, start=1):
        low, high = wilson_interval(share * n, n)
        row |= {f"seat{seat}_win_rate": share, f"seat{seat}_win_ci_low": float(low),
                f"seat{seat}_win_ci_high": float(high), f"seat{seat}_win_n": n}  # fmt: skip
    return row


def test_teams_are_written_and_read_back() -> None:
    assert teams_text(TEAMS) == "1&3 2&4" and teams_text(None) == ""
    assert parse_teams("1&3 2&4") == TEAMS
    assert parse_teams("") is None and parse_teams(None) is None
    cells = pd.DataFrame({"teams": ["1&3 2&4", ""]})
    assert cell_teams(cells) == [TEAMS, None]
    assert cell_teams(pd.DataFrame({"x": [1, 2]})) == [None, None], "an older sweep"


def test_a_teams_share_sums_its_partners_with_its_own_interval() -> None:
    seats = pd.DataFrame(
        {"strategy": ["a", "b", "a", "b"], "share": [0.3, 0.2, 0.3, 0.2], "n": 1000},
        index=pd.Index([1, 2, 3, 4], name="seat"),
    )
    table = team_shares(seats, TEAMS)
    assert list(table.index) == ["1 & 3", "2 & 4"]
    assert list(table["strategy"]) == ["a & a", "b & b"]
    assert table["share"].to_numpy() == pytest.approx([0.6, 0.4])
    low, high = wilson_interval(600, 1000)
    assert (table.loc["1 & 3", "ci_low"], table.loc["1 & 3", "ci_high"]) == pytest.approx(
        (float(low), float(high))
    )


def test_a_mirror_match_cell_compares_teams_not_partners() -> None:
    """Team 1 & 3 wins 70% of 2,000 games: each partner holds 35%. By team: 70% against
    the fair 50%, measurably more; the partners are never compared with each other. Read
    as four single seats (no teams), the same cell would compare every seat with 25%."""
    cells = pd.DataFrame([cell("climber,climber,climber,climber", [0.35, 0.15, 0.35, 0.15])])
    lineups = [["climber"] * 4]
    section = sweep_seat_order_section(cells, ["settings.clock_seconds"], [1, 2, 3, 4],
                                       lineups, [TEAMS])  # fmt: skip
    table = section.tables[0].data
    assert list(table["seat"]) == ["team 1 & 3", "team 2 & 4"]
    assert set(table["versus"]) == {"fair share"}
    assert table["difference"].to_numpy() == pytest.approx([0.2, -0.2])
    assert list(table["verdict"]) == ["more", "less"]
    text = section.findings[0].text
    assert "team 1 & 3, team 2 & 4" in text and "partners win together" in text
    alone = sweep_seat_order_section(cells, ["settings.clock_seconds"], [1, 2, 3, 4], lineups)
    assert list(alone.tables[0].data["seat"]) == ["1", "2", "3", "4"]


def test_mirror_seats_are_compared_only_across_teams() -> None:
    """climber holds seats 1 and 2 (two teams): compared; fast holds 3 and 4, likewise. In
    the second cell each strategy holds one team: partners only, nothing to compare."""
    cells = pd.DataFrame([
        cell("climber,climber,fast,fast", [0.3, 0.2, 0.3, 0.2]),
        cell("climber,fast,climber,fast", [0.3, 0.2, 0.3, 0.2]),
    ])  # fmt: skip
    cells["settings.clock_seconds"] = [60, 115]
    lineups = [["climber", "climber", "fast", "fast"], ["climber", "fast", "climber", "fast"]]
    section = sweep_seat_order_section(cells, ["settings.clock_seconds"], [1, 2, 3, 4],
                                       lineups, [TEAMS, TEAMS])  # fmt: skip
    table = section.tables[0].data
    assert list(zip(table["seat"], table["versus"], strict=True)) == [
        ("1", "seat 2"), ("3", "seat 4")
    ]
    assert set(table["cell"]) == {"clock_seconds = 60"}
    # without teams the second cell's partners (1 & 3, 2 & 4) would be compared
    alone = sweep_seat_order_section(cells, ["settings.clock_seconds"], [1, 2, 3, 4], lineups)
    assert ("1", "seat 3") in set(zip(alone.tables[0].data["seat"],
                                      alone.tables[0].data["versus"], strict=True))  # fmt: skip
    only_partners = sweep_seat_order_section(cells.iloc[1:], ["settings.clock_seconds"],
                                             [1, 2, 3, 4], lineups[1:], [TEAMS])  # fmt: skip
    assert only_partners.findings[0].text.startswith("Seat order: this sweep cannot tell. "
                                                     "Partners share one result")


def test_a_bug_house_sweep_records_its_teams_and_reports_team_balance(tmp_path: Path) -> None:
    sweep = tmp_path / "bug-house.toml"
    sweep.write_text(
        'game = "bug-house"\n[run]\nplayers = "climber*4"\ngames = "400"\nseed = 3\n'
        '[grid]\n"settings.partner_talk" = ["nothing", "need"]\n',
        encoding="utf-8",
    )
    out = tmp_path / "sweep"
    assert cli.main(["sweep", str(sweep), "--out", str(out), "--jobs", "1"]) == 0
    cells, _ = load_cells(out)
    assert list(cells["teams"]) == ["1&3 2&4"] * 2
    assert SweepResult.load(out).teams == [TEAMS, TEAMS]
    assert "Partners win together (seats 1 & 3, seats 2 & 4)" in sweep_summary(out)
    document = report_document(out)
    section = next(s for s in document.sections if s.title == "Does seat order matter?")
    table = section.tables[0].data
    assert list(table["seat"]) == ["team 1 & 3", "team 2 & 4"] * 2, "teams, never partners"
    for where, part in table.groupby("cell"):
        row = cells[cells["settings.partner_talk"] == where.split(" = ")[1]].iloc[0]
        team = row["seat1_win_rate"] + row["seat3_win_rate"]
        assert part["difference"].iloc[0] == pytest.approx(team - 0.5)
