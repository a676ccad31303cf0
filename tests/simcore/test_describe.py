"""Every registered game describes its states for the designer (``simcore.describe``)."""

from __future__ import annotations

import pytest

from simcore.api import Game
from simcore.describe import DescribesState, describe_state
from simcore.registry import GAMES
from simcore.rng import Generator

GAME_IDS = sorted(GAMES)


def _players(game: Game) -> int:
    return max(game.info.min_players, min(3, game.info.max_players))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_state_of_a_random_game_has_a_view_with_one_panel_per_seat(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, DescribesState)
    n_players = _players(game)
    state = game.new_state(game.configure(game.default_parameters()), n_players, 21)
    rng = Generator(22)
    while True:
        view = describe_state(game, state)
        assert [seat.seat for seat in view.seats] == list(range(n_players))
        assert view.to_act == state.current_player and view.turns == state.turns()
        assert all(isinstance(card, str) and card for seat in view.seats for card in seat.hand)
        assert view.table or view.table_facts
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    assert any(fact.name == "ended by" and fact.value == state.end_reason() for fact in view.table_facts)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_describing_a_state_changes_nothing_in_it(game_id: str) -> None:
    game = GAMES[game_id]
    n_players = _players(game)
    state = game.new_state(game.configure(game.default_parameters()), n_players, 5)
    rng = Generator(6)
    for _ in range(40):
        if state.is_terminal():
            break
        before = [state.observation(seat) for seat in range(n_players)]
        first = describe_state(game, state)
        assert describe_state(game, state) == first
        assert [state.observation(seat) for seat in range(n_players)] == before
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])


def test_a_state_of_another_game_is_refused_with_its_type_named() -> None:
    divvy, theseus = GAMES["divvy"], GAMES["theseus"]
    state = theseus.new_state(theseus.configure(theseus.default_parameters()), 2, 1)
    with pytest.raises(TypeError, match="expected a divvy state, got TheseusState"):
        describe_state(divvy, state)
