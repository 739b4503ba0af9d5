"""Open a finished run or tournament folder as its results object.

Here, above the game registry and the tournament code, so that ``results`` (which every game
package builds on) never has to import them.
"""

from __future__ import annotations

from pathlib import Path

from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.results import Run
from zooanalysis.storage import read_manifest


def load_run(path: str | Path) -> Run:
    """Open a run directory written by ``zoosim run`` as its game's results object (a
    tournament folder opens as a ``TournamentResult``)."""
    path = Path(path)
    manifest = read_manifest(path)
    if manifest.get("kind") == "tournament":
        from zooanalysis.tournament import TournamentResult  # scipy: only when needed

        return TournamentResult(manifest, path=path)
    try:
        game = get_game(manifest["game"])
    except KeyError:
        raise UserError(f"{path}: the manifest names no game") from None
    return game.run_class()(manifest, path=path)
