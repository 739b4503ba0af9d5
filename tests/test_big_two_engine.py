"""The reference engine plays Big Two as the rules say (quoted in each test)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.notation import parse_cards
from zooanalysis.cards.tricks import EARLIER_WINS, LATER_WINS
from zooanalysis.games.big_two import engine
from zooanalysis.games.big_two.engine import IllegalMoveError, play_options, play_round
from zooanalysis.games.big_two.rules import BigTwoSettings, penalty
from zooanalysis.games.big_two.strategies import STRATEGIES
from zooanalysis.rng import game_stream
from zooanalysis.strategy_spec import parse_player


class Script:
    """Plays the given plays in order ("" passes) and keeps what it observed."""

    def __init__(self, *plays: str) -> None:
        self.plays = list(plays)
        self.seen: list[engine.Observation] = []

    def choose_play(self, observation, rng):
        self.seen.append(observation)
        text = self.plays.pop(0)
        return parse_cards(text) if text else ()


def hands(*texts: str) -> list[list[int]]:
    return [parse_cards(text) for text in texts]


START = BigTwoSettings(players=3, opening="start-player")


def test_following_players_must_beat_the_same_kind():
    """Glossary: "the following players can either play a stronger set of cards of that
    same meld type or pass"."""
    for bad in ("5D", "4C 4H", "3C"):
        scripts = [Script("4D 4S", "7C"), Script(bad), Script("")]
        with pytest.raises(IllegalMoveError):
            play_round(START, hands("4D 4S 7C", "5D 4C 4H 3C", "9S"), 0, scripts, game_stream(1, 0))
    scripts = [Script("4D 4S", ""), Script("5D 5C", "3C"), Script("")]
    record = play_round(START, hands("4D 4S 7C", "5D 5C 3C", "9S 10S"), 0, scripts,
                        game_stream(1, 0))
    assert record.out_order == [1]
    pair, higher = tuple(parse_cards("4D 4S")), tuple(parse_cards("5D 5C"))
    assert record.history[:2] == [(0, pair), (1, higher)]


def test_hard_pass_sits_out_until_a_new_trick():
    """Glossary: "Passing is declaring that the player is out of the card play until a new
    trick (Hard Pass). A new Start Player is determined when all but one player passes.
    That remaining player will start play again by playing any valid meld.\""""
    a, b, c = Script("3D", "8H", "4D"), Script(""), Script("5C", "")
    record = play_round(START, hands("3D 4D 8H", "KS 9S", "5C 6C"), 0, [a, b, c],
                        game_stream(1, 0))
    assert [seat for seat, _ in record.history] == [0, 1, 2, 0, 2, 0]  # seat 1 sits out
    assert a.seen[1].passed == (False, True, False)
    assert a.seen[2].passed == (False, False, False) and a.seen[2].leading
    soft = BigTwoSettings(players=3, opening="start-player", passing="soft")
    a, b, c = Script("3D", "8H", ""), Script("", "9S", "KS"), Script("5C", "")
    record = play_round(soft, hands("3D 4D 8H", "KS 9S", "5C 6C"), 0, [a, b, c],
                        game_stream(1, 0))
    assert [seat for seat, _ in record.history] == [0, 1, 2, 0, 1, 2, 0, 1]


def test_all_others_pass_and_the_last_player_leads():
    """"A new Start Player is determined when all but one player passes. That remaining
    player will start play again by playing any valid meld.\""""
    a, b, c = Script("3D", "", ""), Script("2S", "4C 4H", "7D"), Script("", "")
    record = play_round(START, hands("3D 8H", "2S 4C 4H 7D", "5C 6C"), 0, [a, b, c],
                        game_stream(1, 0))
    assert record.history[:4] == [
        (0, tuple(parse_cards("3D"))), (1, tuple(parse_cards("2S"))), (2, ()), (0, ()),
    ]
    assert record.history[4] == (1, tuple(parse_cards("4C 4H")))  # leads a pair: any meld
    assert record.tricks >= 2


def test_round_ends_when_someone_sheds_out():
    """"Play continues until someone has shed out"; the rest are ranked by cards left."""
    a, b, c = Script("3D"), Script("5D", ), Script("")
    record = play_round(START, hands("3D", "5D 6D 7D", "4C 9C"), 0, [a, b, c],
                        game_stream(1, 0))
    assert record.out_order == [0] and record.cards_left == [0, 3, 2]
    assert record.standing() == (300, -3, -2) and record.places() == [0, 2, 1]


def test_last_out_plays_on_and_the_lead_passes_on():
    """With round_end = "last-out" the others play on; a player who went out with the last
    play hands the lead to the next seat still holding cards."""
    last = BigTwoSettings(players=3, opening="start-player", round_end="last-out")
    a, b, c = Script("3D"), Script("", "6D", ""), Script("", "9C", "4C")
    record = play_round(last, hands("3D", "5D 6D", "4C 9C"), 0, [a, b, c], game_stream(1, 0))
    assert record.history[3] == (1, tuple(parse_cards("6D")))
    assert record.out_order == [0, 2] and record.cards_left == [0, 1, 0]
    assert record.standing() == (300, -1, 200)


def test_opening_lead_is_the_three_of_diamonds():
    """"The person with the 3 of diamonds goes first ... The 3 of diamonds must be put
    down.\""""
    rules = BigTwoSettings(players=2)
    a, b = Script("4S"), Script("3C")
    with pytest.raises(IllegalMoveError):
        play_round(rules, hands("4S 5S", "3D 3C 9H"), 0, [a, b], game_stream(1, 0))
    a, b = Script(""), Script("3D 3C", "9H")
    record = play_round(rules, hands("4S 5S", "3D 3C 9H"), 0, [a, b], game_stream(1, 0))
    assert record.opener == 1 and b.seen[0].must_include == parse_cards("3D")[0]
    # fewer cards dealt: the lowest card in play opens
    a, b = Script("4C"), Script("4D")
    record = play_round(rules, hands("4C", "4D 9H"), 0, [a, b], game_stream(1, 0))
    assert record.opener == 1 and record.out_order == [0]  # 4D is lower than 4C


def test_three_players_get_17_and_the_extra_card_goes_to_the_opener():
    """Three players: 17 each; the 52nd card to the holder of the lowest dealt card."""
    rules = BigTwoSettings(players=3)
    for game in range(20):
        dealt = engine.deal_round(rules, game_stream(5, game))
        sizes = sorted(len(hand) for hand in dealt)
        assert sizes == [17, 17, 18]
        lowest = min((rules.card_ids[f], seat) for seat, hand in enumerate(dealt) for f in hand)
        assert len(dealt[lowest[1]]) == 18
    two = engine.deal_round(BigTwoSettings(players=2), game_stream(5, 0))
    assert [len(hand) for hand in two] == [13, 13]


def test_identical_faces_compare_by_the_tie_rule():
    """Personal decks: the same card from another deck beats it only under later-wins."""
    rules = BigTwoSettings(players=2, opening="start-player")
    a, b = Script("AS", "3D"), Script("")
    record = play_round(rules, hands("AS 3D", "AS"), 0, [a, b], game_stream(1, 0), EARLIER_WINS)
    assert record.out_order == [0]
    a, b = Script("AS"), Script("AS")
    record = play_round(rules, hands("AS 3D", "AS"), 0, [a, b], game_stream(1, 0), LATER_WINS)
    assert record.out_order == [1]


def test_penalty_doubles_and_triples():
    rules = BigTwoSettings()
    assert [penalty(n, rules) for n in (0, 9, 10, 12, 13)] == [0, 9, 20, 24, 39]
    assert penalty(13, BigTwoSettings(double_from=0, triple_from=0)) == 13


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["hard", "soft"]),
    st.sampled_from(["first-out", "last-out"]),
    st.sampled_from(["lowest-card", "start-player"]),
)
def test_random_rounds_keep_every_card(seed, players, passing, round_end, opening):
    """Any settings, any strategies: every card is played once or still held (checked at
    the end of every round), the first out holds none, and a match ends at its target."""
    rules = BigTwoSettings(players=players, passing=passing, round_end=round_end,
                           opening=opening, target=15 if seed % 2 else 0)
    names = ["random", "control", "greedy", "random"][:players]
    record = engine.play_game(rules, engine.lineup(",".join(names)), seed, 0)
    for played in record.rounds:
        assert played.cards_left[played.out_order[0]] == 0
        total = sum(len(hand) for hand in played.dealt)
        assert total == sum(played.cards_left) + sum(
            len(cards) for _, cards in played.history)
    if rules.is_match:
        assert max(record.penalties) >= 15
        assert record.penalties == [
            sum(penalty(r.cards_left[s], rules) for r in record.rounds) for s in range(players)
        ]
    assert record.winners == [s for s, p in enumerate(record.points) if p == min(record.points)]


def test_legal_plays_are_what_the_strategies_choose_from():
    """The readable legal plays of an observation hold every built-in strategy's choice."""
    rules = BigTwoSettings()
    seen = []

    class Spy(engine.BuiltinStrategy):
        def choose_play(self, observation, rng):
            chosen = super().choose_play(observation, rng)
            seen.append((observation, chosen))
            return chosen

    spies = [Spy(parse_player(name, STRATEGIES)) for name in ("random", "control", "greedy",
                                                              "random")]
    engine.play_game(rules, spies, 3, 0)
    assert len(seen) > 20
    for observation, chosen in seen[:40]:
        legal = observation.legal_plays()
        assert tuple(sorted(chosen)) in legal or (chosen == () and not observation.leading)
        # the decision's options: those plays, and passing unless it leads
        assert play_options(observation) == len(legal) + (0 if observation.leading else 1)
    assert any(not o.leading for o, _ in seen[:40]) and any(o.leading for o, _ in seen[:40])


def test_the_options_of_each_turn_counted_by_hand():
    """"The 3 of diamonds must be put down": the opener of 3D 3C 3H 9H may lead 3D alone,
    with 3C or 3H (two pairs) or as the triple (4 options, no pass when leading); on 3D
    the other player (4S 5S) may play either single or pass (3); on 4S only 9H beats, or
    pass (2); the 4S player then leads its last card, its only option (1)."""
    rules = BigTwoSettings(players=2)
    a, b = Script("4S", "5S"), Script("3D", "")
    record = play_round(rules, hands("4S 5S", "3D 3C 3H 9H"), 0, [a, b], game_stream(1, 0))
    assert record.opener == 1 and record.out_order == [0]
    assert record.decisions == [4, 3, 2, 1]
    # leading freely: 6 singles, the pair of 7s, the straights 3-7 with either 7 (9); a
    # single card cannot beat a straight, so seat 2's pass is forced (1)
    rules = BigTwoSettings(players=2, opening="start-player")
    a, b = Script("3D 4C 5H 6S 7D", "7C"), Script("")
    record = play_round(rules, hands("3D 4C 5H 6S 7D 7C", "8D"), 0, [a, b], game_stream(1, 0))
    assert record.decisions == [9, 1, 1]


def test_cards_left_is_a_number_per_seat():
    record = engine.play_game(BigTwoSettings(), engine.lineup("random,random,random,random"), 1)
    assert len(record.rounds[0].cards_left) == 4 and np.sum(record.rounds[0].cards_left) > 0
