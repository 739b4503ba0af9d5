"""The reference engine against the rulebook: every example of the Hodge Podge Dodgeball
section is a test (quoted in its docstring), plus setup counts, the 2-player dummies, card
conservation at every step and whole games under every variant."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.encoding import COPY_STRIDE, JOKER
from zooanalysis.cards.notation import parse_card, parse_cards
from zooanalysis.games.dodgeball import engine
from zooanalysis.games.dodgeball.engine import (
    Deal,
    IllegalMoveError,
    Observation,
    RoundResult,
    RoundState,
    legal_plays,
    play_trick,
    resolve_trick,
    run_timeout,
)
from zooanalysis.games.dodgeball.rules import (
    BLOCK,
    CANNOT_FOLLOW,
    CATCH,
    EMPTY_HAND,
    HIT,
    DodgeballSettings,
)
from zooanalysis.games.dodgeball.strategies import (
    BLOCK_LEADER,
    BRING_BACK,
    DUMMY_EXCHANGE,
    HIT_BENCH,
    PLAY,
    SETUP_BENCH,
    SETUP_PASS,
    TIMEOUT_PLACE,
    TIMEOUT_TAKE,
)
from zooanalysis.rng import game_stream, shuffle

ALLSTAR_0, ALLSTAR_1 = JOKER, COPY_STRIDE + JOKER


def face(text: str) -> int:
    """A card's face from notation; 'JOKER' is an All-Star."""
    return parse_card(text) & 127


class Scripted:
    """A strategy answering from a script of (kind, seat, first, second), in order."""

    def __init__(self, script: Sequence[tuple[int, int, object, int]]) -> None:
        self.script = list(script)
        self.seen: list[tuple[int, Observation]] = []

    def decide(self, kind: int, observation: Observation, stream) -> tuple[int, int]:
        assert self.script, f"unexpected decision {kind} for seat {observation.seat}"
        want_kind, seat, first, second = self.script.pop(0)
        assert (kind, observation.seat) == (want_kind, seat)
        self.seen.append((kind, observation))
        first = face(first) if isinstance(first, str) else first
        second = face(second) if isinstance(second, str) else second
        return first, second


def state_with(hands: Sequence[str], benches: Sequence[str] = ("JOKER", "JOKER#2"),
               rules: DodgeballSettings | None = None) -> RoundState:
    """A round state mid-round: these hands and face-up benches, nothing else in play."""
    hand_codes = [sorted(parse_cards(hand)) if hand else [] for hand in hands]
    bench_codes = [sorted(parse_cards(bench)) if bench else [] for bench in benches]
    cards = sorted(code for group in hand_codes + bench_codes for code in group)
    return RoundState(
        settings=rules or DodgeballSettings(),
        hands=hand_codes,
        under=[{} for _ in range(4)],
        benches=bench_codes,
        out=[],
        cards=cards,
        timeouts_left=[1, 1],
    )


def one_script(script) -> tuple[Scripted, list[Scripted]]:
    """The same scripted strategy for all four seats."""
    strategy = Scripted(script)
    return strategy, [strategy] * 4


STREAM = game_stream(1, 0)


# --- Getting hit ----------------------------------------------------------------------------


def test_getting_hit_example() -> None:
    """"Peter leads a 5 of Spades. White plays a 6 of Clubs. Kate plays a 3 of Diamonds.
    Blazer, who must play a Heart, plays a 7 of Hearts and thus gets hit because they
    played the highest number. ... Blazer's hand: 3, 5, 7 of Clubs / 9, 10 of Spades / 8 of
    Hearts / 4, 9 of Diamonds. ... Blazer can put on the bench any of the following: 3 of
    Clubs, 9 of Spades, 8 of Hearts, or the 4 of Diamonds. Blazer puts the 3 of Clubs on
    the bench, then leads the next trick.\""""
    state = state_with(["5S KS", "6C 2D", "3D QH", "3C 5C 7C 9S 10S 7H 8H 4D 9D"])
    strategy, strategies = one_script([
        (PLAY, 0, "5S", "5S"), (PLAY, 1, "6C", "6C"), (PLAY, 2, "3D", "3D"),
        (PLAY, 3, "7H", "7H"), (HIT_BENCH, 3, "3C", -1),
    ])
    result = RoundResult(start_seat=0)
    state.trick = []
    # Blazer "must play a Heart": Spades, Clubs and Diamonds are already in the trick
    assert not play_trick(state, strategies, 0, STREAM, result)
    blazer_play = strategy.seen[3][1]
    assert blazer_play.legal == tuple(parse_cards("7H 8H"))
    leader = resolve_trick(state, strategies, STREAM, result)
    assert result.outcomes == [HIT] and result.hit_seats == [3]
    bench_choice = strategy.seen[4][1]
    assert bench_choice.choices == tuple(parse_cards("3C 4D 8H 9S"))
    assert sorted(state.benches[1]) == sorted([ALLSTAR_1, parse_card("3C")])
    assert leader == 3, "the hit player leads the next trick"
    assert parse_card("3C") not in state.hands[3]
    # decisions: Peter 5S or KS, White 6C or 2D, Kate 3D or QH, Blazer 7H or 8H; Blazer's
    # bench card one of the four lowest
    assert state.decisions == [2, 2, 2, 2, 4]


def test_a_hit_player_may_not_bench_a_card_that_is_not_its_suits_lowest() -> None:
    state = state_with(["5S KS", "6C 2D", "3D QH", "3C 5C 7H 8H"])
    _, strategies = one_script([
        (PLAY, 0, "5S", "5S"), (PLAY, 1, "6C", "6C"), (PLAY, 2, "3D", "3D"),
        (PLAY, 3, "7H", "7H"), (HIT_BENCH, 3, "5C", -1),
    ])
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    with pytest.raises(IllegalMoveError):
        resolve_trick(state, strategies, STREAM, result)


def test_a_hit_player_with_only_all_stars_benches_one() -> None:
    """"The hit player must put a card from their hand to their team's bench" and "lowest
    does not count All-Stars": a hand of only an All-Star still sends a card, the All-Star
    (docs/rules-decisions.md, Dodgeball #6); the choice is forced (1 option)."""
    state = state_with(["5S KS", "6C 2D", "3D QH", "7H JOKER"], benches=("JOKER#2", ""))
    _, strategies = one_script([
        (PLAY, 0, "5S", "5S"), (PLAY, 1, "6C", "6C"), (PLAY, 2, "3D", "3D"),
        (PLAY, 3, "7H", "7H"),
    ])
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    leader = resolve_trick(state, strategies, STREAM, result)
    assert result.hit_seats == [3] and leader == 3
    assert state.hands[3] == [] and state.benches[1] == [ALLSTAR_0]
    assert result.events[-1]["benched"] == "All-Star"
    assert state.decisions[-1] == 1, "only All-Stars left: one goes, no choice"


def test_a_player_hit_with_its_last_card_benches_nothing_and_loses_when_it_leads() -> None:
    """A player whose last card is hit has no card to bench; "the hit player leads the next
    trick", and "not having any cards left in hand when it is their turn" ends the round:
    its team loses (the commonest ending of the default lineup's rounds, measured 12%)."""
    state = state_with(["5S KS", "6C 2D", "3D QH", "7H"])
    strategy, strategies = one_script([
        (PLAY, 0, "5S", "5S"), (PLAY, 1, "6C", "6C"), (PLAY, 2, "3D", "3D"),
    ])  # the last card, 7H, is forced: not asked
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    benches = [list(bench) for bench in state.benches]
    leader = resolve_trick(state, strategies, STREAM, result)
    assert leader == 3 and state.benches == benches, "nothing to bench"
    assert result.events[-1]["benched"] is None
    assert play_trick(state, strategies, leader, STREAM, result), "the round ends at once"
    assert (result.loser_seat, result.reason, result.position) == (3, EMPTY_HAND, 0)
    assert result.winner_team == 0 and strategy.script == []


def test_a_caught_player_without_cards_benches_nothing_and_the_catchers_still_bring_back() -> None:
    """P2 "has to send a card to the bench as per usual" (it has none: nothing goes), and
    "In addition" P1's team brings a bench card back; P2 then leads, empty-handed, and its
    team loses the round."""
    state = state_with(["5S", "3D 4D", "2H 6H", "5C KC"], benches=("JOKER 8C", "JOKER#2"))
    strategy, strategies = one_script([
        (PLAY, 1, "3D", "3D"), (PLAY, 2, "2H", "2H"),
        (PLAY, 3, "5C", "5C"), (BRING_BACK, 3, JOKER, 1),
    ])  # Fran's only card, 5S, is forced: not asked
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    leader = resolve_trick(state, strategies, STREAM, result)
    assert strategy.script == []
    assert result.catches == [(3, 0)] and result.events[-1]["benched"] is None
    assert ALLSTAR_1 in state.hands[1], "Dwight's partner takes the All-Star"
    assert leader == 0
    assert play_trick(state, strategies, leader, STREAM, result)
    assert (result.loser_seat, result.reason) == (0, EMPTY_HAND)


# --- Blocked --------------------------------------------------------------------------------


def test_blocked_example() -> None:
    """"Blade leads a 3 of Clubs. Justin plays a 7 of Hearts. Laser plays an 5 of Spades.
    Gordon plays a 7 of Diamonds, blocking the ball from hitting Justin. Neither Justin nor
    Gordon loses a card to their team's bench. Gordon and Justin decide that Justin will
    lead the next trick.\""""
    state = state_with(["3C 4C", "7H 9H", "5S 6S", "7D 8D"])
    benches_before = [list(bench) for bench in state.benches]
    _, strategies = one_script([
        (PLAY, 0, "3C", "3C"), (PLAY, 1, "7H", "7H"), (PLAY, 2, "5S", "5S"),
        (PLAY, 3, "7D", "7D"), (BLOCK_LEADER, 3, 1, -1),
    ])
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    leader = resolve_trick(state, strategies, STREAM, result)
    assert result.outcomes == [BLOCK] and result.blockers == [3], "Gordon blocked"
    assert state.benches == benches_before, "nobody sends a card to the bench"
    assert leader == 1, "Justin (Gordon's partner) leads"
    assert [len(hand) for hand in state.hands] == [1, 1, 1, 1]
    assert state.decisions == [2, 2, 2, 2, 2], "four cards of two, then who leads: 2"


# --- Catching -------------------------------------------------------------------------------


def test_catching_example_one() -> None:
    """"Fran leads a 5 of Spades. Steve plays a 3 of Diamonds. Laser plays an 2 of Hearts.
    Dwight plays a 5 of Clubs, catching the ball from Fran. Fran loses a card to their
    bench. Dwight and Laser decide that Lazer takes any card from his team's bench to his
    hand. Fran leads the next trick."

    In play order Fran, Steve, Laser, Dwight, diagonal partners are Fran & Laser and Steve
    & Dwight, so the names in "Dwight and Laser decide" do not fit the seating. We follow
    the rule ("the opposing team (P1's team) gets to bring any card back in from their
    bench to either of their player's hands"): Dwight's team, Dwight and Steve, brings a
    card back (here to Steve); Fran benches and leads (docs/rules-decisions.md)."""
    state = state_with(["5S 2S 9C", "3D 4D", "2H 6H", "5C KC"], benches=("JOKER 8C", "JOKER#2 QS"))
    _, strategies = one_script([
        (PLAY, 0, "5S", "5S"), (PLAY, 1, "3D", "3D"), (PLAY, 2, "2H", "2H"),
        (PLAY, 3, "5C", "5C"), (HIT_BENCH, 0, "2S", -1), (BRING_BACK, 3, "QS", 1),
    ])
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    leader = resolve_trick(state, strategies, STREAM, result)
    assert result.outcomes == [CATCH] and result.catches == [(3, 0)], "Dwight catches Fran"
    assert parse_card("2S") in state.benches[0], "Fran loses a card to their bench"
    assert parse_card("QS") in state.hands[1], "the catching team's partner takes it"
    assert parse_card("QS") not in state.benches[1]
    assert leader == 0, "Fran leads the next trick"
    # Fran any of 3 cards, the others 2 each; Fran benches 2S or 9C (each suit's lowest);
    # the catching team brings back the All-Star or QS, to Dwight or Steve: 2 x 2
    assert state.decisions == [3, 2, 2, 2, 2, 4]


def test_catching_example_two() -> None:
    """"Patches leads a 5 of Spades. Cotton plays a 5 of Diamonds, attempting to catch the
    ball from Patches. Me'Shell plays a 5 of Hearts, attempting to catch the ball from
    Cotton. Pepper plays a 5 of Clubs, catching the missed catch from Me'Shell. Me'Shell is
    the latest player on the team that got caught (P2) and loses a card to their bench.
    Pepper and Cotton decide that Pepper takes any card from his team bench to his hand.
    Me'Shell leads the next trick.\""""
    state = state_with(["5S 9S", "5D 9D", "5H 9H", "5C 9C"])
    _, strategies = one_script([
        (PLAY, 0, "5S", "5S"), (PLAY, 1, "5D", "5D"), (PLAY, 2, "5H", "5H"),
        (PLAY, 3, "5C", "5C"), (BRING_BACK, 3, JOKER, 0),
    ])
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    leader = resolve_trick(state, strategies, STREAM, result)
    assert result.catches == [(3, 2)], "Pepper (P1) catches from Me'Shell (P2)"
    assert parse_card("9H") in state.benches[0], "Me'Shell's only card goes to the bench"
    assert state.hands[3] == sorted(parse_cards("9C JOKER#2")), "Pepper takes a bench card"
    assert state.benches[1] == [], "the catching team's bench gave it up"
    assert leader == 2, "Me'Shell leads the next trick"
    # Me'Shell's only card goes to the bench: forced (1 option, not asked); the bench's
    # only card, the All-Star, to Pepper or Cotton: 2
    assert state.decisions == [2, 2, 2, 2, 1, 2]


def test_all_stars_example_and_a_catch_with_an_all_star() -> None:
    """"Rosco leads a 7 of Spades. David plays a J of Diamonds. Chuck has the All-Star and
    decides to play it as a J of Hearts. William plays a 5 of Clubs." The All-Star counts
    as the J of Hearts, so David's and Chuck's Jacks share the highest: Chuck (the latest)
    catches from David."""
    state = state_with(["7S 8S", "JD 2D 4S", "JOKER 3H", "5C 6C"], benches=("", "JOKER#2"))
    strategy, strategies = one_script([
        (PLAY, 0, "7S", "7S"), (PLAY, 1, "JD", "JD"), (PLAY, 2, JOKER, "JH"),
        (PLAY, 3, "5C", "5C"), (HIT_BENCH, 1, "2D", -1),
    ])
    result = RoundResult(start_seat=0)
    play_trick(state, strategies, 0, STREAM, result)
    chuck = strategy.seen[2][1]
    assert ALLSTAR_0 in chuck.legal
    assert chuck.declarable == (0, 2), "an All-Star may be any suit not yet in the trick"
    william = strategy.seen[3][1]
    assert william.legal == tuple(parse_cards("5C 6C")), "William must play a Club"
    assert result.allstars_played == [1, 0]
    leader = resolve_trick(state, strategies, STREAM, result)
    assert result.catches == [(2, 1)] and leader == 1
    assert state.benches[0] == [], "team 0's bench was empty: nothing to bring back"
    # Chuck: 3H or the All-Star (2), then its declaration: Clubs or Hearts x 13 ranks (26);
    # David benches 2D or 4S; no bring-back decision with an empty bench
    assert state.decisions == [2, 2, 2, 26, 2, 2]


def test_an_all_star_may_not_be_declared_as_a_suit_in_the_trick() -> None:
    state = state_with(["7S 8S", "JD 2D", "JOKER 3H", "5C 6C"])
    _, strategies = one_script([
        (PLAY, 0, "7S", "7S"), (PLAY, 1, "JD", "JD"), (PLAY, 2, JOKER, "JD"),
    ])
    with pytest.raises(IllegalMoveError):
        play_trick(state, strategies, 0, STREAM, RoundResult(start_seat=0))


# --- Can't play -----------------------------------------------------------------------------


def test_cant_play_example() -> None:
    """"Meeko leads a 7 of Hearts. Sly plays a 5 of Diamonds. Rocket has only Diamonds and
    Hearts in his hand, thus cannot make a valid play. His team loses the round.\""""
    state = state_with(["7H 2C", "5D 3S", "4D 9H", "8C 8S"])
    _, strategies = one_script([(PLAY, 0, "7H", "7H"), (PLAY, 1, "5D", "5D")])
    result = RoundResult(start_seat=0)
    assert play_trick(state, strategies, 0, STREAM, result), "the round ends immediately"
    assert (result.loser_seat, result.reason, result.position) == (2, CANNOT_FOLLOW, 2)
    assert result.loser_team == 0 and result.winner_team == 1
    assert state.hands[3] == sorted(parse_cards("8C 8S")), "the trick is never finished"


def test_a_player_without_cards_cannot_play() -> None:
    """"not having any cards left in hand when it is their turn" (here: to lead)."""
    state = state_with(["", "5D", "4D", "8C"])
    result = RoundResult(start_seat=0)
    assert play_trick(state, [Scripted([])] * 4, 0, STREAM, result)
    assert (result.loser_seat, result.reason, result.position) == (0, EMPTY_HAND, 0)


def test_an_all_star_always_finds_a_suit() -> None:
    state = state_with(["7H", "5D", "4C", "JOKER 2H 3D 9C"])
    legal, suits = legal_plays(state, 3)
    assert legal == sorted(parse_cards("JOKER 2H 3D 9C")) and suits == [0, 1, 2, 3]
    state.trick = [(0, parse_card("7H"), face("7H")), (1, parse_card("5D"), face("5D")),
                   (2, parse_card("4C"), face("4C"))]
    legal, suits = legal_plays(state, 3)
    assert legal == [ALLSTAR_0] and suits == [3], "only as a Spade"


def test_the_decisions_of_ringers_and_a_forced_all_star() -> None:
    """A Ringer is one card among the legal ones and then declared 0 or 14 (2); an
    All-Star that is the only legal card is a forced play, then declared as the one suit
    left (Spades) at any rank, 0-14 with Ringers (15); a lone legal card is forced (1)."""
    rules = DodgeballSettings(ringers=True)
    state = state_with(["7H", "0D 5D", "4C", "JOKER 2H 3D 9C"], rules=rules)
    _, strategies = one_script([
        (PLAY, 1, "0D", "14D"), (PLAY, 3, JOKER, "KS"),
    ])
    result = RoundResult(start_seat=0)
    assert not play_trick(state, strategies, 0, STREAM, result)
    assert state.decisions == [1, 2, 2, 1, 1, 15]
    assert engine.allstar_declarations(rules, [3]) == 15
    assert engine.allstar_declarations(DodgeballSettings(), [0, 1, 2, 3]) == 52
    assert engine.allstar_declarations(DodgeballSettings(ranks=tuple(range(1, 8))), [1]) == 7


def test_a_matchs_decisions_are_its_rounds_in_order() -> None:
    """Every round begins with the setup (4 x 13 bench options, 4 x 12 pass options), then
    the leader is asked first whether to call a timeout (2); a match's decisions are its
    rounds' in order, and a round ends with no decision for the player who cannot play."""
    record = engine.play_game(DodgeballSettings(), engine.lineup("random*4"), 5, 0)
    for result in record.rounds:
        assert result.decisions[:9] == [13] * 4 + [12] * 4 + [2]
        assert len(result.decisions) >= 8 + 4 * result.tricks + result.position
    assert record.decisions == [d for result in record.rounds for d in result.decisions]
    heuristic = engine.play_game(DodgeballSettings(), engine.lineup("dodger*4"), 5, 0)
    # dodgers never call a timeout: every player is asked before every trick (2 each)
    for result in heuristic.rounds:
        assert result.decisions.count(2) >= 4 * (result.tricks + 1)


# --- Timeouts -------------------------------------------------------------------------------


def test_timeouts_example() -> None:
    """"Owen calls a timeout. Owen places a J of Hearts facedown. Owen's partner places a
    card facedown. Owen exchanges with their team bench to take the All-Star. Owen's
    partner takes a 5 of Clubs that was on the bench. One player on the other team passes
    on the exchange, while the other takes advantage and exchanges with a 2 of Hearts. The
    J of Hearts, the partner facedown card, and the opponent facedown card are all flipped
    and added to their respective benches. Play continues.\""""
    state = state_with(
        ["JH 4S", "9S 9D", "KC 6D", "QD 3S"], benches=("JOKER 5C", "JOKER#2 2H")
    )
    _, strategies = one_script([
        (TIMEOUT_PLACE, 0, "JH", -1), (TIMEOUT_PLACE, 1, -1, -1), (TIMEOUT_PLACE, 2, "KC", -1),
        (TIMEOUT_PLACE, 3, "QD", -1), (TIMEOUT_TAKE, 0, JOKER, -1),
        (TIMEOUT_TAKE, 3, "2H", -1),
    ])
    result = RoundResult(start_seat=0)
    run_timeout(state, strategies, 0, STREAM, result)
    assert state.hands[0] == sorted([parse_card("4S"), ALLSTAR_0]), "Owen took the All-Star"
    assert state.hands[2] == sorted(parse_cards("6D 5C")), "the partner took the 5 of Clubs"
    assert state.hands[1] == sorted(parse_cards("9S 9D")), "passed on the exchange"
    assert state.hands[3] == sorted(parse_cards("3S 2H"))
    assert state.benches[0] == sorted(parse_cards("JH KC")), "the face-down cards flip"
    assert state.benches[1] == sorted([ALLSTAR_1, parse_card("QD")])
    assert result.exchanges == [0, 2, 3], "in play order from the caller"
    state.check_cards()
    # placing: no exchange or either hand card (3 each); taking: the All-Star or 5C (2),
    # the partner then only 5C (forced), the opponent the All-Star or 2H (2)
    assert state.decisions == [3, 3, 3, 3, 2, 1, 2]


def test_face_down_cards_cannot_be_taken_in_a_timeout() -> None:
    """"The players may not take any facedown card from the bench into their hand."""
    state = state_with(["JH 4S", "9S", "KC 6D", "QD"], benches=("JOKER 5C", "JOKER#2"))
    strategy, strategies = one_script([
        (TIMEOUT_PLACE, 0, "JH", -1), (TIMEOUT_PLACE, 1, -1, -1), (TIMEOUT_PLACE, 2, -1, -1),
        (TIMEOUT_PLACE, 3, -1, -1), (TIMEOUT_TAKE, 0, "JH", -1),
    ])
    with pytest.raises(IllegalMoveError):
        run_timeout(state, strategies, 0, STREAM, RoundResult(start_seat=0))
    assert strategy.seen[-1][1].benches[0] == tuple(sorted([ALLSTAR_0, parse_card("5C")]))
    assert strategy.seen[-1][1].bench_face_down == (1, 0)


def test_a_player_whose_partner_took_the_last_bench_card_keeps_its_own_card() -> None:
    """Both partners place a card face down, but the bench shows one face-up card: the first
    in play order from the caller takes it, and "The players may not take any facedown card
    from the bench": the other takes back its own card, no exchange (Dodgeball #13)."""
    state = state_with(["JH 4S", "9S", "KC 6D", "QD"], benches=("JOKER", "JOKER#2"))
    _, strategies = one_script([
        (TIMEOUT_PLACE, 0, "JH", -1), (TIMEOUT_PLACE, 1, -1, -1), (TIMEOUT_PLACE, 2, "KC", -1),
        (TIMEOUT_PLACE, 3, -1, -1),
    ])
    result = RoundResult(start_seat=0)
    run_timeout(state, strategies, 0, STREAM, result)
    assert state.hands[0] == sorted([parse_card("4S"), ALLSTAR_0]), "the caller took it"
    assert state.hands[2] == sorted(parse_cards("KC 6D")), "the partner kept its card"
    assert state.benches[0] == [parse_card("JH")] and result.exchanges == [0]
    state.check_cards()
    # placing: 3, 2, 3, 2 options; the caller's take is forced (one face-up card), and the
    # partner is not asked at all
    assert state.decisions == [3, 2, 3, 2, 1]


def test_a_timeout_is_one_per_team_per_round() -> None:
    rules = DodgeballSettings()
    record = engine.play_game(rules, engine.lineup("random*4"), 5, 0)
    for result in record.rounds:
        assert all(used <= rules.timeouts for used in result.timeouts_used)


# --- Setup and the 2-player game ----------------------------------------------------------


class Counting:
    """A strategy that records every observation, answering as ``random``."""

    def __init__(self) -> None:
        self.inner = engine.lineup("random")[0]
        self.seen: list[tuple[int, Observation]] = []

    def decide(self, kind, observation, stream):
        self.seen.append((kind, observation))
        return self.inner.decide(kind, observation, stream)


def test_four_player_setup() -> None:
    """"Shuffle and evenly deal all the playing cards. Place an All-Star card (Joker) on
    each team's bench. Players simultaneously add 1 card from their hand to their
    respective benches, face-up. Teammates simultaneously pass each other a card from their
    hand.\""""
    rules = DodgeballSettings()
    deal = engine.deal_round(rules, game_stream(3, 0))
    assert [len(hand) for hand in deal.hands] == [13] * 4
    assert deal.benches == [[ALLSTAR_0], [ALLSTAR_1]]
    assert deal.all_cards() == sorted(list(range(1, 14)) + list(range(17, 30))
                                      + list(range(33, 46)) + list(range(49, 62))
                                      + [ALLSTAR_0, ALLSTAR_1])
    counting = Counting()
    state = RoundState(rules, [list(h) for h in deal.hands], deal.under,
                       [list(b) for b in deal.benches], [], deal.all_cards())
    engine.setup_round(state, [counting] * 4, game_stream(3, 1), RoundResult(0))
    kinds = [kind for kind, _ in counting.seen]
    assert kinds == [SETUP_BENCH] * 4 + [SETUP_PASS] * 4
    for _, observation in counting.seen[:4]:
        assert observation.benches == ((ALLSTAR_0,), (ALLSTAR_1,)), "benching is simultaneous"
    for seat, (_, observation) in enumerate(counting.seen[4:]):
        assert len(observation.hand) == 12 and observation.received == ()
        assert state.passed[seat] and state.received[seat] == state.passed[(seat + 2) % 4]
    assert [len(hand) for hand in state.hands] == [12] * 4
    assert [len(bench) for bench in state.benches] == [3, 3]
    state.check_cards()
    assert state.decisions == [13] * 4 + [12] * 4, "bench any of 13 cards, pass any of 12"


def test_two_player_setup_and_dummies() -> None:
    """"deal each player 6 cards face-down in a line and then cover those with a face-up
    card on top ... Deal each player 12 cards, and each bench 1 card face-up, along with an
    All-Star on each bench. The remaining 2 cards are left facedown and are out for the
    round. Players now put 1 card from their hand onto their bench, face-up, but the dummy
    hands do not (this makes the dummy players have 12 cards, while the actual players have
    11 each). Finally, players may exchange 1 card from their hand with 1 face-up card from
    their dummy-hand partner." "Whenever a facedown card is uncovered by the card on top of
    it being played, flip the facedown card face-up immediately. This includes during the
    setup exchange." "If a card is added to the dummy player through a catch, exchange, or
    timeout, it just goes to the side of the piles, face-up.\""""
    rules = DodgeballSettings(players=2)
    deal = engine.deal_round(rules, game_stream(4, 0))
    assert [len(hand) for hand in deal.hands] == [12, 12, 6, 6], "dummies: 6 face-up"
    assert [len(below) for below in deal.under] == [0, 0, 6, 6], "... on 6 face-down"
    assert set(deal.under[2]) == set(deal.hands[2])
    assert [len(bench) for bench in deal.benches] == [2, 2] and len(deal.out) == 2
    assert len(deal.all_cards()) == 54
    state = RoundState(rules, [list(h) for h in deal.hands], [dict(u) for u in deal.under],
                       [list(b) for b in deal.benches], list(deal.out), deal.all_cards())
    give = state.hands[0][0]
    take = state.hands[2][0]
    uncovered = state.under[2][take]
    script = Scripted([
        (SETUP_BENCH, 0, state.hands[0][-1] & 127, -1),
        (SETUP_BENCH, 1, state.hands[1][-1] & 127, -1),
        (DUMMY_EXCHANGE, 0, give & 127, take & 127),
        (DUMMY_EXCHANGE, 1, -1, -1),
    ])
    result = RoundResult(0)
    engine.setup_round(state, [script, script], STREAM, result)
    exchange = script.seen[2][1]
    assert exchange.dummy == tuple(deal.hands[2]), "the player sees its dummy's face-up cards"
    assert len(state.hands[0]) == 11 and len(state.hands[1]) == 11
    assert take in state.hands[0] and give in state.hands[2], "given card to the dummy's side"
    assert uncovered in state.hands[2], "the uncovered face-down card flipped"
    assert len(state.hands[2]) == 7 and len(state.under[2]) == 5
    assert result.setup_exchanges == [0]
    state.check_cards()
    # each player benches one of 12 cards, then exchanges none or any of its 11 cards for
    # any of its dummy's 6 face-up cards: 1 + 11 x 6
    assert state.decisions == [12, 12, 67, 67]


@pytest.mark.parametrize("players", [4, 2])
def test_the_ringer_variant_deals_one_ringer_to_each_seat(players: int) -> None:
    """"During setup, shuffle the 4 Ringer cards and deal 1 to each player." With 4 players
    each hand gets a 14th card, a Ringer of its own suit draw; with 2 players each of the
    four seats gets one (a dummy's lies face up beside its piles, no card under it:
    Dodgeball #2)."""
    rules = DodgeballSettings(players=players, ringers=True)
    ringers = set(int(code) for code in engine.ringer_codes())
    suits = set()
    for game in range(8):
        deal = engine.deal_round(rules, game_stream(6, game))
        held = [[code for code in hand if code in ringers] for hand in deal.hands]
        assert [len(codes) for codes in held] == [1, 1, 1, 1]
        assert {code for codes in held for code in codes} == ringers
        covering = {code for below in deal.under for code in below}
        covered = {code for below in deal.under for code in below.values()}
        assert not ringers & (covering | covered), "a Ringer is in no pile"
        suits.add(held[0][0] >> 4)
        sizes = [13] * 4 if players == 4 else [12, 12, 6, 6]
        assert [len(hand) for hand in deal.hands] == [size + 1 for size in sizes]
    assert len(suits) > 1, "the Ringers are shuffled"


def test_two_player_play_order_and_flips() -> None:
    """"Players will play cards to the trick in between opponents: Player 1, Player 2,
    Player 1's dummy partner, Player 2's dummy partner"; dummies play face-up cards only,
    and a face-down card flips when the card on it is played."""
    rules = DodgeballSettings(players=2)
    record = engine.play_game(rules, engine.lineup("random,dodger"), 11, 0)
    first = record.rounds[0]
    plays = [event["seat"] for event in first.events
             if "card" in event and event.get("trick") == 0]
    assert plays == [0, 1, 2, 3][: len(plays)] and plays
    flipped = Counting()
    engine.play_game(rules, [flipped, flipped], 12, 0)
    seats = {observation.seat for _, observation in flipped.seen}
    assert seats == {0, 1, 2, 3}, "a player decides for its dummy too"
    for _, observation in flipped.seen:
        assert observation.face_down[0] == observation.face_down[1] == 0
        if observation.seat >= 2:
            assert observation.hand == observation.dummy_cards[observation.seat]


# --- whole games: conservation and invariants ---------------------------------------------

VARIANTS = [
    DodgeballSettings(),
    DodgeballSettings(ringers=True),
    DodgeballSettings(ringers=True, aces="high", ringer_bench="zero"),
    DodgeballSettings(ringers=True, ringer_bench="fourteen", timeouts=3),
    DodgeballSettings(players=2),
    DodgeballSettings(players=2, ringers=True, aces="high"),
    DodgeballSettings(setup_bench=2, setup_swap=3, catch_bring_back=False, match_points=3),
    DodgeballSettings(ranks=tuple(range(1, 7)), allstars=False, match_points=1),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: repr(rules.to_dict())[:60])
@pytest.mark.parametrize("lineup", ["random", "dodger", "coach", "mixed"])
def test_whole_games_keep_every_card_and_end_as_written(rules, lineup) -> None:
    names = {"mixed": ["random", "dodger", "coach", "random"]}.get(lineup, [lineup] * 4)
    strategies = engine.lineup(",".join(names[: rules.players]))
    for game in range(6):
        record = engine.play_game(rules, strategies, 21, game)  # checks cards every step
        assert max(record.points) == rules.match_points
        assert record.points[record.winner_team] == rules.match_points
        assert len(record.rounds) == sum(record.points)
        assert record.rounds[0].start_seat == 0
        for before, after in zip(record.rounds, record.rounds[1:], strict=False):
            assert after.start_seat == before.loser_seat, (
                "the start player for the next round is the player that triggered the end"
            )
        for result in record.rounds:
            assert len(result.outcomes) == result.tricks
            assert result.reason in (EMPTY_HAND, CANNOT_FOLLOW)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS))
def test_any_seed_keeps_every_card(seed: int, rules: DodgeballSettings) -> None:
    engine.play_game(rules, engine.lineup(",".join(["random"] * rules.players)), seed, 0)


def test_a_round_from_given_hands_with_duplicate_cards() -> None:
    """Through the Zoo deals Dodgeball from four personal decks: hands may hold the same
    face twice (different copies). ``play_round`` plays such a deal and keeps every card."""
    stream = game_stream(9, 0)
    hands = []
    for seat in range(4):
        deck = np.array([seat * COPY_STRIDE + suit * 16 + rank for suit in range(4)
                         for rank in range(1, 14)], dtype=np.int64)
        shuffle(deck, stream)
        hands.append(sorted(int(code) for code in deck[:13]))
    deal = Deal(hands=hands, benches=[[ALLSTAR_0], [ALLSTAR_1]])
    strategies = engine.lineup("dodger,random,coach,random")
    result = engine.play_round(DodgeballSettings(), deal, strategies, stream, start_seat=2)
    assert result.loser_seat in range(4) and result.start_seat == 2
