"""An experiment stops early once every stop_when interval is narrow enough."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analytics.catalog import open_catalog
from analytics.metrics import target_widths
from drivers.run import run
from experiments.spec import SpecError, parse_spec
from workers.runner import RunError, RunOptions

pytestmark = pytest.mark.usefixtures("shared_ray")  # the runs play on the shared Ray of two CPUs

SPEC = {
    "name": "early", "game": "divvy", "games": 40000, "seed": 2, "agents": ["random"], "shard_size": 500,
    "variants": {"four_rounds": {"rules.rounds": 4}},
    "stop_when": [{"view": "seat_stats", "rate": "win_rate", "max_width": 0.09}],
}


def test_a_run_stops_once_every_target_interval_is_narrow_enough_with_every_variant_covered(tmp_path: Path) -> None:
    spec = parse_spec(SPEC, "early.toml")
    summary = run(spec, RunOptions(results_root=tmp_path, workers=2, progress=False))
    assert summary.stopped_early
    assert 0 < summary.games_played < spec.total_games / 4
    variants = [entry["variant"] for entry in summary.shard_entries]
    assert abs(variants.count("baseline") - variants.count("four_rounds")) <= 4
    connection = open_catalog(summary.experiment_dir, cached=True)
    widths = target_widths(connection, list(spec.stop_when))
    connection.close()
    assert widths["met"].all()
    status = json.loads((summary.experiment_dir / "run.json").read_text())["status"]
    assert status.startswith("stopped early")


def test_without_targets_every_game_is_played(tmp_path: Path) -> None:
    spec = parse_spec({**SPEC, "games": 1000, "stop_when": []}, "early.toml")
    summary = run(spec, RunOptions(results_root=tmp_path, workers=2, progress=False))
    assert not summary.stopped_early and summary.games_played == 2000


def test_a_target_naming_an_unknown_view_stops_the_run_with_one_line(tmp_path: Path) -> None:
    # A spec built in code skips load_checked_spec's check of the views (a file is refused
    # before Ray starts: tests/workers/test_run_endings.py); the run's own check names the target.
    spec = parse_spec({**SPEC, "stop_when": [{"view": "nonsense", "rate": "win_rate", "max_width": 0.1}]}, "early.toml")
    with pytest.raises(RunError, match=r"^early.toml: stop_when\[0\]\.view: expected one of "):
        run(spec, RunOptions(results_root=tmp_path, workers=2, progress=False))


@pytest.mark.parametrize(("target", "message"), [
    ({"view": "seat_stats", "rate": "win_rate", "max_width": 2}, "early.toml: stop_when[0].max_width: expected"),
    ({"view": "seat_stats", "rate": "win_rate"}, "early.toml: stop_when[0].max_width: expected"),
    ({"view": 3, "rate": "win_rate", "max_width": 0.1}, "early.toml: stop_when[0].view: expected a string"),
    ({"view": "seat_stats", "rate": "win_rate", "max_width": 0.1, "colour": 1}, "early.toml: stop_when[0].colour"),
])
def test_a_malformed_target_is_named_in_one_line(target: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as raised:
        parse_spec({**SPEC, "stop_when": [target]}, "early.toml")
    assert str(raised.value).startswith(message)
