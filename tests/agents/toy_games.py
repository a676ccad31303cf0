"""A one-move simultaneous game for testing search agents: doors or safe.

Seat 0 picks one of three doors or the safe option; at the same time seat 1
picks a door to guard (its choice and seat 0's are revealed together). A
door seat 1 does not guard wins for seat 0; a guarded door loses; the safe
option is a draw. Played simultaneously, a door wins 2/3 of the time against
an unknown guard, so a door beats the safe option's 1/2; a search that lets
seat 1 "see" seat 0's door before guarding values every door at 0 and plays
safe. The state follows the game API with Divvy's convention for
simultaneous moves (seat 0 first, its choice hidden in ``pending``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcore.api import GameState, ranks_from_scores
from simcore.rng import Generator

DOORS = (0, 1, 2)
SAFE = 3


class DoorsState(GameState):
    """One game of doors or safe (see the module docstring)."""

    def __init__(self) -> None:
        self.n_players = 2
        self.current_player = 0
        self.pending = -1
        self.result: list[float] | None = None

    def legal_actions(self) -> Sequence[int]:
        return (*DOORS, SAFE) if self.current_player == 0 else DOORS

    def apply(self, action: int) -> None:
        if self.current_player == 0:
            self.pending, self.current_player = action, 1
            return
        door, guard = self.pending, action
        first = 0.5 if door == SAFE else float(door != guard)
        self.result = [first, 1.0 - first]
        self.current_player = -1

    def rewind_simultaneous_move(self) -> int:
        if self.result is not None:
            return 0
        self.pending, self.current_player = -1, 0
        return 2

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        assert self.result is not None
        return list(self.result)

    def winners(self) -> list[int]:
        return [seat for seat, value in enumerate(self.returns()) if value == 1.0]

    def scores(self) -> list[int]:
        return [int(2 * value) for value in self.returns()]

    def ranks(self) -> list[int]:
        return ranks_from_scores(self.scores()) if self.result is not None else [1, 1]

    def observation(self, seat: int) -> Any:
        own = self.pending if seat == 0 else -1
        return (self.current_player, own, self.pending >= 0, self.result)

    def resample_hidden(self, seat: int, rng: Generator) -> DoorsState:
        copy = self.clone()
        if seat == 1 and copy.pending >= 0:  # seat 0's choice is hidden from seat 1 until the reveal
            copy.pending = rng.below(len(DOORS) + 1)
        return copy

    def clone(self) -> DoorsState:
        copy = DoorsState()
        copy.current_player, copy.pending = self.current_player, self.pending
        copy.result = None if self.result is None else list(self.result)
        return copy


class SequentialDoorsState(DoorsState):
    """The same game without the simultaneous-move marker (the API default)."""

    def rewind_simultaneous_move(self) -> int:
        return 0

    def clone(self) -> SequentialDoorsState:
        copy = SequentialDoorsState()
        copy.current_player, copy.pending = self.current_player, self.pending
        copy.result = None if self.result is None else list(self.result)
        return copy
