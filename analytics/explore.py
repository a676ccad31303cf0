"""Metric queries the dashboard needs beyond the report: experiment listing,
win rates split by a game column (the map), sweep response curves (game
metrics and each agent's win rate), where cooperative runs end, a card's
trend over the turns played and its split by faction, and seed look-ups.

Like ``analytics.metrics``, every function aggregates in DuckDB and returns a
small Polars DataFrame; nothing iterates over rows in Python.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import uuid
from typing import Any

import duckdb
import polars as pl

from analytics.folders import AnalyticsError, list_experiments, read_manifest, read_spec
from analytics.stats import z_for_confidence
from analytics.views import FACTION_BAND
from analytics.views.shared import clustered_rate
from dataset.location import ResultsPath, tree_size
from dataset.quoting import sql_identifier
from dataset.storage import lock_left_by_dead_run

RUN_FILE = "run.json"
LOCK_FILE = ".lock"
_VARIANT_ORDER = "(variant <> 'baseline'), variant"

EXPERIMENT_COLUMNS: dict[str, Any] = {
    "experiment": pl.String, "game": pl.String, "run_at": pl.Datetime("us", "UTC"), "status": pl.String,
    "games_done": pl.Int64, "games_planned": pl.Int64, "progress": pl.Float64, "variants": pl.Int64,
    "player_counts": pl.String, "shards_done": pl.Int64, "size_bytes": pl.Int64, "description": pl.String,
}


def _folder_size(folder: ResultsPath) -> int:
    return tree_size(folder)


def planned_games(spec: dict[str, Any]) -> int:
    """Games the spec asks for: games × player counts × (variants + sweep grid points); 0 if unreadable."""
    per_variant, counts = spec.get("games"), spec.get("player_counts")
    variants = spec.get("variants") if isinstance(spec.get("variants"), dict) else {}
    sweep = spec.get("sweep") if isinstance(spec.get("sweep"), dict) else {}
    if not isinstance(per_variant, int) or not isinstance(counts, list):
        return 0
    grid = math.prod(len(values) for values in sweep.values()) if sweep else 0
    impact = spec.get("impact")
    arms = impact.get("arm_variants", 0) if isinstance(impact, dict) else 0
    arms = arms if isinstance(arms, int) else 0
    return per_variant * len(counts) * (len(variants or {}) + grid + arms)


SEARCH_STATE = ("_tuning", "state.json")
"""Where a balance search keeps its state (``analytics.tuning``'s ``TUNING_FOLDER``/``STATE_FILE``):
read here without importing the search's modules."""


def search_status(folder: ResultsPath) -> str | None:
    """A balance search's own status (``searching``, ``confirming``, ``finished``); None for
    a folder that holds no search. A search has no fixed plan of games: its candidates play
    different numbers of them (successive halving), so only its state says it is done."""
    try:
        state = json.loads((folder / SEARCH_STATE[0] / SEARCH_STATE[1]).read_text())
    except (OSError, ValueError):
        return None
    status = state.get("status") if isinstance(state, dict) else None
    return status if isinstance(status, str) else None


def games_plan(folder: ResultsPath, spec: dict[str, Any]) -> tuple[int, str | None]:
    """(planned games, ``search_status``) of an experiment folder: ``planned_games(spec)``,
    but 0 (no fixed plan) for a balance search's folder; its state file read once."""
    search = search_status(folder)
    return (0 if search is not None else planned_games(spec)), search


def run_status(folder: ResultsPath, done: int, planned: int, search: str | None = None
               ) -> tuple[str, float | None, str]:
    """(status, time, reason) from ``run.json``: running (a run holds the lock), finished
    (every planned game played; a balance search: its state, ``search``, says so),
    interrupted (Ctrl-C, SIGTERM, or a run killed while it held the lock), failed (the run
    stopped on an error: ``reason`` is its one line) or incomplete (stopped early)."""
    try:
        run = json.loads((folder / RUN_FILE).read_text())
    except (OSError, ValueError):
        run = {}
    when = run.get("finished") or run.get("ended") or run.get("started") if isinstance(run, dict) else None
    status = run.get("status") if isinstance(run, dict) else None
    killed = status == "running" and lock_left_by_dead_run(folder)
    if status == "running" and (folder / LOCK_FILE).exists() and not killed:
        return "running", when, ""
    if (planned and done >= planned) or search == "finished":
        return "finished", when, ""
    if status == "interrupted" or killed:
        return "interrupted", when, ""
    if isinstance(status, str) and status.startswith("failed"):
        return "failed", when, status.removeprefix("failed").lstrip(": ")
    return "incomplete", when, ""


def is_running(folder: ResultsPath) -> bool:
    """Whether a run holds ``folder`` now (``run.json`` says running and a live run's lock is there)."""
    try:
        run = json.loads((folder / RUN_FILE).read_text())
    except (OSError, ValueError):
        return False
    return (isinstance(run, dict) and run.get("status") == "running" and (folder / LOCK_FILE).exists()
            and not lock_left_by_dead_run(folder))


def experiment_overview(results_root: ResultsPath | str) -> pl.DataFrame:
    """One row per experiment under ``results_root`` (folders with ``spec.json``), by name.

    Columns: experiment, game, run_at (when the run finished or started, from
    ``run.json``; else when ``spec.json`` was written), status (``running``
    while a run holds the folder's lock, ``finished`` when every planned game
    is there, ``interrupted`` or ``failed`` when the run ended early that way,
    ``incomplete`` otherwise), games_done (games of the finished
    shards, from the manifest), games_planned, progress (= done / planned),
    variants (including the baseline and the sweep's grid points),
    player_counts (comma-separated), shards_done, size_bytes (every file in
    the folder) and description.
    """
    rows = []
    for folder in list_experiments(results_root):
        try:
            spec = read_spec(folder)
            manifest = read_manifest(folder)
        except AnalyticsError:
            spec, manifest = {}, {}
        done = sum(int(entry.get("rows", {}).get("games", 0)) for entry in manifest.values())
        planned, search = games_plan(folder, spec)
        status, when, _ = run_status(folder, done, planned, search)
        timestamp = when if isinstance(when, int | float) else (folder / "spec.json").stat().st_mtime
        variants = spec.get("variants") if isinstance(spec.get("variants"), dict) else {}
        sweep = spec.get("sweep") if isinstance(spec.get("sweep"), dict) else {}
        listed = spec.get("player_counts")
        counts: list[Any] = listed if isinstance(listed, list) else []
        rows.append({
            "experiment": folder.name, "game": str(spec.get("game", "?")),
            "run_at": dt.datetime.fromtimestamp(timestamp, dt.UTC), "status": status,
            "games_done": done, "games_planned": planned, "progress": done / planned if planned else None,
            "variants": len(variants or {}) + (math.prod(len(v) for v in sweep.values()) if sweep else 0),
            "player_counts": ",".join(str(count) for count in counts), "shards_done": len(manifest),
            "size_bytes": _folder_size(folder), "description": str(spec.get("description", "")),
        })
    return pl.DataFrame(rows, schema=EXPERIMENT_COLUMNS)


def games_columns(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The columns of the ``games`` view."""
    return [row[0] for row in con.execute("DESCRIBE games").fetchall()]


def win_rate_by_game_column(con: duckdb.DuckDBPyConnection, key: str, column: str,
                            agent: str | None = None) -> pl.DataFrame:
    """Win rate of each ``key`` (``seat``, ``agent`` or ``faction``) per variant,
    player count and value of the ``games`` column ``column`` (e.g. ``map``);
    with ``agent``, over that agent's seats only.

    Columns: variant, n_players, value (the column's value as text), key
    (as text), games (seat-games), wins, win_rate, ci_low, ci_high: the 95%
    Wilson interval at the effective sample size of the games (an agent or a
    faction may hold several seats of a game; ``clustered_n``). Rows with a
    null key (no faction) are left out.
    """
    if key not in ("seat", "agent", "faction"):
        raise AnalyticsError(f"win rate key {key!r}: expected seat, agent or faction")
    if column not in games_columns(con):
        raise AnalyticsError(f"games: no column {column!r}")
    return con.sql(f"""
        WITH per_game AS (
            SELECT p.variant, p.n_players, p.game_index, g.{sql_identifier(column)}::VARCHAR AS value,
                   p.{key}::VARCHAR AS key, count(*) AS n, count(*) FILTER (WHERE p.won) AS w
            FROM players AS p JOIN games AS g USING (experiment, variant, n_players, game_index)
            WHERE p.{key} IS NOT NULL AND ($agent IS NULL OR p.agent = $agent)
            GROUP BY ALL
        ), sums AS (
            SELECT variant, n_players, value, key, sum(n)::BIGINT AS games, sum(w)::BIGINT AS wins,
                   count(*) AS clusters, sum(n * n) AS n_sq, sum(w * w) AS w_sq, sum(n * w) AS nw,
                   count(*) FILTER (WHERE w > 0) AS hits
            FROM per_game GROUP BY ALL
        )
        SELECT variant, n_players, value, key, games, wins, wins / games AS win_rate,
               clustered_low(games, wins, n_sq, w_sq, nw, clusters, hits) AS ci_low,
               clustered_high(games, wins, n_sq, w_sq, nw, clusters, hits) AS ci_high
        FROM sums
        ORDER BY {_VARIANT_ORDER}, n_players, value, key
    """, params={"agent": agent}).pl()


SWEEP_METRICS = {
    "agent_win_rate": "Win rate of each agent",
    "first_seat_win_rate": "Win rate of seat 0",
    "draw_rate": "Draw rate",
    "mean_turns": "Mean turns per game",
    "mean_decisions": "Mean decisions per game",
}
"""The metrics a sweep's response curve offers, with their axis titles
(``agent_win_rate`` from ``sweep_agent_response``, the others from ``sweep_response``)."""


def sweep_response(con: duckdb.DuckDBPyConnection, parameter: str, by: str | None = None) -> pl.DataFrame:
    """A sweep's response curve: per player count and value of the swept
    ``parameter`` (a ``games`` column named by its dotted path), optionally
    split by a second swept column ``by``, pooling the other swept dimensions.

    Columns: n_players, value, series (the ``by`` column's value; null without ``by``), games, then each
    game metric of ``SWEEP_METRICS`` with its 95% interval as ``<metric>_low`` /
    ``<metric>_high`` (Wilson for rates, normal for means):
    first_seat_win_rate (games seat 0 won), draw_rate, mean_turns,
    mean_decisions. Only the grid points count: the baseline is left out
    (``analytics.variants.baseline_in_grid`` says whether its values are a
    grid point too). Values are sorted numerically when they are numbers.
    """
    columns = games_columns(con)
    for name in (parameter, by):
        if name is not None and name not in columns:
            raise AnalyticsError(f"games: no sweep column {name!r}")
    z = z_for_confidence(0.95)
    by_sql = f"g.{sql_identifier(by)}::VARCHAR" if by else "NULL::VARCHAR"
    return con.sql(f"""
        WITH seat0 AS (
            SELECT experiment, variant, n_players, game_index, won FROM players WHERE seat = 0
        )
        SELECT g.n_players, g.{sql_identifier(parameter)} AS value, {by_sql} AS series, count(*) AS games,
               count(*) FILTER (WHERE s.won) / count(*) AS first_seat_win_rate,
               wilson_low(count(*) FILTER (WHERE s.won), count(*)) AS first_seat_win_rate_low,
               wilson_high(count(*) FILTER (WHERE s.won), count(*)) AS first_seat_win_rate_high,
               count(*) FILTER (WHERE g.draw) / count(*) AS draw_rate,
               wilson_low(count(*) FILTER (WHERE g.draw), count(*)) AS draw_rate_low,
               wilson_high(count(*) FILTER (WHERE g.draw), count(*)) AS draw_rate_high,
               avg(g.turns) AS mean_turns,
               mean_turns - {z!r} * coalesce(stddev_samp(g.turns), 0) / sqrt(count(*)) AS mean_turns_low,
               mean_turns + {z!r} * coalesce(stddev_samp(g.turns), 0) / sqrt(count(*)) AS mean_turns_high,
               avg(g.decisions) AS mean_decisions,
               mean_decisions - {z!r} * coalesce(stddev_samp(g.decisions), 0) / sqrt(count(*))
                   AS mean_decisions_low,
               mean_decisions + {z!r} * coalesce(stddev_samp(g.decisions), 0) / sqrt(count(*))
                   AS mean_decisions_high
        FROM games AS g JOIN seat0 AS s USING (experiment, variant, n_players, game_index)
        WHERE g.{sql_identifier(parameter)} IS NOT NULL AND g.variant <> 'baseline'
        GROUP BY ALL
        ORDER BY n_players, value, series
    """).pl()


def sweep_agent_response(con: duckdb.DuckDBPyConnection, parameter: str) -> pl.DataFrame:
    """Each agent's win rate against the swept ``parameter``'s value, per player
    count (the other swept dimensions pooled, the baseline left out).

    Columns: n_players, value, series (the agent), games, seat_games, wins,
    agent_win_rate with agent_win_rate_low/high: the 95% Wilson interval at
    the effective sample size of the games (``clustered_n``: an agent may
    hold several seats of a game)."""
    if parameter not in games_columns(con):
        raise AnalyticsError(f"games: no sweep column {parameter!r}")
    return con.sql(f"""
        WITH per_game AS (
            SELECT p.n_players, g.{sql_identifier(parameter)} AS value, p.agent, p.game_index, p.variant,
                   count(*) AS n, count(*) FILTER (WHERE p.won) AS w
            FROM players AS p JOIN games AS g USING (experiment, variant, n_players, game_index)
            WHERE g.{sql_identifier(parameter)} IS NOT NULL AND g.variant <> 'baseline'
            GROUP BY ALL
        ), sums AS (
            SELECT n_players, value, agent AS series, count(*) AS games, sum(n)::BIGINT AS seat_games,
                   sum(w)::BIGINT AS wins, sum(n * n) AS n_sq, sum(w * w) AS w_sq, sum(n * w) AS nw,
                   count(*) FILTER (WHERE w > 0) AS hits
            FROM per_game GROUP BY ALL
        )
        SELECT n_players, value, series, games, seat_games, wins,
               wins / seat_games AS agent_win_rate,
               clustered_n(seat_games, wins, n_sq, w_sq, nw, games) AS effective_n,
               clustered_low(seat_games, wins, n_sq, w_sq, nw, games, hits) AS agent_win_rate_low,
               clustered_high(seat_games, wins, n_sq, w_sq, nw, games, hits) AS agent_win_rate_high
        FROM sums
        ORDER BY n_players, value, series
    """).pl()


def card_turns(con: duckdb.DuckDBPyConnection, card: str) -> pl.DataFrame:
    """``card_turn_stats`` of one card: its played win rate by the turn it was first played,
    per variant, player count and agent (the card detail view's trend)."""
    return con.sql("SELECT * FROM card_turn_stats WHERE card = $card", params={"card": card}).pl()


def card_faction_stats(con: duckdb.DuckDBPyConnection, faction: str) -> pl.DataFrame:
    """``card_faction_stats`` of one faction (computed from the card rows when asked)."""
    return con.sql("SELECT * FROM card_faction_stats WHERE faction = $faction", params={"faction": faction}).pl()


def run_ends(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Where cooperative runs end (Party Wanted): per variant, player count,
    level reached and final enemy, the games and their share of that
    variant and player count, and how many of them the party won.

    Columns: variant, n_players, level_reached, final_enemy, games, share,
    wins. Empty when ``games`` lacks ``level_reached`` or ``final_enemy``.
    """
    columns = games_columns(con)
    if "level_reached" not in columns or "final_enemy" not in columns:
        return pl.DataFrame(schema={"variant": pl.String, "n_players": pl.Int64, "level_reached": pl.Int64,
                                    "final_enemy": pl.String, "games": pl.Int64, "share": pl.Float64,
                                    "wins": pl.Int64})
    return con.sql(f"""
        SELECT variant, n_players, level_reached, final_enemy::VARCHAR AS final_enemy, count(*) AS games,
               count(*) / sum(count(*)) OVER (PARTITION BY variant, n_players) AS share,
               count(*) FILTER (WHERE len(winners) > 0) AS wins
        FROM games
        GROUP BY variant, n_players, level_reached, final_enemy
        ORDER BY {_VARIANT_ORDER}, n_players, level_reached, games DESC, final_enemy
    """).pl()


def games_with_seed(con: duckdb.DuckDBPyConnection, seed: int) -> pl.DataFrame:
    """The games whose seed is ``seed``: variant, n_players, game_index (several
    when variants share the baseline's seeds)."""
    return con.sql(f"""
        SELECT variant, n_players, game_index FROM games WHERE seed = $seed
        ORDER BY {_VARIANT_ORDER}, n_players, game_index
    """, params={"seed": seed}).pl()


# ------------------------------------------------------------------ one agent's seats
#
# The Win rates and Game length pages show one agent of the lineup at a time
# (as the Cards page does): pooled over different agents, a heuristic's 99%
# and random's 1% read as a fair 50% seat. Same units as the report's tables:
# a seat's rate counts games (one seat-game per game), a faction's or a
# matchup's is clustered by game (the agent may hold several seats of a game).

_AGENT_SEATS = """
    SELECT p.experiment, p.variant, p.n_players, p.game_index, p.seat, p.faction, p.won, g.draw
    FROM players AS p JOIN games AS g USING (experiment, variant, n_players, game_index)
    WHERE p.agent = $agent
"""


def agent_seat_stats(con: duckdb.DuckDBPyConnection, agent: str) -> pl.DataFrame:
    """Each seat's win rate in the games where ``agent`` held that seat, per variant and
    player count (``seat_stats`` for one agent).

    Columns: variant, n_players, agent, seat, games, wins, draws, win_rate, win_rate_low,
    win_rate_high (95% Wilson; unit: the game, one seat-game each)."""
    return con.sql(f"""
        SELECT variant, n_players, $agent AS agent, seat, count(*) AS games,
               count(*) FILTER (WHERE won) AS wins, count(*) FILTER (WHERE draw) AS draws,
               wins::DOUBLE / games AS win_rate, wilson_low(wins, games) AS win_rate_low,
               wilson_high(wins, games) AS win_rate_high
        FROM ({_AGENT_SEATS})
        GROUP BY variant, n_players, seat
        ORDER BY {_VARIANT_ORDER}, n_players, seat
    """, params={"agent": agent}).pl()


def agent_faction_stats(con: duckdb.DuckDBPyConnection, agent: str) -> pl.DataFrame:
    """Each faction's win rate over the seat-games ``agent`` played with it, per variant and
    player count (``faction_stats`` for one agent), against the agent's own pooled rate.

    Columns: variant, n_players, agent, faction, seat_games, games, wins, win_rate with
    win_rate_effective_n, win_rate_low, win_rate_high (clustered by game), expected (the
    agent's win rate over all its seat-games with a faction there), outside_band (more
    than ``views.FACTION_BAND`` from it), surely_outside (the whole interval outside)."""
    return con.sql(f"""
        WITH per_game AS (
            SELECT variant, n_players, game_index, faction, count(*) AS n, count(*) FILTER (WHERE won) AS w
            FROM ({_AGENT_SEATS}) WHERE faction IS NOT NULL GROUP BY ALL
        ), sums AS (
            SELECT variant, n_players, faction, sum(n)::BIGINT AS seat_games, count(*) AS games,
                   sum(w)::BIGINT AS wins, count(*) AS clusters, sum(n * n) AS n_sq, sum(w * w) AS w_sq,
                   sum(n * w) AS nw, count(*) FILTER (WHERE w > 0) AS hits
            FROM per_game GROUP BY ALL
        ), rated AS (
            SELECT variant, n_players, $agent AS agent, faction, seat_games, games, wins,
                   {clustered_rate('wins', 'seat_games', '', 'win_rate')},
                   sum(wins) OVER w / sum(seat_games) OVER w AS expected
            FROM sums WINDOW w AS (PARTITION BY variant, n_players)
        )
        SELECT *, abs(win_rate - expected) > {FACTION_BAND!r} AS outside_band,
               win_rate_low > expected + {FACTION_BAND!r} OR win_rate_high < expected - {FACTION_BAND!r}
                   AS surely_outside
        FROM rated
        ORDER BY {_VARIANT_ORDER}, n_players, faction
    """, params={"agent": agent}).pl()


def agent_matchups(con: duckdb.DuckDBPyConnection, agent: str) -> pl.DataFrame:
    """Faction i's win rate when ``agent`` played it, in games that include faction j at
    another seat (whoever played j), per variant and player count (``matchups`` for one
    agent: a seat-game counts once per distinct opposing faction).

    Columns: variant, n_players, agent, faction, opponent, seat_games, wins, win_rate with
    its effective n and 95% interval clustered by game, fair_share (1/N)."""
    return con.sql(f"""
        WITH own AS (
            SELECT * FROM ({_AGENT_SEATS}) WHERE faction IS NOT NULL
        ), pairs AS (
            SELECT DISTINCT a.variant, a.n_players, a.game_index, a.seat, a.faction, a.won, b.faction AS opponent
            FROM own AS a JOIN players AS b USING (experiment, variant, n_players, game_index)
            WHERE a.seat <> b.seat AND b.faction IS NOT NULL
        ), per_game AS (
            SELECT variant, n_players, game_index, faction, opponent, count(*) AS n,
                   count(*) FILTER (WHERE won) AS w
            FROM pairs GROUP BY ALL
        ), sums AS (
            SELECT variant, n_players, faction, opponent, sum(n)::BIGINT AS seat_games, sum(w)::BIGINT AS wins,
                   count(*) AS clusters, sum(n * n) AS n_sq, sum(w * w) AS w_sq, sum(n * w) AS nw,
                   count(*) FILTER (WHERE w > 0) AS hits
            FROM per_game GROUP BY ALL
        )
        SELECT variant, n_players, $agent AS agent, faction, opponent, seat_games, wins,
               {clustered_rate('wins', 'seat_games', '', 'win_rate')}, 1.0::DOUBLE / n_players AS fair_share
        FROM sums
        ORDER BY {_VARIANT_ORDER}, n_players, faction, opponent
    """, params={"agent": agent}).pl()


OUTCOMES = ("won", "lost", "draw")
"""How a game ended for an agent: one of its seats won, a draw, or it lost (``agent_game_lengths``)."""

_AGENT_GAMES = f"""
    SELECT g.experiment, g.variant, g.n_players, g.game_index, g.turns, g.decisions, g.end_reason,
           CASE WHEN bool_or(s.draw) THEN 'draw' WHEN bool_or(s.won) THEN 'won' ELSE 'lost' END AS outcome
    FROM ({_AGENT_SEATS}) AS s JOIN games AS g USING (experiment, variant, n_players, game_index)
    GROUP BY ALL
"""
_OUTCOME_ORDER = "CASE outcome WHEN 'won' THEN 0 WHEN 'lost' THEN 1 ELSE 2 END"


def agent_game_lengths(con: duckdb.DuckDBPyConnection, agent: str, games: str = _AGENT_GAMES) -> pl.DataFrame:
    """The length of the games ``agent`` sat in, split by how they ended for it (``OUTCOMES``:
    won when one of its seats won), per variant and player count.

    Columns: variant, n_players, agent, outcome, games, share (of the agent's games) with
    share_low/share_high (95% Wilson; unit: the game), mean_turns, sd_turns, min_turns,
    p10_turns, p50_turns, p90_turns, max_turns (``quantile_cont``), mean_decisions,
    p50_decisions."""
    return con.sql(f"""
        SELECT variant, n_players, $agent AS agent, outcome, count(*) AS games,
               count(*) / sum(count(*)) OVER (PARTITION BY variant, n_players) AS share,
               wilson_low(count(*), sum(count(*)) OVER (PARTITION BY variant, n_players)) AS share_low,
               wilson_high(count(*), sum(count(*)) OVER (PARTITION BY variant, n_players)) AS share_high,
               avg(turns) AS mean_turns, stddev_samp(turns) AS sd_turns, min(turns) AS min_turns,
               quantile_cont(turns, 0.1) AS p10_turns, quantile_cont(turns, 0.5) AS p50_turns,
               quantile_cont(turns, 0.9) AS p90_turns, max(turns) AS max_turns,
               avg(decisions) AS mean_decisions, quantile_cont(decisions, 0.5) AS p50_decisions
        FROM ({games})
        GROUP BY variant, n_players, outcome
        ORDER BY {_VARIANT_ORDER}, n_players, {_OUTCOME_ORDER}
    """, params={"agent": agent}).pl()


def agent_turn_distribution(con: duckdb.DuckDBPyConnection, agent: str, games: str = _AGENT_GAMES) -> pl.DataFrame:
    """The turns histogram of the games ``agent`` sat in, per variant, player count and outcome
    for it. Columns: variant, n_players, agent, outcome, turns, games."""
    return con.sql(f"""
        SELECT variant, n_players, $agent AS agent, outcome, turns, count(*) AS games
        FROM ({games})
        GROUP BY variant, n_players, outcome, turns
        ORDER BY {_VARIANT_ORDER}, n_players, {_OUTCOME_ORDER}, turns
    """, params={"agent": agent}).pl()


def agent_end_reasons(con: duckdb.DuckDBPyConnection, agent: str, games: str = _AGENT_GAMES) -> pl.DataFrame:
    """How the games ``agent`` sat in ended, per variant, player count and outcome for it.

    Columns: variant, n_players, agent, outcome, end_reason, games, share (of the agent's games
    at that variant and player count) with share_low/share_high (95% Wilson; unit: the game)."""
    return con.sql(f"""
        SELECT variant, n_players, $agent AS agent, outcome, end_reason, count(*) AS games,
               count(*) / sum(count(*)) OVER (PARTITION BY variant, n_players) AS share,
               wilson_low(count(*), sum(count(*)) OVER (PARTITION BY variant, n_players)) AS share_low,
               wilson_high(count(*), sum(count(*)) OVER (PARTITION BY variant, n_players)) AS share_high
        FROM ({games})
        GROUP BY variant, n_players, outcome, end_reason
        ORDER BY {_VARIANT_ORDER}, n_players, {_OUTCOME_ORDER}, end_reason
    """, params={"agent": agent}).pl()


def agent_game_summary(con: duckdb.DuckDBPyConnection, agent: str) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(``agent_game_lengths``, ``agent_turn_distribution``, ``agent_end_reasons``) of ``agent``,
    the games it sat in gathered once (a temporary table of one row per game, dropped after)
    rather than once per table: on a million games, a third of the time."""
    table = f"agent_games_{uuid.uuid4().hex}"
    con.execute(f"CREATE TEMP TABLE {table} AS {_AGENT_GAMES}", {"agent": agent})
    try:
        source = f"SELECT * FROM {table}"
        return (agent_game_lengths(con, agent, source), agent_turn_distribution(con, agent, source),
                agent_end_reasons(con, agent, source))
    finally:
        con.execute(f"DROP TABLE IF EXISTS {table}")
