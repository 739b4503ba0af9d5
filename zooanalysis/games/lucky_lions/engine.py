"""The Lucky Lions reference engine: the rules step by step, readable, for any Python strategy.

This is the specification in code (``docs/rules-decisions.md`` Lucky Lions #1-#13); the numba
kernel is tested to play exactly the same games. A game, in order of its random draws:

1. the Zoo Cards: a fresh print from the publisher's generator (``deck = "generated"``) or
   the fixed deck, then shuffled; the top ``market_size`` are laid face up;
2. the Animal Cards, shuffled; each player in seat order gets ``die_size`` of them (its die,
   in that order), the rest is the face-down draw pile;
3. turns, seat 1 (index 0) first, then clockwise, until someone has ``points_to_win`` points,
   no Zoo Card is left (most points win, ties all win) or ``turn_limit`` turns were played.

A turn: the active player picks a face-up Zoo Card and an opponent, the market is refilled,
then the battle (see :func:`play_turn`). Everything a strategy is asked is answered from an
:class:`Observation` of what that player may know, never from the state itself.

**Decisions** (``zooanalysis.decisions``; the record's ``decisions``): every time the rules
let a player choose is one decision, with its legal options counted as follows.

- The turn's pick (decision #21): a face-up Zoo Card and an opponent, one decision with
  :func:`pick_options` options: ``players - 1`` per card, or one for a card on which everyone
  rolls (Busy Zoo's people icon: the opponent takes no part).
- player_exclude (3+ players): any other player, ``players - 1``.
- A reduced die (variant, or a die_split card, when the die holds more than ``k`` cards):
  any ``k`` of the die's cards, ``C(die size, k)`` (:func:`subset_options`; two cards of
  one animal are distinct options, as everywhere in the decision counts).
- double_roll: keep the first or the second result, 2; a wild fox shown: reroll or not, 2;
  a wild panda off the card: switch to any face-up Zoo Card, the market's size.
- Two winners who can both discard: the active player picks the discarder, 2; the
  discarder picks any card of its die (it holds two or more), the die's size; three or
  more winners: the active player picks the receiver, their number.
- Draw-instead variant: the receiver takes the card or draws instead, 2.

Forced steps are no decisions and not counted: rolling, a tie in which only one battler can
discard (it discards), a whole die rolled (no reduced die), the powers that act by
themselves (wild lion, flamingo, dolphin).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from zooanalysis.games.lucky_lions import strategies as compiled
from zooanalysis.games.lucky_lions.cards import N_ANIMALS, SPECIAL_TYPES, ZooCard
from zooanalysis.games.lucky_lions.flat import (
    DIE_SPLIT,
    DOLPHIN,
    DOUBLE_ROLL,
    FLAMINGO,
    FOX,
    LION,
    N_TYPES,
    PANDA,
    PLAYER_EXCLUDE,
    card_from_row,
    card_rows,
)
from zooanalysis.games.lucky_lions.generator import generate_rows
from zooanalysis.games.lucky_lions.outcomes import card_winners
from zooanalysis.games.lucky_lions.rules import LuckySettings
from zooanalysis.games.lucky_lions.strategies import STRATEGIES, strategy_code, strategy_params
from zooanalysis.rng import below, game_stream, shuffle
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup
from zooanalysis.trajectory import count_lead_changes, settled_move, sole_leader

END_POINTS = 0
END_DECK = 1
END_TURN_LIMIT = 2
END_REASONS = ("points", "zoo_cards_ran_out", "turn_limit")

POWER_NAMES = ("lion_tie_win", "flamingo_tie_loss", "fox_reroll", "panda_switch", "dolphin_void")
"""Wild Animals powers, in the order their uses are counted."""
POWER_LION, POWER_FLAMINGO, POWER_FOX, POWER_PANDA, POWER_DOLPHIN = range(5)

RESULT_NAMES = ("won", "tied", "lost", "void")
"""A roller's battle result by the shown card: sole winner, among several winners, not a
winner, or a battle a wild dolphin voided."""
RESULT_WON, RESULT_TIED, RESULT_LOST, RESULT_VOID = range(4)

TIE_NAMES = ("discard", "nobody_could_discard", "three_or_more")
"""How a battle with several winners was settled."""


def wild(animal: int) -> int:
    """The Animal Card type of ``animal``'s Wild Animals card."""
    return animal + N_ANIMALS


# --- what a player may know --------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    Public: scores, every die's size, the face-up Zoo Cards, the active player, and ``seen``
    (``seen[q][t]`` = 1 if player ``q`` revealed type ``t`` since its last secret discard).
    Private: the player's own die as counts per type (not its order) and ``unseen``.
    """

    seat: int
    active: int
    die: tuple[int, ...]
    sizes: tuple[int, ...]
    scores: tuple[int, ...]
    seen: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]
    """Cards per type this player has never seen: all Animal Cards less its die, its own
    discards, the public discards and one per type seen in each other player's die."""
    market: tuple[ZooCard, ...]
    points_to_win: int
    busy_zoo: bool
    wild_animals: bool
    zoo_deck_left: int = 0
    """Face-down Zoo Cards left (public: the deck's height)."""
    battle_card: ZooCard | None = None
    """The Zoo Card of the battle being settled (public), None before the pick."""
    battlers: tuple[int, ...] = ()
    """The battle's rollers (public), the active player first; empty before the pick."""

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.sizes)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """(die, sizes, scores, seen, unseen, market rows) as the compiled strategies take them."""
        market = card_rows(list(self.market))
        if market.shape[0] == 0:
            market = np.zeros((1, market.shape[1]), dtype=np.int64)
        return (
            np.array(self.die, dtype=np.int64),
            np.array(self.sizes, dtype=np.int64),
            np.array(self.scores, dtype=np.int64),
            np.array(self.seen, dtype=np.int64),
            np.array(self.unseen, dtype=np.int64),
            market,
        )


class Strategy(Protocol):
    """What a player of the reference engine must answer (``rng`` is the game's stream)."""

    def choose_card(self, view: Observation, rng: np.ndarray) -> tuple[int, int]:
        """(index into ``view.market``, opponent seat)."""

    def choose_excluded(self, view: Observation, rng: np.ndarray) -> int:
        """player_exclude: the other player who does not roll."""

    def choose_subset(
        self, view: Observation, card: ZooCard, battlers: Sequence[int], k: int, rng: np.ndarray
    ) -> list[int]:
        """Reduced die: how many cards of each type to roll (``k`` in all)."""

    def choose_keep(
        self,
        view: Observation,
        card: ZooCard,
        battlers: Sequence[int],
        first: int,
        second: int,
        rng: np.ndarray,
    ) -> int:
        """double_roll: 0 keeps the first result, 1 the second."""

    def choose_reroll(self, view: Observation, winning: bool, rng: np.ndarray) -> bool:
        """Wild fox shown: reroll?"""

    def choose_switch(self, view: Observation, battlers: Sequence[int], rng: np.ndarray) -> int:
        """Wild panda off the card: which face-up Zoo Card to switch to."""

    def choose_discarder(self, view: Observation, first: int, second: int, rng: np.ndarray) -> int:
        """A tie (as the active player): which battler discards; the other wins the card."""

    def choose_receiver(self, view: Observation, winners: Sequence[int], rng: np.ndarray) -> int:
        """Three or more winners (as the active player): the index of the one who gets it."""

    def choose_discard(self, view: Observation, rng: np.ndarray) -> int:
        """Which card type to discard from the own die."""

    def choose_draw_instead(self, view: Observation, card: ZooCard, rng: np.ndarray) -> bool:
        """Draw-instead variant: refuse the won card and draw its points in Animal Cards?"""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``greedy``, ``equilibrium``) for the reference engine."""

    player: PlayerSpec

    @property
    def code(self) -> int:
        """The compiled dispatch code."""
        return strategy_code(self.player)

    def choose_card(self, view: Observation, rng: np.ndarray) -> tuple[int, int]:
        """Ask the compiled strategy, from the observation alone."""
        die, sizes, scores, seen, unseen, market = view.arrays()
        pick, opponent = compiled.choose_card(
            self.code, strategy_params(self.player), view.seat, market, len(view.market),
            die, sizes, scores, seen, unseen, view.busy_zoo, view.wild_animals, rng,
            compiled.new_strategy_workspace(),
        )
        return int(pick), int(opponent)

    def choose_excluded(self, view: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy, from the observation alone."""
        scores = np.array(view.scores, dtype=np.int64)
        return int(compiled.choose_excluded(self.code, view.seat, scores, rng))

    def choose_subset(
        self, view: Observation, card: ZooCard, battlers: Sequence[int], k: int, rng: np.ndarray
    ) -> list[int]:
        """Ask the compiled strategy, from the observation alone."""
        die, sizes, _, seen, unseen, _ = view.arrays()
        out = np.zeros(N_TYPES, dtype=np.int64)
        compiled.choose_subset(
            self.code, card_rows([card])[0], view.seat, np.array(battlers, dtype=np.int64),
            len(battlers), view.active, k, die, sizes, seen, unseen, view.wild_animals, rng, out,
            compiled.new_strategy_workspace(),
        )
        return [int(x) for x in out]

    def choose_keep(
        self,
        view: Observation,
        card: ZooCard,
        battlers: Sequence[int],
        first: int,
        second: int,
        rng: np.ndarray,
    ) -> int:
        """Ask the compiled strategy, from the observation alone."""
        die, sizes, _, seen, unseen, _ = view.arrays()
        return int(
            compiled.choose_keep(
                self.code,
                card_rows([card])[0],
                view.seat,
                np.array(battlers, dtype=np.int64),
                len(battlers),
                view.active,
                first,
                second,
                die,
                sizes,
                seen,
                unseen,
                view.wild_animals,
                rng,
                compiled.new_strategy_workspace(),
            )
        )

    def choose_reroll(self, view: Observation, winning: bool, rng: np.ndarray) -> bool:
        """Ask the compiled strategy, from the observation alone."""
        return bool(compiled.choose_reroll(self.code, winning, rng))

    def choose_switch(self, view: Observation, battlers: Sequence[int], rng: np.ndarray) -> int:
        """Ask the compiled strategy, from the observation alone."""
        die, sizes, _, seen, unseen, market = view.arrays()
        return int(
            compiled.choose_switch(
                self.code,
                view.seat,
                np.array(battlers, dtype=np.int64),
                len(battlers),
                view.active,
                market,
                len(view.market),
                die,
                sizes,
                seen,
                unseen,
                view.wild_animals,
                rng,
                compiled.new_strategy_workspace(),
            )
        )

    def choose_discarder(self, view: Observation, first: int, second: int, rng: np.ndarray) -> int:
        """Ask the compiled strategy, from the observation alone."""
        scores = np.array(view.scores, dtype=np.int64)
        return int(compiled.choose_discarder(self.code, view.seat, first, second, scores, rng))

    def choose_receiver(self, view: Observation, winners: Sequence[int], rng: np.ndarray) -> int:
        """Ask the compiled strategy, from the observation alone."""
        scores = np.array(view.scores, dtype=np.int64)
        seats = np.array(winners, dtype=np.int64)
        return int(compiled.choose_receiver(self.code, view.seat, seats, len(winners), scores, rng))

    def choose_discard(self, view: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy, from the observation alone."""
        die, _, _, _, unseen, market = view.arrays()
        return int(
            compiled.choose_discard(
                self.code, die, market, len(view.market), unseen, view.wild_animals, rng,
                np.zeros(2 * N_TYPES),
            )
        )

    def choose_draw_instead(self, view: Observation, card: ZooCard, rng: np.ndarray) -> bool:
        """Ask the compiled strategy, from the observation alone."""
        return bool(
            compiled.choose_draw_instead(
                self.code,
                strategy_params(self.player),
                card.points,
                view.scores[view.seat],
                view.points_to_win,
                sum(view.die),
                rng,
            )
        )


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"greedy,random,random"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- the game state ----------------------------------------------------------------------------


@dataclass
class Player:
    """One player's cards and points."""

    die: list[int]
    """Animal Card types; the order is the face-down pile's in the no-shuffle variant."""
    points: int = 0
    won: list[ZooCard] = field(default_factory=list)
    discarded: list[int] = field(default_factory=list)
    """Own secret discards (ties)."""
    reshuffled: bool = False
    """No-shuffle variant: the reshuffle at ``reshuffle_at_points`` is done."""


@dataclass
class GameRecord:
    """What happened in one game: enough for every table the kernel counts."""

    scores: list[int]
    winners: list[int]
    turns: int = 0
    end_reason: int = END_POINTS
    cards_won: list[int] = field(default_factory=list)
    battles: list[tuple[int, bool]] = field(default_factory=list)
    """Per battle: (the card's cycle size, whether it had several winners)."""
    rolls: list[tuple[int, int, int]] = field(default_factory=list)
    """Per shown card: (die size when rolled, shown type, result: 0 won, 1 tied, 2 lost)."""
    ties: list[int] = field(default_factory=list)
    """How each battle with several winners was settled (an index into TIE_NAMES)."""
    powers: list[int] = field(default_factory=list)
    """Wild Animals powers used (indices into POWER_NAMES)."""
    draws_instead: list[int] = field(default_factory=list)
    """Seats that refused a won card and drew Animal Cards instead."""
    checks: list[tuple[int, int]] = field(default_factory=list)
    """Score checks (after every score change): (0-based turn, sole leader or -1)."""
    lead_changes: int = 0
    settled_turn: int = -1
    """The first 0-based turn from which the single winner was sole leader at every score
    check (``zooanalysis.trajectory``); -1 without a single winner."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision, in the order taken (the module docstring lists
    them; ``zooanalysis.decisions``)."""


@dataclass
class GameState:
    """The whole game: everything on the table and in every hand."""

    settings: LuckySettings
    stream: np.ndarray
    zoo_deck: list[ZooCard]
    """Face-down Zoo Cards, top first."""
    market: list[ZooCard]
    pile: list[int]
    """Face-down Animal Cards, top first."""
    players: list[Player]
    seen: list[list[int]]
    public_discards: list[int]
    out_of_game: list[ZooCard] = field(default_factory=list)
    discard_pile: list[int] = field(default_factory=list)
    record: GameRecord | None = None
    battle_card: ZooCard | None = None
    """The Zoo Card of the battle being played (public), None between turns."""
    battlers: list[int] = field(default_factory=list)
    """That battle's rollers, the active player first."""

    @property
    def scores(self) -> list[int]:
        """Every player's points."""
        return [p.points for p in self.players]


def new_game(settings: LuckySettings, stream: np.ndarray) -> GameState:
    """Deal a game: Zoo Cards (generated or fixed, shuffled), market, Animal Cards, dice."""
    rows = generate_rows(settings.tables, stream) if settings.fresh_decks else settings.fixed_rows()
    order = np.arange(rows.shape[0], dtype=np.int64)
    shuffle(order, stream)
    deck = [card_from_row(rows[i]) for i in order]
    animals = settings.animal_cards()
    shuffle(animals, stream)
    size = settings.die_size
    players = [
        Player(die=[int(t) for t in animals[p * size : (p + 1) * size]])
        for p in range(settings.players)
    ]
    pile = [int(t) for t in animals[settings.players * size :]]
    market = deck[: settings.market_size]
    return GameState(
        settings=settings,
        stream=stream,
        zoo_deck=deck[settings.market_size :],
        market=market,
        pile=pile,
        players=players,
        seen=[[0] * N_TYPES for _ in range(settings.players)],
        public_discards=[0] * N_TYPES,
    )


def observe(state: GameState, seat: int, active: int) -> Observation:
    """What player ``seat`` may know, on ``active``'s turn."""
    me = state.players[seat]
    die = [0] * N_TYPES
    for t in me.die:
        die[t] += 1
    unseen = list(state.settings.animal_counts)
    for t in range(N_TYPES):
        unseen[t] -= die[t] + state.public_discards[t] + me.discarded.count(t)
        for q in range(len(state.players)):
            if q != seat:
                unseen[t] -= state.seen[q][t]
        unseen[t] = max(unseen[t], 0)
    return Observation(
        seat=seat,
        active=active,
        die=tuple(die),
        sizes=tuple(len(p.die) for p in state.players),
        scores=tuple(state.scores),
        seen=tuple(tuple(row) for row in state.seen),
        unseen=tuple(unseen),
        market=tuple(state.market),
        points_to_win=state.settings.points_to_win,
        busy_zoo=state.settings.busy_zoo,
        wild_animals=state.settings.wild_animals,
        zoo_deck_left=len(state.zoo_deck),
        battle_card=state.battle_card,
        battlers=tuple(state.battlers),
    )


# --- the die -----------------------------------------------------------------------------------


@dataclass
class Roller:
    """One battler during a battle: which die positions it rolls from, what it shows."""

    seat: int
    chosen: list[int]
    """Positions in the die it rolls from (all of them, or the reduced die)."""
    rolled: list[int] = field(default_factory=list)
    """Positions rolled so far this battle, in order."""
    shown: int = -1
    """The position of the card it shows now."""
    rerolled: bool = False


def roll(state: GameState, roller: Roller) -> int:
    """Roll a die: a uniformly random chosen card, or (no shuffle) the topmost chosen card not
    yet rolled this battle. Returns the position; the card is revealed to everyone."""
    if state.settings.no_shuffle:
        fresh = [p for p in roller.chosen if p not in roller.rolled]
        position = fresh[0] if fresh else roller.chosen[0]
    else:
        position = roller.chosen[below(state.stream, len(roller.chosen))]
    roller.rolled.append(position)
    card_type = state.players[roller.seat].die[position]
    state.seen[roller.seat][card_type] = 1
    return position


def choose_positions(die: list[int], counts: list[int]) -> list[int]:
    """Die positions for a reduced die given as counts per type: the topmost of each type."""
    left = list(counts)
    positions = []
    for position, card_type in enumerate(die):
        if left[card_type] > 0:
            left[card_type] -= 1
            positions.append(position)
    return positions


def to_bottom(player: Player, positions: list[int]) -> None:
    """No-shuffle variant: rolled cards go to the bottom of the die, in the order rolled."""
    order = list(dict.fromkeys(positions))
    moved = [player.die[p] for p in order]
    keep = [t for p, t in enumerate(player.die) if p not in order]
    player.die[:] = keep + moved


def reshuffle(state: GameState, player: Player) -> None:
    """Shuffle a die (no-shuffle variant: on reaching the points mark or gaining a card)."""
    cards = np.array(player.die, dtype=np.int64)
    shuffle(cards, state.stream)
    player.die[:] = [int(t) for t in cards]


def draw_animals(state: GameState, player: Player, count: int) -> int:
    """Draw up to ``count`` Animal Cards into a die (reshuffled after, without shuffle);
    returns how many were drawn."""
    drawn = min(count, len(state.pile))
    player.die.extend(state.pile[:drawn])
    del state.pile[:drawn]
    if drawn and state.settings.no_shuffle:
        reshuffle(state, player)
    return drawn


# --- decisions ---------------------------------------------------------------------------------


def pick_options(settings: LuckySettings, market: Sequence[ZooCard], players: int) -> int:
    """The turn's (Zoo Card, opponent) choices: ``players - 1`` opponents per face-up card,
    one for a card on which everyone rolls (Busy Zoo's people icon)."""
    return sum(1 if _everyone_rolls(settings, card) else players - 1 for card in market)


def subset_options(die_size: int, k: int) -> int:
    """The reduced dice a player may pick: any ``k`` of its ``die_size`` cards."""
    return math.comb(die_size, k)


def _decide(state: GameState, options: int) -> None:
    state.record.decisions.append(options)


# --- a turn ------------------------------------------------------------------------------------


def refill_market(state: GameState) -> None:
    """Lay Zoo Cards from the deck until the market is full again (or the deck is empty)."""
    while len(state.market) < state.settings.market_size and state.zoo_deck:
        state.market.append(state.zoo_deck.pop(0))


def _everyone_rolls(settings: LuckySettings, card: ZooCard) -> bool:
    return settings.busy_zoo and card.people


def _reduced_size(settings: LuckySettings, card: ZooCard) -> int:
    """k for the reduced die (variant, or a die_split card), 0 when the whole die rolls."""
    if settings.reduced_die or (settings.busy_zoo and card.special == SPECIAL_TYPES[DIE_SPLIT]):
        return len(card.cycle)
    return 0


def battlers_for(
    state: GameState, strategies: Sequence[Strategy], active: int, opponent: int, card: ZooCard
) -> list[int]:
    """Who rolls: the active player and its opponent, or (people icon, Busy Zoo) everyone from
    the active player clockwise, less the player a player_exclude card leaves out."""
    players = len(state.players)
    if not _everyone_rolls(state.settings, card):
        return [active, opponent]
    seats = [(active + step) % players for step in range(players)]
    if card.special == SPECIAL_TYPES[PLAYER_EXCLUDE] and players >= 3:
        view = observe(state, active, active)
        _decide(state, players - 1)
        excluded = strategies[active].choose_excluded(view, state.stream)
        if excluded == active or not 0 <= excluded < players:
            raise ValueError(f"seat {active} excluded seat {excluded}: pick another player")
        seats.remove(excluded)
    return seats


def start_rolls(
    state: GameState, strategies: Sequence[Strategy], active: int, card: ZooCard, seats: list[int]
) -> list[Roller]:
    """Every battler picks its reduced die (if any) and rolls (twice on double_roll cards)."""
    k = _reduced_size(state.settings, card)
    rollers = []
    for seat in seats:
        die = state.players[seat].die
        chosen = list(range(len(die)))
        if 0 < k < len(die):
            view = observe(state, seat, active)
            _decide(state, subset_options(len(die), k))
            counts = strategies[seat].choose_subset(view, card, seats, k, state.stream)
            check_subset(view, counts, k, seat)
            chosen = choose_positions(die, counts)
        rollers.append(Roller(seat=seat, chosen=chosen))
    double = state.settings.busy_zoo and card.special == SPECIAL_TYPES[DOUBLE_ROLL]
    for roller in rollers:
        first = roll(state, roller)
        roller.shown = first
        if double:
            second = roll(state, roller)
            die = state.players[roller.seat].die
            view = observe(state, roller.seat, active)
            _decide(state, 2)
            keep = strategies[roller.seat].choose_keep(
                view, card, seats, die[first], die[second], state.stream
            )
            roller.shown = second if keep == 1 else first
    return rollers


def check_subset(view: Observation, counts: Sequence[int], k: int, seat: int) -> None:
    """A reduced die must take ``k`` cards the player has."""
    if (
        len(counts) != N_TYPES
        or sum(counts) != k
        or any(c < 0 or c > have for c, have in zip(counts, view.die, strict=True))
    ):
        raise ValueError(f"seat {seat} chose {list(counts)} for a reduced die of {k} cards")


def shown_types(state: GameState, rollers: list[Roller]) -> list[int]:
    """The card type each roller shows."""
    return [state.players[r.seat].die[r.shown] for r in rollers]


def find_winners(state: GameState, card: ZooCard, rollers: list[Roller]) -> list[int]:
    """Indices (into ``rollers``) of the winners: the card's rule, then the wild lion and
    flamingo tie-breaks (decision #13)."""
    types = shown_types(state, rollers)
    winners = card_winners(card, [t % N_ANIMALS for t in types])
    if state.settings.wild_animals and len(winners) > 1:
        lions = [i for i in winners if types[i] == wild(LION)]
        flamingos = [i for i in winners if types[i] == wild(FLAMINGO)]
        if lions:
            winners = lions
        elif flamingos and len(flamingos) < len(winners):
            winners = [i for i in winners if types[i] != wild(FLAMINGO)]
    return winners


def play_turn(state: GameState, strategies: Sequence[Strategy], active: int) -> None:
    """One turn: pick a Zoo Card and an opponent, refill, battle, settle who gets the card."""
    record = state.record
    view = observe(state, active, active)
    _decide(state, pick_options(state.settings, state.market, len(state.players)))
    pick, opponent = strategies[active].choose_card(view, state.stream)
    if not 0 <= pick < len(state.market):
        raise ValueError(f"seat {active} picked Zoo Card {pick} of {len(state.market)}")
    if opponent == active or not 0 <= opponent < len(state.players):
        raise ValueError(f"seat {active} picked opponent {opponent}")
    card = state.market.pop(pick)
    refill_market(state)
    state.battle_card = card

    switched = False
    seats = battlers_for(state, strategies, active, opponent, card)
    state.battlers = list(seats)
    rollers = start_rolls(state, strategies, active, card, seats)
    while True:  # a wild panda switches the card once: judged afresh, or rolled afresh
        outcome = apply_powers(state, strategies, active, card, rollers, switched)
        if outcome == "switch":
            owner = next(r for r in rollers if _panda_off_card(state, card, r))
            view = observe(state, owner.seat, active)
            _decide(state, len(state.market))
            index = strategies[owner.seat].choose_switch(view, seats, state.stream)
            if not 0 <= index < len(state.market):
                raise ValueError(f"seat {owner.seat} switched to Zoo Card {index}")
            record.powers.append(POWER_PANDA)
            state.market[index], card = card, state.market[index]
            state.battle_card = card
            switched = True
            if state.settings.panda_switch == "reroll":  # the battle starts afresh
                _rolled_to_bottom(state, rollers)
                seats = battlers_for(state, strategies, active, opponent, card)
                state.battlers = list(seats)
                rollers = start_rolls(state, strategies, active, card, seats)
            continue  # "rejudge": the same shown animals, on the new card
        break

    record.battles.append((len(card.cycle), False))
    if outcome == "void":  # a wild dolphin: nobody wins, the card goes back face up
        record.powers.append(POWER_DOLPHIN)
        types = shown_types(state, rollers)
        for roller, card_type in zip(rollers, types, strict=True):
            record.rolls.append((len(state.players[roller.seat].die), card_type, RESULT_VOID))
        _rolled_to_bottom(state, rollers)
        _dolphins_leave(state, rollers, types)
        state.market.append(card)
        return

    winners = find_winners(state, card, rollers)
    types = shown_types(state, rollers)
    _count_wild_tie_breaks(state, card, rollers, winners)
    for i, roller in enumerate(rollers):
        result = (RESULT_WON if len(winners) == 1 else RESULT_TIED) if i in winners else RESULT_LOST
        record.rolls.append((len(state.players[roller.seat].die), types[i], result))
    if len(winners) > 1:
        record.battles[-1] = (len(card.cycle), True)
    _rolled_to_bottom(state, rollers)

    seats_won = [rollers[i].seat for i in winners]
    if len(seats_won) == 1:
        award(state, strategies, seats_won[0], card, active)
    elif len(seats_won) == 2:
        settle_tie(state, strategies, active, card, seats_won[0], seats_won[1])
    else:
        record.ties.append(2)
        view = observe(state, active, active)
        _decide(state, len(seats_won))
        index = strategies[active].choose_receiver(view, seats_won, state.stream)
        if not 0 <= index < len(seats_won):
            raise ValueError(f"seat {active} gave the card to winner {index} of {seats_won}")
        award(state, strategies, seats_won[index], card, active)


def _panda_off_card(state: GameState, card: ZooCard, roller: Roller) -> bool:
    card_type = state.players[roller.seat].die[roller.shown]
    on_card = PANDA in card.cycle or PANDA in card.special_animals
    return card_type == wild(PANDA) and not on_card


def apply_powers(
    state: GameState,
    strategies: Sequence[Strategy],
    active: int,
    card: ZooCard,
    rollers: list[Roller],
    switched: bool,
) -> str:
    """Wild Animals powers of the shown cards, in order (decision #13): a wild dolphin voids
    the battle; a wild panda off the card switches it (once per battle); each wild fox may
    reroll once, after which the checks run again. Returns "void", "switch" or "battle"."""
    if not state.settings.wild_animals:
        return "battle"
    while True:
        types = shown_types(state, rollers)
        if wild(DOLPHIN) in types:
            return "void"
        if not switched and state.market and any(_panda_off_card(state, card, r) for r in rollers):
            return "switch"
        rerolled = False
        for i, roller in enumerate(rollers):
            if types[i] != wild(FOX) or roller.rerolled:
                continue
            winning = i in find_winners(state, card, rollers)
            view = observe(state, roller.seat, active)
            _decide(state, 2)
            if strategies[roller.seat].choose_reroll(view, winning, state.stream):
                roller.rerolled = True
                roller.shown = roll(state, roller)
                state.record.powers.append(POWER_FOX)
                rerolled = True
                break
        if not rerolled:
            return "battle"


def _count_wild_tie_breaks(
    state: GameState, card: ZooCard, rollers: list[Roller], winners: list[int]
) -> None:
    if not state.settings.wild_animals:
        return
    types = shown_types(state, rollers)
    tied = card_winners(card, [t % N_ANIMALS for t in types])
    if len(tied) > 1 and len(winners) < len(tied):
        lion = any(types[i] == wild(LION) for i in tied)
        state.record.powers.append(POWER_LION if lion else POWER_FLAMINGO)


def _rolled_to_bottom(state: GameState, rollers: list[Roller]) -> None:
    if state.settings.no_shuffle:
        for roller in rollers:
            to_bottom(state.players[roller.seat], roller.rolled)


def _dolphins_leave(state: GameState, rollers: list[Roller], types: list[int]) -> None:
    """Each shown wild dolphin is discarded face up and its owner draws a new Animal Card
    (a player's last card stays when the pile is empty)."""
    for roller, card_type in zip(rollers, types, strict=True):
        player = state.players[roller.seat]
        if card_type != wild(DOLPHIN):
            continue
        if state.pile or len(player.die) > 1:
            if not state.settings.no_shuffle:
                position = player.die.index(wild(DOLPHIN))
            else:  # the shown dolphin went to the bottom
                position = len(player.die) - 1 - player.die[::-1].index(wild(DOLPHIN))
            del player.die[position]
            state.public_discards[wild(DOLPHIN)] += 1
            state.discard_pile.append(wild(DOLPHIN))
            state.seen[roller.seat][wild(DOLPHIN)] = 0
            draw_animals(state, player, 1)


def settle_tie(
    state: GameState,
    strategies: Sequence[Strategy],
    active: int,
    card: ZooCard,
    first: int,
    second: int,
) -> None:
    """Two winners: one discards (never its last card), the other wins the card; the active
    player decides who when both can discard (decision #7)."""
    can = [seat for seat in (first, second) if len(state.players[seat].die) > 1]
    if not can:
        state.record.ties.append(1)
        state.out_of_game.append(card)
        return
    state.record.ties.append(0)
    if len(can) == 2:
        view = observe(state, active, active)
        _decide(state, 2)
        discarder = strategies[active].choose_discarder(view, first, second, state.stream)
        if discarder not in (first, second):
            raise ValueError(f"seat {active} chose seat {discarder} to discard")
    else:
        discarder = can[0]
    discard(state, strategies, discarder, active)
    award(state, strategies, second if discarder == first else first, card, active)


def discard(state: GameState, strategies: Sequence[Strategy], seat: int, active: int) -> None:
    """A secret discard: the player picks a card type from its die (the topmost such card)."""
    player = state.players[seat]
    view = observe(state, seat, active)
    _decide(state, len(player.die))
    card_type = strategies[seat].choose_discard(view, state.stream)
    if card_type not in player.die:
        raise ValueError(f"seat {seat} discarded type {card_type}, which it does not hold")
    player.die.remove(card_type)
    player.discarded.append(card_type)
    state.discard_pile.append(card_type)
    state.seen[seat] = [0] * N_TYPES  # nobody knows which card went


def award(
    state: GameState, strategies: Sequence[Strategy], seat: int, card: ZooCard, active: int
) -> None:
    """The winner takes the Zoo Card and its points, or (draw-instead variant) refuses it and
    draws as many Animal Cards as its points."""
    settings = state.settings
    player = state.players[seat]
    if settings.draw_instead:
        view = observe(state, seat, active)
        _decide(state, 2)
        if strategies[seat].choose_draw_instead(view, card, state.stream):
            state.record.draws_instead.append(seat)
            return_refused(state, card)
            draw_animals(state, player, card.points)
            return
    player.points += card.points
    player.won.append(card)
    if (
        settings.no_shuffle
        and not player.reshuffled
        and player.points >= settings.reshuffle_at_points
    ):
        player.reshuffled = True
        reshuffle(state, player)
    note_leader(state)


def return_refused(state: GameState, card: ZooCard) -> None:
    """Draw instead: the refused Zoo Card goes to the bottom of the Zoo deck (the market is
    refilled from it if short, as after a pick), back face up to the market, or out of the
    game (``refused_zoo_card``, decision #10)."""
    where = state.settings.refused_zoo_card
    if where == "deck_bottom":
        state.zoo_deck.append(card)
        refill_market(state)
    elif where == "market":
        state.market.append(card)
    else:
        state.out_of_game.append(card)


def note_leader(state: GameState) -> None:
    """A score check after a score change: who leads alone now (-1: nobody)."""
    state.record.checks.append((state.record.turns, sole_leader(state.scores)))


# --- a whole game ------------------------------------------------------------------------------


def play_game(
    settings: LuckySettings, strategies: Sequence[Strategy], batch_seed: int, game_index: int
) -> GameRecord:
    """Play game ``game_index`` of the batch seeded ``batch_seed`` to its end."""
    if len(strategies) != settings.players:
        raise ValueError(f"{len(strategies)} strategies for {settings.players} players")
    state = new_game(settings, game_stream(batch_seed, game_index))
    record = GameRecord(scores=[], winners=[])
    state.record = record
    active = 0
    while True:
        if not state.market:
            record.end_reason = END_DECK
            break
        if record.turns >= settings.turn_limit:
            record.end_reason = END_TURN_LIMIT
            break
        play_turn(state, strategies, active)
        state.battle_card, state.battlers = None, []
        record.turns += 1
        check_every_card_once(state)
        if max(state.scores) >= settings.points_to_win:
            record.end_reason = END_POINTS
            break
        active = (active + 1) % settings.players
    record.scores = state.scores
    best = max(record.scores)
    record.winners = [seat for seat, points in enumerate(record.scores) if points == best]
    record.cards_won = [len(p.won) for p in state.players]
    turns = [turn for turn, _ in record.checks]
    leaders = [leader for _, leader in record.checks]
    record.lead_changes = count_lead_changes(leaders)
    if len(record.winners) == 1:
        record.settled_turn = settled_move(turns, leaders, record.winners[0])
    return record


def check_every_card_once(state: GameState) -> None:
    """Invariant: every Zoo Card and every Animal Card is in exactly one place."""
    zoo = len(state.zoo_deck) + len(state.market) + len(state.out_of_game)
    zoo += sum(len(p.won) for p in state.players)
    if zoo != state.settings.zoo_cards:
        raise AssertionError(f"{zoo} Zoo Cards in play, the deck has {state.settings.zoo_cards}")
    counts = [0] * N_TYPES
    for t in state.pile + state.discard_pile + [t for p in state.players for t in p.die]:
        counts[t] += 1
    if tuple(counts) != state.settings.animal_counts:
        raise AssertionError(f"Animal Cards {counts} != {state.settings.animal_counts}")
    for player in state.players:
        if not player.die:
            raise AssertionError("a die ran out of cards")
