"""The balance metrics as DuckDB views, defined once for SQL, Python and the report.

``register_metric_views(con)`` defines, on a connection that already has the
base views ``games``, ``players`` and ``cards`` (``analytics.catalog``), one
view per metric table. ``analytics.metrics`` reads them into Polars,
``cardlab report`` prints them and ``cardlab sql`` (or the plain ``duckdb``
client on a catalog file, ``analytics.catalog_file``) queries them. Every
view starts with ``experiment, variant, n_players`` so the same SQL works over
one experiment or all of them; a game is identified by (experiment, variant,
n_players, game_index). Nothing here knows a game by name: the only
per-game input is which optional columns exist (card counters such as
``in_opening_hand``, ``drawn``, ``played``, ``playable``; the games columns
``legal_actions``, ``level_reached``, ``wipes``).

Two layers: the *count views* (``dataset.count_views``) are additive aggregates of
the rows, and the metric views read only them (``variant_deltas`` also reads
the rows for the paired tests). So the report can count each shard once,
cache the counts and add them up (``analytics.partials``) instead of
scanning every row each time.

Every metric, its formula, its unit of evidence and when it is flagged is
defined once, in ``analytics/README.md`` ("Metrics"). In short:

- the unit of evidence is the **game**. A rate over seat-games (an agent at
  several seats, a card in several hands, a faction, a cooperative party)
  carries a *clustered* interval: the count views keep, per rate, the sums
  over games of ``n_g``, ``w_g``, ``n_g²``, ``w_g²`` and ``n_g·w_g``, from
  which ``clustered_n`` (``analytics.stats.clustered_effective_n``) gives the
  effective number of independent trials and the Wilson interval is taken
  at that size (``<rate>_effective_n``, ``<rate>_low``, ``<rate>_high``);
- card tables are per agent (the agent holding the seat), never a pool of
  different players;
- in a cooperative experiment (no game where some seats win and others
  lose; ``experiment_modes``) seat tests are left out and every rate counts
  games.
"""

from __future__ import annotations

import duckdb

from analytics.stats import PRIOR_COARSE_STEP, PRIOR_FINE_STEP, PRIOR_GRID_HIGH, PRIOR_GRID_LOW, PRIOR_TOLERANCE, Z95
from dataset.count_views import GAME_KEY, Columns, card_counts_sql, count_view_sql
from dataset.quoting import sql_string

TURN_CAP_REASONS = ("turn_cap", "round_cap", "turn_limit", "max_turns", "round_limit")
"""End reasons that mean "stopped by the turn cap", not a real end of the game."""

FACTION_BAND = 0.05
"""Half-width of the target band around the expected faction (and seat) win rate."""

CARD_BAND = 0.10
"""Half-width of the target band of a card's GIH win rate around its agent's card mean."""

OUTLIER_Z = 3.0
"""``|z_score|`` from which a card is flagged as an outlier..."""

OUTLIER_POINTS = 0.02
"""...when its GIH win rate is also at least this far from its agent's card mean (with
100,000 games in hand, a 0.5-point difference has |z| > 3 but matters to nobody)."""

CARD_MIN_EXPECTED = 5.0
"""A card is flagged (``outlier``, ``surely_outside``) only on enough evidence: at its agent's
card mean ``m``, its games in hand (``gih_win_rate_effective_n``, ``n``) would hold at least
this many wins and this many losses, ``n·m >= 5`` and ``n·(1 − m) >= 5`` (the textbook
condition for the normal approximation that ``z_score`` and the interval rest on). A card
held in one game cannot stand out: where the agent wins 95% of its games, 0 wins in 1 game
happen 5% of the time and gave |z| = 4.5; with hundreds of cards, dozens such. There a card
needs 100 games in hand (5 expected losses); where it wins half, 10."""

SIGNIFICANCE = 0.05
"""False discovery rate at which a variant delta is called significant."""

NEVER_PLAYED = "never played by this agent: its numbers describe the agent, not the card"
"""What a card row flagged ``never_played`` means."""

METRIC_VIEWS = (
    "experiment_modes", "seat_stats", "seat_balance", "agent_stats", "faction_stats", "faction_spread", "matchups",
    "party_size_stats", "composition_stats", "class_effects", "run_stats", "seat_totals", "card_stats",
    "card_faction_stats", "card_turn_stats", "game_stats", "end_reason_stats", "turn_distribution",
    "variant_deltas",
    "seat_counts", "agent_counts", "faction_counts", "matchup_counts", "team_counts", "card_counts",
    "card_turn_counts", "run_counts", "game_counts",
)

ORDER = "experiment, (variant <> 'baseline'), variant, n_players"


def _rate(wins: str, n: str, name: str) -> str:
    """A rate over independent trials (games) with its 95% Wilson interval."""
    return (f"{wins}::DOUBLE / nullif({n}, 0) AS {name}, wilson_low({wins}, {n}) AS {name}_low, "
            f"wilson_high({wins}, {n}) AS {name}_high")


def _mean(total: str, squares: str, n: str, name: str, highest: str | None = None) -> str:
    """A mean over games of a count that cannot be negative (levels, wipes) from its sums, with a
    normal 95% interval (``normal_z()``) (``name``, ``_low``, ``_high``) clamped to the values the count can take:
    its low end at 0 and, when ``highest`` (SQL) is given, its high end there (no game's level is
    above the last one, so neither is their mean: 3.94 [3.85, 4.03] is 3.94 [3.85, 4.00])."""
    mean = f"({total} / nullif({n}, 0))"
    se = f"sqrt(greatest(0.0, {squares} / nullif({n}, 0) - {mean} * {mean}) / nullif({n} - 1, 0))"
    high = f"{mean} + normal_z() * {se}"  # normal_z(): 95%, or the level a balance search asks for
    if highest is not None:
        high = f"least({highest}, {high})"
    return (f"{mean} AS {name}, greatest(0.0, {mean} - normal_z() * {se}) AS {name}_low, "
            f"{high} AS {name}_high")



def clustered_rate(wins: str, n: str, prefix: str, name: str, table: str = "") -> str:
    """SQL: a rate over clustered seat-games (``name`` = wins / n) with its effective n
    and 95% Wilson interval at that n (the rate itself when fixed: ``clustered_low``).

    ``prefix`` names the cluster sums ``<prefix>_n_sq``, ``_w_sq``, ``_nw`` and
    ``_clusters`` (``cluster_sums``; plain ``n_sq``... for an empty prefix), read
    from ``table.`` when given."""
    sums = f"{table}." if table else ""
    sums += f"{prefix}_" if prefix else ""
    effective = f"clustered_n({n}, {wins}, {sums}n_sq, {sums}w_sq, {sums}nw, {sums}clusters)"
    return (f"{wins}::DOUBLE / nullif({n}, 0) AS {name}, {effective} AS {name}_effective_n, "
            f"clustered_low({name}, {name}_effective_n, {n}) AS {name}_low, "
            f"clustered_high({name}, {name}_effective_n, {n}) AS {name}_high")




# ------------------------------------------------------------------ modes

# A cooperative experiment: no game of it where some seats win and others
# lose, and no draw (a cooperative loss is no draw: records.py). A competitive
# game has a winner (a mixed game) or is a draw.
EXPERIMENT_MODES = """
SELECT experiment, sum(mixed) = 0 AND sum(draws) = 0 AS cooperative
FROM team_counts
GROUP BY experiment
ORDER BY experiment
"""

def _competitive(alias: str = "") -> str:
    """SQL: the row's experiment is competitive (``experiment_modes``)."""
    column = f"{alias}.experiment" if alias else "experiment"
    return f"{column} IN (SELECT experiment FROM experiment_modes WHERE NOT cooperative)"

# ------------------------------------------------------------------ seats


_SEAT_RATES = ("win_rate", "win_rate_low", "win_rate_high", "win_share", "win_share_low", "win_share_high",
               "fair_share")

# A seat's rates say something only where seats compete: in a cooperative game every
# seat shares the party's outcome (each seat's "share" of the wins is 1/N by
# construction) and a one-player game has one seat (share 1). There the rates are
# NULL (the counts stay), as seat_balance's tests are.
SEAT_STATS = f"""
WITH rated AS (
    SELECT experiment, variant, n_players, seat, games, wins, draws,
           {_rate('wins', 'games', 'win_rate')},
           (sum(wins) OVER w)::BIGINT AS total_wins,
           {_rate('wins', 'sum(wins) OVER w', 'win_share')},
           1.0::DOUBLE / n_players AS fair_share,
           n_players > 1 AND {_competitive()} AS tested
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


def _seat_balance() -> str:
    # Window functions cannot nest inside aggregates; compute the expected
    # count per row first. Seat tests say nothing in a cooperative game
    # (every seat shares the outcome): NULL there.
    return f"""
WITH expected AS (
    SELECT *, total_wins::DOUBLE / n_players AS expected_wins,
           n_players > 1 AND {_competitive()} AS tested
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


AGENT_STATS = f"""
SELECT experiment, variant, n_players, agent, seat_games, games, wins, draws,
       {clustered_rate('wins', 'seat_games', 'win', 'win_rate')}
FROM agent_counts
ORDER BY {ORDER}, agent
"""

# ------------------------------------------------------------------ factions

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

MATCHUPS = f"""
SELECT experiment, variant, n_players, faction, opponent, seat_games, wins,
       {clustered_rate('wins', 'seat_games', 'win', 'win_rate')},
       1.0::DOUBLE / n_players AS fair_share
FROM matchup_counts
ORDER BY {ORDER}, faction, opponent
"""

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
       {_rate('sum(wins)', 'sum(games)', 'win_rate')}
FROM coop
GROUP BY experiment, variant, n_players
ORDER BY {ORDER}
"""

COMPOSITION_STATS = _COOP + f"""
SELECT experiment, variant, n_players, composition, games, wins,
       {_rate('wins', 'games', 'win_rate')}
FROM coop
WHERE composition IS NOT NULL
ORDER BY {ORDER}, win_rate DESC, composition
"""

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
       {_rate('coalesce(wins, 0)', 'games', 'win_rate')},
       {_mean('level_sum', 'level_sq', 'level_games', 'mean_level', 'top_level')},
       top_level, coalesce(games_at_top_level, 0) AS games_at_top_level,
       {_rate('coalesce(games_at_top_level, 0)', 'games', 'top_level_rate')},
       {_mean('wipe_sum', 'wipe_sq', 'wipe_games', 'wipes_per_game')},
       coalesce(games_with_wipe, 0) AS games_with_wipe,
       {_rate('coalesce(games_with_wipe, 0)', 'wipe_games', 'wipe_rate')}
FROM runs
ORDER BY {ORDER}
"""

# ------------------------------------------------------------------ cards

SEAT_TOTALS = f"""
SELECT experiment, variant, n_players, agent, sum(seat_games)::BIGINT AS seat_games, sum(wins)::BIGINT AS seat_wins
FROM agent_counts GROUP BY experiment, variant, n_players, agent
ORDER BY {ORDER}, agent
"""


FACTION_SEAT_TOTALS = """(
    SELECT experiment, variant, n_players, agent, faction, count(*) AS seat_games,
           count(*) FILTER (WHERE won) AS seat_wins
    FROM players WHERE faction IS NOT NULL GROUP BY ALL)"""


def _prior_grid(low: float, high: float, step: float) -> str:
    count = round((high - low) / step)
    return f"SELECT {low!r} + i * {step!r} AS x FROM range(0, {count + 1}) AS t(i)"


def card_stats_sql(counts: str = "card_counts", extra_key: str = "", totals: str = "seat_totals") -> str:
    """``card_stats`` over the count view ``counts``, per agent (and ``extra_key``), with the
    seat-games and wins of each agent (and ``extra_key``) from ``totals``.

    The beta prior of the shrunk win rate is fitted per (experiment, variant,
    n_players, agent[, extra_key]) by marginal likelihood, in two grid passes
    over ``log10`` of its strength, as ``analytics.stats.beta_binomial_prior``."""
    group = f"experiment, variant, n_players, agent{', ' + extra_key if extra_key else ''}"

    def likelihood(grid: str) -> str:
        # Σ lnB(w + ms, n − w + (1 − m)s) − lnB(ms, (1 − m)s) over the cards at each point x = log10 s
        # of ``grid`` (a relation of the group's columns and x).
        return f"""
        SELECT {group}, x,
               sum(lgamma(b.wins_in_hand + p.m * 10 ** x)
                   + lgamma(b.games_in_hand - b.wins_in_hand + (1 - p.m) * 10 ** x)
                   - lgamma(b.games_in_hand + 10 ** x)
                   - lgamma(p.m * 10 ** x) - lgamma((1 - p.m) * 10 ** x) + lgamma(10 ** x)) AS log_likelihood
        FROM base AS b JOIN fitted AS p USING ({group}) JOIN ({grid}) AS grid USING ({group})
        WHERE b.games_in_hand > 0
        GROUP BY {group}, x"""

    coarse = (f"SELECT {group}, grid.x FROM fitted CROSS JOIN "
              f"({_prior_grid(PRIOR_GRID_LOW, PRIOR_GRID_HIGH, PRIOR_COARSE_STEP)}) AS grid")
    fine = (f"SELECT {group}, best_x + offsets.x AS x FROM coarse_best CROSS JOIN "
            f"({_prior_grid(-PRIOR_COARSE_STEP, PRIOR_COARSE_STEP, PRIOR_FINE_STEP)}) AS offsets")
    # Ties go to the smaller strength, as in the Python twin.
    evidence = f"least(s.m, 1 - s.m) * gih_win_rate_effective_n >= {CARD_MIN_EXPECTED!r}"
    return f"""
WITH base AS (
    SELECT c.*, t.seat_games, t.seat_wins
    FROM {counts} AS c JOIN {totals} AS t USING ({group})
), prior AS (
    SELECT {group}, count(*) AS cards, sum(wins_in_hand)::DOUBLE / sum(games_in_hand) AS m
    FROM base WHERE games_in_hand > 0
    GROUP BY {group}
), fitted AS (
    SELECT * FROM prior WHERE cards >= 2 AND m > 0 AND m < 1
), coarse_fit AS ({likelihood(coarse)}
), coarse_best AS (
    SELECT {group}, arg_max(x, (log_likelihood, -x)) AS best_x, max(log_likelihood) AS best,
           max(log_likelihood) FILTER (WHERE x = (SELECT max(x) FROM coarse_fit)) AS at_top
    FROM coarse_fit GROUP BY {group}
), fine_fit AS ({likelihood(fine)}
), fine_best AS (
    SELECT {group}, arg_max(x, (log_likelihood, -x)) AS best_x FROM fine_fit GROUP BY {group}
), strength AS (
    -- Not identified (NULL) when the top of the grid (the cards alike) fits as well as the best.
    SELECT p.{group.replace(', ', ', p.')}, p.m, p.cards,
           CASE WHEN cb.best > cb.at_top + {PRIOR_TOLERANCE!r} THEN 10 ** fb.best_x END AS prior_strength
    FROM prior AS p LEFT JOIN coarse_best AS cb USING ({group}) LEFT JOIN fine_best AS fb USING ({group})
)
SELECT b.experiment, b.variant, b.n_players, b.agent,{' b.' + extra_key + ',' if extra_key else ''} b.card,
       b.games_in_hand, b.wins_in_hand,
       {clustered_rate('b.wins_in_hand', 'b.games_in_hand', 'gih', 'gih_win_rate', 'b')},
       b.seat_games - b.games_in_hand AS games_not_seen,
       b.seat_wins - b.wins_in_hand AS wins_not_seen,
       (b.seat_wins - b.wins_in_hand)::DOUBLE / nullif(b.seat_games - b.games_in_hand, 0) AS gns_win_rate,
       gih_win_rate - gns_win_rate AS iwd,
       b.games_opening, b.wins_opening::DOUBLE / nullif(b.games_opening, 0) AS oh_win_rate,
       b.games_drawn_later, b.wins_drawn_later::DOUBLE / nullif(b.games_drawn_later, 0) AS gd_win_rate,
       b.games_played, b.wins_played,
       {clustered_rate('b.wins_played', 'b.games_played', 'played', 'played_win_rate', 'b')},
       b.games_played_in_hand,
       {clustered_rate('b.games_played_in_hand', 'b.games_in_hand', 'play', 'play_rate', 'b')},
       b.games_playable, b.games_played_when_playable,
       {clustered_rate('b.games_played_when_playable', 'b.games_playable', 'playable', 'playable_play_rate', 'b')},
       b.times_drawn, b.times_played, b.times_playable,
       b.sum_turn_played::DOUBLE / nullif(b.n_turn_played, 0) AS mean_turn_played,
       s.m AS card_mean,
       s.prior_strength,
       s.prior_strength IS NOT NULL AS prior_identified,
       CASE WHEN s.prior_strength IS NOT NULL THEN sqrt(s.m * (1 - s.m) / (s.prior_strength + 1)) ELSE 0.0 END
           AS card_spread,
       CASE WHEN b.games_in_hand = 0 THEN NULL
            WHEN s.prior_strength IS NULL THEN s.m
            ELSE (b.wins_in_hand + s.m * s.prior_strength) / (b.games_in_hand + s.prior_strength)
       END AS shrunk_win_rate,
       CASE WHEN b.games_in_hand > 0 AND s.m > 0 AND s.m < 1
            THEN (gih_win_rate - s.m) / sqrt(s.m * (1 - s.m) / gih_win_rate_effective_n) END AS z_score,
       -- Flags need evidence (CARD_MIN_EXPECTED): n·m and n·(1 − m) both at least 5.
       coalesce({evidence} AND abs(z_score) >= {OUTLIER_Z!r} AND abs(gih_win_rate - s.m) >= {OUTLIER_POINTS!r},
                FALSE) AS outlier,
       coalesce({evidence} AND (gih_win_rate_low > s.m + {CARD_BAND!r} OR gih_win_rate_high < s.m - {CARD_BAND!r}),
                FALSE) AS surely_outside,
       -- Where the game records `playable` (some card of the experiment was playable), a card
       -- never playable by any agent of the experiment (an event the rules resolve) is not
       -- "never played": that says nothing about the agent. One some agent could play is, for
       -- an agent that held it and never played it, even if that agent never made it playable
       -- (a Theseus card it never brings into its Party). Without the counter, in hand is the test.
       CASE WHEN max(b.games_playable) OVER (PARTITION BY b.experiment) > 0
            THEN b.games_in_hand + b.games_playable > 0 AND b.games_played = 0
                 AND max(b.games_playable) OVER (PARTITION BY b.experiment, b.card) > 0
            ELSE b.games_in_hand > 0 AND b.games_played = 0 END AS never_played
FROM base AS b LEFT JOIN strength AS s USING ({group})
ORDER BY {ORDER}, agent,{' ' + extra_key + ',' if extra_key else ''} shrunk_win_rate DESC NULLS LAST,
         gih_win_rate DESC NULLS LAST, card
"""


CARD_TURN_STATS = f"""
SELECT experiment, variant, n_players, agent, card, first_played_turn, games_played, wins_played,
       {clustered_rate('wins_played', 'games_played', 'played', 'played_win_rate')}
FROM card_turn_counts
ORDER BY {ORDER}, agent, card, first_played_turn
"""

# ------------------------------------------------------------------ games

_GAME_GROUP = "experiment, variant, n_players"


def _histogram_quantile(column: str, p: float) -> str:
    """``quantile_cont(column, p)`` from the ``game_counts`` histogram: linear
    interpolation between the order statistics at ``floor(h)`` and ``floor(h) + 1``,
    ``h = p·(n − 1)``, as DuckDB's ``quantile_cont`` and numpy's default."""
    return f"""(
    SELECT {_GAME_GROUP}, lo::DOUBLE + (position - floor(position)) * (hi - lo) AS q
    FROM (
        SELECT {_GAME_GROUP}, any_value(position) AS position,
               min({column}) FILTER (WHERE cumulative > floor(position)) AS lo,
               min({column}) FILTER (WHERE cumulative > least(floor(position) + 1, total - 1)) AS hi
        FROM (
            SELECT {_GAME_GROUP}, {column},
                   sum(games) OVER (PARTITION BY {_GAME_GROUP} ORDER BY {column}) AS cumulative,
                   sum(games) OVER (PARTITION BY {_GAME_GROUP}) AS total,
                   {p!r}::DOUBLE * (sum(games) OVER (PARTITION BY {_GAME_GROUP}) - 1) AS position
            FROM (SELECT {_GAME_GROUP}, {column}, sum(games) AS games FROM game_counts
                  GROUP BY {_GAME_GROUP}, {column})
        )
        GROUP BY {_GAME_GROUP}
    ))"""


def _game_stats() -> str:
    caps = ", ".join(sql_string(reason) for reason in TURN_CAP_REASONS)
    quantiles = [("turns", 0.1, "p10_turns"), ("turns", 0.5, "p50_turns"), ("turns", 0.9, "p90_turns"),
                 ("decisions", 0.5, "p50_decisions")]
    joins = "".join(
        f"\nJOIN {_histogram_quantile(column, p)} AS {name}_q USING ({_GAME_GROUP})" for column, p, name in quantiles)
    return f"""
WITH counts AS (
    SELECT {_GAME_GROUP},
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
    GROUP BY {_GAME_GROUP}
)
SELECT experiment, variant, n_players, games, mean_turns, sd_turns, min_turns,
       p10_turns_q.q AS p10_turns, p50_turns_q.q AS p50_turns, p90_turns_q.q AS p90_turns,
       max_turns, mean_decisions, sd_decisions, p50_decisions_q.q AS p50_decisions, mean_legal_actions,
       coalesce(draws, 0) AS draws, {_rate('coalesce(draws, 0)', 'games', 'draw_rate')},
       coalesce(turn_cap_games, 0) AS turn_cap_games,
       {_rate('coalesce(turn_cap_games, 0)', 'games', 'turn_cap_rate')}
FROM counts{joins}
ORDER BY {ORDER}
"""


END_REASON_STATS = f"""
SELECT experiment, variant, n_players, end_reason,
       sum(games)::BIGINT AS games,
       {_rate('sum(games)', 'sum(sum(games)) OVER (PARTITION BY experiment, variant, n_players)', 'share')}
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

# ------------------------------------------------------------------ variants
#
# Every row of variant_deltas compares one rate (or mean) of a variant with
# the baseline's at the same player count. Unpaired rates: the pooled z-test
# at the effective sample sizes (plain counts for games and seats), and
# Newcombe's interval of the difference from the two Wilson intervals. Paired
# (the variant played on the baseline's seeds): per game g, d_g = variant
# wins − baseline wins over its matched seat-games; the clustered McNemar
# statistic (|Σd| − 1)²/Σd² and Newcombe's hybrid score interval for paired
# data: the same two Wilson intervals, joined with the correlation φ of the
# two rates over the matched games (analytics.stats.paired_difference). Not
# Δ ± z·sqrt(Σ(d_g − Δ·n_g)²)/n: that one is [0, 0] when no pair is
# discordant, as if zero discordant pairs proved the rates equal. Means: Welch.


def _paired_counts(key: str, paired: bool | None) -> str:
    """Per (variant, player count, key), over seat-games played on the same seed
    in baseline and variant: the per-game sums of the paired differences."""
    # Per side (a: the baseline's wins x_g, b: the variant's y_g) the sums of its
    # cluster_spread, for the correlation of the paired interval (paired_phi).
    sides = ", ".join(f"0::BIGINT AS sum_{side}, 0::BIGINT AS sum_{side}2, 0::BIGINT AS sum_n{side}"
                      for side in "ab")
    if paired is False:
        return f"""
    SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players,
           NULL::VARCHAR AS key, 0::BIGINT AS pairs, 0::BIGINT AS sum_d, 0::BIGINT AS sum_d2,
           0::BIGINT AS sum_nd, 0::BIGINT AS sum_n2, {sides}
    WHERE FALSE"""
    return f"""
    SELECT experiment, variant, n_players, key, sum(n)::BIGINT AS pairs, sum(d)::BIGINT AS sum_d,
           sum(d * d)::BIGINT AS sum_d2, sum(n * d)::BIGINT AS sum_nd, sum(n * n)::BIGINT AS sum_n2,
           sum(x)::BIGINT AS sum_a, sum(x * x)::BIGINT AS sum_a2, sum(n * x)::BIGINT AS sum_na,
           sum(y)::BIGINT AS sum_b, sum(y * y)::BIGINT AS sum_b2, sum(n * y)::BIGINT AS sum_nb
    FROM (
        SELECT v.experiment, v.variant, v.n_players, v.game_index, v.{key}::VARCHAR AS key,
               count(*) AS n, sum(v.won::INTEGER - b.won::INTEGER) AS d,
               sum(b.won::INTEGER) AS x, sum(v.won::INTEGER) AS y
        FROM players AS v
        JOIN games AS gv USING ({GAME_KEY})
        JOIN games AS gb ON gb.experiment = v.experiment AND gb.variant = 'baseline'
             AND gb.n_players = v.n_players AND gb.game_index = v.game_index AND gb.seed = gv.seed
        JOIN players AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
             AND b.game_index = v.game_index AND b.seat = v.seat AND b.{key} IS NOT DISTINCT FROM v.{key}
        WHERE v.variant <> 'baseline' AND v.{key} IS NOT NULL
        GROUP BY ALL
    )
    GROUP BY ALL"""


def _paired_games(paired: bool | None) -> str:
    """Seed-matched game pairs per variant, and the discordant pairs of draws,
    turn-cap endings and (cooperative) team wins."""
    caps = ", ".join(sql_string(reason) for reason in TURN_CAP_REASONS)
    if paired is False:
        return """
    SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players, 0::BIGINT AS pairs,
           0::BIGINT AS draw_b, 0::BIGINT AS draw_v, 0::BIGINT AS cap_b, 0::BIGINT AS cap_v,
           0::BIGINT AS team_b, 0::BIGINT AS team_v
    WHERE FALSE"""
    return f"""
    SELECT v.experiment, v.variant, v.n_players, count(*) AS pairs,
           count(*) FILTER (WHERE b.draw AND NOT v.draw) AS draw_b,
           count(*) FILTER (WHERE v.draw AND NOT b.draw) AS draw_v,
           count(*) FILTER (WHERE b.end_reason IN ({caps}) AND v.end_reason NOT IN ({caps})) AS cap_b,
           count(*) FILTER (WHERE v.end_reason IN ({caps}) AND b.end_reason NOT IN ({caps})) AS cap_v,
           count(*) FILTER (WHERE len(b.winners) > 0 AND len(v.winners) = 0) AS team_b,
           count(*) FILTER (WHERE len(v.winners) > 0 AND len(b.winners) = 0) AS team_v
    FROM games AS v
    JOIN games AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.game_index = v.game_index AND b.seed = v.seed
    WHERE v.variant <> 'baseline'
    GROUP BY ALL"""


DELTA_SOURCES = ("seat_stats", "agent_stats", "faction_stats", "card_stats", "game_stats", "party_size_stats")
"""The metric views ``variant_deltas`` compares. Each is computed once per query (a
materialized CTE, ``_once``): inlined, DuckDB binds and optimises a view at each of its
references, and planning the card and game families then took several times longer
than running them."""


def _once(view: str) -> str:
    """The name of ``variant_deltas``'s materialized copy of the metric view ``view``."""
    return f"{view}_once"


_DELTA_COLUMNS = ("experiment, variant, n_players, family, agent, key, metric, baseline_value, value, baseline_n, n, "
                  "baseline_effective_n, effective_n, test, statistic, delta_low, delta_high")


def _newcombe(metric: str, phi: str = "0.0") -> tuple[str, str]:
    """SQL: Newcombe's interval of ``v.metric − b.metric`` from their ``_low``/``_high`` columns
    (``analytics.stats.newcombe_difference``); paired with the correlation ``phi`` (SQL)."""
    rates = (f"b.{metric}, b.{metric}_low, b.{metric}_high, "
             f"v.{metric}, v.{metric}_low, v.{metric}_high, phi := {phi}")
    return f"newcombe_low({rates})", f"newcombe_high({rates})"


def _paired_statistic(sum_d: str, sum_d2: str) -> str:
    return f"CASE WHEN {sum_d2} > 0 THEN (abs({sum_d}) - 1.0) ** 2 / {sum_d2} ELSE 0.0 END"


def _paired_interval(metric: str, pairs: str, sum_n2: str, baseline: tuple[str, str, str],
                     variant: tuple[str, str, str], sum_d2: str) -> tuple[str, str]:
    """SQL: the paired interval of ``v.metric − b.metric`` (``analytics.stats.paired_difference``):
    Newcombe's from the two rates' own intervals (the view's columns: every seat-game of
    both is matched when the paired test is used, so they are the matched games' rates)
    and their correlation over the matched games, from the per-game sums ``baseline`` and
    ``variant`` (``Σw_g``, ``Σw_g²``, ``Σn_g·w_g`` of each side's wins) and ``sum_d2``
    (``Σd_g²`` of the differences)."""
    def spread(sums: tuple[str, str, str]) -> str:
        return f"cluster_spread({pairs}, {sums[0]}, {sum_n2}, {sums[1]}, {sums[2]})"

    difference = (f"({variant[0]} - {baseline[0]})", sum_d2, f"({variant[2]} - {baseline[2]})")
    return _newcombe(metric, f"paired_phi({spread(baseline)}, {spread(variant)}, {spread(difference)})")


def _proportion_family(family: str, source: str, key: str, n: str, rate: str, effective: str,
                       paired: bool | None) -> str:
    """Rows of ``variant_deltas`` for one win-rate family (seat, agent, faction).

    ``source`` is the relation read (the family's ``_once`` copy); ``effective`` its
    effective-n column (or ``n`` for independent seat-games)."""
    low, high = _paired_interval(rate, "pc.pairs", "pc.sum_n2", ("pc.sum_a", "pc.sum_a2", "pc.sum_na"),
                                 ("pc.sum_b", "pc.sum_b2", "pc.sum_nb"), "pc.sum_d2")
    unpaired_low, unpaired_high = _newcombe(rate)
    mcnemar = f"pc.pairs IS NOT NULL AND pc.pairs = v.{n} AND pc.pairs = b.{n}"
    # Seat tests say nothing in a cooperative game: every seat shares the outcome.
    competitive = f" AND {_competitive('v')}" if family == "seat" else ""
    return f"""
    SELECT v.experiment, v.variant, v.n_players, '{family}' AS family,
           {'v.agent' if key == 'agent' else 'NULL::VARCHAR'} AS agent, v.{key}::VARCHAR AS key,
           '{rate}' AS metric, b.{rate} AS baseline_value, v.{rate} AS value, b.{n} AS baseline_n, v.{n} AS n,
           b.{effective}::DOUBLE AS baseline_effective_n, v.{effective}::DOUBLE AS effective_n,
           CASE WHEN {mcnemar} THEN 'mcnemar' ELSE 'z' END AS test,
           CASE WHEN {mcnemar} THEN {_paired_statistic('pc.sum_d', 'pc.sum_d2')}
                ELSE prop_z(coalesce(b.{rate}, 0) * baseline_effective_n, baseline_effective_n,
                            coalesce(v.{rate}, 0) * effective_n, effective_n) END AS statistic,
           CASE WHEN {mcnemar} THEN {low} ELSE {unpaired_low} END AS delta_low,
           CASE WHEN {mcnemar} THEN {high} ELSE {unpaired_high} END AS delta_high
    FROM {source} AS v
    JOIN {source} AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.{key} = v.{key}
    LEFT JOIN ({_paired_counts(key, paired)}) AS pc
         ON pc.experiment = v.experiment AND pc.variant = v.variant AND pc.n_players = v.n_players
         AND pc.key = v.{key}::VARCHAR
    WHERE v.variant <> 'baseline'{competitive} AND NOT {_both_fixed(rate)}"""


def _both_fixed(rate: str) -> str:
    """SQL: whether ``rate`` is fixed in both the variant (``v``) and the baseline (``b``):
    intervals of no width (``clustered_low``), such as one agent in every seat winning
    1/N in both. Their difference is not a test (nothing in it is sampled), so it gets
    no row, and no place in its family's Benjamini-Hochberg count."""
    return (f"coalesce(v.{rate}_low = v.{rate}_high AND b.{rate}_low = b.{rate}_high, FALSE)")


CARD_DELTA_RATES = {"gih_win_rate": ("gih", "games_in_hand"), "played_win_rate": ("played", "games_played"),
                    "play_rate": ("play", "games_in_hand")}
"""The card rates ``variant_deltas`` compares: metric -> (cluster prefix, seat-games column)."""


def _card_family(metric: str) -> str:
    """Rows of ``variant_deltas`` for one card rate: the z-test at the effective sample
    sizes and Newcombe's interval, also on the baseline's seeds. (The seat-games with a
    card in hand differ between the variants; treating the two samples as independent
    is conservative when they were played on the same seeds: see analytics/README.md.)"""
    _, n = CARD_DELTA_RATES[metric]
    low, high = _newcombe(metric)
    return f"""
    SELECT v.experiment, v.variant, v.n_players, 'card' AS family, v.agent, v.card AS key, '{metric}' AS metric,
           b.{metric} AS baseline_value, v.{metric} AS value, b.{n} AS baseline_n, v.{n} AS n,
           b.{metric}_effective_n AS baseline_effective_n, v.{metric}_effective_n AS effective_n,
           'z' AS test,
           prop_z(coalesce(b.{metric}, 0) * b.{metric}_effective_n, b.{metric}_effective_n,
                  coalesce(v.{metric}, 0) * v.{metric}_effective_n, v.{metric}_effective_n) AS statistic,
           {low} AS delta_low, {high} AS delta_high
    FROM {_once('card_stats')} AS v
    JOIN {_once('card_stats')} AS b ON b.experiment = v.experiment AND b.variant = 'baseline'
         AND b.n_players = v.n_players
         AND b.agent = v.agent AND b.card = v.card
    WHERE v.variant <> 'baseline' AND v.{n} > 0 AND b.{n} > 0"""


def _game_family(paired: bool | None) -> str:
    def proportion(metric: str, source: str, count: str, only_b: str, only_v: str, where: str = "") -> str:
        # One trial per game: the baseline's and the variant's counts are their own sums
        # of squares and of n·w; d² is 1 for a discordant pair.
        side_b, side_v = (f"b.{count}",) * 3, (f"v.{count}",) * 3
        low, high = _paired_interval(metric, "pg.pairs", "pg.pairs", side_b, side_v,
                                     f"(pg.{only_v} + pg.{only_b})")
        unpaired_low, unpaired_high = _newcombe(metric)
        paired_test = "pg.pairs IS NOT NULL AND pg.pairs = v.games AND pg.pairs = b.games"
        return f"""
    SELECT v.experiment, v.variant, v.n_players, 'game' AS family, NULL::VARCHAR AS agent, '' AS key,
           '{metric}' AS metric, b.{metric} AS baseline_value, v.{metric} AS value,
           b.games AS baseline_n, v.games AS n, b.games::DOUBLE AS baseline_effective_n,
           v.games::DOUBLE AS effective_n,
           CASE WHEN {paired_test} THEN 'mcnemar' ELSE 'z' END AS test,
           CASE WHEN {paired_test} THEN mcnemar_stat(pg.{only_b}, pg.{only_v})
                ELSE prop_z(b.{count}, b.games, v.{count}, v.games) END AS statistic,
           CASE WHEN {paired_test} THEN {low} ELSE {unpaired_low} END AS delta_low,
           CASE WHEN {paired_test} THEN {high} ELSE {unpaired_high} END AS delta_high
    FROM {source} AS v
    JOIN {source} AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
    LEFT JOIN paired_games AS pg ON pg.experiment = v.experiment AND pg.variant = v.variant
         AND pg.n_players = v.n_players
    WHERE v.variant <> 'baseline'{where}"""

    def mean(metric: str, column: str) -> str:
        se = f"sqrt(b.sd_{column} ** 2 / b.games + v.sd_{column} ** 2 / v.games)"
        return f"""
    SELECT v.experiment, v.variant, v.n_players, 'game' AS family, NULL::VARCHAR AS agent, '' AS key,
           '{metric}' AS metric, b.mean_{column} AS baseline_value, v.mean_{column} AS value,
           b.games AS baseline_n, v.games AS n, b.games::DOUBLE AS baseline_effective_n,
           v.games::DOUBLE AS effective_n, 'welch' AS test,
           welch_z(b.mean_{column}, b.sd_{column} ** 2, b.games, v.mean_{column}, v.sd_{column} ** 2, v.games)
               AS statistic,
           (v.mean_{column} - b.mean_{column}) - {Z95!r} * coalesce({se}, 0) AS delta_low,
           (v.mean_{column} - b.mean_{column}) + {Z95!r} * coalesce({se}, 0) AS delta_high
    FROM {_once('game_stats')} AS v
    JOIN {_once('game_stats')} AS b ON b.experiment = v.experiment AND b.variant = 'baseline'
         AND b.n_players = v.n_players
    WHERE v.variant <> 'baseline'"""

    team = "(SELECT *, win_rate AS team_win_rate, win_rate_low AS team_win_rate_low, " \
           f"win_rate_high AS team_win_rate_high FROM {_once('party_size_stats')})"
    return " UNION ALL ".join([
        proportion("team_win_rate", team, "wins", "team_b", "team_v"),
        proportion("draw_rate", _once("game_stats"), "draws", "draw_b", "draw_v"),
        proportion("turn_cap_rate", _once("game_stats"), "turn_cap_games", "cap_b", "cap_v"),
        mean("turns", "turns"),
        mean("decisions", "decisions"),
    ])


def _variant_deltas(paired: bool | None) -> str:
    families = " UNION ALL ".join([
        _proportion_family("seat", _once("seat_stats"), "seat", "games", "win_rate", "games", paired),
        _proportion_family("agent", _once("agent_stats"), "agent", "seat_games", "win_rate", "win_rate_effective_n",
                           paired),
        _proportion_family("faction", _once("faction_stats"), "faction", "seat_games", "win_rate",
                           "win_rate_effective_n", paired),
        *(_card_family(metric) for metric in CARD_DELTA_RATES),
        _game_family(paired),
    ])
    sources = ",\n".join(f"{_once(view)} AS MATERIALIZED (SELECT * FROM {view})" for view in DELTA_SOURCES)
    return f"""
WITH {sources},
paired_games AS ({_paired_games(paired)}),
rows AS (SELECT {_DELTA_COLUMNS} FROM ({families})),
tested AS (
    -- One erfc for every test: McNemar's statistic is chi-square on one degree
    -- of freedom, P = erfc(sqrt(stat/2)); a z statistic's two-sided P = erfc(|z|/sqrt(2)).
    SELECT *, erfc(sqrt((CASE WHEN test = 'mcnemar' THEN statistic ELSE statistic * statistic END) / 2))
               AS p_value
    FROM rows
),
ranked AS (
    SELECT *, value - baseline_value AS delta,
           row_number() OVER (PARTITION BY experiment, variant, n_players, family
                              ORDER BY p_value, agent, key, metric) AS p_rank,
           count(*) OVER (PARTITION BY experiment, variant, n_players, family) AS tests
    FROM tested
)
SELECT experiment, variant, n_players, family, agent, key, metric, baseline_value, value, delta,
       delta_low, delta_high, baseline_n, n, baseline_effective_n, effective_n, test, statistic, p_value,
       least(1.0, min(p_value * tests / p_rank) OVER (
           PARTITION BY experiment, variant, n_players, family ORDER BY p_rank DESC
           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS q_value,
       q_value < {SIGNIFICANCE!r} AS significant
FROM ranked
ORDER BY {ORDER}, family, q_value, agent, key, metric
"""


def metric_view_sql(columns: Columns, paired: bool | None = None) -> dict[str, str]:
    """The ``SELECT`` of every metric view, by view name, in dependency order.

    They read the count views (``count_view_sql``); ``variant_deltas`` also
    reads ``games`` and ``players`` for the paired tests. ``paired`` tells it
    whether the variants were played on the baseline's seeds: ``None`` finds
    out from the data (seed-matched games), ``False`` skips the pairing joins
    (faster when known).
    """
    return {
        "experiment_modes": EXPERIMENT_MODES,
        "seat_stats": SEAT_STATS,
        "seat_balance": _seat_balance(),
        "agent_stats": AGENT_STATS,
        "faction_stats": FACTION_STATS,
        "faction_spread": FACTION_SPREAD,
        "matchups": MATCHUPS,
        "party_size_stats": PARTY_SIZE_STATS,
        "composition_stats": COMPOSITION_STATS,
        "class_effects": CLASS_EFFECTS,
        "run_stats": RUN_STATS,
        "seat_totals": SEAT_TOTALS,
        "card_stats": card_stats_sql(),
        # Per faction too, computed from the rows when asked (not a cached count view: the
        # split costs a scan of every card row and only the dashboard's faction filter needs it).
        "card_faction_stats": card_stats_sql(f"({card_counts_sql(columns, extra_key='faction')})", "faction",
                                             FACTION_SEAT_TOTALS),
        "card_turn_stats": CARD_TURN_STATS,
        "game_stats": _game_stats(),
        "end_reason_stats": END_REASON_STATS,
        "turn_distribution": TURN_DISTRIBUTION,
        "variant_deltas": _variant_deltas(paired),
    }


MATERIALIZED_VIEWS = ("experiment_modes", "seat_stats", "agent_stats", "faction_stats", "party_size_stats",
                      "seat_totals", "card_stats", "game_stats")
"""Metric views that other views read several times (``variant_deltas`` joins
each to itself); ``register_metric_views(materialize=True)`` computes them once."""


def register_metric_views(con: duckdb.DuckDBPyConnection, *, counts: bool = True,
                          paired: bool | None = None, materialize: bool = False,
                          defer_binding: bool = True) -> None:
    """Create the count views and every metric view on ``con`` (which has ``games``, ``players``, ``cards``).

    With ``counts=False`` the count views are left to the caller (who has
    created them as tables, e.g. from cached per-shard counts; see
    ``analytics.partials``). With ``materialize`` the views of
    ``MATERIALIZED_VIEWS`` are computed once into temporary tables (the
    results must not change while ``con`` is open: the report's cached counts).

    With ``defer_binding`` (the default) DuckDB checks each view's syntax now
    and binds it when a query first reads it: binding every view at creation
    took about a second of CPU per catalog opened (``card_stats``,
    ``card_faction_stats`` and ``variant_deltas`` most of it), paid by every
    ``cardlab sql`` query and dashboard session whatever few views they read.
    A query binds the views it reads either way, so the answers are the same;
    ``False`` binds (and so checks) every view at once (the catalog file).
    """
    columns = Columns.of(con)
    create = "CREATE OR REPLACE VIEW {name} WITH (DEFER_BINDING) AS {query}" if defer_binding else \
        "CREATE OR REPLACE VIEW {name} AS {query}"
    if counts:
        for name, query in count_view_sql(columns).items():
            con.execute(create.format(name=name, query=query))
    if materialize:
        # What each temporary table was computed from, so that it can be computed
        # again when the interval macros change (``refresh_materialized_views``).
        con.execute("CREATE OR REPLACE TEMP TABLE _materialized (position INTEGER, name VARCHAR, query VARCHAR)")
    for position, (name, query) in enumerate(metric_view_sql(columns, paired).items()):
        if materialize and name in MATERIALIZED_VIEWS:
            con.execute(f"CREATE OR REPLACE TEMP TABLE _{name} AS {query}")
            con.execute("INSERT INTO _materialized VALUES (?, ?, ?)", [position, name, query])
            query = f"SELECT * FROM _{name}"
        con.execute(create.format(name=name, query=query))


def refresh_materialized_views(con: duckdb.DuckDBPyConnection) -> None:
    """Compute the temporary tables of ``register_metric_views(materialize=True)``
    again, in the order they were made: after the SQL macros they use changed
    (``analytics.tuning.use_confidence`` sets the Wilson macros' level). No-op
    on a connection without them."""
    exists = con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = '_materialized' "
                         "AND temporary").fetchone()
    if not exists or not exists[0]:
        return
    for name, query in con.execute("SELECT name, query FROM _materialized ORDER BY position").fetchall():
        con.execute(f"CREATE OR REPLACE TEMP TABLE _{name} AS {query}")
