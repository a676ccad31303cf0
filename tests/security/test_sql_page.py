"""The dashboard's SQL page (Streamlit's AppTest) refuses every route of
``tests.security.routes`` with one clear line, and reads every experiment only
when its toggle says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.security.conftest import Confined, attempts, fingerprint, nothing_written

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def _sql_page(confined: Confined, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("CARDLAB_RESULTS", str(confined.root))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["experiment"] = "chosen"
    at.switch_page("pages/sql.py")
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_sql_page_refuses_every_route_with_one_clear_line(
        confined: Confined, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _sql_page(confined, monkeypatch)
    schema_tables = len(at.dataframe) - 1  # the example query's table, then the views-and-columns browser's
    before = fingerprint(confined.root)
    for name, query, refusal in attempts(confined):
        at.text_area[0].input(query).run()
        assert not at.exception, f"{name}: {at.exception}"
        errors = [error.value for error in at.error]
        assert len(errors) == 1 and refusal in errors[0] and "\n" not in errors[0], f"{name}: {errors}"
        assert len(at.dataframe) == schema_tables, f"{name}: a table was shown"
    nothing_written(confined, before)
    at.text_area[0].input("SELECT DISTINCT experiment FROM games").run()
    assert not at.error
    assert at.dataframe[0].value["experiment"].tolist() == ["chosen"]


def test_the_sql_page_reads_every_experiment_only_when_its_toggle_says_so(
        confined: Confined, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _sql_page(confined, monkeypatch)
    query = "SELECT experiment, count(*) AS games FROM games GROUP BY ALL ORDER BY ALL"
    at.text_area[0].input(query).run()
    assert at.dataframe[0].value.values.tolist() == [["chosen", 40]]
    at.toggle[0].set_value(True).run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value.values.tolist() == [["chosen", 40], ["other", 60]]
    assert "every experiment in" in at.caption[0].value
    at.text_area[0].input("SELECT * FROM read_text('/proc/self/environ')").run()
    assert len(at.error) == 1 and at.error[0].value.startswith("refused: Permission Error")
