"""The What-if result page (AppTest) on a what-if played shard by shard (no Ray): it shows the
report's own variant deltas of the variant ``whatif`` (every metric, with interval and
q-value), the significant ones in words, and the factions and cards that moved most; an
experiment that is not a what-if gets a pointer instead."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics.findings import delta_findings
from analytics.report import build_report
from dashboard.evidence import delta_words, headline
from experiments.spec import load_spec
from experiments.whatif import whatif_spec
from tests.conftest import write_experiment
from tests.dashboard.test_pages import chart_data, chart_title, last_deltas
from tests.launcher.helpers import DIVVY_BASELINE

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
TIMEOUT = 60


@pytest.fixture(scope="module")
def whatif_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A what-if without any 12 (a change big enough to move win rates), 400 games a variant."""
    root = tmp_path_factory.mktemp("whatif-results")
    twelves = {f"cards.{suit}_12.copies": 0 for suit in ("axes", "blades", "bows", "staves")}
    spec = whatif_spec(load_spec(DIVVY_BASELINE), "no_twelves", twelves, 400, [2], ["heuristic", "random"],
                       source="test")
    write_experiment(spec, root)
    plain = load_spec(DIVVY_BASELINE)
    from dataclasses import replace

    write_experiment(replace(plain, name="plain", games=20, shard_size=20, variants=plain.variants[:1]), root)
    return root


def whatif_page(root: Path, experiment: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("CARDLAB_RESULTS", str(root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["experiment"] = experiment
    at.switch_page("pages/whatif.py")
    at.run()
    assert not at.exception, at.exception
    return at


def test_every_metric_is_the_reports_variant_delta_with_its_interval_and_q_value(
        whatif_results: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = whatif_page(whatif_results, "no_twelves", monkeypatch)
    deltas = build_report(whatif_results / "no_twelves").variant_deltas.filter(pl.col("variant") == "whatif")
    rates, means = last_deltas(at)
    assert rates is not None and means is not None
    expected = {delta_words(row): row for row in deltas.iter_rows(named=True)}
    assert rates.height + means.height == deltas.height > 0
    for table, scale in ((rates, 100), (means, 1)):  # rates' differences in points, means' in their unit
        for row in table.iter_rows(named=True):
            want = expected[row["what"]]
            assert (row["delta"], row["delta_low"], row["delta_high"], row["q_value"]) == pytest.approx(
                (scale * want["delta"], scale * want["delta_low"], scale * want["delta_high"], want["q_value"]),
                nan_ok=True)
    assert {expected[what]["metric"] for what in means["what"]} == {"turns", "decisions"}
    # Win rates first (seats, factions, agents), then the game, then cards; largest change first.
    families = [expected[what]["family"] for what in rates["what"]]
    assert families == sorted(families, key=["seat", "faction", "agent", "game", "card"].index)
    cards = rates.filter(pl.Series([family == "card" for family in families]))["delta"]
    sizes = cards.abs().drop_nulls().to_list()
    assert sizes == sorted(sizes, reverse=True)
    missing = int(cards.is_null().sum())
    assert missing == 0 or cards.tail(missing).is_null().all()  # a card without a difference: last


def test_the_answer_lists_the_significant_changes_in_words(whatif_results: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    at = whatif_page(whatif_results, "no_twelves", monkeypatch)
    report = build_report(whatif_results / "no_twelves")
    rows = report.variant_deltas.filter(pl.col("variant") == "whatif")
    findings = delta_findings(rows, report.labels)
    assert findings, "removing every 12 should move something significantly in 400 paired games"
    answer = next(text for text in (markdown.value for markdown in at.markdown) if text.startswith("- "))
    assert answer == "\n".join(f"- {headline(finding, report)}" for finding in findings)
    assert any("cards.axes_12.copies = 0" in markdown.value for markdown in at.markdown)
    charts = {chart_title(chart): chart for chart in at.get("vega_lite_chart")}
    cards = charts["Cards (GIH win rate): what-if − baseline, 2 players"]
    agents = charts["Agents (win rate): what-if − baseline, 2 players"]  # Divvy has no factions
    assert sorted(chart_data(agents)["label"].drop_nulls().unique().to_list()) == [
        "agent heuristic win rate", "agent random win rate"]
    moved = rows.filter((pl.col("family") == "card") & (pl.col("metric") == "gih_win_rate")
                        & (pl.col("n_players") == 2))
    top = moved.sort(pl.col("delta").abs(), descending=True, nulls_last=True).head(10)
    drawn = chart_data(cards)["label"].drop_nulls().unique().to_list()
    assert sorted(drawn) == sorted(delta_words(row) for row in top.iter_rows(named=True))  # cards by name


def test_an_experiment_that_is_not_a_whatif_gets_a_pointer(whatif_results: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    at = whatif_page(whatif_results, "plain", monkeypatch)
    assert [info.value for info in at.info] == [
        "`plain` is not a what-if (it has no variant `whatif`). Launch one from the New run page, or open the "
        "Variants page for this experiment's variants."]
