"""Hearts as a Through the Zoo exhibit (``notes/exhibit-interface``): one hold hand from
given hands, the moon as every point card in play, identical cards across seats."""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest

from zooanalysis import rng
from zooanalysis.cards.bits import mask_of
from zooanalysis.cards.deck import DeckSpec, deal
from zooanalysis.cards.encoding import face_of
from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.games.hearts import engine
from zooanalysis.games.hearts.exhibit import exhibit_round_checked, play_exhibit
from zooanalysis.games.hearts.game import GAME
from zooanalysis.games.hearts.rules import HeartsSettings, rules_array
from zooanalysis.games.hearts.strategies import strategy_code, strategy_params

EXHIBIT = HeartsSettings().for_exhibit()


def personal_hands(players: int, seed: int) -> list[list[int]]:
    """13 cards per player, each from its own shuffled 52-card deck (codes with the seat as
    the copy), as Through the Zoo draws them."""
    stream = rng.game_stream(seed, 0)
    hands = []
    for seat in range(players):
        cards, _ = deal(DeckSpec().codes(first_copy=seat), 1, 13, stream)
        hands.append(cards[0])
    return hands


def kernel_args(lineup: str):
    players = [s.player for s in engine.lineup(lineup)]
    codes = np.array([strategy_code(p) for p in players], dtype=np.int64)
    params = np.array([strategy_params(p) for p in players], dtype=np.float64)
    return codes, params


def test_the_game_names_its_exhibit_module() -> None:
    module = import_module(GAME.exhibit)
    assert callable(module.play_exhibit) and callable(module.exhibit_round)


@pytest.mark.parametrize(("identical", "winner"), [(EARLIER_WINS, 0), (LATER_WINS, 1)])
def test_identical_queens_and_the_moon(identical, winner) -> None:
    """Two Queens of Spades from two decks in one trick: the earlier (or later) played wins
    both; taking every point card in play (two Queens, 26 points) shoots the moon, so the
    other player takes 26."""
    hands = [parse_cards("QS"), parse_cards("QS#2")]
    strategies = engine.lineup("random,random")
    result = play_exhibit(EXHIBIT, hands, 0, strategies, rng.game_stream(1, 1), identical)
    expected = [26, 26]
    expected[winner] = 0
    assert list(result.scores) == expected
    assert list(result.standing) == [-s for s in expected]
    codes, params = kernel_args("random,random")
    standing, scores = exhibit_round_checked(
        rules_array(EXHIBIT), [mask_of([face_of(c) for c in h]) for h in hands], 0, codes,
        params, rng.game_stream(1, 1), identical,
    )  # fmt: skip
    assert scores.tolist() == expected and standing.tolist() == [-s for s in expected]


def test_the_moon_is_every_point_card_in_play() -> None:
    """Three Aces of Hearts and nothing else: the leader's ace wins (earlier), it takes all
    three point cards and shoots the moon worth 3, so the others take 3 each."""
    hands = [parse_cards("AH"), parse_cards("AH#2"), parse_cards("AH#3")]
    result = play_exhibit(EXHIBIT, hands, 1, engine.lineup("random*3"),
                          rng.game_stream(2, 0), EARLIER_WINS)  # fmt: skip
    assert result.scores == (3, 0, 3)
    off = play_exhibit(HeartsSettings(moon="off").for_exhibit(), hands, 1,
                       engine.lineup("random*3"), rng.game_stream(2, 0), EARLIER_WINS)  # fmt: skip
    assert off.scores == (0, 3, 0)


def test_the_exhibit_is_one_hand_of_the_game() -> None:
    """A one-hand game of ``hearts`` (hold, the start seat leads) deals, then plays exactly
    the exhibit's hand from those cards, on the same stream."""
    rules = HeartsSettings(passing="hold", first_lead="start-seat", max_hands=1)
    assert rules == EXHIBIT
    strategies = engine.lineup("safe,bold,random,safe")
    for game in range(20):
        record = engine.play_game(rules, strategies, 9, game)
        stream = rng.game_stream(9, game)
        hands, _ = deal(engine.DECK, 4, 13, stream)
        result = play_exhibit(EXHIBIT, hands, 0, strategies, stream, EARLIER_WINS)
        assert list(result.scores) == record.points


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lineup", ["random", "safe", "bold:moon_at=3", "bold"])
def test_kernel_equals_reference_on_personal_decks(players, lineup) -> None:
    """Many hands drawn from personal decks (identical faces across seats), both tie rules:
    the kernel's exhibit round is the reference's, score for score."""
    names = ",".join([lineup] * players)
    strategies = engine.lineup(names)
    codes, params = kernel_args(names)
    rules = rules_array(EXHIBIT)
    duplicates = 0
    for index in range(60):
        hands = personal_hands(players, 1000 * players + index)
        faces = [[face_of(c) for c in hand] for hand in hands]
        every = [f for hand in faces for f in hand]
        duplicates += len(every) - len(set(every))
        identical = index % 2
        start = index % players
        reference = play_exhibit(EXHIBIT, hands, start, strategies,
                                 rng.game_stream(5, index), identical)  # fmt: skip
        standing, scores = exhibit_round_checked(
            rules, [mask_of(f) for f in faces], start, codes, params,
            rng.game_stream(5, index), identical,
        )  # fmt: skip
        assert tuple(scores.tolist()) == reference.scores
        assert tuple(standing.tolist()) == reference.standing
    assert duplicates > 0


def test_a_hand_holding_a_card_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="same card twice"):
        play_exhibit(EXHIBIT, [parse_cards("QS QS#2"), parse_cards("AH 2H")], 0,
                     engine.lineup("random*2"), rng.game_stream(0, 0), EARLIER_WINS)  # fmt: skip
