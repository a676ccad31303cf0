"""Orchard (``orchard``), the game kit's example game: rules in ``rules.py``,
cards in ``cards.toml``, heuristic in ``agents.py``, rule-to-test map in
``RULES.md``; ``docs/new-game.md`` walks through it. Not registered in
``simcore.registry`` (it is a test game), but ``GAME`` is a complete
``simcore.api.Game``: ``play_game``, the recorder and the conformance tests
take it like any registered game."""

from __future__ import annotations

from simcore.describe import StateView
from simcore.kit.game import KitGame
from simcore.kit.view import describe_kit_state
from tests.example_game.agents import OrchardHeuristicAgent
from tests.example_game.rules import (
    CONSTRAINTS,
    DATA_FILE,
    INFO,
    NUMBER_NAMES,
    SEAT_NUMBER_NAMES,
    TASKS,
    OrchardConfig,
    OrchardState,
    compile_config,
)


def describe_state(state: OrchardState) -> StateView:
    """Hands, orchards, market, discard and draw piles (face down), the numbers."""
    phase = TASKS.names[state.decisions.asked.kind] if not state.over else "over"
    return describe_kit_state(state, state.config.names, phase, NUMBER_NAMES, SEAT_NUMBER_NAMES)


GAME: KitGame[OrchardConfig, OrchardState] = KitGame(
    INFO, DATA_FILE, compile_config, OrchardState.new_game, OrchardHeuristicAgent, describe_state, OrchardState,
    CONSTRAINTS)
