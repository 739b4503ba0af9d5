"""``zoosim report``: the findings equal the run's DataFrames, every figure is embedded, no
external resource is loaded, a known seat bias is stated, and errors leave nothing behind."""

from __future__ import annotations

import base64
import json
import re
import shutil
import stat
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from report_helpers import assert_no_clipped_text, assert_report_reads_right, html_tables

import zooanalysis
from zooanalysis import cli
from zooanalysis.games.bluff.game import BluffGame
from zooanalysis.report.build import build_report, report_document

BIASED_LINEUP = "bayes,random,random,random"


class ReportParser(HTMLParser):
    """Collects findings (their data attributes and text), images, links and figure ids."""

    def __init__(self) -> None:
        super().__init__()
        self.findings: dict[str, dict[str, str]] = {}
        self.images: list[str] = []
        self.urls: list[str] = []
        self.figure_ids: list[str] = []
        self.meta: list[dict[str, str]] = []
        self.tags: set[str] = set()
        self._finding: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        self.tags.add(tag)
        if attributes.get("class") == "finding":
            self._finding = attributes["data-key"]
            self.findings[self._finding] = {**attributes, "text": ""}
        if tag == "img":
            self.images.append(attributes.get("src", ""))
        for key in ("src", "href"):
            if key in attributes:
                self.urls.append(attributes[key])
        if tag == "figure":
            self.figure_ids.append(attributes.get("id", ""))
        if tag == "meta":
            self.meta.append(attributes)

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self._finding = None

    def handle_data(self, data: str) -> None:
        if self._finding is not None:
            self.findings[self._finding]["text"] += data


def parse(path: Path) -> ReportParser:
    """The parsed ``report.html`` at ``path``."""
    parser = ReportParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def biased(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A run where seat 1 (bayes) plays three random players, and its report."""
    folder = tmp_path_factory.mktemp("report")
    run_dir = folder / "biased"
    zooanalysis.simulate("bluff", players=BIASED_LINEUP, games=6000, seed=11, jobs=1, out=run_dir)
    html = build_report(run_dir, folder / "report")
    return run_dir, html


def number(finding: dict[str, str], key: str) -> float:
    """A finding's data attribute as a float."""
    return float(finding[f"data-{key}"])


def assert_finding_equals(
    finding: dict[str, str], rate: float, low: float, high: float, n: float
) -> None:
    """The finding's stated number, interval and n are exactly these."""
    assert number(finding, "value") == pytest.approx(rate, rel=1e-12)
    assert number(finding, "ci-low") == pytest.approx(low, rel=1e-12)
    assert number(finding, "ci-high") == pytest.approx(high, rel=1e-12)
    assert int(finding["data-n"]) == int(n)


def percent_in(text: str) -> float:
    """The first ``12.3% [11.9%, 12.7%]`` value of a sentence, as a fraction."""
    match = re.search(r"(\d+\.\d+)% \[(\d+\.\d+)%, (\d+\.\d+)%\]", text)
    assert match, text
    return float(match.group(1)) / 100


def test_the_report_states_the_known_seat_bias(biased) -> None:
    _, html = biased
    findings = parse(html).findings
    seat = findings["seat_bias"]
    assert "more than the fair share: seat 1 (bayes)" in seat["text"]
    assert "fair share of 25.0%" in seat["text"]
    assert "6,000 games" in seat["text"]
    assert "seat and strategy effects are mixed" in seat["text"]
    assert findings["best_strategy"]["text"].startswith("The strongest strategy here is bayes")
    assert "±" not in html.read_text(encoding="utf-8")
    # the words round the same number the data attributes hold
    assert percent_in(seat["text"]) == pytest.approx(number(seat, "value"), abs=0.0005)


def test_generic_findings_equal_the_dataframes(biased) -> None:
    run_dir, html = biased
    run = zooanalysis.load_run(run_dir)
    findings = parse(html).findings
    seat = run.win_rates("seat").loc[1]
    assert_finding_equals(findings["seat_bias"], seat.share, seat.ci_low, seat.ci_high, seat.n)
    bayes = run.win_rates("strategy").loc["bayes"]
    assert_finding_equals(
        findings["best_strategy"], bayes.share, bayes.ci_low, bayes.ci_high, bayes.n
    )
    seats = run.table("seats")
    ties = run.games - seats["sole_wins"].sum()
    assert number(findings["tie"], "value") == pytest.approx(ties / run.games)
    moves = run.game_length().loc["moves"]
    assert_finding_equals(
        findings["moves_mean"], moves["mean"], moves.ci_low, moves.ci_high, moves.n
    )
    settled = run.table("settled")
    single = settled["games"].sum()
    assert single == seats["sole_wins"].sum()
    early = settled.loc[settled["settled_percent"] < 50, "games"].sum()
    assert number(findings["settled_first_half"], "value") == pytest.approx(early / single)
    changes = run.table("lead_changes")
    mean = (changes["lead_changes"] * changes["games"]).sum() / changes["games"].sum()
    assert number(findings["lead_changes_mean"], "value") == pytest.approx(mean)
    late = settled.loc[settled["settled_percent"] >= 50, "games"].sum()
    assert number(findings["comeback"], "value") == pytest.approx(late / single)
    assert late == single - early  # every single-winner game settles in one half
    margins = run.table("margins")
    n = margins["games"].sum()
    assert n == run.games  # four players: some seat always loses
    mean = (margins["margin"] * margins["games"]).sum() / n
    assert_finding_equals(
        findings["margin_mean"], mean, *balance_bounds(run, "margin_mean"), n
    )
    assert "won by a single point" in findings["margin_mean"]["text"]
    last_quarter = settled.loc[settled["settled_percent"] >= 75, "games"].sum()
    flat = run.metrics()  # and every sweep cell carries the same numbers
    assert flat["balance.drama_value"] == pytest.approx(last_quarter / single)
    assert flat["balance.margin_mean_value"] == pytest.approx(mean)
    assert flat["balance.won_by_one_value"] == pytest.approx(
        margins.loc[margins["margin"] == 1, "games"].sum() / n
    )


def balance_bounds(run, metric: str) -> tuple[float, float]:
    """A balance metric's interval, as the report computes it."""
    from zooanalysis.report.balance import balance_metrics

    row = balance_metrics(run).set_index("metric").loc[metric]
    return row.ci_low, row.ci_high


def test_bluff_findings_equal_the_dataframes(biased) -> None:
    run_dir, html = biased
    run = zooanalysis.load_run(run_dir)
    findings = parse(html).findings
    doubts = run.doubts()
    assert number(findings["doubt_success"], "value") == pytest.approx(
        doubts["doubt_succeeded"].sum() / doubts["doubts"].sum()
    )
    headline = findings["headline_doubt"]
    match = re.search(r"claim of (\d+) or more on a pile of (\d+) cards", headline["text"])
    count, pile = int(match.group(1)), int(match.group(2))
    cell = doubts[(doubts["pile_size"] == pile) & (doubts["claimed_count"] >= count)]
    assert number(headline, "value") == pytest.approx(
        cell["doubt_succeeded"].sum() / cell["doubts"].sum()
    )
    assert int(headline["data-n"]) == cell["doubts"].sum()
    # the bluff rate's interval counts games, not claims, as independent
    random_bluffs = run.clustered_rates("claims").loc["random"]
    assert random_bluffs.rate == run.bluff_rates().loc["random", "rate"]
    assert "random bluffs most" in findings["bluff_rate"]["text"]
    assert_finding_equals(
        findings["bluff_rate"],
        random_bluffs.rate,
        random_bluffs.ci_low,
        random_bluffs.ci_high,
        random_bluffs.n,
    )
    ended = run.end_reasons().loc["points"]
    assert_finding_equals(findings["end_points"], ended.rate, ended.ci_low, ended.ci_high, ended.n)


def test_every_referenced_figure_is_embedded_and_written(biased) -> None:
    _, html = biased
    parsed = parse(html)
    folder = html.parent
    figure_names = [identifier.removeprefix("fig-") for identifier in parsed.figure_ids]
    assert len(figure_names) == len(set(figure_names)) >= 10
    for finding in parsed.findings.values():
        if finding["data-figure"]:
            assert finding["data-figure"] in figure_names, finding["text"]
    assert len(parsed.images) == len(figure_names)
    for source in parsed.images:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.split(",", 1)[1]).startswith(b"\x89PNG")
    for name in figure_names:
        assert (folder / "figures" / f"{name}.png").stat().st_size > 1000
        assert (folder / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
    for required in (
        "win_rate_by_seat",
        "doubt_success_heatmap",
        "odds_vs_observed",
        "bluff_rate",
        "penalty_points",
        "how_games_end",
        "decisiveness",
        "lead_changes",
        "winning_margin",
        "game_length",
    ):
        assert required in figure_names


def test_no_external_resources_and_readable_on_a_phone(biased) -> None:
    _, html = biased
    text = html.read_text(encoding="utf-8")
    parsed = parse(html)
    assert "://" not in text
    assert "<script" not in text and "<link" not in text and "@import" not in text
    local = [url for url in parsed.urls if not url.startswith(("data:", "#"))]
    assert local and all(re.fullmatch(r"figures/\w+\.svg", url) for url in local), local
    assert any(m.get("name") == "viewport" for m in parsed.meta)
    assert "img{max-width:100%" in text


def test_the_report_reads_right(biased) -> None:
    run_dir, html = biased
    assert_report_reads_right(html.parent)
    assert_no_clipped_text(report_document(run_dir))
    tables = html_tables(html.parent)
    assert list(tables["win_rate_by_seat"]["seat"]) == ["1", "2", "3", "4"]
    assert list(tables["penalty_points"]["seat"]) == ["1", "2", "3", "4"]
    ids = set(pd.read_csv(html.parent / "tables" / "balance_metrics.csv")["metric"])
    shown = set(tables["balance_metrics"].to_numpy().ravel())
    assert "seat_balance" in ids and not ids & shown  # ids stay in the CSV
    assert list(tables["balance_metrics"].columns) == ["measure", "value [95% CI]", "n"]


def test_tables_are_written_as_csv(biased) -> None:
    run_dir, html = biased
    run = zooanalysis.load_run(run_dir)
    tables = html.parent / "tables"
    findings = pd.read_csv(tables / "findings.csv")
    assert "seat_bias" in set(findings["key"])
    seats = pd.read_csv(tables / "win_rate_by_seat.csv")
    assert list(seats["seat"]) == [1, 2, 3, 4]
    assert list(seats["share"]) == pytest.approx(list(run.win_rates("seat")["share"]))
    doubts = pd.read_csv(tables / "doubt_success.csv")
    assert doubts["n"].sum() == run.doubts()["doubts"].sum()
    metrics = pd.read_csv(tables / "balance_metrics.csv").set_index("metric")
    for metric in (
        "seat_balance",
        "first_player_advantage",
        "tie",
        "settled_mean",
        "lead_changes_mean",
    ):
        assert metric in metrics.index


def test_the_report_folder_is_as_readable_as_any_new_folder(biased, tmp_path: Path) -> None:
    """A report is for sharing: its folder gets the mode a plain mkdir gives (the umask's),
    not the private 0700 of the temporary folder it was built in."""
    _, html = biased
    plain = tmp_path / "plain"
    plain.mkdir()
    mode = stat.S_IMODE(html.parent.stat().st_mode)
    assert mode == stat.S_IMODE(plain.stat().st_mode)
    assert mode & stat.S_IRGRP, oct(mode)  # under the usual umask (022 or 002)


def test_the_report_names_the_strategies_and_warns_about_bots(biased) -> None:
    _, html = biased
    text = html.read_text(encoding="utf-8")
    assert "bot results" in text
    assert "<b>bayes</b>" in text and "<b>random</b>" in text
    assert "Appendix: definitions" in text
    for term in (
        "Balance across seats",
        "First-player advantage",
        "Shared-win (tie) rate",
        "Decisiveness",
        "Lead changes",
        "Winning margin",
        "Comebacks",
        "Drama",
        "Doubt success",
    ):
        assert f"<dt>{term}" in text


def test_a_run_without_trajectory_tables_says_not_measured(biased, tmp_path: Path) -> None:
    run_dir, _ = biased
    old = tmp_path / "old-run"
    shutil.copytree(run_dir, old)
    for name in ("settled", "lead_changes"):
        (old / f"{name}.parquet").unlink()
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["tables"] = [t for t in manifest["tables"] if t not in ("settled", "lead_changes")]
    del manifest["manifest_sha256"]  # written before manifests were sealed, too
    (old / "manifest.json").write_text(json.dumps(manifest))
    html = build_report(old, tmp_path / "report")
    parsed = parse(html)
    assert "Decisiveness: not measured" in parsed.findings["settled_none"]["text"]
    assert "Lead changes: not measured" in parsed.findings["lead_none"]["text"]
    assert "decisiveness" not in [i.removeprefix("fig-") for i in parsed.figure_ids]


def test_a_game_without_sections_gets_the_generic_report(
    biased, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir, _ = biased
    monkeypatch.setattr(BluffGame, "report_sections", lambda self, run: [])
    parsed = parse(build_report(run_dir, tmp_path / "generic"))
    assert {"seat_bias", "seat_balance", "tie", "moves_mean"} <= set(parsed.findings)
    assert "doubt_success" not in parsed.findings


def test_cli_report_default_folder_and_run_with_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code = cli.main(
        [
            "run",
            "--games",
            "1500",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--no-progress",
            "--out",
            "runs/small",
            "--report",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Report: reports/small/report.html" in out
    assert (tmp_path / "reports/small/report.html").is_file()
    code = cli.main(["report", "runs/small"])
    assert code == 0 and "reports/small/report.html" in capsys.readouterr().out
    code = cli.main(["report", "runs/small", "-o", "elsewhere/mine"])
    assert code == 0
    assert {p.name for p in (tmp_path / "elsewhere/mine").iterdir()} == {
        "report.html",
        "figures",
        "tables",
    }


def test_report_errors_are_one_line_and_leave_nothing(
    biased, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir, _ = biased
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-a-run").mkdir()
    for args, fragment in (
        (["report", "missing"], "is not a folder"),
        (["report", "not-a-run"], "no manifest.json"),
    ):
        assert cli.main(args) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and fragment in err
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "data.txt").write_text("mine")
    assert cli.main(["report", str(run_dir), "-o", "taken"]) == 2
    assert "not a report folder" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["data.txt"]
    assert not (tmp_path / "reports").exists()


def test_a_failing_section_leaves_no_partial_report(
    biased, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir, _ = biased
    out = tmp_path / "reports" / "r"
    build_report(run_dir, out)
    before = (out / "report.html").read_bytes()

    def broken(self, run):
        raise RuntimeError("section failed")

    monkeypatch.setattr(BluffGame, "report_sections", broken)
    with pytest.raises(RuntimeError):
        build_report(run_dir, out)
    assert (out / "report.html").read_bytes() == before  # the old report is untouched
    assert [p.name for p in out.parent.iterdir()] == ["r"]  # no temporary folders left


def test_run_refuses_a_bad_report_folder_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("keep me")
    code = cli.main(
        [
            "run",
            "--games",
            "500",
            "--jobs",
            "1",
            "--no-progress",
            "--out",
            "runs/x",
            "--report-dir",
            "notes",
        ]
    )
    assert code == 2
    assert "not a report folder" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()
