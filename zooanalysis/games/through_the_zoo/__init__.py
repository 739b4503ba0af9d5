"""Through the Zoo (Zoo and More): a meta game that plays a different standard-deck game,
an *exhibit*, in each of its four rounds, every player drawing from their own deck.

Modules: ``rules`` (settings, round ranking, the winner), ``strategies`` (mulligans),
``engine`` (reference), ``counts``, ``kernel`` (numba; exhibits are the registered games'
compiled ``exhibit_round``), ``batch``, ``analysis``, ``report``, ``game``. The exhibit
interface is ``zooanalysis.games.exhibits``.
"""
