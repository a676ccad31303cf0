"""Balance metrics of one experiment, computed in DuckDB, returned as Polars.

Every function takes a catalog connection (``analytics.catalog.open_catalog``)
and returns one small DataFrame; all aggregation happens in SQL. Rows are
ordered with the ``baseline`` variant first, then the other variants by name.

Definitions shared by all of them:

- A *game* is one row of ``games``, identified by (variant, n_players,
  game_index).
- A *win* is a ``players`` row with ``won`` true. In a draw (``games.draw``)
  nobody wins, so ``win_rate = wins / games`` counts a draw as not-a-win; the
  ``draws`` column says how many there were.
- ``ci_low``/``ci_high`` are the 95% Wilson score interval of the rate
  (``analytics.stats``); with no games the interval is [0, 1].
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import duckdb
import polars as pl
import pyarrow as pa

from analytics.folders import AnalyticsError
from analytics.stats import register_sql_macros
from analytics.views import METRIC_VIEWS, register_metric_views
from dataset.quoting import sql_identifier, sql_string
from experiments.spec import BASELINE, SpecError
from workers.shard import play_shard

if TYPE_CHECKING:
    from experiments.spec import ExperimentSpec

_VARIANT_ORDER = "(variant <> 'baseline'), variant"


def _frame(con: duckdb.DuckDBPyConnection, query: str) -> pl.DataFrame:
    return con.sql(query).pl()


def _columns(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    return [row[0] for row in con.execute(f"DESCRIBE {view}").fetchall()]


def _win_rates(con: duckdb.DuckDBPyConnection, key: str) -> pl.DataFrame:
    # From the count views (analytics.views): players joined to their game
    # (for ``draw``), counted per variant, player count and ``key``.
    # seat_counts has a row per seat and agent holding it: summed over the agents.
    source, games = (("(SELECT variant, n_players, seat, sum(games)::BIGINT AS games, sum(wins)::BIGINT AS wins, "
                      "sum(draws)::BIGINT AS draws FROM seat_counts GROUP BY ALL)", "games") if key == "seat"
                     else ("agent_counts", "seat_games"))
    return _frame(con, f"""
        SELECT variant, n_players, {key}, {games} AS games, wins, draws,
               wins / {games} AS win_rate,
               wilson_low(wins, {games}) AS ci_low,
               wilson_high(wins, {games}) AS ci_high
        FROM {source}
        ORDER BY {_VARIANT_ORDER}, n_players, {key}
    """)


def win_rate_by_seat(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Win rate of each seat, per variant and player count.

    Columns: variant, n_players, seat, games (games played at that player
    count; every seat sits in every game), wins (games the seat won, alone or
    shared), draws (games nobody won), win_rate = wins / games, ci_low,
    ci_high (95% Wilson interval of win_rate).
    """
    return _win_rates(con, "seat")


def win_rate_by_agent(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Win rate of each agent, per variant and player count, over all seats.

    Columns: variant, n_players, agent, games (seat-games: one per game and
    seat the agent held; equal to games played when the agent holds one seat
    per game), wins, draws (of those seat-games, in drawn games), win_rate =
    wins / games, ci_low, ci_high (95% Wilson interval). When one agent holds
    several seats of the same game its seat-games are not independent, and
    the interval is then only indicative.
    """
    return _win_rates(con, "agent")


def end_reasons(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The distinct ``games.end_reason`` values, sorted."""
    return [row[0] for row in con.execute("SELECT DISTINCT end_reason FROM game_counts ORDER BY 1").fetchall()]


def game_length(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """How long games last and how they end, per variant and player count.

    Columns: variant, n_players, games, mean_turns, min_turns, max_turns,
    p50_turns and p90_turns (quantiles with linear interpolation between
    order statistics, DuckDB's ``quantile_cont``, the same as numpy's
    default), mean_decisions (agent decisions per game), draw_rate (share of
    drawn games), then one column ``end_<reason>`` per end reason found in the
    experiment: the share of the games that ended that way (0 where a reason
    never occurs in a variant). Turns are counted as the game counts them
    (rounds in Divvy).
    """
    shares = "".join(
        f",\n (SELECT coalesce(sum(c.games), 0) FROM game_counts AS c WHERE c.experiment = s.experiment "
        f"AND c.variant = s.variant AND c.n_players = s.n_players AND c.end_reason = {sql_string(reason)}) "
        f"/ s.games AS {sql_identifier('end_' + reason)}"
        for reason in end_reasons(con))
    # From game_stats (itself from the game_counts histogram; see analytics.views).
    return _frame(con, f"""
        SELECT variant, n_players, games, mean_turns, min_turns, max_turns, p50_turns, p90_turns,
               mean_decisions, draw_rate{shares}
        FROM game_stats AS s
        ORDER BY {_VARIANT_ORDER}, n_players
    """)


CARD_COUNTERS_NEEDED = ("drawn", "played")


def card_table(con: duckdb.DuckDBPyConnection, agent: str | None = None) -> pl.DataFrame:
    """Per-card statistics, per variant, player count and agent (the agent holding the seat).

    One ``cards`` row is one (game, seat, card) that the seat held or saw, so
    the counts below are of *seat-games* (a card both seats drew in one game
    counts twice). Columns:

    - games_drawn: seat-games in which the seat drew the card at least once
      (dealt cards count as drawn);
    - times_drawn: copies drawn in all, over all seat-games;
    - games_played: seat-games in which the seat played it at least once;
    - times_played: plays in all;
    - wins_when_played: of the games_played seat-games, those the seat won;
    - win_rate_when_played = wins_when_played / games_played (null if 0),
      with played_ci_low/played_ci_high its 95% interval, clustered by game
      (``analytics.stats.clustered_interval``);
    - wins_when_drawn, win_rate_when_drawn = wins_when_drawn / games_drawn
      (null if 0).

    A card nobody drew, played or won in a variant has no row for it (for
    example the cards a variant removes). Rows are ordered by variant, player
    count, agent, then win_rate_when_played (highest first, nulls last) and
    card. Needs the counters ``drawn`` and ``played`` in ``cards``.

    Cards are never pooled over different agents: the win rate of a card
    mostly says which agent holds it when the agents differ in strength.
    ``agent`` keeps one agent's rows.
    """
    missing = [name for name in CARD_COUNTERS_NEEDED if name not in _columns(con, "cards")]
    if missing:
        raise AnalyticsError(
            f"cards: no column {missing[0]!r}; the card table needs the counters {', '.join(CARD_COUNTERS_NEEDED)}")
    where = "" if agent is None else f"WHERE agent = {sql_string(agent)}"
    return _frame(con, f"""
        SELECT variant, n_players, agent, card,
               games_drawn, times_drawn, games_played, times_played, wins_played AS wins_when_played,
               wins_played / nullif(games_played, 0) AS win_rate_when_played,
               clustered_low(games_played, wins_played, played_n_sq, played_w_sq, played_nw, played_clusters,
                             played_hits) AS played_ci_low,
               clustered_high(games_played, wins_played, played_n_sq, played_w_sq, played_nw, played_clusters,
                              played_hits) AS played_ci_high,
               wins_when_drawn,
               wins_when_drawn / nullif(games_drawn, 0) AS win_rate_when_drawn
        FROM (SELECT * FROM card_counts {where})
        WHERE games_drawn > 0 OR games_played > 0 OR wins_when_drawn > 0
        ORDER BY {_VARIANT_ORDER}, n_players, agent, win_rate_when_played DESC NULLS LAST, card
    """)


# ====================================================================== the balance metrics
#
# Each function below reads one metric view of ``analytics.views`` (defined
# there, with every column explained in its module docstring and in
# analytics/README.md) into a Polars DataFrame: the same numbers as
# ``SELECT * FROM <view>`` in ``cardlab sql`` or in the catalog file.


def metric(con: duckdb.DuckDBPyConnection, view: str) -> pl.DataFrame:
    """The metric view ``view`` (one of ``analytics.views.METRIC_VIEWS``) as a DataFrame."""
    if view not in METRIC_VIEWS:
        raise AnalyticsError(f"metric {view!r}: expected one of {', '.join(METRIC_VIEWS)}")
    return _frame(con, f"SELECT * FROM {view}")


def seat_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per seat: win rate and win share (of all wins) with 95% Wilson intervals, and the fair share 1/N."""
    return metric(con, "seat_stats")


def seat_balance(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per player count: chi-square of the seats' wins against 1/N each, and the
    first-seat advantage (seat 0's win share − 1/N) with its 95% interval."""
    return metric(con, "seat_balance")


def agent_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per agent: seat-games, wins, win rate with its 95% Wilson interval."""
    return metric(con, "agent_stats")


def faction_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per faction (party, hero class): win rate with interval, expected rate and
    target-band flags. Empty for a game without factions."""
    return metric(con, "faction_stats")


def faction_spread(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per player count: min, max, spread (max − min) and standard deviation of the
    factions' win rates, and how many sit outside the target band."""
    return metric(con, "faction_spread")


def matchups(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Faction i's win rate over its seat-games in games that include faction j (long form)."""
    return metric(con, "matchups")


def party_size_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Cooperative games: the team's win rate per party size."""
    return metric(con, "party_size_stats")


def composition_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Cooperative games: the team's win rate per party composition (sorted classes joined by '+')."""
    return metric(con, "composition_stats")


def class_effects(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Cooperative games: win rate with and without each class in the party, the
    difference (marginal effect) and its two-proportion z-test."""
    return metric(con, "class_effects")


def game_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per player count: turns and decisions distribution, legal actions per
    decision, draw rate and turn-cap rate with intervals."""
    return metric(con, "game_stats")


def end_reason_stats(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Share of each end reason with its interval."""
    return metric(con, "end_reason_stats")


def turn_distribution(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Games per number of turns (the length distribution)."""
    return metric(con, "turn_distribution")


def variant_deltas(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every variant against the baseline: deltas, tests, p-values and
    Benjamini–Hochberg q-values per family."""
    return metric(con, "variant_deltas")


def card_stats(con: duckdb.DuckDBPyConnection, agent: str | None = None) -> pl.DataFrame:
    """The 17lands-style card metrics (see ``analytics.views``), one row per
    (variant, player count, agent, card): games in hand, GIH, GNS and OH/GD
    win rates, improvement when drawn, play rate (and play rate when
    playable), mean turn played, empirical-Bayes shrunk win rate, z-score,
    band and outlier flags, the never-played flag.

    Cards are always counted per agent, the agent holding the seat (never a
    pool of different players); ``agent`` keeps one agent's rows.
    """
    frame = metric(con, "card_stats")
    return frame if agent is None else frame.filter(pl.col("agent") == agent)


# ====================================================================== early stopping


def probe_connection(probe: ExperimentSpec) -> duckdb.DuckDBPyConnection:
    """The metric views over every game of ``probe`` (an experiment of one game per
    player count of the current data), played in-process: enough to know which views
    and columns exist for the game, and which of them it fills, before anything runs.
    The up-front checks of ``[[stop_when]]`` (``check_stop_when``) and of a tuning
    spec's targets (``analytics.tuning.check_targets``) both look at it."""
    tables: dict[str, list[pa.Table]] = {}
    for shard in probe.shards():
        for name, table in play_shard(probe, shard).items():
            tables.setdefault(name, []).append(table)
    con = duckdb.connect(":memory:")
    con.execute("SET enable_progress_bar = false")
    for name, parts in tables.items():
        con.register(name, pa.concat_tables(parts, promote_options="permissive"))
    register_sql_macros(con)
    register_metric_views(con)
    return con


def check_stop_when(spec: ExperimentSpec) -> None:
    """Check every ``[[stop_when]]`` target of ``spec`` against the real metric views of
    its game (``probe_connection``: one game of the baseline per player count), so that a
    mistake is refused when the spec is read, not after the first round of shards (or,
    with fewer shards than a round, never): what ``target_widths`` checks during the run
    (a metric view, a rate of it with an interval, ``max_width``, ``where`` columns and
    the type of their values), and that the target can be met at all: the view has the
    rate for this game at the spec's player counts, and a ``where`` on ``n_players`` or
    ``variant`` names one the spec plays. Raises ``SpecError`` naming the file and
    ``stop_when[i]``."""
    if not spec.stop_when:
        return
    con = probe_connection(dataclasses.replace(spec, games=1, variants=(spec.variant(BASELINE),)))
    try:
        try:
            target_widths(con, list(spec.stop_when))
        except AnalyticsError as error:
            raise SpecError(f"{spec.source}: {error}") from None
        variants = [variant.name for variant in spec.variants]
        for index, target in enumerate(spec.stop_when):
            # A target no row can meet would never stop the run: refused as the tuning targets are.
            key = f"{spec.source}: stop_when[{index}]"
            where = target.get("where", {})
            if "n_players" in where and where["n_players"] not in spec.player_counts:
                raise SpecError(f"{key}.where.n_players: impossible target: the spec plays "
                                f"{list(spec.player_counts)} players, not {where['n_players']!r}")
            if "variant" in where and where["variant"] not in variants:
                raise SpecError(f"{key}.where.variant: impossible target: the spec has no variant "
                                f"{where['variant']!r}; expected one of {', '.join(variants)}")
            view, rate = target["view"], target["rate"]
            found = con.execute(f"SELECT count({sql_identifier(rate)}) FROM {view}").fetchone()
            if not found or not found[0]:
                raise SpecError(f"{key}: impossible target: {view} has no {rate} for {spec.game} at "
                                f"{list(spec.player_counts)} players (a view this game does not fill)")
    finally:
        con.close()


def target_widths(con: duckdb.DuckDBPyConnection, targets: list[dict[str, object]]) -> pl.DataFrame:
    """For each target (see ``targets_met``), the widest interval among its rows.

    Columns: target (its index), view, rate, max_width, rows, widest (null
    without rows), met (rows > 0 and widest <= max_width).
    """
    rows = []
    for index, target in enumerate(targets):
        view, rate, max_width = target.get("view"), target.get("rate"), target.get("max_width")
        where = target.get("where", {})
        key = f"stop_when[{index}]"  # the targets are the spec's [[stop_when]] tables
        if view not in METRIC_VIEWS or not isinstance(view, str):
            raise AnalyticsError(f"{key}.view: expected one of {', '.join(METRIC_VIEWS)}, got {view!r}")
        columns = _columns(con, view)
        if not isinstance(rate, str) or f"{rate}_low" not in columns or f"{rate}_high" not in columns:
            rates = [name[:-4] for name in columns if name.endswith("_low") and f"{name[:-4]}_high" in columns]
            raise AnalyticsError(f"{key}.rate: expected one of {', '.join(rates)} for {view}, got {rate!r}")
        if isinstance(max_width, bool) or not isinstance(max_width, int | float) or not 0 < max_width <= 1:
            raise AnalyticsError(f"{key}.max_width: expected a number in (0, 1], got {max_width!r}")
        if not isinstance(where, dict) or any(name not in columns for name in where):
            raise AnalyticsError(f"{key}.where: expected a table of {view} columns and values, got {where!r}")
        condition = " AND ".join(f"{sql_identifier(name)} = ?" for name in where) or "TRUE"
        try:
            count, widest = con.execute(
                f"SELECT count(*), max({sql_identifier(rate + '_high')} - {sql_identifier(rate + '_low')}) "
                f"FROM {view} WHERE {condition}", list(where.values())).fetchall()[0]
        except duckdb.Error as error:  # a value DuckDB cannot compare with its column (seat = "zero")
            message = str(error).splitlines()[0]
            raise AnalyticsError(f"{key}.where: a value of the wrong type for {view} ({message})") from None
        rows.append({"target": index, "view": view, "rate": rate, "max_width": float(max_width), "rows": int(count),
                     "widest": widest, "met": bool(count) and widest is not None and widest <= max_width})
    return pl.DataFrame(rows, schema={"target": pl.Int64, "view": pl.String, "rate": pl.String,
                                      "max_width": pl.Float64, "rows": pl.Int64, "widest": pl.Float64,
                                      "met": pl.Boolean})


def targets_met(con: duckdb.DuckDBPyConnection, targets: list[dict[str, object]]) -> bool:
    """True once every target metric's 95% interval is at most as wide as asked.

    A target is a mapping (a TOML table)::

        {"view": "seat_stats", "rate": "win_rate", "max_width": 0.02}
        {"view": "card_stats", "rate": "gih_win_rate", "max_width": 0.05, "where": {"variant": "baseline"}}

    ``view`` is a metric view, ``rate`` a rate of it with ``<rate>_low`` and
    ``<rate>_high`` columns, ``max_width`` the largest acceptable
    ``high − low``, and the optional ``where`` keeps the rows whose columns
    equal the given values. A target is met when it has at least one row and
    every row's interval is narrow enough; an empty ``targets`` list is never
    met (there is nothing to stop on). Raises ``AnalyticsError`` naming the
    bad target.
    """
    if not targets:
        return False
    return bool(target_widths(con, targets)["met"].all())


def agent_matchups(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Agent i's win rate over its seat-games in games that include agent j
    (``opponent``) at another seat, per variant and player count: the
    agent-versus-agent matrix of a skill ladder (long form). A seat-game counts
    once per distinct opposing agent (not once per seat that agent holds), as
    in the faction ``matchups``; seat-games of an agent against itself count
    when two of its seats meet. The 95% interval is clustered by game (the
    seat-games of one game are linked); the per-game sums (``n_sq``, ``w_sq``,
    ``nw``, ``clusters``) are kept so that ``analytics.skill.pool_matchups``
    can pool variants."""
    return con.sql("""
        WITH pairs AS (
            SELECT DISTINCT me.experiment, me.variant, me.n_players, me.game_index, me.seat, me.agent,
                   them.agent AS opponent, me.won::INTEGER AS won
            FROM players AS me
            JOIN players AS them
              ON me.experiment = them.experiment AND me.variant = them.variant
             AND me.n_players = them.n_players AND me.game_index = them.game_index AND me.seat <> them.seat
        ), per_game AS (
            SELECT experiment, variant, n_players, game_index, agent, opponent, count(*) AS n, sum(won) AS w
            FROM pairs GROUP BY ALL
        ), sums AS (
            SELECT variant, n_players, agent, opponent, sum(n)::BIGINT AS seat_games, sum(w)::BIGINT AS wins,
                   sum(n * n)::BIGINT AS n_sq, sum(w * w)::BIGINT AS w_sq, sum(n * w)::BIGINT AS nw,
                   count(*)::BIGINT AS clusters, count(*) FILTER (WHERE w > 0)::BIGINT AS hits
            FROM per_game GROUP BY ALL
        )
        SELECT variant, n_players, agent, opponent, seat_games, wins, wins / seat_games AS win_rate,
               clustered_low(seat_games, wins, n_sq, w_sq, nw, clusters, hits) AS win_rate_low,
               clustered_high(seat_games, wins, n_sq, w_sq, nw, clusters, hits) AS win_rate_high,
               n_sq, w_sq, nw, clusters, hits
        FROM sums
        ORDER BY ALL
    """).pl()


def skill_movement(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """How each faction's and card's win rate moves across the variants of an
    experiment (a skill ladder has one variant per agent rung).

    For every (kind, name, player count) and variant: the win rate (factions:
    ``faction_stats.win_rate``; cards: ``card_stats.gih_win_rate``, games in
    hand), the variant's mean over all names of that kind, and the
    ``deviation`` between them. ``direction`` is +1 when the whole 95%
    interval lies above that mean, -1 when below, 0 otherwise. ``sign_flips``
    is true for a name that is surely above the mean in one variant and surely
    below it in another: strong with weak agents and weak with strong ones, or
    the reverse.

    Only the rungs count: variants (per player count) in which every seat
    plays the same agent, named in the ``rung`` column; head-to-head variants
    that seat different agents together are left out (their rates mix
    skills; ``analytics.skill.agent_matrix`` shows them).
    """
    rungs = con.sql("""
        SELECT variant, n_players, min(agent) AS rung FROM agent_counts
        GROUP BY variant, n_players HAVING count(DISTINCT agent) = 1
    """).pl().cast({"n_players": pl.Int64})
    frames = []
    for kind, view, rate in (("faction", "faction_stats", "win_rate"), ("card", "card_stats", "gih_win_rate")):
        name = "faction" if kind == "faction" else "card"
        stats = metric(con, view)
        if stats.is_empty():
            continue
        frames.append(stats.select(
            pl.lit(kind).alias("kind"), pl.col(name).alias("name"), "variant", "n_players",
            pl.col(rate).alias("win_rate"), pl.col(f"{rate}_low").alias("low"), pl.col(f"{rate}_high").alias("high"),
        ).cast({"n_players": pl.Int64}).join(rungs, on=["variant", "n_players"]))
    schema = {"kind": pl.String, "name": pl.String, "variant": pl.String, "n_players": pl.Int64,
              "win_rate": pl.Float64, "low": pl.Float64, "high": pl.Float64, "rung": pl.String}
    return movement_of_rates(pl.concat(frames, how="vertical_relaxed") if frames else pl.DataFrame(schema=schema))


def movement_of_rates(rows: pl.DataFrame) -> pl.DataFrame:
    """The computation behind ``skill_movement`` on a table of rates with
    columns kind, name, variant, n_players, win_rate, low, high (pure).
    Rows without a rate (a card never in hand on that rung) are left out."""
    rows = rows.filter(pl.col("win_rate").is_not_null())
    group = ["kind", "variant", "n_players"]
    rows = rows.with_columns(pl.col("win_rate").mean().over(group).alias("variant_mean"))
    # A margin for float noise: the SQL Wilson bound of 0 wins can come out as 1e-17, not 0.
    margin = 1e-9
    rows = rows.with_columns(
        (pl.col("win_rate") - pl.col("variant_mean")).alias("deviation"),
        pl.when(pl.col("low") > pl.col("variant_mean") + margin).then(1)
        .when(pl.col("high") < pl.col("variant_mean") - margin).then(-1).otherwise(0).alias("direction"),
    )
    flips = rows.group_by(["kind", "name", "n_players"]).agg(
        ((pl.col("direction") == 1).any() & (pl.col("direction") == -1).any()).alias("sign_flips"))
    return rows.join(flips, on=["kind", "name", "n_players"]).sort(["kind", "name", "n_players", "variant"])
