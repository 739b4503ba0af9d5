"""The kernel's per-card tables give exactly what the direct computations give.

The kernel builds each Zoo Card's table once (``strategies.card_tables``: duel masks, and
the winner sets of every set of shown animals) and decides from it (``discard_at``,
``subset_at``, ``keep_at``, ``people_values``); the reference engine decides with the direct
evaluations (``duel``, ``pair_gain``, ``chance_to_get``, ``mark_winners``). Both must agree
pair by pair and, for the decisions, float by float (the same choices on the same deals, so
every statistic stays the same). Cards here are random rows, special rules included, with
named animals the rules never deal (X = Y, X off the card) to cover every branch.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from zooanalysis.games.lucky_lions import strategies as st
from zooanalysis.games.lucky_lions.flat import (
    CARD_FIELDS,
    CYCLE,
    DOLPHIN,
    N_TYPES,
    NAMED_X,
    NAMED_Y,
    PEOPLE,
    POINTS,
    SIZE,
    SPECIAL,
    duel,
    mark_winners,
)
from zooanalysis.rng import seed_game

N_ANIMALS = 5
WILD_DOLPHIN = DOLPHIN + N_ANIMALS


def random_rows(count: int, seed: int) -> np.ndarray:
    """``count`` random Zoo Card rows: cycles of 2-5 distinct animals, every special type
    (or none), named animals anywhere in -1..4."""
    rng = np.random.default_rng(seed)
    rows = np.full((count, CARD_FIELDS), -1, dtype=np.int64)
    for i in range(count):
        n = int(rng.integers(2, 6))
        rows[i, SIZE] = n
        rows[i, CYCLE : CYCLE + n] = rng.permutation(N_ANIMALS)[:n]
        rows[i, POINTS] = int(rng.integers(1, 4))
        rows[i, PEOPLE] = int(rng.integers(0, 2))
        rows[i, SPECIAL] = int(rng.integers(-1, 6))
        rows[i, NAMED_X] = int(rng.integers(-1, N_ANIMALS))
        rows[i, NAMED_Y] = int(rng.integers(-1, N_ANIMALS))
    return rows


ROWS = random_rows(400, 11)


def tables_of(rows: np.ndarray, wild: bool) -> np.ndarray:
    """Every row's card table, winner sets included."""
    tables = np.zeros((rows.shape[0], st.TABLE_WIDTH), dtype=np.int64)
    for i in range(rows.shape[0]):
        st.card_tables(rows, i, wild, True, tables)
    return tables


@pytest.mark.parametrize("wild", [False, True])
def test_duel_masks_are_the_duels(wild: bool) -> None:
    """Every pair of types on every card: the raw masks hold :func:`duel` +1 / -1, the win
    and tie masks the same without the pairs a wild dolphin voids."""
    tables = tables_of(ROWS, wild)
    for i, row in enumerate(ROWS):
        for a in range(N_TYPES):
            for b in range(N_TYPES):
                result = duel(row, a, b, wild)
                beats = bool((tables[i, st.TABLE_BEATS + a] >> b) & 1)
                loses = bool((tables[i, st.TABLE_LOSES + a] >> b) & 1)
                assert (beats, loses) == (result == 1, result == -1), (row, a, b)
                void = wild and WILD_DOLPHIN in (a, b)
                win = bool((tables[i, st.TABLE_WIN + a] >> b) & 1)
                tie = bool((tables[i, st.TABLE_TIE + a] >> b) & 1)
                assert (win, tie) == (result == 1 and not void, result == 0 and not void)


def test_a_hand_computed_card() -> None:
    """lion -> fox -> panda: by the distance rule fox beats lion (it is one step ahead), panda
    beats fox, lion beats panda; any animal on the cycle beats one off it; two animals off
    the cycle tie."""
    row = np.full((1, CARD_FIELDS), -1, dtype=np.int64)
    row[0, SIZE] = 3
    row[0, CYCLE : CYCLE + 3] = [0, 1, 2]
    row[0, POINTS] = 1
    row[0, PEOPLE] = 0
    tables = tables_of(row, False)
    lion, fox, panda, flamingo, dolphin = range(N_ANIMALS)

    def beats(a: int) -> set[int]:
        mask = tables[0, st.TABLE_WIN + a]
        return {b for b in range(N_ANIMALS) if (mask >> b) & 1}

    assert beats(fox) == {lion, flamingo, dolphin}
    assert beats(panda) == {fox, flamingo, dolphin}
    assert beats(lion) == {panda, flamingo, dolphin}
    assert beats(flamingo) == set()
    assert (tables[0, st.TABLE_TIE + flamingo] >> dolphin) & 1


def test_winner_sets_are_mark_winners() -> None:
    """For every card and every way up to four rollers show animals, the winners are the
    rollers whose animal is in the table's winner set of the animals shown."""
    tables = tables_of(ROWS[:120], False)
    winners = np.zeros(4, dtype=np.int64)
    for i, row in enumerate(ROWS[:120]):
        for count in (2, 3, 4):
            for shown in itertools.product(range(N_ANIMALS), repeat=count):
                animals = np.array(shown, dtype=np.int64)
                mark_winners(row, animals, count, winners)
                mask = tables[i, st.TABLE_SETS + sum(1 << a for a in set(shown))]
                expected = [int((mask >> a) & 1) for a in shown]
                assert list(winners[:count]) == expected, (row, shown)


def direct_chance_among(row, mixes, rollers, me) -> float:
    """The chance that roller ``me`` wins, by enumerating every combination of animals with
    ``mark_winners`` (roller 0's fastest, weights multiplied in roller order)."""
    count = len(rollers)
    animal_mix = np.zeros((count, N_ANIMALS))
    for r, seat in enumerate(rollers):
        for t in range(N_TYPES):
            animal_mix[r, t % N_ANIMALS] += mixes[seat, t]
    options = [[a for a in range(N_ANIMALS) if animal_mix[r, a] != 0.0] for r in range(count)]
    winners = np.zeros(count, dtype=np.int64)
    chance = 0.0
    for combo in itertools.product(*reversed(options)):
        shown = list(reversed(combo))
        weight = 1.0
        for r in range(count):
            weight *= animal_mix[r, shown[r]]
        mark_winners(row, np.array(shown, dtype=np.int64), count, winners)
        if winners[me] and weight != 0.0:
            chance += weight
    return chance


def random_mixes(rng: np.random.Generator, players: int) -> np.ndarray:
    """Each player's chances per type, some types impossible."""
    mixes = rng.random((players, N_TYPES)) * (rng.random((players, N_TYPES)) < 0.6)
    mixes[:, 0] += 0.01
    return mixes / mixes.sum(axis=1, keepdims=True)


def test_chance_among_winners_is_the_enumeration() -> None:
    """The odometer over the table's winner sets gives the direct enumeration's float,
    exactly."""
    rng = np.random.default_rng(5)
    work = st.new_strategy_workspace()
    tables = tables_of(ROWS[:60], False)
    for i, row in enumerate(ROWS[:60]):
        players = int(rng.integers(3, 6))
        mixes = random_mixes(rng, players)
        rollers = np.array(rng.permutation(players), dtype=np.int64)
        count = int(rng.integers(2, players + 1))
        me = int(rng.integers(0, count))
        expected = direct_chance_among(row, mixes, list(rollers[:count]), me)
        assert st.chance_among(tables, i, mixes, rollers, count, me, work) == expected
        assert st.chance_among_winners(row, mixes, rollers, count, me, work) == expected


@pytest.mark.parametrize("wild", [False, True])
def test_payoff_is_pair_gain(wild: bool) -> None:
    """The equilibrium chooser's payoff from the table is :func:`pair_gain`, for every tie
    situation."""
    tables = tables_of(ROWS[:80], wild)
    payoff = np.zeros((N_TYPES, N_TYPES))
    for i, row in enumerate(ROWS[:80]):
        for active, mine, theirs in itertools.product([False, True], repeat=3):
            st.fill_payoff(tables, i, wild, active, mine, theirs, payoff)
            for a in range(N_TYPES):
                for b in range(N_TYPES):
                    assert payoff[a, b] == st.pair_gain(row, a, b, wild, active, mine, theirs)


def random_view(rng: np.random.Generator, players: int):
    """A plausible view: my die (counts per type), sizes, seen, unseen."""
    my_die = rng.integers(0, 3, N_TYPES).astype(np.int64)
    my_die[int(rng.integers(0, N_ANIMALS))] += 1
    sizes = rng.integers(1, 8, players).astype(np.int64)
    seen = (rng.random((players, N_TYPES)) < 0.2).astype(np.int64)
    unseen = rng.integers(0, 5, N_TYPES).astype(np.int64)
    return my_die, sizes, seen, unseen


def stream(seed: int) -> np.ndarray:
    """A game stream of the shared generator."""
    out = np.empty(1, dtype=np.uint64)
    seed_game(out, np.uint64(seed), 0)
    return out


@pytest.mark.parametrize("wild", [False, True])
def test_kernel_decisions_are_the_direct_ones(wild: bool) -> None:
    """``subset_at``, ``keep_at`` and ``type_values_at`` from the tables choose (and draw)
    exactly as ``choose_subset``, ``choose_keep`` and ``type_values`` on the card row."""
    rng = np.random.default_rng(17 + wild)
    tables = tables_of(ROWS, wild)
    work = st.new_strategy_workspace()
    values = np.zeros(N_TYPES)
    expected_values = np.zeros(N_TYPES)
    for i, row in enumerate(ROWS[:150]):
        players = int(rng.integers(2, 6))
        my_die, sizes, seen, unseen = random_view(rng, players)
        count = 2 if players == 2 or rng.random() < 0.6 else int(rng.integers(3, players + 1))
        battlers = np.array(rng.permutation(players), dtype=np.int64)
        me = int(battlers[int(rng.integers(0, count))])
        active = int(battlers[0])
        sizes[me] = my_die.sum()
        mixes = random_mixes(rng, players)
        st.type_values(row, me, battlers, count, active, mixes.copy(), sizes, wild,
                      expected_values, work)
        st.type_values_at(tables, i, me, battlers, count, active, mixes, sizes, values, work)
        np.testing.assert_array_equal(values, expected_values)
        k = int(rng.integers(1, max(int(my_die.sum()), 2)))
        for code in (st.GREEDY, st.EQUILIBRIUM):
            a_stream, b_stream = stream(i), stream(i)
            expected = np.zeros(N_TYPES, dtype=np.int64)
            got = np.zeros(N_TYPES, dtype=np.int64)
            st.choose_subset(code, row, me, battlers, count, active, k, my_die, sizes, seen,
                            unseen, wild, a_stream, expected, st.new_strategy_workspace())
            st.subset_at(code, tables, i, me, battlers, count, active, k, my_die, sizes, seen,
                        unseen, wild, b_stream, got, work)
            np.testing.assert_array_equal(got, expected)
            assert a_stream[0] == b_stream[0]
        first, second = (int(t) for t in rng.integers(0, N_TYPES, 2))
        assert st.keep_at(
            tables, i, me, battlers, count, active, first, second, my_die, sizes, seen,
            unseen, work,
        ) == st.choose_keep(
            st.GREEDY, row, me, battlers, count, active, first, second, my_die, sizes, seen,
            unseen, wild, stream(0), st.new_strategy_workspace(),
        )


@pytest.mark.parametrize("wild", [False, True])
def test_discard_from_tables_is_the_direct_discard(wild: bool) -> None:
    """``discard_at`` picks the type ``choose_discard`` picks, market by market."""
    rng = np.random.default_rng(23 + wild)
    tables = tables_of(ROWS, wild)
    scratch = np.zeros(2 * N_TYPES)
    for trial in range(300):
        market = rng.choice(ROWS.shape[0], int(rng.integers(0, 7)), replace=False)
        my_die, _, _, unseen = random_view(rng, 2)
        if trial % 10 == 0:
            unseen[:] = 0  # nothing unseen: the uniform weights
        expected = st.choose_discard(st.GREEDY, my_die, ROWS[market], len(market), unseen, wild,
                                    stream(0), np.zeros(2 * N_TYPES))
        got = st.discard_at(my_die, market.astype(np.int64), len(market), ROWS, tables, unseen,
                           scratch)
        assert got == expected


def test_people_values_from_tables_are_everyone_rolling() -> None:
    """A people card's value is its points times my chance to be among the winners when
    everyone rolls (me first, then the others in seat order)."""
    rng = np.random.default_rng(31)
    tables = tables_of(ROWS, False)
    work = st.new_strategy_workspace()
    for _ in range(40):
        players = int(rng.integers(3, 6))
        me = int(rng.integers(0, players))
        mixes = random_mixes(rng, players)
        market = rng.choice(ROWS.shape[0], 4, replace=False).astype(np.int64)
        out = np.full(4, -1.0)
        st.people_values(me, market, 4, ROWS, tables, mixes, np.ones(players, dtype=np.int64),
                        work, out)
        order = [me] + [q for q in range(players) if q != me]
        for c, card_i in enumerate(market):
            if ROWS[card_i, PEOPLE] == 1:
                chance = direct_chance_among(ROWS[card_i], mixes, order, 0)
                assert out[c] == ROWS[card_i, POINTS] * chance
            else:
                assert out[c] == -1.0


@pytest.mark.parametrize(("wild", "with_sets"), [(False, False), (True, True), (True, False)])
def test_cached_tables_are_the_built_ones(wild: bool, with_sets: bool) -> None:
    """``card_tables_cached`` gives every card the table ``card_tables`` builds, whether it
    builds it, copies it from the cache (cards with the same cycle and special repeat), or
    replaces another card's entry in its slot (more cards than slots)."""
    rows = np.concatenate([random_rows(3 * st.TABLE_CACHE_SLOTS, 23), ROWS, ROWS])
    width = st.TABLE_WIDTH if with_sets else st.TABLE_SETS
    expected = np.zeros((len(rows), st.TABLE_WIDTH), dtype=np.int64)
    got = np.zeros((len(rows), st.TABLE_WIDTH), dtype=np.int64)
    keys, cached = st.new_table_cache()
    for i in range(len(rows)):
        st.card_tables(rows, i, wild, with_sets, expected)
        st.card_tables_cached(rows, i, wild, with_sets, got, keys, cached)
    np.testing.assert_array_equal(got[:, :width], expected[:, :width])
    assert (keys != 0).sum() > st.TABLE_CACHE_SLOTS // 2  # the cache was used, and filled
