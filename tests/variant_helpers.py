"""A tiny owner for ``zooanalysis.compiled.compiled_variant`` tests: ``apply_bound`` calls
the global ``bound``, which each generated module binds to ``double`` or ``triple``."""

from __future__ import annotations

from numba import njit

OFFSET = 100
bound = None
"""Bound by each generated module, never here."""


@njit(nogil=True)
def double(x):
    """2 x."""
    return 2 * x


@njit(nogil=True)
def triple(x):
    """3 x."""
    return 3 * x


def apply_bound(x):
    """``bound(x) + OFFSET``: compiled per binding of ``bound``."""
    return bound(x) + OFFSET


def variant(factor: str):
    """The compiled ``apply_bound`` with ``bound`` = ``double`` or ``triple``."""
    from zooanalysis.compiled import compiled_variant

    return compiled_variant(apply_bound, *variant_args(factor))


def variant_args(factor: str) -> tuple:
    """``compiled_variant``'s arguments after the function, for ``double`` or ``triple``."""
    return {"bound": (__name__, factor)}, "probe", "apply", f"apply_bound with {factor}"
