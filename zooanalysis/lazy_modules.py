"""Modules that zoosim's start-up does not import: they load on their first use.

pandas takes about a quarter of a second of CPU to import, as much as numba, yet ``zoosim
run`` needs it only for the tables at the end. The modules on the way to the games write
``from zooanalysis.lazy_modules import pandas as pd`` and use ``pd`` as usual: the first
attribute looked up (``pd.DataFrame`` ...) imports pandas, and a run starts that import on
a thread of its own while its games play (``storage.import_parquet_in_background``).
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any


class LazyModule:
    """Stands for the module ``name`` and imports it when one of its attributes is first
    looked up (Python's import lock makes that safe from any thread)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.module(), attribute)

    def module(self) -> ModuleType:
        """The module itself, imported now if it is not yet."""
        return importlib.import_module(self._name)

    def __repr__(self) -> str:
        return f"<lazily imported module {self._name!r}>"


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while the block runs (an import), and with
    ``freeze`` move every object there is then out of its reach for good (``gc.freeze``).

    Importing pandas and pyarrow makes some 200,000 objects that live until the process ends.
    The collections their allocations trigger scan them again and again (and, once, every
    object of the process) to free nothing: about 0.05 CPU seconds, taken from the games when
    a run imports pandas while they play. Paused, the collector scans them all once when it
    resumes, and again at its next full collection, unless they were frozen: only a process
    that ends with zoosim's command may freeze (see ``cli.main``), since objects frozen are
    never collected. Objects that die are still freed at once by reference counting. The
    collector is left running if it ran (one already paused stays paused)."""
    was_collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_collecting:
            gc.enable()


if TYPE_CHECKING:
    import pandas
else:
    pandas = LazyModule("pandas")
