"""The Card impact page, run headless (Streamlit's AppTest) on the token duel impact run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics.catalog import open_catalog

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def open_impact_page(folder: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("CARDLAB_RESULTS", str(folder.parent))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.session_state["experiment"] = folder.name
    at.switch_page("pages/impact.py")
    at.run()
    assert not at.exception, at.exception
    return at


def view(folder: Path, name: str) -> pl.DataFrame:
    con = open_catalog(folder, cached=True)
    try:
        return con.sql(f"SELECT * FROM {name}").pl()
    finally:
        con.close()


def test_the_page_lists_every_card_with_its_impact(
        runs: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = runs["full"][0]
    at = open_impact_page(folder, monkeypatch)
    shown = pl.from_pandas(at.dataframe[0].value)
    expected = view(folder, "card_impact").sort("impact", descending=True)
    assert shown["card"].to_list() == expected["card"].to_list()
    # The table shows differences of rates in points.
    assert shown["impact"].to_list() == pytest.approx((expected["impact"] * 100).to_list())


def test_the_page_sets_the_correlational_iwd_beside_the_impact_with_a_reason_per_card(
        runs: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = runs["full"][0]
    at = open_impact_page(folder, monkeypatch)
    versus = pl.from_pandas(at.dataframe[1].value)
    expected = view(folder, "card_impact_vs_gih")
    assert sorted(versus["card"].to_list()) == sorted(expected["card"].to_list())
    assert versus.height == 9 and versus["why"].str.len_chars().min() > 0  # type: ignore[operator]
