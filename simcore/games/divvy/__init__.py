"""Divvy the Loot (``divvy``): rules in ``rules.py``, deck in ``cards.toml``,
heuristic in ``agents.py``, the designer's view of a state in ``describe.py``,
rule-to-test map in ``RULES.md``."""

from __future__ import annotations

from simcore.api import TraceSink
from simcore.games.divvy.agents import DivvyHeuristicAgent
from simcore.games.divvy.describe import describe_state
from simcore.games.divvy.rules import CONSTRAINTS, DATA_FILE, INFO, DivvyConfig, DivvyState, compile_config
from simcore.kit.game import KitGame


def new_divvy_game(config: DivvyConfig, n_players: int, seed: int, trace: TraceSink | None) -> DivvyState:
    """A new game shuffled by ``seed``: Divvy is two-player only (``KitGame`` has checked
    ``n_players``), so ``DivvyState.new_game`` takes no player count."""
    return DivvyState.new_game(config, seed, trace)


GAME: KitGame[DivvyConfig, DivvyState] = KitGame(
    INFO, DATA_FILE, compile_config, new_divvy_game, DivvyHeuristicAgent, describe_state, DivvyState, CONSTRAINTS)
