"""The card machinery gives a kernel and a readable engine the same game.

A small trick-taking game, played twice: once by a numba kernel on hand rows, face masks
and tables (as a game's kernel will), once in plain Python on ``Card`` lists with the
readable rules. Every player plays a uniformly random legal card (``below`` on the shared
stream, the k-th legal card in increasing code order); the trick's winner leads the next.
Both must play the same cards and give the same winners for every deck, follow rule,
order schedule, joker and tie setting.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from zooanalysis.cards import follow, hands
from zooanalysis.cards.bits import SUIT_BIT, suits_held
from zooanalysis.cards.deck import DeckSpec, deal, deal_to_hands
from zooanalysis.cards.encoding import NO_SUIT, Card
from zooanalysis.cards.orders import direction_for_trick
from zooanalysis.cards.tricks import trick_winner, winning_position
from zooanalysis.rng import below, game_stream, seed_game


@njit(cache=True)
def play_kernel(template, players, copies, rule, trump, order, start, flip_every,
                jokers_strongest, ties, seed, game, played_out, winners_out):
    """Play one game; fill the codes played in order and each trick's winning seat."""
    stream = np.empty(1, dtype=np.uint64)
    seed_game(stream, np.uint64(seed), np.int64(game))
    deck = template.copy()
    rows = np.zeros((players, copies + 1), dtype=np.uint64)
    per_player = deck.shape[0] // players
    deal_to_hands(deck, players, per_player, stream, rows)
    trick = np.zeros(players, dtype=np.int64)
    leader, n_played, n_tricks = 0, 0, np.int64(0)  # typed, as the games pass them
    while True:
        direction = direction_for_trick(start, flip_every, n_tricks)
        led, played = np.int64(NO_SUIT), np.int64(0)
        for position in range(players):
            hand = rows[(leader + position) % players]
            faces = hands.hand_faces(hand)
            allowed = follow.legal_faces(faces, rule, led, trump, played, np.bool_(False))
            count = hands.count_playable(hand, allowed, np.bool_(True))
            if count == 0:
                return n_played, n_tricks
            code = hands.nth_playable(hand, allowed, np.bool_(True), below(stream, count))
            hands.hand_remove(hand, code)
            face = code & 127
            trick[position] = face
            if position == 0:
                led = face >> 4
            played |= SUIT_BIT[face >> 4]
            played_out[n_played] = code
            n_played += 1
        winner = trick_winner(trick, players, led, trump, order, direction, jokers_strongest,
                              ties)
        leader = (leader + winner) % players
        winners_out[n_tricks] = leader
        n_tricks += 1


def play_readable(template, players, rule, trump, order, start, flip_every,
                  jokers_strongest, ties, seed, game):
    """The same game with ``Card`` lists and the readable rules."""
    stream = game_stream(seed, game)
    dealt, _ = deal(template, players, None, stream)
    hand_of = [[Card.from_code(code) for code in hand] for hand in dealt]
    played_codes, winners = [], []
    leader = 0
    while True:
        direction = direction_for_trick(start, flip_every, len(winners))
        trick: list[Card] = []
        for position in range(players):
            hand = hand_of[(leader + position) % players]
            legal = sorted(follow.legal_cards(hand, trick, rule, trump), key=lambda c: c.code)
            if not legal:
                return played_codes, winners
            card = legal[below(stream, len(legal))]
            hand.remove(card)
            trick.append(card)
            played_codes.append(card.code)
        winner = winning_position(trick, None, trump, order, direction, jokers_strongest, ties)
        leader = (leader + winner) % players
        winners.append(leader)


@st.composite
def games(draw):
    spec = DeckSpec(
        tuple(draw(st.sets(st.integers(0, 15), min_size=2, max_size=9))),
        jokers=draw(st.integers(0, 2)),
        copies=draw(st.integers(1, 2)),
    )
    return dict(
        spec=spec,
        players=draw(st.integers(2, 6)),
        rule=draw(st.integers(0, follow.N_RULES - 1)),
        trump=draw(st.integers(0, 4)),
        order=draw(st.integers(0, 3)),
        start=draw(st.integers(0, 1)),
        flip_every=draw(st.sampled_from([0, 1, 2, 6])),
        jokers_strongest=draw(st.booleans()),
        ties=draw(st.integers(0, 1)),
        seed=draw(st.integers(0, 2**63 - 1)),
        game=draw(st.integers(0, 1000)),
    )


@settings(max_examples=150, deadline=None)
@given(games())
def test_kernel_and_readable_engine_play_the_same_game(case) -> None:
    spec = case.pop("spec")
    template = spec.codes()
    played = np.full(spec.size, -1, dtype=np.int64)
    winners = np.full(spec.size, -1, dtype=np.int64)
    settings_ = (case["players"], case["rule"], case["trump"], case["order"], case["start"],
                 case["flip_every"], case["jokers_strongest"], case["ties"], case["seed"],
                 case["game"])
    n_played, n_tricks = play_kernel(template, case["players"], spec.copies, *settings_[1:],
                                     played, winners)
    readable_played, readable_winners = play_readable(template, *settings_)
    assert played[:n_played].tolist() == readable_played
    assert winners[:n_tricks].tolist() == readable_winners
    if case["rule"] != follow.MUST_NOT_FOLLOW_STRICT:
        # without the strict rule a game only stops when a hand is empty
        assert n_played == (spec.size // case["players"]) * case["players"]


def test_hand_masks_see_every_held_suit() -> None:
    # a sanity check on the kernel's inputs: a dealt hand's suits are its cards' suits
    rows = hands.new_hands(1, 2)
    codes = np.array([3, 20, 128 + 40, 64], dtype=np.int64)
    hands.hand_fill(rows[0], codes, 0, 4)
    assert suits_held(np.uint64(hands.hand_faces(rows[0]))) == 0b0111
