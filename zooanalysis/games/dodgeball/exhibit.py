"""Hodge Podge Dodgeball as a Through the Zoo exhibit: one round from the players' hands.

The Exhibit card: "Hodge Podge Dodgeball, T (4-player teams), mnf/nt/Al, Use 2 Jokers still
for the bench". So exactly 4 players in two teams (partners diagonal, as in the game), aces
low, must-not-follow, and each team's bench starts with its All-Star (a Joker); the hands
are the 13 cards each player drew from their own deck (so two players may hold the same
face: the cards are told apart by their copy, the owner's seat). One round is
:func:`engine.play_round` (setup bench and pass, timeouts, tricks until a player cannot
play); the team that did not lose it wins the exhibit. The interface is
``zooanalysis.games.exhibits`` (and ``docs/adding-a-game.md``).

Identical cards never meet in one Dodgeball trick (must-not-follow: every card of a trick is
of another suit), so ``identical`` changes nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from zooanalysis.cards.bits import EMPTY, SUIT_FACES, count_faces, lowest_face
from zooanalysis.cards.encoding import DIAMONDS, FACE_BITS
from zooanalysis.decisions import OPTION_BINS
from zooanalysis.games.dodgeball import engine, kernel
from zooanalysis.games.dodgeball.counts import SEAT_EVENTS
from zooanalysis.games.dodgeball.rules import SEATS, DodgeballSettings, team_of
from zooanalysis.games.dodgeball.strategies import MAX_PARAMS, strategy_code, strategy_params
from zooanalysis.games.exhibits import ExhibitResult
from zooanalysis.strategy_spec import PlayerSpec

_ONE = np.uint64(1)


def exhibit_settings(players: int) -> DodgeballSettings:
    """The rulebook's 4-player Dodgeball (aces low, All-Stars on the benches); ``ValueError``
    for any other player count ("T": the card is for 4 players in teams)."""
    if players != SEATS:
        raise ValueError(
            f"Hodge Podge Dodgeball's Exhibit card is for 4 players in teams (T), not {players}"
        )
    return DodgeballSettings(players=SEATS)


def kernel_rules(settings: DodgeballSettings) -> np.ndarray:
    """The flat rules ``exhibit_round`` reads."""
    return kernel.flat_rules(settings)


def reference_strategies(players: Sequence[PlayerSpec]) -> list[engine.BuiltinStrategy]:
    """The reference engine's strategy objects for these players."""
    return [engine.BuiltinStrategy(player) for player in players]


def strategy_arrays(players: Sequence[PlayerSpec]) -> tuple[np.ndarray, np.ndarray]:
    """(codes int64[seats], params float64[seats, k]) for :func:`exhibit_round`."""
    codes = np.array([strategy_code(player) for player in players], dtype=np.int64)
    params = np.zeros((len(players), MAX_PARAMS), dtype=np.float64)
    for seat, player in enumerate(players):
        params[seat] = strategy_params(player)
    return codes, params


def play_exhibit(
    settings: DodgeballSettings,
    hands: list[list[int]],
    start_seat: int,
    strategies: Sequence[engine.Strategy],
    stream: np.ndarray,
    identical: int = 0,
) -> ExhibitResult:
    """One round from ``hands`` (codes; copy = owner) starting at ``start_seat``: standing
    and scores 1 for the winning team's seats, 0 for the others; diamonds: the Diamonds
    left in each hand when the round ended."""
    benches: list[list[int]] = [[], []]
    if settings.allstars:
        benches = [[engine.ALLSTAR_CODES[0]], [engine.ALLSTAR_CODES[1]]]
    deal = engine.Deal(hands=[sorted(int(code) for code in hand) for hand in hands],
                       benches=benches)
    result = engine.play_round(settings, deal, strategies, stream, start_seat)
    won = tuple(int(team_of(seat) == result.winner_team) for seat in range(SEATS))
    diamonds = tuple(
        sum(1 for code in hand if not engine.is_allstar(code)
            and (code & FACE_BITS) >> 4 == DIAMONDS)
        for hand in result.final_hands
    )
    return ExhibitResult(standing=won, scores=won, diamonds=diamonds)


@njit(cache=True, nogil=True, error_model="numpy")
def exhibit_round(rules, hands, start_seat, codes, params, stream, identical, standing, scores,
                  diamonds):
    """:func:`play_exhibit` on face masks, draw for draw (``kernel.play_round``)."""
    cards = np.zeros(kernel.N_CARDS, dtype=np.uint64)
    nums = np.zeros(kernel.N_NUMS, dtype=np.int64)
    under = np.full((SEATS, 64), -1, dtype=np.int64)
    seat_events = np.zeros((SEATS, len(SEAT_EVENTS)), dtype=np.int64)
    out = np.zeros(kernel.N_OUT, dtype=np.int64)
    masks = np.zeros(kernel.N_MASKS, dtype=np.uint64)
    view = np.zeros(kernel.N_VIEW, dtype=np.int64)
    trick = np.zeros(SEATS, dtype=np.int64)
    spare = np.zeros(8, dtype=np.uint64)
    spare_nums = np.zeros(8, dtype=np.int64)
    extra = np.zeros((kernel.N_CARDS, kernel.N_EXTRA), dtype=np.int64)
    decision_options = np.zeros(OPTION_BINS, dtype=np.int64)  # not reported by the exhibit
    for seat in range(SEATS):
        cards[kernel.C_HAND + seat] = hands[seat]
    for team in range(2):
        nums[kernel.S_BENCH_STARS + team] = rules[kernel.R_ALLSTARS]
    stream[0] = kernel.play_round(
        rules, codes, params, stream[0], start_seat, cards, nums, under, seat_events, out, masks,
        view, trick, spare, spare_nums, extra, decision_options,
    )
    if out[kernel.O_STATUS] != kernel.OK:
        raise RuntimeError("Dodgeball exhibit: a strategy made an illegal choice")
    winner = 1 - (out[kernel.O_LOSER] & 1)
    for seat in range(SEATS):
        won = 1 if (seat & 1) == winner else 0
        standing[seat] = won
        scores[seat] = won
        place = kernel.C_HAND + seat
        lane = cards[place] & SUIT_FACES[DIAMONDS]
        count = count_faces(lane)
        while lane != EMPTY:
            count += extra[place, lowest_face(lane)]
            lane &= lane - _ONE
        diamonds[seat] = count
