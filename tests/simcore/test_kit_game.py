"""KitGame: the generic game object checks constraints, the player count, the parameters
a player count cannot have, and the state type."""

from __future__ import annotations

import dataclasses

import pytest

from experiments.spec import SpecError, check_player_counts, parse_spec
from simcore.kit.game import KitGame, player_count_error
from simcore.parameters import ParameterError, apply_overrides, require
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


def test_the_parameters_a_player_count_cannot_have_are_the_games_own_check() -> None:
    config = GAME.configure(GAME.default_parameters())
    GAME.check_players(config, 4)  # a game without such a check: nothing to refuse

    def at_most_three(config: object, n_players: int) -> None:
        require(n_players <= 3, "rules.market_size", f"expected a market for {n_players} players")

    fussy = KitGame(GAME.info, GAME.data_file, GAME.compile_config, GAME.new_game, GAME.heuristic, GAME.describe,
                    GAME.state_type, GAME.constraints, players_check=at_most_three)
    fussy.check_players(config, 3)
    with pytest.raises(ParameterError, match=r"^rules.market_size: expected a market for 4 players$"):
        fussy.check_players(config, 4)
    with pytest.raises(ParameterError):
        check_player_counts(fussy, config, [2, 3, 4])  # what experiments.spec asks of every variant
    check_player_counts(GAMES["divvy"], GAMES["divvy"].configure(GAMES["divvy"].default_parameters()), [2])


def test_an_experiment_is_refused_when_the_games_defaults_cannot_seat_one_of_its_player_counts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The baseline has no overrides to blame: the error names player_counts.
    def two_only(config: object, n_players: int) -> None:
        require(n_players == 2, "rules.rounds", "expected 2 players for these rounds")

    divvy = GAMES["divvy"]
    monkeypatch.setattr(divvy, "check_players", two_only, raising=False)
    monkeypatch.setattr(divvy, "info", dataclasses.replace(divvy.info, max_players=3))
    with pytest.raises(SpecError) as raised:
        parse_spec({"name": "t", "game": "divvy", "games": 1, "player_counts": [2, 3]}, "t.toml")
    assert str(raised.value) == "t.toml: player_counts: rules.rounds: expected 2 players for these rounds"
