"""Zoology's rules in the reference engine: the rulebook's example, hand-computed votes and
beliefs, and invariants over many random games and settings."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import rng as rng_module
from zooanalysis.games.zoology import engine
from zooanalysis.games.zoology.beliefs import add_evidence, cast_votes, champion_of, posterior
from zooanalysis.games.zoology.engine import (
    END_COOPERATIVE,
    END_POINTS,
    END_ROUND_LIMIT,
    PHASE_FREE,
    PHASE_SECOND,
    play_game,
)
from zooanalysis.games.zoology.rules import ZoologySettings

RULES = ZoologySettings()


def animal(name: str) -> int:
    return RULES.animals.ids.index(name)


def card(question_id: str, rules: ZoologySettings = RULES) -> int:
    return [q.id for q in rules.questions].index(question_id)


def test_rulebook_example_anna_is_the_champion() -> None:
    """5 players: Anna (elephant), William (horse), cat, pig, mouse; "Who is the largest?".
    Anna votes for William (she cannot see her own card); the others vote for Anna."""
    sharp = replace(RULES, perception_noise=0.02)
    seats = np.array([animal(a) for a in ("elephant", "horse", "cat", "pig", "mouse")])
    votes = np.zeros(5, dtype=np.int64)
    stream = rng_module.game_stream(1, 0)
    champion = cast_votes(
        card("largest"), seats, 5, np.zeros(1, dtype=np.int64), 0, sharp.scores, stream, votes
    )
    assert votes.tolist() == [1, 0, 0, 0, 0]
    assert champion == 0


def test_votes_follow_the_logit_model() -> None:
    """A voter picks among the other animals with probability proportional to exp(score)."""
    seats = np.array([animal("elephant"), animal("dog"), animal("wolf")])
    q = card("heaviest")
    w_dog, w_wolf = RULES.weights[q, seats[1]], RULES.weights[q, seats[2]]
    expected = w_wolf / (w_dog + w_wolf)
    votes = np.zeros(3, dtype=np.int64)
    n = 20_000
    wolf = 0
    for game in range(n):
        stream = rng_module.game_stream(7, game)
        cast_votes(q, seats, 3, np.zeros(1, dtype=np.int64), 0, RULES.scores, stream, votes)
        wolf += votes[0] == 2
    assert 0.05 < expected < 0.95  # a close call: dog 25 kg, wolf 40 kg
    assert abs(wolf / n - expected) < 4 * math.sqrt(expected * (1 - expected) / n)


@pytest.mark.parametrize(
    ("votes", "players", "neutrals", "champion"),
    [
        ([1, 0, 1, 1], 4, 0, 1),
        ([1, 0, 0, 1], 4, 0, -1),  # two votes each: a tie, no Champion
        ([1, 0], 2, 0, -1),
        ([2, 2], 2, 2, 2),  # both chose neutral animal 0
        ([2, 3], 2, 2, -1),
        ([3, 3, 0], 3, 1, 3),
    ],
)
def test_champion_is_the_strict_majority(votes, players, neutrals, champion) -> None:
    assert champion_of(np.array(votes, dtype=np.int64), players, neutrals) == champion


def test_evidence_by_hand() -> None:
    """Seat 0 (unknown x) with horse and cat; "heaviest": the horse's holder voted for seat 0,
    the cat's holder for the horse. log P = [s(x) - log(w_cat + w_x)] + [-log(w_horse + w_x)]."""
    q = card("heaviest")
    board = RULES.board()
    seats = np.array([-1, animal("horse"), animal("cat")])
    votes = np.array([1, 0, 1])
    loglik = np.zeros(len(RULES.animals))
    add_evidence(
        loglik,
        0,
        q,
        seats,
        3,
        np.zeros(1, dtype=np.int64),
        0,
        votes,
        board,
        len(board),
        RULES.scores,
        RULES.weights,
    )
    s, w = RULES.scores[q], RULES.weights[q]
    for x in board:
        expected = s[x] - math.log(w[animal("cat")] + w[x]) - math.log(w[animal("horse")] + w[x])
        assert loglik[x] == pytest.approx(expected, rel=1e-12, abs=1e-12)
    excluded = np.zeros(len(RULES.animals), dtype=np.bool_)
    excluded[[animal("horse"), animal("cat")]] = True
    probs = np.zeros(len(RULES.animals))
    top, _p = posterior(loglik, board, len(board), excluded, probs)
    # heavier than the cat (chosen over it), lighter than the horse (passed over for it)
    assert top == animal("wolf")
    assert probs.sum() == pytest.approx(1.0)
    assert probs[animal("horse")] == 0.0
    assert probs[animal("mouse")] < probs[animal("wolf")] > probs[animal("elephant")]


def test_two_players_without_neutrals_learn_nothing_from_votes() -> None:
    """Each voter has one candidate, so every vote is forced and the posterior stays uniform."""
    rules = replace(RULES, players=2)
    state = engine.new_game(rules, 2, rng_module.game_stream(3, 0))
    stream = rng_module.game_stream(3, 0)
    engine.deal_round(state, stream)
    record = engine.GameRecord(players=2, points_from=[[0, 0], [0, 0]], last_not_leading=[-1] * 2)
    strategies = engine.lineup("curious,bayes")
    for asker in (0, 1, 0):
        engine.ask_question(state, asker, strategies, stream, record)
    probs, _, top_p = engine.observe(state, 0).beliefs()
    assert top_p == pytest.approx(1 / (len(rules.board()) - 1))
    assert np.allclose(probs[probs > 0], top_p)


def check_record(rules: ZoologySettings, record: engine.GameRecord) -> None:
    """Invariants every game must satisfy."""
    players = record.players
    # points are exactly the right guesses scored
    for seat in range(players):
        free = sum(1 for g in record.guesses if g[0] == seat and g[4] and g[3] == PHASE_FREE)
        second = sum(1 for g in record.guesses if g[0] == seat and g[4] and g[3] == PHASE_SECOND)
        if rules.cooperative:
            assert record.points[seat] == 0
        else:
            expected = free * rules.points_correct_guess + second * rules.points_second_chance
            assert record.points[seat] == expected
            assert record.points_from[seat] == [
                free * rules.points_correct_guess,
                second * rules.points_second_chance,
            ]
    # guesses are never of a visible animal: a right guess only by the holder
    for _seat, truth, guessed, _, correct, _ in record.guesses:
        assert correct == (truth == guessed)
    questions = [e for e in record.events if "question" in e]
    assert len(questions) == record.turns
    for round_index in range(record.rounds):
        events = [e for e in record.events if e["round"] == round_index]
        asked = [e for e in events if "question" in e]
        # the first player token passes clockwise; players ask in turn
        assert [e["asker"] for e in asked] == [
            (round_index + k) % players for k in range(len(asked))
        ]
        # at most one question per token in the supply
        assert len(asked) <= rules.tokens_for(players)
        # no free guess before every player has asked once
        for position, event in enumerate(events):
            if event.get("phase") == "free":
                assert sum(1 for e in events[:position] if "question" in e) >= players
                assert not rules.cooperative
    if rules.cooperative:
        assert record.end_reason == END_COOPERATIVE and record.rounds == 1
        found = {g[0] for g in record.guesses if g[4]}
        assert record.success == (found == set(range(players)))
    elif record.end_reason == END_POINTS:
        assert max(record.points) >= rules.points_to_win
        assert set(record.winners) == {
            s for s, p in enumerate(record.points) if p == max(record.points)
        }
    else:
        assert record.end_reason == END_ROUND_LIMIT
        assert record.rounds == rules.max_rounds
    assert record.lead_changes >= 0


@pytest.mark.parametrize(
    ("rules", "lineup"),
    [
        (ZoologySettings(), "curious,curious,bayes,bayes"),
        (ZoologySettings(players=2, neutral_animals=True), "curious,bayes"),
        (ZoologySettings(players=3, neutral_animals=True, regions=("asia",)), "team,bayes,curious"),
        (
            ZoologySettings(players=6, regions=("africa", "america", "asia", "australia")),
            "bayes*3,curious*3",
        ),
        (ZoologySettings(mode="cooperative", players=5), "team*5"),
    ],
)
def test_invariants_on_typical_games(rules, lineup) -> None:
    for game in range(6):
        record = play_game(rules, engine.lineup(lineup), seed=11, game_index=game)
        check_record(rules, record)


def test_guess_threshold_one_leaves_everything_to_the_second_chance() -> None:
    """A player who never makes a free guess scores only in the second chance phase, which
    the last token of the supply starts."""
    rules = ZoologySettings(
        players=3, guess_tokens=(("2", 10), ("3", 6), ("4", 14), ("5", 16), ("6", 18))
    )
    record = play_game(rules, engine.lineup("bayes*3:guess=1"), seed=5)
    check_record(rules, record)
    assert all(g[3] == PHASE_SECOND for g in record.guesses)
    assert record.triggers and set(record.triggers) == {engine.TRIGGER_SUPPLY}
    assert all(
        len([e for e in record.events if e.get("asker") is not None and e["round"] == r]) == 6
        for r in range(record.rounds)
    )


def test_round_limit_ends_the_game_with_most_points_winning() -> None:
    rules = ZoologySettings(players=4, points_to_win=100, max_rounds=2)
    record = play_game(rules, engine.lineup("curious*4"), seed=2)
    check_record(rules, record)
    assert record.end_reason == END_ROUND_LIMIT and record.rounds == 2


def test_cooperative_gift_goes_to_the_teammate_with_fewest_tokens() -> None:
    from zooanalysis.games.zoology.strategies import gift_target

    tokens = np.array([0, 3, 1, 1])
    done = np.array([True, False, False, True])
    assert gift_target(0, 4, tokens, done) == 2
    assert gift_target(2, 4, tokens, np.array([True, False, True, True])) == 1
    assert gift_target(0, 2, np.array([0, 0]), np.array([True, True])) == -1


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    regions=st.sets(st.sampled_from(["africa", "america", "asia", "australia"])),
    neutral=st.booleans(),
    cooperative=st.booleans(),
    tokens=st.integers(1, 12),
    points=st.integers(1, 7),
    noise=st.floats(0.05, 3.0),
    guess=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32),
)
def test_invariants_hold_for_any_settings(
    players, regions, neutral, cooperative, tokens, points, noise, guess, seed
) -> None:
    rules = ZoologySettings(
        players=players,
        regions=tuple(r for r in ("africa", "america", "asia", "australia") if r in regions),
        neutral_animals=neutral,
        mode="cooperative" if cooperative else "competitive",
        guess_tokens=tuple((str(n), tokens) for n in range(2, 7)),
        points_to_win=points,
        perception_noise=noise,
        max_rounds=30,
    )
    lineup = engine.lineup(
        ",".join(
            [f"team:guess={guess}", f"curious:guess={guess}", "bayes"][i % 3]
            for i in range(players)
        )
    )
    record = play_game(rules, lineup, seed=seed)
    check_record(rules, record)


def test_card_bookkeeping_check_catches_a_lost_card() -> None:
    rules = ZoologySettings(players=3)
    stream = rng_module.game_stream(8, 0)
    state = engine.new_game(rules, 3, stream)
    engine.deal_round(state, stream)
    engine.check_every_card_once(state)
    state.hands[1].append(state.hands[0][0])  # a question card in two places
    with pytest.raises(AssertionError, match="question bookkeeping"):
        engine.check_every_card_once(state)
    state.hands[1].pop()
    state.neutrals.append(state.seat_animals[0])  # an animal card dealt twice
    with pytest.raises(AssertionError, match="animal bookkeeping"):
        engine.check_every_card_once(state)


class FirstCardRandomGuess:
    """A custom Python strategy: always the first card, a uniformly random legal guess."""

    def choose_question(self, observation: engine.Observation, rng: np.ndarray) -> int:
        return 0

    def guess(self, observation: engine.Observation, rng: np.ndarray, free: bool) -> int:
        candidates = [a for a in observation.board if not observation.excluded()[a]]
        return candidates[rng_module.below(rng, len(candidates))]

    def gift(self, observation: engine.Observation, rng: np.ndarray) -> int:
        return -1


def test_custom_python_strategies_play_through_the_reference_engine() -> None:
    from zooanalysis.games.zoology.reference_batch import play_batch_reference

    rules = ZoologySettings(players=3)
    strategies = [FirstCardRandomGuess(), *engine.lineup("curious,bayes")]
    for game in range(5):
        check_record(rules, play_game(rules, strategies, seed=4, game_index=game))
    totals, _ = play_batch_reference(rules, strategies, 4, 20)
    assert totals["games"][0] == 20
    guesses = totals["guesses"].sum(axis=1)
    right = totals["right_guesses"].sum(axis=1)
    assert right[0] / guesses[0] < right[1] / guesses[1]  # random guessing is worse
