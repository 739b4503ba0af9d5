"""The one exception type for mistakes a user can fix: bad options, settings or files."""

from __future__ import annotations


class UserError(Exception):
    """A mistake in the user's input; the CLI prints its message as one line and exits 2.

    The message names the input and says what is allowed, e.g.
    ``--games: '0' is not allowed: give a positive whole number such as 1e6, 1_000_000 or 250k``.
    """


class SettingsError(UserError, ValueError):
    """A scenario or settings value that is unknown, malformed or impossible."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"setting '{key}': {message}")
        self.key = key
        self.problem = message
