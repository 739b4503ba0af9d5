"""The reference engine: Bluff in Zoo played step by step in plain Python.

This is the rulebook in code, written to be read and used from a notebook::

    from zooanalysis.games.bluff import engine, BluffSettings
    record = engine.play_game(BluffSettings(), engine.lineup("bayes,random,random"), seed=1)
    record.scores, record.events[:5]

A strategy is any object with ``choose_move(observation, rng)`` and
``choose_claim(observation, rng)`` (see :class:`Strategy`); it sees an
:class:`Observation`, which holds only what that player may know. The numba kernel
(``kernel.py``) must reproduce this engine exactly, game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.games.bluff.cards import CARD_NAMES, KINDS, N_CARD_TYPES, N_KINDS
from zooanalysis.games.bluff.policy_math import new_workspace
from zooanalysis.games.bluff.rules import BluffSettings, claim_beats, count_for_kind
from zooanalysis.games.bluff.strategies import (
    MOVE_DOUBT,
    MOVE_DRAW,
    MOVE_HAND,
    MOVE_NAMES,
    MOVE_NONE,
    NOBODY,
    STRATEGIES,
    TABLE_CLAIMANT,
    TABLE_EVIDENCE,
    TABLE_OTHERS,
    TABLE_OWN,
    TABLE_SIZE,
    TABLE_TARGET,
    choose_claim,
    choose_move,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

END_POINTS = 0
"""The game ended because a player reached ``points_to_end`` penalty points."""
END_DECK = 1
"""The game ended because the draw pile could not refill every hand."""
END_REASONS = ("points", "deck")


class IllegalMoveError(RuntimeError):
    """A strategy chose a move or claim the rules do not allow."""


@dataclass(frozen=True)
class Observation:
    """Everything the acting player may know, and nothing more.

    Public: pile and draw-pile sizes, the round's claims, every player's penalty points, the
    points that end the game, the deck's composition and the cards revealed by earlier
    doubts. Private: the player's own
    hand (in hand order) and the pile cards it placed this round (``known``).
    """

    seat: int
    players: int
    hand: tuple[int, ...]
    known: tuple[int, ...]
    """Counts per card type of the pile cards this player placed this round."""
    revealed: tuple[int, ...]
    """Counts per card type of all cards turned face up by earlier doubts."""
    deck_counts: tuple[int, ...]
    pile_size: int
    draw_pile_size: int
    claim_count: int
    """The standing claim's count, 0 before the round's first claim."""
    claim_kind: int
    """The standing claim's kind (0 = mouse ... 4 = elephant), -1 before the first claim."""
    claim_cap: int
    scores: tuple[int, ...]
    history: tuple[tuple[int, int, int, int], ...]
    """This round's claims so far as (seat, move, count, kind)."""
    points_to_end: int = 30
    """The penalty points that end the game (a rule setting, public)."""

    @property
    def first_move(self) -> bool:
        """Whether this is the round's first move (a card must be placed, claim one animal)."""
        return self.claim_count == 0

    def unseen(self) -> np.ndarray:
        """Counts per card type of the cards this player has never seen."""
        unseen = np.asarray(self.deck_counts, dtype=np.int64) - np.asarray(self.revealed)
        unseen -= np.asarray(self.known)
        for card in self.hand:
            unseen[card] -= 1
        return unseen


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_move(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """(move, hand index): move is one of MOVE_DOUBT, MOVE_HAND, MOVE_DRAW, MOVE_NONE."""

    def choose_claim(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """(count, kind) once the chosen card, if any, lies on the pile and is in ``known``."""


def public_table(observation: Observation) -> np.ndarray:
    """The public facts ``stakes`` reads (``strategies.TABLE_*``), from the observation.

    Its own, the claimant's (the player before) and the other opponents' fewest penalty
    points (``NOBODY`` with no other opponent), the points that end the game, and per kind
    the pile cards opponents placed from their hands this round with a claim of that kind.
    """
    table = np.zeros(TABLE_SIZE, dtype=np.int64)
    seat, players, scores = observation.seat, observation.players, observation.scores
    claimant = (seat - 1) % players
    table[TABLE_OWN] = scores[seat]
    table[TABLE_CLAIMANT] = scores[claimant]
    others = [scores[p] for p in range(players) if p not in (seat, claimant)]
    table[TABLE_OTHERS] = min(others) if others else NOBODY
    table[TABLE_TARGET] = observation.points_to_end
    for claimer, move, _, kind in observation.history:
        if claimer != seat and move == MOVE_HAND:
            table[TABLE_EVIDENCE + kind] += 1
    return table


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``bayes`` ...) for the reference engine."""

    player: PlayerSpec

    def _view(self, observation: Observation) -> tuple:
        return (
            np.asarray(observation.known, dtype=np.int64),
            observation.unseen(),
        )

    def choose_move(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """Ask the compiled strategy for a move, from the observation alone."""
        known, unseen = self._view(observation)
        move, index = choose_move(
            strategy_code(self.player),
            strategy_params(self.player),
            np.asarray(observation.hand, dtype=np.int64),
            len(observation.hand),
            known,
            unseen,
            observation.pile_size,
            observation.draw_pile_size,
            observation.claim_count,
            observation.claim_kind,
            observation.claim_cap,
            rng,
            new_workspace(),
            public_table(observation),
        )
        return int(move), int(index)

    def choose_claim(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """Ask the compiled strategy for a claim, from the observation alone."""
        known, unseen = self._view(observation)
        count, kind = choose_claim(
            strategy_code(self.player),
            strategy_params(self.player),
            known,
            unseen,
            observation.pile_size,
            observation.claim_count,
            observation.claim_kind,
            observation.claim_cap,
            rng,
            new_workspace(),
            public_table(observation),
        )
        return int(count), int(kind)


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"bayes:doubt=0.3,random,random"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


@dataclass
class GameState:
    """The full state of a game (hidden parts included); only the engine reads it."""

    settings: BluffSettings
    deck: np.ndarray
    """The shuffled deck; the draw pile is ``deck[draw_top:]``, its top card ``deck[draw_top]``."""
    draw_top: int
    hands: list[list[int]]
    pile: list[int] = field(default_factory=list)
    pile_owners: list[int] = field(default_factory=list)
    """The seat that placed each pile card (from its hand or the draw pile)."""
    penalty_cards: list[list[int]] = field(default_factory=list)
    revealed: np.ndarray = field(default_factory=lambda: np.zeros(N_CARD_TYPES, dtype=np.int64))
    round_index: int = 0
    moves: int = 0
    claim_count: int = 0
    claim_kind: int = -1
    claimant: int = -1
    history: list[tuple[int, int, int, int]] = field(default_factory=list)

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def draw_pile_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self.deck) - self.draw_top

    @property
    def scores(self) -> list[int]:
        """Penalty points: one per card taken."""
        return [len(cards) for cards in self.penalty_cards]

    @property
    def starting_player(self) -> int:
        """This round's starting player: seat 0 first, then the card passes to the left."""
        return self.round_index % self.players


@dataclass
class GameRecord:
    """What happened in one game: final scores, winners, length, end and every event."""

    scores: list[int]
    winners: list[int]
    rounds: int
    moves: int
    end_reason: int
    events: list[dict] = field(default_factory=list)
    claims: list[tuple[int, int, int, int, int, bool]] = field(default_factory=list)
    """Every claim as (seat, count, kind, move, pile size, true when made)."""
    doubts: list[tuple[int, int, int, int, int, bool, int]] = field(default_factory=list)
    """Every doubt as (doubter, claimant, count, kind, pile size, claim held, claimant move)."""
    score_checks: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """After every move that changed a score (a doubt): (move index from 0, penalty points)."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision, in order (``zooanalysis.decisions``): each move
    (:func:`move_options`; a forced doubt has one) and each claim (:func:`claim_options`)."""


def new_game(settings: BluffSettings, stream: np.ndarray) -> GameState:
    """Shuffle the deck with the game's stream and deal every player a hand.

    Rulebook: "Shuffle all cards except the starting player card. Each player draws five."
    Player 0 takes the first ``hand_size`` cards, player 1 the next, and so on.
    """
    deck = settings.deck.cards()
    rng_module.shuffle(deck, stream)
    hand_size = settings.hand_size
    hands = [
        [int(card) for card in deck[p * hand_size : (p + 1) * hand_size]]
        for p in range(settings.players)
    ]
    return GameState(
        settings=settings,
        deck=deck,
        draw_top=settings.players * hand_size,
        hands=hands,
        penalty_cards=[[] for _ in range(settings.players)],
    )


def observe(state: GameState, seat: int) -> Observation:
    """The observation of player ``seat``: its own cards and the public facts only."""
    known = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for card, owner in zip(state.pile, state.pile_owners, strict=True):
        if owner == seat:
            known[card] += 1
    return Observation(
        seat=seat,
        players=state.players,
        hand=tuple(state.hands[seat]),
        known=tuple(known.tolist()),
        revealed=tuple(state.revealed.tolist()),
        deck_counts=state.settings.deck.counts,
        pile_size=len(state.pile),
        draw_pile_size=state.draw_pile_size,
        claim_count=state.claim_count,
        claim_kind=state.claim_kind,
        claim_cap=state.settings.claim_cap,
        scores=tuple(state.scores),
        history=tuple(state.history),
        points_to_end=state.settings.points_to_end,
    )


def legal_moves(state: GameState, seat: int) -> list[int]:
    """The move types player ``seat`` may make now.

    The round's first move must place a card. Later a player may always doubt, and may
    place a card or none only while some claim can still best the standing one.
    """
    hand_available = len(state.hands[seat]) > 0
    draw_available = state.draw_pile_size > 0
    if state.claim_count == 0:
        return [m for m, ok in ((MOVE_HAND, hand_available), (MOVE_DRAW, draw_available)) if ok]
    moves = [MOVE_DOUBT]
    if can_raise(state):
        moves += [m for m, ok in ((MOVE_HAND, hand_available), (MOVE_DRAW, draw_available)) if ok]
        moves.append(MOVE_NONE)
    return moves


def move_options(moves: list[int], hand_size: int) -> int:
    """The options of a move: each hand card is one (``MOVE_HAND``), every other legal move
    type one."""
    return sum(hand_size if move == MOVE_HAND else 1 for move in moves)


def claim_options(claim_count: int, claim_kind: int, claim_cap: int) -> int:
    """The claims that best the standing one: the round's first claim is one animal of any
    kind; later the same count of a later kind, or any higher count up to the cap of any
    kind."""
    if claim_count == 0:
        return N_KINDS
    return (N_KINDS - 1 - claim_kind) + (claim_cap - claim_count) * N_KINDS


def can_raise(state: GameState) -> bool:
    """Whether any claim within the cap bests the standing claim."""
    return state.claim_count < state.settings.claim_cap or state.claim_kind < N_KINDS - 1


def play_round(
    state: GameState, strategies: Sequence[Strategy], stream: np.ndarray, record: GameRecord
) -> None:
    """Play one round, from the starting player's first card to the doubt that ends it."""
    seat = state.starting_player
    while True:
        moves = legal_moves(state, seat)
        record.decisions.append(move_options(moves, len(state.hands[seat])))
        if moves == [MOVE_DOUBT]:
            move, index = MOVE_DOUBT, -1  # nobody can raise any more: doubting is forced
        else:
            move, index = strategies[seat].choose_move(observe(state, seat), stream)
        if move not in moves:
            raise IllegalMoveError(f"seat {seat}: move {move!r} is not one of {moves}")
        state.moves += 1
        if move == MOVE_DOUBT:
            resolve_doubt(state, seat, record)
            return
        place_card(state, seat, move, index)
        record.decisions.append(
            claim_options(state.claim_count, state.claim_kind, state.settings.claim_cap)
        )
        count, kind = strategies[seat].choose_claim(observe(state, seat), stream)
        make_claim(state, seat, move, count, kind, record)
        seat = (seat + 1) % state.players


def place_card(state: GameState, seat: int, move: int, index: int) -> None:
    """Put a hand card (``index``) or the top draw-pile card face down on the pile.

    A hand card leaves the hand by taking the last hand card into its slot, so both engines
    keep hands in the same order. ``MOVE_NONE`` places nothing.
    """
    hand = state.hands[seat]
    if move == MOVE_HAND:
        if not 0 <= index < len(hand):
            raise IllegalMoveError(f"seat {seat}: hand index {index} with {len(hand)} cards")
        card = hand[index]
        hand[index] = hand[-1]
        hand.pop()
    elif move == MOVE_DRAW:
        card = int(state.deck[state.draw_top])
        state.draw_top += 1
    else:
        return
    state.pile.append(card)
    state.pile_owners.append(seat)


def make_claim(
    state: GameState, seat: int, move: int, count: int, kind: int, record: GameRecord
) -> None:
    """Check and record a claim; it must best the standing one (exactly 1 animal at first)."""
    first = state.claim_count == 0
    legal = (
        0 <= kind < N_KINDS
        and 1 <= count <= state.settings.claim_cap
        and (count == 1 if first else claim_beats(count, kind, state.claim_count, state.claim_kind))
    )
    if not legal:
        raise IllegalMoveError(
            f"seat {seat}: claim ({count}, {kind}) does not best "
            f"({state.claim_count}, {state.claim_kind})"
        )
    pile_counts = np.bincount(np.asarray(state.pile, dtype=np.int64), minlength=N_CARD_TYPES)
    true_now = count_for_kind(pile_counts, kind) >= count
    state.claim_count, state.claim_kind, state.claimant = count, kind, seat
    state.history.append((seat, move, count, kind))
    record.claims.append((seat, count, kind, move, len(state.pile), bool(true_now)))
    record.events.append(
        {
            "round": state.round_index,
            "seat": seat,
            "move": MOVE_NAMES[move],
            "claim": f"{count} {KINDS[kind]}",
            "pile_size": len(state.pile),
        }
    )


def resolve_doubt(state: GameState, doubter: int, record: GameRecord) -> None:
    """Turn the pile over and count the claimed kind; the loser takes the whole pile.

    Rulebook: "If their number is equal to or higher than the number claimed, the doubter
    must place all the cards in the discard pile in front of him/her. If their number is
    less than the claim, the player before you has lied and has to take all cards".
    """
    pile_counts = np.bincount(np.asarray(state.pile, dtype=np.int64), minlength=N_CARD_TYPES)
    found = count_for_kind(pile_counts, state.claim_kind)
    claim_holds = found >= state.claim_count
    loser = doubter if claim_holds else state.claimant
    claimant_move = state.history[-1][1]
    record.doubts.append(
        (
            doubter,
            state.claimant,
            state.claim_count,
            state.claim_kind,
            len(state.pile),
            bool(claim_holds),
            claimant_move,
        )
    )
    record.events.append(
        {
            "round": state.round_index,
            "seat": doubter,
            "move": "doubt",
            "pile": [CARD_NAMES[c] for c in state.pile],
            "found": found,
            "loser": loser,
            "penalty": len(state.pile),
        }
    )
    state.penalty_cards[loser].extend(state.pile)
    if state.pile:
        record.score_checks.append((state.moves - 1, tuple(state.scores)))
    state.revealed += pile_counts
    state.pile, state.pile_owners, state.history = [], [], []
    state.claim_count, state.claim_kind, state.claimant = 0, -1, -1


def refill_hands(state: GameState) -> bool:
    """Refill every hand to ``hand_size``, starting player first, clockwise.

    Returns False, dealing nothing, when the draw pile cannot fill every hand (the game
    ends: "the draw pile is depleted and not all players can fill up their hand to five").
    """
    hand_size = state.settings.hand_size
    needed = sum(hand_size - len(hand) for hand in state.hands)
    if needed > state.draw_pile_size:
        return False
    for offset in range(state.players):
        hand = state.hands[(state.starting_player + offset) % state.players]
        while len(hand) < hand_size:
            hand.append(int(state.deck[state.draw_top]))
            state.draw_top += 1
    return True


def play_game(
    settings: BluffSettings, strategies: Sequence[Strategy], seed: int = 0, game_index: int = 0
) -> GameRecord:
    """Play one whole game; ``(seed, game_index)`` fixes the shuffle and every random choice.

    The kernel plays game ``i`` of a batch with seed ``s`` exactly as
    ``play_game(settings, strategies, s, i)`` does.
    """
    if len(strategies) != settings.players:
        raise ValueError(f"{len(strategies)} strategies for {settings.players} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    state = new_game(settings, stream)
    record = GameRecord(scores=[], winners=[], rounds=0, moves=0, end_reason=-1)
    while True:
        play_round(state, strategies, stream, record)
        if max(state.scores) >= settings.points_to_end:
            record.end_reason = END_POINTS
            break
        if not refill_hands(state):
            record.end_reason = END_DECK
            break
        state.round_index += 1
    check_every_card_once(state)
    record.scores = state.scores
    best = min(record.scores)
    record.winners = [seat for seat, score in enumerate(record.scores) if score == best]
    record.rounds = state.round_index + 1
    record.moves = state.moves
    return record


def check_every_card_once(state: GameState) -> None:
    """Invariant: every card is in exactly one place (hand, draw pile, pile or penalty)."""
    places = [card for hand in state.hands for card in hand]
    places += [int(c) for c in state.deck[state.draw_top :]] + state.pile
    places += [card for cards in state.penalty_cards for card in cards]
    expected = state.settings.deck.type_counts()
    if not np.array_equal(
        np.bincount(np.asarray(places, dtype=np.int64), minlength=N_CARD_TYPES), expected
    ):
        raise AssertionError("card bookkeeping broken: a card is missing or doubled")
