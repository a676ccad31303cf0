"""Agents that break seat-honesty on purpose, one way each, so the tests can
show that ``simcore.agents.honesty.check_seat_honesty`` catches them. Named
by import path (``tests.agents.cheating_agents:Peeker``) like a user's agent."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from simcore.api import Agent, Game, GameState
from simcore.rng import Generator


class Peeker(Agent):
    """Chooses by a digest of every seat's observation: the others' hidden cards included."""

    def __init__(self, game: Game, seat: int, rng: Generator) -> None:
        self.name = "peeker"

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        seen = repr([state.observation(seat) for seat in range(state.n_players)])
        return legal_actions[zlib.crc32(seen.encode()) % len(legal_actions)]


class ShuffleReader(Agent):
    """Chooses by the game's own generator: it foresees the next shuffle."""

    def __init__(self, game: Game, seat: int, rng: Generator) -> None:
        self.name = "shuffle_reader"

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        future = state.rng.copy()  # type: ignore[attr-defined]
        return legal_actions[future.below(len(legal_actions))]


class Meddler(Agent):
    """Plays its first idea on the real state to see what happens (and leaves it changed)."""

    def __init__(self, game: Game, seat: int, rng: Generator) -> None:
        self.name = "meddler"

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        state.apply(legal_actions[0])
        return legal_actions[0]


class Crasher(Agent):
    """Fails on its first decision (the check reports it, it does not crash)."""

    def __init__(self, game: Game, seat: int, rng: Generator) -> None:
        self.name = "crasher"

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        raise RuntimeError("no idea what to do\nsecond line")
