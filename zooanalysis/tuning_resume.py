"""A tuning's checkpoint: the evaluations it played, kept so that an interrupted one goes on.

``zoosim tune --out NAME`` keeps, in its ``.NAME.partial`` folder, the ``request.json`` of
everything that fixes its results and a ``checkpoint.npz`` of every evaluation played so
far (a candidate's wins and games in one seat, in the order the search plays them), saved
every few seconds and whenever it stops (Ctrl-C, SIGTERM, a failure). The search is fixed
by its seed, so ``zoosim tune --resume NAME`` plays it again from the start, taking the kept
evaluations instead of playing them, and plays on from the first one missing: the same
tables as an uninterrupted tuning. At most the evaluation under way is played again.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

COMMAND = "zoosim tune"
EVALUATIONS = "evaluations"
"""The checkpoint's array of (wins, games) per evaluation, in the order played."""


def tune_record(request, batch_size: int) -> dict[str, Any]:
    """Everything that fixes a tuning's results (a ``tuning.TuneRequest``, and the batch
    size its evaluations play): a resumed one must have exactly this."""
    game = request.game
    return {
        "game": game.name,
        "settings": game.settings_dict(request.settings),
        "strategy": request.strategy.name,
        "against": [player.label for player in request.against],
        "games": request.games,
        "seed": request.seed,
        "min_games_per_seat": request.min_games_per_seat,
        "batch_size": batch_size,
    }


class EvaluationMemo:
    """A tuning's evaluations in the order played: those of the checkpoint are given back
    (:meth:`replay`) before new ones are played and added (:meth:`add`), which are saved
    every ``simulation.CHECKPOINT_SECONDS`` and by :meth:`save_if_new` when it stops."""

    def __init__(
        self,
        folder: Path,
        record: dict[str, Any],
        kept: list[tuple[int, int]],
        wall_seconds: float = 0.0,
    ) -> None:
        self.folder = folder
        self.record = record
        self.evaluations = list(kept)
        self.kept = len(kept)
        """Evaluations from the checkpoint, given back before any is played."""
        self.replayed = 0
        self.saved = len(kept)
        self.wall_seconds = wall_seconds
        self.started = self.last_save = time.perf_counter()

    def replay(self, games: int) -> tuple[int, int] | None:
        """The next kept evaluation, of ``games`` games (None once they are all given):
        one that played another number of games is refused (the checkpoint is not this
        search's)."""
        from zooanalysis.storage import CHECKPOINT, ResumeRefusedError

        if self.replayed >= self.kept:
            return None
        wins, played = self.evaluations[self.replayed]
        if played != games:
            raise ResumeRefusedError(
                f"--resume: {self.folder / CHECKPOINT} says evaluation {self.replayed + 1} "
                f"played {played:,} games where this search plays {games:,}; the checkpoint "
                "was changed or damaged"
            )
        self.replayed += 1
        return wins, played

    def add(self, wins: int, games: int) -> None:
        """A new evaluation was played; save if the last save is old enough."""
        from zooanalysis import simulation

        self.evaluations.append((wins, games))
        if time.perf_counter() - self.last_save >= simulation.CHECKPOINT_SECONDS:
            self.save()

    def save_if_new(self) -> None:
        """Save if evaluations were played since the last save (the tuning is stopping)."""
        if len(self.evaluations) != self.saved:
            self.save()

    def save(self) -> None:
        """Write every evaluation so far, with the request it belongs to, now."""
        from zooanalysis.simulation import checkpoint_owner
        from zooanalysis.storage import write_checkpoint

        now = time.perf_counter()
        table = np.array(self.evaluations, dtype=np.int64).reshape(-1, 2)
        state = {
            "next_batch": 0,
            "games": int(table[:, 1].sum()),
            EVALUATIONS: len(table),
            "wall_seconds": self.wall_seconds + (now - self.started),
            **checkpoint_owner(self.record),
        }
        write_checkpoint(self.folder, {EVALUATIONS: table}, state)
        self.last_save = now
        self.saved = len(table)


def start_memo(folder, request, batch_size: int, most: int) -> EvaluationMemo:
    """The evaluation memo of a tuning to the reserved output ``folder``: a new one records
    its request; a resumed one checks it, and its checkpoint (made for this request and
    code, at most ``most`` evaluations of whole numbers), in one line naming what is wrong."""
    from zooanalysis.simulation import check_checkpoint_owner, start_or_check_request
    from zooanalysis.storage import CHECKPOINT, ResumeRefusedError, load_checkpoint

    record = start_or_check_request(
        folder.working, tune_record(request, batch_size), folder.resumed, "tuning", folder.path
    )
    path = folder.working / CHECKPOINT
    if not path.is_file():
        return EvaluationMemo(folder.working, record, [])
    checkpoint = load_checkpoint(folder.working)
    state = checkpoint.state
    check_checkpoint_owner(path, state, record)
    table = checkpoint.totals.get(EVALUATIONS)
    count = state.get(EVALUATIONS)
    fits = (
        table is not None
        and set(checkpoint.totals) == {EVALUATIONS}
        and isinstance(count, int)
        and table.ndim == 2
        and table.shape == (count, 2)
        and count <= most
        and np.issubdtype(table.dtype, np.integer)
        and bool(np.all((table[:, 0] >= 0) & (table[:, 0] <= table[:, 1])))
    )
    if not fits:
        raise ResumeRefusedError(
            f"--resume: {path} holds no evaluations this search can have made (at most "
            f"{most:,} of wins and games); the checkpoint was changed or damaged"
        )
    kept = [(int(wins), int(games)) for wins, games in table]
    return EvaluationMemo(folder.working, record, kept, float(state.get("wall_seconds", 0.0)))
