"""Ring of Chaos (``ring_of_chaos``): rules in ``rules.py``, compiled parameters in
``config.py``, cards, parties and maps in ``cards.toml``, heuristic in
``agents.py``, the designer's view of a state in ``describe.py``, rule-to-test
map in ``RULES.md``."""

from __future__ import annotations

from simcore.games.ring_of_chaos.agents import RingHeuristicAgent
from simcore.games.ring_of_chaos.config import CONSTRAINTS, DATA_FILE, RingConfig, check_party_draft, compile_config
from simcore.games.ring_of_chaos.describe import describe_state
from simcore.games.ring_of_chaos.rules import INFO, RingState
from simcore.kit.game import KitGame

GAME: KitGame[RingConfig, RingState] = KitGame(
    INFO, DATA_FILE, compile_config, RingState.new_game, RingHeuristicAgent, describe_state, RingState, CONSTRAINTS,
    players_check=check_party_draft)
