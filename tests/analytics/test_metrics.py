"""Metrics on a hand-made dataset whose answers are worked out below, and on
the small real experiment against an independent Polars computation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog
from analytics.metrics import card_stats, card_table, game_length, win_rate_by_agent, win_rate_by_seat
from analytics.stats import wilson_interval
from dataset.schemas import schemas
from dataset.storage import SPEC_FILE, manifest_path, table_path, write_json_atomically, write_parquet_atomically
from simcore.registry import get_game

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment

# ---------------------------------------------------------------- the data
#
# Two variants of Divvy (2 players), agents "A" and "B".
#
# baseline, shard baseline-2p-0000000000:
#   game 0: seat 0 = A wins,  seat 1 = B;  5 turns, 40 decisions, rounds_complete
#   game 1: seat 0 = B,       seat 1 = A wins;  4 turns, 30 decisions, deck_exhausted
#   game 2: seat 0 = A wins,  seat 1 = B;  3 turns, 20 decisions, rounds_complete
# alt, shard alt-2p-0000000000:
#   game 0: seat 0 = A, seat 1 = B, a draw; 4 turns, 35 decisions, rounds_complete
#
# cards rows (game, seat, card, drawn, played, won):
#   baseline: (0, 0, x, 2, 1, won) (0, 1, x, 1, 0, lost) (1, 1, x, 1, 2, won)
#             (2, 1, x, 0, 0, lost; won as treasure only)
#             (1, 0, y, 1, 1, lost) (2, 0, y, 3, 0, won)
#   alt:      (0, 0, z, 1, 0, lost)

GAMES = [
    # variant, game_index, winner, turns, decisions, end_reason
    ("baseline", 0, 0, 5, 40, "rounds_complete"),
    ("baseline", 1, 1, 4, 30, "deck_exhausted"),
    ("baseline", 2, 0, 3, 20, "rounds_complete"),
    ("alt", 0, None, 4, 35, "rounds_complete"),
]
SEATS = {  # (variant, game_index) -> agents by seat
    ("baseline", 0): ("A", "B"), ("baseline", 1): ("B", "A"), ("baseline", 2): ("A", "B"), ("alt", 0): ("A", "B"),
}
CARDS = [
    # variant, game_index, seat, card, drawn, played, won_as_treasure
    ("baseline", 0, 0, "x", 2, 1, 0),
    ("baseline", 0, 1, "x", 1, 0, 0),
    ("baseline", 1, 1, "x", 1, 2, 0),
    ("baseline", 2, 1, "x", 0, 0, 1),
    ("baseline", 1, 0, "y", 1, 1, 0),
    ("baseline", 2, 0, "y", 3, 0, 0),
    ("alt", 0, 0, "z", 1, 0, 0),
]


def _winner(variant: str, game_index: int) -> int | None:
    return next(winner for v, g, winner, *_ in GAMES if (v, g) == (variant, game_index))


def _table(schema: pa.Schema, rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema)


def write_handmade(folder: Path) -> None:
    """Write the dataset above as an experiment folder (files, manifest, spec.json)."""
    table_schemas = schemas(get_game("divvy").info)
    key = {"experiment": "handmade", "game": "divvy", "n_players": 2}
    for variant in ("baseline", "alt"):
        shard = f"{variant}-2p-0000000000"
        games = [
            {**key, "variant": v, "game_index": g, "seed": 1000 + g, "winner": winner,
             "winners": [] if winner is None else [winner], "draw": winner is None, "end_reason": reason,
             "turns": turns, "decisions": decisions, "rounds_played": turns, "unclaimed_coins": 0,
             "deck_reshuffled": False}
            for v, g, winner, turns, decisions, reason in GAMES if v == variant
        ]
        players = [
            {**key, "variant": v, "game_index": g, "seat": seat, "agent": agent, "faction": None,
             "won": _winner(v, g) == seat, "score": 10 if _winner(v, g) == seat else 5,
             "rank": 1 if _winner(v, g) in (seat, None) else 2}
            for (v, g), agents in SEATS.items() if v == variant for seat, agent in enumerate(agents)
        ]
        cards = [
            {**key, "variant": v, "game_index": g, "seat": seat, "card": card, "copies": 1,
             "in_opening_hand": min(drawn, 1), "drawn": drawn, "played": played, "won_as_treasure": treasure,
             "playable": played,
             "first_played_turn": 1 if played else None, "won": _winner(v, g) == seat}
            for v, g, seat, card, drawn, played, treasure in CARDS if v == variant
        ]
        for name, rows in (("games", games), ("players", players), ("cards", cards)):
            write_parquet_atomically(_table(table_schemas[name], rows), table_path(folder, name, variant, shard))
        write_json_atomically({"shard": shard, "variant": variant, "n_players": 2}, manifest_path(folder, shard))
    write_json_atomically({"name": "handmade", "game": "divvy", "games": 3, "player_counts": [2],
                           "agents": ["A", "B"], "variants": {"alt": {"rules.rounds": 4}, "baseline": {}}},
                          folder / SPEC_FILE)


@pytest.fixture
def handmade(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A catalog over the hand-made dataset."""
    folder = tmp_path / "handmade"
    write_handmade(folder)
    con = open_catalog(folder)
    yield con
    con.close()


def _rows(frame: pl.DataFrame, *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in frame.select(columns).iter_rows()]


def _close(actual: float | None, expected: float | None) -> bool:
    if actual is None or expected is None:
        return actual is expected
    return abs(actual - expected) < 1e-12


# ---------------------------------------------------------------- hand-made answers


def test_win_rate_by_seat_counts_wins_and_draws_per_seat_as_worked_out(handmade: duckdb.DuckDBPyConnection) -> None:
    frame = win_rate_by_seat(handmade)
    # baseline: seat 0 won games 0 and 2, seat 1 won game 1; alt: one draw.
    assert _rows(frame, "variant", "n_players", "seat", "games", "wins", "draws") == [
        ("baseline", 2, 0, 3, 2, 0),
        ("baseline", 2, 1, 3, 1, 0),
        ("alt", 2, 0, 1, 0, 1),
        ("alt", 2, 1, 1, 0, 1),
    ]
    expected_rates = [2 / 3, 1 / 3, 0.0, 0.0]
    expected_intervals = [wilson_interval(2, 3), wilson_interval(1, 3), wilson_interval(0, 1), wilson_interval(0, 1)]
    for row, rate, (low, high) in zip(frame.iter_rows(named=True), expected_rates, expected_intervals, strict=True):
        assert _close(row["win_rate"], rate)
        assert _close(row["ci_low"], low) and _close(row["ci_high"], high)


def test_win_rate_by_agent_follows_the_agent_across_seats(handmade: duckdb.DuckDBPyConnection) -> None:
    frame = win_rate_by_agent(handmade)
    # A won all three baseline games (seat 0, seat 1, seat 0); B none.
    assert _rows(frame, "variant", "agent", "games", "wins", "draws", "win_rate") == [
        ("baseline", "A", 3, 3, 0, 1.0),
        ("baseline", "B", 3, 0, 0, 0.0),
        ("alt", "A", 1, 0, 1, 0.0),
        ("alt", "B", 1, 0, 1, 0.0),
    ]
    low, high = wilson_interval(3, 3)
    first = frame.row(0, named=True)
    assert _close(first["ci_low"], low) and first["ci_high"] == high == 1.0


def test_game_length_gives_the_turn_statistics_and_end_reason_shares_worked_out(
        handmade: duckdb.DuckDBPyConnection) -> None:
    frame = game_length(handmade)
    assert frame.columns == [
        "variant", "n_players", "games", "mean_turns", "min_turns", "max_turns", "p50_turns", "p90_turns",
        "mean_decisions", "draw_rate", "end_deck_exhausted", "end_rounds_complete"]
    baseline, alt = frame.iter_rows(named=True)
    # baseline turns 5, 4, 3: mean 4, median 4; p90 interpolates at position
    # 0.9 * (3 - 1) = 1.8 of the sorted list [3, 4, 5]: 4 + 0.8 * (5 - 4) = 4.8.
    assert (baseline["variant"], baseline["games"], baseline["min_turns"], baseline["max_turns"]) == (
        "baseline", 3, 3, 5)
    assert _close(baseline["mean_turns"], 4.0) and _close(baseline["p50_turns"], 4.0)
    assert _close(baseline["p90_turns"], 4.8)
    assert _close(baseline["mean_decisions"], 30.0)  # (40 + 30 + 20) / 3
    assert _close(baseline["end_rounds_complete"], 2 / 3) and _close(baseline["end_deck_exhausted"], 1 / 3)
    assert baseline["draw_rate"] == 0.0
    assert (alt["variant"], alt["games"], alt["p90_turns"], alt["mean_decisions"]) == ("alt", 1, 4.0, 35.0)
    assert (alt["draw_rate"], alt["end_rounds_complete"], alt["end_deck_exhausted"]) == (1.0, 1.0, 0.0)


def test_card_table_counts_seat_games_and_win_rates_as_worked_out_per_agent(
        handmade: duckdb.DuckDBPyConnection) -> None:
    frame = card_table(handmade)
    assert _rows(frame, "variant", "agent", "card", "games_drawn", "times_drawn", "games_played", "times_played",
                 "wins_when_played", "wins_when_drawn") == [
        # A held x in (0,0) drawn 2, played 1, won and (1,1) drawn 1, played 2, won: 2 seat-games,
        # 3 draws, 3 plays, both won. A's y: (2,0) drawn 3, never played, won.
        ("baseline", "A", "x", 2, 3, 2, 3, 2, 2),
        ("baseline", "A", "y", 1, 3, 0, 0, 0, 1),
        # B: y (1,0) drawn 1, played 1, lost (rate 0, before the never-played x); x (0,1) drawn 1,
        # lost; its treasure-only row (2,1) counts nowhere.
        ("baseline", "B", "y", 1, 1, 1, 1, 0, 0),
        ("baseline", "B", "x", 1, 1, 0, 0, 0, 0),
        # z: drawn once by A in a drawn game, never played.
        ("alt", "A", "z", 1, 1, 0, 0, 0, 0),
    ]
    ax, ay, by, bx, az = frame.iter_rows(named=True)
    assert ax["win_rate_when_played"] == 1.0 and ax["win_rate_when_drawn"] == 1.0
    # One seat-game per game: the clustered interval is the plain Wilson interval.
    assert (ax["played_ci_low"], ax["played_ci_high"]) == pytest.approx(wilson_interval(2, 2), abs=1e-12)
    assert by["win_rate_when_played"] == 0.0 and by["win_rate_when_drawn"] == 0.0
    assert (by["played_ci_low"], by["played_ci_high"]) == pytest.approx(wilson_interval(0, 1), abs=1e-12)
    # Never played: no rate, and the interval is all of [0, 1].
    assert az["win_rate_when_played"] is None and (az["played_ci_low"], az["played_ci_high"]) == (0.0, 1.0)
    assert ay["win_rate_when_drawn"] == 1.0 and bx["win_rate_when_drawn"] == 0.0


def test_card_table_of_one_agent_counts_only_the_seats_it_held(handmade: duckdb.DuckDBPyConnection) -> None:
    # A held: game 0 seat 0, game 1 seat 1, game 2 seat 0 (baseline); game 0 seat 0 (alt).
    # So A's rows: x (0,0) and (1,1); y (2,0); z (0,0). B's: x (0,1), (2,1) treasure only; y (1,0).
    assert _rows(card_table(handmade, agent="A"), "variant", "card", "games_drawn", "times_drawn",
                 "games_played", "times_played", "wins_when_played", "wins_when_drawn") == [
        ("baseline", "x", 2, 3, 2, 3, 2, 2),
        ("baseline", "y", 1, 3, 0, 0, 0, 1),
        ("alt", "z", 1, 1, 0, 0, 0, 0),
    ]
    assert _rows(card_table(handmade, agent="B"), "variant", "card", "games_drawn", "games_played",
                 "wins_when_played") == [
        ("baseline", "y", 1, 1, 0),  # played once, lost: rate 0, sorted before the never-played x
        ("baseline", "x", 1, 0, 0),
    ]
    assert card_table(handmade, agent="nobody").height == 0


def test_metric_columns_have_integer_counts_and_float_rates(handmade: duckdb.DuckDBPyConnection) -> None:
    # Counts must not come back as Decimal/Int128 (DuckDB's count_if and sum of
    # small ints do): they would print oddly and break JSON.
    for frame in (win_rate_by_seat(handmade), win_rate_by_agent(handmade), card_table(handmade)):
        for name, dtype in frame.schema.items():
            if name in ("variant", "agent", "card"):
                assert dtype == pl.String
            elif "rate" in name or "ci_" in name:
                assert dtype == pl.Float64, name
            else:
                assert dtype.is_integer() and dtype != pl.Int128, (name, dtype)


# ---------------------------------------------------------------- the real experiment


def test_real_experiment_has_one_row_per_game_and_two_per_game_in_players(small_experiment: SmallExperiment) -> None:
    spec = small_experiment.spec
    con = open_catalog(small_experiment.folder)
    try:
        games = con.execute("SELECT count(*) FROM games").fetchone()
        players = con.execute("SELECT count(*) FROM players").fetchone()
        assert games == (spec.games * len(spec.variants),)
        assert players == (2 * spec.games * len(spec.variants),)
        per_variant = con.execute("""
            SELECT variant, count(*), count(DISTINCT game_index), min(game_index), max(game_index)
            FROM games GROUP BY variant ORDER BY variant""").fetchall()
        assert per_variant == [("baseline", 300, 300, 0, 299), ("four_rounds", 300, 300, 0, 299)]
        seats = con.execute("SELECT DISTINCT count(*) FROM players GROUP BY variant, game_index").fetchall()
        assert seats == [(2,)]
        assert con.execute("SELECT DISTINCT experiment FROM games").fetchall() == [("divvy_small",)]
    finally:
        con.close()


def _read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(str(folder / table / "*" / "*.parquet"))


def test_real_win_rates_by_seat_agree_with_an_independent_polars_computation(
        small_experiment: SmallExperiment) -> None:
    players = _read(small_experiment.folder, "players")
    games = _read(small_experiment.folder, "games").select("variant", "n_players", "game_index", "draw")
    expected = (
        players.join(games, on=["variant", "n_players", "game_index"])
        .group_by("variant", "n_players", "seat")
        .agg(games=pl.len(), wins=pl.col("won").sum(), draws=pl.col("draw").sum())
        .sort("variant", "seat")
    )
    con = open_catalog(small_experiment.folder)
    try:
        actual = win_rate_by_seat(con)
    finally:
        con.close()
    assert_frame_equal(actual.select(expected.columns).sort("variant", "seat"), expected, check_dtypes=False)
    rates = (actual["wins"] / actual["games"]).to_list()
    assert actual["win_rate"].to_list() == pytest.approx(rates, abs=1e-12)
    for row in actual.iter_rows(named=True):
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_interval(row["wins"], row["games"]), abs=1e-12)
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]


def test_real_card_table_agrees_with_an_independent_polars_computation(small_experiment: SmallExperiment) -> None:
    players = _read(small_experiment.folder, "players").select("variant", "n_players", "game_index", "seat", "agent")
    cards = _read(small_experiment.folder, "cards").join(players, on=["variant", "n_players", "game_index", "seat"])
    expected = (
        cards.group_by("variant", "n_players", "agent", "card")
        .agg(games_drawn=(pl.col("drawn") > 0).sum(), times_drawn=pl.col("drawn").cast(pl.Int64).sum(),
             games_played=(pl.col("played") > 0).sum(), times_played=pl.col("played").cast(pl.Int64).sum(),
             wins_when_played=((pl.col("played") > 0) & pl.col("won")).sum())
        .sort("variant", "agent", "card")
    )
    con = open_catalog(small_experiment.folder)
    try:
        actual = card_table(con)
    finally:
        con.close()
    assert actual.height == 2 * 2 * 48  # every one of the 48 cards is seen by both agents in 300 games
    assert_frame_equal(actual.select(expected.columns).sort("variant", "agent", "card"), expected,
                       check_dtypes=False)
    # Sorted best first within each variant and agent.
    for (variant, agent), group in actual.group_by(["variant", "agent"]):
        rates = group["win_rate_when_played"].to_list()
        assert rates == sorted(rates, reverse=True), (variant, agent)


def test_cards_of_a_strong_and_a_weak_agent_are_never_pooled_into_one_rate(
        small_experiment: SmallExperiment) -> None:
    # divvy_baseline seats the heuristic against random: pooled, every card's
    # win rate sits near 50%; per agent, near the agent's own win rate.
    con = open_catalog(small_experiment.folder)
    try:
        table, stats = card_table(con), card_stats(con)
        agents = win_rate_by_agent(con).filter(pl.col("variant") == "baseline")
    finally:
        con.close()
    assert set(table["agent"]) == set(stats["agent"]) == {"heuristic", "random"}
    strong = agents.filter(pl.col("agent") == "heuristic")["win_rate"][0]
    heuristic = stats.filter((pl.col("variant") == "baseline") & (pl.col("agent") == "heuristic"))
    random = stats.filter((pl.col("variant") == "baseline") & (pl.col("agent") == "random"))
    assert strong > 0.9
    assert (heuristic["gih_win_rate"] > 0.8).all() and (random["gih_win_rate"] < 0.2).all()
    assert heuristic.height == random.height == 48


def test_real_game_length_shares_add_up_to_one_per_variant(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        frame = game_length(con)
    finally:
        con.close()
    shares = frame.select(pl.sum_horizontal(pl.col("^end_.*$"))).to_series().to_list()
    assert shares == pytest.approx([1.0, 1.0], abs=1e-12)
    four = frame.filter(pl.col("variant") == "four_rounds").row(0, named=True)
    assert four["max_turns"] <= 4  # rules.rounds = 4 caps the game at four rounds
