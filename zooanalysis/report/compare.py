"""``zoosim compare RUN_A RUN_B``: the same metrics of two runs of one game, side by side.

Each metric gets B − A with a 95% interval and a two-sided p-value: rates by the pooled
two-proportion z-test with Newcombe's interval for the difference (built from the two
Wilson intervals), means and derived metrics by a z-test from their intervals. The runs
are independent (different seeds or rules). Because many metrics are tested at once, the
report also gives Holm-adjusted p-values and calls a difference significant only when the
adjusted p-value is below 0.05.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from zooanalysis.errors import UserError
from zooanalysis.report.balance import DEFINITIONS, balance_metrics
from zooanalysis.report.model import Figure, Finding, ReportDocument, Section, Table
from zooanalysis.report.style import PALETTE, REFERENCE
from zooanalysis.results import Run
from zooanalysis.stats import holm, normal_sf, two_proportion_test

Z_95 = 1.959963984540054
SIGNIFICANCE = 0.05


def load_two_runs(first: Path, second: Path) -> tuple[Run, Run]:
    """Both runs, refusing folders that are not runs or runs of different games."""
    from zooanalysis.loading import load_run
    from zooanalysis.report.build import folder_kind
    from zooanalysis.storage import read_manifest

    for path in (first, second):
        if folder_kind(path) != "run":
            raise UserError(f"{path}: zoosim compare needs two run folders (from zoosim run)")
    game_a, game_b = read_manifest(first).get("game"), read_manifest(second).get("game")
    if game_a != game_b:
        raise UserError(
            f"cannot compare a run of {game_a} ({first}) with a run of {game_b} "
            f"({second}): compare two runs of the same game"
        )
    return load_run(first), load_run(second)


def run_metrics(run: Run) -> pd.DataFrame:
    """The balance metrics plus every other figure of ``run.metrics()``, one row each."""
    table = balance_metrics(run).assign(group="balance")
    known = set(table["metric"])
    extra = []
    flat = run.metrics()
    for key, value in flat.items():
        if key.startswith("balance."):  # the balance metrics above, flat
            continue
        if key.endswith("_rate"):
            name = key.removesuffix("_rate")
            if name in known:
                continue
            n = int(flat.get(f"{name}_n", 0))
            extra.append(
                {
                    "metric": name,
                    "label": _label(name),
                    "kind": "rate",
                    "group": "game",
                    "value": value,
                    "ci_low": flat[f"{name}_ci_low"],
                    "ci_high": flat[f"{name}_ci_high"],
                    "n": n,
                    "successes": round(value * n),
                }
            )
        elif key.endswith("_mean") and f"{key.removesuffix('_mean')}_ci_low" in flat:
            name = key.removesuffix("_mean")
            if key in known:
                continue
            extra.append(
                {
                    "metric": key,
                    "label": _label(key),
                    "kind": "mean",
                    "group": "game",
                    "value": value,
                    "ci_low": flat[f"{name}_ci_low"],
                    "ci_high": flat[f"{name}_ci_high"],
                    "n": run.games_played,
                    "successes": math.nan,
                }
            )
    return pd.concat([table, pd.DataFrame(extra, columns=table.columns)], ignore_index=True)


def _label(name: str) -> str:
    """``seat1_points_mean`` as ``Seat 1 points mean``."""
    words = name.replace("_", " ")
    if words.startswith("seat") and words[4:5].isdigit():
        words = "Seat " + words[4:]
    return words[:1].upper() + words[1:]


def _p_text(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.2g}"


def compare_metrics(run_a: Run, run_b: Run) -> pd.DataFrame:
    """Every metric both runs have: A, B, B − A with its 95% interval, p and Holm's p."""
    a = run_metrics(run_a).set_index("metric")
    b = run_metrics(run_b).set_index("metric")
    common = [metric for metric in a.index if metric in b.index]
    rows = []
    for metric in common:
        x, y = a.loc[metric], b.loc[metric]
        difference = y.value - x.value
        if x.kind == "rate" and y.kind == "rate":
            low = difference - math.hypot(y.value - y.ci_low, x.ci_high - x.value)
            high = difference + math.hypot(y.ci_high - y.value, x.value - x.ci_low)
            p = two_proportion_test(x.successes, x.n, y.successes, y.n)
        else:
            se = math.hypot(
                (x.ci_high - x.ci_low) / (2 * Z_95), (y.ci_high - y.ci_low) / (2 * Z_95)
            )
            low, high = difference - Z_95 * se, difference + Z_95 * se
            p = (
                float(2 * normal_sf(abs(difference) / se))
                if se > 0
                else (1.0 if difference == 0 else 0.0)
            )
        rows.append(
            {
                "metric": metric,
                # the seat labels name each run's strategy: say both when they differ
                "label": x.label if x.label == y.label else f"{x.label} (B: {y.label})",
                "kind": x.kind,
                "group": x.group,
                "a": x.value,
                "a_ci_low": x.ci_low,
                "a_ci_high": x.ci_high,
                "a_n": int(x.n),
                "b": y.value,
                "b_ci_low": y.ci_low,
                "b_ci_high": y.ci_high,
                "b_n": int(y.n),
                "difference": difference,
                "difference_ci_low": low,
                "difference_ci_high": high,
                "p_value": p,
            }
        )
    table = pd.DataFrame(rows)
    if len(table):
        table["p_holm"] = holm(table["p_value"].to_numpy())
        table["significant"] = table["p_holm"] < SIGNIFICANCE
    return table


def setting_differences(run_a: Run, run_b: Run) -> list[str]:
    """Plain lines for every rule setting, lineup or seed that differs between the runs."""
    lines = []
    flat_a, flat_b = _flatten(run_a.settings), _flatten(run_b.settings)
    for key in sorted(set(flat_a) | set(flat_b)):
        if flat_a.get(key) != flat_b.get(key):
            lines.append(f"{key}: {flat_a.get(key, '–')} in A, {flat_b.get(key, '–')} in B")
    if run_a.lineup != run_b.lineup:
        lines.append(f"lineup: {','.join(run_a.lineup)} in A, {','.join(run_b.lineup)} in B")
    if run_a.manifest.get("seed") != run_b.manifest.get("seed"):
        lines.append(f"seed: {run_a.manifest.get('seed')} in A, {run_b.manifest.get('seed')} in B")
    return lines


def _flatten(settings: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in settings.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _value_text(row, side: str) -> str:
    """Run ``side``'s (``a`` or ``b``) value of a comparison row with its 95% interval and
    n, on the scale of the difference (rates and the balance shares in %)."""
    value, low, high = (getattr(row, f"{side}{part}") for part in ("", "_ci_low", "_ci_high"))
    n = int(getattr(row, f"{side}_n"))
    if row.kind == "rate" or row.metric in ("seat_balance", "first_player_advantage"):
        return f"{100 * value:.2f}% [{100 * low:.2f}%, {100 * high:.2f}%] (n={n:,})"
    return f"{value:.3g} [{low:.3g}, {high:.3g}] (n={n:,})"


def _difference_text(row) -> str:
    if row.kind == "rate" or row.metric in ("seat_balance", "first_player_advantage"):
        scale, unit = 100, " points"
    else:
        scale, unit = 1, ""
    return (
        f"{scale * row.difference:+.2f}{unit} [95% CI {scale * row.difference_ci_low:+.2f}, "
        f"{scale * row.difference_ci_high:+.2f}]"
    )


def compare_document(run_a: Run, run_b: Run, name_a: str, name_b: str) -> ReportDocument:
    """Everything ``zoosim compare`` shows (figures drawn, nothing written)."""
    table = compare_metrics(run_a, run_b)
    changes = setting_differences(run_a, run_b)
    findings = [
        Finding(
            "What differs between A and B: "
            + ("; ".join(changes) if changes else "nothing in the rules, lineup or seed")
            + ".",
            key="setting_differences",
        )
    ]
    significant = table[table["significant"]] if len(table) else table
    width = significant["difference_ci_high"] - significant["difference_ci_low"]
    ranked = significant.assign(
        strength=(significant["difference"] / width).abs(),
        balance_first=significant["group"] != "balance",
    ).sort_values(["balance_first", "strength"], ascending=[True, False])
    for row in ranked.head(8).itertuples():
        findings.append(
            Finding(
                f"{row.label}: {_value_text(row, 'a')} in A, "
                f"{_value_text(row, 'b')} in B, a change of {_difference_text(row)} "
                f"({_p_text(row.p_value)}; Holm-adjusted {_p_text(row.p_holm)[2:]}).",
                row.difference,
                row.difference_ci_low,
                row.difference_ci_high,
                int(row.a_n + row.b_n),
                "differences",
                f"difference_{row.metric}",
            )
        )
    if significant.empty:
        findings.append(
            Finding(
                "No metric differs significantly (Holm-adjusted p < 0.05).", key="no_difference"
            )
        )
    shown = table.drop(columns=["kind"]) if len(table) else table
    section = Section(
        title="A and B side by side",
        intro=(
            f"A = {name_a} ({run_a.games_played:,} games), B = {name_b} "
            f"({run_b.games_played:,} games). Differences are B − A."
        ),
        figures=[differences_figure(table)] if len(table) else [],
        tables=[
            Table(
                "comparison",
                "Every metric of A and B, the difference and its test",
                shown,
                "Rates as fractions; significant = Holm-adjusted p < 0.05.",
                index=False,
                show_rows=80,
                hidden=("metric",),
            )
        ],
        definitions={
            **DEFINITIONS,
            "Difference and test": "B − A. For rates: Newcombe's interval from the two "
            "Wilson intervals and the pooled two-proportion z-test. For means and derived "
            "metrics: a normal interval and z-test from the two 95% intervals. The runs must "
            "be independent (different seeds, or different rules).",
            "Holm adjustment": "Many metrics are tested at once, so some would look "
            "significant by chance; Holm's method adjusts the p-values so that the chance of "
            "any false alarm stays below 5%.",
        },
    )
    return ReportDocument(
        title=f"{run_a.manifest.get('title', run_a.game)}: comparing two runs",
        subtitle=f"A = {name_a}, B = {name_b}.",
        findings=findings,
        sections=[section],
        facts={
            "Run A": f"{name_a}: lineup {','.join(run_a.lineup)}, seed "
            f"{run_a.manifest.get('seed')}, settings {json.dumps(run_a.settings, sort_keys=True)}",
            "Run B": f"{name_b}: lineup {','.join(run_b.lineup)}, seed "
            f"{run_b.manifest.get('seed')}, settings {json.dumps(run_b.settings, sort_keys=True)}",
        },
    )


def differences_figure(table: pd.DataFrame) -> Figure:
    """B − A with 95% intervals: rates in percentage points, means relative to A."""
    rates = table[(table["kind"] != "mean")]
    means = table[(table["kind"] == "mean") & (table["a"] != 0)]
    from zooanalysis.report.style import new_grid

    heights = [max(len(rates), 1), max(len(means), 1)]
    figure, grid = new_grid(2, 1, 6.4, 1.2 + 0.28 * sum(heights))
    for axes, part, scale, label in (
        (grid[0, 0], rates, 100.0, "B − A (percentage points)"),
        (grid[1, 0], means, None, "B − A (% of A's mean)"),
    ):
        if part.empty:
            axes.set_visible(False)
            continue
        factor = 100.0 / part["a"].abs().to_numpy() if scale is None else scale
        centre = part["difference"].to_numpy() * factor
        low = part["difference_ci_low"].to_numpy() * factor
        high = part["difference_ci_high"].to_numpy() * factor
        positions = np.arange(len(part))
        colours = [PALETTE[5] if s else PALETTE[0] for s in part["significant"]]
        axes.errorbar(
            centre,
            positions,
            xerr=np.vstack([centre - low, high - centre]),
            fmt="none",
            ecolor="black",
            capsize=2,
            linewidth=0.8,
        )
        axes.scatter(centre, positions, c=colours, zorder=3, s=18)
        axes.axvline(0, color=REFERENCE, linestyle="--", linewidth=1)
        axes.set_yticks(positions, list(part["label"]), fontsize=7)
        axes.invert_yaxis()
        axes.set_xlabel(label)
    return Figure(
        "differences",
        "Differences B − A with 95% intervals",
        figure,
        "Vermillion: significant after Holm's adjustment; blue: not significant.",
    )


def default_compare_folder(first: Path, second: Path) -> Path:
    """``reports/compare-<A>-vs-<B>``."""
    names = (Path(first).resolve().name, Path(second).resolve().name)
    return Path("reports") / f"compare-{names[0]}-vs-{names[1]}"


def build_comparison(first: Path, second: Path, out: Path | None = None) -> Path:
    """Write the comparison report of two runs; returns the path of its ``report.html``."""
    from zooanalysis.report.build import check_report_target
    from zooanalysis.report.html import write_report
    from zooanalysis.report.style import report_style

    target = Path(out) if out is not None else default_compare_folder(first, second)
    check_report_target(target)
    run_a, run_b = load_two_runs(Path(first), Path(second))
    with report_style():
        document = compare_document(run_a, run_b, str(first), str(second))
    return write_report(document, target)
