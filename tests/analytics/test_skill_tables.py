"""``analytics.skill`` on a small real Divvy skill ladder (``tests.conftest.LADDER_CUT``):
lineups, the pooled agent-versus-agent matrix and the cost per game, each
checked against a count of its own from the rows and the manifest."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.folders import read_spec
from analytics.skill import (
    DEFAULT_RULES,
    agent_cost,
    agent_matrix,
    has_mixed_games,
    pool_matchups,
    variant_lineups,
    variant_rules,
)
from analytics.stats import wilson_interval
from dataset.storage import MANIFEST_FOLDER
from tests.conftest import SmallExperiment

ISMCTS = "ismcts(iterations=4)"


@pytest.fixture
def ladder(small_ladder: SmallExperiment) -> Iterator[duckdb.DuckDBPyConnection]:
    con = open_catalog(small_ladder.folder)
    yield con
    con.close()


def test_each_variant_lists_its_agents_and_a_rung_only_when_every_seat_plays_one(
        ladder: duckdb.DuckDBPyConnection) -> None:
    lineups = variant_lineups(ladder)
    assert lineups.select("variant", "lineup", "rung").rows() == [
        ("baseline", "random", "random"),
        ("sweep-000", "heuristic", "heuristic"),
        ("sweep-001", ISMCTS, ISMCTS),
        ("sweep-002", "heuristic vs random", None),
        ("sweep-003", f"heuristic vs {ISMCTS}", None),
    ]
    assert has_mixed_games(lineups)
    assert not has_mixed_games(lineups.filter(pl.col("rung").is_not_null()))


def test_an_agent_sweep_gives_every_grid_point_the_game_default_rules(small_ladder: SmallExperiment) -> None:
    rules = variant_rules(read_spec(small_ladder.folder))
    assert rules == {name: DEFAULT_RULES for name in ("baseline", "sweep-000", "sweep-001", "sweep-002", "sweep-003")}
    assert variant_rules({"game": "no_such_game", "variants": {"baseline": {}, "alt": {"rules.rounds": 4}}}) == {
        "baseline": DEFAULT_RULES, "alt": "rules.rounds = 4"}


def test_the_matrix_counts_each_agents_wins_against_each_other_agent_from_the_rows(
        ladder: duckdb.DuckDBPyConnection, small_ladder: SmallExperiment) -> None:
    matrix = agent_matrix(ladder, variant_rules(read_spec(small_ladder.folder)))
    # Two-player games: a seat-game of agent a "with b" is one game of a against b.
    expected = ladder.sql("""
        SELECT me.agent, them.agent AS opponent, count(*) AS seat_games, sum(me.won::INTEGER) AS wins
        FROM players me JOIN players them USING (variant, game_index)
        WHERE me.seat <> them.seat AND me.agent <> them.agent
        GROUP BY ALL ORDER BY ALL
    """).fetchall()
    assert matrix.select("agent", "opponent", "seat_games", "wins").rows() == expected
    assert set(matrix["rules"]) == {DEFAULT_RULES}
    assert set(matrix["variants"]) == {"sweep-002", "sweep-003"}
    # The heuristic meets both other agents in one variant each, 20 games apiece (seats alternate).
    heuristic = matrix.filter(pl.col("agent") == "heuristic")
    assert heuristic["seat_games"].to_list() == [20, 20]
    for row in matrix.iter_rows(named=True):
        low, high = wilson_interval(row["wins"], row["seat_games"])
        assert (row["win_rate_low"], row["win_rate_high"]) == pytest.approx((low, high))


def test_pooling_sums_variants_with_the_same_rules_and_drops_mirror_matches() -> None:
    matchups = pl.DataFrame({
        "variant": ["a", "b", "c", "a"], "n_players": [2, 2, 2, 2],
        "agent": ["x", "x", "x", "y"], "opponent": ["y", "y", "y", "y"],
        "seat_games": [10, 30, 5, 7], "wins": [4, 20, 5, 3],
    })
    pooled = pool_matchups(matchups, {"a": "same", "b": "same", "c": "other"})
    assert pooled.select("rules", "variants", "seat_games", "wins", "win_rate").rows() == [
        ("other", "c", 5, 5, 1.0), ("same", "a, b", 40, 24, 0.6)]


def test_the_matrix_keeps_variants_with_different_rules_apart(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        matrix = agent_matrix(con, variant_rules(read_spec(small_experiment.folder)))
    finally:
        con.close()
    # divvy_small seats heuristic against random under two rule sets, 300 games each.
    assert matrix.select("rules", "agent", "opponent", "seat_games").rows() == [
        (DEFAULT_RULES, "heuristic", "random", 300), (DEFAULT_RULES, "random", "heuristic", 300),
        ("rules.rounds = 4", "heuristic", "random", 300), ("rules.rounds = 4", "random", "heuristic", 300)]


def _copy_without(small_ladder: SmallExperiment, folder: Path, variants: set[str]) -> Path:
    """A copy of the ladder whose shards of ``variants`` are unfinished (no manifest entry)."""
    shutil.copytree(small_ladder.folder, folder)
    for path in (folder / MANIFEST_FOLDER).glob("*.json"):
        if json.loads(path.read_text())["variant"] in variants:
            path.unlink()
    return folder


def test_without_mixed_games_the_matrix_is_empty(small_ladder: SmallExperiment, tmp_path: Path) -> None:
    folder = _copy_without(small_ladder, tmp_path / "ladder", {"sweep-002", "sweep-003"})
    con = open_catalog(folder)
    try:
        matrix = agent_matrix(con, variant_rules(read_spec(folder)))
    finally:
        con.close()
    assert matrix.is_empty()
    assert matrix.columns[:4] == ["rules", "n_players", "agent", "opponent"]


def test_the_cost_per_game_is_the_manifest_play_time_over_the_games(
        ladder: duckdb.DuckDBPyConnection, small_ladder: SmallExperiment) -> None:
    cost = agent_cost(ladder, small_ladder.folder)
    entries = [json.loads(path.read_text()) for path in (small_ladder.folder / MANIFEST_FOLDER).glob("*.json")]
    decisions = dict(ladder.sql("SELECT variant, avg(decisions) FROM games GROUP BY variant").fetchall())
    assert cost["variant"].to_list() == ["baseline", "sweep-000", "sweep-001", "sweep-002", "sweep-003"]
    for row in cost.iter_rows(named=True):
        shards = [entry for entry in entries if entry["variant"] == row["variant"]]
        games = sum(entry["stop"] - entry["start"] for entry in shards)
        seconds = sum(entry["play_seconds"] for entry in shards) / games
        assert row["games"] == 20
        assert row["seconds_per_game"] == pytest.approx(seconds)
        assert row["decisions_per_game"] == pytest.approx(decisions[row["variant"]])
        assert row["ms_per_decision"] == pytest.approx(1000 * seconds / decisions[row["variant"]])


def test_shards_without_a_recorded_play_time_leave_the_cost_empty(
        small_ladder: SmallExperiment, tmp_path: Path) -> None:
    folder = _copy_without(small_ladder, tmp_path / "ladder", set())
    for path in (folder / MANIFEST_FOLDER).glob("*.json"):
        entry = json.loads(path.read_text())
        entry.pop("play_seconds")
        path.write_text(json.dumps(entry))
    con = open_catalog(folder)
    try:
        cost = agent_cost(con, folder)
    finally:
        con.close()
    assert cost["seconds_per_game"].null_count() == cost.height == 5
    assert cost["decisions_per_game"].null_count() == 0
