"""Skill or luck: how much more a shipped strategy wins than a random player, per game.

``zoosim skill RUN_DIR`` (or ``zoosim report --skill``) plays, for the run's game, rule
settings and number of players, one small rotated run per shipped strategy ``S``: the lineup
``S, random, ..., random``, every deal once in every seating, so seat and deal luck cancel.
Each is written as an ordinary run folder in ``RUN_DIR/skill/<S>`` and read back by the
report; a plain ``zoosim report`` never plays games, it only reads what is there.

For a game with a forward model, ``zoosim skill --search-games N`` also plays the rung above
the heuristics: the ``search`` player (at its defaults) against random players, on ``N``
deals in every seating (it plays on the reference engine, a few games per second: keep ``N``
small), stored in ``RUN_DIR/skill/search`` and read like the others.

The measure (the **skill gap**) is the rotated run's paired difference of win shares (ties
split), ``S`` minus a random player, with its 95% interval over the deals: 0 means the
strategy's play is worth nothing over random choices (the game is luck for it); the larger
it is, the more the game rewards playing well. The random players' own win share says how
often luck alone still wins.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from zooanalysis.errors import UserError

SKILL_FOLDER = "skill"
RANDOM = "random"
DEFAULT_DEALS = 2000
"""Deals per strategy (each played once per seating)."""
COLUMNS = (
    "strategy", "gap", "gap_ci_low", "gap_ci_high", "p_value", "share", "share_ci_low",
    "share_ci_high", "random_share", "random_ci_low", "random_ci_high", "deals", "players",
)  # fmt: skip


def skill_folder(run_dir: Path) -> Path:
    """Where a run's skill runs are kept: ``RUN_DIR/skill``."""
    return Path(run_dir) / SKILL_FOLDER


def skill_strategies(game) -> list[str]:
    """The game's shipped strategies other than random, in its own order."""
    return [name for name in game.strategies if name != RANDOM]


def skill_plan(run, deals: int) -> list[tuple[str, list[str]]]:
    """(strategy, lineup labels) of every skill run for ``run``; ``UserError`` when the run
    cannot have one (a cooperative run, or a game without a random strategy)."""
    from zooanalysis.games import get_game

    game = get_game(run.game)
    if run.cooperative:
        raise UserError(
            f"{run.path}: a cooperative run's players win or lose together, so no strategy "
            "can be measured against random seats; give a competitive run"
        )
    if RANDOM not in game.strategies:
        raise UserError(f"{game.title} has no random strategy to measure skill against")
    if deals < 1:
        raise UserError(f"--games: {deals} is not allowed: give at least 1 deal")
    players = len(run.lineup)
    return [(name, [name] + [RANDOM] * (players - 1)) for name in skill_strategies(game)]


def search_plan(run) -> list[tuple[str, list[str]]]:
    """The search rung's (strategy, lineup labels) for ``run``: ``search`` against random
    players where the game has a forward model that plays the run's rules; else empty."""
    from zooanalysis.errors import SettingsError
    from zooanalysis.games import SEARCH, get_game
    from zooanalysis.strategy_spec import parse_lineup

    game = get_game(run.game)
    if run.cooperative or SEARCH not in game.lineup_strategies():
        return []
    labels = [SEARCH] + [RANDOM] * (len(run.lineup) - 1)
    try:
        lineup = parse_lineup(",".join(labels), game.lineup_strategies())
        game.settings_for_lineup(game.settings_from_table(run.settings), lineup)
    except SettingsError:  # rules the forward model does not play
        return []
    return [(SEARCH, labels)]


def measure_skill(
    run_dir: Path,
    deals: int = DEFAULT_DEALS,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    search_deals: int = 0,
) -> pd.DataFrame:
    """Play (or reuse) every skill run of the run in ``run_dir`` (:func:`play_skill_run`),
    and the search rung on ``search_deals`` deals if more than 0 (:func:`search_plan`), and
    return the skill table (:func:`skill_table`)."""
    from zooanalysis.loading import load_run

    run = load_run(run_dir)
    for strategy, labels in skill_plan(run, deals):
        play_skill_run(run, strategy, labels, deals, jobs, on_progress)
    for strategy, labels in search_plan(run) if search_deals > 0 else []:
        play_skill_run(run, strategy, labels, search_deals, jobs, on_progress)
    return skill_table(run_dir)


def play_skill_run(
    run,
    strategy: str,
    labels: list[str],
    deals: int,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    continue_with: str | None = None,
) -> bool:
    """Play the skill run of ``strategy`` (lineup ``labels``) for ``run`` into
    ``RUN_DIR/skill/<strategy>``; False if one with the same deals, settings and lineup is
    already there (kept), ``UserError`` if one with others is (remove it to measure again).

    An interrupted skill run (Ctrl-C, SIGTERM, a killed process) keeps its checkpoint and is
    resumed by the next call for it; the interruption says to continue with
    ``continue_with`` (default ``zoosim skill RUN_DIR``), the command that does so."""
    from zooanalysis.games import get_game
    from zooanalysis.simulation import RunRequest, run_simulation
    from zooanalysis.storage import RunInterruptedError, has_kept_work
    from zooanalysis.strategy_spec import parse_lineup

    out = skill_folder(run.path) / strategy
    if (out / "manifest.json").is_file():
        _check_reusable(out, run, deals, labels)
        return False
    game = get_game(run.game)
    lineup = parse_lineup(",".join(labels), game.lineup_strategies())
    request = RunRequest(
        game=game,
        settings=game.settings_for_lineup(game.settings_from_table(run.settings), lineup),
        lineup=lineup,
        games=deals,
        seed=int(run.manifest.get("seed", 1)),
        jobs=jobs,
        rotate_seats=True,
        out=out,
        command=["zoosim", "skill", str(run.path)],
    )
    try:
        run_simulation(request, on_progress=on_progress, resume=has_kept_work(out))
    except RunInterruptedError:
        raise RunInterruptedError(
            out,
            continue_with=continue_with or f"zoosim skill {run.path}",
            written="the finished skill runs are kept, and this one's games so far",
        ) from None
    return True


def _check_reusable(out: Path, run, deals: int, labels: list[str]) -> None:
    """Refuse a skill run made for other deals, settings or lineup."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    same = (
        int(manifest.get("games", -1)) == deals
        and manifest.get("settings") == run.settings
        and manifest.get("lineup") == labels
    )
    if not same:
        raise UserError(
            f"{out}: holds a skill run with other deals, settings or players; remove it to "
            "measure again"
        )


def skill_table(run_dir: Path) -> pd.DataFrame | None:
    """The skill gap of every strategy measured for the run in ``run_dir``, or None when
    none was (see the module docstring for the columns' meaning)."""
    from zooanalysis.loading import load_run

    folder = skill_folder(run_dir)
    if not folder.is_dir():
        return None
    rows = []
    for out in sorted(p for p in folder.iterdir() if (p / "manifest.json").is_file()):
        result = load_run(out)
        pairs = result.table("rotation_pairs")
        strategy = result.lineup[0]
        pair = pairs[(pairs["strategy"] == strategy) & (pairs["versus"] == RANDOM)]
        sign = 1.0
        if pair.empty:  # stored the other way round
            pair = pairs[(pairs["strategy"] == RANDOM) & (pairs["versus"] == strategy)]
            sign = -1.0
        row = pair.iloc[0]
        low, high = sorted((sign * row.ci_low, sign * row.ci_high))
        shares = result.table("rotation_strategies").set_index("strategy")
        own, luck = shares.loc[strategy], shares.loc[RANDOM]
        rows.append(
            {
                "strategy": strategy, "gap": sign * row.difference, "gap_ci_low": low,
                "gap_ci_high": high, "p_value": row.p_value, "share": own.win_share,
                "share_ci_low": own.ci_low, "share_ci_high": own.ci_high,
                "random_share": luck.win_share, "random_ci_low": luck.ci_low,
                "random_ci_high": luck.ci_high, "deals": int(row.deals),
                "players": len(result.lineup),
            }
        )  # fmt: skip
    if not rows:
        return None
    return pd.DataFrame(rows, columns=list(COLUMNS))


def skill_line(row) -> str:
    """A row of :func:`skill_table` as ``zoosim skill`` prints it: the gap over random with
    its interval, then the strategy's and random's win shares with their intervals (95%
    over the deals) and the deals behind them."""

    def share(value: float, low: float, high: float) -> str:
        return f"{100 * value:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]"

    return (
        f"  {row.strategy:<14} {100 * row.gap:+.1f} [{100 * row.gap_ci_low:+.1f}, "
        f"{100 * row.gap_ci_high:+.1f}]  (its win share "
        f"{share(row.share, row.share_ci_low, row.share_ci_high)}, random's "
        f"{share(row.random_share, row.random_ci_low, row.random_ci_high)}, "
        f"n={row.deals:,} deals)"
    )
