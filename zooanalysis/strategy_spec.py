"""Player lineups given on the command line, e.g. ``--players bayes:doubt=0.35,bluff=0.2,random*3``.

Syntax: players are separated by commas; a player is ``name`` or ``name:key=value,...``.
Because commas also separate a player's parameters, a comma-separated token that contains
``=`` but no ``:`` continues the previous player's parameters. A trailing ``*N`` repeats the
whole player N times: ``bayes*2,random*2``, ``bayes:doubt=0.35,bluff=0.2*3`` (a parameter
value is a number, so the ``*3`` belongs to the player; ``bayes*2:doubt=0.3`` also works).
Whitespace around tokens is ignored and strategy and parameter names are case-insensitive.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from zooanalysis.errors import UserError

_REPEAT_RE = re.compile(r"(?P<name>.*?)\s*\*\s*(?P<count>[^*]*)")


def format_number(value: float) -> str:
    """The shortest text that reads back as ``value``: ``0.35``, ``2`` (not ``2.0``), ``-1.5``."""
    number = float(value)
    if number.is_integer():
        return str(int(number))
    return repr(number)


@dataclass(frozen=True)
class ParamSpec:
    """One tunable parameter of a strategy: its default and allowed range (inclusive)."""

    name: str
    default: float
    low: float
    high: float
    help: str
    integer: bool = False

    def __post_init__(self) -> None:
        """Check the spec itself is consistent (a programming error if not)."""
        if not self.low <= self.default <= self.high:
            raise ValueError(
                f"parameter {self.name}: default {self.default} outside [{self.low}, {self.high}]"
            )
        if self.integer and not float(self.default).is_integer():
            raise ValueError(
                f"parameter {self.name}: integer parameter with default {self.default}"
            )

    def allowed(self) -> str:
        """What values are allowed, for messages: ``a number from 0 to 1``."""
        kind = "a whole number" if self.integer else "a number"
        return f"{kind} from {format_number(self.low)} to {format_number(self.high)}"


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy players can use: its name, one-line description and parameters."""

    name: str
    description: str
    params: tuple[ParamSpec, ...] = ()

    def defaults(self) -> dict[str, float]:
        """Every parameter's default, in declaration order."""
        return {p.name: p.default for p in self.params}


@dataclass(frozen=True)
class PlayerSpec:
    """One seat of a lineup: a strategy and all its parameter values (defaults filled in).

    ``params`` lists every parameter of the strategy in the StrategyInfo's order.
    ``defaults`` (not part of equality) holds the strategy's defaults so ``label`` can
    leave them out; parse_lineup and parse_player fill it in.
    """

    strategy: str
    params: tuple[tuple[str, float], ...] = ()
    defaults: tuple[tuple[str, float], ...] = field(default=(), compare=False, repr=False)

    def param(self, name: str) -> float:
        """The value of parameter ``name``; KeyError if the strategy has no such parameter."""
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(f"strategy {self.strategy!r} has no parameter {name!r}")

    def as_dict(self) -> dict[str, float]:
        """The parameter values as a dict, in the strategy's order."""
        return dict(self.params)

    @property
    def label(self) -> str:
        """``bayes`` when every parameter is at its default, else ``bayes:doubt=0.35,bluff=0.2``.

        Only parameters that differ from ``defaults`` are listed (all of them if the
        defaults are unknown), so the label parses back to an equal PlayerSpec.
        """
        defaults = dict(self.defaults)
        changed = [(k, v) for k, v in self.params if k not in defaults or v != defaults[k]]
        if not changed:
            return self.strategy
        return self.strategy + ":" + ",".join(f"{k}={format_number(v)}" for k, v in changed)


def _fail(option: str, problem: str, whole: str, part: str, allowed: str) -> UserError:
    """A one-line UserError: ``{option}: {problem}[ (in {whole!r})]; {allowed}``.

    ``problem`` names the bad ``part``; the whole input is added when it says more.
    """
    where = "" if whole.strip() == part.strip() else f" (in {whole!r})"
    return UserError(f"{option}: {problem}{where}; {allowed}")


_LINEUP_EXAMPLE = "bayes,random or bayes:doubt=0.3,random*2"
MAX_REPEAT = 1000
"""Largest ``name*N`` repeat count accepted (a guard against typos such as ``random*1e9``)."""


def _table(strategies: Mapping[str, StrategyInfo]) -> dict[str, StrategyInfo]:
    """The strategies keyed by lower-case name."""
    return {key.strip().lower(): info for key, info in strategies.items()}


def _param_names(info: StrategyInfo) -> str:
    """``bayes takes doubt, bluff`` or ``random takes no parameters``, for messages."""
    if not info.params:
        return f"{info.name} takes no parameters"
    return f"{info.name} takes " + ", ".join(p.name for p in info.params)


def _parse_value(
    spec: ParamSpec, info: StrategyInfo, token: str, raw: str, option: str, whole: str
) -> float:
    """The value of ``key=raw`` for parameter ``spec``, checked against its range."""
    allowed = f"give {spec.allowed()}"
    subject = f"{info.name} parameter {spec.name}"
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise _fail(option, f"{token!r} is not a number for {subject}", whole, token, allowed)
    if spec.integer and not value.is_integer():
        raise _fail(option, f"{token!r} is not a whole number for {subject}", whole, token, allowed)
    if not spec.low <= value <= spec.high:
        raise _fail(option, f"{token!r} is out of range for {subject}", whole, token, allowed)
    return int(value) if spec.integer else value


def _build_player(
    name: str,
    tokens: list[str],
    table: dict[str, StrategyInfo],
    option: str,
    whole: str,
    part: str,
) -> PlayerSpec:
    """The PlayerSpec for strategy ``name`` with ``key=value`` ``tokens``; UserError if invalid."""
    key = name.strip().lower()
    if not key:
        problem = f"missing strategy name in {part.strip()!r}"
        raise _fail(option, problem, whole, part, _give_players())
    info = table.get(key)
    if info is None:
        allowed = "allowed are " + ", ".join(sorted(table))
        raise _fail(option, f"unknown strategy {name.strip()!r}", whole, name, allowed)
    specs = {p.name.lower(): p for p in info.params}
    given: dict[str, tuple[str, float]] = {}
    for raw_token in tokens:
        token = raw_token.strip()
        param_key, eq, raw_value = token.partition("=")
        param_key = param_key.strip().lower()
        if not token:
            problem = f"empty parameter for {info.name} in {part.strip()!r}"
            raise _fail(option, problem, whole, part, _param_names(info))
        if not eq or not param_key:
            raise _fail(
                option,
                f"{token!r} is not a key=value parameter for {info.name}",
                whole,
                token,
                _param_names(info),
            )
        spec = specs.get(param_key)
        if spec is None:
            raise _fail(
                option,
                f"strategy {info.name} has no parameter {param_key!r}",
                whole,
                token,
                _param_names(info),
            )
        if spec.name in given:
            first = given[spec.name][0]
            raise _fail(
                option,
                f"{info.name} parameter {spec.name} is given twice ({first!r} and {token!r})",
                whole,
                "",
                "give each parameter at most once",
            )
        value = _parse_value(spec, info, token, raw_value.strip(), option, whole)
        given[spec.name] = (token, value)
    defaults = tuple(
        (p.name, int(p.default) if p.integer else float(p.default)) for p in info.params
    )
    params = tuple((k, given[k][1] if k in given else v) for k, v in defaults)
    return PlayerSpec(strategy=info.name, params=params, defaults=defaults)


def _give_players() -> str:
    """What a lineup looks like, for messages."""
    return f"give players separated by commas, such as {_LINEUP_EXAMPLE}"


def parse_player(
    text: str, strategies: Mapping[str, StrategyInfo], option: str = "--players"
) -> PlayerSpec:
    """Parse one player, ``name`` or ``name:key=value,key=value``; UserError if invalid."""
    return _parse_player(text, _table(strategies), option, text)


def _parse_player(text: str, table: dict[str, StrategyInfo], option: str, whole: str) -> PlayerSpec:
    """parse_player against a prepared table, reporting errors within ``whole``."""
    name, colon, rest = text.partition(":")
    tokens = rest.split(",") if colon else []
    return _build_player(name, tokens, table, option, whole, text)


_REPEAT_FORM = (
    f"write a repeat once, at the end of its player, as name*N or name:key=value,...*N with N "
    f"a whole number from 1 to {MAX_REPEAT}, such as random*3 or bayes:doubt=0.3,bluff=0.2*2"
)


def _split_repeat(text: str, option: str, whole: str, part: str) -> tuple[str, int]:
    """Split ``name*N`` (or a last parameter ``key=value*N``) into ``(text before *, N)``;
    text without ``*`` repeats once. UserError for a bad count or more than one ``*``."""
    match = _REPEAT_RE.fullmatch(text)
    if match is None:
        return text, 1
    count_text = match["count"].strip()
    plain = count_text.isascii() and count_text.isdigit() and len(count_text) <= 6
    count = int(count_text) if plain else 0
    if not 1 <= count <= MAX_REPEAT or "*" in match["name"]:
        raise _fail(option, f"bad repeat count in {part.strip()!r}", whole, part, _REPEAT_FORM)
    return match["name"], count


def _player_repeat(
    head: str, params: list[str], option: str, whole: str, part: str
) -> tuple[str, list[str], int]:
    """The strategy name, parameter tokens and repeat count of one player: the ``*N`` may
    follow the name (``bayes*2:doubt=0.3``) or end the player (``bayes:doubt=0.3*2``), once."""
    name, count = _split_repeat(head, option, whole, part)
    tokens = list(params)
    for index, token in enumerate(tokens):
        if "*" not in token:
            continue
        if index != len(tokens) - 1 or count != 1:
            raise _fail(option, f"misplaced repeat in {part.strip()!r}", whole, part, _REPEAT_FORM)
        tokens[index], count = _split_repeat(token, option, whole, part)
    return name, tokens, count


def parse_lineup(
    text: str, strategies: Mapping[str, StrategyInfo], option: str = "--players"
) -> list[PlayerSpec]:
    """Parse a comma-separated lineup such as ``bayes:doubt=0.35,bluff=0.2,random*2``.

    A token with ``=`` but no ``:`` continues the previous player's parameters; a trailing
    ``*N`` repeats the whole player N times (``random*2``, ``bayes:doubt=0.35,bluff=0.2*3``).
    Raises UserError (one line naming ``option``, the input and what is allowed) for unknown
    strategies or parameters, bad or out-of-range values, duplicate parameters, empty
    players, parameters before any player and a bad or misplaced repeat.
    """
    table = _table(strategies)
    if not text.strip():
        raise _fail(option, f"no players given in {text!r}", "", "", _give_players())
    # Group the comma-separated tokens into players: [head, repeat-part, param tokens].
    groups: list[tuple[str, list[str]]] = []
    for raw in text.split(","):
        token = raw.strip()
        if not token:
            raise _fail(option, "empty player", text, "", _give_players())
        if "=" in token and ":" not in token:
            if not groups:
                raise _fail(
                    option,
                    f"parameter {token!r} comes before any player",
                    text,
                    token,
                    "write parameters after their player, such as bayes:doubt=0.3",
                )
            groups[-1][1].append(token)
        else:
            groups.append((token, []))
    players: list[PlayerSpec] = []
    for first, more in groups:
        head, colon, rest = first.partition(":")
        part = ",".join([first, *more])
        params = [rest, *more] if colon else more
        name, tokens, count = _player_repeat(head, params, option, text, part)
        player = _build_player(name, tokens, table, option, text, part)
        players.extend([player] * count)
    return players


def params_array(player: PlayerSpec, size: int) -> np.ndarray:
    """The player's parameter values in declaration order as the float array compiled
    strategies read, zero-padded to ``size``."""
    values = np.zeros(size, dtype=np.float64)
    for index, (_, value) in enumerate(player.params):
        values[index] = value
    return values
