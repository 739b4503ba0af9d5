"""Big Two as a Through the Zoo exhibit: one round from given hands (the exhibit interface,
``zooanalysis.games.exhibits`` and ``docs/adding-a-game.md``).

The Exhibit card: "Big Two, 2 / 3 / 4, CS/2Ah, There are no Jokers". Every player draws 13
cards from its own deck, so identical faces meet across seats; two plays of equal key (the
same pair from two decks, say) compare by the meta game's ``identical`` rule
(``EARLIER_WINS``: the play on the table stays on top; ``LATER_WINS``: the later beats it).
The round starts with the start player ("The start player for the game is the player with
the Start Player card"), who leads anything: with personal decks every player may hold a
3D, so the lowest-card opening is off (docs/rules-decisions.md, Big Two #9).

* :func:`play_exhibit`: the reference round (``engine.play_round``);
* :func:`exhibit_round`: the same round in numba, draw for draw (``kernel.play_round``).

``standing`` per seat, higher is better: ``100 * (players - place)`` for the k-th player
out, minus the cards left for the others; ``scores``: the cards left; ``diamonds``: the
Diamonds left in the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from zooanalysis.cards.bits import count_faces
from zooanalysis.cards.encoding import DIAMONDS
from zooanalysis.decisions import OPTION_BINS
from zooanalysis.games.big_two import engine
from zooanalysis.games.big_two.kernel import play_round, standing_of
from zooanalysis.games.big_two.plays import SUIT_LANE
from zooanalysis.games.big_two.rules import (
    BIG_RANK_OF,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_KINDS,
    R_SUITS,
    BigTwoSettings,
    rules_array,
)
from zooanalysis.games.big_two.strategies import strategy_code, strategy_params
from zooanalysis.games.exhibits import ExhibitResult
from zooanalysis.strategy_spec import PlayerSpec

_ZERO = np.uint64(0)
_ONE = np.uint64(1)


def exhibit_settings(players: int) -> BigTwoSettings:
    """Big Two for ``players`` with the Exhibit card's exceptions: no jokers (the deck never
    has any), the start player leads, one round ending at the first player out."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Big Two is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return BigTwoSettings(players=players, opening="start-player", round_end="first-out")


def kernel_rules(settings: BigTwoSettings) -> np.ndarray:
    """The rules array :func:`exhibit_round` reads."""
    return rules_array(settings)


def reference_strategies(players: Sequence[PlayerSpec]) -> list:
    """The engine's strategy objects for :func:`play_exhibit`."""
    return [engine.BuiltinStrategy(player) for player in players]


def strategy_arrays(players: Sequence[PlayerSpec]) -> tuple[np.ndarray, np.ndarray]:
    """``codes`` int64[seats] and ``params`` float64[seats, k] for :func:`exhibit_round`."""
    codes = np.array([strategy_code(p) for p in players], dtype=np.int64)
    params = np.array([strategy_params(p) for p in players], dtype=np.float64)
    return codes, params


def play_exhibit(
    settings: BigTwoSettings,
    hands: Sequence[Sequence[int]],
    start_seat: int,
    strategies: Sequence,
    stream: np.ndarray,
    identical: int,
) -> ExhibitResult:
    """One round of Big Two from ``hands`` (card codes; the copy is the owner, so faces are
    ``code & 127``), started by ``start_seat``; the reference engine."""
    faces = [[int(code) & 127 for code in hand] for hand in hands]
    record = engine.play_round(settings, faces, start_seat, strategies, stream, identical)
    diamonds = tuple(sum(1 for face in left if face >> 4 == DIAMONDS) for left in record.left)
    return ExhibitResult(record.standing(), tuple(record.cards_left), diamonds)


@njit(cache=True, nogil=True, error_model="numpy")
def _id_mask(faces, rules) -> np.uint64:
    """A face mask (``suit * 16 + rank``) as an id mask (``big rank * 4 + suit strength``)."""
    ids = _ZERO
    rest = np.uint64(faces)
    while rest != _ZERO:
        bit = rest & (~rest + _ONE)
        rest ^= bit
        face = count_faces(bit - _ONE)
        ids |= _ONE << np.uint64(BIG_RANK_OF[face & 15] * 4 + rules[R_SUITS + (face >> 4)])
    return ids


@njit(cache=True, nogil=True, error_model="numpy")
def _max_plays(cards) -> int:
    """``plays.max_plays`` compiled."""
    five = 1
    for k in range(5):
        five = five * (cards - k) // (k + 1) if cards >= 5 else 0
    return cards + 6 * 13 + 4 * 13 + five + 1


@njit(cache=True, nogil=True)
def exhibit_round(rules, hands, start_seat, codes, params, stream, identical, standing, scores,
                  diamonds):
    """One round from ``hands`` (uint64 face masks, changed in place), as
    :func:`play_exhibit`: writes ``standing``, ``scores`` (cards left) and ``diamonds``."""
    players = hands.shape[0]
    largest = np.int64(0)  # typed: passed on to _max_plays (plays.py)
    for seat in range(players):
        hands[seat] = _id_mask(hands[seat], rules)
        largest = max(largest, count_faces(hands[seat]))
    size = _max_plays(largest)
    masks = np.zeros(size, dtype=np.uint64)
    keys = np.zeros(size, dtype=np.int64)
    penalties = np.zeros(players, dtype=np.int64)
    traj = np.zeros(4, dtype=np.int64)
    out_order = np.zeros(players, dtype=np.int64)
    kind_counts = np.zeros((players, N_KINDS), dtype=np.int64)
    lead_counts = np.zeros(N_KINDS, dtype=np.int64)
    decision_options = np.zeros(OPTION_BINS, dtype=np.int64)  # not reported by the exhibit
    status = play_round(
        rules, hands, start_seat, codes, params, stream, identical, masks, keys, penalties,
        np.int64(0),
        traj, scores, out_order, kind_counts, lead_counts, np.zeros(players, dtype=np.int64),
        decision_options,
    )[4]
    if status != 0:
        raise RuntimeError("Big Two exhibit: a strategy chose an illegal play")
    standing_of(scores, out_order, players, standing)
    lane = SUIT_LANE[rules[R_SUITS + DIAMONDS]]
    for seat in range(players):
        diamonds[seat] = count_faces(hands[seat] & lane)
