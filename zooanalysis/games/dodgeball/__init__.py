"""Hodge Podge Dodgeball (Zoo and More): must-not-follow partnership trick-taking.

Modules: ``rules`` (settings, trick resolution, bench choices, the Match Point card),
``strategies`` (compiled decisions), ``engine`` (the reference engine; a round is
``engine.play_round``), ``counts``, ``kernel``, ``batch``, ``analysis``, ``report``,
``game``.
"""
