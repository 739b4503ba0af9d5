"""Lucky Lions cycle dominance: exact answers to "which animal is good on which Zoo Card?".

Everything here is a finite sum over the 5x5 outcome matrix of a Zoo Card
(:func:`~zooanalysis.games.lucky_lions.outcomes.outcome_matrix`), weighted by how likely each
opponent animal is: no sampling. Tables name animals (``lion``, ``fox``, ...), never indices.

Terms used throughout:

* **mix** — the distribution of the opponent's animal: ``None`` for uniform over the five
  animals, a length-5 vector of probabilities or counts in :data:`ANIMALS` order, or a mapping
  ``{animal: count}`` (see :func:`pool_mix`).
* **strength** of an animal on a card — its expected result ``P(win) - P(loss)`` against an
  opponent animal drawn from the mix (+1 always wins, -1 always loses).
* **best pick** — an animal with the highest strength on a card (all animals tied for best
  count).

Per-animal tables are indexed by animal name (index name ``animal``); long tables carry the
animal in a column.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from zooanalysis.games.lucky_lions.cards import ANIMALS, N_ANIMALS, ZooCard
from zooanalysis.games.lucky_lions.decks import PUBLISHED_ANIMAL_CARDS
from zooanalysis.games.lucky_lions.outcomes import (
    CardOrCycle,
    animal_index,
    cycle_indices,
    outcome_matrix,
)

BASE_ANIMAL_COUNTS: dict[str, int] = PUBLISHED_ANIMAL_CARDS
"""The base game's Animal Cards: 9 lions, 6 of each other animal (33 cards)."""

DIE_SIZE = 6
"""Cards in a starting die."""

_BEST_TOLERANCE = 1e-12

Mix = Sequence[float] | np.ndarray | Mapping[str | int, float] | None


# --- mixes -------------------------------------------------------------------------------------


def _weights(mix: Mix, what: str = "mix") -> np.ndarray:
    """Non-negative float weights ``[5]`` with a positive sum (not normalised)."""
    if mix is None:
        return np.ones(N_ANIMALS)
    if isinstance(mix, Mapping | pd.Series):
        return _weights_from_mapping(mix, what)
    weights = np.asarray(mix, dtype=float)
    if weights.shape != (N_ANIMALS,):
        raise ValueError(
            f"{what}: need {N_ANIMALS} weights in the order {', '.join(ANIMALS)}, "
            f"got shape {weights.shape}"
        )
    if not np.all(np.isfinite(weights)) or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError(f"{what}: weights must be finite, >= 0, not all 0: {weights.tolist()}")
    return weights


def _weights_from_mapping(counts: Mapping, what: str) -> np.ndarray:
    named: dict[int, float] = {}
    others: float | None = None
    for key, value in counts.items():
        if isinstance(key, str) and key.strip().lower() in ("other", "others"):
            others = float(value)
            continue
        index = animal_index(key, what)
        if index in named:
            raise ValueError(f"{what}: animal {ANIMALS[index]!r} given twice")
        named[index] = float(value)
    default = 0.0 if others is None else others
    return _weights([named.get(i, default) for i in range(N_ANIMALS)], what)


def pool_mix(counts: Mix = None) -> np.ndarray:
    """Which animal does a random card of this pool show? Probabilities ``[5]`` in ANIMALS order.

    ``counts`` is a mapping ``{animal: count}`` (names or indices; an ``"others"`` key sets the
    count of every animal not named, unnamed animals are 0 otherwise), a length-5 vector of
    counts, or ``None`` for the base game's Animal Cards (:data:`BASE_ANIMAL_COUNTS`). E.g.
    ``pool_mix({"lion": 9, "others": 6})`` gives lion 9/33 and every other animal 6/33.
    """
    weights = _weights(BASE_ANIMAL_COUNTS if counts is None else counts, "counts")
    return weights / weights.sum()


def _probabilities(mix: Mix, what: str = "mix") -> np.ndarray:
    weights = _weights(mix, what)
    return weights / weights.sum()


# --- one card ----------------------------------------------------------------------------------


def dominance_matrix(card: CardOrCycle) -> pd.DataFrame:
    """Who beats whom on this card? 5x5 table of +1 (row animal wins), 0 (tie), -1 (loses).

    Rows are my animal (index ``animal``), columns the opponent's (``opponent``). Special Busy
    Zoo rules apply for a :class:`ZooCard`; a plain cycle uses the cycle rule.
    """
    matrix = outcome_matrix(card).astype(int)
    return pd.DataFrame(
        matrix,
        index=pd.Index(ANIMALS, name="animal"),
        columns=pd.Index(ANIMALS, name="opponent"),
    )


def pair_table(card: CardOrCycle) -> pd.DataFrame:
    """Who beats whom on this card, as 25 rows: ``animal``, ``opponent``, ``outcome`` (+1/0/-1)."""
    matrix = outcome_matrix(card)
    rows = [
        (ANIMALS[a], ANIMALS[b], int(matrix[a, b]))
        for a in range(N_ANIMALS)
        for b in range(N_ANIMALS)
    ]
    return pd.DataFrame(rows, columns=["animal", "opponent", "outcome"])


def _results(card: CardOrCycle, mix: Mix) -> tuple[np.ndarray, ...]:
    """Strength, P(win), P(tie), P(loss) ``[5]`` of each animal against an opponent from ``mix``.

    The weights are summed before the one division, so integer counts (and the uniform mix)
    give correctly rounded results (e.g. exactly 0 for a balanced animal).
    """
    matrix = outcome_matrix(card)
    weights = _weights(mix, "opponent_mix")
    total = weights.sum()
    win = (matrix == 1).astype(float) @ weights / total
    tie = (matrix == 0).astype(float) @ weights / total
    loss = (matrix == -1).astype(float) @ weights / total
    strength = matrix.astype(float) @ weights / total
    return strength, win, tie, loss


def animal_strength(card: CardOrCycle, opponent_mix: Mix = None) -> pd.DataFrame:
    """How good is each animal on this card against an opponent animal drawn from the mix?

    One row per animal: ``strength`` (= ``p_win - p_loss``, the expected result), ``p_win``,
    ``p_tie``, ``p_loss``, and ``on_cycle``. ``opponent_mix`` defaults to uniform over the five
    animals; give :func:`pool_mix` of a card pool for a random opponent card from that pool.
    """
    strength, win, tie, loss = _results(card, opponent_mix)
    cycle = set(cycle_indices(card))
    return pd.DataFrame(
        {
            "strength": strength,
            "p_win": win,
            "p_tie": tie,
            "p_loss": loss,
            "on_cycle": [a in cycle for a in range(N_ANIMALS)],
        },
        index=pd.Index(ANIMALS, name="animal"),
    )


def tie_probability(card: CardOrCycle, mix_a: Mix = None, mix_b: Mix = None) -> float:
    """How often does this card give a tie (the tie rule: someone discards a card)?

    The probability that two independent animals, one from ``mix_a`` and one from ``mix_b``
    (each uniform over the five animals by default), tie on the card.
    """
    ties = (outcome_matrix(card) == 0).astype(float)
    return float(_probabilities(mix_a, "mix_a") @ ties @ _probabilities(mix_b, "mix_b"))


# --- a deck ------------------------------------------------------------------------------------


def _cards(cards: Iterable[ZooCard]) -> list[ZooCard]:
    cards = list(cards)
    for card in cards:
        if not isinstance(card, ZooCard):
            raise TypeError(f"expected ZooCard objects, got {card!r}")
    if not cards:
        raise ValueError("no Zoo Cards given")
    return cards


def _best(strength: np.ndarray) -> np.ndarray:
    return strength >= strength.max() - _BEST_TOLERANCE


def deck_dominance(cards: Iterable[ZooCard], mix: Mix = None) -> pd.DataFrame:
    """How good is every animal on every card of a deck? One row per (card, animal).

    Columns: ``card`` (position in ``cards``), ``animal``, ``cycle_size``, ``points``,
    ``special`` (Busy Zoo rule or None), ``people``, ``on_cycle``, ``strength``, ``p_win``,
    ``p_tie``, ``p_loss`` (against an opponent animal from ``mix``, uniform by default),
    ``best_pick`` (highest strength on that card; all tied for best count) and
    ``weighted_strength`` (strength x points: what the animal is worth on that card).
    """
    frames = []
    for position, card in enumerate(_cards(cards)):
        table = animal_strength(card, mix).reset_index()
        table.insert(0, "card", position)
        table.insert(2, "cycle_size", len(card.cycle))
        table.insert(3, "points", card.points)
        table.insert(4, "special", card.special)
        table.insert(5, "people", card.people)
        table["best_pick"] = _best(table["strength"].to_numpy())
        table["weighted_strength"] = table["strength"] * card.points
        frames.append(table)
    columns = ["card", "animal", "cycle_size", "points", "special", "people", "on_cycle"]
    columns += ["strength", "p_win", "p_tie", "p_loss", "best_pick", "weighted_strength"]
    return pd.concat(frames, ignore_index=True)[columns]


def animal_summary(cards: Iterable[ZooCard], mix: Mix = None) -> pd.DataFrame:
    """Across a whole deck, which animal is best, and how much does it depend on the card?

    One row per animal: ``mean_strength``; ``std_strength`` (its spread across the deck's
    cards, population standard deviation: the deck is the whole population); ``min_strength``,
    ``max_strength``; ``best_pick_share`` (share of cards where it is a best pick);
    ``weighted_mean_strength`` (mean strength weighted by each card's points: sum of
    strength x points over sum of points); ``on_card_share`` (share of cards whose cycle
    shows it).
    """
    table = deck_dominance(cards, mix)
    grouped = table.groupby("animal", sort=False)
    summary = pd.DataFrame(
        {
            "mean_strength": grouped["strength"].mean(),
            "std_strength": grouped["strength"].std(ddof=0),
            "min_strength": grouped["strength"].min(),
            "max_strength": grouped["strength"].max(),
            "best_pick_share": grouped["best_pick"].mean(),
            "weighted_mean_strength": grouped["weighted_strength"].sum() / grouped["points"].sum(),
            "on_card_share": grouped["on_cycle"].mean(),
        }
    )
    summary.index.name = "animal"
    return summary.reindex(list(ANIMALS))


def tie_rate_by_cycle_size(cards: Iterable[ZooCard], mix: Mix = None) -> pd.DataFrame:
    """How often do battles tie, by the card's cycle size?

    One row per cycle size present in the deck: ``cycle_size``, ``cards`` (how many cards have
    it) and ``mean_tie_probability`` (mean over those cards of :func:`tie_probability` with both
    animals drawn from ``mix``, uniform by default). Special rules count, so ``autowin`` and
    ``autolose`` cards (mostly ties) sit in their printed cycle size.
    """
    cards = _cards(cards)
    table = pd.DataFrame(
        {
            "cycle_size": [len(card.cycle) for card in cards],
            "tie_probability": [tie_probability(card, mix, mix) for card in cards],
        }
    )
    grouped = table.groupby("cycle_size")["tie_probability"]
    result = pd.DataFrame({"cards": grouped.size(), "mean_tie_probability": grouped.mean()})
    return result.reset_index()


def across_decks(decks: Iterable[Iterable[ZooCard]], mix: Mix = None) -> pd.DataFrame:
    """Is an animal's edge a property of the generator or the luck of one deck?

    For each deck, :func:`animal_summary`'s figures (computed straight from the outcome
    matrices); then one row per animal: ``decks`` (how many),
    ``mean_strength`` (mean over decks of the per-deck mean strength), ``std_strength`` (sample
    standard deviation of the per-deck mean strength across decks: how much one printed deck
    can tilt it; NaN for a single deck), ``min_strength`` and ``max_strength`` (of the
    per-deck means), ``mean_best_pick_share`` and ``mean_weighted_strength``.
    """
    weights = _probabilities(mix, "mix")
    per_deck = []
    for deck in decks:
        cards = _cards(deck)
        matrices = np.stack([outcome_matrix(card) for card in cards]).astype(float)
        points = np.array([card.points for card in cards], dtype=float)
        strength = matrices @ weights  # cards x animals
        best = strength >= strength.max(axis=1, keepdims=True) - _BEST_TOLERANCE
        per_deck.append(
            (
                strength.mean(axis=0),
                best.mean(axis=0),
                (strength * points[:, None]).sum(axis=0) / points.sum(),
            )
        )
    if not per_deck:
        raise ValueError("no decks given")
    means, best_shares, weighted = (np.array(values) for values in zip(*per_deck, strict=True))
    result = pd.DataFrame(
        {
            "decks": len(per_deck),
            "mean_strength": means.mean(axis=0),
            "std_strength": means.std(axis=0, ddof=1) if len(per_deck) > 1 else np.nan,
            "min_strength": means.min(axis=0),
            "max_strength": means.max(axis=0),
            "mean_best_pick_share": best_shares.mean(axis=0),
            "mean_weighted_strength": weighted.mean(axis=0),
        },
        index=pd.Index(ANIMALS, name="animal"),
    )
    return result


def lion_balance(
    cards: Iterable[ZooCard], counts: Mix = None, die_size: int = DIE_SIZE
) -> pd.DataFrame:
    """Lion has 9 Animal Cards and the others 6: does that tilt the game on this deck?

    One row per animal:

    * ``count``, ``die_share`` (chance a random card of the pool — and so the card a random
      opponent rolls — shows this animal) and ``expected_in_die`` (``die_size x die_share``);
    * ``strength_uniform`` — mean strength over the deck against a uniform opponent animal
      (what the printed cycles alone give each animal);
    * ``strength_pool`` — the same against the pool's mix (a common animal is met more often,
      so beating it is worth more and being beaten by it costs more);
    * ``strength_dealt`` — the same when the opponent's card is another card of the same pool
      (drawn without the card I rolled: one fewer of my own animal), which is exact for two
      dice dealt from one shuffled pool;
    * ``pool_shift`` — ``strength_pool - strength_uniform``;
    * ``best_pick_share_uniform`` and ``best_pick_share_pool``.

    ``counts`` defaults to :data:`BASE_ANIMAL_COUNTS`; see :func:`pool_mix` for the forms.
    """
    cards = _cards(cards)
    weights = _weights(BASE_ANIMAL_COUNTS if counts is None else counts, "counts")
    if not np.all(weights == np.round(weights)):
        raise ValueError(f"counts must be whole numbers of cards, got {weights.tolist()}")
    uniform = animal_summary(cards, None)
    pool = animal_summary(cards, weights)
    dealt = _dealt_strength(cards, weights)
    share = weights / weights.sum()
    result = pd.DataFrame(
        {
            "count": weights.astype(np.int64),
            "die_share": share,
            "expected_in_die": die_size * share,
            "strength_uniform": uniform["mean_strength"].to_numpy(),
            "strength_pool": pool["mean_strength"].to_numpy(),
            "strength_dealt": dealt,
            "pool_shift": (pool["mean_strength"] - uniform["mean_strength"]).to_numpy(),
            "best_pick_share_uniform": uniform["best_pick_share"].to_numpy(),
            "best_pick_share_pool": pool["best_pick_share"].to_numpy(),
        },
        index=pd.Index(ANIMALS, name="animal"),
    )
    return result


def _dealt_strength(cards: list[ZooCard], weights: np.ndarray) -> np.ndarray:
    """Mean strength of each animal when the opponent's card is another card of the pool."""
    strengths = np.full(N_ANIMALS, np.nan)
    for animal in range(N_ANIMALS):
        remaining = weights.copy()
        remaining[animal] -= 1
        if weights[animal] < 1 or remaining.sum() <= 0:
            continue  # the animal is not in the pool, or it is the pool's only card
        per_card = [
            float(outcome_matrix(card)[animal].astype(float) @ remaining / remaining.sum())
            for card in cards
        ]
        strengths[animal] = np.mean(per_card)
    return strengths
