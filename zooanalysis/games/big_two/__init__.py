"""Big Two (climbing/shedding, 2s high then aces, no jokers): a Zoo & More exhibit and a
game of its own.

* ``rules``: settings, the kinds of play and how they compare (readable);
* ``plays``: every legal play of a hand from its bit mask (compiled);
* ``strategies``: ``random``, ``control``, ``greedy`` (compiled, both engines);
* ``engine``: the reference engine; ``kernel``: the numba kernel;
* ``counts``, ``batch``: what a batch counts and how it is played;
* ``exhibit``: one round from given hands, for Through the Zoo;
* ``game``, ``analysis``, ``report``: the registered game, its run and report sections.
"""
