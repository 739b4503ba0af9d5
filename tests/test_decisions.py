"""Decision moves and branching factor: the shared counter, each game's options stated from
its rules, the metrics and the report's words.

The kernels and reference engines fill the same counts (each game's engine-agreement test
compares every count array, these included); here the counter itself, the options a few
positions offer (hand-computed from the rulebooks) and what a run makes of them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import zooanalysis
from zooanalysis.balance import balance_metrics, decision_rows
from zooanalysis.cards.notation import parse_cards
from zooanalysis.decisions import (
    GAME_BINS,
    OPTION_BINS,
    combinations,
    count_decision,
    count_game_decisions,
    new_decision_totals,
    tally_decisions,
)
from zooanalysis.games.bluff.cards import N_KINDS
from zooanalysis.games.bluff.engine import claim_options, move_options
from zooanalysis.games.bluff.strategies import MOVE_DOUBT, MOVE_DRAW, MOVE_HAND, MOVE_NONE
from zooanalysis.games.bug_house.engine import FOLLOW, GIVE, LEAD, decision_options
from zooanalysis.games.bug_house.melds import legal_melds, meld_of
from zooanalysis.games.short_zoot_suit.engine import action_options, pile_options
from zooanalysis.games.through_the_zoo.engine import mulligan_options
from zooanalysis.games.through_the_zoo.kernel import _mulligan_options
from zooanalysis.report.build import report_document
from zooanalysis.storage import MANIFEST

COUNTED = ("big-two", "bluff", "bug-house", "chai-tea-jazz", "dodgeball", "hearts",
           "lucky-lions", "short-zoot-suit", "through-the-zoo", "zoology")
"""The games whose kernels count their decisions so far."""


def test_the_kernel_counter_and_its_plain_twin_agree() -> None:
    games = [[1, 3, 5, 2], [1, 1], [], [2000, 7]]
    plain = new_decision_totals()
    fast = new_decision_totals()
    for options in games:
        tally_decisions(options, plain)
        real = 0
        for count in options:
            real += count_decision(count, fast["decision_options"])
        count_game_decisions(real, fast["game_decisions"])
    for key in plain:
        np.testing.assert_array_equal(plain[key], fast[key], err_msg=key)
    counts = plain["decision_options"]
    assert counts[1] == 3 and counts[2] == 1 and counts[OPTION_BINS - 1] == 1  # 2000: top bin
    # real decisions per game: 3, 0, 0, 2
    assert list(np.nonzero(plain["game_decisions"])[0]) == [0, 2, 3]
    assert plain["game_decisions"][0] == 2 and plain["game_decisions"].sum() == 4
    count_game_decisions(5000, plain["game_decisions"])
    assert plain["game_decisions"][GAME_BINS - 1] == 1


@pytest.mark.parametrize(("n", "k"), [(12, 5), (5, 0), (5, 5), (3, 4), (7, 3), (40, 20)])
def test_combinations_is_math_comb_up_to_the_top_bin(n: int, k: int) -> None:
    assert combinations(n, k) == min(math.comb(n, k), OPTION_BINS)


def test_bluff_options_from_the_rules() -> None:
    # the round's first move: any of 5 hand cards or the draw pile's top card
    assert move_options([MOVE_HAND, MOVE_DRAW], 5) == 6
    # later: doubt, any of 3 hand cards, draw, or place none
    assert move_options([MOVE_DOUBT, MOVE_HAND, MOVE_DRAW, MOVE_NONE], 3) == 6
    assert move_options([MOVE_DOUBT], 4) == 1  # nobody can raise: doubting is forced
    assert claim_options(0, -1, 10) == N_KINDS  # "1 <kind>" of any kind
    # after "2 of kind 1" with a cap of 4: kinds 2.. at count 2, any kind at 3 or 4
    assert claim_options(2, 1, 4) == (N_KINDS - 2) + 2 * N_KINDS
    assert claim_options(4, N_KINDS - 1, 4) == 0


def test_short_zoot_suit_options_from_the_rules() -> None:
    assert pile_options(12, 5) == 792  # "pick any 5 cards from the cards they were dealt"
    assert action_options(held=6, pile_size=3, place_min=99) == 2  # pass or draw
    assert action_options(held=6, pile_size=0, place_min=99) == 1  # nothing to draw: forced
    assert action_options(held=6, pile_size=3, place_min=2) == 8  # or place any of 6 cards


def test_bug_house_options_from_the_rules() -> None:
    hand = parse_cards("4H 5H 6H 7H 6C 9S")
    # leads: 6 singles, the pair of 6s, runs 4-5-6, 5-6-7 and 4-5-6-7 (min_run 3)
    assert len(legal_melds(hand, None, 3, False, True)) == 6 + 1 + 3
    assert decision_options(LEAD, 10, 0) == 10
    # Delayed Singles with the partner holding the card: the pair and the runs only
    assert len(legal_melds(hand, None, 3, False, False)) == 4
    # following a single 6D: 7H and 9S beat it, or pass
    top = meld_of(parse_cards("6D"))
    assert decision_options(FOLLOW, len(legal_melds(hand, top, 3, False, True)), 0) == 3
    assert decision_options(FOLLOW, 0, 0) == 1  # nothing beats it: passing is forced
    assert decision_options(GIVE, 0, 5) == 5  # "any 1 card from the trick they just won"


@pytest.mark.parametrize(("held", "limit"), [(13, 13), (13, 7), (13, 2), (13, 0), (4, 9)])
def test_through_the_zoo_options_from_the_rules(held: int, limit: int) -> None:
    """Prepare: "discard up to 13 cards from hand" is a choice among every set of at most
    the limit's hand cards (2^13 with Zooklyn's 13); the kernel's count caps at the top
    bin."""
    expected = sum(math.comb(held, k) for k in range(min(held, limit) + 1))
    assert mulligan_options(held, limit) == expected
    assert _mulligan_options(held, limit) == min(expected, OPTION_BINS)
    assert mulligan_options(13, 13) == 2**13 and mulligan_options(13, 0) == 1


def test_decision_metrics_from_a_hand_made_histogram() -> None:
    options = pd.Series({1: 10, 2: 30, 4: 60})  # 100 decisions, 90 real
    per_game = pd.Series({8: 5, 10: 5})  # 10 games, 9 real decisions each on average
    rows = {row["metric"]: row for row in decision_rows(options, per_game)}
    assert rows["decision_share"]["value"] == pytest.approx(0.9)
    assert rows["decision_share"]["n"] == 100
    assert rows["decision_share"]["ci_low"] < 0.9 < rows["decision_share"]["ci_high"]
    assert rows["branching_mean"]["value"] == pytest.approx((10 + 60 + 240) / 100)
    assert rows["decisions_mean"]["value"] == pytest.approx(9.0)
    assert rows["decisions_mean"]["n"] == 10
    assert decision_rows(None, None) == []


@pytest.mark.parametrize("game", COUNTED)
def test_a_run_counts_every_game_and_its_report_states_it(game: str, tmp_path: Path) -> None:
    run = zooanalysis.simulate(game, games=300, seed=3, jobs=1, out=tmp_path / "run")
    options = run.table("decisions").set_index("options")["decisions"]
    per_game = run.table("game_decisions").set_index("decisions")["games"]
    assert per_game.sum() == run.games_played  # every game counted once
    real = options[options.index > 1].sum()
    assert (per_game.index * per_game).sum() == real  # no game reaches the top bin here
    metrics = balance_metrics(run).set_index("metric")
    assert metrics.loc["branching_mean", "value"] == pytest.approx(
        (options.index * options).sum() / options.sum()
    )
    assert metrics.loc["decisions_mean", "value"] == pytest.approx(real / run.games_played)
    assert run.metrics()["balance.branching_mean_value"] == metrics.loc["branching_mean", "value"]
    if run.cooperative:
        return
    texts = {f.key: f.text for f in report_document(Path(run.path)).findings}
    assert texts["branching_mean"].startswith("A player deciding has ")
    assert "legal options on average (branching factor)" in texts["branching_mean"]


def test_a_game_that_does_not_count_decisions_says_not_measured(tmp_path: Path) -> None:
    """A run folder without the decision tables (written before its game counted them)."""
    run = zooanalysis.simulate("lucky-lions", games=200, seed=3, jobs=1, out=tmp_path / "run")
    manifest_path = Path(run.path) / MANIFEST
    manifest = json.loads(manifest_path.read_text())
    manifest["tables"] = [
        name for name in manifest["tables"] if name not in ("decisions", "game_decisions")
    ]
    del manifest["manifest_sha256"]  # written before manifests were sealed, too
    manifest_path.write_text(json.dumps(manifest))
    document = report_document(Path(run.path))
    keys = {f.key for f in document.findings}
    assert "decisions_none" in keys and "branching_mean" not in keys
