"""The 95% interval of every variant delta (``variant_deltas.delta_low``/``delta_high``)
is the formula of its test, recomputed in Python from the view's own columns:
Newcombe's interval from the two Wilson intervals at the effective sample sizes
for unpaired rates, Welch's for means, the clustered paired interval for
seed-matched games."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.metrics import variant_deltas
from analytics.stats import Z95, newcombe_difference, paired_difference, wilson_interval
from tests.analytics.test_balance_metrics import write_games
from tests.conftest import SmallExperiment


def _wilson_at(rate: float, effective_n: float) -> tuple[float, float]:
    from analytics.stats import _wilson_high, _wilson_low

    return (_wilson_low(rate * effective_n, effective_n, Z95), _wilson_high(rate * effective_n, effective_n, Z95))


def test_unpaired_rate_deltas_carry_newcombe_intervals_and_means_welch_ones(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        deltas = variant_deltas(con)
        game_stats = con.sql("SELECT * FROM game_stats").pl()
    finally:
        con.close()
    assert deltas.height > 20 and {"z", "welch"} <= set(deltas["test"])  # rates and means both covered
    for row in deltas.filter(pl.col("test") == "z").iter_rows(named=True):
        low, high = newcombe_difference(row["baseline_value"], *_wilson_at(row["baseline_value"],
                                                                           row["baseline_effective_n"]),
                                        row["value"], *_wilson_at(row["value"], row["effective_n"]))
        assert (row["delta_low"], row["delta_high"]) == pytest.approx((low, high), abs=1e-9), row
        assert row["delta_low"] <= row["delta"] <= row["delta_high"]
    stats = {row["variant"]: row for row in game_stats.iter_rows(named=True)}
    for row in deltas.filter(pl.col("test") == "welch").iter_rows(named=True):
        column = row["metric"]
        base, variant = stats["baseline"], stats[row["variant"]]
        se = math.sqrt(base[f"sd_{column}"] ** 2 / base["games"] + variant[f"sd_{column}"] ** 2 / variant["games"])
        assert (row["delta_low"], row["delta_high"]) == pytest.approx(
            (row["delta"] - Z95 * se, row["delta"] + Z95 * se), abs=1e-9)


def test_a_seat_game_per_game_gives_the_plain_wilson_intervals_in_the_newcombe_interval(
        small_experiment: SmallExperiment) -> None:
    # Seat win rates count one seat-game per game: the effective n is the number of games.
    con = open_catalog(small_experiment.folder)
    try:
        seats = variant_deltas(con).filter(pl.col("family") == "seat")
    finally:
        con.close()
    for row in seats.iter_rows(named=True):
        assert row["effective_n"] == row["n"] and row["baseline_effective_n"] == row["baseline_n"]
        wins, base_wins = round(row["value"] * row["n"]), round(row["baseline_value"] * row["baseline_n"])
        low, high = newcombe_difference(row["baseline_value"], *wilson_interval(base_wins, row["baseline_n"]),
                                        row["value"], *wilson_interval(wins, row["n"]))
        assert (row["delta_low"], row["delta_high"]) == pytest.approx((low, high), abs=1e-9)


def test_seed_matched_deltas_carry_the_paired_interval(tmp_path: Path) -> None:
    # Six games on the same seeds; seat 0 wins baseline games 0-3 and 5, the variant's 3 and 5:
    # per game d = -1, -1, -1, 0, 0, 0, so Σd = -3, Σd² = 3, Δ = -1/2 and
    # Σ(d - Δ)² = 3 · 1/4 + 3 · 1/4 = 1.5: the interval is -1/2 ± 1.96 · sqrt(1.5) / 6.
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
    half = Z95 * math.sqrt(1.5) / 6
    assert (seat0["delta_low"], seat0["delta_high"]) == pytest.approx((-0.5 - half, -0.5 + half), abs=1e-12)
    statistic, p, low, high = paired_difference(6, -3, 3, -3, 6)
    assert (seat0["statistic"], seat0["p_value"]) == pytest.approx((statistic, p), abs=1e-12)
    assert (low, high) == pytest.approx((-0.5 - half, -0.5 + half), abs=1e-12)
