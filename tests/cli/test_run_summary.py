"""``cardlab run`` ends with its summary: each shard task counts its own rows for
the report (``workers.counts``), so the driver counts nothing after the summary's
wall time is taken, and the first report reads the tasks' counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics import partials
from cardlab.cli import main


@pytest.mark.usefixtures("shared_ray")
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
    assert lines[-2].startswith("games: 60 in ")
    # The printed follow-ups name the results folder this run used, so they run as printed.
    assert lines[-1] == (f"next: cardlab report summary --results {results}   |   "
                         f"cardlab sql summary --results {results} \"SELECT count(*) FROM games\"")
    assert main(["report", "summary", "--results", str(results)]) == 0
    assert "games" in capsys.readouterr().out
    assert not (results / "summary" / partials.CACHE_FOLDER / partials.CACHE_VERSION).exists()


@pytest.mark.usefixtures("shared_ray")
def test_the_follow_up_commands_leave_out_the_default_results_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDLAB_RESULTS", raising=False)
    (tmp_path / "plain.toml").write_text('name = "plain"\ngame = "divvy"\ngames = 20\nseed = 3\nshard_size = 20\n')
    assert main(["run", "plain.toml", "--no-progress", "--workers", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        'next: cardlab report plain   |   cardlab sql plain "SELECT count(*) FROM games"')
    assert (tmp_path / "results" / "plain" / "spec.json").is_file()
