"""The balance metrics as DuckDB views, defined once for SQL, Python and the report.

``register_metric_views(con)`` defines, on a connection that already has the
base views ``games``, ``players`` and ``cards`` (``analytics.catalog``), one
view per metric table below. ``analytics.metrics`` reads them into Polars,
``cardlab report`` prints them and ``cardlab sql`` (or the plain ``duckdb``
client on a catalog file, ``analytics.catalog_file``) queries them. Every
view starts with ``experiment, variant, n_players`` so the same SQL works over
one experiment or all of them; a game is identified by (experiment, variant,
n_players, game_index). Nothing here knows a game by name: the only
per-game input is which optional columns exist (card counters such as
``in_opening_hand``, ``drawn`` and ``played``, and ``games.legal_actions``).

Two layers: the *count views* (``COUNT_VIEWS``: ``seat_counts``,
``agent_counts``, ``faction_counts``, ``matchup_counts``, ``team_counts``,
``card_counts``, ``game_counts``) are additive aggregates of the rows, and the
metric views read only them (``variant_deltas`` also reads the rows for the
paired tests). So the report can count each shard once, cache the counts and
add them up (``analytics.partials``) instead of scanning every row each time.

Definitions (also in ``analytics/README.md``):

*Seats* — ``seat_stats``: per seat, ``games``, ``wins`` (the seat won, alone or
shared), ``draws``, ``win_rate = wins / games`` with its 95% Wilson interval,
``win_share = wins / total wins at that player count`` with its Wilson
interval, and ``fair_share = 1/N``. ``seat_balance``: per player count,
Pearson's chi-square of the seats' wins against equal shares
(``chi2``, ``df = N − 1``, ``p_value``), and the first-seat advantage
``first_seat_share − 1/N`` with its 95% interval (the Wilson interval of the
seat-0 share minus ``1/N``). Null for one-player games.

*Agents* — ``agent_stats``: per agent, seat-games, wins, win rate and interval.

*Factions* (parties, hero classes; null factions are left out, so a game
without factions gives empty tables) — ``faction_stats``: seat-games,
``games`` (distinct games with the faction), wins, win rate with interval,
``expected`` (the pooled win rate of all seats at that player count: 1/N in a
competitive game without draws), ``outside_band`` (the rate is more than
``band`` = 0.05 from ``expected``) and ``surely_outside`` (the whole interval
is). ``faction_spread``: per player count, number of factions, min, max,
``spread = max − min`` and ``sd`` (population standard deviation) of their
win rates, and how many sit outside the band. ``matchups``: faction i's win
rate over its seat-games in games that include faction j at another seat.

*Cooperative games* (every game's seats all win or all lose; detected from
the data) — ``party_size_stats``: team win rate per party size;
``composition_stats``: per composition (the sorted classes joined by ``+``);
``class_effects``: per class, win rate of games whose party includes it
against those that do not, their difference (the marginal effect) and a
two-proportion z-test.

*Cards* (the 17lands family; the sample unit is a seat-game, never a copy) —
``card_stats``: ``games_in_hand`` (seat-games with the card in hand: drawn or
in the opening hand), ``gih_win_rate`` with interval, ``games_not_seen`` (all
seat-games at that player count minus games in hand) and ``gns_win_rate``,
``iwd = gih_win_rate − gns_win_rate`` (improvement when drawn),
``oh_win_rate`` (in the opening hand), ``gd_win_rate`` (drawn after the
opening hand), ``games_played``, ``played_win_rate`` with interval,
``play_rate = games_played / games_in_hand``, ``mean_turn_played`` (mean first
turn played), ``shrunk_win_rate`` (empirical Bayes: a beta prior fitted to
all cards' GIH win rates by the method of moments, see
``analytics.stats.beta_binomial_prior``), ``z_score`` of the GIH win rate
against the cards' pooled mean (``(p − m)/sqrt(m(1 − m)/games_in_hand)``) and
``outlier`` (``|z_score| ≥ 3``).

*Games* — ``game_stats``: games, turns (mean, sd, min, p10, p50, p90, max),
decisions per game (mean, sd, p50), ``mean_legal_actions`` (mean legal
actions per decision; null unless ``games`` has a ``legal_actions`` column
holding each game's sum of legal-action counts over its decisions), draws and
``draw_rate``, ``turn_cap_games`` and ``turn_cap_rate`` (end reason one of
``TURN_CAP_REASONS``), each rate with its interval. ``end_reason_stats``:
share of each end reason. ``turn_distribution``: games per number of turns.

*Variants* — ``variant_deltas``: each variant against ``baseline`` at the same
player count, one row per (family, key, metric): ``baseline_value``,
``value``, ``delta = value − baseline_value``, the test used, its
``statistic`` and two-sided ``p_value``, the Benjamini–Hochberg ``q_value``
within (experiment, variant, n_players, family) and ``significant``
(``q_value < 0.05``). Win rates and other proportions use the two-proportion
z-test, or McNemar's test (with continuity correction) when the variant was
played on the baseline's seeds (``paired_seeds``, seen from equal seeds);
card rates always the z-test (the sample of seat-games with a card in hand is
not paired); means (turns, decisions) a large-sample Welch z-test.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

TURN_CAP_REASONS = ("turn_cap", "round_cap", "turn_limit", "max_turns", "round_limit")
"""End reasons that mean "stopped by the turn cap", not a real end of the game."""

FACTION_BAND = 0.05
"""Half-width of the target band around the expected faction win rate."""

OUTLIER_Z = 3.0
"""``|z_score|`` from which a card is flagged as an outlier."""

SIGNIFICANCE = 0.05
"""False discovery rate at which a variant delta is called significant."""

METRIC_VIEWS = (
    "seat_stats", "seat_balance", "agent_stats", "faction_stats", "faction_spread", "matchups",
    "party_size_stats", "composition_stats", "class_effects", "seat_totals", "card_stats",
    "game_stats", "end_reason_stats", "turn_distribution", "variant_deltas",
    "seat_counts", "agent_counts", "faction_counts", "matchup_counts", "team_counts", "card_counts", "game_counts",
)

ORDER = "experiment, (variant <> 'baseline'), variant, n_players"
GAME_KEY = "experiment, variant, n_players, game_index"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _rate(wins: str, n: str, name: str) -> str:
    return (f"{wins}::DOUBLE / nullif({n}, 0) AS {name}, wilson_low({wins}, {n}) AS {name}_low, "
            f"wilson_high({wins}, {n}) AS {name}_high")


@dataclass(frozen=True)
class Columns:
    """The optional columns the metric views adapt to (see the module docstring)."""

    cards: frozenset[str]
    games: frozenset[str]

    @classmethod
    def of(cls, con: duckdb.DuckDBPyConnection) -> Columns:
        """The columns of ``cards`` and ``games`` on ``con``."""
        def names(view: str) -> frozenset[str]:
            return frozenset(row[0] for row in con.execute(f"DESCRIBE {view}").fetchall())
        return cls(cards=names("cards"), games=names("games"))

    def in_hand(self) -> str:
        """SQL: the card was in the seat's hand at some point."""
        # Drawn (dealt cards count as drawn) or in the opening hand; a game
        # with neither counter says every card row was seen.
        parts = [f"coalesce({name}, 0) > 0" for name in ("drawn", "in_opening_hand") if name in self.cards]
        if not parts:
            return "TRUE"
        present = " AND ".join(f"{name} IS NULL" for name in ("drawn", "in_opening_hand") if name in self.cards)
        return f"(CASE WHEN {present} THEN TRUE ELSE {' OR '.join(parts)} END)"

    def opening(self) -> str:
        """SQL: the card was in the seat's opening hand (NULL if the game does not count that)."""
        return "coalesce(in_opening_hand, 0) > 0" if "in_opening_hand" in self.cards else "NULL::BOOLEAN"

    def drawn_later(self) -> str:
        """SQL: a copy was drawn after the opening hand (NULL if the game lacks the counters)."""
        if {"drawn", "in_opening_hand"} <= self.cards:
            return "coalesce(drawn, 0) > coalesce(in_opening_hand, 0)"
        return "NULL::BOOLEAN"

    def played(self) -> str:
        """SQL: the seat played the card (the ``played`` counter, else a first played turn)."""
        if "played" in self.cards:
            return "(CASE WHEN played IS NULL THEN first_played_turn IS NOT NULL ELSE played > 0 END)"
        return "first_played_turn IS NOT NULL"

    def count(self, name: str) -> str:
        """SQL: the counter ``name``, 0 where the game does not have it."""
        return f"coalesce({name}, 0)" if name in self.cards else "0"


# ------------------------------------------------------------------ counts
#
# The count views: additive aggregates of the big tables. Every metric view
# below reads only these (and the paired tests read games/players), so the
# report can compute them shard by shard, cache them (analytics.partials)
# and add the shards' counts up, instead of scanning every row each time.
# Shards hold disjoint games, so even distinct-game counts add up.

SEAT_COUNTS = f"""
SELECT p.experiment, p.variant, p.n_players, p.seat,
       count(*) AS games,
       count(*) FILTER (WHERE p.won) AS wins,
       count(*) FILTER (WHERE g.draw) AS draws
FROM players AS p JOIN (SELECT {GAME_KEY}, draw FROM games) AS g USING ({GAME_KEY})
GROUP BY p.experiment, p.variant, p.n_players, p.seat
"""

AGENT_COUNTS = f"""
SELECT p.experiment, p.variant, p.n_players, p.agent,
       count(*) AS seat_games,
       count(*) FILTER (WHERE p.won) AS wins,
       count(*) FILTER (WHERE g.draw) AS draws
FROM players AS p JOIN (SELECT {GAME_KEY}, draw FROM games) AS g USING ({GAME_KEY})
GROUP BY p.experiment, p.variant, p.n_players, p.agent
"""

FACTION_COUNTS = """
SELECT experiment, variant, n_players, faction,
       count(*) AS seat_games,
       count(DISTINCT game_index) AS games,
       count(*) FILTER (WHERE won) AS wins
FROM players WHERE faction IS NOT NULL
GROUP BY experiment, variant, n_players, faction
"""

MATCHUP_COUNTS = f"""
WITH seats AS (
    SELECT {GAME_KEY}, seat, faction, won FROM players WHERE faction IS NOT NULL
), pairs AS (
    -- One row per seat-game of faction i and each distinct faction j at another seat.
    SELECT DISTINCT a.experiment, a.variant, a.n_players, a.game_index, a.seat, a.faction, a.won,
           b.faction AS opponent
    FROM seats AS a JOIN seats AS b USING ({GAME_KEY})
    WHERE a.seat <> b.seat
)
SELECT experiment, variant, n_players, faction, opponent,
       count(*) AS seat_games,
       count(*) FILTER (WHERE won) AS wins
FROM pairs
GROUP BY experiment, variant, n_players, faction, opponent
"""

TEAM_COUNTS = f"""
WITH teams AS (
    SELECT {GAME_KEY},
           bool_or(won) AS won,
           bool_or(won) = bool_and(won) AS uniform,
           string_agg(faction, '+' ORDER BY faction) AS composition
    FROM players WHERE faction IS NOT NULL
    GROUP BY {GAME_KEY}
)
SELECT experiment, variant, n_players, composition,
       count(*) AS games,
       count(*) FILTER (WHERE won) AS wins,
       count(*) FILTER (WHERE NOT uniform) AS mixed
FROM teams
GROUP BY experiment, variant, n_players, composition
"""


def card_counts_sql(columns: Columns, source: str = "cards") -> str:
    """The per-card counts behind ``card_stats``, over ``source`` (a view or subquery)."""
    return f"""
WITH flags AS (
    SELECT experiment, variant, n_players, card, won,
           {columns.in_hand()} AS in_hand,
           {columns.opening()} AS opening,
           {columns.drawn_later()} AS drawn_later,
           {columns.played()} AS was_played,
           {columns.count('drawn')} AS n_drawn,
           {columns.count('played')} AS n_played,
           first_played_turn
    FROM {source}
)
SELECT experiment, variant, n_players, card,
       count(*) FILTER (WHERE in_hand) AS games_in_hand,
       count(*) FILTER (WHERE in_hand AND won) AS wins_in_hand,
       count(*) FILTER (WHERE opening) AS games_opening,
       count(*) FILTER (WHERE opening AND won) AS wins_opening,
       count(*) FILTER (WHERE drawn_later) AS games_drawn_later,
       count(*) FILTER (WHERE drawn_later AND won) AS wins_drawn_later,
       count(*) FILTER (WHERE n_drawn > 0) AS games_drawn,
       count(*) FILTER (WHERE n_drawn > 0 AND won) AS wins_when_drawn,
       sum(n_drawn)::BIGINT AS times_drawn,
       count(*) FILTER (WHERE was_played) AS games_played,
       count(*) FILTER (WHERE was_played AND won) AS wins_played,
       sum(n_played)::BIGINT AS times_played,
       coalesce(sum(first_played_turn) FILTER (WHERE was_played), 0)::BIGINT AS sum_turn_played,
       count(first_played_turn) FILTER (WHERE was_played) AS n_turn_played
FROM flags
GROUP BY experiment, variant, n_players, card
"""


def _game_counts(columns: Columns) -> str:
    legal = ("coalesce(sum(legal_actions), 0)::BIGINT",
             "coalesce(sum(decisions) FILTER (WHERE legal_actions IS NOT NULL), 0)::BIGINT") \
        if "legal_actions" in columns.games else ("0::BIGINT", "0::BIGINT")
    return f"""
SELECT experiment, variant, n_players, turns, decisions, draw, end_reason,
       count(*) AS games,
       {legal[0]} AS legal_actions,
       {legal[1]} AS legal_decisions
FROM games
GROUP BY experiment, variant, n_players, turns, decisions, draw, end_reason
"""


COUNT_VIEWS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # name: (key columns, additive columns)
    "seat_counts": (("experiment", "variant", "n_players", "seat"), ("games", "wins", "draws")),
    "agent_counts": (("experiment", "variant", "n_players", "agent"), ("seat_games", "wins", "draws")),
    "faction_counts": (("experiment", "variant", "n_players", "faction"), ("seat_games", "games", "wins")),
    "matchup_counts": (("experiment", "variant", "n_players", "faction", "opponent"), ("seat_games", "wins")),
    "team_counts": (("experiment", "variant", "n_players", "composition"), ("games", "wins", "mixed")),
    "card_counts": (("experiment", "variant", "n_players", "card"), (
        "games_in_hand", "wins_in_hand", "games_opening", "wins_opening", "games_drawn_later", "wins_drawn_later",
        "games_drawn", "wins_when_drawn", "times_drawn", "games_played", "wins_played", "times_played",
        "sum_turn_played", "n_turn_played")),
    "game_counts": (("experiment", "variant", "n_players", "turns", "decisions", "draw", "end_reason"),
                    ("games", "legal_actions", "legal_decisions")),
}
"""The count views, with their key columns and their additive columns."""


def count_view_sql(columns: Columns) -> dict[str, str]:
    """The ``SELECT`` of every count view over the base views, by name."""
    queries = {
        "seat_counts": SEAT_COUNTS,
        "agent_counts": AGENT_COUNTS,
        "faction_counts": FACTION_COUNTS,
        "matchup_counts": MATCHUP_COUNTS,
        "team_counts": TEAM_COUNTS,
        "card_counts": card_counts_sql(columns),
        "game_counts": _game_counts(columns),
    }
    # Ordered by their keys, so that a count view reads the same whether it
    # scans the rows or sums cached counts.
    return {name: f"{query.rstrip()}\nORDER BY {', '.join(COUNT_VIEWS[name][0])}" for name, query in queries.items()}


# ------------------------------------------------------------------ seats


SEAT_STATS = f"""
SELECT experiment, variant, n_players, seat, games, wins, draws,
       {_rate('wins', 'games', 'win_rate')},
       (sum(wins) OVER w)::BIGINT AS total_wins,
       {_rate('wins', 'sum(wins) OVER w', 'win_share')},
       1.0::DOUBLE / n_players AS fair_share
FROM seat_counts
WINDOW w AS (PARTITION BY experiment, variant, n_players)
ORDER BY {ORDER}, seat
"""


def _seat_balance() -> str:
    # Window functions cannot nest inside aggregates; compute the expected
    # count per row first.
    return f"""
WITH expected AS (
    SELECT *, total_wins::DOUBLE / n_players AS expected_wins FROM seat_stats
)
SELECT experiment, variant, n_players,
       max(games) AS games,
       max(total_wins) AS total_wins,
       CASE WHEN n_players > 1 THEN CASE WHEN max(expected_wins) > 0
            THEN sum((wins - expected_wins) ** 2 / expected_wins) ELSE 0.0 END END AS chi2,
       CASE WHEN n_players > 1 THEN n_players - 1 END AS df,
       CASE WHEN n_players > 1 THEN chi2_sf(chi2, n_players - 1) END AS p_value,
       CASE WHEN n_players > 1 THEN max(win_share) FILTER (WHERE seat = 0) END AS first_seat_share,
       CASE WHEN n_players > 1 THEN first_seat_share - 1.0 / n_players END AS first_seat_advantage,
       CASE WHEN n_players > 1 THEN max(win_share_low) FILTER (WHERE seat = 0) - 1.0 / n_players END
           AS first_seat_advantage_low,
       CASE WHEN n_players > 1 THEN max(win_share_high) FILTER (WHERE seat = 0) - 1.0 / n_players END
           AS first_seat_advantage_high
FROM expected
GROUP BY experiment, variant, n_players
ORDER BY {ORDER}
"""


AGENT_STATS = f"""
SELECT experiment, variant, n_players, agent, seat_games, wins, draws,
       {_rate('wins', 'seat_games', 'win_rate')}
FROM agent_counts
ORDER BY {ORDER}, agent
"""

# ------------------------------------------------------------------ factions

FACTION_STATS = f"""
WITH rated AS (
    SELECT experiment, variant, n_players, faction, seat_games, games, wins,
           {_rate('wins', 'seat_games', 'win_rate')},
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
       {_rate('wins', 'seat_games', 'win_rate')}
FROM matchup_counts
ORDER BY {ORDER}, faction, opponent
"""

# A cooperative experiment: every game's seats share one outcome (no game of
# the experiment is "mixed").
_COOP = """
WITH coop AS (
    SELECT * FROM team_counts
    WHERE experiment IN (SELECT experiment FROM team_counts GROUP BY experiment HAVING sum(mixed) = 0)
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
ORDER BY {ORDER}, win_rate DESC, composition
"""

CLASS_EFFECTS = _COOP + f"""
, totals AS (
    SELECT experiment, variant, n_players, sum(games) AS games, sum(wins) AS wins
    FROM coop GROUP BY experiment, variant, n_players
), with_class AS (
    SELECT experiment, variant, n_players, unnest(list_distinct(string_split(composition, '+'))) AS faction,
           games, wins
    FROM coop
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

# ------------------------------------------------------------------ cards

SEAT_TOTALS = """
SELECT experiment, variant, n_players, sum(seat_games)::BIGINT AS seat_games, sum(wins)::BIGINT AS seat_wins
FROM agent_counts GROUP BY experiment, variant, n_players
"""

CARD_STATS = f"""
WITH base AS (
    SELECT c.*, t.seat_games, t.seat_wins,
           c.wins_in_hand::DOUBLE / nullif(c.games_in_hand, 0) AS gih
    FROM card_counts AS c JOIN seat_totals AS t USING (experiment, variant, n_players)
), prior AS (
    -- Method-of-moments beta prior over the cards seen in hand (analytics.stats.beta_binomial_prior).
    SELECT experiment, variant, n_players,
           count(*) AS cards,
           sum(wins_in_hand)::DOUBLE / sum(games_in_hand) AS m,
           var_pop(gih) AS variance,
           avg(1.0 / games_in_hand) AS mean_inverse
    FROM base WHERE games_in_hand > 0
    GROUP BY experiment, variant, n_players
), strength AS (
    SELECT *, variance - m * (1 - m) * mean_inverse AS between_cards,
           CASE WHEN cards < 2 OR m <= 0 OR m >= 1 OR variance - m * (1 - m) * mean_inverse <= 0 THEN NULL
                ELSE greatest(0.0, m * (1 - m) / (variance - m * (1 - m) * mean_inverse) - 1) END AS prior_strength
    FROM prior
)
SELECT b.experiment, b.variant, b.n_players, b.card,
       b.games_in_hand, b.wins_in_hand,
       {_rate('b.wins_in_hand', 'b.games_in_hand', 'gih_win_rate')},
       b.seat_games - b.games_in_hand AS games_not_seen,
       b.seat_wins - b.wins_in_hand AS wins_not_seen,
       (b.seat_wins - b.wins_in_hand)::DOUBLE / nullif(b.seat_games - b.games_in_hand, 0) AS gns_win_rate,
       gih_win_rate - gns_win_rate AS iwd,
       b.games_opening, b.wins_opening::DOUBLE / nullif(b.games_opening, 0) AS oh_win_rate,
       b.games_drawn_later, b.wins_drawn_later::DOUBLE / nullif(b.games_drawn_later, 0) AS gd_win_rate,
       b.games_played, b.wins_played,
       {_rate('b.wins_played', 'b.games_played', 'played_win_rate')},
       b.games_played::DOUBLE / nullif(b.games_in_hand, 0) AS play_rate,
       b.times_drawn, b.times_played,
       b.sum_turn_played::DOUBLE / nullif(b.n_turn_played, 0) AS mean_turn_played,
       s.m AS card_mean,
       CASE WHEN b.games_in_hand = 0 THEN NULL
            WHEN s.prior_strength IS NULL THEN s.m
            ELSE (b.wins_in_hand + s.m * s.prior_strength) / (b.games_in_hand + s.prior_strength)
       END AS shrunk_win_rate,
       CASE WHEN b.games_in_hand > 0 AND s.m > 0 AND s.m < 1
            THEN (gih_win_rate - s.m) / sqrt(s.m * (1 - s.m) / b.games_in_hand) END AS z_score,
       coalesce(abs(z_score) >= {OUTLIER_Z!r}, FALSE) AS outlier
FROM base AS b LEFT JOIN strength AS s USING (experiment, variant, n_players)
ORDER BY {ORDER}, shrunk_win_rate DESC NULLS LAST, gih_win_rate DESC NULLS LAST, card
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
    caps = ", ".join(_literal(reason) for reason in TURN_CAP_REASONS)
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


def _paired_counts(key: str, paired: bool | None) -> str:
    """Discordant pairs (only baseline won / only variant won) per key, over
    games played on the same seed in baseline and variant."""
    if paired is False:
        return """
    SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players,
           NULL::VARCHAR AS key, 0::BIGINT AS pairs, 0::BIGINT AS only_baseline, 0::BIGINT AS only_variant
    WHERE FALSE"""
    return f"""
    SELECT v.experiment, v.variant, v.n_players, v.{key}::VARCHAR AS key,
           count(*) AS pairs,
           count(*) FILTER (WHERE b.won AND NOT v.won) AS only_baseline,
           count(*) FILTER (WHERE v.won AND NOT b.won) AS only_variant
    FROM players AS v
    JOIN games AS gv USING ({GAME_KEY})
    JOIN games AS gb ON gb.experiment = v.experiment AND gb.variant = 'baseline'
         AND gb.n_players = v.n_players AND gb.game_index = v.game_index AND gb.seed = gv.seed
    JOIN players AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.game_index = v.game_index AND b.seat = v.seat AND b.{key} IS NOT DISTINCT FROM v.{key}
    WHERE v.variant <> 'baseline' AND v.{key} IS NOT NULL
    GROUP BY ALL"""


def _paired_games(paired: bool | None) -> str:
    """Seed-matched game pairs per variant, and the discordant pairs of
    draws and turn-cap endings."""
    caps = ", ".join(_literal(reason) for reason in TURN_CAP_REASONS)
    if paired is False:
        return """
    SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players, 0::BIGINT AS pairs,
           0::BIGINT AS draw_b, 0::BIGINT AS draw_v, 0::BIGINT AS cap_b, 0::BIGINT AS cap_v
    WHERE FALSE"""
    return f"""
    SELECT v.experiment, v.variant, v.n_players, count(*) AS pairs,
           count(*) FILTER (WHERE b.draw AND NOT v.draw) AS draw_b,
           count(*) FILTER (WHERE v.draw AND NOT b.draw) AS draw_v,
           count(*) FILTER (WHERE b.end_reason IN ({caps}) AND v.end_reason NOT IN ({caps})) AS cap_b,
           count(*) FILTER (WHERE v.end_reason IN ({caps}) AND b.end_reason NOT IN ({caps})) AS cap_v
    FROM games AS v
    JOIN games AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.game_index = v.game_index AND b.seed = v.seed
    WHERE v.variant <> 'baseline'
    GROUP BY ALL"""


def _proportion_family(family: str, source: str, key: str, n: str, wins: str, paired: bool | None) -> str:
    """Rows of ``variant_deltas`` for one win-rate family (seat, agent, faction)."""
    return f"""
    SELECT v.experiment, v.variant, v.n_players, '{family}' AS family, v.{key}::VARCHAR AS key,
           'win_rate' AS metric,
           b.{wins}::DOUBLE / nullif(b.{n}, 0) AS baseline_value,
           v.{wins}::DOUBLE / nullif(v.{n}, 0) AS value,
           b.{n} AS baseline_n, v.{n} AS n,
           CASE WHEN pc.pairs IS NOT NULL AND pc.pairs = v.{n} AND pc.pairs = b.{n} THEN 'mcnemar' ELSE 'z' END
               AS test,
           CASE WHEN test = 'mcnemar' THEN mcnemar_stat(pc.only_baseline, pc.only_variant)
                ELSE prop_z(b.{wins}, b.{n}, v.{wins}, v.{n}) END AS statistic
    FROM {source} AS v
    JOIN {source} AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.{key} = v.{key}
    LEFT JOIN ({_paired_counts(key, paired)}) AS pc
         ON pc.experiment = v.experiment AND pc.variant = v.variant AND pc.n_players = v.n_players
         AND pc.key = v.{key}::VARCHAR
    WHERE v.variant <> 'baseline'"""


def _card_family(metric: str, wins: str, n: str) -> str:
    return f"""
    SELECT v.experiment, v.variant, v.n_players, 'card' AS family, v.card AS key, '{metric}' AS metric,
           b.{wins}::DOUBLE / nullif(b.{n}, 0) AS baseline_value,
           v.{wins}::DOUBLE / nullif(v.{n}, 0) AS value,
           b.{n} AS baseline_n, v.{n} AS n,
           'z' AS test,
           prop_z(b.{wins}, b.{n}, v.{wins}, v.{n}) AS statistic
    FROM card_stats AS v
    JOIN card_stats AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.card = v.card
    WHERE v.variant <> 'baseline'"""


def _game_family(paired: bool | None) -> str:
    def proportion(metric: str, count: str, only_b: str, only_v: str) -> str:
        return f"""
    SELECT v.experiment, v.variant, v.n_players, 'game' AS family, '' AS key, '{metric}' AS metric,
           b.{count}::DOUBLE / b.games AS baseline_value, v.{count}::DOUBLE / v.games AS value,
           b.games AS baseline_n, v.games AS n,
           CASE WHEN pg.pairs IS NOT NULL AND pg.pairs = v.games AND pg.pairs = b.games THEN 'mcnemar' ELSE 'z'
               END AS test,
           CASE WHEN test = 'mcnemar' THEN mcnemar_stat(pg.{only_b}, pg.{only_v})
                ELSE prop_z(b.{count}, b.games, v.{count}, v.games) END AS statistic
    FROM game_stats AS v
    JOIN game_stats AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
    LEFT JOIN paired_games AS pg ON pg.experiment = v.experiment AND pg.variant = v.variant
         AND pg.n_players = v.n_players
    WHERE v.variant <> 'baseline'"""

    def mean(metric: str, column: str) -> str:
        return f"""
    SELECT v.experiment, v.variant, v.n_players, 'game' AS family, '' AS key, '{metric}' AS metric,
           b.mean_{column} AS baseline_value, v.mean_{column} AS value, b.games AS baseline_n, v.games AS n,
           'welch' AS test,
           welch_z(b.mean_{column}, b.sd_{column} ** 2, b.games, v.mean_{column}, v.sd_{column} ** 2, v.games)
               AS statistic
    FROM game_stats AS v
    JOIN game_stats AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
    WHERE v.variant <> 'baseline'"""

    return " UNION ALL ".join([
        proportion("draw_rate", "draws", "draw_b", "draw_v"),
        proportion("turn_cap_rate", "turn_cap_games", "cap_b", "cap_v"),
        mean("turns", "turns"),
        mean("decisions", "decisions"),
    ])


def _variant_deltas(paired: bool | None) -> str:
    families = " UNION ALL ".join([
        _proportion_family("seat", "seat_stats", "seat", "games", "wins", paired),
        _proportion_family("agent", "agent_stats", "agent", "seat_games", "wins", paired),
        _proportion_family("faction", "faction_stats", "faction", "seat_games", "wins", paired),
        _card_family("gih_win_rate", "wins_in_hand", "games_in_hand"),
        _card_family("played_win_rate", "wins_played", "games_played"),
        _card_family("play_rate", "games_played", "games_in_hand"),
        _game_family(paired),
    ])
    return f"""
WITH paired_games AS ({_paired_games(paired)}),
rows AS ({families}),
tested AS (
    -- One erfc for every test: McNemar's statistic is chi-square on one degree
    -- of freedom, P = erfc(sqrt(stat/2)); a z statistic's two-sided P = erfc(|z|/sqrt(2)).
    SELECT *, erfc(sqrt((CASE WHEN test = 'mcnemar' THEN statistic ELSE statistic * statistic END) / 2))
               AS p_value
    FROM rows
),
ranked AS (
    SELECT *, value - baseline_value AS delta,
           row_number() OVER (PARTITION BY experiment, variant, n_players, family ORDER BY p_value, key, metric)
               AS p_rank,
           count(*) OVER (PARTITION BY experiment, variant, n_players, family) AS tests
    FROM tested
)
SELECT experiment, variant, n_players, family, key, metric, baseline_value, value, delta, baseline_n, n,
       test, statistic, p_value,
       least(1.0, min(p_value * tests / p_rank) OVER (
           PARTITION BY experiment, variant, n_players, family ORDER BY p_rank DESC
           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS q_value,
       q_value < {SIGNIFICANCE!r} AS significant
FROM ranked
ORDER BY {ORDER}, family, q_value, key, metric
"""


def metric_view_sql(paired: bool | None = None) -> dict[str, str]:
    """The ``SELECT`` of every metric view, by view name, in dependency order.

    They read the count views (``count_view_sql``); ``variant_deltas`` also
    reads ``games`` and ``players`` for the paired tests. ``paired`` tells it
    whether the variants were played on the baseline's seeds: ``None`` finds
    out from the data (seed-matched games), ``False`` skips the pairing joins
    (faster when known).
    """
    return {
        "seat_stats": SEAT_STATS,
        "seat_balance": _seat_balance(),
        "agent_stats": AGENT_STATS,
        "faction_stats": FACTION_STATS,
        "faction_spread": FACTION_SPREAD,
        "matchups": MATCHUPS,
        "party_size_stats": PARTY_SIZE_STATS,
        "composition_stats": COMPOSITION_STATS,
        "class_effects": CLASS_EFFECTS,
        "seat_totals": SEAT_TOTALS,
        "card_stats": CARD_STATS,
        "game_stats": _game_stats(),
        "end_reason_stats": END_REASON_STATS,
        "turn_distribution": TURN_DISTRIBUTION,
        "variant_deltas": _variant_deltas(paired),
    }


def register_metric_views(con: duckdb.DuckDBPyConnection, *, counts: bool = True,
                          paired: bool | None = None) -> None:
    """Create the count views and every metric view on ``con`` (which has ``games``, ``players``, ``cards``).

    With ``counts=False`` the count views are left to the caller (who has
    created them as tables, e.g. from cached per-shard counts; see
    ``analytics.partials``).
    """
    if counts:
        for name, query in count_view_sql(Columns.of(con)).items():
            con.execute(f"CREATE OR REPLACE VIEW {name} AS {query}")
    for name, query in metric_view_sql(paired).items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {query}")
