"""The two-way readings of Divvy's rulebook (RULES.md, "Readings"): each is a
``rules.*`` switch whose default is the reading the rules followed before it
was a switch; each test sets up the situation the sentence speaks of and plays
it under both readings."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.games.divvy import GAME
from simcore.games.divvy.agents import brawl_position
from simcore.games.divvy.rules import DISCARD_PILE, DRAW_PILE, RESHUFFLED, ROUND
from simcore.parameters import ParameterError, apply_overrides

from .helpers import act, choose_many, choose_one, configured, hand_names, icon, ids, locations, to_brawl

# "...matches the battle icon of the last card in the row of revealed Treasure Cards
# (furthest away from the draw pile)": the row below is shield, then sword.
SHIELD_THEN_SWORD = ["axes_9", "axes_7"]


def test_the_readings_default_to_the_bonus_of_the_last_revealed_card_and_the_reshuffle_when_a_draw_finds_no_card(
        ) -> None:
    rules = GAME.default_parameters()["rules"]
    assert (rules["bonus_card"], rules["reshuffle"]) == ("last_revealed", "when_drawn")


@pytest.mark.parametrize(("reading", "bonus"), [("last_revealed", False), ("first_revealed", True)])
def test_the_bonus_card_is_the_last_revealed_treasure_card_or_with_the_switch_the_first(
        reading: str, bonus: bool) -> None:
    assert [icon(name) for name in SHIELD_THEN_SWORD] == ["shield", "sword"]
    state = to_brawl(SHIELD_THEN_SWORD, ["bows_1"], config=configured({"rules.bonus_card": reading}))
    choose_one(state, "bows_10", "staves_10")  # seat 0's shield beats seat 1's sword
    act(state, 0)  # seat 0 takes its placed cards back
    expected = Counter(["bows_11", "bows_12", "axes_1", "bows_10"])
    assert hand_names(state, 0) == expected + (Counter(["bows_1"]) if bonus else Counter())
    assert locations(state) == Counter(state.config.deck)


def test_the_first_revealed_bonus_card_is_the_oldest_of_a_row_with_treasure_carried_over() -> None:
    config = configured({"rules.bonus_card": "first_revealed"})
    # A tied round left axes_9 (shield) in the row; this round revealed axes_7 (sword) after it.
    state = to_brawl(SHIELD_THEN_SWORD, ["bows_1"], config=config, round_number=2)
    assert state.bonus_icon() == config.icons[ids(["axes_9"])[0]]


@pytest.mark.parametrize(("reading", "wanted"), [("last_revealed", "sword"), ("first_revealed", "shield")])
def test_the_heuristic_brawls_with_the_bonus_icon_of_the_reading_in_force(reading: str, wanted: str) -> None:
    state = to_brawl(SHIELD_THEN_SWORD, config=configured({"rules.bonus_card": reading}))
    # Seat 0 holds bows_10 (shield), bows_11 (sword), bows_12 (scroll), all off the lead's suit.
    assert icon(state.config.names[state.hand(0)[brawl_position(state, 0)]]) == wanted


@pytest.mark.parametrize("reading", ["when_drawn", "when_empty"])
def test_the_one_reshuffle_comes_when_a_draw_finds_no_card_or_with_the_switch_as_the_last_card_is_drawn(
        reading: str) -> None:
    state = to_brawl(["staves_2"], ["bows_1", "bows_2"], rest="discard",
                     config=configured({"rules.reshuffle": reading}))
    assert icon("staves_2") != "shield"  # no bonus draw: the replacement takes exactly the pile's two cards
    choose_one(state, "bows_10", "staves_10")  # seat 0 wins the brawl
    act(state, 1)  # and replaces its two placed cards with the pile's last two
    assert hand_names(state, 0) >= Counter(["bows_1", "bows_2"])
    discards_then = list(state.zones[DISCARD_PILE].cards)
    if reading == "when_empty":
        assert state.numbers[RESHUFFLED] == 1 and state.zones[DISCARD_PILE].cards == []
        assert len(state.zones[DRAW_PILE].cards) > 0
    else:
        assert state.numbers[RESHUFFLED] == 0 and state.zones[DRAW_PILE].cards == []
    choose_many(state, [], [])  # no reinforcements: the round ends and the lead fighters are discarded
    assert state.numbers[ROUND] == 2 and not state.is_terminal()
    leads = ids(["axes_12", "blades_12"])
    if reading == "when_empty":
        # Shuffled in as the pile ran out, before the round's used cards reached the discard pile.
        assert set(leads) <= set(state.zones[DISCARD_PILE].cards)
    else:
        # The round's reveal found no card: the discards, this round's lead fighters among them, came back.
        assert not set(leads) & set(state.zones[DISCARD_PILE].cards) and discards_then
        assert state.numbers[RESHUFFLED] == 1
    assert locations(state) == Counter(state.config.deck)


@pytest.mark.parametrize(("path", "value", "expected"), [
    ("rules.bonus_card", "middle", "expected 'last_revealed' or 'first_revealed'"),
    ("rules.reshuffle", "never", "expected 'when_drawn' or 'when_empty'"),
])
def test_an_unknown_reading_is_refused_naming_the_path(path: str, value: str, expected: str) -> None:
    with pytest.raises(ParameterError) as raised:
        GAME.configure(apply_overrides(GAME.default_parameters(), {path: value}))
    assert str(raised.value) == f"{path}: {expected}"
