"""Zoology results: game length, guesses, points by source, question cards, animals,
confusions and the cooperative game's success and achievements.

Every rate comes with its 95% Wilson interval and n.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd

from zooanalysis.errors import UserError
from zooanalysis.games.zoology.data import PRIMARY, REGIONS, predicate_matches
from zooanalysis.games.zoology.rules import (
    BOARD_COMBINATIONS,
    ZoologySettings,
    board_label,
    cells,
    settings_from_table,
)
from zooanalysis.games.zoology.strategies import new_work, own_information
from zooanalysis.results import (
    Run,
    add_rate,
    histogram_mean,
    histogram_summary,
    length_lines,
    mean_with_interval,
)
from zooanalysis.stats import format_rate, rate_table, rate_with_interval

ACHIEVEMENTS = (
    ("Discoverer", "2-player game", lambda players, regions: players == 2),
    ("Wildlife Wardens", "6-player game", lambda players, regions: players == 6),
    ("Naturalist Novice", "Primary animal board", lambda players, regions: len(regions) == 0),
    (
        "New World Adventurer",
        "Primary + America",
        lambda players, regions: tuple(regions) == ("america",),
    ),
    (
        "Safari Specialist",
        "Primary + Africa",
        lambda players, regions: tuple(regions) == ("africa",),
    ),
    ("Monsoon Voyager", "Primary + Asia", lambda players, regions: tuple(regions) == ("asia",)),
    (
        "Outback Ranger",
        "Primary + Australia",
        lambda players, regions: tuple(regions) == ("australia",),
    ),
    ("Habitat Scholar", "Primary + any 2 regions", lambda players, regions: len(regions) == 2),
    ("Biome Master", "Primary + any 3 regions", lambda players, regions: len(regions) == 3),
    ("Zoologist Legend", "Primary + all 4 regions", lambda players, regions: len(regions) == 4),
)
"""The rulebook's ten titles: (title, condition, which (players, regions) cells earn it)."""
_NATS_TO_BITS = 1.0 / math.log(2.0)
NOT_MEASURED = "not measured — turn on question_information"
"""What the tables say of a played card's information when the run did not measure it."""


def card_information(
    settings: ZoologySettings, players: int | None = None, deals: int = 300, seed: int = 0
) -> pd.Series:
    """Each card's expected information (bits) about a player's own animal at the start of
    a round, before anything is known: averaged over ``deals`` random deals of the boards.

    A property of the card and the animals alone, whatever the strategies; a card near 0
    barely tells anyone anything on these boards. See :func:`card_information_interval`
    for the same with its 95% interval.
    """
    return card_information_interval(settings, players, deals, seed)["bits"]


def card_information_interval(
    settings: ZoologySettings, players: int | None = None, deals: int = 300, seed: int = 0
) -> pd.DataFrame:
    """:func:`card_information` with its 95% interval over the random deals: columns
    ``bits``, ``ci_low``, ``ci_high`` (mean +- 1.96 standard errors; every card is judged
    on the same deals, so intervals that do not overlap mean a real difference)."""
    players = players or settings.players
    board = settings.board()
    n_neutrals = settings.neutrals_for(players)
    generator = np.random.default_rng(seed)
    n_animals = len(settings.animals)
    totals = np.zeros(len(settings.questions))
    squares = np.zeros(len(settings.questions))
    work = new_work(n_animals)
    for _ in range(deals):
        deal = generator.permutation(board)[: players + n_neutrals]
        animals = deal[:players].copy()
        neutrals = np.asarray(deal[players:], dtype=np.int64)
        prior = np.zeros(n_animals)
        prior[board] = 1.0
        prior[deal[1:]] = 0.0
        prior /= prior.sum()
        animals[0] = -1
        for card in range(len(settings.questions)):
            bits = _NATS_TO_BITS * own_information(
                card,
                0,
                animals,
                players,
                neutrals,
                n_neutrals,
                prior,
                board,
                len(board),
                settings.scores,
                settings.weights,
                work,
            )
            totals[card] += bits
            squares[card] += bits * bits
    mean = totals / deals
    variance = np.maximum(squares / deals - mean * mean, 0.0) * deals / max(deals - 1, 1)
    half = 1.959963984540054 * np.sqrt(variance / deals)
    ids = pd.Index([q.id for q in settings.questions], name="id")
    return pd.DataFrame({"bits": mean, "ci_low": mean - half, "ci_high": mean + half}, index=ids)


def void_questions(settings: ZoologySettings) -> pd.DataFrame:
    """Every card with a condition ("Who lives in the desert?"): how many animals meet it on
    the primary board and on each regional board, and the board combinations (of the 16) on
    which none does, where the card would be a plain superlative in disguise. A card is void
    on a combination exactly when every board in it has 0; ``void_on_primary`` is the first
    game's board. With ``void_questions = "leave_out"`` (the default) such cards are not dealt
    on those boards."""
    animals = settings.animals
    rows = []
    for question in settings.questions:
        if question.where is None:
            continue
        matches = predicate_matches(animals, question)
        counts = {
            board: int(sum(m for m, r in zip(matches, animals.regions, strict=True) if r == board))
            for board in (PRIMARY, *REGIONS)
        }
        void = [
            board_label(regions)
            for regions in BOARD_COMBINATIONS
            if not any(counts[board] for board in (PRIMARY, *regions))
        ]
        rows.append(
            {
                "id": question.id,
                "text": question.text,
                "condition": f"{question.where} = {question.equals}".replace("True", "true"),
                "primary": counts[PRIMARY],
                **{region: counts[region] for region in REGIONS},
                "void_on_primary": bool(void and void[0] == "primary"),
                "void_combinations": len(void),
                "void_on": ", ".join(void),
            }
        )
    return pd.DataFrame(rows).set_index("id")


def _regions_of(label: str) -> tuple[str, ...]:
    return tuple(part for part in label.split("+") if part in REGIONS)


class ZoologyRun(Run):
    """A Zoology run: every figure a rate with its 95% Wilson interval and n."""

    @property
    def cooperative(self) -> bool:
        """Whether the run played the cooperative game."""
        return self.settings.get("mode") == "cooperative"

    def _by(self, by: str | None) -> str:
        by = by or ("strategy" if self.rotated else "seat")
        if by not in ("seat", "strategy"):
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        return by

    def _seat_sums(self, by: str, columns: list[str]) -> pd.DataFrame:
        """Column sums by strategy, or by seat numbered from 1 (seat 1 is the first seat)."""
        seats = self.table("seats")
        sums = seats.groupby(by, sort=False)[[*columns, "games"]].sum()
        if by == "seat":
            sums.index = sums.index + 1
        return sums

    # --- competitive ---------------------------------------------------------------------

    def game_length(self) -> pd.DataFrame:
        """Rounds and turns (questions played) per game: mean with 95% CI, percentiles, max."""
        rows = {}
        for name in ("rounds", "turns"):
            histogram = self.table(name).groupby(name)["games"].sum()
            if histogram.sum() > 0:
                rows[name] = histogram_summary(histogram)
        return pd.DataFrame(rows).T

    def first_guess_accuracy(self, by: str | None = None) -> pd.DataFrame:
        """How often a player's first guess of a round is right, by ``seat`` or ``strategy``:
        overall, in a free-guess window (worth 2) and in the second chance phase.

        Columns ``rate, ci_low, ci_high, n`` per (group, phase). A player's first guesses
        come one a round, several to a game, but the intervals count them as independent:
        the design effect measured from per-game counts is at most 1.03 (0.96 to 1.02 by
        seat and phase with curious:guess=0*4, bayes*4 and eliminator,bounded,bayes,curious;
        0.72 to 0.99 pooled over the seats; 1.00 by seat in the cooperative game), so
        clustering would not widen them. Not so for a cooperative run's strategy that holds
        several seats: the first guesses of one table move together (design effect 1.25 for
        team*6 pooled over the seats), so by strategy its intervals are about 12% too narrow
        (the report's finding says so)."""
        by = self._by(by)
        columns = [
            "first_guesses_free",
            "first_right_free",
            "first_guesses_second_chance",
            "first_right_second_chance",
        ]
        sums = self._seat_sums(by, columns)
        frames = []
        for phase, guesses, right in (
            ("any", None, None),
            ("free", "first_guesses_free", "first_right_free"),
            ("second_chance", "first_guesses_second_chance", "first_right_second_chance"),
        ):
            if guesses is None:
                n = sums["first_guesses_free"] + sums["first_guesses_second_chance"]
                s = sums["first_right_free"] + sums["first_right_second_chance"]
            else:
                n, s = sums[guesses], sums[right]
            table = rate_table(s, n)
            table["phase"] = phase
            frames.append(table.reset_index())
        return pd.concat(frames, ignore_index=True).set_index([by, "phase"])

    def points_by_source(self, by: str | None = None) -> pd.DataFrame:
        """Mean points per game from right free guesses (2 each) and from the second chance
        phase (1 each), and the second chance's share of all points."""
        by = self._by(by)
        sums = self._seat_sums(
            by, ["points_free", "points_second_chance", "points_sum", "points_squares"]
        )
        games = sums["games"]
        table = pd.DataFrame(
            {
                "free_mean": sums["points_free"] / games,
                "second_chance_mean": sums["points_second_chance"] / games,
            }
        )
        total = sums["points_free"] + sums["points_second_chance"]
        table["second_chance_share"] = sums["points_second_chance"] / total.where(total > 0)
        intervals = [
            mean_with_interval(float(row.points_sum), float(row.points_squares), int(row.games))
            for row in sums.itertuples()
        ]
        table["points_mean"] = [mean for mean, _, _ in intervals]
        table["points_ci_low"] = [low for _, low, _ in intervals]
        table["points_ci_high"] = [high for _, _, high in intervals]
        table["n"] = games
        return table

    def end_reasons(self) -> pd.DataFrame:
        """How games ended: a player reached the points to win, or the round cap."""
        table = self.table("end_reasons").groupby("reason", sort=False)["games"].sum()
        table = table[table.index != "cooperative"]
        return rate_table(table, pd.Series(self.games_played, index=table.index))

    def second_chance_triggers(self) -> pd.DataFrame:
        """What started each round's second chance phase: a right guess or an empty supply.

        Rounds come several to a game; the intervals count them as independent (measured
        design effect 0.996 to 0.999 with bayes*4 and a mixed lineup)."""
        table = self.table("second_chance_triggers").groupby("trigger", sort=False)["rounds"].sum()
        return rate_table(table, pd.Series(int(table.sum()), index=table.index))

    def shared_free_guesses(self) -> pd.DataFrame:
        """Free-guess windows with a right guess, by how many right guesses scored 2 in them
        (several only when guessers were simultaneous, ``simultaneous_guess_chance``): the
        share of those windows (95% CI, n = windows with a right guess). Windows come
        several to a game; counted as independent (measured design effect 0.997 to 1.019)."""
        if "free_windows" not in self.table_names:
            raise KeyError("this run has no free-guess windows (cooperative, or an older run)")
        table = self.table("free_windows").groupby("right_guesses")["windows"].sum()
        return rate_table(table, pd.Series(int(table.sum()), index=table.index))

    # --- question cards ------------------------------------------------------------------

    @property
    def question_information_measured(self) -> bool:
        """Whether the run measured each played card's information (the setting
        ``question_information``; runs written before the setting existed always did)."""
        return bool(self.settings.get("question_information", True))

    def question_informativeness(self, deals: int = 300) -> pd.DataFrame:
        """Every question card, most informative first.

        ``fresh_bits``: the card's expected information about a player's own animal at the
        start of a round, on this run's boards and player count (:func:`card_information`,
        over ``deals`` random deals, with its 95% interval ``fresh_bits_ci_low/high``); the
        ranking follows it. ``played_bits``: the same for
        the asker when the card was actually played (later in a round there is less left to
        learn; NaN when the run did not measure it, :attr:`question_information_measured`).
        ``plays`` and the share of votes with no Champion (with CI). Cards at the bottom do
        little. A card is played about once a game, so its plays are about independent (the
        no-Champion share's measured design effect is 1.00 per card; pooled over every card
        it is 1.07 to 1.09, see ``report.question_section``).
        """
        table = self.table("questions")
        if "rotation" in table:
            table = table.groupby(["card", "id", "text"], as_index=False)[
                ["plays", "no_champion", "information_nats"]
            ].sum()
        plays = table["plays"].to_numpy()
        measured = plays > 0 if self.question_information_measured else np.zeros_like(plays, bool)
        with np.errstate(invalid="ignore", divide="ignore"):
            table["played_bits"] = np.where(
                measured, table["information_nats"] * _NATS_TO_BITS / np.maximum(plays, 1), np.nan
            )
        rates = rate_table(table["no_champion"].to_numpy(), plays)
        table["no_champion_rate"] = rates["rate"].to_numpy()
        table["no_champion_ci_low"] = rates["ci_low"].to_numpy()
        table["no_champion_ci_high"] = rates["ci_high"].to_numpy()
        table = table.drop(columns=["information_nats"]).set_index("id")
        order = "played_bits"
        settings = self._rules()
        if settings is not None and len(settings.questions) == len(table):
            void = np.zeros(len(table), dtype=bool)
            void[list(settings.void_cards())] = True
            table["void"] = void  # matches no animal on the run's boards
            left_out = void & (settings.void_questions == "leave_out")
            table = table[~left_out | (table["plays"].to_numpy() > 0)]
        if settings is not None and "void" in table:
            players = min(len(self.lineup), settings.players)
            fresh = card_information_interval(settings, players, deals).reindex(table.index)
            table.insert(2, "fresh_bits", fresh["bits"])
            table.insert(3, "fresh_bits_ci_low", fresh["ci_low"])
            table.insert(4, "fresh_bits_ci_high", fresh["ci_high"])
            order = "fresh_bits"
        table = table.sort_values(order, ascending=False, kind="stable")
        table.insert(0, "rank", np.arange(1, len(table) + 1))
        return table

    def void_questions(self) -> pd.DataFrame:
        """The run's cards with a condition, by board (:func:`void_questions`), with
        ``void_here`` (no animal meets it on at least one board this run played: a
        cooperative grid plays all 16) and ``left_out`` (so it was not dealt there:
        ``void_questions = "leave_out"``)."""
        settings = self._rules()
        if settings is None:
            raise KeyError("the run's animal or question file cannot be read any more")
        table = void_questions(settings)
        here = {card for cards in self.void_cards_by_board().values() for card in cards}
        table["void_here"] = table.index.isin(here)
        table["left_out"] = table["void_here"] & (settings.void_questions == "leave_out")
        return table

    def void_cards_by_board(self) -> dict[str, list[str]]:
        """For every board combination the run played (one, or a cooperative grid's 16),
        the ids of the cards whose condition no animal on it meets, in card order."""
        settings = self._rules()
        if settings is None:
            raise KeyError("the run's animal or question file cannot be read any more")
        boards = dict.fromkeys(regions for _, regions in cells(settings, settings.players))
        return {
            board_label(regions): [settings.questions[c].id for c in settings.void_cards(regions)]
            for regions in boards
        }

    def _void_lines(self) -> list[str]:
        """The summary's cards that no animal on a board meets: for one board a list; for
        several (a cooperative grid) one list per set of boards with the same such cards,
        and the boards where every card matches."""
        rules = self._rules()
        if rules is None:
            return []
        by_board = self.void_cards_by_board()
        if not any(by_board.values()):
            return []
        void = self.void_questions()
        verb = "left out" if rules.void_questions == "leave_out" else "played as plain superlatives"

        def named(cards: list[str]) -> str:
            return ", ".join(f"{card} ({void.loc[card, 'condition']})" for card in cards)

        if len(by_board) == 1:
            return [
                "",
                f"Cards whose condition no animal on these boards meets ({verb}):",
                *textwrap.wrap(
                    named(next(iter(by_board.values()))), 96,
                    initial_indent="  ", subsequent_indent="  ",
                ),
            ]  # fmt: skip
        groups: dict[tuple[str, ...], list[str]] = {}
        for board, cards in by_board.items():
            groups.setdefault(tuple(cards), []).append(board)
        lines = ["", f"Cards whose condition no animal on a board meets ({verb} there), by board:"]
        for cards, boards in groups.items():
            head = f"on {', '.join(boards)}: "
            text = head + (named(list(cards)) if cards else "none (every card matches)")
            lines += textwrap.wrap(text, 96, initial_indent="  ", subsequent_indent="    ")
        return lines

    def _suspense_lines(self) -> list[str]:
        """Lead changes per game and when the winner took the lead for good."""
        return suspense_lines(
            self.table("lead_changes").groupby("lead_changes")["games"].sum(),
            self.table("settled").groupby("settled_percent")["games"].sum(),
        )

    def _rules(self) -> ZoologySettings | None:
        """The run's settings, or None if its data files cannot be read any more."""
        try:
            return settings_from_table(self.settings)
        except UserError:
            return None

    # --- animals -------------------------------------------------------------------------

    def animal_difficulty(self) -> pd.DataFrame:
        """Every animal that was held, hardest first: the share of holders whose first guess
        was right (with CI), the share who found it at all, and wrong guesses per holding.
        Holdings of one animal rarely repeat in a game: the first-guess share's measured
        design effect is 0.96 to 1.01, so the intervals count them as independent."""
        table = self.table("animals")
        table = table.groupby(["animal", "name", "region"], as_index=False, sort=False)[
            ["held", "guessed", "found", "first_right", "wrong_guesses"]
        ].sum()
        table = table[table["held"] > 0].copy()
        first = rate_table(table["first_right"].to_numpy(), table["guessed"].to_numpy())
        found = rate_table(table["found"].to_numpy(), table["held"].to_numpy())
        table["first_guess_rate"] = first["rate"].to_numpy()
        table["first_guess_ci_low"] = first["ci_low"].to_numpy()
        table["first_guess_ci_high"] = first["ci_high"].to_numpy()
        table["found_rate"] = found["rate"].to_numpy()
        table["wrong_per_holding"] = table["wrong_guesses"] / table["held"]
        return table.sort_values(["first_guess_rate", "found_rate"]).set_index("animal")

    def confusions(self, pairs: bool = True) -> pd.DataFrame:
        """Wrong guesses by (animal held, animal guessed), most frequent first; with
        ``pairs`` the two directions of each pair are added up. (The summary's shares of the
        wrong guesses count them as independent: measured design effect 0.92 to 0.98 for the
        most confused pairs.)"""
        table = (
            self.table("confusions").groupby(["animal", "guessed"], as_index=False)["count"].sum()
        )
        total = table["count"].sum()
        if pairs and len(table):
            first = np.minimum(table["animal"].to_numpy(), table["guessed"].to_numpy())
            second = np.maximum(table["animal"].to_numpy(), table["guessed"].to_numpy())
            table = (
                pd.DataFrame({"animal": first, "confused_with": second, "count": table["count"]})
                .groupby(["animal", "confused_with"], as_index=False)["count"]
                .sum()
            )
        table["share_of_wrong_guesses"] = table["count"] / total if total else np.nan
        return table.sort_values("count", ascending=False, kind="stable").reset_index(drop=True)

    # --- cooperative ---------------------------------------------------------------------

    def cooperative_success(self) -> pd.DataFrame:
        """Success probability (every player found their animal) per (players, boards) cell,
        with 95% CI."""
        if "cooperative" not in self.table_names:
            raise KeyError('this run played the competitive game; use mode = "cooperative"')
        table = (
            self.table("cooperative")
            .groupby(["players", "boards", "regions"])[["successes", "games"]]
            .sum()
        )
        result = rate_table(table["successes"], table["games"])
        return result[result["n"] > 0]

    def achievements(self, players: int | None = None) -> pd.DataFrame:
        """The ten achievements ranked hardest first.

        ``rate`` (95% CI, n) pools the games of every (players, boards) cell that earns the
        title: the chance that a table playing those cells equally often succeeds. With
        ``players`` set, the board titles count that player count only. ``best_*`` is the
        easiest qualifying cell, the one a group chasing the title would pick.
        """
        cells = self.cooperative_success().reset_index()
        rows = []
        for title, condition, earns in ACHIEVEMENTS:
            by_players = title in ("Discoverer", "Wildlife Wardens")
            mask = [
                earns(n, _regions_of(label)) and (players is None or by_players or n == players)
                for n, label in zip(cells["players"], cells["boards"], strict=True)
            ]
            chosen = cells[mask]
            if chosen.empty:
                continue
            successes = (chosen["rate"] * chosen["n"]).round().sum()
            pooled = rate_table([successes], [chosen["n"].sum()]).iloc[0]
            best = chosen.sort_values("rate", ascending=False, kind="stable").iloc[0]
            rows.append(
                {
                    "title": title,
                    "condition": condition,
                    "rate": pooled["rate"],
                    "ci_low": pooled["ci_low"],
                    "ci_high": pooled["ci_high"],
                    "n": int(pooled["n"]),
                    "cells": len(chosen),
                    "best_cell": f"{int(best['players'])} players, {best['boards']}",
                    "best_rate": best["rate"],
                    "best_ci_low": best["ci_low"],
                    "best_ci_high": best["ci_high"],
                    "best_n": int(best["n"]),
                }
            )
        table = pd.DataFrame(rows)
        if table.empty:
            return table
        table = table.sort_values(["rate", "best_rate"], kind="stable").reset_index(drop=True)
        table.insert(0, "difficulty_rank", np.arange(1, len(table) + 1))
        return table.set_index("title")

    # --- summaries -----------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Win rates plus length, first-guess accuracy and (cooperative) success, flat."""
        values = super().metrics()
        for name, row in self.game_length().iterrows():
            values[f"{name}_mean"] = row["mean"]
            values[f"{name}_ci_low"] = row["ci_low"]
            values[f"{name}_ci_high"] = row["ci_high"]
        accuracy = self.first_guess_accuracy("strategy")
        for (name, phase), row in accuracy.iterrows():
            add_rate(values, f"{name}_first_guess_{phase}", row)
        if self.cooperative:
            table = self.table("cooperative")
            overall = rate_table([table["successes"].sum()], [table["games"].sum()]).iloc[0]
            add_rate(values, "cooperative_success", overall)
        return values

    def summary(self) -> str:
        """Headline figures for designers, each rate with its 95% CI and n."""
        lines = [super().summary() if not self.cooperative else self._header()]
        if self.cooperative:
            lines += ["", "Cooperative success (every player found their animal), by cell:"]
            for (players, boards, _), row in self.cooperative_success().iterrows():
                lines.append(
                    f"  {players} players, {boards:<36} "
                    f"{format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}"
                )
            achievements = self.achievements()
            if len(achievements) and self.settings.get("cooperative_grid"):
                lines += [
                    "",
                    "Achievements, hardest first (success over every qualifying cell; "
                    "the easiest cell):",
                ]
                for title, row in achievements.iterrows():
                    lines.append(
                        f"  {int(row.difficulty_rank):>2}. {title:<20} {row.condition:<23} "
                        + format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))
                        + f"; best {row.best_rate:.1%} ({row.best_cell})"
                    )
        lines += length_lines(self.game_length())
        by = "strategy" if self.rotated else "seat"
        labels = self.table("seats").groupby("seat")["strategy"].first()

        def name_of(key) -> str:
            """A row label: ``seat 1 curious`` or the strategy."""
            return f"seat {key} {labels[key - 1]:<22}" if by == "seat" else f"{key:<29}"

        lines += ["", "First guess of a round right (any phase; free guesses; second chance):"]
        accuracy = self.first_guess_accuracy(by)
        for key in accuracy.index.get_level_values(0).unique():
            parts = []
            for phase in ("any", "free", "second_chance"):
                row = accuracy.loc[(key, phase)]
                parts.append(format_rate(row.rate, row.ci_low, row.ci_high, int(row.n)))
            lines.append(f"  {name_of(key)} {parts[0]}")
            lines.append(f"  {'':<29}   free {parts[1]}; second chance {parts[2]}")
        if not self.cooperative:
            lines += [
                "",
                "Points per game: right guesses while questions are asked (2 each) "
                "+ second chance (1 each):",
            ]
            lines.append(
                "  (the split is a point estimate: the run keeps no squares of the parts; "
                "total points mean [95% CI], n = games)"
            )
            for key, row in self.points_by_source(by).iterrows():
                lines.append(
                    f"  {name_of(key)} {row.free_mean:5.2f} + {row.second_chance_mean:5.2f}"
                    f" (second chance {row.second_chance_share:.1%} of points); total "
                    f"{row.points_mean:.2f} [{row.points_ci_low:.2f}, {row.points_ci_high:.2f}]"
                    f" (n={int(row.n):,})"
                )
            lines += ["", *self._suspense_lines()]
            if "free_windows" in self.table_names:
                windows = self.table("free_windows").groupby("right_guesses")["windows"].sum()
                n = int(windows.sum())
                if n:
                    row = rate_table([int(windows[windows.index > 1].sum())], [n]).iloc[0]
                    lines += [
                        "",
                        "Right free guesses shared (several right in one window, each 2 points):",
                        f"  {'windows with a right guess':<29} "
                        + format_rate(row.rate, row.ci_low, row.ci_high, n),
                    ]
            lines += ["", "Second chance phase started by:"]
            for trigger, row in self.second_chance_triggers().iterrows():
                lines.append(
                    f"  {trigger:<29} {format_rate(row.rate, row.ci_low, row.ci_high, int(row.n))}"
                )
        questions = self.question_informativeness()
        questions = questions[questions["plays"] > 0]
        measured = self.question_information_measured
        lines += [
            "",
            "Question cards (expected information about your own animal at a round's start, "
            + ("bits; when played; " if measured else "bits; ")
            + "share with no Champion):",
        ]
        if not measured:
            lines.append(f"  (when played: {NOT_MEASURED})")
        shown = (
            pd.concat([questions.head(5), questions.tail(5)]) if len(questions) > 10 else questions
        )
        for position, (card, row) in enumerate(shown.iterrows()):
            if position == 5 and len(questions) > 10:
                lines.append("  ...")
            fresh = f"{row.fresh_bits:5.2f}" if "fresh_bits" in row else "  n/a"
            played = f"{row.played_bits:5.2f} when played; " if measured else ""
            lines.append(
                f"  {int(row['rank']):>2}. {card:<20} {fresh} bits; {played}"
                "no Champion "
                + format_rate(row.no_champion_rate, row.no_champion_ci_low,
                              row.no_champion_ci_high, int(row.plays))
            )
        lines += self._void_lines()
        animals = self.animal_difficulty()
        if len(animals):
            lines += ["", "Animals by first guess right, lowest first (95% CI):"]
            picked = pd.concat([animals.head(5), animals.tail(3)]) if len(animals) > 8 else animals
            for position, (animal, row) in enumerate(picked.iterrows()):
                if position == 5 and len(animals) > 8:
                    lines.append("  ...")
                lines.append(
                    f"  {animal:<20} "
                    + format_rate(
                        row.first_guess_rate,
                        row.first_guess_ci_low,
                        row.first_guess_ci_high,
                        int(row.guessed),
                    )
                )
        confusions = self.confusions().head(5)
        if len(confusions):
            wrong = int(self.table("confusions")["count"].sum())
            lines += ["", f"Most confused pairs (wrong guesses, both directions; share of the "
                          f"{wrong:,} wrong guesses, 95% CI):"]  # fmt: skip
            shares = rate_table(confusions["count"].to_numpy(), wrong)
            for row, share in zip(confusions.itertuples(), shares.itertuples(), strict=True):
                pair = f"{row.animal} / {row.confused_with}"
                interval = rate_with_interval(share.rate, share.ci_low, share.ci_high)
                lines.append(f"  {pair:<29} {row.count:>10,} ({interval})")
        return "\n".join(lines)


def suspense_lines(lead_changes: pd.Series, settled: pd.Series) -> list[str]:
    """"How open the games stay" from the histograms of lead changes per game and of the
    percentage of turns after which the winner led for good (games won alone): the mean
    lead changes with its 95% interval, and the shares of games with none and of games
    settled in the last 20% of the turns with their Wilson intervals and n."""
    lines = ["How open the games stay:"]
    games = int(lead_changes.sum())
    if games:
        mean, low, high = histogram_mean(lead_changes)
        none = rate_table([int(lead_changes.get(0, 0))], [games]).iloc[0]
        lines.append(
            f"  lead changes per game        mean {mean:.2f} [{low:.2f}, {high:.2f}], none in "
            f"{format_rate(none.rate, none.ci_low, none.ci_high, games)} of games"
        )
    won_alone = int(settled.sum())
    if won_alone:
        cumulative = settled.cumsum() / won_alone
        median = int(settled.index[np.searchsorted(cumulative.to_numpy(), 0.5)])
        late = rate_table([int(settled[settled.index >= 80].sum())], [won_alone]).iloc[0]
        lines.append(
            f"  winner leads for good from   median {median}% of the turns; in the last 20% "
            f"in {format_rate(late.rate, late.ci_low, late.ci_high, won_alone)} of games won "
            "alone"
        )
    return lines
