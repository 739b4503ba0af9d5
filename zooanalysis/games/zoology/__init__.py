"""Zoology: deduce the animal you hold but cannot see from the table's votes.

Modules: ``data`` (the replaceable animal table and question deck), ``rules`` (settings),
``beliefs`` (voting model and posterior), ``strategies``, ``engine`` (reference engine),
``kernel`` (numba batch kernel), ``counts``, ``game`` (registration and result
tables) and ``analysis`` (the run object).
"""
