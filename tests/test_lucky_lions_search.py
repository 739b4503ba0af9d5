"""The ``search`` player of Lucky Lions: it decides from its observation alone, its rebuilt
state holds every card once, it finds the plain answer in a hand-made case, and a lineup with
it runs like any other (or is refused by name where the forward model cannot follow)."""

from __future__ import annotations

import numpy as np
import pytest
from test_cli import _zoosim, assert_one_error_line
from test_lucky_lions_forward import animal_places, arrays, mid_game, other_world

from zooanalysis.errors import SettingsError
from zooanalysis.games import get_game, parse_players
from zooanalysis.games.lucky_lions import engine, forward
from zooanalysis.games.lucky_lions.cards import ZooCard
from zooanalysis.games.lucky_lions.flat import CARD_FIELDS, FOX, LION, N_TYPES, card_rows
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.search import (
    MODULE,
    check_modelled,
    state_from_observation,
)
from zooanalysis.games.lucky_lions.strategies import new_strategy_workspace
from zooanalysis.rng import game_stream
from zooanalysis.search.ismcts import MAX_ACTIONS, search


class CheckingStrategy:
    """Plays ``greedy`` and checks the search's rebuilt state at each of its decisions."""

    def __init__(self, settings: LuckySettings):
        self.inner = engine.lineup("greedy")[0]
        self.rules = forward.rules_array(settings)
        self.counts = settings.animal_type_counts()
        self.checked: dict[int, int] = {}

    def _check(self, view: engine.Observation, phase: int, tied=(-1, -1)) -> None:
        rules = self.rules
        state = state_from_observation(rules, view, phase, tied)
        world = other_world(rules, state, view.seat, sum(self.checked.values()))
        assert np.array_equal(animal_places(rules, world), self.counts)
        die, unseen = np.zeros(N_TYPES, dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64)
        forward.observe(rules, world, view.seat, die, unseen)
        assert die.tolist() == list(view.die)
        assert unseen.tolist() == list(view.unseen)
        market = world[forward.o_market(rules):forward.o_deck(rules)].reshape(-1, CARD_FIELDS)
        assert np.array_equal(market[:len(view.market)], card_rows(list(view.market)))
        assert forward.actor(world) == view.seat
        assert world[forward.S_DECK_END] - world[forward.S_DECK_TOP] == view.zoo_deck_left
        actions = np.zeros(MAX_ACTIONS, dtype=np.int64)
        n = forward.search_actions(rules, world, view.seat, actions)
        if phase == forward.PHASE_PICK:
            assert n == len(view.market) * (view.players - 1)
        elif phase == forward.PHASE_DISCARD:
            assert n == sum(1 for count in view.die if count > 0)
            assert view.battle_card is not None and view.seat in view.battlers
        self.checked[phase] = self.checked.get(phase, 0) + 1

    def choose_card(self, view, rng):
        self._check(view, forward.PHASE_PICK)
        return self.inner.choose_card(view, rng)

    def choose_discarder(self, view, first, second, rng):
        self._check(view, forward.PHASE_DISCARDER, (first, second))
        return self.inner.choose_discarder(view, first, second, rng)

    def choose_discard(self, view, rng):
        self._check(view, forward.PHASE_DISCARD)
        return self.inner.choose_discard(view, rng)


def test_rebuilt_state_holds_every_card_once_and_what_the_player_knows():
    settings = LuckySettings(die_size=3)  # small dice: ties end in discards
    checker = CheckingStrategy(settings)
    for game in range(12):
        engine.play_game(settings, [checker, *engine.lineup("random,greedy,random")], 2, game)
    assert checker.checked[forward.PHASE_PICK] > 30
    assert checker.checked.get(forward.PHASE_DISCARD, 0) > 0


def _modelled(text: str, observer: int):
    codes, params = arrays(text)
    modelled = np.array([seat != observer for seat in range(len(codes))])
    return codes, params, modelled


@pytest.mark.parametrize("steps", [0, 5, 14])
def test_search_ignores_the_hidden_cards(steps):
    """No peeking: hidden cards dealt otherwise, the same stream: the same decision and
    visits."""
    settings = LuckySettings()
    rules = forward.rules_array(settings)
    text = "greedy,random,greedy,equilibrium"
    state = mid_game(settings, text, 6, steps)
    observer = int(forward.actor(state))
    changed = other_world(rules, state, observer, 3)
    assert not np.array_equal(changed, state)
    codes, params, modelled = _modelled(text, observer)
    answers = []
    for version in (state, changed):
        visits = np.zeros(MAX_ACTIONS)
        action, n = search(MODULE, rules, version, observer, 150, 0.7, codes, params, modelled,
                           new_strategy_workspace(), game_stream(8, 8), root_visits=visits)
        answers.append((action, n, visits.tolist()))
    assert answers[0] == answers[1]
    assert sum(answers[0][2]) == (150 if answers[0][1] > 1 else 0)


def test_search_takes_the_card_its_die_cannot_lose():
    """Seat 0 holds six lions; one face-up card (3 points) has the cycle lion -> fox, on
    which a lion beats every off-cycle animal and ties the rest (a tie the active player
    wins); the other three (1 point) leave the lion off the cycle, where it never wins."""
    settings = LuckySettings(players=3)
    rules = forward.rules_array(settings)
    off = [ZooCard((FOX, 2, 3), 1), ZooCard((2, 3, 4), 1), ZooCard((FOX, 4), 1)]
    market = [off[0], off[1], ZooCard((LION, FOX), 3), off[2]]
    rows = card_rows(market + [off[1]] * 6)
    counts = settings.animal_type_counts()
    counts[LION] -= 6
    rest = np.repeat(np.arange(N_TYPES, dtype=np.int64), counts)
    np.random.default_rng(1).shuffle(rest)
    animals = np.concatenate([np.full(6, LION, dtype=np.int64), rest])
    state = forward.new_state(rules)
    forward.start(rules, state, rows, animals)
    codes, params, modelled = _modelled("greedy,greedy,greedy", 0)
    action, n = search(MODULE, rules, state, 0, 300, 0.7, codes, params, modelled,
                       new_strategy_workspace(), game_stream(4, 4))
    assert n == 4 * 2
    assert (action - forward.A_PICK) // 8 == 2


def test_lineups_name_search_and_refuse_unmodelled_rules():
    lucky = get_game("lucky-lions")
    lineup = parse_players("search:iterations=20,greedy*3", lucky)
    assert [p.strategy for p in lineup] == ["search", "greedy", "greedy", "greedy"]
    assert "search" not in lucky.strategies  # fields, tuning and ladders never draw it
    check_modelled(LuckySettings())
    with pytest.raises(SettingsError, match=r"reduced_die, wild_animals to false"):
        check_modelled(LuckySettings(reduced_die=True, wild_animals=True))
    with pytest.raises(SettingsError, match=r"market_size.*80 \(card, opponent\) picks"):
        check_modelled(LuckySettings(players=3, market_size=40))
    plain = lucky.settings_for_lineup(LuckySettings(reduced_die=True), lineup[1:3])
    assert plain.reduced_die  # without a search seat the variant plays as before


def test_console_refuses_a_variant_beside_a_search_seat(tmp_path):
    scenario = tmp_path / "variant.toml"
    scenario.write_text('game = "lucky-lions"\n[settings]\nno_shuffle = true\n')
    out = tmp_path / "out"
    result = _zoosim("run", "--scenario", scenario, "--players", "search,greedy", "--games",
                     "2", "--out", out, "--no-progress")
    assert result.returncode == 2, result.stderr
    assert_one_error_line(result.stderr, "no_shuffle", "base game only")
    assert not out.exists()


def test_a_run_with_a_search_seat_counts_like_any_run():
    from zooanalysis.simulation import simulate

    tables = []
    for _ in range(2):
        run = simulate("lucky-lions", "search:iterations=10,random,greedy", games=6, seed=3,
                       jobs=1)
        seats = run.table("seats")
        assert seats["games"].tolist() == [6, 6, 6]
        assert seats["strategy"].iloc[0] == "search:iterations=10"
        assert seats["wins"].sum() == pytest.approx(6)
        tables.append(seats)
    assert tables[0].equals(tables[1])  # the same seed: the same games
