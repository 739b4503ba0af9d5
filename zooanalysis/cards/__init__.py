"""Standard-deck machinery shared by the compendium games (Zoo and More), written once.

Both engines use it: the reference engines through readable ``Card`` objects, text
notation and plain-Python rule definitions; the kernels through integer codes, ``uint64``
face masks and lookup tables built from those same definitions. ``docs/cards.md`` explains
the encoding and how a kernel uses it.

* ``encoding``: card codes (``face = suit * 16 + rank``, ``JOKER = 64``,
  ``code = copy * 128 + face``) and ``Card``;
* ``notation``: ``"7H"``, ``"10S"``, ``"JOKER"``, ``"7H#2"``;
* ``bits``: sets of faces as one ``uint64``;
* ``hands``: hands with copies and jokers, counting and picking playable cards;
* ``deck``: decks from settings, dealing on the shared random stream;
* ``orders``: rank orders as strength tables, per-trick directions (Slalom, Pyramid);
* ``follow``: follow rules (must follow, may trump, must not follow) as legal suit sets;
* ``tricks``: trick winner with a named tie rule, the highest positions regardless of suit.
"""

from __future__ import annotations

from zooanalysis.cards.encoding import (
    ACE,
    CLUBS,
    CODE_DTYPE,
    DIAMONDS,
    HEARTS,
    JOKER,
    NO_SUIT,
    SPADES,
    Card,
    copy_of,
    face_of,
    joker,
    make_code,
    make_face,
    rank_of,
    suit_of,
)
from zooanalysis.cards.notation import format_card, format_cards, parse_card, parse_cards

__all__ = [
    "ACE",
    "CLUBS",
    "CODE_DTYPE",
    "DIAMONDS",
    "HEARTS",
    "JOKER",
    "NO_SUIT",
    "SPADES",
    "Card",
    "copy_of",
    "face_of",
    "format_card",
    "format_cards",
    "joker",
    "make_code",
    "make_face",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]
