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

Several processes may compile the same function at once (``pytest -n 2``, ``--jobs``, two
runs started together). Numba writes each file atomically, but a new entry is a
read-modify-write of the function's index, unlocked: two processes adding different
signatures could both pick data file 1, and the index of one would then name the machine
code of the other. :class:`LockedIndexDataCacheFile` makes that step exclusive.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Iterator
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
    register_locked_cache_file()


def load_array_support() -> None:
    """Import numba's NumPy implementations (which the first kernel load needs) without
    the ``scipy.linalg`` that numba imports with them only to see whether BLAS is there.

    That import costs about 0.15 CPU seconds of every run's start; its answer only picks
    how numba compiles ``np.correlate`` and ``np.convolve`` (without BLAS: its own loop),
    which no zoosim kernel calls, and it changes no cached kernel. ``np.dot`` and
    ``np.linalg`` in compiled code still import scipy when they are compiled. Nothing
    is done if numba's implementations or scipy.linalg are already loaded.
    """
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    blas = "scipy.linalg.cython_blas"
    sys.modules[blas] = None  # type: ignore[assignment]  # "import" raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(blas, 0) is None:
            del sys.modules[blas]


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


def register_locked_cache_file() -> None:
    """Make numba's caches save through :class:`LockedIndexDataCacheFile` (once).

    Numba's ``Cache`` builds its index file by the module-level name, so replacing that name
    covers every cache made afterwards (zoosim's kernels are decorated after this call, in
    the same import of :mod:`zooanalysis`); the generated loops of the search and of Through
    the Zoo, which live outside the package, are covered too."""
    from numba.core import caching

    if not getattr(caching.IndexDataCacheFile, "zoosim", False):
        caching.IndexDataCacheFile = _locked_cache_file_class(caching.IndexDataCacheFile)


@contextlib.contextmanager
def exclusive_lock(path: str) -> Iterator[None]:
    """Hold an exclusive advisory lock on the file ``path`` (made if missing) while inside.

    Where ``fcntl`` is missing (Windows) it does nothing: numba's writes stay atomic there,
    only the rare race between two new signatures is left open."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _locked_cache_file_class(base: type) -> type:
    """The subclass of numba's ``IndexDataCacheFile`` (``base``) that saves under a lock."""

    class LockedIndexDataCacheFile(base):
        """Numba's index-and-data cache file, with each save made under an exclusive lock on
        ``<index>.lock`` and the data file written before the index that names it.

        So two processes never give one data file to two signatures, and a process that
        reads the index (without the lock) finds an entry only once its data is complete:
        each file is replaced atomically, and a data file, once named in the index, keeps
        its signature. A reader between the two writes finds no entry and compiles."""

        zoosim = True

        def save(self, key, data) -> None:
            """Save ``data`` under ``key``: the data file first, then the index."""
            with exclusive_lock(self._index_path + ".lock"):
                overloads = self._load_index()
                data_name = overloads.get(key)
                if data_name is None:
                    taken = set(overloads.values())
                    number = 1
                    while self._data_name(number) in taken:
                        number += 1
                    data_name = self._data_name(number)
                self._save_data(data_name, data)
                if overloads.get(key) != data_name:
                    overloads[key] = data_name
                    self._save_index(overloads)

    return LockedIndexDataCacheFile


def code_fingerprint() -> str:
    """What fixes a batch's results besides its inputs: zooanalysis's version and the hash
    of its compiled sources. Recorded with checkpoints and checked on every Dask worker."""
    from zooanalysis.version import __version__

    return f"zooanalysis {__version__}, compiled sources {source_fingerprint()}"
