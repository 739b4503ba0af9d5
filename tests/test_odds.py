"""Tests of the exact claim odds in zooanalysis.games.bluff.odds."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from zooanalysis.games.bluff import odds
from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    ANIMAL_VALUES,
    COUNT_ONE,
    N_CARD_TYPES,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
    animal_type,
    type_counts,
)
from zooanalysis.games.bluff.rules import DeckSettings, count_for_kind

DEFAULT = DeckSettings()
SMALL = DeckSettings(animal_cards_per_value=1, wild_1=1, wild_2=1, count_one=1, all_equal=1, stop=1)


def brute_force(cards: list[int], pile_size: int, kind: int) -> dict[int, Fraction]:
    """P(count == c) by enumerating every pile of ``pile_size`` cards (cards are distinct)."""
    tally: Counter[int] = Counter()
    for pile in itertools.combinations(cards, pile_size):
        tally[count_for_kind(type_counts(pile), kind)] += 1
    total = math.comb(len(cards), pile_size)
    assert sum(tally.values()) == total
    return {c: Fraction(n, total) for c, n in tally.items()}


def as_dict(distribution: tuple[Fraction, ...]) -> dict[int, Fraction]:
    return {c: p for c, p in enumerate(distribution) if p}


# --- exactness -------------------------------------------------------------------------------


@pytest.mark.parametrize("pile_size", [1, 2, 3, 5, 6, 12, 40, 107])
def test_distribution_sums_to_one_exactly(pile_size: int) -> None:
    exact = odds._count_distribution_exact(DEFAULT, pile_size)
    assert all(isinstance(p, Fraction) for p in exact)
    assert sum(exact) == 1
    assert exact[-1] > 0  # trailing impossible counts are trimmed
    floats = odds.pile_count_distribution(DEFAULT, pile_size)
    assert isinstance(floats, np.ndarray)
    assert floats.shape == (len(exact),)
    assert floats.sum() == pytest.approx(1.0, abs=1e-12)


def test_one_card_by_hand() -> None:
    # One card from the 107-card deck, claimed kind mouse: mouse:1/2/3 (5 cards each) count
    # 1/2/3, wild:1 (6) counts 1, wild:2 (6) counts 2; other animals, a lone action card or
    # a lone stop card count 0.
    exact = odds._count_distribution_exact(DEFAULT, 1, kind=0)
    assert exact == (
        Fraction(107 - 27, 107),
        Fraction(5 + 6, 107),
        Fraction(5 + 6, 107),
        Fraction(5, 107),
    )
    assert odds._at_least_exact(DEFAULT, 1, 1, 0) == Fraction(15 + 12, 107)
    assert odds._at_least_exact(DEFAULT, 1, 2, 0) == Fraction(5 + 5 + 6, 107)
    assert odds._at_least_exact(DEFAULT, 1, 3, 0) == Fraction(5, 107)
    assert odds._at_least_exact(DEFAULT, 1, 4, 0) == 0
    assert odds.at_least(DEFAULT, 1, 1) == pytest.approx(27 / 107, rel=1e-15)
    assert odds.at_least(DEFAULT, 1, 2) == pytest.approx(16 / 107, rel=1e-15)
    assert odds.at_least(DEFAULT, 1, 3) == pytest.approx(5 / 107, rel=1e-15)
    assert odds.at_least(DEFAULT, 1, 4) == 0.0


def test_whole_deck_counts_every_animal_and_wild_once() -> None:
    # 8 stop cards (even) leave both action cards on: 75 animals + 12 wilds, each counting 1.
    assert odds._count_distribution_exact(DEFAULT, DEFAULT.size) == (0,) * 87 + (1,)


@pytest.mark.parametrize("kind", [0, 3])
@pytest.mark.parametrize("pile_size", [1, 2, 3, 4, 5])
def test_matches_brute_force_on_small_deck(pile_size: int, kind: int) -> None:
    assert SMALL.size == 20
    expected = brute_force(list(SMALL.cards()), pile_size, kind)
    assert as_dict(odds._count_distribution_exact(SMALL, pile_size, kind)) == expected


def test_matches_brute_force_on_deck_with_two_stops_and_actions() -> None:
    # Two copies of each action and stop card exercise "extra copies add nothing" and the
    # stop parity (two stops cancel).
    deck = DeckSettings(
        animal_cards_per_value=1, wild_1=1, wild_2=1, count_one=2, all_equal=2, stop=2
    )
    cards = list(deck.cards())
    for pile_size in (3, 5):
        expected = brute_force(cards, pile_size, kind=1)
        assert as_dict(odds._count_distribution_exact(deck, pile_size, 1)) == expected


def test_matches_brute_force_on_irregular_deck() -> None:
    # A designer's deck whose kinds differ: the internal function takes any type counts.
    rng = np.random.default_rng(7)
    counts = rng.integers(0, 3, size=N_CARD_TYPES)
    counts[[COUNT_ONE, ALL_EQUAL, STOP]] = [1, 1, 2]
    cards = list(np.repeat(np.arange(N_CARD_TYPES), counts))
    assert 15 <= len(cards) <= 30
    key = tuple(int(n) for n in counts)
    for kind in range(N_KINDS):
        for pile_size in (1, 2, 4):
            expected = brute_force(cards, pile_size, kind)
            assert as_dict(odds._count_distribution_cached(key, pile_size, kind)) == expected


# --- Monte Carlo sanity check ------------------------------------------------------------------


def _counts_vectorised(piles_by_type: np.ndarray, kind: int) -> np.ndarray:
    """count_for_kind applied row by row, with numpy."""
    actions_on = piles_by_type[:, STOP] % 2 == 0
    count_one = actions_on & (piles_by_type[:, COUNT_ONE] > 0)
    all_equal = actions_on & (piles_by_type[:, ALL_EQUAL] > 0)
    total = np.zeros(len(piles_by_type), dtype=np.int64)
    for animal_kind in range(N_KINDS):
        counted = np.ones(len(piles_by_type), dtype=bool) if animal_kind == kind else all_equal
        for value in ANIMAL_VALUES:
            cards = piles_by_type[:, animal_type(animal_kind, value)]
            total += np.where(counted, cards * np.where(count_one, 1, value), 0)
    total += piles_by_type[:, WILD_1]
    total += piles_by_type[:, WILD_2] * np.where(count_one, 1, 2)
    return total


def test_monte_carlo_agrees_for_six_cards() -> None:
    pile_size, samples, kind = 6, 200_000, 0
    rng = np.random.default_rng(20240611)
    deck_cards = DEFAULT.cards().astype(np.int64)
    chosen = np.argsort(rng.random((samples, DEFAULT.size)), axis=1)[:, :pile_size]
    piles = deck_cards[chosen]
    piles_by_type = np.zeros((samples, N_CARD_TYPES), dtype=np.int64)
    np.add.at(piles_by_type, (np.arange(samples)[:, None], piles), 1)
    counts = _counts_vectorised(piles_by_type, kind)
    for row in piles_by_type[:500]:  # the vectorised rule is the reference rule
        assert count_for_kind(row, kind) == _counts_vectorised(row[None, :], kind)[0]

    exact = odds.pile_count_distribution(DEFAULT, pile_size, kind)
    assert counts.max() < len(exact)
    for claimed in range(1, len(exact) + 1):
        p = odds.at_least(DEFAULT, pile_size, claimed, kind)
        observed = float(np.mean(counts >= claimed))
        if p == 0.0:
            assert observed == 0.0
            continue
        standard_error = math.sqrt(p * (1 - p) / samples)
        assert abs(observed - p) <= 4 * standard_error + 1e-12, (claimed, observed, p)


# --- table and properties ----------------------------------------------------------------------


def test_default_table_shape_and_values() -> None:
    table = odds.at_least_table(DEFAULT)
    assert isinstance(table, pd.DataFrame)
    assert table.index.name == "pile_size"
    assert table.columns.name == "claimed_count"
    assert list(table.index) == list(range(1, 13))
    # The largest count a 12-card pile can show: an "All animals are equal" card and 11 of
    # the 25 three-value animal cards -> 33.
    assert list(table.columns) == list(range(1, 34))
    assert table.loc[12, 33] > 0
    # Only one way to reach 33: one of the 6 "equal" cards and 11 of the 25 three-value cards.
    exact_top = Fraction(6 * math.comb(25, 11), math.comb(107, 12))
    assert odds._at_least_exact(DEFAULT, 12, 33, 0) == exact_top
    assert table.loc[12, 33] == float(exact_top)
    assert table.loc[1, 1] == pytest.approx(27 / 107)
    assert table.loc[1, 4] == 0.0
    for pile_size in (1, 6, 12):
        for claimed in (1, 2, 5, 10):
            assert table.loc[pile_size, claimed] == odds.at_least(DEFAULT, pile_size, claimed)


def test_table_max_count_and_custom_piles() -> None:
    table = odds.at_least_table(DEFAULT, piles=[3, 7], kind=4, max_count=5)
    assert list(table.index) == [3, 7]
    assert list(table.columns) == [1, 2, 3, 4, 5]
    wide = odds.at_least_table(DEFAULT, piles=[1], max_count=6)
    assert list(wide.loc[1, 4:]) == [0.0, 0.0, 0.0]


def test_every_kind_has_the_same_table_on_the_default_deck() -> None:
    reference = odds.at_least_table(DEFAULT)
    for kind in range(1, N_KINDS):
        pd.testing.assert_frame_equal(odds.at_least_table(DEFAULT, kind=kind), reference)
