"""The report of a sweep folder: the answer to the sweep's own question, then every cell.

A sweep varies rule settings (``settings.<name>``) and strategy parameters of a seat
(``seat<N>.<parameter>``) over a grid (``zooanalysis.sweep``). The report answers:

- for a strategy parameter, at each value of the other keys (each rule setting): its best
  and worst value for that seat's win share, named only when the intervals separate it
  (``separation.standout``), with the figure of the seat's win share over the parameter;
- for a rule setting: its effect on game length, shared wins, balance across seats,
  first-player advantage, winning margin, lead changes and drama, and on each strategy's
  win share, averaged over the other keys' values, a change named only when it is measurable;
- over the whole grid: the most and least balanced cell, then every cell's win shares by
  seat, the game's own metrics cell by cell, and seat order where the lineup allows it.

The title and the question come from the sweep file (``title``, ``description``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.report.model import (
    Figure,
    Finding,
    ReportDocument,
    Section,
    Table,
    mean_phrase,
    points_phrase,
    rate_phrase,
)
from zooanalysis.report.seat_order import sweep_seat_order_section
from zooanalysis.report.style import (
    HEATMAP,
    MAX_FIGURE_WIDTH,
    PALETTE,
    REFERENCE,
    new_figure,
    new_grid,
    panel_grid,
    percent_axis,
)
from zooanalysis.separation import Estimate, Standout, standout
from zooanalysis.sweep_cells import (
    Metric,
    balance_metrics_of,
    cell_names,
    contexts,
    estimates,
    game_metrics,
    key_name,
    marginal,
    role_cells,
    rule_effects,
    seat_numbers,
    setting_answers,
    strategy_roles,
    value_text,
    win_metric,
    with_balance,
)
from zooanalysis.teams import cell_teams

DEFINITIONS = {
    "Sweep cell": "One run with one combination of the grid's values. Every cell uses the "
    "same seed and so the same deals (common random numbers), so cells differ only by what "
    "the grid changes.",
    "Win share": "A seat's (or strategy's) share of a cell's wins: a game won by k tied "
    "winners gives each 1/k. With its 95% Wilson interval.",
    "Best and worst setting": "For a swept strategy parameter, at each combination of the "
    "other keys: the parameter value that gives its seat the highest (lowest) win share. It "
    "is named only when its 95% interval does not overlap any other value's; otherwise the "
    "values the data do not separate are listed as level.",
    "Effect of a rule": "A rule setting's value against each metric, averaged over the other "
    "keys' values (every combination weighs the same). The interval is the mean of the cells' "
    "interval bounds: the standard deviation of a mean is at most the mean of the standard "
    "deviations, so it holds whatever the correlation between cells that play the same deals. "
    "An effect is named only when the highest and the lowest value's intervals do not overlap.",
    "Pooled strategy figures": "Where a swept parameter takes a value at which the swept "
    "seat's strategy equals another seat's (its default), the run counts them as one "
    "strategy; their by-strategy figures in that cell are pooled over those seats.",
}


def sweep_document(folder: Path) -> ReportDocument:
    """Everything ``zoosim report`` shows for a finished sweep folder."""
    from zooanalysis.sweep import load_cells

    raw, spec = load_cells(folder)
    keys = list(spec["grid"])
    seats = seat_numbers(raw)
    lineups = cell_lineups(spec, raw)
    cells, pooled = role_cells(with_balance(raw, seats), keys, lineups)
    every_seat = ("settings.", "seats.")  # rules, and a parameter of every seat at once
    answers = [
        *(setting_section(cells, keys, key) for key in keys if not key.startswith(every_seat)),
        *(rule_section(cells, keys, key) for key in keys if key.startswith(every_seat)),
        *cooperative_sections(cells, keys),
    ]
    grid = grid_section(cells, keys, seats, pooled)
    title = spec.get("title") or f"{_game_title(spec['game'])} sweep {Path(folder).name}"
    question = spec.get("description", "")
    return ReportDocument(
        title=f"{title}: sweep report",
        subtitle=(
            (f"{question} " if question else "")
            + f"{len(cells)} cells of {spec['games']:,} games each over "
            + ", ".join(key_name(k) for k in keys)
            + f"; lineup {spec['players']}; seed {spec['seed']}; the same deals in every cell."
        ),
        findings=[],
        sections=[
            *answers,
            grid,
            sweep_seat_order_section(raw, keys, seats, lineups, cell_teams(raw)),
        ],
        facts={
            "Sweep folder": str(folder),
            "Game": f"{_game_title(spec['game'])} ({spec['game']})",
            "Sweep": json.dumps(
                {k: v for k, v in spec.items() if k not in ("title", "description")},
                sort_keys=True,
            ),
        },
        definitions=DEFINITIONS,
    )


def _game_title(name: str) -> str:
    from zooanalysis.games import get_game

    return get_game(name).title


def cell_lineups(spec: dict, cells: pd.DataFrame) -> list[list[str]]:
    """Each cell's strategy labels, seat 1 first (parameters may hold commas)."""
    from zooanalysis.games import get_game
    from zooanalysis.strategy_spec import parse_lineup

    strategies = get_game(spec["game"]).strategies
    return [[p.label for p in parse_lineup(text, strategies)] for text in cells["lineup"]]


def metric_phrase(metric: Metric, value: float, low: float, high: float) -> str:
    """A metric's value with its interval, in its kind's words."""
    if metric.kind == "rate":
        return rate_phrase(value, low, high)
    if metric.kind == "points":
        return points_phrase(value, low, high)
    return mean_phrase(value, low, high, metric.unit)


# --- strategy parameters: the best and worst setting ------------------------------------------


def setting_section(cells: pd.DataFrame, keys: list[str], key: str) -> Section:
    """A swept strategy parameter: its best and worst value for its seat, at each
    combination of the other keys."""
    seat = int(key.split(".", 1)[0].removeprefix("seat"))
    parameter = key.split(".", 1)[1]
    share = win_metric(f"seat{seat}", f"seat {seat}'s win share")
    rows, clauses = [], []
    best_estimate: Estimate | None = None
    for context, part in contexts(cells, keys, key):
        named = estimates(part, share, [value_text(v) for v in part[key]])
        best, worst = standout(named), standout(named, highest=False)
        rows.append(
            {
                "where": context,
                "best": _level_text(best, share),
                "worst": _level_text(worst, share),
                "best_clear": best.clear,
                "worst_clear": worst.clear,
            }
        )
        where = f"at {context}" if context != "all cells" else "over the grid"
        clauses.append(
            f"{where}: {_verdict(best, 'best', parameter, share)}, "
            f"{_verdict(worst, 'worst', parameter, share)}"
        )
        if best_estimate is None or best.top.value > best_estimate.value:
            best_estimate = best.top
    assert best_estimate is not None
    finding = Finding(
        f"Seat {seat}'s {parameter} (win share, ties split): " + "; ".join(clauses) + ".",
        best_estimate.value,
        best_estimate.low,
        best_estimate.high,
        int(cells[share.n].iloc[0]),
        f"setting_{parameter}",
        f"best_{key}",
    )
    return Section(
        title=f"The best and worst {key_name(key)}",
        intro=(
            f"Seat {seat}'s win share at each value of its {parameter}"
            + (
                ", for each combination of the other keys"
                if len(keys) > 1
                else ""
            )
            + ". A value is named best (worst) only when its interval clears every other's."
        ),
        findings=[finding],
        figures=[setting_figure(cells, keys, key, seat, share)],
        tables=[
            Table(
                f"best_{parameter}",
                f"Best and worst {key_name(key)}, by the other keys",
                setting_answers(cells, keys, key),
                "Win share (ties split) with its 95% Wilson interval; 'level' lists the values "
                "the intervals do not separate.",
                index=False,
                shown=pd.DataFrame(rows).drop(columns=["best_clear", "worst_clear"]),
            )
        ],
    )


def _level_text(best, metric: Metric) -> str:
    """``0.3: 31.2% [30.5%, 31.9%]`` or ``level: 0.3 ..., 0.5 ...``."""
    if best.clear:
        return f"{best.top.name}: {_phrase(metric, best.top)}"
    return "level: " + "; ".join(
        f"{e.name}: {metric_phrase(metric, e.value, e.low, e.high)}" for e in best.level
    )


def _verdict(best, word: str, parameter: str, metric: Metric) -> str:
    top = best.top
    if best.clear:
        return f"{word} {parameter} {top.name} ({_phrase(metric, top)})"
    names = ", ".join(e.name for e in best.level)
    return f"no single {word} {parameter} ({names} level)"


def setting_figure(
    cells: pd.DataFrame, keys: list[str], key: str, seat: int, share: Metric
) -> Figure:
    """The seat's win share over its parameter, one line (with its band) per combination
    of the other keys."""
    figure, axes = new_figure(MAX_FIGURE_WIDTH, 3.6)
    groups = contexts(cells, keys, key)
    numeric = pd.api.types.is_numeric_dtype(cells[key])
    for index, (context, part) in enumerate(groups):
        part = part.sort_values(key) if numeric else part
        x = part[key].to_numpy(dtype=float) if numeric else np.arange(len(part))
        colour = PALETTE[index % len(PALETTE)]
        axes.plot(x, part[share.value], "o-", color=colour, label=context, markersize=4)
        axes.fill_between(
            x, part[share.low], part[share.high], color=colour, alpha=0.15, linewidth=0
        )
    values = list(dict.fromkeys(cells[key]))
    if numeric:
        axes.set_xticks(sorted(float(v) for v in values), [value_text(v) for v in sorted(values)])
    else:
        axes.set_xticks(np.arange(len(values)), [value_text(v) for v in values])
    axes.set_xlabel(key_name(key))
    axes.set_ylabel(f"Seat {seat}: win share (%)")
    percent_axis(axes)
    if len(groups) > 1:
        axes.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    parameter = key.split(".", 1)[1]
    return Figure(
        f"setting_{parameter}",
        f"Seat {seat}'s win share by its {parameter}",
        figure,
        "Win share (ties split) with 95% Wilson bands"
        + (", one line per combination of the other keys." if len(groups) > 1 else "."),
    )


# --- rule settings: the effect on length, ties, balance ---------------------------------------


def rule_section(cells: pd.DataFrame, keys: list[str], key: str) -> Section:
    """A swept rule setting: its effect on the balance metrics and each strategy's win
    share, averaged over the other keys."""
    name = key_name(key)
    metrics = balance_metrics_of(cells)
    roles = [r for r in strategy_roles(cells) if not r.startswith("seat ")]
    strategies = [win_metric(role, f"win share of {role} per seat") for role in roles]
    measurable, level, rows = [], [], []
    for metric in [*metrics, *strategies]:
        table = marginal(cells, key, metric)
        named = [
            Estimate(value_text(v), r.value, r.ci_low, r.ci_high) for v, r in table.iterrows()
        ]
        row = {"metric": capitalized(metric.label)}
        for estimate in named:
            row[f"{name} = {estimate.name}"] = _phrase(metric, estimate)
        change = effect_phrase(metric, named)
        row["effect"] = "measurable" if change else "none measurable"
        rows.append(row)
        (measurable if change else level).append(change or metric.label)
    averaged = " (averaged over the other keys)" if len(keys) > 1 else ""
    if measurable:
        text = f"Changing {name}{averaged}: " + "; ".join(measurable)
        if level:
            text += f"; no measurable effect on {', '.join(level)}"
    else:
        text = f"{capitalized(name)}{averaged} has no measurable effect on {', '.join(level)}"
    balance = next((m for m in metrics if m.name == "seat_balance"), None)
    value = low = high = float("nan")
    if balance is not None:
        table = marginal(cells, key, balance)
        row = table.loc[table["value"].idxmax()]
        value, low, high = row.value, row.ci_low, row.ci_high
    finding = Finding(
        text + ".", value, low, high, len(cells), f"rule_{_slug(key)}", f"effect_{key}"
    )
    return Section(
        title=f"What {name} changes",
        intro=(
            f"Each metric at each value of {name}"
            + (
                ", averaged over the other keys' values (each combination weighs the same)"
                if len(keys) > 1
                else ""
            )
            + ", with its 95% interval. An effect is named only when the highest and the "
            "lowest value's intervals do not overlap."
        ),
        findings=[finding],
        figures=[rule_figure(cells, key, metrics)] if metrics else [],
        tables=[
            Table(
                f"effect_{_slug(key)}",
                f"Effect of {name}",
                rule_effects(cells, key),
                "Rates and shares in % with 95% intervals; first-player advantage in "
                "percentage points over the fair share; means in their units.",
                index=False,
                key_columns=2,
                shown=pd.DataFrame(rows),
            )
        ],
    )


def capitalized(text: str) -> str:
    """The text with its first letter in upper case (the rest untouched)."""
    return text[:1].upper() + text[1:]


def effect_phrase(metric: Metric, named: list[Estimate]) -> str:
    """``balance across seats falls from 78.8% [...] at 0.1 to 67.9% [...] at 1`` when the
    highest and lowest values are separated (``separation.standout``), else ``""``."""
    high, low = standout(named), standout(named, highest=False)
    if low.top.name in {e.name for e in high.level}:
        return ""
    order = [e.name for e in named]
    first, last = sorted((high.top, low.top), key=lambda e: order.index(e.name))
    verb = "rises" if last.value > first.value else "falls"
    return (
        f"{metric.label} {verb} from {_phrase(metric, first)} at {first.name} to "
        f"{_phrase(metric, last)} at {last.name}"
    )


def _phrase(metric: Metric, estimate: Estimate) -> str:
    return metric_phrase(metric, estimate.value, estimate.low, estimate.high)


def _slug(key: str) -> str:
    return key.removeprefix("settings.").replace(".", "_")


def rule_figure(cells: pd.DataFrame, key: str, metrics: list[Metric]) -> Figure:
    """One small panel per balance metric: its value at each value of the rule, with its
    interval (averaged over the other keys)."""
    figure, grid = panel_grid(len(metrics), 3.1, 2.3)
    for axes, metric in zip(grid.ravel(), metrics, strict=False):
        table = marginal(cells, key, metric)
        x = np.arange(len(table))
        errors = np.vstack([table["value"] - table["ci_low"], table["ci_high"] - table["value"]])
        axes.errorbar(x, table["value"], yerr=np.clip(errors, 0, None), fmt="o",
                      color=PALETTE[0], capsize=3)  # fmt: skip
        axes.set_xticks(x, [value_text(v) for v in table.index])
        axes.set_xlim(-0.5, len(table) - 0.5)
        axes.set_title(capitalized(metric.label), fontsize=9)
        axes.set_xlabel(key_name(key), fontsize=8)
        if metric.kind in ("rate", "points"):
            percent_axis(axes)
        if metric.kind == "points":
            axes.set_ylabel("points", fontsize=8)
        if metric.kind == "points":
            axes.axhline(0, color=REFERENCE, linestyle="--", linewidth=1)
    for axes in grid.ravel()[len(metrics) :]:
        axes.set_visible(False)
    return Figure(
        f"rule_{_slug(key)}",
        f"What {key_name(key)} changes",
        figure,
        "Each metric at each value of the rule, averaged over the other keys, with 95% "
        "intervals (first-player advantage: points over the fair share, dashed 0).",
    )


# --- cooperative success as curves ------------------------------------------------------------

COOPERATIVE = "cooperative_success"
"""The team's success rate a cooperative game's runs report (Zoology's cooperative mode)."""


def cooperative_sections(cells: pd.DataFrame, keys: list[str]) -> list[Section]:
    """For a cooperative game: the team's success over the first key, one curve per value of
    the others (difficulty as curves, not one point). None for other games."""
    if f"{COOPERATIVE}_rate" not in cells or cells[f"{COOPERATIVE}_rate"].isna().any():
        return []
    metric = Metric(
        COOPERATIVE, "cooperative success", f"{COOPERATIVE}_rate", f"{COOPERATIVE}_ci_low",
        f"{COOPERATIVE}_ci_high", f"{COOPERATIVE}_n", "rate",
    )  # fmt: skip
    named = [
        Estimate(name, row[metric.value], row[metric.low], row[metric.high])
        for name, (_, row) in zip(cell_names(cells, keys), cells.iterrows(), strict=True)
    ]
    easiest = standout(named)
    hardest = standout(named, highest=False)

    def say(best: Standout) -> str:
        e = best.top
        cell = f"at {e.name}: {rate_phrase(e.value, e.low, e.high)}"
        if not best.clear:
            cell += f" (level with {len(best.level) - 1} other cell(s))"
        return cell

    n = int(cells[metric.n].min())
    finding = Finding(
        f"The team succeeds least often {say(hardest)}; most often {say(easiest)} "
        f"(n = {n:,} games per cell). Absolute difficulty depends on the assumed perception "
        "noise and player model: these curves, not one number, are the result.",
        hardest.top.value,
        hardest.top.low,
        hardest.top.high,
        n,
        "sweep_cooperative_curves",
        "cooperative_success_range",
    )
    return [
        Section(
            title="Cooperative success as curves",
            intro=(
                "How often the whole team finds its animals, at every cell, with 95% Wilson "
                f"intervals: over {key_name(keys[0])}"
                + (", one curve per " + " and ".join(key_name(k) for k in keys[1:]))
                * (len(keys) > 1)
                + ". How hard the cooperative game is depends on how noisily players judge "
                "the answers and on how well they reason: read the difficulty off the curves "
                "for the assumptions that match the table."
            ),
            findings=[finding],
            figures=[curves_figure(cells, keys, metric)],
            tables=[],
        )
    ]


def curves_figure(cells: pd.DataFrame, keys: list[str], metric: Metric) -> Figure:
    """``metric`` over the first key, one line (with its band) per combination of the
    other keys."""
    figure, axes = new_figure(MAX_FIGURE_WIDTH, 3.6)
    key = keys[0]
    values = sorted(cells[key].unique())
    position = {v: i for i, v in enumerate(values)}
    others = keys[1:]
    groups = cells.groupby(others, sort=True) if others else [((), cells)]
    for index, (group, part) in enumerate(groups):
        colour = PALETTE[index % len(PALETTE)]
        part = part.sort_values(key)
        x = np.array([position[v] for v in part[key]], dtype=float)
        group = group if isinstance(group, tuple) else (group,)
        label = ", ".join(
            f"{key_name(k)} = {value_text(v)}" for k, v in zip(others, group, strict=True)
        )
        axes.plot(x, part[metric.value], "o-", color=colour, label=label or None)
        axes.fill_between(x, part[metric.low], part[metric.high], color=colour, alpha=0.2,
                          linewidth=0)  # fmt: skip
    axes.set_xticks(range(len(values)), [value_text(v) for v in values])
    axes.set_xlabel(key_name(key))
    axes.set_ylabel(f"{capitalized(metric.label)} (%)")
    percent_axis(axes)
    if others:
        axes.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return Figure(
        "sweep_cooperative_curves",
        f"{capitalized(metric.label)} over {key_name(key)}",
        figure,
        "Share of games in which every player found their animal; bands: 95% Wilson "
        "intervals.",
    )


# --- the whole grid --------------------------------------------------------------------------


def balance_cells_finding(cells: pd.DataFrame, keys: list[str]) -> Finding:
    """The most and least balanced cell (balance across seats), named only when separated."""
    metric = next(m for m in balance_metrics_of(cells) if m.name == "seat_balance")
    names = cell_names(cells, keys)
    named = estimates(cells, metric, names)
    most, least = standout(named), standout(named, highest=False)

    def say(best, word: str) -> str:
        if best.clear:
            return f"{word} with {best.top.name} ({_phrase(metric, best.top)})"
        shown = "; ".join(f"{e.name} {_phrase(metric, e)}" for e in best.level[:3])
        more = f" and {len(best.level) - 3} more" if len(best.level) > 3 else ""
        return f"not measurably {word} in any one cell ({shown}{more} are level)"

    return Finding(
        f"Balance across seats (100% = every seat has the same win share) is "
        f"{say(most, 'highest')}; {say(least, 'lowest')}.",
        most.top.value,
        most.top.low,
        most.top.high,
        int(cells["seat1_win_n"].iloc[0]),
        "sweep_balance",
        "balance_cells",
    )


def grid_section(
    cells: pd.DataFrame, keys: list[str], seats: list[int], pooled: list[str]
) -> Section:
    """Every cell: win share by seat, balance, and the game's own metrics."""
    figures = [*win_share_figures(cells, keys, seats), balance_figure(cells, keys)]
    own = game_metrics(cells, strategy_roles(cells))
    if own:
        figures.append(metrics_figure(cells, keys, own[:6]))
    if len(keys) <= 2:
        shown = pd.DataFrame({key_name(k): [value_text(v) for v in cells[k]] for k in keys})
    else:  # one narrow column that wraps, so that seat 1 still fits a phone's width
        shown = pd.DataFrame({"cell": cell_names(cells, keys)})
    identity = len(shown.columns)
    for seat in seats:
        metric = win_metric(f"seat{seat}")
        shown[f"seat {seat}"] = [
            metric_phrase(metric, r[metric.value], r[metric.low], r[metric.high])
            for _, r in cells.iterrows()
        ]
    shown["lineup"] = cells["lineup"].to_numpy()
    intro = (
        "Every cell of the grid on its own: win share by seat, balance across seats and the "
        "game's own metrics. Every metric of every cell is in tables/cells_all_metrics.csv."
    )
    if pooled:
        intro += (
            f" In {len(pooled)} cell(s) ({'; '.join(pooled[:3])}) the swept seat plays the "
            "same strategy as another seat, so their by-strategy figures are pooled."
        )
    return Section(
        title="Every cell",
        intro=intro,
        findings=[balance_cells_finding(cells, keys)],
        figures=figures,
        tables=[
            Table(
                "cells",
                "Every cell: win share by seat (95% CI)",
                shown,
                "Win share: a game won by k tied winners gives each 1/k.",
                index=False,
                key_columns=identity + 1,  # the cell and seat 1
            ),
            Table(
                "cells_all_metrics", "Every metric of every cell", cells, index=False, show_rows=0
            ),
        ],
        definitions=DEFINITIONS,
    )


def win_share_figures(cells: pd.DataFrame, keys: list[str], seats: list[int]) -> list[Figure]:
    """One key: a line per seat. Two keys: a heatmap per seat. More: every cell's row."""
    if len(keys) == 1:
        return [line_figure(cells, keys[0], seats)]
    if len(keys) == 2:
        return [heatmap_figure(cells, keys[0], keys[1], seat) for seat in seats]
    return [cells_figure(cells, keys, seats)]


def line_figure(cells: pd.DataFrame, key: str, seats: list[int]) -> Figure:
    """Win share of every seat over one swept key, with 95% bands."""
    figure, axes = new_figure(MAX_FIGURE_WIDTH, 3.6)
    ordered = cells.sort_values(key)
    numeric = pd.api.types.is_numeric_dtype(ordered[key]) and not pd.api.types.is_bool_dtype(
        ordered[key]
    )
    x = ordered[key].to_numpy(dtype=float) if numeric else np.arange(len(ordered))
    for index, seat in enumerate(seats):
        colour = PALETTE[index % len(PALETTE)]
        metric = win_metric(f"seat{seat}")
        axes.plot(x, ordered[metric.value], "o-", color=colour, label=f"seat {seat}")
        axes.fill_between(x, ordered[metric.low], ordered[metric.high], color=colour,
                          alpha=0.2, linewidth=0)  # fmt: skip
    axes.set_xticks(x, [value_text(v) for v in ordered[key]])
    axes.set_xlabel(key_name(key))
    axes.set_ylabel("Win share (%)")
    percent_axis(axes)
    axes.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return Figure(
        "sweep_win_rate",
        f"Win share by seat over {key_name(key)}",
        figure,
        "Win share (ties split); bands: 95% Wilson intervals.",
    )


def heatmap_figure(cells: pd.DataFrame, row_key: str, column_key: str, seat: int) -> Figure:
    """One seat's win share over two swept keys, each cell annotated with share [low, high]."""
    rows_values = sorted(cells[row_key].unique())
    column_values = sorted(cells[column_key].unique())
    width = min(MAX_FIGURE_WIDTH, 1.6 + 0.95 * len(column_values))
    figure, axes = new_figure(width, 1.3 + 0.55 * len(rows_values))
    metric = win_metric(f"seat{seat}")
    pivot = {
        part: cells.pivot_table(index=row_key, columns=column_key, values=column).reindex(
            index=rows_values, columns=column_values
        )
        for part, column in (("rate", metric.value), ("low", metric.low), ("high", metric.high))
    }
    image = axes.imshow(
        pivot["rate"].to_numpy(dtype=float), cmap=HEATMAP, vmin=0, vmax=1, aspect="auto",
        origin="lower",
    )  # fmt: skip
    for i, r in enumerate(rows_values):
        for j, c in enumerate(column_values):
            value = pivot["rate"].loc[r, c]
            if np.isnan(value):
                continue
            colour = "white" if value < 0.4 else "black"
            axes.text(j, i + 0.14, f"{100 * value:.1f}", ha="center", va="center", fontsize=8,
                      color=colour)  # fmt: skip
            axes.text(
                j, i - 0.2, f"[{100 * pivot['low'].loc[r, c]:.1f}, "
                f"{100 * pivot['high'].loc[r, c]:.1f}]",
                ha="center", va="center", fontsize=7, color=colour,
            )  # fmt: skip
    axes.set_xticks(range(len(column_values)), [value_text(v) for v in column_values])
    axes.set_yticks(range(len(rows_values)), [value_text(v) for v in rows_values])
    axes.set_xlabel(key_name(column_key))
    axes.set_ylabel(key_name(row_key))
    bar = figure.colorbar(image, ax=axes, shrink=0.9)
    bar.set_label("Win share (%)")
    percent_axis(bar.ax)
    return Figure(
        f"sweep_win_rate_seat{seat}",
        f"Seat {seat}: win share over {key_name(row_key)} and {key_name(column_key)}",
        figure,
        "Each cell: win share (ties split) in percent and its 95% Wilson interval in brackets.",
    )


def _dot_rows(axes, y: np.ndarray, values, lows, highs, colour: str, label: str | None) -> None:
    values, lows, highs = (np.asarray(a, dtype=float) for a in (values, lows, highs))
    errors = np.nan_to_num(np.clip(np.vstack([values - lows, highs - values]), 0, None))
    axes.errorbar(values, y, xerr=errors, fmt="o", color=colour, capsize=2, label=label,
                  markersize=4)  # fmt: skip


def cells_figure(cells: pd.DataFrame, keys: list[str], seats: list[int]) -> Figure:
    """Every cell on its own row: each seat's win share with its 95% interval."""
    labels = _short_cell_labels(cells, keys)
    figure, axes = new_figure(MAX_FIGURE_WIDTH, 1.3 + 0.32 * len(cells))
    y = np.arange(len(cells))
    offsets = np.linspace(-0.25, 0.25, len(seats)) if len(seats) > 1 else [0.0]
    for index, seat in enumerate(seats):
        metric = win_metric(f"seat{seat}")
        _dot_rows(axes, y + offsets[index], cells[metric.value], cells[metric.low],
                  cells[metric.high], PALETTE[index % len(PALETTE)], f"seat {seat}")  # fmt: skip
    axes.set_yticks(y, labels, fontsize=8)
    axes.set_ylim(len(cells) - 0.5, -0.5)
    axes.set_xlabel("Win share (%)")
    percent_axis(axes, "x")
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=len(seats))
    return Figure(
        "sweep_win_rate",
        "Win share by seat in every cell",
        figure,
        "One row per cell of the grid (" + ", ".join(key_name(k) for k in keys) + "); error "
        "bars: 95% Wilson intervals.",
    )


def _short_cell_labels(cells: pd.DataFrame, keys: list[str]) -> list[str]:
    """Each cell's values only (``20, 0.3``), for figure rows; the keys go in the caption."""
    return [", ".join(value_text(row[k]) for k in keys) for _, row in cells.iterrows()]


def balance_figure(cells: pd.DataFrame, keys: list[str]) -> Figure:
    """Balance across seats and first-player advantage in every cell."""
    metrics = [m for m in balance_metrics_of(cells) if m.name in ("seat_balance",
               "first_player_advantage")]  # fmt: skip
    return _rows_figure(
        cells,
        keys,
        metrics,
        "sweep_balance",
        "Balance in every cell",
        "Balance across seats (100% = equal win shares) and first-player advantage (seat 1's "
        "win share over the fair share; dashed: none), each with its 95% interval.",
    )


def metrics_figure(cells: pd.DataFrame, keys: list[str], metrics: list[Metric]) -> Figure:
    """The game's own metrics with intervals, cell by cell (aligned rows, shared labels)."""
    return _rows_figure(
        cells,
        keys,
        metrics,
        "sweep_metrics",
        "The game's own metrics in every cell",
        "Each metric with its 95% interval, one row per cell (rates: Wilson; means: normal "
        "approximation). Every metric is in tables/cells_all_metrics.csv.",
    )


def _rows_figure(
    cells: pd.DataFrame,
    keys: list[str],
    metrics: list[Metric],
    name: str,
    title: str,
    caption: str,
) -> Figure:
    """Panels of one row per cell, two panels a row, sharing the cells' axis so every dot
    sits on its cell's label."""
    labels = _short_cell_labels(cells, keys)
    columns = min(2, len(metrics))
    rows = -(-len(metrics) // columns)
    figure, grid = new_grid(
        rows, columns, MAX_FIGURE_WIDTH, rows * (0.9 + 0.24 * len(cells)), sharey=True
    )
    y = np.arange(len(cells))
    for index, metric in enumerate(metrics):
        axes = grid.ravel()[index]
        _dot_rows(axes, y, cells[metric.value], cells[metric.low], cells[metric.high],
                  PALETTE[index % len(PALETTE)], None)  # fmt: skip
        axes.set_yticks(y, labels, fontsize=8)
        axes.set_ylim(len(cells) - 0.5, -0.5)
        axes.set_title(capitalized(metric.label), fontsize=9)
        if metric.kind in ("rate", "points"):
            percent_axis(axes, "x")
        if metric.kind == "points":
            axes.set_xlabel("percentage points", fontsize=8)
        if metric.kind == "points":
            axes.axvline(0, color=REFERENCE, linestyle="--", linewidth=1)
    for axes in grid.ravel()[len(metrics) :]:
        axes.set_visible(False)
    rows_are = ", ".join(key_name(k) for k in keys)
    return Figure(name, title, figure, f"{caption} Each row is a cell: {rows_are}.")
