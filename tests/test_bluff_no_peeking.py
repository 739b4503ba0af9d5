"""No strategy peeks: changing only cards a player cannot see never changes its decision.

Games are played step by step on the reference engine; at decision points the hidden part
of the state (other players' hands, the draw pile, the pile cards others placed) is
reshuffled among its own slots, keeping the acting player's hand, its own pile cards and
every public fact (sizes, claims, scores, revealed cards). The acting player's observation
and every built-in strategy's decision, and its use of the random stream, must not change.
At the compiled level, ``choose_move`` and ``choose_claim`` must depend on their arguments
only: repeated calls agree, and scratch memory left over from earlier calls does not matter.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import rng as rng_module
from zooanalysis.games.bluff import engine
from zooanalysis.games.bluff.cards import N_CARD_TYPES, N_KINDS
from zooanalysis.games.bluff.engine import (
    BuiltinStrategy,
    GameRecord,
    check_every_card_once,
    legal_moves,
    make_claim,
    new_game,
    observe,
    place_card,
    play_game,
    refill_hands,
    resolve_doubt,
)
from zooanalysis.games.bluff.policy_math import WORKSPACE_ROWS, new_workspace
from zooanalysis.games.bluff.rules import BluffSettings
from zooanalysis.games.bluff.strategies import (
    AGGRESSIVE,
    BAYES,
    CAUTIOUS,
    MAX_PARAMS,
    MOVE_DOUBT,
    NOBODY,
    RANDOM,
    STAKES,
    STRATEGIES,
    TABLE_EVIDENCE,
    TABLE_OTHERS,
    TABLE_SIZE,
    TABLE_TARGET,
    choose_claim,
    choose_move,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import parse_player

TESTED = [
    "random",
    "bayes",
    "cautious",
    "aggressive",
    "bayes:doubt=0.7,bluff=0.6",
    "bayes:doubt=0.05,bluff=0",
    "cautious:trust=0.3,margin=-1",
    "cautious:trust=2,margin=3",
    "aggressive:raise=1,doubt_ratio=3,draw=0.9",
    "aggressive:raise=4,doubt_ratio=0.5,draw=0",
    "stakes",
    "stakes:read=1,rival=0,caution=0,cliff=0,bluff=1,bluff_pile=100",
    "stakes:read=20,rival=2,caution=2,cliff=10,bluff=0.6,bluff_pile=1",
]
NAMES = ["random", "bayes", "cautious", "aggressive", "stakes"]


def decision_points(game_settings: BluffSettings, strategies, seed: int, game_index: int = 0):
    """Play a game exactly as ``engine.play_game`` does, pausing before every decision.

    Yields ``(phase, state, seat, stream)`` with phase ``"move"`` before a strategy picks a
    move and ``"claim"`` once its card is placed and before it claims. The consumer must not
    change the state or advance the stream. Returns the game's record.
    """
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    state = new_game(game_settings, stream)
    record = GameRecord(scores=[], winners=[], rounds=0, moves=0, end_reason=-1)
    while True:
        seat = state.starting_player
        while True:
            if legal_moves(state, seat) == [MOVE_DOUBT]:
                move, index = MOVE_DOUBT, -1
            else:
                yield "move", state, seat, stream
                move, index = strategies[seat].choose_move(observe(state, seat), stream)
            state.moves += 1
            if move == MOVE_DOUBT:
                resolve_doubt(state, seat, record)
                break
            place_card(state, seat, move, index)
            yield "claim", state, seat, stream
            count, kind = strategies[seat].choose_claim(observe(state, seat), stream)
            make_claim(state, seat, move, count, kind, record)
            seat = (seat + 1) % state.players
        if max(state.scores) >= game_settings.points_to_end:
            break
        if not refill_hands(state):
            break
        state.round_index += 1
    record.scores = state.scores
    return record


def hidden_slots(state, seat: int) -> list[tuple[str, int, int]]:
    """Every place holding a card ``seat`` cannot see (and whose identity is not public)."""
    slots = []
    for player, hand in enumerate(state.hands):
        if player != seat:
            slots += [("hand", player, i) for i in range(len(hand))]
    slots += [("deck", 0, i) for i in range(state.draw_top, len(state.deck))]
    slots += [("pile", 0, i) for i, owner in enumerate(state.pile_owners) if owner != seat]
    return slots


def _get(state, slot) -> int:
    place, player, i = slot
    if place == "hand":
        return state.hands[player][i]
    if place == "deck":
        return int(state.deck[i])
    return state.pile[i]


def _set(state, slot, card: int) -> None:
    place, player, i = slot
    if place == "hand":
        state.hands[player][i] = card
    elif place == "deck":
        state.deck[i] = card
    else:
        state.pile[i] = card


def reshuffle_hidden(state, seat: int, rnd: random.Random):
    """A copy of ``state`` whose hidden cards are redistributed at random over their slots."""
    other = copy.deepcopy(state)
    slots = hidden_slots(other, seat)
    cards = [_get(other, slot) for slot in slots]
    rnd.shuffle(cards)
    for slot, card in zip(slots, cards, strict=True):
        _set(other, slot, card)
    check_every_card_once(other)
    return other


def hidden_cards(state, seat: int) -> list[int]:
    return [_get(state, slot) for slot in hidden_slots(state, seat)]


def decide(strategy: BuiltinStrategy, phase: str, observation, stream: np.ndarray):
    """The strategy's decision in this phase, on a copy of the stream; and the stream after."""
    rng = stream.copy()
    if phase == "move":
        decision = strategy.choose_move(observation, rng)
    else:
        decision = strategy.choose_claim(observation, rng)
    return decision, int(rng[0])


def test_decision_points_replays_play_game():
    game_settings = BluffSettings(players=4)
    lineup = "bayes,random,cautious,aggressive"
    points = decision_points(game_settings, engine.lineup(lineup), 31, 2)
    phases = []
    try:
        while True:
            phases.append(next(points)[0])
    except StopIteration as stop:
        record = stop.value
    assert record.scores == play_game(game_settings, engine.lineup(lineup), 31, 2).scores
    assert "move" in phases and "claim" in phases


def check_no_peeking(spec: str, players: int, names: list[str], seed: int, checks: int):
    """Check ``checks`` random decision points of one game for strategy ``spec``.

    The game is driven by the lineup ``names``; at each chosen decision point the tested
    strategy is asked for the acting seat's decision in the real and in the reshuffled state.
    Returns how many of the checked points really had hidden cards moved.
    """
    game_settings = BluffSettings(players=players)
    strategy = engine.lineup(spec)[0]
    rnd = random.Random(seed)
    changed = 0
    visited = 0
    for phase, state, seat, stream in decision_points(
        game_settings, engine.lineup(",".join(names)), seed
    ):
        visited += 1
        if rnd.random() > 0.25 or checks == 0:
            continue
        checks -= 1
        other = reshuffle_hidden(state, seat, rnd)
        # only hidden information differs
        assert other.hands[seat] == state.hands[seat]
        assert [c for c, o in zip(state.pile, state.pile_owners, strict=True) if o == seat] == [
            c for c, o in zip(other.pile, other.pile_owners, strict=True) if o == seat
        ]
        changed += hidden_cards(other, seat) != hidden_cards(state, seat)
        seen = observe(state, seat)
        assert observe(other, seat) == seen
        assert decide(strategy, phase, observe(other, seat), stream) == decide(
            strategy, phase, seen, stream
        )
        assert_own_cards_matter(state, seat, rnd)
    assert visited > 0
    return changed


def assert_own_cards_matter(state, seat: int, rnd: random.Random) -> None:
    """Converse: swapping one of the player's own hand cards for a hidden card of another type
    changes its observation (its hand and its unseen cards)."""
    hand = state.hands[seat]
    slots = hidden_slots(state, seat)
    candidates = [
        (i, slot) for i in range(len(hand)) for slot in slots if _get(state, slot) != hand[i]
    ]
    if not candidates:
        return
    i, slot = rnd.choice(candidates)
    other = copy.deepcopy(state)
    mine, theirs = other.hands[seat][i], _get(other, slot)
    other.hands[seat][i] = theirs
    _set(other, slot, mine)
    check_every_card_once(other)
    before, after = observe(state, seat), observe(other, seat)
    assert after != before
    assert after.hand != before.hand
    assert not np.array_equal(after.unseen(), before.unseen())


@pytest.mark.parametrize("spec", TESTED)
@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    names=st.integers(2, 6).flatmap(
        lambda n: st.lists(st.sampled_from(NAMES), min_size=n, max_size=n)
    ),
)
def test_hidden_cards_never_change_a_decision(spec, seed, names):
    names = [spec, *names[1:]]  # the tested strategy plays too
    changed = check_no_peeking(spec, len(names), names, seed, checks=12)
    assert changed > 0


def test_own_pile_cards_matter():
    """Converse for the pile: a card the player placed itself is part of what it knows."""
    game_settings = BluffSettings(players=3)
    strategies = engine.lineup("random,random,random")
    found = False
    for phase, state, seat, _ in decision_points(game_settings, strategies, 4):
        if phase != "claim" or seat not in state.pile_owners:
            continue
        mine = state.pile_owners.index(seat)
        for slot in hidden_slots(state, seat):
            if _get(state, slot) != state.pile[mine]:
                other = copy.deepcopy(state)
                card = _get(other, slot)
                _set(other, slot, other.pile[mine])
                other.pile[mine] = card
                check_every_card_once(other)
                assert observe(other, seat).known != observe(state, seat).known
                found = True
                break
        if found:
            break
    assert found


def test_public_information_is_in_the_observation():
    """Sanity: the observation does follow the public facts it is made of."""
    game_settings = BluffSettings(players=3)
    for phase, state, seat, _ in decision_points(game_settings, engine.lineup("random*3"), 8):
        if phase == "move" and state.claim_count > 0 and state.round_index > 0:
            seen = observe(state, seat)
            assert seen.pile_size == len(state.pile)
            assert seen.draw_pile_size == state.draw_pile_size
            assert (seen.claim_count, seen.claim_kind) == (state.claim_count, state.claim_kind)
            assert seen.scores == tuple(state.scores)
            assert seen.revealed == tuple(int(x) for x in state.revealed)
            assert sum(seen.revealed) == sum(state.scores)
            assert seen.history == tuple(state.history)
            assert seen.unseen().min() >= 0
            break
    else:
        pytest.fail("no decision point after a doubt")


# --- the compiled strategies depend only on their arguments ----------------------------------

CODES = {
    "random": RANDOM,
    "bayes": BAYES,
    "cautious": CAUTIOUS,
    "aggressive": AGGRESSIVE,
    "stakes": STAKES,
}


@st.composite
def situations(draw):
    """Arguments of one decision: a hand, known pile cards, unseen cards, sizes, a claim."""
    deck = np.full(N_CARD_TYPES, 8, dtype=np.int64)
    hand_size = draw(st.integers(0, 6))
    hand = np.asarray(
        draw(st.lists(st.integers(0, N_CARD_TYPES - 1), min_size=hand_size, max_size=hand_size)),
        dtype=np.int64,
    )
    known = np.asarray(
        draw(st.lists(st.integers(0, 2), min_size=N_CARD_TYPES, max_size=N_CARD_TYPES)),
        dtype=np.int64,
    )
    unseen = deck - known
    for card in hand:
        unseen[card] -= 1
    unseen = np.maximum(unseen - np.asarray(
        draw(st.lists(st.integers(0, 6), min_size=N_CARD_TYPES, max_size=N_CARD_TYPES))
    ), 0).astype(np.int64)
    pile_size = int(known.sum()) + draw(st.integers(0, 10))
    draw_size = draw(st.integers(0, 40))
    cap = draw(st.integers(1, 40))
    claim_count = draw(st.integers(0, cap))
    claim_kind = -1 if claim_count == 0 else draw(st.integers(0, N_KINDS - 1))
    if claim_count == 0 and hand_size == 0 and draw_size == 0:
        draw_size = 1
    table = np.asarray(
        draw(st.lists(st.integers(0, 40), min_size=TABLE_SIZE, max_size=TABLE_SIZE)),
        dtype=np.int64,
    )
    table[TABLE_TARGET] = draw(st.integers(1, 60))
    if draw(st.booleans()):
        table[TABLE_OTHERS] = NOBODY
    unknown = pile_size - int(known.sum())
    for kind in range(N_KINDS):  # opponents' cards on the pile are unknown pile cards
        table[TABLE_EVIDENCE + kind] = min(table[TABLE_EVIDENCE + kind] % 4, unknown)
        unknown -= table[TABLE_EVIDENCE + kind]
    return (
        hand, hand_size, known, unseen, pile_size, draw_size, claim_count, claim_kind, cap, table
    )


def _compiled_move(code, params, situation, rng, work):
    hand, hand_size, known, unseen, pile_size, draw_size, count, kind, cap, table = situation
    return choose_move(
        code, params, hand, hand_size, known, unseen, pile_size, draw_size, count, kind, cap,
        rng, work, table,
    )


def _compiled_claim(code, params, situation, rng, work):
    _, _, known, unseen, pile_size, _, count, kind, cap, table = situation
    return choose_claim(
        code, params, known, unseen, pile_size, count, kind, cap, rng, work, table
    )


@pytest.mark.parametrize("spec", TESTED)
@settings(max_examples=60, deadline=None)
@given(situation=situations(), seed=st.integers(0, 2**64 - 1), garbage=st.floats(-1e9, 1e9))
def test_compiled_strategies_depend_only_on_their_arguments(spec, situation, seed, garbage):
    player = parse_player(spec, STRATEGIES)
    code = CODES[player.strategy]
    params = np.zeros(MAX_PARAMS, dtype=np.float64)
    params[: len(player.params)] = [value for _, value in player.params]
    assert code == strategy_code(player)
    np.testing.assert_array_equal(params, strategy_params(player))
    inputs = copy.deepcopy(situation)
    stream = np.array([seed], dtype=np.uint64)
    dirty = np.full((WORKSPACE_ROWS, N_KINDS), garbage, dtype=np.float64)
    for call in (_compiled_move, _compiled_claim):
        if call is _compiled_claim and situation[6] >= situation[8] and situation[7] == 4:
            continue  # no claim can best (cap, elephant): the engine forces a doubt
        results = []
        for work in (new_workspace(), new_workspace(), dirty.copy()):
            rng = stream.copy()
            decision = tuple(int(x) for x in call(code, params, situation, rng, work))
            results.append((decision, int(rng[0])))
        assert results[0] == results[1] == results[2]
        # the arguments are inputs only: nothing the player holds is changed
        for given_arg, kept in zip(situation, inputs, strict=True):
            np.testing.assert_array_equal(given_arg, kept)
