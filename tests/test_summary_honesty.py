"""Statistics honesty of the summaries' text (issue "Statistics are honest"): every rate a
summary prints has its 95% Wilson interval and n, and a finding names a winner only when
the intervals separate it. Hand-computed counts; the Wilson bounds checked against the
formula written out here."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from zooanalysis.games.chai_tea_jazz.analysis import choice_lines, easiest_line
from zooanalysis.games.dodgeball.analysis import event_line
from zooanalysis.games.lucky_lions.analysis import shown_card_line
from zooanalysis.games.short_zoot_suit.analysis import pile_rank_line
from zooanalysis.games.zoology.analysis import suspense_lines
from zooanalysis.stats import rate_table


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval, written out from its textbook form."""
    z = 1.959963984540054
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials**2))
    return centre - half, centre + half


def declared(rows: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    """A declarer-points table (contract -> mean, low, high), n = 100 rounds each."""
    return pd.DataFrame(
        {name: {"points_mean": m, "points_ci_low": lo, "points_ci_high": hi, "points_n": 100}
         for name, (m, lo, hi) in rows.items()}
    ).T


def test_chai_easiest_contract_is_named_only_when_separated() -> None:
    apart = declared({"Trump": (40.0, 39.0, 41.0), "Joker": (45.0, 44.0, 46.0)})
    assert easiest_line(apart) == "Easiest to make: Joker (its interval above every other's)"
    # Joker's interval overlaps Slalom's but not Trump's: no winner, both named with intervals
    close = declared(
        {"Trump": (40.0, 39.0, 41.0), "Slalom": (44.5, 43.5, 45.5), "Joker": (45.0, 44.0, 46.0)}
    )
    line = easiest_line(close)
    assert line == (
        "Easiest to make: no measurable difference between Joker 45.00 [44.00, 46.00], "
        "Slalom 44.50 [43.50, 45.50]"
    )
    assert "Trump" not in line


def test_chai_contract_choices_print_every_share_with_its_interval_and_n() -> None:
    # 60 rounds of the contract: 6 forced, 30 uncontested, 24 bet; first pick 25 of 200 phases
    counts = pd.Series({"forced": 6, "uncontested": 30, "bet": 24, "offer": 0})
    row = {}
    for how, successes in counts.items():
        table = rate_table([successes], [60]).iloc[0]
        row |= {f"{how}_{column}": table[column] for column in ("rate", "ci_low", "ci_high", "n")}
    first = rate_table([25], [200]).iloc[0]
    row |= {f"first_pick_{column}": first[column] for column in ("rate", "ci_low", "ci_high", "n")}
    lines = choice_lines("Trump", pd.Series(row), offers=False)
    low, high = wilson(6, 60)
    assert f"forced 10.0% [{100 * low:.1f}%, {100 * high:.1f}%]" in lines[0]
    assert (low, high) == pytest.approx((0.0466, 0.2015), abs=5e-5)
    low, high = wilson(24, 60)
    assert f"bet 40.0% [{100 * low:.1f}%, {100 * high:.1f}%]" in lines[0]
    assert lines[0].endswith("(n=60 rounds)") and "offer" not in lines[0]
    low, high = wilson(25, 200)
    assert lines[1].strip() == (
        f"named by the first pick 12.5% [{100 * low:.1f}%, {100 * high:.1f}%] (n=200)"
    )
    assert "offer 0.0% [0.0%, " in choice_lines("Trump", pd.Series(row), offers=True)[0]


def test_dodgeball_share_of_rounds_with_any_has_its_interval_and_n() -> None:
    # 200 rounds, 87 with a block: mean 0.56 blocks per round [0.50, 0.62]
    low, high = wilson(87, 200)
    row = pd.Series({"mean": 0.56, "ci_low": 0.5, "ci_high": 0.62, "n": 200,
                     "rounds_with_any": 87 / 200, "any_ci_low": low, "any_ci_high": high})
    assert event_line("blocks", row) == (
        f"  blocks   0.56 [0.50, 0.62]; 43.5% [{100 * low:.1f}%, {100 * high:.1f}%] (n=200)"
    )
    assert (round(100 * low, 1), round(100 * high, 1)) == (36.8, 50.4)


def test_zoology_suspense_lines_give_the_mean_and_the_shares_their_intervals() -> None:
    # 10 games: 4 with no lead change, 4 with 1, 2 with 3 (mean 1.0, sample sd 1.1547)
    lead = pd.Series({0: 4, 1: 4, 3: 2})
    # 8 games won alone: settled after 50% (3), 75% (2), 90% (3) of the turns
    settled = pd.Series({50: 3, 75: 2, 90: 3})
    lines = suspense_lines(lead, settled)
    half = 1.959963984540054 * math.sqrt((4 * 1 + 2 * 9 - 10 * 1.0) / 9 / 10)
    none_low, none_high = wilson(4, 10)
    assert lines[1] == (
        f"  lead changes per game        mean 1.00 [{1 - half:.2f}, {1 + half:.2f}], none in "
        f"40.0% [{100 * none_low:.1f}%, {100 * none_high:.1f}%] (n=10) of games"
    )
    late_low, late_high = wilson(3, 8)
    assert lines[2] == (
        "  winner leads for good from   median 75% of the turns; in the last 20% in "
        f"37.5% [{100 * late_low:.1f}%, {100 * late_high:.1f}%] (n=8) of games won alone"
    )


def test_short_zoot_suit_pile_rank_line_gives_the_drawn_share_its_interval_and_n() -> None:
    # 40 aces put in piles over 80 rounds, 25 of them drawn back; 30 rounds held an ace
    low, high = wilson(25, 40)
    row = pd.Series({"rank_name": "A", "cards_mean": 0.5, "cards_ci_low": 0.4,
                     "cards_ci_high": 0.6, "random_cards": 0.385, "drawn_rate": 25 / 40,
                     "drawn_ci_low": low, "drawn_ci_high": high, "drawn_n": 40,
                     "drawn_effective_n": 40.0, "drawn_clustered": False,
                     "points_mean": 9.5, "points_ci_low": 9.0, "points_ci_high": 10.0,
                     "points_n": 30})
    assert pile_rank_line(row, 20) == (
        f"   A  0.500 [0.400, 0.600] (0.385), drawn back 62.5% [{100 * low:.1f}%, "
        f"{100 * high:.1f}%] (n=40), round points 9.50 [9.00, 10.00] (n=30)"
    )
    assert (round(100 * low, 1), round(100 * high, 1)) == (47.0, 75.8)
    # clustered by game (an effective n of 20 cards, say): the n says how many games
    low, high = wilson(12.5, 20)
    row.update({"drawn_ci_low": low, "drawn_ci_high": high, "drawn_effective_n": 20.0,
                "drawn_clustered": True})
    assert pile_rank_line(row, 20) == (
        f"   A  0.500 [0.400, 0.600] (0.385), drawn back 62.5% [{100 * low:.1f}%, "
        f"{100 * high:.1f}%] (n=40 in 20 games), round points 9.50 [9.00, 10.00] (n=30)"
    )


def test_lucky_lions_tied_share_has_its_interval() -> None:
    # a lion shown 50 times in 12 games: won alone 15, tied 20
    won, tied = wilson(15, 50), wilson(20, 50)
    row = pd.Series({"won_rate": 0.3, "won_ci_low": won[0], "won_ci_high": won[1],
                     "tied": 0.4, "tied_ci_low": tied[0], "tied_ci_high": tied[1], "shown": 50,
                     "games": 12, "clustered": True})
    rates = (
        f"  lion           30.0% [{100 * won[0]:.1f}%, {100 * won[1]:.1f}%]  tied 40.0% "
        f"[{100 * tied[0]:.1f}%, {100 * tied[1]:.1f}%]"
    )
    assert shown_card_line("lion", row) == f"{rates} (n=50 shown in 12 games)"
    # a run written before the per-game moments were kept says how it counted
    row["clustered"] = False
    assert shown_card_line("lion", row) == f"{rates} (n=50 shown, counted as independent)"


def test_exploit_summary_gives_the_final_replays_n() -> None:
    from zooanalysis.exploit import exploit_summary

    manifest = {"title": "Hearts", "field": "runs/f", "population": ["safe", "bold"],
                "strategies": ["bold"], "games": 20_000}  # fmt: skip
    row = {"target": "mix", "lineup": None, "strategy": "bold", "best_response": "bold:x=1",
           "share": 0.304, "ci_low": 0.296, "ci_high": 0.311, "target_value": 0.25,
           "target_value_ci_low": 0.25, "target_value_ci_high": 0.25, "gain": 0.054,
           "gain_ci_low": 0.046, "gain_ci_high": 0.061, "games": 8000}  # fmt: skip
    table = pd.DataFrame([row])
    text = exploit_summary(manifest, table, table)
    assert "(30.4% [29.6%, 31.1%] vs 25.0% [25.0%, 25.0%], n=8,000 games): exploitable" in text
    assert "+5.40 points [+4.60, +6.10] (n=8,000 games)" in text


def test_psro_nash_conv_has_its_interval_and_the_fields_games() -> None:
    from types import SimpleNamespace

    from zooanalysis.psro import nash_conv_text

    row = SimpleNamespace(nash_conv=0.0012, nash_conv_ci_low=0.0005, nash_conv_ci_high=0.0021,
                          field_games=98_000)  # fmt: skip
    assert nash_conv_text(row) == "0.120 points [0.050, 0.210] (field of 98,000 games)"
    old = SimpleNamespace(nash_conv=0.0012, field_games=98_000)  # written before the interval
    assert nash_conv_text(old) == "0.120 points (field of 98,000 games)"


def test_hearts_moon_rate_of_a_rotated_run_counts_the_hands_of_every_seating() -> None:
    """Two seatings of 10 hands each, 3 moons in the first and 1 in the second: 4 of 20
    hands (the moon rate divided every seating's moons by the first seating's hands: 4/10)."""
    from zooanalysis.games.hearts.analysis import HeartsRun

    seats = pd.DataFrame({"seat": [0, 1, 0, 1], "rotation": [0, 0, 1, 1],
                          "hands": [10, 10, 10, 10], "moons": [2, 1, 0, 1]})  # fmt: skip
    ends = pd.DataFrame({"reason": ["max_hands", "end_score"] * 2, "games": [0, 2, 1, 1],
                         "rotation": [0, 0, 1, 1]})  # fmt: skip
    hands = pd.DataFrame({"hands": [5], "games": [4]})
    manifest = {"tables": ["seats", "end_reasons", "hands"], "rotate_seats": True,
                "lineup": ["safe", "bold"]}  # fmt: skip
    run = HeartsRun(manifest, {"seats": seats, "end_reasons": ends, "hands": hands})
    assert run.hands_played == 20
    moon = run.moon_rate()
    assert (moon.rate, moon.n) == (0.2, 20)
    assert (moon.ci_low, moon.ci_high) == pytest.approx(wilson(4, 20))
    # a game capped by max_hands in the second seating: 1 of the 4 games, summed over both
    assert run.game_length()["capped"] == 0.25


def test_histogram_summary_adds_up_a_value_listed_once_per_rotation() -> None:
    """Two rotations' histograms of game length, stacked (the stored tables' form): 10 games
    of length 2 and 10 of length 9, listed as 2: 5, 9: 5, 2: 5, 9: 5. The median is the
    lowest value reaching half the games, 2; the 90th percentile is 9."""
    from zooanalysis.results import histogram_summary

    stacked = pd.Series([5, 5, 5, 5], index=[2, 9, 2, 9])
    summary = histogram_summary(stacked)
    assert (summary["median"], summary["p10"], summary["p90"], summary["max"]) == (2, 2, 9, 9)
    assert summary["n"] == 20 and summary["mean"] == pytest.approx(5.5)


def test_big_two_first_player_of_a_rotated_run_counts_every_seating() -> None:
    from zooanalysis.games.big_two.analysis import BigTwoRun

    # two seatings of 10 rounds; the opener went out first in 4 and then 2 of them
    positions = pd.DataFrame({"position": [0, 1, 0, 1], "firsts": [4, 6, 2, 8],
                              "rounds": [10, 10, 10, 10], "rotation": [0, 0, 1, 1]})  # fmt: skip
    seats = pd.DataFrame({"seat": [0, 1, 0, 1], "strategy": ["a", "b", "b", "a"],
                          "rounds": [10, 10, 10, 10], "opener_firsts": [3, 1, 1, 1],
                          "opener_rounds": [5, 5, 5, 5], "rotation": [0, 0, 1, 1]})  # fmt: skip
    manifest = {"tables": ["positions", "seats"], "rotate_seats": True, "lineup": ["a", "b"]}
    run = BigTwoRun(manifest, {"positions": positions, "seats": seats})
    first = run.first_player().loc["position 1"]
    assert (first.rate, first.n) == (0.3, 20)
    assert (first.ci_low, first.ci_high) == pytest.approx(wilson(6, 20))
    assert run.rounds_played == 20
    by_seat = run.opener_by_seat()
    assert list(by_seat["n"]) == [10, 10] and list(by_seat["strategy"]) == ["(rotated)"] * 2
    assert by_seat.loc[1, "rate"] == 0.4


def test_chai_hand_evaluation_names_best_and_worst_only_when_separated() -> None:
    from zooanalysis.games.chai_tea_jazz.report import evaluation_text

    def fit(rows: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
        return pd.DataFrame(
            {k: {"correlation": r, "ci_low": lo, "ci_high": hi, "n": 500}
             for k, (r, lo, hi) in rows.items()}
        ).T

    apart = fit({"Trump": (0.5, 0.45, 0.55), "Under": (0.2, 0.15, 0.25),
                 "Joker": (0.35, 0.3, 0.4)})  # fmt: skip
    assert evaluation_text(apart).endswith(
        "best in Trump 0.50 [0.45, 0.55]; worst in Under 0.20 [0.15, 0.25]."
    )
    # Trump and Joker overlap at the top; Under is still separated at the bottom
    close = fit({"Trump": (0.5, 0.45, 0.55), "Under": (0.2, 0.15, 0.25),
                 "Joker": (0.48, 0.43, 0.53)})  # fmt: skip
    text = evaluation_text(close)
    assert "best in" not in text
    assert (
        "no measurable difference among the best (Trump 0.50 [0.45, 0.55], "
        "Joker 0.48 [0.43, 0.53]); worst in Under 0.20 [0.15, 0.25]." in text
    )


def test_short_zoot_suit_pile_points_name_an_end_only_when_separated() -> None:
    from zooanalysis.games.short_zoot_suit.report import pile_points_text

    def ranks(rows: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
        return pd.DataFrame(
            [{"rank_name": k, "points_mean": m, "points_ci_low": lo, "points_ci_high": hi}
             for k, (m, lo, hi) in rows.items()]
        )

    # 4 and 3 overlap at the top (the finding used to say "a 4 ... worth the most"); 9 is
    # separated at the bottom
    text = pile_points_text(ranks({"3": (10.34, 10.29, 10.38), "4": (10.37, 10.32, 10.42),
                                   "9": (7.83, 7.79, 7.87)}))  # fmt: skip
    assert text.startswith(
        "No measurable difference among the ranks worth the most: a 4 (10.37 [10.32, 10.42] "
        "points), a 3 (10.34 [10.29, 10.38] points); rounds whose draw pile held a 9"
    )
    apart = pile_points_text(ranks({"A": (9.0, 8.9, 9.1), "K": (10.0, 9.9, 10.1)}))
    assert apart.startswith(
        "Rounds whose draw pile held a K (10.00 [9.90, 10.10] points) were worth the most; "
        "rounds whose draw pile held an A (9.00 [8.90, 9.10] points) were worth the least"
    )


def test_hearts_queen_trick_of_a_rotated_run_and_its_finding() -> None:
    """Two seatings: the Queen fell on trick 2 in 6 + 5 hands and on trick 3 in 4 + 5. The
    tables list every trick once per seating (they were not added up: a trick appeared
    twice, and the finding crashed); 11 of 20 against 9 of 20 overlap, so no trick is
    named."""
    from zooanalysis.games.hearts.analysis import HeartsRun
    from zooanalysis.games.hearts.report import queen_trick_text

    tricks = pd.DataFrame({"trick": [1, 2, 1, 2], "hands": [6, 4, 5, 5],
                           "rotation": [0, 0, 1, 1]})  # fmt: skip
    fate = pd.DataFrame({"holder": [0, 0, 0, 0], "taker": [0, 1, 0, 1], "hands": [3, 7, 2, 8],
                         "rotation": [0, 0, 1, 1]})  # fmt: skip
    manifest = {"tables": ["queen_trick", "queen_fate"], "rotate_seats": True,
                "lineup": ["safe", "bold"]}  # fmt: skip
    run = HeartsRun(manifest, {"queen_trick": tricks, "queen_fate": fate})
    table = run.queen_tricks()
    assert list(table.index) == [2, 3] and list(table["hands"]) == [11, 9]
    assert (table.loc[2, "ci_low"], table.loc[2, "ci_high"]) == pytest.approx(wilson(11, 20))
    assert queen_trick_text(table).startswith(
        "No trick is measurably the one the Queen fell on most often: trick 2 55.0%"
    )
    fates = run.queen_fate()
    assert list(fates["hands"]) == [5, 15] and list(fates["rate"]) == [0.25, 0.75]


def test_through_the_zoo_leads_of_a_rotated_run_count_every_seating() -> None:
    """Two seatings of 10 games with a sole winner each, 3 players: the winner's lead in
    the exhibit summed 20 then 40 (per other player: 10 then 20, over 20 games: 1.5). Only
    the last seating was kept (its n, 10 games, and mean 2.0)."""
    from zooanalysis.games.through_the_zoo.analysis import ThroughTheZooRun

    leads = pd.DataFrame({"part": ["1: hearts", "meta scoring"] * 2,
                          "lead_sum": [20, 0, 40, 0], "lead_squares": [60, 0, 200, 0],
                          "games": [10] * 4, "players": [3] * 4,
                          "rotation": [0, 0, 1, 1]})  # fmt: skip
    manifest = {"tables": ["leads"], "rotate_seats": True, "lineup": ["a", "b", "c"],
                "settings": {"zoo": "rulebook"}}  # fmt: skip
    row = ThroughTheZooRun(manifest, {"leads": leads}).exhibit_leads().loc["1: hearts"]
    assert (row["lead"], row["n"]) == (1.5, 20)
    # per other player: squares 60/4 + 200/4 = 65 over 20 games, mean 1.5
    half = 1.959963984540054 * math.sqrt((65 / 20 - 1.5**2) * 20 / 19 / 20)
    assert (row.ci_low, row.ci_high) == pytest.approx((1.5 - half, 1.5 + half))


def test_bug_house_endings_of_a_rotated_run_divide_by_every_seatings_games() -> None:
    """5 deals in the 4 seatings of a 4-player lineup (20 games): shed out 18 times, the
    clock twice. The endings divided by the 5 deals (18 of 5: a ValueError, the summary of
    a rotated run crashed)."""
    from zooanalysis.games.bug_house.analysis import BugHouseRun

    ends = pd.DataFrame({"seat": [0, 1, 0, 2], "reason": ["shed_out", "shed_out", "shed_out",
                         "clock"], "games": [5, 5, 8, 2], "rotation": [0, 1, 2, 3]})  # fmt: skip
    manifest = {"tables": ["ends"], "rotate_seats": True, "games": 5,
                "lineup": ["fast", "climber", "fast", "random"]}  # fmt: skip
    endings = BugHouseRun(manifest, {"ends": ends}).endings("reason")
    assert list(endings["n"]) == [20, 20]
    assert endings.loc["shed_out", "rate"] == 0.9 and endings.loc["clock", "rate"] == 0.1
    assert (endings.loc["clock", "ci_low"], endings.loc["clock", "ci_high"]) == pytest.approx(
        wilson(2, 20)
    )


def test_skill_line_gives_both_win_shares_their_intervals_and_n() -> None:
    from types import SimpleNamespace

    from zooanalysis.skill import skill_line

    row = SimpleNamespace(strategy="bold", gap=0.923, gap_ci_low=0.916, gap_ci_high=0.929,
                          share=0.942, share_ci_low=0.936, share_ci_high=0.948,
                          random_share=0.019, random_ci_low=0.017, random_ci_high=0.021,
                          deals=2000)  # fmt: skip
    assert skill_line(row) == (
        "  bold           +92.3 [+91.6, +92.9]  (its win share 94.2% [93.6%, 94.8%], "
        "random's 1.9% [1.7%, 2.1%], n=2,000 deals)"
    )


def test_compare_findings_give_a_and_b_their_intervals_and_n() -> None:
    from types import SimpleNamespace

    from zooanalysis.report.compare import _value_text

    low, high = wilson(487, 2000)
    row = SimpleNamespace(kind="rate", metric="seat1_win", a=487 / 2000, a_ci_low=low,
                          a_ci_high=high, a_n=2000, b=0.07, b_ci_low=0.06, b_ci_high=0.08,
                          b_n=1000)  # fmt: skip
    assert _value_text(row, "a") == f"24.35% [{100 * low:.2f}%, {100 * high:.2f}%] (n=2,000)"
    assert _value_text(row, "b") == "7.00% [6.00%, 8.00%] (n=1,000)"
    balance = SimpleNamespace(kind="mean", metric="seat_balance", a=0.9866, a_ci_low=0.9768,
                              a_ci_high=0.9963, a_n=20000)  # fmt: skip
    assert _value_text(balance, "a") == "98.66% [97.68%, 99.63%] (n=20,000)"


def test_tournament_ranking_finding_says_when_the_win_share_leader_differs() -> None:
    """A strategy that either wins or comes last: cautious finishes ahead of random in most
    meetings (rated first) while random wins more games (42.0% against 35.5%)."""
    from zooanalysis.report.tournament import _ranking_finding

    ratings = pd.DataFrame({"rank": [1, 2], "strategy": ["cautious", "random"],
                            "rating": [70.0, -19.0], "ci_low": [68.0, -20.0],
                            "ci_high": [72.0, -18.0]})  # fmt: skip
    wins = pd.DataFrame({"share": [0.355, 0.420], "ci_low": [0.348, 0.414],
                         "ci_high": [0.362, 0.426], "n": [24000, 24000]},
                        index=pd.Index(["cautious", "random"], name="strategy"))  # fmt: skip
    text = _ranking_finding(ratings, wins, 24000).text
    assert text.startswith("cautious ranks first")
    assert "But random has the highest win share per seat-game, 42.0% [41.4%, 42.6%] " in text
    level = wins.assign(ci_low=[0.348, 0.350], ci_high=[0.362, 0.430])  # overlapping
    assert "But" not in _ranking_finding(ratings, level, 24000).text


def test_big_two_leads_and_places_of_a_rotated_run_sum_every_seating() -> None:
    """Two seatings: singles led 6 + 4 of 10 + 10 tricks (50%); the rotated tables listed
    every kind once per seating, each divided by both seatings' leads (25% and 20%)."""
    from zooanalysis.games.big_two.analysis import BigTwoRun

    leads = pd.DataFrame({"kind": ["single", "pair"] * 2, "leads": [6, 4, 4, 6],
                          "rotation": [0, 0, 1, 1]})  # fmt: skip
    places = pd.DataFrame({"seat": [0, 0, 0, 0], "place": [0, 1, 0, 1],
                           "rounds": [3, 7, 5, 5], "rotation": [0, 0, 1, 1]})  # fmt: skip
    manifest = {"tables": ["leads", "places"], "rotate_seats": True, "lineup": ["a", "b"]}
    run = BigTwoRun(manifest, {"leads": leads, "places": places})
    table = run.leads()
    assert list(table.index) == ["single", "pair"] and list(table["rate"]) == [0.5, 0.5]
    assert (table.loc["single", "ci_low"], table.loc["single", "ci_high"]) == pytest.approx(
        wilson(10, 20)
    )
    assert list(run.places()["rate"]) == [0.4, 0.6]
