"""Bluff in Zoo (Zoch, 2013): bluff about the animals on a face-down pile, or doubt.

The common files, as in every game (docs/adding-a-game.md): ``rules`` (settings),
``strategies``, ``engine`` (the reference engine), ``kernel`` (the numba kernel), ``counts``
(the count arrays both fill), ``batch`` (playing a batch on either), ``game`` (registration
and result tables), ``analysis`` (the run object) and ``report`` (report sections). Helpers:
``cards`` (the notation and card types), ``policy_math`` (what a player can work out) and
``odds`` (exact odds that a claim holds).
"""
