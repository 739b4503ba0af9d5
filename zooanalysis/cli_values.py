"""Command-line values that need no pydantic: typer's coercion, minus its start-up cost.

Typer 0.29 turns every option's value into its Python type with a pydantic ``TypeAdapter``,
built when the option is first read, even when the option was not given (its ``None``).
Importing pydantic and building the adapters costs about 0.07 CPU seconds of every
``zoosim`` command, a tenth of the serial start-up of a ``zoosim run`` (issue 13).

For the values whose result is certain, :func:`install` gives typer that result itself: an
option not given (``None``), a string, a plain whole number (``2``), a path that does not
exist yet or is readable. Everything else (``1e6`` for an ``int``, a float, a path typer
would refuse, an option with constraints, choices or a parser) goes to typer's own
coercion, so the results and the error messages stay exactly typer's. With a typer that
coerces otherwise, :func:`install` does nothing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

PLAIN_WHOLE_NUMBER = re.compile(r"0|[1-9][0-9]{0,17}")
"""Digits that every int parser reads the same way (no sign, spaces, underscores or
leading zeros; at most 18, so far from any limit)."""

DEFAULT_PATH_CHECKS = {
    "exists": False,
    "file_okay": True,
    "dir_okay": True,
    "writable": False,
    "readable": True,
    "resolve_path": False,
    "allow_dash": False,
    "path_type": None,
}
"""A path option's checks as typer leaves them by default: the only ones handled here."""


class PlainCoercion:
    """One option's coercion: the certain cases here, the rest by typer's runtime param
    (built on first need, which imports pydantic)."""

    def __init__(self, descriptor: Any, build_typer_param) -> None:
        self.descriptor = descriptor
        self.build_typer_param = build_typer_param
        self.typer_param = None
        self.kind = plain_kind(descriptor)

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        """``value`` as typer would coerce it for ``param``."""
        multiple = param.multiple or param.nargs == -1
        if value is None:  # typer's own answer for an option not given
            return () if multiple else None
        if not multiple:
            known, result = self.certain_value(value)
            if known:
                return result
        if self.typer_param is None:
            self.typer_param = self.build_typer_param(self.descriptor)
        return self.typer_param.coerce(value, param=param, ctx=ctx)

    def certain_value(self, value: Any) -> tuple[bool, Any]:
        """(True, typer's result) when it is certain, else (False, None)."""
        if self.kind is str and isinstance(value, str):
            return True, value
        if self.kind is int:
            if type(value) is int:
                return True, value
            if isinstance(value, str) and PLAIN_WHOLE_NUMBER.fullmatch(value):
                return True, int(value)
        if self.kind is Path and isinstance(value, str) and value and "\0" not in value:
            path = Path(value)
            if not os.path.exists(path) or os.access(path, os.R_OK):
                return True, path
        return False, None


def plain_kind(descriptor: Any) -> type | None:
    """``str``, ``int`` or ``Path`` for an option of that type without constraints, choices,
    a parser or files; None for any other (only its ``None`` is handled here)."""
    info = descriptor.parameter_info
    if getattr(info, "parser", None) is not None or descriptor.file_annotation is not None:
        return None
    annotation = descriptor.annotation
    if annotation is str and not descriptor.is_choice:
        return str
    constrained = any(getattr(info, name, None) for name in ("min", "max", "clamp"))
    if annotation is int and not constrained:
        return int
    if annotation is Path and all(
        getattr(info, name, None) == default for name, default in DEFAULT_PATH_CHECKS.items()
    ):
        return Path
    return None


def install() -> bool:
    """Make typer's options coerce through :class:`PlainCoercion`; False (and nothing
    changed) if this typer does not coerce through ``_TyperParameter.get_runtime_param``."""
    try:
        from typer import core
    except ImportError:  # pragma: no cover - typer is a dependency
        return False
    parameter = getattr(core, "_TyperParameter", None)
    build = getattr(core, "build_runtime_param", None)
    if parameter is None or build is None or not hasattr(parameter, "get_runtime_param"):
        return False
    if getattr(parameter.get_runtime_param, "zoosim", False):
        return True

    def get_runtime_param(self):
        if getattr(self, "_runtime_param", None) is None:
            self._runtime_param = PlainCoercion(self.type_descriptor, build)
        return self._runtime_param

    get_runtime_param.zoosim = True
    parameter.get_runtime_param = get_runtime_param
    return True
