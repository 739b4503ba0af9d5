"""The ``zoosim`` command: run simulations, list strategies, print odds, show runs.

User mistakes print one line, ``zoosim: error: ...``, and exit with code 2; an
interrupted run prints one line, writes nothing and exits with code 130.
"""

from __future__ import annotations

import gc
import signal
import sys
import threading
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from zooanalysis import storage
from zooanalysis.errors import SettingsError, UserError
from zooanalysis.games import game_names, get_game, parse_players
from zooanalysis.games.base import Game
from zooanalysis.numbers import parse_count
from zooanalysis.progress import GameProgress
from zooanalysis.runner import ALL_BACKENDS, DEFAULT_BATCH_SIZE, default_jobs
from zooanalysis.scenario import Scenario, load_scenario
from zooanalysis.settings import check_players_setting
from zooanalysis.storage import CommandInterruptedError
from zooanalysis.strategy_spec import PlayerSpec, format_number, parse_lineup

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130


def _print_version(value: bool) -> None:
    if value:
        from zooanalysis.version import __version__

        typer.echo(f"zoosim {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print zoosim's version and exit.",
        ),
    ] = False,
) -> None:
    """zoosim: Monte Carlo strategy analysis for zoo-themed card games.

    Every rate comes with its 95% confidence interval and n. Start with
    zoosim run --games 1e5, then zoosim COMMAND --help for any command.
    """


def examples(*lines: str) -> str:
    """A command's help epilog: example command lines, kept as written (click's ``\\b``)."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


def with_default(text: str, default: str) -> str:
    """Help text ending in ``[default: ...]`` as typer shows it, for an option whose value
    is ``None`` until a scenario file or the built-in default fills it in."""
    return f"{text}  [default: {default}]"


# Options that several commands share, declared once (typer reads the Annotated aliases).
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs", help=with_default("Parallel workers; results do not depend on it.", "all cores")
    ),
]
MaxCompositionsOption = Annotated[
    int | None,
    typer.Option(
        "--max-compositions",
        help=with_default(
            "The largest field to play, in compositions (9 strategies at 4 seats make 495).",
            "400",
        ),
    ),
]
ProgressOption = Annotated[
    bool, typer.Option("--progress/--no-progress", help="Show the progress bar.")
]
GameOption = Annotated[str | None, typer.Option("--game", help=with_default("Game.", "bluff"))]
RulesScenarioOption = Annotated[
    Path | None,
    typer.Option(
        "--scenario",
        help=with_default("Scenario file whose rule settings to use.", "the published rules"),
    ),
]
SeatsOption = Annotated[
    int | None,
    typer.Option("--seats", help=with_default("Players per game.", "the default lineup's")),
]


def _scenario_settings(game, scenario: Scenario | None):
    """The game's settings from the scenario's [settings] table (or the rulebook's)."""
    try:
        return game.settings_from_table(scenario.settings if scenario else {})
    except SettingsError as error:
        where = f"{scenario.path}: " if scenario else ""
        raise UserError(f"{where}{error}") from None


def _game_and_settings(game_name: str | None, scenario_file: Path | None, default: str = "bluff"):
    """The game (``--game``, else the scenario's, else ``default``) and its rule settings (the
    scenario's ``[settings]``, else the published rules)."""
    scenario = load_scenario(scenario_file) if scenario_file is not None else None
    name = game_name or (scenario.game if scenario and scenario.game else default)
    game = get_game(name)
    if scenario and scenario.game and game_name and scenario.game != game.name:
        raise UserError(f"--game: {game_name!r} differs from the scenario's game {scenario.game!r}")
    return game, _scenario_settings(game, scenario)


def _choose(option, scenario: Scenario | None, key: str, default):
    """A command-line value if given, else the scenario's [run] value, else the default."""
    if option is not None:
        return option
    if scenario is not None and key in scenario.run:
        return scenario.run[key]
    return default


def _jobs(jobs: int | None) -> int:
    """``--jobs``, all cores when not given; 0 and below are refused."""
    return _whole(default_jobs() if jobs is None else jobs, "--jobs", 1)


def _max_compositions(value: int | None) -> int:
    """``--max-compositions``, the field's default limit when not given."""
    from zooanalysis.field import MAX_COMPOSITIONS

    return MAX_COMPOSITIONS if value is None else _whole(value, "--max-compositions", 1)


def _whole(value, option: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise UserError(f"{option}: {value!r} is not allowed: give a whole number >= {low}")
    return value


def _refuse_changes(option: str, fixed: dict, what: str, allowed: str) -> None:
    """Refuse every option of ``fixed`` given (not None) with ``option`` (--resume,
    --reanalyse): they cannot change ``what``; only ``allowed`` may be given."""
    given = [name for name, value in fixed.items() if value is not None]
    if given:
        raise UserError(
            f"{option}: {', '.join(given)} cannot change {what}; only {allowed} may be given"
        )


def _default_seats(game: Game) -> list[PlayerSpec]:
    """The seats of the game's default lineup, parsed (a seat's parameters hold commas and a
    trailing ``*N`` repeats a seat, so the lineup's text cannot be split on commas)."""
    return parse_lineup(game.default_lineup, game.strategies)


@app.command(
    epilog=examples(
        "zoosim run --games 1e5                  # Bluff in Zoo, default lineup, seed 1",
        "zoosim run --game lucky-lions --players greedy,random --games 250k",
        "zoosim run --scenario simulations/bluff-short-game.toml --report",
        "zoosim run --until-ci 0.002            # until every win share is within 0.2 points",
        "zoosim run --resume runs/NAME          # continue an interrupted run",
    )
)
def run(
    game_name: Annotated[
        str | None,
        typer.Option(
            "--game",
            help=with_default(
                "Game to simulate (zoosim games lists them).", "bluff, or the scenario's game"
            ),
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help=with_default(
                "Lineup, seat 1 first, e.g. bayes,bayes,cautious,random or "
                "bayes:doubt=0.35,bluff=0.2,random*3; a trailing *N repeats the whole "
                "player: cautious:trust=0.75,margin=6.25*4.",
                "the game's default lineup, listed by zoosim games",
            ),
        ),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            help=with_default(
                "Games to play: 1e6, 1_000_000 or 250k (deals with --rotate-seats).", "1e6"
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help=with_default("Seed that fixes the run.", "1"))
    ] = None,
    jobs: JobsOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=with_default("Run directory to write.", "runs/<game>-<time>-seed<seed>"),
        ),
    ] = None,
    scenario_file: Annotated[
        Path | None,
        typer.Option(
            "--scenario",
            help=with_default(
                "TOML scenario file with [settings] and [run] defaults.", "the published rules"
            ),
        ),
    ] = None,
    backend: Annotated[
        str | None,
        typer.Option(
            "--backend",
            help=with_default("threads, processes, or dask (with --scheduler).", "threads"),
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help=with_default(
                "Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786.",
                "none (needed with --backend dask only)",
            ),
        ),
    ] = None,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            help=with_default(
                "Play batches until every win rate's 95% CI is at most this wide on each "
                "side (e.g. 0.002), or --max-games is reached.",
                "off: --games decides",
            ),
        ),
    ] = None,
    max_games: Annotated[
        str | None,
        typer.Option("--max-games", help=with_default("Cap for --until-ci.", "1e8")),
    ] = None,
    batch_size: Annotated[
        int | None,
        typer.Option(
            "--batch-size",
            help=with_default(
                "Games per batch; part of what fixes the random streams.", f"{DEFAULT_BATCH_SIZE:_}"
            ),
        ),
    ] = None,
    rows: Annotated[
        bool | None,
        typer.Option(
            "--rows/--no-rows",
            help=with_default("Also keep one row per game (Parquet, per batch).", "no-rows"),
        ),
    ] = None,
    rotate_seats: Annotated[
        bool | None,
        typer.Option(
            "--rotate-seats/--no-rotate-seats",
            help=with_default(
                "Play every deal once per rotation of the lineup through the seats "
                "and compare strategies on the same deals. --games then counts deals: "
                "N deals are N x players games.",
                "no-rotate-seats",
            ),
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help=with_default(
                "Continue an interrupted run to RUN_DIR; give only "
                "--jobs, --backend, --scheduler or --no-progress with it.",
                "a new run",
            ),
        ),
    ] = None,
    progress: ProgressOption = True,
    make_report: Annotated[
        bool,
        typer.Option("--report/--no-report", help="Also write the HTML balance report."),
    ] = False,
    report_dir: Annotated[
        Path | None,
        typer.Option(
            "--report-dir",
            help=with_default("Folder for the report (implies --report).", "reports/<run name>"),
        ),
    ] = None,
) -> None:
    """Simulate games and write a run directory (manifest.json + Parquet tables).

    Options not given come from the --scenario file's [run] table, then the defaults.
    """
    from zooanalysis.simulation import RunRequest, resume_request

    if resume is not None:
        fixed = {
            "--game": game_name,
            "--players": players,
            "--games": games,
            "--seed": seed,
            "--out": out,
            "--scenario": scenario_file,
            "--batch-size": batch_size,
            "--rows/--no-rows": rows,
            "--until-ci": until_ci,
            "--max-games": max_games,
            "--rotate-seats": rotate_seats,
        }
        _refuse_changes(
            "--resume",
            fixed,
            "an interrupted run",
            "--jobs, --backend, --scheduler and --no-progress",
        )
        chosen_backend = backend or "threads"
        chosen_jobs = _jobs(jobs)
        if make_report or report_dir is not None:  # refuse a bad report folder before playing
            from zooanalysis.report.build import check_report_target, default_report_folder

            check_report_target(report_dir or default_report_folder(resume), "--report-dir")
        from zooanalysis.storage import reserve_output

        with reserve_output(resume, option="--resume", resume=True) as folder:
            request = resume_request(resume, chosen_jobs, chosen_backend, scheduler)
            _play_and_report(request, progress, folder)
        if make_report or report_dir is not None:
            _write_report(request.out, report_dir)
        return

    scenario = load_scenario(scenario_file) if scenario_file is not None else None
    name = _choose(game_name, None, "", scenario.game if scenario and scenario.game else "bluff")
    game = get_game(name)
    if scenario and scenario.game and game_name and scenario.game != game.name:
        raise UserError(f"--game: {game_name!r} differs from the scenario's game {scenario.game!r}")
    from zooanalysis.field_lineup import is_field_lineup

    chosen_players = _choose(players, scenario, "players", game.default_lineup)
    mix = None
    if is_field_lineup(chosen_players):
        from zooanalysis.field_lineup import lineup_of, load_field_mix

        mix = load_field_mix(chosen_players, game)
        lineup = lineup_of(mix)
    else:
        lineup = parse_players(chosen_players, game)
    settings = _scenario_settings(game, scenario)
    if scenario is not None:
        check_players_setting(scenario.settings, len(lineup), f"{scenario.path}: settings.")
    try:
        settings = game.settings_for_lineup(settings, lineup)
    except SettingsError as error:
        if scenario is not None and error.key != "players":  # the file's setting, not the lineup
            raise UserError(f"{scenario.path}: {error}") from None
        raise UserError(f"--players: {error}") from None
    ci_target = _choose(until_ci, scenario, "until_ci", None)
    if ci_target is not None:
        if games is not None:
            raise UserError(
                "--games and --until-ci: give one of them (--until-ci plays until "
                "the intervals are narrow enough, at most --max-games games)"
            )
        if (
            isinstance(ci_target, bool)
            or not isinstance(ci_target, int | float)
            or not (0 < ci_target < 0.5)
        ):
            raise UserError(
                f"--until-ci: {ci_target!r} is not allowed: give a half-width between "
                "0 and 0.5, e.g. 0.002 for +-0.2 percentage points"
            )
        total = parse_count(_choose(max_games, scenario, "max_games", "1e8"), "--max-games")
    else:
        if max_games is not None:
            raise UserError("--max-games: only used with --until-ci")
        total = parse_count(_choose(games, scenario, "games", "1e6"), "--games")
    chosen_seed = _whole(_choose(seed, scenario, "seed", 1), "--seed", 0)
    chosen_jobs = _whole(_choose(jobs, scenario, "jobs", default_jobs()), "--jobs", 1)
    chosen_backend = _choose(backend, scenario, "backend", "threads")
    if chosen_backend not in ALL_BACKENDS:
        raise UserError(
            f"--backend: unknown backend {chosen_backend!r}; allowed are {', '.join(ALL_BACKENDS)}"
        )
    chosen_scheduler = _choose(scheduler, scenario, "scheduler", None)
    if (chosen_backend == "dask") != (chosen_scheduler is not None):
        raise UserError(
            "--scheduler: give it with --backend dask, and only then "
            "(e.g. --backend dask --scheduler tcp://HOST:8786)"
        )
    if chosen_scheduler is not None:  # a malformed address: one line before the progress bar
        from zooanalysis.distributed import check_address

        check_address(chosen_scheduler)
    size = _whole(
        _choose(batch_size, scenario, "batch_size", DEFAULT_BATCH_SIZE), "--batch-size", 1
    )
    keep_rows = bool(_choose(rows, scenario, "rows", False))
    rotate = bool(_choose(rotate_seats, scenario, "rotate_seats", False))
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = Path(_choose(out, scenario, "out", f"runs/{game.name}-{stamp}-seed{chosen_seed}"))
    named = out is not None or (scenario is not None and "out" in scenario.run)

    request = RunRequest(
        game=game,
        settings=settings,
        lineup=lineup,
        games=total,
        seed=chosen_seed,
        jobs=chosen_jobs,
        backend=chosen_backend,
        scheduler=chosen_scheduler,
        until_ci=ci_target,
        rotate_seats=rotate,
        batch_size=size,
        with_rows=keep_rows,
        out=target,
        scenario=str(scenario.path) if scenario else None,
        command=sys.argv,
        mix=mix,
    )
    if make_report or report_dir is not None:  # refuse a bad report folder before playing
        from zooanalysis.report.build import check_report_target, default_report_folder

        check_report_target(report_dir or default_report_folder(target), "--report-dir")
    from zooanalysis.storage import reserve_output

    # the folder is reserved (locked, created) before any work; a default name that is
    # taken (two runs in one second) becomes NAME-2, NAME-3 ...
    with reserve_output(target, option="--out", unique=not named) as folder:
        _play_and_report(request, progress, folder)
    if make_report or report_dir is not None:
        _write_report(request.out, report_dir)


def _write_report(source: Path, out: Path | None) -> None:
    """Write the HTML report of a finished run, tournament or sweep and say where it is."""
    from zooanalysis.report.build import build_report

    typer.echo(f"Report: {build_report(source, out)}")


def _play_and_report(request, progress: bool, folder) -> None:
    """Play a run into its reserved folder with a progress bar, then print its summary and
    where it was written."""
    from zooanalysis.simulation import run_simulation, warm_up
    from zooanalysis.storage import provenance_in_background

    provenance = provenance_in_background()  # git's subprocesses run while kernels load
    total = None if request.until_ci is not None else request.games  # --until-ci: estimated
    with GameProgress(total, request.game.title, enabled=progress) as bar:
        bar.status("compiling")
        warm_up(request)
        bar.status("playing")
        result = run_simulation(
            request,
            on_progress=bar.advance,
            folder=folder,
            on_start=bar.start_at,
            on_estimate=bar.retarget,
            provenance=provenance,
        )
    target = request.out
    typer.echo(result.summary())
    typer.echo(f"\nWritten to {target}/ (load with zooanalysis.load_run({str(target)!r}))")


@app.command(
    epilog=examples(
        "zoosim tournament --strategies bayes,cautious,aggressive,random --games 1e5",
        "zoosim tournament --game zoology --strategies bayes,curious --games 2e4",
        "zoosim tournament --resume runs/NAME    # continue an interrupted tournament",
    )
)
def tournament(
    game_name: GameOption = None,
    strategies: Annotated[
        str,
        typer.Option(
            "--strategies",
            help="The field, each strategy once, e.g. "
            "bayes,cautious,aggressive,random or bayes:doubt=0.5,bayes,random. Required.",
        ),
    ] = "",
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            help=with_default(
                "Games in all: 1e5, 250k ..., rounded up to whole lineups; too few for "
                "every lineup to play 2,000 are refused.",
                "1e5",
            ),
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            help=with_default("Players per game.", "the whole field, at most the game's maximum"),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help=with_default("Seed that fixes the tournament.", "1")),
    ] = None,
    jobs: JobsOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=with_default("Directory to write.", "runs/tournament-<game>-<time>-seed<seed>"),
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help=with_default(
                "Continue the interrupted tournament written to this path; give only "
                "--jobs or --no-progress with it.",
                "a new tournament",
            ),
        ),
    ] = None,
    progress: ProgressOption = True,
) -> None:
    """Play every strategy against every other in fair seatings and rate them."""
    from zooanalysis.tournament import run_tournament, tournament_plan

    if resume is not None:
        fixed = {
            "--game": game_name,
            "--strategies": strategies or None,
            "--games": games,
            "--seats": seats,
            "--seed": seed,
            "--out": out,
        }
        _refuse_changes("--resume", fixed, "an interrupted tournament", "--jobs and --no-progress")
        from zooanalysis.tournament import resume_request

        request = resume_request(resume, _jobs(jobs))
    else:
        request = _new_tournament(game_name, strategies, games, seats, seed, jobs, out)
    plan = tournament_plan(request)  # refuses too few games before anything is played
    typer.echo(f"Plan: {plan.describe()}.", err=True)
    with GameProgress(plan.games, f"{request.game.title} tournament", enabled=progress) as bar:
        bar.status("playing")
        result = run_tournament(
            request,
            on_progress=bar.advance,
            unique=out is None and resume is None,
            resume=resume is not None,
            on_start=bar.start_at,
        )
    typer.echo(result.summary())
    target = request.out
    typer.echo(f"\nWritten to {target}/ (load with zooanalysis.load_run({str(target)!r}))")


def _new_tournament(
    game_name: str | None,
    strategies: str,
    games: str | None,
    seats: int | None,
    seed: int | None,
    jobs: int | None,
    out: Path | None,
):
    """The request of a new ``zoosim tournament``, its output checked (not yet reserved)."""
    from zooanalysis.tournament import TournamentRequest
    from zooanalysis.tournament_resume import COMMAND

    game = get_game(game_name or "bluff")
    seed = 1 if seed is None else seed
    if not strategies:
        raise UserError(
            f"--strategies: give at least two strategies, e.g. {','.join(game.strategies)}"
        )
    field = parse_lineup(strategies, game.strategies, "--strategies")
    labels = [player.label for player in field]
    if len(set(labels)) != len(labels):
        raise UserError(
            f"--strategies: each strategy once, please ({strategies!r} repeats "
            "one); seats are filled by rotating the field"
        )
    if len(field) < 2:
        raise UserError("--strategies: a tournament needs at least two strategies")
    base = _scenario_settings(game, None)
    chosen_seats = seats if seats is not None else len(field)
    try:
        game.check_player_count(chosen_seats)  # before a list of that many seats (-1, 10**23)
        settings = game.settings_for_lineup(base, field[:1] * chosen_seats)
    except SettingsError as error:
        if seats is None:
            raise UserError(
                f"--seats: {error}; give --seats to play {len(field)} strategies in smaller tables"
            ) from None
        raise UserError(f"--seats: {error}") from None
    total = parse_count("1e5" if games is None else games, "--games")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = out or Path(f"runs/tournament-{game.name}-{stamp}-seed{seed}")
    from zooanalysis.storage import check_can_create, check_run_can_start

    # before the progress bar; the folder itself is reserved before the first game
    if out is not None:
        check_run_can_start(target, COMMAND)
    else:
        check_can_create(target, "--out")
    return TournamentRequest(
        game=game,
        settings=settings,
        field=field,
        games=total,
        seats=chosen_seats,
        seed=_whole(seed, "--seed", 0),
        jobs=_jobs(jobs),
        out=target,
    )


@app.command(
    epilog=examples(
        "zoosim field --games 1e6                 # Bluff in Zoo, every shipped strategy",
        "zoosim field --population bayes,aggressive,bayes:doubt=0,bluff=0 --seats 4",
        "zoosim field --game lucky-lions --from runs/tune-greedy --games 2e5",
        "zoosim field --scenario simulations/lucky-lions-everything.toml --seats 4",
        "zoosim field --resume runs/NAME         # continue an interrupted field",
        "zoosim field --reanalyse runs/NAME      # solve a stored field again, no replay",
        "zoosim field --reanalyse runs/NAME --search-games 50   # add the search rung",
    )
)
def field(
    game_name: GameOption = None,
    scenario_file: RulesScenarioOption = None,
    population: Annotated[
        str | None,
        typer.Option(
            "--population",
            help=with_default(
                "The strategies, each once, e.g. bayes,cautious,bayes:doubt=0,bluff=0.",
                "every shipped strategy at its defaults (none when only --from is given)",
            ),
        ),
    ] = None,
    sources: Annotated[
        list[Path] | None,
        typer.Option(
            "--from",
            help=with_default(
                "Add players from a text file (one per line, # comments) or a zoosim tune "
                "--out folder (its best response). May be repeated.",
                "none",
            ),
        ),
    ] = None,
    seats: SeatsOption = None,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            help=with_default(
                "Games in all: 1e6, 250k ..., rounded up to whole seatings; too few for "
                "every seating to play 2,000 are refused.",
                "1e6",
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help=with_default("Seed that fixes the field.", "1"))
    ] = None,
    bootstrap: Annotated[
        int | None,
        typer.Option(
            "--bootstrap", help=with_default("Bootstrap replicates for the intervals.", "100")
        ),
    ] = None,
    alpha: Annotated[
        float | None,
        typer.Option(
            "--alpha", help=with_default("alpha-Rank's selection intensity (> 0).", "50")
        ),
    ] = None,
    jobs: JobsOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=with_default("Directory to write.", "runs/field-<game>-<time>-seed<seed>"),
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help=with_default(
                "Continue the interrupted field written to this path.", "a new field"
            ),
        ),
    ] = None,
    max_compositions: MaxCompositionsOption = None,
    progress: ProgressOption = True,
    search_games: Annotated[
        str | None,
        typer.Option(
            "--search-games",
            help=with_default(
                "Deals for the skill ladder's search rung (the search player at a table of "
                "the top rung, each deal in every seat; games with a forward model; slow: "
                "a few games per second); 0: none.",
                "20 where the game has a forward model",
            ),
        ),
    ] = None,
    reanalyse: Annotated[
        Path | None,
        typer.Option(
            "--reanalyse",
            help=with_default(
                "Solve the stored field in this folder again with today's solver and "
                "rewrite its analysis (no games replayed; --search-games plays the search "
                "rung).",
                "play a new field",
            ),
        ),
    ] = None,
) -> None:
    """Solve the meta-game of a population: equilibrium mix, alpha-Rank, with intervals."""
    from zooanalysis.field import COMMAND as FIELD_COMMAND
    from zooanalysis.field import FieldRequest, field_plan, run_field
    from zooanalysis.field_setup import check_seats, population_from, resume_field_request

    if reanalyse is not None:
        fixed = {
            "--game": game_name, "--scenario": scenario_file, "--population": population,
            "--from": sources or None, "--seats": seats, "--games": games, "--seed": seed,
            "--bootstrap": bootstrap, "--alpha": alpha, "--out": out, "--resume": resume,
            "--max-compositions": max_compositions,
        }  # fmt: skip
        _refuse_changes(
            "--reanalyse", fixed, "a stored field", "--search-games, --jobs and --no-progress"
        )
        _reanalyse_field(reanalyse, search_games, jobs, progress)
        return
    if resume is not None:
        fixed = {
            "--game": game_name,
            "--scenario": scenario_file,
            "--population": population,
            "--from": sources or None,
            "--seats": seats,
            "--games": games,
            "--seed": seed,
            "--bootstrap": bootstrap,
            "--alpha": alpha,
            "--out": out,
        }
        _refuse_changes("--resume", fixed, "an interrupted field", "--jobs and --no-progress")
        request = resume_field_request(resume, _jobs(jobs))
    else:
        games = "1e6" if games is None else games
        seed = 1 if seed is None else seed
        bootstrap = 100 if bootstrap is None else bootstrap
        alpha = 50.0 if alpha is None else alpha
        game, base = _game_and_settings(game_name, scenario_file)
        players, notes = population_from(game, population, list(sources or []))
        chosen_seats = seats if seats is not None else len(_default_seats(game))
        settings = check_seats(game, base, players, chosen_seats)
        if not alpha > 0 or alpha == float("inf"):
            raise UserError(f"--alpha: {alpha} is not allowed: give a number above 0")
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = out or Path(f"runs/field-{game.name}-{stamp}-seed{seed}")
        from zooanalysis.storage import check_can_create, check_run_can_start

        if out is not None:
            check_run_can_start(target, FIELD_COMMAND)
        else:
            check_can_create(target, "--out")
        request = FieldRequest(
            game=game,
            settings=settings,
            population=players,
            seats=chosen_seats,
            games=parse_count(games, "--games"),
            seed=_whole(seed, "--seed", 0),
            jobs=_jobs(jobs),
            bootstrap=_whole(bootstrap, "--bootstrap", 0),
            alpha=alpha,
            out=target,
            sources=notes,
        )
    request.max_compositions = _max_compositions(max_compositions)
    plan = field_plan(request)  # refuses too few games before anything is played
    search_deals = _search_deals(request.game, request.settings, request.seats, search_games)
    typer.echo(f"Plan: {plan.describe()}.", err=True)
    title = f"{request.game.title} field"
    total = plan.games + search_deals * request.seats
    with GameProgress(total, title, enabled=progress) as bar:
        bar.status("playing")
        result = run_field(
            request,
            on_progress=bar.advance,
            resume=resume is not None,
            on_start=bar.start_at,
            unique=out is None and resume is None,
            search_deals=search_deals,
        )
    typer.echo(result.summary())
    typer.echo(_ladder_text(result))
    target = request.out
    typer.echo(f"\nWritten to {target}/ (load with zooanalysis.load_run({str(target)!r}))")


def _search_deals(game, settings, seats: int, text: str | None) -> int:
    """The search rung's deals: ``--search-games`` (0: none; refused in one line for a
    game without a forward model for these rules), by default
    ``ladder_search.DEFAULT_DEALS`` where the game can have one, else 0."""
    from zooanalysis.ladder_search import DEFAULT_DEALS, check_search_deals, forward_model_refusal

    if text is None:
        return DEFAULT_DEALS if forward_model_refusal(game, settings, seats) is None else 0
    deals = _search_count(text)
    check_search_deals(game, settings, seats, deals)
    return deals


def _search_count(text: str | None) -> int:
    """``--search-games``: a count (1e3, 250 ...) or 0 for none."""
    if text is None or text.strip() == "0":
        return 0
    return parse_count(text, "--search-games")


def _reanalyse_field(
    folder: Path, search_games: str | None, jobs: int | None, progress: bool
) -> None:
    """``zoosim field --reanalyse``: solve again, rewrite, print the summary and ladder."""
    from zooanalysis.field_reanalyse import check_reanalysable, reanalyse_field

    deals = _search_count(search_games)
    check_reanalysable(folder, deals)  # before any progress bar
    with GameProgress(None, "search rung", enabled=progress and deals > 0) as bar:
        result, notes = reanalyse_field(folder, deals, _jobs(jobs), bar.advance)
    typer.echo(result.summary())
    typer.echo(_ladder_text(result))
    for note in notes:
        typer.echo(note)
    typer.echo(f"\nRewritten: {folder}/ (load with zooanalysis.load_run({str(folder)!r}))")


def _ladder_text(result) -> str:
    """The field's skill ladder as text (``zooanalysis.ladder_search.ladder_lines``)."""
    from zooanalysis.ladder_search import ladder_lines

    return "\n".join(["", *ladder_lines(result)])


@app.command(
    epilog=examples(
        "zoosim exploit runs/field-bluff --games 2e5",
        "zoosim exploit runs/field-bluff --strategies bayes --targets mix,cautious",
        "zoosim exploit runs/field-hearts --against safe,bold,safe,random --games 2e4",
    )
)
def exploit(
    field_dir: Annotated[Path, typer.Argument(help="A field folder (zoosim field --out).")],
    strategies: Annotated[
        str | None,
        typer.Option(
            "--strategies",
            help=with_default(
                "Strategies whose parameters are searched for a best response.",
                "every strategy of the game with parameters",
            ),
        ),
    ] = None,
    targets: Annotated[
        str | None,
        typer.Option(
            "--targets",
            help=with_default(
                "What to exploit: mix (the equilibrium), default (the game's default "
                "lineup as a mix) and/or population strategies, comma-separated.",
                "mix and every population strategy (none with --against)",
            ),
        ),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help=with_default(
                "A lineup to exploit: a best response takes each of its seats in turn, the "
                "others keep theirs; gain over the fair share 1/seats.",
                "no lineup",
            ),
        ),
    ] = None,
    games: Annotated[
        str, typer.Option("--games", help="Games for each target's search.")
    ] = "2e5",
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap replicates for the intervals.")
    ] = 200,
    jobs: JobsOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=with_default(
                "Folder to write (manifest.json, exploitability, final and search tables).",
                "nothing is written; the result is only printed",
            ),
        ),
    ] = None,
) -> None:
    """How much a searched best response gains against a field's mix and its strategies."""
    from zooanalysis.exploit import (
        ExploitRequest,
        families_of,
        lineup_targets,
        run_exploit,
        targets_of,
        with_players,
    )
    from zooanalysis.field import FieldResult
    from zooanalysis.field_setup import check_seats
    from zooanalysis.loading import load_run
    from zooanalysis.storage import check_new_run_path

    field = load_run(field_dir)
    if not isinstance(field, FieldResult):
        raise UserError(f"FIELD_DIR: {field_dir} is not a field folder (zoosim field --out)")
    game = get_game(field.manifest["game"])
    population = parse_lineup(",".join(field.manifest["population"]), game.strategies)
    base = game.settings_from_table(field.manifest["settings"])
    settings = check_seats(game, base, population, int(field.manifest["seats"]))
    chosen = targets_of(field, game, targets) if targets is not None or against is None else []
    if against is not None:
        lineup = parse_lineup(against, game.strategies, "--against")
        seats = int(field.manifest["seats"])
        if len(lineup) != seats:
            raise UserError(
                f"--against: {against!r} has {len(lineup)} seats; the field plays {seats}, "
                "give a lineup of that many"
            )
        population = with_players(population, lineup)
        chosen += lineup_targets(lineup, population)
    if out is not None:
        check_new_run_path(out)
    request = ExploitRequest(
        field=field,
        game=game,
        settings=settings,
        population=population,
        families=families_of(game, strategies),
        targets=chosen,
        games=parse_count(games, "--games"),
        jobs=_jobs(jobs),
        bootstrap=_whole(bootstrap, "--bootstrap", 2),
    )

    def report(text: str) -> None:
        typer.echo(f"  {text}", err=True)

    typer.echo(run_exploit(request, out, report))


@app.command(
    epilog=examples(
        "zoosim psro --population bayes,cautious,aggressive,random --out runs/psro-bluff",
        "zoosim psro --game lucky-lions --iterations 3 --out runs/psro-lions",
    )
)
def psro(
    game_name: GameOption = None,
    scenario_file: RulesScenarioOption = None,
    population: Annotated[
        str | None,
        typer.Option(
            "--population",
            help=with_default("The starting strategies, each once.", "every shipped strategy"),
        ),
    ] = None,
    strategies: Annotated[
        str | None,
        typer.Option(
            "--strategies",
            help=with_default(
                "Strategies whose parameters are searched for best responses.",
                "every strategy of the game with parameters",
            ),
        ),
    ] = None,
    seats: SeatsOption = None,
    games: Annotated[
        str,
        typer.Option(
            "--games", help="Games per field (raised to the fewest a larger field needs)."
        ),
    ] = "1e6",
    search_games: Annotated[
        str, typer.Option("--search-games", help="Games per best-response search.")
    ] = "2e5",
    threshold: Annotated[
        float,
        typer.Option("--threshold", help="Stop when the gain's interval lies below this."),
    ] = 0.005,
    iterations: Annotated[int, typer.Option("--iterations", help="At most this many.")] = 5,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every field.")] = 1,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap replicates for the intervals.")
    ] = 100,
    jobs: JobsOption = None,
    out: Annotated[
        Path,
        typer.Option("--out", help="Folder of the loop; rerun to continue it."),
    ] = Path("runs/psro"),
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help=with_default(
                "Play a restricted game: drop strategies out of the mix that gain nothing "
                "against it; re-check them against every later mix and bring back any that "
                "gains.",
                "off: every strategy stays in the population",
            ),
        ),
    ] = False,
    max_compositions: MaxCompositionsOption = None,
) -> None:
    """Iterated best response: add the best response to the mix until none gains."""
    from zooanalysis.exploit import families_of
    from zooanalysis.field_setup import check_seats, population_from
    from zooanalysis.psro import PsroRequest, run_psro

    game, base = _game_and_settings(game_name, scenario_file)
    players, _ = population_from(game, population, [])
    chosen_seats = seats if seats is not None else len(_default_seats(game))
    settings = check_seats(game, base, players, chosen_seats)
    if not 0 < threshold < 1:
        raise UserError(f"--threshold: {threshold} is not allowed: give a number between 0 and 1")
    request = PsroRequest(
        game=game,
        settings=settings,
        population=players,
        seats=chosen_seats,
        field_games=parse_count(games, "--games"),
        exploit_games=parse_count(search_games, "--search-games"),
        families=families_of(game, strategies),
        threshold=threshold,
        iterations=_whole(iterations, "--iterations", 1),
        seed=_whole(seed, "--seed", 0),
        jobs=_jobs(jobs),
        bootstrap=_whole(bootstrap, "--bootstrap", 2),
        out=out,
        prune=prune,
        max_compositions=_max_compositions(max_compositions),
    )
    def report(text: str) -> None:
        typer.echo(f"  {text}", err=True)

    result = run_psro(request, report)
    typer.echo(result.summary())
    typer.echo(f"\nWritten to {out}/ (load with zooanalysis.load_run({str(out)!r}))")


@app.command(
    epilog=examples(
        "zoosim sweep simulations/sweep-bluff-doubt-vs-points.toml",
        "zoosim sweep simulations/sweep-lucky-lions-variants.toml --out runs/variants",
    )
)
def sweep(
    sweep_file: Annotated[Path, typer.Argument(help="A sweep file (TOML with a [grid]).")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=with_default(
                "Folder for the cells; running the same sweep again there skips finished cells.",
                "runs/sweep-<file name without sweep->",
            ),
        ),
    ] = None,
    jobs: JobsOption = None,
    backend: Annotated[str, typer.Option("--backend", help="threads or processes.")] = "threads",
) -> None:
    """Run one simulation per cell of a grid of rule settings and strategy parameters."""
    from zooanalysis.sweep import load_sweep, run_sweep, sweep_summary

    spec = load_sweep(sweep_file)
    target = out or Path("runs") / f"sweep-{sweep_file.stem.removeprefix('sweep-')}"
    if backend not in ("threads", "processes"):
        raise UserError(f"--backend: unknown backend {backend!r}; allowed are threads, processes")

    def report(done: int, total: int, cell: dict, reused: bool) -> None:
        values = ", ".join(f"{key}={value}" for key, value in cell.items())
        typer.echo(
            f"  cell {done}/{total} {values}: {'already done' if reused else 'done'}", err=True
        )

    run_sweep(spec, target, _jobs(jobs), backend, report)
    typer.echo(sweep_summary(target, sweep_file.name))


@app.command(
    epilog=examples(
        "zoosim tune --strategy bayes --against bayes,cautious,random --games 2e5",
        "zoosim tune --strategy cautious --out runs/tune-cautious",
        "zoosim tune --resume runs/tune-cautious   # continue an interrupted tuning",
    )
)
def tune(
    game_name: GameOption = None,
    strategy: Annotated[
        str | None,
        typer.Option("--strategy", help=with_default("The strategy to tune.", "bayes")),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help=with_default(
                "The fixed lineup of the other seats, e.g. bayes,cautious,random.",
                "the game's default lineup without its first seat",
            ),
        ),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            help=with_default(
                "Games for the whole search and the final comparison; too few for every "
                "candidate to play 200 games in each seat are refused.",
                "2e5",
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help=with_default("Seed that fixes the search.", "1"))
    ] = None,
    jobs: JobsOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=with_default(
                "Folder to write the search and the final comparison to "
                "(manifest.json, search.parquet, final.parquet).",
                "nothing is written; the result is only printed",
            ),
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help=with_default(
                "Continue the interrupted tuning written to this path; give only --jobs "
                "with it.",
                "a new tuning",
            ),
        ),
    ] = None,
) -> None:
    """Search a strategy's parameters for the best response to a fixed lineup."""
    from zooanalysis.storage import CHECKPOINT, reserve_output
    from zooanalysis.tuning import improvement, resume_request, tuning_plan, write_tuning
    from zooanalysis.tuning import tune as run_tune
    from zooanalysis.tuning_resume import COMMAND, start_memo

    if resume is not None:
        fixed = {
            "--game": game_name,
            "--strategy": strategy,
            "--against": against,
            "--games": games,
            "--seed": seed,
            "--out": out,
        }
        _refuse_changes("--resume", fixed, "an interrupted tuning", "--jobs")
        request = resume_request(resume, _jobs(jobs))
        out = resume
    else:
        request = _new_tuning(game_name, strategy, against, games, seed, jobs, out)
    plan = tuning_plan(request)  # refuses too few games before anything is played
    typer.echo(f"Plan: {plan.describe()}.", err=True)

    def report(done: int, rounds: int, alive: int) -> None:
        typer.echo(f"  round {done}/{rounds}: {alive} candidates played", err=True)

    with ExitStack() as stack:  # the output folder is reserved before the search
        folder = None
        memo = None
        if out is not None:
            folder = stack.enter_context(
                reserve_output(
                    out,
                    option="--resume" if resume is not None else "--out",
                    resume=resume is not None,
                    command=COMMAND,
                )
            )
            memo = start_memo(folder, request, DEFAULT_BATCH_SIZE, plan.evaluations)
        search, final = run_tune(request, report, memo)
        gain = improvement(final)
        game = request.game
        typer.echo(
            f"Tuning {request.strategy.name} against "
            f"{', '.join(p.label for p in request.against)} in {game.title} "
            f"({plan.total:,} games, the tuned player in every seat in turn, seed "
            f"{request.seed}):"
        )
        for name, row in final.iterrows():
            typer.echo(
                f"  {name:<8} {row.player:<40} wins {100 * row.rate:.2f}% "
                f"[{100 * row.ci_low:.2f}%, {100 * row.ci_high:.2f}%] (n={int(row.n):,})"
            )
        typer.echo(
            f"Best response gains {100 * gain['gain']:+.2f} percentage points over the "
            f"defaults [{100 * gain['ci_low']:+.2f}, {100 * gain['ci_high']:+.2f}], "
            f"p={gain['p_value']:.2g}: an estimate of how exploitable this lineup is for "
            f"{request.strategy.name} (measured on fresh deals)."
        )
        if folder is not None:
            write_tuning(folder.working, request, search, final)
            folder.finish()
            for leftover in ("request.json", CHECKPOINT):  # after the rename: a crash keeps them
                (folder.path / leftover).unlink(missing_ok=True)
            typer.echo(f"Written to {out}/ (manifest.json, search.parquet, final.parquet)")


def _new_tuning(
    game_name: str | None,
    strategy: str | None,
    against: str | None,
    games: str | None,
    seed: int | None,
    jobs: int | None,
    out: Path | None,
):
    """The request of a new ``zoosim tune``, its output checked (not yet reserved)."""
    from zooanalysis.storage import check_run_can_start
    from zooanalysis.tuning import TuneRequest
    from zooanalysis.tuning_resume import COMMAND

    game = get_game(game_name or "bluff")
    strategy = strategy or "bayes"
    if strategy not in game.strategies:
        raise UserError(
            f"--strategy: unknown strategy {strategy!r}; allowed are {', '.join(game.strategies)}"
        )
    info = game.strategies[strategy]
    if not info.params:
        raise UserError(
            f"--strategy: {strategy} has no parameters to tune; strategies with "
            f"parameters: {', '.join(n for n, i in game.strategies.items() if i.params)}"
        )
    others = (
        parse_lineup(against, game.strategies, "--against")
        if against
        else _default_seats(game)[1:]
    )
    base = _scenario_settings(game, None)
    try:
        game.settings_for_lineup(base, [*others, others[0]])
    except SettingsError as error:
        raise UserError(f"--against: {error}") from None
    total = parse_count("2e5" if games is None else games, "--games")
    if out is not None:
        check_run_can_start(out, COMMAND)
    return TuneRequest(
        game=game,
        settings=base,
        strategy=info,
        against=others,
        games=total,
        seed=_whole(1 if seed is None else seed, "--seed", 0),
        jobs=_jobs(jobs),
    )


@app.command(
    epilog=examples(
        "zoosim strategies --game bluff",
        "zoosim strategies --game zoology",
    )
)
def strategies(
    game_name: Annotated[
        str, typer.Option("--game", help="Game whose strategies to list.")
    ] = "bluff",
) -> None:
    """List a game's strategies with their parameters and defaults."""
    game = get_game(game_name)
    typer.echo(f"Strategies for {game.title} (use as name or name:param=value,...):")
    for info in game.lineup_strategies().values():
        typer.echo(f"\n  {info.name}")
        typer.echo(f"    {info.description}")
        for param in info.params:
            typer.echo(
                f"    {param.name}={format_number(param.default)}  ({param.allowed()}) {param.help}"
            )
        if not info.params:
            typer.echo("    (no parameters)")
    typer.echo(f"\nDefault lineup: {game.default_lineup}")


@app.command(
    epilog=examples(
        "zoosim odds --pile 6",
        "zoosim odds --pile 1..12 --scenario simulations/bluff-no-actions.toml",
    )
)
def odds(
    game_name: Annotated[
        str | None, typer.Option("--game", help=with_default("Game.", "bluff, or the scenario's"))
    ] = None,
    pile: Annotated[
        str, typer.Option("--pile", help="Pile sizes: a range 1..12, a list 3,5,8 or one size.")
    ] = "1..12",
    scenario_file: Annotated[
        Path | None,
        typer.Option(
            "--scenario",
            help=with_default("Scenario file whose deck to use.", "the published rules"),
        ),
    ] = None,
) -> None:
    """Exact chance that a random pile holds at least N animals of the claimed kind."""
    game, settings = _game_and_settings(game_name, scenario_file)
    _refuse_unless_it_has(game, "odds_table", "odds table", "odds", game_name, scenario_file)
    table = game.odds_table(settings, _parse_sizes(pile, "--pile"))
    typer.echo(format_odds(table))


@app.command(
    epilog=examples(
        "zoosim deck --seed 7",
        "zoosim deck --seed 7 --toml > simulations/decks/mine.toml",
    )
)
def deck(
    game_name: Annotated[
        str | None,
        typer.Option("--game", help=with_default("Game.", "lucky-lions, or the scenario's")),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help=with_default("Which print of the generated deck.", "the settings' deck_seed, 1"),
            min=0,
        ),
    ] = None,
    scenario_file: Annotated[
        Path | None,
        typer.Option(
            "--scenario",
            help=with_default("Scenario file whose deck settings to use.", "the published rules"),
        ),
    ] = None,
    as_toml: Annotated[
        bool,
        typer.Option(
            "--toml",
            help=with_default("Print an editable deck file instead of a table.", "a table"),
        ),
    ] = False,
) -> None:
    """Print a generated deck (or the scenario's deck file) with its exact animal strengths."""
    game, settings = _game_and_settings(game_name, scenario_file, "lucky-lions")
    _refuse_unless_it_has(game, "deck_text", "deck generator", "deck", game_name, scenario_file)
    typer.echo(game.deck_text(settings, seed, as_toml))


def _refuse_unless_it_has(
    game: Game, method: str, what: str, command: str, game_name: str | None, scenario_file
) -> None:
    """One ``UserError`` line unless ``game`` has ``method`` (``zoosim odds``, ``deck``):
    naming the option the game came from (``--game``, or the ``--scenario`` file whose game
    it is) and the games the command is for."""
    if getattr(type(game), method) is not getattr(Game, method):
        return
    base = getattr(Game, method)
    able = [name for name in game_names() if getattr(type(get_game(name)), method) is not base]
    allowed = f"zoosim {command} is for {', '.join(able)}"
    if game_name is None and scenario_file is not None:
        raise UserError(
            f"--scenario: {scenario_file} is a {game.name} scenario, and {game.name} has no "
            f"{what}; {allowed} (give a {' or '.join(able)} scenario)"
        )
    raise UserError(f"--game: {game.name} has no {what}; {allowed}")


TERMINAL_WIDTH = 80
"""Tables the CLI prints fit a terminal this wide."""


def format_odds(table, smallest: float = 0.0005, width: int = TERMINAL_WIDTH) -> str:
    """An odds table as percentages, every column up to the last that reaches ``smallest``,
    in blocks of columns that fit ``width`` characters (each block repeats the header)."""
    reachable = [column for column in table.columns if (table[column] >= smallest).any()]
    shown = table.loc[:, : reachable[-1]] if reachable else table
    corner = "pile \\ N"
    cell = 7  # " 100.0%"
    label = max(len(corner), *(len(str(size)) for size in shown.index))
    per_block = max(1, (width - label) // cell)
    lines = [
        "Chance (%) that a random pile of each size (rows) holds at least N animals of",
        "the claimed kind (columns), counting wild, action and stop cards as in a doubt:",
    ]
    columns = list(shown.columns)
    for start in range(0, len(columns), per_block):
        block = columns[start : start + per_block]
        lines += ["", corner.ljust(label) + "".join(f"{c:>{cell}}" for c in block)]
        for size, row in shown[block].iterrows():
            cells = "".join(f"{_percent(row[c], smallest):>{cell}}" for c in block)
            lines.append(f"{size:>{label}}{cells}")
    hidden = len(table.columns) - len(shown.columns)
    if hidden:
        lines.append(
            f"\n(claims of more than {shown.columns[-1]}: under {100 * smallest:.2g}% "
            "for every pile size shown)"
        )
    return "\n".join(lines)


def _percent(p: float, smallest: float) -> str:
    """A chance as ``12.3%``; ``<0.1%`` when it is positive but below ``smallest``."""
    return f"{100 * p:.1f}%" if p >= smallest or p == 0 else "<0.1%"


@app.command(
    epilog=examples(
        "zoosim report runs/NAME                # writes reports/NAME/report.html",
        "zoosim report runs/sweep-bluff-doubt-vs-points -o reports/doubt",
    )
)
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run, tournament or sweep folder.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "-o", "--out", help=with_default("Report folder.", "reports/<folder name>")
        ),
    ] = None,
    skill: Annotated[
        bool,
        typer.Option(
            "--skill/--no-skill",
            help="First measure skill against random players (zoosim skill, with its "
            "default games), for a run; without it the report only reads what is stored.",
        ),
    ] = False,
) -> None:
    """Write a self-contained HTML balance report (plus PNG/SVG figures and CSV tables)."""
    if skill:
        from zooanalysis.report.build import check_report_target, default_report_folder

        check_report_target(out or default_report_folder(run_dir))
        _measure_skill(run_dir, None, None, progress=True)
    _write_report(run_dir, out)


@app.command(
    epilog=examples(
        "zoosim skill runs/NAME                 # then: zoosim report runs/NAME",
        "zoosim skill runs/NAME --games 5000",
    )
)
def skill(
    run_dir: Annotated[Path, typer.Argument(help="A run folder (from zoosim run).")],
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            help=with_default(
                "Deals per strategy, each played once in every seating.", "2,000"
            ),
        ),
    ] = None,
    jobs: JobsOption = None,
    progress: ProgressOption = True,
    search_games: Annotated[
        str | None,
        typer.Option(
            "--search-games",
            help=with_default(
                "Deals for the search player's rung (games with a forward model; slow: a "
                "few games per second), each played once in every seating.", "none"
            ),
        ),
    ] = None,
) -> None:
    """Measure skill or luck: each shipped strategy against random players, for the run's
    rules and number of players (stored in RUN_DIR/skill; zoosim report shows it)."""
    _measure_skill(run_dir, games, jobs, progress, search_games)


def _measure_skill(
    run_dir: Path, games: str | None, jobs: int | None, progress: bool,
    search_games: str | None = None,
) -> None:
    """Play (or reuse) the skill runs of ``run_dir`` and print the skill gaps."""
    from zooanalysis.loading import load_run
    from zooanalysis.report.build import folder_kind
    from zooanalysis.skill import (
        DEFAULT_DEALS,
        play_skill_run,
        search_plan,
        skill_line,
        skill_plan,
        skill_table,
    )

    if folder_kind(run_dir) != "run":
        raise UserError(f"{run_dir}: skill is measured for a run folder (from zoosim run)")
    deals = parse_count(games, "--games") if games is not None else DEFAULT_DEALS
    search_deals = parse_count(search_games, "--search-games") if search_games else 0
    run = load_run(run_dir)
    workers = _jobs(jobs)
    plan = [(strategy, labels, deals) for strategy, labels in skill_plan(run, deals)]
    if search_deals:
        searched = search_plan(run)
        if not searched:
            raise UserError(
                f"--search-games: {run.game}'s forward model cannot play this run's rules (or "
                "it has none), so there is no search rung; leave --search-games out"
            )
        plan += [(strategy, labels, search_deals) for strategy, labels in searched]
    again = " ".join(
        ["zoosim skill", str(run_dir), *(["--games", games] if games else []),
         *(["--search-games", search_games] if search_games else [])]
    )  # fmt: skip
    for strategy, labels, count in plan:
        title = f"{strategy} against random"
        with GameProgress(count * len(labels), title, enabled=progress) as bar:
            play_skill_run(run, strategy, labels, count, workers, bar.advance, again)
    table = skill_table(run_dir)
    typer.echo(
        "Skill gap: win share over a random player's, on the same deals in every seating "
        "(percentage points [95% CI]):"
    )
    for row in table.itertuples():
        typer.echo(skill_line(row))
    typer.echo(f"Stored in {Path(run_dir) / 'skill'}/; zoosim report {run_dir} shows it.")


@app.command(
    epilog=examples(
        "zoosim compare runs/rulebook runs/short-game",
    )
)
def compare(
    run_a: Annotated[Path, typer.Argument(help="Run A (e.g. the published rules).")],
    run_b: Annotated[Path, typer.Argument(help="Run B (e.g. a rule change).")],
    out: Annotated[
        Path | None,
        typer.Option(
            "-o", "--out", help=with_default("Report folder.", "reports/compare-A-vs-B")
        ),
    ] = None,
) -> None:
    """Compare two runs of one game: every metric side by side, B − A with CI and p-value."""
    from zooanalysis.report.compare import build_comparison

    typer.echo(f"Comparison: {build_comparison(run_a, run_b, out)}")


@app.command(
    epilog=examples(
        "zoosim show runs/NAME",
        "zoosim show runs/sweep-bluff-doubt-vs-points",
    )
)
def show(
    run_dir: Annotated[Path, typer.Argument(help="A run, tournament or sweep folder.")],
) -> None:
    """Print the summary of a saved run, tournament or sweep again."""
    from zooanalysis.sweep import is_sweep_folder, sweep_summary

    if is_sweep_folder(run_dir):
        typer.echo(sweep_summary(run_dir))
        return
    from zooanalysis.loading import load_run

    typer.echo(load_run(run_dir).summary())


@app.command(
    epilog=examples(
        "zoosim games",
    )
)
def games() -> None:
    """List the games zoosim can simulate."""
    names = game_names()
    width = max(len(name) for name in names)
    for name in names:
        game = get_game(name)
        typer.echo(f"{name:<{width}}  {game.title} (default lineup {game.default_lineup})")


def _parse_sizes(text: str, option: str) -> list[int]:
    """``"1..12"``, ``"3,5,8"`` or ``"6"`` as a list of positive whole numbers."""
    try:
        if ".." in text:
            low, high = (int(part) for part in text.split("..", 1))
            sizes = list(range(low, high + 1))
        else:
            sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise UserError(
            f"{option}: {text!r} is not allowed: give a range such as 1..12, a "
            "list such as 3,5,8 or one size, all at least 1"
        )
    return sizes


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``zoosim`` command; returns the exit code.

    SIGTERM stops a command as Ctrl-C does (a run keeps its checkpoint).

    Called without ``argv`` (the ``zoosim`` command itself), the process ends with the
    command, so the objects alive at the start, once a run's background import of pandas
    ends (``storage.FREEZE_BACKGROUND_IMPORTS``) and at the end are frozen out of the cyclic
    garbage collector (:func:`gc.freeze`): its full collections, and the one at exit, would
    otherwise scan the hundreds of thousands of numba, pandas and typer objects that live
    until exit anyway (about 0.4 CPU seconds of a short ``zoosim run``). Objects that die
    are still freed by reference counting. Called with ``argv`` (from Python, tests), the
    collector is left alone.
    """
    owns_process = argv is None
    if owns_process:
        gc.freeze()
        storage.FREEZE_BACKGROUND_IMPORTS = True  # the run's pandas import: frozen as well
    try:
        with _sigterm_as_interrupt():
            return _main(argv)
    finally:
        if owns_process:
            gc.freeze()


def _main(argv: list[str] | None) -> int:
    try:
        code = app(args=argv, prog_name="zoosim", standalone_mode=False)
    except UserError as error:
        typer.echo(f"zoosim: error: {_one_line(error)}", err=True)
        return EXIT_USER_ERROR
    except CommandInterruptedError as interrupted:
        typer.echo(f"zoosim: {interrupted}", err=True)
        return EXIT_INTERRUPTED
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("zoosim: interrupted; nothing was written", err=True)
        return EXIT_INTERRUPTED
    except OSError as error:
        if not error.filename:
            raise
        # a file the command needed could not be read or written: the machine's problem,
        # said in one line (zoosim's own writes already say so; this is the safety net)
        typer.echo(f"zoosim: error: {error.filename}: {error.strerror or error}", err=True)
        return EXIT_USER_ERROR
    except Exception as error:
        if not _is_usage_error(error):
            raise
        if type(error).__name__ == "NoArgsIsHelpError":
            typer.echo(error.format_message(), err=True)
            return 0
        message = " ".join(error.format_message().split())
        typer.echo(f"zoosim: error: {message} (see {_help_command(error, argv)})", err=True)
        return EXIT_USER_ERROR
    if code == EXIT_INTERRUPTED:  # typer turns Ctrl-C into this exit code
        typer.echo("zoosim: interrupted; nothing was written", err=True)
    return code if isinstance(code, int) else 0


def _one_line(error: Exception) -> str:
    """An error message on one line (file names and causes may hold newlines)."""
    return " ".join(str(error).split())


def _raise_interrupt(signum: int, _frame) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@contextmanager
def _sigterm_as_interrupt():
    """Make SIGTERM raise KeyboardInterrupt in the main thread for the block (elsewhere,
    where signals cannot be handled, leave it alone)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _help_command(error: Exception, argv: list[str] | None) -> str:
    """``zoosim run --help`` for an error in ``zoosim run``; ``zoosim --help`` otherwise."""
    context = getattr(error, "ctx", None)
    path = getattr(context, "command_path", None)
    if not path or path == "zoosim":  # some parser errors carry no context: read argv
        words = sys.argv[1:] if argv is None else argv
        first = next((word for word in words if not word.startswith("-")), None)
        names = {command.name or command.callback.__name__ for command in app.registered_commands}
        path = f"zoosim {first}" if first in names else "zoosim"
    return f"{path} --help"


def _is_usage_error(error: Exception) -> bool:
    """Whether ``error`` is a command-line parsing error of click or typer's vendored click.

    Recognised by its interface, so it works whichever click typer brings.
    """
    return hasattr(error, "format_message") and hasattr(error, "exit_code")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
