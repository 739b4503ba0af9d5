"""Hands for kernels, with several copies of a face and jokers: a few ``uint64`` words.

A hand is a ``uint64`` array of ``hand_words(copies) = copies + 1`` words: word ``c`` is
the face mask (``bits.py``) of the cards of copy ``c``, and the last word holds the jokers,
bit ``j`` for joker ``j`` (code ``j * 128 + 64``). A one-deck game without jokers may just
keep one face mask per player and skip this module; with copies (Chai Tea Jazz's double
deck, Through the Zoo's personal decks) or jokers, a player's hand is one row of a
``(players, words)`` array, updated in place (no allocation per decision).

Legal cards with copies: compute the allowed faces once from the union of the copies
(:func:`hand_faces`, ``follow.legal_faces``), then count and pick with
:func:`count_playable` / :func:`nth_playable`, which number the playable cards in
increasing code order (copy 0's faces, joker 0, copy 1's faces, joker 1, ...). A uniformly
random legal card is ``nth_playable(hand, faces, jokers_ok, below(stream, count))``; the
reference engine gets the same card as ``sorted(legal codes)[k]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zooanalysis.cards.bits import EMPTY, count_faces, lowest_face, nth_face
from zooanalysis.cards.encoding import COPY_SHIFT, COPY_STRIDE, FACE_BITS, JOKER, MAX_COPIES

_ONE = np.uint64(1)


def hand_words(copies: int) -> int:
    """Words in a hand row for a deck with ``copies`` copies of each face (plus jokers)."""
    return copies + 1


def new_hands(players: int, copies: int = 1) -> np.ndarray:
    """Empty hands: a ``(players, copies + 1)`` uint64 array."""
    return np.zeros((players, hand_words(copies)), dtype=np.uint64)


def hand_from_codes(codes, copies: int = 1) -> np.ndarray:
    """A hand row holding the card codes ``codes`` (plain Python, e.g. for tests)."""
    hand = np.zeros(hand_words(copies), dtype=np.uint64)
    for code in codes:
        hand_add(hand, int(code))
    return hand


@njit(cache=True, nogil=True, error_model="numpy")
def hand_add(hand, code: int) -> None:
    """Put the card ``code`` into ``hand``."""
    face, copy = code & FACE_BITS, code >> COPY_SHIFT
    if face == JOKER:
        hand[hand.shape[0] - 1] |= _ONE << np.uint64(copy)
    else:
        hand[copy] |= _ONE << np.uint64(face)


@njit(cache=True, nogil=True, error_model="numpy")
def hand_remove(hand, code: int) -> None:
    """Take the card ``code`` out of ``hand`` (nothing happens if it is not there)."""
    face, copy = code & FACE_BITS, code >> COPY_SHIFT
    if face == JOKER:
        hand[hand.shape[0] - 1] &= ~(_ONE << np.uint64(copy))
    else:
        hand[copy] &= ~(_ONE << np.uint64(face))


@njit(cache=True, nogil=True, error_model="numpy")
def hand_has(hand, code: int) -> bool:
    """Whether ``hand`` holds the card ``code``."""
    face, copy = code & FACE_BITS, code >> COPY_SHIFT
    if face == JOKER:
        return (hand[hand.shape[0] - 1] >> np.uint64(copy)) & _ONE != EMPTY
    return (hand[copy] >> np.uint64(face)) & _ONE != EMPTY


@njit(cache=True, nogil=True, error_model="numpy")
def hand_faces(hand) -> np.uint64:
    """The faces ``hand`` holds in any copy (one face mask, jokers aside)."""
    faces = EMPTY
    for copy in range(hand.shape[0] - 1):
        faces |= hand[copy]
    return faces


@njit(cache=True, nogil=True, error_model="numpy")
def hand_jokers(hand) -> int:
    """How many jokers ``hand`` holds."""
    return count_faces(hand[hand.shape[0] - 1])


@njit(cache=True, nogil=True, error_model="numpy")
def hand_size(hand) -> int:
    """How many cards ``hand`` holds, jokers included."""
    size = 0
    for word in range(hand.shape[0]):
        size += count_faces(hand[word])
    return size


@njit(cache=True, nogil=True, error_model="numpy")
def hand_fill(hand, codes, start: int, stop: int) -> None:
    """Make ``hand`` hold exactly the cards ``codes[start:stop]`` (e.g. a dealt block)."""
    for word in range(hand.shape[0]):
        hand[word] = EMPTY
    for index in range(start, stop):
        hand_add(hand, codes[index])


@njit(cache=True, nogil=True, error_model="numpy")
def count_playable(hand, faces, jokers_ok: bool) -> int:
    """How many cards of ``hand`` are playable: those whose face is in the face mask
    ``faces``, and its jokers when ``jokers_ok``."""
    allowed = np.uint64(faces)
    count = 0
    for copy in range(hand.shape[0] - 1):
        count += count_faces(hand[copy] & allowed)
    if jokers_ok:
        count += count_faces(hand[hand.shape[0] - 1])
    return count


@njit(cache=True, nogil=True, error_model="numpy")
def nth_playable(hand, faces, jokers_ok: bool, k: int) -> int:
    """The code of the ``k``-th playable card (from 0, increasing codes), or -1 if fewer."""
    allowed = np.uint64(faces)
    copies = hand.shape[0] - 1
    jokers = hand[copies] if jokers_ok else EMPTY
    for copy in range(MAX_COPIES):
        if copy >= copies and jokers >> np.uint64(copy) == EMPTY:
            break
        if copy < copies:
            mask = hand[copy] & allowed
            count = count_faces(mask)
            if k < count:
                return copy * COPY_STRIDE + nth_face(mask, k)
            k -= count
        if (jokers >> np.uint64(copy)) & _ONE != EMPTY:
            if k == 0:
                return copy * COPY_STRIDE + JOKER
            k -= 1
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def hand_codes(hand, out) -> int:
    """Write the codes ``hand`` holds into ``out`` in increasing order; return how many."""
    copies = hand.shape[0] - 1
    n = 0
    for copy in range(MAX_COPIES):
        if copy >= copies and hand[copies] >> np.uint64(copy) == EMPTY:
            break
        if copy < copies:
            mask = hand[copy]
            while mask != EMPTY:
                out[n] = copy * COPY_STRIDE + lowest_face(mask)
                n += 1
                mask &= mask - _ONE
        if (hand[copies] >> np.uint64(copy)) & _ONE != EMPTY:
            out[n] = copy * COPY_STRIDE + JOKER
            n += 1
    return n


def hand_list(hand: np.ndarray) -> list[int]:
    """The codes ``hand`` holds, in increasing order (plain Python)."""
    codes = []
    for copy in range(hand.shape[0] - 1):
        value = int(hand[copy])
        codes += [copy * COPY_STRIDE + face for face in range(64) if value >> face & 1]
    jokers = int(hand[-1])
    codes += [copy * COPY_STRIDE + JOKER for copy in range(MAX_COPIES) if jokers >> copy & 1]
    return sorted(codes)
