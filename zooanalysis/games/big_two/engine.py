"""The reference engine: Big Two played step by step in plain Python.

The rules in code, written to be read and used from a notebook::

    from zooanalysis.games.big_two import engine
    from zooanalysis.games.big_two.rules import BigTwoSettings
    record = engine.play_game(BigTwoSettings(), engine.lineup("control,greedy,random,random"), 1)
    record.rounds[0].out_order, record.rounds[0].cards_left

A strategy is any object with ``choose_play(observation, rng)`` returning the faces it
plays (an empty tuple passes); it sees an :class:`Observation`, which holds only what its
player may know. Cards are face codes (``zooanalysis.cards``: ``suit * 16 + rank``, the ace
is rank 1; ``format_cards`` prints them as ``"3D 2S"``). The numba kernel (``kernel.py``)
reproduces this engine exactly, game by game.

A round:

1. Shuffle the 52 cards (no jokers) and deal ``cards_per_player`` to each seat, seat 1 the
   first block; the rest is set aside, except that a single leftover card (3 players)
   goes to the holder of the lowest dealt card (``extra_card_to_opener``).
2. The holder of the lowest card in play (3D with 4 players) leads and must include it
   (``opening = "lowest-card"``); otherwise the start player leads anything.
3. Play goes clockwise (seat + 1). Each player in turn plays a play of as many cards that
   beats the play on the table, or passes; a hard pass sits the player out until the
   trick ends. When nobody else can still play, the trick ends and whoever made the last
   play leads any play (if that player has gone out: the next seat still holding cards).
4. The round ends when a player sheds its last card (``round_end = "first-out"``), or when
   only one player holds cards (``"last-out"``). Players finish in the order they went
   out, then by fewer cards left.

A game is one round (won by the first out), or with ``target`` > 0 rounds until a
player's penalty total reaches the target (fewest penalty points win, ties shared).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.deck import deal
from zooanalysis.cards.tricks import EARLIER_WINS
from zooanalysis.games.big_two.plays import list_plays, listing_key, max_plays
from zooanalysis.games.big_two.rules import (
    FIRST_OUT,
    HARD,
    KIND_SIZE,
    LOWEST_CARD,
    MAX_CARDS_PER_PLAYER,
    OPENING_NAMES,
    PASS_KIND,
    PASSING_NAMES,
    ROUND_END_NAMES,
    BigTwoSettings,
    beats,
    classify,
    format_play,
    penalty,
)
from zooanalysis.games.big_two.strategies import (
    STRATEGIES,
    choose_play,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

MAX_ROUNDS = 1000
"""A match stops after this many rounds even if nobody reached the target (a guard; every
round adds at least one penalty point, so a target of at most 1000 is always reached)."""
NOBODY = 99
"""``fewest_other`` when no other player holds cards."""


class IllegalMoveError(RuntimeError):
    """A strategy chose a play the rules do not allow."""


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    Public: every hand's size, the play on the table and who made it, who passed in this
    trick, who went out and in which order, every card played this round, the match's
    penalty totals. Private: its own hand.
    """

    seat: int
    players: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    """The play to beat (faces), empty when the player leads."""
    table_seat: int
    """Who made the play on the table (-1 when leading)."""
    must_include: int
    """A face every play must include now (the opening lead), or -1."""
    passed: tuple[bool, ...]
    """Who passed since the trick began (hard passing) or since the last play (soft)."""
    out_order: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[int, ...]
    """Every card played this round, in play order."""
    penalties: tuple[int, ...]
    """Penalty totals of the match's finished rounds (zeros in a one-round game)."""
    identical: int
    """How equal keys compare: ``EARLIER_WINS`` (the table stays) or ``LATER_WINS``."""
    settings: BigTwoSettings

    @property
    def leading(self) -> bool:
        """Whether the player leads (may play anything, may not pass)."""
        return not self.table

    def fewest_other(self) -> int:
        """The fewest cards any other player still holding cards has (``NOBODY`` if none)."""
        sizes = [n for seat, n in enumerate(self.hand_sizes) if seat != self.seat and n > 0]
        return min(sizes, default=NOBODY)

    def legal_plays(self) -> list[tuple[int, ...]]:
        """Every legal play (faces), in the listing order of ``plays.py``; readable and slow
        (every subset of 1, 2, 3 and 5 cards), meant for notebooks and tests."""
        settings = self.settings
        table = classify(self.table, settings) if self.table else None
        found = []
        for size in (1, 2, 3, 5):
            for cards in combinations(sorted(self.hand), size):
                play = classify(cards, settings)
                if play is None or (self.must_include >= 0 and self.must_include not in cards):
                    continue
                if table and not beats(play[1], size, table[1], len(self.table), self.identical):
                    continue
                ids = [int(settings.card_ids[face]) for face in cards]
                found.append(((play[0], listing_key(ids, play[0])), cards))
        return [cards for _, cards in sorted(found)]


def play_options(observation: Observation) -> int:
    """The legal options of a turn (``zooanalysis.decisions``): every legal play, the
    plays :meth:`Observation.legal_plays` lists, and passing unless the player leads. The
    plays are counted by the compiled ``plays.list_plays``, which the tests hold equal to
    that brute-force listing (listing every 5-card subset of a hand at every turn would
    make the reference engine too slow to test)."""
    settings = observation.settings
    ids = settings.card_ids
    table = classify(observation.table, settings) if observation.table else (0, 0)
    must = observation.must_include
    size = max_plays(len(observation.hand))
    plays = list_plays(
        np_mask(ids[face] for face in observation.hand),
        table[1],
        len(observation.table),
        np_mask([ids[must]]) if must >= 0 else np.uint64(0),
        observation.identical,
        np.empty(size, dtype=np.uint64),
        np.empty(size, dtype=np.int64),
    )
    return int(plays) + (0 if observation.leading else 1)


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_play(self, observation: Observation, rng: np.ndarray) -> Sequence[int]:
        """The faces to play (one of ``observation.legal_plays()``), or ``()`` to pass (not
        allowed when leading)."""


@dataclass(frozen=True, eq=False)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``control``, ``greedy``) for the reference engine:
    the compiled decision function, fed from the observation alone."""

    player: PlayerSpec

    @cached_property
    def params(self) -> np.ndarray:
        """The player's parameters as the one-row array the compiled strategies read."""
        return strategy_params(self.player)[None, :]

    @cached_property
    def scratch(self) -> tuple[np.ndarray, np.ndarray]:
        """Play lists for the compiled decision (allocated once per strategy object)."""
        size = max_plays(MAX_CARDS_PER_PLAYER)
        return np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.int64)

    def choose_play(self, observation: Observation, rng: np.ndarray) -> tuple[int, ...]:
        """Ask the compiled strategy for a play."""
        settings = observation.settings
        ids = settings.card_ids
        table = classify(observation.table, settings) if observation.table else (0, 0)
        must = observation.must_include
        masks, keys = self.scratch
        mask, _ = choose_play(
            strategy_code(self.player),
            self.params,
            0,
            np_mask(ids[face] for face in observation.hand),
            table[1],
            len(observation.table),
            np_mask([ids[must]]) if must >= 0 else np.uint64(0),
            observation.identical,
            observation.fewest_other(),
            masks,
            keys,
            rng,
        )
        mask = int(mask)
        return tuple(int(settings.face_of_id[i]) for i in range(52) if mask >> i & 1)


def np_mask(bits) -> np.uint64:
    """A uint64 with the given bit indices set."""
    value = 0
    for bit in bits:
        value |= 1 << int(bit)
    return np.uint64(value)


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"control:release=3,random"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- records -------------------------------------------------------------------------------


@dataclass
class RoundRecord:
    """What happened in one round."""

    dealt: list[list[int]]
    """Each seat's hand after the deal (faces, increasing)."""
    opener: int
    """The seat that led the first trick."""
    out_order: list[int] = field(default_factory=list)
    cards_left: list[int] = field(default_factory=list)
    left: list[list[int]] = field(default_factory=list)
    """Each seat's cards when the round ended (faces, increasing)."""
    plays: list[list[int]] = field(default_factory=list)
    """Per seat: plays made by kind (index 0 counts passes; ``rules.KIND_NAMES``)."""
    leads: list[int] = field(default_factory=list)
    """Plays that led a trick, by kind."""
    turns: int = 0
    """Decisions made (plays and passes)."""
    tricks: int = 0
    """Tricks begun."""
    moves: int = 0
    """Plays made (passes not counted)."""
    checks: list[tuple[int, int]] = field(default_factory=list)
    """After every play: (move index in the game, the sole leader by fewest penalty points
    plus cards in hand, or -1)."""
    history: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """Every decision in order: (seat, faces played; empty = pass)."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision in order (:func:`play_options`: the legal
    plays, and passing unless leading; ``zooanalysis.decisions``)."""

    def standing(self) -> tuple[int, ...]:
        """Per seat, higher is better: ``100 * (players - place)`` for the k-th player out
        (place from 0), minus the cards left for the others (equal values tie)."""
        players = len(self.cards_left)
        values = [-cards for cards in self.cards_left]
        for place, seat in enumerate(self.out_order):
            values[seat] = 100 * (players - place)
        return tuple(values)

    def places(self) -> list[int]:
        """Each seat's place from 0 (tied seats share the better place)."""
        standing = self.standing()
        return [sum(1 for other in standing if other > mine) for mine in standing]


@dataclass
class GameRecord:
    """What happened in one game."""

    penalties: list[int]
    """Penalty points per seat, summed over the rounds."""
    points: list[int]
    """The game's outcome points, fewest win (:func:`outcome_points`)."""
    winners: list[int]
    rounds: list[RoundRecord] = field(default_factory=list)
    moves: int = 0
    """Plays in the game."""
    checks: list[tuple[int, int]] = field(default_factory=list)


# --- the rules step by step ----------------------------------------------------------------


def deal_round(settings: BigTwoSettings, stream: np.ndarray) -> list[list[int]]:
    """Shuffle and deal; a lone leftover card goes to the lowest card's holder (if set).

    "Deal the cards out to each player ... until all out": with 4 players 13 each; 3
    players 17 each and the 52nd card to the player holding the lowest dealt card; 2
    players 13 each and the rest set aside (docs/rules-decisions.md, Big Two #3).
    """
    hands, rest = deal(settings.deck.codes(), settings.players, settings.per_player, stream)
    if settings.gives_extra_card:
        ids = settings.card_ids
        lowest = min((ids[face], seat) for seat, hand in enumerate(hands) for face in hand)
        hands[lowest[1]].append(rest[0])
    return [sorted(hand) for hand in hands]


def opening_lead(
    settings: BigTwoSettings, hands: Sequence[Sequence[int]], start_seat: int
) -> tuple[int, int]:
    """(the seat that leads the first trick, the face it must include or -1).

    ``"lowest-card"``: "The person with the 3 of diamonds goes first ... The 3 of diamonds
    must be put down"; with fewer than 52 cards dealt it is the lowest card in play. When
    several seats hold that face (personal decks), the first of them clockwise from the
    start seat leads. ``"start-player"``: the start seat leads any play.
    """
    if OPENING_NAMES.index(settings.opening) != LOWEST_CARD:
        return start_seat, -1
    ids = settings.card_ids
    lowest = min(int(ids[face]) for hand in hands for face in hand)
    face = int(settings.face_of_id[lowest])
    players = len(hands)
    for offset in range(players):
        seat = (start_seat + offset) % players
        if face in hands[seat]:
            return seat, face
    raise AssertionError("the lowest card is in no hand")


@dataclass
class RoundState:
    """The full state of a round (hidden hands included); only the engine reads it."""

    settings: BigTwoSettings
    held: list[set[int]]
    penalties: tuple[int, ...]
    identical: int
    must: int = -1
    table: tuple[int, ...] = ()
    table_key: int = 0
    table_seat: int = -1
    passed: list[bool] = field(default_factory=list)
    passes_in_row: int = 0
    out_order: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)


def observe(state: RoundState, seat: int) -> Observation:
    """The observation of player ``seat``: its own hand and the public facts only."""
    return Observation(
        seat=seat,
        players=len(state.held),
        hand=tuple(sorted(state.held[seat])),
        table=state.table,
        table_seat=state.table_seat,
        must_include=state.must,
        passed=tuple(state.passed),
        out_order=tuple(state.out_order),
        hand_sizes=tuple(len(hand) for hand in state.held),
        played=tuple(state.played),
        penalties=state.penalties,
        identical=state.identical,
        settings=state.settings,
    )


def trick_over(state: RoundState) -> bool:
    """Whether nobody but the last player may still play to the trick: "A new Start Player
    is determined when all but one player passes". Hard passing: every other player holding
    cards has passed in this trick; soft: they all passed since the last play."""
    others = [p for p, hand in enumerate(state.held) if hand and p != state.table_seat]
    if PASSING_NAMES.index(state.settings.passing) == HARD:
        return all(state.passed[p] for p in others)
    return state.passes_in_row >= len(others)


def play_round(
    settings: BigTwoSettings,
    hands: Sequence[Sequence[int]],
    start_seat: int,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    identical: int = EARLIER_WINS,
    penalties: Sequence[int] | None = None,
    first_move: int = 0,
) -> RoundRecord:
    """Play one round from these hands (faces per seat); ``start_seat`` leads unless the
    opening rule names the lowest card's holder. ``first_move`` numbers this round's plays
    within the game (for the score checks)."""
    players = len(hands)
    held = [set(hand) for hand in hands]
    if any(len(hand) != len(held[seat]) for seat, hand in enumerate(hands)):
        raise ValueError("a hand holds the same face twice")
    hard = PASSING_NAMES.index(settings.passing) == HARD
    until_first = ROUND_END_NAMES.index(settings.round_end) == FIRST_OUT
    leader, must = opening_lead(settings, hands, start_seat)
    state = RoundState(
        settings, held, tuple(penalties or [0] * players), identical, must,
        passed=[False] * players,
    )
    record = RoundRecord(
        dealt=[sorted(hand) for hand in hands],
        opener=leader,
        plays=[[0] * 9 for _ in range(players)],
        leads=[0] * 9,
    )
    seat = leader
    record.tricks = 1
    while True:
        observation = observe(state, seat)
        record.decisions.append(play_options(observation))
        chosen = tuple(int(face) for face in strategies[seat].choose_play(observation, stream))
        record.turns += 1
        record.history.append((seat, chosen))
        if not chosen:
            if not state.table:
                raise IllegalMoveError(f"seat {seat}: may not pass when leading")
            record.plays[seat][PASS_KIND] += 1
            state.passed[seat] = True
            state.passes_in_row += 1
        else:
            play_cards(state, seat, chosen, record, first_move)
            if not held[seat]:
                state.out_order.append(seat)
                active = sum(1 for hand in held if hand)
                if until_first or active <= 1:
                    break
        if trick_over(state):
            # "That remaining player will start play again by playing any valid meld"; a
            # player who went out hands the lead to the next seat still holding cards.
            seat = state.table_seat
            while not held[seat]:
                seat = (seat + 1) % players
            state.table, state.table_key, state.table_seat = (), 0, -1
            state.passed = [False] * players
            state.passes_in_row = 0
            record.tricks += 1
            continue
        seat = (seat + 1) % players
        while not held[seat] or (hard and state.passed[seat]):
            seat = (seat + 1) % players
    record.out_order = list(state.out_order)
    record.cards_left = [len(hand) for hand in held]
    record.left = [sorted(hand) for hand in held]
    check_every_card_once(record, held, state.played)
    return record


def play_cards(
    state: RoundState, seat: int, chosen: tuple[int, ...], record: RoundRecord, first_move: int
) -> None:
    """``seat`` plays ``chosen``: check it is a play of its hand that may go on the table
    ("play a stronger set of cards of that same meld type"), put it there, count it."""
    settings = state.settings
    play = classify(chosen, settings)
    if (
        play is None
        or not set(chosen) <= state.held[seat]
        or (state.must >= 0 and state.must not in chosen)
        or (
            state.table
            and not beats(play[1], len(chosen), state.table_key, len(state.table),
                          state.identical)
        )
    ):
        raise IllegalMoveError(
            f"seat {seat}: {format_play(chosen, settings)} is not a legal play on "
            f"{format_play(state.table, settings) or 'an empty table'}"
        )
    kind, key = play
    if not state.table:
        record.leads[kind] += 1
    state.held[seat] -= set(chosen)
    state.played.extend(sorted(chosen))
    state.table, state.table_key, state.table_seat, state.must = chosen, key, seat, -1
    state.passes_in_row = 0
    record.plays[seat][kind] += 1
    players = len(state.held)
    totals = [state.penalties[p] + len(state.held[p]) for p in range(players)]
    best = min(totals)
    leaders = [p for p in range(players) if totals[p] == best]
    sole = leaders[0] if len(leaders) == 1 else -1
    record.checks.append((first_move + record.moves, sole))
    record.moves += 1


def check_every_card_once(record: RoundRecord, held: list[set[int]], played: list[int]) -> None:
    """Invariant: the dealt cards are exactly the cards played and the cards still held."""
    dealt = sorted(face for hand in record.dealt for face in hand)
    now = sorted(played + [face for hand in held for face in hand])
    if dealt != now:
        raise AssertionError("card bookkeeping broken: a card is missing or doubled")


def outcome_points(settings: BigTwoSettings, rounds: Sequence[RoundRecord],
                   penalties: Sequence[int]) -> list[int]:
    """The points that decide the game, fewest win: a match's penalty totals; in a
    one-round game the cards left ("first-out": the first out holds 0), or with
    ``"last-out"`` each seat's place (0 = first out)."""
    if settings.is_match:
        return list(penalties)
    last = rounds[-1]
    if ROUND_END_NAMES.index(settings.round_end) == FIRST_OUT:
        return list(last.cards_left)
    return last.places()


def winners_of(points: Sequence[int]) -> list[int]:
    """The seats with the fewest points (ties share the win)."""
    best = min(points)
    return [seat for seat, value in enumerate(points) if value == best]


def play_game(
    settings: BigTwoSettings, strategies: Sequence[Strategy], seed: int = 0, game_index: int = 0
) -> GameRecord:
    """Play one game; ``(seed, game_index)`` fixes every shuffle and random choice. The
    kernel plays game ``i`` of a batch seeded ``s`` exactly as this does."""
    if len(strategies) != settings.players:
        raise ValueError(f"{len(strategies)} strategies for {settings.players} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    players = settings.players
    penalties = [0] * players
    record = GameRecord(penalties=penalties, points=[], winners=[])
    for round_index in range(MAX_ROUNDS):
        hands = deal_round(settings, stream)
        played = play_round(
            settings, hands, round_index % players, strategies, stream, EARLIER_WINS,
            penalties, record.moves,
        )
        for seat in range(players):
            penalties[seat] += penalty(played.cards_left[seat], settings)
        record.rounds.append(played)
        record.moves += played.moves
        record.checks.extend(played.checks)
        if not settings.is_match or max(penalties) >= settings.target:
            break
    record.points = outcome_points(settings, record.rounds, penalties)
    record.winners = winners_of(record.points)
    return record


def kind_of(faces: Sequence[int], settings: BigTwoSettings) -> int:
    """The kind of a play (``PASS_KIND`` for no cards)."""
    if not faces:
        return PASS_KIND
    play = classify(faces, settings)
    if play is None or KIND_SIZE[play[0]] != len(faces):
        raise ValueError(f"{format_play(faces, settings)} is not a play")
    return play[0]
