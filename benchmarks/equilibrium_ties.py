"""How often does the compiled equilibrium chooser pick differently from scipy's (HiGHS)?

    python benchmarks/equilibrium_ties.py [GAMES] [--scenario FILE]

Plays GAMES reference-engine games (default 300) of the scenario (default: the everything
scenario, ``equilibrium`` in every seat) and, at every selection-game decision, rebuilds the
game the strategy solves (the opponent's estimated die, the payoff of each pair of shown
types), solves it with scipy's ``linprog`` as the strategy did before, and draws with the
same uniform number. It prints how many decisions there were, how many games had several
optimal mixes (a tie the two solvers may break differently), and how many choices differ.
The compiled solver's answer is the one played. Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import tomllib

import numpy as np

from zooanalysis.games.lucky_lions import engine
from zooanalysis.games.lucky_lions.flat import N_TYPES, card_rows
from zooanalysis.games.lucky_lions.matrix_game import (
    draw_option,
    selection_game,
    solve_zero_sum,
    solve_zero_sum_compiled,
)
from zooanalysis.games.lucky_lions.rules import settings_from_table
from zooanalysis.games.lucky_lions.strategies import EQUILIBRIUM, estimate_die, pair_gain
from zooanalysis.rng import uniform

COUNTS = {"decisions": 0, "several optimal mixes": 0, "different choice": 0}


def _record(view, card, battlers, k, rng) -> None:
    """Rebuild the decision's selection game and compare both solvers' draws."""
    if len(battlers) != 2 or view.seat not in battlers:
        return
    die, sizes, _, seen, unseen, _ = view.arrays()
    me = view.seat
    q = battlers[0] if battlers[1] == me else battlers[1]
    their_die = np.zeros(N_TYPES, dtype=np.int64)
    estimate_die(seen[q], unseen, sizes[q], their_die)
    row = card_rows([card])[0]
    payoff = np.array(
        [
            [
                pair_gain(
                    row, a, b, view.wild_animals, me == view.active, sizes[me] > 1, sizes[q] > 1
                )
                for b in range(N_TYPES)
            ]
            for a in range(N_TYPES)
        ],
        dtype=float,
    )
    their_k = min(k, int(sizes[q]))
    draw = uniform(rng.copy())
    mine, matrix, _ = selection_game(payoff, die, their_die, k, their_k)
    old_mix, _ = solve_zero_sum(matrix)
    new_mix, _ = solve_zero_sum_compiled(np.rint(matrix * k * their_k))
    COUNTS["decisions"] += 1
    if not np.allclose(old_mix, new_mix, atol=1e-6):
        COUNTS["several optimal mixes"] += 1
    old = min(int(np.searchsorted(np.cumsum(old_mix), draw, side="right")), len(mine) - 1)
    if old != draw_option(new_mix, len(mine), draw):
        COUNTS["different choice"] += 1


class Watched(engine.BuiltinStrategy):
    """The built-in strategy, comparing solvers before each equilibrium selection."""

    def choose_subset(self, view, card, battlers, k, rng):
        """Compare, then decide as the built-in strategy does."""
        if self.code == EQUILIBRIUM:
            _record(view, card, battlers, k, rng)
        return super().choose_subset(view, card, battlers, k, rng)


def main() -> None:
    """Play and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", type=int, nargs="?", default=300)
    parser.add_argument("--scenario", default="simulations/lucky-lions-everything.toml")
    parser.add_argument("--lineup", default="equilibrium,equilibrium,equilibrium,equilibrium")
    args = parser.parse_args()
    with open(args.scenario, "rb") as handle:
        settings = settings_from_table(tomllib.load(handle).get("settings", {}))
    players = [Watched(s.player) for s in engine.lineup(args.lineup)]
    for game in range(args.games):
        engine.play_game(settings, players, 1, game)
    print(", ".join(f"{name}: {count:,}" for name, count in COUNTS.items()))


if __name__ == "__main__":
    main()
