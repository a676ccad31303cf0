"""Factions (Ring of Chaos parties, Party Wanted hero classes): ``faction_stats``,
``faction_spread`` and ``matchups``. Seats without a faction are left out."""

from __future__ import annotations

from analytics.views.shared import ORDER, clustered_rate, clustered_rate_columns
from analytics.views.thresholds import FACTION_BAND
from dataset.contracts import FACTION, GROUP, Column, contract

FACTION_STATS = f"""
WITH rated AS (
    SELECT experiment, variant, n_players, faction, seat_games, games, wins,
           {clustered_rate('wins', 'seat_games', 'win', 'win_rate')},
           sum(wins) OVER w / sum(seat_games) OVER w AS expected
    FROM faction_counts
    WINDOW w AS (PARTITION BY experiment, variant, n_players)
)
SELECT *,
       abs(win_rate - expected) > {FACTION_BAND!r} AS outside_band,
       win_rate_low > expected + {FACTION_BAND!r} OR win_rate_high < expected - {FACTION_BAND!r} AS surely_outside
FROM rated
ORDER BY {ORDER}, faction
"""

_EXPECTED = ("All seats' pooled win rate at this player count, what a faction would win if none were favoured "
             "(1/N without draws; the party's win rate in a cooperative game)")
FACTION_STATS_CONTRACT = contract(
    "faction_stats", "One row per faction (and variant and player count): its win rate against the expected one.",
    GROUP, FACTION,
    Column("seat_games", "BIGINT", "Seats of the faction, over all games."),
    Column("games", "BIGINT", "Games in which the faction held at least one seat."),
    Column("wins", "BIGINT", "Seat-games of the faction that won."),
    clustered_rate_columns("win_rate", "The faction's wins / its seat-games", "seat-games"),
    Column("expected", "DOUBLE", f"{_EXPECTED}."),
    Column("outside_band", "BOOLEAN", f"|win_rate − expected| > {FACTION_BAND} (the band of ± 5 points)."),
    Column("surely_outside", "BOOLEAN", f"The whole interval of `win_rate` is outside expected ± {FACTION_BAND}."))

FACTION_SPREAD = f"""
SELECT experiment, variant, n_players,
       count(*) AS factions,
       min(win_rate) AS min_win_rate,
       max(win_rate) AS max_win_rate,
       max(win_rate) - min(win_rate) AS spread,
       stddev_pop(win_rate) AS sd,
       any_value(expected) AS expected,
       {FACTION_BAND!r}::DOUBLE AS band,
       count(*) FILTER (WHERE outside_band) AS outside_band,
       count(*) FILTER (WHERE surely_outside) AS surely_outside
FROM faction_stats
GROUP BY experiment, variant, n_players
ORDER BY {ORDER}
"""

FACTION_SPREAD_CONTRACT = contract(
    "faction_spread", "One row per variant and player count: how far apart the factions' win rates are.", GROUP,
    Column("factions", "BIGINT", "Factions that played."),
    Column("min_win_rate", "DOUBLE", "The lowest faction win rate, in [0, 1]."),
    Column("max_win_rate", "DOUBLE", "The highest faction win rate, in [0, 1]."),
    Column("spread", "DOUBLE", "max_win_rate − min_win_rate."),
    Column("sd", "DOUBLE", "Standard deviation (population) of the factions' win rates."),
    Column("expected", "DOUBLE", f"{_EXPECTED}."),
    Column("band", "DOUBLE", f"Half-width of the band around `expected`: {FACTION_BAND} (5 points)."),
    Column("outside_band", "BIGINT", "Factions whose win rate is outside expected ± band."),
    Column("surely_outside", "BIGINT", "Factions whose whole interval is outside expected ± band."))

MATCHUPS = f"""
SELECT experiment, variant, n_players, faction, opponent, seat_games, wins,
       {clustered_rate('wins', 'seat_games', 'win', 'win_rate')},
       1.0::DOUBLE / n_players AS fair_share
FROM matchup_counts
ORDER BY {ORDER}, faction, opponent
"""

MATCHUPS_CONTRACT = contract(
    "matchups", "One row per faction and opposing faction: the faction's win rate in games where the opponent "
    "sat at another seat.", GROUP, FACTION,
    Column("opponent", "VARCHAR", "The opposing faction (at another seat of the same game)."),
    Column("seat_games", "BIGINT", "Seat-games of the faction in games with the opponent (once per distinct "
           "opposing faction)."),
    Column("wins", "BIGINT", "Of those, the seat-games the faction won."),
    clustered_rate_columns("win_rate", "The faction's wins / its seat-games against the opponent", "seat-games"),
    Column("fair_share", "DOUBLE", "1/N, the win rate of a faction nobody favours (without draws)."))
