"""Lucky Lions (Pandaqi, 2025): battles of animal-card dice on rock-paper-scissors Zoo Cards.

The public battle functions (animal names are lowercase ``lion fox panda flamingo dolphin``;
a cycle is a sequence of distinct animals in arrow order)::

    from zooanalysis.games.lucky_lions import battle, battle_odds
    battle(["lion", "fox", "panda"], "fox", "lion")        # +1: fox beats lion
    battle_odds(["lion", "fox", "panda"], ["lion"] * 6, ["fox", "panda"] * 3)

The common files, as in every game (docs/adding-a-game.md): ``rules`` (settings),
``strategies``, ``engine`` (the reference engine), ``kernel`` (the numba kernel), ``counts``
(the count arrays both fill), ``batch`` (playing a batch on either), ``game`` (registration
and result tables), ``analysis`` (the run object) and ``report`` (report sections). Helpers:
``cards`` (animals and cards), ``flat`` (cards as rows for the kernel), ``outcomes`` (who
beats whom, exact odds), ``dominance`` (cycle dominance tables), ``decks`` and
``generator`` (the published deck).
"""

from zooanalysis.games.lucky_lions.outcomes import (
    battle,
    battle_odds,
    battle_odds_exact,
    card_battle,
    card_odds,
)

__all__ = ["battle", "battle_odds", "battle_odds_exact", "card_battle", "card_odds"]
