"""Hearts' reference engine: the rules step by step, hand-computed cases, invariants."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import rng
from zooanalysis.cards.bits import mask_of
from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.decisions import OPTION_BINS
from zooanalysis.games.hearts import engine
from zooanalysis.games.hearts.engine import (
    legal_cards,
    pass_options,
    play_game,
    play_hand,
    trick_winner,
)
from zooanalysis.games.hearts.faces import card_mask, high_face, high_mask, high_of
from zooanalysis.games.hearts.rules import HeartsSettings
from zooanalysis.games.hearts.strategies import (
    STRATEGIES,
    random_pass,
    subset_by_rank,
)

RULES = HeartsSettings()


def cards(text: str) -> list[int]:
    return parse_cards(text)


def test_aces_are_high() -> None:
    """An ace moves to rank 14 and back; the Ace of Spades beats the King."""
    assert high_face(cards("AS")[0]) == 3 * 16 + 14
    every = mask_of(range(64)) & ~mask_of(s * 16 + r for s in range(4) for r in (0, 14, 15))
    assert card_mask(high_mask(every)) == every
    assert trick_winner(cards("KS AS 2S QS")) == 1


def test_the_two_of_clubs_leads_the_first_trick() -> None:
    hand = cards("2C 5C AH QS")
    assert legal_cards(hand, [], False, True, RULES) == cards("2C")
    assert legal_cards(hand, [], False, True, HeartsSettings(first_lead="start-seat")) == cards(
        "2C 5C"
    )  # no points led to the first trick


def test_hearts_must_be_broken_before_they_are_led() -> None:
    hand = cards("3D AH 5H")
    assert legal_cards(hand, [], False, False, RULES) == cards("3D")
    assert legal_cards(hand, [], True, False, RULES) == hand
    assert legal_cards(cards("AH 5H"), [], False, False, RULES) == cards("AH 5H")  # only hearts
    free = HeartsSettings(hearts_must_be_broken=False)
    assert legal_cards(hand, [], False, False, free) == hand


def test_the_queen_may_be_led_and_is_not_a_heart_for_the_lead() -> None:
    """Decision #4: "unless the leader has nothing but hearts": the Queen of Spades is no
    heart, so it may be led before hearts are broken, and a leader holding hearts and the
    Queen must lead the Queen. Leading the first trick (``start-seat``), #5's "unless it
    holds nothing else" lets a hand of points only lead one: the Queen if it has it (hearts
    are not broken), any heart if it holds nothing but hearts."""
    assert legal_cards(cards("QS 4H 9H"), [], False, False, RULES) == cards("QS")
    assert legal_cards(cards("QS 2D 4H"), [], False, False, RULES) == cards("QS 2D")
    start = HeartsSettings(first_lead="start-seat")
    assert legal_cards(cards("QS 4H 9H"), [], False, True, start) == cards("QS")
    assert legal_cards(cards("4H 9H"), [], False, True, start) == cards("4H 9H")
    assert legal_cards(cards("QS 3C 4H"), [], False, True, start) == cards("3C")


def test_follow_suit_and_no_points_on_the_first_trick() -> None:
    hand = cards("4D QS 7H 9S")
    assert legal_cards(hand, cards("2C"), False, True, RULES) == cards("4D 9S")
    assert legal_cards(cards("QS 7H"), cards("2C"), False, True, RULES) == cards("QS 7H")
    allowed = HeartsSettings(no_points_first_trick=False)
    assert legal_cards(hand, cards("2C"), False, True, allowed) == hand
    assert legal_cards(hand, cards("2S"), False, False, RULES) == cards("QS 9S")
    assert legal_cards(hand, cards("2C"), False, False, RULES) == hand  # void later: anything


def test_breaking_hearts() -> None:
    assert engine.breaks_hearts(cards("2H")[0], RULES)
    assert engine.breaks_hearts(cards("QS")[0], RULES)
    assert not engine.breaks_hearts(cards("QS")[0], HeartsSettings(queen_breaks_hearts=False))


def test_identical_cards_from_different_decks() -> None:
    """Through the Zoo: the earlier played of two identical cards wins, or the later."""
    trick = cards("9S KS 3H KS")
    assert trick_winner(trick, EARLIER_WINS) == 1
    assert trick_winner(trick, LATER_WINS) == 3


def test_random_passes_are_every_subset_once() -> None:
    """The colexicographic ranks 0..285 give each 3-subset of a 13-card hand exactly once."""
    hand = high_of(cards("2C 5C 9C AC 3D JD 4H 8H QH KH 2S 7S AS"))
    subsets = {int(subset_by_rank(hand, 3, r)) for r in range(286)}
    expected = {int(mask_of(c)) for c in itertools.combinations(
        [f for f in range(64) if int(hand) >> f & 1], 3)}  # fmt: skip
    assert subsets == expected
    stream = rng.game_stream(1, 2)
    counts: dict[int, int] = {}
    for _ in range(286 * 40):
        chosen = int(random_pass(hand, 3, stream))
        counts[chosen] = counts.get(chosen, 0) + 1
    assert len(counts) == 286  # every subset drawn; chi-square-ish bound on the spread
    assert max(counts.values()) < 90 and min(counts.values()) > 10


def test_the_random_policy_is_specified() -> None:
    text = STRATEGIES["random"].description
    for fragment in ("colexicographic", "below(m)", "C(13, 3) = 286", "2, 3, ..., 10, J, Q, K, A"):
        assert fragment in text


def test_passing_moves_cards_to_the_left() -> None:
    """Everyone picks, then all are handed on at once: seat 1's cards go to seat 2."""
    deals = [cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
             cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"),
             cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
             cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")]  # fmt: skip
    record = play_hand(RULES, deals, engine.lineup("safe*4"), rng.game_stream(3, 0))
    assert record.direction == 1
    assert record.passed[0] == sorted(cards("QC KC AC"))  # the highest of its shortest suit
    assert record.passed[3] == sorted(cards("QS KS AS"))  # the dangerous spades
    assert record.passed[2] == sorted(cards("AH KH QH"))  # its highest hearts
    first = record.tricks[0]
    assert first[1][0] == cards("2C")[0]
    # the Two of Clubs stayed with seat 1, who leads it
    assert record.leader == 0


def test_the_decisions_of_a_hand_counted_by_hand() -> None:
    """Each seat holds one suit and passes 3 cards left: every pass is any 3 of 13 cards
    (286); then the first trick: the Two of Clubs lead is forced (1), seat 2 follows with
    one of the 3 clubs it was passed (3), seat 3, void in clubs, may not throw a heart on
    the first trick, so one of the 3 diamonds it was passed (3), and seat 4 (10 spades
    left after passing QS KS AS, and AH KH QH) any spade (10)."""
    deals = [cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
             cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"),
             cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
             cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")]  # fmt: skip
    record = play_hand(RULES, deals, engine.lineup("safe*4"), rng.game_stream(3, 0))
    assert record.decisions[:8] == [286, 286, 286, 286, 1, 3, 3, 10]
    assert len(record.decisions) == 4 + 52 and record.decisions[-4:] == [1, 1, 1, 1]
    hold = play_hand(HeartsSettings(passing="hold"), deals, engine.lineup("safe*4"),
                     rng.game_stream(3, 0))  # fmt: skip
    assert len(hold.decisions) == 52  # no passes in a hold hand
    # the first trick, all void in clubs: seat 2 any diamond (13), seat 3 holds nothing but
    # hearts so any heart (13), seat 4 any spade but the Queen (12)
    assert hold.decisions[:4] == [1, 13, 13, 12]


def test_pass_options_are_combinations_up_to_the_top_bin() -> None:
    assert pass_options(13, 3) == 286
    assert pass_options(13, 4) == 715
    assert pass_options(13, 6) == OPTION_BINS  # 1716 passes: the top bin
    assert pass_options(13, 1) == 13


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["random*4", "safe,bold,random,safe"]))
def test_every_hand_adds_up(seed, lineup) -> None:
    """Every card is played once and taken once (the engine checks it after every hand);
    a hand's scores add up to 26, or 78 when the others take a moon."""
    record = play_game(HeartsSettings(max_hands=3), engine.lineup(lineup), seed, 0)
    for hand in record.hands:
        assert sum(hand.points) == 26 and sum(hand.point_cards) == 14
        assert len(hand.tricks) == 13
        total = sum(hand.scores)
        assert total == (78 if hand.shooter >= 0 else 26)
        assert hand.queen_taker == hand.tricks[hand.queen_trick][2]
        assert all(len(p) == (3 if hand.direction else 0) for p in hand.passed)
    assert record.points == [sum(h.scores[s] for h in record.hands) for s in range(4)]


def test_the_game_ends_at_the_end_score() -> None:
    record = play_game(RULES, engine.lineup("random*4"), 5, 1)
    assert max(record.points) >= 100
    assert all(max(sum(h.scores[s] for h in record.hands[:k]) for s in range(4)) < 100
               for k in range(1, len(record.hands)))  # fmt: skip
    assert record.winners == [s for s in range(4) if record.points[s] == min(record.points)]
    capped = play_game(HeartsSettings(max_hands=2), engine.lineup("random*4"), 5, 1)
    assert len(capped.hands) == 2 and capped.end_reason == engine.CAP


def test_safe_ducks_and_dumps_the_queen() -> None:
    """Following, ``safe`` plays its highest card under the winner; void, it throws the
    Queen first."""
    safe = engine.lineup("safe")[0]
    observation = engine.Observation(
        seat=1, players=4, hand_index=0, direction=0, pass_count=0,
        hand=tuple(cards("3D 9D KD 5S")), passed=(), leader=0, trick_index=2,
        trick=tuple(cards("10D")), played=tuple(cards("2C 3C 4C 5C 10D")), hearts_broken=False,
        point_cards_taken=(0, 0, 0, 0), scores=(0, 0, 0, 0), settings=RULES,
    )  # fmt: skip
    assert safe.choose_card(observation, rng.game_stream(0, 0)) == cards("9D")[0]
    void = engine.Observation(**{**observation.__dict__, "hand": tuple(cards("QS 4H AH 2S"))})
    assert safe.choose_card(void, rng.game_stream(0, 0)) == cards("QS")[0]


def test_custom_python_strategies_play() -> None:
    """A notebook strategy: always the first legal card, passing its first three."""

    class First:
        def choose_pass(self, observation, stream):
            return observation.hand[:3]

        def choose_card(self, observation, stream):
            return observation.legal_cards()[0]

    record = play_game(HeartsSettings(max_hands=4), [First(), *engine.lineup("random*3")], 2)
    assert len(record.hands) == 4
    with pytest.raises(engine.IllegalMoveError):

        class Cheat(First):
            def choose_card(self, observation, stream):
                return 99

        play_game(HeartsSettings(max_hands=1), [Cheat(), *engine.lineup("random*3")], 2)
    assert np.isfinite(record.points).all()
