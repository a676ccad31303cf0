"""The Skill page's ratings: the table, the chart and the adjacent pairs equal ``analytics.ratings``."""

from __future__ import annotations

import json

import duckdb
import polars as pl
import pytest

from analytics.folders import read_spec
from analytics.ratings import agent_ratings
from analytics.skill import agent_cost, ladder_order, variant_rules
from tests.dashboard.conftest import Results
from tests.dashboard.test_pages import computed, open_page, same, shown


def test_the_skill_page_shows_each_agents_rating_with_its_interval_and_the_adjacent_pairs(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "skill_tiny", "skill", monkeypatch)
    folder = results.folder("skill_tiny")
    rules = variant_rules(read_spec(folder))
    def ratings(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
        return agent_ratings(con, rules, ladder_order(agent_cost(con, folder)))[0]

    def gaps(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
        return agent_ratings(con, rules, ladder_order(agent_cost(con, folder)))[1]

    tables = {"ratings": computed(results, "skill_tiny", ratings), "gaps": computed(results, "skill_tiny", gaps)}
    shown_tables = [shown(at, index) for index in range(len(at.dataframe))]
    same(shown_tables[-2], tables["ratings"])
    same(shown_tables[-1], tables["gaps"])
    assert set(shown_tables[-2]["agent"]) == {"random", "heuristic", "ismcts(iterations=4)"}
    chart = at.get("vega_lite_chart")[-1].proto.spec
    assert "Bradley-Terry rating (Elo scale, random = 0) with 95% interval" in chart
    # Plain integer ticks: "~g" ticked "-50, 0, 50, 1e+2, 1.5e+2".
    axes = [layer["encoding"]["x"].get("axis") for layer in json.loads(chart)["layer"]
            if layer["encoding"].get("x", {}).get("field") == "rating_low"]
    assert axes and axes[0]["format"] == "d"
    assert any("Adjacent agents by rating" in caption.value for caption in at.caption)
