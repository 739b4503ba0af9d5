"""The reference engine: Zoology played step by step in plain Python.

This is the rulebook in code, written to be read and used from a notebook::

    from zooanalysis.games.zoology import engine
    from zooanalysis.games.zoology.rules import ZoologySettings
    players = engine.lineup("curious*2,bayes*2")
    record = engine.play_game(ZoologySettings(players=4), players, seed=1)
    record.points, record.winners, record.events[:5]

A strategy is any object with ``choose_question(observation, rng)``, ``guess(observation,
rng, free)`` and ``gift(observation, rng)`` (see :class:`Strategy`); it sees an
:class:`Observation`, which holds only what that player may know: never its own animal. A
strategy that reads the votes itself (``hears`` true, as ``bounded`` and ``eliminator``) is
also called ``hear(observation, rng)`` right after every vote, in seat order.
The numba kernel (``kernel.py``) reproduces this engine exactly, game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.games.zoology.beliefs import (
    add_evidence,
    cast_votes,
    new_information_memo,
    posterior,
)
from zooanalysis.games.zoology.rules import ZoologySettings
from zooanalysis.games.zoology.strategies import (
    BOUNDED,
    MEMORY,
    MISREAD,
    STRATEGIES,
    choose_question,
    eliminate,
    gift_target,
    guess_now,
    misread_votes,
    new_work,
    own_information,
    perceives,
    pick_fewest,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

END_POINTS = 0
"""A player reached ``points_to_win``."""
END_ROUND_LIMIT = 1
"""``max_rounds`` rounds were played without a winner (most points win)."""
END_COOPERATIVE = 2
"""The cooperative game's single round is over (success or failure)."""
END_REASONS = ("points", "round_limit", "cooperative")

TRIGGER_CORRECT = 0
"""The second chance phase began because someone guessed right."""
TRIGGER_SUPPLY = 1
"""... because the last guess token was taken from the supply."""

PHASE_FREE = 0
"""A guess in a free-guess window (competitive, worth ``points_correct_guess``)."""
PHASE_SECOND = 1
"""A guess in the second chance phase, or in the cooperative guessing phase."""


class IllegalMoveError(RuntimeError):
    """A strategy chose a card, guess or gift the rules do not allow."""


@dataclass(frozen=True)
class Observation:
    """Everything player ``seat`` may know, and nothing more (its own animal is -1)."""

    seat: int
    settings: ZoologySettings
    round_index: int
    first_player: int
    hand: tuple[int, ...]
    seat_animals: tuple[int, ...]
    """Each seat's animal; ``seat_animals[seat]`` is -1 (a player never sees its own)."""
    neutrals: tuple[int, ...]
    removed: tuple[int, ...]
    """Animals under a wrong guess token on the board: nobody holds them."""
    board: tuple[int, ...]
    history: tuple[tuple[int, int, tuple[int, ...]], ...]
    """This round's questions as (asker, card, votes); a vote is a seat or players + k for
    neutral animal k."""
    tokens: tuple[int, ...]
    supply: int
    points: tuple[int, ...]
    done: tuple[bool, ...]
    """Who has guessed their animal this round."""

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.seat_animals)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(seat animals, neutral animals, board) as the arrays the compiled functions read."""
        return (
            np.asarray(self.seat_animals, dtype=np.int64),
            np.asarray(self.neutrals, dtype=np.int64),
            np.asarray(self.board, dtype=np.int64),
        )

    def removed_mask(self) -> np.ndarray:
        """Per animal: whether a wrong guess removed it."""
        mask = np.zeros(len(self.settings.animals), dtype=np.bool_)
        mask[list(self.removed)] = True
        return mask

    def excluded(self) -> np.ndarray:
        """Animals this player knows it does not hold: others', neutral and removed ones."""
        mask = self.removed_mask()
        for other, animal in enumerate(self.seat_animals):
            if other != self.seat:
                mask[animal] = True
        mask[list(self.neutrals)] = True
        return mask

    def likelihood(self, seat_animals: np.ndarray | None = None) -> np.ndarray:
        """Likelihood of every animal being this player's (a running product, not
        normalised), from the round's votes in order, as the kernel keeps it.

        ``seat_animals`` replaces :meth:`arrays`' seat animals (a test sets the player's
        own entry to show it is never read)."""
        settings = self.settings
        animals, neutrals, board = self.arrays()
        if seat_animals is not None:
            animals = seat_animals
        likelihood = np.ones(len(settings.animals), dtype=np.float64)
        for _, card, votes in self.history:
            add_evidence(
                likelihood,
                self.seat,
                card,
                animals,
                self.players,
                neutrals,
                len(neutrals),
                np.asarray(votes, dtype=np.int64),
                board,
                len(board),
                settings.weights,
            )
        return likelihood

    def beliefs(self) -> tuple[np.ndarray, int, float]:
        """(posterior over every animal, top animal, its probability) from the public votes."""
        board = np.asarray(self.board, dtype=np.int64)
        probs = np.zeros(len(self.settings.animals), dtype=np.float64)
        top, top_probability = posterior(
            self.likelihood(), board, len(board), self.excluded(), probs
        )
        return probs, int(top), float(top_probability)


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_question(self, observation: Observation, rng: np.ndarray) -> int:
        """Index into ``observation.hand`` of the card to play."""

    def guess(self, observation: Observation, rng: np.ndarray, free: bool) -> int:
        """An animal to guess; in a free-guess window (``free``) -1 means "not now"."""

    def gift(self, observation: Observation, rng: np.ndarray) -> int:
        """Cooperative: the teammate (seat) who gets one leftover token, or -1 for none."""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``bayes``, ``curious``, ``team``, ``bounded``, ``eliminator``) for
    the reference engine.

    ``bounded`` and ``eliminator`` read the votes themselves (:attr:`hears`): the engine calls
    :meth:`hear` right after each vote, and the strategy keeps the round's votes as it read
    them in ``heard`` (its private memory; misreads are drawn then, as the kernel does)."""

    player: PlayerSpec
    heard: list = field(default_factory=list, compare=False, repr=False)

    @property
    def hears(self) -> bool:
        """Whether the strategy reads (and may misread and forget) the votes itself."""
        return bool(perceives(strategy_code(self.player)))

    def hear(self, observation: Observation, rng: np.ndarray) -> None:
        """Read the latest question's votes (the last entry of the round's history)."""
        if len(observation.history) == 1:  # a new round: nothing heard yet
            self.heard.clear()
        votes = np.asarray(observation.history[-1][2], dtype=np.int64)
        reading = np.zeros(observation.players, dtype=np.int64)
        misread_votes(
            strategy_params(self.player)[MISREAD],
            observation.seat,
            votes,
            observation.players,
            len(observation.neutrals),
            rng,
            reading,
        )
        self.heard.append(reading)

    def choose_question(
        self, observation: Observation, rng: np.ndarray, seat_animals: np.ndarray | None = None
    ) -> int:
        """Ask the compiled strategy which card to play, from the observation alone.

        ``seat_animals`` replaces :meth:`Observation.arrays`' seat animals (a test sets the
        player's own entry to show it is never read)."""
        settings = observation.settings
        probs, _, _ = observation.beliefs()
        animals, neutrals, board = observation.arrays()
        if seat_animals is not None:
            animals = seat_animals
        index = choose_question(
            strategy_code(self.player),
            strategy_params(self.player),
            observation.seat,
            np.asarray(observation.hand, dtype=np.int64),
            len(observation.hand),
            animals,
            observation.players,
            neutrals,
            len(neutrals),
            probs,
            observation.removed_mask(),
            board,
            len(board),
            settings.scores,
            settings.weights,
            rng,
            new_work(len(settings.animals)),
            new_information_memo(0, 0, board),  # empty: computed directly, no lookups
        )
        return int(index)

    def guess(self, observation: Observation, rng: np.ndarray, free: bool) -> int:
        """The posterior's top animal; in a free window only once it reaches the threshold.
        ``bounded`` and ``eliminator``: from the votes they remember (:meth:`recalled_guess`)."""
        if self.hears:
            return self.recalled_guess(observation, rng, free)
        _, top, top_probability = observation.beliefs()
        if free and not guess_now(
            strategy_code(self.player), strategy_params(self.player), top_probability
        ):
            return -1
        return top

    def remembered(self, observation: Observation) -> tuple[np.ndarray, np.ndarray, int]:
        """(the round's cards, the votes as this player read them, the first one it still
        remembers): the last ``memory`` questions."""
        if len(self.heard) != len(observation.history):
            raise RuntimeError("the engine did not let this strategy hear every vote")
        cards = np.array([card for _, card, _ in observation.history], dtype=np.int64)
        heard = np.array(self.heard, dtype=np.int64).reshape(len(cards), observation.players)
        memory = int(strategy_params(self.player)[MEMORY])
        return cards, heard, max(0, len(cards) - memory)

    def recalled_guess(
        self,
        observation: Observation,
        rng: np.ndarray,
        free: bool,
        seat_animals: np.ndarray | None = None,
    ) -> int:
        """The guess of ``bounded`` (its posterior of the remembered votes) or ``eliminator``
        (at random among the animals with fewest strikes); -1 is "not now" in a free window.
        ``seat_animals``: as in :meth:`choose_question`."""
        settings = observation.settings
        code = strategy_code(self.player)
        params = strategy_params(self.player)
        animals, neutrals, board = observation.arrays()
        if seat_animals is not None:
            animals = seat_animals
        cards, heard, first = self.remembered(observation)
        excluded = observation.excluded()
        if code == BOUNDED:
            likelihood = np.ones(len(settings.animals), dtype=np.float64)
            for t in range(first, len(cards)):
                add_evidence(
                    likelihood,
                    observation.seat,
                    cards[t],
                    animals,
                    observation.players,
                    neutrals,
                    len(neutrals),
                    heard[t],
                    board,
                    len(board),
                    settings.weights,
                )
            probs = np.zeros(len(settings.animals), dtype=np.float64)
            top, top_probability = posterior(likelihood, board, len(board), excluded, probs)
            if free and not guess_now(code, params, top_probability):
                return -1
            return int(top)
        strikes = np.zeros(len(settings.animals), dtype=np.int64)
        fewest, count = eliminate(
            observation.seat,
            cards,
            heard,
            first,
            len(cards),
            animals,
            observation.players,
            neutrals,
            len(neutrals),
            excluded,
            board,
            len(board),
            settings.scores,
            params[3],
            strikes,
        )
        if count == 0 or (free and count > params[0]):
            return -1
        return int(pick_fewest(strikes, fewest, count, excluded, board, len(board), rng))

    def gift(self, observation: Observation, rng: np.ndarray) -> int:
        """The teammate still guessing with fewest tokens."""
        return int(
            gift_target(
                observation.seat,
                observation.players,
                np.asarray(observation.tokens, dtype=np.int64),
                np.asarray(observation.done, dtype=np.bool_),
            )
        )


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"curious:guess=0.9,bayes"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


@dataclass
class GameState:
    """The full state of a game (hidden parts included); only the engine reads it."""

    settings: ZoologySettings
    players: int
    board: np.ndarray
    draw_pile: list[int]
    discard: list[int]
    hands: list[list[int]]
    points: list[int]
    round_index: int = 0
    turns: int = 0
    seat_animals: list[int] = field(default_factory=list)
    neutrals: list[int] = field(default_factory=list)
    animal_deck: list[int] = field(default_factory=list)
    """The round's undealt animal cards (unused in play, kept for the bookkeeping check)."""
    removed: list[int] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    supply: int = 0
    done: list[bool] = field(default_factory=list)
    history: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    over: bool = False

    @property
    def first_player(self) -> int:
        """This round's first player: seat 0, then the token passes clockwise."""
        return self.round_index % self.players

    def turn_order(self) -> list[int]:
        """Seats in turn order from the round's first player."""
        return [(self.first_player + step) % self.players for step in range(self.players)]


@dataclass
class GameRecord:
    """What happened in one game, in the kernel's terms, plus readable events."""

    players: int
    points: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    standing: list[int] = field(default_factory=list)
    """Where each seat finished (:func:`standings`; competitive games): the best wins."""
    rounds: int = 0
    turns: int = 0
    end_reason: int = -1
    success: bool = False
    """Cooperative: every player guessed their animal."""
    events: list[dict] = field(default_factory=list)
    questions: list[tuple[int, float, bool]] = field(default_factory=list)
    """Every card played as (card, asker's expected information in nats, no Champion); the
    information is 0.0 unless the settings' ``question_information`` is on."""
    guesses: list[tuple[int, int, int, int, bool, bool]] = field(default_factory=list)
    """Every guess as (seat, true animal, guessed animal, phase, correct, first of the
    player's round)."""
    holdings: list[tuple[int, bool, bool, int]] = field(default_factory=list)
    """Every (player, round): (animal, guessed at all, found, wrong guesses)."""
    points_from: list[list[int]] = field(default_factory=list)
    """Per seat: [points from free guesses, points from second chance]."""
    triggers: list[int] = field(default_factory=list)
    """Per competitive round that reached it: what started the second chance phase."""
    window_right: list[int] = field(default_factory=list)
    """Per free-guess window with a right guess: how many right guesses scored in it."""
    lead_changes: int = 0
    """How often the sole leader changed to another player (the first is no change)."""
    leader: int = -1
    """The last sole leader (-1: none yet)."""
    last_not_leading: list[int] = field(default_factory=list)
    """Per seat: turns played at the last score change after which it was not the sole
    leader (-1: none). A change with t turns played happens at turn index t - 1."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision, in order (``zooanalysis.decisions``): a
    question (the cards in hand), a free-guess window (not now, or any
    :func:`guess_options` animal), a second chance or cooperative guess (any of them), a
    gift (none, or any teammate still guessing)."""


def new_game(settings: ZoologySettings, players: int, stream: np.ndarray) -> GameState:
    """Shuffle the question deck (less the cards void on these boards, ``settings.deck``) and
    deal every player a hand (seat 0 first)."""
    deck = settings.deck()
    rng_module.shuffle(deck, stream)
    size = settings.hand_size
    hands = [[int(c) for c in deck[s * size : (s + 1) * size]] for s in range(players)]
    return GameState(
        settings=settings,
        players=players,
        board=settings.board(),
        draw_pile=[int(c) for c in deck[players * size :]],
        discard=[],
        hands=hands,
        points=[0] * players,
    )


def deal_round(state: GameState, stream: np.ndarray) -> None:
    """Shuffle all animal cards of the boards and deal one to each seat, then the neutrals."""
    animals = state.board.copy()
    rng_module.shuffle(animals, stream)
    players = state.players
    n_neutrals = state.settings.neutrals_for(players)
    state.seat_animals = [int(a) for a in animals[:players]]
    state.neutrals = [int(a) for a in animals[players : players + n_neutrals]]
    state.animal_deck = [int(a) for a in animals[players + n_neutrals :]]
    state.removed = []
    state.tokens = [0] * players
    state.supply = state.settings.tokens_for(players)
    state.done = [False] * players
    state.history = []
    state.played = []


def observe(state: GameState, seat: int) -> Observation:
    """Player ``seat``'s view: everything public and its hand, with its own animal hidden."""
    animals = list(state.seat_animals)
    animals[seat] = -1
    return Observation(
        seat=seat,
        settings=state.settings,
        round_index=state.round_index,
        first_player=state.first_player,
        hand=tuple(state.hands[seat]),
        seat_animals=tuple(animals),
        neutrals=tuple(state.neutrals),
        removed=tuple(state.removed),
        board=tuple(int(a) for a in state.board),
        history=tuple(state.history),
        tokens=tuple(state.tokens),
        supply=state.supply,
        points=tuple(state.points),
        done=tuple(state.done),
    )


def draw_question(state: GameState, seat: int, stream: np.ndarray) -> None:
    """Draw the top question card; an empty deck is first refilled from the shuffled discards."""
    if not state.draw_pile and state.discard:
        cards = np.asarray(state.discard, dtype=np.int64)
        rng_module.shuffle(cards, stream)
        state.draw_pile = [int(c) for c in cards]
        state.discard = []
    if state.draw_pile:
        state.hands[seat].append(state.draw_pile.pop(0))


def ask_question(
    state: GameState,
    asker: int,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    record: GameRecord,
) -> None:
    """One turn: play a card, everyone votes, the Champion (if any) is known; replenish."""
    settings = state.settings
    view = observe(state, asker)
    record.decisions.append(len(state.hands[asker]))
    index = strategies[asker].choose_question(view, stream)
    hand = state.hands[asker]
    if not 0 <= index < len(hand):
        raise IllegalMoveError(f"seat {asker}: card index {index} with {len(hand)} cards")
    card = hand[index]
    hand[index] = hand[-1]
    hand.pop()
    information = 0.0  # measured only when asked (``question_information``)
    if settings.question_information:
        probs, _, _ = view.beliefs()
        information = _own_information(view, card, probs)
    votes = np.zeros(state.players, dtype=np.int64)
    champion = cast_votes(
        card,
        np.asarray(state.seat_animals, dtype=np.int64),
        state.players,
        np.asarray(state.neutrals, dtype=np.int64),
        len(state.neutrals),
        settings.weights,
        stream,
        votes,
    )
    state.history.append((asker, card, tuple(int(v) for v in votes)))
    for seat, strategy in enumerate(strategies):  # players who read the votes themselves
        if getattr(strategy, "hears", False):
            strategy.hear(observe(state, seat), stream)
    state.played.append(card)
    record.questions.append((card, information, champion < 0))
    record.events.append(
        {
            "round": state.round_index,
            "turn": state.turns,
            "asker": asker,
            "question": settings.questions[card].text,
            "votes": [_target_name(state, int(v)) for v in votes],
            "champion": _target_name(state, int(champion)) if champion >= 0 else None,
        }
    )
    draw_question(state, asker, stream)
    if state.supply > 0:
        state.supply -= 1
        state.tokens[asker] += 1
    state.turns += 1


def _own_information(view: Observation, card: int, probs: np.ndarray) -> float:
    settings = view.settings
    animals, neutrals, board = view.arrays()
    return float(
        own_information(
            card,
            view.seat,
            animals,
            view.players,
            neutrals,
            len(neutrals),
            probs,
            board,
            len(board),
            settings.scores,
            settings.weights,
            new_work(len(settings.animals)),
        )
    )


def _target_name(state: GameState, target: int) -> str:
    ids = state.settings.animals.ids
    if target < state.players:
        return f"seat {target} ({ids[state.seat_animals[target]]})"
    return f"neutral ({ids[state.neutrals[target - state.players]]})"


def check_guess(state: GameState, seat: int, animal: int) -> None:
    """A guess must be an animal on the board that the guesser cannot see or rule out, and
    the guesser needs a token ("You MUST NOT place a guess token on animals held by other
    players")."""
    visible = {a for s, a in enumerate(state.seat_animals) if s != seat} | set(state.neutrals)
    if animal in visible or animal in state.removed or animal not in set(state.board.tolist()):
        raise IllegalMoveError(f"seat {seat}: cannot guess animal {animal}")
    if state.tokens[seat] < 1:
        raise IllegalMoveError(f"seat {seat}: guesses without a token")


def guess_options(state: GameState, seat: int) -> int:
    """The animals ``seat`` may guess (:func:`check_guess`): on the board, not held by
    another player or neutral, not removed."""
    visible = {a for s, a in enumerate(state.seat_animals) if s != seat} | set(state.neutrals)
    return len(set(state.board.tolist()) - visible - set(state.removed))


def place_guess(
    state: GameState,
    seat: int,
    animal: int,
    phase: int,
    record: GameRecord,
    guessed: list[bool],
) -> bool:
    """Put a guess token on ``animal`` (checked beforehand with :func:`check_guess`): right,
    or the animal is removed for everyone. ``guessed[seat]`` (whether ``seat`` has guessed
    this round) is read for the record and then set."""
    first = not guessed[seat]
    guessed[seat] = True
    state.tokens[seat] -= 1
    correct = animal == state.seat_animals[seat]
    if not correct and animal not in state.removed:
        state.removed.append(animal)
    record.guesses.append((seat, state.seat_animals[seat], animal, phase, correct, first))
    record.events.append(
        {
            "round": state.round_index,
            "turn": state.turns,
            "seat": seat,
            "guess": state.settings.animals.ids[animal],
            "correct": correct,
            "phase": "free" if phase == PHASE_FREE else "second chance",
        }
    )
    return correct


def score(state: GameState, awards: list[tuple[int, int, int]], record: GameRecord) -> None:
    """Give points (seat, points, source 0 free / 1 second chance) as one score change, track
    the sole leader, and end the game when someone reaches ``points_to_win``."""
    for seat, points, source in awards:
        state.points[seat] += points
        record.points_from[seat][source] += points
    best = max(state.points)
    leaders = [s for s, p in enumerate(state.points) if p == best]
    leader = leaders[0] if len(leaders) == 1 else -1
    if leader >= 0:
        if record.leader >= 0 and record.leader != leader:
            record.lead_changes += 1
        record.leader = leader
    for seat in range(state.players):
        if seat != leader:
            record.last_not_leading[seat] = state.turns
    if best >= state.settings.points_to_win:
        state.over = True
        record.end_reason = END_POINTS


def race_order(state: GameState, asker: int) -> list[int]:
    """Who is quickest in the free-guess window after ``asker``'s turn: the player whose turn
    comes next, then clockwise; the asker, who has just replenished, last."""
    return [(asker + step) % state.players for step in range(1, state.players + 1)]


def simultaneous(settings: ZoologySettings, stream: np.ndarray) -> bool:
    """Whether the next ready guesser puts its token down at the same moment as the one
    before it (``simultaneous_guess_chance``; one draw, none when the chance is 0 or 1)."""
    chance = settings.simultaneous_guess_chance
    if chance <= 0.0 or chance >= 1.0:
        return chance >= 1.0
    return bool(rng_module.uniform(stream) < chance)


def free_guess_window(
    state: GameState,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    record: GameRecord,
    guessed: list[bool],
    asker: int,
) -> bool:
    """The guesses after ``asker``'s turn: a race. Everyone with a token decides at once, on
    the same board; the tokens go down in :func:`race_order`. The first right guess ends the
    window (the second chance starts); each later ready guesser still gets its token down at
    the same moment with ``simultaneous_guess_chance`` (a chain: the first one who is not
    simultaneous, and everyone after, keeps its token). Every right guess placed scores
    ``points_correct_guess``. Returns whether someone was right."""
    wanted = []
    for seat in race_order(state, asker):
        if state.tokens[seat] > 0:
            record.decisions.append(1 + guess_options(state, seat))
            animal = strategies[seat].guess(observe(state, seat), stream, True)
            if animal >= 0:
                wanted.append((seat, animal))
    for seat, animal in wanted:
        check_guess(state, seat, animal)  # all decided on the same board
    winners = []
    for seat, animal in wanted:
        if winners and not simultaneous(state.settings, stream):
            break  # too late: a right guess is on the board, the second chance begins
        if place_guess(state, seat, animal, PHASE_FREE, record, guessed):
            winners.append(seat)
    for seat in winners:
        state.done[seat] = True
    if winners:
        record.window_right.append(len(winners))
        score(state, [(s, state.settings.points_correct_guess, 0) for s in winners], record)
    return bool(winners)


def guess_in_turn(
    state: GameState,
    seat: int,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    record: GameRecord,
    guessed: list[bool],
) -> bool:
    """A second chance or cooperative guess: ``seat`` must place a token; returns whether it
    was right (then ``seat`` is done for the round)."""
    record.decisions.append(guess_options(state, seat))
    animal = strategies[seat].guess(observe(state, seat), stream, False)
    check_guess(state, seat, animal)
    correct = place_guess(state, seat, animal, PHASE_SECOND, record, guessed)
    if correct:
        state.done[seat] = True
    return correct


def second_chance(
    state: GameState,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    record: GameRecord,
    guessed: list[bool],
) -> None:
    """In turn order, everyone still guessing places one token, until all pass."""
    while not state.over:
        anyone = False
        for seat in state.turn_order():
            if state.done[seat] or state.tokens[seat] == 0:
                continue
            anyone = True
            if guess_in_turn(state, seat, strategies, stream, record, guessed):
                score(state, [(seat, state.settings.points_second_chance, 1)], record)
                if state.over:
                    return
        if not anyone:
            return


def cooperative_guessing(
    state: GameState,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    record: GameRecord,
    guessed: list[bool],
) -> bool:
    """Guess in turn order until everyone is right (success) or someone runs out (failure)."""
    while True:
        for seat in state.turn_order():
            if state.done[seat]:
                continue
            if state.tokens[seat] == 0:
                return False
            if guess_in_turn(state, seat, strategies, stream, record, guessed):
                if all(state.done):
                    return True
                if state.tokens[seat] > 0 and state.settings.gift_token:
                    record.decisions.append(
                        1 + sum(1 for s, done in enumerate(state.done) if s != seat and not done)
                    )
                    mate = strategies[seat].gift(observe(state, seat), stream)
                    if mate >= 0:
                        if state.done[mate] or mate == seat:
                            raise IllegalMoveError(f"seat {seat}: cannot give a token to {mate}")
                        state.tokens[mate] += 1
                state.tokens[seat] = 0
            elif state.tokens[seat] == 0:
                return False


def play_round(
    state: GameState, strategies: Sequence[Strategy], stream: np.ndarray, record: GameRecord
) -> None:
    """One round: deal, questions (with free-guess windows), then the guessing phase."""
    settings = state.settings
    deal_round(state, stream)
    guessed = [False] * state.players
    wrong_before = len(record.guesses)
    turn = 0
    trigger = -1
    while True:
        asker = (state.first_player + turn) % state.players
        ask_question(state, asker, strategies, stream, record)
        turn += 1
        if state.supply == 0:
            trigger = TRIGGER_SUPPLY
            break
        window_open = not settings.guess_after_first_turns or turn >= state.players
        if settings.cooperative or not window_open:
            continue
        if free_guess_window(state, strategies, stream, record, guessed, asker):
            trigger = TRIGGER_CORRECT
            break
    if settings.cooperative:
        record.success = cooperative_guessing(state, strategies, stream, record, guessed)
    else:
        if not state.over:
            record.triggers.append(trigger)
            second_chance(state, strategies, stream, record, guessed)
    for seat in range(state.players):
        mine = [g for g in record.guesses[wrong_before:] if g[0] == seat]
        record.holdings.append(
            (
                state.seat_animals[seat],
                bool(mine),
                state.done[seat],
                sum(1 for g in mine if not g[4]),
            )
        )
    check_every_card_once(state)


def end_round(state: GameState, stream: np.ndarray) -> None:
    """Played cards go to the discards, hands are topped up (first player first), and the
    first player token passes on."""
    state.discard.extend(state.played)
    state.played = []
    for seat in state.turn_order():
        while len(state.hands[seat]) < state.settings.hand_size and (
            state.draw_pile or state.discard
        ):
            draw_question(state, seat, stream)
    state.round_index += 1


def play_game(
    settings: ZoologySettings,
    strategies: Sequence[Strategy],
    seed: int = 0,
    game_index: int = 0,
) -> GameRecord:
    """Play one whole game; ``(seed, game_index)`` fixes every shuffle, vote and choice.

    The kernel plays game ``i`` of a batch with seed ``s`` exactly as
    ``play_game(settings, strategies, s, i)`` does. The player count is the lineup's.
    """
    players = len(strategies)
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    state = new_game(settings, players, stream)
    record = GameRecord(
        players=players,
        points_from=[[0, 0] for _ in range(players)],
        last_not_leading=[-1] * players,
    )
    while True:
        play_round(state, strategies, stream, record)
        if settings.cooperative:
            record.end_reason = END_COOPERATIVE
            break
        if state.over:
            break
        if state.round_index + 1 >= settings.max_rounds:
            record.end_reason = END_ROUND_LIMIT
            break
        end_round(state, stream)
    record.points = list(state.points)
    record.rounds = state.round_index + 1
    record.turns = state.turns
    if settings.cooperative:
        record.winners = list(range(players)) if record.success else []
    else:
        record.standing = standings(settings, state.points)
        best = max(record.standing)
        record.winners = [s for s, p in enumerate(record.standing) if p == best]
    return record


def standings(settings: ZoologySettings, points: Sequence[int]) -> list[int]:
    """Where each seat finishes: the best standing wins, ties all win.

    With ``winners = "reached"`` (the rulebook) every player at ``points_to_win`` or more
    stands at ``points_to_win``: the game ends the moment someone reaches it, so they all
    reached it in the same score change (a window of simultaneous right guesses), and "All
    those players take 2 victory point tokens ... This is the only situation that may lead to
    a share of victory!". With ``"most_points"`` the standing is the points."""
    if settings.winners != "reached":
        return list(points)
    return [min(p, settings.points_to_win) for p in points]


def check_every_card_once(state: GameState) -> None:
    """Invariant: every question card and every animal card is in exactly one place."""
    questions = [c for hand in state.hands for c in hand] + state.draw_pile + state.discard
    questions += state.played
    if sorted(questions) != state.settings.deck().tolist():
        raise AssertionError("question bookkeeping broken: a card is missing or doubled")
    animals = state.seat_animals + state.neutrals + state.animal_deck
    if sorted(animals) != sorted(int(a) for a in state.board):
        raise AssertionError("animal bookkeeping broken: a card is missing or doubled")
