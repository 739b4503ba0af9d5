"""Print one kernel's games/s on one core (CPU time), for side-by-side timing with farm-bench.

    python benchmarks/kernel_rate.py GAME LINEUP GAMES [--scenario FILE]

The batch is played once small (warm-up: numba's cache, first-call costs), then timed with
``time.process_time``; the rate goes to stdout as one number. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
import tomllib

from zooanalysis.games import get_game
from zooanalysis.strategy_spec import parse_lineup


def main() -> None:
    """Measure and print the rate."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("lineup")
    parser.add_argument("games", type=int)
    parser.add_argument("--scenario", help="take [settings] from this scenario file")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument(
        "--information",
        action="store_true",
        help="Zoology: also measure the questions' expected information "
        "(question_information = true; off by default)",
    )
    args = parser.parse_args()
    table = {}
    if args.scenario:
        with open(args.scenario, "rb") as handle:
            table = tomllib.load(handle).get("settings", {})
    if args.information:
        table = {**table, "question_information": True}
    game = get_game(args.game)
    players = parse_lineup(args.lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table(table), players)
    job = game.batch_job(settings, players, with_rows=False)
    job(1, 100)
    start = time.process_time()
    job(args.seed, args.games)
    print(f"{args.games / (time.process_time() - start):.0f}")


if __name__ == "__main__":
    main()
