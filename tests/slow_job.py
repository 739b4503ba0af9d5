"""A test-only batch job as slow as an uninterruptible kernel, for the Ctrl-C tests.

Importable by worker processes too (put ``tests/`` on ``PYTHONPATH``), so the process
backend can unpickle it.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass
from typing import Any

UNINTERRUPTIBLE = {signal.SIGINT, signal.SIGTERM}


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class SleepyJob:
    """Plays the real games, then holds its thread ``seconds_per_game`` per game with
    SIGINT and SIGTERM blocked, as a compiled kernel holds it: a signal can only act once
    the call returns. Results are the real job's, so a run resumed without it must give
    exactly the results of an uninterrupted run."""

    job: Any
    seconds_per_game: float

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> dict:
        """The real job's result, after ``seconds_per_game * n_games`` of blocked signals."""
        result = self.job(batch_seed, n_games, first_game=first_game)
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, UNINTERRUPTIBLE)
        try:
            time.sleep(self.seconds_per_game * n_games)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        return result


def slow_down(seconds_per_game: float) -> None:
    """Make every run of this process play its batches with :class:`SleepyJob`."""
    import zooanalysis.simulation as simulation

    real = simulation._batch_job
    simulation._batch_job = lambda request: SleepyJob(real(request), seconds_per_game)


SCRIPT = (
    "import sys, slow_job; slow_job.slow_down(float(sys.argv[1])); "
    "from zooanalysis import cli; sys.exit(cli.main(sys.argv[2:]))"
)
"""``python -c SCRIPT SECONDS_PER_GAME run ...``: ``zoosim`` with slowed-down batches."""


def slow_down_tournaments(seconds_per_game: float) -> None:
    """Make every tournament of this process play its lineups' batches with
    :class:`SleepyJob`."""
    import zooanalysis.tournament as tournament

    real = tournament.pairwise_job
    tournament.pairwise_job = lambda *args: SleepyJob(real(*args), seconds_per_game)


TUNE_GRID_SCRIPT = (
    "import sys, slow_job, zooanalysis.tuning as tuning; tuning.GRID_POINTS = 2; "
    "slow_job.slow_down(float(sys.argv[1])); "
    "from zooanalysis import cli; sys.exit(cli.main(sys.argv[2:]))"
)
"""``python -c TUNE_GRID_SCRIPT SECONDS_PER_GAME tune ...``: ``zoosim`` with slowed-down
batches and a tuning grid of two points per parameter (a small search)."""

TOURNAMENT_SCRIPT = (
    "import sys, slow_job; slow_job.slow_down_tournaments(float(sys.argv[1])); "
    "from zooanalysis import cli; sys.exit(cli.main(sys.argv[2:]))"
)
"""``python -c TOURNAMENT_SCRIPT SECONDS_PER_GAME tournament ...``: ``zoosim`` with
slowed-down tournament batches."""
