"""A finished run as DataFrames: ``zooanalysis.load_run(path)`` (see ``loading.py``) or the
return value of ``simulate``.

The shared :class:`Run` knows the manifest, the tables and win rates; each game subclasses
it for its own analyses (e.g. ``BluffRun.doubt_odds()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.stats import format_rate, moments, rate_table
from zooanalysis.storage import ROWS_FOLDER


class ResultFolder:
    """A manifest and its Parquet tables, in memory or read lazily from a folder."""

    def __init__(
        self,
        manifest: Mapping[str, Any],
        tables: Mapping[str, pd.DataFrame] | None = None,
        path: Path | None = None,
    ) -> None:
        self.manifest = dict(manifest)
        self.path = Path(path) if path is not None else None
        self._tables: dict[str, pd.DataFrame] = dict(tables or {})

    def table(self, name: str) -> pd.DataFrame:
        """A result table by name (see ``manifest['tables']``), as a fresh DataFrame."""
        if name not in self._tables:
            if self.path is None or not (self.path / f"{name}.parquet").is_file():
                raise KeyError(f"no table {name!r}; this has {', '.join(self.table_names)}")
            self._tables[name] = pd.read_parquet(self.path / f"{name}.parquet")
        return self._tables[name].copy()

    @property
    def table_names(self) -> list[str]:
        """Names of the result tables."""
        return list(self.manifest.get("tables", self._tables))


class Run(ResultFolder):
    """A finished run: its manifest and result tables, with shared analyses."""

    # --- facts from the manifest -----------------------------------------------------------

    @property
    def game(self) -> str:
        """The game's name, e.g. ``bluff``."""
        return self.manifest["game"]

    @property
    def games(self) -> int:
        """Number of games played."""
        return int(self.manifest["games"])

    @property
    def games_played(self) -> int:
        """Games actually played: with seat rotation, every deal once per seating."""
        return self.games * (len(self.lineup) if self.rotated else 1)

    @property
    def lineup(self) -> list[str]:
        """Strategy label of each seat, seat 0 first."""
        return list(self.manifest["lineup"])

    @property
    def settings(self) -> dict[str, Any]:
        """The rule settings the run used."""
        return dict(self.manifest["settings"])

    def __repr__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return (
            f"<{type(self).__name__} {self.game}: {self.games:,} games, "
            f"lineup {','.join(self.lineup)}, seed {self.manifest['seed']}{where}>"
        )

    # --- tables ------------------------------------------------------------------------------

    @property
    def cooperative(self) -> bool:
        """Whether the players win or lose together (seat balance does not apply); games
        with a cooperative mode override this."""
        return False

    @property
    def winners_per_game(self) -> int:
        """How many players win a game together when nobody ties: 1, or the team size in a
        team game (Hodge Podge Dodgeball's partners). A game with more winners than this
        is a shared (tied) win."""
        return 1

    @property
    def fair_share(self) -> float:
        """A seat's fair share of wins: ``winners_per_game / players``."""
        return self.winners_per_game / len(self.lineup)

    @property
    def rotated(self) -> bool:
        """Whether every deal was played once per rotation of the lineup (--rotate-seats)."""
        return bool(self.manifest.get("rotate_seats"))

    def seat_strategies(self, table: pd.DataFrame, seat_column: str) -> np.ndarray:
        """The strategy label that sat in ``table[seat_column]`` (per rotation if rotated)."""
        seats = table[seat_column].to_numpy()
        if not self.rotated:
            return np.array(self.lineup, dtype=object)[seats]
        lineups = np.array(self.manifest["rotations"], dtype=object)
        return lineups[table["rotation"].to_numpy(), seats]

    def game_rows(self) -> pd.DataFrame:
        """One row per game (only for runs made with ``--rows``)."""
        folder = self.path / ROWS_FOLDER if self.path else None
        if folder is None or not folder.is_dir():
            raise KeyError("this run kept no per-game rows; run again with --rows")
        return pd.read_parquet(folder)

    # --- shared analyses ---------------------------------------------------------------------

    def win_rates(self, by: str = "seat") -> pd.DataFrame:
        """Win rate with 95% Wilson interval, by ``seat`` or by ``strategy``.

        A game's tied winners all win (so rates can add up to more than 1); ``sole_rate``
        counts only games won alone. By strategy, every seat a strategy plays counts as
        one trial per game.
        """
        seats = self.table("seats")
        if by == "seat":
            grouped = seats.groupby("seat").agg(
                strategy=("strategy", _one_or_rotated),
                games=("games", "sum"),
                wins=("wins", "sum"),
                sole_wins=("sole_wins", "sum"),
            )
            trials = grouped["games"]
        elif by == "strategy":
            grouped = seats.groupby("strategy", sort=False).agg(
                seats=("seat", "count"),
                games=("games", "first"),
                wins=("wins", "sum"),
                sole_wins=("sole_wins", "sum"),
            )
            trials = grouped["games"] * grouped["seats"]
        else:
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        rates = rate_table(grouped["wins"], trials)
        result = grouped.join(rates)
        result["fair_share"] = self.fair_share
        result["sole_rate"] = grouped["sole_wins"] / trials
        return result

    def metrics(self) -> dict[str, float]:
        """Every summary figure as one flat dict (rates with ``_ci_low``/``_ci_high``/``_n``),
        e.g. one row of a sweep. Seats are numbered from 1 as in the summary."""
        values: dict[str, float] = {"games": self.games}
        for seat, row in self.win_rates("seat").iterrows():
            add_rate(values, f"seat{seat + 1}_win", row)
        for name, row in self.win_rates("strategy").iterrows():
            add_rate(values, f"{name}_win", row)
        return values

    def summary(self) -> str:
        """The run's headline figures as text (each rate with its 95% CI and n)."""
        lines = [self._header()]
        lines += [
            "",
            f"Win rate by seat (tied winners all win; fair share {self.fair_share:.1%}):",
        ]
        lines += [
            f"  seat {seat + 1} {row.strategy:<22} "
            f"{format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}"
            for seat, row in self.win_rates("seat").iterrows()
        ]
        lines += ["", "Win rate by strategy:"]
        lines += [
            f"  {name:<29} {format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}"
            for name, row in self.win_rates("strategy").iterrows()
        ]
        if self.rotated:
            lines += ["", *self._rotation_lines()]
        return "\n".join(lines)

    def _rotation_lines(self) -> list[str]:
        strategies = self.table("rotation_strategies").set_index("strategy")
        lines = [
            f"Seat rotation: every deal played in all {len(self.lineup)} seatings. Win share "
            "over the seatings (95% CI); variance measured against unrotated play of as many "
            "games (above 1: rotation helped):"
        ]
        for name, row in strategies.iterrows():
            lines.append(
                f"  {name:<29} {100 * row.win_share:.2f}% [{100 * row.ci_low:.2f}%, "
                f"{100 * row.ci_high:.2f}%] (deals={int(row.deals):,}), variance reduction "
                f"x{row.variance_reduction:.2f}"
            )
        pairs = self.table("rotation_pairs")
        if len(pairs):
            lines += [
                "",
                "Paired comparisons on the same deals (difference in win share, "
                "percentage points):",
            ]
            for row in pairs.itertuples():
                ratio = (row.unrotated_ci_half_width / row.paired_ci_half_width) ** 2
                lines.append(
                    f"  {row.strategy} - {row.versus}: {100 * row.difference:+.2f} "
                    f"[{100 * row.ci_low:+.2f}, {100 * row.ci_high:+.2f}], p={row.p_value:.2g}; "
                    f"unrotated play of as many games: +-{100 * row.unrotated_ci_half_width:.2f} "
                    f"(variance reduction x{ratio:.1f})"
                )
        return lines

    def _header(self) -> str:
        manifest = self.manifest
        wall = manifest.get("wall_seconds")
        timing = f" in {wall:.1f} s ({self.games_played / wall:,.0f} games/s)" if wall else ""
        until = manifest.get("until_ci")
        stopped = ""
        if until:
            target = 100 * until["target_half_width"]
            stopped = (
                f"\nStopped after {self.games:,} {'deals' if self.rotated else 'games'}: every "
                f"win rate known to within "
                f"+-{target:.2g} percentage points"
                if until["reached"]
                else f"\nStopped at --max-games {self.games:,} before every win rate was "
                f"within +-{target:.2g} percentage points"
            )
        count = (
            f"{self.games:,} deals x {len(self.lineup)} seatings = {self.games_played:,} games"
            if self.rotated
            else f"{self.games:,} games"
        )
        return (
            f"{manifest['title']}: {count}, {len(self.lineup)} players "
            f"({', '.join(self.lineup)}), seed {manifest['seed']}{timing}{stopped}"
        )


def add_rate(values: dict[str, float], name: str, row) -> None:
    """Put a rate row (rate, ci_low, ci_high, n) into a flat metrics dict."""
    values[f"{name}_rate"] = row["rate"]
    values[f"{name}_ci_low"] = row["ci_low"]
    values[f"{name}_ci_high"] = row["ci_high"]
    values[f"{name}_n"] = row["n"]


def _one_or_rotated(labels: pd.Series) -> str:
    """A seat's strategy, or "(rotated)" when the seat hosted several in turn."""
    distinct = labels.unique()
    return distinct[0] if len(distinct) == 1 else "(rotated)"


def histogram_mean(histogram: pd.Series) -> tuple[float, float, float]:
    """Mean and 95% interval of a histogram given as counts indexed by value."""
    values = histogram.index.to_numpy(dtype=float)
    counts = histogram.to_numpy(dtype=float)
    total = float((values * counts).sum())
    squares = float((values * values * counts).sum())
    return mean_with_interval(total, squares, int(counts.sum()))


def histogram_summary(histogram: pd.Series) -> dict[str, float]:
    """Mean with 95% CI, quartiles, 10th/90th percentiles (the lowest value reaching each
    cumulative share), maximum and n of a histogram given as counts indexed by value."""
    values, counts = histogram.index.to_numpy(), histogram.to_numpy()
    mean, low, high = histogram_mean(histogram)
    cumulative = np.cumsum(counts) / counts.sum()
    quantile = {q: int(values[np.searchsorted(cumulative, q)]) for q in (0.1, 0.25, 0.5, 0.75, 0.9)}
    return {
        "mean": mean,
        "ci_low": low,
        "ci_high": high,
        "p10": quantile[0.1],
        "p25": quantile[0.25],
        "median": quantile[0.5],
        "p75": quantile[0.75],
        "p90": quantile[0.9],
        "max": int(values.max()),
        "n": int(counts.sum()),
    }


def length_lines(length: pd.DataFrame) -> list[str]:
    """A summary's "Game length" block from a table of :func:`histogram_summary` rows."""
    lines = ["", "Game length:"]
    for name, row in length.iterrows():
        lines.append(
            f"  {name:<7} mean {row['mean']:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}], "
            f"median {int(row['median'])}, 10%-90% {int(row.p10)}-{int(row.p90)}, "
            f"max {int(row['max'])}"
        )
    return lines


def mean_with_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval from a sum and a sum of squares."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean, variance = moments(total, squares, n)
    half = 1.959963984540054 * np.sqrt(variance / n)
    return mean, mean - half, mean + half
