"""A tiny exhibit for Through the Zoo's tests: "Heart Count", playable by 2-4 players.

Every seat shows its hand; its standing is its number of Hearts plus, for a ``random`` seat,
one draw ``below(2)`` (so the exhibit uses the shared stream), with ties between equal
standings; scores are the standings; diamonds are the Diamonds in hand. It has a reference
and a kernel like a real exhibit, so Through the Zoo's engines can be compared for any
player count without Hearts or Big Two.
"""

from __future__ import annotations

import sys
from types import ModuleType

import numpy as np
from numba import njit

from zooanalysis.cards.bits import SUIT_FACES, count_faces
from zooanalysis.cards.encoding import DIAMONDS, FACE_BITS, HEARTS
from zooanalysis.games.exhibits import ExhibitResult
from zooanalysis.rng import below
from zooanalysis.strategy_spec import StrategyInfo

STRATEGIES = {
    "random": StrategyInfo("random", "Adds below(2) to its Hearts."),
    "plain": StrategyInfo("plain", "Counts its Hearts."),
}


def exhibit_settings(players: int) -> dict:
    """No settings but the player count."""
    return {"players": players}


def kernel_rules(settings: dict) -> np.ndarray:
    return np.array([settings["players"]], dtype=np.int64)


class _Strategy:
    def __init__(self, code: int) -> None:
        self.code = code


def reference_strategies(players) -> list:
    return [_Strategy(0 if p.strategy == "random" else 1) for p in players]


def strategy_arrays(players) -> tuple[np.ndarray, np.ndarray]:
    codes = np.array([0 if p.strategy == "random" else 1 for p in players], dtype=np.int64)
    return codes, np.zeros((len(players), 1), dtype=np.float64)


def play_exhibit(settings, hands, start_seat, strategies, stream, identical=0) -> ExhibitResult:
    standing, diamonds = [], []
    players = len(hands)
    values = [0] * players
    for offset in range(players):
        seat = (start_seat + offset) % players
        hearts = sum(1 for code in hands[seat] if (code & FACE_BITS) >> 4 == HEARTS)
        extra = int(below(stream, 2)) if strategies[seat].code == 0 else 0
        values[seat] = hearts + extra
    for seat in range(players):
        standing.append(values[seat])
        diamonds.append(sum(1 for code in hands[seat] if (code & FACE_BITS) >> 4 == DIAMONDS))
    return ExhibitResult(tuple(standing), tuple(standing), tuple(diamonds))


@njit(cache=True, nogil=True)
def exhibit_round(rules, hands, start_seat, codes, params, stream, identical, standing, scores,
                  diamonds):
    players = rules[0]
    for offset in range(players):
        seat = (start_seat + offset) % players
        value = count_faces(hands[seat] & SUIT_FACES[HEARTS])
        if codes[seat] == 0:
            value += below(stream, np.int64(2))  # typed: below compiles once
        standing[seat] = value
        scores[seat] = value
        diamonds[seat] = count_faces(hands[seat] & SUIT_FACES[DIAMONDS])


def install(monkeypatch) -> None:
    """Register "heart-count" as an exhibit game for one test (``monkeypatch`` fixture)."""
    from zooanalysis import games

    module = sys.modules[__name__]

    class _Game:
        name = "heart-count"
        strategies = STRATEGIES
        exhibit = "exhibit_helpers"

    fake = ModuleType("heart_count_game")
    fake.GAME = _Game()
    monkeypatch.setitem(sys.modules, "heart_count_game", fake)
    monkeypatch.setitem(sys.modules, "exhibit_helpers", module)
    monkeypatch.setitem(games._BUILT_IN, "heart-count", "heart_count_game:GAME")
