"""Agent specs: parameters are checked when read and kept in a normal form;
search agents are deterministic for a given seed."""

from __future__ import annotations

import pickle

import pytest

from simcore.agents.ismcts import IsmctsAgent
from simcore.agents.osla import OslaAgent
from simcore.agents.registry import AgentSpecError, make_agent, parse_agent_spec
from simcore.play import play_game
from simcore.registry import GAMES
from tests.agents.helpers import config_of


def test_search_agent_specs_are_read_into_a_normal_form() -> None:
    spec = parse_agent_spec(" ismcts( rollout=heuristic, iterations=0200, exploration=0.50 ) ")
    assert str(spec) == "ismcts(exploration=0.5,iterations=200,rollout=heuristic)"
    assert parse_agent_spec(str(spec)) == spec
    assert str(parse_agent_spec("osla(rollouts=3)")) == "osla(rollouts=3)"


def test_a_spec_survives_pickling_as_ray_sends_it_to_its_workers() -> None:
    # Compiled, the spec is a frozen native class, which pickle's default restore
    # (assigning its fields one by one) cannot fill.
    spec = parse_agent_spec("ismcts(iterations=50,rollout=heuristic)")
    copy = pickle.loads(pickle.dumps(spec))
    assert copy == spec and str(copy) == "ismcts(iterations=50,rollout=heuristic)"


@pytest.mark.parametrize(("text", "message"), [
    ("ismcts(budget=10)", "agent 'ismcts': unknown parameter 'budget'; expected one of: iterations, exploration"),
    ("ismcts(iterations=ten)", "agent 'ismcts': iterations: expected an integer, got 'ten'"),
    ("ismcts(iterations=0)", "agent 'ismcts': iterations: expected an integer of at least 1, got 0"),
    ("ismcts(exploration=-1)", "agent 'ismcts': exploration: expected a number of at least 0.0, got -1"),
    ("ismcts(rollout=greedy)", "agent 'ismcts': rollout: expected one of random, heuristic, got 'greedy'"),
    ("osla(rollouts=2,rollouts=3)", "parameter 'rollouts' given twice"),
    ("random(iterations=5)", "agent 'random' takes no parameters, got 'iterations'"),
    ("mcts", "unknown agent 'mcts'; expected one of: random, heuristic, osla, ismcts"),
])
def test_a_bad_agent_spec_is_a_one_line_error_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as raised:
        parse_agent_spec(text)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_make_agent_builds_search_agents_with_their_parameters() -> None:
    game = GAMES["divvy"]
    ismcts = make_agent(parse_agent_spec("ismcts(iterations=7,exploration=1.5,rollout=heuristic)"), game, 1, 5)
    assert isinstance(ismcts, IsmctsAgent) and ismcts.name == "ismcts"
    assert (ismcts.iterations, ismcts.exploration, ismcts.policy.kind) == (7, 1.5, "heuristic")
    osla = make_agent(parse_agent_spec("osla"), game, 0, 5)
    assert isinstance(osla, OslaAgent) and osla.rollouts == 10 and osla.policy.kind == "random"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_same_seed_gives_the_same_game_with_search_agents(game_id: str) -> None:
    game = GAMES[game_id]
    n_players = max(2, game.info.min_players)
    lineup = [parse_agent_spec("ismcts(iterations=5)"), parse_agent_spec("osla(rollouts=1)")]
    played = [play_game(game, config_of(game), n_players, 42, lineup * n_players) for _ in range(2)]
    assert played[0].state.observation(0) == played[1].state.observation(0)
    assert played[0].decisions == played[1].decisions
