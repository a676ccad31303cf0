"""A range with a step: the search proposes only its grid, the current data off the grid
is no trial, and a stopped search of such a range resumes."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from analytics.tuning import read_state
from drivers.tuning import run_tuning
from experiments.tuning import TuningSpecError, parse_tuning_spec
from workers.runner import RunOptions

SPEC = """
name = "divvy_grid"
game = "divvy"
agents = ["heuristic"]
seed = 3

[space]
"rules.hand_size" = { low = 4, high = 8, step = 2 }    # the current hand size, 5, is off the grid

[[targets]]
metric = "game_stats.draw_rate"
at_most = 0.02

[search]
trials = 4
batch = 2
games = [60, 120]

[confirm]
candidates = 1
games = 60
"""


class Stopped(Exception):
    """Stands for a Ctrl-C between two batches."""


def test_a_value_off_a_ranges_grid_is_not_in_the_space() -> None:
    spec = parse_tuning_spec(tomllib.loads(SPEC), "grid.toml")
    (dimension,) = spec.space
    assert [value for value in range(3, 10) if dimension.contains(value)] == [4, 6, 8]
    assert not spec.in_space(spec.current_values)  # so the current data is not enqueued as trial 0


def test_a_step_that_does_not_divide_the_range_is_refused() -> None:
    raw = tomllib.loads(SPEC.replace("high = 8", "high = 7"))
    with pytest.raises(TuningSpecError, match=r"^grid.toml: space.rules.hand_size: step: 2 does not divide the "
                                              r"range 4 to 7; expected a high on the grid, e.g. 6 or 8$"):
        parse_tuning_spec(raw, "grid.toml")


@pytest.mark.usefixtures("shared_ray")
def test_a_stopped_search_of_a_stepped_range_resumes_to_its_answer(tmp_path: Path) -> None:
    # The current data (hand size 5) used to be enqueued as trial 0; Optuna took it, but refused
    # it when --resume rebuilt the study from the saved trials: a ValueError traceback.
    spec = parse_tuning_spec(tomllib.loads(SPEC), "grid.toml")

    def stop(batch: int) -> None:
        raise Stopped

    with pytest.raises(Stopped):
        run_tuning(spec, RunOptions(results_root=tmp_path, workers=1), say=lambda line: None, on_batch=stop)
    state = read_state(tmp_path / "divvy_grid")
    assert state["batches"] == 1
    assert {trial["params"]["rules.hand_size"] for trial in state["trials"]} <= {4, 6, 8}
    said: list[str] = []
    summary = run_tuning(spec, RunOptions(results_root=tmp_path, workers=1, resume=True), say=said.append)
    assert read_state(tmp_path / "divvy_grid")["status"] == "finished"
    assert summary.answer["values"]["rules.hand_size"] in (4, 5, 6, 8)  # a grid point, or the current data
    (confirming,) = [line for line in said if line.startswith("confirmation: ") and "fresh games" in line]
    # The current data is named once, as such (it read "confirming baseline (and the current data)").
    assert confirming == "confirmation: 1 candidate(s) and the current data on 60 fresh games per player count " \
                         "(120 games)"
