"""``zoosim psro --prune``: keep the population small by playing a restricted game.

A field of n strategies at s seats plays C(n + s - 1, s) compositions, so every strategy a
PSRO loop adds makes the next field larger (4 seats: 8 strategies 330 compositions, 10
strategies 715). With pruning, a strategy leaves the population after an iteration when
the field says both that the equilibrium does not play it (its weight's 95% interval lies
at most :data:`~zooanalysis.field_analysis.IN_SUPPORT`, and so does its weight) and that it
gains nothing against the mix (its gain's interval lies at or below 0). The next fields
are then the meta-game restricted to the strategies that are left.

A restricted game's equilibrium is an equilibrium of the whole population only if no
dropped strategy gains against it, so every later iteration plays each dropped strategy
against that iteration's mix again, on fresh deals (the exploit search's final comparison):
one whose gain's interval lies above 0 comes back into the population. The loop's last
iteration re-checks them against the final mix, so a strategy the final report calls
dropped gains nothing measurable against that mix.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.field_analysis import IN_SUPPORT
from zooanalysis.strategy_spec import PlayerSpec, parse_player


def prunable(field, keep: set[str]) -> list[str]:
    """The labels of the field's strategies that are out of its equilibrium (weight and
    the weight's 95% interval at most ``IN_SUPPORT``) and gain nothing against its mix
    (the gain's interval at or below 0), in population order; ``keep`` is never dropped."""
    table = field.equilibrium()
    dropped = []
    for label in field.manifest["population"]:
        row = table.loc[label]
        out_of_mix = row.weight <= IN_SUPPORT and row.weight_ci_high <= IN_SUPPORT
        if label not in keep and out_of_mix and row.gain_ci_high <= 0:
            dropped.append(label)
    return dropped


def recheck(
    field, game, settings, candidates: list[PlayerSpec], games: int, bootstrap: int, jobs: int
) -> pd.DataFrame:
    """Each candidate played against the field's equilibrium mix on fresh deals (the seed
    of the exploit search's final comparison): its win share per seat-game, the mix's value
    against itself and the gain, each with its 95% bootstrap interval over batches of deals.

    ``games`` is the exploit budget: each opponent seating plays a quarter of it spread over
    the candidates and seatings, at least ten batches of deals."""
    from zooanalysis.exploit import (
        FINAL_BATCHES,
        FINAL_SEED_OFFSET,
        SEARCH_BATCH,
        ExploitRequest,
        opponents_of,
        play_candidate,
        seatings_count,
        target_value_draws,
        weighted_share,
        weighted_share_draws,
    )
    labels = list(field.manifest["population"])
    weights = field.manifest["solution"]["weights"]
    mix = np.array([weights[label] for label in labels])
    seats = int(field.manifest["seats"])
    unit = int(field.manifest["share_unit"])
    seed = int(field.manifest["seed"])
    opponents = opponents_of(mix, seats)
    seatings = seatings_count(opponents)
    games_each = max(
        FINAL_BATCHES * SEARCH_BATCH, games // 4 // max(1, len(candidates) * seatings)
    )
    population = [parse_player(label, game.strategies) for label in labels]
    request = ExploitRequest(
        field=field, game=game, settings=settings, population=population,
        families=[], targets=[], games=games, jobs=jobs, bootstrap=bootstrap,
    )  # fmt: skip
    rng = np.random.default_rng([seed, 11])
    value, value_draws = target_value_draws(field, mix, bootstrap, rng)
    rows = []
    for candidate in candidates:
        shares, seat_games = play_candidate(
            request, candidate, opponents, games_each, seed + FINAL_SEED_OFFSET
        )
        share = weighted_share(shares, seat_games, opponents.chances, unit)
        draws = weighted_share_draws(shares, seat_games, opponents.chances, unit, bootstrap, rng)
        low, high = np.percentile(draws, [2.5, 97.5])
        gain_low, gain_high = np.percentile(draws - value_draws, [2.5, 97.5])
        rows.append(
            {
                "strategy": candidate.label,
                "share": share,
                "ci_low": float(low),
                "ci_high": float(high),
                "mix_value": value,
                "gain": share - value,
                "gain_ci_low": float(gain_low),
                "gain_ci_high": float(gain_high),
                "games": int(seat_games.sum()),
            }
        )
    return pd.DataFrame(rows)


def recheck_stored(path: Path, compute) -> pd.DataFrame:
    """The re-check kept at ``path`` (a rerun of the loop reuses it), else ``compute()``
    written there durably."""
    from zooanalysis.storage import read_table_file, write_table

    if path.is_file():
        return read_table_file(path, None)
    table = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_table(path, table)
    return table
