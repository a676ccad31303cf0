"""Ring of Chaos (``ring_of_chaos``): rules in ``rules.py``, compiled parameters in
``config.py``, cards, parties and maps in ``cards.toml``, heuristic in
``agents.py``, the designer's view of a state in ``describe.py``, rule-to-test
map in ``RULES.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.api import Agent, GameInfo, GameState, TraceSink
from simcore.describe import StateView
from simcore.games.ring_of_chaos.agents import RingHeuristicAgent
from simcore.games.ring_of_chaos.config import DATA_FILE, RingConfig, compile_config
from simcore.games.ring_of_chaos.describe import describe_state
from simcore.games.ring_of_chaos.rules import INFO, RingState
from simcore.parameters import load_parameter_file
from simcore.rng import Generator


class RingOfChaosGame:
    """The ``ring_of_chaos`` game object registered in ``simcore.registry``."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        """The parameter tree of ``cards.toml``."""
        return load_parameter_file(DATA_FILE)

    def configure(self, parameters: Mapping[str, Any]) -> RingConfig:
        """Validate and compile a resolved parameter tree."""
        return compile_config(parameters)

    def new_state(
        self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None
    ) -> RingState:
        """A new game for 2 to 6 players shuffled by ``seed`` (the party draft comes first)."""
        return RingState.new_game(config, n_players, seed, trace)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The strategy documented in ``agents.py``."""
        return RingHeuristicAgent(seat, rng)

    def describe_state(self, state: GameState) -> StateView:
        """``state`` as a designer reads it: hands, boards and the table (``describe.py``)."""
        if not isinstance(state, RingState):
            raise TypeError(f"expected a ring_of_chaos state, got {type(state).__name__}")
        return describe_state(state)


GAME = RingOfChaosGame()
