"""Zoology's bounded-rational players, ``bounded`` and ``eliminator``: hand-computed votes
and strikes, their parameters, and a perfect ``bounded`` player being exactly ``bayes``.

Both engines agreeing on them is in ``test_zoology_engines_agree.py``; that they never read
their own animal, in ``test_zoology_no_peeking.py``."""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis import cli
from zooanalysis.errors import UserError
from zooanalysis.games.zoology.game import GAME
from zooanalysis.games.zoology.rules import ZoologySettings
from zooanalysis.games.zoology.strategies import eliminate, misread_votes, pick_fewest
from zooanalysis.rng import game_stream
from zooanalysis.strategy_spec import parse_lineup

RULES = ZoologySettings(players=3)


def animal(animal_id: str) -> int:
    return RULES.animals.ids.index(animal_id)


def card(question_id: str) -> int:
    return [q.id for q in RULES.questions].index(question_id)


def totals_of(lineup: str, rules: ZoologySettings, games: int = 300) -> dict:
    players = parse_lineup(lineup, GAME.strategies)
    settings = GAME.settings_for_lineup(rules, players)
    return GAME.batch_job(settings, players, False)(8, games)


@pytest.mark.parametrize("mode", ["competitive", "cooperative"])
def test_a_bounded_player_who_forgets_and_misreads_nothing_is_bayes(mode) -> None:
    """Memory of every vote, no misreads: the same posterior, bit for bit, and so the same
    games as bayes (every count equal)."""
    rules = ZoologySettings(mode=mode)
    perfect = totals_of("bounded*4:memory=1000,misread=0", rules)
    bayes = totals_of("bayes*4", rules)
    for key in bayes:
        np.testing.assert_array_equal(perfect[key], bayes[key], err_msg=key)
    forgetful = totals_of("bounded*4:memory=1,misread=0", rules)
    assert not np.array_equal(forgetful["guesses"], bayes["guesses"])


def test_misreads_are_other_candidates_at_the_asked_rate() -> None:
    """4 players, 1 neutral: a voter has 4 candidates, so a misread is one of the 3 it did
    not vote for. The reader's own vote is never misread; nothing is drawn at rate 0."""
    votes = np.array([2, 4, 0, 1], dtype=np.int64)
    reading = np.zeros(4, dtype=np.int64)
    stream = game_stream(1, 0)
    before = stream.copy()
    misread_votes(0.0, 1, votes, 4, 1, stream, reading)
    assert reading.tolist() == votes.tolist() and stream[0] == before[0]
    changed = np.zeros(4)
    seen = [set() for _ in range(4)]
    draws = 20_000
    for _ in range(draws):
        misread_votes(0.3, 1, votes, 4, 1, stream, reading)
        assert reading[1] == votes[1]
        for voter in range(4):
            assert reading[voter] != voter  # still one of that voter's candidates
            if reading[voter] != votes[voter]:
                changed[voter] += 1
                seen[voter].add(int(reading[voter]))
    assert changed[1] == 0
    for voter in (0, 2, 3):
        assert abs(changed[voter] / draws - 0.3) < 0.015  # about 6 standard errors
        assert seen[voter] == set(range(5)) - {voter, int(votes[voter])}


def test_two_players_without_neutrals_have_nothing_to_misread() -> None:
    reading = np.zeros(2, dtype=np.int64)
    votes = np.array([1, 0], dtype=np.int64)
    stream = game_stream(2, 0)
    for _ in range(100):
        misread_votes(0.5, 0, votes, 2, 0, stream, reading)
        assert reading.tolist() == [1, 0]


def test_strikes_by_hand() -> None:
    """Seat 0 (unknown) with a horse (seat 1) and a cat (seat 2), card "heaviest". Seat 1
    voted for seat 0 (chose it over the cat): every animal lighter than the cat by more than
    the tolerance is struck. Seat 2 voted for the horse (passed seat 0 over): every animal
    heavier than the horse by more than the tolerance is struck."""
    q = card("heaviest")
    scores = RULES.scores
    board = RULES.board()
    seats = np.array([-1, animal("horse"), animal("cat")], dtype=np.int64)
    cards = np.array([q], dtype=np.int64)
    heard = np.array([[-1, 0, 1]], dtype=np.int64)  # seat 0's own vote is not read
    excluded = np.zeros(len(RULES.animals), dtype=np.bool_)
    excluded[[animal("horse"), animal("cat")]] = True
    strikes = np.zeros(len(RULES.animals), dtype=np.int64)
    for tolerance in (0.0, 1.0):
        fewest, count = eliminate(
            0,
            cards,
            heard,
            0,
            1,
            seats,
            3,
            np.zeros(1, np.int64),
            0,
            excluded,
            board,
            len(board),
            scores,
            tolerance,
            strikes,
        )
        cat, horse = scores[q, animal("cat")], scores[q, animal("horse")]
        expected = {
            int(x): int(scores[q, x] + tolerance < cat) + int(scores[q, x] > horse + tolerance)
            for x in board
            if not excluded[x]
        }
        assert {int(x): int(strikes[x]) for x in expected} == expected
        assert fewest == min(expected.values())
        assert count == sum(1 for v in expected.values() if v == fewest)
    assert strikes[animal("mouse")] >= 1 and strikes[animal("elephant")] >= 1
    assert strikes[animal("wolf")] == 0
    # forgetting the vote (no question remembered): nothing is struck
    fewest, count = eliminate(
        0,
        cards,
        heard,
        1,
        1,
        seats,
        3,
        np.zeros(1, np.int64),
        0,
        excluded,
        board,
        len(board),
        scores,
        0.0,
        strikes,
    )
    assert fewest == 0 and count == len(board) - 2
    picked = {
        int(pick_fewest(strikes, 0, count, excluded, board, len(board), game_stream(3, g)))
        for g in range(400)
    }
    assert picked == {int(x) for x in board if not excluded[x]}


@pytest.mark.parametrize(
    ("lineup", "fragment"),
    [
        ("bounded:memory=0", "whole number from 1 to 1000"),
        ("bounded:memory=2.5", "whole number"),
        ("bounded:misread=0.6", "from 0 to 0.5"),
        ("eliminator:guess_at=0", "whole number from 1 to 40"),
        ("eliminator:tolerance=-1", "from 0 to 20"),
        ("bounded:tolerance=1", "tolerance"),
    ],
)
def test_bad_parameters_say_what_is_allowed(lineup, fragment) -> None:
    with pytest.raises(UserError, match=fragment):
        parse_lineup(lineup, GAME.strategies)


def test_the_cli_runs_and_lists_them(tmp_path, capsys) -> None:
    assert cli.main(["strategies", "--game", "zoology"]) == 0
    listed = capsys.readouterr().out
    for word in ("bounded", "eliminator", "memory", "misread", "guess_at", "tolerance"):
        assert word in listed
    out = tmp_path / "run"
    code = cli.main(
        [
            "run",
            "--game",
            "zoology",
            "--players",
            "bounded,eliminator,bayes,bayes",
            "--games",
            "200",
            "--out",
            str(out),
            "--no-progress",
            "--jobs",
            "1",
        ]
    )
    assert code == 0 and (out / "manifest.json").is_file()
