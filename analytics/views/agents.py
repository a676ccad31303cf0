"""``agent_stats``: each agent's win rate over the seats it held."""

from __future__ import annotations

from analytics.views.shared import ORDER, clustered_rate, clustered_rate_columns
from dataset.contracts import AGENT, GROUP, Column, contract

AGENT_STATS = f"""
SELECT experiment, variant, n_players, agent, seat_games, games, wins, draws,
       {clustered_rate('wins', 'seat_games', 'win', 'win_rate')}
FROM agent_counts
ORDER BY {ORDER}, agent
"""

AGENT_STATS_CONTRACT = contract(
    "agent_stats", "One row per agent (and variant and player count): its win rate over the seats it held.",
    GROUP, AGENT,
    Column("seat_games", "BIGINT", "Seats the agent held, over all games (two seats of one game count twice)."),
    Column("games", "BIGINT", "Games in which the agent held at least one seat."),
    Column("wins", "BIGINT", "Seat-games the agent won."),
    Column("draws", "BIGINT", "Seat-games of the agent in drawn games (not wins)."),
    clustered_rate_columns("win_rate", "The agent's wins / its seat-games (draws count as not-a-win)", "seat-games"))
