"""The Lucky Lions reference engine against the rulebook, hand-built tables and invariants."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.games.lucky_lions.cards import ZooCard
from zooanalysis.games.lucky_lions.engine import (
    END_DECK,
    END_POINTS,
    POWER_DOLPHIN,
    POWER_LION,
    GameRecord,
    GameState,
    Player,
    lineup,
    play_game,
    play_turn,
)
from zooanalysis.games.lucky_lions.flat import DOLPHIN, FLAMINGO, FOX, LION, PANDA
from zooanalysis.games.lucky_lions.matrix_game import selection_game, solve_zero_sum
from zooanalysis.games.lucky_lions.rules import FLAGS, LuckySettings, settings_from_table
from zooanalysis.rng import game_stream

W = 5  # wild card type = animal + 5


class Scripted:
    """A strategy with fixed answers, recording what it was asked."""

    def __init__(self, card=(0, 1), discarder=None, discard=None, draw=False, subset=None,
                 keep=0, reroll=False, switch=0, receiver=0, excluded=None):  # fmt: skip
        self.card, self.discarder, self.discard = card, discarder, discard
        self.draw, self.subset, self.keep, self.reroll = draw, subset, keep, reroll
        self.switch, self.receiver, self.excluded = switch, receiver, excluded
        self.asked: list[str] = []

    def choose_card(self, view, rng):
        self.asked.append("card")
        return self.card

    def choose_excluded(self, view, rng):
        self.asked.append("excluded")
        return self.excluded

    def choose_subset(self, view, card, battlers, k, rng):
        self.asked.append(f"subset{k}")
        return self.subset

    def choose_keep(self, view, card, battlers, first, second, rng):
        self.asked.append("keep")
        return self.keep

    def choose_reroll(self, view, winning, rng):
        self.asked.append("reroll")
        return self.reroll

    def choose_switch(self, view, battlers, rng):
        self.asked.append("switch")
        return self.switch

    def choose_discarder(self, view, first, second, rng):
        self.asked.append("discarder")
        return self.discarder

    def choose_receiver(self, view, winners, rng):
        self.asked.append("receiver")
        return self.receiver

    def choose_discard(self, view, rng):
        self.asked.append("discard")
        return self.discard if self.discard is not None else view.die.index(max(view.die))

    def choose_draw_instead(self, view, card, rng):
        self.asked.append("draw")
        return self.draw


def card(*animals: int, points: int = 2, people: bool = False, special=None, named=()):
    return ZooCard(tuple(animals), points, people, special, tuple(named))


def table(rules: LuckySettings, dice, market, deck=(), pile=()) -> GameState:
    """A game state laid out by hand (the random stream only matters for rolls)."""
    state = GameState(
        settings=rules,
        stream=game_stream(1, 0),
        zoo_deck=list(deck),
        market=list(market),
        pile=list(pile),
        players=[Player(die=list(d)) for d in dice],
        seen=[[0] * 10 for _ in dice],
        public_discards=[0] * 10,
    )
    state.record = GameRecord(scores=[], winners=[])
    return state


TWO = LuckySettings(players=2)
CYCLE = (LION, FOX, PANDA)  # lion -> fox -> panda: fox beats lion, panda fox, lion panda


def test_the_animal_an_arrow_points_to_wins_and_takes_the_card() -> None:
    """Rulebook: "Your animal is \"better\" if the distance (number of arrows) between your
    animal and the opponent's animal is larger than the other way around." "They win the Zoo
    Card and place it faceup before them." (decision #1)"""
    state = table(TWO, [[LION] * 6, [FOX] * 6], [card(*CYCLE, points=3)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 3]
    assert state.players[1].won == [card(*CYCLE, points=3)]
    assert state.seen[0][LION] == 1 and state.seen[1][FOX] == 1
    assert state.record.rolls == [(6, LION, 2), (6, FOX, 0)]


def test_refill_after_the_pick_from_the_top_of_the_deck() -> None:
    """Rulebook: "Pick a Zoo Card from the options on the table. (Then refill from deck.)" """
    market = [card(LION, FOX, points=1), card(*CYCLE)]
    deck = [card(FOX, PANDA, points=3), card(PANDA, LION)]
    rules = LuckySettings(players=2, market_size=2)
    state = table(rules, [[LION] * 6, [FOX] * 6], market, deck=deck)
    play_turn(state, [Scripted(card=(1, 1)), Scripted()], active=0)
    assert state.market == [market[0], deck[0]]
    assert state.zoo_deck == [deck[1]]


def test_a_tie_the_active_player_decides_who_discards_and_the_other_wins() -> None:
    """Rulebook: "In case of a tie, one battler must discard a card and the other wins the
    Zoo Card. The active player decides who gets what. Discarded cards are secret."
    """
    active, other = Scripted(discarder=1), Scripted(discard=LION)
    state = table(TWO, [[LION] * 6, [LION] * 6], [card(*CYCLE)])
    play_turn(state, [active, other], active=0)
    assert "discarder" in active.asked and "discard" in other.asked
    assert state.scores == [2, 0]
    assert len(state.players[1].die) == 5 and state.players[1].discarded == [LION]
    assert state.seen[1] == [0] * 10, "a secret discard wipes what others knew of that die"
    assert state.record.ties == [0]


def test_a_player_never_discards_its_last_card() -> None:
    """Rulebook: "you can't discard your final card." (decision #7)"""
    active = Scripted(discarder=1)
    state = table(TWO, [[LION] * 6, [LION]], [card(*CYCLE)])
    play_turn(state, [active, Scripted()], active=0)
    assert "discarder" not in active.asked, "only one battler can discard: no choice"
    assert len(state.players[0].die) == 5 and state.scores == [0, 2]


def test_nobody_can_discard_so_the_card_leaves_the_game() -> None:
    """Rulebook: "you can't discard your final card." Neither battler can: decision #7."""
    state = table(TWO, [[LION], [LION]], [card(*CYCLE)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 0] and len(state.out_of_game) == 1
    assert state.record.ties == [1]


def test_off_cycle_animals_lose_to_on_cycle_ones_and_tie_each_other() -> None:
    """Rulebook: "All missing animals are considered equal in value, but less valuable than
    all included animals."
    """
    state = table(TWO, [[DOLPHIN] * 6, [FOX] * 6], [card(FOX, PANDA)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 2]
    state = table(TWO, [[DOLPHIN] * 6, [LION] * 6], [card(FOX, PANDA)])
    play_turn(state, [Scripted(discarder=1), Scripted()], active=0)
    assert state.record.ties == [0] and state.scores == [2, 0]


def test_busy_zoo_people_icon_everyone_rolls_and_the_largest_gap_wins() -> None:
    """Rulebook (Busy Zoo): "All players roll their die. As usual, the winner is the animal
    with the largest gap between themselves and the next animal in the cycle."
    (decisions #2, #11)"""
    rules = LuckySettings(players=3, busy_zoo=True)
    # lion -> fox -> panda -> flamingo: lion's gap to fox 1, fox's to panda 1, panda's to
    # lion 2 (flamingo is nobody's): panda wins alone
    people = card(LION, FOX, PANDA, FLAMINGO, people=True)
    state = table(rules, [[LION] * 6, [FOX] * 6, [PANDA] * 6], [people])
    play_turn(state, [Scripted(), Scripted(), Scripted()], active=0)
    assert state.scores == [0, 0, 2]
    # without Busy Zoo the icon means nothing: only the chosen opponent rolls
    state = table(LuckySettings(players=3), [[LION] * 6, [FOX] * 6, [PANDA] * 6], [people])
    play_turn(state, [Scripted(card=(0, 1)), Scripted(), Scripted()], active=0)
    assert state.scores == [0, 2, 0] and state.seen[2] == [0] * 10


def test_busy_zoo_three_winners_the_active_player_picks_one() -> None:
    """Rulebook (Busy Zoo): "If there are 3(+) winners, some of them simply get nothing, at
    the active player's discretion." (decision #11)"""
    rules = LuckySettings(players=3, busy_zoo=True)
    active = Scripted(receiver=2)
    state = table(rules, [[DOLPHIN] * 6] * 3, [card(LION, FOX, people=True)])
    play_turn(state, [active, Scripted(), Scripted()], active=0)
    # rollers are listed from the active player clockwise: index 2 is seat 2
    assert "receiver" in active.asked and state.scores == [0, 0, 2]
    assert all(len(p.die) == 6 for p in state.players), "three winners: nobody discards"


def test_player_exclude_leaves_one_player_out() -> None:
    """Rules file, player_exclude: "Pick one player who does not get to roll" (decision #12)."""
    rules = LuckySettings(players=3, busy_zoo=True)
    exclude = card(*CYCLE, people=True, special="player_exclude")
    state = table(rules, [[LION] * 6, [PANDA] * 6, [FOX] * 6], [exclude])
    play_turn(state, [Scripted(excluded=1), Scripted(), Scripted()], active=0)
    assert state.seen[1] == [0] * 10, "the excluded player did not roll"
    assert state.scores == [0, 0, 2], "fox beats lion"


def test_autowin_card() -> None:
    """Rules file, autowin: "X always wins; everything else is a tie" (decision #4)."""
    rules = LuckySettings(players=2, busy_zoo=True)
    autowin = card(*CYCLE, special="autowin", named=(DOLPHIN,))
    state = table(rules, [[FOX] * 6, [DOLPHIN] * 6], [autowin])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 2]


def test_double_roll_keeps_the_chosen_result() -> None:
    """Rules file, double_roll: "All battlers roll twice and pick one of the results as final"
    (decisions #12, #17)."""
    rules = LuckySettings(players=2, busy_zoo=True)
    double = card(*CYCLE, special="double_roll")
    die = [LION, FOX]
    state = table(rules, [die * 3, [PANDA] * 6], [double])
    rules_asked = Scripted(keep=0)
    play_turn(state, [rules_asked, Scripted(keep=1)], active=0)
    assert rules_asked.asked.count("keep") == 1
    assert len(state.record.rolls) == 2


def test_reduced_die_rolls_only_the_chosen_cards() -> None:
    """Rulebook (variant): "Battlers select only that many cards from their die. ... Now roll
    this reduced die" (decision #8)."""
    rules = LuckySettings(players=2, reduced_die=True)
    two = card(LION, FOX)  # 2 arrows: pick 2 cards
    for _ in range(20):
        state = table(rules, [[FOX, FOX, LION, LION, LION, LION], [DOLPHIN] * 6], [two])
        chooser = Scripted(subset=[0, 2, 0, 0, 0, 0, 0, 0, 0, 0])
        play_turn(state, [chooser, Scripted(subset=[0, 0, 0, 0, 2, 0, 0, 0, 0, 0])], active=0)
        assert chooser.asked[1] == "subset2"
        assert state.scores == [2, 0], "fox (on the card) beats dolphin (off it)"


def test_no_shuffle_rolls_the_top_card_and_returns_it_to_the_bottom() -> None:
    """Rulebook (no shuffle): "When \"rolling\" your die, simply grab the top card. If you ever
    get your card back ... place it at the bottom." (decisions #9, #15)"""
    rules = LuckySettings(players=2, no_shuffle=True)
    state = table(rules, [[FOX, LION, LION], [LION, PANDA, PANDA]], [card(*CYCLE)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [2, 0], "fox (top) beats lion (top)"
    assert state.players[0].die == [LION, LION, FOX]
    assert state.players[1].die == [PANDA, PANDA, LION]


def test_no_shuffle_reshuffles_once_at_five_points() -> None:
    """Rulebook (no shuffle): "When you reach 5 points or draw a new card ..., shuffle once
    more." (decision #9)"""
    rules = LuckySettings(players=2, no_shuffle=True, reshuffle_at_points=5)
    state = table(rules, [[FOX] + [LION] * 5, [LION] * 6], [card(*CYCLE, points=3)])
    state.players[0].points = 3
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.players[0].points == 6 and state.players[0].reshuffled


def test_draw_instead_refuses_the_card_and_draws_its_points() -> None:
    """Rulebook (variant): "Whenever you win a Zoo card, you can decide to draw Animal cards
    instead ... You draw as many as the score number on that Zoo card you refused."
    (decision #10; where the refused card goes: tests/test_lucky_lions_readings.py)"""
    rules = LuckySettings(players=2, draw_instead=True, refused_zoo_card="out_of_game")
    state = table(rules, [[FOX] * 6, [LION] * 6], [card(*CYCLE, points=3)], pile=[PANDA] * 2)
    play_turn(state, [Scripted(draw=True), Scripted()], active=0)
    assert state.scores == [0, 0] and len(state.out_of_game) == 1
    assert state.players[0].die == [FOX] * 6 + [PANDA] * 2, "3 points, but only 2 to draw"
    assert state.record.draws_instead == [0]


def test_wild_lion_wins_a_tie_and_wild_flamingo_loses_one() -> None:
    """Rules file, Wild Animals: "Lion: in case of a tie, I always win." "Flamingo: in case of
    a tie, I always lose." (decision #13)"""
    rules = LuckySettings(players=2, wild_animals=True)
    state = table(rules, [[LION] * 6, [LION + W] * 6], [card(*CYCLE)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 2] and state.record.powers == [POWER_LION]
    state = table(rules, [[FLAMINGO + W] * 6, [FLAMINGO] * 6], [card(FLAMINGO, FOX)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 2]


def test_wild_dolphin_voids_the_battle_and_is_replaced() -> None:
    """Rules file, Wild Animals: "Dolphin: nobody wins nor loses; discard me and draw a new
    card." (decisions #13, #14)"""
    rules = LuckySettings(players=2, wild_animals=True)
    zoo = card(*CYCLE)
    state = table(rules, [[DOLPHIN + W], [LION] * 6], [zoo], pile=[PANDA])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.scores == [0, 0] and state.market == [zoo], "the card goes back face up"
    assert state.players[0].die == [PANDA] and state.public_discards[DOLPHIN + W] == 1
    assert state.record.powers == [POWER_DOLPHIN]


def test_wild_fox_may_reroll_and_wild_panda_switches_the_card() -> None:
    """Rules file, Wild Animals: "Fox: you may reroll (once per battle)." "Panda: if I'm not on
    the Zoo Card, switch to a different Zoo Card." (decisions #13, #14)"""
    rules = LuckySettings(players=2, wild_animals=True)
    fox = Scripted(reroll=True, discarder=1)
    state = table(rules, [[FOX + W] * 6, [PANDA] * 6], [card(*CYCLE)])
    play_turn(state, [fox, Scripted()], active=0)
    assert fox.asked.count("reroll") == 1, "once per battle"
    other = card(LION, PANDA, FOX, points=1)
    state = table(rules, [[PANDA + W] * 6, [LION] * 6], [card(LION, FOX), other])
    panda = Scripted(switch=0)
    play_turn(state, [panda, Scripted()], active=0)
    assert "switch" in panda.asked
    assert state.scores == [1, 0], "on lion -> panda -> fox the panda beats the lion"
    assert state.market == [card(LION, FOX)]


def test_equilibrium_of_a_selection_game_is_optimal() -> None:
    """The LP's mix guarantees the value against every column, and the value matches
    matching pennies' known answer."""
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    mix, value = solve_zero_sum(pennies)
    assert np.allclose(mix, [0.5, 0.5]) and abs(value) < 1e-9
    rng = np.random.default_rng(3)
    for _ in range(20):
        matrix = rng.uniform(-1, 1, size=(4, 5))
        mix, value = solve_zero_sum(matrix)
        assert (mix @ matrix >= value - 1e-7).all()
        # no pure row guarantees more than the value
        assert matrix.min(axis=1).max() <= value + 1e-7
    payoff = np.sign(np.arange(10)[:, None] - np.arange(10)[None, :]).astype(float)
    mine, matrix, theirs = selection_game(
        payoff,
        np.array([2, 2, 2, 0, 0, 0, 0, 0, 0, 0]),
        np.array([3, 3, 0, 0, 0, 0, 0, 0, 0, 0]),
        2,
        2,
    )
    assert len(mine) == 6 and len(theirs) == 3 and matrix.shape == (6, 3)


def test_first_to_ten_points_wins() -> None:
    """Rulebook: "The game ends as soon as a player has scored 10(+) points. They win!" """
    record = play_game(LuckySettings(), lineup("greedy,random,random,random"), 3, 0)
    assert record.end_reason == END_POINTS
    assert max(record.scores) >= 10 and len(record.winners) == 1
    assert sum(record.cards_won) <= 26


def test_when_the_zoo_cards_run_out_the_most_points_win() -> None:
    """The rulebook is silent; decision #5: when no Zoo Card is left the most points win."""
    rules = settings_from_table({"points_to_win": 1000, "players": 2})
    record = play_game(rules, lineup("random,random"), 1, 0)
    assert record.end_reason == END_DECK
    assert record.winners == [s for s, p in enumerate(record.scores) if p == max(record.scores)]


@settings(max_examples=40, deadline=None)
@given(
    flags=st.lists(st.sampled_from(FLAGS), unique=True),
    players=st.integers(2, 5),
    fixed=st.booleans(),
    seed=st.integers(0, 2**32),
    names=st.lists(st.sampled_from(["random", "greedy", "equilibrium"]), min_size=5, max_size=5),
)
def test_every_game_keeps_every_card_in_one_place(flags, players, fixed, seed, names) -> None:
    """play_game checks after every turn that each card is in exactly one place; the points
    are the won cards' points and the winners hold the most."""
    table_ = {flag: True for flag in flags} | {"players": players}
    if fixed:
        table_["deck"] = "fixed"
    rules = settings_from_table(table_)
    record = play_game(rules, lineup(",".join(names[:players])), seed, 0)
    best = max(record.scores)
    assert record.winners == [s for s, p in enumerate(record.scores) if p == best]
    if record.end_reason == END_POINTS:
        assert best >= rules.points_to_win and len(record.winners) == 1
    assert record.turns == len(record.battles)
    # score trajectory: brute force over the score checks (zooanalysis.trajectory)
    leaders = [leader for _, leader in record.checks]
    sole = [leader for leader in leaders if leader >= 0]
    assert record.lead_changes == sum(a != b for a, b in pairwise(sole))
    if len(record.winners) == 1:
        (winner,) = record.winners
        settled = min(
            t
            for t in range(record.turns + 1)
            if all(leader == winner for turn, leader in record.checks if turn >= t)
        )
        assert record.settled_turn == settled
    else:
        assert record.settled_turn == -1


def test_same_game_index_same_game() -> None:
    rules = settings_from_table({"busy_zoo": True, "wild_animals": True})
    players = lineup("random,greedy,random")
    rules3 = settings_from_table({"busy_zoo": True, "wild_animals": True, "players": 3})
    first = play_game(rules3, players, 11, 5)
    again = play_game(rules3, players, 11, 5)
    assert first == again
    assert play_game(rules3, players, 11, 6) != first
    with pytest.raises(ValueError, match="3 strategies for 4 players"):
        play_game(rules, players, 1, 0)


# --- decisions (zooanalysis.decisions): every choice and its legal options, by hand ---------


def test_each_choice_is_one_decision_with_its_legal_options() -> None:
    """The turn's pick is one decision among (Zoo Card, opponent) pairs; a tie asks the
    active player who discards (2) and the discarder which of its cards (its die's size)."""
    rules = LuckySettings(players=3)
    market = [card(*CYCLE), card(LION, FOX), card(FOX, PANDA), card(PANDA, LION)]
    state = table(rules, [[LION] * 6, [LION] * 6, [FOX] * 4], market)
    play_turn(state, [Scripted(card=(0, 1), discarder=1), Scripted(), Scripted()], active=0)
    assert state.record.decisions == [4 * 2, 2, 6]
    # one face-up card, one opponent: the pick is forced (one option), still counted
    state = table(TWO, [[LION] * 6, [LION] * 6], [card(*CYCLE)])
    play_turn(state, [Scripted(discarder=1), Scripted()], active=0)
    assert state.record.decisions == [1, 2, 6]


def test_a_tie_only_one_battler_can_discard_asks_no_discarder() -> None:
    """Seat 1 holds its last card: seat 0 must discard (no choice of discarder), but which
    of its 6 cards is its choice; nobody able to discard asks nothing."""
    state = table(TWO, [[LION] * 6, [LION]], [card(*CYCLE)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.record.decisions == [1, 6]
    state = table(TWO, [[LION], [LION]], [card(*CYCLE)])
    play_turn(state, [Scripted(), Scripted()], active=0)
    assert state.record.decisions == [1]


def test_busy_zoo_decisions_people_cards_exclusion_and_receiver() -> None:
    """A people card is one option (everyone rolls: no opponent to pick), a plain card one
    per opponent; player_exclude picks one of the 2 others; three winners: which of 3."""
    rules = LuckySettings(players=3, busy_zoo=True)
    market = [card(LION, FOX, people=True), card(*CYCLE)]
    state = table(rules, [[DOLPHIN] * 6] * 3, market)
    play_turn(state, [Scripted(receiver=2), Scripted(), Scripted()], active=0)
    assert state.record.decisions == [1 + 2, 3]
    exclude = card(*CYCLE, people=True, special="player_exclude")
    state = table(rules, [[LION] * 6, [PANDA] * 6, [FOX] * 6], [exclude])
    play_turn(state, [Scripted(excluded=1), Scripted(), Scripted()], active=0)
    assert state.record.decisions == [1, 2]


def test_reduced_die_double_roll_and_draw_instead_decisions() -> None:
    """A reduced die of k cards is any k of the die's cards, C(6, 2) = 15 for each battler
    (a die of k cards or fewer rolls whole: no decision); double_roll's keep and draw
    instead's take-or-draw are two options each."""
    rules = LuckySettings(players=2, reduced_die=True)
    state = table(rules, [[FOX, FOX, LION, LION, LION, LION], [DOLPHIN] * 2], [card(LION, FOX)])
    play_turn(state, [Scripted(subset=[0, 2] + [0] * 8), Scripted()], active=0)
    assert state.record.decisions == [1, 15]
    rules = LuckySettings(players=2, busy_zoo=True)
    state = table(rules, [[LION, FOX] * 3, [PANDA] * 6], [card(*CYCLE, special="double_roll")])
    play_turn(state, [Scripted(keep=0), Scripted(keep=1)], active=0)
    assert state.record.decisions == [1, 2, 2]
    rules = LuckySettings(players=2, draw_instead=True, refused_zoo_card="out_of_game")
    state = table(rules, [[FOX] * 6, [LION] * 6], [card(*CYCLE, points=3)], pile=[PANDA] * 2)
    play_turn(state, [Scripted(draw=True), Scripted()], active=0)
    assert state.record.decisions == [1, 2]


def test_wild_fox_and_panda_decisions() -> None:
    """A wild fox shown asks reroll-or-not once (2); a wild panda off the card switches to
    any face-up card: with one left after the pick it is forced (1 option)."""
    rules = LuckySettings(players=2, wild_animals=True)
    state = table(rules, [[FOX + W] * 6, [PANDA] * 6], [card(*CYCLE)])
    play_turn(state, [Scripted(reroll=True), Scripted()], active=0)
    assert state.record.decisions == [1, 2]
    other = card(LION, PANDA, FOX, points=1)
    state = table(rules, [[PANDA + W] * 6, [LION] * 6], [card(LION, FOX), other])
    play_turn(state, [Scripted(switch=0), Scripted()], active=0)
    assert state.record.decisions == [2, 1]


def test_a_game_records_a_decision_every_turn() -> None:
    """Every turn starts with the pick; in the base game with 4 players and 4 face-up cards
    it has 12 options until the Zoo deck runs low."""
    record = play_game(LuckySettings(), lineup("greedy,random,random,random"), 3, 0)
    assert record.decisions[0] == 12 and len(record.decisions) >= record.turns
    # the rest are ties: who discards (2) and which card (the die's size, 2 to 6 here)
    assert record.decisions.count(12) + record.decisions.count(2) >= record.turns
