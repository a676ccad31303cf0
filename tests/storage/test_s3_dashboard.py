"""The dashboard with ``CARDLAB_RESULTS=s3://...``: it lists the experiments in
the bucket and shows the numbers the analytics layer computes from there."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from streamlit.testing.v1 import AppTest

from analytics import explore
from analytics.catalog import open_catalog
from dataset.location import results_path
from tests.conftest import small_spec, write_experiment
from tests.storage.conftest import S3Server

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
TIMEOUT = 60


@pytest.fixture(scope="module")
def bucket_results(s3: S3Server, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The session's small Divvy experiment written both to the bucket and to a local folder."""
    remote = s3.uri("dashboard")
    local = tmp_path_factory.mktemp("dashboard-local")
    spec = small_spec()
    write_experiment(spec, results_path(remote))  # type: ignore[arg-type]
    write_experiment(spec, local)
    return remote, local


def _open(page: str, remote: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("CARDLAB_RESULTS", remote)
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["experiment"] = "divvy_small"
    at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_experiments_page_lists_the_experiment_in_the_bucket(
        bucket_results: tuple[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    remote, _ = bucket_results
    at = _open("experiments", remote, monkeypatch)
    table = pl.from_pandas(at.dataframe[0].value)
    assert table["experiment"].to_list() == ["divvy_small"]
    assert table["games_done"].to_list() == [600] and table["status"].to_list() == ["finished"]
    assert table["size_bytes"][0] > 0


def test_the_win_rates_page_on_s3_shows_the_win_rates_of_the_local_copy(
        bucket_results: tuple[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    remote, local = bucket_results
    at = _open("win_rates", remote, monkeypatch)
    con = open_catalog(local / "divvy_small")
    try:
        # The page opens on the most-played agent: a tie here, so the spec's first.
        seats = explore.agent_seat_stats(con, str(small_spec().agents[0]))
    finally:
        con.close()
    expected = seats.filter(pl.col("n_players") == seats["n_players"].min())
    assert_frame_equal(pl.from_pandas(at.dataframe[0].value), expected, check_dtypes=False)
    assert any(f"{remote}/divvy_small" in caption.value for caption in at.caption)
