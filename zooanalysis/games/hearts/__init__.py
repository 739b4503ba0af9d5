"""Hearts: four players avoid hearts and the Queen of Spades (the common rules, with the
points where rule sets differ as settings; also a Through the Zoo exhibit).

Modules: ``rules`` (settings, scoring), ``faces`` (aces-high faces), ``strategies``
(compiled decisions), ``engine`` (the readable reference engine), ``counts`` (what a batch
counts), ``kernel`` (the numba fast path), ``batch`` (batch jobs), ``exhibit`` (one hand
from given hands, for Through the Zoo), ``analysis`` (the run object), ``report`` (report
sections), ``game`` (the registered game).
"""
