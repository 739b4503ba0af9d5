"""Team games: partners win together, so a team's win is one win, not a tie of its players.

Hodge Podge Dodgeball with 4 players and Chai Tea Jazz with 4 or 6 play in teams; their
``seats`` tables name each seat's team, ``Run.teams`` reads it, and the balance metrics and
the report's words count shared wins between teams.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import zooanalysis
from zooanalysis.balance import balance_metrics, shared_games
from zooanalysis.report.build import report_document
from zooanalysis.seat_order import mirror_groups, mirror_pairs


class TeamTables:
    """A hand-made run of 10 games at 4 seats, teams (1, 3) and (2, 4): team A won 6
    games, team B 3, and 1 game was won by both teams together (all four tied)."""

    games_played = 10

    def __init__(self, teams) -> None:
        self.teams = teams
        self.lineup = ["a", "b", "a", "b"]
        self.table_names = ["seats", "win_ties"]

    def table(self, name: str) -> pd.DataFrame:
        if name == "seats":
            return pd.DataFrame({"seat": range(4), "sole_wins": 0, "team": [0, 1, 0, 1]})
        return pd.DataFrame(
            {
                "seat": [0, 2, 1, 3, 0, 1, 2, 3],
                "winners": [2, 2, 2, 2, 4, 4, 4, 4],
                "games": [6, 6, 3, 3, 1, 1, 1, 1],
            }
        )


def test_a_team_win_is_one_win_and_only_a_win_of_two_teams_is_shared() -> None:
    assert shared_games(TeamTables([(1, 3), (2, 4)])) == 1
    # read as single players, every game has two or more tied winners
    assert shared_games(TeamTables(None)) == 10


@pytest.fixture(scope="module")
def dodgeball(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("dodgeball") / "run"
    # partners holding one strategy each (not the default mirror match): seat order unreadable
    lineup = "dodger,coach,dodger,coach"
    return zooanalysis.simulate("dodgeball", lineup, games=500, seed=6, jobs=1, out=folder)


def test_dodgeball_partners_are_a_team_and_no_match_is_shared(dodgeball) -> None:
    assert dodgeball.teams == [(1, 3), (2, 4)]
    ties = dodgeball.table("win_ties")
    assert set(ties["winners"]) == {2}  # the kernel counts partners as two tied winners
    tie = balance_metrics(dodgeball).set_index("metric").loc["tie"]
    assert tie.label == "Games shared between teams"
    assert tie.value == 0.0 and tie.n == 500  # one team wins every match
    assert tie.ci_high < 0.01
    assert dodgeball.metrics()["balance.tie_value"] == 0.0  # and so in every sweep cell


def test_the_report_speaks_of_teams_not_ties(dodgeball) -> None:
    document = report_document(Path(dodgeball.path))
    found = [*document.findings, *(f for section in document.sections for f in section.findings)]
    texts = {finding.key: finding.text for finding in found}
    assert texts["tie"].startswith(
        "Partners win together (seats 1 & 3, seats 2 & 4): a game one team wins is one win "
        "for that team, not a tie of its players. 0.0% [0.0%, "
    )
    assert "shared between teams" in texts["tie"] and "end in a shared win" not in texts["tie"]
    assert "Partners win together (seats 1 & 3, seats 2 & 4)" in texts["seat_bias"]
    assert "the winning team is ahead of the best other team by" in texts["margin_mean"].lower()
    assert "games with a single winning team, the winning team" in texts["comeback"]
    # dodger holds seats 1 and 3, coach 2 and 4: partners, so seat order cannot be read
    assert texts["seat_order"].startswith("Seat order: this run cannot tell. Partners share")


def test_seat_order_compares_a_strategys_seats_only_across_teams() -> None:
    teams = [(1, 3), (2, 4)]
    seats = pd.DataFrame(
        {"share": [0.30, 0.20, 0.30, 0.20], "n": 1000}, index=pd.Index([1, 2, 3, 4], name="seat")
    )
    assert mirror_groups(["a", "b", "a", "b"], teams) == {}
    assert mirror_groups(["a", "b", "a", "b"]) == {"a": [1, 3], "b": [2, 4]}
    pairs = mirror_pairs(seats, ["a", "a", "b", "b"], teams)
    assert list(zip(pairs["seat"], pairs["versus_seat"], strict=True)) == [(1, 2), (3, 4)]
    assert pairs["difference"].to_numpy() == pytest.approx([0.10, 0.10])
    # four of one strategy: only the four pairs across the teams, never partners
    pairs = mirror_pairs(seats, ["a"] * 4, teams)
    assert sorted(zip(pairs["seat"], pairs["versus_seat"], strict=True)) == [
        (1, 2), (1, 4), (2, 3), (3, 4)
    ]


def test_dodgeball_with_two_players_is_not_a_team_game(tmp_path: Path) -> None:
    run = zooanalysis.simulate(
        "dodgeball", players="dodger,coach", games=200, seed=1, jobs=1, out=tmp_path / "two"
    )
    assert run.teams is None  # each player has a team of one (with a dummy)
    tie = balance_metrics(run).set_index("metric").loc["tie"]
    assert tie.label == "Shared-win (tie) rate" and tie.value == 0.0


@pytest.mark.parametrize(("players", "teams"), [(3, None), (4, [(1, 3), (2, 4)])])
def test_chai_tea_jazz_plays_in_teams_from_four_players(
    players: int, teams, tmp_path: Path
) -> None:
    run = zooanalysis.simulate(
        "chai-tea-jazz", players=",".join(["greedy"] * players), games=60, seed=1, jobs=1,
        out=tmp_path / "run",
    )  # fmt: skip
    assert run.teams == teams
    tie = balance_metrics(run).set_index("metric").loc["tie"]
    assert tie.value == 0.0  # the rulebook's tie-break always leaves one winning side
