"""The random number stream both engines share: SplitMix64 on a one-element uint64 array.

Every game gets its own stream, derived from its batch's seed and its index in the batch,
so a game is reproduced exactly by either engine, alone or inside any batch. The functions
are compiled with numba and are equally callable from plain Python (the reference engine).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


@njit(cache=True, nogil=True, error_model="numpy")
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64's output function: a bijective scramble of 64 bits."""
    z = np.uint64(x)
    z = (z ^ (z >> _S30)) * _MIX_1
    z = (z ^ (z >> _S27)) * _MIX_2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True, error_model="numpy")
def seed_game(state: np.ndarray, batch_seed: np.uint64, game_index: np.int64) -> None:
    """Set ``state`` to the start of game ``game_index``'s stream in the batch ``batch_seed``."""
    state[0] = mix64(np.uint64(batch_seed) ^ mix64(np.uint64(game_index) + _GOLDEN))


def game_stream(batch_seed: int, game_index: int) -> np.ndarray:
    """A fresh stream for game ``game_index`` of the batch seeded with ``batch_seed``."""
    state = np.empty(1, dtype=np.uint64)
    seed_game(state, np.uint64(batch_seed), np.int64(game_index))
    return state


@njit(cache=True, nogil=True, error_model="numpy")
def next_u64(state: np.ndarray) -> np.uint64:
    """Advance the stream and return 64 random bits."""
    state[0] += _GOLDEN
    return mix64(state[0])


@njit(cache=True, nogil=True, error_model="numpy")
def below(state: np.ndarray, n: np.int64) -> np.int64:
    """A uniformly random integer in ``[0, n)`` for ``1 <= n < 2**32`` (multiply-shift)."""
    high = next_u64(state) >> _S32
    return np.int64((high * np.uint64(n)) >> _S32)


@njit(cache=True, nogil=True, error_model="numpy")
def uniform(state: np.ndarray) -> float:
    """A uniformly random float in ``[0, 1)`` with 53 random bits."""
    return float(next_u64(state) >> _S11) * _TWO_POW_MINUS_53


@njit(cache=True, nogil=True, error_model="numpy")
def shuffle(values: np.ndarray, state: np.ndarray) -> None:
    """Shuffle ``values`` in place (Fisher-Yates, from the last position down)."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = below(state, i + 1)
        values[i], values[j] = values[j], values[i]
