"""``agent_stats``: each agent's win rate over the seats it held, with the fair share beside
it and its game-win rate (games in which one of its seats won): an agent at two of four
seats that wins every game wins 50% of its seat-games, twice the fair 25%, and 100% of its
games."""

from __future__ import annotations

from analytics.views.shared import (
    LINEUPS,
    ORDER,
    clustered_rate,
    clustered_rate_columns,
    competitive,
    wilson_rate,
    wilson_rate_columns,
)
from dataset.contracts import AGENT, GROUP, Column, contract

_TESTED = f"n_players > 1 AND {competitive()}"

AGENT_STATS = f"""
SELECT experiment, variant, n_players, agent, seat_games, games, wins, draws,
       {clustered_rate('wins', 'seat_games', 'win', 'win_rate')},
       CASE WHEN {_TESTED} THEN 1.0::DOUBLE / n_players END AS fair_share,
       win_hits AS game_wins,
       {wilson_rate('win_hits', 'games', 'game_win_rate')},
       CASE WHEN {_TESTED} THEN seat_games::DOUBLE / games / n_players END AS game_fair_share,
       l.agents = 1 AS self_play
FROM agent_counts JOIN {LINEUPS} AS l USING (experiment, variant, n_players)
ORDER BY {ORDER}, agent
"""

_UNFAIR = " NULL in a cooperative experiment and for one player."
AGENT_STATS_CONTRACT = contract(
    "agent_stats", "One row per agent (and variant and player count): its win rate over the seats it held against "
    "the fair share, and over the games it played.",
    GROUP, AGENT,
    Column("seat_games", "BIGINT", "Seats the agent held, over all games (two seats of one game count twice)."),
    Column("games", "BIGINT", "Games in which the agent held at least one seat."),
    Column("wins", "BIGINT", "Seat-games the agent won."),
    Column("draws", "BIGINT", "Seat-games of the agent in drawn games (not wins)."),
    clustered_rate_columns("win_rate", "The agent's wins / its seat-games (draws count as not-a-win)", "seat-games"),
    Column("fair_share", "DOUBLE", "1/N: the win rate of a seat if no seat and no agent were favoured (draws "
           "aside), to read `win_rate` against;" + _UNFAIR),
    Column("game_wins", "BIGINT", "Games in which one of the agent's seats won (at least one)."),
    wilson_rate_columns("game_win_rate", "The agent's game wins / its games: at two of four seats, a 50% "
                        "`win_rate` may be a 100% `game_win_rate`", "games"),
    Column("game_fair_share", "DOUBLE", "The agent's seats per game / N: its `game_win_rate` if no seat and no "
           "agent were favoured (draws and ties aside);" + _UNFAIR),
    Column("self_play", "BOOLEAN", "The agent held every seat of every game: its `win_rate` is set by the lineup "
           "(1/N less the draws, more with shared wins), not by how it plays."))
