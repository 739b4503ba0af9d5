"""Follow rules: each rule's definition holds, the compiled table agrees with the readable
rules, and the rulebooks' examples come out as written."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards import bits, follow
from zooanalysis.cards.encoding import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER,
    NO_SUIT,
    SPADES,
    Card,
    joker,
)
from zooanalysis.cards.follow import (
    FREE,
    JOKER_ANY_TIME,
    JOKER_DECLARED,
    MAY_TRUMP,
    MUST_FOLLOW,
    MUST_NOT_FOLLOW,
    MUST_NOT_FOLLOW_STRICT,
    N_RULES,
    legal_cards,
)
from zooanalysis.cards.notation import parse_cards


def cards(text: str) -> list[Card]:
    return [Card.from_code(code) for code in parse_cards(text)]


@st.composite
def situations(draw):
    """A hand (suited cards, maybe jokers) and a trick of 0-3 other suited cards."""
    faces = draw(st.lists(st.integers(0, 63), unique=True, min_size=0, max_size=20))
    split = draw(st.integers(0, min(3, len(faces))))
    trick = [Card.from_code(face) for face in faces[:split]]
    hand = [Card.from_code(face) for face in faces[split:]]
    hand += [joker(j) for j in range(draw(st.integers(0, 2)))]
    rule = draw(st.integers(0, N_RULES - 1))
    trump = draw(st.integers(0, 4))
    return hand, trick, rule, trump


def suits_of(hand: list[Card]) -> set[int]:
    return {card.suit for card in hand if not card.is_joker}


@settings(max_examples=400, deadline=None)
@given(situations())
def test_each_rule_keeps_its_definition(situation) -> None:
    hand, trick, rule, trump = situation
    # undeclared jokers (JOKER_ANY_TIME) leave the real cards' rule unchanged
    legal = [card for card in legal_cards(hand, trick, rule, trump) if not card.is_joker]
    suited = [card for card in hand if not card.is_joker]
    led = trick[0].suit if trick else NO_SUIT
    in_trick = {card.suit for card in trick}
    holds_led = led in suits_of(hand)
    if rule == FREE or not trick:
        expected = suited
    elif rule == MUST_FOLLOW:
        # a card of the led suit if the player has one, else any card
        expected = [c for c in suited if c.suit == led] if holds_led else suited
    elif rule == MAY_TRUMP:
        if not holds_led:
            expected = suited
        elif led == trump:  # trump led must be followed if possible
            expected = [c for c in suited if c.suit == trump]
        else:  # follow suit, or trump even though able to follow
            expected = [c for c in suited if c.suit in (led, trump)]
    else:
        # never a suit already in the trick, unless no other card (strict: then no card)
        fresh = [c for c in suited if c.suit not in in_trick]
        expected = fresh if fresh or rule == MUST_NOT_FOLLOW_STRICT else suited
    assert legal == expected
    if suited and rule != MUST_NOT_FOLLOW_STRICT:
        assert legal, "a player with suited cards always has a legal card"


@settings(max_examples=400, deadline=None)
@given(situations(), st.sampled_from([JOKER_ANY_TIME, JOKER_DECLARED]))
def test_compiled_masks_agree_with_the_readable_rules(situation, joker_mode) -> None:
    hand, trick, rule, trump = situation
    led = trick[0].suit if trick else NO_SUIT
    played = sum(1 << suit for suit in {card.suit for card in trick})
    mask = bits.mask_of(card.face for card in hand if not card.is_joker)
    wild = joker_mode == JOKER_DECLARED and any(card.is_joker for card in hand)
    legal_mask = follow.legal_faces(mask, rule, led, trump, played, wild)
    jokers_ok = follow.jokers_playable(joker_mode, rule, led, trump, played)
    readable = legal_cards(hand, trick, rule, trump, joker_mode=joker_mode)
    assert sorted(bits.faces_in(legal_mask)) == sorted(c.face for c in readable if not c.is_joker)
    assert [c for c in readable if c.is_joker] == ([c for c in hand if c.is_joker]
                                                   if jokers_ok else [])


@settings(max_examples=300, deadline=None)
@given(situations())
def test_a_declared_joker_is_a_card_of_every_suit(situation) -> None:
    # with JOKER_DECLARED the hand plays as if it held a card of every suit: the legal real
    # cards are those of the rule's legal suits for a hand holding all four, and the joker
    # may be declared as any of those suits
    hand, trick, rule, trump = situation
    hand = [*(card for card in hand if not card.is_joker), joker()]
    led = trick[0].suit if trick else NO_SUIT
    in_trick = frozenset(card.suit for card in trick)
    legal = legal_cards(hand, trick, rule, trump, joker_mode=JOKER_DECLARED)
    suits = follow.legal_suits(rule, frozenset(range(4)), led, trump, in_trick)
    assert [c for c in legal if not c.is_joker] == [
        c for c in hand if not c.is_joker and c.suit in suits
    ]
    assert follow.declarable_suits(rule, led, trump, in_trick) == suits
    assert (joker() in legal) == bool(suits)
    if rule in (MUST_NOT_FOLLOW, MUST_NOT_FOLLOW_STRICT):
        assert suits == frozenset(range(4)) - in_trick  # never a suit already in the trick


def test_the_table_is_the_readable_rule_everywhere() -> None:
    def suits(bits_: int) -> frozenset[int]:
        return frozenset(s for s in range(4) if bits_ >> s & 1)

    for rule in range(N_RULES):
        for led in range(5):
            for trump in range(5):
                for played in range(16):
                    declared = follow.declarable_suits(rule, led, trump, suits(played))
                    assert follow.declarable_suit_set(rule, led, trump, played) == sum(
                        1 << s for s in declared)
                    for held in range(16):
                        args = (rule, suits(held), led, trump, suits(played))
                        expected = sum(1 << s for s in follow.legal_suits(*args))
                        assert follow.legal_suit_set(rule, held, led, trump, played) == expected


def test_must_follow_with_a_declared_joker() -> None:
    # holding a joker that can be declared a Heart, the player is able to follow Hearts
    hand = [*cards("3C 4S"), joker()]
    assert legal_cards(hand, cards("5H"), MUST_FOLLOW, joker_mode=JOKER_DECLARED) == [joker()]
    assert follow.declarable_suits(MUST_FOLLOW, HEARTS, NO_SUIT, {HEARTS}) == {HEARTS}
    # an undeclared joker may be played any time and leaves the others free
    assert legal_cards(hand, cards("5H"), MUST_FOLLOW) == hand


def test_chai_tea_jazz_may_trump_example() -> None:
    # "The contract is Trump (Hearts) and Aslan leads a 9 of Clubs. Leo has both Clubs and
    # Hearts, and decides to play a 2 of Hearts instead of following suit. Mufasa has Clubs
    # and no Hearts, so he plays a 7 of Clubs."
    trick = cards("9C")
    leo = cards("4C 2H 6H 8S 3D")
    assert legal_cards(leo, trick, MAY_TRUMP, HEARTS) == cards("4C 2H 6H")
    mufasa = cards("7C 1C 8D 5S")
    assert legal_cards(mufasa, trick + cards("2H"), MAY_TRUMP, HEARTS) == cards("7C 1C")
    # "If the trump suit is led, the following players must play a trump card, if they have one"
    assert legal_cards(leo, cards("9H"), MAY_TRUMP, HEARTS) == cards("2H 6H")
    assert legal_cards(mufasa, cards("9H"), MAY_TRUMP, HEARTS) == mufasa
    # without a trump (Under, Slalom) it is plain must-follow
    assert legal_cards(leo, trick, MAY_TRUMP, NO_SUIT) == cards("4C")


def test_short_zoot_suit_example() -> None:
    # "Audrey Hepbearn is out of hearts, so she plays a 3 of clubs."
    audrey = cards("3C 9S JD")
    assert legal_cards(audrey, cards("5H 7H"), MUST_FOLLOW) == audrey
    assert legal_cards(cards("2H 3C"), cards("5H"), MUST_FOLLOW) == cards("2H")


def test_hodge_podge_dodgeball_examples() -> None:
    # Getting Hit: "Blazer, who must play a Heart, plays a 7 of Hearts"
    blazer = cards("3C 5C 7C 9S 10S 8H 7H 4D 9D")
    trick = cards("5S 6C 3D")
    assert legal_cards(blazer, trick, MUST_NOT_FOLLOW_STRICT) == cards("8H 7H")
    # Can't Play: "Meeko leads a 7 of Hearts. Sly plays a 5 of Diamonds. Rocket has only
    # Diamonds and Hearts in his hand, thus cannot make a valid play."
    rocket = cards("2D 9D KH")
    assert legal_cards(rocket, cards("7H 5D"), MUST_NOT_FOLLOW_STRICT) == []
    mask = bits.mask_of(card.face for card in rocket)
    played = (1 << HEARTS) | (1 << DIAMONDS)
    assert follow.legal_faces(mask, MUST_NOT_FOLLOW_STRICT, HEARTS, NO_SUIT, played, False) == 0
    # the compendium's general must-not-follow lets him play anything instead
    assert legal_cards(rocket, cards("7H 5D"), MUST_NOT_FOLLOW) == rocket
    # with an All-Star, Rocket could still play: declared as a Club or a Spade
    assert legal_cards([*rocket, joker()], cards("7H 5D"), MUST_NOT_FOLLOW_STRICT,
                       joker_mode=JOKER_DECLARED) == [joker()]
    assert follow.declarable_suit_set(MUST_NOT_FOLLOW_STRICT, HEARTS, NO_SUIT, played) == (
        (1 << CLUBS) | (1 << SPADES))


def test_all_stars_example() -> None:
    # "Rosco leads a 7 of Spades. David plays a J of Diamonds. Chuck has the All-Star and
    # decides to play it as a J of Hearts. William plays a 5 of Clubs."
    chuck = [*cards("4S 9D"), joker()]
    trick = cards("7S JD")
    assert legal_cards(chuck, trick, MUST_NOT_FOLLOW_STRICT, joker_mode=JOKER_DECLARED) == [
        joker()
    ]
    declared = follow.declarable_suits(MUST_NOT_FOLLOW_STRICT, SPADES, NO_SUIT,
                                       frozenset({SPADES, DIAMONDS}))
    assert HEARTS in declared and declared == {CLUBS, HEARTS}
    william = cards("5C 2H 8S")
    assert legal_cards(william, [*trick, *cards("JH")], MUST_NOT_FOLLOW_STRICT) == cards("5C")


def test_a_led_joker_leaves_no_suit_to_follow() -> None:
    # an undeclared joker (Chai Tea Jazz 6p) has no suit: after it, any card may follow
    hand = cards("3C 4H")
    assert legal_cards(hand, [joker()], MUST_FOLLOW) == hand
    assert legal_cards([*hand, joker(1)], cards("5H"), MUST_FOLLOW) == [*cards("4H"), joker(1)]
    assert Card.from_code(JOKER).suit == NO_SUIT


@pytest.mark.parametrize("rule", range(N_RULES))
def test_an_empty_hand_has_no_legal_card(rule: int) -> None:
    assert legal_cards([], cards("5H"), rule) == []
    assert follow.legal_faces(bits.mask_of([]), rule, HEARTS, NO_SUIT, 1 << HEARTS, False) == 0
