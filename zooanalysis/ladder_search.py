"""The skill ladder's search rung: the ``search`` player against the ladder's top rung.

For a game with a forward model (its lineups may hold ``search``), ``zoosim field
--search-games N`` (or ``--reanalyse RUN --search-games N``) seats one search player at a
table whose other seats all play the ladder's top rung (``zooanalysis.ladder``: the field's
equilibrium mix, or the top rung's strategy when the ladder ends on a pure one). Each other
seat draws its strategy from that mix afresh for every deal, by the counter-based draw of
``zooanalysis.field_lineup`` (the same draw in every rotation). Every deal is played once
with the search player in each seat (the same deals in every rotation), through the game's
own batch job (the search players' public entry point: a lineup with a ``search`` seat).

The rung's figure is the search player's win share per seat-game (ties split 1/k), set
against the fair share: "no measurable difference" when its 95% interval covers it. The
seat-games of one deal are not independent (the same cards in every rotation), so the
interval is Wilson's at an **effective sample size** (Kish): n_eff = n / (1 + (m - 1) rho)
for n seat-games of m rotations a deal, with rho the intra-deal correlation of the
seat-games' win shares, estimated from the data (the one-way ANOVA estimator over deals),
and n_eff clamped to [deals, n]: a deal whose rotations all end alike counts once, deals
whose rotations look independent count m times. Where the data cannot estimate rho (one
deal, or every seat-game alike) n_eff is the number of deals, the cautious end. The table
shows n (seat-games), the deals, rho and n_eff. Stored in the field folder as the table
``ladder_search`` (and ``manifest["ladder_search"]``); the ladder reads it back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.errors import SettingsError, UserError
from zooanalysis.field_lineup import MIN_WEIGHT, uniforms
from zooanalysis.ladder import NO_DIFFERENCE, ladder_table, rung_verdict
from zooanalysis.ladder import SEARCH_TABLE as TABLE
from zooanalysis.outcome import share_unit, win_share_units
from zooanalysis.strategy_spec import PlayerSpec, parse_player

SEARCH = "search"
DEFAULT_DEALS = 20
"""Deals of the search rung ``zoosim field`` plays unless told otherwise (each in every
seating; the search player plays on the reference engine, a few games per second)."""
BATCH_SIZE = 10
"""Deals per batch: small, so that workers share a short rung."""
VERDICTS = ("gains", "loses", NO_DIFFERENCE)


@dataclass(frozen=True)
class Opponents:
    """What the search player's table plays: a ladder rung as a mix of population members."""

    rung: str
    """The ladder rung's name (``mix`` or a population label)."""
    players: tuple[PlayerSpec, ...]
    weights: tuple[float, ...]

    def record(self) -> dict[str, float]:
        """Label -> weight, as stored."""
        return {p.label: w for p, w in zip(self.players, self.weights, strict=True)}


def top_opponents(result, game) -> Opponents:
    """The ladder's top rung of the field ``result`` as the search player's opponents: the
    equilibrium mix (weights below ``MIN_WEIGHT`` dropped, the rest renormalised) or the
    pure strategy the ladder ends on."""
    ladder = ladder_table(result, seed=int(result.manifest["seed"]), with_search=False)
    rung = "mix" if ladder.empty else str(ladder["player"].iloc[-1])
    weights = dict(result.manifest["solution"]["weights"])
    if rung != "mix":
        weights = {rung: 1.0}
    kept = {label: w for label, w in weights.items() if w >= MIN_WEIGHT}
    total = sum(kept.values())
    return Opponents(
        rung,
        tuple(parse_player(label, game.strategies) for label in kept),
        tuple(w / total for w in kept.values()),
    )


def forward_model_refusal(game, settings, seats: int) -> str | None:
    """Why a field of ``game`` with these rules at ``seats`` cannot have a search rung
    whatever it plays, in words (None when it can): no forward model, or rules (a table
    size) it does not play."""
    if SEARCH not in game.lineup_strategies():
        return f"{game.title} has no forward model (no search player)"
    other = PlayerSpec(next(iter(game.strategies)))
    try:
        game.settings_for_lineup(settings, [PlayerSpec(SEARCH)] + [other] * (seats - 1))
    except SettingsError:
        return f"{game.title}'s forward model does not play this field's rules"
    return None


def search_refusal(game, settings, opponents: Opponents, seats: int) -> str | None:
    """Why the field's game cannot have a search rung, in words (None when it can): no
    forward model, rules it does not play, or a strategy of the opponents it cannot play."""
    refusal = forward_model_refusal(game, settings, seats)
    if refusal is not None:
        return refusal
    refused = sorted({p.strategy for p in opponents.players} & set(game.unmodelled_by_search))
    if refused:
        return (
            f"{game.title}'s forward model cannot play {', '.join(refused)}, which the "
            f"ladder's top rung ({opponents.rung}) plays"
        )
    return None


def check_search_deals(game, settings, seats: int, deals: int) -> None:
    """Refuse ``--search-games`` > 0 for a game that cannot have a search rung (one line,
    ``UserError``: exit 2), before anything is played."""
    from zooanalysis.games import search_games

    if deals < 0:
        raise UserError(f"--search-games: {deals} is not allowed: give 0 or more")
    refusal = forward_model_refusal(game, settings, seats) if deals > 0 else None
    if refusal is not None:
        raise UserError(
            f"--search-games: {refusal}, so its ladder has no search rung (the games with a "
            f"forward model: {', '.join(search_games())}); give 0 or leave it out"
        )


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class SearchRungBatch:
    """Plays a batch of deals with the search player in every seat in turn, the other seats
    drawn from the opponents' mix deal by deal (the same draws in every rotation).

    Counts: ``search/share_units`` (the search player's win shares over every rotation, in
    units of ``1 / share_unit(seats)``), ``search/square_units`` (the sum of each
    seat-game's units squared), ``search/deal_square_units`` (the sum over deals of each
    deal's units, all rotations, squared), ``search/seat_games``, ``search/deals`` and
    ``search/opponent_draws`` (seat-games each opponent strategy played). The sums of
    squares give the intra-deal correlation (:func:`effective_seat_games`)."""

    game: Any
    settings: Any
    search: PlayerSpec
    opponents: Opponents
    seats: int
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    def _job(self, lineup: tuple[int, ...], seat: int):
        key = (lineup, seat)
        if key not in self.cache:
            players = [self.opponents.players[i] for i in lineup]
            players[seat] = self.search
            self.cache[key] = self.game.batch_job(self.settings, players, True)
        return self.cache[key]

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> dict[str, Any]:
        """Deals ``first_game .. first_game + n_games - 1`` of the batch, each once per
        seat of the search player."""
        cumulative = np.cumsum(self.opponents.weights)
        cumulative[-1] = math.inf  # rounding never draws past the last strategy
        draws = uniforms(batch_seed, first_game, n_games, self.seats)
        choice = np.searchsorted(cumulative, draws, side="right")
        units = np.zeros(n_games, dtype=np.int64)
        squares = np.zeros(n_games, dtype=np.int64)
        drawn = np.zeros(len(self.opponents.players), dtype=np.int64)
        for seat in range(self.seats):
            others = np.delete(choice, seat, axis=1)
            drawn += np.bincount(others.ravel(), minlength=len(drawn))
            marked = choice.copy()
            marked[:, seat] = -1  # the search seat's own draw is not used
            changes = np.flatnonzero(np.any(marked[1:] != marked[:-1], axis=1)) + 1
            for start, end in zip(np.r_[0, changes], np.r_[changes, n_games], strict=True):
                lineup = tuple(int(i) for i in choice[start])
                part = self._job(lineup, seat)(
                    batch_seed, int(end - start), first_game=first_game + int(start)
                )
                won = win_share_units(self.game.row_wins(part))[:, seat].astype(np.int64)
                units[start:end] += won
                squares[start:end] += won * won
        return {
            "search/share_units": np.array([units.sum()], dtype=np.int64),
            "search/square_units": np.array([squares.sum()], dtype=np.int64),
            "search/deal_square_units": np.array([(units * units).sum()], dtype=np.int64),
            "search/seat_games": np.array([n_games * self.seats], dtype=np.int64),
            "search/deals": np.array([n_games], dtype=np.int64),
            "search/opponent_draws": drawn,
        }


def play_search_rung(
    result,
    deals: int,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    search: str = SEARCH,
) -> pd.DataFrame:
    """Play the search rung of the field ``result`` on ``deals`` deals (each in every
    seat) and return its one-row table (see :func:`rung_table`); ``UserError`` (one line)
    when the game cannot have one."""
    from zooanalysis.games import get_game
    from zooanalysis.runner import play, stream_batches

    manifest = result.manifest
    game = get_game(manifest["game"])
    seats = int(manifest["seats"])
    settings = game.settings_from_table(manifest["settings"])
    opponents = top_opponents(result, game)
    refusal = search_refusal(game, settings, opponents, seats)
    if refusal is not None:
        raise UserError(f"--search-games: {refusal}, so there is no search rung; give 0")
    if deals < 1:
        raise UserError(f"--search-games: {deals} is not allowed: give 1 or more (0: none)")
    player = parse_player(search, game.lineup_strategies(), "--search-player")
    lineup = [player] + [opponents.players[0]] * (seats - 1)
    job = SearchRungBatch(game, game.settings_for_lineup(settings, lineup), player,
                          opponents, seats)  # fmt: skip
    seed = int(manifest["seed"])
    totals = play(
        job,
        stream_batches(seed, BATCH_SIZE, deals),
        jobs,
        on_chunk=None if on_progress is None else (lambda chunk: on_progress(chunk.games * seats)),
    ).totals
    outcomes = RungOutcomes(
        int(totals["search/deals"][0]), int(totals["search/seat_games"][0]),
        int(totals["search/share_units"][0]), int(totals["search/square_units"][0]),
        int(totals["search/deal_square_units"][0]),
    )  # fmt: skip
    return rung_table(player.label, opponents, seats, seed, outcomes,
                      totals["search/opponent_draws"])  # fmt: skip


def search_rung(
    result,
    deals: int,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[pd.DataFrame | None, dict[str, Any]]:
    """The search rung of the field ``result`` and its manifest entry; where the game
    cannot have one, no table and an entry that says why (``{"none": reason}``)."""
    from zooanalysis.games import get_game

    game = get_game(result.manifest["game"])
    settings = game.settings_from_table(result.manifest["settings"])
    seats = int(result.manifest["seats"])
    refusal = search_refusal(game, settings, top_opponents(result, game), seats)
    if refusal is not None:
        return None, {"none": refusal}
    table = play_search_rung(result, deals, jobs, on_progress)
    return table, manifest_entry(table)


@dataclass(frozen=True)
class RungOutcomes:
    """What the search player's seat-games came to, in units of ``1 / share_unit(seats)``
    of a seat-game (the counts of :class:`SearchRungBatch`)."""

    deals: int
    seat_games: int
    share_units: int
    """The sum of every seat-game's units."""
    square_units: int
    """The sum of every seat-game's units squared."""
    deal_square_units: int
    """The sum over deals of (the deal's units over its rotations) squared."""


def effective_seat_games(outcomes: RungOutcomes) -> tuple[float, float]:
    """Kish's effective sample size of the search player's seat-games and the intra-deal
    correlation it comes from, ``(n_eff, rho)``.

    With k deals of m rotations (n = k m seat-games) the one-way ANOVA estimator over deals
    gives rho = (MSB - MSW) / (MSB + (m - 1) MSW), where MSB = m sum_i (mean_i - mean)^2 /
    (k - 1) and MSW = sum_ij (y_ij - mean_i)^2 / (k (m - 1)); n_eff = n / (1 + (m - 1) rho),
    clamped to [k, n] (a negative rho does not make n seat-games count for more than n).
    Where rho cannot be estimated (one deal, one rotation, or every seat-game alike: MSB +
    (m - 1) MSW = 0) it is nan and n_eff = k, the cautious end. Computed in exact integers
    up to the last division (rho does not depend on the unit)."""
    k, n = outcomes.deals, outcomes.seat_games
    if k < 1 or n < 1:
        return float(n), math.nan
    m = n // k
    if k < 2 or m < 2:
        return float(k), math.nan
    total, squares, deal_squares = (outcomes.share_units, outcomes.square_units,
                                    outcomes.deal_square_units)  # fmt: skip
    between = n * deal_squares - m * total * total  # SSB * m * n
    within = m * squares - deal_squares  # SSW * m
    msb = between * k * (m - 1)  # MSB and MSW, both times m * n * k * (k - 1) * (m - 1)
    msw = within * n * (k - 1)
    denominator = msb + (m - 1) * msw
    if denominator <= 0:
        return float(k), math.nan
    rho = (msb - msw) / denominator
    design_effect = 1 + (m - 1) * rho
    n_eff = n / design_effect if design_effect > 0 else float(n)
    return min(max(n_eff, float(k)), float(n)), rho


def rung_table(
    player: str,
    opponents: Opponents,
    seats: int,
    seed: int,
    outcomes: RungOutcomes,
    opponent_draws: np.ndarray,
) -> pd.DataFrame:
    """The stored row of a search rung: the search player's win share per seat-game
    (``share_units / share_unit(seats)`` over the seat-games) with its 95% Wilson interval
    at the effective sample size (:func:`effective_seat_games`), n (seat-games), the deals,
    the intra-deal correlation, n_eff, the fair share and the verdict (``gains``/``loses``
    only when the interval lies above/below the fair share, else ``no measurable
    difference``)."""
    from zooanalysis.stats import wilson_interval

    seat_games, deals, share_units = outcomes.seat_games, outcomes.deals, outcomes.share_units
    share = share_units / share_unit(seats) / seat_games
    n_eff, rho = effective_seat_games(outcomes)
    low, high = wilson_interval(share * n_eff, n_eff)
    fair = 1.0 / seats
    verdict = rung_verdict(share, low, high, fair)
    draws = {p.label: int(n) for p, n in zip(opponents.players, opponent_draws, strict=True)}
    return pd.DataFrame(
        [
            {
                "player": player,
                "versus": opponents.rung,
                "versus_mix": json.dumps(opponents.record()),
                "share": share,
                "ci_low": low,
                "ci_high": high,
                "n": seat_games,
                "deals": deals,
                "n_eff": n_eff,
                "intra_deal_correlation": rho,
                "share_units": share_units,
                "square_units": outcomes.square_units,
                "deal_square_units": outcomes.deal_square_units,
                "share_unit": share_unit(seats),
                "fair_share": fair,
                "verdict": verdict,
                "opponent_draws": json.dumps(draws),
                "seed": seed,
            }
        ]
    )


def manifest_entry(table: pd.DataFrame) -> dict[str, Any]:
    """What the manifest records of a stored search rung."""
    row = table.iloc[0]
    return {
        "player": str(row.player),
        "versus": str(row.versus),
        "versus_mix": json.loads(row.versus_mix),
        "deals": int(row.deals),
        "seat_games": int(row.n),
        "effective_seat_games": float(row.n_eff),
        "intra_deal_correlation": None if pd.isna(row.intra_deal_correlation)
        else float(row.intra_deal_correlation),
        "seed": int(row.seed),
        "interval": "95% Wilson at Kish's effective sample size of the search player's "
        "seat-games (the design effect of the rotations of a deal; n_eff in [deals, "
        "seat-games])",
    }  # fmt: skip


def no_rung_reason(result) -> str | None:
    """Why the field ``result`` has no stored search rung, in words (None when it has one)."""
    from zooanalysis.games import get_game

    if TABLE in result.table_names:
        return None
    game = get_game(result.manifest["game"])
    settings = game.settings_from_table(result.manifest["settings"])
    seats = int(result.manifest["seats"])
    refusal = search_refusal(game, settings, top_opponents(result, game), seats)
    if refusal is not None:
        return f"No search rung: {refusal}."
    return (
        "No search rung was played for this field (zoosim field --reanalyse FOLDER "
        "--search-games N plays it)."
    )


def ladder_lines(result) -> list[str]:
    """The field's skill ladder as text: each rung's win share against a table of the rung
    below with its 95% interval and n (for the search rung also its deals and effective
    n), its gain over the baseline and the verdict; then why there is no search rung, where
    there is none."""
    ladder = ladder_table(result, seed=int(result.manifest["seed"]))
    lines = [
        "Skill ladder (one player of each rung at a table of the rung below; win share per "
        "seat-game [95% CI], n seat-games):"
    ]
    for row in ladder.itertuples():
        searched = row.interval == "Wilson"
        what = "fair share" if searched else "baseline"
        lines.append(
            f"  {row.player:<22} vs {row.versus:<22} {_percent(row.share, row.ci_low, row.ci_high)}"
            f"  n={row.n:,}{_deals(row) if searched else ''}  {what} {100 * row.baseline:.1f}%: "
            f"{100 * row.gain:+.1f} points "
            f"[{100 * row.gain_ci_low:+.1f}, {100 * row.gain_ci_high:+.1f}] ({row.verdict}; "
            f"{row.interval})"
        )
    if ladder.empty:
        lines.append("  (the population has fewer than two rungs)")
    reason = no_rung_reason(result)
    if reason is not None:
        lines.append(reason)
    return lines


def _deals(row) -> str:
    """`` (20 deals, effective n 31.2)``: what the search rung's interval rests on (a rung
    stored before the effective n was kept: its interval is Wilson's over its seat-games)."""
    if pd.isna(row.n_eff):
        return f" ({int(row.deals):,} deals)" if not pd.isna(row.deals) else ""
    return f" ({int(row.deals):,} deals, effective n {row.n_eff:,.1f})"


def _percent(value: float, low: float, high: float) -> str:
    def one(number: float) -> str:
        return "?" if pd.isna(number) else f"{100 * number:.1f}%"

    return f"{one(value)} [{one(low)}, {one(high)}]"
