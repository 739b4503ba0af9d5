"""Through the Zoo's reference engine against the rulebook: personal decks, drawing 13,
the zoos' Prepare actions, the start player card, exhibits in order, meta scoring."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from exhibit_helpers import install
from hypothesis import given, settings
from hypothesis import strategies as st

from zooanalysis.cards.encoding import COPY_STRIDE
from zooanalysis.games.through_the_zoo import engine
from zooanalysis.games.through_the_zoo.engine import IllegalMoveError, Observation
from zooanalysis.games.through_the_zoo.rules import settings_from_table


@pytest.fixture(autouse=True)
def heart_count(monkeypatch):
    install(monkeypatch)


class Scripted:
    """Mulligans the cards a function of the observation names; records what it saw."""

    def __init__(self, choose) -> None:
        self.choose = choose
        self.seen: list[Observation] = []

    def mulligan(self, observation: Observation, stream: np.ndarray) -> list[int]:
        self.seen.append(observation)
        return list(self.choose(observation))


def _rules(**table):
    base = {"players": 3, "exhibits": ["heart-count"] * 4}
    return settings_from_table(base | table)


def test_personal_decks_and_13_cards_a_round() -> None:
    """"Players each get their own standard deck of cards"; "Every player draws 13 cards
    from their personal deck": a hand only holds its owner's cards (never two identical
    faces), every round 13, and the four rounds use up the 52 cards."""
    keepers = [Scripted(lambda o: []) for _ in range(3)]
    engine.play_game(_rules(), keepers, 3, 0)
    for seat, player in enumerate(keepers):
        assert [len(o.hand) for o in player.seen] == [13, 13, 13, 13]
        assert all(code // COPY_STRIDE == seat for o in player.seen for code in o.hand)
        assert [len(o.deck) for o in player.seen] == [39, 26, 13, 0]
        cards = [code for o in player.seen for code in o.hand]
        assert len(cards) == 52 and len(set(cards)) == 52
        assert [o.limit for o in player.seen] == [13, 13, 13, 0], \
            "a mulligan draws from the deck, so none in the last round"


def test_zooklyn_mulligans_and_shuffles_back() -> None:
    """Zooklyn: "discarding up to 13 cards from their hand, drawing that many from their
    deck into their hand, then shuffling those discarded cards back into their deck"."""
    chosen = {}

    def worst_five(observation):
        cards = sorted(observation.hand)[:5] if observation.round_index == 0 else []
        chosen[observation.seat] = cards
        return cards

    players = [Scripted(worst_five) for _ in range(3)]
    record = engine.play_game(_rules(), players, 5, 0)
    assert record.mulligans[0] == [5, 5, 5] and record.mulligans[1] == [0, 0, 0]
    for seat, player in enumerate(players):
        second = player.seen[1]
        assert len(second.hand) == 13 and len(second.deck) == 26
        back = set(chosen[seat])
        assert back <= set(second.hand) | set(second.deck), "shuffled back into the deck"


def test_johannesburg_puts_mulligans_on_top_for_the_next_round() -> None:
    """Johannesburg: "Mulligan up to 7, put mulliganed cards on top of your deck, never
    shuffle your deck": the next round's 13 cards include every mulliganed card."""
    chosen = {}

    def seven(observation):
        if observation.round_index == 0:
            chosen[observation.seat] = sorted(observation.hand)[-7:]
            return chosen[observation.seat]
        return []

    players = [Scripted(seven) for _ in range(3)]
    engine.play_game(_rules(zoo="johannesburg"), players, 6, 0)
    for seat, player in enumerate(players):
        assert player.seen[0].limit == 7
        assert set(chosen[seat]) <= set(player.seen[1].hand)
        others = set(player.seen[1].hand) - set(chosen[seat])
        assert len(others) == 6 and not others & set(player.seen[0].hand)


@pytest.mark.parametrize(
    ("table", "first_rounds"),
    [({}, 2**13), ({"mulligan_limit": 2}, 1 + 13 + 78),
     ({"zoo": "johannesburg"}, 1 + 13 + 78 + 286 + 715 + 1287 + 1716 + 1716)],
)
def test_each_prepare_is_one_decision_among_every_allowed_mulligan(table, first_rounds) -> None:
    """A Prepare chooses a set of at most the limit's hand cards: 2^13 sets of 13 cards
    with Zooklyn's "up to 13", sum of C(13, k) for k <= 2 or 7 with a limit of 2 or
    Johannesburg's 7; in the last round the deck is empty, so keeping the hand is the
    only option. One decision per player and round, seat 1 first; the exhibits' card
    play is another game's (not counted)."""
    players = [Scripted(lambda o: []) for _ in range(3)]
    record = engine.play_game(_rules(**table), players, 4, 0)
    assert record.decisions == [first_rounds] * 9 + [1] * 3


def test_a_mulligan_over_the_limit_is_refused() -> None:
    greedy = [Scripted(lambda o: list(o.hand)) for _ in range(3)]
    with pytest.raises(IllegalMoveError):
        engine.play_game(_rules(zoo="johannesburg"), greedy, 1, 0)


def test_start_player_passes_clockwise_and_exhibits_play_in_order() -> None:
    """"pass the Start Player card to the next player clockwise"; "The games that will be
    played are in order under the Zoo Setup card"."""
    record = engine.play_game(_rules(start_seat=2, exhibit_order="as-listed"),
                              engine.lineup("random*3"), 2, 0)
    assert record.start_seats == [2, 0, 1, 2]
    assert record.order == [0, 1, 2, 3]


def test_shuffled_exhibits_deal_every_order() -> None:
    """"Get all of the Exhibit cards ..., shuffle them, and deal 4": every order turns up."""
    orders = {tuple(engine.play_game(_rules(players=2), engine.lineup("keep-all*2"), 4, g).order)
              for g in range(400)}
    assert orders == set(itertools.permutations(range(4)))


def test_johannesburg_meta_scoring_ranks_fewest_diamonds() -> None:
    """"Fewest Diamonds total", ranked "just like the previous rounds": the Diamonds the
    exhibits report (here: in hand) summed over the rounds; game points by the same table.
    With the heart-count exhibit every player ends with all 13 of their Diamonds, so the
    meta scoring is a tie for everyone (all last: 0 points)."""
    record = engine.play_game(_rules(zoo="johannesburg"), engine.lineup("random*3"), 8, 0)
    assert record.diamonds == [13, 13, 13] and record.meta_points == [0, 0, 0]
    assert record.meta
    dodge = settings_from_table({"zoo": "johannesburg"})
    record = engine.play_game(dodge, engine.lineup("random*4"), 8, 1)
    diamonds = [sum(result.diamonds[seat] for result in record.results) for seat in range(4)]
    assert record.diamonds == diamonds
    ranked = sorted(set(diamonds))
    for seat in range(4):
        if diamonds[seat] == ranked[-1]:
            assert record.meta_points[seat] == 0
        elif diamonds[seat] == ranked[0]:
            assert record.meta_points[seat] == 3
    assert record.game_points == [sum(p[s] for p in record.round_points) + record.meta_points[s]
                                  for s in range(4)]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["zooklyn", "johannesburg"]), st.integers(2, 4),
       st.sampled_from(["keep-all", "random", "fit", "planner"]))
def test_any_game_keeps_every_card_and_scores_as_written(seed, zoo, players, strategy) -> None:
    rules = _rules(zoo=zoo, players=players)
    record = engine.play_game(rules, engine.lineup(f"{strategy}*{players}"), seed, 0, check=True)
    assert len(record.round_points) == 4
    for result, points in zip(record.results, record.round_points, strict=True):
        assert sorted(points, reverse=True)[0] in rules.points
        best = max(result.standing)
        assert all(p == max(points) for p, s in zip(points, result.standing, strict=True)
                   if s == best)
    winners = record.winners
    most = max(record.game_points)
    assert all(record.game_points[seat] == most for seat in winners)

