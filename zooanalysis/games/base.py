"""What a game must provide so the shared runner, storage, results and CLI can use it.

A game package implements :class:`Game` once and registers it in ``zooanalysis.games``; the
shared code never names a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from zooanalysis.errors import SettingsError, UserError
from zooanalysis.lazy_modules import pandas as pd
from zooanalysis.strategy_spec import PlayerSpec, StrategyInfo

if TYPE_CHECKING:
    from zooanalysis.report.model import Section

BatchResult = dict[str, np.ndarray]
"""A batch's output: count arrays (summed across batches) and, optionally, per-game rows
(keys starting with ``row_``), concatenated in batch order."""


class BatchJob(Protocol):
    """What :meth:`Game.batch_job` returns: ``job(batch_seed, n_games, first_game=0)`` plays
    games ``first_game .. first_game + n_games - 1`` of the batch seeded ``batch_seed``.

    Game ``g`` of a batch always plays on the random stream
    ``rng.seed_game(state, batch_seed, g)``, whichever call plays it. So a batch can be played
    in chunks: ``job(s, k)`` and ``job(s, n - k, first_game=k)`` give counts that add up to
    those of ``job(s, n)`` exactly and rows that, one chunk after the other, are its rows.
    Row ``i`` of a result is game ``first_game + i``. The runner plays every batch so, in
    chunks sized to the measured speed (``runner.ChunkSizer``), which is why every count
    array must be an integer array: an integer sum does not depend on where the chunks are
    cut (keep a float quantity in fixed point, as Zoology's ``question_information``; the
    runner refuses float counts). A job must be picklable (process and Dask backends),
    hashed by identity (``@dataclass(frozen=True, eq=False)``), and return fresh arrays on
    every call.
    """

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Play the games; count arrays plus (if the job keeps rows) ``row_`` arrays."""


class Game(ABC):
    """A simulated game: settings, strategies, a batch player and the tables it produces."""

    name: str
    """Short name used on the command line, e.g. ``bluff``."""
    title: str
    """Human name, e.g. ``Bluff in Zoo``."""
    strategies: Mapping[str, StrategyInfo]
    default_lineup: str
    """Lineup used when the user gives none, e.g. ``bayes,bayes,cautious,random``."""
    min_players: int = 2
    max_players: int = 6
    """The player counts the game allows (checked by :meth:`settings_for_lineup`)."""
    player_counts: tuple[int, ...] = ()
    """The allowed player counts when not every count from ``min_players`` to
    ``max_players`` is (e.g. ``(2, 3, 4, 6)``); empty: all of them."""
    histogram_tops: Mapping[str, int] = {}
    """Histogram tables whose last bin holds "that many or more": table name -> that value
    (e.g. ``{"moves": 1023}``). Reports mention a top bin only where the data reach it."""

    unmodelled_by_search: frozenset[str] = frozenset()
    """Strategies the game's forward model cannot play exactly (the search would model them
    wrong): a lineup with a ``search`` seat refuses them by name."""

    def lineup_strategies(self) -> Mapping[str, StrategyInfo]:
        """The strategies a lineup may name: :attr:`strategies`, plus ``search`` for a game
        with a forward model (whose :meth:`batch_job` then plays it). Fields, tuning and
        ladders draw from :attr:`strategies` only."""
        return self.strategies

    @abstractmethod
    def settings_from_table(self, table: Mapping[str, Any]) -> Any:
        """Validated settings from a scenario file's ``[settings]`` table (may be empty)."""

    def settings_for_lineup(self, settings: Any, lineup: list[PlayerSpec]) -> Any:
        """The settings with ``players`` set to the lineup's length, checked against
        ``min_players``/``max_players`` and :meth:`validate_settings` (settings are a frozen
        dataclass with a ``players`` field; a game with other needs overrides this)."""
        count = len(lineup)
        self.check_player_count(count)
        adjusted = replace(settings, players=count)
        self.validate_settings(adjusted)
        return adjusted

    def allowed_player_counts(self) -> tuple[int, ...]:
        """Every player count the game allows, smallest first."""
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def players_allowed(self) -> str:
        """The allowed player counts in words: ``4``, ``2 to 6`` or ``2, 3, 4 or 6``."""
        counts = self.allowed_player_counts()
        if len(counts) == 1:
            return str(counts[0])
        if counts == tuple(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]}"
        return ", ".join(str(count) for count in counts[:-1]) + f" or {counts[-1]}"

    def check_player_count(self, count: int) -> None:
        """Raise ``SettingsError`` naming ``players`` unless the game allows ``count`` players
        (check a --seats number with it before building a table of that many seats)."""
        if count not in self.allowed_player_counts():
            raise SettingsError(
                "players", f"{count} players: {self.title} is for {self.players_allowed()} players"
            )

    def validate_settings(self, settings: Any) -> None:
        """Reject settings no game can be played with, once the player count is set (raise
        ``SettingsError``); the default accepts them."""
        return None

    @abstractmethod
    def settings_dict(self, settings: Any) -> dict[str, Any]:
        """Settings as a plain nested dict, as written to the manifest."""

    @abstractmethod
    def batch_job(self, settings: Any, lineup: list[PlayerSpec], with_rows: bool) -> BatchJob:
        """A picklable :class:`BatchJob` that plays batches with the fast engine (the kernel),
        with per-game rows if ``with_rows``."""

    @abstractmethod
    def tables(
        self, totals: BatchResult, settings: Any, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """The run's result tables from the summed counts.

        Must include ``seats`` with columns ``seat, strategy, games, wins, sole_wins``; the
        shared results code reads win rates from it.
        """

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) from summed counts, for stopping rules such as --until-ci.

        The default reads the ``seats`` table; a game may override it with a cheaper path.
        """
        seats = self.tables(totals, None, lineup)["seats"]
        return int(seats["games"].iloc[0]), seats["wins"].to_numpy()

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """(games x seats) standings from a batch's per-game rows: higher finished ahead.

        Needed for paired comparisons and tournaments.
        """
        raise NotImplementedError(f"{self.name} cannot read standings from per-game rows yet")

    def row_wins(self, result: BatchResult) -> np.ndarray:
        """(games x seats) flags of who won each game: the best standing (ties all win)."""
        standing = self.row_standings(result)
        return standing == standing.max(axis=1, keepdims=True)

    def run_class(self) -> type:
        """The results class for this game's runs (a subclass of ``results.Run``)."""
        from zooanalysis.results import Run  # lazily: results pulls in scipy.stats

        return Run

    def report_sections(self, run: Any) -> list[Section]:
        """This game's own parts of ``zoosim report``, after the generic balance report.

        ``run`` is a finished run of this game (an instance of :meth:`run_class`). Return
        :class:`zooanalysis.report.model.Section` objects holding findings (plain sentences
        with the number, its 95% interval and n), matplotlib figures (drawn with
        ``zooanalysis.report.style``) and DataFrame tables; the shared code lists the
        findings at the top, embeds the figures and writes PNG, SVG and CSV files. The
        default is no sections: the game still gets the generic report. See the
        ``zooanalysis.report`` package docstring for an example.
        """
        return []

    def odds_table(self, settings: Any, sizes: list[int]) -> pd.DataFrame:
        """An exact odds table for ``zoosim odds``; games without one refuse politely."""
        raise UserError(f"--game: {self.name} has no odds table")

    def deck_text(self, settings: Any, seed: int | None, as_toml: bool) -> str:
        """The deck a game would be played with, as text, for ``zoosim deck`` (``seed`` picks
        a generated print; ``as_toml`` asks for an editable deck file); games without a
        generated deck refuse politely."""
        raise UserError(f"--game: {self.name} has no deck generator")
