"""The count views: the additive aggregates of an experiment's rows, shared by writer and readers.

A shard task counts its own rows into these tables while they are in memory
(``workers.counts``) and writes them beside its Parquet files; the readers
(``analytics.partials``) add the shards' counts up, or compute the same tables
from the rows with the SQL here. Every metric view reads only these (and the
paired tests read ``games``/``players``), so a report over millions of games
reads a few kB per shard. Shards hold disjoint games, so even distinct-game
counts and the per-game sums of the clustered rates add up.

``COUNT_VIEWS`` is the contract: each view's key columns and additive
columns; ``COUNT_VIEW_CONTRACTS`` their types and descriptions
(``dataset.contracts``). ``COUNTS_FORMAT`` is what a shard's manifest records
of its counts; a reader uses a shard's counts only when it matches.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import duckdb

from dataset.contracts import AGENT, CARD, FACTION, GROUP, SEAT, Column, ViewContract, contract

GAME_KEY = "experiment, variant, n_players, game_index"
SEAT_KEY = f"{GAME_KEY}, seat"


def cluster_sums(prefix: str, n: str, w: str) -> str:
    """Outer aggregates over per-game counts ``n`` and ``w``: the additive sums of a clustered rate."""
    return (f"count(*) FILTER (WHERE {n} > 0) AS {prefix}_clusters, sum({n} * {n})::BIGINT AS {prefix}_n_sq, "
            f"sum({w} * {w})::BIGINT AS {prefix}_w_sq, sum({n} * {w})::BIGINT AS {prefix}_nw")


def cluster_columns(prefix: str) -> tuple[str, ...]:
    return (f"{prefix}_clusters", f"{prefix}_n_sq", f"{prefix}_w_sq", f"{prefix}_nw")


def cluster_contract(prefix: str, trials: str, successes: str) -> tuple[Column, ...]:
    """The contract of ``cluster_sums(prefix, ...)``: per game g, ``n_g`` is the number of
    ``trials`` and ``w_g`` of ``successes`` (both in words) it holds."""
    why = "for the interval clustered by game (`clustered_n`)"
    return (Column(f"{prefix}_clusters", "BIGINT", f"Games with at least one of the {trials} ({why})."),
            Column(f"{prefix}_n_sq", "BIGINT", f"Σ over games of n², n = the game's {trials} ({why})."),
            Column(f"{prefix}_w_sq", "BIGINT", f"Σ over games of w², w = the game's {successes} ({why})."),
            Column(f"{prefix}_nw", "BIGINT",
                   f"Σ over games of n·w, the game's {trials} times its {successes} ({why})."))


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
        parts = [f"coalesce(c.{name}, 0) > 0" for name in ("drawn", "in_opening_hand") if name in self.cards]
        if not parts:
            return "TRUE"
        present = " AND ".join(f"c.{name} IS NULL" for name in ("drawn", "in_opening_hand") if name in self.cards)
        return f"(CASE WHEN {present} THEN TRUE ELSE {' OR '.join(parts)} END)"

    def opening(self) -> str:
        """SQL: the card was in the seat's opening hand (NULL if the game does not count that)."""
        return "coalesce(c.in_opening_hand, 0) > 0" if "in_opening_hand" in self.cards else "NULL::BOOLEAN"

    def drawn_later(self) -> str:
        """SQL: a copy was drawn after the opening hand (NULL if the game lacks the counters)."""
        if {"drawn", "in_opening_hand"} <= self.cards:
            return "coalesce(c.drawn, 0) > coalesce(c.in_opening_hand, 0)"
        return "NULL::BOOLEAN"

    def played(self) -> str:
        """SQL: the seat played the card (the ``played`` counter, else a first played turn).

        ``played`` counts every play by the seat's own choice, in turn or out
        of turn (counters, reactions): the convention every game follows."""
        if "played" in self.cards:
            return "(CASE WHEN c.played IS NULL THEN c.first_played_turn IS NOT NULL ELSE c.played > 0 END)"
        return "c.first_played_turn IS NOT NULL"

    def playable(self) -> str:
        """SQL: the card was playable at least once (NULL when the game has no ``playable`` counter)."""
        return "coalesce(c.playable, 0) > 0" if "playable" in self.cards else "NULL::BOOLEAN"

    def count(self, name: str) -> str:
        """SQL: the counter ``name``, 0 where the game does not have it."""
        return f"coalesce(c.{name}, 0)" if name in self.cards else "0"

    def games_column(self, name: str, sql_type: str) -> str:
        """SQL: the ``games`` column ``name``, NULL of ``sql_type`` when the game does not record it."""
        return f"g.{name}" if name in self.games else f"NULL::{sql_type}"


# ------------------------------------------------------------------ counts
#
# The count views: additive aggregates of the big tables. Every metric view
# reads only these (and the paired tests read games/players), so the report
# can compute them shard by shard, cache them (analytics.partials) and add
# the shards' counts up, instead of scanning every row each time. Shards
# hold disjoint games, so even distinct-game counts and the per-game sums of
# the clustered rates add up.

SEAT_COUNTS = f"""
SELECT p.experiment, p.variant, p.n_players, p.seat,
       count(*) AS games,
       count(*) FILTER (WHERE p.won) AS wins,
       count(*) FILTER (WHERE g.draw) AS draws
FROM players AS p JOIN (SELECT {GAME_KEY}, draw FROM games) AS g USING ({GAME_KEY})
GROUP BY p.experiment, p.variant, p.n_players, p.seat
"""

AGENT_COUNTS = f"""
WITH per_game AS (
    SELECT p.experiment, p.variant, p.n_players, p.game_index, p.agent,
           count(*) AS n, count(*) FILTER (WHERE p.won) AS w, bool_or(g.draw) AS draw
    FROM players AS p JOIN (SELECT {GAME_KEY}, draw FROM games) AS g USING ({GAME_KEY})
    GROUP BY p.experiment, p.variant, p.n_players, p.game_index, p.agent
)
SELECT experiment, variant, n_players, agent,
       sum(n)::BIGINT AS seat_games,
       sum(w)::BIGINT AS wins,
       coalesce(sum(n) FILTER (WHERE draw), 0)::BIGINT AS draws,
       count(*) AS games,
       {cluster_sums('win', 'n', 'w')}
FROM per_game
GROUP BY experiment, variant, n_players, agent
"""

FACTION_COUNTS = f"""
WITH per_game AS (
    SELECT experiment, variant, n_players, game_index, faction,
           count(*) AS n, count(*) FILTER (WHERE won) AS w
    FROM players WHERE faction IS NOT NULL
    GROUP BY experiment, variant, n_players, game_index, faction
)
SELECT experiment, variant, n_players, faction,
       sum(n)::BIGINT AS seat_games,
       count(*) AS games,
       sum(w)::BIGINT AS wins,
       {cluster_sums('win', 'n', 'w')}
FROM per_game
GROUP BY experiment, variant, n_players, faction
"""

MATCHUP_COUNTS = f"""
WITH seats AS (
    SELECT {SEAT_KEY}, faction, won FROM players WHERE faction IS NOT NULL
), pairs AS (
    -- One row per seat-game of faction i and each distinct faction j at another seat.
    SELECT DISTINCT a.experiment, a.variant, a.n_players, a.game_index, a.seat, a.faction, a.won,
           b.faction AS opponent
    FROM seats AS a JOIN seats AS b USING ({GAME_KEY})
    WHERE a.seat <> b.seat
), per_game AS (
    SELECT experiment, variant, n_players, game_index, faction, opponent,
           count(*) AS n, count(*) FILTER (WHERE won) AS w
    FROM pairs GROUP BY ALL
)
SELECT experiment, variant, n_players, faction, opponent,
       sum(n)::BIGINT AS seat_games,
       sum(w)::BIGINT AS wins,
       {cluster_sums('win', 'n', 'w')}
FROM per_game
GROUP BY experiment, variant, n_players, faction, opponent
"""

TEAM_COUNTS = f"""
WITH teams AS (
    SELECT {GAME_KEY},
           bool_or(won) AS won,
           bool_or(won) = bool_and(won) AS uniform,
           string_agg(faction, '+' ORDER BY faction) AS composition
    FROM players
    GROUP BY {GAME_KEY}
)
SELECT t.experiment, t.variant, t.n_players, t.composition,
       count(*) AS games,
       count(*) FILTER (WHERE t.won) AS wins,
       count(*) FILTER (WHERE NOT t.uniform) AS mixed,
       count(*) FILTER (WHERE g.draw) AS draws
FROM teams AS t JOIN (SELECT {GAME_KEY}, draw FROM games) AS g USING ({GAME_KEY})
GROUP BY t.experiment, t.variant, t.n_players, t.composition
"""


def card_rows_sql(columns: Columns, source: str, extra_key: str = "") -> str:
    """Each ``cards`` row with its seat's agent (and ``extra_key`` column of
    ``players``) and the flags the card counts need."""
    extra = f", p.{extra_key}" if extra_key else ""
    return f"""
    SELECT c.experiment, c.variant, c.n_players, c.game_index, p.agent{extra}, c.card, c.won,
           {columns.in_hand()} AS in_hand,
           {columns.opening()} AS opening,
           {columns.drawn_later()} AS drawn_later,
           {columns.played()} AS was_played,
           {columns.playable()} AS was_playable,
           {columns.count('drawn')} AS n_drawn,
           {columns.count('played')} AS n_played,
           {columns.count('playable')} AS n_playable,
           c.first_played_turn
    FROM {source} AS c JOIN (SELECT {SEAT_KEY}, agent, faction FROM players) AS p
         USING ({SEAT_KEY})"""


CARD_RATES = {
    # prefix: (seat-games counted, of which "wins"): the clustered rates of card_stats.
    "gih": ("in_hand", "in_hand AND won"),
    "played": ("was_played", "was_played AND won"),
    "play": ("in_hand", "in_hand AND was_played"),
    "playable": ("was_playable", "was_playable AND was_played"),
}
"""The clustered rates of the card counts: GIH win rate, played win rate, play
rate (played, of the games in hand) and play rate when playable."""


def card_counts_sql(columns: Columns, source: str = "cards", extra_key: str = "") -> str:
    """The per-card counts behind ``card_stats`` (per agent, and per ``extra_key``
    such as ``faction`` when given), over ``source`` (a view or subquery of ``cards``)."""
    key = f"experiment, variant, n_players, agent{', ' + extra_key if extra_key else ''}, card"
    where = f"WHERE {extra_key} IS NOT NULL" if extra_key else ""
    per_game = ",\n           ".join(
        f"count(*) FILTER (WHERE {n}) AS {prefix}_n, count(*) FILTER (WHERE {w}) AS {prefix}_w"
        for prefix, (n, w) in CARD_RATES.items())
    clusters = ",\n       ".join(cluster_sums(prefix, f"{prefix}_n", f"{prefix}_w") for prefix in CARD_RATES)
    return f"""
WITH flags AS ({card_rows_sql(columns, source, extra_key)}
), per_game AS (
    SELECT {key}, game_index,
           {per_game},
           count(*) FILTER (WHERE opening) AS opening_n, count(*) FILTER (WHERE opening AND won) AS opening_w,
           count(*) FILTER (WHERE drawn_later) AS later_n, count(*) FILTER (WHERE drawn_later AND won) AS later_w,
           count(*) FILTER (WHERE n_drawn > 0) AS drawn_n, count(*) FILTER (WHERE n_drawn > 0 AND won) AS drawn_w,
           sum(n_drawn) AS times_drawn, sum(n_played) AS times_played, sum(n_playable) AS times_playable,
           coalesce(sum(first_played_turn) FILTER (WHERE was_played), 0) AS sum_turn_played,
           count(first_played_turn) FILTER (WHERE was_played) AS n_turn_played
    FROM flags {where}
    GROUP BY {key}, game_index
)
SELECT {key},
       sum(gih_n)::BIGINT AS games_in_hand,
       sum(gih_w)::BIGINT AS wins_in_hand,
       sum(opening_n)::BIGINT AS games_opening,
       sum(opening_w)::BIGINT AS wins_opening,
       sum(later_n)::BIGINT AS games_drawn_later,
       sum(later_w)::BIGINT AS wins_drawn_later,
       sum(drawn_n)::BIGINT AS games_drawn,
       sum(drawn_w)::BIGINT AS wins_when_drawn,
       sum(times_drawn)::BIGINT AS times_drawn,
       sum(played_n)::BIGINT AS games_played,
       sum(played_w)::BIGINT AS wins_played,
       sum(play_w)::BIGINT AS games_played_in_hand,
       sum(playable_n)::BIGINT AS games_playable,
       sum(playable_w)::BIGINT AS games_played_when_playable,
       sum(times_played)::BIGINT AS times_played,
       sum(times_playable)::BIGINT AS times_playable,
       sum(sum_turn_played)::BIGINT AS sum_turn_played,
       sum(n_turn_played)::BIGINT AS n_turn_played,
       {clusters}
FROM per_game
GROUP BY {key}
"""


def _card_turn_counts(columns: Columns) -> str:
    """Seat-games per card and first turn played (the card detail view's trend)."""
    return f"""
WITH flags AS ({card_rows_sql(columns, 'cards')}
), per_game AS (
    SELECT experiment, variant, n_players, agent, card, first_played_turn, game_index,
           count(*) AS n, count(*) FILTER (WHERE won) AS w
    FROM flags WHERE was_played AND first_played_turn IS NOT NULL
    GROUP BY ALL
)
SELECT experiment, variant, n_players, agent, card, first_played_turn,
       sum(n)::BIGINT AS games_played, sum(w)::BIGINT AS wins_played,
       {cluster_sums('played', 'n', 'w')}
FROM per_game
GROUP BY experiment, variant, n_players, agent, card, first_played_turn
"""


def _run_counts(columns: Columns) -> str:
    """Games per level reached, wipes and outcome (cooperative runs; NULL columns elsewhere)."""
    return f"""
SELECT g.experiment, g.variant, g.n_players,
       {columns.games_column('level_reached', 'INTEGER')}::INTEGER AS level_reached,
       {columns.games_column('wipes', 'INTEGER')}::INTEGER AS wipes,
       len(g.winners) > 0 AS won,
       count(*) AS games
FROM games AS g
GROUP BY ALL
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


def _leader_won(columns: Columns, leader: str) -> str:
    """SQL: the seat leading alone at a third of the game (``games.<leader>``) won, alone or
    sharing the win; NULL when nobody led alone then, or the game does not record it."""
    if leader not in columns.games:
        return "NULL::BOOLEAN"
    return f"CASE WHEN {leader} IS NULL THEN NULL ELSE list_contains(winners, {leader}) END"


def _lead_counts(columns: Columns) -> str:
    """Games per margin, lead changes, the winner's deficit and whether the leader at each third won
    (``simcore.standings``; NULL keys in games without standings and in older results)."""
    def games_column(name: str) -> str:
        return name if name in columns.games else "NULL"

    return f"""
SELECT experiment, variant, n_players,
       {games_column('margin')}::INTEGER AS margin,
       {games_column('lead_changes')}::INTEGER AS lead_changes,
       {games_column('winner_deficit')}::INTEGER AS winner_deficit,
       {_leader_won(columns, 'leader_first_third')} AS first_third_leader_won,
       {_leader_won(columns, 'leader_second_third')} AS second_third_leader_won,
       count(*) AS games
FROM games
GROUP BY ALL
"""


def _card_additive(extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    return ("games_in_hand", "wins_in_hand", "games_opening", "wins_opening", "games_drawn_later",
            "wins_drawn_later", "games_drawn", "wins_when_drawn", "times_drawn", "games_played", "wins_played",
            "games_played_in_hand", "games_playable", "games_played_when_playable", "times_played",
            "times_playable", "sum_turn_played", "n_turn_played",
            *(column for prefix in CARD_RATES for column in cluster_columns(prefix)), *extra)


# A shard task computes these same tables from its rows in memory (workers/counts.py, numpy):
# a change here must be made there too; tests/workers/test_shard_counts.py holds both equal.
COUNT_VIEWS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # name: (key columns, additive columns)
    "seat_counts": (("experiment", "variant", "n_players", "seat"), ("games", "wins", "draws")),
    "agent_counts": (("experiment", "variant", "n_players", "agent"),
                     ("seat_games", "wins", "draws", "games", *cluster_columns("win"))),
    "faction_counts": (("experiment", "variant", "n_players", "faction"),
                       ("seat_games", "games", "wins", *cluster_columns("win"))),
    "matchup_counts": (("experiment", "variant", "n_players", "faction", "opponent"),
                       ("seat_games", "wins", *cluster_columns("win"))),
    "team_counts": (("experiment", "variant", "n_players", "composition"), ("games", "wins", "mixed", "draws")),
    "card_counts": (("experiment", "variant", "n_players", "agent", "card"), _card_additive()),
    "card_turn_counts": (("experiment", "variant", "n_players", "agent", "card", "first_played_turn"),
                         ("games_played", "wins_played", *cluster_columns("played"))),
    "run_counts": (("experiment", "variant", "n_players", "level_reached", "wipes", "won"), ("games",)),
    "game_counts": (("experiment", "variant", "n_players", "turns", "decisions", "draw", "end_reason"),
                    ("games", "legal_actions", "legal_decisions")),
    "lead_counts": (("experiment", "variant", "n_players", "margin", "lead_changes", "winner_deficit",
                     "first_third_leader_won", "second_third_leader_won"), ("games",)),
}
"""The count views, with their key columns and their additive columns."""


def _games(what: str) -> Column:
    return Column("games", "BIGINT", what)


_SEAT_GAMES = "seat-games"
_IN_HAND = "seat-games with the card in hand"
_CARD_COUNTS = (
    Column("games_in_hand", "BIGINT", "Seat-games in which the card was in the seat's hand (drawn, dealt cards "
           "included, or in the opening hand; every row where the game has neither counter)."),
    Column("wins_in_hand", "BIGINT", "Of those, the seat-games the seat won."),
    Column("games_opening", "BIGINT", "Seat-games with the card in the opening hand (0 where the game has no "
           "`in_opening_hand` counter)."),
    Column("wins_opening", "BIGINT", "Of those, the seat-games the seat won."),
    Column("games_drawn_later", "BIGINT", "Seat-games in which a copy was drawn after the opening hand "
           "(`drawn` > `in_opening_hand`)."),
    Column("wins_drawn_later", "BIGINT", "Of those, the seat-games the seat won."),
    Column("games_drawn", "BIGINT", "Seat-games in which the seat drew the card (`drawn` > 0)."),
    Column("wins_when_drawn", "BIGINT", "Of those, the seat-games the seat won."),
    Column("times_drawn", "BIGINT", "Copies drawn (the `drawn` counter), summed over the seat-games."),
    Column("games_played", "BIGINT", "Seat-games in which the seat played the card (the `played` counter, "
           "else a first played turn)."),
    Column("wins_played", "BIGINT", "Of those, the seat-games the seat won."),
    Column("games_played_in_hand", "BIGINT", "Seat-games with the card in hand in which the seat played it."),
    Column("games_playable", "BIGINT", "Seat-games in which the card was playable at least once (the `playable` "
           "counter; 0 where the game has none)."),
    Column("games_played_when_playable", "BIGINT", "Of those, the seat-games in which the seat played it."),
    Column("times_played", "BIGINT", "Plays (the `played` counter), summed over the seat-games."),
    Column("times_playable", "BIGINT", "Steps at which the card was playable (the `playable` counter), summed."),
    Column("sum_turn_played", "BIGINT", "Σ of the first turn the card was played, over the seat-games it was "
           "played in (÷ `n_turn_played`: the mean first turn)."),
    Column("n_turn_played", "BIGINT", "Seat-games counted in `sum_turn_played`."),
    *cluster_contract("gih", _IN_HAND, "wins with it in hand"),
    *cluster_contract("played", "seat-games in which the card was played", "wins among them"),
    *cluster_contract("play", _IN_HAND, "plays of it among them"),
    *cluster_contract("playable", "seat-games in which the card was playable", "plays of it among them"),
)
COUNT_VIEW_CONTRACTS: dict[str, ViewContract] = {view.name: view for view in (
    contract("seat_counts", "Per seat: games, wins and draws. Additive: an experiment's counts are the sums of "
             "its shards'.", GROUP, SEAT,
             _games("Games played at this player count (each has every seat)."),
             Column("wins", "BIGINT", "Games this seat won."),
             Column("draws", "BIGINT", "Drawn games.")),
    contract("agent_counts", "Per agent: seat-games, wins, draws and the per-game sums of its clustered win rate. "
             "Additive.", GROUP, AGENT,
             Column("seat_games", "BIGINT", "Seats the agent held, over all games (an agent at two seats of a "
                    "game counts twice)."),
             Column("wins", "BIGINT", "Seat-games the agent won."),
             Column("draws", "BIGINT", "Seat-games of the agent in drawn games."),
             _games("Games in which the agent held at least one seat."),
             *cluster_contract("win", "agent's seat-games", "agent's wins")),
    contract("faction_counts", "Per faction: seat-games, games, wins and the per-game sums of its clustered win "
             "rate (seats without a faction left out). Additive.", GROUP, FACTION,
             Column("seat_games", "BIGINT", "Seats of the faction, over all games."),
             _games("Games in which the faction held at least one seat."),
             Column("wins", "BIGINT", "Seat-games of the faction that won."),
             *cluster_contract("win", "faction's seat-games", "faction's wins")),
    contract("matchup_counts", "Per faction and opposing faction: the faction's seat-games and wins in games "
             "where the opponent sat at another seat. Additive.", GROUP, FACTION,
             Column("opponent", "VARCHAR", "The opposing faction (at another seat of the same game)."),
             Column("seat_games", "BIGINT", "Seat-games of the faction in games with the opponent at another seat "
                    "(once per distinct opposing faction)."),
             Column("wins", "BIGINT", "Of those, the seat-games the faction won."),
             *cluster_contract("win", "faction's seat-games against the opponent", "faction's wins among them")),
    contract("team_counts", "Per party composition: games, games won, games with winners and losers, and draws "
             "(what tells a cooperative experiment). Additive.", GROUP,
             Column("composition", "VARCHAR", "The seats' factions, sorted and joined by `+`; NULL in games "
                    "without factions."),
             _games("Games played with this composition."),
             Column("wins", "BIGINT", "Games in which some seat won (in a cooperative game: the party won)."),
             Column("mixed", "BIGINT", "Games in which some seats won and others lost (a competitive game with "
                    "a winner)."),
             Column("draws", "BIGINT", "Drawn games.")),
    contract("card_counts", "Per agent and card: the seat-games with the card in hand, played, playable... "
             "and their wins, with the per-game sums of each clustered card rate. Additive.", GROUP, AGENT, CARD,
             _CARD_COUNTS),
    contract("card_turn_counts", "Per agent, card and first turn played: the seat-games and wins. Additive.",
             GROUP, AGENT, CARD,
             Column("first_played_turn", "SMALLINT", "The first turn the seat played the card."),
             Column("games_played", "BIGINT", "Seat-games in which the card was first played on that turn."),
             Column("wins_played", "BIGINT", "Of those, the seat-games the seat won."),
             *cluster_contract("played", _SEAT_GAMES, "wins")),
    contract("run_counts", "Games per level reached, wipes and outcome (cooperative runs; the level and wipes are "
             "NULL in games that do not record them). Additive.", GROUP,
             Column("level_reached", "INTEGER", "`games.level_reached`: the level the party reached; NULL where "
                    "the game does not record it."),
             Column("wipes", "INTEGER", "`games.wipes`: times the party fell; NULL where the game does not record "
                    "it."),
             Column("won", "BOOLEAN", "Some seat won (in a cooperative game: the party won)."),
             _games("Games with these values.")),
    contract("game_counts", "The histogram of games by length and ending: games per turns, decisions, draw and end "
             "reason. Additive.", GROUP,
             Column("turns", "INTEGER", "`games.turns`: turns (or rounds) played."),
             Column("decisions", "INTEGER", "`games.decisions`: the agents' decisions (forced moves excluded)."),
             Column("draw", "BOOLEAN", "The games were draws."),
             Column("end_reason", "VARCHAR", "`games.end_reason`: why the games ended."),
             _games("Games with these values."),
             Column("legal_actions", "BIGINT", "`games.legal_actions` summed over these games (0 where not "
                    "recorded)."),
             Column("legal_decisions", "BIGINT", "Decisions of those of these games that recorded "
                    "`legal_actions`.")),
    contract("lead_counts", "The histogram of games by how they were won: games per margin of victory, lead "
             "changes, the winner's largest deficit and whether the leader at each third won (NULL keys in games "
             "without standings). Additive.", GROUP,
             Column("margin", "INTEGER", "`games.margin`: the sole winner's final standing minus the runner-up's."),
             Column("lead_changes", "INTEGER", "`games.lead_changes`: times the lead passed to another seat."),
             Column("winner_deficit", "INTEGER", "`games.winner_deficit`: the largest deficit the sole winner came "
                    "back from."),
             Column("first_third_leader_won", "BOOLEAN", "The seat leading alone at the end of the first third "
                    "(`games.leader_first_third`) won, alone or sharing; NULL when nobody led alone then."),
             Column("second_third_leader_won", "BOOLEAN", "The same for the seat leading alone at the end of the "
                    "second third (`games.leader_second_third`)."),
             _games("Games with these values.")),
)}
"""Each count view's contract: its columns (``COUNT_VIEWS``' keys, then its additive columns)
with their DuckDB types and descriptions."""


def count_view_sql(columns: Columns) -> dict[str, str]:
    """The ``SELECT`` of every count view over the base views, by name."""
    queries = {
        "seat_counts": SEAT_COUNTS,
        "agent_counts": AGENT_COUNTS,
        "faction_counts": FACTION_COUNTS,
        "matchup_counts": MATCHUP_COUNTS,
        "team_counts": TEAM_COUNTS,
        "card_counts": card_counts_sql(columns),
        "card_turn_counts": _card_turn_counts(columns),
        "run_counts": _run_counts(columns),
        "game_counts": _game_counts(columns),
        "lead_counts": _lead_counts(columns),
    }
    # Ordered by their keys, so that a count view reads the same whether it
    # scans the rows or sums cached counts.
    return {name: f"{query.rstrip()}\nORDER BY {', '.join(COUNT_VIEWS[name][0])}" for name, query in queries.items()}


CACHE_VERSION = "v3"
"""Bumped whenever a count view's meaning changes: counts written by a task (and
those cached by ``analytics.partials``) of another version are counted again."""

VIEWS_FINGERPRINT = hashlib.sha256(repr(sorted(COUNT_VIEWS.items())).encode()).hexdigest()[:16]
"""Changes whenever a count view gains, loses or renames a column, so that counts
written by another cardlab version are recomputed rather than summed wrongly."""

COUNTS_FORMAT = {"version": CACHE_VERSION, "views": VIEWS_FINGERPRINT}
"""What a shard's manifest entry records of its counts (``counts.format``): the
report uses a shard's counts only when this matches."""
