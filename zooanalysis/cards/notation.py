"""Text notation of cards, for scenario files, logs, reports and tests.

A suited card is its rank then its suit letter: ``"7H"``, ``"10S"``, ``"QS"``, ``"AS"``,
``"0H"``, ``"15C"``. Ranks are written 0-15, and ``A`` = 1, ``J`` = 11, ``Q`` = 12 and
``K`` = 13 are accepted too (a rank is a number: the ace is rank 1 whether a game counts it
low or high, see ``orders.py``). Suit letters: ``C`` Clubs, ``D`` Diamonds, ``H`` Hearts,
``S`` Spades. A joker is ``"JOKER"``.

Further copies of a face (multi-deck play, a second joker) add ``#n``, counting copies from
1: ``"7H#2"`` is the second 7 of Hearts (code ``128 + face``), ``"JOKER#2"`` the second
joker. ``"#1"`` may be written but is never printed. Parsing ignores case and surrounding
spaces; formatting writes ``A J Q K`` for 1, 11, 12, 13 (``numeric=True`` writes numbers,
as Bug House Millionaire's deck prints them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from zooanalysis.cards.encoding import (
    COPY_STRIDE,
    JOKER,
    MAX_COPIES,
    RANK_LETTERS,
    RANK_SLOTS,
    SUIT_LETTERS,
    format_card,
)

_RANK_BY_TEXT = {str(rank): rank for rank in range(RANK_SLOTS)} | {
    letter: rank for rank, letter in RANK_LETTERS.items()
}
_CARD_PATTERN = re.compile(r"^(?:(JOKER)|([0-9]{1,2}|[AJQK])([CDHS]))(?:#([0-9]{1,2}))?$")

ALLOWED = (
    "a rank (0-15, or A, J, Q, K for 1, 11, 12, 13) followed by a suit letter "
    "(C, D, H or S), e.g. '7H', '10S', 'QS', 'AS'; or 'JOKER'; "
    f"optionally '#n' for copy n (1-{MAX_COPIES}) of that card, e.g. '7H#2', 'JOKER#2'"
)


def parse_rank(text: str) -> int:
    """The rank written ``text`` (``"7"``, ``"A"`` ...); ``ValueError`` names bad input."""
    key = text.strip().upper() if isinstance(text, str) else None
    if key not in _RANK_BY_TEXT:
        raise ValueError(f"malformed rank {text!r}: allowed are 0-15, or A, J, Q, K")
    return _RANK_BY_TEXT[key]


def parse_card(text: str) -> int:
    """Card code of ``text`` in the notation above; ``ValueError`` names the card and the
    allowed forms."""
    match = _CARD_PATTERN.match(text.strip().upper()) if isinstance(text, str) else None
    if match is None or (match[2] is not None and match[2] not in _RANK_BY_TEXT):
        raise ValueError(f"malformed card {text!r}: allowed are {ALLOWED}")
    copy = int(match[4]) - 1 if match[4] is not None else 0
    if not 0 <= copy < MAX_COPIES:
        raise ValueError(f"malformed card {text!r}: allowed are {ALLOWED}")
    if match[1]:
        face = JOKER
    else:
        face = SUIT_LETTERS.index(match[3]) * RANK_SLOTS + _RANK_BY_TEXT[match[2]]
    return copy * COPY_STRIDE + face


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card codes of several cards: a list of strings, or one string separated by spaces
    and/or commas (``"7H 10S, QS"``); ``ValueError`` names the first malformed card."""
    items = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items if not (isinstance(item, str) and not item)]


def format_cards(codes: Iterable[int], numeric: bool = False) -> str:
    """Text notation of several card codes, separated by spaces."""
    return " ".join(format_card(code, numeric) for code in codes)
