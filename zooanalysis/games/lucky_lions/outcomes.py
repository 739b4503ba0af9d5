"""Lucky Lions battles: who beats whom on a Zoo Card, and exact odds for two dice.

The rule, as the publisher's card generator computes it (see the rules file, "Facts about the
published card set"): a cycle is an ordered tuple of ``n`` distinct animals, each with an arrow
to the next and the last one back to the first. The *distance* from my animal to theirs is
``(position of theirs - position of mine) mod n``, counted along the arrows. If both play the
same animal both distances are ``n`` (a tie). An animal not on the cycle has distance 0 to
everything, and if only the opponent is off the cycle I score ``n``. The larger distance wins;
equal distances tie.

Consequences worth knowing (all follow from the formula, none is an extra rule):

* The animal an arrow points *to* beats the animal the arrow comes *from*: on the cycle
  ``lion -> fox -> panda`` the distance lion->fox is 1 and fox->lion is 2, so fox beats lion
  (and panda beats fox, lion beats panda).
* On an even cycle two animals facing each other tie; on a 2-cycle any two different animals
  tie.
* An animal on the cycle beats every animal off it; two animals off the cycle tie.

Animals are accepted as names (case-insensitive, e.g. ``"Lion"``) or as indices into
:data:`~zooanalysis.games.lucky_lions.cards.ANIMALS`. Everything is built on a cached 5x5
outcome matrix per cycle or Zoo Card (:func:`outcome_matrix`), so :func:`battle` and
:func:`card_battle` are a dictionary lookup and two tuple indexings, and the odds of two dice
are two small integer matrix products on their animal counts (:func:`die_counts`).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from zooanalysis.games.lucky_lions.cards import (
    ANIMALS,
    N_ANIMALS,
    SPECIAL_ANIMALS_NEEDED,
    SPECIAL_TYPES,
    AnimalCard,
    ZooCard,
    parse_animal,
)

AnimalLike = str | int
"""An animal as a name (case-insensitive) or an index into ``ANIMALS``."""
CycleLike = Sequence[AnimalLike]
"""A cycle: 2-5 distinct animals in arrow order."""
CardOrCycle = ZooCard | CycleLike

MIN_CYCLE = 2
MAX_CYCLE = N_ANIMALS

WIN, TIE, LOSS = 1, 0, -1

_NOT_ON_CYCLE = -1


# --- parsing -----------------------------------------------------------------------------------


def animal_index(animal: AnimalLike, what: str = "animal") -> int:
    """The index of an animal given by name or index; ``ValueError`` naming the input otherwise.

    ``what`` names the argument in the error message (e.g. ``"die_a"``).
    """
    if isinstance(animal, str):
        try:
            return parse_animal(animal)
        except ValueError as error:
            raise ValueError(f"{what}: {error}") from None
    if isinstance(animal, numbers.Integral) and not isinstance(animal, bool | np.bool_):
        index = int(animal)
        if 0 <= index < N_ANIMALS:
            return index
    raise ValueError(
        f"{what}: unknown animal {animal!r}: give a name ({', '.join(ANIMALS)}) "
        f"or an index 0-{N_ANIMALS - 1}"
    )


def _index(animal: AnimalLike, what: str) -> int:
    """Fast path of :func:`animal_index` for plain ``int`` indices."""
    if type(animal) is int and 0 <= animal < N_ANIMALS:
        return animal
    return animal_index(animal, what)


def cycle_indices(cycle: CycleLike) -> tuple[int, ...]:
    """A cycle as a tuple of animal indices, checked: 2-5 distinct known animals.

    Raises ``ValueError`` naming the input otherwise.
    """
    if isinstance(cycle, ZooCard):
        return _cycle_key(cycle.cycle)
    return _cycle_key(_as_tuple(cycle, "cycle"))


def _as_tuple(items: object, what: str) -> tuple:
    if type(items) is tuple:
        return items
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise ValueError(f"{what} must be a sequence of animals, got {items!r}")
    return tuple(items)


@lru_cache(maxsize=4096)
def _cycle_key(raw: tuple) -> tuple[int, ...]:
    indices = tuple(animal_index(animal, "cycle") for animal in raw)
    if not MIN_CYCLE <= len(indices) <= MAX_CYCLE:
        raise ValueError(
            f"cycle must have {MIN_CYCLE}-{MAX_CYCLE} animals, got {len(indices)}: {list(raw)}"
        )
    if len(set(indices)) != len(indices):
        raise ValueError(f"a cycle's animals must be distinct, got {list(raw)}")
    return indices


def _positions(cycle: tuple[int, ...]) -> tuple[int, ...]:
    """Position of each animal on the cycle, ``-1`` for animals off it."""
    positions = [_NOT_ON_CYCLE] * N_ANIMALS
    for position, animal in enumerate(cycle):
        positions[animal] = position
    return tuple(positions)


# --- the rule itself ---------------------------------------------------------------------------


def _distance(n: int, positions: tuple[int, ...], mine: int, theirs: int) -> int:
    my_position = positions[mine]
    if my_position == _NOT_ON_CYCLE:
        return 0
    their_position = positions[theirs]
    if their_position == _NOT_ON_CYCLE or mine == theirs:
        return n
    return (their_position - my_position) % n


def distance(cycle: CycleLike, mine: AnimalLike, theirs: AnimalLike) -> int:
    """My score against ``theirs`` on ``cycle``: the number of arrows from my animal to theirs.

    ``(position of theirs - position of mine) mod n``; ``n`` for the same animal; 0 if my
    animal is off the cycle; ``n`` if only theirs is off the cycle.
    """
    key = cycle_indices(cycle)
    return _distance(len(key), _positions(key), _index(mine, "mine"), _index(theirs, "theirs"))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


class _Tables(NamedTuple):
    matrix: np.ndarray  # int8 [5, 5], read-only, +1/0/-1 for the row animal
    rows: tuple[tuple[int, ...], ...]  # the same as nested tuples, for fast scalar lookups
    wins: np.ndarray  # int64 [5, 5] indicator of row wins
    ties: np.ndarray  # int64 [5, 5] indicator of ties


def _tables(outcomes: list[list[int]]) -> _Tables:
    matrix = np.array(outcomes, dtype=np.int8)
    matrix.flags.writeable = False
    wins = (matrix == WIN).astype(np.int64)
    ties = (matrix == TIE).astype(np.int64)
    wins.flags.writeable = False
    ties.flags.writeable = False
    return _Tables(matrix, tuple(tuple(row) for row in outcomes), wins, ties)


@lru_cache(maxsize=4096)
def _cycle_tables(cycle: tuple[int, ...]) -> _Tables:
    n, positions = len(cycle), _positions(cycle)
    return _tables(
        [
            [
                _sign(_distance(n, positions, a, b) - _distance(n, positions, b, a))
                for b in range(N_ANIMALS)
            ]
            for a in range(N_ANIMALS)
        ]
    )


def _check_card(card: ZooCard) -> tuple[int, ...]:
    """Check a card's special rule; return its named animals as indices."""
    if card.special is not None and card.special not in SPECIAL_TYPES:
        raise ValueError(
            f"unknown special rule {card.special!r} on {card!r}: allowed are "
            f"{', '.join(SPECIAL_TYPES)}"
        )
    needed = SPECIAL_ANIMALS_NEEDED.get(card.special, 0) if card.special else 0
    if len(card.special_animals) != needed:
        raise ValueError(
            f"special rule {card.special!r} needs {needed} named animal(s), "
            f"got {card.special_animals!r} on {card!r}"
        )
    named = tuple(animal_index(a, "special_animals") for a in card.special_animals)
    if card.special == "extra_rule" and named[0] == named[1]:
        raise ValueError(f"extra_rule needs two different animals, got {card!r}")
    return named


@lru_cache(maxsize=4096)
def _card_tables(card: ZooCard) -> _Tables:
    named = _check_card(card)
    cycle = cycle_indices(card.cycle)
    special = card.special
    if special == "autowin":
        (x,) = named
        outcomes = [[(a == x) - (b == x) for b in range(N_ANIMALS)] for a in range(N_ANIMALS)]
    elif special == "autolose":
        (x,) = named
        outcomes = [[(b == x) - (a == x) for b in range(N_ANIMALS)] for a in range(N_ANIMALS)]
    elif special == "extra_rule":
        x, y = named
        outcomes = [list(row) for row in _cycle_tables(cycle).rows]
        outcomes[x][y], outcomes[y][x] = WIN, LOSS
    else:  # regular, die_split, double_roll, player_exclude: the cycle decides
        return _cycle_tables(cycle)
    return _tables(outcomes)


def _cycle_tables_for(cycle: CycleLike) -> _Tables:
    if type(cycle) is tuple:
        return _cycle_tables(_cycle_key(cycle))
    return _cycle_tables(cycle_indices(cycle))


def _tables_for(card_or_cycle: CardOrCycle) -> _Tables:
    if isinstance(card_or_cycle, ZooCard):
        return _card_tables(card_or_cycle)
    return _cycle_tables_for(card_or_cycle)


def outcome_matrix(card_or_cycle: CardOrCycle) -> np.ndarray:
    """Who beats whom: a read-only ``int8`` array ``[5, 5]``, +1/0/-1 for the row animal.

    Rows and columns follow :data:`ANIMALS`. A :class:`ZooCard` applies its Busy Zoo special
    rule (see :func:`card_battle`); a plain cycle applies the cycle rule. Cached.
    """
    return _tables_for(card_or_cycle).matrix


def battle(cycle: CycleLike, a: AnimalLike, b: AnimalLike) -> int:
    """The cycle rule: +1 if ``a`` beats ``b``, 0 for a tie, -1 if ``b`` beats ``a``.

    Only the cycle is used: a :class:`ZooCard` given here is reduced to its cycle, special rule
    ignored (use :func:`card_battle` for that).
    """
    return _cycle_tables_for(cycle).rows[_index(a, "a")][_index(b, "b")]


def card_battle(card: CardOrCycle, a: AnimalLike, b: AnimalLike) -> int:
    """A battle on a Zoo Card, special rules included: +1 if ``a`` wins, 0 tie, -1 if ``b`` wins.

    * regular card: :func:`battle` on its cycle;
    * ``autowin`` X: "X always wins; everything else is a tie" (X against X ties; the cycle is
      hidden and not used);
    * ``autolose`` X: X always loses, everything else ties (X against X ties);
    * ``extra_rule`` (X, Y): "X beats Y if only those animals are played": X beats Y, every
      other pair follows the cycle;
    * ``die_split``, ``double_roll``, ``player_exclude`` change how dice are rolled or who
      rolls, not who beats whom: the cycle decides.

    A plain cycle is treated as a regular card.
    """
    return _tables_for(card).rows[_index(a, "a")][_index(b, "b")]


# --- several players (Busy Zoo people icon) ----------------------------------------------------


def _gaps(cycle: tuple[int, ...], animals: Sequence[int]) -> list[int]:
    n, positions = len(cycle), _positions(cycle)
    gaps = []
    for i, mine in enumerate(animals):
        my_position = positions[mine]
        if my_position == _NOT_ON_CYCLE:
            gaps.append(0)
            continue
        best = n
        for j, theirs in enumerate(animals):
            if j != i and positions[theirs] != _NOT_ON_CYCLE:
                best = min(best, _distance(n, positions, mine, theirs))
        gaps.append(best)
    return gaps


def _animal_list(animals: Iterable[AnimalLike], what: str) -> list[int]:
    return [_index(animal, what) for animal in _as_tuple(animals, what)]


def gap(cycle: CycleLike, mine: AnimalLike, others: Iterable[AnimalLike]) -> int:
    """My gap when several players roll (Busy Zoo people icon).

    The rules: "As usual, the winner is the animal with the largest gap between themselves and
    the next animal in the cycle." Read as a generalisation of the two-player distance: for my
    animal on the cycle, the gap is the smallest forward distance (along the arrows, mod ``n``)
    to any other player's animal on the cycle, where another player with the same animal counts
    ``n``; it is ``n`` if no other player's animal is on the cycle. An animal off the cycle has
    gap 0. With one opponent this is exactly :func:`distance`.
    """
    key = cycle_indices(cycle)
    mine_index = _index(mine, "mine")
    return _gaps(key, [mine_index, *_animal_list(others, "others")])[0]


def gaps(cycle: CycleLike, animals: Iterable[AnimalLike]) -> list[int]:
    """Every player's :func:`gap` when player ``i`` plays ``animals[i]``."""
    return _gaps(cycle_indices(cycle), _animal_list(animals, "animals"))


def winners(cycle: CycleLike, animals: Iterable[AnimalLike]) -> list[int]:
    """Indices of the players with the largest :func:`gap` (several means a tie among them).

    With two players this is ``[0]``, ``[1]`` or ``[0, 1]`` exactly when :func:`battle` is +1,
    -1 or 0. If every animal is off the cycle, every player ties.
    """
    all_gaps = gaps(cycle, animals)
    if not all_gaps:
        raise ValueError("winners needs at least one player's animal")
    best = max(all_gaps)
    return [i for i, g in enumerate(all_gaps) if g == best]


def card_winners(card: CardOrCycle, animals: Iterable[AnimalLike]) -> list[int]:
    """Indices of the winning players when everyone rolls on a Zoo Card, special rules included.

    Our reading of the special rules with several players (it reduces to :func:`card_battle`
    for two): ``autowin`` X — everyone who rolled X wins, or everyone ties if nobody did;
    ``autolose`` X — everyone who did not roll X wins, or everyone ties if all did;
    ``extra_rule`` (X, Y) — if exactly X and Y were rolled (and nothing else) the X players
    win, otherwise the gap rule; every other card: :func:`winners` on the cycle.
    """
    played = _animal_list(animals, "animals")
    if not played:
        raise ValueError("card_winners needs at least one player's animal")
    if not isinstance(card, ZooCard):
        return winners(card, played)
    named = _check_card(card)
    everyone = list(range(len(played)))
    if card.special == "autowin":
        x = named[0]
        return [i for i, a in enumerate(played) if a == x] or everyone
    if card.special == "autolose":
        x = named[0]
        return [i for i, a in enumerate(played) if a != x] or everyone
    if card.special == "extra_rule":
        x, y = named
        if set(played) == {x, y}:
            return [i for i, a in enumerate(played) if a == x]
    return winners(card.cycle, played)


# --- dice --------------------------------------------------------------------------------------


def die_counts(die: Iterable[AnimalLike | AnimalCard]) -> np.ndarray:
    """How many cards of each animal a die holds: ``int64`` array ``[5]`` in ``ANIMALS`` order.

    A die is a sequence of animals (names or indices, repeats allowed) or of plain
    :class:`AnimalCard`; wild cards are refused because their powers are not modelled here.
    """
    indices = []
    for card in _as_tuple(die, "die"):
        if isinstance(card, AnimalCard):
            if card.wild:
                raise ValueError(
                    f"die: wild card {card.describe()!r}: wild powers are not modelled by the "
                    "battle odds; pass card.animal to ignore the power"
                )
            card = card.animal
        indices.append(_index(card, "die"))
    return np.bincount(np.asarray(indices, dtype=np.int64), minlength=N_ANIMALS)


def _check_counts(counts: np.ndarray, what: str) -> np.ndarray:
    counts = np.asarray(counts)
    if counts.shape != (N_ANIMALS,):
        raise ValueError(f"{what}: need {N_ANIMALS} animal counts, got shape {counts.shape}")
    if not np.issubdtype(counts.dtype, np.integer):
        if not np.all(np.mod(counts, 1) == 0):
            raise ValueError(f"{what}: counts must be whole numbers, got {counts.tolist()}")
        counts = counts.astype(np.int64)
    if (counts < 0).any() or counts.sum() == 0:
        raise ValueError(f"{what}: counts must be >= 0 with at least one card: {counts.tolist()}")
    return counts.astype(np.int64, copy=False)


def outcome_counts(
    card_or_cycle: CardOrCycle, counts_a: np.ndarray, counts_b: np.ndarray
) -> tuple[int, int, int, int]:
    """``(wins, ties, losses, total)`` for ``a`` over every pair of cards of two dice.

    ``counts_a`` and ``counts_b`` are animal counts (see :func:`die_counts`); each of the
    ``total = len(die_a) * len(die_b)`` equally likely pairs is counted once.
    """
    tables = _tables_for(card_or_cycle)
    a = _check_counts(counts_a, "die_a")
    b = _check_counts(counts_b, "die_b")
    wins = int(a @ tables.wins @ b)
    ties = int(a @ tables.ties @ b)
    total = int(a.sum()) * int(b.sum())
    return wins, ties, total - wins - ties, total


def card_odds_exact(
    card: CardOrCycle, die_a: Iterable[AnimalLike], die_b: Iterable[AnimalLike]
) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (win, tie, loss) for ``a`` when each die shows a uniformly random card of its own.

    Special rules apply as in :func:`card_battle`. One roll each: ``double_roll`` (rolling
    twice and choosing) and ``die_split`` (choosing which cards form the die) are choices of
    the players and are not modelled here; pass the reduced die for ``die_split``.
    """
    wins, ties, losses, total = outcome_counts(card, die_counts(die_a), die_counts(die_b))
    return Fraction(wins, total), Fraction(ties, total), Fraction(losses, total)


def card_odds(
    card: CardOrCycle, die_a: Iterable[AnimalLike], die_b: Iterable[AnimalLike]
) -> tuple[float, float, float]:
    """:func:`card_odds_exact` as floats (computed from exact counts, one division each)."""
    wins, ties, losses, total = outcome_counts(card, die_counts(die_a), die_counts(die_b))
    return wins / total, ties / total, losses / total


def battle_odds_exact(
    cycle: CycleLike, die_a: Iterable[AnimalLike], die_b: Iterable[AnimalLike]
) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (win, tie, loss) for ``a`` on a cycle when each die shows a uniformly random card."""
    return card_odds_exact(cycle_indices(cycle), die_a, die_b)


def battle_odds(
    cycle: CycleLike, die_a: Iterable[AnimalLike], die_b: Iterable[AnimalLike]
) -> tuple[float, float, float]:
    """:func:`battle_odds_exact` as floats (computed from exact counts, one division each)."""
    return card_odds(cycle_indices(cycle), die_a, die_b)
