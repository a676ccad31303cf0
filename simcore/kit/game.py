"""``KitGame``: the one generic game object (``simcore.api.Game``).

Every game package used to write the same class in its ``__init__.py``:
load the parameter file, compile it, check the player count, make the
heuristic agent, describe a state. A game built with the kit writes instead::

    GAME = KitGame(INFO, DATA_FILE, compile_config, MyState.new_game, MyHeuristicAgent,
                   describe_state, MyState, CONSTRAINTS)

Compiled: ``new_state`` runs once per game (an interpreted call was ~2.5 k
instructions of every game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from simcore.api import Agent, GameInfo, GameState, TraceSink
from simcore.describe import StateView
from simcore.parameters import Constraint, check_constraints, load_parameter_file
from simcore.rng import Generator

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT", bound=GameState)


def player_count_error(info: GameInfo, n_players: int, players_word: str = "players") -> str:
    """The message of a wrong player count, e.g. ``divvy is played by 2 players, not 3``."""
    if info.min_players == info.max_players:
        allowed = f"{info.min_players} {players_word}"
    else:
        allowed = f"{info.min_players} to {info.max_players} {players_word}"
    return f"{info.id} is played by {allowed}, not {n_players}"


class KitGame(Generic[ConfigT, StateT]):
    """A registered game made of its parts (see the module docstring)."""

    def __init__(
        self,
        info: GameInfo,
        data_file: Path,
        compile_config: Callable[[Mapping[str, Any]], ConfigT],
        new_game: Callable[[ConfigT, int, int, TraceSink | None], StateT],
        heuristic: Callable[[int, Generator], Agent],
        describe: Callable[[StateT], StateView],
        state_type: type[StateT],
        constraints: Sequence[Constraint] = (),
        players_word: str = "players",
        players_check: Callable[[ConfigT, int], None] | None = None,
    ) -> None:
        self.info = info
        self.data_file = data_file
        self.compile_config = compile_config
        self.new_game = new_game
        self.heuristic = heuristic
        self.describe = describe
        self.state_type = state_type
        self.constraints = tuple(constraints)
        self.players_word = players_word
        self.players_check = players_check

    def default_parameters(self) -> dict[str, Any]:
        """The parameter tree of the game's data file."""
        return load_parameter_file(self.data_file)

    def configure(self, parameters: Mapping[str, Any]) -> ConfigT:
        """Check the declared constraints, then compile; errors name the path."""
        check_constraints(parameters, self.constraints)
        return self.compile_config(parameters)

    def check_players(self, config: ConfigT, n_players: int) -> None:
        """Raise ``ParameterError`` naming the parameter of ``config`` that makes a game of
        ``n_players`` (a count the game allows) impossible, e.g. a fixed party naming fewer
        heroes than seats; nothing for a game whose parameters do not depend on the count.

        ``experiments.spec`` calls it for every variant and player count of a spec, so that
        such a spec is refused in one line before anything is played; the game's
        ``new_game`` refuses the same (with the same check) for a caller that skipped the
        spec (``cardlab replay --set``), as a ``ParameterError`` too.
        """
        if self.players_check is not None:
            self.players_check(config, n_players)

    def new_state(self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None) -> StateT:
        """A new game for ``n_players`` seats shuffled by ``seed``; ValueError for a wrong count."""
        if not self.info.min_players <= n_players <= self.info.max_players:
            raise ValueError(player_count_error(self.info, n_players, self.players_word))
        return self.new_game(config, n_players, seed, trace)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """The game's documented heuristic strategy for ``seat``."""
        return self.heuristic(seat, rng)

    def describe_state(self, state: GameState) -> StateView:
        """``state`` as a designer reads it; TypeError for another game's state."""
        if not isinstance(state, self.state_type):
            raise TypeError(f"expected a {self.info.id} state, got {type(state).__name__}")
        return self.describe(state)
