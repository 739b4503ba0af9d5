"""Validation helpers shared by every game's settings: whole numbers in a range, known keys."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from zooanalysis.errors import SettingsError, UserError


def reject_unknown_keys(table: Mapping[str, Any], allowed: Iterable[str], prefix: str = "") -> None:
    """Raise ``SettingsError`` for the first key of ``table`` that is not in ``allowed``."""
    allowed = list(allowed)
    for key in table:
        if key not in allowed:
            raise SettingsError(
                f"{prefix}{key}", f"unknown setting; allowed are {', '.join(sorted(allowed))}"
            )


def whole_number(value: Any, key: str, low: int, high: int | None = None) -> int:
    """``value`` as an int within ``[low, high]``; ``SettingsError`` naming ``key`` otherwise."""
    if high == low:  # Hearts' and Bug House's players: not "from 4 to 4"
        allowed = f"the whole number {low}"
    elif high is not None:
        allowed = f"a whole number from {low} to {high}"
    else:
        allowed = f"a whole number of at least {low}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettingsError(key, f"{value!r} is not {allowed}")
    if isinstance(value, float):
        if not value.is_integer():
            raise SettingsError(key, f"{value!r} is not {allowed}")
        value = int(value)
    if value < low or (high is not None and value > high):
        raise SettingsError(key, f"{value!r} is out of range: give {allowed}")
    return value


def read_toml(path: str | Path, what: str, allowed_keys: Sequence[str]) -> dict[str, Any]:
    """A TOML file's contents; ``UserError`` for a missing, unreadable or invalid file or an
    unknown top-level key, naming the file (``what`` names the file's role if missing)."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{what}: no such file {str(path)!r}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path}: not valid TOML ({error})") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a UTF-8 text file") from None
    for key in data:
        if key not in allowed_keys:
            raise UserError(f"{path}: unknown key '{key}'; allowed are {', '.join(allowed_keys)}")
    return data


def check_players_setting(table: Mapping[str, Any], lineup_size: int, where: str) -> None:
    """Refuse a ``players`` rule setting that disagrees with the lineup (the lineup decides
    how many play; a different number in the settings would be silently overridden)."""
    if "players" not in table:
        return
    value = table["players"]
    if isinstance(value, bool) or value != lineup_size:
        raise UserError(
            f"{where}players = {value!r} but the lineup has {lineup_size} players; "
            f"give players = {lineup_size} or leave players out (the lineup sets it)"
        )
