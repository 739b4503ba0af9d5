"""Exact odds that a Bluff in Zoo claim is true: the table a player at the real table wants.

The question answered: "the discard pile holds ``P`` cards that are a uniformly random draw
(without replacement) from the deck; what is the probability that, when someone doubts, at
least ``N`` animals of the claimed kind are counted?" Counting follows
:func:`zooanalysis.games.bluff.rules.count_for_kind` in full: wild cards, "All cards count 1",
"All animals are equal" and the parity of the stop cards.

Nothing is sampled. The 20 card types are grouped into the categories that matter for the
claimed kind (its animal cards by value, the other kinds' animal cards by value, wild:1,
wild:2, and the three action/stop sorts). Whether the count1 and equal effects are on is
decided by the action and stop cards alone, so the pile is split into

* the action/stop part: which of the four counting modes (none, count1, equal, both) it
  switches on, weighted by the number of ways to draw it, and
* the counting part (animal and wild cards): for each mode, a generating polynomial over
  (cards drawn, animals counted) built with exact binomial coefficients.

Combining the two with Python integers gives the multivariate hypergeometric distribution of
the count exactly (as :class:`fractions.Fraction`); floats only appear at the very end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

import numpy as np

from zooanalysis.games.bluff.cards import (
    ALL_EQUAL,
    ANIMAL_VALUES,
    COUNT_ONE,
    N_KINDS,
    STOP,
    WILD_1,
    WILD_2,
    animal_type,
)
from zooanalysis.games.bluff.rules import DeckSettings
from zooanalysis.lazy_modules import pandas as pd

DEFAULT_PILES: range = range(1, 13)
"""Pile sizes of the default table: 1 to 12 cards."""

# Counting modes, indexed by (count1 on, equal on).
_MODES: tuple[tuple[bool, bool], ...] = ((False, False), (True, False), (False, True), (True, True))

# A counting category: (cards in the deck, animals counted per card in each of the 4 modes).
_Category = tuple[int, tuple[int, int, int, int]]


def _counting_categories(type_counts: tuple[int, ...], kind: int) -> tuple[_Category, ...]:
    """The animal and wild cards grouped by how much each card counts in every mode."""
    by_weights: dict[tuple[int, int, int, int], int] = {}

    def add(cards: int, weights: tuple[int, int, int, int]) -> None:
        if cards:
            by_weights[weights] = by_weights.get(weights, 0) + cards

    for animal_kind in range(N_KINDS):
        for value in ANIMAL_VALUES:
            cards = type_counts[animal_type(animal_kind, value)]
            if animal_kind == kind:
                # none: value, count1: 1, equal: value, both: 1
                add(cards, (value, 1, value, 1))
            else:
                # only "All animals are equal" makes another kind count
                add(cards, (0, 0, value, 1))
    add(type_counts[WILD_1], (1, 1, 1, 1))
    add(type_counts[WILD_2], (2, 1, 2, 1))
    return tuple(sorted((cards, weights) for weights, cards in by_weights.items()))


@lru_cache(maxsize=256)
def _mode_polynomials(
    categories: tuple[_Category, ...], max_cards: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Ways to draw ``r`` counting cards (r = 0..max_cards) showing ``c`` animals, per mode.

    Result ``[mode][r][c]``: an exact integer number of card subsets.
    """
    result = []
    for mode in range(len(_MODES)):
        # poly[r] maps count -> ways (as a list indexed by count)
        poly: list[list[int]] = [[1]] + [[] for _ in range(max_cards)]
        for cards, weights in categories:
            weight = weights[mode]
            new: list[list[int]] = [[] for _ in range(max_cards + 1)]
            for r, row in enumerate(poly):
                if not row:
                    continue
                for j in range(min(cards, max_cards - r) + 1):
                    ways = math.comb(cards, j)
                    shift = weight * j
                    target = new[r + j]
                    needed = shift + len(row)
                    if len(target) < needed:
                        target.extend([0] * (needed - len(target)))
                    for c, w in enumerate(row):
                        if w:
                            target[c + shift] += ways * w
            poly = new
        result.append(tuple(tuple(row) for row in poly))
    return tuple(result)


@lru_cache(maxsize=256)
def _action_weights(
    count_one: int, all_equal: int, stop: int, max_cards: int
) -> tuple[tuple[int, ...], ...]:
    """Ways to draw ``k`` action/stop cards (k = 0..max_cards) that leave each mode on.

    Result ``[mode][k]``. Extra copies of an action card add nothing; an odd number of stop
    cards switches every action card off.
    """
    weights = [[0] * (max_cards + 1) for _ in _MODES]
    for a in range(min(count_one, max_cards) + 1):
        for b in range(min(all_equal, max_cards - a) + 1):
            for s in range(min(stop, max_cards - a - b) + 1):
                actions_on = s % 2 == 0
                mode = _MODES.index((actions_on and a > 0, actions_on and b > 0))
                ways = math.comb(count_one, a) * math.comb(all_equal, b) * math.comb(stop, s)
                weights[mode][a + b + s] += ways
    return tuple(tuple(row) for row in weights)


@lru_cache(maxsize=1024)
def _count_distribution_cached(
    type_counts: tuple[int, ...], pile_size: int, kind: int
) -> tuple[Fraction, ...]:
    categories = _counting_categories(type_counts, kind)
    counting_cards = sum(cards for cards, _ in categories)
    # Share one polynomial between all piles of the default table.
    poly_cards = min(max(pile_size, DEFAULT_PILES[-1]), counting_cards)
    polys = _mode_polynomials(categories, poly_cards)
    action_cards = type_counts[COUNT_ONE] + type_counts[ALL_EQUAL] + type_counts[STOP]
    actions = _action_weights(
        type_counts[COUNT_ONE],
        type_counts[ALL_EQUAL],
        type_counts[STOP],
        min(max(pile_size, DEFAULT_PILES[-1]), action_cards),
    )

    ways_by_count: list[int] = []
    for mode in range(len(_MODES)):
        for k, action_ways in enumerate(actions[mode]):
            r = pile_size - k
            if not action_ways or r < 0 or r > poly_cards:
                continue
            row = polys[mode][r]
            if len(ways_by_count) < len(row):
                ways_by_count.extend([0] * (len(row) - len(ways_by_count)))
            for c, w in enumerate(row):
                ways_by_count[c] += action_ways * w

    while len(ways_by_count) > 1 and ways_by_count[-1] == 0:
        ways_by_count.pop()
    total = math.comb(sum(type_counts), pile_size)
    assert sum(ways_by_count) == total, "every pile must be counted exactly once"
    return tuple(Fraction(w, total) for w in ways_by_count)


def _check_arguments(deck: DeckSettings, pile_size: int, kind: int) -> tuple[int, ...]:
    """Validate the arguments; return the deck as a hashable tuple of type counts."""
    type_counts = tuple(int(n) for n in deck.type_counts())
    size = sum(type_counts)
    if (
        isinstance(pile_size, bool)
        or not isinstance(pile_size, int | np.integer)
        or not 1 <= pile_size <= size
    ):
        raise ValueError(f"pile_size {pile_size!r} is invalid: allowed 1-{size} (the deck size)")
    if isinstance(kind, bool) or not isinstance(kind, int | np.integer) or not 0 <= kind < N_KINDS:
        raise ValueError(f"kind {kind!r} is invalid: allowed 0-{N_KINDS - 1}")
    return type_counts


def _count_distribution_exact(
    deck: DeckSettings, pile_size: int, kind: int = 0
) -> tuple[Fraction, ...]:
    """Exact ``P(count == c)`` for c = 0 .. largest possible count, as fractions."""
    type_counts = _check_arguments(deck, pile_size, kind)
    return _count_distribution_cached(type_counts, int(pile_size), int(kind))


def pile_count_distribution(deck: DeckSettings, pile_size: int, kind: int = 0) -> np.ndarray:
    """Probabilities ``P(count == c)``, c = 0 .. largest possible count, for a random pile.

    The pile holds ``pile_size`` cards drawn uniformly without replacement from ``deck``;
    the count is the number of animals of ``kind`` (0 = mouse ... 4 = elephant) found when
    the claim is doubted. Raises ``ValueError`` for a pile size outside 1 .. deck size.
    """
    return np.array([float(p) for p in _count_distribution_exact(deck, pile_size, kind)])


def _at_least_exact(deck: DeckSettings, pile_size: int, claimed_count: int, kind: int) -> Fraction:
    if isinstance(claimed_count, bool) or not isinstance(claimed_count, int | np.integer):
        raise ValueError(f"claimed_count {claimed_count!r} is invalid: must be a whole number")
    if claimed_count < 0:
        raise ValueError(f"claimed_count {claimed_count} is invalid: allowed 0 or more")
    distribution = _count_distribution_exact(deck, pile_size, kind)
    return sum(distribution[int(claimed_count) :], Fraction(0))


def at_least(deck: DeckSettings, pile_size: int, claimed_count: int, kind: int = 0) -> float:
    """Probability that a random pile of ``pile_size`` cards shows ``claimed_count`` or more.

    That is the chance a claim of ``claimed_count`` animals of ``kind`` survives a doubt
    when the pile is a uniformly random draw from ``deck``.
    """
    return float(_at_least_exact(deck, pile_size, claimed_count, kind))


def at_least_table(
    deck: DeckSettings,
    piles: Sequence[int] = DEFAULT_PILES,
    kind: int = 0,
    max_count: int | None = None,
) -> pd.DataFrame:
    """Table of ``P(count >= N)``: one row per pile size ``P``, one column per claim ``N``.

    Columns run from 1 to ``max_count``; by default to the largest ``N`` that has a non-zero
    probability for some pile size in ``piles``. Index name ``pile_size``, columns name
    ``claimed_count``.
    """
    piles = [int(p) for p in piles]
    if not piles:
        raise ValueError("piles is empty: give at least one pile size")
    if max_count is not None and (isinstance(max_count, bool) or max_count < 1):
        raise ValueError(f"max_count {max_count!r} is invalid: allowed 1 or more")
    distributions = [_count_distribution_exact(deck, p, kind) for p in piles]
    if max_count is None:
        max_count = max(1, max(len(d) - 1 for d in distributions))
    rows = []
    for distribution in distributions:
        tail = Fraction(0)
        at_least_row = [Fraction(0)] * (max_count + 1)
        for c in range(len(distribution) - 1, -1, -1):
            tail += distribution[c]
            if c <= max_count:
                at_least_row[c] = tail
        # at_least_row[c] for c beyond the distribution stays 0; for c within, it is the tail.
        rows.append([float(v) for v in at_least_row[1:]])
    table = pd.DataFrame(
        rows,
        index=pd.Index(piles, name="pile_size"),
        columns=pd.Index(range(1, max_count + 1), name="claimed_count"),
    )
    return table
