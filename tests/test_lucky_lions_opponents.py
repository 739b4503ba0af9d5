"""Lucky Lions' greedy bots choose their opponent for what the rules make of them, never for
where they sit: among opponents the bot rates equal, each is chosen equally often."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import chisquare

from zooanalysis.games.lucky_lions.engine import BuiltinStrategy, new_game, observe
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.strategies import STRATEGIES
from zooanalysis.rng import game_stream
from zooanalysis.stats import wilson_interval
from zooanalysis.strategy_spec import parse_player

DECISIONS = 3000


def first_turn_views(players: int, active: int):
    """The active player's view at the start of many games: every opponent has the same
    die size, no points and nothing seen, so the bot rates them equal on every card."""
    settings = LuckySettings(players=players)
    for seed in range(DECISIONS):
        stream = game_stream(seed, 0)
        state = new_game(settings, stream)
        view = observe(state, active, active)
        assert len(set(view.sizes)) == 1 and set(view.scores) == {0}
        assert not any(any(row) for row in view.seen)
        yield view, stream


@pytest.mark.parametrize("name", ["greedy", "equilibrium"])
@pytest.mark.parametrize(("players", "active"), [(4, 0), (4, 2), (3, 1), (5, 4)])
def test_equally_rated_opponents_are_chosen_equally_often(name, players, active) -> None:
    bot = BuiltinStrategy(parse_player(name, STRATEGIES))
    picks = Counter(bot.choose_card(view, stream)[1] for view, stream in first_turn_views(
        players, active
    ))  # fmt: skip
    opponents = [q for q in range(players) if q != active]
    assert set(picks) == set(opponents)
    counts = np.array([picks[q] for q in opponents])
    # chi-square against the uniform split, and each seat's Wilson interval holds 1/k
    assert chisquare(counts).pvalue > 0.001, counts
    low, high = wilson_interval(counts, np.full(len(counts), DECISIONS), confidence=0.999)
    assert np.all(low < 1 / len(opponents)) and np.all(1 / len(opponents) < high), counts


def test_the_tie_break_costs_one_draw_and_only_on_a_tie() -> None:
    """Equal opponents: one draw from the stream; a leader to deny: none."""
    bot = BuiltinStrategy(parse_player("greedy", STRATEGIES))
    view, stream = next(first_turn_views(4, 0))
    before = stream.copy()
    bot.choose_card(view, stream)
    assert stream[0] != before[0]
    leader = replace(view, scores=(0, 0, 3, 0))
    still = before.copy()
    assert bot.choose_card(leader, still)[1] == 2  # deny the leader
    assert still[0] == before[0]


def test_greedy_still_denies_the_leader() -> None:
    """Scores are a real difference between opponents: the one with most points is picked
    whenever the opponents are worth the same on the best card."""
    bot = BuiltinStrategy(parse_player("greedy", STRATEGIES))
    for view, stream in list(first_turn_views(4, 1))[:200]:
        leader = replace(view, scores=(2, 0, 1, 4))
        assert bot.choose_card(leader, stream)[1] == 3
