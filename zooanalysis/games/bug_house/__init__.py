"""Bug House Millionaire (Zoo and More): two real-time climbing duels, partners passing cards.

Modules: ``rules`` (settings), ``melds`` (singles, pairs, suited runs), ``strategies``
(compiled decisions and the thinking-time model), ``engine`` (the reference engine, a
discrete-event simulation in time), ``counts``, ``kernel``, ``batch``, ``analysis``,
``report``, ``game``.
"""
