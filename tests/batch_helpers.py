"""Helpers shared by the tests of every game's batch jobs."""

from __future__ import annotations

import numpy as np

from zooanalysis.games.base import BatchResult


def split_rows(result: BatchResult) -> tuple[BatchResult, BatchResult]:
    """(count arrays, ``row_`` arrays) of one batch result."""
    rows = {key: value for key, value in result.items() if key.startswith("row_")}
    return {key: value for key, value in result.items() if key not in rows}, rows


def assert_chunks_make_the_batch(whole: BatchResult, chunks: list[BatchResult]) -> None:
    """Batch results played in chunks (``first_game`` = the games before) add up to the
    result of one call, bit for bit: every count array is an integer array (a float sum
    would depend on where the chunks are cut) and the sum of the chunks'; the chunks' rows,
    one after the other, are its rows."""
    whole_counts, whole_rows = split_rows(whole)
    assert whole_rows, "the batch kept no rows: nothing to compare game by game"
    for chunk in chunks:
        assert chunk.keys() == whole.keys()
    for key, value in whole_counts.items():
        summed = sum(chunk[key] for chunk in chunks)
        assert summed.dtype == value.dtype, key
        assert np.issubdtype(value.dtype, np.integer), f"{key} is {value.dtype}, not integer"
        np.testing.assert_array_equal(summed, value, err_msg=key)
    for key, value in whole_rows.items():
        joined = np.concatenate([chunk[key] for chunk in chunks])
        assert joined.dtype == value.dtype, key
        np.testing.assert_array_equal(joined, value, err_msg=key)


def assert_outcome_counts_agree(
    totals: BatchResult, players: int, games_with_a_winner: int | None = None
) -> None:
    """The outcome counts (``zooanalysis.outcome``) agree with the older ones: a seat's
    ``win_ties`` row adds up to its games won (tied winners all win), its games won alone
    are its k = 1 column, a game won by k tied winners appears in k rows, and every game
    with a winner (all of them unless told) is counted once."""
    win_ties = totals["win_ties"]
    assert win_ties.shape == (players, players + 1)
    assert not win_ties[:, 0].any()
    np.testing.assert_array_equal(win_ties.sum(axis=1), totals["wins"])
    np.testing.assert_array_equal(win_ties[:, 1], totals["sole_wins"])
    k = np.arange(players + 1)
    games_with_k = win_ties.sum(axis=0)
    assert np.all(games_with_k % np.maximum(k, 1) == 0)
    games = int(totals["games"][0]) if games_with_a_winner is None else games_with_a_winner
    assert (games_with_k[1:] // k[1:]).sum() == games
    if games_with_a_winner is None:  # a competitive game: margins unless everyone won
        assert totals["margins"].sum() == games - games_with_k[players] // players
