"""The ``random`` agent: uniform over the legal actions."""

from __future__ import annotations

from collections.abc import Sequence

from simcore.api import Agent, GameState
from simcore.rng import Generator


class RandomAgent(Agent):
    """Picks each legal action with equal probability from its own generator."""


    def __init__(self, rng: Generator) -> None:
        self.name = "random"
        self.rng = rng

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """A uniformly drawn legal action."""
        if isinstance(legal_actions, list):  # what games give: indexed natively when compiled
            actions: list[int] = legal_actions
            return actions[self.rng.below(len(actions))]
        return legal_actions[self.rng.below(len(legal_actions))]
