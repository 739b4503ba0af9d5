"""The reference engine (``zooanalysis.games.bluff.engine``) against the rulebook.

Invariants over many whole games (card bookkeeping checked after every move and round,
scores, winners, end reasons, round and move counts), the rules visible in a GameRecord
(first claim, bettering claims, starting player, who takes the pile), the refill order, the
settings table and games with custom decks and a small claim cap. Rulebook quotes are from
/work/shared/rules/bluff-in-zoo.md.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis import rng as rng_module
from zooanalysis.errors import SettingsError
from zooanalysis.games.bluff import engine
from zooanalysis.games.bluff.cards import (
    KINDS,
    N_KINDS,
    STOP,
    WILD_1,
    animal_type,
)
from zooanalysis.games.bluff.engine import (
    END_DECK,
    END_POINTS,
    GameRecord,
    check_every_card_once,
    legal_moves,
    new_game,
    play_game,
    play_round,
    refill_hands,
)
from zooanalysis.games.bluff.rules import (
    BluffSettings,
    DeckSettings,
    claim_beats,
    count_claimed,
    count_for_kind,
    settings_from_table,
    validate,
)
from zooanalysis.games.bluff.strategies import MOVE_DOUBT, MOVE_DRAW, MOVE_HAND, MOVE_NONE

STRATEGY_NAMES = ["random", "bayes", "cautious", "aggressive", "stakes"]
MOVE_BY_NAME = {"doubt": MOVE_DOUBT, "hand": MOVE_HAND, "draw": MOVE_DRAW, "none": MOVE_NONE}


class CheckedStrategy:
    """Wraps a strategy and checks the card bookkeeping of the game at every decision."""

    def __init__(self, inner, holder: dict):
        self.inner = inner
        self.holder = holder

    def choose_move(self, observation, rng):
        check_every_card_once(self.holder["state"])
        return self.inner.choose_move(observation, rng)

    def choose_claim(self, observation, rng):
        # the chosen card (if any) is already on the pile here: mid-move bookkeeping
        check_every_card_once(self.holder["state"])
        return self.inner.choose_claim(observation, rng)


def play_checked(game_settings: BluffSettings, lineup: str, seed: int, game_index: int = 0):
    """``play_game`` driven round by round, checking every card's place as it goes.

    Mirrors ``engine.play_game``: ``play_round`` then, unless someone reached
    ``points_to_end``, ``refill_hands``. Returns the record and the final state.
    """
    holder: dict = {}
    strategies = [CheckedStrategy(s, holder) for s in engine.lineup(lineup)]
    stream = rng_module.game_stream(np.uint64(seed), np.int64(game_index))
    state = new_game(game_settings, stream)
    holder["state"] = state
    check_every_card_once(state)
    record = GameRecord(scores=[], winners=[], rounds=0, moves=0, end_reason=-1)
    while True:
        play_round(state, strategies, stream, record)
        check_every_card_once(state)
        if max(state.scores) >= game_settings.points_to_end:
            record.end_reason = END_POINTS
            break
        if not refill_hands(state):
            record.end_reason = END_DECK
            break
        check_every_card_once(state)
        assert all(len(hand) == game_settings.hand_size for hand in state.hands)
        state.round_index += 1
    record.scores = state.scores
    best = min(record.scores)
    record.winners = [seat for seat, score in enumerate(record.scores) if score == best]
    record.rounds = state.round_index + 1
    record.moves = state.moves
    return record, state


def rounds_of(record: GameRecord) -> list[list[dict]]:
    """The record's events grouped by round, in order."""
    grouped: list[list[dict]] = []
    for event in record.events:
        if event["round"] == len(grouped):
            grouped.append([])
        assert event["round"] == len(grouped) - 1, "events out of round order"
        grouped[-1].append(event)
    return grouped


def parse_claim(text: str) -> tuple[int, int]:
    count, kind = text.split()
    return int(count), KINDS.index(kind)


def assert_game_invariants(game_settings: BluffSettings, record: GameRecord, state) -> None:
    players = game_settings.players
    check_every_card_once(state)

    # "Each card received counts one negative point."
    assert record.scores == [len(cards) for cards in state.penalty_cards]
    assert sum(record.scores) == int(state.revealed.sum())
    taken = np.bincount(
        np.asarray([c for cards in state.penalty_cards for c in cards], dtype=np.int64),
        minlength=len(state.revealed),
    )
    np.testing.assert_array_equal(taken, state.revealed)
    # every doubt's loser took exactly that pile
    from_doubts = [0] * players
    for doubter, claimant, _, _, pile_size, held, _ in record.doubts:
        from_doubts[doubter if held else claimant] += pile_size
    assert from_doubts == record.scores

    # "The player with least points wins the game (in case of a tie, all tied players win)."
    assert record.winners == [s for s in range(players) if record.scores[s] == min(record.scores)]

    # "The game ends when the draw pile is depleted and not all players can fill up their
    # hand to five; or when a player has accumulated 30 or more points."
    if record.end_reason == END_POINTS:
        assert max(record.scores) >= game_settings.points_to_end
    else:
        assert record.end_reason == END_DECK
        assert max(record.scores) < game_settings.points_to_end
        needed = sum(game_settings.hand_size - len(hand) for hand in state.hands)
        assert needed > state.draw_pile_size

    # rounds, moves and events
    rounds = rounds_of(record)
    assert record.rounds == len(rounds) == len(record.doubts) == state.round_index + 1
    assert record.moves == len(record.events) == len(record.claims) + len(record.doubts)
    claims = iter(record.claims)
    for r, events in enumerate(rounds):
        moves = [event["move"] for event in events]
        assert moves[-1] == "doubt" and moves.count("doubt") == 1, moves
        # "Beginning with the starting player and then proceeding in clockwise order" and
        # "The starting player card is passed to the player on the left"
        assert events[0]["seat"] == r % players
        for before, after in itertools.pairwise(events):
            assert after["seat"] == (before["seat"] + 1) % players
        # "in the starting player's first move, this is the only possible action": a card
        assert moves[0] in ("hand", "draw")
        # "The starting player always has to claim to have seen exactly one animal"
        round_claims = [next(claims) for _ in events[:-1]]
        assert round_claims[0][1] == 1
        # "You always have to best the player before you"
        for before, after in itertools.pairwise(round_claims):
            assert claim_beats(after[1], after[2], before[1], before[2])
        for claim, event in zip(round_claims, events, strict=False):
            assert (claim[0], claim[1], claim[2]) == (event["seat"], *parse_claim(event["claim"]))
            assert MOVE_BY_NAME[event["move"]] == claim[3]
            assert 1 <= claim[1] <= game_settings.claim_cap
        # "If their number is equal to or higher than the number claimed, the doubter must
        # place all the cards [...] If their number is less than the claim, the player
        # before you has lied and has to take all cards"
        doubt = events[-1]
        doubter, claimant, count, kind, pile_size, held, claimant_move = record.doubts[r]
        last = round_claims[-1]
        assert (claimant, count, kind, claimant_move) == (last[0], last[1], last[2], last[3])
        assert doubter == doubt["seat"] == (claimant + 1) % players
        assert doubt["found"] == count_claimed(doubt["pile"], KINDS[kind])
        assert held == (doubt["found"] >= count)
        assert doubt["loser"] == (doubter if held else claimant)
        assert pile_size == doubt["penalty"] == len(doubt["pile"])
        # nothing is placed between the last claim and the doubt
        assert last[5] == held
        assert last[4] == pile_size


lineups = st.integers(2, 6).flatmap(
    lambda n: st.lists(st.sampled_from(STRATEGY_NAMES), min_size=n, max_size=n)
)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), names=lineups, game_index=st.integers(0, 1000))
def test_game_invariants(seed, names, game_index):
    game_settings = BluffSettings(players=len(names))
    lineup = ",".join(names)
    record, state = play_checked(game_settings, lineup, seed, game_index)
    assert_game_invariants(game_settings, record, state)
    # the round-by-round driver is play_game itself
    reference = play_game(game_settings, engine.lineup(lineup), seed, game_index)
    assert reference.scores == record.scores
    assert reference.winners == record.winners
    assert (reference.rounds, reference.moves) == (record.rounds, record.moves)
    assert reference.end_reason == record.end_reason
    assert reference.events == record.events
    assert reference.claims == record.claims
    assert reference.doubts == record.doubts


def test_both_end_reasons_and_ties_occur():
    """Guard against vacuous invariants: both ends and tied winners do happen."""
    ends = set()
    for game_index in range(40):
        game_settings = BluffSettings(players=2, points_to_end=60)
        record, state = play_checked(game_settings, "random,random", 5, game_index)
        assert_game_invariants(game_settings, record, state)
        ends.add(record.end_reason)
    assert ends == {END_POINTS, END_DECK}
    tied = 0
    for game_index in range(40):
        record = play_game(BluffSettings(players=4), engine.lineup("random*4"), 5, game_index)
        tied += len(record.winners) > 1
    assert tied > 0


EDGE_SETTINGS = [
    pytest.param(BluffSettings(players=6, hand_size=1), id="6p-hand-1"),
    pytest.param(BluffSettings(players=4, hand_size=10), id="4p-hand-10"),
    pytest.param(BluffSettings(players=3, max_claim_count=1), id="claim-cap-1"),
    pytest.param(
        BluffSettings(players=2, hand_size=5, deck=DeckSettings(0, 5, 5, 0, 0, 0)),
        id="no-draw-pile",
    ),
    pytest.param(BluffSettings(players=3, deck=DeckSettings(0, 10, 10, 6, 6, 8)), id="only-wilds"),
]


@pytest.mark.parametrize("game_settings", EDGE_SETTINGS)
def test_edge_settings_keep_the_invariants(game_settings):
    names = ["bayes", "random", "cautious", "aggressive", "random", "bayes"]
    lineup = ",".join(names[: game_settings.players])
    for game_index in range(4):
        record, state = play_checked(game_settings, lineup, 13, game_index)
        assert_game_invariants(game_settings, record, state)
        if game_settings.deck.size == game_settings.players * game_settings.hand_size:
            # no draw pile: one round, then nobody can refill
            assert record.rounds == 1 and record.end_reason == END_DECK
            assert "draw" not in [event["move"] for event in record.events]


def test_play_game_is_reproducible_and_seeded():
    game_settings = BluffSettings(players=3)
    lineup = "bayes,random,aggressive"
    first = play_game(game_settings, engine.lineup(lineup), 11, 3)
    again = play_game(game_settings, engine.lineup(lineup), 11, 3)
    other = play_game(game_settings, engine.lineup(lineup), 12, 3)
    assert first.events == again.events and first.scores == again.scores
    assert first.events != other.events


def test_play_game_rejects_wrong_number_of_strategies():
    with pytest.raises(ValueError, match="3 strategies for 4 players"):
        play_game(BluffSettings(players=4), engine.lineup("random*3"), 0)


# --- refilling hands ----------------------------------------------------------------------------


def _refill_state(draw_cards: list[int], hand_lengths: list[int], round_index: int):
    """A 3-player state whose draw pile is exactly ``draw_cards`` and hands have these sizes.

    Every card that leaves a hand or the draw pile goes to seat 0's penalty pile, so the
    bookkeeping invariant holds.
    """
    game_settings = BluffSettings(players=3)
    state = new_game(game_settings, rng_module.game_stream(3, 0))
    draw = [int(c) for c in state.deck[state.draw_top :]]
    for card in draw_cards:
        draw.remove(card)
    penalty = draw  # everything else leaves the draw pile
    for seat, length in enumerate(hand_lengths):
        penalty += state.hands[seat][length:]
        del state.hands[seat][length:]
    hand_cards = [c for hand in state.hands for c in hand]
    state.deck = np.asarray(hand_cards + penalty + draw_cards, dtype=np.int8)
    state.draw_top = len(state.deck) - len(draw_cards)
    state.penalty_cards = [penalty, [], []]
    state.round_index = round_index
    check_every_card_once(state)
    return state


def test_refill_starts_with_the_starting_player_clockwise():
    """ "After someone has received points, the turn ends. All players refill their hand cards
    to 5. The starting player card is passed to the player on the left of the current starting
    player." The hands are refilled from the round's starting player (seat 1 in round 1) on,
    clockwise: seat 1, seat 2, then seat 0."""
    draw = [STOP, WILD_1, animal_type(4, 3)]
    state = _refill_state(draw, hand_lengths=[3, 4, 5], round_index=1)
    before = [list(hand) for hand in state.hands]
    assert refill_hands(state) is True
    assert state.hands[1] == [*before[1], STOP]
    assert state.hands[2] == before[2]
    assert state.hands[0] == [*before[0], WILD_1, animal_type(4, 3)]
    assert state.draw_pile_size == 0
    check_every_card_once(state)


def test_refill_from_seat_zero_in_round_zero():
    draw = [STOP, WILD_1, animal_type(4, 3)]
    state = _refill_state(draw, hand_lengths=[3, 4, 5], round_index=0)
    before = [list(hand) for hand in state.hands]
    assert refill_hands(state) is True
    assert state.hands[0] == [*before[0], STOP, WILD_1]
    assert state.hands[1] == [*before[1], animal_type(4, 3)]
    check_every_card_once(state)


def test_refill_with_one_card_too_few_deals_nothing():
    """ "The game ends when the draw pile is depleted and not all players can fill up their
    hand to five": refill reports False and deals no card at all."""
    draw = [STOP, WILD_1]
    state = _refill_state(draw, hand_lengths=[3, 4, 5], round_index=1)
    before = [list(hand) for hand in state.hands]
    top = state.draw_top
    assert refill_hands(state) is False
    assert state.hands == before
    assert state.draw_top == top
    check_every_card_once(state)


def test_game_ends_on_deck_when_refill_fails():
    """A whole game on a tiny deck with unreachable points must end by the deck."""
    deck = DeckSettings(
        animal_cards_per_value=1, wild_1=1, wild_2=1, count_one=0, all_equal=0, stop=0
    )
    game_settings = BluffSettings(players=2, hand_size=3, points_to_end=1000, deck=deck)
    for game_index in range(10):
        record, state = play_checked(game_settings, "random,bayes", 2, game_index)
        assert record.end_reason == END_DECK
        assert_game_invariants(game_settings, record, state)


# --- settings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"player": 3}, "player"),
        ({"players": 3, "max_claim": 3}, "max_claim"),
        ({"deck": {"lions": 2}}, "deck.lions"),
        ({"players": 1}, "players"),
        ({"players": 7}, "players"),
        ({"players": 2.5}, "players"),
        ({"players": True}, "players"),
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": 101}, "hand_size"),
        ({"points_to_end": 0}, "points_to_end"),
        ({"max_claim_count": -1}, "max_claim_count"),
        ({"deck": {"stop": -1}}, "deck.stop"),
        ({"deck": {"wild_2": -3}}, "deck.wild_2"),
        ({"deck": {"animal_cards_per_value": -1}}, "deck.animal_cards_per_value"),
        ({"deck": {"count_one": "six"}}, "deck.count_one"),
        ({"deck": 5}, "deck"),
    ],
)
def test_settings_errors_name_the_key(table, key):
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == key
    assert f"'{key}'" in str(error.value)


@pytest.mark.parametrize(("players", "hand_size"), [(6, 18), (2, 54), (3, 36)])
def test_hand_size_too_large_for_the_deck(players, hand_size):
    """ "Each player draws five": the deck (107 cards) must be able to deal every hand."""
    with pytest.raises(SettingsError) as error:
        settings_from_table({"players": players, "hand_size": hand_size})
    message = str(error.value)
    assert error.value.key == "hand_size"
    assert "'hand_size'" in message
    assert str(players * hand_size) in message  # the cards the hands need
    assert "107" in message  # the cards the deck has


def test_hand_size_that_exactly_fits_the_deck_is_accepted():
    table = {
        "players": 2,
        "hand_size": 5,
        "deck": {
            "animal_cards_per_value": 0,
            "wild_1": 5,
            "wild_2": 5,
            "count_one": 0,
            "all_equal": 0,
            "stop": 0,
        },
    }
    assert settings_from_table(table).deck.size == 10
    table["hand_size"] = 6
    with pytest.raises(SettingsError) as error:
        settings_from_table(table)
    assert error.value.key == "hand_size"
    assert "12" in str(error.value) and "10" in str(error.value)


def test_deck_without_animal_or_wild_cards_is_rejected():
    deck = {"animal_cards_per_value": 0, "wild_1": 0, "wild_2": 0}
    with pytest.raises(SettingsError, match="no animal or wild card") as error:
        settings_from_table({"deck": deck})
    assert error.value.key == "deck"
    with pytest.raises(SettingsError):
        validate(BluffSettings(deck=DeckSettings(0, 0, 0)))


def test_default_settings_are_the_published_rules():
    table_settings = settings_from_table({})
    assert table_settings == BluffSettings()
    assert table_settings.deck.size == 107  # "the 107 game cards"
    assert (table_settings.players, table_settings.hand_size) == (4, 5)
    assert table_settings.points_to_end == 30  # "30 or more points"


CUSTOM_TABLE = {
    "players": 2,
    "hand_size": 3,
    "points_to_end": 10,
    "deck": {"count_one": 0, "all_equal": 0, "stop": 0},
}


def test_custom_settings_from_table():
    custom = settings_from_table(CUSTOM_TABLE)
    assert custom.players == 2 and custom.hand_size == 3 and custom.points_to_end == 10
    assert custom.deck.size == 75 + 12
    assert custom.deck.count_one == custom.deck.all_equal == custom.deck.stop == 0


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    names=st.lists(st.sampled_from(STRATEGY_NAMES), min_size=2, max_size=2),
)
def test_custom_deck_games_keep_the_invariants(seed, names):
    custom = settings_from_table(CUSTOM_TABLE)
    record, state = play_checked(custom, ",".join(names), seed)
    assert_game_invariants(custom, record, state)
    assert all(len(hand) <= 3 for hand in state.hands)
    for event in record.events:
        if event["move"] == "doubt":
            assert not {"action:count1", "action:equal", "stop"} & set(event["pile"])


# --- a small claim cap --------------------------------------------------------------------------


def test_only_doubt_is_legal_once_no_claim_can_best_the_standing_one():
    """The rulebook sets no limit; the engine caps claims so a round must end: once the
    standing claim is (cap, elephant), the next player can only doubt."""
    game_settings = BluffSettings(players=3, max_claim_count=3)
    state = new_game(game_settings, rng_module.game_stream(1, 0))
    state.pile, state.pile_owners = [state.hands[0].pop()], [0]
    state.claim_count, state.claim_kind, state.claimant = 3, N_KINDS - 1, 0
    state.history = [(0, MOVE_HAND, 3, N_KINDS - 1)]
    assert legal_moves(state, 1) == [MOVE_DOUBT]
    state.claim_kind = N_KINDS - 2  # (3, lion): elephants may still be claimed
    assert legal_moves(state, 1) == [MOVE_DOUBT, MOVE_HAND, MOVE_DRAW, MOVE_NONE]


@pytest.mark.parametrize("lineup", ["random*3", "aggressive,bayes,cautious,random"])
def test_small_claim_cap_terminates_and_caps_claims(lineup):
    players = len(lineup.split(","))
    game_settings = BluffSettings(players=players, max_claim_count=3)
    forced = 0
    for game_index in range(15):
        record, state = play_checked(game_settings, lineup, 21, game_index)
        assert_game_invariants(game_settings, record, state)
        assert max(claim[1] for claim in record.claims) <= 3
        for events in rounds_of(record):
            for before, after in itertools.pairwise(events):
                if after["move"] != "doubt" and before["move"] != "doubt":
                    assert parse_claim(before["claim"]) != (3, N_KINDS - 1)
            if parse_claim(events[-2]["claim"]) == (3, N_KINDS - 1):
                forced += 1
    assert forced > 0  # the forced doubt did happen


def test_count_for_kind_matches_found_in_real_games():
    """Every doubt of a few real games, recounted from the revealed pile."""
    from zooanalysis.games.bluff.cards import parse_card, type_counts

    for game_index in range(5):
        record = play_game(
            BluffSettings(players=4), engine.lineup("bayes*2,random*2"), 9, game_index
        )
        for event, doubt in zip(
            [e for e in record.events if e["move"] == "doubt"], record.doubts, strict=True
        ):
            counts = type_counts(parse_card(c) for c in event["pile"])
            assert count_for_kind(counts, doubt[3]) == event["found"]


class _DoubtAboveThree:
    """A notebook-style strategy written in plain Python against the Observation API."""

    def choose_move(self, observation, rng):
        from zooanalysis.games.bluff.strategies import MOVE_DOUBT, MOVE_DRAW, MOVE_HAND, MOVE_NONE

        if observation.claim_count > 3:
            return MOVE_DOUBT, -1
        if observation.hand:
            return MOVE_HAND, len(observation.hand) - 1
        return (MOVE_DRAW, -1) if observation.first_move else (MOVE_NONE, -1)

    def choose_claim(self, observation, rng):
        if observation.claim_count == 0:
            return 1, 0
        return observation.claim_count + 1, 0


class _ClaimsTwoAtFirst(_DoubtAboveThree):
    def choose_claim(self, observation, rng):
        return 2, 0


def test_a_python_strategy_object_plays_through_the_reference_engine() -> None:
    from zooanalysis.games.bluff.batch import play_batch_reference
    from zooanalysis.games.bluff.engine import lineup, play_game

    settings = BluffSettings(players=3)
    players = [_DoubtAboveThree(), *lineup("random,bayes")]
    for game in range(20):
        record = play_game(settings, players, seed=4, game_index=game)
        # penalty points equal the cards of every doubted pile
        assert sum(record.scores) == sum(pile_size for *_, pile_size, _, _ in record.doubts)
        # the custom player never claims above four and doubts every claim above three
        assert all(count <= 4 for seat, count, *_ in record.claims if seat == 0)
        assert all(count > 3 for doubter, _c, count, *_ in record.doubts if doubter == 0)
    totals, _ = play_batch_reference(settings, players, batch_seed=4, n_games=20)
    assert totals["games"][0] == 20


def test_an_illegal_python_strategy_is_refused_with_a_clear_error() -> None:
    from zooanalysis.games.bluff.engine import IllegalMoveError, play_game

    with pytest.raises(IllegalMoveError, match="does not best"):
        play_game(BluffSettings(players=2), [_ClaimsTwoAtFirst(), _ClaimsTwoAtFirst()], seed=1)
