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

import duckdb
import polars as pl

from analytics.catalog import AnalyticsError

_VARIANT_ORDER = "(variant <> 'baseline'), variant"


def _frame(con: duckdb.DuckDBPyConnection, query: str) -> pl.DataFrame:
    return con.sql(query).pl()


def _columns(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    return [row[0] for row in con.execute(f"DESCRIBE {view}").fetchall()]


def _win_rates(con: duckdb.DuckDBPyConnection, key: str) -> pl.DataFrame:
    # One query for both tables: players joined to their game (for ``draw``),
    # counted per variant, player count and ``key`` (seat or agent).
    return _frame(con, f"""
        WITH counts AS (
            SELECT p.variant, p.n_players, p.{key},
                   count(*) AS games,
                   count(*) FILTER (WHERE p.won) AS wins,
                   count(*) FILTER (WHERE g.draw) AS draws
            FROM players AS p
            JOIN games AS g USING (variant, n_players, game_index)
            GROUP BY p.variant, p.n_players, p.{key}
        )
        SELECT variant, n_players, {key}, games, wins, draws,
               wins / games AS win_rate,
               wilson_low(wins, games) AS ci_low,
               wilson_high(wins, games) AS ci_high
        FROM counts
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
    return [row[0] for row in con.execute("SELECT DISTINCT end_reason FROM games ORDER BY 1").fetchall()]


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


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
        f",\n count(*) FILTER (WHERE end_reason = {_literal(reason)}) / count(*) AS {_identifier('end_' + reason)}"
        for reason in end_reasons(con))
    return _frame(con, f"""
        SELECT variant, n_players,
               count(*) AS games,
               avg(turns) AS mean_turns,
               min(turns) AS min_turns,
               max(turns) AS max_turns,
               quantile_cont(turns, 0.5) AS p50_turns,
               quantile_cont(turns, 0.9) AS p90_turns,
               avg(decisions) AS mean_decisions,
               count(*) FILTER (WHERE draw) / count(*) AS draw_rate{shares}
        FROM games
        GROUP BY variant, n_players
        ORDER BY {_VARIANT_ORDER}, n_players
    """)


CARD_COUNTERS_NEEDED = ("drawn", "played")


def card_table(con: duckdb.DuckDBPyConnection, agent: str | None = None) -> pl.DataFrame:
    """Per-card statistics, per variant and player count.

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
      with played_ci_low/played_ci_high its 95% Wilson interval;
    - wins_when_drawn, win_rate_when_drawn = wins_when_drawn / games_drawn
      (null if 0).

    A card nobody drew, played or won in a variant has no row for it (for
    example the cards a variant removes). Rows are ordered by variant, player
    count, then win_rate_when_played (highest first, nulls last) and card.
    Needs the counters ``drawn`` and ``played`` in ``cards``.

    ``agent`` keeps only the seats that agent held. Worth it whenever the
    agents differ in strength: over all agents, "win rate when played" mostly
    says which agent tends to play the card.
    """
    missing = [name for name in CARD_COUNTERS_NEEDED if name not in _columns(con, "cards")]
    if missing:
        raise AnalyticsError(
            f"cards: no column {missing[0]!r}; the card table needs the counters {', '.join(CARD_COUNTERS_NEEDED)}")
    where = ""
    if agent is not None:
        # A semi-join keeps the cards view's own columns unambiguous.
        where = (f"WHERE (variant, n_players, game_index, seat) IN (SELECT variant, n_players, game_index, seat "
                 f"FROM players WHERE agent = {_literal(agent)})")
    return _frame(con, f"""
        WITH per_card AS (
            SELECT variant, n_players, card,
                   count(*) FILTER (WHERE drawn > 0) AS games_drawn,
                   sum(drawn)::BIGINT AS times_drawn,
                   count(*) FILTER (WHERE played > 0) AS games_played,
                   sum(played)::BIGINT AS times_played,
                   count(*) FILTER (WHERE played > 0 AND won) AS wins_when_played,
                   count(*) FILTER (WHERE drawn > 0 AND won) AS wins_when_drawn
            FROM cards
            {where}
            GROUP BY variant, n_players, card
        )
        SELECT variant, n_players, card,
               games_drawn, times_drawn, games_played, times_played, wins_when_played,
               wins_when_played / nullif(games_played, 0) AS win_rate_when_played,
               wilson_low(wins_when_played, games_played) AS played_ci_low,
               wilson_high(wins_when_played, games_played) AS played_ci_high,
               wins_when_drawn,
               wins_when_drawn / nullif(games_drawn, 0) AS win_rate_when_drawn
        FROM per_card
        ORDER BY {_VARIANT_ORDER}, n_players, win_rate_when_played DESC NULLS LAST, card
    """)
