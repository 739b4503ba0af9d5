"""The reference engine: Short Zoot Suit played step by step in plain Python.

This is the rulebook in code, written to be read and used from a notebook::

    from zooanalysis.games.short_zoot_suit import engine
    from zooanalysis.games.short_zoot_suit.rules import ZootSettings
    record = engine.play_game(ZootSettings(players=3), engine.lineup("balanced,void,random"), 1)
    record.points, record.rounds[0].tricks, record.rounds[0].shorts

A strategy is any object with ``choose_draw_pile``, ``choose_action`` and ``choose_card``
(see :class:`Strategy`); it sees an :class:`Observation`, which holds only what that player
may know. Cards are integer codes (``zooanalysis.cards``: ``suit * 16 + rank``, aces low as
rank 1; ``format_cards`` prints them as ``"7H 10S"``). The numba kernel (``kernel.py``)
must reproduce this engine exactly, game by game.

A round, as the rulebook has it:

1. Shuffle the deck for the player count and deal it evenly, all but the set-aside cards.
2. Every player picks ``draw_pile_cards`` cards of its hand as a face-down, shuffled draw
   pile. (Drawing the top card of a shuffled pile is drawing uniformly among the cards in
   it: the engines draw that card when it is drawn, one random number per draw.)
3. Before every trick, each player in turn from the trick's leader may draw the top card of
   its draw pile (Sean's Short Shorts: or place a hand card face down on top of it); every
   player sees the earlier players' choices (not the cards). If then anyone's hand is
   empty, the round ends.
4. The leader plays any card; the others must follow the led suit if they can. The highest
   card of the led suit wins; the winner takes the led-suit cards (one trick won), every
   other card goes back face up to its player's shorts pile (a short). The winner leads
   the next trick.
5. Every player scores: 1 per trick won, 3 per (trick, short) pair, 5 per pair when its
   tricks equal its shorts; plus the Intermediate Scoring card's points if played.

A game is one round per player; the start player of the first is seat 1 (index 0) and moves
one seat to the left every round. Most points win; tied players all win.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.bits import faces_in, mask_of, suits_held
from zooanalysis.cards.deck import deal
from zooanalysis.cards.encoding import NO_SUIT
from zooanalysis.cards.follow import MUST_FOLLOW, legal_suits
from zooanalysis.cards.notation import format_cards
from zooanalysis.games.short_zoot_suit.rules import ZootSettings, round_points, score_round
from zooanalysis.games.short_zoot_suit.strategies import (
    ACTION_NAMES,
    DRAW,
    PASS,
    PLACE,
    STRATEGIES,
    choose_action,
    choose_card,
    choose_pile,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

EMPTY_PILE, DECLINED, PLACED_LAST = 0, 1, 2
END_REASONS = ("draw_pile_empty", "declined_to_draw", "placed_last_card")
"""Why a hand was empty when a round ended: nothing left to draw; its player did not draw
from a draw pile that still held cards; its player placed its last card on the draw pile
(Sean's Short Shorts)."""
SOURCES = ("tricks", "pairs", "equal_bonus", "intermediate")
"""Where points come from: 1 per trick; 3 per pair; the 2 more per pair when tricks equal
shorts (5 instead of 3); the Intermediate Scoring card."""
HIGH_RANKS = 3
"""A "high" card, in the draw-pile analyses, is one of the deck's three highest ranks."""


class IllegalMoveError(RuntimeError):
    """A strategy chose a draw pile, an action or a card the rules do not allow."""


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    Public: the deck for the player count, every hand's and draw pile's size, the trick so
    far, every card played this round (the current trick included), every shorts pile (face
    up), the tricks won, the scores of finished rounds, who leads. Private: the player's own
    hand and the cards of its own draw pile (it picked them; of their order it knows only
    the cards it placed on top itself, Sean's Short Shorts).
    """

    seat: int
    players: int
    round_index: int
    start_player: int
    leader: int
    trick_index: int
    """Tricks finished this round."""
    deck: tuple[int, ...]
    """Every card of the round's deck (dealt or set aside), in increasing order."""
    hand: tuple[int, ...]
    draw_pile: tuple[int, ...]
    """The cards of the player's own draw pile, in increasing order."""
    draw_pile_top: int
    """The top card of its draw pile if the player knows it (it placed it there and has not
    drawn it since), else -1."""
    draw_pile_cards: int
    """How many cards each player puts in its draw pile at the start of a round."""
    may_place: bool
    """Sean's Short Shorts: a hand card may be placed on the draw pile before a trick (the
    last one too if ``settings.place_last_card``)."""
    hand_sizes: tuple[int, ...]
    draw_pile_sizes: tuple[int, ...]
    tricks: tuple[int, ...]
    """Tricks won this round, by seat."""
    shorts: tuple[tuple[int, ...], ...]
    """Every shorts pile (face up), by seat."""
    trick: tuple[int, ...]
    """The cards played to the current trick so far, from the leader."""
    played: tuple[int, ...]
    """Every card played this round, in play order (the current trick included)."""
    scores: tuple[int, ...]
    """Points from the rounds already finished, by seat."""
    settings: ZootSettings
    """The rules (public)."""

    def round_points(self, seat: int) -> int:
        """``seat``'s points for this round if it ended now (tricks won and shorts piles are
        public)."""
        shorts = self.shorts[seat]
        suits = len({card >> 4 for card in shorts})
        return score_round(self.settings, self.tricks[seat], len(shorts), suits)

    @property
    def led_suit(self) -> int:
        """The suit of the trick's first card, ``NO_SUIT`` when the player leads."""
        return self.trick[0] >> 4 if self.trick else NO_SUIT

    def legal_cards(self) -> list[int]:
        """The hand's cards that may be played now (must follow the led suit if able)."""
        held = frozenset(card >> 4 for card in self.hand)
        led = self.led_suit
        if led == NO_SUIT:
            return list(self.hand)
        allowed = legal_suits(MUST_FOLLOW, held, led, NO_SUIT, frozenset())
        return [card for card in self.hand if card >> 4 in allowed]

    def winning_card(self) -> int:
        """The card winning the trick so far (the highest of the led suit), or -1."""
        if not self.trick:
            return -1
        led = self.led_suit
        return max(card for card in self.trick if card >> 4 == led)

    def unseen(self) -> list[int]:
        """The cards the player has not seen this round: the deck less every played card,
        its hand and its draw pile (other hands, other draw piles, the set-aside cards)."""
        known = set(self.played) | set(self.hand) | set(self.draw_pile)
        return [card for card in self.deck if card not in known]


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_draw_pile(self, observation: Observation, rng: np.ndarray) -> Sequence[int]:
        """The cards of the hand (exactly the settings' ``draw_pile_cards``) that go face
        down into the player's draw pile."""

    def choose_action(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """Before a trick: ``(PASS, -1)``, ``(DRAW, -1)`` or ``(PLACE, card)``."""

    def choose_card(self, observation: Observation, rng: np.ndarray) -> int:
        """The card to play, one of ``observation.legal_cards()``."""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``balanced`` ...) for the reference engine: the
    compiled decision functions, fed from the observation alone."""

    player: PlayerSpec

    @cached_property
    def params(self) -> np.ndarray:
        """The player's parameters as the one-row array the compiled strategies read."""
        return strategy_params(self.player)[None, :]

    def choose_draw_pile(self, observation: Observation, rng: np.ndarray) -> list[int]:
        """Ask the compiled strategy for the draw pile."""
        pile = choose_pile(
            strategy_code(self.player),
            self.params,
            0,
            mask_of(observation.hand),
            observation.draw_pile_cards,
            rng,
        )
        return faces_in(pile)

    def choose_action(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """Ask the compiled strategy what to do before the trick."""
        me = observation.seat
        action, card = choose_action(
            strategy_code(self.player),
            self.params,
            0,
            mask_of(observation.hand),
            len(observation.draw_pile),
            observation.settings.place_min,
            observation.tricks[me],
            len(observation.shorts[me]),
            observation.trick_index,
            rng,
        )
        return int(action), int(card)

    def choose_card(self, observation: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy for a card."""
        me = observation.seat
        return int(
            choose_card(
                strategy_code(self.player),
                self.params,
                0,
                mask_of(observation.hand),
                mask_of(observation.legal_cards()),
                observation.led_suit,
                observation.winning_card(),
                len(observation.trick) == observation.players - 1,
                observation.tricks[me],
                len(observation.shorts[me]),
                mask_of(observation.unseen()),
                len(observation.draw_pile),
                observation.trick_index,
                rng,
            )
        )


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"balanced:lean=1,random"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- state and records ---------------------------------------------------------------------


@dataclass
class RoundState:
    """The full state of a round (hidden parts included); only the engine reads it."""

    settings: ZootSettings
    round_index: int
    start_player: int
    deck: tuple[int, ...]
    hands: list[set[int]]
    set_aside: list[int]
    pile_hidden: list[set[int]]
    """The shuffled cards of each draw pile, below any placed ones (order not yet drawn)."""
    pile_placed: list[list[int]]
    """Cards placed on each draw pile (Sean's Short Shorts), bottom to top."""
    scores: tuple[int, ...]
    leader: int = 0
    tricks: list[int] = field(default_factory=list)
    won_cards: list[list[int]] = field(default_factory=list)
    shorts: list[list[int]] = field(default_factory=list)
    trick: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    trick_index: int = 0
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision taken this round, in order
    (``zooanalysis.decisions``)."""

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    def pile_size(self, seat: int) -> int:
        """Cards in ``seat``'s draw pile."""
        return len(self.pile_hidden[seat]) + len(self.pile_placed[seat])


@dataclass
class RoundRecord:
    """What happened in one round."""

    start_player: int
    tricks_played: int = 0
    tricks: list[int] = field(default_factory=list)
    shorts: list[int] = field(default_factory=list)
    shorts_suits: list[int] = field(default_factory=list)
    """Different suits in each shorts pile."""
    points: list[tuple[int, int, int, int]] = field(default_factory=list)
    """Each seat's points by source (``SOURCES``)."""
    empty_hands: list[tuple[int, int]] = field(default_factory=list)
    """(seat, reason) of every hand empty when the round ended (``END_REASONS``)."""
    pile_cards: list[list[int]] = field(default_factory=list)
    """Every card that was in each seat's draw pile at some time this round."""
    voids_made: list[int] = field(default_factory=list)
    """Suits each seat held when dealt but not after making its draw pile."""
    drawn: list[list[int]] = field(default_factory=list)
    """The cards each seat drew, in order."""
    actions: list[list[int]] = field(default_factory=list)
    """Each seat's decisions before tricks, counted by action (pass, draw, place)."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision taken this round (see :func:`pile_options`,
    :func:`action_options`; a card: the legal cards)."""

    def total(self, seat: int) -> int:
        """``seat``'s points this round."""
        return sum(self.points[seat])


@dataclass
class GameRecord:
    """What happened in one game: points, winners, every round and the score after each."""

    points: list[int]
    winners: list[int]
    rounds: list[RoundRecord] = field(default_factory=list)
    tricks: int = 0
    """Tricks played in the game."""
    score_checks: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """After every round (points change only then): (index of the round's last trick in
    the game, counted from 0, or -1 before any trick; every seat's points)."""
    events: list[dict] = field(default_factory=list)


# --- the rules step by step ----------------------------------------------------------------


def observe(state: RoundState, seat: int) -> Observation:
    """The observation of player ``seat``: its own cards and the public facts only."""
    placed = state.pile_placed[seat]
    return Observation(
        seat=seat,
        players=state.players,
        round_index=state.round_index,
        start_player=state.start_player,
        leader=state.leader,
        trick_index=state.trick_index,
        deck=state.deck,
        hand=tuple(sorted(state.hands[seat])),
        draw_pile=tuple(sorted(state.pile_hidden[seat] | set(placed))),
        draw_pile_top=placed[-1] if placed else -1,
        draw_pile_cards=state.settings.draw_pile_cards,
        may_place=state.settings.build_draw_pile,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        draw_pile_sizes=tuple(state.pile_size(p) for p in range(state.players)),
        tricks=tuple(state.tricks),
        shorts=tuple(tuple(cards) for cards in state.shorts),
        trick=tuple(state.trick),
        played=tuple(state.played),
        scores=state.scores,
        settings=state.settings,
    )


def deal_round(
    settings: ZootSettings, round_index: int, scores: tuple[int, ...], stream: np.ndarray
) -> RoundState:
    """Shuffle the deck for the player count and deal it, all but the set-aside cards.

    Rulebook: "2p: 2-9, 4 suits / Shuffle and deal all but 2; 3p: 2-13, 4 suits / Shuffle
    and deal all but 3; 4p: 1-13, 4 suits / Shuffle and deal all". Every round is dealt
    afresh; seat 1 takes the first block of the shuffled deck, seat 2 the next, and so on.
    """
    players = settings.players
    template = settings.deck.codes()
    hands, set_aside = deal(template, players, settings.cards_per_player, stream)
    return RoundState(
        settings=settings,
        round_index=round_index,
        start_player=round_index % players,
        deck=tuple(int(code) for code in template),
        hands=[set(hand) for hand in hands],
        set_aside=set_aside,
        pile_hidden=[set() for _ in range(players)],
        pile_placed=[[] for _ in range(players)],
        scores=scores,
        leader=round_index % players,
        tricks=[0] * players,
        won_cards=[[] for _ in range(players)],
        shorts=[[] for _ in range(players)],
    )


def make_draw_piles(
    state: RoundState, strategies: Sequence[Strategy], stream: np.ndarray, record: RoundRecord
) -> None:
    """Every player, from the start player in turn, puts ``draw_pile_cards`` of its hand
    face down as its draw pile.

    Rulebook: "At the start of a round, players pick any 5 cards from the cards they were
    dealt. Players then flip these 5 cards facedown, shuffle them, and place them into a
    pile in front of themselves." Nobody sees another's choice, so the order only fixes
    the order of the random draws.
    """
    count = state.settings.draw_pile_cards
    record.voids_made = [0] * state.players
    if count == 0:
        return
    for offset in range(state.players):
        seat = (state.start_player + offset) % state.players
        observation = observe(state, seat)
        state.decisions.append(pile_options(len(state.hands[seat]), count))
        chosen = [int(card) for card in strategies[seat].choose_draw_pile(observation, stream)]
        if len(set(chosen)) != count or not set(chosen) <= state.hands[seat]:
            raise IllegalMoveError(
                f"seat {seat}: draw pile {format_cards(chosen)} is not {count} cards of its hand"
            )
        before = suits_held(mask_of(state.hands[seat]))
        state.hands[seat] -= set(chosen)
        after = suits_held(mask_of(state.hands[seat]))
        record.voids_made[seat] = bin(before & ~after).count("1")
        state.pile_hidden[seat] = set(chosen)
        record.pile_cards[seat].extend(sorted(chosen))


def pile_options(held: int, count: int) -> int:
    """The draw piles a player may make: any ``count`` of its ``held`` cards."""
    return math.comb(held, count)


def action_options(held: int, pile_size: int, place_min: int) -> int:
    """The actions before a trick: pass, draw (if its pile has a card), or place any hand
    card (if placing is allowed: ``held >= place_min``; ``place_min`` is beyond any hand
    when the variant is off)."""
    return 1 + (pile_size > 0) + (held if held >= place_min else 0)


def draw_phase(
    state: RoundState, strategies: Sequence[Strategy], stream: np.ndarray, record: RoundRecord
) -> list[int]:
    """Before a trick: each player, from the leader in turn, may draw (or place, Sean's
    Short Shorts). Returns the seats that placed their last hand card.

    Rulebook: "Before every trick begins, anyone may draw 1 card from their personal draw
    deck." Sean's Short Shorts: "at the start of every trick, players may either place a
    card facedown from their hand onto their draw deck or draw a card from their draw deck.
    Neither is required."
    """
    placed_last = []
    for offset in range(state.players):
        seat = (state.leader + offset) % state.players
        state.decisions.append(
            action_options(
                len(state.hands[seat]), state.pile_size(seat), state.settings.place_min
            )
        )
        action, card = strategies[seat].choose_action(observe(state, seat), stream)
        if action == DRAW and state.pile_size(seat) > 0:
            drawn = draw_top_card(state, seat, stream)
            state.hands[seat].add(drawn)
            record.drawn[seat].append(drawn)
        elif (
            action == PLACE
            and card in state.hands[seat]
            and len(state.hands[seat]) >= state.settings.place_min
        ):
            state.hands[seat].remove(card)
            state.pile_placed[seat].append(card)
            if card not in record.pile_cards[seat]:
                record.pile_cards[seat].append(card)
            if not state.hands[seat]:
                placed_last.append(seat)
        elif action != PASS:
            raise IllegalMoveError(
                f"seat {seat}: action ({ACTION_NAMES[action] if 0 <= action < 3 else action}, "
                f"{card}) is not allowed now"
            )
        record.actions[seat][action] += 1
    return placed_last


def draw_top_card(state: RoundState, seat: int, stream: np.ndarray) -> int:
    """Take the top card of ``seat``'s draw pile: the last card placed on it, else one of
    its shuffled cards, uniformly (``below(n)``-th in increasing order)."""
    if state.pile_placed[seat]:
        return state.pile_placed[seat].pop()
    cards = sorted(state.pile_hidden[seat])
    card = cards[rng_module.below(stream, len(cards))]
    state.pile_hidden[seat].remove(card)
    return card


def resolve_trick(trick: Sequence[int]) -> tuple[int, list[int], list[int]]:
    """(winning position, the cards the winner takes, the positions that shorted) of a
    finished trick, positions counted from the leader.

    Rulebook: "The highest card of the lead suit wins. The winner takes the trick, except
    for any non-lead-suit cards. Those cards go back to the player who played them,
    face-up into that player's shorts pile."
    """
    led = trick[0] >> 4
    winner = max(range(len(trick)), key=lambda p: trick[p] if trick[p] >> 4 == led else -1)
    taken = [card for card in trick if card >> 4 == led]
    shorted = [p for p, card in enumerate(trick) if card >> 4 != led]
    return winner, taken, shorted


def play_trick(state: RoundState, strategies: Sequence[Strategy], stream: np.ndarray) -> int:
    """The leader plays any card, the others must follow suit if they can; returns the
    winner, who leads the next trick ("The winner of a trick will lead the next trick")."""
    state.trick = []
    order = [(state.leader + offset) % state.players for offset in range(state.players)]
    for seat in order:
        observation = observe(state, seat)
        state.decisions.append(len(observation.legal_cards()))
        card = int(strategies[seat].choose_card(observation, stream))
        if card not in observation.legal_cards():
            raise IllegalMoveError(
                f"seat {seat}: {format_cards([card])} is not a legal card "
                f"(legal: {format_cards(observation.legal_cards())})"
            )
        state.hands[seat].remove(card)
        state.trick.append(card)
        state.played.append(card)
    position, taken, shorted = resolve_trick(state.trick)
    winner = order[position]
    state.tricks[winner] += 1
    state.won_cards[winner].extend(taken)
    for p in shorted:
        state.shorts[order[p]].append(state.trick[p])
    state.trick = []
    state.trick_index += 1
    state.leader = winner
    return winner


def play_round(
    settings: ZootSettings,
    strategies: Sequence[Strategy],
    round_index: int,
    scores: tuple[int, ...],
    stream: np.ndarray,
) -> tuple[RoundState, RoundRecord]:
    """Deal, make the draw piles, and play tricks until a hand is empty after a draw phase.

    Rulebook: "If, after this, anyone has 0 cards left in their hand (not draw deck), the
    round is over."
    """
    state = deal_round(settings, round_index, scores, stream)
    players = settings.players
    record = RoundRecord(
        start_player=state.start_player,
        pile_cards=[[] for _ in range(players)],
        drawn=[[] for _ in range(players)],
        actions=[[0, 0, 0] for _ in range(players)],
    )
    make_draw_piles(state, strategies, stream, record)
    while True:
        placed_last = draw_phase(state, strategies, stream, record)
        empty = [seat for seat in range(players) if not state.hands[seat]]
        if empty:
            for seat in empty:
                if seat in placed_last:
                    reason = PLACED_LAST
                elif state.pile_size(seat) == 0:
                    reason = EMPTY_PILE
                else:
                    reason = DECLINED
                record.empty_hands.append((seat, reason))
            break
        play_trick(state, strategies, stream)
    check_every_card_once(state)
    record.tricks_played = state.trick_index
    record.decisions = list(state.decisions)
    record.tricks = list(state.tricks)
    record.shorts = [len(cards) for cards in state.shorts]
    record.shorts_suits = [len({card >> 4 for card in cards}) for cards in state.shorts]
    record.points = [
        tuple(
            int(part)
            for part in round_points(
                state.tricks[seat],
                record.shorts[seat],
                record.shorts_suits[seat],
                settings.points_per_trick,
                settings.points_per_pair,
                settings.points_per_equal_pair,
                settings.suit_points,
            )
        )
        for seat in range(players)
    ]
    return state, record


def outcome(points: Sequence[int]) -> list[int]:
    """The winners: every seat with the most points ("Most points wins!!"; tied players all
    win, see docs/rules-decisions.md)."""
    best = max(points)
    return [seat for seat, value in enumerate(points) if value == best]


def play_game(
    settings: ZootSettings, strategies: Sequence[Strategy], seed: int = 0, game_index: int = 0
) -> GameRecord:
    """Play one whole game (one round per player); ``(seed, game_index)`` fixes every shuffle
    and random choice. The kernel plays game ``i`` of a batch seeded ``s`` exactly as
    ``play_game(settings, strategies, s, i)`` does."""
    if len(strategies) != settings.players:
        raise ValueError(f"{len(strategies)} strategies for {settings.players} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    points = [0] * settings.players
    record = GameRecord(points=points, winners=[])
    for round_index in range(settings.rounds):
        _, played = play_round(settings, strategies, round_index, tuple(points), stream)
        for seat in range(settings.players):
            points[seat] += played.total(seat)
        record.rounds.append(played)
        record.tricks += played.tricks_played
        record.score_checks.append((record.tricks - 1, tuple(points)))
        record.events.append(
            {
                "round": round_index,
                "start_player": played.start_player,
                "tricks_played": played.tricks_played,
                "tricks": played.tricks,
                "shorts": played.shorts,
                "points": [played.total(seat) for seat in range(settings.players)],
            }
        )
    record.points = points
    record.winners = outcome(points)
    return record


def check_every_card_once(state: RoundState) -> None:
    """Invariant: every card of the deck is in exactly one place (a hand, a draw pile, a
    won trick, a shorts pile, the set-aside cards)."""
    places = [card for hand in state.hands for card in hand]
    places += [card for pile in state.pile_hidden for card in pile]
    places += [card for pile in state.pile_placed for card in pile]
    places += [card for cards in state.won_cards for card in cards]
    places += [card for cards in state.shorts for card in cards]
    places += list(state.set_aside)
    if sorted(places) != sorted(state.deck):
        raise AssertionError("card bookkeeping broken: a card is missing or doubled")
    for seat, cards in enumerate(state.shorts):
        if len(cards) + state.tricks[seat] > state.trick_index:
            raise AssertionError(f"seat {seat} won or shorted more tricks than were played")

