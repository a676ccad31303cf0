"""A sweep runs as one job; each grid point's values are columns of `games`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main

SPEC = """
name = "sweep"
game = "divvy"
games = 60
seed = 1
agents = ["heuristic", "random"]
shard_size = 30

[sweep]
"rules.rounds" = [2, 3]
"rules.hand_limit" = [5, 6]
"""


@pytest.mark.usefixtures("shared_ray")
def test_a_sweep_runs_every_grid_point_and_sql_groups_by_the_swept_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = tmp_path / "sweep.toml"
    spec_file.write_text(SPEC)
    results = tmp_path / "results"
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--workers", "2"]) == 0
    assert "shards: 10 played of 10" in capsys.readouterr().out

    query = ('SELECT "rules.rounds", "rules.hand_limit", count(*) AS games, max(turns) AS most_rounds, '
             "count(DISTINCT variant) AS variants FROM games GROUP BY ALL ORDER BY ALL")
    assert main(["sql", "sweep", query, "--results", str(results), "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    by_point = {(row["rules.rounds"], row["rules.hand_limit"]): row for row in rows}
    # The baseline (5 rounds, hand limit 5) plus the four grid points.
    assert set(by_point) == {(5, 5), (2, 5), (2, 6), (3, 5), (3, 6)}
    for (rounds, _), row in by_point.items():
        assert row["games"] == 60
        assert row["variants"] == 1
        assert row["most_rounds"] == rounds
