"""Bad input that used to escape: counts without an upper bound (``games =
9223372036854775807`` hung and left a lock and ``spec.json``), a ``--results``
that is a file, unwritable or empty, a non-number for a number option. Each is one
line, exit code 2, and nothing written."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.cli import main
from experiments.spec import SpecError, parse_spec

GOOD = """
name = "bounded"
game = "divvy"
games = 10
agents = ["random"]
"""

SPEC_CASES = [
    ("the largest 64-bit games", GOOD.replace("games = 10", "games = 9223372036854775807"),
     "games: expected a positive integer of at most 1,000,000,000, got 9,223,372,036,854,775,807"),
    ("too many games", GOOD.replace("games = 10", "games = 1000000001"),
     "games: expected a positive integer of at most 1,000,000,000"),
    ("a giant shard", GOOD + "shard_size = 5000000\n", "shard_size: expected a positive integer of at most 1,000,000"),
    ("too many shards", GOOD.replace("games = 10", "games = 1000000000") + "shard_size = 100\n",
     "shard_size: 100 games per shard make 10,000,000 shards; expected at most 1,000,000"),
    ("too many games in all", GOOD.replace("games = 10", "games = 1000000000") + "shard_size = 1000000\n"
     + "".join(f'[variants.v{index}]\n"rules.rounds" = {index % 5 + 3}\n' for index in range(10)),
     "games: 1,000,000,000 games x 11 variant(s) x 1 player count(s) = 11,000,000,000 games; "
     "expected at most 10,000,000,000 in all"),
    ("a sweep grid too large", GOOD + "[sweep]\n" + '"rules.rounds" = [' + ", ".join(map(str, range(1, 101)))
     + "]\n" + '"rules.treasure_target" = [' + ", ".join(map(str, range(1, 102))) + "]\n",
     "sweep: a grid of 10,100 points; expected at most 10,000 variants in all"),
]


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.err.strip()


@pytest.mark.parametrize(("case", "text", "message"), SPEC_CASES, ids=[case[0] for case in SPEC_CASES])
def test_every_count_has_an_upper_bound_refused_at_once_with_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, text: str, message: str) -> None:
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(text)
    results = tmp_path / "results"
    started = time.perf_counter()
    code, error = _run(tmp_path, capsys, "run", str(spec_file), "--results", str(results), "--no-progress")
    assert code == 2
    assert error == f"cardlab: error: {spec_file}: {message}" or (
        error.startswith(f"cardlab: error: {spec_file}: ") and message in error), error
    assert len(error.splitlines()) == 1
    assert not results.exists()
    assert time.perf_counter() - started < 10  # refused, not planned


def test_a_seed_beyond_64_bits_in_a_stored_spec_is_refused() -> None:
    with pytest.raises(SpecError, match="seed: expected a non-negative integer of at most 9223372036854775807, got"):
        parse_spec({"name": "x", "game": "divvy", "games": 1, "seed": 2**64}, "spec.json")


@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` made unwritable even for root: the immutable attribute (``chattr +i``),
    or its permission bits for anyone else."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot make a folder immutable here: {made.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def _spec(tmp_path: Path) -> Path:
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(GOOD)
    return spec_file


def test_results_naming_a_file_is_refused_and_the_file_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    code, error = _run(tmp_path, capsys, "run", str(_spec(tmp_path)), "--results", str(a_file), "--no-progress")
    assert code == 2
    assert error == (f"cardlab: error: --results {a_file}: {a_file}: is a file; expected a results folder (or a "
                     "path where one can be created)")
    assert a_file.read_text() == "mine"


def test_an_unwritable_results_folder_is_refused_with_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "locked"
    results.mkdir()
    with unwritable(results):
        code, error = _run(tmp_path, capsys, "run", str(_spec(tmp_path)), "--results", str(results), "--no-progress")
        assert list(results.iterdir()) == []
    assert code == 2
    assert error.startswith(f"cardlab: error: --results {results}: {results}: not writable (")
    assert error.endswith("expected a folder cardlab can write results into")


def test_results_under_an_unwritable_folder_are_refused_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parent = tmp_path / "locked"
    parent.mkdir()
    with unwritable(parent):
        code, error = _run(tmp_path, capsys, "run", str(_spec(tmp_path)), "--results", str(parent / "deep" / "results"),
                           "--no-progress")
        assert list(parent.iterdir()) == []
    # The line names what was given (--results) and the folder that refuses, one of its parents.
    assert code == 2 and error.startswith(
        f"cardlab: error: --results {parent / 'deep' / 'results'}: {parent}: not writable (")


@pytest.mark.parametrize("command", [["run", "SPEC", "--no-progress"], ["report", "x"], ["sql", "x", "SELECT 1"],
                                     ["verify", "x"], ["dashboard"]])
def test_an_empty_results_option_is_refused_instead_of_meaning_the_current_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    arguments = [str(_spec(tmp_path)) if part == "SPEC" else part for part in command]
    code, error = _run(tmp_path, capsys, *arguments, "--results", "")
    assert code == 2
    assert error == "cardlab: error: --results: empty results location; expected a folder path or s3://bucket/prefix"
    assert sorted(path.name for path in tmp_path.iterdir()) == (["spec.toml"] if "SPEC" in command else [])


OPTION_CASES = [
    (["run", "SPEC", "--workers", "two"], "--workers: expected a positive integer of at most 4,096, got 'two'"),
    (["run", "SPEC", "--workers", "0"], "--workers: expected a positive integer of at most 4,096, got 0"),
    (["run", "SPEC", "--workers", "100000"], "--workers: expected a positive integer of at most 4,096, got 100,000"),
    (["report", "x", "--card-rows", "many"],
     "--card-rows: expected a positive integer of at most 1,000,000, got 'many'"),
    (["dashboard", "--port", "0"], "--port: expected a positive integer of at most 65,535, got 0"),
    (["replay", "divvy", "--seed", "-1"], "--seed: expected an integer from 0 to 18,446,744,073,709,551,615, got -1"),
    (["replay", "divvy", "--seed", "5", "--players", "many"],
     "--players: expected a positive integer of at most 1,000, got 'many'"),
    (["bench", "--games", "99999999999"], "--games: expected a positive integer of at most 1,000,000,000, "
     "got 99,999,999,999"),
    (["plan", "--delta", "0.02", "--tests", "0"],
     "--tests: expected a positive integer of at most 1,000,000,000, got 0"),
    (["run", "SPEC", "--format", "x"], "unrecognized arguments: --format x"),
]


@pytest.mark.parametrize(("arguments", "message"), OPTION_CASES, ids=[" ".join(case[0]) for case in OPTION_CASES])
def test_a_bad_option_value_is_one_line_naming_the_option(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str) -> None:
    arguments = [str(_spec(tmp_path)) if part == "SPEC" else part for part in arguments]
    code, error = _run(tmp_path, capsys, *arguments, *(["--results", str(tmp_path / "results")]
                                                       if arguments[0] in ("run", "report") else []))
    assert code == 2
    lines = error.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cardlab: error: {message}"), error
    assert lines[0].endswith("--help`)")  # `cardlab run --help`, or `cardlab --help` for an unknown option
    assert not (tmp_path / "results").exists()
