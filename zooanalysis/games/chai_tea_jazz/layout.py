"""The settings of a Chai Tea Jazz game as flat numbers and arrays, computed once.

Both engines and the compiled strategies read the same :class:`Layout` (``layout(settings)``,
cached per settings): the deck, the points of every face, the option table (which row, which
way), the ways (trump, order, start direction, flips), the rows' game points by place, and
the heuristics' baselines. Every player count and variant is these numbers: the kernel has
one loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from zooanalysis.cards.hands import hand_words
from zooanalysis.games.chai_tea_jazz.evaluation import baselines, value_inputs
from zooanalysis.games.chai_tea_jazz.rules import CUMULATIVE, REPICKS, ChaiSettings


@dataclass(frozen=True, eq=False)
class Layout:
    """Flat tables of one settings object (see the module docstring)."""

    players: int
    sides: int
    side_of: np.ndarray
    template: np.ndarray
    """The deck's codes in increasing order (shuffled every round)."""
    words: int
    """Words in a hand row (copies + 1, the last for jokers)."""
    deck_faces: np.uint64
    deck_jokers: int
    hand_cards: int
    straw_piles: int
    set_aside: int
    tricks: int
    points: np.ndarray
    """Points by face 0-64 (int64)."""
    last_trick: int
    step: int
    max_debt: int
    repick_row: bool
    """A pick after another must name another row (not just another bid)."""
    match_points: int
    passing: bool
    cumulative: int
    """0: off, 1: most total wins, 2: least total wins."""
    early_end: bool
    jokers_strongest: bool
    ties: int
    base_order: int
    rows: int
    row_value: np.ndarray
    avoid: np.ndarray
    place_points: np.ndarray
    options: int
    opt_row: np.ndarray
    opt_way: np.ndarray
    way_trump: np.ndarray
    way_order: np.ndarray
    way_direction: np.ndarray
    way_flip: np.ndarray
    values_points: np.ndarray
    """Points by face as floats (the hand evaluation)."""
    other_points: float
    partner_points: float
    base: np.ndarray
    """Every way's baseline: the mean value of a random hand."""
    base_row: np.ndarray
    """Every row's baseline: its best way's."""
    max_score: int
    """The most a declarer can score in a round (every card, the last trick, an offer)."""


@lru_cache(maxsize=64)
def layout(settings: ChaiSettings) -> Layout:
    """The flat tables of ``settings`` (cached: settings are frozen)."""
    inputs = value_inputs(settings)
    options = settings.options
    opt_way = np.array([settings.way_index(o.way) for o in options], dtype=np.int64)
    opt_row = np.array([o.row for o in options], dtype=np.int64)
    base = baselines(settings)
    base_row = np.full(len(settings.contracts), -1e9)
    for index, row in enumerate(opt_row):
        base_row[row] = max(base_row[row], base[opt_way[index]])
    spec = settings.deck_spec
    offer = settings.max_debt if settings.passing_the_barrel else 0
    return Layout(
        players=settings.players,
        sides=settings.sides,
        side_of=np.array([settings.side_of(s) for s in range(settings.players)], dtype=np.int64),
        template=spec.codes(),
        words=hand_words(spec.copies),
        deck_faces=inputs["deck_faces"],
        deck_jokers=spec.jokers,
        hand_cards=settings.hand_cards,
        straw_piles=settings.straw_piles,
        set_aside=settings.set_aside,
        tricks=settings.tricks,
        points=settings.points,
        last_trick=settings.last_trick,
        step=settings.step,
        max_debt=settings.max_debt,
        repick_row=settings.repick == REPICKS[1],
        match_points=settings.match_points,
        passing=settings.passing_the_barrel,
        cumulative=CUMULATIVE.index(settings.cumulative),
        early_end=settings.early_end,
        jokers_strongest=spec.jokers > 0,
        ties=settings.ties,
        base_order=settings.base_order,
        rows=len(settings.contracts),
        row_value=np.array([c.value for c in settings.contracts], dtype=np.int64),
        avoid=np.array([c.avoid for c in settings.contracts], dtype=np.int64),
        place_points=settings.place_points,
        options=len(options),
        opt_row=opt_row,
        opt_way=opt_way,
        way_trump=inputs["way_trump"],
        way_order=inputs["way_order"],
        way_direction=inputs["way_direction"],
        way_flip=inputs["way_flip"],
        values_points=inputs["points"],
        other_points=float(inputs["other_points"]),
        partner_points=float(inputs["partner_points"]),
        base=base,
        base_row=base_row,
        max_score=settings.deck_points + settings.last_trick + offer,
    )

