"""``variant_deltas``: every variant against the baseline, one rate or mean at a time,
with the difference's interval, a test and its false-discovery-rate q-value.

Every row compares one rate (or mean) of a variant with the baseline's at the
same player count. Unpaired rates: the pooled z-test at the effective sample
sizes (plain counts for games and seats), and Newcombe's interval of the
difference from the two Wilson intervals. Paired (the variant played on the
baseline's seeds): per game g, d_g = variant wins − baseline wins over its
matched seat-games; the clustered McNemar statistic (|Σd| − 1)²/Σd² and the
MOVER interval of Δ = p₊ − p₋, the two discordant parts P_g = max(d_g, 0) and
M_g = max(−d_g, 0) over the matched seat-games, each with its own clustered
Wilson interval, joined by their correlation (analytics.stats.paired_difference).
Not Δ ± z·sqrt(Σ(d_g − Δ·n_g)²)/n: that one is [0, 0] when no pair is
discordant, as if zero discordant pairs proved the rates equal; nor the two
rates' Wilson intervals joined by their correlation (Newcombe's method 10):
with the pairs nearly alike it behaves like that one, short above a low count
of discordant pairs that run one way. Card rates on the baseline's seeds: the seat-games with
a card in hand differ between the two, so they are not pairs, but the games are: the z of
the difference with the two rates' covariance from the per-game cross sums (``paired_z``),
and the same MOVER interval of the discordant parts of the linearised per-game difference
d_g = (y_g − x_g) − p_b·(m_g − n_g) (analytics.stats.linearised_parts). Means: Welch, or on
the baseline's seeds the game-by-game differences (``paired_z``), each variance at least
``mean_variance``'s floor, the interval corrected for their skewness
(analytics.stats.skewed_mean_interval).
"""

from __future__ import annotations

from analytics.stats import LINEARISED_SUMS, Z95
from analytics.views.shared import NEWCOMBE_FIELDS, ORDER, competitive, newcombe_arguments, newcombe_bound
from analytics.views.thresholds import SIGNIFICANCE, TURN_CAP_REASONS
from dataset.contracts import AGENT, GROUP, Column, contract
from dataset.count_views import CARD_RATES, GAME_KEY, Columns, card_rows_sql
from dataset.quoting import sql_string

KEY_PARTS = ("sum_p", "sum_p2", "sum_np", "hits_p", "sum_m", "sum_m2", "sum_nm", "hits_m")
"""The columns of each discordant part (positive, then negative) of ``_paired_counts``:
its sum, sum of squares, sum times ``n_g`` and games where it is positive (``_part_sums``)."""
PAIRED_KEY_SUMS = ("pairs", "games", "sum_n2", *KEY_PARTS)
"""The sums of ``_paired_counts``: additive over games, so over shard pairs."""


def _paired_counts(key: str, paired: bool | None) -> str:
    """Per (variant, player count, key), over seat-games played on the same seed
    in baseline and variant: the matched games and seat-games, and the per-game sums
    of the two discordant parts of the paired differences ``d_g`` (``p``: ``max(d_g, 0)``,
    ``m``: ``max(−d_g, 0)``), their squares, their products with ``n_g`` and the games
    where each is positive: what ``analytics.stats.paired_difference`` takes."""
    if paired is False:
        return ("SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players, "
                "NULL::VARCHAR AS key, " + ", ".join(f"0::BIGINT AS {name}" for name in PAIRED_KEY_SUMS)
                + " WHERE FALSE")
    return f"""
    SELECT experiment, variant, n_players, key, sum(n)::BIGINT AS pairs, count(*)::BIGINT AS games,
           sum(n * n)::BIGINT AS sum_n2, {_part_sums("p", "greatest(d, 0)")}, {_part_sums("m", "greatest(-d, 0)")}
    FROM (
        SELECT v.experiment, v.variant, v.n_players, v.game_index, v.{key}::VARCHAR AS key,
               count(*) AS n, sum(v.won::INTEGER - b.won::INTEGER) AS d
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


def _part_sums(part: str, value: str) -> str:
    """SQL: ``sum_<part>``, ``sum_<part>2``, ``sum_n<part>`` and ``hits_<part>`` of the per-game ``value``."""
    return (f"sum({value})::BIGINT AS sum_{part}, sum(({value}) * ({value}))::BIGINT AS sum_{part}2, "
            f"sum(n * ({value}))::BIGINT AS sum_n{part}, count(*) FILTER (WHERE ({value}) > 0)::BIGINT AS hits_{part}")


MEANS = ("turns", "decisions")
"""The means over games ``variant_deltas`` compares (``game_stats.mean_<name>``)."""
PAIRED_GAME_SUMS = ("pairs", "draw_b", "draw_v", "cap_b", "cap_v", "team_b", "team_v",
                    *(f"{column}_d{power}" for column in MEANS for power in ("", "2", "3")))
"""The sums of ``_paired_games``."""


def _paired_games(paired: bool | None) -> str:
    """Seed-matched game pairs per variant, the discordant pairs of draws, turn-cap
    endings and (cooperative) team wins, and the sums of the game-by-game differences
    of each of ``MEANS``, of their squares and of their cubes."""
    caps = ", ".join(sql_string(reason) for reason in TURN_CAP_REASONS)
    if paired is False:
        return ("SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players, "
                + ", ".join(f"0::BIGINT AS {name}" for name in PAIRED_GAME_SUMS) + " WHERE FALSE")
    differences = ", ".join(f"sum(v.{column} - b.{column})::BIGINT AS {column}_d, "
                            f"sum((v.{column} - b.{column}) * (v.{column} - b.{column}))::BIGINT AS {column}_d2, "
                            f"sum((v.{column} - b.{column})::BIGINT * (v.{column} - b.{column}) "
                            f"* (v.{column} - b.{column}))::BIGINT AS {column}_d3"
                            for column in MEANS)
    return f"""
    SELECT v.experiment, v.variant, v.n_players, count(*) AS pairs,
           count(*) FILTER (WHERE b.draw AND NOT v.draw) AS draw_b,
           count(*) FILTER (WHERE v.draw AND NOT b.draw) AS draw_v,
           count(*) FILTER (WHERE b.end_reason IN ({caps}) AND v.end_reason NOT IN ({caps})) AS cap_b,
           count(*) FILTER (WHERE v.end_reason IN ({caps}) AND b.end_reason NOT IN ({caps})) AS cap_v,
           count(*) FILTER (WHERE len(b.winners) > 0 AND len(v.winners) = 0) AS team_b,
           count(*) FILTER (WHERE len(v.winners) > 0 AND len(b.winners) = 0) AS team_v,
           {differences}
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
                  "baseline_effective_n, effective_n, test, statistic")
"""The columns of every family's rows before their interval: the rows then give ``delta_low`` and
``delta_high``, or the ``difference`` Newcombe's interval is computed from (``_newcombe_interval``)."""
NO_DIFFERENCE = f"NULL::STRUCT({', '.join(f'{field} DOUBLE' for field in NEWCOMBE_FIELDS)}) AS difference"
"""The ``difference`` of the rows whose interval is not Newcombe's."""
NEWCOMBE_DELTAS = "NULL::DOUBLE AS delta_low, NULL::DOUBLE AS delta_high"
"""The ``delta_low`` and ``delta_high`` of the rows whose interval is Newcombe's (of their ``difference``)."""


def _newcombe(metric: str) -> str:
    """SQL: the ``difference`` of ``v.metric − b.metric`` from their ``_low``/``_high`` columns,
    unpaired (``analytics.stats.newcombe_difference``)."""
    return newcombe_arguments(f"b.{metric}", f"b.{metric}_low", f"b.{metric}_high",
                               f"v.{metric}", f"v.{metric}_low", f"v.{metric}_high", "0.0")


def _newcombe_interval(side: str) -> str:
    """SQL: ``delta_<side>`` of a row of the families: Newcombe's from its ``difference``, else its own.
    Computed once over all the families' rows, so that DuckDB binds each Newcombe macro once
    rather than twice per family (it made ``variant_deltas`` take a quarter longer to bind)."""
    newcombe = newcombe_bound(side, "difference")
    return f"CASE WHEN difference IS NULL THEN delta_{side} ELSE {newcombe} END AS delta_{side}"


def _paired_statistic(alias: str) -> str:
    """SQL: the clustered McNemar statistic (|Σd| − 1)²/Σd² of the matched games of a row of
    ``_paired_parts`` (as ``alias``), d_g = P_g − M_g; with one trial per game (the game
    family's rates: Σd² = b + c) it is ``mcnemar_stat``'s (|b − c| − 1)²/(b + c)."""
    sum_d, sum_d2 = f"({alias}.sum_p - {alias}.sum_m)", f"({alias}.sum_p2 + {alias}.sum_m2)"
    return f"CASE WHEN {sum_d2} > 0 THEN (abs({sum_d}) - 1.0) ** 2 / {sum_d2} ELSE 0.0 END"


GAME_PAIRED_RATES = {"team_win_rate": ("team_b", "team_v"), "draw_rate": ("draw_b", "draw_v"),
                     "turn_cap_rate": ("cap_b", "cap_v")}
"""The game family's rates compared on paired seeds: metric -> the discordant counts of
``_paired_games`` (the baseline's only, the variant's only)."""
PAIRED_PARTS = "paired_parts"
"""``variant_deltas``'s CTE of ``_paired_parts``."""


def _paired_parts(pairs: dict[str, str]) -> str:
    """SQL: what the paired interval of the variant's rate minus the baseline's takes
    (``analytics.stats.paired_difference``), one row per compared rate (``family``: a key
    family of ``pairs`` or a rate of ``GAME_PAIRED_RATES``): the two discordant parts of the
    per-game differences (``part_p``, ``part_m``), each with its own clustered interval over
    the matched games (``part_p_low``...), and their correlation (``parts_phi``,
    ``discordant_phi``). Every family in one relation, so that each interval macro is
    bound once: bound per family, they made ``variant_deltas`` take twice as long."""
    rows = [f"SELECT '{key}' AS family, experiment, variant, n_players, key, pairs, sum_n2, games, "
            f"{', '.join(KEY_PARTS)} FROM {pairs[key]}" for key in ("seat", "agent", "faction")]
    # One trial per game: each discordant count is its own sum of squares, of n·P and of
    # games with P > 0 (P: the variant's only, M: the baseline's only).
    rows += [f"SELECT '{metric}' AS family, experiment, variant, n_players, '' AS key, pairs, pairs AS sum_n2, "
             f"pairs AS games, {', '.join(f'{only_v} AS {name}' for name in KEY_PARTS[:4])}, "
             f"{', '.join(f'{only_b} AS {name}' for name in KEY_PARTS[4:])} FROM paired_games"
             for metric, (only_b, only_v) in GAME_PAIRED_RATES.items()]
    rows = [f"SELECT NULL::VARCHAR AS agent, 0.0::DOUBLE AS sum_pm, * FROM ({row})" for row in rows]
    rows += [_card_parts(metric) for metric in CARD_DELTA_RATES]

    def interval(side: str, part: str) -> str:
        return f"clustered_{side}(pairs, sum_{part}, sum_n2, sum_{part}2, sum_n{part}, games, hits_{part})"

    def spread(part: str) -> str:
        return f"cluster_spread(pairs, sum_{part}, sum_n2, sum_{part}2, sum_n{part})"

    parts = ", ".join(f"sum_{part}::DOUBLE / pairs AS part_{part}, {interval('low', part)} AS part_{part}_low, "
                      f"{interval('high', part)} AS part_{part}_high" for part in "pm")
    return f"""
    SELECT *, {parts},
           discordant_phi(pairs, sum_n2, sum_p, sum_np, {spread('p')}, sum_m, sum_nm, {spread('m')},
                          pm := sum_pm) AS parts_phi
    FROM ({' UNION ALL BY NAME '.join(rows)})"""


def _card_parts(metric: str) -> str:
    """SQL: the rows of ``_paired_parts`` of a card rate (``family``: the metric, ``key``: the
    card): the two discordant parts of its linearised per-game difference over the variant's
    trials, weighted by the baseline's rate (``analytics.stats.linearised_parts``), from the
    sums of ``_paired_cards``."""
    prefix = CARD_DELTA_RATES[metric][0]

    def total(name: str) -> str:
        return f"{prefix}_{name}::DOUBLE"

    p, q = "cp_.rate_b", "(1.0 - cp_.rate_b)"
    parts = {
        "sum_p": f"{q} * {total('wu')} + {p} * {total('ld')}",
        "sum_p2": f"{q} * {q} * {total('wu_wu')} + 2 * {q} * {p} * {total('wu_ld')} + {p} * {p} * {total('ld_ld')}",
        "sum_np": f"{q} * {total('m_wu')} + {p} * {total('m_ld')}",
        "sum_m": f"{q} * {total('wd')} + {p} * {total('lu')}",
        "sum_m2": f"{q} * {q} * {total('wd_wd')} + 2 * {q} * {p} * {total('wd_lu')} + {p} * {p} * {total('lu_lu')}",
        "sum_nm": f"{q} * {total('m_wd')} + {p} * {total('m_lu')}",
        "sum_pm": f"{q} * {p} * ({total('wu_lu')} + {total('ld_wd')})",
    }
    return f"""SELECT '{metric}' AS family, experiment, variant, n_players, agent, card AS key,
           {prefix}_m AS pairs, {prefix}_m_m AS sum_n2, {prefix}_games AS games,
           {', '.join(f'{expression} AS {name}' for name, expression in parts.items())},
           NULL::BIGINT AS hits_p, NULL::BIGINT AS hits_m
    FROM (SELECT *, {prefix}_x::DOUBLE / nullif({prefix}_n, 0) AS rate_b FROM paired_cards) AS cp_"""


def _paired_interval(alias: str) -> str:
    """SQL: the ``difference`` of the MOVER interval of ``part_p − part_m`` from the columns of
    ``_paired_parts`` (as ``alias``)."""
    return newcombe_arguments(f"{alias}.part_m", f"{alias}.part_m_low", f"{alias}.part_m_high",
                               f"{alias}.part_p", f"{alias}.part_p_low", f"{alias}.part_p_high", f"{alias}.parts_phi")


def _proportion_family(family: str, source: str, key: str, n: str, rate: str, effective: str) -> str:
    """Rows of ``variant_deltas`` for one win-rate family (seat, agent, faction).

    ``source`` is the relation read (the family's ``_once`` copy); ``effective`` its
    effective-n column (or ``n`` for independent seat-games). Its paired sums and parts:
    the family's rows of ``_paired_parts``."""
    paired, unpaired = _paired_interval("pc"), _newcombe(rate)
    mcnemar = f"pc.pairs IS NOT NULL AND pc.pairs = v.{n} AND pc.pairs = b.{n}"
    # Seat tests say nothing in a cooperative game: every seat shares the outcome.
    only_competitive = f" AND {competitive('v')}" if family == "seat" else ""
    return f"""
    SELECT v.experiment, v.variant, v.n_players, '{family}' AS family,
           {'v.agent' if key == 'agent' else 'NULL::VARCHAR'} AS agent, v.{key}::VARCHAR AS key,
           '{rate}' AS metric, b.{rate} AS baseline_value, v.{rate} AS value, b.{n} AS baseline_n, v.{n} AS n,
           b.{effective}::DOUBLE AS baseline_effective_n, v.{effective}::DOUBLE AS effective_n,
           CASE WHEN {mcnemar} THEN 'mcnemar' ELSE 'z' END AS test,
           CASE WHEN {mcnemar} THEN {_paired_statistic('pc')}
                ELSE prop_z(coalesce(b.{rate}, 0) * baseline_effective_n, baseline_effective_n,
                            coalesce(v.{rate}, 0) * effective_n, effective_n) END AS statistic,
           {NEWCOMBE_DELTAS},
           CASE WHEN {mcnemar} THEN {paired} ELSE {unpaired} END AS difference
    FROM {source} AS v
    JOIN {source} AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
         AND b.{key} = v.{key}
    LEFT JOIN {PAIRED_PARTS} AS pc
         ON pc.family = '{family}' AND pc.experiment = v.experiment AND pc.variant = v.variant
         AND pc.n_players = v.n_players AND pc.key = v.{key}::VARCHAR
    WHERE v.variant <> 'baseline'{only_competitive}{' AND NOT ' + _both_self_play() if family == 'agent' else ''}"""


def _both_self_play() -> str:
    """SQL: whether the agent held every seat of every game in both the variant (``v``) and
    the baseline (``b``): its win rate is then set by the lineup (1/N less the draws, more
    with shared wins) on both sides, and its difference is the game family's draws, not a
    test of the agent. Such a row is left out, and out of its family's Benjamini-Hochberg
    count."""
    return "coalesce(v.self_play AND b.self_play, FALSE)"


CARD_DELTA_RATES = {"gih_win_rate": ("gih", "games_in_hand"), "played_win_rate": ("played", "games_played"),
                    "play_rate": ("play", "games_in_hand")}
"""The card rates ``variant_deltas`` compares: metric -> (cluster prefix, seat-games column)."""


def _paired_card_sums(prefix: str) -> list[tuple[str, str]]:
    """(name, SQL over one matched game's per-side counts) of each paired sum of a card rate:
    the cross sums of the two sides' counts (baseline ``n``, ``x``; variant ``m``, ``y``),
    the baseline's trials and successes, the variant's trials and their squares,
    ``LINEARISED_SUMS`` (``analytics.stats.linearised_parts``: from the game's change of
    successes ``dw`` and of failures ``dl``) and the games where either side has a trial."""
    n, x, m, y = (f"{prefix}_{side}" for side in ("n", "x", "m", "y"))
    dw, dl = f"({y} - {x})", f"(({m} - {y}) - ({n} - {x}))"
    values = {"wu": f"greatest({dw}, 0)", "wd": f"greatest(-{dw}, 0)", "lu": f"greatest({dl}, 0)",
              "ld": f"greatest(-{dl}, 0)", "m": m}
    sums = [("xy", f"{x} * {y}"), ("ny", f"{n} * {y}"), ("nx", f"{m} * {x}"), ("nn", f"{n} * {m}"),
            ("n", n), ("x", x), ("m", m), ("m_m", f"{m} * {m}")]
    sums += [(name, " * ".join(values[factor] for factor in name.split("_"))) for name in LINEARISED_SUMS]
    sums.append(("games", f"({n} + {m} > 0)::INTEGER"))
    return [(f"{prefix}_{name}", expression) for name, expression in sums]


def _paired_cards(columns: Columns, paired: bool | None) -> str:
    """Per variant, player count, agent and card, over the games played on the baseline's
    seeds, with each card rate's per-game counts in the baseline (``n``, ``x``) and in the
    variant (``m``, ``y``; a side that did not hold the card counts 0): the cross sums
    ``Σx·y``, ``Σn·y``, ``Σm·x``, ``Σn·m`` of the two rates' covariance, the sums of the
    changes of successes and failures of ``analytics.stats.linearised_parts`` and the games
    where either side had a trial."""
    sums = [pair for prefix in CARD_DELTA_PREFIXES for pair in _paired_card_sums(prefix)]
    if paired is False:
        return ("SELECT NULL::VARCHAR AS experiment, NULL::VARCHAR AS variant, NULL::TINYINT AS n_players, "
                "NULL::VARCHAR AS agent, NULL::VARCHAR AS card, "
                + ", ".join(f"0::BIGINT AS {name}" for name, _ in sums) + " WHERE FALSE")
    per_game = ", ".join(f"count(*) FILTER (WHERE {CARD_RATES[prefix][0]}) AS {prefix}_n, "
                         f"count(*) FILTER (WHERE {CARD_RATES[prefix][1]}) AS {prefix}_w"
                         for prefix in CARD_DELTA_PREFIXES)

    def side(alias: str, trials: str, wins: str) -> str:
        # One side's counts in the columns of its role, 0 in the other side's.
        return ", ".join(f"{alias}.{prefix}_n AS {prefix}_{trials}, {alias}.{prefix}_w AS {prefix}_{wins}, "
                         f"0 AS {prefix}_{'n' if trials == 'm' else 'm'}, 0 AS {prefix}_{'x' if wins == 'y' else 'y'}"
                         for prefix in CARD_DELTA_PREFIXES)

    counts = ", ".join(f"sum({prefix}_{count})::BIGINT AS {prefix}_{count}"
                       for prefix in CARD_DELTA_PREFIXES for count in ("n", "x", "m", "y"))
    return f"""
    WITH per_game AS (
        SELECT experiment, variant, n_players, game_index, agent, card, {per_game}
        FROM ({card_rows_sql(columns, 'cards')})
        GROUP BY experiment, variant, n_players, game_index, agent, card
    ), matched AS (
        SELECT v.experiment, v.variant, v.n_players, v.game_index
        FROM games AS v JOIN games AS b ON b.experiment = v.experiment AND b.variant = 'baseline'
             AND b.n_players = v.n_players AND b.game_index = v.game_index AND b.seed = v.seed
        WHERE v.variant <> 'baseline'
    ), pairs AS (
        -- Both sides of each matched game, a game that only one side held the card in too.
        SELECT experiment, variant, n_players, game_index, agent, card, {counts}
        FROM (
            SELECT m.experiment, m.variant, m.n_players, m.game_index, v.agent, v.card, {side('v', 'm', 'y')}
            FROM per_game AS v JOIN matched AS m USING ({GAME_KEY})
            UNION ALL BY NAME
            SELECT m.experiment, m.variant, m.n_players, m.game_index, b.agent, b.card, {side('b', 'n', 'x')}
            FROM per_game AS b JOIN matched AS m ON b.experiment = m.experiment AND b.variant = 'baseline'
                 AND b.n_players = m.n_players AND b.game_index = m.game_index
        )
        GROUP BY experiment, variant, n_players, game_index, agent, card
    )
    SELECT experiment, variant, n_players, agent, card,
           {', '.join(f'sum({expression})::BIGINT AS {name}' for name, expression in sums)}
    FROM pairs
    GROUP BY experiment, variant, n_players, agent, card"""


CARD_DELTA_PREFIXES = ("gih", "played", "play")
"""The cluster prefixes (``CARD_RATES``) of the card rates of ``CARD_DELTA_RATES``."""
PAIRED_CARD_SUMS = tuple(name for prefix in CARD_DELTA_PREFIXES for name, _ in _paired_card_sums(prefix))
"""The sums of ``_paired_cards``, in its order."""


def _card_family(metric: str) -> str:
    """Rows of ``variant_deltas`` for one card rate. Unpaired: the z-test at the effective
    sample sizes and Newcombe's interval. On the baseline's seeds (every game of both
    matched) the seat-games with the card in hand differ between the two, so they are not
    pairs, but the games are: the z of the difference with the variance
    ``S_v/N_v² + S_b/N_b² − 2C/(N_b·N_v)`` (each rate's spread, ``cluster_spread`` from
    ``card_counts``, and their cross-product ``C = Σ(y − p_v·n_v)(x − p_b·n_b)`` from
    ``_paired_cards``), and the MOVER interval of the two discordant parts of the linearised
    per-game difference (the card's rows of ``_paired_parts``)."""
    prefix, n = CARD_DELTA_RATES[metric]
    unpaired = _newcombe(metric)
    p_b, p_v = f"b.{metric}", f"v.{metric}"

    def spread(side: str) -> str:
        return (f"cluster_spread({side}c.{n}, {side}c.{_CARD_WINS[prefix]}, "
                f"{side}c.{prefix}_n_sq, {side}c.{prefix}_w_sq, {side}c.{prefix}_nw)")

    cross = (f"(pc.{prefix}_xy - {p_b} * pc.{prefix}_ny - {p_v} * pc.{prefix}_nx "
             f"+ {p_b} * {p_v} * pc.{prefix}_nn)")
    paired = _paired_interval("pp")
    variance = (f"({spread('v')} / (v.{n}::DOUBLE * v.{n}) + {spread('b')} / (b.{n}::DOUBLE * b.{n}) "
                f"- 2 * {cross} / (b.{n}::DOUBLE * v.{n}))")
    matched = "gv.games IS NOT NULL AND pg.pairs = gv.games AND pg.pairs = gb.games AND pc.card IS NOT NULL"
    return f"""
    SELECT v.experiment, v.variant, v.n_players, 'card' AS family, v.agent, v.card AS key, '{metric}' AS metric,
           b.{metric} AS baseline_value, v.{metric} AS value, b.{n} AS baseline_n, v.{n} AS n,
           b.{metric}_effective_n AS baseline_effective_n, v.{metric}_effective_n AS effective_n,
           CASE WHEN {matched} THEN 'paired_z' ELSE 'z' END AS test,
           CASE WHEN {matched} THEN CASE WHEN {variance} > 0 THEN ({p_v} - {p_b}) / sqrt({variance}) ELSE 0.0 END
                ELSE prop_z(coalesce(b.{metric}, 0) * b.{metric}_effective_n, b.{metric}_effective_n,
                            coalesce(v.{metric}, 0) * v.{metric}_effective_n, v.{metric}_effective_n) END
               AS statistic,
           {NEWCOMBE_DELTAS},
           CASE WHEN {matched} THEN {paired} ELSE {unpaired} END AS difference
    FROM {_once('card_stats')} AS v
    JOIN {_once('card_stats')} AS b ON b.experiment = v.experiment AND b.variant = 'baseline'
         AND b.n_players = v.n_players
         AND b.agent = v.agent AND b.card = v.card
    JOIN card_counts AS vc ON vc.experiment = v.experiment AND vc.variant = v.variant
         AND vc.n_players = v.n_players AND vc.agent = v.agent AND vc.card = v.card
    JOIN card_counts AS bc ON bc.experiment = b.experiment AND bc.variant = b.variant
         AND bc.n_players = b.n_players AND bc.agent = b.agent AND bc.card = b.card
    LEFT JOIN paired_games AS pg ON pg.experiment = v.experiment AND pg.variant = v.variant
         AND pg.n_players = v.n_players
    LEFT JOIN {_once('game_stats')} AS gv ON gv.experiment = v.experiment AND gv.variant = v.variant
         AND gv.n_players = v.n_players
    LEFT JOIN {_once('game_stats')} AS gb ON gb.experiment = v.experiment AND gb.variant = 'baseline'
         AND gb.n_players = v.n_players
    LEFT JOIN paired_cards AS pc ON pc.experiment = v.experiment AND pc.variant = v.variant
         AND pc.n_players = v.n_players AND pc.agent = v.agent AND pc.card = v.card
    LEFT JOIN {PAIRED_PARTS} AS pp ON pp.family = '{metric}' AND pp.experiment = v.experiment
         AND pp.variant = v.variant AND pp.n_players = v.n_players AND pp.agent = v.agent AND pp.key = v.card
    WHERE v.variant <> 'baseline' AND v.{n} > 0 AND b.{n} > 0"""


_CARD_WINS = {"gih": "wins_in_hand", "played": "wins_played", "play": "games_played_in_hand"}
"""The ``card_counts`` column of each card rate's successes (its trials: ``CARD_DELTA_RATES``)."""


def _game_family() -> str:
    def proportion(metric: str, source: str, count: str) -> str:
        # One trial per game: each discordant count is its own sum of squares, of n·P and
        # of games with P > 0 (P: the variant's only, M: the baseline's only).
        paired, unpaired = _paired_interval("pg"), _newcombe(metric)
        paired_test = "pg.pairs IS NOT NULL AND pg.pairs = v.games AND pg.pairs = b.games"
        return f"""
    SELECT v.experiment, v.variant, v.n_players, 'game' AS family, NULL::VARCHAR AS agent, '' AS key,
           '{metric}' AS metric, b.{metric} AS baseline_value, v.{metric} AS value,
           b.games AS baseline_n, v.games AS n, b.games::DOUBLE AS baseline_effective_n,
           v.games::DOUBLE AS effective_n,
           CASE WHEN {paired_test} THEN 'mcnemar' ELSE 'z' END AS test,
           CASE WHEN {paired_test} THEN {_paired_statistic('pg')}
                ELSE prop_z(b.{count}, b.games, v.{count}, v.games) END AS statistic,
           {NEWCOMBE_DELTAS},
           CASE WHEN {paired_test} THEN {paired} ELSE {unpaired} END AS difference
    FROM {source} AS v
    JOIN {source} AS b ON b.experiment = v.experiment AND b.variant = 'baseline' AND b.n_players = v.n_players
    LEFT JOIN {PAIRED_PARTS} AS pg ON pg.family = '{metric}' AND pg.experiment = v.experiment
         AND pg.variant = v.variant AND pg.n_players = v.n_players
    WHERE v.variant <> 'baseline'"""

    def mean(metric: str, column: str) -> str:
        se = (f"sqrt(mean_variance(b.sd_{column} ** 2, b.games) / b.games "
              f"+ mean_variance(v.sd_{column} ** 2, v.games) / v.games)")
        # On the baseline's seeds: the game-by-game differences d_g, their sample variance
        # (at least mean_variance's floor) over the pairs for the test, and for the interval
        # the same corrected for their skewness (skewed_mean_interval): a variant that changes
        # few games, and those one way, is uncertain mostly on that side.
        paired_test = "pg.pairs IS NOT NULL AND pg.pairs > 1 AND pg.pairs = v.games AND pg.pairs = b.games"
        paired_se = (f"sqrt(mean_variance((pg.{column}_d2 - pg.{column}_d::DOUBLE * pg.{column}_d / pg.pairs) "
                     f"/ (pg.pairs - 1), pg.pairs) / pg.pairs)")
        paired_sums = f"pg.pairs, pg.{column}_d, pg.{column}_d2, pg.{column}_d3"
        difference = f"(v.mean_{column} - b.mean_{column})"
        return f"""
    SELECT v.experiment, v.variant, v.n_players, 'game' AS family, NULL::VARCHAR AS agent, '' AS key,
           '{metric}' AS metric, b.mean_{column} AS baseline_value, v.mean_{column} AS value,
           b.games AS baseline_n, v.games AS n, b.games::DOUBLE AS baseline_effective_n,
           v.games::DOUBLE AS effective_n, CASE WHEN {paired_test} THEN 'paired_z' ELSE 'welch' END AS test,
           CASE WHEN {paired_test} THEN {difference} / {paired_se}
                ELSE welch_z(b.mean_{column}, b.sd_{column} ** 2, b.games, v.mean_{column}, v.sd_{column} ** 2,
                             v.games) END AS statistic,
           CASE WHEN {paired_test} THEN skewed_mean_low({paired_sums})
                ELSE {difference} - {Z95!r} * coalesce({se}, 0) END AS delta_low,
           CASE WHEN {paired_test} THEN skewed_mean_high({paired_sums})
                ELSE {difference} + {Z95!r} * coalesce({se}, 0) END AS delta_high, {NO_DIFFERENCE}
    FROM {_once('game_stats')} AS v
    JOIN {_once('game_stats')} AS b ON b.experiment = v.experiment AND b.variant = 'baseline'
         AND b.n_players = v.n_players
    LEFT JOIN paired_games AS pg ON pg.experiment = v.experiment AND pg.variant = v.variant
         AND pg.n_players = v.n_players
    WHERE v.variant <> 'baseline'"""

    team = "(SELECT *, win_rate AS team_win_rate, win_rate_low AS team_win_rate_low, " \
           f"win_rate_high AS team_win_rate_high FROM {_once('party_size_stats')})"
    return " UNION ALL ".join([
        proportion("team_win_rate", team, "wins"),
        proportion("draw_rate", _once("game_stats"), "draws"),
        proportion("turn_cap_rate", _once("game_stats"), "turn_cap_games"),
        *(mean(column, column) for column in MEANS),
    ])


PAIRED_SUMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "seat": (("experiment", "variant", "n_players", "key"), PAIRED_KEY_SUMS),
    "agent": (("experiment", "variant", "n_players", "key"), PAIRED_KEY_SUMS),
    "faction": (("experiment", "variant", "n_players", "key"), PAIRED_KEY_SUMS),
    "games": (("experiment", "variant", "n_players"), PAIRED_GAME_SUMS),
    "cards": (("experiment", "variant", "n_players", "agent", "card"), PAIRED_CARD_SUMS),
}
"""The sums over seed-matched games ``variant_deltas`` pairs on, by name: (keys, sums).
Each sum adds up over games, so the sums of an experiment are those of its pairs of a
variant's shard and the baseline's shard over the same games (``analytics.partials``
caches them so; a report then reads no rows)."""


def paired_sums_sql(columns: Columns, paired: bool | None) -> dict[str, str]:
    """The ``SELECT`` of each of ``PAIRED_SUMS``, computed from the rows."""
    return {"seat": _paired_counts("seat", paired), "agent": _paired_counts("agent", paired),
            "faction": _paired_counts("faction", paired), "games": _paired_games(paired),
            "cards": _paired_cards(columns, paired)}


def paired_sums_table(name: str) -> str:
    """The temporary table of the summed cached pairs of ``PAIRED_SUMS[name]``."""
    return f"_paired_{name}"


def variant_deltas(paired: bool | None, columns: Columns, cached_pairs: bool = False) -> str:
    """The ``SELECT`` of ``variant_deltas``; its paired sums computed from the rows, or with
    ``cached_pairs`` read from the tables ``paired_sums_table`` names (made by the caller)."""
    pairs = {name: paired_sums_table(name) if cached_pairs else f"({query})"
             for name, query in paired_sums_sql(columns, paired).items()}
    families = " UNION ALL ".join([
        _proportion_family("seat", _once("seat_stats"), "seat", "games", "win_rate", "games"),
        _proportion_family("agent", _once("agent_stats"), "agent", "seat_games", "win_rate", "win_rate_effective_n"),
        _proportion_family("faction", _once("faction_stats"), "faction", "seat_games", "win_rate",
                           "win_rate_effective_n"),
        *(_card_family(metric) for metric in CARD_DELTA_RATES),
        _game_family(),
    ])
    sources = ",\n".join(f"{_once(view)} AS MATERIALIZED (SELECT * FROM {view})" for view in DELTA_SOURCES)
    return f"""
WITH {sources},
paired_games AS (SELECT * FROM {pairs['games']}),
paired_cards AS (SELECT * FROM {pairs['cards']}),
{PAIRED_PARTS} AS MATERIALIZED ({_paired_parts(pairs)}),
rows AS (SELECT {_DELTA_COLUMNS}, {_newcombe_interval('low')}, {_newcombe_interval('high')} FROM ({families})),
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



_DIFFERENCE = ("the unadjusted 95% interval of `delta`: Newcombe's from the two sides' own intervals; on the "
               "baseline's seeds, for a win rate (and draws, turn-cap endings, team wins) the MOVER interval of its "
               "two discordant parts (the matched seat-games won only in the variant, and only in the baseline), "
               "each with its own interval, joined by their correlation over the matched games, and for a card rate "
               "the same of the linearised per-game difference (the successes and failures each game added, "
               "weighted by the baseline's rate); for a mean Welch's, or on the baseline's seeds that of the "
               "game-by-game differences corrected for their skewness (Hall's), each variance at least "
               "`mean_variance`'s floor")
VARIANT_DELTAS_CONTRACT = contract(
    "variant_deltas", "One row per variant, player count and compared rate or mean (a family, a key, a metric): "
    "the variant against the baseline, with the difference's interval and a test.", GROUP,
    Column("family", "VARCHAR", "What is compared: `seat`, `agent`, `faction` (win rates), `card` (card rates, per "
           "agent) or `game` (draws, turn cap, turns, decisions, a cooperative party's wins)."),
    Column("agent", "VARCHAR", f"{AGENT.description} NULL for the seat, faction and game families."),
    Column("key", "VARCHAR", "The seat, agent, faction or card compared; empty for the game family."),
    Column("metric", "VARCHAR", "The compared column: `win_rate`, `gih_win_rate`, `played_win_rate`, `play_rate`, "
           "`team_win_rate`, `draw_rate`, `turn_cap_rate`, `turns` or `decisions`."),
    Column("baseline_value", "DOUBLE", "The baseline's value (a rate in [0, 1], or a mean of turns or decisions)."),
    Column("value", "DOUBLE", "The variant's value, in the same unit."),
    Column("delta", "DOUBLE", "value − baseline_value (for a rate, 0.01 = 1 point)."),
    Column("delta_low", "DOUBLE", f"Low end of {_DIFFERENCE}."),
    Column("delta_high", "DOUBLE", f"High end of {_DIFFERENCE}."),
    Column("baseline_n", "BIGINT", "The baseline's trials: games, or seat-games for agent, faction and card rates."),
    Column("n", "BIGINT", "The variant's trials, in the same unit."),
    Column("baseline_effective_n", "DOUBLE", "The baseline's effective number of independent trials (clustered by "
           "game; the plain count for seats and games)."),
    Column("effective_n", "DOUBLE", "The variant's effective number of independent trials."),
    Column("test", "VARCHAR", "The test: `mcnemar` (a win rate played on the baseline's seeds), `paired_z` (a "
           "card rate or a mean on the baseline's seeds: the z of the difference with the two sides' covariance over "
           "the matched games), `z` (two proportions at the effective sizes) or `welch` (means)."),
    Column("statistic", "DOUBLE", "The test's statistic: McNemar's chi-square (1 degree of freedom) or z."),
    Column("p_value", "DOUBLE", "Two-sided p-value of the test."),
    Column("q_value", "DOUBLE", "Benjamini-Hochberg adjusted p-value within variant × player count × family."),
    Column("significant", "BOOLEAN", f"q_value < {SIGNIFICANCE} (a false discovery rate of 5%)."))
