"""The Lucky Lions numba kernel plays exactly the reference engine's games.

``batch.make_batch(...)(seed, n)`` (the kernel, with per-game rows) and
``batch.play_batch_reference`` must produce identical count arrays and rows, array by
array, for every variant, expansion, deck source and strategy mix; game ``i`` of a batch must
not depend on the batch size or on where the batch starts.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from batch_helpers import assert_chunks_make_the_batch, assert_outcome_counts_agree

from zooanalysis.games.lucky_lions import counts, engine
from zooanalysis.games.lucky_lions.batch import LuckyBatch, make_batch, play_batch_reference
from zooanalysis.games.lucky_lions.rules import LuckySettings

EXAMPLE_DECK = str(
    Path(__file__).resolve().parent.parent / "simulations" / "decks" / "lucky-lions-example.toml"
)


def kernel_batch(settings: LuckySettings, lineup: str, with_rows: bool = True) -> LuckyBatch:
    """The kernel batch, arguments built from the reference engine's strategies."""
    strategies = engine.lineup(lineup)
    assert len(strategies) == settings.players
    return make_batch(settings, [s.player for s in strategies], with_rows)


def run_kernel(settings: LuckySettings, lineup: str, seed: int, n_games: int):
    """Kernel (totals, rows) for a batch, split as ``play_batch_reference`` returns them."""
    result = kernel_batch(settings, lineup)(seed, n_games)
    rows = {key: value for key, value in result.items() if key.startswith("row_")}
    totals = {key: value for key, value in result.items() if not key.startswith("row_")}
    return totals, rows


def assert_same(kernel_arrays: dict, reference_arrays: dict) -> None:
    """Same keys, and every array equal (shape, dtype and values)."""
    assert kernel_arrays.keys() == reference_arrays.keys()
    for key in kernel_arrays:
        assert kernel_arrays[key].dtype == reference_arrays[key].dtype, key
        np.testing.assert_array_equal(kernel_arrays[key], reference_arrays[key], err_msg=key)


S = LuckySettings
EVERYTHING = dict(
    reduced_die=True, no_shuffle=True, draw_instead=True, busy_zoo=True, wild_animals=True
)

CASES = [
    pytest.param(S(players=2), "random,random", 101, 300, id="base-2p-random"),
    pytest.param(S(players=2), "greedy,random", 102, 200, id="base-2p-greedy"),
    pytest.param(S(players=3), "random,greedy,random", 103, 200, id="base-3p"),
    pytest.param(S(players=4), "random*4", 104, 300, id="base-4p-random"),
    pytest.param(S(players=4), "greedy,random,greedy,random", 105, 200, id="base-4p-mixed"),
    pytest.param(S(players=5), "random,greedy,random,greedy,random", 106, 150, id="base-5p"),
    pytest.param(
        S(reduced_die=True), "equilibrium,random,greedy,random", 107, 150, id="reduced-die"
    ),
    pytest.param(
        S(players=2, reduced_die=True), "equilibrium,greedy", 108, 100, id="reduced-die-eq-2p"
    ),
    pytest.param(S(no_shuffle=True), "random,greedy,random,greedy", 109, 200, id="no-shuffle"),
    pytest.param(
        S(draw_instead=True), "greedy:draw_below=8,random,greedy,random", 110, 200,
        id="draw-instead",
    ),
    pytest.param(S(busy_zoo=True), "equilibrium,random,greedy,random", 111, 200, id="busy-zoo"),
    pytest.param(
        S(players=5, busy_zoo=True), "random*5", 112, 150, id="busy-zoo-5p-random"
    ),
    pytest.param(
        S(wild_animals=True), "random,greedy,random,greedy", 113, 200, id="wild-animals"
    ),
    pytest.param(
        S(players=3, wild_animals=True, no_shuffle=True), "random*3", 114, 200,
        id="wild-no-shuffle",
    ),
    pytest.param(S(**EVERYTHING), "equilibrium,random,greedy,random", 115, 150, id="everything"),
    pytest.param(S(players=5, **EVERYTHING), "random*5", 116, 150, id="everything-5p-random"),
    pytest.param(S(players=2, **EVERYTHING), "greedy,random", 117, 150, id="everything-2p"),
    pytest.param(S(deck="fixed"), "random,greedy,random,greedy", 118, 200, id="fixed-deck"),
    pytest.param(
        S(deck="fixed", deck_seed=7, busy_zoo=True, wild_animals=True),
        "random*4", 119, 200, id="fixed-deck-expansions",
    ),
    pytest.param(
        S(market_size=3, busy_zoo=True, wild_animals=True), "greedy,random,greedy,random",
        120, 150, id="market-3",
    ),
    pytest.param(S(market_size=1, players=3), "random,greedy,random", 121, 150, id="market-1"),
    pytest.param(S(turn_limit=5), "random,greedy,random,greedy", 122, 200, id="turn-limit-5"),
    pytest.param(
        S(players=3, points_to_win=1000), "random,greedy,random", 123, 100, id="deck-runs-out"
    ),
    pytest.param(
        S(deck=EXAMPLE_DECK, busy_zoo=True), "random,greedy,equilibrium,random", 124, 200,
        id="deck-file",
    ),
    pytest.param(
        S(deck=EXAMPLE_DECK, busy_zoo=True, wild_animals=True, no_shuffle=True, players=5),
        "random,greedy,random,greedy,random", 125, 200, id="deck-file-wild-5p",
    ),
    pytest.param(
        S(draw_instead=True, refused_zoo_card="market", wild_animals=True),
        "random,greedy:draw_below=8,random,random", 129, 200, id="refused-to-market",
    ),
    pytest.param(
        S(players=3, draw_instead=True, refused_zoo_card="out_of_game", market_size=1),
        "random*3", 130, 200, id="refused-out-of-game",
    ),
    pytest.param(
        S(players=3, draw_instead=True, no_shuffle=True, market_size=1, busy_zoo=True),
        "random,greedy:draw_below=9,random", 131, 200, id="refused-to-deck-bottom-market-1",
    ),
    pytest.param(
        S(players=3, wild_animals=True, no_shuffle=True, panda_switch="reroll"),
        "random*3", 132, 200, id="panda-reroll",
    ),
    pytest.param(
        S(players=4, panda_switch="reroll", refused_zoo_card="out_of_game", **EVERYTHING),
        "random,greedy,random,equilibrium", 133, 150, id="everything-old-readings",
    ),
    pytest.param(S(die_size=1, players=3), "random,greedy,random", 126, 200, id="die-1"),
    pytest.param(
        S(die_size=1, players=5, busy_zoo=True, wild_animals=True),
        "random,greedy,random,random,greedy", 127, 150, id="die-1-expansions",
    ),
    pytest.param(
        S(die_size=2, players=4, draw_instead=True, wild_animals=True),
        "random*4", 128, 200, id="die-2-draw-wild",
    ),
]


@pytest.mark.parametrize(("settings", "lineup", "seed", "n_games"), CASES)
def test_kernel_equals_reference(settings, lineup, seed, n_games):
    kernel_totals, kernel_rows = run_kernel(settings, lineup, seed, n_games)
    reference_totals, reference_rows = play_batch_reference(
        settings, engine.lineup(lineup), seed, n_games, with_rows=True
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)
    # not vacuous: every game was played and counted
    assert kernel_totals["games"][0] == n_games
    assert kernel_rows["row_turns"].min() > 0
    # the rolls' per-game moments (compared above with every count) are not vacuous
    rolls = kernel_totals["rolls"]
    assert kernel_totals["roll_moments"][0] > rolls.sum()  # several rolls a game
    assert (kernel_totals["shown_moments"][:, 3] >= rolls.sum(axis=(1, 2))).all()
    assert kernel_totals["battles"].sum() == kernel_rows["row_turns"].sum()
    assert_outcome_counts_agree(kernel_totals, settings.players)


def test_the_variants_are_exercised():
    """The cases above reach the rare branches: every power, every tie kind, draws."""
    totals, _ = run_kernel(S(players=5, **EVERYTHING), "random*5", 116, 150)
    assert (totals["powers"] > 0).all()
    assert totals["ties"][0] > 0 and totals["ties"][2] > 0
    assert totals["draws_instead"].sum() > 0
    assert (totals["rolls"][..., 3].sum()) > 0  # voided battles
    totals, _ = run_kernel(S(die_size=1, players=3), "random,greedy,random", 126, 200)
    assert totals["ties"][1] > 0  # nobody could discard
    totals, _ = run_kernel(S(turn_limit=5), "random,greedy,random,greedy", 122, 200)
    assert totals["end_reasons"][2] > 0
    totals, _ = run_kernel(S(players=3, points_to_win=1000), "random,greedy,random", 123, 100)
    assert totals["end_reasons"][1] == 100
    # the readings' branches: refused cards returned (and the deck refilling a market of 1
    # from its bottom), switches judged afresh and rolled afresh
    case = {param.id: param.values for param in CASES}
    for name in ("refused-to-market", "refused-to-deck-bottom-market-1"):
        totals, _ = run_kernel(*case[name])
        assert totals["draws_instead"].sum() > 0 and totals["end_reasons"][1] == 0, name
    totals, _ = run_kernel(*case["refused-out-of-game"])
    assert totals["end_reasons"][1] > 0  # the earlier reading: Zoo Cards run out
    for name in ("wild-no-shuffle", "panda-reroll"):
        totals, _ = run_kernel(*case[name])
        assert totals["powers"][3] > 0, name


def test_reference_rows_are_play_game_records():
    settings = S(players=3, busy_zoo=True)
    lineup = "greedy,random,random"
    _, rows = play_batch_reference(settings, engine.lineup(lineup), 5, 4, True)
    for game in range(4):
        record = engine.play_game(settings, engine.lineup(lineup), 5, game)
        assert list(rows["row_points"][game]) == record.scores
        assert list(rows["row_cards_won"][game]) == record.cards_won
        assert rows["row_turns"][game] == record.turns
        assert rows["row_end"][game] == record.end_reason


@pytest.mark.parametrize(
    ("settings", "lineup"),
    [(S(), "random*4"), (S(**EVERYTHING), "greedy,random,equilibrium,random")],
    ids=["base", "everything"],
)
def test_game_i_alone_equals_game_i_in_the_batch(settings, lineup):
    batch = kernel_batch(settings, lineup)
    whole = batch(31, 40)
    strategies = engine.lineup(lineup)
    for game in (0, 7, 39):
        alone = batch(31, 1, first_game=game)
        for key in ("row_points", "row_cards_won", "row_turns", "row_end"):
            np.testing.assert_array_equal(alone[key][0], whole[key][game], err_msg=key)
        record = engine.play_game(settings, strategies, 31, game)
        assert list(alone["row_points"][0]) == record.scores
        assert alone["row_turns"][0] == record.turns



@pytest.mark.parametrize(
    ("settings", "lineup", "split"),
    [(S(), "random*4", 13), (S(players=3, **EVERYTHING), "greedy,random,equilibrium", 1)],
    ids=["base", "everything"],
)
def test_a_batch_played_in_two_chunks_equals_one_call(settings, lineup, split):
    """``job(s, k)`` then ``job(s, n - k, first_game=k)`` is ``job(s, n)``, on the kernel and
    on the reference engine: game ``g`` of a batch is the same game whichever call plays it."""
    seed, n_games = 2024, 30
    job = kernel_batch(settings, lineup)
    whole = job(seed, n_games)
    assert_chunks_make_the_batch(
        whole, [job(seed, split), job(seed, n_games - split, first_game=split)]
    )
    strategies = engine.lineup(lineup)

    def reference(n: int, first_game: int = 0) -> dict:
        totals, rows = play_batch_reference(
            settings, strategies, seed, n, with_rows=True, first_game=first_game
        )
        return {**totals, **rows}

    whole_reference = reference(n_games)
    assert_chunks_make_the_batch(
        whole_reference, [reference(split), reference(n_games - split, split)]
    )
    assert_same(whole, whole_reference)  # the job is the kernel playing the same games


def test_game_i_does_not_depend_on_batch_size():
    batch = kernel_batch(S(wild_animals=True), "random,greedy,random,greedy")
    rows_50 = batch(77, 50)
    rows_20 = batch(77, 20)
    for key in ("row_points", "row_cards_won", "row_turns", "row_end"):
        np.testing.assert_array_equal(rows_20[key], rows_50[key][:20], err_msg=key)


def test_batches_are_deterministic_and_seeded():
    batch = kernel_batch(S(busy_zoo=True), "random,greedy,random,greedy")
    first = batch(5, 60)
    again = batch(5, 60)
    other = batch(6, 60)
    for key in first:
        np.testing.assert_array_equal(first[key], again[key], err_msg=key)
    assert not np.array_equal(first["row_points"], other["row_points"])


def test_totals_only_batch_counts_the_same():
    """Without rows the kernel counts exactly what it counts with them."""
    settings = S(wild_animals=True, busy_zoo=True)
    with_rows = kernel_batch(settings, "random*4")(9, 80)
    without = kernel_batch(settings, "random*4", with_rows=False)(9, 80)
    assert set(without) == set(counts.new_totals(4))
    for key in without:
        np.testing.assert_array_equal(without[key], with_rows[key], err_msg=key)


def test_make_batch_rejects_a_wrong_lineup_size():
    with pytest.raises(ValueError, match="4 strategies for 3 players"):
        make_batch(S(players=3), [s.player for s in engine.lineup("random*4")], False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kernel_equals_reference_many_games(players):
    settings = S(players=players, **EVERYTHING)
    lineup = ",".join(["greedy", "random", "equilibrium", "random", "greedy"][:players])
    kernel_totals, kernel_rows = run_kernel(settings, lineup, 9000 + players, 600)
    reference_totals, reference_rows = play_batch_reference(
        settings, engine.lineup(lineup), 9000 + players, 600, with_rows=True
    )
    assert_same(kernel_totals, reference_totals)
    assert_same(kernel_rows, reference_rows)


def test_scalar_battles_match_mark_winners():
    """``flat.pair_winners`` and ``flat.duel`` (scalars, for speed) decide every two-roller
    battle exactly as ``mark_winners`` and ``wild_tie_break`` do, on every kind of card."""
    from zooanalysis.games.lucky_lions import flat
    from zooanalysis.games.lucky_lions.generator import generate_rows
    from zooanalysis.rng import game_stream

    tables = S(busy_zoo=True, wild_animals=True).tables
    specials = set()
    for deck in range(6):
        for row in generate_rows(tables, game_stream(11, deck)):
            card = np.ascontiguousarray(row)
            specials.add(int(card[flat.SPECIAL]))
            for a in range(flat.N_TYPES):
                for b in range(flat.N_TYPES):
                    winners = np.zeros(2, dtype=np.int64)
                    animals = np.array([a % 5, b % 5], dtype=np.int64)
                    found = flat.mark_winners(card, animals, 2, winners)
                    assert flat.pair_winners(card, a % 5, b % 5) == tuple(winners == 1)
                    for wild_powers in (False, True):
                        mask = winners.copy()
                        left = found
                        if wild_powers and found == 2:
                            left = flat.wild_tie_break(np.array([a, b]), 2, mask)
                        expected = 0 if left == 2 else (1 if mask[0] else -1)
                        assert flat.duel(card, a, b, wild_powers) == expected
    assert specials == set(range(-1, 6))  # plain cards and all six special rules
