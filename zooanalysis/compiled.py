"""Where numba keeps compiled kernels: one cache folder per version of zoosim's source.

Numba's on-disk cache checks only the file that defines a compiled function, not the files
of the functions it calls: after an edit to a strategy, a kernel in another file would load
stale machine code. Keying the whole cache folder on a hash of every source file that holds
compiled code makes any change there recompile everything, and keeps the cache out of
site-packages.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

PACKAGE = Path(__file__).resolve().parent
COMPILED_SOURCES = ("rng.py", "outcome.py", "cards/**/*.py", "games/**/*.py")
"""Where compiled code, and the constants it freezes in, lives: the shared random stream,
the end-of-game outcome tally, the card machinery and the game packages. Other modules
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
    """Point numba's cache at :func:`cache_folder` (before any kernel is decorated)."""
    numba.config.CACHE_DIR = str(cache_folder())
