"""``make bench-report`` at a small size: the synthesized experiment matches the dataset
contract (every file verifies against its manifest, the row counts are the games asked for)
and ``cardlab report`` runs on it, cold and warm."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb

from analytics.benchmark import NAME
from cardlab.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _benchmark(results: Path, *extra: str) -> str:
    """``python -m analytics.benchmark`` as ``make bench-report`` runs it, with 20,000 games."""
    done = subprocess.run([sys.executable, "-m", "analytics.benchmark", "--games", "20000", "--shard-size", "5000",
                           "--results", str(results), *extra], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_report_benchmark_synthesizes_a_verifiable_experiment_and_times_its_report(tmp_path: Path) -> None:
    cold = _benchmark(tmp_path, "--cold")
    assert f"cardlab report {NAME} --format text, cold (count cache rebuilt): " in cold
    warm = _benchmark(tmp_path)  # the experiment is reused, the count cache kept
    assert f"cardlab report {NAME} --format text, warm: " in warm
    assert main(["verify", NAME, "--results", str(tmp_path)]) == 0
    folder = tmp_path / NAME
    con = duckdb.connect()
    counts = {table: con.execute(f"SELECT count(*) FROM read_parquet('{folder}/{table}/*/*.parquet')").fetchall()
              for table in ("games", "players")}
    assert counts == {"games": [(20_000,)], "players": [(40_000,)]}
    played_beyond_playable = con.execute(
        f"SELECT count(*) FROM read_parquet('{folder}/cards/*/*.parquet') WHERE played > 0 AND playable = 0")
    assert played_beyond_playable.fetchall() == [(0,)]  # a card played was playable at least once
