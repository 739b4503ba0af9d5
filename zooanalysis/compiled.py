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

Numba cannot cache a function that takes other compiled functions as arguments (their type
is the dispatcher object, new in every process). So a loop that calls a game's functions
(the search on a forward model, Through the Zoo's rounds on its exhibits) is written out per
set of those functions by :func:`compiled_variant`, into a small module in the cache folder
that binds them as globals (numba freezes them), and cached on disk like every kernel.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

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


GENERATED_TEMPLATE = '''"""Generated by zooanalysis.compiled for {owner}.{function}: {about}.
Do not edit; delete it to regenerate."""
from numba import njit

from zooanalysis.compiled import variant_globals

globals().update(variant_globals({owner!r}, {function!r}, {bindings!r}))


@njit(cache=True, nogil=True, error_model="numpy")
{source}'''
"""A generated module: the owner's globals, the bound functions, the compiled copy."""

_GENERATED: dict[str, ModuleType] = {}
"""Generated modules by name, once fully executed (so safe to hand to any thread)."""
_GENERATED_LOCK = threading.RLock()
"""Held while a generated module is written and executed: a thread that found it half
executed would take the owner's uncompiled function (``zoosim field --jobs 2`` once did).
Reentrant, so that a generated module may itself need another."""


def compiled_variant(
    function: Callable, bindings: Mapping[str, tuple[str, str]], folder: str, stem: str,
    about: str,
):
    """``function`` (plain Python, in an importable module) compiled with
    ``@njit(cache=True, nogil=True, error_model="numpy")`` in a generated module of its own,
    whose globals are those of ``function``'s module plus ``bindings`` (global name ->
    (module name, attribute), such as ``{"ex0": ("...dodgeball.exhibit", "exhibit_round")}``).

    The module (:func:`variant_source`; ``about`` goes into its docstring) is written to
    :func:`generated_path` and executed once per process (:func:`generated_module`)."""
    text = variant_source(function, bindings, about)
    return getattr(generated_module(folder, stem, text), function.__name__)


def variant_source(function: Callable, bindings: Mapping[str, tuple[str, str]],
                   about: str) -> str:
    """The source of :func:`compiled_variant`'s generated module for these arguments."""
    return GENERATED_TEMPLATE.format(
        owner=function.__module__, function=function.__name__, about=about,
        bindings=dict(bindings), source=inspect.getsource(function),
    )


def variant_globals(
    owner: str, function: str, bindings: Mapping[str, tuple[str, str]]
) -> dict[str, object]:
    """The globals of a :func:`compiled_variant` module: those of the module ``owner``
    (never its uncompiled ``function`` nor its dunder names) and the bound attributes."""
    names = {
        name: value
        for name, value in vars(importlib.import_module(owner)).items()
        if not name.startswith("__") and name != function
    }
    for name, (module, attribute) in bindings.items():
        names[name] = getattr(importlib.import_module(module), attribute)
    return names


def generated_module(folder: str, stem: str, text: str) -> ModuleType:
    """The module whose source is ``text``, written to ``<cache folder>/<folder>/<stem>_<hash
    of text>.py`` and executed once per process (as ``zoosim_<folder>_<stem>_<hash>``).

    Thread safe: threads asking at once wait for the first, and all get the one fully
    executed module. Process safe: the file is checked and written under an exclusive lock
    (``<file>.lock``), atomically (a scratch file renamed over it). What runs is always
    ``text`` itself: a file found with other content (a partial or damaged write) is
    replaced, never executed; the file is there for numba's cache and for tracebacks."""
    name = generated_name(folder, stem, text)
    module = _GENERATED.get(name)
    if module is not None:
        return module
    with _GENERATED_LOCK:
        module = _GENERATED.get(name)
        if module is None:
            module = _execute_generated(name, generated_path(folder, stem, text), text)
            _GENERATED[name] = module
    return module


def generated_name(folder: str, stem: str, text: str) -> str:
    """The module name of :func:`generated_module`'s module: ``zoosim_<folder>_<stem>_<hash>``."""
    return f"zoosim_{folder}_{stem}_{_text_digest(text)}"


def generated_path(folder: str, stem: str, text: str) -> Path:
    """Where :func:`generated_module` writes ``text``: ``<cache folder>/<folder>/<stem>_<hash
    of text>.py`` (:func:`cache_folder`)."""
    return cache_folder() / folder / f"{stem}_{_text_digest(text)}.py"


def _text_digest(text: str) -> str:
    """The first 16 hex digits of the sha256 of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _execute_generated(name: str, path: Path, text: str) -> ModuleType:
    """Write ``text`` to ``path`` (unless it already holds exactly that) under the file's
    lock, then execute ``text`` as the module ``name`` (call with ``_GENERATED_LOCK`` held)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(f"{path}.lock"):
        if not path.exists() or path.read_bytes() != text.encode():
            scratch = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
            scratch.write_bytes(text.encode())
            os.replace(scratch, path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache finds the compiled function's globals by name
    try:
        exec(compile(text, str(path), "exec"), vars(module))
    except BaseException:
        del sys.modules[name]
        raise
    return module


def code_fingerprint() -> str:
    """What fixes a batch's results besides its inputs: zooanalysis's version and the hash
    of its compiled sources. Recorded with checkpoints and checked on every Dask worker."""
    from zooanalysis.version import __version__

    return f"zooanalysis {__version__}, compiled sources {source_fingerprint()}"
