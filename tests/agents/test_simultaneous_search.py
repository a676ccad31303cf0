"""Simultaneous moves in search: the game-API marker and the sm_ismcts agent.

``GameState.rewind_simultaneous_move`` tells a search which steps form one
simultaneous move (default: none). ``sm_ismcts`` chooses every seat's part of
such a move from that seat's own statistics, so a later seat cannot answer
an earlier seat's hidden choice; in games without the marker it plays
exactly like ``ismcts``.
"""

from __future__ import annotations

import pytest

from simcore.agents.ismcts import IsmctsAgent
from simcore.agents.registry import make_agent, parse_agent_spec
from simcore.agents.sm_ismcts import SimultaneousIsmctsAgent
from simcore.games.divvy.rules import BRAWL, CHAFF, DISCARD, LEAD, REINFORCE, REPLACE, DivvyState
from simcore.registry import GAMES
from simcore.rng import Generator
from tests.agents.helpers import config_of, decision_points
from tests.agents.toy_games import DOORS, SAFE, DoorsState, SequentialDoorsState

DIVVY = GAMES["divvy"]
AGENT_SEEDS = range(10)


def divvy_positions(seed: int = 4) -> list[DivvyState]:
    """Every decision of one random Divvy game."""
    state = DIVVY.new_state(config_of(DIVVY), 2, seed)
    return [position for position in decision_points(state, Generator(seed)) if isinstance(position, DivvyState)]


def test_the_search_agent_chooses_a_door_where_ismcts_plays_safe_because_its_tree_lets_the_guard_see_the_door() -> None:
    """Doors or safe: a door wins 2/3 against a guard who cannot see it."""
    picks = {}
    for agent_class in (IsmctsAgent, SimultaneousIsmctsAgent):
        picks[agent_class.__name__] = [
            agent_class(DIVVY, 0, Generator(seed), iterations=300).choose(DoorsState(), (*DOORS, SAFE))
            for seed in AGENT_SEEDS]
    assert set(picks["IsmctsAgent"]) == {SAFE}
    assert set(picks["SimultaneousIsmctsAgent"]) <= set(DOORS)


def test_without_the_marker_the_search_agent_plays_like_ismcts_and_plays_safe() -> None:
    state = SequentialDoorsState()
    picks = [SimultaneousIsmctsAgent(DIVVY, 0, Generator(seed), iterations=300).choose(state, state.legal_actions())
             for seed in AGENT_SEEDS]
    assert set(picks) == {SAFE}


def test_each_seats_choices_at_a_simultaneous_root_count_once_per_iteration_not_split_by_the_first_choice() -> None:
    agent = SimultaneousIsmctsAgent(DIVVY, 0, Generator(3), iterations=200)
    root = agent.search(DoorsState())
    assert len(root.children) == 0 and root.simultaneous is not None
    visits = {seat: sum(child.visits for child in root.simultaneous.choices.values() if child.player == seat)
              for seat in (0, 1)}
    assert visits == {0: 200, 1: 200}
    # One outcome node per joint choice seen: 4 doors-or-safe times 3 guards at most.
    assert 1 < len(root.simultaneous.outcomes) <= 12


def test_divvys_lead_chaff_brawl_and_reinforcements_are_simultaneous_moves_of_two_steps() -> None:
    phases_seen = set()
    for position in divvy_positions():
        copy = position.clone()
        steps = copy.rewind_simultaneous_move()
        if position.phase in (LEAD, CHAFF, BRAWL, REINFORCE):
            phases_seen.add(position.phase)
            assert steps == 2
            # Seat 0's hidden choice (if in) is taken back: seat 0 is to choose again, hands untouched.
            assert copy.current_player == 0 and copy.decisions.committed == [-1, -1]
            assert copy.hand(0) == position.hand(0) and copy.hand(1) == position.hand(1)
            if position.current_player == 0:  # nothing chosen yet: nothing changes
                assert copy.observation(0) == position.observation(0)
        else:
            assert position.phase in (REPLACE, DISCARD)
            assert steps == 0
            assert copy.observation(0) == position.observation(0) and copy.observation(1) == position.observation(1)
    assert phases_seen == {LEAD, CHAFF, BRAWL, REINFORCE}


def test_rewinding_at_seat_ones_turn_takes_back_seat_zeros_pending_lead() -> None:
    state = DIVVY.new_state(config_of(DIVVY), 2, seed=8)
    assert isinstance(state, DivvyState) and state.phase == LEAD and state.current_player == 0
    state.apply(2)
    assert state.current_player == 1 and state.decisions.committed[0] == 2
    assert state.rewind_simultaneous_move() == 2
    assert (state.current_player, state.decisions.committed) == (0, [-1, -1])
    assert list(state.legal_actions()) == list(range(len(state.hand(0))))


@pytest.mark.parametrize("game_id", ["theseus", "ring_of_chaos", "party_wanted"])
def test_games_without_simultaneous_moves_keep_the_default_marker_and_sm_ismcts_plays_exactly_like_ismcts(
        game_id: str) -> None:
    game = GAMES[game_id]
    state = game.new_state(config_of(game), 2, seed=5)
    positions = list(decision_points(state, Generator(6)))
    assert all(position.clone().rewind_simultaneous_move() == 0 for position in positions)
    for position in positions[:: max(1, len(positions) // 4)][:4]:
        seat = position.current_player
        chosen = [make_agent(parse_agent_spec(f"{name}(iterations=30)"), game, seat, seed=9)
                  .choose(position.clone(), position.legal_actions()) for name in ("ismcts", "sm_ismcts")]
        assert chosen[0] == chosen[1]


def test_sm_ismcts_takes_the_same_parameters_as_ismcts_and_names_itself() -> None:
    spec = parse_agent_spec("sm_ismcts(iterations=07,rollout=heuristic,exploration=1)")
    assert str(spec) == "sm_ismcts(exploration=1.0,iterations=7,rollout=heuristic)"
    agent = make_agent(spec, DIVVY, 1, 5)
    assert isinstance(agent, SimultaneousIsmctsAgent) and agent.name == "sm_ismcts"
    assert (agent.iterations, agent.exploration, agent.policy.kind) == (7, 1.0, "heuristic")
