"""Parameters: dotted-path overrides of cards.toml, and configure errors that name the path."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from simcore.agents import parse_agent_spec
from simcore.games.divvy import GAME
from simcore.games.divvy.rules import CHAFF, CONSTRAINTS, DRAW_PILE, END_ROUNDS, LEAD, TREASURE_ROW, DivvyState
from simcore.parameters import ParameterError, apply_overrides
from simcore.play import play_game

from .helpers import DEFAULT, configured, d20, icon


def test_the_defaults_are_the_rulebooks_numbers() -> None:
    rules = GAME.default_parameters()["rules"]
    assert (rules["hand_size"], rules["hand_limit"], rules["rounds"], rules["treasure_target"]) == (5, 5, 5, 20)
    assert rules["min_chaff"] == 1 and rules["bonus_draw"] == 1
    assert (DEFAULT.hand_size, DEFAULT.hand_limit, DEFAULT.rounds, DEFAULT.treasure_target) == (5, 5, 5, 20)


def test_an_override_changes_one_leaf_and_leaves_the_defaults_untouched() -> None:
    defaults = GAME.default_parameters()
    resolved = apply_overrides(defaults, {"rules.rounds": 3, "cards.axes_7.value": 9})
    assert resolved["rules"]["rounds"] == 3 and resolved["cards"]["axes_7"]["value"] == 9
    assert defaults["rules"]["rounds"] == 5 and defaults["cards"]["axes_7"]["value"] == 7
    config = GAME.configure(resolved)
    assert config.rounds == 3 and config.values[config.names.index("axes_7")] == 9
    assert config.values[config.names.index("axes_8")] == 8


def test_card_copies_overrides_change_the_deck() -> None:
    config = configured({"cards.axes_12.copies": 0, "cards.bows_1.copies": 3})
    deck = Counter(config.deck)
    assert deck[config.names.index("axes_12")] == 0
    assert deck[config.names.index("bows_1")] == 3
    assert len(config.deck) == len(DEFAULT.deck) - 1 + 2
    state = DivvyState.new_game(config, 4, None)
    everything = state.hand(0) + state.hand(1) + state.zones[TREASURE_ROW].cards + state.zones[DRAW_PILE].cards
    assert Counter(everything) == deck


def test_a_card_attribute_override_changes_that_card() -> None:
    config = configured({"cards.axes_7.icon": "shield", "cards.axes_7.d20": 20, "cards.axes_7.coin": "gold"})
    card = config.names.index("axes_7")
    assert icon("axes_7") == "sword" and icon("axes_7", config) == "shield"
    assert d20("axes_7", config) == 20 and config.coins[card] == 3


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("rules.round", 4),
        ("rules.coin_values.platinum", 4),
        ("cards.axes_13.copies", 1),
        ("cards.axes_7.colour", "red"),
    ],
)
def test_an_unknown_path_is_an_error_that_names_it(path: str, value: Any) -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides(GAME.default_parameters(), {path: value})
    assert raised.value.path == path
    assert str(raised.value).startswith(f"{path}: unknown parameter path")


@pytest.mark.parametrize(
    ("path", "value"),
    [("rules.rounds", "five"), ("rules.rounds", 4.5), ("cards.axes_7.copies", True), ("cards.axes_7.icon", 2),
     ("rules.tied_strength", False)],
)
def test_a_value_of_the_wrong_type_is_an_error_that_names_the_path(path: str, value: Any) -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides(GAME.default_parameters(), {path: value})
    assert raised.value.path == path
    assert "expected" in raised.value.message


def test_overriding_a_whole_group_is_an_error_that_names_it() -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides(GAME.default_parameters(), {"rules.coin_values": {"gold": 4}})
    assert raised.value.path == "rules.coin_values"


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("rules.hand_size", 0),
        ("rules.hand_size", 2),  # no room for a lead fighter, a bid and a brawl card
        ("rules.hand_limit", 2),
        ("rules.rounds", 0),
        ("rules.treasure_target", 0),
        ("rules.min_chaff", 0),  # the rulebook: at least 1 card
        ("rules.bonus_draw", -1),
        ("rules.tied_strength", "split"),
        ("cards.axes_7.icon", "hammer"),
        ("cards.axes_7.coin", "platinum"),
        ("cards.axes_7.d20", 0),
        ("cards.axes_7.d20", 21),
        ("cards.axes_7.value", -1),
        ("cards.axes_7.copies", -1),
        ("cards.axes_7.copies", 10**12),  # every deck is built in memory: refused, not an exhausted machine
    ],
)
def test_configure_rejects_values_out_of_range_naming_the_path(path: str, value: Any) -> None:
    resolved = apply_overrides(GAME.default_parameters(), {path: value})
    with pytest.raises(ParameterError) as raised:
        GAME.configure(resolved)
    assert raised.value.path == path
    assert str(raised.value).startswith(f"{path}: expected")


def test_the_ranges_and_choices_are_declared_on_the_game_whose_configure_checks_them() -> None:
    assert GAME.constraints == CONSTRAINTS


ROOM = "a lead fighter, the chaff bid and a brawl card (min_chaff + 2 or more)"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"rules.hand_size": 2}, f"rules.hand_size: expected a first hand with room for {ROOM}"),
        ({"rules.hand_limit": 3, "rules.min_chaff": 2}, f"rules.hand_limit: expected room for {ROOM}"),
    ],
)
def test_a_hand_without_room_for_a_fighter_a_bid_and_a_brawl_card_is_an_error_saying_so(
    overrides: dict[str, Any], message: str
) -> None:
    with pytest.raises(ParameterError) as raised:
        configured(overrides)
    assert str(raised.value) == message


def test_a_deck_too_small_to_deal_is_an_error_naming_the_cards() -> None:
    names = list(GAME.default_parameters()["cards"])
    overrides = {f"cards.{name}.copies": 0 for name in names[:40]}  # 8 cards left for two hands of 5
    with pytest.raises(ParameterError) as raised:
        configured(overrides)
    assert str(raised.value) == "cards: expected a deck of at least 11 cards, got 8"


def test_a_game_with_an_override_obeys_it() -> None:
    config = configured({"rules.rounds": 3, "rules.min_chaff": 2, "rules.treasure_target": 30})
    played = play_game(GAME, config, 2, 9, [parse_agent_spec("random")] * 2)
    assert played.state.end_reason() == END_ROUNDS and played.state.turns() == 3
    state = DivvyState.new_game(config, 9, None)
    row_d20 = [config.d20[card] for card in state.zones[TREASURE_ROW].cards]
    assert sum(row_d20) >= 30 and sum(row_d20[:-1]) < 30
    assert state.phase == LEAD
    state.apply(0)
    state.apply(0)
    assert state.phase == CHAFF
    assert {bin(mask).count("1") for mask in state.legal_actions()} == {2, 3}  # at least 2, one left to brawl
