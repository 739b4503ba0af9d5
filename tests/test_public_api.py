"""Names the issues and the README promise are importable where they say."""

from __future__ import annotations

import zooanalysis


def test_count_claimed_is_importable_from_the_bluff_package() -> None:
    from zooanalysis.games.bluff import count_claimed

    # the rulebook's example: a fox, a wild 2, "All cards count 1" and three mice
    assert count_claimed(["fox:1", "wild:2", "action:count1", "mouse:3"], "mouse") == 2
    assert count_claimed(["fox:1", "wild:2", "action:equal", "mouse:3"], "mouse") == 6


def test_the_package_has_a_version() -> None:
    assert zooanalysis.__version__.count(".") == 2
