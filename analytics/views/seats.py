"""Seats: ``seat_stats``, ``seat_balance`` (is the first seat favoured?) and
``seat_totals`` (each agent's seat-games, what the card tables compare against).

Seat balance says something only where every seat holds the same agent (self-play):
where seats rotate through a lineup of different agents, each seat's pooled rate
mixes the agents the rotation put there (heuristic against random at two seats:
seat 0 wins half the wins, whatever the seat is worth, because the heuristic sits
there half the time and wins wherever it sits). There ``seat_balance`` compares each
agent with itself instead: its win rate at seat 0 against its win rate over all its
seats (``self_play`` says which)."""

from __future__ import annotations

from analytics.views.shared import (
    LINEUPS,
    ORDER,
    competitive,
    newcombe_arguments,
    newcombe_bound,
    wilson_rate,
    wilson_rate_columns,
)
from analytics.views.thresholds import FACTION_BAND
from dataset.contracts import AGENT, GROUP, SEAT, Column, contract

_SEAT_RATES = ("win_rate", "win_rate_low", "win_rate_high", "win_share", "win_share_low", "win_share_high",
               "fair_share")

# A seat's rates say something only where seats compete: in a cooperative game every
# seat shares the party's outcome (each seat's "share" of the wins is 1/N by
# construction) and a one-player game has one seat (share 1). There the rates are
# NULL (the counts stay), as seat_balance's tests are.
SEAT_STATS = f"""
WITH seats AS (
    SELECT experiment, variant, n_players, seat, sum(games)::BIGINT AS games, sum(wins)::BIGINT AS wins,
           sum(draws)::BIGINT AS draws
    FROM seat_counts GROUP BY experiment, variant, n_players, seat
), rated AS (
    SELECT experiment, variant, n_players, seat, games, wins, draws,
           {wilson_rate('wins', 'games', 'win_rate')},
           (sum(wins) OVER w)::BIGINT AS total_wins,
           {wilson_rate('wins', 'sum(wins) OVER w', 'win_share')},
           1.0::DOUBLE / n_players AS fair_share,
           n_players > 1 AND {competitive()} AS tested
    FROM seats
    WINDOW w AS (PARTITION BY experiment, variant, n_players)
)
SELECT r.experiment, r.variant, r.n_players, seat, games, wins, draws,
       {', '.join(f'CASE WHEN tested THEN {name} END AS {name}' for name in _SEAT_RATES[:3])},
       total_wins,
       {', '.join(f'CASE WHEN tested THEN {name} END AS {name}' for name in _SEAT_RATES[3:])},
       l.agents = 1 AS self_play
FROM rated AS r JOIN {LINEUPS} AS l USING (experiment, variant, n_players)
ORDER BY {ORDER}, seat
"""

_UNTESTED = " NULL in a cooperative experiment and for one player."
_SELF_PLAY = Column("self_play", "BOOLEAN", "Every seat of these games held the same agent: the seats' rates show "
                    "seat balance. Otherwise each seat's rate pools the agents the lineup put there (a strong agent "
                    "rotated through the seats wins wherever it sits), which says nothing about the seats.")
SEAT_STATS_CONTRACT = contract(
    "seat_stats", "One row per seat (and variant and player count): how often the seat wins, and its share of all "
    "wins against the fair share 1/N; pooled over the agents that held the seat (`self_play`).", GROUP, SEAT,
    Column("games", "BIGINT", "Games played at this player count (each has every seat)."),
    Column("wins", "BIGINT", "Games this seat won."),
    Column("draws", "BIGINT", "Drawn games (nobody won)."),
    wilson_rate_columns("win_rate", "The seat's wins / games (draws count as not-a-win);" + _UNTESTED, "games"),
    Column("total_wins", "BIGINT", "Wins of all seats at this player count (draws have none)."),
    wilson_rate_columns("win_share", "The seat's wins / all seats' wins;" + _UNTESTED, "wins"),
    Column("fair_share", "DOUBLE", "1/N, the share of the wins each seat would have if no seat were favoured;"
           + _UNTESTED),
    _SELF_PLAY)


def seat_balance() -> str:
    # Window functions cannot nest inside aggregates; compute the expected
    # count per row first. Seat tests say nothing in a cooperative game
    # (every seat shares the outcome): NULL there.
    agent_rate = "a.wins::DOUBLE / nullif(a.seat_games, 0)"
    first = "s.wins::DOUBLE / nullif(s.games, 0)"
    # r₀ − r̄ = (1 − f)(r₀ − r₁): f = s.games / a.seat_games, the agent's share of its seat-games
    # at seat 0 (fixed by the counts), r₁ its rate at its other seats. r₀ (one seat-game per
    # game: Wilson) and r₁ (clustered by game) count disjoint seat-games of possibly the same
    # games (negatively correlated: one winner). The sums of r₁ are the agent's (a) less its
    # seat-0 ones (s: x_g of m_g ∈ {0, 1}, with Σm·n, Σm·w, Σx·n, Σx·w): n₁ = n − m, w₁ = w − x.
    # Its games: those with another seat, exact where the agent holds at most two seats a game.
    other = {"n": "a.seat_games - s.games", "w": "a.wins - s.wins",
             "n_sq": "a.win_n_sq - 2 * s.agent_seats + s.games",
             "w_sq": "a.win_w_sq - 2 * s.won_agent_wins + s.wins",
             "nw": "a.win_nw - s.won_agent_seats - s.agent_wins + s.wins",
             "g": "a.win_clusters - s.games + least(s.games, s.agent_seats - s.games)"}
    other_rate = f"({other['w']})::DOUBLE / nullif({other['n']}, 0)"
    other_spread_sums = ", ".join(other[name] for name in ("n", "w", "n_sq", "w_sq", "nw"))
    other_sums = f"{other_spread_sums}, {other['g']}"
    # C = Σ(x_g − r₀·m_g)(w₁_g − r₁·n₁_g), from Σx·w₁ = Σx·w − Σx (x·x = x), and likewise.
    cross = (f"((s.won_agent_wins - s.wins) - {other_rate} * (s.won_agent_seats - s.wins) "
             f"- {first} * (s.agent_wins - s.wins) + {first} * {other_rate} * (s.agent_seats - s.games))")
    spread_first = "cluster_spread(s.games, s.wins, s.games, s.wins, s.wins)"
    spread_other = f"cluster_spread({other_spread_sums})"
    phi = f"paired_phi({spread_other}, {spread_first}, {spread_other} + {spread_first} - 2 * {cross})"
    difference = newcombe_arguments(other_rate, f"clustered_low({other_sums}, NULL)",
                                     f"clustered_high({other_sums}, NULL)", first, "wilson_low(s.wins, s.games)",
                                     "wilson_high(s.wins, s.games)", phi)
    scale = "(1 - s.games::DOUBLE / a.seat_games)"
    # The agent held seat 0 in some games and other seats in others: else no comparison.
    comparable = "s.games > 0 AND s.games < a.seat_games"
    tested = f"a.n_players > 1 AND {competitive('a')}"
    compared = f"{tested} AND {comparable}"
    return f"""
WITH expected AS (
    SELECT *, total_wins::DOUBLE / n_players AS expected_wins,
           n_players > 1 AND {competitive()} AS tested
    FROM seat_stats
), self_play AS (
    SELECT e.experiment, e.variant, e.n_players, any_value(l.only_agent) AS agent, TRUE AS self_play,
           max(e.games) AS games,
           max(e.total_wins) AS total_wins,
           CASE WHEN bool_and(tested) THEN CASE WHEN max(expected_wins) > 0
                THEN sum((wins - expected_wins) ** 2 / expected_wins) ELSE 0.0 END END AS chi2,
           CASE WHEN bool_and(tested) THEN e.n_players - 1 END AS df,
           CASE WHEN bool_and(tested) THEN chi2_sf(chi2, e.n_players - 1) END AS p_value,
           CASE WHEN bool_and(tested) THEN max(win_share) FILTER (WHERE seat = 0) END AS first_seat_share,
           CASE WHEN bool_and(tested) THEN max(win_rate) FILTER (WHERE seat = 0) END AS first_seat_win_rate,
           CASE WHEN bool_and(tested) THEN sum(wins)::DOUBLE / sum(e.games) END AS agent_win_rate,
           CASE WHEN bool_and(tested) THEN first_seat_share - 1.0 / e.n_players END AS first_seat_advantage,
           CASE WHEN bool_and(tested) THEN max(win_share_low) FILTER (WHERE seat = 0) - 1.0 / e.n_players END
               AS first_seat_advantage_low,
           CASE WHEN bool_and(tested) THEN max(win_share_high) FILTER (WHERE seat = 0) - 1.0 / e.n_players END
               AS first_seat_advantage_high
    FROM expected AS e JOIN {LINEUPS} AS l USING (experiment, variant, n_players)
    WHERE l.agents = 1
    GROUP BY e.experiment, e.variant, e.n_players
), agent_rates AS (
    -- The interval's arguments (themselves intervals) as one column: bound once for both its ends.
    SELECT a.experiment, a.variant, a.n_players, a.agent, a.games, a.wins AS total_wins,
           {compared} AS compared, {first} AS first_rate, {agent_rate} AS agent_rate,
           CASE WHEN {compared} THEN {scale} END AS scale,
           CASE WHEN {compared} THEN {difference} END AS difference
    FROM agent_counts AS a JOIN {LINEUPS} AS l USING (experiment, variant, n_players)
    LEFT JOIN (SELECT * FROM seat_counts WHERE seat = 0) AS s USING (experiment, variant, n_players, agent)
    WHERE l.agents > 1
), per_agent AS (
    SELECT experiment, variant, n_players, agent, FALSE AS self_play, games, total_wins,
           NULL::DOUBLE AS chi2, NULL::INTEGER AS df, NULL::DOUBLE AS p_value, NULL::DOUBLE AS first_seat_share,
           CASE WHEN compared THEN first_rate END AS first_seat_win_rate,
           CASE WHEN compared THEN agent_rate END AS agent_win_rate,
           CASE WHEN compared THEN first_rate - agent_rate END AS first_seat_advantage,
           CASE WHEN compared THEN scale * {newcombe_bound('low', 'difference')} END AS first_seat_advantage_low,
           CASE WHEN compared THEN scale * {newcombe_bound('high', 'difference')} END AS first_seat_advantage_high
    FROM agent_rates
)
SELECT experiment, variant, n_players, agent, self_play, games, total_wins, chi2, df::TINYINT AS df, p_value,
       first_seat_share, first_seat_win_rate, agent_win_rate, first_seat_advantage, first_seat_advantage_low,
       first_seat_advantage_high,
       abs(first_seat_advantage) > {FACTION_BAND!r} AS outside_band,
       first_seat_advantage_low > {FACTION_BAND!r} OR first_seat_advantage_high < -{FACTION_BAND!r}
           AS surely_outside
FROM (SELECT * FROM self_play UNION ALL BY NAME SELECT * FROM per_agent)
ORDER BY {ORDER}, self_play DESC, agent
"""


_ADVANTAGE = ("the 95% interval of `first_seat_advantage`: in self-play the Wilson interval of seat 0's win share "
              "(over wins) minus 1/N; per agent, as the advantage is (1 − f)·(r₀ − r₁) with f the agent's share of "
              "its seat-games at seat 0, r₀ its win rate there and r₁ at its other seats: (1 − f) times Newcombe's "
              "interval of r₀ − r₁ from r₀'s Wilson interval (over games) and r₁'s clustered one, joined by their "
              "correlation over the games (seat 0 and another seat of one game rarely both win)")
_NULL_PER_AGENT = " NULL per agent (`self_play` false)."
SEAT_BALANCE_CONTRACT = contract(
    "seat_balance", "One row per variant and player count in self-play (every seat the same agent): do the seats "
    "win equally often? A chi-square test of the seats' wins and the first seat's advantage. Where the lineup "
    "seats different agents, one row per agent instead: its win rate at seat 0 against its own over all its "
    "seats (pooled seats would mix the agents). The tests are NULL in a cooperative experiment and for one "
    "player.", GROUP, AGENT, _SELF_PLAY,
    Column("games", "BIGINT", "Games played (per agent: games in which it held a seat)."),
    Column("total_wins", "BIGINT", "Wins of all seats (draws have none); per agent: the agent's wins."),
    Column("chi2", "DOUBLE", "Pearson's chi-square of the seats' wins against an equal share, total_wins / N "
           "each." + _NULL_PER_AGENT),
    Column("df", "TINYINT", "Degrees of freedom of `chi2`: N − 1." + _NULL_PER_AGENT),
    Column("p_value", "DOUBLE", "P-value of `chi2` (chi-square on `df` degrees of freedom): how likely seats this "
           "uneven are if no seat is favoured." + _NULL_PER_AGENT),
    Column("first_seat_share", "DOUBLE", "Seat 0's share of the wins, a rate in [0, 1]." + _NULL_PER_AGENT),
    Column("first_seat_win_rate", "DOUBLE", "Seat 0's win rate (per agent: the agent's, in the games it held "
           "seat 0), a rate in [0, 1]; NULL per agent when it held seat 0 in no game or in all its seats."),
    Column("agent_win_rate", "DOUBLE", "The agent's win rate over all its seats (in self-play: 1/N less the "
           "draws), a rate in [0, 1]."),
    Column("first_seat_advantage", "DOUBLE", "In self-play seat 0's share of the wins minus 1/N; per agent "
           "`first_seat_win_rate` − `agent_win_rate` (the same where nobody draws). In [−1, 1]; 0.05 = 5 points "
           "above fair."),
    Column("first_seat_advantage_low", "DOUBLE", f"Low end of {_ADVANTAGE}."),
    Column("first_seat_advantage_high", "DOUBLE", f"High end of {_ADVANTAGE}."),
    Column("outside_band", "BOOLEAN", f"|first_seat_advantage| > {FACTION_BAND} (the band of ± 5 points)."),
    Column("surely_outside", "BOOLEAN", "The whole interval of `first_seat_advantage` is outside ± "
           f"{FACTION_BAND}."))

SEAT_TOTALS = f"""
SELECT experiment, variant, n_players, agent, sum(seat_games)::BIGINT AS seat_games, sum(wins)::BIGINT AS seat_wins
FROM agent_counts GROUP BY experiment, variant, n_players, agent
ORDER BY {ORDER}, agent
"""

SEAT_TOTALS_CONTRACT = contract(
    "seat_totals", "One row per agent: the seats it held and won, what `card_stats` compares a card's games "
    "against.", GROUP, AGENT,
    Column("seat_games", "BIGINT", "Seats the agent held, over all games."),
    Column("seat_wins", "BIGINT", "Of those, the seat-games the agent won."))
