"""Party of the Theseus (``theseus``): rules in ``rules.py``, the six Rank decks
in ``cards.toml``, heuristic in ``agents.py``, the designer's view of a state
in ``describe.py``, rule-to-test map in ``RULES.md``."""

from __future__ import annotations

from simcore.games.theseus.agents import TheseusHeuristicAgent
from simcore.games.theseus.describe import describe_state
from simcore.games.theseus.rules import (
    CONSTRAINTS,
    DATA_FILE,
    INFO,
    TheseusConfig,
    TheseusState,
    compile_config,
)
from simcore.kit.game import KitGame

GAME: KitGame[TheseusConfig, TheseusState] = KitGame(
    INFO, DATA_FILE, compile_config, TheseusState.new_game, TheseusHeuristicAgent, describe_state, TheseusState,
    CONSTRAINTS)
