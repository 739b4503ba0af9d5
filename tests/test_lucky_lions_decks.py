"""Tests for Lucky Lions decks: the publisher's generator, Animal Cards and deck files."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from zooanalysis.errors import SettingsError, UserError
from zooanalysis.games.lucky_lions.cards import (
    ANIMALS,
    SPECIAL_ANIMALS_NEEDED,
    SPECIAL_TYPES,
    AnimalCard,
    ZooCard,
)
from zooanalysis.games.lucky_lions.decks import (
    PUBLISHED_ANIMAL_CARDS,
    DeckSpec,
    ceil_counts,
    deck_from_toml,
    deck_statistics,
    deck_to_toml,
    describe_deck,
    generate_animal_cards,
    generate_zoo_cards,
    js_round,
    special_text,
)

EXAMPLE = (
    Path(__file__).resolve().parent.parent / "simulations" / "decks" / "lucky-lions-example.toml"
)
DEFAULT = DeckSpec()
BUSY = DeckSpec(busy_zoo=True)
MANY_SEEDS = range(400)


def animal_counts(cards: list[ZooCard]) -> list[int]:
    """On how many cards each animal appears."""
    return [sum(1 for c in cards if i in c.cycle) for i in range(len(ANIMALS))]


# --- the generator -----------------------------------------------------------------------------


def test_same_seed_same_deck_and_different_seeds_differ() -> None:
    assert generate_zoo_cards(BUSY, 7) == generate_zoo_cards(BUSY, 7)
    assert generate_zoo_cards(DEFAULT, 7) == generate_zoo_cards(BUSY, 7)[:26]
    assert generate_zoo_cards(DEFAULT, 7) != generate_zoo_cards(DEFAULT, 8)
    sequence = np.random.SeedSequence(7)
    assert generate_zoo_cards(DEFAULT, sequence) == generate_zoo_cards(
        DEFAULT, np.random.SeedSequence(7)
    )


def test_rounding_helpers_follow_javascript_on_exact_decimals() -> None:
    assert ceil_counts(DEFAULT.base_cycle_sizes, 26) == {2: 2, 3: 7, 4: 12, 5: 7}
    assert ceil_counts(DEFAULT.point_shares, 26) == {1: 11, 2: 11, 3: 6}
    assert ceil_counts(DEFAULT.busy_cycle_sizes, 13) == {3: 2, 4: 5, 5: 7}
    assert ceil_counts({3: 0.07}, 100) == {3: 7}  # JavaScript's floats would give 8
    assert js_round(0.25 * 26) == 7 and js_round(0.25 * 13) == 3 and js_round(2.4) == 2


def test_default_deck_structure() -> None:
    size_ceils = ceil_counts(DEFAULT.base_cycle_sizes, 26)
    point_ceils = ceil_counts(DEFAULT.point_shares, 26)
    for seed in range(50):
        cards = generate_zoo_cards(DEFAULT, seed)
        assert len(cards) == 26
        sizes = Counter(len(c.cycle) for c in cards)
        # the 26 sizes used are 26 of the 28 listed: 2 listed entries are left over
        assert all(sizes[s] <= size_ceils[s] for s in sizes)
        assert sum(size_ceils[s] - sizes[s] for s in size_ceils) == 2
        points = Counter(c.points for c in cards)
        assert all(points[p] <= point_ceils[p] for p in points)
        assert sum(point_ceils[p] - points[p] for p in point_ceils) == 2
        assert sum(c.people for c in cards) == 7
        for card in cards:
            assert 2 <= len(card.cycle) <= 5
            assert len(set(card.cycle)) == len(card.cycle)
            assert card.special is None and card.special_animals == ()


def test_animal_pool_is_balanced_within_one_at_every_seed() -> None:
    # Cycles are consecutive windows of one permutation repeated, so the animals used are a
    # prefix of that repetition: every animal is on floor(L/5) or ceil(L/5) cards.
    for seed in MANY_SEEDS:
        cards = generate_zoo_cards(BUSY, seed)
        for group in (cards[:26], cards[26:]):
            counts = animal_counts(group)
            total = sum(len(c.cycle) for c in group)
            assert sum(counts) == total
            assert set(counts) <= {total // 5, math.ceil(total / 5)}
        assert max(animal_counts(cards)) - min(animal_counts(cards)) <= 2


def test_mean_shares_approach_the_ceil_lists() -> None:
    # each of the 28 listed sizes (and points) is equally likely to be one of the 2 unused
    sizes = Counter()
    points = Counter()
    for seed in MANY_SEEDS:
        cards = generate_zoo_cards(DEFAULT, seed)
        sizes.update(len(c.cycle) for c in cards)
        points.update(c.points for c in cards)
    n = 26 * len(MANY_SEEDS)
    for size, count in ceil_counts(DEFAULT.base_cycle_sizes, 26).items():
        assert sizes[size] / n == pytest.approx(count / 28, abs=0.01)
    for value, count in ceil_counts(DEFAULT.point_shares, 26).items():
        assert points[value] / n == pytest.approx(count / 28, abs=0.01)
    # the nominal 45% of 4-cycles is not what the printed decks have
    assert sizes[4] / n < 0.44


def test_busy_zoo_cards() -> None:
    type_counts = Counter()
    for seed in range(100):
        busy = generate_zoo_cards(BUSY, seed)[26:]
        assert len(busy) == 13
        kinds = Counter(c.special for c in busy)
        # 18 types listed (3 of each) for 13 cards: a type is on 0-3 cards
        assert sum(kinds.values()) == 13 and set(kinds) <= set(SPECIAL_TYPES)
        assert all(count <= 3 for count in kinds.values())
        assert sum(3 - kinds[t] for t in SPECIAL_TYPES) == 5
        type_counts.update(kinds)
        assert Counter(len(c.cycle) for c in busy)[2] == 0
        for card in busy:
            assert len(set(card.cycle)) == len(card.cycle)
            assert len(card.special_animals) == SPECIAL_ANIMALS_NEEDED.get(card.special, 0)
            assert len(set(card.special_animals)) == len(card.special_animals)
            if card.special == "extra_rule":
                assert not card.people
            if card.special == "player_exclude":
                assert card.people
    assert all(type_counts[t] / 100 == pytest.approx(13 / 6, abs=0.35) for t in SPECIAL_TYPES)


def test_animal_cards() -> None:
    base = generate_animal_cards(DEFAULT)
    assert len(base) == 33 and not any(c.wild for c in base)
    assert Counter(c.animal for c in base) == {0: 9, 1: 6, 2: 6, 3: 6, 4: 6}
    with_wild = generate_animal_cards(DeckSpec(wild_animals=True))
    wild = [c for c in with_wild if c.wild]
    assert len(with_wild) == 43 and len(wild) == 10
    assert Counter(c.animal for c in wild) == dict.fromkeys(range(5), 2)
    assert generate_animal_cards(DeckSpec(animal_cards={"lion": 1})).count(AnimalCard(1)) == 6


def test_spec_settings_are_used_and_checked() -> None:
    spec = DeckSpec(base_zoo_cards=10, base_cycle_sizes={5: 1.0}, people_icon_share=0.0)
    cards = generate_zoo_cards(spec, 3)
    assert len(cards) == 10 and all(len(c.cycle) == 5 and not c.people for c in cards)
    with pytest.raises(SettingsError, match="base_cycle_sizes"):
        DeckSpec(base_cycle_sizes={3: 0.5})
    with pytest.raises(SettingsError, match=r"base_cycle_sizes\.6"):
        DeckSpec(base_cycle_sizes={6: 1.0})
    with pytest.raises(SettingsError, match="people_icon_share"):
        DeckSpec(people_icon_share=1.5)
    with pytest.raises(SettingsError, match=r"animal_cards\.tiger"):
        DeckSpec(animal_cards={"tiger": 3})
    with pytest.raises(SettingsError, match="busy_special_types"):
        DeckSpec(busy_special_types=("autowin", "jump"))


# --- describing --------------------------------------------------------------------------------


def test_describe_and_statistics() -> None:
    cards, _, _ = deck_from_toml(EXAMPLE)
    text = describe_deck(cards)
    lines = text.splitlines()
    assert len(lines) == 2 + len(cards) + 1
    assert "lion -> fox -> panda" in lines[2]
    assert "lion always wins; everything else is a tie" in text
    assert "flamingo always loses" in text
    assert "fox beats lion if only those animals are played" in text
    assert "only use 4 cards for your die" in text
    assert "all battlers roll twice and keep one" in text
    assert "pick one player who does not roll" in text
    assert special_text(cards[0]) == ""

    stats = deck_statistics(generate_zoo_cards(DEFAULT, 1))
    assert set(stats.columns) == {"category", "value", "count", "share"}
    for category in ("cycle size", "points", "people icon", "special"):
        part = stats[stats.category == category]
        assert part["count"].sum() == 26 and part["share"].sum() == pytest.approx(1.0)
    people = stats[(stats.category == "people icon") & (stats.value == "yes")]
    assert people["count"].item() == 7
    animals = stats[stats.category == "animal"]
    assert list(animals.value) == list(ANIMALS)
    assert animals["count"].max() - animals["count"].min() <= 1


# --- deck files --------------------------------------------------------------------------------


def test_example_file_loads() -> None:
    cards, animals, wild = deck_from_toml(EXAMPLE)
    assert len(cards) == 9
    assert animals == PUBLISHED_ANIMAL_CARDS
    assert wild == {"lion": 2, "fox": 2, "panda": 2, "flamingo": 1, "dolphin": 1}
    assert cards[0] == ZooCard((0, 1, 2), 1)
    assert {c.special for c in cards} == {None, *SPECIAL_TYPES}
    assert cards[6] == ZooCard((4, 2, 1), 3, False, "extra_rule", (1, 0))


def test_round_trip(tmp_path: Path) -> None:
    for cards, animals, wild in (
        deck_from_toml(EXAMPLE),
        (generate_zoo_cards(BUSY, 5), {"lion": 12, "fox": 0}, None),
    ):
        path = tmp_path / "deck.toml"
        path.write_text(deck_to_toml(cards, animals, wild), encoding="utf-8")
        again, animals_again, wild_again = deck_from_toml(path)
        assert again == cards
        assert animals_again == {**PUBLISHED_ANIMAL_CARDS, **animals}
        assert wild_again == {**dict.fromkeys(ANIMALS, 0), **(wild or {})}


CARD = 'cycle = ["lion", "fox", "panda"]\npoints = 2\n'


def load_error(tmp_path: Path, text: str, error: type[Exception] = SettingsError) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error) as info:
        deck_from_toml(path)
    message = str(info.value)
    assert "\n" not in message and "bad.toml" in message
    return message


def second_card(body: str) -> str:
    return f"[[zoo_card]]\n{CARD}\n[[zoo_card]]\n{body}"


@pytest.mark.parametrize(
    ("body", "key", "words"),
    [
        ('cycle = ["lion", "tiger"]\npoints = 1', "cycle", ["tiger", "flamingo"]),
        ('cycle = ["lion", "fox", "lion"]\npoints = 1', "cycle", ["lion", "distinct"]),
        ('cycle = ["lion"]\npoints = 1', "cycle", ["2 to 5"]),
        ('cycle = "lion"\npoints = 1', "cycle", ["list"]),
        ("points = 1", "cycle", ["missing"]),
        ('cycle = ["fox", "lion"]\npoints = 0', "points", ["positive whole", "fox -> lion"]),
        ('cycle = ["fox", "lion"]\npoints = 1.5', "points", ["positive whole"]),
        ('cycle = ["fox", "lion"]', "points", ["missing"]),
        ('cycle = ["fox", "lion"]\npoints = 1\nspecial = "jump"', "special", ["double_roll"]),
        (
            'cycle = ["fox", "lion"]\npoints = 1\nspecial = "autowin"',
            "animals",
            ["missing", "1 animal"],
        ),
        (
            'cycle = ["fox", "lion"]\npoints = 1\nspecial = "extra_rule"\nanimals = ["fox"]',
            "animals",
            ["2 animals", "X and Y"],
        ),
        (
            'cycle = ["fox", "lion"]\npoints = 1\nspecial = "extra_rule"\nanimals = ["fox", "fox"]',
            "animals",
            ["two different"],
        ),
        (
            'cycle = ["fox", "lion"]\npoints = 1\nspecial = "autolose"\nanimals = ["bear"]',
            "animals",
            ["bear"],
        ),
        (
            'cycle = ["fox", "lion"]\npoints = 1\nspecial = "die_split"\nanimals = ["fox"]',
            "animals",
            ["remove", "die_split"],
        ),
        ('cycle = ["fox", "lion"]\npoints = 1\nanimals = ["fox"]', "animals", ["regular"]),
        (
            'cycle = ["fox", "lion"]\npoints = 1\ncolour = "red"',
            "colour",
            ["unknown", "special", "fox -> lion"],
        ),
        ('cycle = ["fox", "lion"]\npoints = 1\npeople = "yes"', "people", ["true or false"]),
        (
            'cycle = ["fox", "lion"]\npoints = 1\npeople = true\nspecial = "extra_rule"\n'
            'animals = ["fox", "lion"]',
            "people",
            ["never"],
        ),
        (
            'cycle = ["fox", "lion"]\npoints = 1\npeople = false\nspecial = "player_exclude"',
            "people",
            ["always"],
        ),
    ],
)
def test_card_errors_name_card_and_field(
    tmp_path: Path, body: str, key: str, words: list[str]
) -> None:
    message = load_error(tmp_path, second_card(body))
    assert f"setting 'zoo_card[2].{key}'" in message
    assert "zoo_card[2]" in message.split(":", 1)[1]
    for word in words:
        assert word in message


def test_player_exclude_defaults_to_the_people_icon(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(
        second_card('cycle = ["fox", "lion"]\npoints = 1\nspecial = "player_exclude"'),
        encoding="utf-8",
    )
    cards, animals, wild = deck_from_toml(path)
    assert cards[1].people and not cards[0].people
    assert animals == PUBLISHED_ANIMAL_CARDS and wild == dict.fromkeys(ANIMALS, 0)


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        (f"[animals]\nlion = -1\n[[zoo_card]]\n{CARD}", "animals.lion", ["at least 0"]),
        (f"[animals]\nfox = 2.5\n[[zoo_card]]\n{CARD}", "animals.fox", ["whole number"]),
        (f"[wild_animals]\ntiger = 2\n[[zoo_card]]\n{CARD}", "wild_animals.tiger", ["unknown"]),
        ("[animals]\nlion = 9\n", "zoo_card", ["empty"]),
        (
            "[animals]\nlion = 0\nfox = 0\npanda = 0\nflamingo = 0\ndolphin = 0\n"
            f"[[zoo_card]]\n{CARD}",
            "animals",
            ["no Animal Cards"],
        ),
    ],
)
def test_file_errors(tmp_path: Path, text: str, key: str, words: list[str]) -> None:
    message = load_error(tmp_path, text)
    assert f"setting '{key}'" in message
    for word in words:
        assert word in message


def test_an_unknown_top_level_key_names_the_file_and_the_allowed_keys(tmp_path: Path) -> None:
    message = load_error(tmp_path, f"colour = 1\n[[zoo_card]]\n{CARD}", UserError)
    assert "bad.toml: unknown key 'colour'; allowed are animals, wild_animals, zoo_card" in message


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    message = load_error(tmp_path, "[[zoo_card]\ncycle = [", UserError)
    assert "not valid TOML" in message
    with pytest.raises(UserError, match="no such file"):
        deck_from_toml(tmp_path / "missing.toml")
