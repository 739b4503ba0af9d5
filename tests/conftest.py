"""Test-wide settings: no test may hold code to a time limit.

Hypothesis fails an example that runs longer than its ``deadline`` (200 ms by default): a
timing threshold, which the project's tests never set, and one that a loaded machine or a
first call that compiles a kernel breaks at random. Every property test runs without it.
"""

from hypothesis import settings

settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")
