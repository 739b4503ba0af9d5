"""``zoosim psro``: iterated best response over a growing population (PSRO-style).

Each iteration plays the population's field (``zoosim field``), solves it, and searches a
best response to its equilibrium mix (``zoosim exploit --targets mix``). If the best
response measurably gains against the mix, it joins the population and the next iteration
starts; the loop stops when the gain's 95% interval lies below ``--threshold``
(converged), when the gain is not measurable (its interval reaches 0: the data cannot
tell it from no gain), when the best response is already in the population, or when the
iterations run out. Every iteration is kept: ``iteration-K/field`` and
``iteration-K/exploit`` are ordinary field and exploit folders, and ``iterations.parquet``
lists each one's population, NashConv, mix and best response. Running the same command
again reuses the finished iterations (and resumes an interrupted field).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from zooanalysis.errors import UserError
from zooanalysis.games.base import Game
from zooanalysis.results import ResultFolder
from zooanalysis.strategy_spec import PlayerSpec, StrategyInfo, parse_player

THRESHOLD = 0.005
"""Default: a best response gaining less than half a point of win share counts as none."""


@dataclass
class PsroRequest:
    """Everything that fixes a PSRO loop."""

    game: Game
    settings: Any
    population: list[PlayerSpec]
    seats: int
    field_games: int
    exploit_games: int
    families: list[StrategyInfo]
    threshold: float = THRESHOLD
    iterations: int = 5
    seed: int = 1
    jobs: int = 1
    bootstrap: int = 100
    out: Path = Path("runs/psro")


def request_record(request: PsroRequest) -> dict[str, Any]:
    """What fixes the loop's results: a rerun into the same folder must match it (a field
    too big for ``field_games`` plays the fewest games its seatings need instead)."""
    return {
        "game": request.game.name,
        "settings": request.game.settings_dict(request.settings),
        "population": [p.label for p in request.population],
        "seats": request.seats,
        "field_games": request.field_games,
        "exploit_games": request.exploit_games,
        "strategies": [info.name for info in request.families],
        "threshold": request.threshold,
        "iterations": request.iterations,
        "seed": request.seed,
        "bootstrap": request.bootstrap,
    }


def run_psro(request: PsroRequest, on_message: Callable[[str], None] | None = None):
    """Run (or continue) the loop in ``request.out``; returns its :class:`PsroResult`."""
    from zooanalysis.storage import MANIFEST, output_lock

    out = Path(request.out)
    if (out / MANIFEST).is_file():
        raise UserError(f"--out: {out} holds a finished PSRO loop; give a new name")
    say = on_message or (lambda text: None)
    with output_lock(out):
        _check_or_write_request(out, request)
        population = list(request.population)
        rows = []
        stop = "iterations ran out"
        for iteration in range(1, request.iterations + 1):
            field = _field(request, population, out / f"iteration-{iteration}" / "field", say)
            best = _best_response(request, field, out / f"iteration-{iteration}" / "exploit", say)
            row = _row(iteration, field, best)
            rows.append(row)
            say(
                f"iteration {iteration}: {len(population)} strategies, best response "
                f"{best.best_response} gains {100 * best.gain:+.2f} points "
                f"[{100 * best.gain_ci_low:+.2f}, {100 * best.gain_ci_high:+.2f}] against the mix"
            )
            if best.gain_ci_high < request.threshold:
                stop = (
                    "converged: the best response the search found gains measurably less "
                    "than the threshold (within the searched strategies and budget)"
                )
                break
            if best.gain_ci_low <= 0:
                stop = (
                    "no measurable gain: the interval of the best response the search "
                    "found reaches 0"
                )
                break
            if best.best_response in [p.label for p in population]:
                stop = "the best response is already in the population"
                break
            population.append(parse_player(best.best_response, request.game.strategies))
        result = _write(out, request, pd.DataFrame(rows), stop)
    return result


def _check_or_write_request(out: Path, request: PsroRequest) -> None:
    """Write ``request.json`` on the first run; a rerun must have the same request."""
    from zooanalysis.storage import write_json_atomically

    path = out / "request.json"
    record = request_record(request)
    if path.is_file():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise UserError(f"{path}: unreadable ({' '.join(str(error).split())})") from None
        if stored != json.loads(json.dumps(record)):
            raise UserError(
                f"--out: {out} holds a PSRO loop of another request; give a new name or the "
                "same options"
            )
        return
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomically(path, record)


def _field(request: PsroRequest, population: list[PlayerSpec], path: Path, say):
    """The iteration's field: reused when finished, resumed when interrupted."""
    from zooanalysis.field import FieldRequest, run_field
    from zooanalysis.loading import load_run
    from zooanalysis.storage import MANIFEST, partial_path

    labels = [p.label for p in population]
    if (path / MANIFEST).is_file():
        field = load_run(path)
        if list(field.manifest["population"]) != labels:
            raise UserError(f"{path}: holds the field of another population")
        return field
    from zooanalysis.field import minimum_games

    games = max(request.field_games, minimum_games(len(population), request.seats, request.seed))
    say(f"field of {', '.join(labels)} ({games:,} games)")
    field_request = FieldRequest(
        game=request.game,
        settings=request.settings,
        population=population,
        seats=request.seats,
        games=games,
        seed=request.seed,
        jobs=request.jobs,
        bootstrap=request.bootstrap,
        out=path,
        command=list(sys.argv),
    )
    return run_field(field_request, resume=partial_path(path).is_dir())


def _best_response(request: PsroRequest, field, path: Path, say):
    """The best response to the field's mix (its exploitability row)."""
    from zooanalysis.exploit import ExploitRequest, Target, run_exploit, targets_of
    from zooanalysis.loading import load_run
    from zooanalysis.storage import MANIFEST

    if not (path / MANIFEST).is_file():
        targets: list[Target] = targets_of(field, request.game, "mix")
        exploit_request = ExploitRequest(
            field=field,
            game=request.game,
            settings=request.settings,
            population=list(field_population(field, request.game)),
            families=request.families,
            targets=targets,
            games=request.exploit_games,
            jobs=request.jobs,
            bootstrap=request.bootstrap,
        )
        run_exploit(exploit_request, path, lambda text: say(f"best response: {text}"))
    return next(load_run(path).exploitability().itertuples())


def field_population(field, game: Game) -> list[PlayerSpec]:
    """The field's population as players."""
    return [parse_player(label, game.strategies) for label in field.manifest["population"]]


def _row(iteration: int, field, best) -> dict[str, Any]:
    solution = field.manifest["solution"]
    return {
        "iteration": iteration,
        "population": ", ".join(field.manifest["population"]),
        "strategies": len(field.manifest["population"]),
        "mix": json.dumps({k: round(v, 4) for k, v in solution["weights"].items() if v > 1e-4}),
        "field_games": field.manifest["games"],
        "nash_conv": solution["nash_conv"],
        "best_response": best.best_response,
        "best_response_share": best.share,
        "mix_value": best.target_value,
        "gain": best.gain,
        "gain_ci_low": best.gain_ci_low,
        "gain_ci_high": best.gain_ci_high,
    }


def _write(out: Path, request: PsroRequest, iterations: pd.DataFrame, stop: str):
    from zooanalysis.storage import (
        environment,
        git_commit,
        stamped,
        utc_now,
        write_manifest,
        write_tables,
    )
    from zooanalysis.version import __version__

    manifest = {
        "kind": "psro",
        "zoosim_version": __version__,
        "git_commit": git_commit(),
        "created": utc_now(),
        "title": request.game.title,
        "request": request_record(request),
        "stop": stop,
        "command": sys.argv,
        "environment": environment(),
        "tables": ["iterations"],
    }
    stamped_manifest = stamped(manifest, write_tables(out, {"iterations": iterations}))
    write_manifest(out, stamped_manifest)
    return PsroResult(stamped_manifest, path=out)


class PsroResult(ResultFolder):
    """A finished PSRO loop: one row per iteration."""

    required_keys = ("tables", "title", "request", "stop")

    def iterations(self) -> pd.DataFrame:
        """Each iteration's population, NashConv, mix and best response with its gain."""
        return self.table("iterations")

    def summary(self) -> str:
        """The iterations as text."""
        m = self.manifest
        lines = [f"{m['title']}: iterated best response (PSRO), {m['request']['seats']} seats"]
        for row in self.iterations().itertuples():
            lines.append(
                f"  {row.iteration}. {row.strategies} strategies, mix {row.mix}, NashConv "
                f"{100 * row.nash_conv:.3f} points; best response {row.best_response} gains "
                f"{100 * row.gain:+.2f} points [{100 * row.gain_ci_low:+.2f}, "
                f"{100 * row.gain_ci_high:+.2f}]"
            )
        lines.append(f"Stopped: {m['stop']}.")
        return "\n".join(lines)
