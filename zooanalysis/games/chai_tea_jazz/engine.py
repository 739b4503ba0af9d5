"""The reference engine: Chai Tea Jazz played step by step in plain Python.

This is the rulebook in code, written to be read and used from a notebook::

    from zooanalysis.games.chai_tea_jazz import engine
    from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings
    record = engine.play_game(ChaiSettings(), engine.lineup("tracker,greedy,random"), 1)
    record.points, record.rounds[0].declarer, record.rounds[0].score

A strategy is any object with ``choose_pick``, ``choose_offer``, ``choose_accept`` and
``choose_card`` (see :class:`Strategy`); it sees an :class:`Observation`, which holds only
what that player may know. Cards are integer codes (``zooanalysis.cards``: ``copy * 128 +
suit * 16 + rank``, the ace is rank 1, ``JOKER`` = 64; ``format_cards`` prints them). The
numba kernel (``kernel.py``) must reproduce this engine exactly, game by game.

A game, as the rulebook has it (3 players; the other counts are settings):

1. Every round: shuffle, deal (2 players: a hand, straw piles of a face-up card on a
   face-down one, 2 cards set aside). The Barrel holder starts the Picking phase.
2. Picking: in turn from the Barrel holder, each player who has not passed passes (for the
   rest of the phase) or picks an option (a contract it has not completed, played one way);
   after a first pick, a pick must differ from the current bid and raise the Bet Debt in the
   card's steps. The phase ends when everyone but the current bidder has passed; if
   everyone passed, the Barrel holder must pick (Passing the Barrel: or offer points to
   whoever takes the Barrel instead). The last to pick is the declarer.
3. Trick-taking: the declarer leads; must follow, may trump (trump led must be followed);
   the strongest card under the contract wins; the winner leads the next trick.
4. Scoring: the declarer's side scores the points on the cards it won, 10 for the last
   trick, less the Bet Debt (plus an accepted offer). When every side has completed a row,
   the row is scored: the best score gains the row's game points, the worst loses them;
   ties go to whoever completed the row first.
5. The Barrel passes to the next player whose side has contracts left; after every side has
   played every contract, the most game points win (ties: who finished first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.deck import deal
from zooanalysis.cards.encoding import JOKER, NO_SUIT, Card
from zooanalysis.cards.follow import JOKER_ANY_TIME, MAY_TRUMP, legal_cards
from zooanalysis.cards.hands import hand_from_codes
from zooanalysis.cards.notation import format_cards
from zooanalysis.cards.orders import STRENGTH, UP, direction_for_trick
from zooanalysis.cards.tricks import winning_position
from zooanalysis.games.chai_tea_jazz.evaluation import hand_faces_and_jokers, hand_value, way_values
from zooanalysis.games.chai_tea_jazz.layout import layout
from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings, debt_amounts, offer_amounts
from zooanalysis.games.chai_tea_jazz.strategies import (
    PASS,
    RANDOM,
    STRATEGIES,
    choose_accept,
    choose_card,
    choose_offer,
    choose_pick,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

FORCED, UNCONTESTED, BET, OFFERED = 0, 1, 2, 3
HOW_NAMES = ("forced", "uncontested", "bet", "offer")
"""How a round's contract was decided: everybody passed and the Barrel holder had to pick;
the first pick stood with no Bet Debt; a pick with Bet Debt (a raise) stood; a player took
the Barrel holder's offer (Passing the Barrel)."""
PICK, OFFER, ACCEPT, CARD = "pick", "offer", "accept", "card"
PLAY, TURN_UP = 0, 1
"""Kinds of public events in a round's history: a card played, a straw-pile card turned up."""


class IllegalMoveError(RuntimeError):
    """A strategy chose a pick, an offer or a card the rules do not allow."""


# --- the paper pad ---------------------------------------------------------------------------


@dataclass
class Pad:
    """The paper pad (public): every side's score and completion order for every row."""

    sides: int
    rows: int
    done: list[list[bool]] = field(default_factory=list)
    score: list[list[int]] = field(default_factory=list)
    order: list[list[int]] = field(default_factory=list)
    """The round in which the side completed the row (-1: not yet)."""
    debt: list[list[int]] = field(default_factory=list)
    """The Bet Debt the side's declarer took on for the row."""
    game_points: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    """The round in which the side completed its last row (-1: not yet)."""

    def __post_init__(self) -> None:
        self.done = [[False] * self.rows for _ in range(self.sides)]
        self.score = [[0] * self.rows for _ in range(self.sides)]
        self.order = [[-1] * self.rows for _ in range(self.sides)]
        self.debt = [[0] * self.rows for _ in range(self.sides)]
        self.game_points = [0] * self.sides
        self.finished = [-1] * self.sides

    def rows_left(self, side: int) -> int:
        """Rows ``side`` has still to play."""
        return self.done[side].count(False)

    def row_complete(self, row: int) -> bool:
        """Whether every side has completed ``row``."""
        return all(self.done[side][row] for side in range(self.sides))


def row_places(settings: ChaiSettings, pad: Pad, row: int) -> list[int]:
    """The sides of a complete row from first place to last: 'the player who scored the most
    points' first (Avoidance: the fewest), and 'If there is a tie in any way, the tied player
    who finished the contract earliest gets the higher position'."""
    sign = 1 if settings.contracts[row].avoid else -1
    return sorted(range(pad.sides), key=lambda s: (sign * pad.score[s][row], pad.order[s][row]))


def score_row(settings: ChaiSettings, pad: Pad, row: int) -> list[int]:
    """Game points each side gets from a complete row: 'the player who scored the most points
    gets game points equal to the positive value of the contract. The player who did the
    worst gets game points equal to the negative value ... The middle player gets zero'
    (the table ``settings.place_points``, which also holds the meta contract 'second place')."""
    gained = [0] * pad.sides
    for place, side in enumerate(row_places(settings, pad, row)):
        gained[side] = int(settings.place_points[row, place])
    return gained


def side_standings(settings: ChaiSettings, pad: Pad) -> list[int]:
    """What decides the game, per side, higher better: game points, or with the meta
    contract Cumulative the total of every score on the board (negated when the least
    wins)."""
    if settings.cumulative == "off":
        return list(pad.game_points)
    totals = [sum(pad.score[side]) for side in range(pad.sides)]
    return totals if settings.cumulative == "most" else [-total for total in totals]


def outcome(settings: ChaiSettings, pad: Pad) -> tuple[int, bool]:
    """(the winning side, whether the tie-break decided it): 'the player with the most game
    points wins!! If tied, the player who finished all their contracts first wins.' (A side
    that has not finished counts as finishing last.)"""
    standings = side_standings(settings, pad)
    best = max(standings)
    tied = [side for side in range(pad.sides) if standings[side] == best]
    if len(tied) == 1:
        return tied[0], False
    late = 1 << 30
    return min(tied, key=lambda s: pad.finished[s] if pad.finished[s] >= 0 else late), True


# --- what a player sees ---------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    Public: the rules, the Barrel holder, the pad (every row's scores and completion order,
    game points), this Picking phase's bids and passes, the declarer and the contract as
    declared, every card played this round and every straw-pile card turned up (in order),
    the face-up straw-pile cards, tricks won. Private: the player's own hand. Not: other
    hands, face-down straw-pile cards (not even its own), the set-aside cards.
    """

    seat: int
    settings: ChaiSettings
    phase: str
    round_index: int
    barrel: int
    hand: tuple[int, ...]
    """The player's hand (straw piles apart), codes in increasing order."""
    straw_up: tuple[tuple[int, ...], ...]
    """Every seat's face-up straw-pile cards, pile by pile (-1: no face-up card)."""
    straw_down: tuple[tuple[bool, ...], ...]
    """Whether a face-down card lies in each pile of each seat."""
    pad_done: tuple[tuple[bool, ...], ...]
    pad_score: tuple[tuple[int, ...], ...]
    pad_order: tuple[tuple[int, ...], ...]
    game_points: tuple[int, ...]
    bids: tuple[tuple[int, int, int], ...] = ()
    """This phase's decisions in order: (seat, option or ``PASS``, Bet Debt)."""
    bidder: int = -1
    bid: int = -1
    debt: int = 0
    legal_options: tuple[int, ...] = ()
    """Picks: the options this player may pick now (indices of ``settings.options``)."""
    amounts: tuple[int, ...] = ()
    """Picks: the Bet Debts it may take on (``(0,)`` when nobody has picked); offers: the
    amounts it may offer."""
    forced: bool = False
    offer: int = 0
    """Accepting: the points offered; offering: the current offer (0: none); a pick after
    accepting: the points the taker will add."""
    declarer: int = -1
    option: int = -1
    trick_index: int = 0
    leader: int = -1
    trick: tuple[int, ...] = ()
    """The cards of the current trick, from its leader."""
    history: tuple[tuple[int, int, int], ...] = ()
    """This round's public events in order: (``PLAY``, seat, card) and (``TURN_UP``, seat,
    card)."""
    tricks_won: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        """Number of players."""
        return self.settings.players

    @property
    def side(self) -> int:
        """The player's side."""
        return self.settings.side_of(self.seat)

    def playable(self) -> list[int]:
        """The cards the player may play from: its hand and its face-up straw-pile cards."""
        return sorted(self.hand + tuple(c for c in self.straw_up[self.seat] if c >= 0))

    @property
    def led_suit(self) -> int:
        """The suit of the trick's first card (``NO_SUIT`` when leading or after a Joker)."""
        return Card.from_code(self.trick[0]).suit if self.trick else NO_SUIT

    def direction(self) -> int:
        """This trick's direction under the declared contract."""
        way = self.settings.options[self.option].way
        return direction_for_trick(way.direction, way.flip, self.trick_index)

    def legal_cards(self) -> list[int]:
        """The playable cards the player may add to the trick: must follow, may trump ('If
        the trump suit is led, the following players must play a trump card, if they have
        one'); a Joker may always be played."""
        trump = self.settings.options[self.option].way.trump
        hand = [Card.from_code(code) for code in self.playable()]
        trick = [Card.from_code(code) for code in self.trick]
        return [c.code for c in legal_cards(hand, trick, MAY_TRUMP, trump, None, JOKER_ANY_TIME)]

    def unseen(self) -> list[int]:
        """Cards the player has not seen this round: the deck less its playable cards, every
        face-up straw-pile card and every card played (other hands, face-down cards, the
        set-aside cards)."""
        known = set(self.playable()) | {code for _, _, code in self.history}
        known |= {code for pile in self.straw_up for code in pile if code >= 0}
        return [int(code) for code in self.settings.deck_spec.codes() if int(code) not in known]

    def voids(self) -> list[int]:
        """Suits each seat has shown it lacks (bit per suit): it played neither the led suit
        nor trump to a trick led in a suit; a straw-pile card turned up in that suit since
        ends it."""
        trump = self.settings.options[self.option].way.trump
        voids = [0] * self.players
        led = NO_SUIT
        count = 0
        for kind, seat, code in self.history:
            suit = Card.from_code(code).suit
            if kind == TURN_UP:
                voids[seat] &= ~(1 << suit) if suit != NO_SUIT else ~0
                continue
            if count % self.players == 0:
                led = suit
            elif led != NO_SUIT and suit != NO_SUIT and suit != led and suit != trump:
                voids[seat] |= 1 << led
            count += 1
        return voids

    def allies(self) -> int:
        """Trick positions (bits) held by players on this player's side this round: the
        declarer's side against everyone else."""
        declaring = self.settings.side_of(self.declarer)
        mine = self.side == declaring
        bits = 0
        for position in range(self.players):
            seat = (self.leader + position) % self.players
            if (self.settings.side_of(seat) == declaring) == mine:
                bits |= 1 << position
        return bits


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def choose_pick(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """``(PASS, 0)`` or ``(option, debt)``, one of ``observation.legal_options`` and
        ``observation.amounts``; when ``observation.forced``, an option with debt 0."""

    def choose_offer(self, observation: Observation, rng: np.ndarray) -> int:
        """Passing the Barrel: an amount of ``observation.amounts`` to offer, or 0 to pick."""

    def choose_accept(self, observation: Observation, rng: np.ndarray) -> bool:
        """Passing the Barrel: whether to take the Barrel for ``observation.offer``."""

    def choose_card(self, observation: Observation, rng: np.ndarray) -> int:
        """The card to play, one of ``observation.legal_cards()``."""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``greedy``, ``tracker``) for the reference engine:
    the compiled decision functions, fed from the observation alone."""

    player: PlayerSpec

    @cached_property
    def params(self) -> np.ndarray:
        """The player's parameters as the one-row array the compiled strategies read."""
        return strategy_params(self.player)[None, :]

    @property
    def code(self) -> int:
        """The compiled dispatch code."""
        return strategy_code(self.player)

    def _pick_inputs(self, observation: Observation) -> tuple:
        """What every picking decision reads: the legal options, the hand's values, the pad."""
        lay = layout(observation.settings)
        values = np.zeros(len(lay.base), dtype=np.float64)
        faces, jokers = hand_faces_and_jokers(observation.playable())
        way_values(faces, jokers, lay.way_trump, lay.way_order, lay.way_direction, lay.way_flip,
                   lay.deck_faces, lay.values_points, lay.other_points, lay.partner_points,
                   values)  # fmt: skip
        legal = np.array(observation.legal_options or (0,), dtype=np.int64)
        done = np.array(observation.pad_done, dtype=np.int64)
        score = np.array(observation.pad_score, dtype=np.int64)
        return (
            legal, len(observation.legal_options), values, lay.base, lay.base_row, lay.opt_way,
            lay.opt_row, lay.row_value, observation.side, lay.sides, done, score,
            lay.place_points, lay.avoid,
        )  # fmt: skip

    def choose_pick(self, observation: Observation, rng: np.ndarray) -> tuple[int, int]:
        """Ask the compiled strategy for a pick."""
        legal, n_legal, *rest = self._pick_inputs(observation)
        amounts = observation.amounts
        index, amount = choose_pick(
            self.code, self.params, 0, legal, n_legal, len(amounts), amounts[0],
            observation.forced, observation.offer, *rest, rng,
        )  # fmt: skip
        if index == PASS:
            return PASS, 0
        return int(legal[index]), int(amounts[amount])

    def choose_offer(self, observation: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy whether to offer the Barrel, and how much."""
        legal, n_legal, *rest = self._pick_inputs(observation)
        index = choose_offer(self.code, self.params, 0, len(observation.amounts),
                             observation.offer, legal, n_legal, *rest, rng)  # fmt: skip
        return 0 if index == PASS else int(observation.amounts[index])

    def choose_accept(self, observation: Observation, rng: np.ndarray) -> bool:
        """Ask the compiled strategy whether to take the offer."""
        legal, n_legal, *rest = self._pick_inputs(observation)
        return bool(choose_accept(self.code, self.params, 0, observation.offer, legal, n_legal,
                                  *rest, rng))  # fmt: skip

    def choose_card(self, observation: Observation, rng: np.ndarray) -> int:
        """Ask the compiled strategy for a card."""
        settings = observation.settings
        lay = layout(settings)
        way = settings.options[observation.option].way
        playable = observation.playable()
        hands = hand_from_codes(playable, settings.deck_spec.copies)[None, :]
        legal = observation.legal_cards()
        legal_faces, _ = hand_faces_and_jokers(legal)
        jokers = sum(1 for code in playable if code & 127 == JOKER)
        trick = np.zeros(settings.players, dtype=np.int64)
        for position, code in enumerate(observation.trick):
            trick[position] = code & 127
        unseen_faces, unseen_jokers = hand_faces_and_jokers(observation.unseen())
        return int(
            choose_card(
                self.code, self.params, 0, hands, 0, legal_faces, jokers, trick,
                len(observation.trick), observation.led_suit, way.trump, way.order,
                observation.direction(), observation.allies(), settings.players,
                observation.leader, lay.points, lay.deck_faces, lay.deck_jokers, unseen_faces,
                unseen_jokers, np.array(observation.voids(), dtype=np.int64),
                lay.jokers_strongest, lay.ties, rng,
            )
        )  # fmt: skip


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"tracker,greedy:bet_at=10,random"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- a round ---------------------------------------------------------------------------------


@dataclass
class RoundState:
    """The full state of a round (hidden parts included); only the engine reads it."""

    settings: ChaiSettings
    round_index: int
    barrel: int
    hands: list[list[int]]
    straw_up: list[list[int]]
    straw_down: list[list[int]]
    set_aside: list[int]
    bids: list[tuple[int, int, int]] = field(default_factory=list)
    declarer: int = -1
    option: int = -1
    leader: int = -1
    trick_index: int = 0
    trick: list[int] = field(default_factory=list)
    history: list[tuple[int, int, int]] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    won_cards: list[list[int]] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision this round (see ``RoundRecord.decisions``)."""


@dataclass
class RoundRecord:
    """What happened in one round."""

    round_index: int
    barrel: int
    declarer: int = -1
    option: int = -1
    row: int = -1
    debt: int = 0
    offer: int = 0
    how: int = FORCED
    first_option: int = -1
    """The option named by the phase's first pick (-1: everybody passed)."""
    first_picker: int = -1
    picks: list[int] = field(default_factory=list)
    """Picks made by each seat this phase (the forced pick counts as none)."""
    passes: list[int] = field(default_factory=list)
    raises: list[int] = field(default_factory=list)
    offers: list[int] = field(default_factory=list)
    """Passing the Barrel: the amounts offered, in order."""
    offers_declined: list[int] = field(default_factory=list)
    """Passing the Barrel: offers each seat was asked about and declined."""
    tricks_won: list[int] = field(default_factory=list)
    last_winner: int = -1
    gross: int = 0
    """The declarer's side's card points and last-trick points (before debt and offer)."""
    score: int = 0
    value: float | None = None
    """A heuristic declarer's value of its known cards for the way it picked
    (``evaluation.hand_value``); None for other strategies."""
    match_side: int = -1
    """The side that won every trick (-1: none)."""
    row_scored: list[int] | None = None
    """Game points per side if this round completed a row."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision, in order (``zooanalysis.decisions``): a pick
    (pass, or any legal option at any Bet Debt it may take on), an offer (give up, or any
    amount it may offer), taking an offer or not, the forced pick (any legal option), a
    card (any legal card)."""


@dataclass
class GameRecord:
    """What happened in one game."""

    points: list[int]
    """Game points per seat (its side's)."""
    winners: list[int]
    winner_side: int = -1
    tie_break: bool = False
    rounds: list[RoundRecord] = field(default_factory=list)
    pad: Pad | None = None
    standings: list[int] = field(default_factory=list)
    """Per side, what decided the game (game points, or the cumulative total)."""
    score_checks: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    """After every round that changed a standing: (round index, every side's standing)."""
    certain_after: int = 0
    """Rounds played when the winner was first certain (the game's length if only at the
    end)."""
    row_debts: list[tuple[int, int, int]] = field(default_factory=list)
    """When a row is scored: (row, a side's Bet Debt for it, the game points it got)."""


def deal_round(settings: ChaiSettings, round_index: int, barrel: int,
               stream: np.ndarray) -> RoundState:
    """'Shuffle the deck and deal all cards equally'. With 2 players each gets 17: 7 in
    hand, 5 face-up straw-pile cards on 5 face-down ones; 2 are set aside face down. One
    shuffle, then seat 1 takes the first block of the deck, seat 2 the next; within a block
    the hand comes first, then the face-up straw cards, then the face-down ones."""
    players = settings.players
    hands, set_aside = deal(settings.deck_spec.codes(), players, settings.cards_per_player,
                            stream)  # fmt: skip
    piles = settings.straw_piles
    size = settings.hand_cards
    return RoundState(
        settings=settings,
        round_index=round_index,
        barrel=barrel,
        hands=[sorted(block[:size]) for block in hands],
        straw_up=[block[size:size + piles] for block in hands],
        straw_down=[block[size + piles:] for block in hands],
        set_aside=set_aside,
        tricks_won=[0] * players,
        won_cards=[[] for _ in range(players)],
    )


def observe(state: RoundState, pad: Pad, seat: int, phase: str, **picking) -> Observation:
    """The observation of player ``seat``: its own hand and the public facts only."""
    return Observation(
        seat=seat,
        settings=state.settings,
        phase=phase,
        round_index=state.round_index,
        barrel=state.barrel,
        hand=tuple(state.hands[seat]),
        straw_up=tuple(tuple(pile) for pile in state.straw_up),
        straw_down=tuple(tuple(code >= 0 for code in piles) for piles in state.straw_down),
        pad_done=tuple(tuple(row) for row in pad.done),
        pad_score=tuple(tuple(row) for row in pad.score),
        pad_order=tuple(tuple(row) for row in pad.order),
        game_points=tuple(pad.game_points),
        bids=tuple(state.bids),
        declarer=state.declarer,
        option=state.option,
        trick_index=state.trick_index,
        leader=state.leader,
        trick=tuple(state.trick),
        history=tuple(state.history),
        tricks_won=tuple(state.tricks_won),
        **picking,
    )


def legal_options(settings: ChaiSettings, pad: Pad, seat: int, bid: int) -> list[int]:
    """The options ``seat`` may pick: 'Players may not pick a contract they have already
    completed' (a Joker 'may be any contract, even one the player has previously completed':
    the row it completes is the Joker's), and after a pick 'pick a different contract'
    (``settings.repick``: another bid, or another row)."""
    side = settings.side_of(seat)
    current = settings.options[bid] if bid >= 0 else None
    legal = []
    for index, option in enumerate(settings.options):
        if pad.done[side][option.row]:
            continue
        if current is not None:
            if index == bid:
                continue
            if settings.repick == "different-contract" and option.row == current.row:
                continue
        legal.append(index)
    return legal


def _check_pick(seat: int, choice: tuple[int, int], legal: list[int], amounts: Sequence[int],
                forced: bool) -> None:
    option, amount = choice
    if option == PASS and not forced:
        return
    if option not in legal or amount not in amounts:
        raise IllegalMoveError(
            f"seat {seat}: pick {choice} is not allowed (options {legal}, debts {list(amounts)}"
            + (", must pick" if forced else "") + ")"
        )


def picking_phase(state: RoundState, pad: Pad, strategies: Sequence[Strategy],
                  stream: np.ndarray, record: RoundRecord) -> None:
    """Pass or pick, in turn from the Barrel holder, until everyone but the current bidder
    has passed ('The game is Hard Pass'); a player whose side has completed every contract
    must pass, and so must a player with no legal pick left. If everyone passed, the Barrel
    holder is forced to pick ('If everyone passes, that original player with the Barrel card
    is forced to pick a contract') or, Passing the Barrel, offers points instead."""
    settings = state.settings
    players = settings.players
    passed = [pad.rows_left(settings.side_of(seat)) == 0 for seat in range(players)]
    bidder, bid, debt = -1, -1, 0
    seat = state.barrel
    while True:
        if not passed[seat] and seat != bidder:
            legal = legal_options(settings, pad, seat, bid)
            amounts = [0] if bidder < 0 else debt_amounts(settings, debt)
            if not legal or not amounts:
                passed[seat] = True  # nothing it may pick: it must pass
            else:
                observation = observe(state, pad, seat, PICK, bidder=bidder, bid=bid, debt=debt,
                                      legal_options=tuple(legal), amounts=tuple(amounts))
                state.decisions.append(1 + len(legal) * len(amounts))
                choice = strategies[seat].choose_pick(observation, stream)
                choice = (int(choice[0]), int(choice[1]))
                _check_pick(seat, choice, legal, amounts, False)
                if choice[0] == PASS:
                    passed[seat] = True
                    record.passes[seat] += 1
                    state.bids.append((seat, PASS, debt))
                else:
                    if bidder < 0:
                        record.first_option, record.first_picker = choice[0], seat
                    bidder, bid, debt = seat, choice[0], choice[1]
                    record.picks[seat] += 1
                    record.raises[seat] += debt > 0
                    state.bids.append((seat, bid, debt))
        if all(passed[other] for other in range(players) if other != bidder):
            break
        seat = (seat + 1) % players
    offer = 0
    if bidder >= 0:
        record.how = BET if debt > 0 else UNCONTESTED
    else:
        bidder = state.barrel
        record.how = FORCED
        if settings.passing_the_barrel:
            taker, offer = barrel_offers(state, pad, strategies, stream, record)
            if taker >= 0:
                bidder, record.how = taker, OFFERED
        legal = legal_options(settings, pad, bidder, -1)
        observation = observe(state, pad, bidder, PICK, legal_options=tuple(legal),
                              amounts=(0,), forced=True, offer=offer)
        state.decisions.append(len(legal))
        choice = strategies[bidder].choose_pick(observation, stream)
        choice = (int(choice[0]), int(choice[1]))
        _check_pick(bidder, choice, legal, (0,), True)
        bid, debt = choice[0], 0
    state.declarer, state.option = bidder, bid
    record.declarer, record.option, record.debt, record.offer = bidder, bid, debt, offer
    record.row = settings.options[bid].row


def barrel_offers(state: RoundState, pad: Pad, strategies: Sequence[Strategy],
                  stream: np.ndarray, record: RoundRecord) -> tuple[int, int]:
    """Passing the Barrel: 'they may instead reverse the Bet Debt by offering any amount out
    to other players to take the barrel instead ... The offer may keep growing, in the
    allotted increments, until either an opponent takes the offer, the max of the Bet Debt is
    offered, or the player with the Barrel card gives up'. Each offer is put to the
    opponents (players of other sides with contracts left) in turn order; the first to take
    it is the taker. Returns (taker or -1, the offer taken)."""
    settings = state.settings
    holder = state.barrel
    players = settings.players
    offered = 0
    while True:
        amounts = offer_amounts(settings, offered)
        if not amounts:
            return -1, 0  # the most was offered and nobody took it: the holder picks
        legal = legal_options(settings, pad, holder, -1)
        observation = observe(state, pad, holder, OFFER, legal_options=tuple(legal),
                              amounts=tuple(amounts), forced=True, offer=offered)
        state.decisions.append(1 + len(amounts))
        amount = int(strategies[holder].choose_offer(observation, stream))
        if amount == 0:
            return -1, 0
        if amount not in amounts:
            raise IllegalMoveError(f"seat {holder}: offer {amount} not in {amounts}")
        offered = amount
        record.offers.append(amount)
        for offset in range(1, players):
            seat = (holder + offset) % players
            side = settings.side_of(seat)
            if side == settings.side_of(holder) or pad.rows_left(side) == 0:
                continue
            legal = legal_options(settings, pad, seat, -1)
            observation = observe(state, pad, seat, ACCEPT, legal_options=tuple(legal),
                                  amounts=(0,), forced=True, offer=offered)
            state.decisions.append(2)
            if strategies[seat].choose_accept(observation, stream):
                return seat, offered
            record.offers_declined[seat] += 1


def play_trick(state: RoundState, pad: Pad, strategies: Sequence[Strategy],
               stream: np.ndarray) -> int:
    """Every player in turn from the leader adds a legal card; 'The strongest card wins the
    trick'; cards under played straw-pile cards are turned up 'only after the trick is
    complete'. Returns the winner, who leads the next trick."""
    settings = state.settings
    players = settings.players
    way = settings.options[state.option].way
    direction = direction_for_trick(way.direction, way.flip, state.trick_index)
    state.trick = []
    seats = [(state.leader + offset) % players for offset in range(players)]
    to_turn: list[tuple[int, int]] = []
    for seat in seats:
        observation = observe(state, pad, seat, CARD)
        state.decisions.append(len(observation.legal_cards()))
        card = int(strategies[seat].choose_card(observation, stream))
        if card not in observation.legal_cards():
            raise IllegalMoveError(
                f"seat {seat}: {format_cards([card])} is not a legal card "
                f"(legal: {format_cards(observation.legal_cards())})"
            )
        if card in state.hands[seat]:
            state.hands[seat].remove(card)
        else:
            pile = state.straw_up[seat].index(card)
            state.straw_up[seat][pile] = -1
            to_turn.append((seat, pile))
        state.trick.append(card)
        state.history.append((PLAY, seat, card))
    cards = [Card.from_code(code) for code in state.trick]
    position = winning_position(cards, None, way.trump, way.order, direction,
                                settings.deck_spec.jokers > 0, settings.ties)  # fmt: skip
    winner = seats[position]
    state.tricks_won[winner] += 1
    state.won_cards[winner].extend(state.trick)
    for seat, pile in to_turn:  # 'the card below it ... is flipped face up'
        card = state.straw_down[seat][pile]
        if card >= 0:
            state.straw_up[seat][pile], state.straw_down[seat][pile] = card, -1
            state.history.append((TURN_UP, seat, card))
    state.trick = []
    state.trick_index += 1
    state.leader = winner
    return winner


def higher_card(settings: ChaiSettings, cards: Sequence[int]) -> int:
    """The higher of the set-aside cards ('the winner of the final trick taking the higher
    card'): by rank in the deck's high-to-low order; equal ranks: the first."""
    return max(cards, key=lambda c: STRENGTH[settings.base_order, UP, c & 15])


def score_round(state: RoundState, record: RoundRecord) -> None:
    """'the Current Bidder counts the points on the cards that they won ... If the Current
    Bidder won the last trick, they add 10 points to their total. If the Current Bidder took
    on a Bet Debt, the Bet Debt amount is subtracted from their total.' Teams count every
    member's tricks. 2 players: the set-aside cards are split first, the higher to the
    winner of the last trick. Passing the Barrel: the taker 'adds those offered points'.
    Avoidance rows count a debt against the declarer and an offer for it the other way
    round (more points are worse there)."""
    settings = state.settings
    points = settings.points
    sides = settings.sides
    declaring = settings.side_of(state.declarer)
    side_points = [0] * sides
    for seat, cards in enumerate(state.won_cards):
        side_points[settings.side_of(seat)] += sum(int(points[c & 127]) for c in cards)
    last_side = settings.side_of(state.leader)
    side_points[last_side] += settings.last_trick
    if state.set_aside:
        high = higher_card(settings, state.set_aside)
        rest = list(state.set_aside)
        rest.remove(high)
        side_points[last_side] += int(points[high & 127])
        for code in rest:
            side_points[1 - last_side] += int(points[code & 127])
    sign = -1 if settings.contracts[record.row].avoid else 1
    record.gross = side_points[declaring]
    record.score = record.gross - sign * (record.debt - record.offer)
    record.last_winner = state.leader
    record.tricks_won = list(state.tricks_won)
    for side in range(sides):
        taken = sum(state.tricks_won[s] for s in range(settings.players)
                    if settings.side_of(s) == side)  # fmt: skip
        if taken == settings.tricks:
            record.match_side = side


def check_every_card_once(state: RoundState) -> None:
    """Invariant: every card of the deck is in exactly one place (a hand, a straw pile, a won
    trick, the set-aside cards)."""
    places = [c for hand in state.hands for c in hand]
    places += [c for piles in state.straw_up + state.straw_down for c in piles if c >= 0]
    places += [c for cards in state.won_cards for c in cards]
    places += list(state.set_aside) + list(state.trick)
    if sorted(places) != sorted(int(c) for c in state.settings.deck_spec.codes()):
        raise AssertionError("card bookkeeping broken: a card is missing or doubled")


def play_round(settings: ChaiSettings, strategies: Sequence[Strategy], pad: Pad,
               round_index: int, barrel: int, stream: np.ndarray) -> RoundRecord:
    """Deal, pick, play every trick and score the declarer's round (the pad is updated by
    :func:`play_game`)."""
    players = settings.players
    state = deal_round(settings, round_index, barrel, stream)
    record = RoundRecord(round_index, barrel, picks=[0] * players, passes=[0] * players,
                         raises=[0] * players, offers_declined=[0] * players)  # fmt: skip
    picking_phase(state, pad, strategies, stream, record)
    declarer = strategies[state.declarer]
    if isinstance(declarer, BuiltinStrategy) and declarer.code != RANDOM:
        way = settings.options[state.option].way
        lay = layout(settings)
        known = state.hands[state.declarer] + [c for c in state.straw_up[state.declarer] if c >= 0]
        faces, jokers = hand_faces_and_jokers(known)
        record.value = float(hand_value(faces, jokers, way.trump, way.order, way.direction,
                                        way.flip, lay.deck_faces, lay.values_points,
                                        lay.other_points, lay.partner_points))  # fmt: skip
    state.leader = state.declarer  # 'the Current Bidder will lead to the first trick'
    check_every_card_once(state)
    for _ in range(settings.tricks):
        play_trick(state, pad, strategies, stream)
        check_every_card_once(state)
    score_round(state, record)
    record.decisions = list(state.decisions)
    return record


# --- the game -------------------------------------------------------------------------------


def certain_winner(settings: ChaiSettings, pad: Pad, rounds_left: int) -> int:
    """The side sure to win whatever happens in the rounds left, or -1: the early end ('If
    it's impossible for a player to lose the overall game, players may end the game early').

    A side ``L`` is sure if against every other side ``q`` its standing stays ahead in the
    worst case: every row not yet scored placed as badly for ``L`` against ``q`` as the
    scores already in it allow (any future score is possible), and Match Points, if played,
    all going to ``q``; equal standings go to ``L`` only if it has finished and ``q`` has
    not. With Cumulative, every round left may bring a side anything from minus the largest
    debt to the largest score."""
    sides = settings.sides
    standings = side_standings(settings, pad)
    for leader in range(sides):
        if all(_stays_ahead(settings, pad, standings, leader, other, rounds_left)
               for other in range(sides) if other != leader):  # fmt: skip
            return leader
    return -1


def _stays_ahead(settings: ChaiSettings, pad: Pad, standings: list[int], leader: int,
                 other: int, rounds_left: int) -> bool:
    lay = layout(settings)
    if settings.cumulative == "off":
        swing = rounds_left * settings.match_points
        for row in range(pad.rows):
            if not pad.row_complete(row):
                swing += _worst_row_swing(settings, pad, row, leader, other)
    else:
        spread = lay.max_score + settings.max_debt
        swing = spread * (pad.rows_left(leader) + pad.rows_left(other))
    margin = standings[leader] - standings[other] - swing
    if margin > 0:
        return True
    finished_first = pad.finished[leader] >= 0 and pad.finished[other] < 0
    return margin == 0 and finished_first


def _worst_row_swing(settings: ChaiSettings, pad: Pad, row: int, leader: int, other: int) -> int:
    """The most ``other`` can gain on ``leader`` in an unscored row: over every finishing
    order of the sides that keeps the order of the scores already written."""
    from itertools import permutations

    sign = 1 if settings.contracts[row].avoid else -1
    fixed = sorted((s for s in range(pad.sides) if pad.done[s][row]),
                   key=lambda s: (sign * pad.score[s][row], pad.order[s][row]))  # fmt: skip
    worst = -(1 << 30)
    for places in permutations(range(pad.sides)):
        ranked = [s for s in places if s in fixed]
        if ranked != fixed:
            continue
        gain = {side: int(settings.place_points[row, place]) for place, side in enumerate(places)}
        worst = max(worst, gain[other] - gain[leader])
    return worst


def play_game(settings: ChaiSettings, strategies: Sequence[Strategy], seed: int = 0,
              game_index: int = 0) -> GameRecord:
    """Play one whole game; ``(seed, game_index)`` fixes every shuffle and random choice. The
    kernel plays game ``i`` of a batch seeded ``s`` exactly as ``play_game(settings,
    strategies, s, i)`` does."""
    if len(strategies) != settings.players:
        raise ValueError(f"{len(strategies)} strategies for {settings.players} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    players, sides = settings.players, settings.sides
    pad = Pad(sides, len(settings.contracts))
    record = GameRecord(points=[0] * players, winners=[], pad=pad)
    barrel = 0  # seat 1 starts with the Barrel card
    total = settings.rounds
    record.certain_after = total
    sure = -1
    for round_index in range(total):
        played = play_round(settings, strategies, pad, round_index, barrel, stream)
        before = side_standings(settings, pad)
        side = settings.side_of(played.declarer)
        pad.done[side][played.row] = True
        pad.score[side][played.row] = played.score
        pad.order[side][played.row] = round_index
        pad.debt[side][played.row] = played.debt
        if played.match_side >= 0:
            pad.game_points[played.match_side] += settings.match_points
        if pad.row_complete(played.row):
            gained = score_row(settings, pad, played.row)
            played.row_scored = gained
            for s in range(sides):
                pad.game_points[s] += gained[s]
                record.row_debts.append((played.row, pad.debt[s][played.row], gained[s]))
        if pad.rows_left(side) == 0:
            pad.finished[side] = round_index
        record.rounds.append(played)
        after = side_standings(settings, pad)
        if after != before:
            record.score_checks.append((round_index, tuple(after)))
        rounds_left = total - round_index - 1
        if record.certain_after == total and rounds_left > 0:
            sure = certain_winner(settings, pad, rounds_left)
            if sure >= 0:
                record.certain_after = round_index + 1
                if settings.early_end:
                    break
        if rounds_left > 0:
            barrel = next_barrel(settings, pad, barrel)
    if len(record.rounds) < total:  # ended early: the side that was sure to win has won
        record.winner_side, record.tie_break = sure, False
    else:
        record.winner_side, record.tie_break = outcome(settings, pad)
    record.standings = side_standings(settings, pad)
    record.points = [pad.game_points[settings.side_of(seat)] for seat in range(players)]
    record.winners = [s for s in range(players) if settings.side_of(s) == record.winner_side]
    return record


def next_barrel(settings: ChaiSettings, pad: Pad, barrel: int) -> int:
    """'pass both it and the Current Bet card to the next player in turn order who has
    contracts to complete'."""
    for offset in range(1, settings.players + 1):
        seat = (barrel + offset) % settings.players
        if pad.rows_left(settings.side_of(seat)) > 0:
            return seat
    return barrel
