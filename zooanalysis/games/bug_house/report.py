"""Bug House Millionaire's sections of ``zoosim report``: placeholder replaced below."""

from __future__ import annotations


def report_sections(run) -> list:
    """Every Bug House Millionaire section for ``run``."""
    return []
