"""Zoology's sections of ``zoosim report`` (the ``Game.report_sections`` hook).

Cooperative runs: the team's success on every (player count x board combination) and the
ten achievements ranked by difficulty. Every run: the question cards ranked by how much
they tell (and how often they end with no Champion), the hardest and easiest animals to
identify and the most confused pairs, and how often first guesses are right; competitive
runs add where the points come from and what starts the second chance phase.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from zooanalysis.games.zoology.analysis import NOT_MEASURED, ZoologyRun
from zooanalysis.games.zoology.data import REGIONS
from zooanalysis.report.model import (
    Figure,
    Finding,
    Section,
    Table,
    estimates_of,
    percent,
    rate_phrase,
)
from zooanalysis.report.style import (
    HEATMAP,
    MAX_FIGURE_WIDTH,
    MISSING,
    PALETTE,
    REFERENCE,
    new_figure,
    new_grid,
    percent_axis,
    rate_bars,
)
from zooanalysis.separation import Estimate, Standout, standout
from zooanalysis.stats import rate_table

MIN_CELL_GAMES = 30
"""Cooperative cells with fewer games are greyed out and never named in a finding."""
MIN_GUESSES = 30
"""Animals with fewer first guesses are drawn but never named hardest or easiest."""
MIN_PLAYS = 30
"""Question cards played fewer times are never named in a no-Champion finding."""
LITTLE = 0.5
"""A card 'does little' if it tells less than this share of what the deck's best card tells."""
CONFUSIONS_SHOWN = 12
DEALS = 300
"""Random deals behind each card's expected information (``question_informativeness``)."""
PHASE_NAMES = {
    "free": "while questions are asked (worth 2)",
    "second_chance": "in the second chance (worth 1)",
}

DEFINITIONS = {
    "Cooperative success": "The share of cooperative games in which every player found their "
    "own animal, with its 95% Wilson interval and the number of games.",
    "Achievement difficulty": "The ten titles of the rulebook, ranked by the success rate "
    "pooled over every (player count, boards) table that earns the title, as if a group "
    "played those tables equally often (95% Wilson interval, n = games). 'Easiest table' is "
    "the qualifying table with the highest success: the one a group chasing the title "
    "would pick.",
    "Expected information (bits)": "How much a question card tells a player about their own "
    "animal at the start of a round, before anything is known: the expected drop in "
    "uncertainty (entropy, in bits) about the animal they hold once the table has voted, "
    f"averaged over {DEALS} random deals of the run's boards. It depends on the card and "
    "the animals only, not on the strategies. 'When played' is the same for the asker at "
    "the moment the card was actually played (later in a round there is less to learn).",
    "Card that does little": f"A card whose expected information is less than "
    f"{LITTLE:.0%} of the deck's most informative card's.",
    "No Champion": "The share of a card's plays in which the vote tied, so no animal became "
    "the Champion (95% Wilson interval, n = plays).",
    "First guess right (animal)": "Of the players who held an animal and guessed at least "
    "once, the share whose first guess of the round was right (95% Wilson interval, "
    "n = first guesses). The lower it is, the harder the animal is to identify.",
    "Found": "The share of holdings of an animal that ended with a right guess.",
    "Confused pair": "Two animals, one held and the other guessed wrongly (both directions "
    "added up); its share of all wrong guesses with a 95% Wilson interval.",
    "First guess right (player)": "The share of players' first guesses of a round that were "
    "right, by phase: while questions are still asked (a right guess is worth 2 points) or "
    "in the second chance phase (worth 1).",
    "Points by source": "Mean points per player per game from right guesses while questions "
    "are asked and from the second chance phase.",
}


def report_sections(run: ZoologyRun) -> list[Section]:
    """Every Zoology section that applies to ``run`` (cooperative or competitive)."""
    sections = []
    if run.cooperative:
        sections.append(cooperative_section(run))
    sections += [question_section(run), animal_section(run), guess_section(run)]
    return sections


def _board_name(label: str) -> str:
    """``primary+africa+asia`` as ``Primary + Africa, Asia``."""
    regions = [part.capitalize() for part in label.split("+")[1:]]
    return "Primary" + (" + " + ", ".join(regions) if regions else "")


def _errors(rates: pd.Series, lows: pd.Series, highs: pd.Series) -> np.ndarray:
    """Error-bar lengths (2 x n) for rates with their intervals; nan as 0."""
    rates = np.asarray(rates, dtype=float)
    errors = np.vstack([rates - np.asarray(lows, dtype=float), np.asarray(highs) - rates])
    return np.nan_to_num(np.clip(errors, 0, None))


def _extreme_text(best: Standout, word: str, noun: str, n: int | None = None) -> str:
    """``the hardest table is X: 81.0% [..]`` when ``best`` is clear, otherwise ``no table
    is measurably the hardest: X 81.0% [..], Y 81.5% [..]``."""
    def phrase(e: Estimate) -> str:
        return f"{e.name} {rate_phrase(e.value, e.low, e.high)}"

    if best.clear:
        size = f" (n={n:,})" if n is not None else ""
        return f"the {word} {noun} is {phrase(best.top)}{size}"
    shown = best.level[:4]
    more = f" and {len(best.level) - 4} more" if len(best.level) > 4 else ""
    return (
        f"no {noun} is measurably the {word} ({len(best.level)} are level: "
        + ", ".join(map(phrase, shown))
        + f"{more})"
    )


def _pooled(table: pd.DataFrame) -> pd.Series:
    """One rate (95% CI, n) from rows of ``rate`` and ``n``."""
    used = table[table["n"] > 0]
    successes = float((used["rate"] * used["n"]).round().sum())
    return rate_table([successes], [int(used["n"].sum())]).iloc[0]


# --- cooperative ---------------------------------------------------------------------------


def cooperative_section(run: ZoologyRun) -> Section:
    """Success per (players x boards) table and the achievements ranked by difficulty."""
    cells = run.cooperative_success().reset_index()
    cells = cells.sort_values(["players", "regions", "boards"], kind="stable")
    overall = _pooled(cells)
    players = sorted(cells["players"].unique())
    boards = cells.sort_values(["regions", "boards"])["boards"].unique().tolist()
    grid = len(cells) > 1
    achievements = run.achievements()
    earned = f" (it earns {', '.join(achievements.index)})" if len(achievements) else ""
    where = (
        f"over all {len(cells)} tables ({players[0]}-{players[-1]} players × {len(boards)} "
        "board combinations, each played equally often)"
        if grid
        else f"with {players[0]} players on {_board_name(boards[0])}{earned}"
    )
    findings = [
        Finding(
            f"Cooperative teams find every animal "
            f"{rate_phrase(overall.rate, overall.ci_low, overall.ci_high, int(overall.n))} of "
            f"the time {where}.",
            overall.rate,
            overall.ci_low,
            overall.ci_high,
            int(overall.n),
            "zoology_coop_success",
            "zoology_coop_success",
        )
    ]
    figures = [success_dots(cells, boards)]
    if len(players) > 1 and len(boards) > 1:
        figures.insert(0, success_heatmap(cells, players, boards))
    enough = cells[cells["n"] >= MIN_CELL_GAMES]
    if grid and len(enough):
        tables_by_name = enough.set_axis(
            [f"{int(r.players)} players on {_board_name(r.boards)}" for r in enough.itertuples()]
        )
        estimates = estimates_of(tables_by_name)
        hardest = standout(estimates, highest=False)
        easiest = standout(estimates)
        row = tables_by_name.loc[hardest.top.name]
        findings.append(
            Finding(
                "Cooperative tables: "
                + _extreme_text(hardest, "hardest", "table", n=int(row.n))
                + "; "
                + _extreme_text(easiest, "easiest", "table")
                + ".",
                row.rate,
                row.ci_low,
                row.ci_high,
                int(row.n),
                "zoology_coop_success",
                "zoology_coop_hardest_table",
            )
        )
    tables = [
        Table(
            "zoology_coop_success",
            "Cooperative success by player count and boards",
            cells,
            "rate = games in which every player found their animal; n = games.",
            index=False,
        )
    ]
    if len(achievements) > 1:
        named = achievements.set_axis(
            [f"{title} ({row.condition})" for title, row in achievements.iterrows()]
        )
        estimates = estimates_of(named)
        hardest = standout(estimates, highest=False)
        easiest = standout(estimates)
        row = named.loc[hardest.top.name]
        findings.append(
            Finding(
                "Achievements (success pooled over each title's qualifying tables): "
                + _extreme_text(hardest, "hardest", "achievement", n=int(row.n))
                + "; "
                + _extreme_text(easiest, "easiest", "achievement")
                + ".",
                row.rate,
                row.ci_low,
                row.ci_high,
                int(row.n),
                "zoology_achievements",
                "zoology_hardest_achievement",
            )
        )
        figures.append(achievement_figure(achievements))
    if len(achievements):
        tables.append(
            Table(
                "zoology_achievements",
                "Achievements, hardest first",
                achievements,
                "rate pools every qualifying table (n = games); best_* is the easiest "
                "qualifying table.",
            )
        )
    intro = "The team succeeds when every player finds their own animal. " + (
        "Every player count plays every board combination; a k-player table uses the "
        f"first k seats. Tables with fewer than {MIN_CELL_GAMES} games are grey."
        if grid
        else "This run plays one table; run simulations/zoology-cooperative.toml for "
        "every player count and board combination and the ten achievements."
    )
    intro += (
        f" Absolute difficulty depends on assumptions: the perception noise "
        f"({run.settings.get('perception_noise', 0.25):g} here, an invented number) and the "
        "player model. bayes, curious and team decode votes with the very model that casts "
        "them and succeed almost always; bounded-rational players (bounded, eliminator) "
        "succeed far less often. Read difficulty as curves over both: "
        "simulations/sweep-zoology-cooperative-*.toml."
    )
    return Section(
        title="Zoology: cooperative success and achievements",
        intro=intro,
        findings=findings,
        figures=figures,
        tables=tables,
        definitions={
            key: DEFINITIONS[key] for key in ("Cooperative success", "Achievement difficulty")
        },
    )


def success_heatmap(cells: pd.DataFrame, players: list[int], boards: list[str]) -> Figure:
    """Success over player count (x) and board combination (y), each cell labelled."""
    import matplotlib

    rate = np.full((len(boards), len(players)), np.nan)
    for row in cells.itertuples():
        if row.n >= MIN_CELL_GAMES:
            rate[boards.index(row.boards), players.index(row.players)] = row.rate
    low = math.floor(10 * np.nanmin(rate)) / 10 if np.isfinite(rate).any() else 0.0
    low = min(low, 0.9)
    figure, axes = new_figure(6.4, 1.0 + 0.3 * len(boards))
    colours = matplotlib.colormaps[HEATMAP].with_extremes(bad=MISSING)
    image = axes.imshow(np.ma.masked_invalid(rate), aspect="auto", cmap=colours, vmin=low, vmax=1)
    for (y, x), value in np.ndenumerate(rate):
        if np.isfinite(value):
            shade = (value - low) / (1 - low)
            axes.text(
                x, y, f"{100 * value:.0f}%", ha="center", va="center", fontsize=7,
                color="black" if shade > 0.55 else "white",
            )  # fmt: skip
    bar = figure.colorbar(image, ax=axes, format=lambda value, _: f"{100 * value:.0f}%")
    bar.set_label("Success (% of games)")
    bar.set_ticks(np.arange(low, 1.0001, 0.05 if low >= 0.7 else 0.1))
    axes.set_yticks(range(len(boards)), [_board_name(b) for b in boards], fontsize=8)
    axes.set_xticks(range(len(players)), [str(p) for p in players])
    axes.set_xlabel("Players")
    axes.set_ylabel("Boards in play")
    axes.tick_params(length=0)
    axes.spines[:].set_visible(False)
    return Figure(
        "zoology_coop_heatmap",
        "Cooperative success by player count and boards",
        figure,
        "Share of games in which every player found their animal; grey: fewer than "
        f"{MIN_CELL_GAMES} games. The colour scale starts at {100 * low:.0f}%. Intervals in "
        "the next figure and in tables/zoology_coop_success.csv.",
    )


def success_dots(cells: pd.DataFrame, boards: list[str]) -> Figure:
    """Success per board combination with 95% intervals, one panel per player count."""
    players = sorted(cells["players"].unique())
    width = min(MAX_FIGURE_WIDTH, 3.2 + 1.4 * len(players))
    figure, grid = new_grid(1, len(players), width, 1.2 + 0.3 * len(boards))
    low = max(0.0, math.floor(10 * np.nanmin(cells["ci_low"])) / 10)
    for index, count in enumerate(players):
        axes = grid[0, index]
        part = cells[cells["players"] == count]
        positions = [boards.index(b) for b in part.boards]
        axes.errorbar(
            part["rate"], positions,
            xerr=_errors(part["rate"], part["ci_low"], part["ci_high"]),
            fmt="o", markersize=3.5, capsize=2, linewidth=1, color=PALETTE[0],
        )  # fmt: skip
        axes.set_yticks(
            range(len(boards)), [_board_name(b) for b in boards] if index == 0 else [],
            fontsize=8,
        )  # fmt: skip
        axes.set_ylim(len(boards) - 0.5, -0.5)
        axes.set_xticks(np.linspace(low, 1, 3))
        axes.set_xlim(low - 0.01, 1.02)
        axes.set_title(f"{count} players", fontsize=9)
        percent_axis(axes, "x", decimals=0)
        axes.tick_params(axis="x", labelsize=7)
    grid[0, 0].set_ylabel("Boards in play")
    figure.supxlabel("Success (% of games: every player found their animal)", fontsize=10)
    return Figure(
        "zoology_coop_success",
        "Cooperative success with 95% intervals",
        figure,
        "Dots: share of games the team succeeded; bars: 95% Wilson intervals "
        "(n = games per table in tables/zoology_coop_success.csv).",
    )


def achievement_figure(achievements: pd.DataFrame) -> Figure:
    """The achievements, hardest on top: pooled success with its interval, and the easiest
    qualifying table."""
    figure, axes = new_figure(6.4, 0.9 + 0.34 * len(achievements))
    positions = np.arange(len(achievements))
    axes.errorbar(
        achievements["rate"], positions,
        xerr=_errors(achievements["rate"], achievements["ci_low"], achievements["ci_high"]),
        fmt="o", color=PALETTE[0], capsize=3, linewidth=1, label="all qualifying tables",
    )  # fmt: skip
    axes.scatter(
        achievements["best_rate"], positions, marker="D", s=18, facecolors="none",
        edgecolors=PALETTE[5], label="easiest qualifying table", zorder=3,
    )  # fmt: skip
    labels = [f"{title} ({row.condition})" for title, row in achievements.iterrows()]
    axes.set_yticks(positions, labels, fontsize=8)
    axes.set_ylim(len(achievements) - 0.5, -0.5)
    axes.set_xlabel("Success (% of games)")
    percent_axis(axes, "x", decimals=0)
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2)
    return Figure(
        "zoology_achievements",
        "Achievements ranked by difficulty",
        figure,
        "Hardest on top. Dots: success pooled over every table that earns the title, with "
        "95% Wilson intervals; diamonds: the easiest qualifying table.",
    )


# --- question cards ------------------------------------------------------------------------


def question_section(run: ZoologyRun) -> Section:
    """Question cards ranked by expected information, with their no-Champion rates."""
    cards = run.question_informativeness(DEALS)
    measured = run.question_information_measured
    if "fresh_bits" not in cards and not measured:
        return _unmeasured_question_section(cards)
    bits = "fresh_bits" if "fresh_bits" in cards else "played_bits"
    best_bits = float(cards[bits].max())
    cards["does_little"] = cards[bits] < LITTLE * best_bits
    basis = _information_basis(run) if bits == "fresh_bits" else "when played"
    n_info = DEALS if bits == "fresh_bits" else int(cards["plays"].sum())
    if bits == "fresh_bits":
        estimates = estimates_of(cards, bits, "fresh_bits_ci_low", "fresh_bits_ci_high")
    else:  # measured only as played: no interval, so only exact ties are level
        estimates = [Estimate(card, value, value, value) for card, value in cards[bits].items()]
    most = standout(estimates)
    least = standout(estimates, highest=False)

    def card_phrase(e: Estimate) -> str:
        interval = f" [{e.low:.2f}, {e.high:.2f}]" if e.high > e.low else ""
        return f"{e.name} ('{cards.loc[e.name, 'text']}') {e.value:.2f} bits{interval}"

    def extreme(best: Standout, word: str) -> str:
        if best.clear:
            return f"the {word} informative card is {card_phrase(best.top)}"
        shown = best.level[:4]
        more = f" and {len(best.level) - 4} more" if len(best.level) > 4 else ""
        return (
            f"{len(best.level)} cards are level as the {word} informative: "
            + "; ".join(map(card_phrase, shown))
            + more
        )

    findings = [
        Finding(
            f"What a question card tells a player about their own animal {basis}: "
            f"{extreme(most, 'most')}; {extreme(least, 'least')}.",
            most.top.value,
            most.top.low,
            most.top.high,
            n=n_info,
            figure="zoology_question_cards",
            key="zoology_question_information",
        )
    ]
    little = cards[cards["does_little"]]
    played = cards[cards["plays"] > 0]
    if len(little):
        pooled = rate_table([little["no_champion"].sum()], [little["plays"].sum()]).iloc[0]
        rest = played[~played["does_little"]]
        others = rate_table([rest["no_champion"].sum()], [rest["plays"].sum()]).iloc[0]
        higher = standout(
            [
                Estimate("little", pooled.rate, pooled.ci_low, pooled.ci_high),
                Estimate("others", others.rate, others.ci_low, others.ci_high),
            ]
        )
        if not higher.clear:
            compared = "not measurably differently from"
        elif higher.top.name == "little":
            compared = "measurably more often than"
        else:
            compared = "measurably less often than"
        findings.append(
            Finding(
                f"{len(little)} of {len(cards)} cards do little (under {LITTLE:.0%} of the best "
                f"card's information): {', '.join(little.index)}. Their votes end with no "
                f"Champion {rate_phrase(pooled.rate, pooled.ci_low, pooled.ci_high, int(pooled.n))}"
                f" of plays, {compared} the other cards' "
                f"{rate_phrase(others.rate, others.ci_low, others.ci_high, int(others.n))} "
                "(both intervals count a game's plays as independent; pooled over cards their "
                "design effect measured about 1.08, so they are about 4% too narrow).",
                pooled.rate,
                pooled.ci_low,
                pooled.ci_high,
                int(pooled.n),
                "zoology_question_cards",
                "zoology_cards_do_little",
            )
        )
    else:
        findings.append(
            Finding(
                f"No card does little: every card tells at least {LITTLE:.0%} of what the best "
                "card tells.",
                figure="zoology_question_cards",
                key="zoology_cards_do_little",
            )
        )
    enough = played[played["plays"] >= MIN_PLAYS]
    if len(enough) > 1:
        most = standout(
            estimates_of(enough, "no_champion_rate", "no_champion_ci_low", "no_champion_ci_high")
        )
        row = enough.loc[most.top.name]

        def plays_phrase(e: Estimate) -> str:
            rate = rate_phrase(e.value, e.low, e.high)
            return f"{e.name} ('{enough.loc[e.name, 'text']}') {rate}"

        if most.clear:
            text = (
                f"{plays_phrase(most.top)} of its plays (n={int(row.plays):,}) end with no "
                "Champion: measurably the most often of any card."
            )
        else:
            shown = most.level[:4]
            more = f" and {len(most.level) - 4} more" if len(most.level) > 4 else ""
            text = (
                f"No card measurably ends with no Champion most often: {len(most.level)} cards "
                "are level at the top, "
                + "; ".join(map(plays_phrase, shown))
                + more
                + " of their plays."
            )
        findings.append(
            Finding(
                text,
                row.no_champion_rate,
                row.no_champion_ci_low,
                row.no_champion_ci_high,
                int(row.plays),
                "zoology_question_cards",
                "zoology_no_champion",
            )
        )
    return Section(
        title="Zoology: question cards",
        intro=(
            f"Every question card, most informative first by its expected information {basis}. "
            "Orange cards do little: "
            f"under {LITTLE:.0%} of what the best card tells. Cards of the same attribute and "
            "direction tell the same."
        ),
        findings=findings,
        figures=[question_figure(cards, bits, basis, measured)],
        tables=[
            Table(
                "zoology_question_cards",
                "Question cards, most informative first",
                cards,
                "fresh_bits: expected information at a round's start; played_bits: for the "
                "asker when played"
                + ("" if measured else f" ({NOT_MEASURED}; empty)")
                + "; no_champion_rate: share of plays with a tied vote (95% CI, n = plays).",
                show_rows=70,
                hidden=("card",),
            ),
            *_void_table(run),
        ],
        definitions={
            key: DEFINITIONS[key]
            for key in ("Expected information (bits)", "Card that does little", "No Champion")
        },
    )


def _void_table(run: ZoologyRun) -> list[Table]:
    """The cards whose condition no animal meets on some boards, board by board."""
    try:
        void = run.void_questions()
    except KeyError:
        return []
    void = void[void["void_combinations"] > 0]
    if void.empty:
        return []
    return [
        Table(
            "zoology_void_cards",
            "Cards whose condition no animal meets on some boards",
            void.drop(columns=["void_combinations"]),
            "Animals meeting each card's condition on the primary and each regional board; "
            "void_on: the board combinations where none does (the card would be a plain "
            "superlative); left_out: not dealt in this run (void_questions = leave_out).",
            show_rows=len(void),
        )
    ]


def _information_basis(run: ZoologyRun) -> str:
    """Where the fresh information was measured, e.g. 'at a round's start (4 players,
    Primary; 300 random deals)'."""
    players = min(len(run.lineup), int(run.settings.get("players", len(run.lineup))))
    boards = _board_name("+".join(("primary", *run.settings.get("regions", []))))
    grid = (
        "; the cooperative grid's other tables are not included"
        if run.settings.get("cooperative_grid")
        else ""
    )
    return f"at a round's start ({players} players, {boards}; {DEALS} random deals{grid})"


def _unmeasured_question_section(cards: pd.DataFrame) -> Section:
    """The question cards when neither information was measured (the run's data files
    cannot be read and it did not measure cards as played): plays and ties only."""
    return Section(
        title="Zoology: question cards",
        intro=f"Expected information of the question cards: {NOT_MEASURED}.",
        findings=[],
        figures=[],
        tables=[
            Table(
                "zoology_question_cards",
                "Question cards",
                cards,
                f"played_bits: {NOT_MEASURED} (empty); no_champion_rate: share of plays with "
                "a tied vote (95% CI, n = plays).",
                show_rows=70,
                hidden=("card",),
            )
        ],
        definitions={key: DEFINITIONS[key] for key in ("No Champion",)},
    )


def question_figure(cards: pd.DataFrame, bits: str, basis: str, measured: bool = True) -> Figure:
    """Left: expected information per card; right: its no-Champion rate with CI."""
    figure, grid = new_grid(1, 2, MAX_FIGURE_WIDTH, 1.2 + 0.16 * len(cards))
    left, right = grid[0]
    positions = np.arange(len(cards))
    colours = [PALETTE[1] if little else PALETTE[0] for little in cards["does_little"]]
    left.barh(positions, cards[bits], color=colours, height=0.7)
    handles = [
        Patch(color=PALETTE[0], label="at a round's start" if bits == "fresh_bits" else bits),
        Patch(color=PALETTE[1], label="does little"),
    ]
    if bits == "fresh_bits" and measured:
        handles.append(
            left.scatter(cards["played_bits"], positions, s=8, color="black", zorder=3,
                         label="for the asker, when played")
        )  # fmt: skip
    figure.legend(handles=handles, fontsize=8, loc="outside lower center", ncols=len(handles))
    left.set_yticks(positions, list(cards.index), fontsize=7)
    left.set_ylim(len(cards) - 0.5, -0.5)
    left.set_xlabel("Expected information about\nyour own animal (bits)")
    played = cards["plays"] > 0
    right.errorbar(
        cards.loc[played, "no_champion_rate"], positions[played.to_numpy()],
        xerr=_errors(cards.loc[played, "no_champion_rate"],
                     cards.loc[played, "no_champion_ci_low"],
                     cards.loc[played, "no_champion_ci_high"]),
        fmt="none", ecolor="black", elinewidth=0.8, capsize=1.5,
    )  # fmt: skip
    right.scatter(
        cards.loc[played, "no_champion_rate"], positions[played.to_numpy()], s=12, zorder=3,
        color=[c for c, p in zip(colours, played, strict=True) if p],
    )  # fmt: skip
    total = cards["no_champion"].sum() / max(cards["plays"].sum(), 1)
    right.axvline(total, color=REFERENCE, linewidth=0.8, linestyle="--")
    right.set_yticks(positions, [""] * len(cards))
    right.set_ylim(len(cards) - 0.5, -0.5)
    right.set_xlabel("Votes with no Champion\n(% of plays)")
    percent_axis(right, "x", decimals=0)
    return Figure(
        "zoology_question_cards",
        "Question cards: information and ties",
        figure,
        f"Left: expected information {basis} (bars; orange: the card does little) and for "
        + (
            "the asker when the card was played (dots). "
            if measured
            else f"the asker when the card was played: {NOT_MEASURED}. "
        )
        + "Right: share of plays whose vote tied "
        f"(95% Wilson intervals); dashed: the whole deck, {percent(total)}.",
    )


# --- animals -------------------------------------------------------------------------------


def animal_section(run: ZoologyRun) -> Section:
    """Hardest and easiest animals to identify, and the most confused pairs."""
    animals = run.animal_difficulty()
    names = dict(zip(run.table("animals")["animal"], run.table("animals")["name"], strict=False))
    findings = []
    enough = animals[animals["guessed"] >= MIN_GUESSES]
    if len(enough) > 1:
        estimates = estimates_of(
            enough, "first_guess_rate", "first_guess_ci_low", "first_guess_ci_high"
        )
        for key, word, highest in (
            ("zoology_hardest_animal", "hardest", False),
            ("zoology_easiest_animal", "easiest", True),
        ):
            best = standout(estimates, highest=highest)
            row = enough.loc[best.top.name]
            if best.clear:
                rate = rate_phrase(
                    row.first_guess_rate, row.first_guess_ci_low, row.first_guess_ci_high
                )
                text = (
                    f"{row['name']} is the {word} animal to identify: {rate} of its holders' "
                    f"first guesses are right (n={int(row.guessed):,} first guesses); "
                    f"{percent(row.found_rate)} of its holders find it."
                )
            else:
                shown = best.level[:5]
                more = f" and {len(best.level) - 5} more" if len(best.level) > 5 else ""
                text = (
                    f"No animal is measurably the {word} to identify: {len(best.level)} are "
                    "level, "
                    + ", ".join(
                        f"{enough.loc[e.name, 'name']} {rate_phrase(e.value, e.low, e.high)}"
                        for e in shown
                    )
                    + f"{more} of first guesses right."
                )
            findings.append(
                Finding(
                    text,
                    row.first_guess_rate,
                    row.first_guess_ci_low,
                    row.first_guess_ci_high,
                    int(row.guessed),
                    "zoology_animal_difficulty",
                    key,
                )
            )
    confusions = run.confusions()
    wrong = int(confusions["count"].sum())
    figures = [animal_figure(animals)]
    if wrong:
        shares = rate_table(confusions["count"].to_numpy(), np.full(len(confusions), wrong))
        confusions["ci_low"] = shares["ci_low"].to_numpy()
        confusions["ci_high"] = shares["ci_high"].to_numpy()
        confusions["n"] = wrong
        pairs = confusions.set_axis(
            [f"{names.get(a, a)} and {names.get(b, b)}"
             for a, b in zip(confusions["animal"], confusions["confused_with"], strict=True)]
        )  # fmt: skip
        most = standout(estimates_of(pairs, "share_of_wrong_guesses"))
        top = pairs.loc[most.top.name]
        if most.clear:
            text = (
                f"The most confused pair is {most.top.name}: "
                f"{rate_phrase(top.share_of_wrong_guesses, top.ci_low, top.ci_high)} of all "
                f"wrong guesses (n={wrong:,}; {int(top['count']):,} wrong guesses, both ways)."
            )
        else:
            shown = most.level[:4]
            more = f" and {len(most.level) - 4} more" if len(most.level) > 4 else ""
            text = (
                f"No pair of animals is measurably the most confused: {len(most.level)} are "
                "level, "
                + "; ".join(f"{e.name} {rate_phrase(e.value, e.low, e.high)}" for e in shown)
                + f"{more} of all wrong guesses (n={wrong:,}, both ways)."
            )
        findings.append(
            Finding(
                text,
                top.share_of_wrong_guesses,
                top.ci_low,
                top.ci_high,
                wrong,
                "zoology_confusions",
                "zoology_confused_pair",
            )
        )
        figures.append(confusion_figure(confusions.head(CONFUSIONS_SHOWN), names))
    return Section(
        title="Zoology: which animals are hard to identify",
        intro=(
            "Hardest first: the share of each animal's holders whose first guess of the round "
            f"was right. Animals with fewer than {MIN_GUESSES} first guesses are drawn but "
            "not named in the findings."
        ),
        findings=findings,
        figures=figures,
        tables=[
            Table("zoology_animal_difficulty", "Animals, hardest to identify first", animals),
            Table(
                "zoology_confusions",
                "Wrong guesses by pair of animals, most frequent first",
                confusions,
                "Both directions added up; share = count / all wrong guesses (95% Wilson "
                "interval, n = all wrong guesses).",
                index=False,
                show_rows=20,
            ),
        ],
        definitions={
            key: DEFINITIONS[key]
            for key in ("First guess right (animal)", "Found", "Confused pair")
        },
    )


def animal_figure(animals: pd.DataFrame) -> Figure:
    """First guesses right per animal with 95% intervals, hardest on top, by region."""
    figure, axes = new_figure(6.4, 1.2 + 0.17 * len(animals))
    positions = np.arange(len(animals))
    present = set(animals["region"])
    regions = [r for r in ("common", *REGIONS) if r in present]
    regions += sorted(present - set(regions))
    for index, region in enumerate(regions):
        chosen = (animals["region"] == region).to_numpy()
        part = animals[chosen]
        axes.errorbar(
            part["first_guess_rate"], positions[chosen],
            xerr=_errors(part["first_guess_rate"], part["first_guess_ci_low"],
                         part["first_guess_ci_high"]),
            fmt="o", markersize=3.5, capsize=2, linewidth=1,
            color=PALETTE[index % len(PALETTE)], label=region.capitalize(),
        )  # fmt: skip
    axes.set_yticks(positions, list(animals["name"]), fontsize=7)
    axes.set_ylim(len(animals) - 0.5, -0.5)
    axes.set_xlabel("First guesses right (% of holders who guessed)")
    axes.set_ylabel("Animal held")
    percent_axis(axes, "x", decimals=0)
    if len(regions) > 1:
        figure.legend(fontsize=8, loc="outside lower center", ncols=len(regions))
    return Figure(
        "zoology_animal_difficulty",
        "How hard each animal is to identify",
        figure,
        "Hardest on top. Dots: share of holders whose first guess was right; bars: 95% Wilson "
        "intervals (n = first guesses, in tables/zoology_animal_difficulty.csv).",
    )


def confusion_figure(top: pd.DataFrame, names: dict[str, str]) -> Figure:
    """The most confused pairs' shares of all wrong guesses, with 95% intervals."""
    figure, axes = new_figure(6.4, 0.8 + 0.3 * len(top))
    labels = [
        f"{names.get(a, a)} / {names.get(b, b)}"
        for a, b in zip(top["animal"], top["confused_with"], strict=True)
    ]
    rate_bars(axes, labels, top["share_of_wrong_guesses"], top["ci_low"], top["ci_high"],
              horizontal=True)  # fmt: skip
    axes.tick_params(axis="y", labelsize=8)
    axes.set_xlabel("Share of all wrong guesses (%)")
    axes.set_ylabel("Pair of animals")
    percent_axis(axes, "x", decimals=1)
    return Figure(
        "zoology_confusions",
        "Most confused pairs of animals",
        figure,
        "Wrong guesses between the two animals (either held, the other guessed) as a share of "
        "all wrong guesses; 95% Wilson intervals.",
    )


# --- guesses and points --------------------------------------------------------------------


def guess_section(run: ZoologyRun) -> Section:
    """First guesses right by phase; competitive: points by source, second chance start."""
    by = "strategy" if run.rotated else "seat"
    accuracy = run.first_guess_accuracy(by)
    findings = []
    for phase in ("free", "second_chance"):
        part = accuracy.xs(phase, level="phase")
        if part["n"].sum() == 0:
            continue
        row = _pooled(part)
        when = "in the guessing phase" if run.cooperative else PHASE_NAMES[phase]
        # Pooled over the seats of a competitive game the first guesses are about independent
        # (measured design effect 0.72 to 0.99); a cooperative table's guesses move together
        # (1.25 with team*6), which the interval does not allow for: it says so.
        caveat = (
            " (the interval counts the players' first guesses as independent; those of one "
            "cooperative game move together, design effect about 1.25, so it is about 12% too "
            "narrow)"
            if run.cooperative
            else ""
        )
        findings.append(
            Finding(
                f"First guesses made {when} are right "
                f"{rate_phrase(row.rate, row.ci_low, row.ci_high, int(row.n))} of the "
                f"time{caveat}.",
                row.rate,
                row.ci_low,
                row.ci_high,
                int(row.n),
                "zoology_guesses",
                f"zoology_first_guess_{phase}",
            )
        )
    tables = [Table("zoology_first_guess", "First guess of a round right", accuracy)]
    points = None
    if not run.cooperative:
        points = run.points_by_source(by)
        weight = points["n"]
        free = float((points["free_mean"] * weight).sum() / weight.sum())
        second = float((points["second_chance_mean"] * weight).sum() / weight.sum())
        share = second / (free + second) if free + second > 0 else math.nan
        findings.append(
            Finding(
                f"The second chance brings {percent(share)} of all points: a player scores "
                f"{free:.2f} points a game from right guesses while questions are asked and "
                f"{second:.2f} in the second chance (means over {run.games_played:,} games "
                "and every player).",
                share,
                n=run.games_played,
                figure="zoology_guesses",
                key="zoology_second_chance_points",
            )
        )
        triggers = run.second_chance_triggers()
        if "supply_empty" in triggers.index and triggers["n"].iloc[0] > 0:
            row = triggers.loc["supply_empty"]
            findings.append(
                Finding(
                    "The guess-token supply runs out before anyone guesses right in "
                    f"{rate_phrase(row.rate, row.ci_low, row.ci_high, int(row.n))} of rounds; "
                    "otherwise a right guess starts the second chance.",
                    row.rate,
                    row.ci_low,
                    row.ci_high,
                    int(row.n),
                    "zoology_guesses",
                    "zoology_supply_empty",
                )
            )
        tables += [
            Table("zoology_points_by_source", "Points per game by source", points),
            Table("zoology_second_chance", "What started the second chance phase", triggers),
        ]
    labels = _group_labels(run, by)
    return Section(
        title="Zoology: guesses and points",
        intro=(
            "How often a player's first guess of a round is right, while questions are still "
            "asked (2 points) or in the second chance phase (1 point)"
            + ("." if run.cooperative else ", and where the points come from.")
            + (
                " In the cooperative grid, seat k plays only the tables with at least k players."
                if run.settings.get("cooperative_grid")
                else ""
            )
        ),
        findings=findings,
        figures=[guess_figure(accuracy, points, labels)],
        tables=tables,
        definitions={
            key: DEFINITIONS[key] for key in ("First guess right (player)", "Points by source")
        },
    )


def _group_labels(run: ZoologyRun, by: str) -> dict:
    """Row labels: ``seat 1 curious`` or the strategy's name."""
    if by == "strategy":
        return {}
    strategies = run.table("seats").groupby("seat")["strategy"].first()
    return {seat + 1: f"seat {seat + 1} {name}" for seat, name in strategies.items()}


def guess_figure(accuracy: pd.DataFrame, points: pd.DataFrame | None, labels: dict) -> Figure:
    """First guesses right by seat (or strategy) and phase; points by source if any."""
    groups = list(accuracy.index.get_level_values(0).unique())
    names = [str(labels.get(g, g)) for g in groups]
    phases = [p for p in ("free", "second_chance") if accuracy.xs(p, level="phase")["n"].sum() > 0]
    columns = 2 if points is not None else 1
    height = 1.4 + 0.45 * len(groups)
    figure, grid = new_grid(columns, 1, MAX_FIGURE_WIDTH, columns * height)  # stacked
    left = grid[0, 0]
    positions = np.arange(len(groups))
    step = 0.8 / len(phases)
    for index, phase in enumerate(phases):
        part = accuracy.xs(phase, level="phase").reindex(groups)
        left.barh(
            positions + (index - (len(phases) - 1) / 2) * step, part["rate"], height=step,
            xerr=_errors(part["rate"], part["ci_low"], part["ci_high"]),
            color=PALETTE[index], ecolor="black", capsize=2, error_kw={"linewidth": 1},
            label=PHASE_NAMES[phase] if points is not None else "guessing phase",
        )  # fmt: skip
    left.set_yticks(positions, names, fontsize=8)
    left.set_ylim(len(groups) - 0.5, -0.5)
    left.set_xlim(0, 1)
    left.set_xlabel("First guesses right (% of first guesses)")
    percent_axis(left, "x")
    left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncols=1)
    if points is not None:
        right = grid[1, 0]
        part = points.reindex(groups)
        right.barh(positions, part["free_mean"], color=PALETTE[0], height=0.6,
                   label="right guesses while questions are asked")  # fmt: skip
        right.barh(positions, part["second_chance_mean"], left=part["free_mean"], height=0.6,
                   color=PALETTE[1], label="second chance")  # fmt: skip
        right.set_yticks(positions, names, fontsize=8)
        right.set_ylim(len(groups) - 0.5, -0.5)
        right.set_xlabel("Points per game (mean)")
        right.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncols=1)
    caption = "First guesses of a round that were right, by phase (95% Wilson intervals)."
    if points is not None:
        caption += " Right: mean points per game from each source."
    return Figure("zoology_guesses", "First guesses and points", figure, caption)
