"""The progress bar of long runs: games done, games per second and time left (on stderr).

A resumed run's bar starts at the games of its checkpoint; an ``--until-ci`` run's bar
measures progress toward the games the interval target is estimated to need (updated after
every batch), not toward its ``--max-games`` cap.
"""

from __future__ import annotations

import time
from typing import Any


def _games_per_second_column() -> Any:
    """A rich column showing throughput since play started (compilation excluded); rich
    is imported here, only for a bar that is shown (``--no-progress`` never loads it)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class GamesPerSecondColumn(ProgressColumn):
        """Throughput since play started (compilation excluded)."""

        def render(self, task: Task) -> Text:
            """The games/s figure, or a dash before the first batch finishes."""
            started = task.fields.get("play_started")
            played = task.completed - task.fields.get("resumed_at", 0)
            if not started or played <= 0:
                return Text("- games/s", style="progress.data.speed")
            rate = played / max(1e-9, time.perf_counter() - started)
            return Text(f"{rate:,.0f} games/s", style="progress.data.speed")

    return GamesPerSecondColumn()


class GameProgress:
    """A context manager showing a run's progress; a no-op when disabled.

    ``total`` may be None (not known yet: see :meth:`retarget`).
    """

    def __init__(self, total: int | None, title: str, enabled: bool = True) -> None:
        self.enabled = enabled
        self.total = total
        self.title = title
        self._completed = 0  # kept here when disabled: no bar, no rich
        self._progress: Any = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(bar_width=20),
            TaskProgressColumn(),
            _games_per_second_column(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self._task = self._progress.add_task(
            title, total=total, play_started=None, resumed_at=0
        )

    def __enter__(self) -> GameProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc_info) -> None:
        if self._progress is not None:
            self._progress.stop()

    def status(self, text: str) -> None:
        """Show what is happening now next to the title (``playing`` starts the clock)."""
        if self._progress is None:
            return
        if text == "playing":
            self._progress.update(
                self._task, description=self.title, play_started=time.perf_counter()
            )
        else:
            self._progress.update(self._task, description=f"{self.title} ({text})")

    def advance(self, games: int) -> None:
        """Count ``games`` more games as finished."""
        if self._progress is None:
            self._completed += games
            return
        self._progress.advance(self._task, games)

    def start_at(self, games: int) -> None:
        """Start from ``games`` already finished (a resumed run's checkpoint); they do not
        count toward games per second."""
        if self._progress is None:
            self._completed = games
            return
        task = self._progress.tasks[0]
        self._progress.reset(  # not update(): the jump would count in the speed and eta
            self._task,
            total=task.total,
            completed=games,
            description=task.description,
            play_started=task.fields.get("play_started"),
            resumed_at=games,
        )

    def retarget(self, total: int) -> None:
        """Measure progress toward ``total`` games from now on (``--until-ci`` estimates)."""
        self.total = total
        if self._progress is not None:
            self._progress.update(self._task, total=total)

    @property
    def completed(self) -> float:
        """Games counted as finished so far (the checkpoint's included)."""
        if self._progress is None:
            return self._completed
        return self._progress.tasks[0].completed if self._progress.tasks else 0
