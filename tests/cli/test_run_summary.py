"""``cardlab run`` ends with its summary: each shard task counts its own rows for
the report (``workers.counts``), so the driver counts nothing after the summary's
wall time is taken, and the first report reads the tasks' counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics import partials
from cardlab.cli import main


def test_a_run_counts_nothing_after_its_summary_and_its_first_report_counts_no_shard_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def counted_in_the_driver(*arguments: object) -> None:
        raise AssertionError("a shard was counted in the driver")

    monkeypatch.setattr(partials, "_compute_shard", counted_in_the_driver)
    spec_file = tmp_path / "summary.toml"
    spec_file.write_text('name = "summary"\ngame = "divvy"\ngames = 60\nseed = 3\nshard_size = 20\n')
    results = tmp_path / "results"
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("games: 60 in ") and lines[-1].startswith("next: cardlab report summary")
    assert main(["report", "summary", "--results", str(results)]) == 0
    assert "games" in capsys.readouterr().out
    assert not (results / "summary" / partials.CACHE_FOLDER / partials.CACHE_VERSION).exists()
