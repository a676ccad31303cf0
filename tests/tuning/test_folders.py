"""Where a search writes: its folder and its confirmation's (``NAME-confirm``) are its own."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from cardlab.cli import main
from drivers.tuning import UnjudgeableTargetError, run_tuning
from experiments.tuning import load_tuning_spec
from tests.conftest import SmallExperiment
from workers.runner import RunOptions

SPEC = """
name = "qa_tune"
game = "divvy"
agents = ["heuristic"]
seed = 5

[space]
"rules.treasure_target" = [12, 30]

[[targets]]
metric = "game_stats.draw_rate"
at_most = 0.03

[search]
trials = 2
batch = 2
games = [50, 100]
"""


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path) and the SHA-256 of its bytes."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("flag", [[], ["--overwrite"]])
def test_a_search_refuses_to_confirm_into_another_experiments_folder(
        small_experiment: SmallExperiment, tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str]
) -> None:
    # An ordinary experiment that happens to be called like the search's confirmation.
    results = tmp_path / "results"
    foreign = results / "qa_tune-confirm"
    shutil.copytree(small_experiment.folder, foreign)
    before = fingerprint(foreign)
    spec_file = tmp_path / "qa_tune.toml"
    spec_file.write_text(SPEC)

    assert main(["tune", str(spec_file), "--results", str(results), "--workers", "1", *flag]) == 2

    error = capsys.readouterr().err
    assert error.startswith(f"cardlab: error: {foreign}: holds an experiment that is not the confirmation of "
                            "this search") and error.count("\n") == 1
    assert str(spec_file) in error
    assert fingerprint(foreign) == before  # neither mixed into nor deleted
    assert sorted(path.name for path in results.iterdir()) == ["qa_tune-confirm"]  # no search folder left


@pytest.mark.parametrize("flag", [[], ["--resume"]])
def test_a_search_named_like_an_existing_experiment_says_so_and_leaves_it_alone(
        small_experiment: SmallExperiment, tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str]
) -> None:
    results = tmp_path / "results"
    taken = results / "qa_tune"
    shutil.copytree(small_experiment.folder, taken)
    before = fingerprint(taken)
    spec_file = tmp_path / "qa_tune.toml"
    spec_file.write_text(SPEC)

    assert main(["tune", str(spec_file), "--results", str(results), "--workers", "1", *flag]) == 2

    error = capsys.readouterr().err
    assert error.count("\n") == 1
    # It used to suggest "--resume to finish them", which cannot finish an ordinary experiment.
    assert "--resume to finish" not in error
    assert f"give the search another name (name in {spec_file})" in error
    assert fingerprint(taken) == before
    assert sorted(path.name for path in results.iterdir()) == ["qa_tune"]


def test_a_search_that_ends_before_its_first_shard_leaves_nothing_behind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Nothing listens on port 1: the runner refuses the address before any shard is played.
    spec_file = tmp_path / "qa_tune.toml"
    spec_file.write_text(SPEC)
    results = tmp_path / "results"

    assert main(["tune", str(spec_file), "--results", str(results), "--address", "127.0.0.1:1"]) == 2

    assert "no Ray cluster answers" in capsys.readouterr().err
    # It used to leave qa_tune/_tuning/ and spec.json, so the next attempt was told to --resume or --overwrite.
    assert not results.exists()


@pytest.mark.usefixtures("shared_ray")
def test_a_target_no_game_has_rows_for_stops_after_the_first_batch_and_leaves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The spec's checks see one game: a where value no row has passes them. It used to fail
    # every look of the whole budget, then say "no candidate could be judged", folder left behind.
    spec_file = tmp_path / "qa_tune.toml"
    spec_file.write_text(SPEC.replace('metric = "game_stats.draw_rate"\nat_most = 0.03',
                                      'metric = "agent_stats.win_rate"\nbetween = [0.4, 0.6]\n'
                                      'where = { agent = "nobody" }').replace("trials = 2", "trials = 6"))
    results = tmp_path / "results"
    said: list[str] = []
    with pytest.raises(UnjudgeableTargetError) as raised:
        run_tuning(load_tuning_spec(spec_file), RunOptions(results_root=results, workers=1), say=said.append)
    assert str(raised.value) == (
        f"{spec_file}: targets[0]: no row of agent_stats where agent = 'nobody' in the 50 games of any of the first "
        "batch's 2 candidates; expected a where that some row has (see `cardlab sql` on agent_stats)")
    assert not [line for line in said if " done in " in line]  # no batch went by
    assert not results.exists()
