"""Check that a kernel change which moved the random stream left the statistics alone.

    python benchmarks/stream_check.py play GAME LINEUP GAMES OUT.npz [--scenario FILE]
    python benchmarks/stream_check.py compare OLD.npz NEW.npz

``play`` plays GAMES games in batches of 1e6 (batch seeds 1000, 1001, ...) on whatever
``zooanalysis`` the interpreter imports (run it with another checkout's interpreter for the
old side) and saves the summed count arrays, after every batch. ``compare`` tests every
count cell of the two files as a per-game mean (two-sample z-test) with Poisson variance
(conservative for cells counted at most once a game, such as wins and histogram bins; sums
with a ``_squares`` partner use their own variance). Cells with fewer than
20 counts on both sides are skipped. It prints the cells with the smallest p-values and the
Holm-adjusted minimum over all tested cells: a stream change that changed nothing should
give no adjusted p below 0.01. Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import math
import tomllib

import numpy as np


def play(game_name: str, lineup: str, games: int, out: str, scenario: str | None) -> None:
    """Play and save the summed counts (saved again after every batch)."""
    from zooanalysis.games import get_game
    from zooanalysis.strategy_spec import parse_lineup

    table = {}
    if scenario:
        with open(scenario, "rb") as handle:
            table = tomllib.load(handle).get("settings", {})
    game = get_game(game_name)
    players = parse_lineup(lineup, game.strategies)
    settings = game.settings_for_lineup(game.settings_from_table(table), players)
    job = game.batch_job(settings, players, with_rows=False)
    total: dict[str, np.ndarray] | None = None
    step = 1_000_000
    for start in range(0, games, step):
        counts = {
            k: np.asarray(v).copy()
            for k, v in job(1000 + start // step, min(step, games - start)).items()
        }
        total = counts if total is None else {k: total[k] + counts[k] for k in total}
        np.savez(out, **total)
        print(f"{start + min(step, games - start):,} games", flush=True)


def _p_value(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2.0))


def compare(old_path: str, new_path: str, show: int = 12) -> None:
    """Print the per-cell tests and the Holm-adjusted verdict."""
    old = np.load(old_path)
    new = np.load(new_path)
    n_old = float(old["games"].sum())
    n_new = float(new["games"].sum())
    tests: list[tuple[float, str, float, float]] = []
    for key in old.files:
        if key == "games" or key.endswith("_squares"):
            continue
        a = old[key].astype(np.float64).ravel()
        b = new[key].astype(np.float64).ravel()
        squares = key.replace("_sum", "_squares")
        has_squares = key.endswith("_sum") and squares in old.files
        for cell in range(a.size):
            if a[cell] < 20 and b[cell] < 20:
                continue
            mean_a, mean_b = a[cell] / n_old, b[cell] / n_new
            if has_squares:
                var_a = old[squares].ravel()[cell] / n_old - mean_a**2
                var_b = new[squares].ravel()[cell] / n_new - mean_b**2
            else:  # Poisson (variance = mean): exact enough for rare counts, conservative
                var_a, var_b = mean_a, mean_b  # for one-per-game cells (p(1-p) < p)
            se = math.sqrt(max(var_a / n_old + var_b / n_new, 1e-300))
            z = (mean_b - mean_a) / se
            tests.append(
                (_p_value(z), f"{key}[{np.unravel_index(cell, old[key].shape)}]", mean_a, mean_b)
            )
    tests.sort()
    m = len(tests)
    adjusted = min(1.0, min(p * (m - i) for i, (p, *_rest) in enumerate(tests))) if tests else 1.0
    print(f"old: {n_old:,.0f} games ({old_path}); new: {n_new:,.0f} games ({new_path})")
    print(f"{m} cells tested; smallest p-values (raw):")
    for p, name, mean_a, mean_b in tests[:show]:
        print(f"  {name}: old {mean_a:.6g} per game, new {mean_b:.6g}, p = {p:.3g}")
    verdict = "no statistic differs" if adjusted >= 0.01 else "DIFFERENT"
    print(f"Holm-adjusted smallest p = {adjusted:.3g}: {verdict} (threshold 0.01)")


def main() -> None:
    """The two commands."""
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("game")
    p.add_argument("lineup")
    p.add_argument("games", type=lambda text: int(float(text)))
    p.add_argument("out")
    p.add_argument("--scenario")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    args = parser.parse_args()
    if args.command == "play":
        play(args.game, args.lineup, args.games, args.out, args.scenario)
    else:
        compare(args.old, args.new)


if __name__ == "__main__":
    main()
