"""Zoology: deduce the animal you hold but cannot see from the table's votes.

The common files, as in every game (docs/adding-a-game.md): ``rules`` (settings),
``strategies``, ``engine`` (the reference engine), ``kernel`` (the numba kernel), ``counts``
(the count arrays both fill), ``batch`` (playing a batch on either), ``game`` (registration
and result tables), ``analysis`` (the run object) and ``report`` (report sections). Helpers:
``data`` (the replaceable animal table and question deck) and ``beliefs`` (voting model and
posterior).
"""
