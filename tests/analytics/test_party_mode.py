"""Party mode on real Party Wanted games (issue 15): a party that revives after a wipe
wins almost always, so the report's runs section and findings give the wipes per game
and the level reached, computed from the ``games`` table's ``wipes`` and
``level_reached`` columns, and the cooperative report has no seat section."""

from __future__ import annotations

import json
import math
from pathlib import Path

import duckdb
import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.findings import HIGH_WIN_RATE
from analytics.report import Report, build_report, render_report
from analytics.stats import mean_variance
from experiments.spec import parse_spec
from tests.conftest import write_experiment

GAMES = 30


def party_experiment(root: Path, agent: str) -> tuple[Path, Report]:
    """30 games of four ``agent`` heroes, normal rules and Party mode; the folder and its report."""
    spec = parse_spec({"name": f"party_mode_{agent}", "game": "party_wanted", "games": GAMES, "shard_size": GAMES,
                       "player_counts": [4], "agents": [agent], "seed": 11,
                       "variants": {"party_mode": {"rules.party_mode": True}}}, "party mode test")
    folder = write_experiment(spec, root)
    return folder, build_report(folder)


@pytest.fixture(scope="module")
def party(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    """A random party: wiped in every normal game, reviving again and again in Party mode."""
    return party_experiment(tmp_path_factory.mktemp("party"), "random")


@pytest.fixture(scope="module")
def strong_party(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    """A heuristic party: it wins (nearly) every game, in either mode."""
    return party_experiment(tmp_path_factory.mktemp("strong-party"), "heuristic")


def test_the_runs_table_is_the_mean_wipes_and_level_of_the_games(party: tuple[Path, Report]) -> None:
    folder, report = party
    con = open_catalog(folder, metrics=False)
    try:
        expected = con.sql("""
            SELECT variant, count(*) AS games, avg(wipes) AS wipes_per_game, stddev_samp(wipes) AS wipes_sd,
                   avg(level_reached) AS mean_level, avg((wipes > 0)::INT) AS wipe_rate,
                   avg((winners <> [])::INT) AS win_rate
            FROM games GROUP BY variant""").pl()
    finally:
        con.close()
    runs = report.run_stats
    assert sorted(runs["variant"].to_list()) == ["baseline", "party_mode"]
    for row in runs.iter_rows(named=True):
        truth = expected.filter(pl.col("variant") == row["variant"]).row(0, named=True)
        assert row["games"] == truth["games"] == GAMES
        for name in ("wipes_per_game", "mean_level", "wipe_rate", "win_rate"):
            assert row[name] == pytest.approx(truth[name], abs=1e-12), name
        # The normal 95% interval of the mean wipes: mean +- 1.96 sd / sqrt(n), the variance at least
        # what 30 games without spread cannot rule out (every normal game wiped exactly once).
        half = 1.959963984540054 * math.sqrt(mean_variance((truth["wipes_sd"] or 0.0) ** 2, GAMES) / GAMES)
        assert row["wipes_per_game_low"] == pytest.approx(max(0.0, truth["wipes_per_game"] - half), abs=1e-9)
        assert row["wipes_per_game_high"] == pytest.approx(truth["wipes_per_game"] + half, abs=1e-9)


def test_party_mode_revives_the_party_so_the_wipes_and_the_level_tell_the_modes_apart(
        party: tuple[Path, Report]) -> None:
    _, report = party
    rows = {row["variant"]: row for row in report.run_stats.iter_rows(named=True)}
    # Without Party mode a wipe ends the run: at most one per game. With it the party goes on
    # and gets further, wiped many times: the wipes per game and the level say what the win rate cannot.
    assert rows["baseline"]["wipes_per_game"] <= rows["baseline"]["wipe_rate"] + 1e-12
    assert rows["party_mode"]["wipes_per_game_low"] > 1.0
    assert rows["party_mode"]["mean_level"] > rows["baseline"]["mean_level"]


def test_a_mean_count_s_interval_never_goes_below_zero(strong_party: tuple[Path, Report]) -> None:
    _, report = strong_party
    runs = report.run_stats
    assert (runs["wipes_per_game_low"] >= 0.0).all() and (runs["mean_level_low"] >= 0.0).all()
    assert (runs["wipes_per_game_low"] <= runs["wipes_per_game"]).all()
    assert (runs["mean_level_high"] <= runs["top_level"]).all()


def test_the_mean_level_s_interval_stops_at_the_last_level() -> None:
    # 97 games reach level 4 (the last), 3 stop at level 3: mean 3.97, sample variance
    # (97·0.03² + 3·0.97²)/99 = 0.0294, below what 100 games without spread cannot rule out
    # (u·(1 − u) with u = z²/(100 + z²), about 0.0356: analytics.stats.mean_variance), so the
    # interval is mean ± 1.96·sqrt(0.0356)/10, low 3.933; no game's level is above 4, so neither
    # is their mean: the high end is 4 (as wipes stop at 0).
    from analytics.stats import Z95, register_sql_macros
    from analytics.views.cooperative import RUN_STATS

    con = duckdb.connect()
    register_sql_macros(con)
    con.execute("""CREATE TABLE run_counts AS SELECT * FROM (VALUES
        ('e', 'baseline', 4, 4, 0, TRUE, 97), ('e', 'baseline', 4, 3, 1, FALSE, 3))
        AS t(experiment, variant, n_players, level_reached, wipes, won, games)""")
    row = con.sql(RUN_STATS).pl().row(0, named=True)
    sample_variance = (97 * 0.03 ** 2 + 3 * 0.97 ** 2) / 99
    share = Z95 ** 2 / (100 + Z95 ** 2)
    floor = share * (1 - share)
    assert sample_variance < floor
    assert row["mean_level"] == pytest.approx(3.97, abs=1e-12) and row["top_level"] == 4
    assert row["mean_level_low"] == pytest.approx(3.97 - Z95 * math.sqrt(floor) / 10, abs=1e-9)
    assert 3.97 + Z95 * math.sqrt(floor) / 10 > 4 and row["mean_level_high"] == 4.0
    # Wipes: 3 of 100 games with one, mean 0.03 - 1.96 sd/10 < 0: the low end is 0.
    assert row["wipes_per_game_low"] == 0.0 and row["wipes_per_game_high"] > row["wipes_per_game"]


def test_a_variant_won_almost_always_is_reported_with_its_wipes_and_level(
        party: tuple[Path, Report], strong_party: tuple[Path, Report]) -> None:
    assert not [finding for finding in party[1].findings if finding.kind == "runs"]  # the random party loses
    _, report = strong_party
    assert (report.run_stats["win_rate"] >= HIGH_WIN_RATE).any()
    found = {finding.variant: finding for finding in report.findings if finding.kind == "runs"}
    for row in report.run_stats.iter_rows(named=True):
        assert (row["variant"] in found) == (row["win_rate"] >= HIGH_WIN_RATE), row["variant"]
    for variant, finding in found.items():
        row = report.run_stats.filter(pl.col("variant") == variant).row(0, named=True)
        assert "which says little; wipes per game" in finding.text and "mean level reached" in finding.text
        assert f"{row['wipes_per_game']:.2f}" in finding.text and finding.n == GAMES


def test_the_cooperative_report_shows_runs_and_leaves_the_seat_tests_out(party: tuple[Path, Report]) -> None:
    _, report = party
    assert report.cooperative
    text = render_report(report, "text")
    assert "Runs: how far the party gets (cooperative; unit: the game)" in text
    assert "Win rate by seat" not in text and "Seat balance" not in text
    data = json.loads(render_report(report, "json"))
    assert "run_stats" in data["tables"] and "seat_stats" not in data["tables"]
    assert {row["variant"] for row in data["tables"]["run_stats"]} == {"baseline", "party_mode"}
