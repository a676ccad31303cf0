"""Shared helpers of the agent tests: configs, random walks, significance."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from simcore.agents.honesty import decision_points
from simcore.api import Game, GameState
from simcore.registry import GAMES

GAME_IDS = sorted(GAMES)
__all__ = ["GAME_IDS", "binomial_tail", "config_of", "decision_points", "wins_of"]


def config_of(game: Game, **rules: Any) -> Any:
    """The game's default configuration with some ``rules.*`` values changed."""
    parameters = game.default_parameters()
    parameters["rules"].update(rules)
    return game.configure(parameters)


def binomial_tail(successes: int, trials: int, p: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, p): the one-sided p-value."""
    return sum(
        math.comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(successes, trials + 1)
    )


def wins_of(state: GameState, seats: Sequence[int]) -> int:
    """1 if one of ``seats`` is among the winners, else 0 (draws count as losses)."""
    return int(any(seat in state.winners() for seat in seats))
