"""Bring your own agent: a class named by import path in an experiment file.

``module.path:ClassName(key=value,...)`` is read like a built-in agent spec
(parameters typed from the constructor, one-line errors), builds the class
with ``(game, seat, rng, **parameters)``, plays through ``cardlab run`` on
Ray workers, and is checked for seat-honesty by ``cardlab check-agent``.
The worked example is ``experiments/agents/greedy_agent.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from cardlab.cli import main
from experiments.agents.greedy_agent import GreedyAgent
from experiments.spec import SpecError, parse_spec
from simcore.agents.registry import AgentSpecError, make_agent, parse_agent_spec
from simcore.play import play_game
from simcore.registry import GAMES
from simcore.seeding import game_seed
from tests.agents.helpers import config_of
from workers.runner import RunOptions, run_experiment

GREEDY = "experiments.agents.greedy_agent:GreedyAgent"
CARDLAB = Path(sys.executable).with_name("cardlab")


def test_an_import_path_agent_spec_is_read_into_a_normal_form_with_typed_parameters() -> None:
    spec = parse_agent_spec(f" {GREEDY}( tie_break=first, samples=03 ) ")
    assert str(spec) == f"{GREEDY}(samples=3,tie_break=first)"
    assert parse_agent_spec(str(spec)) == spec
    assert str(parse_agent_spec(GREEDY)) == GREEDY


def test_make_agent_builds_the_class_with_its_game_seat_generator_and_parameters() -> None:
    agent = make_agent(parse_agent_spec(f"{GREEDY}(samples=4,tie_break=first)"), GAMES["divvy"], 1, seed=5)
    assert isinstance(agent, GreedyAgent)
    assert (agent.seat, agent.samples, agent.tie_break) == (1, 4, "first")


@pytest.mark.parametrize(("text", "message"), [
    ("nosuchpackage.agents:Greedy", "agent 'nosuchpackage.agents:Greedy': cannot import module "
                                    "'nosuchpackage.agents' (ModuleNotFoundError: No module named 'nosuchpackage')"),
    ("experiments.agents.greedy_agent:Greed", "agent 'experiments.agents.greedy_agent:Greed': module "
                                              "'experiments.agents.greedy_agent' has no class 'Greed'"),
    ("experiments.agents.greedy_agent:TIE_BREAKS", "'experiments.agents.greedy_agent:TIE_BREAKS' is not an agent "
                                                   "class; expected a subclass of simcore.api.Agent, got tuple"),
    ("simcore.api:GameState", "is not an agent class; expected a subclass of simcore.api.Agent, got type"),
    (f"{GREEDY}(depth=2)", f"agent '{GREEDY}': unknown parameter 'depth'; expected one of: samples, tie_break"),
    (f"{GREEDY}(samples=many)", f"agent '{GREEDY}': samples: expected an integer, got 'many'"),
    ("tests.agents.test_own_agents:NeedsDepth", "agent 'tests.agents.test_own_agents:NeedsDepth': missing "
                                                "parameter 'depth'"),
    ("tests.agents.test_own_agents:NoSeat", "NoSeat must take (game, seat, rng) first, then its parameters; "
                                            "got (game, depth)"),
    ("experiments.agents.greedy_agent:", "cannot read agent 'experiments.agents.greedy_agent:'"),
])
def test_a_bad_import_path_or_class_is_a_one_line_error(text: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as raised:
        parse_agent_spec(text)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


class NeedsDepth(GreedyAgent):
    """A test class with a required parameter."""

    def __init__(self, game: object, seat: int, rng: object, depth: int) -> None:
        super().__init__(game, seat, rng)  # type: ignore[arg-type]
        self.depth = depth


class NoSeat(GreedyAgent):
    """A test class whose constructor does not take (game, seat, rng)."""

    def __init__(self, game: object, depth: int = 1) -> None:
        super().__init__(game, 0, None)  # type: ignore[arg-type]


def test_an_experiment_file_with_a_bad_agent_class_names_the_file_and_key() -> None:
    raw = {"name": "mine", "game": "divvy", "games": 2, "agents": ["random", "experiments.agents.greedy_agent:Nobody"]}
    with pytest.raises(SpecError) as raised:
        parse_spec(raw, "mine.toml")
    assert str(raised.value) == ("mine.toml: agents[1]: agent 'experiments.agents.greedy_agent:Nobody': module "
                                 "'experiments.agents.greedy_agent' has no class 'Nobody'")


def test_the_example_agent_plays_whole_games_the_same_for_the_same_seed_and_beats_random() -> None:
    game = GAMES["divvy"]
    greedy, random = parse_agent_spec(f"{GREEDY}(samples=2)"), parse_agent_spec("random")
    first = [play_game(game, config_of(game), 2, seed, [greedy, random]).state for seed in range(40)]
    again = [play_game(game, config_of(game), 2, seed, [greedy, random]).state for seed in range(3)]
    assert [state.observation(0) for state in first[:3]] == [state.observation(0) for state in again]
    wins = sum(state.winners() == [0] for state in first)
    losses = sum(state.winners() == [1] for state in first)
    assert wins > losses  # one step of score lookahead helps (decided by the seeds: 40 fixed games)


def _table(folder: Path, query: str) -> list[tuple[object, ...]]:
    files = str(folder / "players" / "**" / "*.parquet")
    return duckdb.connect().execute(query.replace("players", f"read_parquet('{files}', hive_partitioning=false)")
                                    ).fetchall()


@pytest.mark.usefixtures("shared_ray")
def test_cardlab_run_plays_the_example_agent_on_ray_workers(tmp_path: Path) -> None:
    spec = parse_spec({"name": "own_agent", "game": "divvy", "games": 20, "seed": 3, "shard_size": 5,
                       "agents": [f"{GREEDY}(samples=1)", "random"], "rotate_seats": True}, "test-spec")
    summary = run_experiment(spec, RunOptions(results_root=tmp_path, workers=2, progress=False))
    folder = Path(str(summary.experiment_dir))
    rows = _table(folder, "SELECT agent, count(*), count(DISTINCT game_index) FROM players "
                          "GROUP BY agent ORDER BY agent")
    assert rows == [(f"{GREEDY}(samples=1)", 20, 20), ("random", 20, 20)]
    # The Ray workers played the same games as one process does.
    game = GAMES["divvy"]
    expected = []
    for index in range(20):
        state = play_game(game, config_of(game), 2, game_seed(3, "baseline", 2, index), spec.lineup(2, index)).state
        expected.append((index, state.scores()[0], state.scores()[1]))
    scores = _table(folder, "SELECT game_index, max(score) FILTER (seat = 0), max(score) FILTER (seat = 1) "
                            "FROM players GROUP BY game_index ORDER BY game_index")
    assert scores == expected


USER_MODULE = '''
from simcore.api import Agent


class Lowest(Agent):
    """Always the first legal action, or the one ``offset`` places on."""

    def __init__(self, game, seat, rng, offset: int = 0):
        self.name = "lowest"
        self.offset = offset

    def choose(self, state, legal_actions):
        return legal_actions[self.offset % len(legal_actions)]
'''


def test_a_users_module_in_the_working_folder_runs_through_the_cardlab_command_on_ray(tmp_path: Path) -> None:
    (tmp_path / "myagents").mkdir()
    (tmp_path / "myagents" / "__init__.py").write_text("")
    (tmp_path / "myagents" / "simple.py").write_text(textwrap.dedent(USER_MODULE))
    (tmp_path / "mine.toml").write_text(textwrap.dedent('''
        game = "divvy"
        games = 10
        shard_size = 5
        agents = ["myagents.simple:Lowest(offset=1)", "random"]
    '''))
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    run = subprocess.run([str(CARDLAB), "run", "mine.toml", "--results", "out", "--workers", "2", "--no-progress"],
                         cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = _table(tmp_path / "out" / "mine", "SELECT agent, count(*) FROM players GROUP BY agent ORDER BY agent")
    assert rows == [("myagents.simple:Lowest(offset=1)", 10), ("random", 10)]
    check = subprocess.run([str(CARDLAB), "check-agent", "myagents.simple:Lowest", "--game", "divvy"],
                           cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    assert check.returncode == 0 and "divvy (2 players, 6 positions" in check.stdout and "seat-honest" in check.stdout


def test_cardlab_check_agent_says_which_check_failed_and_exits_with_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-agent", "tests.agents.cheating_agents:Peeker", "--game", "divvy", "--positions", "3"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "divvy (2 players, 3 positions, hidden cards redrawn differently at 3): NOT seat-honest"
    assert all(line.startswith("  position ") for line in out[1:]) and len(out) > 1
    assert main(["check-agent", GREEDY, "--game", "theseus", "--players", "3"]) == 0
    assert capsys.readouterr().out.startswith("theseus (3 players, 6 positions")


@pytest.mark.parametrize(("arguments", "message"), [
    (["check-agent", "mypackage.agents:Greedy"], "cardlab: error: agent 'mypackage.agents:Greedy': cannot import"),
    (["check-agent", "random", "--game", "chess"], "cardlab: error: unknown game 'chess'"),
    (["check-agent", "random", "--game", "divvy", "--players", "3"],
     "cardlab: error: --players: divvy is played by 2 to 2 players, got 3"),
])
def test_cardlab_check_agent_with_bad_input_is_a_one_line_error(arguments: list[str], message: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert error.startswith(message) and error.count("\n") == 1
