"""Modules that zoosim's start-up does not import: they load on their first use.

pandas takes about a quarter of a second of CPU to import, as much as numba, yet ``zoosim
run`` needs it only for the tables at the end. The modules on the way to the games write
``from zooanalysis.lazy_modules import pandas as pd`` and use ``pd`` as usual: the first
attribute looked up (``pd.DataFrame`` ...) imports pandas, and a run starts that import on
a thread of its own while its games play (``storage.import_parquet_in_background``).
"""

from __future__ import annotations

import importlib
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


if TYPE_CHECKING:
    import pandas
else:
    pandas = LazyModule("pandas")
