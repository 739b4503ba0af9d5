"""Chai Tea Jazz (Zoo & More): trick-taking with contracts, every player count and variant.

Modules: ``contracts`` (the pad's rows and the ways to play them, as data), ``rules``
(settings), ``evaluation`` (what a hand is worth as declarer), ``layout`` (the settings as
flat tables), ``strategies``, ``engine`` (the reference engine), ``counts``, ``kernel``,
``batch``, ``analysis``, ``report``, ``game``.
"""
