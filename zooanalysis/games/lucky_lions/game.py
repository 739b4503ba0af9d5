"""Lucky Lions as a registered game: settings, batches on the kernel, result tables."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from zooanalysis.count_tables import histogram, nonzero_cells, outcome_tables, seat_table
from zooanalysis.errors import UserError
from zooanalysis.games.base import BatchResult, Game
from zooanalysis.games.lucky_lions.cards import ANIMALS
from zooanalysis.games.lucky_lions.counts import CARDS_WON_BINS, POINT_BINS, TURN_BINS
from zooanalysis.games.lucky_lions.decks import deck_to_toml, describe_deck, generate_zoo_cards
from zooanalysis.games.lucky_lions.dominance import animal_summary
from zooanalysis.games.lucky_lions.engine import END_REASONS, POWER_NAMES, RESULT_NAMES, TIE_NAMES
from zooanalysis.games.lucky_lions.rules import (
    FIXED,
    GENERATED,
    MAX_PLAYERS,
    MIN_PLAYERS,
    LuckySettings,
    settings_from_table,
    validate,
)
from zooanalysis.games.lucky_lions.strategies import STRATEGIES
from zooanalysis.strategy_spec import PlayerSpec, StrategyInfo
from zooanalysis.trajectory import lead_changes_table, settled_table

CARD_TYPE_NAMES = tuple(ANIMALS) + tuple(f"wild {animal}" for animal in ANIMALS)
"""Animal Card types as text: the plain animals, then the Wild Animals cards."""


class LuckyLionsGame(Game):
    """Lucky Lions (Pandaqi, 2025): roll your die of Animal Cards against an opponent's on a
    rock-paper-scissors Zoo Card; first to 10 points wins."""

    name = "lucky-lions"
    title = "Lucky Lions"
    strategies = STRATEGIES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_lineup = "greedy,greedy,greedy,greedy"
    histogram_tops = MappingProxyType(
        {"turns": TURN_BINS - 1, "points": POINT_BINS - 1, "cards_won": CARDS_WON_BINS - 1}
    )

    def settings_from_table(self, table: Mapping[str, Any]) -> LuckySettings:
        """Validated settings from a scenario's ``[settings]`` table."""
        return settings_from_table(table)

    def validate_settings(self, settings: LuckySettings) -> None:
        """Reject settings no game can be played with (e.g. too few cards to deal)."""
        validate(settings)

    def settings_dict(self, settings: LuckySettings) -> dict[str, Any]:
        """Settings as a nested dict (the scenario-file format)."""
        return settings.to_dict()

    def lineup_strategies(self) -> Mapping[str, StrategyInfo]:
        """The built-in strategies and ``search`` (the forward model's search player)."""
        from zooanalysis.games.lucky_lions.search import SEARCH, SEARCH_INFO

        return {**STRATEGIES, SEARCH: SEARCH_INFO}

    def settings_for_lineup(self, settings: LuckySettings, lineup: list[PlayerSpec]) -> Any:
        """The base checks; with a ``search`` seat, also the rules its forward model plays
        (``search.check_modelled``: base game only)."""
        adjusted = super().settings_for_lineup(settings, lineup)
        if any(player.strategy == "search" for player in lineup):
            from zooanalysis.games.lucky_lions.search import check_modelled

            check_modelled(adjusted)
        return adjusted

    def batch_job(self, settings: LuckySettings, lineup: list[PlayerSpec], with_rows: bool):
        """The kernel batch for these settings and players; with a ``search`` seat, the
        reference engine's batch (``search.SearchBatch``), counted the same way."""
        if any(player.strategy == "search" for player in lineup):
            from zooanalysis.games.lucky_lions.search import SearchBatch

            return SearchBatch(settings, tuple(lineup), with_rows)
        from zooanalysis.games.lucky_lions.batch import make_batch

        return make_batch(settings, lineup, with_rows)

    def tables(
        self, totals: BatchResult, settings: LuckySettings, lineup: list[PlayerSpec]
    ) -> dict[str, pd.DataFrame]:
        """Result tables: seats, points, cards won, turns, battles, rolls, ties, powers, leads."""
        return result_tables(totals, [p.label for p in lineup])

    def win_counts(self, totals: BatchResult, lineup: list[PlayerSpec]) -> tuple[int, np.ndarray]:
        """(games, wins per seat) straight from the kernel's counts."""
        return int(totals["games"][0]), totals["wins"]

    def row_standings(self, result: BatchResult) -> np.ndarray:
        """More points finish ahead."""
        return result["row_points"].astype(np.int64)

    def deck_text(self, settings: LuckySettings, seed: int | None, as_toml: bool) -> str:
        """A generated print (``seed``, default ``deck_seed``) or the settings' deck file,
        with its Animal Cards and each animal's exact strength on it; or a deck file."""
        if settings.deck not in (GENERATED, FIXED):
            if seed is not None:
                raise UserError(f"--seed: the scenario plays the deck file {settings.deck}")
            cards, where = settings.fixed_cards, f"deck file {settings.deck}"
        else:
            seed = settings.deck_seed if seed is None else seed
            cards = generate_zoo_cards(settings.generator, seed)
            where = f"generated print, seed {seed}"
        counts = dict(zip(ANIMALS, settings.animal_counts[: len(ANIMALS)], strict=True))
        wild = dict(zip(ANIMALS, settings.animal_counts[len(ANIMALS) :], strict=True))
        if as_toml:
            return deck_to_toml(cards, counts, wild if settings.wild_animals else None)
        pool = ", ".join(f"{n} {a}" for a, n in counts.items())
        if settings.wild_animals:
            pool += "; wild: " + ", ".join(f"{n} {a}" for a, n in wild.items())
        mix = np.array(settings.animal_counts[: len(ANIMALS)], dtype=float)
        mix += np.array(settings.animal_counts[len(ANIMALS) :], dtype=float)
        strength = animal_summary(cards, mix)
        lines = [f"Lucky Lions Zoo Cards ({where}):", "", describe_deck(cards), ""]
        lines += [f"Animal Cards: {pool}", ""]
        lines += [
            "Animal strength on this deck (exact: expected win - loss of one roll against",
            "the dice's animal mix; best pick: share of cards where it is the best animal):",
        ]
        lines += [
            f"  {animal:<9} {row.mean_strength:+.3f} (sd over cards {row.std_strength:.3f}), "
            f"points-weighted {row.weighted_mean_strength:+.3f}, best pick "
            f"{row.best_pick_share:.0%}"
            for animal, row in strength.iterrows()
        ]
        return "\n".join(lines)

    def report_sections(self, run) -> list:
        """Cycle dominance, ties and whole-game figures for ``zoosim report``."""
        from zooanalysis.games.lucky_lions.report import report_sections

        return report_sections(run)

    def run_class(self) -> type:
        """Runs of this game load as :class:`LuckyLionsRun`."""
        from zooanalysis.games.lucky_lions.analysis import LuckyLionsRun

        return LuckyLionsRun


def result_tables(totals: BatchResult, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Turn the summed count arrays into long, self-describing DataFrames.

    Histogram bins at the top hold "that many or more" (points 63+, turns 1023+, die size
    63+, Zoo Cards won 63+, lead changes 63+).
    """
    won_hist = totals["cards_won_hist"]
    seats = seat_table(
        totals,
        labels,
        cards_won_sum=won_hist @ np.arange(won_hist.shape[1]),
        cards_won_squares=won_hist @ np.arange(won_hist.shape[1]) ** 2,
        draws_instead=totals["draws_instead"],
    )
    rolls = nonzero_cells(totals["rolls"], ["card_type", "die_size", "result"])
    rolls = (
        rolls.pivot_table(
            index=["card_type", "die_size"], columns="result", values="count", fill_value=0
        )
        .reindex(columns=range(len(RESULT_NAMES)), fill_value=0)
        .astype(np.int64)
    )
    rolls.columns = list(RESULT_NAMES)
    rolls = rolls.reset_index()
    rolls.insert(1, "animal", pd.Categorical.from_codes(rolls["card_type"] % 5, ANIMALS))
    rolls.insert(2, "wild", rolls["card_type"] >= len(ANIMALS))
    rolls["card_type"] = pd.Categorical.from_codes(rolls["card_type"], CARD_TYPE_NAMES)
    battles = pd.DataFrame(
        {
            "cycle_size": np.arange(totals["battles"].shape[0]),
            "battles": totals["battles"].sum(axis=1),
            "tied_battles": totals["battles"][:, 1],
        }
    )
    battles = battles[battles["battles"] > 0].reset_index(drop=True)
    return {
        "seats": seats,
        "points": nonzero_cells(totals["points_hist"], ["seat", "points"], "games"),
        "cards_won": nonzero_cells(totals["cards_won_hist"], ["seat", "cards_won"], "games"),
        "turns": histogram(totals["turns_hist"], "turns"),
        "end_reasons": pd.DataFrame({"reason": list(END_REASONS), "games": totals["end_reasons"]}),
        "battles": battles,
        "rolls": rolls,
        "ties": pd.DataFrame({"settled_by": list(TIE_NAMES), "battles": totals["ties"]}),
        "powers": pd.DataFrame({"power": list(POWER_NAMES), "uses": totals["powers"]}),
        "lead_changes": lead_changes_table(totals["lead_changes"]),
        "settled": settled_table(totals["settled"]),
        **moment_tables(totals),
        **outcome_tables(totals),
    }


def moment_tables(totals: BatchResult) -> dict[str, pd.DataFrame]:
    """The per-game moments of the rolls (``counts.new_totals``) for the clustered intervals
    of the shown cards' results, the die sizes' shares and the mean die size (the rolls of
    one game share its dice and players, so they are not independent; ``LuckyRun``).

    ``shown_moments``: per ``card_type`` shown, sums over games of won^2, tied^2, lost^2,
    shown^2, won x shown, tied x shown and lost x shown (a game's shown cards of the type,
    and those that won alone, tied and lost);
    ``die_moments``: per ``die_size`` rolled, sums of rolls^2 and rolls x all_rolls (a
    game's rolls of that size and all its rolls); ``roll_moments``: one row, the sums of
    all_rolls^2, size_sum^2 and size_sum x all_rolls (size_sum: the sizes of a game's rolls
    added)."""
    shown = totals["shown_moments"]
    types = np.nonzero(shown[:, 3])[0]
    columns = [
        "won_squares",
        "tied_squares",
        "lost_squares",
        "shown_squares",
        "won_shown",
        "tied_shown",
        "lost_shown",
    ]
    shown_table = pd.DataFrame(shown[types], columns=columns)
    shown_table.insert(0, "card_type", pd.Categorical.from_codes(types, CARD_TYPE_NAMES))
    die = totals["die_moments"]
    sizes = np.nonzero(die[:, 0])[0]
    die_table = pd.DataFrame(die[sizes], columns=["rolls_squares", "rolls_all_rolls"])
    die_table.insert(0, "die_size", sizes.astype(np.int64))
    roll = totals["roll_moments"]
    roll_table = pd.DataFrame(
        {
            "all_rolls_squares": roll[:1],
            "size_sum_squares": roll[1:2],
            "size_sum_all_rolls": roll[2:3],
        }
    )
    return {"shown_moments": shown_table, "die_moments": die_table, "roll_moments": roll_table}


GAME = LuckyLionsGame()
