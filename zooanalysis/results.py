"""A finished run as DataFrames: ``zooanalysis.load_run(path)`` (see ``loading.py``) or the
return value of ``simulate``.

The shared :class:`Run` knows the manifest, the tables and win rates; each game subclasses
it for its own analyses (e.g. ``BluffRun.doubt_odds()``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from zooanalysis.errors import UserError
from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.stats import (  # noqa: F401  (histogram_mean, mean_with_interval: re-exported)
    format_rate,
    histogram_mean,
    mean_with_interval,
    rate_table,
    rate_with_interval,
)
from zooanalysis.storage import (
    MANIFEST,
    ROWS_CHECKSUMS,
    ROWS_FOLDER,
    StorageError,
    check_format_version,
    parse_table,
    read_table_file,
    read_verified,
)

REQUIRED_KEYS: tuple[str, ...] = ("tables",)
"""Manifest keys every result folder has (subclasses add their own)."""


class ResultFolder:
    """A manifest and its Parquet tables, in memory or read lazily from a folder.

    A folder is checked when opened with ``load_run`` (:meth:`verify`): its format
    version, every table against the sha256 in the manifest, and its counts against the
    manifest. A damaged folder is one ``UserError`` line naming the file.
    """

    required_keys: tuple[str, ...] = REQUIRED_KEYS

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
        """A result table by name (see ``manifest['tables']``), as a fresh DataFrame.

        ``KeyError`` for a name the folder does not list; a listed table that is missing,
        damaged or changed is one ``UserError`` line naming its file.
        """
        if name not in self._tables:
            if self.path is None or name not in self.table_names:
                raise KeyError(f"no table {name!r}; this has {', '.join(self.table_names)}")
            file = f"{name}.parquet"
            self._tables[name] = read_table_file(self.path / file, self.checksum(file))
        return self._tables[name].copy()

    @property
    def table_names(self) -> list[str]:
        """Names of the result tables."""
        return list(self.manifest.get("tables", self._tables))

    def checksum(self, file: str) -> str | None:
        """The manifest's sha256 of ``file`` (a path inside the folder); None for folders
        written before checksums were recorded."""
        checksums = self.manifest.get("checksums")
        if checksums is None:
            return None
        if not isinstance(checksums, dict) or file not in checksums:
            raise StorageError(f"{self._manifest_path()}: no checksum for {file}")
        return checksums[file]

    def verify(self) -> None:
        """Check the folder: format version, manifest keys, every table (read now, against
        its sha256) and the counts; one ``UserError`` line for anything wrong."""
        where = self._manifest_path()
        check_format_version(self.manifest, where)
        missing = [key for key in self.required_keys if key not in self.manifest]
        if missing:
            raise UserError(f"{where}: the manifest lacks {', '.join(missing)}")
        if not isinstance(self.manifest["tables"], list):
            raise UserError(f"{where}: the manifest's tables are not a list")
        for name in self.table_names:
            self.table(name)
        try:
            self.check_counts()
        except (KeyError, TypeError, ValueError) as error:
            raise UserError(
                f"{where}: the tables do not have the columns this kind of folder has "
                f"({' '.join(str(error).split())})"
            ) from None

    def check_counts(self) -> None:
        """Cross-check the manifest's counts against the tables (subclasses)."""

    def _manifest_path(self) -> Path:
        return (self.path or Path(".")) / MANIFEST

    def _count_mismatch(self, file: str, counted: int, what: str = "games") -> UserError:
        return UserError(
            f"{self.path / file}: counts {counted:,} {what} where the manifest says "
            f"{int(self.manifest['games']):,}; the folder was changed or mixed with another run"
        )


class Run(ResultFolder):
    """A finished run: its manifest and result tables, with shared analyses."""

    required_keys = (*REQUIRED_KEYS, "game", "title", "games", "lineup", "seed", "settings")

    # --- facts from the manifest -----------------------------------------------------------

    @property
    def game(self) -> str:
        """The game's name, e.g. ``bluff``."""
        return self.manifest["game"]

    @property
    def games(self) -> int:
        """Number of games played."""
        return int(self.manifest["games"])

    def one_seat_total(self, column: str) -> int:
        """A count that every seat's row of the ``seats`` table repeats (the run's rounds,
        hands), summed over the seatings of a rotated run (a row per seat and seating)."""
        seats = self.table("seats")
        return int(seats.loc[seats["seat"] == seats["seat"].iloc[0], column].sum())

    @property
    def games_played(self) -> int:
        """Games actually played: with seat rotation, every deal once per seating."""
        return self.games * (len(self.lineup) if self.rotated else 1)

    @property
    def lineup(self) -> list[str]:
        """Strategy label of each seat, the first seat (seat 1) first."""
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
    def teams(self) -> list[tuple[int, ...]] | None:
        """The seats (from 1) of each team, when the game is played in teams of two or more
        whose partners win together (Hodge Podge Dodgeball with 4 players, Chai Tea Jazz
        with 4 or 6): read from the ``team`` column of the ``seats`` table. None for a game
        of single players: then every tied winner is a shared win."""
        if "seats" not in self.table_names:
            return None
        seats = self.table("seats")
        if "team" not in seats:
            return None
        by_seat = seats.groupby("seat")["team"].first()
        teams = [
            tuple(int(seat) + 1 for seat in members.index)
            for _, members in by_seat.groupby(by_seat, sort=True)
        ]
        return teams if max(len(team) for team in teams) > 1 else None

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

    def game_rows(
        self, columns: Sequence[str] | None = None, filters: Any = None
    ) -> pd.DataFrame:
        """One row per game (only for runs made with ``--rows``), in game order.

        ``columns`` reads only those columns and ``filters`` only the matching rows
        (pyarrow's filter form, e.g. ``[("winner", "==", 0)]``), so a large run need not fit
        in memory; :meth:`iter_game_rows` gives the rows batch by batch.
        """
        frames = list(self.iter_game_rows(columns, filters))
        if not frames:
            return pd.DataFrame(columns=list(columns or []))
        return pd.concat(frames, ignore_index=True)

    def iter_game_rows(
        self, columns: Sequence[str] | None = None, filters: Any = None
    ) -> Iterator[pd.DataFrame]:
        """The per-game rows one batch file at a time, in game order, each checked against
        its sha256 (see :meth:`game_rows` for ``columns`` and ``filters``). Reading them all
        without a filter also checks that they hold every game of the manifest."""
        folder = self.path / ROWS_FOLDER if self.path else None
        if folder is None or not folder.is_dir():
            raise KeyError("this run kept no per-game rows; run again with --rows")
        sums = self._rows_checksums(folder)
        files = sorted(folder.glob("batch-*.parquet"))
        if sums is not None:
            names = {file.name for file in files}
            missing = sorted(set(sums) - names)
            if missing:
                raise StorageError(f"{folder / missing[0]}: missing (the run wrote it)")
            extra = sorted(names - set(sums))
            if extra:
                raise StorageError(f"{folder / extra[0]}: not written by this run")
        options = {"columns": None if columns is None else list(columns), "filters": filters}
        options = {key: value for key, value in options.items() if value is not None}
        counted = 0
        for file in files:
            data = read_verified(file, sums[file.name] if sums is not None else None)
            frame = parse_table(data, file, **options)
            counted += len(frame)
            yield frame
        if filters is None and counted != self.games_played:
            raise UserError(
                f"{folder}: holds {counted:,} rows where the manifest says "
                f"{self.games_played:,}; the folder was changed or mixed with another run"
            )

    def _rows_checksums(self, folder: Path) -> dict[str, str] | None:
        """The sha256 of every batch file (checked against the manifest), or None for
        runs written before checksums were recorded."""
        expected = self.checksum(ROWS_CHECKSUMS)
        if expected is None:
            return None
        data = read_verified(folder.parent / ROWS_CHECKSUMS, expected)
        return json.loads(data.decode("utf-8"))

    def check_counts(self) -> None:
        """The manifest's game count must be every seat's games in the ``seats`` table and
        the games of the ``end_reasons`` table (per rotation of a rotated run)."""
        games = int(self.manifest["games"])
        for name, summed in (("seats", False), ("end_reasons", True)):
            if name not in self.table_names:
                continue
            table = self.table(name)
            if "games" not in table:
                continue
            keys = ["rotation"] if "rotation" in table else []
            if summed:
                counts = table.groupby(keys)["games"].sum() if keys else [table["games"].sum()]
            else:
                counts = table["games"]
            for counted in counts:
                if int(counted) != games:
                    raise self._count_mismatch(f"{name}.parquet", int(counted))

    # --- shared analyses ---------------------------------------------------------------------

    def win_rates(self, by: str = "seat") -> pd.DataFrame:
        """Win share and games won, by ``seat`` (numbered from 1: seat 1 starts) or by
        ``strategy``, each with its 95% Wilson interval.

        ``share`` (with ``ci_low``, ``ci_high`` and ``n``, the trials) is the headline: a
        game won by k tied winners counts 1/k for each of them (Ludii's balance
        convention), so the shares of all seats add up to the share of games that had a
        winner and each compares with ``fair_share`` = 1/players. In a rotated run a seat's
        interval is the wider of Wilson's and the one from per-deal means (the seatings of a
        deal share its cards, so they are not independent games). ``won_or_shared`` (with
        its own interval) counts every tied winner as winning; ``sole_rate`` only games won
        alone. By strategy, every seat a strategy plays counts as one trial per game.
        """
        seats = self.table("seats")
        if "share_sum" not in seats:
            where = f"{self.path}: " if self.path else ""
            raise UserError(
                f"{where}this run was written before win shares were counted (no share_sum "
                "in its seats table); run it again with this version of zoosim"
            )
        sums = {"wins": ("wins", "sum"), "sole_wins": ("sole_wins", "sum")}
        sums["share_sum"] = ("share_sum", "sum")
        if by == "seat":
            grouped = seats.groupby("seat").agg(
                strategy=("strategy", one_or_rotated), games=("games", "sum"), **sums
            )
            grouped.index = grouped.index + 1
            trials = grouped["games"]
        elif by == "strategy":
            grouped = seats.groupby("strategy", sort=False).agg(
                seats=("seat", "count"), games=("games", "first"), **sums
            )
            trials = grouped["games"] * grouped["seats"]
        else:
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        result = rate_table(grouped["share_sum"], trials).rename(columns={"rate": "share"})
        if by == "seat" and self.rotated and "rotation_seats" in self.table_names:
            _widen_to_deals(result, self.table("rotation_seats"))
        either = rate_table(grouped["wins"], trials)
        result["won_or_shared"] = either["rate"]
        result["won_or_shared_ci_low"] = either["ci_low"]
        result["won_or_shared_ci_high"] = either["ci_high"]
        result["sole_rate"] = grouped["sole_wins"] / trials
        result["fair_share"] = 1.0 / len(self.lineup)
        if by == "seat":
            result.insert(0, "strategy", grouped["strategy"])
        return result.join(grouped.drop(columns="strategy", errors="ignore"))

    def metrics(self) -> dict[str, float]:
        """Every summary figure as one flat dict (rates with ``_ci_low``/``_ci_high``/``_n``),
        e.g. one row of a sweep. ``seat<k>_win_*`` and ``<strategy>_win_*`` are win shares
        (ties split); ``*_won_or_shared_*`` count every tied winner. Seats from 1."""
        values: dict[str, float] = {"games": self.games}
        for name, by in (("seat{}", "seat"), ("{}", "strategy")):
            for key, row in self.win_rates(by).iterrows():
                label = name.format(key)
                add_rate(values, f"{label}_win", row, "share")
                add_rate(values, f"{label}_won_or_shared", row, "won_or_shared")
        values.update(self.balance_values())
        return values

    def balance_values(self) -> dict[str, float]:
        """The generic balance metrics of every game (``zooanalysis.balance``: seat balance,
        first-player advantage, shared wins, length, decisiveness, comebacks, drama, lead
        changes, winning margin) as ``balance.<metric>_value``, ``_ci_low``, ``_ci_high`` and
        ``_n``, win shares left out (they have their own keys). None for a cooperative run,
        whose seats do not compete."""
        if self.cooperative:
            return {}
        from zooanalysis.balance import balance_metrics

        values: dict[str, float] = {}
        for row in balance_metrics(self).itertuples():
            if row.metric.endswith("_win"):
                continue
            for part, value in (
                ("value", row.value), ("ci_low", row.ci_low), ("ci_high", row.ci_high),
                ("n", row.n),
            ):  # fmt: skip
                values[f"balance.{row.metric}_{part}"] = value
        return values

    def summary(self) -> str:
        """The run's headline figures as text (each rate with its 95% CI and n)."""
        fair = 1 / len(self.lineup)
        lines = [self._header()]
        lines += [
            "",
            f"Win share by seat (fair share {fair:.1%}; a game won by k tied players gives "
            "each 1/k), and games won or shared:",
        ]
        lines += [
            f"  seat {seat} {row.strategy:<22} {_share_and_either(row)}"
            for seat, row in self.win_rates("seat").iterrows()
        ]
        lines += ["", "Win share by strategy (per seat played), and games won or shared:"]
        lines += [
            f"  {name:<29} {_share_and_either(row)}"
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
            # a strategy in every seat takes exactly the fair share of every deal over its
            # seatings: no rotated variance, so no ratio to print
            reduction = (
                f"x{row.variance_reduction:.2f}"
                if np.isfinite(row.variance_reduction)
                else "not defined: it holds every seat, so every deal gives it the fair share"
            )
            lines.append(
                f"  {name:<29} {100 * row.win_share:.2f}% [{100 * row.ci_low:.2f}%, "
                f"{100 * row.ci_high:.2f}%] (deals={int(row.deals):,}), variance reduction "
                f"{reduction}"
            )
        pairs = self.table("rotation_pairs")
        if len(pairs):
            lines += [
                "",
                "Paired comparisons on the same deals (difference in win share, "
                "percentage points):",
            ]
            for row in pairs.itertuples():
                # a pair whose difference never varies (e.g. partners who always share a
                # team's result) has a zero paired interval: no ratio to print
                reduction = (
                    f"x{(row.unrotated_ci_half_width / row.paired_ci_half_width) ** 2:.1f}"
                    if row.paired_ci_half_width > 0 else "not defined: no paired variance"
                )
                lines.append(
                    f"  {row.strategy} - {row.versus}: {100 * row.difference:+.2f} "
                    f"[{100 * row.ci_low:+.2f}, {100 * row.ci_high:+.2f}], p={row.p_value:.2g}; "
                    "unrotated play of as many games: half-width "
                    f"{100 * row.unrotated_ci_half_width:.2f} "
                    f"(variance reduction {reduction})"
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
            # a half-width target, not an interval: said in words, never as +- (Wilson
            # intervals are asymmetric; the rates above print [low, high])
            stopped = (
                f"\nStopped after {self.games:,} {'deals' if self.rotated else 'games'}: every "
                f"win rate's 95% CI is at most {target:.2g} percentage points wide on each side"
                if until["reached"]
                else f"\nStopped at --max-games {self.games:,} before every win rate's 95% CI "
                f"was at most {target:.2g} percentage points wide on each side"
            )
        count = (
            f"{self.games:,} deals x {len(self.lineup)} seatings = {self.games_played:,} games"
            if self.rotated
            else f"{self.games:,} games"
        )
        return (
            f"{manifest['title']}: {count}, {len(self.lineup)} players "
            f"({', '.join(self.lineup)}), seed {manifest['seed']}{timing}{stopped}"
            f"{field_origin(manifest)}"
        )


def field_origin(manifest: Mapping[str, Any]) -> str:
    """For a run whose seats drew their strategies from a field's mix: a line saying which
    field (folder, population, mix), else nothing."""
    field = manifest.get("field")
    if not field:
        return ""
    mix = ", ".join(
        f"{label} {100 * weight:.1f}%"
        for label, weight in zip(field["population"], field["weights"], strict=True)
    )
    population = field.get("field_population") or field["population"]
    return (
        f"\nEvery seat drew its strategy, game by game, from the equilibrium mix of the field "
        f"{field['path']} ({mix}; population {', '.join(population)}; field made "
        f"{field.get('field_created', '?')})"
    )


def add_rate(values: dict[str, float], name: str, row, column: str = "rate") -> None:
    """Put a rate row (``rate``, ``ci_low``, ``ci_high``, ``n``) into a flat metrics dict as
    ``<name>_rate`` ...; another ``column`` (e.g. ``share``) takes its interval from
    ``ci_low``/``ci_high`` if ``column`` is ``share`` or ``rate``, else from
    ``<column>_ci_low``/``<column>_ci_high``."""
    bounds = ("ci_low", "ci_high") if column in ("rate", "share") else (
        f"{column}_ci_low",
        f"{column}_ci_high",
    )
    values[f"{name}_rate"] = row[column]
    values[f"{name}_ci_low"] = row[bounds[0]]
    values[f"{name}_ci_high"] = row[bounds[1]]
    values[f"{name}_n"] = row["n"]


def _widen_to_deals(shares: pd.DataFrame, per_deal: pd.DataFrame) -> None:
    """Widen each seat's share interval (index: seat from 1) to cover the interval from
    per-deal means of a rotated run (``rotation_seats``), in place."""
    if per_deal.empty:
        return
    by_seat = per_deal.set_index(per_deal["seat"] + 1)
    shares["ci_low"] = np.fmin(shares["ci_low"], by_seat["ci_low"].reindex(shares.index))
    shares["ci_high"] = np.fmax(shares["ci_high"], by_seat["ci_high"].reindex(shares.index))


def _share_and_either(row) -> str:
    """A seat's or strategy's win share and games won or shared, as one summary column."""
    either = rate_with_interval(
        row.won_or_shared, row.won_or_shared_ci_low, row.won_or_shared_ci_high
    )
    share = format_rate(row.share, row.ci_low, row.ci_high, int(row.n))
    return f"{share}; won or shared {either}"


def one_or_rotated(labels: pd.Series) -> str:
    """A seat's strategy, or "(rotated)" when the seat hosted several in turn."""
    distinct = labels.unique()
    return distinct[0] if len(distinct) == 1 else "(rotated)"


def histogram_summary(histogram: pd.Series) -> dict[str, float]:
    """Mean with 95% CI, quartiles, 10th/90th percentiles (the lowest value reaching each
    cumulative share), maximum and n of a histogram given as counts indexed by value.

    A value may appear more than once (e.g. once per rotation of a rotated run's table):
    its counts are added up, and the values sorted, before the percentiles are read."""
    histogram = histogram.groupby(level=0).sum().sort_index()
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
