"""Open a finished run, tournament or tuning folder as its results object, checked.

Here, above the game registry and the tournament code, so that ``results`` (which every game
package builds on) never has to import them.
"""

from __future__ import annotations

from pathlib import Path

from zooanalysis.errors import UserError
from zooanalysis.games import get_game
from zooanalysis.results import ResultFolder, Run
from zooanalysis.storage import MANIFEST, check_format_version, read_manifest


def load_run(path: str | Path) -> Run:
    """Open a run directory written by ``zoosim run`` as its game's results object (a
    tournament folder opens as a ``TournamentResult``, a ``tune --out`` folder as a
    ``TuneResult``, a finished sweep folder as a ``SweepResult``), checked: format version,
    every table against its sha256, and the manifest's game count against the tables.
    Anything wrong is one ``UserError`` line naming the file."""
    path = Path(path)
    if (path / "sweep.json").is_file() and not (path / MANIFEST).is_file():
        from zooanalysis.sweep_cells import SweepResult

        return SweepResult.load(path)  # type: ignore[return-value]
    manifest = read_manifest(path)
    check_format_version(manifest, path / MANIFEST)
    kind = manifest.get("kind")
    if kind == "tournament":
        from zooanalysis.tournament import TournamentResult  # scipy: only when needed

        result: ResultFolder = TournamentResult(manifest, path=path)
    elif kind == "field":
        from zooanalysis.field import FieldResult

        result = FieldResult(manifest, path=path)
    elif kind == "exploit":
        from zooanalysis.exploit import ExploitResult

        result = ExploitResult(manifest, path=path)
    elif kind == "psro":
        from zooanalysis.psro import PsroResult

        result = PsroResult(manifest, path=path)
    elif kind == "tune":
        from zooanalysis.tuning import TuneResult

        result = TuneResult(manifest, path=path)
    else:
        try:
            game = get_game(manifest["game"])
        except KeyError:
            raise UserError(f"{path}: the manifest names no game") from None
        except UserError as error:  # an unknown name: the manifest's, not a --game option
            raise UserError(f"{path / MANIFEST}: {str(error).removeprefix('--game: ')}") from None
        _check_settings(game, manifest, path)
        result = game.run_class()(manifest, path=path)
    result.verify()
    return result


def _check_settings(game, manifest: dict, path: Path) -> None:
    """A ``UserError`` unless every setting the manifest names is one of its game's (a
    manifest edited to name another game is refused here in one line, before the game's
    analysis reads tables that the run does not have). Only the names are checked: a value
    may name a file relative to where the run was made."""
    known = game.settings_dict(game.settings_from_table({}))
    unknown = sorted(set(manifest.get("settings") or {}) - set(known))
    if unknown:
        raise UserError(
            f"{path / MANIFEST}: settings {', '.join(unknown)} are not settings of "
            f"{game.name} (allowed are {', '.join(sorted(known))}); was the manifest edited? "
            "Write the run again with zoosim run"
        )
