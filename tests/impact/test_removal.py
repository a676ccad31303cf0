"""One copy fewer: what removing a card changes for every seat and game, on seeds of its own,
compared unpaired (``card_removal``), against the exact answers of ``token_duel``.

With a card removed the deck has eight cards instead of nine, so the banner is dealt in 2/8
of the games instead of 2/9 (or never, when it is the card removed): seat 0's win rate, the
games' length and the share ending by ``banner`` move by amounts ``expected_removal`` gives.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analytics.catalog import open_catalog
from tests.impact.conftest import GAMES
from tests.impact.token_duel import BANNER_ENDS, BONUSES, expected_removal


@functools.cache  # the played runs are read-only: each folder's view is read once for the module's tests
def removal(folder: Path) -> pl.DataFrame:
    con = open_catalog(folder, cached=True)
    try:
        return con.sql("SELECT * FROM card_removal").pl()
    finally:
        con.close()


def change(frame: pl.DataFrame, card: str, family: str, key: str, metric: str) -> dict[str, Any]:
    rows = frame.filter((pl.col("card") == card) & (pl.col("family") == family) & (pl.col("key") == key)
                        & (pl.col("metric") == metric)).to_dicts()
    assert len(rows) == 1, rows
    return rows[0]


WHAT = {"seat_0_win_rate": ("seat", "0", "win_rate"), "turns": ("game", "", "turns"),
        "banner_share": ("end_reason", BANNER_ENDS, "share")}


@pytest.mark.parametrize("measure", list(WHAT))
@pytest.mark.parametrize("card", ["banner", "strong", "blank"])
def test_the_interval_of_each_change_covers_the_exact_change_of_one_copy_fewer(
        runs: dict[str, Any], card: str, measure: str) -> None:
    found = change(removal(runs["full"][0]), card, *WHAT[measure])
    exact = expected_removal(card)[measure] - expected_removal(None)[measure]
    assert found["delta_low"] <= exact <= found["delta_high"], (exact, found)


def test_removing_the_card_that_helps_seat_0_is_a_significant_loss_for_seat_0(runs: dict[str, Any]) -> None:
    found = change(removal(runs["full"][0]), "banner", "seat", "0", "win_rate")
    assert found["significant"] and found["delta_high"] < 0
    assert found["baseline_value"] == pytest.approx(expected_removal(None)["seat_0_win_rate"], abs=0.02)


def test_one_copy_fewer_plays_seeds_of_its_own(runs: dict[str, Any]) -> None:
    con = open_catalog(runs["full"][0], metrics=False)
    try:
        shared = con.execute("SELECT count(*) FROM games AS a JOIN games AS b USING (game_index) "
                             "WHERE a.variant = 'impact.strong.one_fewer' AND b.variant = 'baseline' "
                             "AND a.seed = b.seed").fetchone()
        paired = con.execute("SELECT count(*) FROM games AS a JOIN games AS b USING (game_index, seed) "
                             "WHERE a.variant = 'impact.strong.stand_in' AND b.variant = 'baseline'").fetchone()
    finally:
        con.close()
    assert shared == (0,) and paired == (GAMES,)


def test_its_changes_are_compared_unpaired_and_never_hold_the_correlational_card_rates(
        runs: dict[str, Any]) -> None:
    frame = removal(runs["full"][0])
    # Independent games: no seed-matched pair, so a two-proportion z test or Welch's, never McNemar's.
    assert set(frame["test"].unique().to_list()) == {"z", "welch"}
    assert set(frame["family"].unique().to_list()) == {"seat", "game", "end_reason"}
    assert sorted(frame["card"].unique().to_list()) == sorted(BONUSES)


def test_q_values_adjust_over_every_cards_arm_within_a_family(runs: dict[str, Any]) -> None:
    seats = removal(runs["full"][0]).filter(pl.col("family") == "seat").sort("p_value")
    assert seats.height == 2 * len(BONUSES)
    assert seats["q_value"][-1] == pytest.approx(min(1.0, seats["p_value"][-1]))
    assert (seats["q_value"] >= seats["p_value"] - 1e-12).all()


def test_a_one_fewer_arm_stopped_early_plays_the_same_games_as_the_full_run(runs: dict[str, Any]) -> None:
    folder, summary = runs["stopped"]
    # Its seat win rates' changes are narrow enough after the first shard (min_games 400, 6 points).
    assert "impact.strong.one_fewer" in summary.variants_stopped

    def winners(folder: Path, games: int) -> list[Any]:
        con = open_catalog(folder, metrics=False)
        try:
            return con.execute("SELECT game_index, seed, winner FROM games WHERE variant = 'impact.strong.one_fewer' "
                               "AND game_index < ? ORDER BY game_index", [games]).fetchall()
        finally:
            con.close()

    kept = len(winners(folder, GAMES))
    assert 0 < kept < GAMES and winners(folder, kept) == winners(runs["full"][0], kept)
