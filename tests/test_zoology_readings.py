"""Zoology's readings of "at any time" and of a shared victory (docs/rules-decisions.md,
Zoology #9, #10 and #14), each on a scripted table, plus the old readings as settings.

Guessing at any time is a race: "In rare cases, players might make a correct guess
simultaneously. All those players take 2 victory point tokens". In a free-guess window the
tokens go down from the player after the asker, clockwise; the first right guess scores 2 and
ends the window, and a later ready guesser is simultaneous only with
``simultaneous_guess_chance``.
"""

from __future__ import annotations

import csv
import hashlib
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_zoology_engine import RULES, Scripted, Table, askers, check_record, guess_summary

from zooanalysis.games.zoology import engine
from zooanalysis.games.zoology.analysis import void_questions
from zooanalysis.games.zoology.batch import make_batch
from zooanalysis.games.zoology.data import (
    DEFAULT_ANIMALS,
    DEFAULT_SOURCES,
    REGIONS,
    load_animals,
    predicate_matches,
)
from zooanalysis.games.zoology.engine import PHASE_FREE, PHASE_SECOND, play_game
from zooanalysis.games.zoology.rules import BOARD_COMBINATIONS, ZoologySettings, board_label

RACE = replace(RULES, players=3, max_rounds=1, simultaneous_guess_chance=0.0)


def test_the_first_right_guess_wins_the_race_and_the_next_waits_for_the_second_chance(
    monkeypatch,
) -> None:
    """Seats 0 and 1 both know their animal in the window after seat 2's question (race order
    0, 1, 2). Seat 0's token is down first: 2 points, and the second chance begins at once;
    seat 1 kept its token and scores 1 with it, in turn order from the first player."""
    table = Table(monkeypatch)
    players = [
        Scripted(table, free={(0, 3): "right"}),
        Scripted(table, free={(0, 3): "right"}, second={0: ["right"]}),
        Scripted(table, second={0: ["wrong"]}),
    ]
    record = play_game(RACE, players, seed=31)
    assert record.turns == 3
    assert guess_summary(record) == [
        (0, PHASE_FREE, True),
        (1, PHASE_SECOND, True),
        (2, PHASE_SECOND, False),
    ]
    assert record.points == [2, 1, 0]
    assert record.window_right == [1]
    assert all(not p.second.get(0) for p in players)


def test_the_race_starts_with_the_player_after_the_asker(monkeypatch) -> None:
    """The window after seat 0's second question (the 4th of the round): the race order is
    1, 2, 0, so seat 1 is quicker than seat 0 although seat 0 is the round's first player."""
    table = Table(monkeypatch)
    players = [
        Scripted(table, free={(0, 4): "right"}, second={0: ["right"]}),
        Scripted(table, free={(0, 4): "right"}),
        Scripted(table, second={0: ["wrong"]}),
    ]
    record = play_game(RACE, players, seed=32)
    assert askers(record, 0) == [0, 1, 2, 0]
    assert guess_summary(record)[0] == (1, PHASE_FREE, True)
    assert record.points == [1, 2, 0]
    free_calls = [o.seat for free, o in [(f, o) for f, o in table.calls] if free]
    assert free_calls[-3:] == [1, 2, 0]  # everyone decides, in race order


def test_a_wrong_guess_before_the_right_one_stays_and_the_later_guesser_keeps_its_token(
    monkeypatch,
) -> None:
    """Race order 0, 1, 2: seat 0's wrong token is down first (the animal is removed), seat 1
    is right; seat 2, ready with a wrong guess, never placed it and guesses in the second
    chance instead."""
    table = Table(monkeypatch)
    players = [
        Scripted(table, free={(0, 3): "wrong"}),
        Scripted(table, free={(0, 3): "right"}),
        Scripted(table, free={(0, 3): "wrong"}, second={0: ["wrong"]}),
    ]
    record = play_game(RACE, players, seed=33)
    assert guess_summary(record) == [
        (0, PHASE_FREE, False),
        (1, PHASE_FREE, True),
        (2, PHASE_SECOND, False),
    ]
    assert record.points == [0, 2, 0]
    check_record(RACE, record)


def test_every_guess_of_a_window_is_simultaneous_with_chance_one(monkeypatch) -> None:
    """``simultaneous_guess_chance = 1`` is the old reading: every right guess of the window
    scores 2 (and every wrong one is placed)."""
    table = Table(monkeypatch)
    players = [
        Scripted(table, free={(0, 3): "right"}),
        Scripted(table, free={(0, 3): "wrong"}),
        Scripted(table, free={(0, 3): "right"}),
    ]
    rules = replace(RACE, simultaneous_guess_chance=1.0)
    record = play_game(rules, players, seed=34)
    assert guess_summary(record) == [
        (0, PHASE_FREE, True),
        (1, PHASE_FREE, False),
        (2, PHASE_FREE, True),
    ]
    assert record.points == [2, 0, 2]
    assert record.window_right == [2]


def test_a_simultaneous_right_guess_comes_with_the_set_chance(monkeypatch) -> None:
    """Two ready right guessers in a row: the second scores 2 as well with probability
    ``simultaneous_guess_chance`` (one draw per later guesser), else 1 in the second chance."""
    chance, games = 0.3, 600
    shared = 0
    for game in range(games):
        table = Table(monkeypatch)
        players = [
            Scripted(table, free={(0, 3): "right"}),
            Scripted(table, free={(0, 3): "right"}, second={0: ["right"]}),
            Scripted(table, second={0: ["wrong"]}),
        ]
        rules = replace(RACE, simultaneous_guess_chance=chance)
        record = play_game(rules, players, seed=35, game_index=game)
        assert record.points[0] == 2 and record.points[1] in (1, 2)
        shared += record.points[1] == 2
        assert record.window_right == [record.points[1]]
    sigma = math.sqrt(chance * (1 - chance) / games)
    assert abs(shared / games - chance) < 4 * sigma


@pytest.mark.parametrize(("reading", "winners"), [("reached", [0, 1]), ("most_points", [0])])
def test_everyone_who_reaches_the_points_to_win_in_one_window_shares_the_win(
    monkeypatch, reading, winners
) -> None:
    """Rulebook: "In rare cases, players might make a correct guess simultaneously. All those
    players take 2 victory point tokens ... This is the only situation that may lead to a
    share of victory!" and "Once a player reaches 5 or more points, the game ends
    immediately. That player is declared the winner!"

    3 points to win. Round 0: seat 0 right in the window (2), seat 1 right in the second
    chance (1). Round 1: seats 1 and 0 right at the same moment (race order 1, 2, 0): 3 and 4
    points, both past 3, and the game ends at once. Both win ("reached"); under the old
    reading ("most_points") only seat 0."""
    table = Table(monkeypatch)
    players = [
        Scripted(table, free={(0, 3): "right", (1, 3): "right"}),
        Scripted(table, free={(1, 3): "right"}, second={0: ["right"]}),
        Scripted(table, second={0: ["wrong"]}),
    ]
    rules = replace(
        RULES, players=3, points_to_win=3, simultaneous_guess_chance=1.0, winners=reading
    )
    record = play_game(rules, players, seed=36)
    assert record.rounds == 2 and record.end_reason == engine.END_POINTS
    assert record.points == [4, 3, 0]
    assert record.winners == winners
    assert record.window_right == [1, 2]
    check_record(rules, record)


def test_shared_wins_agree_between_rows_and_counts() -> None:
    """With many simultaneous finishes, every game's winners from its rows (``row_wins``,
    read from ``row_standing``) add up to the counted wins, and under "reached" more seats
    win than under "most_points" on the same deals."""
    from zooanalysis.games.zoology.game import GAME

    lineup = [s.player for s in engine.lineup("curious,bayes,curious,bayes,curious,bayes")]
    wins = {}
    for reading in ("reached", "most_points"):
        rules = replace(
            RULES, players=6, points_to_win=3, simultaneous_guess_chance=1.0, winners=reading
        )
        result = make_batch(rules, lineup, with_rows=True)(8, 300)
        flags = GAME.row_wins(result)
        assert flags.sum(axis=0).tolist() == result["wins"].tolist()
        if reading == "reached":
            assert (flags == (result["row_points"] >= 3)).all()
        wins[reading] = int(result["wins"].sum())
    assert wins["reached"] > wins["most_points"] > 300


@pytest.mark.parametrize("chance", [0.0, 0.05, 1.0])
def test_invariants_hold_for_any_race_chance(chance) -> None:
    rules = replace(RULES, simultaneous_guess_chance=chance)
    for game in range(6):
        check_record(rules, play_game(rules, engine.lineup("curious*2,bayes*2"), 41, game))


def test_a_run_reports_how_often_right_free_guesses_are_shared() -> None:
    """The run's ``free_windows`` table and ``shared_free_guesses()``: windows with a right
    guess by how many scored 2 in them (shares with 95% CI); rare with the default chance,
    always one with chance 0."""
    import zooanalysis

    lineup = "curious,curious,bayes,bayes,curious,bayes"
    run = zooanalysis.simulate("zoology", players=lineup, games=800, jobs=1, seed=5)
    shared = run.shared_free_guesses()
    assert shared["n"].nunique() == 1 and shared["rate"].sum() == pytest.approx(1.0)
    n = int(shared["n"].iloc[0])
    assert n > 800  # most games have several rounds that end with a right guess
    several = shared.loc[shared.index > 1, "rate"].sum()
    assert 0 < several < 0.2  # 6 players often know at once, yet only the chance shares
    assert "Right free guesses shared" in run.summary()
    never = zooanalysis.simulate(
        "zoology",
        players=lineup,
        games=300,
        jobs=1,
        seed=5,
        settings={"simultaneous_guess_chance": 0.0},
    )
    alone = never.shared_free_guesses()
    assert alone.loc[1, "rate"] == 1.0 and (alone.loc[alone.index > 1, "rate"] == 0).all()


@pytest.mark.parametrize(
    ("table", "key", "fragment"),
    [
        ({"simultaneous_guess_chance": 1.5}, "simultaneous_guess_chance", "from 0 to 1"),
        ({"simultaneous_guess_chance": "rare"}, "simultaneous_guess_chance", "from 0 to 1"),
        ({"winners": "highest"}, "winners", "reached, most_points"),
    ],
)
def test_reading_settings_are_checked(table, key, fragment) -> None:
    from zooanalysis.errors import SettingsError
    from zooanalysis.games.zoology.rules import settings_from_table

    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == key and fragment in str(error.value)


# --- the data: one basis for every value, and cards that mean something on their boards ---

BEFORE = Path(__file__).resolve().parent / "data" / "zoology-before-readings"
"""The animal table and question deck as they were before these readings."""


def shipped() -> dict[str, dict[str, object]]:
    animals = load_animals(DEFAULT_ANIMALS)
    return {
        column: dict(zip(animals.ids, animals.columns[column], strict=True))
        for column in animals.columns
    }


def test_walking_on_two_legs_living_with_people_and_speeds_on_one_basis() -> None:
    value = shipped()
    two_legs = {a for a, v in value["walks_on_two_legs"].items() if v}
    assert two_legs == {"chicken", "barn_owl", "ostrich", "bald_eagle", "emu", "kangaroo"}
    assert value["legs"]["gorilla"] == 2 and value["legs"]["orangutan"] == 2  # legs they have
    assert value["domesticated"]["honey_bee"] is False
    # speeds: on land unless it flies (level flight) or cannot leave the water
    assert value["top_speed_kmh"]["alligator"] < value["top_speed_kmh"]["hippo"]
    assert value["top_speed_kmh"]["bald_eagle"] < 100  # not its dive
    rules = ZoologySettings()
    card = [q.id for q in rules.questions].index("two_legs")
    question = rules.questions[card]
    assert question.where == "walks_on_two_legs"

    def best(among: list[str]) -> str:
        index = [rules.animals.ids.index(a) for a in among]
        return among[int(np.argmax(rules.scores[card, index]))]

    assert best(["gorilla", "chicken", "horse"]) == "chicken"
    assert best(["orangutan", "kangaroo", "cow"]) == "kangaroo"


def test_every_corrected_value_has_its_source() -> None:
    """``sources.csv`` holds the table's values, each with a URL, and every value that differs
    from the table before these readings (or a new column's value that is not the obvious
    default) is listed there."""
    with DEFAULT_SOURCES.open(encoding="utf-8") as handle:
        sources = list(csv.DictReader(handle))
    value = shipped()
    listed = set()
    for row in sources:
        assert row["source"].startswith(("https://", "http://")) and row["basis"]
        table_value = value[row["column"]][row["id"]]
        if isinstance(table_value, bool):
            assert str(table_value).lower() == row["value"], row
        else:
            assert table_value == float(row["value"]), row
        listed.add((row["id"], row["column"]))
    before = load_animals(BEFORE / "animals.csv")
    old = {c: dict(zip(before.ids, before.columns[c], strict=True)) for c in before.columns}
    changed = {
        (animal, column)
        for column in old
        for animal in old[column]
        if old[column][animal] != value[column][animal]
    }
    assert changed and changed <= listed
    # the new column: the apes and the hummingbird are the answers someone might doubt
    assert {("gorilla", "walks_on_two_legs"), ("orangutan", "walks_on_two_legs")} <= listed
    assert ("hummingbird", "walks_on_two_legs") in listed


@pytest.mark.parametrize("regions", BOARD_COMBINATIONS, ids=board_label)
def test_every_dealt_card_means_something_on_its_boards(regions) -> None:
    """With ``void_questions = "leave_out"`` every card with a condition that is dealt has an
    animal on the boards that meets it; the cards left out are exactly those that have none;
    ``"keep"`` deals all 70."""
    rules = ZoologySettings(regions=regions)
    board = rules.board()
    dealt = set(rules.deck().tolist())
    for card, question in enumerate(rules.questions):
        meaningful = predicate_matches(rules.animals, question)[board].any()
        assert (card in dealt) == bool(meaningful), question.id
    assert len(replace(rules, void_questions="keep").deck()) == 70


def test_the_void_cards_of_the_primary_board_are_the_six_and_are_never_played() -> None:
    rules = ZoologySettings()
    void = [rules.questions[c].id for c in rules.void_cards()]
    assert void == ["rainforest", "wetland", "desert", "mountains", "scales", "spots"]
    table = void_questions(rules)
    assert table.index[table["void_on_primary"]].tolist() == void
    assert table.loc["desert", "asia"] == 1 and table.loc["desert", "primary"] == 0
    assert "primary+asia" not in table.loc["desert", "void_on"].split(", ")
    assert not table.loc["forest", "void_on"]
    assert ZoologySettings(regions=tuple(REGIONS)).void_cards() == ()
    lineup = [s.player for s in engine.lineup("curious,curious,bayes,bayes")]
    plays = make_batch(rules, lineup, False)(4, 200)["question_plays"]
    assert (
        plays[list(rules.void_cards())].sum() == 0
        and (np.delete(plays, rules.void_cards()) > 0).all()
    )
    kept = make_batch(replace(rules, void_questions="keep"), lineup, False)(4, 200)
    assert (kept["question_plays"][list(rules.void_cards())] > 0).all()


def test_a_deck_too_small_for_the_hands_names_the_cards_left_out() -> None:
    from zooanalysis.errors import SettingsError
    from zooanalysis.games.zoology.rules import settings_from_table

    with pytest.raises(SettingsError, match="6 match no animal") as error:
        settings_from_table({"players": 6, "hand_size": 11})
    assert error.value.key == "hand_size"
    settings_from_table({"players": 6, "hand_size": 11, "void_questions": "keep"})
    with pytest.raises(SettingsError, match="leave_out, keep"):
        settings_from_table({"void_questions": "drop"})


PINNED_KEYS = (
    "wins", "sole_wins", "points_sum", "points_from", "guesses", "right_guesses",
    "first_guesses", "first_right", "rounds_hist", "turns_hist", "end_reasons", "triggers",
    "question_plays", "animal_held", "animal_found", "confusions",
)  # fmt: skip


@pytest.mark.parametrize(
    ("players", "regions", "lineup", "seed", "games", "pinned"),
    [
        (4, (), "curious,curious,bayes,bayes", 11, 150, "3df175a9cbc06a57"),
        (6, tuple(REGIONS), "bayes*3,curious*3", 12, 60, "37719b627b54761c"),
    ],
    ids=["4p", "6p-all-boards"],
)
def test_the_old_readings_play_exactly_the_games_they_played(
    players, regions, lineup, seed, games, pinned
) -> None:
    """Every simultaneous, the most points winning, void cards kept, on the data files as they
    were: the kernel plays, count for count, what it played before these readings (digests
    taken on commit d95dbc7, re-taken on 257c2dd when votes moved to one uniform per voter:
    a new random stream, the same vote distribution, see benchmarks/stream_check.py)."""
    old = ZoologySettings(
        players=players,
        regions=regions,
        simultaneous_guess_chance=1.0,
        winners="most_points",
        void_questions="keep",
        animals_file=str(BEFORE / "animals.csv"),
        questions_file=str(BEFORE / "questions.toml"),
    )
    strategies = [s.player for s in engine.lineup(lineup)]
    totals = make_batch(old, strategies, False)(seed, games)
    h = hashlib.sha256()
    for key in PINNED_KEYS:
        h.update(np.ascontiguousarray(totals[key], dtype=np.int64).tobytes())
    assert h.hexdigest()[:16] == pinned


def test_the_rulebook_scenario_states_every_reading() -> None:
    """``simulations/zoology-rulebook.toml`` names the readings at their defaults."""
    import tomllib

    from zooanalysis.games.zoology.rules import settings_from_table

    path = Path(__file__).resolve().parent.parent / "simulations" / "zoology-rulebook.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8"))["settings"]
    assert table["simultaneous_guess_chance"] == 0.05 and table["winners"] == "reached"
    assert table["void_questions"] == "leave_out"
    assert settings_from_table(table) == ZoologySettings()
