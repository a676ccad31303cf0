"""The game-design views (``analytics.views.design``) on games whose answers are known:
scripted standings summaries for decisiveness and the lead, deals whose outcome the deal
decides (or does not) for seed influence, agents of known strength for skill depth."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from analytics.stats import mean_variance, register_sql_macros
from analytics.views import register_metric_views


@dataclass
class ScriptedGame:
    """One game's row of ``games`` (its standings summaries) and its seats' agents."""

    winners: list[int]
    margin: int | None = None
    lead_changes: int | None = None
    winner_deficit: int | None = None
    leader_first_third: int | None = None
    leader_second_third: int | None = None
    seed: int = 0
    agents: tuple[str, ...] = ("a", "a")
    variant: str = "baseline"
    end_reason: str = "finished"
    extra: dict[str, Any] = field(default_factory=dict)


def _connect(games: list[ScriptedGame]) -> duckdb.DuckDBPyConnection:
    """``games``, ``players`` and (empty) ``cards`` tables of experiment ``x`` as cardlab writes
    them, with the count and metric views over them."""
    n_players = len(games[0].agents)
    indexes: dict[str, int] = {}
    game_rows, player_rows = [], []
    for game in games:
        index = indexes.get(game.variant, 0)
        indexes[game.variant] = index + 1
        game_rows.append({
            "experiment": "x", "variant": game.variant, "n_players": n_players, "game_index": index,
            "seed": game.seed, "winners": game.winners, "draw": not game.winners, "end_reason": game.end_reason,
            "turns": 10, "decisions": 20, "margin": game.margin, "lead_changes": game.lead_changes,
            "winner_deficit": game.winner_deficit, "leader_first_third": game.leader_first_third,
            "leader_second_third": game.leader_second_third})
        player_rows += [{"experiment": "x", "variant": game.variant, "n_players": n_players, "game_index": index,
                         "seat": seat, "agent": agent, "faction": None, "won": seat in game.winners}
                        for seat, agent in enumerate(game.agents)]
    schema = {"n_players": pa.int8(), "game_index": pa.int32(), "seed": pa.int64(), "winners": pa.list_(pa.int8()),
              "turns": pa.int32(), "decisions": pa.int32(), "margin": pa.int32(), "lead_changes": pa.int16(),
              "winner_deficit": pa.int32(), "leader_first_third": pa.int8(), "leader_second_third": pa.int8(),
              "seat": pa.int8(), "faction": pa.string()}

    def table(rows: list[dict[str, Any]]) -> pa.Table:
        columns = {name: [row[name] for row in rows] for name in rows[0]}
        return pa.table({name: pa.array(values, type=schema.get(name)) for name, values in columns.items()})

    con = duckdb.connect(":memory:")
    register_sql_macros(con)
    games_table, players_table = table(game_rows), table(player_rows)
    cards_table = pa.table({"experiment": pa.array([], pa.string()), "variant": pa.array([], pa.string()),
                            "n_players": pa.array([], pa.int8()), "game_index": pa.array([], pa.int32()),
                            "seat": pa.array([], pa.int8()), "card": pa.array([], pa.string()),
                            "won": pa.array([], pa.bool_())})
    for name, arrow in (("games", games_table), ("players", players_table), ("cards", cards_table)):
        con.register(f"_{name}", arrow)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM _{name}")
    register_metric_views(con)
    return con


def _row(con: duckdb.DuckDBPyConnection, view: str, where: str = "TRUE") -> dict[str, Any]:
    frame = con.sql(f"SELECT * FROM {view} WHERE {where}").pl()
    assert frame.height == 1, frame
    return frame.to_dicts()[0]


# ------------------------------------------------------------------ decisiveness and the lead

SCRIPTED = [
    # won by 3 after leading throughout
    ScriptedGame([0], margin=3, lead_changes=0, winner_deficit=0, leader_first_third=0, leader_second_third=0),
    # seat 1 came back from 4 behind to win by 5: the lead changed twice
    ScriptedGame([1], margin=5, lead_changes=2, winner_deficit=4, leader_first_third=0, leader_second_third=1),
    # won by 5, behind by 1 once; nobody led alone at the first third
    ScriptedGame([0], margin=5, lead_changes=1, winner_deficit=1, leader_first_third=None, leader_second_third=0),
    # won by 11, the second third's leader lost
    ScriptedGame([1], margin=11, lead_changes=1, winner_deficit=2, leader_first_third=1, leader_second_third=0),
    # a draw: no margin, no deficit
    ScriptedGame([], lead_changes=3, leader_first_third=1, leader_second_third=None),
]


@pytest.fixture(scope="module")
def scripted() -> duckdb.DuckDBPyConnection:
    return _connect(SCRIPTED)


def test_decisiveness_gives_the_draw_rate_and_the_margins_mean_spread_and_quantiles(
        scripted: duckdb.DuckDBPyConnection) -> None:
    row = _row(scripted, "decisiveness")
    margins = np.array([3, 5, 5, 11])
    assert (row["games"], row["draws"], row["draw_rate"], row["margin_games"]) == (5, 1, 0.2, 4)
    assert row["mean_margin"] == pytest.approx(6.0)
    assert row["sd_margin"] == pytest.approx(float(np.std(margins, ddof=1)))
    half_width = 1.959964 * float(np.std(margins, ddof=1)) / 2
    assert (row["mean_margin_low"], row["mean_margin_high"]) == pytest.approx((6 - half_width, 6 + half_width),
                                                                               rel=1e-5)
    assert [row["p10_margin"], row["p50_margin"], row["p90_margin"]] == pytest.approx(
        list(np.quantile(margins, [0.1, 0.5, 0.9])))
    assert row["level_finishes"] == 0


def test_the_margin_distribution_shares_the_decided_games(scripted: duckdb.DuckDBPyConnection) -> None:
    rows = scripted.execute("SELECT margin, games, share FROM margin_distribution ORDER BY margin").fetchall()
    assert rows == [(3, 1, 0.25), (5, 2, 0.5), (11, 1, 0.25)]


def test_lead_stats_count_lead_changes_comebacks_and_how_often_each_thirds_leader_wins(
        scripted: duckdb.DuckDBPyConnection) -> None:
    row = _row(scripted, "lead_stats")
    assert row["games"] == 5
    assert row["mean_lead_changes"] == pytest.approx(7 / 5)
    assert (row["games_with_lead_change"], row["lead_change_rate"]) == (4, 0.8)
    # Three of the four sole winners trailed at some point; their deficits 0, 4, 1, 2.
    assert (row["won_games"], row["comebacks"], row["comeback_rate"]) == (4, 3, 0.75)
    assert (row["mean_winner_deficit"], row["max_winner_deficit"]) == (pytest.approx(7 / 4), 4)
    # First third: sole leaders in four games (0, 0, 1, 1), who won games 1 and 4 (not 2, not the draw).
    assert (row["first_third_led"], row["first_third_leader_wins"]) == (4, 2)
    assert row["first_third_leader_win_rate"] == 0.5
    # Second third: leaders 0, 1, 0, 0 in games 1-4, who won games 1, 2 and 3.
    assert (row["second_third_led"], row["second_third_leader_wins"]) == (4, 3)
    assert row["first_third_leader_win_rate_low"] < 0.5 < row["first_third_leader_win_rate_high"]


def test_a_game_won_from_level_standings_counts_as_a_level_finish() -> None:
    con = _connect([ScriptedGame([0], margin=0, lead_changes=0, winner_deficit=0, end_reason="tiebreak"),
                    ScriptedGame([1], margin=-3, lead_changes=1, winner_deficit=3, end_reason="eliminated"),
                    ScriptedGame([0], margin=2, lead_changes=0, winner_deficit=0)])
    row = _row(con, "decisiveness")
    assert (row["level_finishes"], row["mean_margin"]) == (2, pytest.approx(-1 / 3))
    assert row["mean_margin_low"] < -1 / 3  # not clamped at 0: a mean margin can be negative


def test_games_won_by_the_same_margin_still_get_an_interval_of_the_floors_width() -> None:
    con = _connect([ScriptedGame([0], margin=2), ScriptedGame([1], margin=2), ScriptedGame([0], margin=2)])
    row = _row(con, "decisiveness")
    half_width = 1.959964 * math.sqrt(mean_variance(0.0, 3) / 3)
    assert (row["mean_margin"], row["sd_margin"]) == (2.0, 0.0)
    assert half_width > 0
    assert (row["mean_margin_low"], row["mean_margin_high"]) == pytest.approx((2 - half_width, 2 + half_width),
                                                                               rel=1e-5)


def test_games_without_standings_have_no_margin_and_no_lead_row() -> None:
    con = _connect([ScriptedGame([0, 1]), ScriptedGame([])])  # cooperative-like: no standings recorded
    row = _row(con, "decisiveness")
    assert (row["games"], row["draws"], row["margin_games"], row["mean_margin"], row["p50_margin"]) == \
        (2, 1, 0, None, None)
    assert con.execute("SELECT count(*) FROM lead_stats").fetchone() == (0,)


# ------------------------------------------------------------------ seed influence

def _deals(win_chance_of_seat_0: np.ndarray, replays: int, seed: int) -> list[ScriptedGame]:
    """Two-seat games: deal d played ``replays`` times, seat 0 winning each with probability
    ``win_chance_of_seat_0[d]`` (seat 1 otherwise), the replays drawn independently."""
    rng = np.random.default_rng(seed)
    return [ScriptedGame([0] if rng.random() < chance else [1], seed=1000 + deal)
            for deal, chance in enumerate(win_chance_of_seat_0) for _ in range(replays)]


def test_seed_influence_is_1_when_the_deal_alone_decides_who_wins() -> None:
    rng = np.random.default_rng(3)
    con = _connect(_deals(rng.integers(0, 2, 300).astype(float), replays=4, seed=4))
    row = _row(con, "seed_influence")
    assert (row["deals"], row["replays"], row["games"]) == (300, 4, 1200)
    assert (row["icc"], row["deal_share"], row["ms_within"]) == (pytest.approx(1.0), pytest.approx(1.0), 0.0)
    assert row["same_winner_deals"] == 300


def test_seed_influence_is_near_0_when_every_deal_is_a_coin_flip_for_the_agents() -> None:
    con = _connect(_deals(np.full(500, 0.5), replays=4, seed=5))
    row = _row(con, "seed_influence")
    assert row["deal_share_low"] == 0.0
    assert row["deal_share"] < 0.05 and row["deal_share_high"] < 0.12
    # Same winner in all four replays of a fair coin: 2 × (1/2)^4 = 1/8 of the deals.
    assert row["same_winner_rate_low"] < 1 / 8 < row["same_winner_rate_high"]


def test_seed_influence_recovers_the_deals_known_share_of_the_variance_within_its_interval() -> None:
    # Half the deals give seat 0 a 90% chance, half 10%: between deals the chance varies by
    # 0.4² = 0.16, of an outcome variance of 0.5·0.5 = 0.25, so the deal explains 0.64 of it.
    chances = np.tile([0.9, 0.1], 1000)
    con = _connect(_deals(chances, replays=5, seed=6))
    row = _row(con, "seed_influence")
    assert row["deal_share_low"] < 0.64 < row["deal_share_high"]
    assert row["deal_share_high"] - row["deal_share_low"] < 0.1


def test_seed_influence_leaves_out_experiments_without_replays_and_deals_cut_short() -> None:
    no_replays = _connect([ScriptedGame([0], seed=seed) for seed in range(10)])
    assert no_replays.execute("SELECT count(*) FROM seed_influence").fetchone() == (0,)
    games = _deals(np.tile([1.0, 0.0], 20), replays=3, seed=7)[:-1]  # the last deal played twice of three
    row = _row(_connect(games), "seed_influence")
    assert (row["deals"], row["replays"]) == (39, 3)


def test_seed_influence_counts_a_seats_agent_strength_as_the_agents_not_the_deals() -> None:
    # The strong agent wins every game, and sits at seat 0 of the even deals and seat 1 of the odd
    # ones (seats rotated by deal): who wins follows the seating, not the cards.
    games = [ScriptedGame([deal % 2], seed=deal, agents=("strong", "weak") if deal % 2 == 0 else ("weak", "strong"))
             for deal in range(100) for _ in range(3)]
    row = _row(_connect(games), "seed_influence")
    assert row["icc"] is None  # no seat's outcome varies once its agent is known: nothing to share out


# ------------------------------------------------------------------ skill depth

def test_skill_depth_gives_each_agents_win_rate_against_random_and_marks_the_strongest() -> None:
    rng = np.random.default_rng(8)
    games = []
    for agent, chance in (("greedy", 0.8), ("careful", 0.6)):
        for index in range(400):
            agents = (agent, "random") if index % 2 == 0 else ("random", agent)
            won = rng.random() < chance
            games.append(ScriptedGame([agents.index(agent) if won else agents.index("random")], agents=agents,
                                      variant=agent, seed=index))
        games.append(ScriptedGame([0], agents=(agent, agent), variant=agent, seed=999))  # no random: not counted
    con = _connect(games)
    rows = {row["variant"]: row for row in con.sql("SELECT * FROM skill_depth").pl().to_dicts()}
    assert rows.keys() == {"greedy", "careful"}
    for variant, chance in (("greedy", 0.8), ("careful", 0.6)):
        row = rows[variant]
        assert (row["games"], row["seat_games"], row["even_rate"]) == (400, 400, 0.5)
        assert row["win_rate_low"] < chance < row["win_rate_high"]
        assert row["edge"] == pytest.approx(row["win_rate"] - 0.5)


def test_skill_depth_marks_the_strongest_agent_of_a_table_of_several() -> None:
    games = [ScriptedGame([0] if index % 4 else [2], agents=("osla", "heuristic", "random"), seed=index)
             for index in range(40)]
    rows = _connect(games).execute("SELECT agent, wins, win_rate, strongest FROM skill_depth").fetchall()
    assert rows == [("osla", 30, 0.75, True), ("heuristic", 0, 0.0, False)]
