"""`cardlab replay`, `cardlab games` and `cardlab bench`."""

from __future__ import annotations

import json

import pytest

from cardlab.cli import main
from simcore.agents.registry import parse_agent_spec
from simcore.play import play_game
from simcore.registry import get_game


def test_replay_prints_every_event_in_order_ending_with_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "divvy", "--seed", "42", "--agents", "heuristic,random"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("[turn  1] setup")
    assert any("decision" in line and "seat 0 (heuristic)" in line for line in lines)
    assert any(" lead " in line for line in lines)
    assert "game_over" in lines[-2]
    game = get_game("divvy")
    played = play_game(game, game.configure(game.default_parameters()), 2, 42,
                       [parse_agent_spec("heuristic"), parse_agent_spec("random")])
    assert lines[-1].startswith(f"winners: {played.state.winners() or 'none (draw)'}; scores: {played.state.scores()}")


def test_replay_json_lines_are_the_same_events_and_repeat_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    main(["replay", "divvy", "--seed", "7", "--json"])
    first = capsys.readouterr().out.strip().splitlines()
    main(["replay", "divvy", "--seed", "7", "--json"])
    assert capsys.readouterr().out.strip().splitlines() == first
    events = [json.loads(line) for line in first]
    assert events[0]["type"] == "setup" and events[-1]["type"] == "game_over"
    assert all({"turn", "type", "text"} <= set(event) for event in events)
    rounds = [event["turn"] for event in events]
    assert rounds == sorted(rounds)


def test_replay_applies_parameter_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    main(["replay", "divvy", "--seed", "3", "--set", "rules.rounds=2", "--json"])
    events = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert max(event["turn"] for event in events) <= 2


def test_games_lists_divvy_with_its_player_count_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    divvy = next(entry for entry in listing if entry["id"] == "divvy")
    assert (divvy["min_players"], divvy["max_players"]) == (2, 2)
    assert divvy["parameters"]["rules.rounds"] == 5
    assert len(divvy["cards"]) == 48
    assert main(["games", "divvy"]) == 0
    assert "cards.axes_7.copies = 1" in capsys.readouterr().out


def test_bench_prints_a_row_per_agent_with_positive_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "divvy", "--games", "300"]) == 0
    output = capsys.readouterr().out
    rows = [line for line in output.splitlines() if line.startswith("| divvy |")]
    assert [row.split("|")[2].strip() for row in rows] == ["random", "heuristic"]
    # The C reference line when `make reference` built it, else the note saying how.
    assert "| divvy, C reference (`bench/divvy_playout.c`) | random |" in output or (
        "(no C reference line: `make reference` builds bench/divvy_playout.c)" in output)
    for row in rows:
        cells = [cell.strip().replace(",", "") for cell in row.split("|")[1:-1]]
        assert float(cells[4]) > 0 and float(cells[5]) > float(cells[4])


def test_bench_rounds_keep_the_best_measurement_of_each_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.bench

    # Stand-ins for the clock-bound measurements, so that which round is kept is known.
    engine_rounds = iter([(100.0, 4500.0, 45.0), (300.0, 13500.0, 45.0), (200.0, 9000.0, 45.0)])
    recorded_rounds = iter([90.0, 150.0, 60.0])
    monkeypatch.setattr(workers.bench, "bench_engine", lambda *arguments: next(engine_rounds))
    monkeypatch.setattr(workers.bench, "bench_recorded", lambda *arguments: next(recorded_rounds))
    [row] = workers.bench.run_bench(["divvy"], ["random"], games=10, rounds=3)
    assert (row.engine_games_per_second, row.decisions_per_second, row.recorded_games_per_second) == (
        300.0, 13500.0, 150.0)
    assert row.recorded_share == 0.5


def test_a_worker_playing_shard_after_shard_keeps_flat_memory() -> None:
    import subprocess
    import sys

    finished = subprocess.run([sys.executable, "-m", "cardlab", "bench", "--memory", "--games", "30000",
                               "--shard-size", "3000"], capture_output=True, text=True, check=True)
    readings = [float(line.split("|")[2].replace(",", "")) for line in finished.stdout.splitlines()
                if line.startswith("| ") and line.split("|")[1].strip().replace(",", "").isdigit()]
    assert len(readings) == 10
    assert readings[-1] <= readings[1] * 1.05  # after warm-up, ten times the games, the same peak


def test_replay_reads_agents_whose_parameters_contain_commas(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "divvy", "--seed", "4", "--agents", "osla(rollouts=2,rollout=random),heuristic"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("seat 0 (osla(" in line for line in lines)
    assert any("seat 1 (heuristic)" in line for line in lines)
