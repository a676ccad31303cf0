"""Every metric works on every registered game: the full report over a small
experiment of each game in ``simcore.registry.GAMES``."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.report import DOCUMENT_FORMATS, build_report, render_report, write_report_csv
from experiments.spec import parse_spec
from simcore.registry import GAMES
from tests.conftest import write_experiment


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_full_report_runs_on_a_small_experiment_of_every_registered_game(game_id: str, tmp_path: Path) -> None:
    info = GAMES[game_id].info
    counts = sorted({info.min_players, info.max_players})
    # A second variant with no overrides, on the baseline's seeds: the same
    # games again, so every paired comparison must find no difference at all.
    spec = parse_spec({"name": f"every_{game_id}", "game": game_id, "games": 16, "shard_size": 8,
                       "player_counts": counts, "agents": ["random"], "variants": {"again": {}},
                       "paired_seeds": True}, f"every game test ({game_id})")
    folder = write_experiment(spec, tmp_path)

    report = build_report(folder)
    for fmt in DOCUMENT_FORMATS:
        text = render_report(report, fmt, card_rows=3)
        assert text.endswith("\n") and f"every_{game_id}" in text
    written = write_report_csv(report, tmp_path / "csv")
    data = json.loads(render_report(report, "json"))
    assert [path.stem for path in written] == ["summary", *data["tables"]]
    applying = {"seat_stats", "agent_stats", "game_stats", "card_stats", "variant_deltas"}
    assert applying - ({"seat_stats"} if report.cooperative else set()) <= set(data["tables"])

    assert report.seat_stats.height == sum(counts) * 2  # every seat of every player count, two variants
    assert set(report.game_stats["games"]) == {16}
    deltas = report.variant_deltas
    assert deltas.height > 0
    assert set(deltas.filter(pl.col("family").is_in(["seat", "agent", "faction"]))["test"]) == {"mcnemar"}
    assert deltas["delta"].drop_nulls().abs().max() == 0.0
    assert deltas["p_value"].drop_nulls().min() == pytest.approx(1.0)

    con = open_catalog(folder, metrics=False)
    try:
        has_factions = con.sql("SELECT count(*) FROM players WHERE faction IS NOT NULL").fetchall()[0][0] > 0
    finally:
        con.close()
    assert (report.faction_stats.height > 0) == has_factions
