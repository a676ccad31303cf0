"""Party Wanted (``party_wanted``): rules in ``rules.py``, card data in
``cards.toml`` (compiled by ``config.py``), the party heuristic in
``agents.py``, the designer's view of a state in ``describe.py``, rule-to-test
map in ``RULES.md``."""

from __future__ import annotations

from simcore.games.party_wanted.agents import PartyHeuristicAgent
from simcore.games.party_wanted.config import CONSTRAINTS, check_party_size
from simcore.games.party_wanted.describe import describe_state
from simcore.games.party_wanted.rules import DATA_FILE, INFO, PartyConfig, PartyState, compile_config
from simcore.kit.game import KitGame

# KitGame refuses a count outside INFO's 1 to 8 heroes; check_party_size (an experiment's
# check before anything is played, and PartyState.new_game's) one the parameters cannot
# seat: more heroes than the boxes switched on have classes, a composition of another size.
GAME: KitGame[PartyConfig, PartyState] = KitGame(
    INFO, DATA_FILE, compile_config, PartyState.new_game, PartyHeuristicAgent, describe_state, PartyState,
    CONSTRAINTS, players_word="heroes", players_check=check_party_size)
