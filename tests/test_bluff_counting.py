"""How a doubted Bluff in Zoo pile is counted, and which claim bests which.

Every rule test quotes the rulebook (/work/shared/rules/bluff-in-zoo.md) it rests on. The
counting rules are checked three ways: hand-computed piles through ``rules.count_claimed``
(the text notation), the rulebook example driven through the reference engine by hand, and
a property that the reference count (``rules.count_for_kind``), the compiled count the
strategies use (``policy_math.count_kind``) and the kernel's packed count (``pile.py``: two
words, one add per card, a field read) agree with each other and with an independent
card-by-card oracle.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import rng as rng_module
from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    CARD_NAMES,
    COUNT_ONE,
    KINDS,
    N_ANIMAL_TYPES,
    N_CARD_TYPES,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
    animal_type,
    parse_card,
    type_counts,
)
from zooanalysis.games.bluff.engine import (
    GameRecord,
    check_every_card_once,
    legal_moves,
    make_claim,
    new_game,
    observe,
    place_card,
    resolve_doubt,
)
from zooanalysis.games.bluff.pile import packed_count, packed_size, pile_deltas
from zooanalysis.games.bluff.policy_math import count_kind
from zooanalysis.games.bluff.rules import (
    BluffSettings,
    DeckSettings,
    claim_beats,
    count_claimed,
    count_for_kind,
)
from zooanalysis.games.bluff.strategies import MOVE_DOUBT, MOVE_DRAW, MOVE_HAND, MOVE_NONE

MOUSE, RABBIT, FOX, LION, ELEPHANT = range(N_KINDS)


# --- the rulebook example ---------------------------------------------------------------------
# "He opens the four cards in the discard pile and finds: 1 fox, 2 wild cards, 1 action card
# "All animals count 1", 3 mice. Therefore there are only two mice in the zoo. Paul caught Eva
# lying, so she has to put the four cards in front of her as negative points. If the action
# card had been "All animals are equal", there would have been six mice in the pile. Eva's
# claim would have been true and Paul would have taken the negative points."

EXAMPLE_COUNT_ONE = ["fox:1", "wild:2", "action:count1", "mouse:3"]
EXAMPLE_EQUAL = ["fox:1", "wild:2", "action:equal", "mouse:3"]


def test_rulebook_example_counts_two_mice_with_count1():
    assert count_claimed(EXAMPLE_COUNT_ONE, "mouse") == 2
    assert count_claimed(EXAMPLE_COUNT_ONE, "mouse") < 5  # Eva's "Five mice" is a lie


def test_rulebook_example_counts_six_mice_with_equal():
    assert count_claimed(EXAMPLE_EQUAL, "mouse") == 6
    assert count_claimed(EXAMPLE_EQUAL, "mouse") >= 5  # Eva's "Five mice" holds


THOMAS, EVA, PAUL = 0, 1, 2


def _example_state(action_card: str):
    """A 3-player game arranged so the rulebook example can be played move by move.

    Thomas (seat 0, the starting player) holds mouse:3, Paul (seat 2) holds wild:2, and the
    draw pile's top cards are fox:1 (drawn by Eva) then ``action_card`` (drawn by Thomas).
    Every other card of the deck is somewhere else, so the card bookkeeping stays exact.
    """
    settings = BluffSettings(players=3)
    state = new_game(settings, rng_module.game_stream(7, 0))
    rest = sorted(int(c) for c in state.deck)
    placed = {
        "thomas": parse_card("mouse:3"),
        "paul": parse_card("wild:2"),
        "draw1": parse_card("fox:1"),
        "draw2": parse_card(action_card),
    }
    for card in placed.values():
        rest.remove(card)
    # hands hold plain animals other than those used by the example, so nothing else moves
    hands = [[placed["thomas"], *rest[0:4]], rest[4:9], [*rest[9:13], placed["paul"]]]
    draw = [placed["draw1"], placed["draw2"], *rest[13:]]
    state.hands = [list(h) for h in hands]
    state.deck = np.asarray([c for h in hands for c in h] + draw, dtype=np.int8)
    state.draw_top = sum(len(h) for h in hands)
    check_every_card_once(state)
    return state, placed


@pytest.mark.parametrize(
    ("action_card", "found", "loser"),
    [("action:count1", 2, EVA), ("action:equal", 6, PAUL)],
)
def test_rulebook_example_played_on_the_reference_engine(action_card, found, loser):
    """The example's five claims and Paul's doubt, move by move through the engine.

    "If their number is less than the claim, the player before you has lied and has to take
    all cards from the discard pile [...] Each card received counts one negative point."
    """
    state, placed = _example_state(action_card)
    record = GameRecord(scores=[], winners=[], rounds=0, moves=0, end_reason=-1)

    # "note: in the starting player's first move, this is the only possible action"
    assert legal_moves(state, THOMAS) == [MOVE_HAND, MOVE_DRAW]
    # Thomas: a card from his hand, "One mouse."
    place_card(state, THOMAS, MOVE_HAND, state.hands[THOMAS].index(placed["thomas"]))
    make_claim(state, THOMAS, MOVE_HAND, 1, MOUSE, record)
    # Eva draws a card from the draw pile, looks at it and places it: "Two lions."
    place_card(state, EVA, MOVE_DRAW, -1)
    assert observe(state, EVA).known[placed["draw1"]] == 1  # she has seen the fox
    assert observe(state, THOMAS).known[placed["draw1"]] == 0
    make_claim(state, EVA, MOVE_DRAW, 2, LION, record)
    # Paul: a card from his hand, "Two elephants."
    place_card(state, PAUL, MOVE_HAND, state.hands[PAUL].index(placed["paul"]))
    make_claim(state, PAUL, MOVE_HAND, 2, ELEPHANT, record)
    # Thomas takes a card from the draw pile: "Three mice."
    place_card(state, THOMAS, MOVE_DRAW, -1)
    make_claim(state, THOMAS, MOVE_DRAW, 3, MOUSE, record)
    # "Eva doesn't put down a card, but claims to have seen: "Five mice.""
    place_card(state, EVA, MOVE_NONE, -1)
    make_claim(state, EVA, MOVE_NONE, 5, MOUSE, record)
    assert len(state.pile) == 4
    assert MOVE_DOUBT in legal_moves(state, PAUL)
    # "Paul thinks that Eva is exaggerating and doubts her."
    resolve_doubt(state, PAUL, record)

    pile_cards = sorted(placed.values())
    assert record.doubts == [(PAUL, EVA, 5, MOUSE, 4, loser == PAUL, MOVE_NONE)]
    assert record.events[-1]["found"] == found
    assert record.events[-1]["loser"] == loser
    assert sorted(record.events[-1]["pile"]) == sorted(CARD_NAMES[c] for c in pile_cards)
    expected_scores = [0, 0, 0]
    expected_scores[loser] = 4
    assert state.scores == expected_scores
    assert sorted(state.penalty_cards[loser]) == pile_cards
    assert state.scores == [len(cards) for cards in state.penalty_cards]
    assert int(state.revealed.sum()) == 4
    assert state.pile == [] and state.claim_count == 0
    # when each claim was made: one mouse true (mouse:3), two lions false, two elephants
    # true (wild:2 counts as the kind claimed), three mice false (count1: 1 + 1)...
    truth = [claim[5] for claim in record.claims]
    if action_card == "action:count1":
        assert truth == [True, False, True, False, False]
    else:  # ... or with "All animals are equal": 3 + 1 + 2 = 6 mice, both true
        assert truth == [True, False, True, True, True]
    check_every_card_once(state)


# --- every counting rule, by hand -------------------------------------------------------------

COUNT_CASES = [
    # "you flip open all cards in the discard pile and count the animals of the claimed kind"
    pytest.param(["lion:1", "lion:3", "mouse:2", "elephant:3"], "lion", 4, id="kind-values"),
    pytest.param(["lion:1", "lion:3", "mouse:2", "elephant:3"], "mouse", 2, id="kind-values-2"),
    pytest.param(["lion:1", "lion:3"], "fox", 0, id="other-kinds-count-0"),
    # "the wild cards always count as the kind of animal last claimed. There are wild cards
    # counting as one and wild cards counting as two animals."
    pytest.param(["wild:1", "wild:2", "lion:2"], "lion", 5, id="wild-as-claimed-lion"),
    pytest.param(["wild:1", "wild:2", "lion:2"], "mouse", 3, id="wild-as-claimed-mouse"),
    pytest.param(["wild:2", "wild:2"], "elephant", 4, id="wilds-only"),
    # "All cards count 1": "All animal and wild cards count as if there were only one animal
    # on them." (animals of other kinds still count 0)
    pytest.param(
        ["lion:3", "lion:2", "wild:2", "wild:1", "mouse:3", "action:count1"], "lion", 4,
        id="count1-lion",
    ),
    pytest.param(
        ["lion:3", "lion:2", "wild:2", "wild:1", "mouse:3", "action:count1"], "mouse", 3,
        id="count1-mouse",
    ),
    pytest.param(
        ["lion:3", "lion:2", "wild:2", "wild:1", "mouse:3", "action:count1"], "fox", 2,
        id="count1-fox-only-wilds",
    ),
    # "All animals are equal": "All animals count as the kind last claimed, without changing
    # their number."
    pytest.param(
        ["lion:3", "mouse:2", "fox:1", "wild:2", "action:equal"], "lion", 8, id="equal-lion"
    ),
    pytest.param(
        ["lion:3", "mouse:2", "fox:1", "wild:2", "action:equal"], "elephant", 8,
        id="equal-elephant",
    ),
    # "When both action cards are in the stack, the effects are cumulative. All cards count
    # as one animal, but of the kind last claimed."
    pytest.param(
        ["lion:3", "mouse:2", "fox:1", "wild:2", "wild:1", "action:equal", "action:count1"],
        "rabbit", 5, id="both",
    ),
    # "Additional action cards of the same kind have no additional effects. Treat them as if
    # there was only one of them."
    pytest.param(
        ["lion:3", "lion:2", "wild:2", "mouse:3", "action:count1", "action:count1",
         "action:count1"],
        "lion", 3, id="extra-count1",
    ),
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:equal", "action:equal"], "lion", 7,
        id="extra-equal",
    ),
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:equal", "action:equal", "action:count1",
         "action:count1"],
        "lion", 3, id="extra-both",
    ),
    # "If there is a stop card in the discard pile, all action cards are ignored. [...] An
    # odd number of stop cards has an effect, while an even number doesn't."
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:equal", "action:count1", "stop"], "lion", 5,
        id="one-stop-switches-actions-off",
    ),
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:equal", "stop", "stop", "stop"], "lion", 5,
        id="three-stops-switch-actions-off",
    ),
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:count1", "stop"], "mouse", 4,
        id="stop-count1-off",
    ),
    # "Two stop cards cancel each other out, so the action cards remain valid."
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:equal", "action:count1", "stop", "stop"],
        "lion", 3, id="two-stops-do-nothing",
    ),
    pytest.param(
        ["lion:3", "mouse:2", "wild:2", "action:equal", "stop", "stop", "stop", "stop"],
        "fox", 7, id="four-stops-do-nothing",
    ),
    # "Wild cards are not action cards. Stop cards therefore have no effect on wild cards."
    pytest.param(["wild:2", "wild:1", "stop"], "fox", 3, id="stop-leaves-wilds"),
    pytest.param(["wild:2", "stop", "action:count1"], "fox", 2, id="stop-keeps-wild-value"),
    # "If there are no action cards in the pile, stop cards have no effect."
    pytest.param(["lion:2", "mouse:3", "stop"], "lion", 2, id="stop-without-actions"),
    pytest.param(["lion:2", "mouse:3", "stop", "stop", "stop"], "mouse", 3, id="stops-only"),
    # action and stop cards show no animal themselves
    pytest.param(["action:equal", "action:count1", "stop"], "lion", 0, id="no-animals"),
    pytest.param([], "mouse", 0, id="empty-pile"),
]


@pytest.mark.parametrize(("pile", "kind", "expected"), COUNT_CASES)
def test_count_claimed_by_hand(pile, kind, expected):
    assert count_claimed(pile, kind) == expected


@pytest.mark.parametrize(("pile", "kind", "expected"), COUNT_CASES)
def test_count_claimed_ignores_pile_order(pile, kind, expected):
    assert count_claimed(list(reversed(pile)), kind) == expected


def test_text_notation_is_case_and_space_insensitive():
    assert count_claimed([" Lion:3", "WILD:1 "], " LION ") == 4


# --- malformed input --------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["lion:4", "tiger:1", "wild:3", "action:foo", "", 5, "lion"])
def test_count_claimed_rejects_malformed_cards(bad):
    with pytest.raises(ValueError, match="malformed card") as error:
        count_claimed(["mouse:1", bad], "mouse")
    assert repr(bad) in str(error.value)


@pytest.mark.parametrize("bad", ["tiger", "wild", "mice", "", "stop", 3])
def test_count_claimed_rejects_unknown_kinds(bad):
    with pytest.raises(ValueError, match="unknown animal kind") as error:
        count_claimed(["mouse:1"], bad)
    assert repr(bad) in str(error.value)


# --- reference, compiled and kernel counts agree ----------------------------------------------


def oracle_count(cards: list[int], kind: int) -> int:
    """The rulebook applied card by card, written independently of the library."""
    stops = sum(1 for c in cards if c == STOP)
    actions_on = stops % 2 == 0  # "An odd number of stop cards has an effect"
    count_one = actions_on and COUNT_ONE in cards
    all_equal = actions_on and ALL_EQUAL in cards
    total = 0
    for card in cards:
        if card < N_ANIMAL_TYPES:
            card_kind, value = card // 3, card % 3 + 1
            if card_kind == kind or all_equal:
                total += 1 if count_one else value
        elif card in (WILD_1, WILD_2):
            total += 1 if (count_one or card == WILD_1) else 2
    return total


PUBLISHED_DELTAS = pile_deltas(BluffSettings().deck.type_counts())


def kernel_count(cards: list[int], kind: int) -> int:
    """``pile.packed_count`` of the two words the kernel adds card by card (published deck)."""
    plain_delta, ones_delta = PUBLISHED_DELTAS
    plain = ones = 0
    for card in cards:
        plain += int(plain_delta[card])
        ones += int(ones_delta[card])
    assert packed_size(plain) == len(cards)
    return int(packed_count(plain, ones, kind))


def test_published_deck_is_packed_and_the_no_card_adds_nothing():
    assert PUBLISHED_DELTAS is not None
    plain_delta, ones_delta = PUBLISHED_DELTAS
    assert plain_delta[N_CARD_TYPES] == ones_delta[N_CARD_TYPES] == 0
    # the whole deck on one pile still fits every field
    deck = BluffSettings().deck.cards().tolist()
    for kind in range(N_KINDS):
        assert kernel_count(deck, kind) == oracle_count(deck, kind)


@pytest.mark.parametrize(
    ("changes", "packed"),
    [
        ({}, True),  # the every-animal byte holds at most 5 * 30 + 6 + 12 = 168
        ({"animal_cards_per_value": 7}, True),  # 7 * 30 + 18 = 228
        ({"animal_cards_per_value": 8}, False),  # 258 > 255
        ({"count_one": 15, "all_equal": 15, "stop": 127}, True),
        ({"count_one": 16}, False),
        ({"all_equal": 16}, False),
        ({"stop": 128}, False),
    ],
)
def test_decks_that_could_overflow_a_field_are_not_packed(changes, packed):
    """The kernel packs a pile only when the whole deck would fit every field (else it
    counts per card type: tests/test_bluff_engines_agree.py plays such a deck)."""
    deck = DeckSettings(**changes)
    deltas = pile_deltas(deck.type_counts())
    assert (deltas is not None) == packed
    if packed:
        cards = deck.cards().tolist()
        plain = sum(int(deltas[0][card]) for card in cards)
        ones = sum(int(deltas[1][card]) for card in cards)
        for kind in range(N_KINDS):
            assert packed_count(plain, ones, kind) == oracle_count(cards, kind)


piles = st.lists(st.integers(0, N_CARD_TYPES - 1), max_size=40)
# piles rich in action and stop cards, so every action mode is exercised
action_piles = st.lists(
    st.one_of(st.integers(0, N_CARD_TYPES - 1), st.sampled_from([COUNT_ONE, ALL_EQUAL, STOP])),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(piles, action_piles))
def test_reference_compiled_and_kernel_counts_agree(pile):
    counts = type_counts(pile)
    for kind in range(N_KINDS):
        expected = oracle_count(pile, kind)
        assert count_for_kind(counts, kind) == expected
        assert count_kind(counts, kind) == expected
        assert kernel_count(pile, kind) == expected
        names = [CARD_NAMES[c] for c in pile]
        assert count_claimed(names, KINDS[kind]) == expected


def test_counts_agree_on_every_small_pile_of_special_cards():
    """Every multiset of up to 4 special cards with one lion:2 and one mouse:1 (exhaustive)."""
    specials = [WILD_1, WILD_2, COUNT_ONE, ALL_EQUAL, STOP]
    for size in range(5):
        for extra in itertools.combinations_with_replacement(specials, size):
            pile = [animal_type(LION, 2), animal_type(MOUSE, 1), *extra]
            counts = type_counts(pile)
            for kind in range(N_KINDS):
                expected = oracle_count(pile, kind)
                assert count_for_kind(counts, kind) == expected, pile
                assert count_kind(counts, kind) == expected, pile
                assert kernel_count(pile, kind) == expected, pile


# --- which claim bests which ------------------------------------------------------------------


def test_more_animals_of_any_kind_beat():
    """"Either you claim to have seen more animals than the player before you. In this case,
    the kind of animal doesn't matter. Four mice thus beat three lions.\""""
    assert claim_beats(4, MOUSE, 3, LION)
    for kind, previous_kind in itertools.product(range(N_KINDS), repeat=2):
        assert claim_beats(2, kind, 1, previous_kind)
        assert claim_beats(7, kind, 3, previous_kind)


def test_same_number_of_bigger_animals_beat():
    """"Or you claim to have seen bigger animals than the player before you. In this case, the
    number may be the same (but not smaller). The size ranking of animals is elephant > lion >
    fox > rabbit > mouse. Three elephants thus beat three lions.\""""
    assert claim_beats(3, ELEPHANT, 3, LION)
    ranking = [MOUSE, RABBIT, FOX, LION, ELEPHANT]
    for smaller, bigger in itertools.combinations(ranking, 2):
        assert claim_beats(3, bigger, 3, smaller)
        assert not claim_beats(3, smaller, 3, bigger)


def test_same_kind_same_number_does_not_beat():
    for kind in range(N_KINDS):
        assert not claim_beats(3, kind, 3, kind)


def test_fewer_animals_never_beat():
    """"the number may be the same (but not smaller)": fewer bigger animals do not beat."""
    assert not claim_beats(2, ELEPHANT, 3, MOUSE)
    for kind, previous_kind in itertools.product(range(N_KINDS), repeat=2):
        assert not claim_beats(1, kind, 2, previous_kind)


def test_claim_beats_is_the_lexicographic_order():
    for count, kind, previous_count, previous_kind in itertools.product(
        range(1, 5), range(N_KINDS), range(1, 5), range(N_KINDS)
    ):
        expected = (count, kind) > (previous_count, previous_kind)
        assert claim_beats(count, kind, previous_count, previous_kind) == expected


def test_normal_upper_tail_table_matches_erfc_everywhere() -> None:
    """The strategies' fast normal tail is within 1e-7 of the exact one, tails included."""
    import math

    import numpy as np

    from zooanalysis.games.bluff.policy_math import normal_upper_tail

    for z in np.linspace(-10.0, 10.0, 40_001):
        exact = 0.5 * math.erfc(z / math.sqrt(2.0))
        assert abs(normal_upper_tail(z) - exact) < 1e-7, z
