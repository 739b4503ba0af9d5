"""Counts given on the command line (``--games 1e6``, ``250k``, ``1_000_000``) and their display.

Parsing uses exact decimal arithmetic, so ``1e6`` is exactly 1000000 and ``1.5M`` exactly
1500000; a value that is not a whole number after scaling (``1.2345k``) is refused rather
than rounded.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from zooanalysis.errors import UserError

MAX_COUNT = 10**18
"""Largest count accepted: far beyond any run, and still inside a signed 64-bit integer."""

_SUFFIXES = {"k": 3, "m": 6, "g": 9}
_DIGITS = r"[0-9]+(?:_[0-9]+)*"
_COUNT_RE = re.compile(
    rf"""
    (?P<mantissa>[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS}))
    (?:
        (?P<exponent>[eE][+-]?{_DIGITS})
      | (?P<suffix>[kKmMgG])
    )?
    """,
    re.VERBOSE,
)
_ALLOWED = "give a positive whole number such as 1e6, 1_000_000 or 250k"


def _refuse(option: str, text: object, detail: str = "") -> UserError:
    """The one-line error for a count that cannot be used."""
    shown = text if isinstance(text, str) else str(text)
    return UserError(f"{option}: {shown!r} is not allowed{detail}: {_ALLOWED}")


def _to_decimal(text: str | int | float, option: str) -> Decimal:
    """The exact value written in ``text``, or a UserError if it is not a number."""
    if isinstance(text, bool):
        raise _refuse(option, text)
    if isinstance(text, int | float):
        value = Decimal(text)  # exact, also for floats
        if not value.is_finite():
            raise _refuse(option, text)
        return value
    if not isinstance(text, str):
        raise _refuse(option, text)
    match = _COUNT_RE.fullmatch(text.strip())
    if match is None:
        raise _refuse(option, text)
    try:
        value = Decimal(match["mantissa"].replace("_", ""))
        shift = 0
        if match["exponent"]:
            shift = int(match["exponent"][1:].replace("_", ""))
        elif match["suffix"]:
            shift = _SUFFIXES[match["suffix"].lower()]
    except (InvalidOperation, ValueError):  # pragma: no cover - the regex rules these out
        raise _refuse(option, text) from None
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    # Rebuild from the tuple: exact, unlike scaleb/multiplication which round to the context.
    return Decimal((sign, digits, exponent + shift))


def parse_count(text: str | int | float, option: str = "--games") -> int:
    """Parse a positive whole count such as ``1e6``, ``2.5e5``, ``1_000_000``, ``250k`` or ``1.5M``.

    Suffixes are k = 1e3, M = 1e6, G = 1e9 (either case). Raises UserError, naming
    ``option`` and the input, for anything that is not a whole number from 1 to 1e18.
    """
    value = _to_decimal(text, option)
    if value.is_zero() or value.is_signed():
        raise _refuse(option, text)
    if value.adjusted() < 0:  # below 1
        raise _refuse(option, text)
    if value.adjusted() > 18 or value > MAX_COUNT:
        raise _refuse(option, text, " (more than 1e18)")
    exact = Fraction(value)
    if exact.denominator != 1:
        shown = f"{value:f}".rstrip("0").rstrip(".")
        raise _refuse(option, text, f" (it is {shown}, not a whole number)")
    return exact.numerator


def format_count(n: int) -> str:
    """A count with thousands separators, e.g. ``1000000`` -> ``'1,000,000'``."""
    return f"{int(n):,}"
