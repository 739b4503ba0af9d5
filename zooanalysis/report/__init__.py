"""Balance reports for designers: ``zoosim report`` and ``zoosim compare``.

One HTML file per report, self-contained (figures embedded as PNG, no scripts, no network),
plus every figure as PNG and SVG and every table as CSV. Modules, one job each:

- ``model``: the pieces (:class:`Finding`, :class:`Figure`, :class:`Table`,
  :class:`Section`, :class:`ReportDocument`);
- ``style``: matplotlib (Agg) look, colour-blind-safe palette, interval bars;
- ``balance``: the balance metrics every game gets, with 95% intervals;
- ``findings``: the headline sentences; ``figures``: the generic figures;
- ``run_report``, ``tournament``, ``sweep``: what a run, tournament or sweep folder shows;
- ``compare``: two runs of one game side by side, with tests of the differences;
- ``html``: assembly and the atomic write; ``build``: picks the right report for a folder.

**Adding a game's sections (the hook).** The generic report (win rates, balance across
seats, first-player advantage, ties, game length and, when the game's tables have
``lead_changes`` and ``settled``, decisiveness and lead changes; see
``zooanalysis.trajectory``) works for every game. A game adds its own parts by overriding
``Game.report_sections(self, run) -> list[Section]`` (default: none), ideally in a
``report.py`` of its package, imported lazily so that running games never loads
matplotlib::

    # zooanalysis/games/mygame/game.py
    def report_sections(self, run):
        from zooanalysis.games.mygame.report import report_sections
        return report_sections(run)

    # zooanalysis/games/mygame/report.py
    from zooanalysis.report.model import Figure, Finding, Section, Table, rate_phrase
    from zooanalysis.report.style import new_figure, percent_axis, rate_bars
    from zooanalysis.stats import rate_table

    def report_sections(run):
        table = run.table("ties_by_cycle")                 # any of the run's tables
        rates = rate_table(table.set_index("cycle")["ties"], table.set_index("cycle")["battles"])
        figure, axes = new_figure()
        rate_bars(axes, [str(c) for c in rates.index], rates.rate, rates.ci_low, rates.ci_high)
        axes.set_xlabel("Cycle size (arrows)")
        axes.set_ylabel("Battles tied (%)")
        percent_axis(axes)
        worst = rates.rate.idxmax()
        r = rates.loc[worst]
        return [Section(
            title="Lucky Lions: ties",
            findings=[Finding(
                f"Cards with {worst} arrows tie {rate_phrase(r.rate, r.ci_low, r.ci_high)} "
                "of battles.", r.rate, r.ci_low, r.ci_high, int(r.n), "tie_by_cycle", "ties")],
            figures=[Figure("tie_by_cycle", "Tie rate by cycle size", figure, "95% Wilson CIs.")],
            tables=[Table("tie_by_cycle", "Tie rate by cycle size", rates)],
            definitions={"Tie rate": "The share of battles ..."},
        )]

Findings are listed first in the report, each with its figure (``Finding.figure`` names a
figure of any section); figure and table names must be unique in a report (prefix them
with the game's name if in doubt). State every rate with its 95% Wilson interval and n.
"""

from __future__ import annotations

from zooanalysis.report.model import Figure, Finding, ReportDocument, Section, Table

__all__ = ["Figure", "Finding", "ReportDocument", "Section", "Table"]
