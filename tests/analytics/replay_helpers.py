"""An independent driver for replay tests: the experiment's game played by a
plain loop (the one ``simcore.play.play_game`` runs), with every seat's hand by
card name read straight from the state after set-up and after every action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from analytics.folders import read_spec
from experiments.spec import parse_spec, replay_setup
from simcore.agents.registry import make_agent
from simcore.api import GameState
from simcore.games.ring_of_chaos.config import CARD_NAMES as RING_CARD_NAMES
from simcore.registry import get_game
from simcore.seeding import agent_seed


def hand_names(game_id: str, state: GameState, seat: int) -> list[str]:
    """``seat``'s hand by card name, through each game's own card data."""
    raw: Any = state
    if game_id == "theseus":
        return [raw.config.names[raw.card_of[instance]] for instance in raw.hand(seat)]
    if game_id == "ring_of_chaos":
        return [RING_CARD_NAMES[card] for card in raw.hand(seat)]
    return [raw.config.names[card] for card in raw.hand(seat)]


def hands_after_every_action(experiment_dir: Path, variant: str, n_players: int,
                             game_index: int) -> list[list[list[str]]]:
    """Per moment (set-up, then after each action) and per seat, the hand by card name."""
    spec = parse_spec(read_spec(experiment_dir), str(experiment_dir))
    setup = replay_setup(spec, variant, n_players, game_index)
    game = get_game(setup.game)
    agents = [make_agent(setup.lineup[seat], game, seat, agent_seed(setup.seed, seat))
              for seat in range(setup.n_players)]
    state = game.new_state(game.configure(setup.parameters), setup.n_players, setup.seed)
    moments = [[hand_names(setup.game, state, seat) for seat in range(setup.n_players)]]
    while state.current_player >= 0:
        actions = state.legal_actions()
        action = actions[0] if len(actions) == 1 else agents[state.current_player].choose(state, actions)
        state.apply(action)
        moments.append([hand_names(setup.game, state, seat) for seat in range(setup.n_players)])
    return moments
