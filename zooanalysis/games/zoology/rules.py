"""Zoology's rule settings: every rule number of the rulebook, validated.

A scenario file's ``[settings]`` table maps onto :class:`ZoologySettings`; a mistake is a
``SettingsError`` naming the key and what is allowed. The data files (animals, questions)
are settings too, so a designer can swap in their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from zooanalysis.errors import SettingsError, UserError
from zooanalysis.games.zoology.data import (
    DEFAULT_ANIMALS,
    DEFAULT_QUESTIONS,
    REGIONS,
    Animals,
    Question,
    load_animals,
    load_questions,
    predicate_matches,
    question_scores,
)
from zooanalysis.settings import reject_unknown_keys, whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MODES = ("competitive", "cooperative")
WINNERS = ("reached", "most_points")
VOID_QUESTIONS = ("leave_out", "keep")
DEFAULT_TOKENS = (("2", 10), ("3", 12), ("4", 14), ("5", 16), ("6", 18))
"""Guess tokens in the supply by player count: the rulebook gives 10 for 2 and 12 for 3
players; 14, 16 and 18 for 4-6 are our reading (18 tokens are in the box)."""
DEFAULT_NEUTRALS = (("2", 2), ("3", 1))
"""Neutral animals in the 2-3 player variant: "Draw 2 or 1 animal cards (in 2 or 3 player game)"."""


@dataclass(frozen=True)
class ZoologySettings:
    """Every rule number of Zoology. Defaults are the rulebook's competitive game on the
    primary board."""

    players: int = 4
    mode: str = "competitive"
    regions: tuple[str, ...] = ()
    """Secondary boards added to the primary board (any of africa, america, asia, australia)."""
    neutral_animals: bool = False
    """The 2-3 player variant: face-up neutral animals join every vote."""
    neutral_animals_by_players: tuple[tuple[str, int], ...] = DEFAULT_NEUTRALS
    hand_size: int = 3
    points_to_win: int = 5
    points_correct_guess: int = 2
    points_second_chance: int = 1
    guess_tokens: tuple[tuple[str, int], ...] = DEFAULT_TOKENS
    """Tokens in the supply by player count ("2" ... "6")."""
    guess_after_first_turns: bool = True
    """Free guesses open once every player has played one question (token side B)."""
    simultaneous_guess_chance: float = 0.05
    """Free guesses are a race: the first right guess of a window scores and ends it. The
    chance that the next ready guesser still puts its token down at the same moment (and
    scores too, if right); 1 makes every guess of a window simultaneous (the old reading)."""
    gift_token: bool = True
    """Cooperative: a player who guessed right gives one leftover token to a teammate."""
    winners: str = "reached"
    """Who wins when the game ends on points: everyone who reached ``points_to_win`` in that
    last score change shares the win ("reached", the rulebook), or only the most points
    ("most_points", ties all win)."""
    perception_noise: float = 0.25
    """How noisily players judge an answer: the scale of each voter's Gumbel error on an
    animal's standardised score (0.25 makes close calls split the vote)."""
    predicate_weight: float = 3.0
    """Score bonus of animals matching a predicate card, in standard deviations."""
    max_rounds: int = 100
    """Safety cap: a game ends after this many rounds (most points win)."""
    cooperative_grid: bool = False
    """Cooperative: play every player count 2-6 on every board combination (needs 6 seats;
    a k-player cell uses the first k)."""
    animals_file: str = ""
    """The animal table (empty: the shipped data/animals.csv)."""
    questions_file: str = ""
    """The question deck (empty: the shipped data/questions.toml)."""
    question_information: bool = False
    """Measure each played card's expected information about the asker's own animal (the
    questions table's ``information_nats``, the report's "bits when played"). Off by default:
    it is the costliest statistic of a game (no strategy's play depends on it; ``curious``
    and ``team`` compute what they need to choose a card either way); off, those numbers say
    "not measured"."""
    void_questions: str = "leave_out"
    """A card whose condition no animal on the boards in play meets ("Who lives in the
    desert?" on the primary board) would be a plain superlative in disguise: "leave_out" plays
    without such cards on those boards, "keep" plays them anyway (the earlier reading)."""

    @property
    def cooperative(self) -> bool:
        """Whether this is the cooperative game."""
        return self.mode == "cooperative"

    @cached_property
    def animals(self) -> Animals:
        """The animal table (loaded and checked once)."""
        return load_animals(self.animals_file or DEFAULT_ANIMALS)

    @cached_property
    def questions(self) -> tuple[Question, ...]:
        """The question deck (loaded and checked once)."""
        return load_questions(self.questions_file or DEFAULT_QUESTIONS, self.animals)

    @cached_property
    def scores(self) -> np.ndarray:
        """(questions x animals) scores, already divided by the perception noise."""
        raw = question_scores(self.animals, self.questions, self.predicate_weight)
        return raw / self.perception_noise

    @cached_property
    def weights(self) -> np.ndarray:
        """``exp(scores)``: the voting model's weight of each animal for each card."""
        return np.exp(self.scores)

    def board(self, regions: tuple[str, ...] | None = None) -> np.ndarray:
        """Animal indices in play (primary board plus ``regions``, default the settings')."""
        return self.animals.board_animals(self.regions if regions is None else regions)

    def void_cards(self, regions: tuple[str, ...] | None = None) -> tuple[int, ...]:
        """Question cards whose condition no animal on these boards (default: the settings')
        meets."""
        board = self.board(regions)
        return tuple(
            card
            for card, question in enumerate(self.questions)
            if question.where is not None
            and not predicate_matches(self.animals, question)[board].any()
        )

    def deck(self, regions: tuple[str, ...] | None = None) -> np.ndarray:
        """The question cards dealt on these boards (default: the settings'), in card order:
        every card, less the void ones unless ``void_questions = "keep"``."""
        cards = np.arange(len(self.questions), dtype=np.int64)
        if self.void_questions == "keep":
            return cards
        return np.setdiff1d(cards, np.array(self.void_cards(regions), dtype=np.int64))

    def tokens_for(self, players: int) -> int:
        """Guess tokens in the supply for ``players`` players."""
        return dict(self.guess_tokens)[str(players)]

    def neutrals_for(self, players: int) -> int:
        """Neutral animals dealt for ``players`` players (0 unless the variant is on)."""
        if not self.neutral_animals:
            return 0
        return dict(self.neutral_animals_by_players).get(str(players), 0)

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain nested dict (the scenario-file format)."""
        values = asdict(self)
        values["regions"] = list(self.regions)
        values["guess_tokens"] = dict(self.guess_tokens)
        values["neutral_animals_by_players"] = dict(self.neutral_animals_by_players)
        return values


_FIELDS = tuple(ZoologySettings.__dataclass_fields__)
_PLAYER_KEYS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


def _boolean(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(key, f"{value!r} is not true or false")
    return value


def _number(value: Any, key: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise SettingsError(key, f"{value!r} is not a number from {low:g} to {high:g}")
    return float(value)


def _per_players(value: Any, key: str, low: int, high: int, keys: tuple[str, ...]):
    if not isinstance(value, Mapping):
        raise SettingsError(key, "must be a table such as { 2 = 10, 3 = 12 }")
    reject_unknown_keys(value, keys, prefix=f"{key}.")
    return tuple(
        (name, whole_number(value[name], f"{key}.{name}", low, high))
        for name in keys
        if name in value
    )


def _text(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise SettingsError(key, f"{value!r} is not a file path in quotes")
    return value


def settings_from_table(table: Mapping[str, Any]) -> ZoologySettings:
    """Validated settings from a scenario's ``[settings]`` table (``SettingsError`` naming
    the key and the allowed values otherwise)."""
    reject_unknown_keys(table, _FIELDS)
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in ("players", "hand_size", "points_to_win", "points_correct_guess"):
            values[key] = whole_number(
                value, key, MIN_PLAYERS if key == "players" else 1, 6 if key == "players" else 100
            )
        elif key in ("points_second_chance",):
            values[key] = whole_number(value, key, 0, 100)
        elif key == "max_rounds":
            values[key] = whole_number(value, key, 1, 10_000)
        elif key == "mode":
            if value not in MODES:
                raise SettingsError(
                    key, f"{value!r} is not allowed; allowed are {', '.join(MODES)}"
                )
            values[key] = value
        elif key in ("winners", "void_questions"):
            allowed = WINNERS if key == "winners" else VOID_QUESTIONS
            if value not in allowed:
                raise SettingsError(
                    key, f"{value!r} is not allowed; allowed are {', '.join(allowed)}"
                )
            values[key] = value
        elif key == "regions":
            if not isinstance(value, list) or any(r not in REGIONS for r in value):
                raise SettingsError(
                    key, f'{value!r}: give a list of any of {", ".join(REGIONS)}, e.g. ["asia"]'
                )
            if len(set(value)) != len(value):
                raise SettingsError(key, f"{value!r} names a region twice")
            values[key] = tuple(r for r in REGIONS if r in value)
        elif key in (
            "neutral_animals",
            "guess_after_first_turns",
            "gift_token",
            "cooperative_grid",
            "question_information",
        ):
            values[key] = _boolean(value, key)
        elif key == "guess_tokens":
            given = dict(_per_players(value, key, 1, 1000, _PLAYER_KEYS))
            values[key] = tuple((n, given.get(n, d)) for n, d in DEFAULT_TOKENS)
        elif key == "neutral_animals_by_players":
            given = dict(_per_players(value, key, 0, 10, ("2", "3")))
            values[key] = tuple((n, given.get(n, d)) for n, d in DEFAULT_NEUTRALS)
        elif key == "simultaneous_guess_chance":
            values[key] = _number(value, key, 0.0, 1.0)
        elif key == "perception_noise":
            values[key] = _number(value, key, 0.01, 10.0)
        elif key == "predicate_weight":
            values[key] = _number(value, key, 0.0, 50.0)
        elif key in ("animals_file", "questions_file"):
            values[key] = _text(value, key)
    settings = ZoologySettings(**values)
    validate(settings)
    return settings


def validate(settings: ZoologySettings) -> None:
    """Reject settings no game can be played with; loads and checks the data files."""
    whole_number(settings.players, "players", MIN_PLAYERS, MAX_PLAYERS)
    for key in ("animals_file", "questions_file"):
        try:
            getattr(settings, key.removesuffix("_file"))  # loads and checks the file
        except SettingsError:
            raise
        except UserError as error:  # the file's content: name the setting too
            raise SettingsError(key, str(error)) from None
    if settings.mode not in MODES:
        raise SettingsError("mode", f"{settings.mode!r}: allowed are {', '.join(MODES)}")
    counts = (
        range(MIN_PLAYERS, MAX_PLAYERS + 1) if settings.cooperative_grid else [settings.players]
    )
    if settings.cooperative_grid and not settings.cooperative:
        raise SettingsError("cooperative_grid", 'only with mode = "cooperative"')
    region_sets = _region_sets() if settings.cooperative_grid else [settings.regions]
    smallest_board = min(len(settings.board(regions)) for regions in region_sets)
    questions = min(len(settings.deck(regions)) for regions in region_sets)
    left_out = len(settings.questions) - questions
    for players in counts:
        needed = players + settings.neutrals_for(players)
        if smallest_board < needed + 1:
            raise SettingsError(
                "regions",
                f"{players} players (and {settings.neutrals_for(players)} neutral animals) "
                f"need at least {needed + 1} animals on the boards, which hold {smallest_board}",
            )
        if questions < players * settings.hand_size:
            void = (
                f" ({left_out} match no animal on the boards and are left out; "
                'void_questions = "keep" plays them)'
                if left_out
                else ""
            )
            raise SettingsError(
                "hand_size",
                f"hands of {settings.hand_size} for {players} players need "
                f"{players * settings.hand_size} question cards; the deck has {questions}{void}",
            )
        if settings.tokens_for(players) < 1:
            raise SettingsError("guess_tokens", "the supply needs at least one token")


def _region_sets() -> list[tuple[str, ...]]:
    """Every combination of regional boards (16, from none to all four)."""
    sets = []
    for mask in range(1 << len(REGIONS)):
        sets.append(tuple(r for bit, r in enumerate(REGIONS) if mask >> bit & 1))
    return sets


BOARD_COMBINATIONS = tuple(_region_sets())
"""All 16 board combinations: the primary board plus any set of regions."""


def board_label(regions: tuple[str, ...]) -> str:
    """``primary`` or ``primary+africa+asia``."""
    return "+".join(("primary", *regions))


def with_players(settings: ZoologySettings, players: int, regions=None) -> ZoologySettings:
    """The same rules for another player count (and boards)."""
    changes: dict[str, Any] = {"players": players}
    if regions is not None:
        changes["regions"] = tuple(regions)
    return replace(settings, **changes)


def cells(settings: ZoologySettings, players: int) -> list[tuple[int, tuple[str, ...]]]:
    """The (player count, regions) cells a run plays: one, or every cell of the
    cooperative grid (2-6 players x 16 board combinations)."""
    if settings.cooperative_grid:
        return [
            (count, regions)
            for count in range(MIN_PLAYERS, MAX_PLAYERS + 1)
            for regions in BOARD_COMBINATIONS
        ]
    return [(players, settings.regions)]
