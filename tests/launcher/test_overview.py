"""The Experiments page's table with the launched runs: a queued run listed before it has a
folder, the launcher's cancelled state over the folder's, a failed run's one-line reason
(from the launcher, or from ``run.json`` for a run started with ``cardlab run``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from analytics.explore import experiment_overview
from dataset.storage import RUN_FILE
from drivers.launcher import cancel, launch, list_runs, overview_with_launched_runs
from tests.conftest import SmallExperiment
from tests.launcher.helpers import LOCAL, small_whatif


def test_launched_runs_and_failure_reasons_join_the_experiments_table(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    shutil.copytree(small_experiment.folder, tmp_path / "by_hand")
    (tmp_path / "by_hand" / "_manifest" / "four_rounds-2p-0000000200.json").unlink()
    (tmp_path / "by_hand" / RUN_FILE).write_text(json.dumps({"status": "failed: disk full", "ended": 1.0e9}))
    spec, text = small_whatif("waiting")
    launch(tmp_path, spec, text, LOCAL, None, start=False)
    spec, text = small_whatif("dropped")
    launch(tmp_path, spec, text, LOCAL, None, start=False)
    cancel(tmp_path, "dropped", LOCAL, None)
    table = overview_with_launched_runs(experiment_overview(tmp_path), list_runs(tmp_path), tmp_path)
    assert table.select("experiment", "status", "reason", "games_planned").rows() == [
        ("by_hand", "failed", "disk full", 600),
        ("dropped", "cancelled", "cancelled by local before it started", 80),
        ("waiting", "queued", "", 80),
    ]
    assert table.filter(table["experiment"] == "waiting")["description"].to_list() == ["cards.axes_12.copies = 0"]
