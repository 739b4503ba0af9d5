"""Bluff in Zoo's forward model follows the reference engine, and its determinisation reads
only what the observer knows (no peeking), as the search player needs."""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.games.bluff import engine, forward
from zooanalysis.games.bluff.cards import N_CARD_TYPES
from zooanalysis.games.bluff.policy_math import new_workspace
from zooanalysis.games.bluff.rules import BluffSettings, DeckSettings
from zooanalysis.games.bluff.strategies import STRATEGIES, strategy_code, strategy_params
from zooanalysis.rng import game_stream
from zooanalysis.strategy_spec import parse_lineup

LINEUPS = ("bayes,cautious,aggressive,random", "random,random,bayes", "cautious,aggressive")
SETTINGS = (
    BluffSettings(),
    BluffSettings(players=3, hand_size=4, points_to_end=12),
    BluffSettings(players=2, deck=DeckSettings(stop=1, count_one=3)),
)


def _arrays(text: str) -> tuple[np.ndarray, np.ndarray]:
    players = parse_lineup(text, STRATEGIES)
    codes = np.array([strategy_code(p) for p in players], dtype=np.int64)
    return codes, np.array([strategy_params(p) for p in players], dtype=np.float64)


def _dealt(rules: np.ndarray, seed: int, game: int) -> tuple[np.ndarray, np.ndarray]:
    stream = game_stream(seed, game)
    state = forward.new_state(rules)
    forward.deal(rules, state, stream)
    return state, stream


def _scores(rules: np.ndarray, state: np.ndarray) -> list[int]:
    start = forward.o_scores(rules)
    return state[start:start + rules[forward.R_PLAYERS]].tolist()


def _card_places(rules: np.ndarray, state: np.ndarray) -> np.ndarray:
    """Counts per card type in hands, pile, draw pile and the revealed (penalty) cards."""
    counts = state[forward.o_revealed(rules):forward.o_revealed(rules) + N_CARD_TYPES].copy()
    hand_size = rules[forward.R_HAND]
    for p in range(rules[forward.R_PLAYERS]):
        hand = forward.o_hands(rules) + p * hand_size
        for i in range(state[forward.o_hand_len(rules) + p]):
            counts[state[hand + i]] += 1
    for i in range(state[forward.S_PILE]):
        counts[state[forward.o_pile(rules) + i]] += 1
    for i in range(state[forward.S_DRAW_TOP], rules[forward.R_DECK]):
        counts[state[forward.o_deck(rules) + i]] += 1
    return counts


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("text", LINEUPS)
def test_play_out_is_the_engines_game(settings, text):
    """The same deal and strategies: the same scores, moves, rounds and ending."""
    players = len(text.split(","))
    settings = BluffSettings(**{**settings.__dict__, "players": players})
    rules = forward.rules_array(settings)
    codes, params = _arrays(text)
    endings = set()
    for game in range(12):
        record = engine.play_game(settings, engine.lineup(text), 3, game)
        state, stream = _dealt(rules, 3, game)
        forward.play_out(rules, state, codes, params, stream, new_workspace())
        assert _scores(rules, state) == record.scores
        assert state[forward.S_MOVES] == record.moves
        assert state[forward.S_ROUND] + 1 == record.rounds
        assert state[forward.S_END] == record.end_reason
        assert np.array_equal(_card_places(rules, state), settings.deck.type_counts())
        endings.add(record.end_reason)
    assert endings  # games were played


def test_legal_moves_and_claims_are_the_engines(monkeypatch):
    """At every decision the forward model offers the engine's moves and as many claims."""
    settings = BluffSettings(players=3, points_to_end=15)
    text = "bayes,random,aggressive"
    seen_moves, seen_claims = [], []
    engine_legal, engine_claims = engine.legal_moves, engine.claim_options

    def recording_legal(state, seat):
        moves = engine_legal(state, seat)
        seen_moves.append(list(moves))
        return moves

    def recording_claims(count, kind, cap):
        options = engine_claims(count, kind, cap)
        seen_claims.append(options)
        return options

    monkeypatch.setattr(engine, "legal_moves", recording_legal)
    monkeypatch.setattr(engine, "claim_options", recording_claims)
    rules = forward.rules_array(settings)
    codes, params = _arrays(text)
    work = new_workspace()
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    moves = np.zeros(4, dtype=np.int64)
    table = np.zeros(forward.TABLE_SIZE, dtype=np.int64)  # empty: no stakes seat here
    claims = np.zeros(5 * int(rules[forward.R_CAP]) + 5, dtype=np.int64)
    for game in range(6):
        seen_moves.clear()
        seen_claims.clear()
        engine.play_game(settings, engine.lineup(text), 11, game)
        state, stream = _dealt(rules, 11, game)
        model_moves, model_claims = [], []
        while not forward.is_over(state):
            if state[forward.S_PHASE] == forward.PHASE_MOVE:
                n = forward.legal_moves(rules, state, moves)
                model_moves.append(moves[:n].tolist())
            else:
                model_claims.append(forward.legal_claims(rules, state, claims))
            forward.strategy_step(
                rules, state, codes, params, stream, work, known, unseen, moves, table
            )
            assert np.array_equal(_card_places(rules, state), settings.deck.type_counts())
        assert model_moves == seen_moves
        assert model_claims == seen_claims
        assert len(model_claims) > 0


def _mid_game(settings: BluffSettings, text: str, game: int, steps: int) -> np.ndarray:
    rules = forward.rules_array(settings)
    codes, params = _arrays(text)
    state, stream = _dealt(rules, 5, game)
    work = new_workspace()
    for _ in range(steps):
        if forward.is_over(state):
            break
        forward.model_step(rules, state, codes, params, stream, work)
    return state


def _hidden_shuffled(rules: np.ndarray, state: np.ndarray, observer: int, seed: int):
    """``state`` with the cards ``observer`` cannot see swapped about among their places."""
    places = []
    hand_size = rules[forward.R_HAND]
    for p in range(rules[forward.R_PLAYERS]):
        if p != observer:
            hand = forward.o_hands(rules) + p * hand_size
            places += range(hand, hand + state[forward.o_hand_len(rules) + p])
    for i in range(state[forward.S_PILE]):
        if state[forward.o_owner(rules) + i] != observer:
            places.append(forward.o_pile(rules) + i)
    places += range(forward.o_deck(rules) + state[forward.S_DRAW_TOP],
                    forward.o_deck(rules) + rules[forward.R_DECK])
    changed = state.copy()
    values = changed[places]
    np.random.default_rng(seed).shuffle(values)
    changed[places] = values
    return changed, places


@pytest.mark.parametrize("steps", [0, 3, 9, 25])
def test_determinise_keeps_what_the_observer_knows_and_every_card(steps):
    settings = BluffSettings()
    rules = forward.rules_array(settings)
    state = _mid_game(settings, "bayes,bayes,random,cautious", 2, steps)
    observer = int(forward.actor(state))
    out = np.zeros_like(state)
    scratch = np.zeros_like(state)
    differs = 0
    for seed in range(20):
        forward.determinise(rules, state, observer, game_stream(seed, 0), out, scratch)
        assert np.array_equal(_card_places(rules, out), settings.deck.type_counts())
        _, places = _hidden_shuffled(rules, state, observer, 0)
        visible = np.ones(state.shape[0], dtype=bool)
        visible[places] = False
        assert np.array_equal(out[visible], state[visible])  # own hand, pile, header...
        differs += not np.array_equal(out, state)
    assert differs > 0


@pytest.mark.parametrize("steps", [0, 4, 13])
def test_determinise_ignores_the_hidden_cards(steps):
    """No peeking: the same stream gives the same world whatever the hidden cards are."""
    settings = BluffSettings()
    rules = forward.rules_array(settings)
    state = _mid_game(settings, "random,bayes,aggressive,cautious", 4, steps)
    observer = int(forward.actor(state))
    changed, _ = _hidden_shuffled(rules, state, observer, 9)
    assert not np.array_equal(changed, state)
    first, second = np.zeros_like(state), np.zeros_like(state)
    scratch = np.zeros_like(state)
    forward.determinise(rules, state, observer, game_stream(1, 2), first, scratch)
    forward.determinise(rules, changed, observer, game_stream(1, 2), second, scratch)
    assert np.array_equal(first, second)
