"""Party Wanted (``party_wanted``): rules in ``rules.py``, card data in
``cards.toml`` (compiled by ``config.py``), the party heuristic in
``agents.py``, the designer's view of a state in ``describe.py``, rule-to-test
map in ``RULES.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.api import Agent, GameInfo, GameState, TraceSink
from simcore.describe import StateView
from simcore.games.party_wanted.agents import PartyHeuristicAgent
from simcore.games.party_wanted.describe import describe_state
from simcore.games.party_wanted.rules import DATA_FILE, INFO, PartyConfig, PartyState, compile_config
from simcore.parameters import load_parameter_file
from simcore.rng import Generator


class PartyWantedGame:
    """The ``party_wanted`` game object registered in ``simcore.registry``."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        """The parameter tree of ``cards.toml``."""
        return load_parameter_file(DATA_FILE)

    def configure(self, parameters: Mapping[str, Any]) -> PartyConfig:
        """Validate and compile a resolved parameter tree."""
        return compile_config(parameters)

    def new_state(
        self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None
    ) -> PartyState:
        """A new game for 1 to 8 heroes shuffled by ``seed``."""
        return PartyState.new_game(config, n_players, seed, trace)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The shared party plan documented in ``agents.py``."""
        return PartyHeuristicAgent(seat, rng)

    def describe_state(self, state: GameState) -> StateView:
        """``state`` as a designer reads it: hands, boards and the table (``describe.py``)."""
        if not isinstance(state, PartyState):
            raise TypeError(f"expected a party_wanted state, got {type(state).__name__}")
        return describe_state(state)


GAME = PartyWantedGame()
