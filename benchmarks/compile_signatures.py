"""How many signatures numba compiled for each function: the compile time a fresh machine pays.

    ZOOSIM_CACHE_DIR=$(mktemp -d) zoosim run --game big-two --games 200 --jobs 1 --out /tmp/r
    python benchmarks/compile_signatures.py $ZOOSIM_CACHE_DIR [--top 40] [--signatures]

Reads the index (``.nbi``) of every function in a numba cache folder (``$ZOOSIM_CACHE_DIR``
after a cold run, or ``~/.cache/zoosim``) and prints the totals, then each function: its
signatures, the bytes of its machine code and its file, most signatures first. A function
compiled several times is usually called with a bare constant (``0``, ``True``, a module
constant): numba gives each its own literal type and compiles once per combination (see
``zooanalysis/games/big_two/plays.py``). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path


def read_index(index: Path) -> list:
    """The signatures (argument types) that numba's index file ``index`` lists."""
    with open(index, "rb") as handle:
        pickle.load(handle)  # numba's version
        _stamp, overloads = pickle.loads(handle.read())
    return [key[0] for key in overloads]


def main() -> None:
    """Print the functions of a cache folder by how many signatures they were compiled for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=Path, help="a numba cache folder (any depth above .nbi)")
    parser.add_argument("--top", type=int, default=40, help="functions to list (default 40)")
    parser.add_argument("--signatures", action="store_true", help="print each signature")
    args = parser.parse_args()
    rows = []
    for index in args.cache.rglob("*.nbi"):
        signatures = read_index(index)
        stem = index.name.split(".py")[0]
        size = sum(path.stat().st_size for path in index.parent.glob(f"{stem}.py*.nbc"))
        rows.append((len(signatures), size, str(index.relative_to(args.cache)), signatures))
    rows.sort(key=lambda row: (-row[0], -row[1]))
    print(
        f"functions {len(rows)}, signatures {sum(row[0] for row in rows)}, "
        f"machine code {sum(row[1] for row in rows):,} bytes"
    )
    for count, size, name, signatures in rows[: args.top]:
        print(f"{count:4d} {size:>10,} {name}")
        if args.signatures:
            for signature in signatures:
                print("          ", signature)


if __name__ == "__main__":
    main()
