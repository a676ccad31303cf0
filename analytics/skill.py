"""Skill ladders: who sits in each variant, the agent-versus-agent matrix, and
what the agents cost per game.

A skill ladder (``experiments/<game>_skill_ladder.toml``) has one variant per
*rung* (every seat plays the same agent: random, heuristic, osla, ISMCTS at
two budgets) and, optionally, head-to-head variants that seat different
agents together. The functions here read the catalog (``analytics.catalog``)
and the manifest and return small Polars frames:

- ``variant_lineups``: the agents of each variant and player count, and its
  rung (the agent, when it is the only one).
- ``agent_matrix``: agent i's win rate in games with agent j, pooled over the
  variants that play the same rules (a ladder's head-to-head variants differ
  only by their agents), with 95% Wilson intervals; self-pairs left out.
- ``agent_cost``: wall seconds and decisions per game, per variant.

``analytics.metrics.skill_movement`` uses ``variant_lineups`` to keep only the
rungs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import duckdb
import polars as pl

from analytics.folders import read_manifest
from analytics.metrics import agent_matchups, game_length
from analytics.stats import clustered_effective_n, clustered_interval
from dataset.location import ResultsPath
from experiments.spec import SpecError, parse_spec

DEFAULT_RULES = "(game defaults)"
"""The ``rules`` text of a variant without parameter overrides."""


def variant_lineups(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """The agents seated in each variant and player count.

    Columns: variant, n_players, agents (sorted list), lineup (the agents
    joined by " vs "), rung (the agent when every seat plays it, else null).
    Ordered baseline first, then by variant name.
    """
    return con.sql("""
        SELECT variant, n_players, list(DISTINCT agent ORDER BY agent) AS agents,
               array_to_string(list(DISTINCT agent ORDER BY agent), ' vs ') AS lineup,
               CASE WHEN count(DISTINCT agent) = 1 THEN min(agent) END AS rung
        FROM agent_counts
        GROUP BY variant, n_players
        ORDER BY (variant <> 'baseline'), variant, n_players
    """).pl()


def rules_text(overrides: Any) -> str:
    """A variant's parameter overrides as one text (``DEFAULT_RULES`` for none), keys sorted."""
    if not isinstance(overrides, dict) or not overrides:
        return DEFAULT_RULES
    return ", ".join(f"{path} = {json.dumps(overrides[path])}" for path in sorted(overrides))


def variant_rules(spec: Mapping[str, Any]) -> dict[str, str]:
    """Variant name -> ``rules_text`` of its parameter overrides, from a
    resolved spec (``spec.json``), sweep grid points included (a sweep over
    ``agents`` alone gives every grid point the game defaults). A spec that no
    longer parses (e.g. a game since renamed) falls back to its listed
    ``variants``."""
    try:
        parsed = parse_spec(spec, "spec.json")
    except SpecError:
        variants = spec.get("variants")
        if not isinstance(variants, dict):
            return {}
        return {name: rules_text(overrides) for name, overrides in variants.items()}
    return {variant.name: rules_text(variant.overrides) for variant in parsed.variants}


def pool_matchups(matchups: pl.DataFrame, rules: Mapping[str, str]) -> pl.DataFrame:
    """``agent_matchups`` rows summed over the variants with the same rules (pure).

    ``rules`` maps a variant to its rules text; a variant missing from it is
    pooled with nobody. Self-pairs (an agent against itself) are left out:
    they only say that a seat wins 1/N of a mirror match. The interval is
    clustered by game from the summed per-game sums (``n_sq``, ``w_sq``,
    ``nw``, ``clusters``; rows without them count each seat-game as its own
    game). Columns: rules, n_players, agent, opponent, variants (the pooled
    variant names, comma separated), seat_games, wins, win_rate, win_rate_low,
    win_rate_high, win_rate_effective_n.
    """
    schema = {"rules": pl.String, "n_players": pl.Int64, "agent": pl.String, "opponent": pl.String,
              "variants": pl.String, "seat_games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
              "win_rate_low": pl.Float64, "win_rate_high": pl.Float64, "win_rate_effective_n": pl.Float64}
    mixed = matchups.filter(pl.col("agent") != pl.col("opponent"))
    if mixed.is_empty():
        return pl.DataFrame(schema=schema)
    defaults = {"n_sq": pl.col("seat_games"), "w_sq": pl.col("wins"), "nw": pl.col("wins"),
                "clusters": pl.col("seat_games"), "hits": pl.col("wins")}  # one seat-game per game
    mixed = mixed.with_columns(
        pl.col("variant").map_elements(lambda name: rules.get(name, f"variant {name}"), return_dtype=pl.String)
        .alias("rules"),
        *(expression.alias(name) for name, expression in defaults.items() if name not in mixed.columns))
    sums = ["seat_games", "wins", *defaults]
    pooled = (
        mixed.group_by(["rules", "n_players", "agent", "opponent"])
        .agg(pl.col("variant").unique().sort().str.join(", ").alias("variants"),
             *(pl.col(name).cast(pl.Int64).sum() for name in sums))
        .sort(["rules", "n_players", "agent", "opponent"])
    )
    rows = list(pooled.select(sums).iter_rows())
    intervals = [clustered_interval(n, wins, n_sq, w_sq, nw, clusters, hits=hits)
                 for n, wins, n_sq, w_sq, nw, clusters, hits in rows]
    return pooled.cast({"n_players": pl.Int64}).with_columns(
        (pl.col("wins") / pl.col("seat_games")).alias("win_rate"),
        pl.Series("win_rate_low", [low for low, _ in intervals], dtype=pl.Float64),
        pl.Series("win_rate_high", [high for _, high in intervals], dtype=pl.Float64),
        pl.Series("win_rate_effective_n", [clustered_effective_n(*row[:6]) for row in rows], dtype=pl.Float64),
    ).select(list(schema))


def has_mixed_games(lineups: pl.DataFrame) -> bool:
    """Whether some variant seats two different agents together (``variant_lineups`` rows)."""
    return lineups.filter((pl.col("agents").list.len() > 1) & (pl.col("n_players") > 1)).height > 0


def agent_matrix(con: duckdb.DuckDBPyConnection, rules: Mapping[str, str]) -> pl.DataFrame:
    """The agent-versus-agent matrix (long form; see ``pool_matchups``), or an
    empty frame when no game seats two different agents (then the players
    self-join of ``agent_matchups`` is skipped)."""
    if not has_mixed_games(variant_lineups(con)):
        return pool_matchups(pl.DataFrame(schema={"variant": pl.String, "agent": pl.String,
                                                  "opponent": pl.String}), rules)
    return pool_matchups(agent_matchups(con), rules)


def shard_seconds(experiment_dir: ResultsPath) -> pl.DataFrame:
    """Wall seconds spent playing, per variant and player count, from the
    manifest (``play_seconds`` of each finished shard; shards written before
    it was recorded are left out). Columns: variant, n_players, timed_games,
    play_seconds."""
    rows = [
        {"variant": entry["variant"], "n_players": int(entry["n_players"]),
         "timed_games": int(entry["stop"]) - int(entry["start"]), "play_seconds": float(entry["play_seconds"])}
        for entry in read_manifest(experiment_dir).values()
        if isinstance(entry.get("play_seconds"), int | float) and "start" in entry and "stop" in entry
    ]
    schema = {"variant": pl.String, "n_players": pl.Int64, "timed_games": pl.Int64, "play_seconds": pl.Float64}
    frame = pl.DataFrame(rows, schema=schema)
    return frame.group_by(["variant", "n_players"]).agg(pl.col("timed_games").sum(), pl.col("play_seconds").sum())


def agent_cost(con: duckdb.DuckDBPyConnection, experiment_dir: ResultsPath) -> pl.DataFrame:
    """What each variant's agents cost: per variant and player count, the
    lineup, games, decisions per game (all seats), wall seconds per game
    (manifest ``play_seconds`` / the games of the timed shards; null when no
    shard was timed) and milliseconds per decision.

    The seconds are wall time of one worker process, so they grow when the
    machine is busy; they are kept in the manifest only, never in the tables
    that must come out the same on every run.
    """
    lengths = game_length(con).select("variant", "n_players", "games", pl.col("mean_decisions")
                                      .alias("decisions_per_game"))
    lineups = variant_lineups(con).select("variant", "n_players", "lineup", "rung")
    seconds = shard_seconds(experiment_dir)
    cost = (
        lengths.join(lineups, on=["variant", "n_players"], how="left")
        .join(seconds, on=["variant", "n_players"], how="left")
        .with_columns((pl.col("play_seconds") / pl.col("timed_games")).alias("seconds_per_game"))
        .with_columns((1000 * pl.col("seconds_per_game") / pl.col("decisions_per_game")).alias("ms_per_decision"))
    )
    return cost.select("variant", "n_players", "lineup", "rung", "games", "decisions_per_game",
                       "seconds_per_game", "ms_per_decision")


def ladder_order(cost: pl.DataFrame | None) -> list[str]:
    """The agents of an ``agent_cost`` (or ``variant_lineups``) frame in ladder
    order: the rungs in variant order (baseline first; a ladder lists its
    rungs from weak to strong), then agents that only play head to head."""
    if cost is None or cost.height == 0:
        return []
    rows = sorted(cost.select("variant", "lineup", "rung").iter_rows(),
                  key=lambda row: (row[2] is None, row[0] != "baseline", row[0]))
    order: list[str] = []
    for _, lineup, _ in rows:
        order.extend(agent for agent in str(lineup).split(" vs ") if agent not in order)
    return order


def is_skill_ladder(movement: pl.DataFrame) -> bool:
    """Whether a ``skill_movement`` frame's rungs make a skill ladder: rungs of at least two
    different agents.

    A rung is a variant in which every seat plays one agent; but variants that all seat
    the *same* agent (a baseline's maps or modes, all heuristic) are no ladder: the
    "movement" across them is the effect of the variants' rules, which the deltas section
    measures, not of skill. The skill section (report, dashboard) needs a real ladder."""
    return len({rung for _, rung in rungs_in_order(movement)}) >= 2


def rungs_in_order(movement: pl.DataFrame) -> list[tuple[str, str]]:
    """(variant, rung agent) pairs of a ``skill_movement`` frame, baseline first, then by variant name."""
    if movement.height == 0:
        return []
    pairs = movement.select("variant", "rung").unique().iter_rows()
    return sorted(((str(variant), str(rung)) for variant, rung in pairs),
                  key=lambda pair: (pair[0] != "baseline", pair[0]))
