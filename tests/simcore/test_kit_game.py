"""KitGame: the generic game object checks constraints, the player count and the state type."""

from __future__ import annotations

import dataclasses

import pytest

from simcore.kit.game import player_count_error
from simcore.parameters import ParameterError, apply_overrides
from simcore.registry import GAMES
from tests.example_game import GAME


def test_the_player_count_message_names_the_game_and_the_allowed_counts() -> None:
    two_only = dataclasses.replace(GAME.info, id="divvy", min_players=2, max_players=2)
    assert player_count_error(two_only, 3) == "divvy is played by 2 players, not 3"
    assert player_count_error(GAME.info, 1, "heroes") == "orchard is played by 2 to 4 heroes, not 1"


def test_configure_checks_the_declared_constraints_before_compiling() -> None:
    with pytest.raises(ParameterError, match=r"^rules.market_size: expected a number from 0 to 6$"):
        GAME.configure(apply_overrides(GAME.default_parameters(), {"rules.market_size": 7}))


def test_describing_another_games_state_is_refused() -> None:
    divvy = GAMES["divvy"]
    state = divvy.new_state(divvy.configure(divvy.default_parameters()), 2, 1)
    with pytest.raises(TypeError, match=r"^expected a orchard state, got DivvyState$"):
        GAME.describe_state(state)
