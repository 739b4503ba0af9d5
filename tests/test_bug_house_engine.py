"""Bug House Millionaire's reference engine: the rulebook's examples, the clock and the two
duels in time (hand-built positions with scripted players), and invariants of whole games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import rng as rng_module
from zooanalysis.cards.notation import format_cards, parse_cards
from zooanalysis.games.bug_house import engine
from zooanalysis.games.bug_house.engine import (
    CLOCK,
    F_CARDS,
    F_CLOCK_USED,
    F_DECISIONS,
    F_GIVEN,
    F_PASSES,
    F_RECEIVED,
    F_SINGLES_CARD,
    F_STUCK,
    F_TRICKS,
    SHED,
    Duel,
    GameState,
    IllegalMoveError,
    play_from,
)
from zooanalysis.games.bug_house.melds import meld_of
from zooanalysis.games.bug_house.rules import BugHouseSettings
from zooanalysis.games.bug_house.strategies import (
    STRATEGIES,
    give_ms,
    strategy_params,
    think_ms,
)
from zooanalysis.strategy_spec import parse_player


class Scripted:
    """A player following a script: melds (card text, None = pass) and gifts in order, then
    its first legal meld when leading and a pass when following; fixed times."""

    def __init__(self, melds=(), gifts=(), think=1000, give=500):
        self.melds, self.gifts = list(melds), list(gifts)
        self.think, self.give = think, give

    def choose_meld(self, observation, rng):
        if self.melds:
            text = self.melds.pop(0)
            return None if text is None else meld_of(parse_cards(text))
        legal = observation.legal_melds()
        return legal[0] if observation.top is None else None

    def choose_gift(self, observation, rng):
        return parse_cards(self.gifts.pop(0))[0] if self.gifts else observation.trick[0]

    def thinking_ms(self, observation, options, rng):
        return self.think

    def giving_ms(self, observation, rng):
        return self.give


def position(hands: list[str], **rules) -> GameState:
    """A hand-built deal at time 0 (the cards nobody holds are out of play)."""
    settings_ = BugHouseSettings(**rules)
    held = [set(parse_cards(text)) for text in hands]
    rest = sorted(set(range(64)) - set().union(*held))
    return GameState(
        settings=settings_, hands=held, clocks=[settings_.clock_ms] * 4,
        duels=[Duel(index=0, mover=0), Duel(index=1, mover=3)], collected=rest,
    )


def play(state: GameState, players) -> engine.GameRecord:
    return play_from(state, players, rng_module.game_stream(1, 0))


def test_flik_and_zorak() -> None:
    """"Flik leads a 1. Hits his clock. Zorak thinks a bit, then plays a 3. Hits his clock.
    Flik passes. Hits his clock. Zorak wins the trick. The winner of the trick now picks any
    1 card from the trick they just won and gives it over to their partner. They must give a
    card to their partner before they lead into their next trick." """
    state = position(["1C 9D 10D", "3S 12H 13H", "5C 6C", "7S 8D"])
    flik = Scripted(["1C", None])
    zorak = Scripted(["3S", "12H", "13H"], gifts=["1C", "12H"])
    slow = Scripted(think=100_000)
    record = play(state, [flik, zorak, slow, slow])
    assert [event[:3] for event in record.events] == [
        (1000, 0, "lead"), (2000, 1, "play"), (3000, 0, "pass"), (3500, 1, "give"),
        (4500, 1, "lead"), (5500, 0, "pass"), (6000, 1, "give"), (7000, 1, "lead"),
    ]
    assert record.events[3][3] == "1C"
    assert (record.reason, record.ender, record.winner_team, record.end_ms) == (SHED, 1, 1, 7000)
    assert state.hands[3] == set(parse_cards("7S 8D 1C 12H")), "the partner took both gifts"
    clock_used = [counts[F_CLOCK_USED] for counts in record.seat_counts]
    assert clock_used == [3000, 4000, 0, 7000]
    assert record.seat_counts[1][F_TRICKS] == 2 and record.seat_counts[0][F_PASSES] == 2
    assert record.seat_counts[1][F_GIVEN] == 2 and record.seat_counts[3][F_RECEIVED] == 2


def test_the_decisions_of_flik_and_zorak() -> None:
    """Each decision's legal options (zooanalysis.decisions), by hand: Flik leads from
    1C 9D 10D (three singles; 9D 10D is no run), Zorak answers 1C from 3S 12H 13H (three
    singles beat it, or pass), Flik answers 3S with 9D or 10D or passes, Zorak gives one of
    the trick's two cards and leads 12H or 13H; then Flik can only pass (nothing beats
    12H), Zorak's gift is the trick's one card and his lead his last card: forced."""
    state = position(["1C 9D 10D", "3S 12H 13H", "5C 6C", "7S 8D"])
    slow = Scripted(think=100_000)
    record = play(state, [Scripted(["1C", None]),
                          Scripted(["3S", "12H", "13H"], gifts=["1C", "12H"]), slow, slow])
    assert record.decisions == [3, 4, 3, 2, 2, 1, 1, 1]
    assert len(record.decisions) == sum(counts[F_DECISIONS] for counts in record.seat_counts)


def test_jiminy_and_barry() -> None:
    """"Jiminy leads a suited 4,5,6. Hits his clock. Barry plays a suited 6,7,8. Hits his
    clock. Jiminy plays a suited 11,12,13. Hits his clock. Barry passes. Hits his clock.
    Jiminy wins the trick. After some chatting with his partner, Jiminy gives over the 5
    card from this trick to his partner. Jiminy leads the next trick and hits his clock." """
    state = position(["4H 5H 6H 11D 12D 13D 0S", "6C 7C 8C 2S", "9S", "15S 14S"])
    jiminy = Scripted(["4H 5H 6H", "11D 12D 13D"], gifts=["5H"], give=4000)
    barry = Scripted(["6C 7C 8C", None])
    slow = Scripted(think=100_000)
    record = play(state, [jiminy, barry, slow, slow])
    assert [(e[1], e[2], e[3]) for e in record.events] == [
        (0, "lead", "4H 5H 6H"), (1, "play", "6C 7C 8C"), (0, "play", "11D 12D 13D"),
        (1, "pass", ""), (0, "give", "5H"), (0, "lead", "0S"),
    ]
    assert record.events[4][0] == 8000, "chatting costs Jiminy's clock"
    assert (record.reason, record.ender, record.winner_team) == (SHED, 0, 0)
    assert parse_cards("5H")[0] in state.hands[2]


def test_a_run_is_not_beaten_by_a_longer_run_unless_the_setting_says_so() -> None:
    state = position(["4H 5H 6H 0S 1S", "6C 7C 8C 9C", "9S", "15S 14S"])
    barry = Scripted(["6C 7C 8C 9C"])
    with pytest.raises(IllegalMoveError):
        play(state, [Scripted(["4H 5H 6H"]), barry, Scripted(think=100_000),
                     Scripted(think=100_000)])
    state = position(["4H 5H 6H 0S 1S", "6C 7C 8C 9C", "9S", "15S 14S"], longer_runs_beat=True)
    record = play(state, [Scripted(["4H 5H 6H"]), Scripted(["6C 7C 8C 9C"]),
                          Scripted(think=100_000), Scripted(think=100_000)])
    assert record.events[1][3] == "6C 7C 8C 9C" and record.ender == 1


def test_a_stuck_player_never_stalls_the_other_duel() -> None:
    """Delayed Singles: seat 1 holds only singles and its partner holds their team's
    Singles Allowed card, so it has no legal lead. Its clock runs; duel 2 plays on to the
    end."""
    state = position(["1C 5D 9S", "0D", "10C 11C 12C 0H 15D", "2C 3C 4C 8H"],
                     delayed_singles=True)
    state.singles_holders[0] = 2
    seat3 = Scripted(["2C 3C 4C", None, "8H"])
    seat2 = Scripted(["10C 11C 12C", "0H"], gifts=["11C"])
    stuck = Scripted()
    record = play(state, [stuck, Scripted(), seat2, seat3])
    assert [e[1] for e in record.events] == [3, 2, 3, 2, 2, 3]
    assert record.seat_counts[0][F_STUCK] == 1
    assert (record.reason, record.ender, record.winner_team, record.end_ms) == (SHED, 3, 1, 5500)
    assert record.seat_counts[0][F_CLOCK_USED] == 5500, "its clock ran the whole time"
    assert record.seat_counts[1][F_CLOCK_USED] == 0, "its opponent waits on a stopped clock"
    assert state.hands[0] == set(parse_cards("1C 5D 9S 11C")), "the gift made no lead"


def test_a_gift_that_makes_a_lead_wakes_a_stuck_partner() -> None:
    state = position(["1C 5D 9S", "0D 2D", "12C 13C", "5C 8H"], delayed_singles=True)
    state.singles_holders[0] = 2
    seat3 = Scripted(["5C", None])
    seat2 = Scripted(["12C"], gifts=["5C"], think=2000)
    waker = Scripted(["5C 5D", "1C"], think=1500)
    record = play(state, [waker, Scripted([None], think=700), seat2, seat3])
    # 1000: seat 4 leads 5C (taking its team's card); 3000: seat 3 plays 12C; 4000: seat 4
    # passes; 4500: seat 3 gives 5C to seat 1, who wakes with a pair: 6000 it leads it
    assert record.seat_counts[3][F_SINGLES_CARD] == 1
    assert (6000, 0, "lead", "5C 5D") in record.events
    assert record.seat_counts[0][F_STUCK] == 1
    assert record.events[-1] == (6500, 2, "lead", "13C"), "seat 3 sheds out meanwhile"
    # being stuck is no decision: seat 4 leads from 5C 8H (2 singles), seat 3 answers 5C
    # with 12C or 13C or passes, seat 4 can only pass (8H does not beat 12C), seat 3 gives
    # 5C or 12C, seat 1 leads its only meld 5C 5D (no singles: seat 3 holds the team's
    # card), seat 3 leads its last card
    assert record.decisions == [2, 3, 1, 2, 1, 1]
    assert (record.reason, record.ender, record.winner_team) == (SHED, 2, 0)
    assert record.seat_counts[0][F_CLOCK_USED] == 6000, "stuck 4.5 s, then 1.5 s thinking"


def test_delayed_singles_following_a_single_is_always_allowed_and_takes_no_card() -> None:
    """Delayed Singles: "Players may always follow/play on singles; when an opponent takes
    the Singles Allowed card and leads a single, the other player may play onto that lead
    single with a higher single." Seat 1 leads the 1C and takes its team's card; seat 2
    plays the 3S onto it while its own team's card still lies on the table, and does not
    take it (only leading a single does); it then leads a pair and sheds out."""
    state = position(["1C 9D", "3S 0D 0H", "5C 6C", "7S 8D"], delayed_singles=True)
    slow = Scripted(think=100_000)
    record = play(state, [Scripted(["1C", None]), Scripted(["3S", "0D 0H"], gifts=["1C"]),
                          slow, slow])
    assert [(e[1], e[2], e[3]) for e in record.events] == [
        (0, "lead", "1C"), (1, "play", "3S"), (0, "pass", ""), (1, "give", "1C"),
        (1, "lead", "0D 0H"),
    ]
    assert state.singles_holders == [0, -1]
    assert record.seat_counts[0][F_SINGLES_CARD] == 1 and record.seat_counts[1][F_SINGLES_CARD] == 0
    assert (record.reason, record.ender, record.winner_team) == (SHED, 1, 1)


def test_delayed_singles_a_player_blocked_from_leading_singles_may_still_follow_one() -> None:
    """"once the card is taken, it cannot leave from in front of that player, blocking their
    partner from playing singles" applies to leading: seat 4 holds team 2's card, yet seat 2
    (its partner) plays the 3S onto seat 1's single and wins the trick. Leading next, it
    holds only a single (12H) and may not lead it: it is stuck until its clock runs out
    (1.5 s used before, so at 117 s), and the other team wins."""
    state = position(["1C 9D", "3S 12H", "5C 6C", "7S 8D"], delayed_singles=True)
    state.singles_holders[1] = 3
    slow = Scripted(think=100_000)
    record = play(state, [Scripted(["1C", None]), Scripted(["3S"], gifts=["1C"]), slow, slow])
    assert [(e[1], e[2], e[3]) for e in record.events] == [
        (0, "lead", "1C"), (1, "play", "3S"), (0, "pass", ""), (1, "give", "1C"),
        (3, "lead", "1C"),
    ]
    assert state.singles_holders == [0, 3]
    assert record.seat_counts[1][F_STUCK] == 1
    assert (record.reason, record.ender, record.winner_team, record.end_ms) == (
        CLOCK, 1, 0, 117_000)


def test_a_clock_at_zero_ends_the_game_at_that_instant() -> None:
    """"Play like this continues until either: any player on either team is out of cards
    or any player's clock runs out." "if a clock runs out on a player, the other team
    wins!!" Seat 1 thinks 4 s a move on a 10 s clock: its third turn starts with 2 s left,
    so the clock runs out 2 s later."""
    state = position(["1C 9C 10C 11C", "5D 12D 13D 14D", "9S 10S", "11S 12S"],
                     clock_seconds=10)
    seat0 = Scripted(["1C", "9C", "11C"], think=4000)
    seat1 = Scripted(["5D", "12D", "14D"], think=1000)
    slow = Scripted(think=9000)
    record = play(state, [seat0, seat1, Scripted([None], think=9000), slow])
    assert (record.reason, record.ender, record.winner_team, record.end_ms) == (CLOCK, 0, 1, 12000)
    assert record.seat_counts[0][F_CLOCK_USED] == 10_000
    assert [e[:2] for e in record.events] == [(4000, 0), (5000, 1), (9000, 0), (9000, 3),
                                              (10000, 1)]


@pytest.mark.parametrize("think", [115_000, 200_000])
def test_thinking_as_long_as_the_clock_is_a_loss_on_time(think: int) -> None:
    state = position(["1C", "5D", "9S 10S", "11S 12S"])
    record = play(state, [Scripted(think=think), Scripted(), Scripted(), Scripted(think=60_000)])
    # seat 4 leads at 60 s, seat 3 (partner of seat 1) passes at 61 s, seat 4 gives at
    # 61.5 s and leads again at 62.5 s; seat 3 passes ...; seat 1's clock runs out at 115 s
    assert (record.reason, record.ender, record.winner_team, record.end_ms) == (
        CLOCK, 0, 1, 115_000)


@pytest.mark.parametrize(
    ("times", "winner", "ender", "end_ms"),
    [((5000, 3000), 1, 3, 3000), ((3000, 5000), 0, 0, 3000), ((4000, 4000), 0, 0, 4000)],
)
def test_who_wins_by_shedding_out_first(times, winner, ender, end_ms) -> None:
    """"if a player is out of cards, their team wins!!" The first of the two start players
    to play its last card wins for its team; at the same instant duel 1 comes first."""
    state = position(["1C", "5D 6D", "9S 10S", "11S"])
    first, diagonal = times
    record = play(state, [Scripted(think=first), Scripted(), Scripted(),
                          Scripted(think=diagonal)])
    assert (record.reason, record.winner_team, record.ender, record.end_ms) == (
        SHED, winner, ender, end_ms)


def test_a_clock_running_out_and_a_shed_out_at_the_same_instant() -> None:
    """Seat 1's clock runs out at 10 s exactly as seat 3 (its partner) plays its last card:
    duel 1 comes first at equal times (docs/rules-decisions.md), so the game ends on time
    and the other team wins."""
    state = position(["1C", "5D", "9S", "1S 12S"], clock_seconds=10)
    record = play(state, [Scripted(think=20_000), Scripted(), Scripted(["9S"], think=5000),
                          Scripted(think=5000)])
    assert (record.reason, record.ender, record.winner_team, record.end_ms) == (
        CLOCK, 0, 1, 10_000)


def test_without_passing_the_winner_leads_at_once() -> None:
    state = position(["1C 9D", "3S 12H", "5C 6C", "7S 8D"], partner_passing=False)
    record = play(state, [Scripted(["1C", None]), Scripted(["3S", "12H"]),
                          Scripted(think=100_000), Scripted(think=100_000)])
    assert [e[2] for e in record.events] == ["lead", "play", "pass", "lead"]
    assert record.end_ms == 4000 and all(c[F_GIVEN] == 0 for c in record.seat_counts)


def test_the_thinking_time_model() -> None:
    """base + per_option * options + jitter * R, R of mean 1 from one uniform; fixed: R = 1;
    at least 1 ms."""
    player = parse_player("climber:base=2,per_option=0.5,jitter=1,pass_time=3", STRATEGIES)
    params = strategy_params(player)[None, :]
    stream = rng_module.game_stream(5, 5)
    assert think_ms(params, 0, 4, 2, stream) == 2000 + 2000 + 1000  # fixed
    assert give_ms(params, 0, 2, stream) == 3000 + 1000
    copy = stream.copy()
    u = rng_module.uniform(copy)
    assert think_ms(params, 0, 0, 1, stream) == round(2000 + 1000 * 2 * u)  # uniform
    copy = stream.copy()
    u = rng_module.uniform(copy)
    assert think_ms(params, 0, 0, 0, stream) == round(2000 - 1000 * np.log(1 - u))
    zero = strategy_params(parse_player("fast:base=0,per_option=0,jitter=0", STRATEGIES))
    assert think_ms(zero[None, :], 0, 10, 0, stream) == 1, "hitting the clock takes a moment"
    samples = [think_ms(params, 0, 0, 0, stream) for _ in range(4000)]
    assert 2900 < np.mean(samples) < 3100, "the exponential part has mean jitter"


LINEUPS = ["random,random,random,random", "climber,fast,climber,fast",
           "fast,random,climber,random"]
VARIANTS = [{}, {"delayed_singles": True}, {"partner_talk": "need", "clock_seconds": 30},
            {"partner_passing": False, "min_run": 2}, {"thinking_distribution": "uniform"}]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), lineup=st.sampled_from(LINEUPS),
       variant=st.sampled_from(VARIANTS))
def test_invariants_of_whole_games(seed, lineup, variant) -> None:
    """Every card is somewhere once (checked after every game); in each duel exactly one
    clock runs at any time, so the duel's two clocks used add up to the game's length; the
    ender shed out (no card left) or used its whole clock; one pass ends every trick."""
    rules = BugHouseSettings(**variant)
    states: list = []
    record = engine.play_game(rules, engine.lineup(lineup), seed, 0, state_out=states)
    counts = record.seat_counts
    for duel in (0, 1):
        assert counts[2 * duel][F_CLOCK_USED] + counts[2 * duel + 1][F_CLOCK_USED] == \
            record.end_ms
    if record.reason == SHED:
        assert record.cards_left[record.ender] == 0
        assert record.winner_team == record.ender % 2
    else:
        assert counts[record.ender][F_CLOCK_USED] == rules.clock_ms
        assert record.winner_team != record.ender % 2
    assert record.end_ms <= 2 * rules.clock_ms
    played = sum(c[F_CARDS] for c in counts)
    received = sum(c[F_RECEIVED] for c in counts)
    assert sum(record.cards_left) == 64 - played + received
    assert sum(c[F_TRICKS] for c in counts) == record.tricks == sum(c[F_PASSES] for c in counts)
    assert len(record.decisions) == sum(c[F_DECISIONS] for c in counts) == len(record.events)
    assert min(record.decisions, default=1) >= 1, "a decision has a legal option"
    times = [event[0] for event in record.events]
    assert times == sorted(times)
    assert [len(h) for h in states[0].hands] == record.cards_left
    for _, _, _, cards in record.events:
        assert cards == "" or format_cards(parse_cards(cards), numeric=True) == cards


def test_the_same_seed_gives_the_same_game() -> None:
    players = engine.lineup("random,climber,fast,random")
    first = engine.play_game(BugHouseSettings(), players, 11, 3)
    again = engine.play_game(BugHouseSettings(), players, 11, 3)
    other = engine.play_game(BugHouseSettings(), players, 11, 4)
    assert first.events == again.events
    assert first.events != other.events
