"""Lucky Lions' forward model follows the reference engine, and its determinisation reads
only what the observer knows (no peeking), as the search player needs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from zooanalysis.games.lucky_lions import engine, forward
from zooanalysis.games.lucky_lions.flat import CARD_FIELDS, N_TYPES
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.strategies import (
    STRATEGIES,
    new_strategy_workspace,
    strategy_code,
    strategy_params,
)
from zooanalysis.rng import game_stream
from zooanalysis.strategy_spec import parse_lineup

LINEUPS = ("greedy,random,equilibrium,greedy", "random,random,greedy", "greedy,random")
SETTINGS = (
    LuckySettings(),
    LuckySettings(deck="fixed", deck_seed=4, die_size=4, points_to_win=7),
    LuckySettings(market_size=3, points_to_win=25),  # long games: the Zoo deck runs out
)


def arrays(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Codes and parameters of a lineup, as the forward model takes them."""
    players = parse_lineup(text, STRATEGIES)
    codes = np.array([strategy_code(p) for p in players], dtype=np.int64)
    return codes, np.array([strategy_params(p) for p in players], dtype=np.float64)


def dealt(settings: LuckySettings, rules: np.ndarray, seed: int, game: int):
    """Game ``game`` of batch ``seed`` dealt, and its stream after the deal."""
    stream = game_stream(seed, game)
    return forward.deal(settings, rules, stream), stream


def seat_values(rules: np.ndarray, state: np.ndarray, offset: int) -> list[int]:
    """One number per seat from the block at ``offset``."""
    return state[offset:offset + rules[forward.R_PLAYERS]].tolist()


def animal_places(rules: np.ndarray, state: np.ndarray) -> np.ndarray:
    """Counts per Animal Card type in the dice, the secret discards and the draw pile."""
    players, die = int(rules[forward.R_PLAYERS]), int(rules[forward.R_DIE])
    counts = np.zeros(N_TYPES, dtype=np.int64)
    for p in range(players):
        start = forward.o_dice(rules) + p * die
        for card in state[start:start + state[forward.o_sizes(rules) + p]]:
            counts[card] += 1
        row = forward.o_discarded(rules) + p * N_TYPES
        counts += state[row:row + N_TYPES]
    for card in state[forward.o_pile(rules):forward.o_pile(rules) + state[forward.S_PILE]]:
        counts[card] += 1
    return counts


def zoo_count(rules: np.ndarray, state: np.ndarray) -> int:
    """Zoo Cards in the market, the deck, the won piles and out of the game."""
    return int(
        state[forward.S_MARKET] + state[forward.S_DECK_END] - state[forward.S_DECK_TOP]
        + state[forward.S_OUT] + sum(seat_values(rules, state, forward.o_won(rules)))
    )


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("text", LINEUPS)
def test_play_out_is_the_engines_game(settings, text):
    """The same deal and strategies: the same points, cards won, turns and ending."""
    settings = replace(settings, players=len(text.split(",")))
    rules = forward.rules_array(settings)
    codes, params = arrays(text)
    endings = set()
    for game in range(10):
        record = engine.play_game(settings, engine.lineup(text), 3, game)
        state, stream = dealt(settings, rules, 3, game)
        forward.play_out(rules, state, codes, params, stream, new_strategy_workspace())
        assert seat_values(rules, state, forward.o_scores(rules)) == record.scores
        assert seat_values(rules, state, forward.o_won(rules)) == record.cards_won
        assert state[forward.S_TURNS] == record.turns
        assert state[forward.S_END] == record.end_reason
        assert forward.is_over(state) and forward.actor(state) == -1
        assert np.array_equal(animal_places(rules, state), settings.animal_type_counts())
        assert zoo_count(rules, state) == settings.zoo_cards
        endings.add(int(record.end_reason))
    if settings.points_to_win == 25:
        assert engine.END_DECK in endings


def test_every_decision_offers_the_engines_options():
    """Step by step: each decision the forward model asks is the engine's, with as many
    options (a discard: one action per type held, the engine counts cards)."""
    settings = LuckySettings(players=3, die_size=3)  # small dice: many ties and discards
    text = "greedy,random,greedy"
    rules = forward.rules_array(settings)
    codes, params = arrays(text)
    work = new_strategy_workspace()
    my_die = np.zeros(N_TYPES, dtype=np.int64)
    unseen = np.zeros(N_TYPES, dtype=np.int64)
    scratch = np.zeros(2 * N_TYPES)
    actions = np.zeros(64, dtype=np.int64)
    phases = set()
    for game in range(8):
        record = engine.play_game(settings, engine.lineup(text), 7, game)
        state, stream = dealt(settings, rules, 7, game)
        asked = []
        while not forward.is_over(state):
            seat = int(forward.actor(state))
            phase = int(state[forward.S_PHASE])
            n = forward.search_actions(rules, state, seat, actions)
            if phase == forward.PHASE_DISCARD:
                size = int(state[forward.o_sizes(rules) + seat])
                start = forward.o_dice(rules) + seat * int(rules[forward.R_DIE])
                assert n == len(set(state[start:start + size].tolist()))
                asked.append(size)
            else:
                asked.append(n)
            phases.add(phase)
            forward.strategy_step(rules, state, codes, params, stream, work, my_die, unseen,
                                  scratch)
        assert asked == record.decisions
    assert phases == {forward.PHASE_PICK, forward.PHASE_DISCARDER, forward.PHASE_DISCARD}


def mid_game(settings: LuckySettings, text: str, game: int, steps: int) -> np.ndarray:
    """A state after ``steps`` decisions of ``text`` (stopped early at the game's end)."""
    rules = forward.rules_array(settings)
    codes, params = arrays(text)
    state, stream = dealt(settings, rules, 5, game)
    work = new_strategy_workspace()
    for _ in range(steps):
        if forward.is_over(state):
            break
        forward.model_step(rules, state, codes, params, stream, work)
    return state


def other_world(rules: np.ndarray, state: np.ndarray, observer: int, seed: int) -> np.ndarray:
    """A state the observer cannot tell from ``state``: its hidden places dealt afresh."""
    out, scratch = np.zeros_like(state), np.zeros_like(state)
    forward.determinise(rules, state, observer, game_stream(seed, 99), out, scratch)
    return out


def hidden_places(rules: np.ndarray, state: np.ndarray, observer: int) -> np.ndarray:
    """A mask of the places the observer cannot see: the other dice, the others' discards
    per type, the draw pile and the face-down Zoo deck."""
    players, die = int(rules[forward.R_PLAYERS]), int(rules[forward.R_DIE])
    hidden = np.zeros(state.shape[0], dtype=bool)
    for q in range(players):
        if q != observer:
            start = forward.o_dice(rules) + q * die
            hidden[start:start + die] = True
            row = forward.o_discarded(rules) + q * N_TYPES
            hidden[row:row + N_TYPES] = True
    hidden[forward.o_pile(rules):forward.o_market(rules)] = True
    hidden[forward.o_deck(rules):forward.o_card(rules)] = True
    return hidden


STEPS = (0, 3, 8, 20)


@pytest.mark.parametrize("steps", STEPS)
def test_determinise_keeps_what_the_observer_knows_and_every_card(steps):
    settings = LuckySettings(deck="fixed", die_size=4)
    rules = forward.rules_array(settings)
    state = mid_game(settings, "greedy,greedy,random,greedy", 2, steps)
    observer = int(forward.actor(state))
    pool = {tuple(row) for row in settings.fixed_rows().tolist()}
    hidden = hidden_places(rules, state, observer)
    mine, theirs = (np.zeros(N_TYPES, dtype=np.int64) for _ in range(2))
    known, unseen = (np.zeros(N_TYPES, dtype=np.int64) for _ in range(2))
    forward.observe(rules, state, observer, mine, unseen)
    differs = 0
    for seed in range(20):
        world = other_world(rules, state, observer, seed)
        assert np.array_equal(world[~hidden], state[~hidden])  # own die, seen, market...
        assert np.array_equal(animal_places(rules, world), settings.animal_type_counts())
        forward.observe(rules, world, observer, known, theirs)
        assert np.array_equal(known, mine) and np.array_equal(theirs, unseen)
        for q in range(int(rules[forward.R_PLAYERS])):  # every die still holds what it showed
            start = forward.o_dice(rules) + q * int(rules[forward.R_DIE])
            held = set(world[start:start + world[forward.o_sizes(rules) + q]].tolist())
            row = forward.o_seen(rules) + q * N_TYPES
            assert {t for t in range(N_TYPES) if world[row + t]} <= held
        deck = world[forward.o_deck(rules):forward.o_card(rules)].reshape(-1, CARD_FIELDS)
        for i in range(state[forward.S_DECK_TOP], state[forward.S_DECK_END]):
            assert tuple(deck[i].tolist()) in pool
        differs += not np.array_equal(world, state)
    assert differs > 0


@pytest.mark.parametrize("steps", STEPS)
def test_determinise_ignores_the_hidden_cards(steps):
    """No peeking: the same stream gives the same world whatever the hidden cards are."""
    settings = LuckySettings()
    rules = forward.rules_array(settings)
    state = mid_game(settings, "random,greedy,greedy,equilibrium", 4, steps)
    observer = int(forward.actor(state))
    changed = other_world(rules, state, observer, 9)
    assert not np.array_equal(changed, state)
    first = other_world(rules, state, observer, 1)
    second = other_world(rules, changed, observer, 1)
    assert np.array_equal(first, second)


def test_a_generated_decks_pool_is_not_the_games_print():
    """The pool of a generated deck is prints from fixed seeds: the same for every game."""
    settings = LuckySettings()
    pool = forward.zoo_pool(settings)
    assert pool.shape == (forward.POOL_PRINTS * settings.zoo_cards, CARD_FIELDS)
    assert np.array_equal(pool, forward.zoo_pool(settings))
    fixed = LuckySettings(deck="fixed", deck_seed=3)
    assert np.array_equal(forward.zoo_pool(fixed), fixed.fixed_rows())
    assert forward.unmodelled_rules(LuckySettings(reduced_die=True, busy_zoo=True)) == [
        "reduced_die", "busy_zoo"]
