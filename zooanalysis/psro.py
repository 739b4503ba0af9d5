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

With ``prune`` (``--prune``) the loop plays a restricted game: after each iteration the
strategies out of the equilibrium that gain nothing against its mix leave the population,
and every later iteration re-checks them against its mix, bringing back any that gains
(see ``zooanalysis.psro_restrict``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    prune: bool = False
    """Play a restricted game: drop strategies out of the mix that gain nothing against it."""
    max_compositions: int | None = None
    """The largest field to play (``None``: the field's default limit)."""


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
        **({"prune": True} if request.prune else {}),
    }


def run_psro(request: PsroRequest, on_message: Callable[[str], None] | None = None):
    """Run (or continue) the loop in ``request.out``; returns its :class:`PsroResult`."""
    from zooanalysis.storage import MANIFEST, output_lock

    out = Path(request.out)
    if (out / MANIFEST).is_file():
        raise UserError(f"--out: {out} holds a finished PSRO loop; give a new name")
    _check_out(out)
    say = on_message or (lambda text: None)
    with output_lock(out), _kept_on_interrupt(out):
        _check_or_write_request(out, request)
        population = list(request.population)
        dropped: list[PlayerSpec] = []
        rows, checks = [], []
        stop = "iterations ran out"
        for iteration in range(1, request.iterations + 1):
            folder = out / f"iteration-{iteration}"
            field = _field(request, population, folder / "field", say)
            best = _best_response(request, field, folder / "exploit", say)
            row = _row(iteration, field, best)
            rows.append(row)
            say(
                f"iteration {iteration}: {len(population)} strategies, best response "
                f"{best.best_response} gains {100 * best.gain:+.2f} points "
                f"[{100 * best.gain_ci_low:+.2f}, {100 * best.gain_ci_high:+.2f}] against the mix"
            )
            returned = _recheck(request, field, dropped, folder, iteration, checks, say)
            row["returned"] = ", ".join(p.label for p in returned)
            stop = _stop_reason(request, best, population)
            if stop is not None and not returned:
                break
            stop = "iterations ran out"
            joining = [] if _stop_reason(request, best, population) else [best.best_response]
            joining = [label for label in joining if label not in {p.label for p in returned}]
            last = iteration == request.iterations
            leaving = [] if last else prunable_labels(request, field, joining)
            row["dropped"] = ", ".join(leaving)
            dropped = [p for p in dropped if p not in returned and p.label not in joining]
            dropped += [p for p in population if p.label in leaving]
            population = [p for p in population if p.label not in leaving] + returned
            population += [parse_player(label, request.game.strategies) for label in joining]
        result = _write(out, request, pd.DataFrame(rows), stop, _checks_table(checks))
    return result


@contextmanager
def _kept_on_interrupt(out: Path) -> Iterator[None]:
    """Say, on Ctrl-C or SIGTERM, that the finished iterations (and the checkpoint of a
    field under way) are kept and that running the loop again continues it: the field's
    own message named ``zoosim field --resume`` of one iteration's field, and one during a
    search said nothing was written."""
    from zooanalysis.storage import CommandInterruptedError

    try:
        yield
    except (KeyboardInterrupt, CommandInterruptedError):
        raise CommandInterruptedError(
            f"interrupted; the finished iterations (and the checkpoint of a field under way) "
            f"are kept in {out}. Continue it by running the same zoosim psro again with "
            f"--out {out}"
        ) from None


def _stop_reason(request: PsroRequest, best, population: list[PlayerSpec]) -> str | None:
    """Why the best response does not join the population, or ``None`` when it does."""
    if best.gain_ci_high < request.threshold:
        return (
            "converged: the best response the search found gains measurably less "
            "than the threshold (within the searched strategies and budget)"
        )
    if best.gain_ci_low <= 0:
        return "no measurable gain: the interval of the best response the search found reaches 0"
    if best.best_response in [p.label for p in population]:
        return "the best response is already in the population"
    return None


def prunable_labels(request: PsroRequest, field, joining: list[str]) -> list[str]:
    """The strategies that leave the population after this field (none without
    ``prune``), never the one joining."""
    from zooanalysis.psro_restrict import prunable

    return prunable(field, set(joining)) if request.prune else []


def _recheck(request, field, dropped, folder: Path, iteration: int, checks: list, say):
    """Play the dropped strategies against the field's mix (kept in
    ``recheck.parquet``); those that gain measurably come back."""
    from zooanalysis.psro_restrict import recheck, recheck_stored

    if not dropped:
        return []
    def compute() -> pd.DataFrame:
        return recheck(
            field, request.game, request.settings, dropped, request.exploit_games,
            request.bootstrap, request.jobs,
        )  # fmt: skip

    table = recheck_stored(folder / "recheck.parquet", compute)
    if list(table["strategy"]) != [p.label for p in dropped]:
        raise UserError(f"{folder / 'recheck.parquet'}: holds the re-check of other strategies")
    checks.append(table.assign(iteration=iteration))
    returned = []
    for player, row in zip(dropped, table.itertuples(), strict=True):
        say(
            f"re-check: dropped {player.label} gains {100 * row.gain:+.2f} points "
            f"[{100 * row.gain_ci_low:+.2f}, {100 * row.gain_ci_high:+.2f}] against the mix"
        )
        if row.gain_ci_low > 0:
            returned.append(player)
    return returned


def _checks_table(checks: list[pd.DataFrame]) -> pd.DataFrame:
    columns = ["iteration", "strategy", "share", "ci_low", "ci_high", "mix_value", "gain",
               "gain_ci_low", "gain_ci_high", "games"]  # fmt: skip
    if not checks:
        return pd.DataFrame(columns=columns)
    return pd.concat(checks, ignore_index=True)[columns]


def _check_out(out: Path) -> None:
    """One ``UserError`` line unless ``out`` is a new folder, an empty one or an earlier
    loop's (its ``request.json``), and writable: checked before any work."""
    import os

    from zooanalysis.storage import check_can_create

    if out.exists() and not out.is_dir():
        raise UserError(f"--out: {out} is a file; give a folder for the PSRO loop")
    if not out.exists():
        check_can_create(out, "--out")
        return
    if not (out / "request.json").is_file() and any(out.iterdir()):
        raise UserError(
            f"--out: {out} is not empty and holds no PSRO loop (request.json); give a new or "
            "empty folder, or the folder of this same loop to continue it"
        )
    if not os.access(out, os.W_OK | os.X_OK):
        raise UserError(
            f"--out: cannot write in {out} (read-only, immutable or not yours); give another "
            "folder"
        )


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
    from zooanalysis.field import FieldRequest, FieldResult, run_field
    from zooanalysis.storage import MANIFEST, has_kept_work

    labels = [p.label for p in population]
    if (path / MANIFEST).is_file():
        field = _opened(FieldResult, path)
        if list(field.manifest["population"]) != labels:
            raise UserError(f"{path}: holds the field of another population")
        return field
    from zooanalysis.field import minimum_games

    games = max(request.field_games, minimum_games(len(population), request.seats, request.seed))
    limit = {}
    if request.max_compositions is not None:
        limit["max_compositions"] = request.max_compositions
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
        **limit,
    )
    return run_field(field_request, resume=has_kept_work(path))


def _best_response(request: PsroRequest, field, path: Path, say):
    """The best response to the field's mix (its exploitability row)."""
    from zooanalysis.exploit import ExploitRequest, ExploitResult, Target, run_exploit, targets_of
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
    return next(_opened(ExploitResult, path).exploitability().itertuples())


def _opened(kind: type, path: Path):
    """A finished field or exploit folder of this loop, checked (as ``load_run`` does)."""
    from zooanalysis.storage import read_manifest

    result = kind(read_manifest(path), path=path)
    result.verify()
    return result


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
        "nash_conv_ci_low": solution.get("nash_conv_ci", [math.nan, math.nan])[0],
        "nash_conv_ci_high": solution.get("nash_conv_ci", [math.nan, math.nan])[1],
        "best_response": best.best_response,
        "best_response_share": best.share,
        "mix_value": best.target_value,
        "gain": best.gain,
        "gain_ci_low": best.gain_ci_low,
        "gain_ci_high": best.gain_ci_high,
        "dropped": "",
        "returned": "",
    }


def _write(out: Path, request: PsroRequest, iterations: pd.DataFrame, stop: str,
           rechecks: pd.DataFrame):  # fmt: skip
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
        "tables": ["iterations", "rechecks"],
    }
    tables = {"iterations": iterations, "rechecks": rechecks}
    stamped_manifest = stamped(manifest, write_tables(out, tables))
    write_manifest(out, stamped_manifest)
    return PsroResult(stamped_manifest, path=out)


class PsroResult(ResultFolder):
    """A finished PSRO loop: one row per iteration."""

    required_keys = ("tables", "title", "request", "stop")

    def iterations(self) -> pd.DataFrame:
        """Each iteration's population, NashConv, mix and best response with its gain."""
        return self.table("iterations")

    def rechecks(self) -> pd.DataFrame:
        """Each dropped strategy's gain against each later iteration's mix (``--prune``)."""
        if "rechecks" not in self.manifest["tables"]:
            return pd.DataFrame()
        return self.table("rechecks")

    def summary(self) -> str:
        """The iterations as text."""
        m = self.manifest
        lines = [f"{m['title']}: iterated best response (PSRO), {m['request']['seats']} seats"]
        for row in self.iterations().itertuples():
            lines.append(
                f"  {row.iteration}. {row.strategies} strategies, mix {row.mix}, NashConv "
                f"{nash_conv_text(row)}; best response {row.best_response} gains "
                f"{100 * row.gain:+.2f} points [{100 * row.gain_ci_low:+.2f}, "
                f"{100 * row.gain_ci_high:+.2f}]"
            )
            if getattr(row, "returned", ""):
                lines.append(f"     back in (gains against this mix): {row.returned}")
            if getattr(row, "dropped", ""):
                lines.append(f"     dropped (out of the mix, no gain against it): {row.dropped}")
        lines.append(f"Stopped: {m['stop']}.")
        lines += _dropped_lines(self)
        return "\n".join(lines)


def nash_conv_text(row) -> str:
    """An iteration's NashConv with its 95% bootstrap interval and the field's games
    (``0.120 points [0.050, 0.210] (field of 98,000 games)``; an interval that lies above
    its point, as a field written before :func:`~zooanalysis.field_analysis.nash_conv_interval`
    may hold, is shown from 0); folders written before the interval was kept print the
    value and the games only."""
    from zooanalysis.field_analysis import nash_conv_interval

    low, high = nash_conv_interval(
        row.nash_conv,
        getattr(row, "nash_conv_ci_low", math.nan),
        getattr(row, "nash_conv_ci_high", math.nan),
    )
    interval = (
        "" if pd.isna(low) or pd.isna(high) else f" [{100 * low:.3f}, {100 * high:.3f}]"
    )
    return f"{100 * row.nash_conv:.3f} points{interval} (field of {int(row.field_games):,} games)"


def _dropped_lines(result: PsroResult) -> list[str]:
    """The restricted game's last word: each strategy still dropped, re-checked against
    the final mix."""
    checks = result.rechecks()
    final = int(result.iterations()["iteration"].max())
    last = checks[checks["iteration"] == final] if not checks.empty else checks
    if last.empty:
        return []
    lines = [
        "A restricted game (--prune): the dropped strategies re-checked against the final "
        "mix on fresh deals (one whose gain's interval lies above 0 comes back):"
    ]
    for row in last.itertuples():
        back = "  (gains: back in)" if row.gain_ci_low > 0 else ""
        lines.append(
            f"  {row.strategy:<40} {100 * row.gain:+.2f} points [{100 * row.gain_ci_low:+.2f}, "
            f"{100 * row.gain_ci_high:+.2f}]{back}"
        )
    return lines
