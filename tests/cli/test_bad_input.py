"""Bad input: one clear line naming the file, the key and what was expected,
exit code 2, no traceback, and no results folder left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.cli import main
from simcore.registry import GAMES

GOOD = """
name = "bad_input"
game = "divvy"
games = 10
agents = ["random"]
"""


def _run_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None) -> tuple[int, str, Path]:
    spec_file = tmp_path / "spec.toml"
    if text is not None:
        spec_file.write_text(text)
    results = tmp_path / "results"
    code = main(["run", str(spec_file), "--results", str(results), "--no-progress"])
    return code, capsys.readouterr().err, results


CASES = [
    ("a missing file", None, "file not found"),
    ("broken TOML", "name = \n[[[", "not valid TOML"),
    ("an unknown game", GOOD.replace('"divvy"', '"chess"'),
     f"game: unknown game 'chess'; expected one of: {', '.join(sorted(GAMES))}"),
    ("an unknown parameter path", GOOD + '[variants.x]\n"rules.roundz" = 4\n',
     "variants.x.rules.roundz: unknown parameter path"),
    ("an unknown card", GOOD + '[variants.x]\n"cards.fireball.copies" = 0\n',
     "variants.x.cards.fireball.copies: unknown parameter path"),
    ("a wrong value type", GOOD + '[variants.x]\n"rules.rounds" = "five"\n',
     "variants.x.rules.rounds: expected an integer, got 'five'"),
    ("an impossible value", GOOD + '[variants.x]\n"rules.rounds" = 0\n',
     "variants.x.rules.rounds: expected an integer of at least 1"),
    ("a player count the game does not allow", GOOD + "player_counts = [3]\n",
     "player_counts: divvy is played by 2 players, got 3"),
    ("zero games", GOOD.replace("games = 10", "games = 0"), "games: expected a positive integer, got 0"),
    ("negative games", GOOD.replace("games = 10", "games = -5"), "games: expected a positive integer, got -5"),
    ("an unknown agent", GOOD.replace('["random"]', '["genius"]'), "agents[0]: unknown agent 'genius'"),
    ("an unknown key", GOOD + "gamez = 3\n", "gamez: unknown key"),
    ("a name escaping the results folder", GOOD.replace('"bad_input"', '"../escape"'), "name: expected letters"),
]


@pytest.mark.parametrize(("case", "text", "message"), CASES, ids=[case[0] for case in CASES])
def test_bad_input_gets_one_line_exit_code_two_and_no_results_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, text: str | None, message: str
) -> None:
    code, error, results = _run_spec(tmp_path, capsys, text)
    assert code == 2
    lines = error.strip().splitlines()
    assert len(lines) == 1, error
    assert lines[0].startswith(f"cardlab: error: {tmp_path / 'spec.toml'}: ")
    assert message in lines[0]
    assert "Traceback" not in error
    assert not results.exists()


def test_the_installed_command_prints_no_traceback_for_a_bad_spec(tmp_path: Path) -> None:
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(GOOD.replace("games = 10", "games = 0"))
    finished = subprocess.run([sys.executable, "-m", "cardlab", "run", str(spec_file), "--results",
                               str(tmp_path / "results")], capture_output=True, text=True, check=False)
    assert finished.returncode == 2
    assert finished.stderr.strip() == f"cardlab: error: {spec_file}: games: expected a positive integer, got 0"
    assert not (tmp_path / "results").exists()


def test_rerunning_an_existing_experiment_without_resume_or_overwrite_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(GOOD)
    existing = tmp_path / "results" / "bad_input"
    existing.mkdir(parents=True)
    code = main(["run", str(spec_file), "--results", str(tmp_path / "results"), "--no-progress"])
    assert code == 2
    assert "results already exist; use --resume" in capsys.readouterr().err


def test_replay_of_an_unknown_game_and_a_bad_override_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "chess", "--seed", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cardlab: error: unknown game 'chess'; expected one of: {', '.join(sorted(GAMES))}")
    assert main(["replay", "divvy", "--seed", "1", "--set", "rules.rounds=many"]) == 2
    assert capsys.readouterr().err.strip() == "cardlab: error: rules.rounds: expected an integer, got 'many'"



REPLAY_OF_AN_EXPERIMENT = ["--experiment", "{experiment}", "--game-index", "1"]
IGNORED_REPLAY_ARGUMENTS = [  # each was silently ignored
    pytest.param(["theseus", *REPLAY_OF_AN_EXPERIMENT], "replay: {experiment} is an experiment of divvy, not "
                 "theseus; give its game or none with --experiment", id="another game"),
    pytest.param([*REPLAY_OF_AN_EXPERIMENT, "--seed", "5"],
                 "--seed: not with --experiment, whose --game-index picks the seed", id="seed"),
    pytest.param([*REPLAY_OF_AN_EXPERIMENT, "--agents", "heuristic"],
                 "--agents: not with --experiment, which plays its own agents", id="agents"),
    pytest.param([*REPLAY_OF_AN_EXPERIMENT, "--set", "rules.rounds=2"],
                 "--set: not with --experiment, which plays its variant's parameters (--variant)", id="set"),
    pytest.param(["divvy", "--seed", "1", "--agents", "heuristic,random,random"],
                 "--agents: 3 agents for the 2 seats of divvy; expected at most 2 (fewer repeat around the table)",
                 id="more agents than seats"),
    pytest.param(["divvy", "--seed", "1", "--game-index", "3"], "--game-index: only with --experiment",
                 id="game index without experiment"),
    pytest.param(["divvy", "--seed", "1", "--variant", "four_rounds"], "--variant: only with --experiment",
                 id="variant without experiment"),
]


@pytest.fixture
def divvy_experiment(tmp_path: Path) -> Path:
    """A Divvy experiment's folder with only its spec (all a replay reads), no games played."""
    from dataset.storage import SPEC_FILE, write_json_atomically
    from tests.dashboard.conftest import tiny_spec

    experiment = tmp_path / "divvy_tiny"
    write_json_atomically(tiny_spec("divvy_tiny").to_json_dict(), experiment / SPEC_FILE)
    return experiment


@pytest.mark.parametrize(("arguments", "message"), IGNORED_REPLAY_ARGUMENTS)
def test_replay_refuses_an_argument_it_would_ignore_with_one_line(
        divvy_experiment: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str) -> None:
    filled = [argument.format(experiment=divvy_experiment) for argument in arguments]
    assert main(["replay", *filled]) == 2
    output = capsys.readouterr()
    assert (output.out, output.err) == ("", f"cardlab: error: {message.format(experiment=divvy_experiment)}\n")


def test_replay_takes_arguments_that_agree(divvy_experiment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    of_experiment = [argument.format(experiment=divvy_experiment) for argument in REPLAY_OF_AN_EXPERIMENT]
    assert main(["replay", "divvy", *of_experiment, "--variant", "four_rounds", "--players", "2"]) == 0
    assert main(["replay", "divvy", "--seed", "1", "--agents", "heuristic"]) == 0  # one agent at every seat
    assert "seat 1 (heuristic)" in capsys.readouterr().out
