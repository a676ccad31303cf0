"""Where a search writes: its folder and its confirmation's (``NAME-confirm``) are its own."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from cardlab.cli import main
from tests.conftest import SmallExperiment

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
