"""The reference engine: Hearts played step by step in plain Python.

The rules in code, written to be read and used from a notebook::

    from zooanalysis.games.hearts import engine
    from zooanalysis.games.hearts.rules import HeartsSettings
    record = engine.play_game(HeartsSettings(), engine.lineup("safe,bold,random,random"), 1)
    record.points, record.hands[0].scores, record.hands[0].queen_taker

A strategy is any object with ``choose_pass`` and ``choose_card`` (see :class:`Strategy`);
it sees an :class:`Observation`, which holds only what that player may know. Cards are
integer codes (``zooanalysis.cards``: ``suit * 16 + rank``, the ace as rank 1, ranked
aces high here; ``format_cards`` prints them as ``"QS 10H"``). The numba kernel
(``kernel.py``) reproduces this engine exactly, game by game.

A hand:

1. Shuffle the 52 cards and deal 13 to each seat (seat 1 the first block).
2. Pass (unless it is a hold hand): every player picks ``pass_cards`` cards of its hand,
   then all are handed on at once, to the left (the next seat in play order), right or
   across.
3. The holder of the Two of Clubs leads it (or, ``first_lead = "start-seat"``, the hand's
   start seat leads any card). The others must follow suit if they can; the highest card
   of the led suit wins (aces high) and its player takes the trick and leads the next.
   Hearts may not be led until broken (a heart, or the Queen of Spades, was played) unless
   the leader holds nothing else; no heart or Queen of Spades goes to the first trick
   unless the player holds nothing else (leading or discarding; following suit is
   always allowed).
4. Each heart taken scores 1, the Queen of Spades 13 (the Jack of Diamonds -10 in the
   variant). Taking every heart and the Queen shoots the moon.

A game is a whole match: hands until some player reaches ``end_score`` (or ``max_hands``
were played); the fewest points win, tied players share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.bits import faces_in
from zooanalysis.cards.deck import deal, standard_deck
from zooanalysis.cards.encoding import NO_SUIT
from zooanalysis.cards.notation import format_cards
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.decisions import combinations
from zooanalysis.games.hearts.faces import (
    HEARTS,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    card_face,
    card_mask,
    high_face,
    high_of,
)
from zooanalysis.games.hearts.rules import (
    CARDS_PER_PLAYER,
    FIRST_LEAD_NAMES,
    MOON_NAMES,
    START_SEAT,
    HeartsSettings,
    hand_scores,
    pass_offset,
)
from zooanalysis.games.hearts.strategies import (
    STRATEGIES,
    choose_card,
    choose_pass,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

DECK = tuple(int(code) for code in standard_deck().codes())
"""The 52 cards, in increasing code order (the unshuffled deck of every deal)."""
CAP, END_SCORE_REACHED = 0, 1
END_REASONS = ("max_hands", "end_score")
"""Why a game ended: ``max_hands`` hands were played, or a player reached ``end_score``."""


class IllegalMoveError(RuntimeError):
    """A strategy chose a pass or a card the rules do not allow."""


def _name(card: int) -> str:
    """The card's notation, or its number if it is no card at all (for error messages)."""
    try:
        return format_cards([card])
    except ValueError:
        return repr(card)


def is_point_card(card: int) -> bool:
    """A heart or the Queen of Spades (what "no points on the first trick" and the moon
    count; the Jack of Diamonds is not one)."""
    return card >> 4 == HEARTS or card == QUEEN_OF_SPADES


def card_points(card: int, settings: HeartsSettings) -> int:
    """What taking ``card`` scores, the Jack of Diamonds aside."""
    if card >> 4 == HEARTS:
        return settings.heart_points
    return settings.queen_points if card == QUEEN_OF_SPADES else 0


def breaks_hearts(card: int, settings: HeartsSettings) -> bool:
    """Playing ``card`` breaks hearts: a heart, or the Queen of Spades when it does."""
    return card >> 4 == HEARTS or (settings.queen_breaks_hearts and card == QUEEN_OF_SPADES)


def legal_cards(
    hand: Sequence[int],
    trick: Sequence[int],
    hearts_broken: bool,
    first_trick: bool,
    settings: HeartsSettings,
) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards so far, from the
    leader), in hand order."""
    hand = list(hand)
    if not trick:  # leading
        if first_trick and settings.first_lead == FIRST_LEAD_NAMES[0]:
            return [card for card in hand if card == TWO_OF_CLUBS]
        allowed = hand
        if settings.hearts_must_be_broken and not hearts_broken:
            allowed = [card for card in hand if card >> 4 != HEARTS] or allowed
        if first_trick and settings.no_points_first_trick:
            allowed = [card for card in allowed if not is_point_card(card)] or allowed
        return allowed
    led = trick[0] >> 4
    following = [card for card in hand if card >> 4 == led]
    if following:
        return following
    if first_trick and settings.no_points_first_trick:
        return [card for card in hand if not is_point_card(card)] or hand
    return hand


def pass_options(held: int, count: int) -> int:
    """The passes a player may choose: any ``count`` of its ``held`` cards (counted as
    ``decisions.combinations``, which stops at the top bin)."""
    return int(combinations(held, count))


def trick_winner(trick: Sequence[int], identical: int = EARLIER_WINS) -> int:
    """The winning position (0 = the leader): the highest card of the led suit, aces high;
    of identical cards (several decks), the earlier or the later played (``identical``)."""
    led = trick[0] >> 4
    best = 0
    for position in range(1, len(trick)):
        card = trick[position]
        if card >> 4 != led:
            continue
        mine, theirs = high_face(card), high_face(trick[best])
        if mine > theirs or (identical == LATER_WINS and mine == theirs):
            best = position
    return best


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    Public: the rules, the scores, the hand's number and passing direction, the trick so
    far, every card played this hand (in order), whether hearts are broken, how many point
    cards each seat has taken (tricks are taken in view of all). Private: its own hand and,
    after passing, the cards it passed.
    """

    seat: int
    players: int
    hand_index: int
    direction: int
    """Where this hand's passes go (index into ``rules.DIRECTION_NAMES``)."""
    pass_count: int
    """Cards to pass now (0 once play has begun)."""
    hand: tuple[int, ...]
    passed: tuple[int, ...]
    leader: int
    trick_index: int
    trick: tuple[int, ...]
    played: tuple[int, ...]
    hearts_broken: bool
    point_cards_taken: tuple[int, ...]
    scores: tuple[int, ...]
    settings: HeartsSettings
    identical: int = EARLIER_WINS

    @property
    def led_suit(self) -> int:
        """The suit of the trick's first card, ``NO_SUIT`` when the player leads."""
        return self.trick[0] >> 4 if self.trick else NO_SUIT

    def legal_cards(self) -> list[int]:
        """The hand's cards that may be played now."""
        return legal_cards(
            self.hand, self.trick, self.hearts_broken, self.trick_index == 0, self.settings
        )

    def winning_card(self) -> int:
        """The card winning the trick so far, or -1."""
        if not self.trick:
            return -1
        return self.trick[trick_winner(self.trick, self.identical)]

    def others_took_points(self) -> bool:
        """Some other player has taken a point card this hand."""
        return any(n for seat, n in enumerate(self.point_cards_taken) if seat != self.seat)


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_pass(self, observation: Observation, rng: np.ndarray) -> Sequence[int]:
        """The ``observation.pass_count`` cards of the hand to pass."""

    def choose_card(self, observation: Observation, rng: np.ndarray) -> int:
        """The card to play, one of ``observation.legal_cards()``."""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``safe``, ``bold``) for the reference engine: the
    compiled decision functions, fed from the observation alone."""

    player: PlayerSpec

    @cached_property
    def params(self) -> np.ndarray:
        """The player's parameters as the one-row array the compiled strategies read."""
        return strategy_params(self.player)[None, :]

    def choose_pass(self, observation: Observation, rng: np.ndarray) -> list[int]:
        """Ask the compiled strategy which cards to pass."""
        chosen = choose_pass(
            strategy_code(self.player),
            self.params,
            0,
            high_of(observation.hand),
            observation.pass_count,
            rng,
        )
        return faces_in(card_mask(chosen))

    def choose_card(self, observation: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy for a card."""
        best = observation.winning_card()
        face = choose_card(
            strategy_code(self.player),
            self.params,
            0,
            high_of(observation.hand),
            high_of(observation.legal_cards()),
            observation.led_suit,
            high_face(best) if best >= 0 else -1,
            len(observation.trick) == observation.players - 1,
            high_of(observation.played),
            observation.others_took_points(),
            rng,
        )
        return int(card_face(face))


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"bold:moon_at=6,random*3"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- records -------------------------------------------------------------------------------


@dataclass
class HandRecord:
    """What happened in one hand."""

    hand_index: int
    direction: int
    dealt: list[list[int]]
    """Each seat's 13 cards as dealt (or given, in an exhibit)."""
    passed: list[list[int]]
    """The cards each seat passed (empty in a hold hand)."""
    leader: int = 0
    """Who led the first trick."""
    tricks: list[tuple[int, tuple[int, ...], int]] = field(default_factory=list)
    """(leader, cards from the leader, winner) of every trick."""
    points: list[int] = field(default_factory=list)
    """Points of the hearts and Queens each seat took."""
    point_cards: list[int] = field(default_factory=list)
    jacks: list[int] = field(default_factory=list)
    """Jack-of-Diamonds points each seat took."""
    scores: list[int] = field(default_factory=list)
    """Each seat's score for the hand (the moon and the Jack applied)."""
    shooter: int = -1
    queen_holder: int = -1
    """Who held the Queen of Spades when play began (-1: not dealt)."""
    queen_taker: int = -1
    queen_trick: int = -1
    """The trick (0-12) in which the Queen was taken."""
    cards_dealt: int = 0
    """Hearts and Queens of Spades in play this hand (14 with one deck)."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision this hand, in order (``zooanalysis.decisions``):
    each seat's pass (:func:`pass_options`), then every card (its legal cards under the
    follow, hearts-broken and first-trick rules; the Two of Clubs lead is forced)."""


@dataclass
class GameRecord:
    """What happened in one game (a match): final points, winners, every hand."""

    points: list[int]
    winners: list[int]
    hands: list[HandRecord] = field(default_factory=list)
    end_reason: int = END_SCORE_REACHED


# --- the rules step by step ----------------------------------------------------------------


@dataclass
class HandState:
    """The full state of a hand (hidden parts included); only the engine reads it."""

    settings: HeartsSettings
    hand_index: int
    direction: int
    hands: list[set[int]]
    passed: list[list[int]]
    scores: tuple[int, ...]
    identical: int
    leader: int = 0
    trick_index: int = 0
    trick: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    hearts_broken: bool = False
    taken: list[list[int]] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision so far (see ``HandRecord.decisions``)."""

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)


def observe(state: HandState, seat: int, pass_count: int = 0) -> Observation:
    """The observation of player ``seat``: its own cards and the public facts only."""
    return Observation(
        seat=seat,
        players=state.players,
        hand_index=state.hand_index,
        direction=state.direction,
        pass_count=pass_count,
        hand=tuple(sorted(state.hands[seat])),
        passed=tuple(sorted(state.passed[seat])),
        leader=state.leader,
        trick_index=state.trick_index,
        trick=tuple(state.trick),
        played=tuple(state.played),
        hearts_broken=state.hearts_broken,
        point_cards_taken=tuple(
            sum(1 for card in cards if is_point_card(card)) for cards in state.taken
        ),
        scores=state.scores,
        settings=state.settings,
        identical=state.identical,
    )


def pass_cards(state: HandState, strategies: Sequence[Strategy], stream: np.ndarray) -> None:
    """Every player, seat 1 first, picks ``pass_cards`` cards; then all are handed on at
    once (nobody sees what it receives before choosing)."""
    count = state.settings.pass_cards
    offset = pass_offset(state.direction, state.players)
    if offset == 0:
        return
    for seat in range(state.players):
        state.decisions.append(pass_options(len(state.hands[seat]), count))
        chosen = [int(c) for c in strategies[seat].choose_pass(observe(state, seat, count), stream)]
        if len(set(chosen)) != count or not set(chosen) <= state.hands[seat]:
            raise IllegalMoveError(
                f"seat {seat}: pass {format_cards(chosen)} is not {count} cards of its hand"
            )
        state.passed[seat] = sorted(chosen)
    for seat in range(state.players):
        state.hands[seat] -= set(state.passed[seat])
    for seat in range(state.players):
        state.hands[(seat + offset) % state.players] |= set(state.passed[seat])


def first_leader(state: HandState, start_seat: int) -> int:
    """The holder of the Two of Clubs (``first_lead = "two-of-clubs"``), else the start
    seat."""
    if state.settings.first_lead == FIRST_LEAD_NAMES[START_SEAT]:
        return start_seat
    for offset in range(state.players):  # with several decks: the first from the start seat
        seat = (start_seat + offset) % state.players
        if TWO_OF_CLUBS in state.hands[seat]:
            return seat
    raise ValueError("no Two of Clubs was dealt: use first_lead = 'start-seat'")


def play_trick(state: HandState, strategies: Sequence[Strategy], stream: np.ndarray) -> int:
    """Every player in turn from the leader plays a legal card; the winner takes the trick
    and leads the next. Returns the winner."""
    state.trick = []
    order = [(state.leader + offset) % state.players for offset in range(state.players)]
    for seat in order:
        observation = observe(state, seat)
        state.decisions.append(len(observation.legal_cards()))
        card = int(strategies[seat].choose_card(observation, stream))
        if card not in observation.legal_cards():
            raise IllegalMoveError(
                f"seat {seat}: {_name(card)} is not a legal card "
                f"(legal: {format_cards(observation.legal_cards())})"
            )
        state.hands[seat].remove(card)
        state.trick.append(card)
        state.played.append(card)
        if breaks_hearts(card, state.settings):
            state.hearts_broken = True
    winner = order[trick_winner(state.trick, state.identical)]
    state.taken[winner].extend(state.trick)
    state.trick_index += 1
    state.leader = winner
    return winner


def play_hand(
    settings: HeartsSettings,
    hands: Sequence[Sequence[int]],
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    *,
    start_seat: int = 0,
    hand_index: int = 0,
    scores: Sequence[int] | None = None,
    identical: int = EARLIER_WINS,
) -> HandRecord:
    """Play one hand from the dealt ``hands`` (card faces per seat): pass, play 13 tricks,
    score. The Through the Zoo exhibit plays exactly this with its own hands."""
    players = len(hands)
    scores = tuple(scores) if scores is not None else (0,) * players
    direction = settings.direction(hand_index)
    state = HandState(
        settings=settings,
        hand_index=hand_index,
        direction=direction,
        hands=[set(hand) for hand in hands],
        passed=[[] for _ in range(players)],
        scores=scores,
        identical=identical,
        taken=[[] for _ in range(players)],
    )
    record = HandRecord(
        hand_index=hand_index,
        direction=direction,
        dealt=[sorted(hand) for hand in hands],
        passed=state.passed,
    )
    pass_cards(state, strategies, stream)
    state.leader = record.leader = first_leader(state, start_seat)
    in_play = [card for hand in state.hands for card in hand]
    record.cards_dealt = sum(1 for card in in_play if is_point_card(card))
    moon_value = sum(card_points(card, settings) for card in in_play if is_point_card(card))
    for seat, hand in enumerate(state.hands):
        if QUEEN_OF_SPADES in hand:
            record.queen_holder = seat
    tricks = len(state.hands[0])
    for _ in range(tricks):
        leader = state.leader
        winner = play_trick(state, strategies, stream)
        record.tricks.append((leader, tuple(state.trick), winner))
        if QUEEN_OF_SPADES in state.trick and record.queen_taker < 0:
            record.queen_taker, record.queen_trick = winner, state.trick_index - 1
    check_every_card_once(state, hands)
    record.decisions = list(state.decisions)
    record.points = [sum(card_points(c, settings) for c in cards) for cards in state.taken]
    record.point_cards = [sum(1 for c in cards if is_point_card(c)) for cards in state.taken]
    record.jacks = [
        settings.jack_of_diamonds * sum(1 for c in cards if c == JACK_OF_DIAMONDS)
        for cards in state.taken
    ]
    out = np.zeros(players, dtype=np.int64)
    record.shooter = int(
        hand_scores(
            np.array(record.points, dtype=np.int64),
            np.array(record.point_cards, dtype=np.int64),
            np.array(record.jacks, dtype=np.int64),
            record.cards_dealt,
            moon_value,
            MOON_NAMES.index(settings.moon),
            players,
            out,
        )
    )
    record.scores = [int(value) for value in out]
    return record


def game_over(settings: HeartsSettings, points: Sequence[int], hands_played: int) -> int:
    """-1 while the game goes on, else why it ended (``END_REASONS``): a player reached
    ``end_score``, or ``max_hands`` hands were played."""
    if max(points) >= settings.end_score:
        return END_SCORE_REACHED
    return CAP if hands_played >= settings.max_hands else -1


def outcome(points: Sequence[int]) -> list[int]:
    """The winners: every seat with the fewest points (tied players share the win)."""
    best = min(points)
    return [seat for seat, value in enumerate(points) if value == best]


def play_game(
    settings: HeartsSettings, strategies: Sequence[Strategy], seed: int = 0, game_index: int = 0
) -> GameRecord:
    """Play one whole game (hands until it ends); ``(seed, game_index)`` fixes every
    shuffle and random choice. The kernel plays game ``i`` of a batch seeded ``s`` exactly
    as ``play_game(settings, strategies, s, i)`` does."""
    players = settings.players
    if len(strategies) != players:
        raise ValueError(f"{len(strategies)} strategies for {players} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    points = [0] * players
    record = GameRecord(points=points, winners=[])
    while True:
        hand_index = len(record.hands)
        hands, _ = deal(DECK, players, CARDS_PER_PLAYER, stream)
        played = play_hand(
            settings,
            hands,
            strategies,
            stream,
            start_seat=hand_index % players,
            hand_index=hand_index,
            scores=points,
        )
        for seat in range(players):
            points[seat] += played.scores[seat]
        record.hands.append(played)
        reason = game_over(settings, points, len(record.hands))
        if reason >= 0:
            record.end_reason = reason
            break
    record.points = points
    record.winners = outcome(points)
    return record


def check_every_card_once(state: HandState, dealt: Sequence[Sequence[int]]) -> None:
    """Invariant: every dealt card was played exactly once and taken by one player."""
    taken = sorted(card for cards in state.taken for card in cards)
    if taken != sorted(card for hand in dealt for card in hand) or any(state.hands):
        raise AssertionError("card bookkeeping broken: a card is missing or doubled")
    if sorted(state.played) != taken:
        raise AssertionError("the cards played are not the cards taken")

