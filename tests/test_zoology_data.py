"""Zoology's data files: the shipped animals and questions, and the checks that name the row
(or question) and field of every mistake in a designer's own files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from zooanalysis.errors import UserError
from zooanalysis.games.zoology import data
from zooanalysis.games.zoology.data import (
    CATEGORIES,
    DEFAULT_ANIMALS,
    DEFAULT_QUESTIONS,
    load_animals,
    load_questions,
    question_scores,
)
from zooanalysis.games.zoology.rules import settings_from_table

HEADER = DEFAULT_ANIMALS.read_text(encoding="utf-8").splitlines()[0]
ROWS = DEFAULT_ANIMALS.read_text(encoding="utf-8").splitlines()[1:]


def write_animals(tmp_path: Path, lines: list[str], header: str = HEADER) -> Path:
    path = tmp_path / "animals.csv"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


def write_questions(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "questions.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_animals_are_forty_in_the_rulebooks_regions() -> None:
    animals = load_animals(DEFAULT_ANIMALS)
    assert len(animals) == 40
    counts = {region: animals.regions.count(region) for region in set(animals.regions)}
    assert counts == {"common": 16, "africa": 6, "america": 6, "asia": 6, "australia": 6}
    assert len(set(animals.ids)) == 40
    for column in ("mass_kg", "length_m", "height_m", "top_speed_kmh", "lifespan_years", "legs"):
        assert column in animals.numeric
    for source in animals.columns["source"]:
        assert source.startswith("https://")


def test_shipped_values_are_plausible() -> None:
    animals = load_animals(DEFAULT_ANIMALS)
    value = {
        column: dict(zip(animals.ids, animals.columns[column], strict=True))
        for column in animals.columns
    }
    assert max(value["mass_kg"], key=value["mass_kg"].get) == "elephant"
    assert max(value["height_m"], key=value["height_m"].get) == "giraffe"
    assert min(value["top_speed_kmh"], key=value["top_speed_kmh"].get) == "sloth"
    assert value["legs"]["honey_bee"] == 6 and value["legs"]["king_cobra"] == 0
    assert value["lays_eggs"]["platypus"] is True
    assert value["can_fly"]["barn_owl"] is True and value["can_fly"]["ostrich"] is False
    assert value["mass_kg"]["mouse"] < value["mass_kg"]["cat"] < value["mass_kg"]["horse"]


def test_shipped_questions_are_seventy_and_refer_to_real_columns() -> None:
    animals = load_animals(DEFAULT_ANIMALS)
    questions = load_questions(DEFAULT_QUESTIONS, animals)
    assert len(questions) == 70
    assert len({q.id for q in questions}) == 70
    for question in questions:
        assert question.attribute in animals.numeric
        assert question.where is None or question.where in animals.columns


def test_scores_pick_the_obvious_answers() -> None:
    animals = load_animals(DEFAULT_ANIMALS)
    questions = load_questions(DEFAULT_QUESTIONS, animals)
    scores = question_scores(animals, questions, 3.0)
    by_id = {q.id: row for row, q in enumerate(questions)}

    def best(card: str, among: list[str]) -> str:
        index = [animals.ids.index(a) for a in among]
        return among[int(np.argmax(scores[by_id[card], index]))]

    assert best("heaviest", ["cat", "horse", "elephant", "pig", "mouse"]) == "elephant"
    assert best("smallest", ["cat", "horse", "elephant", "pig", "mouse"]) == "mouse"
    assert best("fastest", ["horse", "cat", "pig"]) == "horse"
    # a predicate first, then its tie-break: among flyers the fastest, else the fastest
    assert best("flyer_fastest", ["horse", "barn_owl", "honey_bee"]) == "barn_owl"
    assert best("flyer_fastest", ["horse", "cat", "pig"]) == "horse"
    assert best("egg_layer_heaviest", ["elephant", "chicken", "barn_owl"]) == "chicken"


@pytest.mark.parametrize(
    ("row", "replace", "fragments"),
    [
        pytest.param(2, ("4.5", "heavy"), ["row 4 (cat)", "'mass_kg'", "'heavy'"], id="number"),
        pytest.param(2, ("4.5", "-1"), ["row 4 (cat)", "'mass_kg'"], id="negative"),
        pytest.param(
            2, ("carnivore", "meat"), ["row 4 (cat)", "'diet'", "herbivore"], id="category"
        ),
        pytest.param(2, ("town", "city"), ["row 4 (cat)", "'habitat'", "savanna"], id="habitat"),
        pytest.param(
            2,
            (",false,false,true,", ",maybe,false,true,"),
            ["row 4 (cat)", "'can_fly'"],
            id="boolean",
        ),
        pytest.param(
            2, ("cat,Domestic", "dog,Domestic"), ["row 5 (dog)", "'id'", "row 4"], id="duplicate"
        ),
        pytest.param(
            2, (",common,", ",europe,"), ["row 4 (cat)", "'region'", "africa"], id="region"
        ),
        pytest.param(2, (",4,carnivore", ",4.5,carnivore"), ["row 4 (cat)", "'legs'"], id="legs"),
    ],
)
def test_animal_errors_name_row_and_field(tmp_path, row, replace, fragments) -> None:
    lines = list(ROWS)
    old, new = replace
    assert old in lines[row]
    lines[row] = lines[row].replace(old, new, 1)
    path = write_animals(tmp_path, lines)
    with pytest.raises(UserError) as error:
        load_animals(path)
    message = str(error.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message


def test_missing_column_is_named(tmp_path) -> None:
    header = HEADER.replace("top_speed_kmh", "speed")
    path = write_animals(tmp_path, ROWS, header)
    with pytest.raises(UserError, match=r"missing column.*top_speed_kmh"):
        load_animals(path)


QUESTION = """
[[question]]
id = "heaviest"
text = "Who is the heaviest?"
attribute = "mass_kg"
best = "highest"
"""


@pytest.mark.parametrize(
    ("extra", "fragments"),
    [
        pytest.param(
            'attribute = "weight"', ["question 2 (bad)", "'attribute'", "mass_kg"], id="attribute"
        ),
        pytest.param('attribute = "diet"', ["question 2 (bad)", "'attribute'"], id="not-numeric"),
        pytest.param('attribute = "mass_kg"\nbest = "most"', ["'best'", "highest"], id="best"),
        pytest.param('attribute = "mass_kg"\nwhere = "can_fly"', ["'equals'"], id="equals"),
        pytest.param(
            'attribute = "mass_kg"\nwhere = "colour"\nequals = "red"', ["'where'"], id="where"
        ),
        pytest.param(
            'attribute = "mass_kg"\nwhere = "diet"\nequals = "meat"',
            ["'equals'", "carnivore"],
            id="no-match",
        ),
        pytest.param('attribute = "mass_kg"\nhint = "x"', ["'hint'"], id="unknown-field"),
    ],
)
def test_question_errors_name_question_and_field(tmp_path, extra, fragments) -> None:
    best = "" if "best" in extra else 'best = "highest"\n'
    text = QUESTION + f'\n[[question]]\nid = "bad"\ntext = "?"\n{best}{extra}\n'
    path = write_questions(tmp_path, text)
    with pytest.raises(UserError) as error:
        load_questions(path, load_animals(DEFAULT_ANIMALS))
    for fragment in fragments:
        assert fragment in str(error.value)


def test_designer_files_through_settings(tmp_path) -> None:
    animals = write_animals(tmp_path, [r for r in ROWS if ",common," in r][:6])
    questions = write_questions(
        tmp_path, QUESTION + QUESTION.replace("heaviest", "lightest").replace("highest", "lowest")
    )
    settings = settings_from_table(
        {
            "animals_file": str(animals),
            "questions_file": str(questions),
            "players": 2,
            "hand_size": 1,
        }
    )
    assert len(settings.animals) == 6
    assert [q.id for q in settings.questions] == ["heaviest", "lightest"]
    assert settings.scores.shape == (2, 6)


def test_missing_file_is_named(tmp_path) -> None:
    with pytest.raises(UserError, match=r"'animals_file': no such file .* CSV animal table"):
        settings_from_table({"animals_file": str(tmp_path / "none.csv")})


def test_documented_categories_cover_the_shipped_data() -> None:
    animals = load_animals(DEFAULT_ANIMALS)
    for column, allowed in CATEGORIES.items():
        assert set(animals.columns[column]) <= set(allowed)
    assert data.PRIMARY == "common"


def test_a_spreadsheet_export_with_a_byte_order_mark_loads(tmp_path) -> None:
    path = tmp_path / "animals.csv"
    path.write_text("\ufeff" + "\n".join([HEADER, *ROWS]) + "\n", encoding="utf-8")
    assert load_animals(path).ids == load_animals(DEFAULT_ANIMALS).ids
