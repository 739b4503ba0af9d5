"""Where numba keeps compiled kernels: one cache folder per version of zoosim's source.

Numba's on-disk cache checks only the file that defines a compiled function, not the files
of the functions it calls: after an edit to a strategy, a kernel in another file would load
stale machine code. Keying the whole cache folder on a hash of every source file that holds
compiled code makes any change there recompile everything, and keeps the cache out of
site-packages.

Inside that folder numba would file each function under a hash of its source file's
absolute path, so a second clone of the same code (or a move of the checkout) compiled
everything again. :class:`PackageCacheLocator` files zoosim's functions by their path inside
the package instead, and checks them by content, so every copy of the same source shares
one cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

PACKAGE = Path(__file__).resolve().parent
COMPILED_SOURCES = (
    "rng.py", "outcome.py", "decisions.py", "cards/**/*.py", "games/**/*.py", "search/**/*.py"
)
"""Where compiled code, and the constants it freezes in, lives: the shared random stream,
the end-of-game outcome tally, the decision counter, the card machinery, the game
packages and the search on their forward models. Other modules
(CLI, storage, results ...) never reach a kernel."""


def source_fingerprint() -> str:
    """A short hash of the compiled sources (paths and contents) and numba's version."""
    digest = hashlib.sha256()
    paths = {path for pattern in COMPILED_SOURCES for path in PACKAGE.glob(pattern)}
    for path in sorted(paths):
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """The cache folder for this source: ``$ZOOSIM_CACHE_DIR`` or ``~/.cache/zoosim``."""
    base = os.environ.get("ZOOSIM_CACHE_DIR") or Path.home() / ".cache" / "zoosim"
    return Path(base) / f"numba-{source_fingerprint()}"


def configure_numba_cache() -> None:
    """Point numba's cache at :func:`cache_folder` (before any kernel is decorated) and
    file zoosim's functions there by their place in the package, not on the disk."""
    numba.config.CACHE_DIR = str(cache_folder())
    register_locator()


def package_path(py_file: str) -> Path | None:
    """``py_file``'s path inside the zooanalysis package, or None if it lies outside."""
    try:
        return Path(py_file).resolve().relative_to(PACKAGE)
    except (OSError, ValueError):
        return None


def register_locator() -> None:
    """Put :class:`PackageCacheLocator` first among numba's cache locators (once)."""
    from numba.core import caching

    implementation = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    locators = implementation._locator_classes
    if not any(getattr(cls, "zoosim", False) for cls in locators):
        locators.insert(0, _locator_class())


def _locator_class() -> type:
    """The locator class, made on first use so that importing this module stays light."""
    from numba.core.caching import _CacheLocator

    class PackageCacheLocator(_CacheLocator):
        """Caches a zooanalysis function in ``CACHE_DIR/zooanalysis/<its folder in the
        package>``, fresh while its source file's content is unchanged.

        The cache folder itself is keyed by every compiled source (:func:`cache_folder`),
        so the absolute path adds nothing but a recompile per clone.
        """

        zoosim = True

        def __init__(self, py_func, py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            inside = package_path(py_file)
            folder = inside.parent.parts if inside is not None else ()
            self._cache_path = os.path.join(numba.config.CACHE_DIR, "zooanalysis", *folder)

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> str:
            return hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file: str):
            if not numba.config.CACHE_DIR or package_path(py_file) is None:
                return None  # not zoosim's: numba's own locators decide
            locator = cls(py_func, py_file)
            try:
                locator.ensure_cache_path()
            except OSError:
                return None
            return locator

    return PackageCacheLocator


def code_fingerprint() -> str:
    """What fixes a batch's results besides its inputs: zooanalysis's version and the hash
    of its compiled sources. Recorded with checkpoints and checked on every Dask worker."""
    from zooanalysis.version import __version__

    return f"zooanalysis {__version__}, compiled sources {source_fingerprint()}"
