"""Chai Tea Jazz results (placeholder until the analyses land)."""

from __future__ import annotations

from zooanalysis.results import Run


class ChaiRun(Run):
    """A Chai Tea Jazz run."""
