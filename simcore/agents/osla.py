"""The ``osla`` agent: one-step lookahead with rollouts.

``osla(rollouts=N, rollout=random|heuristic)`` tries each legal action on N
fresh determinizations of what its seat can see, plays each on to the end
with the rollout policy, and takes the action with the best mean result for
its seat. The cheap middle rung between the heuristic and ``ismcts``.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.agents.search import DEFAULT_MAX_STEPS, RolloutPolicy, determinize, first_best
from simcore.api import Agent, Game, GameState
from simcore.rng import Generator


class OslaAgent(Agent):
    """One-step lookahead: the legal action with the best mean rollout result."""

    def __init__(self, game: Game, seat: int, rng: Generator, rollouts: int = 10,
                 rollout: str = "random", max_steps: int = DEFAULT_MAX_STEPS) -> None:
        self.name = "osla"
        self.seat = seat
        self.rng = rng
        self.rollouts = rollouts
        self.policy = RolloutPolicy(rollout, game, rng, max_steps)

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Mean rollout value of each action over ``rollouts`` determinizations."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        means = [self._mean_value(state, action) for action in legal_actions]
        return first_best(legal_actions, means)

    def _mean_value(self, state: GameState, action: int) -> float:
        total = 0.0
        for _ in range(self.rollouts):
            # The real state is only resampled, never played on (seat-honesty).
            copy = determinize(state, self.seat, self.rng)
            copy.apply(action)
            total += self.policy.play_out(copy)[self.seat]
        return total / self.rollouts
