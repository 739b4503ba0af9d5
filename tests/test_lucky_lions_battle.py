"""The Lucky Lions battle rule (``zooanalysis.games.lucky_lions.outcomes``) against the rulebook.

Every sentence of the battle rule in /work/shared/rules/lucky-lions.md (the rulebook text and
"Facts about the published card set", which gives the generator's formula) is checked on
hand-computed cases; quotes are in the comments. Positions on the 3-cycle used most:
lion 0, fox 1, panda 2 (arrows lion -> fox -> panda -> lion).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.games.lucky_lions.cards import ANIMALS, N_ANIMALS, AnimalCard, ZooCard
from zooanalysis.games.lucky_lions.outcomes import (
    animal_index,
    battle,
    battle_odds,
    battle_odds_exact,
    card_battle,
    card_odds,
    card_odds_exact,
    card_winners,
    cycle_indices,
    die_counts,
    distance,
    gap,
    gaps,
    outcome_counts,
    outcome_matrix,
    winners,
)

LION, FOX, PANDA, FLAMINGO, DOLPHIN = range(N_ANIMALS)
THREE = ("lion", "fox", "panda")
FOUR = ("lion", "fox", "panda", "flamingo")
FIVE = ("lion", "fox", "panda", "flamingo", "dolphin")
TWO = ("lion", "fox")

ALL_CYCLES = [
    cycle
    for size in range(2, N_ANIMALS + 1)
    for cycle in itertools.permutations(range(N_ANIMALS), size)
]
"""Every possible cycle: 20 + 60 + 120 + 120 = 320 of them."""


def reference_distance(cycle: tuple[int, ...], mine: int, theirs: int) -> int:
    """The rules file's sentence, written out independently of the module."""
    n = len(cycle)
    if mine not in cycle:
        return 0
    if theirs not in cycle:
        return n
    if mine == theirs:
        return n
    return (cycle.index(theirs) - cycle.index(mine)) % n


def test_every_cycle_is_enumerated() -> None:
    assert len(ALL_CYCLES) == 320


# --- the two-player rule, sentence by sentence -------------------------------------------------


def test_distance_is_counted_along_the_arrows_on_a_3_cycle() -> None:
    # "the distance from your animal to the opponent's is (position of theirs − position of
    # yours) mod n, counted along the arrows"
    assert distance(THREE, "lion", "fox") == 1  # (1 - 0) mod 3
    assert distance(THREE, "fox", "lion") == 2  # (0 - 1) mod 3
    assert distance(THREE, "fox", "panda") == 1  # (2 - 1) mod 3
    assert distance(THREE, "panda", "fox") == 2  # (1 - 2) mod 3
    assert distance(THREE, "panda", "lion") == 1  # (0 - 2) mod 3
    assert distance(THREE, "lion", "panda") == 2  # (2 - 0) mod 3


def test_larger_distance_wins_on_a_3_cycle() -> None:
    # "Your animal is "better" if the distance (number of arrows) between your animal and the
    # opponent's animal is larger than the other way around."
    # "The larger distance wins; equal distances tie."
    # lion -> fox is 1 arrow, fox -> lion is 2: fox wins, although lion's arrow points at fox.
    assert battle(THREE, "lion", "fox") == -1
    assert battle(THREE, "fox", "lion") == 1
    assert battle(THREE, "fox", "panda") == -1  # 1 < 2: panda wins
    assert battle(THREE, "panda", "lion") == -1  # 1 < 2: lion wins
    assert battle(THREE, "lion", "panda") == 1


def test_4_cycle_distances_and_battles() -> None:
    # positions lion 0, fox 1, panda 2, flamingo 3
    assert distance(FOUR, "lion", "fox") == 1
    assert distance(FOUR, "fox", "lion") == 3
    assert battle(FOUR, "lion", "fox") == -1
    assert distance(FOUR, "lion", "flamingo") == 3
    assert distance(FOUR, "flamingo", "lion") == 1
    assert battle(FOUR, "lion", "flamingo") == 1


def test_even_cycle_facing_animals_tie() -> None:
    # "So on an even cycle two animals facing each other tie"
    assert distance(FOUR, "lion", "panda") == 2
    assert distance(FOUR, "panda", "lion") == 2
    assert battle(FOUR, "lion", "panda") == 0
    assert battle(FOUR, "fox", "flamingo") == 0
    assert battle(FOUR, "flamingo", "fox") == 0


def test_2_cycle_any_two_different_animals_tie() -> None:
    # "and on a 2-cycle any two different animals tie."
    assert distance(TWO, "lion", "fox") == 1
    assert distance(TWO, "fox", "lion") == 1
    assert battle(TWO, "lion", "fox") == 0
    assert battle(TWO, "fox", "lion") == 0
    for cycle in (c for c in ALL_CYCLES if len(c) == 2):
        assert battle(cycle, cycle[0], cycle[1]) == 0


def test_5_cycle_distances_and_battles() -> None:
    # positions lion 0 ... dolphin 4: lion -> panda is 2 arrows, panda -> lion is 3
    assert distance(FIVE, "lion", "panda") == 2
    assert distance(FIVE, "panda", "lion") == 3
    assert battle(FIVE, "lion", "panda") == -1
    assert battle(FIVE, "lion", "flamingo") == 1  # 3 against 2
    assert battle(FIVE, "dolphin", "lion") == -1  # 1 against 4


def test_same_animal_ties_with_distance_n() -> None:
    # "if both play the same animal both distances are n (a tie)"
    for cycle in (TWO, THREE, FOUR, FIVE):
        for animal in cycle:
            assert distance(cycle, animal, animal) == len(cycle)
            assert battle(cycle, animal, animal) == 0


def test_off_cycle_animal_scores_zero_and_on_cycle_scores_n() -> None:
    # "an animal not on the cycle has distance 0 to everything, and if only the opponent is
    # off the cycle, you score n."
    assert distance(THREE, "dolphin", "lion") == 0
    assert distance(THREE, "dolphin", "dolphin") == 0
    assert distance(THREE, "dolphin", "flamingo") == 0
    assert distance(THREE, "lion", "dolphin") == 3
    assert distance(TWO, "fox", "panda") == 2


def test_on_cycle_beats_off_cycle() -> None:
    # "All missing animals are considered equal in value, but less valuable than all included
    # animals."
    for cycle in (TWO, THREE, FOUR):
        for on in cycle:
            for off in (a for a in ANIMALS if a not in cycle):
                assert battle(cycle, on, off) == 1
                assert battle(cycle, off, on) == -1


def test_two_off_cycle_animals_tie() -> None:
    # "All missing animals are considered equal in value": 0 against 0
    assert battle(THREE, "flamingo", "dolphin") == 0
    assert battle(TWO, "panda", "dolphin") == 0
    assert battle(TWO, "dolphin", "dolphin") == 0


def test_battle_matches_the_rule_written_out_for_every_cycle_and_pair() -> None:
    for cycle in ALL_CYCLES:
        for a in range(N_ANIMALS):
            for b in range(N_ANIMALS):
                mine, theirs = reference_distance(cycle, a, b), reference_distance(cycle, b, a)
                assert distance(cycle, a, b) == mine
                expected = 1 if mine > theirs else -1 if mine < theirs else 0
                assert battle(cycle, a, b) == expected
                assert outcome_matrix(cycle)[a, b] == expected


@settings(max_examples=300, deadline=None)
@given(
    cycle=st.lists(st.integers(0, N_ANIMALS - 1), min_size=2, max_size=5, unique=True),
    a=st.integers(0, N_ANIMALS - 1),
    b=st.integers(0, N_ANIMALS - 1),
    as_names=st.booleans(),
)
def test_battle_is_antisymmetric(cycle: list[int], a: int, b: int, as_names: bool) -> None:
    if as_names:
        cycle_in: list = [ANIMALS[x] for x in cycle]
        a_in, b_in = ANIMALS[a].upper(), ANIMALS[b]
    else:
        cycle_in, a_in, b_in = cycle, a, b
    assert battle(cycle_in, a_in, b_in) == -battle(cycle_in, b_in, a_in)
    assert battle(cycle_in, a_in, b_in) == battle(tuple(cycle), a, b)


def test_a_5_cycle_is_balanced_every_animal_beats_two_and_loses_to_two() -> None:
    for cycle in (c for c in ALL_CYCLES if len(c) == 5):
        matrix = outcome_matrix(cycle)
        assert (matrix == 1).sum(axis=1).tolist() == [2] * 5
        assert (matrix == -1).sum(axis=1).tolist() == [2] * 5


# --- input forms and errors --------------------------------------------------------------------


def test_names_indices_and_case_are_interchangeable() -> None:
    assert battle(["Lion", "FOX", " panda "], "Fox", LION) == 1
    assert battle((LION, FOX, PANDA), "fox", "lion") == 1
    assert battle(np.array([0, 1, 2]), np.int64(1), 0) == 1
    assert cycle_indices(["dolphin", "lion"]) == (DOLPHIN, LION)
    assert animal_index("Flamingo") == FLAMINGO


def test_battle_on_a_zoo_card_uses_only_its_cycle() -> None:
    card = ZooCard(cycle=(LION, FOX, PANDA), points=1, special="autowin", special_animals=(4,))
    assert battle(card, DOLPHIN, LION) == -1  # the cycle rule; card_battle would say +1
    assert card_battle(card, DOLPHIN, LION) == 1


@pytest.mark.parametrize(
    ("cycle", "a", "b", "message"),
    [
        (("lion", "tiger"), "lion", "fox", "tiger"),
        (THREE, "lion", "tiger", "tiger"),
        (THREE, 7, "lion", "7"),
        (THREE, "lion", True, "True"),
        (THREE, "lion", 1.0, "1.0"),
        (("lion", "lion", "fox"), "lion", "fox", "distinct"),
        (("lion",), "lion", "fox", "2-5"),
        ((), "lion", "fox", "2-5"),
        ((0, 1, 2, 3, 4, 0), "lion", "fox", "2-5"),
        ("lion", "lion", "fox", "lion"),
    ],
)
def test_bad_input_raises_value_error_naming_it(cycle, a, b, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        battle(cycle, a, b)


def test_outcome_matrix_is_cached_read_only_int8() -> None:
    matrix = outcome_matrix(THREE)
    assert matrix.dtype == np.int8
    assert matrix.shape == (N_ANIMALS, N_ANIMALS)
    assert outcome_matrix(("lion", "fox", "panda")) is outcome_matrix((0, 1, 2))
    with pytest.raises(ValueError):
        matrix[0, 0] = 1


def test_outcome_matrix_antisymmetric_with_zero_diagonal_for_every_cycle() -> None:
    for cycle in ALL_CYCLES:
        matrix = outcome_matrix(cycle)
        assert (matrix == -matrix.T).all()
        assert (np.diag(matrix) == 0).all()


# --- several players (Busy Zoo people icon) ----------------------------------------------------


def test_gap_reduces_to_distance_for_one_opponent() -> None:
    for cycle in ALL_CYCLES:
        for a in range(N_ANIMALS):
            for b in range(N_ANIMALS):
                assert gap(cycle, a, [b]) == distance(cycle, a, b)


def test_winners_of_two_players_agree_with_battle() -> None:
    expected = {1: [0], 0: [0, 1], -1: [1]}
    for cycle in ALL_CYCLES:
        for a in range(N_ANIMALS):
            for b in range(N_ANIMALS):
                assert winners(cycle, [a, b]) == expected[battle(cycle, a, b)]


def test_three_players_on_a_4_cycle() -> None:
    # "As usual, the winner is the animal with the largest gap between themselves and the next
    # animal in the cycle."
    # lion -> fox 1, lion -> panda 2 => 1; fox -> panda 1, fox -> lion 3 => 1;
    # panda -> lion 2, panda -> fox 3 => 2: panda wins alone.
    assert gaps(FOUR, ["lion", "fox", "panda"]) == [1, 1, 2]
    assert winners(FOUR, ["lion", "fox", "panda"]) == [2]
    # lion and panda face each other (2 each); dolphin is off the cycle (0):
    # "If there are 2 winners, the "tie" rules apply but only to them."
    assert gaps(FOUR, ["lion", "panda", "dolphin"]) == [2, 2, 0]
    assert winners(FOUR, ["lion", "panda", "dolphin"]) == [0, 1]


def test_four_players_on_a_5_cycle_with_a_repeated_animal() -> None:
    # lion: -> flamingo 3, -> dolphin 4 => 3. Each flamingo: the other flamingo counts 5,
    # -> dolphin 1 => 1. dolphin: -> lion 1, -> flamingo 3 => 1.
    animals = ["lion", "flamingo", "flamingo", "dolphin"]
    assert gaps(FIVE, animals) == [3, 1, 1, 1]
    assert winners(FIVE, animals) == [0]
    assert gap(FIVE, "flamingo", ["lion", "flamingo", "dolphin"]) == 1


def test_many_players_on_a_3_cycle() -> None:
    # two lions and two off-cycle animals: each lion's only on-cycle rival is the other lion (3)
    assert gaps(THREE, ["dolphin", "flamingo", "lion", "lion"]) == [0, 0, 3, 3]
    assert winners(THREE, ["dolphin", "flamingo", "lion", "lion"]) == [2, 3]
    # a lone animal on the cycle scores n
    assert winners(THREE, ["fox", "dolphin", "flamingo"]) == [0]
    # everyone rolls the same animal: all tie
    assert winners(THREE, ["panda"] * 5) == [0, 1, 2, 3, 4]
    # everyone off the cycle: all tie at 0
    assert winners(TWO, ["dolphin", "flamingo", "panda"]) == [0, 1, 2]
    # all three on the cycle: every gap is 1
    assert winners(THREE, ["lion", "fox", "panda"]) == [0, 1, 2]


def test_winners_needs_a_player() -> None:
    with pytest.raises(ValueError):
        winners(THREE, [])


# --- Busy Zoo special cards --------------------------------------------------------------------


def card(cycle, special=None, animals=(), points=1, people=False) -> ZooCard:
    return ZooCard(
        cycle=cycle_indices(cycle),
        points=points,
        people=people,
        special=special,
        special_animals=tuple(animal_index(a) for a in animals),
    )


def test_regular_card_is_the_cycle_rule() -> None:
    regular = card(THREE)
    for a in range(N_ANIMALS):
        for b in range(N_ANIMALS):
            assert card_battle(regular, a, b) == battle(THREE, a, b)
    assert card_battle(THREE, "fox", "lion") == 1  # a plain cycle is a regular card


def test_autowin() -> None:
    # "X always wins; everything else is a tie" (cycle hidden)
    autowin = card(THREE, "autowin", ["dolphin"])
    assert card_battle(autowin, "dolphin", "lion") == 1  # off the cycle, still wins
    assert card_battle(autowin, "fox", "dolphin") == -1
    assert card_battle(autowin, "dolphin", "dolphin") == 0
    assert card_battle(autowin, "fox", "lion") == 0  # the cycle would say fox
    assert card_battle(autowin, "lion", "flamingo") == 0  # the cycle would say lion
    assert (outcome_matrix(autowin)[DOLPHIN] == [1, 1, 1, 1, 0]).all()


def test_autolose() -> None:
    # "X always loses; everything else is a tie" (cycle hidden)
    autolose = card(THREE, "autolose", ["lion"])
    assert card_battle(autolose, "lion", "dolphin") == -1  # on the cycle, still loses
    assert card_battle(autolose, "panda", "lion") == 1
    assert card_battle(autolose, "lion", "lion") == 0
    assert card_battle(autolose, "fox", "dolphin") == 0  # the cycle would say fox
    assert card_battle(autolose, "fox", "panda") == 0


def test_extra_rule() -> None:
    # "X beats Y if only those animals are played"
    extra = card(THREE, "extra_rule", ["lion", "fox"])
    assert card_battle(extra, "lion", "fox") == 1  # the cycle alone says fox
    assert card_battle(extra, "fox", "lion") == -1
    assert card_battle(extra, "panda", "fox") == 1  # other pairs: the cycle
    assert card_battle(extra, "lion", "panda") == 1
    assert card_battle(extra, "lion", "lion") == 0
    assert card_battle(extra, "fox", "dolphin") == 1
    off = card(THREE, "extra_rule", ["dolphin", "lion"])
    assert card_battle(off, "dolphin", "lion") == 1  # even from off the cycle
    assert card_battle(off, "dolphin", "fox") == -1


@pytest.mark.parametrize("special", ["die_split", "double_roll", "player_exclude"])
def test_other_specials_do_not_change_who_beats_whom(special: str) -> None:
    special_card = card(FOUR, special, people=special == "player_exclude")
    assert (outcome_matrix(special_card) == outcome_matrix(FOUR)).all()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (ZooCard((0, 1, 2), 1, special="autowin"), "needs 1"),
        (ZooCard((0, 1, 2), 1, special="extra_rule", special_animals=(0,)), "needs 2"),
        (ZooCard((0, 1, 2), 1, special="extra_rule", special_animals=(0, 0)), "different"),
        (ZooCard((0, 1, 2), 1, special="teleport"), "teleport"),
        (ZooCard((0, 1, 2), 1, special_animals=(0,)), "needs 0"),
        (ZooCard((0, 0, 2), 1), "distinct"),
    ],
)
def test_bad_cards_raise(bad: ZooCard, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        card_battle(bad, 0, 1)


SPECIAL_CARDS = [
    card(THREE, "autowin", ["panda"]),
    card(FOUR, "autolose", ["lion"], people=True),
    card(THREE, "extra_rule", ["lion", "fox"]),
    card(FIVE, "double_roll"),
]


def test_special_matrices_stay_antisymmetric() -> None:
    for special_card in SPECIAL_CARDS:
        matrix = outcome_matrix(special_card)
        assert (matrix == -matrix.T).all()
        assert (np.diag(matrix) == 0).all()


def test_card_winners_of_two_players_agree_with_card_battle() -> None:
    expected = {1: [0], 0: [0, 1], -1: [1]}
    for special_card in [*SPECIAL_CARDS, card(TWO)]:
        for a in range(N_ANIMALS):
            for b in range(N_ANIMALS):
                assert (
                    card_winners(special_card, [a, b]) == expected[card_battle(special_card, a, b)]
                )


def test_card_winners_with_several_players() -> None:
    autowin, autolose, extra = SPECIAL_CARDS[:3]
    assert card_winners(autowin, ["lion", "panda", "panda"]) == [1, 2]
    assert card_winners(autowin, ["lion", "fox", "dolphin"]) == [0, 1, 2]
    assert card_winners(autolose, ["lion", "fox", "dolphin"]) == [1, 2]
    assert card_winners(autolose, ["lion", "lion"]) == [0, 1]
    assert card_winners(extra, ["lion", "fox", "fox"]) == [0]  # only lion and fox played
    # panda played as well: the gap rule, and every gap is 1
    assert card_winners(extra, ["lion", "fox", "panda"]) == [0, 1, 2]
    assert card_winners(FOUR, ["lion", "fox", "panda"]) == [2]


# --- dice --------------------------------------------------------------------------------------

DIE_A = ["lion", "lion", "fox", "panda", "dolphin", "dolphin"]
DIE_B = ["fox", "fox", "flamingo", "panda", "lion", 3]


def brute_force_odds(rule, die_a, die_b) -> tuple[Fraction, Fraction, Fraction]:
    """Every (card of a, card of b) pair, each equally likely; cards are distinct objects."""
    results = [rule(a, b) for a, b in itertools.product(die_a, die_b)]
    total = len(results)
    return (
        Fraction(results.count(1), total),
        Fraction(results.count(0), total),
        Fraction(results.count(-1), total),
    )


def test_die_counts() -> None:
    assert die_counts(DIE_A).tolist() == [2, 1, 1, 0, 2]
    assert die_counts(DIE_B).tolist() == [1, 2, 1, 2, 0]
    assert die_counts([AnimalCard(LION), AnimalCard(LION), "Fox"]).tolist() == [2, 1, 0, 0, 0]
    assert die_counts([]).tolist() == [0] * 5
    with pytest.raises(ValueError, match="wild"):
        die_counts([AnimalCard(LION, wild=True)])
    with pytest.raises(ValueError, match="tiger"):
        die_counts(["lion", "tiger"])


def test_hand_computed_odds_on_a_3_cycle() -> None:
    # a: lion, lion, fox; b: panda, dolphin. lion beats panda (2 > 1) and dolphin (off cycle);
    # fox loses to panda (1 < 2) and beats dolphin: 5 wins, 1 loss of 6 pairs.
    assert battle_odds_exact(THREE, ["lion", "lion", "fox"], ["panda", "dolphin"]) == (
        Fraction(5, 6),
        Fraction(0),
        Fraction(1, 6),
    )


@pytest.mark.parametrize("cycle", [TWO, THREE, FOUR, FIVE, ("dolphin", "panda", "lion")])
def test_battle_odds_equal_brute_force_exactly(cycle) -> None:
    exact = battle_odds_exact(cycle, DIE_A, DIE_B)
    assert exact == brute_force_odds(lambda a, b: battle(cycle, a, b), DIE_A, DIE_B)
    assert sum(exact) == 1
    assert all(isinstance(p, Fraction) for p in exact)
    floats = battle_odds(cycle, DIE_A, DIE_B)
    assert floats == tuple(float(p) for p in exact)
    # swapping the dice swaps win and loss
    assert battle_odds_exact(cycle, DIE_B, DIE_A) == exact[::-1]


@pytest.mark.parametrize("special_card", SPECIAL_CARDS)
def test_card_odds_equal_brute_force_exactly(special_card: ZooCard) -> None:
    exact = card_odds_exact(special_card, DIE_A, DIE_B)
    assert exact == brute_force_odds(lambda a, b: card_battle(special_card, a, b), DIE_A, DIE_B)
    assert sum(exact) == 1
    assert card_odds(special_card, DIE_A, DIE_B) == tuple(float(p) for p in exact)


@settings(max_examples=150, deadline=None)
@given(
    cycle=st.lists(st.integers(0, N_ANIMALS - 1), min_size=2, max_size=5, unique=True),
    die_a=st.lists(st.integers(0, N_ANIMALS - 1), min_size=1, max_size=8),
    die_b=st.lists(st.integers(0, N_ANIMALS - 1), min_size=1, max_size=8),
    special=st.sampled_from([None, "autowin", "autolose", "extra_rule"]),
    named=st.lists(st.integers(0, N_ANIMALS - 1), min_size=2, max_size=2, unique=True),
)
def test_random_dice_odds_equal_brute_force(cycle, die_a, die_b, special, named) -> None:
    needed = {"autowin": 1, "autolose": 1, "extra_rule": 2}.get(special, 0)
    zoo = ZooCard(tuple(cycle), 1, special=special, special_animals=tuple(named[:needed]))
    exact = card_odds_exact(zoo, die_a, die_b)
    assert exact == brute_force_odds(lambda a, b: card_battle(zoo, a, b), die_a, die_b)
    assert sum(exact) == 1


def test_outcome_counts_and_empty_dice() -> None:
    counts = outcome_counts(THREE, die_counts(["lion", "lion", "fox"]), die_counts(["panda"]))
    assert counts == (2, 0, 1, 3)
    with pytest.raises(ValueError, match="die_a"):
        battle_odds(THREE, [], ["lion"])
    with pytest.raises(ValueError, match="die_b"):
        outcome_counts(THREE, die_counts(["lion"]), np.array([1, -1, 0, 0, 0]))
    with pytest.raises(ValueError, match="die"):
        battle_odds(THREE, "lion", ["lion"])
