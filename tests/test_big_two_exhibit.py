"""Big Two as a Through the Zoo exhibit: one round from given hands, in both engines."""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.cards.bits import mask_of
from zooanalysis.cards.deck import DeckSpec
from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.games.big_two import engine, exhibit
from zooanalysis.games.big_two.rules import BigTwoSettings
from zooanalysis.games.big_two.strategies import STRATEGIES
from zooanalysis.rng import game_stream, shuffle
from zooanalysis.strategy_spec import parse_lineup

LINEUPS = ["random,random,random,random", "control,greedy,random,control",
           "greedy:shed=0,control:release=0,greedy,random"]


def personal_hands(players: int, seed: int) -> list[list[int]]:
    """13 cards per seat, each from its own shuffled deck (codes ``seat * 128 + face``)."""
    stream = game_stream(seed, 999)
    hands = []
    for seat in range(players):
        deck = DeckSpec().codes(first_copy=seat).copy()
        shuffle(deck, stream)
        hands.append([int(code) for code in deck[:13]])
    return hands


def test_the_exhibit_round_is_the_games_own_round():
    """With the start player leading and one deck, the exhibit round from the dealt hands is
    the game's round: same standings, cards left, and the same draws."""
    rules = exhibit.exhibit_settings(4)
    strategies = engine.lineup("random,control,greedy,random")
    for game in range(30):
        record = engine.play_game(rules, strategies, 3, game)
        stream = game_stream(3, game)
        hands = engine.deal_round(rules, stream)
        result = exhibit.play_exhibit(rules, hands, 0, strategies, stream, EARLIER_WINS)
        assert result.scores == tuple(record.rounds[0].cards_left)
        assert result.standing == record.rounds[0].standing()
        assert max(result.standing) == result.standing[record.winners[0]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("identical", [EARLIER_WINS, LATER_WINS])
def test_kernel_equals_reference_on_personal_decks(players, identical):
    """Many rounds from personal-deck hands (identical faces across seats), every strategy:
    the kernel's standing, scores, Diamonds and stream equal the reference's."""
    rules = exhibit.exhibit_settings(players)
    ties = 0
    for index, text in enumerate(LINEUPS * 4):
        specs = parse_lineup(",".join(text.split(",")[:players]), STRATEGIES)
        hands = personal_hands(players, 100 * players + index)
        start = index % players
        stream = game_stream(index, identical)
        reference = exhibit.play_exhibit(
            rules, hands, start, exhibit.reference_strategies(specs), stream, identical
        )
        codes, params = exhibit.strategy_arrays(specs)
        masks = np.array([mask_of(code & 127 for code in hand) for hand in hands], np.uint64)
        standing = np.zeros(players, np.int64)
        scores = np.zeros(players, np.int64)
        diamonds = np.zeros(players, np.int64)
        kernel_stream = game_stream(index, identical)
        exhibit.exhibit_round(exhibit.kernel_rules(rules), masks, start, codes, params,
                              kernel_stream, identical, standing, scores, diamonds)
        assert tuple(standing) == reference.standing
        assert tuple(scores) == reference.scores
        assert tuple(diamonds) == reference.diamonds
        assert kernel_stream[0] == stream[0]
        ties += _equal_keys_met(rules, hands, start, specs, identical, index)
    assert ties > 0  # identical faces really met on the table


class Spy:
    """A strategy that notes when its hand holds the very faces of the play on the table."""

    def __init__(self, inner) -> None:
        self.inner, self.met = inner, 0

    def choose_play(self, observation, rng):
        if observation.table and set(observation.table) <= set(observation.hand):
            self.met += 1
        return self.inner.choose_play(observation, rng)


def _equal_keys_met(rules, hands, start, specs, identical, index) -> int:
    """How often a player held the faces of the play it had to beat (identical cards)."""
    faces = [[code & 127 for code in hand] for hand in hands]
    spies = [Spy(strategy) for strategy in exhibit.reference_strategies(specs)]
    engine.play_round(rules, faces, start, spies, game_stream(index, identical), identical)
    return sum(spy.met for spy in spies)


def test_identical_cards_decide_who_goes_out():
    """Seat 1 holds the same ace as the one seat 0 leads: earlier-wins, it cannot beat it;
    later-wins, it does and goes out first."""
    rules = exhibit.exhibit_settings(2)
    hands = [parse_cards("AS 2D"), [128 + face for face in parse_cards("AS")]]
    specs = parse_lineup("random,greedy", STRATEGIES)

    class LeadTheAce:
        def choose_play(self, observation, rng):
            if not observation.leading:
                return ()
            return parse_cards("AS" if len(observation.hand) == 2 else "2D")

    for identical, first in ((EARLIER_WINS, 0), (LATER_WINS, 1)):
        strategies = [LeadTheAce(), exhibit.reference_strategies(specs)[1]]
        result = exhibit.play_exhibit(rules, hands, 0, strategies, game_stream(1, 0), identical)
        assert result.standing[first] == 200 and result.scores[first] == 0


def test_exhibit_settings_and_refusals():
    assert exhibit.exhibit_settings(3) == BigTwoSettings(players=3, opening="start-player")
    with pytest.raises(ValueError, match="2 to 4 players"):
        exhibit.exhibit_settings(5)
    from zooanalysis.games import get_game

    assert get_game("big-two").exhibit == "zooanalysis.games.big_two.exhibit"
