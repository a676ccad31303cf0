"""The agent-versus-agent matrix and how win rates move with skill, on data
whose answers are worked out here."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.metrics import agent_matchups, metric, movement_of_rates, skill_movement
from analytics.stats import wilson_interval
from tests.analytics.synthetic import competitive
from tests.analytics.test_metrics import write_handmade
from tests.conftest import SmallExperiment


@pytest.fixture
def handmade(tmp_path: Path) -> Path:
    write_handmade(tmp_path)
    return tmp_path


def test_the_agent_matrix_counts_each_agents_wins_against_each_opponent(handmade: Path) -> None:
    # baseline: A beats B in all three games; alt: one drawn game (no winner).
    connection = open_catalog(handmade)
    matrix = agent_matchups(connection)
    connection.close()
    rows = {(row["variant"], row["agent"], row["opponent"]): row for row in matrix.iter_rows(named=True)}
    assert set(rows) == {("baseline", "A", "B"), ("baseline", "B", "A"), ("alt", "A", "B"), ("alt", "B", "A")}
    assert (rows["baseline", "A", "B"]["seat_games"], rows["baseline", "A", "B"]["wins"]) == (3, 3)
    assert (rows["baseline", "B", "A"]["seat_games"], rows["baseline", "B", "A"]["wins"]) == (3, 0)
    assert rows["alt", "A", "B"]["wins"] == 0 and rows["alt", "B", "A"]["wins"] == 0
    low, high = wilson_interval(3, 3)
    assert rows["baseline", "A", "B"]["win_rate_low"] == pytest.approx(low, abs=1e-9)
    assert rows["baseline", "A", "B"]["win_rate_high"] == pytest.approx(high, abs=1e-9)


def _rates(rates: list[float], lows: list[float], highs: list[float]) -> pl.DataFrame:
    return pl.DataFrame({
        "kind": ["card"] * 4, "name": ["x", "y", "x", "y"], "variant": ["weak", "weak", "strong", "strong"],
        "n_players": [2] * 4, "win_rate": rates, "low": lows, "high": highs,
    })


def test_a_card_surely_above_the_mean_in_one_variant_and_surely_below_in_another_flips() -> None:
    # x is far above the rung's mean with weak agents and far below with strong ones; y the reverse.
    movement = movement_of_rates(_rates([0.8, 0.2, 0.3, 0.7], [0.7, 0.1, 0.2, 0.6], [0.9, 0.3, 0.4, 0.8]))
    by_key = {(row["name"], row["variant"]): row for row in movement.iter_rows(named=True)}
    assert by_key["x", "weak"]["variant_mean"] == pytest.approx(0.5)
    assert by_key["x", "weak"]["deviation"] == pytest.approx(0.3)
    assert (by_key["x", "weak"]["direction"], by_key["x", "strong"]["direction"]) == (1, -1)
    assert by_key["x", "weak"]["sign_flips"] and by_key["y", "strong"]["sign_flips"]


def test_a_card_whose_interval_covers_the_mean_does_not_flip() -> None:
    movement = movement_of_rates(_rates([0.55, 0.45, 0.45, 0.55], [0.4, 0.3, 0.3, 0.4], [0.7, 0.6, 0.6, 0.7]))
    assert not movement["sign_flips"].any()
    assert set(movement["direction"].to_list()) == {0}


def test_a_rung_where_nobody_wins_puts_nobody_above_its_mean_despite_float_noise() -> None:
    # Wilson lows of 0 wins as DuckDB computes them: 0.0 or 1.4e-17.
    movement = movement_of_rates(_rates([0.0, 0.0, 0.0, 0.0], [1.3878e-17, 0.0, 0.0, 0.0], [0.2, 0.2, 0.2, 0.2]))
    assert set(movement["direction"].to_list()) == {0}


def test_a_card_never_in_hand_on_a_rung_has_no_row_there_and_does_not_move_the_mean() -> None:
    rates = _rates([0.8, 0.2, 0.3, 0.7], [0.7, 0.1, 0.2, 0.6], [0.9, 0.3, 0.4, 0.8])
    never_in_hand = pl.when(pl.col("name") == "y").then(None).otherwise(pl.col("win_rate"))
    rates = rates.with_columns(never_in_hand.alias("win_rate"))
    movement = movement_of_rates(rates)
    assert movement["name"].to_list() == ["x", "x"]
    assert movement["deviation"].to_list() == [0.0, 0.0]  # x is its rungs' only card


def test_skill_movement_leaves_out_variants_that_seat_different_agents(handmade: Path) -> None:
    # Both hand-made variants seat agents A and B together: neither is a rung.
    connection = open_catalog(handmade)
    movement = skill_movement(connection)
    connection.close()
    assert movement.is_empty()
    assert "rung" in movement.columns


def test_skill_movement_reads_the_card_views_of_the_rungs_of_a_real_ladder(small_ladder: SmallExperiment) -> None:
    connection = open_catalog(small_ladder.folder)
    try:
        movement = skill_movement(connection)
        cards = metric(connection, "card_stats")
    finally:
        connection.close()
    # Rungs: baseline (random), sweep-000 (heuristic), sweep-001 (ismcts); sweep-002/003 are head to head.
    assert dict(movement.select("variant", "rung").unique().iter_rows()) == {
        "baseline": "random", "sweep-000": "heuristic", "sweep-001": "ismcts(iterations=4)"}
    assert set(movement["kind"]) == {"card"}  # Divvy has no factions
    rung_cards = cards.filter(pl.col("variant").is_in(["baseline", "sweep-000", "sweep-001"]))
    assert movement.height == rung_cards.height
    row = movement.filter((pl.col("variant") == "sweep-000") & (pl.col("name") == "blades_3")).row(0, named=True)
    heuristic = rung_cards.filter(pl.col("variant") == "sweep-000")
    assert row["win_rate"] == pytest.approx(heuristic.filter(pl.col("card") == "blades_3")["gih_win_rate"][0])
    assert row["variant_mean"] == pytest.approx(heuristic["gih_win_rate"].mean())


def test_the_agent_matrix_counts_a_seat_game_once_per_opposing_agent_with_a_clustered_interval() -> None:
    # Four seats, two strong and two weak agents in every game: a strong seat-game meets the weak
    # agent at two seats but counts once; the two strong seats of a game are linked (one winner),
    # so the interval is the agent's own clustered one (every game includes the weak agent).
    data = competitive(1, 3000)
    matrix = agent_matchups(data.con).filter(pl.col("variant") == "baseline")
    rows = {(row["agent"], row["opponent"]): row for row in matrix.iter_rows(named=True)}
    assert rows["strong", "weak"]["seat_games"] == rows["weak", "strong"]["seat_games"] == 2 * 3000
    assert rows["strong", "strong"]["seat_games"] == 2 * 3000  # the other strong seat
    agent = data.con.sql("SELECT * FROM agent_stats WHERE variant = 'baseline' AND agent = 'strong'").pl().row(
        0, named=True)
    strong = rows["strong", "weak"]
    assert (strong["wins"], strong["win_rate"]) == (agent["wins"], pytest.approx(agent["win_rate"]))
    assert (strong["win_rate_low"], strong["win_rate_high"]) == pytest.approx(
        (agent["win_rate_low"], agent["win_rate_high"]), abs=1e-9)
    plain = wilson_interval(strong["wins"], strong["seat_games"])
    assert strong["win_rate_high"] - strong["win_rate_low"] < plain[1] - plain[0]  # negatively linked seats
