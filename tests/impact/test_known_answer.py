"""Card impact recovers known answers: the synthetic ``token_duel`` played for real on local Ray.

In ``token_duel`` (``tests.impact.token_duel``) a card's impact against its stand-in in
place is exact: its bonus (+10 points for ``strong``, 0 for ``blank``, -5 for ``weak``),
and for the ``banner`` (no bonus, +20 points to seat 0 whoever holds it) +20 at seat 0,
-20 at seat 1 and 0 over its holders. The run plays every card's two arms; the tests
read ``card_impact`` as a user would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analytics.catalog import open_catalog
from tests.impact.conftest import GAMES
from tests.impact.token_duel import BONUSES, expected_impact


def view(folder: Path, name: str) -> pl.DataFrame:
    con = open_catalog(folder, cached=True)
    try:
        return con.sql(f"SELECT * FROM {name}").pl()
    finally:
        con.close()


def row(frame: pl.DataFrame, card: str, **keys: Any) -> dict[str, Any]:
    condition = pl.col("card") == card
    for name, value in keys.items():
        condition &= pl.col(name) == value
    rows = frame.filter(condition).to_dicts()
    assert len(rows) == 1, rows
    return rows[0]


@pytest.mark.parametrize("card", ["strong", "weak", "banner"])
def test_the_interval_of_each_card_covers_its_exact_impact_on_its_holder(runs: dict[str, Any], card: str) -> None:
    found = row(view(runs["full"][0], "card_impact"), card)
    assert found["impact_low"] <= expected_impact(card) <= found["impact_high"], found


@pytest.mark.parametrize("seat", [0, 1])
def test_a_card_that_helps_one_seat_whoever_holds_it_is_split_by_holder_seat(runs: dict[str, Any],
                                                                              seat: int) -> None:
    # The banner: +20 points for a holder at seat 0, -20 at seat 1, 0 over both.
    found = row(view(runs["full"][0], "card_impact_seats"), "banner", seat=seat)
    assert found["impact_low"] <= expected_impact("banner", seat) <= found["impact_high"], found
    assert found["significant"]


def test_a_card_that_adds_ten_points_is_measured_within_two_points_and_called_significant(
        runs: dict[str, Any]) -> None:
    strong = row(view(runs["full"][0], "card_impact"), "strong")
    assert abs(strong["impact"] - 0.10) < 0.02
    assert strong["impact_low"] > 0 and strong["significant"]


def test_a_card_of_no_effect_swapped_in_place_changes_no_game_and_measures_zero(runs: dict[str, Any]) -> None:
    blank = row(view(runs["full"][0], "card_impact"), "blank")
    assert blank["impact"] == 0 and blank["impact_low"] <= 0 <= blank["impact_high"]
    assert blank["winner_changed"] == 0 and blank["q_value"] == 1 and not blank["significant"]


def test_the_holder_is_every_seat_dealt_the_card_two_ninths_of_the_games(runs: dict[str, Any]) -> None:
    # Two seats are dealt two of nine distinct cards: a given card is held in 2/9 of the games.
    strong = row(view(runs["full"][0], "card_impact"), "strong")
    assert strong["games"] == strong["holder_seat_games"]
    assert abs(strong["games"] / GAMES - 2 / 9) < 0.02


def test_the_one_copy_fewer_arm_has_no_holder_level_impact(runs: dict[str, Any]) -> None:
    # With a shorter deck no seat of the arm's game is "the seat that held the card".
    impact = view(runs["full"][0], "card_impact")
    assert sorted(impact["variant"].to_list()) == sorted(f"impact.{card}.stand_in" for card in BONUSES)


def test_the_in_place_swap_is_narrower_than_the_same_games_compared_unpaired(runs: dict[str, Any]) -> None:
    # Paired: the holder's result changes in ~10% of games (variance ~0.1); unpaired: two
    # coin flips' variances (~0.25 each) add up, about 2.2 times the width.
    strong = row(view(runs["full"][0], "card_impact"), "strong")
    assert strong["pairing_gain"] > 1.8
    assert strong["unpaired_high"] - strong["unpaired_low"] > 1.8 * (strong["impact_high"] - strong["impact_low"])


def test_q_values_adjust_over_every_card(runs: dict[str, Any]) -> None:
    frame = view(runs["full"][0], "card_impact")
    assert frame.height == len(BONUSES)
    ordered = frame.sort("p_value")
    # Benjamini-Hochberg: the largest p-value's q is itself; every q at least its p.
    assert ordered["q_value"][-1] == pytest.approx(min(1.0, ordered["p_value"][-1]))
    assert (frame["q_value"] >= frame["p_value"] - 1e-12).all()
    smallest = ordered.row(0, named=True)
    assert smallest["q_value"] <= smallest["p_value"] * frame.height + 1e-12


def test_an_arm_measured_precisely_enough_stops_early_and_keeps_the_first_games(runs: dict[str, Any]) -> None:
    folder, summary = runs["stopped"]
    full = view(runs["full"][0], "card_impact")
    stopped = view(folder, "card_impact")
    # The blank card's interval is [0, 0] from its first games: its arm stops after min_games.
    assert "impact.blank.stand_in" in summary.variants_stopped
    assert row(stopped, "blank")["games"] < row(full, "blank")["games"]
    con = open_catalog(folder, cached=True)
    try:
        played = con.sql("SELECT variant, count(*) AS games, max(game_index) + 1 AS span FROM games "
                         "GROUP BY variant").pl()
    finally:
        con.close()
    # Each variant keeps a prefix of its games (whole shards, in index order), the baseline all of them.
    assert (played["games"] == played["span"]).all()
    assert played.filter(pl.col("variant") == "baseline")["games"].item() == GAMES
    assert summary.games_played < GAMES * (2 * len(BONUSES) + 1)
