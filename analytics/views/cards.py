"""Cards, per agent (the 17lands family): ``card_stats``, ``card_faction_stats`` (the same
per faction of the holding seat) and ``card_turn_stats`` (by the turn first played).

A row is one agent's seats: a card table is never a pool of different players.
The unit is the seat-game (never a copy), clustered by game. The in-hand, played
and playable rates are correlational: what holding or playing a card goes with,
not what it causes.
"""

from __future__ import annotations

from analytics.stats import PRIOR_COARSE_STEP, PRIOR_FINE_STEP, PRIOR_GRID_HIGH, PRIOR_GRID_LOW, PRIOR_TOLERANCE
from analytics.views.shared import ORDER, clustered_intervals, clustered_rate, clustered_rate_columns, clustered_rate_of
from analytics.views.thresholds import CARD_BAND, CARD_MIN_EXPECTED, OUTLIER_POINTS, OUTLIER_Z
from dataset.contracts import AGENT, CARD, FACTION, GROUP, Column, ViewContract, contract
from dataset.count_views import Columns, card_counts_sql

FACTION_SEAT_TOTALS = """(
    SELECT experiment, variant, n_players, agent, faction, count(*) AS seat_games,
           count(*) FILTER (WHERE won) AS seat_wins
    FROM players WHERE faction IS NOT NULL GROUP BY ALL)"""


def _prior_grid(low: float, high: float, step: float) -> str:
    count = round((high - low) / step)
    return f"SELECT {low!r} + i * {step!r} AS x FROM range(0, {count + 1}) AS t(i)"


RATES = (("wins_in_hand", "games_in_hand", "gih"), ("wins_played", "games_played", "played"),
         ("games_played_in_hand", "games_in_hand", "play"),
         ("games_played_when_playable", "games_playable", "playable"))
"""The clustered rates of ``card_stats`` (wins, n, the prefix of their cluster sums), in the order
of its ``intervals`` list: GIH win rate, played win rate, play rate, play rate when playable."""


def card_stats_sql(counts: str = "card_counts", extra_key: str = "", totals: str = "seat_totals") -> str:
    """``card_stats`` over the count view ``counts``, per agent (and ``extra_key``), with the
    seat-games and wins of each agent (and ``extra_key``) from ``totals``.

    The beta prior of the shrunk win rate is fitted per (experiment, variant,
    n_players, agent[, extra_key]) by marginal likelihood, in two grid passes
    over ``log10`` of its strength, as ``analytics.stats.beta_binomial_prior``, on the
    cards' effective counts (``gih_win_rate_effective_n`` games in hand, the GIH rate of
    them won) with the mean of their raw ones."""
    group = f"experiment, variant, n_players, agent{', ' + extra_key if extra_key else ''}"

    def likelihood(grid: str) -> str:
        # Σ lnB(w + ms, n − w + (1 − m)s) − lnB(ms, (1 − m)s) over the cards at each point x = log10 s
        # of ``grid`` (a relation of the group's columns and x).
        return f"""
        SELECT {group}, x,
               sum(lgamma(b.fit_wins + p.m * 10 ** x)
                   + lgamma(b.fit_games - b.fit_wins + (1 - p.m) * 10 ** x)
                   - lgamma(b.fit_games + 10 ** x)
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
    intervals = clustered_intervals([(f"c.{wins}", f"c.{n}", prefix) for wins, n, prefix in RATES], "intervals", "c")
    return f"""
WITH counted AS (
    SELECT c.*, t.seat_games, t.seat_wins, {intervals}
    FROM {counts} AS c JOIN {totals} AS t USING ({group})
), base AS (
    -- The prior is fitted on each card's effective counts (its games in hand clustered by
    -- game, as its interval): two seats of one game holding a card are not two trials.
    SELECT *, intervals[1].effective_n AS fit_games,
           wins_in_hand::DOUBLE / nullif(games_in_hand, 0) * intervals[1].effective_n AS fit_wins
    FROM counted
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
       {clustered_rate_of('b.wins_in_hand', 'b.games_in_hand', 'gih_win_rate', 'b.intervals', 1)},
       b.seat_games - b.games_in_hand AS games_not_seen,
       b.seat_wins - b.wins_in_hand AS wins_not_seen,
       (b.seat_wins - b.wins_in_hand)::DOUBLE / nullif(b.seat_games - b.games_in_hand, 0) AS gns_win_rate,
       gih_win_rate - gns_win_rate AS iwd,
       b.games_opening, b.wins_opening::DOUBLE / nullif(b.games_opening, 0) AS oh_win_rate,
       b.games_drawn_later, b.wins_drawn_later::DOUBLE / nullif(b.games_drawn_later, 0) AS gd_win_rate,
       b.games_played, b.wins_played,
       {clustered_rate_of('b.wins_played', 'b.games_played', 'played_win_rate', 'b.intervals', 2)},
       b.games_played_in_hand,
       {clustered_rate_of('b.games_played_in_hand', 'b.games_in_hand', 'play_rate', 'b.intervals', 3)},
       b.games_playable, b.games_played_when_playable,
       {clustered_rate_of('b.games_played_when_playable', 'b.games_playable', 'playable_play_rate', 'b.intervals', 4)},
       b.times_drawn, b.times_played, b.times_playable,
       b.sum_turn_played::DOUBLE / nullif(b.n_turn_played, 0) AS mean_turn_played,
       s.m AS card_mean,
       s.prior_strength,
       s.prior_strength IS NOT NULL AS prior_identified,
       CASE WHEN s.prior_strength IS NOT NULL THEN sqrt(s.m * (1 - s.m) / (s.prior_strength + 1)) ELSE 0.0 END
           AS card_spread,
       CASE WHEN b.games_in_hand = 0 THEN NULL
            WHEN s.prior_strength IS NULL THEN s.m
            ELSE (b.fit_wins + s.m * s.prior_strength) / (b.fit_games + s.prior_strength)
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
       {clustered_rate('wins_played', 'games_played', 'played', 'played_win_rate', hits=False)}
FROM card_turn_counts
ORDER BY {ORDER}, agent, card, first_played_turn
"""



def card_faction_stats_sql(columns: Columns) -> str:
    """``card_stats`` per faction of the holding seat too, computed from the rows when asked (not a
    cached count view: the split costs a scan of every card row and only the dashboard's faction
    filter needs it)."""
    return card_stats_sql(f"({card_counts_sql(columns, extra_key='faction')})", "faction", FACTION_SEAT_TOTALS)


_IN_HAND = "seat-games with the card in hand"


def _card_stats_contract(name: str, description: str, *extra: Column) -> ViewContract:
    of_them = "Of those, the seat-games the seat won."
    mean = "the agent's card mean `card_mean`"
    evidence = (f"on enough evidence (at `card_mean` m, n·m and n·(1 − m) at least {CARD_MIN_EXPECTED:g}, "
                "n = gih_win_rate_effective_n)")
    return contract(
        name, description, GROUP, AGENT, *extra, CARD,
        Column("games_in_hand", "BIGINT", "Seat-games of the agent with the card in hand (drawn, dealt cards "
               "included, or in the opening hand)."),
        Column("wins_in_hand", "BIGINT", of_them),
        clustered_rate_columns("gih_win_rate", "GIH win rate: the seat's win rate in the games with the card in "
                               "hand (correlational)", _IN_HAND),
        Column("games_not_seen", "BIGINT", "The agent's other seat-games at this player count (the card never in "
               "hand)."),
        Column("wins_not_seen", "BIGINT", of_them),
        Column("gns_win_rate", "DOUBLE", "Win rate in the games not seen, a rate in [0, 1] over seat-games."),
        Column("iwd", "DOUBLE", "Improvement when drawn: gih_win_rate − gns_win_rate (0.05 = 5 points)."),
        Column("games_opening", "BIGINT", "Seat-games with the card in the opening hand (0 where the game does "
               "not count it)."),
        Column("oh_win_rate", "DOUBLE", "Win rate in those games, in [0, 1]; NULL without them."),
        Column("games_drawn_later", "BIGINT", "Seat-games in which a copy was drawn after the opening hand."),
        Column("gd_win_rate", "DOUBLE", "Win rate in those games, in [0, 1]; NULL without them."),
        Column("games_played", "BIGINT", "Seat-games in which the seat played the card (every play by its own "
               "choice, in turn or out of it)."),
        Column("wins_played", "BIGINT", of_them),
        clustered_rate_columns("played_win_rate", "The seat's win rate in the games it played the card "
                               "(correlational)", "seat-games in which the card was played"),
        Column("games_played_in_hand", "BIGINT", "Seat-games with the card in hand in which the seat played it."),
        clustered_rate_columns("play_rate", "Seat-games in which the card was played / seat-games with it in hand",
                               _IN_HAND),
        Column("games_playable", "BIGINT", "Seat-games in which the card was playable at least once (0 where the "
               "game has no `playable` counter)."),
        Column("games_played_when_playable", "BIGINT", "Of those, the seat-games in which the seat played it."),
        clustered_rate_columns("playable_play_rate", "Play rate when playable: seat-games in which the card was "
                               "played / seat-games in which it was playable (a weak card against an ignored one)",
                               "seat-games in which the card was playable"),
        Column("times_drawn", "BIGINT", "Copies drawn, summed over the seat-games."),
        Column("times_played", "BIGINT", "Plays, summed over the seat-games."),
        Column("times_playable", "BIGINT", "Steps at which the card was playable, summed over the seat-games."),
        Column("mean_turn_played", "DOUBLE", "Mean first turn the card was played, over the seat-games it was "
               "played in."),
        Column("card_mean", "DOUBLE", "The agent's pooled GIH win rate over all its cards, m, in [0, 1]: the mean "
               "of the beta prior."),
        Column("prior_strength", "DOUBLE", "Strength s = α + β of the beta prior fitted by marginal likelihood "
               "on the cards' effective counts (`gih_win_rate_effective_n`, in seat-games); NULL when not "
               "identified."),
        Column("prior_identified", "BOOLEAN", "The data identify a spread between cards (else every card shrinks "
               "to `card_mean`)."),
        Column("card_spread", "DOUBLE", "Standard deviation of the cards' true GIH rates the prior implies, "
               "sqrt(m(1 − m)/(s + 1)); 0 when not identified."),
        Column("shrunk_win_rate", "DOUBLE", "GIH win rate shrunk towards `card_mean` by the prior, (p·n + m·s)/(n + s) "
               "with n its effective n, in [0, 1]: the default sort."),
        Column("z_score", "DOUBLE", "(gih_win_rate − m) / sqrt(m(1 − m) / gih_win_rate_effective_n): how many "
               "standard errors the card is from its agent's card mean."),
        Column("outlier", "BOOLEAN", f"|z_score| ≥ {OUTLIER_Z:g} and at least {OUTLIER_POINTS} from {mean}, "
               f"{evidence}."),
        Column("surely_outside", "BOOLEAN", f"The whole GIH interval is outside {mean} ± {CARD_BAND}, {evidence}."),
        Column("never_played", "BOOLEAN", "Held (or playable) but never played by this agent: its numbers describe "
               "the agent, not the card."))


CARD_STATS_CONTRACT = _card_stats_contract(
    "card_stats", "One row per agent and card (and variant and player count): the agent's win rates with the card "
    "in hand, played, and how often it plays it.")
CARD_FACTION_STATS_CONTRACT = _card_stats_contract(
    "card_faction_stats", "`card_stats` per faction of the holding seat too (computed from the card rows when "
    "asked).", Column("faction", "VARCHAR", FACTION.description))
CARD_TURN_STATS_CONTRACT = contract(
    "card_turn_stats", "One row per agent, card and first turn played: the win rate by how early the card came "
    "out.", GROUP, AGENT, CARD,
    Column("first_played_turn", "SMALLINT", "The first turn the seat played the card."),
    Column("games_played", "BIGINT", "Seat-games in which the card was first played on that turn."),
    Column("wins_played", "BIGINT", "Of those, the seat-games the seat won."),
    clustered_rate_columns("played_win_rate", "The seat's win rate in those games (correlational)", "seat-games"))
