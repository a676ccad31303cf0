"""The C reference playout of Divvy (``bench/divvy_playout.c``) plays the very
games ``play_game`` plays with two random agents, so that its speed in
``cardlab bench`` is a fair reference line."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from simcore.agents.registry import parse_agent_spec
from simcore.play import play_game
from simcore.registry import get_game
from workers.bench import bench_reference, format_bench, reference_check_seeds, run_reference

SOURCE = Path(__file__).resolve().parents[2] / "bench" / "divvy_playout.c"


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler (cc) on this machine")
    built = tmp_path_factory.mktemp("reference") / "divvy_playout"
    subprocess.run([compiler, "-O2", "-Wall", "-Werror", "-o", str(built), str(SOURCE)], check=True)
    return built


def test_the_c_playout_plays_the_same_games_as_the_engine(binary: Path) -> None:
    seeds = reference_check_seeds(400)
    output = run_reference(binary, ["--check"], "".join(f"{game} {seat0} {seat1}\n" for game, seat0, seat1 in seeds))
    game = get_game("divvy")
    config = game.configure(game.default_parameters())
    random = [parse_agent_spec("random")] * 2
    expected = []
    for seed, _, _ in seeds:
        played = play_game(game, config, 2, seed, random)
        state = played.state
        expected.append(f"{state.scores()[0]} {state.scores()[1]} {played.decisions} {state.end_reason()} "
                        f"{state.turns()}")
    assert output.splitlines() == expected
    assert len({line.split()[3] for line in expected}) == 2  # games ending both ways were compared


def test_the_reference_line_reports_its_rate_in_the_bench_table(binary: Path) -> None:
    reference = bench_reference(2000, binary)
    assert reference is not None and reference.games == 2000
    assert 30 < reference.decisions_per_game < 60  # Divvy's ~45 decisions per random game
    assert reference.games_per_second > 0
    assert format_bench([], reference).splitlines()[-1].startswith(
        "| divvy, C reference (`bench/divvy_playout.c`) | random | 2 | 2,000 | ")


def test_without_the_binary_there_is_no_reference_line(tmp_path: Path) -> None:
    assert bench_reference(10, tmp_path / "missing") is None
