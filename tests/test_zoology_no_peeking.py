"""No strategy peeks: a player's own animal never changes its decisions.

Games are played on the reference engine with every built-in strategy. At every decision
the acting player's observation is checked to hold no trace of its own animal, and the
compiled functions both engines call (beliefs, question choice, information, guesses) are
called again with the player's own entry of the seat-animal array set to every animal it
could hold (and to -1): their results and their use of the random stream must not change.
The kernel passes the real array to these functions, so this is what keeps it honest.
"""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.games.zoology import engine, kernel
from zooanalysis.games.zoology.beliefs import new_information_memo
from zooanalysis.games.zoology.engine import BuiltinStrategy, Observation, play_game
from zooanalysis.games.zoology.rules import ZoologySettings
from zooanalysis.games.zoology.strategies import (
    new_work,
    own_information,
    own_information_memo,
    team_information,
)


def own_variants(observation: Observation) -> list[int]:
    """Every animal the player might hold, and -1."""
    excluded = observation.excluded()
    return [a for a in observation.board if not excluded[a]] + [-1]


def with_own(observation: Observation, own: int) -> np.ndarray:
    animals = np.asarray(observation.seat_animals, dtype=np.int64).copy()
    animals[observation.seat] = own
    return animals


class Checker:
    """A built-in strategy that checks, at each decision, that its own animal is irrelevant."""

    def __init__(self, inner: BuiltinStrategy) -> None:
        self.inner = inner
        self.checks = 0
        self.hears = inner.hears
        self.memos: dict[bytes, tuple] = {}  # the kernel's memo, one per board, kept filled

    def hear(self, observation: Observation, rng: np.ndarray) -> None:
        self._check_observation(observation)
        self.inner.hear(observation, rng)

    def _check_observation(self, observation: Observation) -> None:
        assert observation.seat_animals[observation.seat] == -1
        for field in ("neutrals", "removed"):
            assert -1 not in getattr(observation, field)

    def choose_question(self, observation: Observation, rng: np.ndarray) -> int:
        self._check_observation(observation)
        rules = observation.settings
        _, neutrals, board = observation.arrays()
        probs, _, _ = observation.beliefs()
        removed = observation.removed_mask()
        answers = set()
        for own in own_variants(observation):
            animals = with_own(observation, own)
            np.testing.assert_array_equal(
                observation.likelihood(animals),
                observation.likelihood(with_own(observation, -1)),
            )
            stream = rng.copy()
            index = self.inner.choose_question(observation, stream, animals)
            work = new_work(len(rules.animals))
            memo = self.memos.setdefault(
                board.tobytes(),
                new_information_memo(len(rules.questions), len(rules.animals), board),
            )
            informations = tuple(
                (
                    own_information(
                        card,
                        observation.seat,
                        animals,
                        observation.players,
                        neutrals,
                        len(neutrals),
                        probs,
                        board,
                        len(board),
                        rules.scores,
                        rules.weights,
                        work,
                    ),
                    team_information(
                        card,
                        observation.seat,
                        animals,
                        observation.players,
                        neutrals,
                        len(neutrals),
                        probs,
                        removed,
                        board,
                        len(board),
                        rules.scores,
                        rules.weights,
                        work,
                    ),
                    own_information_memo(
                        card,
                        observation.seat,
                        animals,
                        observation.players,
                        neutrals,
                        len(neutrals),
                        probs,
                        board,
                        len(board),
                        rules.scores,
                        rules.weights,
                        work,
                        memo,
                    ),
                )
                for card in observation.hand
            )
            answers.add((int(index), int(stream[0]), informations))
        assert len(answers) == 1
        self.checks += 1
        return self.inner.choose_question(observation, rng)

    def guess(self, observation: Observation, rng: np.ndarray, free: bool) -> int:
        self._check_observation(observation)
        rules = observation.settings
        _, neutrals, board = observation.arrays()
        removed = observation.removed_mask()
        likelihood = np.ones((observation.players, len(rules.animals)))
        likelihood[observation.seat] = observation.likelihood(with_own(observation, -1))
        results = set()
        for own in own_variants(observation):
            excluded = np.zeros(len(rules.animals), dtype=np.bool_)
            probs = np.zeros(len(rules.animals))
            top, p = kernel._beliefs(
                observation.seat,
                observation.players,
                with_own(observation, own),
                neutrals,
                len(neutrals),
                removed,
                likelihood,
                board,
                len(board),
                excluded,
                probs,
            )
            results.add((int(top), float(p), probs.tobytes()))
        assert len(results) == 1
        if self.inner.hears:  # bounded, eliminator: the guess from the votes it remembers
            recalled = set()
            for own in own_variants(observation):
                stream = rng.copy()
                animal = self.inner.recalled_guess(
                    observation, stream, free, with_own(observation, own)
                )
                recalled.add((animal, int(stream[0])))
            assert len(recalled) == 1
        self.checks += 1
        return self.inner.guess(observation, rng, free)

    def gift(self, observation: Observation, rng: np.ndarray) -> int:
        self._check_observation(observation)
        return self.inner.gift(observation, rng)


@pytest.mark.parametrize(
    ("rules", "lineup"),
    [
        (ZoologySettings(), "curious,team,bayes,curious:guess=0.5"),
        (
            ZoologySettings(players=3, neutral_animals=True, regions=("asia", "africa")),
            "team,bayes,curious",
        ),
        (ZoologySettings(mode="cooperative", players=4), "team,team,curious,bayes"),
        (ZoologySettings(players=2, neutral_animals=True), "team,curious"),
        (
            ZoologySettings(),
            "bounded:misread=0.3,eliminator,bounded:memory=2,eliminator:tolerance=0,guess_at=4",
        ),
        (
            ZoologySettings(mode="cooperative", players=3, neutral_animals=True),
            "eliminator:misread=0.4,bounded:misread=0.5,bounded",
        ),
    ],
)
def test_own_animal_never_changes_a_decision(rules, lineup) -> None:
    checkers = [Checker(s) for s in engine.lineup(lineup)]
    plain = [play_game(rules, engine.lineup(lineup), seed=21, game_index=g) for g in range(3)]
    checked = [play_game(rules, checkers, seed=21, game_index=g) for g in range(3)]
    assert sum(c.checks for c in checkers) > 20
    for a, b in zip(plain, checked, strict=True):
        assert a.events == b.events  # the checks themselves change nothing


def test_observations_of_states_differing_only_in_own_animal_are_equal() -> None:
    rules = ZoologySettings(players=4, regions=("australia",))
    from zooanalysis import rng as rng_module

    stream = rng_module.game_stream(4, 0)
    state = engine.new_game(rules, 4, stream)
    engine.deal_round(state, stream)
    record = engine.GameRecord(players=4, points_from=[[0, 0]] * 4, last_not_leading=[-1] * 4)
    strategies = engine.lineup("curious*4")
    for asker in range(4):
        engine.ask_question(state, asker, strategies, stream, record)
    before = engine.observe(state, 2)
    spare = state.animal_deck[0]
    state.animal_deck[0], state.seat_animals[2] = state.seat_animals[2], spare
    after = engine.observe(state, 2)
    assert before == after
