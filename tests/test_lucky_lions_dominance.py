"""Exact cycle-dominance tables (``zooanalysis.games.lucky_lions.dominance``).

Hand-derived values use the battle rule of /work/shared/rules/lucky-lions.md: on a cycle the
animal an arrow points to beats the animal it comes from (e.g. fox beats lion on
lion -> fox -> panda), animals facing each other on an even cycle tie, on-cycle animals beat
off-cycle ones and off-cycle animals tie with each other.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.games.lucky_lions import dominance as dom
from zooanalysis.games.lucky_lions.cards import ANIMALS, N_ANIMALS, SPECIAL_TYPES, ZooCard
from zooanalysis.games.lucky_lions.outcomes import card_battle, outcome_matrix

LION, FOX, PANDA, FLAMINGO, DOLPHIN = range(N_ANIMALS)
BASE = [9, 6, 6, 6, 6]

TWO = ZooCard((LION, FOX), points=1)
THREE = ZooCard((LION, FOX, PANDA), points=3)
FOUR = ZooCard((LION, FOX, PANDA, FLAMINGO), points=2)
FIVE = ZooCard((LION, FOX, PANDA, FLAMINGO, DOLPHIN), points=1)


def random_deck(seed: int, size: int = 26) -> list[ZooCard]:
    """A small independent deck generator for tests (not the publisher's proportions)."""
    rng = random.Random(seed)
    deck = []
    for _ in range(size):
        cycle = tuple(rng.sample(range(N_ANIMALS), rng.randint(2, 5)))
        special = rng.choice([None, None, None, *SPECIAL_TYPES])
        needed = {"autowin": 1, "autolose": 1, "extra_rule": 2}.get(special, 0)
        named = tuple(rng.sample(range(N_ANIMALS), needed))
        deck.append(ZooCard(cycle, rng.randint(1, 3), rng.random() < 0.25, special, named))
    return deck


def exact_strength(card: ZooCard, counts: list[int]) -> list[Fraction]:
    """P(win) - P(loss) against a random card of a pool with these counts, by enumeration."""
    pool = [animal for animal, count in enumerate(counts) for _ in range(count)]
    return [
        Fraction(sum(card_battle(card, animal, other) for other in pool), len(pool))
        for animal in range(N_ANIMALS)
    ]


def approx(values) -> object:
    return pytest.approx([float(v) for v in values], abs=1e-12)


# --- one card ----------------------------------------------------------------------------------


def test_dominance_matrix_names_and_antisymmetry() -> None:
    for card in [TWO, THREE, FOUR, FIVE, *random_deck(1)]:
        table = dom.dominance_matrix(card)
        assert list(table.index) == list(ANIMALS)
        assert list(table.columns) == list(ANIMALS)
        assert (table.to_numpy() == -table.to_numpy().T).all()
        assert (np.diag(table.to_numpy()) == 0).all()  # same animal: a tie
    table = dom.dominance_matrix(THREE)
    assert table.loc["fox", "lion"] == 1
    assert table.loc["lion", "fox"] == -1
    assert table.loc["lion", "dolphin"] == 1
    assert table.loc["flamingo", "dolphin"] == 0


def test_pair_table_is_the_matrix_in_long_form() -> None:
    table = dom.pair_table(FOUR)
    assert list(table.columns) == ["animal", "opponent", "outcome"]
    assert len(table) == 25
    wide = table.pivot(index="animal", columns="opponent", values="outcome")
    assert (wide.loc[list(ANIMALS), list(ANIMALS)].to_numpy() == outcome_matrix(FOUR)).all()
    row = table[(table["animal"] == "lion") & (table["opponent"] == "panda")]
    assert row["outcome"].item() == 0  # facing on a 4-cycle


def test_full_5_cycle_is_balanced_against_uniform() -> None:
    # every animal on a 5-cycle beats 2, loses to 2, ties itself: expected result 0
    for cycle in itertools.permutations(range(N_ANIMALS)):
        table = dom.animal_strength(ZooCard(cycle, 1))
        assert (table["strength"] == 0).all()
        assert table["p_win"].tolist() == approx([Fraction(2, 5)] * 5)
        assert table["p_tie"].tolist() == approx([Fraction(1, 5)] * 5)
        assert table["p_loss"].tolist() == approx([Fraction(2, 5)] * 5)


def test_3_cycle_strengths_against_uniform() -> None:
    # off-cycle flamingo: ties flamingo and dolphin, loses to lion, fox, panda: (0 - 3) / 5.
    # on-cycle lion: beats panda, flamingo, dolphin, loses to fox, ties lion: (3 - 1) / 5.
    table = dom.animal_strength(THREE)
    assert table.loc["flamingo", "strength"] == pytest.approx(-3 / 5, abs=1e-15)
    assert table.loc["dolphin", "strength"] == pytest.approx(-3 / 5, abs=1e-15)
    assert table.loc["flamingo", "p_tie"] == pytest.approx(2 / 5, abs=1e-15)
    assert table.loc["lion", "strength"] == pytest.approx(2 / 5, abs=1e-15)
    assert table["on_cycle"].tolist() == [True, True, True, False, False]
    assert table["strength"].tolist() == approx(exact_strength(THREE, [1] * 5))


def test_4_cycle_strengths_against_uniform() -> None:
    # lion beats flamingo and dolphin, loses to fox, ties lion and panda: (2 - 1) / 5
    table = dom.animal_strength(FOUR)
    assert table["strength"].tolist() == approx([Fraction(1, 5)] * 4 + [Fraction(-4, 5)])


def test_3_cycle_strengths_against_the_base_pool() -> None:
    # opponent card from 9 lions and 6 of each other animal (33 cards):
    # lion: beats panda 6 + off 12, loses to fox 6 -> 12/33
    # fox: beats lion 9 + off 12, loses to panda 6 -> 15/33
    # panda: beats fox 6 + off 12, loses to lion 9 -> 9/33
    # flamingo: loses to 9 + 6 + 6 -> -21/33
    expected = [Fraction(12, 33), Fraction(15, 33), Fraction(9, 33), Fraction(-21, 33)]
    expected.append(Fraction(-21, 33))
    for mix in (BASE, dom.pool_mix(), {"lion": 9, "others": 6}, dom.BASE_ANIMAL_COUNTS):
        table = dom.animal_strength(THREE, mix)
        assert table["strength"].tolist() == approx(expected)
    assert expected == exact_strength(THREE, BASE)


def test_animal_strength_equals_enumeration_on_random_cards() -> None:
    for card in random_deck(7):
        for counts in ([1] * 5, BASE, [3, 0, 2, 5, 1]):
            table = dom.animal_strength(card, counts)
            assert table["strength"].tolist() == approx(exact_strength(card, counts))
            total = table[["p_win", "p_tie", "p_loss"]].sum(axis=1)
            assert total.tolist() == pytest.approx([1.0] * 5)


@settings(max_examples=100, deadline=None)
@given(
    cycle=st.lists(st.integers(0, N_ANIMALS - 1), min_size=2, max_size=5, unique=True),
    counts=st.lists(st.integers(0, 9), min_size=5, max_size=5).filter(any),
)
def test_strength_averages_to_zero_when_both_draw_from_the_same_mix(cycle, counts) -> None:
    # the game is symmetric: E[result] over both players from the same mix is 0
    table = dom.animal_strength(ZooCard(tuple(cycle), 1), counts)
    mix = np.array(counts) / sum(counts)
    assert float(mix @ table["strength"].to_numpy()) == pytest.approx(0, abs=1e-12)


def test_pool_mix() -> None:
    assert dom.pool_mix().tolist() == approx([Fraction(c, 33) for c in BASE])
    assert dom.pool_mix({"lion": 9, "others": 6}).tolist() == dom.pool_mix().tolist()
    assert dom.pool_mix({"Lion": 1, "fox": 1}).tolist() == [0.5, 0.5, 0, 0, 0]
    assert dom.pool_mix([1, 1, 1, 1, 0]).tolist() == [0.25] * 4 + [0]
    for bad in ({"tiger": 1}, [1, 2, 3], [-1, 1, 1, 1, 1], [0] * 5, {"lion": 1, "LION": 2}):
        with pytest.raises(ValueError):
            dom.pool_mix(bad)


def test_tie_probability_hand_computed() -> None:
    # 2-cycle lion/fox: on-on always ties (2x2 = 4 pairs), off-off ties (3x3 = 9): 13/25
    assert dom.tie_probability(TWO) == pytest.approx(13 / 25, abs=1e-15)
    # 4-cycle: the 5 same-animal pairs + lion/panda and fox/flamingo both ways: 9/25
    assert dom.tie_probability(FOUR) == pytest.approx(9 / 25, abs=1e-15)
    # 3-cycle: 5 same-animal pairs + flamingo/dolphin both ways: 7/25; 5-cycle: 5/25
    assert dom.tie_probability(THREE) == pytest.approx(7 / 25, abs=1e-15)
    assert dom.tie_probability(FIVE) == pytest.approx(5 / 25, abs=1e-15)
    # base pool, 2-cycle: both on (15/33)^2 + both off (18/33)^2 = 549/1089
    assert dom.tie_probability(TWO, BASE, BASE) == pytest.approx(549 / 1089, abs=1e-15)
    # a always lion against uniform on the 2-cycle: ties lion and fox: 2/5
    assert dom.tie_probability(TWO, [1, 0, 0, 0, 0]) == pytest.approx(2 / 5, abs=1e-15)


def test_tie_probability_of_autowin_card() -> None:
    # autowin dolphin: only pairs with exactly one dolphin are decided: 8 of 25
    card = ZooCard((LION, FOX, PANDA), 1, special="autowin", special_animals=(DOLPHIN,))
    assert dom.tie_probability(card) == pytest.approx(17 / 25, abs=1e-15)


# --- a deck ------------------------------------------------------------------------------------


def test_deck_dominance_rows_and_best_picks() -> None:
    table = dom.deck_dominance([FIVE, THREE, TWO])
    assert len(table) == 15
    assert table["card"].tolist() == [0] * 5 + [1] * 5 + [2] * 5
    assert table["animal"].tolist() == list(ANIMALS) * 3
    assert table["cycle_size"].tolist() == [5] * 5 + [3] * 5 + [2] * 5
    assert table["points"].tolist() == [1] * 5 + [3] * 5 + [1] * 5
    # 5-cycle: every animal ties for best; 3-cycle: the three on it; 2-cycle: lion and fox
    best = [True] * 5 + [True] * 3 + [False] * 2 + [True] * 2 + [False] * 3
    assert table["best_pick"].tolist() == best
    assert table["weighted_strength"].tolist() == approx(table["strength"] * table["points"])
    assert table.loc[5, "weighted_strength"] == pytest.approx(3 * 2 / 5)


def test_animal_summary_hand_computed() -> None:
    # lion: 0 on FIVE (1 point), 2/5 on THREE (3 points); flamingo: 0 and -3/5
    summary = dom.animal_summary([FIVE, THREE])
    assert list(summary.index) == list(ANIMALS)
    lion, flamingo = summary.loc["lion"], summary.loc["flamingo"]
    assert lion["mean_strength"] == pytest.approx(0.2)
    assert lion["std_strength"] == pytest.approx(0.2)  # population std of {0, 0.4}
    assert (lion["min_strength"], lion["max_strength"]) == pytest.approx((0, 0.4))
    assert lion["best_pick_share"] == 1.0
    assert lion["weighted_mean_strength"] == pytest.approx((0 * 1 + 0.4 * 3) / 4)
    assert lion["on_card_share"] == 1.0
    assert flamingo["mean_strength"] == pytest.approx(-0.3)
    assert flamingo["best_pick_share"] == 0.5
    assert flamingo["weighted_mean_strength"] == pytest.approx(-0.6 * 3 / 4)
    assert flamingo["on_card_share"] == 0.5


def test_tie_rate_by_cycle_size() -> None:
    other_four = ZooCard((DOLPHIN, PANDA, FOX, LION), 1)
    table = dom.tie_rate_by_cycle_size([FOUR, TWO, other_four])
    assert table["cycle_size"].tolist() == [2, 4]
    assert table["cards"].tolist() == [1, 2]
    assert table["mean_tie_probability"].tolist() == approx([Fraction(13, 25), Fraction(9, 25)])


def test_across_decks() -> None:
    # lion's per-deck mean strength: 0.2 (FIVE, THREE) and 0 (FIVE): mean 0.1, sample std
    # sqrt(2 * 0.1^2 / 1)
    table = dom.across_decks([[FIVE, THREE], [FIVE]])
    assert list(table.index) == list(ANIMALS)
    assert table.loc["lion", "decks"] == 2
    assert table.loc["lion", "mean_strength"] == pytest.approx(0.1)
    assert table.loc["lion", "std_strength"] == pytest.approx(np.sqrt(0.02))
    assert table.loc["flamingo", "mean_best_pick_share"] == pytest.approx((0.5 + 1) / 2)
    assert np.isnan(dom.across_decks([[FIVE]]).loc["lion", "std_strength"])


def test_uniform_strengths_sum_to_zero_on_random_decks() -> None:
    decks = [random_deck(seed) for seed in range(5)]
    for deck in decks:
        table = dom.deck_dominance(deck)
        assert table.groupby("card")["strength"].sum().abs().max() < 1e-12
        assert table.groupby("card")["best_pick"].any().all()
    summary = dom.across_decks(decks)
    assert summary["mean_strength"].sum() == pytest.approx(0, abs=1e-12)


def test_lion_balance_on_a_card_where_lion_matters() -> None:
    # uniform: lion, fox, panda all 2/5 on lion -> fox -> panda. With 9 lions in 33 cards,
    # fox (which beats lion) gains, panda (which lion beats) loses: 12/33, 15/33, 9/33.
    table = dom.lion_balance([THREE])
    assert list(table.index) == list(ANIMALS)
    assert table["count"].tolist() == BASE
    assert table["die_share"].tolist() == approx([Fraction(c, 33) for c in BASE])
    assert table["expected_in_die"].tolist() == approx([Fraction(6 * c, 33) for c in BASE])
    assert table["strength_uniform"].tolist() == approx(
        [Fraction(2, 5)] * 3 + [-Fraction(3, 5)] * 2
    )
    pool = [Fraction(12, 33), Fraction(15, 33), Fraction(9, 33), Fraction(-21, 33)]
    assert table["strength_pool"].tolist() == approx([*pool, Fraction(-21, 33)])
    assert table.loc["fox", "strength_pool"] > table.loc["fox", "strength_uniform"]
    assert table.loc["panda", "strength_pool"] < table.loc["panda", "strength_uniform"]
    assert table["pool_shift"].tolist() == approx(
        table["strength_pool"] - table["strength_uniform"]
    )
    # the opponent rolls another card of the same 33: lion meets 8 lions of 32 cards,
    # so 12/32; fox meets 9 lions and 5 foxes: 15/32
    assert table.loc["lion", "strength_dealt"] == pytest.approx(12 / 32)
    assert table.loc["fox", "strength_dealt"] == pytest.approx(15 / 32)
    assert table.loc["fox", "best_pick_share_pool"] == 1.0
    assert table.loc["lion", "best_pick_share_pool"] == 0.0
    assert table.loc["lion", "best_pick_share_uniform"] == 1.0


def test_lion_balance_even_a_5_cycle_tilts_under_the_pool() -> None:
    # lion -> fox -> panda -> flamingo -> dolphin: fox beats lion and dolphin (9 + 6),
    # loses to panda and flamingo (12): 3/33; flamingo beats fox and panda (12), loses to
    # dolphin and lion (15): -3/33
    table = dom.lion_balance([FIVE], {"lion": 9, "others": 6})
    assert (table["strength_uniform"] == 0).all()
    assert table.loc["fox", "strength_pool"] == pytest.approx(3 / 33)
    assert table.loc["flamingo", "strength_pool"] == pytest.approx(-3 / 33)
    assert table.loc["lion", "strength_pool"] == pytest.approx(0)


def test_lion_balance_equal_counts_changes_nothing() -> None:
    deck = random_deck(3)
    table = dom.lion_balance(deck, [6] * 5)
    assert table["strength_pool"].tolist() == approx(table["strength_uniform"])
    with pytest.raises(ValueError, match="whole"):
        dom.lion_balance(deck, [0.5] * 5)


def test_deck_functions_reject_empty_or_wrong_input() -> None:
    with pytest.raises(ValueError):
        dom.deck_dominance([])
    with pytest.raises(ValueError):
        dom.across_decks([])
    with pytest.raises(TypeError):
        dom.animal_summary([(0, 1, 2)])


def test_tables_are_dataframes_with_names() -> None:
    deck = random_deck(11)
    for table in (
        dom.animal_summary(deck),
        dom.lion_balance(deck),
        dom.across_decks([deck, random_deck(12)], dom.pool_mix()),
    ):
        assert isinstance(table, pd.DataFrame)
        assert table.index.name == "animal"
        assert list(table.index) == list(ANIMALS)
