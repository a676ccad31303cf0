"""Card impact (a run with an ``[impact]`` table, ``experiments.impact``): ``card_impact``,
``card_impact_factions``, ``card_impact_seats``, ``card_impact_vs_gih`` and ``card_removal``.

An impact run plays, beside its baseline, one variant per card and *arm*,
named ``impact.<card>.<arm>``:

- ``stand_in``: the card replaced in place by its game's neutral stand-in, on
  the baseline's seeds. Game ``i`` of the arm is game ``i`` of the baseline
  with the card swapped, the same deal: the two games differ only from the
  moment the card matters. This arm measures the card's **holder-level
  impact** (``card_impact`` and its splits).
- ``one_fewer``: one copy fewer of the card, on seeds of its own. A shorter
  deck deals differently, so no seat of the arm's game is "the seat that held
  the card": the arm has **no holder-level impact**. What it measures is what
  the removal does to everyone (``card_removal``): each seat's, agent's and
  faction's win rate, the game's length, draws and end reasons, against the
  baseline, as two independent samples.

**The holder** (``stand_in``). In the card-as-is (baseline) game, every seat
that held the card (drawn or in its opening hand, as the card tables count
"in hand"); in the arm's game, the same seat. Each holder seat-game gives
``won_with_card − won_with_stand_in`` (1, 0 or −1).

**The estimate.** ``impact = (B − A) / N``: ``B`` and ``A`` the holder wins in
the two games, ``N`` the holder seat-games. Positive: the card helps its holder.

**The interval.** The unit of evidence is the game (its seats are linked;
several seats may hold copies): the ratio estimator's variance clustered by
game, ``G/(G−1) · Σ_g (d_g − impact·n_g)² / N²`` with ``d_g`` and ``n_g`` a
game's differences and holder seats, and a normal interval at ``normal_z()``
(95%). The same games read as two independent samples (the variances of the two
win rates added) give ``unpaired_low``/``unpaired_high``; ``pairing_gain`` is
how many times narrower the paired interval is. ``p_value``: the two-sided
normal test of ``impact = 0``; ``q_value``: Benjamini-Hochberg over every card
of an (experiment, player count, agent).

**The removal** (``one_fewer``). The rows of ``variant_deltas`` of each
``one_fewer`` arm (seat, agent and faction win rates, the game family's draws,
turn cap, turns and decisions, a cooperative party's wins; not the card rates,
which are correlational), and one row per end reason (its share of the games,
Newcombe's interval of the difference, the two-proportion z test). The arm's
games are independent of the baseline's (its own seeds): ``variant_deltas``
finds no seed-matched pair and compares them unpaired (``z``, ``welch``). The
q-values are adjusted again over every card's arm of an (experiment, player
count, family).

Every view's contract is beside its SQL; ``analytics.impact`` reads them (the
report's section, the early stop, sizing).
"""

from __future__ import annotations

from analytics.views.shared import ORDER
from analytics.views.thresholds import SIGNIFICANCE
from dataset.contracts import AGENT, CARD, EXPERIMENT, N_PLAYERS, SEAT, Column, contract
from dataset.count_views import Columns
from experiments.impact import ARM_PREFIX, ONE_FEWER, STAND_IN


def arm_pattern(arm: str) -> str:
    """SQL regular expression of ``arm``'s variant names (``experiments.impact.arm_variant``),
    the card its first group."""
    return "^" + ARM_PREFIX.replace(".", r"\.") + r"(.+)\." + arm + "$"


RANK_GAP = 5
"""Places between a card's rank by IWD and by impact from which ``card_impact_vs_gih`` calls them in disagreement."""


def card_impact_sql(columns: Columns, extra_key: str = "") -> str:
    """``card_impact`` (per holder ``extra_key`` too: ``faction`` or ``seat``) from the rows."""
    extra = f", {extra_key}" if extra_key else ""
    extra_r = f", r.{extra_key}" if extra_key else ""
    group = f"experiment, variant, n_players, agent{extra}, card"
    pattern = arm_pattern(STAND_IN)
    only_factions = " WHERE faction IS NOT NULL" if extra_key == "faction" else ""
    return f"""
WITH arms AS MATERIALIZED (
    SELECT DISTINCT experiment, variant, n_players, regexp_extract(variant, '{pattern}', 1) AS card
    FROM games WHERE regexp_matches(variant, '{pattern}')
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
    FROM cards AS c WHERE c.variant = 'baseline' AND {columns.in_hand()}
), seat_games AS MATERIALIZED (
    SELECT a.experiment, a.variant, a.n_players, a.card, h.game_index, h.seat, b.agent, b.faction,
           b.won AS won_with_card, p.won::INTEGER AS won_with_stand_in, s.strength
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
    SELECT g.experiment, a.variant, g.n_players, g.game_index, g.turns AS turns_with_card,
           a.turns AS turns_with_stand_in, (g.winners <> a.winners)::INTEGER AS winner_changed
    FROM games AS g
    JOIN games AS a ON a.experiment = g.experiment AND a.n_players = g.n_players AND a.game_index = g.game_index
    WHERE g.variant = 'baseline' AND regexp_matches(a.variant, '{pattern}')
), per_game AS (
    SELECT {group}, s.game_index,
           count(*) AS n, sum(won_with_card) AS b, sum(won_with_stand_in) AS a, sum(strength) AS strength,
           any_value(g.turns_with_card) AS turns_with_card, any_value(g.turns_with_stand_in) AS turns_with_stand_in,
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
           sum(turns_with_stand_in - turns_with_card)::DOUBLE AS t,
           sum((turns_with_stand_in - turns_with_card) * (turns_with_stand_in - turns_with_card))::DOUBLE AS tt,
           sum(turns_with_card)::DOUBLE AS turns_held,
           sum(winner_changed)::BIGINT AS winner_changed
    FROM per_game{only_factions} GROUP BY ALL
), estimates AS (
    SELECT *,
           b / holder_seat_games AS win_rate_with_card,
           a / holder_seat_games AS win_rate_with_stand_in,
           (b - a) / holder_seat_games AS impact,
           -- The ratio estimator's variance, clustered by game: G/(G-1) sum (x_g - r n_g)^2 / N^2.
           CASE WHEN games > 1 THEN sqrt(greatest(0.0, games / (games - 1.0)
                * (dd - 2 * impact * nd + impact * impact * nn))) / holder_seat_games END AS se,
           CASE WHEN games > 1 THEN sqrt(greatest(0.0, games / (games - 1.0)
                * (bb - 2 * win_rate_with_card * nb + win_rate_with_card * win_rate_with_card * nn)
                + games / (games - 1.0)
                * (aa - 2 * win_rate_with_stand_in * na + win_rate_with_stand_in * win_rate_with_stand_in * nn)))
                / holder_seat_games
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
           row_number() OVER (PARTITION BY experiment, n_players, agent{extra} ORDER BY p_value, card) AS p_rank,
           count(p_value) OVER (PARTITION BY experiment, n_players, agent{extra}) AS tests
    FROM tested
)
SELECT r.experiment, r.variant, r.n_players, r.agent{extra_r}, r.card,
       r.games, r.holder_seat_games, r.win_rate_with_card, r.win_rate_with_stand_in, r.impact,
       r.impact - normal_z() * r.se AS impact_low, r.impact + normal_z() * r.se AS impact_high,
       r.impact - normal_z() * r.unpaired_se AS unpaired_low, r.impact + normal_z() * r.unpaired_se AS unpaired_high,
       CASE WHEN r.se > 0 THEN r.unpaired_se / r.se END AS pairing_gain,
       r.p_value,
       CASE WHEN r.p_value IS NOT NULL THEN least(1.0, min(r.p_value * r.tests / r.p_rank) OVER (
           PARTITION BY r.experiment, r.n_players, r.agent{extra_r}
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
ORDER BY r.experiment, r.n_players, r.agent{extra_r}, r.impact DESC NULLS LAST, r.card
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
), joined AS (
    SELECT i.experiment, i.variant, i.n_players, i.agent, i.card, s.gih_win_rate, s.gns_win_rate, s.iwd,
           i.impact, i.impact_low, i.impact_high,
           i.mean_turns_held - i.mean_turns_all AS length_bias, i.mean_turns_all,
           i.holder_strength - i.agent_win_rate AS strength_bias,
           i.win_rate_with_stand_in - i.agent_win_rate AS selection_bias,
           hs.holder_seen - (a.seen_sum - hs.holder_seen_sum) / nullif(a.seat_games - hs.holder_seat_games, 0)
               AS seen_bias,
           a.mean_cards_seen,
           o.with_opponent / nullif(s.games_not_seen, 0) AS opponent_held_share,
           (s.gih_win_rate_high - s.gih_win_rate_low) / 2 AS gih_half_width
    FROM card_impact AS i
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
SELECT experiment, variant, n_players, agent, card, gih_win_rate, gns_win_rate, iwd, impact, impact_low,
       impact_high, iwd_rank, impact_rank, iwd_rank - impact_rank AS rank_gap, length_bias, mean_turns_all,
       seen_bias, mean_cards_seen, strength_bias, selection_bias, opponent_held_share, gih_half_width,
       abs(iwd_rank - impact_rank) >= {RANK_GAP} AS disagree
FROM ranked
ORDER BY experiment, n_players, agent, abs(iwd_rank - impact_rank) DESC, card
"""


def card_removal_sql() -> str:
    """``card_removal``: each ``one_fewer`` arm against the baseline, from ``variant_deltas``
    (every family but the correlational card rates) and ``end_reason_stats``."""
    pattern = arm_pattern(ONE_FEWER)
    return f"""
WITH arms AS MATERIALIZED (
    SELECT experiment, variant, n_players, regexp_extract(variant, '{pattern}', 1) AS card, games
    FROM game_stats WHERE regexp_matches(variant, '{pattern}')
), baseline AS (
    SELECT experiment, n_players, games FROM game_stats WHERE variant = 'baseline'
), reasons AS (
    -- Every end reason of the arm or the baseline, its games on each side (0 where it has none).
    SELECT a.experiment, a.variant, a.n_players, a.card, r.end_reason,
           coalesce(sum(r.games) FILTER (WHERE r.variant = 'baseline'), 0) AS baseline_ends, b.games AS baseline_n,
           coalesce(sum(r.games) FILTER (WHERE r.variant = a.variant), 0) AS ends, a.games AS n
    FROM arms AS a
    JOIN baseline AS b USING (experiment, n_players)
    JOIN end_reason_stats AS r
      ON r.experiment = a.experiment AND r.n_players = a.n_players AND r.variant IN ('baseline', a.variant)
    GROUP BY a.experiment, a.variant, a.n_players, a.card, r.end_reason, b.games, a.games
), rows AS (
    SELECT a.card, d.experiment, d.variant, d.n_players, d.family, d.agent, d.key, d.metric, d.baseline_value,
           d.value, d.delta, d.delta_low, d.delta_high, d.baseline_n, d.n, d.test, d.p_value
    FROM variant_deltas AS d JOIN arms AS a USING (experiment, variant, n_players)
    WHERE d.family <> 'card'
    UNION ALL
    SELECT card, experiment, variant, n_players, 'end_reason' AS family, NULL AS agent, end_reason AS key,
           'share' AS metric, baseline_ends / baseline_n AS baseline_value, ends / n AS value,
           ends / n - baseline_ends / baseline_n AS delta,
           newcombe_low(baseline_ends / baseline_n, wilson_low(baseline_ends, baseline_n),
                        wilson_high(baseline_ends, baseline_n), ends / n, wilson_low(ends, n), wilson_high(ends, n))
               AS delta_low,
           newcombe_high(baseline_ends / baseline_n, wilson_low(baseline_ends, baseline_n),
                         wilson_high(baseline_ends, baseline_n), ends / n, wilson_low(ends, n), wilson_high(ends, n))
               AS delta_high,
           baseline_n, n, 'z' AS test, erfc(abs(prop_z(baseline_ends, baseline_n, ends, n)) / sqrt(2.0)) AS p_value
    FROM reasons
), ranked AS (
    SELECT *,
           row_number() OVER (PARTITION BY experiment, n_players, family ORDER BY p_value, card, agent, key, metric)
               AS p_rank,
           count(p_value) OVER (PARTITION BY experiment, n_players, family) AS tests
    FROM rows
)
SELECT experiment, variant, n_players, card, family, agent, key, metric, baseline_value, value, delta, delta_low,
       delta_high, baseline_n, n, test, p_value,
       CASE WHEN p_value IS NOT NULL THEN least(1.0, min(p_value * tests / p_rank) OVER (
           PARTITION BY experiment, n_players, family ORDER BY p_rank DESC
           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) END AS q_value,
       coalesce(q_value < {SIGNIFICANCE!r}, FALSE) AS significant
FROM ranked
ORDER BY {ORDER}, family, q_value, agent, key, metric
"""


def impact_view_sql(columns: Columns) -> dict[str, str]:
    """The ``SELECT`` of every card impact view, by name, in dependency order (after
    ``card_stats``, ``end_reason_stats`` and ``variant_deltas``)."""
    return {
        "card_impact": card_impact_sql(columns),
        "card_impact_factions": card_impact_sql(columns, "faction"),
        "card_impact_seats": card_impact_sql(columns, "seat"),
        "card_impact_vs_gih": card_impact_vs_gih_sql(columns),
        "card_removal": card_removal_sql(),
    }


# ---------------------------------------------------------------- the contracts

_ARM = Column("variant", "VARCHAR", "The card's stand-in arm: `impact.<card>.stand_in` (the card replaced in place by "
              "its game's neutral stand-in, on the baseline's deals).")
_HOLDER_AGENT = Column("agent", "VARCHAR", "The agent at the holder seat (the impact is per agent, as the card "
                       "tables).")
_IMPACT = "the holders' win rate with the card minus the same seats' win rate with the stand-in on the same deals"


def _estimate_columns() -> tuple[Column, ...]:
    """The columns ``card_impact`` and its per-faction and per-seat splits share after their keys."""
    paired = "paired: the same deals; the ratio estimator's variance clustered by game"
    return (
        CARD,
        Column("games", "BIGINT", "Games (pairs of games on one deal) in which a seat of the agent held the card in "
               "the card-as-is game."),
        Column("holder_seat_games", "BIGINT", "Holder seat-games in those games (a game counts once per seat that "
               "held a copy)."),
        Column("win_rate_with_card", "DOUBLE", "The holder seats' win rate in the card-as-is (baseline) games, in "
               "[0, 1]."),
        Column("win_rate_with_stand_in", "DOUBLE", "The same seats' win rate in the arm's games (the card replaced in "
               "place by the stand-in), in [0, 1]."),
        Column("impact", "DOUBLE", f"win_rate_with_card − win_rate_with_stand_in: {_IMPACT} (0.01 = 1 point; "
               "positive: the card helps its holder). Causal: the two games of a pair differ only by the card."),
        Column("impact_low", "DOUBLE", f"Low end of the 95% interval of `impact` ({paired}); [0, 0] when no game "
               "changed."),
        Column("impact_high", "DOUBLE", f"High end of the 95% interval of `impact` ({paired})."),
        Column("unpaired_low", "DOUBLE", "Low end of the 95% interval of the same games compared as two independent "
               "samples (the pairing ignored; for `pairing_gain`)."),
        Column("unpaired_high", "DOUBLE", "High end of that unpaired interval."),
        Column("pairing_gain", "DOUBLE", "Unpaired interval width / paired interval width: how many times narrower "
               "the pairing makes it (its square: how many times fewer games); NULL when no game changed."),
        Column("p_value", "DOUBLE", "Two-sided p-value of impact = 0 (normal test on the paired difference; 1 when "
               "no game changed)."),
        Column("q_value", "DOUBLE", "Benjamini-Hochberg adjusted p-value over every card of the experiment, player "
               "count and agent (and faction or seat in the splits)."),
        Column("significant", "BOOLEAN", f"q_value < {SIGNIFICANCE} (a false discovery rate of 5%)."),
        Column("winner_changed", "BIGINT", "Games whose winner(s) differ between the card-as-is game and the "
               "stand-in's."),
        Column("winner_changed_share", "DOUBLE", "winner_changed / games: how often the card decided the game."),
        Column("turns_change", "DOUBLE", "Mean turns of the stand-in's games minus the card-as-is games, over the "
               "same games (positive: longer without the card)."),
        Column("turns_change_low", "DOUBLE", "Low end of the 95% interval of `turns_change` (paired by game)."),
        Column("turns_change_high", "DOUBLE", "High end of the 95% interval of `turns_change` (paired by game)."),
        Column("mean_turns_held", "DOUBLE", "Mean turns of the card-as-is games in which the agent held the card."),
        Column("mean_turns_all", "DOUBLE", "Mean turns of every card-as-is (baseline) game at this player count."),
        Column("holder_strength", "DOUBLE", "The holder seats' own baseline win rate (of their seat and agent over "
               "every baseline game), averaged over the holder seat-games."),
        Column("agent_win_rate", "DOUBLE", "The agent's baseline win rate over all its seat-games."),
    )


CARD_IMPACT_CONTRACT = contract(
    "card_impact", "One row per card (its stand-in arm), player count and holder agent: what the card adds to its "
    "holder's win rate, measured against its neutral stand-in on the same deals (card impact runs only).",
    EXPERIMENT, _ARM, N_PLAYERS, _HOLDER_AGENT, _estimate_columns())

CARD_IMPACT_FACTIONS_CONTRACT = contract(
    "card_impact_factions", "`card_impact` per faction of the holder seat (games with factions only: Ring of Chaos "
    "parties, Party Wanted hero classes).",
    EXPERIMENT, _ARM, N_PLAYERS, _HOLDER_AGENT,
    Column("faction", "VARCHAR", "The holder seat's faction (party, hero class...)."), _estimate_columns())

CARD_IMPACT_SEATS_CONTRACT = contract(
    "card_impact_seats", "`card_impact` per holder seat.",
    EXPERIMENT, _ARM, N_PLAYERS, _HOLDER_AGENT, Column("seat", "TINYINT", SEAT.description), _estimate_columns())

CARD_IMPACT_VS_GIH_CONTRACT = contract(
    "card_impact_vs_gih", "One row per card, player count and agent: the baseline's correlational card rates "
    "(GIH, GNS, IWD) beside the card's causal impact, their two ranks, and what biases or blurs the IWD.",
    EXPERIMENT, _ARM, N_PLAYERS, AGENT, CARD,
    Column("gih_win_rate", "DOUBLE", "Baseline GIH win rate: the win rate of the agent's seat-games with the card in "
           "hand (correlational)."),
    Column("gns_win_rate", "DOUBLE", "Baseline GNS win rate: the win rate of its seat-games without it."),
    Column("iwd", "DOUBLE", "Baseline IWD = GIH − GNS (correlational)."),
    Column("impact", "DOUBLE", "The causal impact (`card_impact.impact`)."),
    Column("impact_low", "DOUBLE", "Low end of the impact's 95% interval."),
    Column("impact_high", "DOUBLE", "High end of the impact's 95% interval."),
    Column("iwd_rank", "BIGINT", "The card's rank by IWD among the agent's cards with an impact (1 = highest)."),
    Column("impact_rank", "BIGINT", "The card's rank by impact among the same cards (1 = highest)."),
    Column("rank_gap", "BIGINT", "iwd_rank − impact_rank (positive: the causal impact ranks it higher than IWD)."),
    Column("length_bias", "DOUBLE", "mean_turns_held − mean_turns_all: how much longer the games it was held in are "
           "(turns)."),
    Column("mean_turns_all", "DOUBLE", "Mean turns of every baseline game at this player count."),
    Column("seen_bias", "DOUBLE", "Cards (kinds) in hand over a game of the seats that held it minus of those that "
           "did not: a seat that lives longer or draws more holds more of every card."),
    Column("mean_cards_seen", "DOUBLE", "The agent's mean number of cards (kinds) in hand over a game, over its "
           "baseline seat-games."),
    Column("strength_bias", "DOUBLE", "holder_strength − agent_win_rate: how much stronger its holder seats are."),
    Column("selection_bias", "DOUBLE", "win_rate_with_stand_in − agent_win_rate: how much more the seats that come to "
           "hold the card win with the neutral card in its place (who holds it, not what it does)."),
    Column("opponent_held_share", "DOUBLE", "Of the agent's seat-games without the card (GNS), the share in which "
           "another seat (a rival, or in a cooperative game a teammate) held it."),
    Column("gih_half_width", "DOUBLE", "Half the width of the GIH win rate's 95% interval: the correlational rate's "
           "own noise."),
    Column("disagree", "BOOLEAN", f"|rank_gap| >= {RANK_GAP}: the correlational and the causal rank disagree."))

CARD_REMOVAL_CONTRACT = contract(
    "card_removal", "One row per card (its one-copy-fewer arm), player count and compared rate or mean: what removing "
    "one copy changes for every seat, agent, faction and game, against the baseline (card impact runs only; no "
    "holder-level impact: a shorter deck deals other cards to every seat).",
    EXPERIMENT,
    Column("variant", "VARCHAR", "The card's one-copy-fewer arm: `impact.<card>.one_fewer`, played on seeds of its "
           "own."),
    N_PLAYERS, CARD,
    Column("family", "VARCHAR", "What is compared: `seat`, `agent`, `faction` (win rates), `game` (draws, turn cap, "
           "turns, decisions, a cooperative party's wins) or `end_reason` (the share of games ending that way)."),
    Column("agent", "VARCHAR", f"{AGENT.description} NULL but for the agent family."),
    Column("key", "VARCHAR", "The seat, agent, faction or end reason compared; empty for the game family."),
    Column("metric", "VARCHAR", "The compared column: `win_rate`, `team_win_rate`, `draw_rate`, `turn_cap_rate`, "
           "`turns`, `decisions`, or `share` (an end reason's)."),
    Column("baseline_value", "DOUBLE", "The baseline's value (a rate in [0, 1], or a mean of turns or decisions)."),
    Column("value", "DOUBLE", "The arm's value, in the same unit."),
    Column("delta", "DOUBLE", "value − baseline_value: the change one copy fewer makes (0.01 = 1 point)."),
    Column("delta_low", "DOUBLE", "Low end of the unadjusted 95% interval of `delta`, unpaired (the arm's games are "
           "independent of the baseline's): Newcombe's for a rate (at the effective n for seat-games), Welch's for a "
           "mean."),
    Column("delta_high", "DOUBLE", "High end of that interval."),
    Column("baseline_n", "BIGINT", "The baseline's trials: games, or seat-games for the agent and faction rates."),
    Column("n", "BIGINT", "The arm's trials, in the same unit."),
    Column("test", "VARCHAR", "The test: `z` (two proportions at the effective sizes) or `welch` (means); never "
           "paired."),
    Column("p_value", "DOUBLE", "Two-sided p-value of the test."),
    Column("q_value", "DOUBLE", "Benjamini-Hochberg adjusted p-value over every card's arm of the experiment, player "
           "count and family."),
    Column("significant", "BOOLEAN", f"q_value < {SIGNIFICANCE} (a false discovery rate of 5%)."))

IMPACT_VIEW_CONTRACTS = (CARD_IMPACT_CONTRACT, CARD_IMPACT_FACTIONS_CONTRACT, CARD_IMPACT_SEATS_CONTRACT,
                         CARD_IMPACT_VS_GIH_CONTRACT, CARD_REMOVAL_CONTRACT)
"""Every card impact view's contract, in the order ``impact_view_sql`` creates them."""
