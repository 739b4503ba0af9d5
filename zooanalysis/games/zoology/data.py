"""Zoology's replaceable data: the animal table (``animals.csv``) and the question deck
(``questions.toml``), loaded and checked.

Every problem is a ``UserError`` naming the file, the row (or question) and the field, so a
designer who swaps in their own files sees exactly what to fix.

Columns of the animal table (units in the names; extra columns are allowed and may be used
by questions):

* ``id`` (unique short name), ``name``, ``region`` (``common`` for the primary board, or
  ``africa``, ``america``, ``asia``, ``australia``), ``source`` (a citation, e.g. a URL);
* numbers: ``mass_kg``, ``length_m`` (head and body; snakes and reptiles: total length),
  ``height_m`` (standing or shoulder height), ``top_speed_kmh``, ``lifespan_years``,
  ``legs`` (the legs it has: apes 2, like birds; snakes and dolphins 0);
* categories: ``diet`` (herbivore, carnivore, omnivore), ``habitat`` (savanna, grassland,
  forest, rainforest, desert, mountains, wetland, ocean, farm, town), ``activity`` (diurnal,
  nocturnal, crepuscular, cathemeral), optional ``class`` (mammal, bird, reptile, amphibian,
  fish, insect) and ``coat_pattern`` (plain, striped, spotted, patched);
* yes/no (``true``/``false``): ``can_fly`` (sustained flight: chickens and ostriches
  cannot), ``can_swim`` (hippos walk along the bottom: false), ``can_climb`` (trees, rocks
  or walls), optional ``lays_eggs``, ``domesticated`` (lives with people, as a pet or on the
  farm: honey bees, kept in hives but wild in their ways, do not) and ``walks_on_two_legs``
  (walks upright on its two legs: birds that walk, kangaroos; gorillas and orangutans walk on
  all fours, hummingbirds cannot walk).

One basis for every animal, so that a card compares like with like:

* ``top_speed_kmh``: the top speed of its own way of getting about, in a short burst:
  running (or crawling) on land for every animal that moves on land, level flight for the
  animals that fly (not a dive), swimming only for the dolphin, which cannot leave the water.
  So the alligator's 18 is its run, not its 32 km/h swim, and the bald eagle's 70 its flight,
  not its 120-160 km/h dive.
* ``lifespan_years``: the typical lifespan of an adult (in the wild; domestic animals as
  pets or working animals), not the longest known; where the source gives a range, about its
  middle.

Values are typical adults from the cited source (one URL per row in ``source``); a value that
rests on another source, or was corrected, is listed with its own URL in ``sources.csv``
(columns ``id``, ``column``, ``value``, ``basis``, ``source``; the tests hold it equal to the
table). A designer's table may hold any animals and extra columns, and questions may use
them.
"""

from __future__ import annotations

import csv
import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from zooanalysis.errors import SettingsError, UserError

DATA_FOLDER = Path(__file__).parent / "data"
DEFAULT_ANIMALS = DATA_FOLDER / "animals.csv"
DEFAULT_QUESTIONS = DATA_FOLDER / "questions.toml"
DEFAULT_SOURCES = DATA_FOLDER / "sources.csv"

PRIMARY = "common"
REGIONS = ("africa", "america", "asia", "australia")
NUMERIC_COLUMNS = ("mass_kg", "length_m", "height_m", "top_speed_kmh", "lifespan_years", "legs")
POSITIVE_COLUMNS = ("mass_kg", "length_m", "height_m", "top_speed_kmh", "lifespan_years")
"""Judged on a log scale (people compare sizes and speeds by ratio), so they must be > 0."""
CATEGORIES = {
    "region": (PRIMARY, *REGIONS),
    "diet": ("herbivore", "carnivore", "omnivore"),
    "habitat": (
        "savanna",
        "grassland",
        "forest",
        "rainforest",
        "desert",
        "mountains",
        "wetland",
        "ocean",
        "farm",
        "town",
    ),
    "activity": ("diurnal", "nocturnal", "crepuscular", "cathemeral"),
    "class": ("mammal", "bird", "reptile", "amphibian", "fish", "insect"),
    "coat_pattern": ("plain", "striped", "spotted", "patched"),
}
BOOLEAN_COLUMNS = (
    "can_fly",
    "can_swim",
    "can_climb",
    "lays_eggs",
    "domesticated",
    "walks_on_two_legs",
)
REQUIRED_COLUMNS = (
    "id",
    "name",
    "region",
    *NUMERIC_COLUMNS,
    "diet",
    "habitat",
    "activity",
    "can_fly",
    "can_swim",
    "can_climb",
    "source",
)
QUESTION_KEYS = ("id", "text", "attribute", "best", "where", "equals")
BEST = ("highest", "lowest")


@dataclass(frozen=True)
class Animals:
    """The animal table: ids, names, regions and every column's values (typed)."""

    path: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    regions: tuple[str, ...]
    columns: dict[str, tuple]
    """Column name -> one value per animal: float for numbers, bool for yes/no, else str."""
    numeric: tuple[str, ...]
    """Columns whose every value is a number (usable as a question's ``attribute``)."""

    def __len__(self) -> int:
        return len(self.ids)

    def __hash__(self) -> int:
        return hash(self.path)

    def board_animals(self, regions: tuple[str, ...]) -> np.ndarray:
        """Indices of the animals on the primary board plus the given regional boards."""
        wanted = {PRIMARY, *regions}
        return np.array(
            [i for i, region in enumerate(self.regions) if region in wanted], dtype=np.int64
        )


@dataclass(frozen=True)
class Question:
    """One question card: a superlative on ``attribute``, optionally after a predicate."""

    id: str
    text: str
    attribute: str
    best: str
    where: str | None = None
    equals: object = None


def _fail(path: Path, where: str, field: str, problem: str) -> UserError:
    return UserError(f"{path}: {where}, field '{field}': {problem}")


def _parse_bool(text: str) -> bool | None:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "1"):
        return True
    if lowered in ("false", "no", "0"):
        return False
    return None


def _parse_number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _shipped(path: Path) -> str:
    """A shipped data file as the package path a user can find it at."""
    return "/".join(path.parts[-5:])


def load_animals(path: str | Path = DEFAULT_ANIMALS) -> Animals:
    """Read and check an animal table; ``UserError`` naming the row and field otherwise.

    Read once per file version (a changed file is read again)."""
    path = Path(path)
    if not path.is_file():
        raise SettingsError(
            "animals_file",
            f"no such file {str(path)!r} (paths are from the folder zoosim runs in); give a CSV "
            f"animal table with the columns of the shipped {_shipped(DEFAULT_ANIMALS)}, or "
            "leave animals_file out to play with that one",
        )
    return _load_animals(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=16)
def _load_animals(name: str, _version: int) -> Animals:
    path = Path(name)
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:  # Excel adds a BOM
            reader = csv.DictReader(handle)
            header = [name.strip() for name in (reader.fieldnames or [])]
            records = [
                {key.strip(): (value or "").strip() for key, value in row.items() if key}
                for row in reader
            ]
    except (UnicodeDecodeError, csv.Error) as error:
        raise UserError(f"{path}: not a readable UTF-8 CSV file ({error})") from None
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    if missing:
        raise UserError(
            f"{path}: missing column(s) {', '.join(missing)}; required are "
            f"{', '.join(REQUIRED_COLUMNS)}"
        )
    if len(records) < 2:
        raise UserError(f"{path}: needs at least 2 animals, found {len(records)}")
    columns: dict[str, list] = {name: [] for name in header}
    seen: dict[str, int] = {}
    for number, record in enumerate(records, start=2):  # line 1 is the header
        where = f"row {number} ({record.get('id') or 'no id'})"
        for name in header:
            text = record.get(name, "")
            if text == "" and (name in REQUIRED_COLUMNS or name in CATEGORIES):
                raise _fail(path, where, name, "is empty")
            value: object = text
            if name in NUMERIC_COLUMNS:
                value = _parse_number(text)
                if value is None or value < 0:
                    raise _fail(path, where, name, f"{text!r} is not a number of at least 0")
                if name in POSITIVE_COLUMNS and value <= 0:
                    raise _fail(path, where, name, f"{text!r} must be greater than 0")
                if name == "legs" and not float(value).is_integer():
                    raise _fail(path, where, name, f"{text!r} is not a whole number")
            elif name in BOOLEAN_COLUMNS:
                value = _parse_bool(text)
                if value is None:
                    raise _fail(path, where, name, f"{text!r} is not true or false")
            elif name in CATEGORIES and text not in CATEGORIES[name]:
                raise _fail(
                    path,
                    where,
                    name,
                    f"{text!r} is not allowed; allowed are {', '.join(CATEGORIES[name])}",
                )
            columns[name].append(value)
        identifier = record["id"]
        if identifier in seen:
            raise _fail(
                path, where, "id", f"{identifier!r} is already used in row {seen[identifier]}"
            )
        seen[identifier] = number
    numeric = [name for name in header if name in NUMERIC_COLUMNS]
    for name in header:
        if name in NUMERIC_COLUMNS or name in BOOLEAN_COLUMNS or name in CATEGORIES:
            continue
        if name in ("id", "name", "source"):
            continue
        values = [_parse_number(text) for text in columns[name]]
        if all(value is not None for value in values):
            columns[name] = values
            numeric.append(name)
    return Animals(
        path=str(path),
        ids=tuple(columns["id"]),
        names=tuple(columns["name"]),
        regions=tuple(columns["region"]),
        columns={name: tuple(values) for name, values in columns.items()},
        numeric=tuple(numeric),
    )


def load_questions(path: str | Path, animals: Animals) -> tuple[Question, ...]:
    """Read and check a question deck against the animal table's columns (once per file
    version)."""
    path = Path(path)
    if not path.is_file():
        raise SettingsError(
            "questions_file",
            f"no such file {str(path)!r} (paths are from the folder zoosim runs in); give a "
            f"TOML question deck laid out as the shipped {_shipped(DEFAULT_QUESTIONS)}, or "
            "leave questions_file out to play with that one",
        )
    return _load_questions(str(path), path.stat().st_mtime_ns, animals)


@lru_cache(maxsize=16)
def _load_questions(name: str, _version: int, animals: Animals) -> tuple[Question, ...]:
    path = Path(name)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path}: not valid TOML ({error})") from None
    extra = [key for key in data if key != "question"]
    if extra:
        raise UserError(f"{path}: unknown key '{extra[0]}'; write each card as [[question]]")
    entries = data.get("question", [])
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{path}: no question cards; write each card as [[question]]")
    questions = []
    ids: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        where = f"question {number} ({entry.get('id', 'no id')})"
        for key in entry:
            if key not in QUESTION_KEYS:
                raise _fail(
                    path, where, key, f"unknown field; allowed are {', '.join(QUESTION_KEYS)}"
                )
        for key in ("id", "text", "attribute", "best"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise _fail(path, where, key, "is missing or not text")
        if entry["id"] in ids:
            raise _fail(path, where, "id", f"{entry['id']!r} is used by another question")
        ids.add(entry["id"])
        if entry["attribute"] not in animals.numeric:
            raise _fail(
                path,
                where,
                "attribute",
                f"{entry['attribute']!r} is not a numeric column of {animals.path}; "
                f"allowed are {', '.join(animals.numeric)}",
            )
        if entry["best"] not in BEST:
            raise _fail(path, where, "best", f"{entry['best']!r}: allowed are highest, lowest")
        if ("where" in entry) != ("equals" in entry):
            field = "equals" if "where" in entry else "where"
            raise _fail(path, where, field, "give both 'where' and 'equals', or neither")
        column = entry.get("where")
        if column is not None:
            if column not in animals.columns or column in ("id", "name", "source"):
                raise _fail(path, where, "where", f"{column!r} is not a column of {animals.path}")
            if not any(_matches(value, entry["equals"]) for value in animals.columns[column]):
                raise _fail(
                    path,
                    where,
                    "equals",
                    f"no animal has {column} = {entry['equals']!r}; values in the table are "
                    f"{', '.join(sorted({str(v) for v in animals.columns[column]}))}",
                )
        questions.append(
            Question(
                id=entry["id"],
                text=entry["text"],
                attribute=entry["attribute"],
                best=entry["best"],
                where=column,
                equals=entry.get("equals"),
            )
        )
    return tuple(questions)


def _matches(value: object, wanted: object) -> bool:
    """Whether a table value equals a question's ``equals`` (numbers compare as numbers)."""
    if isinstance(value, bool) or isinstance(wanted, bool):
        return isinstance(value, bool) and isinstance(wanted, bool) and value == wanted
    if isinstance(value, float) and isinstance(wanted, int | float):
        return value == float(wanted)
    return value == wanted


def predicate_matches(animals: Animals, question: Question) -> np.ndarray:
    """Per animal: whether it meets the card's condition (``where == equals``); all True for
    a plain superlative."""
    if question.where is None:
        return np.ones(len(animals), dtype=np.bool_)
    return np.array(
        [_matches(value, question.equals) for value in animals.columns[question.where]],
        dtype=np.bool_,
    )


def attribute_scale(animals: Animals, column: str) -> np.ndarray:
    """A column on the scale people judge it: log10 if every value is > 0, then standardised
    over the whole table (mean 0, standard deviation 1)."""
    values = np.asarray(animals.columns[column], dtype=np.float64)
    if np.all(values > 0):
        values = np.log10(values)
    spread = values.std()
    return (values - values.mean()) / (spread if spread > 0 else 1.0)


def question_scores(
    animals: Animals, questions: tuple[Question, ...], predicate_weight: float
) -> np.ndarray:
    """(questions x animals) how well each animal answers each card: the standardised
    attribute (negated for "lowest"), plus ``predicate_weight`` where the predicate holds."""
    scores = np.zeros((len(questions), len(animals)), dtype=np.float64)
    for row, question in enumerate(questions):
        scale = attribute_scale(animals, question.attribute)
        scores[row] = scale if question.best == "highest" else -scale
        if question.where is not None:
            scores[row] += predicate_weight * predicate_matches(animals, question)
    return scores
