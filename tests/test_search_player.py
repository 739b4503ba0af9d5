"""The shared ``search`` player (``zooanalysis.search.player``), through the two games that
seat it: its opponent model follows the lineup and ``model``, its seats and batches are each
game's own, and a batch survives pickling (process workers) with the same games."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from zooanalysis.errors import SettingsError
from zooanalysis.games import get_game, parse_players
from zooanalysis.games.bluff import search as bluff_search
from zooanalysis.games.bluff.engine import BuiltinStrategy as BluffBuiltin
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.games.bluff.strategies import STRATEGY_CODES as BLUFF_CODES
from zooanalysis.games.bluff.strategies import strategy_params as bluff_params
from zooanalysis.games.lucky_lions import search as lucky_search
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.search.player import SEARCH, SearchBatch, SearchSeat, rollouts


def bluff_seat(lineup_text: str) -> bluff_search.SearchStrategy:
    lineup = tuple(parse_players(lineup_text, get_game("bluff")))
    return bluff_search.seat_strategies(BluffSettings(), lineup)[0]


def test_the_opponent_model_is_the_other_builtin_seats_with_model_1():
    seat = bluff_seat("search:rollout=2,bayes,search,cautious:trust=0.5")
    codes, params, modelled, _ = seat.opponent_model(0)
    assert modelled.tolist() == [False, True, False, True]
    rollout = BLUFF_CODES[bluff_search.ROLLOUTS[2]]
    assert codes.tolist() == [rollout, BLUFF_CODES["bayes"], rollout, BLUFF_CODES["cautious"]]
    cautious = parse_players("cautious:trust=0.5", get_game("bluff"))[0]
    np.testing.assert_array_equal(params[3], bluff_params(cautious))


def test_with_model_0_every_seat_plays_out_with_the_rollout_and_none_is_modelled():
    seat = bluff_seat("search:model=0,rollout=1,bayes,random,cautious")
    codes, _, modelled, _ = seat.opponent_model(0)
    assert not modelled.any()
    assert codes.tolist() == [BLUFF_CODES[bluff_search.ROLLOUTS[1]]] * 4


def test_each_game_seats_its_own_search_and_builtin_strategies():
    strategies = bluff_search.seat_strategies(
        BluffSettings(), parse_players("bayes,search:iterations=3,random", get_game("bluff")))
    assert [type(s) for s in strategies] == [BluffBuiltin, bluff_search.SearchStrategy,
                                             BluffBuiltin]
    assert isinstance(strategies[1], SearchSeat) and strategies[1].player.strategy == SEARCH
    assert [BLUFF_CODES[name] for name in rollouts(BLUFF_CODES)] == list(range(len(BLUFF_CODES)))
    assert bluff_search.ROLLOUTS[0] == "random"
    with pytest.raises(SettingsError, match="base game only"):
        lucky_search.seat_strategies(
            LuckySettings(wild_animals=True),
            parse_players("search,greedy", get_game("lucky-lions")),
        )


@pytest.mark.parametrize(("game", "lineup"), [
    ("bluff", "search:iterations=5,bayes,random"),
    ("lucky-lions", "greedy,search:iterations=5"),
])
def test_a_pickled_search_batch_plays_the_same_games(game, lineup):
    chosen = get_game(game)
    players = parse_players(lineup, chosen)
    settings = chosen.settings_for_lineup(chosen.settings_from_table({}), players)
    batch = chosen.batch_job(settings, players, True)
    assert isinstance(batch, SearchBatch)
    copy = pickle.loads(pickle.dumps(batch))
    assert type(copy) is type(batch) and copy.lineup == batch.lineup
    first, second = batch(5, 2), copy(5, 2)
    assert first.keys() == second.keys() and first["games"].sum() > 0
    for key in first:
        np.testing.assert_array_equal(first[key], second[key], err_msg=key)
