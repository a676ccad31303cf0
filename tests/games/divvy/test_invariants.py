"""Properties of every step of a few hundred games played by random agents.

The loop below is ``simcore.play.play_game`` step by step (same agents, same
seeds, forced single-option moves applied without asking), so each state can
be checked; the finished game is then compared with ``play_game``'s.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.agents import parse_agent_spec
from simcore.agents.registry import make_agent
from simcore.games.divvy import GAME
from simcore.games.divvy.rules import END_DECK, END_ROUNDS, LEAD, RESHUFFLED, ROUND, WON_TREASURE, DivvyState
from simcore.play import play_game
from simcore.seeding import agent_seed

from .helpers import DEFAULT, both, locations, seat_cards

DECK = Counter(DEFAULT.deck)


def _check_step(state: DivvyState) -> None:
    config = state.config
    assert locations(state) == DECK  # every card in exactly one place
    for seat in (0, 1):
        assert state.scores()[seat] == sum(config.coins[card] for card in state.seat_zone(seat, WON_TREASURE).cards)
    if state.phase == LEAD:
        for hand in both(state.hand):
            assert config.min_chaff + 2 <= len(hand) <= config.hand_limit
    if not state.is_terminal():
        assert state.current_player in (0, 1) and len(state.legal_actions()) > 0
        assert 1 <= state.numbers[ROUND] <= config.rounds


@pytest.mark.parametrize("lineup", [("random", "random"), ("heuristic", "random")], ids=["random", "heuristic"])
def test_every_card_is_in_exactly_one_place_and_coins_match_the_won_treasure_at_every_step(
    lineup: tuple[str, str],
) -> None:
    specs = [parse_agent_spec(name) for name in lineup]
    endings: Counter[str] = Counter()
    for seed in range(300):
        agents = [make_agent(specs[seat], GAME, seat, agent_seed(seed, seat)) for seat in (0, 1)]
        state = GAME.new_state(DEFAULT, 2, seed)
        decisions = 0
        _check_step(state)
        while not state.is_terminal():
            actions = state.legal_actions()
            if len(actions) == 1:
                action = actions[0]
            else:
                decisions += 1
                action = agents[state.current_player].choose(state, actions)
            state.apply(action)
            _check_step(state)
        endings[state.end_reason()] += 1
        if state.end_reason() == END_ROUNDS:
            assert state.turns() == DEFAULT.rounds
        else:
            assert state.end_reason() == END_DECK and state.numbers[RESHUFFLED]  # only on the second pass
            assert state.turns() < DEFAULT.rounds
        played = play_game(GAME, DEFAULT, 2, seed, specs)
        assert isinstance(played.state, DivvyState)
        assert played.decisions == decisions
        assert seat_cards(played.state, WON_TREASURE) == seat_cards(state, WON_TREASURE)
        assert played.state.scores() == state.scores()
        assert played.state.end_reason() == state.end_reason() and played.state.winners() == state.winners()
    assert endings[END_ROUNDS] > 0
