"""A field as a lineup: ``zoosim run --players field:FOLDER``.

Every seat of every game draws its strategy from the field's equilibrium mix, independently
(so every balance metric of a run can be reported under equilibrium play). The draw for
seat ``s`` of game ``g`` of a batch depends only on the batch seed, ``g`` and ``s`` (a
counter-based hash, not the game's own random stream), so the deals are those of any other
run with the seed, and results do not depend on chunks, workers or backend. A batch is
played as runs of consecutive games that drew the same lineup, each by that lineup's own
batch job; counts add up and rows stay in game order. The seats of such a run are labelled
``field``; the manifest records the field folder, its population, the mix and the field's
provenance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from zooanalysis.errors import UserError
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.strategy_spec import PlayerSpec, parse_player

PREFIX = "field:"
LABEL = "field"
MIN_WEIGHT = 1e-4
"""Mix weights below this are dropped (and the rest renormalised): solver dust."""
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def is_field_lineup(text: str | None) -> bool:
    """Whether ``--players`` names a field (``field:FOLDER``)."""
    return text is not None and text.strip().lower().startswith(PREFIX)


@dataclass(frozen=True)
class FieldMix:
    """A field's equilibrium mix as a source of players."""

    path: str
    players: tuple[PlayerSpec, ...]
    weights: tuple[float, ...]
    seats: int
    provenance: dict[str, Any] = field(default_factory=dict, compare=False)

    def record(self) -> dict[str, Any]:
        """What fixes the draws (for the run's request and manifest)."""
        return {
            "path": self.path,
            "population": [p.label for p in self.players],
            "weights": list(self.weights),
            "seats": self.seats,
        }

    def describe(self) -> dict[str, Any]:
        """The record plus where the field came from (its creation, request, population)."""
        return {**self.record(), **self.provenance}


def lineup_of(mix: FieldMix) -> list[PlayerSpec]:
    """The run's lineup: every seat labelled ``field``."""
    return [PlayerSpec(strategy=LABEL)] * mix.seats


def load_field_mix(text: str, game: Game) -> FieldMix:
    """The mix of the field folder named by ``field:FOLDER``; ``UserError`` for anything
    that is not a finished field of this game."""
    from zooanalysis.field import FieldResult
    from zooanalysis.loading import load_run

    name = text.strip()[len(PREFIX) :].strip()
    path = Path(name)
    if not name or not path.is_dir():
        raise UserError(
            f"--players: {text!r} names no folder; give field:FOLDER with a folder written "
            "by zoosim field"
        )
    try:
        result = load_run(path)
    except UserError as error:
        raise UserError(f"--players: {error}") from None
    if not isinstance(result, FieldResult):
        raise UserError(f"--players: {path} is not a field folder (written by zoosim field)")
    if result.manifest["game"] != game.name:
        raise UserError(
            f"--players: {path} is a field of {result.manifest['game']}, not {game.name}"
        )
    weights = result.mix()
    labels = [label for label, weight in weights.items() if weight >= MIN_WEIGHT]
    total = sum(weights[label] for label in labels)
    return FieldMix(
        path=str(path),
        players=tuple(parse_player(label, game.strategies) for label in labels),
        weights=tuple(weights[label] / total for label in labels),
        seats=int(result.manifest["seats"]),
        provenance={
            "field_created": result.manifest.get("created"),
            "field_request_sha256": result.manifest.get("request_sha256"),
            "field_population": list(result.manifest["population"]),
            "field_nash_conv": result.manifest["solution"]["nash_conv"],
            "field_sources": list(result.manifest.get("sources") or []),
        },
    )


def mix_from_record(record: dict[str, Any], game: Game) -> FieldMix:
    """A mix rebuilt from a run's request record (resuming)."""
    return FieldMix(
        path=record["path"],
        players=tuple(parse_player(label, game.strategies) for label in record["population"]),
        weights=tuple(float(w) for w in record["weights"]),
        seats=int(record["seats"]),
    )


def uniforms(batch_seed: int, first_game: int, games: int, seats: int) -> np.ndarray:
    """(games x seats) uniform draws in [0, 1), a hash (splitmix64) of the batch seed, the
    game's number in its batch and the seat: the same whichever chunk plays the game."""
    game = np.arange(first_game, first_game + games, dtype=np.uint64)[:, None]
    seat = np.arange(seats, dtype=np.uint64)[None, :]
    with np.errstate(over="ignore"):
        z = (
            np.uint64(batch_seed % 2**64)
            + (game * np.uint64(seats) + seat + np.uint64(1)) * _GOLDEN
        )
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(2**53)


@dataclass(frozen=True, eq=False)  # hashed by identity, as task queues need
class MixedBatch:
    """Plays a batch with every seat's strategy drawn from a mix, game by game.

    Adds ``field_draws`` (seats x strategies of the mix): how many games each seat played
    each strategy, so the draws can be checked against the mix.
    """

    game: Game
    settings: Any
    mix: FieldMix
    with_rows: bool
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    def _job(self, choice: tuple[int, ...]):
        if choice not in self.cache:
            lineup = [self.mix.players[i] for i in choice]
            self.cache[choice] = self.game.batch_job(self.settings, lineup, self.with_rows)
        return self.cache[choice]

    def __call__(self, batch_seed: int, n_games: int, first_game: int = 0) -> BatchResult:
        """Games ``first_game .. first_game + n_games - 1`` of the batch, each with its
        drawn lineup (see the module docstring)."""
        seats = self.mix.seats
        cumulative = np.cumsum(self.mix.weights)
        cumulative[-1] = math.inf  # rounding never draws past the last strategy
        choice = np.searchsorted(cumulative, uniforms(batch_seed, first_game, n_games, seats),
                                 side="right")  # fmt: skip
        changes = np.flatnonzero(np.any(choice[1:] != choice[:-1], axis=1)) + 1
        starts = np.concatenate([[0], changes])
        ends = np.concatenate([changes, [n_games]])
        counts: BatchResult = {}
        rows: dict[str, list[np.ndarray]] = {}
        for start, end in zip(starts, ends, strict=True):
            part = self._job(tuple(int(i) for i in choice[start]))(
                batch_seed, int(end - start), first_game=first_game + int(start)
            )
            for key, value in part.items():
                if key.startswith("row_"):
                    rows.setdefault(key, []).append(value)
                elif key in counts:
                    counts[key] = counts[key] + value
                else:
                    counts[key] = value.copy()
        draws = np.zeros((seats, len(self.mix.players)), dtype=np.int64)
        for seat in range(seats):
            draws[seat] = np.bincount(choice[:, seat], minlength=len(self.mix.players))
        counts["field_draws"] = draws
        for key, parts in rows.items():
            counts[key] = np.concatenate(parts)
        return counts
