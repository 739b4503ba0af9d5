"""Lucky Lions readings of "draw instead" and of the wild panda's switch
(docs/rules-decisions.md, Lucky Lions #10 and #14), each on a hand-built table, with the old
readings as settings, and what each does to whole games.

"Whenever you win a Zoo card, you can decide to draw Animal cards instead": the refused card
is nobody's, so it goes under the Zoo deck (``refused_zoo_card = "deck_bottom"``); it
leaving the game made half of ``random*4`` games end because the Zoo Cards ran out, an ending
the rules never describe. "Panda: if I'm not on the Zoo Card, switch to a different Zoo
Card": the same shown animals are judged on the new card (``panda_switch = "rejudge"``).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np
import pytest
from test_lucky_lions_engine import CYCLE, Scripted, W, card, table

from zooanalysis.errors import SettingsError
from zooanalysis.games.lucky_lions import engine
from zooanalysis.games.lucky_lions.batch import make_batch
from zooanalysis.games.lucky_lions.engine import END_DECK, END_POINTS, POWER_PANDA, play_turn
from zooanalysis.games.lucky_lions.flat import FOX, LION, PANDA
from zooanalysis.games.lucky_lions.rules import LuckySettings, settings_from_table

DRAW = LuckySettings(players=2, draw_instead=True, market_size=2)
PRIZE = card(*CYCLE, points=3)  # fox (seat 0) beats lion (seat 1)
OTHER = card(LION, FOX, points=1)
NEXT, LAST = card(FOX, PANDA, points=2), card(PANDA, LION, points=1)


def refuse(rules: LuckySettings, market, deck) -> engine.GameState:
    """Seat 0 picks the first market card, wins it with a fox and refuses it."""
    state = table(rules, [[FOX] * 6, [LION] * 6], market, deck=deck, pile=[PANDA] * 5)
    play_turn(state, [Scripted(draw=True), Scripted()], active=0)
    assert state.scores == [0, 0] and state.record.draws_instead == [0]
    assert state.players[0].die == [FOX] * 6 + [PANDA] * 3, "3 points: 3 Animal Cards"
    return state


def test_a_refused_card_goes_under_the_zoo_deck() -> None:
    state = refuse(DRAW, [PRIZE, OTHER], [NEXT, LAST])
    assert state.market == [OTHER, NEXT], "the market was refilled after the pick, as always"
    assert state.zoo_deck == [LAST, PRIZE]
    assert state.out_of_game == []


def test_a_refused_card_refills_a_short_market_from_an_empty_deck() -> None:
    """The deck is empty and the market short after the pick: the refused card is the deck,
    so the market takes it at once (it is full whenever the deck has cards), and the game
    goes on instead of running out of Zoo Cards."""
    state = refuse(DRAW, [PRIZE], [])
    assert state.market == [PRIZE] and state.zoo_deck == [] and state.out_of_game == []


def test_a_refused_card_back_to_the_market_or_out_of_the_game() -> None:
    state = refuse(replace(DRAW, refused_zoo_card="market"), [PRIZE, OTHER], [NEXT, LAST])
    assert state.market == [OTHER, NEXT, PRIZE] and state.zoo_deck == [LAST]
    state = refuse(replace(DRAW, refused_zoo_card="out_of_game"), [PRIZE, OTHER], [NEXT, LAST])
    assert state.market == [OTHER, NEXT] and state.out_of_game == [PRIZE]


def test_a_tie_winner_may_refuse_too() -> None:
    """A tie's winner "wins the Zoo Card" as well, so "Whenever you win a Zoo card" lets it
    refuse: seat 1 discards, seat 0 wins the card and refuses it (decision #10)."""
    rules = replace(DRAW, refused_zoo_card="deck_bottom")
    state = table(rules, [[LION] * 6, [LION] * 6], [PRIZE, OTHER], deck=[NEXT], pile=[PANDA])
    active = Scripted(discarder=1, draw=True)
    play_turn(state, [active, Scripted()], active=0)
    assert active.asked == ["card", "discarder", "draw"]
    assert len(state.players[1].die) == 5 and state.players[0].die == [LION] * 6 + [PANDA]
    assert state.zoo_deck == [PRIZE]


def ends(settings: LuckySettings, lineup: str, games: int, seed: int = 3):
    strategies = [s.player for s in engine.lineup(lineup)]
    totals = make_batch(settings, strategies, False)(seed, games)
    turns = (totals["turns_hist"] * range(len(totals["turns_hist"]))).sum() / games
    return totals["end_reasons"], turns


def test_with_the_card_returned_games_end_on_points_not_an_empty_deck() -> None:
    """``random*4`` with draw instead: under the earlier reading about half the games end
    because the Zoo Cards ran out; returned to the deck (or market), they end on points,
    and later (the variant is there "To make the game longer")."""
    old, old_turns = ends(
        LuckySettings(draw_instead=True, refused_zoo_card="out_of_game"), "random*4", 600
    )
    assert 0.4 < old[END_DECK] / 600 < 0.6
    for where in ("deck_bottom", "market"):
        new, turns = ends(LuckySettings(draw_instead=True, refused_zoo_card=where), "random*4", 600)
        assert new[END_POINTS] == 600, where
        assert turns > old_turns


# --- the wild panda --------------------------------------------------------------------------

WILD = LuckySettings(players=2, wild_animals=True, no_shuffle=True)
OFF = card(LION, FOX)  # no panda on it: a wild panda switches
ON = card(LION, PANDA, FOX, points=1)  # lion -> panda -> fox: panda beats lion, lion fox


def test_after_the_switch_the_same_animals_are_judged_on_the_new_card() -> None:
    """Wild panda (top of seat 0's die) against lion, on a card without pandas: seat 0
    switches to ``ON`` and the same two cards are judged on it: the panda beats the lion."""
    panda = Scripted(switch=0)
    state = table(WILD, [[PANDA + W, FOX], [LION, LION]], [OFF, ON])
    play_turn(state, [panda, Scripted()], active=0)
    assert panda.asked == ["card", "switch"]
    assert state.scores == [1, 0] and state.players[0].won == [ON]
    assert state.market == [OFF], "the old card lies where the new one lay"
    assert state.record.powers == [POWER_PANDA]
    # one roll each: the rolled card went to the bottom of each die once, after the battle
    assert state.players[0].die == [FOX, PANDA + W] and state.players[1].die == [LION, LION]


def test_the_old_reading_rolls_again_on_the_new_card() -> None:
    """``panda_switch = "reroll"``: the battle starts afresh on ``ON``; without shuffling
    the next cards are rolled (fox against lion), and the lion wins."""
    state = table(replace(WILD, panda_switch="reroll"), [[PANDA + W, FOX], [LION, LION]], [OFF, ON])
    play_turn(state, [Scripted(switch=0), Scripted()], active=0)
    assert state.scores == [0, 1] and state.players[1].won == [ON]


def test_a_fox_that_rerolled_before_the_switch_cannot_reroll_after_it() -> None:
    """A wild fox rerolls into a wild panda off the card; the panda switches, and the same
    battle goes on on the new card: the fox's reroll is spent ("once per battle")."""
    fox = Scripted(reroll=True, switch=0)
    state = table(WILD, [[FOX + W, PANDA + W], [LION, LION]], [OFF, ON])
    play_turn(state, [fox, Scripted()], active=0)
    assert fox.asked == ["card", "reroll", "switch"]
    assert state.scores == [1, 0], "the panda it rolled beats the lion on the new card"


@pytest.mark.parametrize(
    ("table_", "key", "fragment"),
    [
        ({"refused_zoo_card": "discard"}, "refused_zoo_card", "deck_bottom, market, out_of_game"),
        ({"panda_switch": 1}, "panda_switch", "rejudge, reroll"),
    ],
)
def test_reading_settings_are_checked(table_, key, fragment) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_table(table_)
    assert error.value.key == key and fragment in str(error.value)


def test_reading_settings_round_trip() -> None:
    rules = settings_from_table({"refused_zoo_card": "market", "panda_switch": "reroll"})
    assert settings_from_table(rules.to_dict()) == rules
    assert settings_from_table({}).refused_zoo_card == "deck_bottom"
    assert settings_from_table({}).panda_switch == "rejudge"


def digest(totals: dict, keys: tuple[str, ...]) -> str:
    """A short sha256 of the named count arrays (as int64)."""
    h = hashlib.sha256()
    for key in keys:
        h.update(np.ascontiguousarray(totals[key], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


PINNED_KEYS = (
    "wins", "sole_wins", "points_sum", "points_hist", "cards_won_hist", "draws_instead",
    "turns_hist", "end_reasons", "battles", "rolls", "ties", "powers",
)  # fmt: skip


@pytest.mark.parametrize(
    ("settings", "lineup", "seed", "games", "pinned"),
    [
        (LuckySettings(draw_instead=True), "random*4", 21, 300, "0dbbdb8f8af06944"),
        (LuckySettings(players=3, wild_animals=True), "random*3", 22, 300, "1561722a2b0d0e4b"),
        (
            LuckySettings(
                players=5,
                reduced_die=True,
                no_shuffle=True,
                draw_instead=True,
                busy_zoo=True,
                wild_animals=True,
            ),
            "random*5",
            23,
            200,
            "d202dc5d11189b5f",
        ),
    ],
    ids=["draw-instead", "wild", "everything"],
)
def test_the_old_readings_play_exactly_the_games_they_played(
    settings, lineup, seed, games, pinned
) -> None:
    """``refused_zoo_card = "out_of_game"`` and ``panda_switch = "reroll"`` reproduce, count
    for count, what the kernel played before these readings (digests taken on commit
    d95dbc7; ``random`` only, whose choices no later change touched)."""
    old = replace(settings, refused_zoo_card="out_of_game", panda_switch="reroll")
    strategies = [s.player for s in engine.lineup(lineup)]
    assert digest(make_batch(old, strategies, False)(seed, games), PINNED_KEYS) == pinned
    assert digest(make_batch(settings, strategies, False)(seed, games), PINNED_KEYS) != pinned


def test_the_rulebook_scenario_states_every_reading() -> None:
    """``simulations/lucky-lions-rulebook.toml`` holds every setting at its default, the
    readings included."""
    import tomllib
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "simulations" / "lucky-lions-rulebook.toml"
    table_ = tomllib.loads(path.read_text(encoding="utf-8"))["settings"]
    assert table_["refused_zoo_card"] == "deck_bottom" and table_["panda_switch"] == "rejudge"
    assert settings_from_table(table_) == LuckySettings()


def test_the_draw_instead_sweep_compares_the_three_readings() -> None:
    from pathlib import Path

    from zooanalysis.sweep import cell_setup, load_sweep

    path = Path(__file__).resolve().parent.parent / "simulations"
    sweep = load_sweep(path / "sweep-lucky-lions-draw-instead.toml")
    cells = sweep.cells()
    assert sweep.game.name == "lucky-lions" and len(cells) == 3
    readings = [cell_setup(sweep, cell)[0].refused_zoo_card for cell in cells]
    assert sorted(readings) == ["deck_bottom", "market", "out_of_game"]
    assert all(cell_setup(sweep, cell)[0].draw_instead for cell in cells)
