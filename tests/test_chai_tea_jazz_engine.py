"""Chai Tea Jazz's reference engine against the rulebook: each worked example is a test
(quoted in its docstring), and the rules for 2, 4 and 6 players, the variants and the
game's invariants are checked on played games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zooanalysis import rng as rng_module
from zooanalysis.cards.notation import parse_card, parse_cards
from zooanalysis.games.chai_tea_jazz import engine
from zooanalysis.games.chai_tea_jazz.engine import (
    BET,
    FORCED,
    OFFERED,
    PASS,
    UNCONTESTED,
    Pad,
    RoundRecord,
    RoundState,
    certain_winner,
    deal_round,
    legal_options,
    next_barrel,
    observe,
    outcome,
    picking_phase,
    play_trick,
    score_round,
    score_row,
)
from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings, settings_from_table

ASLAN, LEO, MUFASA = 0, 1, 2


def option(rules: ChaiSettings, label: str) -> int:
    """The index of the option labelled ``label`` (``"Joker: Under"``)."""
    return [rules.option_label(i) for i in range(len(rules.options))].index(label)


class Scripted:
    """A player answering from a script: picks from ``picks`` in order (each ``(label or
    None for a pass, debt)``), offers and acceptances likewise; cards: the first legal card
    unless ``cards`` names them. It keeps every observation it was shown."""

    def __init__(self, rules, picks=(), offers=(), accepts=(), cards=()):
        self.rules = rules
        self.picks = list(picks)
        self.offers = list(offers)
        self.accepts = list(accepts)
        self.cards = [parse_card(c) for c in cards]
        self.seen = []

    def choose_pick(self, observation, rng):
        self.seen.append(observation)
        label, debt = self.picks.pop(0)
        return (PASS, 0) if label is None else (option(self.rules, label), debt)

    def choose_offer(self, observation, rng):
        self.seen.append(observation)
        return self.offers.pop(0)

    def choose_accept(self, observation, rng):
        self.seen.append(observation)
        return self.accepts.pop(0)

    def choose_card(self, observation, rng):
        self.seen.append(observation)
        if self.cards:
            return self.cards.pop(0)
        return observation.legal_cards()[0]


def pick_round(rules, scripts, pad=None, barrel=ASLAN):
    """Deal a round and run its Picking phase with scripted players."""
    stream = np.array([12345], dtype=np.uint64)
    state = deal_round(rules, 0, barrel, stream)
    pad = pad or Pad(rules.sides, len(rules.contracts))
    players = rules.players
    record = RoundRecord(0, barrel, picks=[0] * players, passes=[0] * players,
                         raises=[0] * players, offers_declined=[0] * players)  # fmt: skip
    picking_phase(state, pad, scripts, stream, record)
    return state, record


# --- the Picking phase: the rulebook's four examples -------------------------------------


def test_forced_pick() -> None:
    """ "Aslan has the Barrel card and decides to pass. All the other players pass. Aslan is
    forced to pick a contract. He chooses Under" """
    rules = ChaiSettings()
    aslan = Scripted(rules, [(None, 0), ("Under: Under", 0)])
    leo = Scripted(rules, [(None, 0)])
    mufasa = Scripted(rules, [(None, 0)])
    state, record = pick_round(rules, [aslan, leo, mufasa])
    assert [(seat, pick) for seat, pick, _ in state.bids] == [(0, PASS), (1, PASS), (2, PASS)]
    assert record.declarer == ASLAN and rules.option_label(record.option) == "Under: Under"
    assert record.how == FORCED and record.debt == 0
    forced = aslan.seen[-1]
    assert forced.forced and forced.amounts == (0,)
    assert not aslan.seen[0].forced


def test_simple_pick() -> None:
    """ "Aslan has the Barrel card and decides to pick Trump as the contract, with Diamonds
    as the trump suit ... The other players all pass. Trump (Diamonds) is the contract" """
    rules = ChaiSettings()
    aslan = Scripted(rules, [("Trump: Trump (Diamonds)", 0)])
    leo = Scripted(rules, [(None, 0)])
    mufasa = Scripted(rules, [(None, 0)])
    _, record = pick_round(rules, [aslan, leo, mufasa])
    assert record.declarer == ASLAN and record.how == UNCONTESTED and record.debt == 0
    assert rules.option_label(record.option) == "Trump: Trump (Diamonds)"
    # after a pick, the next player "may either pass or incur Bet Debt to pick"
    assert leo.seen[0].amounts == (5, 10, 15, 20, 25, 30, 35)
    assert len(aslan.seen) == 1  # the phase ends when everyone else has passed


def test_multiple_picks() -> None:
    """ "Aslan has the Barrel card and decides to pick Joker (Under) as the contract ... Leo
    passes. Mufasa takes on 5 Bet Debt to pick Slalom ... Aslan takes on 10 Bet Debt to pick
    Under as the contract ... Notice Aslan changed their contract, which is allowed. Mufasa
    passes. Under is the contract" """
    rules = ChaiSettings()
    aslan = Scripted(rules, [("Joker: Under", 0), ("Under: Under", 10)])
    leo = Scripted(rules, [(None, 0)])
    mufasa = Scripted(rules, [("Slalom: Slalom (high first)", 5), (None, 0)])
    state, record = pick_round(rules, [aslan, leo, mufasa])
    assert [(seat, rules.option_label(p) if p >= 0 else "pass", debt)
            for seat, p, debt in state.bids] == [
        (ASLAN, "Joker: Under", 0),
        (LEO, "pass", 0),
        (MUFASA, "Slalom: Slalom (high first)", 5),
        (ASLAN, "Under: Under", 10),
        (MUFASA, "pass", 10),
    ]  # fmt: skip
    assert record.declarer == ASLAN and record.debt == 10 and record.how == BET
    assert rules.option_label(record.option) == "Under: Under"
    assert len(leo.seen) == 1  # hard pass: Leo is not asked again
    # "pick a different contract": Aslan may not repeat the current bid (Mufasa's Slalom)
    assert option(rules, "Slalom: Slalom (high first)") not in aslan.seen[1].legal_options
    assert option(rules, "Under: Under") in aslan.seen[1].legal_options
    assert record.first_option == option(rules, "Joker: Under") and record.first_picker == 0


def test_multiple_picks_again() -> None:
    """ "Aslan has the Barrel card and decides to pass. Leo ... picks Under ... Mufasa picks
    Trump (Hearts) ... increases the Bet Debt to 5 points ... Aslan passed, so he is skipped.
    Leo takes on 10 Bet Debt to pick Under ... Mufasa takes on 20 Bet Debt to pick Trump
    (Hearts) ... The Bet Debt card is flipped and rotated to 20. Aslan passed, so he is
    skipped. Leo passes. With everyone passed, Trump (Hearts) is the contract" """
    rules = ChaiSettings()
    aslan = Scripted(rules, [(None, 0)])
    leo = Scripted(rules, [("Under: Under", 0), ("Under: Under", 10), (None, 0)])
    mufasa = Scripted(rules, [("Trump: Trump (Hearts)", 5), ("Trump: Trump (Hearts)", 20)])
    state, record = pick_round(rules, [aslan, leo, mufasa])
    assert [seat for seat, _, _ in state.bids] == [ASLAN, LEO, MUFASA, LEO, MUFASA, LEO]
    assert len(aslan.seen) == 1
    assert record.declarer == MUFASA and record.debt == 20 and record.how == BET
    assert rules.option_label(record.option) == "Trump: Trump (Hearts)"
    assert mufasa.seen[1].amounts == (15, 20, 25, 30, 35)  # above 10, up to 35
    # "different" is the bid: Leo's Under after Mufasa's Trump (Hearts), and back again
    assert option(rules, "Under: Under") in leo.seen[1].legal_options
    strict = ChaiSettings(repick="different-contract")
    legal = legal_options(strict, Pad(3, 4), LEO, option(strict, "Trump: Trump (Hearts)"))
    assert option(strict, "Trump: Trump (Spades)") not in legal
    assert option(strict, "Trump: Trump (Spades)") in legal_options(
        rules, Pad(3, 4), LEO, option(rules, "Trump: Trump (Hearts)")
    )


def test_completed_contracts_cannot_be_picked_but_the_joker_may_be_any() -> None:
    """ "Players may not pick a contract they have already completed." Joker: "It may be any
    contract, even one the player has previously completed." """
    rules = ChaiSettings()
    pad = Pad(3, 4)
    pad.done[ASLAN][1] = True  # Aslan completed Under
    legal = [rules.option_label(i) for i in legal_options(rules, pad, ASLAN, -1)]
    assert "Under: Under" not in legal and "Joker: Under" in legal
    pad.done[ASLAN][3] = True  # ... and the Joker
    legal = [rules.option_label(i) for i in legal_options(rules, pad, ASLAN, -1)]
    assert not any(label.startswith(("Joker", "Under")) for label in legal)


def test_a_player_with_every_contract_completed_must_pass() -> None:
    """ "once a player has completed all contracts, they must pass for the rest of the game;
    they may not take on Bet Debt." Leo is never asked."""
    rules = ChaiSettings()
    pad = Pad(3, 4)
    pad.done[LEO] = [True] * 4
    aslan = Scripted(rules, [("Trump: Trump (Clubs)", 0)])
    leo = Scripted(rules)
    mufasa = Scripted(rules, [("Under: Under", 5)])
    aslan.picks.append((None, 0))
    _, record = pick_round(rules, [aslan, leo, mufasa], pad)
    assert leo.seen == [] and record.declarer == MUFASA


def test_no_raise_above_the_maximum() -> None:
    """ "increase the Bet Debt to any amount on the Barrel card, up to 35": at 35 nobody can
    raise, so everyone else must pass without being asked."""
    rules = ChaiSettings()
    aslan = Scripted(rules, [("Trump: Trump (Clubs)", 0)])
    leo = Scripted(rules, [("Under: Under", 35)])
    mufasa = Scripted(rules)
    _, record = pick_round(rules, [aslan, leo, mufasa])
    assert record.declarer == LEO and record.debt == 35
    assert mufasa.seen == [] and len(aslan.seen) == 1


def test_an_illegal_pick_is_refused() -> None:
    rules = ChaiSettings()
    aslan = Scripted(rules, [("Trump: Trump (Clubs)", 0)])
    leo = Scripted(rules, [("Under: Under", 7)])  # not a step of the 5-point card
    with pytest.raises(engine.IllegalMoveError):
        pick_round(rules, [aslan, leo, Scripted(rules)])


# --- Passing the Barrel --------------------------------------------------------------------


def test_passing_the_barrel() -> None:
    """ "they may instead reverse the Bet Debt by offering any amount out to other players to
    take the barrel instead. If accepted by another player, that player adds those offered
    points to the total that they get after picking a contract for themselves" """
    rules = ChaiSettings(passing_the_barrel=True)
    aslan = Scripted(rules, [(None, 0)], offers=[5, 15])
    leo = Scripted(rules, [(None, 0)], accepts=[False, False])
    mufasa = Scripted(rules, [(None, 0), ("Under: Under", 0)], accepts=[False, True])
    state, record = pick_round(rules, [aslan, leo, mufasa])
    assert record.declarer == MUFASA and record.how == OFFERED and record.offer == 15
    assert record.offers == [5, 15] and record.offers_declined == [0, 2, 1]
    assert aslan.seen[1].amounts == (5, 10, 15, 20, 25, 30, 35)  # "offering any amount"
    assert aslan.seen[2].amounts == (10, 15, 20, 25, 30, 35)  # "The offer may keep growing"
    assert mufasa.seen[-1].forced and mufasa.seen[-1].offer == 15
    record.row = rules.options[record.option].row
    state.won_cards[MUFASA] = parse_cards("9C 7C 5C")
    state.leader = ASLAN
    score_round(state, record)
    assert record.score == 21 + 15  # the offer is added


def test_passing_the_barrel_the_holder_gives_up_or_offers_the_most() -> None:
    """ "until either an opponent takes the offer, the max of the Bet Debt is offered, or the
    player with the Barrel card gives up, rescinds the offer, and picks a contract
    themselves." """
    rules = ChaiSettings(passing_the_barrel=True)
    aslan = Scripted(rules, [(None, 0), ("Under: Under", 0)], offers=[5, 0])
    others = [Scripted(rules, [(None, 0)], accepts=[False]) for _ in range(2)]
    _, record = pick_round(rules, [aslan, *others])
    assert record.declarer == ASLAN and record.how == FORCED and record.offer == 0
    aslan = Scripted(rules, [(None, 0), ("Under: Under", 0)], offers=[35])
    _, record = pick_round(rules, [aslan, *[Scripted(rules, [(None, 0)], accepts=[False])
                                            for _ in range(2)]])  # fmt: skip
    assert record.declarer == ASLAN and record.offers == [35]  # nothing more to offer


# --- the Trick-Taking phase --------------------------------------------------------------


def trick_state(rules, hands, label, declarer=ASLAN) -> tuple[RoundState, Pad]:
    """A round in its Trick-Taking phase with the given hands."""
    state = RoundState(rules, 0, ASLAN, [parse_cards(h) for h in hands],
                       [[] for _ in hands], [[] for _ in hands], [],
                       tricks_won=[0] * len(hands), won_cards=[[] for _ in hands])  # fmt: skip
    state.declarer, state.option, state.leader = declarer, option(rules, label), declarer
    return state, Pad(rules.sides, len(rules.contracts))


def test_may_trump() -> None:
    """ "The contract is Trump (Hearts) and Aslan leads a 9 of Clubs. Leo has both Clubs and
    Hearts, and decides to play a 2 of Hearts instead of following suit. Mufasa has Clubs and
    no Hearts, so he plays a 7 of Clubs. Leo wins the trick, capturing 16 points on the 9 and
    7 cards" """
    rules = ChaiSettings()
    state, pad = trick_state(rules, ["9C 1D", "3C 2H", "7C 5S"], "Trump: Trump (Hearts)")
    players = [Scripted(rules, cards=["9C"]), Scripted(rules, cards=["2H"]),
               Scripted(rules, cards=["7C"])]  # fmt: skip
    winner = play_trick(state, pad, players, np.zeros(1, dtype=np.uint64))
    assert winner == LEO
    assert set(players[LEO].seen[0].legal_cards()) == set(parse_cards("3C 2H"))
    assert set(players[MUFASA].seen[0].legal_cards()) == {parse_card("7C")}  # must follow
    points = sum(int(rules.points[c]) for c in state.won_cards[LEO])
    assert points == 16


def test_the_declarer_leads_the_first_trick_and_each_winner_the_next() -> None:
    """ "With the contract picked, the Current Bidder will lead to the first trick." "The
    strongest card wins the trick ... The winner of the trick leads to the next trick."
    Aslan holds the Barrel and passes, Leo picks Under, Mufasa passes: Leo, not the Barrel
    holder, leads. Every trick of the round is checked against Under's order worked out
    here (the lowest card of the led suit wins), and the last trick's winner gets the 10."""
    rules = ChaiSettings()
    plays: list[tuple[int, int, int, int]] = []  # (trick, leader, seat, card)

    class Logged(Scripted):
        def choose_card(self, observation, rng):
            card = super().choose_card(observation, rng)
            plays.append((observation.trick_index, observation.leader, observation.seat, card))
            return card

    players = [Logged(rules, picks=[(None, 0)]), Logged(rules, picks=[("Under: Under", 0)]),
               Logged(rules, picks=[(None, 0)])]  # fmt: skip
    pad = Pad(rules.sides, len(rules.contracts))
    stream = rng_module.game_stream(np.uint64(21), np.int64(0))
    record = engine.play_round(rules, players, pad, 0, ASLAN, stream)
    assert (record.barrel, record.declarer) == (ASLAN, LEO)
    assert len(plays) == 3 * rules.tricks
    expected_leader = LEO
    wins = [0, 0, 0]
    leo_points = 0
    for trick in range(rules.tricks):
        cards = plays[3 * trick:3 * trick + 3]
        assert all(t == trick and leader == expected_leader for t, leader, _, _ in cards)
        assert [seat for *_, seat, _ in cards] == [(expected_leader + k) % 3 for k in range(3)]
        led = cards[0][3] >> 4
        following = [(card & 15, seat) for *_, seat, card in cards if card >> 4 == led]
        expected_leader = min(following)[1]  # Under: "the lowest card is now the strongest"
        wins[expected_leader] += 1
        if expected_leader == LEO:  # "all of the odd cards have points ... equal to the rank"
            leo_points += sum(card & 15 for *_, card in cards if (card & 15) % 2)
    assert record.tricks_won == wins
    assert record.last_winner == expected_leader
    assert record.gross == leo_points + 10 * (expected_leader == LEO)


def test_trump_led_must_be_followed() -> None:
    """ "If the trump suit is led, the following players must play a trump card, if they have
    one." """
    rules = ChaiSettings()
    state, pad = trick_state(rules, ["9H 1D", "3C 2H", "7C 5S"], "Trump: Trump (Hearts)")
    state.trick = [parse_card("9H")]
    assert observe(state, pad, LEO, "card").legal_cards() == [parse_card("2H")]
    assert set(observe(state, pad, MUFASA, "card").legal_cards()) == set(parse_cards("7C 5S"))


def test_under_and_slalom_orders() -> None:
    """Under: "the lowest card is now the strongest"; Slalom: "The ranking alternates every
    trick"."""
    rules = ChaiSettings()
    state, pad = trick_state(rules, ["9C 1C", "5C 4C", "3C 8C"], "Under: Under")
    players = [Scripted(rules, cards=c) for c in (["9C"], ["5C"], ["3C"])]
    assert play_trick(state, pad, players, np.zeros(1, dtype=np.uint64)) == MUFASA
    state, pad = trick_state(rules, ["9C 1C", "5C 4C", "3C 8C"], "Slalom: Slalom (high first)")
    players = [Scripted(rules, cards=c) for c in (["9C", "1C"], ["5C", "4C"], ["3C", "8C"])]
    assert play_trick(state, pad, players, np.zeros(1, dtype=np.uint64)) == ASLAN  # 9 high
    assert play_trick(state, pad, players, np.zeros(1, dtype=np.uint64)) == ASLAN  # 1 low


def test_six_player_jokers() -> None:
    """ "The Jokers are the strongest cards in the game, beating any trump or other card. The
    later-played Joker wins if both are played in the same trick." """
    rules = ChaiSettings(players=6)
    hands = ["KH", "JOKER", "AH", "JOKER#2", "2H", "QH"]
    state, pad = trick_state(rules, hands, "Trump: Trump (Hearts)")
    players = [Scripted(rules) for _ in range(6)]
    assert play_trick(state, pad, players, np.zeros(1, dtype=np.uint64)) == 3
    # a Joker may be played any time, even by a player able to follow suit
    state, pad = trick_state(rules, ["KC", "JOKER 3C 5S", "AH", "4H", "2H", "QH"],
                             "Trump: Trump (Hearts)")  # fmt: skip
    state.trick = [parse_card("KC")]
    assert set(observe(state, pad, 1, "card").legal_cards()) == set(parse_cards("JOKER 3C"))


def test_double_deck_the_earlier_card_wins() -> None:
    """ "The only rule needed is that the earlier played card wins, if there is a tie." """
    rules = ChaiSettings(players=6, deck="double")
    hands = ["9H", "9H#2", "1C", "2C", "3C", "4C"]
    state, pad = trick_state(rules, hands, "Under: Under")
    state.option = option(rules, "Slalom: Slalom (high first)")
    players = [Scripted(rules) for _ in range(6)]
    assert play_trick(state, pad, players, np.zeros(1, dtype=np.uint64)) == 0


# --- scoring -------------------------------------------------------------------------------


def test_scoring_a_row() -> None:
    """ "The contract of Under was just completed by Leo, who got 75 points ... Aslan got 59
    points and Mufasa got 33 points. The Under contract was worth 2 game points, so Leo wins
    +2 game points, Aslan gets 0 game points, and Mufasa gets -2 game points. If Leo got 59
    points and he and Aslan tied, Aslan would get the +2 game points because Aslan finished
    the Under contract before Leo." """
    rules = ChaiSettings()
    pad = Pad(3, 4)
    for side, score, order in ((ASLAN, 59, 0), (MUFASA, 33, 1), (LEO, 75, 2)):
        pad.done[side][1], pad.score[side][1], pad.order[side][1] = True, score, order
    assert score_row(rules, pad, 1) == [0, 2, -2]
    pad.score[LEO][1] = 59
    assert score_row(rules, pad, 1) == [2, 0, -2]


def test_scoring_a_round() -> None:
    """ "the Current Bidder counts the points on the cards that they won ... If the Current
    Bidder won the last trick, they add 10 points ... the Bet Debt amount is subtracted" """
    rules = ChaiSettings()
    state, _ = trick_state(rules, ["", "", ""], "Under: Under")
    record = RoundRecord(0, ASLAN, declarer=ASLAN, option=state.option, row=1, debt=10)
    state.won_cards = [parse_cards("9C 7C 2C"), parse_cards("1C 3C 5C"), []]
    state.tricks_won = [1, 1, 0]
    state.leader = ASLAN  # won the last trick
    score_round(state, record)
    assert record.gross == 16 + 10 and record.score == 16 + 10 - 10
    state.leader = LEO
    score_round(state, record)
    assert record.score == 16 - 10


def test_teams_count_every_members_tricks() -> None:
    """ "The game is now two versus two." The declaring team scores both members' cards."""
    rules = ChaiSettings(players=4)
    state, _ = trick_state(rules, ["", "", "", ""], "Under: Under", declarer=1)
    record = RoundRecord(0, ASLAN, declarer=1, option=state.option, row=1)
    state.won_cards = [parse_cards("9C"), parse_cards("7C"), [], parse_cards("5C 3C")]
    state.tricks_won = [1, 1, 0, 1]
    state.leader = 3
    score_round(state, record)
    assert record.gross == 7 + 5 + 3 + 10


def test_avoidance_ranks_the_fewest_points_first() -> None:
    """ "Avoidance: Score as few points as possible. First place goes to the player with the
    lowest score" """
    rules = settings_from_table({"contracts": [{"name": "Avoid", "play": "avoidance",
                                                "value": 2}]})  # fmt: skip
    pad = Pad(3, 1)
    for side, score in enumerate((40, 10, 70)):
        pad.done[side][0], pad.score[side][0], pad.order[side][0] = True, score, side
    assert score_row(rules, pad, 0) == [0, 2, -2]


def test_second_place_within_the_row() -> None:
    """ "Get second place within the row: Lowest score gets 0 game points, first gets
    negative game points." (The middle gets the positive value.)"""
    rules = settings_from_table({"contracts": [{"name": "Under", "play": "under", "value": 2,
                                                "second_place": True}]})  # fmt: skip
    pad = Pad(3, 1)
    for side, score in enumerate((40, 10, 70)):
        pad.done[side][0], pad.score[side][0], pad.order[side][0] = True, score, side
    assert score_row(rules, pad, 0) == [2, 0, -2]


def test_the_winner_and_the_tie_break() -> None:
    """ "the player with the most game points wins!! If tied, the player who finished all
    their contracts first wins." Cumulative: "add all scores over the whole board" """
    rules = ChaiSettings()
    pad = Pad(3, 4)
    pad.game_points = [3, 3, -6]
    pad.finished = [11, 9, 10]
    assert outcome(rules, pad) == (LEO, True)
    pad.game_points = [4, 3, -7]
    assert outcome(rules, pad) == (ASLAN, False)
    pad.score = [[50] * 4, [60] * 4, [10] * 4]
    assert outcome(ChaiSettings(cumulative="most"), pad) == (LEO, False)
    assert outcome(ChaiSettings(cumulative="least"), pad) == (MUFASA, False)


def test_certain_winner() -> None:
    """ "If it's impossible for a player to lose the overall game, players may end the game
    early" """
    rules = ChaiSettings()
    pad = Pad(3, 4)
    for row in range(3):  # rows Trump, Under, Slalom scored: Aslan won them all
        for side in range(3):
            pad.done[side][row], pad.order[side][row] = True, 3 * row + side
    pad.game_points = [5, 0, -5]
    assert certain_winner(rules, pad, 3) == -1  # the Joker row can still swing 6
    pad.game_points = [7, 0, -7]
    assert certain_winner(rules, pad, 3) == ASLAN
    pad.game_points = [6, 0, -6]  # a swing of exactly 6 ties; Aslan has not finished
    assert certain_winner(rules, pad, 3) == -1
    # Aslan has played the Joker, scoring 110: nobody can pass him, so Leo gains 3 at most
    pad.done[ASLAN][3], pad.score[ASLAN][3], pad.order[ASLAN][3] = True, 110, 9
    pad.game_points = [4, 0, -4]
    assert certain_winner(rules, pad, 2) == -1
    pad.game_points = [4, 0, -4]
    pad.score[ASLAN][3] = 200  # not a real score, but nobody can place above it either way
    assert certain_winner(rules, pad, 2) == -1  # any future score is allowed: still open


def test_the_barrel_passes_to_the_next_player_with_contracts_left() -> None:
    """ "Flip the barrel card to the 0 side face-up and pass both it and the Current Bet card
    to the next player in turn order who has contracts to complete." Leo has completed
    every contract, so the Barrel skips him; with 4 players a seat whose team has finished
    is skipped too; nobody left: it stays."""
    rules = ChaiSettings()
    pad = Pad(rules.sides, len(rules.contracts))
    assert [next_barrel(rules, pad, seat) for seat in range(3)] == [LEO, MUFASA, ASLAN]
    pad.done[LEO] = [True] * 4
    assert next_barrel(rules, pad, ASLAN) == MUFASA
    assert next_barrel(rules, pad, MUFASA) == ASLAN
    pad.done[MUFASA] = [True] * 4
    assert next_barrel(rules, pad, ASLAN) == ASLAN, "only Aslan has contracts to complete"
    teams = ChaiSettings(players=4)
    pad = Pad(teams.sides, len(teams.contracts))
    pad.done[1] = [True] * 4  # team B (seats 2 and 4) has finished
    assert [next_barrel(teams, pad, seat) for seat in range(4)] == [2, 2, 0, 0]


@pytest.mark.parametrize(("players", "lineup"), [(3, "tracker,greedy,random"),
                                                 (4, "greedy,random,tracker,random")])
def test_in_whole_games_the_barrel_moves_to_the_next_player_with_contracts(
    players, lineup
) -> None:
    """Seat 1 holds the Barrel first ("Give that player the 5-point Barrel card"); each
    later round's holder is the next player in turn order whose side still has contracts."""
    rules = ChaiSettings(players=players)
    strategies = engine.lineup(lineup)
    for game in range(3):
        record = engine.play_game(rules, strategies, 11, game)
        pad = Pad(rules.sides, len(rules.contracts))
        holder = ASLAN
        for index, played in enumerate(record.rounds):
            assert played.barrel == holder
            assert pad.rows_left(rules.side_of(holder)) > 0
            pad.done[rules.side_of(played.declarer)][played.row] = True
            if index + 1 < len(record.rounds):
                holder = next_barrel(rules, pad, holder)


# --- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "lineup", "deck"),
    [
        (3, "tracker,greedy,random", "rulebook"),
        (2, "tracker,random", "rulebook"),
        (4, "greedy,random,tracker,random", "rulebook"),
        (6, "random,tracker,greedy,random,tracker,greedy", "rulebook"),
        (6, "random,tracker,greedy,random,tracker,greedy", "double"),
        (3, "random,random,random", "jass"),
    ],
)
def test_every_side_plays_every_contract_once(players, lineup, deck) -> None:
    """ "The standard game lasts 12 rounds: 4 contracts, each played by the three players";
    2 players: "Each contract is only played twice, once for each player"; 4 and 6: "once
    for each team"."""
    rules = ChaiSettings(players=players, deck=deck)
    record = engine.play_game(rules, engine.lineup(lineup), 3, 1)
    assert len(record.rounds) == rules.rounds
    played = sorted((rules.side_of(r.declarer), r.row) for r in record.rounds)
    assert played == sorted((side, row) for side in range(rules.sides) for row in range(4))
    assert all(all(row) for row in record.pad.done)
    assert sum(record.pad.game_points) == 0  # +v, 0, -v (or +v, -v) in every row
    assert record.winners == [s for s in range(players) if rules.side_of(s) == record.winner_side]


def test_two_player_straw_piles() -> None:
    """ "Set aside 2 cards facedown. Deal 5 cards facedown in front of each player. Deal 5
    cards face-up on top of the facedown cards ... Deal 7 cards to each player." "When a card
    from their straw-pile is played, the card below it (if there is one) is flipped face up,
    but only after the trick is complete." """
    rules = ChaiSettings(players=2)
    state = deal_round(rules, 0, 0, np.array([99], dtype=np.uint64))
    assert [len(h) for h in state.hands] == [7, 7]
    assert [len(p) for p in state.straw_up] == [5, 5] and len(state.set_aside) == 2
    pad = Pad(2, 4)
    state.declarer, state.option, state.leader = 0, option(rules, "Under: Under"), 0
    straw = state.straw_up[0][2]
    under = state.straw_down[0][2]
    seen_during = []

    class StrawPlayer(Scripted):
        def choose_card(self, observation, rng):
            seen_during.append(observation.straw_up[0][2])
            return straw if observation.seat == 0 else observation.legal_cards()[0]

    class Follower(Scripted):
        def choose_card(self, observation, rng):
            seen_during.append(observation.straw_up[0][2])
            return observation.legal_cards()[0]

    first = observe(state, pad, 0, "card")
    assert straw in first.playable() and under not in first.playable()
    assert under not in first.hand and all(first.straw_down[0])
    play_trick(state, pad, [StrawPlayer(rules), Follower(rules)], np.zeros(1, dtype=np.uint64))
    assert seen_during == [straw, -1]  # face down until the trick is complete
    assert state.straw_up[0][2] == under and state.straw_down[0][2] == -1
    assert (engine.TURN_UP, 0, under) in state.history


def test_two_player_set_aside_split() -> None:
    """ "Before Scoring begins, the 2 set-aside cards are split between the players, with the
    winner of the final trick taking the higher card." """
    rules = ChaiSettings(players=2)
    state, _ = trick_state(rules, ["", ""], "Under: Under")
    state.set_aside = parse_cards("3C 9D")
    record = RoundRecord(0, ASLAN, declarer=ASLAN, option=state.option, row=1)
    state.leader = ASLAN
    score_round(state, record)
    assert record.gross == 9 + 10
    state.leader = LEO
    score_round(state, record)
    assert record.gross == 3


def test_match_points() -> None:
    """ "Match Points: If a player wins all the tricks in a round, they get 1 additional game
    point." Game points are then the rows' plus the matches'."""
    rules = ChaiSettings(players=3, match_points=1)
    matches = 0
    for game in range(30):
        record = engine.play_game(rules, engine.lineup("tracker,random,random"), 4, game)
        won = [0] * 3
        for played in record.rounds:
            if played.match_side >= 0:
                won[played.match_side] += 1
                assert played.tricks_won[played.match_side] == rules.tricks
        matches += sum(won)
        assert sum(record.pad.game_points) == sum(won)
    assert matches > 0


def test_early_end() -> None:
    """With ``early_end`` the game stops once a winner is certain, and that side wins."""
    rules = ChaiSettings(early_end=True)
    stopped = 0
    for game in range(30):
        full = engine.play_game(ChaiSettings(), engine.lineup("tracker,greedy,random"), 8, game)
        short = engine.play_game(rules, engine.lineup("tracker,greedy,random"), 8, game)
        assert len(short.rounds) == full.certain_after
        assert short.winner_side == full.winner_side
        stopped += full.certain_after < rules.rounds
    assert stopped > 0


def test_illegal_cards_are_refused() -> None:
    rules = ChaiSettings()

    class Cheat(Scripted):
        def choose_card(self, observation, rng):
            return next(c for c in observation.playable() if c not in observation.legal_cards())

    state, pad = trick_state(rules, ["9H 1D", "3C 2H", "7C 5S"], "Trump: Trump (Hearts)")
    players = [Scripted(rules, cards=["9H"]), Cheat(rules), Scripted(rules)]
    with pytest.raises(engine.IllegalMoveError):
        play_trick(state, pad, players, np.zeros(1, dtype=np.uint64))


def test_card_bookkeeping_catches_a_lost_card() -> None:
    rules = ChaiSettings()
    state = deal_round(rules, 0, 0, np.array([5], dtype=np.uint64))
    engine.check_every_card_once(state)
    state.hands[1].pop()
    with pytest.raises(AssertionError, match="bookkeeping"):
        engine.check_every_card_once(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3, 4, 6]),
    contracts=st.sampled_from(["standard", "custom-example", "specific-suits"]),
    passing=st.booleans(),
    match=st.integers(0, 2),
    repick=st.sampled_from(["different-bid", "different-contract"]),
    cumulative=st.sampled_from(["off", "most", "least"]),
    seed=st.integers(0, 2**32),
    names=st.lists(st.sampled_from(["random", "greedy", "tracker"]), min_size=6, max_size=6),
)
def test_any_game_keeps_the_rules(players, contracts, passing, match, repick, cumulative, seed,
                                  names) -> None:  # fmt: skip
    """Whatever the settings: every side completes every row once, a declarer's score is
    its side's points less the debt plus the offer, debts are steps of the Barrel card,
    offers only follow a round where everybody passed, game points are the rows' and the
    matches', and the winner's side has the best standing."""
    rules = settings_from_table(
        {"players": players, "contracts": contracts, "passing_the_barrel": passing,
         "match_points": match, "repick": repick, "cumulative": cumulative}
    )  # fmt: skip
    record = engine.play_game(rules, engine.lineup(",".join(names[:players])), seed, 0)
    assert len(record.rounds) == rules.rounds
    rows = len(rules.contracts)
    assert all(all(record.pad.done[side]) for side in range(rules.sides))
    matches = [0] * rules.sides
    for played in record.rounds:
        assert played.score == played.gross - played.debt + played.offer
        assert played.debt % rules.step == 0 and 0 <= played.debt <= rules.max_debt
        assert 0 <= played.gross <= rules.deck_points + rules.last_trick
        assert played.offer == 0 or played.how == OFFERED
        assert played.debt == 0 or played.how == BET
        if played.match_side >= 0:
            matches[played.match_side] += 1
    assert sum(record.pad.game_points) == match * sum(matches)
    standings = engine.side_standings(rules, record.pad)
    assert standings[record.winner_side] == max(standings)
    assert rows == len(record.pad.done[0])
