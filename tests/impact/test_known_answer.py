"""Card impact recovers known answers: the synthetic ``token_duel`` played for real on local Ray.

In ``token_duel`` (``tests.impact.token_duel``) a card's impact is exact: in place,
its bonus (+10 points for ``strong``, 0 for ``blank``, -5 for ``weak``); with one
copy fewer, its bonus minus the other cards' mean bonus. The run plays every card's
two arms on the baseline's seeds; the tests read ``card_impact`` as a user would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analytics.catalog import open_catalog
from tests.impact.conftest import GAMES
from tests.impact.token_duel import expected_impact


def impacts(folder: Path) -> pl.DataFrame:
    con = open_catalog(folder, cached=True)
    try:
        return con.sql("SELECT * FROM card_impact").pl()
    finally:
        con.close()


def row(frame: pl.DataFrame, card: str, arm: str) -> dict[str, Any]:
    rows = frame.filter((pl.col("card") == card) & (pl.col("arm") == arm)).to_dicts()
    assert len(rows) == 1, rows
    return rows[0]


@pytest.mark.parametrize(("card", "arm"), [("strong", "stand_in"), ("weak", "stand_in"), ("strong", "one_fewer"),
                                           ("weak", "one_fewer"), ("blank", "one_fewer")])
def test_the_interval_of_each_arm_covers_the_exact_impact(runs: dict[str, Any], card: str, arm: str) -> None:
    found = row(impacts(runs["full"][0]), card, arm)
    assert found["impact_low"] <= expected_impact(card, arm) <= found["impact_high"], found


def test_a_card_that_adds_ten_points_is_measured_within_two_points_and_called_significant(
        runs: dict[str, Any]) -> None:
    strong = row(impacts(runs["full"][0]), "strong", "stand_in")
    assert abs(strong["impact"] - 0.10) < 0.02
    assert strong["impact_low"] > 0 and strong["significant"]


def test_a_card_of_no_effect_swapped_in_place_changes_no_game_and_measures_zero(runs: dict[str, Any]) -> None:
    blank = row(impacts(runs["full"][0]), "blank", "stand_in")
    assert blank["impact"] == 0 and blank["impact_low"] <= 0 <= blank["impact_high"]
    assert blank["winner_changed"] == 0 and blank["q_value"] == 1 and not blank["significant"]


def test_the_holder_is_every_seat_dealt_the_card_a_quarter_of_the_games(runs: dict[str, Any]) -> None:
    # Two seats are dealt two of eight distinct cards: a given card is held in 2/8 of the games.
    strong = row(impacts(runs["full"][0]), "strong", "stand_in")
    assert strong["games"] == strong["holder_seat_games"]
    assert abs(strong["games"] / GAMES - 0.25) < 0.02


def test_the_in_place_swap_is_narrower_than_the_same_games_compared_unpaired(runs: dict[str, Any]) -> None:
    # Paired: the holder's result changes in ~10% of games (variance ~0.1); unpaired: two
    # coin flips' variances (~0.25 each) add up, about 2.2 times the width.
    strong = row(impacts(runs["full"][0]), "strong", "stand_in")
    assert strong["pairing_gain"] > 1.8
    assert strong["unpaired_high"] - strong["unpaired_low"] > 1.8 * (strong["impact_high"] - strong["impact_low"])


def test_q_values_adjust_over_every_card_and_arm(runs: dict[str, Any]) -> None:
    frame = impacts(runs["full"][0])
    assert frame.height == 16
    ordered = frame.sort("p_value")
    tests = frame.height
    # Benjamini-Hochberg: the largest p-value's q is itself; every q at least its p.
    assert ordered["q_value"][-1] == pytest.approx(min(1.0, ordered["p_value"][-1]))
    assert (frame["q_value"] >= frame["p_value"] - 1e-12).all()
    smallest = ordered.row(0, named=True)
    assert smallest["q_value"] <= smallest["p_value"] * tests + 1e-12


def test_an_arm_measured_precisely_enough_stops_early_and_keeps_the_first_games(runs: dict[str, Any]) -> None:
    folder, summary = runs["stopped"]
    full = impacts(runs["full"][0])
    stopped = impacts(folder)
    # The blank card's interval is [0, 0] from its first games: its arm stops after min_games.
    assert "impact.blank.stand_in" in summary.variants_stopped
    assert row(stopped, "blank", "stand_in")["games"] < row(full, "blank", "stand_in")["games"]
    con = open_catalog(folder, cached=True)
    try:
        played = con.sql("SELECT variant, count(*) AS games, max(game_index) + 1 AS span FROM games "
                         "GROUP BY variant").pl()
    finally:
        con.close()
    # Each variant keeps a prefix of its games (whole shards, in index order), the baseline all of them.
    assert (played["games"] == played["span"]).all()
    assert played.filter(pl.col("variant") == "baseline")["games"].item() == GAMES
    assert summary.games_played < GAMES * 17


def test_a_stopped_arm_plays_the_same_games_as_the_full_run(runs: dict[str, Any]) -> None:
    stopped = runs["stopped"][0]
    full = runs["full"][0]

    def winners(folder: Path, games: int) -> list[Any]:
        con = open_catalog(folder, metrics=False)
        try:
            return con.execute("SELECT game_index, seed, winner FROM games WHERE variant = 'impact.strong.one_fewer' "
                               "AND game_index < ? ORDER BY game_index", [games]).fetchall()
        finally:
            con.close()

    kept = len(winners(stopped, GAMES))
    assert kept > 0 and winners(stopped, kept) == winners(full, kept)
