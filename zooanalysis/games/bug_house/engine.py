"""The reference engine: Bug House Millionaire played in time, in plain Python.

This is the rulebook in code, written to be read and used from a notebook::

    from zooanalysis.games.bug_house import engine
    from zooanalysis.games.bug_house.rules import BugHouseSettings
    record = engine.play_game(BugHouseSettings(), engine.lineup("climber,fast,climber,fast"), 1)
    record.winner_team, engine.END_REASONS[record.reason], record.end_ms

A strategy is any object with ``choose_meld``, ``choose_gift``, ``thinking_ms`` and
``giving_ms`` (see :class:`Strategy`); it sees an :class:`Observation`, which holds only
what that player may know. Cards are integer codes (``zooanalysis.cards``: ``suit * 16 +
rank``; ``format_cards(..., numeric=True)`` prints them as ``"12H 0S"``). The numba kernel
(``kernel.py``) must reproduce this engine exactly, game by game.

**The game as a discrete-event simulation.** Seats (indices 0-3) sit as in ``rules.py``:
duel 0 is seat 0 against seat 1, duel 1 seat 2 against seat 3; partners are seats 0 & 2
(team 0) and 1 & 3 (team 1). Time is whole milliseconds from the start.

1. Shuffle the 64 cards and deal 16 to each seat (seat 0 the first block, ...). Every clock
   holds ``clock_seconds``. At time 0 both start players (seats 0 and 3) begin a turn.
2. A **turn** starts when a player's clock starts running: the player's strategy draws its
   thinking time for the decision (``thinking_ms``, or ``giving_ms`` for handing a card to
   the partner). The decision is made, with the state of that moment, when the time is up;
   if the time reaches the player's remaining clock first, the clock runs out at that
   instant instead. Only the player to move in each duel has a running clock.
3. The next event is the earliest of the two duels' (duel 0 first at equal times). At it
   the mover's clock is charged the time since its turn began, then:

   * **lead**: the player plays any legal meld (Delayed Singles: a single only with its
     team's Singles Allowed card, taking it if it is still on the table), hits its clock;
     the opponent's turn starts (follow);
   * **follow**: the player plays a meld that beats the top meld, or passes. A pass ends the
     trick: the other player won it. Its turn starts: it gives a card of the trick to its
     partner (``partner_passing``; the card goes into the partner's hand at once), then
     leads the next trick in a new turn on the same running clock;
   * a player with no legal lead (Delayed Singles, when only singles are left and the
     partner holds the card) is **stuck**: its clock runs until a card from its partner
     gives it a lead (a new turn starts then) or the clock runs out. The other duel goes on.

4. The game stops the moment a player plays its last card (its team wins: "shed out") or a
   clock runs out (the other team wins: "clock").

**Decisions** (``zooanalysis.decisions``; :func:`decision_options`): a decision is made when
a player's thinking time is up, with the state of that moment (a gift may have reached its
hand meanwhile). A lead chooses among the legal melds, a follow among the melds that beat
the top meld or passing, a gift among the cards of the won trick. Being stuck is no decision
(there is nothing to choose), nor are the thinking times (a player's pace, not a move of the
rules), nor a decision the game's end cut short (its time was not up).

Every turn draws one uniform for its time; the ``random`` strategy draws one more number
for its choice, when the time is up. Both engines make the draws in the same event order, so
the same seed gives the same game in either, in any batch or chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.bits import faces_in, mask_of
from zooanalysis.cards.deck import deal
from zooanalysis.cards.notation import format_cards
from zooanalysis.games.bug_house.melds import NONE, SINGLE, Meld, legal_melds, meld_of
from zooanalysis.games.bug_house.rules import (
    DUELS,
    SEATS,
    START_SEATS,
    TALK_NEED,
    TEAMS,
    BugHouseSettings,
    duel_of,
    opponent_of,
    partner_of,
    team_of,
)
from zooanalysis.games.bug_house.strategies import (
    STRATEGIES,
    choose_gift,
    choose_meld,
    give_ms,
    stated_need,
    strategy_code,
    strategy_params,
    think_ms,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

SHED, CLOCK = 0, 1
END_REASONS = ("shed_out", "clock")
"""How a game ended: a player played its last card (its team wins), or a clock ran out
(the other team wins)."""

LEAD, FOLLOW, GIVE, STUCK = 0, 1, 2, 3
PHASE_NAMES = ("lead", "follow", "give", "stuck")

SEAT_FIELDS = (
    "singles", "pairs", "runs", "cards_played", "passes", "tricks_won", "cards_given",
    "cards_received", "decisions", "stuck", "singles_card_taken", "clock_used_ms",
    "gifts_needed",
)
"""Per-seat counts of a game: melds played by kind, cards played, passes (declining to play
over), tricks won, cards given to and received from the partner, decisions made, times it
had no legal lead, took its team's Singles Allowed card, milliseconds its clock ran, gifts
that were among the cards the partner needed (``strategies.stated_need``)."""
(F_SINGLES, F_PAIRS, F_RUNS, F_CARDS, F_PASSES, F_TRICKS, F_GIVEN, F_RECEIVED, F_DECISIONS,
 F_STUCK, F_SINGLES_CARD, F_CLOCK_USED, F_GIFTS_NEEDED) = range(len(SEAT_FIELDS))
NO_HOLDER = -1


class IllegalMoveError(RuntimeError):
    """A strategy chose a meld or a gift the rules do not allow."""


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    Public: the time, every clock, every hand's size, the trick on the table in its own duel
    (cards played face up), who holds each team's Singles Allowed card. Private: its own
    hand, and what its partner said it needs (``partner_talk = "need"``; empty otherwise).
    Partners never see each other's hands.
    """

    seat: int
    phase: int
    """``LEAD``, ``FOLLOW`` or ``GIVE``."""
    time_ms: int
    hand: tuple[int, ...]
    top: Meld | None
    """The meld to beat (None when leading or giving)."""
    trick: tuple[int, ...]
    """The cards of the trick in its own duel (when giving: the trick it just won)."""
    hand_sizes: tuple[int, ...]
    clocks_ms: tuple[int, ...]
    """Every seat's remaining clock at ``time_ms``."""
    singles_holders: tuple[int, ...]
    """Delayed Singles: the seat holding each team's Singles Allowed card, or -1."""
    partner_need: tuple[int, ...]
    """The cards the partner said it needs (empty unless ``partner_talk = "need"``)."""
    settings: BugHouseSettings

    @property
    def may_lead_singles(self) -> bool:
        """Whether a single lead is allowed: always, or (Delayed Singles) with the team's
        card in front of the player or still on the table (leading a single takes it)."""
        if not self.settings.delayed_singles:
            return True
        return self.singles_holders[team_of(self.seat)] in (NO_HOLDER, self.seat)

    def legal_melds(self) -> list[Meld]:
        """The melds that may be played now, in the canonical order (``melds.py``)."""
        rules = self.settings
        return legal_melds(
            self.hand, self.top, rules.min_run, rules.longer_runs_beat, self.may_lead_singles
        )


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_meld(self, observation: Observation, rng: np.ndarray) -> Meld | None:
        """The meld to play, one of ``observation.legal_melds()``; None passes (following
        only)."""

    def choose_gift(self, observation: Observation, rng: np.ndarray) -> int:
        """The card of the won trick (``observation.trick``) to give the partner."""

    def thinking_ms(self, observation: Observation, options: int, rng: np.ndarray) -> int:
        """Milliseconds the coming decision takes (``options``: legal melds, plus one for
        passing when following); at least 1."""

    def giving_ms(self, observation: Observation, rng: np.ndarray) -> int:
        """Milliseconds handing a card to the partner takes; at least 1."""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``climber``, ``fast``) for the reference engine: the
    compiled decision functions, fed from the observation alone."""

    player: PlayerSpec

    @cached_property
    def params(self) -> np.ndarray:
        """The player's parameters as the one-row array the compiled strategies read."""
        return strategy_params(self.player)[None, :]

    @cached_property
    def code(self) -> int:
        """The compiled dispatch code."""
        return strategy_code(self.player)

    def choose_meld(self, observation: Observation, rng: np.ndarray) -> Meld | None:
        """Ask the compiled strategy for a meld (None: pass)."""
        rules = observation.settings
        top = observation.top
        opponent = observation.hand_sizes[opponent_of(observation.seat)]
        meld = choose_meld(
            self.code, self.params, 0, mask_of(observation.hand),
            NONE if top is None else top.kind, 0 if top is None else top.length,
            -1 if top is None else top.high, rules.min_run, rules.longer_runs_beat,
            observation.may_lead_singles, opponent, -1, rng,
        )[0]
        return meld_of(faces_in(meld)) if int(meld) else None

    def choose_gift(self, observation: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy which card to give."""
        return int(
            choose_gift(
                self.code, self.params, 0, mask_of(observation.trick),
                mask_of(observation.partner_need), rng,
            )
        )

    def thinking_ms(self, observation: Observation, options: int, rng: np.ndarray) -> int:
        """The thinking-time model (``strategies.think_ms``)."""
        distribution = observation.settings.distribution
        return int(think_ms(self.params, 0, options, distribution, rng))

    def giving_ms(self, observation: Observation, rng: np.ndarray) -> int:
        """The time to hand a card over (``strategies.give_ms``)."""
        return int(give_ms(self.params, 0, observation.settings.distribution, rng))


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"climber:base=1,fast*3"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- state and records ---------------------------------------------------------------------


@dataclass
class Duel:
    """One of the two duels: who is to move, in which phase, since when, until when."""

    index: int
    mover: int
    phase: int = LEAD
    turn_start: int = 0
    due: int = 0
    """When the pending decision is made, or the mover's clock runs out (``flag``)."""
    flag: bool = False
    top: Meld | None = None
    trick: list[int] = field(default_factory=list)


@dataclass
class GameState:
    """The full state of a game (hidden parts included); only the engine reads it."""

    settings: BugHouseSettings
    hands: list[set[int]]
    clocks: list[int]
    """Each seat's remaining milliseconds at the start of its current turn (a mover's clock
    is charged when its event comes)."""
    duels: list[Duel]
    singles_holders: list[int] = field(default_factory=lambda: [NO_HOLDER] * TEAMS)
    collected: list[int] = field(default_factory=list)
    """Cards of finished tricks not given to a partner (out of play)."""
    now: int = 0

    def clock_at(self, seat: int, now: int) -> int:
        """``seat``'s remaining clock at ``now``."""
        duel = self.duels[duel_of(seat)]
        if duel.mover == seat:
            return self.clocks[seat] - (now - duel.turn_start)
        return self.clocks[seat]


@dataclass
class GameRecord:
    """What happened in one game."""

    winner_team: int = -1
    reason: int = -1
    """``SHED`` or ``CLOCK`` (``END_REASONS``)."""
    ender: int = -1
    """The seat that shed out, or whose clock ran out."""
    end_ms: int = 0
    tricks: int = 0
    """Tricks finished in both duels."""
    seat_counts: list[list[int]] = field(
        default_factory=lambda: [[0] * len(SEAT_FIELDS) for _ in range(SEATS)]
    )
    cards_left: list[int] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)
    """After every finished trick (in time order): the team whose player closest to shedding
    out holds fewer cards than the other team's, or -1 if level."""
    events: list[tuple[int, int, str, str]] = field(default_factory=list)
    """(time ms, seat, what, cards) of every decision, in time order."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision taken, in time order (:func:`decision_options`,
    ``zooanalysis.decisions``)."""

    @property
    def points(self) -> list[int]:
        """1 for the seats of the winning team, 0 for the others."""
        return [int(team_of(seat) == self.winner_team) for seat in range(SEATS)]


# --- the rules step by step ----------------------------------------------------------------


def decision_options(phase: int, melds: int, trick_cards: int) -> int:
    """The legal options of a decision: a lead's ``melds`` legal melds, a follow's
    ``melds`` melds that beat the top meld plus passing, a gift's ``trick_cards`` cards of
    the trick it won ("picks any 1 card from the trick they just won")."""
    if phase == GIVE:
        return trick_cards
    return melds + (phase == FOLLOW)


def observe(state: GameState, seat: int, phase: int) -> Observation:
    """The observation of player ``seat`` now: its own cards and the public facts only."""
    duel = state.duels[duel_of(seat)]
    partner = partner_of(seat)
    need = ()
    if state.settings.talk == TALK_NEED:
        need = tuple(faces_in(stated_need(mask_of(state.hands[partner]), state.settings.min_run)))
    return Observation(
        seat=seat,
        phase=phase,
        time_ms=state.now,
        hand=tuple(sorted(state.hands[seat])),
        top=duel.top if phase == FOLLOW else None,
        trick=tuple(sorted(duel.trick)),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        clocks_ms=tuple(state.clock_at(s, state.now) for s in range(SEATS)),
        singles_holders=tuple(state.singles_holders),
        partner_need=need,
        settings=state.settings,
    )


def start_turn(
    state: GameState, duel: Duel, seat: int, phase: int, strategies: Sequence[Strategy],
    stream: np.ndarray, record: GameRecord,
) -> None:
    """``seat``'s clock starts running now for a decision of ``phase``: draw its thinking
    time and schedule the decision, or the clock running out if that comes first. A lead
    with no legal meld makes the player stuck until its clock runs out."""
    duel.mover, duel.phase, duel.turn_start = seat, phase, state.now
    clock = state.clocks[seat]
    observation = observe(state, seat, phase)
    if phase == GIVE:
        think = strategies[seat].giving_ms(observation, stream)
    else:
        options = len(observation.legal_melds())
        if phase == LEAD and options == 0:
            become_stuck(state, duel, seat, record)
            return
        think = strategies[seat].thinking_ms(observation, options + (phase == FOLLOW), stream)
    if think < 1:
        raise IllegalMoveError(f"seat {seat}: a decision must take at least 1 ms, not {think}")
    duel.flag = think >= clock
    duel.due = state.now + min(think, clock)


def become_stuck(state: GameState, duel: Duel, seat: int, record: GameRecord) -> None:
    """``seat`` must lead but has no legal meld (Delayed Singles: only singles, and its
    partner holds the team's card): its clock runs out unless its partner gives it a card
    that makes a lead (:func:`wake_partner`)."""
    duel.phase = STUCK
    duel.due, duel.flag = state.now + state.clocks[seat], True
    record.seat_counts[seat][F_STUCK] += 1


def play_meld(state: GameState, duel: Duel, seat: int, meld: Meld, record: GameRecord) -> None:
    """Move a meld from ``seat``'s hand onto the trick; count it; take the Singles Allowed
    card for a single lead (Delayed Singles)."""
    state.hands[seat] -= set(meld.cards)
    duel.trick.extend(meld.cards)
    if (
        duel.top is None
        and meld.kind == SINGLE
        and state.settings.delayed_singles
        and state.singles_holders[team_of(seat)] == NO_HOLDER
    ):
        state.singles_holders[team_of(seat)] = seat
        record.seat_counts[seat][F_SINGLES_CARD] += 1
    duel.top = meld
    counts = record.seat_counts[seat]
    counts[meld.kind] += 1  # F_SINGLES, F_PAIRS, F_RUNS are the kinds' indices
    counts[F_CARDS] += meld.length
    record.events.append((state.now, seat, "lead" if len(duel.trick) == meld.length else
                          "play", format_cards(meld.cards, numeric=True)))


def team_leader(hands: Sequence[set[int]]) -> int:
    """The team whose player closest to shedding out holds fewer cards, or -1 if level."""
    closest = [min(len(hands[seat]) for seat in range(SEATS) if team_of(seat) == team)
               for team in range(TEAMS)]
    if closest[0] == closest[1]:
        return -1
    return 0 if closest[0] < closest[1] else 1


def decide(
    state: GameState, duel: Duel, strategies: Sequence[Strategy], stream: np.ndarray,
    record: GameRecord,
) -> bool:
    """The mover of ``duel`` decides now (its thinking time is up). Returns True when the
    game is over (a player shed out)."""
    seat = duel.mover
    opponent = opponent_of(seat)
    counts = record.seat_counts[seat]
    observation = observe(state, seat, duel.phase)
    if duel.phase == LEAD and not observation.legal_melds():
        # Delayed Singles: the partner took the team's card while this player thought
        become_stuck(state, duel, seat, record)
        return False
    counts[F_DECISIONS] += 1
    legal = [] if duel.phase == GIVE else observation.legal_melds()
    record.decisions.append(decision_options(duel.phase, len(legal), len(observation.trick)))
    if duel.phase == GIVE:
        card = int(strategies[seat].choose_gift(observation, stream))
        if card not in duel.trick:
            raise IllegalMoveError(
                f"seat {seat}: {format_cards([card])} is not a card of the trick it won "
                f"({format_cards(duel.trick)})"
            )
        partner = partner_of(seat)
        if int(stated_need(mask_of(state.hands[partner]), state.settings.min_run)) >> card & 1:
            counts[F_GIFTS_NEEDED] += 1
        state.hands[partner].add(card)
        duel.trick.remove(card)
        state.collected.extend(duel.trick)
        duel.trick = []
        counts[F_GIVEN] += 1
        record.seat_counts[partner][F_RECEIVED] += 1
        record.events.append((state.now, seat, "give", format_cards([card], numeric=True)))
        wake_partner(state, partner, strategies, stream, record)
        start_turn(state, duel, seat, LEAD, strategies, stream, record)
        return False
    meld = strategies[seat].choose_meld(observation, stream)
    if meld is None:
        if duel.phase == LEAD:
            raise IllegalMoveError(f"seat {seat}: a leader must play a meld")
        counts[F_PASSES] += 1
        record.events.append((state.now, seat, "pass", ""))
        end_trick(state, duel, opponent, strategies, stream, record)
        return False
    if meld not in legal:
        raise IllegalMoveError(
            f"seat {seat}: {format_cards(meld.cards)} is not a legal meld now"
        )
    play_meld(state, duel, seat, meld, record)
    if not state.hands[seat]:
        return True
    start_turn(state, duel, opponent, FOLLOW, strategies, stream, record)
    return False


def end_trick(
    state: GameState, duel: Duel, winner: int, strategies: Sequence[Strategy],
    stream: np.ndarray, record: GameRecord,
) -> None:
    """A pass ended the trick: ``winner`` (the other player) won it. "The winner of the
    trick now picks any 1 card from the trick they just won and gives it over to their
    partner. They must give a card to their partner before they lead into their next
    trick." Without ``partner_passing`` the trick is collected and the winner leads."""
    record.seat_counts[winner][F_TRICKS] += 1
    record.tricks += 1
    record.leaders.append(team_leader(state.hands))
    duel.top = None
    if state.settings.partner_passing:
        start_turn(state, duel, winner, GIVE, strategies, stream, record)
        return
    state.collected.extend(duel.trick)
    duel.trick = []
    start_turn(state, duel, winner, LEAD, strategies, stream, record)


def wake_partner(
    state: GameState, partner: int, strategies: Sequence[Strategy], stream: np.ndarray,
    record: GameRecord,
) -> None:
    """A stuck partner whose new card gives it a lead starts a turn now (its clock has run
    since it got stuck)."""
    other = state.duels[duel_of(partner)]
    if other.phase != STUCK or other.mover != partner:
        return
    observation = observe(state, partner, LEAD)
    if not observation.legal_melds():
        return
    state.clocks[partner] -= state.now - other.turn_start
    start_turn(state, other, partner, LEAD, strategies, stream, record)


def deal_game(settings: BugHouseSettings, stream: np.ndarray) -> GameState:
    """Shuffle the 64 cards and deal them evenly, 16 each ("Shuffle and evenly deal all the
    playing cards"); every clock holds ``clock_seconds``."""
    hands, _ = deal(settings.deck.codes(), SEATS, settings.cards_per_player, stream)
    return GameState(
        settings=settings,
        hands=[set(hand) for hand in hands],
        clocks=[settings.clock_ms] * SEATS,
        duels=[Duel(index=d, mover=START_SEATS[d]) for d in range(DUELS)],
    )


def finish(state: GameState, record: GameRecord, reason: int, seat: int) -> None:
    """The game stops now: charge every running clock, record how it ended."""
    for duel in state.duels:
        state.clocks[duel.mover] -= state.now - duel.turn_start
        duel.turn_start = state.now
    record.reason, record.ender, record.end_ms = reason, seat, state.now
    record.winner_team = team_of(seat) if reason == SHED else 1 - team_of(seat)
    record.cards_left = [len(hand) for hand in state.hands]
    for s in range(SEATS):
        record.seat_counts[s][F_CLOCK_USED] = state.settings.clock_ms - state.clocks[s]


def play_game(
    settings: BugHouseSettings, strategies: Sequence[Strategy], seed: int = 0,
    game_index: int = 0, state_out: list | None = None,
) -> GameRecord:
    """Play one game; ``(seed, game_index)`` fixes the deal and every random draw. The kernel
    plays game ``i`` of a batch seeded ``s`` exactly as ``play_game(settings, strategies,
    s, i)`` does. ``state_out``, if given, receives the final :class:`GameState`."""
    if len(strategies) != SEATS:
        raise ValueError(f"{len(strategies)} strategies for {SEATS} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    state = deal_game(settings, stream)
    return play_from(state, strategies, stream, state_out)


def play_from(
    state: GameState, strategies: Sequence[Strategy], stream: np.ndarray,
    state_out: list | None = None,
) -> GameRecord:
    """Play a dealt game (``state`` at time 0, no turn started) to its end: hand-built
    positions start here."""
    record = GameRecord()
    for duel in state.duels:
        start_turn(state, duel, duel.mover, LEAD, strategies, stream, record)
    while True:
        duel = min(state.duels, key=lambda d: (d.due, d.index))
        state.now = duel.due
        seat = duel.mover
        if duel.flag:
            finish(state, record, CLOCK, seat)
            break
        state.clocks[seat] -= state.now - duel.turn_start
        duel.turn_start = state.now
        if decide(state, duel, strategies, stream, record):
            finish(state, record, SHED, seat)
            break
    check_every_card_once(state)
    if state_out is not None:
        state_out.append(state)
    return record


def check_every_card_once(state: GameState) -> None:
    """Invariant: every card of the deck is in exactly one place (a hand, a trick on the
    table, the collected tricks), and no clock is below zero."""
    places = [card for hand in state.hands for card in hand]
    places += [card for duel in state.duels for card in duel.trick]
    places += state.collected
    if sorted(places) != list(state.settings.deck.codes()):
        raise AssertionError("card bookkeeping broken: a card is missing or doubled")
    if min(state.clocks) < 0:
        raise AssertionError(f"a clock went below zero: {state.clocks}")

