"""Targets against the metric views: misses and their intervals, verdicts, joint confidence."""

from __future__ import annotations

import math

import pytest

from analytics.catalog import open_catalog
from analytics.stats import Z95, wilson_interval, z_for_confidence
from analytics.tuning import (
    MET,
    NO_ROWS,
    NOT_MET,
    UNDECIDED,
    combine_verdicts,
    evaluate,
    evaluate_jointly,
    joint_confidence,
    pareto_layers,
    row_miss,
    row_verdict,
    summarise_target,
    target_rows,
    use_confidence,
)
from experiments.tuning import Target
from tests.conftest import SmallExperiment

BAND = (0.45, 0.55)


def test_a_value_inside_the_band_misses_by_nothing() -> None:
    assert row_miss(0.50, 0.47, 0.53, BAND) == (0.0, 0.0, 0.0)


def test_a_value_outside_misses_by_its_distance_and_its_interval_by_the_nearest_and_farthest_ends() -> None:
    miss, low, high = row_miss(0.60, 0.58, 0.62, BAND)
    assert (miss, low, high) == pytest.approx((0.05, 0.03, 0.07))
    # An interval that reaches into the band: the miss could be 0.
    assert row_miss(0.57, 0.54, 0.60, BAND) == pytest.approx((0.02, 0.0, 0.05))
    # Below the band, the far end is the low one.
    assert row_miss(0.40, 0.38, 0.43, BAND) == pytest.approx((0.05, 0.02, 0.07))
    # An interval wider than the band on both sides: the miss interval's top is the larger overhang.
    assert row_miss(0.50, 0.40, 0.58, BAND) == pytest.approx((0.0, 0.0, 0.05))


def test_verdicts_need_the_whole_interval_inside_or_outside() -> None:
    assert row_verdict(0.46, 0.54, BAND) == MET
    assert row_verdict(0.56, 0.60, BAND) == NOT_MET
    assert row_verdict(0.30, 0.44, BAND) == NOT_MET
    assert row_verdict(0.50, 0.56, BAND) == UNDECIDED
    assert row_verdict(-math.inf, 0.50, (-math.inf, 0.55)) == MET
    assert combine_verdicts([MET, MET]) == MET
    assert combine_verdicts([MET, UNDECIDED]) == UNDECIDED
    assert combine_verdicts([UNDECIDED, NOT_MET, MET]) == NOT_MET
    assert combine_verdicts([]) == NO_ROWS


def test_a_target_takes_its_worst_row_and_the_largest_miss_bounds() -> None:
    target = Target("parties", "faction_stats", "win_rate", -0.03, 0.03, around="expected")
    rows = [
        {"row": "a", "value": 0.26, "low": 0.24, "high": 0.28, "band_low": 0.22, "band_high": 0.28},
        {"row": "b", "value": 0.31, "low": 0.27, "high": 0.35, "band_low": 0.22, "band_high": 0.28},
        {"row": "c", "value": 0.20, "low": 0.19, "high": 0.21, "band_low": 0.22, "band_high": 0.28},
    ]
    result = summarise_target(target, rows)
    assert result.worst_row == "b" and result.rows == 3
    assert result.miss == pytest.approx(0.03)
    assert result.miss_low == pytest.approx(0.01)  # row c lies surely below the band by at least 0.01
    assert result.miss_high == pytest.approx(0.07)  # row b's interval could reach 0.35
    assert result.verdict == NOT_MET  # row c's whole interval is below
    assert target.band({"expected": 0.25}) == pytest.approx((0.22, 0.28))


def test_pareto_layers_sort_points_by_dominance() -> None:
    points = [(0.0, 3.0), (0.1, 1.0), (0.2, 2.0), (0.3, 0.0), (0.2, 1.5), (0.0, 3.0)]
    assert pareto_layers(points) == [0, 0, 2, 0, 1, 0]


def test_joint_confidence_is_bonferroni() -> None:
    assert joint_confidence(0.95, 1) == pytest.approx(0.95)
    assert joint_confidence(0.95, 5) == pytest.approx(0.99)


def test_rate_targets_read_the_views_wilson_intervals_and_joint_ones_at_the_bonferroni_level(
        small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder, cached=True)
    try:
        seat0 = Target("seat 0", "seat_stats", "win_rate", 0.45, 0.55, where={"seat": 0})
        (row,) = target_rows(con, seat0, ["baseline"])
        wins, games = con.execute("SELECT wins, games FROM seat_stats WHERE variant = 'baseline' AND seat = 0"
                                  ).fetchone() or (0, 0)
        assert (row["low"], row["high"]) == pytest.approx(wilson_interval(wins, games, 0.95), abs=1e-12)
        assert row["value"] == pytest.approx(wins / games)
        z = use_confidence(con, 0.99)
        assert z == pytest.approx(z_for_confidence(0.99))
        (again,) = target_rows(con, seat0, ["baseline"], z)
        assert (again["low"], again["high"]) == pytest.approx(wilson_interval(wins, games, 0.99), abs=1e-12)
        use_confidence(con, 0.95)
        # Two targets of one row each: every interval at 97.5%, so both hold together at 95%.
        seat1 = Target("seat 1", "seat_stats", "win_rate", 0.45, 0.55, where={"seat": 1})
        joint = evaluate_jointly(con, [seat0, seat1], ["baseline"])["baseline"]
        assert joint.confidence == pytest.approx(0.975)
        assert (joint.targets[0].low, joint.targets[0].high) == pytest.approx(
            wilson_interval(wins, games, 0.975), abs=1e-12)
        assert evaluate(con, [seat0], ["baseline"])["baseline"].targets[0].low == pytest.approx(row["low"])
    finally:
        con.close()


def test_joint_intervals_hold_over_every_confirmed_variant_together(small_experiment: SmallExperiment) -> None:
    # The answer is chosen among the confirmed variants, so their rows form one family: two
    # variants of one row each are judged at 97.5%, as two rows of one variant are.
    con = open_catalog(small_experiment.folder, cached=True)
    try:
        seat0 = Target("seat 0", "seat_stats", "win_rate", 0.45, 0.55, where={"seat": 0})
        joint = evaluate_jointly(con, [seat0], ["baseline", "four_rounds"])
        counts = dict(con.execute("SELECT variant, (wins, games) FROM seat_stats WHERE seat = 0").fetchall())
    finally:
        con.close()
    for variant in ("baseline", "four_rounds"):
        assert joint[variant].confidence == pytest.approx(0.975)
        wins, games = counts[variant]
        assert (joint[variant].targets[0].low, joint[variant].targets[0].high) == pytest.approx(
            wilson_interval(wins, games, 0.975), abs=1e-12)


def test_a_mean_target_uses_the_normal_interval_of_the_mean(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder, cached=True)
    try:
        turns = Target("length", "game_stats", "mean_turns", 4.0, 6.0)
        rows = target_rows(con, turns, ["baseline", "four_rounds"])
        stats = {variant: (mean, sd, games) for variant, mean, sd, games in con.execute(
            "SELECT variant, mean_turns, sd_turns, games FROM game_stats").fetchall()}
        assert [row["variant"] for row in rows] == ["baseline", "four_rounds"]
        for row in rows:
            mean, sd, games = stats[row["variant"]]
            assert row["value"] == pytest.approx(mean)
            assert row["high"] - row["value"] == pytest.approx(Z95 * sd / math.sqrt(games))
        result = evaluate(con, [turns], ["four_rounds"])["four_rounds"]
        assert result.targets[0].value == pytest.approx(stats["four_rounds"][0])
        assert result.miss == pytest.approx(max(0.0, 4.0 - stats["four_rounds"][0]))
    finally:
        con.close()


def test_a_candidate_without_rows_for_a_target_cannot_be_judged(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder, cached=True)
    try:
        nobody = Target("seat 5", "seat_stats", "win_rate", 0.45, 0.55, where={"seat": 5})
        evaluation = evaluate(con, [nobody], ["baseline"])["baseline"]
        assert evaluation.failed and evaluation.targets[0].verdict == NO_ROWS
    finally:
        con.close()


def test_a_band_around_another_column_moves_with_each_row(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder, cached=True)
    try:
        share = Target("fair shares", "seat_stats", "win_share", -0.04, 0.04, around="fair_share")
        rows = target_rows(con, share, ["baseline"])
        assert [row["row"] for row in rows] == ["2 players, seat 0", "2 players, seat 1"]
        assert all((row["band_low"], row["band_high"]) == pytest.approx((0.46, 0.54)) for row in rows)
        shares = dict(con.execute("SELECT seat, win_share FROM seat_stats WHERE variant = 'baseline'").fetchall())
        assert [row["value"] for row in rows] == pytest.approx([shares[0], shares[1]])
    finally:
        con.close()


def test_a_means_interval_follows_the_joint_level_as_the_rates_do() -> None:
    # run_stats.mean_level's interval is a normal one (normal_z()), which use_confidence
    # redefines with the Wilson macros: a "joint" verdict must not rest on a 95% interval.
    from analytics.metrics import probe_connection
    from experiments.spec import parse_spec

    probe = parse_spec({"name": "levels", "game": "party_wanted", "agents": ["random"], "player_counts": [2],
                        "games": 60, "seed": 4}, "inline")
    con = probe_connection(probe)
    try:
        level = Target("level", "run_stats", "mean_level", 1.0, 2.0)
        wins = Target("wins", "party_size_stats", "win_rate", 0.4, 0.6)
        (at_95,) = target_rows(con, level, ["baseline"])
        assert at_95["low"] < at_95["value"]  # a real interval, not clamped to the value
        joint = evaluate_jointly(con, [level, wins], ["baseline"])["baseline"]
    finally:
        con.close()
    z = z_for_confidence(joint_confidence(0.95, 2))
    (result, _) = joint.targets
    assert result.low == pytest.approx(at_95["value"] - (at_95["value"] - at_95["low"]) * z / Z95)
    assert result.high >= at_95["high"]
