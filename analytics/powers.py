"""Faction (party, hero) powers: how often each is used, and how its seats do when they use it.

A game with faction powers records, per seat and game, the players-table
columns ``power_playable`` (steps at which using the power was a legal
option) and ``power_used`` (times it was used; for a passive power, never an
option, the times it took effect) — the issue-16 convention, recorded by
Ring of Chaos. ``power_stats(con)`` turns them into one row per variant,
player count, agent and faction (the faction's power), the report's
``powers`` section and the Win rates page's powers table. Like the card
tables, a row is one agent's seats only: a power the heuristic never uses
describes the heuristic, not the power (``never_used``).

Units (analytics/README.md, "Powers"): the seat-game, clustered by game
(``clustered_n``; in Ring of Chaos a party sits at most once per game, so
it is the game).
"""

from __future__ import annotations

import duckdb
import polars as pl

from analytics.stats import Z95
from analytics.views.shared import clustered_rate
from dataset.count_views import cluster_sums

POWER_COLUMNS = ("power_playable", "power_used")
"""The players-table columns a game with powers records."""

NEVER_USED = "never used by this agent: its numbers describe the agent, not the power"
"""What a power row flagged ``never_used`` means."""

_ORDER = "(variant <> 'baseline'), variant, n_players, agent, faction"


def has_powers(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the experiment's ``players`` table records ``power_playable`` and ``power_used``."""
    columns = {row[0] for row in con.execute("DESCRIBE players").fetchall()}
    return all(column in columns for column in POWER_COLUMNS)


def power_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per variant, player count, agent and faction: how the agent used the faction's power.

    Columns: variant, n_players, agent, faction; ``seat_games`` (the agent's seat-games with
    that faction) and ``games``; ``times_used`` and ``uses_per_game`` (times used per
    seat-game, with ``uses_per_game_low``/``_high``: a normal 95% interval, cluster-robust by
    game); ``times_playable`` (steps it was an option) and ``games_playable``;
    ``use_rate`` = times used / times playable (**use rate when playable**, with its
    effective n, clustered by game and at most the steps, and 95% Wilson interval there; null
    for a passive power, never an option); ``games_used`` / ``used_win_rate`` (seat-games it was used at least once, and
    their win rate) and ``games_unused`` / ``unused_win_rate`` (never used), each with its
    effective n and 95% Wilson interval clustered by game; ``used_effect`` = used − unused
    win rate (what using it goes with, not what it causes); ``passive`` (used but never an
    option) and ``never_used`` (an option at least once, never used: ``NEVER_USED``).
    Empty when the game records no powers (``has_powers``)."""
    if not has_powers(con):
        return pl.DataFrame(schema={"variant": pl.String, "n_players": pl.Int64, "agent": pl.String,
                                    "faction": pl.String})
    z = repr(Z95)
    return con.sql(f"""
        WITH per_game AS (
            SELECT variant, n_players, agent, faction, game_index,
                   count(*) AS n, sum(power_used)::BIGINT AS used, sum(power_playable)::BIGINT AS playable,
                   count(*) FILTER (WHERE power_used > 0) AS n_used,
                   count(*) FILTER (WHERE power_used > 0 AND won) AS w_used,
                   count(*) FILTER (WHERE power_used = 0) AS n_unused,
                   count(*) FILTER (WHERE power_used = 0 AND won) AS w_unused
            FROM players WHERE faction IS NOT NULL
            GROUP BY ALL
        ), sums AS (
            SELECT variant, n_players, agent, faction, sum(n)::BIGINT AS seat_games, count(*) AS games,
                   sum(used)::BIGINT AS times_used, sum(used * used) AS used_sq, sum(n * used) AS n_used_product,
                   sum(n * n) AS n_sq,
                   sum(playable)::BIGINT AS times_playable, count(*) FILTER (WHERE playable > 0) AS games_playable,
                   {cluster_sums('use', 'playable', 'used')},
                   sum(n_used)::BIGINT AS games_used, sum(w_used)::BIGINT AS wins_used,
                   {cluster_sums('used', 'n_used', 'w_used')},
                   sum(n_unused)::BIGINT AS games_unused, sum(w_unused)::BIGINT AS wins_unused,
                   {cluster_sums('unused', 'n_unused', 'w_unused')}
            FROM per_game GROUP BY ALL
        ), rated AS (
            SELECT *,
                   times_used::DOUBLE / seat_games AS uses_per_game,
                   -- the ratio estimator's cluster-robust standard error: sqrt(sum (u_g - m n_g)^2) / sum n_g
                   sqrt(greatest(0.0, used_sq - 2 * uses_per_game * n_used_product
                                      + uses_per_game * uses_per_game * n_sq)) / seat_games AS uses_se,
                   CASE WHEN times_playable > 0 THEN times_used::DOUBLE / times_playable END AS use_rate,
                   -- Steps of one game are not independent trials: the effective n is clustered by
                   -- game and never more than the steps themselves.
                   CASE WHEN times_playable > 0 THEN least(times_playable::DOUBLE, clustered_n(
                        times_playable, least(times_used, times_playable), use_n_sq, use_w_sq, use_nw,
                        use_clusters)) END AS use_rate_effective_n,
                   {clustered_rate('wins_used', 'games_used', 'used', 'used_win_rate')},
                   {clustered_rate('wins_unused', 'games_unused', 'unused', 'unused_win_rate')}
            FROM sums
        )
        SELECT variant, n_players, agent, faction, seat_games, games, times_used, uses_per_game,
               greatest(0.0, uses_per_game - {z} * uses_se) AS uses_per_game_low,
               uses_per_game + {z} * uses_se AS uses_per_game_high,
               times_playable, games_playable, use_rate, use_rate_effective_n,
               CASE WHEN times_playable > 0 THEN wilson_low(least(use_rate, 1.0) * use_rate_effective_n,
                                                            use_rate_effective_n) END AS use_rate_low,
               CASE WHEN times_playable > 0 THEN wilson_high(least(use_rate, 1.0) * use_rate_effective_n,
                                                             use_rate_effective_n) END AS use_rate_high,
               games_used, used_win_rate, used_win_rate_effective_n, used_win_rate_low, used_win_rate_high,
               games_unused, unused_win_rate, unused_win_rate_effective_n, unused_win_rate_low,
               unused_win_rate_high, used_win_rate - unused_win_rate AS used_effect,
               times_playable = 0 AND times_used > 0 AS passive,
               times_playable > 0 AND times_used = 0 AS never_used
        FROM rated
        ORDER BY {_ORDER}
    """).pl()
