"""Lucky Lions (Pandaqi, 2025): battles of animal-card dice on rock-paper-scissors Zoo Cards.

The public battle functions (animal names are lowercase ``lion fox panda flamingo dolphin``;
a cycle is a sequence of distinct animals in arrow order)::

    from zooanalysis.games.lucky_lions import battle, battle_odds
    battle(["lion", "fox", "panda"], "fox", "lion")        # +1: fox beats lion
    battle_odds(["lion", "fox", "panda"], ["lion"] * 6, ["fox", "panda"] * 3)

The rest lives in modules of one job each: ``outcomes`` (who beats whom, exact odds),
``dominance`` (cycle dominance tables), ``decks`` and ``generator`` (the published deck),
``rules`` (settings), ``engine`` (the reference engine), ``kernel`` (the fast path),
``strategies``, ``game`` (registration and tables) and ``analysis`` (the run object).
"""

from zooanalysis.games.lucky_lions.outcomes import (
    battle,
    battle_odds,
    battle_odds_exact,
    card_battle,
    card_odds,
)

__all__ = ["battle", "battle_odds", "battle_odds_exact", "card_battle", "card_odds"]
