"""What a Chai Tea Jazz batch counts: the count arrays both engines fill, and the reference
tally.

Counts only (constant memory for any number of games). The kernel fills these arrays in
place; :func:`tally` adds one reference-engine
:class:`~zooanalysis.games.chai_tea_jazz.engine.GameRecord` the same way, so the two
engines' totals can be compared array by array. Histogram bins at the top hold "that many
or more" (and at the bottom "that many or fewer" for signed values). A *row* is a contract
of the pad, an *option* a row played one way (``settings.options``).
"""

from __future__ import annotations

import math

import numpy as np

from zooanalysis.games.chai_tea_jazz.engine import HOW_NAMES, GameRecord
from zooanalysis.games.chai_tea_jazz.rules import MAX_BET, MAX_CARDS_PER_PLAYER, ChaiSettings
from zooanalysis.outcome import count_outcome, new_outcome_totals
from zooanalysis.trajectory import (
    LEAD_CHANGE_BINS,
    SETTLED_BINS,
    count_lead_changes,
    settled_bin,
    settled_move,
    sole_leader,
)

GP_OFFSET = 64
GP_BINS = 2 * GP_OFFSET + 1
"""Game points -64..64 (the ends hold "that many or beyond")."""
SCORE_OFFSET = 256
SCORE_BINS = 768
"""A declarer's score -256..511."""
DEBT_BINS = MAX_BET + 1
"""Bet Debt (or an offer) 0..200."""
BID_BINS = 64
"""Picks in one Picking phase 0..63."""
TRICK_BINS = MAX_CARDS_PER_PLAYER + 1
ROUND_BINS = 64
"""Rounds 0..63 (a game has at most 3 sides x 16 rows = 48)."""
EVAL_FIELDS = ("n", "value", "value_squares", "points", "points_squares", "products")
"""A heuristic declarer's hand evaluation against the points its side then took (before
debt and offer), summed over the rounds heuristics declared. The value is counted in whole
units of 1/``EVAL_SCALE`` point (:func:`value_units`), so the sums are exact integers that
do not depend on how a batch is cut into chunks; the table gives points back."""
EVAL_SCALE = 256
"""Units per point of the hand evaluation in the ``evaluation`` counts."""


def value_units(value: float) -> int:
    """A hand evaluation in whole units of 1/``EVAL_SCALE`` point, rounded half up (the
    kernel rounds the same way)."""
    return math.floor(value * EVAL_SCALE + 0.5)



def clip(value: int, low: int, high: int) -> int:
    """``value`` held within ``[low, high]``."""
    return max(low, min(high, value))


def new_totals(players: int, sides: int, rows: int, options: int) -> dict[str, np.ndarray]:
    """Zeroed count arrays for a batch (summed across batches)."""
    n, r = players, rows

    def zeros(*shape: int) -> np.ndarray:
        return np.zeros(shape, dtype=np.int64)

    return {
        "games": zeros(1),
        "wins": zeros(n),
        "sole_wins": zeros(n),
        "tie_breaks": zeros(1),
        # game points per seat (its side's), and from each row
        "points_sum": zeros(n),
        "points_squares": zeros(n),
        "points_hist": zeros(n, GP_BINS),
        "contract_points": zeros(n, r),
        "contract_points_squares": zeros(n, r),
        # rounds a seat declared each row, its score (after debt and offer) and its side's
        # card points (before), sums and squares
        "declared": zeros(n, r),
        "declared_score": zeros(n, r),
        "declared_score_squares": zeros(n, r),
        "declared_gross": zeros(n, r),
        "declared_gross_squares": zeros(n, r),
        "declared_tricks": zeros(r, TRICK_BINS),
        "score_hist": zeros(r, SCORE_BINS),
        # how each seat's contracts were decided (engine.HOW_NAMES), and first picks
        "how": zeros(n, r, len(HOW_NAMES)),
        "first_picks": zeros(n, r),
        "option_rounds": zeros(n, options),
        "option_score": zeros(n, options),
        "option_score_squares": zeros(n, options),
        # by row and Bet Debt: rounds, score and card points; game points the row gave
        "debt_rounds": zeros(r, DEBT_BINS),
        "debt_score": zeros(r, DEBT_BINS),
        "debt_score_squares": zeros(r, DEBT_BINS),
        "debt_gross": zeros(r, DEBT_BINS),
        "debt_gross_squares": zeros(r, DEBT_BINS),
        "debt_row_entries": zeros(r, DEBT_BINS),
        "debt_row_points": zeros(r, DEBT_BINS),
        "debt_row_points_squares": zeros(r, DEBT_BINS),
        # the Picking phase, per seat
        "picks": zeros(n),
        "raises": zeros(n),
        "passes": zeros(n),
        "offers_made": zeros(n),
        "offers_taken": zeros(n),
        "offers_declined": zeros(n),
        "offer_hist": zeros(DEBT_BINS),
        "bids_hist": zeros(BID_BINS),
        # the declarer's seat counted from the Barrel holder (0), and its scores
        "position_rounds": zeros(n),
        "position_score": zeros(n),
        "position_score_squares": zeros(n),
        "contract_round": zeros(r, ROUND_BINS),
        # rounds in which one side won every trick: [declaring side, a defending side]
        "match": zeros(2),
        "certain_hist": zeros(ROUND_BINS),
        "game_rounds_hist": zeros(ROUND_BINS),
        "evaluation": np.zeros((r, len(EVAL_FIELDS)), dtype=np.int64),
        "lead_changes_hist": zeros(LEAD_CHANGE_BINS),
        "settled_hist": zeros(SETTLED_BINS),
        # the winning side's standing less the best other side's (game points, or the
        # cumulative total), offset by GP_OFFSET: 0 when the tie-break decided
        "margin_hist": zeros(GP_BINS),
        # win_ties (seat, tied winners) and margins (in places): zooanalysis.outcome
        **new_outcome_totals(n),
    }


def totals_for(settings: ChaiSettings) -> dict[str, np.ndarray]:
    """:func:`new_totals` shaped for ``settings``."""
    return new_totals(settings.players, settings.sides, len(settings.contracts),
                      len(settings.options))  # fmt: skip


def new_rows(games: int, players: int) -> dict[str, np.ndarray]:
    """Arrays for one row per game: game points, the final standing (higher finished ahead:
    :func:`standings_row`), and rounds played."""
    return {
        "row_points": np.zeros((games, players), dtype=np.int32),
        "row_standing": np.zeros((games, players), dtype=np.int64),
        "row_rounds": np.zeros(games, dtype=np.int32),
    }


def standings_row(settings: ChaiSettings, record: GameRecord) -> list[int]:
    """Every seat's per-game standing, higher finished ahead: ``sides - 1 - place`` of its
    side, the winner placed first, the others by their standing, then by who finished
    first (unfinished sides last, then by side)."""
    pad = record.pad
    late = 1 << 30

    def key(side: int) -> tuple[int, int, int]:
        finished = pad.finished[side] if pad.finished[side] >= 0 else late
        return (-record.standings[side], finished, side)

    others = sorted((s for s in range(pad.sides) if s != record.winner_side), key=key)
    place = {side: index for index, side in enumerate([record.winner_side, *others])}
    return [pad.sides - 1 - place[settings.side_of(seat)] for seat in range(settings.players)]


def tally_outcome(settings: ChaiSettings, record: GameRecord, totals: dict[str, np.ndarray]):
    """Add a game's end (the kernel's ``_play_batch`` ends a game the same way): the winning
    side's seats win (a sole win: a one-player side); the tie-break if it decided; every
    seat's game points; the winning margin; the shared outcome tally."""
    players = settings.players
    for seat in range(players):
        if seat in record.winners:
            totals["wins"][seat] += 1
            if len(record.winners) == 1:
                totals["sole_wins"][seat] += 1
        points = record.points[seat]
        totals["points_sum"][seat] += points
        totals["points_squares"][seat] += points * points
        totals["points_hist"][seat, clip(points + GP_OFFSET, 0, GP_BINS - 1)] += 1
    totals["tie_breaks"][0] += record.tie_break
    others = [v for side, v in enumerate(record.standings) if side != record.winner_side]
    margin = record.standings[record.winner_side] - max(others)
    totals["margin_hist"][clip(margin + GP_OFFSET, 0, GP_BINS - 1)] += 1
    # the shared tally reads final places: the rulebook's tie-break always leaves one
    # winning side, whose players share the win (1/team size each)
    count_outcome(standings_row(settings, record), totals, fewest_win=False)


def tally(settings: ChaiSettings, record: GameRecord, totals: dict[str, np.ndarray]) -> None:
    """Add one game's record into kernel-shaped count arrays."""
    players = settings.players
    totals["games"][0] += 1
    tally_outcome(settings, record, totals)
    for played in record.rounds:
        seat, row, option = played.declarer, played.row, played.option
        score, gross, debt = played.score, played.gross, played.debt
        totals["declared"][seat, row] += 1
        totals["declared_score"][seat, row] += score
        totals["declared_score_squares"][seat, row] += score * score
        totals["declared_gross"][seat, row] += gross
        totals["declared_gross_squares"][seat, row] += gross * gross
        declaring = settings.side_of(seat)
        taken = sum(played.tricks_won[s] for s in range(players)
                    if settings.side_of(s) == declaring)  # fmt: skip
        totals["declared_tricks"][row, taken] += 1
        totals["score_hist"][row, clip(score + SCORE_OFFSET, 0, SCORE_BINS - 1)] += 1
        totals["how"][seat, row, played.how] += 1
        if played.first_picker >= 0:
            first_row = settings.options[played.first_option].row
            totals["first_picks"][played.first_picker, first_row] += 1
        totals["option_rounds"][seat, option] += 1
        totals["option_score"][seat, option] += score
        totals["option_score_squares"][seat, option] += score * score
        totals["debt_rounds"][row, debt] += 1
        totals["debt_score"][row, debt] += score
        totals["debt_score_squares"][row, debt] += score * score
        totals["debt_gross"][row, debt] += gross
        totals["debt_gross_squares"][row, debt] += gross * gross
        for other in range(players):
            totals["picks"][other] += played.picks[other]
            totals["raises"][other] += played.raises[other]
            totals["passes"][other] += played.passes[other]
            totals["offers_declined"][other] += played.offers_declined[other]
        if played.offers:
            totals["offers_made"][played.barrel] += len(played.offers)
        if played.how == 3:
            totals["offers_taken"][seat] += 1
            totals["offer_hist"][played.offer] += 1
        totals["bids_hist"][min(sum(played.picks), BID_BINS - 1)] += 1
        position = (seat - played.barrel) % players
        totals["position_rounds"][position] += 1
        totals["position_score"][position] += score
        totals["position_score_squares"][position] += score * score
        totals["contract_round"][row, played.round_index] += 1
        if played.match_side >= 0:
            totals["match"][0 if played.match_side == declaring else 1] += 1
        if played.value is not None:
            units = value_units(played.value)
            totals["evaluation"][row] += (1, units, units * units, gross, gross * gross,
                                          units * gross)  # fmt: skip
    for row, debt, gained in record.row_debts:
        totals["debt_row_entries"][row, debt] += 1
        totals["debt_row_points"][row, debt] += gained
        totals["debt_row_points_squares"][row, debt] += gained * gained
    for played in record.rounds:
        if played.row_scored is not None:
            for seat in range(players):
                gained = played.row_scored[settings.side_of(seat)]
                totals["contract_points"][seat, played.row] += gained
                totals["contract_points_squares"][seat, played.row] += gained * gained
    rounds = len(record.rounds)
    totals["certain_hist"][record.certain_after] += 1
    totals["game_rounds_hist"][rounds] += 1
    leaders = [sole_leader(standings) for _, standings in record.score_checks]
    totals["lead_changes_hist"][min(count_lead_changes(leaders), LEAD_CHANGE_BINS - 1)] += 1
    if not record.tie_break:
        moves = [move for move, _ in record.score_checks]
        start = settled_move(moves, leaders, record.winner_side)
        totals["settled_hist"][settled_bin(start, rounds)] += 1
