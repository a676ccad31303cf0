"""Game-design metrics: how decisive games are, how the lead moves, how much the deal
decides and how much skill pays (``decisiveness``, ``margin_distribution``,
``lead_stats``, ``seed_influence``, ``skill_depth``).

``decisiveness``, ``margin_distribution`` and ``lead_stats`` read the count views
``lead_counts`` and ``game_counts`` (the per-game standings summaries of
``simcore.standings``: margin, lead changes, the winner's deficit, the leader at
each third). ``seed_influence`` reads the rows: an experiment with
``deal_replays = K`` plays each deal K times with other agent seeds (the games
of one deal share ``games.seed``), and the view splits the variance of each
seat's outcome into the part between deals and the part between the replays of
one deal (a one-way analysis of variance; the deal's share is the intraclass
correlation ICC(1), as "Seeding for Success" measures it). ``skill_depth``
reads the rows too: each agent's win rate at tables that seat the random agent.
The methods page defines each metric and gives its source.
"""

from __future__ import annotations

from analytics.views.shared import (
    GROUP_KEYS,
    ORDER,
    clustered_rate,
    clustered_rate_columns,
    competitive,
    histogram_quantile,
    normal_mean,
    normal_mean_columns,
    wilson_rate,
    wilson_rate_columns,
)
from dataset.contracts import AGENT, GROUP, Column, contract
from dataset.quoting import sql_string

RANDOM_AGENT = "random"
"""The baseline of ``skill_depth``: the agent that picks uniformly among the legal actions."""


def decisiveness() -> str:
    quantiles = [(0.1, "p10"), (0.5, "p50"), (0.9, "p90")]
    joins = "".join(f"\nLEFT JOIN {histogram_quantile('margin', p, 'lead_counts')} AS {name} USING ({GROUP_KEYS})"
                    for p, name in quantiles)
    return f"""
WITH ends AS (
    SELECT {GROUP_KEYS}, sum(games)::BIGINT AS games, coalesce(sum(games) FILTER (WHERE draw), 0)::BIGINT AS draws
    FROM game_counts
    GROUP BY {GROUP_KEYS}
), margins AS (
    SELECT {GROUP_KEYS},
           coalesce(sum(games) FILTER (WHERE margin IS NOT NULL), 0)::BIGINT AS margin_games,
           sum(margin * games) FILTER (WHERE margin IS NOT NULL)::DOUBLE AS total,
           sum(margin::DOUBLE * margin * games) FILTER (WHERE margin IS NOT NULL) AS squares,
           coalesce(sum(games) FILTER (WHERE margin <= 0), 0)::BIGINT AS level_finishes
    FROM lead_counts
    GROUP BY {GROUP_KEYS}
)
SELECT {GROUP_KEYS}, games, draws, {wilson_rate('draws', 'games', 'draw_rate')},
       coalesce(margin_games, 0) AS margin_games,
       -- a margin can be negative (won by elimination from behind): the interval is not clamped
       {normal_mean('total', 'squares', 'margin_games', 'mean_margin', lowest=None)},
       sqrt(greatest(0.0, (squares - total * total / margin_games) / nullif(margin_games - 1, 0))) AS sd_margin,
       p10.q AS p10_margin, p50.q AS p50_margin, p90.q AS p90_margin,
       coalesce(level_finishes, 0) AS level_finishes
FROM ends LEFT JOIN margins USING ({GROUP_KEYS}){joins}
ORDER BY {ORDER}
"""


MARGIN_DISTRIBUTION = f"""
SELECT {GROUP_KEYS}, margin, sum(games)::BIGINT AS games,
       sum(games) / sum(sum(games)) OVER (PARTITION BY {GROUP_KEYS}) AS share
FROM lead_counts
WHERE margin IS NOT NULL
GROUP BY {GROUP_KEYS}, margin
ORDER BY {ORDER}, margin
"""

LEAD_STATS = f"""
WITH sums AS (
    SELECT {GROUP_KEYS},
           sum(games) FILTER (WHERE lead_changes IS NOT NULL)::BIGINT AS games,
           sum(lead_changes * games)::DOUBLE AS changes,
           sum(lead_changes::DOUBLE * lead_changes * games) AS changes_sq,
           coalesce(sum(games) FILTER (WHERE lead_changes > 0), 0)::BIGINT AS games_with_lead_change,
           coalesce(sum(games) FILTER (WHERE winner_deficit IS NOT NULL), 0)::BIGINT AS won_games,
           coalesce(sum(games) FILTER (WHERE winner_deficit > 0), 0)::BIGINT AS comebacks,
           sum(winner_deficit * games)::DOUBLE AS deficits,
           sum(winner_deficit::DOUBLE * winner_deficit * games) AS deficits_sq,
           max(winner_deficit) AS max_winner_deficit,
           coalesce(sum(games) FILTER (WHERE first_third_leader_won IS NOT NULL), 0)::BIGINT AS first_third_led,
           coalesce(sum(games) FILTER (WHERE first_third_leader_won), 0)::BIGINT AS first_third_leader_wins,
           coalesce(sum(games) FILTER (WHERE second_third_leader_won IS NOT NULL), 0)::BIGINT AS second_third_led,
           coalesce(sum(games) FILTER (WHERE second_third_leader_won), 0)::BIGINT AS second_third_leader_wins
    FROM lead_counts
    GROUP BY {GROUP_KEYS}
)
SELECT {GROUP_KEYS}, games,
       {normal_mean('changes', 'changes_sq', 'games', 'mean_lead_changes')},
       games_with_lead_change, {wilson_rate('games_with_lead_change', 'games', 'lead_change_rate')},
       won_games, comebacks, {wilson_rate('comebacks', 'won_games', 'comeback_rate')},
       {normal_mean('deficits', 'deficits_sq', 'won_games', 'mean_winner_deficit')},
       max_winner_deficit,
       first_third_led, first_third_leader_wins,
       {wilson_rate('first_third_leader_wins', 'first_third_led', 'first_third_leader_win_rate')},
       second_third_led, second_third_leader_wins,
       {wilson_rate('second_third_leader_wins', 'second_third_led', 'second_third_leader_win_rate')}
FROM sums
WHERE games > 0
ORDER BY {ORDER}
"""

SEED_INFLUENCE = f"""
WITH plays AS (
    SELECT {GROUP_KEYS}, seed, count(*) AS plays, count(DISTINCT winners) AS outcomes
    FROM games
    GROUP BY ALL
), replayed AS (
    -- K, the plays of a whole deal; a deal cut short (a run stopped mid-deal) is left out
    SELECT {GROUP_KEYS}, max(plays) AS replays FROM plays GROUP BY ALL HAVING max(plays) > 1
), deals AS (
    SELECT plays.*, replayed.replays
    FROM plays JOIN replayed USING ({GROUP_KEYS})
    WHERE plays.plays = replayed.replays
), cells AS (
    -- one seat of one deal over its K replays: its mean outcome and the squares within
    SELECT p.experiment, p.variant, p.n_players, g.seed, p.seat, p.agent, any_value(d.replays) AS replays,
           avg(p.won::DOUBLE) AS mean,
           greatest(0.0, sum(p.won::DOUBLE) - count(*) * avg(p.won::DOUBLE) ** 2) AS within
    FROM players AS p
    JOIN games AS g USING ({GROUP_KEYS}, game_index)
    JOIN deals AS d ON d.experiment = p.experiment AND d.variant = p.variant AND d.n_players = p.n_players
                   AND d.seed = g.seed
    GROUP BY p.experiment, p.variant, p.n_players, g.seed, p.seat, p.agent
), strata AS (
    -- one seat held by one agent, over the deals: the squares between its deals' means
    SELECT {GROUP_KEYS}, seat, agent, any_value(replays) AS replays, count(*) AS deals,
           any_value(replays) * greatest(0.0, sum(mean * mean) - count(*) * avg(mean) ** 2) AS between,
           sum(within) AS within
    FROM cells
    GROUP BY {GROUP_KEYS}, seat, agent
), pooled AS (
    SELECT {GROUP_KEYS}, any_value(replays) AS replays,
           sum(between) / nullif(sum(deals - 1), 0) AS ms_between,
           sum(within) / nullif(sum(deals * (replays - 1)), 0) AS ms_within
    FROM strata
    GROUP BY {GROUP_KEYS}
), counted AS (
    SELECT {GROUP_KEYS}, count(*)::BIGINT AS deals,
           count(*) FILTER (WHERE outcomes = 1)::BIGINT AS same_winner_deals
    FROM deals
    GROUP BY {GROUP_KEYS}
), estimated AS (
    SELECT *, (ms_between - ms_within) / nullif(ms_between + (replays - 1) * ms_within, 0) AS icc
    FROM pooled JOIN counted USING ({GROUP_KEYS})
), shared AS (
    SELECT *, greatest(0.0, least(1.0, icc)) AS deal_share,
           -- Fisher's large-sample standard error of ICC(1), over the deals (the seats of one
           -- deal are not independent of each other, so they add no deals)
           sqrt(2.0 * (1 - greatest(0.0, least(1.0, icc))) ** 2
                * (1 + (replays - 1) * greatest(0.0, least(1.0, icc))) ** 2
                / (replays * (replays - 1) * nullif(deals - 1, 0))) AS se
    FROM estimated
)
SELECT {GROUP_KEYS}, deals, replays::BIGINT AS replays, (deals * replays)::BIGINT AS games,
       ms_between, ms_within, icc, deal_share,
       greatest(0.0, deal_share - normal_z() * se) AS deal_share_low,
       least(1.0, deal_share + normal_z() * se) AS deal_share_high,
       same_winner_deals, {wilson_rate('same_winner_deals', 'deals', 'same_winner_rate')}
FROM shared
ORDER BY {ORDER}
"""


def skill_depth() -> str:
    random = sql_string(RANDOM_AGENT)
    return f"""
WITH pairs AS (
    SELECT DISTINCT me.experiment, me.variant, me.n_players, me.game_index, me.seat, me.agent,
           me.won::INTEGER AS won
    FROM players AS me
    JOIN players AS them
      ON me.experiment = them.experiment AND me.variant = them.variant AND me.n_players = them.n_players
     AND me.game_index = them.game_index AND me.seat <> them.seat
    WHERE them.agent = {random} AND me.agent <> {random} AND {competitive('me')}
), per_game AS (
    SELECT {GROUP_KEYS}, game_index, agent, count(*) AS n, sum(won) AS w FROM pairs GROUP BY ALL
), sums AS (
    SELECT {GROUP_KEYS}, agent, count(*)::BIGINT AS games, sum(n)::BIGINT AS seat_games, sum(w)::BIGINT AS wins,
           sum(n * n)::BIGINT AS n_sq, sum(w * w)::BIGINT AS w_sq, sum(n * w)::BIGINT AS nw,
           count(*)::BIGINT AS clusters, count(*) FILTER (WHERE w > 0)::BIGINT AS hits
    FROM per_game
    GROUP BY ALL
), rated AS (
    SELECT {GROUP_KEYS}, agent, games, seat_games, wins, {clustered_rate('wins', 'seat_games', '', 'win_rate')}
    FROM sums
)
SELECT *, 1.0 / n_players AS even_rate, win_rate - 1.0 / n_players AS edge,
       row_number() OVER (PARTITION BY {GROUP_KEYS} ORDER BY win_rate DESC, agent) = 1 AS strongest
FROM rated
ORDER BY {ORDER}, win_rate DESC, agent
"""


_STANDINGS = "games whose seats have standings (the competitive games of results that record them)"
DECISIVENESS_CONTRACT = contract(
    "decisiveness", "One row per variant and player count: how decisive games are, the margin of victory and the "
    "draw rate.", GROUP,
    Column("games", "BIGINT", "Games played."),
    Column("draws", "BIGINT", "Drawn games (no winner)."),
    wilson_rate_columns("draw_rate", "Drawn games / games", "games"),
    Column("margin_games", "BIGINT", "Games with a margin of victory (`games.margin`: a sole winner, among the "
           f"{_STANDINGS})."),
    Column("mean_margin", "DOUBLE", "The margin of victory (the winner's final standing minus the runner-up's, in "
           "the game's own units), the mean over those games."),
    Column("mean_margin_low", "DOUBLE", "Low end of the 95% normal interval of `mean_margin` (mean ± z·sd/√n, "
           "the variance at least `mean_variance`'s floor; not clamped: a margin can be negative)."),
    Column("mean_margin_high", "DOUBLE", "High end of the 95% normal interval of `mean_margin`."),
    Column("sd_margin", "DOUBLE", "The sample standard deviation of the margin of victory."),
    Column("p10_margin", "DOUBLE", "The 10th percentile of the margin of victory (linear interpolation)."),
    Column("p50_margin", "DOUBLE", "The median margin of victory (linear interpolation)."),
    Column("p90_margin", "DOUBLE", "The 90th percentile of the margin of victory (linear interpolation)."),
    Column("level_finishes", "BIGINT", "Games won with a margin of 0 or less: level on the standings at the end "
           "and won by a tiebreaker, or won another way (an elimination)."))

MARGIN_DISTRIBUTION_CONTRACT = contract(
    "margin_distribution", "One row per margin of victory (and variant and player count): its histogram.", GROUP,
    Column("margin", "INTEGER", "The margin of victory (`games.margin`)."),
    Column("games", "BIGINT", "Games won by this margin."),
    Column("share", "DOUBLE", "Those games / all games with a margin, in [0, 1]."))

LEAD_STATS_CONTRACT = contract(
    "lead_stats", "One row per variant and player count: how often the lead changes hands, how far the winner came "
    f"back from and how often the leader at each third of the game wins ({_STANDINGS}).", GROUP,
    Column("games", "BIGINT", f"Games counted: the {_STANDINGS}."),
    normal_mean_columns("mean_lead_changes", "Times the lead passed to another seat (`games.lead_changes`)"),
    Column("games_with_lead_change", "BIGINT", "Games in which the lead changed hands at least once."),
    wilson_rate_columns("lead_change_rate", "Games with a lead change / games", "games"),
    Column("won_games", "BIGINT", "Games with a sole winner (a winner's deficit)."),
    Column("comebacks", "BIGINT", "Games whose winner trailed at some reading (`games.winner_deficit` > 0)."),
    wilson_rate_columns("comeback_rate", "Comebacks / games with a sole winner", "games with a sole winner"),
    normal_mean_columns("mean_winner_deficit", "The largest deficit the winner came back from (0 when never "
                        "behind), in the game's own units", ""),
    Column("max_winner_deficit", "INTEGER", "The largest deficit any winner came back from."),
    Column("first_third_led", "BIGINT", "Games with a sole leader at the end of the first third."),
    Column("first_third_leader_wins", "BIGINT", "Of these, the games that leader won (alone or sharing the win)."),
    wilson_rate_columns("first_third_leader_win_rate", "How often the leader at the end of the first third wins",
                        "games with a sole leader then"),
    Column("second_third_led", "BIGINT", "Games with a sole leader at the end of the second third."),
    Column("second_third_leader_wins", "BIGINT", "Of these, the games that leader won (alone or sharing the win)."),
    wilson_rate_columns("second_third_leader_win_rate", "How often the leader at the end of the second third wins",
                        "games with a sole leader then"))

SEED_INFLUENCE_CONTRACT = contract(
    "seed_influence", "One row per variant and player count of an experiment with `deal_replays`: the share of the "
    "outcome's variance explained by the deal (each deal played several times with other agent seeds).", GROUP,
    Column("deals", "BIGINT", "Deals counted: those played all their replays."),
    Column("replays", "BIGINT", "Plays of each deal (the experiment's `deal_replays`)."),
    Column("games", "BIGINT", "Games counted: deals × replays."),
    Column("ms_between", "DOUBLE", "Mean square between deals of a seat's outcome (1 won, 0 not), seats held by "
           "the same agent pooled (one-way analysis of variance)."),
    Column("ms_within", "DOUBLE", "Mean square between the replays of one deal."),
    Column("icc", "DOUBLE", "The intraclass correlation ICC(1) = (MSB − MSW) / (MSB + (K − 1)·MSW), K the replays: "
           "unclamped, below 0 by chance when the deal decides nothing; NULL when no seat's outcome ever varies."),
    Column("deal_share", "DOUBLE", "The share of the outcome's variance explained by the deal: `icc` clamped to "
           "[0, 1]. Near 1: the deal decides who wins whatever the agents do; near 0: the agents' play does."),
    Column("deal_share_low", "DOUBLE", "Low end of the 95% interval of `deal_share` (Fisher's large-sample standard "
           "error of ICC(1) over the deals), clamped at 0."),
    Column("deal_share_high", "DOUBLE", "High end of that interval, clamped at 1."),
    Column("same_winner_deals", "BIGINT", "Deals won by the same seats in every replay (or drawn in every one)."),
    wilson_rate_columns("same_winner_rate", "Deals with the same winners in every replay / deals", "deals"))

SKILL_DEPTH_CONTRACT = contract(
    "skill_depth", "One row per agent (and variant and player count) that sat at tables with the random agent: its "
    "win rate there, and whether it is the strongest such agent (competitive games).", GROUP, AGENT,
    Column("games", "BIGINT", "Games in which the agent sat with the random agent."),
    Column("seat_games", "BIGINT", "The agent's seats in those games."),
    Column("wins", "BIGINT", "Of these seat-games, those it won."),
    clustered_rate_columns("win_rate", "The agent's wins / its seat-games at tables with the random agent",
                           "seat-games"),
    Column("even_rate", "DOUBLE", "1 / n_players: the win rate of an agent no better than its table."),
    Column("edge", "DOUBLE", "`win_rate` − `even_rate`: how much the agent's play adds against random play."),
    Column("strongest", "BOOLEAN", "The agent with the highest `win_rate` of its variant and player count."))
