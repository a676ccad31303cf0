"""Parameters: the declared constraints give the project's one-line errors."""

from __future__ import annotations

import pytest

from simcore.parameters import ParameterError, apply_overrides
from tests.example_game import GAME


@pytest.mark.parametrize(("path", "value", "message"), [
    ("rules.hand_size", 0, "rules.hand_size: expected a number from 1 to 8"),
    ("rules.rounds", 51, "rules.rounds: expected a number from 1 to 50"),
    ("rules.set_bonus", -1, "rules.set_bonus: expected at least 0"),
    ("cards.pear_3.kind", "fig", "cards.pear_3.kind: expected one of apple, pear, plum"),
    ("cards.plum_5.value", 10, "cards.plum_5.value: expected a number from 0 to 9"),
])
def test_a_value_outside_its_constraint_is_refused_naming_the_path(path: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        GAME.configure(apply_overrides(GAME.default_parameters(), {path: value}))
    assert str(raised.value) == message


def test_a_deck_too_small_for_four_hands_and_the_market_is_refused() -> None:
    overrides = {f"cards.{name}.copies": 0 for name in GAME.default_parameters()["cards"]}
    with pytest.raises(ParameterError) as raised:
        GAME.configure(apply_overrides(GAME.default_parameters(), overrides))
    assert str(raised.value) == "cards: expected a deck of at least 15 cards (four hands and the market), got 0"


def test_a_wrong_player_count_is_refused() -> None:
    config = GAME.configure(GAME.default_parameters())
    with pytest.raises(ValueError, match=r"^orchard is played by 2 to 4 players, not 5$"):
        GAME.new_state(config, 5, 1)
