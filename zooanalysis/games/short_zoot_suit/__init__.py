"""Short Zoot Suit (Taylor Reiner, Zoo and More): trick-taking where playing no suit pays.

Modules: ``rules`` (settings, scoring), ``strategies`` (compiled decisions), ``engine`` (the
readable reference engine), ``counts`` (what a batch counts), ``kernel`` (the numba fast
path), ``batch`` (batch jobs), ``analysis`` (the run object), ``report`` (report sections),
``game`` (the registered game).
"""
