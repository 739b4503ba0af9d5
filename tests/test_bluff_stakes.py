"""The ``stakes`` strategy: hand-computed stakes, claim reading and its mixed bluffing.

Its engine agreement is in test_bluff_engines_agree.py and its no-peeking checks in
test_bluff_no_peeking.py; here its pieces are checked against numbers worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from zooanalysis.games.bluff.cards import N_CARD_TYPES, N_KINDS, WILD_1
from zooanalysis.games.bluff.policy_math import (
    EXPECTED,
    MODE_ALL_EQUAL,
    MODE_COUNT_ONE,
    MODE_PLAIN,
    add_claim_evidence,
    new_workspace,
    prepare_beliefs,
    prepare_spreads,
)
from zooanalysis.games.bluff.strategies import (
    MOVE_DOUBT,
    STAKES,
    STRATEGIES,
    TABLE_CLAIMANT,
    TABLE_EVIDENCE,
    TABLE_OTHERS,
    TABLE_OWN,
    TABLE_TARGET,
    choose_claim,
    choose_move,
    new_table,
    stakes_bluff_chance,
    stakes_doubts,
    strategy_params,
)
from zooanalysis.strategy_spec import parse_player

MOUSE_1, ELEPHANT_1 = 0, 12
DEFAULTS = strategy_params(parse_player("stakes", STRATEGIES))


def table(own=0, claimant=0, others=0, target=30, evidence=(0,) * N_KINDS) -> np.ndarray:
    """A public table with these facts."""
    result = new_table()
    result[TABLE_OWN], result[TABLE_CLAIMANT] = own, claimant
    result[TABLE_OTHERS], result[TABLE_TARGET] = others, target
    result[TABLE_EVIDENCE : TABLE_EVIDENCE + N_KINDS] = evidence
    return result


def test_claim_evidence_shifts_the_claimed_kind_by_hand_computed_amounts():
    """Unseen: two one-mouse cards and eight one-elephant cards (T = 10). A card placed with a
    mouse claim, read with weight 3, is a mouse with chance 3*2 / (3*2 + 8) = 3/7 instead of
    2/10: each such card adds 3/7 - 1/5 = 8/35 expected mice, in plain and "count 1" mode."""
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen[MOUSE_1], unseen[ELEPHANT_1] = 2, 8
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    work = new_workspace()
    total = prepare_beliefs(known, unseen, work)
    prepare_spreads(3, total, work, EXPECTED)
    before = work.copy()
    evidence = np.array([0, 2, 0, 0, 0, 0], dtype=np.int64)  # from index 1: 2 mouse claims
    add_claim_evidence(evidence, 1, 3.0, unseen, total, work, EXPECTED)
    for mode in (MODE_PLAIN, MODE_COUNT_ONE):
        assert work[EXPECTED + mode, 0] == pytest.approx(3 * 0.2 + 2 * 8 / 35)
    changed = np.argwhere(work != before)
    assert sorted(map(tuple, changed)) == [
        (EXPECTED + MODE_PLAIN, 0),
        (EXPECTED + MODE_COUNT_ONE, 0),
    ]
    # weight 1 reads nothing; the kinds counted alike ("equal", "both") never move
    again = before.copy()
    add_claim_evidence(evidence, 1, 1.0, unseen, total, again, EXPECTED)
    np.testing.assert_array_equal(again, before)
    assert work[EXPECTED + MODE_ALL_EQUAL, 0] == before[EXPECTED + MODE_ALL_EQUAL, 0]


def test_wild_cards_count_as_evidence_for_every_kind():
    """One wild 1 and one elephant unseen: a fox claim's card is the wild with 3/(3+1)."""
    unseen = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen[WILD_1], unseen[ELEPHANT_1] = 1, 1
    work = new_workspace()
    total = prepare_beliefs(np.zeros(N_CARD_TYPES, dtype=np.int64), unseen, work)
    prepare_spreads(1, total, work, EXPECTED)
    add_claim_evidence(np.array([0, 0, 1, 0, 0]), 0, 3.0, unseen, total, work, EXPECTED)
    assert work[EXPECTED + MODE_PLAIN, 2] == pytest.approx(0.75)


# stakes_doubts(params, table, pile, believed, raise_chance) with rival 0.3, caution 0.5,
# cliff 2, a pile of 4, a claim believed true with 1/2 and a best raise true with 1/2:
# raising costs 0.5 * 0.5 * 5 = 1.25 weighed points (3.75 when 5 points would end the game)
@pytest.mark.parametrize(
    ("facts", "doubts", "why"),
    [
        (table(), False, "doubting: 4 * (0.5 * 0.3 - 0.5) = -1.4 < -1.25"),
        (table(own=27), False, "own points reach 30: 4 * (0.15 - 1.5) = -5.4 < -3.75"),
        (table(claimant=26), True, "claimant reaches 30, it leads: 4 * (0.5 * 2.3 - 0.5) = 2.6"),
        (table(own=5, claimant=26, others=3), False, "ends the game behind: 4 * (-0.85 - 0.5)"),
        (table(own=3, claimant=26, others=3), True, "a tie for the fewest counts as leading"),
    ],
)
def test_stakes_doubt_weighs_pile_points_and_the_end_of_the_game(facts, doubts, why):
    assert DEFAULTS[1:4].tolist() == [0.3, 0.5, 2.0]
    assert stakes_doubts(DEFAULTS, facts, 4, 0.5, 0.5) == doubts, why


def test_stakes_bluff_chance_falls_with_the_stake():
    """bluff 0.3 at no stake, 0 at 15 weighed pile points (bluff_pile)."""
    assert DEFAULTS[4:6].tolist() == [0.3, 15.0]
    assert stakes_bluff_chance(DEFAULTS, table(), 0) == pytest.approx(0.3)
    assert stakes_bluff_chance(DEFAULTS, table(), 5) == pytest.approx(0.2)
    assert stakes_bluff_chance(DEFAULTS, table(own=26), 5) == 0.0  # 5 * 3 = 15 at stake
    assert stakes_bluff_chance(DEFAULTS, table(), 40) == 0.0


def _claim_situation():
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    known[ELEPHANT_1] = 1
    unseen = np.full(N_CARD_TYPES, 4, dtype=np.int64)
    return known, unseen


def test_bluffing_is_mixed_with_one_random_draw_per_claim():
    """Over many streams the claim is one higher than believed with the computed chance
    (0.2 at a pile of 5), and every claim advances the stream by exactly one draw."""
    known, unseen = _claim_situation()
    golden = np.uint64(0x9E3779B97F4A7C15)
    counts = {}
    trials = 4000
    for seed in range(trials):
        rng = np.array([seed * 7919], dtype=np.uint64)
        count, kind = choose_claim(
            STAKES, DEFAULTS, known, unseen, 5, 2, 1, 30, rng, new_workspace(), table()
        )
        assert int(rng[0]) == int(np.uint64(seed * 7919) + golden)
        counts[(int(count), int(kind))] = counts.get((int(count), int(kind)), 0) + 1
    assert len(counts) == 2
    (low, _), (high, high_n) = sorted(counts.items())
    assert high == (low[0] + 1, low[1])
    share = high_n / trials
    assert abs(share - 0.2) < 4 * math.sqrt(0.2 * 0.8 / trials)


def test_reading_claims_can_make_a_claim_credible():
    """Three mice claimed on a pile of three cards, all placed from opponents' hands with
    mouse claims: read at weight 1 the claim is doubted, read at weight 20 it is believed."""
    hand = np.array([ELEPHANT_1] * 5, dtype=np.int64)
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    unseen = np.array([5] * 15 + [6, 6, 6, 6, 8], dtype=np.int64)
    unseen[ELEPHANT_1] -= 5
    facts = table(evidence=(3, 0, 0, 0, 0))
    decisions = {}
    for read in (1.0, 20.0):
        params = DEFAULTS.copy()
        params[0] = read
        rng = np.array([1], dtype=np.uint64)
        decisions[read] = int(
            choose_move(
                STAKES, params, hand, 5, known, unseen, 3, 40, 3, 0, 30, rng, new_workspace(),
                facts,
            )[0]
        )
    assert decisions[1.0] == MOVE_DOUBT
    assert decisions[20.0] != MOVE_DOUBT
