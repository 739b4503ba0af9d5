"""Bluff in Zoo: claim how many animals are in the face-down pile, or doubt the last claim.

The public counting function, as a doubt counts a pile (text notation of ``cards``)::

    from zooanalysis.games.bluff import count_claimed
    count_claimed(["fox:1", "wild:2", "action:count1", "mouse:3"], "mouse")   # 2

The rest lives in modules of one job each: ``cards`` (card notation), ``rules``
(settings and counting), ``odds`` (exact pile odds), ``engine`` (the reference engine),
``kernel`` (the fast path), ``strategies``, ``game`` (registration) and ``analysis``.
"""

from zooanalysis.games.bluff.cards import count_claimed

__all__ = ["count_claimed"]
