"""Party of the Theseus (``theseus``): rules in ``rules.py``, the six Rank decks
in ``cards.toml``, heuristic in ``agents.py``, the designer's view of a state
in ``describe.py``, rule-to-test map in ``RULES.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.api import Agent, GameInfo, GameState, TraceSink
from simcore.describe import StateView
from simcore.games.theseus.agents import TheseusHeuristicAgent
from simcore.games.theseus.describe import describe_state
from simcore.games.theseus.rules import DATA_FILE, INFO, TheseusConfig, TheseusState, compile_config
from simcore.parameters import load_parameter_file
from simcore.rng import Generator


class TheseusGame:
    """The ``theseus`` game object registered in ``simcore.registry``."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        """The parameter tree of ``cards.toml``."""
        return load_parameter_file(DATA_FILE)

    def configure(self, parameters: Mapping[str, Any]) -> TheseusConfig:
        """Validate and compile a resolved parameter tree."""
        return compile_config(parameters)

    def new_state(
        self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None
    ) -> TheseusState:
        """A new game for 2 to 4 players shuffled by ``seed``."""
        if not INFO.min_players <= n_players <= INFO.max_players:
            raise ValueError(f"theseus is played by 2 to 4 players, not {n_players}")
        return TheseusState.new_game(config, n_players, seed, trace)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The strategy documented in ``agents.py``."""
        return TheseusHeuristicAgent(seat, rng)

    def describe_state(self, state: GameState) -> StateView:
        """``state`` as a designer reads it: hands, boards and the table (``describe.py``)."""
        if not isinstance(state, TheseusState):
            raise TypeError(f"expected a theseus state, got {type(state).__name__}")
        return describe_state(state)


GAME = TheseusGame()
