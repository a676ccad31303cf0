"""The dashboard's Overview page, run headless with Streamlit's AppTest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal
from streamlit.testing.v1 import AppTest

from analytics.catalog import open_catalog
from analytics.metrics import card_table, win_rate_by_agent, win_rate_by_seat
from workers.storage import MANIFEST_FOLDER

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
TIMEOUT = 60  # seconds; the first run imports Polars, DuckDB and Altair


def run_app(results: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """Run the entry script (its default page is Overview) on the results folder ``results``."""
    monkeypatch.setenv("CARDLAB_RESULTS", str(results))
    return AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()


def shown(at: AppTest, index: int) -> pl.DataFrame:
    """The ``index``-th st.dataframe of the page, back as Polars."""
    return pl.from_pandas(at.dataframe[index].value)


def chart(at: AppTest, index: int) -> tuple[dict[str, Any], pl.DataFrame]:
    """The ``index``-th Altair chart's Vega-Lite spec and the data sent with it."""
    proto = at.get("vega_lite_chart")[index].proto
    data = pa.ipc.open_stream(proto.datasets[0].data.data).read_all()
    return json.loads(proto.spec), pl.from_arrow(data)  # type: ignore[return-value]


@pytest.fixture(scope="module")
def expected(small_experiment: SmallExperiment) -> dict[str, pl.DataFrame]:
    con = open_catalog(small_experiment.folder)
    try:
        return {"seat": win_rate_by_seat(con), "agent": win_rate_by_agent(con), "cards": card_table(con)}
    finally:
        con.close()


def test_the_page_lists_the_experiment_and_shows_its_win_rates_and_cards(
        small_experiment: SmallExperiment, expected: dict[str, pl.DataFrame], monkeypatch: pytest.MonkeyPatch) -> None:
    at = run_app(small_experiment.root, monkeypatch)
    assert not at.exception
    assert at.selectbox[0].label == "Experiment" and at.selectbox[0].options == ["divvy_small"]
    assert "600 games played of 600 planned" in at.caption[0].value
    # The tables under the charts hold exactly the analytics numbers.
    assert_frame_equal(shown(at, 0), expected["seat"], check_dtypes=False)
    assert_frame_equal(shown(at, 1), expected["agent"], check_dtypes=False)
    baseline_cards = expected["cards"].filter(pl.col("variant") == "baseline").drop("variant", "n_players")
    assert_frame_equal(shown(at, 2), baseline_cards, check_dtypes=False)


def test_the_win_rate_charts_have_titles_axis_labels_and_the_analytics_numbers(
        small_experiment: SmallExperiment, expected: dict[str, pl.DataFrame], monkeypatch: pytest.MonkeyPatch) -> None:
    at = run_app(small_experiment.root, monkeypatch)
    for index, key, title in ((0, "seat", "Win rate by seat"), (1, "agent", "Win rate by agent")):
        spec, data = chart(at, index)
        assert spec["title"] == title
        errorbar, point = spec["layer"]
        assert errorbar["mark"]["type"] == "errorbar" and point["mark"]["type"] == "point"
        assert errorbar["encoding"]["x"]["title"] == key.capitalize()
        assert errorbar["encoding"]["y"]["title"] == "Win rate (95% Wilson interval)"
        assert (errorbar["encoding"]["y"]["field"], errorbar["encoding"]["y2"]["field"]) == ("ci_low", "ci_high")
        columns = ["variant", "games", "wins", "win_rate", "ci_low", "ci_high"]
        assert_frame_equal(data.select(columns), expected[key].select(columns), check_dtypes=False)


def test_picking_another_variant_shows_its_cards(
        small_experiment: SmallExperiment, expected: dict[str, pl.DataFrame], monkeypatch: pytest.MonkeyPatch) -> None:
    at = run_app(small_experiment.root, monkeypatch)
    variant_box = next(box for box in at.selectbox if box.label == "Variant")
    assert variant_box.options == ["baseline", "four_rounds"]
    variant_box.select("four_rounds").run()
    assert not at.exception
    cards = expected["cards"].filter(pl.col("variant") == "four_rounds").drop("variant", "n_players")
    assert_frame_equal(shown(at, 2), cards, check_dtypes=False)


def test_picking_an_agent_shows_the_cards_of_its_seats_only(
        small_experiment: SmallExperiment, monkeypatch: pytest.MonkeyPatch) -> None:
    at = run_app(small_experiment.root, monkeypatch)
    agent_box = next(box for box in at.selectbox if box.label == "Agent")
    assert agent_box.options == ["all agents", "heuristic", "random"]
    agent_box.select("random").run()
    assert not at.exception
    con = open_catalog(small_experiment.folder)
    try:
        cards = card_table(con, agent="random")
    finally:
        con.close()
    expected = cards.filter(pl.col("variant") == "baseline").drop("variant", "n_players")
    assert_frame_equal(shown(at, 2), expected, check_dtypes=False)


@pytest.mark.parametrize("folder", ["empty", "missing"])
def test_without_experiments_the_page_says_which_command_to_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str) -> None:
    results = tmp_path / folder
    if folder == "empty":
        results.mkdir()
    at = run_app(results, monkeypatch)
    assert not at.exception
    assert len(at.info) == 1
    assert "cardlab run experiments/divvy_baseline.toml" in at.info[0].value
    assert str(results) in at.info[0].value
    assert not at.selectbox and not at.dataframe


def test_an_experiment_without_finished_shards_shows_a_warning_not_a_traceback(
        small_experiment: SmallExperiment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "results" / "divvy_small"
    shutil.copytree(small_experiment.folder, copy)
    shutil.rmtree(copy / MANIFEST_FOLDER)
    at = run_app(copy.parent, monkeypatch)
    assert not at.exception
    assert "no finished shards yet" in at.warning[0].value


def test_the_results_folder_defaults_to_results_in_the_current_directory(
        small_experiment: SmallExperiment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(small_experiment.folder, tmp_path / "results" / "divvy_small")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDLAB_RESULTS", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    assert not at.exception
    assert at.selectbox[0].options == ["divvy_small"]


def test_a_newly_finished_shard_shows_up_on_the_next_rerun(
        small_experiment: SmallExperiment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "results" / "divvy_small"
    shutil.copytree(small_experiment.folder, copy)
    marker = copy / MANIFEST_FOLDER / "four_rounds-2p-0000000200.json"
    saved = marker.read_text()
    marker.unlink()  # as if the last shard were still being played
    at = run_app(copy.parent, monkeypatch)
    assert "500 games played of 600 planned" in at.caption[0].value
    marker.write_text(saved)  # the shard finishes
    at.run()
    assert not at.exception
    assert "600 games played of 600 planned" in at.caption[0].value
