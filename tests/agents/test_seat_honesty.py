"""Agents are seat-honest: a choice depends only on what the seat can see.

Every shipped agent, and the bring-your-own example, passes the public check
``simcore.agents.honesty.check_seat_honesty`` (the same one ``cardlab
check-agent`` runs on a user's agent): the same choice when only the hidden
cards differ (the copy made by ``resample_hidden``), or only the game's
generator that decides future shuffles, and the position left unchanged.
Agents that cheat on purpose (``tests/agents/cheating_agents.py``) fail it.
"""

from __future__ import annotations

import pytest

from simcore.agents.honesty import DEFAULT_SEED, check_seat_honesty
from simcore.registry import GAMES
from simcore.rng import Generator
from tests.agents.helpers import GAME_IDS, config_of, decision_points

SHIPPED_AGENTS = ("random", "heuristic", "osla(rollouts=2)", "ismcts(iterations=40)",
                  "ismcts(iterations=20,rollout=heuristic)", "sm_ismcts(iterations=40)",
                  "sm_ismcts(iterations=20,rollout=heuristic)",
                  "experiments.agents.greedy_agent:GreedyAgent(samples=2)")
POSITIONS_PER_GAME = 6
CHECK_SEEDS = {"theseus": 36}
"""The seeded game of the check, where the default one's positions hide nothing
between seats: a Theseus Hand hides only cards drawn face down (a card taken
from the face-up Board is known to every seat), and seed 36's positions hold some."""


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("agent_text", SHIPPED_AGENTS)
def test_every_shipped_agent_passes_the_seat_honesty_check(game_id: str, agent_text: str) -> None:
    game = GAMES[game_id]
    report = check_seat_honesty(game, agent_text, positions=POSITIONS_PER_GAME,
                                seed=CHECK_SEEDS.get(game_id, DEFAULT_SEED))
    assert report.honest, report.problems
    assert report.positions == POSITIONS_PER_GAME
    if game.info.hidden_between_seats:
        assert report.hidden_differed, "the check must compare states whose hidden cards differ"


@pytest.mark.parametrize(("agent_class", "problem"), [
    ("Peeker", "another choice when only the cards seat"),
    ("ShuffleReader", "another choice when only the game's future shuffles differ"),
    ("Meddler", "choose() changed the state it was shown"),
])
@pytest.mark.parametrize("game_id", ["divvy", "theseus"])
def test_the_check_catches_an_agent_that_cheats(game_id: str, agent_class: str, problem: str) -> None:
    report = check_seat_honesty(GAMES[game_id], f"tests.agents.cheating_agents:{agent_class}",
                                seed=CHECK_SEEDS.get(game_id, DEFAULT_SEED))
    assert not report.honest
    assert any(problem in line for line in report.problems), report.problems


def test_an_agent_that_raises_is_reported_in_one_line_not_a_crash_of_the_check() -> None:
    report = check_seat_honesty(GAMES["divvy"], "tests.agents.cheating_agents:Crasher")
    assert report.problems == ["position 0: the agent raised RuntimeError: no idea what to do"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_resampling_keeps_what_the_seat_sees_and_depends_only_on_it_and_the_generator(game_id: str) -> None:
    """The root of seat-honesty: a redraw keeps the seat's observation and
    legal actions, and from two states that look the same to a seat the
    same generator gives the same copy."""
    game = GAMES[game_id]
    n_players = max(2, game.info.min_players)
    state = game.new_state(config_of(game), n_players, seed=8)
    for index, real in enumerate(list(decision_points(state, Generator(9)))[:40]):
        seat = real.current_player
        other = real.resample_hidden(seat, Generator(500 + index))
        assert other.observation(seat) == real.observation(seat)
        assert list(other.legal_actions()) == list(real.legal_actions())
        copies = [position.resample_hidden(seat, Generator(index)) for position in (real, other)]
        assert [copies[0].observation(s) for s in range(n_players)] == [
            copies[1].observation(s) for s in range(n_players)
        ]
