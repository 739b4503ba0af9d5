"""No peeking: a Bug House Millionaire player decides from what it may know.

At every decision of real games (leads, plays over, passes, gifts, and every thinking
time), the hidden state is changed: the cards of the other hands (its opponent's and the
other duel's, keeping their sizes) and the collected tricks face down are dealt anew, and
the partner's hand too unless partners state their needs (then the partner's hand stays,
since its stated need is what the player hears). The player's observation, and every
built-in strategy's decision on it, must stay the same. Partners never see each other's
hands: changing the partner's hand changes nothing but the stated need.
"""

from __future__ import annotations

import copy
import random

import pytest

from zooanalysis import rng as rng_module
from zooanalysis.games.bug_house import engine
from zooanalysis.games.bug_house.engine import FOLLOW, GIVE, Observation, observe
from zooanalysis.games.bug_house.rules import TALK_NEED, BugHouseSettings, partner_of

BUILT_IN = engine.lineup(
    "random,climber,fast,climber:keep_high=12,endgame=8,give_high=0,"
    "fast:base=0,per_option=0,jitter=3,random:base=4,pass_time=9"
)


def hide_differently(state, seat: int, shuffler: random.Random, keep_partner: bool):
    """A copy of ``state`` whose hidden cards are dealt anew among their places."""
    other = copy.deepcopy(state)
    keep = {seat, partner_of(seat)} if keep_partner else {seat}
    seats = [s for s in range(4) if s not in keep]
    pool = [card for s in seats for card in other.hands[s]] + list(other.collected)
    shuffler.shuffle(pool)
    start = 0
    for s in seats:
        size = len(other.hands[s])
        other.hands[s] = set(pool[start:start + size])
        start += size
    other.collected = pool[start:]
    return other


def decisions(observation: Observation, stream) -> list:
    """Every built-in strategy's answer to this observation, each on a copy of the stream."""
    answers = []
    for strategy in BUILT_IN:
        if observation.phase == GIVE:
            answers.append(strategy.choose_gift(observation, stream.copy()))
            answers.append(strategy.giving_ms(observation, stream.copy()))
        else:
            if observation.legal_melds() or observation.phase == FOLLOW:
                answers.append(strategy.choose_meld(observation, stream.copy()))
            options = len(observation.legal_melds()) + (observation.phase == FOLLOW)
            answers.append(strategy.thinking_ms(observation, options, stream.copy()))
    return answers


class Spy:
    """Plays like ``inner`` and, at every question, checks that hidden state is invisible."""

    def __init__(self, inner, holder: list, shuffler: random.Random):
        self.inner, self.holder, self.shuffler = inner, holder, shuffler
        self.checked = 0

    def check(self, observation: Observation, stream) -> None:
        state = self.holder[0]
        seat = observation.seat
        keep_partner = state.settings.talk == TALK_NEED
        for _ in range(2):
            other = hide_differently(state, seat, self.shuffler, keep_partner)
            seen = observe(other, seat, observation.phase)
            assert seen == observation
            assert decisions(seen, stream) == decisions(observation, stream)
        self.checked += 1

    def choose_meld(self, observation, rng):
        self.check(observation, rng)
        return self.inner.choose_meld(observation, rng)

    def choose_gift(self, observation, rng):
        self.check(observation, rng)
        return self.inner.choose_gift(observation, rng)

    def thinking_ms(self, observation, options, rng):
        self.check(observation, rng)
        return self.inner.thinking_ms(observation, options, rng)

    def giving_ms(self, observation, rng):
        self.check(observation, rng)
        return self.inner.giving_ms(observation, rng)


@pytest.mark.parametrize(
    ("variant", "lineup"),
    [
        ({}, "random,climber,fast,random"),
        ({"partner_talk": "need"}, "climber,random,climber,fast"),
        ({"delayed_singles": True, "clock_seconds": 40}, "fast,climber,random,climber"),
        ({"partner_passing": False, "longer_runs_beat": True, "min_run": 2,
          "thinking_distribution": "uniform"}, "climber,fast,random,climber"),
        ({"thinking_distribution": "fixed", "delayed_singles": True, "partner_talk": "need",
          "min_run": 4}, "climber:keep_high=12,endgame=8,give_high=0,fast,climber,random"),
    ],
)
def test_hidden_cards_change_no_observation_and_no_decision(variant, lineup) -> None:
    rules = BugHouseSettings(**variant)
    shuffler = random.Random(3)
    for game in range(2):
        holder: list = []
        players = [Spy(inner, holder, shuffler) for inner in engine.lineup(lineup)]
        stream = rng_module.game_stream(9, game)
        state = engine.deal_game(rules, stream)
        holder.append(state)
        engine.play_from(state, players, stream)
        assert sum(player.checked for player in players) > 20


def test_partners_share_a_stated_need_never_a_hand() -> None:
    rules = BugHouseSettings(partner_talk="need")
    stream = rng_module.game_stream(4, 4)
    state = engine.deal_game(rules, stream)
    before = observe(state, 0, engine.LEAD)
    changed = copy.deepcopy(state)
    # swap the partner's hand with the opponent's: same sizes, different cards
    changed.hands[2], changed.hands[1] = changed.hands[1], changed.hands[2]
    after = observe(changed, 0, engine.LEAD)
    assert after.partner_need != before.partner_need
    assert after == Observation(**{**before.__dict__, "partner_need": after.partner_need})
    silent = BugHouseSettings()
    quiet_state = copy.deepcopy(state)
    quiet_state.settings = silent
    quiet_changed = copy.deepcopy(changed)
    quiet_changed.settings = silent
    assert observe(quiet_state, 0, engine.LEAD) == observe(quiet_changed, 0, engine.LEAD)
    assert observe(quiet_state, 0, engine.LEAD).partner_need == ()
