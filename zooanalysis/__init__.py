"""zoosim: Monte Carlo strategy analysis for zoo-themed card games.

From a notebook::

    import zooanalysis
    run = zooanalysis.simulate("bluff", games=100_000)   # or zooanalysis.load_run("runs/x")
    run.win_rates(), run.doubt_odds()
"""

from __future__ import annotations

from zooanalysis.compiled import configure_numba_cache
from zooanalysis.version import __version__

configure_numba_cache()


def load_run(path):
    """Open a run directory written by ``zoosim run`` (see ``zooanalysis.loading.load_run``)."""
    from zooanalysis.loading import load_run as _load_run

    return _load_run(path)


def simulate(*args, **kwargs):
    """Run a simulation from Python (see ``zooanalysis.simulation.simulate``)."""
    from zooanalysis.simulation import simulate as _simulate

    return _simulate(*args, **kwargs)


__all__ = ["__version__", "load_run", "simulate"]
