"""Cooperative experiments (``experiment_modes``): ``party_size_stats``,
``composition_stats``, ``class_effects`` and ``run_stats`` (Party Wanted's levels
and wipes). The game is the unit: the party shares one outcome."""

from __future__ import annotations

from analytics.views.shared import ORDER, normal_mean, normal_mean_columns, wilson_rate, wilson_rate_columns
from dataset.contracts import FACTION, GROUP, Column, contract

# A cooperative experiment (experiment_modes): the team tables.
_COOP = """
WITH coop AS (
    SELECT * FROM team_counts
    WHERE experiment IN (SELECT experiment FROM experiment_modes WHERE cooperative)
)
"""

PARTY_SIZE_STATS = _COOP + f"""
SELECT experiment, variant, n_players,
       sum(games)::BIGINT AS games,
       sum(wins)::BIGINT AS wins,
       {wilson_rate('sum(wins)', 'sum(games)', 'win_rate')}
FROM coop
GROUP BY experiment, variant, n_players
ORDER BY {ORDER}
"""

_PARTY = "Games the party won / games"
PARTY_SIZE_STATS_CONTRACT = contract(
    "party_size_stats", "One row per variant and party size (`n_players`) of a cooperative experiment: how often "
    "the party wins.", GROUP,
    Column("games", "BIGINT", "Games played."),
    Column("wins", "BIGINT", "Games the party won."),
    wilson_rate_columns("win_rate", _PARTY, "games"))

COMPOSITION_STATS = _COOP + f"""
SELECT experiment, variant, n_players, composition, games, wins,
       {wilson_rate('wins', 'games', 'win_rate')}
FROM coop
WHERE composition IS NOT NULL
ORDER BY {ORDER}, win_rate DESC, composition
"""

COMPOSITION_STATS_CONTRACT = contract(
    "composition_stats", "One row per party composition of a cooperative experiment: how often that party wins.",
    GROUP,
    Column("composition", "VARCHAR", "The party's hero classes (factions), sorted and joined by `+`."),
    Column("games", "BIGINT", "Games played with this party."),
    Column("wins", "BIGINT", "Games it won."),
    wilson_rate_columns("win_rate", _PARTY, "games"))

CLASS_EFFECTS = _COOP + f"""
, totals AS (
    SELECT experiment, variant, n_players, sum(games) AS games, sum(wins) AS wins
    FROM coop GROUP BY experiment, variant, n_players
), with_class AS (
    SELECT experiment, variant, n_players, unnest(list_distinct(string_split(composition, '+'))) AS faction,
           games, wins
    FROM coop WHERE composition IS NOT NULL
), counts AS (
    SELECT experiment, variant, n_players, faction,
           sum(games)::BIGINT AS games_with, sum(wins)::BIGINT AS wins_with
    FROM with_class GROUP BY experiment, variant, n_players, faction
)
SELECT c.experiment, c.variant, c.n_players, c.faction,
       c.games_with, c.wins_with, c.wins_with::DOUBLE / c.games_with AS win_rate_with,
       (t.games - c.games_with)::BIGINT AS games_without, (t.wins - c.wins_with)::BIGINT AS wins_without,
       (t.wins - c.wins_with)::DOUBLE / nullif(t.games - c.games_with, 0) AS win_rate_without,
       win_rate_with - win_rate_without AS effect,
       prop_z(t.wins - c.wins_with, t.games - c.games_with, c.wins_with, c.games_with) AS z,
       prop_p(t.wins - c.wins_with, t.games - c.games_with, c.wins_with, c.games_with) AS p_value
FROM counts AS c JOIN totals AS t USING (experiment, variant, n_players)
ORDER BY {ORDER}, effect DESC NULLS LAST, faction
"""

CLASS_EFFECTS_CONTRACT = contract(
    "class_effects", "One row per hero class (faction) of a cooperative experiment: the party's win rate with the "
    "class in it against without.", GROUP, FACTION,
    Column("games_with", "BIGINT", "Games whose party included the class."),
    Column("wins_with", "BIGINT", "Of those, the games won."),
    Column("win_rate_with", "DOUBLE", "wins_with / games_with, a rate in [0, 1] over games."),
    Column("games_without", "BIGINT", "Games whose party did not include the class."),
    Column("wins_without", "BIGINT", "Of those, the games won."),
    Column("win_rate_without", "DOUBLE", "wins_without / games_without, a rate in [0, 1] over games."),
    Column("effect", "DOUBLE", "win_rate_with − win_rate_without (0.05 = 5 points better with the class)."),
    Column("z", "DOUBLE", "Two-proportion z statistic of the difference (games are the trials)."),
    Column("p_value", "DOUBLE", "Two-sided p-value of `z`."))

RUN_STATS = f"""
WITH levels AS (
    SELECT *, max(level_reached) OVER (PARTITION BY experiment) AS top_level FROM run_counts
), runs AS (
    SELECT experiment, variant, n_players,
           sum(games)::BIGINT AS games,
           (sum(games) FILTER (WHERE won))::BIGINT AS wins,
           any_value(top_level) AS top_level,
           (sum(games) FILTER (WHERE level_reached = top_level))::BIGINT AS games_at_top_level,
           sum(games) FILTER (WHERE level_reached IS NOT NULL) AS level_games,
           sum(games * level_reached)::DOUBLE AS level_sum,
           sum(games * level_reached * level_reached)::DOUBLE AS level_sq,
           sum(games) FILTER (WHERE wipes IS NOT NULL) AS wipe_games,
           sum(games * wipes)::DOUBLE AS wipe_sum,
           sum(games * wipes * wipes)::DOUBLE AS wipe_sq,
           (sum(games) FILTER (WHERE wipes > 0))::BIGINT AS games_with_wipe
    FROM levels
    GROUP BY experiment, variant, n_players
    HAVING count(level_reached) > 0 OR count(wipes) > 0
)
SELECT experiment, variant, n_players, games, coalesce(wins, 0) AS wins,
       {wilson_rate('coalesce(wins, 0)', 'games', 'win_rate')},
       {normal_mean('level_sum', 'level_sq', 'level_games', 'mean_level', 'top_level')},
       top_level, coalesce(games_at_top_level, 0) AS games_at_top_level,
       {wilson_rate('coalesce(games_at_top_level, 0)', 'games', 'top_level_rate')},
       {normal_mean('wipe_sum', 'wipe_sq', 'wipe_games', 'wipes_per_game')},
       coalesce(games_with_wipe, 0) AS games_with_wipe,
       {wilson_rate('coalesce(games_with_wipe, 0)', 'wipe_games', 'wipe_rate')}
FROM runs
ORDER BY {ORDER}
"""

RUN_STATS_CONTRACT = contract(
    "run_stats", "One row per variant and party size of a game that records levels or wipes (Party Wanted): how far "
    "the party gets and how often it falls.", GROUP,
    Column("games", "BIGINT", "Games played."),
    Column("wins", "BIGINT", "Games the party won."),
    wilson_rate_columns("win_rate", _PARTY, "games"),
    normal_mean_columns("mean_level", "The level the party reached (`games.level_reached`)", "top_level"),
    Column("top_level", "INTEGER", "The highest level any game of the experiment reached."),
    Column("games_at_top_level", "BIGINT", "Games that reached `top_level`."),
    wilson_rate_columns("top_level_rate", "Games that reached `top_level` / games", "games"),
    normal_mean_columns("wipes_per_game", "Times the whole party fell (`games.wipes`)"),
    Column("games_with_wipe", "BIGINT", "Games in which the party fell at least once."),
    wilson_rate_columns("wipe_rate", "Games with a wipe / games", "games"))
