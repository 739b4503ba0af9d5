"""The reference engine: Hodge Podge Dodgeball played step by step in plain Python.

The rulebook in code, written to be read and used from a notebook::

    from zooanalysis.games.dodgeball import engine
    from zooanalysis.games.dodgeball.rules import DodgeballSettings
    record = engine.play_game(DodgeballSettings(), engine.lineup("dodger,random,coach,random"))
    record.winner_team, [r.loser_seat for r in record.rounds], record.rounds[0].events[:5]

One game is a whole match: rounds until a team has the championship (the Match Point
card). One round is :func:`play_round`: from a :class:`Deal` (hands, benches, dummies) and
a start seat to a :class:`RoundResult`, performing the setup decisions (benching,
passing), then tricks until a player cannot play. It is written to be called on its own
(Through the Zoo's Dodgeball exhibit deals its own hands from personal decks, codes with
copies included, and calls it); :func:`deal_round` is how Dodgeball itself deals.

A strategy is any object with ``decide(kind, observation, stream) -> (int, int)`` (see
:class:`Strategy` and the decision kinds in ``strategies.py``); it sees an
:class:`Observation`, which holds only what the deciding player may know. The numba kernel
(``kernel.py``) reproduces this engine draw for draw.

**Decisions** (``zooanalysis.decisions``; each round's ``RoundResult.decisions``): every
time the rules let a player (or, in the 2-player game, a player for its dummy) choose,
counted with its legal options, forced single-option moves included (as one option: no
real choice), in the order they are taken. Distinct cards are the options (identical
copies, Through the Zoo's personal decks, are one):

- setup: each card benched (any hand card), each card passed to the partner (any hand
  card left); 2 players: the dummy exchange, 1 + hand cards x dummy face-up cards (no
  exchange, or any pair), when the setting allows it;
- before every trick, each player asked whether to call a timeout: 2 (call or not), while
  its team has one left; in a timeout, placing a card face down: 1 + hand cards (no
  exchange, or any card), asked when hand and bench hold cards; taking a face-up bench
  card: its cards (forced with one; no decision when the partner took the last);
- every card played: the legal cards (an All-Star is one option, a Ringer one), forced
  ones included; then, for an All-Star, its declaration: declarable suits x ranks
  (:func:`allstar_declarations`), and for a Ringer, 0 or 14: 2;
- a hit or caught player's bench card: the allowed cards (forced with one, or with only
  All-Stars left; none with an empty hand);
- after a block, the blocking team's leader: 2 (the blocker or its partner);
- after a catch, the catching team's bring-back: 2 x bench cards (a card and which partner
  takes it), when the setting allows it and the bench holds cards.

A player that cannot play makes no decision (the round ends); shuffles and deals are no
decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from zooanalysis import rng as rng_module
from zooanalysis.cards.encoding import CODE_DTYPE, COPY_STRIDE, FACE_BITS, JOKER, NO_SUIT, Card
from zooanalysis.cards.follow import (
    JOKER_DECLARED,
    MUST_NOT_FOLLOW_STRICT,
    declarable_suits,
    legal_cards,
)
from zooanalysis.cards.notation import format_card
from zooanalysis.games.dodgeball.rules import (
    BLOCK,
    CANNOT_FOLLOW,
    EMPTY_HAND,
    END_REASONS,
    HIT,
    OUTCOME_NAMES,
    RINGER_HIGH,
    RINGER_LOW,
    SEATS,
    TEAMS,
    DodgeballSettings,
    MatchPointCard,
    award_match_point,
    bench_choices,
    classify_trick,
    partner_of,
    rank_strength,
    team_of,
)
from zooanalysis.games.dodgeball.strategies import (
    ALLSTARS,
    BENCH,
    BENCH_ALLSTARS,
    BLOCK_LEADER,
    BRING_BACK,
    CALL_TIMEOUT,
    CHOICES,
    DECISION_NAMES,
    DECLARABLE,
    DUMMY,
    DUMMY_ALLSTARS,
    DUMMY_EXCHANGE,
    HAND,
    HIT_BENCH,
    LEGAL,
    N_MASKS,
    N_PLAYED,
    N_VIEW,
    ORDER,
    OTHER_BENCH,
    OTHER_BENCH_ALLSTARS,
    OTHER_POINTS,
    OTHER_TIMEOUTS,
    PLAY,
    RANKS,
    RINGERS,
    SEEN,
    SETUP_BENCH,
    SETUP_PASS,
    SIZE_SELF,
    STRATEGIES,
    TEAM_POINTS,
    TIMEOUT_PLACE,
    TIMEOUT_TAKE,
    TIMEOUTS_LEFT,
    TRICK,
    TRICK_INDEX,
    decide,
    strategy_code,
    strategy_params,
)
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup

__all__ = ["END_REASONS", "OUTCOME_NAMES"]

ALLSTAR_CODES = (JOKER, COPY_STRIDE + JOKER)
"""Team 0's All-Star is ``JOKER`` (code 64), team 1's ``JOKER#2`` (code 192)."""


class IllegalMoveError(RuntimeError):
    """A strategy chose something the rules do not allow."""


def is_allstar(code: int) -> bool:
    """Whether a card code is an All-Star (a Joker)."""
    return int(code) & FACE_BITS == JOKER


def face_mask(codes: Sequence[int]) -> int:
    """The face mask of the suited cards among ``codes`` (copies merged)."""
    mask = 0
    for code in codes:
        if not is_allstar(code):
            mask |= 1 << (int(code) & FACE_BITS)
    return mask


def allstar_count(codes: Sequence[int]) -> int:
    """How many All-Stars are among ``codes``."""
    return sum(1 for code in codes if is_allstar(code))


def card_of(code: int) -> int:
    """What a decision calls a card: its face, or ``JOKER`` for an All-Star."""
    return JOKER if is_allstar(code) else int(code) & FACE_BITS


def code_for(cards: Sequence[int], card: int) -> int:
    """The code in ``cards`` a decision's card (a face, or ``JOKER`` for an All-Star) names:
    the lowest code with that face; -1 if there is none."""
    matches = [code for code in cards if (JOKER if is_allstar(code) else code & FACE_BITS) == card]
    return min(matches) if matches else -1


def distinct_cards(codes: Sequence[int]) -> int:
    """How many different cards a decision offers among ``codes``: identical copies (one
    face) are one option, as a strategy names a face."""
    return len({card_of(code) for code in codes})


def allstar_declarations(settings: DodgeballSettings, suits: Sequence[int]) -> int:
    """The ways an All-Star may be declared now: "any number in any suit, both aspects
    declared when played", any of ``suits`` (those not yet in the trick) times any rank of
    the cards in play (``settings.declarable_ranks``)."""
    return len(suits) * len(settings.declarable_ranks())


# --- what a player sees ------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """Everything the deciding player may know, and nothing more.

    ``seat`` is the seat acting (in the 2-player game a dummy's decisions are its
    controller's, made with ``controller_hand`` known as well). Public: the benches'
    face-up cards, the dummies' face-up cards, every hand's size, the tricks of this round
    (as declared), timeouts and match points. Private: ``hand`` (the acting seat's cards;
    for a dummy its face-up cards) and what this player passed and received at setup.
    Never: the other hands, face-down cards, the deck or the cards out of the round.
    """

    seat: int
    two_player: bool
    hand: tuple[int, ...]
    controller_hand: tuple[int, ...]
    dummy_cards: tuple[tuple[int, ...], ...]
    """Face-up cards of every seat that is a dummy (empty for players)."""
    hand_sizes: tuple[int, ...]
    face_down: tuple[int, ...]
    """How many face-down cards each dummy still has."""
    benches: tuple[tuple[int, ...], ...]
    """Face-up bench cards of team 0 and team 1."""
    bench_face_down: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    """The current trick so far as (seat, declared face)."""
    tricks: tuple[tuple[tuple[tuple[int, int], ...], int], ...]
    """The round's finished tricks: ((seat, declared face) x 4, outcome)."""
    legal: tuple[int, ...] = ()
    """For a play: the legal cards (codes)."""
    declarable: tuple[int, ...] = ()
    """For a play: the suits an All-Star may be declared as now."""
    choices: tuple[int, ...] = ()
    """For a hit or catch: the cards that may go to the bench (codes)."""
    dummy: tuple[int, ...] = ()
    """For the 2-player setup exchange: the own dummy's face-up cards."""
    timeouts_left: tuple[int, ...] = (0, 0)
    match_points: tuple[int, ...] = (0, 0)
    passed: tuple[int, ...] = ()
    received: tuple[int, ...] = ()
    order: int = 0
    ringers: bool = False
    ranks: tuple[int, ...] = ()

    @property
    def team(self) -> int:
        """The acting seat's team."""
        return team_of(self.seat)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(masks, view)`` as the compiled strategies read them."""
        masks = np.zeros(N_MASKS, dtype=np.uint64)
        view = np.zeros(N_VIEW, dtype=np.int64)
        team = self.team
        masks[HAND] = face_mask(self.hand)
        masks[LEGAL] = face_mask(self.legal)
        masks[BENCH] = face_mask(self.benches[team])
        masks[OTHER_BENCH] = face_mask(self.benches[1 - team])
        masks[CHOICES] = face_mask(self.choices)
        seen = 0
        for trick, _ in self.tricks:
            for _, face in trick:
                seen |= 1 << face
        for _, face in self.trick:
            seen |= 1 << face
        masks[SEEN] = seen
        masks[DUMMY] = face_mask(self.dummy)
        for offset in range(SEATS):
            view[SIZE_SELF + offset] = self.hand_sizes[(self.seat + offset) % SEATS]
        view[ALLSTARS] = allstar_count(self.hand)
        view[BENCH_ALLSTARS] = allstar_count(self.benches[team])
        view[OTHER_BENCH_ALLSTARS] = allstar_count(self.benches[1 - team])
        view[DUMMY_ALLSTARS] = allstar_count(self.dummy)
        view[N_PLAYED] = len(self.trick)
        view[TRICK_INDEX] = len(self.tricks)
        view[ORDER] = self.order
        view[RINGERS] = int(self.ringers)
        view[DECLARABLE] = sum(1 << suit for suit in self.declarable)
        view[TIMEOUTS_LEFT] = self.timeouts_left[team]
        view[OTHER_TIMEOUTS] = self.timeouts_left[1 - team]
        view[TEAM_POINTS] = self.match_points[team]
        view[OTHER_POINTS] = self.match_points[1 - team]
        view[RANKS] = sum(1 << rank for rank in self.ranks)
        for position in range(SEATS):
            view[TRICK + position] = self.trick[position][1] if position < len(self.trick) else -1
        return masks, view


class Strategy(Protocol):
    """What a player of the reference engine must answer."""

    def decide(self, kind: int, observation: Observation, stream: np.ndarray) -> tuple[int, int]:
        """Two ints for decision ``kind`` (``strategies.SETUP_BENCH`` ... ``BRING_BACK``):
        a card is its face, or ``JOKER`` for an All-Star; see ``strategies.py``."""


@dataclass(frozen=True)
class BuiltinStrategy:
    """A built-in strategy (``random``, ``dodger``, ``coach``) for the reference engine."""

    player: PlayerSpec

    def decide(self, kind: int, observation: Observation, stream: np.ndarray) -> tuple[int, int]:
        """Ask the compiled strategy, from the observation alone."""
        masks, view = observation.arrays()
        first, second = decide(
            kind, strategy_code(self.player), strategy_params(self.player), masks, view, stream
        )
        return int(first), int(second)


def lineup(text: str) -> list[BuiltinStrategy]:
    """Built-in strategies from a lineup string such as ``"dodger,random,coach,random"``."""
    return [BuiltinStrategy(player) for player in parse_lineup(text, STRATEGIES)]


# --- a round's cards -------------------------------------------------------------------------


@dataclass
class Deal:
    """The cards of a round before the setup decisions.

    ``hands[seat]``: a player's hand, or a dummy's face-up cards; ``under[seat]``: for a
    dummy, the face-down card under each face-up card (face-up code -> face-down code);
    ``benches[team]``: face-up bench cards (the All-Star included); ``out``: cards out of
    the round (2 players: "The remaining 2 cards are left facedown").
    """

    hands: list[list[int]]
    benches: list[list[int]]
    under: list[dict[int, int]] = field(default_factory=lambda: [{} for _ in range(SEATS)])
    out: list[int] = field(default_factory=list)

    def all_cards(self) -> list[int]:
        """Every card of the round, sorted."""
        cards = [code for hand in self.hands for code in hand]
        cards += [code for bench in self.benches for code in bench]
        cards += [code for below in self.under for code in below.values()]
        return sorted(cards + list(self.out))


def deck_codes(settings: DodgeballSettings) -> np.ndarray:
    """The unshuffled deck: the settings' ranks in the four suits, increasing codes."""
    return np.array(
        [suit * 16 + rank for suit in range(4) for rank in settings.ranks], dtype=CODE_DTYPE
    )


def ringer_codes() -> np.ndarray:
    """The four Ringers as they sit in a hand: the rank-0 card of each suit."""
    return np.array([suit * 16 + RINGER_LOW for suit in range(4)], dtype=CODE_DTYPE)


def deal_round(settings: DodgeballSettings, stream: np.ndarray) -> Deal:
    """Shuffle and deal one round ("Shuffle and evenly deal all the playing cards").

    The deck is shuffled once (``rng.shuffle``); 4 players: seat ``p`` takes cards
    ``13p .. 13p + 12``. 2 players: player 1 the first 12, player 2 the next 12, then each
    dummy 6 face-down cards and the 6 face-up cards that cover them (pile ``i``: face-up
    card ``i`` on face-down card ``i``), then each bench 1 card face-up, and the rest (2)
    is out. With Ringers the 4 Ringers are shuffled after the deck and seat ``p`` gets
    Ringer ``p`` (a dummy's face-up, to the side). Each team's bench gets its All-Star.
    """
    deck = deck_codes(settings)
    rng_module.shuffle(deck, stream)
    cards = [int(code) for code in deck]
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    under: list[dict[int, int]] = [{} for _ in range(SEATS)]
    benches: list[list[int]] = [[] for _ in range(TEAMS)]
    out: list[int] = []
    if not settings.two_player:
        size = settings.hand_size
        for seat in range(SEATS):
            hands[seat] = cards[seat * size:(seat + 1) * size]
    else:
        size, down, up = settings.two_player_hand, settings.dummy_face_down, settings.dummy_face_up
        hands[0], hands[1] = cards[:size], cards[size:2 * size]
        top = 2 * size
        for seat in (2, 3):
            face_down, face_up = cards[top:top + down], cards[top + down:top + down + up]
            top += down + up
            hands[seat] = list(face_up)
            under[seat] = {face_up[pile]: face_down[pile] for pile in range(down)}
        for team in range(TEAMS):
            benches[team] = cards[top:top + settings.two_player_bench]
            top += settings.two_player_bench
        out = cards[top:]
    if settings.ringers:
        ringers = ringer_codes()
        rng_module.shuffle(ringers, stream)
        for seat in range(SEATS):
            hands[seat].append(int(ringers[seat]))
    if settings.allstars:
        for team in range(TEAMS):
            benches[team].insert(0, ALLSTAR_CODES[team])
    return Deal([sorted(hand) for hand in hands], [sorted(b) for b in benches], under, out)


# --- a round ---------------------------------------------------------------------------------


@dataclass
class RoundResult:
    """What happened in one round."""

    start_seat: int
    loser_seat: int = -1
    """The seat that could not play (its team lost the round)."""
    reason: int = -1
    """``EMPTY_HAND`` or ``CANNOT_FOLLOW``."""
    position: int = -1
    """Its position in the trick (0 = it was to lead)."""
    tricks: int = 0
    """Tricks completed before the round ended."""
    outcomes: list[int] = field(default_factory=list)
    """Each completed trick's outcome (``HIT``, ``BLOCK``, ``CATCH``)."""
    hit_seats: list[int] = field(default_factory=list)
    blockers: list[int] = field(default_factory=list)
    catches: list[tuple[int, int]] = field(default_factory=list)
    """(catcher, caught) of every catch."""
    timeout_callers: list[int] = field(default_factory=list)
    exchanges: list[int] = field(default_factory=list)
    """Seats that exchanged a card in a timeout (once per exchange)."""
    allstar_seats: list[int] = field(default_factory=list)
    """The seat that played each All-Star this round."""
    setup_exchanges: list[int] = field(default_factory=list)
    """2 players: the players who exchanged a card with their dummy at setup."""
    events: list[dict] = field(default_factory=list)
    final_hands: list[list[int]] = field(default_factory=list)
    """The cards in every hand when the round ended (codes; Through the Zoo counts their
    Diamonds)."""
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision this round, in order (the module's
    **Decisions**; ``zooanalysis.decisions``)."""

    @property
    def loser_team(self) -> int:
        """The team that lost the round."""
        return team_of(self.loser_seat)

    @property
    def winner_team(self) -> int:
        """The team that won the round (and a match point)."""
        return 1 - self.loser_team

    @property
    def allstars_played(self) -> list[int]:
        """All-Stars each team played this round."""
        return [sum(1 for seat in self.allstar_seats if team_of(seat) == t) for t in (0, 1)]

    @property
    def timeouts_used(self) -> list[int]:
        """Timeouts each team called this round."""
        return [sum(1 for seat in self.timeout_callers if team_of(seat) == t) for t in (0, 1)]


@dataclass
class RoundState:
    """The full state of a round (hidden parts included); only the engine reads it."""

    settings: DodgeballSettings
    hands: list[list[int]]
    under: list[dict[int, int]]
    benches: list[list[int]]
    out: list[int]
    cards: list[int]
    """Every card of the round, for the conservation check."""
    face_down_bench: list[list[int]] = field(default_factory=lambda: [[], []])
    discards: list[int] = field(default_factory=list)
    trick: list[tuple[int, int, int]] = field(default_factory=list)
    """The current trick as (seat, code, declared face)."""
    tricks: list[tuple[tuple[tuple[int, int], ...], int]] = field(default_factory=list)
    timeouts_left: list[int] = field(default_factory=lambda: [0, 0])
    match_points: tuple[int, int] = (0, 0)
    passed: list[list[int]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    received: list[list[int]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    decisions: list[int] = field(default_factory=list)
    """The legal options of every decision so far (see ``RoundResult.decisions``)."""

    def is_dummy(self, seat: int) -> bool:
        """Whether ``seat`` is a dummy (2-player game, seats 2 and 3)."""
        return self.settings.two_player and seat >= 2

    def controller(self, seat: int) -> int:
        """The player deciding for ``seat``: itself, or a dummy's player."""
        return seat - 2 if self.is_dummy(seat) else seat

    def check_cards(self) -> None:
        """Invariant: every card of the round is in exactly one place."""
        places = [code for hand in self.hands for code in hand]
        places += [code for below in self.under for code in below.values()]
        places += [code for bench in self.benches for code in bench]
        places += [code for bench in self.face_down_bench for code in bench]
        places += self.out + self.discards + [code for _, code, _ in self.trick]
        if sorted(places) != self.cards:
            raise AssertionError("card bookkeeping broken: a card is missing or doubled")

    def take_from(self, seat: int, code: int) -> None:
        """Remove ``code`` from a hand (or a dummy's face-up cards); a face-down card it
        covered is flipped face-up at once ("Whenever a facedown card is uncovered by the
        card on top of it being played, flip the facedown card face-up immediately")."""
        self.hands[seat].remove(code)
        below = self.under[seat].pop(code, None)
        if below is not None:
            self.hands[seat].append(below)
            self.hands[seat].sort()

    def give_to(self, seat: int, code: int) -> None:
        """Put ``code`` into a hand (a dummy's goes "to the side of the piles, face-up")."""
        self.hands[seat].append(code)
        self.hands[seat].sort()

    def observe(self, seat: int, **extra) -> Observation:
        """What the player deciding for ``seat`` may know (``extra``: decision details)."""
        controller = self.controller(seat)
        dummies = tuple(
            tuple(self.hands[s]) if self.is_dummy(s) else () for s in range(SEATS)
        )
        return Observation(
            seat=seat,
            two_player=self.settings.two_player,
            hand=tuple(self.hands[seat]),
            controller_hand=tuple(self.hands[controller]),
            dummy_cards=dummies,
            hand_sizes=tuple(len(hand) for hand in self.hands),
            face_down=tuple(len(below) for below in self.under),
            benches=tuple(tuple(bench) for bench in self.benches),
            bench_face_down=tuple(len(bench) for bench in self.face_down_bench),
            trick=tuple((s, face) for s, _, face in self.trick),
            tricks=tuple(self.tricks),
            timeouts_left=tuple(self.timeouts_left),
            match_points=self.match_points,
            passed=tuple(self.passed[controller]),
            received=tuple(self.received[controller]),
            order=self.settings.order,
            ringers=self.settings.ringers,
            ranks=self.settings.declarable_ranks(),
            **extra,
        )


def _card_name(code: int) -> str:
    return "All-Star" if is_allstar(code) else format_card(code)


def _ask(
    state: RoundState, strategies: Sequence[Strategy], kind: int, seat: int, stream: np.ndarray,
    **extra,
) -> tuple[int, int]:
    strategy = strategies[state.controller(seat) % len(strategies)]
    return strategy.decide(kind, state.observe(seat, **extra), stream)


def _chosen_code(cards: Sequence[int], card: int, seat: int, kind: int) -> int:
    code = code_for(cards, card)
    if code < 0:
        raise IllegalMoveError(
            f"seat {seat}: {DECISION_NAMES[kind]} named card {card}, which it may not choose"
        )
    return code


def choose_card(
    state: RoundState, strategies: Sequence[Strategy], kind: int, seat: int, options: list[int],
    stream: np.ndarray, **extra,
) -> int:
    """One card of ``options`` (codes) chosen by the seat's strategy; a single option is
    taken without asking. Identical cards (one face, several copies: Through the Zoo's
    personal decks) are one option: a strategy names a face, and the lowest code of that
    face is taken. The decision is counted with its options (a single one included)."""
    state.decisions.append(distinct_cards(options))
    if len({card_of(code) for code in options}) == 1:
        return min(options)
    card, _ = _ask(state, strategies, kind, seat, stream, **extra)
    return _chosen_code(options, card, seat, kind)


def setup_round(
    state: RoundState, strategies: Sequence[Strategy], stream: np.ndarray, result: RoundResult
) -> None:
    """Setup steps 6 and 7 (the cards are dealt and the All-Stars on the benches).

    "Players simultaneously add 1 card from their hand to their respective benches,
    face-up." "Teammates simultaneously pass each other a card from their hand." Each
    player decides seeing only its own hand and the benches as they were; the cards move
    once everyone has decided. 2 players: the dummies do not bench, and instead of passing
    "players may exchange 1 card from their hand with 1 face-up card from their dummy-hand
    partner" (a card given to a dummy goes to its side, face-up; an uncovered face-down
    card flips).
    """
    settings = state.settings
    players = (0, 1) if settings.two_player else tuple(range(SEATS))
    benched: list[list[int]] = [[] for _ in range(SEATS)]
    for seat in players:
        for _ in range(settings.setup_bench):
            if not state.hands[seat]:
                break
            code = choose_card(state, strategies, SETUP_BENCH, seat, state.hands[seat], stream)
            state.take_from(seat, code)
            benched[seat].append(code)
    for seat in players:
        for code in benched[seat]:
            state.benches[team_of(seat)].append(code)
            result.events.append({"setup": "bench", "seat": seat, "card": _card_name(code)})
        state.benches[team_of(seat)].sort()
    if not settings.two_player:
        passing: list[list[int]] = [[] for _ in range(SEATS)]
        for seat in players:
            for _ in range(settings.setup_swap):
                if not state.hands[seat]:
                    break
                code = choose_card(state, strategies, SETUP_PASS, seat, state.hands[seat], stream)
                state.take_from(seat, code)
                passing[seat].append(code)
        for seat in players:
            for code in passing[partner_of(seat)]:
                state.give_to(seat, code)
            state.passed[seat] = list(passing[seat])
            state.received[seat] = list(passing[partner_of(seat)])
        return
    exchanges = []
    for seat in players:
        dummy = seat + 2
        chosen = (-1, -1)
        if settings.two_player_exchange and state.hands[seat] and state.hands[dummy]:
            state.decisions.append(
                1 + distinct_cards(state.hands[seat]) * distinct_cards(state.hands[dummy])
            )
            give, take = _ask(
                state, strategies, DUMMY_EXCHANGE, seat, stream, dummy=tuple(state.hands[dummy])
            )
            if give >= 0:
                chosen = (
                    _chosen_code(state.hands[seat], give, seat, DUMMY_EXCHANGE),
                    _chosen_code(state.hands[dummy], take, seat, DUMMY_EXCHANGE),
                )
        exchanges.append(chosen)
    for seat, (give, take) in zip(players, exchanges, strict=True):
        if give < 0:
            continue
        state.take_from(seat, give)
        state.take_from(seat + 2, take)
        state.give_to(seat + 2, give)
        state.give_to(seat, take)
        result.setup_exchanges.append(seat)
        result.events.append(
            {"setup": "exchange", "seat": seat, "gave": _card_name(give), "took": _card_name(take)}
        )


def legal_plays(state: RoundState, seat: int) -> tuple[list[int], list[int]]:
    """(legal cards as codes, suits an All-Star may be declared as) for ``seat`` now.

    "The trick-taking is must-not-follow suit": a card of a suit already in the trick may
    not be played, and there is no "if able" way out: "If any player cannot play a card
    because of either the must-not-follow rule or not having any cards left in hand when it
    is their turn, their team loses the round immediately." All-Stars "act as any number in
    any suit, both aspects declared when played", so one may be played as any suit not yet
    in the trick.
    """
    hand = [Card.from_code(code) for code in state.hands[seat]]
    trick = [Card.from_code(face) for _, _, face in state.trick]
    legal = legal_cards(hand, trick, MUST_NOT_FOLLOW_STRICT, joker_mode=JOKER_DECLARED)
    led = trick[0].suit if trick else NO_SUIT
    played = frozenset(card.suit for card in trick)
    suits = declarable_suits(MUST_NOT_FOLLOW_STRICT, led, NO_SUIT, played)
    return sorted(card.code for card in legal), sorted(suits)


def play_card(
    state: RoundState, strategies: Sequence[Strategy], seat: int, legal: list[int],
    suits: list[int], stream: np.ndarray,
) -> tuple[int, int]:
    """The card ``seat`` plays and the face it counts as (an All-Star or Ringer declared)."""
    settings = state.settings
    state.decisions.append(distinct_cards(legal))
    single = len({card_of(code) for code in legal}) == 1  # identical copies: one choice
    ringer = settings.ringers and single and legal[0] & 15 == RINGER_LOW
    if single and not is_allstar(legal[0]) and not ringer:
        return min(legal), legal[0] & FACE_BITS
    card, declared = _ask(
        state, strategies, PLAY, seat, stream, legal=tuple(legal), declarable=tuple(suits)
    )
    code = _chosen_code(legal, card, seat, PLAY)
    if is_allstar(code):
        state.decisions.append(allstar_declarations(settings, suits))
    elif settings.ringers and code & 15 == RINGER_LOW:
        state.decisions.append(2)  # declared 0 or 14
    if is_allstar(code):
        if not (0 <= declared < 64 and declared >> 4 in suits
                and declared & 15 in settings.declarable_ranks()):
            raise IllegalMoveError(f"seat {seat}: All-Star declared as {declared}")
    elif settings.ringers and code & 15 == RINGER_LOW:
        if declared not in (code, code - RINGER_LOW + RINGER_HIGH):
            raise IllegalMoveError(f"seat {seat}: Ringer declared as {declared}")
    elif declared != code & FACE_BITS:
        raise IllegalMoveError(f"seat {seat}: card {code} declared as {declared}")
    return code, declared


def send_to_bench(
    state: RoundState, strategies: Sequence[Strategy], seat: int, stream: np.ndarray
) -> int:
    """A hit or caught player sends a card to its team's bench, face-up: "This card must be
    the player's lowest rank in that suit (lowest does not count All-Stars)". Returns the
    code benched, or -1 when the hand is empty. A hand holding only All-Stars benches one
    (it must send a card, and has no suited card to send)."""
    hand = state.hands[seat]
    if not hand:
        return -1
    allowed = bench_choices(face_mask(hand), state.settings)
    if allowed:
        options = [code_for(hand, face) for face in allowed]
        code = choose_card(
            state, strategies, HIT_BENCH, seat, options, stream, choices=tuple(options)
        )
    else:
        state.decisions.append(1)  # only All-Stars left: one goes
        code = min(hand)
    state.take_from(seat, code)
    state.benches[team_of(seat)].append(code)
    state.benches[team_of(seat)].sort()
    return code


def run_timeout(
    state: RoundState, strategies: Sequence[Strategy], caller: int, stream: np.ndarray,
    result: RoundResult,
) -> None:
    """A timeout, as written: "each player on both teams may exchange any one of their hand
    cards with any card from their bench. If a player decides to exchange, they must first
    take any card from their hand and place it face down on their bench." Once all have
    decided, the players who placed a card take one face-up bench card each ("The players
    may not take any facedown card"), in play order from the caller; "After taking cards,
    all facedown cards are flipped and placed on the bench face-up."

    A player is asked only if it has a hand card and its bench a face-up card. If a
    partner took the last face-up card first, the player takes back its own face-down card
    (no exchange happened).
    """
    order = [(caller + offset) % SEATS for offset in range(SEATS)]
    placing: dict[int, int] = {}
    for seat in order:
        if state.hands[seat] and state.benches[team_of(seat)]:
            state.decisions.append(1 + distinct_cards(state.hands[seat]))
            card, _ = _ask(state, strategies, TIMEOUT_PLACE, seat, stream)
            if card >= 0:
                placing[seat] = _chosen_code(state.hands[seat], card, seat, TIMEOUT_PLACE)
    for seat in order:
        if seat in placing:
            state.take_from(seat, placing[seat])
            state.face_down_bench[team_of(seat)].append(placing[seat])
    for seat in order:
        if seat not in placing:
            continue
        bench = state.benches[team_of(seat)]
        if not bench:
            state.face_down_bench[team_of(seat)].remove(placing[seat])
            state.give_to(seat, placing[seat])
            continue
        code = choose_card(state, strategies, TIMEOUT_TAKE, seat, list(bench), stream)
        bench.remove(code)
        state.give_to(seat, code)
        result.exchanges.append(seat)
        result.events.append(
            {"timeout": "exchange", "seat": seat, "placed": _card_name(placing[seat]),
             "took": _card_name(code)}
        )
    for team in range(TEAMS):
        state.benches[team].extend(state.face_down_bench[team])
        state.benches[team].sort()
        state.face_down_bench[team] = []


def play_round(
    settings: DodgeballSettings,
    deal: Deal,
    strategies: Sequence[Strategy],
    stream: np.ndarray,
    start_seat: int = 0,
    match_points: tuple[int, int] = (0, 0),
    check: bool = True,
) -> RoundResult:
    """Play one round from a deal: setup decisions, then tricks until a player cannot play.

    ``strategies`` has one strategy per player (2 players: a dummy is played by its
    player). ``match_points`` only informs the strategies. With ``check`` every card is
    accounted for after every step.
    """
    state = RoundState(
        settings=settings,
        hands=[sorted(hand) for hand in deal.hands],
        under=[dict(below) for below in deal.under],
        benches=[sorted(bench) for bench in deal.benches],
        out=list(deal.out),
        cards=deal.all_cards(),
        timeouts_left=[settings.timeouts] * TEAMS,
        match_points=match_points,
    )
    result = RoundResult(start_seat=start_seat)
    setup_round(state, strategies, stream, result)
    if check:
        state.check_cards()
    leader = start_seat
    while True:
        ask_for_timeouts(state, strategies, leader, stream, result)
        ended = play_trick(state, strategies, leader, stream, result)
        if check:
            state.check_cards()
        if ended:
            result.final_hands = [list(hand) for hand in state.hands]
            result.decisions = list(state.decisions)
            return result
        leader = resolve_trick(state, strategies, stream, result)
        if check:
            state.check_cards()


def ask_for_timeouts(
    state: RoundState, strategies: Sequence[Strategy], leader: int, stream: np.ndarray,
    result: RoundResult,
) -> None:
    """"Before any trick begins, anyone may call a timeout, if their team still has 1
    left": each player (not the dummies: their players speak for them) is asked once before
    every trick, in play order from the leader, while its team has a timeout left."""
    for offset in range(SEATS):
        seat = (leader + offset) % SEATS
        if state.is_dummy(seat) or state.timeouts_left[team_of(seat)] == 0:
            continue
        state.decisions.append(2)  # call a timeout or not
        call, _ = _ask(state, strategies, CALL_TIMEOUT, seat, stream)
        if call:
            state.timeouts_left[team_of(seat)] -= 1
            result.timeout_callers.append(seat)
            result.events.append({"trick": len(state.tricks), "timeout": "called", "seat": seat})
            run_timeout(state, strategies, seat, stream, result)


def play_trick(
    state: RoundState, strategies: Sequence[Strategy], leader: int, stream: np.ndarray,
    result: RoundResult,
) -> bool:
    """Every seat in turn from ``leader`` adds a card; True if the round ended because a
    seat could not play ("When that happens, the round ends immediately")."""
    for position in range(SEATS):
        seat = (leader + position) % SEATS
        legal, suits = legal_plays(state, seat)
        if not legal:
            result.loser_seat = seat
            result.reason = EMPTY_HAND if not state.hands[seat] else CANNOT_FOLLOW
            result.position = position
            result.tricks = len(state.tricks)
            result.events.append(
                {"trick": len(state.tricks), "seat": seat,
                 "cannot play": END_REASONS[result.reason]}
            )
            state.discards.extend(code for _, code, _ in state.trick)
            state.trick = []
            return True
        code, declared = play_card(state, strategies, seat, legal, suits, stream)
        state.take_from(seat, code)
        if is_allstar(code):
            result.allstar_seats.append(seat)
        state.trick.append((seat, code, declared))
        result.events.append(
            {"trick": len(state.tricks), "seat": seat, "card": _card_name(code),
             "as": format_card(declared)}
        )
    return False


def resolve_trick(
    state: RoundState, strategies: Sequence[Strategy], stream: np.ndarray, result: RoundResult
) -> int:
    """Resolve a full trick (hit, block or catch) and return the next leader."""
    settings = state.settings
    trick = state.trick
    strengths = [rank_strength(settings, face & 15) for _, _, face in trick]
    outcome, first, second = classify_trick(strengths)
    seats = [seat for seat, _, _ in trick]
    event: dict = {"trick": len(state.tricks), "outcome": OUTCOME_NAMES[outcome]}
    if outcome == HIT:
        leader = seats[first]
        benched = send_to_bench(state, strategies, leader, stream)
        result.hit_seats.append(leader)
        event |= {"hit": leader, "benched": _card_name(benched) if benched >= 0 else None}
    elif outcome == BLOCK:
        blocker = seats[first]
        state.decisions.append(2)  # the blocker or its partner leads
        choice, _ = _ask(state, strategies, BLOCK_LEADER, blocker, stream)
        if choice not in (0, 1):
            raise IllegalMoveError(f"seat {blocker}: block leader choice {choice}")
        leader = blocker if choice == 0 else partner_of(blocker)
        result.blockers.append(blocker)
        event |= {"blocker": blocker, "leads": leader}
    else:
        catcher, caught = seats[first], seats[second]
        benched = send_to_bench(state, strategies, caught, stream)
        event |= {"catcher": catcher, "caught": caught,
                  "benched": _card_name(benched) if benched >= 0 else None}
        bench = state.benches[team_of(catcher)]
        if settings.catch_bring_back and bench:
            state.decisions.append(2 * distinct_cards(bench))  # a card, to either partner
            card, receiver = _ask(state, strategies, BRING_BACK, catcher, stream)
            code = _chosen_code(bench, card, catcher, BRING_BACK)
            if receiver not in (0, 1):
                raise IllegalMoveError(f"seat {catcher}: bring-back receiver {receiver}")
            to_seat = catcher if receiver == 0 else partner_of(catcher)
            bench.remove(code)
            state.give_to(to_seat, code)
            event |= {"brought back": _card_name(code), "to": to_seat}
        result.catches.append((catcher, caught))
        leader = caught
    result.outcomes.append(outcome)
    result.events.append(event)
    state.tricks.append((tuple((seat, face) for seat, _, face in trick), outcome))
    state.discards.extend(code for _, code, _ in trick)
    state.trick = []
    return leader


# --- a match -----------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """One game: a match of rounds until a team won the championship."""

    winner_team: int
    points: list[int]
    """Rounds won by team 0 and team 1."""
    rounds: list[RoundResult]
    players: int = 4

    @property
    def winners(self) -> list[int]:
        """The winning players' seats (4 players: the two partners)."""
        return [seat for seat in range(self.players) if team_of(seat) == self.winner_team]

    @property
    def decisions(self) -> list[int]:
        """The legal options of every decision of the match, round after round."""
        return [options for result in self.rounds for options in result.decisions]

    @property
    def seat_points(self) -> list[int]:
        """Each player's standing: the rounds its team won."""
        return [self.points[team_of(seat)] for seat in range(self.players)]


def play_game(
    settings: DodgeballSettings, strategies: Sequence[Strategy], seed: int = 0,
    game_index: int = 0, check: bool = True,
) -> GameRecord:
    """Play one match; ``(seed, game_index)`` fixes every shuffle and random choice.

    Seat 0 starts the first round ("the last player to throw something"); "the start
    player for the next round is the player that triggered the end of the prior round".
    With ``match_points = 2`` the Match Point card decides the championship
    (:func:`rules.award_match_point`); otherwise the first team to ``match_points`` rounds.
    """
    if len(strategies) != settings.players:
        raise ValueError(f"{len(strategies)} strategies for {settings.players} players")
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    points = [0, 0]
    card = MatchPointCard()
    start = 0
    rounds = []
    while True:
        deal = deal_round(settings, stream)
        result = play_round(settings, deal, strategies, stream, start, (points[0], points[1]),
                            check)
        rounds.append(result)
        winner = result.winner_team
        points[winner] += 1
        if settings.match_points == 2:
            card, champion = award_match_point(card, winner)
        else:
            champion = points[winner] >= settings.match_points
        start = result.loser_seat
        if champion:
            return GameRecord(winner, points, rounds, settings.players)
