"""Bluff in Zoo (Zoch, 2013): bluff about the animals on a face-down pile, or doubt.

The common files, as in every game (docs/adding-a-game.md): ``rules`` (settings),
``strategies``, ``engine`` (the reference engine), ``kernel`` (the numba kernel), ``counts``
(the count arrays both fill), ``batch`` (playing a batch on either), ``game`` (registration
and result tables), ``analysis`` (the run object) and ``report`` (report sections). Helpers:
``cards`` (the notation and card types), ``policy_math`` (what a player can work out) and
``odds`` (exact odds that a claim holds).

The public counting function, as a doubt counts a pile (text notation of ``cards``)::

    from zooanalysis.games.bluff import count_claimed
    count_claimed(["fox:1", "wild:2", "action:count1", "mouse:3"], "mouse")   # 2
"""

from zooanalysis.games.bluff.rules import count_claimed

__all__ = ["count_claimed"]
