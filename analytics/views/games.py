"""Game length and endings: ``game_stats``, ``end_reason_stats`` and ``turn_distribution``,
from the ``game_counts`` histogram. The game is the unit."""

from __future__ import annotations

from analytics.views.shared import GROUP_KEYS, ORDER, histogram_quantile, wilson_rate, wilson_rate_columns
from analytics.views.thresholds import TURN_CAP_REASONS
from dataset.contracts import GROUP, Column, contract
from dataset.quoting import sql_string


def game_stats() -> str:
    caps = ", ".join(sql_string(reason) for reason in TURN_CAP_REASONS)
    quantiles = [("turns", 0.1, "p10_turns"), ("turns", 0.5, "p50_turns"), ("turns", 0.9, "p90_turns"),
                 ("decisions", 0.5, "p50_decisions")]
    joins = "".join(
        f"\nJOIN {histogram_quantile(column, p)} AS {name}_q USING ({GROUP_KEYS})" for column, p, name in quantiles)
    return f"""
WITH counts AS (
    SELECT {GROUP_KEYS},
           sum(games)::BIGINT AS games,
           sum(turns * games)::DOUBLE / sum(games) AS mean_turns,
           -- sample standard deviation from the sums of x and x²
           sqrt(greatest(0.0, (sum(turns::DOUBLE * turns * games) - sum(turns * games)::DOUBLE ** 2 / sum(games))
                / nullif(sum(games) - 1, 0))) AS sd_turns,
           min(turns) AS min_turns,
           max(turns) AS max_turns,
           sum(decisions * games)::DOUBLE / sum(games) AS mean_decisions,
           sqrt(greatest(0.0, (sum(decisions::DOUBLE * decisions * games)
                - sum(decisions * games)::DOUBLE ** 2 / sum(games)) / nullif(sum(games) - 1, 0))) AS sd_decisions,
           sum(legal_actions)::DOUBLE / nullif(sum(legal_decisions), 0) AS mean_legal_actions,
           (sum(games) FILTER (WHERE draw))::BIGINT AS draws,
           (sum(games) FILTER (WHERE end_reason IN ({caps})))::BIGINT AS turn_cap_games
    FROM game_counts
    GROUP BY {GROUP_KEYS}
)
SELECT experiment, variant, n_players, games, mean_turns, sd_turns, min_turns,
       p10_turns_q.q AS p10_turns, p50_turns_q.q AS p50_turns, p90_turns_q.q AS p90_turns,
       max_turns, mean_decisions, sd_decisions, p50_decisions_q.q AS p50_decisions, mean_legal_actions,
       coalesce(draws, 0) AS draws, {wilson_rate('coalesce(draws, 0)', 'games', 'draw_rate')},
       coalesce(turn_cap_games, 0) AS turn_cap_games,
       {wilson_rate('coalesce(turn_cap_games, 0)', 'games', 'turn_cap_rate')}
FROM counts{joins}
ORDER BY {ORDER}
"""


END_REASON_STATS = f"""
SELECT experiment, variant, n_players, end_reason,
       sum(games)::BIGINT AS games,
       {wilson_rate('sum(games)', 'sum(sum(games)) OVER (PARTITION BY experiment, variant, n_players)', 'share')}
FROM game_counts
GROUP BY experiment, variant, n_players, end_reason
ORDER BY {ORDER}, end_reason
"""

TURN_DISTRIBUTION = f"""
SELECT experiment, variant, n_players, turns,
       sum(games)::BIGINT AS games,
       sum(games) / sum(sum(games)) OVER (PARTITION BY experiment, variant, n_players) AS share
FROM game_counts
GROUP BY experiment, variant, n_players, turns
ORDER BY {ORDER}, turns
"""

_TURNS = "Turns (or rounds, as the game counts them) per game"
_DECISIONS = "the agents' decisions per game (forced moves excluded)"
GAME_STATS_CONTRACT = contract(
    "game_stats", "One row per variant and player count: how long games last, and how often they are drawn or "
    "stopped by the turn cap.", GROUP,
    Column("games", "BIGINT", "Games played."),
    Column("mean_turns", "DOUBLE", f"{_TURNS}: the mean."),
    Column("sd_turns", "DOUBLE", f"{_TURNS}: the sample standard deviation."),
    Column("min_turns", "INTEGER", f"{_TURNS}: the fewest."),
    Column("p10_turns", "DOUBLE", f"{_TURNS}: the 10th percentile (linear interpolation)."),
    Column("p50_turns", "DOUBLE", f"{_TURNS}: the median (linear interpolation)."),
    Column("p90_turns", "DOUBLE", f"{_TURNS}: the 90th percentile (linear interpolation)."),
    Column("max_turns", "INTEGER", f"{_TURNS}: the most."),
    Column("mean_decisions", "DOUBLE", f"The mean of {_DECISIONS}."),
    Column("sd_decisions", "DOUBLE", f"The sample standard deviation of {_DECISIONS}."),
    Column("p50_decisions", "DOUBLE", f"The median of {_DECISIONS} (linear interpolation)."),
    Column("mean_legal_actions", "DOUBLE", "Legal actions per decision, the mean over every decision of the games "
           "that record them; NULL where none does."),
    Column("draws", "BIGINT", "Drawn games."),
    wilson_rate_columns("draw_rate", "Drawn games / games", "games"),
    Column("turn_cap_games", "BIGINT", "Games stopped by the turn cap (end reason "
           f"{', '.join(f'`{reason}`' for reason in TURN_CAP_REASONS)})."),
    wilson_rate_columns("turn_cap_rate", "Games stopped by the turn cap / games", "games"))

END_REASON_STATS_CONTRACT = contract(
    "end_reason_stats", "One row per end reason (and variant and player count): how often games end that way.",
    GROUP,
    Column("end_reason", "VARCHAR", "Why the games ended (`games.end_reason`)."),
    Column("games", "BIGINT", "Games that ended this way."),
    wilson_rate_columns("share", "Games that ended this way / all games", "games"))

TURN_DISTRIBUTION_CONTRACT = contract(
    "turn_distribution", "One row per number of turns (and variant and player count): the histogram of game "
    "length.", GROUP,
    Column("turns", "INTEGER", "Turns (or rounds) played."),
    Column("games", "BIGINT", "Games that lasted this many turns."),
    Column("share", "DOUBLE", "Those games / all games, in [0, 1]."))
