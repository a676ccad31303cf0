"""The SQL page of a live ``cardlab dashboard`` refuses every route of
``tests.security.routes`` in one line, spoken to as a browser does
(``tests.live_dashboard``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live_dashboard import BrowserSession, LiveDashboard, of_kind, running_dashboard
from tests.security.conftest import Confined, fingerprint
from tests.security.routes import queries

ERROR = 1  # streamlit.proto.Alert_pb2.Alert.Format.ERROR


@pytest.fixture(scope="module")
def dashboard(confined: Confined) -> Iterator[LiveDashboard]:
    """``cardlab dashboard`` on the two experiments."""
    with running_dashboard(confined.root) as live:
        yield live


def _widget(elements: list[object], kind: str, label: str) -> str:
    return str(next(widget.id for widget in of_kind(elements, kind) if widget.label.startswith(label)))


def test_the_live_sql_page_refuses_every_route_with_one_clear_line(dashboard: LiveDashboard,
                                                                   confined: Confined) -> None:
    session = BrowserSession(dashboard, "experiment=chosen")
    try:
        first = session.run("sql")
        assert not of_kind(first, "exception")
        assert [table for table in of_kind(first, "dataframe") if '"description"' not in table.columns], \
            "the example query shows a table"
        box = _widget(first, "text_area", "Query")
        before = fingerprint(confined.root)
        for route, query in queries(str(confined.own_file), str(confined.other), str(confined.target)):
            elements = session.run("sql", {box: query})
            alerts = [alert for alert in of_kind(elements, "alert") if alert.format == ERROR]
            assert not of_kind(elements, "exception"), route.name
            assert len(alerts) == 1 and route.refusal in alerts[0].body and "\n" not in alerts[0].body, \
                f"{route.name}: {[alert.body for alert in alerts]}"
            # The views-and-columns browser keeps its tables (their descriptions drawn wide); no query result.
            assert not [table for table in of_kind(elements, "dataframe") if '"description"' not in table.columns], \
                f"{route.name}: a table was shown"
        assert list(confined.scratch.iterdir()) == []
        assert fingerprint(confined.root) == before
        toggle = _widget(first, "checkbox", "Every experiment")
        mine = session.run("sql", {box: "SELECT DISTINCT experiment FROM games ORDER BY 1"})
        everyone = session.run("sql", {box: "SELECT DISTINCT experiment FROM games ORDER BY 1", toggle: True})
        results = [[table for table in of_kind(elements, "dataframe") if '"description"' not in table.columns]
                   for elements in (mine, everyone)]
        assert [len(tables) for tables in results] == [1, 1]
        captions = [element.markdown.body for element in everyone if element.WhichOneof("type") == "markdown"]
        assert any("every experiment in" in caption for caption in captions)
        assert any(caption == "2 rows" for caption in captions)
        assert any(element.markdown.body == "1 row" for element in mine if element.WhichOneof("type") == "markdown")
    finally:
        session.close()
