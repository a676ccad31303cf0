"""Faction powers (``analytics.powers.power_stats``, the report's ``powers`` section): on a
hand-made players table whose answers are worked out below, and on a small real Ring of
Chaos experiment against the players rows; a game without power columns has no section."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.findings import findings
from analytics.powers import NEVER_USED, power_stats
from analytics.report import build_report, render_report
from analytics.sections import sections_help
from analytics.stats import clustered_effective_n, register_sql_macros, wilson_interval
from tests.conftest import SmallExperiment, write_experiment
from tests.dashboard.conftest import tiny_spec

# Hand-made: 10 games of 2 players, agent "h" at seat 0, "r" at seat 1.
#   h plays "Thieves" (an active power) in every game: offered 4 times a game, used twice in
#     games 0-5 (h wins games 0-4, loses game 5), never in games 6-9 (h wins game 6 only).
#   r plays "Brutes" in games 0-4 (passive: never offered, takes effect once a game) and
#     "Quiet" in games 5-9 (offered 3 times a game, never used).


def handmade_players() -> pl.DataFrame:
    """The players rows described above."""
    rows = []
    for game in range(10):
        h_won = game <= 4 or game == 6
        rows.append({"variant": "baseline", "n_players": 2, "game_index": game, "seat": 0, "agent": "h",
                     "faction": "Thieves", "won": h_won, "power_playable": 4, "power_used": 2 if game <= 5 else 0})
        rows.append({"variant": "baseline", "n_players": 2, "game_index": game, "seat": 1, "agent": "r",
                     "faction": "Brutes" if game <= 4 else "Quiet", "won": not h_won,
                     "power_playable": 0 if game <= 4 else 3, "power_used": 1 if game <= 4 else 0})
    return pl.DataFrame(rows)


@pytest.fixture
def handmade() -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection whose ``players`` view holds the hand-made rows, with the statistics macros."""
    con = duckdb.connect()
    register_sql_macros(con)
    frame = handmade_players()
    con.register("players_frame", frame.to_arrow())
    con.execute("CREATE VIEW players AS SELECT * FROM players_frame")
    yield con
    con.close()


def row_of(stats: pl.DataFrame, faction: str) -> dict[str, Any]:
    """The power row of ``faction``."""
    return stats.filter(pl.col("faction") == faction).row(0, named=True)


def test_uses_per_game_and_the_use_rate_when_playable_count_uses_over_seat_games_and_offers(
        handmade: duckdb.DuckDBPyConnection) -> None:
    stats = power_stats(handmade)
    assert stats.select("agent", "faction").rows() == [("h", "Thieves"), ("r", "Brutes"), ("r", "Quiet")]
    thieves = row_of(stats, "Thieves")
    assert (thieves["seat_games"], thieves["games"], thieves["times_used"], thieves["times_playable"]) == (
        10, 10, 12, 40)
    assert thieves["uses_per_game"] == pytest.approx(1.2)
    # Per game u = 2 (six games) or 0 (four): the cluster-robust sd of the mean is the plain one,
    # sqrt(sum (u - 1.2)^2) / 10, and the interval mean +- 1.96 of it.
    se = math.sqrt(6 * 0.8 ** 2 + 4 * 1.2 ** 2) / 10
    assert thieves["uses_per_game_low"] == pytest.approx(1.2 - 1.959963984540054 * se)
    assert thieves["use_rate"] == pytest.approx(12 / 40)
    # Per game n_g = 4 offers, w_g = 2 uses (six games) or 0: the sums clustered_n reads.
    effective = min(40.0, clustered_effective_n(40, 12, 10 * 4 * 4, 6 * 2 * 2, 6 * 4 * 2, 10))
    assert thieves["use_rate_effective_n"] == pytest.approx(effective)
    low, high = wilson_interval(0.3 * effective, effective)
    assert (thieves["use_rate_low"], thieves["use_rate_high"]) == pytest.approx((low, high))
    assert not thieves["passive"] and not thieves["never_used"]


def test_win_rates_when_used_and_never_are_wilson_intervals_over_games(
        handmade: duckdb.DuckDBPyConnection) -> None:
    thieves = row_of(power_stats(handmade), "Thieves")
    # Used in games 0-5 (won 5 of 6), never in 6-9 (won 1 of 4); one seat-game per game.
    assert (thieves["games_used"], thieves["games_unused"]) == (6, 4)
    assert thieves["used_win_rate"] == pytest.approx(5 / 6) and thieves["unused_win_rate"] == pytest.approx(1 / 4)
    assert thieves["used_win_rate_effective_n"] == pytest.approx(6)
    assert (thieves["used_win_rate_low"], thieves["used_win_rate_high"]) == pytest.approx(wilson_interval(5, 6))
    assert (thieves["unused_win_rate_low"], thieves["unused_win_rate_high"]) == pytest.approx(wilson_interval(1, 4))
    assert thieves["used_effect"] == pytest.approx(5 / 6 - 1 / 4)


def test_a_passive_power_has_no_use_rate_and_a_power_offered_but_never_used_is_flagged(
        handmade: duckdb.DuckDBPyConnection) -> None:
    stats = power_stats(handmade)
    brutes, quiet = row_of(stats, "Brutes"), row_of(stats, "Quiet")
    assert brutes["passive"] and brutes["use_rate"] is None and brutes["uses_per_game"] == pytest.approx(1.0)
    assert not brutes["never_used"]
    assert quiet["never_used"] and quiet["times_playable"] == 15 and quiet["use_rate"] == pytest.approx(0.0)
    assert (quiet["games_used"], quiet["games_unused"]) == (0, 5)


def test_a_game_without_power_columns_has_no_power_rows(handmade: duckdb.DuckDBPyConnection) -> None:
    handmade.execute("CREATE OR REPLACE VIEW players AS SELECT * EXCLUDE (power_playable, power_used) "
                     "FROM players_frame")
    assert power_stats(handmade).is_empty()


@pytest.fixture(scope="module")
def ring(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dashboard tests' tiny Ring of Chaos experiment (3 and 4 players, two variants)."""
    return write_experiment(tiny_spec("ring_tiny"), tmp_path_factory.mktemp("powers"))


def test_on_ring_of_chaos_the_power_table_adds_up_the_players_rows_per_agent_and_party(ring: Path) -> None:
    con = open_catalog(ring)
    try:
        stats = power_stats(con)
        rows = con.sql("SELECT variant, n_players, agent, faction, count(*) AS n, sum(power_used) AS used, "
                       "sum(power_playable) AS playable, count(*) FILTER (WHERE power_used > 0) AS n_used "
                       "FROM players GROUP BY ALL").pl()
    finally:
        con.close()
    joined = stats.join(rows, on=["variant", "n_players", "agent", "faction"])
    assert joined.height == stats.height == rows.height
    assert (joined["seat_games"] == joined["n"]).all() and (joined["times_used"] == joined["used"]).all()
    assert (joined["times_playable"] == joined["playable"]).all() and (joined["games_used"] == joined["n_used"]).all()
    passive = set(stats.filter(pl.col("passive"))["faction"])
    assert passive <= {"Brute Squad", "Giant Slayers"}  # the two passive powers (RULES.md)


def test_the_report_has_a_powers_section_for_ring_of_chaos_and_none_for_divvy(
        ring: Path, small_experiment: SmallExperiment) -> None:
    report = build_report(ring)
    text = render_report(report, "text")
    assert "Powers used: baseline, 3 players, heuristic" in text
    assert "Powers, win rate when used: baseline, 4 players, heuristic" in text
    assert "power_stats" in render_report(report, "json", sections=["powers"])
    assert max(len(line) for line in text.splitlines()) <= 100
    divvy = build_report(small_experiment.folder)
    assert "Powers" not in render_report(divvy, "text")
    assert "records no faction powers" in render_report(divvy, "text", sections=["powers"])
    assert "powers: faction powers" in sections_help()


def test_a_power_never_used_is_a_finding_of_its_agent(handmade: duckdb.DuckDBPyConnection) -> None:
    found = [finding for finding in findings({"power_stats": power_stats(handmade)}, {}, cooperative=False)
             if finding.kind == "never_used"]
    assert len(found) == 1 and found[0].agent == "r" and found[0].subject == "Quiet"
    assert NEVER_USED in found[0].text and "an option 15 times in 5 games" in found[0].text
