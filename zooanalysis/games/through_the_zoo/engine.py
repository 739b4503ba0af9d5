"""The reference engine: Through the Zoo played step by step in plain Python.

The rulebook in code, usable from a notebook::

    from zooanalysis.games.through_the_zoo import engine
    from zooanalysis.games.through_the_zoo.rules import ThroughTheZooSettings
    record = engine.play_game(ThroughTheZooSettings(), engine.lineup("planner,keep-all*3"))
    record.game_points, record.winners, record.round_points

One game, draw by draw on the game's random stream (the kernel follows it exactly):

1. Exhibit order: with ``exhibit_order = "shuffled"`` the Exhibit cards are shuffled
   (``rng.shuffle`` of the slots ``0 .. rounds-1``); round ``r`` plays slot ``order[r]``.
2. Every player shuffles their own deck (seat 0 first): ``DeckSpec().codes(first_copy=seat)``,
   so a card's copy is its owner's seat. The top of a deck is the END of its list.
3. Each round: every player draws ``hand_size`` cards from the top of their deck; Prepare,
   seat 0 first (the decisions are private, so their order does not matter): the strategy
   names up to ``limit`` hand cards (the Zoo's limit, at most the cards left in the deck),
   the player draws as many from the top, and then Zooklyn puts the mulliganed cards back
   and shuffles the deck (only when it mulliganed), Johannesburg puts them on top (in
   increasing code order, the last one on top) and never shuffles. Then the exhibit plays
   one round from the hands, starting at the Start Player card's holder, on the same stream
   (``exhibits.ExhibitResult``); the round's standings give game points
   (:func:`rules.round_points`); the played cards are out of the game; the Start Player
   card passes clockwise (to seat + 1).
4. After the last round, Johannesburg's meta scoring ranks the players by their Diamonds
   (fewest best) summed over the rounds' ``ExhibitResult.diamonds`` and gives game points
   by the same table. The most game points win; ties go to the better last round, then
   are shared (:func:`rules.final_standing`).

**Decisions** (``zooanalysis.decisions``; :func:`mulligan_options`): Through the Zoo's own
decisions are the Prepare mulligans, one per player and round, each a choice among every set
of at most ``limit`` hand cards (keeping the hand is one of them; with ``limit`` 0, in the
last round of a 52-card deck, it is forced). The card play inside an exhibit is not counted
here: those are the decisions of another game (Hearts, Big Two, Dodgeball ...), counted
and reported by that game's own runs, and adding them would mix several games' branching
into one number; so a Through the Zoo run's decision moves and branching factor describe
its Prepare choices only.

A mulligan strategy is any object with ``mulligan(observation, stream) -> codes``; it sees an
:class:`Observation`, which holds only what the deciding player may know. Card play inside
an exhibit uses that game's strategies (:class:`ExhibitSlot`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.deck import DeckSpec
from zooanalysis.cards.encoding import CODE_DTYPE, COPY_STRIDE, FACE_BITS
from zooanalysis.errors import SettingsError
from zooanalysis.games.exhibits import (
    ExhibitResult,
    exhibit_module,
    exhibits_for,
    play_players,
)
from zooanalysis.games.through_the_zoo.rules import (
    FEWEST_DIAMONDS,
    ThroughTheZooSettings,
    final_standing,
    round_points,
)
from zooanalysis.games.through_the_zoo.strategies import (
    STRATEGIES,
    exhibit_values,
    mulligan_decision,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup


class IllegalMoveError(RuntimeError):
    """A strategy chose something the rules do not allow."""


# --- the exhibits of a game ------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ExhibitSlot:
    """One Exhibit card of the game: its game, that game's settings with the card's
    exceptions, the card-play strategies per seat and the value table mulligans read."""

    name: str
    module: ModuleType
    settings: Any
    players: tuple[PlayerSpec, ...]
    values: np.ndarray

    def reference_strategies(self) -> list:
        """The exhibit game's strategy objects for its reference engine."""
        return self.module.reference_strategies(list(self.players))


def exhibit_slots(settings: ThroughTheZooSettings) -> list[ExhibitSlot]:
    """The game's Exhibit cards, in the order listed (``SettingsError`` naming
    ``exhibits`` or ``play.<game>`` for an exhibit that cannot be played)."""
    slots = []
    for name in settings.exhibit_cards:
        module = exhibit_module(name)
        try:
            game_settings = module.exhibit_settings(settings.players)
        except ValueError as error:
            playable = ", ".join(exhibits_for(settings.players))
            raise SettingsError("exhibits", f"{name!r}: {error}; exhibits for "
                                            f"{settings.players} players: {playable}") from None
        players = play_players(name, settings.play_lineup(name), settings.players)
        slots.append(ExhibitSlot(name, module, game_settings, tuple(players),
                                 exhibit_values(name)))
    return slots


# --- what a player sees ----------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """Everything a player may know when preparing, and nothing more.

    Public: the zoo, the Exhibit cards in round order (face up from the start), the round,
    the game points so far, who holds the Start Player card. Private: the own hand and the
    contents of the own deck (the player's cards neither in hand nor played; the order is
    hidden). Never: other players' hands or decks, or the own deck's order.
    """

    seat: int
    round_index: int
    zoo: str
    exhibits: tuple[str, ...]
    hand: tuple[int, ...]
    deck: tuple[int, ...]
    """The own deck's cards, sorted (their order is hidden)."""
    limit: int
    """How many cards may be mulliganed now."""
    game_points: tuple[int, ...]
    start_seat: int

    def future(self) -> tuple[np.ndarray, int]:
        """(summed value tables, count) of the exhibits a mulliganed card may come back
        for: Johannesburg the next round's, Zooklyn every later round's."""
        later = list(self.exhibits[self.round_index + 1:])
        if self.zoo == "johannesburg":
            later = later[:1]
        total = np.zeros(64, dtype=np.int64)
        for name in later:
            total += exhibit_values(name)
        return total, len(later)


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def mulligan(self, observation: Observation, stream: np.ndarray) -> Sequence[int]:
        """The hand cards (codes) to mulligan: at most ``observation.limit``."""


def observe(
    settings: ThroughTheZooSettings,
    seat: int,
    round_index: int,
    exhibits: tuple[str, ...],
    hands: Sequence[Sequence[int]],
    decks: Sequence[Sequence[int]],
    round_points: Sequence[Sequence[int]],
    start_seat: int,
) -> Observation:
    """What ``seat`` may know when preparing: its own hand and its own deck's contents
    (not the order), and the public facts."""
    players = settings.players
    return Observation(
        seat=seat, round_index=round_index, zoo=settings.zoo, exhibits=tuple(exhibits),
        hand=tuple(sorted(hands[seat])), deck=tuple(sorted(decks[seat])),
        limit=min(settings.mulligan, len(decks[seat]), len(hands[seat])),
        game_points=tuple(sum(p[s] for p in round_points) for s in range(players)),
        start_seat=start_seat,
    )


def _mask(codes: Sequence[int]) -> np.uint64:
    mask = 0
    for code in codes:
        mask |= 1 << (int(code) & FACE_BITS)
    return np.uint64(mask)


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in mulligan strategy (``keep-all``, ``random``, ``fit``, ``planner``)."""

    player: PlayerSpec

    def mulligan(self, observation: Observation, stream: np.ndarray) -> list[int]:
        """Ask the compiled strategy, from the observation alone."""
        future, future_rounds = observation.future()
        chosen = int(mulligan_decision(
            strategy_code(self.player), strategy_params(self.player), _mask(observation.hand),
            _mask(observation.deck), observation.limit,
            exhibit_values(observation.exhibits[observation.round_index]), future,
            future_rounds, stream,
        ))
        return [code for code in observation.hand if chosen >> (code & FACE_BITS) & 1]


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in mulligan strategies from a lineup string such as ``"planner,keep-all*3"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- a game ----------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """One game of Through the Zoo."""

    order: list[int]
    """The slot (index into ``settings.exhibit_cards``) each round played."""
    start_seats: list[int] = field(default_factory=list)
    results: list[ExhibitResult] = field(default_factory=list)
    round_points: list[list[int]] = field(default_factory=list)
    """Game points per round and seat (the meta scoring not included)."""
    mulligans: list[list[int]] = field(default_factory=list)
    """Cards each seat mulliganed, per round."""
    diamonds: list[int] = field(default_factory=list)
    meta_points: list[int] = field(default_factory=list)
    """Johannesburg's meta scoring game points (zeros without meta scoring)."""
    game_points: list[int] = field(default_factory=list)
    meta: bool = False
    """Whether the zoo has meta scoring (it is one more score check)."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every Prepare decision (:func:`mulligan_options`), round by
    round, seat 0 first (``zooanalysis.decisions``)."""
    standing: list[int] = field(default_factory=list)
    """The final standing (game points, then the last round): the best wins."""

    @property
    def winners(self) -> list[int]:
        """The seats with the best final standing (more than one: a shared victory)."""
        best = max(self.standing)
        return [seat for seat, value in enumerate(self.standing) if value == best]


def mulligan_options(held: int, limit: int) -> int:
    """The mulligans a player may choose: any set of at most ``limit`` of its ``held`` hand
    cards ("discard up to 13 cards from hand"; discarding none included)."""
    return sum(math.comb(held, count) for count in range(min(limit, held) + 1))


def _shuffle(cards: list[int], stream: np.ndarray) -> list[int]:
    array = np.array(cards, dtype=CODE_DTYPE)
    rng_module.shuffle(array, stream)
    return [int(code) for code in array]


def game_outcome(settings: ThroughTheZooSettings, record: GameRecord) -> None:
    """The end of the game, in one place: meta scoring, game points and the final standing."""
    players = settings.players
    totals = [sum(points[seat] for points in record.round_points) for seat in range(players)]
    record.meta_points = [0] * players
    record.meta = settings.meta == FEWEST_DIAMONDS
    if record.meta:
        record.meta_points = round_points([-d for d in record.diamonds], settings.points,
                                          settings.last_gets_zero)
    record.game_points = [t + m for t, m in zip(totals, record.meta_points, strict=True)]
    record.standing = final_standing(record.game_points, record.round_points[-1],
                                     settings.tie_break)


def play_game(
    settings: ThroughTheZooSettings,
    strategies: Sequence[Strategy],
    seed: int = 0,
    game_index: int = 0,
    slots: Sequence[ExhibitSlot] | None = None,
    exhibit_strategies: Sequence[Sequence] | None = None,
    check: bool = True,
) -> GameRecord:
    """Play one game; ``(seed, game_index)`` fixes every shuffle and random choice.

    ``slots`` are the Exhibit cards (default: :func:`exhibit_slots` of the settings);
    ``exhibit_strategies[slot]`` the card-play strategy objects of each (default: the
    slots' built-in ones). With ``check`` every card is accounted for after every step.
    """
    players = settings.players
    if len(strategies) != players:
        raise ValueError(f"{len(strategies)} strategies for {players} players")
    slots = list(slots) if slots is not None else exhibit_slots(settings)
    if exhibit_strategies is None:
        exhibit_strategies = [slot.reference_strategies() for slot in slots]
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    rounds = settings.rounds
    order = list(range(rounds))
    if settings.exhibit_order == "shuffled":
        order = [int(slot) for slot in _shuffled_order(rounds, stream)]
    decks = [_shuffle(list(DeckSpec().codes(first_copy=seat)), stream) for seat in range(players)]
    played: list[list[int]] = [[] for _ in range(players)]
    record = GameRecord(order=order, diamonds=[0] * players)
    names = tuple(settings.exhibit_cards[slot] for slot in order)
    start = settings.start_seat
    for round_index, slot_index in enumerate(order):
        slot = slots[slot_index]
        hands = []
        for seat in range(players):
            hands.append(sorted(decks[seat][-settings.hand_size:]))
            del decks[seat][-settings.hand_size:]
        mulligans = []
        for seat in range(players):
            observation = observe(settings, seat, round_index, names, hands, decks,
                                  record.round_points, start)
            limit = observation.limit
            record.decisions.append(mulligan_options(len(hands[seat]), limit))
            discard = sorted(int(code) for code in strategies[seat].mulligan(observation, stream))
            if len(discard) > limit or len(set(discard)) != len(discard) or any(
                code not in hands[seat] for code in discard
            ):
                raise IllegalMoveError(f"seat {seat}: mulligan {discard} with limit {limit}")
            if discard:
                drawn = decks[seat][len(decks[seat]) - len(discard):]
                del decks[seat][len(decks[seat]) - len(discard):]
                hands[seat] = sorted([c for c in hands[seat] if c not in discard] + drawn)
                if settings.shuffles_back:
                    decks[seat] = _shuffle(decks[seat] + discard, stream)
                else:
                    decks[seat] = decks[seat] + discard
            mulligans.append(len(discard))
        if check:
            _check_cards(hands, decks, played)
        result = slot.module.play_exhibit(
            slot.settings, [list(hand) for hand in hands], start, exhibit_strategies[slot_index],
            stream, settings.later_wins,
        )
        for seat in range(players):
            played[seat].extend(hands[seat])
            if result.diamonds:
                record.diamonds[seat] += result.diamonds[seat]
        record.start_seats.append(start)
        record.results.append(result)
        record.mulligans.append(mulligans)
        record.round_points.append(
            round_points(result.standing, settings.points, settings.last_gets_zero)
        )
        start = (start + 1) % players
    if settings.meta == FEWEST_DIAMONDS and not all(result.diamonds for result in record.results):
        raise RuntimeError("an exhibit reported no diamonds: Johannesburg cannot score it")
    game_outcome(settings, record)
    return record


def _shuffled_order(rounds: int, stream: np.ndarray) -> np.ndarray:
    order = np.arange(rounds, dtype=np.int64)
    rng_module.shuffle(order, stream)
    return order


def _check_cards(hands: list[list[int]], decks: list[list[int]], played: list[list[int]]) -> None:
    """Invariant: each player's 52 cards are in exactly one place (hand, deck or played),
    and a hand holds only its owner's cards, so never two identical faces."""
    for seat, (hand, deck, out) in enumerate(zip(hands, decks, played, strict=True)):
        cards = sorted(hand + deck + out)
        if cards != [int(code) for code in DeckSpec().codes(first_copy=seat)]:
            raise AssertionError(f"seat {seat}: card bookkeeping broken")
        if any(code // COPY_STRIDE != seat for code in hand):
            raise AssertionError(f"seat {seat}: a hand holds another player's card")
