"""Short Zoot Suit results (placeholder replaced below)."""

from zooanalysis.results import Run


class ZootRun(Run):
    """A Short Zoot Suit run."""
