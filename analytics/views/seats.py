"""Seats: ``seat_stats``, ``seat_balance`` (is the first seat favoured?) and
``seat_totals`` (each agent's seat-games, what the card tables compare against)."""

from __future__ import annotations

from analytics.views.shared import ORDER, competitive, wilson_rate, wilson_rate_columns
from analytics.views.thresholds import FACTION_BAND
from dataset.contracts import AGENT, GROUP, SEAT, Column, contract

_SEAT_RATES = ("win_rate", "win_rate_low", "win_rate_high", "win_share", "win_share_low", "win_share_high",
               "fair_share")

# A seat's rates say something only where seats compete: in a cooperative game every
# seat shares the party's outcome (each seat's "share" of the wins is 1/N by
# construction) and a one-player game has one seat (share 1). There the rates are
# NULL (the counts stay), as seat_balance's tests are.
SEAT_STATS = f"""
WITH rated AS (
    SELECT experiment, variant, n_players, seat, games, wins, draws,
           {wilson_rate('wins', 'games', 'win_rate')},
           (sum(wins) OVER w)::BIGINT AS total_wins,
           {wilson_rate('wins', 'sum(wins) OVER w', 'win_share')},
           1.0::DOUBLE / n_players AS fair_share,
           n_players > 1 AND {competitive()} AS tested
    FROM seat_counts
    WINDOW w AS (PARTITION BY experiment, variant, n_players)
)
SELECT experiment, variant, n_players, seat, games, wins, draws,
       {', '.join(f'CASE WHEN tested THEN {name} END AS {name}' for name in _SEAT_RATES[:3])},
       total_wins,
       {', '.join(f'CASE WHEN tested THEN {name} END AS {name}' for name in _SEAT_RATES[3:])}
FROM rated
ORDER BY {ORDER}, seat
"""

_UNTESTED = " NULL in a cooperative experiment and for one player."
SEAT_STATS_CONTRACT = contract(
    "seat_stats", "One row per seat (and variant and player count): how often the seat wins, and its share of all "
    "wins against the fair share 1/N.", GROUP, SEAT,
    Column("games", "BIGINT", "Games played at this player count (each has every seat)."),
    Column("wins", "BIGINT", "Games this seat won."),
    Column("draws", "BIGINT", "Drawn games (nobody won)."),
    wilson_rate_columns("win_rate", "The seat's wins / games (draws count as not-a-win);" + _UNTESTED, "games"),
    Column("total_wins", "BIGINT", "Wins of all seats at this player count (draws have none)."),
    wilson_rate_columns("win_share", "The seat's wins / all seats' wins;" + _UNTESTED, "wins"),
    Column("fair_share", "DOUBLE", "1/N, the share of the wins each seat would have if no seat were favoured;"
           + _UNTESTED))


def seat_balance() -> str:
    # Window functions cannot nest inside aggregates; compute the expected
    # count per row first. Seat tests say nothing in a cooperative game
    # (every seat shares the outcome): NULL there.
    return f"""
WITH expected AS (
    SELECT *, total_wins::DOUBLE / n_players AS expected_wins,
           n_players > 1 AND {competitive()} AS tested
    FROM seat_stats
)
SELECT experiment, variant, n_players,
       max(games) AS games,
       max(total_wins) AS total_wins,
       CASE WHEN bool_and(tested) THEN CASE WHEN max(expected_wins) > 0
            THEN sum((wins - expected_wins) ** 2 / expected_wins) ELSE 0.0 END END AS chi2,
       CASE WHEN bool_and(tested) THEN n_players - 1 END AS df,
       CASE WHEN bool_and(tested) THEN chi2_sf(chi2, n_players - 1) END AS p_value,
       CASE WHEN bool_and(tested) THEN max(win_share) FILTER (WHERE seat = 0) END AS first_seat_share,
       CASE WHEN bool_and(tested) THEN first_seat_share - 1.0 / n_players END AS first_seat_advantage,
       CASE WHEN bool_and(tested) THEN max(win_share_low) FILTER (WHERE seat = 0) - 1.0 / n_players END
           AS first_seat_advantage_low,
       CASE WHEN bool_and(tested) THEN max(win_share_high) FILTER (WHERE seat = 0) - 1.0 / n_players END
           AS first_seat_advantage_high,
       CASE WHEN bool_and(tested) THEN abs(first_seat_advantage) > {FACTION_BAND!r} END AS outside_band,
       CASE WHEN bool_and(tested) THEN first_seat_advantage_low > {FACTION_BAND!r}
            OR first_seat_advantage_high < -{FACTION_BAND!r} END AS surely_outside
FROM expected
GROUP BY experiment, variant, n_players
ORDER BY {ORDER}
"""


_ADVANTAGE = "the 95% Wilson interval of seat 0's win share (over wins), minus 1/N"
SEAT_BALANCE_CONTRACT = contract(
    "seat_balance", "One row per variant and player count: do the seats win equally often? A chi-square test of "
    "the seats' wins and the first seat's advantage. NULL in a cooperative experiment and for one player.", GROUP,
    Column("games", "BIGINT", "Games played."),
    Column("total_wins", "BIGINT", "Wins of all seats (draws have none)."),
    Column("chi2", "DOUBLE", "Pearson's chi-square of the seats' wins against an equal share, total_wins / N "
           "each."),
    Column("df", "TINYINT", "Degrees of freedom of `chi2`: N − 1."),
    Column("p_value", "DOUBLE", "P-value of `chi2` (chi-square on `df` degrees of freedom): how likely seats this "
           "uneven are if no seat is favoured."),
    Column("first_seat_share", "DOUBLE", "Seat 0's share of the wins, a rate in [0, 1]."),
    Column("first_seat_advantage", "DOUBLE", "Seat 0's share of the wins minus 1/N (in [−1, 1]; 0.05 = 5 points "
           "above fair)."),
    Column("first_seat_advantage_low", "DOUBLE", f"Low end of {_ADVANTAGE}."),
    Column("first_seat_advantage_high", "DOUBLE", f"High end of {_ADVANTAGE}."),
    Column("outside_band", "BOOLEAN", f"|first_seat_advantage| > {FACTION_BAND} (the band of ± 5 points)."),
    Column("surely_outside", "BOOLEAN", "The whole interval of `first_seat_advantage` is outside ± "
           f"{FACTION_BAND}."))

SEAT_TOTALS = f"""
SELECT experiment, variant, n_players, agent, sum(seat_games)::BIGINT AS seat_games, sum(wins)::BIGINT AS seat_wins
FROM agent_counts GROUP BY experiment, variant, n_players, agent
ORDER BY {ORDER}, agent
"""

SEAT_TOTALS_CONTRACT = contract(
    "seat_totals", "One row per agent: the seats it held and won, what `card_stats` compares a card's games "
    "against.", GROUP, AGENT,
    Column("seat_games", "BIGINT", "Seats the agent held, over all games."),
    Column("seat_wins", "BIGINT", "Of those, the seat-games the agent won."))
