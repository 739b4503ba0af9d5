"""Trick winners: the winning card beats every other under the trick's order, the compiled
and readable versions agree, and the rulebooks' tricks come out as written."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.encoding import HEARTS, NO_SUIT, SPADES, Card, joker
from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.orders import (
    DOWN,
    MIDDLE_OUT,
    NUMERIC,
    SLALOM,
    TWOS_HIGH,
    UP,
    direction_for_trick,
    strongest_first,
)
from zooanalysis.cards.tricks import (
    EARLIER_WINS,
    LATER_WINS,
    beats,
    earliest_position,
    highest_positions,
    latest_position,
    trick_winner,
    winning_position,
)

TEAM_A, TEAM_B = 0b0101, 0b1010
"""Hodge Podge Dodgeball in play order: partners sit diagonally, so positions 0 and 2 are
one team, 1 and 3 the other."""


def cards(text: str) -> list[Card]:
    return [Card.from_code(code) for code in parse_cards(text)]


def compiled_winner(trick: list[Card], led: int | None = None, trump: int = NO_SUIT,
                    order: int = NUMERIC, direction: int = UP, jokers_strongest: bool = False,
                    ties: int = EARLIER_WINS) -> int:
    faces = np.array([card.face for card in trick], dtype=np.int64)
    led = trick[0].suit if led is None else led
    return trick_winner(faces, len(trick), led, trump, order, direction, jokers_strongest, ties)


def highest(trick: list[Card], order: int = NUMERIC, direction: int = UP) -> int:
    faces = np.array([card.face for card in trick], dtype=np.int64)
    return highest_positions(faces, len(trick), order, direction)


@st.composite
def tricks(draw):
    """Tricks of 1-6 distinct cards with many ties: ranks 1-5, several copies, jokers."""
    suited = st.builds(Card, st.integers(0, 3), st.integers(1, 5), st.integers(0, 3))
    card = st.one_of(suited, st.builds(joker, st.integers(0, 2)))
    trick = draw(st.lists(card, min_size=1, max_size=6, unique=True))
    led = draw(st.one_of(st.none(), st.integers(0, 4)))
    return (trick, led, draw(st.integers(0, 4)), draw(st.integers(0, 3)),
            draw(st.integers(0, 1)), draw(st.booleans()), draw(st.integers(0, 1)))


def standing(card: Card, led: int, trump: int, order: int, direction: int,
             jokers_strongest: bool) -> tuple[int, int]:
    """The test's own statement of the order: class (joker > trump > led > other), then the
    rank's place in the order's list (earlier in the list is stronger)."""
    if card.is_joker:
        return (3, 0) if jokers_strongest else (0, 0)
    place = -strongest_first(order, direction).index(card.rank)
    if card.suit == trump:
        return (2, place)
    if card.suit == led or led == NO_SUIT:
        return (1, place)
    return (0, 0)


@settings(max_examples=500, deadline=None)
@given(tricks())
def test_the_winner_beats_every_other_card(case) -> None:
    trick, led, trump, order, direction, jokers_strongest, ties = case
    led_suit = trick[0].suit if led is None else led
    args = (led_suit, trump, order, direction, jokers_strongest)
    winner = winning_position(trick, led, trump, order, direction, jokers_strongest, ties)
    assert compiled_winner(trick, led, trump, order, direction, jokers_strongest, ties) == winner
    strengths = [standing(card, *args) for card in trick]
    for position, card in enumerate(trick):
        if position == winner:
            continue
        assert not beats(card, trick[winner], *args)
        assert strengths[position] <= strengths[winner]
        if strengths[position] == strengths[winner]:
            # a tie: the named rule decides
            assert (winner < position) == (ties == EARLIER_WINS)
        else:
            assert beats(trick[winner], card, *args)


@settings(max_examples=300, deadline=None)
@given(tricks())
def test_highest_positions_are_the_cards_of_the_highest_rank(case) -> None:
    trick, _, _, order, direction, _, _ = case
    positions = highest(trick, order, direction)
    ranks = [-strongest_first(order, direction).index(c.rank) for c in trick if not c.is_joker]
    top = max(ranks, default=None)
    expected = {
        i for i, c in enumerate(trick)
        if not c.is_joker and -strongest_first(order, direction).index(c.rank) == top
    }
    assert {i for i in range(6) if positions >> i & 1} == expected
    assert latest_position(positions) == max(expected, default=-1)
    assert earliest_position(positions) == min(expected, default=-1)


def test_chai_tea_jazz_may_trump_example() -> None:
    # "The contract is Trump (Hearts) and Aslan leads a 9 of Clubs. Leo ... play[s] a 2 of
    # Hearts ... Mufasa ... plays a 7 of Clubs. Leo wins the trick"
    assert compiled_winner(cards("9C 2H 7C"), trump=HEARTS) == 1
    assert winning_position(cards("9C 2H 7C"), trump=HEARTS) == 1


def test_chai_tea_jazz_trump_ranking() -> None:
    # "the 9 in the trump suit is the strongest down to the 1 in the trump suit, then the
    # 9>1 in the lead suit"
    assert compiled_winner(cards("9C 1H 8C"), trump=HEARTS) == 1
    assert compiled_winner(cards("1H 9H 9C"), trump=HEARTS) == 1
    assert compiled_winner(cards("2C 9D 1C"), trump=HEARTS) == 0  # off-suit never wins
    # Under: "1>2>3..>9"; Middle: "5, 4, 6, 3, 7, 2, 8, 1, 9"
    assert compiled_winner(cards("5C 1C 9C"), direction=DOWN) == 1
    assert compiled_winner(cards("9C 4C 6C"), order=MIDDLE_OUT) == 1
    # Slalom started low: the lowest wins the first trick, the highest the second
    for trick_number, expected in ((0, 1), (1, 2), (2, 1)):
        direction = direction_for_trick(DOWN, SLALOM, trick_number)
        assert compiled_winner(cards("5S 1S 9S"), direction=direction) == expected


def test_chai_tea_jazz_six_player_jokers() -> None:
    # "The Jokers are the strongest cards in the game, beating any trump or other card. The
    # later-played Joker wins if both are played in the same trick."
    trick = [*cards("AS"), joker(0), *cards("13S"), joker(1), *cards("KH")]
    assert compiled_winner(trick, trump=SPADES, jokers_strongest=True, ties=LATER_WINS) == 3
    assert winning_position(trick, trump=SPADES, jokers_strongest=True, ties=LATER_WINS) == 3
    assert compiled_winner(cards("2H 9H"), trump=SPADES, jokers_strongest=True,
                           ties=LATER_WINS) == 1
    # a led Joker leaves no suit: it wins, and only the later Joker beats it
    assert compiled_winner([joker(0), *cards("13S 12H")], jokers_strongest=True,
                           ties=LATER_WINS) == 0


def test_chai_tea_jazz_double_deck_earlier_card_wins() -> None:
    # "The only rule needed is that the earlier played card wins, if there is a tie."
    trick = cards("3H 7H 7H#2 5H 7H#3")
    assert compiled_winner(trick, ties=EARLIER_WINS) == 1
    assert compiled_winner(trick, ties=LATER_WINS) == 4
    # Through the Zoo: identical cards from different players' decks, either tie rule
    assert compiled_winner(cards("QS#2 QS#4 2S"), ties=EARLIER_WINS) == 0
    assert compiled_winner(cards("QS#2 QS#4 2S"), ties=LATER_WINS) == 1


def test_short_zoot_suit_example() -> None:
    # "Bearilyn Monroe starts the trick with a 5 hearts. Bearyl Streep follows suit with a 7
    # hearts. Audrey Hepbearn ... plays a 3 of clubs. Bearyl Streep ... will win the trick"
    assert compiled_winner(cards("5H 7H 3C")) == 1


def test_big_two_singles() -> None:
    assert compiled_winner(cards("KS 2S AS"), order=TWOS_HIGH) == 1
    assert compiled_winner(cards("KS AS 3S"), order=TWOS_HIGH) == 1


def test_dodgeball_getting_hit() -> None:
    # "Peter leads a 5 of Spades. White plays a 6 of Clubs. Kate plays a 3 of Diamonds.
    # Blazer ... plays a 7 of Hearts and thus gets hit because they played the highest number."
    assert highest(cards("5S 6C 3D 7H")) == 1 << 3


def test_dodgeball_blocked() -> None:
    # "Blade leads a 3 of Clubs. Justin plays a 7 of Hearts. Laser plays an 5 of Spades.
    # Gordon plays a 7 of Diamonds, blocking the ball from hitting Justin."
    positions = highest(cards("3C 7H 5S 7D"))
    assert positions == 0b1010
    assert positions & TEAM_B == positions  # all highest cards on one team: a block


def test_dodgeball_catching() -> None:
    # "Fran leads a 5 of Spades. Steve plays a 3 of Diamonds. Laser plays an 2 of Hearts.
    # Dwight plays a 5 of Clubs, catching the ball from Fran. Fran loses a card"
    positions = highest(cards("5S 3D 2H 5C"))
    assert positions == 0b1001 and positions & TEAM_A and positions & TEAM_B
    catcher = latest_position(positions)
    catcher_team = TEAM_A if TEAM_A >> catcher & 1 else TEAM_B
    caught = latest_position(positions & ~catcher_team)
    assert (catcher, caught) == (3, 0)  # Dwight catches from Fran
    # "Patches leads a 5 of Spades. Cotton plays a 5 of Diamonds ... Me'Shell plays a 5 of
    # Hearts ... Pepper plays a 5 of Clubs, catching the missed catch from Me'Shell.
    # Me'Shell is the latest player on the team that got caught"
    positions = highest(cards("5S 5D 5H 5C"))
    assert positions == 0b1111
    catcher = latest_position(positions)
    catcher_team = TEAM_A if TEAM_A >> catcher & 1 else TEAM_B
    assert (catcher, latest_position(positions & ~catcher_team)) == (3, 2)


def test_dodgeball_all_star_declared_and_ringers() -> None:
    # "Rosco leads a 7 of Spades. David plays a J of Diamonds. Chuck has the All-Star and
    # decides to play it as a J of Hearts. William plays a 5 of Clubs." The All-Star counts
    # as the declared J of Hearts: David and Chuck share the highest number.
    assert highest(cards("7S JD JH 5C")) == 0b0110
    # Ringers are 0 or 14 as declared: 14 is above the King, 0 below the ace
    assert highest(cards("KS 14D 5H 3C")) == 0b0010
    assert highest(cards("0S AD 5H")) == 0b0100
    # undeclared jokers are never the highest
    assert highest([joker(), *cards("2C")]) == 0b10


@pytest.mark.parametrize(("positions", "latest", "earliest"),
                         [(0, -1, -1), (1, 0, 0), (0b1010, 3, 1), (0b100000, 5, 5)])
def test_latest_and_earliest(positions: int, latest: int, earliest: int) -> None:
    assert latest_position(positions) == latest
    assert earliest_position(positions) == earliest

