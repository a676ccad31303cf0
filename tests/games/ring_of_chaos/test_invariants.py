"""Properties of every step of many games played by random (and heuristic) agents.

``tests.gamekit.play_checked`` plays each game as ``simcore.play.play_game``
does, step by step (same agents, same seeds), so each state can be checked;
the finished game is then compared with ``play_game``'s.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.api import GameState
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.rules import (
    DEAD,
    END_ELIMINATION,
    END_POINTS,
    END_TURN_CAP,
    FULL,
    RING_HOLDER,
    RING_SPACE,
    TURN_COUNT,
    WINNER,
    RingState,
)
from tests import gamekit

from .helpers import DEFAULT, LABYRINTH, locations


def check_step(state: GameState) -> None:
    """Every invariant of a position."""
    assert isinstance(state, RingState)
    config = state.config
    assert locations(state) == Counter(config.deck)  # every card in exactly one place
    occupied = [space for space in range(config.board.n_spaces) if state.occupant(space) >= 0]
    assert len(occupied) == sum(1 for seat in range(state.n_players) if state.alive(seat) and state.position(seat) >= 0)
    for seat in range(state.n_players):
        assert all(DEAD <= status <= FULL for status in state.statuses(seat))
        assert 0 <= state.points(seat) <= config.points_to_win
        if state.party(seat) < 0:
            continue
        if state.alive(seat):
            assert max(state.statuses(seat)) > DEAD
            if state.position(seat) >= 0:
                assert state.occupant(state.position(seat)) == seat
        else:
            assert state.hand(seat) == [] and state.position(seat) == -1 and state.imprisoned(seat) == []
            assert state.numbers[RING_HOLDER] != seat
    assert (state.numbers[RING_HOLDER] >= 0) != (state.numbers[RING_SPACE] >= 0)  # worn or on the map, never both
    if config.points_to_win in state.scores():
        assert state.is_terminal()
    if not state.is_terminal():
        assert 0 <= state.current_player < state.n_players and len(state.legal_actions()) > 0
        assert state.alive(state.current_player)  # an eliminated party is never asked anything
        assert len(set(state.legal_actions())) == len(state.legal_actions())
        assert state.numbers[TURN_COUNT] <= config.max_turns


def play_checked(config: object, n_players: int, seed: int, lineup: list[str]) -> RingState:
    """Play one game step by step, checking every position; compare with play_game."""
    state, played = gamekit.play_checked(GAME, config, n_players, seed, check_step, lineup)
    assert isinstance(state, RingState) and isinstance(played.state, RingState)
    assert played.state.scores() == state.scores()
    return state


@pytest.mark.parametrize("lineup", ["random", "heuristic"])
def test_every_card_is_in_one_place_statuses_are_legal_and_points_stay_within_0_to_11_at_every_step(
    lineup: str,
) -> None:
    endings: Counter[str] = Counter()
    for seed in range(100):
        n_players = 2 + seed % 5
        config = DEFAULT if seed % 2 else LABYRINTH
        state = play_checked(config, n_players, seed, [lineup] * n_players)
        endings[state.end_reason()] += 1
        assert state.end_reason() in (END_POINTS, END_ELIMINATION, END_TURN_CAP)
        if state.end_reason() == END_POINTS:
            assert state.points(state.numbers[WINNER]) == DEFAULT.points_to_win
        if state.end_reason() == END_ELIMINATION:
            assert [seat for seat in range(n_players) if state.alive(seat)] == state.winners()
    assert endings[END_POINTS] > 0 and endings[END_ELIMINATION] > 0
