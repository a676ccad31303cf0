"""The Findings page, the dashboard's home (AppTest): the report's findings in the report's
order, each in a designer's words with a link to the page and filters of its evidence, the
run's health beside them; and the page such a link opens, which says which finding it shows."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from analytics.findings import KINDS, Finding
from dashboard.evidence import KIND_TITLES, evidence, headline, how_sure
from tests.dashboard.conftest import Results
from tests.dashboard.test_pages import APP, TIMEOUT, open_link, open_page, report_of


def links(at: AppTest) -> list[tuple[str, dict[str, str]]]:
    """(page, address filters) of every link of the page's main area, in page order."""
    found = []
    for element in at.main.get("page_link"):
        proto = element.proto
        found.append((str(proto.page), {key: values[0] for key, values in parse_qs(proto.query_string).items()}))
    return found


def test_a_new_visit_opens_on_the_findings_of_the_experiment(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", str(results.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["experiment"] = "ring_tiny"
    at.run()
    assert not at.exception, at.exception
    assert [title.value for title in at.title] == ["Findings"]


def test_every_finding_is_said_in_the_reports_order_with_a_link_to_its_evidence(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "ring_tiny", "home", monkeypatch)
    report = report_of(results, "ring_tiny")
    assert report.findings, "the tiny Ring of Chaos run has a faction and cards that stand out"
    texts = [markdown.value for markdown in at.markdown]
    said = [text for text in texts if text.startswith("**") and text[2:3].isdigit()]
    expected = [f"**{rank}. {headline(finding, report)}**" for rank, finding in enumerate(report.findings, 1)]
    assert [text.split(" · ")[0] for text in said] == expected[:len(said)] and said
    captions = [caption.value for caption in at.caption]
    assert how_sure(report.findings[0], report) in captions
    shown = links(at)
    for index, (page, params) in enumerate(shown):
        wanted = evidence(index, report.findings[index], report)
        assert page == wanted.page.removeprefix("pages/").removesuffix(".py") and params == wanted.params
    assert shown[0][1]["finding"] == "0" and {"variant", "players"} <= set(shown[0][1])


def test_the_runs_health_stands_beside_the_findings(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "ring_tiny", "home", monkeypatch)
    report = report_of(results, "ring_tiny")
    progress = at.get("progress")[0].proto
    assert progress.text == f"{report.games_played:,} of {report.games_planned:,} games played"
    assert progress.value == 100
    assert any(text.startswith("**Run**") and "finished" in text for text in (m.value for m in at.markdown))
    assert "Every finished shard's files match their checksums." in [caption.value for caption in at.caption]


def test_a_findings_link_opens_its_evidence_on_its_variant_player_count_and_card(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    report = report_of(results, "ring_tiny")
    index, finding = next((index, finding) for index, finding in enumerate(report.findings) if finding.kind == "card")
    link = evidence(index, finding, report)
    at = open_link(results, link.page.removeprefix("pages/").removesuffix(".py"),
                   {"experiment": "ring_tiny", **link.params}, monkeypatch)
    boxes = {box.label: box.value for box in at.selectbox}
    assert (boxes["Card"], boxes["Variant"], str(boxes["Players"])) == (
        finding.subject, finding.variant, str(finding.n_players))
    [said] = [info.value for info in at.info if "From the findings" in info.value]
    assert headline(finding, report) in said and "Its row is selected below." in said
    assert at.query_params["finding"] == str(index)
    # Another player count is no longer that finding's view: the box goes, and the address forgets it.
    other = next(count for count in report.spec["player_counts"] if count != finding.n_players)
    next(box for box in at.selectbox if box.label == "Players").select(other).run()
    assert not any("From the findings" in info.value for info in at.info)
    assert "finding" not in at.query_params


SECTION_PAGES = {"impact": "pages/impact.py", "design": "pages/design.py", "seats": "pages/win_rates.py"}
"""The page that shows a report section's numbers, for the sections whose findings link there."""


def test_every_kind_of_finding_has_a_heading_and_links_to_the_page_of_its_section(results: Results) -> None:
    report = report_of(results, "ring_tiny")
    assert set(KINDS) <= set(KIND_TITLES), set(KINDS) - set(KIND_TITLES)
    for kind, section in KINDS.items():
        if section not in SECTION_PAGES:
            continue
        finding = Finding(kind, "baseline", 3, "heuristic", "seat 0", 0.1, 0.06, 0.14, 100, "game", "")
        link = evidence(0, finding, report)
        assert link.page == SECTION_PAGES[section], kind
        assert {"variant": "baseline", "players": "3"}.items() <= link.params.items()
