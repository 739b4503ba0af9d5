"""Tests for parsing and formatting counts such as ``--games 1e6``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zooanalysis.errors import UserError
from zooanalysis.numbers import MAX_COUNT, format_count, parse_count


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1e6", 1_000_000),
        ("1E6", 1_000_000),
        ("2.5e5", 250_000),
        ("1_000_000", 1_000_000),
        ("1000000", 1_000_000),
        ("250k", 250_000),
        ("250K", 250_000),
        ("1.5M", 1_500_000),
        ("2m", 2_000_000),
        ("1G", 1_000_000_000),
        ("2.5k", 2_500),
        ("1e8", 100_000_000),
        ("1", 1),
        ("1.0", 1),
        ("  42  ", 42),
        ("+7", 7),
        (".5k", 500),
        ("1e+3", 1_000),
        ("12300e-2", 123),
        ("1e18", 10**18),
    ],
)
def test_accepted_counts(text: str, expected: int) -> None:
    result = parse_count(text)
    assert result == expected
    assert type(result) is int


def test_numbers_not_just_strings() -> None:
    assert parse_count(5) == 5
    assert parse_count(1e6) == 1_000_000
    assert parse_count(250_000.0) == 250_000


def test_exact_beyond_float_precision() -> None:
    # 2**53 + 1 is not representable as a float; decimal arithmetic keeps it exact.
    assert parse_count("9007199254740993") == 9007199254740993
    assert parse_count("1.00000000000000001e17") == 10**17 + 1
    assert parse_count("123456789.123456789G") == 123456789123456789


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "-5",
        "1.5",
        "1.2345k",
        "abc",
        "1e",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "",
        "   ",
        "k",
        "e6",
        "1e6k",
        "1__000",
        "_1000",
        "1000_",
        "1,000",
        "0.5",
        "1e-3",
        "1e-1000000000",
        "1e19",
        "1e1000000000",
        "10 k",
        "1.00000000000000000000000000000001k",
        "12345e-2",
        "1000000000000000001",
    ],
)
def test_refused_counts_name_option_and_input(text: str) -> None:
    with pytest.raises(UserError) as info:
        parse_count(text)
    message = str(info.value)
    assert message.startswith("--games: ")
    assert repr(text) in message
    assert "positive whole number such as 1e6, 1_000_000 or 250k" in message
    assert "\n" not in message


def test_zero_message_exactly() -> None:
    with pytest.raises(UserError) as info:
        parse_count("0")
    assert str(info.value) == (
        "--games: '0' is not allowed: give a positive whole number such as 1e6, 1_000_000 or 250k"
    )


def test_not_whole_message_shows_the_value() -> None:
    with pytest.raises(UserError, match=r"1234\.5, not a whole number"):
        parse_count("1.2345k")


def test_too_large_message() -> None:
    with pytest.raises(UserError, match=r"more than 1e18"):
        parse_count("2e18")


@pytest.mark.parametrize("value", [0, -3, 1.5, float("nan"), float("inf"), True, 10**19])
def test_refused_numbers(value: object) -> None:
    with pytest.raises(UserError, match=r"^--games: "):
        parse_count(value)  # type: ignore[arg-type]


def test_option_name_is_used() -> None:
    with pytest.raises(UserError, match=r"^--seeds: 'x' is not allowed"):
        parse_count("x", option="--seeds")


def test_user_error_is_what_is_raised() -> None:
    with pytest.raises(UserError):
        parse_count("nope")
    # and not a bare ValueError that the CLI would print as a traceback
    try:
        parse_count("nope")
    except UserError as error:
        assert not isinstance(error, ValueError)


@given(st.integers(min_value=1, max_value=MAX_COUNT))
def test_plain_and_underscored_integers_round_trip(n: int) -> None:
    assert parse_count(str(n)) == n
    assert parse_count(f"{n:_}") == n


@given(st.integers(min_value=1, max_value=10**9), st.sampled_from(["k", "K", "m", "M", "g", "G"]))
def test_suffixes_multiply_exactly(n: int, suffix: str) -> None:
    scale = {"k": 10**3, "m": 10**6, "g": 10**9}[suffix.lower()]
    assert parse_count(f"{n}{suffix}") == n * scale


@given(st.integers(min_value=1, max_value=10**12), st.integers(min_value=0, max_value=6))
def test_exponent_form_is_exact(mantissa: int, exponent: int) -> None:
    assert parse_count(f"{mantissa}e{exponent}") == mantissa * 10**exponent


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1"),
        (999, "999"),
        (1000, "1,000"),
        (1_000_000, "1,000,000"),
        (1234567890, "1,234,567,890"),
    ],
)
def test_format_count(n: int, text: str) -> None:
    assert format_count(n) == text
