"""Hodge Podge Dodgeball as a Through the Zoo exhibit: the exhibit round is a round of
Dodgeball from the same hands; kernel == reference on many hands from personal decks (two
players often hold the same face) for every strategy; the exhibit card's exceptions."""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.cards.encoding import COPY_STRIDE, DIAMONDS, FACE_BITS
from zooanalysis.games import get_game
from zooanalysis.games.dodgeball import engine, exhibit
from zooanalysis.games.dodgeball.strategies import STRATEGIES
from zooanalysis.games.exhibits import exhibit_module
from zooanalysis.rng import game_stream, shuffle
from zooanalysis.strategy_spec import parse_lineup


def personal_hands(stream: np.ndarray) -> list[list[int]]:
    """13 cards for each of 4 seats, each from its own shuffled deck (copy = seat)."""
    hands = []
    for seat in range(4):
        deck = np.array([seat * COPY_STRIDE + suit * 16 + rank for suit in range(4)
                         for rank in range(1, 14)], dtype=np.int64)
        shuffle(deck, stream)
        hands.append(sorted(int(code) for code in deck[:13]))
    return hands


def test_registered_as_an_exhibit() -> None:
    assert get_game("dodgeball").exhibit == "zooanalysis.games.dodgeball.exhibit"
    assert exhibit_module("dodgeball") is exhibit


def test_the_exhibit_cards_exceptions() -> None:
    """"T" (4-player teams), "Al" (aces low), "Use 2 Jokers still for the bench"."""
    settings = exhibit.exhibit_settings(4)
    assert settings.players == 4 and settings.aces == "low" and settings.allstars
    for players in (2, 3):
        with pytest.raises(ValueError, match="4 players"):
            exhibit.exhibit_settings(players)


def test_the_exhibit_is_a_round_of_dodgeball() -> None:
    settings = exhibit.exhibit_settings(4)
    strategies = engine.lineup("dodger,random,coach,random")
    for game in range(20):
        stream = game_stream(3, game)
        hands = personal_hands(stream)
        own = stream.copy()
        result = exhibit.play_exhibit(settings, hands, game % 4, strategies, stream, 0)
        deal = engine.Deal(hands=hands, benches=[[64], [192]])
        round_result = engine.play_round(settings, deal, strategies, own, game % 4)
        assert stream[0] == own[0]
        assert result.standing == tuple(int(seat % 2 == round_result.winner_team)
                                        for seat in range(4))
        assert result.diamonds == tuple(
            sum(1 for c in hand if c & FACE_BITS != 64 and (c & FACE_BITS) >> 4 == DIAMONDS)
            for hand in round_result.final_hands
        )


@pytest.mark.parametrize("lineup", ["random,random,random,random", "dodger,coach,random,dodger",
                                    "coach,coach,coach,coach"])
def test_kernel_equals_reference_on_personal_decks(lineup) -> None:
    settings = exhibit.exhibit_settings(4)
    rules = exhibit.kernel_rules(settings)
    players = parse_lineup(lineup, STRATEGIES)
    strategies = exhibit.reference_strategies(players)
    codes, params = exhibit.strategy_arrays(players)
    duplicates = 0
    for game in range(120):
        stream = game_stream(17, game)
        hands = personal_hands(stream)
        kernel_stream = stream.copy()
        result = exhibit.play_exhibit(settings, hands, game % 4, strategies, stream, game % 2)
        masks = np.array([sum(1 << (c & FACE_BITS) for c in hand) for hand in hands],
                         dtype=np.uint64)
        standing, scores, diamonds = (np.zeros(4, dtype=np.int64) for _ in range(3))
        exhibit.exhibit_round(rules, masks, game % 4, codes, params, kernel_stream, game % 2,
                              standing, scores, diamonds)
        assert tuple(standing) == result.standing and tuple(scores) == result.scores
        assert tuple(diamonds) == result.diamonds
        assert kernel_stream[0] == stream[0], "the same draws"
        faces = [c & FACE_BITS for hand in hands for c in hand]
        duplicates += len(faces) - len(set(faces))
    assert duplicates > 100, "hands from personal decks share faces"


def test_a_hand_holding_two_identical_cards_plays_the_same_in_both_engines() -> None:
    """After the setup pass a hand can hold the same face twice (one from each deck): the
    kernel counts the further copy, both engines treat the two as one choice."""
    settings = exhibit.exhibit_settings(4)
    rules = exhibit.kernel_rules(settings)
    players = parse_lineup("random*4", STRATEGIES)
    strategies = exhibit.reference_strategies(players)
    codes, params = exhibit.strategy_arrays(players)
    # seats 0 and 2 are partners holding the same 13 faces: every pass makes a duplicate
    hands = [[suit * 16 + rank for suit in range(4) for rank in range(1, 14)][i::4]
             for i in range(4)]
    hands[2] = [2 * COPY_STRIDE + (code & FACE_BITS) for code in hands[0]]
    hands[1] = [COPY_STRIDE + (code & FACE_BITS) for code in hands[1]]
    hands[3] = [3 * COPY_STRIDE + (code & FACE_BITS) for code in hands[3]]
    for game in range(60):
        stream = game_stream(23, game)
        kernel_stream = stream.copy()
        result = exhibit.play_exhibit(settings, hands, game % 4, strategies, stream, 0)
        masks = np.array([sum(1 << (c & FACE_BITS) for c in hand) for hand in hands],
                         dtype=np.uint64)
        standing, scores, diamonds = (np.zeros(4, dtype=np.int64) for _ in range(3))
        exhibit.exhibit_round(rules, masks, game % 4, codes, params, kernel_stream, 0,
                              standing, scores, diamonds)
        assert tuple(standing) == result.standing and tuple(diamonds) == result.diamonds
        assert kernel_stream[0] == stream[0]
