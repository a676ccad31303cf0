"""The balance metrics (analytics.views / analytics.metrics) on hand-made datasets
whose answers are worked out in the comments, and on the small real experiment
against independent computations."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog, open_results_catalog
from analytics.catalog_file import write_catalog_file, write_results_catalog
from analytics.folders import AnalyticsError
from analytics.metrics import (
    agent_stats,
    card_stats,
    class_effects,
    composition_stats,
    faction_spread,
    faction_stats,
    game_stats,
    matchups,
    metric,
    party_size_stats,
    seat_balance,
    seat_stats,
    target_widths,
    targets_met,
    variant_deltas,
)
from analytics.partials import CACHE_FOLDER
from analytics.stats import (
    Z95,
    benjamini_hochberg,
    beta_binomial_prior,
    chi_square_uniform,
    clustered_effective_n,
    clustered_interval,
    mcnemar,
    newcombe_difference,
    paired_correlation,
    two_proportion_ztest,
    wilson_interval,
)
from analytics.views import METRIC_VIEWS
from analytics.views.cards import card_stats_sql
from dataset.count_views import CACHE_VERSION, CARD_RATES
from dataset.schemas import schemas
from dataset.storage import (
    MANIFEST_FOLDER,
    SPEC_FILE,
    manifest_path,
    table_path,
    write_json_atomically,
    write_parquet_atomically,
)
from simcore.registry import get_game
from tests.analytics.test_metrics import write_handmade

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment


def _close(actual: float | None, expected: float | None) -> bool:
    if actual is None or expected is None:
        return actual is expected
    return abs(actual - expected) < 1e-12


def write_games(folder: Path, name: str, games: list[dict[str, Any]], seats: dict[tuple[str, int], list[Any]],
                paired: bool = False) -> None:
    """An experiment of Divvy-schema files from plain rows.

    ``games``: variant, game_index, n_players, winners (list), seed, draw (optional;
    by default a game without winners is a draw, as a competitive game's would be) and
    turns (optional, 5 by default).
    ``seats``: (variant, game_index) -> one (faction, won) per seat. No cards
    rows but one placeholder card per game, so the cards table is not empty.
    """
    table_schemas = schemas(get_game("divvy").info)
    variants = sorted({row["variant"] for row in games}, key=lambda v: (v != "baseline", v))
    for variant in variants:
        shard = f"{variant}-x-0000000000"
        rows = [row for row in games if row["variant"] == variant]
        key = {"experiment": name, "variant": variant, "game": "divvy"}
        game_rows = [
            {**key, "game_index": row["game_index"], "n_players": row["n_players"],
             "seed": row.get("seed", 1000 * variants.index(variant) + row["game_index"]),
             "winner": row["winners"][0] if len(row["winners"]) == 1 else None, "winners": row["winners"],
             "draw": row.get("draw", not row["winners"]), "end_reason": row.get("end_reason", "rounds_complete"),
             "turns": row.get("turns", 5), "decisions": 10, "rounds_played": 5, "unclaimed_coins": 0,
             "deck_reshuffled": False}
            for row in rows]
        player_rows = [
            {**key, "game_index": row["game_index"], "n_players": row["n_players"], "seat": seat,
             "agent": "random", "faction": faction, "won": won, "score": int(won), "rank": 1 if won else 2}
            for row in rows for seat, (faction, won) in enumerate(seats[(variant, row["game_index"])])]
        card_rows = [
            {**key, "game_index": row["game_index"], "n_players": row["n_players"], "seat": 0, "card": "c",
             "copies": 1, "in_opening_hand": 1, "drawn": 1, "played": 0, "won_as_treasure": 0, "playable": 0,
             "first_played_turn": None, "won": 0 in row["winners"]}
            for row in rows]
        for table, data in (("games", game_rows), ("players", player_rows), ("cards", card_rows)):
            write_parquet_atomically(pa.Table.from_pylist(data, schema=table_schemas[table]),
                                     table_path(folder, table, variant, shard))
        write_json_atomically({"shard": shard, "variant": variant}, manifest_path(folder, shard))
    write_json_atomically({"name": name, "game": "divvy", "games": len(games), "player_counts": [3],
                           "agents": ["random"], "variants": {v: {} for v in variants}, "paired_seeds": paired},
                          folder / SPEC_FILE)


@pytest.fixture
def handmade(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    folder = tmp_path / "handmade"
    write_handmade(folder)
    con = open_catalog(folder)
    yield con
    con.close()


# ---------------------------------------------------------------- cards (17lands family)
#
# The hand-made Divvy data of test_metrics (baseline: 3 games, 2 seats; agent
# A holds seat 0 of games 0 and 2 and seat 1 of game 1, and wins all three;
# B loses all three; in_opening_hand = min(drawn, 1), first played on turn 1):
#   x: (game 0, seat 0, A) drawn 2, played 1, won; (0, 1, B) drawn 1, lost;
#      (1, 1, A) drawn 1, played 2, won; (2, 1, B) only won as treasure, lost.
#   y: (1, 0, B) drawn 1, played 1, lost; (2, 0, A) drawn 3, won.


def test_card_stats_give_the_17lands_numbers_worked_out_by_hand_per_agent(
        handmade: duckdb.DuckDBPyConnection) -> None:
    frame = card_stats(handmade).filter(pl.col("variant") == "baseline")
    rows = {(row["agent"], row["card"]): row for row in frame.iter_rows(named=True)}
    assert set(rows) == {("A", "x"), ("A", "y"), ("B", "x"), ("B", "y")}
    x = rows["A", "x"]
    # A's x in hand in 2 seat-games, both won: GIH 1. Not seen: A's 3 seat-games - 2 = 1, won: GNS 1.
    assert (x["games_in_hand"], x["wins_in_hand"], x["games_not_seen"], x["wins_not_seen"]) == (2, 2, 1, 1)
    assert (x["gih_win_rate"], x["gns_win_rate"], x["iwd"]) == (1.0, 1.0, 0.0)
    assert (x["gih_win_rate_low"], x["gih_win_rate_high"]) == pytest.approx(wilson_interval(2, 2), abs=1e-12)
    # Opening hand: both rows; drawn later: only (0,0), drawn 2 > 1 in the opening hand.
    assert (x["games_opening"], x["games_drawn_later"], x["oh_win_rate"], x["gd_win_rate"]) == (2, 1, 1.0, 1.0)
    # Played in both, first on turn 1: play rate 1, played win rate 1. A's y was never played and
    # never playable for A (this data has playable = played), but B played it: a card an agent of
    # the experiment could play, so A holding it and never playing it is flagged.
    assert (x["games_played"], x["wins_played"], x["play_rate"], x["mean_turn_played"]) == (2, 2, 1.0, 1.0)
    assert not x["never_played"] and rows["A", "y"]["never_played"] and rows["A", "y"]["games_playable"] == 0
    assert rows["A", "y"]["play_rate"] == 0.0 and rows["A", "y"]["gd_win_rate"] == 1.0
    # B's x: in hand only in (0,1), lost ((2,1) was never in hand); not seen 2, no win.
    bx = rows["B", "x"]
    assert (bx["games_in_hand"], bx["wins_in_hand"], bx["games_not_seen"], bx["gns_win_rate"]) == (1, 0, 2, 0.0)
    assert bx["never_played"] and bx["games_playable"] == 0 and not rows["B", "y"]["never_played"]  # A played x
    assert rows["B", "y"]["played_win_rate"] == 0.0 and rows["B", "y"]["play_rate"] == 1.0
    # A wins every game and B none: their card means are 1 and 0, there is no spread to fit,
    # every card shrinks to its agent's mean and no z-score is defined.
    assert (x["card_mean"], x["shrunk_win_rate"], bx["card_mean"], bx["shrunk_win_rate"]) == (1.0, 1.0, 0.0, 0.0)
    assert x["z_score"] is None and not x["outlier"] and not x["prior_identified"]


def test_a_card_seen_in_one_game_is_no_outlier_and_never_surely_outside() -> None:
    # Party Wanted, nemesis, 3 heroes: the party wins ~95%, and a card in hand in 1 seat-game,
    # lost, had z = -4.5 and [0.0%, 79.3%] beyond the mean - 10 points: a finding. Here the
    # mean is m = 1993/2191 = 0.910, so that one game had a 9% chance of being a loss. A flag
    # needs n·m and n·(1 - m) of at least CARD_MIN_EXPECTED = 5 (n: the effective games in
    # hand): "one" has 1·0.09 expected losses, "thin" 50·0.09 = 4.5, "low" 200·0.09 = 18.
    from analytics.findings import card_findings
    from analytics.views import CARD_MIN_EXPECTED

    con = duckdb.connect()
    card_counts_table(con, [("a", 1000, 930), ("b", 940, 875), ("one", 1, 0), ("thin", 50, 38), ("low", 200, 150)],
                      seat_games=3000, seat_wins=2800)
    rows = {row["card"]: row for row in con.sql(card_stats_sql()).pl().iter_rows(named=True)}
    m = rows["a"]["card_mean"]
    assert m == pytest.approx(1993 / 2191, abs=1e-12) and CARD_MIN_EXPECTED == 5
    one, thin, low = rows["one"], rows["thin"], rows["low"]
    # Without the floor: |z| >= 3 and 2+ points from the mean, and the whole interval below m - 10 points.
    assert one["z_score"] == pytest.approx(-m / math.sqrt(m * (1 - m)), abs=1e-12) and one["z_score"] < -3
    assert one["gih_win_rate_high"] == pytest.approx(wilson_interval(0, 1)[1], abs=1e-12)
    assert one["gih_win_rate_high"] < m - 0.1
    assert thin["z_score"] < -3
    assert not one["outlier"] and not one["surely_outside"]
    assert not thin["outlier"] and not thin["surely_outside"]
    assert low["outlier"] and low["surely_outside"]  # 50 losses where 18 were expected
    assert [finding.subject for finding in card_findings(con.sql(card_stats_sql()).pl(), {})] == ["low"]


def card_counts_table(con: duckdb.DuckDBPyConnection, cards: list[tuple[str, int, int]], seat_games: int,
                      seat_wins: int, hands_per_game: int = 1) -> None:
    """``card_counts`` and ``seat_totals`` tables of one agent from (card, games in hand, wins in hand),
    every seat-game its own game (so each clustered rate is a plain binomial), every card played
    once in each game in hand, on turn 2. With ``hands_per_game`` k > 1 the card is in k hands of
    each of its n/k games in hand, at most one of which wins (its GIH sums only)."""
    from analytics.stats import register_sql_macros

    register_sql_macros(con)
    k = hands_per_game
    clusters = ", ".join(
        f"n // {k} AS {prefix}_clusters, n * {k} AS {prefix}_n_sq, w AS {prefix}_w_sq, w * {k} AS {prefix}_nw, "
        f"w AS {prefix}_hits" if prefix == "gih" else
        f"n AS {prefix}_clusters, n AS {prefix}_n_sq, w AS {prefix}_w_sq, w AS {prefix}_nw, w AS {prefix}_hits"
        for prefix in CARD_RATES)
    values = ", ".join(f"('{card}', {n}, {w})" for card, n, w in cards)
    con.execute(f"""CREATE TABLE card_counts AS SELECT 'e' AS experiment, 'baseline' AS variant, 2 AS n_players,
        'A' AS agent, card, n AS games_in_hand, w AS wins_in_hand, 0 AS games_opening, 0 AS wins_opening,
        0 AS games_drawn_later, 0 AS wins_drawn_later, n AS games_drawn, w AS wins_when_drawn, n AS times_drawn,
        n AS games_played, w AS wins_played, n AS games_played_in_hand, 0 AS games_playable,
        0 AS games_played_when_playable, n AS times_played, 0 AS times_playable, 2 * n AS sum_turn_played,
        n AS n_turn_played, {clusters}
        FROM (VALUES {values}) AS t(card, n, w)""")
    con.execute("CREATE TABLE seat_totals AS SELECT 'e' AS experiment, 'baseline' AS variant, 2 AS n_players, "
                f"'A' AS agent, {seat_games} AS seat_games, {seat_wins} AS seat_wins")


def test_card_shrinkage_follows_the_beta_prior_of_greatest_marginal_likelihood() -> None:
    # Three cards in hand in 100 seat-games each, winning 10, 50 and 90: m = 0.5.
    # The beta-binomial likelihood, maximised here with scipy, has its best
    # strength s = alpha + beta near 1.86; card a shrinks to (10 + 0.5 s)/(100 + s).
    from scipy.optimize import minimize_scalar
    from scipy.special import betaln

    def minus_log_likelihood(x: float) -> float:
        s = 10 ** x
        return -sum(betaln(w + s / 2, 100 - w + s / 2) - betaln(s / 2, s / 2) for w in (10, 50, 90))

    best = 10 ** minimize_scalar(minus_log_likelihood, bounds=(-1, 8), method="bounded").x
    con = duckdb.connect()
    card_counts_table(con, [("a", 100, 10), ("b", 100, 50), ("c", 100, 90)], seat_games=400, seat_wins=200)
    rows = {row["card"]: row for row in con.sql(card_stats_sql()).pl().iter_rows(named=True)}
    assert rows["a"]["prior_identified"] and rows["a"]["prior_strength"] == pytest.approx(best, rel=0.003)
    strength = rows["a"]["prior_strength"]
    assert rows["a"]["shrunk_win_rate"] == pytest.approx((10 + strength / 2) / (100 + strength), abs=1e-12)
    assert rows["b"]["shrunk_win_rate"] == pytest.approx(0.5, abs=1e-12)
    assert rows["c"]["shrunk_win_rate"] == pytest.approx((90 + strength / 2) / (100 + strength), abs=1e-12)
    # z = (0.1 - 0.5)/sqrt(0.25/100) = -8: an outlier, and surely below the band 0.5 - 0.1; b is neither.
    assert rows["a"]["z_score"] == pytest.approx(-8.0, abs=1e-9) and rows["a"]["outlier"]
    assert rows["a"]["surely_outside"] and rows["c"]["surely_outside"] and not rows["b"]["surely_outside"]
    assert rows["c"]["outlier"] and not rows["b"]["outlier"]
    # Not seen: 400 - 100 = 300 seat-games with 200 - 10 = 190 wins.
    assert rows["a"]["gns_win_rate"] == pytest.approx(190 / 300, abs=1e-12)
    assert rows["a"]["mean_turn_played"] == 2.0


def test_the_card_prior_is_fitted_on_the_cards_effective_counts_not_their_raw_seat_games() -> None:
    # Each card is in both hands of its 100 games (200 seat-games), and one of the two wins
    # at most: its wins vary less between games than 200 independent seat-games would, so its
    # effective n is larger than 200 and the cards' spread around the mean is less noise than
    # the raw counts say. The prior is that of the effective counts (the GIH rate of its
    # effective n won), about the raw counts' mean; on the raw counts it is another one.
    cards = [("a", 200, 70), ("b", 200, 80), ("c", 200, 90), ("d", 200, 100), ("e", 200, 110)]
    con = duckdb.connect()
    card_counts_table(con, cards, seat_games=2000, seat_wins=900, hands_per_game=2)
    rows = {row["card"]: row for row in con.sql(card_stats_sql()).pl().iter_rows(named=True)}
    effective = {card: clustered_effective_n(n, w, 2 * n, w, 2 * w, n // 2) for card, n, w in cards}
    mean = sum(w for _, _, w in cards) / sum(n for _, n, _ in cards)
    prior = beta_binomial_prior([w / n * effective[card] for card, n, w in cards], list(effective.values()), mean)
    raw = beta_binomial_prior([w for _, _, w in cards], [n for _, n, _ in cards])
    assert prior is not None and prior.strength is not None and raw is not None and raw.strength is not None
    assert all(effective[card] > 1.5 * n for card, n, _ in cards)
    assert rows["a"]["prior_identified"] and rows["a"]["prior_strength"] == pytest.approx(prior.strength, rel=0.003)
    assert abs(prior.strength / raw.strength - 1) > 0.15  # not the raw counts' prior
    w, n = 70 / 200 * effective["a"], effective["a"]
    assert rows["a"]["shrunk_win_rate"] == pytest.approx(
        (w + mean * rows["a"]["prior_strength"]) / (n + rows["a"]["prior_strength"]), abs=1e-12)


def test_cards_that_differ_no_more_than_noise_shrink_to_the_mean_and_say_so() -> None:
    # 50, 51, 49 wins of 100: the likelihood is best with the cards alike (the top of the grid).
    con = duckdb.connect()
    card_counts_table(con, [("a", 100, 50), ("b", 100, 51), ("c", 100, 49)], seat_games=400, seat_wins=200)
    frame = con.sql(card_stats_sql()).pl()
    assert not frame["prior_identified"].any() and frame["prior_strength"].is_null().all()
    assert frame["shrunk_win_rate"].to_list() == pytest.approx([0.5] * 3, abs=1e-12)
    assert frame["card_spread"].to_list() == [0.0] * 3


def test_card_stats_of_one_agent_count_only_its_seat_games(handmade: duckdb.DuckDBPyConnection) -> None:
    # A held: baseline game 0 seat 0, game 1 seat 1, game 2 seat 0 (3 seat-games, all won).
    # A's x rows: (0,0) and (1,1), both in hand and won: GIH 1, not seen 1 seat-game with 1 win.
    frame = card_stats(handmade, agent="A").filter(pl.col("variant") == "baseline")
    x = frame.filter(pl.col("card") == "x").row(0, named=True)
    assert (x["games_in_hand"], x["wins_in_hand"], x["games_not_seen"], x["wins_not_seen"]) == (2, 2, 1, 1)


# ---------------------------------------------------------------- seats


def test_seat_balance_in_self_play_gives_scipy_chi_square_and_the_first_seat_share() -> None:
    from tests.analytics.synthetic import CompetitiveModel, competitive

    data = competitive(1, 2000, model=CompetitiveModel(agent_strength=(("heuristic", 1.0),), self_play=True))
    seats, balance = data.con.sql("FROM seat_stats").pl(), data.con.sql("FROM seat_balance").pl()
    assert balance.height == 2 and balance["self_play"].all() and set(balance["agent"]) == {"heuristic"}
    assert seats["self_play"].all()
    for row in balance.iter_rows(named=True):
        group = seats.filter((pl.col("variant") == row["variant"]) & (pl.col("n_players") == row["n_players"]))
        wins = group.sort("seat")["wins"].to_list()
        statistic, df, p = chi_square_uniform(wins)
        assert (row["chi2"], row["df"]) == (pytest.approx(statistic, abs=1e-12), df)
        assert row["p_value"] == pytest.approx(p, abs=1e-12)
        low, high = wilson_interval(wins[0], sum(wins))
        assert row["first_seat_share"] == pytest.approx(wins[0] / sum(wins), abs=1e-12)
        assert (row["first_seat_advantage_low"], row["first_seat_advantage_high"]) == pytest.approx(
            (low - 0.25, high - 0.25), abs=1e-12)


def first_seat_advantage_by_hand(games: pl.DataFrame) -> tuple[float, float, float]:
    """An agent's first-seat advantage and its interval from its games (``n``: its seats, ``w``: its
    wins, ``m``: 1 if it held seat 0, ``x``: 1 if it won there): r₀ − r̄ = (1 − f)(r₀ − r₁) with
    f = Σm/Σn, r₀ = Σx/Σm (Wilson) and r₁ = Σ(w − x)/Σ(n − m) over its other seats (clustered by
    game), Newcombe's interval of r₀ − r₁ joined by the two rates' correlation over the games."""
    n, w = games["n"].to_numpy(), games["w"].to_numpy()
    m, x = games["m"].to_numpy().astype(int), games["x"].to_numpy().astype(int)
    n1, w1 = n - m, w - x
    first, other, f = x.sum() / m.sum(), w1.sum() / n1.sum(), m.sum() / n.sum()
    spread_first, spread_other = ((x - first * m) ** 2).sum(), ((w1 - other * n1) ** 2).sum()
    cross = ((x - first * m) * (w1 - other * n1)).sum()
    phi = paired_correlation(spread_other, spread_first, spread_other + spread_first - 2 * cross)
    other_low, other_high = clustered_interval(n1.sum(), w1.sum(), (n1 * n1).sum(), (w1 * w1).sum(),
                                               (n1 * w1).sum(), (n1 > 0).sum())
    low, high = newcombe_difference(other, other_low, other_high, first, *wilson_interval(x.sum(), m.sum()), phi)
    return (first - w.sum() / n.sum(), (1 - f) * low, (1 - f) * high)


def _agent_games(players: pl.DataFrame) -> pl.DataFrame:
    return players.group_by("game_index").agg(
        pl.len().alias("n"), pl.col("won").sum().alias("w"), (pl.col("seat") == 0).any().alias("m"),
        ((pl.col("seat") == 0) & pl.col("won")).any().alias("x"))


def test_seat_balance_of_a_rotated_mixed_lineup_compares_each_agent_with_itself_not_the_pooled_seats(
        small_experiment: SmallExperiment) -> None:
    # Heuristic against random, seats rotated every game: seat 0 holds each agent half the time,
    # so its share of the wins is about 1/2 whatever the seat is worth. Per agent instead: its
    # win rate in the games it held seat 0 against its win rate over all its seats.
    con = open_catalog(small_experiment.folder)
    try:
        balance = seat_balance(con)
        players = con.sql("SELECT variant, n_players, game_index, seat, agent, won FROM players").pl()
    finally:
        con.close()
    assert set(balance["agent"]) == {"heuristic", "random"} and not balance["self_play"].any()
    assert balance["chi2"].is_null().all() and balance["first_seat_share"].is_null().all()
    for row in balance.iter_rows(named=True):
        games = _agent_games(players.filter((pl.col("variant") == row["variant"])
                                            & (pl.col("n_players") == row["n_players"])
                                            & (pl.col("agent") == row["agent"])))
        won_first, at_first, wins, seats = games.select(pl.col("x", "m", "w", "n").cast(pl.Float64).sum()).row(0)
        assert (row["first_seat_win_rate"], row["agent_win_rate"]) == pytest.approx(
            (won_first / at_first, wins / seats), abs=1e-12)
        expected = first_seat_advantage_by_hand(games)
        assert (row["first_seat_advantage"], row["first_seat_advantage_low"],
                row["first_seat_advantage_high"]) == pytest.approx(expected, abs=1e-9)


def test_the_first_seat_advantage_of_an_agent_at_two_seats_is_its_seat_0_rate_against_its_other_seats() -> None:
    # A dominant agent and a rare rival, each at two of four seats: r₀ − r̄ = (1 − f)(r₀ − r₁), r₀
    # over the games at seat 0 and r₁ over the agent's other seat-games, disjoint seat-games of
    # partly the same games (one winner: negatively correlated). The rival's r₀ is a rare count
    # of wins whose Wilson interval reaches further above than below; Newcombe's interval of r₀
    # against r̄, a rate of which r₀ is a part (used before), was short below for it.
    from tests.analytics.synthetic import CompetitiveModel, competitive

    data = competitive(1, 600, model=CompetitiveModel(agent_strength=(("strong", 30.0), ("weak", 1.0)), draw=0.01),
                       seed=3)
    balance = data.con.sql("FROM seat_balance WHERE variant = 'baseline'").pl()
    players = data.con.sql("SELECT game_index, seat, agent, won FROM players WHERE variant = 'baseline'").pl()
    assert set(balance["agent"]) == {"strong", "weak"}
    for row in balance.iter_rows(named=True):
        games = _agent_games(players.filter(pl.col("agent") == row["agent"]))
        assert set(games["n"]) == {2}
        expected = first_seat_advantage_by_hand(games)
        assert (row["first_seat_advantage"], row["first_seat_advantage_low"],
                row["first_seat_advantage_high"]) == pytest.approx(expected, abs=1e-9), row["agent"]
    weak = balance.filter(pl.col("agent") == "weak").row(0, named=True)
    assert weak["first_seat_advantage_high"] - weak["first_seat_advantage"] > (
        weak["first_seat_advantage"] - weak["first_seat_advantage_low"])


# ---------------------------------------------------------------- factions

COMPETITIVE_GAMES = [{"variant": "baseline", "game_index": g, "n_players": 3, "winners": [w]}
                     for g, w in ((0, 0), (1, 1), (2, 1))]
COMPETITIVE_SEATS = {
    ("baseline", 0): [("A", True), ("B", False), ("C", False)],
    ("baseline", 1): [("A", False), ("A", True), ("B", False)],
    ("baseline", 2): [("B", False), ("C", True), ("C", False)],
}


def test_faction_win_rates_spread_and_band_are_as_worked_out(tmp_path: Path) -> None:
    write_games(tmp_path / "factions", "factions", COMPETITIVE_GAMES, COMPETITIVE_SEATS)
    con = open_catalog(tmp_path / "factions")
    try:
        stats = faction_stats(con)
        spread = faction_spread(con).row(0, named=True)
        table = matchups(con)
        teams = party_size_stats(con)
    finally:
        con.close()
    # A: 3 seat-games in 2 games, 2 wins; B: 3 in 3 games, 0 wins; C: 3 in 2 games, 1 win.
    # Expected = 3 wins / 9 seat-games = 1/3; band 0.05: A and B outside, C inside.
    assert [(r["faction"], r["seat_games"], r["games"], r["wins"], r["outside_band"]) for r in
            stats.iter_rows(named=True)] == [("A", 3, 2, 2, True), ("B", 3, 3, 0, True), ("C", 3, 2, 1, False)]
    assert all(_close(value, 1 / 3) for value in stats["expected"])
    assert not any(stats["surely_outside"])  # 3 seat-games leave wide intervals
    # Spread of 2/3, 0, 1/3: 2/3; population sd sqrt(2/27).
    assert _close(spread["spread"], 2 / 3) and _close(spread["sd"], math.sqrt(2 / 27))
    assert (spread["factions"], spread["outside_band"]) == (3, 2)
    # Matchups: A's seat-games in games with B at another seat: (0,0) won, (1,0) lost, (1,1) won.
    # A with A: (1,0) lost, (1,1) won. C with C: (2,1) won, (2,2) lost. B with C: (0,1), (2,0), both lost.
    cells = {(r["faction"], r["opponent"]): (r["seat_games"], r["wins"]) for r in table.iter_rows(named=True)}
    assert cells == {("A", "A"): (2, 1), ("A", "B"): (3, 2), ("A", "C"): (1, 1), ("B", "A"): (2, 0),
                     ("B", "C"): (2, 0), ("C", "A"): (1, 0), ("C", "B"): (3, 1), ("C", "C"): (2, 1)}
    assert teams.height == 0  # a competitive game has no team tables


COOP_GAMES = [{"variant": "baseline", "game_index": g, "n_players": n, "winners": list(range(n)) if won else [],
               "draw": False}  # a cooperative loss is no draw (simcore/records.py)
              for g, n, won in ((0, 2, True), (1, 2, False), (2, 3, True), (3, 3, False), (4, 3, True))]
COOP_SEATS = {
    ("baseline", 0): [("Mage", True), ("Rogue", True)],
    ("baseline", 1): [("Mage", False), ("Mage", False)],
    ("baseline", 2): [("Mage", True), ("Rogue", True), ("Tank", True)],
    ("baseline", 3): [("Rogue", False), ("Tank", False), ("Tank", False)],
    ("baseline", 4): [("Tank", True), ("Mage", True), ("Tank", True)],
}


def test_cooperative_win_rates_by_size_composition_and_class_are_as_worked_out(tmp_path: Path) -> None:
    write_games(tmp_path / "coop", "coop", COOP_GAMES, COOP_SEATS)
    con = open_catalog(tmp_path / "coop")
    try:
        sizes = party_size_stats(con)
        compositions = composition_stats(con)
        effects = class_effects(con)
    finally:
        con.close()
    # Size 2: 2 games, 1 won; size 3: 3 games, 2 won.
    assert sizes.select("n_players", "games", "wins").rows() == [(2, 2, 1), (3, 3, 2)]
    assert sorted(compositions.select("n_players", "composition", "games", "wins").rows()) == [
        (2, "Mage+Mage", 1, 0), (2, "Mage+Rogue", 1, 1),
        (3, "Mage+Rogue+Tank", 1, 1), (3, "Mage+Tank+Tank", 1, 1), (3, "Rogue+Tank+Tank", 1, 0)]
    cells = {(r["n_players"], r["faction"]): r for r in effects.iter_rows(named=True)}
    # Size 2: Rogue in game 0 (won), not in game 1 (lost): effect +1. Mage in both: nothing to compare.
    assert (cells[(2, "Rogue")]["games_with"], cells[(2, "Rogue")]["games_without"]) == (1, 1)
    assert _close(cells[(2, "Rogue")]["effect"], 1.0)
    assert cells[(2, "Mage")]["win_rate_without"] is None and cells[(2, "Mage")]["effect"] is None
    # Size 3: Mage in 2 and 4 (both won) vs 3 (lost): +1; Rogue in 2 (won), 3 (lost) vs 4 (won): 0.5 - 1 = -0.5.
    assert _close(cells[(3, "Mage")]["effect"], 1.0) and _close(cells[(3, "Rogue")]["effect"], -0.5)
    z, p = two_proportion_ztest(1, 1, 1, 2)
    assert (cells[(3, "Rogue")]["z"], cells[(3, "Rogue")]["p_value"]) == pytest.approx((z, p), abs=1e-12)


def test_a_game_without_factions_gives_empty_faction_tables(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        for frame in (faction_stats(con), faction_spread(con), matchups(con), party_size_stats(con),
                      composition_stats(con), class_effects(con)):
            assert frame.height == 0
        assert variant_deltas(con).filter(pl.col("family") == "faction").height == 0
    finally:
        con.close()


# ---------------------------------------------------------------- variants


def test_variant_deltas_use_the_z_test_and_benjamini_hochberg_per_family(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        deltas = variant_deltas(con)
        agents = agent_stats(con)
    finally:
        con.close()
    assert set(deltas["family"]) == {"seat", "agent", "card", "game"}
    for row in deltas.filter(pl.col("family") == "agent").iter_rows(named=True):
        base = agents.filter((pl.col("variant") == "baseline") & (pl.col("agent") == row["key"])).row(0, named=True)
        other = agents.filter((pl.col("variant") == "four_rounds") & (pl.col("agent") == row["key"])).row(
            0, named=True)
        z, p = two_proportion_ztest(base["wins"], base["seat_games"], other["wins"], other["seat_games"])
        assert row["test"] == "z" and row["statistic"] == pytest.approx(z, abs=1e-12)
        assert row["p_value"] == pytest.approx(p, abs=1e-12)
        assert _close(row["delta"], other["win_rate"] - base["win_rate"])
    for family in ("seat", "agent", "card", "game"):
        group = deltas.filter(pl.col("family") == family)
        assert group["q_value"].to_list() == pytest.approx(benjamini_hochberg(group["p_value"].to_list()), abs=1e-12)
        assert (group["significant"] == (group["q_value"] < 0.05)).all()


def test_variants_on_the_baseline_seeds_are_compared_with_mcnemar(tmp_path: Path) -> None:
    # Six games on the same seeds; seat 0 wins baseline games 0-3 and 5, the
    # variant's games 3 and 5 only: 3 pairs only the baseline won (0, 1, 2), none
    # only the variant won: McNemar (|3 - 0| - 1)² / 3 = 4/3.
    baseline_wins, variant_wins = [1, 1, 1, 1, 0, 1], [0, 0, 0, 1, 0, 1]
    games, seats = [], {}
    for variant, wins in (("baseline", baseline_wins), ("nerf", variant_wins)):
        for index, won in enumerate(wins):
            games.append({"variant": variant, "game_index": index, "n_players": 2, "winners": [0] if won else [1],
                          "seed": 500 + index})
            seats[(variant, index)] = [(None, bool(won)), (None, not won)]
    write_games(tmp_path / "paired", "paired", games, seats, paired=True)
    con = open_catalog(tmp_path / "paired")
    try:
        seat0 = variant_deltas(con).filter((pl.col("family") == "seat") & (pl.col("key") == "0")).row(0, named=True)
    finally:
        con.close()
    _, p = mcnemar(3, 0)
    assert (seat0["test"], seat0["statistic"], seat0["p_value"]) == ("mcnemar", pytest.approx(4 / 3, abs=1e-12),
                                                                    pytest.approx(p, abs=1e-12))
    assert _close(seat0["delta"], 2 / 6 - 5 / 6)


def test_a_change_of_game_length_without_spread_in_a_small_sample_keeps_a_width_and_a_finding(
        tmp_path: Path) -> None:
    # A tiny Divvy run: every baseline game lasted 5 turns, every four_rounds game 4. Twenty games
    # a side do not make the difference certain ([-1, -1], p = 0, as it once read): a share up to
    # u = z²/(20 + z²) of the games may last a turn more or less, a variance of u(1 - u) a side.
    # It stays a finding, with its width.
    games: list[dict[str, Any]] = [
        {"variant": variant, "game_index": index, "n_players": 2, "winners": [index % 2], "turns": turns}
        for variant, turns in (("baseline", 5), ("four_rounds", 4)) for index in range(20)]
    seats = {(variant, index): [(None, index % 2 == 0), (None, index % 2 == 1)]
             for variant in ("baseline", "four_rounds") for index in range(20)}
    write_games(tmp_path / "length", "length", games, seats)
    con = open_catalog(tmp_path / "length")
    try:
        deltas = variant_deltas(con)
    finally:
        con.close()
    turns = deltas.filter(pl.col("metric") == "turns").row(0, named=True)
    u = wilson_interval(0, 20)[1]
    half = Z95 * math.sqrt(2 * u * (1 - u) / 20)
    assert (turns["test"], turns["delta"]) == ("welch", -1.0)
    assert (turns["delta_low"], turns["delta_high"]) == pytest.approx((-1 - half, -1 + half), abs=1e-12)
    assert turns["statistic"] == pytest.approx(-1 / math.sqrt(2 * u * (1 - u) / 20), abs=1e-9)
    assert 0.0 < turns["p_value"] < 1e-4 and turns["significant"]
    decisions = deltas.filter(pl.col("metric") == "decisions").row(0, named=True)  # 10 in every game of both
    assert (decisions["p_value"], decisions["significant"]) == (1.0, False)
    from analytics.findings import delta_findings

    found = delta_findings(deltas, {})
    assert [finding.subject for finding in found] == ["mean turns"]
    assert "mean turns 5.00 -> 4.00 [-1.23, -0.77], q = <1e-4 (welch; n = 20)" in found[0].text


# ---------------------------------------------------------------- seats in games where seats do not compete


def test_seat_rates_are_null_in_a_cooperative_experiment_and_in_one_player_games(tmp_path: Path) -> None:
    # Cooperative: the heroes share each game's outcome (won 3 of 4), and one hero plays alone
    # (games 10-13). Each seat's "win share" would be 1/2 (1 alone) by construction and its win
    # rate the party's: the rates are null, the counts stay (analytics/README.md, "Seats").
    solo = {index: won for index, won in zip(range(10, 14), (False, True, True, True), strict=True)}
    coop = [{"variant": "baseline", "game_index": index, "n_players": 2, "winners": [0, 1] if index else [],
             "draw": False} for index in range(4)]
    coop += [{"variant": "baseline", "game_index": index, "n_players": 1, "winners": [0] if won else [],
              "draw": False} for index, won in solo.items()]
    write_games(tmp_path / "coop", "coop", coop, {("baseline", index): [(None, index > 0)] * 2 for index in range(4)}
                | {("baseline", index): [(None, won)] for index, won in solo.items()})
    # Competitive, with a one-player count too: its one seat's share would be 1.
    duel = [{"variant": "baseline", "game_index": index, "n_players": 2, "winners": [index % 2]} for index in range(4)]
    duel += [{"variant": "baseline", "game_index": index, "n_players": 1, "winners": [0] if won else [],
              "draw": False} for index, won in solo.items()]
    write_games(tmp_path / "duel", "duel", duel,
                {("baseline", index): [(None, index % 2 == 0), (None, index % 2 == 1)] for index in range(4)}
                | {("baseline", index): [(None, won)] for index, won in solo.items()})
    rates = ["win_rate", "win_rate_low", "win_rate_high", "win_share", "win_share_low", "win_share_high",
             "fair_share"]
    con = open_catalog(tmp_path / "coop")
    try:
        assert con.execute("SELECT bool_and(cooperative) FROM experiment_modes").fetchall() == [(True,)]
        seats = seat_stats(con)
        balance = seat_balance(con)
    finally:
        con.close()
    assert seats.height == 3 and seats["games"].to_list() == [4, 4, 4] and seats["wins"].to_list() == [3, 3, 3]
    assert all(seats[name].is_null().all() for name in rates)
    assert balance.height == 2 and balance["chi2"].is_null().all()
    con = open_catalog(tmp_path / "duel")
    try:
        assert con.execute("SELECT bool_and(cooperative) FROM experiment_modes").fetchall() == [(False,)]
        seats = seat_stats(con)
    finally:
        con.close()
    alone, duelling = seats.filter(pl.col("n_players") == 1), seats.filter(pl.col("n_players") == 2)
    assert alone["games"].to_list() == [4] and all(alone[name].is_null().all() for name in rates)
    assert duelling["win_share"].to_list() == [0.5, 0.5] and duelling["win_rate"].to_list() == [0.5, 0.5]


# ---------------------------------------------------------------- games


def test_game_stats_quantiles_from_the_histogram_equal_duckdb_on_the_rows(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        stats = game_stats(con).sort("variant")
        direct = con.sql("""SELECT variant, quantile_cont(turns, 0.1) AS p10, quantile_cont(turns, 0.9) AS p90,
                                   quantile_cont(decisions, 0.5) AS d50, stddev_samp(decisions) AS sd,
                                   sum(legal_actions) / sum(decisions) AS branching
                            FROM games GROUP BY variant ORDER BY variant""").pl()
    finally:
        con.close()
    assert stats["p10_turns"].to_list() == pytest.approx(direct["p10"].to_list(), abs=1e-12)
    assert stats["p90_turns"].to_list() == pytest.approx(direct["p90"].to_list(), abs=1e-12)
    assert stats["p50_decisions"].to_list() == pytest.approx(direct["d50"].to_list(), abs=1e-12)
    assert stats["sd_decisions"].to_list() == pytest.approx(direct["sd"].to_list(), abs=1e-9)
    # Mean legal actions per decision: all offered options over all real decisions.
    assert stats["mean_legal_actions"].to_list() == pytest.approx(direct["branching"].to_list(), abs=1e-9)
    assert all(value > 1 for value in stats["mean_legal_actions"].to_list())


# ---------------------------------------------------------------- interfaces


def test_cached_counts_give_the_same_metrics_as_the_views_over_the_rows(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(small_experiment.folder, folder, ignore=shutil.ignore_patterns(CACHE_FOLDER))
    plain = open_catalog(folder, cached=False)  # every metric from the rows
    cached = open_catalog(folder)  # the counts each shard's task wrote
    try:
        # Nothing counted again (the fallback: test_task_counts.py). The folder itself may
        # exist: the integrity check remembers the verified files in it.
        assert not (folder / CACHE_FOLDER / CACHE_VERSION).exists()
        for view in METRIC_VIEWS:
            assert_frame_equal(metric(cached, view), metric(plain, view), check_dtypes=False, check_exact=False,
                               rel_tol=1e-12)
    finally:
        for con in (plain, cached):
            con.close()


def test_the_catalog_file_opens_without_cardlab_and_holds_the_metric_views(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    path = write_catalog_file(tmp_path / "catalog.duckdb", [small_experiment.folder])
    con = open_catalog(small_experiment.folder)
    try:
        expected = {view: metric(con, view) for view in ("seat_balance", "card_stats", "variant_deltas")}
    finally:
        con.close()
    # A bare DuckDB connection: no macros registered, no views created by us.
    bare = duckdb.connect(str(path), read_only=True)
    try:
        for view, frame in expected.items():
            assert_frame_equal(bare.sql(f"SELECT * FROM {view}").pl(), frame)
    finally:
        bare.close()


def test_the_catalog_files_count_views_sum_the_shards_counts_or_read_the_rows_of_older_results(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    # Summing the shard tasks' counts: card_stats of make demo's 600,000 games in 0.2 s from
    # the file, where counting every card row took 24 s.
    older = tmp_path / "older"
    shutil.copytree(small_experiment.folder, older)
    for marker in (older / MANIFEST_FOLDER).glob("*.json"):
        entry = json.loads(marker.read_text())
        del entry["counts"]  # written before shard tasks counted their rows
        marker.write_text(json.dumps(entry))
    con = open_catalog(small_experiment.folder)
    try:
        expected = {view: metric(con, view) for view in ("agent_stats", "card_stats", "variant_deltas")}
    finally:
        con.close()
    for folder, from_counts in ((small_experiment.folder, True), (older, False)):
        path = write_catalog_file(tmp_path / f"{folder.name}.duckdb", [folder])
        bare = duckdb.connect(str(path), read_only=True)
        try:
            ((definition,),) = bare.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'card_counts'").fetchall()
            assert ("read_parquet" in definition and "/counts/card_counts/" in definition) == from_counts
            assert ("FROM cards" in definition) != from_counts
            for view, frame in expected.items():
                shown = bare.sql(f"SELECT * FROM {view}").pl()
                assert_frame_equal(shown.sort(pl.all()), frame.sort(pl.all()), check_exact=False, rel_tol=1e-9)
        finally:
            bare.close()


def test_the_results_catalog_holds_every_experiment(small_experiment: SmallExperiment, tmp_path: Path) -> None:
    root = tmp_path / "results"
    write_handmade(root / "handmade")
    write_games(root / "factions", "factions", COMPETITIVE_GAMES, COMPETITIVE_SEATS)
    con = open_results_catalog(root)
    try:
        assert sorted(set(seat_stats(con)["experiment"])) == ["factions", "handmade"]
        assert set(faction_stats(con)["experiment"]) == {"factions"}
    finally:
        con.close()
    path = write_results_catalog(root)
    assert path == root / "catalog.duckdb"
    bare = duckdb.connect(str(path), read_only=True)
    try:
        assert bare.sql("SELECT count(DISTINCT experiment) FROM games").fetchall() == [(2,)]
    finally:
        bare.close()


def test_targets_are_met_once_every_interval_is_narrow_enough(handmade: duckdb.DuckDBPyConnection) -> None:
    # Widest seat interval: Wilson(0, 1) in the one-game variant, 0.7935 wide.
    widest = max(high - low for low, high in (wilson_interval(w, n) for w, n in ((2, 3), (1, 3), (0, 1))))
    loose = [{"view": "seat_stats", "rate": "win_rate", "max_width": 0.8}]
    tight = [{"view": "seat_stats", "rate": "win_rate", "max_width": 0.5}]
    assert targets_met(handmade, loose) and not targets_met(handmade, tight)
    assert target_widths(handmade, loose)["widest"].to_list() == pytest.approx([widest], abs=1e-12)
    # Only the baseline: Wilson(2, 3) and Wilson(1, 3), 0.72 wide.
    baseline = [{"view": "seat_stats", "rate": "win_rate", "max_width": 0.75, "where": {"variant": "baseline"}}]
    assert targets_met(handmade, baseline)
    assert targets_met(handmade, [*loose, *tight]) is False
    assert targets_met(handmade, []) is False
    assert not targets_met(handmade, [{"view": "faction_stats", "rate": "win_rate", "max_width": 0.5}])  # no rows
    with pytest.raises(AnalyticsError, match=r"stop_when\[0\]\.rate: expected one of"):
        targets_met(handmade, [{"view": "seat_stats", "rate": "nope", "max_width": 0.1}])
    with pytest.raises(AnalyticsError, match=r"stop_when\[0\]\.view"):
        targets_met(handmade, [{"view": "games", "rate": "win_rate", "max_width": 0.1}])


def test_every_metric_has_integer_counts_and_float_rates(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        for view in METRIC_VIEWS:
            for name, dtype in metric(con, view).schema.items():
                assert not isinstance(dtype, pl.Decimal) and dtype != pl.Int128, (view, name, dtype)
    finally:
        con.close()
