"""The confined SQL on ``s3://`` results: every route of ``tests.security.routes``
refused in one line, through the connection, the SQL page (AppTest) and a live
``cardlab dashboard``; nothing written to the bucket or the disk."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analytics.sql import QueryError, open_confined_catalog, read_only_query
from dataset.integrity import list_files, sha256_of
from dataset.location import ObjectPath, results_path
from dataset.storage import table_path
from experiments.spec import parse_spec
from tests.conftest import write_experiment
from tests.live_dashboard import BrowserSession, of_kind, running_dashboard
from tests.security.conftest import tiny_divvy
from tests.security.routes import queries
from tests.storage.conftest import S3Server

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


@dataclass(frozen=True)
class Bucket:
    """The two experiments under one bucket prefix, and a local scratch folder."""

    root: str
    chosen: ObjectPath
    other: ObjectPath
    scratch: Path

    def attempts(self) -> list[tuple[str, str, str]]:
        """Every route's (name, query, refusal) against these results."""
        own = table_path(self.chosen, "games", "baseline", "baseline-2p-0000000000")
        return [(route.name, query, route.refusal)
                for route, query in queries(str(own), str(self.other), str(self.scratch / "leak.csv"))]

    def fingerprint(self) -> dict[str, str]:
        """SHA-256 of every object under the prefix (the verification cache left out)."""
        return {key: sha256_of(stored.path) for key, stored in list_files(results_path(self.root)).items()
                if "_analytics" not in key}


@pytest.fixture(scope="module")
def bucket(s3: S3Server, tmp_path_factory: pytest.TempPathFactory) -> Bucket:
    root = s3.uri("confined")
    chosen = write_experiment(parse_spec(tiny_divvy("chosen", 40), "chosen.toml"), results_path(root))  # type: ignore[arg-type]
    other = write_experiment(parse_spec(tiny_divvy("other", 60), "other.toml"), results_path(root))  # type: ignore[arg-type]
    assert isinstance(chosen, ObjectPath) and isinstance(other, ObjectPath)
    return Bucket(root, chosen, other, tmp_path_factory.mktemp("s3-scratch"))


def _nothing_written(bucket: Bucket, before: dict[str, str]) -> None:
    assert list(bucket.scratch.iterdir()) == []
    assert bucket.fingerprint() == before


def test_every_route_out_of_the_confined_connection_on_s3_is_refused(bucket: Bucket) -> None:
    before = bucket.fingerprint()
    con = open_confined_catalog(bucket.chosen)
    try:
        for name, query, refusal in bucket.attempts():
            with pytest.raises(QueryError) as raised:
                read_only_query(con, query)
            assert refusal in str(raised.value) and "\n" not in str(raised.value), f"{name}: {raised.value}"
        frame, _ = read_only_query(con, "SELECT experiment, count(*) AS games FROM games GROUP BY ALL")
        assert frame.rows() == [("chosen", 40)]
    finally:
        con.close()
    _nothing_written(bucket, before)


def test_the_sql_page_on_s3_refuses_every_route_with_one_clear_line(
        bucket: Bucket, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", bucket.root)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["experiment"] = "chosen"
    at.switch_page("pages/sql.py")
    at.run()
    assert not at.exception, at.exception
    before = bucket.fingerprint()
    for name, query, refusal in bucket.attempts():
        at.text_area[0].input(query).run()
        errors = [error.value for error in at.error]
        assert not at.exception and len(errors) == 1 and refusal in errors[0], f"{name}: {errors}"
    _nothing_written(bucket, before)
    at.text_area[0].input("SELECT count(*) AS games FROM games").run()
    assert at.dataframe[0].value["games"].tolist() == [40]


@pytest.fixture(scope="module")
def live(bucket: Bucket) -> Iterator[BrowserSession]:
    with running_dashboard(bucket.root) as dashboard:  # inherits the AWS_* variables of the s3 fixture
        session = BrowserSession(dashboard, "experiment=chosen")
        try:
            yield session
        finally:
            session.close()


def test_the_live_sql_page_on_s3_refuses_every_route(bucket: Bucket, live: BrowserSession) -> None:
    first = live.run("sql")
    box = next(widget.id for widget in of_kind(first, "text_area"))
    before = bucket.fingerprint()
    for name, query, refusal in bucket.attempts():
        alerts = [alert.body for alert in of_kind(live.run("sql", {box: query}), "alert")]
        assert len(alerts) == 1 and refusal in alerts[0], f"{name}: {alerts}"
    _nothing_written(bucket, before)
