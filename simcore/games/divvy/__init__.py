"""Divvy the Loot (``divvy``): rules in ``rules.py``, deck in ``cards.toml``,
heuristic in ``agents.py``, the designer's view of a state in ``describe.py``,
rule-to-test map in ``RULES.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.api import Agent, GameInfo, GameState, TraceSink
from simcore.describe import StateView
from simcore.games.divvy.agents import DivvyHeuristicAgent
from simcore.games.divvy.describe import describe_state
from simcore.games.divvy.rules import DATA_FILE, INFO, DivvyConfig, DivvyState, compile_config
from simcore.parameters import load_parameter_file
from simcore.rng import Generator


class DivvyGame:
    """The ``divvy`` game object registered in ``simcore.registry``."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        """The parameter tree of ``cards.toml``."""
        return load_parameter_file(DATA_FILE)

    def configure(self, parameters: Mapping[str, Any]) -> DivvyConfig:
        """Validate and compile a resolved parameter tree."""
        return compile_config(parameters)

    def new_state(
        self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None
    ) -> DivvyState:
        """A new two-player game shuffled by ``seed``."""
        if n_players != 2:
            raise ValueError(f"divvy is played by 2 players, not {n_players}")
        return DivvyState.new_game(config, seed, trace)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The strategy documented in ``agents.py``."""
        return DivvyHeuristicAgent(seat, rng)

    def describe_state(self, state: GameState) -> StateView:
        """``state`` as a designer reads it: hands, boards and the table (``describe.py``)."""
        if not isinstance(state, DivvyState):
            raise TypeError(f"expected a divvy state, got {type(state).__name__}")
        return describe_state(state)


GAME = DivvyGame()
