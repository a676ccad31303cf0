"""A bring-your-own agent, the worked example of the README ("Bring your own agent").

Name it in an experiment file by import path, with parameters like the
built-in agents::

    agents = ["experiments.agents.greedy_agent:GreedyAgent(samples=3)", "random"]

``GreedyAgent`` works on every game through the game API alone: for each
legal action it plays the action, and the forced steps after it, on
``samples`` redraws of what its seat cannot see, and keeps the action that
leaves its own score furthest ahead of the best other seat's (the game's
``scores()``; ties, which are common, go to a random one of the tied
actions when ``tie_break = "random"``, else to the first).

It follows the rules every agent must follow to be *seat-honest*, and so
passes ``cardlab check-agent experiments.agents.greedy_agent:GreedyAgent --game divvy``:

- it looks ahead only on ``determinize(state, seat, rng)`` copies, never on
  ``state`` itself, which it must not change;
- every random number comes from ``self.rng``, the generator it was given,
  so the same seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.agents.search import determinize
from simcore.api import Agent, Game, GameState
from simcore.rng import Generator

TIE_BREAKS = ("random", "first")


class GreedyAgent(Agent):
    """The action with the best score margin one step ahead (see the module docstring)."""

    def __init__(self, game: Game, seat: int, rng: Generator, samples: int = 2, tie_break: str = "random") -> None:
        if samples < 1:
            raise ValueError(f"samples: expected at least 1, got {samples}")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break: expected one of {', '.join(TIE_BREAKS)}, got {tie_break!r}")
        self.name = "greedy"
        self.seat = seat
        self.rng = rng
        self.samples = samples
        self.tie_break = tie_break

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """The legal action with the best mean margin; see the module docstring for ties."""
        margins = [self._mean_margin(state, action) for action in legal_actions]
        best = max(margins)
        tied = [action for action, margin in zip(legal_actions, margins, strict=True) if margin == best]
        if self.tie_break == "first":
            return tied[0]
        return tied[self.rng.below(len(tied))]

    def _mean_margin(self, state: GameState, action: int) -> float:
        total = 0.0
        for _ in range(self.samples):
            copy = determinize(state, self.seat, self.rng)
            copy.apply(action)
            while not copy.is_terminal() and len(copy.legal_actions()) == 1:
                copy.apply(copy.legal_actions()[0])
            scores = copy.scores()
            total += scores[self.seat] - max(score for seat, score in enumerate(scores) if seat != self.seat)
        return total / self.samples
