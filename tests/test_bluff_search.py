"""The ``search`` player of Bluff in Zoo: it decides from its observation alone, its
rebuilt state holds every card once, and it finds the plain answer in a hand-made case."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_bluff_forward import _card_places, _hidden_shuffled, _mid_game
from zooanalysis.errors import UserError
from zooanalysis.games import get_game, parse_players
from zooanalysis.games.bluff import engine, forward
from zooanalysis.games.bluff.cards import N_CARD_TYPES
from zooanalysis.games.bluff.policy_math import new_workspace
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.games.bluff.search import (
    MODULE,
    SearchStrategy,
    state_from_observation,
)
from zooanalysis.games.bluff.strategies import STRATEGIES, strategy_code, strategy_params
from zooanalysis.rng import game_stream
from zooanalysis.search.ismcts import MAX_ACTIONS, search
from zooanalysis.strategy_spec import parse_lineup


class CheckingStrategy:
    """Plays ``bayes`` for seat 0 and checks the search's rebuilt state at every decision."""

    def __init__(self, settings: BluffSettings):
        self.inner = engine.lineup("bayes")[0]
        self.rules = forward.rules_array(settings)
        self.deck = settings.deck.type_counts()
        self.checked = 0

    def _check(self, view: engine.Observation, claiming: bool) -> None:
        state = state_from_observation(self.rules, view, claiming)
        world, scratch = np.zeros_like(state), np.zeros_like(state)
        forward.determinise(self.rules, state, view.seat, game_stream(1, self.checked), world,
                            scratch)
        assert np.array_equal(_card_places(self.rules, world), self.deck)
        known = np.zeros(N_CARD_TYPES, dtype=np.int64)
        unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
        forward.observe(self.rules, world, view.seat, known, unseen)
        assert known.tolist() == list(view.known)
        assert unseen.tolist() == view.unseen().tolist()
        self.checked += 1

    def choose_move(self, view, rng):
        self._check(view, False)
        return self.inner.choose_move(view, rng)

    def choose_claim(self, view, rng):
        self._check(view, True)
        return self.inner.choose_claim(view, rng)


def test_rebuilt_state_holds_every_card_once_and_what_the_player_knows():
    settings = BluffSettings()
    checker = CheckingStrategy(settings)
    for game in range(4):
        engine.play_game(settings, [checker, *engine.lineup("random,cautious,aggressive")], 2,
                         game)
    assert checker.checked > 50


def _search_arrays(rules, lineup_text, observer):
    players = parse_lineup(lineup_text, STRATEGIES)
    codes = np.array([strategy_code(p) for p in players], dtype=np.int64)
    params = np.array([strategy_params(p) for p in players], dtype=np.float64)
    modelled = np.array([seat != observer for seat in range(len(players))])
    return codes, params, modelled


@pytest.mark.parametrize("steps", [0, 5, 14])
def test_search_ignores_the_hidden_cards(steps):
    """No peeking: hidden cards swapped about, the same stream: the same decision and visits."""
    settings = BluffSettings()
    rules = forward.rules_array(settings)
    state = _mid_game(settings, "bayes,bayes,random,cautious", 6, steps)
    observer = int(forward.actor(state))
    changed, _ = _hidden_shuffled(rules, state, observer, 3)
    codes, params, modelled = _search_arrays(rules, "bayes,bayes,random,cautious", observer)
    answers = []
    for version in (state, changed):
        visits = np.zeros(MAX_ACTIONS)
        action, n = search(MODULE, rules, version, observer, 150, 0.7, codes, params, modelled,
                           new_workspace(), game_stream(8, 8), root_visits=visits)
        answers.append((action, n, visits.tolist()))
    assert answers[0] == answers[1]
    assert sum(answers[0][2]) == (150 if answers[0][1] > 1 else 0)


def test_search_doubts_a_claim_the_pile_cannot_hold():
    """Three cards on the pile and a standing claim of 12 elephants (three cards show at
    most 9 animals): only a doubt makes sense."""
    settings = BluffSettings()
    rules = forward.rules_array(settings)
    state = _mid_game(settings, "random,random,random,random", 1, 0)
    for count in (1, 2, 3):  # seats 1-3 each place the top draw-pile card and claim mice
        forward.apply_move(rules, state, forward.MOVE_DRAW, -1)
        forward.apply_claim(rules, state, count, 0)
    state[forward.S_CLAIM_COUNT], state[forward.S_CLAIM_KIND] = 12, 4
    observer = int(forward.actor(state))
    assert observer == 3
    codes, params, modelled = _search_arrays(rules, "random,random,random,random", observer)
    action, n = search(MODULE, rules, state, observer, 300, 0.7, codes, params, modelled,
                       new_workspace(), game_stream(4, 4))
    assert n > 1
    assert action == forward.A_DOUBT


def test_lineups_name_search_only_where_a_forward_model_is():
    bluff = get_game("bluff")
    lineup = parse_players("search:iterations=20,bayes*3", bluff)
    assert [p.strategy for p in lineup] == ["search", "bayes", "bayes", "bayes"]
    assert "search" not in bluff.strategies  # fields, tuning and ladders never draw it
    with pytest.raises(UserError, match=r"hearts has no forward model.*bluff"):
        parse_players("search,random,random,random", get_game("hearts"))


def test_a_run_with_a_search_seat_counts_like_any_run():
    from zooanalysis.simulation import simulate

    run = simulate("bluff", "search:iterations=10,random,random", games=6, seed=3, jobs=1)
    seats = run.table("seats")
    assert seats["games"].tolist() == [6, 6, 6]
    assert seats["strategy"].iloc[0] == "search:iterations=10"
    assert isinstance(SearchStrategy, type)
