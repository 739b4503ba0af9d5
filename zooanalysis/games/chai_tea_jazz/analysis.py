"""Chai Tea Jazz results: the designer's questions as DataFrames, each rate with its 95%
Wilson interval and n, each mean with its 95% interval and n.

* :meth:`ChaiRun.contract_points`: game points each contract row gave, by strategy;
* :meth:`ChaiRun.declarer_points`: what declarers score in each contract, its spread, and
  which contract is easiest to make;
* :meth:`ChaiRun.contract_choices`: how often each contract was forced, picked first, won in
  a bet, or taken for an offer (Passing the Barrel);
* :meth:`ChaiRun.bet_debt`, :meth:`ChaiRun.debt_usage`: how Bet Debt is used and whether it
  pays (the declarer's points less the debt, and the row's game points, by debt);
* :meth:`ChaiRun.barrel_positions`: the Barrel holder's advantage;
* :meth:`ChaiRun.early_end`, :meth:`ChaiRun.tie_breaks`, :meth:`ChaiRun.matches`;
* :meth:`ChaiRun.ways`, :meth:`ChaiRun.evaluation_fit`, :meth:`ChaiRun.game_points`.

Seats and positions are numbered from 1 in every table a person reads.

Rates over rounds (12 a game with three players) count the rounds as independent. Measured
from per-game counts (seed 7; 5,000 games of three ``tracker`` and 30,000 of three
``random``), the design effect (variance clustered by game over that of independent rounds)
of how each contract was decided, the first pick, the share of rounds at each Bet Debt, the
declarer's position from the Barrel holder, Match Points and the raise share of picks is
0.58-1.02: rounds of one game are as good as independent (at most 1.05; a player declares
each contract once, so a game's rounds tend to balance), and these keep the Wilson interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from zooanalysis.games.chai_tea_jazz.engine import HOW_NAMES
from zooanalysis.games.chai_tea_jazz.rules import ChaiSettings, settings_from_table
from zooanalysis.results import Run, add_rate, histogram_summary, mean_with_interval
from zooanalysis.separation import Standout, estimates_of, standout
from zooanalysis.stats import format_rate, rate_table, rate_with_interval

Z95 = 1.959963984540054


def mean_row(total: float, squares: float, n: int) -> dict[str, float]:
    """Mean, 95% interval, standard deviation and n from a sum and a sum of squares."""
    mean, low, high = mean_with_interval(float(total), float(squares), int(n))
    variance = float(squares) / n - mean * mean if n else float("nan")
    sd = float(np.sqrt(max(variance, 0.0))) if n else float("nan")
    return {"mean": mean, "ci_low": low, "ci_high": high, "sd": sd, "n": int(n)}


def format_mean(mean: float, low: float, high: float, n: int | None = None) -> str:
    """``12.34 [12.10, 12.58]`` (with ``(n=...)`` if given)."""
    text = f"{mean:.2f} [{low:.2f}, {high:.2f}]"
    return text if n is None else f"{text} (n={n:,})"


def correlation_interval(r: float, n: int) -> tuple[float, float]:
    """95% interval of a correlation coefficient (Fisher's z)."""
    if n <= 3 or not np.isfinite(r) or abs(r) >= 1:
        return float("nan"), float("nan")
    z = np.arctanh(r)
    half = Z95 / np.sqrt(n - 3)
    return float(np.tanh(z - half)), float(np.tanh(z + half))


class ChaiRun(Run):
    """A Chai Tea Jazz run: contracts, picking, Bet Debt, the Barrel and the early end."""

    def rules(self) -> ChaiSettings:
        """The run's settings as :class:`ChaiSettings` (the player count from the lineup)."""
        settings = dict(self.settings)
        settings["players"] = len(self.lineup)
        return settings_from_table(settings)

    @property
    def rounds_per_game(self) -> int:
        """Rounds in a whole game (without the early end)."""
        return self.rules().rounds

    def _with_strategy(self, table: pd.DataFrame) -> pd.DataFrame:
        """``table`` with a ``strategy`` column for its ``seat`` column (per rotation)."""
        table = table.copy()
        if "strategy" not in table:
            table["strategy"] = self.seat_strategies(table, "seat")
        return table

    def _group(self, table: pd.DataFrame, by: str) -> pd.DataFrame:
        if by not in ("seat", "strategy"):
            raise ValueError(f"by must be 'seat' or 'strategy', not {by!r}")
        return self._with_strategy(table) if by == "strategy" else table

    # --- points ----------------------------------------------------------------------------

    def game_points(self, by: str = "seat") -> pd.DataFrame:
        """Mean game points per game with 95% CI, by seat (from 1) or strategy."""
        seats = self._group(self.table("seats"), by)
        grouped = seats.groupby(by, sort=False)[["points_sum", "points_squares", "games"]].sum()
        table = pd.DataFrame(
            {k: mean_row(r.points_sum, r.points_squares, r.games) for k, r in grouped.iterrows()}
        ).T
        if by == "seat":
            table.index = table.index + 1
        table.index.name = by
        return table.astype({"n": np.int64})

    def contract_points(self, by: str = "strategy") -> pd.DataFrame:
        """Game points each contract row gave per game (mean with 95% CI), by strategy or
        seat: a team's row points count for each of its players."""
        table = self._group(self.table("contracts"), by)
        table = table.assign(games=self.games)  # one row per seat (and seating, if rotated)
        grouped = table.groupby([by, "contract"], sort=False)[
            ["game_points_sum", "game_points_squares", "games"]
        ].sum()
        rows = {
            key: mean_row(r.game_points_sum, r.game_points_squares, r.games)
            for key, r in grouped.iterrows()
        }
        result = pd.DataFrame(rows).T
        result.index.names = [by, "contract"]
        return result.astype({"n": np.int64})

    def declarer_points(self, by: str = "contract") -> pd.DataFrame:
        """What declarers make in each contract: ``points`` (the cards and last trick their
        side took, before Bet Debt) and ``score`` (what is written on the pad), each a mean
        with 95% CI and standard deviation, with the score's 10%, 50% and 90% quantiles;
        ``by`` = ``contract`` or ``strategy`` (one row per strategy and contract)."""
        table = self._with_strategy(self.table("contracts"))
        keys = ["contract"] if by == "contract" else ["strategy", "contract"]
        grouped = table.groupby(keys, sort=False)[
            ["declared", "gross_sum", "gross_squares", "score_sum", "score_squares"]
        ].sum()
        records = {}
        for key, r in grouped.iterrows():
            points = mean_row(r.gross_sum, r.gross_squares, r.declared)
            score = mean_row(r.score_sum, r.score_squares, r.declared)
            records[key] = {f"points_{k}": v for k, v in points.items()} | {
                f"score_{k}": v for k, v in score.items()
            }
        result = pd.DataFrame(records).T
        result.index.names = keys
        # the standard deviation's 95% interval, large-sample: sd * (1 +- 1.96 / sqrt(2(n-1)))
        half = Z95 / np.sqrt(2.0 * np.maximum(result["points_n"].astype(float) - 1.0, 1.0))
        result["points_sd_ci_low"] = result["points_sd"] * (1 - half)
        result["points_sd_ci_high"] = result["points_sd"] * (1 + half)
        if by == "contract":
            scores = self.table("scores").groupby(["contract", "score"])["rounds"].sum()
            for contract in result.index:
                summary = histogram_summary(scores.loc[contract])
                for q in ("p10", "median", "p90"):
                    result.loc[contract, f"score_{q}"] = summary[q]
        return result.astype({"points_n": np.int64, "score_n": np.int64})

    def easiest_contract(self) -> tuple[str, bool]:
        """(the contract whose declarers take the most points, whether its interval lies
        above every other contract's)."""
        declared = self.declarer_points("contract")
        best = easiest_contracts(declared)
        return best.top.name, best.clear and len(declared) > 1

    # --- picking ---------------------------------------------------------------------------

    def contract_choices(self, by: str = "contract") -> pd.DataFrame:
        """How each contract's rounds were decided (``forced``: everybody passed and the
        Barrel holder had to pick; ``uncontested``: a first pick nobody raised; ``bet``: won
        with Bet Debt; ``offer``: taken for a Barrel offer), each a share of the contract's
        rounds with its Wilson interval; ``first_pick``: the share of Picking phases whose
        first pick named the contract (n = phases with a pick). ``by`` = ``contract`` or
        ``strategy`` (the declarer's)."""
        table = self._with_strategy(self.table("contracts"))
        keys = ["contract"] if by == "contract" else ["strategy", "contract"]
        grouped = table.groupby(keys, sort=False)[["declared", "first_picks", *HOW_NAMES]].sum()
        parts = [
            rate_table(grouped[how], grouped["declared"]).add_prefix(f"{how}_") for how in HOW_NAMES
        ]
        result = parts[0].join(parts[1:])
        phases = self.table("bids")
        picked = int(phases.loc[phases["picks"] > 0, "rounds"].sum())
        if by == "contract":
            first = rate_table(grouped["first_picks"], pd.Series(picked, grouped.index))
            result = result.join(first.add_prefix("first_pick_"))
        result.insert(0, "rounds", grouped["declared"].astype(np.int64))
        return result

    def picks_per_phase(self) -> pd.DataFrame:
        """Picks in one Picking phase: mean with 95% CI, quartiles, 10%/90%, maximum, n."""
        histogram = self.table("bids").groupby("picks")["rounds"].sum()
        return pd.DataFrame({"picks_per_phase": histogram_summary(histogram)}).T

    # --- Bet Debt ----------------------------------------------------------------------------

    def bet_debt(self, contract: str | None = None) -> pd.DataFrame:
        """By Bet Debt (all contracts, or one): the share of rounds declared at that debt
        (Wilson), the declarer's points before the debt and its score after it (means with
        95% CIs), and the mean game points the row gave the declaring side at that debt
        (rows scored; n = row entries). Does a raise pay? Compare the score and the game
        points with those at debt 0."""
        debts = self.table("debts")
        if contract is not None:
            debts = debts[debts["contract"] == contract]
        grouped = debts.groupby("debt")[
            ["rounds", "gross_sum", "gross_squares", "score_sum", "score_squares", "row_entries",
             "game_points_sum", "game_points_squares"]
        ].sum()  # fmt: skip
        rounds = int(grouped["rounds"].sum())
        result = rate_table(grouped["rounds"], pd.Series(rounds, grouped.index)).add_prefix(
            "share_"
        )
        for name, total, squares, n in (
            ("points", "gross_sum", "gross_squares", "rounds"),
            ("score", "score_sum", "score_squares", "rounds"),
            ("game_points", "game_points_sum", "game_points_squares", "row_entries"),
        ):
            values = pd.DataFrame(
                {d: mean_row(r[total], r[squares], r[n]) for d, r in grouped.iterrows()}
            ).T
            result = result.join(values.drop(columns="sd").add_prefix(f"{name}_"))
        result.index.name = "debt"
        return result

    def bet_rounds(self) -> pd.Series:
        """The share of rounds whose contract was won with Bet Debt (Wilson)."""
        debts = self.table("debts").groupby("debt")["rounds"].sum()
        return rate_table([int(debts[debts.index > 0].sum())], [int(debts.sum())]).iloc[0]

    def debt_usage(self, by: str = "strategy") -> pd.DataFrame:
        """Per strategy (or seat): picks per round, the share of its picks that raised the Bet
        Debt (Wilson, n = picks), and the share of its declared rounds won with a debt."""
        seats = self._group(self.table("seats"), by)
        contracts = self._group(self.table("contracts"), by)
        picks = seats.groupby(by, sort=False)[["picks", "raises", "passes", "games"]].sum()
        result = rate_table(picks["raises"], picks["picks"]).add_prefix("raise_")
        declared = contracts.groupby(by, sort=False)[["declared", "bet"]].sum()
        result = result.join(rate_table(declared["bet"], declared["declared"]).add_prefix("bet_"))
        result["picks_per_round"] = picks["picks"] / (picks["games"] * self.rounds_per_game)
        return result

    # --- the Barrel and the end ------------------------------------------------------------

    def barrel_positions(self) -> pd.DataFrame:
        """Declarers by position counted from the round's Barrel holder (1 = the holder, who
        decides first and must pick if everyone passes): the share of rounds (Wilson) and
        the mean score (95% CI)."""
        positions = self.table("positions").groupby("position")[
            ["rounds", "score_sum", "score_squares"]
        ].sum()
        total = int(positions["rounds"].sum())
        result = rate_table(positions["rounds"], pd.Series(total, positions.index)).add_prefix(
            "share_"
        )
        scores = pd.DataFrame(
            {p: mean_row(r.score_sum, r.score_squares, r.rounds) for p, r in positions.iterrows()}
        ).T
        result = result.join(scores.add_prefix("score_"))
        result.index = result.index + 1
        result.index.name = "position"
        return result

    def early_end(self) -> pd.DataFrame:
        """How often a winner was certain before the last round (so that 'players may end the
        game early'), with its Wilson interval, and the rounds that would save (mean with 95%
        CI over all games)."""
        certain = self.table("certain").groupby("rounds")["games"].sum()
        total = int(certain.sum())
        rounds = self.rounds_per_game
        early = int(certain[certain.index < rounds].sum())
        row = rate_table([early], [total]).iloc[0].to_dict()
        saved = pd.Series(certain.values, index=rounds - certain.index)
        mean, low, high = mean_with_interval(
            float((saved.index * saved).sum()), float((saved.index**2 * saved).sum()), total
        )
        row |= {"rounds_saved_mean": mean, "rounds_saved_ci_low": low,
                "rounds_saved_ci_high": high, "rounds": rounds}  # fmt: skip
        return pd.DataFrame([row], index=pd.Index(["early_end"], name="what"))

    def certain_after(self) -> pd.DataFrame:
        """Rounds played when the winner became certain: the share of games (Wilson)."""
        certain = self.table("certain").groupby("rounds")["games"].sum()
        return rate_table(certain, pd.Series(certain.sum(), certain.index))

    def tie_breaks(self) -> pd.Series:
        """The share of games decided by 'the player who finished all their contracts first'
        (Wilson)."""
        ends = self.table("game_ends").sum()
        return rate_table([int(ends["tie_breaks"])], [int(ends["games"])]).iloc[0]

    def matches(self) -> pd.DataFrame:
        """Rounds in which one side won every trick (Match Points), by the declaring side or a
        defending side (Wilson, n = rounds)."""
        ends = self.table("game_ends").sum()
        rounds = int(self.table("positions")["rounds"].sum())
        counts = pd.Series(
            {"declaring": int(ends["match_declaring"]), "defending": int(ends["match_defending"])}
        )
        return rate_table(counts, pd.Series(rounds, counts.index))

    # --- ways and evaluation ---------------------------------------------------------------

    def ways(self) -> pd.DataFrame:
        """Each contract's ways (trump suit, start direction, the Joker's choice): the share
        of the contract's rounds played that way (Wilson) and the mean score (95% CI)."""
        options = self.table("options").groupby(["contract", "way"], sort=False)[
            ["rounds", "score_sum", "score_squares"]
        ].sum()
        totals = options.groupby(level=0)["rounds"].transform("sum")
        result = rate_table(options["rounds"], totals).add_prefix("share_")
        scores = pd.DataFrame(
            [mean_row(r.score_sum, r.score_squares, r.rounds) for _, r in options.iterrows()],
            index=options.index,
        )
        return result.join(scores.add_prefix("score_")).astype({"score_n": np.int64})

    def evaluation_fit(self) -> pd.DataFrame:
        """How well the heuristics' hand evaluation (``evaluation.hand_value``) predicted the
        points their side then took, per contract (rounds heuristics declared): mean value,
        mean points, and their correlation with its 95% interval."""
        table = self.table("evaluation").groupby("contract", sort=False).sum(numeric_only=True)
        rows = {}
        for contract, r in table.iterrows():
            n = int(r["n"])
            if n < 2:
                continue
            mv, mp = r["value"] / n, r["points"] / n
            sv = np.sqrt(max(r["value_squares"] / n - mv * mv, 0.0))
            sp = np.sqrt(max(r["points_squares"] / n - mp * mp, 0.0))
            corr = (r["products"] / n - mv * mp) / (sv * sp) if sv > 0 and sp > 0 else np.nan
            low, high = correlation_interval(corr, n)
            rows[contract] = {"value_mean": mv, "points_mean": mp, "correlation": corr,
                              "ci_low": low, "ci_high": high, "n": n}  # fmt: skip
        return pd.DataFrame(rows).T

    # --- summary ---------------------------------------------------------------------------

    def metrics(self) -> dict[str, float]:
        """Win rates plus the contracts, Bet Debt and the early end, flat (one sweep row)."""
        values = super().metrics()
        declared = self.declarer_points("contract")
        for contract, row in declared.iterrows():
            key = _key(contract)
            for stat in ("mean", "ci_low", "ci_high"):
                values[f"{key}_points_{stat}"] = row[f"points_{stat}"]
        choices = self.contract_choices("contract")
        for contract, row in choices.iterrows():
            add_rate(values, f"{_key(contract)}_forced", _prefixed(row, "forced_"))
        add_rate(values, "early_end", self.early_end().iloc[0])
        add_rate(values, "tie_break", self.tie_breaks())
        add_rate(values, "bet_rounds", self.bet_rounds())
        picks = self.picks_per_phase().iloc[0]
        values["picks_per_phase_mean"] = picks["mean"]
        match = self.matches()
        add_rate(values, "match_declaring", match.loc["declaring"])
        return values

    def summary(self) -> str:
        """Headline figures: win rates, then contracts, picking, Bet Debt and the end."""
        rules = self.rules()
        lines = [super().summary(), "", f"Rules: {describe_rules(rules)}", ""]
        lines.append("Game points per game (mean [95% CI], n = seat-games):")
        for key, row in self.game_points("strategy").iterrows():
            lines.append(
                f"  {key:<29} {format_mean(row['mean'], row.ci_low, row.ci_high, int(row.n))}"
            )
        lines += ["", "Declarer points by contract (cards and last trick, before Bet Debt; "
                      "mean [95% CI], sd; score after debt: median, 10%-90%):"]  # fmt: skip
        for contract, row in self.declarer_points("contract").iterrows():
            lines.append(
                f"  {contract:<29} "
                f"{format_mean(row.points_mean, row.points_ci_low, row.points_ci_high)}, "
                f"sd {row.points_sd:.1f}; score median {row.score_median:.0f}, "
                f"{row.score_p10:.0f} to {row.score_p90:.0f} (n={int(row.points_n):,})"
            )
        lines.append(f"  {easiest_line(self.declarer_points('contract'))}")
        lines += ["", "How contracts were decided (share of the contract's rounds, 95% CI; "
                      "named by the first pick: share of Picking phases with a pick):"]  # fmt: skip
        for contract, row in self.contract_choices("contract").iterrows():
            lines += choice_lines(contract, row, rules.passing_the_barrel)
        debts = self.bet_debt()
        lines += ["", "Bet Debt: the share of the "
                      f"{int(debts['share_n'].iloc[0]) if len(debts) else 0:,} rounds declared "
                      "at each debt (95% CI), then the declarer's points before and score "
                      "after the debt (mean [95% CI], n = those rounds) and the row's game "
                      "points (n = row entries):"]  # fmt: skip
        for debt, row in debts.iterrows():
            game_points = (
                format_mean(row.game_points_mean, row.game_points_ci_low,
                            row.game_points_ci_high, int(row.game_points_n))
                if row.game_points_n else "-"
            )  # fmt: skip
            share = rate_with_interval(row.share_rate, row.share_ci_low, row.share_ci_high)
            lines.append(
                f"  debt {debt:>3}  {share}, points "
                f"{format_mean(row.points_mean, row.points_ci_low, row.points_ci_high)}, score "
                f"{format_mean(row.score_mean, row.score_ci_low, row.score_ci_high)} "
                f"(n={int(row.points_n):,}), game points {game_points}"
            )
        positions = self.barrel_positions()
        lines += ["", "Declarers by position from the Barrel holder (1 = the holder):"]
        for position, row in positions.iterrows():
            share = format_rate(row.share_rate, row.share_ci_low, row.share_ci_high,
                                int(row.share_n))  # fmt: skip
            score = format_mean(row.score_mean, row.score_ci_low, row.score_ci_high)
            lines.append(f"  position {position}  {share}, mean score {score}")
        early = self.early_end().iloc[0]
        saved = format_mean(early.rounds_saved_mean, early.rounds_saved_ci_low,
                            early.rounds_saved_ci_high)  # fmt: skip
        ties = self.tie_breaks()
        lines += [
            "",
            f"Winner certain before the last round (the early end): "
            f"{format_rate(early.rate, early.ci_low, early.ci_high, int(early.n))}, saving "
            f"{saved} of {int(early.rounds)} rounds",
            f"Decided by who finished first (tie-break): "
            f"{format_rate(ties.rate, ties.ci_low, ties.ci_high, int(ties.n))}",
        ]  # fmt: skip
        return "\n".join(lines)


def easiest_contracts(declared: pd.DataFrame) -> Standout:
    """The contract whose declarers take the most points (``declared``: a table of
    :meth:`ChaiRun.declarer_points` by contract) and those the intervals do not separate
    from it (:func:`separation.standout`)."""
    return standout(estimates_of(declared, "points_mean", "points_ci_low", "points_ci_high"))


def easiest_line(declared: pd.DataFrame) -> str:
    """The summary's finding on the easiest contract: named only when its interval lies
    above every other contract's, else "no measurable difference" between it and the
    contracts not separated from it, each with its interval."""
    best = easiest_contracts(declared)
    if best.clear and len(declared) > 1:
        return f"Easiest to make: {best.top.name} (its interval above every other's)"
    if len(declared) < 2:
        return f"Easiest to make: {best.top.name} (the only contract)"
    level = ", ".join(
        f"{e.name} {format_mean(e.value, e.low, e.high)}" for e in best.level
    )
    return f"Easiest to make: no measurable difference between {level}"


def choice_lines(contract: str, row: pd.Series, offers: bool) -> list[str]:
    """A contract's lines of "How contracts were decided": each way (forced, uncontested,
    bet, and offer with Passing the Barrel) as a share of its rounds with the 95% Wilson
    interval, n once (the contract's rounds), then the share of Picking phases whose first
    pick named it (its own n)."""
    ways = [how for how in HOW_NAMES if how != "offer" or offers]
    parts = [
        f"{how} " + rate_with_interval(row[f"{how}_rate"], row[f"{how}_ci_low"],
                                       row[f"{how}_ci_high"])
        for how in ways
    ]  # fmt: skip
    first = format_rate(row.first_pick_rate, row.first_pick_ci_low, row.first_pick_ci_high,
                        int(row.first_pick_n))  # fmt: skip
    return [
        f"  {contract:<29} " + ", ".join(parts) + f" (n={int(row[f'{ways[0]}_n']):,} rounds)",
        f"  {'':<29} named by the first pick {first}",
    ]


def _key(name: str) -> str:
    """A metrics key from a contract name (``Black Suit Trump`` -> ``black_suit_trump``)."""
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")


def _prefixed(row: pd.Series, prefix: str) -> pd.Series:
    """The columns of ``row`` starting with ``prefix``, without it (rate, ci_low ...)."""
    picked = row[[name for name in row.index if name.startswith(prefix)]]
    return picked.rename(lambda name: name.removeprefix(prefix))


def describe_rules(rules: ChaiSettings) -> str:
    """The player count, deck, contracts and variants in play, in words."""
    teams = f", {rules.sides} teams" if rules.team_size > 1 else ""
    contracts = ", ".join(f"{c.name} ({c.value})" for c in rules.contracts)
    parts = [f"{rules.players} players{teams}", f"{rules.deck} deck", f"contracts {contracts}"]
    if rules.passing_the_barrel:
        parts.append("Passing the Barrel")
    if rules.match_points:
        parts.append(f"Match Points ({rules.match_points})")
    if rules.cumulative != "off":
        parts.append(f"Cumulative ({rules.cumulative} wins)")
    if rules.early_end:
        parts.append("early end played")
    return "; ".join(parts)
