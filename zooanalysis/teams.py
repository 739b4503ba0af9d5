"""Who plays together: a team game's teams as a sweep cell's row records them.

A game whose partners win together (Bug House Millionaire, Hodge Podge Dodgeball with 4
players, Chai Tea Jazz with 4 or 6) names each seat's team in its ``seats`` table, and
``Run.teams`` reads them as seats from 1, e.g. ``[(1, 3), (2, 4)]``. A sweep keeps one row
per cell, so it writes them as text in the row's ``teams`` column (:func:`teams_text`) and
reads them back with :func:`cell_teams`.
"""

from __future__ import annotations

import pandas as pd

TEAMS_COLUMN = "teams"


def teams_text(teams: list[tuple[int, ...]] | None) -> str:
    """A cell's teams (``Run.teams``, seats from 1) as its row records them: ``1&3 2&4``;
    ``""`` for a game of single players."""
    return " ".join("&".join(str(seat) for seat in team) for team in teams or [])


def parse_teams(text: object) -> list[tuple[int, ...]] | None:
    """The teams :func:`teams_text` wrote; None for none (or a missing value)."""
    if not isinstance(text, str) or not text.strip():
        return None
    return [tuple(int(seat) for seat in team.split("&")) for team in text.split()]


def cell_teams(cells: pd.DataFrame) -> list[list[tuple[int, ...]] | None]:
    """Each cell's teams (seats from 1), None where the game has none; all None for a sweep
    written before teams were recorded."""
    if TEAMS_COLUMN not in cells:
        return [None] * len(cells)
    return [parse_teams(text) for text in cells[TEAMS_COLUMN]]
