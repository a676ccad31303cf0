"""Agents are seat-honest: a choice depends only on what the seat can see.

Two states with the same observation for the acting seat but different
hidden cards (the second made by ``resample_hidden``), and agents built with
the same seed, must choose the same action.
"""

from __future__ import annotations

import pytest

from simcore.agents.registry import make_agent, parse_agent_spec
from simcore.registry import GAMES
from simcore.rng import Generator
from tests.agents.helpers import GAME_IDS, config_of, decision_points

SEARCH_AGENTS = ("osla(rollouts=2)", "ismcts(iterations=40)", "ismcts(iterations=20,rollout=heuristic)")
POSITIONS_PER_GAME = 6

@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("agent_text", SEARCH_AGENTS)
def test_an_agent_chooses_the_same_when_only_hidden_cards_differ(game_id: str, agent_text: str) -> None:
    game = GAMES[game_id]
    n_players = game.info.min_players if game.info.min_players > 1 else 2
    state = game.new_state(config_of(game), n_players, seed=31)
    spec = parse_agent_spec(agent_text)
    walk = list(decision_points(state, Generator(5)))
    step = max(1, len(walk) // POSITIONS_PER_GAME)
    hidden_differed = 0
    for index, real in enumerate(walk[::step][:POSITIONS_PER_GAME]):
        seat = real.current_player
        other = real.resample_hidden(seat, Generator(1000 + index))
        assert other.observation(seat) == real.observation(seat)
        assert list(other.legal_actions()) == list(real.legal_actions())
        if any(other.observation(s) != real.observation(s) for s in range(n_players) if s != seat):
            hidden_differed += 1
        chosen = [
            make_agent(spec, game, seat, seed=77).choose(copy, copy.legal_actions())
            for copy in (real, other)
        ]
        assert chosen[0] == chosen[1], f"position {index}: {chosen}"
    if game.info.hidden_between_seats:
        assert hidden_differed, "the test must compare states whose hidden cards differ"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_resampling_depends_only_on_the_observation_and_the_generator(game_id: str) -> None:
    """The root of seat-honesty: from two states that look the same to a
    seat, the same generator gives the same copy."""
    game = GAMES[game_id]
    n_players = max(2, game.info.min_players)
    state = game.new_state(config_of(game), n_players, seed=8)
    for index, real in enumerate(list(decision_points(state, Generator(9)))[:40]):
        seat = real.current_player
        other = real.resample_hidden(seat, Generator(500 + index))
        copies = [position.resample_hidden(seat, Generator(index)) for position in (real, other)]
        assert [copies[0].observation(s) for s in range(n_players)] == [
            copies[1].observation(s) for s in range(n_players)
        ]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_agent_ignores_the_game_generator_that_decides_future_shuffles(game_id: str) -> None:
    """Future shuffles are hidden from every seat: states that differ only in
    the game's own generator get the same choice."""
    game = GAMES[game_id]
    n_players = max(2, game.info.min_players)
    state = game.new_state(config_of(game), n_players, seed=12)
    spec = parse_agent_spec("ismcts(iterations=30)")
    for index, real in enumerate(list(decision_points(state, Generator(4)))[:30:6]):
        other = real.clone()
        other.rng = Generator(900 + index)  # type: ignore[attr-defined]
        seat = real.current_player
        chosen = [make_agent(spec, game, seat, seed=3).choose(copy, copy.legal_actions()) for copy in (real, other)]
        assert chosen[0] == chosen[1]
