"""After a block, ``dodger`` and ``coach`` name the leader: the partner with fewer cards,
but never one with no card while the other has one, since "a player with no card ... when
it is to lead cannot play and its team loses the round" (docs/rules-decisions.md, Hodge
Podge Dodgeball #4). Both engines play the same constructed rounds, and every other
decision stays as it was."""

from __future__ import annotations

import numpy as np
import pytest

from zooanalysis.cards.notation import parse_card, parse_cards
from zooanalysis.decisions import OPTION_BINS
from zooanalysis.games.dodgeball import engine, kernel
from zooanalysis.games.dodgeball.counts import SEAT_EVENTS
from zooanalysis.games.dodgeball.rules import BLOCK, CANNOT_FOLLOW, EMPTY_HAND, DodgeballSettings
from zooanalysis.games.dodgeball.strategies import (
    BLOCK_LEADER,
    N_MASKS,
    N_VIEW,
    SIZE_PARTNER,
    SIZE_SELF,
    STRATEGIES,
    dodger_decision,
    strategy_code,
    strategy_params,
)
from zooanalysis.rng import game_stream
from zooanalysis.strategy_spec import parse_lineup

NO_SETUP = DodgeballSettings(setup_bench=0, setup_swap=0, timeouts=0)
"""The tricks start from the dealt hands: no setup bench or pass, no timeout to call."""

BLOCKER_EMPTY = ("3C", "7H 2C", "5S 4C", "7D")
"""Every card of the first trick is forced: 3C, 7H, 5S, 7D. Seat 4 blocks for seat 2 with
its last card; seat 2 keeps 2C. Led by seat 2, 2C leaves seat 3 only 4C: it cannot play."""
PARTNER_EMPTY = ("3C", "7H", "5S 4C", "7D 2S")
"""Forced again (3C, 7H, 5S, 7D): seat 4 blocks and keeps 2S, seat 2 plays its last card.
Led by seat 4, 2S comes round to seat 1, which has no card left."""


def old_block_leader(view: np.ndarray) -> int:
    """The rule before the fix, kept here only to show what it did: the partner with fewer
    cards leads (the blocker on a tie), whether or not it has a card."""
    return 0 if view[SIZE_SELF] <= view[SIZE_PARTNER] else 1


def block_view(own_cards: int, partner_cards: int) -> tuple[np.ndarray, np.ndarray]:
    """The arrays of a blocker holding ``own_cards`` whose partner holds ``partner_cards``."""
    masks = np.zeros(N_MASKS, dtype=np.uint64)
    view = np.zeros(N_VIEW, dtype=np.int64)
    view[SIZE_SELF], view[SIZE_PARTNER] = own_cards, partner_cards
    return masks, view


def reference_round(hands, strategy: str) -> engine.RoundResult:
    """The reference engine's round from these hands (seat 1 leads)."""
    deal = engine.Deal(
        hands=[sorted(parse_cards(hand)) for hand in hands],
        benches=[[engine.ALLSTAR_CODES[0]], [engine.ALLSTAR_CODES[1]]],
    )
    return engine.play_round(NO_SETUP, deal, engine.lineup(f"{strategy}*4"), game_stream(1, 0))


def kernel_round(hands, strategy: str) -> np.ndarray:
    """The kernel's round from the same hands: its ``out`` array (``kernel.O_*``)."""
    players = parse_lineup(f"{strategy}*4", STRATEGIES)
    codes = np.array([strategy_code(p) for p in players], dtype=np.int64)
    params = np.array([strategy_params(p) for p in players], dtype=np.float64)
    cards = np.zeros(kernel.N_CARDS, dtype=np.uint64)
    for seat, hand in enumerate(hands):
        cards[kernel.C_HAND + seat] = sum(1 << (parse_card(c) & 127) for c in hand.split())
    nums = np.zeros(kernel.N_NUMS, dtype=np.int64)
    nums[kernel.S_BENCH_STARS:kernel.S_BENCH_STARS + 2] = 1
    out = np.zeros(kernel.N_OUT, dtype=np.int64)
    kernel.play_round(
        kernel.flat_rules(NO_SETUP), codes, params, game_stream(1, 0)[0], np.int64(0), cards,
        nums, np.full((4, 64), -1, dtype=np.int64),
        np.zeros((4, len(SEAT_EVENTS)), dtype=np.int64), out,
        np.zeros(kernel.N_MASKS, dtype=np.uint64), np.zeros(kernel.N_VIEW, dtype=np.int64),
        np.zeros(4, dtype=np.int64), np.zeros(8, dtype=np.uint64), np.zeros(8, dtype=np.int64),
        np.zeros((kernel.N_CARDS, kernel.N_EXTRA), dtype=np.int64),
        np.zeros(OPTION_BINS, dtype=np.int64),
    )
    assert out[kernel.O_STATUS] == kernel.OK
    return out


@pytest.mark.parametrize("strategy", ["dodger", "coach"])
@pytest.mark.parametrize(
    ("hands", "leader", "loser", "reason", "position"),
    [
        pytest.param(BLOCKER_EMPTY, 1, 2, CANNOT_FOLLOW, 1, id="blocker-empty"),
        pytest.param(PARTNER_EMPTY, 3, 0, EMPTY_HAND, 1, id="partner-empty"),
    ],
)
def test_the_blocker_never_names_an_empty_handed_leader(hands, leader, loser, reason, position,
                                                        strategy) -> None:
    """The old rule named the player with fewer cards, here the one with none, and its team
    lost at once; now the teammate with a card leads and the other team is the one that
    cannot play, in both engines alike."""
    result = reference_round(hands, strategy)
    assert result.outcomes[0] == BLOCK and result.blockers == [3]
    assert [event["leads"] for event in result.events if "leads" in event] == [leader]
    assert (result.loser_seat, result.reason, result.position) == (loser, reason, position)
    assert result.winner_team == 1, "the blocking team wins the round"

    sizes = {1: len(hands[1].split()) - 1, 3: len(hands[3].split()) - 1}  # after the trick
    named_before = old_block_leader(block_view(sizes[3], sizes[1])[1])
    assert sizes[3 if named_before == 0 else 1] == 0, "the old rule named the empty hand"

    out = kernel_round(hands, strategy)
    assert out[kernel.O_BLOCKS] == 1 and out[kernel.O_TRICKS] == 1
    assert (out[kernel.O_LOSER], out[kernel.O_REASON], out[kernel.O_POSITION]) == (
        loser, reason, position)


@pytest.mark.parametrize("strategy", ["dodger", "coach"])
def test_the_leader_after_a_block_changes_only_where_a_hand_is_empty(strategy) -> None:
    """Over every pair of hand sizes (up to 15 cards each, more than a hand can hold): the
    same choice as the old rule (the one with fewer cards, the blocker on a tie) whenever
    both or neither hold a card; where exactly one holds none, the one with cards."""
    player = parse_lineup(strategy, STRATEGIES)[0]
    code, params = strategy_code(player), strategy_params(player)
    for own in range(16):
        for partner in range(16):
            masks, view = block_view(own, partner)
            choice, second = dodger_decision(code, BLOCK_LEADER, params, masks, view)
            if (own == 0) != (partner == 0):
                assert choice == (1 if own == 0 else 0), (own, partner)
                assert choice != old_block_leader(view)
            else:
                assert choice == old_block_leader(view), (own, partner)
            assert second == -1
