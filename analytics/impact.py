"""Card impact: how much a card changes its holder's win rate, from paired arms on the same deals.

A card impact run (``[impact]`` in the experiment file, ``experiments.impact``)
plays, on the baseline's seeds, one variant per card and *arm*: the card
replaced in place by its game's neutral stand-in (``stand_in``) or one copy
fewer (``one_fewer``). The views here compare each arm's games with the
card-as-is games of the same index.

**The holder.** In the card-as-is (baseline) game, every seat that held the
card (drawn or in its opening hand, as the card tables count "in hand");
in the arm's game, the same seat. Each holder seat-game gives
``won_with_card − won_in_arm`` (1, 0 or −1).

**The estimate.** ``impact`` = the holders' win rate with the card minus
their win rate in the arm's games, over the games where the card was held:
``(B − A) / N`` with ``B`` and ``A`` the holder wins in the two games and
``N`` the holder seat-games. Positive: the card helps its holder.

**The interval.** The unit of evidence is the game (its seats are linked;
several seats may hold copies): the ratio estimator's variance clustered by
game, ``G/(G−1) · Σ_g (d_g − impact·n_g)² / N²`` with ``d_g`` and ``n_g``
a game's differences and holder seats, and a normal interval at
``normal_z()`` (95%). The same games read as two independent samples (the
pairing ignored: the variances of the two win rates added) give
``unpaired_low``/``unpaired_high``; ``pairing_gain`` is how many times
narrower the paired interval is. ``p_value`` is the two-sided normal test
of ``impact = 0``; ``q_value`` the Benjamini-Hochberg adjustment over the
family of every card and arm of an (experiment, player count, agent).

The ``one_fewer`` arm plays seeds of its own (``experiments.impact.PAIRED_ARMS``):
its game ``i`` is an independent game, and the same formulas compare the
holder seat's result there with its result in the card-as-is game ``i``
(independent pairs: the paired and unpaired intervals then agree).

The other columns say what the swap did to the game (its length, the share
of games whose winner changed) and hold what the correlational rates of
``card_stats`` are biased by: the length of the games where the card was
held and the holder seats' own strength (``card_impact_vs_gih``).

Every view's columns are listed with their DuckDB type and a one-line
description beside its SQL (``*_COLUMNS``); ``register_impact_views`` defines
them on a catalog connection (``analytics.catalog``).
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import polars as pl

from analytics import text_tables as fmt
from analytics.stats import Z95
from analytics.text_tables import TextTable
from dataset.count_views import Columns

ARM_PATTERN = r"^impact\.(.+)\.(stand_in|one_fewer)$"
"""An arm's variant name (``experiments.impact.arm_variant``): card and arm."""

SIGNIFICANCE = 0.05
"""False discovery rate at which an impact is called significant (as ``variant_deltas``)."""

RANK_GAP = 5
"""Places between a card's rank by IWD and by impact from which ``card_impact_vs_gih`` calls them in disagreement."""

Contract = dict[str, tuple[str, str]]
"""A view's columns: name -> (DuckDB type, one-line description)."""

_KEY_COLUMNS: Contract = {
    "experiment": ("VARCHAR", "the experiment"),
    "variant": ("VARCHAR", "the arm's variant, impact.<card>.<arm>"),
    "n_players": ("TINYINT", "players at the table"),
    "agent": ("VARCHAR", "the agent at the holder seat (card tables are per agent)"),
}

_ESTIMATE_COLUMNS: Contract = {
    "card": ("VARCHAR", "the card swapped"),
    "arm": ("VARCHAR", "stand_in (replaced in place by the game's neutral card) or one_fewer (one copy fewer)"),
    "games": ("BIGINT", "games (pairs of games on one seed) in which the agent held the card in the card-as-is game"),
    "holder_seat_games": ("BIGINT", "holder seat-games in those games (a game counts once per seat that held it)"),
    "win_rate_with_card": ("DOUBLE", "the holders' win rate in the card-as-is games"),
    "win_rate_in_arm": ("DOUBLE", "the same seats' win rate in the arm's games"),
    "impact": ("DOUBLE", "win_rate_with_card - win_rate_in_arm: what the card adds to its holder's win rate"),
    "impact_low": ("DOUBLE", "low end of impact's 95% interval (paired, clustered by game)"),
    "impact_high": ("DOUBLE", "high end of impact's 95% interval (paired, clustered by game)"),
    "unpaired_low": ("DOUBLE", "low end of the 95% interval of the same games compared unpaired"),
    "unpaired_high": ("DOUBLE", "high end of the 95% interval of the same games compared unpaired"),
    "pairing_gain": ("DOUBLE", "unpaired interval width / paired interval width (how much the pairing narrows it)"),
    "p_value": ("DOUBLE", "two-sided p-value of impact = 0 (normal test on the paired difference)"),
    "q_value": ("DOUBLE", "Benjamini-Hochberg q-value over every card and arm of the agent and player count"),
    "significant": ("BOOLEAN", "q_value < 0.05"),
    "winner_changed": ("BIGINT", "games whose winner(s) differ between the two games"),
    "winner_changed_share": ("DOUBLE", "winner_changed / games: how often the swap decided the game"),
    "turns_change": ("DOUBLE", "mean turns of the arm's games minus the card-as-is games (positive: longer without)"),
    "turns_change_low": ("DOUBLE", "low end of turns_change's 95% interval (paired by game)"),
    "turns_change_high": ("DOUBLE", "high end of turns_change's 95% interval (paired by game)"),
    "mean_turns_held": ("DOUBLE", "mean turns of the card-as-is games in which the agent held the card"),
    "mean_turns_all": ("DOUBLE", "mean turns of every card-as-is game (the baseline)"),
    "holder_strength": ("DOUBLE", "the holder seats' own baseline win rate (of their seat and agent, over every "
                                  "baseline game), averaged over the holder seat-games"),
    "agent_win_rate": ("DOUBLE", "the agent's baseline win rate over all its seat-games"),
}

CARD_IMPACT_COLUMNS: Contract = {**_KEY_COLUMNS, **_ESTIMATE_COLUMNS}
"""``card_impact``: one row per (experiment, arm variant, player count, holder agent)."""

CARD_IMPACT_FACTION_COLUMNS: Contract = {
    **_KEY_COLUMNS, "faction": ("VARCHAR", "the holder seat's faction (party, hero class...)"), **_ESTIMATE_COLUMNS}
"""``card_impact_factions``: ``card_impact`` per holder faction (games with factions only)."""

CARD_IMPACT_SEAT_COLUMNS: Contract = {
    **_KEY_COLUMNS, "seat": ("TINYINT", "the holder seat"), **_ESTIMATE_COLUMNS}
"""``card_impact_seats``: ``card_impact`` per holder seat."""

CARD_IMPACT_VS_GIH_COLUMNS: Contract = {
    "experiment": ("VARCHAR", "the experiment"),
    "n_players": ("TINYINT", "players at the table"),
    "agent": ("VARCHAR", "the agent holding the card"),
    "card": ("VARCHAR", "the card"),
    "arm": ("VARCHAR", "the arm the impact comes from (stand_in where played, else one_fewer)"),
    "gih_win_rate": ("DOUBLE", "baseline GIH win rate (correlational: win rate of the seat-games with it in hand)"),
    "gns_win_rate": ("DOUBLE", "baseline GNS win rate (seat-games without it)"),
    "iwd": ("DOUBLE", "baseline IWD = GIH - GNS (correlational)"),
    "impact": ("DOUBLE", "the causal impact (card_impact.impact)"),
    "impact_low": ("DOUBLE", "low end of impact's 95% interval"),
    "impact_high": ("DOUBLE", "high end of impact's 95% interval"),
    "iwd_rank": ("BIGINT", "the card's rank by IWD among the agent's cards with an impact (1 = highest)"),
    "impact_rank": ("BIGINT", "the card's rank by impact among the same cards (1 = highest)"),
    "rank_gap": ("BIGINT", "iwd_rank - impact_rank (positive: the causal impact ranks it higher than IWD)"),
    "length_bias": ("DOUBLE", "mean_turns_held - mean_turns_all: how much longer the games it was held in are"),
    "mean_turns_all": ("DOUBLE", "mean turns of every card-as-is game (the baseline)"),
    "seen_bias": ("DOUBLE", "cards (kinds) in hand over a game of the seats that held it minus of those that did "
                            "not (its GIH games against its GNS games): a seat that lives longer or draws more "
                            "holds more of every card"),
    "mean_cards_seen": ("DOUBLE", "the agent's mean number of cards in hand over a game (seat-games of the baseline)"),
    "strength_bias": ("DOUBLE", "holder_strength - agent_win_rate: how much stronger its holder seats are"),
    "selection_bias": ("DOUBLE", "win_rate_in_arm - agent_win_rate of the stand_in arm: how much more the seats "
                                 "that come to hold the card win with a neutral card in its place (who holds it)"),
    "opponent_held_share": ("DOUBLE", "of the agent's seat-games without the card (GNS), the share in which "
                                      "another seat (a rival, or in a cooperative game a teammate) held it"),
    "gih_half_width": ("DOUBLE", "half the width of the GIH win rate's 95% interval: the correlational rate's noise"),
    "disagree": ("BOOLEAN", f"|rank_gap| >= {RANK_GAP}: the correlational and the causal rank disagree"),
}
"""``card_impact_vs_gih``: the baseline's correlational card rates beside the causal impact."""

IMPACT_VIEWS: dict[str, Contract] = {
    "card_impact": CARD_IMPACT_COLUMNS,
    "card_impact_factions": CARD_IMPACT_FACTION_COLUMNS,
    "card_impact_seats": CARD_IMPACT_SEAT_COLUMNS,
    "card_impact_vs_gih": CARD_IMPACT_VS_GIH_COLUMNS,
}
"""Every view of this module and its column contract."""


def card_impact_sql(columns: Columns, extra_key: str = "") -> str:
    """``card_impact`` (per holder ``extra_key`` too: ``faction`` or ``seat``) from the rows."""
    extra = f", {extra_key}" if extra_key else ""
    group = f"experiment, variant, n_players, agent{extra}, card, arm"
    in_hand = columns.in_hand()
    return f"""
WITH arms AS MATERIALIZED (
    SELECT DISTINCT experiment, variant, n_players,
           regexp_extract(variant, '{ARM_PATTERN}', 1) AS card,
           regexp_extract(variant, '{ARM_PATTERN}', 2) AS arm
    FROM games WHERE regexp_matches(variant, '{ARM_PATTERN}')
), baseline_players AS (
    SELECT experiment, n_players, game_index, seat, agent, faction, won::INTEGER AS won
    FROM players WHERE variant = 'baseline'
), seat_strength AS (
    -- Each (seat, agent)'s own baseline win rate: what a holder seat wins whatever it holds.
    SELECT experiment, n_players, seat, agent, avg(won) AS strength FROM baseline_players GROUP BY ALL
), agent_rate AS (
    SELECT experiment, n_players, agent, avg(won) AS agent_win_rate FROM baseline_players GROUP BY ALL
), baseline_length AS (
    SELECT experiment, n_players, avg(turns) AS mean_turns_all FROM games WHERE variant = 'baseline' GROUP BY ALL
), holders AS MATERIALIZED (
    -- The holders: the seats that held the card in the card-as-is game.
    SELECT c.experiment, c.n_players, c.game_index, c.seat, c.card
    FROM cards AS c WHERE c.variant = 'baseline' AND {in_hand}
), seat_games AS MATERIALIZED (
    SELECT a.experiment, a.variant, a.n_players, a.card, a.arm, h.game_index, h.seat, b.agent, b.faction,
           b.won AS won_with_card, p.won::INTEGER AS won_in_arm, s.strength
    FROM arms AS a
    JOIN holders AS h ON h.experiment = a.experiment AND h.n_players = a.n_players AND h.card = a.card
    JOIN baseline_players AS b
      ON b.experiment = h.experiment AND b.n_players = h.n_players AND b.game_index = h.game_index
     AND b.seat = h.seat
    JOIN players AS p
      ON p.experiment = a.experiment AND p.variant = a.variant AND p.n_players = a.n_players
     AND p.game_index = h.game_index AND p.seat = h.seat
    JOIN seat_strength AS s
      ON s.experiment = b.experiment AND s.n_players = b.n_players AND s.seat = b.seat AND s.agent = b.agent
), game_pairs AS MATERIALIZED (
    SELECT g.experiment, a.variant, g.n_players, g.game_index, g.turns AS turns_with_card, a.turns AS turns_in_arm,
           (g.winners <> a.winners)::INTEGER AS winner_changed
    FROM games AS g
    JOIN games AS a ON a.experiment = g.experiment AND a.n_players = g.n_players AND a.game_index = g.game_index
    WHERE g.variant = 'baseline' AND regexp_matches(a.variant, '{ARM_PATTERN}')
), per_game AS (
    SELECT {group}, s.game_index,
           count(*) AS n, sum(won_with_card) AS b, sum(won_in_arm) AS a, sum(strength) AS strength,
           any_value(g.turns_with_card) AS turns_with_card, any_value(g.turns_in_arm) AS turns_in_arm,
           any_value(g.winner_changed) AS winner_changed
    FROM seat_games AS s JOIN game_pairs AS g USING (experiment, variant, n_players, game_index)
    GROUP BY ALL
), sums AS (
    SELECT {group},
           count(*)::BIGINT AS games, sum(n)::BIGINT AS holder_seat_games,
           sum(b)::DOUBLE AS b, sum(a)::DOUBLE AS a, sum(strength) AS strength,
           sum(n * n)::DOUBLE AS nn, sum(b * b)::DOUBLE AS bb, sum(a * a)::DOUBLE AS aa,
           sum(n * b)::DOUBLE AS nb, sum(n * a)::DOUBLE AS na, sum((b - a) * (b - a))::DOUBLE AS dd,
           sum(n * (b - a))::DOUBLE AS nd,
           sum(turns_in_arm - turns_with_card)::DOUBLE AS t,
           sum((turns_in_arm - turns_with_card) * (turns_in_arm - turns_with_card))::DOUBLE AS tt,
           sum(turns_with_card)::DOUBLE AS turns_held,
           sum(winner_changed)::BIGINT AS winner_changed
    FROM per_game GROUP BY ALL
), estimates AS (
    SELECT *,
           b / holder_seat_games AS win_rate_with_card,
           a / holder_seat_games AS win_rate_in_arm,
           (b - a) / holder_seat_games AS impact,
           -- The ratio estimator's variance, clustered by game: G/(G-1) sum (x_g - r n_g)^2 / N^2.
           CASE WHEN games > 1 THEN sqrt(greatest(0.0, games / (games - 1.0)
                * (dd - 2 * impact * nd + impact * impact * nn))) / holder_seat_games END AS se,
           CASE WHEN games > 1 THEN sqrt(greatest(0.0, games / (games - 1.0)
                * (bb - 2 * win_rate_with_card * nb + win_rate_with_card * win_rate_with_card * nn)
                + games / (games - 1.0)
                * (aa - 2 * win_rate_in_arm * na + win_rate_in_arm * win_rate_in_arm * nn))) / holder_seat_games
           END AS unpaired_se,
           t / games AS turns_change,
           CASE WHEN games > 1 THEN sqrt(greatest(0.0, (tt / games - (t / games) * (t / games)) / (games - 1.0)))
           END AS turns_se
    FROM sums
), tested AS (
    SELECT *,
           CASE WHEN se > 0 THEN erfc(abs(impact) / se / sqrt(2.0))
                WHEN se = 0 THEN (CASE WHEN impact = 0 THEN 1.0 ELSE 0.0 END) END AS p_value
    FROM estimates
), ranked AS (
    SELECT *,
           row_number() OVER (PARTITION BY experiment, n_players, agent{extra} ORDER BY p_value, card, arm) AS p_rank,
           count(p_value) OVER (PARTITION BY experiment, n_players, agent{extra}) AS tests
    FROM tested
)
SELECT r.experiment, r.variant, r.n_players, r.agent{', r.' + extra_key if extra_key else ''}, r.card, r.arm,
       r.games, r.holder_seat_games, r.win_rate_with_card, r.win_rate_in_arm, r.impact,
       r.impact - normal_z() * r.se AS impact_low, r.impact + normal_z() * r.se AS impact_high,
       r.impact - normal_z() * r.unpaired_se AS unpaired_low, r.impact + normal_z() * r.unpaired_se AS unpaired_high,
       CASE WHEN r.se > 0 THEN r.unpaired_se / r.se END AS pairing_gain,
       r.p_value,
       CASE WHEN r.p_value IS NOT NULL THEN least(1.0, min(r.p_value * r.tests / r.p_rank) OVER (
           PARTITION BY r.experiment, r.n_players, r.agent{', r.' + extra_key if extra_key else ''}
           ORDER BY r.p_rank DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) END AS q_value,
       coalesce(q_value < {SIGNIFICANCE!r}, FALSE) AS significant,
       r.winner_changed, r.winner_changed / r.games AS winner_changed_share,
       r.turns_change, r.turns_change - normal_z() * r.turns_se AS turns_change_low,
       r.turns_change + normal_z() * r.turns_se AS turns_change_high,
       r.turns_held / r.games AS mean_turns_held, l.mean_turns_all,
       r.strength / r.holder_seat_games AS holder_strength, ar.agent_win_rate
FROM ranked AS r
JOIN baseline_length AS l USING (experiment, n_players)
JOIN agent_rate AS ar USING (experiment, n_players, agent)
ORDER BY r.experiment, r.n_players, r.agent{', r.' + extra_key if extra_key else ''}, r.arm DESC,
         r.impact DESC NULLS LAST, r.card
"""


def card_impact_vs_gih_sql(columns: Columns) -> str:
    """``card_impact_vs_gih``: ``card_impact`` beside the baseline's ``card_stats``."""
    return f"""
WITH held AS MATERIALIZED (
    SELECT c.experiment, c.n_players, c.game_index, c.seat, c.card, p.agent
    FROM cards AS c JOIN players AS p USING (experiment, variant, n_players, game_index, seat)
    WHERE c.variant = 'baseline' AND {columns.in_hand()}
), seat_seen AS MATERIALIZED (
    -- Cards each seat-game had in hand (0 for a seat that had none).
    SELECT p.experiment, p.n_players, p.game_index, p.seat, p.agent, count(h.card) AS seen
    FROM players AS p LEFT JOIN held AS h USING (experiment, n_players, game_index, seat)
    WHERE p.variant = 'baseline' GROUP BY ALL
), agent_seen AS (
    SELECT experiment, n_players, agent, avg(seen) AS mean_cards_seen, sum(seen) AS seen_sum,
           count(*) AS seat_games
    FROM seat_seen GROUP BY ALL
), holder_seen AS (
    SELECT h.experiment, h.n_players, h.agent, h.card, avg(s.seen) AS holder_seen, sum(s.seen) AS holder_seen_sum,
           count(*) AS holder_seat_games
    FROM held AS h JOIN seat_seen AS s USING (experiment, n_players, game_index, seat)
    GROUP BY ALL
), card_games AS (
    SELECT experiment, n_players, game_index, card FROM held GROUP BY ALL
), agent_holders AS (
    SELECT experiment, n_players, game_index, card, agent, count(*) AS n FROM held GROUP BY ALL
), agent_seats AS (
    SELECT experiment, n_players, game_index, agent, count(*) AS seats FROM players
    WHERE variant = 'baseline' GROUP BY ALL
), opponents AS (
    -- The agent's seat-games without the card in games where another seat held it.
    SELECT g.experiment, g.n_players, a.agent, g.card, sum(a.seats - coalesce(h.n, 0)) AS with_opponent
    FROM card_games AS g JOIN agent_seats AS a USING (experiment, n_players, game_index)
    LEFT JOIN agent_holders AS h
      ON h.experiment = g.experiment AND h.n_players = g.n_players AND h.game_index = g.game_index
     AND h.card = g.card AND h.agent = a.agent
    GROUP BY ALL
), chosen AS (
    -- The stand-in arm where it was played (the in-place swap), else one copy fewer.
    SELECT * FROM card_impact
    QUALIFY row_number() OVER (PARTITION BY experiment, n_players, agent, card ORDER BY arm = 'stand_in' DESC) = 1
), joined AS (
    SELECT i.experiment, i.n_players, i.agent, i.card, i.arm, s.gih_win_rate, s.gns_win_rate, s.iwd,
           i.impact, i.impact_low, i.impact_high,
           i.mean_turns_held - i.mean_turns_all AS length_bias, i.mean_turns_all,
           i.holder_strength - i.agent_win_rate AS strength_bias,
           CASE WHEN i.arm = 'stand_in' THEN i.win_rate_in_arm - i.agent_win_rate END AS selection_bias,
           hs.holder_seen - (a.seen_sum - hs.holder_seen_sum) / nullif(a.seat_games - hs.holder_seat_games, 0)
               AS seen_bias,
           a.mean_cards_seen,
           o.with_opponent / nullif(s.games_not_seen, 0) AS opponent_held_share,
           (s.gih_win_rate_high - s.gih_win_rate_low) / 2 AS gih_half_width
    FROM chosen AS i
    JOIN card_stats AS s
      ON s.experiment = i.experiment AND s.variant = 'baseline' AND s.n_players = i.n_players
     AND s.agent = i.agent AND s.card = i.card
    LEFT JOIN opponents AS o
      ON o.experiment = i.experiment AND o.n_players = i.n_players AND o.agent = i.agent AND o.card = i.card
    LEFT JOIN holder_seen AS hs
      ON hs.experiment = i.experiment AND hs.n_players = i.n_players AND hs.agent = i.agent AND hs.card = i.card
    LEFT JOIN agent_seen AS a ON a.experiment = i.experiment AND a.n_players = i.n_players AND a.agent = i.agent
    WHERE i.impact IS NOT NULL AND s.iwd IS NOT NULL
), ranked AS (
    SELECT *,
           rank() OVER (PARTITION BY experiment, n_players, agent ORDER BY iwd DESC) AS iwd_rank,
           rank() OVER (PARTITION BY experiment, n_players, agent ORDER BY impact DESC) AS impact_rank
    FROM joined
)
SELECT experiment, n_players, agent, card, arm, gih_win_rate, gns_win_rate, iwd, impact, impact_low, impact_high,
       iwd_rank, impact_rank, iwd_rank - impact_rank AS rank_gap, length_bias, mean_turns_all, seen_bias,
       mean_cards_seen, strength_bias, selection_bias, opponent_held_share, gih_half_width,
       abs(iwd_rank - impact_rank) >= {RANK_GAP} AS disagree
FROM ranked
ORDER BY experiment, n_players, agent, abs(iwd_rank - impact_rank) DESC, card
"""


def impact_view_sql(columns: Columns) -> dict[str, str]:
    """The ``SELECT`` of every view of ``IMPACT_VIEWS``, by name, in dependency order."""
    return {
        "card_impact": card_impact_sql(columns),
        "card_impact_factions": card_impact_sql(columns, "faction").replace(
            "FROM per_game GROUP BY ALL", "FROM per_game WHERE faction IS NOT NULL GROUP BY ALL"),
        "card_impact_seats": card_impact_sql(columns, "seat"),
        "card_impact_vs_gih": card_impact_vs_gih_sql(columns),
    }


def register_impact_views(con: duckdb.DuckDBPyConnection, *, defer_binding: bool = True) -> None:
    """Define the card impact views on a connection that has the base views and ``card_stats``.
    With ``defer_binding`` (as ``analytics.views.register_metric_views``) they are bound when
    first read. An experiment without impact arms has them, empty."""
    create = "CREATE OR REPLACE VIEW {name} WITH (DEFER_BINDING) AS {query}" if defer_binding else \
        "CREATE OR REPLACE VIEW {name} AS {query}"
    for name, query in impact_view_sql(Columns.of(con)).items():
        con.execute(create.format(name=name, query=query))


def card_impact(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """The ``card_impact`` view as a frame."""
    return con.sql("SELECT * FROM card_impact").pl()


def finished_arms(con: duckdb.DuckDBPyConnection, max_width: float, min_games: int) -> set[str]:
    """The arm variants whose impact is measured well enough to stop playing them: every row of
    the variant (each player count and holder agent) has ``min_games`` games with the card
    held and an interval at most ``max_width`` wide."""
    rows = con.execute("""
        SELECT variant FROM card_impact GROUP BY variant
        HAVING bool_and(games >= ? AND impact_high - impact_low <= ?)
    """, [min_games, max_width]).fetchall()
    return {variant for (variant,) in rows}


# ---------------------------------------------------------------- sizing (cardlab plan --impact-width)


def games_for_impact_width(width: float, changed: float, held: float = 1.0) -> tuple[int, int]:
    """(games with the in-place swap, games compared unpaired) for a 95% impact interval at most
    ``width`` wide, where the swap changes the holder's result in a share ``changed`` of the
    holder seat-games and a game holds ``held`` holder seat-games on average.

    Paired, a holder seat-game's difference is -1, 0 or 1, of variance at most ``changed``:
    ``width = 2·z·sqrt(changed / N)``. Unpaired, the two win rates' variances add up, at most
    ``2 · 0.25``. Games = holder seat-games / ``held``."""
    if not 0 < width < 2:
        raise ValueError(f"width must be above 0 and below 2, got {width!r}")
    if not 0 < changed <= 1:
        raise ValueError(f"changed must be above 0 and at most 1, got {changed!r}")
    if held <= 0:
        raise ValueError(f"held must be above 0, got {held!r}")

    def games(variance: float) -> int:
        return max(1, math.ceil(4 * Z95 * Z95 * variance / (width * width) / held))

    return games(changed), games(0.5)


def pilot_plan(con: duckdb.DuckDBPyConnection, width: float) -> pl.DataFrame:
    """From a pilot impact run's ``card_impact``, the games each arm needs for a 95% interval at
    most ``width`` wide: widths shrink as one over the root of the games, so
    ``games · (width now / width)²``, per arm: the median and the largest over the cards."""
    return con.sql(f"""
        WITH needed AS (
            SELECT arm, card, games, impact_high - impact_low AS width_now,
                   ceil(games * ((impact_high - impact_low) / {float(width)!r}) ** 2)::BIGINT AS games_needed,
                   games::DOUBLE / (SELECT count(*) FROM games AS g WHERE g.variant = 'baseline'
                                    AND g.experiment = card_impact.experiment
                                    AND g.n_players = card_impact.n_players) AS held_share
            FROM card_impact WHERE impact_high > impact_low
        )
        SELECT arm, count(*) AS cards, median(width_now) AS median_width_now,
               ceil(median(games_needed / held_share))::BIGINT AS median_games_per_arm,
               ceil(max(games_needed / held_share))::BIGINT AS most_games_per_arm,
               arg_max(card, games_needed / held_share) AS hardest_card
        FROM needed GROUP BY arm ORDER BY arm DESC
    """).pl()


# ---------------------------------------------------------------- the report's section


LENGTH_BIAS = 0.02
"""How much longer (or shorter), as a share of the mean game, the games a card was held in must be for
``why_they_disagree`` to name it."""
STRENGTH_BIAS = 0.005
"""How much stronger (or weaker) its holder seats must be, as a win rate, to be named."""
SEEN_BIAS = 0.05
"""How many more (or fewer) cards, as a share of the mean, its holder seats must have had in hand to be named."""
SELECTION_BIAS = 0.02
"""How much more (or less) the seats that come to hold a card win with its stand-in for it to be named."""
OPPONENT_SHARE = 0.3
"""The share of not-seen games an opponent held the card in from which it is named."""


def why_they_disagree(row: dict[str, Any]) -> str:
    """In words, what biases or blurs the correlational rate (IWD) of a card of
    ``card_impact_vs_gih``: the games it was held in were longer or shorter, its holders had more
    cards in hand than the seats without it (``seen_bias``), its holder seats stronger or weaker,
    the seats that come to hold it winning more or less whatever the card does
    (``selection_bias``), its GNS games are ones another seat held it in (in a competitive game IWD
    then sets the card's holder against its victim), and the GIH rate's own noise."""
    reasons = []
    length, strength = row.get("length_bias"), row.get("strength_bias")
    selection, opponent, noise = row.get("selection_bias"), row.get("opponent_held_share"), row.get("gih_half_width")
    mean_turns = row.get("mean_turns_all") or 1.0
    if length is not None and abs(length) >= LENGTH_BIAS * mean_turns:
        reasons.append(f"held in {'longer' if length > 0 else 'shorter'} games ({length:+.2f} turns)")
    seen, mean_seen = row.get("seen_bias"), row.get("mean_cards_seen") or 1.0
    if seen is not None and abs(seen) >= SEEN_BIAS * mean_seen:
        reasons.append(f"its holders had {abs(seen):.1f} {'more' if seen > 0 else 'fewer'} cards in hand than the "
                       f"seats without it (mean {mean_seen:.1f}): a seat that lives longer or draws more holds more "
                       "of every card")
    if strength is not None and abs(strength) >= STRENGTH_BIAS:
        reasons.append(f"held by {'stronger' if strength > 0 else 'weaker'} seats ({fmt.points(strength)} points)")
    if selection is not None and abs(selection) >= SELECTION_BIAS:
        more = "more" if selection > 0 else "less"
        reasons.append(f"its holders win {fmt.points(abs(selection)).lstrip('+')} points {more} than average even "
                       "with the stand-in: who comes to hold it, not what it does")
    if opponent is not None and opponent >= OPPONENT_SHARE:
        reasons.append(f"another seat held it in {fmt.percent(opponent)} of its not-seen games")
    if noise is not None:
        reasons.append(f"GIH +-{fmt.points(noise).lstrip('+')} points of noise")
    return "; ".join(reasons) if reasons else "-"


def impact_tables(frame: pl.DataFrame, versus: pl.DataFrame, rows: int | None) -> list[TextTable]:
    """The report's ``impact`` section: per player count, agent and arm, every card by impact with
    its paired interval, q-value, length change and winner-changed share; then the cards whose
    IWD rank and impact rank disagree, with why."""
    tables: list[TextTable] = []
    if frame.is_empty():
        return tables
    for key, group in frame.group_by(["n_players", "agent", "arm"], maintain_order=True):
        n_players, agent, arm = key
        ordered = group.sort("impact", descending=True, nulls_last=True).to_dicts()
        shown: list[dict[str, Any] | None] = list(ordered)
        what = f"all {len(ordered)} cards"
        if rows is not None and len(ordered) > 2 * rows:
            shown = [*ordered[:rows], None, *ordered[-rows:]]
            what = f"top and bottom {rows} of {len(ordered)} cards"
        cells = []
        for row in shown:
            if row is None:
                cells.append(["...", *([""] * 8)])
                continue
            cells.append([
                str(row["card"]), "*" if row["significant"] else "", fmt.count(row["games"]),
                fmt.points(row["impact"]), fmt.points_interval(row["impact_low"], row["impact_high"]),
                fmt.small_number(row["q_value"]), fmt.number(row["pairing_gain"], 1),
                fmt.signed(row["turns_change"]), fmt.percent(row["winner_changed_share"])])
        tables.append(TextTable(
            title=f"Card impact ({arm}): {n_players} players, held by {agent} ({what}, by impact)",
            headers=["card", "sig", "games", "impact", "impact 95%", "q", "x narrower", "turns", "decided"],
            right=[False, False, *([True] * 7)], rows=cells, keys=1,
            notes=["impact: the holders' win rate with the card minus the same seats' win rate "
                   + ("on the same deals with the card replaced in place by its game's neutral stand-in (paired)"
                      if arm == "stand_in" else "in games of their own with one copy fewer (unpaired: a shorter "
                      "deck deals differently)")
                   + " (points; positive: the card helps its holder); 95%: clustered by game; q: "
                   "Benjamini-Hochberg over every card and arm; sig: q < 0.05; x narrower: the unpaired interval "
                   "of the same games / this one; turns: mean change of game length without the card; "
                   "decided: share of the games whose winner changed."]))
    disagreeing = versus.filter(pl.col("disagree")) if not versus.is_empty() else versus
    if not disagreeing.is_empty():
        cells = [[str(row["card"]), str(row["agent"]), str(row["iwd_rank"]), str(row["impact_rank"]),
                  fmt.points(row["iwd"]), fmt.points(row["impact"]), why_they_disagree(row)]
                 for row in disagreeing.head(rows or disagreeing.height).to_dicts()]
        tables.append(TextTable(
            title="Where the correlational rate and the causal impact disagree",
            headers=["card", "agent", "IWD rank", "impact rank", "IWD", "impact", "why the IWD is biased"],
            right=[False, False, True, True, True, True, False], rows=cells, keys=1,
            notes=[f"cards whose rank by IWD (baseline, correlational) and by impact differ by {RANK_GAP}+ places; "
                   "why: what biases or blurs IWD for the card: games held in were longer or its holders had more "
                   "cards in hand (every card looks better in them); its holder seats were stronger; its holders "
                   "win more even with the stand-in (who holds it, not what it does); its not-seen games are ones "
                   "another seat held it in (a rival's card counts against IWD); the GIH rate's own 95% noise."]))
    return tables
