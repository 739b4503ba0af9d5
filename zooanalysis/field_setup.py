"""A field's population from the command line: shipped strategies, tuned ones, files.

``--population bayes,cautious,bayes:doubt=0`` names players in lineup syntax; every
``--from PATH`` adds more: a text file with one player per line (``#`` starts a comment),
or a ``zoosim tune --out`` folder, whose best response joins the population.
"""

from __future__ import annotations

from pathlib import Path

from zooanalysis.errors import SettingsError, UserError
from zooanalysis.field import FieldRequest
from zooanalysis.games.base import Game
from zooanalysis.strategy_spec import PlayerSpec, parse_lineup, parse_player


def population_from(
    game: Game, text: str | None, sources: list[Path]
) -> tuple[list[PlayerSpec], list[str]]:
    """The population (each label once) and where its members came from; ``UserError``
    (exit 2) for unknown strategies, unreadable sources, repeats or fewer than two."""
    players: list[PlayerSpec] = []
    notes: list[str] = []
    if text is not None or not sources:
        chosen = text if text is not None else ",".join(game.strategies)
        players += parse_lineup(chosen, game.strategies, "--population")
    for source in sources:
        found = _players_in(game, Path(source))
        notes.append(f"{source}: {', '.join(p.label for p in found)}")
        players += found
    labels = [p.label for p in players]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise UserError(
            f"--population: {', '.join(repeated)} is given twice; each strategy once, please "
            "(a field plays every mix of them, repeats included)"
        )
    if len(players) < 2:
        raise UserError(
            f"--population: a field needs at least two strategies, e.g. {','.join(game.strategies)}"
        )
    return players, notes


def _players_in(game: Game, path: Path) -> list[PlayerSpec]:
    """The players a ``--from`` source adds."""
    if path.is_dir():
        return [_tuned_player(game, path)]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(
            f"--from: {path} does not exist; give a text file of players (one per line) "
            "or a zoosim tune --out folder"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"--from: cannot read {path} ({error})") from None
    players = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.split("#", 1)[0].strip()
        if entry:
            try:
                players.append(parse_player(entry, game.strategies, "--from"))
            except UserError as error:
                raise UserError(f"{path}, line {number}: {error}") from None
    if not players:
        raise UserError(f"--from: {path} names no players; write one player per line")
    return players


def _tuned_player(game: Game, folder: Path) -> PlayerSpec:
    """The best response a tuning folder found."""
    from zooanalysis.loading import load_run
    from zooanalysis.tuning import TuneResult

    result = load_run(folder)
    if not isinstance(result, TuneResult):
        raise UserError(
            f"--from: {folder} is not a zoosim tune --out folder; give a tuning folder or a "
            "text file of players"
        )
    if result.manifest.get("game") != game.name:
        raise UserError(f"--from: {folder} tuned {result.manifest.get('game')}, not {game.name}")
    return parse_player(str(result.manifest["best"]), game.strategies, "--from")


def check_seats(game: Game, settings, population: list[PlayerSpec], seats: int):
    """The settings for a table of ``seats``; ``UserError`` naming ``--seats`` otherwise."""
    try:
        game.check_player_count(seats)  # before a list of that many seats (-1, 10**23)
        return game.settings_for_lineup(settings, population[:1] * seats)
    except SettingsError as error:
        raise UserError(f"--seats: {error}") from None


def resume_field_request(out: Path, jobs: int, backend: str = "threads") -> FieldRequest:
    """Rebuild the request of the interrupted field at ``out`` from its ``request.json``
    (checked against its sha256)."""
    from zooanalysis.games import get_game
    from zooanalysis.simulation import stored_request
    from zooanalysis.storage import ResumeRefusedError

    path, record = stored_request(out, "field")
    try:
        game = get_game(record["game"])
        population = parse_lineup(",".join(record["population"]), game.strategies)
        settings = check_seats(
            game, game.settings_from_table(record["settings"]), population, record["seats"]
        )
        return FieldRequest(
            game=game,
            settings=settings,
            population=population,
            seats=record["seats"],
            games=record["games"],
            seed=record["seed"],
            jobs=jobs,
            backend=backend,
            bootstrap=record["bootstrap"],
            alpha=record["alpha"],
            alpha_population=record["alpha_population"],
            iterations=record["iterations"],
            out=Path(out),
        )
    except (KeyError, TypeError) as error:
        raise ResumeRefusedError(f"--resume: {path} lacks {error} or holds it wrong") from None
