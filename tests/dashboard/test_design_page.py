"""The Game design page, run headless with Streamlit's AppTest on real experiments: a Divvy
run with replayed deals (the heuristic agent against random play) and a cooperative Party
Wanted run (no standings, no replays)."""

from __future__ import annotations

import json

import polars as pl
import pytest

from analytics.report import build_report
from experiments.spec import parse_spec
from tests.conftest import write_experiment
from tests.dashboard.conftest import Results, tiny_spec
from tests.dashboard.test_pages import (
    as_shown,
    assert_every_column_is_named_for_humans,
    chart_data,
    open_page,
    same,
    shown,
)

REPLAYED = {"name": "divvy_replayed", "game": "divvy", "games": 40, "shard_size": 40,
            "agents": ["heuristic", "random"], "rotate_seats": True, "deal_replays": 4}


@pytest.fixture(scope="module")
def design_results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    root = tmp_path_factory.mktemp("design-results")
    write_experiment(parse_spec(REPLAYED, "divvy_replayed.toml"), root)
    write_experiment(tiny_spec("party_tiny"), root)
    return Results(root)


def test_the_design_page_shows_the_margins_the_lead_the_deals_share_and_skill_depth(
        design_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(design_results, "divvy_replayed", "design", monkeypatch)
    report = build_report(design_results.folder("divvy_replayed"))
    chart = at.get("vega_lite_chart")[0]
    assert "Margin of victory, baseline, 2 players" in chart.proto.spec
    histogram = chart_data(chart)
    assert int(histogram["games"].sum()) == report.decisiveness["margin_games"][0]
    assert json.loads(chart.proto.spec)["encoding"]["x"]["axis"]["format"] == "d"
    for index, name in enumerate(("decisiveness", "end_reason_stats", "lead_stats", "seed_influence", "skill_depth")):
        expected = report.metrics[name].drop("experiment")
        same(shown(at, index), as_shown(expected, points=("edge",)))
    assert shown(at, 3)["deals"].to_list() == [10]
    assert not [info for info in at.info if "deal_replays" in info.value]
    assert_every_column_is_named_for_humans(at)


def test_a_cooperative_run_without_replays_says_what_it_cannot_show_and_how_to_measure_the_deal(
        design_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(design_results, "party_tiny", "design", monkeypatch)
    infos = " ".join(info.value for info in at.info)
    assert "keeps no standings" in infos
    assert "deal_replays = K" in infos
    assert "No game of this variant seats the random agent" in infos
    assert not at.get("vega_lite_chart")
    report = build_report(design_results.folder("party_tiny"))
    n_players = report.decisiveness["n_players"].min()
    chosen = (pl.col("variant") == "baseline") & (pl.col("n_players") == n_players)
    same(shown(at, 0), report.decisiveness.filter(chosen).drop("experiment"))
    assert shown(at, 0)["margin_games"].to_list() == [0]
