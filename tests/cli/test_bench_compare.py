"""`cardlab bench --compare REF`: the working tree against a git ref, in one run (bench/compare.py)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from bench.compare import PROJECT_ROOT, CompareError, Measured, Side, format_compare, measure_side
from cardlab.cli import main

RATIO = re.compile(r"(\d+\.\d\d) \((\d+\.\d\d)-(\d+\.\d\d)\)$")


def _worktrees() -> str:
    return subprocess.run(["git", "worktree", "list"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                          check=True).stdout


def test_compare_with_head_prints_each_side_and_the_ratio_of_every_rate_in_alternating_rounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    assert main(["bench", "--compare", "HEAD", "--games", "200", "--game", "divvy", "--rounds", "2"]) == 0
    captured = capsys.readouterr()
    header, blank, columns, *rows = captured.out.strip().splitlines()
    assert header.startswith(f"working tree ({PROJECT_ROOT}) against HEAD ({head[:10]}): 2 alternating rounds")
    assert "HEAD compiled" in header and blank == ""
    assert re.search(rf"; load average \d+\.\d before the rounds, \d+\.\d after, {os.cpu_count()} cores$", header)
    assert columns.split()[:6] == ["game", "agent", "players", "rate", "working", "tree"]
    labels = ["engine games/s", "decisions/s", "recorded games/s"]
    assert [(row.split()[:3], label) for row, label in zip(rows, labels * 2, strict=True)] == [
        (["divvy", agent, "2"], label) for agent in ("random", "heuristic") for label in labels]
    for row, label in zip(rows, labels * 2, strict=True):
        tree_rate, head_rate = row.split(label)[1].split()[:2]
        assert float(tree_rate.replace(",", "")) > 0 and float(head_rate.replace(",", "")) > 0
        ratio = RATIO.search(row)
        assert ratio is not None, row
        median, smallest, largest = map(float, ratio.groups())
        assert 0 < smallest <= median <= largest
    # Rounds alternate, working tree first, one agent after the other; the temporary worktree is gone.
    progress = [line for line in captured.err.splitlines() if line.startswith("divvy, ")]
    assert progress == [f"divvy, {agent}, round {number} of 2: {side}" for agent in ("random", "heuristic")
                        for number in (1, 2) for side in ("working tree", "HEAD")]
    assert "cardlab-compare-" not in _worktrees()


def test_a_ref_naming_no_commit_is_a_one_line_error_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--compare", "no-such-ref-anywhere", "--game", "divvy", "--games", "10"]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert error == [f"cardlab: error: --compare no-such-ref-anywhere: expected a commit, branch or tag of the "
                     f"repository at {PROJECT_ROOT}"]


def test_compare_measures_the_engine_and_search_rates_not_memory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--compare", "HEAD", "--memory"]) == 2
    assert "--compare: measures the engine, recorded and search rates; not with --memory" in capsys.readouterr().err


def test_compare_with_search_prints_ismcts_iterations_per_second_of_each_side_per_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--compare", "HEAD", "--search", "--game", "divvy", "--rounds", "1"]) == 0
    captured = capsys.readouterr()
    header, _blank, _columns, row = captured.out.strip().splitlines()
    assert "rounds of 20 ISMCTS searches a measurement" in header
    assert row.split()[:3] == ["divvy", "ismcts(iterations=200,rollout=random)", "2"]
    tree_rate, head_rate = row.split("ISMCTS iterations/s")[1].split()[:2]
    assert float(tree_rate.replace(",", "")) > 0 and float(head_rate.replace(",", "")) > 0
    assert RATIO.search(row) is not None
    assert [line for line in captured.err.splitlines() if line.startswith("divvy, ")] == [
        "divvy, ismcts(iterations=200,rollout=random), round 1 of 1: working tree",
        "divvy, ismcts(iterations=200,rollout=random), round 1 of 1: HEAD"]


def test_a_side_is_measured_from_its_own_tree_or_not_at_all(tmp_path: Path) -> None:
    # An empty folder has no simcore: the subprocess would import the working tree's instead.
    with pytest.raises(CompareError, match=rf"^elsewhere: RuntimeError: simcore.play was imported from "
                                           rf".*, not from {re.escape(str(tmp_path))}$"):
        measure_side(Side("elsewhere", tmp_path), ["divvy"], ["random"], 10)


def test_each_side_is_its_median_and_the_ratio_is_taken_round_by_round() -> None:
    rates = {"new": {"engine_games_per_second": [100.0, 130.0, 90.0], "decisions_per_second": [10.0, 10.0, 10.0],
                     "recorded_games_per_second": [50.0, 60.0, 70.0]},
             "old": {"engine_games_per_second": [100.0, 100.0, 100.0], "decisions_per_second": [20.0, 5.0, 10.0],
                     "recorded_games_per_second": [100.0, 50.0, 70.0]}}
    table = format_compare([Measured("divvy", "random", 2, rates)], "new", "old").splitlines()
    assert [line.split() for line in table[1:]] == [
        ["divvy", "random", "2", "engine", "games/s", "100", "100", "1.00", "(0.90-1.30)"],
        ["divvy", "random", "2", "decisions/s", "10", "10", "1.00", "(0.50-2.00)"],
        ["divvy", "random", "2", "recorded", "games/s", "60", "70", "1.00", "(0.50-1.20)"],
    ]
