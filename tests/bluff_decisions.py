"""A corpus of recorded Bluff in Zoo decisions: the inputs a built-in strategy decided from
and what it decided (issue 13).

Recorded from real games on the reference engine, with the strategies as they were before
their speed-up, so that a faster strategy can be held to the same decisions on every one:
``tests/test_bluff_decisions.py`` replays the corpus. Regenerate only when a strategy's
decisions are meant to change (a new strategy version, documented), with::

    .venv/bin/python tests/bluff_decisions.py

The corpus (``tests/data/bluff_decisions.npz``) holds one row per decision: the strategy
code and parameters, the hand, the known pile cards, the unseen cards, the pile and draw
sizes, the standing claim, the claim cap, the random stream before and after, and the
answer ((move, hand index) or (count, kind)).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

CORPUS = Path(__file__).with_name("data") / "bluff_decisions.npz"
MAX_HAND = 10
"""The largest hand in the recorded games (``hand_size=10``)."""
MOVE = 0
CLAIM = 1

# (settings table, lineup, games): the former default lineup first, then other player counts,
# parameters and settings that reach the rare paths (claim cap, small and odd decks).
GAMES = [
    ({}, "bayes,bayes,cautious,random", 80),
    ({}, "bayes:doubt=0.6,bluff=0.5,cautious:trust=0.5,margin=-1,aggressive,random", 12),
    ({"players": 2}, "bayes,cautious", 10),
    ({"players": 3}, "bayes,aggressive:raise=1,doubt_ratio=3,draw=0.1,bayes", 10),
    ({"players": 6}, "bayes,random,cautious,aggressive,bayes:doubt=0.05,bluff=0,cautious", 5),
    ({"players": 5, "max_claim_count": 3}, "aggressive,random,bayes,cautious,bayes", 10),
    ({"players": 3, "max_claim_count": 1}, "bayes,random,aggressive", 10),
    (
        {
            "players": 3,
            "hand_size": 3,
            "points_to_end": 12,
            "deck": {
                "animal_cards_per_value": 2,
                "wild_1": 2,
                "wild_2": 2,
                "count_one": 2,
                "all_equal": 2,
                "stop": 3,
            },
        },
        "bayes,aggressive,cautious",
        20,
    ),
    (
        {"players": 2, "hand_size": 3, "points_to_end": 10,
         "deck": {"count_one": 0, "all_equal": 0, "stop": 0}},
        "bayes:bluff=0.5,bayes",
        20,
    ),
    ({"players": 4, "hand_size": 10}, "bayes,random,cautious,aggressive", 6),
    ({"players": 4, "points_to_end": 1000}, "bayes,cautious*2,bayes:doubt=0.7,bluff=0.6", 3),
]


@dataclass
class Decision:
    """One recorded decision."""

    phase: int
    code: int
    params: np.ndarray
    hand: np.ndarray
    hand_size: int
    known: np.ndarray
    unseen: np.ndarray
    pile_size: int
    draw_size: int
    claim_count: int
    claim_kind: int
    cap: int
    rng_before: int
    rng_after: int
    answer: tuple[int, int]


def record() -> list[Decision]:
    """Play :data:`GAMES` on the reference engine and record every non-random decision."""
    from zooanalysis.games.bluff import engine
    from zooanalysis.games.bluff.policy_math import new_workspace
    from zooanalysis.games.bluff.rules import settings_from_table
    from zooanalysis.games.bluff.strategies import (
        RANDOM,
        choose_claim,
        choose_move,
        strategy_code,
        strategy_params,
    )

    decisions: list[Decision] = []

    class Recording(engine.BuiltinStrategy):
        def _call(self, phase, observation, rng):
            code = strategy_code(self.player)
            params = strategy_params(self.player)
            known, unseen = self._view(observation)
            hand = np.zeros(MAX_HAND, dtype=np.int8)
            hand[: len(observation.hand)] = observation.hand
            before = int(rng[0])
            if phase == MOVE:
                answer = choose_move(
                    code, params, hand, len(observation.hand), known, unseen,
                    observation.pile_size, observation.draw_pile_size, observation.claim_count,
                    observation.claim_kind, observation.claim_cap, rng, new_workspace(),
                    engine.public_table(observation),
                )
            else:
                answer = choose_claim(
                    code, params, known, unseen, observation.pile_size,
                    observation.claim_count, observation.claim_kind, observation.claim_cap,
                    rng, new_workspace(), engine.public_table(observation),
                )
            if code != RANDOM:
                decisions.append(
                    Decision(
                        phase, code, params, hand, len(observation.hand), known, unseen,
                        observation.pile_size, observation.draw_pile_size,
                        observation.claim_count, observation.claim_kind,
                        observation.claim_cap, before, int(rng[0]),
                        (int(answer[0]), int(answer[1])),
                    )
                )
            return int(answer[0]), int(answer[1])

        def choose_move(self, observation, rng):
            return self._call(MOVE, observation, rng)

        def choose_claim(self, observation, rng):
            return self._call(CLAIM, observation, rng)

    for number, (table, lineup, games) in enumerate(GAMES):
        settings = settings_from_table(table)
        players = [Recording(s.player) for s in engine.lineup(lineup)]
        for game in range(games):
            engine.play_game(settings, players, 13_000 + number, game)
    return decisions


def save(decisions: list[Decision], path: Path = CORPUS) -> None:
    """Write the corpus as one compressed .npz of column arrays."""
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = {
        "phase": np.array([d.phase for d in decisions], dtype=np.int8),
        "code": np.array([d.code for d in decisions], dtype=np.int8),
        "params": np.array([d.params for d in decisions], dtype=np.float64),
        "hand": np.array([d.hand for d in decisions], dtype=np.int8),
        "hand_size": np.array([d.hand_size for d in decisions], dtype=np.int16),
        "known": np.array([d.known for d in decisions], dtype=np.int16),
        "unseen": np.array([d.unseen for d in decisions], dtype=np.int16),
        "pile_size": np.array([d.pile_size for d in decisions], dtype=np.int16),
        "draw_size": np.array([d.draw_size for d in decisions], dtype=np.int16),
        "claim_count": np.array([d.claim_count for d in decisions], dtype=np.int16),
        "claim_kind": np.array([d.claim_kind for d in decisions], dtype=np.int8),
        "cap": np.array([d.cap for d in decisions], dtype=np.int16),
        "rng_before": np.array([d.rng_before for d in decisions], dtype=np.uint64),
        "rng_after": np.array([d.rng_after for d in decisions], dtype=np.uint64),
        "answer": np.array([d.answer for d in decisions], dtype=np.int16),
    }
    np.savez_compressed(path, **columns)


def load(path: Path = CORPUS) -> dict[str, np.ndarray]:
    """The corpus's column arrays (see :func:`save`)."""
    with np.load(path) as data:
        columns = {key: data[key] for key in data.files}
    # hands are stored compactly; the strategies take int64 hands (one compiled signature)
    columns["hand"] = columns["hand"].astype(np.int64)
    return columns


if __name__ == "__main__":
    recorded = record()
    save(recorded)
    print(f"{len(recorded)} decisions written to {CORPUS}")
