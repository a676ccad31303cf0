"""Intervals of rates pooled over seat-games are clustered by game: checked
against a bootstrap that resamples whole games, against the per-game binomial
in a cooperative game, and against the plain Wilson interval when each game
holds one seat-game. Also the play rate when playable, from a hand-made
``playable`` counter, and its absence when a game has none."""

from __future__ import annotations

import math

import duckdb
import numpy as np
import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.stats import (
    Z95,
    clustered_effective_n,
    clustered_interval,
    no_spread_interval,
    shows_no_spread,
    wilson_interval,
)
from tests.analytics.synthetic import competitive, cooperative
from tests.conftest import SmallExperiment


def _bootstrap_sd(per_game: pl.DataFrame, draws: int, seed: int) -> float:
    """Standard deviation of Σw/Σn over ``draws`` resamples of the games (with replacement)."""
    n, w = per_game["n"].to_numpy(), per_game["w"].to_numpy()
    generator = np.random.default_rng(seed)
    picks = generator.integers(len(n), size=(draws, len(n)))
    rates = w[picks].sum(axis=1) / n[picks].sum(axis=1)
    return float(rates.std())


NEVER_PLAYED = "UPDATE cards SET played = 0, first_played_turn = NULL WHERE card = '{card}'"
"""An edit of the synthetic rows: nobody plays ``card``."""


def _card_stats_after(*edits: str, where: str = "variant = 'baseline'") -> pl.DataFrame:
    """``card_stats`` of a synthetic competitive experiment (300 games) whose card rows were
    edited by ``edits`` (SQL) and counted again."""
    from analytics.views import register_metric_views
    from dataset.count_views import Columns, count_view_sql

    con = competitive(1, 300).con
    for edit in edits:
        con.execute(edit)
    for name, query in count_view_sql(Columns.of(con)).items():
        con.execute(f"CREATE OR REPLACE TABLE {name} AS {query}")
    register_metric_views(con, counts=False, materialize=True)
    return con.sql(f"SELECT * FROM card_stats WHERE {where}").pl()


def _interval_sd(low: float, high: float) -> float:
    return (high - low) / (2 * Z95)


def test_the_clustered_interval_of_an_agent_at_two_seats_matches_a_bootstrap_by_game() -> None:
    data = competitive(1, 4000)
    per_game = data.con.sql("""
        SELECT game_index, count(*) AS n, count(*) FILTER (WHERE won) AS w FROM players
        WHERE variant = 'baseline' AND agent = 'strong' GROUP BY game_index""").pl()
    row = data.con.sql("SELECT * FROM agent_stats WHERE variant = 'baseline' AND agent = 'strong'").pl().row(
        0, named=True)
    bootstrap = _bootstrap_sd(per_game, 2000, seed=5)
    assert _interval_sd(row["win_rate_low"], row["win_rate_high"]) == pytest.approx(bootstrap, rel=0.08)
    # Two seats of one game cannot both win: the seat-games are negatively linked and the
    # effective sample is larger than the 8,000 seat-games; the plain Wilson interval is too wide.
    assert row["seat_games"] == 8000 and row["win_rate_effective_n"] > 9000
    low, high = wilson_interval(row["wins"], row["seat_games"])
    assert _interval_sd(low, high) > 1.1 * bootstrap


def test_the_clustered_interval_of_a_card_in_several_hands_matches_a_bootstrap_by_game() -> None:
    data = cooperative(1, 4000)
    per_game = data.con.sql("""
        SELECT c.game_index, count(*) AS n, count(*) FILTER (WHERE c.won) AS w
        FROM cards AS c JOIN players AS p USING (experiment, variant, n_players, game_index, seat)
        WHERE c.variant = 'baseline' AND p.agent = 'heuristic' AND c.card = 'card_0' GROUP BY c.game_index""").pl()
    row = data.con.sql("SELECT * FROM card_stats WHERE variant = 'baseline' AND agent = 'heuristic' "
                       "AND card = 'card_0'").pl().row(0, named=True)
    bootstrap = _bootstrap_sd(per_game, 2000, seed=6)
    assert _interval_sd(row["gih_win_rate_low"], row["gih_win_rate_high"]) == pytest.approx(bootstrap, rel=0.08)
    # Heroes of one party share the outcome: fewer effective trials than seat-games.
    assert row["gih_win_rate_effective_n"] < row["games_in_hand"]


def test_a_cooperative_agent_rate_has_the_width_of_the_per_game_binomial_not_the_per_seat_one() -> None:
    # Two of the three heroes are played by the heuristic: 2 seat-games per game, one outcome.
    data = cooperative(1, 1000)
    row = data.con.sql("SELECT * FROM agent_stats WHERE variant = 'baseline' AND agent = 'heuristic'").pl().row(
        0, named=True)
    team = data.con.sql("SELECT * FROM party_size_stats WHERE variant = 'baseline'").pl().row(0, named=True)
    assert (row["seat_games"], row["games"], team["games"]) == (2000, 1000, 1000)
    assert row["win_rate_effective_n"] == pytest.approx(1000, abs=1e-6)
    per_game = wilson_interval(team["wins"], team["games"])
    per_seat = wilson_interval(row["wins"], row["seat_games"])
    assert (row["win_rate_low"], row["win_rate_high"]) == pytest.approx(per_game, abs=1e-9)
    assert per_seat[1] - per_seat[0] < 0.75 * (per_game[1] - per_game[0])  # what counting seats would claim


def test_one_seat_game_per_game_gives_the_plain_wilson_interval() -> None:
    # n = 50 seat-games in 50 games, 20 won: n² = n, w² = w, n·w = w.
    assert clustered_effective_n(50, 20, 50, 20, 20, 50) == pytest.approx(50, rel=1e-12)
    assert clustered_interval(50, 20, 50, 20, 20, 50) == pytest.approx(wilson_interval(20, 50), abs=1e-12)
    assert clustered_interval(50, 20, 50, 20, 20, 50, hits=20) == pytest.approx(wilson_interval(20, 50), abs=1e-12)
    # Ten games of five linked seat-games, one shared outcome each (4 won): the ten games count.
    assert clustered_effective_n(50, 20, 10 * 25, 4 * 25, 4 * 25, 10) == pytest.approx(10, rel=1e-12)
    assert clustered_interval(50, 20, 10 * 25, 4 * 25, 4 * 25, 10, hits=4) == pytest.approx(
        wilson_interval(4, 10), abs=1e-12)
    # No win or every game won: the variance says nothing; the number of games is used.
    assert clustered_effective_n(50, 0, 250, 0, 0, 10) == 10
    # At two seats of every game, winning half of them: a sampled rate (1.5 n effective), with a width.
    assert clustered_effective_n(200, 50, 400, 50, 100, 100) == pytest.approx(300, rel=1e-12)
    assert not shows_no_spread(300, 200)
    low, high = clustered_interval(200, 50, 400, 50, 100, 100)
    assert low < 0.25 < high


def test_a_rate_every_game_of_a_sample_gave_alike_keeps_the_width_of_the_games_it_had() -> None:
    # An agent holding all four seats of 100 games without a draw or a tie wins 1/4 of its
    # seat-games in this sample. That does not prove every game has exactly one winner (a
    # Theseus tie gives two): a share of the games up to u = z²/(100 + z²), the Wilson upper
    # bound of 0 events in 100 games, may give another share, from 0 to 1.
    u = wilson_interval(0, 100)[1]
    sums = (400, 100, 100 * 16, 100, 400, 100)
    assert clustered_effective_n(*sums) == 100 * 400 and shows_no_spread(100 * 400, 400)
    assert no_spread_interval(0.25, 100) == pytest.approx((0.25 - u * 0.25, 0.25 + u * 0.75), abs=1e-15)
    assert clustered_interval(*sums) == pytest.approx(no_spread_interval(0.25, 100), abs=1e-12)
    # Knowing the games won (hits), the games-won and extra-wins decomposition gives the same.
    assert clustered_interval(*sums, hits=100) == pytest.approx(no_spread_interval(0.25, 100), abs=1e-12)
    low, high = clustered_interval(*sums, hits=100)
    assert low < 0.25 < 0.2502 < high  # a true rate of 1/4 plus rare ties is inside
    # At three of the four seats in one game of the hundred: still (nearly) no spread, still a width.
    low, high = clustered_interval(399, 100, 99 * 16 + 9, 100, 99 * 4 + 3, 100)
    assert high - low > 0.9 * (no_spread_interval(0.25, 100)[1] - no_spread_interval(0.25, 100)[0])


def test_a_dominant_agent_at_two_seats_gets_the_asymmetric_interval_of_its_rare_lost_games() -> None:
    # The heuristic at two of four seats wins 1,960 of 2,000 games (one seat each): 49% of its
    # seat-games. Its uncertainty is that of its 40 lost games, a rare count: the interval is
    # Wilson's of 1,960 of 2,000 games, halved, wider below than above (not 49% ± a binomial's
    # spread around 50%, and not the symmetric interval of the effective n, 68 times n). Above,
    # the games won at both seats (ties) that 2,000 games without one cannot rule out.
    games, won = 2000, 1960
    sums = (2 * games, won, 4 * games, won, 2 * won, games)
    low, high = clustered_interval(*sums, hits=won)
    games_low, games_high = wilson_interval(won, games)
    ties_high = wilson_interval(0, games)[1]
    assert (low, high) == pytest.approx(
        (games_low / 2, (won / games + math.hypot(games_high - won / games, ties_high)) / 2), abs=1e-12)
    assert won / (2 * games) - low > 1.2 * (high - won / (2 * games))
    effective = clustered_effective_n(*sums)
    symmetric = wilson_interval(won / (2 * games) * effective, effective)
    assert symmetric[0] > low  # what the effective n alone gave: too narrow below


def test_the_sql_macro_gives_the_python_effective_sample_size() -> None:
    con = duckdb.connect()
    from analytics.stats import register_sql_macros

    register_sql_macros(con)
    cases = [(50, 20, 50, 20, 20, 50), (50, 20, 250, 100, 100, 10), (8000, 2500, 16000, 2500, 5000, 4000),
             (30, 12, 90, 144, 108, 10), (10, 0, 10, 0, 0, 7), (0, 0, 0, 0, 0, 0), (400, 100, 1600, 100, 400, 100)]
    for case in cases:
        (value,) = con.execute(f"SELECT clustered_n{case}").fetchall()[0]
        assert value == pytest.approx(clustered_effective_n(*case), rel=1e-12), case


def test_the_sql_interval_macros_give_the_python_clustered_interval() -> None:
    con = duckdb.connect()
    from analytics.stats import register_sql_macros

    register_sql_macros(con)
    cases = [(50, 20, 50, 20, 20, 50, 20), (50, 20, 250, 100, 100, 10, 4), (30, 12, 90, 144, 108, 10, None),
             (10, 0, 10, 0, 0, 7, 0), (400, 100, 1600, 100, 400, 100, 100),
             (399, 100, 99 * 16 + 9, 100, 99 * 4 + 3, 100, 100), (200, 50, 400, 50, 100, 100, None),
             (4000, 1960, 8000, 1960, 3920, 2000, 1960), (300, 101, 900, 103, 303, 100, 100), (0, 0, 0, 0, 0, 0, 0)]
    for n, w, n_sq, w_sq, nw, clusters, hits in cases:
        sums = [n, w, n_sq, w_sq, nw, clusters]
        low, high = con.execute("SELECT clustered_low(?, ?, ?, ?, ?, ?, ?), clustered_high(?, ?, ?, ?, ?, ?, ?)",
                                [*sums, hits, *sums, hits]).fetchall()[0]
        assert (low, high) == pytest.approx(clustered_interval(n, w, n_sq, w_sq, nw, clusters, hits=hits),
                                            abs=1e-12), sums
    assert con.execute("SELECT no_spread_low(0.25, 100), no_spread_high(0.25, 100)").fetchall()[0] == pytest.approx(
        no_spread_interval(0.25, 100), abs=1e-15)
    cases_capped = [(40000.0, 400), (39999.0, 400), (300.0, 200), (0.0, 0)]
    assert [con.execute(f"SELECT shows_no_spread({e}, {n})").fetchall()[0][0] for e, n in cases_capped] == [
        shows_no_spread(e, n) for e, n in cases_capped] == [True, False, False, False]


CLUSTER_CASES = [(50, 20, 50, 20, 20, 50, 20), (50, 20, 250, 100, 100, 10, 4), (30, 12, 90, 144, 108, 10, None),
                 (10, 0, 10, 0, 0, 7, 0), (399, 100, 99 * 16 + 9, 100, 99 * 4 + 3, 100, 100),
                 (4000, 1960, 8000, 1960, 3920, 2000, 1960), (0, 0, 0, 0, 0, 0, 0)]
"""Sums of a rate (n, w, n_sq, w_sq, nw, clusters, hits): every branch of the clustered interval."""


def test_the_intervals_of_several_rates_computed_together_are_those_of_each_rate_alone() -> None:
    con = duckdb.connect()
    from analytics.stats import register_sql_macros
    from analytics.views.shared import clustered_intervals, clustered_rate, clustered_rate_of

    register_sql_macros(con)
    # One row holding every case as a rate of its own (prefix r<i>), the counts of half of them
    # HUGEINT (as sum() makes them) so that the list of rates mixes integer types.
    names = ("n", "w", "n_sq", "w_sq", "nw", "clusters", "hits")
    columns = [f"{value if value is not None else 'NULL'}::{'HUGEINT' if i % 2 else 'BIGINT'} AS r{i}_{name}"
               for i, case in enumerate(CLUSTER_CASES) for name, value in zip(names, case, strict=True)]
    con.execute(f"CREATE TABLE t AS SELECT {', '.join(columns)}")
    rates = [(f"r{i}_w", f"r{i}_n", f"r{i}") for i in range(len(CLUSTER_CASES))]
    alone = con.execute("SELECT " + ", ".join(clustered_rate(w, n, prefix, f"rate{i}")
                                              for i, (w, n, prefix) in enumerate(rates)) + " FROM t").fetchall()
    together = con.execute(
        "SELECT " + ", ".join(clustered_rate_of(w, n, f"rate{i}", "intervals", i + 1)
                              for i, (w, n, _) in enumerate(rates))
        + f" FROM (SELECT *, {clustered_intervals(rates, 'intervals')} FROM t)").fetchall()
    assert len(alone[0]) == 4 * len(CLUSTER_CASES)
    assert together == alone  # exactly: the same macros on the same numbers


def test_play_rate_when_playable_counts_seat_games_with_the_card_playable() -> None:
    # Synthetic cards: held, then playable with probability playable[k], then played with
    # played_if_playable[k]. The play rate when playable is played / playable seat-games.
    data = competitive(1, 2000)
    counts = data.con.sql("""
        SELECT p.agent, c.card, count(*) FILTER (WHERE c.playable > 0) AS playable,
               count(*) FILTER (WHERE c.played > 0) AS played
        FROM cards AS c JOIN players AS p USING (experiment, variant, n_players, game_index, seat)
        WHERE c.variant = 'baseline' GROUP BY ALL ORDER BY ALL""").pl()
    stats = data.con.sql("SELECT agent, card, games_playable, games_played_when_playable, playable_play_rate, "
                         "play_rate, never_played FROM card_stats WHERE variant = 'baseline' "
                         "ORDER BY agent, card").pl()
    assert stats["games_playable"].to_list() == counts["playable"].to_list()
    assert stats["games_played_when_playable"].to_list() == counts["played"].to_list()
    expected = (counts["played"] / counts["playable"]).to_list()
    assert stats["playable_play_rate"].to_list() == pytest.approx(expected, abs=1e-12)
    assert not stats["never_played"].any()
    # The play rate counts the games in hand, the play rate when playable only those the card could be played in.
    assert (stats["playable_play_rate"] >= stats["play_rate"]).all()


def test_a_card_playable_but_never_played_is_flagged_as_describing_the_agent() -> None:
    frame = _card_stats_after(NEVER_PLAYED.format(card="card_3"))
    flagged = frame.filter(pl.col("never_played"))
    assert set(flagged["card"]) == {"card_3"} and (flagged["games_playable"] > 0).all()
    assert flagged["playable_play_rate"].to_list() == [0.0, 0.0]


def test_a_card_never_playable_is_not_flagged_never_played_where_the_game_records_playable() -> None:
    # Ring of Chaos' temple_guardian is an event the rules resolve: held in ~1,500 seat-games,
    # playable 0 (never an option), played 0. It says nothing about the agent, so it is no
    # "never played" card; card_4, playable but never played, still is.
    stats = _card_stats_after("UPDATE cards SET playable = 0 WHERE card = 'card_3'", NEVER_PLAYED.format(card="card_3"),
                              NEVER_PLAYED.format(card="card_4"))
    event = stats.filter(pl.col("card") == "card_3")
    assert (event["games_in_hand"] > 100).all() and (event["games_playable"] == 0).all()
    assert (event["games_played"] == 0).all() and not event["never_played"].any()
    assert set(stats.filter(pl.col("never_played"))["card"]) == {"card_4"}


def test_a_card_one_agent_never_makes_playable_is_flagged_for_it_when_another_agent_plays_it() -> None:
    # A Theseus card the heuristic never brings into its Party: never playable for that agent,
    # but playable (and played) by the other agent. Not an event: the flag says what the agent
    # does with the card, so it stays for the agent that never played it.
    stats = _card_stats_after("""
        UPDATE cards AS c SET playable = 0, played = 0, first_played_turn = NULL
        WHERE card = 'card_4' AND EXISTS (
            SELECT 1 FROM players AS p WHERE p.variant = c.variant AND p.n_players = c.n_players
                AND p.game_index = c.game_index AND p.seat = c.seat AND p.agent = 'weak')""",
        where="variant = 'baseline' AND card = 'card_4'")
    weak, strong = (stats.filter(pl.col("agent") == agent).row(0, named=True) for agent in ("weak", "strong"))
    assert (weak["games_playable"], weak["games_played"]) == (0, 0) and weak["games_in_hand"] > 100
    assert weak["never_played"]
    assert strong["games_played"] > 0 and not strong["never_played"]


def test_without_a_playable_counter_the_play_rate_when_playable_is_empty() -> None:
    # Results written before the games recorded ``playable`` (every game records it now).
    stats = _card_stats_after("ALTER TABLE cards DROP COLUMN playable", NEVER_PLAYED.format(card="card_3"),
                              where="TRUE")
    assert (stats["games_playable"] == 0).all() and stats["playable_play_rate"].is_null().all()
    # Never played then means: in hand, never played.
    never = stats.filter(pl.col("never_played"))
    assert set(never["card"]) == {"card_3"}
    assert (never["games_played"] == 0).all() and (never["games_in_hand"] > 0).all()
    assert math.isfinite(stats["gih_win_rate"].sum())


def test_a_real_game_s_playable_counter_gives_the_play_rate_when_playable(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        stats = con.sql("SELECT * FROM card_stats").pl()
        counts = con.sql("""
            SELECT c.variant, c.n_players, p.agent, c.card, count(*) FILTER (WHERE c.playable > 0) AS playable,
                   count(*) FILTER (WHERE c.playable > 0 AND c.played > 0) AS played
            FROM cards AS c JOIN players AS p USING (experiment, variant, n_players, game_index, seat)
            GROUP BY ALL""").pl()
    finally:
        con.close()
    joined = stats.join(counts, on=["variant", "n_players", "agent", "card"])
    assert joined.height == stats.height and (joined["games_playable"] > 0).any()
    assert joined["games_playable"].to_list() == joined["playable"].to_list()
    assert joined["games_played_when_playable"].to_list() == joined["played"].to_list()
    rated = joined.filter(pl.col("games_playable") > 0)
    assert rated["playable_play_rate"].to_list() == pytest.approx((rated["played"] / rated["playable"]).to_list())
